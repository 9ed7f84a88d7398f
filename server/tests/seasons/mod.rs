//! Seasons (issue 21): a rated match's season points awarded once through kill -9 and two
//! restarts (the ratings' sweep replays it); a finished tournament's places awarded to its
//! accounts; past seasons listed and read; the API's refusals by their codes; the player's
//! page's current-season points.

/// The `Seasons` port's conformance suite, on SQLite and PostgreSQL.
mod port;

use std::net::SocketAddr;
use std::time::Duration;

use burraco_protocol::wire::{ClientMessage, ServerMessage, WireTournamentSettings};
use burraco_ratings::Category;
use burraco_server::accounts::sqlite::SqliteAccounts;
use burraco_server::seasons::sqlite::SqliteSeasons;
use burraco_server::seasons::{Seasons, season_of, tournament_award};
use burraco_server::store::Store;
use serde_json::Value;

use crate::common::{Client, TestServer, http_get};
use crate::ratings::{play_rated_match, sign_up, signed_in, until_matches};

async fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    let (status, body) = http_get(addr, path).await;
    (status, serde_json::from_str(&body).expect("json"))
}

/// The current season's `two` ladder as (account, points, matches).
async fn ladder_two(addr: SocketAddr) -> Vec<(String, i64, i64)> {
    let (status, body) = get(addr, "/api/seasons/current/two").await;
    assert_eq!(status, 200, "{body}");
    body["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["account"].as_str().expect("account").to_owned(),
                r["points"].as_i64().expect("points"),
                r["matches"].as_i64().expect("matches"),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_before_a_rated_matchs_points_then_two_restarts_award_them_once() {
    let data = tempfile::tempdir().expect("temp dir");
    // The ratings (and so the points) wait a minute after the match's end: the kill lands in
    // between.
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
    assert!(ladder_two(addr).await.is_empty(), "not yet");
    child.kill().expect("kill -9");
    let _ = child.wait();
    // The restart's sweep rates the match and awards its points, in one transaction.
    let (mut child, addr) =
        crate::crash::start_with(data.path(), &["--test-rated-min-play-ms", "0"]);
    for account in [&anna_id, &bruno_id] {
        until_matches(addr, account, 1, Duration::from_secs(10)).await;
    }
    let once = ladder_two(addr).await;
    assert_eq!(once.len(), 2, "{once:?}");
    assert!(once.iter().all(|(_, _, matches)| *matches == 1), "{once:?}");
    let points: i64 = once.iter().map(|(_, p, _)| p).sum();
    // 3 + 0 for a win, 1 + 1 for a draw.
    assert!(points == 3 || points == 2, "{once:?}");
    // Another kill and restart: the sweep finds nothing to do, the points stay.
    child.kill().expect("kill -9");
    let _ = child.wait();
    let (_child, addr) = crate::crash::start_with(data.path(), &["--test-rated-min-play-ms", "0"]);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(ladder_two(addr).await, once);
    // The player's page shows the current season's points.
    let (status, page) = get(addr, &format!("/api/players/{anna_id}")).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(
        page["season"]["id"],
        season_of(burraco_server::ids::unix_ms()).id()
    );
    let mine = once.iter().find(|(a, _, _)| *a == anna_id).expect("Anna");
    assert_eq!(page["season"]["points"][0]["category"], "two", "{page}");
    assert_eq!(page["season"]["points"][0]["points"], mine.1, "{page}");
}

fn singles_of_two() -> WireTournamentSettings {
    WireTournamentSettings {
        name: "season cup".into(),
        kind: "singles".into(),
        rounds: vec!["danish".into()],
        hands: 1,
        preset: "fitab".into(),
        max_entrants: Some(2),
        seating: Some("registration".into()),
        start_when_full: Some(false),
        clocks: Some("off".into()),
        duplicate: None,
    }
}

async fn register(client: &mut Client, tournament: &str) {
    let t = tournament.to_owned();
    let reply = client
        .request(|id| ClientMessage::RegisterTournament {
            id,
            tournament: t,
            partner_code: None,
            bot: None,
        })
        .await;
    assert!(
        matches!(reply, ServerMessage::TournamentRegistered { .. }),
        "{reply:?}"
    );
}

/// A singles event of two: Anna (an account) comes to her table, a guest never does and loses
/// by the code (FITAB art. 37, on a 100 ms "minute"). The event finishes with Anna first: 10
/// points in `two`, no match counted; the guest gets nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_tournament_gives_its_accounts_their_places_points() {
    let server = TestServer::with(|c| {
        c.tournament_minute = Duration::from_millis(100);
    })
    .await;
    let addr = server.addr;
    let url = format!("ws://{addr}/ws");
    let (tournament, token) = burraco_bot::tournament::create(&url, &singles_of_two())
        .await
        .expect("created");
    let (anna_id, anna) = sign_up(addr, "Anna").await;
    let mut anna = signed_in(addr, "Anna", &anna).await;
    register(&mut anna, &tournament).await;
    let mut guest = Client::connect_saying(addr, "Gianni", None, false, "1.5")
        .await
        .0;
    register(&mut guest, &tournament).await;
    crate::tournament::start_round(&url, &tournament, &token).await;
    let go = anna
        .wait(|m| matches!(m, ServerMessage::GoToTable { .. }))
        .await;
    let ServerMessage::GoToTable { table, seat, .. } = go else {
        unreachable!()
    };
    let reply = anna
        .request(|id| ClientMessage::Join {
            id,
            table: Some(table),
            invite: None,
            seat: Some(seat),
        })
        .await;
    assert!(matches!(reply, ServerMessage::Seated { .. }), "{reply:?}");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let record =
            crate::tournament::get_json(addr, &format!("/api/tournaments/{tournament}")).await;
        if record["status"] == "finished" {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{record}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(ladder_two(addr).await, [(anna_id.clone(), 10, 0)]);
    let (_, body) = get(addr, "/api/seasons/current/two").await;
    assert_eq!(body["rows"][0]["username"], "Anna", "{body}");
    assert_eq!(body["rows"][0]["rank"], 1, "{body}");
    assert_eq!(body["rows"][0]["bot"], false, "{body}");
    let (_, bots) = get(addr, "/api/seasons/current/two?bots=true").await;
    assert_eq!(bots["rows"].as_array().map(Vec::len), Some(0), "{bots}");
    server.stop().await;
}

/// A past season's points (written into the store before the server starts) stay readable
/// beside the current season's; the API refuses by its codes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_seasons_are_listed_and_read_and_refusals_have_codes() {
    let data = tempfile::tempdir().expect("temp dir");
    {
        let (store, writer) = Store::open(data.path(), false).expect("store");
        SqliteAccounts::open(&store).expect("migrations");
        let seasons = SqliteSeasons::open(&store).expect("seasons");
        // 2025-02-19: 2025-q1.
        let places = vec![
            vec![Some(("u-old".to_owned(), false))],
            vec![Some(("u-older".to_owned(), false))],
        ];
        let award = tournament_award("T-old", Category::Two, 1_740_000_000_000, &places);
        assert!(seasons.award(&award).await.expect("award"));
        drop((seasons, store));
        writer.join();
    }
    let path = data.path().to_owned();
    let server = TestServer::with(move |c| c.data_dir = path).await;
    let addr = server.addr;
    let (status, list) = get(addr, "/api/seasons").await;
    assert_eq!(status, 200, "{list}");
    let current = season_of(burraco_server::ids::unix_ms());
    assert_eq!(list["current"], current.id());
    let seasons = list["seasons"].as_array().expect("seasons");
    assert_eq!(seasons[0]["id"], current.id(), "{list}");
    assert_eq!(seasons[0]["current"], true);
    assert_eq!(seasons[0]["start_ms"], current.start_ms());
    assert_eq!(seasons[0]["end_ms"], current.end_ms());
    let past = seasons
        .iter()
        .find(|s| s["id"] == "2025-q1")
        .expect("listed");
    assert_eq!(past["current"], false);
    assert_eq!(past["start_ms"], 1_735_689_600_000_i64, "2025-01-01");
    let (status, old) = get(addr, "/api/seasons/2025-q1/two").await;
    assert_eq!(status, 200, "{old}");
    let rows: Vec<(&str, i64, i64)> = old["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["account"].as_str().expect("account"),
                r["points"].as_i64().expect("points"),
                r["rank"].as_i64().expect("rank"),
            )
        })
        .collect();
    assert_eq!(rows, [("u-old", 10, 1), ("u-older", 6, 2)]);
    // The second page: ranks go on.
    let (_, page) = get(addr, "/api/seasons/2025-q1/two?limit=1&offset=1").await;
    assert_eq!(page["rows"][0]["account"], "u-older", "{page}");
    assert_eq!(page["rows"][0]["rank"], 2, "{page}");
    assert!(
        ladder_two(addr).await.is_empty(),
        "the current season is apart"
    );
    for (path, status, code) in [
        ("/api/seasons/2025-q5/two", 404, "unknown_season"),
        ("/api/seasons/2999-q1/two", 404, "unknown_season"),
        ("/api/seasons/current/three", 404, "unknown_category"),
        ("/api/seasons/current/two?limit=0", 400, "bad_page"),
        ("/api/seasons/current/two?limit=101", 400, "bad_page"),
    ] {
        let (got, body) = get(addr, path).await;
        assert_eq!((got, body["code"].as_str()), (status, Some(code)), "{path}");
    }
    server.stop().await;
}

/// A connection signed in with the session cookie, saying 1.6.
async fn signed_in_16(addr: SocketAddr, name: &str, session: &str) -> Client {
    let cookie = format!("burraco_session={session}");
    let origin = format!("http://{addr}");
    Client::connect_with_headers(
        addr,
        name,
        "1.6",
        &[("Cookie", &cookie), ("Origin", &origin)],
    )
    .await
    .0
}

fn error_code(reply: &ServerMessage) -> Option<&str> {
    match reply {
        ServerMessage::Error { code, .. } => Some(code),
        _ => None,
    }
}

/// Protocol 1.6's `create_rated_tournament`: refused to a guest and to a 1.5 connection; a rated
/// singles event of two accounts plays its one match at a rated table, which moves both
/// ratings once, and the season counts the match and the places.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_tournaments_match_is_rated_and_its_season_points_count_match_and_place() {
    let server = TestServer::with(|c| c.rated_min_play = Duration::ZERO).await;
    let addr = server.addr;
    let url = format!("ws://{addr}/ws");
    let settings = singles_of_two();
    let ask = |settings: WireTournamentSettings| {
        move |id| ClientMessage::CreateRatedTournament {
            id,
            settings: Box::new(settings),
        }
    };
    let mut guest = Client::connect_saying(addr, "Gianni", None, false, "1.6")
        .await
        .0;
    let refused = guest.request(ask(settings.clone())).await;
    assert_eq!(
        error_code(&refused),
        Some("account_required"),
        "{refused:?}"
    );
    let (anna_id, anna) = sign_up(addr, "Anna").await;
    let (bruno_id, bruno) = sign_up(addr, "Bruno").await;
    let mut old = signed_in(addr, "Anna", &anna).await;
    let refused = old.request(ask(settings.clone())).await;
    assert_eq!(error_code(&refused), Some("needs_minor"), "{refused:?}");
    let mut a = signed_in_16(addr, "Anna", &anna).await;
    let created = a.request(ask(settings)).await;
    let ServerMessage::TournamentCreated {
        tournament,
        director_token,
        ..
    } = created
    else {
        panic!("create: {created:?}")
    };
    register(&mut a, &tournament).await;
    let mut b = signed_in_16(addr, "Bruno", &bruno).await;
    register(&mut b, &tournament).await;
    crate::tournament::start_round(&url, &tournament, &director_token).await;
    let mut clients = Vec::new();
    let mut table_id = String::new();
    for mut c in [a, b] {
        let go = c
            .wait(|m| matches!(m, ServerMessage::GoToTable { .. }))
            .await;
        let ServerMessage::GoToTable { table, seat, .. } = go else {
            unreachable!()
        };
        table_id.clone_from(&table);
        let reply = c
            .request(|id| ClientMessage::Join {
                id,
                table: Some(table),
                invite: None,
                seat: Some(seat),
            })
            .await;
        assert!(matches!(reply, ServerMessage::Seated { .. }), "{reply:?}");
        clients.push((seat.0, c));
    }
    for (_, c) in &mut clients {
        let table = table_id.clone();
        c.ok(|id| ClientMessage::Ready { id, table }).await;
    }
    let one_hand = crate::common::settings("fitab", 2, Some(1), "off");
    let config = burraco_protocol::convert::config_from_wire(&one_hand).expect("settings");
    let mut table = crate::common::Table {
        id: table_id.clone(),
        config,
        clients,
    };
    let mut mirror = table.next_hand().await;
    table.play_hand(&mut mirror, crate::common::NoCheck).await;
    // The table is rated: both ratings move, once, keyed by the table.
    for account in [&anna_id, &bruno_id] {
        let ratings = until_matches(addr, account, 1, Duration::from_secs(10)).await;
        assert_eq!(crate::ratings::matches_two(&ratings), 1, "{ratings}");
        assert_eq!(
            ratings["history"][0]["match"],
            table_id.as_str(),
            "{ratings}"
        );
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let record =
            crate::tournament::get_json(addr, &format!("/api/tournaments/{tournament}")).await;
        if record["status"] == "finished" {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{record}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The season: the match (3 and 0, or 1 each) and the places (10 and 6), one match each.
    let ladder = ladder_two(addr).await;
    assert_eq!(ladder.len(), 2, "{ladder:?}");
    assert!(
        ladder.iter().all(|(_, _, matches)| *matches == 1),
        "{ladder:?}"
    );
    let total: i64 = ladder.iter().map(|(_, p, _)| p).sum();
    assert!(total == 19 || total == 18, "{ladder:?}");
    assert!(ladder[0].1 >= 11, "the winner's 10 and a match: {ladder:?}");
    server.stop().await;
}
