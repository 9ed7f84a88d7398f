//! A match's end as its table announces it: recorded pending ([`pending`]) before the end is
//! logged, then announced ([`MatchEnds::announce`]) once it is, on a bounded channel that the
//! match-end projections (`crate::projections`) listen to. The table never calls the
//! projections, which read its log: the arrow runs one way. An announcement that is lost (the
//! channel full, a crash) only comes later: the pending row stays, and the projections' sweep
//! runs it within a minute, exactly once all the same.

use std::sync::Mutex;

use tokio::sync::mpsc;

use crate::ratings::Ratings;

/// Announcements waiting for the projections' listener; past this a burst of match ends waits
/// for the sweep.
const WAITING: usize = 1024;

/// A match that ended, durably in its table's log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchEnd {
    pub table: String,
    /// When it ended (Unix ms), as its pending row holds it.
    pub ended_ms: i64,
}

/// The channel from the tables to the projections' listener.
#[derive(Debug)]
pub struct MatchEnds {
    sender: mpsc::Sender<MatchEnd>,
    /// Taken once, by the listener the node starts.
    receiver: Mutex<Option<mpsc::Receiver<MatchEnd>>>,
}

impl Default for MatchEnds {
    fn default() -> Self {
        let (sender, receiver) = mpsc::channel(WAITING);
        MatchEnds {
            sender,
            receiver: Mutex::new(Some(receiver)),
        }
    }
}

impl MatchEnds {
    /// Tells the projections that `table`'s match ended at `ended_ms` (its end now in the log).
    pub fn announce(&self, table: &str, ended_ms: i64) {
        let end = MatchEnd {
            table: table.to_owned(),
            ended_ms,
        };
        if let Err(e) = self.sender.try_send(end) {
            tracing::warn!(%table, "a match's end left to the sweep: {e}");
        }
    }

    /// The listener's end of the channel: `Some` once.
    pub fn take_receiver(&self) -> Option<mpsc::Receiver<MatchEnd>> {
        self.receiver
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }
}

/// Records table `table`'s match as ending now, before its end is logged, and returns that
/// time. A store that fails is logged and the end goes on: the announcement still runs the
/// projections (only a crash before they run then loses them).
pub async fn pending(ratings: &dyn Ratings, table: &str) -> i64 {
    let now = crate::ids::unix_ms();
    if !ratings.available() {
        // A server that keeps no ratings (a cluster without a database) keeps no index or
        // outcomes either: nothing pending.
        return now;
    }
    if let Err(e) = ratings.ended(table, now).await {
        tracing::warn!(%table, "the match's end not recorded as pending: {e}");
    }
    now
}
