//! The seeded random legal player shared by the benches (`rules.rs`, `versus_chess.rs`): both
//! measure the same hands.

use burraco_rules::meld::{attachments, openable_melds};
use burraco_rules::{Action, Config, DealSource, Event, Game, MeldId, Phase, Preset, Seat, Seed};
use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

pub fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
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
///   tried in uniformly random order, and the first one the game accepts is played (a candidate
///   is a valid meld, which the game may still refuse by art. 31 or for leaving no legal discard;
///   a refusal changes nothing); then the coin again. With no accepted candidate it discards as
///   on heads.
///
/// Every action goes through `Game::act_into` (the whole validation of `Game::act`), its events
/// into `events`, which the player clears and reuses as a search's playouts would.
///
/// Every action it plays is one of `legal_actions`, chosen at random. Enumerating only one
/// target per decision, and converting only the chosen candidate into an `Action`, is what keeps
/// it cheap: the full `legal_openings` + `legal_attachments` on every decision costs about twice
/// as much per hand.
pub fn play_turn(game: &mut Game, rng: &mut ChaCha8Rng, events: &mut Vec<Event>) {
    let seat = game.on_turn();
    if game.phase() == Phase::Take {
        let takes = game.legal_takes();
        let take = &takes[below(rng, takes.len())];
        events.clear();
        game.act_into(seat, take, events).expect("legal take");
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
                    events.clear();
                    if game.act_into(seat, &open, events).is_ok() {
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
                        cards: a.cards.to_vec(),
                        wild_at: a.wild_at,
                    };
                    events.clear();
                    if game.act_into(seat, &attach, events).is_ok() {
                        continue 'decision;
                    }
                }
            }
        }
        let discards = game.legal_discards();
        let card = discards[below(rng, discards.len())];
        events.clear();
        game.act_into(seat, &Action::Discard { card }, events)
            .expect("legal discard");
    }
}

/// Deals hand number `n` and plays it to the end; returns the turns played.
pub fn random_hand(n: u64, rng: &mut ChaCha8Rng) -> u32 {
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&n.to_le_bytes());
    let (mut game, _) = Game::new(
        Config::of(Preset::Fitab),
        Seat::ALL[(n % 4) as usize],
        DealSource::Seed(Seed(seed)),
    )
    .expect("deal");
    let mut events = Vec::new();
    while !game.is_over() {
        play_turn(&mut game, rng, &mut events);
    }
    game.turns_played()
}
