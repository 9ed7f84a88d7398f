//! The backplane's ports on NATS JetStream: each trait of [`crate::backplane`] implemented by
//! the cluster piece that keeps that state (leases, the lobby and sessions buckets, the
//! tournaments bucket, the logs, request-reply between nodes).

use std::collections::HashSet;
use std::sync::{Arc, Weak};
use std::time::Duration;

use burraco_protocol::wire::{ClientMessage, ServerMessage};
use burraco_rules::Seat;

use super::Cluster;
use super::lease::{Leases as KvLeases, node_of};
use super::log::JetStreamLog;
use crate::Shared;
use crate::backplane::{self, Backplane, Listing, PortError, PortFuture};
use crate::outbound::Frame;
use crate::session::{ResumeKey, Session};
use crate::table::{TableHandle, TableInfo};
use crate::tournament::{Refusal, Summary};

impl Cluster {
    /// The backplane of this node: every port on the cluster's shared state.
    pub fn backplane(self: &Arc<Cluster>) -> Backplane {
        Backplane {
            log: self.log.clone(),
            leases: Arc::new(ClusterLeases(self.clone())),
            sessions: Arc::new(ClusterLobby(self.clone())),
            listings: Arc::new(ClusterLobby(self.clone())),
            tournament_listings: Arc::new(ClusterTournaments(self.clone())),
            embargo: Arc::new(ClusterTournaments(self.clone())),
            records: self.log.clone(),
            peers: Arc::new(ClusterPeers(self.clone())),
            node: Arc::new(ClusterNode(self.clone())),
            accounts: Arc::new(crate::accounts::Unconfigured),
            players: Arc::new(crate::players::Unconfigured),
            fairplay: Arc::new(crate::fairplay::Unconfigured),
        }
    }

    /// This node's background work and drain, over the whole server.
    pub fn work(self: &Arc<Cluster>) -> Arc<dyn crate::NodeWork> {
        Arc::new(ClusterNode(self.clone()))
    }

    /// The server this node serves for (set when its background work starts).
    pub(crate) fn shared(&self) -> Option<Arc<Shared>> {
        self.shared.get().and_then(Weak::upgrade)
    }
}

fn port_error(e: impl std::fmt::Display) -> PortError {
    PortError(e.to_string())
}

#[derive(Debug)]
struct ClusterLeases(Arc<Cluster>);

impl backplane::Leases for ClusterLeases {
    fn take<'a>(&'a self, id: &'a str) -> PortFuture<'a, bool> {
        Box::pin(async move {
            !self.0.is_draining() && KvLeases::take(&self.0.leases, id).await.unwrap_or(false)
        })
    }

    fn release<'a>(&'a self, id: &'a str) -> PortFuture<'a, ()> {
        Box::pin(KvLeases::release(&self.0.leases, id))
    }

    fn holder<'a>(&'a self, id: &'a str) -> PortFuture<'a, Result<Option<String>, PortError>> {
        Box::pin(async move {
            let holder = self.0.leases.holder(id).await.map_err(port_error)?;
            Ok(holder.map(|h| node_of(&h).to_owned()))
        })
    }
}

#[derive(Debug)]
struct ClusterLobby(Arc<Cluster>);

impl backplane::Sessions for ClusterLobby {
    fn open<'a>(&'a self, key: &'a ResumeKey, session: &'a Session) -> PortFuture<'a, bool> {
        Box::pin(self.0.lobby.open_session(key, session))
    }

    fn find<'a>(&'a self, key: &'a ResumeKey) -> PortFuture<'a, Option<Session>> {
        Box::pin(self.0.lobby.session(key))
    }
}

impl backplane::Listings for ClusterLobby {
    fn publish(&self, table: &str, listing: Listing) {
        self.0.lobby.publish(table, listing);
    }

    fn forget_pending(&self, table: &str) {
        self.0.lobby.forget_pending(table);
    }

    fn unlist(&self, table: &str) {
        self.0.lobby.unlist(table);
    }

    fn flush(&self) -> PortFuture<'_, ()> {
        Box::pin(self.0.lobby.flush())
    }

    fn flush_table<'a>(&'a self, table: &'a str) -> PortFuture<'a, ()> {
        Box::pin(self.0.lobby.flush_table(table))
    }

    fn elsewhere(&self) -> Vec<(String, Listing)> {
        self.0.lobby.elsewhere()
    }

    fn open_elsewhere(&self) -> Vec<(String, Listing)> {
        self.0.lobby.open_elsewhere()
    }

    fn listing<'a>(&'a self, table: &'a str) -> PortFuture<'a, Option<Listing>> {
        Box::pin(self.0.lobby.read_listing(table))
    }

    fn seen(&self, table: &str) -> Option<Listing> {
        self.0.lobby.listing(table)
    }

    fn by_invite<'a>(&'a self, code: &'a str) -> PortFuture<'a, Option<(String, Listing)>> {
        Box::pin(self.0.lobby.read_invite(code))
    }

    fn seats_of(&self, player: &str) -> Vec<(String, Seat)> {
        self.0.lobby.seats_of(player)
    }

    fn node(&self) -> &str {
        self.0.node()
    }
}

#[derive(Debug)]
struct ClusterTournaments(Arc<Cluster>);

impl backplane::TournamentListings for ClusterTournaments {
    fn list<'a>(&'a self, id: &'a str, summary: &'a Summary) -> PortFuture<'a, ()> {
        Box::pin(self.0.tournaments.list(id, summary))
    }

    fn listed(&self) -> PortFuture<'_, Result<Vec<(String, Summary)>, PortError>> {
        Box::pin(async move { self.0.tournaments.listed().await.map_err(port_error) })
    }
}

impl backplane::Embargo for ClusterTournaments {
    fn set(&self, commitment: &str, on: bool) {
        backplane::Embargo::set(&self.0.embargo_here, commitment, on);
        let cluster = self.0.clone();
        let commitment = commitment.to_owned();
        tokio::spawn(async move { cluster.tournaments.set_embargo(&commitment, on).await });
    }

    fn hidden<'a>(&'a self, commitments: &'a [String]) -> PortFuture<'a, HashSet<String>> {
        Box::pin(async move {
            let mut hidden = self.0.embargo_here.hidden_here(commitments);
            let rest: Vec<String> = commitments
                .iter()
                .filter(|c| !hidden.contains(*c))
                .cloned()
                .collect();
            if !rest.is_empty() {
                hidden.extend(self.0.tournaments.embargoed(&rest).await);
            }
            hidden
        })
    }
}

impl backplane::Records for JetStreamLog {
    fn of_table<'a>(&'a self, table: &'a str) -> PortFuture<'a, Result<String, PortError>> {
        Box::pin(async move {
            super::records::of_table(self, table)
                .await
                .map_err(port_error)
        })
    }

    fn of_player<'a>(&'a self, name: &'a str) -> PortFuture<'a, Result<String, PortError>> {
        Box::pin(async move {
            super::records::of_player(self, name)
                .await
                .map_err(port_error)
        })
    }
}

#[derive(Debug)]
struct ClusterPeers(Arc<Cluster>);

impl backplane::Peers for ClusterPeers {
    fn remote_table(&self, table: &str, owner: &str, info: TableInfo) -> TableHandle {
        match self.0.shared() {
            Some(shared) => self
                .0
                .router
                .remote_table(&shared, &self.0, table, owner, info),
            // Stopping: a handle whose commands find the table gone.
            None => backplane::local::NoPeers.remote_table(table, owner, info),
        }
    }

    fn may_reach_others(&self) -> bool {
        true
    }

    fn forget_conn(&self, conn: u64) {
        self.0.router.forget_conn(conn);
    }

    fn tell(&self, player: &str, frame: &Arc<Frame>) {
        self.0.tournaments.tell(player, frame);
    }

    fn arrived(&self, player: &str) {
        self.0.tournaments.arrived(player);
    }

    fn table_ended(&self, tournament: &str, table: &str) {
        self.0.tournaments.table_ended(tournament, table);
    }

    fn forward_tournament<'a>(
        &'a self,
        owner: &'a str,
        session: &'a Session,
        account: Option<&'a str>,
        minor: u16,
        request: &'a ClientMessage,
    ) -> PortFuture<'a, Result<ServerMessage, Refusal>> {
        Box::pin(
            self.0
                .tournaments
                .forward(owner, session, account, minor, request),
        )
    }
}

#[derive(Debug)]
struct ClusterNode(Arc<Cluster>);

impl backplane::Node for ClusterNode {
    fn name(&self) -> &str {
        self.0.node()
    }

    fn ready(&self) -> bool {
        self.0.ready()
    }

    fn is_draining(&self) -> bool {
        self.0.is_draining()
    }

    fn hands_tables_off(&self) -> bool {
        true
    }
}

impl crate::NodeWork for ClusterNode {
    fn start(&self, shared: &Arc<Shared>) {
        let _ = self.0.shared.set(Arc::downgrade(shared));
        super::keeper::start(shared, &self.0);
    }

    /// The tables (and tournaments) stop after their last append and release their leases, so
    /// the other nodes take them over at once (their lease watch); only then do the connections
    /// close (their clients resume elsewhere and find the tables served).
    fn drain<'a>(&'a self, shared: &'a Arc<Shared>) -> PortFuture<'a, ()> {
        Box::pin(async move {
            self.0.start_draining();
            tracing::info!("draining: handing the tables off");
            shared.stop_tables.cancel();
            let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
            while !(shared.directory.tables().is_empty() && shared.tournaments.all().is_empty())
                && tokio::time::Instant::now() < deadline
            {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
            tracing::info!("drained");
        })
    }
}
