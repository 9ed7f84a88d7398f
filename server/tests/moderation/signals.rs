//! The server's own reports at the table, on the raw socket (protocol 1.7): two accounts from
//! one address at a rated table shown to the table (`same_address`, the seats only) and
//! reported, by the addresses their connections have now (not one a player had before, and told
//! again when a seat's connection goes or comes back), on one node and across two; each case
//! once in the moderators' queue however often it is found; the same accounts' rated matches
//! past the daily cap reported as rating farming.

use std::net::SocketAddr;
use std::time::Duration;

use burraco_protocol::wire::{ClientMessage, ServerMessage, WireSeat};
use serde_json::{Value, json};

use super::http::{admin, get, sign_up};
use super::table::{account, queued};
use crate::common::{Client, TestServer, settings};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_accounts_from_one_address_at_a_rated_table_are_shown_to_it_and_reported() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let (moira, _) = sign_up(addr, "Moira").await;
    let (rocco_session, rocco_id) = sign_up(addr, "Rocco").await;
    let (paola_session, paola_id) = sign_up(addr, "Paola").await;
    admin(&server, &["grant-moderator", "moira"]);
    let mut rocco = account(addr, "Rocco", &rocco_session, "1.7").await;
    let mut paola = account(addr, "Paola", &paola_session, "1.7").await;
    // At an unrated table two accounts of one address are nobody's business.
    let created = rocco
        .request(|id| ClientMessage::CreateTable {
            id,
            settings: settings("fitab", 2, Some(1), "off"),
            private: false,
            bots: None,
        })
        .await;
    let ServerMessage::TableCreated { table: casual, .. } = created else {
        panic!("create: {created:?}")
    };
    let t = casual.clone();
    let seated = paola
        .request(|id| ClientMessage::Join {
            id,
            table: Some(t),
            invite: None,
            seat: None,
        })
        .await;
    assert!(matches!(seated, ServerMessage::Seated { .. }), "{seated:?}");
    paola.barrier().await;
    rocco.barrier().await;
    for client in [&rocco, &paola] {
        assert!(
            !client
                .log
                .iter()
                .any(|m| matches!(m, ServerMessage::SameAddress { .. })),
            "an unrated table is not told"
        );
    }
    for client in [&mut rocco, &mut paola] {
        let table = casual.clone();
        client.ok(|id| ClientMessage::Leave { id, table }).await;
    }

    // At a rated one, both (all from 127.0.0.1) are flagged once Paola sits.
    let created = rocco
        .request(|id| ClientMessage::CreateRatedTable {
            id,
            settings: settings("fitab", 2, Some(1), "off"),
            private: false,
        })
        .await;
    let ServerMessage::TableCreated { table, seat, .. } = created else {
        panic!("create: {created:?}")
    };
    let t = table.clone();
    let seated = paola
        .request(|id| ClientMessage::Join {
            id,
            table: Some(t),
            invite: None,
            seat: None,
        })
        .await;
    let ServerMessage::Seated {
        seat: paola_seat, ..
    } = seated
    else {
        panic!("join: {seated:?}")
    };
    let mut both = vec![seat, paola_seat];
    both.sort_by_key(|s| s.0.index());
    for client in [&mut rocco, &mut paola] {
        let notice = client
            .wait(|m| matches!(m, ServerMessage::SameAddress { .. }))
            .await;
        assert_eq!(
            notice,
            ServerMessage::SameAddress {
                table: table.clone(),
                seats: both.clone(),
            }
        );
        // The seats, never the address.
        let frame = client
            .frames
            .iter()
            .find(|f| f.contains("\"same_address\""))
            .expect("its frame");
        assert!(!frame.contains("127.0.0.1"), "{frame}");
    }
    // A 1.7 spectator hears it after its snapshot; a 1.6 one never does.
    let (mut watcher, _) = Client::connect_saying(addr, "Vera", None, false, "1.7").await;
    let (mut older, _) = Client::connect_saying(addr, "Ugo", None, false, "1.6").await;
    for client in [&mut watcher, &mut older] {
        let table = table.clone();
        client.ok(|id| ClientMessage::Spectate { id, table }).await;
        client.barrier().await;
    }
    assert!(
        watcher
            .log
            .iter()
            .any(|m| matches!(m, ServerMessage::SameAddress { seats, .. } if *seats == both))
    );
    assert!(
        !older
            .log
            .iter()
            .any(|m| matches!(m, ServerMessage::SameAddress { .. }))
    );

    // The moderators have it, naming both accounts.
    let found = queued(addr, &moira, |r| {
        r["kind"] == "same_address" && r["table"] == table.as_str()
    })
    .await;
    assert_eq!(found["reason"], "multi_account");
    let detail = found["context"]["detail"].as_str().expect("detail");
    assert!(
        detail.contains(&rocco_id) && detail.contains(&paola_id),
        "{detail}"
    );
    let queue = get(addr, "/api/moderation/reports", &moira).await;
    assert!(
        !queue.body.contains(casual.as_str()),
        "the unrated table is not reported: {}",
        queue.body
    );
    server.stop().await;
}

/// An account's connection from `ip` (the server trusts `X-Forwarded-For`), its hello saying
/// 1.7; `resume`: a session to resume.
async fn account_from(
    addr: SocketAddr,
    name: &str,
    session: &str,
    ip: &str,
    resume: Option<&str>,
) -> Client {
    let cookie = format!("burraco_session={session}");
    let origin = format!("http://{addr}");
    let headers = [
        ("Cookie", cookie.as_str()),
        ("Origin", origin.as_str()),
        ("X-Forwarded-For", ip),
    ];
    Client::connect_with(addr, name, resume, "1.7", &headers)
        .await
        .0
}

async fn join(client: &mut Client, table: &str) -> WireSeat {
    let t = table.to_owned();
    let seated = client
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
    seat
}

async fn create_rated(client: &mut Client, players: u8) -> (String, WireSeat) {
    let created = client
        .request(|id| ClientMessage::CreateRatedTable {
            id,
            settings: settings("fitab", players, Some(1), "off"),
            private: false,
        })
        .await;
    let ServerMessage::TableCreated { table, seat, .. } = created else {
        panic!("create: {created:?}")
    };
    (table, seat)
}

fn same_address(m: &ServerMessage) -> bool {
    matches!(m, ServerMessage::SameAddress { .. })
}

/// Issue 32: Rocco took a seat from one network (X), left it and came back from another (Y).
/// At his next rated table Paola connects from X and Carla from Y: the table and the
/// moderators hear of Rocco and Carla only (the server remembered X as Rocco's for 12 hours,
/// and said Rocco and Paola were "connected from one address"). When Carla's connection goes,
/// the table hears that no seat shares one now; when she comes back, that hers does again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_address_is_the_connections_now_not_a_leavers_old_one() {
    let server = TestServer::with(|config| config.trust_forwarded_for = true).await;
    let addr = server.addr;
    let (x, y, z) = ("198.51.100.7", "203.0.113.9", "192.0.2.33");
    let (moira, _) = sign_up(addr, "Moira").await;
    admin(&server, &["grant-moderator", "moira"]);
    let (anna_session, _) = sign_up(addr, "Anna").await;
    let (rocco_session, rocco_id) = sign_up(addr, "Rocco").await;
    let (paola_session, paola_id) = sign_up(addr, "Paola").await;
    let (carla_session, carla_id) = sign_up(addr, "Carla").await;

    // Rocco sits at Anna's rated table from X, leaves it, and goes.
    let mut anna = account_from(addr, "Anna", &anna_session, z, None).await;
    let (first, _) = create_rated(&mut anna, 2).await;
    let mut rocco = account_from(addr, "Rocco", &rocco_session, x, None).await;
    join(&mut rocco, &first).await;
    let t = first.clone();
    rocco.ok(|id| ClientMessage::Leave { id, table: t }).await;
    drop(rocco);

    // Back from Y: his table, Paola from X, then Carla from Y.
    let mut rocco = account_from(addr, "Rocco", &rocco_session, y, None).await;
    let (table, rocco_seat) = create_rated(&mut rocco, 4).await;
    let mut paola = account_from(addr, "Paola", &paola_session, x, None).await;
    join(&mut paola, &table).await;
    let mut carla = account_from(addr, "Carla", &carla_session, y, None).await;
    let carla_seat = join(&mut carla, &table).await;
    let mut both = vec![rocco_seat, carla_seat];
    both.sort_by_key(|s| s.0.index());
    let sharing = ServerMessage::SameAddress {
        table: table.clone(),
        seats: both,
    };
    for client in [&mut rocco, &mut paola] {
        assert_eq!(client.wait(same_address).await, sharing, "{}", client.name);
    }
    let found = queued(addr, &moira, |r| {
        r["kind"] == "same_address" && r["table"] == table.as_str()
    })
    .await;
    let mut named = vec![rocco_id.clone(), carla_id.clone()];
    named.sort();
    assert_eq!(found["context"]["accounts"], json!(named));
    let detail = found["context"]["detail"].as_str().expect("detail");
    assert!(!detail.contains(&paola_id), "{detail}");

    // Carla's connection goes: nobody shares an address now. She comes back: she does again.
    let carla_token = carla.session.clone();
    drop(carla);
    let none = ServerMessage::SameAddress {
        table: table.clone(),
        seats: Vec::new(),
    };
    for client in [&mut rocco, &mut paola] {
        assert_eq!(client.wait(same_address).await, none, "{}", client.name);
    }
    let mut carla = account_from(addr, "Carla", &carla_session, y, Some(&carla_token)).await;
    // Back at her seat, she catches up, as a client does after a resume.
    let t = table.clone();
    carla
        .ok(|id| ClientMessage::Sync {
            id,
            table: t,
            last_seq: 0,
        })
        .await;
    for client in [&mut rocco, &mut paola] {
        assert_eq!(client.wait(same_address).await, sharing, "{}", client.name);
    }
    // Still one case: found again at the same table, not counted twice.
    let queue = get(addr, "/api/moderation/reports", &moira).await;
    let reports = queue.json()["reports"].as_array().expect("reports").clone();
    let cases: Vec<&Value> = reports
        .iter()
        .filter(|r| r["kind"] == "same_address")
        .collect();
    assert_eq!(cases.len(), 1, "{reports:?}");
    assert_eq!(cases[0]["context"]["count"], 1);
    server.stop().await;
}

/// Issue 32: the same two accounts from one address at one rated table after another are one
/// report in the moderators' queue, counting the tables, with the latest's context (383 rows
/// in 30 minutes on one machine buried the players' reports).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_accounts_found_at_table_after_table_are_one_report_counting_them() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let (moira, _) = sign_up(addr, "Moira").await;
    admin(&server, &["grant-moderator", "moira"]);
    let (rocco_session, rocco_id) = sign_up(addr, "Rocco").await;
    let (paola_session, paola_id) = sign_up(addr, "Paola").await;
    let mut rocco = account(addr, "Rocco", &rocco_session, "1.7").await;
    let mut paola = account(addr, "Paola", &paola_session, "1.7").await;
    let mut tables = Vec::new();
    for _ in 0..3 {
        let (table, _) = create_rated(&mut rocco, 2).await;
        join(&mut paola, &table).await;
        rocco.wait(same_address).await;
        for client in [&mut rocco, &mut paola] {
            let t = table.clone();
            client.ok(|id| ClientMessage::Leave { id, table: t }).await;
        }
        tables.push(table);
    }
    let latest = tables.last().expect("a table").clone();
    let found = queued(addr, &moira, |r| {
        r["kind"] == "same_address" && r["context"]["count"] == 3
    })
    .await;
    assert_eq!(
        found["table"],
        latest.as_str(),
        "the latest table's context"
    );
    assert_eq!(found["context"]["table"], latest.as_str());
    let mut both = vec![rocco_id, paola_id];
    both.sort();
    assert_eq!(found["context"]["accounts"], json!(both));
    assert!(found["context"]["last_ms"].as_i64() >= found["created_ms"].as_i64());
    let queue = get(addr, "/api/moderation/reports", &moira).await;
    let reports = queue.json()["reports"].as_array().expect("reports").clone();
    assert_eq!(
        reports
            .iter()
            .filter(|r| r["kind"] == "same_address")
            .count(),
        1,
        "{reports:?}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_accounts_past_the_daily_cap_of_rated_matches_are_reported_as_farming() {
    let server = TestServer::with(|config| {
        config.rated_min_play = Duration::ZERO;
        config.rated_daily_cap = 1;
    })
    .await;
    let addr = server.addr;
    let (moira, _) = sign_up(addr, "Moira").await;
    admin(&server, &["grant-moderator", "moira"]);
    let (anna_id, anna) = crate::ratings::sign_up(addr, "Anna").await;
    let (bruno_id, bruno) = crate::ratings::sign_up(addr, "Bruno").await;
    // The first match is rated: no farming report.
    crate::ratings::play_rated_match(addr, &anna, &bruno).await;
    let ratings = crate::ratings::until_matches(addr, &anna_id, 1, Duration::from_secs(10)).await;
    assert_eq!(crate::ratings::matches_two(&ratings), 1, "{ratings}");
    let queue = get(addr, "/api/moderation/reports", &moira).await;
    assert!(!queue.body.contains("rating_farming"), "{}", queue.body);
    // The second, past the cap, is not rated and is reported.
    let second = crate::ratings::play_rated_match(addr, &anna, &bruno).await;
    let found = queued(addr, &moira, |r| r["kind"] == "rating_farming").await;
    assert_eq!(found["table"], second.as_str());
    assert_eq!(found["reason"], "multi_account");
    assert_eq!(found["reporter"], Value::Null);
    let detail = found["context"]["detail"].as_str().expect("detail");
    assert!(
        detail.contains("Anna") && detail.contains("Bruno"),
        "{detail}"
    );
    assert!(
        [anna_id.as_str(), bruno_id.as_str()]
            .contains(&found["subject"].as_str().expect("subject")),
        "{found}"
    );
    let ratings = crate::ratings::ratings_of(addr, &anna_id).await;
    assert_eq!(
        crate::ratings::matches_two(&ratings),
        1,
        "not rated: {ratings}"
    );
    server.stop().await;
}

/// A cluster of two nodes sharing a PostgreSQL database: Rocco's rated table on node-a, Paola
/// connected to node-b. Node-a never sees Paola's connection; her join, forwarded, carries her
/// address, so the table's node still finds the two accounts on one address and tells them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_address_is_found_when_the_accounts_are_connected_to_different_nodes() {
    let postgres = crate::accounts::Postgres::start();
    let url = postgres.url();
    let nats = crate::cluster::Nats::start(1);
    let a = crate::cluster::Node::start_with(&nats, "node-a", &["--database-url", &url]);
    let b = crate::cluster::Node::start_with(&nats, "node-b", &["--database-url", &url]);
    let (rocco_session, _) = sign_up(a.addr, "Rocco").await;
    let (paola_session, _) = sign_up(a.addr, "Paola").await;
    let mut rocco = account(a.addr, "Rocco", &rocco_session, "1.7").await;
    let mut paola = account(b.addr, "Paola", &paola_session, "1.7").await;
    let created = rocco
        .request(|id| ClientMessage::CreateRatedTable {
            id,
            settings: settings("fitab", 2, Some(1), "off"),
            private: false,
        })
        .await;
    let ServerMessage::TableCreated { table, seat, .. } = created else {
        panic!("create: {created:?}")
    };
    let t = table.clone();
    let seated = paola
        .request(|id| ClientMessage::Join {
            id,
            table: Some(t),
            invite: None,
            seat: None,
        })
        .await;
    let ServerMessage::Seated {
        seat: paola_seat, ..
    } = seated
    else {
        panic!("join through node-b: {seated:?}")
    };
    let mut both = vec![seat, paola_seat];
    both.sort_by_key(|s| s.0.index());
    let want = ServerMessage::SameAddress {
        table: table.clone(),
        seats: both,
    };
    // Paola hears it through node-b, relayed from the table's node.
    for client in [&mut rocco, &mut paola] {
        let notice = client
            .wait(|m| matches!(m, ServerMessage::SameAddress { .. }))
            .await;
        assert_eq!(notice, want);
    }
}
