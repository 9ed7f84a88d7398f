//! Rated players waiting at tables of their own are brought together as their windows widen,
//! without anybody new asking (the server counts 40 ms as a second of a table's wait here, so
//! the 51 s is about two); only a 1.9 connection is ever moved.

use std::net::SocketAddr;
use std::time::Duration;

use burraco_protocol::wire::{ClientMessage, ServerMessage, WireSeat};

use crate::common::*;
use crate::ratings::sign_up;

/// What the server counts as a second of a rated table's wait.
const SECOND: Duration = Duration::from_millis(40);

/// A connection of a signed-in account whose hello says `version`.
async fn signed_in_saying(addr: SocketAddr, name: &str, session: &str, version: &str) -> Client {
    let cookie = format!("burraco_session={session}");
    let origin = format!("http://{addr}");
    Client::connect_with_headers(
        addr,
        name,
        version,
        &[("Cookie", &cookie), ("Origin", &origin)],
    )
    .await
    .0
}

/// Gives `account` a head-to-head rating of `rating`, written into the server's own store (as
/// if it had played for it).
fn rate(dir: &std::path::Path, account: &str, rating: f64) {
    let conn = rusqlite::Connection::open(dir.join("burraco.sqlite3")).expect("open the store");
    conn.busy_timeout(Duration::from_secs(5))
        .expect("busy timeout");
    conn.execute(
        "INSERT INTO ratings (subject, category, member_a, member_b, bot, rating, deviation,
            volatility, matches, last_ms) VALUES (?1, 'two', ?1, NULL, 0, ?2, 60.0, 0.06, 12, ?3)",
        rusqlite::params![account, rating, burraco_server::ids::unix_ms()],
    )
    .expect("a rating");
}

async fn quick_rated(c: &mut Client) -> (String, WireSeat) {
    let reply = c
        .request(|id| ClientMessage::QuickPlayRated {
            id,
            preset: Some("fitab".into()),
            players: Some(2),
        })
        .await;
    let ServerMessage::Seated { table, seat, .. } = reply else {
        panic!("{} not seated: {reply:?}", c.name)
    };
    (table, seat)
}

/// The two accounts, 1180 and 1586 (406 apart: 51.2 s of waiting before a window of
/// 150 + 5 a second reaches), each at a rated table of its own: once the window covers them the
/// newer table's player is told to go to the older one, where its seat is held, joins it, and
/// the two play.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_players_apart_are_brought_together_as_their_windows_widen() {
    let server = TestServer::with(|c| c.quick_play_second = SECOND).await;
    let addr = server.addr;
    let (low_id, low) = sign_up(addr, "Lucia").await;
    let (high_id, high) = sign_up(addr, "Marco").await;
    rate(server.dir.path(), &low_id, 1180.0);
    rate(server.dir.path(), &high_id, 1586.0);
    let mut lucia = signed_in_saying(addr, "Lucia", &low, "1.9").await;
    let mut marco = signed_in_saying(addr, "Marco", &high, "1.9").await;
    let (older, _) = quick_rated(&mut lucia).await;
    let (newer, _) = quick_rated(&mut marco).await;
    assert_ne!(older, newer, "406 apart: not within a new table's 150");
    let moved = marco
        .wait(|m| matches!(m, ServerMessage::QuickPlayMoved { .. }))
        .await;
    let ServerMessage::QuickPlayMoved { from, table, seat } = moved else {
        unreachable!()
    };
    assert_eq!(
        (from.as_str(), table.as_str()),
        (newer.as_str(), older.as_str())
    );
    let joined = marco
        .request(|id| ClientMessage::Join {
            id,
            table: Some(table.clone()),
            invite: None,
            seat: Some(seat),
        })
        .await;
    assert!(
        matches!(&joined, ServerMessage::Seated { table: t, seat: s, .. } if *t == older && *s == seat),
        "{joined:?}"
    );
    // Both ready: the match starts at the older table.
    for c in [&mut lucia, &mut marco] {
        let t = older.clone();
        c.ok(|id| ClientMessage::Ready { id, table: t }).await;
    }
    for c in [&mut lucia, &mut marco] {
        c.wait(|m| matches!(m, ServerMessage::MatchStarted { .. }))
            .await;
    }
    assert!(
        !lucia
            .log
            .iter()
            .any(|m| matches!(m, ServerMessage::QuickPlayMoved { .. })),
        "the older table's player stays"
    );
    server.stop().await;
}

/// A connection whose hello said less than 1.9 cannot see a move: it is never moved, whichever
/// table is older; the 1.9 player goes to it instead.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_on_an_older_client_is_never_moved_the_other_comes_to_it() {
    let server = TestServer::with(|c| c.quick_play_second = SECOND).await;
    let addr = server.addr;
    let (old_id, old) = sign_up(addr, "Olga").await;
    let (new_id, new) = sign_up(addr, "Nino").await;
    rate(server.dir.path(), &old_id, 1180.0);
    rate(server.dir.path(), &new_id, 1586.0);
    // Olga's 1.8 table is the newer one: by age it would be moved, so Nino moves instead.
    let mut nino = signed_in_saying(addr, "Nino", &new, "1.9").await;
    let mut olga = signed_in_saying(addr, "Olga", &old, "1.8").await;
    let (ninos, _) = quick_rated(&mut nino).await;
    let (olgas, _) = quick_rated(&mut olga).await;
    assert_ne!(ninos, olgas);
    let moved = nino
        .wait(|m| matches!(m, ServerMessage::QuickPlayMoved { .. }))
        .await;
    let ServerMessage::QuickPlayMoved { from, table, seat } = moved else {
        unreachable!()
    };
    assert_eq!(
        (from.as_str(), table.as_str()),
        (ninos.as_str(), olgas.as_str())
    );
    let joined = nino
        .request(|id| ClientMessage::Join {
            id,
            table: Some(table.clone()),
            invite: None,
            seat: Some(seat),
        })
        .await;
    assert!(matches!(joined, ServerMessage::Seated { .. }), "{joined:?}");
    // Olga hears Nino come, at the table she never left.
    olga.wait(|m| matches!(m, ServerMessage::PlayerReconnected { table: t, .. } if *t == olgas))
        .await;
    assert!(
        !olga.frames.iter().any(|f| f.contains("quick_play_moved")),
        "a 1.8 connection never hears of a move"
    );
    server.stop().await;
}
