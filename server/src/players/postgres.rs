//! The players' index in PostgreSQL (`--database-url`): what the nodes of a cluster share, in
//! the node's one pool; the tables are the accounts' migration 5, which
//! [`crate::accounts::postgres::PostgresAccounts::open`] applies first. A match's rows and
//! their sums are one transaction; two nodes writing the same match (a takeover's retry) meet
//! at the primary key, and the second writes nothing.

use tokio_postgres::types::ToSql;

use super::sqlite::MATCH_COLUMNS;
use super::{
    Category, CategoryTotals, Cursor, Outcome, PartnerTotals, PlayedMatch, PlayerIndex,
    TournamentTotals,
};
use crate::port::{PortError, PortFuture};
use crate::store::postgres::{Database, OnDatabase, port};

/// A query parameter (an array's first one named so, the others coerce to it).
type Param<'a> = &'a (dyn ToSql + Sync);

#[derive(Debug, Clone)]
pub struct PostgresPlayers {
    db: Database,
}

impl OnDatabase for PostgresPlayers {
    fn database(&self) -> &Database {
        &self.db
    }
}

impl PostgresPlayers {
    /// The index in `db` (the accounts' migrations, applied when they opened, made the tables).
    pub fn new(db: &Database) -> PostgresPlayers {
        PostgresPlayers { db: db.clone() }
    }
}

/// A stored row that does not read is a corrupt store: refused, not guessed.
fn played(row: &tokio_postgres::Row) -> Result<PlayedMatch, PortError> {
    let partner: Option<String> = row.get(6);
    let partner_name: Option<String> = row.get(7);
    let opponents: String = row.get(8);
    let vp_for: Option<i64> = row.get(10);
    let vp_against: Option<i64> = row.get(11);
    let match_no: i64 = row.get(2);
    Ok(PlayedMatch {
        account: row.get(0),
        table: row.get(1),
        match_no: u32::try_from(match_no).map_err(port)?,
        seat: row.get(3),
        name: row.get(4),
        category: Category::parse(row.get(5)).ok_or_else(|| port("a stored category"))?,
        partner: partner.zip(partner_name),
        opponents: serde_json::from_str(&opponents).unwrap_or_default(),
        outcome: Outcome::parse(row.get(9)).ok_or_else(|| port("a stored outcome"))?,
        vp: vp_for.zip(vp_against).map(|(f, a)| [f, a]),
        points: [row.get(12), row.get(13)],
        hands: row.get(14),
        burraco: row.get(15),
        closings: row.get(16),
        pozzetti_first: row.get(17),
        duration_ms: row.get(18),
        finished_ms: row.get(19),
        tournament: row.get(20),
    })
}

async fn record_one(
    tx: &deadpool_postgres::Transaction<'_>,
    row: &PlayedMatch,
) -> Result<bool, PortError> {
    let opponents = serde_json::to_string(&row.opponents).unwrap_or_else(|_| "[]".into());
    let partner_id = row.partner.as_ref().map(|p| p.0.clone());
    let partner_name = row.partner.as_ref().map(|p| p.1.clone());
    let vp_for = row.vp.map(|v| v[0]);
    let vp_against = row.vp.map(|v| v[1]);
    let new = tx
        .execute(
            &format!(
                "INSERT INTO player_matches ({MATCH_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, \
                 $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21) \
                 ON CONFLICT DO NOTHING"
            ),
            &[
                &row.account as Param,
                &row.table,
                &i64::from(row.match_no),
                &row.seat,
                &row.name,
                &row.category.as_str(),
                &partner_id,
                &partner_name,
                &opponents,
                &row.outcome.as_str(),
                &vp_for,
                &vp_against,
                &row.points[0],
                &row.points[1],
                &row.hands,
                &row.burraco,
                &row.closings,
                &row.pozzetti_first,
                &row.duration_ms,
                &row.finished_ms,
                &row.tournament,
            ],
        )
        .await
        .map_err(port)?
        == 1;
    if !new {
        return Ok(false);
    }
    let mut add = CategoryTotals::default();
    add.add(row);
    tx.execute(
        "INSERT INTO player_totals AS t (account_id, category, matches, won, drawn, vp_matches, \
         vp_for, hands, burraco, closings, pozzetti_first) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
         ON CONFLICT (account_id, category) DO UPDATE SET \
         matches = t.matches + excluded.matches, won = t.won + excluded.won, \
         drawn = t.drawn + excluded.drawn, vp_matches = t.vp_matches + excluded.vp_matches, \
         vp_for = t.vp_for + excluded.vp_for, hands = t.hands + excluded.hands, \
         burraco = t.burraco + excluded.burraco, closings = t.closings + excluded.closings, \
         pozzetti_first = t.pozzetti_first + excluded.pozzetti_first",
        &[
            &row.account as Param,
            &row.category.as_str(),
            &add.matches,
            &add.won,
            &add.drawn,
            &add.vp_matches,
            &add.vp_for,
            &add.hands,
            &add.burraco,
            &add.closings,
            &add.pozzetti_first,
        ],
    )
    .await
    .map_err(port)?;
    if let Some((partner, name)) = &row.partner {
        tx.execute(
            "INSERT INTO player_partners AS p (account_id, partner_id, partner_name, matches, won) \
             VALUES ($1, $2, $3, 1, $4) ON CONFLICT (account_id, partner_id) DO UPDATE SET \
             partner_name = excluded.partner_name, matches = p.matches + 1, \
             won = p.won + excluded.won",
            &[&row.account as Param, partner, name, &add.won],
        )
        .await
        .map_err(port)?;
    }
    if let Some(tournament) = &row.tournament {
        tx.execute(
            "INSERT INTO player_tournaments AS p (account_id, tournament_id, matches, won, \
             vp_for, last_ms) VALUES ($1, $2, 1, $3, $4, $5) \
             ON CONFLICT (account_id, tournament_id) DO UPDATE SET matches = p.matches + 1, \
             won = p.won + excluded.won, vp_for = p.vp_for + excluded.vp_for, \
             last_ms = GREATEST(p.last_ms, excluded.last_ms)",
            &[
                &row.account as Param,
                tournament,
                &add.won,
                &add.vp_for,
                &row.finished_ms,
            ],
        )
        .await
        .map_err(port)?;
    }
    Ok(true)
}

impl PlayerIndex for PostgresPlayers {
    fn record<'a>(&'a self, rows: &'a [PlayedMatch]) -> PortFuture<'a, Result<u64, PortError>> {
        Box::pin(async move {
            let mut client = self.client().await?;
            let tx = client.transaction().await.map_err(port)?;
            let mut new = 0;
            for row in rows {
                new += u64::from(record_one(&tx, row).await?);
            }
            tx.commit().await.map_err(port)?;
            Ok(new)
        })
    }

    fn totals<'a>(
        &'a self,
        account: &'a str,
    ) -> PortFuture<'a, Result<Vec<(Category, CategoryTotals)>, PortError>> {
        Box::pin(async move {
            let rows = self
                .client()
                .await?
                .query(
                    "SELECT category, matches, won, drawn, vp_matches, vp_for, hands, burraco, \
                     closings, pozzetti_first FROM player_totals WHERE account_id = $1 \
                     ORDER BY category DESC",
                    &[&account],
                )
                .await
                .map_err(port)?;
            rows.iter()
                .map(|r| {
                    let category =
                        Category::parse(r.get(0)).ok_or_else(|| port("a stored category"))?;
                    Ok((
                        category,
                        CategoryTotals {
                            matches: r.get(1),
                            won: r.get(2),
                            drawn: r.get(3),
                            vp_matches: r.get(4),
                            vp_for: r.get(5),
                            hands: r.get(6),
                            burraco: r.get(7),
                            closings: r.get(8),
                            pozzetti_first: r.get(9),
                        },
                    ))
                })
                .collect()
        })
    }

    fn recent<'a>(
        &'a self,
        account: &'a str,
        before: Option<&'a Cursor>,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<PlayedMatch>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let limit = i64::from(limit);
            let rows =
                match before {
                    None => client
                        .query(
                            &format!(
                                "SELECT {MATCH_COLUMNS} FROM player_matches WHERE account_id = $1 \
                             ORDER BY finished_ms DESC, table_id DESC LIMIT $2"
                            ),
                            &[&account as Param, &limit],
                        )
                        .await,
                    Some(c) => client
                        .query(
                            &format!(
                                "SELECT {MATCH_COLUMNS} FROM player_matches WHERE account_id = $1 \
                             AND (finished_ms, table_id) < ($2, $3) \
                             ORDER BY finished_ms DESC, table_id DESC LIMIT $4"
                            ),
                            &[&account as Param, &c.finished_ms, &c.table, &limit],
                        )
                        .await,
                }
                .map_err(port)?;
            rows.iter().map(played).collect()
        })
    }

    fn partners<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<PartnerTotals>, PortError>> {
        Box::pin(async move {
            let rows = self
                .client()
                .await?
                .query(
                    "SELECT partner_id, partner_name, matches, won FROM player_partners \
                     WHERE account_id = $1 ORDER BY matches DESC, won DESC, partner_id LIMIT $2",
                    &[&account as Param, &i64::from(limit)],
                )
                .await
                .map_err(port)?;
            Ok(rows
                .iter()
                .map(|r| PartnerTotals {
                    partner: r.get(0),
                    name: r.get(1),
                    matches: r.get(2),
                    won: r.get(3),
                })
                .collect())
        })
    }

    fn tournaments<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<TournamentTotals>, PortError>> {
        Box::pin(async move {
            let rows = self
                .client()
                .await?
                .query(
                    "SELECT tournament_id, matches, won, vp_for, last_ms FROM player_tournaments \
                     WHERE account_id = $1 ORDER BY last_ms DESC, tournament_id DESC LIMIT $2",
                    &[&account as Param, &i64::from(limit)],
                )
                .await
                .map_err(port)?;
            Ok(rows
                .iter()
                .map(|r| TournamentTotals {
                    tournament: r.get(0),
                    matches: r.get(1),
                    won: r.get(2),
                    vp_for: r.get(3),
                    last_ms: r.get(4),
                })
                .collect())
        })
    }
}
