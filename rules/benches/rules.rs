//! Benchmarks of the rules crate.
//!
//! - `hand/random_legal_4p`: whole four-player hands, seeded deal and a seeded random legal player
//!   (throughput in hands per second; the target is 20,000 on one core);
//! - `apply/*`: one typical input (a draw, a discard, a pick-up, an opening); the median must stay
//!   under 1 µs;
//! - `openable_melds/*`: the meld enumerator on an 11-card hand; under 5 µs;
//! - `legal_actions/mid_hand`: every legal action in a position with melds on the table.
//!
//! Run: `cargo bench -p burraco-rules --bench rules -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use burraco_rules::meld::openable_melds;
use burraco_rules::{
    Action, Config, DealSource, Game, Hand, Input, Preset, Seat, Seed, parse_cards,
};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

mod random_player;

use random_player::{play_turn, random_hand};

/// A position some turns into a seeded hand, in the middle of a turn, with melds on the table.
fn mid_hand() -> Game {
    for n in 0.. {
        let mut rng = ChaCha8Rng::seed_from_u64(n);
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&n.to_le_bytes());
        let (mut game, _) = Game::new(
            Config::of(Preset::Fitab),
            Seat::West,
            DealSource::Seed(Seed(seed)),
        )
        .expect("deal");
        let mut events = Vec::new();
        while !game.is_over() && game.turns_played() < 24 {
            play_turn(&mut game, &mut rng, &mut events);
        }
        if game.is_over() || game.melds().len() < 3 {
            continue;
        }
        let seat = game.on_turn();
        game.act(seat, &Action::Draw).expect("draw");
        let side = game.side_of(seat);
        if game.melds().iter().any(|(s, _)| *s == side) && !game.legal_attachments().is_empty() {
            return game;
        }
    }
    unreachable!()
}

fn hands(c: &mut Criterion) {
    let mut group = c.benchmark_group("hand");
    group.throughput(Throughput::Elements(1));
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut n = 0u64;
    group.bench_function("random_legal_4p", |b| {
        b.iter(|| {
            n += 1;
            black_box(random_hand(n, &mut rng))
        })
    });
    group.finish();
}

fn apply(c: &mut Criterion) {
    let mut group = c.benchmark_group("apply");
    let (start, _) = Game::new(
        Config::of(Preset::Fitab),
        Seat::West,
        DealSource::Seed(Seed([7; 32])),
    )
    .expect("deal");
    let draw = Input::Act {
        seat: Seat::North,
        action: Action::Draw,
    };
    group.bench_function("draw", |b| {
        b.iter_batched(
            || start.clone(),
            |mut game| {
                let events = game.apply(black_box(&draw)).expect("legal");
                (game, events)
            },
            BatchSize::SmallInput,
        )
    });
    let pick_up = Input::Act {
        seat: Seat::North,
        action: Action::PickUp,
    };
    group.bench_function("pick_up", |b| {
        b.iter_batched(
            || start.clone(),
            |mut game| {
                let events = game.apply(black_box(&pick_up)).expect("legal");
                (game, events)
            },
            BatchSize::SmallInput,
        )
    });
    let mut drawn = start.clone();
    drawn.apply(&draw).expect("legal");
    let card = drawn.legal_discards()[3];
    let discard = Input::Act {
        seat: Seat::North,
        action: Action::Discard { card },
    };
    group.bench_function("discard", |b| {
        b.iter_batched(
            || drawn.clone(),
            |mut game| {
                let events = game.apply(black_box(&discard)).expect("legal");
                (game, events)
            },
            BatchSize::SmallInput,
        )
    });
    let mid = mid_hand();
    let opening = mid
        .legal_openings()
        .into_iter()
        .chain(mid.legal_attachments())
        .next()
        .expect("a play");
    let play = Input::Act {
        seat: mid.on_turn(),
        action: opening,
    };
    group.bench_function("meld", |b| {
        b.iter_batched(
            || mid.clone(),
            |mut game| {
                let events = game.apply(black_box(&play)).expect("legal");
                (game, events)
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn melds(c: &mut Criterion) {
    let mut group = c.benchmark_group("openable_melds");
    let hand = |text: &str| -> Hand { parse_cards(text).expect("cards").into_iter().collect() };
    // A dealt hand: a few pairs and short runs.
    let (dealt, _) = Game::new(
        Config::of(Preset::Fitab),
        Seat::West,
        DealSource::Seed(Seed([7; 32])),
    )
    .expect("deal");
    let dealt = dealt.hand(Seat::North).clone();
    group.bench_function("dealt_11", |b| b.iter(|| openable_melds(black_box(&dealt))));
    // A rich hand: runs in two suits, a combination, two wilds.
    let rich = hand("3H 4H 5H 6H 7H 7D 7C 8C 9C JK 2S");
    assert_eq!(rich.len(), 11);
    group.bench_function("rich_11", |b| b.iter(|| openable_melds(black_box(&rich))));
    group.finish();
}

fn actions(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_actions");
    let mid = mid_hand();
    group.bench_function("mid_hand", |b| b.iter(|| black_box(&mid).legal_actions()));
    group.finish();
}

criterion_group!(benches, hands, apply, melds, actions);
criterion_main!(benches);
