//! The cluster-wide lobby and sessions.
//!
//! Every table's listing (what the lobby shows, its owner, its invite code, who sits where) is a
//! key of the KV bucket `burraco_lobby`, written by the node serving the table whenever the
//! listing changes (coalesced: at most one write per table per flush) and deleted when the table
//! ends. Every node watches the bucket into a local cache, so listing tables, quick play, invite
//! codes and "where does this player sit" are answered without a round trip.
//!
//! Every node holds every table's listing, so the cache keeps each compactly ([`Cached`]): the
//! listing as postcard bytes in one allocation, and two small fingerprints that let the point
//! scans (an invite code, a player's seats) decode only the listings that may match.
//!
//! Sessions (resume token to player) are keys of `burraco_sessions`, written before a session is
//! used, so a player resumes through any node.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Mutex;
use std::time::Duration;

use async_nats::jetstream::{self, kv};
use burraco_rules::Seat;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use super::{ClusterError, jetstream_error};
pub use crate::backplane::Listing;
use crate::config::ClusterConfig;
use crate::session::{ResumeKey, Session};

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
    /// The account that opened the session (absent: a guest's, or one a node before accounts
    /// were bound to sessions stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    account: Option<String>,
}

/// A listing as the cache keeps it: on a node of a 3-node cluster, each table's parsed
/// [`Listing`] took some 1.7 KB in ~25 heap blocks (four seat names, identities and player ids),
/// on every node; this is one block of about a fifth of that (docs/PERFORMANCE.md).
#[derive(Debug)]
struct Cached {
    /// The listing in postcard.
    packed: Box<[u8]>,
    /// Served by this node (not "elsewhere").
    here: bool,
    /// [`Listing::is_open`]: quick play decodes only these.
    open: bool,
    /// [`fingerprint`] of the invite code; 0 for none.
    invite: u64,
    /// The union of [`player_bits`] of every seated player: a player whose bits are not all
    /// in it sits elsewhere.
    players: u64,
}

impl Cached {
    fn new(listing: &Listing, node: &str) -> Cached {
        Cached {
            packed: postcard::to_stdvec(listing)
                .expect("a listing encodes")
                .into_boxed_slice(),
            here: listing.owner == node,
            open: listing.is_open(),
            invite: listing.invite.as_deref().map_or(0, fingerprint),
            players: listing
                .players
                .iter()
                .fold(0, |bits, (player, _)| bits | player_bits(player)),
        }
    }

    fn listing(&self) -> Option<Listing> {
        postcard::from_bytes(&self.packed).ok()
    }

    fn may_seat(&self, player_bits: u64) -> bool {
        self.players & player_bits == player_bits
    }
}

/// A hash of `text`, never 0 (0 is "none").
fn fingerprint(text: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish().max(1)
}

/// Two of 64 bits chosen by a player id's hash: with four players a listing sets at most eight,
/// so about one listing in seventy passes for a player who does not sit there.
fn player_bits(player: &str) -> u64 {
    let hash = fingerprint(player);
    1 << (hash % 64) | 1 << ((hash >> 32) % 64)
}

/// The lobby and session buckets, and this node's cache of the lobby.
#[derive(Debug)]
pub struct Lobby {
    tables: kv::Store,
    sessions: kv::Store,
    invites: kv::Store,
    node: String,
    /// Every table's listing, kept current by [`Lobby::watch`].
    cache: Mutex<HashMap<Box<str>, Cached>>,
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

    fn cache(&self) -> std::sync::MutexGuard<'_, HashMap<Box<str>, Cached>> {
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
                        let cached = Cached::new(&listing, &self.node);
                        self.cache().insert(entry.key.as_str().into(), cached);
                        listed(&entry.key);
                    }
                    Err(e) => tracing::warn!(table = entry.key, "bad listing: {e}"),
                },
                kv::Operation::Delete | kv::Operation::Purge => {
                    self.cache().remove(entry.key.as_str());
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
                    let code = self.listing(&table).and_then(|l| l.invite);
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
            .filter(|(_, c)| !c.here)
            .filter_map(|(t, c)| Some((t.to_string(), c.listing()?)))
            .collect()
    }

    /// The open listings ([`Listing::is_open`]) of tables served by other nodes.
    pub fn open_elsewhere(&self) -> Vec<(String, Listing)> {
        self.cache()
            .iter()
            .filter(|(_, c)| !c.here && c.open)
            .filter_map(|(t, c)| Some((t.to_string(), c.listing()?)))
            .collect()
    }

    /// The ids of the tables served by other nodes (no listing decoded).
    pub fn tables_elsewhere(&self) -> Vec<String> {
        self.cache()
            .iter()
            .filter(|(_, c)| !c.here)
            .map(|(t, _)| t.to_string())
            .collect()
    }

    /// A table's listing, if it is in play anywhere.
    pub fn listing(&self, table: &str) -> Option<Listing> {
        self.cache().get(table).and_then(Cached::listing)
    }

    /// The table an invite code leads to (codes are upper case).
    pub fn by_invite(&self, code: &str) -> Option<(String, Listing)> {
        let code = code.to_uppercase();
        let wanted = fingerprint(&code);
        self.cache()
            .iter()
            .filter(|(_, c)| c.invite == wanted)
            .filter_map(|(t, c)| Some((t, c.listing()?)))
            .find(|(_, l)| l.invite.as_deref() == Some(code.as_str()))
            .map(|(t, l)| (t.to_string(), l))
    }

    /// Where a player sits, at tables served anywhere.
    pub fn seats_of(&self, player: &str) -> Vec<(String, Seat)> {
        let bits = player_bits(player);
        let cache = self.cache();
        let mut seats = Vec::new();
        for (table, cached) in cache.iter().filter(|(_, c)| c.may_seat(bits)) {
            if let Some(listing) = cached.listing() {
                seats.extend(listing.seats_of(player).map(|s| (table.to_string(), s)));
            }
        }
        seats
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

    /// The session of a resume token's key: under its hash, else (a session a node of the
    /// version before the hashes stored) under the token itself.
    pub async fn session(&self, key: &ResumeKey) -> Option<Session> {
        let value = match self.sessions.get(key.as_str()).await {
            Ok(Some(value)) => value,
            _ if valid_key(key.legacy()) => self.sessions.get(key.legacy()).await.ok()??,
            _ => return None,
        };
        let stored: StoredSession = serde_json::from_slice(&value).ok()?;
        Some(Session {
            player: stored.player,
            name: stored.name,
            account: stored.account,
        })
    }

    /// Stores a new session under its token's key; false when NATS cannot take it.
    pub async fn open_session(&self, key: &ResumeKey, session: &Session) -> bool {
        let json = serde_json::to_vec(&StoredSession {
            player: session.player.clone(),
            name: session.name.clone(),
            account: session.account.clone(),
        })
        .expect("a session serializes");
        self.sessions.put(key.as_str(), json.into()).await.is_ok()
    }
}

/// Whether `key` may be a KV key (a client's token is anything it sent).
fn valid_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'=' | b'.'))
        && !key.starts_with('.')
        && !key.ends_with('.')
}

#[cfg(test)]
mod tests {
    use burraco_protocol::wire::{SeatIdentity, SeatName, TableSummary, WireSeat};

    use super::*;

    fn playing(owner: &str) -> Listing {
        let players: Vec<String> = (0..4).map(|i| format!("p-{i:08x}")).collect();
        Listing {
            owner: owner.into(),
            summary: TableSummary {
                table: "t-0123abcd".into(),
                preset: "fitab".into(),
                players: 4,
                seats: Seat::ALL
                    .into_iter()
                    .map(|seat| SeatName {
                        seat: WireSeat(seat),
                        name: Some(format!("Name {}", seat.index())),
                        bot: seat == Seat::West,
                    })
                    .collect(),
                status: "playing".into(),
                spectators: 2,
            },
            private: true,
            invite: Some("AB12CD34".into()),
            free_seats: 0,
            waiting: false,
            finished: false,
            players: players
                .iter()
                .zip(0u8..)
                .map(|(p, s)| (p.clone(), s))
                .collect(),
            rated: true,
            accounts: vec![(0, "u-1".into())],
            identities: Seat::ALL
                .into_iter()
                .map(|seat| SeatIdentity {
                    seat: WireSeat(seat),
                    kind: "guest".into(),
                    name: format!("Name {}", seat.index()),
                    account: (seat == Seat::North).then(|| "u-1".into()),
                    server_bot: (seat == Seat::West).then(|| "L2".into()),
                })
                .collect(),
            created_ms: 1_764_000_000_000,
            movers: Vec::new(),
            deserted: false,
        }
    }

    #[test]
    fn a_cached_listing_comes_back_whole_and_smaller_than_its_json() {
        let listing = playing("node-2");
        let cached = Cached::new(&listing, "node-1");
        assert_eq!(cached.listing(), Some(listing.clone()));
        assert!(!cached.here);
        assert!(Cached::new(&listing, "node-2").here);
        assert_eq!(cached.invite, fingerprint("AB12CD34"));
        let json = serde_json::to_vec(&listing).unwrap();
        assert!(
            cached.packed.len() * 2 < json.len(),
            "{} bytes against {} of JSON",
            cached.packed.len(),
            json.len()
        );
    }

    #[test]
    fn the_seat_filter_passes_every_seated_player_and_few_others() {
        let cached = Cached::new(&playing("node-2"), "node-1");
        for i in 0..4 {
            assert!(cached.may_seat(player_bits(&format!("p-{i:08x}"))));
        }
        let strangers = (100..10_100)
            .filter(|i| cached.may_seat(player_bits(&format!("p-{i:08x}"))))
            .count();
        // About 1 in 70 by the bits' arithmetic; a scan decodes only these.
        assert!(strangers < 500, "{strangers} of 10,000 strangers passed");
    }
}
