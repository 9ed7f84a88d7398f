//! One actor per table: a private [`TableActor`] owns the seats, the [`Match`], the hand in play
//! ([`Game`]) and its log; a cloneable [`TableHandle`] sends it [`Command`]s over a bounded queue.
//!
//! Every accepted input follows one path ([`TableActor::process`]): the rules apply it (a refusal
//! changes nothing and is answered with the rule), the input row is appended to the durable log
//! and awaited, then the events are numbered, projected per receiver (a seat that may not see an
//! event gets a bare `tick` with the same number; spectators get the public view) and queued to
//! every receiver without waiting, then the requester gets its reply.
//!
//! Clocks are tokio timers owned by the actor: the per-move clock (limit, then the announced grace,
//! then `Input::ClockExpired`), the round clock (`Input::TimeOut`, and no new hand after the current
//! one), the pause before the next deal, and each disconnected seat's grace period.
//!
//! Server bots ([`crate::bots`]): the actor seats them itself (the empty seats of a table created
//! with bots, atomically with the creator's join; a stand-in for a player gone past the grace
//! period; the seat of a player who left mid-match; after a restart, every seat the store marks as
//! a bot's), gives each an [`Outbox`] of its own with a snapshot, and from then on treats it as
//! the seat's connection: the same projected frames, the same [`Command::Act`] path. A stand-in
//! is kicked the moment its player resumes, and its late requests are refused (`not_seated`).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use burraco_bot::Level;
use burraco_protocol::convert::{EventContext, config_to_wire, event_to_wire, meld_to_wire};
use burraco_protocol::record::{HandRecord, RecordInput, RecordOutcome, RecordedInput};
use burraco_protocol::wire::{
    HandSnapshot, SeatName, SeatState, ServerMessage, TableSnapshot, TableSummary, WireSeat,
    WireSettings,
};
use burraco_rules::{
    Action, Card, Config, DealSource, Event, Game, HandEnd, Input, Match, MatchEnd, Phase, Players,
    Seat, Seed, Side, Viewer,
};
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Instant, sleep_until};
use tracing::Instrument;

use crate::Shared;
use crate::inputlog::InputLog;
use crate::outbound::{Fanout, Frame, Outbox};
use crate::store::{LoadedTable, Write};

/// After a restart the numbering jumps by this much, so no number a client saw before the crash
/// is reused for a different event (the clients see a gap and get a snapshot).
pub const SEQ_RESTART_GAP: u64 = 1000;

/// A request from a connection (or driver): the reply goes to `out`, in order with the table's
/// events, then `done` fires so the requester may send its next request.
#[derive(Debug)]
pub struct Request {
    pub id: u64,
    pub out: Outbox,
    pub done: oneshot::Sender<()>,
    pub received: std::time::Instant,
}

impl Request {
    fn reply(self, message: ServerMessage) {
        self.out.send_message(message);
        let _ = self.done.send(());
    }

    fn error(self, code: &str, message: impl Into<String>) {
        let id = self.id;
        metrics::counter!("burraco_errors_total", "code" => code.to_owned()).increment(1);
        self.reply(ServerMessage::Error {
            id: Some(id),
            code: code.to_owned(),
            message: message.into(),
            rule: None,
        });
    }
}

/// What a table can be asked. Closed: the actor answers exactly these.
#[derive(Debug)]
pub enum Command {
    /// Take a seat (`seat` or the first free one). `created` is `Some(invite)` when this join is
    /// the creator's: the reply is then `table_created`.
    Join {
        player: String,
        name: String,
        seat: Option<Seat>,
        created: Option<Option<String>>,
        req: Request,
    },
    Leave {
        player: String,
        req: Request,
    },
    Ready {
        player: String,
        req: Request,
    },
    Spectate {
        req: Request,
    },
    Act {
        player: String,
        action: Action,
        req: Request,
    },
    Sync {
        player: String,
        last_seq: u64,
        req: Request,
    },
    Chat {
        player: String,
        name: String,
        text: Option<String>,
        phrase: Option<String>,
        req: Request,
    },
    /// A resumed session's new connection takes over the player's seat.
    Attach {
        player: String,
        out: Outbox,
    },
    /// A connection closed.
    Detach {
        player: String,
        conn: u64,
    },
}

/// What the lobby shows of a table, kept current by the actor.
#[derive(Debug, Clone)]
pub struct TableInfo {
    pub summary: TableSummary,
    pub private: bool,
    pub free_seats: usize,
    pub waiting: bool,
}

/// Why a table did not take a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unavailable {
    /// Its queue is full.
    Busy,
    /// It has stopped.
    Closed,
}

/// A cloneable handle on a table actor.
#[derive(Debug, Clone)]
pub struct TableHandle {
    id: Arc<str>,
    /// Boxed commands: a channel allocates its slots 32 at a time, and a `Command` is ~150
    /// bytes, so unboxed that was ~5 KB per table whether it was busy or not.
    tx: mpsc::Sender<Box<Command>>,
    info: Arc<Mutex<TableInfo>>,
}

impl TableHandle {
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Queues a command without waiting; fails when the table is busy or gone.
    pub fn try_send(&self, command: Command) -> Result<(), Unavailable> {
        self.tx.try_send(Box::new(command)).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => Unavailable::Busy,
            mpsc::error::TrySendError::Closed(_) => Unavailable::Closed,
        })
    }

    /// Queues a command, waiting for room (for messages that must not be lost, like a detach);
    /// false when the table is gone.
    pub async fn send(&self, command: Command) -> bool {
        self.tx.send(Box::new(command)).await.is_ok()
    }

    pub fn info(&self) -> TableInfo {
        self.info.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

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
}

#[derive(Debug, Clone, Copy)]
struct BotRole {
    level: Level,
    /// Standing in for a player gone past the grace period, who takes the seat back on resuming;
    /// otherwise the seat is the bot's for good (a bot seat, or a seat its player left).
    stand_in: bool,
}

#[derive(Debug)]
struct HandState {
    game: Game,
    /// The record's header; its inputs are in `log` until the hand ends.
    record: HandRecord,
    log: InputLog,
    seed: [u8; 32],
    dealt: Instant,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Limit,
    Grace,
}

#[derive(Debug, Clone, Copy)]
struct MoveTimer {
    stage: Stage,
    deadline: Instant,
}

#[derive(Debug)]
struct Buffered {
    seq: u64,
    private_to: Option<Seat>,
    frame: Arc<Frame>,
    tick: Option<Arc<Frame>>,
    /// What the entry keeps alive, about ([`Frame::approx_bytes`]), for the byte cap.
    bytes: usize,
}

/// Why an input was not applied.
enum Refused {
    NoHand,
    Illegal(burraco_rules::IllegalAction),
    Store,
}

struct TableActor {
    id: Arc<str>,
    shared: Arc<Shared>,
    rx: mpsc::Receiver<Box<Command>>,
    /// For the handles of the bots the table starts; weak, so the actor never keeps its own
    /// queue open.
    weak: mpsc::WeakSender<Box<Command>>,
    /// The level of the bots the table was created with, and of its stand-ins (expert if none).
    bot_level: Option<Level>,
    info: Arc<Mutex<TableInfo>>,
    config: Config,
    private: bool,
    seats: [Option<SeatSlot>; 4],
    spectators: Vec<Outbox>,
    status: Status,
    matc: Option<Match>,
    hand: Option<HandState>,
    hand_no: u32,
    seq: u64,
    /// The replay buffer: the latest events, at most `replay_buffer` of them and
    /// `replay_buffer_bytes` in all; a client further behind gets a snapshot.
    buffer: VecDeque<Buffered>,
    buffer_bytes: usize,
    /// The table's invite code, forgotten with the table.
    invite: Option<String>,
    move_timer: Option<MoveTimer>,
    round_deadline: Option<Instant>,
    next_hand_at: Option<Instant>,
    pending_time_out: bool,
    linger_until: Option<Instant>,
    /// While an action runs: what it publishes, held back and queued at its end as one batch per
    /// receiver (see [`crate::outbound`]). `None`: [`Self::publish`] stages and releases at once.
    staged: Option<Staged>,
}

/// The frames one action publishes, per seat and for the spectators.
#[derive(Default)]
struct Staged {
    seats: [Vec<Arc<Frame>>; 4],
    spectators: Vec<Arc<Frame>>,
}

/// A new table in the waiting state; persists it, registers it and starts its actor.
pub async fn create(
    shared: &Arc<Shared>,
    config: Config,
    private: bool,
    invite: Option<String>,
    bots: Option<Level>,
) -> Result<TableHandle, crate::store::StoreError> {
    let id = crate::random_id("t", 5);
    let settings = serde_json::to_string(&config_to_wire(&config)).expect("settings serialize");
    shared
        .store
        .write(vec![Write::CreateTable {
            id: id.clone(),
            settings,
            private,
            invite: invite.clone(),
            created_ms: crate::unix_ms(),
        }])
        .await?;
    let (mut actor, handle) = TableActor::new(shared.clone(), id.into(), config, private);
    actor.bot_level = bots;
    if let Some(code) = invite {
        shared.directory.register_invite(&code, handle.id());
        actor.invite = Some(code);
    }
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
                .forget_table(&actor.id, actor.invite.as_deref());
            metrics::gauge!("burraco_tables").decrement(1.0);
        }
        .instrument(span),
    );
}

/// Rebuilds a table from its log after a restart: seats, match, the hand in play by replay.
pub fn restore(shared: &Arc<Shared>, loaded: LoadedTable) -> Result<(), String> {
    let wire: WireSettings = serde_json::from_str(&loaded.settings).map_err(|e| e.to_string())?;
    let config = burraco_protocol::convert::config_from_wire(&wire).map_err(|e| e.to_string())?;
    let (mut actor, handle) = TableActor::new(
        shared.clone(),
        loaded.id.clone().into(),
        config,
        loaded.private,
    );
    actor.seq = loaded.seq + SEQ_RESTART_GAP;
    let now = Instant::now();
    for loaded_seat in loaded.seats {
        let seat = Seat::from_code(&loaded_seat.seat).ok_or("bad seat")?;
        let bot = loaded_seat.bot.as_deref().and_then(Level::from_code);
        if bot.is_none() {
            shared
                .directory
                .seat_player(&loaded_seat.player, &loaded.id, seat);
        }
        actor.bot_level = actor.bot_level.or(bot);
        actor.seats[seat.index()] = Some(SeatSlot {
            player: loaded_seat.player,
            name: loaded_seat.name,
            ready: bot.is_some(),
            out: None,
            grace_until: bot.is_none().then(|| now + shared.config.disconnect_grace),
            bot: bot.map(|level| BotRole {
                level,
                stand_in: false,
            }),
        });
    }
    if let Some(code) = &loaded.invite {
        shared.directory.register_invite(code, &loaded.id);
        actor.invite = Some(code.clone());
    }
    if loaded.status == "playing" {
        let first = loaded
            .first_dealer
            .as_deref()
            .and_then(Seat::from_code)
            .ok_or("no first dealer")?;
        let mut matc = Match::new(config, first, false).map_err(|e| e.to_string())?;
        let count = loaded.hands.len();
        for (i, hand) in loaded.hands.into_iter().enumerate() {
            let dealer = Seat::from_code(&hand.dealer).ok_or("bad dealer")?;
            let seed = Seed::from_hex(&hand.seed).ok_or("bad seed")?;
            let source = DealSource::Seed(seed);
            let (mut game, _) =
                Game::new(config, dealer, source.clone()).map_err(|e| e.to_string())?;
            let record = HandRecord::new(&config, actor.seat_names(), dealer, &source);
            let mut log = InputLog::default();
            let mut played_ms = 0;
            for row in &hand.inputs {
                let recorded = RecordedInput::from_json(row).map_err(|e| e.to_string())?;
                played_ms = played_ms.max(recorded.at_ms.unwrap_or(0));
                let input = recorded.input.to_rules();
                game.apply(&input)
                    .map_err(|e| format!("replay refused: {e}"))?;
                if input == Input::TimeOut {
                    matc.time_out();
                }
                log.push(&input, recorded.at_ms);
            }
            actor.hand_no = hand.hand;
            if let Some((end, score)) = game.result() {
                if end == HandEnd::Voided {
                    let _ = matc.record_void_hand();
                } else {
                    let _ = matc.record_hand(score);
                }
            }
            if i + 1 == count {
                // The hand's time goes on from its last input: the record's `at_ms` stay in
                // order, and the time the server was down is nobody's.
                let dealt = now
                    .checked_sub(std::time::Duration::from_millis(played_ms))
                    .unwrap_or(now);
                actor.hand = Some(HandState {
                    game,
                    record,
                    log,
                    seed: seed.0,
                    dealt,
                });
            }
        }
        actor.status = Status::Playing;
        if let Some(total) = config.round_clock_ms() {
            let started = loaded.round_started_ms.unwrap_or_else(crate::unix_ms);
            let elapsed = (crate::unix_ms() - started).max(0) as u64;
            if !matc.is_timed_out() {
                actor.round_deadline =
                    Some(now + std::time::Duration::from_millis(total.saturating_sub(elapsed)));
            }
        }
        let over = matc.is_over();
        actor.matc = Some(matc);
        match &actor.hand {
            Some(h) if !h.game.is_over() => {
                let (seat, clock) = (h.game.on_turn(), h.game.move_clock());
                actor.set_turn_timer(seat, clock);
            }
            _ if over => actor.status = Status::Finished,
            _ => actor.next_hand_at = Some(now),
        }
    }
    for seat in Seat::ALL {
        if actor.seats[seat.index()]
            .as_ref()
            .is_some_and(|s| s.bot.is_some())
        {
            actor.start_bot(seat);
        }
    }
    actor.refresh_info();
    spawn(actor, handle);
    Ok(())
}

impl TableActor {
    fn new(
        shared: Arc<Shared>,
        id: Arc<str>,
        config: Config,
        private: bool,
    ) -> (TableActor, TableHandle) {
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
            private,
            free_seats: config.players().count(),
            waiting: true,
        }));
        // The sender lives in the handles; the actor keeps none, so the queue closes when the
        // table is dropped from the directory and every handle is gone.
        let weak = tx.downgrade();
        let handle = TableHandle {
            id: id.clone(),
            tx,
            info: info.clone(),
        };
        let actor = TableActor {
            id,
            rx,
            weak,
            bot_level: None,
            info,
            config,
            private,
            seats: Default::default(),
            spectators: Vec::new(),
            status: Status::Waiting,
            matc: None,
            hand: None,
            hand_no: 0,
            seq: 0,
            buffer: VecDeque::new(),
            buffer_bytes: 0,
            invite: None,
            move_timer: None,
            round_deadline: None,
            next_hand_at: None,
            pending_time_out: false,
            linger_until: None,
            staged: None,
            shared,
        };
        (actor, handle)
    }

    fn players(&self) -> Players {
        self.config.players()
    }

    async fn run(&mut self) {
        tracing::debug!("table started");
        // A child token and one future made once (see the connection's reader loop): the
        // server-wide token's lock is contended by every task.
        let token = self.shared.shutdown.child_token();
        let shutdown = token.cancelled();
        tokio::pin!(shutdown);
        loop {
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

    fn next_deadline(&self) -> Option<Instant> {
        let seats = self.seats.iter().flatten().filter_map(|s| s.grace_until);
        [
            self.move_timer.map(|t| t.deadline),
            self.round_deadline,
            self.next_hand_at,
            self.linger_until,
        ]
        .into_iter()
        .flatten()
        .chain(seats)
        .min()
    }

    /// Runs whatever timers are due; true when the table should stop.
    async fn on_timers(&mut self) -> bool {
        let now = Instant::now();
        if self.linger_until.is_some_and(|t| t <= now) {
            for slot in self.seats.iter().flatten() {
                self.shared.directory.forget_seat(&slot.player, &self.id);
            }
            self.shared
                .directory
                .forget_table(&self.id, self.invite.as_deref());
            return true;
        }
        for seat in Seat::ALL {
            let due = self.seats[seat.index()]
                .as_ref()
                .is_some_and(|s| s.grace_until.is_some_and(|t| t <= now));
            if due {
                self.grace_over(seat);
            }
        }
        if self.round_deadline.is_some_and(|t| t <= now) {
            self.round_deadline = None;
            self.round_clock_ran_out().await;
        }
        if let Some(timer) = self.move_timer.filter(|t| t.deadline <= now) {
            self.move_clock(timer.stage).await;
        }
        if self.next_hand_at.is_some_and(|t| t <= now) {
            self.next_hand_at = None;
            self.deal_hand().await;
        }
        false
    }

    async fn handle_command(&mut self, command: Command) {
        match command {
            Command::Join {
                player,
                name,
                seat,
                created,
                req,
            } => self.join(player, name, seat, created, req).await,
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
            Command::Attach { player, out } => self.attach(&player, out),
            Command::Detach { player, conn } => self.detach(&player, conn),
        }
    }

    // ----- seats --------------------------------------------------------------------------------

    fn seat_of(&self, player: &str) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| {
            self.seats[s.index()]
                .as_ref()
                .is_some_and(|slot| slot.player == player)
        })
    }

    fn seat_names(&self) -> Vec<(Seat, String)> {
        self.players()
            .seats()
            .iter()
            .map(|&s| {
                (
                    s,
                    self.seats[s.index()]
                        .as_ref()
                        .map_or_else(String::new, |slot| slot.name.clone()),
                )
            })
            .collect()
    }

    async fn join(
        &mut self,
        player: String,
        name: String,
        wanted: Option<Seat>,
        created: Option<Option<String>>,
        req: Request,
    ) {
        let reply =
            |seat: Seat, created: Option<Option<String>>, id: u64, table: String| match created {
                Some(invite) => ServerMessage::TableCreated {
                    id,
                    table,
                    invite,
                    seat: WireSeat(seat),
                },
                None => ServerMessage::Seated {
                    id,
                    table,
                    seat: WireSeat(seat),
                },
            };
        if let Some(seat) = self.seat_of(&player) {
            // Already here: answer again and hand over the connection.
            let out = req.out.clone();
            let id = req.id;
            self.attach(&player, out.clone());
            out.send_message(reply(seat, created, id, self.id.to_string()));
            out.send_message(self.snapshot(Viewer::Seat(seat)));
            let _ = req.done.send(());
            return;
        }
        if self.status != Status::Waiting {
            return req.error(
                "table_started",
                "the match has started: seats are taken; spectate instead",
            );
        }
        let seat = match wanted {
            Some(seat) if !self.players().is_seated(seat) => {
                return req.error(
                    "invalid_seat",
                    format!("seat {seat} is not in play at this table"),
                );
            }
            Some(seat) if self.seats[seat.index()].is_some() => {
                return req.error("seat_taken", format!("seat {seat} is taken"));
            }
            Some(seat) => seat,
            None => match self
                .players()
                .seats()
                .iter()
                .find(|s| self.seats[s.index()].is_none())
            {
                Some(&seat) => seat,
                None => return req.error("table_full", "every seat is taken"),
            },
        };
        let write = Write::Seat {
            table: self.id.to_string(),
            seat: seat.code().into(),
            player: Some((player.clone(), name.clone())),
            bot: None,
        };
        if self.shared.store.write(vec![write]).await.is_err() {
            return req.error("internal_error", "could not save the seat");
        }
        self.shared.directory.seat_player(&player, &self.id, seat);
        self.seats[seat.index()] = Some(SeatSlot {
            player,
            name: name.clone(),
            ready: false,
            out: None,
            grace_until: None,
            bot: None,
        });
        let creating = created.is_some();
        let out = req.out.clone();
        out.send_message(reply(seat, created, req.id, self.id.to_string()));
        out.send_message(self.snapshot(Viewer::Seat(seat)));
        if let Some(slot) = self.seats[seat.index()].as_mut() {
            slot.out = Some(out);
        }
        let _ = req.done.send(());
        let seq = self.next_seq();
        self.publish(
            ServerMessage::PlayerJoined {
                table: self.id.to_string(),
                seq,
                seat: WireSeat(seat),
                name,
                bot: false,
            },
            None,
        );
        if creating {
            if let Some(level) = self.bot_level {
                self.fill_with_bots(level).await;
            }
        }
        self.refresh_info();
    }

    /// Seats a bot of `level` in every free seat, ready (a table created with `bots`).
    async fn fill_with_bots(&mut self, level: Level) {
        let name = crate::bots::name(level);
        let free: Vec<(Seat, String)> = self
            .players()
            .seats()
            .iter()
            .filter(|s| self.seats[s.index()].is_none())
            .map(|&s| (s, crate::bots::player_id()))
            .collect();
        let writes = free
            .iter()
            .map(|(seat, player)| Write::Seat {
                table: self.id.to_string(),
                seat: seat.code().into(),
                player: Some((player.clone(), name.clone())),
                bot: Some(level.code().into()),
            })
            .collect();
        if let Err(e) = self.shared.store.write(writes).await {
            tracing::error!("bot seats not saved: {e}");
            return;
        }
        for (seat, player) in free {
            self.seats[seat.index()] = Some(SeatSlot {
                player,
                name: name.clone(),
                ready: true,
                out: None,
                grace_until: None,
                bot: Some(BotRole {
                    level,
                    stand_in: false,
                }),
            });
            let table = self.id.to_string();
            let seq = self.next_seq();
            self.publish(
                ServerMessage::PlayerJoined {
                    table: table.clone(),
                    seq,
                    seat: WireSeat(seat),
                    name: name.clone(),
                    bot: true,
                },
                None,
            );
            self.publish_ready(seat);
            self.start_bot(seat);
        }
    }

    /// Starts a bot on a seat whose slot says a bot plays it; it replaces (and kicks) whatever
    /// outbox the seat had.
    fn start_bot(&mut self, seat: Seat) {
        let Some(tx) = self.weak.upgrade() else {
            return;
        };
        let handle = TableHandle {
            id: self.id.clone(),
            tx,
            info: self.info.clone(),
        };
        let Some((player, role)) = self.seats[seat.index()]
            .as_ref()
            .and_then(|s| Some((s.player.clone(), s.bot?)))
        else {
            return;
        };
        let out = crate::bots::start(&self.shared, handle, player, seat, role.level);
        out.send_message(self.snapshot(Viewer::Seat(seat)));
        if let Some(slot) = self.seats[seat.index()].as_mut() {
            if let Some(old) = slot.out.replace(out) {
                old.kick();
            }
        }
    }

    /// Stops every bot of the table (the table is stopping).
    fn stop_bots(&mut self) {
        for slot in self.seats.iter().flatten() {
            if slot.bot.is_some() {
                if let Some(out) = &slot.out {
                    out.kick();
                }
            }
        }
    }

    /// The level of a bot standing in for an absent player.
    fn stand_in_level(&self) -> Level {
        self.bot_level.unwrap_or(Level::Expert)
    }

    /// Before the match, a table where only bots are left frees their seats too.
    fn dismiss_bots_if_alone(&mut self) {
        let humans = self.seats.iter().flatten().any(|s| s.bot.is_none());
        if humans {
            return;
        }
        for seat in Seat::ALL {
            if let Some(out) = self.vacate(seat).and_then(|slot| slot.out) {
                out.kick();
            }
        }
    }

    /// Frees a seat, persists that, and tells the table; returns who sat there.
    fn vacate(&mut self, seat: Seat) -> Option<SeatSlot> {
        let slot = self.seats[seat.index()].take()?;
        self.shared.store.write_later(vec![Write::Seat {
            table: self.id.to_string(),
            seat: seat.code().into(),
            player: None,
            bot: None,
        }]);
        let seq = self.next_seq();
        self.publish(
            ServerMessage::PlayerLeft {
                table: self.id.to_string(),
                seq,
                seat: WireSeat(seat),
            },
            None,
        );
        Some(slot)
    }

    /// After a seat is freed before the match, everyone must ready again; bots are ready at
    /// once (and say so).
    fn reset_ready(&mut self) {
        let mut bots = Vec::new();
        for seat in Seat::ALL {
            if let Some(slot) = self.seats[seat.index()].as_mut() {
                slot.ready = slot.bot.is_some();
                if slot.ready {
                    bots.push(seat);
                }
            }
        }
        for seat in bots {
            self.publish_ready(seat);
        }
    }

    async fn leave(&mut self, player: &str, req: Request) {
        let Some(seat) = self.seat_of(player) else {
            let before = self.spectators.len();
            self.spectators.retain(|o| o.id() != req.out.id());
            if self.spectators.len() != before {
                self.refresh_info();
                let id = req.id;
                return req.reply(ServerMessage::Ok { id });
            }
            return req.error(
                "not_at_table",
                "you are neither seated at nor watching this table",
            );
        };
        self.shared.directory.forget_seat(player, &self.id);
        let id = req.id;
        match self.status {
            Status::Waiting => {
                self.vacate(seat);
                self.reset_ready();
                self.dismiss_bots_if_alone();
                req.reply(ServerMessage::Ok { id });
            }
            Status::Playing => {
                let level = self.stand_in_level();
                if let Some(slot) = self.seats[seat.index()].as_mut() {
                    slot.out = None;
                    slot.grace_until = None;
                    slot.bot = Some(BotRole {
                        level,
                        stand_in: false,
                    });
                    // Nobody may resume this seat: the player gave it up. Saved as a bot's seat,
                    // so a restart seats the bot again.
                    slot.player = format!("left:{}", slot.player);
                    self.shared.store.write_later(vec![Write::Seat {
                        table: self.id.to_string(),
                        seat: seat.code().into(),
                        player: Some((slot.player.clone(), slot.name.clone())),
                        bot: Some(level.code().into()),
                    }]);
                }
                let table = self.id.to_string();
                let seq = self.next_seq();
                self.publish(
                    ServerMessage::PlayerLeft {
                        table: table.clone(),
                        seq,
                        seat: WireSeat(seat),
                    },
                    None,
                );
                let seq = self.next_seq();
                self.publish(
                    ServerMessage::PlayerReplacedByBot {
                        table,
                        seq,
                        seat: WireSeat(seat),
                    },
                    None,
                );
                req.reply(ServerMessage::Ok { id });
                self.start_bot(seat);
            }
            Status::Finished => {
                if let Some(slot) = self.seats[seat.index()].as_mut() {
                    slot.out = None;
                }
                req.reply(ServerMessage::Ok { id });
            }
        }
        self.refresh_info();
    }

    async fn ready(&mut self, player: &str, req: Request) {
        let Some(seat) = self.seat_of(player) else {
            return req.error("not_seated", "you are not seated at this table");
        };
        if self.status != Status::Waiting {
            return req.error("table_started", "the match has already started");
        }
        let id = req.id;
        let already = self.seats[seat.index()].as_ref().is_some_and(|s| s.ready);
        if let Some(slot) = self.seats[seat.index()].as_mut() {
            slot.ready = true;
        }
        if !already {
            self.publish_ready(seat);
        }
        req.reply(ServerMessage::Ok { id });
        let all_ready = self.players().seats().iter().all(|s| {
            self.seats[s.index()]
                .as_ref()
                .is_some_and(|slot| slot.ready)
        });
        if all_ready {
            self.start_match().await;
        }
    }

    fn spectate(&mut self, req: Request) {
        let out = req.out.clone();
        if !self.spectators.iter().any(|o| o.id() == out.id()) {
            self.spectators.push(out.clone());
        }
        let id = req.id;
        out.send_message(ServerMessage::Ok { id });
        out.send_message(self.snapshot(Viewer::Spectator));
        let _ = req.done.send(());
        self.refresh_info();
    }

    fn attach(&mut self, player: &str, out: Outbox) {
        let Some(seat) = self.seat_of(player) else {
            return;
        };
        let was_gone = {
            let Some(slot) = self.seats[seat.index()].as_mut() else {
                return;
            };
            if let Some(old) = slot.out.replace(out.clone()) {
                if old.id() != out.id() {
                    old.take_over();
                }
            }
            let stand_in = slot.bot.is_some_and(|b| b.stand_in);
            let was_gone = slot.grace_until.is_some() || stand_in;
            slot.grace_until = None;
            if stand_in {
                // The player takes the seat back at once; the bot was kicked above.
                slot.bot = None;
            }
            was_gone
        };
        if was_gone {
            let seq = self.next_seq();
            self.publish(
                ServerMessage::PlayerReconnected {
                    table: self.id.to_string(),
                    seq,
                    seat: WireSeat(seat),
                },
                None,
            );
            // Back in time for its turn: the normal clock again, from now.
            if let Some(hand) = &self.hand {
                if !hand.game.is_over() && hand.game.on_turn() == seat {
                    let clock = hand.game.move_clock();
                    self.set_turn_timer(seat, clock);
                }
            }
            self.refresh_info();
        }
    }

    fn detach(&mut self, player: &str, conn: u64) {
        self.spectators.retain(|o| o.id() != conn);
        if let Some(seat) = self.seat_of(player) {
            let grace = self.shared.config.disconnect_grace;
            let playing = self.status != Status::Finished;
            let Some(slot) = self.seats[seat.index()].as_mut() else {
                return;
            };
            if slot.out.as_ref().is_none_or(|o| o.id() != conn) {
                return;
            }
            slot.out = None;
            if playing {
                slot.grace_until = Some(Instant::now() + grace);
                let seq = self.next_seq();
                self.publish(
                    ServerMessage::PlayerDisconnected {
                        table: self.id.to_string(),
                        seq,
                        seat: WireSeat(seat),
                        grace_ms: grace.as_millis() as u64,
                    },
                    None,
                );
            }
        }
        self.refresh_info();
    }

    /// A disconnected seat's grace period ran out.
    fn grace_over(&mut self, seat: Seat) {
        let Some(slot) = self.seats[seat.index()].as_mut() else {
            return;
        };
        slot.grace_until = None;
        if self.status == Status::Waiting {
            let player = slot.player.clone();
            self.shared.directory.forget_seat(&player, &self.id);
            self.vacate(seat);
            self.dismiss_bots_if_alone();
            self.refresh_info();
            return;
        }
        if self.status == Status::Playing {
            slot.bot = Some(BotRole {
                level: self.bot_level.unwrap_or(Level::Expert),
                stand_in: true,
            });
            let seq = self.next_seq();
            self.publish(
                ServerMessage::PlayerReplacedByBot {
                    table: self.id.to_string(),
                    seq,
                    seat: WireSeat(seat),
                },
                None,
            );
            self.start_bot(seat);
            self.refresh_info();
        }
    }

    // ----- the match ----------------------------------------------------------------------------

    async fn start_match(&mut self) {
        let seats = self.players().seats();
        let draw = self
            .shared
            .config
            .fixed_seed
            .map_or_else(|| crate::random_bytes::<1>()[0], |seed| seed[0]);
        let first = seats[usize::from(draw) % seats.len()];
        let Ok(matc) = Match::new(self.config, first, false) else {
            return;
        };
        let write = Write::MatchStarted {
            table: self.id.to_string(),
            first_dealer: first.code().into(),
            round_started_ms: crate::unix_ms(),
        };
        if let Err(e) = self.shared.store.write(vec![write]).await {
            tracing::error!("cannot start the match: {e}");
            return;
        }
        self.matc = Some(matc);
        self.status = Status::Playing;
        let round = self.config.round_clock_ms();
        self.round_deadline = round.map(|ms| Instant::now() + std::time::Duration::from_millis(ms));
        let seq = self.next_seq();
        self.publish(
            ServerMessage::MatchStarted {
                table: self.id.to_string(),
                seq,
                first_dealer: WireSeat(first),
                round_clock_ms: round,
            },
            None,
        );
        self.refresh_info();
        self.deal_hand().await;
    }

    async fn deal_hand(&mut self) {
        let Some(dealer) = self.matc.as_ref().and_then(Match::dealer_of_next_hand) else {
            return;
        };
        let seed = self
            .shared
            .config
            .fixed_seed
            .unwrap_or_else(crate::random_bytes::<32>);
        let source = DealSource::Seed(Seed(seed));
        let (game, events) = match Game::new(self.config, dealer, source.clone()) {
            Ok(dealt) => dealt,
            Err(e) => {
                tracing::error!("cannot deal: {e}");
                return;
            }
        };
        let hand_no = self.hand_no + 1;
        let write = Write::Hand {
            table: self.id.to_string(),
            hand: hand_no,
            dealer: dealer.code().into(),
            seed: Seed(seed).to_hex(),
        };
        if let Err(e) = self.shared.store.write(vec![write]).await {
            tracing::error!("cannot save the deal: {e}");
            self.next_hand_at = Some(Instant::now() + std::time::Duration::from_secs(1));
            return;
        }
        self.hand_no = hand_no;
        let record = HandRecord::new(&self.config, self.seat_names(), dealer, &source);
        self.hand = Some(HandState {
            game,
            record,
            log: InputLog::default(),
            seed,
            dealt: Instant::now(),
        });
        self.publish_events(&events);
        if self.pending_time_out {
            self.pending_time_out = false;
            let _ = self.process(Input::TimeOut).await;
        }
    }

    async fn round_clock_ran_out(&mut self) {
        let in_play = self.hand.as_ref().is_some_and(|h| !h.game.is_over());
        if in_play {
            if let Err(Refused::Store) = self.process(Input::TimeOut).await {
                tracing::error!("TIME OUT not saved");
            }
        } else if let Some(m) = &mut self.matc {
            if !m.is_over() {
                // Between hands: the hand about to be dealt is the last, with its last round.
                self.pending_time_out = true;
            }
        }
    }

    async fn move_clock(&mut self, stage: Stage) {
        match stage {
            Stage::Limit => {
                let Some(hand) = &self.hand else { return };
                let seat = hand.game.on_turn();
                let grace = hand.game.move_clock().map_or(0, |c| c.grace_ms);
                self.move_timer = Some(MoveTimer {
                    stage: Stage::Grace,
                    deadline: Instant::now() + std::time::Duration::from_millis(grace.into()),
                });
                let seq = self.next_seq();
                self.publish(
                    ServerMessage::GraceStarted {
                        table: self.id.to_string(),
                        seq,
                        seat: WireSeat(seat),
                        grace_ms: grace,
                    },
                    None,
                );
            }
            Stage::Grace => {
                self.move_timer = None;
                if let Err(Refused::Store) = self.process(Input::ClockExpired).await {
                    tracing::error!("clock expiry not saved");
                }
            }
        }
    }

    fn set_turn_timer(&mut self, _seat: Seat, clock: Option<burraco_rules::MoveClock>) {
        let now = Instant::now();
        // Bots play on the same clock as everyone (they act well within it).
        self.move_timer = clock.map(|c| MoveTimer {
            stage: Stage::Limit,
            deadline: now + std::time::Duration::from_millis(c.limit_ms.into()),
        });
    }

    async fn act(&mut self, player: &str, action: Action, req: Request) {
        let Some(seat) = self.seat_of(player) else {
            return req.error("not_seated", "you are not seated at this table");
        };
        if crate::bots::is_bot_conn(req.out.id()) {
            // A stand-in's request still queued when its player took the seat back.
            let drives = self.seats[seat.index()]
                .as_ref()
                .and_then(|s| s.out.as_ref())
                .is_some_and(|o| o.id() == req.out.id());
            if !drives {
                return req.error("not_seated", "this bot no longer plays the seat");
            }
        }
        let id = req.id;
        // Everything the action publishes goes out at its end, with the reply: one write per seat.
        self.staged = Some(Staged::default());
        let processed = self.process(Input::Act { seat, action }).await;
        let reply = processed
            .is_ok()
            .then_some((&req.out, ServerMessage::Ok { id }));
        self.release_staged(reply, Some(req.received));
        match processed {
            Ok(()) => {
                let received = req.received;
                let _ = req.done.send(());
                metrics::counter!("burraco_actions_total").increment(1);
                metrics::histogram!("burraco_action_latency_seconds")
                    .record(received.elapsed().as_secs_f64());
            }
            Err(Refused::NoHand) => {
                req.error("no_hand_in_play", "no hand is in play at this table")
            }
            Err(Refused::Store) => req.error(
                "internal_error",
                "the move could not be saved; it was not played",
            ),
            Err(Refused::Illegal(e)) => {
                metrics::counter!("burraco_errors_total", "code" => "illegal_action").increment(1);
                req.reply(ServerMessage::Error {
                    id: Some(id),
                    code: "illegal_action".into(),
                    message: e.to_string(),
                    rule: Some(e.code().into()),
                });
            }
        }
    }

    /// The one path of every input: apply, append durably, publish, finish the hand if it ended.
    async fn process(&mut self, input: Input) -> Result<(), Refused> {
        let Some(hand) = self.hand.as_mut().filter(|h| !h.game.is_over()) else {
            return Err(Refused::NoHand);
        };
        let snapshot = hand.game.clone();
        let events = hand.game.apply(&input).map_err(Refused::Illegal)?;
        let at_ms = hand.dealt.elapsed().as_millis() as u64;
        let row = RecordedInput {
            input: RecordInput::from_rules(&input),
            at_ms: Some(at_ms),
        }
        .to_json();
        hand.log.push(&input, Some(at_ms));
        let idx = (hand.log.len() - 1) as u32;
        let write = Write::Input {
            table: self.id.to_string(),
            hand: self.hand_no,
            idx,
            seq: self.seq + events.len() as u64,
            input: row,
        };
        if let Err(e) = self.shared.store.write(vec![write]).await {
            // Not durable, so not accepted: put the hand back as it was.
            tracing::error!("input not saved: {e}");
            if let Some(hand) = self.hand.as_mut() {
                hand.game = snapshot;
                hand.log.pop();
            }
            return Err(Refused::Store);
        }
        if input == Input::TimeOut {
            if let Some(m) = &mut self.matc {
                m.time_out();
            }
            self.round_deadline = None;
        }
        self.publish_events(&events);
        if self.hand.as_ref().is_some_and(|h| h.game.is_over()) {
            self.finish_hand().await;
        }
        Ok(())
    }

    async fn finish_hand(&mut self) {
        self.move_timer = None;
        let players = self.players();
        let Some(hand) = self.hand.as_mut() else {
            return;
        };
        let Some((end, score)) = hand.game.result().map(|(e, s)| (e, s.clone())) else {
            return;
        };
        let Some(matc) = self.matc.as_mut() else {
            return;
        };
        if end == HandEnd::Voided {
            let _ = matc.record_void_hand();
        } else {
            let _ = matc.record_hand(&score);
        }
        let hands: Vec<(Seat, Vec<Card>)> = players
            .seats()
            .iter()
            .map(|&s| (s, hand.game.hand(s).to_vec()))
            .collect();
        hand.record
            .finish(RecordOutcome::new(players, end, &score, Some(&hands)));
        hand.log.fill(&mut hand.record);
        let record = hand.record.to_json();
        let names = hand.record.seats.iter().map(|s| s.name.clone()).collect();
        // The hand takes no more inputs: its record lives on as the JSON text just made.
        hand.record.inputs = Vec::new();
        hand.log = InputLog::default();
        let table = self.id.to_string();
        let mut writes = vec![Write::Record {
            table: table.clone(),
            hand: self.hand_no,
            record: record.clone(),
            names,
        }];
        let result = matc.result();
        if let Some(result) = &result {
            let labels: Vec<&str> = Side::BOTH.iter().map(|&s| players.side_label(s)).collect();
            let json = serde_json::json!({
                "sides": labels,
                "totals": result.totals,
                "winner": result.winner.map(|s| players.side_label(s)),
                "vp": result.vp,
                "end": match result.end { MatchEnd::Hands => "hands", MatchEnd::Target => "target", MatchEnd::TimeOut => "time_out" },
                "hands": result.hands,
            });
            writes.push(Write::Result {
                table: table.clone(),
                result: json.to_string(),
            });
        }
        if let Err(e) = self.shared.store.write(writes).await {
            tracing::error!("hand record not saved: {e}");
        }
        let seq = self.next_seq();
        self.publish(
            ServerMessage::HandRecord {
                table: table.clone(),
                seq,
                hand: self.hand_no,
                record,
            },
            None,
        );
        match result {
            Some(result) => {
                let seq = self.next_seq();
                self.publish(
                    ServerMessage::MatchEnded {
                        table,
                        seq,
                        sides: Side::BOTH
                            .iter()
                            .map(|&s| players.side_label(s).to_owned())
                            .collect(),
                        totals: result.totals.to_vec(),
                        winner: result.winner.map(|s| players.side_label(s).to_owned()),
                        vp: result.vp.map(|v| v.to_vec()),
                    },
                    None,
                );
                self.status = Status::Finished;
                self.round_deadline = None;
                self.linger_until = Some(Instant::now() + self.shared.config.finished_linger);
                for slot in self.seats.iter().flatten() {
                    self.shared.directory.forget_seat(&slot.player, &self.id);
                }
                self.refresh_info();
            }
            None => self.next_hand_at = Some(Instant::now() + self.shared.config.next_hand_delay),
        }
    }

    // ----- publishing ---------------------------------------------------------------------------

    fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// Tells everyone at the table that `seat` is ready.
    fn publish_ready(&mut self, seat: Seat) {
        let seq = self.next_seq();
        let ready = ServerMessage::PlayerReady {
            table: self.id.to_string(),
            seq,
            seat: WireSeat(seat),
        };
        self.publish(ready, None);
    }

    fn publish_events(&mut self, events: &[Event]) {
        let players = self.players();
        for event in events {
            let seq = self.next_seq();
            let seed = self.hand.as_ref().map(|h| h.seed);
            let cx = EventContext {
                table: &self.id,
                seq,
                players,
                hand: self.hand_no,
                seed: match event {
                    Event::HandEnded { .. } => seed.as_ref(),
                    _ => None,
                },
            };
            let message = event_to_wire(event, cx);
            self.publish(message, event.private_to());
            if let Event::TurnStarted { seat, clock, .. } = event {
                self.set_turn_timer(*seat, *clock);
            }
        }
    }

    /// Numbers are assigned by the caller ([`Self::next_seq`]); this projects and stages. While
    /// an action runs, the action releases what it staged at its end; otherwise it goes at once.
    fn publish(&mut self, message: ServerMessage, private_to: Option<Seat>) {
        let seq = message.seq().unwrap_or(self.seq);
        let frame = Frame::new(message);
        let tick = private_to.map(|_| {
            Frame::new(ServerMessage::Tick {
                table: self.id.to_string(),
                seq,
            })
        });
        let at_once = self.staged.is_none();
        let staged = self.staged.get_or_insert_with(Staged::default);
        for seat in Seat::ALL {
            let projected = match (&tick, private_to) {
                (Some(tick), Some(owner)) if owner != seat => tick,
                _ => &frame,
            };
            staged.seats[seat.index()].push(projected.clone());
        }
        staged
            .spectators
            .push(tick.as_ref().unwrap_or(&frame).clone());
        self.buffer_event(Buffered {
            seq,
            private_to,
            bytes: frame.approx_bytes() + tick.as_ref().map_or(0, |t| t.approx_bytes()),
            frame,
            tick,
        });
        if at_once {
            self.release_staged(None, None);
        }
    }

    /// Queues what was staged, one batch per receiver (seats without a connection get nothing),
    /// with `reply` last in the batch of the connection it answers (or on its own when that
    /// connection has no seat here). `received`: when the action arrived, to time its delivery
    /// to the seats ([`Fanout`]).
    fn release_staged(
        &mut self,
        reply: Option<(&Outbox, ServerMessage)>,
        received: Option<std::time::Instant>,
    ) {
        let mut staged = self.staged.take().unwrap_or_default();
        let mut reply = reply;
        let fanout = received
            .filter(|_| staged.seats.iter().any(|frames| !frames.is_empty()))
            .map(Fanout::new);
        for seat in Seat::ALL {
            let Some(out) = self.seats[seat.index()]
                .as_ref()
                .and_then(|s| s.out.as_ref())
            else {
                continue;
            };
            let mut frames = std::mem::take(&mut staged.seats[seat.index()]);
            if let Some((_, message)) = reply.take_if(|(to, _)| to.id() == out.id()) {
                frames.push(Frame::new(message));
            }
            out.send_traced(frames, fanout.clone());
        }
        if let Some((out, message)) = reply {
            out.send_message(message);
        }
        if !self.spectators.is_empty() {
            for out in &self.spectators {
                out.send_batch(staged.spectators.clone());
            }
            self.spectators.retain(|o| !o.is_kicked());
        }
    }

    /// Keeps an event for `sync`, dropping the oldest beyond the count and byte caps. An event
    /// larger than the byte cap by itself empties the buffer (a client behind it gets a snapshot:
    /// the buffer never has holes).
    fn buffer_event(&mut self, entry: Buffered) {
        let (max_len, max_bytes) = (
            self.shared.config.replay_buffer,
            self.shared.config.replay_buffer_bytes,
        );
        if entry.bytes > max_bytes || max_len == 0 {
            self.buffer = VecDeque::new();
            self.buffer_bytes = 0;
            return;
        }
        while !self.buffer.is_empty()
            && (self.buffer.len() >= max_len || self.buffer_bytes + entry.bytes > max_bytes)
        {
            if let Some(old) = self.buffer.pop_front() {
                self.buffer_bytes -= old.bytes;
            }
        }
        self.buffer_bytes += entry.bytes;
        self.buffer.push_back(entry);
    }

    fn sync(&mut self, player: &str, last_seq: u64, req: Request) {
        let viewer = match self.seat_of(player) {
            Some(seat) => Viewer::Seat(seat),
            None if self.spectators.iter().any(|o| o.id() == req.out.id()) => Viewer::Spectator,
            None => {
                return req.error(
                    "not_at_table",
                    "you are neither seated at nor watching this table",
                );
            }
        };
        let out = req.out.clone();
        let id = req.id;
        let from_buffer =
            last_seq >= self.seq || self.buffer.front().is_some_and(|b| b.seq <= last_seq + 1);
        // One batch: the client's writer sends the whole catch-up with one flush.
        let mut frames = Vec::new();
        if from_buffer {
            for b in self.buffer.iter().filter(|b| b.seq > last_seq) {
                let visible = match (viewer, b.private_to) {
                    (_, None) => true,
                    (Viewer::Seat(seat), Some(owner)) => seat == owner,
                    (Viewer::Spectator, Some(_)) => false,
                };
                let frame = if visible {
                    &b.frame
                } else {
                    b.tick.as_ref().unwrap_or(&b.frame)
                };
                frames.push(frame.clone());
            }
        } else {
            frames.push(Frame::new(self.snapshot(viewer)));
        }
        frames.push(Frame::new(ServerMessage::Ok { id }));
        out.send_batch(frames);
        let _ = req.done.send(());
    }

    fn chat(
        &mut self,
        player: &str,
        name: String,
        text: Option<String>,
        phrase: Option<String>,
        req: Request,
    ) {
        let seat = self.seat_of(player);
        let watching = self.spectators.iter().any(|o| o.id() == req.out.id());
        if seat.is_none() && !watching {
            return req.error(
                "not_at_table",
                "you are neither seated at nor watching this table",
            );
        }
        let text = match (text, phrase) {
            (_, Some(phrase)) => match crate::CHAT_PHRASES.iter().find(|p| **p == phrase) {
                Some(p) => (*p).to_owned(),
                None => return req.error("unknown_phrase", format!("unknown phrase {phrase:?}")),
            },
            (Some(text), None) => {
                if self.hand.as_ref().is_some_and(|h| !h.game.is_over()) {
                    return req.error(
                        "chat_closed",
                        "free-text chat is closed while a hand is in play; fixed phrases stay open (RULES.md 12)",
                    );
                }
                if text.chars().count() > 200 || text.chars().any(char::is_control) {
                    return req.error(
                        "invalid_message",
                        "chat text: at most 200 characters, no control characters",
                    );
                }
                text
            }
            (None, None) => return req.error("invalid_message", "chat needs text or phrase"),
        };
        let id = req.id;
        let seq = self.next_seq();
        self.publish(
            ServerMessage::ChatMessage {
                table: self.id.to_string(),
                seq,
                seat: seat.map(WireSeat),
                name,
                text,
            },
            None,
        );
        req.reply(ServerMessage::Ok { id });
    }

    // ----- views --------------------------------------------------------------------------------

    fn snapshot(&self, viewer: Viewer) -> ServerMessage {
        let players = self.players();
        let view = self.hand.as_ref().map(|h| h.game.view(viewer));
        let seats = players
            .seats()
            .iter()
            .map(|&seat| {
                let slot = self.seats[seat.index()].as_ref();
                SeatState {
                    seat: WireSeat(seat),
                    name: slot.map(|s| s.name.clone()),
                    bot: slot.is_some_and(|s| s.bot.is_some()),
                    connected: slot.is_some_and(|s| s.out.is_some()),
                    ready: slot.is_some_and(|s| s.ready),
                    cards: view.as_ref().and_then(|v| {
                        v.hand_sizes
                            .iter()
                            .find(|(s, _)| *s == seat)
                            .map(|(_, n)| (*n).min(255) as u8)
                    }),
                }
            })
            .collect();
        let status = match (self.status, &self.hand) {
            (Status::Playing, Some(h)) if h.game.is_over() => "between_hands",
            (status, _) => status.code(),
        };
        let now = Instant::now();
        let hand = self.hand.as_ref().zip(view).map(|(h, v)| HandSnapshot {
            number: self.hand_no,
            dealer: WireSeat(v.dealer),
            on_turn: WireSeat(v.on_turn),
            phase: match v.phase {
                Phase::Take => "take",
                Phase::Play => "play",
                Phase::Over => "over",
            }
            .into(),
            hand: v.hand,
            melds: v
                .melds
                .iter()
                .map(|m| meld_to_wire(m.id, m.side, players, &m.meld))
                .collect(),
            pile: v.pile,
            tallone: v.tallone.min(255) as u8,
            pozzetti: v
                .pozzetti
                .iter()
                .map(|p| p.map(|side| players.side_label(side).to_owned()))
                .collect(),
            picked_single_card: v.picked_single_card,
            commitment: v.commitment.map(|c| burraco_protocol::cards::to_hex(&c)),
            move_clock_left_ms: self.move_timer.filter(|_| !h.game.is_over()).map(|t| {
                let left = t.deadline.saturating_duration_since(now).as_millis() as u32;
                match t.stage {
                    Stage::Limit => left + v.move_clock.map_or(0, |c| c.grace_ms),
                    Stage::Grace => left,
                }
            }),
            last_round: v.last_round,
            stallo_exchanges: v.stallo_exchanges,
            stallo_must_draw: v.stallo_must_draw.map(WireSeat),
        });
        let totals = self.matc.as_ref().map_or([0, 0], Match::totals);
        ServerMessage::Snapshot {
            table: self.id.to_string(),
            seq: self.seq,
            view: Box::new(TableSnapshot {
                settings: config_to_wire(&self.config),
                status: status.into(),
                you: match viewer {
                    Viewer::Seat(seat) => Some(WireSeat(seat)),
                    Viewer::Spectator => None,
                },
                seats,
                hands_played: self.matc.as_ref().map_or(0, Match::hands_played),
                sides: Side::BOTH
                    .iter()
                    .map(|&s| players.side_label(s).to_owned())
                    .collect(),
                totals: totals.to_vec(),
                round_clock_left_ms: self
                    .round_deadline
                    .map(|d| d.saturating_duration_since(now).as_millis() as u64),
                time_out: self.matc.as_ref().is_some_and(Match::is_timed_out),
                hand,
            }),
        }
    }

    fn refresh_info(&self) {
        let players = self.players();
        let summary = TableSummary {
            table: self.id.to_string(),
            preset: self.config.preset().code().to_owned(),
            players: players.count() as u8,
            seats: players
                .seats()
                .iter()
                .map(|&seat| {
                    let slot = self.seats[seat.index()].as_ref();
                    SeatName {
                        seat: WireSeat(seat),
                        name: slot.map(|s| s.name.clone()),
                        bot: slot.is_some_and(|s| s.bot.is_some()),
                    }
                })
                .collect(),
            status: self.status.code().into(),
            spectators: self.spectators.len() as u32,
        };
        let free_seats = players
            .seats()
            .iter()
            .filter(|s| self.seats[s.index()].is_none())
            .count();
        let mut info = self.info.lock().unwrap_or_else(|e| e.into_inner());
        *info = TableInfo {
            summary,
            private: self.private,
            free_seats,
            waiting: self.status == Status::Waiting,
        };
    }
}
