//! The router's directory: what this node reaches of other nodes' tables, and which of its own
//! connections other nodes' tables reach. Names and handles only, never game state (a table's
//! state is its actor's, on its node): this node's connections that other nodes send frames to,
//! the forwarding handles of tables other nodes serve, and the resumes held for a table between
//! owners. The maps are private, each change a method named for what it means, as in
//! [`crate::directory::Directory`].

use std::collections::HashMap;
use std::sync::Mutex;

use dashmap::DashMap;

use crate::outbound::Outbox;
use crate::table::TableHandle;

#[derive(Debug, Default)]
pub struct PeerDirectory {
    /// This node's connections that other nodes' tables send frames to.
    conns: DashMap<u64, Outbox>,
    /// Tables served elsewhere: their forwarders' handles.
    remote_tables: DashMap<String, TableHandle>,
    /// Seats this node's connections resumed while their table was between owners (its attach
    /// reached nobody), by table: attached once a node lists the table again.
    held_attaches: Mutex<HashMap<String, Vec<(String, Outbox)>>>,
}

impl PeerDirectory {
    // Connections.

    /// `out`, one of this node's connections, sent a request to another node's table: frames
    /// from there reach it from now on.
    pub fn reached_from_elsewhere(&self, out: &Outbox) {
        self.conns.insert(out.id(), out.clone());
    }

    /// The connection frames from another node are for.
    pub fn conn(&self, conn: u64) -> Option<Outbox> {
        self.conns.get(&conn).map(|o| o.value().clone())
    }

    /// A connection of this node closed: frames for it are dropped from now on.
    pub fn forget_conn(&self, conn: u64) {
        self.conns.remove(&conn);
    }

    // Tables served elsewhere.

    /// The forwarding handle of a table served elsewhere, while its forwarder runs.
    pub fn remote_table(&self, table: &str) -> Option<TableHandle> {
        self.remote_tables
            .get(table)
            .map(|h| h.value().clone())
            .filter(|h| !h.is_closed())
    }

    /// Lists the forwarding handle of a table served elsewhere.
    pub fn register_remote_table(&self, handle: &TableHandle) {
        self.remote_tables
            .insert(handle.id().to_owned(), handle.clone());
    }

    /// A table served elsewhere ended, or is served here now: a later lookup makes a new handle.
    pub fn forget_remote_table(&self, table: &str) {
        self.remote_tables.remove(table);
    }

    // Resumes while a table is between owners.

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<(String, Outbox)>>> {
        self.held_attaches.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Remembers an attach that reached no owner, to send when the table is listed again (the
    /// player's latest connection only).
    pub fn hold_attach(&self, table: &str, player: String, out: Outbox) {
        let mut held = self.held();
        let waiting = held.entry(table.to_owned()).or_default();
        waiting.retain(|(p, o)| !o.is_gone() && *p != player);
        waiting.push((player, out));
    }

    /// The attaches held for `table` whose connections are still open (given up here: the
    /// caller sends them); the tables' lists of closed connections are dropped on the way.
    pub fn take_held_attaches(&self, table: &str) -> Option<Vec<(String, Outbox)>> {
        let mut held = self.held();
        if held.is_empty() {
            return None;
        }
        held.retain(|_, waiting| {
            waiting.retain(|(_, o)| !o.is_gone());
            !waiting.is_empty()
        });
        held.remove(table)
    }
}
