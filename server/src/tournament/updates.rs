//! What a player hears when the tournament changes: the standings and their seat in the round in
//! play (`tournament_update`), and a 1.2 connection's `tournament_status`.

use std::collections::HashMap;

use burraco_protocol::wire::{ServerMessage, WireSeat, WireStanding};

use super::state::{Entrant, TournamentState};

/// Where each player of the round in play sits: player id to (table, seat).
pub fn seats_in_play(state: &TournamentState) -> HashMap<&str, (&str, WireSeat)> {
    let mut seats = HashMap::new();
    let Some(round) = state.round_in_play() else {
        return seats;
    };
    for t in &round.tables {
        for (entrant, index, seat, _) in state.settings.kind.places(t) {
            if let Some(p) = state.player_at(round, entrant, index) {
                seats.insert(p.player.as_str(), (t.table.as_str(), WireSeat(seat)));
            }
        }
    }
    seats
}

/// What a player is told when the tournament changes: the standings after the last complete
/// round (computed once for everyone), and their table and seat in the round in play.
pub fn update(
    state: &TournamentState,
    standings: Vec<WireStanding>,
    seat: Option<(&str, WireSeat)>,
) -> ServerMessage {
    ServerMessage::TournamentUpdate {
        tournament: state.id.clone(),
        status: state.status().code().to_owned(),
        round: state.rounds.len() as u32,
        rounds: state.planned_rounds(),
        standings,
        table: seat.map(|(t, _)| t.to_owned()),
        seat: seat.map(|(_, s)| s),
    }
}

/// What a 1.2 connection also hears after each update (`tournament_status`).
pub fn status_for(state: &TournamentState, entrant: &Entrant, now_ms: i64) -> ServerMessage {
    // The round's clock as the tournament schedules it: from the round's start, the pauses
    // added.
    let round_ends_ms = state.round_in_play().and_then(|round| {
        let clock = i64::try_from(state.round_clock_ms()?).ok()?;
        Some(round.started_ms + clock + state.paused_between(round.started_ms, now_ms))
    });
    ServerMessage::TournamentStatus {
        tournament: state.id.clone(),
        paused: state.paused,
        registration_open: state.registration_open(now_ms),
        checked_in: (state.registration.check_in && !state.started()).then_some(entrant.checked_in),
        round_ends_ms,
        warnings: state.warnings_of(entrant.id),
    }
}
