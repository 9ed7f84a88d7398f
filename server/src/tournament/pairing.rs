//! Who meets whom in the next round, by its movement: a pure function of the tournament folded
//! so far and its seed (RULES.md section 11; docs/TOURNAMENT_RECORD.md says who rests). The
//! round's [`super::plan`] turns this into tables.

use burraco_rules::tournament::{
    self as movements, Entrant, Round, danish, drawn_order, first_round, modified_danish, ranking,
};

use super::settings::Movement;
use super::state::TournamentState;

/// An individual event's next round, by the criterion its movements announce (RULES.md section
/// 11: partners change every round, the same partner never twice while the field allows it):
///
/// - the first round, and every `mitchell` or `round_robin` round: partners by the Berger
///   rotation of the first-round order (round r of a round robin among the players pairs the
///   partners, so nobody partners anyone twice in n - 1 such rounds), the partnerships meeting
///   in that order, the first two at table 1;
/// - a later `danish` or `modified_danish` round: by standing ([`individual_by_standing`]).
///
/// Tables as (North, East, South, West); `None` unless the players are a multiple of 4.
pub fn individual_next(state: &TournamentState) -> Option<Vec<[u32; 4]>> {
    let active: Vec<Entrant> = state.active().into_iter().map(|e| e as usize).collect();
    if active.is_empty() || !active.len().is_multiple_of(4) {
        return None;
    }
    let index = state.rounds.len();
    if index > 0
        && matches!(
            state.settings.movement_at(index),
            Some(Movement::Danish | Movement::ModifiedDanish)
        )
    {
        let standings: Vec<_> = state
            .standings_after(state.complete_rounds())
            .into_iter()
            .filter(|s| active.contains(&s.entrant))
            .collect();
        let ranked = ranking(state.settings.preset, &standings);
        let partnered: Vec<(u32, u32)> = state
            .rounds
            .iter()
            .flat_map(|r| &r.tables)
            .flat_map(|t| {
                [
                    t.ns_partner.map(|p| (t.ns, p)),
                    t.ew_partner.map(|p| (t.ew, p)),
                ]
            })
            .flatten()
            .collect();
        let ranked: Vec<u32> = ranked.into_iter().map(|e| e as u32).collect();
        return Some(individual_by_standing(&ranked, |a, b| {
            partnered.contains(&(a, b)) || partnered.contains(&(b, a))
        }));
    }
    let order = if state.settings.draw {
        drawn_order(&active, state.seed)
    } else {
        active
    };
    let rotation = index % movements::round_robin_rounds(order.len());
    let partners = movements::round_robin(&order, rotation)?;
    Some(
        partners
            .tables
            .chunks(2)
            .filter_map(|two| match two {
                [a, b] => Some([a.ns as u32, b.ns as u32, a.ew as u32, b.ew as u32]),
                _ => None,
            })
            .collect(),
    )
}

/// How far down the standings a table looks for players who have not partnered each other.
const STANDING_WINDOW: usize = 12;

/// An individual round by standing: table 1 takes the first four of `ranked` (the standings,
/// best first), table 2 the next four, and so on; at a table of w, x, y, z in standing order
/// the partners are w-z against x-y (the balanced pairing), else w-y against x-z, else w-x
/// against y-z, the first of these in which nobody partners a player they `partnered` before.
/// When none does, the table takes the three players nearest its leader in the standings (the
/// least sum of places, up to [`STANDING_WINDOW`] places down) with whom one does; when the
/// field does not allow it at all, the first four play the balanced pairing. Tables as (North,
/// East, South, West): North-South w and its partner.
pub fn individual_by_standing(
    ranked: &[u32],
    partnered: impl Fn(u32, u32) -> bool,
) -> Vec<[u32; 4]> {
    let fresh = |[w, x, y, z]: [u32; 4]| -> Option<[u32; 4]> {
        [[w, x, z, y], [w, x, y, z], [w, y, x, z]]
            .into_iter()
            .find(|&[n, e, s, w]| !partnered(n, s) && !partnered(e, w))
    };
    let mut pool: Vec<u32> = ranked.to_vec();
    let mut tables = Vec::with_capacity(pool.len() / 4);
    while pool.len() >= 4 {
        let window = pool.len().min(STANDING_WINDOW);
        // The pool's leader and three others, those nearest it in the standings first.
        let mut others: Vec<[usize; 3]> = (1..window)
            .flat_map(|a| {
                (a + 1..window).flat_map(move |b| (b + 1..window).map(move |c| [a, b, c]))
            })
            .collect();
        others.sort_by_key(|&[a, b, c]| (a + b + c, [a, b, c]));
        let chosen = others.into_iter().find_map(|[a, b, c]| {
            fresh([pool[0], pool[a], pool[b], pool[c]]).map(|table| (table, [0, a, b, c]))
        });
        let (table, places) =
            chosen.unwrap_or(([pool[0], pool[1], pool[3], pool[2]], [0, 1, 2, 3]));
        for place in places.into_iter().rev() {
            pool.remove(place);
        }
        tables.push(table);
    }
    tables
}

/// The pairing of the next round: its movement and who meets whom. `None` when every round of
/// the settings was played.
pub fn pair_next(state: &TournamentState) -> Option<(Movement, Round, Vec<Option<u32>>)> {
    let index = state.rounds.len();
    let movement = state.settings.movement_at(index)?;
    let active: Vec<Entrant> = state.active().into_iter().map(|e| e as usize).collect();
    // A fixed schedule keeps the entrants gone since the start in its order: their later
    // opponents get the bye score (art. 36) and the movement does not shift.
    let scheduled: Vec<Entrant> = state.scheduled().into_iter().map(|e| e as usize).collect();
    let order = first_round_order(state, &scheduled);
    let done = state.complete_rounds();
    let standings: Vec<_> = state
        .standings_after(done)
        .into_iter()
        .filter(|s| active.contains(&s.entrant))
        .collect();
    let ranked = ranking(state.settings.preset, &standings);
    let had_bye = state.had_bye();
    // Rounds of the same movement so far: Mitchell and round robin go on from there.
    let same = state
        .rounds
        .iter()
        .filter(|r| r.movement == movement.code())
        .count();
    let active_order: Vec<Entrant> = order
        .iter()
        .copied()
        .filter(|e| active.contains(e))
        .collect();
    let by_standing = || {
        if index == 0 {
            first_round(&active_order)
        } else {
            danish(&ranked, &had_bye)
        }
    };
    if let Movement::Knockout { drawn } = movement {
        let bracket = match state.rounds.last() {
            Some(last) if Movement::is_knockout_code(&last.movement) => {
                state.knockout_winners(last)
            }
            // The first knock-out round seeds by the standings (by the first-round order when
            // nothing was played yet), or by a draw of its own (the tournament's seed and the
            // round's number), so the byes fall by draw.
            _ => {
                let seeds = if drawn {
                    drawn_order(&ranked, state.seed.wrapping_add(index as u64 + 1))
                } else if index == 0 {
                    active_order
                } else {
                    ranked
                };
                seeded_bracket(&seeds)
            }
        };
        // A winner gone since (withdrawn, expelled) leaves its place empty: its next opponent
        // goes through.
        let bracket: Vec<Option<u32>> = bracket
            .into_iter()
            .map(|place| place.filter(|e| active.contains(&(*e as usize))))
            .collect();
        let tables = bracket
            .chunks(2)
            .filter_map(|place| match place {
                [Some(a), Some(b)] => Some((*a as usize, *b as usize)),
                _ => None,
            })
            .enumerate()
            .map(|(i, (ns, ew))| movements::Table {
                number: i + 1,
                ns,
                ew,
            })
            .collect();
        return Some((movement, Round { tables, bye: None }, bracket));
    }
    let round = match movement {
        Movement::Mitchell => movements::mitchell(&order, same).unwrap_or_else(by_standing),
        Movement::RoundRobin => movements::round_robin(&order, same).unwrap_or_else(by_standing),
        Movement::Danish => avoid_forbidden(state, by_standing()),
        Movement::ModifiedDanish => match state.rounds.last() {
            Some(previous) if index > 0 => {
                let previous = Round {
                    tables: previous
                        .tables
                        .iter()
                        .map(|t| movements::Table {
                            number: t.number as usize,
                            ns: t.ns as usize,
                            ew: t.ew as usize,
                        })
                        .collect(),
                    bye: previous.bye.map(|b| b as usize),
                };
                let last = index + 1 == state.settings.movements.len();
                avoid_forbidden(state, modified_danish(&ranked, &previous, last, &had_bye))
            }
            _ => avoid_forbidden(state, by_standing()),
        },
        Movement::Knockout { .. } => unreachable!("paired above"),
    };
    Some((movement, round, Vec::new()))
}

/// The first-round order: the director's (for `seating: "director"`, entrants it left out
/// after it, in registration order), a seeded draw, or registration order; of `entrants`.
fn first_round_order(state: &TournamentState, entrants: &[Entrant]) -> Vec<Entrant> {
    if state.settings.draw {
        return drawn_order(entrants, state.seed);
    }
    let Some(seating) = &state.seating else {
        return entrants.to_vec();
    };
    let mut order: Vec<Entrant> = seating
        .iter()
        .map(|&e| e as usize)
        .filter(|e| entrants.contains(e))
        .collect();
    let rest: Vec<Entrant> = entrants
        .iter()
        .copied()
        .filter(|e| !order.contains(e))
        .collect();
    order.extend(rest);
    order
}

/// A round paired by standing with no table of two entrants the director forbade to meet: such
/// a table's East-West swaps with the nearest table's (below first, then above) whose swap
/// leaves both tables allowed. Left as it is when no swap does.
pub fn avoid_forbidden(state: &TournamentState, mut round: Round) -> Round {
    let forbids = |a: usize, b: usize| state.forbids(a as u32, b as u32);
    for i in 0..round.tables.len() {
        if !forbids(round.tables[i].ns, round.tables[i].ew) {
            continue;
        }
        let candidates = (i + 1..round.tables.len()).chain((0..i).rev());
        for j in candidates {
            let (a, b) = (&round.tables[i], &round.tables[j]);
            if !forbids(a.ns, b.ew) && !forbids(b.ns, a.ew) {
                let ew = round.tables[i].ew;
                round.tables[i].ew = round.tables[j].ew;
                round.tables[j].ew = ew;
                break;
            }
        }
    }
    round
}

/// A bracket to the next power of two, seeds in the usual places (seed 1 and seed 2 meet only
/// in the final), the missing places at the bottom seeds' opponents: the byes go to the top
/// seeds.
pub fn seeded_bracket(seeds: &[Entrant]) -> Vec<Option<u32>> {
    let size = seeds.len().max(2).next_power_of_two();
    // Places by seed number (from 1): [1, 2] -> [1, 4, 2, 3] -> [1, 8, 4, 5, 2, 7, 3, 6]...
    let mut places = vec![1usize];
    while places.len() < size {
        let n = places.len() * 2;
        places = places.iter().flat_map(|&s| [s, n + 1 - s]).collect();
    }
    places
        .into_iter()
        .map(|seed| seeds.get(seed - 1).map(|&e| e as u32))
        .collect()
}

#[cfg(test)]
mod tests {
    use burraco_protocol::tournament_log::{RoundTable, TournamentEntry};

    use super::super::testing::registered_with;
    use super::*;

    fn registered(kind: &str, movements: &[&str], entrants: u32) -> TournamentState {
        registered_with(movements, entrants, |wire| wire.kind = kind.into())
    }

    #[test]
    fn individual_partners_never_repeat_in_n_minus_1_rounds() {
        let mut state = registered("individual", &["round_robin"; 7], 8);
        let mut partners = std::collections::HashSet::new();
        for round in 1..=7 {
            let tables = individual_next(&state).expect("8 players");
            assert_eq!(tables.len(), 2);
            let mut seated: Vec<u32> = tables.iter().flatten().copied().collect();
            seated.sort_unstable();
            assert_eq!(seated, (0..8).collect::<Vec<u32>>());
            for [n, e, s, w] in &tables {
                assert!(partners.insert((*n.min(s), *n.max(s))), "round {round}");
                assert!(partners.insert((*e.min(w), *e.max(w))), "round {round}");
            }
            let entry = TournamentEntry::RoundStarted {
                round,
                movement: "round_robin".into(),
                tables: Vec::new(),
                bye: None,
                bracket: Vec::new(),
                boards: None,
                at_ms: 0,
            };
            state.apply(&entry).expect("round");
        }
        assert_eq!(partners.len(), 28, "everyone partnered everyone once");
        assert!(individual_next(&registered("individual", &["danish"], 6)).is_none());
    }

    #[test]
    fn individual_by_standing_seats_the_standings_in_fours_and_avoids_old_partners() {
        let never = |_: u32, _: u32| false;
        // Nobody partnered before: 1st with 4th against 2nd and 3rd, table by table.
        assert_eq!(
            individual_by_standing(&[7, 6, 5, 4, 3, 2, 1, 0], never),
            [[7, 6, 4, 5], [3, 2, 0, 1]]
        );
        // 7 and 4 partnered: the next pairing at the table, 7-5 against 6-4.
        let old = [(7, 4), (6, 5)];
        let before = |a: u32, b: u32| old.contains(&(a, b)) || old.contains(&(b, a));
        assert_eq!(
            individual_by_standing(&[7, 6, 5, 4, 3, 2, 1, 0], before),
            [[7, 6, 5, 4], [3, 2, 0, 1]]
        );
        // The top four partnered each other in every way, so a table holds at most two of
        // them: the leader's takes the 2nd, 5th and 6th (7-2 against 6-3), the next the rest.
        let old = [(7, 6), (7, 5), (7, 4), (6, 5), (6, 4), (5, 4)];
        let before = |a: u32, b: u32| old.contains(&(a, b)) || old.contains(&(b, a));
        let tables = individual_by_standing(&[7, 6, 5, 4, 3, 2, 1, 0], before);
        assert_eq!(tables, [[7, 6, 2, 3], [5, 4, 0, 1]]);
        for [n, e, s, w] in &tables {
            assert!(!before(*n, *s) && !before(*e, *w), "{tables:?}");
        }
        // Four players who all partnered each other: the field does not allow it.
        let four = individual_by_standing(&[7, 6, 5, 4], before);
        assert_eq!(four, [[7, 6, 4, 5]]);
    }

    #[test]
    fn an_individual_danish_round_follows_the_standings_and_no_partner_repeats() {
        let mut state = registered("individual", &["round_robin", "danish", "danish"], 8);
        let first = individual_next(&state).expect("8 players");
        let entry = TournamentEntry::RoundStarted {
            round: 1,
            movement: "round_robin".into(),
            tables: first
                .iter()
                .enumerate()
                .map(|(i, [n, e, s, w])| RoundTable {
                    number: i as u32 + 1,
                    table: format!("t{i}"),
                    ns: *n,
                    ew: *e,
                    ns_partner: Some(*s),
                    ew_partner: Some(*w),
                })
                .collect(),
            bye: None,
            bracket: Vec::new(),
            boards: None,
            at_ms: 0,
        };
        state.apply(&entry).expect("round 1");
        let second = individual_next(&state).expect("8 players");
        let partners = |tables: &[[u32; 4]]| -> Vec<(u32, u32)> {
            tables
                .iter()
                .flat_map(|[n, e, s, w]| [(*n.min(s), *n.max(s)), (*e.min(w), *e.max(w))])
                .collect()
        };
        for pair in partners(&second) {
            assert!(
                !partners(&first).contains(&pair),
                "{pair:?} partnered again"
            );
        }
        // Nothing scored yet: the standings are registration order, 0-3 at table 1.
        let mut top: Vec<u32> = second[0].to_vec();
        top.sort_unstable();
        assert_eq!(top, [0, 1, 2, 3], "{second:?}");
    }

    #[test]
    fn a_drawn_knockout_gives_its_byes_by_draw() {
        let mut bye_holders = std::collections::BTreeSet::new();
        for seed in 0..24u64 {
            let mut state = registered("singles", &["knockout_drawn"], 5);
            state.seed = seed;
            let (movement, round, bracket) = pair_next(&state).expect("a round");
            assert_eq!(movement, Movement::Knockout { drawn: true });
            assert_eq!(bracket.len(), 8);
            assert_eq!(
                round.tables.len(),
                1,
                "five in a bracket of eight: one match, three byes"
            );
            for place in bracket.chunks(2) {
                match place {
                    [Some(a), None] | [None, Some(a)] => {
                        bye_holders.insert(*a);
                    }
                    [Some(_), Some(_)] => {}
                    other => panic!("two empty places meet: {other:?}"),
                }
            }
            // The same seed draws the same bracket (a restart pairs it again the same).
            assert_eq!(pair_next(&state).expect("a round").2, bracket);
        }
        // Seeded by the standings the byes would go to entrants 0, 1 and 2 every time.
        assert!(
            bye_holders.iter().any(|&e| e > 2),
            "byes by draw reach every entrant: {bye_holders:?}"
        );
    }

    #[test]
    fn a_bracket_of_five_gives_the_top_three_seeds_byes() {
        assert_eq!(
            seeded_bracket(&[10, 11, 12, 13, 14]),
            [
                Some(10),
                None,
                Some(13),
                Some(14),
                Some(11),
                None,
                Some(12),
                None
            ]
        );
        assert_eq!(seeded_bracket(&[1, 2]), [Some(1), Some(2)]);
        // Eight: 1 v 8, 4 v 5, 2 v 7, 3 v 6; seeds 1 and 2 in different halves.
        let eight: Vec<Entrant> = (1..=8).collect();
        let places: Vec<u32> = seeded_bracket(&eight).into_iter().flatten().collect();
        assert_eq!(places, [1, 8, 4, 5, 2, 7, 3, 6]);
    }
}
