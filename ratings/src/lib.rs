//! Player ratings for Burraco (issue 21): Glicko-2 on the VP share of a match, pairs for the
//! 4-player game as bridge pair grading does it, levels, categories, and a plain Elo baseline.
//!
//! Pure: no IO, no clock, no randomness. Time is an argument ([`Rating::aged`]); the server
//! stores a [`Rating`] per account and category and calls [`update`] (2 players) or
//! [`update_four`] (4 players) once per finished match, keyed by the match.
//!
//! - [`glicko2`]: [`Rating`], [`Config`], [`Outcome`], [`update`], [`expected_score`],
//!   [`expected_vp`]: Glickman's "Example of the Glicko-2 system" (2013), with a weight per game.
//! - [`pairs`]: [`pair`] and [`update_four`]: seats 0 and 2 against seats 1 and 3.
//! - [`score`]: a match's VP, its outcome for each side ([`match_outcomes`]: the one decision of
//!   who won, by the VP) and its score, the VP share ([`vp_share`], [`match_score`]).
//! - [`levels`]: [`Level`] and [`Category`].
//! - [`elo`]: [`Elo`], the baseline the quality measurement compares with (docs/RATINGS.md).

pub mod elo;
pub mod glicko2;
pub mod levels;
pub mod pairs;
pub mod score;

pub use elo::Elo;
pub use glicko2::{
    Config, Outcome, PROVISIONAL_DEVIATION, Rating, expected_score, expected_vp, predicted_score,
    update, update_two,
};
pub use levels::{Category, Level, ParseCategoryError, level};
pub use pairs::{pair, update_fixed_pair, update_four, update_four_weighted};
pub use score::{
    MatchOutcome, match_outcomes, match_score, match_vp, scoring_column, vp_outcomes, vp_share,
    winning_side,
};
