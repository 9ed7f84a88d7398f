//! The proof's harness: tables of cheating and honest bots played in process, their hand records
//! scored by the detectors after 5, 10, 20, ... hands. Shared by the proof tests (small) and the
//! `roc` example (the documented run).
//!
//! - this file: who sits at a table, a table played and scored;
//! - [`population`]: the calibration, held-out and cheater populations and their line-ups;
//! - [`results`]: a run's samples in a file, written a table at a time, so a run resumes;
//! - [`measure`]: thresholds from the calibration population, false alarms on the held-out one,
//!   detection rates per detector.

#![allow(dead_code)]

pub mod measure;
pub mod population;
pub mod results;

use burraco_bot::cheat::{Cheat, Cheater, Player, play_recorded_hand};
use burraco_bot::{DeepBudget, Level, SearchBudget, Strategy, Tempered};
use burraco_fairplay::{Analysis, Detector};
use burraco_protocol::record::HandRecord;
use burraco_rules::{Config, Preset, Seat};

/// An honest player's style.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Style {
    /// One of the ladder's levels, every hand.
    Level(Level),
    /// A level chosen afresh each hand among L1, L2 and L3: a player whose play changes between
    /// hands.
    Mixed,
    /// L2 with a discard temperature ([`Tempered`], [`TEMPERATURE`]).
    Tempered,
}

/// The levels a [`Style::Mixed`] player changes between.
pub const MIXED_LEVELS: [Level; 3] = [Level::Greedy, Level::Expert, Level::Search];
/// [`Style::Tempered`]'s temperature, in L2's discard-score points.
pub const TEMPERATURE: f64 = 20.0;

impl Style {
    pub const ALL: [Style; 7] = [
        Style::Level(Level::Random),
        Style::Level(Level::Greedy),
        Style::Level(Level::Expert),
        Style::Level(Level::Search),
        Style::Level(Level::Deep),
        Style::Mixed,
        Style::Tempered,
    ];

    pub fn label(self) -> String {
        match self {
            Style::Level(level) => level.short(),
            Style::Mixed => "mixed".to_owned(),
            Style::Tempered => "tempered".to_owned(),
        }
    }

    fn strategy(self, seed: u64, budgets: Budgets) -> Box<dyn Strategy> {
        match self {
            Style::Level(level) => level.strategy_with(seed, budgets.search, budgets.deep),
            Style::Mixed => {
                let level = MIXED_LEVELS[(mix(seed) % MIXED_LEVELS.len() as u64) as usize];
                level.strategy_with(seed, budgets.search, budgets.deep)
            }
            Style::Tempered => Box::new(Tempered::new(seed, TEMPERATURE)),
        }
    }
}

/// Who sits in a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Honest(Style),
    Cheat(Cheat),
}

impl Role {
    pub fn label(self) -> String {
        match self {
            Role::Honest(style) => style.label(),
            Role::Cheat(cheat) => cheat.code().to_owned(),
        }
    }

    pub fn from_label(label: &str) -> Option<Role> {
        Style::ALL
            .into_iter()
            .find(|s| s.label() == label)
            .map(Role::Honest)
            .or_else(|| Cheat::from_code(label).map(Role::Cheat))
    }

    pub fn is_cheater(self) -> bool {
        matches!(self, Role::Cheat(_))
    }

    fn player(self, seed: u64, budgets: Budgets) -> Player {
        match self {
            Role::Honest(style) => Player::Honest(style.strategy(seed, budgets)),
            Role::Cheat(cheat) => Player::Cheater(Cheater::new(cheat)),
        }
    }
}

/// L2, the engine every cheater is built on.
pub const L2: Role = Role::Honest(Style::Level(Level::Expert));

/// What L3 and L4 may spend a decision: iteration budgets, so a run is reproducible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budgets {
    pub search: SearchBudget,
    pub deep: DeepBudget,
}

impl Budgets {
    /// The documented run's: L3 as the server's bots play it without their time limit (8 worlds,
    /// 12 turns); L4's search (every candidate, successive halving) on 32 rollouts of L3's fast
    /// policy, 12 turns each, a decision. No time limit: it would make the run depend on the
    /// machine's load. (L2 rollouts to the end of the hand cost ten times as much: L4 would be most
    /// of the run.)
    pub const RUN: Budgets = Budgets {
        search: SearchBudget {
            worlds: 8,
            max_time: None,
            horizon: 12,
        },
        deep: DeepBudget {
            rollouts: 32,
            time: None,
            horizon: 12,
            expert_rollouts: false,
        },
    };

    /// The tests': the same algorithms on a few worlds and short rollouts.
    pub const SMALL: Budgets = Budgets {
        search: SearchBudget {
            worlds: 2,
            max_time: None,
            horizon: 4,
        },
        deep: DeepBudget {
            rollouts: 4,
            time: None,
            horizon: 4,
            expert_rollouts: false,
        },
    };
}

/// A table's four seats, N E S W.
pub type Lineup = [Role; 4];

/// One player's scores at a checkpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub role: Role,
    pub seat: Seat,
    pub hands: usize,
    pub suspicion: f64,
    /// Per detector, in [`Detector::ALL`] order.
    pub z: [f64; Detector::ALL.len()],
}

/// SplitMix64's finaliser: a well-mixed function of a seed.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays `hands` hands at table `table` (seeded by `seed`), the dealer going round, and returns
/// the records with the players named `t<table>-<seat>-<role>`.
pub fn play_table(
    lineup: &Lineup,
    table: u64,
    hands: usize,
    seed: u64,
    budgets: Budgets,
) -> Vec<HandRecord> {
    let config = Config::of(Preset::Fitab);
    let names: [String; 4] =
        std::array::from_fn(|i| format!("t{table}-{}-{}", Seat::ALL[i].code(), lineup[i].label()));
    (0..hands)
        .map(|h| {
            let hand_seed = seed ^ (table << 20) ^ h as u64;
            let mut players: [Player; 4] =
                std::array::from_fn(|i| lineup[i].player(hand_seed ^ (i as u64) << 56, budgets));
            let dealer = Seat::ALL[h % 4];
            play_recorded_hand(
                config,
                dealer,
                burraco_bot::arena::board_seed(seed, table, h as u32),
                &mut players,
                &names,
                hand_seed,
            )
            .expect("an in-process hand plays to its end")
        })
        .collect()
}

/// Scores a table's records after each checkpoint's number of hands.
pub fn score_table(lineup: &Lineup, records: &[HandRecord], checkpoints: &[usize]) -> Vec<Sample> {
    let mut analysis = Analysis::new();
    let mut out = Vec::new();
    for (h, record) in records.iter().enumerate() {
        analysis
            .add(&format!("hand {h}"), record)
            .expect("a played record replays");
        if checkpoints.contains(&(h + 1)) {
            for seat in Seat::ALL {
                let name = &record.seats[seat.index()].name;
                let report = analysis.player(name, 0).expect("a seated player");
                out.push(Sample {
                    role: lineup[seat.index()],
                    seat,
                    hands: h + 1,
                    suspicion: report.suspicion(),
                    z: Detector::ALL.map(|d| report.score(d).map_or(0.0, |s| s.z)),
                });
            }
        }
    }
    out
}

/// Plays and scores `tables` tables of each lineup, `threads` at a time.
pub fn run(
    lineups: &[Lineup],
    tables: u64,
    hands: usize,
    checkpoints: &[usize],
    seed: u64,
    budgets: Budgets,
    threads: usize,
) -> Vec<Sample> {
    let jobs: Vec<(usize, u64)> = (0..lineups.len())
        .flat_map(|l| (0..tables).map(move |t| (l, t)))
        .collect();
    parallel(&jobs, threads, |&(l, t)| {
        let table = (l as u64) * 10_000 + t;
        let records = play_table(&lineups[l], table, hands, seed, budgets);
        score_table(&lineups[l], &records, checkpoints)
    })
    .into_iter()
    .flatten()
    .collect()
}

/// `work` over `jobs`, `threads` at a time, the results in the jobs' order.
pub fn parallel<J: Sync, T: Send>(
    jobs: &[J],
    threads: usize,
    work: impl Fn(&J) -> T + Sync,
) -> Vec<T> {
    let threads = threads.max(1);
    let mut slots: Vec<Option<T>> = (0..jobs.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        let work = &work;
        let handles: Vec<_> = (0..threads)
            .map(|w| {
                scope.spawn(move || {
                    (w..jobs.len())
                        .step_by(threads)
                        .map(|i| (i, work(&jobs[i])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            for (i, t) in h.join().expect("a harness worker panicked") {
                slots[i] = Some(t);
            }
        }
    });
    slots.into_iter().flatten().collect()
}
