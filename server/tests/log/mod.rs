//! The conformance suite of the durable table log ([`TableLog`]): every implementation passes
//! the same checks (the in-memory log, the SQLite store, and any later one, such as a replicated
//! log in a cluster): entries come back in order, an append must name the log's exact length (a
//! stale or duplicate writer is refused and nothing is written), appends of several entries are
//! atomic, and a table stops being in play with the entry that ends it.

use std::sync::Arc;

use burraco_protocol::log::{LoggedInput, TableEntry};
use burraco_server::log::{LogError, MemoryLog, TableLog};
use burraco_server::store::Store;

/// A table's first entry (also the store's tests').
pub fn created(n: i64) -> Vec<u8> {
    TableEntry::Created {
        settings: "{}".into(),
        private: false,
        invite: None,
        bots: None,
        created_ms: n,
    }
    .encode()
}

fn input(seq: u64) -> Vec<u8> {
    TableEntry::Input {
        after_ms: seq * 10,
        input: LoggedInput::Draw { seat: 0 },
    }
    .encode()
}

/// Runs every check on `log`, which must be empty.
pub async fn conformance(log: Arc<dyn TableLog>) {
    // A new table's log holds nothing; appends count from 0.
    assert_eq!(log.load("t-a").await.unwrap(), Vec::<Vec<u8>>::new());
    assert_eq!(log.append("t-a", 0, vec![created(1)]).await, Ok(1));
    assert_eq!(log.append("t-a", 1, vec![input(1), input(2)]).await, Ok(3));
    assert_eq!(
        log.load("t-a").await.unwrap(),
        vec![created(1), input(1), input(2)]
    );

    // A stale writer (behind), a writer from the future and a duplicate are all refused, and
    // write nothing.
    for expected in [0, 1, 2, 4, 99] {
        let refused = log.append("t-a", expected, vec![input(50)]).await;
        assert_eq!(
            refused,
            Err(LogError::Conflict {
                table: "t-a".into(),
                expected,
                found: 3
            }),
            "expected {expected}"
        );
    }
    assert_eq!(log.load("t-a").await.unwrap().len(), 3);

    // Two writers racing with the same expectation: exactly one wins.
    let (a, b) = tokio::join!(
        log.append("t-a", 3, vec![input(3)]),
        log.append("t-a", 3, vec![input(4)])
    );
    assert!(a.is_ok() != b.is_ok(), "one of {a:?} {b:?}");
    let winner = if a.is_ok() { input(3) } else { input(4) };
    assert_eq!(log.load("t-a").await.unwrap()[3], winner);
    assert_eq!(log.load("t-a").await.unwrap().len(), 4);

    // Tables are independent; the tables in play are listed oldest first.
    assert_eq!(log.append("t-b", 0, vec![created(2)]).await, Ok(1));
    assert_eq!(
        log.append("t-c", 0, vec![created(3), input(1)]).await,
        Ok(2)
    );
    assert_eq!(log.in_play().await.unwrap(), vec!["t-a", "t-b", "t-c"]);

    // An entry that ends a table takes it out of play; its log stays readable.
    let finished = TableEntry::MatchFinished {
        result: "{}".into(),
    };
    assert_eq!(log.append("t-a", 4, vec![finished.encode()]).await, Ok(5));
    assert_eq!(
        log.append("t-b", 1, vec![TableEntry::Closed.encode()])
            .await,
        Ok(2)
    );
    assert_eq!(log.in_play().await.unwrap(), vec!["t-c"]);
    assert_eq!(log.load("t-a").await.unwrap().len(), 5);
    assert_eq!(
        log.load_in_play().await.unwrap(),
        vec![("t-c".to_owned(), vec![created(3), input(1)])]
    );

    // An append after a refusal goes on from the length the log really has.
    assert!(log.append("t-c", 1, vec![input(9)]).await.is_err());
    assert_eq!(log.append("t-c", 2, vec![input(2)]).await, Ok(3));
    assert_eq!(
        log.load("t-c").await.unwrap(),
        vec![created(3), input(1), input(2)]
    );

    // Several logs at once, in the order asked, ended or not, a table never written empty;
    // each the same as its own load.
    let asked: Vec<String> = ["t-c", "t-never", "t-a", "t-b"].map(String::from).to_vec();
    let many = log.load_many(&asked).await.unwrap();
    assert_eq!(many.len(), 4);
    for (table, entries) in asked.iter().zip(&many) {
        assert_eq!(*entries, log.load(table).await.unwrap(), "{table}");
    }
    assert_eq!(many[0].len(), 3);
    assert!(many[1].is_empty());
    assert_eq!(many[2].len(), 5);
    assert_eq!(many[3], vec![created(2), TableEntry::Closed.encode()]);
    assert_eq!(
        log.load_many(&[]).await.unwrap(),
        Vec::<Vec<Vec<u8>>>::new()
    );
}

#[tokio::test]
async fn the_memory_log_conforms() {
    conformance(Arc::new(MemoryLog::new())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_store_conforms() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    conformance(Arc::new(store)).await;
    writer.join();
}

/// What a restart needs: the logs and the lengths survive the process; a writer that reopens the
/// store is fenced by what is on disk, not by what it remembers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_store_keeps_logs_and_fences_across_a_reopen() {
    let dir = tempfile::tempdir().expect("temp dir");
    {
        let (store, writer) = Store::open(dir.path(), false).expect("store");
        assert_eq!(
            store.append("t-x", 0, vec![created(1), input(1)]).await,
            Ok(2)
        );
        assert_eq!(store.append("t-y", 0, vec![created(2)]).await, Ok(1));
        drop(store);
        writer.join();
    }
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    // Not loaded first: the writer learns the length from the database.
    assert!(matches!(
        store.append("t-x", 0, vec![input(2)]).await,
        Err(LogError::Conflict { found: 2, .. })
    ));
    assert_eq!(store.append("t-x", 2, vec![input(2)]).await, Ok(3));
    let logs = store.load_in_play().await.unwrap();
    assert_eq!(
        logs,
        vec![
            ("t-x".to_owned(), vec![created(1), input(1), input(2)]),
            ("t-y".to_owned(), vec![created(2)]),
        ]
    );
    assert_eq!(store.append("t-y", 1, vec![input(1)]).await, Ok(2));
    drop(store);
    writer.join();
}
