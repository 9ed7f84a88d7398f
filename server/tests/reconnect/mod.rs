use burraco_protocol::wire::{ClientMessage, ServerMessage};
use burraco_rules::Phase;

use crate::common::*;

/// The highest event number a client has seen.
fn last_seq(client: &Client) -> u64 {
    client.seqs().into_iter().max().unwrap_or(0)
}

/// Plays until it is `seat`'s turn to take (at least one full turn of the others).
async fn play_until_turn_of(table: &mut Table, mirror: &mut Mirror, seat: burraco_rules::Seat) {
    loop {
        table.step(mirror).await;
        if mirror.game.on_turn() == seat && mirror.game.phase() == Phase::Take {
            return;
        }
    }
}

/// Disconnects the seat not on turn, plays a turn without it, resumes with the session token and
/// syncs from its last seen number; returns the new client and the sync's messages.
async fn drop_and_resume(
    server: &TestServer,
    table: &mut Table,
    mirror: &mut Mirror,
) -> (Client, Vec<ServerMessage>) {
    let away = mirror.players_other(mirror.game.on_turn());
    let client = table.client(away);
    client.barrier().await;
    let (token, name, seen) = (
        client.session.clone(),
        client.name.clone(),
        last_seq(client),
    );
    let old = table.replace(away, server.client("placeholder").await);
    drop(old);
    let here = mirror.game.on_turn();
    let gone = table
        .client(here)
        .wait(|m| matches!(m, ServerMessage::PlayerDisconnected { .. }))
        .await;
    let ServerMessage::PlayerDisconnected { seat, grace_ms, .. } = gone else {
        unreachable!()
    };
    assert_eq!((seat.0, grace_ms), (away, 120_000));
    play_until_turn_of(table, mirror, away).await;

    let (mut back, welcome) = Client::connect(server.addr, &name, Some(&token)).await;
    let ServerMessage::Welcome { resumed, seats, .. } = welcome else {
        unreachable!()
    };
    assert!(resumed);
    assert_eq!(seats.len(), 1);
    assert_eq!(
        (seats[0].table.as_str(), seats[0].seat.0),
        (table.id.as_str(), away)
    );
    table
        .client(here)
        .wait(|m| matches!(m, ServerMessage::PlayerReconnected { .. }))
        .await;
    let id = table.id.clone();
    let reply = back
        .request(|i| ClientMessage::Sync {
            id: i,
            table: id,
            last_seq: seen,
        })
        .await;
    assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
    let synced: Vec<ServerMessage> = back.inbox.drain(..).collect();
    let _ = table.replace(away, back);
    (
        table.replace(away, server.client("placeholder").await),
        synced_with(seen, synced),
    )
}

fn synced_with(seen: u64, messages: Vec<ServerMessage>) -> Vec<ServerMessage> {
    assert!(messages.iter().all(|m| m.seq().is_some()), "{messages:?}");
    let _ = seen;
    messages
}

#[tokio::test]
async fn reconnect_mid_hand_by_replay() {
    let server = TestServer::start().await;
    let mut table = Table::open(
        &server,
        settings("fitab", 2, Some(1), "off"),
        &["anna", "bruno"],
    )
    .await;
    let mut mirror = table.next_hand().await;
    for _ in 0..5 {
        table.step(&mut mirror).await;
    }
    let seen_before = {
        let away = mirror.players_other(mirror.game.on_turn());
        let c = table.client(away);
        c.barrier().await;
        last_seq(c)
    };
    let away = mirror.players_other(mirror.game.on_turn());
    let (back, synced) = drop_and_resume(&server, &mut table, &mut mirror).await;
    let _ = table.replace(away, back);
    // The client rule: apply seq == last + 1, ignore what is already applied.
    let mut applied = seen_before;
    for m in &synced {
        let seq = m.seq().expect("numbered");
        assert!(
            !matches!(m, ServerMessage::Snapshot { .. }),
            "a short gap is replayed, not snapshotted"
        );
        // A live event past a gap (here the reconnection notice, sent before the sync) waits
        // for the sync to fill the gap.
        if seq == applied + 1 {
            applied = seq;
        }
    }
    let newest = synced
        .iter()
        .filter_map(ServerMessage::seq)
        .max()
        .unwrap_or(0);
    assert_eq!(applied, newest, "the sync filled every gap");
    assert!(applied > seen_before + 3, "the missed turn was replayed");
    // What was missed includes the opponent's draw as a bare tick, never its card.
    assert!(
        synced
            .iter()
            .any(|m| matches!(m, ServerMessage::Tick { .. }))
    );
    assert!(
        !synced
            .iter()
            .any(|m| matches!(m, ServerMessage::DrewCard { seat, .. } if seat.0 != away))
    );
    table.play_hand(&mut mirror, NoCheck).await;
    table
        .client(away)
        .wait(|m| matches!(m, ServerMessage::HandEnded { .. }))
        .await;
    server.stop().await;
}

#[tokio::test]
async fn reconnect_mid_hand_by_snapshot() {
    let server = TestServer::with(|c| c.replay_buffer = 2).await;
    let mut table = Table::open(
        &server,
        settings("fitab", 2, Some(1), "off"),
        &["anna", "bruno"],
    )
    .await;
    let mut mirror = table.next_hand().await;
    for _ in 0..4 {
        table.step(&mut mirror).await;
    }
    let away = mirror.players_other(mirror.game.on_turn());
    let (back, synced) = drop_and_resume(&server, &mut table, &mut mirror).await;
    let _ = table.replace(away, back);
    let snapshot = synced.iter().find_map(|m| match m {
        ServerMessage::Snapshot { view, .. } => Some(view.clone()),
        _ => None,
    });
    let view =
        snapshot.unwrap_or_else(|| panic!("a gap beyond the buffer gets a snapshot: {synced:?}"));
    let hand = view.hand.expect("a hand in play");
    let mut own = hand.hand.expect("own cards");
    let mut expected = mirror.game.hand(away).to_vec();
    own.sort();
    expected.sort();
    assert_eq!(own, expected);
    assert_eq!(hand.pile, mirror.game.pile());
    assert_eq!(hand.on_turn.0, mirror.game.on_turn());
    assert_eq!(usize::from(hand.tallone), mirror.game.tallone_len());
    assert_eq!(view.you.map(|s| s.0), Some(away));
    table.play_hand(&mut mirror, NoCheck).await;
    table
        .client(away)
        .wait(|m| matches!(m, ServerMessage::HandEnded { .. }))
        .await;
    server.stop().await;
}
