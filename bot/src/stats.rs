//! The statistics the arena reports: a mean with its 95% confidence interval, and a proportion
//! with its Wilson score interval.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Student's t for a two-sided 95% interval with `df` degrees of freedom (table to 30, then z).
pub fn t95(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => T[df - 1],
        31..=60 => 2.000,
        61..=120 => 1.980,
        _ => Z95,
    }
}

/// A sample mean and the half-width of its 95% confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeanCi {
    pub n: usize,
    pub mean: f64,
    pub half_width: f64,
}

impl MeanCi {
    pub fn of(samples: &[f64]) -> MeanCi {
        let n = samples.len();
        if n == 0 {
            return MeanCi {
                n,
                mean: 0.0,
                half_width: f64::INFINITY,
            };
        }
        let mean = samples.iter().sum::<f64>() / n as f64;
        if n == 1 {
            return MeanCi {
                n,
                mean,
                half_width: f64::INFINITY,
            };
        }
        let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        MeanCi {
            n,
            mean,
            half_width: t95(n - 1) * (var / n as f64).sqrt(),
        }
    }

    pub fn low(&self) -> f64 {
        self.mean - self.half_width
    }

    pub fn high(&self) -> f64 {
        self.mean + self.half_width
    }
}

/// The Wilson score interval of `successes` out of `n` at 95%.
pub fn wilson(successes: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = Z95;
    let p = successes / n;
    let denom = 1.0 + z * z / n;
    let centre = p + z * z / (2.0 * n);
    let margin = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (
        ((centre - margin) / denom).max(0.0),
        ((centre + margin) / denom).min(1.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        let ci = MeanCi::of(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert!((ci.mean - 3.0).abs() < 1e-12);
        assert!((ci.half_width - 2.776 * (2.5f64 / 5.0).sqrt()).abs() < 1e-9);
        let (lo, hi) = wilson(8.0, 10.0);
        assert!(
            (lo - 0.4902).abs() < 1e-3 && (hi - 0.9433).abs() < 1e-3,
            "{lo} {hi}"
        );
    }
}
