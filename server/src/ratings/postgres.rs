//! Ratings in PostgreSQL (`--database-url`): what the nodes of a cluster share. The tables are
//! the accounts' migrations 4, 9 and 13 (run by `PostgresAccounts::open` under its advisory
//! lock).
//!
//! Exactly once across nodes: [`Ratings::apply`] inserts the match's key first (`ON CONFLICT DO
//! NOTHING`); a second node applying the same match at the same time waits on the key's unique
//! index until the first commits, then finds it and changes nothing. The ratings it reads are
//! locked (`FOR UPDATE`) so two matches of one player in parallel do not lose an update.

use std::collections::HashMap;

use burraco_ratings::{Category, Rating};

use super::{
    Applied, FinishedMatch, HistoryPoint, Pending, Policy, RatingRow, Ratings, Stored, Subject,
    WeeklyRow, decide, subjects,
};
use crate::port::{PortError, PortFuture};
use crate::store::postgres::{Database, OnDatabase, port, unstorable};

#[derive(Debug, Clone)]
pub struct PostgresRatings {
    db: Database,
}

impl OnDatabase for PostgresRatings {
    fn database(&self) -> &Database {
        &self.db
    }
}

impl PostgresRatings {
    /// The ratings in `db` (the accounts' migrations, applied when they opened, made the tables).
    pub fn new(db: &Database) -> PostgresRatings {
        PostgresRatings { db: db.clone() }
    }
}

fn category(text: &str) -> Category {
    Category::parse(text).unwrap_or(Category::Two)
}

const ROW_COLUMNS: &str = "r.category, r.member_a, r.member_b, r.bot, r.rating, r.deviation, \
     r.volatility, r.matches, r.last_ms, COALESCE(a.username, r.member_a), \
     COALESCE(b.username, r.member_b)";

const ROW_JOINS: &str = "LEFT JOIN accounts a ON a.id = r.member_a \
     LEFT JOIN accounts b ON b.id = r.member_b";

fn rating_row(row: &tokio_postgres::Row) -> RatingRow {
    let member_b: Option<String> = row.get(2);
    let name_b: Option<String> = row.get(10);
    RatingRow {
        subject: Subject {
            category: category(row.get(0)),
            members: std::iter::once(row.get(1)).chain(member_b).collect(),
        },
        bot: row.get(3),
        rating: Rating {
            rating: row.get(4),
            deviation: row.get(5),
            volatility: row.get(6),
        },
        matches: row.get(7),
        last_ms: row.get(8),
        names: std::iter::once(row.get(9)).chain(name_b).collect(),
    }
}

async fn current(
    client: &impl deadpool_postgres::GenericClient,
    wanted: &[Subject],
    lock: bool,
) -> Result<HashMap<Subject, Stored>, PortError> {
    let mut out = HashMap::new();
    let sql = format!(
        "SELECT rating, deviation, volatility, matches, last_ms FROM ratings
         WHERE subject = $1 AND category = $2{}",
        if lock { " FOR UPDATE" } else { "" }
    );
    for subject in wanted {
        if let Some(row) = client
            .query_opt(&sql, &[&subject.key(), &subject.category.as_str()])
            .await
            .map_err(port)?
        {
            out.insert(
                subject.clone(),
                Stored {
                    rating: Rating {
                        rating: row.get(0),
                        deviation: row.get(1),
                        volatility: row.get(2),
                    },
                    matches: row.get(3),
                    last_ms: row.get(4),
                },
            );
        }
    }
    Ok(out)
}

impl Ratings for PostgresRatings {
    fn expect<'a>(&'a self, key: &'a str, at_ms: i64) -> PortFuture<'a, Result<(), PortError>> {
        Box::pin(async move {
            self.client()
                .await?
                .execute(
                    "INSERT INTO rated_pending (match_key, since_ms) VALUES ($1, $2)
                     ON CONFLICT (match_key) DO NOTHING",
                    &[&key, &at_ms],
                )
                .await
                .map_err(port)?;
            Ok(())
        })
    }

    fn ended<'a>(&'a self, key: &'a str, ended_ms: i64) -> PortFuture<'a, Result<(), PortError>> {
        Box::pin(async move {
            self.client()
                .await?
                .execute(
                    "INSERT INTO rated_pending (match_key, since_ms, ended_ms) VALUES ($1, $2, $2)
                     ON CONFLICT (match_key) DO UPDATE
                     SET ended_ms = COALESCE(rated_pending.ended_ms, excluded.ended_ms)",
                    &[&key, &ended_ms],
                )
                .await
                .map_err(port)?;
            Ok(())
        })
    }

    fn expected(&self, limit: u32) -> PortFuture<'_, Result<Vec<Pending>, PortError>> {
        Box::pin(async move {
            let rows = self
                .client()
                .await?
                .query(
                    "SELECT match_key, ended_ms FROM rated_pending
                     ORDER BY since_ms, match_key LIMIT $1",
                    &[&i64::from(limit)],
                )
                .await
                .map_err(port)?;
            Ok(rows
                .iter()
                .map(|r| Pending {
                    key: r.get(0),
                    ended_ms: r.get(1),
                })
                .collect())
        })
    }

    fn forget<'a>(&'a self, key: &'a str) -> PortFuture<'a, Result<(), PortError>> {
        Box::pin(async move {
            self.client()
                .await?
                .execute("DELETE FROM rated_pending WHERE match_key = $1", &[&key])
                .await
                .map_err(port)?;
            Ok(())
        })
    }

    fn apply<'a>(
        &'a self,
        m: &'a FinishedMatch,
        policy: Policy,
    ) -> PortFuture<'a, Result<Applied, PortError>> {
        Box::pin(async move {
            let mut client = self.client().await?;
            let tx = client.transaction().await.map_err(port)?;
            let players = m.players_key();
            let inserted = tx
                .execute(
                    "INSERT INTO rated_matches (match_key, category, players, at_ms, rated)
                     VALUES ($1, $2, $3, $4, FALSE) ON CONFLICT (match_key) DO NOTHING",
                    &[&m.key, &m.category.as_str(), &players, &policy.now_ms],
                )
                .await
                .map_err(port)?;
            if inserted == 0 {
                tx.commit().await.map_err(port)?;
                return Ok(Applied::AlreadyApplied);
            }
            let rated_today: i64 = tx
                .query_one(
                    "SELECT COUNT(*) FROM rated_matches
                     WHERE players = $1 AND at_ms > $2 AND rated",
                    &[&players, &(policy.now_ms - 86_400_000)],
                )
                .await
                .map_err(port)?
                .get(0);
            let wanted = subjects(m);
            let stored = current(&tx, &wanted, true).await?;
            let decided = decide(
                m,
                policy,
                u32::try_from(rated_today).unwrap_or(u32::MAX),
                &stored,
            );
            tx.execute(
                "UPDATE rated_matches SET rated = $2, reason = $3 WHERE match_key = $1",
                &[
                    &m.key,
                    &decided.is_ok(),
                    &decided.as_ref().err().map(|why| why.as_str()),
                ],
            )
            .await
            .map_err(port)?;
            if let Ok(changes) = &decided {
                for change in changes {
                    let s = &change.subject;
                    let r = change.after;
                    tx.execute(
                        "INSERT INTO ratings (subject, category, member_a, member_b, bot, rating,
                            deviation, volatility, matches, last_ms)
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9)
                         ON CONFLICT (subject, category) DO UPDATE SET
                            rating = excluded.rating, deviation = excluded.deviation,
                            volatility = excluded.volatility, matches = ratings.matches + 1,
                            last_ms = excluded.last_ms, bot = excluded.bot",
                        &[
                            &s.key(),
                            &s.category.as_str(),
                            &s.members[0],
                            &s.members.get(1),
                            &change.bot,
                            &r.rating,
                            &r.deviation,
                            &r.volatility,
                            &policy.now_ms,
                        ],
                    )
                    .await
                    .map_err(port)?;
                    tx.execute(
                        "INSERT INTO rating_history (subject, category, match_key, at_ms, bot,
                            rating_before, rating, deviation)
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                        &[
                            &s.key(),
                            &s.category.as_str(),
                            &m.key,
                            &policy.now_ms,
                            &change.bot,
                            &change.before.rating,
                            &r.rating,
                            &r.deviation,
                        ],
                    )
                    .await
                    .map_err(port)?;
                    tx.execute(
                        "INSERT INTO rating_weeks (week_ms, category, subject, bot, gain, matches)
                         VALUES ($1, $2, $3, $4, $5, 1)
                         ON CONFLICT (week_ms, category, subject) DO UPDATE SET
                            gain = rating_weeks.gain + excluded.gain,
                            matches = rating_weeks.matches + 1, bot = excluded.bot",
                        &[
                            &super::weekly::week_of(policy.now_ms),
                            &s.category.as_str(),
                            &s.key(),
                            &change.bot,
                            &(r.rating - change.before.rating),
                        ],
                    )
                    .await
                    .map_err(port)?;
                }
                // The season's points in the same transaction: awarded exactly when rated.
                let award = crate::seasons::match_award(m, policy.now_ms);
                crate::seasons::postgres::award_in(&tx, &award).await?;
            }
            tx.commit().await.map_err(port)?;
            Ok(match decided {
                Ok(changes) => Applied::Rated(changes),
                Err(why) => Applied::NotRated(why),
            })
        })
    }

    fn ratings<'a>(
        &'a self,
        subjects: &'a [Subject],
    ) -> PortFuture<'a, Result<HashMap<Subject, Stored>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            current(&client, subjects, false).await
        })
    }

    fn ratings_of<'a>(
        &'a self,
        account: &'a str,
    ) -> PortFuture<'a, Result<Vec<RatingRow>, PortError>> {
        Box::pin(async move {
            if unstorable(account) {
                return Ok(Vec::new());
            }
            let rows = self
                .client()
                .await?
                .query(
                    &format!(
                        "SELECT {ROW_COLUMNS} FROM ratings r {ROW_JOINS}
                         WHERE r.member_a = $1 OR r.member_b = $1
                         ORDER BY r.category, r.subject"
                    ),
                    &[&account],
                )
                .await
                .map_err(port)?;
            Ok(rows.iter().map(rating_row).collect())
        })
    }

    fn history<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<HistoryPoint>, PortError>> {
        Box::pin(async move {
            if unstorable(account) {
                return Ok(Vec::new());
            }
            let rows = self
                .client()
                .await?
                .query(
                    "SELECT category, match_key, at_ms, rating_before, rating, deviation
                     FROM rating_history WHERE subject = $1
                     ORDER BY at_ms DESC, match_key DESC LIMIT $2",
                    &[&account, &i64::from(limit)],
                )
                .await
                .map_err(port)?;
            let mut points: Vec<HistoryPoint> = rows
                .iter()
                .map(|r| HistoryPoint {
                    category: category(r.get(0)),
                    key: r.get(1),
                    at_ms: r.get(2),
                    before: r.get(3),
                    rating: r.get(4),
                    deviation: r.get(5),
                })
                .collect();
            points.reverse();
            Ok(points)
        })
    }

    fn leaderboard<'a>(
        &'a self,
        category: Category,
        bots: bool,
        active_since_ms: i64,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<RatingRow>, PortError>> {
        Box::pin(async move {
            let rows = self
                .client()
                .await?
                .query(
                    &format!(
                        "SELECT {ROW_COLUMNS} FROM ratings r {ROW_JOINS}
                         WHERE r.category = $1 AND r.bot = $2 AND r.deviation < $3
                            AND r.last_ms >= $4
                         ORDER BY r.rating DESC LIMIT $5"
                    ),
                    &[
                        &category.as_str(),
                        &bots,
                        &burraco_ratings::glicko2::PROVISIONAL_DEVIATION,
                        &active_since_ms,
                        &i64::from(limit),
                    ],
                )
                .await
                .map_err(port)?;
            Ok(rows.iter().map(rating_row).collect())
        })
    }

    fn weekly<'a>(
        &'a self,
        category: Category,
        bots: bool,
        week_ms: i64,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<WeeklyRow>, PortError>> {
        Box::pin(async move {
            // The week's index from the top (`rating_weeks_board`), then a row of `ratings` and
            // the names by key for each of the `limit` rows.
            let rows = self
                .client()
                .await?
                .query(
                    "SELECT w.subject, w.gain, w.matches,
                        r.rating, r.member_a, r.member_b,
                        COALESCE(a.username, r.member_a), COALESCE(b.username, r.member_b)
                     FROM rating_weeks w
                     JOIN ratings r ON r.subject = w.subject AND r.category = w.category
                     LEFT JOIN accounts a ON a.id = r.member_a
                     LEFT JOIN accounts b ON b.id = r.member_b
                     WHERE w.week_ms = $1 AND w.category = $2 AND w.bot = $3
                     ORDER BY w.gain DESC, w.subject LIMIT $4",
                    &[&week_ms, &category.as_str(), &bots, &i64::from(limit)],
                )
                .await
                .map_err(port)?;
            Ok(rows
                .iter()
                .map(|r| {
                    let member_b: Option<String> = r.get(5);
                    let name_b: Option<String> = r.get(7);
                    WeeklyRow {
                        subject: Subject {
                            category,
                            members: std::iter::once(r.get(4)).chain(member_b).collect(),
                        },
                        gain: r.get(1),
                        matches: r.get(2),
                        rating: r.get(3),
                        names: std::iter::once(r.get(6)).chain(name_b).collect(),
                    }
                })
                .collect())
        })
    }

    fn match_applied<'a>(
        &'a self,
        key: &'a str,
    ) -> PortFuture<'a, Result<Option<bool>, PortError>> {
        Box::pin(async move {
            Ok(self
                .client()
                .await?
                .query_opt(
                    "SELECT rated FROM rated_matches WHERE match_key = $1",
                    &[&key],
                )
                .await
                .map_err(port)?
                .map(|r| r.get(0)))
        })
    }
}
