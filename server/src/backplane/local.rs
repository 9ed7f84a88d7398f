//! The single node's ports: in memory, and the embedded SQLite store for what must outlive the
//! process (sessions, hand records). Nothing here waits on a network.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};

use burraco_protocol::ErrorCode;
use burraco_protocol::wire::{ClientMessage, ServerMessage};
use burraco_rules::Seat;

use super::{
    Backplane, Embargo, Leases, Listing, Listings, Node, Peers, PortError, PortFuture, Records,
    Sessions, TournamentListings,
};
use crate::outbound::Frame;
use crate::session::{ResumeKey, Session};
use crate::store::{Store, Write};
use crate::table::{TableHandle, TableInfo};
use crate::tournament::{Refusal, Summary};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Backplane {
    /// The single node `node`: its own SQLite store is its log, its sessions and its records.
    pub fn local(store: &Store, node: &str) -> Backplane {
        Backplane {
            log: Arc::new(store.clone()),
            leases: Arc::new(MemoryLeases::new(node)),
            sessions: Arc::new(StoreSessions(store.clone())),
            listings: Arc::new(MemoryListings::new(node)),
            tournament_listings: Arc::new(MemoryTournamentListings::default()),
            embargo: Arc::new(MemoryEmbargo::default()),
            records: Arc::new(StoreRecords(store.clone())),
            peers: Arc::new(NoPeers),
            node: Arc::new(LocalNode::new(node)),
            accounts: Arc::new(crate::accounts::Unconfigured),
            players: Arc::new(crate::players::Unconfigured),
            fairplay: Arc::new(crate::fairplay::Unconfigured),
        }
    }
}

/// Leases in one process: taken by inserting, given back by removing. Views made with
/// [`MemoryLeases::beside`] share them, as the nodes of a cluster share their bucket.
#[derive(Debug)]
pub struct MemoryLeases {
    node: String,
    /// Id to the node holding it.
    held: Arc<Mutex<HashMap<String, String>>>,
}

impl MemoryLeases {
    pub fn new(node: &str) -> MemoryLeases {
        MemoryLeases {
            node: node.to_owned(),
            held: Arc::default(),
        }
    }

    /// Another node's view of the same leases.
    pub fn beside(&self, node: &str) -> MemoryLeases {
        MemoryLeases {
            node: node.to_owned(),
            held: self.held.clone(),
        }
    }
}

impl Leases for MemoryLeases {
    fn take<'a>(&'a self, id: &'a str) -> PortFuture<'a, bool> {
        Box::pin(async move {
            let mut held = lock(&self.held);
            if held.contains_key(id) {
                return false;
            }
            held.insert(id.to_owned(), self.node.clone());
            true
        })
    }

    fn release<'a>(&'a self, id: &'a str) -> PortFuture<'a, ()> {
        Box::pin(async move {
            let mut held = lock(&self.held);
            if held.get(id) == Some(&self.node) {
                held.remove(id);
            }
        })
    }

    fn holder<'a>(&'a self, id: &'a str) -> PortFuture<'a, Result<Option<String>, PortError>> {
        Box::pin(async move { Ok(lock(&self.held).get(id).cloned()) })
    }
}

/// Sessions in the SQLite store.
#[derive(Debug)]
pub struct StoreSessions(pub Store);

impl Sessions for StoreSessions {
    fn open<'a>(&'a self, key: &'a ResumeKey, session: &'a Session) -> PortFuture<'a, bool> {
        Box::pin(async move {
            let write = Write::Session {
                key: key.as_str().to_owned(),
                session: session.clone(),
            };
            self.0.write(vec![write]).await.is_ok()
        })
    }

    fn find<'a>(&'a self, key: &'a ResumeKey) -> PortFuture<'a, Option<Session>> {
        Box::pin(async move { self.0.session(key.as_str().to_owned()).await.ok()? })
    }
}

/// Listings in memory, by owner. Views made with [`MemoryListings::beside`] share one map, as
/// the nodes of a cluster share their bucket (the conformance suite plays two nodes that way);
/// the single node has one view and keeps nothing: its own tables are in its directory, and no
/// other node reads their listings.
#[derive(Debug)]
pub struct MemoryListings {
    node: String,
    /// Owner to (table to listing).
    owners: Arc<Mutex<HashMap<String, HashMap<String, Listing>>>>,
}

impl MemoryListings {
    pub fn new(node: &str) -> MemoryListings {
        MemoryListings {
            node: node.to_owned(),
            owners: Arc::default(),
        }
    }

    /// Another node's view of the same listings.
    pub fn beside(&self, node: &str) -> MemoryListings {
        MemoryListings {
            node: node.to_owned(),
            owners: self.owners.clone(),
        }
    }

    /// Runs `f` over the listings of other nodes' tables.
    fn others<T>(&self, f: impl FnOnce(&mut dyn Iterator<Item = (&String, &Listing)>) -> T) -> T {
        let owners = lock(&self.owners);
        let mut others = owners
            .iter()
            .filter(|(owner, _)| **owner != self.node)
            .flat_map(|(_, tables)| tables.iter());
        f(&mut others)
    }
}

impl Listings for MemoryListings {
    fn publish(&self, table: &str, listing: Listing) {
        // Listings are for the other nodes: with no other view of them (the single node) there
        // is nobody to read one, and a table's listing would only cost its memory.
        if Arc::strong_count(&self.owners) == 1 {
            return;
        }
        let mut owners = lock(&self.owners);
        // A table moved: its old owner's listing is stale.
        for (owner, tables) in owners.iter_mut() {
            if *owner != listing.owner {
                tables.remove(table);
            }
        }
        owners
            .entry(listing.owner.clone())
            .or_default()
            .insert(table.to_owned(), listing);
    }

    fn forget_pending(&self, _table: &str) {
        // Written at once: nothing is pending.
    }

    fn unlist(&self, table: &str) {
        if let Some(tables) = lock(&self.owners).get_mut(&self.node) {
            tables.remove(table);
        }
    }

    fn flush(&self) -> PortFuture<'_, ()> {
        Box::pin(async {})
    }

    fn flush_table<'a>(&'a self, _table: &'a str) -> PortFuture<'a, ()> {
        Box::pin(async {})
    }

    fn elsewhere(&self) -> Vec<(String, Listing)> {
        self.others(|others| others.map(|(t, l)| (t.clone(), l.clone())).collect())
    }

    fn open_elsewhere(&self) -> Vec<(String, Listing)> {
        self.others(|others| {
            others
                .filter(|(_, l)| l.is_open())
                .map(|(t, l)| (t.clone(), l.clone()))
                .collect()
        })
    }

    fn listing<'a>(&'a self, table: &'a str) -> PortFuture<'a, Option<Listing>> {
        Box::pin(async move { self.seen(table) })
    }

    fn seen(&self, table: &str) -> Option<Listing> {
        lock(&self.owners)
            .values()
            .find_map(|tables| tables.get(table))
            .cloned()
    }

    fn by_invite<'a>(&'a self, code: &'a str) -> PortFuture<'a, Option<(String, Listing)>> {
        Box::pin(async move {
            let code = code.to_uppercase();
            self.others(|others| {
                let mut found = others.filter(|(_, l)| l.invite.as_deref() == Some(code.as_str()));
                found.next().map(|(t, l)| (t.clone(), l.clone()))
            })
        })
    }

    fn seats_of(&self, player: &str) -> Vec<(String, Seat)> {
        self.others(|others| {
            others
                .flat_map(|(t, l)| l.seats_of(player).map(|s| (t.clone(), s)))
                .collect()
        })
    }

    fn node(&self) -> &str {
        &self.node
    }
}

/// Tournaments' listings in memory.
#[derive(Debug, Default)]
pub struct MemoryTournamentListings(Mutex<HashMap<String, Summary>>);

impl TournamentListings for MemoryTournamentListings {
    fn list<'a>(&'a self, id: &'a str, summary: &'a Summary) -> PortFuture<'a, ()> {
        Box::pin(async move {
            lock(&self.0).insert(id.to_owned(), summary.clone());
        })
    }

    fn listed(&self) -> PortFuture<'_, Result<Vec<(String, Summary)>, PortError>> {
        Box::pin(async move {
            let mut listed: Vec<(String, Summary)> = lock(&self.0)
                .iter()
                .map(|(id, s)| (id.clone(), s.clone()))
                .collect();
            listed.sort_by(|a, b| a.0.cmp(&b.0));
            Ok(listed)
        })
    }
}

/// Embargoes in memory.
#[derive(Debug, Default)]
pub struct MemoryEmbargo(Mutex<HashSet<String>>);

impl MemoryEmbargo {
    /// Whether nothing is under embargo (the common case: no duplicate event in play).
    pub fn is_empty(&self) -> bool {
        lock(&self.0).is_empty()
    }

    /// Of `commitments`, those under embargo here.
    pub fn hidden_here(&self, commitments: &[String]) -> HashSet<String> {
        let set = lock(&self.0);
        commitments
            .iter()
            .filter(|c| set.contains(*c))
            .cloned()
            .collect()
    }
}

impl Embargo for MemoryEmbargo {
    fn set(&self, commitment: &str, on: bool) {
        let mut set = lock(&self.0);
        if on {
            set.insert(commitment.to_owned());
        } else {
            set.remove(commitment);
        }
    }

    fn hidden<'a>(&'a self, commitments: &'a [String]) -> PortFuture<'a, HashSet<String>> {
        Box::pin(async move { self.hidden_here(commitments) })
    }
}

/// Hand records from the SQLite store's projections.
#[derive(Debug)]
pub struct StoreRecords(pub Store);

impl Records for StoreRecords {
    fn of_table<'a>(&'a self, table: &'a str) -> PortFuture<'a, Result<String, PortError>> {
        Box::pin(async move {
            self.0
                .table_records(table.to_owned())
                .await
                .map_err(|e| PortError(e.to_string()))
        })
    }

    fn of_player<'a>(&'a self, name: &'a str) -> PortFuture<'a, Result<String, PortError>> {
        Box::pin(async move {
            self.0
                .player_records(name.to_owned())
                .await
                .map_err(|e| PortError(e.to_string()))
        })
    }
}

/// One node has no peers: no listing names another owner, so nothing is forwarded.
#[derive(Debug)]
pub struct NoPeers;

impl Peers for NoPeers {
    fn remote_table(&self, table: &str, _owner: &str, info: TableInfo) -> TableHandle {
        // Unreachable by construction; a handle whose commands find the table gone.
        let (tx, _) = tokio::sync::mpsc::channel(1);
        TableHandle::forwarding(table, tx, info)
    }

    fn may_reach_others(&self) -> bool {
        false
    }

    fn forget_conn(&self, _conn: u64) {}

    fn tell(&self, _player: &str, _frame: &Arc<Frame>) {}

    fn arrived(&self, _player: &str) {}

    fn table_ended(&self, _tournament: &str, _table: &str) {}

    fn forward_tournament<'a>(
        &'a self,
        _owner: &'a str,
        _session: &'a Session,
        _account: Option<&'a str>,
        _minor: u16,
        request: &'a ClientMessage,
    ) -> PortFuture<'a, Result<ServerMessage, Refusal>> {
        Box::pin(async move {
            Err((
                ErrorCode::UnknownTournament,
                format!("{}: no such tournament", request.kind()),
            ))
        })
    }
}

/// The single node: ready until it stops; a drain has nobody to hand the tables to.
#[derive(Debug)]
pub struct LocalNode {
    name: String,
}

impl LocalNode {
    pub fn new(name: &str) -> LocalNode {
        LocalNode {
            name: name.to_owned(),
        }
    }
}

impl Node for LocalNode {
    fn name(&self) -> &str {
        &self.name
    }

    fn ready(&self) -> bool {
        true
    }

    fn is_draining(&self) -> bool {
        false
    }

    fn hands_tables_off(&self) -> bool {
        false
    }
}
