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
//! for it) or its driver calls [`Session::retry`] after a while: a bot never spins. A connected
//! client's driver starts over from a snapshot at once instead ([`Session::unstick`], a few times
//! a turn), so its clock does not run out while it waits.
//!
//! A request refused `rate_limited` was not judged: it is asked again as it was (the move too,
//! which is no refused move), and the driver's pace (`crate::pace`) holds it until the server
//! takes requests again. Counted as refusals, such answers climbed the ladder to its pause in a
//! few milliseconds and ran connected bots' move clocks out (issue 32).
//!
//! - `refusals.rs`: every `error` reply (the ladder, seat races, `rate_limited`).
//! - `decide.rs`: a move decided here, or on another thread ([`Thinking`], [`Thought`]).

use burraco_protocol::convert::event_from_wire;
use burraco_protocol::wire::{
    ClientMessage, ServerMessage, WireSeat, WireSettings, protocol_version,
};
use burraco_rules::{Action, Config, Event, Players, Seat};

use crate::seat::{SeatBot, knowledge_from_snapshot};
use crate::strategy::Strategy;

mod decide;
mod refusals;

pub use decide::{Thinking, Thought};

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
    /// Actions refused, whatever the code (`rate_limited` is no refusal: below).
    pub refused: u64,
    /// Requests answered `rate_limited`, each asked again.
    pub rate_limited: u64,
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
    /// [`Session::unstick`]'s retries since the last accepted action or the start of the turn.
    retries_at_once: u32,
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
            retries_at_once: 0,
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
                    self.retries_at_once = 0;
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
            } => self.on_error(*id, text, message, out),
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
                    self.retries_at_once = 0;
                    self.turn_seen = false;
                }
                Event::TurnStarted { .. } => {
                    self.refusals = 0;
                    self.retries_at_once = 0;
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
}

#[cfg(test)]
mod tests;
