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
use burraco_rules::Seat;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use super::{ClusterError, jetstream_error};
pub use crate::backplane::Listing;
use crate::config::ClusterConfig;

pub const LOBBY_BUCKET: &str = "burraco_lobby";
pub const SESSION_BUCKET: &str = "burraco_sessions";
/// Invite code to table id: a point lookup for a code no cache has seen yet.
pub const INVITE_BUCKET: &str = "burraco_invites";
/// How often changed listings are written.
const FLUSH_EVERY: Duration = Duration::from_millis(100);

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
    invites: kv::Store,
    node: String,
    /// Every table's listing, kept current by [`Lobby::watch`].
    cache: Mutex<HashMap<String, Listing>>,
    /// Listings of this node's tables changed since the last flush (`None`: delete it).
    dirty: Mutex<HashMap<String, Option<Listing>>>,
    /// The invite code this node indexed for each of its tables: a code never changes, so it
    /// is written with the table's first listing here, not with every listing.
    indexed: Mutex<HashMap<String, String>>,
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
        let invites = js
            .create_or_update_key_value(bucket(INVITE_BUCKET))
            .await
            .map_err(jetstream_error)?;
        Ok(Lobby {
            tables,
            sessions,
            invites,
            node: config.node.clone(),
            cache: Mutex::new(HashMap::new()),
            dirty: Mutex::new(HashMap::new()),
            indexed: Mutex::new(HashMap::new()),
        })
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, HashMap<String, Listing>> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn dirty(&self) -> std::sync::MutexGuard<'_, HashMap<String, Option<Listing>>> {
        self.dirty.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn indexed(&self) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
        self.indexed.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keeps the cache current until `stop`; `gone` is called with every table whose listing
    /// was deleted (it ended).
    pub async fn watch(
        &self,
        stop: tokio_util::sync::CancellationToken,
        gone: impl Fn(&str),
        listed: impl Fn(&str),
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
                        self.cache().insert(entry.key.clone(), listing);
                        listed(&entry.key);
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
        self.write(changed).await;
    }

    /// Writes one table's change now, if it has one.
    pub async fn flush_table(&self, table: &str) {
        let changed = self.dirty().remove_entry(table);
        self.write(changed.into_iter().collect()).await;
    }

    async fn write(&self, changed: Vec<(String, Option<Listing>)>) {
        for (table, listing) in changed {
            let written = match listing {
                Some(listing) => {
                    let new_code = listing
                        .invite
                        .as_ref()
                        .filter(|code| self.indexed().get(&table) != Some(*code));
                    if let Some(code) = new_code {
                        match self.invites.put(code, table.clone().into()).await {
                            Ok(_) => {
                                self.indexed().insert(table.clone(), code.clone());
                            }
                            Err(e) => tracing::warn!(table, "invite not indexed: {e}"),
                        }
                    }
                    let json = serde_json::to_vec(&listing).expect("a listing serializes");
                    self.tables
                        .put(&table, json.into())
                        .await
                        .map(drop)
                        .map_err(|e| e.to_string())
                }
                None => {
                    self.indexed().remove(&table);
                    let code = self.cache().get(&table).and_then(|l| l.invite.clone());
                    if let Some(code) = code {
                        let _ = self.invites.delete(&code).await;
                    }
                    self.tables.delete(&table).await.map_err(|e| e.to_string())
                }
            };
            if let Err(e) = written {
                tracing::warn!(table, "lobby not updated: {e}");
            }
        }
    }

    /// Records a listing of one of this node's tables (written at the next flush).
    pub fn publish(&self, table: &str, listing: Listing) {
        self.dirty().insert(table.to_owned(), Some(listing));
    }

    /// Drops a listing of a table that stopped here not yet written: the node that serves the
    /// table next writes its own, and a late write of this one would name the wrong owner.
    pub fn forget_pending(&self, table: &str) {
        self.dirty().remove(table);
        self.indexed().remove(table);
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
            .flat_map(|(t, l)| l.seats_of(player).map(|s| (t.clone(), s)))
            .collect()
    }

    /// A table's listing: the cache's, else the bucket's (a table another node listed an
    /// instant ago, before this node's watch delivered it).
    pub async fn read_listing(&self, table: &str) -> Option<Listing> {
        if let Some(listing) = self.listing(table) {
            return Some(listing);
        }
        // Not a key of the bucket (a dot, a wildcard): no such table.
        if table.is_empty() || table.contains(['.', '*', '>', ' ']) {
            return None;
        }
        let bytes = self.tables.get(table).await.ok()??;
        serde_json::from_slice(&bytes).ok()
    }

    /// The table an invite code leads to: the cache's, else the invite index's.
    pub async fn read_invite(&self, code: &str) -> Option<(String, Listing)> {
        if let Some(found) = self.by_invite(code) {
            return Some(found);
        }
        let code = code.to_uppercase();
        if code.is_empty() || !code.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return None;
        }
        let table = self.invites.get(&code).await.ok()??;
        let table = String::from_utf8(table.to_vec()).ok()?;
        let listing = self.read_listing(&table).await?;
        (listing.invite.as_deref() == Some(code.as_str())).then_some((table, listing))
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
