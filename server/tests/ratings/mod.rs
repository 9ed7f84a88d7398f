//! Rated play (protocol 1.5): guests refused, a rated 2-player match updating both players'
//! ratings once, and kill -9 of the server between the match's end and its projections (the
//! ratings, the players' index, fair play's outcomes): after the restart the sweep runs each,
//! exactly once. Tournaments (1.7): entrants' accounts and levels, a guest refused at a rated
//! tournament's registration, and rated play refused `rated_unavailable` by a cluster without a
//! database.

/// The `Ratings` port's conformance suite, on SQLite and PostgreSQL.
mod port;
/// Accounts in tournaments (1.7): entrants' accounts and levels, guests refused at a rated
/// tournament's registration.
mod tournament;
/// Rated play refused `rated_unavailable` where no ratings are kept (a cluster without a
/// database).
mod unavailable;

use std::net::SocketAddr;
use std::time::Duration;

use burraco_protocol::wire::{ClientMessage, ServerMessage};
use burraco_rules::Seat;
use serde_json::{Value, json};

use crate::accounts::http::http_post;
use crate::common::{Client, NoCheck, Table, TestServer, http_get, settings};

/// Signs `name` up: (its account id, its session token).
pub async fn sign_up(addr: SocketAddr, name: &str) -> (String, String) {
    let body = json!({"username": name, "password": "correct horse"}).to_string();
    let reply = http_post(addr, "/api/signup", None, &body).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    let id = reply.json()["id"].as_str().expect("id").to_owned();
    (id, reply.token())
}

/// A 1.5 connection signed in with the session cookie (from the server's own page).
pub async fn signed_in(addr: SocketAddr, name: &str, session: &str) -> Client {
    let cookie = format!("burraco_session={session}");
    let origin = format!("http://{addr}");
    Client::connect_with_headers(
        addr,
        name,
        "1.5",
        &[("Cookie", &cookie), ("Origin", &origin)],
    )
    .await
    .0
}

fn code(reply: &ServerMessage) -> Option<&str> {
    match reply {
        ServerMessage::Error { code, .. } => Some(code),
        _ => None,
    }
}

pub async fn ratings_of(addr: SocketAddr, account: &str) -> Value {
    let (status, body) = http_get(addr, &format!("/api/ratings/{account}")).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).expect("json")
}

/// The account's `two` rating's matches, 0 without one.
pub fn matches_two(ratings: &Value) -> i64 {
    ratings["ratings"]
        .as_array()
        .expect("ratings")
        .iter()
        .find(|r| r["category"] == "two")
        .map_or(0, |r| r["matches"].as_i64().expect("matches"))
}

/// Anna and Bruno (accounts) sit at a rated 2-player table of one hand and play it to the end.
/// A guest is refused a rated table, both to create and to join.
pub async fn play_rated_match(addr: SocketAddr, anna: &str, bruno: &str) -> String {
    let one_hand = settings("fitab", 2, Some(1), "off");
    // A 1.4 client is refused the 1.5 requests.
    let mut old = Client::connect_saying(addr, "Olga", None, false, "1.4")
        .await
        .0;
    let refused = old.request(|id| ClientMessage::ListLobby { id }).await;
    assert_eq!(code(&refused), Some("needs_minor"), "{refused:?}");
    let mut guest = Client::connect_saying(addr, "Gianni", None, false, "1.5")
        .await
        .0;
    let refused = guest
        .request(|id| ClientMessage::CreateRatedTable {
            id,
            settings: one_hand.clone(),
            private: false,
        })
        .await;
    assert_eq!(code(&refused), Some("account_required"), "{refused:?}");
    let mut a = signed_in(addr, "Anna", anna).await;
    let created = a
        .request(|id| ClientMessage::CreateRatedTable {
            id,
            settings: one_hand.clone(),
            private: false,
        })
        .await;
    let ServerMessage::TableCreated { table, seat, .. } = created else {
        panic!("create: {created:?}")
    };
    // Listed as rated in the 1.5 lobby.
    let lobby = guest.request(|id| ClientMessage::ListLobby { id }).await;
    let ServerMessage::Lobby { tables, .. } = lobby else {
        panic!("lobby: {lobby:?}")
    };
    assert!(
        tables.iter().any(|t| t.table == table && t.rated),
        "{tables:?}"
    );
    let t = table.clone();
    let refused = guest
        .request(|id| ClientMessage::Join {
            id,
            table: Some(t),
            invite: None,
            seat: None,
        })
        .await;
    assert_eq!(code(&refused), Some("account_required"), "{refused:?}");
    // Anna in a second tab (another session, the same account) cannot take the other seat.
    let mut again = signed_in(addr, "Anna", anna).await;
    let t = table.clone();
    let refused = again
        .request(|id| ClientMessage::Join {
            id,
            table: Some(t),
            invite: None,
            seat: None,
        })
        .await;
    assert_eq!(code(&refused), Some("seat_taken"), "{refused:?}");
    let mut b = signed_in(addr, "Bruno", bruno).await;
    let t = table.clone();
    let seated = b
        .request(|id| ClientMessage::Join {
            id,
            table: Some(t),
            invite: None,
            seat: None,
        })
        .await;
    let ServerMessage::Seated { seat: seat_b, .. } = seated else {
        panic!("join: {seated:?}")
    };
    let mut clients = vec![(seat.0, a), (seat_b.0, b)];
    for (_, c) in &mut clients {
        let table = table.clone();
        c.ok(|id| ClientMessage::Ready { id, table }).await;
    }
    let config = burraco_protocol::convert::config_from_wire(&one_hand).expect("settings");
    // The seats' levels: none while the ratings are provisional (a first match).
    let t = table.clone();
    let levels = guest
        .request(|id| ClientMessage::TableLevels { id, table: t })
        .await;
    let ServerMessage::TableLevels { rated, levels, .. } = levels else {
        panic!("table_levels: {levels:?}")
    };
    assert!(rated);
    assert!(levels.is_empty(), "{levels:?}");
    let mut match_table = Table {
        id: table.clone(),
        config,
        clients,
    };
    let mut mirror = match_table.next_hand().await;
    match_table.play_hand(&mut mirror, NoCheck).await;
    match_table
        .client(Seat::South)
        .wait(|m| matches!(m, ServerMessage::MatchEnded { .. }))
        .await;
    table
}

/// Polls until `account` has `want` rated 2-player matches (at most `limit`).
pub async fn until_matches(addr: SocketAddr, account: &str, want: i64, limit: Duration) -> Value {
    let start = std::time::Instant::now();
    loop {
        let ratings = ratings_of(addr, account).await;
        if matches_two(&ratings) == want || start.elapsed() > limit {
            return ratings;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_match_moves_both_ratings_once_and_guests_are_refused() {
    let server = TestServer::with(|config| {
        config.rated_min_play = Duration::ZERO;
    })
    .await;
    let addr = server.addr;
    let (anna_id, anna) = sign_up(addr, "Anna").await;
    let (bruno_id, bruno) = sign_up(addr, "Bruno").await;
    let table = play_rated_match(addr, &anna, &bruno).await;
    for account in [&anna_id, &bruno_id] {
        let ratings = until_matches(addr, account, 1, Duration::from_secs(10)).await;
        assert_eq!(matches_two(&ratings), 1, "{ratings}");
        let two = &ratings["ratings"][0];
        // A first match: provisional still, and the deviation fell from a new player's 350.
        assert_eq!(two["provisional"], true, "{ratings}");
        assert!(
            two["deviation"].as_f64().expect("deviation") < 350.0,
            "{ratings}"
        );
        let history = ratings["history"].as_array().expect("history");
        assert_eq!(history.len(), 1, "{ratings}");
        assert_eq!(history[0]["match"], table.as_str());
    }
    // A rated table takes no server bots; the board lists no provisional rating.
    let (status, body) = http_get(addr, "/api/leaderboards/two").await;
    assert_eq!(status, 200, "{body}");
    let board: Value = serde_json::from_str(&body).expect("json");
    assert_eq!(board["rows"].as_array().map(Vec::len), Some(0), "{body}");
    let (status, body) = http_get(addr, "/api/leaderboards/two?period=week").await;
    assert_eq!(status, 200, "{body}");
    let weekly: Value = serde_json::from_str(&body).expect("json");
    assert_eq!(weekly["rows"].as_array().map(Vec::len), Some(2), "{body}");
    let (status, _) = http_get(addr, "/api/leaderboards/three").await;
    assert_eq!(status, 404);
    server.stop().await;
}

/// The match-end projections one account sees: its `two` rating's matches and history points,
/// its rows in the players' index, and its fair-play outcomes.
#[derive(Debug, PartialEq)]
struct Projected {
    rated: i64,
    history: usize,
    indexed: usize,
    outcomes: Vec<String>,
}

async fn projected(addr: SocketAddr, account: &str, session: &str) -> Projected {
    let ratings = ratings_of(addr, account).await;
    let (status, body) = http_get(addr, &format!("/api/players/{account}")).await;
    assert_eq!(status, 200, "{body}");
    let page: Value = serde_json::from_str(&body).expect("json");
    let cookie = format!("burraco_session={session}");
    let playban = crate::accounts::http::http(
        addr,
        "GET",
        "/api/account/playban",
        &[("Cookie", &cookie)],
        "",
    )
    .await;
    assert_eq!(playban.status, 200, "{}", playban.body);
    let outcomes = playban.json()["outcomes"]
        .as_array()
        .expect("outcomes")
        .iter()
        .map(|o| o["outcome"].as_str().expect("a code").to_owned())
        .collect();
    Projected {
        rated: matches_two(&ratings),
        history: ratings["history"].as_array().map_or(0, Vec::len),
        indexed: page["matches"].as_array().map_or(0, Vec::len),
        outcomes,
    }
}

/// Polls until `account`'s projections are `want` (at most `limit`), and returns the last seen.
async fn until_projected(
    addr: SocketAddr,
    account: &str,
    session: &str,
    want: &Projected,
    limit: Duration,
) -> Projected {
    let start = std::time::Instant::now();
    loop {
        let seen = projected(addr, account, session).await;
        if seen == *want || start.elapsed() > limit {
            return seen;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_between_a_matchs_end_and_its_projections_then_the_restart_runs_each_once() {
    let data = tempfile::tempdir().expect("temp dir");
    // The projections wait a minute after the match's end: the kill lands in between.
    let flags = [
        "--test-rated-min-play-ms",
        "0",
        "--test-rating-delay-ms",
        "60000",
    ];
    let (mut child, addr) = crate::crash::start_with(data.path(), &flags);
    let (anna_id, anna) = sign_up(addr, "Anna").await;
    let (bruno_id, bruno) = sign_up(addr, "Bruno").await;
    play_rated_match(addr, &anna, &bruno).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let nothing = Projected {
        rated: 0,
        history: 0,
        indexed: 0,
        outcomes: Vec::new(),
    };
    for (account, session) in [(&anna_id, &anna), (&bruno_id, &bruno)] {
        assert_eq!(projected(addr, account, session).await, nothing);
    }
    child.kill().expect("kill -9");
    let _ = child.wait();
    // Restarted without the delay: the sweep at start finds the match's end in the log and runs
    // every projection: the ratings, the players' index, fair play's outcomes.
    let once = Projected {
        rated: 1,
        history: 1,
        indexed: 1,
        outcomes: vec!["good".to_owned()],
    };
    let (mut child, addr) =
        crate::crash::start_with(data.path(), &["--test-rated-min-play-ms", "0"]);
    for (account, session) in [(&anna_id, &anna), (&bruno_id, &bruno)] {
        let seen = until_projected(addr, account, session, &once, Duration::from_secs(10)).await;
        assert_eq!(seen, once);
    }
    // Once more: a second sweep (another restart) finds every key stored and changes nothing.
    child.kill().expect("kill -9");
    let _ = child.wait();
    let (_child, addr) = crate::crash::start_with(data.path(), &["--test-rated-min-play-ms", "0"]);
    tokio::time::sleep(Duration::from_millis(500)).await;
    for (account, session) in [(&anna_id, &anna), (&bruno_id, &bruno)] {
        assert_eq!(projected(addr, account, session).await, once);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_quick_play_seats_accounts_together_and_apart_from_casual_play() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let (_, anna) = sign_up(addr, "Anna").await;
    let (_, bruno) = sign_up(addr, "Bruno").await;
    let quick = |rated: bool| {
        move |id| {
            if rated {
                ClientMessage::QuickPlayRated {
                    id,
                    preset: Some("fitab".into()),
                    players: Some(2),
                }
            } else {
                ClientMessage::QuickPlay {
                    id,
                    preset: Some("fitab".into()),
                    players: Some(2),
                }
            }
        }
    };
    let mut a = signed_in(addr, "Anna", &anna).await;
    let ServerMessage::Seated { table: rated, .. } = a.request(quick(true)).await else {
        panic!("anna not seated")
    };
    // A guest's casual quick play opens its own table; its rated quick play is refused.
    let mut guest = Client::connect_saying(addr, "Gianni", None, false, "1.5")
        .await
        .0;
    let ServerMessage::Seated { table: casual, .. } = guest.request(quick(false)).await else {
        panic!("guest not seated")
    };
    assert_ne!(casual, rated);
    let mut other = Client::connect_saying(addr, "Olga", None, false, "1.5")
        .await
        .0;
    let refused = other.request(quick(true)).await;
    assert_eq!(code(&refused), Some("account_required"), "{refused:?}");
    // Bruno (a new rating, as Anna's) is seated at Anna's rated table.
    let mut b = signed_in(addr, "Bruno", &bruno).await;
    let ServerMessage::Seated { table, .. } = b.request(quick(true)).await else {
        panic!("bruno not seated")
    };
    assert_eq!(table, rated);
    server.stop().await;
}

/// Anna leaves a rated match as its hand starts (a server bot plays her seat out); Bruno plays it
/// to the end. Anna alone is rated, losing it 0-20 whatever the score; Bruno, who may have won
/// against the bot, is not rated by it; Anna's outcome is `left`, Bruno's `good`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_leaver_of_a_rated_match_alone_loses_it_and_the_opponent_is_not_rated() {
    let server = TestServer::with(|config| {
        config.rated_min_play = Duration::ZERO;
        crate::bots::fast_bots(config);
    })
    .await;
    let addr = server.addr;
    let (anna_id, anna) = sign_up(addr, "Anna").await;
    let (bruno_id, bruno) = sign_up(addr, "Bruno").await;
    let mut a = signed_in(addr, "Anna", &anna).await;
    let created = a
        .request(|id| ClientMessage::CreateRatedTable {
            id,
            settings: settings("fitab", 2, Some(1), "off"),
            private: false,
        })
        .await;
    let ServerMessage::TableCreated { table, .. } = created else {
        panic!("create: {created:?}")
    };
    let mut b = signed_in(addr, "Bruno", &bruno).await;
    let t = table.clone();
    let seated = b
        .request(|id| ClientMessage::Join {
            id,
            table: Some(t),
            invite: None,
            seat: None,
        })
        .await;
    let ServerMessage::Seated { seat, .. } = seated else {
        panic!("join: {seated:?}")
    };
    let t = table.clone();
    a.ok(|id| ClientMessage::Ready { id, table: t }).await;
    let mut bruno_plays = crate::bots::Human::seated(b, table.clone(), seat.0);
    bruno_plays.ready().await;
    a.wait(|m| matches!(m, ServerMessage::HandStarted { .. }))
        .await;
    let t = table.clone();
    a.ok(|id| ClientMessage::Leave { id, table: t }).await;
    bruno_plays
        .pump(|m| matches!(m, ServerMessage::MatchEnded { .. }))
        .await;
    let anna_ratings = until_matches(addr, &anna_id, 1, Duration::from_secs(10)).await;
    assert_eq!(matches_two(&anna_ratings), 1, "{anna_ratings}");
    let two = &anna_ratings["ratings"][0];
    assert!(
        two["rating"].as_f64().expect("rating") < 1500.0,
        "lost as 0-20: {anna_ratings}"
    );
    let bruno_ratings = ratings_of(addr, &bruno_id).await;
    assert_eq!(matches_two(&bruno_ratings), 0, "{bruno_ratings}");
    let seen = projected(addr, &anna_id, &anna).await;
    assert_eq!(seen.outcomes, vec!["left".to_owned()]);
    let seen = projected(addr, &bruno_id, &bruno).await;
    assert_eq!(seen.outcomes, vec!["good".to_owned()]);
    assert_eq!(seen.indexed, 1, "the match is on Bruno's page all the same");
    server.stop().await;
}
