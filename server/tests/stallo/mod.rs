use burraco_protocol::wire::{ClientMessage, ServerMessage};
use burraco_rules::{Action, Phase};

use crate::common::*;

/// One card exchange: pick up the single-card pile, discard another card.
async fn exchange(table: &mut Table, mirror: &mut Mirror) {
    let seat = mirror.game.on_turn();
    assert_eq!(mirror.game.pile().len(), 1);
    for take in [true, false] {
        let action = if take {
            Action::PickUp
        } else {
            Action::Discard {
                card: mirror.game.legal_discards()[0],
            }
        };
        let table_id = table.id.clone();
        let reply = table
            .client(seat)
            .request(|id| to_request(&action, table_id, id))
            .await;
        assert!(
            matches!(reply, ServerMessage::Ok { .. }),
            "{action:?}: {reply:?}"
        );
        mirror.game.act(seat, &action).expect("mirror");
        if mirror.game.is_over() {
            return;
        }
    }
}

#[tokio::test]
async fn fitab_stallo_warns_then_ends_the_hand() {
    let server = TestServer::start().await;
    let mut table = Table::open(&server, settings("fitab", 2, Some(1), "off"), &["a", "b"]).await;
    let mut mirror = table.next_hand().await;
    for _ in 0..5 {
        exchange(&mut table, &mut mirror).await;
    }
    assert!(mirror.game.is_over());
    let c = &mut table.clients[0].1;
    let w = c
        .wait(|m| matches!(m, ServerMessage::StalloWarning { .. }))
        .await;
    assert!(matches!(
        w,
        ServerMessage::StalloWarning { exchanges: 2, .. }
    ));
    let s = c.wait(|m| matches!(m, ServerMessage::Stallo { .. })).await;
    assert!(matches!(
        s,
        ServerMessage::Stallo {
            must_draw: None,
            ..
        }
    ));
    let e = c
        .wait(|m| matches!(m, ServerMessage::HandEnded { .. }))
        .await;
    assert!(
        matches!(e, ServerMessage::HandEnded { ref end, .. } if end == "stallo"),
        "{e:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn fedibur_stallo_makes_the_first_exchanger_draw() {
    let server = TestServer::start().await;
    let mut table = Table::open(&server, settings("fedibur", 2, None, "off"), &["a", "b"]).await;
    let mut mirror = table.next_hand().await;
    let first = mirror.game.on_turn();
    for _ in 0..4 {
        exchange(&mut table, &mut mirror).await;
    }
    let c = &mut table.clients[0].1;
    let s = c.wait(|m| matches!(m, ServerMessage::Stallo { .. })).await;
    assert!(
        matches!(s, ServerMessage::Stallo { must_draw: Some(seat), .. } if seat.0 == first),
        "{s:?}"
    );
    assert_eq!(
        (mirror.game.on_turn(), mirror.game.phase()),
        (first, Phase::Take)
    );
    let t = table.id.clone();
    let reply = table
        .client(first)
        .request(|id| ClientMessage::PickUp { id, table: t })
        .await;
    assert!(
        matches!(&reply, ServerMessage::Error { rule: Some(r), .. } if r == "stallo_must_draw"),
        "{reply:?}"
    );
    let t = table.id.clone();
    table
        .client(first)
        .ok(|id| ClientMessage::Draw { id, table: t })
        .await;
    server.stop().await;
}
