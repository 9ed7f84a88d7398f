//! What a tournament tells the operator's `/metrics` (README, "Running the server"): how many
//! tournaments this node runs, and the server's work at a round's turning points: starting a
//! round (pairing, logging, its tables created, its players sent there), scoring the matches
//! that ended, and telling every player the standings.

use std::time::Instant;

use super::TournamentActor;

/// Tournaments this node runs that are not finished.
pub const IN_PLAY: &str = "burraco_tournaments";
/// A round started: from the director's or the clock's start to every player sent to a table.
pub const ROUND_START: &str = "burraco_tournament_round_start_seconds";
/// Matches scored: reading the finished tables' logs, scoring them and logging their results.
pub const RESULTS: &str = "burraco_tournament_results_seconds";
/// An update told: the standings computed and every entrant and watcher told.
pub const UPDATE: &str = "burraco_tournament_update_seconds";

/// Seconds since `started`, into the histogram `name`.
pub fn record_since(name: &'static str, started: Instant) {
    metrics::histogram!(name).record(started.elapsed().as_secs_f64());
}

impl TournamentActor {
    /// Keeps [`IN_PLAY`] true: this actor counts while it runs a tournament not finished.
    pub(super) fn count_in_play(&mut self, running: bool) {
        let counts = running && !self.state.finished;
        if counts != self.counted_in_play {
            let gauge = metrics::gauge!(IN_PLAY);
            if counts {
                gauge.increment(1.0);
            } else {
                gauge.decrement(1.0);
            }
            self.counted_in_play = counts;
        }
    }
}
