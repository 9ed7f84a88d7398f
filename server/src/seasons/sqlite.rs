//! Seasons in the embedded store's SQLite file (one node), beside the ratings (the accounts'
//! migration 8 makes the tables). A rated match's points are written by the ratings' own
//! transaction through [`award_in`]; a tournament's by [`Seasons::award`], in its own.

use burraco_ratings::Category;
use rusqlite::{Transaction, TransactionBehavior, params};

use super::{Award, LadderRow, Season, Seasons};
use crate::port::{PortError, PortFuture};
use crate::ratings::finished::Subject;
use crate::store::Store;
use crate::store::blocking::{BlockingConnection, OnBlockingConnection};

#[derive(Debug, Clone)]
pub struct SqliteSeasons {
    conn: BlockingConnection,
}

impl OnBlockingConnection for SqliteSeasons {
    fn connection(&self) -> &BlockingConnection {
        &self.conn
    }
}

impl SqliteSeasons {
    /// Opens the seasons' tables in `store`'s file (the accounts' migrations made them).
    pub fn open(store: &Store) -> Result<SqliteSeasons, PortError> {
        Ok(SqliteSeasons {
            conn: BlockingConnection::open(store)?,
        })
    }
}

/// Adds `award` inside `tx`, unless its key is stored already; whether it was new.
pub fn award_in(tx: &Transaction<'_>, award: &Award) -> rusqlite::Result<bool> {
    let season = award.season.id();
    let inserted = tx
        .prepare_cached(
            "INSERT INTO season_awards (award_key, season, at_ms) VALUES (?1, ?2, ?3)
             ON CONFLICT (award_key) DO NOTHING",
        )?
        .execute(params![award.key, season, award.at_ms])?;
    if inserted == 0 {
        return Ok(false);
    }
    let mut stmt = tx.prepare_cached(
        "INSERT INTO season_points (season, category, subject, member_a, member_b, bot, points,
            matches, last_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT (season, category, subject) DO UPDATE SET
            points = season_points.points + excluded.points,
            matches = season_points.matches + excluded.matches,
            last_ms = excluded.last_ms, bot = excluded.bot",
    )?;
    for row in &award.rows {
        let s = &row.subject;
        stmt.execute(params![
            season,
            s.category.as_str(),
            s.key(),
            s.members[0],
            s.members.get(1),
            row.bot,
            row.points,
            row.matches,
            award.at_ms
        ])?;
    }
    Ok(true)
}

const ROW_COLUMNS: &str = "p.category, p.member_a, p.member_b, p.bot, p.points, p.matches, \
     COALESCE(a.username, p.member_a), COALESCE(b.username, p.member_b)";

const ROW_JOINS: &str = "LEFT JOIN accounts a ON a.id = p.member_a \
     LEFT JOIN accounts b ON b.id = p.member_b";

fn ladder_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<LadderRow> {
    let category_text: String = r.get(0)?;
    let member_b: Option<String> = r.get(2)?;
    let name_b: Option<String> = r.get(7)?;
    Ok(LadderRow {
        subject: Subject {
            category: Category::parse(&category_text).unwrap_or(Category::Two),
            members: std::iter::once(r.get(1)?).chain(member_b).collect(),
        },
        bot: r.get(3)?,
        points: r.get(4)?,
        matches: r.get(5)?,
        names: std::iter::once(r.get(6)?).chain(name_b).collect(),
    })
}

impl Seasons for SqliteSeasons {
    fn award<'a>(&'a self, award: &'a Award) -> PortFuture<'a, Result<bool, PortError>> {
        let award = award.clone();
        Box::pin(self.with(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let new = award_in(&tx, &award)?;
            tx.commit()?;
            Ok(new)
        }))
    }

    fn awarded<'a>(&'a self, key: &'a str) -> PortFuture<'a, Result<bool, PortError>> {
        let key = key.to_owned();
        Box::pin(self.with(move |conn| {
            conn.prepare_cached("SELECT EXISTS (SELECT 1 FROM season_awards WHERE award_key = ?1)")?
                .query_row([key], |r| r.get(0))
        }))
    }

    fn seasons(&self) -> PortFuture<'_, Result<Vec<Season>, PortError>> {
        Box::pin(self.with(|conn| {
            let ids: Vec<String> = conn
                .prepare_cached("SELECT DISTINCT season FROM season_awards")?
                .query_map([], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            let mut seasons: Vec<Season> = ids.iter().filter_map(|id| Season::parse(id)).collect();
            seasons.sort_unstable_by(|a, b| b.cmp(a));
            Ok(seasons)
        }))
    }

    fn ladder<'a>(
        &'a self,
        season: Season,
        category: Category,
        bots: bool,
        limit: u32,
        offset: u32,
    ) -> PortFuture<'a, Result<Vec<LadderRow>, PortError>> {
        Box::pin(self.with(move |conn| {
            // Walks the index (season, category, bot, points) from the top.
            conn.prepare_cached(&format!(
                "SELECT {ROW_COLUMNS} FROM season_points p {ROW_JOINS}
                 WHERE p.season = ?1 AND p.category = ?2 AND p.bot = ?3
                 ORDER BY p.points DESC, p.matches, p.subject LIMIT ?4 OFFSET ?5"
            ))?
            .query_map(
                params![season.id(), category.as_str(), bots, limit, offset],
                ladder_row,
            )?
            .collect()
        }))
    }

    fn points_of<'a>(
        &'a self,
        season: Season,
        account: &'a str,
    ) -> PortFuture<'a, Result<Vec<LadderRow>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            conn.prepare_cached(&format!(
                "SELECT {ROW_COLUMNS} FROM season_points p {ROW_JOINS}
                 WHERE p.season = ?1 AND (p.member_a = ?2 OR p.member_b = ?2)
                 ORDER BY p.category, p.subject"
            ))?
            .query_map(params![season.id(), account], ladder_row)?
            .collect()
        }))
    }
}

/// Seasons switched off: a cluster without `--database-url` (as the ratings are).
#[derive(Debug, Clone, Copy, Default)]
pub struct Unconfigured;

fn off<T: Send + 'static>() -> PortFuture<'static, Result<T, PortError>> {
    Box::pin(async { Err(PortError("seasons need --database-url in a cluster".into())) })
}

impl Seasons for Unconfigured {
    fn award<'a>(&'a self, _: &'a Award) -> PortFuture<'a, Result<bool, PortError>> {
        off()
    }
    fn awarded<'a>(&'a self, _: &'a str) -> PortFuture<'a, Result<bool, PortError>> {
        off()
    }
    fn seasons(&self) -> PortFuture<'_, Result<Vec<Season>, PortError>> {
        off()
    }
    fn ladder<'a>(
        &'a self,
        _: Season,
        _: Category,
        _: bool,
        _: u32,
        _: u32,
    ) -> PortFuture<'a, Result<Vec<LadderRow>, PortError>> {
        off()
    }
    fn points_of<'a>(
        &'a self,
        _: Season,
        _: &'a str,
    ) -> PortFuture<'a, Result<Vec<LadderRow>, PortError>> {
        off()
    }
}
