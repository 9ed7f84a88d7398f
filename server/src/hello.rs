//! A connection's first frame: the hello (docs/PROTOCOL.md section 2). The version rule, the
//! name, and the session: a new one, or the one a resume token names (from memory, else from the
//! store). Then the welcome, and the resume's takeover of the player's seats.
//!
//! Everything here runs once per connection, before the session's loop: [`crate::conn::serve`]
//! boxes it, so its (large) future is freed once the hello is done.

use std::sync::Arc;

use burraco_protocol::ErrorCode;
use burraco_protocol::wire::{
    ClientMessage, PROTOCOL_MAJOR, SeatRef, ServerMessage, WireSeat, parse_version,
    protocol_version,
};
use futures_util::SinkExt;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;

use crate::conn::frames::{
    CLOSE_GOING_AWAY, CLOSE_POLICY, CLOSE_PROTOCOL, CLOSE_TOO_BIG, FirstFrame, WebSocket, decode,
    decode_error, error, linger, next_data_frame, too_big_to_read,
};
use crate::outbound::{Frame, Outbox};
use crate::table::Command;
use crate::{Session, Shared};

/// A hello that was accepted: its format and the session it opened or resumed.
pub(crate) struct Greeted {
    /// Postcard binary frames (the hello's own format).
    pub binary: bool,
    /// The resume token.
    pub token: String,
    pub session: Session,
    pub resumed: bool,
    /// The minor version the hello said: no message newer than it is sent on this connection.
    pub minor: u16,
}

/// Reads and checks the hello, then opens or resumes the session; `None` when the connection
/// ended (after the documented error and close, if the hello was refused).
pub(crate) async fn greet(
    mut socket: WebSocket,
    shared: &Arc<Shared>,
) -> Option<(WebSocket, Greeted)> {
    let first = tokio::select! {
        biased;
        frame = Box::pin(next_data_frame(&mut socket)) => Ok(frame),
        _ = tokio::time::sleep(shared.config.hello_timeout) => Err(true),
        _ = shared.shutdown.cancelled() => Err(false),
    };
    let first = match first {
        Ok(FirstFrame::Data(frame)) => frame,
        Ok(FirstFrame::TooBig) => {
            return refuse(socket, false, too_big_to_read(), CLOSE_TOO_BIG).await;
        }
        Ok(FirstFrame::Gone) | Err(false) => return None,
        Err(true) => {
            let message = error(None, ErrorCode::HelloTimeout, "say hello first");
            return refuse(socket, false, message, CLOSE_POLICY).await;
        }
    };
    let (binary, decoded) = decode(&first)?;
    let (version, name, resume) = match decoded.result {
        Ok(ClientMessage::Hello {
            version,
            name,
            resume,
        }) => (version, name, resume),
        Ok(other) => {
            let message = error(
                other.id(),
                ErrorCode::HelloRequired,
                "the first message must be hello",
            );
            return refuse(socket, binary, message, CLOSE_POLICY).await;
        }
        Err(e) => {
            let message = decode_error(&first, decoded.id, &e);
            return refuse(socket, binary, message, CLOSE_POLICY).await;
        }
    };
    let minor = match parse_version(&version) {
        Some((major, minor)) if major == PROTOCOL_MAJOR => minor,
        _ => {
            let message = error(
                None,
                ErrorCode::UnsupportedVersion,
                format!(
                    "this server speaks {}.x (any minor); you said {version:?}",
                    PROTOCOL_MAJOR
                ),
            );
            return refuse(socket, binary, message, CLOSE_PROTOCOL).await;
        }
    };
    let Some(name) = normalise_name(&name) else {
        let message = error(
            None,
            ErrorCode::InvalidName,
            "a name is 1 to 32 characters, without control, format (zero-width, bidi) or \
             invisible characters, not starting with a combining mark",
        );
        return refuse(socket, binary, message, CLOSE_POLICY).await;
    };
    let resumed = match resume {
        Some(token) => Box::pin(resume_session(shared, token)).await,
        None => None,
    };
    let (token, session, resumed) = match resumed {
        Some((token, session)) => (token, session, true),
        None => match Box::pin(open_session(shared, name)).await {
            Some((token, session)) => (token, session, false),
            None => {
                let message = error(None, ErrorCode::InternalError, "could not open a session");
                return refuse(socket, binary, message, CLOSE_GOING_AWAY).await;
            }
        },
    };
    Some((
        socket,
        Greeted {
            binary,
            token,
            session,
            resumed,
            minor,
        },
    ))
}

/// The session of a resume token: in memory while its player is connected or seated, else in the
/// store (a player who was neither). `None` for an unknown token: the client gets a new session.
async fn resume_session(shared: &Shared, token: String) -> Option<(String, Session)> {
    if let Some(session) = shared.directory.session(&token) {
        return Some((token, session));
    }
    let session = shared.backplane.sessions.find(&token).await?;
    shared.directory.open_session(&token, session.clone());
    Some((token, session))
}

/// A new session, stored before it is used (a resume after a restart must find it); `None` when
/// the store cannot take it.
async fn open_session(shared: &Shared, name: String) -> Option<(String, Session)> {
    let token = crate::random_id("", 16);
    let session = Session {
        player: crate::random_id("p", 6),
        name,
    };
    if !shared.backplane.sessions.open(&token, &session).await {
        return None;
    }
    shared.directory.open_session(&token, session.clone());
    Some((token, session))
}

/// Queues the welcome (with the seats the player holds), then moves those seats to this
/// connection: the tables drop an older connection of the same player from them.
pub(crate) async fn welcome(shared: &Arc<Shared>, greeted: &Greeted, out: &Outbox) {
    let session = &greeted.session;
    let seats = crate::lobby::seats_of(shared, &session.player);
    tracing::debug!(player = %session.player, resumed = greeted.resumed, "hello");
    out.send_message(ServerMessage::Welcome {
        version: protocol_version(),
        session: greeted.token.clone(),
        player: session.player.clone(),
        name: session.name.clone(),
        resumed: greeted.resumed,
        seats: seats
            .iter()
            .map(|(table, seat)| SeatRef {
                table: table.clone(),
                seat: WireSeat(*seat),
            })
            .collect(),
    });
    for (table, _) in &seats {
        if let Some(handle) = crate::lobby::find(shared, table).await {
            handle
                .send(Command::Attach {
                    player: session.player.clone(),
                    out: out.clone(),
                })
                .await;
        }
    }
}

/// Sends one frame directly on a socket that has no writer task yet, then closes it (and lingers
/// for the client's close, see [`crate::conn::linger`]). Always `None`: the hello that refuses
/// ends there, with no session.
async fn refuse(
    mut socket: WebSocket,
    binary: bool,
    message: ServerMessage,
    code: u16,
) -> Option<(WebSocket, Greeted)> {
    let frame = Frame::new(message);
    let _ = socket.send(frame.to_ws(binary)).await;
    let closed = socket
        .send(Message::Close(Some(CloseFrame {
            code: code.into(),
            reason: "".into(),
        })))
        .await;
    if closed.is_ok() {
        // After a frame refused unread, its payload is still on the wire: raw bytes only.
        Box::pin(linger(socket, code == CLOSE_TOO_BIG)).await;
    }
    None
}

/// The name a player is shown under: trimmed, every run of whitespace inside made one space;
/// `None` when it is empty, longer than 32 characters, or holds a character that could make it
/// pass for another name (see [`is_deceptive`]), or starts with a combining mark (which would
/// combine with whatever a client shows before it). Look-alike letters of other scripts
/// (a Cyrillic "а" for a Latin "a") are not caught: a player is told apart by the player id.
pub(crate) fn normalise_name(raw: &str) -> Option<String> {
    let mut name = String::with_capacity(raw.len());
    for word in raw.split(char::is_whitespace).filter(|w| !w.is_empty()) {
        if !name.is_empty() {
            name.push(' ');
        }
        name.push_str(word);
    }
    let count = name.chars().count();
    let first_ok = name.chars().next().is_some_and(|c| !is_combining_mark(c));
    // Controls first: a tab or a newline inside a name is refused, not made a space.
    let clean = !raw.trim().chars().any(char::is_control) && !name.chars().any(is_deceptive);
    (first_ok && count <= 32 && clean).then_some(name)
}

/// Characters a name may not hold: controls (Cc), every format character (Cf: zero-width
/// spaces and joiners, bidi marks, embeddings, overrides and isolates, the soft hyphen, tags...),
/// the other default-ignorable characters that draw nothing (variation selectors, Hangul fillers,
/// the combining grapheme joiner, Mongolian free variation selectors, Khmer inherent vowels), the
/// Braille blank, private use characters (they draw whatever a font wants) and noncharacters.
/// An explicit list (Unicode 15.1's Cf and Default_Ignorable_Code_Point), not a crate's tables.
fn is_deceptive(c: char) -> bool {
    const RANGES: &[(u32, u32)] = &[
        (0x00AD, 0x00AD),    // soft hyphen
        (0x034F, 0x034F),    // combining grapheme joiner
        (0x0600, 0x0605),    // Arabic number signs
        (0x061C, 0x061C),    // Arabic letter mark
        (0x06DD, 0x06DD),    // Arabic end of ayah
        (0x070F, 0x070F),    // Syriac abbreviation mark
        (0x0890, 0x0891),    // Arabic pound and piastre marks above
        (0x08E2, 0x08E2),    // Arabic disputed end of ayah
        (0x115F, 0x1160),    // Hangul choseong and jungseong fillers
        (0x17B4, 0x17B5),    // Khmer inherent vowels
        (0x180B, 0x180F),    // Mongolian free variation selectors, vowel separator
        (0x200B, 0x200F),    // zero-width space, non-joiner, joiner; LRM, RLM
        (0x202A, 0x202E),    // bidi embeddings and overrides
        (0x2060, 0x206F),    // word joiner, invisible operators, isolates, deprecated formats
        (0x2800, 0x2800),    // Braille pattern blank
        (0x3164, 0x3164),    // Hangul filler
        (0xE000, 0xF8FF),    // private use
        (0xFDD0, 0xFDEF),    // noncharacters
        (0xFE00, 0xFE0F),    // variation selectors
        (0xFEFF, 0xFEFF),    // zero-width no-break space (BOM)
        (0xFFA0, 0xFFA0),    // halfwidth Hangul filler
        (0xFFF0, 0xFFFB),    // unassigned specials, interlinear annotation
        (0x110BD, 0x110BD),  // Kaithi number sign
        (0x110CD, 0x110CD),  // Kaithi number sign above
        (0x13430, 0x1345F),  // Egyptian hieroglyph format controls
        (0x1BCA0, 0x1BCA3),  // shorthand format controls
        (0x1D173, 0x1D17A),  // musical symbol format controls
        (0xE0000, 0xE0FFF),  // tags, variation selectors supplement
        (0xF0000, 0x10FFFF), // supplementary private use
    ];
    let c = u32::from(c);
    c < 0x20
        || (0x7F..=0x9F).contains(&c)
        || (c & 0xFFFE) == 0xFFFE
        || RANGES.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// The combining diacritical marks (the blocks of them; marks of other scripts follow letters).
fn is_combining_mark(c: char) -> bool {
    matches!(
        u32::from(c),
        0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_collapsed_and_refused_when_deceptive() {
        assert_eq!(
            normalise_name(" Anna \u{2003} Maria ").as_deref(),
            Some("Anna Maria")
        );
        assert_eq!(normalise_name("Zoë").as_deref(), Some("Zoë"));
        assert_eq!(normalise_name(&"é".repeat(32)).map(|n| n.len()), Some(64));
        for bad in [
            "",
            " ",
            "A\u{200D}B",
            "\u{202E}x",
            "x\u{2069}",
            "\u{FEFF}",
            "a\tb",
            "\u{0301}a",
            "\u{E0020}",
            "\u{10FFFD}",
            "\u{FFFF}",
        ] {
            assert_eq!(normalise_name(bad), None, "{bad:?}");
        }
        assert_eq!(normalise_name(&"x".repeat(33)), None);
    }
}
