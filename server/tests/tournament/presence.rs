//! Presence follows the connection that holds the seat (issue 24, defect 15), on the raw
//! socket: a tournament's seat is held for its entrant before anyone comes; when the entrant
//! joins it, the partner (here the opponent) already at the table hears `player_reconnected` at
//! once (it used to see "disconnected" until the entrant's first move), and a second tab of the
//! same session taking the seat over leaves it connected for everyone (a spectator's snapshot).

use std::net::SocketAddr;
use std::time::Duration;

use burraco_bot::tournament as bots;
use burraco_protocol::wire::{ClientMessage, ServerMessage, WireSeat};

use super::{singles, start_round};
use crate::common::*;

const V: &str = "1.7";

async fn entrant(addr: SocketAddr, name: &str, tournament: &str) -> Client {
    let (mut client, _) = Client::connect_saying(addr, name, None, false, V).await;
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
    client
}

async fn going(client: &mut Client) -> (String, WireSeat) {
    match client
        .wait(|m| matches!(m, ServerMessage::GoToTable { .. }))
        .await
    {
        ServerMessage::GoToTable { table, seat, .. } => (table, seat),
        _ => unreachable!(),
    }
}

async fn join(client: &mut Client, table: &str, seat: WireSeat) {
    let t = table.to_owned();
    let reply = client
        .request(|id| ClientMessage::Join {
            id,
            table: Some(t),
            invite: None,
            seat: Some(seat),
        })
        .await;
    assert!(matches!(reply, ServerMessage::Seated { .. }), "{reply:?}");
}

/// Whether the snapshot's seat `seat` is connected.
fn connected(snapshot: &ServerMessage, seat: WireSeat) -> bool {
    let ServerMessage::Snapshot { view, .. } = snapshot else {
        panic!("a snapshot, got {snapshot:?}");
    };
    view.seats
        .iter()
        .find(|s| s.seat == seat)
        .map(|s| s.connected)
        .expect("the seat")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entrant_joining_its_held_seat_is_connected_for_the_others_at_once() {
    let server = TestServer::start().await;
    let url = format!("ws://{}/ws", server.addr);
    let (tournament, token) = bots::create(&url, &singles(2, "danish"))
        .await
        .expect("created");
    let mut anna = entrant(server.addr, "anna", &tournament).await;
    let mut bruno = entrant(server.addr, "bruno", &tournament).await;
    start_round(&url, &tournament, &token).await;
    let (table, anna_seat) = going(&mut anna).await;
    let (_, bruno_seat) = going(&mut bruno).await;

    // Bruno comes first: Anna's seat is held, nobody's connection holds it yet.
    join(&mut bruno, &table, bruno_seat).await;
    let snapshot = bruno
        .wait(|m| matches!(m, ServerMessage::Snapshot { .. }))
        .await;
    assert!(!connected(&snapshot, anna_seat), "nobody holds it yet");

    // Anna joins her held seat: Bruno hears she is here, before any move (nobody is ready).
    join(&mut anna, &table, anna_seat).await;
    bruno.patience = Duration::from_secs(5);
    bruno
        .wait(|m| matches!(m, ServerMessage::PlayerReconnected { seat, .. } if *seat == anna_seat))
        .await;

    // A second tab of Anna's session takes the seat over (the first is closed, 4001): the seat
    // stays connected for everyone.
    let (mut second, welcome) =
        Client::connect_saying(server.addr, "anna", Some(&anna.session), false, V).await;
    assert!(
        matches!(welcome, ServerMessage::Welcome { resumed: true, .. }),
        "{welcome:?}"
    );
    assert!(
        anna.closed_within(Duration::from_secs(5)).await,
        "the first tab is closed"
    );
    second.barrier().await;
    bruno.barrier().await;
    let last_presence = bruno.log.iter().rev().find_map(|m| match m {
        ServerMessage::PlayerDisconnected { seat, .. } if *seat == anna_seat => Some(false),
        ServerMessage::PlayerReconnected { seat, .. } if *seat == anna_seat => Some(true),
        _ => None,
    });
    assert_eq!(last_presence, Some(true), "Bruno last heard Anna is here");
    let (mut watcher, _) = Client::connect_saying(server.addr, "watcher", None, false, V).await;
    let t = table.clone();
    watcher
        .ok(|id| ClientMessage::Spectate { id, table: t })
        .await;
    let snapshot = watcher
        .wait(|m| matches!(m, ServerMessage::Snapshot { .. }))
        .await;
    assert!(connected(&snapshot, anna_seat), "connected for a spectator");
    assert!(connected(&snapshot, bruno_seat));
    server.stop().await;
}
