//! How good the rating is, measured offline (issue 21, docs/RATINGS.md): bot accounts of known
//! strength (the reference strategies L0 to L3) play rated matches in-process, head to head and
//! four at a table with partners drawn at random; Glicko-2 (this crate) and plain Elo rate the
//! same matches. Reported: how many matches until each system orders the levels, and the log loss
//! and Brier score of the predicted VP share on held-out matches; two SVG charts.
//!
//! ```sh
//! nice -n 10 cargo run --release -p burraco-ratings --example quality -- \
//!     --per-level 6 --rounds 60 --held-out 15 --seed 2026 --threads 2 --out docs/ratings
//! ```
//!
//! Each round every account plays one match (tables drawn at random, seats too); the first
//! `rounds` are the training rounds (each match predicted by the ratings before it, then rated),
//! the next `held-out` rounds are predicted by the ratings frozen at the end of training.

mod svg;

use std::path::PathBuf;
use std::time::Instant;

use burraco_bot::arena::{ArenaError, DecisionStats, board_seed, play_hand};
use burraco_bot::{Level as BotLevel, SearchBudget, Strategy};
use burraco_ratings::{
    Config, Elo, Outcome, Rating, expected_score, match_score, pair, predicted_score, update,
    update_four,
};
use burraco_rules::{Config as GameConfig, Match, Preset, Seat};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use svg::{Axes, Series};

/// The rating systems compared: each account holds one rating of each.
const SYSTEMS: [&str; 4] = ["Glicko-2", "Glicko-2, step's E", "Elo K=32", "Elo K=16"];

#[derive(Debug, Clone, Copy)]
struct Args {
    per_level: usize,
    rounds: usize,
    held_out: usize,
    seed: u64,
    threads: usize,
    worlds: u32,
}

fn parse_args() -> (Args, Option<PathBuf>) {
    let mut args = Args {
        per_level: 6,
        rounds: 60,
        held_out: 15,
        seed: 2026,
        threads: 2,
        worlds: 8,
    };
    let mut out = None;
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < argv.len() {
        let value = argv.get(i + 1).cloned().unwrap_or_default();
        let number = || {
            value
                .parse::<u64>()
                .unwrap_or_else(|_| panic!("{} needs a number", argv[i]))
        };
        match argv[i].as_str() {
            "--per-level" => args.per_level = number() as usize,
            "--rounds" => args.rounds = number() as usize,
            "--held-out" => args.held_out = number() as usize,
            "--seed" => args.seed = number(),
            "--threads" => args.threads = (number() as usize).max(1),
            "--worlds" => args.worlds = number() as u32,
            "--out" => out = Some(PathBuf::from(&value)),
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    (args, out)
}

/// One bot account: its true strength and its rating in every system.
#[derive(Debug, Clone, Copy)]
struct Account {
    level: BotLevel,
    glicko: Rating,
    elo32: Elo,
    elo16: Elo,
    /// Matches rated so far, and how many it took to leave the provisional deviation.
    played: usize,
    established_after: Option<usize>,
}

/// One match's forecasts (side 0's VP share, per system) and what happened.
#[derive(Debug, Clone, Copy)]
struct Forecast {
    predicted: [f64; 4],
    actual: f64,
    /// The bot levels of each side's players (head to head, one each).
    sides: [[Option<BotLevel>; 2]; 2],
}

/// One pool's run: head to head or four at a table.
#[derive(Debug)]
struct PoolReport {
    name: &'static str,
    seats: usize,
    accounts: usize,
    train_matches: usize,
    online: Vec<Forecast>,
    held_out: Vec<Forecast>,
    /// Per system, the training matches played when the level means became ordered for good
    /// (`None`: not ordered at the end).
    ordered_after: [Option<usize>; 4],
    /// Per system, the share of pairs of accounts of different levels ordered right at the end.
    concordance: [f64; 4],
    /// Per round: matches played so far, and each level's mean rating per system.
    trajectory: Vec<(usize, [[f64; 4]; 4])>,
    /// Per round (as `trajectory`), every account's rating per system, and the accounts' levels.
    snapshots: Vec<Vec<[f64; 4]>>,
    levels: Vec<BotLevel>,
    final_means: [[f64; 4]; 4],
    /// Per account, the matches it took to leave the provisional deviation (`None`: never).
    established_after: Vec<Option<usize>>,
    seconds: f64,
}

fn main() {
    let (args, out) = parse_args();
    let two = run_pool("head to head", 2, &args);
    print_pool(&two);
    let four = run_pool("four, partners at random", 4, &args);
    print_pool(&four);
    if let Some(dir) = out {
        std::fs::create_dir_all(&dir).expect("create the output directory");
        for (report, file) in [(&two, "two"), (&four, "four")] {
            let path = dir.join(format!("calibration-{file}.svg"));
            std::fs::write(&path, calibration_chart(report)).expect("write the chart");
            println!("wrote {}", path.display());
            let path = dir.join(format!("trajectory-{file}.svg"));
            std::fs::write(&path, trajectory_chart(report)).expect("write the chart");
            println!("wrote {}", path.display());
        }
    }
}

/// A game's side-0 score and its four seats' bot levels.
fn play_match(
    config: GameConfig,
    levels: [BotLevel; 4],
    seed: u64,
    match_no: u64,
    budget: SearchBudget,
) -> Result<f64, ArenaError> {
    let players = config.players();
    let first_dealer = players.seats()[(match_no % players.count() as u64) as usize];
    let mut m =
        Match::new(config, first_dealer, false).map_err(|e| ArenaError::Deal(e.to_string()))?;
    let mut hand = 0u32;
    while let Some(dealer) = m.dealer_of_next_hand() {
        let mut strategies: [Box<dyn Strategy>; 4] = std::array::from_fn(|i| {
            levels[i].strategy(
                seed ^ (match_no << 8) ^ (u64::from(hand) << 4) ^ i as u64,
                budget,
            )
        });
        let mut stats = [DecisionStats::default(); 4];
        let score = play_hand(
            config,
            dealer,
            board_seed(seed, match_no, hand),
            &mut strategies,
            &mut stats,
            seed ^ match_no ^ u64::from(hand),
        )?;
        m.record_hand(&score)
            .map_err(|e| ArenaError::Deal(e.to_string()))?;
        hand += 1;
        if hand > 50 {
            break;
        }
    }
    let result = m
        .result()
        .ok_or(ArenaError::Deal("the match did not end".into()))?;
    Ok(match_score(result.vp, result.totals, result.vp_table))
}

/// The forecasts of side 0's score at a table (accounts by side: head to head `[a, b]`, four
/// players by seat index) in each system.
fn forecast(accounts: &[Account], table: &[usize]) -> [f64; 4] {
    let (g0, g1, e32, e16) = if table.len() == 2 {
        let (a, b) = (&accounts[table[0]], &accounts[table[1]]);
        (a.glicko, b.glicko, (a.elo32, b.elo32), (a.elo16, b.elo16))
    } else {
        let p = |i: usize| &accounts[table[i]];
        (
            pair(p(0).glicko, p(2).glicko),
            pair(p(1).glicko, p(3).glicko),
            (
                Elo::pair(p(0).elo32, p(2).elo32),
                Elo::pair(p(1).elo32, p(3).elo32),
            ),
            (
                Elo::pair(p(0).elo16, p(2).elo16),
                Elo::pair(p(1).elo16, p(3).elo16),
            ),
        )
    };
    [
        predicted_score(g0, g1),
        expected_score(g0, g1),
        e32.0.expected(e32.1),
        e16.0.expected(e16.1),
    ]
}

/// Rates a table's match in every system.
fn rate(accounts: &mut [Account], table: &[usize], score: f64, cfg: &Config) {
    if table.len() == 2 {
        let (a, b) = (accounts[table[0]], accounts[table[1]]);
        let sides = [(table[0], a, b, score), (table[1], b, a, 1.0 - score)];
        for (id, me, them, s) in sides {
            let acc = &mut accounts[id];
            acc.glicko = update(me.glicko, &[Outcome::new(them.glicko, s)], cfg);
            acc.elo32 = me.elo32.updated(them.elo32, s, 32.0);
            acc.elo16 = me.elo16.updated(them.elo16, s, 16.0);
        }
    } else {
        let before: [Account; 4] = std::array::from_fn(|i| accounts[table[i]]);
        let glicko = update_four(before.map(|a| a.glicko), score, cfg);
        for seat in 0..4 {
            let (own, other) = (seat % 2, 1 - seat % 2);
            let s = if own == 0 { score } else { 1.0 - score };
            let elo_pair = |k: fn(&Account) -> Elo, side: usize| {
                Elo::pair(k(&before[side]), k(&before[side + 2]))
            };
            let acc = &mut accounts[table[seat]];
            acc.glicko = glicko[seat];
            // Elo's 4-player rule, the same as Glicko-2's: the pair's surprise, each player.
            let e32 = elo_pair(|a| a.elo32, own).expected(elo_pair(|a| a.elo32, other));
            let e16 = elo_pair(|a| a.elo16, own).expected(elo_pair(|a| a.elo16, other));
            acc.elo32.rating += 32.0 * (s - e32);
            acc.elo16.rating += 16.0 * (s - e16);
        }
    }
}

fn system_rating(a: &Account, system: usize) -> f64 {
    match system {
        0 | 1 => a.glicko.rating,
        2 => a.elo32.rating,
        _ => a.elo16.rating,
    }
}

/// Each level's mean rating per system: `[system][level]`.
fn level_means(accounts: &[Account]) -> [[f64; 4]; 4] {
    std::array::from_fn(|system| {
        std::array::from_fn(|level| {
            let of_level: Vec<f64> = accounts
                .iter()
                .filter(|a| a.level as usize == level)
                .map(|a| system_rating(a, system))
                .collect();
            of_level.iter().sum::<f64>() / of_level.len().max(1) as f64
        })
    })
}

fn run_pool(name: &'static str, seats: usize, args: &Args) -> PoolReport {
    let started = Instant::now();
    let cfg = Config::default();
    let game = if seats == 2 {
        GameConfig::head_to_head(Preset::Fitab)
    } else {
        GameConfig::of(Preset::Fitab)
    };
    let budget = SearchBudget {
        worlds: args.worlds,
        max_time: None,
        horizon: 12,
    };
    let mut accounts: Vec<Account> = BotLevel::ALL
        .into_iter()
        .flat_map(|level| {
            std::iter::repeat_n(
                Account {
                    level,
                    glicko: Rating::new(),
                    elo32: Elo::new(),
                    elo16: Elo::new(),
                    played: 0,
                    established_after: None,
                },
                args.per_level,
            )
        })
        .collect();
    let n = accounts.len();
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed ^ seats as u64);
    let mut online = Vec::new();
    let mut held_out = Vec::new();
    let mut trajectory = vec![(0, level_means(&accounts))];
    let snapshot = |accounts: &[Account]| -> Vec<[f64; 4]> {
        accounts
            .iter()
            .map(|a| std::array::from_fn(|system| system_rating(a, system)))
            .collect()
    };
    let mut snapshots = vec![snapshot(&accounts)];
    let mut ordered_since: [Option<usize>; 4] = [Some(0); 4];
    let mut train_matches = 0;
    let mut match_no = 0u64;
    for round in 0..args.rounds + args.held_out {
        let training = round < args.rounds;
        // The round's tables: the accounts shuffled (Fisher-Yates), then dealt out in order.
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let tables: Vec<(u64, Vec<usize>)> = order
            .chunks_exact(seats)
            .map(|t| {
                match_no += 1;
                (match_no, t.to_vec())
            })
            .collect();
        let scores = play_round(game, &accounts, &tables, args, budget);
        for ((_, table), score) in tables.iter().zip(scores) {
            let level = |i: usize| table.get(i).map(|&id| accounts[id].level);
            let sides = if seats == 2 {
                [[level(0), None], [level(1), None]]
            } else {
                [[level(0), level(2)], [level(1), level(3)]]
            };
            let f = Forecast {
                predicted: forecast(&accounts, table),
                actual: score,
                sides,
            };
            if training {
                online.push(f);
                rate(&mut accounts, table, score, &cfg);
                for &id in table {
                    let a = &mut accounts[id];
                    a.played += 1;
                    if a.established_after.is_none() && !a.glicko.is_provisional() {
                        a.established_after = Some(a.played);
                    }
                }
                train_matches += 1;
            } else {
                held_out.push(f);
            }
        }
        if training {
            let means = level_means(&accounts);
            for (system, since) in ordered_since.iter_mut().enumerate() {
                let ordered = means[system].windows(2).all(|w| w[0] < w[1]);
                match (ordered, *since) {
                    (false, _) => *since = None,
                    (true, None) => *since = Some(train_matches),
                    (true, Some(_)) => {}
                }
            }
            trajectory.push((train_matches, means));
            snapshots.push(snapshot(&accounts));
        }
    }
    let concordance = std::array::from_fn(|system| {
        let (mut right, mut pairs) = (0usize, 0usize);
        for a in &accounts {
            for b in &accounts {
                if a.level < b.level {
                    pairs += 1;
                    right += usize::from(system_rating(a, system) < system_rating(b, system));
                }
            }
        }
        right as f64 / pairs.max(1) as f64
    });
    PoolReport {
        name,
        seats,
        accounts: n,
        train_matches,
        online,
        held_out,
        ordered_after: ordered_since,
        concordance,
        final_means: level_means(&accounts),
        established_after: accounts.iter().map(|a| a.established_after).collect(),
        trajectory,
        snapshots,
        levels: accounts.iter().map(|a| a.level).collect(),
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// Plays a round's tables on `args.threads` threads; the scores in the tables' order.
fn play_round(
    game: GameConfig,
    accounts: &[Account],
    tables: &[(u64, Vec<usize>)],
    args: &Args,
    budget: SearchBudget,
) -> Vec<f64> {
    let levels_at = |table: &[usize]| -> [BotLevel; 4] {
        if table.len() == 2 {
            // Head to head: South (seat index 2) is side 0, North (0) side 1.
            let mut levels = [BotLevel::Random; 4];
            levels[Seat::South.index()] = accounts[table[0]].level;
            levels[Seat::North.index()] = accounts[table[1]].level;
            levels
        } else {
            std::array::from_fn(|seat| accounts[table[seat]].level)
        }
    };
    let threads = args.threads.min(tables.len()).max(1);
    let mut scores = vec![0.0; tables.len()];
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    tables
                        .iter()
                        .enumerate()
                        .skip(t)
                        .step_by(threads)
                        .map(|(i, (no, table))| {
                            let score = play_match(game, levels_at(table), args.seed, *no, budget)
                                .expect("an arena match plays to its end");
                            (i, score)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            for (i, score) in h.join().expect("a match thread panicked") {
                scores[i] = score;
            }
        }
    });
    scores
}

/// Cross-entropy of a forecast p for a score s in 0..=1 (the VP share is not 0 or 1 only, so
/// the least possible value is the score's own entropy, not 0); p is kept off 0 and 1.
fn log_loss(p: f64, s: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -(s * p.ln() + (1.0 - s) * (1.0 - p).ln())
}

/// Mean log loss and Brier score of one system over forecasts.
fn scores(forecasts: &[Forecast], system: usize) -> (f64, f64) {
    let n = forecasts.len().max(1) as f64;
    let ll = forecasts
        .iter()
        .map(|f| log_loss(f.predicted[system], f.actual))
        .sum::<f64>()
        / n;
    let brier = forecasts
        .iter()
        .map(|f| (f.predicted[system] - f.actual).powi(2))
        .sum::<f64>()
        / n;
    (ll, brier)
}

/// The least mean log loss and Brier any forecast could reach (predicting each score exactly),
/// and the uninformed forecast's (0.5 every match), to read the systems' figures between.
fn bounds(forecasts: &[Forecast]) -> [(f64, f64); 2] {
    let n = forecasts.len().max(1) as f64;
    let perfect = forecasts
        .iter()
        .map(|f| log_loss(f.actual, f.actual))
        .sum::<f64>()
        / n;
    let coin_ll = forecasts
        .iter()
        .map(|f| log_loss(0.5, f.actual))
        .sum::<f64>()
        / n;
    let coin_brier = forecasts
        .iter()
        .map(|f| (0.5 - f.actual).powi(2))
        .sum::<f64>()
        / n;
    [(perfect, 0.0), (coin_ll, coin_brier)]
}

fn print_pool(r: &PoolReport) {
    println!(
        "\n## {}: {} accounts, {} training matches ({} per account), {} held out ({:.0} s)\n",
        r.name,
        r.accounts,
        r.train_matches,
        r.train_matches * r.seats / r.accounts.max(1),
        r.held_out.len(),
        r.seconds
    );
    let pairs = distinguishable(r);
    let told_apart: Vec<String> = pairs.iter().map(|&(a, b)| format!("L{a} < L{b}")).collect();
    println!(
        "Levels the results tell apart (95% intervals of their VP share disjoint): {}.\n",
        told_apart.join(", ")
    );
    println!(
        "| system | those ordered after (matches) | every account so after | L0 < L1 < L2 < L3 after | pairs of accounts ordered at the end | L0 / L1 / L2 / L3 mean | held-out log loss | held-out Brier | online log loss | online Brier |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for (system, name) in SYSTEMS.iter().enumerate() {
        let (ll, brier) = scores(&r.held_out, system);
        let (oll, obrier) = scores(&r.online, system);
        let m = r.final_means[system];
        println!(
            "| {name} | {} | {} | {} | {:.1}% | {:.0} / {:.0} / {:.0} / {:.0} | {ll:.4} | {brier:.4} | {oll:.4} | {obrier:.4} |",
            ordered_after(r, system, &pairs).map_or("not ordered".to_string(), |m| m.to_string()),
            accounts_ordered_after(r, system, &pairs)
                .map_or("not ordered".to_string(), |m| m.to_string()),
            r.ordered_after[system].map_or("not ordered".to_string(), |m| m.to_string()),
            100.0 * r.concordance[system],
            m[0],
            m[1],
            m[2],
            m[3],
        );
    }
    let [(pll, _), (cll, cbrier)] = bounds(&r.held_out);
    println!(
        "| (always 0.5) | | | | | | {cll:.4} | {cbrier:.4} | | |\n| (the scores themselves) | | | | | | {pll:.4} | 0 | | |"
    );
    println!(
        "\n| levels told apart | {} |\n|---|---|---|---|---|",
        SYSTEMS.join(" | ")
    );
    for &(weak, strong) in &pairs {
        let cells: Vec<String> = (0..SYSTEMS.len())
            .map(|system| {
                accounts_ordered_after(r, system, &[(weak, strong)])
                    .map_or("not ordered".to_string(), |m| {
                        format!("{m} ({} each)", m * r.seats / r.accounts.max(1))
                    })
            })
            .collect();
        println!(
            "| every L{weak} account below every L{strong} account after | {} |",
            cells.join(" | ")
        );
    }
    let mut established: Vec<usize> = r.established_after.iter().flatten().copied().collect();
    established.sort_unstable();
    println!(
        "\nProvisional (deviation above 110) until: median {} matches, at most {}; {} of {} accounts still provisional.",
        established
            .get(established.len() / 2)
            .map_or("-".into(), |m| m.to_string()),
        established.last().map_or("-".into(), |m| m.to_string()),
        r.established_after.len() - established.len(),
        r.established_after.len()
    );
    print_strength(r);
}

/// The levels' true strength in the pool, from every match played (training and held out):
/// per level, the mean VP share of the sides it sat on, with a 95% interval (normal, over
/// matches); head to head also level against level. The order these show is the order a rating
/// should find.
fn print_strength(r: &PoolReport) {
    let all: Vec<&Forecast> = r.online.iter().chain(&r.held_out).collect();
    println!("\n| level | matches | mean VP share of its side | 95% interval |\n|---|---|---|---|");
    for (level, shares) in BotLevel::ALL.into_iter().zip(level_shares(r)) {
        let (mean, half) = mean_ci(&shares);
        println!(
            "| {} | {} | {mean:.3} | [{:.3}, {:.3}] |",
            level.short(),
            shares.len(),
            mean - half,
            mean + half
        );
    }
    print_head_to_head(&all);
}

/// Per level, the VP share of every side it sat on, over every match of the pool.
fn level_shares(r: &PoolReport) -> [Vec<f64>; 4] {
    let all: Vec<&Forecast> = r.online.iter().chain(&r.held_out).collect();
    BotLevel::ALL.map(|level| {
        all.iter()
            .flat_map(|f| {
                (0..2)
                    .filter(move |&side| f.sides[side].contains(&Some(level)))
                    .map(move |side| if side == 0 { f.actual } else { 1.0 - f.actual })
            })
            .collect()
    })
}

/// The pairs of levels (weaker, stronger) the pool's results tell apart: their 95% intervals
/// of mean VP share do not overlap.
fn distinguishable(r: &PoolReport) -> Vec<(usize, usize)> {
    let strength = level_shares(r).map(|shares| mean_ci(&shares));
    let mut pairs = Vec::new();
    for a in 0..4 {
        for b in 0..4 {
            if strength[a].0 + strength[a].1 < strength[b].0 - strength[b].1 {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

/// The training matches after which a system's level means respect `pairs` for good (`None`
/// if they do not at the end).
fn ordered_after(r: &PoolReport, system: usize, pairs: &[(usize, usize)]) -> Option<usize> {
    let respects = |means: &[[f64; 4]; 4]| {
        pairs
            .iter()
            .all(|&(a, b)| means[system][a] < means[system][b])
    };
    let last_wrong = r.trajectory.iter().rposition(|(_, means)| !respects(means));
    match last_wrong {
        None => Some(0),
        Some(i) => r.trajectory.get(i + 1).map(|(m, _)| *m),
    }
}

/// The training matches after which every account of the stronger level of each pair in
/// `pairs` is rated above every account of the weaker one, for good (`None`: not at the end).
fn accounts_ordered_after(
    r: &PoolReport,
    system: usize,
    pairs: &[(usize, usize)],
) -> Option<usize> {
    let respects = |ratings: &Vec<[f64; 4]>| {
        pairs.iter().all(|&(weak, strong)| {
            let of = |level: usize| {
                r.levels
                    .iter()
                    .zip(ratings)
                    .filter(move |(l, _)| **l as usize == level)
                    .map(move |(_, x)| x[system])
            };
            let best_weak = of(weak).fold(f64::NEG_INFINITY, f64::max);
            let worst_strong = of(strong).fold(f64::INFINITY, f64::min);
            best_weak < worst_strong
        })
    };
    let last_wrong = r.snapshots.iter().rposition(|x| !respects(x));
    match last_wrong {
        None => Some(0),
        Some(i) => r.trajectory.get(i + 1).map(|(m, _)| *m),
    }
}

fn print_head_to_head(all: &[&Forecast]) {
    if all.first().is_some_and(|f| f.sides[0][1].is_none()) {
        println!(
            "\n| head to head | matches | mean VP share of the first | 95% interval |\n|---|---|---|---|"
        );
        for (a, b) in [(1, 0), (2, 1), (3, 2), (3, 1), (2, 0), (3, 0)] {
            let (a, b) = (BotLevel::ALL[a], BotLevel::ALL[b]);
            let shares: Vec<f64> = all
                .iter()
                .filter_map(|f| match (f.sides[0][0], f.sides[1][0]) {
                    (Some(x), Some(y)) if x == a && y == b => Some(f.actual),
                    (Some(x), Some(y)) if x == b && y == a => Some(1.0 - f.actual),
                    _ => None,
                })
                .collect();
            let (mean, half) = mean_ci(&shares);
            println!(
                "| {} v {} | {} | {mean:.3} | [{:.3}, {:.3}] |",
                a.short(),
                b.short(),
                shares.len(),
                mean - half,
                mean + half
            );
        }
    }
}

/// The mean and the half width of its 95% normal interval.
fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.len() < 2 {
        return (xs.first().copied().unwrap_or(f64::NAN), f64::INFINITY);
    }
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

const BINS: usize = 10;

/// Per bin of predicted side-0 score: (mean prediction, mean observed score, count).
fn calibration(forecasts: &[Forecast], system: usize) -> Vec<(f64, f64, f64)> {
    let mut bins = vec![(0.0, 0.0, 0.0); BINS];
    for f in forecasts {
        // Both sides' views, so the chart is symmetric about its centre.
        for (p, s) in [
            (f.predicted[system], f.actual),
            (1.0 - f.predicted[system], 1.0 - f.actual),
        ] {
            let b = ((p * BINS as f64) as usize).min(BINS - 1);
            bins[b].0 += p;
            bins[b].1 += s;
            bins[b].2 += 1.0;
        }
    }
    bins.into_iter()
        .filter(|b| b.2 > 0.0)
        .map(|(p, s, n)| (p / n, s / n, n))
        .collect()
}

fn calibration_chart(r: &PoolReport) -> String {
    // Online and held-out forecasts together: every prediction made before its match.
    let all: Vec<Forecast> = r.online.iter().chain(&r.held_out).copied().collect();
    let series: Vec<Series> = [0usize, 2]
        .into_iter()
        .enumerate()
        .map(|(k, system)| {
            let bins = calibration(&all, system);
            Series {
                name: SYSTEMS[system].to_string(),
                points: bins.iter().map(|b| (b.0, b.1)).collect(),
                sizes: Some(bins.iter().map(|b| b.2).collect()),
                dashed: k == 1,
                colour: k,
            }
        })
        .collect();
    let axes = Axes {
        title: format!("Calibration, {} ({} matches)", r.name, all.len()),
        x_label: "predicted VP share",
        y_label: "observed VP share",
        x: (0.0, 1.0),
        y: (0.0, 1.0),
        ticks: (10, 10),
        diagonal: true,
    };
    svg::chart(&axes, &series)
}

fn trajectory_chart(r: &PoolReport) -> String {
    let mut series = Vec::new();
    for (system, dashed) in [(0usize, false), (2, true)] {
        for level in 0..4 {
            series.push(Series {
                name: format!("L{level} {}", if dashed { "Elo" } else { "Glicko-2" }),
                points: r
                    .trajectory
                    .iter()
                    .map(|(m, means)| (*m as f64, means[system][level]))
                    .collect(),
                sizes: None,
                dashed,
                colour: level,
            });
        }
    }
    let low = r
        .trajectory
        .iter()
        .flat_map(|(_, m)| m.iter().flatten().copied())
        .fold(f64::INFINITY, f64::min);
    let high = r
        .trajectory
        .iter()
        .flat_map(|(_, m)| m.iter().flatten().copied())
        .fold(f64::NEG_INFINITY, f64::max);
    let (low, high) = ((low / 100.0).floor() * 100.0, (high / 100.0).ceil() * 100.0);
    let axes = Axes {
        title: format!("Mean rating per bot level, {}", r.name),
        x_label: "training matches played in the pool",
        y_label: "rating",
        x: (0.0, r.train_matches.max(1) as f64),
        y: (low, high),
        ticks: (5, ((high - low) / 100.0).clamp(1.0, 12.0) as usize),
        diagonal: false,
    };
    svg::chart(&axes, &series)
}
