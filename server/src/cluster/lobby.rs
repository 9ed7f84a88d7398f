//! The cluster-wide lobby and sessions.
//!
//! Every table's listing (what the lobby shows, its owner, its invite code, who sits where) is a
//! key of the KV bucket `burraco_lobby`, written by the node serving the table whenever the
//! listing changes (coalesced: at most one write per table per flush) and deleted when the table
//! ends. Every node watches the bucket into a local cache, so listing tables, quick play, invite
//! codes and "where does this player sit" are answered without a round trip.
//!
//! Sessions (resume token to player) are keys of `burraco_sessions`, written before a session is
//! used, so a player resumes through any node.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use async_nats::jetstream::{self, kv};
use burraco_protocol::wire::TableSummary;
use burraco_rules::Seat;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use super::{ClusterError, jetstream_error};
use crate::config::ClusterConfig;
use crate::table::TableInfo;

pub const LOBBY_BUCKET: &str = "burraco_lobby";
pub const SESSION_BUCKET: &str = "burraco_sessions";
/// How often changed listings are written.
const FLUSH_EVERY: Duration = Duration::from_millis(100);

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
}

impl Listing {
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
        }
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct StoredSession {
    player: String,
    name: String,
}

/// The lobby and session buckets, and this node's cache of the lobby.
#[derive(Debug)]
pub struct Lobby {
    tables: kv::Store,
    sessions: kv::Store,
    node: String,
    /// Every table's listing, kept current by [`Lobby::watch`].
    cache: Mutex<HashMap<String, Listing>>,
    /// Listings of this node's tables changed since the last flush (`None`: delete it).
    dirty: Mutex<HashMap<String, Option<Listing>>>,
}

impl Lobby {
    pub async fn open(
        js: &jetstream::Context,
        config: &ClusterConfig,
    ) -> Result<Lobby, ClusterError> {
        let bucket = |name: &str| super::bucket(name, config.replicas);
        let tables = js
            .create_or_update_key_value(bucket(LOBBY_BUCKET))
            .await
            .map_err(jetstream_error)?;
        let sessions = js
            .create_or_update_key_value(bucket(SESSION_BUCKET))
            .await
            .map_err(jetstream_error)?;
        Ok(Lobby {
            tables,
            sessions,
            node: config.node.clone(),
            cache: Mutex::new(HashMap::new()),
            dirty: Mutex::new(HashMap::new()),
        })
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, HashMap<String, Listing>> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn dirty(&self) -> std::sync::MutexGuard<'_, HashMap<String, Option<Listing>>> {
        self.dirty.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keeps the cache current until `stop`; `gone` is called with every table whose listing
    /// was deleted (it ended).
    pub async fn watch(
        &self,
        stop: tokio_util::sync::CancellationToken,
        gone: impl Fn(&str),
    ) -> Result<(), ClusterError> {
        let mut updates = self
            .tables
            .watch_with_history(">")
            .await
            .map_err(jetstream_error)?;
        loop {
            let update = tokio::select! {
                _ = stop.cancelled() => return Ok(()),
                update = updates.next() => update,
            };
            let Some(update) = update else {
                return Err(ClusterError::JetStream("the lobby watch ended".into()));
            };
            let entry = match update {
                Ok(entry) => entry,
                Err(e) => {
                    tracing::warn!("lobby watch: {e}");
                    continue;
                }
            };
            match entry.operation {
                kv::Operation::Put => match serde_json::from_slice::<Listing>(&entry.value) {
                    Ok(listing) => {
                        self.cache().insert(entry.key, listing);
                    }
                    Err(e) => tracing::warn!(table = entry.key, "bad listing: {e}"),
                },
                kv::Operation::Delete | kv::Operation::Purge => {
                    self.cache().remove(&entry.key);
                    gone(&entry.key);
                }
            }
        }
    }

    /// Writes what changed since the last flush, every [`FLUSH_EVERY`], until `stop`.
    pub async fn flush_loop(&self, stop: tokio_util::sync::CancellationToken) {
        let mut tick = tokio::time::interval(FLUSH_EVERY);
        loop {
            tokio::select! {
                _ = stop.cancelled() => {
                    self.flush().await;
                    return;
                }
                _ = tick.tick() => self.flush().await,
            }
        }
    }

    /// Writes what changed since the last flush now.
    pub async fn flush(&self) {
        let changed: Vec<(String, Option<Listing>)> = self.dirty().drain().collect();
        for (table, listing) in changed {
            let written = match listing {
                Some(listing) => {
                    let json = serde_json::to_vec(&listing).expect("a listing serializes");
                    self.tables
                        .put(&table, json.into())
                        .await
                        .map(drop)
                        .map_err(|e| e.to_string())
                }
                None => self.tables.delete(&table).await.map_err(|e| e.to_string()),
            };
            if let Err(e) = written {
                tracing::warn!(table, "lobby not updated: {e}");
            }
        }
    }

    /// Records a listing of one of this node's tables (written at the next flush).
    pub fn publish(
        &self,
        table: &str,
        info: &TableInfo,
        invite: Option<&str>,
        players: Vec<(String, Seat)>,
    ) {
        let listing = Listing {
            owner: self.node.clone(),
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
        };
        self.dirty().insert(table.to_owned(), Some(listing));
    }

    /// Drops a listing of a table that stopped here not yet written: the node that serves the
    /// table next writes its own, and a late write of this one would name the wrong owner.
    pub fn forget_pending(&self, table: &str) {
        self.dirty().remove(table);
    }

    /// Takes an ended table out of the lobby (at the next flush).
    pub fn unlist(&self, table: &str) {
        self.dirty().insert(table.to_owned(), None);
    }

    /// The listings of tables served by other nodes.
    pub fn elsewhere(&self) -> Vec<(String, Listing)> {
        self.cache()
            .iter()
            .filter(|(_, l)| l.owner != self.node)
            .map(|(t, l)| (t.clone(), l.clone()))
            .collect()
    }

    /// A table's listing, if it is in play anywhere.
    pub fn listing(&self, table: &str) -> Option<Listing> {
        self.cache().get(table).cloned()
    }

    /// The table an invite code leads to (codes are upper case).
    pub fn by_invite(&self, code: &str) -> Option<(String, Listing)> {
        let code = code.to_uppercase();
        self.cache()
            .iter()
            .find(|(_, l)| l.invite.as_deref() == Some(code.as_str()))
            .map(|(t, l)| (t.clone(), l.clone()))
    }

    /// Where a player sits, at tables served anywhere.
    pub fn seats_of(&self, player: &str) -> Vec<(String, Seat)> {
        self.cache()
            .iter()
            .flat_map(|(t, l)| {
                l.players
                    .iter()
                    .filter(|(p, _)| p == player)
                    .filter_map(|(_, s)| Seat::ALL.get(usize::from(*s)).map(|s| (t.clone(), *s)))
            })
            .collect()
    }

    /// The session of a resume token.
    pub async fn session(&self, token: &str) -> Option<(String, String)> {
        let value = self.sessions.get(token).await.ok()??;
        let stored: StoredSession = serde_json::from_slice(&value).ok()?;
        Some((stored.player, stored.name))
    }

    /// Stores a new session; false when NATS cannot take it.
    pub async fn open_session(&self, token: &str, player: &str, name: &str) -> bool {
        let json = serde_json::to_vec(&StoredSession {
            player: player.to_owned(),
            name: name.to_owned(),
        })
        .expect("a session serializes");
        self.sessions.put(token, json.into()).await.is_ok()
    }
}
