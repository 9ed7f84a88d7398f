//! Durable state in one SQLite file (WAL mode): sessions, tables, seats, each hand's deal and input
//! log, finished hand records and match results.
//!
//! One dedicated writer thread owns the write connection. Writers send [`Write`]s over a bounded
//! channel; the thread takes everything queued, applies it in one transaction, commits, then
//! acknowledges. A table actor awaits that acknowledgement before it publishes an accepted action,
//! so a `kill -9` never loses anything a player was told about. `synchronous=NORMAL` in WAL mode
//! survives a process crash (not a power cut) without an fsync per commit.
//!
//! Reads (startup recovery, the HTTP API) open their own connections: WAL lets them run beside the
//! writer.
//!
//! The input log (`input_log`) is append-only in rowid order with no index: a group commit of
//! inputs from many tables then dirties the one or two pages at the end of the table, not one
//! index page per table (with an index keyed by table, thousands of tables meant thousands of
//! scattered pages per commit and per checkpoint, the latency cliff of docs/PERFORMANCE.md). A
//! hand's row in `hands` holds the highest `input_log` rowid when it was dealt (`first_input`):
//! its inputs all come after it, so recovery reads the log once, from the oldest hand of any
//! table in play. Databases written before have their inputs in `inputs`, still read.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::{mpsc, oneshot};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS sessions (
    token TEXT PRIMARY KEY, player TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, settings TEXT NOT NULL, private INTEGER NOT NULL, invite TEXT,
    status TEXT NOT NULL, first_dealer TEXT, seq INTEGER NOT NULL DEFAULT 0,
    round_started_ms INTEGER, result TEXT, created_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL, seat TEXT NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL,
    bot TEXT, PRIMARY KEY (table_id, seat));
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL, hand INTEGER NOT NULL, dealer TEXT NOT NULL, seed TEXT NOT NULL,
    PRIMARY KEY (table_id, hand));
CREATE TABLE IF NOT EXISTS inputs (
    table_id TEXT NOT NULL, hand INTEGER NOT NULL, idx INTEGER NOT NULL, seq INTEGER NOT NULL,
    input TEXT NOT NULL, PRIMARY KEY (table_id, hand, idx));
CREATE TABLE IF NOT EXISTS input_log (
    table_id TEXT NOT NULL, hand INTEGER NOT NULL, idx INTEGER NOT NULL, seq INTEGER NOT NULL,
    input TEXT NOT NULL);
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

/// How often the checkpointer thread copies the WAL into the database file.
///
/// Why a thread: a checkpoint `fsync`s the WAL and the database file, a few milliseconds for the
/// ~4 MB that SQLite's own checkpoint copies by default, and inside a commit every table's append
/// waits that long (measured: 96 commits of 2-10 ms in 15 s at 9,200 appends/s, the whole p99 tail). The
/// checkpointer does the bulk on its own connection without blocking the writer (`PASSIVE`).
/// Alone it would never let the WAL restart (the writer commits during every pass, so the WAL is
/// never fully copied when a write begins, and it grows without bound: tried, 55 MB in 30 s), so
/// after a pass the writer copies the few frames committed meanwhile itself, between two batches
/// (every [`HANDOFF_INTERVAL`]); its next commit then starts the WAL over from the beginning.
const CHECKPOINT_INTERVAL: Duration = Duration::from_millis(100);

/// How often, at most, the writer finishes a pass so that the WAL restarts. The writer's
/// checkpoint `fsync`s twice (the WAL's last frames, then the database file): 0.5-2 ms during
/// which no table's append commits. Ten times a second that was ~0.8% of the time, right where a
/// p99 is made (measured: p99 of action to last event 2.8-3.8 ms with the store, 1.9-2.6 ms with
/// appends acknowledged at once). Twice a second keeps the WAL to ~10 MB at 7,800 appends/s,
/// far below the [`DEFAULT_WAL_AUTOCHECKPOINT`] fallback; the checkpointer's own passes still
/// run every [`CHECKPOINT_INTERVAL`], so what the writer copies stays small.
const HANDOFF_INTERVAL: Duration = Duration::from_millis(500);

/// A checkpointer pass with at most this many frames to copy is small enough to hand the rest to
/// the writer; otherwise another pass follows at once (up to [`MAX_PASSES`] in a row).
const SMALL_PASS_FRAMES: i64 = 8;
const MAX_PASSES: usize = 4;

/// One change to persist.
#[derive(Debug, Clone)]
pub enum Write {
    Session {
        token: String,
        player: String,
        name: String,
    },
    CreateTable {
        id: String,
        settings: String,
        private: bool,
        invite: Option<String>,
        created_ms: i64,
    },
    /// `player` `None` frees the seat. `bot`: the level code of the server bot that owns the
    /// seat (a bot's seat, or one its player gave up), so a restart seats the bot again.
    Seat {
        table: String,
        seat: String,
        player: Option<(String, String)>,
        bot: Option<String>,
    },
    Status {
        table: String,
        status: String,
    },
    MatchStarted {
        table: String,
        first_dealer: String,
        round_started_ms: i64,
    },
    Seq {
        table: String,
        seq: u64,
    },
    Hand {
        table: String,
        hand: u32,
        dealer: String,
        seed: String,
    },
    Input {
        table: String,
        hand: u32,
        idx: u32,
        seq: u64,
        input: String,
    },
    Record {
        table: String,
        hand: u32,
        record: String,
        names: Vec<String>,
    },
    Result {
        table: String,
        result: String,
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

struct Job {
    writes: Vec<Write>,
    ack: Option<oneshot::Sender<Result<(), StoreError>>>,
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

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("writes", &self.writes.len())
            .finish()
    }
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
        let path = dir.join("burraco.sqlite3");
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

    /// Persists `writes` and returns once they are committed.
    pub async fn write(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        let (ack, done) = oneshot::channel();
        self.tx
            .send(Job {
                writes,
                ack: Some(ack),
            })
            .await
            .map_err(|_| StoreError::Closed)?;
        if self.wait_blocking {
            return tokio::task::spawn_blocking(move || done.blocking_recv())
                .await
                .map_err(|_| StoreError::Closed)?
                .map_err(|_| StoreError::Closed)?;
        }
        done.await.map_err(|_| StoreError::Closed)?
    }

    /// Queues `writes` without waiting (for what a crash may lose: sequence hints, statuses).
    pub fn write_later(&self, writes: Vec<Write>) {
        if let Err(e) = self.tx.try_send(Job { writes, ack: None }) {
            tracing::warn!("store queue full, write dropped: {e}");
        }
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

    /// Everything needed to rebuild the tables in play (sessions are looked up when resumed:
    /// [`Store::session`]).
    pub fn load(&self) -> Result<Loaded, StoreError> {
        let conn = self.reader()?;
        let sessions = Vec::new();
        // (table, hand) to (index in `tables`, index in its hands), for the one pass over the log.
        let mut wanted: std::collections::HashMap<(String, u32), (usize, usize)> =
            std::collections::HashMap::new();
        let mut log_from: Option<i64> = None;
        let mut tables = Vec::new();
        let mut stmt = conn.prepare(
            "SELECT id, settings, private, invite, status, first_dealer, seq, round_started_ms
             FROM tables WHERE status != 'finished' ORDER BY created_ms",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(LoadedTable {
                id: r.get(0)?,
                settings: r.get(1)?,
                private: r.get(2)?,
                invite: r.get(3)?,
                status: r.get(4)?,
                first_dealer: r.get(5)?,
                seq: r.get::<_, i64>(6)? as u64,
                round_started_ms: r.get(7)?,
                seats: Vec::new(),
                hands: Vec::new(),
            })
        })?;
        for row in rows {
            let mut table = row?;
            let mut seats =
                conn.prepare("SELECT seat, player, name, bot FROM seats WHERE table_id = ?1")?;
            for s in seats.query_map([&table.id], |r| {
                Ok(LoadedSeat {
                    seat: r.get(0)?,
                    player: r.get(1)?,
                    name: r.get(2)?,
                    bot: r.get(3)?,
                })
            })? {
                table.seats.push(s?);
            }
            let mut hands = conn.prepare(
                "SELECT hand, dealer, seed, first_input FROM hands WHERE table_id = ?1 ORDER BY hand",
            )?;
            let mut inputs = conn.prepare(
                "SELECT input, seq FROM inputs WHERE table_id = ?1 AND hand = ?2 ORDER BY idx",
            )?;
            let hand_rows: Vec<(u32, String, String, Option<i64>)> = hands
                .query_map([&table.id], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })?
                .collect::<Result<_, _>>()?;
            for (hand, dealer, seed, first_input) in hand_rows {
                let mut loaded = LoadedHand {
                    hand,
                    dealer,
                    seed,
                    inputs: Vec::new(),
                };
                match first_input {
                    // In the append-only log: read below, in one pass for every table.
                    Some(first) => {
                        log_from = Some(log_from.map_or(first, |f: i64| f.min(first)));
                        wanted.insert((table.id.clone(), hand), (tables.len(), table.hands.len()));
                    }
                    // Written by an older server.
                    None => {
                        for i in inputs.query_map(params![&table.id, hand], |r| {
                            Ok((r.get(0)?, r.get::<_, i64>(1)? as u64))
                        })? {
                            let (input, seq): (String, u64) = i?;
                            table.seq = table.seq.max(seq);
                            loaded.inputs.push(input);
                        }
                    }
                }
                table.hands.push(loaded);
            }
            tables.push(table);
        }
        if let Some(from) = log_from {
            let mut stmt = conn.prepare(
                "SELECT table_id, hand, seq, input FROM input_log WHERE rowid > ?1 ORDER BY rowid",
            )?;
            let mut rows = stmt.query([from])?;
            while let Some(row) = rows.next()? {
                let key: (String, u32) = (row.get(0)?, row.get(1)?);
                if let Some(&(t, h)) = wanted.get(&key) {
                    let seq = row.get::<_, i64>(2)? as u64;
                    tables[t].seq = tables[t].seq.max(seq);
                    tables[t].hands[h].inputs.push(row.get(3)?);
                }
            }
        }
        Ok(Loaded { sessions, tables })
    }

    /// The stored match result of a table, if finished.
    pub fn result(&self, table: &str) -> Result<Option<String>, StoreError> {
        let conn = self.reader()?;
        Ok(conn
            .query_row("SELECT result FROM tables WHERE id = ?1", [table], |r| {
                r.get::<_, Option<String>>(0)
            })
            .optional()?
            .flatten())
    }
}

/// Brings a database made by an older server up to the schema (columns added since).
fn migrate(conn: &Connection) -> Result<(), StoreError> {
    let has_bot = conn
        .prepare("SELECT 1 FROM pragma_table_info('seats') WHERE name = 'bot'")?
        .exists([])?;
    if !has_bot {
        conn.execute_batch("ALTER TABLE seats ADD COLUMN bot TEXT")?;
    }
    let has_first_input = conn
        .prepare("SELECT 1 FROM pragma_table_info('hands') WHERE name = 'first_input'")?
        .exists([])?;
    if !has_first_input {
        conn.execute_batch("ALTER TABLE hands ADD COLUMN first_input INTEGER")?;
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

/// What [`Store::load`] found.
#[derive(Debug, Default)]
pub struct Loaded {
    /// (token, player, name): none (sessions are read when resumed).
    pub sessions: Vec<(String, String, String)>,
    pub tables: Vec<LoadedTable>,
}

#[derive(Debug)]
pub struct LoadedTable {
    pub id: String,
    pub settings: String,
    pub private: bool,
    pub invite: Option<String>,
    pub status: String,
    pub first_dealer: Option<String>,
    /// The highest sequence number known to have been used.
    pub seq: u64,
    pub round_started_ms: Option<i64>,
    pub seats: Vec<LoadedSeat>,
    pub hands: Vec<LoadedHand>,
}

#[derive(Debug)]
pub struct LoadedSeat {
    pub seat: String,
    pub player: String,
    pub name: String,
    /// The level code of the server bot that owns the seat.
    pub bot: Option<String>,
}

#[derive(Debug)]
pub struct LoadedHand {
    pub hand: u32,
    pub dealer: String,
    pub seed: String,
    /// `RecordedInput` rows as JSON, in order.
    pub inputs: Vec<String>,
}

/// The checkpointer thread and what it shares with the writer.
struct Checkpointer {
    /// A pass has finished: the writer should copy what was committed during it.
    tail_due: Arc<AtomicBool>,
    /// Dropped to stop the thread.
    stop: std::sync::mpsc::Sender<()>,
    thread: std::thread::JoinHandle<()>,
}

impl Checkpointer {
    fn start(conn: Connection) -> Result<Checkpointer, StoreError> {
        let tail_due = Arc::new(AtomicBool::new(false));
        let (stop, stopped) = std::sync::mpsc::channel();
        let due = tail_due.clone();
        let thread = std::thread::Builder::new()
            .name("burraco-checkpoint".into())
            .spawn(move || checkpoint_loop(&conn, &stopped, &due))
            .map_err(|e| StoreError::Sqlite(e.to_string()))?;
        Ok(Checkpointer {
            tail_due,
            stop,
            thread,
        })
    }

    /// Called by the writer between batches: finishes the last pass so the WAL can restart. The
    /// flag is cleared only after, so the checkpointer never starts a pass beside this one.
    fn finish_pass(&self, conn: &Connection) {
        if self.tail_due.load(Ordering::Acquire) {
            timed_checkpoint(conn, "writer");
            self.tail_due.store(false, Ordering::Release);
        }
    }

    fn stop(self) {
        drop(self.stop);
        let _ = self.thread.join();
    }
}

fn checkpoint_loop(
    conn: &Connection,
    stopped: &std::sync::mpsc::Receiver<()>,
    tail_due: &AtomicBool,
) {
    let mut last_handoff = std::time::Instant::now();
    while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
        stopped.recv_timeout(CHECKPOINT_INTERVAL)
    {
        // Until the writer has finished the previous pass, another would only race it.
        if tail_due.load(Ordering::Acquire) {
            continue;
        }
        // Passes until one had little to copy, so that what the writer is left with (the frames
        // committed during the last pass) is a frame or two: its checkpoint then `fsync`s next
        // to nothing. After MAX_PASSES the writer is handed whatever is left all the same: under
        // a commit rate that outruns the passes, waiting for a small one would let the WAL grow
        // to the fallback (seen with the tests running in parallel: 36 MB).
        let mut copied_before = 0;
        let mut due = false;
        for _ in 0..MAX_PASSES {
            let Some((log, copied)) = timed_checkpoint(conn, "checkpointer") else {
                break;
            };
            if log <= 0 {
                break;
            }
            due = true;
            if log - copied_before <= SMALL_PASS_FRAMES {
                break;
            }
            copied_before = copied;
        }
        if due && last_handoff.elapsed() >= HANDOFF_INTERVAL {
            last_handoff = std::time::Instant::now();
            tail_due.store(true, Ordering::Release);
        }
    }
}

/// A `PASSIVE` checkpoint (never waits for the writer or readers); (WAL frames, frames copied).
fn timed_checkpoint(conn: &Connection, by: &'static str) -> Option<(i64, i64)> {
    let started = std::time::Instant::now();
    let result = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
        Ok((r.get::<_, i64>(1)?, r.get::<_, i64>(2)?))
    });
    metrics::histogram!("burraco_store_checkpoint_seconds", "by" => by)
        .record(started.elapsed().as_secs_f64());
    match result {
        Ok(frames) => Some(frames),
        Err(e) => {
            tracing::warn!("checkpoint failed: {e}");
            None
        }
    }
}

fn write_loop(mut conn: Connection, mut rx: mpsc::Receiver<Job>, checkpointer: Checkpointer) {
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
        let result = apply(&mut conn, &batch).map_err(StoreError::from);
        metrics::histogram!("burraco_store_commit_seconds").record(started.elapsed().as_secs_f64());
        if let Err(e) = &result {
            tracing::error!("store write failed: {e}");
        }
        for job in batch.drain(..) {
            if let Some(ack) = job.ack {
                let _ = ack.send(result.clone());
            }
        }
        checkpointer.finish_pass(&conn);
    }
    checkpointer.stop();
    let _ = conn.pragma_update(None, "wal_checkpoint", "TRUNCATE");
}

fn apply(conn: &mut Connection, batch: &[Job]) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    for write in batch.iter().flat_map(|j| &j.writes) {
        match write {
            Write::Session {
                token,
                player,
                name,
            } => {
                tx.prepare_cached(
                    "INSERT OR REPLACE INTO sessions (token, player, name) VALUES (?1, ?2, ?3)",
                )?
                .execute(params![token, player, name])?;
            }
            Write::CreateTable {
                id,
                settings,
                private,
                invite,
                created_ms,
            } => {
                tx.prepare_cached(
                    "INSERT INTO tables (id, settings, private, invite, status, created_ms)
                     VALUES (?1, ?2, ?3, ?4, 'waiting', ?5)",
                )?
                .execute(params![id, settings, private, invite, created_ms])?;
            }
            Write::Seat {
                table,
                seat,
                player: Some((player, name)),
                bot,
            } => {
                tx.prepare_cached("INSERT OR REPLACE INTO seats (table_id, seat, player, name, bot) VALUES (?1, ?2, ?3, ?4, ?5)")?
                    .execute(params![table, seat, player, name, bot])?;
            }
            Write::Seat {
                table,
                seat,
                player: None,
                ..
            } => {
                tx.prepare_cached("DELETE FROM seats WHERE table_id = ?1 AND seat = ?2")?
                    .execute(params![table, seat])?;
            }
            Write::Status { table, status } => {
                tx.prepare_cached("UPDATE tables SET status = ?2 WHERE id = ?1")?
                    .execute(params![table, status])?;
            }
            Write::MatchStarted {
                table,
                first_dealer,
                round_started_ms,
            } => {
                tx.prepare_cached(
                    "UPDATE tables SET status = 'playing', first_dealer = ?2, round_started_ms = ?3 WHERE id = ?1",
                )?
                .execute(params![table, first_dealer, round_started_ms])?;
            }
            Write::Seq { table, seq } => {
                tx.prepare_cached("UPDATE tables SET seq = max(seq, ?2) WHERE id = ?1")?
                    .execute(params![table, *seq as i64])?;
            }
            Write::Hand {
                table,
                hand,
                dealer,
                seed,
            } => {
                tx.prepare_cached(
                    "INSERT OR REPLACE INTO hands (table_id, hand, dealer, seed, first_input)
                     VALUES (?1, ?2, ?3, ?4, (SELECT coalesce(max(rowid), 0) FROM input_log))",
                )?
                .execute(params![table, hand, dealer, seed])?;
            }
            Write::Input {
                table,
                hand,
                idx,
                seq,
                input,
            } => {
                tx.prepare_cached("INSERT INTO input_log (table_id, hand, idx, seq, input) VALUES (?1, ?2, ?3, ?4, ?5)")?
                    .execute(params![table, hand, idx, *seq as i64, input])?;
            }
            Write::Record {
                table,
                hand,
                record,
                names,
            } => {
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
            Write::Result { table, result } => {
                tx.prepare_cached(
                    "UPDATE tables SET status = 'finished', result = ?2 WHERE id = ?1",
                )?
                .execute(params![table, result])?;
            }
        }
    }
    tx.commit()
}
