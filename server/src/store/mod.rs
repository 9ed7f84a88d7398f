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
//! per commit and per checkpoint, the latency cliff of docs/PERFORMANCE.md). `log_tables` holds
//! each table's first rowid, so loading reads the log once, from the oldest table in play.
//! Hand records are projected from their entries in the same transaction.
//!
//! Reads (startup recovery, the HTTP API) open their own connections: WAL lets them run beside the
//! writer.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use burraco_protocol::log::{EntryKind, TableEntry};
use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::{mpsc, oneshot};

use crate::log::{Entry, LogError, LogFuture, TableLog};

mod checkpoint;
use checkpoint::Checkpointer;

/// The schema's version (`PRAGMA user_version`). Version 1 (before the tables' logs had one
/// owner) kept tables in play as rows of five tables; those are dropped on upgrade, so a server
/// upgraded mid-match does not resume that match (records and sessions are kept).
const SCHEMA_VERSION: i64 = 2;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS sessions (
    token TEXT PRIMARY KEY, player TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS table_log (table_id TEXT NOT NULL, entry BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS log_tables (
    id TEXT PRIMARY KEY, first_row INTEGER NOT NULL, in_play INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    table_id TEXT NOT NULL, hand INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (table_id, hand));
CREATE TABLE IF NOT EXISTS record_players (
    name TEXT NOT NULL, table_id TEXT NOT NULL, hand INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS record_players_name ON record_players (name);
";

/// WAL pages at which SQLite's own checkpoint runs inside a commit: only a fallback, for when the
/// checkpointer thread (below) falls behind. In normal running the WAL restarts every
/// [`HANDOFF_INTERVAL`] and never gets near it.
pub const DEFAULT_WAL_AUTOCHECKPOINT: u32 = 10_000;

/// A resume session to persist (the tables' logs go through [`TableLog`]).
#[derive(Debug, Clone)]
pub enum Write {
    Session {
        token: String,
        player: String,
        name: String,
    },
}

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
    /// The lengths of logs just loaded, so the writer need not count them itself.
    Known(Vec<(String, u64)>),
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
    /// A read connection kept for session look-ups.
    lookup: Arc<std::sync::Mutex<Option<Connection>>>,
}

/// The writer thread, joined at shutdown once every handle is dropped.
#[derive(Debug)]
pub struct Writer(std::thread::JoinHandle<()>);

impl Writer {
    /// Waits for the queued writes to commit (every [`Store`] must be dropped first).
    pub fn join(self) {
        let _ = self.0.join();
    }
}

fn open(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(Duration::from_secs(5))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    Ok(conn)
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
        std::fs::create_dir_all(dir)
            .map_err(|e| StoreError::Sqlite(format!("{}: {e}", dir.display())))?;
        let path = dir.join(FILE_NAME);
        let conn = open(&path)?;
        conn.pragma_update(None, "wal_autocheckpoint", wal_pages.max(1))?;
        conn.execute_batch(SCHEMA)?;
        migrate(&conn)?;
        let checkpointer = Checkpointer::start(open(&path)?)?;
        let (tx, rx) = mpsc::channel(1024);
        let thread = std::thread::Builder::new()
            .name("burraco-store".into())
            .spawn(move || write_loop(conn, rx, checkpointer))
            .map_err(|e| StoreError::Sqlite(e.to_string()))?;
        Ok((
            Store {
                tx,
                path,
                wait_blocking,
                lookup: Default::default(),
            },
            Writer(thread),
        ))
    }

    /// Persists session `writes` and returns once they are committed.
    pub async fn write(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        let (ack, done) = oneshot::channel();
        self.tx
            .send(Job::Sessions { writes, ack })
            .await
            .map_err(|_| StoreError::Closed)?;
        self.wait(done).await.ok_or(StoreError::Closed)?
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

    /// The session of a resume token, from the database: sessions live in memory only while
    /// their player is connected or seated, so a token from long ago is found here.
    pub async fn session(&self, token: String) -> Result<Option<(String, String)>, StoreError> {
        let store = self.clone();
        tokio::task::spawn_blocking(move || {
            let mut cached = store.lookup.lock().unwrap_or_else(|e| e.into_inner());
            if cached.is_none() {
                *cached = Some(store.reader()?);
            }
            let conn = cached.as_ref().ok_or(StoreError::Closed)?;
            Ok(conn
                .prepare_cached("SELECT player, name FROM sessions WHERE token = ?1")?
                .query_row([token], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?)
        })
        .await
        .map_err(|_| StoreError::Closed)?
    }

    /// A read-only connection for queries.
    pub fn reader(&self) -> Result<Connection, StoreError> {
        open(&self.path)
    }

    /// Records as a JSON array text, by table.
    pub async fn table_records(&self, table: String) -> Result<String, StoreError> {
        let store = self.clone();
        tokio::task::spawn_blocking(move || {
            let conn = store.reader()?;
            let mut stmt =
                conn.prepare("SELECT record FROM records WHERE table_id = ?1 ORDER BY hand")?;
            let rows = stmt.query_map([table], |r| r.get::<_, String>(0))?;
            json_array(rows)
        })
        .await
        .map_err(|_| StoreError::Closed)?
    }

    /// Records as a JSON array text, of every hand a player of that name sat at.
    pub async fn player_records(&self, name: String) -> Result<String, StoreError> {
        let store = self.clone();
        tokio::task::spawn_blocking(move || {
            let conn = store.reader()?;
            let mut stmt = conn.prepare(
                "SELECT r.record FROM record_players p JOIN records r
                 ON r.table_id = p.table_id AND r.hand = p.hand WHERE p.name = ?1
                 ORDER BY p.rowid LIMIT 1000",
            )?;
            let rows = stmt.query_map([name], |r| r.get::<_, String>(0))?;
            json_array(rows)
        })
        .await
        .map_err(|_| StoreError::Closed)?
    }
}

/// Brings a database made by an older server up to [`SCHEMA_VERSION`].
fn migrate(conn: &Connection) -> Result<(), StoreError> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version < SCHEMA_VERSION {
        // Version 1's tables in play; `sessions`, `records` and `record_players` are unchanged.
        conn.execute_batch(
            "DROP TABLE IF EXISTS tables; DROP TABLE IF EXISTS seats; DROP TABLE IF EXISTS hands;
             DROP TABLE IF EXISTS inputs; DROP TABLE IF EXISTS input_log;",
        )?;
        conn.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    }
    Ok(())
}

fn json_array(rows: impl Iterator<Item = rusqlite::Result<String>>) -> Result<String, StoreError> {
    let mut out = String::from("[");
    for (i, row) in rows.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&row?);
    }
    out.push(']');
    Ok(out)
}

impl TableLog for Store {
    fn append(&self, table: &str, expected: u64, entries: Vec<Entry>) -> LogFuture<'_, u64> {
        let table = table.to_owned();
        Box::pin(async move {
            let (ack, done) = oneshot::channel();
            self.tx
                .send(Job::Append {
                    table,
                    expected,
                    entries,
                    ack,
                })
                .await
                .map_err(|_| LogError::from(StoreError::Closed))?;
            self.wait(done)
                .await
                .ok_or_else(|| LogError::from(StoreError::Closed))?
        })
    }

    fn load(&self, table: &str) -> LogFuture<'_, Vec<Entry>> {
        let table = table.to_owned();
        let store = self.clone();
        Box::pin(async move {
            let mut logs = tokio::task::spawn_blocking(move || store.read_logs(Some(&[table])))
                .await
                .map_err(|_| StoreError::Closed)??;
            Ok(logs.pop().map(|(_, entries)| entries).unwrap_or_default())
        })
    }

    fn load_many<'a>(&'a self, tables: &'a [String]) -> LogFuture<'a, Vec<Vec<Entry>>> {
        let store = self.clone();
        let wanted = tables.to_vec();
        Box::pin(async move {
            let logs = tokio::task::spawn_blocking(move || store.read_logs(Some(&wanted)))
                .await
                .map_err(|_| StoreError::Closed)??;
            Ok(logs.into_iter().map(|(_, entries)| entries).collect())
        })
    }

    fn in_play(&self) -> LogFuture<'_, Vec<String>> {
        let store = self.clone();
        Box::pin(async move {
            let tables = tokio::task::spawn_blocking(move || -> Result<_, StoreError> {
                let conn = store.reader()?;
                let mut stmt =
                    conn.prepare("SELECT id FROM log_tables WHERE in_play = 1 ORDER BY first_row")?;
                let ids = stmt
                    .query_map([], |r| r.get::<_, String>(0))?
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(ids)
            })
            .await
            .map_err(|_| StoreError::Closed)??;
            Ok(tables)
        })
    }

    fn load_in_play(&self) -> LogFuture<'_, Vec<(String, Vec<Entry>)>> {
        let store = self.clone();
        Box::pin(async move {
            let logs = tokio::task::spawn_blocking(move || store.read_logs(None))
                .await
                .map_err(|_| StoreError::Closed)??;
            // The writer learns their lengths now rather than counting each on its first append.
            let known = logs
                .iter()
                .map(|(table, entries)| (table.clone(), entries.len() as u64))
                .collect();
            let _ = self.tx.send(Job::Known(known)).await;
            Ok(logs)
        })
    }
}

impl Store {
    /// The logs of the tables named (even if no longer in play; in the order given, empty for
    /// a table never written), or of every table in play (oldest first), reading `table_log`
    /// once from the oldest first row among them: the log has no index by table, so that its
    /// appends stay cheap, and one pass serves any number of tables.
    fn read_logs(&self, only: Option<&[String]>) -> Result<Vec<(String, Vec<Entry>)>, StoreError> {
        let conn = self.reader()?;
        let mut tables: Vec<(String, Option<i64>)> = match only {
            Some(ids) => {
                let mut stmt = conn.prepare("SELECT first_row FROM log_tables WHERE id = ?1")?;
                ids.iter()
                    .map(|id| {
                        let first = stmt.query_row([id], |r| r.get(0)).optional()?;
                        Ok((id.clone(), first))
                    })
                    .collect::<Result<_, StoreError>>()?
            }
            None => conn
                .prepare(
                    "SELECT id, first_row FROM log_tables WHERE in_play = 1 ORDER BY first_row",
                )?
                .query_map([], |r| Ok((r.get(0)?, Some(r.get(1)?))))?
                .collect::<Result<_, _>>()?,
        };
        let from = tables.iter().filter_map(|(_, first)| *first).min();
        let index: HashMap<String, usize> = tables
            .iter()
            .enumerate()
            .filter(|(_, (_, first))| first.is_some())
            .map(|(i, (id, _))| (id.clone(), i))
            .collect();
        let mut logs: Vec<(String, Vec<Entry>)> =
            tables.drain(..).map(|(id, _)| (id, Vec::new())).collect();
        let Some(from) = from else {
            return Ok(logs);
        };
        let mut stmt =
            conn.prepare("SELECT table_id, entry FROM table_log WHERE rowid >= ?1 ORDER BY rowid")?;
        let mut rows = stmt.query([from])?;
        while let Some(row) = rows.next()? {
            let table: String = row.get(0)?;
            if let Some(&i) = index.get(&table) {
                logs[i].1.push(row.get(1)?);
            }
        }
        Ok(logs)
    }
}

fn write_loop(mut conn: Connection, mut rx: mpsc::Receiver<Job>, checkpointer: Checkpointer) {
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
        let tx = conn.transaction()?;
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
            EntryKind::HandFinished => {
                if let Ok(TableEntry::HandFinished {
                    hand,
                    record,
                    names,
                }) = TableEntry::decode(entry)
                {
                    tx.prepare_cached(
                        "INSERT OR REPLACE INTO records (table_id, hand, record) VALUES (?1, ?2, ?3)",
                    )?
                    .execute(params![table, hand, record])?;
                    for name in names {
                        tx.prepare_cached(
                            "INSERT INTO record_players (name, table_id, hand) VALUES (?1, ?2, ?3)",
                        )?
                        .execute(params![name, table, hand])?;
                    }
                }
            }
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
            | EntryKind::Tournament => {}
        }
    }
    Ok(())
}
