//! The arena's store (`burraco_server::arena::store::ArenaStore`): one conformance suite, run on
//! the SQLite file of one node and on a real PostgreSQL 15 server this test starts. A match made
//! counts toward both bots' daily cap and lists them for the leaderboard; a bot account's
//! matches of a period come back oldest first (its welcome tells those in play again); a void
//! match is taken out, once or twice alike.

use burraco_server::accounts::sqlite::SqliteAccounts;
use burraco_server::arena::store::{ArenaStore, MadeMatch, open};
use burraco_server::config::ServerConfig;
use burraco_server::store::Store;

use crate::accounts::Postgres;

fn made(arena: &str, a: &str, b: &str, created_ms: i64) -> MadeMatch {
    MadeMatch {
        arena: arena.into(),
        bot_a: a.into(),
        name_a: format!("name of {a}"),
        bot_b: b.into(),
        name_b: format!("name of {b}"),
        created_ms,
    }
}

async fn conformance(store: &dyn ArenaStore) {
    let anna_bruno = made("A-1", "u-anna", "u-bruno", 1_000);
    let bruno_anna = made("A-2", "u-bruno", "u-anna", 2_000);
    let anna_l2 = made("A-3", "u-anna", "server-bot:L2", 3_000);
    for m in [&anna_bruno, &bruno_anna, &anna_l2] {
        store.record(m).await.expect("recorded");
    }
    // Recorded again (a retry): nothing changes.
    store.record(&anna_bruno).await.expect("recorded again");
    assert_eq!(store.matches_since("u-anna", 0).await, Ok(3));
    assert_eq!(store.matches_since("u-anna", 1_500).await, Ok(2));
    assert_eq!(store.matches_since("u-bruno", 0).await, Ok(2));
    assert_eq!(
        store.matches_of("u-anna", 0).await,
        Ok(vec![
            anna_bruno.clone(),
            bruno_anna.clone(),
            anna_l2.clone()
        ])
    );
    assert_eq!(
        store.matches_of("u-bruno", 1_500).await,
        Ok(vec![bruno_anna.clone()])
    );
    assert_eq!(store.matches_of("u-nobody", 0).await, Ok(Vec::new()));
    let mut bots = store.bots().await.expect("bots");
    bots.sort();
    assert_eq!(
        bots,
        vec![
            ("u-anna".to_owned(), "name of u-anna".to_owned()),
            ("u-bruno".to_owned(), "name of u-bruno".to_owned()),
        ],
        "a server bot's anchor is no bot of the board"
    );
    // A void match counts no more, for either bot.
    store.void("A-1").await.expect("void");
    store.void("A-1").await.expect("void again");
    assert_eq!(store.matches_since("u-anna", 0).await, Ok(2));
    assert_eq!(store.matches_since("u-bruno", 0).await, Ok(1));
    assert_eq!(
        store.matches_of("u-anna", 0).await,
        Ok(vec![bruno_anna, anna_l2])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_arena_store_conforms() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    let accounts = SqliteAccounts::open(&store).expect("the accounts' migrations");
    let config = ServerConfig::default();
    let arena = open(&config, &store, None)
        .await
        .expect("the arena's store");
    conformance(&*arena).await;
    drop((accounts, arena, store));
    writer.join();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_arena_store_conforms() {
    let postgres = Postgres::start();
    let db = postgres.node().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    let config = ServerConfig::default();
    let arena = open(&config, &store, Some(&db))
        .await
        .expect("the arena's store");
    conformance(&*arena).await;
    drop((arena, store));
    writer.join();
}
