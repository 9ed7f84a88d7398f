//! The figures docs/FAIR_PLAY.md quotes are the code's: its table of thresholds holds
//! `calibration::ONE_PERCENT` (which `burraco fairplay --help` reads), each row's rank is the
//! order statistic the code's rule takes for that row's calibration population, and each false
//! alarm rate and Wilson interval is the one the code computes from the row's counts, over at least
//! 1,000 held-out players; and the results are the documented plan's.

use burraco_fairplay::calibration::{FALSE_ALARM_RATE, ONE_PERCENT, order_statistic_rank};

use crate::harness::measure::{Rate, spread};
use crate::harness::population::Plan;

const DOC: &str = include_str!("../../../docs/FAIR_PLAY.md");
/// The threshold table's header, as the `roc` example prints it.
const HEADER: &str = "| hands | calibration players | rank (from the lowest) | 1% threshold |";

#[test]
fn the_thresholds_the_docs_quote_are_the_codes() {
    let mut lines = DOC.lines().skip_while(|l| !l.starts_with(HEADER));
    assert!(
        lines.next().is_some(),
        "docs/FAIR_PLAY.md has no {HEADER:?} table"
    );
    let rows: Vec<Vec<&str>> = lines
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), ONE_PERCENT.len(), "{rows:?}");
    for (row, t) in rows.iter().zip(ONE_PERCENT) {
        assert_eq!(row[0], t.hands.to_string(), "{row:?}");
        let n: usize = row[1].parse().expect("a number of players");
        let k: usize = row[2].parse().expect("a rank");
        assert_eq!(
            Some(k),
            order_statistic_rank(n, FALSE_ALARM_RATE),
            "{row:?}"
        );
        assert_eq!(row[3], format!("{:.2}", t.suspicion), "{row:?}");
        let held_out: usize = row[4].parse().expect("a number of held-out players");
        assert!(held_out >= 1000, "{row:?}");
        for cell in [row[5], row[7]] {
            let rate = quoted_rate(cell);
            assert_eq!(rate.players, held_out, "{row:?}");
            assert_eq!(cell, rate.describe(), "{row:?}");
        }
    }
}

#[test]
fn the_docs_results_are_the_documented_plans() {
    // The report prints the plan it read; a plan changed without a new run fails here.
    let header = Plan::documented().header();
    assert!(
        DOC.contains(&format!("Plan: `{header}`")),
        "docs/FAIR_PLAY.md's results are not {header:?}'s"
    );
}

#[test]
fn the_spread_of_a_calibrations_rate_the_docs_quote_is_the_codes() {
    // The documented rule on 500 players, and the rule before it (the highest of 120).
    for players in [500, 120] {
        let quoted = spread(players);
        let flat = DOC.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(&quoted), "docs/FAIR_PLAY.md lacks {quoted:?}");
    }
}

/// The counts a cell like "12/1000 (1.2%, 95% CI 0.7%-2.1%)" starts with.
fn quoted_rate(cell: &str) -> Rate {
    let counts = cell.split_whitespace().next().unwrap_or_default();
    let (flagged, players) = counts.split_once('/').expect("flagged/players");
    Rate {
        flagged: flagged.parse().expect("a count"),
        players: players.parse().expect("a count"),
    }
}
