//! The players' index in the embedded store's SQLite file (one node), beside the accounts: a
//! connection of its own on the blocking pool. A match's rows and the sums they add to are one
//! write transaction that takes the write lock when it begins (`Immediate`): the table log's
//! writer and the accounts write the same file, and a deferred transaction that read first
//! would fail with `database is locked` when one of them committed in between.

use rusqlite::{Row, Transaction, params};

use super::{
    Category, CategoryTotals, Cursor, Outcome, PartnerTotals, PlayedMatch, PlayerIndex,
    TournamentTotals,
};
use crate::port::{PortError, PortFuture};
use crate::store::Store;
use crate::store::blocking::{BlockingConnection, OnBlockingConnection};

#[derive(Debug, Clone)]
pub struct SqlitePlayers {
    conn: BlockingConnection,
}

impl OnBlockingConnection for SqlitePlayers {
    fn connection(&self) -> &BlockingConnection {
        &self.conn
    }
}

impl SqlitePlayers {
    /// The index's tables in `store`'s file (created by the accounts' migrations, which
    /// [`crate::accounts::sqlite::SqliteAccounts::open`] applies first).
    pub fn open(store: &Store) -> Result<SqlitePlayers, PortError> {
        Ok(SqlitePlayers {
            conn: BlockingConnection::open(store)?,
        })
    }
}

pub(super) const MATCH_COLUMNS: &str = "account_id, table_id, match_no, seat, name, category, \
     partner_id, partner_name, opponents, outcome, vp_for, vp_against, points_for, \
     points_against, hands, burraco, closings, pozzetti_first, duration_ms, finished_ms, \
     tournament_id";

/// A stored row that does not read (an unknown category or outcome) is a corrupt store.
fn bad_value(what: &str) -> rusqlite::Error {
    rusqlite::Error::InvalidColumnType(0, what.into(), rusqlite::types::Type::Text)
}

fn played(r: &Row<'_>) -> rusqlite::Result<PlayedMatch> {
    let partner: Option<String> = r.get(6)?;
    let partner_name: Option<String> = r.get(7)?;
    let opponents: String = r.get(8)?;
    let vp_for: Option<i64> = r.get(10)?;
    let vp_against: Option<i64> = r.get(11)?;
    Ok(PlayedMatch {
        account: r.get(0)?,
        table: r.get(1)?,
        match_no: r.get(2)?,
        seat: r.get(3)?,
        name: r.get(4)?,
        category: Category::parse(&r.get::<_, String>(5)?).ok_or_else(|| bad_value("category"))?,
        partner: partner.zip(partner_name),
        opponents: serde_json::from_str(&opponents).unwrap_or_default(),
        outcome: Outcome::parse(&r.get::<_, String>(9)?).ok_or_else(|| bad_value("outcome"))?,
        vp: vp_for.zip(vp_against).map(|(f, a)| [f, a]),
        points: [r.get(12)?, r.get(13)?],
        hands: r.get(14)?,
        burraco: r.get(15)?,
        closings: r.get(16)?,
        pozzetti_first: r.get(17)?,
        duration_ms: r.get(18)?,
        finished_ms: r.get(19)?,
        tournament: r.get(20)?,
    })
}

/// Writes `row` unless written; when new, adds it to its account's sums. True when new.
fn record_one(tx: &Transaction<'_>, row: &PlayedMatch) -> rusqlite::Result<bool> {
    let opponents = serde_json::to_string(&row.opponents).unwrap_or_else(|_| "[]".into());
    let new = tx.execute(
        &format!(
            "INSERT INTO player_matches ({MATCH_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, \
             ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21) \
             ON CONFLICT DO NOTHING"
        ),
        params![
            row.account,
            row.table,
            row.match_no,
            row.seat,
            row.name,
            row.category.as_str(),
            row.partner.as_ref().map(|p| &p.0),
            row.partner.as_ref().map(|p| &p.1),
            opponents,
            row.outcome.as_str(),
            row.vp.map(|v| v[0]),
            row.vp.map(|v| v[1]),
            row.points[0],
            row.points[1],
            row.hands,
            row.burraco,
            row.closings,
            row.pozzetti_first,
            row.duration_ms,
            row.finished_ms,
            row.tournament,
        ],
    )? == 1;
    if !new {
        return Ok(false);
    }
    let mut add = CategoryTotals::default();
    add.add(row);
    tx.execute(
        "INSERT INTO player_totals (account_id, category, matches, won, drawn, vp_matches, \
         vp_for, hands, burraco, closings, pozzetti_first) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) \
         ON CONFLICT (account_id, category) DO UPDATE SET \
         matches = matches + excluded.matches, won = won + excluded.won, \
         drawn = drawn + excluded.drawn, vp_matches = vp_matches + excluded.vp_matches, \
         vp_for = vp_for + excluded.vp_for, hands = hands + excluded.hands, \
         burraco = burraco + excluded.burraco, closings = closings + excluded.closings, \
         pozzetti_first = pozzetti_first + excluded.pozzetti_first",
        params![
            row.account,
            row.category.as_str(),
            add.matches,
            add.won,
            add.drawn,
            add.vp_matches,
            add.vp_for,
            add.hands,
            add.burraco,
            add.closings,
            add.pozzetti_first,
        ],
    )?;
    if let Some((partner, name)) = &row.partner {
        tx.execute(
            "INSERT INTO player_partners (account_id, partner_id, partner_name, matches, won) \
             VALUES (?1, ?2, ?3, 1, ?4) ON CONFLICT (account_id, partner_id) DO UPDATE SET \
             partner_name = excluded.partner_name, matches = matches + 1, \
             won = won + excluded.won",
            params![row.account, partner, name, add.won],
        )?;
    }
    if let Some(tournament) = &row.tournament {
        tx.execute(
            "INSERT INTO player_tournaments (account_id, tournament_id, matches, won, vp_for, \
             last_ms) VALUES (?1, ?2, 1, ?3, ?4, ?5) \
             ON CONFLICT (account_id, tournament_id) DO UPDATE SET matches = matches + 1, \
             won = won + excluded.won, vp_for = vp_for + excluded.vp_for, \
             last_ms = max(last_ms, excluded.last_ms)",
            params![
                row.account,
                tournament,
                add.won,
                add.vp_for,
                row.finished_ms
            ],
        )?;
    }
    Ok(true)
}

impl PlayerIndex for SqlitePlayers {
    fn record<'a>(&'a self, rows: &'a [PlayedMatch]) -> PortFuture<'a, Result<u64, PortError>> {
        let rows = rows.to_vec();
        Box::pin(self.with(move |conn| {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let mut new = 0;
            for row in &rows {
                new += u64::from(record_one(&tx, row)?);
            }
            tx.commit()?;
            Ok(new)
        }))
    }

    fn totals<'a>(
        &'a self,
        account: &'a str,
    ) -> PortFuture<'a, Result<Vec<(Category, CategoryTotals)>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT category, matches, won, drawn, vp_matches, vp_for, hands, burraco, \
                 closings, pozzetti_first FROM player_totals WHERE account_id = ?1 \
                 ORDER BY category DESC",
            )?;
            let rows = stmt.query_map([account], |r| {
                let category = Category::parse(&r.get::<_, String>(0)?)
                    .ok_or_else(|| bad_value("category"))?;
                Ok((
                    category,
                    CategoryTotals {
                        matches: r.get(1)?,
                        won: r.get(2)?,
                        drawn: r.get(3)?,
                        vp_matches: r.get(4)?,
                        vp_for: r.get(5)?,
                        hands: r.get(6)?,
                        burraco: r.get(7)?,
                        closings: r.get(8)?,
                        pozzetti_first: r.get(9)?,
                    },
                ))
            })?;
            rows.collect()
        }))
    }

    fn recent<'a>(
        &'a self,
        account: &'a str,
        before: Option<&'a Cursor>,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<PlayedMatch>, PortError>> {
        let account = account.to_owned();
        let before = before.cloned();
        Box::pin(self.with(move |conn| {
            // Newest first along `player_matches_recent`: the first page from the top, the
            // next ones from strictly below the cursor (a row value: a range of the index).
            match before {
                None => {
                    let mut stmt = conn.prepare_cached(&format!(
                        "SELECT {MATCH_COLUMNS} FROM player_matches WHERE account_id = ?1 \
                         ORDER BY finished_ms DESC, table_id DESC LIMIT ?2"
                    ))?;
                    stmt.query_map(params![account, limit], played)?
                        .collect::<rusqlite::Result<Vec<_>>>()
                }
                Some(c) => {
                    let mut stmt = conn.prepare_cached(&format!(
                        "SELECT {MATCH_COLUMNS} FROM player_matches WHERE account_id = ?1 \
                         AND (finished_ms, table_id) < (?2, ?3) \
                         ORDER BY finished_ms DESC, table_id DESC LIMIT ?4"
                    ))?;
                    stmt.query_map(params![account, c.finished_ms, c.table, limit], played)?
                        .collect::<rusqlite::Result<Vec<_>>>()
                }
            }
        }))
    }

    fn partners<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<PartnerTotals>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT partner_id, partner_name, matches, won FROM player_partners \
                 WHERE account_id = ?1 ORDER BY matches DESC, won DESC, partner_id LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![account, limit], |r| {
                Ok(PartnerTotals {
                    partner: r.get(0)?,
                    name: r.get(1)?,
                    matches: r.get(2)?,
                    won: r.get(3)?,
                })
            })?;
            rows.collect()
        }))
    }

    fn tournaments<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<TournamentTotals>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT tournament_id, matches, won, vp_for, last_ms FROM player_tournaments \
                 WHERE account_id = ?1 ORDER BY last_ms DESC, tournament_id DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![account, limit], |r| {
                Ok(TournamentTotals {
                    tournament: r.get(0)?,
                    matches: r.get(1)?,
                    won: r.get(2)?,
                    vp_for: r.get(3)?,
                    last_ms: r.get(4)?,
                })
            })?;
            rows.collect()
        }))
    }
}
