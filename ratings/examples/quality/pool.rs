//! The simulated pool: bot accounts of known levels playing rated matches, forecast and rated
//! by every system compared.

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

use crate::Args;

/// The rating systems compared: each account holds one rating of each.
/// The levels the study rates: L0 to L3. L4 spends up to a second a move, too slow for the
/// thousands of matches a run plays.
pub const LEVELS: [BotLevel; 4] = [
    BotLevel::Random,
    BotLevel::Greedy,
    BotLevel::Expert,
    BotLevel::Search,
];

pub const SYSTEMS: [&str; 4] = ["Glicko-2", "Glicko-2, step's E", "Elo K=32", "Elo K=16"];

/// One bot account: its true strength and its rating in every system.
#[derive(Debug, Clone, Copy)]
pub struct Account {
    pub level: BotLevel,
    pub glicko: Rating,
    elo32: Elo,
    elo16: Elo,
    /// Matches rated so far, and how many it took to leave the provisional deviation.
    pub played: usize,
    pub established_after: Option<usize>,
}

/// One match's forecasts (side 0's VP share, per system) and what happened.
#[derive(Debug, Clone, Copy)]
pub struct Forecast {
    pub predicted: [f64; 4],
    pub actual: f64,
    /// The bot levels of each side's players (head to head, one each).
    pub sides: [[Option<BotLevel>; 2]; 2],
}

/// One pool's run: head to head or four at a table.
#[derive(Debug)]
pub struct PoolReport {
    pub name: &'static str,
    pub seats: usize,
    pub accounts: usize,
    pub train_matches: usize,
    pub online: Vec<Forecast>,
    pub held_out: Vec<Forecast>,
    /// Per system, the training matches played when the level means became ordered for good
    /// (`None`: not ordered at the end).
    pub ordered_after: [Option<usize>; 4],
    /// Per system, the share of pairs of accounts of different levels ordered right at the end.
    pub concordance: [f64; 4],
    /// Per round: matches played so far, and each level's mean rating per system.
    pub trajectory: Vec<(usize, [[f64; 4]; 4])>,
    /// Per round (as `trajectory`), every account's rating per system, and the accounts' levels.
    pub snapshots: Vec<Vec<[f64; 4]>>,
    pub levels: Vec<BotLevel>,
    pub final_means: [[f64; 4]; 4],
    /// Per account, the matches it took to leave the provisional deviation (`None`: never).
    pub established_after: Vec<Option<usize>>,
    pub seconds: f64,
}

/// A game's side-0 score and its four seats' bot levels.
pub fn play_match(
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
pub fn forecast(accounts: &[Account], table: &[usize]) -> [f64; 4] {
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
pub fn rate(accounts: &mut [Account], table: &[usize], score: f64, cfg: &Config) {
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

pub fn system_rating(a: &Account, system: usize) -> f64 {
    match system {
        0 | 1 => a.glicko.rating,
        2 => a.elo32.rating,
        _ => a.elo16.rating,
    }
}

/// Each level's mean rating per system: `[system][level]`.
pub fn level_means(accounts: &[Account]) -> [[f64; 4]; 4] {
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

pub fn run_pool(name: &'static str, seats: usize, args: &Args) -> PoolReport {
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
    let mut accounts: Vec<Account> = LEVELS
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
pub fn play_round(
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
