//! Outcomes and playbans in the store's SQLite file (one node), beside the accounts: a
//! connection of its own on the blocking pool; every write an `IMMEDIATE` transaction (the
//! table log's writer and the accounts write the same file: a deferred one that read first
//! could fail at once with "database is locked" when another committed in between).

use rusqlite::{TransactionBehavior, params};

use super::{FairPlay, Outcome, OutcomeRecord, Playban};
use crate::port::{PortError, PortFuture};
use crate::store::Store;
use crate::store::blocking::{BlockingConnection, OnBlockingConnection};

#[derive(Debug, Clone)]
pub struct SqliteFairPlay {
    conn: BlockingConnection,
}

impl OnBlockingConnection for SqliteFairPlay {
    fn connection(&self) -> &BlockingConnection {
        &self.conn
    }
}

impl SqliteFairPlay {
    /// Opens the tables in `store`'s file; the accounts' migrations made them
    /// (`SqliteAccounts::open` first).
    pub fn open(store: &Store) -> Result<SqliteFairPlay, PortError> {
        Ok(SqliteFairPlay {
            conn: BlockingConnection::open(store)?,
        })
    }
}

fn outcome_of(code: String) -> rusqlite::Result<Outcome> {
    Outcome::from_code(&code).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            0,
            rusqlite::types::Type::Text,
            format!("unknown outcome {code:?}").into(),
        )
    })
}

impl FairPlay for SqliteFairPlay {
    fn record_outcome<'a>(
        &'a self,
        record: &'a OutcomeRecord,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        let r = record.clone();
        Box::pin(self.with(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let added = tx.execute(
                "INSERT INTO fairplay_outcomes (table_id, account_id, seat, outcome, at_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (table_id, account_id) DO NOTHING",
                params![r.table, r.account, r.seat, r.outcome.code(), r.at_ms],
            )?;
            tx.commit()?;
            Ok(added == 1)
        }))
    }

    fn outcomes<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<OutcomeRecord>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT account_id, table_id, seat, outcome, at_ms FROM fairplay_outcomes
                 WHERE account_id = ?1 ORDER BY at_ms DESC, table_id DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![account, limit], |r| {
                Ok(OutcomeRecord {
                    account: r.get(0)?,
                    table: r.get(1)?,
                    seat: r.get(2)?,
                    outcome: outcome_of(r.get(3)?)?,
                    at_ms: r.get(4)?,
                })
            })?;
            rows.collect()
        }))
    }

    fn add_ban<'a>(&'a self, ban: &'a Playban) -> PortFuture<'a, Result<(), PortError>> {
        let b = ban.clone();
        Box::pin(self.with(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute(
                "INSERT INTO fairplay_bans (account_id, start_ms, end_ms, reason)
                 VALUES (?1, ?2, ?3, ?4) ON CONFLICT (account_id, start_ms) DO NOTHING",
                params![b.account, b.start_ms, b.end_ms, b.reason],
            )?;
            tx.commit()
        }))
    }

    fn bans<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<Playban>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT account_id, start_ms, end_ms, reason FROM fairplay_bans
                 WHERE account_id = ?1 ORDER BY start_ms DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![account, limit], |r| {
                Ok(Playban {
                    account: r.get(0)?,
                    start_ms: r.get(1)?,
                    end_ms: r.get(2)?,
                    reason: r.get(3)?,
                })
            })?;
            rows.collect()
        }))
    }
}
