//! The players' match index (issue 21, the player's page): one row per seat a signed-in account
//! (or a guest's session) held at a finished match, with what the page shows of it, behind one
//! port, [`PlayerIndex`], with two implementations that pass one conformance suite
//! (`server/tests/players`):
//!
//! - [`sqlite`]: the embedded store's file, beside the accounts (one node);
//! - [`postgres`]: PostgreSQL (`--database-url`), which every node of a cluster shares.
//!
//! A table whose match ended is indexed from its own log ([`index_log`], through the pure
//! [`stats::played_matches`]) by the match-end projections (`crate::projections`, exactly once); a row is written once per (table, match, seat), so a retry is a
//! no-op, and the per-account totals, partners and tournaments are kept beside the rows in the
//! same transaction: the page reads a few rows by key, never the account's whole history.
//! Its tables are the accounts' migration 5 (`crate::accounts::MIGRATIONS`); migration 14
//! ([`OUTCOMES_BY_VP`]) decided the older rows' outcomes again by their VP.

pub mod http;
pub mod postgres;
pub mod sqlite;
pub mod stats;

use std::sync::Arc;

use serde::Serialize;

use crate::port::{PortError, PortFuture};

/// The index's tables: the accounts' migration 5 (plain SQL both SQLite and PostgreSQL
/// accept). `player_matches` is keyed by (table, match, seat), so a retried write is a no-op;
/// `player_matches_recent` serves an account's recent matches newest first a page at a time;
/// the three sums are updated only by a row that was new.
pub const MIGRATION: &str = "CREATE TABLE player_matches (
        table_id TEXT NOT NULL,
        match_no BIGINT NOT NULL,
        seat TEXT NOT NULL,
        account_id TEXT NOT NULL,
        name TEXT NOT NULL,
        category TEXT NOT NULL,
        partner_id TEXT,
        partner_name TEXT,
        opponents TEXT NOT NULL,
        outcome TEXT NOT NULL,
        vp_for BIGINT,
        vp_against BIGINT,
        points_for BIGINT NOT NULL,
        points_against BIGINT NOT NULL,
        hands BIGINT NOT NULL,
        burraco BIGINT NOT NULL,
        closings BIGINT NOT NULL,
        pozzetti_first BIGINT NOT NULL,
        duration_ms BIGINT NOT NULL,
        finished_ms BIGINT NOT NULL,
        tournament_id TEXT,
        PRIMARY KEY (table_id, match_no, seat));
     CREATE INDEX player_matches_recent ON player_matches (account_id, finished_ms, table_id);
     CREATE TABLE player_totals (
        account_id TEXT NOT NULL,
        category TEXT NOT NULL,
        matches BIGINT NOT NULL,
        won BIGINT NOT NULL,
        drawn BIGINT NOT NULL,
        vp_matches BIGINT NOT NULL,
        vp_for BIGINT NOT NULL,
        hands BIGINT NOT NULL,
        burraco BIGINT NOT NULL,
        closings BIGINT NOT NULL,
        pozzetti_first BIGINT NOT NULL,
        PRIMARY KEY (account_id, category));
     CREATE TABLE player_partners (
        account_id TEXT NOT NULL,
        partner_id TEXT NOT NULL,
        partner_name TEXT NOT NULL,
        matches BIGINT NOT NULL,
        won BIGINT NOT NULL,
        PRIMARY KEY (account_id, partner_id));
     CREATE TABLE player_tournaments (
        account_id TEXT NOT NULL,
        tournament_id TEXT NOT NULL,
        matches BIGINT NOT NULL,
        won BIGINT NOT NULL,
        vp_for BIGINT NOT NULL,
        last_ms BIGINT NOT NULL,
        PRIMARY KEY (account_id, tournament_id));
     CREATE INDEX player_tournaments_latest ON player_tournaments (account_id, last_ms);";

/// The accounts' migration 14 (issue 32): the rows indexed before the match's outcome was
/// decided by its VP (they said "won" for the higher total of a 10-10) take the one rule's
/// outcome from their own VP, and the won and drawn counts beside them are counted again from
/// the rows. A match by points has no VP in its row (its outcome needs the preset's column, which
/// the row does not keep): those rows keep what they said. Idempotent, plain SQL both stores run.
pub const OUTCOMES_BY_VP: &str = "UPDATE player_matches SET outcome = CASE
        WHEN vp_for > vp_against THEN 'won' WHEN vp_for < vp_against THEN 'lost' ELSE 'draw' END
        WHERE vp_for IS NOT NULL AND vp_against IS NOT NULL;
     UPDATE player_totals SET
        won = (SELECT COUNT(*) FROM player_matches m WHERE m.account_id = player_totals.account_id
            AND m.category = player_totals.category AND m.outcome = 'won'),
        drawn = (SELECT COUNT(*) FROM player_matches m WHERE m.account_id = player_totals.account_id
            AND m.category = player_totals.category AND m.outcome = 'draw');
     UPDATE player_partners SET
        won = (SELECT COUNT(*) FROM player_matches m WHERE m.account_id = player_partners.account_id
            AND m.partner_id = player_partners.partner_id AND m.outcome = 'won');
     UPDATE player_tournaments SET
        won = (SELECT COUNT(*) FROM player_matches m
            WHERE m.account_id = player_tournaments.account_id
            AND m.tournament_id = player_tournaments.tournament_id AND m.outcome = 'won');";

/// Which rating pool a match belongs to: head to head or in partnerships.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Two,
    Four,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Two => "two",
            Category::Four => "four",
        }
    }

    pub fn parse(text: &str) -> Option<Category> {
        match text {
            "two" => Some(Category::Two),
            "four" => Some(Category::Four),
            _ => None,
        }
    }
}

/// How the match ended for the row's player: the one rule's outcome, decided by the match's VP
/// (`burraco_ratings::match_outcomes`), stored as its code (`won`, `draw`, `lost`).
pub use burraco_ratings::MatchOutcome as Outcome;

/// The key of a guest's rows: its session's player id, which only its resume token finds
/// (`GET /api/session/matches`), so no page lists a guest's games to anyone else.
pub fn guest_key(player: &str) -> String {
    format!("guest:{player}")
}

/// One seat's share of a finished match. The side's figures (burraco, closings, pozzetti) are
/// the partnership's in a 4-player match: a hand record scores sides, not seats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedMatch {
    /// The account's id, or [`guest_key`] of a guest's player id.
    pub account: String,
    pub table: String,
    /// The table's match number (1: a table plays one match).
    pub match_no: u32,
    /// The seat's code, `N` `E` `S` `W`.
    pub seat: String,
    /// The name the table showed for the seat.
    pub name: String,
    pub category: Category,
    /// The partner's account id and name (4-player, when the partner was signed in).
    pub partner: Option<(String, String)>,
    /// The opponents' names as the table showed them.
    pub opponents: Vec<String>,
    pub outcome: Outcome,
    /// Victory points for and against; `None` for a match by points played to its target.
    pub vp: Option<[i64; 2]>,
    /// The match's totals for and against.
    pub points: [i64; 2],
    pub hands: i64,
    pub burraco: i64,
    pub closings: i64,
    /// Hands in which this side took its pozzetto before the other side took theirs.
    pub pozzetti_first: i64,
    pub duration_ms: i64,
    pub finished_ms: i64,
    pub tournament: Option<String>,
}

/// An account's figures in one category, summed over its matches.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CategoryTotals {
    pub matches: i64,
    pub won: i64,
    pub drawn: i64,
    /// The matches scored in VP (the average's denominator) and their VP.
    pub vp_matches: i64,
    pub vp_for: i64,
    pub hands: i64,
    pub burraco: i64,
    pub closings: i64,
    pub pozzetti_first: i64,
}

impl CategoryTotals {
    /// What one more match adds.
    pub fn add(&mut self, row: &PlayedMatch) {
        self.matches += 1;
        self.won += i64::from(row.outcome == Outcome::Won);
        self.drawn += i64::from(row.outcome == Outcome::Draw);
        if let Some([vp, _]) = row.vp {
            self.vp_matches += 1;
            self.vp_for += vp;
        }
        self.hands += row.hands;
        self.burraco += row.burraco;
        self.closings += row.closings;
        self.pozzetti_first += row.pozzetti_first;
    }
}

/// A partner an account played 4-player matches with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartnerTotals {
    pub partner: String,
    /// The partner's name at the latest match together.
    pub name: String,
    pub matches: i64,
    pub won: i64,
}

/// An account's matches in one tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentTotals {
    pub tournament: String,
    pub matches: i64,
    pub won: i64,
    pub vp_for: i64,
    pub last_ms: i64,
}

/// Where a page of recent matches goes on: the last row's (finished, table).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    pub finished_ms: i64,
    pub table: String,
}

impl Cursor {
    pub fn of(row: &PlayedMatch) -> Cursor {
        Cursor {
            finished_ms: row.finished_ms,
            table: row.table.clone(),
        }
    }

    /// `<finished_ms>.<table>`, as the API writes it.
    pub fn to_text(&self) -> String {
        format!("{}.{}", self.finished_ms, self.table)
    }

    pub fn parse(text: &str) -> Option<Cursor> {
        let (ms, table) = text.split_once('.')?;
        let valid = !table.is_empty()
            && table.len() <= 64
            && table
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-');
        valid.then_some(())?;
        Some(Cursor {
            finished_ms: ms.parse().ok()?,
            table: table.to_owned(),
        })
    }
}

/// The index's storage.
pub trait PlayerIndex: Send + Sync + std::fmt::Debug {
    /// Writes each row not written yet (its key: table, match, seat) and adds it to its
    /// account's totals, partners and tournaments, all in one transaction; returns how many
    /// were new (a retry writes none).
    fn record<'a>(&'a self, rows: &'a [PlayedMatch]) -> PortFuture<'a, Result<u64, PortError>>;
    /// The account's totals per category (a category it never played is missing).
    fn totals<'a>(
        &'a self,
        account: &'a str,
    ) -> PortFuture<'a, Result<Vec<(Category, CategoryTotals)>, PortError>>;
    /// The account's matches, newest first, strictly before `before` when given, at most
    /// `limit`.
    fn recent<'a>(
        &'a self,
        account: &'a str,
        before: Option<&'a Cursor>,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<PlayedMatch>, PortError>>;
    /// The account's partners, most matches together first, at most `limit`.
    fn partners<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<PartnerTotals>, PortError>>;
    /// The tournaments the account played matches of, latest first, at most `limit`.
    fn tournaments<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<TournamentTotals>, PortError>>;
}

/// No index: a cluster started without `--database-url`. Matches are not indexed, and every
/// read fails (the page answers `players_unavailable`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Unconfigured;

fn off<T: Send + 'static>() -> PortFuture<'static, Result<T, PortError>> {
    Box::pin(async {
        Err(PortError(
            "the players' index needs --database-url in a cluster".into(),
        ))
    })
}

impl PlayerIndex for Unconfigured {
    /// Nothing to keep the rows in, by configuration: not an error worth retrying.
    fn record<'a>(&'a self, _: &'a [PlayedMatch]) -> PortFuture<'a, Result<u64, PortError>> {
        Box::pin(async { Ok(0) })
    }
    fn totals<'a>(
        &'a self,
        _: &'a str,
    ) -> PortFuture<'a, Result<Vec<(Category, CategoryTotals)>, PortError>> {
        off()
    }
    fn recent<'a>(
        &'a self,
        _: &'a str,
        _: Option<&'a Cursor>,
        _: u32,
    ) -> PortFuture<'a, Result<Vec<PlayedMatch>, PortError>> {
        off()
    }
    fn partners<'a>(
        &'a self,
        _: &'a str,
        _: u32,
    ) -> PortFuture<'a, Result<Vec<PartnerTotals>, PortError>> {
        off()
    }
    fn tournaments<'a>(
        &'a self,
        _: &'a str,
        _: u32,
    ) -> PortFuture<'a, Result<Vec<TournamentTotals>, PortError>> {
        off()
    }
}

/// The index this server uses, on the accounts' store (opened after it: the accounts'
/// migrations create its tables).
pub async fn open(
    config: &crate::config::ServerConfig,
    store: &crate::store::Store,
    database: Option<&crate::store::postgres::Database>,
) -> Result<Arc<dyn PlayerIndex>, PortError> {
    Ok(match (database, &config.cluster) {
        (Some(db), _) => Arc::new(postgres::PostgresPlayers::new(db)),
        (None, None) => Arc::new(sqlite::SqlitePlayers::open(store)?),
        (None, Some(_)) => Arc::new(Unconfigured),
    })
}

/// Writes a finished match's rows, read from its table's log (the one account of each seat is
/// there): one of the match-end projections (`crate::projections`), run again after a crash, so
/// a row already written (its key: table, match, seat) is not written twice. `finished_ms`: the
/// match's end, as its pending row holds it. `left`: the seats whose players left the match
/// (fair play's outcome `left`, from the table's fold: the projections judge it once for every
/// reader), each a loss. Returns how many rows were new.
pub async fn index_log(
    index: &dyn PlayerIndex,
    table: &str,
    entries: &[Vec<u8>],
    finished_ms: i64,
    left: &[u8],
) -> Result<u64, PortError> {
    let decoded: Vec<_> = entries
        .iter()
        .filter_map(|bytes| burraco_protocol::log::TableEntry::decode(bytes).ok())
        .collect();
    let rows = stats::played_matches(table, &decoded, finished_ms, left);
    if rows.is_empty() {
        return Ok(0);
    }
    index.record(&rows).await
}
