//! How good the rating is, measured offline (issue 21, docs/RATINGS.md): bot accounts of known
//! strength (the reference strategies L0 to L3) play rated matches in-process, head to head and
//! four at a table with partners drawn at random; Glicko-2 (this crate) and plain Elo rate the
//! same matches. Reported: how many matches until each system orders the levels, and the log loss
//! and Brier score of the predicted VP share on held-out matches; two SVG charts.
//!
//! ```sh
//! nice -n 10 cargo run --release -p burraco-ratings --example quality -- \
//!     --per-level 6 --rounds 60 --held-out 15 --seed 2026 --worlds 16 --threads 2 --out docs/ratings
//! ```
//!
//! Each round every account plays one match (tables drawn at random, seats too); the first
//! `rounds` are the training rounds (each match predicted by the ratings before it, then rated),
//! the next `held-out` rounds are predicted by the ratings frozen at the end of training.

mod pool;
mod report;
mod svg;

use std::path::PathBuf;

use pool::run_pool;
use report::{calibration_chart, print_pool, trajectory_chart};

/// The run's size and seeds (defaults in `parse_args`; L3 searches `worlds` worlds a decision).
#[derive(Debug, Clone, Copy)]
pub struct Args {
    pub per_level: usize,
    pub rounds: usize,
    pub held_out: usize,
    pub seed: u64,
    pub threads: usize,
    pub worlds: u32,
}

pub fn parse_args() -> (Args, Option<PathBuf>) {
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
