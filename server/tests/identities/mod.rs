//! Who holds a seat (protocol 1.6): `seat_identities` tells a guest, a player account, a bot
//! account and a server bot apart at one table, a finished hand's record served over HTTP carries
//! the same labels, and a bot account's tournament entry is a bot's in the standings, whatever its
//! registration said. All on the raw socket.

use std::net::SocketAddr;

use burraco_protocol::wire::{
    BotLevel, ClientMessage, SeatIdentity, ServerMessage, WireTournamentSettings,
};
use burraco_rules::Seat;
use serde_json::{Value, json};

use crate::accounts::http::{http, http_post};
use crate::bots::{Human, fast_bots};
use crate::common::{Client, TestServer, settings};

/// Signs `name` up; its session cookie header.
async fn sign_up(addr: SocketAddr, name: &str) -> String {
    let body = json!({"username": name, "password": "correct horse"}).to_string();
    let reply = http_post(addr, "/api/signup", None, &body).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    format!("burraco_session={}", reply.token())
}

/// Signs `name` up, makes it a bot account and gives it a token of `scopes`: its
/// `Authorization` header.
async fn bot_account(addr: SocketAddr, name: &str, scopes: &[&str]) -> String {
    let cookie = sign_up(addr, name).await;
    let made = http(addr, "POST", "/api/account/bot", &[("Cookie", &cookie)], "").await;
    assert_eq!(made.status, 200, "{}", made.body);
    let body = json!({"label": "my bot", "scopes": scopes}).to_string();
    let token = http(addr, "POST", "/api/tokens", &[("Cookie", &cookie)], &body).await;
    assert_eq!(token.status, 201, "{}", token.body);
    let token = token.json()["token"].as_str().expect("token").to_owned();
    format!("Bearer {token}")
}

/// A 1.6 connection with these upgrade headers; the client and its account's id (`None` for a
/// guest), from the `identity` after the welcome.
async fn connect(
    addr: SocketAddr,
    name: &str,
    headers: &[(&str, &str)],
) -> (Client, Option<String>) {
    let (mut client, _) = Client::connect_with(addr, name, None, "1.6", headers).await;
    let identity = client
        .wait(|m| matches!(m, ServerMessage::Identity { .. }))
        .await;
    let ServerMessage::Identity { account, .. } = identity else {
        unreachable!()
    };
    (client, account)
}

async fn identities(client: &mut Client, table: &str) -> Vec<SeatIdentity> {
    let table = table.to_owned();
    let reply = client
        .request(|id| ClientMessage::SeatIdentities { id, table })
        .await;
    let ServerMessage::SeatIdentities { seats, .. } = reply else {
        panic!("expected seat_identities, got {reply:?}")
    };
    seats
}

fn error_code(message: &ServerMessage) -> Option<&str> {
    match message {
        ServerMessage::Error { code, .. } => Some(code),
        _ => None,
    }
}

/// A join by the private table's invite code.
fn join(invite: &str) -> impl FnOnce(u64) -> ClientMessage {
    let invite = invite.to_owned();
    move |id| ClientMessage::Join {
        id,
        table: None,
        invite: Some(invite),
        seat: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_tells_a_guest_a_player_a_bot_account_and_a_server_bot_apart() {
    let server = TestServer::with(fast_bots).await;
    let addr = server.addr;
    let anna_cookie = sign_up(addr, "Anna").await;
    let robo_auth = bot_account(addr, "RoboGina", &["play"]).await;

    // A guest opens a private 4-player table; a player account and a bot account join it.
    let (mut dario, dario_account) = connect(addr, "Dario", &[]).await;
    assert_eq!(dario_account, None);
    let reply = dario
        .request(|id| ClientMessage::CreateTable {
            id,
            settings: settings("fitab", 4, Some(1), "off"),
            private: true,
            bots: None,
        })
        .await;
    let ServerMessage::TableCreated {
        table,
        invite: Some(invite),
        ..
    } = reply
    else {
        panic!("create: {reply:?}")
    };
    let (mut anna, anna_account) = connect(addr, "x", &[("Cookie", &anna_cookie)]).await;
    assert!(anna_account.is_some());
    let seated = anna.request(join(&invite)).await;
    assert!(matches!(seated, ServerMessage::Seated { .. }), "{seated:?}");
    let (mut robo, robo_account) = connect(addr, "x", &[("Authorization", &robo_auth)]).await;
    assert!(robo_account.is_some());
    let seated = robo.request(join(&invite)).await;
    assert!(matches!(seated, ServerMessage::Seated { .. }), "{seated:?}");
    // The last seat goes to a server bot of L1.
    let t = table.clone();
    dario
        .ok(|id| ClientMessage::AddBots {
            id,
            table: t,
            level: Some(BotLevel::Greedy),
        })
        .await;

    // Anyone may ask by id, for a private table too: here one who sits nowhere.
    let (mut watcher, _) = connect(addr, "Elena", &[]).await;
    let seats = identities(&mut watcher, &table).await;
    assert_eq!(seats.len(), 4, "{seats:?}");
    let order: Vec<Seat> = seats.iter().map(|s| s.seat.0).collect();
    assert_eq!(order, [Seat::North, Seat::East, Seat::South, Seat::West]);
    let of_kind = |kind: &str| -> &SeatIdentity {
        let found: Vec<&SeatIdentity> = seats.iter().filter(|s| s.kind == kind).collect();
        assert_eq!(found.len(), 1, "one {kind}: {seats:?}");
        found[0]
    };
    let guest = of_kind("guest");
    assert_eq!((guest.name.as_str(), &guest.account), ("Dario", &None));
    let player = of_kind("player");
    assert_eq!(
        (player.name.as_str(), &player.account),
        ("Anna", &anna_account)
    );
    let bot = of_kind("bot");
    assert_eq!(
        (bot.name.as_str(), &bot.account),
        ("RoboGina", &robo_account)
    );
    let server_bot = of_kind("server_bot");
    assert_eq!(server_bot.server_bot.as_deref(), Some("L1"));
    assert_eq!(server_bot.account, None);
    // Only the server bot has a server bot's level: a bot account is no server bot.
    assert_eq!(seats.iter().filter(|s| s.server_bot.is_some()).count(), 1);

    // The same through the binary form (postcard), which has no optional trailing fields.
    let (mut binary, _) = Client::connect_saying(addr, "Bin", None, true, "1.6").await;
    assert_eq!(identities(&mut binary, &table).await, seats);

    // A 1.5 connection is refused the 1.6 request; an unknown table is refused by its code.
    let (mut older, _) = Client::connect_saying(addr, "Olga", None, false, "1.5").await;
    let t = table.clone();
    let refused = older
        .request(|id| ClientMessage::SeatIdentities { id, table: t })
        .await;
    assert_eq!(error_code(&refused), Some("needs_minor"), "{refused:?}");
    let refused = watcher
        .request(|id| ClientMessage::SeatIdentities {
            id,
            table: "t-0000000000".into(),
        })
        .await;
    assert_eq!(error_code(&refused), Some("unknown_table"), "{refused:?}");
    server.stop().await;
}

/// Each seat of the first hand record `/api/tables/{id}/hands` serves: (seat, kind, account,
/// server bot).
fn record_seats(records: &Value) -> Vec<(String, Value, Value, Value)> {
    let first = records
        .as_array()
        .and_then(|r| r.first())
        .unwrap_or_else(|| panic!("a record: {records}"));
    let record = first.get("record").unwrap_or(first);
    let mut seats: Vec<_> = record["seats"]
        .as_array()
        .unwrap_or_else(|| panic!("seats: {record}"))
        .iter()
        .map(|s| {
            (
                s["seat"].as_str().unwrap_or_default().to_owned(),
                s["kind"].clone(),
                s["account"].clone(),
                s["server_bot"].clone(),
            )
        })
        .collect();
    seats.sort_by(|a, b| a.0.cmp(&b.0));
    seats
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hand_record_labels_a_guest_and_a_server_bot() {
    let server = TestServer::with(fast_bots).await;
    let mut human = Human::create(
        &server,
        "Dario",
        settings("fitab", 2, Some(1), "off"),
        Some(BotLevel::Expert),
    )
    .await;
    human.ready().await;
    human
        .pump(|m| matches!(m, ServerMessage::HandRecord { .. }))
        .await;
    let (status, body) = server
        .http_get(&format!("/api/tables/{}/hands", human.table))
        .await;
    assert_eq!(status, 200, "{body}");
    let records: Value = serde_json::from_str(&body).expect("json");
    let code = |seat: Seat| if seat == Seat::North { "N" } else { "S" };
    let bot_seat = if human.seat == Seat::North {
        Seat::South
    } else {
        Seat::North
    };
    let mut expected = vec![
        (
            code(human.seat).to_owned(),
            json!("guest"),
            Value::Null,
            Value::Null,
        ),
        (
            code(bot_seat).to_owned(),
            json!("server_bot"),
            Value::Null,
            json!("L2"),
        ),
    ];
    expected.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(record_seats(&records), expected, "{body}");
    server.stop().await;
}

fn singles() -> WireTournamentSettings {
    WireTournamentSettings {
        name: "identities".into(),
        kind: "singles".into(),
        rounds: vec!["mitchell".into()],
        hands: 1,
        preset: "fitab".into(),
        max_entrants: Some(4),
        seating: Some("registration".into()),
        start_when_full: Some(false),
        clocks: Some("off".into()),
        duplicate: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_accounts_tournament_entry_is_a_bot_whatever_it_said() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let robo_auth = bot_account(addr, "RoboGina", &["join_tournaments"]).await;
    let (mut director, _) = connect(addr, "Carla", &[]).await;
    let created = director
        .request(|id| ClientMessage::CreateTournament {
            id,
            settings: Box::new(singles()),
        })
        .await;
    let ServerMessage::TournamentCreated { tournament, .. } = created else {
        panic!("create: {created:?}")
    };
    // Both say they are no bot.
    let register = |tournament: &str| {
        let tournament = tournament.to_owned();
        move |id| ClientMessage::RegisterTournament {
            id,
            tournament,
            partner_code: None,
            bot: Some(false),
        }
    };
    let (mut robo, _) = connect(addr, "x", &[("Authorization", &robo_auth)]).await;
    let registered = robo.request(register(&tournament)).await;
    assert!(
        matches!(registered, ServerMessage::TournamentRegistered { .. }),
        "{registered:?}"
    );
    let (mut guest, _) = connect(addr, "Dario", &[]).await;
    let registered = guest.request(register(&tournament)).await;
    assert!(
        matches!(registered, ServerMessage::TournamentRegistered { .. }),
        "{registered:?}"
    );
    // The standings every entrant hears mark the bot account's entrant, not the guest's.
    let update = guest
        .wait(|m| {
            matches!(m, ServerMessage::TournamentUpdate { standings, .. } if standings.len() == 2)
        })
        .await;
    let ServerMessage::TournamentUpdate { standings, .. } = update else {
        unreachable!()
    };
    let mut flags: Vec<(String, bool)> = standings
        .iter()
        .map(|s| (s.names.join(" & "), s.bot))
        .collect();
    flags.sort();
    assert_eq!(
        flags,
        [("Dario".to_owned(), false), ("RoboGina".to_owned(), true)]
    );
    // And so does the record: a bot, but no server bot.
    let (status, body) = server
        .http_get(&format!("/api/tournaments/{tournament}"))
        .await;
    assert_eq!(status, 200, "{body}");
    let record: Value = serde_json::from_str(&body).expect("json");
    let entrants: Vec<(String, bool, bool)> = record["entrants"]
        .as_array()
        .unwrap_or_else(|| panic!("entrants: {body}"))
        .iter()
        .map(|e| {
            (
                e["names"][0].as_str().unwrap_or_default().to_owned(),
                e["bot"].as_bool().unwrap_or_default(),
                e["server_bot"].as_bool().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        entrants,
        [
            ("RoboGina".to_owned(), true, false),
            ("Dario".to_owned(), false, false)
        ]
    );
    server.stop().await;
}
