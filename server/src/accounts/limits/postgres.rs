//! The limits' counts in PostgreSQL, which every node shares: the keys' rows made if missing,
//! then locked (`FOR UPDATE`, in the keys' order) and written in one transaction, so an attempt
//! through one node waits for one through another and both are counted.

use std::sync::atomic::AtomicI64;
use std::time::Duration;

use super::{Counter, IDLE, Limit, Limits, Reserved, Settle, held_back, millis, prune_due, sorted};
use crate::accounts::postgres::PostgresAccounts;
use crate::port::{PortError, PortFuture};
use crate::store::postgres::{OnDatabase, port};

/// A query parameter (an array's first one named so, the others coerce to it).
type Param<'a> = &'a (dyn tokio_postgres::types::ToSql + Sync);

static LAST_PRUNE: AtomicI64 = AtomicI64::new(0);

fn counter(row: &tokio_postgres::Row) -> Counter {
    Counter {
        attempts: u32::try_from(row.get::<_, i64>(1)).unwrap_or(u32::MAX),
        locked_until_ms: row.get(2),
        last_ms: row.get(3),
    }
}

impl Limits for PostgresAccounts {
    fn reserve<'a>(
        &'a self,
        limits: &'a [Limit],
        now_ms: i64,
        base: Duration,
    ) -> PortFuture<'a, Result<Reserved, PortError>> {
        Box::pin(async move {
            let limits = sorted(limits);
            let keys: Vec<&str> = limits.iter().map(|l| l.key.as_str()).collect();
            let mut client = self.client().await?;
            // Held back: answered on a plain read, no row locked, so a burst's refusals do not
            // queue behind one another for the keys' rows.
            let locked = client
                .query(
                    "SELECT locked_until_ms FROM account_limits WHERE limit_key = ANY($1::text[])",
                    &[&keys],
                )
                .await
                .map_err(port)?;
            if let Some(wait) = held_back(locked.iter().map(|r| r.get::<_, i64>(0)), now_ms) {
                return Ok(Reserved::HeldBack { wait });
            }
            let tx = client.transaction().await.map_err(port)?;
            // A row to lock: a key never counted gets one, at no attempt (the rule counts).
            tx.execute(
                "INSERT INTO account_limits (limit_key, attempts, locked_until_ms, last_ms)
                 SELECT k, 0, 0, $2 FROM unnest($1::text[]) AS k ORDER BY k
                 ON CONFLICT (limit_key) DO NOTHING",
                &[&keys as Param, &now_ms],
            )
            .await
            .map_err(port)?;
            let rows = tx
                .query(
                    "SELECT limit_key, attempts, locked_until_ms, last_ms FROM account_limits
                     WHERE limit_key = ANY($1::text[]) ORDER BY limit_key FOR UPDATE",
                    &[&keys],
                )
                .await
                .map_err(port)?;
            let read: Vec<(u32, Option<Counter>)> = limits
                .iter()
                .map(|limit| {
                    let row = rows.iter().find(|r| r.get::<_, &str>(0) == limit.key);
                    (limit.free, row.map(counter))
                })
                .collect();
            let (reserved, counters) = super::reserve(&read, now_ms, base);
            if reserved == Reserved::Granted {
                let attempts: Vec<i64> = counters.iter().map(|c| i64::from(c.attempts)).collect();
                let locked: Vec<i64> = counters.iter().map(|c| c.locked_until_ms).collect();
                let last: Vec<i64> = counters.iter().map(|c| c.last_ms).collect();
                tx.execute(
                    "UPDATE account_limits AS l SET attempts = u.attempts,
                        locked_until_ms = u.locked, last_ms = u.last
                     FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[])
                        AS u (k, attempts, locked, last)
                     WHERE l.limit_key = u.k",
                    &[&keys as Param, &attempts, &locked, &last],
                )
                .await
                .map_err(port)?;
            }
            tx.commit().await.map_err(port)?;
            if prune_due(&LAST_PRUNE, now_ms) {
                // Rows another transaction holds are skipped, not waited for: no lock cycle.
                client
                    .execute(
                        "DELETE FROM account_limits WHERE limit_key IN (
                            SELECT limit_key FROM account_limits
                            WHERE last_ms <= $1 AND locked_until_ms <= $2
                            LIMIT 10000 FOR UPDATE SKIP LOCKED)",
                        &[&(now_ms - millis(IDLE)) as Param, &now_ms],
                    )
                    .await
                    .map_err(port)?;
            }
            Ok(reserved)
        })
    }

    fn settle<'a>(
        &'a self,
        settled: &'a [(Limit, Settle)],
    ) -> PortFuture<'a, Result<(), PortError>> {
        Box::pin(async move {
            let mut settled: Vec<&(Limit, Settle)> = settled.iter().collect();
            settled.sort_by(|a, b| a.0.key.cmp(&b.0.key));
            let mut client = self.client().await?;
            let tx = client.transaction().await.map_err(port)?;
            for (limit, settle) in settled {
                match settle {
                    Settle::Clear => {
                        tx.execute(
                            "DELETE FROM account_limits WHERE limit_key = $1",
                            &[&limit.key],
                        )
                        .await
                        .map_err(port)?;
                    }
                    Settle::Refund => {
                        let row = tx
                            .query_opt(
                                "SELECT limit_key, attempts, locked_until_ms, last_ms
                                 FROM account_limits WHERE limit_key = $1 FOR UPDATE",
                                &[&limit.key],
                            )
                            .await
                            .map_err(port)?;
                        if let Some(row) = row {
                            let c = super::refund(counter(&row), limit.free);
                            tx.execute(
                                "UPDATE account_limits SET attempts = $2, locked_until_ms = $3
                                 WHERE limit_key = $1",
                                &[
                                    &limit.key as Param,
                                    &i64::from(c.attempts),
                                    &c.locked_until_ms,
                                ],
                            )
                            .await
                            .map_err(port)?;
                        }
                    }
                }
            }
            tx.commit().await.map_err(port)
        })
    }
}
