//! One actor per table: a private [`TableActor`] owns the seats, the [`Match`], the hand in play
//! ([`HandLog`]) and the writing of the table's durable log; a cloneable [`TableHandle`] sends it
//! [`Command`]s over a bounded queue. This file keeps the actor's state, its loop and dispatch;
//! each concern is a child module that sees the actor's private fields:
//!
//! - [`handle`]: the handle, the command enum and the request each command answers;
//! - [`hand_log`]: the hand in play and its inputs (deal, check, play, finish, rebuild);
//! - [`play`]: the match from its start to each hand's end, and the one path of every input;
//! - [`delivery`]: numbering, the per-receiver projection, batching, `sync`;
//! - [`replay_buffer`]: the latest events for `sync`;
//! - [`clocks`]: move clock, round clock, the next deal, disconnect grace, lingering;
//! - [`seating`] and [`bot_seats`]: who sits where, and the server bots the table seats;
//!   [`bot_link`]: a bot's requests as the table's commands;
//! - [`views`]: snapshots and the lobby's summary; [`chat`];
//! - [`state`]: the table as a fold of its log, the one place its state changes from an entry;
//!   [`restore`]: rebuilding from the log (fold, then resume); [`held_seats`]: a tournament's
//!   table, created with its seats held; [`arena_table`]: an arena match's table (its seats its
//!   bot accounts', its start deadline and the no-show rule); [`moves`]: quick play's players moved between tables.
//!
//! Every change a restart needs goes to the table's log ([`crate::log::TableLog`]) before anyone
//! hears of it, and is folded into the table's [`TableState`] once durable ([`TableActor::append`]);
//! an append the log refuses as stale (another writer) stops the actor at once.

mod arena_table;
mod bot_link;
mod bot_seats;
mod chat;
mod clocks;
mod conduct;
mod delivery;
mod hand_log;
mod handle;
mod held_seats;
mod identities;
mod moves;
mod pause;
mod play;
mod replay_buffer;
mod reports;
mod restore;
mod seating;
mod state;
mod views;

pub use arena_table::{ArenaSeatFacts, ArenaTableFacts, arena_facts_of_log};
pub use conduct::facts_of_log;

use std::sync::{Arc, Mutex};

use burraco_bot::Level;
use burraco_protocol::ErrorCode;
use burraco_protocol::convert::config_to_wire;
use burraco_protocol::log::{SeatAccount, TableEntry};
use burraco_protocol::wire::TableSummary;
use burraco_rules::{Config, Players, Seat};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};
use tracing::Instrument;

use crate::Shared;
use crate::log::{Entry, LogError};
use crate::outbound::Outbox;
use clocks::MoveTimer;
use delivery::Staged;
use replay_buffer::ReplayBuffer;
use state::TableState;

pub use handle::{Command, Mover, Request, TableHandle, TableInfo, TableRequest, Unavailable};
pub use held_seats::{Boards, HeldExtras, HeldSeat, create_held};
pub use restore::{RestoreError, restore};

/// After a restart the numbering jumps by this much, so no number a client saw before the crash
/// is reused for a different event (the clients see a gap and get a snapshot).
pub const SEQ_RESTART_GAP: u64 = 1000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Waiting,
    Playing,
    Finished,
}

impl Status {
    fn code(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Finished => "finished",
        }
    }
}

#[derive(Debug)]
struct SeatSlot {
    player: String,
    name: String,
    ready: bool,
    out: Option<Outbox>,
    /// Disconnected: the seat is kept until then, its clock running.
    grace_until: Option<Instant>,
    /// A server bot plays the seat (then `out` is the bot's outbox).
    bot: Option<BotRole>,
    /// The signed-in account that took the seat (`None`: a guest, or a server bot's seat).
    account: Option<SeatAccount>,
}

impl SeatSlot {
    /// Whether a program plays the seat: a server bot (its own or a stand-in) or a bot account.
    /// What the wire's `bot` says (the lobby, `player_joined`, the snapshot's seats).
    fn played_by_program(&self) -> bool {
        self.bot.is_some() || self.account.as_ref().is_some_and(|a| a.bot)
    }
}

#[derive(Debug, Clone, Copy)]
struct BotRole {
    level: Level,
    /// Standing in for a player gone past the grace period, who takes the seat back on resuming;
    /// otherwise the seat is the bot's for good (a bot seat, or a seat its player left).
    stand_in: bool,
}

struct TableActor {
    id: Arc<str>,
    shared: Arc<Shared>,
    rx: mpsc::Receiver<Box<Command>>,
    /// For the handles of the bots the table starts; weak, so the actor never keeps its own
    /// queue open.
    weak: mpsc::WeakSender<Box<Command>>,
    info: Arc<Mutex<TableInfo>>,
    /// What the table's log says.
    state: TableState,
    spectators: Vec<Outbox>,
    /// The number of the last event published.
    seq: u64,
    /// How many entries the table's durable log holds: what the next append expects.
    log_len: u64,
    /// The log refused an append as stale, or the game and its log differ: stop at once.
    stopping: bool,
    buffer: ReplayBuffer,
    move_timer: Option<MoveTimer>,
    round_deadline: Option<Instant>,
    next_hand_at: Option<Instant>,
    /// An arena table's start deadline while it waits (`arena_table.rs`), from its log's
    /// `StartBy`.
    start_deadline: Option<Instant>,
    /// The clocks its tournament's pause holds (empty while play goes on).
    held: pause::HeldClocks,
    pending_time_out: bool,
    linger_until: Option<Instant>,
    /// While an action runs: what it publishes, held back and queued at its end as one batch per
    /// receiver (see [`crate::outbound`]). `None`: [`TableActor::publish`] releases at once.
    staged: Option<Staged>,
    /// The seats whose accounts share an address, at a rated table, with those accounts
    /// (`reports.rs`): told to the table while each seat is still its account's. Memory only:
    /// found again at the next seat taken after a restart.
    same_address: Vec<(Seat, String)>,
    /// Each seat's connection whose first request checked the addresses again (`reports.rs`).
    same_address_checked: [Option<u64>; 4],
    /// Opened by quick play: while it waits, its players may be moved to another table of the
    /// kind (`crate::quick_play`). Memory only: after a restart its players stay where they are.
    quick: bool,
}

/// A new table in the waiting state; logs it, registers it and starts its actor. `quick`: opened
/// by quick play (its players may be moved while it waits: `crate::quick_play`).
pub async fn create(
    shared: &Arc<Shared>,
    config: Config,
    private: bool,
    invite: Option<String>,
    bots: Option<Level>,
    rated: bool,
    quick: bool,
) -> Result<TableHandle, LogError> {
    let id = crate::ids::random_id("t", 5);
    // Leased before its first entry: no other node can take a table it sees in play.
    if !shared.backplane.leases.take(&id).await {
        return Err(LogError::Unavailable("cannot lease a new table".into()));
    }
    let created = TableEntry::Created {
        settings: serde_json::to_string(&config_to_wire(&config)).expect("settings serialize"),
        private,
        invite: invite.clone(),
        bots: bots.map(|level| level.code().to_owned()),
        created_ms: crate::ids::unix_ms(),
    };
    if !rated {
        return start_new(shared, id, &[created], quick).await;
    }
    // Expected by the ratings' store before the table exists: whatever happens to this node
    // from now on, its sweep finds the table's end and rates it (exactly once, by its key).
    shared
        .ratings
        .expect(&id, crate::ids::unix_ms())
        .await
        .map_err(|e| LogError::Unavailable(format!("the ratings' store: {e}")))?;
    start_new(shared, id, &[created, TableEntry::Rated], quick).await
}

/// A new table's first entries, appended, then folded as a restore folds them (the table starts
/// from what its log says), and its actor started. The table must already be leased.
async fn start_new(
    shared: &Arc<Shared>,
    id: String,
    entries: &[TableEntry],
    quick: bool,
) -> Result<TableHandle, LogError> {
    let encoded: Vec<Entry> = entries.iter().map(TableEntry::encode).collect();
    let log_len = shared.backplane.log.append(&id, 0, encoded.clone()).await?;
    let (state, _) = state::fold(encoded, Instant::now()).map_err(|e| {
        tracing::error!("a new table's own entries do not fold: {e}");
        LogError::Unavailable(format!("a new table's entries: {e}"))
    })?;
    let (mut actor, handle) = TableActor::new(shared.clone(), id.into(), state);
    actor.log_len = log_len;
    actor.quick = quick;
    actor.register_seats_and_invite();
    actor.arm_start_deadline(None);
    actor.start_seated_bots();
    actor.refresh_info();
    spawn(actor, handle.clone());
    Ok(handle)
}

fn spawn(mut actor: TableActor, handle: TableHandle) {
    actor.shared.directory.register_table(&handle);
    metrics::gauge!("burraco_tables").increment(1.0);
    let span = tracing::info_span!("table", id = %actor.id);
    let tracker = actor.shared.tracker.clone();
    tracker.spawn(
        async move {
            actor.run().await;
            actor.stop_bots();
            actor
                .shared
                .directory
                .forget_table(&actor.id, actor.state.invite.as_deref());
            // After the last append: the next owner replays everything this one wrote.
            let backplane = actor.shared.backplane.clone();
            if actor.state.status == Status::Finished || actor.state.closed {
                backplane.listings.unlist(&actor.id);
            } else if backplane.node.hands_tables_off() {
                // Handed off (a drain): its clients resume wherever it is served next.
                backplane.listings.forget_pending(&actor.id);
                actor.stop_serving();
            } else {
                // Stopped with the server: rebuilt from its log after the restart.
                backplane.listings.unlist(&actor.id);
            }
            backplane.leases.release(&actor.id).await;
            metrics::gauge!("burraco_tables").decrement(1.0);
        }
        .instrument(span),
    );
}

impl TableActor {
    fn new(shared: Arc<Shared>, id: Arc<str>, state: TableState) -> (TableActor, TableHandle) {
        let config = state.config;
        let (tx, rx) = mpsc::channel(shared.config.table_queue);
        let info = Arc::new(Mutex::new(TableInfo {
            summary: TableSummary {
                table: id.to_string(),
                preset: config.preset().code().to_owned(),
                players: config.players().count() as u8,
                seats: Vec::new(),
                status: "waiting".into(),
                spectators: 0,
            },
            private: state.private,
            free_seats: config.players().count(),
            waiting: true,
            finished: false,
            absent: Vec::new(),
            hands_finished: 0,
            deserted: false,
            rated: state.rated,
            accounts: Vec::new(),
            identities: Vec::new(),
            created_ms: state.created_ms,
            players: Vec::new(),
            movers: Vec::new(),
        }));
        // The sender lives in the handles; the actor keeps none, so the queue closes when the
        // table is dropped from the directory and every handle is gone.
        let weak = tx.downgrade();
        let handle = TableHandle {
            id: id.clone(),
            tx,
            info: info.clone(),
        };
        let buffer = ReplayBuffer::new(
            shared.config.replay_buffer,
            shared.config.replay_buffer_bytes,
        );
        let actor = TableActor {
            id,
            rx,
            weak,
            info,
            state,
            spectators: Vec::new(),
            seq: 0,
            log_len: 0,
            stopping: false,
            buffer,
            move_timer: None,
            round_deadline: None,
            next_hand_at: None,
            start_deadline: None,
            held: pause::HeldClocks::default(),
            pending_time_out: false,
            linger_until: None,
            staged: None,
            same_address: Vec::new(),
            same_address_checked: [None; 4],
            quick: false,
            shared,
        };
        (actor, handle)
    }

    async fn run(&mut self) {
        tracing::debug!("table started");
        // A child token and one future made once (see the connection's reader loop): the
        // server-wide token's lock is contended by every task.
        let token = self.shared.stop_tables.child_token();
        let shutdown = token.cancelled();
        tokio::pin!(shutdown);
        // Every seat ready before anyone said so (a tournament's table of server bots): start.
        // Boxed like the loop's work below: run once, its state need not stay in the task.
        if self.state.status == Status::Waiting && self.all_ready() {
            Box::pin(self.start_match()).await;
        }
        while !self.stopping {
            let deadline = self.next_deadline();
            tokio::select! {
                biased;
                _ = &mut shutdown => break,
                // Boxed: the states of these futures would otherwise be part of the table's
                // task for its whole life; boxed, they exist only while a command runs.
                command = self.rx.recv() => match command {
                    Some(command) => Box::pin(self.handle_command(*command)).await,
                    None => break,
                },
                _ = sleep_until(deadline.unwrap_or_else(Instant::now)), if deadline.is_some() => {
                    if Box::pin(self.on_timers()).await {
                        break;
                    }
                }
            }
        }
        tracing::debug!("table stopped");
    }

    async fn handle_command(&mut self, command: Command) {
        let command = match command {
            Command::Request(request) => match self.note_address(request).into_command() {
                Ok(command) => command,
                Err(req) => return req.error(ErrorCode::InvalidMessage, "not a table's request"),
            },
            command => command,
        };
        if let Some((player, req)) = command.request_of_player() {
            self.attach_requester(player, &req.out);
            self.first_request_through(player, &req.out);
        }
        match command {
            Command::Join {
                player,
                name,
                account,
                seat,
                created,
                req,
            } => self.join(player, name, account, seat, created, req).await,
            Command::Leave { player, req } => self.leave(&player, req).await,
            Command::Ready { player, req } => self.ready(&player, req).await,
            Command::Spectate { req } => self.spectate(req),
            Command::Act {
                player,
                action,
                req,
            } => self.act(&player, action, req).await,
            Command::Sync {
                player,
                last_seq,
                req,
            } => self.sync(&player, last_seq, req),
            Command::Chat {
                player,
                name,
                text,
                phrase,
                req,
            } => self.chat(&player, name, text, phrase, req),
            Command::AddBots { player, level, req } => self.add_bots(&player, level, req).await,
            Command::Attach { player, out } => self.attach(&player, out),
            Command::Detach { player, conn } => self.detach(&player, conn),
            Command::StepDown => {
                tracing::warn!("the table's lease is lost: another node serves it now");
                self.stop_serving();
            }
            Command::Close => self.close_for_tournament().await,
            Command::TournamentPause { paused, at_ms } => {
                self.tournament_pause(paused, at_ms).await
            }
            Command::Report {
                player,
                account,
                seat,
                seq,
                reason,
                note,
                req,
            } => self.report(&player, account, seat, seq, reason, note, req),
            Command::Claim {
                player,
                name,
                account,
                out,
            } => self.claim(player, name, account, out).await,
            Command::ArenaTurn { deadline_ms } => self.arena_turn(deadline_ms).await,
            Command::HoldMoved {
                from,
                movers,
                reply,
            } => {
                let held = self.hold_moved(&from, movers).await;
                let _ = reply.send(held);
            }
            Command::MoveOut { to, seats } => self.move_out(&to, seats).await,
            Command::ReleaseHeld { players } => self.release_held(&players).await,
            // Read into its command above.
            Command::Request(_) => {}
        }
    }

    /// Appends entries to the table's durable log, waits until they are durable, and folds them
    /// into the table's state: the live path of [`TableState::apply`].
    async fn append(&mut self, entries: &[TableEntry]) -> Result<(), LogError> {
        self.append_encoded(entries.iter().map(TableEntry::encode).collect())
            .await?;
        for entry in entries {
            if let Err(e) = self.state.apply(entry) {
                // The table's own entry: its state and its log would differ; stop serving.
                tracing::error!("a durable entry does not fold into the table: {e}");
                self.stop_serving();
            }
        }
        Ok(())
    }

    async fn append_encoded(&mut self, entries: Vec<Entry>) -> Result<(), LogError> {
        match self
            .shared
            .backplane
            .log
            .append(&self.id, self.log_len, entries)
            .await
        {
            Ok(len) => {
                self.log_len = len;
                Ok(())
            }
            Err(e) => {
                if let LogError::Conflict { .. } = e {
                    // Someone else writes this table's log now: never serve it beside them.
                    tracing::error!("the log refused an append as stale: {e}");
                    self.stop_serving();
                }
                Err(e)
            }
        }
    }

    /// Stops the actor after the command in hand; its clients are dropped and resume elsewhere.
    fn stop_serving(&mut self) {
        self.stopping = true;
        for out in self
            .state
            .seats
            .iter()
            .flatten()
            .filter_map(|s| s.out.as_ref())
        {
            out.table_moved();
        }
        for out in &self.spectators {
            out.table_moved();
        }
    }

    fn players(&self) -> Players {
        self.state.config.players()
    }

    fn seat_of(&self, player: &str) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| {
            self.state.seats[s.index()]
                .as_ref()
                .is_some_and(|slot| slot.player == player)
        })
    }

    fn seat_names(&self) -> Vec<(Seat, String)> {
        self.state.seat_names()
    }
}
