//! Plain Elo, the baseline of the quality measurement (docs/RATINGS.md): one number, a fixed K,
//! the logistic expectation on the 400-point scale, scores the VP share like Glicko-2's.

use serde::{Deserialize, Serialize};

/// An Elo rating (1500 new).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Elo {
    pub rating: f64,
}

impl Elo {
    /// K = 32: the rating moves by at most 32 points a match (FIDE's K for new players is 40,
    /// 20 once established; 32 is the classic USCF and online figure). The quality example
    /// compares other Ks too.
    pub const K: f64 = 32.0;

    pub const fn new() -> Elo {
        Elo { rating: 1500.0 }
    }

    /// The expected score against `opponent`: `1 / (1 + 10^((r_o - r) / 400))`.
    pub fn expected(&self, opponent: Elo) -> f64 {
        1.0 / (1.0 + 10f64.powf((opponent.rating - self.rating) / 400.0))
    }

    /// The rating after a match scoring `score` (0 to 1) against `opponent`, with factor `k`:
    /// `r + k (s - E)`.
    pub fn updated(&self, opponent: Elo, score: f64, k: f64) -> Elo {
        Elo {
            rating: self.rating + k * (score.clamp(0.0, 1.0) - self.expected(opponent)),
        }
    }

    /// The mean of two partners, the 4-player game's pair (as [`crate::pair`] does for Glicko-2).
    pub fn pair(a: Elo, b: Elo) -> Elo {
        Elo {
            rating: (a.rating + b.rating) / 2.0,
        }
    }
}

impl Default for Elo {
    fn default() -> Elo {
        Elo::new()
    }
}
