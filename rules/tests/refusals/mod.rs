//! The refusals of `error.rs` as a whole: stable, distinct codes, and the two variants no input
//! can reach (kept so that the invariants they guard cannot break silently). Each reachable
//! refusal has its test in the module of its rule, through `Table::refused`, which also checks
//! that the refused input left the game exactly as it was.

use std::collections::HashSet;

use burraco_rules::{Config, HandEnd, IllegalAction, MeldError, Preset, Seat};

use crate::support::{DeckBuilder, Table, c};

fn every_variant() -> Vec<IllegalAction> {
    let card = c("7H");
    vec![
        IllegalAction::HandOver,
        IllegalAction::NotSeated { seat: Seat::East },
        IllegalAction::NotYourTurn {
            on_turn: Seat::North,
        },
        IllegalAction::MustTakeFirst,
        IllegalAction::AlreadyTaken,
        IllegalAction::TalloneExhausted,
        IllegalAction::StalloMustDraw,
        IllegalAction::CardNotInHand { card },
        IllegalAction::CardsNotInHand,
        IllegalAction::UnknownMeld { meld: 3 },
        IllegalAction::OpponentsMeld { meld: 0 },
        IllegalAction::DuplicateCombination,
        IllegalAction::Meld(MeldError::NotAMeld),
        IllegalAction::Meld(MeldError::WrongCard { card }),
        IllegalAction::WouldEmptyHand,
        IllegalAction::NoLegalDiscardLeft,
        IllegalAction::DiscardPickedUpCard { card },
        IllegalAction::CloseWithoutPozzetto,
        IllegalAction::CloseWithoutBurraco,
        IllegalAction::CloseWithoutBurracoPulito,
        IllegalAction::CloseWithWild,
        IllegalAction::CloseAfterPilePickup,
        IllegalAction::CloseAfterMultiCardPickup,
        IllegalAction::CloseInFirstRound,
        IllegalAction::TimeOutAlreadyAnnounced,
        IllegalAction::NoMoveClock,
    ]
}

/// RULES.md preamble: a refusal has a clear reason; the wire code of each is distinct.
#[test]
fn every_refusal_has_a_distinct_code_and_a_reason() {
    let all = every_variant();
    let codes: HashSet<&str> = all.iter().map(IllegalAction::code).collect();
    assert_eq!(codes.len(), all.len());
    for e in &all {
        let code = e.code();
        assert!(
            code.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_'),
            "{code}"
        );
        assert!(e.to_string().len() > 10, "{e:?} has no reason");
    }
}

/// `CloseWithoutPozzetto` cannot happen: a hand emptied while the side has no pozzetto takes it
/// (RULES.md 6) instead of closing, by melding or by discarding.
#[test]
fn emptying_the_hand_without_a_pozzetto_takes_it_never_closes() {
    let deck = DeckBuilder::four()
        .hand(Seat::North, "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
        .tallone("5S");
    let mut t = Table::new(Config::of(Preset::Fedibur), &deck);
    t.draw(Seat::North);
    t.open(Seat::North, "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH");
    assert_eq!(t.game.legal_discards(), vec![c("5S")]);
    t.discard(Seat::North, "5S");
    assert!(!t.game.is_over());
    assert_eq!(t.game.hand(Seat::North).len(), 11);
}

/// `TalloneExhausted` cannot happen: the hand ends with the turn that drew the third-to-last
/// card (art. 17), so no one is ever asked to draw from the last two.
#[test]
fn the_last_two_tallone_cards_are_never_offered() {
    let mut t = Table::new(Config::head_to_head(Preset::Fitab), &DeckBuilder::two());
    while !t.game.is_over() {
        let seat = t.on_turn();
        t.draw(seat);
        let Some(burraco_rules::Event::DrewCard { card, .. }) = t.events.last().cloned() else {
            panic!("drew");
        };
        t.act(seat, burraco_rules::Action::Discard { card });
    }
    assert_eq!(
        t.result().map(|(end, _)| end),
        Some(HandEnd::TalloneExhausted)
    );
    assert_eq!(t.game.tallone_len(), 2);
    let seat = t.on_turn().partner();
    assert_eq!(
        t.refused(seat, burraco_rules::Action::Draw),
        IllegalAction::HandOver
    );
}
