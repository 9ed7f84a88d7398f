//! The documented run in small (the `roc` example's machinery on 64 honest players of every
//! style, 12 hands each): its results file resumes after a stop to the same samples, bit for bit,
//! and a threshold chosen on the calibration population holds on the held-out one, in the tail
//! and in the middle.

use std::path::PathBuf;
use std::sync::OnceLock;

use crate::harness::measure::{Score, calibrate_at, flagged};
use crate::harness::population::{Plan, Population};
use crate::harness::results::{TableResult, append, compact, load};
use crate::harness::{Budgets, Sample, parallel};

fn plan() -> Plan {
    Plan {
        seed: 31,
        hands: 12,
        checkpoints: vec![6, 12],
        calibration_tables: 8,
        held_out_tables: 8,
        cheater_tables: 0,
        pair_tables: 0,
        budgets: Budgets::SMALL,
    }
}

/// Every table of the small plan, played once for both tests.
fn run() -> &'static [TableResult] {
    static RUN: OnceLock<Vec<TableResult>> = OnceLock::new();
    RUN.get_or_init(|| {
        let plan = plan();
        parallel(&plan.jobs(), 2, |&job| plan.play(job))
    })
}

/// A results file in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
        let _ = std::fs::remove_file(self.0.with_extension("compacting"));
    }
}

#[test]
fn a_run_stopped_mid_table_resumes_to_the_same_samples() {
    let plan = plan();
    let tables = run();
    assert_eq!(tables.len(), 16);
    // The same table played again is the same, bit for bit: the run is seeded, nothing else.
    assert_eq!(plan.play(tables[5].job).samples, tables[5].samples);
    let file = TempFile(std::env::temp_dir().join(format!(
        "burraco-fairplay-resume-{}.tsv",
        std::process::id()
    )));
    // Three tables written, then the fourth cut in the middle of a line.
    std::fs::write(&file.0, format!("{}\n", plan.header())).unwrap();
    for t in &tables[..3] {
        append(&file.0, t).unwrap();
    }
    let cut = tables[3].to_text();
    let mut text = std::fs::read_to_string(&file.0).unwrap();
    text.push_str(&cut[..cut.len() / 2]);
    std::fs::write(&file.0, text).unwrap();
    // Resuming keeps the three and drops the cut one; the rest appended, the file holds the run.
    // (Their times are kept to the millisecond only: the samples are compared.)
    let samples =
        |t: &[TableResult]| -> Vec<_> { t.iter().map(|t| (t.job, t.samples.clone())).collect() };
    let kept = compact(&file.0, &plan).unwrap();
    assert_eq!(samples(&kept), samples(&tables[..3]));
    for t in &tables[3..] {
        append(&file.0, t).unwrap();
    }
    assert_eq!(samples(&load(&file.0, &plan).unwrap()), samples(tables));
    // Another plan's file is refused, never mixed in.
    let other = Plan { seed: 32, ..plan };
    assert!(load(&file.0, &other).is_err());
}

#[test]
fn a_threshold_chosen_on_the_calibration_population_holds_on_the_held_out_one() {
    let of = |p: Population| -> Vec<&Sample> {
        run()
            .iter()
            .filter(|t| t.job.population == p)
            .flat_map(|t| &t.samples)
            .collect()
    };
    let (calibration, held_out) = (of(Population::Calibration), of(Population::HeldOut));
    let plan = plan();
    // At 10%: the 30th lowest of 32 calibration suspicions, which a new honest player passes 3
    // times in 33. Broken rules (the median, the wrong population) flag far more of the 32 held
    // out; 8 or fewer is what a 9% rate gives but for about 1 run in 500.
    for t in calibrate_at(&calibration, &plan.checkpoints, 0.1, Score::Suspicion) {
        let t = t.expect("32 players are enough for 10%");
        assert_eq!((t.players, t.rank), (32, 30));
        let fa = flagged(&held_out, t.hands, t.threshold, Score::Suspicion);
        assert!(
            fa.flagged <= 8,
            "{} hands: {fa:?} above {}",
            t.hands,
            t.threshold
        );
    }
    // At 50%, on a score without a floor: the held-out median sits near the calibration's (a
    // threshold too high would pass the first check, not this one).
    let partner_fit = Score::Detector(0);
    for t in calibrate_at(&calibration, &plan.checkpoints, 0.5, partner_fit) {
        let t = t.expect("a median");
        let above = flagged(&held_out, t.hands, t.threshold, partner_fit);
        assert!(
            (8..=24).contains(&above.flagged),
            "{} hands: {above:?} above {}",
            t.hands,
            t.threshold
        );
    }
}
