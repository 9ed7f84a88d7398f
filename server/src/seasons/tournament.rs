//! A finished tournament's places, awarded once by its id. The tournament's actor calls
//! [`award_places`] before it logs `Finished`: a node killed in between restores the tournament
//! still in play, which finishes again and awards again, and the key makes that second award a
//! no-op. The entrants' accounts come from their tables' logs (an account's seat is logged with
//! it), the places from the final standings.

use std::collections::HashMap;

use burraco_protocol::log::TableEntry;
use burraco_ratings::Category;

use super::{Award, PlacedAccount, Seasons, tournament_award};
use crate::log::TableLog;
use crate::port::PortError;
use crate::tournament::settings::Kind;
use crate::tournament::state::TournamentState;

/// The season category of an event's kind.
pub fn category_of(kind: Kind) -> Category {
    match kind {
        Kind::Singles => Category::Two,
        Kind::Pairs => Category::FixedPair,
        Kind::Individual | Kind::Teams => Category::Four,
    }
}

/// The award of `state`'s final standings at `at_ms`, reading its tables' logs for the
/// accounts (`log`: the tables' logs); `None` when no round was completed (an event called off).
pub async fn award_of(
    log: &dyn TableLog,
    state: &TournamentState,
    at_ms: i64,
) -> Result<Option<Award>, PortError> {
    let rounds = state.complete_rounds();
    if rounds == 0 {
        return Ok(None);
    }
    let mut accounts: HashMap<String, PlacedAccount> = HashMap::new();
    for table in state.rounds.iter().flat_map(|r| r.tables.iter()) {
        let entries = log
            .load(&table.table)
            .await
            .map_err(|e| PortError(e.to_string()))?;
        for bytes in &entries {
            if let Ok(TableEntry::AccountSeat {
                holder, account, ..
            }) = TableEntry::decode(bytes)
            {
                accounts.insert(holder.player, (account.id, account.bot));
            }
        }
    }
    let places: Vec<Vec<Option<PlacedAccount>>> = state
        .standings_after(rounds)
        .iter()
        .filter_map(|s| state.entrants.get(s.entrant))
        .map(|entrant| {
            entrant
                .players
                .iter()
                .map(|p| accounts.get(&p.player).cloned())
                .collect()
        })
        .collect();
    Ok(Some(tournament_award(
        &state.id,
        category_of(state.settings.kind),
        at_ms,
        &places,
    )))
}

/// Awards `state`'s places (once, by its id). A store that fails is logged and the tournament
/// finishes anyway: its places then miss the ladder (the log keeps them for a hand fix).
pub async fn award_places(
    log: &dyn TableLog,
    seasons: &dyn Seasons,
    state: &TournamentState,
    at_ms: i64,
) {
    let award = match award_of(log, state, at_ms).await {
        Ok(Some(award)) => award,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!(tournament = %state.id, "season places not read: {e}");
            return;
        }
    };
    for attempt in 0..3u32 {
        match seasons.award(&award).await {
            Ok(_) => return,
            Err(e) => {
                tracing::warn!(tournament = %state.id, "season places not written yet: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(200 << attempt)).await;
            }
        }
    }
}
