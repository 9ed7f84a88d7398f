//! Who serves a table: a lease in the KV bucket `burraco_leases`, key the table id, value the
//! node's name. Created to take (only one `create` of a key can succeed), updated by revision
//! to renew (an update naming a stale revision fails), and gone when the bucket's `max_age`
//! passes without a renewal. A node that fails to renew a lease has lost the table and stops
//! serving it at once; the log's fencing refuses it anyway if it tried to append.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use async_nats::jetstream::{self, kv};
use futures_util::StreamExt;

use super::{ClusterError, jetstream_error};
use crate::config::ClusterConfig;

pub const LEASE_BUCKET: &str = "burraco_leases";
/// Renewals sent before the first is answered.
const RENEWALS_IN_FLIGHT: usize = 128;

/// The leases of the cluster, and the ones this node holds (with their revisions).
#[derive(Debug)]
pub struct Leases {
    kv: kv::Store,
    /// What this process writes in a lease: `<node>/<random>`, so a node restarted under the same
    /// name is told apart from the process that held a lease before (its clients must move).
    holder: String,
    /// Table to (revision, when it was last taken or renewed).
    held: Mutex<HashMap<String, (u64, Instant)>>,
    lease: Duration,
}

impl Leases {
    pub async fn open(
        js: &jetstream::Context,
        config: &ClusterConfig,
    ) -> Result<Leases, ClusterError> {
        let kv = js
            .create_or_update_key_value(kv::Config {
                max_age: config.lease,
                // A lease that lapses leaves a marker that watchers see (as a purge), so the other
                // nodes take the table over at once instead of at their next scan.
                limit_markers: Some(config.lease.max(Duration::from_secs(1))),
                ..super::bucket(LEASE_BUCKET, config.replicas)
            })
            .await
            .map_err(jetstream_error)?;
        Ok(Leases {
            kv,
            holder: format!("{}/{}", config.node, crate::random_id("", 6)),
            held: Mutex::new(HashMap::new()),
            lease: config.lease,
        })
    }

    /// How long a lease lasts unrenewed.
    pub fn duration(&self) -> Duration {
        self.lease
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<String, (u64, Instant)>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes `table`'s lease if nobody holds it; true if this node now does.
    pub async fn take(&self, table: &str) -> Result<bool, ClusterError> {
        let sent = Instant::now();
        match self.kv.create(table, self.holder.clone().into()).await {
            Ok(revision) => {
                self.held().insert(table.to_owned(), (revision, sent));
                Ok(true)
            }
            Err(e) if e.kind() == kv::CreateErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(jetstream_error(e)),
        }
    }

    /// Whether this node holds `table`'s lease (as far as it knows: a renewal may fail).
    pub fn holds(&self, table: &str) -> bool {
        self.held().contains_key(table)
    }

    /// Who holds `table`'s lease, if anyone: `<node>/<process>` (see [`node_of`]).
    pub async fn holder(&self, table: &str) -> Result<Option<String>, ClusterError> {
        let value = self.kv.get(table).await.map_err(jetstream_error)?;
        Ok(value.map(|v| String::from_utf8_lossy(&v).into_owned()))
    }

    /// Every leased table (any node's).
    pub async fn leased(&self) -> Result<Vec<String>, ClusterError> {
        let mut keys = self.kv.keys().await.map_err(jetstream_error)?;
        let mut tables = Vec::new();
        while let Some(key) = keys.next().await {
            tables.push(key.map_err(jetstream_error)?);
        }
        Ok(tables)
    }

    /// Gives `table` up (after the table's last append), so another node may take it at once.
    pub async fn release(&self, table: &str) {
        let revision = self.held().remove(table);
        if let Some((revision, _)) = revision {
            // Only our own revision: a lease already lost to another node stays theirs.
            if let Err(e) = self.kv.delete_expect_revision(table, Some(revision)).await {
                tracing::debug!(table, "lease not released (already gone?): {e}");
            }
        }
    }

    /// Calls `gone` with every table whose lease is released, deleted or lapses, until `stop`.
    pub async fn watch_released(
        &self,
        stop: tokio_util::sync::CancellationToken,
        gone: impl Fn(String),
    ) -> Result<(), ClusterError> {
        let mut updates = self.kv.watch_all().await.map_err(jetstream_error)?;
        loop {
            let update = tokio::select! {
                _ = stop.cancelled() => return Ok(()),
                update = updates.next() => update,
            };
            match update {
                None => return Err(ClusterError::JetStream("the lease watch ended".into())),
                Some(Ok(entry)) if entry.operation != kv::Operation::Put => gone(entry.key),
                Some(Ok(_)) => {}
                Some(Err(e)) => tracing::warn!("lease watch: {e}"),
            }
        }
    }

    /// Renews every lease this node holds; returns the tables whose lease was lost (another
    /// node took it, or it expired): they must stop being served here at once. The renewals
    /// run concurrently: one round trip each, thousands per node.
    pub async fn renew_all(&self) -> Vec<String> {
        let held: Vec<(String, u64, Instant)> = self
            .held()
            .iter()
            .map(|(t, (r, at))| (t.clone(), *r, *at))
            .collect();
        let mut renewals = futures_util::stream::iter(held.into_iter().map(
            |(table, revision, renewed)| async move {
                // The bucket counts the lease from when it stores the update, which is after
                // this: counting from here, this node gives a lease up no later than the
                // others may take it.
                let sent = Instant::now();
                let result = self
                    .kv
                    .update(&table, self.holder.clone().into(), revision)
                    .await;
                (table, renewed, sent, result)
            },
        ))
        .buffer_unordered(RENEWALS_IN_FLIGHT);
        let mut lost = Vec::new();
        while let Some((table, renewed, sent, result)) = renewals.next().await {
            match result {
                Ok(next) => {
                    let mut held = self.held();
                    // Released meanwhile: leave it released.
                    if let Some(r) = held.get_mut(&table) {
                        *r = (next, sent);
                    }
                }
                Err(e) if e.kind() == kv::UpdateErrorKind::WrongLastRevision => {
                    tracing::warn!(table, "lease lost: {e}");
                    self.held().remove(&table);
                    lost.push(table);
                }
                // NATS unreachable: keep trying until the lease has expired for the others too;
                // the log's fencing refuses a stale append meanwhile.
                Err(e) if renewed.elapsed() >= self.lease => {
                    tracing::warn!(table, "lease expired unrenewed: {e}");
                    self.held().remove(&table);
                    lost.push(table);
                }
                Err(e) => tracing::warn!(table, "lease not renewed: {e}"),
            }
        }
        lost
    }
}

/// The node's name in a lease's holder (`<node>/<process>`).
pub fn node_of(holder: &str) -> &str {
    holder.split('/').next().unwrap_or(holder)
}
