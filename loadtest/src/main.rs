//! `burraco-loadtest`: many concurrent tables of bot clients against a server on this machine.

use std::time::Duration;

use anyhow::{Context, bail};
use burraco_bot::Level;
use burraco_loadtest::metrics::{Metrics, Percentiles, ProcUsage};
use burraco_loadtest::run::{RunOptions, run};
use burraco_loadtest::target::{Target, sources, sources_for};
use burraco_loadtest::tournament::{TournamentRunOptions, run_tournament};
use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "burraco-loadtest",
    about = "Load a Burraco server on this machine with tables of bots"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The server's WebSocket URL (loopback only).
    #[arg(long, default_value = "ws://127.0.0.1:8080/ws")]
    url: String,
    /// Concurrent tables (four connections each).
    #[arg(long, default_value_t = 10)]
    tables: usize,
    /// Length of the run in seconds.
    #[arg(long, default_value_t = 30)]
    duration: u64,
    /// Seconds over which the tables start.
    #[arg(long, default_value_t = 0)]
    ramp_up: u64,
    /// Milliseconds between a table's actions (2000 = human pacing); 0 = flat out.
    #[arg(long, default_value_t = 2000)]
    think_ms: u64,
    /// closed (next action after the previous one's reply) or open (constant rate, latency from the
    /// intended send time).
    #[arg(long, default_value = "closed")]
    model: String,
    /// Drop and resume every connection this many seconds into the run.
    #[arg(long)]
    storm_at: Option<u64>,
    #[arg(long, default_value = "fitab")]
    preset: String,
    /// Hands per match at each table.
    #[arg(long, default_value_t = 8)]
    hands: u8,
    /// Table clocks: federation, relaxed or off.
    #[arg(long, default_value = "relaxed")]
    clocks: String,
    /// The bots' strategy (random is the cheapest for the generator).
    #[arg(long, default_value = "random")]
    strategy: String,
    /// Source addresses 127.0.0.1..N (0: one per 10,000 connections).
    #[arg(long, default_value_t = 0)]
    sources: usize,
    /// The server's pid: report its CPU and memory, and actions per server CPU-second.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Also drive a bare fan-out server (`burraco-loadtest fanout-server`) at this URL, flat out,
    /// for the same tables and duration, and report the ratio.
    #[arg(long)]
    baseline_url: Option<String>,
    /// The fan-out server's pid.
    #[arg(long)]
    baseline_pid: Option<u32>,
    /// Write the summary as JSON here.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
    /// Exit with an error when the reply p99 exceeds this (ms).
    #[arg(long)]
    max_p99_ms: Option<f64>,
    /// Exit with an error when errors exceed this.
    #[arg(long)]
    max_errors: Option<u64>,
    /// Exit with an error when fewer actions per second were made.
    #[arg(long)]
    min_actions_per_s: Option<f64>,
    /// No live progress line.
    #[arg(long)]
    quiet: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the bare tokio-tungstenite fan-out baseline.
    FanoutServer {
        #[arg(long, default_value = "127.0.0.1:9100")]
        listen: String,
    },
    /// One tournament of bot pairs (two connections each) played to its end: per round, the
    /// time from its start to every table dealt and from its last match to the standings;
    /// errors; the server's memory (`--server-pid`). Uses `--url`, `--strategy`, `--preset`,
    /// `--hands`, `--json`, `--max-errors`.
    Tournament {
        /// Entrants (pairs).
        #[arg(long, default_value_t = 1000)]
        pairs: u32,
        /// One movement per round, comma-separated (mitchell, danish, modified_danish,
        /// round_robin).
        #[arg(long, default_value = "mitchell,danish")]
        rounds: String,
        /// Duplicate boards at every table of a round.
        #[arg(long)]
        duplicate: bool,
        /// Give up after this many seconds.
        #[arg(long, default_value_t = 900)]
        deadline: u64,
    },
    /// Bursts of simultaneous quick plays: `--askers` connections ask for a table of one kind
    /// (`--preset`, `--players`) at the same moment, `--bursts` times, everyone leaving between
    /// bursts: quick plays seated per second (each burst's, and their median), each ask's time
    /// to its reply, tables per burst. Uses `--url`, `--preset`, `--json`.
    QuickPlay {
        #[arg(long, default_value_t = 400)]
        askers: usize,
        /// 4 or 2.
        #[arg(long, default_value_t = 4)]
        players: u8,
        #[arg(long, default_value_t = 20)]
        bursts: usize,
    },
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async_main(cli))
}

async fn async_main(cli: Cli) -> anyhow::Result<()> {
    if let Some(Command::FanoutServer { listen }) = &cli.command {
        let listener = tokio::net::TcpListener::bind(listen).await?;
        if !listener.local_addr()?.ip().is_loopback() {
            bail!("the fan-out server listens on loopback only");
        }
        println!("fan-out baseline on ws://{}/ws", listener.local_addr()?);
        burraco_loadtest::baseline::serve(listener).await?;
        return Ok(());
    }
    let target = Target::parse(&cli.url)?;
    let strategy = Level::from_code(&cli.strategy).context("unknown strategy")?;
    if let Some(Command::Tournament {
        pairs,
        rounds,
        duplicate,
        deadline,
    }) = &cli.command
    {
        if *pairs < 2 || *pairs > 5_000 {
            bail!("--pairs 2..=5000");
        }
        let summary = run_tournament(&TournamentRunOptions {
            target,
            pairs: *pairs,
            rounds: rounds.split(',').map(|r| r.trim().to_owned()).collect(),
            hands: cli.hands,
            preset: cli.preset.clone(),
            duplicate: *duplicate,
            level: strategy,
            deadline: Duration::from_secs(*deadline),
            server_pid: cli.server_pid,
        })
        .await?;
        let text = serde_json::to_string_pretty(&summary.to_json())?;
        println!("{text}");
        if let Some(path) = &cli.json {
            std::fs::write(path, &text).with_context(|| format!("writing {}", path.display()))?;
        }
        if let Some(max) = cli.max_errors
            && summary.errors > max
        {
            bail!("{} errors > {max}", summary.errors);
        }
        return Ok(());
    }
    if let Some(Command::QuickPlay {
        askers,
        players,
        bursts,
    }) = &cli.command
    {
        if !matches!(players, 2 | 4) || *askers == 0 || *askers > 20_000 {
            bail!("--players 2 or 4, --askers 1..=20000");
        }
        let summary = burraco_loadtest::quick_play::run_quick_play(
            &burraco_loadtest::quick_play::QuickPlayOptions {
                target,
                askers: *askers,
                players: *players,
                bursts: *bursts,
                preset: cli.preset.clone(),
            },
        )
        .await?;
        let text = serde_json::to_string_pretty(&summary.to_json())?;
        println!("{text}");
        if let Some(path) = &cli.json {
            std::fs::write(path, &text).with_context(|| format!("writing {}", path.display()))?;
        }
        return Ok(());
    }
    let open_model = match cli.model.as_str() {
        "closed" => false,
        "open" => true,
        other => bail!("--model is closed or open, not {other:?}"),
    };
    if cli.tables == 0 || cli.tables > 100_000 || cli.duration == 0 || cli.duration > 24 * 3600 {
        bail!("--tables 1..=100000 and --duration 1..=86400");
    }
    let summary = run(RunOptions {
        target,
        tables: cli.tables,
        duration: Duration::from_secs(cli.duration),
        ramp_up: Duration::from_secs(cli.ramp_up),
        think: Duration::from_millis(cli.think_ms),
        open_model,
        storm_after: cli.storm_at.map(Duration::from_secs),
        preset: cli.preset.clone(),
        hands: cli.hands,
        clocks: cli.clocks.clone(),
        strategy,
        sources: cli.sources,
        progress: !cli.quiet,
        server_pid: cli.server_pid,
    })
    .await;
    let mut json = summary.json.clone();
    if let Some(url) = &cli.baseline_url {
        let target = Target::parse(url)?;
        let metrics = std::sync::Arc::new(Metrics::default());
        let before = cli.baseline_pid.and_then(ProcUsage::of_pid);
        let started = std::time::Instant::now();
        let srcs = sources(if cli.sources == 0 {
            sources_for(cli.tables * 4)
        } else {
            cli.sources
        });
        let actions = burraco_loadtest::baseline::drive(
            &target,
            &srcs,
            cli.tables,
            Duration::from_secs(cli.duration),
            metrics.clone(),
        )
        .await;
        let elapsed = started.elapsed().as_secs_f64();
        let after = cli.baseline_pid.and_then(ProcUsage::of_pid);
        let cpu = before
            .zip(after)
            .map(|(b, a)| a.cpu_seconds - b.cpu_seconds);
        let per_cpu = cpu.map(|c| actions as f64 / c.max(1e-9));
        let server_per_cpu = summary
            .server_cpu_seconds
            .map(|c| summary.actions as f64 / c.max(1e-9));
        json["baseline"] = serde_json::json!({
            "url": url,
            "actions": actions,
            "actions_per_s": actions as f64 / elapsed,
            "cpu_seconds": cpu,
            "actions_per_cpu_second": per_cpu,
            "latency_ms": Percentiles::of(&metrics.reply).to_json(),
            "errors": metrics.errors(),
            "server_to_baseline_ratio": server_per_cpu.zip(per_cpu).map(|(s, b)| s / b),
            "server_to_baseline_wall_ratio": summary.actions_per_s / (actions as f64 / elapsed).max(1e-9),
        });
    }
    let text = serde_json::to_string_pretty(&json)?;
    println!("{text}");
    if let Some(path) = &cli.json {
        std::fs::write(path, &text).with_context(|| format!("writing {}", path.display()))?;
    }
    let mut failed = Vec::new();
    if let Some(max) = cli.max_p99_ms
        && summary.latency.p99 > max
    {
        failed.push(format!(
            "reply p99 {:.1} ms > {max} ms",
            summary.latency.p99
        ));
    }
    if let Some(max) = cli.max_errors
        && summary.errors > max
    {
        failed.push(format!("{} errors > {max}", summary.errors));
    }
    if let Some(min) = cli.min_actions_per_s
        && summary.actions_per_s < min
    {
        failed.push(format!("{:.1} actions/s < {min}", summary.actions_per_s));
    }
    if !failed.is_empty() {
        bail!("thresholds missed: {}", failed.join("; "));
    }
    Ok(())
}
