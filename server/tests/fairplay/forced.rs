//! The stalling rule "a long think on a forced move while losing" through a running server: a
//! head-to-head table with the move clock, dealt from the tests' fixed seed and played by the
//! rules mirror's simple strategy, where the losing side's player takes most of the clock over
//! a move that had only one legal action, and the table logs the conduct mark for it (and for
//! nothing else: the forced moves made at once are not marked).

use std::time::Duration;

use burraco_protocol::log::{ConductMark, TableEntry};
use burraco_rules::{Match, Seat};
use burraco_server::log::TableLog;
use burraco_server::store::Store;

use crate::common::*;

/// Under a paused clock (the clock jumps to the next timer whenever every task idles), so the
/// long think costs no real time.
#[tokio::test(start_paused = true)]
async fn a_long_think_on_a_forced_move_while_losing_is_logged_as_conduct() {
    paused_patience();
    let mut server = TestServer::with(|c| c.store_wait_blocking = true).await;
    let mut table = Table::open(
        &server,
        settings("fitab", 2, Some(3), "federation"),
        &["anna", "bruno"],
    )
    .await;

    // The first hand, played at once: it only decides who is behind.
    let mut mirror = table.next_hand().await;
    while !mirror.game.is_over() {
        table.step(&mut mirror).await;
    }
    let (_, score) = mirror.game.result().expect("a finished hand");
    let mut matc = Match::new(table.config, Seat::South, false).expect("a match");
    matc.record_hand(score).expect("the hand counts");
    let totals = matc.totals();
    assert_ne!(totals[0], totals[1], "the fixed deal leaves a side behind");

    // The second hand: the losing side's first forced move (one legal action) takes 90% of
    // its turn's clock; every other move, forced or not, is made at once.
    let mut mirror = table.next_hand().await;
    let mut thinker = None;
    while !mirror.game.is_over() {
        let game = &mirror.game;
        let seat = game.on_turn();
        let side = game.side_of(seat).index();
        let losing = totals[side] < totals[1 - side];
        if thinker.is_none() && losing && game.legal_actions().len() == 1 {
            let limit_ms = game.move_clock().expect("a clocked table").limit_ms;
            // The turn's clock runs from the previous discard; the take before this move (if
            // any) was made at once, so the whole turn stays within the clock.
            tokio::time::sleep(Duration::from_millis(u64::from(limit_ms) * 9 / 10)).await;
            thinker = Some(seat);
        }
        table.step(&mut mirror).await;
    }
    let thinker = thinker.expect("the fixed deal gives the losing side a forced move");
    // Everything the table logged is on disk before the server stops.
    for (_, client) in &mut table.clients {
        client.barrier().await;
    }

    let dir = std::mem::replace(&mut server.dir, tempfile::tempdir().expect("temp dir"));
    server.stop().await;
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    let logs = store.load_in_play().await.expect("logs");
    drop(store);
    writer.join();
    let (_, entries) = logs
        .iter()
        .find(|(id, _)| *id == table.id)
        .expect("the table's log: its match is still in play");
    let marks: Vec<TableEntry> = entries
        .iter()
        .map(|e| TableEntry::decode(e).expect("an entry"))
        .filter(|e| matches!(e, TableEntry::Conduct { .. }))
        .collect();
    assert_eq!(
        marks,
        vec![TableEntry::Conduct {
            seat: thinker.index() as u8,
            mark: ConductMark::ForcedLongThink,
        }]
    );
}
