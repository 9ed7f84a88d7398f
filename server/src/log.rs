//! A table's durable log behind one small trait: append fenced by the log's length, load, list
//! the tables in play. The table actor owns its log's writing; implementations only keep entries
//! in order and refuse a writer whose idea of the log is stale.
//!
//! Implementations: the embedded SQLite store ([`crate::store::Store`], the default) and
//! [`MemoryLog`] (tests). Both pass the one conformance suite in `server/tests/log`; anything
//! added here must be doable by a replicated log that only offers "append if the last sequence
//! is X" (a JetStream subject per table), so nothing SQLite-specific belongs in the trait.
//!
//! Entries are opaque bytes here: the postcard encoding of
//! [`burraco_protocol::log::TableEntry`], made once by the table. An implementation may read an
//! entry's kind ([`EntryKind::of`]) to know when a table stops being in play.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;

use burraco_protocol::log::EntryKind;

/// One encoded [`burraco_protocol::log::TableEntry`].
pub type Entry = Vec<u8>;

/// A boxed future, so the trait can be used as `dyn TableLog`.
pub type LogFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, LogError>> + Send + 'a>>;

/// Why an append or a load failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    /// The log does not hold `expected` entries but `found`: another writer appended, or this
    /// one lost an append. Nothing was appended; the writer must stop serving the table.
    #[error("the log of {table} holds {found} entries, not the {expected} the writer expected")]
    Conflict {
        table: String,
        expected: u64,
        found: u64,
    },
    /// The log cannot be reached or written (an IO or database error, or shut down).
    #[error("the log is unavailable: {0}")]
    Unavailable(String),
}

/// A table's durable log.
pub trait TableLog: Send + Sync + std::fmt::Debug {
    /// Appends `entries` to `table`'s log, in order and atomically, if it holds exactly
    /// `expected` entries; returns the new length once the entries are durable. A new table's
    /// log holds 0. On [`LogError::Conflict`] nothing was appended.
    fn append(&self, table: &str, expected: u64, entries: Vec<Entry>) -> LogFuture<'_, u64>;

    /// Every entry of `table`'s log in order (none for a table never written).
    fn load(&self, table: &str) -> LogFuture<'_, Vec<Entry>>;

    /// The logs of `tables`, in the order given (an empty log for a table never written).
    /// Implementations that can read several in one pass should: a tournament reads the logs
    /// of every table of a round that finished since its last look.
    fn load_many<'a>(&'a self, tables: &'a [String]) -> LogFuture<'a, Vec<Vec<Entry>>> {
        Box::pin(async move {
            let mut logs = Vec::with_capacity(tables.len());
            for table in tables {
                logs.push(self.load(table).await?);
            }
            Ok(logs)
        })
    }

    /// The tables in play: written to, and not ended by an entry whose kind
    /// [`EntryKind::ends_table`], oldest first.
    fn in_play(&self) -> LogFuture<'_, Vec<String>>;

    /// Whether `table` is in play: written to, and its last entry does not end it.
    /// Implementations that keep an index of the tables in play should answer from it.
    fn is_in_play<'a>(&'a self, table: &'a str) -> LogFuture<'a, bool> {
        Box::pin(async move {
            let entries = self.load(table).await?;
            Ok(entries
                .last()
                .is_some_and(|e| !EntryKind::of(e).is_some_and(EntryKind::ends_table)))
        })
    }

    /// The logs of every table in play, oldest first. Implementations that can read them in one
    /// pass should (a restart loads them all).
    fn load_in_play(&self) -> LogFuture<'_, Vec<(String, Vec<Entry>)>> {
        Box::pin(async move {
            let mut logs = Vec::new();
            for table in self.in_play().await? {
                let entries = self.load(&table).await?;
                logs.push((table, entries));
            }
            Ok(logs)
        })
    }
}

/// A log in memory: for tests, and the reference the conformance suite holds the others to.
#[derive(Debug, Default)]
pub struct MemoryLog {
    tables: Mutex<MemoryTables>,
}

#[derive(Debug, Default)]
struct MemoryTables {
    logs: HashMap<String, Vec<Entry>>,
    /// In the order of their first entry.
    order: Vec<String>,
}

impl MemoryLog {
    pub fn new() -> MemoryLog {
        MemoryLog::default()
    }

    fn tables(&self) -> std::sync::MutexGuard<'_, MemoryTables> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl TableLog for MemoryLog {
    fn append(&self, table: &str, expected: u64, entries: Vec<Entry>) -> LogFuture<'_, u64> {
        let result = {
            let mut tables = self.tables();
            let found = tables.logs.get(table).map_or(0, Vec::len) as u64;
            if found != expected {
                Err(LogError::Conflict {
                    table: table.to_owned(),
                    expected,
                    found,
                })
            } else if entries.is_empty() {
                Ok(found)
            } else {
                if found == 0 {
                    tables.order.push(table.to_owned());
                }
                let log = tables.logs.entry(table.to_owned()).or_default();
                log.extend(entries);
                Ok(log.len() as u64)
            }
        };
        Box::pin(std::future::ready(result))
    }

    fn load(&self, table: &str) -> LogFuture<'_, Vec<Entry>> {
        let entries = self.tables().logs.get(table).cloned().unwrap_or_default();
        Box::pin(std::future::ready(Ok(entries)))
    }

    fn in_play(&self) -> LogFuture<'_, Vec<String>> {
        let tables = self.tables();
        let in_play = tables
            .order
            .iter()
            .filter(|t| {
                let ended = tables.logs[*t]
                    .iter()
                    .any(|e| EntryKind::of(e).is_some_and(EntryKind::ends_table));
                !ended
            })
            .cloned()
            .collect();
        Box::pin(std::future::ready(Ok(in_play)))
    }
}
