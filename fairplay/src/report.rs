//! Per-player scores over a set of hand records, with the hands behind each score.

use std::collections::BTreeMap;

use burraco_protocol::record::{HandRecord, ReplayError};
use burraco_rules::Seat;

use crate::detector::{Detector, FollowEvent, Observation, follow_event, observe};
use crate::stats::{Tally, bonferroni_max};
use crate::walk::walk;

/// The statistics' slots: one per detector, four for the suit rotations of
/// [`Detector::SuitSignal`]. [`Detector::SignalFollow`] is scored apart (see
/// [`follow_tallies`]).
const SLOTS: usize = 7;

fn slot(detector: Detector, variant: u8) -> usize {
    match detector {
        Detector::PartnerFit => 0,
        Detector::NextOpponentAvoid => 1,
        Detector::TalloneTake => 2,
        Detector::SuitSignal => 3 + usize::from(variant.min(3)),
        // Not a slot: scored from the player's follow events.
        Detector::SignalFollow => 3 + usize::from(variant.min(3)),
    }
}

/// What one hand added to a player's slots: (observations, observed, expected).
type HandSums = [(u64, f64, f64); SLOTS];

#[derive(Debug, Clone, Default)]
struct PlayerAcc {
    tallies: [Tally; SLOTS],
    /// (hand index, that hand's sums), for explaining a score.
    hands: Vec<(usize, HandSums)>,
    /// Per hand (same order as `hands`), the player's discards after its partner's.
    follows: Vec<Vec<FollowEvent>>,
}

/// Hand records folded into per-player statistics; players are the records' seat names.
#[derive(Debug, Clone, Default)]
pub struct Analysis {
    labels: Vec<String>,
    players: BTreeMap<String, PlayerAcc>,
}

/// One detector's score for one player.
#[derive(Debug, Clone, PartialEq)]
pub struct DetectorScore {
    pub detector: Detector,
    /// Standard errors above fair play's expectation (near N(0,1) under fair play).
    pub z: f64,
    /// Observations, and their observed and expected sums (for [`Detector::SuitSignal`], those of
    /// the rotation that scored highest; likewise [`Detector::SignalFollow`]). Signed so that more is more suspicious: for
    /// [`Detector::NextOpponentAvoid`] `observed` is minus the discards that fitted, for
    /// [`Detector::TalloneTake`] draws count plus and pick-ups minus.
    pub count: u64,
    pub observed: f64,
    pub expected: f64,
    /// The hands that pushed the score up most: (label, observed minus expected in that hand).
    pub top_hands: Vec<(String, f64)>,
}

/// A player's scores.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerReport {
    pub player: String,
    pub hands: usize,
    pub scores: Vec<DetectorScore>,
}

impl PlayerReport {
    /// The highest detector score, corrected for taking the highest of five: near N(0,1) under
    /// fair play, so above 2.33 one honest player in a hundred (before calibration).
    pub fn suspicion(&self) -> f64 {
        let zs: Vec<f64> = self.scores.iter().map(|s| s.z).collect();
        bonferroni_max(&zs)
    }

    pub fn score(&self, detector: Detector) -> Option<&DetectorScore> {
        self.scores.iter().find(|s| s.detector == detector)
    }
}

impl Analysis {
    pub fn new() -> Analysis {
        Analysis::default()
    }

    /// Folds one hand record in; `label` names it in reports (a file name, a hand number).
    pub fn add(&mut self, label: &str, record: &HandRecord) -> Result<(), ReplayError> {
        let mut observations: Vec<Observation> = Vec::new();
        let mut follows: Vec<FollowEvent> = Vec::new();
        walk(record, |m| {
            observe(m, &mut observations);
            follows.extend(follow_event(m));
        })?;
        let hand = self.labels.len();
        self.labels.push(label.to_owned());
        let name_of = |seat: Seat| {
            record
                .seats
                .iter()
                .find(|s| s.seat == seat)
                .map_or_else(|| seat.code().to_owned(), |s| s.name.clone())
        };
        for seat in &record.seats {
            let mut sums: HandSums = [(0, 0.0, 0.0); SLOTS];
            for o in observations.iter().filter(|o| o.seat == seat.seat) {
                let s = &mut sums[slot(o.detector, o.variant)];
                s.0 += 1;
                s.1 += o.observed;
                s.2 += o.expected;
            }
            let acc = self.players.entry(name_of(seat.seat)).or_default();
            for (t, (count, observed, expected)) in acc.tallies.iter_mut().zip(sums) {
                t.add_hand(count, observed, expected);
            }
            acc.hands.push((hand, sums));
            acc.follows.push(
                follows
                    .iter()
                    .filter(|f| f.seat == seat.seat)
                    .copied()
                    .collect(),
            );
        }
        Ok(())
    }

    /// The players' names, sorted.
    pub fn players(&self) -> impl Iterator<Item = &str> {
        self.players.keys().map(String::as_str)
    }

    /// Every player's scores, with up to `top` hands per score, sorted by suspicion (highest
    /// first).
    pub fn report(&self, top: usize) -> Vec<PlayerReport> {
        let mut out: Vec<PlayerReport> = self
            .players
            .iter()
            .map(|(name, acc)| self.player_report(name, acc, top))
            .collect();
        out.sort_by(|a, b| b.suspicion().total_cmp(&a.suspicion()));
        out
    }

    /// One player's scores (`None` for a name no record seats).
    pub fn player(&self, name: &str, top: usize) -> Option<PlayerReport> {
        self.players
            .get(name)
            .map(|acc| self.player_report(name, acc, top))
    }

    fn player_report(&self, name: &str, acc: &PlayerAcc, top: usize) -> PlayerReport {
        let scores = Detector::ALL
            .iter()
            .map(|&detector| {
                if detector == Detector::SignalFollow {
                    return self.follow_score(acc, top);
                }
                let (z, chosen) = if detector.rotates() {
                    let first = slot(detector, 0);
                    let rotations = first..first + 4;
                    let zs: Vec<f64> = rotations.clone().map(|i| acc.tallies[i].z()).collect();
                    let best = rotations
                        .max_by(|&a, &b| acc.tallies[a].z().total_cmp(&acc.tallies[b].z()))
                        .unwrap_or(first);
                    (bonferroni_max(&zs), best)
                } else {
                    let i = slot(detector, 0);
                    (acc.tallies[i].z(), i)
                };
                let t = &acc.tallies[chosen];
                let mut hands: Vec<(String, f64)> = acc
                    .hands
                    .iter()
                    .filter(|(_, sums)| sums[chosen].0 > 0)
                    .map(|(h, sums)| (self.labels[*h].clone(), sums[chosen].1 - sums[chosen].2))
                    .collect();
                hands.sort_by(|a, b| b.1.total_cmp(&a.1));
                hands.truncate(top);
                DetectorScore {
                    detector,
                    z,
                    count: t.count,
                    observed: t.observed,
                    expected: t.expected,
                    top_hands: hands,
                }
            })
            .collect();
        PlayerReport {
            player: name.to_owned(),
            hands: acc.hands.len(),
            scores,
        }
    }
}

impl Analysis {
    /// [`Detector::SignalFollow`] for one player: per rotation, the hands' matches against their
    /// expectation, the best rotation corrected for the choice.
    fn follow_score(&self, acc: &PlayerAcc, top: usize) -> DetectorScore {
        let per_hand = follow_sums(&acc.follows);
        let mut tallies = [Tally::default(); 4];
        for sums in &per_hand {
            for (t, &(count, observed, expected)) in tallies.iter_mut().zip(sums) {
                t.add_hand(count, observed, expected);
            }
        }
        let zs: Vec<f64> = tallies.iter().map(Tally::z).collect();
        let best = (0..4).max_by(|&a, &b| zs[a].total_cmp(&zs[b])).unwrap_or(0);
        let mut hands: Vec<(String, f64)> = acc
            .hands
            .iter()
            .zip(&per_hand)
            .filter(|(_, sums)| sums[best].0 > 0)
            .map(|((h, _), sums)| (self.labels[*h].clone(), sums[best].1 - sums[best].2))
            .collect();
        hands.sort_by(|a, b| b.1.total_cmp(&a.1));
        hands.truncate(top);
        let t = &tallies[best];
        DetectorScore {
            detector: Detector::SignalFollow,
            z: bonferroni_max(&zs),
            count: t.count,
            observed: t.observed,
            expected: t.expected,
            top_hands: hands,
        }
    }
}

/// Per hand and rotation r: (discards, discards in the suit r places after the partner's
/// latest, their expected number). A player's choice of suit depends on its hand and its habits
/// (some players prefer a suit when scores tie, some throw short suits), and so does its
/// partner's; neither knows the other's discard is coming. So under fair play the player's suit
/// and the partner's latest are close to independent, and the expected matches are those of the
/// two marginals: for a discard in suit t, the share of the partner's signals (over all the
/// player's discards in the analysis) in the suit r places before t. Habits cancel however sharp
/// they are; a pair with a code bends one rotation beyond them.
fn follow_sums(follows: &[Vec<FollowEvent>]) -> Vec<[(u64, f64, f64); 4]> {
    let mut signals = [0.0f64; 4];
    for f in follows.iter().flatten() {
        signals[f.signal] += 1.0;
    }
    let total: f64 = signals.iter().sum();
    let share = signals.map(|n| n / total.max(1.0));
    follows
        .iter()
        .map(|hand| {
            let mut sums = [(0u64, 0.0f64, 0.0f64); 4];
            for f in hand {
                for (r, s) in sums.iter_mut().enumerate() {
                    s.0 += 1;
                    s.1 += f64::from(u8::from(f.suit == (f.signal + r) % 4));
                    s.2 += share[(f.suit + 4 - r) % 4];
                }
            }
            sums
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tallies(follows: &[Vec<FollowEvent>]) -> [Tally; 4] {
        let mut t = [Tally::default(); 4];
        for sums in follow_sums(follows) {
            for (t, (count, observed, expected)) in t.iter_mut().zip(sums) {
                t.add_hand(count, observed, expected);
            }
        }
        t
    }

    /// 200 hands of 8 discards each: the partner's signal suits drawn by `signal`, the player's
    /// suit by `suit` from the signal and a second draw.
    fn hands(
        suit: impl Fn(usize, u64) -> usize,
        signal: impl Fn(u64) -> usize,
    ) -> Vec<Vec<FollowEvent>> {
        let mut x: u64 = 0x1234_5678;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..200)
            .map(|_| {
                (0..8)
                    .map(|_| {
                        let s = signal(next());
                        FollowEvent {
                            seat: Seat::North,
                            suit: suit(s, next()),
                            signal: s,
                            held: [3, 3, 3, 2],
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn sharp_habits_alone_do_not_look_like_following() {
        // Both partners throw hearts two times in three, independently: they match often, by
        // habit, and no rotation stands out.
        let habit = |r: u64| if r % 3 < 2 { 0 } else { (r % 4) as usize };
        let t = tallies(&hands(|_, r| habit(r), habit));
        assert!(
            t.iter().all(|t| t.z().abs() < 3.0),
            "{:?}",
            t.map(|t| t.z())
        );
    }

    #[test]
    fn obeying_the_partners_code_stands_out_in_its_rotation() {
        // Half the time the player throws the suit before the signal's (the proof's code).
        let t = tallies(&hands(
            |s, r| {
                if r % 2 == 0 {
                    (s + 3) % 4
                } else {
                    (r % 4) as usize
                }
            },
            |r| (r % 4) as usize,
        ));
        assert!(t[3].z() > 6.0, "{:?}", t.map(|t| t.z()));
        assert!(t[0].z() < 0.0 && t[1].z() < 0.0 && t[2].z() < 0.0);
    }
}
