//! One WebSocket connection: after its hello ([`hello`]), a reader (this task: rate limit,
//! decode, dispatch, one request at a time so replies keep their order) and a writer task (drains
//! the bounded outbound queue: feeds every queued frame, then flushes once).

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::Duration;

use burraco_protocol::ErrorCode;
use burraco_protocol::wire::{ClientMessage, ServerMessage};
use burraco_rules::{Players, Preset};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::outbound::{Inbox, KickReason, Kicked, Outbox};
use crate::rate::TokenBucket;
use crate::session::Session;
use crate::table::{Command, Request, TableHandle, TableRequest};
use crate::{Shared, lobby};
use hello::{Greeted, Upgrade};

/// The bytes of a refused frame searched for its request id (ids come first).
const ID_PEEK: usize = 256;

/// Serves one upgraded socket until it closes or the server shuts down.
///
/// Not an `async fn`: an async function keeps its arguments (the socket, ~1 KB) in its future for
/// as long as the future lives, here the connection's whole life. The hello is boxed (its states
/// are large and over once it is done), so the task holds only the session's loop.
pub fn serve(
    socket: WebSocket,
    shared: Arc<Shared>,
    upgrade: Upgrade,
) -> impl Future<Output = ()> + Send {
    let conn = shared.next_conn_id();
    let span = tracing::info_span!("conn", id = conn);
    metrics::gauge!("burraco_connections").increment(1.0);
    let hello = Box::pin(
        async move {
            let (socket, greeted) = hello::greet(socket, &shared, upgrade, conn).await?;
            Some(Connection::establish(socket, greeted, shared, conn).await)
        }
        .instrument(span.clone()),
    );
    async move {
        let _counted = Counted;
        // `let .. else`, not `if let`: an `if let`'s scrutinee would keep a second copy of the
        // connection in this task's state for its whole life.
        let Some(established) = hello.await else {
            return;
        };
        established.serve().await;
    }
    .instrument(span)
}

/// Counts the connection out of `burraco_connections` however its task ends.
struct Counted;

impl Drop for Counted {
    fn drop(&mut self) {
        metrics::gauge!("burraco_connections").decrement(1.0);
    }
}

struct Connection {
    shared: Arc<Shared>,
    out: Outbox,
    session: Session,
    /// The minor version the hello said (tournament requests need 1.1).
    minor: u16,
    spectating: HashSet<String>,
    bucket: TokenBucket,
    strikes: u32,
    /// Who this connection is (protocol 1.4): a token's connection is held to its scopes and
    /// its shared rate.
    identity: crate::accounts::identity::Identity,
    /// The client's address from the upgrade: sent with its table requests (the same-address
    /// signal), never to a client.
    address: Option<std::net::IpAddr>,
}

impl Connection {
    /// Starts the writer, welcomes, moves the player's seats here: the session's loop can begin.
    async fn establish(
        socket: WebSocket,
        greeted: Greeted,
        shared: Arc<Shared>,
        conn: u64,
    ) -> Established {
        let (sink, stream) = socket.split();
        let (out, rx, kick) = Outbox::channel(conn, shared.config.outbound_queue);
        let out = out.in_format(greeted.binary).with_minor(greeted.minor);
        let closing = CancellationToken::new();
        let close_code = Arc::new(AtomicU16::new(CLOSE_NORMAL));
        let writer = tokio::spawn(
            write_loop(
                sink,
                rx,
                kick.clone(),
                closing.clone(),
                close_code.clone(),
                out.kick_reason(),
                greeted.binary,
            )
            .in_current_span(),
        );
        hello::welcome(&shared, &greeted, &out).await;
        if let Some(grant) = greeted.identity.grant()
            && !shared.sign_ins.attach(&grant.id, conn, &out)
        {
            // Revoked between the hello and now: closed like any revoked token's connection.
            out.kick_for(Kicked::TokenRevoked);
        }
        if let (Some(session), Some(account)) = (
            greeted.identity.browser_session(),
            greeted.identity.account(),
        ) {
            shared.sign_ins.add_session(session, &account.id, &out);
        }
        if let Some(account) = greeted.identity.account() {
            let moderation = &shared.moderation;
            (moderation.connections)
                .admit(
                    &*moderation.store,
                    &account.id,
                    &out,
                    greeted.address,
                    greeted.identity.grant().is_some(),
                )
                .await;
        }
        shared
            .tournaments
            .connected(&greeted.session.player, greeted.minor, &out);
        let this = Connection {
            bucket: TokenBucket::new(
                f64::from(shared.config.rate_per_sec),
                f64::from(shared.config.rate_burst),
                tokio::time::Instant::now().into_std(),
            ),
            shared,
            out,
            session: greeted.session,
            minor: greeted.minor,
            spectating: HashSet::new(),
            strikes: 0,
            identity: greeted.identity,
            address: greeted.address,
        };
        Established {
            this,
            stream,
            writer,
            kick,
            closing,
            close_code,
            session_token: greeted.token,
            conn,
        }
    }
}

/// A connection past its hello: what the session's loop needs, and nothing of the hello.
struct Established {
    this: Connection,
    stream: SplitStream<WebSocket>,
    writer: tokio::task::JoinHandle<Option<SplitSink<WebSocket, Message>>>,
    kick: CancellationToken,
    closing: CancellationToken,
    close_code: Arc<AtomicU16>,
    session_token: String,
    conn: u64,
}

impl Established {
    /// Reads frames until the socket closes, the client is kicked or the server shuts down.
    async fn serve(mut self) {
        // A child of the server's shutdown token, waited on by one future made once: every poll
        // of a token's future takes the token's lock and a fresh `cancelled()` registers a waiter
        // under it, and the server-wide token's lock was contended by every task on both workers
        // (4-5% of the server's CPU under load, `perf`). A child has a lock of its own.
        let shutdown_token = self.this.shared.shutdown.child_token();
        let kicked = self.kick.cancelled();
        let shutdown = shutdown_token.cancelled();
        tokio::pin!(kicked, shutdown);
        // Whether the server ends the connection (then it lingers for the client's close), and
        // whether the last frame was refused unread (then only raw bytes may be drained).
        let mut server_closes = true;
        let mut unread_frame = false;
        loop {
            let frame = tokio::select! {
                biased;
                _ = &mut kicked => break,
                _ = &mut shutdown => {
                    self.this.out.send_message(ServerMessage::Goodbye { reason: "server shutting down: reconnect later with your session".into() });
                    self.close_code.store(CLOSE_GOING_AWAY, Ordering::Relaxed);
                    break;
                }
                frame = self.stream.next() => frame,
            };
            let message = match frame {
                Some(Ok(message)) => message,
                Some(Err(WsError::Capacity(e))) => {
                    // Above MAX_READ_FRAME: refused by its header, its payload never read (so
                    // its id cannot be known).
                    tracing::debug!("frame over the hard limit: {e}");
                    self.this.out.send_message(too_big_to_read());
                    self.close_code.store(CLOSE_TOO_BIG, Ordering::Relaxed);
                    unread_frame = true;
                    break;
                }
                Some(Err(e)) => {
                    tracing::debug!("read error: {e}");
                    server_closes = false;
                    break;
                }
                None => {
                    server_closes = false;
                    break;
                }
            };
            if matches!(message, Message::Close(_)) {
                server_closes = false;
                break;
            }
            if !Box::pin(self.this.on_frame(&message)).await {
                self.close_code.store(CLOSE_POLICY, Ordering::Relaxed);
                break;
            }
        }

        let goodbye = goodbye(
            self.this,
            self.writer,
            self.closing,
            self.session_token,
            self.conn,
        );
        let sink = Box::pin(goodbye).await;
        if server_closes {
            // Boxed, and no `if let` around the await: a scrutinee's temporaries (here the whole
            // reunited WebSocket) would live in this task's state for the connection's life.
            Box::pin(linger_after(self.stream, sink, unread_frame)).await;
        }
    }
}

/// The socket whole again once the writer has sent its close frame, then [`linger`].
async fn linger_after(
    stream: SplitStream<WebSocket>,
    sink: Option<SplitSink<WebSocket, Message>>,
    raw: bool,
) {
    let Some(sink) = sink else { return };
    let Ok(socket) = stream.reunite(sink) else {
        return;
    };
    linger(socket, raw).await;
}

/// Tells the tables, then lets the writer drain and close; returns the writer's half of the
/// socket if it sent its close frame.
async fn goodbye(
    mut this: Connection,
    writer: tokio::task::JoinHandle<Option<SplitSink<WebSocket, Message>>>,
    closing: CancellationToken,
    session_token: String,
    conn: u64,
) -> Option<SplitSink<WebSocket, Message>> {
    let shared = this.shared.clone();
    let player = this.session.player.clone();
    shared.tournaments.disconnected(&player, conn);
    let mut tables: HashSet<String> = this.spectating.drain().collect();
    tables.extend(
        lobby::seats_of(&shared, &player)
            .into_iter()
            .map(|(t, _)| t),
    );
    for table in tables {
        if let Some(handle) = lobby::find(&shared, &table).await {
            handle
                .send(Command::Detach {
                    player: player.clone(),
                    conn,
                })
                .await;
        }
    }
    // A player with no seat left keeps no session in memory (it is in the store, for a
    // later resume).
    if !shared.directory.is_seated(&player) {
        shared.directory.close_session(&session_token);
    }
    shared.backplane.peers.forget_conn(conn);
    if let Some(grant) = this.identity.grant() {
        shared.sign_ins.release(&grant.id, conn);
    }
    if let Some(session) = this.identity.browser_session() {
        shared.sign_ins.remove_session(session, conn);
    }
    if let Some(account) = this.identity.account() {
        shared.moderation.connections.remove(&account.id, conn);
    }
    closing.cancel();
    drop(this);
    match tokio::time::timeout(Duration::from_secs(2), writer).await {
        Ok(Ok(sink)) => sink,
        _ => None,
    }
}

impl Connection {
    /// Handles one frame; false closes the connection.
    async fn on_frame(&mut self, message: &Message) -> bool {
        let Some((_, decoded)) = decode(message) else {
            return true;
        };
        let token_over_rate = self
            .identity
            .grant()
            .is_some_and(|g| !self.shared.sign_ins.take(&g.id));
        if token_over_rate || !self.bucket.take(tokio::time::Instant::now().into_std()) {
            self.strikes += 1;
            self.out.send_message(error(
                decoded
                    .result
                    .as_ref()
                    .map_or(decoded.id, ClientMessage::id),
                ErrorCode::RateLimited,
                "too many requests: slow down",
            ));
            if self.strikes > self.shared.config.rate_strikes {
                self.out.send_message(error(
                    None,
                    ErrorCode::Flooding,
                    "too many requests refused: closing",
                ));
                return false;
            }
            return true;
        }
        self.strikes = 0;
        let request = match decoded.result {
            Ok(request) => request,
            Err(e) => {
                self.out.send_message(decode_error(message, decoded.id, &e));
                return true;
            }
        };
        if let Some(scope) = crate::accounts::identity::required_scope(&request)
            && !self.identity.allows(scope)
        {
            self.out.send_message(error(
                request.id(),
                ErrorCode::MissingScope,
                format!("this token has no {} scope", scope.as_str()),
            ));
            return true;
        }
        self.dispatch(request).await;
        true
    }
}

mod dispatch;
pub mod frames;
pub mod hello;
mod peek;
mod quick;
mod writer;

pub(crate) use frames::{
    CLOSE_ACCOUNT_BARRED, CLOSE_GOING_AWAY, CLOSE_MOVED, CLOSE_NORMAL, CLOSE_POLICY,
    CLOSE_SIGNED_OUT, CLOSE_TAKEN_OVER, CLOSE_TOKEN_REVOKED, CLOSE_TOO_BIG, decode, decode_error,
    error, linger, too_big_to_read,
};
pub use frames::{MAX_READ_FRAME, MAX_WRITE_BUFFER, WebSocket};
use writer::write_loop;
