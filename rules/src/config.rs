//! Presets and per-table settings (RULES.md section 1).
//!
//! [`TableSettings`] is what a table creator asks for: public fields, anything goes. [`Config`] is
//! what a game runs on: built only by [`Config::new`], which validates and resolves the preset's
//! defaults, and read through getters.

use crate::seat::Players;

/// The federation rule sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Preset {
    /// FITAB Codice di Gara 2011 with the 2014 amendments.
    #[default]
    Fitab,
    /// FE.BUR.IT Codice di Gara.
    Feburit,
    /// FEDIBUR regulation (1985).
    Fedibur,
}

impl Preset {
    pub const ALL: [Preset; 3] = [Preset::Fitab, Preset::Feburit, Preset::Fedibur];

    pub fn code(self) -> &'static str {
        match self {
            Preset::Fitab => "fitab",
            Preset::Feburit => "feburit",
            Preset::Fedibur => "fedibur",
        }
    }

    pub fn from_code(code: &str) -> Option<Preset> {
        Preset::ALL
            .into_iter()
            .find(|p| p.code().eq_ignore_ascii_case(code))
    }
}

/// How the per-move and round clocks run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClockMode {
    /// The federation limits (FITAB art. 34 and art. 5; FE.BUR.IT art. 5 and FIBUR art. 32 bis).
    Federation,
    /// Every limit doubled.
    Relaxed,
    Off,
}

impl ClockMode {
    pub fn code(self) -> &'static str {
        match self {
            ClockMode::Federation => "federation",
            ClockMode::Relaxed => "relaxed",
            ClockMode::Off => "off",
        }
    }

    pub fn from_code(code: &str) -> Option<ClockMode> {
        [ClockMode::Federation, ClockMode::Relaxed, ClockMode::Off]
            .into_iter()
            .find(|m| m.code().eq_ignore_ascii_case(code))
    }

    fn factor(self) -> Option<u32> {
        match self {
            ClockMode::Federation => Some(1),
            ClockMode::Relaxed => Some(2),
            ClockMode::Off => None,
        }
    }
}

/// How long a match lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchLength {
    /// A fixed number of hands (1-8), scored in VP.
    Hands(u8),
    /// Hands until, at the end of one, a side's total exceeds the target.
    Points(u32),
}

/// When a player may close in the turn in which they picked up the discard pile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PileClosing {
    /// FITAB art. 32 D: never ("chiusura al monte" is forbidden).
    Forbidden,
    /// FE.BUR.IT: always.
    Allowed,
    /// FEDIBUR art. 5: only when the pile picked up was a single card.
    SingleCardOnly,
}

/// What a stallo does (RULES.md section 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StalloRule {
    /// `fitab`, `feburit`: a further card exchange ends the hand.
    HandEnds,
    /// `fedibur`: the player who began the run of exchanges must draw at his next turn.
    FirstExchangerMustDraw,
}

/// Burraco bonuses by kind, in points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BurracoValues {
    /// Reale (`fitab`) / over the top (`feburit`); `None` where the kind does not exist.
    pub reale: Option<i32>,
    /// Super (`fitab`) / superpulito (`feburit`).
    pub super_: Option<i32>,
    pub pulito: i32,
    /// `None` when semipulito is switched off: such burracos score as sporco.
    pub semipulito: Option<i32>,
    pub sporco: i32,
}

/// The unvalidated request for a table: a preset and optional overrides.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TableSettings {
    pub preset: Preset,
    /// `None` = four players.
    pub players: Option<Players>,
    /// `None` = the preset's match.
    pub match_length: Option<MatchLength>,
    /// `None` = the preset's clocks.
    pub clocks: Option<ClockMode>,
    /// `None` = the preset's (on for `fitab`/`feburit`, off for `fedibur`).
    pub semipulito: Option<bool>,
    /// Closing requires a burraco pulito (the FIBUR international rule). `None` = off.
    pub close_requires_pulito: Option<bool>,
}

/// Why a [`TableSettings`] cannot make a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("a match lasts 1 to 8 hands, not {0}")]
    HandsOutOfRange(u8),
    #[error("a target must be between 100 and 100000 points and a multiple of 5, not {0}")]
    TargetOutOfRange(u32),
    #[error("{preset} has no per-move clock; clocks may be off only")]
    ClockNotInPreset { preset: &'static str },
}

/// A validated table configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Config {
    preset: Preset,
    players: Players,
    match_length: MatchLength,
    clocks: ClockMode,
    semipulito: bool,
    close_requires_pulito: bool,
}

/// Per-move clock for one turn, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveClock {
    pub limit_ms: u32,
    pub grace_ms: u32,
}

impl Config {
    pub fn new(settings: &TableSettings) -> Result<Config, ConfigError> {
        let preset = settings.preset;
        let match_length = settings.match_length.unwrap_or(match preset {
            Preset::Fitab => MatchLength::Hands(2),
            Preset::Feburit => MatchLength::Hands(3),
            Preset::Fedibur => MatchLength::Points(2000),
        });
        match match_length {
            MatchLength::Hands(n) if !(1..=8).contains(&n) => {
                return Err(ConfigError::HandsOutOfRange(n));
            }
            MatchLength::Points(p) if !(100..=100_000).contains(&p) || p % 5 != 0 => {
                return Err(ConfigError::TargetOutOfRange(p));
            }
            _ => {}
        }
        let preset_clocks = match preset {
            Preset::Fitab | Preset::Feburit => ClockMode::Federation,
            Preset::Fedibur => ClockMode::Off,
        };
        let clocks = settings.clocks.unwrap_or(preset_clocks);
        if preset_clocks == ClockMode::Off && clocks != ClockMode::Off {
            return Err(ConfigError::ClockNotInPreset {
                preset: preset.code(),
            });
        }
        Ok(Config {
            preset,
            players: settings.players.unwrap_or(Players::Four),
            match_length,
            clocks,
            semipulito: settings.semipulito.unwrap_or(preset != Preset::Fedibur),
            close_requires_pulito: settings.close_requires_pulito.unwrap_or(false),
        })
    }

    /// The preset with all its defaults and four players.
    pub fn of(preset: Preset) -> Config {
        Config::new(&TableSettings {
            preset,
            ..TableSettings::default()
        })
        .expect("preset defaults are valid")
    }

    /// The same configuration head to head.
    pub fn head_to_head(preset: Preset) -> Config {
        Config {
            players: Players::Two,
            ..Config::of(preset)
        }
    }

    /// Back to the unvalidated form, every setting explicit.
    pub fn settings(&self) -> TableSettings {
        TableSettings {
            preset: self.preset,
            players: Some(self.players),
            match_length: Some(self.match_length),
            clocks: Some(self.clocks),
            semipulito: Some(self.semipulito),
            close_requires_pulito: Some(self.close_requires_pulito),
        }
    }

    pub fn preset(&self) -> Preset {
        self.preset
    }

    pub fn players(&self) -> Players {
        self.players
    }

    pub fn match_length(&self) -> MatchLength {
        self.match_length
    }

    pub fn clocks(&self) -> ClockMode {
        self.clocks
    }

    pub fn semipulito(&self) -> bool {
        self.semipulito
    }

    pub fn close_requires_pulito(&self) -> bool {
        self.close_requires_pulito
    }

    pub fn burraco_values(&self) -> BurracoValues {
        let semipulito = self.semipulito.then_some(150);
        match self.preset {
            Preset::Fitab | Preset::Feburit => BurracoValues {
                reale: Some(300),
                super_: Some(250),
                pulito: 200,
                semipulito,
                sporco: 100,
            },
            Preset::Fedibur => BurracoValues {
                reale: None,
                super_: None,
                pulito: 200,
                semipulito,
                sporco: 100,
            },
        }
    }

    pub fn pile_closing(&self) -> PileClosing {
        match self.preset {
            Preset::Fitab => PileClosing::Forbidden,
            Preset::Feburit => PileClosing::Allowed,
            Preset::Fedibur => PileClosing::SingleCardOnly,
        }
    }

    /// Whether a player may close during the first round of the hand (FEDIBUR art. 5 forbids it).
    pub fn closing_in_first_round(&self) -> bool {
        self.preset != Preset::Fedibur
    }

    pub fn stallo_rule(&self) -> StalloRule {
        match self.preset {
            Preset::Fitab | Preset::Feburit => StalloRule::HandEnds,
            Preset::Fedibur => StalloRule::FirstExchangerMustDraw,
        }
    }

    /// The per-move clock for a turn begun holding `cards_held` cards (FITAB art. 34), if clocks run.
    pub fn move_clock(&self, cards_held: usize) -> Option<MoveClock> {
        let factor = self.clocks.factor()?;
        let seconds = match cards_held {
            0..=3 => 10,
            4..=10 => 20,
            _ => 40,
        };
        Some(MoveClock {
            limit_ms: seconds * 1000 * factor,
            grace_ms: 5000 * factor,
        })
    }

    /// The round clock of a match by hands, in milliseconds (FITAB and FE.BUR.IT art. 5).
    ///
    /// The codes give 2, 3 and 4 hands (22/32/42 and 25/35/45 minutes): ten minutes a hand plus 2
    /// (FITAB) or 5 (FE.BUR.IT). Other lengths follow the same line.
    pub fn round_clock_ms(&self) -> Option<u64> {
        let factor = u64::from(self.clocks.factor()?);
        let MatchLength::Hands(hands) = self.match_length else {
            return None;
        };
        let extra = match self.preset {
            Preset::Fitab => 2,
            Preset::Feburit => 5,
            Preset::Fedibur => return None,
        };
        Some((10 * u64::from(hands) + extra) * 60_000 * factor)
    }
}
