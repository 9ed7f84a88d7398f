//! Server bots: the bot crate's seat client ([`burraco_bot::Session`]) playing a seat
//! in-process, through the same table path as a connection.
//!
//! A bot is a task with an [`Outbox`] of its own: the table queues it exactly the frames it would
//! queue the seat's connection (its own private events, bare ticks for the others', never more),
//! and the bot answers with the client messages its session writes (moves and syncs), sent
//! through a [`TableLink`] the table hands it. Its knowledge is the seat's, folded from those
//! frames, so a server bot sees no more than a human in the same chair, and it is the very state
//! machine a network bot runs ([`Session::seated`]: no hello, no seat request, no ready).
//!
//! The table seats bots itself: the empty seats of a table created with `bots`, the seat of a
//! player gone past the grace period (a stand-in until the player resumes), the seat of a player
//! who left mid-match, and after a restart every seat the store marks as a bot's. It then starts a
//! bot with [`spawn`] and sends the new outbox a snapshot; the bot plays from there. This module
//! never names the table's types: the link is all it knows of the table, so the table depends on
//! the bots and not the other way round.
//!
//! Decisions never run on the table's task nor on a runtime worker: each is computed on the
//! blocking pool, at most one per core at a time ([`Context::permits`]), after a
//! human-like pause (`bot_delay`). An L3 bot's search has a small per-decision budget
//! (`bot_search`); an L4 bot's is L4's default (it answers within 0.8 s of its second).
//! Refusals follow the session's ladder (a random legal action after two, a snapshot after
//! four, a pause after eight); a bot that gave up starts over from a snapshot after ten seconds
//! without news: a bot never spins.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use burraco_bot::session::Stage;
use burraco_bot::{Level, Session};
use burraco_protocol::wire::{BotLevel, ClientMessage, ServerMessage};
use burraco_rules::Seat;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::Instrument;

use crate::outbound::{Inbox, Outbox};

/// What a bot uses of the server, given to [`spawn`]: its own struct rather than the server's
/// hub, so this module depends on what it uses (the server makes one per bot:
/// `Shared::bot_context`).
#[derive(Debug, Clone)]
pub struct Context {
    /// The bot's connection id, fresh from the server's count (the [`BOT_CONN`] bit is set here).
    pub conn: u64,
    /// The human-like pause before a decision (`bot_delay`).
    pub delay: Duration,
    /// An L3 bot's search budget per decision (`bot_search`).
    pub search: burraco_bot::SearchBudget,
    /// The server's tasks: the bot is one of them.
    pub tracker: TaskTracker,
    /// The server's shutdown: the bot stops on it.
    pub shutdown: CancellationToken,
    /// Decisions running at once, shared by every bot (one per core).
    pub permits: Arc<Semaphore>,
}

/// Outbox ids of bots have this bit set (connection ids never reach it), so a table can tell a
/// bot's request from a connection's.
pub const BOT_CONN: u64 = 1 << 63;

/// Frames a bot's queue holds. A bot drains its queue between decisions; while it thinks, only
/// its own turn is in play, so a few frames arrive (chat, presence) and this is never reached.
pub const BOT_QUEUE: usize = 1024;

/// A bot that gave up tries again (from a snapshot) after this long without news: at a table
/// without clocks nothing else would ever play its turn.
const RETRY_AFTER_GIVING_UP: Duration = Duration::from_secs(10);

/// The table as a bot needs it: a way to send its seat's requests, as a connection's reader
/// would. The table implements it over its handle, with the seat's player id.
pub trait TableLink: Send + 'static {
    /// Sends `request` (a move, or a sync) on the bot's behalf, its reply to go to `out` after
    /// the events it causes; waits for room in the table's queue. False once the table is gone.
    fn send(&mut self, request: ClientMessage, out: &Outbox) -> impl Future<Output = bool> + Send;
}

/// Whether an outbox id is a bot's.
pub fn is_bot_conn(id: u64) -> bool {
    id & BOT_CONN != 0
}

/// The strategy level of a wire level.
pub fn level_from_wire(level: BotLevel) -> Level {
    match level {
        BotLevel::Random => Level::Random,
        BotLevel::Greedy => Level::Greedy,
        BotLevel::Expert => Level::Expert,
        BotLevel::Search => Level::Search,
        BotLevel::Deep => Level::Deep,
    }
}

/// A bot's seat name: "Bot (expert)".
pub fn name(level: Level) -> String {
    format!("Bot ({})", level.code())
}

/// A new player id for a bot's own seat (never a session's, so no client can resume it).
pub fn player_id() -> String {
    crate::ids::random_id("bot", 6)
}

/// Starts a bot playing `seat` of table `table` through `link`, and returns the outbox the
/// table must send the seat's frames to, beginning with a snapshot.
pub fn spawn(
    context: Context,
    table: &str,
    link: impl TableLink,
    seat: Seat,
    level: Level,
) -> Outbox {
    let id = context.conn | BOT_CONN;
    let (out, rx, kick) = Outbox::channel(id, BOT_QUEUE);
    // The server's own session reads every message this server sends (a pause among them).
    let out = out.with_minor(burraco_protocol::wire::PROTOCOL_MINOR);
    let seed = u64::from_le_bytes(crate::ids::random_bytes::<8>());
    let span = tracing::info_span!("bot", %table, %seat, level = level.code());
    let budget = context.search;
    let factory = Box::new(move || level.strategy(seed, budget));
    let tracker = context.tracker.clone();
    let bot = Bot {
        context,
        link,
        level,
        session: Session::seated(name(level), table, seat, factory, seed),
        out: out.clone(),
        rx,
        kick,
        sends: Vec::new(),
    };
    metrics::gauge!("burraco_bots").increment(1.0);
    tracker.spawn(
        async move {
            bot.run().await;
            metrics::gauge!("burraco_bots").decrement(1.0);
        }
        .instrument(span),
    );
    out
}

/// One seat played by a session: the frames it receives in, its requests out.
struct Bot<L> {
    context: Context,
    link: L,
    level: Level,
    session: Session,
    out: Outbox,
    rx: Inbox,
    /// The table kicks the bot when the seat's player takes it back, or when the table stops.
    kick: CancellationToken,
    /// What the session asked to send, sent after each step.
    sends: Vec<ClientMessage>,
}

/// Whether the bot goes on.
enum Next {
    Continue,
    Stop,
}

impl<L: TableLink> Bot<L> {
    async fn run(mut self) {
        tracing::debug!("bot started");
        let delay = self.context.delay;
        let shutdown_token = self.context.shutdown.child_token();
        let kick_token = self.kick.clone();
        // A child token and futures made once (see the connection's reader loop).
        let shutdown = shutdown_token.cancelled();
        let kick = kick_token.cancelled();
        tokio::pin!(shutdown, kick);
        loop {
            let ready = self.session.ready_to_act();
            let stuck = self.session.is_stuck();
            let next = tokio::select! {
                biased;
                _ = &mut kick => Next::Stop,
                _ = &mut shutdown => Next::Stop,
                frame = self.rx.recv() => match frame {
                    Some(frame) => self.on_message(frame.message()).await,
                    None => Next::Stop,
                },
                // Restarted by every frame: the bot "thinks" once the table is quiet.
                _ = tokio::time::sleep(delay), if ready => self.act().await,
                _ = tokio::time::sleep(RETRY_AFTER_GIVING_UP), if stuck => {
                    self.session.retry(&mut self.sends);
                    self.flush().await
                }
            };
            if let Next::Stop = next {
                break;
            }
        }
        tracing::debug!("bot stopped");
    }

    /// Sends what the session wrote; `Stop` when the table is gone or the session is over.
    async fn flush(&mut self) -> Next {
        for request in std::mem::take(&mut self.sends) {
            if !self.link.send(request, &self.out).await {
                return Next::Stop;
            }
        }
        if self.session.is_finished() {
            if self.session.stage() == Stage::Unseated {
                tracing::debug!("the seat's player took it back");
            }
            return Next::Stop;
        }
        Next::Continue
    }

    async fn on_message(&mut self, message: &ServerMessage) -> Next {
        let before = self.session.stats();
        let stuck = self.session.is_stuck();
        self.session.handle(message, &mut self.sends);
        let after = self.session.stats();
        if after.unreadable_snapshots > before.unreadable_snapshots {
            tracing::warn!("a snapshot the bot cannot read");
        }
        if after.refused > before.refused {
            if let ServerMessage::Error { code, message, .. } = message {
                tracing::debug!("refused: {code}: {message}");
            }
            metrics::counter!("burraco_bot_refusals_total").increment(1);
        }
        if self.session.is_stuck() && !stuck {
            tracing::warn!("every action refused: waiting for the next turn or a while");
        }
        self.flush().await
    }

    /// Decides on the blocking pool, then sends the action.
    async fn act(&mut self) -> Next {
        let Some(thinking) = self.session.think() else {
            return Next::Continue;
        };
        let permits = self.context.permits.clone();
        let decide = async move {
            let permit = permits.acquire_owned().await;
            tokio::task::spawn_blocking(move || {
                let _permit = permit;
                thinking.run()
            })
            .await
        };
        let started = std::time::Instant::now();
        let decided = tokio::select! {
            biased;
            _ = self.kick.cancelled() => return Next::Stop,
            _ = self.context.shutdown.cancelled() => return Next::Stop,
            decided = decide => decided,
        };
        metrics::histogram!("burraco_bot_decision_seconds", "level" => self.level.code())
            .record(started.elapsed().as_secs_f64());
        match decided {
            Ok(thought) => match self.session.decided(thought) {
                Some(action) => self.sends.push(action),
                None => {
                    tracing::warn!("no action left to try: waiting for the next turn or a while")
                }
            },
            Err(e) => {
                tracing::error!("a bot decision failed: {e}");
                self.session.decision_lost(&mut self.sends);
            }
        }
        if self.kick.is_cancelled() {
            return Next::Stop;
        }
        self.flush().await
    }
}
