//! What the tournament's unit tests share: a tournament registered, a round started as the
//! actor starts it, a match finished.

use burraco_protocol::tournament_log::{EntrantPlayer, MatchOutcome, RoundBoards, TournamentEntry};
use burraco_protocol::wire::WireTournamentSettings;
use burraco_rules::vp::VpTable;

use super::plan::{RoundPlan, plan_round};
use super::state::TournamentState;

/// A `fitab` singles event of one-hand matches, `entrants` registered.
pub fn registered(movements: &[&str], entrants: u32) -> TournamentState {
    registered_with(movements, entrants, |_| {})
}

pub fn registered_with(
    movements: &[&str],
    entrants: u32,
    change: impl FnOnce(&mut WireTournamentSettings),
) -> TournamentState {
    let mut wire = WireTournamentSettings {
        name: "t".into(),
        kind: "singles".into(),
        rounds: movements.iter().map(|&m| m.to_owned()).collect(),
        hands: 1,
        preset: "fitab".into(),
        ..WireTournamentSettings::default()
    };
    change(&mut wire);
    let created = TournamentEntry::Created {
        settings: serde_json::to_string(&wire).expect("json"),
        created_ms: 0,
        director_hash: [0; 32],
        seed: 1,
    };
    let mut state = TournamentState::created("T-0".into(), &created).expect("settings");
    for entrant in 0..entrants {
        state
            .apply(&TournamentEntry::Registered {
                entrant,
                player: EntrantPlayer {
                    player: format!("p{entrant}"),
                    name: format!("n{entrant}"),
                },
                bot: true,
                code: None,
                at_ms: 0,
            })
            .expect("registered");
    }
    state
}

/// Starts the next round as the actor does: planned ([`plan_round`]), duplicate boards dealt if
/// the settings say so, logged (a table with an entrant gone since the start scored
/// `absent_opponent`). Its tables, as (ns, ew, table id); table ids `t-{round}-{n}`, n from 1.
pub fn start_round(state: &mut TournamentState, at_ms: i64) -> Vec<(u32, u32, String)> {
    let plan = plan_round(state, table_ids(state)).expect("a round to plan");
    log_plan(state, plan, at_ms)
}

fn table_ids(state: &TournamentState) -> impl FnMut() -> String + use<> {
    let round = state.rounds.len() + 1;
    let mut n = 0;
    move || {
        n += 1;
        format!("t-{round}-{n}")
    }
}

fn log_plan(state: &mut TournamentState, plan: RoundPlan, at_ms: i64) -> Vec<(u32, u32, String)> {
    let tables: Vec<(u32, u32, String)> = plan
        .tables
        .iter()
        .map(|t| (t.ns, t.ew, t.table.clone()))
        .collect();
    // Duplicate boards, as the actor draws them (the seeds do not matter here).
    let boards = state.settings.duplicate.then(|| RoundBoards {
        seeds: vec![[7; 32]; usize::from(state.settings.hands)],
        first_dealer: 0,
    });
    for entry in plan.into_entries(boards, at_ms) {
        state.apply(&entry).expect("the plan folds");
    }
    tables
}

/// A one-hand match played to its end with these totals (VP from FITAB's 2-hand column).
pub fn finish(state: &mut TournamentState, table: &str, totals: [i32; 2]) {
    let (won, lost) = VpTable::FitabTwoHands.victory_points(totals[0] - totals[1]);
    let vp = if totals[0] >= totals[1] {
        [won, lost]
    } else {
        [lost, won]
    };
    let round = state.rounds.len() as u32;
    state
        .apply(&TournamentEntry::MatchFinished {
            round,
            table: table.into(),
            result: MatchOutcome {
                played: true,
                totals,
                vp,
                burraco: [0, 0],
                hands: 1,
                hand_totals: vec![totals],
            },
        })
        .expect("finished");
}
