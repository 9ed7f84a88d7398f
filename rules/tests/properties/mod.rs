//! Invariants over many random hands, all presets, four players and head to head:
//! - a random legal player always finishes the hand, within a bound (RULES.md 8 makes every hand
//!   finite: the tallone only shrinks and runs of card exchanges are cut by the stallo);
//! - the 108 cards are always all somewhere: hands, melds, pile, tallone, untaken pozzetti;
//! - every enumerated action is accepted, and the discard list is exactly the accepted discards;
//! - arbitrary (mostly illegal) inputs never panic, and a refused one changes nothing;
//! - `check` then `play`, and `act_into` into a buffer already in use, do what `apply` does;
//! - no view shows a party a card it may not see, and every event with hidden cards is private.

use burraco_rules::{
    Action, Card, Config, DealSource, Event, Game, HandEnd, Input, Phase, Players, Preset, Seat,
    Seed, canonical_deck,
};
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use crate::support::sorted;
use crate::views::{check_all_views, check_events};

fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

fn config(preset: usize, four: bool) -> Config {
    let preset = Preset::ALL[preset];
    if four {
        Config::of(preset)
    } else {
        Config::head_to_head(preset)
    }
}

/// Turns a hand can last: between two draws there is at most one pick-up of a larger pile and
/// then at most `2 * players + 1` card exchanges before a stallo ends the run (RULES.md 8).
fn turn_bound(game: &Game) -> u32 {
    let players = game.players().count() as u32;
    let tallone = 108 - 22 - 11 * players;
    tallone * (2 * players + 3)
}

/// RULES.md 3: the 108 cards are all accounted for, none twice.
fn check_cards(game: &Game) {
    let mut all: Vec<Card> = Vec::with_capacity(108);
    for &seat in game.players().seats() {
        all.extend(game.hand(seat).cards());
    }
    for (_, meld) in game.melds() {
        all.extend_from_slice(meld.cards());
    }
    all.extend_from_slice(game.pile());
    all.extend(game.tallone_top_first());
    for pozzetto in [burraco_rules::PozzettoId::A, burraco_rules::PozzettoId::B] {
        all.extend_from_slice(game.pozzetto_cards(pozzetto));
    }
    assert_eq!(
        sorted(all),
        sorted(canonical_deck().to_vec()),
        "cards lost or made up"
    );
    for &seat in Seat::ALL.iter().filter(|s| !game.players().is_seated(**s)) {
        assert!(game.hand(seat).is_empty());
    }
}

/// How a random legal player leans once it has taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lean {
    /// With probability 1/2 a uniform choice among the legal discards, otherwise a uniform choice
    /// among all legal actions (openings, attachments and discards).
    Discard,
    /// With probability 7/8 a uniform choice among the legal openings and attachments when there
    /// are any, otherwise a uniform choice among the legal discards: this player reaches the
    /// pozzetto and closes far more often.
    Meld,
}

/// The random legal player: before taking, a uniform choice among the legal takes; after, as its
/// [`Lean`] says.
fn choose(game: &Game, rng: &mut ChaCha8Rng, lean: Lean) -> Action {
    let actions = match (game.phase(), lean) {
        (Phase::Play, Lean::Discard) if below(rng, 2) == 0 => game.legal_discard_actions(),
        (Phase::Play, Lean::Meld) => {
            let mut plays = game.legal_openings();
            plays.extend(game.legal_attachments());
            if plays.is_empty() || below(rng, 8) == 0 {
                game.legal_discard_actions()
            } else {
                plays
            }
        }
        _ => game.legal_actions(),
    };
    assert!(!actions.is_empty(), "no legal action in {:?}", game.phase());
    actions[below(rng, actions.len())].clone()
}

/// Every enumerated action is accepted; a discard is accepted exactly when it is listed.
fn check_enumerators(game: &Game) {
    let seat = game.on_turn();
    let actions = game.legal_actions();
    for action in &actions {
        let mut copy = game.clone();
        if let Err(e) = copy.act(seat, action) {
            panic!("enumerated {action:?} refused: {e}");
        }
    }
    let listed = game.legal_discards();
    for card in game.hand(seat).faces() {
        let accepted = game.clone().act(seat, &Action::Discard { card }).is_ok();
        assert_eq!(
            accepted,
            listed.contains(&card),
            "discard {card}: listed {listed:?}"
        );
    }
    // `legal_attachments` skips melds cheaply when nothing can fit: it must still list every
    // attachment the meld enumerator finds and the game accepts.
    if game.phase() == Phase::Play {
        let side = game.side_of(seat);
        let mut expected = Vec::new();
        for (id, (s, meld)) in game.melds().iter().enumerate() {
            if *s != side {
                continue;
            }
            for a in burraco_rules::meld::attachments(meld, game.hand(seat)) {
                let action = Action::Attach {
                    meld: id as u8,
                    cards: a.cards.to_vec(),
                    wild_at: a.wild_at,
                };
                if game.clone().act(seat, &action).is_ok() {
                    expected.push(action);
                }
            }
        }
        assert_eq!(
            game.legal_attachments(),
            expected,
            "legal_attachments is incomplete"
        );
        let openings: Vec<Action> = burraco_rules::meld::openable_melds(game.hand(seat))
            .into_iter()
            .map(|m| Action::Open {
                cards: m.cards().to_vec(),
                wild_at: m.wild_position(),
            })
            .filter(|action| game.clone().act(seat, action).is_ok())
            .collect();
        assert_eq!(
            game.legal_openings(),
            openings,
            "legal_openings is incomplete"
        );
    }
    let takes = game.legal_takes();
    for take in [Action::Draw, Action::PickUp] {
        let accepted = game.clone().act(seat, &take).is_ok();
        assert_eq!(accepted, takes.contains(&take), "{take:?}");
    }
}

/// Applies an input that must be accepted, checking the events and the cards.
fn apply_checked(game: &mut Game, input: &Input) -> Vec<Event> {
    let before = game.clone();
    let events = game
        .apply(input)
        .unwrap_or_else(|e| panic!("{input:?} refused: {e}"));
    check_events(&before, game, &events);
    check_cards(game);
    events
}

/// Plays one hand with the random legal player, checking everything after every input.
fn play_checked(game: &mut Game, rng: &mut ChaCha8Rng, lean: Lean, full_checks: bool) {
    let bound = turn_bound(game);
    let mut inputs = 0u32;
    while !game.is_over() {
        inputs += 1;
        assert!(inputs < 20 * bound, "too many inputs");
        assert!(
            game.turns_played() <= bound,
            "the hand does not end: {} turns",
            game.turns_played()
        );
        if full_checks {
            check_enumerators(game);
            check_all_views(game);
        }
        let action = choose(game, rng, lean);
        let input = Input::Act {
            seat: game.on_turn(),
            action,
        };
        apply_checked(game, &input);
    }
    check_all_views(game);
    let (end, score) = game.result().expect("over");
    for side in &score.sides {
        assert_eq!(
            side.total(),
            side.melded + side.burraco_bonus() + side.closing + side.in_hand + side.pozzetto
        );
    }
    let closed = matches!(end, HandEnd::Closed { .. });
    assert_eq!(
        score.sides.iter().filter(|s| s.closing == 100).count(),
        usize::from(closed)
    );
    if let HandEnd::Closed { seat } = end {
        assert!(game.hand(seat).is_empty());
    }
    if end == HandEnd::TalloneExhausted {
        assert_eq!(game.tallone_len(), 2);
    }
}

fn deal(seed: [u8; 32], preset: usize, four: bool, dealer: usize) -> Game {
    let config = config(preset, four);
    let seats = config.players().seats();
    let dealer = seats[dealer % seats.len()];
    let (game, events) = Game::new(config, dealer, DealSource::Seed(Seed(seed))).expect("deal");
    check_events(&game, &game, &events);
    check_cards(&game);
    game
}

/// An arbitrary input: any seat (seated or not), any action, cards mostly from the hand of the
/// seat on turn so that some get past the first checks, meld ids and wild positions out of range.
fn arbitrary_input(game: &Game, rng: &mut ChaCha8Rng) -> Input {
    match below(rng, 60) {
        0 => return Input::ClockExpired,
        1 => return Input::TimeOut,
        _ => {}
    }
    let seat = if below(rng, 4) == 0 {
        Seat::ALL[below(rng, 4)]
    } else {
        game.on_turn()
    };
    let hand: Vec<Card> = game.hand(game.on_turn()).cards().collect();
    let card = |rng: &mut ChaCha8Rng| {
        if !hand.is_empty() && below(rng, 4) != 0 {
            hand[below(rng, hand.len())]
        } else {
            Card::from_index(below(rng, Card::FACES)).expect("face")
        }
    };
    let cards = |rng: &mut ChaCha8Rng| {
        let n = below(rng, 8);
        (0..n).map(|_| card(rng)).collect::<Vec<_>>()
    };
    let wild_at = |rng: &mut ChaCha8Rng| (below(rng, 3) == 0).then(|| below(rng, 17) as u8);
    let action = match below(rng, 5) {
        0 => Action::Draw,
        1 => Action::PickUp,
        2 => Action::Open {
            cards: cards(rng),
            wild_at: wild_at(rng),
        },
        3 => Action::Attach {
            meld: below(rng, game.melds().len() + 2) as u8,
            cards: cards(rng),
            wild_at: wild_at(rng),
        },
        _ => Action::Discard { card: card(rng) },
    };
    Input::Act { seat, action }
}

/// Half the hands are played by each kind of player.
fn lean(policy: u64) -> Lean {
    if policy.is_multiple_of(2) {
        Lean::Meld
    } else {
        Lean::Discard
    }
}

fn seed_strategy() -> impl Strategy<Value = [u8; 32]> {
    any::<[u8; 32]>()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6000, failure_persistence: None, ..ProptestConfig::default() })]

    /// A random legal player finishes every hand; cards, events and views stay sound throughout.
    #[test]
    fn random_legal_hands_end_with_every_invariant_kept(
        seed in seed_strategy(),
        policy in any::<u64>(),
        preset in 0usize..3,
        four in any::<bool>(),
        dealer in 0usize..4,
    ) {
        let mut game = deal(seed, preset, four, dealer);
        let mut rng = ChaCha8Rng::seed_from_u64(policy);
        play_checked(&mut game, &mut rng, lean(policy), false);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 800, failure_persistence: None, ..ProptestConfig::default() })]

    /// The same, checking at every step that each enumerated action is accepted and every view
    /// of every party is sound.
    #[test]
    fn every_enumerated_action_is_accepted(
        seed in seed_strategy(),
        policy in any::<u64>(),
        preset in 0usize..3,
        four in any::<bool>(),
    ) {
        let mut game = deal(seed, preset, four, 0);
        let mut rng = ChaCha8Rng::seed_from_u64(policy);
        play_checked(&mut game, &mut rng, lean(policy), true);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Arbitrary inputs between legal moves: never a panic; a refusal leaves the game exactly as
    /// it was; an acceptance keeps cards, events and views sound.
    #[test]
    fn arbitrary_inputs_never_panic_and_refusals_change_nothing(
        seed in seed_strategy(),
        policy in any::<u64>(),
        preset in 0usize..3,
        four in any::<bool>(),
    ) {
        let mut game = deal(seed, preset, four, 1);
        let mut rng = ChaCha8Rng::seed_from_u64(policy);
        let mut steps = 0;

        while !game.is_over() {
            steps += 1;
            prop_assert!(steps < 20_000);
            if below(&mut rng, 3) == 0 {
                let action = choose(&game, &mut rng, Lean::Discard);
                let input = Input::Act { seat: game.on_turn(), action };
                apply_checked(&mut game, &input);
                continue;
            }
            for _ in 0..4 {
                let input = arbitrary_input(&game, &mut rng);
                let before = game.clone();
                // `check` never changes the game and agrees with `apply`, and `play` of what it
                // accepted does what `apply` does.
                let checked = game.check(&input);
                prop_assert_eq!(&game, &before, "check changed the game");
                if let Ok(checked) = &checked {
                    let mut by_play = game.clone();
                    let played = by_play.play(checked.clone());
                    let mut by_apply = game.clone();
                    prop_assert_eq!(played, by_apply.apply(&input));
                    prop_assert_eq!(&by_play, &by_apply);
                }
                // `act_into` does what `apply` does, appending to a buffer that already holds
                // events; a refusal leaves the buffer as it was too.
                if let Input::Act { seat, action } = &input {
                    let mut by_act = game.clone();
                    let earlier = Event::Drew { seat: *seat };
                    let mut events = vec![earlier.clone()];
                    let acted = by_act.act_into(*seat, action, &mut events);
                    let mut by_apply = game.clone();
                    match by_apply.apply(&input) {
                        Ok(applied) => {
                            prop_assert_eq!(acted, Ok(()));
                            prop_assert_eq!(&events[0], &earlier);
                            prop_assert_eq!(&events[1..], &applied[..]);
                        }
                        Err(e) => {
                            prop_assert_eq!(acted, Err(e));
                            prop_assert_eq!(&events, &vec![earlier]);
                        }
                    }
                    prop_assert_eq!(&by_act, &by_apply);
                }
                match game.apply(&input) {
                    Ok(events) => {
                        check_events(&before, &game, &events);
                        check_cards(&game);
                        check_all_views(&game);
                    }
                    Err(e) => {
                        prop_assert_eq!(&game, &before, "refused {:?} ({}) changed the game", input, e);
                        prop_assert!(!e.to_string().is_empty() && !e.code().is_empty());
                    }
                }
                if game.is_over() {
                    break;
                }
            }
        }
        let after_end = game.clone();
        let input = arbitrary_input(&game, &mut rng);
        prop_assert!(game.check(&input).is_err());
        prop_assert!(game.apply(&input).is_err());
        prop_assert_eq!(game, after_end);
    }
}

/// Head to head and four players, all presets: seats not at the table never hold cards and the
/// views of unseated seats never show a hand (a quick deterministic sweep of seeds).
#[test]
fn deterministic_sweep_of_seeds() {
    for k in 0u8..12 {
        for preset in 0..3 {
            for four in [true, false] {
                let mut game = deal([k; 32], preset, four, usize::from(k));
                let mut rng = ChaCha8Rng::seed_from_u64(u64::from(k) * 7 + preset as u64);
                play_checked(
                    &mut game,
                    &mut rng,
                    if k % 2 == 0 {
                        Lean::Meld
                    } else {
                        Lean::Discard
                    },
                    false,
                );
                if game.players() == Players::Two {
                    assert!(
                        game.view(burraco_rules::Viewer::Seat(Seat::East))
                            .hand
                            .is_none()
                    );
                }
            }
        }
    }
}
