//! Fair play (issue 22, first part): each account's outcome per game ([`outcome`]), judged from
//! its table's log when the match ends (one of the match-end projections, exactly once:
//! `crate::projections`), stored behind one port ([`FairPlay`]), and playbans that
//! escalate ([`policy`]), refused at quick play, table join and create, and tournament
//! registration ([`gate`]); `GET /api/account/playban` shows an account its ban and its recent
//! outcomes ([`http`]).
//!
//! The store is the accounts' database (migration 6 of [`crate::accounts::MIGRATIONS`]): the
//! SQLite file on one node ([`sqlite`]), PostgreSQL given `--database-url` ([`postgres`]); one
//! conformance suite, `server/tests/fairplay`.

pub mod http;
pub mod outcome;
pub mod policy;
pub mod postgres;
pub mod sqlite;

use std::sync::Arc;

use burraco_protocol::ErrorCode;
use burraco_protocol::wire::{ClientMessage, ServerMessage};

use crate::accounts::Accounts;
use crate::port::{PortError, PortFuture};
pub use outcome::{MatchFacts, Outcome, SeatConduct};

/// One account's outcome in one table's match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutcomeRecord {
    pub account: String,
    pub table: String,
    /// `Seat::index`.
    pub seat: u8,
    pub outcome: Outcome,
    /// When the match ended (Unix ms).
    pub at_ms: i64,
}

/// A playban as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Playban {
    pub account: String,
    pub start_ms: i64,
    pub end_ms: i64,
    /// [`policy::Reason::code`].
    pub reason: String,
}

/// Outcomes and playbans. Every method answers from the shared state at once (no cache): a ban
/// given through one node is enforced by every node on its next request.
pub trait FairPlay: Send + Sync + std::fmt::Debug {
    /// Stores an outcome; false when this account's outcome at this table is stored already (a
    /// table that ends twice, after a restart, is judged once).
    fn record_outcome<'a>(
        &'a self,
        record: &'a OutcomeRecord,
    ) -> PortFuture<'a, Result<bool, PortError>>;
    /// The account's outcomes, newest first, at most `limit`.
    fn outcomes<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<OutcomeRecord>, PortError>>;
    /// Stores a playban.
    fn add_ban<'a>(&'a self, ban: &'a Playban) -> PortFuture<'a, Result<(), PortError>>;
    /// The account's playbans, newest first, at most `limit`.
    fn bans<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<Playban>, PortError>>;
}

/// No store (a cluster without `--database-url`: no accounts either). Nothing is recorded and
/// nobody is banned.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unconfigured;

impl FairPlay for Unconfigured {
    fn record_outcome<'a>(
        &'a self,
        _: &'a OutcomeRecord,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        Box::pin(async { Ok(false) })
    }
    fn outcomes<'a>(
        &'a self,
        _: &'a str,
        _: u32,
    ) -> PortFuture<'a, Result<Vec<OutcomeRecord>, PortError>> {
        Box::pin(async { Ok(Vec::new()) })
    }
    fn add_ban<'a>(&'a self, _: &'a Playban) -> PortFuture<'a, Result<(), PortError>> {
        Box::pin(async { Ok(()) })
    }
    fn bans<'a>(&'a self, _: &'a str, _: u32) -> PortFuture<'a, Result<Vec<Playban>, PortError>> {
        Box::pin(async { Ok(Vec::new()) })
    }
}

/// The store this server uses, as the accounts' (opened after them: their migrations made its
/// tables).
pub async fn open(
    config: &crate::config::ServerConfig,
    store: &crate::store::Store,
    database: Option<&crate::store::postgres::Database>,
) -> Result<Arc<dyn FairPlay>, PortError> {
    Ok(match (database, &config.cluster) {
        (Some(db), _) => Arc::new(postgres::PostgresFairPlay::new(db)),
        (None, None) => Arc::new(sqlite::SqliteFairPlay::open(store)?),
        (None, Some(_)) => Arc::new(Unconfigured),
    })
}

/// The account's playban running at `now_ms`, if any.
pub async fn active_ban(
    store: &dyn FairPlay,
    account: &str,
    now_ms: i64,
) -> Result<Option<Playban>, PortError> {
    Ok(store
        .bans(account, 1)
        .await?
        .into_iter()
        .find(|b| b.end_ms > now_ms))
}

/// Stores the outcomes of a table's match (read from its log: `crate::table::facts_of_log`) and
/// bans whoever that earns a ban: one of the match-end projections (`crate::projections`), so it
/// may run again after a crash and must change nothing the second time. An outcome is keyed by
/// (table, account); a ban is judged as of the match's end, `at_ms` (the time its pending row
/// holds), so a second judgement sees the ban the first one gave running and gives none.
pub async fn judge_match(
    store: &dyn FairPlay,
    accounts: &dyn Accounts,
    table: &str,
    facts: &MatchFacts,
    at_ms: i64,
) -> Result<(), PortError> {
    for (seat, account, outcome) in outcome::outcomes(facts) {
        let record = OutcomeRecord {
            account,
            table: table.to_owned(),
            seat: seat as u8,
            outcome,
            at_ms,
        };
        judge_one(store, accounts, &record).await?;
    }
    Ok(())
}

async fn judge_one(
    store: &dyn FairPlay,
    accounts: &dyn Accounts,
    record: &OutcomeRecord,
) -> Result<(), PortError> {
    // Stored already (a retry after a crash) or new: a bad one is judged either way, since a
    // crash may have come between the outcome and its ban.
    store.record_outcome(record).await?;
    if !record.outcome.is_bad() {
        return Ok(());
    }
    // As of the match's end: outcomes recorded since (a sweep late by hours) are not this one's.
    let recent: Vec<(Outcome, i64)> = store
        .outcomes(&record.account, (policy::WINDOW * 2) as u32)
        .await?
        .into_iter()
        .filter(|o| o.at_ms <= record.at_ms)
        .map(|o| (o.outcome, o.at_ms))
        .take(policy::WINDOW)
        .collect();
    if recent.is_empty() {
        // Nothing stored (no store configured): nothing to judge by.
        return Ok(());
    }
    let bans: Vec<policy::Ban> = store
        .bans(&record.account, 50)
        .await?
        .into_iter()
        .map(|b| policy::Ban {
            start_ms: b.start_ms,
            end_ms: b.end_ms,
        })
        .collect();
    let Some(account) = accounts.by_id(&record.account).await? else {
        return Ok(());
    };
    let Some((ban, reason)) = policy::playban(&recent, &bans, account.created_ms, record.at_ms)
    else {
        return Ok(());
    };
    tracing::info!(account = %record.account, until_ms = ban.end_ms, reason = reason.code(), "playban");
    metrics::counter!("burraco_playbans_total").increment(1);
    store
        .add_ban(&Playban {
            account: record.account.clone(),
            start_ms: ban.start_ms,
            end_ms: ban.end_ms,
            reason: reason.code().into(),
        })
        .await
}

/// Whether `request` would seat its player somewhere new (a table, a tournament's entry list,
/// the arena's queue): refused to a playbanned account ([`gate`]). A `join` of a table where the
/// player holds its seat already (a tournament's round, a seat taken before the ban) is not
/// new: the caller knows the seats and asks first. The match names every request, so a new one
/// does not compile until it is placed on one side.
pub fn starts_play(request: &ClientMessage) -> bool {
    use ClientMessage as C;
    match request {
        C::QuickPlay { .. }
        | C::QuickPlayRated { .. }
        | C::CreateTable { .. }
        | C::CreateRatedTable { .. }
        | C::Join { .. }
        | C::RegisterTournament { .. }
        | C::RegisterInvited { .. }
        | C::ArenaReady { .. }
        | C::ArenaChallenge { .. } => true,
        // Playing on where one sits, watching, talking, directing a tournament (a director
        // does not sit), and everything of the lobby: a ban keeps a player from new games,
        // not from the one it owes.
        C::Hello { .. }
        | C::HelloToken { .. }
        | C::ListTables { .. }
        | C::Leave { .. }
        | C::Ready { .. }
        | C::Spectate { .. }
        | C::Draw { .. }
        | C::PickUp { .. }
        | C::Open { .. }
        | C::Attach { .. }
        | C::Discard { .. }
        | C::Sync { .. }
        | C::Chat { .. }
        | C::Ping { .. }
        | C::AddBots { .. }
        | C::CreateTournament { .. }
        | C::UnregisterTournament { .. }
        | C::StartRound { .. }
        | C::AdjustScore { .. }
        | C::WithdrawEntrant { .. }
        | C::EndTournament { .. }
        | C::ConfigureRegistration { .. }
        | C::CheckInTournament { .. }
        | C::PauseTournament { .. }
        | C::ResumeTournament { .. }
        | C::WarnEntrant { .. }
        | C::DisqualifyEntrant { .. }
        | C::ForbidPairing { .. }
        | C::SeatEntrants { .. }
        | C::SetRoundTime { .. }
        | C::ExcuseEntrant { .. }
        | C::SetLineup { .. }
        | C::WatchTournament { .. }
        | C::ListLobby { .. }
        | C::TableLevels { .. }
        | C::CreateRatedTournament { .. }
        | C::SeatIdentities { .. }
        | C::TournamentChat { .. }
        | C::TournamentChatHistory { .. }
        | C::Report { .. }
        | C::TournamentReport { .. } => false,
    }
}

/// The refusal of a request that starts play (quick play, joining or creating a table,
/// registering for a tournament) by a playbanned account: the `playban` notice for a 1.5
/// connection, then the `playbanned` error, as the messages to send; `None` lets it through.
/// A store that cannot answer lets the request through (a ban is not worth refusing every
/// player while the database is away).
pub async fn gate(
    store: &dyn FairPlay,
    account: Option<&str>,
    request_id: Option<u64>,
    minor: u16,
    now_ms: i64,
) -> Option<Vec<ServerMessage>> {
    let account = account?;
    let ban = match active_ban(store, account, now_ms).await {
        Ok(ban) => ban?,
        Err(e) => {
            tracing::warn!("playbans unreadable, request let through: {e}");
            return None;
        }
    };
    let mut replies = Vec::new();
    if minor >= 5 {
        replies.push(ServerMessage::Playban {
            until_ms: ban.end_ms,
        });
    }
    // Whole minutes, rounded up: a player who waits that long is let in.
    let minutes = (ban.end_ms - now_ms + 59_999) / 60_000;
    replies.push(ServerMessage::error(
        request_id,
        ErrorCode::Playbanned,
        format!(
            "playbanned for leaving or stalling games: {minutes} more minute(s), until Unix ms {}",
            ban.end_ms
        ),
        None,
    ));
    Some(replies)
}
