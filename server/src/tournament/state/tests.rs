use burraco_rules::tournament::{MatchScore, Standing, bye_score};

use super::super::pairing::pair_next;
use super::super::scoring::{self, Award};
use super::super::testing::{finish, registered, registered_with, start_round};
use super::*;

fn table_of(tables: &[(u32, u32, String)], a: u32, b: u32) -> String {
    tables
        .iter()
        .find(|(ns, ew, _)| (*ns, *ew) == (a, b) || (*ns, *ew) == (b, a))
        .map(|(_, _, id)| id.clone())
        .unwrap_or_else(|| panic!("{a} and {b} do not meet in {tables:?}"))
}

fn vp_by_entrant(lines: &[Standing]) -> Vec<(usize, i32)> {
    lines.iter().map(|s| (s.entrant, s.vp)).collect()
}

/// The case an independent recomputation found: in a singles round robin of four (Berger:
/// 0-3 and 1-2, then 3-2 and 0-1, then 1-3 and 2-0), entrant 1 withdraws in round 2 and
/// entrant 3 is expelled before round 3, where the two were to meet: that table is scored
/// `absent_opponent`, 0 VP to both. Art. 37 bis gives at least 12 VP to the entrants the
/// expelled one met at a table (0 and 2), never to 1, who never played it.
fn withdrawal_then_expulsion() -> TournamentState {
    withdrawal_then_expulsion_at(Expelled::BeforeRound3)
}

/// When the director expels entrant 3: between rounds 2 and 3, or at the start of round 3,
/// once its tables are paired (its table with 1 is then already `absent_opponent`: 3 present,
/// scored the bye score, 1 gone, 0 VP).
#[derive(Clone, Copy, PartialEq)]
enum Expelled {
    BeforeRound3,
    AtTheStartOfRound3,
}

fn withdrawal_then_expulsion_at(when: Expelled) -> TournamentState {
    let mut state = registered(&["round_robin", "round_robin", "round_robin"], 4);
    let first = start_round(&mut state, 10);
    assert_eq!(
        first.iter().map(|(a, b, _)| (*a, *b)).collect::<Vec<_>>(),
        [(0, 3), (1, 2)]
    );
    // 3 beats 0 17-3; 1 loses to 2 9-11.
    finish(&mut state, &table_of(&first, 0, 3), [0, 700]);
    finish(&mut state, &table_of(&first, 1, 2), [100, 160]);
    let second = start_round(&mut state, 20);
    // 3 beats 2 15-5; 1 leaves its match with 0 in play: "a 0", 0 the bye score.
    finish(&mut state, &table_of(&second, 3, 2), [500, 0]);
    let abandoned = table_of(&second, 0, 1);
    let side_of_1 = usize::from(
        second
            .iter()
            .any(|(_, ew, id)| *id == abandoned && *ew == 1),
    );
    let mut out = [false, false];
    out[side_of_1] = true;
    let bye = bye_score(state.settings.format());
    let entries = [
        TournamentEntry::MatchAwarded {
            round: 2,
            table: abandoned,
            result: scoring::awarded(out, bye, MatchScore::ZERO),
            reason: Award::Abandonment.code().into(),
            at_ms: 25,
        },
        TournamentEntry::Withdrawn {
            entrant: 1,
            reason: "abandoned the tournament".into(),
            at_ms: 25,
        },
    ];
    for entry in &entries {
        state.apply(entry).expect("fits");
    }
    let expel = |state: &mut TournamentState, at_ms| {
        state
            .apply(&TournamentEntry::Disqualified {
                entrant: 3,
                reason: "signalling".into(),
                at_ms,
            })
            .expect("expelled");
    };
    if when == Expelled::BeforeRound3 {
        expel(&mut state, 30);
    }
    let third = start_round(&mut state, 40);
    if when == Expelled::AtTheStartOfRound3 {
        expel(&mut state, 41);
    }
    // 2 beats 0 14-6.
    finish(&mut state, &table_of(&third, 2, 0), [400, 0]);
    let absent = state.rounds[2]
        .tables
        .iter()
        .position(|t| [t.ns, t.ew].contains(&1))
        .expect("1's table");
    assert_eq!(
        state.rounds[2].awarded[absent].as_deref(),
        Some(Award::AbsentOpponent.code())
    );
    assert!(state.rounds[2].tables[absent].ns == 3 || state.rounds[2].tables[absent].ew == 3);
    state
}

#[test]
fn an_expelled_entrants_12_vp_go_to_those_it_met_at_a_table_only() {
    let state = withdrawal_then_expulsion();
    // 0: 12 (3, raised against the expelled 3) + 14 (the bye score) + 6; 1: 9 + 0 + 0, never
    // raised (it never met 3: their table was not played); 2: 11 + 12 (5, raised) + 14; 3
    // last with its own 17 + 15.
    assert_eq!(
        vp_by_entrant(&state.standings_after(3)),
        [(2, 37), (0, 32), (1, 9), (3, 32)]
    );
}

#[test]
fn an_expulsion_counts_from_the_standings_after_the_round_it_was_made_in() {
    let state = withdrawal_then_expulsion();
    // Expelled with two rounds started: the standings after round 1 (what round 2 was
    // paired by, for a movement by standing) stay as they were.
    assert_eq!(
        vp_by_entrant(&state.standings_after(1)),
        [(3, 17), (2, 11), (1, 9), (0, 3)]
    );
    // From those after round 2: 0 has 12 + 14, 2 has 11 + 12, 3 is last.
    assert_eq!(
        vp_by_entrant(&state.standings_after(2)),
        [(0, 26), (2, 23), (1, 9), (3, 32)]
    );
    // The record says when each left, and how many rounds had started.
    assert_eq!(
        state.entrants[1].withdrawn_at,
        Some(Moment {
            at_ms: 25,
            after_round: 2
        })
    );
    assert_eq!(
        state.entrants[3].disqualified_at,
        Some(Moment {
            at_ms: 30,
            after_round: 2
        })
    );
    let record = super::super::record::record(&state, 40);
    assert_eq!(record.entrants[1].withdrawn_ms, Some(25));
    assert_eq!(record.entrants[1].withdrawn_after_round, Some(2));
    assert_eq!(record.entrants[3].disqualified_ms, Some(30));
    assert_eq!(record.entrants[3].disqualified_after_round, Some(2));
    assert_eq!(record.entrants[0].disqualified_after_round, None);
}

/// The same case with the expulsion made at the start of round 3, once its tables were paired:
/// the table of 1 and 3 is `absent_opponent` (3 was still in, it scores the bye score; 1 was
/// gone, 0). 1 never met 3 at a table, so it stays at 9 VP (it had 21 when the 12 VP went to
/// every opponent of the expelled entrant); 0 and 2, who met 3, count at least 12 from those
/// matches from the standings after round 3 on, and not in those after round 2.
#[test]
fn an_expulsion_at_the_start_of_a_round_gives_nothing_to_an_absent_opponent() {
    let state = withdrawal_then_expulsion_at(Expelled::AtTheStartOfRound3);
    let absent = state.rounds[2]
        .tables
        .iter()
        .position(|t| [t.ns, t.ew].contains(&1))
        .expect("1's table");
    let side_of_3 = usize::from(state.rounds[2].tables[absent].ew == 3);
    let result = state.rounds[2].results[absent].as_ref().expect("scored");
    assert_eq!(result.vp[side_of_3], 14, "3, still in, scored the bye");
    assert_eq!(result.vp[1 - side_of_3], 0, "1, gone");
    // 0: 12 (3, raised) + 14 (bye score, 1 abandoned) + 6; 2: 11 + 12 (5, raised) + 14;
    // 1: 9 + 0 + 0; 3 last: 17 + 15 + 14.
    assert_eq!(
        vp_by_entrant(&state.standings_after(3)),
        [(2, 37), (0, 32), (1, 9), (3, 46)]
    );
    // Before round 3's standings the expulsion does not count: nobody raised, 3 not last.
    assert_eq!(
        vp_by_entrant(&state.standings_after(2)),
        [(3, 32), (0, 17), (2, 16), (1, 9)]
    );
    let record = super::super::record::record(&state, 50);
    assert_eq!(record.entrants[3].disqualified_ms, Some(41));
    assert_eq!(record.entrants[3].disqualified_after_round, Some(3));
    assert_eq!(
        record.rounds[2].tables[absent].awarded.as_deref(),
        Some(Award::AbsentOpponent.code())
    );
    let final_vp: Vec<(u32, i32)> = record.standings.iter().map(|s| (s.entrant, s.vp)).collect();
    assert_eq!(final_vp, [(2, 37), (0, 32), (1, 9), (3, 46)]);
}

/// An entrant the director withdraws (or expels) before the first round is never paired:
/// like one that unregistered, it has no line in the standings.
#[test]
fn an_entrant_gone_before_the_start_has_no_standing() {
    let mut state = registered(&["danish"], 3);
    state
        .apply(&TournamentEntry::Withdrawn {
            entrant: 1,
            reason: "cannot come".into(),
            at_ms: 5,
        })
        .expect("withdrawn");
    assert_eq!(state.active(), [0, 2]);
    let tables = start_round(&mut state, 10);
    assert_eq!(state.rounds[0].bye, None);
    finish(&mut state, &tables[0].2, [400, 0]);
    assert_eq!(vp_by_entrant(&state.standings_after(1)), [(0, 14), (2, 6)]);
}

/// `rounds` in the list and the updates: a knock-out takes the rounds its first bracket
/// needs, however many entrants leave once it started (a knock-out of five is three rounds,
/// a bracket of eight, even when one withdraws after the first).
#[test]
fn a_knockouts_planned_rounds_are_fixed_by_its_first_bracket() {
    let mut state = registered(&["knockout"], 5);
    assert_eq!(state.planned_rounds(), 3);
    let first = start_round(&mut state, 10);
    assert_eq!(first.len(), 1, "three of five go through without playing");
    let (ns, ew, table) = first[0].clone();
    finish(&mut state, &table, [300, 0]);
    let through = state.rounds[0]
        .bracket
        .iter()
        .flatten()
        .copied()
        .find(|&e| e != ns && e != ew)
        .expect("an entrant through without playing");
    state
        .apply(&TournamentEntry::Withdrawn {
            entrant: through,
            reason: "had to leave".into(),
            at_ms: 20,
        })
        .expect("withdrawn");
    assert_eq!(state.active().len(), 4);
    assert_eq!(state.planned_rounds(), 3);
}

/// Duplicate matchpoints compare a board only among the tables that finished it: a match
/// ended after its first board (the round clock) is left out of the second.
#[test]
fn a_board_is_compared_among_the_tables_that_finished_it() {
    let mut state = registered_with(&["danish"], 6, |w| {
        w.hands = 2;
        w.duplicate = Some(true);
    });
    let tables = start_round(&mut state, 10);
    let hand_totals = [
        vec![[100, 0], [50, 0]],
        vec![[0, 0], [20, 0]],
        vec![[100, 0]],
    ];
    for ((_, _, table), hands) in tables.iter().zip(hand_totals) {
        let totals = hands
            .iter()
            .fold([0, 0], |acc, h| [acc[0] + h[0], acc[1] + h[1]]);
        state
            .apply(&TournamentEntry::MatchFinished {
                round: 1,
                table: table.clone(),
                result: MatchOutcome {
                    played: true,
                    totals,
                    vp: [10, 10],
                    burraco: [0, 0],
                    hands: hands.len() as u32,
                    hand_totals: hands,
                },
            })
            .expect("finished");
    }
    let record = super::super::record::record(&state, 40);
    let matchpoints: Vec<Option<[u32; 2]>> = record.rounds[0]
        .tables
        .iter()
        .map(|t| t.result.as_ref().and_then(|r| r.matchpoints))
        .collect();
    // Board 1, North-South 100, 0, 100: 3, 0, 3; board 2, only the first two, 50 and 20:
    // 2, 0. East-West the other way round: 1, 4, 1, then 0, 2.
    assert_eq!(matchpoints, [Some([5, 1]), Some([0, 6]), Some([3, 1])]);
}

/// A table scored without play (`awarded` `late_arrival` here) finished no board: it is in no
/// board's comparison and its matchpoints are [0, 0]; the others compare among themselves.
#[test]
fn a_table_scored_without_play_has_no_matchpoints_to_compare() {
    let mut state = registered_with(&["danish"], 6, |w| w.duplicate = Some(true));
    let tables = start_round(&mut state, 10);
    finish(&mut state, &tables[0].2, [100, 0]);
    finish(&mut state, &tables[1].2, [40, 0]);
    let late = scoring::awarded(
        [false, true],
        MatchScore { vp: 14, mp: 315 },
        MatchScore { vp: 6, mp: -315 },
    );
    state
        .apply(&TournamentEntry::MatchAwarded {
            round: 1,
            table: tables[2].2.clone(),
            result: late,
            reason: Award::LateArrival.code().into(),
            at_ms: 20,
        })
        .expect("awarded");
    let record = super::super::record::record(&state, 40);
    assert!(record.rounds[0].complete);
    let matchpoints: Vec<Option<[u32; 2]>> = record.rounds[0]
        .tables
        .iter()
        .map(|t| t.result.as_ref().and_then(|r| r.matchpoints))
        .collect();
    // One board, North-South 100 and 40 (the top is 2 with two tables): 2 and 0; East-West
    // -100 and -40: 0 and 2. The awarded table: nothing.
    assert_eq!(matchpoints, [Some([2, 0]), Some([0, 2]), Some([0, 0])]);
}

/// An entrant gone since the start is nobody's bye when a fixed schedule would rest it:
/// it scores nothing after it left (round robin of five: 3 would rest in round 2).
#[test]
fn a_withdrawn_entrants_rest_in_a_fixed_schedule_scores_nothing() {
    let mut state = registered(&["round_robin", "round_robin"], 5);
    let first = start_round(&mut state, 10);
    assert_eq!(state.rounds[0].bye, Some(0));
    for (_, _, table) in &first {
        finish(&mut state, table, [400, 0]);
    }
    state
        .apply(&TournamentEntry::Withdrawn {
            entrant: 3,
            reason: "had to leave".into(),
            at_ms: 15,
        })
        .expect("withdrawn");
    let (_, round, _) = pair_next(&state).expect("round 2");
    assert_eq!(round.bye, Some(3), "the Berger table rests 3 in round 2");
    start_round(&mut state, 20);
    assert_eq!(state.rounds[1].bye, None);
    let three = state
        .standings_after(1)
        .iter()
        .find(|s| s.entrant == 3)
        .map(|s| s.vp);
    let standings = state.standings_after(2);
    assert_eq!(
        standings
            .iter()
            .find(|s| s.entrant == 3)
            .map(|s| (s.vp, s.byes)),
        three.map(|vp| (vp, 0))
    );
    assert_eq!(super::super::record::record(&state, 40).rounds[1].bye, None);
}

/// A knock-out of four: a finalist withdrawn before the final leaves the other through (the
/// final has no table, and that one wins); a winner of the final who leaves afterwards
/// stays the winner.
#[test]
fn a_knockout_finalist_who_leaves() {
    let semis_won_by_ns = |state: &mut TournamentState| -> Vec<u32> {
        let semis = start_round(state, 10);
        assert_eq!(semis.len(), 2);
        for (_, _, table) in &semis {
            finish(state, table, [400, 0]);
        }
        semis.iter().map(|(ns, _, _)| *ns).collect()
    };
    let mut state = registered(&["knockout"], 4);
    let finalists = semis_won_by_ns(&mut state);
    state
        .apply(&TournamentEntry::Withdrawn {
            entrant: finalists[0],
            reason: "had to leave".into(),
            at_ms: 15,
        })
        .expect("withdrawn");
    assert!(state.has_next_round());
    let final_ = start_round(&mut state, 20);
    assert!(final_.is_empty(), "{final_:?}");
    assert_eq!(state.rounds[1].bracket, [None, Some(finalists[1])]);
    assert!(state.rounds[1].is_complete());
    assert!(!state.has_next_round());
    assert_eq!(state.knockout_winner(), Some(finalists[1]));

    let mut state = registered(&["knockout"], 4);
    semis_won_by_ns(&mut state);
    let final_ = start_round(&mut state, 20);
    let (winner, _, table) = final_[0].clone();
    finish(&mut state, &table, [400, 0]);
    assert_eq!(state.knockout_winner(), Some(winner));
    state
        .apply(&TournamentEntry::Disqualified {
            entrant: winner,
            reason: "signalling".into(),
            at_ms: 30,
        })
        .expect("expelled");
    assert_eq!(state.knockout_winner(), Some(winner));
}

/// Who rests in a Danish round (docs/TOURNAMENT_RECORD.md "Who rests"): in the first, the last
/// of the first-round order; later, the lowest in the standings that has not rested in any
/// earlier round, so the lowest is passed over when it already has.
#[test]
fn a_danish_round_rests_the_lowest_that_has_not_rested_yet() {
    let mut state = registered(&["danish"; 3], 5);
    let first = start_round(&mut state, 10);
    assert_eq!(
        state.rounds[0].bye,
        Some(4),
        "the last of registration order"
    );
    // 0 beats 1 by 400 (14-6), 2 beats 3 by 300 (13-7); 4 has the bye (14, 315 MP).
    finish(&mut state, &table_of(&first, 0, 1), [400, 0]);
    finish(&mut state, &table_of(&first, 2, 3), [300, 0]);
    let second = start_round(&mut state, 20);
    // Standings 0 (14, 400), 4 (14, 315), 2, 3, 1: the lowest, 1, has not rested.
    assert_eq!(state.rounds[1].bye, Some(1));
    // 0 beats 4 by 1100 (20-0), 2 beats 3 by 100 (11-9).
    finish(&mut state, &table_of(&second, 0, 4), [1100, 0]);
    finish(&mut state, &table_of(&second, 2, 3), [100, 0]);
    assert_eq!(
        vp_by_entrant(&state.standings_after(2)),
        [(0, 34), (2, 24), (1, 20), (3, 16), (4, 14)]
    );
    start_round(&mut state, 30);
    // 4 is the lowest but rested in round 1: 3, the next up, rests.
    assert_eq!(state.rounds[2].bye, Some(3));
    let record = super::super::record::record(&state, 40);
    let byes: Vec<Option<u32>> = record.rounds.iter().map(|r| r.bye).collect();
    assert_eq!(byes, [Some(4), Some(1), Some(3)]);
}

/// Entrants equal on VP, MP and burraco bonus are listed in entrant number order with
/// consecutive ranks: no rank is shared.
#[test]
fn equal_lines_take_consecutive_ranks_in_entrant_order() {
    let mut state = registered(&["danish"], 4);
    let first = start_round(&mut state, 10);
    for (_, _, table) in &first {
        finish(&mut state, table, [0, 0]);
    }
    let record = super::super::record::record(&state, 20);
    let lines: Vec<(u32, u32, i32, i32)> = record
        .standings
        .iter()
        .map(|s| (s.rank, s.entrant, s.vp, s.mp))
        .collect();
    assert_eq!(
        lines,
        [(1, 0, 10, 0), (2, 1, 10, 0), (3, 2, 10, 0), (4, 3, 10, 0)]
    );
}

/// A table `awarded` `force_majeure` where the innocent side's score at the interruption beat
/// the bye score: the innocent side has its VP and lead, the excused side FITAB's 6 VP and the
/// innocent side's MP turned (every awarded result's `mp` is a margin), as the record says.
#[test]
fn a_force_majeure_leaver_has_its_6_vp_and_the_other_sides_mp_turned() {
    let mut state = registered(&["danish"], 2);
    let first = start_round(&mut state, 10);
    let format = state.settings.format();
    // North-South led by 700 when East-West could not go on: 17 VP beats the bye's 14.
    let innocent = burraco_rules::tournament::abandonment(format, 700).innocent;
    assert_eq!((innocent.vp, innocent.mp), (17, 700));
    let excused = burraco_rules::tournament::force_majeure_leaver_score(format).expect("fitab");
    assert_eq!(excused.vp, 6);
    state
        .apply(&TournamentEntry::MatchAwarded {
            round: 1,
            table: first[0].2.clone(),
            result: scoring::awarded([false, true], innocent, excused),
            reason: Award::ForceMajeure.code().into(),
            at_ms: 20,
        })
        .expect("awarded");
    let record = super::super::record::record(&state, 30);
    let result = record.rounds[0].tables[0].result.as_ref().expect("scored");
    assert_eq!(result.totals, [700, 0]);
    assert_eq!(result.vp, [17, 6]);
    assert_eq!(result.mp, [700, -700]);
    let lines: Vec<(u32, i32, i32)> = record
        .standings
        .iter()
        .map(|s| (s.entrant, s.vp, s.mp))
        .collect();
    assert_eq!(lines, [(first[0].0, 17, 700), (first[0].1, 6, -700)]);
}

/// An entrant's accounts (protocol 1.7) are folded by player, in the order of its names; a
/// player without one (a guest, or a log from before 1.7) has none, and an entry for an entrant
/// the log does not know is refused.
#[test]
fn entrant_accounts_fold_by_player_and_an_older_log_has_none() {
    let mut state = registered(&["round_robin"], 2);
    assert_eq!(state.entrants[0].player_accounts(), [None]);
    let player = state.entrants[1].players[0].player.clone();
    state
        .apply(&TournamentEntry::EntrantAccount {
            entrant: 1,
            player: player.clone(),
            account: "u-0123456789abcdef".into(),
        })
        .expect("folds");
    assert_eq!(
        state.entrants[1].player_accounts(),
        [Some("u-0123456789abcdef".to_owned())]
    );
    assert_eq!(state.entrants[0].player_accounts(), [None]);
    assert!(
        state
            .apply(&TournamentEntry::EntrantAccount {
                entrant: 9,
                player,
                account: "u-0123456789abcdef".into(),
            })
            .is_err()
    );
}
