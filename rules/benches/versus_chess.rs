//! The engine against a chess move generator, in one run: random legal four-player Burraco hands
//! per second against shakmaty's random chess games per second, on the same machine in the same
//! minute, so the ratio holds even where the absolute figures drift with the machine's load.
//! The target (issue "A faster engine"): at least twice as many hands as games.
//!
//! - `versus_chess/burraco_hand_4p`: `hand/random_legal_4p` of the `rules` bench (the same seeded
//!   deals and the same random legal player, `random_player/mod.rs`);
//! - `versus_chess/chess_game`: a game from the initial position, each ply a uniformly random legal
//!   move from the same kind of seeded RNG, until `is_game_over` (checkmate, stalemate,
//!   insufficient material) or the fifty-move rule (100 plies without a capture or a pawn move;
//!   without it a random game can wander for thousands of plies): the loop shakmaty's API suggests,
//!   which generates the legal moves twice a ply (once inside `is_game_over`);
//! - `versus_chess/chess_game_lean`: the same games, the legal moves generated once a ply (an empty
//!   list is checkmate or stalemate): the cheapest loop shakmaty allows, a harder yardstick.
//!
//! Both are timed by the bench thread's time on a CPU ([`OnCpuTime`]), not by the wall clock: on
//! a shared two-core machine the wall clock also counts the time other processes hold the core,
//! which changes from one benchmark to the next and would make the ratio a measure of the load.
//!
//! Run (Linux): `cargo bench -p burraco-rules --bench versus_chess -- --warm-up-time 2 --measurement-time 10`
//! The ratios are the quotients of the throughputs (hands/s over games/s).

use std::hint::black_box;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, SamplingMode, Throughput};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use shakmaty::{Chess, Position};

mod random_player;

use random_player::{below, random_hand};

/// Plays one random chess game as shakmaty's API suggests; returns its plies.
fn random_chess_game(rng: &mut ChaCha8Rng) -> u32 {
    let mut position = Chess::default();
    let mut plies = 0;
    while !position.is_game_over() && position.halfmoves() < 100 {
        let moves = position.legal_moves();
        let chosen = moves[below(rng, moves.len())];
        position.play_unchecked(chosen);
        plies += 1;
    }
    plies
}

/// The same game as [`random_chess_game`] (the same moves from the same RNG), generating the legal
/// moves once a ply.
fn random_chess_game_lean(rng: &mut ChaCha8Rng) -> u32 {
    let mut position = Chess::default();
    let mut plies = 0;
    loop {
        let moves = position.legal_moves();
        if moves.is_empty() || position.is_insufficient_material() || position.halfmoves() >= 100 {
            return plies;
        }
        let chosen = moves[below(rng, moves.len())];
        position.play_unchecked(chosen);
        plies += 1;
    }
}

/// Nanoseconds the calling thread has spent on a CPU, from `/proc/thread-self/schedstat` (its
/// first field). The kernel brings it up to date at every scheduler tick and context switch, so it
/// is exact to a tick (4 ms here): the benchmarks take samples of half a second and more.
fn on_cpu_nanos() -> u64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat")
        .expect("the bench reads /proc/thread-self/schedstat (Linux)");
    stat.split_whitespace()
        .next()
        .and_then(|field| field.parse().ok())
        .expect("schedstat starts with the time on a CPU in nanoseconds")
}

/// Criterion's measurement of the bench thread's time on a CPU ([`on_cpu_nanos`]), shown as
/// durations like the wall clock's.
struct OnCpuTime;

impl Measurement for OnCpuTime {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        on_cpu_nanos()
    }

    fn end(&self, start: u64) -> u64 {
        on_cpu_nanos().saturating_sub(start)
    }

    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }

    fn zero(&self) -> u64 {
        0
    }

    fn to_f64(&self, nanos: &u64) -> f64 {
        *nanos as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        // Both count nanoseconds: the wall clock's formatter shows them as durations.
        const WALL: &WallTime = &WallTime;
        WALL.formatter()
    }
}

fn versus(c: &mut Criterion<OnCpuTime>) {
    let mut group = c.benchmark_group("versus_chess");
    group.throughput(Throughput::Elements(1));
    // Twenty samples of equal size: each long enough (0.5 s of CPU at the default 10 s) for the
    // tick-exact clock.
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(20);
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut n = 0u64;
    group.bench_function("burraco_hand_4p", |b| {
        b.iter(|| {
            n += 1;
            black_box(random_hand(n, &mut rng))
        })
    });
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    group.bench_function("chess_game", |b| {
        b.iter(|| black_box(random_chess_game(&mut rng)))
    });
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    group.bench_function("chess_game_lean", |b| {
        b.iter(|| black_box(random_chess_game_lean(&mut rng)))
    });
    group.finish();
}

fn main() {
    let mut criterion = Criterion::default()
        .with_measurement(OnCpuTime)
        .measurement_time(std::time::Duration::from_secs(10))
        .configure_from_args();
    versus(&mut criterion);
    criterion.final_summary();
}
