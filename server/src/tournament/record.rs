//! The tournament record (docs/TOURNAMENT_RECORD.md), folded from the log like everything else:
//! settings, entrants (bots labelled), every round's tables with their results and the address of
//! their hand records, byes and their score, adjustments with their reasons, the standings after
//! each round. Also the standings as the wire carries them, and each player's update.

use std::collections::HashMap;

use burraco_protocol::tournament_log::TournamentEntry;
use burraco_protocol::wire::{ServerMessage, WireSeat, WireStanding};
use burraco_rules::Seed;
use burraco_rules::tournament::{Standing, bye_score, matchpoints};
use serde_json::{Value, json};

use super::settings::Kind;
use super::state::{Entrant, Round, TournamentState, score_of};
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
                "withdrawn_ms": e.withdrawn_at.map(|m| m.at_ms),
                "withdrawn_after_round": e.withdrawn_at.map(|m| m.after_round),
                "disqualified": e.disqualified,
                "disqualified_ms": e.disqualified_at.map(|m| m.at_ms),
                "disqualified_after_round": e.disqualified_at.map(|m| m.after_round),
                "no_show": e.no_show,
                "checked_in": e.checked_in,
                "server_bot": e.server_bot,
                "warnings": state.warnings_of(e.id),
                "lineup": e.lineup,
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
                .zip(&r.awarded)
                .map(|((t, result), awarded)| {
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
                        "awarded": awarded,
                        "late_points": state.late_points(r.number, t),
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
                "started_ms": r.started_ms,
                "boards": boards_json(r),
                "tables": tables,
                "bye": r.bye,
                "bracket": if r.bracket.is_empty() { Value::Null } else { json!(r.bracket) },
                "matches": team_matches(state, r),
                "lineups": if state.settings.kind == Kind::Teams {
                    json!(r.lineups.iter().map(|(entrant, order)| json!({
                        "entrant": entrant,
                        "order": order,
                    })).collect::<Vec<_>>())
                } else {
                    Value::Null
                },
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
    let warnings: Vec<Value> = state
        .warnings
        .iter()
        .map(|w| {
            json!({
                "entrant": w.entrant,
                "reason": w.reason,
                "at_ms": w.at_ms,
                "after_round": w.after_round,
            })
        })
        .collect();
    let late: Vec<Value> = state
        .late
        .iter()
        .map(|l| {
            json!({
                "round": l.round,
                "table": l.table,
                "entrant": l.entrant,
                "minutes": l.minutes,
                "points": l.points,
            })
        })
        .collect();
    let r = &state.registration;
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
        "warnings": warnings,
        "late_arrivals": late,
        "forbidden_pairings": state.forbidden,
        "pauses": state.pauses,
        "paused": state.paused,
        "registration": {
            "open": state.registration_open(crate::unix_ms()),
            "invite_only": r.invite.is_some(),
            "closes_ms": r.closes_ms,
            "starts_ms": r.starts_ms,
            "check_in": r.check_in,
            "bots_after_secs": r.bots_after_secs,
        },
        "first_round_order": state.seating,
        "round_secs": state.round_secs,
        "standings": standings_json(state, state.complete_rounds()),
        "knockout_winner": state.knockout_winner(),
    })
}

/// A teams event's matches that are over, each its two tables together (`null` for other
/// kinds): `ns` and `ew` are the teams as the first table seats them.
fn team_matches(state: &TournamentState, round: &Round) -> Value {
    if state.settings.kind != Kind::Teams {
        return Value::Null;
    }
    let matches: Vec<Value> = state
        .scored_matches(round)
        .into_iter()
        .map(|(table, o)| {
            let (ns, ew) = (score_of(&o, 0), score_of(&o, 1));
            json!({
                "ns": table.ns,
                "ew": table.ew,
                "tables": [table.number, table.number + 1],
                "totals": o.totals,
                "vp": [ns.vp, ew.vp],
                "mp": [ns.mp, ew.mp],
                "burraco": o.burraco,
            })
        })
        .collect();
    json!(matches)
}

/// A round's duplicate boards: each hand's commitment from the start, its seed once every table
/// of the round has finished (`null` before, and without duplicate boards).
fn boards_json(round: &Round) -> Value {
    let Some(boards) = &round.boards else {
        return Value::Null;
    };
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
                "seed": round.board_revealed(i as u32 + 1).then(|| seed.to_hex()),
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
        status: state.status().to_owned(),
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
