//! `burraco-bot`: play a strategy at a server, or compare strategies in the in-process arena.

use std::time::Duration;

use anyhow::{Context, bail};
use burraco_bot::arena::{ArenaConfig, ArenaReport, decision_times, duplicate, quantile};
use burraco_bot::client::{self, ClientOptions};
use burraco_bot::{DeepBudget, Level, SearchBudget, SeatRequest, Session};
use burraco_protocol::wire::{WireSettings, WireTournamentSettings};
use burraco_rules::{Config, Preset, TableSettings};
use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "burraco-bot",
    about = "Burraco bots: play at a server, or run the strength ladder in-process"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Duplicate matches between strategies, in-process.
    Arena(ArenaArgs),
    /// Create a tournament at a server, register bot entrants, play it to its end.
    Tournament(TournamentArgs),
    /// Time one level's decisions (those with a choice) over a few hands, on one thread.
    Timing(TimingArgs),
}

/// L4's budget, shared by the commands that build L4.
#[derive(Debug, Args)]
struct DeepArgs {
    /// L4: time limit per decision in milliseconds (it answers by 80% of it). The arena's
    /// default is none: the rollouts alone bound a decision, so runs repeat exactly.
    #[arg(long)]
    deep_ms: Option<u64>,
    /// L4: rollouts per decision at most (default: unbounded when a time limit is set).
    #[arg(long)]
    deep_rollouts: Option<u32>,
    /// L4: rollout horizon in turns (0 = to the end of the hand).
    #[arg(long, default_value_t = 0)]
    deep_horizon: u32,
    /// L4: roll out with L3's fast greedy policy instead of L2's.
    #[arg(long)]
    deep_fast_rollouts: bool,
}

impl DeepArgs {
    /// The budget; `default_ms` is the time limit when neither flag bounds a decision.
    fn budget(&self, default_ms: Option<u64>) -> DeepBudget {
        let ms = self.deep_ms.or(if self.deep_rollouts.is_none() {
            default_ms
        } else {
            None
        });
        DeepBudget {
            rollouts: self.deep_rollouts.unwrap_or(u32::MAX),
            time: ms.map(Duration::from_millis),
            horizon: self.deep_horizon,
            expert_rollouts: !self.deep_fast_rollouts,
        }
    }
}

#[derive(Debug, Args)]
struct TimingArgs {
    /// The level timed (North-South).
    #[arg(long, default_value = "L4")]
    level: String,
    /// Its opponents (East-West).
    #[arg(long, default_value = "L3")]
    against: String,
    /// Hands to play.
    #[arg(long, default_value_t = 2)]
    hands: u32,
    #[arg(long, default_value = "fitab")]
    preset: String,
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    #[command(flatten)]
    deep: DeepArgs,
}

#[derive(Debug, Args)]
struct TournamentArgs {
    /// Server WebSocket URL.
    #[arg(long, env = "BURRACO_URL", default_value = "ws://127.0.0.1:8080/ws")]
    url: String,
    /// Entrants to register (pairs: two bot players each; teams: four).
    #[arg(long, default_value_t = 8)]
    entrants: u32,
    /// pairs | individual | singles | teams.
    #[arg(long, default_value = "pairs")]
    kind: String,
    /// One movement per round: mitchell, danish, modified_danish, round_robin; or knockout /
    /// knockout_drawn (last: a bracket to the end, the byes to the top seeds / by draw).
    #[arg(long, default_value = "mitchell,danish")]
    rounds: String,
    /// Hands per match.
    #[arg(long, default_value_t = 2)]
    hands: u8,
    /// fitab | feburit | fedibur.
    #[arg(long, default_value = "fitab")]
    preset: String,
    /// Duplicate boards: every table of a round deals the same hands.
    #[arg(long)]
    duplicate: bool,
    /// random | greedy | expert | search | deep (or L0..L4).
    #[arg(long, default_value = "greedy")]
    strategy: String,
    /// A Sit&Go: the first round starts when the list is full (no director's start).
    #[arg(long)]
    sit_and_go: bool,
    /// A teams event: each team's line-ups, round after round, e.g. `0123,0213,0312` (the
    /// team's players by index, the first two its first pair); the list repeats.
    #[arg(long, value_delimiter = ',')]
    lineups: Vec<String>,
    /// First-round seating: registration or draw.
    #[arg(long, default_value = "registration")]
    seating: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write `{"tournament": id, "standings": [...]}` here.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 3600)]
    timeout: u64,
}

#[derive(Debug, Args)]
struct PlayArgs {
    /// Server WebSocket URL.
    #[arg(long, env = "BURRACO_URL", default_value = "ws://127.0.0.1:8080/ws")]
    url: String,
    /// Player name (ignored with --token: the account's name is used).
    #[arg(long, default_value = "bot")]
    name: String,
    /// A personal token (brc_..., docs/ACCOUNTS.md): play as its (bot) account. Prefer the
    /// environment variable: a flag shows in the process list.
    #[arg(long, env = "BURRACO_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// random | greedy | expert | search | deep (or L0..L4).
    #[arg(long, default_value = "expert")]
    strategy: String,
    /// Table preset for quick play and new tables: fitab | feburit | fedibur.
    #[arg(long, default_value = "fitab")]
    preset: String,
    /// 4 players in partnerships, or 2 head to head.
    #[arg(long, default_value_t = 4)]
    players: u8,
    /// Matches to play before exiting.
    #[arg(long, default_value_t = 1)]
    matches: u32,
    /// Join this table id instead of quick play.
    #[arg(long)]
    table: Option<String>,
    /// Join by this invite code instead of quick play.
    #[arg(long)]
    invite: Option<String>,
    /// Create a private table (prints its invite code) and wait for players.
    #[arg(long)]
    create: bool,
    /// Rated quick play (needs --token: an account's; docs/ACCOUNTS.md "Ratings and
    /// leaderboards").
    #[arg(long)]
    rated: bool,
    /// Hands per match for a table this bot creates.
    #[arg(long)]
    hands: Option<u8>,
    /// Seed of the strategy's randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Search: worlds per decision.
    #[arg(long, default_value_t = 16)]
    worlds: u32,
    /// Search: time limit per decision in milliseconds.
    #[arg(long)]
    think_ms: Option<u64>,
    #[command(flatten)]
    deep: DeepArgs,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 3600)]
    timeout: u64,
}

#[derive(Debug, Args)]
struct ArenaArgs {
    /// Match-ups as A:B (e.g. L1:L0). Default: the ladder L1:L0 L2:L1 L3:L2.
    #[arg(long = "pair", value_delimiter = ',')]
    pairs: Vec<String>,
    /// Boards per match-up (each played twice, partnerships swapped).
    #[arg(long, default_value_t = 100)]
    boards: u64,
    /// Hands per match.
    #[arg(long, default_value_t = 2)]
    hands: u8,
    #[arg(long, default_value = "fitab")]
    preset: String,
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    /// Search: worlds per decision.
    #[arg(long, default_value_t = 16)]
    worlds: u32,
    /// Search: rollout horizon in turns (0 = to the end of the hand).
    #[arg(long, default_value_t = 12)]
    horizon: u32,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[command(flatten)]
    deep: DeepArgs,
    /// Exit with an error unless every A beats its B with 95% confidence.
    #[arg(long)]
    check: bool,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Arena(args)) => arena(args),
        Some(Command::Tournament(args)) => tournament(args),
        Some(Command::Timing(args)) => timing(args),
        None => play(cli.play),
    }
}

fn level(code: &str) -> anyhow::Result<Level> {
    Level::from_code(code).with_context(|| {
        format!("unknown strategy {code:?}: random, greedy, expert, search, deep or L0-L4")
    })
}

fn arena(args: ArenaArgs) -> anyhow::Result<()> {
    let preset = Preset::from_code(&args.preset).context("unknown preset")?;
    let config = Config::new(&TableSettings {
        preset,
        match_length: Some(burraco_rules::MatchLength::Hands(args.hands)),
        ..TableSettings::default()
    })?;
    let pairs = if args.pairs.is_empty() {
        vec!["L1:L0".to_owned(), "L2:L1".to_owned(), "L3:L2".to_owned()]
    } else {
        args.pairs.clone()
    };
    let arena = ArenaConfig {
        config,
        boards: args.boards,
        seed: args.seed,
        budget: SearchBudget {
            worlds: args.worlds,
            max_time: None,
            horizon: args.horizon,
        },
        deep: args.deep.budget(None),
        threads: args.threads,
    };
    println!(
        "preset {}, {} hands per match, {} boards per match-up (each played twice), seed {}, search {} worlds, horizon {}; deep {}",
        preset.code(),
        args.hands,
        args.boards,
        args.seed,
        args.worlds,
        args.horizon,
        describe(&arena.deep),
    );
    println!("{}", ArenaReport::MARKDOWN_HEADER);
    let mut all_significant = true;
    for pair in &pairs {
        let (a, b) = pair
            .split_once(':')
            .with_context(|| format!("a match-up is A:B, not {pair:?}"))?;
        let report = duplicate(level(a)?, level(b)?, &arena)?;
        println!("{}", report.markdown_row());
        all_significant &= report.a_wins_significantly();
    }
    if args.check && !all_significant {
        bail!("not every A beat its B with 95% confidence");
    }
    Ok(())
}

/// L4's budget in words, for reports.
fn describe(deep: &DeepBudget) -> String {
    let rollouts = if deep.rollouts == u32::MAX {
        "unbounded rollouts".to_owned()
    } else {
        format!("{} rollouts", deep.rollouts)
    };
    let time = deep.time.map_or("no time limit".to_owned(), |t| {
        format!("{} ms", t.as_millis())
    });
    let horizon = if deep.horizon == 0 {
        "to the end of the hand".to_owned()
    } else {
        format!("horizon {}", deep.horizon)
    };
    let policy = if deep.expert_rollouts { "L2" } else { "greedy" };
    format!("{rollouts}, {time}, {policy} rollouts {horizon}")
}

fn timing(args: TimingArgs) -> anyhow::Result<()> {
    let preset = Preset::from_code(&args.preset).context("unknown preset")?;
    let config = Config::new(&TableSettings {
        preset,
        ..TableSettings::default()
    })?;
    let arena = ArenaConfig {
        config,
        boards: 0,
        seed: args.seed,
        budget: SearchBudget::default(),
        deep: args
            .deep
            .budget(Some(DeepBudget::DEFAULT_TIME.as_millis() as u64)),
        threads: 1,
    };
    let (level, against) = (level(&args.level)?, level(&args.against)?);
    let times = decision_times(level, against, &arena, args.hands)?;
    let ms = |q: f64| quantile(&times, q).as_secs_f64() * 1000.0;
    println!(
        "{} against {}, {} hands, deep {}: {} decisions with a choice, p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        level.short(),
        against.short(),
        args.hands,
        describe(&arena.deep),
        times.len(),
        ms(0.5),
        ms(0.9),
        ms(0.99),
        ms(1.0),
    );
    Ok(())
}

/// A line-up as `--lineups` writes it: the team's four player indices, e.g. `0213`.
fn lineup(text: &str) -> anyhow::Result<[u8; 4]> {
    let digits: Option<Vec<u8>> = text
        .trim()
        .chars()
        .map(|c| c.to_digit(4).map(|d| d as u8))
        .collect();
    digits
        .as_deref()
        .and_then(burraco_protocol::tournament_log::lineup)
        .with_context(|| {
            format!("a line-up names each of the team's players 0-3 once, not {text:?}")
        })
}

fn tournament(args: TournamentArgs) -> anyhow::Result<()> {
    let options = burraco_bot::tournament::TournamentOptions {
        observer: None,
        url: args.url.clone(),
        entrants: args.entrants,
        settings: WireTournamentSettings {
            name: format!("bots, {} entrants", args.entrants),
            kind: args.kind.clone(),
            rounds: args
                .rounds
                .split(',')
                .map(|r| r.trim().to_owned())
                .collect(),
            hands: args.hands,
            preset: args.preset.clone(),
            max_entrants: Some(args.entrants),
            seating: Some(args.seating.clone()),
            start_when_full: Some(args.sit_and_go),
            clocks: None,
            duplicate: Some(args.duplicate),
        },
        level: level(&args.strategy)?,
        seed: args.seed,
        deadline: Duration::from_secs(args.timeout),
        lineups: args
            .lineups
            .iter()
            .map(|l| lineup(l))
            .collect::<anyhow::Result<_>>()?,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let summary = runtime
        .block_on(burraco_bot::tournament::run(&options))
        .context("the tournament did not finish")?;
    let json = summary.to_json();
    match &args.json {
        Some(path) => std::fs::write(path, format!("{json}\n"))
            .with_context(|| format!("writing {}", path.display()))?,
        None => println!("{json}"),
    }
    for s in &summary.standings {
        println!(
            "{:>3}. entrant {:>3} {:<24} {:>4} VP {:>6} MP {:>5} burraco",
            s.rank,
            s.entrant,
            s.names.join(" & "),
            s.vp,
            s.mp,
            s.burraco
        );
    }
    Ok(())
}

fn play(args: PlayArgs) -> anyhow::Result<()> {
    let level = level(&args.strategy)?;
    let budget = SearchBudget {
        worlds: args.worlds,
        max_time: args.think_ms.map(Duration::from_millis),
        horizon: 12,
    };
    let request = if let Some(code) = args.invite {
        SeatRequest::Invite { code }
    } else if let Some(table) = args.table {
        SeatRequest::Table { table, seat: None }
    } else if args.create {
        SeatRequest::Create {
            settings: WireSettings {
                preset: args.preset.clone(),
                players: Some(args.players),
                hands: args.hands,
                ..WireSettings::default()
            },
            private: true,
        }
    } else if args.rated {
        SeatRequest::QuickPlayRated {
            preset: args.preset.clone(),
            players: args.players,
        }
    } else {
        SeatRequest::QuickPlay {
            preset: args.preset.clone(),
            players: args.players,
        }
    };
    let deep = args
        .deep
        .budget(Some(DeepBudget::DEFAULT_TIME.as_millis() as u64));
    let seed = args.seed;
    let mut n = 0u64;
    let factory = Box::new(move || {
        n += 1;
        level.strategy_with(seed ^ n, budget, deep)
    });
    let mut session = Session::new(args.name.clone(), request, args.matches, factory, seed);
    let mut options = ClientOptions::new(args.url.clone());
    options.deadline = Duration::from_secs(args.timeout);
    options.token = args.token.clone();
    let (tx, mut rx) = tokio::sync::watch::channel(None);
    options.invite = Some(tx);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let report = runtime
        .block_on(async {
            tokio::spawn(async move {
                if let Ok(code) = rx.wait_for(Option::is_some).await {
                    println!("invite code: {}", code.clone().unwrap_or_default());
                }
            });
            client::run(&mut session, &options).await
        })
        .context("the bot stopped")?;
    let s = report.session;
    println!(
        "{}: {} matches, {} hands, {} actions, {} errors ({} illegal, {} rate limited), {} resyncs, {} reconnects",
        args.name,
        s.matches,
        s.hands,
        s.actions,
        s.errors,
        s.illegal,
        s.rate_limited,
        s.resyncs,
        report.reconnects
    );
    Ok(())
}
