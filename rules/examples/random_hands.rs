//! Plays a fixed number of the benches' random legal four-player hands and prints the turns they
//! took: a fixed amount of work, for comparing two builds of the engine by CPU time where the
//! benchmarks' per-second figures drift with the machine's load (docs/PERFORMANCE.md, "Engine").
//!
//! Run: `cargo build -p burraco-rules --release --example random_hands` then
//! `/usr/bin/time -f %U target/release/examples/random_hands 15000`. The same count plays the
//! same hands in any build (the turns printed must agree).

#[path = "../benches/random_player/mod.rs"]
mod random_player;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

fn main() {
    let hands: u64 = std::env::args()
        .nth(1)
        .and_then(|count| count.parse().ok())
        .unwrap_or(3000);
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let turns: u64 = (1..=hands)
        .map(|n| u64::from(random_player::random_hand(n, &mut rng)))
        .sum();
    println!("{hands} hands, {turns} turns");
}
