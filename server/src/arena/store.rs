//! The arena's own storage: each arena match made (who played whom, when), for the daily cap,
//! the leaderboard's list of bots and a bot account's matches in play (told again after its
//! welcome); a void match is taken out. The ratings themselves are the ratings' store's (the bots'
//! pool, category `two`). Tables of the accounts' migration 11 ([`MIGRATION`]), on the SQLite
//! file of one node or on PostgreSQL; a cluster without a database URL has no arena.

use std::sync::Arc;

use rusqlite::params;

use crate::port::{PortError, PortFuture};
use crate::store::blocking::{BlockingConnection, OnBlockingConnection};
use crate::store::postgres::{Database, OnDatabase, port};

/// The accounts' migration 11: a row per arena match, indexed by each side and time (the daily
/// cap counts a bot's matches of the last 24 hours). `bot_b` is a bot account's id or a server
/// bot's anchor (`server-bot:L2`).
pub const MIGRATION: &str = "CREATE TABLE arena_matches (
        arena_id TEXT PRIMARY KEY,
        bot_a TEXT NOT NULL,
        name_a TEXT NOT NULL,
        bot_b TEXT NOT NULL,
        name_b TEXT NOT NULL,
        created_ms BIGINT NOT NULL);
     CREATE INDEX arena_matches_a ON arena_matches (bot_a, created_ms);
     CREATE INDEX arena_matches_b ON arena_matches (bot_b, created_ms);";

/// An arena match as made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MadeMatch {
    pub arena: String,
    pub bot_a: String,
    pub name_a: String,
    pub bot_b: String,
    pub name_b: String,
    pub created_ms: i64,
}

/// The arena's storage.
pub trait ArenaStore: Send + Sync + std::fmt::Debug {
    /// Records a match made (before its tables are created: it counts at once).
    fn record<'a>(&'a self, made: &'a MadeMatch) -> PortFuture<'a, Result<(), PortError>>;
    /// The matches `account` was made since `since_ms`, on either side.
    fn matches_since<'a>(
        &'a self,
        account: &'a str,
        since_ms: i64,
    ) -> PortFuture<'a, Result<u32, PortError>>;
    /// Every bot account that was ever matched, with the name it had then: (id, name).
    fn bots(&self) -> PortFuture<'_, Result<Vec<(String, String)>, PortError>>;
    /// The matches `account` was made since `since_ms`, on either side, oldest first: those
    /// still in play are told again after its welcome (`super::reclaim`).
    fn matches_of<'a>(
        &'a self,
        account: &'a str,
        since_ms: i64,
    ) -> PortFuture<'a, Result<Vec<MadeMatch>, PortError>>;
    /// A match void (nobody came to a table): it no longer counts toward either bot's daily
    /// cap. Idempotent.
    fn void<'a>(&'a self, arena: &'a str) -> PortFuture<'a, Result<(), PortError>>;
}

const MATCHES_OF: &str =
    "SELECT arena_id, bot_a, name_a, bot_b, name_b, created_ms FROM arena_matches
     WHERE bot_a = ?1 AND created_ms > ?2
     UNION SELECT arena_id, bot_a, name_a, bot_b, name_b, created_ms FROM arena_matches
     WHERE bot_b = ?1 AND created_ms > ?2
     ORDER BY created_ms";

/// The arena's store this server uses: the accounts' store's kind.
pub async fn open(
    config: &crate::config::ServerConfig,
    store: &crate::store::Store,
    database: Option<&Database>,
) -> Result<Arc<dyn ArenaStore>, PortError> {
    // The accounts opened first and applied their migrations, this one included.
    Ok(match (database, &config.cluster) {
        (Some(db), _) => Arc::new(PostgresArena { db: db.clone() }),
        (None, None) => Arc::new(SqliteArena {
            conn: BlockingConnection::open(store)?,
        }),
        (None, Some(_)) => Arc::new(Unconfigured),
    })
}

const BOTS: &str = "SELECT bot_a, name_a FROM arena_matches
     UNION SELECT bot_b, name_b FROM arena_matches WHERE bot_b NOT LIKE 'server-bot:%'";

/// On the embedded store's SQLite file (one node).
#[derive(Debug, Clone)]
pub struct SqliteArena {
    conn: BlockingConnection,
}

impl OnBlockingConnection for SqliteArena {
    fn connection(&self) -> &BlockingConnection {
        &self.conn
    }
}

impl ArenaStore for SqliteArena {
    fn record<'a>(&'a self, made: &'a MadeMatch) -> PortFuture<'a, Result<(), PortError>> {
        let m = made.clone();
        Box::pin(self.with(move |conn| {
            conn.execute(
                "INSERT INTO arena_matches (arena_id, bot_a, name_a, bot_b, name_b, created_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (arena_id) DO NOTHING",
                params![m.arena, m.bot_a, m.name_a, m.bot_b, m.name_b, m.created_ms],
            )
            .map(|_| ())
        }))
    }

    fn matches_since<'a>(
        &'a self,
        account: &'a str,
        since_ms: i64,
    ) -> PortFuture<'a, Result<u32, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            conn.query_row(
                "SELECT (SELECT COUNT(*) FROM arena_matches WHERE bot_a = ?1 AND created_ms > ?2)
                      + (SELECT COUNT(*) FROM arena_matches WHERE bot_b = ?1 AND created_ms > ?2)",
                params![account, since_ms],
                |r| r.get(0),
            )
        }))
    }

    fn bots(&self) -> PortFuture<'_, Result<Vec<(String, String)>, PortError>> {
        Box::pin(self.with(|conn| {
            conn.prepare(BOTS)?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect()
        }))
    }

    fn matches_of<'a>(
        &'a self,
        account: &'a str,
        since_ms: i64,
    ) -> PortFuture<'a, Result<Vec<MadeMatch>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            conn.prepare(MATCHES_OF)?
                .query_map(params![account, since_ms], |r| {
                    Ok(MadeMatch {
                        arena: r.get(0)?,
                        bot_a: r.get(1)?,
                        name_a: r.get(2)?,
                        bot_b: r.get(3)?,
                        name_b: r.get(4)?,
                        created_ms: r.get(5)?,
                    })
                })?
                .collect()
        }))
    }

    fn void<'a>(&'a self, arena: &'a str) -> PortFuture<'a, Result<(), PortError>> {
        let arena = arena.to_owned();
        Box::pin(self.with(move |conn| {
            conn.execute(
                "DELETE FROM arena_matches WHERE arena_id = ?1",
                params![arena],
            )
            .map(|_| ())
        }))
    }
}

/// On PostgreSQL (`--database-url`), shared by a cluster's nodes.
#[derive(Debug, Clone)]
pub struct PostgresArena {
    db: Database,
}

impl OnDatabase for PostgresArena {
    fn database(&self) -> &Database {
        &self.db
    }
}

impl ArenaStore for PostgresArena {
    fn record<'a>(&'a self, m: &'a MadeMatch) -> PortFuture<'a, Result<(), PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            client
                .execute(
                    "INSERT INTO arena_matches (arena_id, bot_a, name_a, bot_b, name_b, created_ms)
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (arena_id) DO NOTHING",
                    &[
                        &m.arena,
                        &m.bot_a,
                        &m.name_a,
                        &m.bot_b,
                        &m.name_b,
                        &m.created_ms,
                    ],
                )
                .await
                .map_err(port)?;
            Ok(())
        })
    }

    fn matches_since<'a>(
        &'a self,
        account: &'a str,
        since_ms: i64,
    ) -> PortFuture<'a, Result<u32, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let row = client
                .query_one(
                    "SELECT COUNT(*) FROM arena_matches
                     WHERE (bot_a = $1 OR bot_b = $1) AND created_ms > $2",
                    &[&account, &since_ms],
                )
                .await
                .map_err(port)?;
            let count: i64 = row.get(0);
            Ok(u32::try_from(count).unwrap_or(u32::MAX))
        })
    }

    fn bots(&self) -> PortFuture<'_, Result<Vec<(String, String)>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client.query(BOTS, &[]).await.map_err(port)?;
            Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
        })
    }

    fn matches_of<'a>(
        &'a self,
        account: &'a str,
        since_ms: i64,
    ) -> PortFuture<'a, Result<Vec<MadeMatch>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    "SELECT arena_id, bot_a, name_a, bot_b, name_b, created_ms FROM arena_matches
                     WHERE (bot_a = $1 OR bot_b = $1) AND created_ms > $2 ORDER BY created_ms",
                    &[&account, &since_ms],
                )
                .await
                .map_err(port)?;
            Ok(rows
                .iter()
                .map(|r| MadeMatch {
                    arena: r.get(0),
                    bot_a: r.get(1),
                    name_a: r.get(2),
                    bot_b: r.get(3),
                    name_b: r.get(4),
                    created_ms: r.get(5),
                })
                .collect())
        })
    }

    fn void<'a>(&'a self, arena: &'a str) -> PortFuture<'a, Result<(), PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            client
                .execute("DELETE FROM arena_matches WHERE arena_id = $1", &[&arena])
                .await
                .map_err(port)?;
            Ok(())
        })
    }
}

/// A cluster without a database URL: no arena (every call refused).
#[derive(Debug, Clone, Copy)]
pub struct Unconfigured;

fn off<T: Send + 'static>() -> PortFuture<'static, Result<T, PortError>> {
    Box::pin(async {
        Err(PortError(
            "the arena needs --database-url in a cluster".into(),
        ))
    })
}

impl ArenaStore for Unconfigured {
    fn record<'a>(&'a self, _: &'a MadeMatch) -> PortFuture<'a, Result<(), PortError>> {
        off()
    }
    fn matches_since<'a>(&'a self, _: &'a str, _: i64) -> PortFuture<'a, Result<u32, PortError>> {
        off()
    }
    fn bots(&self) -> PortFuture<'_, Result<Vec<(String, String)>, PortError>> {
        off()
    }
    fn matches_of<'a>(
        &'a self,
        _: &'a str,
        _: i64,
    ) -> PortFuture<'a, Result<Vec<MadeMatch>, PortError>> {
        off()
    }
    fn void<'a>(&'a self, _: &'a str) -> PortFuture<'a, Result<(), PortError>> {
        off()
    }
}
