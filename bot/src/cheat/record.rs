//! A hand played in process by honest bots and cheaters, into its complete record, each input
//! timed by a simulated clock.

use burraco_protocol::record::{HandRecord, RecordOutcome};
use burraco_rules::{Card, Config, DealSource, Game, Seat, SeatKnowledge, Seed};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use super::{Cheater, Table};
use crate::arena::ArenaError;
use crate::strategy::{Decision, Strategy};

/// The shortest honest think time, in milliseconds.
pub const THINK_MIN_MS: u64 = 400;
/// The width of the honest think times: uniform over `THINK_MIN_MS..THINK_MIN_MS + THINK_SPAN_MS`.
pub const THINK_SPAN_MS: u64 = 2_400;

/// An honest player's time over one action: uniform, whatever the action, so time says nothing.
pub(super) fn honest_think_ms(rng: &mut impl Rng) -> u64 {
    THINK_MIN_MS + rng.next_u64() % THINK_SPAN_MS
}

/// Mixed into the hand's seed for the clock's generator, so the times never shift the draws the
/// strategies see (and a hand plays the same with or without a timing cheat at the table).
const CLOCK_SALT: u64 = 0xC10C_C10C_C10C_C10C;

/// Who plays a seat in [`play_recorded_hand`].
#[derive(Debug)]
pub enum Player {
    Honest(Box<dyn Strategy>),
    Cheater(Cheater),
}

/// Plays one hand in process, every seat by its `players` entry (indexed by [`Seat::index`]),
/// named `names[i]` in the record, and returns its complete record (outcome and final hands
/// included, every input with its `at_ms`). `rng_seed` fixes the determinizations the
/// strategies see and the simulated think times.
pub fn play_recorded_hand(
    config: Config,
    dealer: Seat,
    seed: Seed,
    players: &mut [Player; 4],
    names: &[String; 4],
    rng_seed: u64,
) -> Result<HandRecord, ArenaError> {
    let source = DealSource::Seed(seed);
    let (mut game, events) =
        Game::new(config, dealer, source.clone()).map_err(|e| ArenaError::Deal(e.to_string()))?;
    let seated = config.players().seats();
    let mut record = HandRecord::new(
        &config,
        seated.iter().map(|s| (*s, names[s.index()].clone())),
        dealer,
        &source,
    );
    let mut know: Vec<SeatKnowledge> = Seat::ALL
        .iter()
        .map(|&s| SeatKnowledge::new(config, s))
        .collect();
    for k in &mut know {
        events.iter().for_each(|e| k.observe(e));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(rng_seed);
    let mut clock = ChaCha8Rng::seed_from_u64(rng_seed ^ CLOCK_SALT);
    let mut now_ms: u64 = 0;
    const MAX_ACTIONS: usize = 5000;
    for _ in 0..MAX_ACTIONS {
        if let Some((end, score)) = game.result() {
            let hands: Vec<(Seat, Vec<Card>)> =
                seated.iter().map(|&s| (s, game.hand(s).to_vec())).collect();
            record.finish(RecordOutcome::new(
                config.players(),
                end,
                score,
                Some(&hands),
            ));
            return Ok(record);
        }
        let seat = game.on_turn();
        let legal = game.legal_actions();
        let k = &know[seat.index()];
        let world = k.determinize(&mut rng)?;
        let decision = Decision {
            knowledge: k,
            legal: &legal,
            world: &world,
        };
        let player = &mut players[seat.index()];
        let chosen = match player {
            Player::Honest(s) => s.choose(&decision),
            Player::Cheater(c) => c.choose(
                &decision,
                &Table {
                    truth: &game,
                    inputs: &record.inputs,
                },
            ),
        };
        let action = if legal.contains(&chosen) {
            chosen
        } else {
            legal[0].clone()
        };
        now_ms += match player {
            Player::Honest(_) => honest_think_ms(&mut clock),
            Player::Cheater(c) => c.think_ms(k, &action, &mut clock),
        };
        let input = burraco_rules::Input::Act {
            seat,
            action: action.clone(),
        };
        let events = game.act(seat, &action).expect("a legal action is accepted");
        record.push(&input, Some(now_ms));
        for k in &mut know {
            events.iter().for_each(|e| k.observe(e));
        }
    }
    Err(ArenaError::Runaway(MAX_ACTIONS))
}
