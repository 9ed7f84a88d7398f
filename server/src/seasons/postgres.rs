//! Seasons in PostgreSQL (`--database-url`), shared by a cluster's nodes: the accounts'
//! migration 8. A rated match's points are written by the ratings' own transaction through
//! [`award_in`]; a tournament's by [`Seasons::award`], in its own. Exactly once across nodes:
//! the award's key is inserted first (`ON CONFLICT DO NOTHING`), so a second node awarding the
//! same key at once waits on its unique index, then adds nothing.

use burraco_ratings::Category;
use deadpool_postgres::GenericClient;

use super::{Award, LadderRow, Season, Seasons};
use crate::port::{PortError, PortFuture};
use crate::ratings::finished::Subject;
use crate::store::postgres::{Database, OnDatabase, port};

#[derive(Debug, Clone)]
pub struct PostgresSeasons {
    db: Database,
}

impl OnDatabase for PostgresSeasons {
    fn database(&self) -> &Database {
        &self.db
    }
}

impl PostgresSeasons {
    /// The seasons in `db` (the accounts' migrations, applied when they opened, made the tables).
    pub fn new(db: &Database) -> PostgresSeasons {
        PostgresSeasons { db: db.clone() }
    }
}

/// Adds `award` inside `tx`, unless its key is stored already; whether it was new.
pub async fn award_in(tx: &impl GenericClient, award: &Award) -> Result<bool, PortError> {
    let season = award.season.id();
    let inserted = tx
        .execute(
            "INSERT INTO season_awards (award_key, season, at_ms) VALUES ($1, $2, $3)
             ON CONFLICT (award_key) DO NOTHING",
            &[&award.key, &season, &award.at_ms],
        )
        .await
        .map_err(port)?;
    if inserted == 0 {
        return Ok(false);
    }
    for row in &award.rows {
        let s = &row.subject;
        tx.execute(
            "INSERT INTO season_points (season, category, subject, member_a, member_b, bot,
                points, matches, last_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (season, category, subject) DO UPDATE SET
                points = season_points.points + excluded.points,
                matches = season_points.matches + excluded.matches,
                last_ms = excluded.last_ms, bot = excluded.bot",
            &[
                &season,
                &s.category.as_str(),
                &s.key(),
                &s.members[0],
                &s.members.get(1),
                &row.bot,
                &row.points,
                &row.matches,
                &award.at_ms,
            ],
        )
        .await
        .map_err(port)?;
    }
    Ok(true)
}

const ROW_COLUMNS: &str = "p.category, p.member_a, p.member_b, p.bot, p.points, p.matches, \
     COALESCE(a.username, p.member_a), COALESCE(b.username, p.member_b)";

const ROW_JOINS: &str = "LEFT JOIN accounts a ON a.id = p.member_a \
     LEFT JOIN accounts b ON b.id = p.member_b";

fn ladder_row(row: &tokio_postgres::Row) -> LadderRow {
    let member_b: Option<String> = row.get(2);
    let name_b: Option<String> = row.get(7);
    LadderRow {
        subject: Subject {
            category: Category::parse(row.get(0)).unwrap_or(Category::Two),
            members: std::iter::once(row.get(1)).chain(member_b).collect(),
        },
        bot: row.get(3),
        points: row.get(4),
        matches: row.get(5),
        names: std::iter::once(row.get(6)).chain(name_b).collect(),
    }
}

impl Seasons for PostgresSeasons {
    fn award<'a>(&'a self, award: &'a Award) -> PortFuture<'a, Result<bool, PortError>> {
        Box::pin(async move {
            let mut client = self.client().await?;
            let tx = client.transaction().await.map_err(port)?;
            let new = award_in(&tx, award).await?;
            tx.commit().await.map_err(port)?;
            Ok(new)
        })
    }

    fn awarded<'a>(&'a self, key: &'a str) -> PortFuture<'a, Result<bool, PortError>> {
        Box::pin(async move {
            let row = self
                .client()
                .await?
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM season_awards WHERE award_key = $1)",
                    &[&key],
                )
                .await
                .map_err(port)?;
            Ok(row.get(0))
        })
    }

    fn seasons(&self) -> PortFuture<'_, Result<Vec<Season>, PortError>> {
        Box::pin(async move {
            let rows = self
                .client()
                .await?
                .query("SELECT DISTINCT season FROM season_awards", &[])
                .await
                .map_err(port)?;
            let mut seasons: Vec<Season> = rows
                .iter()
                .filter_map(|r| Season::parse(r.get(0)))
                .collect();
            seasons.sort_unstable_by(|a, b| b.cmp(a));
            Ok(seasons)
        })
    }

    fn ladder<'a>(
        &'a self,
        season: Season,
        category: Category,
        bots: bool,
        limit: u32,
        offset: u32,
    ) -> PortFuture<'a, Result<Vec<LadderRow>, PortError>> {
        Box::pin(async move {
            let rows = self
                .client()
                .await?
                .query(
                    &format!(
                        "SELECT {ROW_COLUMNS} FROM season_points p {ROW_JOINS}
                         WHERE p.season = $1 AND p.category = $2 AND p.bot = $3
                         ORDER BY p.points DESC, p.matches, p.subject LIMIT $4 OFFSET $5"
                    ),
                    &[
                        &season.id(),
                        &category.as_str(),
                        &bots,
                        &i64::from(limit),
                        &i64::from(offset),
                    ],
                )
                .await
                .map_err(port)?;
            Ok(rows.iter().map(ladder_row).collect())
        })
    }

    fn points_of<'a>(
        &'a self,
        season: Season,
        account: &'a str,
    ) -> PortFuture<'a, Result<Vec<LadderRow>, PortError>> {
        Box::pin(async move {
            let rows = self
                .client()
                .await?
                .query(
                    &format!(
                        "SELECT {ROW_COLUMNS} FROM season_points p {ROW_JOINS}
                         WHERE p.season = $1 AND (p.member_a = $2 OR p.member_b = $2)
                         ORDER BY p.category, p.subject"
                    ),
                    &[&season.id(), &account],
                )
                .await
                .map_err(port)?;
            Ok(rows.iter().map(ladder_row).collect())
        })
    }
}
