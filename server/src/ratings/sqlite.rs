//! Ratings in the embedded store's SQLite file (one node), beside the accounts (their
//! migrations create the tables: `accounts::MIGRATIONS` versions 4, 9 and 15). A connection of its own on
//! the blocking pool; every write transaction is `IMMEDIATE`, since the log's writer and the
//! accounts write the same file (a deferred one that read first would fail at once with
//! "database is locked" when another committed in between).

use std::collections::HashMap;

use burraco_ratings::{Category, Rating};
use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};

use super::{
    Applied, Change, FinishedMatch, HistoryPoint, Pending, Policy, RatingRow, Ratings, Stored,
    Subject, WeeklyRow, decide, subjects,
};
use crate::port::{PortError, PortFuture};
use crate::store::Store;
use crate::store::blocking::{BlockingConnection, OnBlockingConnection};

#[derive(Debug, Clone)]
pub struct SqliteRatings {
    conn: BlockingConnection,
}

impl OnBlockingConnection for SqliteRatings {
    fn connection(&self) -> &BlockingConnection {
        &self.conn
    }
}

impl SqliteRatings {
    /// Opens the ratings' tables in `store`'s file (the accounts' migrations made them).
    pub fn open(store: &Store) -> Result<SqliteRatings, PortError> {
        Ok(SqliteRatings {
            conn: BlockingConnection::open(store)?,
        })
    }

    /// On a file whose accounts' migrations ran (`SqliteAccounts::open_dir` first): tests.
    pub fn open_dir(dir: &std::path::Path) -> Result<SqliteRatings, PortError> {
        Ok(SqliteRatings {
            conn: BlockingConnection::open_dir(dir)?,
        })
    }
}

fn category(text: &str) -> Category {
    Category::parse(text).unwrap_or(Category::Two)
}

fn subject_of(category_text: &str, a: String, b: Option<String>) -> Subject {
    Subject {
        category: category(category_text),
        members: std::iter::once(a).chain(b).collect(),
    }
}

fn stored_of(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<Stored> {
    Ok(Stored {
        rating: Rating {
            rating: r.get(at)?,
            deviation: r.get(at + 1)?,
            volatility: r.get(at + 2)?,
        },
        matches: r.get(at + 3)?,
        last_ms: r.get(at + 4)?,
    })
}

fn current(tx: &Transaction<'_>, wanted: &[Subject]) -> rusqlite::Result<HashMap<Subject, Stored>> {
    let mut out = HashMap::new();
    let mut stmt = tx.prepare_cached(
        "SELECT rating, deviation, volatility, matches, last_ms FROM ratings
         WHERE subject = ?1 AND category = ?2",
    )?;
    for subject in wanted {
        if let Some(stored) = stmt
            .query_row(params![subject.key(), subject.category.as_str()], |r| {
                stored_of(r, 0)
            })
            .optional()?
        {
            out.insert(subject.clone(), stored);
        }
    }
    Ok(out)
}

fn write_change(
    tx: &Transaction<'_>,
    key: &str,
    now_ms: i64,
    change: &Change,
) -> rusqlite::Result<()> {
    let s = &change.subject;
    let r = change.after;
    tx.prepare_cached(
        "INSERT INTO ratings (subject, category, member_a, member_b, bot, rating, deviation,
            volatility, matches, last_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 1, ?9)
         ON CONFLICT (subject, category) DO UPDATE SET rating = excluded.rating,
            deviation = excluded.deviation, volatility = excluded.volatility,
            matches = ratings.matches + 1, last_ms = excluded.last_ms, bot = excluded.bot",
    )?
    .execute(params![
        s.key(),
        s.category.as_str(),
        s.members[0],
        s.members.get(1),
        change.bot,
        r.rating,
        r.deviation,
        r.volatility,
        now_ms
    ])?;
    tx.prepare_cached(
        "INSERT INTO rating_history (subject, category, match_key, at_ms, bot, rating_before,
            rating, deviation) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        s.key(),
        s.category.as_str(),
        key,
        now_ms,
        change.bot,
        change.before.rating,
        r.rating,
        r.deviation
    ])?;
    tx.prepare_cached(
        "INSERT INTO rating_weeks (week_ms, category, subject, bot, gain, matches)
         VALUES (?1, ?2, ?3, ?4, ?5, 1)
         ON CONFLICT (week_ms, category, subject) DO UPDATE SET
            gain = rating_weeks.gain + excluded.gain, matches = rating_weeks.matches + 1,
            bot = excluded.bot",
    )?
    .execute(params![
        super::weekly::week_of(now_ms),
        s.category.as_str(),
        s.key(),
        change.bot,
        r.rating - change.before.rating
    ])?;
    Ok(())
}

fn apply(conn: &mut Connection, m: &FinishedMatch, policy: Policy) -> rusqlite::Result<Applied> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let done: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM rated_matches WHERE match_key = ?1)",
        [&m.key],
        |r| r.get(0),
    )?;
    if done {
        tx.commit()?;
        return Ok(Applied::AlreadyApplied);
    }
    let players = m.players_key();
    let rated_today: u32 = tx.query_row(
        "SELECT COUNT(*) FROM rated_matches WHERE players = ?1 AND at_ms > ?2 AND rated",
        params![players, policy.now_ms - 86_400_000],
        |r| r.get(0),
    )?;
    let wanted = subjects(m);
    let stored = current(&tx, &wanted)?;
    let decided = decide(m, policy, rated_today, &stored);
    tx.execute(
        "INSERT INTO rated_matches (match_key, category, players, at_ms, rated, reason)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            m.key,
            m.category.as_str(),
            players,
            policy.now_ms,
            decided.is_ok(),
            decided.as_ref().err().map(|why| why.as_str())
        ],
    )?;
    if let Ok(changes) = &decided {
        for change in changes {
            write_change(&tx, &m.key, policy.now_ms, change)?;
        }
        // The season's points in the same transaction: awarded exactly when rated.
        crate::seasons::sqlite::award_in(&tx, &crate::seasons::match_award(m, policy.now_ms))?;
    }
    tx.commit()?;
    Ok(match decided {
        Ok(changes) => Applied::Rated(changes),
        Err(why) => Applied::NotRated(why),
    })
}

/// The weekly board's read (`?1` the week, `?2` the category, `?3` bots, `?4` the rows): walks
/// the week's index `rating_weeks_board` from the top, no scan of the week's results and no sort
/// (the conformance suite reads its plan), then a row of `ratings` and the names by key.
pub const WEEKLY_BOARD: &str = "SELECT w.subject, w.gain, w.matches,
        r.rating, r.member_a, r.member_b,
        COALESCE(a.username, r.member_a), COALESCE(b.username, r.member_b)
     FROM rating_weeks w INDEXED BY rating_weeks_board
     JOIN ratings r ON r.subject = w.subject AND r.category = w.category
     LEFT JOIN accounts a ON a.id = r.member_a
     LEFT JOIN accounts b ON b.id = r.member_b
     WHERE w.week_ms = ?1 AND w.category = ?2 AND w.bot = ?3
     ORDER BY w.gain DESC, w.subject LIMIT ?4";

const ROW_COLUMNS: &str = "r.category, r.member_a, r.member_b, r.bot, r.rating, r.deviation, \
     r.volatility, r.matches, r.last_ms, COALESCE(a.username, r.member_a), \
     COALESCE(b.username, r.member_b)";

const ROW_JOINS: &str = "LEFT JOIN accounts a ON a.id = r.member_a \
     LEFT JOIN accounts b ON b.id = r.member_b";

fn rating_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RatingRow> {
    let category_text: String = r.get(0)?;
    let member_b: Option<String> = r.get(2)?;
    let name_b: Option<String> = r.get(10)?;
    Ok(RatingRow {
        subject: subject_of(&category_text, r.get(1)?, member_b),
        bot: r.get(3)?,
        rating: Rating {
            rating: r.get(4)?,
            deviation: r.get(5)?,
            volatility: r.get(6)?,
        },
        matches: r.get(7)?,
        last_ms: r.get(8)?,
        names: std::iter::once(r.get(9)?).chain(name_b).collect(),
    })
}

impl Ratings for SqliteRatings {
    fn expect<'a>(&'a self, key: &'a str, at_ms: i64) -> PortFuture<'a, Result<(), PortError>> {
        let key = key.to_owned();
        Box::pin(self.with(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute(
                "INSERT INTO rated_pending (match_key, since_ms) VALUES (?1, ?2)
                 ON CONFLICT (match_key) DO NOTHING",
                params![key, at_ms],
            )?;
            tx.commit()
        }))
    }

    fn ended<'a>(&'a self, key: &'a str, ended_ms: i64) -> PortFuture<'a, Result<(), PortError>> {
        let key = key.to_owned();
        Box::pin(self.with(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute(
                "INSERT INTO rated_pending (match_key, since_ms, ended_ms) VALUES (?1, ?2, ?2)
                 ON CONFLICT (match_key) DO UPDATE
                 SET ended_ms = COALESCE(rated_pending.ended_ms, excluded.ended_ms)",
                params![key, ended_ms],
            )?;
            tx.commit()
        }))
    }

    fn expected(&self, limit: u32) -> PortFuture<'_, Result<Vec<Pending>, PortError>> {
        Box::pin(self.with(move |conn| {
            conn.prepare_cached(
                "SELECT match_key, ended_ms FROM rated_pending
                 ORDER BY since_ms, match_key LIMIT ?1",
            )?
            .query_map([limit], |r| {
                Ok(Pending {
                    key: r.get(0)?,
                    ended_ms: r.get(1)?,
                })
            })?
            .collect()
        }))
    }

    fn forget<'a>(&'a self, key: &'a str) -> PortFuture<'a, Result<(), PortError>> {
        let key = key.to_owned();
        Box::pin(self.with(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute("DELETE FROM rated_pending WHERE match_key = ?1", [key])?;
            tx.commit()
        }))
    }

    fn apply<'a>(
        &'a self,
        m: &'a FinishedMatch,
        policy: Policy,
    ) -> PortFuture<'a, Result<Applied, PortError>> {
        let m = m.clone();
        Box::pin(self.with(move |conn| apply(conn, &m, policy)))
    }

    fn ratings<'a>(
        &'a self,
        subjects: &'a [Subject],
    ) -> PortFuture<'a, Result<HashMap<Subject, Stored>, PortError>> {
        let subjects = subjects.to_vec();
        Box::pin(self.with(move |conn| {
            let tx = conn.transaction()?;
            let out = current(&tx, &subjects)?;
            tx.commit()?;
            Ok(out)
        }))
    }

    fn ratings_of<'a>(
        &'a self,
        account: &'a str,
    ) -> PortFuture<'a, Result<Vec<RatingRow>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            conn.prepare(&format!(
                "SELECT {ROW_COLUMNS} FROM ratings r {ROW_JOINS}
                 WHERE r.member_a = ?1 OR r.member_b = ?1 ORDER BY r.category, r.subject"
            ))?
            .query_map([account], rating_row)?
            .collect()
        }))
    }

    fn history<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<HistoryPoint>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            let mut points: Vec<HistoryPoint> = conn
                .prepare_cached(
                    "SELECT category, match_key, at_ms, rating_before, rating, deviation
                     FROM rating_history WHERE subject = ?1
                     ORDER BY at_ms DESC, match_key DESC LIMIT ?2",
                )?
                .query_map(params![account, limit], |r| {
                    Ok(HistoryPoint {
                        category: category(&r.get::<_, String>(0)?),
                        key: r.get(1)?,
                        at_ms: r.get(2)?,
                        before: r.get(3)?,
                        rating: r.get(4)?,
                        deviation: r.get(5)?,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
            points.reverse();
            Ok(points)
        }))
    }

    fn leaderboard<'a>(
        &'a self,
        category: Category,
        bots: bool,
        active_since_ms: i64,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<RatingRow>, PortError>> {
        Box::pin(self.with(move |conn| {
            // Walks the index (category, bot, rating) from the top, skipping the provisional
            // and the inactive: no scan of the table, no sort.
            conn.prepare_cached(&format!(
                "SELECT {ROW_COLUMNS} FROM ratings r INDEXED BY ratings_board {ROW_JOINS}
                 WHERE r.category = ?1 AND r.bot = ?2 AND r.deviation < ?3 AND r.last_ms >= ?4
                 ORDER BY r.rating DESC LIMIT ?5"
            ))?
            .query_map(
                params![
                    category.as_str(),
                    bots,
                    burraco_ratings::glicko2::PROVISIONAL_DEVIATION,
                    active_since_ms,
                    limit
                ],
                rating_row,
            )?
            .collect()
        }))
    }

    fn weekly<'a>(
        &'a self,
        category: Category,
        bots: bool,
        week_ms: i64,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<WeeklyRow>, PortError>> {
        Box::pin(self.with(move |conn| {
            conn.prepare_cached(WEEKLY_BOARD)?
                .query_map(params![week_ms, category.as_str(), bots, limit], |r| {
                    let member_b: Option<String> = r.get(5)?;
                    let name_b: Option<String> = r.get(7)?;
                    Ok(WeeklyRow {
                        subject: Subject {
                            category,
                            members: std::iter::once(r.get(4)?).chain(member_b).collect(),
                        },
                        gain: r.get(1)?,
                        matches: r.get(2)?,
                        rating: r.get(3)?,
                        names: std::iter::once(r.get(6)?).chain(name_b).collect(),
                    })
                })?
                .collect()
        }))
    }

    fn match_applied<'a>(
        &'a self,
        key: &'a str,
    ) -> PortFuture<'a, Result<Option<bool>, PortError>> {
        let key = key.to_owned();
        Box::pin(self.with(move |conn| {
            conn.prepare_cached("SELECT rated FROM rated_matches WHERE match_key = ?1")?
                .query_row([key], |r| r.get(0))
                .optional()
        }))
    }
}

/// Ratings switched off: a cluster without `--database-url`. Every call fails, so rated
/// tables cannot be created (guests and casual play go on).
#[derive(Debug, Clone, Copy, Default)]
pub struct Unconfigured;

fn off<T: Send + 'static>() -> PortFuture<'static, Result<T, PortError>> {
    Box::pin(async { Err(PortError("ratings need --database-url in a cluster".into())) })
}

impl Ratings for Unconfigured {
    fn available(&self) -> bool {
        false
    }
    fn expect<'a>(&'a self, _: &'a str, _: i64) -> PortFuture<'a, Result<(), PortError>> {
        off()
    }
    fn ended<'a>(&'a self, _: &'a str, _: i64) -> PortFuture<'a, Result<(), PortError>> {
        off()
    }
    fn expected(&self, _: u32) -> PortFuture<'_, Result<Vec<Pending>, PortError>> {
        off()
    }
    fn forget<'a>(&'a self, _: &'a str) -> PortFuture<'a, Result<(), PortError>> {
        off()
    }
    fn apply<'a>(
        &'a self,
        _: &'a FinishedMatch,
        _: Policy,
    ) -> PortFuture<'a, Result<Applied, PortError>> {
        off()
    }
    fn ratings<'a>(
        &'a self,
        _: &'a [Subject],
    ) -> PortFuture<'a, Result<HashMap<Subject, Stored>, PortError>> {
        off()
    }
    fn ratings_of<'a>(&'a self, _: &'a str) -> PortFuture<'a, Result<Vec<RatingRow>, PortError>> {
        off()
    }
    fn history<'a>(
        &'a self,
        _: &'a str,
        _: u32,
    ) -> PortFuture<'a, Result<Vec<HistoryPoint>, PortError>> {
        off()
    }
    fn leaderboard<'a>(
        &'a self,
        _: Category,
        _: bool,
        _: i64,
        _: u32,
    ) -> PortFuture<'a, Result<Vec<RatingRow>, PortError>> {
        off()
    }
    fn weekly<'a>(
        &'a self,
        _: Category,
        _: bool,
        _: i64,
        _: u32,
    ) -> PortFuture<'a, Result<Vec<WeeklyRow>, PortError>> {
        off()
    }
    fn match_applied<'a>(&'a self, _: &'a str) -> PortFuture<'a, Result<Option<bool>, PortError>> {
        off()
    }
}
