//! A tournament of bot entrants through a server on this machine: the director creates it, the
//! entrants register over the protocol (two connections a pair), the director starts it, and
//! every player plays each round's table (the bot crate's tournament players, reporting what they
//! see through [`Observed`]). Measured per round, from the players' side:
//!
//! - **start to every table dealt**: from the round's start (the director's `start_round` for
//!   the first, the first `go_to_table` for the others) to the last table's first deal;
//! - **last match to standings**: from the last table's `match_ended` to the first
//!   `tournament_update` after it (the tournament reading the tables' logs, scoring, telling);
//!
//! and over the run: errors (refusals, dropped connections, tables never dealt or never
//! finished), and the server's resident memory when a pid is given.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use burraco_bot::Level;
use burraco_bot::tournament::{self as bots, Observed, TournamentOptions};
use burraco_protocol::wire::{ClientMessage, WireTournamentSettings};
use serde_json::json;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::metrics::ProcUsage;
use crate::target::Target;

/// What to run.
#[derive(Debug, Clone)]
pub struct TournamentRunOptions {
    pub target: Target,
    /// Entrants (pairs: two players each).
    pub pairs: u32,
    /// One movement per round, as `create_tournament` takes them.
    pub rounds: Vec<String>,
    pub hands: u8,
    pub preset: String,
    pub duplicate: bool,
    pub level: Level,
    /// Give up when it is not over by then.
    pub deadline: Duration,
    pub server_pid: Option<u32>,
}

/// One round's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundFigures {
    pub round: u32,
    pub tables: usize,
    /// From the round's start to every table's first deal.
    pub start_to_dealt: Duration,
    /// From the last table's end to the next standings update.
    pub last_end_to_standings: Option<Duration>,
}

/// How it went.
#[derive(Debug, Clone)]
pub struct TournamentRunSummary {
    pub tournament: String,
    pub rounds: Vec<RoundFigures>,
    pub errors: u64,
    /// What the errors were (the first few).
    pub troubles: Vec<String>,
    pub elapsed: Duration,
    /// Registering every entrant.
    pub registration: Duration,
    /// The server's resident memory at the end, and its peak while they played.
    pub server_rss_bytes: Option<u64>,
    pub server_peak_rss_bytes: Option<u64>,
    pub server_cpu_seconds: Option<f64>,
}

impl TournamentRunSummary {
    pub fn to_json(&self) -> serde_json::Value {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
        json!({
            "tournament": self.tournament,
            "elapsed_s": self.elapsed.as_secs_f64(),
            "registration_s": self.registration.as_secs_f64(),
            "errors": self.errors,
            "troubles": self.troubles,
            "server_rss_mib": self.server_rss_bytes.map(mib),
            "server_peak_rss_mib": self.server_peak_rss_bytes.map(mib),
            "server_cpu_seconds": self.server_cpu_seconds,
            "rounds": self.rounds.iter().map(|r| json!({
                "round": r.round,
                "tables": r.tables,
                "start_to_every_table_dealt_ms": ms(r.start_to_dealt),
                "last_match_to_standings_ms": r.last_end_to_standings.map(ms),
            })).collect::<Vec<_>>(),
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TournamentRunError {
    #[error(transparent)]
    Tournament(#[from] bots::TournamentError),
}

/// Runs one tournament to its end and measures it.
pub async fn run_tournament(
    options: &TournamentRunOptions,
) -> Result<TournamentRunSummary, TournamentRunError> {
    let url = options.target.url.clone();
    let settings = WireTournamentSettings {
        name: format!("load: {} pairs", options.pairs),
        kind: "pairs".into(),
        rounds: options.rounds.clone(),
        hands: options.hands,
        preset: options.preset.clone(),
        max_entrants: Some(options.pairs),
        seating: Some("registration".into()),
        start_when_full: Some(false),
        clocks: Some("off".into()),
        duplicate: Some(options.duplicate),
    };
    let started = Instant::now();
    let cpu_before = options.server_pid.and_then(ProcUsage::of_pid);
    let (tournament, token) = bots::create(&url, &settings).await?;
    let (tx, mut rx) = mpsc::unbounded_channel();
    let players_options = TournamentOptions {
        url: url.clone(),
        entrants: options.pairs,
        settings,
        level: options.level,
        seed: 7,
        deadline: options.deadline,
        observer: Some(tx),
        lineups: Vec::new(),
    };
    let players = bots::register_and_play(&players_options, &tournament).await?;
    drop(players_options);
    let registration = started.elapsed();
    let start = Instant::now();
    let (t, d) = (tournament.clone(), token);
    bots::request(&url, |id| ClientMessage::StartRound {
        id,
        tournament: t,
        director: d,
    })
    .await?;
    // The server's memory, sampled twice a second while they play: its peak.
    let peak = Arc::new(AtomicU64::new(0));
    let sampler = options.server_pid.map(|pid| {
        let peak = peak.clone();
        tokio::spawn(async move {
            loop {
                if let Some(u) = ProcUsage::of_pid(pid) {
                    peak.fetch_max(u.rss_bytes, Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        })
    });
    let finished = bots::finish(players).await;
    let mut seen = Vec::new();
    while let Ok(o) = rx.try_recv() {
        seen.push(o);
    }
    if let Some(sampler) = sampler {
        sampler.abort();
    }
    let server_rss_bytes = options
        .server_pid
        .and_then(ProcUsage::of_pid)
        .map(|u| u.rss_bytes);
    let server_peak_rss_bytes = options.server_pid.map(|_| {
        peak.load(Ordering::Relaxed)
            .max(server_rss_bytes.unwrap_or(0))
    });
    let cpu_after = options.server_pid.and_then(ProcUsage::of_pid);
    let mut troubles: Vec<String> = seen
        .iter()
        .filter_map(|o| match o {
            Observed::Trouble { what, .. } => Some(what.clone()),
            _ => None,
        })
        .collect();
    if let Err(e) = &finished {
        troubles.push(e.to_string());
    }
    let rounds = figures(&seen, start, &mut troubles);
    Ok(TournamentRunSummary {
        tournament,
        errors: troubles.len() as u64,
        troubles: troubles.into_iter().take(10).collect(),
        rounds,
        elapsed: started.elapsed(),
        registration,
        server_rss_bytes,
        server_peak_rss_bytes,
        server_cpu_seconds: cpu_before
            .zip(cpu_after)
            .map(|(b, a)| a.cpu_seconds - b.cpu_seconds),
    })
}

/// Each round's figures from what the players saw; a table of a round never dealt or never
/// finished is a trouble.
pub fn figures(
    seen: &[Observed],
    first_start: Instant,
    troubles: &mut Vec<String>,
) -> Vec<RoundFigures> {
    let mut tables_of: HashMap<u32, Vec<String>> = HashMap::new();
    let mut round_start: HashMap<u32, Instant> = HashMap::new();
    let mut dealt: HashMap<&str, Instant> = HashMap::new();
    let mut ended: HashMap<&str, Instant> = HashMap::new();
    let mut updates: Vec<Instant> = Vec::new();
    for o in seen {
        match o {
            Observed::GoToTable { round, table, at } => {
                let tables = tables_of.entry(*round).or_default();
                if !tables.contains(table) {
                    tables.push(table.clone());
                }
                let start = round_start.entry(*round).or_insert(*at);
                *start = (*start).min(*at);
            }
            Observed::Dealt { table, at } => {
                let first = dealt.entry(table).or_insert(*at);
                *first = (*first).min(*at);
            }
            Observed::MatchEnded { table, at } => {
                let first = ended.entry(table).or_insert(*at);
                *first = (*first).min(*at);
            }
            Observed::Update { at, .. } => updates.push(*at),
            Observed::Trouble { .. } => {}
        }
    }
    updates.sort();
    let mut numbers: Vec<u32> = tables_of.keys().copied().collect();
    numbers.sort_unstable();
    numbers
        .into_iter()
        .map(|round| {
            let tables = &tables_of[&round];
            let start = if round == 1 {
                first_start
            } else {
                round_start[&round]
            };
            let mut last_dealt = start;
            let mut last_end: Option<Instant> = Some(start);
            for table in tables {
                match dealt.get(table.as_str()) {
                    Some(at) => last_dealt = last_dealt.max(*at),
                    None => troubles.push(format!("round {round}: table {table} never dealt")),
                }
                match ended.get(table.as_str()) {
                    Some(at) => last_end = last_end.map(|l| l.max(*at)),
                    None => {
                        troubles.push(format!("round {round}: table {table} never finished"));
                        last_end = None;
                    }
                }
            }
            let last_end_to_standings = last_end.and_then(|end| {
                let update = updates.iter().find(|u| **u >= end)?;
                Some(update.duration_since(end))
            });
            RoundFigures {
                round,
                tables: tables.len(),
                start_to_dealt: last_dealt.duration_since(start),
                last_end_to_standings,
            }
        })
        .collect()
}
