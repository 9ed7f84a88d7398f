//! The tournament record (docs/TOURNAMENT_RECORD.md), folded from the log like everything else:
//! settings, entrants (bots labelled), every round's tables with their results and the address of
//! their hand records, byes and their score, adjustments with their reasons, the standings after
//! each round. Built as a typed [`TournamentRecord`] (protocol), serialised once by the endpoint.
//! Also the standings as the wire carries them.

use burraco_protocol::tournament_log::TournamentEntry;
use burraco_protocol::tournament_record::{
    self, RecordAdjustment, RecordBoard, RecordBoards, RecordEntrant, RecordLateArrival,
    RecordLineup, RecordRegistration, RecordResult, RecordRound, RecordTable, RecordTeamMatch,
    RecordWarning, ScoreAwarded, TournamentRecord,
};
use burraco_protocol::wire::WireStanding;
use burraco_rules::Seed;
use burraco_rules::tournament::{Standing, bye_score, matchpoints};

use super::settings::Kind;
use super::state::{Entrant, Round, TournamentState, score_of};
use crate::log::Entry;

/// A tournament's log read back: its record, `None` when the log is not a tournament's.
pub fn from_log(id: &str, log: &[Entry]) -> Option<TournamentRecord> {
    let entries: Vec<TournamentEntry> = log
        .iter()
        .map(|e| TournamentEntry::decode(e))
        .collect::<Result<_, _>>()
        .ok()?;
    let state = TournamentState::fold(id.to_owned(), &entries).ok()?;
    Some(record(&state, crate::ids::unix_ms()))
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

/// The standings after the first `rounds` complete rounds.
fn standings(state: &TournamentState, rounds: usize) -> Vec<WireStanding> {
    wire_standings(state, &state.standings_after(rounds))
}

/// The record of the tournament folded so far; `now_ms` says whether registration is open.
pub fn record(state: &TournamentState, now_ms: i64) -> TournamentRecord {
    let bye = bye_score(state.settings.format());
    let r = &state.registration;
    TournamentRecord {
        format: tournament_record::FORMAT.to_owned(),
        tournament: state.id.clone(),
        settings: state.settings.wire.clone(),
        created_ms: state.created_ms,
        status: state.status(),
        bye_score: ScoreAwarded {
            vp: bye.vp,
            mp: bye.mp,
        },
        entrants: state.entrants.iter().map(|e| entrant(state, e)).collect(),
        rounds: state
            .rounds
            .iter()
            .enumerate()
            .map(|(i, r)| round(state, i, r))
            .collect(),
        adjustments: state
            .adjustments
            .iter()
            .map(|a| RecordAdjustment {
                entrant: a.entrant,
                vp: a.vp,
                reason: a.reason.clone(),
                at_ms: a.at_ms,
                after_round: a.after_round,
            })
            .collect(),
        warnings: state
            .warnings
            .iter()
            .map(|w| RecordWarning {
                entrant: w.entrant,
                reason: w.reason.clone(),
                at_ms: w.at_ms,
                after_round: w.after_round,
            })
            .collect(),
        late_arrivals: state
            .late
            .iter()
            .map(|l| RecordLateArrival {
                round: l.round,
                table: l.table.clone(),
                entrant: l.entrant,
                minutes: l.minutes,
                points: l.points,
            })
            .collect(),
        forbidden_pairings: state.forbidden.clone(),
        pauses: state.pauses.clone(),
        paused: state.paused,
        registration: RecordRegistration {
            open: state.registration_open(now_ms),
            invite_only: r.invite.is_some(),
            closes_ms: r.closes_ms,
            starts_ms: r.starts_ms,
            check_in: r.check_in,
            bots_after_secs: r.bots_after_secs,
        },
        first_round_order: state.seating.clone(),
        round_secs: state.round_secs,
        standings: standings(state, state.complete_rounds()),
        knockout_winner: state.knockout_winner(),
        rated: state.rated,
        director_account: state.director_account.clone(),
    }
}

fn entrant(state: &TournamentState, e: &Entrant) -> RecordEntrant {
    RecordEntrant {
        entrant: e.id,
        names: e.players.iter().map(|p| p.name.clone()).collect(),
        players: e.players.iter().map(|p| p.player.clone()).collect(),
        bot: e.bot,
        unregistered: e.unregistered,
        withdrawn: e.withdrawn.clone(),
        withdrawn_ms: e.withdrawn_at.map(|m| m.at_ms),
        withdrawn_after_round: e.withdrawn_at.map(|m| m.after_round),
        disqualified: e.disqualified.clone(),
        disqualified_ms: e.disqualified_at.map(|m| m.at_ms),
        disqualified_after_round: e.disqualified_at.map(|m| m.after_round),
        no_show: e.no_show,
        checked_in: e.checked_in,
        server_bot: e.server_bot,
        warnings: state.warnings_of(e.id),
        lineup: e.lineup,
        accounts: e.player_accounts(),
    }
}

/// Round `index` (from 0) of the record.
fn round(state: &TournamentState, index: usize, r: &Round) -> RecordRound {
    let teams = state.settings.kind == Kind::Teams;
    let tables = r
        .tables
        .iter()
        .zip(&r.results)
        .zip(&r.awarded)
        .zip(duplicate_matchpoints(r))
        .map(|(((t, result), awarded), matchpoints)| RecordTable {
            number: t.number,
            table: t.table.clone(),
            ns: t.ns,
            ew: t.ew,
            ns_partner: t.ns_partner,
            ew_partner: t.ew_partner,
            hand_records: format!("/api/tables/{}/hands", t.table),
            result: result.as_ref().map(|o| {
                let (ns, ew) = (score_of(o, 0), score_of(o, 1));
                RecordResult {
                    played: o.played,
                    totals: o.totals,
                    vp: [ns.vp, ew.vp],
                    mp: [ns.mp, ew.mp],
                    burraco: o.burraco,
                    hands: o.hands,
                    matchpoints,
                }
            }),
            awarded: awarded.clone(),
            late_points: state.late_points(r.number, t),
        })
        .collect();
    RecordRound {
        round: r.number,
        movement: r.movement.clone(),
        started_ms: r.started_ms,
        boards: boards(r),
        tables,
        bye: r.bye,
        bracket: (!r.bracket.is_empty()).then(|| r.bracket.clone()),
        matches: teams.then(|| team_matches(state, r)),
        lineups: teams.then(|| {
            r.lineups
                .iter()
                .map(|&(entrant, order)| RecordLineup { entrant, order })
                .collect()
        }),
        complete: r.is_complete(),
        standings: r.is_complete().then(|| standings(state, index + 1)),
    }
}

/// A teams event's matches that are over, each its two tables together: `ns` and `ew` are the
/// teams as the first table seats them.
fn team_matches(state: &TournamentState, round: &Round) -> Vec<RecordTeamMatch> {
    state
        .scored_matches(round)
        .into_iter()
        .map(|(table, o)| {
            let (ns, ew) = (score_of(&o, 0), score_of(&o, 1));
            RecordTeamMatch {
                ns: table.ns,
                ew: table.ew,
                tables: [table.number, table.number + 1],
                totals: o.totals,
                vp: [ns.vp, ew.vp],
                mp: [ns.mp, ew.mp],
                burraco: o.burraco,
            }
        })
        .collect()
}

/// A round's duplicate boards: each hand's commitment from the start, its seed once every table
/// of the round has finished (`None` before, and without duplicate boards).
fn boards(round: &Round) -> Option<RecordBoards> {
    let boards = round.boards.as_ref()?;
    let first_dealer = burraco_protocol::log::seat_of(boards.first_dealer)
        .map(|s| s.code().to_owned())
        .unwrap_or_default();
    let hands = boards
        .seeds
        .iter()
        .enumerate()
        .map(|(i, seed)| {
            let seed = Seed(*seed);
            let hand = i as u32 + 1;
            RecordBoard {
                hand,
                commitment: seed.commitment_hex(),
                seed: round.board_revealed(hand).then(|| seed.to_hex()),
            }
        })
        .collect();
    Some(RecordBoards {
        first_dealer,
        hands,
    })
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
