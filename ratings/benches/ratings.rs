//! Rating updates per second (issue 21's figure, docs/PERFORMANCE.md):
//!
//! - `update_two`: a head-to-head match rated for both players (two Glicko-2 steps);
//! - `update_four`: a 4-player match rated for its four players;
//! - `aged_then_update_two`: as the server does it, both ratings aged by their time away first;
//! - `expected_vp`: the forecast shown before a match.
//!
//! Run: `nice -n 10 cargo bench -p burraco-ratings --bench ratings -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use burraco_ratings::{Config, Rating, expected_vp, update_four, update_two};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// Ratings spread like a settled pool's, some new: the volatility search's work varies with the
/// surprise, so the bench cycles through them.
fn pool() -> Vec<Rating> {
    (0..64)
        .map(|i| Rating {
            rating: 1100.0 + 17.0 * f64::from(i),
            deviation: if i % 8 == 0 {
                350.0
            } else {
                45.0 + f64::from(i % 7) * 20.0
            },
            volatility: 0.055 + 0.001 * f64::from(i % 10),
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let cfg = Config::default();
    let pool = pool();
    let scores = [0.0, 0.25, 0.5, 0.65, 1.0];
    let mut group = c.benchmark_group("ratings");
    group.throughput(Throughput::Elements(1));
    let mut i = 0usize;
    group.bench_function("update_two", |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            let (a, o) = (pool[i % 64], pool[(i * 7 + 3) % 64]);
            black_box(update_two(a, o, scores[i % 5], 1.0, &cfg))
        })
    });
    group.bench_function("aged_then_update_two", |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            let a = pool[i % 64].aged(cfg.periods_in_ms(3 * 86_400_000), &cfg);
            let o = pool[(i * 7 + 3) % 64].aged(cfg.periods_in_ms(86_400_000), &cfg);
            black_box(update_two(a, o, scores[i % 5], 1.0, &cfg))
        })
    });
    group.bench_function("update_four", |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            let players = [0, 11, 23, 37].map(|k| pool[(i + k) % 64]);
            black_box(update_four(players, scores[i % 5], &cfg))
        })
    });
    group.bench_function("expected_vp", |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            black_box(expected_vp(pool[i % 64], pool[(i * 7 + 3) % 64]))
        })
    });
    group.finish();
}

criterion_group!(ratings, benches);
criterion_main!(ratings);
