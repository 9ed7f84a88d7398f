//! The standings (RULES.md section 11): each complete round's matches scored (a teams event's
//! two tables together, an expelled entrant's opponents given their 12 VP), byes, adjustments
//! and warnings, sorted by the preset's keys; and what the knock-out and the bye rotation read
//! from them.

use burraco_protocol::tournament_log::{MatchOutcome, RoundTable};
use burraco_rules::tournament::{
    MatchFormat, MatchScore, Standing, bye_score, expelled_opponent_vp, standings,
};

use super::super::scoring::Award;
use super::super::settings::{Kind, Movement};
use super::{Round, TournamentState};

impl TournamentState {
    /// The standings after the first `rounds` complete rounds (byes, adjustments and warnings
    /// made by then), best first: VP, then MP, then burraco bonus (RULES.md section 11). From
    /// the standings after the round in play when it was expelled, an expelled entrant ranks
    /// last and those that met it at a table get at least 12 VP from that match (FITAB art. 37
    /// bis: not those paired with it by a fixed schedule after it was gone, nor a forfeit).
    pub fn standings_after(&self, rounds: usize) -> Vec<Standing> {
        let mut lines: Vec<Standing> = self
            .ranked()
            .into_iter()
            .map(|e| Standing::new(e as usize))
            .collect();
        let mut line = |entrant: u32| lines.iter().position(|s| s.entrant == entrant as usize);
        let expelled = |entrant: u32| {
            self.entrants
                .get(entrant as usize)
                .is_some_and(|e| e.expelled_by(rounds))
        };
        let mut changes: Vec<(usize, MatchScore, i32, bool)> = Vec::new();
        for round in self.rounds.iter().take(rounds) {
            for scored in self.scored_meetings(round) {
                let result = &scored.outcome;
                let sides = self.settings.kind.sides(&scored.table);
                for (side, entrants) in sides.iter().enumerate() {
                    let mut score = score_of(result, side);
                    if scored.met && sides[1 - side].iter().any(|&e| expelled(e)) {
                        score.vp = expelled_opponent_vp(score.vp);
                    }
                    for &entrant in entrants {
                        if let Some(i) = line(entrant) {
                            changes.push((i, score, result.burraco[side], false));
                        }
                    }
                }
            }
            if let Some(i) = round.bye.and_then(&mut line) {
                changes.push((i, bye_score(self.settings.format()), 0, true));
            }
        }
        let adjustments: Vec<(usize, i32)> = self
            .adjustments
            .iter()
            .filter(|a| a.after_round as usize <= rounds)
            .filter_map(|a| line(a.entrant).map(|i| (i, a.vp)))
            .collect();
        let mut warnings: Vec<(usize, u32)> = Vec::new();
        for w in self
            .warnings
            .iter()
            .filter(|w| w.after_round as usize <= rounds)
        {
            if let Some(i) = line(w.entrant) {
                match warnings.iter_mut().find(|(j, _)| *j == i) {
                    Some((_, n)) => *n += 1,
                    None => warnings.push((i, 1)),
                }
            }
        }
        for (i, score, burraco, bye) in changes {
            if bye {
                lines[i].add_bye(score);
            } else {
                lines[i].add_match(score, burraco);
            }
        }
        for (i, vp) in adjustments {
            lines[i].vp += vp;
        }
        for (i, n) in warnings {
            for _ in 0..n {
                lines[i].warn();
            }
        }
        let mut ranked = standings(self.settings.preset, &lines);
        // Expelled entrants last (in their order among themselves).
        ranked.sort_by_key(|s| expelled(s.entrant as u32));
        ranked
    }

    /// A round's matches that are over, as (table, outcome), North-South first. A teams event's
    /// match is its two tables together (the first's North-South team as side 0): each team's
    /// total its two tables' totals, VP from the teams column by the margin; a match with a
    /// table scored by the code (`awarded`) takes that table's score.
    pub fn scored_matches(&self, round: &Round) -> Vec<(RoundTable, MatchOutcome)> {
        self.scored_meetings(round)
            .into_iter()
            .map(|m| (m.table, m.outcome))
            .collect()
    }

    /// [`Self::scored_matches`], each with whether its sides met at a table (a teams event's,
    /// at either of its two).
    fn scored_meetings(&self, round: &Round) -> Vec<ScoredMatch> {
        let tables = round.tables.iter().zip(&round.results).zip(&round.awarded);
        if self.settings.kind != Kind::Teams {
            return tables
                .filter_map(|((t, r), awarded)| {
                    let outcome = r.clone()?;
                    Some(ScoredMatch {
                        table: t.clone(),
                        met: sides_met(&outcome, awarded),
                        outcome,
                    })
                })
                .collect();
        }
        let all: Vec<_> = tables.collect();
        all.chunks(2)
            .filter_map(|two| {
                let [((first, Some(a)), a_awarded), ((_, Some(b)), b_awarded)] = two else {
                    return None;
                };
                let met = sides_met(a, a_awarded) || sides_met(b, b_awarded);
                let outcome = if a_awarded.is_some() {
                    a.clone()
                } else if b_awarded.is_some() {
                    // The second table seats the teams the other way round.
                    MatchOutcome {
                        totals: [b.totals[1], b.totals[0]],
                        vp: [b.vp[1], b.vp[0]],
                        burraco: [b.burraco[1], b.burraco[0]],
                        ..b.clone()
                    }
                } else {
                    team_match(self.settings.format(), a, b)
                };
                Some(ScoredMatch {
                    table: (*first).clone(),
                    outcome,
                    met,
                })
            })
            .collect()
    }

    /// Warnings an entrant has had.
    pub fn warnings_of(&self, entrant: u32) -> u32 {
        self.warnings
            .iter()
            .filter(|w| w.entrant == entrant)
            .count() as u32
    }

    /// A complete knock-out round's winners in bracket order: the next round's bracket. A tie
    /// is one match (a teams event's, its two tables together).
    pub fn knockout_winners(&self, round: &Round) -> Vec<Option<u32>> {
        let matches = self.scored_matches(round);
        round
            .bracket
            .chunks(2)
            .map(|place| match place {
                [Some(a), Some(b)] => winner_between(&matches, *a, *b),
                [Some(a), None] | [None, Some(a)] | [Some(a)] => Some(*a),
                _ => None,
            })
            .collect()
    }

    /// Whether another round is to be paired once the last one is complete.
    pub fn has_next_round(&self) -> bool {
        let index = self.rounds.len();
        match self.settings.movement_at(index) {
            None => false,
            Some(Movement::Knockout { .. }) => match self.rounds.last() {
                Some(last) if Movement::is_knockout_code(&last.movement) => {
                    self.knockout_winners(last).iter().flatten().count() > 1
                }
                _ => self.active().len() > 1,
            },
            Some(_) => true,
        }
    }

    /// The rounds the tournament will have: as many as the settings list, a knock-out's as many
    /// as its bracket needs: fixed by its first round's bracket once that is paired (entrants
    /// leaving later leave places empty, they do not shorten it), by the entrants still in
    /// before.
    pub fn planned_rounds(&self) -> u32 {
        let listed = self.settings.movements.len() as u32;
        if !self.settings.ends_in_knockout() {
            return listed;
        }
        let field = self
            .rounds
            .iter()
            .find(|r| Movement::is_knockout_code(&r.movement))
            .map_or_else(|| self.active().len(), |r| r.bracket.len())
            .max(2) as u32;
        listed - 1 + field.next_power_of_two().trailing_zeros()
    }

    /// The knock-out's winner, once its final is over.
    pub fn knockout_winner(&self) -> Option<u32> {
        let last = self.rounds.last()?;
        if !Movement::is_knockout_code(&last.movement) || !last.is_complete() {
            return None;
        }
        match self.knockout_winners(last)[..] {
            [Some(winner)] => Some(winner),
            _ => None,
        }
    }

    /// Rounds complete so far.
    pub fn complete_rounds(&self) -> usize {
        self.rounds.iter().take_while(|r| r.is_complete()).count()
    }

    /// Entrants that had a bye.
    pub fn had_bye(&self) -> Vec<usize> {
        self.rounds
            .iter()
            .filter_map(|r| r.bye.map(|b| b as usize))
            .collect()
    }
}

/// A match that is over, as the standings count it.
struct ScoredMatch {
    table: RoundTable,
    outcome: MatchOutcome,
    /// The sides sat at a table against each other (FITAB art. 37 bis's "met").
    met: bool,
}

/// Whether a table's sides met: its match began (played to its end, or left mid-match), not
/// closed unplayed nor scored without play ([`Award::sides_met`]). A reason this build does
/// not know counts as a meeting.
fn sides_met(outcome: &MatchOutcome, awarded: &Option<String>) -> bool {
    outcome.played
        && awarded
            .as_deref()
            .and_then(Award::from_code)
            .is_none_or(Award::sides_met)
}

/// A team match from its two tables' outcomes (the second seats the teams the other way round):
/// each team's total is its two tables' totals; VP from the format's (teams) column by the
/// margin.
fn team_match(format: MatchFormat, first: &MatchOutcome, second: &MatchOutcome) -> MatchOutcome {
    let totals = [
        first.totals[0] + second.totals[1],
        first.totals[1] + second.totals[0],
    ];
    let vp_table = format.vp_table();
    let vp =
        [0, 1].map(|side| MatchScore::from_margin(vp_table, totals[side] - totals[1 - side]).vp);
    let hand_totals = first
        .hand_totals
        .iter()
        .zip(&second.hand_totals)
        .map(|(a, b)| [a[0] + b[1], a[1] + b[0]])
        .collect();
    MatchOutcome {
        played: first.played && second.played,
        totals,
        vp,
        burraco: [
            first.burraco[0] + second.burraco[1],
            first.burraco[1] + second.burraco[0],
        ],
        hands: first.hands.max(second.hands),
        hand_totals,
    }
}

/// A side's score in a table's match: its VP and its margin (MP).
pub fn score_of(result: &MatchOutcome, side: usize) -> MatchScore {
    if !result.played {
        return MatchScore::ZERO;
    }
    MatchScore {
        vp: result.vp[side],
        mp: result.totals[side] - result.totals[1 - side],
    }
}

/// Who won the match between `a` (the higher place) and `b` among a round's `matches` (as
/// [`TournamentState::scored_matches`] gives them): VP, then MP, then burraco bonus; equal on
/// all three, the higher place (each tie is one match). `None` while it is not over.
fn winner_between(matches: &[(RoundTable, MatchOutcome)], a: u32, b: u32) -> Option<u32> {
    let (table, result) = matches
        .iter()
        .find(|(t, _)| (t.ns == a && t.ew == b) || (t.ns == b && t.ew == a))?;
    let side_of_a = usize::from(table.ns != a);
    let key = |side: usize| {
        let s = score_of(result, side);
        (s.vp, s.mp, result.burraco[side])
    };
    Some(if key(1 - side_of_a) > key(side_of_a) {
        b
    } else {
        a
    })
}
