//! Named levels shown beside players' names, and the rating categories.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::glicko2::Rating;

/// A named level, derived from an established (not provisional) rating. Thresholds on the
/// Glicko scale, each the least rating of its level:
///
/// | level | Italian | English | from |
/// |---|---|---|---|
/// | `Beginner` | Principiante | Beginner | below 1300 |
/// | `Novice` | Esordiente | Novice | 1300 |
/// | `Intermediate` | Intermedio | Intermediate | 1450 |
/// | `Advanced` | Avanzato | Advanced | 1600 |
/// | `Expert` | Esperto | Expert | 1750 |
/// | `Master` | Maestro | Master | 1900 |
/// | `Champion` | Campione | Champion | 2050 |
///
/// Steps of 150 points: an established player one level up expects about 70% of the VP (14 VP
/// of 20) against one a level below. A new player starts at 1500
/// (Intermedio once established).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Beginner,
    Novice,
    Intermediate,
    Advanced,
    Expert,
    Master,
    Champion,
}

impl Level {
    /// Every level, lowest first.
    pub const ALL: [Level; 7] = [
        Level::Beginner,
        Level::Novice,
        Level::Intermediate,
        Level::Advanced,
        Level::Expert,
        Level::Master,
        Level::Champion,
    ];

    /// The least rating of the level (`Beginner`'s is minus infinity).
    pub fn threshold(self) -> f64 {
        match self {
            Level::Beginner => f64::NEG_INFINITY,
            Level::Novice => 1300.0,
            Level::Intermediate => 1450.0,
            Level::Advanced => 1600.0,
            Level::Expert => 1750.0,
            Level::Master => 1900.0,
            Level::Champion => 2050.0,
        }
    }

    /// The level of a rating number, provisional or not.
    pub fn of_rating(rating: f64) -> Level {
        Level::ALL
            .into_iter()
            .rev()
            .find(|level| rating >= level.threshold())
            .unwrap_or(Level::Beginner)
    }

    /// A stable code for the wire and URLs (`beginner` ... `champion`).
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Novice => "novice",
            Level::Intermediate => "intermediate",
            Level::Advanced => "advanced",
            Level::Expert => "expert",
            Level::Master => "master",
            Level::Champion => "champion",
        }
    }

    /// The level's Italian name.
    pub fn name_it(self) -> &'static str {
        match self {
            Level::Beginner => "Principiante",
            Level::Novice => "Esordiente",
            Level::Intermediate => "Intermedio",
            Level::Advanced => "Avanzato",
            Level::Expert => "Esperto",
            Level::Master => "Maestro",
            Level::Champion => "Campione",
        }
    }

    /// The level's English name.
    pub fn name_en(self) -> &'static str {
        match self {
            Level::Beginner => "Beginner",
            Level::Novice => "Novice",
            Level::Intermediate => "Intermediate",
            Level::Advanced => "Advanced",
            Level::Expert => "Expert",
            Level::Master => "Master",
            Level::Champion => "Champion",
        }
    }

    /// The code back into a level.
    pub fn parse(code: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.as_str() == code)
    }
}

/// The level of an established rating; `None` while it is provisional.
pub fn level(r: &Rating) -> Option<Level> {
    (!r.is_provisional()).then(|| Level::of_rating(r.rating))
}

/// What a rating is for: an account has one per category (issue 21).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Head to head (2 players).
    Two,
    /// Four players, whoever the partner: each player's own rating.
    Four,
    /// Four players, a pair of fixed partners rated as one.
    #[serde(rename = "pair")]
    FixedPair,
}

impl Category {
    pub const ALL: [Category; 3] = [Category::Two, Category::Four, Category::FixedPair];

    /// The code in URLs and the store: `two`, `four`, `pair`.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Two => "two",
            Category::Four => "four",
            Category::FixedPair => "pair",
        }
    }

    /// The code back into a category.
    pub fn parse(code: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.as_str() == code)
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A code that names no category.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseCategoryError;

impl fmt::Display for ParseCategoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no such rating category (two, four, pair)")
    }
}

impl std::error::Error for ParseCategoryError {}

impl FromStr for Category {
    type Err = ParseCategoryError;

    fn from_str(s: &str) -> Result<Category, ParseCategoryError> {
        Category::parse(s).ok_or(ParseCategoryError)
    }
}
