//! The engine against a chess move generator, in one run: random legal four-player Burraco hands
//! per second against shakmaty's random chess games per second, on the same machine in the same
//! minute, so the ratio holds even where the absolute figures drift with the machine's load.
//! The target (issue "A faster engine"): at least twice as many hands as games.
//!
//! - `versus_chess/burraco_hand_4p`: `hand/random_legal_4p` of the `rules` bench (the same seeded
//!   deals and the same random legal player, `random_player/mod.rs`);
//! - `versus_chess/chess_game`: a game from the initial position, each ply a uniformly random legal
//!   move from the same kind of seeded RNG, until checkmate, stalemate, insufficient material or
//!   the fifty-move rule (100 plies without a capture or a pawn move; without it a random game can
//!   wander for thousands of plies).
//!
//! Run: `cargo bench -p burraco-rules --bench versus_chess -- --warm-up-time 2 --measurement-time 10`
//! The ratio is the two throughputs' quotient (hands/s over games/s), printed at the end.

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use shakmaty::{Chess, Position};

mod random_player;

use random_player::{below, random_hand};

/// Plays one random chess game; returns its plies. Each ply generates the legal moves once (an
/// empty list is checkmate or stalemate), which is the cheapest loop shakmaty allows.
fn random_chess_game(rng: &mut ChaCha8Rng) -> u32 {
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

fn versus(c: &mut Criterion) {
    let mut group = c.benchmark_group("versus_chess");
    group.throughput(Throughput::Elements(1));
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
    group.finish();
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    versus(&mut criterion);
    criterion.final_summary();
}
