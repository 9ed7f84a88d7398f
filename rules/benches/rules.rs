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

use burraco_rules::meld::{attachments, openable_melds};
use burraco_rules::{
    Action, Config, DealSource, Game, Hand, Input, MeldId, Phase, Preset, Seat, Seed, parse_cards,
};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// One turn of the random legal player used for throughput.
///
/// Before taking: a uniform choice among the legal takes (`legal_takes`: draw, or pick up the
/// pile). After taking, repeatedly a fair coin:
/// - heads: a uniformly random card among the legal discards (`legal_discards`), which ends the
///   turn;
/// - tails: a uniformly random target among "a new meld" and each meld of the player's side; the
///   candidate plays for that target come from the crate's public enumerators
///   (`meld::openable_melds` of the hand, or `meld::attachments` of the hand to that meld), are
///   tried in uniformly random order, and the first one `Game::act` accepts is played (a candidate
///   is a valid meld, which the game may still refuse by art. 31 or for leaving no legal discard;
///   a refusal changes nothing); then the coin again. With no accepted candidate it discards as
///   on heads.
///
/// Every action it plays is one of `legal_actions`, chosen at random. Enumerating only one
/// target per decision, and converting only the chosen candidate into an `Action`, is what keeps
/// it cheap: the full `legal_openings` + `legal_attachments` on every decision costs about twice
/// as much per hand.
fn play_turn(game: &mut Game, rng: &mut ChaCha8Rng) {
    let seat = game.on_turn();
    if game.phase() == Phase::Take {
        let takes = game.legal_takes();
        let take = &takes[below(rng, takes.len())];
        game.act(seat, take).expect("legal take");
    }
    'decision: while game.phase() == Phase::Play && game.on_turn() == seat {
        if below(rng, 2) == 1 {
            let side = game.side_of(seat);
            let own = game.melds().iter().filter(|(s, _)| *s == side).count();
            let target = below(rng, own + 1);
            if target == own {
                let mut melds = openable_melds(game.hand(seat));
                while !melds.is_empty() {
                    let meld = melds.swap_remove(below(rng, melds.len()));
                    let open = Action::Open {
                        cards: meld.cards().to_vec(),
                        wild_at: meld.wild_position(),
                    };
                    if game.act(seat, &open).is_ok() {
                        continue 'decision;
                    }
                }
            } else {
                let (id, meld) = game
                    .melds()
                    .iter()
                    .enumerate()
                    .filter(|(_, (s, _))| *s == side)
                    .nth(target)
                    .map(|(id, (_, meld))| (id as MeldId, *meld))
                    .expect("an own meld");
                let mut candidates = attachments(&meld, game.hand(seat));
                while !candidates.is_empty() {
                    let a = candidates.swap_remove(below(rng, candidates.len()));
                    let attach = Action::Attach {
                        meld: id,
                        cards: a.cards,
                        wild_at: a.wild_at,
                    };
                    if game.act(seat, &attach).is_ok() {
                        continue 'decision;
                    }
                }
            }
        }
        let discards = game.legal_discards();
        let card = discards[below(rng, discards.len())];
        game.act(seat, &Action::Discard { card })
            .expect("legal discard");
    }
}

/// Deals hand number `n` and plays it to the end; returns the turns played.
fn random_hand(n: u64, rng: &mut ChaCha8Rng) -> u32 {
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&n.to_le_bytes());
    let (mut game, _) = Game::new(
        Config::of(Preset::Fitab),
        Seat::ALL[(n % 4) as usize],
        DealSource::Seed(Seed(seed)),
    )
    .expect("deal");
    while !game.is_over() {
        play_turn(&mut game, rng);
    }
    game.turns_played()
}

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
        while !game.is_over() && game.turns_played() < 24 {
            play_turn(&mut game, &mut rng);
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
