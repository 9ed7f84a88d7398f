//! One outcome for a match (issue 32): a real rated match played through the server to totals -5
//! against -55, which FITAB's 2-hands column makes 10-10 VP, is a draw for both players in every
//! place that tells it: `match_ended` (what the browser's match-end dialog shows; its frame is
//! the browser's unit-test fixture `web/test/fixtures/match-ended-draw.json`), the player page,
//! the season's points and the ratings.

use std::net::SocketAddr;
use std::time::Duration;

use burraco_protocol::wire::{ClientMessage, ServerMessage};
use burraco_rules::{Action, DealSource, Game, Phase, Seed};
use serde_json::Value;

use crate::common::{Client, TestServer, http_get, settings, to_request};
use crate::ratings::{sign_up, signed_in};

/// The deal of every hand (`ServerConfig::fixed_seed`): with [`draw_move`] playing both seats of
/// a 1-hand `fitab` head-to-head match, the tallone runs out with totals -5 and -55 (found by
/// playing this policy over seeds in process; the first byte also makes North the dealer).
const DRAW_SEED: [u8; 32] = {
    let mut seed = [18u8; 32];
    seed[0] = 162;
    seed
};

/// Never pick up the pile; lay the first opening the enumerators find, never attach; discard the
/// first legal card.
fn draw_move(game: &Game) -> Action {
    match game.phase() {
        Phase::Take => Action::Draw,
        _ => match game.legal_openings().into_iter().next() {
            Some(open) => open,
            None => Action::Discard {
                card: game.legal_discards()[0],
            },
        },
    }
}

/// The browser's fixture: this test's `match_ended` frame, as the server sent it.
fn fixture() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../web/test/fixtures/match-ended-draw.json"
    );
    let text = std::fs::read_to_string(path).expect("the browser's fixture");
    serde_json::from_str(&text).expect("json")
}

/// A frame without what differs between runs (its table and sequence number).
fn comparable(mut frame: Value) -> Value {
    if let Some(object) = frame.as_object_mut() {
        object.remove("table");
        object.remove("seq");
    }
    frame
}

async fn get_json(addr: SocketAddr, path: &str) -> Value {
    let (status, body) = http_get(addr, path).await;
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).expect("json")
}

/// Polls `path` until `done` holds of its JSON (at most `limit`); returns the last answer.
async fn until(addr: SocketAddr, path: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = std::time::Instant::now();
    loop {
        let value = get_json(addr, path).await;
        if done(&value) || start.elapsed() > Duration::from_secs(20) {
            return value;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_10_10_match_with_unequal_totals_is_a_draw_everywhere() {
    let server = TestServer::with(|config| {
        config.fixed_seed = Some(DRAW_SEED);
        config.rated_min_play = Duration::ZERO;
    })
    .await;
    let addr = server.addr;
    let (anna_id, anna) = sign_up(addr, "Anna").await;
    let (bruno_id, bruno) = sign_up(addr, "Bruno").await;
    let one_hand = settings("fitab", 2, Some(1), "off");
    let config = burraco_protocol::convert::config_from_wire(&one_hand).expect("settings");
    let mut a = signed_in(addr, "Anna", &anna).await;
    let created = a
        .request(|id| ClientMessage::CreateRatedTable {
            id,
            settings: one_hand.clone(),
            private: false,
        })
        .await;
    let ServerMessage::TableCreated { table, seat, .. } = created else {
        panic!("create: {created:?}")
    };
    let mut b = signed_in(addr, "Bruno", &bruno).await;
    let t = table.clone();
    let seated = b
        .request(|id| ClientMessage::Join {
            id,
            table: Some(t),
            invite: None,
            seat: None,
        })
        .await;
    let ServerMessage::Seated { seat: seat_b, .. } = seated else {
        panic!("join: {seated:?}")
    };
    let mut clients: Vec<(burraco_rules::Seat, Client)> = vec![(seat.0, a), (seat_b.0, b)];
    for (_, c) in &mut clients {
        let table = table.clone();
        c.ok(|id| ClientMessage::Ready { id, table }).await;
    }
    let started = clients[0]
        .1
        .wait(|m| matches!(m, ServerMessage::HandStarted { .. }))
        .await;
    let ServerMessage::HandStarted { dealer, .. } = started else {
        unreachable!()
    };
    // The hand as the test knows it: the same deal, the same moves.
    let (mut game, _) =
        Game::new(config, dealer.0, DealSource::Seed(Seed(DRAW_SEED))).expect("the deal");
    let mut steps = 0;
    while !game.is_over() {
        let on_turn = game.on_turn();
        let action = draw_move(&game);
        let t = table.clone();
        let client = &mut clients
            .iter_mut()
            .find(|(s, _)| *s == on_turn)
            .expect("seated")
            .1;
        let reply = client.request(|id| to_request(&action, t, id)).await;
        assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
        game.act(on_turn, &action).expect("the server agrees");
        steps += 1;
        assert!(steps < 2000, "a hand ends");
    }
    let (_, score) = game.result().expect("over");
    let mut totals = [score.sides[0].total(), score.sides[1].total()];
    totals.sort_unstable();
    assert_eq!(totals, [-55, -5], "the seed's hand");

    // What the browser's dialog reads: no winner, 10-10, at both seats.
    for (_, client) in &mut clients {
        let ended = client
            .wait(|m| matches!(m, ServerMessage::MatchEnded { .. }))
            .await;
        let ServerMessage::MatchEnded { winner, vp, .. } = &ended else {
            unreachable!()
        };
        assert_eq!((winner, vp), (&None, &Some(vec![10, 10])), "{ended:?}");
        let frame: Value =
            serde_json::from_str(&burraco_protocol::codec::to_json(&ended)).expect("json");
        assert_eq!(
            comparable(frame.clone()),
            comparable(fixture()),
            "web/test/fixtures/match-ended-draw.json is this answer: {frame}"
        );
    }

    // The player page: a draw in the recent matches and in the totals, for both.
    for name in ["Anna", "Bruno"] {
        let page = until(addr, &format!("/api/players/{name}"), |page| {
            page["matches"].as_array().is_some_and(|m| !m.is_empty())
        })
        .await;
        let played = &page["matches"][0];
        assert_eq!(played["result"], "draw", "{name}: {page}");
        assert_eq!(played["vp"], serde_json::json!([10, 10]), "{page}");
        let two = &page["totals"][0];
        let counts = ["won", "drawn", "lost"].map(|k| two[k].as_i64());
        assert_eq!(counts, [Some(0), Some(1), Some(0)], "{name}: {page}");
    }

    // The season: one point each, a draw's.
    let ladder = until(addr, "/api/seasons/current/two", |ladder| {
        ladder["rows"]
            .as_array()
            .is_some_and(|rows| rows.len() == 2)
    })
    .await;
    for row in ladder["rows"].as_array().expect("rows") {
        assert_eq!(row["points"], 1, "{ladder}");
    }

    // The ratings: a half each, so two new players' ratings do not move.
    for account in [&anna_id, &bruno_id] {
        let ratings = until(addr, &format!("/api/ratings/{account}"), |r| {
            r["history"].as_array().is_some_and(|h| h.len() == 1)
        })
        .await;
        let point = &ratings["history"][0];
        assert_eq!(point["before"], point["rating"], "{ratings}");
    }
    server.stop().await;
}
