//! The fair-play crate's integration tests: one binary, a module per subject.

/// Each detector on constructed records.
mod detectors;
/// The figures docs/FAIR_PLAY.md quotes, against the code's.
mod docs;
/// The cheating bots' and honest bots' tables, played in process and scored (shared with the
/// `roc` example).
mod harness;
/// The detectors against the cheating bots.
mod proof;
