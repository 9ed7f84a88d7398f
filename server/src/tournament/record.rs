//! The tournament record (docs/TOURNAMENT_RECORD.md), folded from the log like everything else:
//! settings, entrants (bots labelled), every round's tables with their results and the address of
//! their hand records, byes and their score, adjustments with their reasons, the standings after
//! each round. Also the standings as the wire carries them, and each player's update.

use burraco_protocol::tournament_log::TournamentEntry;
use burraco_protocol::wire::{ServerMessage, WireSeat, WireStanding};
use burraco_rules::Seed;
use burraco_rules::tournament::{Standing, bye_score, matchpoints};
use serde_json::{Value, json};

use super::state::{Round, TournamentState, score_of};
use crate::log::Entry;

/// A tournament's log read back: its record as JSON, `None` when the log is not a tournament's.
pub fn from_log(id: &str, log: &[Entry]) -> Option<Value> {
    let entries: Vec<TournamentEntry> = log
        .iter()
        .map(|e| TournamentEntry::decode(e))
        .collect::<Result<_, _>>()
        .ok()?;
    let state = TournamentState::fold(id.to_owned(), &entries).ok()?;
    Some(record(&state))
}

/// The standings as the wire and the record show them.
pub fn wire_standings(state: &TournamentState, lines: &[Standing]) -> Vec<WireStanding> {
    lines
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let entrant = state.entrants.get(s.entrant);
            WireStanding {
                rank: i as u32 + 1,
                entrant: s.entrant as u32,
                names: entrant
                    .map(|e| e.players.iter().map(|p| p.name.clone()).collect())
                    .unwrap_or_default(),
                bot: entrant.is_some_and(|e| e.bot),
                vp: s.ranking_vp(state.settings.preset),
                mp: s.mp,
                burraco: s.burraco_bonus,
            }
        })
        .collect()
}

fn standings_json(state: &TournamentState, rounds: usize) -> Value {
    serde_json::to_value(wire_standings(state, &state.standings_after(rounds)))
        .unwrap_or(Value::Null)
}

pub fn record(state: &TournamentState) -> Value {
    let bye = bye_score(state.settings.format());
    let entrants: Vec<Value> = state
        .entrants
        .iter()
        .map(|e| {
            json!({
                "entrant": e.id,
                "names": e.players.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
                "players": e.players.iter().map(|p| p.player.clone()).collect::<Vec<_>>(),
                "bot": e.bot,
                "unregistered": e.unregistered,
                "withdrawn": e.withdrawn,
            })
        })
        .collect();
    let rounds: Vec<Value> = state
        .rounds
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let tables: Vec<Value> = r
                .tables
                .iter()
                .zip(&r.results)
                .map(|(t, result)| {
                    let result = result.as_ref().map(|o| {
                        let (ns, ew) = (score_of(o, 0), score_of(o, 1));
                        json!({
                            "played": o.played,
                            "totals": o.totals,
                            "vp": [ns.vp, ew.vp],
                            "mp": [ns.mp, ew.mp],
                            "burraco": o.burraco,
                            "hands": o.hands,
                        })
                    });
                    json!({
                        "number": t.number,
                        "table": t.table,
                        "ns": t.ns,
                        "ew": t.ew,
                        "ns_partner": t.ns_partner,
                        "ew_partner": t.ew_partner,
                        "hand_records": format!("/api/tables/{}/hands", t.table),
                        "result": result,
                    })
                })
                .collect();
            let matchpoints = duplicate_matchpoints(r);
            let tables: Vec<Value> = tables
                .into_iter()
                .zip(matchpoints)
                .map(|(mut table, mp)| {
                    if let (Some(mp), Some(result)) = (mp, table.get_mut("result"))
                        && let Some(result) = result.as_object_mut() {
                            result.insert("matchpoints".into(), json!(mp));
                        }
                    table
                })
                .collect();
            json!({
                "round": r.number,
                "movement": r.movement,
                "boards": boards_json(r),
                "tables": tables,
                "bye": r.bye,
                "bracket": if r.bracket.is_empty() { Value::Null } else { json!(r.bracket) },
                "complete": r.is_complete(),
                "standings": if r.is_complete() { standings_json(state, i + 1) } else { Value::Null },
            })
        })
        .collect();
    let adjustments: Vec<Value> = state
        .adjustments
        .iter()
        .map(|a| {
            json!({
                "entrant": a.entrant,
                "vp": a.vp,
                "reason": a.reason,
                "at_ms": a.at_ms,
                "after_round": a.after_round,
            })
        })
        .collect();
    json!({
        "format": "burraco-tournament-1",
        "tournament": state.id,
        "settings": state.settings.wire,
        "created_ms": state.created_ms,
        "status": state.status(),
        "bye_score": {"vp": bye.vp, "mp": bye.mp},
        "entrants": entrants,
        "rounds": rounds,
        "adjustments": adjustments,
        "standings": standings_json(state, state.complete_rounds()),
        "knockout_winner": state.knockout_winner(),
    })
}

/// A round's duplicate boards: each hand's commitment from the start, its seed once every table
/// of the round has finished (`null` before, and without duplicate boards).
fn boards_json(round: &Round) -> Value {
    let Some(boards) = &round.boards else {
        return Value::Null;
    };
    let revealed = round.is_complete();
    let first_dealer = burraco_protocol::log::seat_of(boards.first_dealer)
        .map(|s| s.code())
        .unwrap_or_default();
    let hands: Vec<Value> = boards
        .seeds
        .iter()
        .enumerate()
        .map(|(i, seed)| {
            let seed = Seed(*seed);
            json!({
                "hand": i + 1,
                "commitment": seed.commitment_hex(),
                "seed": revealed.then(|| seed.to_hex()),
            })
        })
        .collect();
    json!({"first_dealer": first_dealer, "hands": hands})
}

/// Duplicate matchpoints of each table of a complete round, North-South then East-West: on each
/// board, 2 per table whose same side scored less, 1 per equal one (RULES.md section 11), summed
/// over the boards. `None` per table without duplicate boards or before the round's end.
fn duplicate_matchpoints(round: &Round) -> Vec<Option<[u32; 2]>> {
    if round.boards.is_none() || !round.is_complete() {
        return vec![None; round.tables.len()];
    }
    let boards = round.boards.as_ref().map_or(0, |b| b.seeds.len());
    let mut sums = vec![[0u32; 2]; round.tables.len()];
    for board in 0..boards {
        for side in 0..2 {
            // Each table's result for this side on this board: its total minus the other's.
            let played: Vec<(usize, i32)> = round
                .results
                .iter()
                .enumerate()
                .filter_map(|(i, r)| {
                    let t = r.as_ref()?.hand_totals.get(board)?;
                    Some((i, t[side] - t[1 - side]))
                })
                .collect();
            let results: Vec<i32> = played.iter().map(|(_, r)| *r).collect();
            for ((i, _), mp) in played.iter().zip(matchpoints(&results)) {
                sums[*i][side] += mp;
            }
        }
    }
    sums.into_iter().map(Some).collect()
}

/// What `player` is told when the tournament changes: the standings after the last complete
/// round, and their table in the round in play.
pub fn update_for(state: &TournamentState, player: &str) -> ServerMessage {
    let mut table = None;
    let mut seat = None;
    if let (Some(round), Some(entrant)) = (state.round_in_play(), state.entrant_of(player)) {
        let index = entrant.players.iter().position(|p| p.player == player);
        for t in &round.tables {
            for (id, i, s, _) in state.settings.kind.places(t) {
                if id == entrant.id && Some(i) == index {
                    table = Some(t.table.clone());
                    seat = Some(WireSeat(s));
                }
            }
        }
    }
    ServerMessage::TournamentUpdate {
        tournament: state.id.clone(),
        status: state.status().to_owned(),
        round: state.rounds.len() as u32,
        rounds: state.planned_rounds(),
        standings: wire_standings(state, &state.standings_after(state.complete_rounds())),
        table,
        seat,
    }
}
