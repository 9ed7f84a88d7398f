//! Per-player scores over a set of hand records, with the hands behind each score.

use std::collections::BTreeMap;

use burraco_protocol::record::{HandRecord, ReplayError};
use burraco_rules::Seat;

use crate::detector::{Detector, Observation, observe};
use crate::stats::{Tally, bonferroni_max};
use crate::walk::walk;

/// The statistics' slots: one per detector, four for each detector of suit rotations.
const SLOTS: usize = 11;

fn slot(detector: Detector, variant: u8) -> usize {
    match detector {
        Detector::PartnerFit => 0,
        Detector::NextOpponentAvoid => 1,
        Detector::TalloneTake => 2,
        Detector::SuitSignal => 3 + usize::from(variant.min(3)),
        Detector::SignalFollow => 7 + usize::from(variant.min(3)),
    }
}

/// What one hand added to a player's slots: (observations, observed, expected).
type HandSums = [(u64, f64, f64); SLOTS];

#[derive(Debug, Clone, Default)]
struct PlayerAcc {
    tallies: [Tally; SLOTS],
    /// (hand index, that hand's sums), for explaining a score.
    hands: Vec<(usize, HandSums)>,
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
        walk(record, |m| observe(m, &mut observations))?;
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
