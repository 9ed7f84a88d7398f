//! The stable error codes of `ServerMessage::Error` (docs/PROTOCOL.md section 8).
//!
//! On the wire a code stays its JSON string (`"illegal_action"`), so `ServerMessage::Error::code`
//! is a `String`: a client reading a code from a newer server keeps the text verbatim, and
//! [`ErrorCode::parse`] answers `None` for it instead of failing the whole frame. Inside a program
//! codes are this enum and nothing else; no code is compared as a string.

use std::fmt;
use std::str::FromStr;

/// Every error code a server of protocol 1.x sends.
///
/// Non-exhaustive: a newer minor version may add codes, so a client's `match` needs a fallback arm
/// (and codes it cannot name arrive as `None` from [`ErrorCode::parse`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ErrorCode {
    /// Unknown major version; the connection closes.
    UnsupportedVersion,
    /// The first frame was not a hello; closes.
    HelloRequired,
    /// No hello in time; closes.
    HelloTimeout,
    /// Name empty, too long or with control characters; closes.
    InvalidName,
    /// A second hello on a connection.
    UnexpectedHello,
    /// Not JSON, not an object with a string `type`, or an undecodable binary frame.
    MalformedFrame,
    /// A known shape with a wrong field, an unknown `type`, or a missing field.
    InvalidMessage,
    /// A frame above the size limit.
    FrameTooLarge,
    /// Slow down.
    RateLimited,
    /// Too many refusals; closes.
    Flooding,
    /// No such table (or a private table asked for by id).
    UnknownTable,
    /// No table has that invite code.
    BadInvite,
    /// The settings do not make a table.
    InvalidSettings,
    /// That seat is not in play at this table.
    InvalidSeat,
    /// That seat is taken.
    SeatTaken,
    /// Every seat is taken.
    TableFull,
    /// The match has started (seats closed; ready is over).
    TableStarted,
    /// A game request from someone not seated here.
    NotSeated,
    /// Neither seated nor watching (leave, sync, chat).
    NotAtTable,
    /// A move between hands or before the match.
    NoHandInPlay,
    /// The rules refused the move; the message's `rule` says which.
    IllegalAction,
    /// Free-text chat during a hand.
    ChatClosed,
    /// Not one of the fixed phrases.
    UnknownPhrase,
    /// The table's queue is full; retry.
    TableBusy,
    /// The server is stopping.
    ShuttingDown,
    /// The server could not save something; the request had no effect.
    InternalError,
    /// No tournament has that id.
    UnknownTournament,
    /// The tournament's entry list is closed (started, full, or its partner code is spent).
    RegistrationClosed,
    /// The player is already registered in this tournament.
    AlreadyRegistered,
    /// The player is not registered in this tournament.
    NotRegistered,
    /// The director token does not match the tournament's.
    NotDirector,
    /// A round is in play, or the tournament is over, or too few entrants: the director's request waits.
    RoundInPlay,
    /// A request of a newer minor version than the connection's hello said (a 1.0 client asking for a 1.1 request).
    NeedsMinor,
    /// Watching a duplicate-board table while its round is in play (the same deals are still
    /// being played at other tables).
    DuplicateInPlay,
    /// 1.2: the director paused the tournament: no round starts until it resumes.
    TournamentPaused,
    /// 1.3: a registration's closing or starting time that is already past.
    TimeInPast,
    /// 1.3: the same create request (same settings) from the same player again within a
    /// moment: a double click. The first one was done.
    RepeatedCreate,
    /// 1.3: no entrant of this tournament ever had that partner code.
    UnknownPartnerCode,
    /// 1.3: the partner code's entrant has all its players, or has left the list.
    EntrantComplete,
    /// 1.3: a chat line the text rule refuses (control, format such as bidi, or invisible
    /// characters; empty; too long).
    InvalidText,
    /// 1.4: a guest's hello with a name registered to an account, or one that looks like it
    /// (UTS #39 confusables); closes.
    NameRegistered,
    /// 1.4: the request needs a signed-in account (a player or bot account), not a guest.
    AccountRequired,
    /// 1.4: the connection's personal token lacks the scope this request needs.
    MissingScope,
    /// 1.4: the hello's token is malformed, unknown, revoked or expired; closes.
    InvalidToken,
    /// 1.4: the token already has as many live connections as it may open; closes.
    TooManyConnections,
    /// 1.5: the account is playbanned (docs/FAIR_PLAY.md "Playbans"): no new table, quick play
    /// or tournament registration until the ban ends; a 1.5 connection hears when in the
    /// `playban` message sent just before this error.
    Playbanned,
    /// 1.5: a chat request from an account a moderator muted; the message says until when.
    Muted,
    /// 1.7: the account filed as many reports as it may in the hour: wait.
    TooManyReports,
    /// 1.7: a `report` that does not fit together: no seat and no line (or both), an unknown
    /// reason, a note over 500 characters, oneself, or a line the table does not keep.
    InvalidReport,
    /// 1.7: arena play is for bot accounts (a guest or a player account asked).
    BotAccountRequired,
    /// 1.7: the bot played the server's daily number of arena matches (the last 24 hours).
    ArenaDailyCap,
    /// 1.7: the challenged opponent is neither a server bot's level nor a bot account ready
    /// for arena play (or is the challenger itself).
    OpponentUnavailable,
    /// 1.7: rated play asked of a server that keeps no ratings (a cluster started without
    /// `--database-url`): no rated table, quick play or tournament here, whoever asks. Sent to
    /// 1.7 connections; an older one gets what it got before.
    RatedUnavailable,
}

impl ErrorCode {
    /// Every code, in the order of docs/PROTOCOL.md section 8.
    pub const ALL: [ErrorCode; 53] = [
        ErrorCode::UnsupportedVersion,
        ErrorCode::HelloRequired,
        ErrorCode::HelloTimeout,
        ErrorCode::InvalidName,
        ErrorCode::UnexpectedHello,
        ErrorCode::MalformedFrame,
        ErrorCode::InvalidMessage,
        ErrorCode::FrameTooLarge,
        ErrorCode::RateLimited,
        ErrorCode::Flooding,
        ErrorCode::UnknownTable,
        ErrorCode::BadInvite,
        ErrorCode::InvalidSettings,
        ErrorCode::InvalidSeat,
        ErrorCode::SeatTaken,
        ErrorCode::TableFull,
        ErrorCode::TableStarted,
        ErrorCode::NotSeated,
        ErrorCode::NotAtTable,
        ErrorCode::NoHandInPlay,
        ErrorCode::IllegalAction,
        ErrorCode::ChatClosed,
        ErrorCode::UnknownPhrase,
        ErrorCode::TableBusy,
        ErrorCode::ShuttingDown,
        ErrorCode::InternalError,
        ErrorCode::UnknownTournament,
        ErrorCode::RegistrationClosed,
        ErrorCode::AlreadyRegistered,
        ErrorCode::NotRegistered,
        ErrorCode::NotDirector,
        ErrorCode::RoundInPlay,
        ErrorCode::NeedsMinor,
        ErrorCode::DuplicateInPlay,
        ErrorCode::TournamentPaused,
        ErrorCode::TimeInPast,
        ErrorCode::RepeatedCreate,
        ErrorCode::UnknownPartnerCode,
        ErrorCode::EntrantComplete,
        ErrorCode::InvalidText,
        ErrorCode::NameRegistered,
        ErrorCode::AccountRequired,
        ErrorCode::MissingScope,
        ErrorCode::InvalidToken,
        ErrorCode::TooManyConnections,
        ErrorCode::Playbanned,
        ErrorCode::Muted,
        ErrorCode::TooManyReports,
        ErrorCode::InvalidReport,
        ErrorCode::BotAccountRequired,
        ErrorCode::ArenaDailyCap,
        ErrorCode::OpponentUnavailable,
        ErrorCode::RatedUnavailable,
    ];

    /// The code as written on the wire.
    pub const fn as_str(self) -> &'static str {
        use ErrorCode::*;
        match self {
            UnsupportedVersion => "unsupported_version",
            HelloRequired => "hello_required",
            HelloTimeout => "hello_timeout",
            InvalidName => "invalid_name",
            UnexpectedHello => "unexpected_hello",
            MalformedFrame => "malformed_frame",
            InvalidMessage => "invalid_message",
            FrameTooLarge => "frame_too_large",
            RateLimited => "rate_limited",
            Flooding => "flooding",
            UnknownTable => "unknown_table",
            BadInvite => "bad_invite",
            InvalidSettings => "invalid_settings",
            InvalidSeat => "invalid_seat",
            SeatTaken => "seat_taken",
            TableFull => "table_full",
            TableStarted => "table_started",
            NotSeated => "not_seated",
            NotAtTable => "not_at_table",
            NoHandInPlay => "no_hand_in_play",
            IllegalAction => "illegal_action",
            ChatClosed => "chat_closed",
            UnknownPhrase => "unknown_phrase",
            TableBusy => "table_busy",
            ShuttingDown => "shutting_down",
            InternalError => "internal_error",
            UnknownTournament => "unknown_tournament",
            RegistrationClosed => "registration_closed",
            AlreadyRegistered => "already_registered",
            NotRegistered => "not_registered",
            NotDirector => "not_director",
            RoundInPlay => "round_in_play",
            NeedsMinor => "needs_minor",
            DuplicateInPlay => "duplicate_in_play",
            TournamentPaused => "tournament_paused",
            TimeInPast => "time_in_past",
            RepeatedCreate => "repeated_create",
            UnknownPartnerCode => "unknown_partner_code",
            EntrantComplete => "entrant_complete",
            InvalidText => "invalid_text",
            NameRegistered => "name_registered",
            AccountRequired => "account_required",
            MissingScope => "missing_scope",
            InvalidToken => "invalid_token",
            TooManyConnections => "too_many_connections",
            Playbanned => "playbanned",
            Muted => "muted",
            TooManyReports => "too_many_reports",
            InvalidReport => "invalid_report",
            BotAccountRequired => "bot_account_required",
            ArenaDailyCap => "arena_daily_cap",
            OpponentUnavailable => "opponent_unavailable",
            RatedUnavailable => "rated_unavailable",
        }
    }

    /// The code for its wire text; `None` for a code this version does not know (a newer server's):
    /// the caller keeps the text and treats it as a generic refusal.
    pub fn parse(code: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|c| c.as_str() == code)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A code this version of the protocol does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown error code {0:?}")]
pub struct UnknownErrorCode(pub String);

impl FromStr for ErrorCode {
    type Err = UnknownErrorCode;

    fn from_str(code: &str) -> Result<Self, Self::Err> {
        ErrorCode::parse(code).ok_or_else(|| UnknownErrorCode(code.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_reads_back_and_codes_are_distinct() {
        for code in ErrorCode::ALL {
            assert_eq!(ErrorCode::parse(code.as_str()), Some(code));
            assert_eq!(code.as_str().parse::<ErrorCode>(), Ok(code));
            assert_eq!(code.to_string(), code.as_str());
        }
        let mut sorted = ErrorCode::ALL.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), ErrorCode::ALL.len());
    }

    #[test]
    fn a_newer_servers_code_is_kept_not_fatal() {
        assert_eq!(ErrorCode::parse("table_on_fire"), None);
        assert_eq!(
            "table_on_fire".parse::<ErrorCode>(),
            Err(UnknownErrorCode("table_on_fire".into()))
        );
    }
}
