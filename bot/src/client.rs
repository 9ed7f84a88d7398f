//! The network runtime: one [`Session`] over one WebSocket, with reconnection.
//!
//! A dropped connection (or a server `goodbye`) is retried with exponential backoff and jitter;
//! the new connection says hello with the resume token, gets its seat back and resyncs from the
//! last sequence number it processed.
//!
//! Every request after the hello leaves at the runtime's pace ([`crate::pace`]): under the
//! server's documented request limits (a personal token's, with a token), slowed by any
//! `rate_limited` answer. A move refused so is asked again, and a seat whose every move was
//! refused starts over from a snapshot at once ([`Session::unstick`]): a connected bot never
//! lets its move clock run out.

use std::time::Duration;

use burraco_protocol::codec::{from_json, to_json};
use burraco_protocol::wire::{ClientMessage, ServerMessage};
use futures_util::{SinkExt, StreamExt};
use tokio::time::{Instant, sleep, timeout};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use burraco_protocol::ErrorCode;

use crate::pace::Pace;
use crate::session::{Session, SessionStats, Stage};

/// How the runtime paces itself and retries.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    pub url: String,
    /// Pause before each action (a human-like think time); zero plays at once.
    pub think: Duration,
    /// Reconnection attempts in a row before giving up.
    pub max_reconnects: u32,
    pub backoff_base: Duration,
    pub backoff_max: Duration,
    /// Give up when the matches are not done by then.
    pub deadline: Duration,
    /// Test hook: close the connection after this many actions (once), to exercise resume.
    pub drop_after_actions: Option<u64>,
    /// Told the invite code of a private table the session creates.
    pub invite: Option<tokio::sync::watch::Sender<Option<String>>>,
    /// A personal token (`brc_...`, docs/ACCOUNTS.md): sent as `Authorization: Bearer` on
    /// every upgrade, so the bot plays as its (bot) account, under the account's name.
    pub token: Option<String>,
}

impl ClientOptions {
    pub fn new(url: impl Into<String>) -> ClientOptions {
        ClientOptions {
            url: url.into(),
            think: Duration::ZERO,
            max_reconnects: 8,
            backoff_base: Duration::from_millis(100),
            backoff_max: Duration::from_secs(5),
            deadline: Duration::from_secs(3600),
            drop_after_actions: None,
            invite: None,
            token: None,
        }
    }
}

/// Why a bot stopped before its matches were done.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("could not reach {url} after {attempts} attempts: {last}")]
    Unreachable {
        url: String,
        attempts: u32,
        last: String,
    },
    #[error("the server refused the seat request: {0}")]
    SeatRefused(String),
    #[error("the matches were not done within {0:?}")]
    Deadline(Duration),
}

/// What a bot did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClientReport {
    pub session: SessionStats,
    pub connections: u32,
    pub reconnects: u32,
}

/// The delay before reconnection attempt `attempt` (1-based): base * 2^(attempt-1), capped, with
/// up to 25% jitter from `salt`.
pub fn backoff(attempt: u32, base: Duration, max: Duration, salt: u64) -> Duration {
    let exp = base.saturating_mul(1u32 << attempt.saturating_sub(1).min(16));
    let capped = exp.min(max);
    let jitter = (salt.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) % 256;
    capped + capped.mul_f64(jitter as f64 / 1024.0)
}

enum Ended {
    /// The session is done (or failed): stop.
    Finished,
    /// The connection dropped: reconnect.
    Dropped(String),
}

/// Opens the WebSocket, with the token's `Authorization` header when there is one.
async fn connect(
    options: &ClientOptions,
    config: WebSocketConfig,
) -> Result<
    (
        tokio_tungstenite::WebSocketStream<
            tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
        >,
        tokio_tungstenite::tungstenite::handshake::client::Response,
    ),
    tokio_tungstenite::tungstenite::Error,
> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = options.url.as_str().into_client_request()?;
    if let Some(token) = &options.token {
        let value = format!("Bearer {token}").parse().map_err(|_| {
            tokio_tungstenite::tungstenite::Error::Url(
                tokio_tungstenite::tungstenite::error::UrlError::UnableToConnect(
                    "the token is not a header value".into(),
                ),
            )
        })?;
        request.headers_mut().insert("authorization", value);
    }
    tokio_tungstenite::connect_async_with_config(request, Some(config), true).await
}

/// Plays `session` at the server until its matches are done.
pub async fn run(
    session: &mut Session,
    options: &ClientOptions,
) -> Result<ClientReport, ClientError> {
    let started = Instant::now();
    let mut report = ClientReport::default();
    let mut failures = 0u32;
    let mut dropped_once = false;
    // One pace across reconnections: the server's token bucket outlives a connection.
    let mut pace = Pace::for_server(options.token.is_some(), Instant::now().into_std());
    loop {
        if started.elapsed() > options.deadline {
            return Err(ClientError::Deadline(options.deadline));
        }
        // Nagle off (a request must leave at once); an 8 KiB read buffer, not the 128 KiB
        // default that tungstenite zero-fills before every read.
        let config = WebSocketConfig::default().read_buffer_size(8 * 1024);
        let last = match connect(options, config).await {
            Ok((ws, _)) => {
                report.connections += 1;
                if report.connections > 1 {
                    report.reconnects += 1;
                }
                let drop_at = if dropped_once {
                    None
                } else {
                    options.drop_after_actions
                };
                match drive(ws, session, options, &mut pace, started, drop_at).await {
                    Ended::Finished => break,
                    Ended::Dropped(why) => {
                        if drop_at.is_some() && session.stats().actions >= drop_at.unwrap_or(0) {
                            dropped_once = true;
                        }
                        failures = if why == "welcomed" { 1 } else { failures + 1 };
                        why
                    }
                }
            }
            Err(e) => {
                failures += 1;
                e.to_string()
            }
        };
        if failures > options.max_reconnects {
            return Err(ClientError::Unreachable {
                url: options.url.clone(),
                attempts: failures,
                last,
            });
        }
        sleep(backoff(
            failures.max(1),
            options.backoff_base,
            options.backoff_max,
            u64::from(report.connections),
        ))
        .await;
    }
    report.session = session.stats();
    if session.stage() == Stage::Failed {
        return Err(ClientError::SeatRefused(
            session.last_error().unwrap_or("refused").to_owned(),
        ));
    }
    Ok(report)
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn send(ws: &mut Ws, message: &ClientMessage) -> Result<(), String> {
    ws.send(Message::text(to_json(message)))
        .await
        .map_err(|e| e.to_string())
}

/// Sends a request once `pace` lets it leave.
async fn send_paced(ws: &mut Ws, pace: &mut Pace, message: &ClientMessage) -> Result<(), String> {
    let wait = pace.reserve(Instant::now().into_std());
    if !wait.is_zero() {
        sleep(wait).await;
    }
    send(ws, message).await
}

async fn drive(
    mut ws: Ws,
    session: &mut Session,
    options: &ClientOptions,
    pace: &mut Pace,
    started: Instant,
    drop_at: Option<u64>,
) -> Ended {
    let hello = session.hello();
    if let Err(e) = send(&mut ws, &hello).await {
        return Ended::Dropped(e);
    }
    let mut welcomed = false;
    let mut out = Vec::new();
    loop {
        if session.is_finished() {
            let _ = ws.close(None).await;
            return Ended::Finished;
        }
        if started.elapsed() > options.deadline {
            return Ended::Dropped("deadline".into());
        }
        if let Some(n) = drop_at
            && session.stats().actions >= n
        {
            // Test hook: vanish without a close frame, as a dropped network would.
            return Ended::Dropped("welcomed".into());
        }
        if let Some(pause) = session.seat_request_pause() {
            // A seat request refused for a lost race or the request limit: ask after a pause.
            sleep(pause).await;
            if let Some(again) = session.seat_request_after_pause()
                && let Err(e) = send_paced(&mut ws, pace, &again).await
            {
                return Ended::Dropped(e);
            }
        }
        if let Some(action) = session.poll_action() {
            if !options.think.is_zero() {
                sleep(options.think).await;
            }
            if let Err(e) = send_paced(&mut ws, pace, &action).await {
                return Ended::Dropped(e);
            }
        }
        let frame = match timeout(Duration::from_secs(30), ws.next()).await {
            Err(_) => {
                // Quiet table: make sure the connection is alive, and start over from a
                // snapshot if every action was refused (nothing else may ever play the turn).
                if session.is_stuck() {
                    session.retry(&mut out);
                }
                out.push(ClientMessage::Ping { id: 0 });
                for m in out.drain(..) {
                    if let Err(e) = send_paced(&mut ws, pace, &m).await {
                        return Ended::Dropped(e);
                    }
                }
                continue;
            }
            Ok(None) => {
                return Ended::Dropped(if welcomed {
                    "welcomed".into()
                } else {
                    "closed".into()
                });
            }
            Ok(Some(Err(e))) => {
                return Ended::Dropped(if welcomed {
                    "welcomed".into()
                } else {
                    e.to_string()
                });
            }
            Ok(Some(Ok(frame))) => frame,
        };
        let text = match frame {
            Message::Text(text) => text,
            Message::Close(_) => {
                return Ended::Dropped(if welcomed {
                    "welcomed".into()
                } else {
                    "closed".into()
                });
            }
            _ => continue,
        };
        let decoded = from_json::<ServerMessage>(text.as_str(), usize::MAX);
        let Ok(message) = decoded.result else {
            continue;
        };
        match &message {
            ServerMessage::Welcome { .. } => welcomed = true,
            ServerMessage::Error { code, .. }
                if ErrorCode::parse(code) == Some(ErrorCode::RateLimited) =>
            {
                pace.limited(Instant::now().into_std());
            }
            _ => {}
        }
        session.handle(&message, &mut out);
        session.unstick(&mut out);
        if let (Some(tx), ServerMessage::TableCreated { .. }) = (&options.invite, &message) {
            let _ = tx.send(session.invite().map(str::to_owned));
        }
        for m in out.drain(..) {
            if let Err(e) = send_paced(&mut ws, pace, &m).await {
                return Ended::Dropped(e);
            }
        }
    }
}
