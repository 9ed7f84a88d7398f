//! Every quick-play second, each node looks at the waiting tables of every kind (its own and,
//! from the lobby's listings, the other nodes') and carries out the merges of [`super::merge`]'s
//! plan into its own tables: two askers who made a table each on two nodes at the same moment,
//! and two rated players whose windows have widened to reach each other, meet without anybody
//! new asking. A merge into a table is only ever made by the node serving it, so two nodes
//! never move the same players at once; the table they leave checks that they are still
//! exactly its players before they go (`crate::table::moves`).

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::oneshot;

use super::merge::{self, Merge, Waiting};
use super::{Kind, claim_for_move, open_to_quick_play, waited_ms};
use crate::Shared;
use crate::table::{Command, Mover, TableInfo};

/// Starts the look, every `quick_play_second`, until the server stops.
pub fn start(shared: &Arc<Shared>) {
    let shared = shared.clone();
    shared.tracker.clone().spawn(async move {
        let mut tick = tokio::time::interval(shared.config.quick_play_second);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = shared.shutdown.cancelled() => return,
                _ = tick.tick() => look(&shared).await,
            }
        }
    });
}

/// A waiting table as the look found it.
struct Seen {
    info: TableInfo,
    /// Served by this node.
    here: bool,
}

/// One look: the plan of each kind with a table of this node's, and its merges into them.
async fn look(shared: &Arc<Shared>) {
    if shared.backplane.node.is_draining() {
        return;
    }
    let mut kinds: HashMap<Kind, Vec<Seen>> = HashMap::new();
    for handle in shared.directory.tables() {
        let info = handle.info();
        if let Some(kind) = Kind::of(&info).filter(|_| open_to_quick_play(&info)) {
            kinds
                .entry(kind)
                .or_default()
                .push(Seen { info, here: true });
        }
    }
    // Another node's tables matter only beside one of this node's: a merge is made by the node
    // serving the table that receives.
    for (_, listing) in shared.backplane.listings.open_elsewhere() {
        let info = listing.info();
        if let Some(seen) = Kind::of(&info)
            .filter(|_| open_to_quick_play(&info))
            .and_then(|kind| kinds.get_mut(&kind))
        {
            seen.push(Seen { info, here: false });
        }
    }
    kinds.retain(|_, seen| seen.len() > 1 && seen.iter().any(|s| s.here));
    if kinds.is_empty() {
        return;
    }
    let ratings = mean_ratings(shared, &kinds).await;
    let now = crate::ids::unix_ms();
    for (kind, seen) in kinds {
        let waiting: Vec<Waiting> = seen
            .iter()
            .map(|s| Waiting {
                table: s.info.summary.table.clone(),
                created_ms: s.info.created_ms,
                waited_ms: waited_ms(shared, s.info.created_ms, now),
                seated: seated(&s.info),
                free: s.info.free_seats,
                movable: !s.info.movers.is_empty(),
                mean_rating: kind
                    .rated
                    .then(|| ratings.get(&s.info.summary.table).copied())
                    .flatten(),
            })
            // A rated table is weighed by its accounts' ratings: one without is not.
            .filter(|w| !kind.rated || w.mean_rating.is_some())
            .collect();
        for planned in merge::merges(&waiting) {
            let Some(source) = seen.iter().find(|s| s.info.summary.table == planned.from) else {
                continue;
            };
            if seen
                .iter()
                .any(|s| s.here && s.info.summary.table == planned.into)
            {
                bring(shared, kind, &planned, source.info.movers.clone()).await;
            }
        }
    }
}

/// The seats taken at a table, as the lobby shows it.
fn seated(info: &TableInfo) -> usize {
    info.summary
        .seats
        .iter()
        .filter(|s| s.name.is_some())
        .count()
}

/// Each rated table's seated accounts' mean rating (a rating not made yet counts as a new one),
/// in one read of the ratings' store.
async fn mean_ratings(shared: &Shared, kinds: &HashMap<Kind, Vec<Seen>>) -> HashMap<String, f64> {
    let rated: Vec<&TableInfo> = kinds
        .iter()
        .filter(|(kind, _)| kind.rated)
        .flat_map(|(_, seen)| seen.iter().map(|s| &s.info))
        .collect();
    if rated.is_empty() {
        return HashMap::new();
    }
    let subject = |info: &TableInfo, account: &str| {
        crate::ratings::Subject::one(crate::ratings::category_of(info.summary.players), account)
    };
    let subjects: Vec<_> = rated
        .iter()
        .flat_map(|info| info.accounts.iter().map(|(_, a)| subject(info, a)))
        .collect();
    let Ok(stored) = shared.ratings.ratings(&subjects).await else {
        return HashMap::new();
    };
    let new = burraco_ratings::Rating::new().rating;
    rated
        .into_iter()
        .filter(|info| !info.accounts.is_empty())
        .map(|info| {
            let sum: f64 = info
                .accounts
                .iter()
                .map(|(_, a)| {
                    stored
                        .get(&subject(info, a))
                        .map_or(new, |s| s.rating.rating)
                })
                .sum();
            (info.summary.table.clone(), sum / info.accounts.len() as f64)
        })
        .collect()
}

/// Carries out one merge into a table of this node: the seats held there (claimed meanwhile,
/// so quick play's askers do not crowd into them), then the table left told to let its players
/// go.
async fn bring(shared: &Arc<Shared>, kind: Kind, planned: &Merge, movers: Vec<Mover>) {
    let Some(target) = shared.directory.table(&planned.into) else {
        return;
    };
    let Some(claims) = claim_for_move(shared, kind, &target, &movers).await else {
        return;
    };
    let (reply, held) = oneshot::channel();
    let hold = Command::HoldMoved {
        from: planned.from.clone(),
        movers,
        reply,
    };
    if target.try_send(hold).is_err() {
        return;
    }
    let Ok(Some(seats)) = held.await else {
        return;
    };
    drop(claims);
    let source = crate::lobby::find(shared, &planned.from).await;
    let told = match source {
        Some(source) => {
            source
                .send(Command::MoveOut {
                    to: planned.into.clone(),
                    seats: seats.clone(),
                })
                .await
        }
        None => false,
    };
    if !told {
        // The table they were to leave is gone: nobody comes for the seats.
        let players = seats.into_iter().map(|(player, _)| player).collect();
        target.send(Command::ReleaseHeld { players }).await;
    }
}
