//! Tournaments (RULES.md section 11): seating and movements, standings, and the scores the codes
//! give for matches that are not played out (bye, abandonment, late arrival), plus duplicate
//! matchpoints.
//!
//! Plain data in, plain data out: an entrant (pair, team or player) is the caller's [`Entrant`]
//! id; a round is a list of [`Table`]s and at most one bye. Nothing here keeps state across
//! rounds: the caller passes the standings, the previous round and who already had a bye.

use std::cmp::Reverse;
use std::time::Duration;

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use crate::config::Preset;
use crate::matches::MatchResult;
use crate::seat::Side;
use crate::vp::VpTable;

/// A pair, team or player, by the caller's id (for example its registration number).
pub type Entrant = usize;

/// Why a seating was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    #[error("entrant {0} is listed twice")]
    DuplicateEntrant(Entrant),
    #[error(
        "the director's order must list each of the {entrants} entrants' positions exactly once"
    )]
    NotAPermutation { entrants: usize },
}

/// One table of a round: `ns` sits North-South, `ew` East-West.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Table {
    /// The table's number, from 1. An incomplete (bye) table keeps its number and is left out.
    pub number: usize,
    pub ns: Entrant,
    pub ew: Entrant,
}

/// Who plays whom in one round.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Round {
    pub tables: Vec<Table>,
    /// The entrant at the incomplete table, with an odd number of entrants.
    pub bye: Option<Entrant>,
}

impl Round {
    /// The table where `entrant` plays, if it plays.
    pub fn table_of(&self, entrant: Entrant) -> Option<&Table> {
        self.tables
            .iter()
            .find(|t| t.ns == entrant || t.ew == entrant)
    }

    /// The entrant's opponent this round; `None` for the bye or an entrant not in the round.
    pub fn opponent(&self, entrant: Entrant) -> Option<Entrant> {
        self.table_of(entrant)
            .map(|t| if t.ns == entrant { t.ew } else { t.ns })
    }

    /// Whether `a` and `b` meet in this round.
    pub fn meet(&self, a: Entrant, b: Entrant) -> bool {
        a != b && self.opponent(a) == Some(b)
    }
}

/// How the first round is seated (FITAB art. 2, FE.BUR.IT art. 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seating {
    /// By registration order: the entrants as listed.
    Registration,
    /// By the director: `order[i]` is the position, in the registration list, of the entrant
    /// seated i-th.
    Director(Vec<usize>),
    /// By draw: a seeded shuffle of the registration list ([`drawn_order`]).
    Draw(u64),
}

/// The first-round order of `entrants` (registration order), checked and seated as asked. The
/// order feeds [`first_round`], [`mitchell`] or [`round_robin`].
pub fn seating_order(
    entrants: &[Entrant],
    seating: &Seating,
) -> Result<Vec<Entrant>, TournamentError> {
    let mut seen = entrants.to_vec();
    seen.sort_unstable();
    if let Some(pair) = seen.windows(2).find(|w| w[0] == w[1]) {
        return Err(TournamentError::DuplicateEntrant(pair[0]));
    }
    match seating {
        Seating::Registration => Ok(entrants.to_vec()),
        Seating::Draw(seed) => Ok(drawn_order(entrants, *seed)),
        Seating::Director(order) => {
            let mut used = vec![false; entrants.len()];
            let valid = order.len() == entrants.len()
                && order
                    .iter()
                    .all(|&i| i < used.len() && !std::mem::replace(&mut used[i], true));
            if !valid {
                return Err(TournamentError::NotAPermutation {
                    entrants: entrants.len(),
                });
            }
            Ok(order.iter().map(|&i| entrants[i]).collect())
        }
    }
}

/// The draw for the first round: `entrants` shuffled by a seed any party can recompute.
///
/// The same algorithm as the deal (RULES.md section 3) with a 64-bit seed: ChaCha20 keyed with the
/// seed's 8 little-endian bytes followed by 24 zero bytes, then Fisher-Yates from the last index
/// down, each index drawn uniformly in 0..=i by rejection.
pub fn drawn_order(entrants: &[Entrant], seed: u64) -> Vec<Entrant> {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    let mut rng = ChaCha20Rng::from_seed(key);
    let mut order = entrants.to_vec();
    crate::deal::fisher_yates(&mut order, &mut rng);
    order
}

/// The first round from a seating order: the first two at table 1 (North-South, East-West), the
/// next two at table 2, and so on; with an odd number the last has the bye. This is round 0 of
/// [`mitchell`] too.
pub fn first_round(order: &[Entrant]) -> Round {
    let mut round = Round::default();
    for (k, chunk) in order.chunks(2).enumerate() {
        match *chunk {
            [ns, ew] => round.tables.push(Table {
                number: k + 1,
                ns,
                ew,
            }),
            [alone] => round.bye = Some(alone),
            _ => {}
        }
    }
    round
}

/// Mitchell movement (FITAB art. 2 C; FE.BUR.IT art. 2): North-South stay at their table, East-West
/// move up one table each round (from the last table back to table 1).
///
/// `order` is the first-round order ([`seating_order`]); `round` counts from 0, which is
/// [`first_round`]. With t tables there are t rounds before an East-West pair would meet a
/// North-South one again; later rounds are `None`. With an odd number of entrants the last
/// table lacks its East-West pair: the North-South pair it meets in turn has the bye, so each
/// North-South pair rests once in t rounds (FE.BUR.IT art. 25: the bye goes to the pair that
/// progressively occupies the incomplete table).
pub fn mitchell(order: &[Entrant], round: usize) -> Option<Round> {
    let tables = order.len().div_ceil(2);
    if round >= tables {
        return None;
    }
    let mut result = Round::default();
    for k in 0..tables {
        let ns = order[2 * k];
        // The East-West pair here started at the table `round` places below.
        let start = (k + tables - round) % tables;
        match order.get(2 * start + 1) {
            Some(&ew) => result.tables.push(Table {
                number: k + 1,
                ns,
                ew,
            }),
            None => result.bye = Some(ns),
        }
    }
    Some(result)
}

/// The entrant who rests when the number is odd: the lowest in the standings who has not rested
/// yet in the session (FE.BUR.IT art. 25; FITAB art. 37: a pair rests only once per session); if
/// all have, the lowest. `None` with an even number.
pub fn bye_for(ranking: &[Entrant], had_bye: &[Entrant]) -> Option<Entrant> {
    if ranking.len().is_multiple_of(2) {
        return None;
    }
    ranking
        .iter()
        .rev()
        .find(|e| !had_bye.contains(e))
        .or(ranking.last())
        .copied()
}

/// Danish pairing (FITAB art. 2 A; FE.BUR.IT art. 2): by the current standings (`ranking`, best
/// first, as from [`ranking`]), 1st v 2nd at table 1, 3rd v 4th at table 2... (FEDIBUR art. 9:
/// the strongest play at the first tables). The higher-ranked entrant sits North-South. With an
/// odd number, the bye goes as in [`bye_for`] and the others pair up in order.
pub fn danish(ranking: &[Entrant], had_bye: &[Entrant]) -> Round {
    let bye = bye_for(ranking, had_bye);
    let rest: Vec<Entrant> = ranking
        .iter()
        .copied()
        .filter(|&e| Some(e) != bye)
        .collect();
    Round {
        bye,
        ..first_round(&rest)
    }
}

/// Modified Danish pairing (FITAB art. 2 B, 2014 text): as [`danish`], except that entrants who
/// met in the `previous` round may not meet again, save in the last round of the competition
/// (`last_round`), which is paired as pure Danish.
///
/// Each entrant, from the top, meets the highest-ranked free entrant it did not just meet,
/// backtracking when that would leave the last ones with only a rematch. When no pairing avoids
/// every rematch (two entrants, or three whose only possible bye forces one), the round is pure
/// Danish.
pub fn modified_danish(
    ranking: &[Entrant],
    previous: &Round,
    last_round: bool,
    had_bye: &[Entrant],
) -> Round {
    if last_round {
        return danish(ranking, had_bye);
    }
    let candidates: Vec<Option<Entrant>> = if ranking.len().is_multiple_of(2) {
        vec![None]
    } else {
        let fresh = ranking.iter().rev().filter(|e| !had_bye.contains(e));
        let rested = ranking.iter().rev().filter(|e| had_bye.contains(e));
        fresh.chain(rested).map(|&e| Some(e)).collect()
    };
    for bye in candidates {
        let rest: Vec<Entrant> = ranking
            .iter()
            .copied()
            .filter(|&e| Some(e) != bye)
            .collect();
        if let Some(pairs) = pair_avoiding(&rest, &|a, b| previous.meet(a, b)) {
            let tables = pairs
                .into_iter()
                .enumerate()
                .map(|(k, (ns, ew))| Table {
                    number: k + 1,
                    ns,
                    ew,
                })
                .collect();
            return Round { tables, bye };
        }
    }
    danish(ranking, had_bye)
}

/// Pairs `rest` in order, the first with the first allowed partner, backtracking as needed.
fn pair_avoiding(
    rest: &[Entrant],
    forbidden: &dyn Fn(Entrant, Entrant) -> bool,
) -> Option<Vec<(Entrant, Entrant)>> {
    let Some((&first, others)) = rest.split_first() else {
        return Some(Vec::new());
    };
    for (i, &partner) in others.iter().enumerate() {
        if forbidden(first, partner) {
            continue;
        }
        let remaining: Vec<Entrant> = others
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &e)| e)
            .collect();
        if let Some(mut pairs) = pair_avoiding(&remaining, forbidden) {
            pairs.insert(0, (first, partner));
            return Some(pairs);
        }
    }
    None
}

/// Rounds of a round robin among `entrants`: each meets every other once, one bye each when the
/// number is odd.
pub fn round_robin_rounds(entrants: usize) -> usize {
    match entrants {
        0 => 0,
        n if n % 2 == 0 => n - 1,
        n => n,
    }
}

/// Round robin ("all'italiana", FITAB art. 2 D) by the Berger tables: `order[i]` holds Berger
/// number i + 1; `round` counts from 0; rounds past [`round_robin_rounds`] are `None`.
///
/// With n (even) numbers, round r pairs number n with the first of the n - 1 others rotated by
/// r·n/2, and the remaining ones from the outside in; number n sits North-South in the even
/// rounds (counting from 1), and on the other tables the first of each pair sits North-South.
/// For 6: round 1 is 1-6, 2-5, 3-4; round 2 is 6-4, 5-3, 1-2; and so on, as printed in the
/// Berger tables. With an odd number an empty number n + 1 is added: its opponent has the bye.
pub fn round_robin(order: &[Entrant], round: usize) -> Option<Round> {
    if round >= round_robin_rounds(order.len()) {
        return None;
    }
    let n = order.len() + order.len() % 2;
    let fixed = n - 1;
    let rotated = |k: usize| (round * (n / 2) + k) % (n - 1);
    let mut pairings = Vec::with_capacity(n / 2);
    pairings.push(if round % 2 == 1 {
        (fixed, rotated(0))
    } else {
        (rotated(0), fixed)
    });
    for k in 1..n / 2 {
        pairings.push((rotated(k), rotated(n - 1 - k)));
    }
    let mut result = Round::default();
    for (ns, ew) in pairings {
        match (order.get(ns), order.get(ew)) {
            (Some(&ns), Some(&ew)) => result.tables.push(Table {
                number: result.tables.len() + 1,
                ns,
                ew,
            }),
            (Some(&alone), None) | (None, Some(&alone)) => result.bye = Some(alone),
            (None, None) => {}
        }
    }
    Some(result)
}

/// What a match is, for the scores the codes give when it is not played out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MatchFormat {
    pub preset: Preset,
    /// Hands in the match (the round's "turno da N mani").
    pub hands: u8,
    /// A team match (FITAB and FE.BUR.IT have team columns and a team bye score).
    pub teams: bool,
}

impl MatchFormat {
    /// The VP column of such a match ([`VpTable::for_match`]).
    pub fn vp_table(self) -> VpTable {
        VpTable::for_match(self.preset, self.hands, self.teams)
    }

    /// FITAB arts. 36 and 37 set some scores by "turni da 2 o 3 mani" and "da 4 mani"; longer
    /// matches count as 4, a single hand as 2-3.
    fn four_hands(self) -> bool {
        self.hands >= 4
    }
}

/// One entrant's score for one match: VP and signed MP (positive for the winner).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MatchScore {
    pub vp: u8,
    pub mp: i32,
}

impl MatchScore {
    /// Nothing: the leaving pair's score, and both pairs' when both leave (FITAB art. 36).
    pub const ZERO: MatchScore = MatchScore { vp: 0, mp: 0 };

    /// A side's score in a finished match; `None` for a match by points, which has no VP.
    pub fn of(result: &MatchResult, side: Side) -> Option<MatchScore> {
        Some(MatchScore {
            vp: result.vp?[side.index()],
            mp: result.match_points(side),
        })
    }

    /// The score for a lead of `mp` points (negative when behind) in a match on `table`.
    pub fn from_margin(table: VpTable, mp: i32) -> MatchScore {
        let (winner, loser) = table.victory_points(mp);
        MatchScore {
            vp: if mp >= 0 { winner } else { loser },
            mp,
        }
    }

    /// `vp` with its "equivalent MP" in `table` ([`VpTable::equivalent_mp`]); VP above 20 count
    /// as 20.
    fn with_equivalent_mp(table: VpTable, vp: u8) -> MatchScore {
        let vp = vp.min(VpTable::MAX_VP);
        MatchScore {
            vp,
            mp: table.equivalent_mp(vp).unwrap_or_default(),
        }
    }
}

/// The score of an entrant that does not play a round: the bye at an incomplete table, once per
/// pair per session ([`bye_for`]). Also given to the innocent pair of an abandoned match
/// ([`abandonment`]) and to every later opponent of the pair that left (FITAB art. 36; FE.BUR.IT
/// art. 25).
///
/// - `fitab` (art. 37): 14 VP / 315 MP with 2 hands, 14 / 365 with 3, 12 / 315 with 4; team
///   matches 12 / 365. One hand counts as 2, more than 4 as 4.
/// - `feburit` (art. 25): 13 VP / 450 MP ("65% of the maximum"), whatever the match.
/// - `fedibur`: the regulation has no bye. It takes FITAB's score for the 3-hand matches its
///   tournament turns are (art. 9: at least three hands), 14 VP, with the MP of the first 14-6
///   row of its own table, 355, as FITAB's bye MP are the first MP of their rows.
pub fn bye_score(format: MatchFormat) -> MatchScore {
    let (vp, mp) = match format.preset {
        Preset::Fitab if format.teams => (12, 365),
        Preset::Fitab => match format.hands {
            0..=2 => (14, 315),
            3 => (14, 365),
            _ => (12, 315),
        },
        Preset::Feburit => (13, 450),
        Preset::Fedibur => (14, 355),
    };
    MatchScore { vp, mp }
}

/// The scores of a match one side abandoned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Abandoned {
    pub innocent: MatchScore,
    pub leaver: MatchScore,
}

/// A pair leaves a match (FITAB art. 36; FE.BUR.IT art. 25). `innocent_lead` is the innocent
/// pair's total minus the leaver's when play stopped (negative if it was behind).
///
/// The innocent pair gets the [`bye_score`], unless its score at the interruption (VP by the
/// match's table, and that lead as MP) was better: compared by VP, then MP. The leaver loses
/// "a 0": 0 VP, and the innocent pair's MP with the sign turned, so leaving never costs fewer
/// MP than the innocent pair gains. Later opponents of the leaver get the bye score.
pub fn abandonment(format: MatchFormat, innocent_lead: i32) -> Abandoned {
    let bye = bye_score(format);
    let earned = MatchScore::from_margin(format.vp_table(), innocent_lead);
    let innocent = if (earned.vp, earned.mp) > (bye.vp, bye.mp) {
        earned
    } else {
        bye
    };
    Abandoned {
        innocent,
        leaver: MatchScore {
            vp: 0,
            mp: innocent.mp.saturating_neg(),
        },
    }
}

/// FITAB art. 36: a pair that cannot go on for force majeure, and cannot be replaced, gets 6 VP
/// in matches of 2 or 3 hands and 8 VP in matches of 4 (with their equivalent MP), or 0 if the
/// arbiter finds that this would give it an unearned place (not decided here). The other codes
/// give such a pair nothing: `None`.
pub fn force_majeure_leaver_score(format: MatchFormat) -> Option<MatchScore> {
    (format.preset == Preset::Fitab).then(|| {
        let vp = if format.four_hands() { 8 } else { 6 };
        MatchScore::with_equivalent_mp(format.vp_table(), vp)
    })
}

/// FITAB art. 37 bis (2014): when a pair is expelled from the tournament, each pair it met before
/// gets 12 VP for that match if it lost, or keeps its score if it won with more than 12 VP.
pub fn expelled_opponent_vp(vp_earned: u8) -> u8 {
    vp_earned.clamp(12, VpTable::MAX_VP)
}

/// What a late arrival costs (one late pair; when both are late each is judged on its own, and
/// after 10 minutes both lose with the late pair's score, FITAB art. 37).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LateArrival {
    OnTime,
    /// The match is played. `warning` counts towards the standings penalty
    /// ([`warning_penalty_vp`]); the points are added to each pair's match total.
    Penalised {
        warning: bool,
        present_points: i32,
        late_points: i32,
    },
    /// The match is not played: it is lost by the late pair.
    Forfeit {
        present: MatchScore,
        late: MatchScore,
    },
}

/// The penalty for a pair `delay` late at the start of a match.
///
/// - `fitab` (art. 37), and `fedibur`, whose regulation has no such rule: up to 2 minutes
///   nothing; after 2 minutes a warning and 100 points to the present pair; from 5 to 10
///   minutes a further 50 (150 in all); after 10 minutes the match is lost: the present pair
///   gets 70% of the maximum VP (14), 60% (12) in 4-hand matches, the late pair 6 VP (2-3 hands)
///   or 8 (4 hands), each with its equivalent MP ([`VpTable::equivalent_mp`]: 14 VP are 315 MP in
///   a 2-hand FITAB match, the same as its bye).
/// - `feburit` (art. 26): up to 2 minutes a warning; over 2 and up to 10 minutes a warning and
///   100 points off the late pair's total; over 10 minutes the match is lost 13-7 VP, 450 MP.
pub fn late_arrival(format: MatchFormat, delay: Duration) -> LateArrival {
    const MINUTE: u64 = 60;
    let over = |minutes: u64| delay > Duration::from_secs(minutes * MINUTE);
    let from = |minutes: u64| delay >= Duration::from_secs(minutes * MINUTE);
    match format.preset {
        Preset::Feburit => {
            if over(10) {
                LateArrival::Forfeit {
                    present: MatchScore { vp: 13, mp: 450 },
                    late: MatchScore { vp: 7, mp: -450 },
                }
            } else if over(2) {
                LateArrival::Penalised {
                    warning: true,
                    present_points: 0,
                    late_points: -100,
                }
            } else if delay > Duration::ZERO {
                LateArrival::Penalised {
                    warning: true,
                    present_points: 0,
                    late_points: 0,
                }
            } else {
                LateArrival::OnTime
            }
        }
        Preset::Fitab | Preset::Fedibur => {
            if over(10) {
                let table = format.vp_table();
                let (present, late) = if format.four_hands() {
                    (12, 8)
                } else {
                    (14, 6)
                };
                LateArrival::Forfeit {
                    present: MatchScore::with_equivalent_mp(table, present),
                    late: MatchScore::with_equivalent_mp(table, late),
                }
            } else if over(2) {
                LateArrival::Penalised {
                    warning: true,
                    present_points: if from(5) { 150 } else { 100 },
                    late_points: 0,
                }
            } else {
                LateArrival::OnTime
            }
        }
    }
}

/// VP taken off an entrant's standings for its warnings, without benefit to anyone else.
///
/// - `fitab` (art. 21, also in the 2014 text) and `fedibur` (silent; RULES.md states FITAB's rule
///   for all): 1 VP for every two warnings. The article also takes off "equivalent MP", which it
///   does not quantify: only the VP are taken.
/// - `feburit` (arts. 4 and 26): 1 VP for each warning after the first.
pub fn warning_penalty_vp(preset: Preset, warnings: u32) -> u32 {
    match preset {
        Preset::Fitab | Preset::Fedibur => warnings / 2,
        Preset::Feburit => warnings.saturating_sub(1),
    }
}

/// An entrant's running totals in the standings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Standing {
    pub entrant: Entrant,
    /// VP earned, before the warnings' penalty.
    pub vp: i32,
    /// Signed MP, summed over the matches.
    pub mp: i32,
    /// Burraco bonuses scored, summed over the matches (FEDIBUR art. 9's last tie-break).
    pub burraco_bonus: i32,
    pub warnings: u32,
    /// Byes had in the session (a pair rests only once, FITAB art. 37).
    pub byes: u32,
}

impl Standing {
    pub fn new(entrant: Entrant) -> Standing {
        Standing {
            entrant,
            ..Standing::default()
        }
    }

    /// Adds a match: its score and the burraco bonuses the entrant scored in it.
    pub fn add_match(&mut self, score: MatchScore, burraco_bonus: i32) {
        self.vp += i32::from(score.vp);
        self.mp = self.mp.saturating_add(score.mp);
        self.burraco_bonus = self.burraco_bonus.saturating_add(burraco_bonus);
    }

    /// Adds a bye ([`bye_score`]).
    pub fn add_bye(&mut self, score: MatchScore) {
        self.add_match(score, 0);
        self.byes += 1;
    }

    pub fn warn(&mut self) {
        self.warnings += 1;
    }

    /// The VP the standings count: earned minus the warnings' penalty.
    pub fn ranking_vp(&self, preset: Preset) -> i32 {
        let penalty = i32::try_from(warning_penalty_vp(preset, self.warnings)).unwrap_or(i32::MAX);
        self.vp.saturating_sub(penalty)
    }
}

/// The standings, best first (RULES.md section 11; FEDIBUR art. 9): by VP (after the warnings'
/// penalty), then MP, then burraco bonus points; entrants still equal keep the order given
/// (e.g. registration order).
pub fn standings(preset: Preset, entries: &[Standing]) -> Vec<Standing> {
    let mut sorted = entries.to_vec();
    sorted.sort_by_key(|s| Reverse((s.ranking_vp(preset), s.mp, s.burraco_bonus)));
    sorted
}

/// The entrants in standings order, as [`danish`] and [`modified_danish`] take them.
pub fn ranking(preset: Preset, entries: &[Standing]) -> Vec<Entrant> {
    standings(preset, entries)
        .iter()
        .map(|s| s.entrant)
        .collect()
}

/// Duplicate boards (RULES.md section 11; FIGB art. 78 A): on one board, each table's result is
/// compared with those of the other tables that played it, from the same line: 2 matchpoints
/// for each lower result, 1 for each equal one, 0 for each higher one.
///
/// `results[i]` is one line's result at table i (for Burraco, its total minus the opponents');
/// call once with the North-South results and once with the East-West ones. The matchpoints of
/// a board add up to n·(n - 1) for n tables; the top is 2·(n - 1).
pub fn matchpoints(results: &[i32]) -> Vec<u32> {
    results
        .iter()
        .map(|&mine| {
            results
                .iter()
                .map(|&other| match mine.cmp(&other) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                })
                .sum::<u32>()
                // Not compared with itself.
                - 1
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs_of(round: &Round) -> Vec<(Entrant, Entrant)> {
        round.tables.iter().map(|t| (t.ns, t.ew)).collect()
    }

    /// Every entrant appears exactly once in a round (at a table or as the bye).
    fn assert_complete(round: &Round, entrants: &[Entrant]) {
        let mut seen: Vec<Entrant> = round
            .tables
            .iter()
            .flat_map(|t| [t.ns, t.ew])
            .chain(round.bye)
            .collect();
        seen.sort_unstable();
        let mut expected = entrants.to_vec();
        expected.sort_unstable();
        assert_eq!(seen, expected, "{round:?}");
    }

    #[test]
    fn seating_by_registration_director_and_draw() {
        let entrants = [10, 11, 12, 13, 14];
        assert_eq!(
            seating_order(&entrants, &Seating::Registration).unwrap(),
            entrants
        );
        assert_eq!(
            seating_order(&entrants, &Seating::Director(vec![4, 0, 3, 1, 2])).unwrap(),
            [14, 10, 13, 11, 12]
        );
        for bad in [vec![0, 1, 2, 3], vec![0, 1, 2, 3, 3], vec![0, 1, 2, 3, 5]] {
            assert_eq!(
                seating_order(&entrants, &Seating::Director(bad)),
                Err(TournamentError::NotAPermutation { entrants: 5 })
            );
        }
        assert_eq!(
            seating_order(&[1, 2, 1], &Seating::Registration),
            Err(TournamentError::DuplicateEntrant(1))
        );
        let drawn = seating_order(&entrants, &Seating::Draw(7)).unwrap();
        assert_eq!(drawn, drawn_order(&entrants, 7));
    }

    #[test]
    fn draw_is_a_reproducible_permutation() {
        let entrants: Vec<Entrant> = (0..20).collect();
        let a = drawn_order(&entrants, 1);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, entrants);
        assert_eq!(a, drawn_order(&entrants, 1));
        assert_ne!(a, drawn_order(&entrants, 2));
        assert_ne!(a, entrants);
        assert_eq!(drawn_order(&[], 3), Vec::<Entrant>::new());
        assert_eq!(drawn_order(&[5], 3), [5]);
        // Pinned: the draw must never change for a published seed.
        assert_eq!(
            drawn_order(&[0, 1, 2, 3, 4, 5, 6, 7], 0),
            PINNED_DRAW_SEED_0
        );
    }

    const PINNED_DRAW_SEED_0: [Entrant; 8] = [3, 2, 5, 7, 1, 0, 4, 6];

    #[test]
    fn first_round_pairs_in_order() {
        let r = first_round(&[3, 1, 4, 5, 9]);
        assert_eq!(pairs_of(&r), [(3, 1), (4, 5)]);
        assert_eq!(r.bye, Some(9));
        assert_eq!(r.tables[1].number, 2);
        assert_eq!(r.opponent(1), Some(3));
        assert_eq!(r.opponent(9), None);
        assert!(r.meet(4, 5) && r.meet(5, 4) && !r.meet(3, 4));
        assert_eq!(
            first_round(&[3, 1, 4, 5, 9]),
            mitchell(&[3, 1, 4, 5, 9], 0).unwrap()
        );
    }

    #[test]
    fn mitchell_ew_move_up_one_table() {
        let order: Vec<Entrant> = (0..8).collect();
        let r1 = mitchell(&order, 1).unwrap();
        // Table 1: NS 0 meets the EW pair of table 4 (7); table 2: NS 2 meets 1; ...
        assert_eq!(pairs_of(&r1), [(0, 7), (2, 1), (4, 3), (6, 5)]);
        let mut met = Vec::new();
        for r in 0..4 {
            let round = mitchell(&order, r).unwrap();
            assert_complete(&round, &order);
            assert_eq!(round.bye, None);
            for (k, t) in round.tables.iter().enumerate() {
                assert_eq!(t.number, k + 1);
                assert_eq!(t.ns, order[2 * k], "North-South stay");
                met.push((t.ns, t.ew));
            }
        }
        met.sort_unstable();
        met.dedup();
        assert_eq!(met.len(), 16, "every NS pair meets every EW pair once");
        assert_eq!(mitchell(&order, 4), None);
    }

    #[test]
    fn mitchell_odd_gives_each_ns_pair_one_bye() {
        let order = [10, 11, 12, 13, 14, 15, 16];
        let mut byes = Vec::new();
        for r in 0..4 {
            let round = mitchell(&order, r).unwrap();
            assert_complete(&round, &order);
            byes.push(round.bye.unwrap());
            // The incomplete table keeps its number and is left out.
            assert_eq!(round.tables.len(), 3);
        }
        assert_eq!(byes, [16, 10, 12, 14]);
        let r1 = mitchell(&order, 1).unwrap();
        assert_eq!(
            r1.tables.iter().map(|t| t.number).collect::<Vec<_>>(),
            [2, 3, 4]
        );
        assert_eq!(mitchell(&[], 0), None);
    }

    #[test]
    fn danish_pairs_by_standing() {
        let r = danish(&[5, 2, 7, 1], &[]);
        assert_eq!(pairs_of(&r), [(5, 2), (7, 1)]);
        assert_eq!(r.bye, None);
        let odd = danish(&[5, 2, 7, 1, 9], &[9]);
        assert_eq!(odd.bye, Some(1), "the lowest who has not rested");
        assert_eq!(pairs_of(&odd), [(5, 2), (7, 9)]);
        assert_eq!(danish(&[5, 2, 7], &[5, 2, 7]).bye, Some(7));
        assert_eq!(bye_for(&[1, 2], &[]), None);
    }

    #[test]
    fn modified_danish_avoids_the_previous_opponents() {
        let previous = first_round(&[1, 2, 3, 4, 5, 6]);
        // 1 and 2 met: 1 plays 3. 2-4 would leave 5-6, who met too: 2 plays 5, 4 plays 6.
        let r = modified_danish(&[1, 2, 3, 4, 5, 6], &previous, false, &[]);
        assert_eq!(pairs_of(&r), [(1, 3), (2, 5), (4, 6)]);
        for t in &r.tables {
            assert!(!previous.meet(t.ns, t.ew));
        }
        // In the last round, pure Danish even if it is a rematch.
        let last = modified_danish(&[1, 2, 3, 4, 5, 6], &previous, true, &[]);
        assert_eq!(pairs_of(&last), [(1, 2), (3, 4), (5, 6)]);
    }

    #[test]
    fn modified_danish_backtracks_and_handles_byes() {
        // 3 and 4 met: 1-2 would leave only 3-4, so 1 plays 3 and 2 plays 4.
        let previous = Round {
            tables: vec![
                Table {
                    number: 1,
                    ns: 3,
                    ew: 4,
                },
                Table {
                    number: 2,
                    ns: 1,
                    ew: 5,
                },
            ],
            bye: Some(2),
        };
        let r = modified_danish(&[1, 2, 3, 4], &previous, false, &[2]);
        assert_eq!(pairs_of(&r), [(1, 3), (2, 4)]);
        // Odd: the bye goes to the lowest who has not rested, and the rest avoid rematches.
        let r = modified_danish(&[1, 2, 3, 4, 5], &previous, false, &[2]);
        assert_eq!(r.bye, Some(5));
        assert_eq!(pairs_of(&r), [(1, 3), (2, 4)]);
        // Two entrants who just met can only meet again.
        let two = first_round(&[1, 2]);
        assert_eq!(
            pairs_of(&modified_danish(&[1, 2], &two, false, &[])),
            [(1, 2)]
        );
    }

    #[test]
    fn berger_tables_for_six() {
        let order: Vec<Entrant> = (1..=6).collect();
        let printed = [
            [(1, 6), (2, 5), (3, 4)],
            [(6, 4), (5, 3), (1, 2)],
            [(2, 6), (3, 1), (4, 5)],
            [(6, 5), (1, 4), (2, 3)],
            [(3, 6), (4, 2), (5, 1)],
        ];
        assert_eq!(round_robin_rounds(6), 5);
        for (r, expected) in printed.iter().enumerate() {
            assert_eq!(
                pairs_of(&round_robin(&order, r).unwrap()),
                expected.to_vec()
            );
        }
        assert_eq!(round_robin(&order, 5), None);
    }

    #[test]
    fn round_robin_meets_everyone_once() {
        for n in 1..=12usize {
            let order: Vec<Entrant> = (100..100 + n).collect();
            let mut met = Vec::new();
            let mut byes = Vec::new();
            for r in 0..round_robin_rounds(n) {
                let round = round_robin(&order, r).unwrap();
                assert_complete(&round, &order);
                for (k, t) in round.tables.iter().enumerate() {
                    assert_eq!(t.number, k + 1);
                    met.push((t.ns.min(t.ew), t.ns.max(t.ew)));
                }
                byes.extend(round.bye);
            }
            met.sort_unstable();
            let total = met.len();
            met.dedup();
            assert_eq!(met.len(), total, "no rematch with {n}");
            assert_eq!(total, n * (n - 1) / 2, "everyone meets with {n}");
            byes.sort_unstable();
            if n % 2 == 1 {
                assert_eq!(byes, order, "one bye each with {n}");
            } else {
                assert!(byes.is_empty());
            }
        }
        assert_eq!(round_robin_rounds(0), 0);
        assert_eq!(round_robin(&[], 0), None);
    }

    #[test]
    fn standings_order_vp_then_mp_then_burraco_bonus() {
        let s = |entrant, vp, mp, burraco_bonus| Standing {
            entrant,
            vp,
            mp,
            burraco_bonus,
            ..Standing::default()
        };
        let entries = [
            s(1, 30, 100, 900),
            s(2, 31, -50, 0),
            s(3, 30, 100, 1200),
            s(4, 30, 400, 0),
            s(5, 30, 100, 900),
        ];
        assert_eq!(ranking(Preset::Fitab, &entries), [2, 4, 3, 1, 5]);
        // Two warnings cost FITAB 1 VP: 2 falls to 30 VP, and its MP put it last.
        let mut warned = entries;
        warned[1].warn();
        assert_eq!(ranking(Preset::Fitab, &warned), [2, 4, 3, 1, 5]);
        warned[1].warn();
        assert_eq!(warned[1].ranking_vp(Preset::Fitab), 30);
        assert_eq!(ranking(Preset::Fitab, &warned), [4, 3, 1, 5, 2]);
        // FE.BUR.IT: the second warning costs 1 VP as well.
        assert_eq!(ranking(Preset::Feburit, &warned), [4, 3, 1, 5, 2]);
    }

    #[test]
    fn standing_accumulates() {
        let mut s = Standing::new(7);
        s.add_match(MatchScore { vp: 14, mp: 315 }, 600);
        s.add_match(MatchScore { vp: 8, mp: -150 }, 200);
        s.add_bye(bye_score(MatchFormat {
            preset: Preset::Feburit,
            hands: 3,
            teams: false,
        }));
        assert_eq!((s.vp, s.mp, s.burraco_bonus, s.byes), (35, 615, 800, 1));
    }

    #[test]
    fn score_of_a_played_match() {
        use crate::config::Config;
        use crate::matches::Match;
        use crate::score::{HandScore, SideScore};
        use crate::seat::Seat;
        let side = |melded| SideScore {
            melded,
            ..SideScore::default()
        };
        let mut m = Match::new(Config::of(Preset::Fitab), Seat::North, false).unwrap();
        for _ in 0..2 {
            m.record_hand(&HandScore {
                sides: [side(100), side(300)],
            })
            .unwrap();
        }
        let r = m.result().unwrap();
        assert_eq!(
            MatchScore::of(&r, Side::EastWest),
            Some(MatchScore { vp: 14, mp: 400 })
        );
        assert_eq!(
            MatchScore::of(&r, Side::NorthSouth),
            Some(MatchScore { vp: 6, mp: -400 })
        );
        let mut points = Match::new(Config::of(Preset::Fedibur), Seat::North, false).unwrap();
        points
            .record_hand(&HandScore {
                sides: [side(2100), side(0)],
            })
            .unwrap();
        assert_eq!(
            MatchScore::of(&points.result().unwrap(), Side::NorthSouth),
            None
        );
    }

    #[test]
    fn warning_penalties() {
        assert_eq!(
            [0, 1, 2, 3, 4, 5].map(|w| warning_penalty_vp(Preset::Fitab, w)),
            [0, 0, 1, 1, 2, 2]
        );
        assert_eq!(
            [0, 1, 2, 3].map(|w| warning_penalty_vp(Preset::Feburit, w)),
            [0, 0, 1, 2]
        );
        assert_eq!(warning_penalty_vp(Preset::Fedibur, 2), 1);
    }

    fn fitab(hands: u8) -> MatchFormat {
        MatchFormat {
            preset: Preset::Fitab,
            hands,
            teams: false,
        }
    }

    #[test]
    fn bye_scores_by_code() {
        let vp_mp = |f| {
            let s = bye_score(f);
            (s.vp, s.mp)
        };
        assert_eq!(vp_mp(fitab(2)), (14, 315));
        assert_eq!(vp_mp(fitab(3)), (14, 365));
        assert_eq!(vp_mp(fitab(4)), (12, 315));
        assert_eq!(vp_mp(fitab(1)), (14, 315));
        assert_eq!(vp_mp(fitab(6)), (12, 315));
        for hands in [2, 4] {
            assert_eq!(
                vp_mp(MatchFormat {
                    teams: true,
                    ..fitab(hands)
                }),
                (12, 365)
            );
            for teams in [false, true] {
                assert_eq!(
                    vp_mp(MatchFormat {
                        preset: Preset::Feburit,
                        hands,
                        teams
                    }),
                    (13, 450)
                );
            }
        }
        let fedibur = MatchFormat {
            preset: Preset::Fedibur,
            hands: 3,
            teams: false,
        };
        assert_eq!(vp_mp(fedibur), (14, 355));
        assert_eq!(VpTable::Fedibur.victory_points(355), (14, 6));
    }

    #[test]
    fn abandonment_gives_the_bye_unless_better() {
        let a = abandonment(fitab(2), 100);
        assert_eq!(a.innocent, MatchScore { vp: 14, mp: 315 });
        assert_eq!(a.leaver, MatchScore { vp: 0, mp: -315 });
        let behind = abandonment(fitab(2), -600);
        assert_eq!(behind.innocent, MatchScore { vp: 14, mp: 315 });
        // 700 ahead in a 2-hand match is 17-3: better than the bye.
        let ahead = abandonment(fitab(2), 700);
        assert_eq!(ahead.innocent, MatchScore { vp: 17, mp: 700 });
        assert_eq!(ahead.leaver, MatchScore { vp: 0, mp: -700 });
        // Same VP as the bye, more MP: the score at the interruption.
        assert_eq!(
            abandonment(fitab(2), 400).innocent,
            MatchScore { vp: 14, mp: 400 }
        );
        let feburit = MatchFormat {
            preset: Preset::Feburit,
            hands: 3,
            teams: false,
        };
        assert_eq!(
            abandonment(feburit, 300).innocent,
            MatchScore { vp: 13, mp: 450 }
        );
        assert_eq!(
            abandonment(feburit, 500).innocent,
            MatchScore { vp: 14, mp: 500 }
        );
        assert_eq!(abandonment(fitab(2), i32::MIN).leaver.mp, -315);
    }

    #[test]
    fn force_majeure_and_expulsion() {
        assert_eq!(
            force_majeure_leaver_score(fitab(2)),
            Some(MatchScore { vp: 6, mp: -315 })
        );
        assert_eq!(
            force_majeure_leaver_score(fitab(3)),
            Some(MatchScore { vp: 6, mp: -365 })
        );
        assert_eq!(
            force_majeure_leaver_score(fitab(4)),
            Some(MatchScore { vp: 8, mp: -315 })
        );
        assert_eq!(
            force_majeure_leaver_score(MatchFormat {
                preset: Preset::Feburit,
                ..fitab(3)
            }),
            None
        );
        assert_eq!(
            [0, 6, 10, 12, 13, 20].map(expelled_opponent_vp),
            [12, 12, 12, 12, 13, 20]
        );
    }

    #[test]
    fn late_arrival_fitab() {
        let min = |m: u64| Duration::from_secs(m * 60);
        let penalised = |present_points| LateArrival::Penalised {
            warning: true,
            present_points,
            late_points: 0,
        };
        assert_eq!(late_arrival(fitab(2), Duration::ZERO), LateArrival::OnTime);
        assert_eq!(late_arrival(fitab(2), min(2)), LateArrival::OnTime);
        assert_eq!(
            late_arrival(fitab(2), min(2) + Duration::from_secs(1)),
            penalised(100)
        );
        assert_eq!(
            late_arrival(fitab(2), min(5) - Duration::from_secs(1)),
            penalised(100)
        );
        assert_eq!(late_arrival(fitab(2), min(5)), penalised(150));
        assert_eq!(late_arrival(fitab(2), min(10)), penalised(150));
        assert_eq!(
            late_arrival(fitab(2), min(10) + Duration::from_millis(1)),
            LateArrival::Forfeit {
                present: MatchScore { vp: 14, mp: 315 },
                late: MatchScore { vp: 6, mp: -315 },
            }
        );
        assert_eq!(
            late_arrival(fitab(3), min(11)),
            LateArrival::Forfeit {
                present: MatchScore { vp: 14, mp: 365 },
                late: MatchScore { vp: 6, mp: -365 },
            }
        );
        assert_eq!(
            late_arrival(fitab(4), min(11)),
            LateArrival::Forfeit {
                present: MatchScore { vp: 12, mp: 315 },
                late: MatchScore { vp: 8, mp: -315 },
            }
        );
    }

    #[test]
    fn late_arrival_feburit() {
        let f = MatchFormat {
            preset: Preset::Feburit,
            hands: 3,
            teams: false,
        };
        let min = |m: u64| Duration::from_secs(m * 60);
        assert_eq!(late_arrival(f, Duration::ZERO), LateArrival::OnTime);
        assert_eq!(
            late_arrival(f, min(1)),
            LateArrival::Penalised {
                warning: true,
                present_points: 0,
                late_points: 0
            }
        );
        assert_eq!(
            late_arrival(f, min(10)),
            LateArrival::Penalised {
                warning: true,
                present_points: 0,
                late_points: -100
            }
        );
        assert_eq!(
            late_arrival(f, min(10) + Duration::from_secs(1)),
            LateArrival::Forfeit {
                present: MatchScore { vp: 13, mp: 450 },
                late: MatchScore { vp: 7, mp: -450 },
            }
        );
    }

    #[test]
    fn duplicate_matchpoints() {
        // Five tables played the board; two tied on 120.
        let mp = matchpoints(&[300, 120, 120, -40, 500]);
        assert_eq!(mp, [6, 3, 3, 0, 8]);
        assert_eq!(mp.iter().sum::<u32>(), 5 * 4);
        // The other line's results are the opposite: its matchpoints complete the top.
        let ew = matchpoints(&[-300, -120, -120, 40, -500]);
        assert!(mp.iter().zip(&ew).all(|(a, b)| a + b == 8));
        assert_eq!(matchpoints(&[42]), [0]);
        assert!(matchpoints(&[]).is_empty());
    }
}
