//! A tournament rebuilt from its log after a restart: the same fold as live, then the actor
//! picks up where the log stops. The tables of the round in play restore themselves (they are
//! tables like any other); a table the crash left uncreated is created; a round whose last
//! result was logged but whose successor was not is followed by it.

use std::sync::Arc;

use burraco_protocol::tournament_log::TournamentEntry;

use super::TournamentActor;
use super::state::{FoldError, TournamentState};
use crate::Shared;
use crate::log::Entry;

/// Why a tournament could not be rebuilt from its log.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    #[error("an entry does not decode: {0}")]
    Decode(#[from] burraco_protocol::log::LogDecodeError),
    #[error(transparent)]
    Fold(#[from] FoldError),
}

/// Rebuilds tournament `id` from its log entries and starts its actor.
pub fn restore(shared: &Arc<Shared>, id: String, log: Vec<Entry>) -> Result<(), RestoreError> {
    let entries: Vec<TournamentEntry> = log
        .iter()
        .map(|e| TournamentEntry::decode(e))
        .collect::<Result<_, _>>()?;
    let state = TournamentState::fold(id, &entries)?;
    super::spawn(shared, state, log.len() as u64);
    Ok(())
}

impl TournamentActor {
    /// At the actor's start: whatever the log left half done is finished.
    pub(super) async fn resume(&mut self) {
        self.embargo_boards();
        if self.state.finished || !self.state.started() {
            return;
        }
        if self.state.round_in_play().is_some() {
            self.create_missing_tables().await;
            self.pause_tables_as_logged().await;
            self.list_tables().await;
            self.send_players_to_tables();
            return;
        }
        // Every round logged is complete: the next one, or the end, at the first tick (unless
        // the director paused).
        self.advance = true;
    }
}
