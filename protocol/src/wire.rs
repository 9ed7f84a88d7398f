//! Every message of protocol version 1.x, client to server and server to client.
//!
//! On the wire a message is a JSON object tagged by `type` (text frames) or the same message in
//! postcard (binary frames); see [`crate::codec`]. Every variant is a struct of named fields, so the
//! JSON form is flat: `{"type":"discard","id":7,"table":"t1","card":"7H"}`.
//!
//! Version rule (docs/PROTOCOL.md): within a major version, messages are only ever added at the end
//! of these enums, and existing messages never gain, lose or reorder fields. A server never sends a
//! client a message newer than the minor version the client said hello with.

use burraco_rules::{Card, Seat};
use serde::{Deserialize, Serialize};

use crate::cards::{card, card_list, opt_card, seat};
use crate::error::ErrorCode;

/// The protocol version this crate speaks.
pub const PROTOCOL_MAJOR: u16 = 1;
pub const PROTOCOL_MINOR: u16 = 9;

/// `"1.0"`.
pub fn protocol_version() -> String {
    format!("{PROTOCOL_MAJOR}.{PROTOCOL_MINOR}")
}

/// Parses `"major.minor"`.
pub fn parse_version(text: &str) -> Option<(u16, u16)> {
    let (major, minor) = text.split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// A seat as written on the wire, `"N" "E" "S" "W"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct WireSeat(#[serde(with = "seat")] pub Seat);

/// What a client sends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientMessage {
    /// The first message of every connection. `resume` is the session token of an earlier
    /// connection: the player gets its seats back.
    Hello {
        version: String,
        name: String,
        resume: Option<String>,
    },
    ListTables {
        id: u64,
    },
    CreateTable {
        id: u64,
        settings: WireSettings,
        private: bool,
        bots: Option<BotLevel>,
    },
    /// Sit at a table by its id (public tables) or by invite code; `seat` picks a free seat.
    Join {
        id: u64,
        table: Option<String>,
        invite: Option<String>,
        seat: Option<WireSeat>,
    },
    /// Sit at the first open public table that matches, or open one.
    QuickPlay {
        id: u64,
        preset: Option<String>,
        players: Option<u8>,
    },
    Leave {
        id: u64,
        table: String,
    },
    /// The ready check: the first hand is dealt when every seat is taken and ready.
    Ready {
        id: u64,
        table: String,
    },
    Spectate {
        id: u64,
        table: String,
    },
    Draw {
        id: u64,
        table: String,
    },
    PickUp {
        id: u64,
        table: String,
    },
    Open {
        id: u64,
        table: String,
        #[serde(with = "card_list")]
        cards: Vec<Card>,
        wild_at: Option<u8>,
    },
    Attach {
        id: u64,
        table: String,
        meld: u8,
        #[serde(with = "card_list")]
        cards: Vec<Card>,
        wild_at: Option<u8>,
    },
    Discard {
        id: u64,
        table: String,
        #[serde(with = "card")]
        card: Card,
    },
    /// Resume a table's event stream after `last_seq`: the server replays what followed, or sends
    /// a snapshot when that is no longer in its buffer.
    Sync {
        id: u64,
        table: String,
        last_seq: u64,
    },
    /// Table chat. Free text is closed while a hand is in play (ethics, art. 21); `phrase` codes
    /// (greetings and fixed phrases) stay open.
    Chat {
        id: u64,
        table: String,
        text: Option<String>,
        phrase: Option<String>,
    },
    Ping {
        id: u64,
    },
    /// A seated player of a waiting table fills every free seat with a server bot of `level`
    /// (`None`: the table's bot level, else expert); the match starts if everyone is then ready.
    AddBots {
        id: u64,
        table: String,
        level: Option<BotLevel>,
    },
    /// 1.1: opens a tournament; the reply `tournament_created` carries the director token, sent to
    /// the creator only. The settings are boxed (the largest request by far, and every request
    /// is moved around by value); serde encodes a `Box<T>` exactly as `T`.
    CreateTournament {
        id: u64,
        settings: Box<WireTournamentSettings>,
    },
    /// 1.1: registers a new entrant (its first player), or, with `partner_code`, joins the entrant
    /// that code names as its partner (pairs). `bot` labels a bot's registration.
    RegisterTournament {
        id: u64,
        tournament: String,
        partner_code: Option<String>,
        bot: Option<bool>,
    },
    /// 1.1: leaves the entry list before the first round (the whole entrant).
    UnregisterTournament {
        id: u64,
        tournament: String,
    },
    /// 1.1, director: starts the next round (the first one, or the next after a finished one).
    StartRound {
        id: u64,
        tournament: String,
        director: String,
    },
    /// 1.1, director: adds `vp` (negative: takes off) to an entrant's standing, with a reason.
    AdjustScore {
        id: u64,
        tournament: String,
        director: String,
        entrant: u32,
        vp: i32,
        reason: String,
    },
    /// 1.1, director: withdraws an entrant from the rounds still to be paired.
    WithdrawEntrant {
        id: u64,
        tournament: String,
        director: String,
        entrant: u32,
        reason: String,
    },
    /// 1.1, director: ends the tournament after the round in play (now, if none is).
    EndTournament {
        id: u64,
        tournament: String,
        director: String,
    },
    /// 1.2, director: how the entry list works, before the first round. The reply is
    /// `registration_configured` (with the invitation code of an invite-only list).
    ConfigureRegistration {
        id: u64,
        tournament: String,
        director: String,
        registration: WireRegistration,
    },
    /// 1.2: `register_tournament` for an invite-only list, with its invitation code.
    RegisterInvited {
        id: u64,
        tournament: String,
        invite: String,
        partner_code: Option<String>,
        bot: Option<bool>,
    },
    /// 1.2: a player of a registered entrant says it is present (lists with check-in).
    CheckInTournament {
        id: u64,
        tournament: String,
    },
    /// 1.2, director: holds the tournament: no round starts and no late-arrival clock runs until
    /// `resume_tournament`; tables in play go on.
    PauseTournament {
        id: u64,
        tournament: String,
        director: String,
    },
    /// 1.2, director: lifts the pause.
    ResumeTournament {
        id: u64,
        tournament: String,
        director: String,
    },
    /// 1.2, director: a formal warning to an entrant; warnings cost VP by the preset's code.
    WarnEntrant {
        id: u64,
        tournament: String,
        director: String,
        entrant: u32,
        reason: String,
    },
    /// 1.2, director: expels an entrant: its match in play is lost, every opponent it met gets
    /// at least 12 VP from that match, it is paired no more and ranks last.
    DisqualifyEntrant {
        id: u64,
        tournament: String,
        director: String,
        entrant: u32,
        reason: String,
    },
    /// 1.2, director: these two entrants do not meet in a round paired by standing (Danish,
    /// modified Danish) while another pairing is possible.
    ForbidPairing {
        id: u64,
        tournament: String,
        director: String,
        entrants: Vec<u32>,
    },
    /// 1.2, director: the first round's seating order (complete entrants, each once), for a
    /// tournament whose `seating` is `"director"`.
    SeatEntrants {
        id: u64,
        tournament: String,
        director: String,
        order: Vec<u32>,
    },
    /// 1.2, director: the round time of the rounds started from now on, in seconds (FEDIBUR's
    /// "the director's round time"; with `fitab` and `feburit` it replaces the code's clock);
    /// `None` goes back to the preset's.
    SetRoundTime {
        id: u64,
        tournament: String,
        director: String,
        round_secs: Option<u32>,
    },
    /// 1.3, director: an entrant leaves the event for force majeure (FITAB art. 36): as
    /// `withdraw_entrant`, but a match it has in play gives it the code's force-majeure score
    /// (`fitab`: 6 VP, 8 in 4-hand matches) instead of 0.
    ExcuseEntrant {
        id: u64,
        tournament: String,
        director: String,
        entrant: u32,
        reason: String,
    },
    /// 1.3, a player of a teams entrant: the team's two pairs from the next round on (pairs may
    /// change between matches, RULES.md section 11). `order` is the team's four players by
    /// their index in the team (0-3, registration order), the first two the first pair.
    SetLineup {
        id: u64,
        tournament: String,
        order: Vec<u8>,
    },
    /// 1.3: hear every `tournament_update` of a tournament without being an entrant (while
    /// connected).
    WatchTournament {
        id: u64,
        tournament: String,
    },
    /// 1.4: a hello that signs in with a personal token (`brc_...`, docs/ACCOUNTS.md): the
    /// connection plays as the token's account (a player or a bot account), within the
    /// token's scopes. `name` is ignored for an account (it plays under the account's name).
    /// Sent instead of `hello`, as the first frame.
    HelloToken {
        version: String,
        name: String,
        resume: Option<String>,
        token: String,
    },
    /// 1.5: `create_table` for a rated table (answered `table_created`): only a signed-in
    /// account may ask (a guest is refused `account_required`), the table seats only accounts
    /// (no server bots), and its finished match updates its players' ratings.
    CreateRatedTable {
        id: u64,
        settings: WireSettings,
        private: bool,
    },
    /// 1.5: `quick_play` among rated tables (answered `seated`): only a signed-in account.
    QuickPlayRated {
        id: u64,
        preset: Option<String>,
        players: Option<u8>,
    },
    /// 1.5: the lobby's list with what 1.5 adds to each table (rated or not, the seats'
    /// levels); answered `lobby`.
    ListLobby {
        id: u64,
    },
    /// 1.5: a table's rated flag and its seats' levels (answered `table_levels`): for a player
    /// or spectator at the table (private ones too), after its snapshot and each `player_joined`.
    TableLevels {
        id: u64,
        table: String,
    },
    /// 1.6: `create_tournament` for a rated tournament (answered `tournament_created`): only a
    /// signed-in account may ask (a guest is refused `account_required`); its tables are rated
    /// tables (only accounts sit, no server bots fill a Sit&Go) and their finished matches update
    /// the players' ratings as any rated match does.
    CreateRatedTournament {
        id: u64,
        settings: Box<WireTournamentSettings>,
    },
    /// 1.6: who holds each seat of a table (answered `seat_identities`): a guest, a player
    /// account, a bot account or a server bot, for any table by id (private ones too).
    SeatIdentities {
        id: u64,
        table: String,
    },
    /// 1.7: a line to a tournament's chat (answered `ok`, after the line's
    /// `tournament_chat_message` to everyone who hears the tournament). From an entrant's player
    /// (`director` null), or from the director (`director`: the token, or empty from the
    /// creating account's connections), labelled so. `text` follows the chat's text rule.
    TournamentChat {
        id: u64,
        tournament: String,
        director: Option<String>,
        text: String,
    },
    /// 1.7: the tournament chat's recent lines (answered `tournament_chat_lines`), for a page
    /// opened or reloaded.
    TournamentChatHistory {
        id: u64,
        tournament: String,
    },
    /// 1.7: report a player at a table (`seat`) or one of its chat lines (`seq`, the
    /// `chat_message`'s number) to the moderators, with a `reason` (`cheating`, `abuse`,
    /// `spam`, `stalling`, `multi_account`, `other`) and an optional `note` (at most 500
    /// characters); answered `report_filed`. The table keeps it with its context (the hand,
    /// the seats, the chat lines around it). Only a signed-in account seated at or watching
    /// the table may report.
    Report {
        id: u64,
        table: String,
        seat: Option<WireSeat>,
        seq: Option<u64>,
        reason: String,
        note: Option<String>,
    },
    /// 1.7: a bot account says it is ready for arena play (answered `arena_queued`): the
    /// server matches it with another ready bot account, or with a server bot of `level`
    /// (`"L0"` to `"L3"`, or its name; `null`: `"L2"`) when no other bot is ready after a short
    /// wait, into a rated duplicate match (`arena_match`). Refused to a guest or player account
    /// (`bot_account_required`), a token without `play` (`missing_scope`), and once the bot
    /// played the server's daily number of arena matches (`arena_daily_cap`).
    ArenaReady {
        id: u64,
        level: Option<String>,
    },
    /// 1.7: a bot account challenges `opponent` to an arena match at once (answered
    /// `arena_queued`, then `arena_match`): a server bot's level (`"L0"` to `"L3"`, or its
    /// name) or a bot account (its id `u-...` or username) that is ready for arena play.
    /// Refused as `arena_ready` is, and `opponent_unavailable` for an opponent neither a level
    /// nor a ready bot account (nor oneself).
    ArenaChallenge {
        id: u64,
        opponent: String,
    },
    /// 1.8: report one of a tournament's chat lines (`line`, the `tournament_chat_message`'s
    /// number) to the moderators, with a `reason` and an optional `note` as `report`; answered
    /// `report_filed`. The tournament keeps it with its context (the line, the five lines each
    /// side of it, the round). Only a signed-in account may report, and not its own line.
    TournamentReport {
        id: u64,
        tournament: String,
        line: u64,
        reason: String,
        note: Option<String>,
    },
}

impl ClientMessage {
    /// The request id, `None` for `hello`.
    pub fn id(&self) -> Option<u64> {
        use ClientMessage::*;
        match self {
            Hello { .. } => None,
            ListTables { id }
            | CreateTable { id, .. }
            | Join { id, .. }
            | QuickPlay { id, .. }
            | Leave { id, .. }
            | Ready { id, .. }
            | Spectate { id, .. }
            | Draw { id, .. }
            | PickUp { id, .. }
            | Open { id, .. }
            | Attach { id, .. }
            | Discard { id, .. }
            | Sync { id, .. }
            | Chat { id, .. }
            | Ping { id }
            | AddBots { id, .. }
            | CreateTournament { id, .. }
            | RegisterTournament { id, .. }
            | UnregisterTournament { id, .. }
            | StartRound { id, .. }
            | AdjustScore { id, .. }
            | WithdrawEntrant { id, .. }
            | EndTournament { id, .. }
            | ConfigureRegistration { id, .. }
            | RegisterInvited { id, .. }
            | CheckInTournament { id, .. }
            | PauseTournament { id, .. }
            | ResumeTournament { id, .. }
            | WarnEntrant { id, .. }
            | DisqualifyEntrant { id, .. }
            | ForbidPairing { id, .. }
            | SeatEntrants { id, .. }
            | SetRoundTime { id, .. }
            | ExcuseEntrant { id, .. }
            | SetLineup { id, .. }
            | WatchTournament { id, .. }
            | CreateRatedTable { id, .. }
            | QuickPlayRated { id, .. }
            | ListLobby { id }
            | TableLevels { id, .. }
            | CreateRatedTournament { id, .. } => Some(*id),
            SeatIdentities { id, .. } | Report { id, .. } => Some(*id),
            TournamentChat { id, .. } | TournamentChatHistory { id, .. } => Some(*id),
            ArenaReady { id, .. } | ArenaChallenge { id, .. } => Some(*id),
            TournamentReport { id, .. } => Some(*id),
            HelloToken { .. } => None,
        }
    }

    /// The `type` tag as written in JSON.
    pub fn kind(&self) -> &'static str {
        use ClientMessage::*;
        match self {
            Hello { .. } => "hello",
            ListTables { .. } => "list_tables",
            CreateTable { .. } => "create_table",
            Join { .. } => "join",
            QuickPlay { .. } => "quick_play",
            Leave { .. } => "leave",
            Ready { .. } => "ready",
            Spectate { .. } => "spectate",
            Draw { .. } => "draw",
            PickUp { .. } => "pick_up",
            Open { .. } => "open",
            Attach { .. } => "attach",
            Discard { .. } => "discard",
            Sync { .. } => "sync",
            Chat { .. } => "chat",
            Ping { .. } => "ping",
            AddBots { .. } => "add_bots",
            CreateTournament { .. } => "create_tournament",
            RegisterTournament { .. } => "register_tournament",
            UnregisterTournament { .. } => "unregister_tournament",
            StartRound { .. } => "start_round",
            AdjustScore { .. } => "adjust_score",
            WithdrawEntrant { .. } => "withdraw_entrant",
            EndTournament { .. } => "end_tournament",
            ConfigureRegistration { .. } => "configure_registration",
            RegisterInvited { .. } => "register_invited",
            CheckInTournament { .. } => "check_in_tournament",
            PauseTournament { .. } => "pause_tournament",
            ResumeTournament { .. } => "resume_tournament",
            WarnEntrant { .. } => "warn_entrant",
            DisqualifyEntrant { .. } => "disqualify_entrant",
            ForbidPairing { .. } => "forbid_pairing",
            SeatEntrants { .. } => "seat_entrants",
            SetRoundTime { .. } => "set_round_time",
            ExcuseEntrant { .. } => "excuse_entrant",
            SetLineup { .. } => "set_lineup",
            WatchTournament { .. } => "watch_tournament",
            HelloToken { .. } => "hello_token",
            CreateRatedTable { .. } => "create_rated_table",
            QuickPlayRated { .. } => "quick_play_rated",
            ListLobby { .. } => "list_lobby",
            TableLevels { .. } => "table_levels",
            CreateRatedTournament { .. } => "create_rated_tournament",
            SeatIdentities { .. } => "seat_identities",
            TournamentChat { .. } => "tournament_chat",
            TournamentChatHistory { .. } => "tournament_chat_history",
            Report { .. } => "report",
            ArenaReady { .. } => "arena_ready",
            ArenaChallenge { .. } => "arena_challenge",
            TournamentReport { .. } => "tournament_report",
        }
    }

    /// The minor version that added this request: a connection whose hello said less is
    /// refused it (`needs_minor`).
    pub fn minor(&self) -> u16 {
        use ClientMessage::*;
        match self {
            CreateTournament { .. }
            | RegisterTournament { .. }
            | UnregisterTournament { .. }
            | StartRound { .. }
            | AdjustScore { .. }
            | WithdrawEntrant { .. }
            | EndTournament { .. } => 1,
            ConfigureRegistration { .. }
            | RegisterInvited { .. }
            | CheckInTournament { .. }
            | PauseTournament { .. }
            | ResumeTournament { .. }
            | WarnEntrant { .. }
            | DisqualifyEntrant { .. }
            | ForbidPairing { .. }
            | SeatEntrants { .. }
            | SetRoundTime { .. } => 2,
            ExcuseEntrant { .. } | SetLineup { .. } | WatchTournament { .. } => 3,
            HelloToken { .. } => 4,
            CreateRatedTable { .. }
            | QuickPlayRated { .. }
            | ListLobby { .. }
            | TableLevels { .. } => 5,
            CreateRatedTournament { .. } => 6,
            SeatIdentities { .. } => 6,
            TournamentChat { .. } | TournamentChatHistory { .. } => 7,
            Report { .. } => 7,
            ArenaReady { .. } | ArenaChallenge { .. } => 7,
            TournamentReport { .. } => 8,
            // A level newer than the request: asking for it is a 1.8 request.
            CreateTable {
                bots: Some(BotLevel::Deep),
                ..
            }
            | AddBots {
                level: Some(BotLevel::Deep),
                ..
            } => 8,
            _ => 0,
        }
    }
}

/// Bot strength for seats a table creator leaves empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotLevel {
    /// L0: random legal moves.
    Random,
    /// L1: greedy.
    Greedy,
    /// L2: expert rules.
    Expert,
    /// L3: determinized Monte Carlo search.
    Search,
    /// 1.8: L4, a deeper determinized search spending the server's time budget per move.
    Deep,
}

/// A table's settings: a preset and optional overrides (RULES.md section 1). `null` = the preset's.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WireSettings {
    /// `"fitab"`, `"feburit"` or `"fedibur"`.
    pub preset: String,
    /// 4 or 2.
    pub players: Option<u8>,
    /// A match of this many hands (1-8)...
    pub hands: Option<u8>,
    /// ...or to this many points.
    pub target: Option<u32>,
    /// `"federation"`, `"relaxed"` or `"off"`.
    pub clocks: Option<String>,
    pub semipulito: Option<bool>,
    pub close_requires_pulito: Option<bool>,
}

/// What the server sends: replies (carrying the request `id`) and table events (carrying the
/// table and its sequence number).
// A snapshot's view is boxed: it is several times larger than every other message, and servers
// keep recent messages (replay buffers), so inline it would make each of them that large. Serde
// encodes a `Box<T>` exactly as `T`: the wire is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ServerMessage {
    /// Answer to `hello`. `session` is the resume token to keep.
    Welcome {
        version: String,
        session: String,
        player: String,
        name: String,
        resumed: bool,
        seats: Vec<SeatRef>,
    },
    /// A request succeeded and has nothing else to say.
    Ok {
        id: u64,
    },
    /// A request failed (`id` is `null` when the frame could not be read far enough to find one).
    /// `code` is stable (docs/PROTOCOL.md lists them); for an illegal move `code` is
    /// `"illegal_action"` and `rule` names the rule that refused it.
    ///
    /// `code` is an [`ErrorCode`]'s text: a `String` so a client keeps a code from a newer
    /// server; build it with [`ServerMessage::error`], read it with [`ErrorCode::parse`].
    Error {
        id: Option<u64>,
        code: String,
        message: String,
        rule: Option<String>,
    },
    /// Answer to `list_tables`.
    Tables {
        id: u64,
        tables: Vec<TableSummary>,
    },
    /// Answer to `create_table`; the creator is seated.
    TableCreated {
        id: u64,
        table: String,
        invite: Option<String>,
        seat: WireSeat,
    },
    /// Answer to `join` and `quick_play`.
    Seated {
        id: u64,
        table: String,
        seat: WireSeat,
    },
    Pong {
        id: u64,
    },
    /// The full state of a table as the receiver may see it, as of `seq`.
    Snapshot {
        table: String,
        seq: u64,
        view: Box<TableSnapshot>,
    },
    /// An event this receiver may not see: only its number.
    Tick {
        table: String,
        seq: u64,
    },
    PlayerJoined {
        table: String,
        seq: u64,
        seat: WireSeat,
        name: String,
        bot: bool,
    },
    PlayerLeft {
        table: String,
        seq: u64,
        seat: WireSeat,
    },
    PlayerReady {
        table: String,
        seq: u64,
        seat: WireSeat,
    },
    /// The player's connection dropped; the seat is kept for `grace_ms` while its clock runs.
    PlayerDisconnected {
        table: String,
        seq: u64,
        seat: WireSeat,
        grace_ms: u64,
    },
    PlayerReconnected {
        table: String,
        seq: u64,
        seat: WireSeat,
    },
    /// A bot plays the seat until its player returns.
    PlayerReplacedByBot {
        table: String,
        seq: u64,
        seat: WireSeat,
    },
    MatchStarted {
        table: String,
        seq: u64,
        first_dealer: WireSeat,
        round_clock_ms: Option<u64>,
    },
    /// A hand is dealt. `commitment` is SHA-256 of the seed, revealed in `hand_ended`.
    HandStarted {
        table: String,
        seq: u64,
        hand: u32,
        dealer: WireSeat,
        first: WireSeat,
        #[serde(with = "card")]
        up_card: Card,
        commitment: Option<String>,
    },
    /// Private to `seat`: its eleven cards.
    Dealt {
        table: String,
        seq: u64,
        seat: WireSeat,
        #[serde(with = "card_list")]
        cards: Vec<Card>,
    },
    /// `clock_ms` and `grace_ms`: the per-move clock of this turn (`null` when off).
    TurnStarted {
        table: String,
        seq: u64,
        seat: WireSeat,
        cards_held: u8,
        clock_ms: Option<u32>,
        grace_ms: Option<u32>,
    },
    /// The player on turn used up the move clock; `grace_ms` remain before the server plays.
    GraceStarted {
        table: String,
        seq: u64,
        seat: WireSeat,
        grace_ms: u32,
    },
    Drew {
        table: String,
        seq: u64,
        seat: WireSeat,
    },
    /// Private to `seat`: the card drawn.
    DrewCard {
        table: String,
        seq: u64,
        seat: WireSeat,
        #[serde(with = "card")]
        card: Card,
    },
    PickedUp {
        table: String,
        seq: u64,
        seat: WireSeat,
        #[serde(with = "card_list")]
        cards: Vec<Card>,
    },
    /// A new meld; `cards` are the cards that left the hand, `meld` the meld as laid.
    Opened {
        table: String,
        seq: u64,
        seat: WireSeat,
        #[serde(with = "card_list")]
        cards: Vec<Card>,
        meld: WireMeld,
    },
    Attached {
        table: String,
        seq: u64,
        seat: WireSeat,
        #[serde(with = "card_list")]
        cards: Vec<Card>,
        meld: WireMeld,
    },
    /// `pozzetto` is `"A"` or `"B"`.
    PozzettoTaken {
        table: String,
        seq: u64,
        seat: WireSeat,
        pozzetto: String,
        in_diretta: bool,
    },
    /// Private to `seat`: the pozzetto's cards, when its owner may see them.
    PozzettoCards {
        table: String,
        seq: u64,
        seat: WireSeat,
        #[serde(with = "card_list")]
        cards: Vec<Card>,
    },
    Discarded {
        table: String,
        seq: u64,
        seat: WireSeat,
        #[serde(with = "card")]
        card: Card,
    },
    /// The server completed the turn for `seat` (the events that follow are its draw and discard).
    ClockExpired {
        table: String,
        seq: u64,
        seat: WireSeat,
    },
    /// The round clock ran out: `turns_left` turns remain in this hand (0: the hand is void).
    TimeOut {
        table: String,
        seq: u64,
        turns_left: u8,
    },
    StalloWarning {
        table: String,
        seq: u64,
        exchanges: u8,
    },
    /// A stallo: under `fedibur`, `must_draw` may not pick up at its next turn; otherwise a further
    /// card exchange ends the hand.
    Stallo {
        table: String,
        seq: u64,
        must_draw: Option<WireSeat>,
    },
    /// The hand is over: the score, every hand, and the revealed seed (`null` while a duplicate
    /// board is still in play elsewhere, or for an explicit deck).
    HandEnded {
        table: String,
        seq: u64,
        hand: u32,
        end: String,
        closed_by: Option<WireSeat>,
        score: Vec<SideScoreWire>,
        hands: Vec<SeatCards>,
        seed: Option<String>,
    },
    /// The hand record of docs/HAND_RECORD.md, as JSON text.
    HandRecord {
        table: String,
        seq: u64,
        hand: u32,
        record: String,
    },
    /// `totals` and `vp` by side, in the order of `sides`; `winner` the side that won by the VP
    /// (a 10-10 is a draw, `null`, whatever the totals).
    MatchEnded {
        table: String,
        seq: u64,
        sides: Vec<String>,
        totals: Vec<i32>,
        winner: Option<String>,
        vp: Option<Vec<u8>>,
    },
    ChatMessage {
        table: String,
        seq: u64,
        seat: Option<WireSeat>,
        name: String,
        text: String,
    },
    /// The server is going away (shutdown): reconnect later with the session token.
    Goodbye {
        reason: String,
    },
    /// 1.1: answer to `create_tournament`. `director_token` authorises the director's requests;
    /// it is sent to the creator only, once.
    TournamentCreated {
        id: u64,
        tournament: String,
        director_token: String,
    },
    /// 1.1: answer to `register_tournament`. A pair's first player gets the `partner_code` the
    /// partner registers with.
    TournamentRegistered {
        id: u64,
        tournament: String,
        entrant: u32,
        partner_code: Option<String>,
    },
    /// 1.1: the tournament changed (an entrant, a round started or finished, an adjustment, the
    /// end): `status` is `registering`, `playing` or `finished`; `round` the last round started
    /// (0 before the first) of `rounds`; the standings after the last finished round; this
    /// player's table and seat in the round in play, if any.
    TournamentUpdate {
        tournament: String,
        status: String,
        round: u32,
        rounds: u32,
        standings: Vec<WireStanding>,
        table: Option<String>,
        seat: Option<WireSeat>,
    },
    /// 1.1: a round started: the player's seat is held at `table`; `join` it (with `table` and
    /// `seat`), then `ready`.
    GoToTable {
        tournament: String,
        round: u32,
        table: String,
        seat: WireSeat,
    },
    /// 1.2: answer to `configure_registration`: the invitation code of an invite-only list.
    RegistrationConfigured {
        id: u64,
        tournament: String,
        invite: Option<String>,
    },
    /// 1.2: sent after every `tournament_update`: what a 1.2 client also shows. `paused` by the
    /// director; `registration_open` (false once the first round started); `checked_in`, with
    /// check-in, whether this player's entrant has; `round_ends_ms`, the round in play's clock
    /// (Unix ms) when its tables have one; `warnings`, this player's entrant's warnings.
    TournamentStatus {
        tournament: String,
        paused: bool,
        registration_open: bool,
        checked_in: Option<bool>,
        round_ends_ms: Option<i64>,
        warnings: u32,
    },
    /// 1.4: who this connection is, sent right after the `welcome` to a connection whose hello
    /// said 1.4 or later (the welcome's own fields never change). `kind` is `"guest"`,
    /// `"player"` (a player account) or `"bot"` (a bot account); `account` the account's id
    /// (`null` for a guest); `name` the name the tables show (the account's name when signed in).
    Identity {
        kind: String,
        account: Option<String>,
        name: String,
    },
    /// 1.5: the account is playbanned until `until_ms` (Unix ms): sent to a 1.5 connection just
    /// before the `playbanned` error that refuses its quick play, join, create or tournament
    /// registration (the error stays the request's one reply).
    Playban {
        until_ms: i64,
    },
    /// 1.5: answer to `list_lobby`: `tables` as the answer to `list_tables` lists them, each
    /// with whether it is rated and its seats' levels.
    Lobby {
        id: u64,
        tables: Vec<LobbyTable>,
    },
    /// 1.5: answer to `table_levels`.
    TableLevels {
        id: u64,
        table: String,
        rated: bool,
        levels: Vec<SeatLevel>,
    },
    /// 1.6: the table's tournament director paused the event (`paused`: true) or resumed it
    /// (false). While paused every clock of the table stands still (the move clock, a new
    /// turn's included, the round clock; the next hand is dealt after the resume); moves are
    /// still taken. `round_clock_left_ms` and `move_clock_left_ms` are what is left on the round clock
    /// and on the turn's move clock (grace included), `null` when that clock does not run. Sent
    /// when the pause starts and ends, and after a snapshot or a `sync`'s catch-up while paused.
    /// Not numbered: it is the table's state, not one of its events.
    TablePaused {
        table: String,
        paused: bool,
        round_clock_left_ms: Option<u64>,
        move_clock_left_ms: Option<u32>,
    },
    /// 1.6: answer to `seat_identities`: each occupied seat's holder, in seat order (free seats
    /// are absent).
    SeatIdentities {
        id: u64,
        table: String,
        seats: Vec<SeatIdentity>,
    },
    /// 1.7: a line of a tournament's chat, to every entrant's player and watcher of the
    /// tournament (and the director's connection that said it).
    TournamentChatMessage {
        tournament: String,
        line: TournamentChatLine,
    },
    /// 1.7: answer to `tournament_chat_history`: the recent lines, oldest first.
    TournamentChatLines {
        id: u64,
        tournament: String,
        lines: Vec<TournamentChatLine>,
    },
    /// 1.7: answer to `report` (and 1.8's `tournament_report`): the report is in the
    /// moderators' queue under `report`.
    ReportFiled {
        id: u64,
        report: String,
    },
    /// 1.7: at a rated table, these seats' accounts are connected from one address (never
    /// said which): the moderators were told. Sent to the table's players and spectators when
    /// found, and after a snapshot while it holds. Not numbered: the table's state, not one of
    /// its events.
    SameAddress {
        table: String,
        seats: Vec<WireSeat>,
    },
    /// 1.7: answer to `arena_ready` and `arena_challenge`: the bot is in the arena's queue
    /// (`waiting`: true) or is being matched at once (a challenge, false); `matches_today` of
    /// `daily_cap` arena matches counted in the last 24 hours, this one included once made.
    ArenaQueued {
        id: u64,
        waiting: bool,
        matches_today: u32,
        daily_cap: u32,
    },
    /// 1.7: an arena match was made for the bot: the same deals at two tables, the seats
    /// swapped (`tables`, in the order to play them: `join` each by its id, the seat already
    /// held). `opponent` is the other bot's name, `opponent_account` its account (`null` for a
    /// server bot, whose level is `server_bot`). Rated in the bots' pool once both tables end.
    ArenaMatch {
        arena: String,
        opponent: String,
        opponent_account: Option<String>,
        server_bot: Option<String>,
        hands: u8,
        tables: Vec<ArenaTable>,
    },
    /// 1.9: quick play brought waiting players together: your seat at `from` (a quick play's
    /// table still waiting) is given up, and one is held for you at `table`, where the others
    /// who asked for that kind of table wait. `join` it (with `table` and `seat`), then `ready`,
    /// as after `seated`. Sent only to connections whose hello said 1.9 or later (older ones are
    /// never moved).
    QuickPlayMoved {
        from: String,
        table: String,
        seat: WireSeat,
    },
}

impl ServerMessage {
    /// An error reply (`rule` only for [`ErrorCode::IllegalAction`]).
    pub fn error(
        id: Option<u64>,
        code: ErrorCode,
        message: impl Into<String>,
        rule: Option<String>,
    ) -> ServerMessage {
        ServerMessage::Error {
            id,
            code: code.as_str().to_owned(),
            message: message.into(),
            rule,
        }
    }

    /// The table event's sequence number, `None` for replies and connection messages.
    pub fn seq(&self) -> Option<u64> {
        event_seq(self)
    }

    /// The `type` tag as written in JSON.
    pub fn kind(&self) -> &'static str {
        use ServerMessage::*;
        match self {
            Welcome { .. } => "welcome",
            Ok { .. } => "ok",
            Error { .. } => "error",
            Tables { .. } => "tables",
            TableCreated { .. } => "table_created",
            Seated { .. } => "seated",
            Pong { .. } => "pong",
            Snapshot { .. } => "snapshot",
            Tick { .. } => "tick",
            PlayerJoined { .. } => "player_joined",
            PlayerLeft { .. } => "player_left",
            PlayerReady { .. } => "player_ready",
            PlayerDisconnected { .. } => "player_disconnected",
            PlayerReconnected { .. } => "player_reconnected",
            PlayerReplacedByBot { .. } => "player_replaced_by_bot",
            MatchStarted { .. } => "match_started",
            HandStarted { .. } => "hand_started",
            Dealt { .. } => "dealt",
            TurnStarted { .. } => "turn_started",
            GraceStarted { .. } => "grace_started",
            Drew { .. } => "drew",
            DrewCard { .. } => "drew_card",
            PickedUp { .. } => "picked_up",
            Opened { .. } => "opened",
            Attached { .. } => "attached",
            PozzettoTaken { .. } => "pozzetto_taken",
            PozzettoCards { .. } => "pozzetto_cards",
            Discarded { .. } => "discarded",
            ClockExpired { .. } => "clock_expired",
            TimeOut { .. } => "time_out",
            StalloWarning { .. } => "stallo_warning",
            Stallo { .. } => "stallo",
            HandEnded { .. } => "hand_ended",
            HandRecord { .. } => "hand_record",
            MatchEnded { .. } => "match_ended",
            ChatMessage { .. } => "chat_message",
            Goodbye { .. } => "goodbye",
            TournamentCreated { .. } => "tournament_created",
            TournamentRegistered { .. } => "tournament_registered",
            TournamentUpdate { .. } => "tournament_update",
            GoToTable { .. } => "go_to_table",
            RegistrationConfigured { .. } => "registration_configured",
            TournamentStatus { .. } => "tournament_status",
            Identity { .. } => "identity",
            Playban { .. } => "playban",
            Lobby { .. } => "lobby",
            TableLevels { .. } => "table_levels",
            TablePaused { .. } => "table_paused",
            SeatIdentities { .. } => "seat_identities",
            TournamentChatMessage { .. } => "tournament_chat_message",
            TournamentChatLines { .. } => "tournament_chat_lines",
            ReportFiled { .. } => "report_filed",
            SameAddress { .. } => "same_address",
            ArenaQueued { .. } => "arena_queued",
            ArenaMatch { .. } => "arena_match",
            QuickPlayMoved { .. } => "quick_play_moved",
        }
    }

    /// The minor version that added this message: never sent to a connection whose hello said
    /// less.
    pub fn minor(&self) -> u16 {
        use ServerMessage::*;
        match self {
            TournamentCreated { .. }
            | TournamentRegistered { .. }
            | TournamentUpdate { .. }
            | GoToTable { .. } => 1,
            RegistrationConfigured { .. } | TournamentStatus { .. } => 2,
            Identity { .. } => 4,
            Playban { .. } => 5,
            Lobby { .. } | TableLevels { .. } => 5,
            TablePaused { .. } => 6,
            SeatIdentities { .. } => 6,
            TournamentChatMessage { .. } | TournamentChatLines { .. } => 7,
            ReportFiled { .. } | SameAddress { .. } => 7,
            ArenaQueued { .. } | ArenaMatch { .. } => 7,
            QuickPlayMoved { .. } => 9,
            _ => 0,
        }
    }
}

fn event_seq(message: &ServerMessage) -> Option<u64> {
    use ServerMessage::*;
    match message {
        Welcome { .. }
        | Ok { .. }
        | Error { .. }
        | Tables { .. }
        | TableCreated { .. }
        | Seated { .. }
        | Pong { .. }
        | Goodbye { .. }
        | TournamentCreated { .. }
        | TournamentRegistered { .. }
        | TournamentUpdate { .. }
        | GoToTable { .. }
        | RegistrationConfigured { .. }
        | TournamentStatus { .. }
        | Identity { .. }
        | Playban { .. }
        | Lobby { .. }
        | TableLevels { .. }
        | TablePaused { .. } => None,
        SeatIdentities { .. } | ReportFiled { .. } | SameAddress { .. } => None,
        TournamentChatMessage { .. } | TournamentChatLines { .. } => None,
        ArenaQueued { .. } | ArenaMatch { .. } => None,
        QuickPlayMoved { .. } => None,
        Snapshot { seq, .. }
        | Tick { seq, .. }
        | PlayerJoined { seq, .. }
        | PlayerLeft { seq, .. }
        | PlayerReady { seq, .. }
        | PlayerDisconnected { seq, .. }
        | PlayerReconnected { seq, .. }
        | PlayerReplacedByBot { seq, .. }
        | MatchStarted { seq, .. }
        | HandStarted { seq, .. }
        | Dealt { seq, .. }
        | TurnStarted { seq, .. }
        | GraceStarted { seq, .. }
        | Drew { seq, .. }
        | DrewCard { seq, .. }
        | PickedUp { seq, .. }
        | Opened { seq, .. }
        | Attached { seq, .. }
        | PozzettoTaken { seq, .. }
        | PozzettoCards { seq, .. }
        | Discarded { seq, .. }
        | ClockExpired { seq, .. }
        | TimeOut { seq, .. }
        | StalloWarning { seq, .. }
        | Stallo { seq, .. }
        | HandEnded { seq, .. }
        | HandRecord { seq, .. }
        | MatchEnded { seq, .. }
        | ChatMessage { seq, .. } => Some(*seq),
    }
}

/// A tournament's settings (1.1).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WireTournamentSettings {
    pub name: String,
    /// `"pairs"` (fixed partners, 4 players a table), `"individual"` (one player an entrant,
    /// partners changing every round), `"singles"` (head to head, 2) or `"teams"` (1.2: four
    /// players an entrant, a match two tables on the same deals).
    pub kind: String,
    /// One movement per round: `"mitchell"`, `"danish"`, `"modified_danish"`, `"round_robin"`,
    /// `"knockout"` (last: a bracket, repeated until one entrant is left).
    pub rounds: Vec<String>,
    /// Hands per match (1-8).
    pub hands: u8,
    /// `"fitab"`, `"feburit"` or `"fedibur"`: the tables' rules and the VP table.
    pub preset: String,
    /// The entry list closes at this many entrants.
    pub max_entrants: Option<u32>,
    /// First-round seating: `"registration"` (the default), `"draw"` (a seeded draw) or
    /// `"director"` (1.2: the order `seat_entrants` gives; registration order until it does).
    pub seating: Option<String>,
    /// Sit&Go: the first round starts as soon as `max_entrants` are registered.
    pub start_when_full: Option<bool>,
    /// The tables' clocks (`"federation"`, `"relaxed"`, `"off"`; the preset's by default).
    pub clocks: Option<String>,
    /// Duplicate boards: every table of a round plays the same deals from the same first dealer;
    /// their commitments are published when the round starts, each seed once every table has
    /// played that deal.
    pub duplicate: Option<bool>,
}

/// How a tournament's entry list works (1.2, `configure_registration`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WireRegistration {
    /// Whether the list takes registrations now.
    pub open: bool,
    /// Registering needs the invitation code (`register_invited`).
    pub invite_only: bool,
    /// The list closes by itself at this time (Unix ms).
    pub closes_ms: Option<i64>,
    /// A scheduled event: the first round starts by itself at this time (Unix ms), if two
    /// complete entrants are there; the list closes then.
    pub starts_ms: Option<i64>,
    /// Entrants must check in (`check_in_tournament`) before the first round; the others are
    /// no-shows, left out of it and of the standings.
    pub check_in: bool,
    /// A Sit&Go (`start_when_full`): this many seconds after the first registration, the places
    /// still free are filled with server bots, labelled as bots.
    pub bots_after_secs: Option<u32>,
}

/// One entrant's line in a tournament's standings (1.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireStanding {
    /// 1 for the leader.
    pub rank: u32,
    pub entrant: u32,
    pub names: Vec<String>,
    pub bot: bool,
    /// Victory points, adjustments and warnings included.
    pub vp: i32,
    pub mp: i32,
    /// Total burraco bonus points: the second tie-break.
    pub burraco: i32,
}

/// A table and seat a session holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRef {
    pub table: String,
    pub seat: WireSeat,
}

/// A line of the lobby.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSummary {
    pub table: String,
    pub preset: String,
    pub players: u8,
    /// Names by seat; `null` for a free seat.
    pub seats: Vec<SeatName>,
    /// `"waiting"`, `"playing"` or `"finished"`.
    pub status: String,
    pub spectators: u32,
}

/// A line of the 1.5 lobby (`lobby`): a [`TableSummary`] and what 1.5 adds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyTable {
    pub table: String,
    pub preset: String,
    pub players: u8,
    /// Names by seat; `null` for a free seat.
    pub seats: Vec<SeatName>,
    /// `"waiting"`, `"playing"` or `"finished"`.
    pub status: String,
    pub spectators: u32,
    /// A rated table: only accounts sit, and the match updates their ratings.
    pub rated: bool,
    /// The level of each seated account whose rating in the table's category is established
    /// (not provisional), e.g. `"advanced"`; seats without one are absent.
    pub levels: Vec<SeatLevel>,
}

/// A seat's level (1.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatLevel {
    pub seat: WireSeat,
    pub level: String,
}

/// A line of a tournament's chat (1.7 `tournament_chat_message`, `tournament_chat_lines`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentChatLine {
    /// The line's number in the tournament's chat, from 1, one more each line: a page that
    /// reads the history and hears lines live keeps each once.
    pub line: u64,
    /// The speaker's name (an entrant's player as registered; the director's connection's).
    pub name: String,
    /// The speaker's entrant; `null` for the director.
    pub entrant: Option<u32>,
    /// Said by the tournament's director.
    pub director: bool,
    /// The text, normalised as a table's chat line is (at most 200 characters).
    pub text: String,
    /// When the server took it (Unix ms).
    pub at_ms: i64,
}

/// One table of an arena match (1.7 `arena_match`): its id and the seat held for the bot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaTable {
    pub table: String,
    pub seat: WireSeat,
}

/// Who holds a seat (1.6 `seat_identities`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatIdentity {
    pub seat: WireSeat,
    /// The seat's holder: `"guest"` (a name typed into a box), `"player"` (a player account),
    /// `"bot"` (a bot account: a program an account's author runs) or `"server_bot"` (the
    /// server's own bot). The same words as the 1.4 `identity`, plus `"server_bot"`.
    pub kind: String,
    /// The name the table shows.
    pub name: String,
    /// The account's id (`u-...`) for `"player"` and `"bot"`; `null` otherwise.
    pub account: Option<String>,
    /// The level (`"L0"` to `"L3"`) of the server bot playing the seat: always for
    /// `"server_bot"`; for another kind, a server bot standing in for its holder, gone past the
    /// grace period; `null` otherwise.
    pub server_bot: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatName {
    pub seat: WireSeat,
    pub name: Option<String>,
    pub bot: bool,
}

/// A meld on the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireMeld {
    pub id: u8,
    /// `"NS"`/`"EW"` (head to head: `"S"`/`"N"`).
    pub side: String,
    /// `"sequence"` or `"combination"`.
    pub kind: String,
    /// A sequence's lowest position (1 = ace low ... 14 = ace high), `null` for a combination.
    pub start: Option<u8>,
    /// The cards, lowest position first for a sequence.
    #[serde(with = "card_list")]
    pub cards: Vec<Card>,
    /// The sequence position of the wild, `null` when none (a natural 2 is not a wild).
    pub wild_at: Option<u8>,
    /// For a combination: the wild card, if any.
    #[serde(with = "opt_card")]
    pub wild: Option<Card>,
}

/// A seat's cards (at the end of a hand, when everything is public).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatCards {
    pub seat: WireSeat,
    #[serde(with = "card_list")]
    pub cards: Vec<Card>,
}

/// One side's score for a hand, item by item (RULES.md section 10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideScoreWire {
    /// `"NS"`/`"EW"` (head to head: `"S"`/`"N"`).
    pub side: String,
    pub melded: i32,
    pub burracos: Vec<BurracoWire>,
    pub closing: i32,
    pub in_hand: i32,
    pub pozzetto: i32,
    pub total: i32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BurracoWire {
    pub meld: u8,
    /// `"reale"`, `"super"`, `"pulito"`, `"semipulito"` or `"sporco"`.
    pub kind: String,
    pub bonus: i32,
}

/// A seat in a snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatState {
    pub seat: WireSeat,
    pub name: Option<String>,
    pub bot: bool,
    pub connected: bool,
    pub ready: bool,
    /// Cards held (`null` before the first deal).
    pub cards: Option<u8>,
}

/// The whole table as the receiver may see it (RULES.md section 12).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSnapshot {
    pub settings: WireSettings,
    /// `"waiting"`, `"playing"`, `"between_hands"` or `"finished"`.
    pub status: String,
    /// The receiver's seat, `null` for a spectator.
    pub you: Option<WireSeat>,
    pub seats: Vec<SeatState>,
    /// Hands completed so far and each side's running total, in the order of `sides`.
    pub hands_played: u32,
    pub sides: Vec<String>,
    pub totals: Vec<i32>,
    /// Milliseconds left on the round clock, `null` when it does not run.
    pub round_clock_left_ms: Option<u64>,
    pub time_out: bool,
    /// The hand in play (or just finished), `null` before the first deal.
    pub hand: Option<HandSnapshot>,
}

/// The hand in play as the receiver may see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandSnapshot {
    pub number: u32,
    pub dealer: WireSeat,
    pub on_turn: WireSeat,
    /// `"take"`, `"play"` or `"over"`.
    pub phase: String,
    /// The receiver's own cards; `null` for a spectator or while its pozzetto is not yet visible.
    #[serde(with = "opt_card_list")]
    pub hand: Option<Vec<Card>>,
    pub melds: Vec<WireMeld>,
    /// The discard pile, bottom first.
    #[serde(with = "card_list")]
    pub pile: Vec<Card>,
    pub tallone: u8,
    /// Who took pozzetto A and B (side labels), `null` while untaken.
    pub pozzetti: Vec<Option<String>>,
    #[serde(with = "opt_card")]
    pub picked_single_card: Option<Card>,
    pub commitment: Option<String>,
    /// Milliseconds left for the player on turn, grace included; `null` without clocks.
    pub move_clock_left_ms: Option<u32>,
    pub last_round: Option<u8>,
    pub stallo_exchanges: u8,
    pub stallo_must_draw: Option<WireSeat>,
}

/// An optional list of card codes.
mod opt_card_list {
    use burraco_rules::Card;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(cards: &Option<Vec<Card>>, s: S) -> Result<S::Ok, S::Error> {
        cards
            .as_ref()
            .map(|cs| cs.iter().map(|c| c.to_string()).collect::<Vec<_>>())
            .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<Card>>, D::Error> {
        let codes = Option::<Vec<String>>::deserialize(d)?;
        codes
            .map(|cs| {
                cs.iter()
                    .map(|c| c.parse().map_err(serde::de::Error::custom))
                    .collect()
            })
            .transpose()
    }
}
