//! The 4-player game: two partnerships, seats 0 and 2 against seats 1 and 3 (North-South
//! against East-West, by [`burraco_rules::Seat::index`]). As bridge pair grading does it (the
//! English Bridge Union's NGS grades each player from pair results), a pair is rated as the
//! mean of its partners, and each player is updated by the pair's result.

use crate::glicko2::{Config, Outcome, Rating, step};

/// The rating of a partnership: the mean of the two ratings and of their volatilities, and the
/// root mean square of the deviations, `sqrt((phi_a^2 + phi_b^2) / 2)`.
///
/// Why the root mean square and not the deviation of a mean of two independent estimates
/// (`sqrt(phi_a^2 + phi_b^2) / 2`, smaller than either): a pair's strength is not only the mean
/// of its players' (partners fit, or do not), so the pair is taken to be as uncertain as its
/// typical member: its deviation lies between the partners' and is never below the better
/// known one's. Two new players make a pair of deviation 350, as a new player is.
pub fn pair(a: Rating, b: Rating) -> Rating {
    Rating {
        rating: (a.rating + b.rating) / 2.0,
        deviation: ((a.deviation * a.deviation + b.deviation * b.deviation) / 2.0).sqrt(),
        volatility: (a.volatility + b.volatility) / 2.0,
    }
}

/// One 4-player match: `players` by seat index, seats 0 and 2 partners against seats 1 and 3;
/// `score_of_pair_0` the VP share of seats 0 and 2 (0 to 1); returns the four new ratings.
///
/// Exactly: player i, of pair P against pair Q, is updated by Glicko-2's step as if it had
/// played one game of weight `weight` against `pair(Q)` scoring P's score, except that the
/// expectation `E` compares `P`'s mean rating (not the player's own) with `Q`'s:
/// `E = 1 / (1 + exp(-g(phi_Q) (mu_P - mu_Q)))`. The change is the player's own,
/// `phi_i'^2 g(phi_Q) (s_P - E)`: partners move by the same surprise, each as far as its own
/// deviation allows (a new player learns fast beside an established partner, who barely moves).
/// With four equal deviations the changes add up to zero.
pub fn update_four(players: [Rating; 4], score_of_pair_0: f64, cfg: &Config) -> [Rating; 4] {
    update_four_weighted(players, score_of_pair_0, 1.0, cfg)
}

/// [`update_four`] with the match's weight (e.g. [`Config::bot_weight`] when a bot sat at the
/// table; a bot's own seat is simply not stored by the caller).
pub fn update_four_weighted(
    players: [Rating; 4],
    score_of_pair_0: f64,
    weight: f64,
    cfg: &Config,
) -> [Rating; 4] {
    let pairs = [pair(players[0], players[2]), pair(players[1], players[3])];
    let score = score_of_pair_0.clamp(0.0, 1.0);
    std::array::from_fn(|seat| {
        let own = seat % 2;
        let other = 1 - own;
        let own_score = if own == 0 { score } else { 1.0 - score };
        let outcome = Outcome {
            opponent: pairs[other],
            score: own_score,
            weight,
        };
        let own_mu = (pairs[own].rating - 1500.0) / 173.7178;
        step(players[seat], own_mu, &[outcome], cfg)
    })
}

/// A fixed partnership's own rating ([`crate::Category::FixedPair`]) is an ordinary
/// [`crate::update`] of the pair's rating against the opponents' pair (their own pair rating
/// if they are a fixed pair too, else [`pair`] of their players).
pub fn update_fixed_pair(
    pair_rating: Rating,
    opponents: Rating,
    score: f64,
    cfg: &Config,
) -> Rating {
    crate::update(pair_rating, &[Outcome::new(opponents, score)], cfg)
}
