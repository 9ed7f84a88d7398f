//! `burraco-server`: flags, logs, then [`burraco_server::run`] until ctrl-c or SIGTERM; or,
//! given `admin ...`, one operator's command on the accounts' store.

use clap::Parser;

fn main() -> anyhow::Result<()> {
    let cli = burraco_server::config::Cli::parse();
    let loaded = cli.load()?;
    if let Some(burraco_server::config::Command::Admin(command)) = &cli.command {
        return tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()?
            .block_on(admin(loaded, command));
    }
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(loaded.workers)
        .enable_all()
        .build()?
        .block_on(serve(loaded))
}

async fn serve(loaded: burraco_server::config::Loaded) -> anyhow::Result<()> {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Whatever RUST_LOG asks: the PostgreSQL client logs each statement's parameters at debug
    // level (names, password hashes, token hashes), which no log may hold.
    let no_parameters = tracing_subscriber::filter::filter_fn(|meta| {
        !(meta.target().starts_with("tokio_postgres") && *meta.level() > tracing::Level::INFO)
    });
    let registry = tracing_subscriber::registry()
        .with(filter)
        .with(no_parameters);
    if loaded.json_logs {
        registry
            .with(tracing_subscriber::fmt::layer().json())
            .init();
    } else {
        registry.with(tracing_subscriber::fmt::layer()).init();
    }
    let listener = tokio::net::TcpListener::bind(loaded.listen).await?;
    // Tests and scripts read the bound address (useful with port 0) from this line.
    println!("listening on {}", listener.local_addr()?);
    burraco_server::run(listener, loaded.server, shutdown_signal()).await?;
    Ok(())
}

async fn admin(
    loaded: burraco_server::config::Loaded,
    command: &burraco_server::config::AdminCommand,
) -> anyhow::Result<()> {
    let config = &loaded.server;
    burraco_server::admin::check_store(config)?;
    let database = match &config.database_url {
        Some(url) => Some(
            burraco_server::store::postgres::Database::connect(url, config.database_pool).await?,
        ),
        None => None,
    };
    let accounts = burraco_server::accounts::open_for_admin(config, database.as_ref()).await?;
    let moderation =
        burraco_server::moderation::open(config, &config.data_dir, database.as_ref()).await?;
    let said =
        burraco_server::admin::run(&*accounts, &*moderation, command, std::io::stdin().lock())
            .await?;
    println!("{said}");
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = terminate => {}
    }
    tracing::info!("shutdown requested");
}
