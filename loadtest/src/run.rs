//! A load-test run: tables started over the ramp-up, paced, an optional reconnect storm, a live
//! progress line, and the summary.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use burraco_bot::Level;
use tokio::time::Instant;

use crate::metrics::{Metrics, Percentiles, ProcUsage};
use crate::table::{TableOptions, run_table};
use crate::target::{Target, sources, sources_for};

/// Everything a run needs.
#[derive(Debug, Clone)]
pub struct RunOptions {
    pub target: Target,
    pub tables: usize,
    pub duration: Duration,
    pub ramp_up: Duration,
    /// Time between a table's actions; zero = flat out.
    pub think: Duration,
    pub open_model: bool,
    /// Every connection drops and resumes at this point of the run.
    pub storm_after: Option<Duration>,
    pub preset: String,
    pub hands: u8,
    pub clocks: String,
    pub strategy: Level,
    /// Source addresses (0: one per 10,000 connections).
    pub sources: usize,
    /// Print a live line every second.
    pub progress: bool,
    /// The server's pid, to report its CPU and memory beside ours.
    pub server_pid: Option<u32>,
}

/// What a run measured.
#[derive(Debug, Clone)]
pub struct Summary {
    pub json: serde_json::Value,
    pub latency: Percentiles,
    pub fanout: Percentiles,
    pub errors: u64,
    pub actions: u64,
    pub actions_per_s: f64,
    pub server_cpu_seconds: Option<f64>,
}

/// Runs the load and returns the summary.
pub async fn run(options: RunOptions) -> Summary {
    let metrics = Arc::new(Metrics::default());
    let source_count = if options.sources == 0 {
        sources_for(options.tables * 4)
    } else {
        options.sources
    };
    let sources: Arc<Vec<IpAddr>> = Arc::new(sources(source_count));
    let started = Instant::now();
    let deadline = started + options.duration;
    let own_before = ProcUsage::own().unwrap_or_default();
    let server_before = options.server_pid.and_then(ProcUsage::of_pid);

    let progress = options.progress.then(|| {
        let metrics = metrics.clone();
        let tables = options.tables;
        tokio::spawn(async move {
            let mut last_actions = 0;
            let mut last_cpu = ProcUsage::own().unwrap_or_default().cpu_seconds;
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                let actions = Metrics::get(&metrics.actions);
                let own = ProcUsage::own().unwrap_or_default();
                let p = Percentiles::of(&metrics.reply);
                eprint!(
                    "\r[{:>4}s] tables {}/{} conns {} actions {} ({}/s) hands {} reply p99 {:.1} ms errors {} | loadgen cpu {:.0}% rss {} MB   ",
                    started.elapsed().as_secs(),
                    Metrics::get(&metrics.tables_active),
                    tables,
                    Metrics::get(&metrics.connections),
                    actions,
                    actions - last_actions,
                    Metrics::get(&metrics.hands),
                    p.p99,
                    metrics.errors(),
                    100.0 * (own.cpu_seconds - last_cpu),
                    own.rss_bytes / 1_000_000,
                );
                last_actions = actions;
                last_cpu = own.cpu_seconds;
            }
        })
    });

    let mut tasks = Vec::with_capacity(options.tables);
    for index in 0..options.tables {
        let start_at = started
            + options
                .ramp_up
                .mul_f64(index as f64 / options.tables.max(1) as f64);
        let table = TableOptions {
            target: options.target.clone(),
            sources: sources.clone(),
            index,
            think: options.think,
            open_model: options.open_model,
            deadline,
            storm_at: options.storm_after.map(|d| started + d),
            preset: options.preset.clone(),
            hands: options.hands,
            clocks: options.clocks.clone(),
            strategy: options.strategy,
        };
        let metrics = metrics.clone();
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep_until(start_at).await;
            run_table(table, metrics).await;
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    if let Some(p) = progress {
        p.abort();
        eprintln!();
    }
    let elapsed = started.elapsed().as_secs_f64();
    let own = ProcUsage::own().unwrap_or_default();
    let server_after = options.server_pid.and_then(ProcUsage::of_pid);
    let server_cpu = server_before
        .zip(server_after)
        .map(|(b, a)| a.cpu_seconds - b.cpu_seconds);
    let latency = Percentiles::of(&metrics.reply);
    let fanout = Percentiles::of(&metrics.fanout);
    let actions = Metrics::get(&metrics.actions);
    let actions_per_s = actions as f64 / elapsed.max(1e-9);
    let m = &metrics;
    let json = serde_json::json!({
        "url": options.target.url,
        "tables": options.tables,
        "duration_s": elapsed,
        "ramp_up_s": options.ramp_up.as_secs_f64(),
        "model": if options.open_model { "open" } else { "closed" },
        "think_ms": options.think.as_millis() as u64,
        "sources": source_count,
        "connections": Metrics::get(&m.connections),
        "connect_failures": Metrics::get(&m.connect_failures),
        "disconnects": Metrics::get(&m.disconnects),
        "reconnects": Metrics::get(&m.reconnects),
        "actions": actions,
        "actions_per_s": actions_per_s,
        "replies": Metrics::get(&m.replies),
        "hands": Metrics::get(&m.hands),
        "matches": Metrics::get(&m.matches),
        "messages_in": Metrics::get(&m.messages_in),
        "messages_out": Metrics::get(&m.messages_out),
        "msgs_per_s": (Metrics::get(&m.messages_in) + Metrics::get(&m.messages_out)) as f64 / elapsed.max(1e-9),
        "latency_ms": latency.to_json(),
        "last_seat_event_ms": fanout.to_json(),
        "protocol_errors": Metrics::get(&m.protocol_errors),
        "errors": m.errors(),
        "loadgen": {
            "cpu_seconds": own.cpu_seconds - own_before.cpu_seconds,
            "cpu_percent": 100.0 * (own.cpu_seconds - own_before.cpu_seconds) / elapsed.max(1e-9),
            "rss_mb": own.rss_bytes as f64 / 1e6,
        },
        "server": server_after.map(|s| serde_json::json!({
            "cpu_seconds": server_cpu,
            "rss_mb": s.rss_bytes as f64 / 1e6,
            "actions_per_cpu_second": server_cpu.map(|c| actions as f64 / c.max(1e-9)),
        })),
    });
    Summary {
        json,
        latency,
        fanout,
        errors: m.errors(),
        actions,
        actions_per_s,
        server_cpu_seconds: server_cpu,
    }
}
