//! A connection's first frame: the hello (docs/PROTOCOL.md section 2). The version rule, the
//! name, and the session: a new one, or the one a resume token names (from memory, else from the
//! store). Then the welcome, and the resume's takeover of the player's seats.
//!
//! Everything here runs once per connection, before the session's loop: [`super::serve`]
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

use super::frames::{
    CLOSE_GOING_AWAY, CLOSE_POLICY, CLOSE_PROTOCOL, CLOSE_TOO_BIG, FirstFrame, WebSocket, decode,
    decode_error, error, linger, next_data_frame, too_big_to_read,
};
use crate::Shared;
use crate::accounts::identity::{self, Identity, Refused};
use crate::outbound::{Frame, Outbox};
use crate::session::{ResumeKey, Session};
use crate::table::Command;

/// What the upgrade learnt before the socket existed: who connects, and from where.
#[derive(Debug, Clone, Default)]
pub struct Upgrade {
    pub identity: Identity,
    /// The client's address (the proxy's `X-Forwarded-For` entry when trusted): a token's
    /// last use records it.
    pub address: Option<std::net::IpAddr>,
}

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
    /// Who the connection is (1.4): from the upgrade, or the hello's token.
    pub identity: Identity,
    /// The client's address, from the upgrade (the same-address signal reads it).
    pub address: Option<std::net::IpAddr>,
}

/// Reads and checks the hello, then opens or resumes the session; `None` when the connection
/// ended (after the documented error and close, if the hello was refused).
pub(crate) async fn greet(
    mut socket: WebSocket,
    shared: &Arc<Shared>,
    upgrade: Upgrade,
    conn: u64,
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
    let (version, name, resume, token) = match decoded.result {
        Ok(ClientMessage::Hello {
            version,
            name,
            resume,
        }) => (version, name, resume, None),
        Ok(ClientMessage::HelloToken {
            version,
            name,
            resume,
            token,
        }) => (version, name, resume, Some(token)),
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
    let address = upgrade.address;
    // The hello's token (1.4) wins over whatever the upgrade carried.
    let identity = match token {
        Some(token) => {
            let accounts = &*shared.backplane.accounts;
            match Box::pin(identity::by_token(accounts, &token, upgrade.address)).await {
                Ok(identity) => identity,
                Err(refused) => {
                    let (code, text) = match refused {
                        Refused::Unavailable => {
                            (ErrorCode::InternalError, "the token could not be checked")
                        }
                        Refused::InvalidToken | Refused::OriginRefused => (
                            ErrorCode::InvalidToken,
                            "the token is malformed, unknown, revoked or expired",
                        ),
                    };
                    return refuse(socket, binary, error(None, code, text), CLOSE_POLICY).await;
                }
            }
        }
        None => upgrade.identity,
    };
    // An account plays under its own name; a guest may not take a registered one.
    let name = match identity.account() {
        Some(account) => account.username.clone(),
        None => {
            if Box::pin(name_registered(shared, &name)).await {
                let message = error(
                    None,
                    ErrorCode::NameRegistered,
                    "that name belongs to an account: sign in, or choose another",
                );
                return refuse(socket, binary, message, CLOSE_POLICY).await;
            }
            name
        }
    };
    let resumed = match resume {
        Some(token) => Box::pin(resume_session(shared, token, &identity)).await,
        None => None,
    };
    let (token, session, resumed) = match resumed {
        Some((token, session)) => (token, session, true),
        None => match Box::pin(open_session(shared, name, &identity)).await {
            Some((token, session)) => (token, session, false),
            None => {
                let message = error(None, ErrorCode::InternalError, "could not open a session");
                return refuse(socket, binary, message, CLOSE_GOING_AWAY).await;
            }
        },
    };
    if let Some(grant) = identity.grant()
        && shared.sign_ins.reserve(&grant.id, conn).is_err()
    {
        let message = error(
            None,
            ErrorCode::TooManyConnections,
            format!(
                "this token already has {} live connections",
                crate::accounts::live::MAX_CONNECTIONS
            ),
        );
        return refuse(socket, binary, message, CLOSE_POLICY).await;
    }
    Some((
        socket,
        Greeted {
            binary,
            token,
            session,
            resumed,
            minor,
            identity,
            address,
        },
    ))
}

/// Whether a guest's name is an account's (or looks like one). A store that cannot answer
/// (none in a cluster without a database) lets the guest play: no account can be impersonated
/// where none can sign in, and an outage does not stop guests.
async fn name_registered(shared: &Shared, name: &str) -> bool {
    match shared.backplane.accounts.name_registered(name).await {
        Ok(registered) => registered,
        Err(e) => {
            tracing::debug!("guest name not checked: {e}");
            false
        }
    }
}

/// The session of a resume token, when this connection may have it: in memory while its player
/// is connected or seated, else in the store (a player who was neither). `None` for an unknown
/// token, or a session this identity may not resume ([`Session::resumable_by`]: another
/// account's, an account's for a guest, a guest's under a name registered since): the client
/// gets a new session, and `welcome` says `resumed: false`.
async fn resume_session(
    shared: &Shared,
    token: String,
    identity: &Identity,
) -> Option<(String, Session)> {
    let (session, in_memory) = match shared.directory.session(&token) {
        Some(session) => (session, true),
        None => (
            shared
                .backplane
                .sessions
                .find(&ResumeKey::of(&token))
                .await?,
            false,
        ),
    };
    let account = identity
        .account()
        .map(|a| (a.id.as_str(), a.username.as_str()));
    let registered = account.is_none()
        && session.account.is_none()
        && Box::pin(name_registered(shared, &session.name)).await;
    if !session.resumable_by(account, registered) {
        tracing::info!(
            player = %session.player,
            by = identity.kind(),
            "resume refused: not this connection's session"
        );
        return None;
    }
    if !in_memory {
        shared.directory.open_session(&token, session.clone());
    }
    Some((token, session))
}

/// A new session, stored (under its token's key) before it is used: a resume after a restart
/// must find it. `None` when the store cannot take it.
async fn open_session(
    shared: &Shared,
    name: String,
    identity: &Identity,
) -> Option<(String, Session)> {
    let token = crate::ids::random_id("", 16);
    let session = Session {
        player: crate::ids::random_id("p", 6),
        name,
        account: identity.account().map(|a| a.id.clone()),
    };
    if !(shared.backplane.sessions)
        .open(&ResumeKey::of(&token), &session)
        .await
    {
        return None;
    }
    shared.directory.open_session(&token, session.clone());
    Some((token, session))
}

/// Queues the welcome (with the seats the player holds), then moves those seats to this
/// connection: the tables drop an older connection of the same player from them.
pub(crate) async fn welcome(shared: &Arc<Shared>, greeted: &Greeted, out: &Outbox) {
    let session = &greeted.session;
    // A bot account's arena seats are the account's, whichever session it comes with.
    let arena = crate::arena::reclaim::Reclaim::find(shared, &greeted.identity).await;
    let seats = arena.with_seats(crate::lobby::seats_of(shared, &session.player));
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
    if greeted.minor >= 4 {
        let identity = &greeted.identity;
        out.send_message(ServerMessage::Identity {
            kind: identity.kind().into(),
            account: identity.account().map(|a| a.id.clone()),
            name: session.name.clone(),
        });
    }
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
    arena.claim(shared, session, out).await;
}

/// Sends one frame directly on a socket that has no writer task yet, then closes it (and lingers
/// for the client's close, see [`super::linger`]). Always `None`: the hello that refuses
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
