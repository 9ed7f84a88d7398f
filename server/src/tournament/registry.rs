//! The registry of a node's tournaments: their handles by id, the connections their messages
//! reach (each player's latest, with the minor version its hello said), the `go_to_table` each
//! player is owed, and the embargo of duplicate boards; players connected to other nodes are
//! told through the backplane's peers.
//!
//! It is a directory in ARCHITECTURE's sense, as `Directory` is for tables: its maps hold names
//! and addresses only (a handle to send an actor commands, a connection's queue, a frame to send
//! again), never a tournament's state, which only its actor holds; they are private, each
//! changed through a method named for what it means (`register`, `step_down`, `connected`,
//! `send_to_table`, `played`...), and no entry is held across an await. What is shared between
//! nodes goes through the backplane's ports (`Peers`, `Embargo`), not through these maps.

use std::sync::{Arc, Mutex};

use burraco_protocol::wire::ServerMessage;
use dashmap::DashMap;

use super::{Command, Summary, TournamentHandle};
use crate::backplane::{Backplane, Embargo, Peers};
use crate::outbound::{Frame, Outbox};

/// Tournaments by id, and the connections that may hear from them: the latest connection of each
/// player whose hello said 1.1 or later (a 1.0 connection is never listed, so it never receives a
/// message new in 1.1).
#[derive(Debug)]
pub struct Tournaments {
    handles: DashMap<String, TournamentHandle>,
    /// Each player's latest connection past a 1.1 hello, with the minor it said.
    players: DashMap<String, (Outbox, u16)>,
    /// The commitments of the duplicate boards of rounds in play: their hand records (played at
    /// one table, still to be played at another) are served by no route until the round ends.
    embargo: Arc<dyn Embargo>,
    /// Each player's `go_to_table` while its table's match is to be played: told again on each
    /// new connection (one made while it was sent, a resume after a drop, another node's).
    going: DashMap<String, Arc<Frame>>,
    /// Players connected to other nodes are told through them.
    peers: Arc<dyn Peers>,
}

impl Tournaments {
    pub fn new(backplane: &Backplane) -> Tournaments {
        Tournaments {
            handles: DashMap::new(),
            players: DashMap::new(),
            embargo: backplane.embargo.clone(),
            going: DashMap::new(),
            peers: backplane.peers.clone(),
        }
    }

    /// A tournament's actor started here: its handle, by id (a newer one replaces an older).
    pub(super) fn register(&self, handle: TournamentHandle) {
        self.handles.insert(handle.id.to_string(), handle);
    }

    pub fn get(&self, id: &str) -> Option<TournamentHandle> {
        self.handles.get(id).map(|h| h.clone())
    }

    /// Stops serving tournament `id` here (its lease was lost).
    pub fn step_down(&self, id: &str) {
        if let Some((_, handle)) = self.handles.remove(id) {
            let _ = handle.tx.try_send(Command::StepDown);
        }
    }

    /// Forgets the handle of an actor that stopped (unless a newer one took its place).
    pub(super) fn stopped(&self, id: &str, summary: &Arc<Mutex<Summary>>) {
        self.handles
            .remove_if(id, |_, h| Arc::ptr_eq(&h.summary, summary));
    }

    pub fn all(&self) -> Vec<TournamentHandle> {
        let mut all: Vec<TournamentHandle> = self.handles.iter().map(|h| h.clone()).collect();
        all.sort_by(|a, b| a.id.cmp(&b.id));
        all
    }

    /// A connection of `player` past its hello, speaking minor version `minor`.
    pub fn connected(&self, player: &str, minor: u16, out: &Outbox) {
        if minor < 1 {
            return;
        }
        self.players.insert(player.to_owned(), (out.clone(), minor));
        if let Some(going) = self.going.get(player).map(|f| f.clone()) {
            out.send(going);
        } else {
            // Its tournament may be served by another node: that node tells it again.
            self.peers.arrived(player);
        }
    }

    /// Another node says `player` connected there: its `go_to_table`, if this node has one.
    pub fn arrived_elsewhere(&self, player: &str) {
        if let Some(going) = self.going.get(player).map(|f| f.clone()) {
            self.tell_frame(player, &going);
        }
    }

    /// Sends `player` where to play (and keeps it, to tell again on a new connection).
    pub(super) fn send_to_table(&self, player: &str, go: &Arc<Frame>) {
        self.going.insert(player.to_owned(), go.clone());
        self.tell_frame(player, go);
    }

    /// `player`'s match at `table` was scored: no more telling it to go there.
    pub(super) fn played(&self, player: &str, table: &str) {
        self.going.remove_if(player, |_, frame| {
            matches!(frame.message(), ServerMessage::GoToTable { table: t, .. } if t == table)
        });
    }

    /// Table `table` of tournament `tournament` ended: the tournament is told, here or on the
    /// node serving it. A notice that cannot be delivered (a full queue, a node gone) is made up
    /// for by the tournament's slower look at every table (see `rounds.rs` `poll_tables`).
    pub fn table_ended(&self, tournament: &str, table: &str) {
        if !self.table_ended_here(tournament, table) {
            self.peers.table_ended(tournament, table);
        }
    }

    /// Tells tournament `tournament` that `table` ended, if this node serves it; false if not.
    pub fn table_ended_here(&self, tournament: &str, table: &str) -> bool {
        let Some(handle) = self.handles.get(tournament) else {
            return false;
        };
        let ended = Command::TableEnded {
            table: table.to_owned(),
        };
        let _ = handle.tx.try_send(ended);
        true
    }

    /// Whether `player` has a connection on this node.
    pub fn is_connected(&self, player: &str) -> bool {
        self.players.contains_key(player)
    }

    /// Connection `conn` of `player` closed (a newer one stays listed).
    pub fn disconnected(&self, player: &str, conn: u64) {
        self.players
            .remove_if(player, |_, (out, _)| out.id() == conn);
    }

    /// Keeps a duplicate board's hand records from every node's routes (`on`), or lets them out.
    pub(super) fn set_embargo(&self, seed: &[u8; 32], on: bool) {
        self.embargo
            .set(&burraco_rules::Seed(*seed).commitment_hex(), on);
    }

    /// Hand records (a JSON array) without those of duplicate boards in play on any node.
    pub async fn hide_embargoed(&self, records: String) -> String {
        let Ok(mut list) = serde_json::from_str::<Vec<serde_json::Value>>(&records) else {
            return records;
        };
        let mut commitments: Vec<String> = list
            .iter()
            .filter_map(|r| r["commitment"].as_str().map(str::to_owned))
            .collect();
        commitments.sort_unstable();
        commitments.dedup();
        if commitments.is_empty() {
            return records;
        }
        let hidden = self.embargo.hidden(&commitments).await;
        if hidden.is_empty() {
            return records;
        }
        list.retain(|r| r["commitment"].as_str().is_none_or(|c| !hidden.contains(c)));
        serde_json::Value::from(list).to_string()
    }

    /// Sends a frame (shared by many players, encoded once) to `player`'s listed connection, if
    /// its minor version allows the message; in cluster mode, a player with no connection here
    /// is told through the node that has one.
    pub(super) fn tell_frame(&self, player: &str, frame: &Arc<Frame>) {
        if !self.tell_here(player, frame) {
            self.peers.tell(player, frame);
        }
    }

    /// Sends a frame to `player`'s connection on this node, if it has one; false if not.
    pub fn tell_here(&self, player: &str, frame: &Arc<Frame>) -> bool {
        let Some(entry) = self.players.get(player) else {
            return false;
        };
        let (out, minor) = &*entry;
        if frame.message().minor() <= *minor {
            out.send(frame.clone());
        }
        true
    }
}
