//! Shared state as ports: every piece of state that more than one node would share is a trait
//! here, and the server is built with one [`Backplane`] holding an implementation of each.
//!
//! - [`local`]: the single node (the default): memory, and the embedded SQLite store for what
//!   must survive a restart (sessions, records);
//! - `crate::cluster`: NATS JetStream (`--nats`), the same traits over KV buckets, streams and
//!   request-reply.
//!
//! The code of a table, a tournament, a connection or the lobby asks these ports and never asks
//! which implementation it has: `lib.rs` chooses one when the server starts, and that is the
//! only place the two modes differ. Each data port has one conformance suite both
//! implementations pass (`server/tests/ports`, as `server/tests/log` does for the table log);
//! [`Peers`] (reaching another node) has nothing to reach on one node and is tested by the
//! cluster's integration tests.

pub mod local;

use std::collections::HashSet;
use std::sync::Arc;

use burraco_protocol::ErrorCode;
use burraco_protocol::wire::{ClientMessage, SeatIdentity, ServerMessage, TableSummary};
use burraco_rules::Seat;
use serde::{Deserialize, Serialize};

use crate::log::TableLog;
use crate::outbound::Frame;
use crate::session::{ResumeKey, Session};
use crate::table::{TableHandle, TableInfo};

pub use crate::port::{PortError, PortFuture};

/// Everything a node shares with the others, one port each.
#[derive(Debug, Clone)]
pub struct Backplane {
    /// The tables' and tournaments' durable logs.
    pub log: Arc<dyn TableLog>,
    /// Who serves a table or a tournament.
    pub leases: Arc<dyn Leases>,
    /// Resume tokens.
    pub sessions: Arc<dyn Sessions>,
    /// The lobby's listings of every table: what the lobby shows, invite codes, who sits where.
    pub listings: Arc<dyn Listings>,
    /// Tournaments' listings.
    pub tournament_listings: Arc<dyn TournamentListings>,
    /// Duplicate boards whose hand records no route may serve yet.
    pub embargo: Arc<dyn Embargo>,
    /// Hand records, by table and by player.
    pub records: Arc<dyn Records>,
    /// Reaching tables, tournaments and connections of other nodes.
    pub peers: Arc<dyn Peers>,
    /// This node: its name, readiness, draining, its background work.
    pub node: Arc<dyn Node>,
    /// Player accounts and their browser sessions (`crate::accounts`): chosen in `lib.rs` from
    /// `--database-url` (PostgreSQL) or the SQLite file; [`crate::accounts::Unconfigured`] until
    /// then.
    pub accounts: Arc<dyn crate::accounts::Accounts>,
    /// The players' match index (`crate::players`), on the accounts' store; chosen in `lib.rs`.
    pub players: Arc<dyn crate::players::PlayerIndex>,
    /// Fair play's outcomes and playbans (`crate::fairplay`), beside the accounts.
    pub fairplay: Arc<dyn crate::fairplay::FairPlay>,
}

/// Who serves a table or tournament: at most one node at a time holds its lease.
pub trait Leases: Send + Sync + std::fmt::Debug {
    /// Takes `id`'s lease for this node: false if a node (this one included) holds it, or the
    /// lease could not be asked.
    fn take<'a>(&'a self, id: &'a str) -> PortFuture<'a, bool>;
    /// Gives `id`'s lease up, if this node still holds it.
    fn release<'a>(&'a self, id: &'a str) -> PortFuture<'a, ()>;
    /// The node holding `id`'s lease, if any.
    fn holder<'a>(&'a self, id: &'a str) -> PortFuture<'a, Result<Option<String>, PortError>>;
}

/// Resume tokens: written before a session is used, so a resume through any node (or after a
/// restart) finds it.
pub trait Sessions: Send + Sync + std::fmt::Debug {
    /// Stores a new session under its resume token's key; false when it could not be stored.
    fn open<'a>(&'a self, key: &'a ResumeKey, session: &'a Session) -> PortFuture<'a, bool>;
    /// The session of a resume token's key; `None` for an unknown one (or an unreadable store).
    fn find<'a>(&'a self, key: &'a ResumeKey) -> PortFuture<'a, Option<Session>>;
}

/// A table as the lobby of every node knows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Listing {
    /// The node serving the table.
    pub owner: String,
    pub summary: TableSummary,
    pub private: bool,
    pub invite: Option<String>,
    pub free_seats: usize,
    pub waiting: bool,
    pub finished: bool,
    /// Player id and seat index of every seated player (bots included).
    pub players: Vec<(String, u8)>,
    /// A rated table (protocol 1.5; absent from older nodes' listings).
    #[serde(default)]
    pub rated: bool,
    /// Seat index and account of every seat an account holds.
    #[serde(default)]
    pub accounts: Vec<(u8, String)>,
    /// Who holds each occupied seat (protocol 1.6; absent from older nodes' listings).
    #[serde(default)]
    pub identities: Vec<SeatIdentity>,
    /// When the table was created (Unix ms; 0 in older nodes' listings).
    #[serde(default)]
    pub created_ms: i64,
    /// The players quick play may move from the table (`TableInfo::movers`; none in older
    /// nodes' listings).
    #[serde(default)]
    pub movers: Vec<crate::table::Mover>,
    /// Players sit there and none is connected (`TableInfo::deserted`): quick play seats no
    /// newcomer there, through any node (false in older nodes' listings).
    #[serde(default)]
    pub deserted: bool,
}

impl Listing {
    pub fn new(
        owner: &str,
        info: &TableInfo,
        invite: Option<&str>,
        players: Vec<(String, Seat)>,
    ) -> Listing {
        Listing {
            owner: owner.to_owned(),
            summary: info.summary.clone(),
            private: info.private,
            invite: invite.map(str::to_owned),
            free_seats: info.free_seats,
            waiting: info.waiting,
            finished: info.finished,
            players: players
                .into_iter()
                .map(|(p, s)| (p, s.index() as u8))
                .collect(),
            rated: info.rated,
            accounts: info.accounts.clone(),
            identities: info.identities.clone(),
            created_ms: info.created_ms,
            movers: info.movers.clone(),
            deserted: info.deserted,
        }
    }

    pub fn info(&self) -> TableInfo {
        TableInfo {
            summary: self.summary.clone(),
            private: self.private,
            free_seats: self.free_seats,
            waiting: self.waiting,
            finished: self.finished,
            // Lateness is judged where the table is served.
            absent: Vec::new(),
            hands_finished: 0,
            deserted: self.deserted,
            rated: self.rated,
            accounts: self.accounts.clone(),
            identities: self.identities.clone(),
            created_ms: self.created_ms,
            players: self.players.iter().map(|(p, _)| p.clone()).collect(),
            movers: self.movers.clone(),
        }
    }

    /// A public table still waiting with a free seat: one quick play may seat someone at.
    pub fn is_open(&self) -> bool {
        !self.private && self.waiting && !self.finished && self.free_seats > 0
    }

    /// The seats `player` holds at this table.
    pub fn seats_of<'a>(&'a self, player: &'a str) -> impl Iterator<Item = Seat> + 'a {
        self.players
            .iter()
            .filter(move |(p, _)| p == player)
            .filter_map(|(_, s)| Seat::ALL.get(usize::from(*s)).copied())
    }
}

/// The lobby's listings: each node publishes its own tables' and reads the others'.
pub trait Listings: Send + Sync + std::fmt::Debug {
    /// A listing of one of this node's tables changed (written at the next flush at the latest).
    fn publish(&self, table: &str, listing: Listing);
    /// Drops a listing of a table that stopped here not yet written: the node that serves the
    /// table next writes its own, and a late write of this one would name the wrong owner.
    fn forget_pending(&self, table: &str);
    /// Takes an ended table out of the lobby.
    fn unlist(&self, table: &str);
    /// Writes what this node changed, now; returns once it is readable by every node.
    fn flush(&self) -> PortFuture<'_, ()>;
    /// Writes one table's pending change now (a seat taken: the player hears of it only once
    /// every node can find it).
    fn flush_table<'a>(&'a self, table: &'a str) -> PortFuture<'a, ()>;
    /// The listings of tables served by other nodes, as last seen (the lobby's list).
    fn elsewhere(&self) -> Vec<(String, Listing)>;
    /// [`Listings::elsewhere`], only the open ones ([`Listing::is_open`]): what quick play
    /// looks at, without reading every table's listing.
    fn open_elsewhere(&self) -> Vec<(String, Listing)>;
    /// A table's listing, read through to the shared state when not seen yet: a table another
    /// node has flushed is found at once (read-your-writes for point lookups).
    fn listing<'a>(&'a self, table: &'a str) -> PortFuture<'a, Option<Listing>>;
    /// A listing as last seen, without asking the shared state (hot paths that poll).
    fn seen(&self, table: &str) -> Option<Listing>;
    /// The table another node serves that an invite code leads to, read through as
    /// [`Listings::listing`] (this node's own tables are in its directory).
    fn by_invite<'a>(&'a self, code: &'a str) -> PortFuture<'a, Option<(String, Listing)>>;
    /// Where a player sits, at tables served by other nodes, as last seen (this node's own
    /// tables are in its directory).
    fn seats_of(&self, player: &str) -> Vec<(String, Seat)>;
    /// This node's name (a listing it owns is not "elsewhere").
    fn node(&self) -> &str;
}

/// What the tournaments' list shows of one, kept current by its actor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentSummary {
    pub name: String,
    pub kind: String,
    pub status: &'static str,
    pub entrants: usize,
    pub round: u32,
    pub rounds: u32,
}

/// Tournaments' listings, written by the node serving each.
pub trait TournamentListings: Send + Sync + std::fmt::Debug {
    /// The serving node writes its tournament's listing (when it changed).
    fn list<'a>(&'a self, id: &'a str, summary: &'a TournamentSummary) -> PortFuture<'a, ()>;
    /// Every tournament's listing, as `(id, summary)`.
    fn listed(&self) -> PortFuture<'_, Result<Vec<(String, TournamentSummary)>, PortError>>;
}

/// Duplicate boards under embargo: their hand records reach no route until every table of
/// their round has played them.
pub trait Embargo: Send + Sync + std::fmt::Debug {
    /// Puts a board's commitment under embargo (`on`) or lifts it.
    fn set(&self, commitment: &str, on: bool);
    /// Of `commitments`, those under embargo on any node; all of them when that cannot be
    /// known (a board's records are never let out on a doubt).
    fn hidden<'a>(&'a self, commitments: &'a [String]) -> PortFuture<'a, HashSet<String>>;
}

/// Hand records as JSON arrays (docs/HAND_RECORD.md), embargo not applied.
pub trait Records: Send + Sync + std::fmt::Debug {
    fn of_table<'a>(&'a self, table: &'a str) -> PortFuture<'a, Result<String, PortError>>;
    fn of_player<'a>(&'a self, name: &'a str) -> PortFuture<'a, Result<String, PortError>>;
}

/// Other nodes: their tables, tournaments and connections.
pub trait Peers: Send + Sync + std::fmt::Debug {
    /// A handle for `table`, served by node `owner` (another node), with the lobby's `info`.
    fn remote_table(&self, table: &str, owner: &str, info: TableInfo) -> TableHandle;
    /// Whether a player with no connection on this node may have one on another (one node
    /// alone can forget a player it has no connection of).
    fn may_reach_others(&self) -> bool;
    /// A connection of this node closed: frames for it are dropped from now on.
    fn forget_conn(&self, conn: u64);
    /// A tournament of this node tells `player`, who has no connection here.
    fn tell(&self, player: &str, frame: &Arc<Frame>);
    /// `player` connected here: the node of its tournament tells it again where to play.
    fn arrived(&self, player: &str);
    /// A table of `tournament`, which another node serves, ended (at most once delivered: the
    /// tournament's slow look at its tables makes up for a lost notice).
    fn table_ended(&self, tournament: &str, table: &str);
    /// A connection's request for a tournament `owner` serves, answered as `owner` answered it.
    fn forward_tournament<'a>(
        &'a self,
        owner: &'a str,
        session: &'a Session,
        account: Option<&'a str>,
        minor: u16,
        request: &'a ClientMessage,
    ) -> PortFuture<'a, Result<ServerMessage, (ErrorCode, String)>>;
}

/// This node.
pub trait Node: Send + Sync + std::fmt::Debug {
    fn name(&self) -> &str;
    /// Ready for traffic (readiness probe).
    fn ready(&self) -> bool;
    /// Handing its tables off (SIGTERM): it takes no new table.
    fn is_draining(&self) -> bool;
    /// Whether a table that stops here unfinished is served next by another node (its clients
    /// are told to resume elsewhere) rather than after this node's restart.
    fn hands_tables_off(&self) -> bool;
}
