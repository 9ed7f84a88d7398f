//! The server's settings: flags, environment and an optional TOML or JSON file, over embedded
//! defaults. [`ServerConfig`] is what [`crate::run`] takes; [`Cli`] is how `main` builds one.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

/// WAL pages at which SQLite's own checkpoint runs inside a commit: only a fallback, for when the
/// store's checkpointer thread falls behind (`crate::store`). In normal running the WAL
/// restarts every handoff interval and never gets near it.
pub const DEFAULT_WAL_AUTOCHECKPOINT: u32 = 10_000;

/// Connections a node keeps to the database at most: enough for sign-ins, API pages, the
/// match-end projections and the half-second rechecks of tokens and sanctions at once, while
/// three nodes stay well inside PostgreSQL's default `max_connections` of 100.
pub const DEFAULT_POOL_SIZE: usize = 16;

/// Checks `origin` as `--public-origin` takes it: an `http(s)://` URL with a host. One WebAuthn
/// cannot use (an IP address: the relying party is a host name) still serves, with passwords
/// only: `accounts::ceremonies::Passkeys::new` turns the passkeys off and says why.
pub fn check_origin(origin: &str) -> Result<(), String> {
    let url = webauthn_rs::prelude::Url::parse(origin).map_err(|e| e.to_string())?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err("not an http(s) origin".into());
    }
    url.host_str().ok_or("no host")?;
    Ok(())
}

/// Everything [`crate::run`] needs. Build it with [`ServerConfig::default`] (tests) or [`Cli::load`].
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Where the SQLite file lives (created if missing).
    pub data_dir: PathBuf,
    /// Token bucket per connection: sustained requests per second...
    pub rate_per_sec: u32,
    /// ...and the burst it allows.
    pub rate_burst: u32,
    /// Requests refused by the rate limit in a row before the connection is closed.
    pub rate_strikes: u32,
    /// Sends queued per connection before the client counts as too slow and is dropped (the
    /// frames one action sends a connection count as one).
    pub outbound_queue: usize,
    /// Commands queued per table before requests get `table_busy`.
    pub table_queue: usize,
    /// Events a table keeps for `sync`; older gaps get a snapshot...
    pub replay_buffer: usize,
    /// ...and the bytes they may keep alive in all (an estimate: frames, encodings).
    pub replay_buffer_bytes: usize,
    /// How long a disconnected player's seat waits (its clock running) before a server bot takes
    /// it over until the player returns.
    pub disconnect_grace: Duration,
    /// A server bot's think time before each action (human-like pacing; tests use zero).
    pub bot_delay: Duration,
    /// What one decision of an L3 (`search`) server bot may cost: a few sampled worlds and a time
    /// cap, so a table of search bots stays cheap for the server.
    pub bot_search: burraco_bot::SearchBudget,
    /// The longest wait between a hand's end and the next deal: the next hand is dealt as soon
    /// as every player has said `ready`, so this only bounds the wait for one who has not (gone,
    /// or still reading the score).
    pub next_hand_delay: Duration,
    /// How long a finished table stays listed.
    pub finished_linger: Duration,
    /// A connection must say hello within this time.
    pub hello_timeout: Duration,
    /// The same create request (`create_table`, `create_tournament`) from the same player within
    /// this time is a double click, refused with `repeated_create`; zero allows it.
    pub repeat_create_window: Duration,
    /// The WebSocket read buffer (bytes): a client's frames are small (a move is ~100 bytes of
    /// JSON), and a longer one grows the buffer to its length for that frame (tungstenite
    /// reserves a frame's whole length), so every connection need not keep a larger one.
    pub ws_read_buffer: usize,
    /// The WebSocket write buffer (bytes): frames are buffered up to this before a write to the
    /// socket (a flush writes whatever is buffered).
    pub ws_write_buffer: usize,
    /// WAL pages at which SQLite checkpoints inside a commit: a fallback only, for when the
    /// checkpointer thread falls behind (the WAL restarts twice a second).
    pub wal_autocheckpoint: u32,
    /// Test only: deal every hand from this seed instead of a fresh random one.
    pub fixed_seed: Option<[u8; 32]>,
    /// What a tournament counts as a minute for its late-arrival rule (the codes' 2, 5 and 10
    /// minutes): a minute; tests shrink it.
    pub tournament_minute: Duration,
    /// Cluster mode: the NATS servers and this node's name; `None` runs one node on SQLite.
    pub cluster: Option<ClusterConfig>,
    /// Test only: wait for durable appends on the blocking pool, so that a paused tokio clock
    /// (`tokio::time::pause`) does not jump while the SQLite writer works.
    pub store_wait_blocking: bool,
    /// Accounts in PostgreSQL (`postgres://...`); `None`: in the SQLite file on one node, and
    /// switched off in a cluster (a node's file is not shared).
    pub database_url: Option<String>,
    /// Connections a node keeps to that database at most, one pool shared by every store.
    pub database_pool: usize,
    /// Session cookies marked `Secure` (the server is reached over TLS, through a proxy that
    /// may not say so with `X-Forwarded-Proto: https`).
    pub secure_cookies: bool,
    /// Behind a proxy that appends the client's address to `X-Forwarded-For`: the accounts'
    /// per-address limits count that address rather than the proxy's.
    pub trust_forwarded_for: bool,
    /// The origin browsers reach the server at (`https://burraco.example`): passkeys are bound
    /// to its host, and a browser answers a passkey ceremony only there. `None`: run fills in
    /// `http://localhost:<port>`.
    pub public_origin: Option<String>,
    /// Origins besides the server's own (the request's `Host`) whose pages may open a
    /// WebSocket with a player's session cookie, e.g. `https://burraco.example`.
    pub allowed_origins: Vec<String>,
    /// The first delay after repeated wrong passwords for one account or from one address;
    /// it doubles with each further failure.
    pub login_backoff: Duration,
    /// A rated match whose moves took less play time than this (the time between inputs,
    /// summed over its hands) is not rated: a match thrown away in seconds is farming.
    pub rated_min_play: Duration,
    /// The same accounts' rated matches within a day beyond this many are not rated (farming).
    pub rated_daily_cap: u32,
    /// Test only: how long a finished rated match waits before its ratings are written (a test
    /// kills the server in between).
    pub rating_delay: Duration,
    /// Arena matches a bot account may be made in 24 hours (`arena_ready` refused beyond).
    pub arena_daily_cap: u32,
    /// Hands of each arena table (each played at both tables, the seats swapped).
    pub arena_hands: u8,
    /// How long a bot ready for the arena waits for another before it meets a server bot.
    pub arena_wait: Duration,
    /// How long an arena table waits for its bots to start its match (from the match's making,
    /// or the first table's end for the second): its logged start deadline, past which the
    /// no-show rule ends it (docs/BOTS.md, "The arena").
    pub arena_start_limit: Duration,
    /// What rated quick play counts as a second of a table's wait (its window widens by
    /// `ratings::QUICK_PLAY_WIDENING_PER_SEC` a second), and how often quick play looks for
    /// waiting tables to bring together (`crate::quick_play`): a second; tests shrink it.
    pub quick_play_second: Duration,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            data_dir: PathBuf::from("./data"),
            rate_per_sec: 100,
            rate_burst: 200,
            rate_strikes: 50,
            outbound_queue: 256,
            table_queue: 256,
            replay_buffer: 128,
            replay_buffer_bytes: 4 * 1024,
            disconnect_grace: Duration::from_secs(120),
            bot_delay: Duration::from_millis(600),
            bot_search: burraco_bot::SearchBudget {
                worlds: 8,
                max_time: Some(Duration::from_millis(200)),
                horizon: 12,
            },
            next_hand_delay: Duration::from_secs(30),
            finished_linger: Duration::from_secs(300),
            hello_timeout: Duration::from_secs(10),
            repeat_create_window: Duration::from_secs(2),
            ws_read_buffer: 512,
            ws_write_buffer: 1024,
            wal_autocheckpoint: DEFAULT_WAL_AUTOCHECKPOINT,
            fixed_seed: None,
            tournament_minute: Duration::from_secs(60),
            store_wait_blocking: false,
            cluster: None,
            database_url: None,
            database_pool: DEFAULT_POOL_SIZE,
            public_origin: None,
            secure_cookies: false,
            trust_forwarded_for: false,
            allowed_origins: Vec::new(),
            login_backoff: Duration::from_secs(1),
            rated_min_play: Duration::from_secs(60),
            rated_daily_cap: 5,
            rating_delay: Duration::ZERO,
            arena_daily_cap: 20,
            arena_hands: 2,
            arena_wait: Duration::from_secs(30),
            arena_start_limit: Duration::from_secs(600),
            quick_play_second: Duration::from_secs(1),
        }
    }
}

/// Cluster mode (`--nats`, `--node`): tables' logs, leases, the lobby and sessions on NATS
/// JetStream, shared by every node.
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// NATS server URLs (any one of the cluster will do; the client learns the others).
    pub nats: Vec<String>,
    /// This node's name, unique in the cluster (a pod name, a host name).
    pub node: String,
    /// Copies JetStream keeps of every log and bucket: 3 on a 3-server NATS cluster (a write is
    /// acknowledged once 2 hold it), 1 against a single NATS server.
    pub replicas: usize,
    /// A table's lease: a node that has not renewed it for this long has lost the table, and
    /// another node takes it over. Renewed every third of it.
    pub lease: Duration,
}

impl ClusterConfig {
    /// Replicas by default: 3 when several servers are named (a NATS cluster), else 1.
    pub fn new(nats: Vec<String>, node: String) -> ClusterConfig {
        let replicas = if nats.len() >= 3 { 3 } else { 1 };
        ClusterConfig {
            nats,
            node,
            replicas,
            lease: Duration::from_secs(3),
        }
    }
}

/// Command-line flags; each also reads an environment variable, and a config file fills what
/// neither gives.
#[derive(Debug, Clone, Default, clap::Parser)]
#[command(
    name = "burraco-server",
    version,
    about = "The authoritative Burraco server"
)]
pub struct Cli {
    /// A TOML (`.toml`) or JSON (`.json`) file with any of the settings below (snake_case keys).
    #[arg(long, env = "BURRACO_CONFIG")]
    pub config: Option<PathBuf>,
    /// Address to serve HTTP and the WebSocket on [default: 127.0.0.1:8080].
    #[arg(long, env = "BURRACO_LISTEN")]
    pub listen: Option<SocketAddr>,
    /// Directory for the SQLite database [default: ./data].
    #[arg(long, env = "BURRACO_DATA")]
    pub data: Option<PathBuf>,
    /// Log as JSON lines.
    #[arg(long, env = "BURRACO_JSON_LOGS")]
    pub json_logs: bool,
    /// Async worker threads [default: one more than the machine's cores].
    #[arg(long, env = "BURRACO_WORKERS")]
    pub workers: Option<usize>,
    /// Requests per second per connection [default: 100].
    #[arg(long, env = "BURRACO_RATE_PER_SEC")]
    pub rate_per_sec: Option<u32>,
    /// Burst of requests per connection [default: 200].
    #[arg(long, env = "BURRACO_RATE_BURST")]
    pub rate_burst: Option<u32>,
    /// Outbound frames queued per connection before a slow client is dropped [default: 256].
    #[arg(long, env = "BURRACO_OUTBOUND_QUEUE")]
    pub outbound_queue: Option<usize>,
    /// Seconds a disconnected seat is kept before a server bot plays it [default: 120].
    #[arg(long, env = "BURRACO_DISCONNECT_GRACE_SECS")]
    pub disconnect_grace_secs: Option<u64>,
    /// Milliseconds a server bot waits before each action [default: 600].
    #[arg(long, env = "BURRACO_BOT_DELAY_MS")]
    pub bot_delay_ms: Option<u64>,
    /// Sampled worlds per decision of a `search` (L3) server bot [default: 8].
    #[arg(long, env = "BURRACO_BOT_SEARCH_WORLDS")]
    pub bot_search_worlds: Option<u32>,
    /// Time cap in milliseconds per decision of a `search` server bot [default: 200].
    #[arg(long, env = "BURRACO_BOT_SEARCH_MS")]
    pub bot_search_ms: Option<u64>,
    /// Seconds at most between a hand's end and the next deal, which comes sooner once every
    /// player is ready [default: 30].
    #[arg(long, env = "BURRACO_NEXT_HAND_DELAY_SECS")]
    pub next_hand_delay_secs: Option<u64>,
    /// Events each table keeps for a resuming client's `sync` [default: 128].
    #[arg(long, env = "BURRACO_REPLAY_BUFFER")]
    pub replay_buffer: Option<usize>,
    /// Bytes those events may keep alive per table [default: 4096].
    #[arg(long, env = "BURRACO_REPLAY_BUFFER_BYTES")]
    pub replay_buffer_bytes: Option<usize>,
    /// WAL pages at which SQLite checkpoints inside a commit, a fallback for when the
    /// checkpointer thread falls behind [default: 10000].
    #[arg(long, env = "BURRACO_WAL_AUTOCHECKPOINT")]
    pub wal_autocheckpoint: Option<u32>,
    /// Cluster mode: NATS server URLs, comma-separated (e.g. nats://10.0.0.1:4222,nats://...).
    /// Without it the server runs alone on its embedded SQLite store.
    #[arg(long, env = "BURRACO_NATS", value_delimiter = ',')]
    pub nats: Vec<String>,
    /// Cluster mode: this node's name, unique in the cluster [default: the host name].
    #[arg(long, env = "BURRACO_NODE")]
    pub node: Option<String>,
    /// Cluster mode: copies JetStream keeps of the logs and buckets [default: 3 with three or
    /// more NATS URLs, else 1].
    #[arg(long, env = "BURRACO_NATS_REPLICAS")]
    pub nats_replicas: Option<usize>,
    /// Cluster mode: seconds a table's lease lasts unrenewed before another node takes the table
    /// [default: 3].
    #[arg(long, env = "BURRACO_LEASE_SECS")]
    pub lease_secs: Option<u64>,
    /// Player accounts in PostgreSQL (e.g. postgres://burraco:secret@db/burraco): what the nodes
    /// of a cluster share. Without it a single node keeps accounts in its SQLite file, and a
    /// cluster has none (guests only).
    #[arg(long, env = "BURRACO_DATABASE_URL")]
    pub database_url: Option<String>,
    /// Connections this node keeps to the database at most, shared by every store on it
    /// [default: 16].
    #[arg(long, env = "BURRACO_DATABASE_POOL")]
    pub database_pool: Option<usize>,
    /// Mark session cookies `Secure` (served over TLS by a proxy that sends no
    /// `X-Forwarded-Proto: https`).
    #[arg(long, env = "BURRACO_SECURE_COOKIES")]
    pub secure_cookies: bool,
    /// Served behind a proxy that appends the client's address to `X-Forwarded-For`: the
    /// accounts' per-address limits count the last address there (never set this without
    /// such a proxy: anyone could then name any address).
    #[arg(long, env = "BURRACO_TRUST_FORWARDED_FOR")]
    pub trust_forwarded_for: bool,
    /// The origin browsers reach this server at, e.g. https://burraco.example: passkeys are
    /// bound to its host name (an IP address will not do) [default: http://localhost:<port>].
    #[arg(long, env = "BURRACO_PUBLIC_ORIGIN")]
    pub public_origin: Option<String>,
    /// Operators' commands on the accounts' store (the one `--data` or `--database-url` names)
    /// instead of serving.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// An origin besides the server's own whose pages may open a WebSocket with a player's
    /// session cookie (e.g. https://burraco.example); repeat the flag, or comma-separate in
    /// the environment variable.
    #[arg(
        long = "allowed-origin",
        env = "BURRACO_ALLOWED_ORIGINS",
        value_delimiter = ','
    )]
    pub allowed_origins: Vec<String>,
    /// Test only: deal every hand from this seed (64 hex digits). Never in production: the deal
    /// becomes predictable.
    #[arg(long, env = "BURRACO_INSECURE_FIXED_SEED", hide = true)]
    pub insecure_fixed_seed: Option<String>,
    /// Test only: the milliseconds a tournament counts as a minute for late arrivals.
    #[arg(long, env = "BURRACO_TEST_TOURNAMENT_MINUTE_MS", hide = true)]
    pub test_tournament_minute_ms: Option<u64>,
    /// Test only: the least play time of a rated match, in milliseconds (default 60 s).
    #[arg(long, env = "BURRACO_TEST_RATED_MIN_PLAY_MS", hide = true)]
    pub test_rated_min_play_ms: Option<u64>,
    /// Test only: milliseconds a finished rated match waits before its ratings are written.
    #[arg(long, env = "BURRACO_TEST_RATING_DELAY_MS", hide = true)]
    pub test_rating_delay_ms: Option<u64>,
    /// Arena matches a bot account may play in 24 hours [default: 20].
    #[arg(long, env = "BURRACO_ARENA_DAILY_CAP")]
    pub arena_daily_cap: Option<u32>,
    /// Hands of each arena table [default: 2].
    #[arg(long, env = "BURRACO_ARENA_HANDS")]
    pub arena_hands: Option<u8>,
    /// Test only: milliseconds a ready bot waits before it meets a server bot (default 30 s).
    #[arg(long, env = "BURRACO_TEST_ARENA_WAIT_MS", hide = true)]
    pub test_arena_wait_ms: Option<u64>,
    /// Test only: milliseconds an arena table waits for its bots to start (default 10 min).
    #[arg(long, env = "BURRACO_TEST_ARENA_START_LIMIT_MS", hide = true)]
    pub test_arena_start_limit_ms: Option<u64>,
    /// Test only: the milliseconds rated quick play counts as a second of a table's wait, and
    /// between its looks for waiting tables to bring together (default 1,000).
    #[arg(long, env = "BURRACO_TEST_QUICK_PLAY_SECOND_MS", hide = true)]
    pub test_quick_play_second_ms: Option<u64>,
}

/// What `burraco-server` does besides serving.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum Command {
    /// Administer accounts: make an administrator, disable, enable, reset a password.
    #[command(subcommand)]
    Admin(AdminCommand),
}

/// The keys a config file may hold.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    listen: Option<SocketAddr>,
    data: Option<PathBuf>,
    json_logs: Option<bool>,
    workers: Option<usize>,
    rate_per_sec: Option<u32>,
    rate_burst: Option<u32>,
    outbound_queue: Option<usize>,
    disconnect_grace_secs: Option<u64>,
    bot_delay_ms: Option<u64>,
    bot_search_worlds: Option<u32>,
    bot_search_ms: Option<u64>,
    next_hand_delay_secs: Option<u64>,
    replay_buffer: Option<usize>,
    replay_buffer_bytes: Option<usize>,
    wal_autocheckpoint: Option<u32>,
    public_origin: Option<String>,
    database_pool: Option<usize>,
}

/// Why the settings could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigFileError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("invalid config file {path}: {detail}")]
    Invalid { path: PathBuf, detail: String },
    #[error("--insecure-fixed-seed must be 64 hex digits")]
    Seed,
    #[error("--node needs --nats, and cluster mode needs a node name (--node or a host name)")]
    Node,
    #[error("--public-origin {origin}: {detail}")]
    PublicOrigin { origin: String, detail: String },
}

/// The resolved settings of `main`.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub listen: SocketAddr,
    pub json_logs: bool,
    /// Worker threads of the async runtime.
    pub workers: usize,
    pub server: ServerConfig,
}

impl Cli {
    /// Flags and environment first, then the file, then the defaults.
    pub fn load(&self) -> Result<Loaded, ConfigFileError> {
        let file = match &self.config {
            Some(path) => read_file(path)?,
            None => FileConfig::default(),
        };
        let defaults = ServerConfig::default();
        let fixed_seed = match &self.insecure_fixed_seed {
            Some(hex) => Some(
                burraco_rules::Seed::from_hex(hex)
                    .ok_or(ConfigFileError::Seed)?
                    .0,
            ),
            None => None,
        };
        let secs = Duration::from_secs;
        let cluster = self.cluster()?;
        let public_origin = self.public_origin.clone().or(file.public_origin);
        if let Some(origin) = &public_origin {
            check_origin(origin).map_err(|detail| ConfigFileError::PublicOrigin {
                origin: origin.clone(),
                detail,
            })?;
        }
        Ok(Loaded {
            listen: self
                .listen
                .or(file.listen)
                .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8080))),
            json_logs: self.json_logs || file.json_logs.unwrap_or(false),
            workers: self
                .workers
                .or(file.workers)
                .unwrap_or_else(default_workers)
                .max(1),
            server: ServerConfig {
                data_dir: self.data.clone().or(file.data).unwrap_or(defaults.data_dir),
                rate_per_sec: self
                    .rate_per_sec
                    .or(file.rate_per_sec)
                    .unwrap_or(defaults.rate_per_sec),
                rate_burst: self
                    .rate_burst
                    .or(file.rate_burst)
                    .unwrap_or(defaults.rate_burst),
                outbound_queue: self
                    .outbound_queue
                    .or(file.outbound_queue)
                    .unwrap_or(defaults.outbound_queue),
                disconnect_grace: self
                    .disconnect_grace_secs
                    .or(file.disconnect_grace_secs)
                    .map_or(defaults.disconnect_grace, secs),
                bot_delay: self
                    .bot_delay_ms
                    .or(file.bot_delay_ms)
                    .map_or(defaults.bot_delay, Duration::from_millis),
                bot_search: burraco_bot::SearchBudget {
                    worlds: self
                        .bot_search_worlds
                        .or(file.bot_search_worlds)
                        .unwrap_or(defaults.bot_search.worlds)
                        .max(1),
                    max_time: self
                        .bot_search_ms
                        .or(file.bot_search_ms)
                        .map(Duration::from_millis)
                        .or(defaults.bot_search.max_time),
                    ..defaults.bot_search
                },
                next_hand_delay: self
                    .next_hand_delay_secs
                    .or(file.next_hand_delay_secs)
                    .map_or(defaults.next_hand_delay, secs),
                replay_buffer: self
                    .replay_buffer
                    .or(file.replay_buffer)
                    .unwrap_or(defaults.replay_buffer),
                replay_buffer_bytes: self
                    .replay_buffer_bytes
                    .or(file.replay_buffer_bytes)
                    .unwrap_or(defaults.replay_buffer_bytes),
                wal_autocheckpoint: self
                    .wal_autocheckpoint
                    .or(file.wal_autocheckpoint)
                    .unwrap_or(defaults.wal_autocheckpoint),
                fixed_seed,
                tournament_minute: self
                    .test_tournament_minute_ms
                    .map_or(defaults.tournament_minute, |ms| {
                        Duration::from_millis(ms.max(1))
                    }),
                cluster,
                database_url: self.database_url.clone(),
                database_pool: self
                    .database_pool
                    .or(file.database_pool)
                    .unwrap_or(defaults.database_pool)
                    .max(1),
                secure_cookies: self.secure_cookies,
                trust_forwarded_for: self.trust_forwarded_for,
                public_origin,
                allowed_origins: self.allowed_origins.clone(),
                rated_min_play: self
                    .test_rated_min_play_ms
                    .map_or(defaults.rated_min_play, Duration::from_millis),
                rating_delay: self
                    .test_rating_delay_ms
                    .map_or(defaults.rating_delay, Duration::from_millis),
                arena_daily_cap: self.arena_daily_cap.unwrap_or(defaults.arena_daily_cap),
                arena_hands: self.arena_hands.unwrap_or(defaults.arena_hands).max(1),
                arena_wait: self
                    .test_arena_wait_ms
                    .map_or(defaults.arena_wait, Duration::from_millis),
                arena_start_limit: self
                    .test_arena_start_limit_ms
                    .map_or(defaults.arena_start_limit, Duration::from_millis),
                quick_play_second: self
                    .test_quick_play_second_ms
                    .map_or(defaults.quick_play_second, |ms| {
                        Duration::from_millis(ms.max(1))
                    }),
                ..defaults
            },
        })
    }

    fn cluster(&self) -> Result<Option<ClusterConfig>, ConfigFileError> {
        let urls: Vec<String> = self
            .nats
            .iter()
            .map(|u| u.trim().to_owned())
            .filter(|u| !u.is_empty())
            .collect();
        if urls.is_empty() {
            return match self.node {
                Some(_) => Err(ConfigFileError::Node),
                None => Ok(None),
            };
        }
        let node = match &self.node {
            Some(node) => node.clone(),
            None => std::fs::read_to_string("/etc/hostname")
                .map(|h| h.trim().to_owned())
                .unwrap_or_default(),
        };
        // The node's name is a NATS subject token: letters, digits, '-' and '_' only.
        let valid = !node.is_empty()
            && node
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !valid {
            return Err(ConfigFileError::Node);
        }
        let mut cluster = ClusterConfig::new(urls, node);
        if let Some(replicas) = self.nats_replicas {
            cluster.replicas = replicas.clamp(1, 5);
        }
        if let Some(secs) = self.lease_secs {
            cluster.lease = Duration::from_secs(secs.max(1));
        }
        Ok(Some(cluster))
    }
}

/// One worker more than there are cores. Beside the workers, the store's writer thread needs a
/// core for every commit, and a worker it preempts keeps its queued tasks until it runs again; a
/// spare worker takes them meanwhile. On the 2-core machine, p99 of action to last event at half
/// load with 3 workers against 2, alternating: lower in 11 of 13 pairs (docs/PERFORMANCE.md).
fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(2, usize::from) + 1
}

fn read_file(path: &Path) -> Result<FileConfig, ConfigFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigFileError::Read {
        path: path.to_owned(),
        source,
    })?;
    let invalid = |detail: String| ConfigFileError::Invalid {
        path: path.to_owned(),
        detail,
    };
    if path.extension().is_some_and(|e| e == "json") {
        serde_json::from_str(&text).map_err(|e| invalid(e.to_string()))
    } else {
        toml::from_str(&text).map_err(|e| invalid(e.to_string()))
    }
}

/// `burraco-server admin <command>`.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum AdminCommand {
    /// Make an account an administrator, creating it (with a one-time password, printed) if
    /// the name is free.
    CreateAdmin {
        name: String,
        /// Read the new account's password from the first line of stdin instead.
        #[arg(long)]
        password_stdin: bool,
    },
    /// Disable an account: it cannot sign in, and its sessions end.
    Disable { name: String },
    /// Enable a disabled account again.
    Enable { name: String },
    /// Set a new password (a one-time password, printed, or the first line of stdin); every
    /// session of the account ends.
    ResetPassword {
        name: String,
        #[arg(long)]
        password_stdin: bool,
    },
    /// Make an account a moderator (docs/ACCOUNTS.md, "Reports and moderation").
    GrantModerator { name: String },
    /// Take the moderator role back (an administrator stays a moderator).
    RevokeModerator { name: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// clap checks a command line's definition only when it is parsed in a debug build, and
    /// then by panicking: an attribute that lands on the wrong field (as a merge once left
    /// `trust_forwarded_for` positional) fails here instead of at the server's start.
    #[test]
    fn the_command_line_is_well_formed_and_its_account_flags_parse() {
        use clap::{CommandFactory, Parser};
        Cli::command().debug_assert();
        let cli = Cli::try_parse_from([
            "burraco-server",
            "--trust-forwarded-for",
            "--secure-cookies",
            "--public-origin",
            "https://burraco.example",
            "--database-url",
            "postgres://burraco@db/burraco",
            "--database-pool",
            "3",
        ])
        .expect("the accounts' flags parse");
        assert!(cli.trust_forwarded_for && cli.secure_cookies);
        assert_eq!(
            cli.public_origin.as_deref(),
            Some("https://burraco.example")
        );
        assert_eq!(
            cli.database_url.as_deref(),
            Some("postgres://burraco@db/burraco")
        );
        assert_eq!(cli.load().expect("loads").server.database_pool, 3);
        assert_eq!(
            Cli::default()
                .load()
                .expect("defaults")
                .server
                .database_pool,
            DEFAULT_POOL_SIZE
        );
    }

    #[test]
    fn workers_come_from_the_flag_the_file_or_one_more_than_the_cores() {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        assert_eq!(Cli::default().load().expect("defaults").workers, cores + 1);
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("burraco.toml");
        std::fs::write(&file, "workers = 5\n").expect("write");
        let from_file = Cli {
            config: Some(file),
            ..Cli::default()
        };
        assert_eq!(from_file.load().expect("file").workers, 5);
        let flag_wins = Cli {
            workers: Some(0),
            ..from_file
        };
        assert_eq!(flag_wins.load().expect("flag").workers, 1, "at least one");
    }

    #[test]
    fn the_public_origin_comes_from_the_flag_or_the_file_and_must_be_a_url() {
        assert_eq!(
            Cli::default()
                .load()
                .expect("defaults")
                .server
                .public_origin,
            None
        );
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("burraco.toml");
        std::fs::write(&file, "public_origin = \"https://burraco.example\"\n").expect("write");
        let from_file = Cli {
            config: Some(file),
            ..Cli::default()
        };
        let loaded = from_file.load().expect("file");
        assert_eq!(
            loaded.server.public_origin.as_deref(),
            Some("https://burraco.example")
        );
        let bad = Cli {
            public_origin: Some("not an origin".into()),
            ..from_file
        };
        assert!(matches!(
            bad.load(),
            Err(ConfigFileError::PublicOrigin { .. })
        ));
    }
}
