//! The arithmetic of a detector: a sum of observations against their expectation under fair play,
//! and the standard normal's tail.

/// One statistic for one player over many hands: the observations' observed and expected sums,
/// and per hand the difference `d` (observed minus expected within the hand).
///
/// Within a hand the observations are not independent (the same hidden hand is looked at again
/// and again), but hands are: each has its own deal. Under fair play every observation's
/// expectation is its expected value, so each hand's `d` has mean zero; the score is the
/// t-statistic of the hands' `d`, whose spread is measured, not assumed.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tally {
    /// Observations.
    pub count: u64,
    pub observed: f64,
    pub expected: f64,
    /// Hands with at least one observation.
    pub hands: u64,
    sum_d: f64,
    sum_d2: f64,
}

impl Tally {
    /// Adds one hand's observations: `count` of them summing to `observed` against `expected`.
    pub fn add_hand(&mut self, count: u64, observed: f64, expected: f64) {
        if count == 0 {
            return;
        }
        let d = observed - expected;
        self.count += count;
        self.observed += observed;
        self.expected += expected;
        self.hands += 1;
        self.sum_d += d;
        self.sum_d2 += d * d;
    }

    /// Observed minus expected, over every hand.
    pub fn excess(&self) -> f64 {
        self.observed - self.expected
    }

    /// The t-statistic of the per-hand differences (how many standard errors their mean lies
    /// above zero), carried to the standard normal scale so a few hands' heavy tails do not read
    /// as evidence; 0 below two hands or with no spread. Near a standard normal under fair play.
    pub fn z(&self) -> f64 {
        t_to_z(self.t(), self.hands.saturating_sub(1) as f64)
    }

    /// The t-statistic of the per-hand differences.
    pub fn t(&self) -> f64 {
        if self.hands < 2 {
            return 0.0;
        }
        let n = self.hands as f64;
        let mean = self.sum_d / n;
        let var = (self.sum_d2 - n * mean * mean) / (n - 1.0);
        if var <= 1e-12 {
            return 0.0;
        }
        mean / (var / n).sqrt()
    }
}

/// The standard normal value with (about) the tail of Student's t at `t` with `dof` degrees of
/// freedom (Wallace's approximation, 1959: z = sqrt(dof ln(1 + t^2/dof)) (1 - 1/(8 dof)), within
/// about 0.05 of the exact value from 4 degrees of freedom up).
pub fn t_to_z(t: f64, dof: f64) -> f64 {
    if dof <= 0.0 {
        return 0.0;
    }
    let magnitude = (dof * (t * t / dof).ln_1p()).sqrt() * (1.0 - 1.0 / (8.0 * dof));
    magnitude.copysign(t)
}

/// P(Z > z) for a standard normal Z (Abramowitz and Stegun 7.1.26 through erfc; error < 1e-7).
pub fn upper_tail(z: f64) -> f64 {
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

fn erfc(x: f64) -> f64 {
    // Numerical Recipes' erfcc: fractional error below 1.2e-7 everywhere.
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// The z with `upper_tail(z) == p` (bisection; p in (0, 1)).
pub fn z_for_tail(p: f64) -> f64 {
    let p = p.clamp(1e-300, 1.0 - 1e-16);
    let (mut lo, mut hi) = (-40.0f64, 40.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if upper_tail(mid) > p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The largest of `k` z-scores, corrected for having picked the largest (Bonferroni): the z whose
/// tail is `k` times the largest one's, and 0 when that tail passes one half (no evidence either
/// way: only the upper tail flags anybody).
pub fn bonferroni_max(zs: &[f64]) -> f64 {
    let Some(max) = zs.iter().copied().reduce(f64::max) else {
        return 0.0;
    };
    let p = (upper_tail(max) * zs.len() as f64).min(0.5);
    z_for_tail(p).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_normal_tail_matches_its_table() {
        assert!((upper_tail(0.0) - 0.5).abs() < 1e-7);
        assert!((upper_tail(1.959_964) - 0.025).abs() < 1e-6);
        assert!((upper_tail(2.326_348) - 0.01).abs() < 1e-6);
        assert!((upper_tail(-1.0) - 0.841_344_7).abs() < 1e-6);
        assert!((z_for_tail(0.01) - 2.326_348).abs() < 1e-4);
    }

    #[test]
    fn a_tally_is_the_t_statistic_of_its_hands() {
        let mut t = Tally::default();
        // Differences +1 and 0 alternating: mean 0.5, sample sd ~0.5025, 100 hands: t ~9.95.
        for i in 0..100 {
            t.add_hand(3, 1.5 + f64::from(i % 2 == 0), 1.5);
        }
        assert!((t.t() - 0.5 / (0.502_519 / 10.0)).abs() < 1e-3, "{}", t.t());
        assert!(t.z() < t.t() && t.z() > 0.8 * t.t(), "{}", t.z());
        assert_eq!(t.hands, 100);
        assert_eq!(t.count, 300);
        assert!((t.excess() - 50.0).abs() < 1e-9);
        let mut empty = Tally::default();
        empty.add_hand(0, 0.0, 0.0);
        assert_eq!(empty.z(), 0.0);
        assert_eq!(empty.hands, 0);
    }

    #[test]
    fn few_hands_shrink_a_t_toward_the_normal_scale() {
        // t = 4.604 with 4 degrees of freedom has a one-sided tail of 0.5%: z 2.576.
        assert!(
            (t_to_z(4.604, 4.0) - 2.576).abs() < 0.1,
            "{}",
            t_to_z(4.604, 4.0)
        );
        // Many degrees of freedom: t is z.
        assert!((t_to_z(2.0, 10_000.0) - 2.0).abs() < 1e-3);
        assert_eq!(t_to_z(3.0, 0.0), 0.0);
    }

    #[test]
    fn picking_the_best_of_four_costs_significance() {
        let z = bonferroni_max(&[3.0, 0.0, -1.0, 1.0]);
        assert!(z < 3.0 && z > 2.4, "{z}");
        assert!((bonferroni_max(&[2.0]) - 2.0).abs() < 1e-6);
    }
}
