//! The detectors against the cheating bots, small enough for every test run: the cheater that sees
//! its partner's hand and the one that sees the next opponent's stand clear of the honest L0-L2
//! players (at their tables and at an honest one) within 100 hands.
//! (The full run, with L3 and the signalling pair: the `roc` example, docs/FAIR_PLAY.md.)

/// The documented run in small: resumable, and calibrated on one population, held on another.
mod population;

use crate::harness;

use burraco_bot::Level;
use burraco_bot::cheat::Cheat;
use burraco_fairplay::Detector;
use harness::{Budgets, L2, Role, Style};

const HANDS: usize = 100;
const PARTNER_FIT: usize = 0;
const NEXT_AVOID: usize = 1;

#[test]
fn peeking_cheaters_stand_out_within_100_hands() {
    let l2 = L2;
    let level = |l| Role::Honest(Style::Level(l));
    let lineups = [
        [Role::Cheat(Cheat::SeesPartner), l2, l2, l2],
        [Role::Cheat(Cheat::SeesNextOpponent), l2, l2, l2],
        [
            level(Level::Random),
            level(Level::Greedy),
            l2,
            level(Level::Greedy),
        ],
    ];
    let samples = harness::run(&lineups, 2, HANDS, &[HANDS], 11, Budgets::SMALL, 2);
    assert_eq!(samples.len(), 3 * 2 * 4);
    for s in &samples {
        eprintln!("{:20} {:6.2} {:?}", s.role.label(), s.suspicion, s.z);
    }
    let honest_max = |i: usize| {
        samples
            .iter()
            .filter(|s| !s.role.is_cheater())
            .map(|s| s.z[i])
            .fold(f64::MIN, f64::max)
    };
    let cheater_min = |c: Cheat, i: usize| {
        samples
            .iter()
            .filter(|s| s.role == Role::Cheat(c))
            .map(|s| s.z[i])
            .fold(f64::MAX, f64::min)
    };
    // Seeing the partner shows in the partner detector, far above any honest player's, which
    // stays within the normal range.
    assert!(honest_max(PARTNER_FIT) < 3.0, "{}", honest_max(PARTNER_FIT));
    assert!(cheater_min(Cheat::SeesPartner, PARTNER_FIT) > 4.0);
    // Seeing the next opponent shows in the avoidance detector, clear of the honest players:
    // a strong honest player reads its opponents' discards and drifts up there too (FAIR_PLAY.md).
    let seer = cheater_min(Cheat::SeesNextOpponent, NEXT_AVOID);
    assert!(seer > 5.0, "{seer}");
    assert!(
        seer > honest_max(NEXT_AVOID) + 1.0,
        "{seer} {}",
        honest_max(NEXT_AVOID)
    );
    // Each peeker's highest score is its own detector's.
    for s in samples.iter().filter(|s| s.role.is_cheater()) {
        let own = match s.role {
            Role::Cheat(Cheat::SeesPartner) => PARTNER_FIT,
            _ => NEXT_AVOID,
        };
        let best = (0..Detector::ALL.len())
            .max_by(|&a, &b| s.z[a].total_cmp(&s.z[b]))
            .unwrap();
        assert_eq!(best, own, "{}: {:?}", s.role.label(), s.z);
    }
}
