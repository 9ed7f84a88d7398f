//! An arena match survives restarts (issue 32, defect 9), on the raw socket: its seats are its bot
//! accounts' (a new session of the account is listed them in its welcome, told `arena_match`
//! again, and its `join` accepted; a guest or another account is refused), its start deadlines
//! are in its tables' logs, and a match nobody finishes is settled: a bot that never came back
//! loses it as a leaver (whatever a server bot standing in for it did), a table nobody came to
//! voids it and gives the daily cap back. Three restarts: the bot's program killed, the server
//! killed -9 with both bots coming back (one with its resume token, one without), and the server
//! killed -9 with one bot never coming back. Bounded: one hand a table, every wait capped.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use burraco_bot::client::{self, ClientOptions};
use burraco_bot::{Level, SearchBudget, SeatRequest, Session};
use burraco_protocol::wire::{ArenaTable, ClientMessage, ServerMessage};
use burraco_rules::{Config, Seat};
use serde_json::Value;

use super::{Paced, board_row, code, connect, matched, ready, token, until};
use crate::common::{Client, Table, TestServer, http_get, settings};
use crate::crash::{ServerProcess, start_with_env};

/// An arena table's settings (one hand a table in these tests).
fn arena_config() -> Config {
    burraco_protocol::convert::config_from_wire(&settings("fitab", 2, Some(1), "federation"))
        .expect("settings")
}

/// A 1.7 connection of a bot account (its token's `Authorization`), resuming `resume` if
/// given: the client and its welcome.
async fn reconnect(
    addr: SocketAddr,
    name: &str,
    authorization: &str,
    resume: Option<&str>,
) -> (Client, ServerMessage) {
    let headers = [("Authorization", authorization)];
    Client::connect_with(addr, name, resume, "1.7", &headers).await
}

/// The seats a welcome lists, and whether it resumed a session.
fn welcomed(welcome: &ServerMessage) -> (Vec<(String, Seat)>, bool) {
    let ServerMessage::Welcome { seats, resumed, .. } = welcome else {
        panic!("not a welcome: {welcome:?}")
    };
    let seats = seats.iter().map(|s| (s.table.clone(), s.seat.0)).collect();
    (seats, *resumed)
}

/// The `arena_match` of `arena` told (again); its tables still to play.
async fn told(client: &mut Client, arena: &str) -> Vec<(String, Seat)> {
    let (told, tables, _) = matched(client).await;
    assert_eq!(told, arena, "the match told again");
    tables.iter().map(|t| (t.table.clone(), t.seat.0)).collect()
}

async fn join(client: &mut Client, table: &str) -> ServerMessage {
    let table = table.to_owned();
    client
        .request(|id| ClientMessage::Join {
            id,
            table: Some(table),
            invite: None,
            seat: None,
        })
        .await
}

/// Each client joins `table` (its held seat) and says ready: the table, its clients in order.
async fn sit(table: &str, bots: Vec<(Client, Seat)>) -> Table {
    let mut seated = Vec::new();
    for (mut client, held) in bots {
        let reply = join(&mut client, table).await;
        let ServerMessage::Seated { seat, .. } = reply else {
            panic!("join {table}: {reply:?}")
        };
        assert_eq!(seat.0, held, "the seat held");
        seated.push((held, client));
    }
    for (_, client) in &mut seated {
        let id = table.to_owned();
        client
            .ok(|i| ClientMessage::Ready { id: i, table: id })
            .await;
    }
    Table {
        id: table.to_owned(),
        config: arena_config(),
        clients: seated,
    }
}

/// Plays the hand in play to its end through the table's clients, then waits for the match's
/// end; returns the clients in order.
async fn finish(mut table: Table, mut mirror: crate::common::Mirror) -> Vec<(Seat, Client)> {
    table.play_hand(&mut mirror, Paced).await;
    let id = table.id.clone();
    table.clients[0]
        .1
        .wait(|m| matches!(m, ServerMessage::MatchEnded { table, .. } if *table == id))
        .await;
    table.clients
}

/// Takes `seat`'s client out of the table (a dropped program's, or one of a killed server).
fn take(table: &mut Table, seat: Seat) -> Client {
    let at = table
        .clients
        .iter()
        .position(|(s, _)| *s == seat)
        .expect("seated");
    table.clients.remove(at).1
}

/// Both bots played the match and it was rated once, as one match: a rating with one match and
/// one history point each, keyed by the arena.
async fn rated_once(addr: SocketAddr, arena: &str, bots: [&str; 2]) {
    let board = until(addr, "/api/arena/leaderboard", |b| {
        bots.iter().all(|id| board_row(b, id).is_some())
    })
    .await;
    for id in bots {
        let row = board_row(&board, id).unwrap_or_else(|| panic!("{id} on {board}"));
        assert_eq!(row["matches"], 1, "{board}");
        let ratings = history(addr, id).await;
        assert_eq!(ratings.len(), 1, "{ratings:?}");
        assert_eq!(ratings[0]["match"], arena, "{ratings:?}");
    }
}

/// An account's rating history (`GET /api/ratings/{account}`), newest first.
async fn history(addr: SocketAddr, account: &str) -> Vec<Value> {
    let (status, body) = http_get(addr, &format!("/api/ratings/{account}")).await;
    assert_eq!(status, 200, "{body}");
    let ratings: Value = serde_json::from_str(&body).expect("json");
    ratings["history"].as_array().cloned().unwrap_or_default()
}

/// Waits until `table` is served no more (closed, or ended and gone): at most 30 s.
async fn until_gone(client: &mut Client, table: &str) {
    let start = Instant::now();
    loop {
        let id = table.to_owned();
        let reply = client
            .request(|i| ClientMessage::Spectate { id: i, table: id })
            .await;
        if code(&reply) == Some("unknown_table") {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{table} still served: {reply:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Two bot accounts, RoboAnna and RoboBruno, ready and matched: (token, account id, client)
/// each, the arena, and the tables in order (Anna South at the first).
async fn two_matched(addr: SocketAddr) -> ([(String, String, Client); 2], String, Vec<ArenaTable>) {
    let anna_token = token(addr, "RoboAnna", true, &["play"]).await;
    let bruno_token = token(addr, "RoboBruno", true, &["play"]).await;
    let (mut anna, anna_id) = connect(addr, "RoboAnna", &anna_token).await;
    let (mut bruno, bruno_id) = connect(addr, "RoboBruno", &bruno_token).await;
    for bot in [&mut anna, &mut bruno] {
        let queued = ready(bot).await;
        assert!(
            matches!(queued, ServerMessage::ArenaQueued { .. }),
            "{queued:?}"
        );
    }
    let (arena, tables, _) = matched(&mut anna).await;
    assert_eq!(matched(&mut bruno).await.0, arena);
    assert_eq!(tables[0].seat.0, Seat::South);
    (
        [(anna_token, anna_id, anna), (bruno_token, bruno_id, bruno)],
        arena,
        tables,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_killed_mid_match_comes_back_under_a_new_session_and_finishes_rated_once() {
    let server = TestServer::with(|config| {
        config.arena_hands = 1;
        config.arena_wait = Duration::from_secs(600);
    })
    .await;
    let addr = server.addr;
    let ([anna, bruno], arena, tables) = two_matched(addr).await;
    let (_, anna_id, anna) = anna;
    let (bruno_token, bruno_id, bruno) = bruno;
    let (first, second) = (tables[0].table.clone(), tables[1].table.clone());
    let mut table = sit(&first, vec![(anna, Seat::South), (bruno, Seat::North)]).await;
    let mut mirror = table.next_hand().await;
    for _ in 0..6 {
        table.step(&mut mirror).await;
    }

    // Bruno's program is killed: its connection drops without a close, its session token lost.
    drop(take(&mut table, Seat::North));
    table
        .client(Seat::South)
        .wait(|m| {
            matches!(m, ServerMessage::PlayerDisconnected { seat, .. } if seat.0 == Seat::North)
        })
        .await;

    // Nobody else takes the seats held for Bruno: a guest, another bot account.
    let mut guest = Client::connect_saying(addr, "Gianni", None, false, "1.7")
        .await
        .0;
    let refused = join(&mut guest, &first).await;
    assert_eq!(code(&refused), Some("table_started"), "{refused:?}");
    let carla_token = token(addr, "RoboCarla", true, &["play"]).await;
    let (mut carla, _) = connect(addr, "RoboCarla", &carla_token).await;
    let refused = join(&mut carla, &first).await;
    assert_eq!(code(&refused), Some("table_started"), "{refused:?}");
    let refused = carla
        .request(|id| ClientMessage::Join {
            id,
            table: Some(second.clone()),
            invite: None,
            seat: Some(burraco_protocol::wire::WireSeat(Seat::South)),
        })
        .await;
    assert_eq!(code(&refused), Some("seat_taken"), "{refused:?}");
    let refused = join(&mut guest, &second).await;
    assert_eq!(code(&refused), Some("table_full"), "{refused:?}");

    // Started again, it connects with its account's token and no resume token: a new session,
    // whose welcome lists the account's seats and which is told the match again.
    let (mut bruno, welcome) = reconnect(addr, "RoboBruno", &bruno_token, None).await;
    let (seats, resumed) = welcomed(&welcome);
    assert!(!resumed, "a new session");
    assert!(seats.contains(&(first.clone(), Seat::North)), "{seats:?}");
    assert!(seats.contains(&(second.clone(), Seat::South)), "{seats:?}");
    let owed = told(&mut bruno, &arena).await;
    assert_eq!(
        owed,
        vec![(first.clone(), Seat::North), (second.clone(), Seat::South)]
    );
    // Its join of the held seat is accepted, with the hand as it stands.
    let reply = join(&mut bruno, &first).await;
    assert!(
        matches!(&reply, ServerMessage::Seated { seat, .. } if seat.0 == Seat::North),
        "{reply:?}"
    );
    bruno
        .wait(|m| matches!(m, ServerMessage::Snapshot { .. }))
        .await;
    table.clients.push((Seat::North, bruno));
    let mut clients = finish(table, mirror).await;

    // The second table, played as usual; the match rated once.
    let bruno = take_client(&mut clients, Seat::North);
    let anna = take_client(&mut clients, Seat::South);
    let mut table = sit(&second, vec![(bruno, Seat::South), (anna, Seat::North)]).await;
    let mirror = table.next_hand().await;
    finish(table, mirror).await;
    rated_once(addr, &arena, [&anna_id, &bruno_id]).await;
    server.stop().await;
}

fn take_client(clients: &mut Vec<(Seat, Client)>, seat: Seat) -> Client {
    let at = clients
        .iter()
        .position(|(s, _)| *s == seat)
        .expect("seated");
    clients.remove(at).1
}

/// The server binary on `data` for these tests: one hand a table, ready bots meet each other,
/// server bots move at once; `grace` seconds of disconnect grace and an arena start limit of
/// `start_limit_ms`.
fn start_arena(
    data: &std::path::Path,
    grace: &str,
    start_limit_ms: &str,
) -> (ServerProcess, SocketAddr) {
    start_with_env(
        data,
        &[
            "--arena-hands",
            "1",
            "--disconnect-grace-secs",
            grace,
            "--bot-delay-ms",
            "0",
        ],
        &[
            ("BURRACO_TEST_ARENA_WAIT_MS", "600000"),
            ("BURRACO_TEST_ARENA_START_LIMIT_MS", start_limit_ms),
        ],
    )
}

fn kill(mut server: ServerProcess) {
    server.kill().expect("SIGKILL");
    server.wait().expect("reaped");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_killed_mid_match_restarts_and_both_bots_finish_rated_once() {
    let data = tempfile::tempdir().expect("temp dir");
    let (process, addr) = start_arena(data.path(), "120", "600000");
    let ([anna, bruno], arena, tables) = two_matched(addr).await;
    let (anna_token, anna_id, anna) = anna;
    let (bruno_token, bruno_id, bruno) = bruno;
    let (first, second) = (tables[0].table.clone(), tables[1].table.clone());
    let mut table = sit(&first, vec![(anna, Seat::South), (bruno, Seat::North)]).await;
    let mut mirror = table.next_hand().await;
    for _ in 0..8 {
        table.step(&mut mirror).await;
    }
    let anna_session = table.client(Seat::South).session.clone();
    let last_seq = table
        .client(Seat::South)
        .seqs()
        .into_iter()
        .max()
        .unwrap_or(0);

    // kill -9 mid-hand, and a restart on the same data.
    kill(process);
    let (process, addr) = start_arena(data.path(), "120", "600000");
    drop(take(&mut table, Seat::South));
    drop(take(&mut table, Seat::North));

    // Anna resumes its session; Bruno lost its resume token and comes under a new session.
    // Both are listed the seat, told the match again, and take the hand up where it stood.
    let (mut anna, welcome) = reconnect(addr, "RoboAnna", &anna_token, Some(&anna_session)).await;
    let (seats, resumed) = welcomed(&welcome);
    assert!(resumed, "the session survived the crash");
    assert!(seats.contains(&(first.clone(), Seat::South)), "{seats:?}");
    assert_eq!(told(&mut anna, &arena).await.len(), 2);
    let id = first.clone();
    anna.ok(|i| ClientMessage::Sync {
        id: i,
        table: id,
        last_seq,
    })
    .await;
    let (mut bruno, welcome) = reconnect(addr, "RoboBruno", &bruno_token, None).await;
    let (seats, resumed) = welcomed(&welcome);
    assert!(!resumed);
    assert!(seats.contains(&(first.clone(), Seat::North)), "{seats:?}");
    assert_eq!(told(&mut bruno, &arena).await.len(), 2);
    let reply = join(&mut bruno, &first).await;
    assert!(
        matches!(&reply, ServerMessage::Seated { seat, .. } if seat.0 == Seat::North),
        "{reply:?}"
    );
    for client in [&mut anna, &mut bruno] {
        client
            .wait(|m| matches!(m, ServerMessage::Snapshot { .. }))
            .await;
    }
    table.clients = vec![(Seat::South, anna), (Seat::North, bruno)];
    let mut clients = finish(table, mirror).await;

    let bruno = take_client(&mut clients, Seat::North);
    let anna = take_client(&mut clients, Seat::South);
    let mut table = sit(&second, vec![(bruno, Seat::South), (anna, Seat::North)]).await;
    let mirror = table.next_hand().await;
    finish(table, mirror).await;
    rated_once(addr, &arena, [&anna_id, &bruno_id]).await;
    drop(process);
}

/// A bot account's program as the bot crate plays it (L0's strategy): it connects with the
/// account's token and no resume token, joins `table` and plays its match to the end.
async fn play_as_program(addr: SocketAddr, name: &str, authorization: &str, table: &str) {
    let budget = SearchBudget {
        worlds: 2,
        max_time: None,
        horizon: 4,
    };
    let request = SeatRequest::Table {
        table: table.to_owned(),
        seat: None,
    };
    let factory = Box::new(move || Level::Random.strategy(7, budget));
    let mut session = Session::new(name, request, 1, factory, 7);
    let mut options = ClientOptions::new(format!("ws://{addr}/ws"));
    options.token = authorization.strip_prefix("Bearer ").map(str::to_owned);
    options.deadline = Duration::from_secs(120);
    client::run(&mut session, &options)
        .await
        .unwrap_or_else(|e| panic!("{name} at {table}: {e} ({session:?})"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_never_returns_loses_by_the_no_show_rule_and_gets_nothing_a_stand_in_won() {
    // A short disconnect grace (a server bot stands in for Bruno soon after the restart) and a
    // start limit of 10 s, the second table's, logged when the first ends.
    let data = tempfile::tempdir().expect("temp dir");
    let (grace, limit) = ("4", "10000");
    let (process, addr) = start_arena(data.path(), grace, limit);
    let ([anna, bruno], arena, tables) = two_matched(addr).await;
    let (anna_token, anna_id, anna) = anna;
    let (_, bruno_id, bruno) = bruno;
    let (first, second) = (tables[0].table.clone(), tables[1].table.clone());
    let mut table = sit(&first, vec![(anna, Seat::South), (bruno, Seat::North)]).await;
    let mut mirror = table.next_hand().await;
    for _ in 0..8 {
        table.step(&mut mirror).await;
    }
    drop(mirror);

    // kill -9 mid-hand; Bruno never comes back. Anna's program, started again, plays the first
    // table to its end against the server bot that stands in for Bruno past its grace.
    kill(process);
    drop(table);
    let (process, addr) = start_arena(data.path(), grace, limit);
    play_as_program(addr, "RoboAnna", &anna_token, &first).await;

    // The second table's turn came: Anna is told the match again with only that table, sits
    // and says ready. The server is killed again before the deadline and restarted: Anna comes
    // back, sits, says ready; the deadline logged with the turn still stands.
    let mut processes = vec![process];
    let mut addr = addr;
    for restart in [false, true] {
        if restart {
            kill(processes.pop().expect("running"));
            let (process, again) = start_arena(data.path(), grace, limit);
            processes.push(process);
            addr = again;
        }
        let (mut anna, welcome) = reconnect(addr, "RoboAnna", &anna_token, None).await;
        let (seats, _) = welcomed(&welcome);
        assert!(seats.contains(&(second.clone(), Seat::North)), "{seats:?}");
        assert_eq!(
            told(&mut anna, &arena).await,
            vec![(second.clone(), Seat::North)]
        );
        let reply = join(&mut anna, &second).await;
        assert!(
            matches!(&reply, ServerMessage::Seated { seat, .. } if seat.0 == Seat::North),
            "{reply:?}"
        );
        let id = second.clone();
        anna.ok(|i| ClientMessage::Ready { id: i, table: id }).await;
        if restart {
            // Bruno never came: past the deadline the table ends unplayed.
            until_gone(&mut anna, &second).await;
        }
    }

    // Bruno lost the match as a leaver (0-20, its rating down), once; Anna is not rated by it.
    let start = Instant::now();
    let bruno_history = loop {
        let points = history(addr, &bruno_id).await;
        if !points.is_empty() || start.elapsed() > Duration::from_secs(15) {
            break points;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(bruno_history.len(), 1, "{bruno_history:?}");
    assert_eq!(bruno_history[0]["match"], arena.as_str());
    let rating = bruno_history[0]["rating"].as_f64().expect("a rating");
    assert!(rating < 1500.0, "{bruno_history:?}");
    assert!(history(addr, &anna_id).await.is_empty());
    // Bruno's page: the first table, where a server bot finished its hand, is Bruno's loss
    // whatever the server bot scored; the second was never played.
    let page = until(addr, &format!("/api/players/{bruno_id}"), |p| {
        p["matches"].as_array().is_some_and(|m| !m.is_empty())
    })
    .await;
    let matches = page["matches"].as_array().expect("matches");
    assert_eq!(matches.len(), 1, "{page}");
    assert_eq!(matches[0]["table"], first.as_str(), "{page}");
    assert_eq!(matches[0]["result"], "lost", "{page}");
    assert_eq!(matches[0]["arena"], arena.as_str(), "{page}");
    drop(processes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_nobody_came_to_voids_the_match_and_gives_the_daily_cap_back() {
    let server = TestServer::with(|config| {
        config.arena_hands = 1;
        config.arena_daily_cap = 1;
        config.arena_wait = Duration::from_secs(600);
        config.arena_start_limit = Duration::from_millis(300);
    })
    .await;
    let addr = server.addr;
    let ([anna, bruno], _, tables) = two_matched(addr).await;
    let (_, anna_id, mut anna) = anna;
    let (_, bruno_id, mut bruno) = bruno;
    // Neither bot comes: both tables end unplayed.
    until_gone(&mut anna, &tables[0].table).await;
    until_gone(&mut anna, &tables[1].table).await;
    // The match is void: not rated, and the daily cap (1) is free again for both.
    let start = Instant::now();
    for bot in [&mut anna, &mut bruno] {
        loop {
            let reply = ready(bot).await;
            if let ServerMessage::ArenaQueued { matches_today, .. } = reply {
                assert_eq!(matches_today, 0);
                break;
            }
            assert_eq!(code(&reply), Some("arena_daily_cap"), "{reply:?}");
            assert!(start.elapsed() < Duration::from_secs(15), "still counted");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    for id in [&anna_id, &bruno_id] {
        assert!(history(addr, id).await.is_empty());
    }
    server.stop().await;
}
