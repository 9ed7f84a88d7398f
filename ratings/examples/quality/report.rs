//! The figures of a pool's run: forecasts scored (log loss, Brier), the levels' true strength and
//! when each system orders them, and the two charts.

use crate::pool::{Forecast, LEVELS, PoolReport, SYSTEMS};
use crate::svg::{self, Axes, Series};

/// Cross-entropy of a forecast p for a score s in 0..=1 (the VP share is not 0 or 1 only, so
/// the least possible value is the score's own entropy, not 0); p is kept off 0 and 1.
pub fn log_loss(p: f64, s: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -(s * p.ln() + (1.0 - s) * (1.0 - p).ln())
}

/// Mean log loss and Brier score of one system over forecasts.
pub fn scores(forecasts: &[Forecast], system: usize) -> (f64, f64) {
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
pub fn bounds(forecasts: &[Forecast]) -> [(f64, f64); 2] {
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

pub fn print_pool(r: &PoolReport) {
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
pub fn print_strength(r: &PoolReport) {
    let all: Vec<&Forecast> = r.online.iter().chain(&r.held_out).collect();
    println!("\n| level | matches | mean VP share of its side | 95% interval |\n|---|---|---|---|");
    for (level, shares) in LEVELS.into_iter().zip(level_shares(r)) {
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
pub fn level_shares(r: &PoolReport) -> [Vec<f64>; 4] {
    let all: Vec<&Forecast> = r.online.iter().chain(&r.held_out).collect();
    LEVELS.map(|level| {
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
pub fn distinguishable(r: &PoolReport) -> Vec<(usize, usize)> {
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
pub fn ordered_after(r: &PoolReport, system: usize, pairs: &[(usize, usize)]) -> Option<usize> {
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
pub fn accounts_ordered_after(
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

pub fn print_head_to_head(all: &[&Forecast]) {
    if all.first().is_some_and(|f| f.sides[0][1].is_none()) {
        println!(
            "\n| head to head | matches | mean VP share of the first | 95% interval |\n|---|---|---|---|"
        );
        for (a, b) in [(1, 0), (2, 1), (3, 2), (3, 1), (2, 0), (3, 0)] {
            let (a, b) = (LEVELS[a], LEVELS[b]);
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
pub fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.len() < 2 {
        return (xs.first().copied().unwrap_or(f64::NAN), f64::INFINITY);
    }
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

pub const BINS: usize = 10;

/// Per bin of predicted side-0 score: (mean prediction, mean observed score, count).
pub fn calibration(forecasts: &[Forecast], system: usize) -> Vec<(f64, f64, f64)> {
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

pub fn calibration_chart(r: &PoolReport) -> String {
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

pub fn trajectory_chart(r: &PoolReport) -> String {
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
