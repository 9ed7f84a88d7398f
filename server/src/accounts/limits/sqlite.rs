//! The limits' counts in the SQLite file: a key's row read and written in one IMMEDIATE
//! transaction (the file's write lock: `burraco-server admin` and the game store's writer share
//! the file), so no other attempt is counted in between.

use std::sync::atomic::AtomicI64;
use std::time::Duration;

use rusqlite::{OptionalExtension, params};

use super::{Counter, IDLE, Limit, Limits, Reserved, Settle, held_back, millis, prune_due, sorted};
use crate::accounts::sqlite::SqliteAccounts;
use crate::port::{PortError, PortFuture};
use crate::store::blocking::OnBlockingConnection;

static LAST_PRUNE: AtomicI64 = AtomicI64::new(0);

fn stored(tx: &rusqlite::Transaction<'_>, key: &str) -> rusqlite::Result<Option<Counter>> {
    tx.prepare_cached(
        "SELECT attempts, locked_until_ms, last_ms FROM account_limits WHERE limit_key = ?1",
    )?
    .query_row([key], |r| {
        Ok(Counter {
            attempts: u32::try_from(r.get::<_, i64>(0)?).unwrap_or(u32::MAX),
            locked_until_ms: r.get(1)?,
            last_ms: r.get(2)?,
        })
    })
    .optional()
}

fn store(tx: &rusqlite::Transaction<'_>, key: &str, c: &Counter) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO account_limits (limit_key, attempts, locked_until_ms, last_ms)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (limit_key) DO UPDATE SET attempts = excluded.attempts,
            locked_until_ms = excluded.locked_until_ms, last_ms = excluded.last_ms",
    )?
    .execute(params![
        key,
        i64::from(c.attempts),
        c.locked_until_ms,
        c.last_ms
    ])?;
    Ok(())
}

impl Limits for SqliteAccounts {
    fn reserve<'a>(
        &'a self,
        limits: &'a [Limit],
        now_ms: i64,
        base: Duration,
    ) -> PortFuture<'a, Result<Reserved, PortError>> {
        let limits: Vec<Limit> = sorted(limits).into_iter().cloned().collect();
        Box::pin(self.with(move |conn| {
            // Held back: answered on a plain read, without the file's write lock.
            let mut locked = Vec::with_capacity(limits.len());
            for limit in &limits {
                let until: Option<i64> = conn
                    .prepare_cached(
                        "SELECT locked_until_ms FROM account_limits WHERE limit_key = ?1",
                    )?
                    .query_row([&limit.key], |r| r.get(0))
                    .optional()?;
                locked.extend(until);
            }
            if let Some(wait) = held_back(locked, now_ms) {
                return Ok(Reserved::HeldBack { wait });
            }
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let mut read = Vec::with_capacity(limits.len());
            for limit in &limits {
                read.push((limit.free, stored(&tx, &limit.key)?));
            }
            let (reserved, counters) = super::reserve(&read, now_ms, base);
            if reserved == Reserved::Granted {
                for (limit, counter) in limits.iter().zip(&counters) {
                    store(&tx, &limit.key, counter)?;
                }
            }
            if prune_due(&LAST_PRUNE, now_ms) {
                tx.execute(
                    "DELETE FROM account_limits WHERE last_ms <= ?1 AND locked_until_ms <= ?2",
                    params![now_ms - millis(IDLE), now_ms],
                )?;
            }
            tx.commit()?;
            Ok(reserved)
        }))
    }

    fn settle<'a>(
        &'a self,
        settled: &'a [(Limit, Settle)],
    ) -> PortFuture<'a, Result<(), PortError>> {
        let settled = settled.to_vec();
        Box::pin(self.with(move |conn| {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            for (limit, settle) in &settled {
                match settle {
                    Settle::Clear => {
                        tx.execute(
                            "DELETE FROM account_limits WHERE limit_key = ?1",
                            [&limit.key],
                        )?;
                    }
                    Settle::Refund => {
                        if let Some(counter) = stored(&tx, &limit.key)? {
                            store(&tx, &limit.key, &super::refund(counter, limit.free))?;
                        }
                    }
                }
            }
            tx.commit()
        }))
    }
}
