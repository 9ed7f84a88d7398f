//! Fair play (issue 22): the outcomes-and-playbans port's conformance suite on SQLite and on a
//! PostgreSQL server the test starts; and over a real server on raw WebSockets, an account that
//! leaves its games is playbanned and refused at quick play (its personal token too) with the
//! typed code and the ban's end, while a drop back within the grace is not counted and the
//! partner of a leaver is not blamed; and a long think on a forced move while losing is logged
//! as the table's conduct mark (`forced.rs`).

mod forced;

use std::net::SocketAddr;
use std::time::Duration;

use burraco_protocol::wire::{BotLevel, ClientMessage, ServerMessage, WireSeat};
use burraco_rules::Seat;
use burraco_server::accounts::sqlite::SqliteAccounts;
use burraco_server::fairplay::postgres::PostgresFairPlay;
use burraco_server::fairplay::sqlite::SqliteFairPlay;
use burraco_server::fairplay::{FairPlay, Outcome, OutcomeRecord, Playban};
use burraco_server::store::Store;
use serde_json::{Value, json};

use crate::accounts::Postgres;
use crate::accounts::http::{http, http_post};
use crate::bots::{Human, fast_bots};
use crate::common::*;

fn record(account: &str, table: &str, outcome: Outcome, at_ms: i64) -> OutcomeRecord {
    OutcomeRecord {
        account: account.into(),
        table: table.into(),
        seat: 2,
        outcome,
        at_ms,
    }
}

/// Every implementation: `a` and `b` are two handles on one store (two nodes, or one twice).
async fn conformance(a: &dyn FairPlay, b: &dyn FairPlay) {
    // Outcomes: stored once per table and account, newest first, limited.
    assert_eq!(
        a.record_outcome(&record("u-1", "t-a", Outcome::Good, 10))
            .await,
        Ok(true)
    );
    assert_eq!(
        b.record_outcome(&record("u-1", "t-a", Outcome::Left, 11))
            .await,
        Ok(false),
        "a table's match is judged once per account"
    );
    for (table, outcome, at) in [
        ("t-b", Outcome::Left, 20),
        ("t-c", Outcome::Stalled, 30),
        ("t-d", Outcome::Aborted, 40),
    ] {
        assert_eq!(
            a.record_outcome(&record("u-1", table, outcome, at)).await,
            Ok(true)
        );
    }
    assert_eq!(
        b.record_outcome(&record("u-2", "t-a", Outcome::Left, 12))
            .await,
        Ok(true)
    );
    let mine = b.outcomes("u-1", 30).await.expect("outcomes");
    assert_eq!(
        mine.iter()
            .map(|o| (o.table.as_str(), o.outcome))
            .collect::<Vec<_>>(),
        vec![
            ("t-d", Outcome::Aborted),
            ("t-c", Outcome::Stalled),
            ("t-b", Outcome::Left),
            ("t-a", Outcome::Good),
        ]
    );
    assert_eq!(mine[3], record("u-1", "t-a", Outcome::Good, 10));
    assert_eq!(a.outcomes("u-1", 2).await.expect("outcomes").len(), 2);
    assert_eq!(a.outcomes("u-none", 30).await, Ok(Vec::new()));

    // Bans: newest first, per account.
    let ban = |account: &str, start_ms: i64, end_ms: i64| Playban {
        account: account.into(),
        start_ms,
        end_ms,
        reason: "streak".into(),
    };
    a.add_ban(&ban("u-1", 100, 200)).await.expect("ban");
    b.add_ban(&ban("u-1", 300, 900)).await.expect("ban");
    a.add_ban(&ban("u-2", 100, 150)).await.expect("ban");
    assert_eq!(
        b.bans("u-1", 10).await,
        Ok(vec![ban("u-1", 300, 900), ban("u-1", 100, 200)])
    );
    assert_eq!(a.bans("u-1", 1).await, Ok(vec![ban("u-1", 300, 900)]));
    assert_eq!(
        burraco_server::fairplay::active_ban(a, "u-1", 899).await,
        Ok(Some(ban("u-1", 300, 900)))
    );
    assert_eq!(
        burraco_server::fairplay::active_ban(a, "u-1", 900).await,
        Ok(None)
    );
    assert_eq!(a.bans("u-none", 10).await, Ok(Vec::new()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_store_conforms() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    let accounts = SqliteAccounts::open(&store).expect("accounts and their migrations");
    let (a, b) = (
        SqliteFairPlay::open(&store).expect("fair play"),
        SqliteFairPlay::open(&store).expect("fair play again"),
    );
    conformance(&a, &b).await;
    drop((accounts, a, b, store));
    writer.join();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_store_conforms() {
    let postgres = Postgres::start();
    let (a, b) = tokio::join!(postgres.node(), postgres.node());
    conformance(&PostgresFairPlay::new(&a), &PostgresFairPlay::new(&b)).await;
}

/// Signs `name` up; its session cookie's token.
async fn sign_up(addr: SocketAddr, name: &str) -> String {
    let body = json!({"username": name, "password": "correct horse"}).to_string();
    let reply = http_post(addr, "/api/signup", None, &body).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    reply.token()
}

/// A WebSocket signed in by the session cookie, saying 1.5.
async fn signed_in(addr: SocketAddr, session: &str) -> Client {
    let cookie = format!("burraco_session={session}");
    Client::connect_with(addr, "ignored", None, "1.5", &[("Cookie", &cookie)])
        .await
        .0
}

/// `GET /api/account/playban` with the session cookie.
async fn playban_of(addr: SocketAddr, session: &str) -> Value {
    let cookie = format!("burraco_session={session}");
    let reply = http(
        addr,
        "GET",
        "/api/account/playban",
        &[("Cookie", &cookie)],
        "",
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.json()
}

/// The outcome codes `GET /api/account/playban` shows, newest first, once there are `count`.
async fn outcomes_of(addr: SocketAddr, session: &str, count: usize) -> (Vec<String>, Value) {
    for _ in 0..400 {
        let body = playban_of(addr, session).await;
        let outcomes: Vec<String> = body["outcomes"]
            .as_array()
            .expect("outcomes")
            .iter()
            .map(|o| o["outcome"].as_str().expect("a code").to_owned())
            .collect();
        if outcomes.len() >= count {
            return (outcomes, body);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{count} outcomes never showed");
}

fn refused_playbanned(reply: &ServerMessage) -> bool {
    matches!(reply, ServerMessage::Error { code, .. } if code == "playbanned")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_that_leaves_its_games_is_playbanned_and_refused_at_quick_play() {
    let server = TestServer::with(|c| {
        fast_bots(c);
        // The same create again, as each game starts: not a double click here.
        c.repeat_create_window = Duration::ZERO;
    })
    .await;
    let addr = server.addr;
    let session = sign_up(addr, "leaver").await;
    let mut leaver = signed_in(addr, &session).await;
    // Three matches against a server bot, each left at once: the bots play them out.
    for game in 1..=3 {
        let reply = leaver
            .request(|id| ClientMessage::CreateTable {
                id,
                settings: settings("fitab", 2, Some(1), "off"),
                private: false,
                bots: Some(BotLevel::Random),
            })
            .await;
        let ServerMessage::TableCreated { table, .. } = reply else {
            panic!("game {game}: {reply:?}")
        };
        let t = table.clone();
        leaver.ok(|id| ClientMessage::Ready { id, table: t }).await;
        leaver
            .wait(|m| matches!(m, ServerMessage::HandStarted { .. }))
            .await;
        leaver.ok(|id| ClientMessage::Leave { id, table }).await;
        let (outcomes, body) = outcomes_of(addr, &session, game).await;
        assert_eq!(outcomes, vec!["left".to_owned(); game], "{body}");
    }
    // The third leave in a row: banned for ten minutes (an account a minute old: twice that).
    let (_, body) = outcomes_of(addr, &session, 3).await;
    let until = body["playban"]["until_ms"].as_i64().expect("a playban");
    let now = burraco_server::ids::unix_ms();
    assert!(
        until > now + 19 * 60_000 && until <= now + 20 * 60_000,
        "{body}"
    );
    assert_eq!(body["playban"]["reason"], "streak", "{body}");

    // Quick play: the 1.5 `playban` notice with the ban's end, then the typed refusal.
    let reply = leaver
        .request(|id| ClientMessage::QuickPlay {
            id,
            preset: None,
            players: Some(2),
        })
        .await;
    assert!(refused_playbanned(&reply), "{reply:?}");
    assert!(
        leaver
            .log
            .iter()
            .any(|m| matches!(m, ServerMessage::Playban { until_ms } if *until_ms == until)),
        "the playban notice says until when"
    );
    // Creating a table and registering are refused the same way; a 1.0 connection gets the
    // error alone (no message newer than its hello).
    let reply = leaver
        .request(|id| ClientMessage::CreateTable {
            id,
            settings: settings("fitab", 2, Some(1), "off"),
            private: false,
            bots: None,
        })
        .await;
    assert!(refused_playbanned(&reply), "{reply:?}");
    let cookie = format!("burraco_session={session}");
    let (mut old, _) =
        Client::connect_with(addr, "ignored", None, "1.0", &[("Cookie", &cookie)]).await;
    let reply = old
        .request(|id| ClientMessage::QuickPlay {
            id,
            preset: None,
            players: Some(2),
        })
        .await;
    assert!(refused_playbanned(&reply), "{reply:?}");
    assert!(
        !old.log
            .iter()
            .any(|m| matches!(m, ServerMessage::Playban { .. }))
    );

    // Its personal token is refused the same way.
    let reply = http(
        addr,
        "POST",
        "/api/tokens",
        &[("Cookie", &cookie)],
        &json!({"label": "bot", "scopes": ["play"]}).to_string(),
    )
    .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    let token = reply.json()["token"].as_str().expect("token").to_owned();
    let bearer = format!("Bearer {token}");
    let (mut by_token, _) =
        Client::connect_with(addr, "ignored", None, "1.5", &[("Authorization", &bearer)]).await;
    let reply = by_token
        .request(|id| ClientMessage::QuickPlay {
            id,
            preset: None,
            players: Some(2),
        })
        .await;
    assert!(refused_playbanned(&reply), "{reply:?}");

    // A guest, and another account, play as ever.
    let mut guest = server.client("guest").await;
    let reply = guest
        .request(|id| ClientMessage::QuickPlay {
            id,
            preset: None,
            players: Some(2),
        })
        .await;
    assert!(matches!(reply, ServerMessage::Seated { .. }), "{reply:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_gone_past_the_grace_left_the_game() {
    let server = TestServer::with(|c| {
        fast_bots(c);
        c.disconnect_grace = Duration::from_millis(300);
    })
    .await;
    let addr = server.addr;
    let session = sign_up(addr, "gone").await;
    let mut gone = signed_in(addr, &session).await;
    let reply = gone
        .request(|id| ClientMessage::CreateTable {
            id,
            settings: settings("fitab", 2, Some(1), "off"),
            private: false,
            bots: Some(BotLevel::Random),
        })
        .await;
    let ServerMessage::TableCreated { table, .. } = reply else {
        panic!("{reply:?}")
    };
    gone.ok(|id| ClientMessage::Ready { id, table }).await;
    gone.wait(|m| matches!(m, ServerMessage::HandStarted { .. }))
        .await;
    // The connection drops for good: after the grace a stand-in plays the match out.
    drop(gone);
    let (outcomes, body) = outcomes_of(addr, &session, 1).await;
    assert_eq!(outcomes, vec!["left".to_owned()], "{body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drop_back_within_the_grace_and_a_leaving_partner_are_not_held_against_a_player() {
    let server = TestServer::with(|c| {
        fast_bots(c);
        c.disconnect_grace = Duration::from_secs(10);
    })
    .await;
    let addr = server.addr;
    let (anna_session, bruno_session) = (sign_up(addr, "anna").await, sign_up(addr, "bruno").await);
    // Anna (N) and her partner Bruno (S) against two server bots.
    let mut anna = signed_in(addr, &anna_session).await;
    let reply = anna
        .request(|id| ClientMessage::CreateTable {
            id,
            settings: settings("fitab", 4, Some(1), "off"),
            private: false,
            bots: None,
        })
        .await;
    let ServerMessage::TableCreated { table, .. } = reply else {
        panic!("{reply:?}")
    };
    let mut bruno = signed_in(addr, &bruno_session).await;
    let t = table.clone();
    let reply = bruno
        .request(|id| ClientMessage::Join {
            id,
            table: Some(t),
            invite: None,
            seat: Some(WireSeat(Seat::South)),
        })
        .await;
    assert!(matches!(reply, ServerMessage::Seated { .. }), "{reply:?}");
    let t = table.clone();
    anna.ok(|id| ClientMessage::AddBots {
        id,
        table: t,
        level: Some(BotLevel::Random),
    })
    .await;
    let mut bruno = Human::seated(bruno, table.clone(), Seat::South);
    let t = table.clone();
    anna.ok(|id| ClientMessage::Ready { id, table: t }).await;
    bruno.ready().await;
    let started = |m: &ServerMessage| matches!(m, ServerMessage::HandStarted { .. });
    bruno.pump(started).await;

    // Anna leaves the match; Bruno's connection drops and he is back well within the grace.
    let t = table.clone();
    anna.ok(|id| ClientMessage::Leave { id, table: t }).await;
    bruno.client.barrier().await;
    let token = bruno.client.session.clone();
    drop(bruno);
    let cookie = format!("burraco_session={bruno_session}");
    let (client, welcome) =
        Client::connect_with(addr, "ignored", Some(&token), "1.5", &[("Cookie", &cookie)]).await;
    assert!(
        matches!(welcome, ServerMessage::Welcome { resumed: true, .. }),
        "{welcome:?}"
    );
    let mut bruno = Human::join(client, &table).await;
    assert_eq!(bruno.seat, Seat::South);
    // He plays the match out.
    bruno
        .pump(|m| matches!(m, ServerMessage::MatchEnded { .. }))
        .await;

    let (outcomes, body) = outcomes_of(addr, &bruno_session, 1).await;
    assert_eq!(outcomes, vec!["good".to_owned()], "{body}");
    assert!(body["playban"].is_null(), "{body}");
    let (outcomes, body) = outcomes_of(addr, &anna_session, 1).await;
    assert_eq!(outcomes, vec!["left".to_owned()], "{body}");
    // One leave is no ban.
    assert!(body["playban"].is_null(), "{body}");
    server.stop().await;
}

/// A mark against a player is in the table's log, not only in the memory of the node that served
/// the match: the account's connection drops for good, the grace runs out (a stand-in plays the
/// match out), the server is killed before the match-end projections run, and the restarted
/// server judges the match from its log alone: `left`, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grace_run_out_is_logged_and_judged_after_a_kill_9_before_the_projections() {
    let data = tempfile::tempdir().expect("temp dir");
    let flags = [
        "--disconnect-grace-secs",
        "1",
        "--bot-delay-ms",
        "0",
        "--test-rating-delay-ms",
        "60000",
    ];
    let (mut child, addr) = crate::crash::start_with(data.path(), &flags);
    let session = sign_up(addr, "gone").await;
    let mut gone = signed_in(addr, &session).await;
    let reply = gone
        .request(|id| ClientMessage::CreateTable {
            id,
            settings: settings("fitab", 2, Some(1), "off"),
            private: false,
            bots: Some(BotLevel::Random),
        })
        .await;
    let ServerMessage::TableCreated { table, .. } = reply else {
        panic!("{reply:?}")
    };
    let t = table.clone();
    gone.ok(|id| ClientMessage::Ready { id, table: t }).await;
    gone.wait(|m| matches!(m, ServerMessage::HandStarted { .. }))
        .await;
    drop(gone);
    // The stand-in and the bot play the one hand out: its record is the match's end.
    let mut ended = false;
    for _ in 0..600 {
        let (status, body) = http_get(addr, &format!("/api/tables/{table}/hands")).await;
        assert_eq!(status, 200, "{body}");
        let records: Value = serde_json::from_str(&body).expect("json");
        if records.as_array().is_some_and(|r| !r.is_empty()) {
            ended = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(ended, "the match never ended");
    // The projections wait a minute: nothing judged yet when the server dies.
    let body = playban_of(addr, &session).await;
    assert_eq!(body["outcomes"], json!([]), "{body}");
    child.kill().expect("kill -9");
    let _ = child.wait();
    let (mut child, addr) = crate::crash::start_with(data.path(), &[]);
    let (outcomes, body) = outcomes_of(addr, &session, 1).await;
    assert_eq!(outcomes, vec!["left".to_owned()], "{body}");
    // Another restart judges nothing twice.
    child.kill().expect("kill -9");
    let _ = child.wait();
    let (_child, addr) = crate::crash::start_with(data.path(), &[]);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (outcomes, body) = outcomes_of(addr, &session, 1).await;
    assert_eq!(outcomes, vec!["left".to_owned()], "{body}");
}
