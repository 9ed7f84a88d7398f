//! What a run measures: thresholds chosen on the calibration population (the order statistic of
//! `burraco_fairplay::calibration`), false alarms counted on the held-out population with their
//! Wilson intervals, and each cheater's detection rate, by the suspicion and by every detector.

use burraco_bot::stats::wilson;
use burraco_fairplay::Detector;
use burraco_fairplay::calibration::{
    FALSE_ALARM_RATE, calibrate, order_statistic_rank, rate_quantile,
};

use super::Sample;

/// Which number of a sample is compared with a threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// The best detector's score, corrected for the choice: what flags a player.
    Suspicion,
    /// One detector's own score (index in [`Detector::ALL`]).
    Detector(usize),
}

impl Score {
    pub fn of(self, s: &Sample) -> f64 {
        match self {
            Score::Suspicion => s.suspicion,
            Score::Detector(i) => s.z[i],
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Score::Suspicion => "suspicion",
            Score::Detector(i) => Detector::ALL[i].code(),
        }
    }

    /// The suspicion, then every detector.
    pub fn all() -> Vec<Score> {
        std::iter::once(Score::Suspicion)
            .chain((0..Detector::ALL.len()).map(Score::Detector))
            .collect()
    }
}

/// A threshold chosen on the calibration population at one number of hands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibrated {
    pub hands: usize,
    /// Calibration players scored after `hands` hands.
    pub players: usize,
    /// The threshold's rank among their scores, from the lowest.
    pub rank: usize,
    pub threshold: f64,
}

/// The threshold for `rate` at each checkpoint, from `calibration`'s scores (`None` where the
/// population is too small for the rate).
pub fn calibrate_at(
    calibration: &[&Sample],
    checkpoints: &[usize],
    rate: f64,
    score: Score,
) -> Vec<Option<Calibrated>> {
    checkpoints
        .iter()
        .map(|&hands| {
            let scores: Vec<f64> = at(calibration, hands).map(|s| score.of(s)).collect();
            Some(Calibrated {
                hands,
                players: scores.len(),
                rank: order_statistic_rank(scores.len(), rate)?,
                threshold: calibrate(&scores, rate)?,
            })
        })
        .collect()
}

/// The samples scored after `hands` hands.
pub fn at<'a>(samples: &'a [&'a Sample], hands: usize) -> impl Iterator<Item = &'a Sample> + 'a {
    samples.iter().copied().filter(move |s| s.hands == hands)
}

/// Players flagged out of players scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rate {
    pub flagged: usize,
    pub players: usize,
}

impl Rate {
    pub fn share(self) -> f64 {
        self.flagged as f64 / self.players.max(1) as f64
    }

    /// The 95% Wilson interval of the share.
    pub fn interval(self) -> (f64, f64) {
        wilson(self.flagged as f64, self.players as f64)
    }

    /// "3/1000 (0.3%, 95% CI 0.1-0.9%)".
    pub fn describe(self) -> String {
        let (lo, hi) = self.interval();
        format!(
            "{}/{} ({}, 95% CI {}-{})",
            self.flagged,
            self.players,
            percent(self.share()),
            percent(lo),
            percent(hi)
        )
    }
}

/// A share as a percentage, one decimal below 10%.
pub fn percent(x: f64) -> String {
    if x < 0.1 {
        format!("{:.1}%", 100.0 * x)
    } else {
        format!("{:.0}%", 100.0 * x)
    }
}

/// How many of `samples` scored after `hands` hands pass `threshold` (strictly).
pub fn flagged(samples: &[&Sample], hands: usize, threshold: f64, score: Score) -> Rate {
    let mut rate = Rate::default();
    for s in at(samples, hands) {
        rate.players += 1;
        rate.flagged += usize::from(score.of(s) > threshold);
    }
    rate
}

/// The mean of `score` over `samples` scored after `hands` hands.
pub fn mean(samples: &[&Sample], hands: usize, score: Score) -> f64 {
    let (sum, n) = at(samples, hands).fold((0.0, 0usize), |(t, n), s| (t + score.of(s), n + 1));
    sum / n.max(1) as f64
}

/// How far the rate of one calibration's threshold may be from the rule's promise, over the
/// calibrations of `players` one could draw: docs/FAIR_PLAY.md quotes it, a test holds the two
/// equal.
pub fn spread(players: usize) -> String {
    match (
        rate_quantile(players, FALSE_ALARM_RATE, 0.05),
        rate_quantile(players, FALSE_ALARM_RATE, 0.95),
    ) {
        (Some(lo), Some(hi)) => format!(
            "90% of calibrations of {players} give a rate between {:.2}% and {:.2}%",
            100.0 * lo,
            100.0 * hi
        ),
        _ => format!("{players} players are too few for the rate"),
    }
}
