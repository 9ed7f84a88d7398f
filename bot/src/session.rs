//! The client protocol as a state machine without IO: feed it server messages, send what it
//! returns. It says hello (resuming when it has a token), takes a seat, readies, keeps the seat's
//! knowledge from the events, detects sequence gaps and resyncs, and asks its [`SeatBot`] for an
//! action when the seat is on turn and the previous action's effects have arrived.
//!
//! The async [`crate::client`] drives it over one WebSocket; the load tester drives thousands.

use burraco_protocol::ErrorCode;
use burraco_protocol::convert::event_from_wire;
use burraco_protocol::wire::{
    ClientMessage, ServerMessage, WireSeat, WireSettings, protocol_version,
};
use burraco_rules::{Action, Config, Event, Players, Seat};

use crate::seat::{SeatBot, knowledge_from_snapshot};
use crate::strategy::Strategy;

/// How the bot finds a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatRequest {
    /// The first open public table of a preset, or a new one.
    QuickPlay { preset: String, players: u8 },
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
    pub resyncs: u64,
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
    sync_id: Option<u64>,
    pending: Option<Pending>,
    refused: Vec<Action>,
    consecutive_errors: u32,
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
            sync_id: None,
            pending: None,
            refused: Vec::new(),
            consecutive_errors: 0,
            last_error: None,
            stats: SessionStats::default(),
        }
    }

    pub fn stage(&self) -> Stage {
        self.stage
    }

    pub fn is_finished(&self) -> bool {
        matches!(self.stage, Stage::Done | Stage::Failed)
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
        ClientMessage::Hello {
            version: protocol_version(),
            name: self.name.clone(),
            resume: self.token.clone(),
        }
    }

    fn seat_request(&mut self) -> ClientMessage {
        let id = self.id();
        self.seat_request_id = Some(id);
        self.stage = Stage::Seating;
        match &self.request {
            SeatRequest::QuickPlay { preset, players } => ClientMessage::QuickPlay {
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
                self.table = Some(table.clone());
                self.seat = Some(seat.0);
                self.stage = Stage::Seated;
                self.last_seq = 0;
                let id = self.id();
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
                if let Some((config, knowledge)) = knowledge_from_snapshot(view, seat) {
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
            }
            M::Ok { id } => {
                if self.sync_id == Some(*id) {
                    self.sync_id = None;
                }
                if let Some(p) = &mut self.pending
                    && p.id == *id
                {
                    p.replied = true;
                    self.consecutive_errors = 0;
                    if p.effect_seen {
                        self.pending = None;
                    }
                }
            }
            M::Error {
                id, code, message, ..
            } => {
                self.stats.errors += 1;
                // The text as sent: a newer server's code is kept, and read as a plain refusal.
                self.last_error = Some(format!("{code}: {message}"));
                let code = ErrorCode::parse(code);
                if id.is_some() && *id == self.seat_request_id {
                    self.seat_request_id = None;
                    match (&self.request, code) {
                        // Lost a race for the last seat: ask again.
                        (
                            SeatRequest::QuickPlay { .. },
                            Some(
                                ErrorCode::TableFull
                                | ErrorCode::TableStarted
                                | ErrorCode::SeatTaken,
                            ),
                        ) => {
                            out.push(self.seat_request());
                        }
                        _ => self.stage = Stage::Failed,
                    }
                    return;
                }
                if id.is_some() && *id == self.sync_id {
                    self.sync_id = None;
                }
                if let Some(p) = self.pending.take_if(|p| Some(p.id) == *id) {
                    if code == Some(ErrorCode::IllegalAction) {
                        self.stats.illegal += 1;
                    }
                    self.refused.push(p.action);
                    self.consecutive_errors += 1;
                    if self.consecutive_errors >= 3 {
                        self.consecutive_errors = 0;
                        self.refused.clear();
                        self.sync(out);
                    }
                }
            }
            M::Goodbye { .. } => {}
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
            if matches!(event, Event::HandEnded { .. }) {
                self.stats.hands += 1;
            }
            return;
        }
        if let M::MatchEnded { .. } = message {
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

    /// The next action to send, when the seat is on turn and nothing is in flight.
    pub fn poll_action(&mut self) -> Option<ClientMessage> {
        if self.pending.is_some() || self.sync_id.is_some() || self.stage != Stage::Seated {
            return None;
        }
        let table = self.table.clone()?;
        let action = self.bot.as_mut()?.decide(&self.refused)?;
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

    /// The request id and kind of the action in flight, if any.
    pub fn pending_action(&self) -> Option<(u64, &'static str)> {
        self.pending.as_ref().map(|p| (p.id, p.action.code()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::RandomLegal;

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
}
