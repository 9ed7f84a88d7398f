//! The writer thread: it owns the write connection, takes every job queued, checks each
//! append's expected length against the log lengths it keeps (fencing), applies the accepted
//! ones and the session writes in one transaction, commits, then acknowledges.

use std::collections::HashMap;

use burraco_protocol::log::EntryKind;
use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::mpsc;

use super::checkpoint::Checkpointer;
use super::records;
use super::sessions::Write;
use super::{Job, StoreError};
use crate::log::{Entry, LogError};

pub(super) fn write_loop(
    mut conn: Connection,
    mut rx: mpsc::Receiver<Job>,
    checkpointer: Checkpointer,
) {
    let mut lengths = LogLengths::default();
    let mut batch = Vec::with_capacity(64);
    while let Some(job) = rx.blocking_recv() {
        batch.push(job);
        while batch.len() < 256 {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let started = std::time::Instant::now();
        commit_batch(&mut conn, &mut lengths, &mut batch);
        metrics::histogram!("burraco_store_commit_seconds").record(started.elapsed().as_secs_f64());
        checkpointer.finish_pass(&conn);
    }
    checkpointer.stop();
    let _ = conn.pragma_update(None, "wal_checkpoint", "TRUNCATE");
}

/// Each table's log length, as far as the writer knows it.
#[derive(Default)]
struct LogLengths(HashMap<String, u64>);

impl LogLengths {
    /// The length of `table`'s log, from the database the first time.
    fn get(&mut self, conn: &Connection, table: &str) -> rusqlite::Result<u64> {
        if let Some(&len) = self.0.get(table) {
            return Ok(len);
        }
        let first: Option<i64> = conn
            .prepare_cached("SELECT first_row FROM log_tables WHERE id = ?1")?
            .query_row([table], |r| r.get(0))
            .optional()?;
        let len = match first {
            None => 0,
            Some(first) => {
                conn.prepare_cached(
                    "SELECT count(*) FROM table_log WHERE rowid >= ?1 AND table_id = ?2",
                )?
                .query_row(params![first, table], |r| r.get::<_, i64>(0))? as u64
            }
        };
        self.0.insert(table.to_owned(), len);
        Ok(len)
    }
}

/// Commits what `batch` asks in one transaction, then acknowledges each job: an append whose
/// expected length is stale is refused alone; a failed commit fails every job of the batch.
fn commit_batch(conn: &mut Connection, lengths: &mut LogLengths, batch: &mut Vec<Job>) {
    // Lengths after this batch's accepted appends, kept apart until the commit succeeds.
    let mut after: HashMap<String, u64> = HashMap::new();
    // Tables whose logs end in this batch: forgotten after it, so the map stays the tables in play.
    let mut ended: Vec<String> = Vec::new();
    let mut verdicts: Vec<Option<Result<u64, LogError>>> = Vec::with_capacity(batch.len());
    let result = (|| -> rusqlite::Result<()> {
        // Immediate, not deferred: the accounts' store writes to the same file from its own
        // connection, and a deferred transaction that reads (the log's length) and then writes
        // gets SQLITE_BUSY at once, without waiting, when that connection committed in between.
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        for job in batch.iter() {
            let verdict = match job {
                Job::Append {
                    table,
                    expected,
                    entries,
                    ..
                } => {
                    let found = match after.get(table) {
                        Some(&len) => len,
                        None => lengths.get(&tx, table)?,
                    };
                    if found == *expected {
                        append_entries(&tx, table, entries)?;
                        let len = found + entries.len() as u64;
                        after.insert(table.clone(), len);
                        if entries
                            .iter()
                            .any(|e| EntryKind::of(e).is_some_and(EntryKind::ends_table))
                        {
                            ended.push(table.clone());
                        }
                        Some(Ok(len))
                    } else {
                        Some(Err(LogError::Conflict {
                            table: table.clone(),
                            expected: *expected,
                            found,
                        }))
                    }
                }
                Job::Sessions { writes, .. } => {
                    for Write::Session {
                        token,
                        player,
                        name,
                    } in writes
                    {
                        tx.prepare_cached(
                            "INSERT OR REPLACE INTO sessions (token, player, name) VALUES (?1, ?2, ?3)",
                        )?
                        .execute(params![token, player, name])?;
                    }
                    None
                }
                Job::Known(known) => {
                    for (table, len) in known {
                        lengths.0.entry(table.clone()).or_insert(*len);
                    }
                    None
                }
            };
            verdicts.push(verdict);
        }
        tx.commit()
    })()
    .map_err(StoreError::from);
    if let Err(e) = &result {
        tracing::error!("store write failed: {e}");
    } else {
        lengths.0.extend(after);
        for table in ended {
            lengths.0.remove(&table);
        }
    }
    for (job, verdict) in batch
        .drain(..)
        .zip(verdicts.into_iter().chain(std::iter::repeat(None)))
    {
        match job {
            Job::Append { ack, .. } => {
                let answer = match (&result, verdict) {
                    (Ok(()), Some(verdict)) => verdict,
                    (Err(e), _) => Err(LogError::Unavailable(e.to_string())),
                    (Ok(()), None) => Err(LogError::Unavailable("not written".into())),
                };
                let _ = ack.send(answer);
            }
            Job::Sessions { ack, .. } => {
                let _ = ack.send(result.clone());
            }
            Job::Known(_) => {}
        }
    }
}

/// Appends a table's entries, and projects the ones the HTTP API reads.
fn append_entries(tx: &Connection, table: &str, entries: &[Entry]) -> rusqlite::Result<()> {
    for entry in entries {
        tx.prepare_cached("INSERT INTO table_log (table_id, entry) VALUES (?1, ?2)")?
            .execute(params![table, entry])?;
        let Some(kind) = EntryKind::of(entry) else {
            continue;
        };
        match kind {
            EntryKind::Created => {
                tx.prepare_cached(
                    "INSERT OR IGNORE INTO log_tables (id, first_row, in_play) VALUES (?1, last_insert_rowid(), 1)",
                )?
                .execute([table])?;
            }
            EntryKind::HandFinished => records::project(tx, table, entry)?,
            EntryKind::MatchFinished | EntryKind::Closed => {
                tx.prepare_cached("UPDATE log_tables SET in_play = 0 WHERE id = ?1")?
                    .execute([table])?;
            }
            EntryKind::Seat
            | EntryKind::MatchStarted
            | EntryKind::Dealt
            | EntryKind::Input
            | EntryKind::Boards
            | EntryKind::RoundClock
            | EntryKind::Tournament
            | EntryKind::AccountSeat
            | EntryKind::Rated
            | EntryKind::Conduct
            | EntryKind::Paused
            | EntryKind::Resumed => {}
        }
    }
    Ok(())
}
