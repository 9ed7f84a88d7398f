//! The proof's populations: honest players for calibrating the threshold, honest players held
//! out to measure its false alarms, and each cheater at tables of L2.
//!
//! The two honest populations come from one generator (each seat's style drawn by weight, the
//! deals fresh) with disjoint table numbers, so their deals and line-ups differ and are
//! exchangeable: what the calibration population's order statistic promises holds for the
//! held-out one, and measuring it there checks it.

use burraco_bot::Level;
use burraco_bot::cheat::Cheat;

use super::results::TableResult;
use super::{Budgets, L2, Lineup, Role, Style, mix, play_table, score_table};

/// A population of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Population {
    Calibration,
    HeldOut,
    Cheaters(Cheat),
}

impl Population {
    pub fn code(self) -> &'static str {
        match self {
            Population::Calibration => "calibration",
            Population::HeldOut => "held-out",
            Population::Cheaters(cheat) => cheat.code(),
        }
    }

    pub fn from_code(code: &str) -> Option<Population> {
        match code {
            "calibration" => Some(Population::Calibration),
            "held-out" => Some(Population::HeldOut),
            _ => Cheat::from_code(code).map(Population::Cheaters),
        }
    }

    /// The first table number of the population: each its own range, so no two tables of a run
    /// share a deal.
    fn base(self) -> u64 {
        match self {
            Population::Calibration => 1_000_000,
            Population::HeldOut => 2_000_000,
            Population::Cheaters(cheat) => {
                let i = Cheat::ALL.iter().position(|&c| c == cheat).unwrap_or(0);
                3_000_000 + 10_000 * i as u64
            }
        }
    }
}

/// How often each honest style sits down, out of their sum. L4 is the rarest because it costs
/// the most (a seat of it costs more than the rest of its table).
pub const STYLE_WEIGHTS: [(Style, u64); 7] = [
    (Style::Level(Level::Random), 2),
    (Style::Level(Level::Greedy), 2),
    (Style::Level(Level::Expert), 3),
    (Style::Level(Level::Search), 2),
    (Style::Level(Level::Deep), 1),
    (Style::Mixed, 2),
    (Style::Tempered, 2),
];

/// A run's size and seeds.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub seed: u64,
    pub hands: usize,
    /// The numbers of hands each player is scored after.
    pub checkpoints: Vec<usize>,
    pub calibration_tables: u64,
    pub held_out_tables: u64,
    /// Tables per cheater that is one seat (the other three L2), and per signalling pair (the
    /// other two L2).
    pub cheater_tables: u64,
    pub pair_tables: u64,
    pub budgets: Budgets,
}

impl Plan {
    /// The documented run: 500 calibration players, 1,000 held out, 200 hands each.
    pub fn documented() -> Plan {
        Plan {
            seed: 2026,
            hands: 200,
            checkpoints: vec![5, 10, 20, 50, 100, 200],
            calibration_tables: 125,
            held_out_tables: 250,
            cheater_tables: 12,
            pair_tables: 8,
            budgets: Budgets::RUN,
        }
    }

    /// What a results file's first line says, so a resumed run never mixes two plans.
    pub fn header(&self) -> String {
        let b = self.budgets;
        format!(
            "# fair-play population v1 seed={} hands={} checkpoints={} calibration={} held-out={} cheaters={}/{} L3={}w{}h L4={}r{}h{}",
            self.seed,
            self.hands,
            self.checkpoints
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(","),
            self.calibration_tables,
            self.held_out_tables,
            self.cheater_tables,
            self.pair_tables,
            b.search.worlds,
            b.search.horizon,
            b.deep.rollouts,
            b.deep.horizon,
            if b.deep.expert_rollouts { "e" } else { "f" },
        )
    }

    /// Every table of the run, honest populations first.
    pub fn jobs(&self) -> Vec<Job> {
        let mut jobs: Vec<Job> = Vec::new();
        let mut add = |population: Population, tables: u64| {
            jobs.extend((0..tables).map(|index| Job { population, index }));
        };
        add(Population::Calibration, self.calibration_tables);
        add(Population::HeldOut, self.held_out_tables);
        for cheat in Cheat::ALL {
            let tables = if cheat.is_pair() {
                self.pair_tables
            } else {
                self.cheater_tables
            };
            add(Population::Cheaters(cheat), tables);
        }
        jobs
    }

    /// Plays and scores one table of the run (the same samples every time).
    pub fn play(&self, job: Job) -> TableResult {
        let started = std::time::Instant::now();
        let lineup = self.lineup(job);
        let records = play_table(&lineup, job.table(), self.hands, self.seed, self.budgets);
        TableResult {
            job,
            samples: score_table(&lineup, &records, &self.checkpoints),
            secs: started.elapsed().as_secs_f64(),
        }
    }

    /// The job's line-up: the honest populations' seats drawn by [`STYLE_WEIGHTS`] from the
    /// table's own seed; a cheater North (and South for a pair), the others L2.
    pub fn lineup(&self, job: Job) -> Lineup {
        match job.population {
            Population::Cheaters(cheat) => {
                let c = Role::Cheat(cheat);
                let south = if cheat.is_pair() { c } else { L2 };
                [c, L2, south, L2]
            }
            _ => {
                let total: u64 = STYLE_WEIGHTS.iter().map(|(_, w)| w).sum();
                std::array::from_fn(|seat| {
                    let mut x = mix(self.seed ^ mix(job.table() ^ ((seat as u64) << 40))) % total;
                    for (style, w) in STYLE_WEIGHTS {
                        if x < w {
                            return Role::Honest(style);
                        }
                        x -= w;
                    }
                    L2
                })
            }
        }
    }
}

/// One table of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Job {
    pub population: Population,
    pub index: u64,
}

impl Job {
    /// The table's number: its deals' and its players' seeds.
    pub fn table(self) -> u64 {
        self.population.base() + self.index
    }
}
