//! The false-alarm threshold: the rule that picks it from honest players' scores, and the values
//! measured by the proof (docs/FAIR_PLAY.md, "The proof"), by number of hands.
//!
//! Under fair play a score would be a standard normal, and z > 2.326 would flag one honest player
//! in a hundred; the detectors' model of a hidden hand is not exact, honest styles drift, and the
//! drift grows with the hands scored. So the threshold is measured on honest players: chosen on a
//! calibration population, and checked on a separate, held-out one.

/// The share of honest players a threshold may flag.
pub const FALSE_ALARM_RATE: f64 = 0.01;

/// The suspicion above which [`FALSE_ALARM_RATE`] of honest players lie, after `hands` hands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Threshold {
    pub hands: usize,
    pub suspicion: f64,
}

/// The measured 1% thresholds: the 496th lowest suspicion of the `roc` example's 500 honest
/// calibration players ([`order_statistic_rank`]) after each number of hands, fewest first.
/// docs/FAIR_PLAY.md quotes them and a test holds the two equal.
pub const ONE_PERCENT: [Threshold; 6] = [
    Threshold {
        hands: 5,
        suspicion: 2.37,
    },
    Threshold {
        hands: 10,
        suspicion: 2.49,
    },
    Threshold {
        hands: 20,
        suspicion: 2.33,
    },
    Threshold {
        hands: 50,
        suspicion: 3.08,
    },
    Threshold {
        hands: 100,
        suspicion: 3.85,
    },
    Threshold {
        hands: 200,
        suspicion: 4.98,
    },
];

/// The threshold for a player scored over `hands` hands: the larger of the measured ones for the
/// numbers of hands either side (the drift is not monotone in the hands, so neither alone bounds
/// the rate between them); below the fewest, the fewest's; beyond the most, the most's, which
/// is not measured there (honest drift grows with the hands: docs/FAIR_PLAY.md).
pub fn threshold_for(hands: usize) -> f64 {
    let below = ONE_PERCENT.iter().rev().find(|t| t.hands <= hands);
    let above = ONE_PERCENT.iter().find(|t| t.hands >= hands);
    match (below, above) {
        (Some(b), Some(a)) => b.suspicion.max(a.suspicion),
        (Some(t), None) | (None, Some(t)) => t.suspicion,
        (None, None) => f64::INFINITY,
    }
}

/// Whether `hands` is beyond the most hands measured.
pub fn beyond_calibration(hands: usize) -> bool {
    ONE_PERCENT.last().is_some_and(|t| hands > t.hands)
}

/// Whether `hands` is below the fewest hands measured (its threshold is the fewest's, which
/// promises nothing for fewer hands).
pub fn below_calibration(hands: usize) -> bool {
    ONE_PERCENT.first().is_some_and(|t| hands < t.hands)
}

/// The rank, counting from the lowest (1-based), of the calibration score that is the threshold
/// for `rate`: k = ceil((n + 1)(1 - rate)). For a new score exchangeable with the n calibration
/// scores, P(new > the k-th lowest) = (n + 1 - k) / (n + 1) <= rate (the split-conformal bound,
/// exact for continuous scores without ties). `None` when n is too small for the rate
/// (k > n: fewer than 1 / rate - 1 scores).
pub fn order_statistic_rank(n: usize, rate: f64) -> Option<usize> {
    let k = ((n as f64 + 1.0) * (1.0 - rate) - 1e-9).ceil() as usize;
    (1..=n).contains(&k).then_some(k)
}

/// The `p` quantile of the false-alarm rate of a threshold chosen by [`order_statistic_rank`]
/// from `n` scores, over the calibration populations one could draw. For continuous scores that
/// rate is Beta(n + 1 - k, k): on average `(n + 1 - k) / (n + 1)`, but one calibration's threshold
/// may hold a rate well off it. Found by bisection on P(rate <= x) = P(Binomial(n, x) >= n + 1 - k).
/// `None` when n is too small for `rate`.
pub fn rate_quantile(n: usize, rate: f64, p: f64) -> Option<f64> {
    let k = order_statistic_rank(n, rate)?;
    let above = n + 1 - k;
    // P(Binomial(n, x) >= above), its terms in logs (C(500, 4) overflows nothing, x^j underflows).
    let ln_choose = |j: usize| -> f64 {
        (0..j)
            .map(|i| ((n - i) as f64).ln() - ((i + 1) as f64).ln())
            .sum()
    };
    let cdf = |x: f64| {
        let below: f64 = (0..above)
            .map(|j| (ln_choose(j) + j as f64 * x.ln() + (n - j) as f64 * (1.0 - x).ln()).exp())
            .sum();
        1.0 - below
    };
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for _ in 0..64 {
        let mid = 0.5 * (lo + hi);
        if cdf(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The threshold for `rate` chosen from calibration `scores` by [`order_statistic_rank`].
pub fn calibrate(scores: &[f64], rate: f64) -> Option<f64> {
    let k = order_statistic_rank(scores.len(), rate)?;
    let mut sorted = scores.to_vec();
    sorted.sort_by(f64::total_cmp);
    Some(sorted[k - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rank_is_the_split_conformal_one() {
        // 500 scores at 1%: the 496th lowest, the 5th highest; a new one passes it 5 times in 501.
        assert_eq!(order_statistic_rank(500, 0.01), Some(496));
        assert_eq!(order_statistic_rank(1000, 0.01), Some(991));
        // 120 scores at 1%: the highest (1 in 121), and 98 are too few for 1%.
        assert_eq!(order_statistic_rank(120, 0.01), Some(120));
        assert_eq!(order_statistic_rank(99, 0.01), Some(99));
        assert_eq!(order_statistic_rank(98, 0.01), None);
        // 9 at 10%: the highest; 19 at 10%: the second highest (18 of 20).
        assert_eq!(order_statistic_rank(9, 0.1), Some(9));
        assert_eq!(order_statistic_rank(19, 0.1), Some(18));
        let scores: Vec<f64> = (1..=19).map(f64::from).rev().collect();
        assert_eq!(calibrate(&scores, 0.1), Some(18.0));
    }

    #[test]
    fn one_calibrations_rate_spreads_around_the_promise() {
        let q = |n, p| rate_quantile(n, 0.01, p).unwrap();
        // The highest of 120: P(rate <= x) = 1 - (1 - x)^120.
        for p in [0.05_f64, 0.5, 0.95] {
            let exact = 1.0 - (1.0 - p).powf(1.0 / 120.0);
            assert!((q(120, p) - exact).abs() < 1e-9, "{p}");
        }
        // The 5th highest of 500: Beta(5, 496), its mean 5/501 between its 5% and 95% points.
        let (lo, median, hi) = (q(500, 0.05), q(500, 0.5), q(500, 0.95));
        assert!((lo - 0.003948).abs() < 1e-5 && (hi - 0.018213).abs() < 1e-5);
        assert!(lo < median && median < 5.0 / 501.0 && 5.0 / 501.0 < hi);
        assert_eq!(rate_quantile(98, 0.01, 0.5), None);
    }

    #[test]
    fn between_measured_hands_the_larger_threshold_holds() {
        let at = |h: usize| ONE_PERCENT.iter().find(|t| t.hands == h).unwrap().suspicion;
        for pair in ONE_PERCENT.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert_eq!(threshold_for(a.hands), a.suspicion);
            let between = threshold_for(a.hands + 1);
            assert_eq!(between, a.suspicion.max(b.suspicion));
        }
        assert_eq!(threshold_for(1), at(5));
        assert_eq!(threshold_for(1000), at(200));
        assert!(beyond_calibration(201) && !beyond_calibration(200));
        assert!(below_calibration(4) && !below_calibration(5));
    }
}
