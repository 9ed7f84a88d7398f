//! Outcomes and playbans in PostgreSQL (`--database-url`): what the nodes of a cluster share.
//! In the node's one pool; the accounts' migrations (run first, under their advisory lock) made
//! the tables.

use super::{FairPlay, Outcome, OutcomeRecord, Playban};
use crate::port::{PortError, PortFuture};
use crate::store::postgres::{Database, OnDatabase, port};

#[derive(Debug, Clone)]
pub struct PostgresFairPlay {
    db: Database,
}

impl OnDatabase for PostgresFairPlay {
    fn database(&self) -> &Database {
        &self.db
    }
}

impl PostgresFairPlay {
    /// Outcomes and playbans in `db` (the accounts' migrations, applied when they opened, made the tables).
    pub fn new(db: &Database) -> PostgresFairPlay {
        PostgresFairPlay { db: db.clone() }
    }
}

fn outcome_of(code: &str) -> Result<Outcome, PortError> {
    Outcome::from_code(code).ok_or_else(|| PortError(format!("unknown outcome {code:?}")))
}

impl FairPlay for PostgresFairPlay {
    fn record_outcome<'a>(
        &'a self,
        r: &'a OutcomeRecord,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        Box::pin(async move {
            let added = self
                .client()
                .await?
                .execute(
                    "INSERT INTO fairplay_outcomes (table_id, account_id, seat, outcome, at_ms)
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (table_id, account_id) DO NOTHING",
                    &[
                        &r.table,
                        &r.account,
                        &i32::from(r.seat),
                        &r.outcome.code(),
                        &r.at_ms,
                    ],
                )
                .await
                .map_err(port)?;
            Ok(added == 1)
        })
    }

    fn outcomes<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<OutcomeRecord>, PortError>> {
        Box::pin(async move {
            let rows = self
                .client()
                .await?
                .query(
                    "SELECT account_id, table_id, seat, outcome, at_ms FROM fairplay_outcomes
                     WHERE account_id = $1 ORDER BY at_ms DESC, table_id DESC LIMIT $2",
                    &[&account, &i64::from(limit)],
                )
                .await
                .map_err(port)?;
            rows.iter()
                .map(|row| {
                    Ok(OutcomeRecord {
                        account: row.get(0),
                        table: row.get(1),
                        seat: u8::try_from(row.get::<_, i32>(2)).map_err(port)?,
                        outcome: outcome_of(row.get(3))?,
                        at_ms: row.get(4),
                    })
                })
                .collect()
        })
    }

    fn add_ban<'a>(&'a self, b: &'a Playban) -> PortFuture<'a, Result<(), PortError>> {
        Box::pin(async move {
            self.client()
                .await?
                .execute(
                    "INSERT INTO fairplay_bans (account_id, start_ms, end_ms, reason)
                     VALUES ($1, $2, $3, $4) ON CONFLICT (account_id, start_ms) DO NOTHING",
                    &[&b.account, &b.start_ms, &b.end_ms, &b.reason],
                )
                .await
                .map_err(port)?;
            Ok(())
        })
    }

    fn bans<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<Playban>, PortError>> {
        Box::pin(async move {
            let rows = self
                .client()
                .await?
                .query(
                    "SELECT account_id, start_ms, end_ms, reason FROM fairplay_bans
                     WHERE account_id = $1 ORDER BY start_ms DESC LIMIT $2",
                    &[&account, &i64::from(limit)],
                )
                .await
                .map_err(port)?;
            Ok(rows
                .iter()
                .map(|row| Playban {
                    account: row.get(0),
                    start_ms: row.get(1),
                    end_ms: row.get(2),
                    reason: row.get(3),
                })
                .collect())
        })
    }
}
