//! Who serves a table: its owner in the KV bucket `burraco_owners` (key the table id, value the
//! holder `<node>/<process>`), valid while the holder is alive: its key in `burraco_alive`,
//! renewed by the node every third of the lease and gone when the bucket's `max_age` (the lease)
//! passes without a renewal.
//!
//! One renewal a node, not one a table: a lease per table renewed every second cost the NATS
//! servers more than the tables' appends at human pace (docs/PERFORMANCE.md, "A cheaper
//! cluster"). The guarantees are the same:
//! - taking a free table is a `create` (only one can succeed); taking a dead holder's table is an
//!   update naming the revision that holder wrote (only one taker can succeed);
//! - a node whose liveness renewal fails for a whole lease (counted from when it sent the last
//!   renewal that succeeded, so no later than the bucket lets it lapse), or finds its key lapsed,
//!   has lost every table and steps down from all of them at once;
//! - others take a table only once its holder's key has lapsed; and the log's fencing (the
//!   takeover's fence, `JetStreamLog::fence`) refuses whatever a former holder still sends.
//!
//! Every node watches both buckets into a cache (each table's holder and revision, the holders
//! alive): a holder's lapse is reported for each of its tables at once (the takeover), and
//! `leased` and `holder` are answered without reading every key.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_nats::jetstream::{self, kv};
use futures_util::StreamExt;

use super::{ClusterError, jetstream_error};
use crate::config::ClusterConfig;

/// Table (or tournament) to its holder.
pub const OWNER_BUCKET: &str = "burraco_owners";
/// A key per live holder, lapsing one lease after its last renewal.
pub const ALIVE_BUCKET: &str = "burraco_alive";

/// This process's liveness: its key's revision and when the renewal that wrote it was sent.
#[derive(Debug, Clone, Copy)]
struct Alive {
    revision: u64,
    sent: Instant,
}

/// What the watches have seen: every table's holder (and the owner key's revision), and the
/// holders alive (by key); and the holders this node read lapsed (a holder never comes back:
/// a process whose liveness lapsed goes on under a new one).
#[derive(Debug, Default)]
struct Seen {
    /// Every table in the cluster is a key here on every node: its holder is one of a few
    /// shared strings ([`Seen::holder`]), not a copy per table.
    owners: HashMap<Box<str>, (Arc<str>, u64)>,
    holders: HashSet<Arc<str>>,
    alive: HashSet<String>,
    dead: HashSet<String>,
}

impl Seen {
    /// The shared copy of a holder's name.
    fn holder(&mut self, name: &str) -> Arc<str> {
        if let Some(holder) = self.holders.get(name) {
            return holder.clone();
        }
        let holder: Arc<str> = name.into();
        self.holders.insert(holder.clone());
        holder
    }
}

/// The leases of the cluster, and the ones this node holds (with their revisions).
#[derive(Debug)]
pub struct Leases {
    owners: kv::Store,
    alive: kv::Store,
    /// What this process writes as a table's holder: `<node>/<random>`, so a node restarted under
    /// the same name is told apart from the process that held a table before (its clients must
    /// move); a new one after its liveness lapsed.
    holder: Mutex<String>,
    node: String,
    /// One liveness write at a time.
    renewing: tokio::sync::Mutex<()>,
    /// Table to the revision of its owner key, for the tables this process holds.
    held: Mutex<HashMap<String, u64>>,
    /// This process's liveness, once written; `None` before, and after it lapsed (every table
    /// lost) until it is written again.
    me: Mutex<Option<Alive>>,
    seen: Mutex<Seen>,
    /// The watches have delivered both buckets' current state: [`Seen`] can answer alone.
    caught_up: AtomicBool,
    lease: Duration,
}

fn new_holder(node: &str) -> String {
    format!("{node}/{}", crate::ids::random_id("", 6))
}

/// A holder's key in the liveness bucket (keys allow few characters).
fn alive_key(holder: &str) -> String {
    format!("h{}", burraco_protocol::cards::to_hex(holder.as_bytes()))
}

impl Leases {
    pub async fn open(
        js: &jetstream::Context,
        config: &ClusterConfig,
    ) -> Result<Leases, ClusterError> {
        let owners = js
            .create_or_update_key_value(super::bucket(OWNER_BUCKET, config.replicas))
            .await
            .map_err(jetstream_error)?;
        let alive = js
            .create_or_update_key_value(kv::Config {
                max_age: config.lease,
                // A holder that lapses leaves a marker that watchers see (as a purge), so the
                // other nodes take its tables over at once instead of at their next scan.
                limit_markers: Some(config.lease.max(Duration::from_secs(1))),
                ..super::bucket(ALIVE_BUCKET, config.replicas)
            })
            .await
            .map_err(jetstream_error)?;
        let leases = Leases {
            owners,
            alive,
            holder: Mutex::new(new_holder(&config.node)),
            node: config.node.clone(),
            renewing: tokio::sync::Mutex::new(()),
            held: Mutex::new(HashMap::new()),
            me: Mutex::new(None),
            seen: Mutex::new(Seen::default()),
            caught_up: AtomicBool::new(false),
            lease: config.lease,
        };
        // Alive from the start, so the first tables are taken without waiting for it.
        leases.ensure_alive().await?;
        Ok(leases)
    }

    fn holder_now(&self) -> String {
        self.holder
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// How long a lease lasts unrenewed.
    pub fn duration(&self) -> Duration {
        self.lease
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<String, u64>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn me(&self) -> std::sync::MutexGuard<'_, Option<Alive>> {
        self.me.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn seen(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether this process's liveness is current by its own clock.
    fn alive_here(&self) -> bool {
        self.me().is_some_and(|me| me.sent.elapsed() < self.lease)
    }

    /// Whether `holder` is alive: this process by its own clock; another, alive if the watch saw
    /// it so, and dead only once read lapsed from the bucket (a watch may lag: a live node's
    /// table is never taken on the cache's word).
    async fn is_alive(&self, holder: &str) -> Result<bool, ClusterError> {
        if holder == self.holder_now() {
            return Ok(self.alive_here());
        }
        let key = alive_key(holder);
        {
            let seen = self.seen();
            if seen.dead.contains(&key) {
                return Ok(false);
            }
            if self.caught_up.load(Ordering::Acquire) && seen.alive.contains(&key) {
                return Ok(true);
            }
        }
        let entry = self.alive.entry(&key).await.map_err(jetstream_error)?;
        let alive = entry.is_some_and(|e| e.operation == kv::Operation::Put);
        if !alive {
            self.seen().dead.insert(key);
        }
        Ok(alive)
    }

    /// Writes this process's liveness if it has none (at the start, and after a lapse); false
    /// while it lapsed by its own clock and the renewal loop has not yet reported the tables
    /// lost.
    async fn ensure_alive(&self) -> Result<bool, ClusterError> {
        if self.alive_here() {
            return Ok(true);
        }
        let _one = self.renewing.lock().await;
        if self.alive_here() {
            return Ok(true);
        }
        if self.me().is_some() {
            return Ok(false);
        }
        Ok(self.renew_alive().await.is_ok())
    }

    /// Renews (or first writes) this process's liveness. `Err(true)` when its key had lapsed,
    /// `Err(false)` when NATS did not answer.
    async fn renew_alive(&self) -> Result<(), bool> {
        let sent = Instant::now();
        let holder = self.holder_now();
        let key = alive_key(&holder);
        let previous = *self.me();
        let written = match previous {
            Some(me) => self
                .alive
                .update(&key, holder.clone().into(), me.revision)
                .await
                .map_err(|e| e.kind() == kv::UpdateErrorKind::WrongLastRevision),
            None => self
                .alive
                .create(&key, holder.into())
                .await
                .map_err(|e| e.kind() == kv::CreateErrorKind::AlreadyExists),
        };
        match written {
            Ok(revision) => {
                *self.me() = Some(Alive { revision, sent });
                Ok(())
            }
            Err(lapsed) => Err(lapsed),
        }
    }

    /// Takes `table`'s lease if nobody holds it, or its holder is no longer alive; true if this
    /// node now does.
    pub async fn take(&self, table: &str) -> Result<bool, ClusterError> {
        if !self.ensure_alive().await? {
            return Ok(false);
        }
        let holder = self.holder_now();
        // A table whose holder lapsed: one update, naming the revision that holder wrote.
        let cached = self.seen().owners.get(table).cloned();
        let stale = match cached {
            Some((current, _)) if *current == *holder => return Ok(false),
            Some((current, revision)) if !self.is_alive(&current).await? => Some(revision),
            Some(_) => return Ok(false),
            None => None,
        };
        let taken = match stale {
            Some(revision) => self.replace(table, revision).await?,
            None => match self.owners.create(table, holder.into()).await {
                Ok(revision) => Some(revision),
                Err(e) if e.kind() == kv::CreateErrorKind::AlreadyExists => {
                    self.take_from_dead(table).await?
                }
                Err(e) => return Err(jetstream_error(e)),
            },
        };
        match taken {
            Some(revision) => {
                self.held().insert(table.to_owned(), revision);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The table's owner key read: replaced if its holder is not alive.
    async fn take_from_dead(&self, table: &str) -> Result<Option<u64>, ClusterError> {
        let Some(entry) = self.owners.entry(table).await.map_err(jetstream_error)? else {
            return Ok(None);
        };
        if entry.operation != kv::Operation::Put {
            return Ok(None);
        }
        let current = String::from_utf8_lossy(&entry.value).into_owned();
        if current == self.holder_now() || self.is_alive(&current).await? {
            return Ok(None);
        }
        self.replace(table, entry.revision).await
    }

    /// Writes this process as the holder over the owner key at `revision`; `None` if another
    /// node wrote it first.
    async fn replace(&self, table: &str, revision: u64) -> Result<Option<u64>, ClusterError> {
        match self
            .owners
            .update(table, self.holder_now().into(), revision)
            .await
        {
            Ok(revision) => Ok(Some(revision)),
            Err(e) if e.kind() == kv::UpdateErrorKind::WrongLastRevision => Ok(None),
            Err(e) => Err(jetstream_error(e)),
        }
    }

    /// Whether the watches saw another holder, alive, take `table`: nothing for this node to
    /// do (a takeover skips it without a round trip; the scan backstops a stale cache).
    pub fn served_elsewhere(&self, table: &str) -> bool {
        if !self.caught_up.load(Ordering::Acquire) {
            return false;
        }
        let me = self.holder_now();
        let seen = self.seen();
        seen.owners.get(table).is_some_and(|(holder, _)| {
            **holder != *me && {
                let key = alive_key(holder);
                seen.alive.contains(&key) && !seen.dead.contains(&key)
            }
        })
    }

    /// Whether this node holds `table`'s lease (as far as it knows: a renewal may fail).
    pub fn holds(&self, table: &str) -> bool {
        self.held().contains_key(table)
    }

    /// Who holds `table`'s lease, if anyone alive: `<node>/<process>` (see [`node_of`]).
    pub async fn holder(&self, table: &str) -> Result<Option<String>, ClusterError> {
        let value = self.owners.get(table).await.map_err(jetstream_error)?;
        let Some(holder) = value.map(|v| String::from_utf8_lossy(&v).into_owned()) else {
            return Ok(None);
        };
        Ok(self.is_alive(&holder).await?.then_some(holder))
    }

    /// Every table whose holder is alive (any node's).
    pub async fn leased(&self) -> Result<Vec<String>, ClusterError> {
        if self.caught_up.load(Ordering::Acquire) {
            let me = self.holder_now();
            let seen = self.seen();
            return Ok(seen
                .owners
                .iter()
                .filter(|(_, (holder, _))| {
                    **holder == *me || seen.alive.contains(&alive_key(holder))
                })
                .map(|(table, _)| table.to_string())
                .collect());
        }
        let mut keys = self.owners.keys().await.map_err(jetstream_error)?;
        let mut tables = Vec::new();
        while let Some(key) = keys.next().await {
            let table = key.map_err(jetstream_error)?;
            if self.holder(&table).await?.is_some() {
                tables.push(table);
            }
        }
        Ok(tables)
    }

    /// Gives `table` up (after the table's last append), so another node may take it at once.
    pub async fn release(&self, table: &str) {
        let revision = self.held().remove(table);
        if let Some(revision) = revision {
            // Only our own revision: a table already taken by another node stays theirs.
            if let Err(e) = self
                .owners
                .delete_expect_revision(table, Some(revision))
                .await
            {
                tracing::debug!(table, "lease not released (already gone?): {e}");
            }
        }
    }

    /// Keeps the cache current and calls `gone` with every table whose lease is released, or
    /// whose holder lapses (each of its tables), until `stop`.
    pub async fn watch_released(
        &self,
        stop: tokio_util::sync::CancellationToken,
        gone: impl Fn(String),
    ) -> Result<(), ClusterError> {
        let mut owners = self
            .owners
            .watch_with_history(">")
            .await
            .map_err(jetstream_error)?;
        let mut alive = self
            .alive
            .watch_with_history(">")
            .await
            .map_err(jetstream_error)?;
        // Caught up once each watch delivered what was there when it started (an empty bucket
        // delivers nothing: its watch is caught up at once).
        let empty = |status: Result<Option<u64>, ClusterError>| matches!(status, Ok(Some(0)));
        let mut owners_current = empty(self.pending(&self.owners).await);
        let mut alive_current = empty(self.pending(&self.alive).await);
        self.caught_up.store(false, Ordering::Release);
        loop {
            self.caught_up
                .store(owners_current && alive_current, Ordering::Release);
            tokio::select! {
                _ = stop.cancelled() => return Ok(()),
                update = owners.next() => match update {
                    None => return Err(ClusterError::JetStream("the owners' watch ended".into())),
                    Some(Err(e)) => tracing::warn!("owners' watch: {e}"),
                    Some(Ok(entry)) => {
                        owners_current |= entry.delta == 0;
                        if entry.operation == kv::Operation::Put {
                            let holder = String::from_utf8_lossy(&entry.value);
                            let mut seen = self.seen();
                            let holder = seen.holder(&holder);
                            seen.owners.insert(entry.key.into(), (holder, entry.revision));
                        } else {
                            self.seen().owners.remove(entry.key.as_str());
                            // Before catching up these are old releases: the scan sees to
                            // any table left without a holder.
                            if owners_current {
                                gone(entry.key);
                            }
                        }
                    }
                },
                update = alive.next() => match update {
                    None => return Err(ClusterError::JetStream("the liveness watch ended".into())),
                    Some(Err(e)) => tracing::warn!("liveness watch: {e}"),
                    Some(Ok(entry)) => {
                        alive_current |= entry.delta == 0;
                        if entry.operation == kv::Operation::Put {
                            self.seen().alive.insert(entry.key);
                        } else {
                            let tables: Vec<String> = {
                                let mut seen = self.seen();
                                seen.alive.remove(&entry.key);
                                seen.dead.insert(entry.key.clone());
                                seen.owners
                                    .iter()
                                    .filter(|(_, (holder, _))| alive_key(holder) == entry.key)
                                    .map(|(table, _)| table.to_string())
                                    .collect()
                            };
                            tracing::info!(
                                holder = entry.key,
                                tables = tables.len(),
                                "a holder's liveness lapsed: its tables are free"
                            );
                            for table in tables {
                                gone(table);
                            }
                        }
                    }
                },
            }
        }
    }

    /// How many messages a bucket's stream holds now (0: its watch has nothing to deliver).
    async fn pending(&self, store: &kv::Store) -> Result<Option<u64>, ClusterError> {
        let mut stream = store.stream.clone();
        let info = stream.info().await.map_err(jetstream_error)?;
        Ok(Some(info.state.messages))
    }

    /// Renews this node's liveness; returns the tables it lost (its key lapsed, or could not be
    /// renewed for a whole lease): they must stop being served here at once. One write a node,
    /// whatever its number of tables.
    pub async fn renew_all(&self) -> Vec<String> {
        let _one = self.renewing.lock().await;
        if self.me().is_none() {
            // Lapsed before: written again under a new holder.
            let _ = self.renew_alive().await;
            return Vec::new();
        }
        let lapsed = match self.renew_alive().await {
            Ok(()) => false,
            Err(true) => {
                tracing::warn!("this node's liveness lapsed: every table it served is lost");
                true
            }
            Err(false) if !self.alive_here() => {
                tracing::warn!("liveness not renewed for a lease: every table it served is lost");
                true
            }
            Err(false) => {
                tracing::warn!("liveness not renewed");
                false
            }
        };
        if !lapsed {
            return Vec::new();
        }
        *self.me() = None;
        *self.holder.lock().unwrap_or_else(|e| e.into_inner()) = new_holder(&self.node);
        self.held().drain().map(|(table, _)| table).collect()
    }
}

/// The node's name in a lease's holder (`<node>/<process>`).
pub fn node_of(holder: &str) -> &str {
    holder.split('/').next().unwrap_or(holder)
}
