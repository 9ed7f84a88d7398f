//! A connection's first frame: the hello (docs/PROTOCOL.md section 2). The version rule, the
//! name, and the session: a new one, or the one a resume token names (from memory, else from the
//! store). Then the welcome, and the resume's takeover of the player's seats.
//!
//! Everything here runs once per connection, before the session's loop: [`crate::conn::serve`]
//! boxes it, so its (large) future is freed once the hello is done.

use std::sync::Arc;

use burraco_protocol::ErrorCode;
use burraco_protocol::text::normalise_name;
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
