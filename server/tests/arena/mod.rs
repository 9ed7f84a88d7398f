//! The bot arena online (protocol 1.7) on the raw socket: two bot accounts say they are ready,
//! the server matches them on duplicate boards (the same deal at two tables, the seats swapped),
//! both tables are played, the pair is rated once in the bots' pool and shows on
//! `GET /api/arena/leaderboard` beside the server bots' anchors and on each bot's player page;
//! the daily cap, a guest, a player account and a token without `play` are refused; a challenge
//! of a server bot's level is made at once. Bounded: one hand a table, every wait capped.
//! [`restarts`]: a match survives its bots' and the server's restarts, and one nobody finishes
//! is settled. [`store`]: the arena's store's conformance on SQLite and PostgreSQL.

mod restarts;
mod store;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use burraco_protocol::wire::{ArenaTable, ClientMessage, ServerMessage};
use burraco_rules::Seat;
use serde_json::{Value, json};

use crate::accounts::http::{http, http_post};
use crate::common::{AsyncStep, Client, Mirror, Table, TestServer, http_get, settings};

/// Signs `name` up; its session cookie header.
pub(super) async fn sign_up(addr: SocketAddr, name: &str) -> String {
    let body = json!({"username": name, "password": "correct horse"}).to_string();
    let reply = http_post(addr, "/api/signup", None, &body).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    format!("burraco_session={}", reply.token())
}

/// A token of `scopes` for `name`'s account (made a bot account first when `bot`): its
/// `Authorization` header.
pub(super) async fn token(addr: SocketAddr, name: &str, bot: bool, scopes: &[&str]) -> String {
    let cookie = sign_up(addr, name).await;
    if bot {
        let made = http(addr, "POST", "/api/account/bot", &[("Cookie", &cookie)], "").await;
        assert_eq!(made.status, 200, "{}", made.body);
    }
    let body = json!({"label": "arena", "scopes": scopes}).to_string();
    let token = http(addr, "POST", "/api/tokens", &[("Cookie", &cookie)], &body).await;
    assert_eq!(token.status, 201, "{}", token.body);
    let token = token.json()["token"].as_str().expect("token").to_owned();
    format!("Bearer {token}")
}

/// A 1.7 connection with this `Authorization`; the client and its account's id.
pub(super) async fn connect(addr: SocketAddr, name: &str, authorization: &str) -> (Client, String) {
    let headers = [("Authorization", authorization)];
    let (mut client, _) = Client::connect_with(addr, name, None, "1.7", &headers).await;
    let identity = client
        .wait(|m| matches!(m, ServerMessage::Identity { .. }))
        .await;
    let ServerMessage::Identity { account, .. } = identity else {
        unreachable!()
    };
    (client, account.expect("an account"))
}

pub(super) fn code(reply: &ServerMessage) -> Option<&str> {
    match reply {
        ServerMessage::Error { code, .. } => Some(code),
        _ => None,
    }
}

pub(super) async fn ready(client: &mut Client) -> ServerMessage {
    client
        .request(|id| ClientMessage::ArenaReady { id, level: None })
        .await
}

/// The `arena_match` the client was sent: (arena, its tables).
pub(super) async fn matched(client: &mut Client) -> (String, Vec<ArenaTable>, ServerMessage) {
    let message = tokio::time::timeout(
        Duration::from_secs(10),
        client.wait(|m| matches!(m, ServerMessage::ArenaMatch { .. })),
    )
    .await
    .expect("matched within 10 s");
    let ServerMessage::ArenaMatch { arena, tables, .. } = &message else {
        unreachable!()
    };
    (arena.clone(), tables.clone(), message)
}

/// Polls `path` until `done` holds (at most 15 s); the last body.
pub(super) async fn until(addr: SocketAddr, path: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let (status, body) = http_get(addr, path).await;
        assert_eq!(status, 200, "{path}: {body}");
        let value: Value = serde_json::from_str(&body).expect("json");
        if done(&value) || start.elapsed() > Duration::from_secs(15) {
            return value;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A pause after each move: a personal token's connections share 40 requests a second
/// (docs/ACCOUNTS.md), and the two bots' moves alternate, so each stays under its rate.
pub(super) struct Paced;

impl AsyncStep for Paced {
    async fn step(&mut self, _: &mut Table, _: &Mirror) {
        tokio::time::sleep(Duration::from_millis(15)).await;
    }
}

pub(super) fn board_row<'a>(board: &'a Value, account: &str) -> Option<&'a Value> {
    board["rows"]
        .as_array()?
        .iter()
        .find(|r| r["account"] == account)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_ready_bots_play_both_directions_of_a_deal_and_are_rated_once() {
    // The people's minimum play time stays (60 s): bots playing in seconds are rated anyway.
    let server = TestServer::with(|config| {
        config.arena_hands = 1;
        config.arena_daily_cap = 1;
        // Long enough that the two bots meet each other, never a server bot.
        config.arena_wait = Duration::from_secs(600);
        // A match nobody comes to closes soon (the challenge below); the bots here join at once.
        config.arena_start_limit = Duration::from_secs(3);
    })
    .await;
    let addr = server.addr;

    // Refused: a guest, a player account, a bot token without `play`, a 1.6 connection.
    let mut guest = Client::connect_saying(addr, "Gianni", None, false, "1.7")
        .await
        .0;
    let refused = ready(&mut guest).await;
    assert_eq!(code(&refused), Some("bot_account_required"), "{refused:?}");
    let player = token(addr, "Paola", false, &["play"]).await;
    let (mut paola, _) = connect(addr, "Paola", &player).await;
    let refused = ready(&mut paola).await;
    assert_eq!(code(&refused), Some("bot_account_required"), "{refused:?}");
    let reader = token(addr, "RoboRita", true, &["read_account"]).await;
    let (mut rita, _) = connect(addr, "RoboRita", &reader).await;
    let refused = ready(&mut rita).await;
    assert_eq!(code(&refused), Some("missing_scope"), "{refused:?}");
    let anna_token = token(addr, "RoboAnna", true, &["play"]).await;
    let headers = [("Authorization", anna_token.as_str())];
    let (mut old, _) = Client::connect_with(addr, "RoboAnna", None, "1.6", &headers).await;
    let refused = ready(&mut old).await;
    assert_eq!(code(&refused), Some("needs_minor"), "{refused:?}");
    drop(old);

    // Two bots ready: matched with each other on two tables, the seats swapped.
    let (mut anna, anna_id) = connect(addr, "RoboAnna", &anna_token).await;
    let bruno_token = token(addr, "RoboBruno", true, &["play"]).await;
    let (mut bruno, bruno_id) = connect(addr, "RoboBruno", &bruno_token).await;
    let queued = ready(&mut anna).await;
    let ServerMessage::ArenaQueued {
        waiting,
        matches_today,
        daily_cap,
        ..
    } = queued
    else {
        panic!("arena_ready: {queued:?}")
    };
    assert!(waiting);
    assert_eq!((matches_today, daily_cap), (0, 1));
    let queued = ready(&mut bruno).await;
    assert!(
        matches!(queued, ServerMessage::ArenaQueued { .. }),
        "{queued:?}"
    );
    let (arena, anna_tables, told) = matched(&mut anna).await;
    let ServerMessage::ArenaMatch {
        opponent,
        opponent_account,
        server_bot,
        hands,
        ..
    } = &told
    else {
        unreachable!()
    };
    assert_eq!(opponent, "RoboBruno");
    assert_eq!(opponent_account.as_deref(), Some(bruno_id.as_str()));
    assert_eq!((server_bot, *hands), (&None, 1));
    let (bruno_arena, bruno_tables, _) = matched(&mut bruno).await;
    assert_eq!(bruno_arena, arena);
    assert_eq!(anna_tables.len(), 2);
    for (a, b) in anna_tables.iter().zip(&bruno_tables) {
        assert_eq!(a.table, b.table);
        assert_ne!(a.seat, b.seat);
    }
    assert_eq!(anna_tables[0].seat.0, Seat::South);
    assert_eq!(anna_tables[1].seat.0, Seat::North);
    // The daily cap: one match made today each.
    let capped = ready(&mut bruno).await;
    assert_eq!(code(&capped), Some("arena_daily_cap"), "{capped:?}");

    // Both tables played, in order: the same deal (the test's fixed seed) with the seats swapped.
    let config =
        burraco_protocol::convert::config_from_wire(&settings("fitab", 2, Some(1), "federation"))
            .expect("settings");
    let mut clients = vec![anna, bruno];
    for (a, b) in anna_tables.iter().zip(&bruno_tables) {
        let mut seated = Vec::new();
        for (client, place) in clients.drain(..).zip([a, b]) {
            let mut client = client;
            let table = place.table.clone();
            let reply = client
                .request(|id| ClientMessage::Join {
                    id,
                    table: Some(table),
                    invite: None,
                    seat: None,
                })
                .await;
            let ServerMessage::Seated { seat, .. } = reply else {
                panic!("join {}: {reply:?}", place.table)
            };
            assert_eq!(seat, place.seat, "the seat held");
            seated.push((seat.0, client));
        }
        for (_, client) in &mut seated {
            let table = a.table.clone();
            client.ok(|id| ClientMessage::Ready { id, table }).await;
        }
        let mut table = Table {
            id: a.table.clone(),
            config,
            clients: seated,
        };
        let mut mirror = table.next_hand().await;
        table.play_hand(&mut mirror, Paced).await;
        let id = a.table.clone();
        table
            .client(Seat::South)
            .wait(|m| matches!(m, ServerMessage::MatchEnded { table, .. } if *table == id))
            .await;
        // In the order they were seated: Anna, then Bruno.
        clients = table.clients.into_iter().map(|(_, c)| c).collect();
        if a.table == anna_tables[0].table {
            // The board is still to be played at the second table: its record stays back.
            let (status, body) = http_get(addr, &format!("/api/tables/{}/hands", a.table)).await;
            assert_eq!(
                (status, body.as_str()),
                (200, "[]"),
                "the first table's record"
            );
        }
    }

    // Rated once, as one match: each bot's rating has one match and one history point, keyed by
    // the arena; both are on the board, with their interval, beside the four anchors.
    let board = until(addr, "/api/arena/leaderboard", |b| {
        board_row(b, &anna_id).is_some() && board_row(b, &bruno_id).is_some()
    })
    .await;
    for id in [&anna_id, &bruno_id] {
        let row = board_row(&board, id).unwrap_or_else(|| panic!("{id} on {board}"));
        assert_eq!(row["matches"], 1, "{board}");
        let (rating, deviation) = (row["rating"].as_f64(), row["deviation"].as_f64());
        let (rating, deviation) = (rating.expect("rating"), deviation.expect("deviation"));
        assert!(deviation < 350.0, "{board}");
        let low = row["low"].as_f64().expect("low");
        assert!((low - (rating - 2.0 * deviation)).abs() < 0.2, "{board}");
    }
    let anchors: Vec<&Value> = board["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["anchor"] == true)
        .collect();
    assert_eq!(anchors.len(), 4, "{board}");
    assert!(
        anchors
            .iter()
            .any(|r| r["server_bot"] == "L2" && r["rating"] == 1645.0)
    );
    // The same deal both ways, played by the same moves (the test's one strategy): whatever
    // South won at the first table North won at the second, so the pair is a draw and neither
    // rating moved; only the deviations fell (one match's information each).
    let rating = |id: &str| board_row(&board, id).and_then(|r| r["rating"].as_f64());
    let (a, b) = (rating(&anna_id).expect("a"), rating(&bruno_id).expect("b"));
    assert!(
        (a - 1500.0).abs() < 0.5 && (b - 1500.0).abs() < 0.5,
        "{a} {b}"
    );
    // Once: a second look after the sweep's chance changes nothing, one history point each.
    tokio::time::sleep(Duration::from_millis(300)).await;
    for id in [&anna_id, &bruno_id] {
        let (status, body) = http_get(addr, &format!("/api/ratings/{id}")).await;
        assert_eq!(status, 200, "{body}");
        let ratings: Value = serde_json::from_str(&body).expect("json");
        let history = ratings["history"].as_array().expect("history");
        assert_eq!(history.len(), 1, "{ratings}");
        assert_eq!(history[0]["match"], arena.as_str(), "{ratings}");
    }
    // Both tables played the board: its records are out, the same deal at each.
    let mut commitments = Vec::new();
    for place in &anna_tables {
        let records = until(addr, &format!("/api/tables/{}/hands", place.table), |r| {
            r.as_array().is_some_and(|r| r.len() == 1)
        })
        .await;
        commitments.push(records[0]["commitment"].clone());
    }
    assert_eq!(commitments[0], commitments[1], "one deal, both ways");
    // The bot's page lists both tables as the arena's, with their replays.
    let page = until(addr, &format!("/api/players/{anna_id}"), |p| {
        p["matches"].as_array().is_some_and(|m| m.len() == 2)
    })
    .await;
    let matches = page["matches"].as_array().expect("matches");
    assert_eq!(matches.len(), 2, "{page}");
    for m in matches {
        assert_eq!(m["arena"], arena.as_str(), "{page}");
        assert_eq!(m["tournament"], Value::Null, "{page}");
        assert!(
            m["replay"]
                .as_str()
                .is_some_and(|r| r.starts_with("/#replay/t-a"))
        );
    }
    assert_eq!(
        page["tournaments"].as_array().map(Vec::len),
        Some(0),
        "{page}"
    );

    // A challenge of a server bot's level is made at once; an unknown opponent is refused.
    let carla_token = token(addr, "RoboCarla", true, &["play"]).await;
    let (mut carla, _) = connect(addr, "RoboCarla", &carla_token).await;
    let refused = carla
        .request(|id| ClientMessage::ArenaChallenge {
            id,
            opponent: "RoboNobody".into(),
        })
        .await;
    assert_eq!(code(&refused), Some("opponent_unavailable"), "{refused:?}");
    let queued = carla
        .request(|id| ClientMessage::ArenaChallenge {
            id,
            opponent: "L0".into(),
        })
        .await;
    assert!(
        matches!(queued, ServerMessage::ArenaQueued { waiting: false, .. }),
        "{queued:?}"
    );
    let (_, tables, told) = matched(&mut carla).await;
    let ServerMessage::ArenaMatch {
        server_bot,
        opponent_account,
        ..
    } = &told
    else {
        unreachable!()
    };
    assert_eq!(server_bot.as_deref(), Some("L0"));
    assert_eq!(opponent_account, &None);
    assert_eq!(tables.len(), 2);
    // Nobody came: past the start limit both tables close unplayed (a join finds no table).
    let start = Instant::now();
    loop {
        let table = tables[0].table.clone();
        let reply = carla
            .request(|id| ClientMessage::Spectate { id, table })
            .await;
        if code(&reply) == Some("unknown_table") {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "still there: {reply:?}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_alone_past_the_wait_meets_a_server_bot_of_its_level() {
    let server = TestServer::with(|config| {
        config.arena_wait = Duration::from_millis(200);
    })
    .await;
    let addr = server.addr;
    let dora_token = token(addr, "RoboDora", true, &["play"]).await;
    let (mut dora, _) = connect(addr, "RoboDora", &dora_token).await;
    let refused = dora
        .request(|id| ClientMessage::ArenaReady {
            id,
            level: Some("L7".into()),
        })
        .await;
    assert_eq!(code(&refused), Some("invalid_message"), "{refused:?}");
    let queued = dora
        .request(|id| ClientMessage::ArenaReady {
            id,
            level: Some("greedy".into()),
        })
        .await;
    assert!(
        matches!(queued, ServerMessage::ArenaQueued { waiting: true, .. }),
        "{queued:?}"
    );
    let (_, tables, told) = matched(&mut dora).await;
    let ServerMessage::ArenaMatch {
        server_bot,
        opponent,
        ..
    } = &told
    else {
        unreachable!()
    };
    assert_eq!(server_bot.as_deref(), Some("L1"));
    assert_eq!(opponent, "Bot (greedy)");
    // The server bot holds the other seat of each table, the seats swapped.
    for (table, seat) in tables.iter().zip([Seat::South, Seat::North]) {
        assert_eq!(table.seat.0, seat);
        let id = table.table.clone();
        let reply = dora
            .request(|rid| ClientMessage::SeatIdentities { id: rid, table: id })
            .await;
        let ServerMessage::SeatIdentities { seats, .. } = reply else {
            panic!("seat_identities: {reply:?}")
        };
        assert!(
            seats
                .iter()
                .any(|s| s.kind == "server_bot" && s.server_bot.as_deref() == Some("L1")),
            "{seats:?}"
        );
    }
    server.stop().await;
}
