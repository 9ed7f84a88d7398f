//! Reports and moderation (issue 22): a player reports a player or a chat line, kept with its
//! context as the server saw it (the table, the hand, the chat lines around it: [`chat_memory`]);
//! moderators (a role on accounts; an administrator is one too) read the open reports and act
//! with a reason (dismiss, warn, mute, time out, disable), each action in the account's audit
//! log; a guest (who has no account) can be muted by its player id; a chat filter, a
//! same-address signal and the ratings' farming rule file reports of their own ([`signals`]),
//! each case grouped into one open report that counts its findings ([`grouping`]).
//! A player reports over HTTP or, from protocol 1.7, with the `report` request at its table
//! (`crate::table`'s `reports.rs`: the table keeps the context), and from 1.8 a tournament's
//! chat line with `tournament_report` (`crate::tournament`'s `chat.rs`: the tournament keeps
//! its lines).
//!
//! Everything stored goes through one port, [`ModerationStore`], on the accounts' database
//! (SQLite on one node, PostgreSQL in a cluster: [`sqlite`], [`postgres`], one conformance
//! suite in `server/tests/moderation`). Its tables come with the accounts' migration 7.
//! The live side, which connections belong to which account on this node, is
//! [`connections`]: a disable or a time-out closes them, here at once and on every other node
//! within a second by each node's own poll of the store.

pub mod addresses;
pub mod chat_filter;
pub mod chat_memory;
pub mod connections;
pub mod grouping;
pub mod http;
mod port;
pub mod postgres;
pub mod signals;
pub mod sqlite;

use std::sync::Arc;

use burraco_protocol::ErrorCode;
use serde::{Deserialize, Serialize};

use crate::port::PortError;

pub use port::{ModerationStore, Unconfigured};

/// Reports one account may file in [`REPORT_WINDOW_MS`]: beyond them, `too_many_reports`.
pub const REPORTS_PER_WINDOW: u32 = 10;
/// The window [`REPORTS_PER_WINDOW`] counts in: an hour.
pub const REPORT_WINDOW_MS: i64 = 3600 * 1000;
/// The longest note a report keeps, in characters (over HTTP and over the protocol alike).
pub const MAX_NOTE: usize = 500;
/// The longest mute or time-out a moderator may give at once: 30 days.
pub const MAX_SANCTION_MINUTES: u32 = 30 * 24 * 60;

/// What a report is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportKind {
    /// A player, by a player.
    Player,
    /// A chat line, by a player.
    Chat,
    /// A chat line the word filter caught (the server's own report).
    ChatFilter,
    /// Two accounts from one address at one rated table (the server's own report).
    SameAddress,
    /// The same accounts' rated matches past the ratings' daily cap (the server's own report).
    RatingFarming,
}

impl ReportKind {
    pub const ALL: [ReportKind; 5] = [
        ReportKind::Player,
        ReportKind::Chat,
        ReportKind::ChatFilter,
        ReportKind::SameAddress,
        ReportKind::RatingFarming,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ReportKind::Player => "player",
            ReportKind::Chat => "chat",
            ReportKind::ChatFilter => "chat_filter",
            ReportKind::SameAddress => "same_address",
            ReportKind::RatingFarming => "rating_farming",
        }
    }

    pub fn parse(text: &str) -> Option<ReportKind> {
        ReportKind::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

/// Why a player reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    Cheating,
    Abuse,
    Spam,
    Stalling,
    /// Several accounts of one person.
    MultiAccount,
    Other,
}

impl Reason {
    pub const ALL: [Reason; 6] = [
        Reason::Cheating,
        Reason::Abuse,
        Reason::Spam,
        Reason::Stalling,
        Reason::MultiAccount,
        Reason::Other,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Cheating => "cheating",
            Reason::Abuse => "abuse",
            Reason::Spam => "spam",
            Reason::Stalling => "stalling",
            Reason::MultiAccount => "multi_account",
            Reason::Other => "other",
        }
    }

    pub fn parse(text: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.as_str() == text)
    }
}

/// A chat line as the table published it, kept by [`chat_memory`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// The table's sequence number of its `chat_message`.
    pub seq: u64,
    /// The speaker's seat (`null` for a spectator).
    pub seat: Option<String>,
    pub name: String,
    /// The speaker's account, when a signed-in player spoke from a seat.
    pub account: Option<String>,
    /// The speaker's player id (`p-...`, a guest's too): what a guest's mute names. Lines kept
    /// before it was recorded read `null`.
    #[serde(default)]
    pub player: Option<String>,
    pub text: String,
    pub at_ms: i64,
}

/// A seat of the reported table, as the lobby knew it when the report was filed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextSeat {
    pub seat: String,
    pub name: Option<String>,
    pub bot: bool,
}

/// What the server knew around a report, read on the server (never the reporter's copy).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Context {
    pub table: Option<String>,
    /// The table's status (`waiting`, `playing`, `finished`) when the report was filed.
    pub status: Option<String>,
    /// The hand in play (or the last one finished) then; `null` before the first.
    pub hand: Option<u32>,
    pub seats: Vec<ContextSeat>,
    /// The reported line (a chat report).
    pub line: Option<ChatLine>,
    /// The table's chat lines around it (or the latest ones), oldest first.
    pub chat: Vec<ChatLine>,
    /// Whether the node that took the report kept the table's chat: the node serving the
    /// table does; in a cluster a report through another node has the seats but no chat.
    pub chat_here: bool,
    /// An automatic report's finding (the filter's word, the accounts sharing an address).
    pub detail: Option<String>,
    /// A reported guest's player id (a guest has no account): what a moderator's mute of the
    /// guest names. `null` for an account, or when the node did not know it.
    #[serde(default)]
    pub guest: Option<String>,
    /// A tournament chat line's report (protocol 1.8): the tournament (`table` is then
    /// `null`, and `line` and `chat` are its chat's, numbered by its `line`).
    #[serde(default)]
    pub tournament: Option<String>,
    /// The tournament's round started when the reported line was said (`null` before the
    /// first round, and for a table's report).
    #[serde(default)]
    pub round: Option<u32>,
    /// An automatic report's findings ([`grouping`]): how many it counts, the context being
    /// the latest's (`null` for a player's report)...
    #[serde(default)]
    pub count: Option<u32>,
    /// ...when the latest was found...
    #[serde(default)]
    pub last_ms: Option<i64>,
    /// ...and the accounts they were about (a guest speaker by its player id), sorted.
    #[serde(default)]
    pub accounts: Vec<String>,
}

/// A report to file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewReport {
    /// `r-` and 16 hex digits.
    pub id: String,
    pub kind: ReportKind,
    /// The reporting account; `None` for the server's own reports.
    pub reporter: Option<String>,
    /// What the flood limit counts by: the reporter's account. An automatic report's is its
    /// group's key, which the grouping writes ([`grouping::key_of`]): leave it empty.
    pub flood_key: String,
    /// The reported account; `None` for a guest.
    pub subject: Option<String>,
    pub subject_name: String,
    pub table: Option<String>,
    pub reason: Reason,
    /// The reporter's words, at most 500 characters.
    pub note: String,
    pub context: Context,
    pub created_ms: i64,
}

/// A report as moderators read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    pub id: String,
    pub kind: ReportKind,
    pub reporter: Option<String>,
    pub subject: Option<String>,
    pub subject_name: String,
    pub table: Option<String>,
    pub reason: Reason,
    pub note: String,
    pub context: Context,
    pub created_ms: i64,
    /// The action that closed it; `null` while open.
    pub closed_by: Option<String>,
}

/// Why a report was not filed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// The flood key filed its limit within the window.
    #[error("too many reports")]
    TooMany,
    #[error(transparent)]
    Port(#[from] PortError),
}

/// What a moderator does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// The report needs nothing: closed.
    Dismiss,
    /// Told off: recorded, counted at `/api/moderation/me`.
    Warn,
    /// No chat until `until_ms`.
    Mute,
    Unmute,
    /// Off the tables until `until_ms`: the account's connections close and new ones are
    /// closed at once.
    Timeout,
    /// Disabled until enabled (as `burraco-server admin disable`).
    Disable,
    Enable,
}

impl ActionKind {
    pub const ALL: [ActionKind; 7] = [
        ActionKind::Dismiss,
        ActionKind::Warn,
        ActionKind::Mute,
        ActionKind::Unmute,
        ActionKind::Timeout,
        ActionKind::Disable,
        ActionKind::Enable,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::Dismiss => "dismiss",
            ActionKind::Warn => "warn",
            ActionKind::Mute => "mute",
            ActionKind::Unmute => "unmute",
            ActionKind::Timeout => "timeout",
            ActionKind::Disable => "disable",
            ActionKind::Enable => "enable",
        }
    }

    pub fn parse(text: &str) -> Option<ActionKind> {
        ActionKind::ALL.into_iter().find(|k| k.as_str() == text)
    }

    /// The kind of the account's audit entry (docs/ACCOUNTS.md, "The audit log").
    pub fn audit_kind(self) -> &'static str {
        match self {
            ActionKind::Dismiss => "moderation_dismissed",
            ActionKind::Warn => "moderation_warned",
            ActionKind::Mute => "moderation_muted",
            ActionKind::Unmute => "moderation_unmuted",
            ActionKind::Timeout => "moderation_timed_out",
            ActionKind::Disable => "moderation_disabled",
            ActionKind::Enable => "moderation_enabled",
        }
    }

    /// Whether the action lasts a number of minutes the moderator gives.
    pub fn needs_duration(self) -> bool {
        matches!(self, ActionKind::Mute | ActionKind::Timeout)
    }
}

/// A moderator's action to store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Action {
    /// `m-` and 16 hex digits.
    pub id: String,
    pub kind: ActionKind,
    /// The moderator's account; `None` for an operator's command.
    pub moderator: Option<String>,
    /// The account acted on (`None`: a guest, or dismissing a report about one).
    pub account: Option<String>,
    /// The guest acted on, by its player id (`p-...`): a guest's mute, unmute or warning.
    pub guest: Option<String>,
    pub reason: String,
    /// When a mute or a time-out ends.
    pub until_ms: Option<i64>,
    /// The report it closes.
    pub report: Option<String>,
    pub at_ms: i64,
}

/// An account's role and sanctions as the store has them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// A moderator, or an administrator (who is one too).
    pub moderator: bool,
    pub disabled: bool,
    pub muted_until_ms: Option<i64>,
    pub timed_out_until_ms: Option<i64>,
    /// Warnings received, ever.
    pub warnings: u32,
}

impl Standing {
    /// The end of a mute in force at `now_ms`.
    pub fn muted_at(&self, now_ms: i64) -> Option<i64> {
        self.muted_until_ms.filter(|&until| until > now_ms)
    }

    /// The end of a time-out in force at `now_ms`.
    pub fn timed_out_at(&self, now_ms: i64) -> Option<i64> {
        self.timed_out_until_ms.filter(|&until| until > now_ms)
    }
}

/// Why an action was not stored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActError {
    #[error("no such account")]
    UnknownAccount,
    #[error("no such report")]
    UnknownReport,
    #[error(transparent)]
    Port(#[from] PortError),
}

/// The moderation's state on this node: its store, the account's connections here, and the
/// tables' recent chat.
#[derive(Debug)]
pub struct Moderation {
    pub store: Arc<dyn ModerationStore>,
    pub connections: connections::AccountConnections,
    pub chat: chat_memory::ChatMemory,
    /// The addresses accounts took seats from at this node's tables, through any node.
    pub seen: addresses::SeenAddresses,
}

impl Moderation {
    pub fn new(store: Arc<dyn ModerationStore>) -> Moderation {
        Moderation {
            store,
            connections: connections::AccountConnections::default(),
            chat: chat_memory::ChatMemory::default(),
            seen: addresses::SeenAddresses::default(),
        }
    }

    /// Files an account's report under its flood limit ([`REPORTS_PER_WINDOW`] in
    /// [`REPORT_WINDOW_MS`]): the one path of `POST /api/reports` and the protocol's `report`.
    pub async fn file_by_account(&self, report: &NewReport) -> Result<(), FileError> {
        let since = report.created_ms - REPORT_WINDOW_MS;
        self.store.file(report, REPORTS_PER_WINDOW, since).await
    }
}

/// A protocol report's reason and note (the table's `report`, the tournament's
/// `tournament_report`), checked by one rule for both; the refusal says what is wrong.
pub fn protocol_report_fields(
    reason: &str,
    note: Option<&str>,
) -> Result<(Reason, String), (ErrorCode, &'static str)> {
    let reason = Reason::parse(reason).ok_or((
        ErrorCode::InvalidReport,
        "reason: cheating, abuse, spam, stalling, multi_account or other",
    ))?;
    let note = report_note(note).ok_or((
        ErrorCode::InvalidReport,
        "note: at most 500 characters, without control, format or invisible ones",
    ))?;
    Ok((reason, note))
}

/// The protocol's refusal of a report [`Moderation::file_by_account`] did not file.
pub fn filing_refusal(error: FileError) -> (ErrorCode, String) {
    match error {
        FileError::TooMany => (
            ErrorCode::TooManyReports,
            format!("at most {REPORTS_PER_WINDOW} reports an hour: wait and retry"),
        ),
        FileError::Port(e) => {
            tracing::warn!("cannot file a report: {e}");
            (
                ErrorCode::InternalError,
                "the report could not be stored".into(),
            )
        }
    }
}

/// A report's note as kept: empty when none, else the chat's text rule at [`MAX_NOTE`]
/// characters (no control, format or invisible character); `None` when it breaks the rule.
pub fn report_note(raw: Option<&str>) -> Option<String> {
    match raw.map(str::trim) {
        None | Some("") => Some(String::new()),
        Some(text) => burraco_protocol::text::normalise_line(text, MAX_NOTE),
    }
}

impl NewReport {
    /// An account's report of `subject` (an account, or `None` for a guest) named
    /// `subject_name`, counted by the reporter's flood key, made now.
    pub fn by_account(
        reporter: &str,
        kind: ReportKind,
        (subject, subject_name): (Option<String>, String),
        table: Option<String>,
        (reason, note): (Reason, String),
        context: Context,
    ) -> NewReport {
        NewReport {
            id: crate::ids::random_id("r", 8),
            kind,
            reporter: Some(reporter.to_owned()),
            flood_key: format!("account:{reporter}"),
            subject,
            subject_name,
            table,
            reason,
            note,
            context,
            created_ms: crate::ids::unix_ms(),
        }
    }
}

/// The moderation's store, on the accounts' database (whose migrations `accounts::open` has
/// applied): PostgreSQL given a database URL, else the SQLite file of a single node, none in a
/// cluster without one.
pub async fn open(
    config: &crate::config::ServerConfig,
    data_dir: &std::path::Path,
    database: Option<&crate::store::postgres::Database>,
) -> Result<Arc<dyn ModerationStore>, PortError> {
    Ok(match (database, &config.cluster) {
        (Some(db), _) => Arc::new(postgres::PostgresModeration::new(db)),
        (None, None) => Arc::new(sqlite::SqliteModeration::open_dir(data_dir)?),
        (None, Some(_)) => Arc::new(Unconfigured),
    })
}

/// The chat refusal of a muted account (protocol 1.5, `muted`), or of a muted guest by its
/// player id: `None` when it may speak. A store that cannot answer lets it speak (an outage
/// does not silence everyone).
pub async fn chat_refusal(
    store: &dyn ModerationStore,
    account: Option<&str>,
    player: &str,
) -> Option<String> {
    let now = crate::ids::unix_ms();
    let (until, whom) = match account {
        Some(account) => (
            store
                .standing(account)
                .await
                .map(|s| s.and_then(|s| s.muted_at(now))),
            "this account",
        ),
        None => (store.guest_muted_until(player, now).await, "this guest"),
    };
    match until {
        Ok(until) => until.map(|until| {
            format!(
                "muted until {} ({until} ms): a moderator muted {whom}",
                rfc3339(until)
            )
        }),
        Err(e) => {
            tracing::warn!("cannot read a mute: {e}");
            None
        }
    }
}

/// A Unix time in milliseconds as `YYYY-MM-DDTHH:MM:SSZ` (UTC), for messages people read.
pub fn rfc3339(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rest = secs.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_764_163_200_000), "2025-11-26T13:20:00Z");
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn names_parse_back() {
        for kind in ReportKind::ALL {
            assert_eq!(ReportKind::parse(kind.as_str()), Some(kind));
        }
        for reason in Reason::ALL {
            assert_eq!(Reason::parse(reason.as_str()), Some(reason));
        }
        for kind in ActionKind::ALL {
            assert_eq!(ActionKind::parse(kind.as_str()), Some(kind));
            assert_eq!(
                serde_json::to_string(&kind).expect("json"),
                format!("\"{}\"", kind.as_str())
            );
        }
        assert_eq!(ActionKind::parse("ban_forever"), None);
    }
}
