//! Accounts in tournaments (protocol 1.7): an entrant registered from a signed-in connection
//! carries its account (the record's `accounts`, from the log), its level is read beside the
//! standings (`GET /api/tournaments/{id}/levels`), a guest is refused at a rated tournament's
//! registration (`account_required`) rather than at its table, and the record names the
//! director's account so a page signed in as it shows the director's panel.

use std::net::SocketAddr;

use burraco_protocol::wire::{ClientMessage, ServerMessage, WireTournamentSettings};
use serde_json::Value;

use super::sign_up;
use crate::common::{Client, TestServer, http_get};

fn singles(name: &str) -> WireTournamentSettings {
    WireTournamentSettings {
        name: name.into(),
        kind: "singles".into(),
        rounds: vec!["danish".into()],
        hands: 1,
        preset: "fitab".into(),
        max_entrants: Some(4),
        ..WireTournamentSettings::default()
    }
}

/// A 1.7 connection signed in with the session cookie.
async fn signed_in_17(addr: SocketAddr, name: &str, session: &str) -> Client {
    let cookie = format!("burraco_session={session}");
    let origin = format!("http://{addr}");
    let headers = [("Cookie", cookie.as_str()), ("Origin", origin.as_str())];
    Client::connect_with_headers(addr, name, "1.7", &headers)
        .await
        .0
}

async fn guest_17(addr: SocketAddr, name: &str) -> Client {
    Client::connect_saying(addr, name, None, false, "1.7")
        .await
        .0
}

async fn create(client: &mut Client, settings: WireTournamentSettings, rated: bool) -> String {
    let settings = Box::new(settings);
    let created = if rated {
        client
            .request(|id| ClientMessage::CreateRatedTournament { id, settings })
            .await
    } else {
        client
            .request(|id| ClientMessage::CreateTournament { id, settings })
            .await
    };
    let ServerMessage::TournamentCreated { tournament, .. } = created else {
        panic!("create: {created:?}")
    };
    tournament
}

async fn register(client: &mut Client, tournament: &str) -> ServerMessage {
    let tournament = tournament.to_owned();
    client
        .request(|id| ClientMessage::RegisterTournament {
            id,
            tournament,
            partner_code: None,
            bot: None,
        })
        .await
}

fn registered(reply: &ServerMessage) -> u32 {
    let ServerMessage::TournamentRegistered { entrant, .. } = reply else {
        panic!("register: {reply:?}")
    };
    *entrant
}

async fn get_json(addr: SocketAddr, path: &str) -> Value {
    let (status, body) = http_get(addr, path).await;
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).expect("json")
}

/// Writes an established (or provisional) `two` rating for `account` into the server's store,
/// as tens of rated matches would have left it.
fn rate(server: &TestServer, account: &str, rating: f64, deviation: f64) {
    let conn = rusqlite::Connection::open(server.dir.path().join("burraco.sqlite3")).expect("open");
    conn.execute(
        "INSERT INTO ratings (subject, category, member_a, member_b, bot, rating, deviation, \
         volatility, matches, last_ms) VALUES (?1, 'two', ?1, NULL, 0, ?2, ?3, 0.06, 40, ?4)",
        rusqlite::params![
            account,
            rating,
            deviation,
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .expect("clock")
                .as_millis() as i64
        ],
    )
    .expect("insert a rating");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entrants_carry_their_accounts_and_levels_and_a_rated_tournament_refuses_guests() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let (anna_id, anna) = sign_up(addr, "Anna").await;
    let (bruno_id, bruno) = sign_up(addr, "Bruno").await;
    // Anna established at 1760 (Expert), Bruno provisional (no level).
    rate(&server, &anna_id, 1760.0, 60.0);
    rate(&server, &bruno_id, 1610.0, 200.0);

    let mut a = signed_in_17(addr, "Anna", &anna).await;
    let mut b = signed_in_17(addr, "Bruno", &bruno).await;
    let mut guest = guest_17(addr, "Gianni").await;

    // A rated tournament: the guest is refused at registration, with the typed code.
    let rated = create(&mut a, singles("rated cup"), true).await;
    let refused = register(&mut guest, &rated).await;
    let ServerMessage::Error { code, .. } = &refused else {
        panic!("a guest registering for a rated tournament: {refused:?}")
    };
    assert_eq!(code, "account_required");
    let anna_entrant = registered(&register(&mut a, &rated).await);
    // Anna on another device (another session, so another player id): one account, one entrant.
    let mut again = signed_in_17(addr, "Anna", &anna).await;
    let twice = register(&mut again, &rated).await;
    let ServerMessage::Error { code, .. } = &twice else {
        panic!("Anna registering twice: {twice:?}")
    };
    assert_eq!(code, "already_registered");
    let bruno_entrant = registered(&register(&mut b, &rated).await);

    // The record names each entrant's account, the director's, and the rated flag.
    let record = get_json(addr, &format!("/api/tournaments/{rated}")).await;
    assert_eq!(record["rated"], true, "{record}");
    assert_eq!(record["director_account"], anna_id.as_str(), "{record}");
    let entrants = record["entrants"].as_array().expect("entrants");
    assert_eq!(entrants.len(), 2, "the guest is no entrant: {record}");
    assert_eq!(
        entrants[anna_entrant as usize]["accounts"],
        serde_json::json!([anna_id])
    );
    assert_eq!(
        entrants[bruno_entrant as usize]["accounts"],
        serde_json::json!([bruno_id])
    );

    // The levels beside the standings: Anna's established level, none for Bruno's provisional.
    let levels = get_json(addr, &format!("/api/tournaments/{rated}/levels")).await;
    assert_eq!(levels["category"], "two", "{levels}");
    let of = |entrant: u32| {
        levels["entrants"]
            .as_array()
            .expect("entrants")
            .iter()
            .find(|e| e["entrant"] == entrant)
            .unwrap_or_else(|| panic!("entrant {entrant}: {levels}"))
            .clone()
    };
    assert_eq!(of(anna_entrant)["levels"], serde_json::json!(["expert"]));
    assert_eq!(of(bruno_entrant)["levels"], serde_json::json!([null]));
    assert_eq!(of(anna_entrant)["bot"], false);

    // A casual tournament takes the guest; its player has no account, and so no level.
    let casual = create(&mut b, singles("casual cup"), false).await;
    let guest_entrant = registered(&register(&mut guest, &casual).await);
    let anna_there = registered(&register(&mut a, &casual).await);
    let record = get_json(addr, &format!("/api/tournaments/{casual}")).await;
    assert_eq!(record["rated"], false, "{record}");
    assert_eq!(record["director_account"], bruno_id.as_str(), "{record}");
    assert_eq!(
        record["entrants"][guest_entrant as usize]["accounts"],
        serde_json::json!([null])
    );
    let levels = get_json(addr, &format!("/api/tournaments/{casual}/levels")).await;
    let entrants = levels["entrants"].as_array().expect("entrants");
    let guest_line = entrants
        .iter()
        .find(|e| e["entrant"] == guest_entrant)
        .expect("the guest's line");
    assert_eq!(guest_line["levels"], serde_json::json!([null]));
    let anna_line = entrants
        .iter()
        .find(|e| e["entrant"] == anna_there)
        .expect("Anna's line");
    assert_eq!(anna_line["levels"], serde_json::json!(["expert"]));

    // A guest creating a tournament names no director account.
    let guests_own = create(&mut guest, singles("guests' cup"), false).await;
    let record = get_json(addr, &format!("/api/tournaments/{guests_own}")).await;
    assert_eq!(record["director_account"], Value::Null, "{record}");

    // Unknown tournaments are refused with a typed code.
    for path in [
        "/api/tournaments/T-0000000000/levels",
        "/api/tournaments/t-x/levels",
    ] {
        let (status, body) = http_get(addr, path).await;
        assert_eq!(status, 404, "{path}: {body}");
        let body: Value = serde_json::from_str(&body).expect("json");
        assert_eq!(body["code"], "unknown_tournament");
    }
    server.stop().await;
}

/// A single node keeps ratings: rated play is never `rated_unavailable` there, and a guest still
/// hears it needs an account.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_single_node_answers_a_guests_rated_requests_account_required() {
    let server = TestServer::start().await;
    let mut guest = guest_17(server.addr, "Gianni").await;
    for reply in super::unavailable::rated_requests(&mut guest).await {
        let ServerMessage::Error { code, .. } = &reply else {
            panic!("{reply:?}")
        };
        assert_eq!(code, "account_required", "{reply:?}");
    }
    server.stop().await;
}
