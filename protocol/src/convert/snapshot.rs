//! The hand in a snapshot: a seat's (or a spectator's) rules view written for the wire, and read
//! back into a view by a client that rebuilds its knowledge from a snapshot (a bot after a gap).
//!
//! The table-level parts of a snapshot (names, presence, totals, the round clock) are the
//! server's own state, not the rules'; only the hand is converted here, plus the cards each seat
//! holds, which the view knows.

use burraco_rules::view::MeldView;
use burraco_rules::{Config, Seat, Seed, TableView, Viewer};

use super::{
    SettingsError, config_from_wire, meld_from_wire, meld_to_wire, phase_code, phase_from_code,
    side_from_label,
};
use crate::cards::to_hex;
use crate::wire::{HandSnapshot, TableSnapshot, WireSeat};

/// Why a snapshot does not read back into a view.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotError {
    #[error("the snapshot's settings make no table: {0}")]
    Settings(#[from] SettingsError),
    #[error("unknown phase {0:?}")]
    Phase(String),
    #[error("unknown side {0:?}")]
    Side(String),
    #[error("meld {0} is not a meld the rules accept")]
    Meld(u8),
}

/// The hand of a snapshot, from the receiver's view and what the table adds: the hand's number in
/// the match, and the time left to the player on turn (grace included), which only the table's
/// clock knows.
pub fn hand_to_wire(
    view: &TableView,
    number: u32,
    move_clock_left_ms: Option<u32>,
) -> HandSnapshot {
    let players = view.players;
    HandSnapshot {
        number,
        dealer: WireSeat(view.dealer),
        on_turn: WireSeat(view.on_turn),
        phase: phase_code(view.phase).to_owned(),
        hand: view.hand.clone(),
        melds: view
            .melds
            .iter()
            .map(|m| meld_to_wire(m.id, m.side, players, &m.meld))
            .collect(),
        pile: view.pile.clone(),
        tallone: saturating_u8(view.tallone),
        pozzetti: view
            .pozzetti
            .iter()
            .map(|p| p.map(|side| players.side_label(side).to_owned()))
            .collect(),
        picked_single_card: view.picked_single_card,
        commitment: view.commitment.map(|c| to_hex(&c)),
        move_clock_left_ms,
        last_round: view.last_round,
        stallo_exchanges: view.stallo_exchanges,
        stallo_must_draw: view.stallo_must_draw.map(WireSeat),
    }
}

/// The cards `seat` holds, as a snapshot's seat line writes it (`None` when not seated).
pub fn cards_held(view: &TableView, seat: Seat) -> Option<u8> {
    view.hand_sizes
        .iter()
        .find(|(s, _)| *s == seat)
        .map(|&(_, n)| saturating_u8(n))
}

fn saturating_u8(n: usize) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// The table's configuration and, once a hand is dealt, the hand as `viewer` saw it. What the
/// wire does not carry stays empty in the view: the move clock's settings, and the result and
/// final hands of a finished hand (those arrive as `hand_ended`).
pub fn view_from_wire(
    snapshot: &TableSnapshot,
    viewer: Viewer,
) -> Result<(Config, Option<TableView>), SnapshotError> {
    let config = config_from_wire(&snapshot.settings)?;
    let players = config.players();
    let Some(hand) = &snapshot.hand else {
        return Ok((config, None));
    };
    let side = |label: &str| {
        side_from_label(label, players).ok_or_else(|| SnapshotError::Side(label.to_owned()))
    };
    let mut pozzetti = [None, None];
    for (slot, taken) in pozzetti.iter_mut().zip(&hand.pozzetti) {
        *slot = taken.as_deref().map(side).transpose()?;
    }
    let melds = hand
        .melds
        .iter()
        .map(|m| {
            Ok(MeldView {
                id: m.id,
                side: side(&m.side)?,
                meld: meld_from_wire(m).ok_or(SnapshotError::Meld(m.id))?,
            })
        })
        .collect::<Result<_, SnapshotError>>()?;
    let view = TableView {
        viewer,
        players,
        dealer: hand.dealer.0,
        on_turn: hand.on_turn.0,
        phase: phase_from_code(&hand.phase)
            .ok_or_else(|| SnapshotError::Phase(hand.phase.clone()))?,
        hand: hand.hand.clone(),
        hand_sizes: players
            .seats()
            .iter()
            .map(|&s| {
                let n = snapshot
                    .seats
                    .iter()
                    .find(|st| st.seat.0 == s)
                    .and_then(|st| st.cards)
                    .unwrap_or(0);
                (s, usize::from(n))
            })
            .collect(),
        melds,
        pile: hand.pile.clone(),
        tallone: usize::from(hand.tallone),
        pozzetti,
        picked_single_card: hand.picked_single_card,
        commitment: hand
            .commitment
            .as_deref()
            .and_then(Seed::from_hex)
            .map(|s| s.0),
        move_clock: None,
        last_round: hand.last_round,
        stallo_exchanges: hand.stallo_exchanges,
        stallo_must_draw: hand.stallo_must_draw.map(|s| s.0),
        result: None,
        final_hands: None,
    };
    Ok((config, Some(view)))
}
