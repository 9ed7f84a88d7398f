//! Two nodes on NATS: players asking for the same kind of table at the same moment through
//! different nodes (each node making a table of its own before it sees the other's) end at one
//! table, the players of the newer table moved to the older (1.9 `quick_play_moved`).

use std::time::{Duration, Instant};

use burraco_protocol::wire::{ClientMessage, ServerMessage};

use super::{ask_at_once, leave_all, quick};
use crate::cluster::{Nats, Node};
use crate::common::*;

/// Rounds per kind: each waits for the tables to be brought together.
const ROUNDS: usize = 3;

/// Reads what each client has been sent until they all sit at one table, following every move
/// (a `join` of the seat held); their tables then.
async fn meet(clients: &mut [Client], tables: &mut [String]) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while tables.iter().any(|t| *t != tables[0]) {
        assert!(Instant::now() < deadline, "not at one table: {tables:?}");
        for (c, at) in clients.iter_mut().zip(tables.iter_mut()) {
            // A short look at each client in turn: a move may come to any of them.
            while let Ok(Some(message)) =
                tokio::time::timeout(Duration::from_millis(50), c.read()).await
            {
                let ServerMessage::QuickPlayMoved { from, table, seat } = message else {
                    continue;
                };
                assert_eq!(from, *at, "{} moved from the table it sat at", c.name);
                let joined = c
                    .request(|id| ClientMessage::Join {
                        id,
                        table: Some(table.clone()),
                        invite: None,
                        seat: Some(seat),
                    })
                    .await;
                assert!(
                    matches!(&joined, ServerMessage::Seated { table: t, .. } if *t == table),
                    "{}: {joined:?}",
                    c.name
                );
                *at = table;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn askers_at_two_nodes_at_once_end_at_one_table() {
    let nats = Nats::start(1);
    let flags = ["--test-quick-play-second-ms", "200"];
    let a = Node::start_with(&nats, "node-a", &flags);
    let b = Node::start_with(&nats, "node-b", &flags);
    for players in [4u8, 2] {
        // Half the askers through each node, all 1.9 clients.
        let mut clients = Vec::new();
        for i in 0..usize::from(players) {
            let node = if i % 2 == 0 { a.addr } else { b.addr };
            let name = format!("p{players}-{i}");
            clients.push(
                Client::connect_saying(node, &name, None, false, "1.9")
                    .await
                    .0,
            );
        }
        let make = quick(false, players);
        let mut moved = 0;
        for round in 0..ROUNDS {
            let mut tables = ask_at_once(&mut clients, &make).await;
            let first: Vec<String> = tables.clone();
            meet(&mut clients, &mut tables).await;
            moved += first.iter().zip(&tables).filter(|(f, t)| f != t).count();
            // One table, full: every seat its asker's.
            let t = tables[0].clone();
            wait_for_seats(a.addr, &t, "every asker seated and connected", |seats| {
                seats.iter().all(|s| s.name.is_some() && s.connected)
            })
            .await;
            leave_all(&mut clients, &tables).await;
            // Closed, and out of both nodes' lobbies, before the next round asks.
            for node in [a.addr, b.addr] {
                wait_unlisted(node, &t).await;
            }
            eprintln!("{players} a table, round {round}: {moved} moved so far");
        }
    }
    drop((a, b, nats));
}

/// Until `node`'s lobby no longer lists `table` (at most 5 s).
async fn wait_unlisted(node: std::net::SocketAddr, table: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut probe = Client::connect(node, "probe", None).await.0;
    loop {
        let reply = probe.request(|id| ClientMessage::ListTables { id }).await;
        let ServerMessage::Tables { tables, .. } = reply else {
            panic!("{reply:?}")
        };
        if tables.iter().all(|t| t.table != table) {
            return;
        }
        assert!(Instant::now() < deadline, "{table} still listed on {node}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
