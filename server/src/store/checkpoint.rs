//! The checkpointer thread: copies the WAL into the database file beside the writer, so that
//! appends never wait for the bulk of a checkpoint's `fsync`s.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rusqlite::Connection;

use super::StoreError;

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

/// The checkpointer thread and what it shares with the writer.
pub(super) struct Checkpointer {
    /// A pass has finished: the writer should copy what was committed during it.
    tail_due: Arc<AtomicBool>,
    /// Dropped to stop the thread.
    stop: std::sync::mpsc::Sender<()>,
    thread: std::thread::JoinHandle<()>,
}

impl Checkpointer {
    pub(super) fn start(conn: Connection) -> Result<Checkpointer, StoreError> {
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
    pub(super) fn finish_pass(&self, conn: &Connection) {
        if self.tail_due.load(Ordering::Acquire) {
            timed_checkpoint(conn, "writer");
            self.tail_due.store(false, Ordering::Release);
        }
    }

    pub(super) fn stop(self) {
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
