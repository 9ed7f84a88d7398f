//! A round's plan: what the next round is (its movement, its tables with their ids, who rests,
//! a knock-out's bracket, the tables a fixed schedule gives an entrant already gone), as a pure
//! function of the tournament folded so far and its seed ([`super::pairing`]). The actor logs
//! the plan ([`RoundPlan::into_entries`]) and only then creates the tables, so a restart finds
//! the same round in the log.

use burraco_protocol::ErrorCode;
use burraco_protocol::tournament_log::{MatchOutcome, RoundBoards, RoundTable, TournamentEntry};
use burraco_rules::tournament::{MatchScore, bye_score};

use super::Refusal;
use super::pairing::{individual_next, pair_next};
use super::scoring::{self, Award};
use super::settings::{Kind, Movement};
use super::state::TournamentState;

/// The next round, ready to be logged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundPlan {
    /// From 1.
    pub number: u32,
    pub movement: Movement,
    pub tables: Vec<RoundTable>,
    /// The entrant resting (scored the bye).
    pub bye: Option<u32>,
    /// A knock-out round's bracket; empty for other movements.
    pub bracket: Vec<Option<u32>>,
    /// Tables a fixed schedule gave an entrant gone since the start, by table id: not played,
    /// the present side scored the bye (art. 36), a side gone nothing.
    pub absent: Vec<(String, MatchOutcome)>,
}

/// Why the next round cannot start. Each is refused with [`ErrorCode::RoundInPlay`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("the tournament is over")]
    Over,
    #[error("a round is in play")]
    RoundInPlay,
    #[error("fewer than 2 complete entrants")]
    TooFewEntrants,
    #[error("every round was played")]
    NoRoundLeft,
    #[error("an individual event needs a multiple of 4 players")]
    IndividualNotInFours,
}

impl PlanError {
    pub fn refusal(self) -> Refusal {
        (ErrorCode::RoundInPlay, self.to_string())
    }
}

/// Whether a round may start now at all (before the no-shows are logged).
pub fn may_start(state: &TournamentState) -> Result<(), PlanError> {
    if state.finished || state.end_requested {
        return Err(PlanError::Over);
    }
    if state.round_in_play().is_some() {
        return Err(PlanError::RoundInPlay);
    }
    Ok(())
}

/// The next round of `state`, its tables named by `table_id` (one call per table, in table
/// order). Pure: the same state and ids give the same plan (draws use the tournament's seed).
pub fn plan_round(
    state: &TournamentState,
    table_id: impl FnMut() -> String,
) -> Result<RoundPlan, PlanError> {
    may_start(state)?;
    if state.active().len() < 2 {
        return Err(PlanError::TooFewEntrants);
    }
    if !state.has_next_round() {
        return Err(PlanError::NoRoundLeft);
    }
    paired(state, table_id)
}

/// The next round as its movement pairs it, once it may start.
fn paired(
    state: &TournamentState,
    mut table_id: impl FnMut() -> String,
) -> Result<RoundPlan, PlanError> {
    let (movement, round, bracket) = pair_next(state).ok_or(PlanError::NoRoundLeft)?;
    let number = state.rounds.len() as u32 + 1;
    let table = |number: usize, ns: u32, ew: u32, partners: Option<(u32, u32)>| RoundTable {
        number: number as u32,
        table: String::new(),
        ns,
        ew,
        ns_partner: partners.map(|(s, _)| s),
        ew_partner: partners.map(|(_, w)| w),
    };
    let (mut tables, bye): (Vec<RoundTable>, Option<u32>) = match state.settings.kind {
        Kind::Individual => {
            let tables = individual_next(state).ok_or(PlanError::IndividualNotInFours)?;
            let tables = tables
                .into_iter()
                .enumerate()
                .map(|(i, [n, e, s, w])| table(i + 1, n, e, Some((s, w))))
                .collect();
            (tables, None)
        }
        // Each meeting is two tables: numbers 2i-1 and 2i, the teams' sides swapped at the
        // second (`Kind::places` seats each team's second pair there).
        Kind::Teams => {
            let tables = round
                .tables
                .iter()
                .enumerate()
                .flat_map(|(i, t)| {
                    let (a, b) = (t.ns as u32, t.ew as u32);
                    [(a, b), (b, a)]
                        .into_iter()
                        .enumerate()
                        .map(move |(k, (ns, ew))| table(2 * i + k + 1, ns, ew, None))
                })
                .collect();
            (tables, round.bye.map(|b| b as u32))
        }
        Kind::Singles | Kind::Pairs => {
            let tables = round
                .tables
                .iter()
                .map(|t| table(t.number, t.ns as u32, t.ew as u32, None))
                .collect();
            (tables, round.bye.map(|b| b as u32))
        }
    };
    for t in &mut tables {
        t.table = table_id();
    }
    // A table with an entrant gone since the start is not played: the present side gets the bye
    // score (art. 36).
    let absent = tables
        .iter()
        .filter_map(|t| {
            let sides = state.settings.kind.sides(t);
            let gone = |side: usize| {
                sides[side]
                    .iter()
                    .any(|&e| state.entrants.get(e as usize).is_some_and(|e| e.gone()))
            };
            let gone = [gone(0), gone(1)];
            if gone == [false, false] {
                return None;
            }
            let present = bye_score(state.settings.format());
            let nothing = MatchScore { vp: 0, mp: 0 };
            Some((t.table.clone(), scoring::awarded(gone, present, nothing)))
        })
        .collect();
    Ok(RoundPlan {
        number,
        movement,
        tables,
        bye,
        bracket,
        absent,
    })
}

impl RoundPlan {
    /// The round's entries for the log: its start (with `boards`, drawn by the caller: secret),
    /// then the tables of entrants already gone, awarded.
    pub fn into_entries(self, boards: Option<RoundBoards>, at_ms: i64) -> Vec<TournamentEntry> {
        let mut entries = vec![TournamentEntry::RoundStarted {
            round: self.number,
            movement: self.movement.code().to_owned(),
            tables: self.tables,
            bye: self.bye,
            bracket: self.bracket,
            boards,
            at_ms,
        }];
        entries.extend(self.absent.into_iter().map(|(table, result)| {
            TournamentEntry::MatchAwarded {
                round: self.number,
                table,
                result,
                reason: Award::AbsentOpponent.code().into(),
                at_ms,
            }
        }));
        entries
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashSet};

    use burraco_protocol::tournament_log::EntrantPlayer;

    use super::super::testing::{finish, registered, registered_with, start_round};
    use super::*;

    /// Table ids `t-1`, `t-2`... in the order the plan asks for them.
    fn ids() -> impl FnMut() -> String {
        let mut n = 0;
        move || {
            n += 1;
            format!("t-{n}")
        }
    }

    fn plan(state: &TournamentState) -> RoundPlan {
        plan_round(state, ids()).expect("a round to plan")
    }

    /// Plays the round in play to its end, North-South winning every table.
    fn north_south_win(state: &mut TournamentState, tables: &[(u32, u32, String)]) {
        for (_, _, table) in tables {
            finish(state, table, [400, 0]);
        }
    }

    fn meeting(t: &RoundTable) -> (u32, u32) {
        (t.ns.min(t.ew), t.ns.max(t.ew))
    }

    #[test]
    fn a_round_robin_of_four_meets_everyone_once_in_three_rounds() {
        let mut state = registered(&["round_robin"; 3], 4);
        let mut met = HashSet::new();
        for round in 1..=3 {
            let plan = plan(&state);
            assert_eq!(plan.number, round);
            assert_eq!(plan.movement, Movement::RoundRobin);
            assert_eq!(plan.bye, None);
            assert!(plan.bracket.is_empty() && plan.absent.is_empty());
            let numbers: Vec<u32> = plan.tables.iter().map(|t| t.number).collect();
            assert_eq!(numbers, [1, 2]);
            let names: Vec<&str> = plan.tables.iter().map(|t| t.table.as_str()).collect();
            assert_eq!(names, ["t-1", "t-2"], "ids in table order");
            for t in &plan.tables {
                assert!(met.insert(meeting(t)), "round {round}: a rematch {t:?}");
            }
            let tables = start_round(&mut state, 0);
            north_south_win(&mut state, &tables);
        }
        assert_eq!(met.len(), 6, "everyone met everyone");
        assert_eq!(plan_round(&state, ids()), Err(PlanError::NoRoundLeft));
    }

    #[test]
    fn a_round_robin_of_five_rests_each_entrant_once() {
        let mut state = registered(&["round_robin"; 5], 5);
        let mut rested = BTreeSet::new();
        for _ in 0..5 {
            let plan = plan(&state);
            assert_eq!(plan.tables.len(), 2);
            let bye = plan.bye.expect("five entrants: one rests");
            assert!(rested.insert(bye), "{bye} rests twice");
            assert!(
                plan.tables.iter().all(|t| t.ns != bye && t.ew != bye),
                "the resting entrant is at no table"
            );
            let tables = start_round(&mut state, 0);
            north_south_win(&mut state, &tables);
        }
        assert_eq!(rested, (0..5).collect());
    }

    /// docs/TOURNAMENT_RECORD.md: seven entrants, tables 1, 2, 3 in round 1, then 2, 3, 4, then
    /// 1, 3, 4, then 1, 2, 4; the North-South entrant facing the missing one rests.
    #[test]
    fn a_mitchell_of_seven_leaves_out_the_table_of_the_missing_entrant() {
        let mut state = registered(&["mitchell"; 4], 7);
        let mut numbers = Vec::new();
        for _ in 0..4 {
            let plan = plan(&state);
            assert_eq!(plan.movement, Movement::Mitchell);
            assert!(plan.bye.is_some(), "an odd field: someone rests");
            numbers.push(plan.tables.iter().map(|t| t.number).collect::<Vec<u32>>());
            let tables = start_round(&mut state, 0);
            north_south_win(&mut state, &tables);
        }
        assert_eq!(
            numbers,
            [vec![1, 2, 3], vec![2, 3, 4], vec![1, 3, 4], vec![1, 2, 4]]
        );
    }

    #[test]
    fn a_danish_round_pairs_the_leaders_at_table_1() {
        let mut state = registered(&["danish", "danish"], 4);
        let first = start_round(&mut state, 0);
        north_south_win(&mut state, &first);
        let winners: BTreeSet<u32> = first.iter().map(|(ns, _, _)| *ns).collect();
        let plan = plan(&state);
        assert_eq!(plan.movement, Movement::Danish);
        let top: BTreeSet<u32> = [plan.tables[0].ns, plan.tables[0].ew].into();
        assert_eq!(top, winners, "first against second");
    }

    #[test]
    fn a_knockout_seeds_one_against_four_and_its_winners_meet() {
        let mut state = registered(&["knockout"], 4);
        let semis = plan(&state);
        assert_eq!(semis.movement, Movement::Knockout { drawn: false });
        assert_eq!(semis.bracket, [Some(0), Some(3), Some(1), Some(2)]);
        let pairs: Vec<(u32, u32)> = semis.tables.iter().map(|t| (t.ns, t.ew)).collect();
        assert_eq!(pairs, [(0, 3), (1, 2)]);
        let tables = start_round(&mut state, 0);
        north_south_win(&mut state, &tables);
        let final_ = plan(&state);
        assert_eq!(final_.bracket, [Some(0), Some(1)]);
        assert_eq!(final_.tables.len(), 1);
        let tables = start_round(&mut state, 0);
        north_south_win(&mut state, &tables);
        assert_eq!(state.knockout_winner(), Some(0));
        assert_eq!(plan_round(&state, ids()), Err(PlanError::NoRoundLeft));
    }

    #[test]
    fn a_drawn_plan_is_the_same_for_the_same_state() {
        let mut state = registered(&["knockout_drawn"], 6);
        state.seed = 42;
        assert_eq!(plan(&state), plan(&state));
    }

    #[test]
    fn a_fixed_schedule_awards_the_table_of_an_entrant_gone() {
        let mut state = registered(&["round_robin"; 3], 4);
        let first = start_round(&mut state, 0);
        north_south_win(&mut state, &first);
        state
            .apply(&TournamentEntry::Withdrawn {
                entrant: 3,
                reason: "had to leave".into(),
                at_ms: 5,
            })
            .expect("withdrawn");
        let plan = plan(&state);
        assert_eq!(plan.tables.len(), 2, "the schedule keeps its place");
        let gone_at = plan
            .tables
            .iter()
            .find(|t| t.ns == 3 || t.ew == 3)
            .expect("3 is scheduled");
        let [(table, result)] = &plan.absent[..] else {
            panic!("one table awarded: {:?}", plan.absent);
        };
        assert_eq!(table, &gone_at.table);
        let (gone, present) = if gone_at.ns == 3 { (0, 1) } else { (1, 0) };
        let bye = bye_score(state.settings.format());
        assert_eq!(result.vp[present], bye.vp);
        assert_eq!(result.vp[gone], 0);
        let entries = plan.clone().into_entries(None, 9);
        assert!(matches!(
            &entries[1],
            TournamentEntry::MatchAwarded { reason, table: t, .. }
                if reason == Award::AbsentOpponent.code() && t == table
        ));
    }

    #[test]
    fn a_danish_round_leaves_a_withdrawn_entrant_out() {
        let mut state = registered(&["danish", "danish"], 5);
        let first = start_round(&mut state, 0);
        north_south_win(&mut state, &first);
        state
            .apply(&TournamentEntry::Withdrawn {
                entrant: 4,
                reason: "had to leave".into(),
                at_ms: 5,
            })
            .expect("withdrawn");
        let plan = plan(&state);
        assert_eq!(plan.bye, None, "four left: nobody rests");
        assert!(plan.absent.is_empty());
        let mut seated: Vec<u32> = plan.tables.iter().flat_map(|t| [t.ns, t.ew]).collect();
        seated.sort_unstable();
        assert_eq!(seated, [0, 1, 2, 3]);
    }

    #[test]
    fn an_individual_table_seats_four_players() {
        let state = registered_with(&["round_robin"], 8, |w| w.kind = "individual".into());
        let plan = plan(&state);
        assert_eq!(plan.tables.len(), 2);
        let mut seated: Vec<u32> = plan
            .tables
            .iter()
            .flat_map(|t| [Some(t.ns), Some(t.ew), t.ns_partner, t.ew_partner])
            .map(|p| p.expect("four at every table"))
            .collect();
        seated.sort_unstable();
        assert_eq!(seated, (0..8).collect::<Vec<u32>>());
        let six = registered_with(&["round_robin"], 6, |w| w.kind = "individual".into());
        assert_eq!(
            plan_round(&six, ids()),
            Err(PlanError::IndividualNotInFours)
        );
    }

    #[test]
    fn a_teams_meeting_is_two_tables_with_the_sides_swapped() {
        let mut state = registered_with(&["round_robin"], 2, |w| w.kind = "teams".into());
        for entrant in 0..2 {
            for partner in 1..4 {
                state
                    .apply(&TournamentEntry::Registered {
                        entrant,
                        player: EntrantPlayer {
                            player: format!("p{entrant}-{partner}"),
                            name: format!("n{entrant}-{partner}"),
                        },
                        bot: true,
                        code: None,
                        at_ms: 0,
                    })
                    .expect("a team mate");
            }
        }
        let plan = plan(&state);
        let tables: Vec<(u32, u32, u32)> =
            plan.tables.iter().map(|t| (t.number, t.ns, t.ew)).collect();
        let (a, b) = (tables[0].1, tables[0].2);
        assert_eq!(tables, [(1, a, b), (2, b, a)]);
    }

    #[test]
    fn a_round_is_refused_when_it_cannot_start() {
        assert_eq!(
            plan_round(&registered(&["danish"], 1), ids()),
            Err(PlanError::TooFewEntrants)
        );
        let mut state = registered(&["danish", "danish"], 4);
        start_round(&mut state, 0);
        assert_eq!(plan_round(&state, ids()), Err(PlanError::RoundInPlay));
        state
            .apply(&TournamentEntry::Finished { at_ms: 1 })
            .expect("finished");
        assert_eq!(plan_round(&state, ids()), Err(PlanError::Over));
    }
}
