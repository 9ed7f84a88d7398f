//! Under `tokio::time::pause` the runtime's clock jumps to the next timer whenever every task is
//! idle, so a table nobody plays at runs through its clocks in milliseconds of real time.

use std::time::Duration;

use burraco_protocol::ErrorCode;
use burraco_protocol::wire::{ClientMessage, ServerMessage};
use burraco_rules::{Input, Phase};
use tokio::time::Instant;

use crate::common::*;

async fn paused_server() -> TestServer {
    paused_patience();
    TestServer::with(|c| c.store_wait_blocking = true).await
}

#[tokio::test(start_paused = true)]
async fn move_clock_limit_grace_then_the_server_plays_the_turn() {
    let server = paused_server().await;
    let mut table = Table::open(
        &server,
        settings("fitab", 2, Some(1), "federation"),
        &["anna", "bruno"],
    )
    .await;
    let mut mirror = table.next_hand().await;
    let on = mirror.game.on_turn();
    let c = &mut table.clients[0].1;
    let started = c
        .wait(|m| matches!(m, ServerMessage::TurnStarted { .. }))
        .await;
    let t0 = Instant::now();
    let ServerMessage::TurnStarted {
        seat,
        clock_ms,
        grace_ms,
        cards_held,
        ..
    } = started
    else {
        unreachable!()
    };
    assert_eq!(
        (seat.0, cards_held, clock_ms, grace_ms),
        (on, 11, Some(40_000), Some(5_000))
    );

    let grace = c
        .wait(|m| matches!(m, ServerMessage::GraceStarted { .. }))
        .await;
    assert!(
        matches!(grace, ServerMessage::GraceStarted { seat, grace_ms: 5000, .. } if seat.0 == on)
    );
    let at = t0.elapsed();
    assert!(
        at >= Duration::from_secs(40) && at < Duration::from_secs(41),
        "grace announced at {at:?}"
    );

    let expired = c
        .wait(|m| matches!(m, ServerMessage::ClockExpired { .. }))
        .await;
    assert!(matches!(expired, ServerMessage::ClockExpired { seat, .. } if seat.0 == on));
    let at = t0.elapsed();
    assert!(
        at >= Duration::from_secs(45) && at < Duration::from_secs(46),
        "expired at {at:?}"
    );

    // The server drew and discarded the highest legal card secondo norma, as the rules say.
    let expected = mirror
        .game
        .apply(&Input::ClockExpired)
        .expect("expiry applies");
    let discarded = c
        .wait(|m| matches!(m, ServerMessage::Discarded { .. }))
        .await;
    let want = expected.iter().find_map(|e| match e {
        burraco_rules::Event::Discarded { card, .. } => Some(*card),
        _ => None,
    });
    assert!(matches!(discarded, ServerMessage::Discarded { card, .. } if Some(card) == want));
    let next = c
        .wait(|m| matches!(m, ServerMessage::TurnStarted { .. }))
        .await;
    assert!(
        matches!(next, ServerMessage::TurnStarted { seat, .. } if seat.0 == mirror.game.on_turn())
    );
    assert_eq!(mirror.game.phase(), Phase::Take);

    // A player who acts in time stops the clock: no expiry for that turn.
    table.step(&mut mirror).await;
    table.step(&mut mirror).await;
    let c = &mut table.clients[0].1;
    c.barrier().await;
    let expiries = c
        .log
        .iter()
        .filter(|m| matches!(m, ServerMessage::ClockExpired { .. }))
        .count();
    assert_eq!(expiries, 1);
    server.stop().await;
}

/// Nobody plays: the move clocks play every turn until the round clock runs out; the preset's
/// last round follows, then the match ends.
async fn time_out(preset: &str, players: u8, hands: u8, turns_left: u8, in_hand: u32) {
    let server = paused_server().await;
    let names = ["n", "e", "s", "w"];
    let mut table = Table::open(
        &server,
        settings(preset, players, Some(hands), "federation"),
        &names[..usize::from(players)],
    )
    .await;
    let c = &mut table.clients[0].1;
    let started = c
        .wait(|m| matches!(m, ServerMessage::MatchStarted { .. }))
        .await;
    let t0 = Instant::now();
    let ServerMessage::MatchStarted { round_clock_ms, .. } = started else {
        unreachable!()
    };
    let round = round_clock_ms.expect("a round clock");
    assert_eq!(
        round,
        (10 * u64::from(hands) + if preset == "fitab" { 2 } else { 5 }) * 60_000
    );
    let announced = c.wait(|m| matches!(m, ServerMessage::TimeOut { .. })).await;
    let at = t0.elapsed();
    assert!(
        at >= Duration::from_millis(round) && at < Duration::from_millis(round + 1000),
        "TIME OUT at {at:?}"
    );
    assert!(
        matches!(announced, ServerMessage::TimeOut { turns_left: n, .. } if n == turns_left),
        "{announced:?}"
    );
    let mut discards = 0;
    let ended = loop {
        match c.next_event().await {
            ServerMessage::Discarded { .. } => discards += 1,
            m @ ServerMessage::HandEnded { .. } => break m,
            _ => {}
        }
    };
    let ServerMessage::HandEnded { end, hand, .. } = ended else {
        unreachable!()
    };
    assert_eq!(
        (end.as_str(), hand, discards),
        ("time_out", in_hand, turns_left)
    );
    let m = c
        .wait(|m| matches!(m, ServerMessage::MatchEnded { .. }))
        .await;
    assert!(matches!(m, ServerMessage::MatchEnded { vp: Some(_), .. }));
    c.barrier().await;
    assert!(
        !c.log
            .iter()
            .any(|m| matches!(m, ServerMessage::HandStarted { hand, .. } if *hand > in_hand)),
        "no new hand after TIME OUT"
    );
    server.stop().await;
}

#[tokio::test(start_paused = true)]
async fn time_out_last_round_fitab() {
    // 22 min: the 30th turn is still taking when the clock runs out: one full round (art. 15).
    time_out("fitab", 4, 2, 4, 1).await;
}

#[tokio::test(start_paused = true)]
async fn time_out_last_round_fitab_head_to_head() {
    time_out("fitab", 2, 2, 3, 1).await;
}

#[tokio::test(start_paused = true)]
async fn time_out_last_round_feburit() {
    // 35 min: the first hand ends with the tallone (39 turns of 45 s), the TIME OUT falls in the
    // second while the player on turn has not taken: one full round (art. 22).
    time_out("feburit", 4, 3, 4, 2).await;
}

#[tokio::test]
async fn fedibur_has_no_round_clock() {
    let server = TestServer::start().await;
    let mut table = Table::open(&server, settings("fedibur", 2, None, "off"), &["a", "b"]).await;
    let c = &mut table.clients[0].1;
    let started = c
        .wait(|m| matches!(m, ServerMessage::MatchStarted { .. }))
        .await;
    assert!(matches!(
        started,
        ServerMessage::MatchStarted {
            round_clock_ms: None,
            ..
        }
    ));
    let turn = c
        .wait(|m| matches!(m, ServerMessage::TurnStarted { .. }))
        .await;
    assert!(matches!(
        turn,
        ServerMessage::TurnStarted {
            clock_ms: None,
            grace_ms: None,
            ..
        }
    ));
    let t = table.id.clone();
    let reply = c
        .request(|id| ClientMessage::Chat {
            id,
            table: t,
            text: Some("hi".into()),
            phrase: None,
        })
        .await;
    assert!(
        matches!(&reply, ServerMessage::Error { code, .. } if ErrorCode::parse(code) == Some(ErrorCode::ChatClosed)),
        "{reply:?}"
    );
    let t = table.id.clone();
    c.ok(|id| ClientMessage::Chat {
        id,
        table: t,
        text: None,
        phrase: Some("good_luck".into()),
    })
    .await;
    c.wait(|m| matches!(m, ServerMessage::ChatMessage { .. }))
        .await;
    server.stop().await;
}
