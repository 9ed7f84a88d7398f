//! Quick play (issue 32): whoever asks for the same kind of table at the same moment meets at
//! one table, on one node and across nodes.
//!
//! - On a node, asking is one step per kind ([`claim_seat`]): under the kind's lock the table is
//!   picked (or, with none open, made) and a seat at it is claimed; the lock is let go before
//!   the join, which may be a round trip to another node. A claimed seat counts as taken until
//!   its join is answered, so the next asker of the kind finds the table with one seat fewer,
//!   instead of making another (or crowding into a seat already promised).
//! - Across nodes (two askers at two nodes see no table yet and each make one) and for rated
//!   players whose windows widen as they wait, [`matcher`] looks every second at the waiting
//!   tables of each kind and brings them together ([`merge`]): the players of one move to the
//!   other, told so by 1.9 `quick_play_moved` (the table's side: `crate::table::moves`).

pub mod matcher;
pub mod merge;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use burraco_protocol::wire::WireSettings;
use burraco_rules::{Players, Preset};

use crate::Shared;
use crate::lobby::{self, LobbyError};
use crate::table::{Mover, TableHandle, TableInfo};

/// A kind of table quick play seats at: its preset, how many play, rated or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Kind {
    pub preset: Preset,
    pub players: Players,
    pub rated: bool,
}

impl Kind {
    /// The kind of a table, from what the lobby shows of it.
    pub fn of(info: &TableInfo) -> Option<Kind> {
        let players = match info.summary.players {
            2 => Players::Two,
            4 => Players::Four,
            _ => return None,
        };
        Some(Kind {
            preset: Preset::from_code(&info.summary.preset)?,
            players,
            rated: info.rated,
        })
    }

    /// The settings quick play opens a table of this kind with.
    fn settings(self) -> WireSettings {
        WireSettings {
            preset: self.preset.code().into(),
            players: Some(self.players.count() as u8),
            ..Default::default()
        }
    }
}

/// What quick play keeps on a node: a lock per kind, and the seats claimed and not yet taken.
#[derive(Debug, Default)]
pub struct QuickPlay {
    kinds: Mutex<HashMap<Kind, Arc<tokio::sync::Mutex<()>>>>,
    /// By table: the seats promised there.
    claims: Mutex<HashMap<String, Vec<Promised>>>,
    next_claim: AtomicU64,
}

/// A seat promised at a table: to whom (and the account it is for, `None` for a guest).
#[derive(Debug, Clone)]
struct Promised {
    claim: u64,
    player: String,
    account: Option<String>,
}

impl QuickPlay {
    /// The lock picking a table of `kind` takes (one per kind: askers of different kinds never
    /// wait for each other).
    fn lock_of(&self, kind: Kind) -> Arc<tokio::sync::Mutex<()>> {
        let mut kinds = self.kinds.lock().unwrap_or_else(|e| e.into_inner());
        kinds.entry(kind).or_default().clone()
    }

    fn claims(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<Promised>>> {
        self.claims.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The seats claimed at `table` now.
    fn promised(&self, table: &str) -> Vec<Promised> {
        self.claims().get(table).cloned().unwrap_or_default()
    }

    /// The table's info, if `kind`'s and open to quick play, with the accounts (`None`: guests)
    /// of the seats claimed there and not taken yet. The claims are read first: a claim is
    /// dropped only once its join is answered, after the table's info shows the seat, so a
    /// claim gone from the first read shows in the info read second, and one the info shows
    /// taken is not counted twice.
    fn look(&self, table: &TableHandle, kind: Kind) -> Option<(TableInfo, Vec<Option<String>>)> {
        let promised = self.promised(table.id());
        let info =
            table.info_if(|info| open_to_quick_play(info) && Kind::of(info) == Some(kind))?;
        let pending = promised
            .into_iter()
            .filter(|p| !info.players.contains(&p.player))
            .map(|p| p.account)
            .collect();
        Some((info, pending))
    }

    fn unclaim(&self, table: &str, claim: u64) {
        let mut claims = self.claims();
        if let Some(list) = claims.get_mut(table) {
            list.retain(|p| p.claim != claim);
            if list.is_empty() {
                claims.remove(table);
            }
        }
    }
}

/// A seat quick play promised at a table: counted as taken until its player sits there, or
/// until dropped (the join answered, whatever it said).
#[derive(Debug)]
pub struct Claim {
    shared: Arc<Shared>,
    pub table: TableHandle,
    claim: u64,
}

impl Claim {
    fn new(shared: &Arc<Shared>, table: TableHandle, player: &str, account: Option<&str>) -> Claim {
        let quick = &shared.quick_play;
        let claim = quick.next_claim.fetch_add(1, Ordering::Relaxed);
        quick
            .claims()
            .entry(table.id().to_owned())
            .or_default()
            .push(Promised {
                claim,
                player: player.to_owned(),
                account: account.map(str::to_owned),
            });
        Claim {
            shared: shared.clone(),
            table,
            claim,
        }
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        self.shared.quick_play.unclaim(self.table.id(), self.claim);
    }
}

/// A seat for `player`'s quick play of `kind` (`account`: the rated asker's): the open table of
/// the kind (for rated play, the closest rating within its window), or a new one; claimed until
/// the player sits there or the returned [`Claim`] is dropped (once the join is answered).
pub async fn claim_seat(
    shared: &Arc<Shared>,
    kind: Kind,
    player: &str,
    account: Option<&str>,
) -> Result<Claim, LobbyError> {
    let lock = shared.quick_play.lock_of(kind);
    let _picking = lock.lock().await;
    let handle = match pick(shared, kind, account).await {
        Some(handle) => handle,
        None => lobby::create_for_quick_play(shared, &kind.settings(), kind.rated).await?,
    };
    Ok(Claim::new(shared, handle, player, account))
}

/// Claims seats at `table` (of `kind`) for the players quick play brings there, if it has room
/// for them beside the seats already claimed: held until the table has seated them.
pub(crate) async fn claim_for_move(
    shared: &Arc<Shared>,
    kind: Kind,
    table: &TableHandle,
    movers: &[Mover],
) -> Option<Vec<Claim>> {
    let lock = shared.quick_play.lock_of(kind);
    let _picking = lock.lock().await;
    let (info, pending) = shared.quick_play.look(table, kind)?;
    if info.free_seats < pending.len() + movers.len() {
        return None;
    }
    Some(
        movers
            .iter()
            .map(|m| {
                let account = m.account.as_ref().map(|a| a.id.as_str());
                Claim::new(shared, table.clone(), &m.player, account)
            })
            .collect(),
    )
}

/// A public table still waiting with a free seat, whose seated players are not all gone.
fn open_to_quick_play(info: &TableInfo) -> bool {
    !info.private && info.waiting && !info.finished && !info.deserted && info.free_seats > 0
}

/// A waiting table of the kind with a seat nobody has claimed, and (rated) without `account`
/// seated or on its way: this node's first (the oldest), else another node's.
async fn pick(shared: &Arc<Shared>, kind: Kind, account: Option<&str>) -> Option<TableHandle> {
    let quick = &shared.quick_play;
    let open = |info: &TableInfo, claimed: &[Option<String>]| {
        Kind::of(info) == Some(kind)
            && open_to_quick_play(info)
            && info.free_seats > claimed.len()
            && account.is_none_or(|me| {
                !info.accounts.iter().any(|(_, a)| a == me)
                    && !claimed.iter().any(|c| c.as_deref() == Some(me))
            })
    };
    let mut here: Vec<(TableInfo, Vec<Option<String>>, TableHandle)> = shared
        .directory
        .tables()
        .into_iter()
        .filter_map(|handle| {
            let (info, pending) = quick.look(&handle, kind)?;
            Some((info, pending, handle))
        })
        .filter(|(info, claimed, _)| open(info, claimed))
        .collect();
    here.sort_by(|a, b| {
        (a.0.created_ms, &a.0.summary.table).cmp(&(b.0.created_ms, &b.0.summary.table))
    });
    let mut elsewhere: Vec<(TableInfo, Vec<Option<String>>)> = shared
        .backplane
        .listings
        .open_elsewhere()
        .into_iter()
        .map(|(_, listing)| (listing.info(), Vec::new()))
        .filter(|(info, claimed)| open(info, claimed))
        .collect();
    elsewhere.sort_by(|a, b| {
        (a.0.created_ms, &a.0.summary.table).cmp(&(b.0.created_ms, &b.0.summary.table))
    });
    let Some(account) = account.filter(|_| kind.rated) else {
        if let Some((_, _, handle)) = here.into_iter().next() {
            return Some(handle);
        }
        let (info, _) = elsewhere.into_iter().next()?;
        return lobby::find(shared, &info.summary.table).await;
    };
    let candidates: Vec<(TableInfo, Vec<Option<String>>)> = here
        .iter()
        .map(|(info, claimed, _)| (info.clone(), claimed.clone()))
        .chain(elsewhere)
        .collect();
    let id = closest_rated(shared, account, &candidates).await?;
    if let Some((_, _, handle)) = here
        .into_iter()
        .find(|(info, _, _)| info.summary.table == id)
    {
        return Some(handle);
    }
    lobby::find(shared, &id).await
}

/// How long a table has waited, as rated quick play counts a wait (`quick_play_second` a
/// second: tests shrink it).
pub(crate) fn waited_ms(shared: &Shared, created_ms: i64, now_ms: i64) -> i64 {
    let second = shared.config.quick_play_second.as_millis().max(1) as i64;
    (now_ms - created_ms).max(0).saturating_mul(1000) / second
}

/// The rated table among `candidates` whose seated (and claimed) accounts' mean rating is
/// closest to `account`'s, within the window its wait has opened (ratings unknown count as new
/// ones).
async fn closest_rated(
    shared: &Shared,
    account: &str,
    candidates: &[(TableInfo, Vec<Option<String>>)],
) -> Option<String> {
    let (first, _) = candidates.first()?;
    let category = crate::ratings::category_of(first.summary.players);
    let accounts_at = |(info, claimed): &(TableInfo, Vec<Option<String>>)| -> Vec<String> {
        info.accounts
            .iter()
            .map(|(_, a)| a.clone())
            .chain(claimed.iter().flatten().cloned())
            .collect()
    };
    let mut subjects = vec![crate::ratings::Subject::one(category, account)];
    for candidate in candidates {
        for seated in accounts_at(candidate) {
            subjects.push(crate::ratings::Subject::one(category, &seated));
        }
    }
    let stored = shared.ratings.ratings(&subjects).await.unwrap_or_default();
    let rating_of = |id: &str| {
        stored
            .get(&crate::ratings::Subject::one(category, id))
            .map_or(burraco_ratings::Rating::new().rating, |s| s.rating.rating)
    };
    let now = crate::ids::unix_ms();
    let tables: Vec<crate::ratings::WaitingTable> = candidates
        .iter()
        .map(|candidate| {
            let seated: Vec<f64> = accounts_at(candidate)
                .iter()
                .map(|a| rating_of(a))
                .collect();
            let info = &candidate.0;
            crate::ratings::WaitingTable {
                table: info.summary.table.clone(),
                mean_rating: if seated.is_empty() {
                    rating_of(account)
                } else {
                    seated.iter().sum::<f64>() / seated.len() as f64
                },
                waited_ms: waited_ms(shared, info.created_ms, now),
            }
        })
        .collect();
    crate::ratings::closest_table(rating_of(account), &tables)
}
