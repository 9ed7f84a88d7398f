//! Cluster mode: the same server on several nodes, sharing NATS JetStream (`--nats`, `--node`).
//!
//! Where each piece of shared state lives (docs/ARCHITECTURE.md, "Cluster mode", says why):
//! - a table's log: the stream `BURRACO_LOG`, subject `burraco.log.<table>` ([`log`]);
//! - which tables are in play: the KV bucket `burraco_in_play` ([`log`]);
//! - who serves a table: its holder in the KV bucket `burraco_owners`, valid while the holder
//!   renews its key in `burraco_alive` ([`lease`]);
//! - the lobby (every table's listing, invite code and seated players): the KV bucket
//!   `burraco_lobby`, watched by every node into a local cache ([`lobby`]);
//! - sessions (resume tokens): the KV bucket `burraco_sessions` ([`lobby`]);
//! - hand records and results: in the tables' logs themselves (the hand-finished entries).
//!
//! Requests for a table served by another node travel to it over NATS request-reply as the
//! client sent them ([`forward`]), and its frames for this node's connections come back on
//! `burraco.conn.<node>.<conn>` encoded for them ([`relay`]); [`route`] is this node's end of both.
//! A tournament is served by one node too, the holder of its lease; the others forward their
//! players' requests to it and deliver what it tells them ([`tournaments`]).
//! Nothing here is a broker, a lease service or a consensus protocol of its own: JetStream's
//! per-subject expected sequence fences the logs, and its KV revisions fence the leases.

mod forward;
pub mod keeper;
pub mod lease;
pub mod lobby;
pub mod log;
mod peer_directory;
pub mod ports;
pub mod records;
mod relay;
pub mod route;
pub mod tournaments;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_nats::jetstream;

use crate::config::ClusterConfig;
use crate::log::LogError;

/// Why cluster mode could not start.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("cannot connect to NATS at {urls}: {detail}")]
    Connect { urls: String, detail: String },
    #[error("cannot open the cluster's JetStream state: {0}")]
    JetStream(String),
    #[error(transparent)]
    Log(#[from] LogError),
}

/// A KV bucket of the cluster: the latest value of each key only, on disk, `replicas` copies.
fn bucket(name: &str, replicas: usize) -> jetstream::kv::Config {
    jetstream::kv::Config {
        bucket: name.into(),
        history: 1,
        num_replicas: replicas,
        storage: jetstream::stream::StorageType::File,
        ..Default::default()
    }
}

fn jetstream_error(e: impl std::fmt::Display) -> ClusterError {
    ClusterError::JetStream(e.to_string())
}

/// This node's view of the cluster: the NATS connection and the shared state's handles.
#[derive(Debug)]
pub struct Cluster {
    pub config: ClusterConfig,
    pub client: async_nats::Client,
    pub log: Arc<log::JetStreamLog>,
    pub leases: lease::Leases,
    pub lobby: lobby::Lobby,
    pub router: route::Router,
    /// Tournaments served elsewhere, and this node's serving others' requests for its own.
    pub tournaments: tournaments::Remote,
    /// SIGTERM was received: readiness is false and this node takes no table.
    draining: AtomicBool,
    /// This node's own embargoes, answered without a round trip.
    embargo_here: crate::backplane::local::MemoryEmbargo,
    /// The server this node serves for, once its background work started (a forwarder to
    /// another node's table runs as one of its tasks).
    shared: std::sync::OnceLock<std::sync::Weak<crate::Shared>>,
}

impl Cluster {
    /// Connects to NATS and opens (creating if needed) the stream and buckets.
    pub async fn connect(config: ClusterConfig) -> Result<Arc<Cluster>, ClusterError> {
        let urls = config.nats.join(",");
        let client = async_nats::ConnectOptions::new()
            .name(format!("burraco-{}", config.node))
            // Keep trying through a NATS server's restart; requests fail meanwhile.
            .retry_on_initial_connect()
            .max_reconnects(None)
            .connection_timeout(Duration::from_secs(5))
            .connect(config.nats.as_slice())
            .await
            .map_err(|e| ClusterError::Connect {
                urls: urls.clone(),
                detail: e.to_string(),
            })?;
        // The initial connection is retried in the background: wait for it here (bounded), so a
        // wrong URL fails the start instead of hanging.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        while client.connection_state() != async_nats::connection::State::Connected {
            if tokio::time::Instant::now() > deadline {
                return Err(ClusterError::Connect {
                    urls,
                    detail: "no NATS server answered within 30 s".into(),
                });
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let mut js = jetstream::new(client.clone());
        // An acknowledgement lost with a NATS server is retried soon (under the same message id,
        // so a stored append is not stored twice), and the retries wait out a leader election.
        js.set_timeout(Duration::from_secs(1));
        // A NATS cluster that is just starting has no JetStream leader yet: retry (bounded).
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        let (log, leases, lobby, tournaments) = loop {
            let opened = async {
                let log =
                    log::JetStreamLog::open(js.clone(), &config.node, config.replicas).await?;
                let leases = lease::Leases::open(&js, &config).await?;
                let lobby = lobby::Lobby::open(&js, &config).await?;
                let tournaments = tournaments::Remote::open(client.clone(), &js, &config).await?;
                Ok::<_, ClusterError>((Arc::new(log), leases, lobby, tournaments))
            };
            match opened.await {
                Ok(opened) => break opened,
                Err(e) if tokio::time::Instant::now() < deadline => {
                    tracing::info!("JetStream not ready yet ({e}); retrying");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
                Err(e) => return Err(e),
            }
        };
        let router = route::Router::new(client.clone(), &config.node);
        Ok(Arc::new(Cluster {
            config,
            client,
            log,
            leases,
            lobby,
            router,
            tournaments,
            draining: AtomicBool::new(false),
            embargo_here: Default::default(),
            shared: Default::default(),
        }))
    }

    pub fn node(&self) -> &str {
        &self.config.node
    }

    /// Ready for traffic: connected to NATS and not draining.
    pub fn ready(&self) -> bool {
        !self.is_draining()
            && self.client.connection_state() == async_nats::connection::State::Connected
    }

    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Acquire)
    }

    pub fn start_draining(&self) {
        self.draining.store(true, Ordering::Release);
    }
}
