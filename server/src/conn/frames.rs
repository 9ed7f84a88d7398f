//! A WebSocket's frames as the server reads and closes them, before and after the hello: the
//! frame limits, close codes, decoding, typed error replies, the first data frame, and the
//! lingering read after a close. Shared by the hello and the session's loop.

use std::time::Duration;

use burraco_protocol::ErrorCode;
use burraco_protocol::codec::{self, DecodeError, Decoded, MAX_CLIENT_FRAME};
use burraco_protocol::wire::{ClientMessage, ServerMessage};
use futures_util::StreamExt;
use hyper_util::rt::TokioIo;
use tokio::io::AsyncReadExt;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use super::peek::peek_id;

/// Frames up to this size are read (and refused with `frame_too_large` above
/// [`MAX_CLIENT_FRAME`]); anything larger closes the connection (close code 1009).
pub const MAX_READ_FRAME: usize = 4 * MAX_CLIENT_FRAME;

/// Bytes a connection's WebSocket may hold unsent (the socket is not taking them): beyond this
/// the write fails and the connection closes, like a full outbound queue.
pub const MAX_WRITE_BUFFER: usize = 256 * 1024;

/// An upgraded connection's WebSocket.
pub type WebSocket = WebSocketStream<TokioIo<hyper::upgrade::Upgraded>>;

/// Close codes (RFC 6455; 4000-4999 are the application's own).
pub(crate) const CLOSE_NORMAL: u16 = 1000;
pub(crate) const CLOSE_GOING_AWAY: u16 = 1001;
pub(crate) const CLOSE_PROTOCOL: u16 = 1002;
pub(crate) const CLOSE_POLICY: u16 = 1008;
pub(crate) const CLOSE_TOO_BIG: u16 = 1009;
/// "Service restart" (RFC 6455 as registered with IANA): a table this connection was at is now
/// served by another node (cluster mode); resume, through any node.
pub(crate) const CLOSE_MOVED: u16 = 1012;
/// Another connection resumed this session and took its seats: not a fault of this one, and not
/// one to resume from (two clients resuming in turn would take the session from each other for
/// ever), so neither 1008 nor a code a client reconnects on.
pub(crate) const CLOSE_TAKEN_OVER: u16 = 4001;
/// The personal token the connection signed in with was revoked or expired (docs/ACCOUNTS.md).
pub(crate) const CLOSE_TOKEN_REVOKED: u16 = 4003;
/// The connection's account was disabled or timed out (docs/ACCOUNTS.md, "Moderation").
pub(crate) const CLOSE_ACCOUNT_BARRED: u16 = 4004;
/// The browser session the connection signed in with ended (signed out, anywhere; a password
/// change; revoked; reset by an operator; expired): sign in again, or go on as a guest.
pub(crate) const CLOSE_SIGNED_OUT: u16 = 4005;

/// How long a connection the server closes goes on reading (and discarding) what the client
/// still sends, until the client's close frame. Closing a TCP socket with unread input makes the
/// kernel send a reset, and a reset can destroy what was sent last (the replies owed, the error,
/// the close frame) before the client reads it: the client would see a dead connection (1006).
const CLOSE_LINGER: Duration = Duration::from_secs(1);
/// The most bytes that lingering reads: a client that never stops sending gets its reset.
const CLOSE_LINGER_BYTES: usize = 1 << 20;

/// An error reply to a connection (counted by code; a table's refusals are counted by the table).
pub(crate) fn error(id: Option<u64>, code: ErrorCode, message: impl Into<String>) -> ServerMessage {
    metrics::counter!("burraco_errors_total", "code" => code.as_str()).increment(1);
    ServerMessage::error(id, code, message, None)
}

pub(crate) fn decode(message: &Message) -> Option<(bool, Decoded<ClientMessage>)> {
    match message {
        Message::Text(text) => Some((false, codec::from_json(text.as_str(), MAX_CLIENT_FRAME))),
        Message::Binary(bytes) => Some((true, codec::from_binary(bytes, MAX_CLIENT_FRAME))),
        _ => None,
    }
}

/// After the server's close frame: reads and discards what the client still sends, until its
/// close frame, the end of the stream, [`CLOSE_LINGER`] or [`CLOSE_LINGER_BYTES`], so that the
/// socket is not closed with unread input (see [`CLOSE_LINGER`]). `raw`: a frame was refused by
/// its header and its payload is still on the wire; the WebSocket layer would buffer that payload
/// whole to go on, so only raw bytes are read past it.
pub(crate) async fn linger(mut socket: WebSocket, raw: bool) {
    let deadline = tokio::time::Instant::now() + CLOSE_LINGER;
    if !raw {
        loop {
            match tokio::time::timeout_at(deadline, socket.next()).await {
                Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Err(_) => return,
                Ok(Some(Ok(_))) => {}
                Ok(Some(Err(WsError::Capacity(_)))) => break,
                Ok(Some(Err(_))) => return,
            }
        }
    }
    let io = socket.get_mut();
    let mut buffer = [0u8; 4096];
    let mut drained = 0;
    while drained < CLOSE_LINGER_BYTES {
        match tokio::time::timeout_at(deadline, io.read(&mut buffer)).await {
            Ok(Ok(n)) if n > 0 => drained += n,
            _ => return,
        }
    }
}

/// The reply to a frame above [`MAX_READ_FRAME`], before the close (1009).
pub(crate) fn too_big_to_read() -> ServerMessage {
    error(
        None,
        ErrorCode::FrameTooLarge,
        format!("a frame above {MAX_READ_FRAME} bytes closes the connection"),
    )
}

/// The typed reply to an undecodable frame, with the request's id when it could be read (for a
/// frame refused by its size, from the frame's beginning).
pub(crate) fn decode_error(message: &Message, id: Option<u64>, e: &DecodeError) -> ServerMessage {
    let id = match e {
        DecodeError::TooLarge { .. } => id.or_else(|| peek_id(message)),
        _ => id,
    };
    error(id, e.error_code(), e.to_string())
}

/// What a connection's first data frame turned out to be.
pub(crate) enum FirstFrame {
    Data(Message),
    /// Above [`MAX_READ_FRAME`]: refused by its header, unread.
    TooBig,
    /// The client closed or the connection failed.
    Gone,
}

/// The next text or binary frame (pings and pongs are answered by the WebSocket layer).
pub(crate) async fn next_data_frame(socket: &mut WebSocket) -> FirstFrame {
    loop {
        match socket.next().await {
            Some(Ok(m @ (Message::Text(_) | Message::Binary(_)))) => return FirstFrame::Data(m),
            Some(Err(WsError::Capacity(_))) => return FirstFrame::TooBig,
            Some(Ok(Message::Close(_)) | Err(_)) | None => return FirstFrame::Gone,
            Some(Ok(_)) => {}
        }
    }
}
