//! The arena's match-end projection ([`settle_log`], the last step of `crate::projections`'
//! `settle`, run for every table whose match ended): for an arena table, the match settled from
//! its tables' logs ([`super::result::settle`]) once it can be, exactly once whichever of its
//! tables ends last, on whichever node, after whatever crash: rated by `Ratings::apply` keyed by
//! the arena's id, or void (its record taken out of the daily cap, [`ArenaStore::void`], also
//! idempotent); then its boards' hand records let out.

use burraco_protocol::log::TableEntry;

use super::result::{self, Settlement, Standing};
use super::store::ArenaStore;
use crate::backplane::Embargo;
use crate::log::TableLog;
use crate::port::PortError;
use crate::ratings::{Applied, Policy, Ratings};

/// What the arena's projection uses: the tables' logs, the boards held back, the ratings and
/// the arena's own store.
#[derive(Debug, Clone, Copy)]
pub struct Stores<'a> {
    pub log: &'a dyn TableLog,
    pub embargo: &'a dyn Embargo,
    pub ratings: &'a dyn Ratings,
    pub arena: &'a dyn ArenaStore,
}

/// The arena's projection of table `table`'s match end (`entries`: its log): nothing for any
/// other table, nor while the match must wait for a table still in play (its end runs this
/// again). The ratings' answer when the match was rated.
pub async fn settle_log(
    stores: Stores<'_>,
    table: &str,
    entries: &[Vec<u8>],
) -> Result<Option<Applied>, PortError> {
    let Some(arena) = result::arena_of(entries) else {
        return Ok(None);
    };
    let ids = super::tables_of(&arena);
    let mut readings = Vec::new();
    for id in &ids {
        let loaded;
        let table_entries = if id == table {
            entries
        } else {
            loaded = stores
                .log
                .load(id)
                .await
                .map_err(|e| PortError(e.to_string()))?;
            &loaded[..]
        };
        let Some(reading) = result::read_table(table_entries) else {
            tracing::warn!(%arena, table = %id, "an arena table's log does not read");
            return Ok(None);
        };
        // The tables after one closed unplayed are never played: not read.
        let closed = reading.standing == Standing::Closed;
        readings.push(reading);
        if closed {
            break;
        }
    }
    let applied = match result::settle(&arena, &readings) {
        None => return Ok(None),
        Some(Settlement::Void) => {
            stores.arena.void(&arena).await?;
            tracing::info!(%arena, "arena match void: nobody came");
            None
        }
        Some(Settlement::Rated(m)) => {
            let policy = Policy {
                // Bots play a match in seconds: the people's rule against a match thrown at
                // once would leave every arena match unrated. The arena makes its matches itself
                // (two duplicate tables, an opponent it chose or a challenge), so a throw costs
                // the thrower both directions of the deal, and its daily cap bounds how often.
                min_play_ms: 0,
                // The arena's own cap limits matches when they are made; the same two bots
                // meeting often is the arena's design, not farming.
                daily_cap: u32::MAX,
                now_ms: crate::ids::unix_ms(),
            };
            let applied = stores.ratings.apply(&m, policy).await?;
            if let Applied::NotRated(why) = &applied {
                tracing::info!(%arena, reason = why.as_str(), "arena match not rated");
            }
            Some(applied)
        }
    };
    lift_embargo(stores.log, stores.embargo, &ids).await;
    Ok(applied)
}

/// Lets the boards' hand records out once the match is settled.
async fn lift_embargo(log: &dyn TableLog, embargo: &dyn Embargo, ids: &[String; 2]) {
    let Ok(first) = log.load(&ids[0]).await else {
        return;
    };
    for bytes in &first {
        if let Ok(TableEntry::Boards { seeds, .. }) = TableEntry::decode(bytes) {
            for seed in seeds {
                let commitment = burraco_rules::Seed(seed).commitment_hex();
                embargo.set(&commitment, false);
            }
        }
    }
}
