//! What a tournament computes when a round ends: the standings of a 1,000-pair event (500 tables a
//! round) after round 1 and after round 4 (3 Mitchell rounds and a Danish one, the federation's
//! shape), from its log folded as the server folds it; and that fold itself (a restart, a record).
//!
//! - `standings_after_1` / `standings_after_4`: `TournamentState::standings_after` (VP, MP and
//!   burraco bonus of every match and bye, adjustments, warnings; sorted by the code's keys);
//! - `wire_standings_after_4`: the same turned into the lines every player is told;
//! - `fold_4_rounds`: folding the whole log (1,000 registrations, 2,000 results).
//!
//! `cargo bench -p burraco-server --bench standings`

use std::hint::black_box;

use burraco_protocol::tournament_log::{EntrantPlayer, MatchOutcome, RoundTable, TournamentEntry};
use burraco_protocol::wire::WireTournamentSettings;
use burraco_server::tournament::record::wire_standings;
use burraco_server::tournament::state::TournamentState;
use criterion::{Criterion, criterion_group, criterion_main};

const PAIRS: u32 = 1_000;
const ROUNDS: u32 = 4;

/// The log of a 1,000-pair event after `ROUNDS` rounds: every table's result a made-up but
/// plausible match (totals from a small generator, VP from the margin's sign).
fn log() -> Vec<TournamentEntry> {
    let settings = WireTournamentSettings {
        name: "bench".into(),
        kind: "pairs".into(),
        rounds: vec![
            "mitchell".into(),
            "mitchell".into(),
            "mitchell".into(),
            "danish".into(),
        ],
        hands: 2,
        preset: "fitab".into(),
        max_entrants: Some(PAIRS),
        ..WireTournamentSettings::default()
    };
    let mut entries = vec![TournamentEntry::Created {
        settings: serde_json::to_string(&settings).expect("json"),
        created_ms: 0,
        director_hash: [0; 32],
        seed: 1,
    }];
    for entrant in 0..PAIRS {
        for p in 0..2 {
            entries.push(TournamentEntry::Registered {
                entrant,
                player: EntrantPlayer {
                    player: format!("p-{entrant}-{p}"),
                    name: format!("Player {entrant}{p}"),
                },
                bot: true,
                code: None,
                at_ms: 0,
            });
        }
    }
    let mut x: u64 = 12345;
    let mut next = move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) as i32
    };
    let tables = PAIRS / 2;
    for round in 1..=ROUNDS {
        let pairing: Vec<RoundTable> = (0..tables)
            .map(|t| RoundTable {
                number: t + 1,
                table: format!("t-{round}-{t}"),
                ns: t,
                ew: tables + (t + round - 1) % tables,
                ns_partner: None,
                ew_partner: None,
            })
            .collect();
        entries.push(TournamentEntry::RoundStarted {
            round,
            movement: "mitchell".into(),
            tables: pairing.clone(),
            bye: None,
            bracket: Vec::new(),
            boards: None,
            at_ms: 0,
        });
        for table in pairing {
            let totals = [next() % 3000 - 500, next() % 3000 - 500].map(|t| t / 5 * 5);
            let vp = if totals[0] >= totals[1] {
                [13, 7]
            } else {
                [7, 13]
            };
            entries.push(TournamentEntry::MatchFinished {
                round,
                table: table.table,
                result: MatchOutcome {
                    played: true,
                    totals,
                    vp,
                    burraco: [next() % 4 * 100, next() % 4 * 100],
                    hands: 2,
                    hand_totals: vec![totals, [0, 0]],
                },
            });
        }
    }
    entries
}

fn bench(c: &mut Criterion) {
    let entries = log();
    let state = TournamentState::fold("T-0000000000".into(), &entries).expect("folds");
    assert_eq!(state.complete_rounds(), ROUNDS as usize);
    let mut group = c.benchmark_group("standings_1000_pairs");
    group.bench_function("standings_after_1", |b| {
        b.iter(|| black_box(state.standings_after(black_box(1))))
    });
    group.bench_function("standings_after_4", |b| {
        b.iter(|| black_box(state.standings_after(black_box(4))))
    });
    group.bench_function("wire_standings_after_4", |b| {
        b.iter(|| black_box(wire_standings(&state, &state.standings_after(4))))
    });
    group.bench_function("fold_4_rounds", |b| {
        b.iter(|| {
            black_box(
                TournamentState::fold("T-0000000000".into(), black_box(&entries)).expect("folds"),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
