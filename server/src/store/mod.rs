//! Durable state in one SQLite file (WAL mode): the tables' logs ([`TableLog`]), resume
//! sessions, and what the HTTP API reads (hand records by table and by player).
//!
//! One dedicated writer thread owns the write connection. Appends and session writes come over a
//! bounded channel; the thread takes everything queued, checks each append's expected length,
//! applies the accepted ones in one transaction, commits, then acknowledges. A table actor awaits
//! that acknowledgement before it publishes an accepted action, so a `kill -9` never loses
//! anything a player was told about. `synchronous=NORMAL` in WAL mode survives a process crash
//! (not a power cut) without an fsync per commit.
//!
//! Fencing: the writer keeps each table's log length in memory (one process owns the file),
//! learning it from the database the first time it meets a table, and refuses an append whose
//! expected length is not it ([`LogError::Conflict`]).
//!
//! The log (`table_log`) is append-only in rowid order with no index: a group commit of entries
//! from many tables then dirties the one or two pages at the end of the table, not one index page
//! per table (with an index keyed by table, thousands of tables meant thousands of scattered pages
//! per commit and per checkpoint, the latency cliff of docs/PERFORMANCE.md). Instead each row
//! names its table's row before it (`prev_row`, known to the writer): one table's log is read by
//! following its own rows back from its last (kept in `log_tables.last_row` once it ended), not
//! by scanning every table's rows since it began. `log_tables` also holds each table's first
//! rowid, so a restart reads the log once, from the oldest table in play.
//! Hand records are projected from their entries in the same transaction.
//!
//! Reads (startup recovery, the HTTP API) open their own connections: WAL lets them run beside the
//! writer.
//!
//! This file holds the handle ([`Store`]) and what its parts share; each part is a child module:
//! [`schema`] (the schema, its upgrades, how a connection is opened), [`writer`] (the writer
//! thread's group commit and fencing), [`table_log`] (the tables' logs as a [`crate::log::TableLog`]),
//! [`records`] (the hand records the HTTP API reads), [`sessions`] (resume sessions) and
//! [`checkpoint`] (the WAL checkpointer).
//!
//! What the ports' stores beside the log are kept on is here too, once for all of them:
//! [`blocking`] (a SQLite connection of a store's own, queried on the blocking pool) and
//! [`postgres`] (the PostgreSQL database of `--database-url`: one pool per node, shared by
//! every store).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::Connection;
use tokio::sync::{mpsc, oneshot};

use crate::log::{Entry, LogError};

pub mod blocking;
mod checkpoint;
pub mod postgres;
mod records;
mod schema;
mod sessions;
mod table_log;
mod writer;

use checkpoint::Checkpointer;
pub use sessions::Write;

pub use crate::config::DEFAULT_WAL_AUTOCHECKPOINT;

/// Why the store failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sqlite(String),
    #[error("the store is shut down")]
    Closed,
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Sqlite(e.to_string())
    }
}

impl From<StoreError> for LogError {
    fn from(e: StoreError) -> Self {
        LogError::Unavailable(e.to_string())
    }
}

/// What the writer thread is asked.
enum Job {
    Append {
        table: String,
        expected: u64,
        entries: Vec<Entry>,
        ack: oneshot::Sender<Result<u64, LogError>>,
    },
    Sessions {
        writes: Vec<Write>,
        ack: oneshot::Sender<Result<(), StoreError>>,
    },
    /// Where the logs just loaded stand, so the writer need not count them itself.
    Known(Vec<(String, writer::Tail)>),
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Job::Append {
                table, expected, ..
            } => write!(f, "Append({table}, {expected})"),
            Job::Sessions { writes, .. } => write!(f, "Sessions({})", writes.len()),
            Job::Known(known) => write!(f, "Known({})", known.len()),
        }
    }
}

/// A cloneable handle on the writer thread and the database file.
#[derive(Debug, Clone)]
pub struct Store {
    tx: mpsc::Sender<Job>,
    path: PathBuf,
    wait_blocking: bool,
    /// Read connections kept between reads ([`Store::read`]): opening one parses the whole
    /// schema (every store's tables in the file), which cost more than a table's log read.
    readers: Arc<std::sync::Mutex<Vec<Connection>>>,
}

/// At most this many idle read connections are kept: reads run on the blocking pool, a few at
/// once; more at a time open their own and close them after.
const KEPT_READERS: usize = 4;

/// The writer thread, joined at shutdown once every handle is dropped.
#[derive(Debug)]
pub struct Writer(std::thread::JoinHandle<()>);

impl Writer {
    /// Waits for the queued writes to commit (every [`Store`] must be dropped first).
    pub fn join(self) {
        let _ = self.0.join();
    }
}

/// The store's file in its data directory.
pub const FILE_NAME: &str = "burraco.sqlite3";

impl Store {
    /// Opens (or creates) `dir/burraco.sqlite3` and starts the writer thread.
    pub fn open(dir: &Path, wait_blocking: bool) -> Result<(Store, Writer), StoreError> {
        Store::open_with(dir, wait_blocking, DEFAULT_WAL_AUTOCHECKPOINT)
    }

    /// [`Store::open`], checkpointing the WAL into the database file every `wal_pages` pages
    /// (the writer does it inside a commit, and every append waits meanwhile: with
    /// `synchronous=NORMAL` a checkpoint is the only step that calls `fsync`).
    pub fn open_with(
        dir: &Path,
        wait_blocking: bool,
        wal_pages: u32,
    ) -> Result<(Store, Writer), StoreError> {
        let path = dir.join(FILE_NAME);
        schema::private_dir(dir)
            .and_then(|()| schema::private_file(&path))
            .map_err(|e| StoreError::Sqlite(format!("{}: {e}", dir.display())))?;
        let conn = schema::connect(&path)?;
        conn.pragma_update(None, "wal_autocheckpoint", wal_pages.max(1))?;
        conn.execute_batch(schema::SCHEMA)?;
        schema::migrate(&conn)?;
        let checkpointer = Checkpointer::start(schema::connect(&path)?)?;
        let (tx, rx) = mpsc::channel(1024);
        let thread = std::thread::Builder::new()
            .name("burraco-store".into())
            .spawn(move || writer::write_loop(conn, rx, checkpointer))
            .map_err(|e| StoreError::Sqlite(e.to_string()))?;
        Ok((
            Store {
                tx,
                path,
                wait_blocking,
                readers: Default::default(),
            },
            Writer(thread),
        ))
    }

    /// Waits for the writer's acknowledgement (on the blocking pool when so configured).
    async fn wait<T: Send + 'static>(&self, done: oneshot::Receiver<T>) -> Option<T> {
        if self.wait_blocking {
            return tokio::task::spawn_blocking(move || done.blocking_recv().ok())
                .await
                .ok()
                .flatten();
        }
        done.await.ok()
    }

    /// A new connection to the store's file (a store of its own keeps one for its queries).
    pub fn reader(&self) -> Result<Connection, StoreError> {
        schema::connect(&self.path)
    }

    /// Runs `f` on a kept read connection (opened the first time), on this thread: call it on
    /// the blocking pool. A transaction `f` leaves open rolls back as it is dropped, so the
    /// connection goes back clean.
    fn read<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let kept = lock(&self.readers).pop();
        let mut conn = match kept {
            Some(conn) => conn,
            None => self.reader()?,
        };
        let result = f(&mut conn);
        let mut readers = lock(&self.readers);
        if readers.len() < KEPT_READERS {
            readers.push(conn);
        }
        result
    }
}

/// The kept readers, even if a read panicked while taking or giving one back (the list itself is
/// never left half-changed).
fn lock(readers: &std::sync::Mutex<Vec<Connection>>) -> std::sync::MutexGuard<'_, Vec<Connection>> {
    readers.lock().unwrap_or_else(|e| e.into_inner())
}
