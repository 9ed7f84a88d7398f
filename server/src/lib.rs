//! The authoritative Burraco server: the WebSocket protocol of `burraco-protocol` and a small HTTP
//! API on one port, a lobby, one actor per table running the rules, clocks, reconnection and
//! durable per-table logs in SQLite.
//!
//! - [`run`] is the entry point (the binary and the tests call it on a bound listener).
//! - [`conn`]: a connection's reader and writer tasks: rate limit, decode, dispatch.
//! - [`hello`]: a connection's first frame: the version rule, the name, a new or resumed session.
//! - [`directory`]: tables, invite codes, sessions and seats, behind one owner.
//! - [`lobby`]: the lobby's requests: list, create, find by id or invite code.
//! - [`quick_play`]: quick play's table for each asker, and waiting tables brought together.
//! - [`table`]: the table actor and its handle.
//! - [`tournament`]: the tournament actor (its own log), its rounds' tables, its record.
//! - [`bots`]: server bots playing seats in-process (empty seats, absent players).
//! - [`assets`]: the browser client, embedded at compile time and served at `/`.
//! - [`outbound`]: frames encoded once and the bounded per-connection queues.
//! - [`store`]: the SQLite writer thread and the queries.
//! - [`players`]: the players' match index and the player's page's API.
//! - [`config`]: settings from flags, environment and a file.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use burraco_protocol::codec::MAX_CLIENT_FRAME;
use log::TableLog as _;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

pub mod accounts;
pub mod admin;
pub mod api_edge;
pub mod arena;
pub mod assets;
pub mod backplane;
pub mod bots;
pub mod cluster;
pub mod config;
pub mod conn;
pub mod directory;
pub mod fairplay;
pub mod hands_http;

pub mod ids;
pub mod lobby;
pub mod log;
pub mod match_end;
pub mod moderation;
pub mod outbound;
pub mod players;
pub mod port;
pub mod projections;
pub mod quick_play;
pub mod rate;
pub mod ratings;
pub mod seasons;
pub mod session;
pub mod store;
pub mod table;
pub mod tournament;

pub use config::ServerConfig;
pub use directory::{Directory, Session};

/// What every task shares: settings, the store and the directories (never game state).
#[derive(Debug)]
pub struct Shared {
    /// The settings (shared with the projections, which hold them without the server).
    pub config: Arc<ServerConfig>,
    /// The SQLite store (one node: the logs, sessions and records behind the backplane's ports).
    pub store: store::Store,
    /// The state nodes share, as ports: in process on one node, on NATS in a cluster.
    pub backplane: backplane::Backplane,
    /// Tables, invite codes, sessions and seats (shared with the HTTP APIs that look tables up).
    pub directory: Arc<Directory>,
    /// Tournaments, and the 1.1 connections they may tell things.
    pub tournaments: tournament::Tournaments,
    pub shutdown: CancellationToken,
    pub tracker: TaskTracker,
    /// Match ends announced by their tables to the match-end projections (`match_end`).
    pub match_ends: match_end::MatchEnds,
    next_conn: AtomicU64,
    /// Quick play's locks (one per kind) and the seats it claimed (`quick_play`).
    pub quick_play: quick_play::QuickPlay,
    /// Bot decisions running at once (one per core): many bot tables never crowd out the rest.
    pub bot_permits: Arc<tokio::sync::Semaphore>,
    /// Stops the tables only (a drain stops them before the connections: see [`run`]).
    pub stop_tables: CancellationToken,
    /// The live connections of each personal token and browser session here (an end closes them).
    pub sign_ins: Arc<accounts::live::LiveSignIns>,
    /// Rated play's store (`ratings`): the accounts' store's kind.
    pub ratings: Arc<dyn ratings::Ratings>,
    /// Seasons' points ladders (`seasons`): the ratings' store's kind.
    pub seasons: Arc<dyn seasons::Seasons>,
    /// Reports, moderators' actions, each account's connections here (`moderation`).
    pub moderation: Arc<moderation::Moderation>,
    metrics: PrometheusHandle,
    /// The bots ready for arena play here (`arena`) and the arena's store.
    pub arena: arena::Arena,
    pub arena_store: Arc<dyn arena::store::ArenaStore>,
}

impl Shared {
    pub fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// What a new server bot uses of the server (`bots::spawn`).
    pub fn bot_context(&self) -> bots::Context {
        bots::Context {
            conn: self.next_conn_id(),
            delay: self.config.bot_delay,
            search: self.config.bot_search,
            tracker: self.tracker.clone(),
            shutdown: self.shutdown.clone(),
            permits: self.bot_permits.clone(),
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error(transparent)]
    Log(#[from] log::LogError),
    #[error(transparent)]
    Cluster(#[from] cluster::ClusterError),
    #[error("serving: {0}")]
    Io(#[from] std::io::Error),
    #[error("accounts: {0}")]
    Accounts(#[from] backplane::PortError),
}

/// Serves on `listener` until `shutdown` completes, then stops accepting, tells every client
/// `goodbye`, closes, and returns once the store has committed everything.
///
/// On start it rebuilds every table in play from the store by replaying its log.
pub async fn run(
    listener: TcpListener,
    mut config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), RunError> {
    let (store, writer) = store::Store::open_with(
        &config.data_dir,
        config.store_wait_blocking,
        config.wal_autocheckpoint,
    )?;
    // The one place the modes differ. One node rebuilds its tables from its own store; in a
    // cluster, tables in play are taken over from the shared log by whichever node leases them
    // first (see cluster::keeper).
    let (mut backplane, logs, work): (_, _, Arc<dyn NodeWork>) = match &config.cluster {
        Some(settings) => {
            let cluster = cluster::Cluster::connect(settings.clone()).await?;
            (cluster.backplane(), Vec::new(), cluster.work())
        }
        None => (
            backplane::Backplane::local(&store, "local"),
            store.load_in_play().await?,
            Arc::new(SingleNode),
        ),
    };
    // One pool to the database for every store beside the log; the accounts open first, since
    // their migrations make every store's tables.
    let database = match &config.database_url {
        Some(url) => Some(store::postgres::Database::connect(url, config.database_pool).await?),
        None => None,
    };
    let database = database.as_ref();
    backplane.accounts = accounts::open(&config, &store, database).await?;
    backplane.players = players::open(&config, &store, database).await?;
    backplane.fairplay = fairplay::open(&config, &store, database).await?;
    let ratings = ratings::open(&config, &store, database).await?;
    let seasons = seasons::open(&config, &store, database).await?;
    let arena_store = arena::store::open(&config, &store, database).await?;
    let moderation = Arc::new(moderation::Moderation::new(
        moderation::open(&config, &config.data_dir, database).await?,
    ));
    if config.public_origin.is_none() {
        config.public_origin = Some(format!(
            "http://localhost:{}",
            listener.local_addr()?.port()
        ));
    }
    let shutdown_token = CancellationToken::new();
    let tournaments = tournament::Tournaments::new(&backplane);
    let shared = Arc::new(Shared {
        config: Arc::new(config),
        backplane,
        store,
        directory: Arc::new(Directory::new()),
        tournaments,
        stop_tables: shutdown_token.child_token(),
        shutdown: shutdown_token,
        tracker: TaskTracker::new(),
        match_ends: match_end::MatchEnds::default(),
        next_conn: AtomicU64::new(0),
        quick_play: quick_play::QuickPlay::default(),
        bot_permits: Arc::new(tokio::sync::Semaphore::new(
            std::thread::available_parallelism().map_or(2, usize::from),
        )),
        sign_ins: Arc::default(),
        ratings,
        seasons,
        moderation,
        metrics: metrics_handle(),
        arena: arena::Arena::default(),
        arena_store,
    });
    register_metrics();
    work.start(&shared);
    start_recheck(&shared);
    projections::start_sweep(
        &projections::Context {
            backplane: shared.backplane.clone(),
            ratings: shared.ratings.clone(),
            reports: shared.moderation.store.clone(),
            arena: shared.arena_store.clone(),
            config: shared.config.clone(),
            tracker: shared.tracker.clone(),
            shutdown: shared.shutdown.clone(),
        },
        shared.match_ends.take_receiver(),
    );
    arena::start(&shared);
    quick_play::matcher::start(&shared);
    // Tournaments' logs share the tables' store under their own ids; they are rebuilt after
    // the tables, whose ends they read.
    let (tournaments, logs): (Vec<_>, Vec<_>) = logs
        .into_iter()
        .partition(|(id, _)| burraco_protocol::tournament_log::is_tournament(id));
    let restored = logs.len();
    for (id, entries) in logs {
        if let Err(e) = table::restore(&shared, id.clone(), entries) {
            tracing::error!(table = %id, "cannot rebuild the table from its log: {e}");
        }
    }
    for (id, entries) in tournaments {
        if let Err(e) = tournament::restore::restore(&shared, id.clone(), entries) {
            tracing::error!(tournament = %id, "cannot rebuild the tournament from its log: {e}");
        }
    }
    if restored > 0 {
        tracing::info!("rebuilt {restored} tables from the store");
    }

    // The Prometheus recorder keeps every histogram sample until upkeep folds it into the
    // buckets; without a scrape that is 8 bytes per action for ever. Fold them regularly.
    {
        let shared = shared.clone();
        shared.tracker.clone().spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(5));
            loop {
                tokio::select! {
                    _ = shared.shutdown.cancelled() => break,
                    _ = tick.tick() => shared.metrics.run_upkeep(),
                }
            }
        });
    }
    let app = router(shared.clone());
    let addr = listener.local_addr()?;
    tracing::info!(%addr, "serving");
    let draining = shared.clone();
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    // The peer's address: the accounts' API counts wrong passwords per address.
    let app = app.into_make_service_with_connect_info::<std::net::SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            work.drain(&draining).await;
            draining.shutdown.cancel();
        })
        .await?;

    // Stop accepting happened above; connections say goodbye and tables stop on the token.
    shared.shutdown.cancel();
    shared.tracker.close();
    if tokio::time::timeout(Duration::from_secs(5), shared.tracker.wait())
        .await
        .is_err()
    {
        tracing::warn!("some tasks did not stop within 5 s");
    }
    shared.directory.forget_all_tables();
    drop(shared);
    let _ = tokio::time::timeout(
        Duration::from_secs(5),
        tokio::task::spawn_blocking(move || writer.join()),
    )
    .await;
    tracing::info!("stopped");
    Ok(())
}

/// A node's background work and its drain: over the whole server, so not a port of the
/// backplane (whose ports the server's parts use, and which never names the server). Chosen with
/// the backplane in [`run`].
pub trait NodeWork: Send + Sync + std::fmt::Debug {
    /// Starts the node's background work (renewing leases, taking over what nobody serves,
    /// watching the shared state, serving other nodes' requests).
    fn start(&self, shared: &Arc<Shared>);
    /// The drain (SIGTERM): in a cluster, readiness turns false and no table is created here;
    /// the tables (and tournaments) stop after their last append and release their leases, so
    /// the other nodes take them over; only then do the connections close (their clients resume
    /// elsewhere and find the tables served). Returns at once where there is nobody to hand them
    /// to: one node alone just stops.
    fn drain<'a>(&'a self, shared: &'a Arc<Shared>) -> backplane::PortFuture<'a, ()>;
}

/// The single node: no background work of its own, nobody to hand its tables to.
#[derive(Debug)]
struct SingleNode;

impl NodeWork for SingleNode {
    fn start(&self, _shared: &Arc<Shared>) {}

    fn drain<'a>(&'a self, _shared: &'a Arc<Shared>) -> backplane::PortFuture<'a, ()> {
        Box::pin(async {})
    }
}

/// Readiness: false while draining or (cluster mode) cut off from NATS.
async fn ready(State(shared): State<Arc<Shared>>) -> Response {
    let node = &shared.backplane.node;
    let ready = !shared.shutdown.is_cancelled() && node.ready();
    if ready {
        "ready".into_response()
    } else {
        let why = if node.is_draining() {
            "draining"
        } else {
            "not ready"
        };
        (StatusCode::SERVICE_UNAVAILABLE, why).into_response()
    }
}

fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/ws", get(ws))
        .route("/healthz", get(|| async { "ok" }))
        .route("/healthz/ready", get(ready))
        .route("/metrics", get(metrics_text))
        .route("/api/tables/{id}/hands", get(hands_http::of_table))
        .route("/api/players/{name}/hands", get(hands_http::of_player))
        .route("/api/tournaments", get(tournament::http::list))
        .route("/api/tournaments/{id}", get(tournament::http::record))
        .fallback(assets::serve)
        .with_state(shared.clone())
        .merge(players::http::routes(players::http::Api {
            accounts: shared.backplane.accounts.clone(),
            players: shared.backplane.players.clone(),
            seasons: shared.seasons.clone(),
            directory: shared.directory.clone(),
            sessions: shared.backplane.sessions.clone(),
        }))
        .merge(ratings::http::routes(ratings::http::Api {
            ratings: shared.ratings.clone(),
            accounts: shared.backplane.accounts.clone(),
        }))
        .merge(ratings::expected::routes(ratings::expected::Api {
            directory: shared.directory.clone(),
            backplane: shared.backplane.clone(),
            ratings: shared.ratings.clone(),
        }))
        .merge(ratings::tournament_levels::routes(
            ratings::tournament_levels::Api {
                log: shared.backplane.log.clone(),
                ratings: shared.ratings.clone(),
            },
        ))
        .merge(seasons::http::routes(shared.seasons.clone()))
        .merge(accounts::routes::routes(
            shared.backplane.accounts.clone(),
            shared.sign_ins.clone(),
            &shared.config,
        ))
        .merge(fairplay::http::routes(fairplay::http::Api {
            accounts: shared.backplane.accounts.clone(),
            fairplay: shared.backplane.fairplay.clone(),
            trust_forwarded_for: shared.config.trust_forwarded_for,
        }))
        .merge(arena::http::routes(arena::http::Api {
            arena_store: shared.arena_store.clone(),
            ratings: shared.ratings.clone(),
        }))
        .merge(moderation::http::routes(moderation::http::Api {
            moderation: shared.moderation.clone(),
            directory: shared.directory.clone(),
            backplane: shared.backplane.clone(),
        }))
        // Every state-changing `/api` route, whoever serves it: no page of another site acts
        // with a player's cookie.
        .layer(axum::middleware::from_fn_with_state(
            accounts::origin::Origins::new(&shared.config),
            accounts::origin::guard,
        ))
}

/// Every [`accounts::live::RECHECK`], this node asks the stores about its signed-in connections
/// and closes those whose right to be there ended through another node or another process
/// (`burraco-server admin`), or by the clock: first the accounts barred (disabled, timed out:
/// 4004, a token's 4003), then the tokens and browser sessions that ended (4003, 4005), in one
/// pass so that a disabled account's connection is always told it was barred (the first reason
/// given to a connection is the one it hears).
fn start_recheck(shared: &Arc<Shared>) {
    let (moderation, sign_ins) = (shared.moderation.clone(), shared.sign_ins.clone());
    let accounts = shared.backplane.accounts.clone();
    let shutdown = shared.shutdown.clone();
    shared.tracker.spawn(async move {
        let mut tick = tokio::time::interval(accounts::live::RECHECK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = shutdown.cancelled() => break,
                _ = tick.tick() => {
                    moderation.connections.recheck(&*moderation.store).await;
                    sign_ins.recheck(&*accounts).await;
                }
            }
        }
    });
}

fn header_has(headers: &HeaderMap, name: header::HeaderName, token: &str) -> bool {
    headers.get_all(name).iter().any(|v| {
        v.to_str()
            .is_ok_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    })
}

/// The WebSocket upgrade (RFC 6455 section 4.2), done here rather than by axum's extractor so
/// the connection gets a plain `tokio-tungstenite` stream: its writer can then send large frames
/// as fragments (see [`outbound::FRAGMENT`]), which axum's message type cannot express.
async fn ws(State(shared): State<Arc<Shared>>, mut request: Request) -> Response {
    if shared.shutdown.is_cancelled() {
        return (StatusCode::SERVICE_UNAVAILABLE, "shutting down").into_response();
    }
    let headers = request.headers();
    if request.method() != Method::GET {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            "a WebSocket upgrade is a GET",
        )
            .into_response();
    }
    let key = headers.get(header::SEC_WEBSOCKET_KEY).cloned();
    let upgrade_ok = header_has(headers, header::CONNECTION, "upgrade")
        && header_has(headers, header::UPGRADE, "websocket");
    let version_ok = headers
        .get(header::SEC_WEBSOCKET_VERSION)
        .is_some_and(|v| v == "13");
    let upgradable = request
        .extensions()
        .get::<hyper::upgrade::OnUpgrade>()
        .is_some();
    let (Some(key), true, true, true) = (key, upgrade_ok, version_ok, upgradable) else {
        return (
            StatusCode::UPGRADE_REQUIRED,
            [(header::SEC_WEBSOCKET_VERSION, "13")],
            "this endpoint speaks WebSocket (version 13) only",
        )
            .into_response();
    };
    // Who connects: a bearer token, a session cookie from an allowed origin, or a guest.
    let address = accounts::http::address(&request, shared.config.trust_forwarded_for);
    let identity = match accounts::identity::at_upgrade(
        &*shared.backplane.accounts,
        &shared.config.allowed_origins,
        request.headers(),
        address,
    )
    .await
    {
        Ok(identity) => identity,
        Err(refused) => return accounts::http::upgrade_refused(refused),
    };
    let on_upgrade = hyper::upgrade::on(&mut request);
    let config = WebSocketConfig::default()
        .read_buffer_size(shared.config.ws_read_buffer)
        .write_buffer_size(shared.config.ws_write_buffer)
        .max_write_buffer_size(conn::MAX_WRITE_BUFFER)
        .max_message_size(Some(conn::MAX_READ_FRAME))
        .max_frame_size(Some(conn::MAX_READ_FRAME));
    let tracker = shared.tracker.clone();
    tracker.spawn(serve_upgraded(
        on_upgrade,
        config,
        shared,
        conn::hello::Upgrade { identity, address },
    ));
    let accept = derive_accept_key(key.as_bytes());
    Response::builder()
        .status(StatusCode::SWITCHING_PROTOCOLS)
        .header(header::CONNECTION, "upgrade")
        .header(header::UPGRADE, "websocket")
        .header(header::SEC_WEBSOCKET_ACCEPT, accept)
        .body(axum::body::Body::empty())
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

/// An upgraded connection's task, for its whole life.
///
/// Not an `async` block over its inputs: a future keeps what it captured (the upgrade's handle,
/// the WebSocket settings, the identity) for as long as it lives, and keeps room for its largest
/// state (the socket being set up, ~1 KB) though that state is over in a moment. So the set-up is
/// boxed and hands everything on, and the task holds only the connection's own future.
fn serve_upgraded(
    on_upgrade: hyper::upgrade::OnUpgrade,
    config: WebSocketConfig,
    shared: Arc<Shared>,
    upgrade: conn::hello::Upgrade,
) -> impl Future<Output = ()> + Send {
    let set_up = Box::pin(async move {
        let upgraded = on_upgrade.await.ok()?;
        let socket = WebSocketStream::from_raw_socket(
            hyper_util::rt::TokioIo::new(upgraded),
            Role::Server,
            Some(config),
        )
        .await;
        Some((socket, shared, upgrade))
    });
    async move {
        // `let .. else`, not `if let`: a scrutinee's temporary would stay in the task's state.
        let Some((socket, shared, upgrade)) = set_up.await else {
            return;
        };
        conn::serve(socket, shared, upgrade).await;
    }
}

async fn metrics_text(State(shared): State<Arc<Shared>>) -> Response {
    shared.metrics.run_upkeep();
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        shared.metrics.render(),
    )
        .into_response()
}

/// The process-wide Prometheus recorder (installed once; later servers in the same process, as in
/// tests, share it).
fn metrics_handle() -> PrometheusHandle {
    static HANDLE: std::sync::OnceLock<PrometheusHandle> = std::sync::OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let buckets = [
                0.00005, 0.0001, 0.00025, 0.0005, 0.00075, 0.001, 0.0015, 0.002, 0.003, 0.005,
                0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
            ];
            // A tournament's round turns over hundreds of tables: seconds, not milliseconds.
            let tournament_buckets = [
                0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
            ];
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &buckets)
                .and_then(|b| {
                    b.set_buckets_for_metric(
                        Matcher::Prefix("burraco_tournament_".into()),
                        &tournament_buckets,
                    )
                })
                .map(PrometheusBuilder::build_recorder);
            match recorder {
                Ok(recorder) => {
                    let handle = recorder.handle();
                    if metrics::set_global_recorder(recorder).is_err() {
                        tracing::warn!(
                            "a metrics recorder was already installed; /metrics will be empty"
                        );
                    }
                    handle
                }
                Err(_) => PrometheusBuilder::new().build_recorder().handle(),
            }
        })
        .clone()
}

/// Lists every gauge and counter at its current value (0 in a fresh process) before anything
/// happens, so a scrape of a server that has done nothing shows the series, not an empty page
/// (and rate() has a starting point). Adding zero changes nothing for a server that shares the
/// process-wide recorder with another (as in tests).
fn register_metrics() {
    for gauge in [
        "burraco_connections",
        "burraco_tables",
        "burraco_bots",
        tournament::telemetry::IN_PLAY,
    ] {
        metrics::gauge!(gauge).increment(0.0);
    }
    for counter in [
        "burraco_actions_total",
        "burraco_slow_clients_dropped_total",
        "burraco_bot_refusals_total",
    ] {
        metrics::counter!(counter).increment(0);
    }
    for code in burraco_protocol::ErrorCode::ALL {
        metrics::counter!("burraco_errors_total", "code" => code.as_str()).increment(0);
    }
}

/// The largest frame read from a socket: bigger ones close the connection; frames between
/// [`MAX_CLIENT_FRAME`] and this get the typed error `frame_too_large`.
const _: () = assert!(conn::MAX_READ_FRAME >= MAX_CLIENT_FRAME);
