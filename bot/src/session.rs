//! The client protocol as a state machine without IO: feed it server messages, send what it
//! returns. It says hello (resuming when it has a token), takes a seat, readies (before the match
//! and between hands), keeps the seat's knowledge from the events, detects sequence gaps and
//! resyncs, and asks its [`SeatBot`] for an action when the seat is on turn and the previous
//! action's effects have arrived.
//!
//! The async [`crate::client`] drives it over one WebSocket; the load tester drives thousands; the
//! server runs one per bot seat ([`Session::seated`]: the table seats it, so no hello, no seat
//! request, no ready), thinking on its blocking pool ([`Session::think`]).
//!
//! A refused action is never offered again in the same state; after two refusals in a row the
//! session plays a random legal action instead of its strategy's, after four it asks for a
//! snapshot, after eight it stops trying until the next turn starts (the move clock, if any, plays
//! for it) or its driver calls [`Session::retry`] after a while: a bot never spins.

use burraco_protocol::ErrorCode;
use burraco_protocol::convert::event_from_wire;
use burraco_protocol::wire::{
    ClientMessage, ServerMessage, WireSeat, WireSettings, protocol_version,
};
use burraco_rules::{Action, Config, Event, Players, Seat};

use crate::seat::{SeatBot, knowledge_from_snapshot};
use crate::strategy::Strategy;

/// Refusals in one state before the session plays a random legal action instead of its
/// strategy's (the strategy may keep choosing among moves the server refuses).
const REFUSALS_BEFORE_FALLBACK: u32 = 2;
/// ...before it asks for a snapshot (its knowledge may be wrong).
const REFUSALS_BEFORE_SYNC: u32 = 4;
/// ...before it stops trying until the next turn, or [`Session::retry`].
const REFUSALS_BEFORE_GIVING_UP: u32 = 8;
/// Seat races lost in a row (`table_full`, `table_started`, `seat_taken` answering a quick
/// play) that are asked again at once; after these the driver pauses before asking (a string of
/// lost races asked at once passes a token's request limit, and `rate_limited` is no race).
const SEAT_RACES_ASKED_AT_ONCE: u32 = 2;

/// How the bot finds a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatRequest {
    /// The first open public table of a preset, or a new one.
    QuickPlay { preset: String, players: u8 },
    /// Rated quick play (protocol 1.5, a signed-in account only): the waiting rated table of
    /// the closest rating, or a new one.
    QuickPlayRated { preset: String, players: u8 },
    /// A public table by id, optionally a given seat.
    Table { table: String, seat: Option<Seat> },
    /// A private table by invite code.
    Invite { code: String },
    /// Open a table and wait for the others.
    Create {
        settings: WireSettings,
        private: bool,
    },
}

/// Counters of one session.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SessionStats {
    pub actions: u64,
    /// Error replies of any kind.
    pub errors: u64,
    /// Actions refused as illegal.
    pub illegal: u64,
    /// Actions refused, whatever the code.
    pub refused: u64,
    pub resyncs: u64,
    /// Snapshots that did not read back (a newer or broken server): the session kept what it had.
    pub unreadable_snapshots: u64,
    pub hands: u64,
    pub matches: u64,
}

/// Where the session stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Waiting for `welcome`.
    Greeting,
    /// Asked for a seat.
    Seating,
    /// Seated at a table (waiting for the match, or playing).
    Seated,
    /// Played the matches it was asked to.
    Done,
    /// Gave up (the seat request was refused for good).
    Failed,
    /// A seat the table gave it ([`Session::seated`]) is no longer its: the seat's player took
    /// it back.
    Unseated,
}

#[derive(Debug, Clone)]
struct Pending {
    id: u64,
    action: Action,
    replied: bool,
    effect_seen: bool,
}

/// Makes a fresh strategy for each match.
pub type StrategyFactory = Box<dyn FnMut() -> Box<dyn Strategy> + Send>;

/// One bot's protocol state.
pub struct Session {
    name: String,
    request: SeatRequest,
    matches_wanted: u32,
    factory: StrategyFactory,
    seed: u64,
    token: Option<String>,
    stage: Stage,
    table: Option<String>,
    seat: Option<Seat>,
    invite: Option<String>,
    config: Option<Config>,
    bot: Option<SeatBot>,
    last_seq: u64,
    next_id: u64,
    seat_request_id: Option<u64>,
    /// Quick-play races lost in a row since the last seat.
    seat_races: u32,
    /// The seat request waits for its driver's pause ([`Session::seat_request_after_pause`]).
    seat_request_due: bool,
    /// The seat request in flight is the `join` of a seat quick play moved this session to
    /// (1.9 `quick_play_moved`): refused, the session asks for a seat as it first did.
    moved_join: bool,
    sync_id: Option<u64>,
    pending: Option<Pending>,
    refused: Vec<Action>,
    /// Refusals since the last accepted action or the start of the turn.
    refusals: u32,
    /// The turn in progress was announced (`turn_started`, or a snapshot): a deal's events arrive
    /// one by one, and the first turn's seat must not act on half a deal.
    turn_seen: bool,
    /// Seated by the table rather than by its own request ([`Session::seated`]).
    given_seat: bool,
    /// The `ready` said between hands, until its reply. Its `table_started` refusal is expected,
    /// not an error: a hand's record does not say whether the match ends with it, and the next
    /// hand may be dealt (its delay over) before the ready arrives.
    ready_id: Option<u64>,
    /// The `ready` said on taking the seat (or again, seeing a rebuilt table waiting for it),
    /// until its reply.
    seat_ready_id: Option<u64>,
    last_error: Option<String>,
    stats: SessionStats,
}

/// A decision to make off the session (on a blocking pool): the seat's bot, taken out of the
/// session by [`Session::think`] until [`Session::decided`] puts it back. Meanwhile the session
/// must not be fed messages (hold them until then).
#[derive(Debug)]
pub struct Thinking {
    bot: SeatBot,
    refused: Vec<Action>,
    use_strategy: bool,
}

impl Thinking {
    /// Decides: the strategy's action (or, when it has none left or keeps being refused, a random
    /// legal one not refused yet).
    pub fn run(mut self) -> Thought {
        let action = if self.use_strategy {
            self.bot
                .decide(&self.refused)
                .or_else(|| self.bot.fallback(&self.refused))
        } else {
            self.bot.fallback(&self.refused)
        };
        Thought {
            bot: self.bot,
            action,
        }
    }
}

/// A decision made: the bot to give back to its session, and its action (`None`: everything
/// was refused).
#[derive(Debug)]
pub struct Thought {
    bot: SeatBot,
    action: Option<Action>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("name", &self.name)
            .field("stage", &self.stage)
            .field("table", &self.table)
            .field("seat", &self.seat)
            .field("last_seq", &self.last_seq)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl Session {
    pub fn new(
        name: impl Into<String>,
        request: SeatRequest,
        matches: u32,
        factory: StrategyFactory,
        seed: u64,
    ) -> Session {
        Session {
            name: name.into(),
            request,
            matches_wanted: matches.max(1),
            factory,
            seed,
            token: None,
            stage: Stage::Greeting,
            table: None,
            seat: None,
            invite: None,
            config: None,
            bot: None,
            last_seq: 0,
            next_id: 1,
            seat_request_id: None,
            seat_races: 0,
            seat_request_due: false,
            moved_join: false,
            sync_id: None,
            pending: None,
            refused: Vec::new(),
            refusals: 0,
            turn_seen: false,
            given_seat: false,
            ready_id: None,
            seat_ready_id: None,
            last_error: None,
            stats: SessionStats::default(),
        }
    }

    /// A session for a seat the table gave it (a server's bot seat, or a stand-in for a player
    /// gone): it sends no hello, seat request or ready, plays from the snapshot the table sends
    /// first, and finishes with the match, or as [`Stage::Unseated`] when the table refuses it
    /// the seat (`not_seated`) because its player took it back.
    pub fn seated(
        name: impl Into<String>,
        table: impl Into<String>,
        seat: Seat,
        factory: StrategyFactory,
        seed: u64,
    ) -> Session {
        let table = table.into();
        // Never sent: the seat is the table's to give, and the session ends with the match.
        let request = SeatRequest::Table {
            table: table.clone(),
            seat: Some(seat),
        };
        let mut session = Session::new(name, request, 1, factory, seed);
        session.stage = Stage::Seated;
        session.table = Some(table);
        session.seat = Some(seat);
        session.given_seat = true;
        session
    }

    pub fn stage(&self) -> Stage {
        self.stage
    }

    pub fn is_finished(&self) -> bool {
        matches!(self.stage, Stage::Done | Stage::Failed | Stage::Unseated)
    }

    pub fn stats(&self) -> SessionStats {
        self.stats
    }

    pub fn table(&self) -> Option<&str> {
        self.table.as_deref()
    }

    pub fn seat(&self) -> Option<Seat> {
        self.seat
    }

    /// The invite code of a private table this session created.
    pub fn invite(&self) -> Option<&str> {
        self.invite.as_deref()
    }

    /// The resume token, once welcomed.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The last table sequence number processed.
    pub fn last_seq(&self) -> u64 {
        self.last_seq
    }

    pub fn last_error(&self) -> Option<&str> {
        self.last_error.as_deref()
    }

    /// Whether the seat is on turn (and not waiting for a reply).
    pub fn on_turn(&self) -> bool {
        self.bot.as_ref().is_some_and(|b| b.must_act())
    }

    /// Whether [`Session::think`] would give a decision to make: the seat is on turn, its turn was
    /// announced, nothing is in flight, and it has not given up on this turn.
    pub fn ready_to_act(&self) -> bool {
        self.pending.is_none()
            && self.sync_id.is_none()
            && self.stage == Stage::Seated
            && self.table.is_some()
            && self.turn_seen
            && self.refusals < REFUSALS_BEFORE_GIVING_UP
            && self.on_turn()
    }

    /// Whether every action was refused in this state: the session waits for the next turn, or
    /// for its driver's [`Session::retry`].
    pub fn is_stuck(&self) -> bool {
        self.refusals >= REFUSALS_BEFORE_GIVING_UP
    }

    /// Starts over from a snapshot after giving up (the driver calls it after a while without
    /// news: at a table without clocks nothing else would ever play the turn).
    pub fn retry(&mut self, out: &mut Vec<ClientMessage>) {
        self.refusals = 0;
        self.refused.clear();
        self.sync(out);
    }

    /// How long the driver pauses before [`Session::seat_request_after_pause`], or `None` when
    /// no seat request waits: longer with every race lost in a row, at most two seconds.
    pub fn seat_request_pause(&self) -> Option<std::time::Duration> {
        self.seat_request_due.then(|| {
            let races = u64::from(self.seat_races.clamp(1, 8));
            std::time::Duration::from_millis(250 * races)
        })
    }

    /// The seat request asked again after the driver's pause (lost races in a row, or
    /// `rate_limited`): `None` when none waits.
    pub fn seat_request_after_pause(&mut self) -> Option<ClientMessage> {
        if !std::mem::take(&mut self.seat_request_due) {
            return None;
        }
        Some(self.seat_request())
    }

    fn id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// The first message on a (new) connection.
    pub fn hello(&mut self) -> ClientMessage {
        if !self.is_finished() {
            self.stage = Stage::Greeting;
        }
        // Whatever was in flight on the old connection is answered by the resync.
        self.pending = None;
        self.sync_id = None;
        self.ready_id = None;
        self.seat_ready_id = None;
        ClientMessage::Hello {
            version: protocol_version(),
            name: self.name.clone(),
            resume: self.token.clone(),
        }
    }

    fn seat_request(&mut self) -> ClientMessage {
        let id = self.id();
        self.seat_request_id = Some(id);
        self.moved_join = false;
        self.stage = Stage::Seating;
        match &self.request {
            SeatRequest::QuickPlay { preset, players } => ClientMessage::QuickPlay {
                id,
                preset: Some(preset.clone()),
                players: Some(*players),
            },
            SeatRequest::QuickPlayRated { preset, players } => ClientMessage::QuickPlayRated {
                id,
                preset: Some(preset.clone()),
                players: Some(*players),
            },
            SeatRequest::Table { table, seat } => ClientMessage::Join {
                id,
                table: Some(table.clone()),
                invite: None,
                seat: seat.map(WireSeat),
            },
            SeatRequest::Invite { code } => ClientMessage::Join {
                id,
                table: None,
                invite: Some(code.clone()),
                seat: None,
            },
            SeatRequest::Create { settings, private } => ClientMessage::CreateTable {
                id,
                settings: settings.clone(),
                private: *private,
                bots: None,
            },
        }
    }

    fn sync(&mut self, out: &mut Vec<ClientMessage>) {
        let Some(table) = self.table.clone() else {
            return;
        };
        if self.sync_id.is_some() {
            return;
        }
        let id = self.id();
        self.sync_id = Some(id);
        self.stats.resyncs += 1;
        out.push(ClientMessage::Sync {
            id,
            table,
            last_seq: self.last_seq,
        });
    }

    /// Between hands the next hand is dealt once every player is ready (or after the server's
    /// delay): say so at once. A seat the table gave is readied by the table itself.
    fn ready_between_hands(&mut self, out: &mut Vec<ClientMessage>) {
        if self.given_seat || self.ready_id.is_some() {
            return;
        }
        let Some(table) = self.table.clone() else {
            return;
        };
        let id = self.id();
        self.ready_id = Some(id);
        out.push(ClientMessage::Ready { id, table });
    }

    fn new_bot(&mut self, config: Config, seat: Seat) -> SeatBot {
        let strategy = (self.factory)();
        SeatBot::new(config, seat, strategy, self.seed ^ self.stats.matches)
    }

    /// Handles one server message; appends what to send to `out`.
    pub fn handle(&mut self, message: &ServerMessage, out: &mut Vec<ClientMessage>) {
        use ServerMessage as M;
        match message {
            M::Welcome {
                session,
                resumed,
                seats,
                ..
            } => {
                self.token = Some(session.clone());
                if self.is_finished() {
                    return;
                }
                let ours = self
                    .table
                    .as_ref()
                    .is_some_and(|t| seats.iter().any(|s| &s.table == t));
                if *resumed && ours {
                    self.stage = Stage::Seated;
                    // A move's join in flight on the old connection: the resume took the seat.
                    self.moved_join = false;
                    self.sync(out);
                } else {
                    self.table = None;
                    self.bot = None;
                    out.push(self.seat_request());
                }
            }
            M::Seated { id, table, seat }
            | M::TableCreated {
                id, table, seat, ..
            } => {
                if Some(*id) != self.seat_request_id {
                    return;
                }
                if let M::TableCreated { invite, .. } = message {
                    self.invite = invite.clone();
                }
                self.seat_request_id = None;
                self.moved_join = false;
                self.seat_races = 0;
                self.table = Some(table.clone());
                self.seat = Some(seat.0);
                self.stage = Stage::Seated;
                self.last_seq = 0;
                let id = self.id();
                // In flight until its reply: the snapshot that follows does not say it again.
                self.seat_ready_id = Some(id);
                out.push(ClientMessage::Ready {
                    id,
                    table: table.clone(),
                });
            }
            M::Snapshot { table, seq, view } => {
                if Some(table) != self.table.as_ref() {
                    return;
                }
                let Some(seat) = self.seat.or(view.you.map(|s| s.0)) else {
                    return;
                };
                self.last_seq = *seq;
                self.turn_seen = true;
                let read = knowledge_from_snapshot(view, seat);
                if read.is_none() {
                    self.stats.unreadable_snapshots += 1;
                }
                if let Some((config, knowledge)) = read {
                    self.config = Some(config);
                    match knowledge {
                        Some(k) => match &mut self.bot {
                            Some(bot) => bot.set_knowledge(k),
                            None => {
                                let strategy = (self.factory)();
                                self.bot = Some(SeatBot::with_knowledge(k, strategy, self.seed));
                            }
                        },
                        None => {
                            let bot = self.new_bot(config, seat);
                            self.bot = Some(bot);
                        }
                    }
                }
                if let Some(p) = &mut self.pending {
                    p.effect_seen = true;
                }
                self.refused.clear();
                // Caught up between hands (a resume, a gap too old to replay) with the hand's
                // record never seen: the ready it would have said. Before the match, the same:
                // a table rebuilt elsewhere (a takeover, a restart) has forgotten who was ready.
                let not_ready = view.seats.iter().any(|s| s.seat.0 == seat && !s.ready);
                if view.status == "between_hands" && not_ready {
                    self.ready_between_hands(out);
                } else if view.status == "waiting"
                    && not_ready
                    && self.seat_ready_id.is_none()
                    && !self.given_seat
                    && let Some(table) = self.table.clone()
                {
                    let id = self.id();
                    self.seat_ready_id = Some(id);
                    out.push(ClientMessage::Ready { id, table });
                }
            }
            M::Ok { id } => {
                if self.sync_id == Some(*id) {
                    self.sync_id = None;
                }
                if self.seat_ready_id == Some(*id) {
                    self.seat_ready_id = None;
                }
                if self.ready_id == Some(*id) {
                    self.ready_id = None;
                }
                if let Some(p) = &mut self.pending
                    && p.id == *id
                {
                    p.replied = true;
                    self.refusals = 0;
                    if p.effect_seen {
                        self.pending = None;
                    }
                }
            }
            M::Error {
                id,
                code: text,
                message,
                ..
            } => {
                let code = ErrorCode::parse(text);
                if id.is_some() && *id == self.seat_ready_id {
                    self.seat_ready_id = None;
                }
                if id.is_some() && *id == self.ready_id {
                    self.ready_id = None;
                    if code == Some(ErrorCode::TableStarted) {
                        // The match ended with that hand, or the next was dealt first: nothing
                        // was refused that the session needed.
                        return;
                    }
                }
                self.stats.errors += 1;
                // The text as sent: a newer server's code is kept, and read as a plain refusal.
                self.last_error = Some(format!("{text}: {message}"));
                if id.is_some() && *id == self.seat_request_id {
                    self.seat_request_id = None;
                    if std::mem::take(&mut self.moved_join) {
                        // The seat quick play held went (its table started, or let it go
                        // first): ask for a seat again.
                        self.table = None;
                        out.push(self.seat_request());
                        return;
                    }
                    let quick_play = matches!(
                        self.request,
                        SeatRequest::QuickPlay { .. } | SeatRequest::QuickPlayRated { .. }
                    );
                    match code {
                        // Lost a race for the last seat: ask again, at once the first times.
                        Some(
                            ErrorCode::TableFull | ErrorCode::TableStarted | ErrorCode::SeatTaken,
                        ) if quick_play => {
                            self.seat_races += 1;
                            if self.seat_races <= SEAT_RACES_ASKED_AT_ONCE {
                                out.push(self.seat_request());
                            } else {
                                self.seat_request_due = true;
                            }
                        }
                        // Asked too fast: nothing was refused that waiting does not fix.
                        Some(ErrorCode::RateLimited) if quick_play => {
                            self.seat_request_due = true;
                        }
                        _ => self.stage = Stage::Failed,
                    }
                    return;
                }
                if id.is_some() && *id == self.sync_id {
                    self.sync_id = None;
                }
                if let Some(p) = self.pending.take_if(|p| Some(p.id) == *id) {
                    if self.given_seat && code == Some(ErrorCode::NotSeated) {
                        self.stage = Stage::Unseated;
                        return;
                    }
                    if code == Some(ErrorCode::IllegalAction) {
                        self.stats.illegal += 1;
                    }
                    self.stats.refused += 1;
                    self.refused.push(p.action);
                    self.refusals += 1;
                    if self.refusals == REFUSALS_BEFORE_SYNC {
                        self.refused.clear();
                        self.sync(out);
                    }
                }
            }
            M::QuickPlayMoved { from, table, seat } => {
                if self.table.as_ref() != Some(from) || self.is_finished() {
                    return;
                }
                // Quick play brought the players of our waiting table to another one, where a
                // seat is held for us: join it (a resume before the answer finds it ours), then
                // ready as after any seat request.
                let id = self.id();
                self.seat_request_id = Some(id);
                self.moved_join = true;
                self.stage = Stage::Seating;
                self.table = Some(table.clone());
                self.seat = Some(seat.0);
                self.bot = None;
                self.last_seq = 0;
                self.seat_ready_id = None;
                out.push(ClientMessage::Join {
                    id,
                    table: Some(table.clone()),
                    invite: None,
                    seat: Some(*seat),
                });
            }
            M::Goodbye { .. } => {}
            // The end of the match ends everything before it: no gap is worth a resync now.
            M::MatchEnded { table, .. } if Some(table) == self.table.as_ref() => {
                self.last_seq = message.seq().unwrap_or(self.last_seq).max(self.last_seq);
                self.match_ended(out);
            }
            _ => {
                let Some(seq) = message.seq() else { return };
                if self.table.is_none() || self.bot.is_none() {
                    return;
                }
                if seq <= self.last_seq {
                    return; // already seen (a replay overlapping what arrived)
                }
                if seq > self.last_seq + 1 {
                    self.sync(out);
                    return;
                }
                self.last_seq = seq;
                self.table_event(message, out);
            }
        }
    }

    fn table_event(&mut self, message: &ServerMessage, out: &mut Vec<ClientMessage>) {
        use ServerMessage as M;
        let players = self.config.map_or(Players::Four, |c| c.players());
        if let Some(event) = event_from_wire(message, players) {
            let me = self.seat;
            if let Some(bot) = &mut self.bot {
                bot.observe(&event);
            }
            self.refused.clear();
            if let Some(p) = &mut self.pending {
                let mine = |s: &Seat| Some(*s) == me;
                let effect = match (&p.action, &event) {
                    (Action::Draw, Event::DrewCard { seat, .. }) => mine(seat),
                    (Action::PickUp, Event::PickedUp { seat, .. }) => mine(seat),
                    (Action::Open { .. }, Event::Opened { seat, .. }) => mine(seat),
                    (Action::Attach { .. }, Event::Attached { seat, .. }) => mine(seat),
                    (Action::Discard { .. }, Event::Discarded { seat, .. }) => mine(seat),
                    _ => false,
                };
                if effect {
                    p.effect_seen = true;
                    if p.replied {
                        self.pending = None;
                    }
                }
            }
            match event {
                Event::HandStarted { .. } => {
                    self.refusals = 0;
                    self.turn_seen = false;
                }
                Event::TurnStarted { .. } => {
                    self.refusals = 0;
                    self.turn_seen = true;
                }
                Event::HandEnded { .. } => self.stats.hands += 1,
                _ => {}
            }
            return;
        }
        match message {
            M::HandRecord { .. } => self.ready_between_hands(out),
            M::MatchEnded { .. } => self.match_ended(out),
            _ => {}
        }
    }

    fn match_ended(&mut self, out: &mut Vec<ClientMessage>) {
        self.stats.matches += 1;
        self.pending = None;
        self.bot = None;
        self.table = None;
        if self.stats.matches >= u64::from(self.matches_wanted) {
            self.stage = Stage::Done;
        } else {
            out.push(self.seat_request());
        }
    }

    /// The next action to send, when the seat is on turn and nothing is in flight, decided here
    /// and now.
    pub fn poll_action(&mut self) -> Option<ClientMessage> {
        let thinking = self.think()?;
        self.decided(thinking.run())
    }

    /// The decision to make, when [`Session::ready_to_act`]: the seat's bot goes with it until
    /// [`Session::decided`] (or [`Session::decision_lost`]).
    pub fn think(&mut self) -> Option<Thinking> {
        if !self.ready_to_act() {
            return None;
        }
        Some(Thinking {
            bot: self.bot.take()?,
            refused: self.refused.clone(),
            use_strategy: self.refusals < REFUSALS_BEFORE_FALLBACK,
        })
    }

    /// Takes the bot back from a decision and gives the action's message to send; `None` when
    /// every action was refused (the session then waits: [`Session::is_stuck`]).
    pub fn decided(&mut self, thought: Thought) -> Option<ClientMessage> {
        self.bot = Some(thought.bot);
        let Some(action) = thought.action else {
            self.refusals = REFUSALS_BEFORE_GIVING_UP;
            return None;
        };
        let table = self.table.clone()?;
        let id = self.id();
        self.stats.actions += 1;
        let message = ClientMessage::action(&action, id, &table);
        self.pending = Some(Pending {
            id,
            action,
            replied: false,
            effect_seen: false,
        });
        Some(message)
    }

    /// A decision that never came back (its strategy panicked): the seat's knowledge went with
    /// it, and a snapshot rebuilds it.
    pub fn decision_lost(&mut self, out: &mut Vec<ClientMessage>) {
        self.refusals += 1;
        self.sync(out);
    }

    /// The request id and kind of the action in flight, if any.
    pub fn pending_action(&self) -> Option<(u64, &'static str)> {
        self.pending.as_ref().map(|p| (p.id, p.action.code()))
    }
}

#[cfg(test)]
mod tests {
    use burraco_protocol::convert::{cards_held, config_to_wire, hand_to_wire};
    use burraco_protocol::wire::{SeatState, TableSnapshot};
    use burraco_rules::{DealSource, Game, Preset, Seed, Viewer};

    use super::*;
    use crate::strategy::RandomLegal;

    /// A fresh hand's snapshot as `seat`, the seat on turn, receives it once it has drawn (so it
    /// has a dozen moves to try, not two).
    fn snapshot_on_turn() -> (Seat, ServerMessage) {
        let config = Config::of(Preset::Fitab);
        let first = config.players().seats()[0];
        let (mut game, _) = Game::new(config, first, DealSource::Seed(Seed([4; 32]))).unwrap();
        let seat = game.on_turn();
        game.act(seat, &Action::Draw).unwrap();
        let view = game.view(Viewer::Seat(seat));
        let snapshot = TableSnapshot {
            settings: config_to_wire(&config),
            status: "playing".into(),
            you: Some(WireSeat(seat)),
            seats: config
                .players()
                .seats()
                .iter()
                .map(|&s| SeatState {
                    seat: WireSeat(s),
                    name: None,
                    bot: true,
                    connected: true,
                    ready: true,
                    cards: cards_held(&view, s),
                })
                .collect(),
            hands_played: 0,
            sides: vec!["NS".into(), "EW".into()],
            totals: vec![0, 0],
            round_clock_left_ms: None,
            time_out: false,
            hand: Some(hand_to_wire(&view, 1, None)),
        };
        let message = ServerMessage::Snapshot {
            table: "t".into(),
            seq: 5,
            view: Box::new(snapshot),
        };
        (seat, message)
    }

    fn seated_on_turn() -> Session {
        let (seat, snapshot) = snapshot_on_turn();
        let factory: StrategyFactory = Box::new(|| Box::new(RandomLegal::new(1)));
        let mut session = Session::seated("bot", "t", seat, factory, 1);
        let mut out = Vec::new();
        session.handle(&snapshot, &mut out);
        assert!(out.is_empty(), "a seated session asks for nothing: {out:?}");
        session
    }

    fn refuse(session: &mut Session, id: u64, code: ErrorCode) -> Vec<ClientMessage> {
        let mut out = Vec::new();
        session.handle(&ServerMessage::error(Some(id), code, "no", None), &mut out);
        out
    }

    /// A seat the table gave: the session plays from the snapshot; refusals climb the ladder (a
    /// snapshot asked for after four, a pause after eight, a retry on demand); `not_seated` ends it.
    #[test]
    fn a_seated_session_climbs_the_refusal_ladder_and_never_spins() {
        let mut session = seated_on_turn();
        assert!(session.ready_to_act());
        for refusal in 1..=8 {
            let action = session.poll_action().expect("an action to try");
            let id = action.id().expect("a request");
            assert!(action.table_action().is_some(), "{action:?}");
            let out = refuse(&mut session, id, ErrorCode::IllegalAction);
            if refusal == 4 {
                let [ClientMessage::Sync { id, last_seq, .. }] = out.as_slice() else {
                    panic!("a sync after four refusals, not {out:?}");
                };
                assert_eq!(*last_seq, 5);
                let mut none = Vec::new();
                session.handle(&ServerMessage::Ok { id: *id }, &mut none);
            } else {
                assert!(out.is_empty(), "{out:?}");
            }
        }
        assert!(session.is_stuck());
        assert!(!session.ready_to_act());
        assert_eq!(session.poll_action(), None);
        assert_eq!(session.stats().refused, 8);
        assert_eq!(session.stats().illegal, 8);
        let mut out = Vec::new();
        session.retry(&mut out);
        assert!(matches!(out.as_slice(), [ClientMessage::Sync { .. }]));
        assert!(!session.is_stuck());

        let mut session = seated_on_turn();
        let id = session
            .poll_action()
            .and_then(|a| a.id())
            .expect("an action");
        assert!(refuse(&mut session, id, ErrorCode::NotSeated).is_empty());
        assert_eq!(session.stage(), Stage::Unseated);
        assert!(session.is_finished());
    }

    /// The split decision (for a runtime that thinks elsewhere) is the same as `poll_action`.
    #[test]
    fn thinking_elsewhere_gives_the_same_action() {
        let mut here = seated_on_turn();
        let mut elsewhere = seated_on_turn();
        let thinking = elsewhere.think().expect("on turn");
        assert!(!elsewhere.ready_to_act(), "the bot is out thinking");
        let thought = std::thread::spawn(move || thinking.run()).join().unwrap();
        assert_eq!(elsewhere.decided(thought), here.poll_action());
    }

    fn quick_play() -> Session {
        let request = SeatRequest::QuickPlay {
            preset: "fitab".into(),
            players: 4,
        };
        Session::new(
            "b",
            request,
            1,
            Box::new(|| Box::new(RandomLegal::new(1))),
            1,
        )
    }

    /// Welcomed, the session asks for a seat; returns that request's id.
    fn seat_request(session: &mut Session) -> u64 {
        session.hello();
        let welcome = ServerMessage::Welcome {
            version: protocol_version(),
            session: "token".into(),
            player: "p".into(),
            name: "b".into(),
            resumed: false,
            seats: vec![],
        };
        let mut out = Vec::new();
        session.handle(&welcome, &mut out);
        match out.as_slice() {
            [ClientMessage::QuickPlay { id, .. }] => *id,
            other => panic!("a quick play, not {other:?}"),
        }
    }

    /// Rated quick play asks `quick_play_rated` once welcomed, and asks again after losing a
    /// race for the last seat, as casual quick play does.
    #[test]
    fn rated_quick_play_asks_for_a_rated_seat_and_again_after_a_lost_race() {
        let mut session = Session::new(
            "b",
            SeatRequest::QuickPlayRated {
                preset: "fitab".into(),
                players: 2,
            },
            1,
            Box::new(|| Box::new(RandomLegal::new(1))),
            1,
        );
        session.hello();
        let welcome = ServerMessage::Welcome {
            version: protocol_version(),
            session: "token".into(),
            player: "p".into(),
            name: "b".into(),
            resumed: false,
            seats: vec![],
        };
        let mut out = Vec::new();
        session.handle(&welcome, &mut out);
        let [ClientMessage::QuickPlayRated { id, players, .. }] = out.as_slice() else {
            panic!("a rated quick play, not {out:?}")
        };
        assert_eq!(*players, Some(2));
        let lost = ServerMessage::error(Some(*id), ErrorCode::TableFull, "full", None);
        let mut again = Vec::new();
        session.handle(&lost, &mut again);
        assert!(
            matches!(again.as_slice(), [ClientMessage::QuickPlayRated { .. }]),
            "{again:?}"
        );
    }

    /// Races lost in a row past the first two, and `rate_limited`, wait for the driver's pause
    /// (asking at once spun past a token's request limit, and the bot stopped on it).
    #[test]
    fn lost_races_in_a_row_and_rate_limits_wait_for_a_pause() {
        let mut session = quick_play();
        let mut id = seat_request(&mut session);
        for race in 1..=SEAT_RACES_ASKED_AT_ONCE {
            let lost = ServerMessage::error(Some(id), ErrorCode::TableFull, "full", None);
            let mut again = Vec::new();
            session.handle(&lost, &mut again);
            let [ClientMessage::QuickPlay { id: next, .. }] = again.as_slice() else {
                panic!("race {race}: asked again at once, not {again:?}")
            };
            id = *next;
            assert_eq!(session.seat_request_pause(), None);
        }
        let lost = ServerMessage::error(Some(id), ErrorCode::SeatTaken, "taken", None);
        let mut again = Vec::new();
        session.handle(&lost, &mut again);
        assert!(again.is_empty(), "{again:?}");
        assert_eq!(
            session.seat_request_pause(),
            Some(std::time::Duration::from_millis(750))
        );
        let Some(ClientMessage::QuickPlay { id: next, .. }) = session.seat_request_after_pause()
        else {
            panic!("the seat request after the pause")
        };
        assert!(session.seat_request_after_pause().is_none(), "asked once");
        let limited = ServerMessage::error(Some(next), ErrorCode::RateLimited, "slow", None);
        session.handle(&limited, &mut again);
        assert!(again.is_empty(), "{again:?}");
        assert_ne!(session.stage(), Stage::Failed);
        assert!(session.seat_request_pause().is_some());
        assert!(session.seat_request_after_pause().is_some());
    }

    /// A quick-play session seated at table `t` in `seat`, with the snapshot `snapshot` read.
    fn seated_by_request(seat: Seat, snapshot: &ServerMessage) -> Session {
        let mut session = quick_play();
        let id = seat_request(&mut session);
        let mut out = Vec::new();
        let seated = ServerMessage::Seated {
            id,
            table: "t".into(),
            seat: WireSeat(seat),
        };
        session.handle(&seated, &mut out);
        assert!(matches!(out.as_slice(), [ClientMessage::Ready { .. }]));
        out.clear();
        session.handle(snapshot, &mut out);
        assert!(out.is_empty(), "{out:?}");
        session
    }

    fn hand_record(seq: u64) -> ServerMessage {
        ServerMessage::HandRecord {
            table: "t".into(),
            seq,
            hand: 1,
            record: "{}".into(),
        }
    }

    /// Between hands a client says ready at once (the table deals when all have); the refusal of
    /// that ready once the match is over is expected and changes nothing. A seat the table gave
    /// says nothing: the table readies it.
    #[test]
    fn a_client_readies_between_hands_and_shrugs_off_the_match_end() {
        let (seat, snapshot) = snapshot_on_turn();
        let mut session = seated_by_request(seat, &snapshot);
        let mut out = Vec::new();
        session.handle(&hand_record(6), &mut out);
        let [ClientMessage::Ready { id, table }] = out.as_slice() else {
            panic!("a ready after the hand's record, not {out:?}");
        };
        assert_eq!(table, "t");
        let id = *id;
        out.clear();
        let before = session.stats();
        let refused = ServerMessage::error(Some(id), ErrorCode::TableStarted, "over", None);
        session.handle(&refused, &mut out);
        assert!(out.is_empty(), "{out:?}");
        assert_eq!(session.stats(), before);
        assert_eq!(session.last_error(), None);
        assert_eq!(session.stage(), Stage::Seated);
        assert!(session.ready_to_act(), "still the seat's turn to play");

        let mut seated = seated_on_turn();
        seated.handle(&hand_record(6), &mut out);
        assert!(
            out.is_empty(),
            "a seat the table gave asks for nothing: {out:?}"
        );
    }

    /// A session that comes back between hands without the hand's record (a snapshot instead)
    /// says the ready it missed, unless the snapshot shows it said it already.
    #[test]
    fn a_snapshot_between_hands_gets_the_missed_ready() {
        let (seat, snapshot) = snapshot_on_turn();
        let between = |ready: bool| {
            let ServerMessage::Snapshot { table, seq, view } = &snapshot else {
                unreachable!()
            };
            let mut view = view.clone();
            view.status = "between_hands".into();
            for s in &mut view.seats {
                s.ready = ready && s.seat.0 == seat;
            }
            ServerMessage::Snapshot {
                table: table.clone(),
                seq: seq + 10,
                view,
            }
        };
        let mut session = seated_by_request(seat, &snapshot);
        let mut out = Vec::new();
        session.handle(&between(true), &mut out);
        assert!(out.is_empty(), "{out:?}");
        session.handle(&between(false), &mut out);
        assert!(
            matches!(out.as_slice(), [ClientMessage::Ready { .. }]),
            "{out:?}"
        );
    }

    /// A lost race for the last seat is retried; any other refusal, including a code this
    /// version does not know, ends the attempt without a panic, its text kept.
    #[test]
    fn seat_refusals_are_read_by_code() {
        let mut session = quick_play();
        let id = seat_request(&mut session);
        let mut out = Vec::new();
        let full = ServerMessage::error(Some(id), ErrorCode::TableFull, "full", None);
        session.handle(&full, &mut out);
        assert!(matches!(out.as_slice(), [ClientMessage::QuickPlay { .. }]));
        assert_eq!(session.stage(), Stage::Seating);

        let mut session = quick_play();
        let id = seat_request(&mut session);
        let newer = ServerMessage::Error {
            id: Some(id),
            code: "table_on_fire".into(),
            message: "a code from a newer server".into(),
            rule: None,
        };
        let mut out = Vec::new();
        session.handle(&newer, &mut out);
        assert!(out.is_empty());
        assert_eq!(session.stage(), Stage::Failed);
        assert_eq!(
            session.last_error(),
            Some("table_on_fire: a code from a newer server")
        );
    }

    /// 1.9: quick play moved the session's players to another table: it joins the seat held
    /// there, then readies as after any seat; a refused join (the seat went) asks for a seat
    /// again, and a move from a table that is not its own changes nothing.
    #[test]
    fn a_session_moved_by_quick_play_joins_its_held_seat_and_readies() {
        let moved = |from: &str| ServerMessage::QuickPlayMoved {
            from: from.into(),
            table: "t2".into(),
            seat: WireSeat(Seat::East),
        };
        let mut session = quick_play();
        let id = seat_request(&mut session);
        let mut out = Vec::new();
        let seated = ServerMessage::Seated {
            id,
            table: "t".into(),
            seat: WireSeat(Seat::North),
        };
        session.handle(&seated, &mut out);
        out.clear();
        session.handle(&moved("elsewhere"), &mut out);
        assert!(out.is_empty(), "{out:?}");
        assert_eq!(session.table(), Some("t"));
        session.handle(&moved("t"), &mut out);
        let [
            ClientMessage::Join {
                id: join,
                table: Some(table),
                invite: None,
                seat: Some(WireSeat(Seat::East)),
            },
        ] = out.as_slice()
        else {
            panic!("the held seat joined, not {out:?}")
        };
        assert_eq!(table, "t2");
        let join = *join;
        out.clear();
        let seated = ServerMessage::Seated {
            id: join,
            table: "t2".into(),
            seat: WireSeat(Seat::East),
        };
        session.handle(&seated, &mut out);
        assert!(
            matches!(out.as_slice(), [ClientMessage::Ready { table, .. }] if table == "t2"),
            "{out:?}"
        );
        assert_eq!(
            (session.table(), session.seat()),
            (Some("t2"), Some(Seat::East))
        );

        // Moved again, and the held seat is gone when the join arrives: quick play again.
        out.clear();
        session.handle(
            &ServerMessage::QuickPlayMoved {
                from: "t2".into(),
                table: "t3".into(),
                seat: WireSeat(Seat::South),
            },
            &mut out,
        );
        let [ClientMessage::Join { id: join, .. }] = out.as_slice() else {
            panic!("{out:?}")
        };
        let gone = ServerMessage::error(Some(*join), ErrorCode::UnknownTable, "gone", None);
        let mut again = Vec::new();
        session.handle(&gone, &mut again);
        assert!(
            matches!(again.as_slice(), [ClientMessage::QuickPlay { .. }]),
            "{again:?}"
        );
        assert_eq!(session.stage(), Stage::Seating);
    }
}
