//! The Glicko-2 step of Glickman's "Example of the Glicko-2 system" (2013), steps 1 to 8, with
//! the Illinois algorithm for the new volatility (step 5), a weight per game, and fractional
//! rating periods of time away (as Lichess ages a deviation).

use serde::{Deserialize, Serialize};

/// Glicko-2's scale factor between the Glicko scale (1500 / 350) and its own (0 / 2.01).
const SCALE: f64 = 173.7178;
/// The Glicko scale's centre.
const CENTRE: f64 = 1500.0;

/// A rating's deviation above this is provisional: not shown as a level, not on a leaderboard
/// (Lichess's threshold, 110, on the same Glicko scale). A new rating (350) gets below it after
/// 10 draws against established players of its strength, 20 at a bot's half weight.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A player's rating on the Glicko scale (as players see it): `rating` 1500 and `deviation` 350
/// for a new player, `volatility` on Glicko-2's own scale (0.06 new).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    /// The rating's standard deviation: 95% of players' true strength lies within two of it.
    pub deviation: f64,
    /// How erratic the player's results are (Glicko-2's sigma).
    pub volatility: f64,
}

impl Rating {
    /// A new player's rating: 1500, deviation 350, volatility 0.06 (Glickman's suggestions).
    pub const fn new() -> Rating {
        Rating {
            rating: CENTRE,
            deviation: 350.0,
            volatility: 0.06,
        }
    }

    /// True while the deviation is above [`PROVISIONAL_DEVIATION`].
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating after `periods` rating periods (fractional allowed) without a game: Glickman's
    /// step 6 alone, `phi' = sqrt(phi^2 + periods * sigma^2)`, so the variance grows linearly
    /// with time away; never above `cfg.max_deviation`. Negative or NaN periods age nothing.
    pub fn aged(&self, periods: f64, cfg: &Config) -> Rating {
        // NaN ages nothing too.
        if periods.is_nan() || periods <= 0.0 {
            return *self;
        }
        let phi = self.deviation / SCALE;
        let phi = (phi * phi + periods * self.volatility * self.volatility).sqrt();
        Rating {
            deviation: (phi * SCALE).min(cfg.max_deviation),
            ..*self
        }
    }

    /// The 95% interval of the player's strength: rating plus or minus twice the deviation.
    pub fn interval(&self) -> (f64, f64) {
        (
            self.rating - 2.0 * self.deviation,
            self.rating + 2.0 * self.deviation,
        )
    }

    fn mu(&self) -> f64 {
        (self.rating - CENTRE) / SCALE
    }

    fn phi(&self) -> f64 {
        self.deviation / SCALE
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::new()
    }
}

/// The system's constants.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Glicko-2's tau: how much the volatility may change in one step (Glickman: 0.3 to 1.2).
    pub tau: f64,
    /// The length of a rating period in days, for [`Config::periods`]: how fast a deviation
    /// grows with time away. Each [`update`] also counts as one period (Glickman's step 6).
    pub rating_period_days: f64,
    /// The most a deviation may be, a new player's (350): time away never makes a rating less
    /// known than no rating.
    pub max_deviation: f64,
    /// The Illinois algorithm's tolerance on ln(sigma^2) (Glickman: 0.000001).
    pub convergence_tolerance: f64,
    /// The weight of a game against a bot (docs/RATINGS.md: half weight, in the players' pool).
    pub bot_weight: f64,
}

impl Config {
    /// tau 0.5, a week a period, deviations at most 350, tolerance 1e-6, bots at half weight.
    pub const fn new() -> Config {
        Config {
            tau: 0.5,
            rating_period_days: 7.0,
            max_deviation: 350.0,
            convergence_tolerance: 0.000_001,
            bot_weight: 0.5,
        }
    }

    /// The rating periods in `days` of time away (for [`Rating::aged`]).
    pub fn periods(&self, days: f64) -> f64 {
        days / self.rating_period_days
    }

    /// The rating periods in `ms` milliseconds of time away (the server's clock).
    pub fn periods_in_ms(&self, ms: u64) -> f64 {
        self.periods(ms as f64 / 86_400_000.0)
    }
}

impl Default for Config {
    fn default() -> Config {
        Config::new()
    }
}

/// One game of a rating period, from the player's side.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The opponent's rating before the period (in the 4-player game, the opponents' pair,
    /// [`crate::pair`]).
    pub opponent: Rating,
    /// The player's score, 0 to 1: the VP share of the match ([`crate::vp_share`]).
    pub score: f64,
    /// How much the game counts: 1 for a game against people, [`Config::bot_weight`] against a
    /// bot. A weight w multiplies the game's terms in both of Glickman's sums (its information
    /// `g^2 E (1 - E)` in 1/v and its surprise `g (s - E)` in delta), so a game of weight 0.5
    /// moves a rating as half a game does, and two of them as one.
    pub weight: f64,
}

impl Outcome {
    /// A game of weight 1.
    pub fn new(opponent: Rating, score: f64) -> Outcome {
        Outcome {
            opponent,
            score,
            weight: 1.0,
        }
    }
}

/// Glickman's g: how much an opponent's uncertainty flattens the expectation.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// Glickman's E: the expected score of a player at `mu` against one at `mu_j` whose g is `g_j`.
fn e(mu: f64, mu_j: f64, g_j: f64) -> f64 {
    1.0 / (1.0 + (-g_j * (mu - mu_j)).exp())
}

/// The expected score of `a` against `b` (0 to 1) as the Glicko-2 step uses it: E with the
/// opponent's g only, `E(mu_a, mu_b, phi_b)`.
pub fn expected_score(a: Rating, b: Rating) -> f64 {
    e(a.mu(), b.mu(), g(b.phi()))
}

/// The expected score of `a` against `b` with both deviations (`g(sqrt(phi_a^2 + phi_b^2))`, as
/// Glickman's Glicko paper and Lichess predict a game): symmetric, `predicted_score(a, b) +
/// predicted_score(b, a) = 1`, and less sure of itself while either rating is uncertain: the
/// forecast shown to players. [`expected_score`] is the step's own term; on settled ratings the
/// two forecast equally well (docs/RATINGS.md).
pub fn predicted_score(a: Rating, b: Rating) -> f64 {
    let phi = a.phi().hypot(b.phi());
    e(a.mu(), b.mu(), g(phi))
}

/// The VP `a` may expect against `b`, out of 20: 20 times [`predicted_score`] (symmetric: the
/// two sides' expectations add up to 20), to show before a match.
pub fn expected_vp(a: Rating, b: Rating) -> f64 {
    20.0 * predicted_score(a, b)
}

/// One Glicko-2 rating period: `player`'s rating after `outcomes` (Glickman's steps 1 to 8).
/// With no outcome, the player only ages one period ([`Rating::aged`]). Scores are clamped to
/// 0..=1 and negative weights count as 0; the deviation stays at most `cfg.max_deviation`.
pub fn update(player: Rating, outcomes: &[Outcome], cfg: &Config) -> Rating {
    step(player, player.mu(), outcomes, cfg)
}

/// One head-to-head match rated for both players: `a` scored `score_a` (its VP share), `b`
/// scored `1 - score_a`, each against the other's rating before the match, with the match's
/// `weight` for both (1, or [`Config::bot_weight`] when a person plays a bot; two bots play at
/// 1). Returns `[a', b']`.
pub fn update_two(a: Rating, b: Rating, score_a: f64, weight: f64, cfg: &Config) -> [Rating; 2] {
    let score_a = score_a.clamp(0.0, 1.0);
    [
        update(
            a,
            &[Outcome {
                opponent: b,
                score: score_a,
                weight,
            }],
            cfg,
        ),
        update(
            b,
            &[Outcome {
                opponent: a,
                score: 1.0 - score_a,
                weight,
            }],
            cfg,
        ),
    ]
}

/// The step with the expectation taken from `mu_for_expectation` instead of the player's own
/// rating: the 4-player game compares the partners' mean with the opponents' (pairs.rs). The
/// change is still the player's own, scaled by the player's own deviation.
pub(crate) fn step(
    player: Rating,
    mu_for_expectation: f64,
    outcomes: &[Outcome],
    cfg: &Config,
) -> Rating {
    // Step 3 and 4: the estimated variance v (as its inverse, the information) and the sum
    // delta / v, each game's terms multiplied by its weight.
    let mut information = 0.0;
    let mut surprise = 0.0;
    for o in outcomes {
        let weight = o.weight.max(0.0);
        if weight == 0.0 || !weight.is_finite() {
            continue;
        }
        let g_j = g(o.opponent.phi());
        let e_j = e(mu_for_expectation, o.opponent.mu(), g_j);
        let s = o.score.clamp(0.0, 1.0);
        information += weight * g_j * g_j * e_j * (1.0 - e_j);
        surprise += weight * g_j * (s - e_j);
    }
    if information <= 0.0 {
        return player.aged(1.0, cfg);
    }
    let v = 1.0 / information;
    let delta = v * surprise;
    let phi = player.phi();
    // Step 5: the new volatility.
    let sigma = new_volatility(player.volatility, phi, v, delta, cfg);
    // Step 6 and 7: the deviation before the period, then after it, and the rating.
    let phi_star = (phi * phi + sigma * sigma).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + information).sqrt();
    let mu_new = player.mu() + phi_new * phi_new * surprise;
    // Step 8: back to the Glicko scale.
    Rating {
        rating: mu_new * SCALE + CENTRE,
        deviation: (phi_new * SCALE).min(cfg.max_deviation),
        volatility: sigma,
    }
}

/// Step 5: sigma' by the Illinois algorithm (regula falsi with halving) on
/// f(x) = e^x (delta^2 - phi^2 - v - e^x) / (2 (phi^2 + v + e^x)^2) - (x - a) / tau^2, a = ln sigma^2.
fn new_volatility(sigma: f64, phi: f64, v: f64, delta: f64, cfg: &Config) -> f64 {
    let tau = cfg.tau;
    let phi2 = phi * phi;
    let delta2 = delta * delta;
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi2 + v + ex;
        ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut lo = a;
    let mut hi = if delta2 > phi2 + v {
        (delta2 - phi2 - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_lo = f(lo);
    let mut f_hi = f(hi);
    // At most a few dozen iterations in practice; the bound keeps a pathological input finite.
    for _ in 0..200 {
        if (hi - lo).abs() <= cfg.convergence_tolerance {
            break;
        }
        let c = lo + (lo - hi) * f_lo / (f_hi - f_lo);
        let f_c = f(c);
        if f_c * f_hi <= 0.0 {
            lo = hi;
            f_lo = f_hi;
        } else {
            f_lo /= 2.0;
        }
        hi = c;
        f_hi = f_c;
    }
    (lo / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g_and_e_match_glickmans_table() {
        // Glickman's example, step 3: g(phi_j) and E for the three opponents.
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = Rating {
            rating: 1400.0,
            deviation: 30.0,
            volatility: 0.06,
        };
        assert!((g(opponent.phi()) - 0.9955).abs() < 1e-4);
        assert!((expected_score(player, opponent) - 0.639).abs() < 1e-3);
    }

    #[test]
    fn predicted_scores_add_up_to_one() {
        let a = Rating {
            rating: 1720.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        let b = Rating::new();
        assert!((predicted_score(a, b) + predicted_score(b, a) - 1.0).abs() < 1e-12);
        assert!((expected_vp(a, b) + expected_vp(b, a) - 20.0).abs() < 1e-9);
    }
}
