//! Quick play brings people together (issue 32): players who ask for the same kind of table at
//! the same moment sit at one table, casual and rated, head to head and four at a table.

/// Two nodes: askers at both at once end at one table.
mod cluster;
/// Rated players apart brought together as their windows widen; only 1.9 clients moved.
mod moves;

use std::collections::HashMap;

use burraco_protocol::wire::{ClientMessage, ServerMessage};

use crate::common::*;
use crate::ratings::{sign_up, signed_in};

/// Rounds of simultaneous askers per kind: the race this guards against lost about one round
/// in five (a table made for one asker was not yet open to the next, who made another).
const ROUNDS: usize = 25;

pub(super) fn quick(rated: bool, players: u8) -> impl Fn(u64) -> ClientMessage {
    move |id| {
        let (preset, players) = (Some("fitab".to_owned()), Some(players));
        if rated {
            ClientMessage::QuickPlayRated {
                id,
                preset,
                players,
            }
        } else {
            ClientMessage::QuickPlay {
                id,
                preset,
                players,
            }
        }
    }
}

/// Every client's quick play sent before any reply is read; the table each was seated at.
pub(super) async fn ask_at_once(
    clients: &mut [Client],
    make: &impl Fn(u64) -> ClientMessage,
) -> Vec<String> {
    let mut ids = Vec::new();
    for c in clients.iter_mut() {
        let id = c.id();
        c.send(&make(id)).await;
        ids.push(id);
    }
    let mut tables = Vec::new();
    for (c, id) in clients.iter_mut().zip(ids) {
        let reply = loop {
            let message = c.read().await.expect("connection open for the reply");
            if reply_id(&message) == Some(id) {
                break message;
            }
        };
        let ServerMessage::Seated { table, .. } = reply else {
            panic!(
                "{} not seated: {reply:?} {:?}",
                c.name,
                &c.log[c.log.len().saturating_sub(20)..]
            )
        };
        tables.push(table);
    }
    tables
}

/// Everyone leaves (the table, empty, closes): the next round starts from no waiting table.
pub(super) async fn leave_all(clients: &mut [Client], tables: &[String]) {
    for (c, table) in clients.iter_mut().zip(tables) {
        let table = table.clone();
        c.ok(|id| ClientMessage::Leave { id, table }).await;
    }
}

/// `askers` at once, `ROUNDS` times: every round fills whole tables, one per `players`.
async fn rounds_fill_whole_tables(clients: &mut [Client], rated: bool, players: u8) {
    let make = quick(rated, players);
    for round in 0..ROUNDS {
        let tables = ask_at_once(clients, &make).await;
        let mut at: HashMap<&str, usize> = HashMap::new();
        for table in &tables {
            *at.entry(table.as_str()).or_default() += 1;
        }
        if at.len() != clients.len() / usize::from(players) {
            for c in clients.iter() {
                eprintln!("{}: {:?}", c.name, &c.log[c.log.len().saturating_sub(12)..]);
            }
        }
        assert_eq!(
            at.len(),
            clients.len() / usize::from(players),
            "round {round} ({} asking, rated {rated}, {players} a table): {at:?}",
            clients.len()
        );
        assert!(at.values().all(|n| *n == usize::from(players)), "{at:?}");
        leave_all(clients, &tables).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_asking_at_once_fill_one_table_before_another_is_made() {
    let server = TestServer::start().await;
    let mut clients = Vec::new();
    for i in 0..4 {
        clients.push(server.client(&format!("q{i}")).await);
    }
    rounds_fill_whole_tables(&mut clients, false, 4).await;
    rounds_fill_whole_tables(&mut clients, false, 2).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_asking_for_rated_play_at_once_fill_one_table_before_another_is_made() {
    let server = TestServer::start().await;
    let mut clients = Vec::new();
    for name in ["Anna", "Bruno", "Carla", "Dario"] {
        let (_, session) = sign_up(server.addr, name).await;
        clients.push(signed_in(server.addr, name, &session).await);
    }
    rounds_fill_whole_tables(&mut clients, true, 4).await;
    rounds_fill_whole_tables(&mut clients, true, 2).await;
    server.stop().await;
}

/// 200 guests ask at once, once: fifty whole tables of four, none left half full.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_guests_asking_at_once_fill_fifty_tables_of_four() {
    let server = TestServer::start().await;
    let mut clients = Vec::new();
    for i in 0..200 {
        clients.push(server.client(&format!("g{i}")).await);
    }
    let tables = ask_at_once(&mut clients, &quick(false, 4)).await;
    let mut at: HashMap<&str, usize> = HashMap::new();
    for table in &tables {
        *at.entry(table.as_str()).or_default() += 1;
    }
    assert_eq!(at.len(), 50, "{at:?}");
    assert!(at.values().all(|n| *n == 4), "{at:?}");
    server.stop().await;
}
