use std::time::{Duration, Instant};

use burraco_protocol::log::{LoggedInput, TableEntry};
use burraco_server::log::TableLog;
use burraco_server::store::Store;

/// The checkpointer thread copies the WAL into the database while the writer goes on appending,
/// and the writer finishes each pass so that the WAL starts over: the file stays far smaller than
/// everything appended. SQLite's own fallback checkpoint (10,000 pages, 40 MB) never comes into
/// it, and without the restart the file would hold at least one 4 KiB page per commit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wal_starts_over_under_appends_that_never_pause() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    let started = Instant::now();
    let mut commits: u32 = 0;
    // Long enough for several restarts of the WAL (the writer finishes a checkpointer pass at
    // most every 500 ms, later on a loaded machine).
    while (commits < 10_000 || started.elapsed() < Duration::from_secs(3))
        && started.elapsed() < Duration::from_secs(60)
    {
        let input = TableEntry::Input {
            after_ms: u64::from(commits % 100),
            input: LoggedInput::Draw { seat: 1 },
        };
        store
            .append("t-wal", u64::from(commits), vec![input.encode()])
            .await
            .expect("committed");
        commits += 1;
    }
    let wal = std::fs::metadata(dir.path().join("burraco.sqlite3-wal"))
        .expect("the WAL file")
        .len();
    let never_restarted = u64::from(commits) * 4096;
    assert!(
        wal < never_restarted / 2,
        "{commits} commits left a WAL of {wal} bytes (never restarted: {never_restarted})"
    );
    drop(store);
    writer.join();
    let conn = rusqlite::Connection::open(dir.path().join("burraco.sqlite3")).expect("open");
    let rows: u32 = conn
        .query_row("SELECT count(*) FROM table_log", [], |r| r.get(0))
        .expect("count");
    assert_eq!(
        rows, commits,
        "every acknowledged append is in the database"
    );
}
