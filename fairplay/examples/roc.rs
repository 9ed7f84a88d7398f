//! The fair-play proof, the documented run (docs/FAIR_PLAY.md): an honest calibration population,
//! an honest held-out population and every cheater, played in process and scored after 5, 10, 20,
//! 50, 100 and 200 hands; the 1% thresholds chosen on the first, their false alarms measured on
//! the second, each cheater's detection by the suspicion and by each detector.
//!
//! cargo run --release -p burraco-fairplay --example roc -- play <results> [--minutes M] [--threads T] [--smoke]
//! cargo run --release -p burraco-fairplay --example roc -- report <results> [--svg <path>] [--smoke]
//! cargo run --release -p burraco-fairplay --example roc -- verify <results> [--tables N] [--smoke]
//!
//! `play` appends each table to the results file as it finishes and resumes where the file
//! stops; `--minutes` stops taking new tables after that long. `report` prints the Markdown of
//! docs/FAIR_PLAY.md's results and draws the chart. `verify` plays N of the file's tables again
//! (spread over the run) and checks their samples are the file's, bit for bit. `--smoke` is a
//! small plan (seconds, too few players for a 1% threshold) for trying the commands.

#[path = "../tests/harness/mod.rs"]
mod harness;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use burraco_bot::cheat::Cheat;
use burraco_fairplay::Detector;
use burraco_fairplay::calibration::FALSE_ALARM_RATE;
use burraco_fairplay::chart::{Series, line_chart};
use harness::measure::{Calibrated, Rate, Score, calibrate_at, flagged, mean, spread};
use harness::population::{Job, Plan, Population};
use harness::results::{append, compact, load};
use harness::{Budgets, Role, Sample, Style};

/// A standard normal passes it one time in a hundred: the threshold a calibrated score would need.
const NOMINAL_1PC: f64 = 2.326;

fn smoke() -> Plan {
    Plan {
        seed: 7,
        hands: 20,
        checkpoints: vec![5, 10, 20],
        calibration_tables: 3,
        held_out_tables: 3,
        cheater_tables: 1,
        pair_tables: 1,
        budgets: Budgets::SMALL,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let plan = if args.iter().any(|a| a == "--smoke") {
        smoke()
    } else {
        Plan::documented()
    };
    let (Some(command), Some(path)) = (args.first(), args.get(1).map(PathBuf::from)) else {
        eprintln!(
            "usage: roc play|report|verify <results> [--minutes M] [--threads T] [--svg path] [--tables N] [--smoke]"
        );
        std::process::exit(2);
    };
    let outcome = match command.as_str() {
        "play" => {
            let minutes: Option<f64> = flag("--minutes").and_then(|m| m.parse().ok());
            let threads: usize = flag("--threads").and_then(|t| t.parse().ok()).unwrap_or(2);
            play(
                &plan,
                &path,
                minutes.map(|m| Duration::from_secs_f64(m * 60.0)),
                threads,
            )
        }
        "report" => report(&plan, &path, flag("--svg").map(PathBuf::from)),
        "verify" => verify(
            &plan,
            &path,
            flag("--tables").and_then(|t| t.parse().ok()).unwrap_or(4),
        ),
        other => Err(format!("unknown command {other}")),
    };
    if let Err(e) = outcome {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

fn play(plan: &Plan, path: &Path, budget: Option<Duration>, threads: usize) -> Result<(), String> {
    let done = if path.exists() {
        compact(path, plan)?
    } else {
        std::fs::write(path, format!("{}\n", plan.header()))
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Vec::new()
    };
    let todo: Vec<Job> = plan
        .jobs()
        .into_iter()
        .filter(|j| !done.iter().any(|t| t.job == *j))
        .collect();
    eprintln!(
        "{} of {} tables already played; {} to go",
        done.len(),
        plan.jobs().len(),
        todo.len()
    );
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let written = Mutex::new(Ok(()));
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    if budget.is_some_and(|b| started.elapsed() >= b) {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&job) = todo.get(i) else { return };
                    let table = plan.play(job);
                    let mut status = written.lock().unwrap_or_else(|e| e.into_inner());
                    if status.is_ok() {
                        *status = append(path, &table);
                    }
                    eprintln!(
                        "{} {} in {:.0} s ({}/{})",
                        job.population.code(),
                        job.index,
                        table.secs,
                        i + 1,
                        todo.len()
                    );
                }
            });
        }
    });
    written.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Plays `n` of the results' tables again, evenly spaced in the file's order (the honest
/// populations first), and compares their samples with the file's.
fn verify(plan: &Plan, path: &Path, n: usize) -> Result<(), String> {
    let tables = load(path, plan)?;
    let step = (tables.len() / n.max(1)).max(1);
    for t in tables.iter().step_by(step).take(n) {
        let again = plan.play(t.job);
        let (pop, index) = (t.job.population.code(), t.job.index);
        if again.samples != t.samples {
            return Err(format!("{pop} {index}: played again, its samples differ"));
        }
        eprintln!(
            "{pop} {index} ({}): the same samples in {:.0} s",
            plan.lineup(t.job).map(|r| r.label()).join(" "),
            again.secs
        );
    }
    Ok(())
}

fn report(plan: &Plan, path: &Path, svg: Option<PathBuf>) -> Result<(), String> {
    let tables = load(path, plan)?;
    let all = plan.jobs().len();
    if tables.len() < all {
        println!("**Partial run: {} of {all} tables.**\n", tables.len());
    }
    let of = |p: Population| -> Vec<&Sample> {
        tables
            .iter()
            .filter(|t| t.job.population == p)
            .flat_map(|t| t.samples.iter())
            .collect()
    };
    let calibration = of(Population::Calibration);
    let held_out = of(Population::HeldOut);
    let cheaters: Vec<(Cheat, Vec<&Sample>)> = Cheat::ALL
        .into_iter()
        .map(|c| {
            let s = of(Population::Cheaters(c))
                .into_iter()
                .filter(|s| s.role == Role::Cheat(c))
                .collect();
            (c, s)
        })
        .collect();
    let cp = &plan.checkpoints;
    let last = *cp.last().unwrap_or(&plan.hands);
    let secs: f64 = tables.iter().map(|t| t.secs).sum();
    println!(
        "{} tables of {} hands ({} hands in all), {:.0} s of table time (each table's wall-clock time, summed: on a shared machine it counts the waits for a core). Plan: `{}`\n",
        tables.len(),
        plan.hands,
        tables.len() * plan.hands,
        secs,
        plan.header()
    );
    print_styles(&calibration, &held_out, cp[0]);

    let thresholds = calibrate_at(&calibration, cp, FALSE_ALARM_RATE, Score::Suspicion);
    println!(
        "\nThe 1% threshold, chosen on the calibration population and checked on the held-out one:\n"
    );
    println!(
        "| hands | calibration players | rank (from the lowest) | 1% threshold | held-out players | held-out false alarms at the threshold (95% Wilson interval) | tables they sit at | held-out at z > {NOMINAL_1PC} |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (n, t) in cp.iter().zip(&thresholds) {
        let nominal = flagged(&held_out, *n, NOMINAL_1PC, Score::Suspicion);
        match t {
            Some(t) => {
                let fa = flagged(&held_out, *n, t.threshold, Score::Suspicion);
                // Seats of one table share its deals: false alarms that cluster by table mean
                // fewer independent samples than players.
                let at_tables = tables
                    .iter()
                    .filter(|tr| tr.job.population == Population::HeldOut)
                    .filter(|tr| {
                        tr.samples
                            .iter()
                            .any(|s| s.hands == *n && s.suspicion > t.threshold)
                    })
                    .count();
                println!(
                    "| {n} | {} | {} | {:.2} | {} | {} | {at_tables} | {} |",
                    t.players,
                    t.rank,
                    t.threshold,
                    fa.players,
                    fa.describe(),
                    nominal.describe()
                );
            }
            None => println!(
                "| {n} | too few for 1% | | | | | | {} |",
                nominal.describe()
            ),
        }
    }
    if let Some(t) = thresholds.iter().flatten().next() {
        println!(
            "\nThe threshold one calibration gives holds its own rate: {}.",
            spread(t.players)
        );
    }
    let at_threshold = |n: usize| thresholds.iter().flatten().find(|t| t.hands == n);
    print_by_style(&held_out, cp, &at_threshold);
    print_cheaters(&cheaters, cp, &at_threshold);
    for &n in cp.iter().filter(|&&n| n == 50 || n == last) {
        print_per_detector(&calibration, &held_out, &cheaters, cp, n);
    }
    print_means(&held_out, &cheaters, last);
    if let Some(t) = at_threshold(last) {
        print_flagged_honest(&held_out, t);
    }
    println!("\n`ONE_PERCENT` (fairplay/src/calibration.rs):\n");
    for t in thresholds.iter().flatten() {
        println!("- {} hands: {:.2}", t.hands, t.threshold);
    }
    if let Some(svg) = svg {
        chart(&held_out, &cheaters, cp, &thresholds, &svg)?;
    }
    Ok(())
}

fn styles() -> Vec<Role> {
    Style::ALL.iter().map(|&s| Role::Honest(s)).collect()
}

fn print_styles(calibration: &[&Sample], held_out: &[&Sample], first: usize) {
    let count =
        |s: &[&Sample], r: Role| s.iter().filter(|x| x.hands == first && x.role == r).count();
    println!(
        "| population | players | {} |",
        styles()
            .iter()
            .map(|r| r.label())
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|---|{}", "---|".repeat(styles().len()));
    for (name, s) in [("calibration", calibration), ("held-out", held_out)] {
        let cells: Vec<String> = styles().iter().map(|&r| count(s, r).to_string()).collect();
        let total = s.iter().filter(|x| x.hands == first).count();
        println!("| {name} | {total} | {} |", cells.join(" | "));
    }
}

fn print_by_style<'a>(
    held_out: &[&Sample],
    cp: &[usize],
    at_threshold: &dyn Fn(usize) -> Option<&'a Calibrated>,
) {
    println!("\nHeld-out false alarms at the 1% threshold, by style:\n");
    println!(
        "| style | {} |",
        cp.iter()
            .map(|n| format!("{n} hands"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|{}", "---|".repeat(cp.len()));
    for role in styles() {
        let mine: Vec<&Sample> = held_out
            .iter()
            .copied()
            .filter(|s| s.role == role)
            .collect();
        let cells: Vec<String> = cp
            .iter()
            .map(|&n| match at_threshold(n) {
                Some(t) => {
                    let r = flagged(&mine, n, t.threshold, Score::Suspicion);
                    format!("{}/{}", r.flagged, r.players)
                }
                None => "-".to_owned(),
            })
            .collect();
        println!("| {} | {} |", role.label(), cells.join(" | "));
    }
}

fn print_cheaters<'a>(
    cheaters: &[(Cheat, Vec<&Sample>)],
    cp: &[usize],
    at_threshold: &dyn Fn(usize) -> Option<&'a Calibrated>,
) {
    println!(
        "\nCheaters flagged at the 1% threshold (by their suspicion, with 95% Wilson intervals):\n"
    );
    println!(
        "| cheater | {} | half flagged by | 90% flagged by |",
        cp.iter()
            .map(|n| format!("{n} hands"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|{}---|---|", "---|".repeat(cp.len()));
    for (cheat, samples) in cheaters {
        let rates: Vec<Option<Rate>> = cp
            .iter()
            .map(|&n| at_threshold(n).map(|t| flagged(samples, n, t.threshold, Score::Suspicion)))
            .collect();
        let cells: Vec<String> = rates
            .iter()
            .map(|r| r.map_or("-".to_owned(), |r| r.describe()))
            .collect();
        let first = |share: f64| {
            cp.iter()
                .zip(&rates)
                .find(|(_, r)| r.is_some_and(|r| r.players > 0 && r.share() >= share))
                .map_or_else(
                    || format!("more than {}", cp.last().unwrap_or(&0)),
                    |(n, _)| n.to_string(),
                )
        };
        println!(
            "| {} | {} | {} | {} |",
            cheat.code(),
            cells.join(" | "),
            first(0.5),
            first(0.9)
        );
    }
}

fn print_per_detector(
    calibration: &[&Sample],
    held_out: &[&Sample],
    cheaters: &[(Cheat, Vec<&Sample>)],
    cp: &[usize],
    n: usize,
) {
    let scores = Score::all();
    let thresholds: Vec<Option<f64>> = scores
        .iter()
        .map(|&s| {
            calibrate_at(calibration, cp, FALSE_ALARM_RATE, s)
                .into_iter()
                .flatten()
                .find(|t| t.hands == n)
                .map(|t| t.threshold)
        })
        .collect();
    println!(
        "\nAfter {n} hands, each detector at its own 1% threshold (chosen on the calibration population):\n"
    );
    println!(
        "| | {} |",
        scores
            .iter()
            .map(|s| s.label())
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|{}", "---|".repeat(scores.len()));
    let cells = |samples: &[&Sample]| -> String {
        scores
            .iter()
            .zip(&thresholds)
            .map(|(&s, t)| match t {
                Some(t) => {
                    let r = flagged(samples, n, *t, s);
                    format!("{}/{}", r.flagged, r.players)
                }
                None => "-".to_owned(),
            })
            .collect::<Vec<_>>()
            .join(" | ")
    };
    println!(
        "| 1% threshold | {} |",
        thresholds
            .iter()
            .map(|t| t.map_or("-".to_owned(), |t| format!("{t:.2}")))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("| honest held-out | {} |", cells(held_out));
    for (cheat, samples) in cheaters {
        println!("| {} | {} |", cheat.code(), cells(samples));
    }
}

fn print_means(held_out: &[&Sample], cheaters: &[(Cheat, Vec<&Sample>)], n: usize) {
    println!(
        "\nMean score per detector after {n} hands, by role (held-out styles, then cheaters):\n"
    );
    println!(
        "| role | players | {} | suspicion |",
        Detector::ALL.map(|d| d.code()).join(" | ")
    );
    println!("|---|---|{}---|", "---|".repeat(Detector::ALL.len()));
    let row = |label: String, samples: &[&Sample]| {
        let players = samples.iter().filter(|s| s.hands == n).count();
        let zs: Vec<String> = (0..Detector::ALL.len())
            .map(|i| format!("{:+.2}", mean(samples, n, Score::Detector(i))))
            .collect();
        println!(
            "| {label} | {players} | {} | {:.2} |",
            zs.join(" | "),
            mean(samples, n, Score::Suspicion)
        );
    };
    for role in styles() {
        let mine: Vec<&Sample> = held_out
            .iter()
            .copied()
            .filter(|s| s.role == role)
            .collect();
        row(role.label(), &mine);
    }
    for (cheat, samples) in cheaters {
        row(cheat.code().to_owned(), samples);
    }
}

/// Which honest players a threshold flags, and by which detector.
fn print_flagged_honest(held_out: &[&Sample], t: &Calibrated) {
    let mut flagged: Vec<&Sample> = held_out
        .iter()
        .copied()
        .filter(|s| s.hands == t.hands && s.suspicion > t.threshold)
        .collect();
    flagged.sort_by(|a, b| b.suspicion.total_cmp(&a.suspicion));
    let listed: Vec<String> = flagged
        .iter()
        .map(|s| {
            let best = (0..Detector::ALL.len())
                .max_by(|&a, &b| s.z[a].total_cmp(&s.z[b]))
                .unwrap_or(0);
            format!(
                "{} ({} {:+.2})",
                s.role.label(),
                Detector::ALL[best].code(),
                s.z[best]
            )
        })
        .collect();
    println!(
        "\nHeld-out players flagged after {} hands (style, best detector): {}.",
        t.hands,
        if listed.is_empty() {
            "none".to_owned()
        } else {
            listed.join(", ")
        }
    );
}

fn chart(
    held_out: &[&Sample],
    cheaters: &[(Cheat, Vec<&Sample>)],
    cp: &[usize],
    thresholds: &[Option<Calibrated>],
    path: &Path,
) -> Result<(), String> {
    let points = |samples: &[&Sample]| -> Vec<(f64, f64)> {
        thresholds
            .iter()
            .flatten()
            .map(|t| {
                (
                    t.hands as f64,
                    flagged(samples, t.hands, t.threshold, Score::Suspicion).share(),
                )
            })
            .collect()
    };
    let mut series: Vec<Series> = cheaters
        .iter()
        .map(|(c, s)| Series {
            name: c.code().to_owned(),
            points: points(s),
            dashed: false,
        })
        .collect();
    series.push(Series {
        name: "honest (held out)".to_owned(),
        points: points(held_out),
        dashed: true,
    });
    let svg = line_chart(
        "Players flagged at the 1% threshold",
        "hands played (log scale)",
        "players flagged",
        &cp.iter().map(|&n| n as f64).collect::<Vec<_>>(),
        &series,
    );
    std::fs::write(path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    eprintln!("chart written to {}", path.display());
    Ok(())
}
