use burraco_protocol::ErrorCode;
use burraco_protocol::wire::{ClientMessage, ServerMessage};
use burraco_rules::{Card, Phase};

use crate::common::*;

async fn spectator_snapshot(watcher: &mut Client, table: &str) -> ServerMessage {
    let table = table.to_owned();
    watcher.ok(|id| ClientMessage::Spectate { id, table }).await;
    watcher
        .wait(|m| matches!(m, ServerMessage::Snapshot { .. }))
        .await
}

fn assert_refused(reply: &ServerMessage, rule: &str) {
    match reply {
        ServerMessage::Error {
            code,
            rule: Some(r),
            message,
            ..
        } => {
            assert_eq!(ErrorCode::parse(code), Some(ErrorCode::IllegalAction));
            assert_eq!(r, rule, "{message}");
            assert!(!message.is_empty());
        }
        other => panic!("expected illegal_action {rule}, got {other:?}"),
    }
}

#[tokio::test]
async fn illegal_actions_are_refused_with_the_rule_and_change_nothing() {
    let server = TestServer::start().await;
    let mut table = Table::open(
        &server,
        settings("fitab", 2, Some(1), "off"),
        &["anna", "bruno"],
    )
    .await;
    let mut watcher = server.client("watcher").await;
    let mut mirror = table.next_hand().await;
    let id = table.id.clone();
    let on = mirror.game.on_turn();
    let off = mirror.players_other(on);
    let before = spectator_snapshot(&mut watcher, &id).await;

    let t = id.clone();
    let reply = table
        .client(off)
        .request(|i| ClientMessage::Draw { id: i, table: t })
        .await;
    assert_refused(&reply, "not_your_turn");
    let card = mirror.game.hand(on).cards().next().expect("a card");
    let t = id.clone();
    let reply = table
        .client(on)
        .request(|i| ClientMessage::Discard {
            id: i,
            table: t,
            card,
        })
        .await;
    assert_refused(&reply, "must_take_first");
    let t = id.clone();
    let reply = table
        .client(on)
        .request(|i| ClientMessage::Open {
            id: i,
            table: t,
            cards: vec![card],
            wild_at: None,
        })
        .await;
    assert_refused(&reply, "must_take_first");
    assert_eq!(
        spectator_snapshot(&mut watcher, &id).await,
        before,
        "a refusal changes nothing"
    );

    // Take, then refuse plays.
    table.step(&mut mirror).await;
    assert_eq!(mirror.game.phase(), Phase::Play);
    let before = spectator_snapshot(&mut watcher, &id).await;
    let missing: Card = burraco_rules::canonical_deck()
        .into_iter()
        .find(|c| !mirror.game.hand(on).contains(*c))
        .expect("a card not held");
    let t = id.clone();
    let reply = table
        .client(on)
        .request(|i| ClientMessage::Discard {
            id: i,
            table: t,
            card: missing,
        })
        .await;
    assert_refused(&reply, "card_not_in_hand");
    let t = id.clone();
    let reply = table
        .client(on)
        .request(|i| ClientMessage::Draw { id: i, table: t })
        .await;
    assert_refused(&reply, "already_taken");
    let t = id.clone();
    let reply = table
        .client(on)
        .request(|i| ClientMessage::Attach {
            id: i,
            table: t,
            meld: 9,
            cards: vec![card],
            wild_at: None,
        })
        .await;
    assert_refused(&reply, "unknown_meld");
    let t = id.clone();
    let reply = table
        .client(on)
        .request(|i| ClientMessage::Open {
            id: i,
            table: t,
            cards: vec![missing],
            wild_at: None,
        })
        .await;
    assert_refused(&reply, "cards_not_in_hand");
    assert_eq!(
        spectator_snapshot(&mut watcher, &id).await,
        before,
        "a refusal changes nothing"
    );

    // Not an illegal move but a wrong request: typed errors too.
    let reply = table
        .client(on)
        .request(|i| ClientMessage::Draw {
            id: i,
            table: "t-nope".into(),
        })
        .await;
    assert!(
        matches!(&reply, ServerMessage::Error { code, .. } if ErrorCode::parse(code) == Some(ErrorCode::UnknownTable)),
        "{reply:?}"
    );
    let t = id.clone();
    let reply = table
        .client(on)
        .request(|i| ClientMessage::Ready { id: i, table: t })
        .await;
    assert!(
        matches!(&reply, ServerMessage::Error { code, .. } if ErrorCode::parse(code) == Some(ErrorCode::TableStarted)),
        "{reply:?}"
    );
    let t = id.clone();
    let reply = watcher
        .request(|i| ClientMessage::Draw { id: i, table: t })
        .await;
    assert!(
        matches!(&reply, ServerMessage::Error { code, .. } if ErrorCode::parse(code) == Some(ErrorCode::NotSeated)),
        "{reply:?}"
    );

    // The hand goes on exactly as the mirror (which never applied the refusals) says.
    table.play_hand(&mut mirror, NoCheck).await;
    for (_, c) in &mut table.clients {
        c.wait(|m| matches!(m, ServerMessage::HandEnded { .. }))
            .await;
        assert_contiguous(c);
    }
    server.stop().await;
}
