//! Server bots: a [`burraco_bot::Strategy`] playing a seat in-process, through the same table
//! actor path as a connection.
//!
//! A bot is a task with an [`Outbox`] of its own: the table queues it exactly the frames it would
//! queue the seat's connection (its own private events, bare ticks for the others', never more),
//! and the bot answers with [`Command::Act`] and [`Command::Sync`] on the table's handle, like a
//! connection's reader. Its knowledge is the seat's ([`SeatBot`], folded from those frames), so a
//! server bot sees no more than a human in the same chair.
//!
//! The table seats bots itself ([`crate::table`]): the empty seats of a table created with `bots`,
//! the seat of a player gone past the grace period (a stand-in until the player resumes), the
//! seat of a player who left mid-match, and after a restart every seat the store marks as a bot's.
//! It then starts a bot with [`start`] and sends the new outbox a snapshot; the bot plays from
//! there.
//!
//! Decisions never run on the table's task nor on a runtime worker: each is computed on the
//! blocking pool, at most one per core at a time ([`crate::Shared::bot_permits`]), after a
//! human-like pause (`bot_delay`). An L3 bot's search has a small per-decision budget
//! (`bot_search`). A refused action is never offered again in the same state; after two
//! refusals the bot plays a random legal action instead of its strategy's, after four it asks for
//! a snapshot, after eight it stops trying until the next turn starts (the move clock, if any,
//! plays for it) or, failing that, for ten seconds before starting over from a snapshot: a bot
//! never spins.

use std::sync::Arc;
use std::time::Duration;

use burraco_bot::{Level, SeatBot, knowledge_from_snapshot};
use burraco_protocol::ErrorCode;
use burraco_protocol::convert::event_from_wire;
use burraco_protocol::wire::{BotLevel, ServerMessage};
use burraco_rules::{Action, Event, Players, Seat};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::Shared;
use crate::outbound::{Inbox, Outbox};
use crate::table::{Command, Request, TableHandle};

/// Outbox ids of bots have this bit set (connection ids never reach it), so a table can tell a
/// bot's request from a connection's.
pub const BOT_CONN: u64 = 1 << 63;

/// Frames a bot's queue holds. A bot drains its queue between decisions; while it thinks, only
/// its own turn is in play, so a few frames arrive (chat, presence) and this is never reached.
pub const BOT_QUEUE: usize = 1024;

/// Refusals in one state before the bot plays a random legal action instead of its strategy's.
const REFUSALS_BEFORE_FALLBACK: u32 = 2;
/// ...before it asks the table for a snapshot.
const REFUSALS_BEFORE_SYNC: u32 = 4;
/// ...before it stops trying until the next turn, or a while.
const REFUSALS_BEFORE_GIVING_UP: u32 = 8;
/// A bot that gave up tries again (from a snapshot) after this long without news: at a table
/// without clocks nothing else would ever play its turn.
const RETRY_AFTER_GIVING_UP: Duration = Duration::from_secs(10);

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
    }
}

/// A bot's seat name: "Bot (expert)".
pub fn name(level: Level) -> String {
    format!("Bot ({})", level.code())
}

/// A new player id for a bot's own seat (never a session's, so no client can resume it).
pub fn player_id() -> String {
    crate::random_id("bot", 6)
}

/// Starts a bot playing `seat` of `table` as `player` (the id the table knows the seat by) and
/// returns the outbox the table must send the seat's frames to, beginning with a snapshot.
pub fn start(
    shared: &Arc<Shared>,
    table: TableHandle,
    player: String,
    seat: Seat,
    level: Level,
) -> Outbox {
    let id = shared.next_conn_id() | BOT_CONN;
    let (out, rx, kick) = Outbox::channel(id, BOT_QUEUE);
    let seed = u64::from_le_bytes(crate::random_bytes::<8>());
    let span = tracing::info_span!("bot", table = %table.id(), %seat, level = level.code());
    let bot = Bot {
        shared: shared.clone(),
        table,
        player,
        seat,
        level,
        seed,
        out: out.clone(),
        rx,
        kick,
        players: Players::Four,
        bot: None,
        last_seq: 0,
        next_id: 0,
        pending: None,
        syncing: None,
        refused: Vec::new(),
        refusals: 0,
        turn_seen: false,
    };
    metrics::gauge!("burraco_bots").increment(1.0);
    shared.tracker.spawn(
        async move {
            bot.run().await;
            metrics::gauge!("burraco_bots").decrement(1.0);
        }
        .instrument(span),
    );
    out
}

/// One seat played by a strategy: the frames it receives in, actions out.
struct Bot {
    shared: Arc<Shared>,
    table: TableHandle,
    player: String,
    seat: Seat,
    level: Level,
    seed: u64,
    out: Outbox,
    rx: Inbox,
    /// The table kicks the bot when the seat's player takes it back, or when the table stops.
    kick: CancellationToken,
    players: Players,
    /// `None` until the first snapshot (and while a decision runs on the blocking pool).
    bot: Option<SeatBot>,
    last_seq: u64,
    next_id: u64,
    /// The action in flight: its request id.
    pending: Option<(u64, Action)>,
    /// The sync in flight: its request id.
    syncing: Option<u64>,
    /// Actions refused in the current state.
    refused: Vec<Action>,
    /// Refusals since the last accepted action or the start of the turn.
    refusals: u32,
    /// The turn in progress was announced (`turn_started`, or a snapshot): the events of a deal
    /// are queued one by one, and the first turn's seat must not act on half a deal.
    turn_seen: bool,
}

/// Whether the bot goes on after a message.
enum Next {
    Continue,
    Stop,
}

impl Bot {
    async fn run(mut self) {
        tracing::debug!("bot started");
        let delay = self.shared.config.bot_delay;
        let shutdown_token = self.shared.shutdown.child_token();
        let kick_token = self.kick.clone();
        // A child token and futures made once (see the connection's reader loop).
        let shutdown = shutdown_token.cancelled();
        let kick = kick_token.cancelled();
        tokio::pin!(shutdown, kick);
        loop {
            let ready = self.ready_to_act();
            let stuck = self.refusals >= REFUSALS_BEFORE_GIVING_UP;
            tokio::select! {
                biased;
                _ = &mut kick => break,
                _ = &mut shutdown => break,
                frame = self.rx.recv() => {
                    let Some(frame) = frame else { break };
                    if let Next::Stop = self.on_message(frame.message()).await {
                        break;
                    }
                }
                // Restarted by every frame: the bot "thinks" once the table is quiet.
                _ = tokio::time::sleep(delay), if ready => {
                    if let Next::Stop = self.act().await {
                        break;
                    }
                }
                _ = tokio::time::sleep(RETRY_AFTER_GIVING_UP), if stuck => {
                    self.refusals = 0;
                    self.refused.clear();
                    if let Next::Stop = self.resync().await {
                        break;
                    }
                }
            }
        }
        tracing::debug!("bot stopped");
    }

    fn ready_to_act(&self) -> bool {
        self.pending.is_none()
            && self.syncing.is_none()
            && self.turn_seen
            && self.refusals < REFUSALS_BEFORE_GIVING_UP
            && self.bot.as_ref().is_some_and(SeatBot::must_act)
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    fn request(&self, id: u64) -> Request {
        // Replies come in order with the events on the outbox; nobody waits for `done`.
        let (done, _) = oneshot::channel();
        Request {
            id,
            out: self.out.clone(),
            done,
            received: std::time::Instant::now(),
        }
    }

    /// Sends a command, waiting for room in the table's queue; `Stop` when the table is gone.
    async fn send(&mut self, command: Command) -> Next {
        if self.table.send(command).await {
            Next::Continue
        } else {
            Next::Stop
        }
    }

    async fn resync(&mut self) -> Next {
        if self.syncing.is_some() {
            return Next::Continue;
        }
        let id = self.id();
        self.syncing = Some(id);
        let command = Command::Sync {
            player: self.player.clone(),
            last_seq: self.last_seq,
            req: self.request(id),
        };
        self.send(command).await
    }

    async fn on_message(&mut self, message: &ServerMessage) -> Next {
        use ServerMessage as M;
        match message {
            M::Snapshot { seq, view, .. } => {
                self.last_seq = *seq;
                self.refused.clear();
                self.turn_seen = true;
                let Some((config, knowledge)) = knowledge_from_snapshot(view, self.seat) else {
                    tracing::warn!("a snapshot the bot cannot read");
                    return Next::Continue;
                };
                self.players = config.players();
                let strategy = || {
                    self.level
                        .strategy(self.seed, self.shared.config.bot_search)
                };
                match (knowledge, &mut self.bot) {
                    (Some(k), Some(bot)) => bot.set_knowledge(k),
                    (Some(k), None) => {
                        self.bot = Some(SeatBot::with_knowledge(k, strategy(), self.seed));
                    }
                    (None, _) => {
                        self.bot = Some(SeatBot::new(config, self.seat, strategy(), self.seed));
                    }
                }
                Next::Continue
            }
            M::Ok { id } => {
                if self.syncing == Some(*id) {
                    self.syncing = None;
                }
                if self.pending.as_ref().is_some_and(|(p, _)| p == id) {
                    self.pending = None;
                    self.refusals = 0;
                }
                Next::Continue
            }
            M::Error {
                id: Some(id),
                code,
                message,
                ..
            } => {
                if self.syncing == Some(*id) {
                    self.syncing = None;
                }
                let Some((_, action)) = self.pending.take_if(|(p, _)| p == id) else {
                    return Next::Continue;
                };
                if ErrorCode::parse(code) == Some(ErrorCode::NotSeated) {
                    // The seat's player took it back.
                    return Next::Stop;
                }
                tracing::debug!(?action, "{code}: {message}");
                metrics::counter!("burraco_bot_refusals_total").increment(1);
                self.refused.push(action);
                self.refusals += 1;
                if self.refusals == REFUSALS_BEFORE_SYNC {
                    self.refused.clear();
                    return self.resync().await;
                }
                if self.refusals == REFUSALS_BEFORE_GIVING_UP {
                    tracing::warn!("every action refused: waiting for the next turn or a while");
                }
                Next::Continue
            }
            M::MatchEnded { .. } => Next::Stop,
            _ => {
                let Some(seq) = message.seq() else {
                    return Next::Continue;
                };
                if seq <= self.last_seq {
                    return Next::Continue;
                }
                if seq > self.last_seq + 1 {
                    return self.resync().await;
                }
                self.last_seq = seq;
                let Some(event) = event_from_wire(message, self.players) else {
                    return Next::Continue;
                };
                if let Some(bot) = &mut self.bot {
                    bot.observe(&event);
                }
                self.refused.clear();
                match event {
                    Event::HandStarted { .. } => {
                        self.refusals = 0;
                        self.turn_seen = false;
                    }
                    Event::TurnStarted { .. } => {
                        self.refusals = 0;
                        self.turn_seen = true;
                    }
                    _ => {}
                }
                Next::Continue
            }
        }
    }

    /// Decides on the blocking pool, then sends the action.
    async fn act(&mut self) -> Next {
        let Some(mut bot) = self.bot.take() else {
            return Next::Continue;
        };
        let refused = self.refused.clone();
        let strategy = self.refusals < REFUSALS_BEFORE_FALLBACK;
        let permits = self.shared.bot_permits.clone();
        let decide = async move {
            let permit = permits.acquire_owned().await;
            tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let action = if strategy {
                    bot.decide(&refused).or_else(|| bot.fallback(&refused))
                } else {
                    bot.fallback(&refused)
                };
                (bot, action)
            })
            .await
        };
        let started = std::time::Instant::now();
        let decided = tokio::select! {
            biased;
            _ = self.kick.cancelled() => return Next::Stop,
            _ = self.shared.shutdown.cancelled() => return Next::Stop,
            decided = decide => decided,
        };
        metrics::histogram!("burraco_bot_decision_seconds", "level" => self.level.code())
            .record(started.elapsed().as_secs_f64());
        let (bot, action) = match decided {
            Ok(decided) => decided,
            Err(e) => {
                // The strategy panicked: the seat's knowledge went with it; a snapshot rebuilds it.
                tracing::error!("a bot decision failed: {e}");
                self.refusals += 1;
                return self.resync().await;
            }
        };
        self.bot = Some(bot);
        let Some(action) = action else {
            tracing::warn!("no action left to try: waiting for the next turn or a while");
            self.refusals = REFUSALS_BEFORE_GIVING_UP;
            return Next::Continue;
        };
        if self.kick.is_cancelled() {
            return Next::Stop;
        }
        let id = self.id();
        self.pending = Some((id, action.clone()));
        let command = Command::Act {
            player: self.player.clone(),
            action,
            req: self.request(id),
        };
        self.send(command).await
    }
}
