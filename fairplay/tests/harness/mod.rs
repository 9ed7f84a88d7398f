//! The proof's harness: tables of cheating and honest bots played in process, their hand records
//! scored by the detectors after 5, 10, 20, ... hands. Shared by the proof test (small) and the
//! `roc` example (the documented run).

#![allow(dead_code)]

use burraco_bot::cheat::{Cheat, Cheater, Player, play_recorded_hand};
use burraco_bot::{Level, SearchBudget};
use burraco_fairplay::{Analysis, Detector};
use burraco_protocol::record::HandRecord;
use burraco_rules::{Config, Preset, Seat};

/// Who sits in a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Honest(Level),
    Cheat(Cheat),
}

impl Role {
    pub fn label(self) -> String {
        match self {
            Role::Honest(level) => level.short(),
            Role::Cheat(cheat) => cheat.code().to_owned(),
        }
    }

    pub fn is_cheater(self) -> bool {
        matches!(self, Role::Cheat(_))
    }

    fn player(self, seed: u64, budget: SearchBudget) -> Player {
        match self {
            Role::Honest(level) => Player::Honest(level.strategy(seed, budget)),
            Role::Cheat(cheat) => Player::Cheater(Cheater::new(cheat)),
        }
    }
}

/// A table's four seats, N E S W.
pub type Lineup = [Role; 4];

/// One player's scores at a checkpoint.
#[derive(Debug, Clone)]
pub struct Sample {
    pub role: Role,
    pub player: String,
    pub hands: usize,
    pub suspicion: f64,
    /// Per detector, in [`Detector::ALL`] order.
    pub z: [f64; Detector::ALL.len()],
}

/// Plays `hands` hands at table `table` (seeded by `seed`), the dealer going round, and returns
/// the records with the players named `t<table>-<seat>-<role>`.
pub fn play_table(
    lineup: &Lineup,
    table: u64,
    hands: usize,
    seed: u64,
    budget: SearchBudget,
) -> Vec<HandRecord> {
    let config = Config::of(Preset::Fitab);
    let names: [String; 4] =
        std::array::from_fn(|i| format!("t{table}-{}-{}", Seat::ALL[i].code(), lineup[i].label()));
    (0..hands)
        .map(|h| {
            let hand_seed = seed ^ (table << 20) ^ h as u64;
            let mut players: [Player; 4] =
                std::array::from_fn(|i| lineup[i].player(hand_seed ^ (i as u64) << 56, budget));
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
                    player: name.clone(),
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
    budget: SearchBudget,
    threads: usize,
) -> Vec<Sample> {
    let jobs: Vec<(usize, u64)> = (0..lineups.len())
        .flat_map(|l| (0..tables).map(move |t| (l, t)))
        .collect();
    let threads = threads.max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|w| {
                let jobs = &jobs;
                scope.spawn(move || {
                    let mut out = Vec::new();
                    for &(l, t) in jobs.iter().skip(w).step_by(threads) {
                        let table = (l as u64) * 10_000 + t;
                        let records = play_table(&lineups[l], table, hands, seed, budget);
                        out.extend(score_table(&lineups[l], &records, checkpoints));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a harness worker panicked"))
            .collect()
    })
}

/// The suspicion above which `rate` of the honest samples at `hands` lie (the empirical
/// false-alarm threshold).
pub fn honest_threshold(samples: &[Sample], hands: usize, rate: f64) -> f64 {
    let mut s: Vec<f64> = samples
        .iter()
        .filter(|s| s.hands == hands && !s.role.is_cheater())
        .map(|s| s.suspicion)
        .collect();
    s.sort_by(f64::total_cmp);
    if s.is_empty() {
        return f64::INFINITY;
    }
    let i = ((1.0 - rate) * s.len() as f64).ceil() as usize;
    s[i.min(s.len() - 1)]
}

/// The share of `role`'s samples at `hands` whose suspicion is above `threshold`.
pub fn flagged_rate(
    samples: &[Sample],
    hands: usize,
    threshold: f64,
    pick: impl Fn(Role) -> bool,
) -> (usize, usize) {
    let chosen: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.hands == hands && pick(s.role))
        .collect();
    let flagged = chosen.iter().filter(|s| s.suspicion > threshold).count();
    (flagged, chosen.len())
}
