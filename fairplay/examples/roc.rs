//! The fair-play proof, the documented run (docs/FAIR_PLAY.md): tables of cheating bots and honest
//! L0-L3 controls played in process, every player scored after 5, 10, 20, ... hands; prints the
//! detection and false-alarm rates as Markdown and draws the detection chart as SVG.
//!
//! cargo run --release -p burraco-fairplay --example roc -- [tables] [hands] [svg path]

#[path = "../tests/harness/mod.rs"]
mod harness;

use burraco_bot::cheat::Cheat;
use burraco_bot::{Level, SearchBudget};
use burraco_fairplay::Detector;
use burraco_fairplay::chart::{Series, line_chart};
use harness::{Role, Sample, flagged_rate, honest_threshold};

/// One honest player in a hundred flagged: the nominal threshold for a standard normal score.
const NOMINAL_1PC: f64 = 2.326;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let tables: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(24);
    let hands: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(200);
    let svg_path = args.get(3).cloned();
    let checkpoints: Vec<usize> = [5, 10, 20, 50, 100, 200, 400, 800]
        .into_iter()
        .filter(|&n| n <= hands)
        .collect();
    let (l0, l1, l2, l3) = (
        Role::Honest(Level::Random),
        Role::Honest(Level::Greedy),
        Role::Honest(Level::Expert),
        Role::Honest(Level::Search),
    );
    let cheat = |c| Role::Cheat(c);
    let lineups = [
        [cheat(Cheat::SeesPartner), l2, l2, l2],
        [cheat(Cheat::SeesNextOpponent), l2, l2, l2],
        [cheat(Cheat::Signals), l2, cheat(Cheat::Signals), l2],
        [l0, l1, l2, l3],
        [l1, l2, l1, l2],
        [l3, l2, l3, l2],
    ];
    let budget = SearchBudget {
        worlds: 4,
        max_time: None,
        horizon: 8,
    };
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(2));
    let started = std::time::Instant::now();
    let samples = harness::run(&lineups, tables, hands, &checkpoints, 2026, budget, threads);
    let elapsed = started.elapsed();
    let honest = |r: Role| !r.is_cheater();
    let cheats = Cheat::ALL;

    println!(
        "{tables} tables of each of {} line-ups, {hands} hands each ({} hands in all) in {:.0} s.\n",
        lineups.len(),
        tables as usize * lineups.len() * hands,
        elapsed.as_secs_f64()
    );
    println!(
        "| hands | honest players | false alarms at z > {NOMINAL_1PC} | 1% threshold (measured) | {} |",
        cheats.map(|c| format!("{} flagged", c.code())).join(" | ")
    );
    println!("|---|---|---|---|{}", "---|".repeat(cheats.len()));
    let mut series: Vec<Series> = cheats
        .iter()
        .map(|c| Series {
            name: c.code().to_owned(),
            points: Vec::new(),
            dashed: false,
        })
        .collect();
    let mut far = Series {
        name: format!("honest, z > {NOMINAL_1PC}"),
        points: Vec::new(),
        dashed: true,
    };
    let mut needed: Vec<(Option<usize>, Option<usize>)> = vec![(None, None); cheats.len()];
    for &n in &checkpoints {
        let threshold = honest_threshold(&samples, n, 0.01);
        let (fa, total) = flagged_rate(&samples, n, NOMINAL_1PC, honest);
        far.points.push((n as f64, fa as f64 / total.max(1) as f64));
        let mut cells = Vec::new();
        for (i, c) in cheats.iter().enumerate() {
            let (f, t) = flagged_rate(&samples, n, threshold, |r| r == Role::Cheat(*c));
            let rate = f as f64 / t.max(1) as f64;
            series[i].points.push((n as f64, rate));
            if rate >= 0.5 && needed[i].0.is_none() {
                needed[i].0 = Some(n);
            }
            if rate >= 0.9 && needed[i].1.is_none() {
                needed[i].1 = Some(n);
            }
            cells.push(format!("{f}/{t} ({:.0}%)", 100.0 * rate));
        }
        println!(
            "| {n} | {total} | {fa} ({:.1}%) | {threshold:.2} | {} |",
            100.0 * fa as f64 / total.max(1) as f64,
            cells.join(" | ")
        );
    }
    println!(
        "\nHands needed to flag each cheater at a 1% false-alarm rate (measured threshold):\n"
    );
    println!("| cheater | half flagged by | 90% flagged by |\n|---|---|---|");
    let show = |n: Option<usize>| n.map_or_else(|| format!("more than {hands}"), |n| n.to_string());
    for (c, (half, most)) in cheats.iter().zip(&needed) {
        println!("| {} | {} | {} |", c.code(), show(*half), show(*most));
    }
    let last = *checkpoints.last().unwrap_or(&hands);
    println!("\nMean score per detector after {last} hands, by role:\n");
    println!(
        "| role | players | {} | suspicion |",
        Detector::ALL.map(|d| d.code()).join(" | ")
    );
    println!("|---|---|{}---|", "---|".repeat(Detector::ALL.len()));
    let mut roles: Vec<Role> = samples.iter().map(|s| s.role).collect();
    roles.sort_by_key(|r| r.label());
    roles.dedup();
    for role in roles {
        let at: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.role == role && s.hands == last)
            .collect();
        let mean = |f: &dyn Fn(&Sample) -> f64| {
            at.iter().map(|s| f(s)).sum::<f64>() / at.len().max(1) as f64
        };
        let zs: Vec<String> = (0..Detector::ALL.len())
            .map(|i| format!("{:+.2}", mean(&|s| s.z[i])))
            .collect();
        println!(
            "| {} | {} | {} | {:.2} |",
            role.label(),
            at.len(),
            zs.join(" | "),
            mean(&|s| s.suspicion)
        );
    }
    if let Some(path) = svg_path {
        series.push(far);
        let svg = line_chart(
            "Cheaters flagged at a 1% false-alarm rate",
            "hands played (log scale)",
            "players flagged",
            &checkpoints.iter().map(|&n| n as f64).collect::<Vec<_>>(),
            &series,
        );
        std::fs::write(&path, svg).expect("write the chart");
        eprintln!("chart written to {path}");
    }
}
