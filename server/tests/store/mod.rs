use std::time::{Duration, Instant};

use burraco_protocol::log::{LoggedInput, TableEntry};
use burraco_server::log::TableLog;
use burraco_server::store::Store;

use crate::log::created;

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

fn draw(seat: u8, after_ms: u64) -> Vec<u8> {
    TableEntry::Input {
        after_ms,
        input: LoggedInput::Draw { seat },
    }
    .encode()
}

/// Each row names its table's row before it and an ended table keeps its last row, so one
/// table's log is read along its own rows: interleaved tables, an entry after the end, and a
/// reopen (the writer then learns the tails from the database) all read back exactly what was
/// appended.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_table_reads_back_along_its_own_links() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tables = ["t-1", "t-2", "t-3"];
    let mut expected: Vec<Vec<Vec<u8>>> = Vec::new();
    {
        let (store, writer) = Store::open(dir.path(), false).expect("store");
        for (i, table) in tables.iter().enumerate() {
            let first = vec![created(i as i64)];
            assert_eq!(store.append(table, 0, first.clone()).await, Ok(1));
            expected.push(first);
        }
        // Interleaved, one or two entries at a time, so no table's rows are contiguous.
        for step in 0..30u64 {
            let i = (step % 3) as usize;
            let entries: Vec<Vec<u8>> = (0..1 + step % 2)
                .map(|k| draw(i as u8, step * 10 + k))
                .collect();
            let len = expected[i].len() as u64;
            assert_eq!(
                store.append(tables[i], len, entries.clone()).await,
                Ok(len + entries.len() as u64)
            );
            expected[i].extend(entries);
        }
        // t-1 ends; then an entry follows its end (its last row must move with it).
        let closed = TableEntry::Closed.encode();
        let len = expected[0].len() as u64;
        assert_eq!(
            store.append("t-1", len, vec![closed.clone()]).await,
            Ok(len + 1)
        );
        expected[0].push(closed);
        assert_eq!(
            store
                .append("t-2", expected[1].len() as u64, vec![draw(1, 999)])
                .await
                .map(|_| ()),
            Ok(())
        );
        expected[1].push(draw(1, 999));
        let late = draw(0, 5);
        let len = expected[0].len() as u64;
        assert_eq!(
            store.append("t-1", len, vec![late.clone()]).await,
            Ok(len + 1)
        );
        expected[0].push(late);
        for (table, entries) in tables.iter().zip(&expected) {
            assert_eq!(&store.load(table).await.expect("load"), entries, "{table}");
        }
        drop(store);
        writer.join();
    }
    // The links on disk: every row but a table's first names the row before it of its own
    // table, and an ended table's last row is kept.
    let conn = rusqlite::Connection::open(dir.path().join("burraco.sqlite3")).expect("open");
    for table in tables {
        let rows: Vec<(i64, Option<i64>)> = conn
            .prepare("SELECT rowid, prev_row FROM table_log WHERE table_id = ?1 ORDER BY rowid")
            .expect("prepare")
            .query_map([table], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows");
        assert_eq!(rows[0].1, None, "{table}'s first row");
        for pair in rows.windows(2) {
            assert_eq!(pair[1].1, Some(pair[0].0), "{table}");
        }
        let last: Option<i64> = conn
            .query_row(
                "SELECT last_row FROM log_tables WHERE id = ?1",
                [table],
                |r| r.get(0),
            )
            .expect("log_tables");
        let ended = table == "t-1";
        assert_eq!(last, ended.then(|| rows.last().expect("rows").0), "{table}");
    }
    drop(conn);
    // Reopened: the writer learns each tail from the database; appends go on linked.
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    let len = expected[2].len() as u64;
    assert_eq!(
        store.append("t-3", len, vec![draw(2, 1)]).await,
        Ok(len + 1)
    );
    expected[2].push(draw(2, 1));
    let len = expected[0].len() as u64;
    assert_eq!(
        store.append("t-1", len, vec![draw(0, 6)]).await,
        Ok(len + 1)
    );
    expected[0].push(draw(0, 6));
    let many = store
        .load_many(&tables.map(String::from))
        .await
        .expect("load_many");
    assert_eq!(many, expected);
    drop(store);
    writer.join();
    // The reads follow the links and scan nothing: a stray row of the ended t-1 written behind
    // the store's back (no link, after its last row) is not read, as a scan would read it.
    let conn = rusqlite::Connection::open(dir.path().join("burraco.sqlite3")).expect("open");
    conn.execute(
        "INSERT INTO table_log (table_id, entry) VALUES ('t-1', ?1)",
        [draw(3, 7)],
    )
    .expect("a stray row");
    drop(conn);
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    assert_eq!(store.load("t-1").await.expect("load"), expected[0]);
    drop(store);
    writer.join();
}

/// A database written before the links (schema version 2: no `prev_row`, no `last_row`) is
/// upgraded in place; its tables read back whole (by the scan), go on being appended to, and
/// still read back whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_written_before_the_links_reads_back_whole() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut old = vec![vec![created(1)], vec![created(2)]];
    {
        let conn = rusqlite::Connection::open(dir.path().join("burraco.sqlite3")).expect("open");
        conn.execute_batch(
            "CREATE TABLE table_log (table_id TEXT NOT NULL, entry BLOB NOT NULL);
             CREATE TABLE log_tables (
                 id TEXT PRIMARY KEY, first_row INTEGER NOT NULL, in_play INTEGER NOT NULL);
             PRAGMA user_version = 2;",
        )
        .expect("version 2's schema");
        for (table, entries) in ["t-old", "t-ended"].iter().zip(&old) {
            conn.execute(
                "INSERT INTO table_log (table_id, entry) VALUES (?1, ?2)",
                rusqlite::params![table, entries[0]],
            )
            .expect("insert");
            conn.execute(
                "INSERT INTO log_tables (id, first_row, in_play) VALUES (?1, last_insert_rowid(), 1)",
                [table],
            )
            .expect("insert");
        }
        for k in 0..6u64 {
            let i = (k % 2) as usize;
            let entry = draw(i as u8, k);
            conn.execute(
                "INSERT INTO table_log (table_id, entry) VALUES (?1, ?2)",
                rusqlite::params![["t-old", "t-ended"][i], entry],
            )
            .expect("insert");
            old[i].push(entry);
        }
        let closed = TableEntry::Closed.encode();
        conn.execute(
            "INSERT INTO table_log (table_id, entry) VALUES ('t-ended', ?1)",
            [&closed],
        )
        .expect("insert");
        conn.execute("UPDATE log_tables SET in_play = 0 WHERE id = 't-ended'", [])
            .expect("update");
        old[1].push(closed);
    }
    let (store, writer) = Store::open(dir.path(), false).expect("the store upgrades it");
    assert_eq!(store.load("t-old").await.expect("load"), old[0]);
    assert_eq!(store.load("t-ended").await.expect("load"), old[1]);
    let len = old[0].len() as u64;
    assert_eq!(
        store.append("t-old", len, vec![draw(0, 50)]).await,
        Ok(len + 1)
    );
    old[0].push(draw(0, 50));
    assert_eq!(store.load("t-old").await.expect("load"), old[0]);
    assert_eq!(
        store.load_in_play().await.expect("in play"),
        vec![("t-old".to_owned(), old[0].clone())]
    );
    drop(store);
    writer.join();
}

/// More tables than are read along their links, named at once, are read in one pass: the same
/// logs, in the order asked (a table named twice twice), a table never written empty.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_tables_at_once_read_the_same_as_each_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    let tables: Vec<String> = (0..12).map(|i| format!("t-many-{i}")).collect();
    for (i, table) in tables.iter().enumerate() {
        assert_eq!(store.append(table, 0, vec![created(i as i64)]).await, Ok(1));
    }
    for round in 0..5u64 {
        for (i, table) in tables.iter().enumerate().skip(round as usize % 2) {
            let len = store.load(table).await.expect("load").len() as u64;
            let entry = draw((i % 4) as u8, round);
            assert_eq!(store.append(table, len, vec![entry]).await, Ok(len + 1));
        }
    }
    assert_eq!(
        store
            .append(&tables[3], 6, vec![TableEntry::Closed.encode()])
            .await,
        Ok(7)
    );
    let mut asked: Vec<String> = tables.iter().rev().cloned().collect();
    asked.insert(5, "t-never".into());
    // A table named twice comes back twice.
    asked.push(tables[7].clone());
    let many = store.load_many(&asked).await.expect("load_many");
    assert_eq!(many.len(), asked.len());
    for (table, entries) in asked.iter().zip(&many) {
        assert_eq!(*entries, store.load(table).await.expect("load"), "{table}");
    }
    assert!(many[5].is_empty());
    assert_eq!(
        many[asked.iter().position(|t| *t == tables[3]).expect("asked")].len(),
        7
    );
    drop(store);
    writer.join();
}
