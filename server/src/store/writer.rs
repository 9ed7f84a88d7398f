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
    let mut tails = LogTails::default();
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
        commit_batch(&mut conn, &mut tails, &mut batch);
        metrics::histogram!("burraco_store_commit_seconds").record(started.elapsed().as_secs_f64());
        checkpointer.finish_pass(&conn);
    }
    checkpointer.stop();
    let _ = conn.pragma_update(None, "wal_checkpoint", "TRUNCATE");
}

/// Where each table's log stands, as far as the writer knows it.
#[derive(Default)]
struct LogTails(HashMap<String, Tail>);

/// A table's log length and last row: the next row links back to it (`prev_row`), so that a
/// table's log is read by following its own rows rather than scanning every table's.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Tail {
    pub(super) len: u64,
    pub(super) last_row: Option<i64>,
    /// The log has ended: `log_tables.last_row` is kept up to date by every later append.
    pub(super) ended: bool,
}

impl LogTails {
    /// Where `table`'s log stands, from the database the first time (one scan of the rows
    /// since the table began: the writer meets a table unknown to it only after a restart).
    fn get(&mut self, conn: &Connection, table: &str) -> rusqlite::Result<Tail> {
        if let Some(&tail) = self.0.get(table) {
            return Ok(tail);
        }
        let found: Option<(i64, bool)> = conn
            .prepare_cached("SELECT first_row, in_play FROM log_tables WHERE id = ?1")?
            .query_row([table], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? == 0)))
            .optional()?;
        let tail = match found {
            None => Tail::default(),
            Some((first, ended)) => {
                let (len, last_row) = conn
                    .prepare_cached(
                        "SELECT count(*), max(rowid) FROM table_log WHERE rowid >= ?1 AND table_id = ?2",
                    )?
                    .query_row(params![first, table], |r| Ok((r.get::<_, i64>(0)?, r.get(1)?)))?;
                Tail {
                    len: len as u64,
                    last_row,
                    ended,
                }
            }
        };
        self.0.insert(table.to_owned(), tail);
        Ok(tail)
    }
}

/// Commits what `batch` asks in one transaction, then acknowledges each job: an append whose
/// expected length is stale is refused alone; a failed commit fails every job of the batch.
fn commit_batch(conn: &mut Connection, tails: &mut LogTails, batch: &mut Vec<Job>) {
    // Tails after this batch's accepted appends, kept apart until the commit succeeds.
    let mut after: HashMap<String, Tail> = HashMap::new();
    // Tables whose logs end in this batch: forgotten after it, so the map stays the tables in play.
    let mut ended: Vec<String> = Vec::new();
    let mut verdicts: Vec<Option<Result<u64, LogError>>> = Vec::with_capacity(batch.len());
    let result = (|| -> rusqlite::Result<()> {
        // Immediate, not deferred: the accounts' store writes to the same file from its own
        // connection, and a deferred transaction that reads (the log's length) and then writes
        // gets SQLITE_BUSY at once, without waiting, when that connection committed in between.
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        for job in batch.iter() {
            let verdict =
                match job {
                    Job::Append {
                        table,
                        expected,
                        entries,
                        ..
                    } => {
                        let mut tail = match after.get(table) {
                            Some(&tail) => tail,
                            None => tails.get(&tx, table)?,
                        };
                        if tail.len == *expected {
                            append_entries(&tx, table, &mut tail, entries)?;
                            after.insert(table.clone(), tail);
                            if tail.ended {
                                ended.push(table.clone());
                            }
                            Some(Ok(tail.len))
                        } else {
                            Some(Err(LogError::Conflict {
                                table: table.clone(),
                                expected: *expected,
                                found: tail.len,
                            }))
                        }
                    }
                    Job::Sessions { writes, .. } => {
                        for Write::Session { key, session } in writes {
                            tx.prepare_cached(
                            "INSERT OR REPLACE INTO resume_sessions (key, player, name, account) \
                             VALUES (?1, ?2, ?3, ?4)",
                        )?
                        .execute(params![key, session.player, session.name, session.account])?;
                        }
                        None
                    }
                    Job::Known(known) => {
                        for (table, tail) in known {
                            tails.0.entry(table.clone()).or_insert(*tail);
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
        tails.0.extend(after);
        for table in ended {
            tails.0.remove(&table);
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

/// Appends a table's entries, each linked to the row before it, moves `tail` past them, and
/// projects the ones the HTTP API reads.
fn append_entries(
    tx: &Connection,
    table: &str,
    tail: &mut Tail,
    entries: &[Entry],
) -> rusqlite::Result<()> {
    for entry in entries {
        tx.prepare_cached("INSERT INTO table_log (table_id, entry, prev_row) VALUES (?1, ?2, ?3)")?
            .execute(params![table, entry, tail.last_row])?;
        let row = tx.last_insert_rowid();
        tail.len += 1;
        tail.last_row = Some(row);
        let Some(kind) = EntryKind::of(entry) else {
            continue;
        };
        match kind {
            EntryKind::Created => {
                tx.prepare_cached(
                    "INSERT OR IGNORE INTO log_tables (id, first_row, in_play) VALUES (?1, ?2, 1)",
                )?
                .execute(params![table, row])?;
            }
            EntryKind::HandFinished => records::project(tx, table, entry)?,
            EntryKind::MatchFinished | EntryKind::Closed => tail.ended = true,
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
            | EntryKind::Resumed
            | EntryKind::StartBy => {}
        }
    }
    // An ended log's last row is kept where its readers start; rarely, an entry follows the end.
    if tail.ended && !entries.is_empty() {
        tx.prepare_cached("UPDATE log_tables SET in_play = 0, last_row = ?2 WHERE id = ?1")?
            .execute(params![table, tail.last_row])?;
    }
    Ok(())
}
