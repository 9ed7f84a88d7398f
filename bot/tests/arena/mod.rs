//! The duplicate arena: the ladder's first rung is significant in CI, runs are reproducible, and
//! no reference strategy ever returns an illegal action.

use burraco_bot::Level;
use burraco_bot::arena::{ArenaConfig, duplicate};
use burraco_bot::{DeepBudget, SearchBudget};
use burraco_rules::{Config, MatchLength, Preset, TableSettings};

fn arena(boards: u64, seed: u64) -> ArenaConfig {
    let config = Config::new(&TableSettings {
        preset: Preset::Fitab,
        match_length: Some(MatchLength::Hands(2)),
        ..TableSettings::default()
    })
    .unwrap();
    ArenaConfig {
        config,
        boards,
        seed,
        budget: SearchBudget {
            worlds: 4,
            max_time: None,
            horizon: 8,
        },
        deep: DeepBudget {
            rollouts: 12,
            time: None,
            horizon: 0,
            expert_rollouts: true,
        },
        threads: 2,
    }
}

#[test]
fn greedy_beats_random_with_95_percent_confidence() {
    let report = duplicate(Level::Greedy, Level::Random, &arena(20, 1)).unwrap();
    assert_eq!(report.matches, 40);
    assert_eq!(report.hands, 80);
    assert!(report.a_wins_significantly(), "{}", report.markdown_row());
    assert!(report.win_rate_ci.0 > 0.5, "{}", report.markdown_row());
    assert_eq!(report.a_stats.illegal + report.b_stats.illegal, 0);
}

#[test]
fn expert_beats_greedy_on_a_small_sample() {
    // Not a significance test (that needs hundreds of boards, see docs/BOTS.md): a smoke test that
    // L2 plays whole matches legally and comes out ahead.
    let report = duplicate(Level::Expert, Level::Greedy, &arena(30, 2)).unwrap();
    assert_eq!(report.a_stats.illegal + report.b_stats.illegal, 0);
    assert!(report.margin.mean > 0.0, "{}", report.markdown_row());
}

#[test]
fn search_plays_legally_and_runs_are_reproducible() {
    let a = duplicate(Level::Search, Level::Expert, &arena(2, 3)).unwrap();
    let b = duplicate(Level::Search, Level::Expert, &arena(2, 3)).unwrap();
    assert_eq!(a.a_stats.illegal + a.b_stats.illegal, 0);
    assert_eq!(a.margin, b.margin);
    assert_eq!((a.wins, a.draws, a.losses), (b.wins, b.draws, b.losses));
}

/// L4 on a small iteration budget: legal, and the same seed plays the same boards.
#[test]
fn deep_plays_legally_and_runs_are_reproducible() {
    let a = duplicate(Level::Deep, Level::Search, &arena(1, 5)).unwrap();
    let b = duplicate(Level::Deep, Level::Search, &arena(1, 5)).unwrap();
    assert_eq!(a.a_stats.illegal + a.b_stats.illegal, 0);
    assert_eq!(a.margin.mean, b.margin.mean);
    assert_eq!(a.hands, b.hands);
}

#[test]
fn random_plays_other_presets_and_head_to_head() {
    for config in [
        Config::of(Preset::Fedibur),
        Config::of(Preset::Feburit),
        Config::head_to_head(Preset::Fitab),
    ] {
        let config = Config::new(&TableSettings {
            match_length: Some(MatchLength::Hands(1)),
            ..config.settings()
        })
        .unwrap();
        let report = duplicate(
            Level::Expert,
            Level::Random,
            &ArenaConfig {
                config,
                ..arena(3, 4)
            },
        )
        .unwrap();
        assert_eq!(report.a_stats.illegal + report.b_stats.illegal, 0);
    }
}
