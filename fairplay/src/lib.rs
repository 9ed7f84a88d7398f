//! Fair-play detectors over hand records (docs/FAIR_PLAY.md).
//!
//! Each detector is a statistic with its expected value under fair play, computed from what the
//! player could see when it moved: its own hand, the table, the cards it saw others pick up.
//! The observed value comes from the hidden cards the record reveals. A player who sees hidden
//! cards (a partner's hand, an opponent's, the tallone) or receives them through a signal makes
//! moves that agree with those cards more than its own information explains.
//!
//! - [`walk`]: a record replayed move by move, every seat's knowledge beside the real game.
//! - [`fit`]: when a card fits a hand, and the chance of it from one seat's information.
//! - [`detector`]: the statistics.
//! - [`stats`]: per-hand sums, t-scores and the normal tail.
//! - [`report`]: per-player scores and the hands behind them.
//! - [`calibration`]: the false-alarm threshold's rule and its measured values.
//! - [`chart`]: an SVG line chart, for the proof's report.
//!
//! Pure code over records: no files, no clock, no randomness.

pub mod calibration;
pub mod chart;
pub mod detector;
pub mod fit;
pub mod report;
pub mod stats;
pub mod walk;

pub use detector::{Detector, Observation};
pub use report::{Analysis, DetectorScore, PlayerReport};
