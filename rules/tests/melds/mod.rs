//! RULES.md sections 4.2 and 5 through `Game::apply`: opening and attaching, whose melds a seat may
//! touch, art. 31's one combination per rank, wild placement requests. The shapes themselves are
//! tested in `meld.rs`; here it is what the game does with them.

use burraco_rules::{
    Action, Config, Event, IllegalAction, MeldError, MeldShape, Preset, Rank, Seat, Side, Suit,
};

use crate::support::{DeckBuilder, Table, attach, c, cs, open};

const N: Seat = Seat::North;
const E: Seat = Seat::East;
const S: Seat = Seat::South;

fn fitab(deck: &DeckBuilder) -> Table {
    Table::new(Config::of(Preset::Fitab), deck)
}

/// RULES.md 4.2: a seat opens melds from its hand, any number in a turn, in public.
#[test]
fn open_moves_cards_from_hand_to_a_new_meld_of_the_side() {
    let deck = DeckBuilder::four()
        .hand(N, "7H 7D 7C 3S 4S 5S 9D 9C JD QD KC")
        .tallone("6S");
    let mut t = fitab(&deck);
    t.draw(N);
    let events = t.open(N, "7H 7D 7C");
    let Event::Opened {
        seat,
        meld,
        cards,
        result,
    } = &events[0]
    else {
        panic!("expected Opened: {events:?}");
    };
    assert_eq!((*seat, *meld, cards.clone()), (N, 0, cs("7H 7D 7C")));
    assert_eq!(result.shape(), MeldShape::Combination { rank: Rank::Seven });
    assert_eq!(events[0].private_to(), None);
    t.open(N, "3S 4S 5S 6S");
    assert_eq!(t.game.melds().len(), 2);
    assert!(
        t.game
            .melds()
            .iter()
            .all(|(side, _)| *side == Side::NorthSouth)
    );
    assert_eq!(
        t.game.melds()[1].1.shape(),
        MeldShape::Sequence { suit: Suit::Spades }
    );
    assert_eq!(t.game.hand(N).len(), 12 - 7);
}

/// RULES.md 4.2: attach to a meld of one's own side, the partner's included.
#[test]
fn attach_to_own_and_partners_melds() {
    let deck = DeckBuilder::four()
        .hand(N, "7H 7D 7C 9S")
        .hand(S, "7S 8H 9H")
        .tallone("6H 3C 4C");
    let mut t = fitab(&deck);
    t.draw(N);
    t.open(N, "7H 7D 7C");
    t.discard(N, "9S");
    t.pass(); // E
    t.draw(S);
    let events = t.attach(S, 0, "7S");
    let Event::Attached {
        seat, meld, result, ..
    } = &events[0]
    else {
        panic!("expected Attached: {events:?}");
    };
    assert_eq!((*seat, *meld, result.len()), (S, 0, 4));
    assert_eq!(t.game.melds()[0].1.len(), 4);
}

/// RULES.md 4.2: never to the opponents' melds; a meld that does not exist is refused too.
#[test]
fn refusal_opponents_meld_and_unknown_meld() {
    let deck = DeckBuilder::four()
        .hand(N, "7H 7D 7C 9S")
        .hand(E, "7S 8S 9S")
        .tallone("6H 3C");
    let mut t = fitab(&deck);
    t.draw(N);
    t.open(N, "7H 7D 7C");
    t.discard(N, "9S");
    t.draw(E);
    assert_eq!(
        t.refused(E, attach(0, "7S")),
        IllegalAction::OpponentsMeld { meld: 0 }
    );
    assert_eq!(
        t.refused(E, attach(1, "7S")),
        IllegalAction::UnknownMeld { meld: 1 }
    );
}

/// Art. 31: a side may not hold two combinations of the same rank; the other side may.
#[test]
fn refusal_duplicate_combination_rank() {
    let deck = DeckBuilder::four()
        .hand(N, "7H 7D 7C 9S")
        .hand(E, "7S 7D 7C")
        .hand(S, "7H 7S JK 3D")
        .tallone("6H 3C 4C");
    let mut t = fitab(&deck);
    t.draw(N);
    t.open(N, "7H 7D 7C");
    t.discard(N, "9S");
    t.draw(E);
    t.open(E, "7S 7D 7C"); // the opponents' sevens are theirs
    t.discard(E, "3C");
    t.draw(S);
    assert_eq!(
        t.refused(S, open("7H 7S JK")),
        IllegalAction::DuplicateCombination
    );
    // The same cards may go onto the existing combination instead.
    t.attach(S, 0, "7H 7S JK");
    assert_eq!(t.game.melds()[0].1.len(), 6);
}

/// RULES.md 5: identical sequences are allowed (art. 31 speaks of combinations).
#[test]
fn identical_sequences_are_allowed() {
    let deck = DeckBuilder::four()
        .hand(N, "3H 4H 5H 9S")
        .hand(S, "3H 4H 5H 9S")
        .tallone("6C 3C 4C");
    let mut t = fitab(&deck);
    t.draw(N);
    t.open(N, "3H 4H 5H");
    t.discard(N, "9S");
    t.pass();
    t.draw(S);
    t.open(S, "3H 4H 5H");
    assert_eq!(t.game.melds().len(), 2);
    assert_eq!(t.game.melds()[0], t.game.melds()[1]);
}

/// RULES.md 5: an invalid meld is refused with the meld rule, and nothing changes.
#[test]
fn refusal_invalid_melds_name_the_meld_rule() {
    let deck = DeckBuilder::four()
        .hand(N, "5H 6D 7H 2C 2D 5S 5D 9S JK")
        .tallone("QS");
    let mut t = fitab(&deck);
    t.draw(N);
    assert_eq!(
        t.refused(N, open("5H 6D 7H")),
        IllegalAction::Meld(MeldError::NotAMeld)
    );
    assert_eq!(
        t.refused(N, open("5H 6D")),
        IllegalAction::Meld(MeldError::TooFewCards)
    );
    assert_eq!(
        t.refused(N, open("5S 5D 2C 2D")),
        IllegalAction::Meld(MeldError::TooManyWilds)
    );
    assert_eq!(
        t.refused(N, open("2C 2D JK")),
        IllegalAction::Meld(MeldError::CombinationOfWilds)
    );
    t.open(N, "5S 5D 2C");
    assert_eq!(
        t.refused(N, attach(0, "JK")),
        IllegalAction::Meld(MeldError::TooManyWilds)
    );
    assert_eq!(
        t.refused(N, attach(0, "9S")),
        IllegalAction::Meld(MeldError::WrongCard { card: c("9S") })
    );
}

/// RULES.md 5, wild placement: a bound wild freed by its natural card must be placed by the
/// player when both ends are valid; the request names the position.
#[test]
fn freed_wild_position_is_named_by_the_request() {
    let deck = DeckBuilder::four()
        .hand(N, "5H JK 7H 9S")
        .hand(S, "6H 3D")
        .tallone("QS QD 4C");
    let mut t = fitab(&deck);
    t.draw(N);
    let events = t.open(N, "5H JK 7H");
    let Event::Opened { result, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(result.wild_position(), Some(6));
    assert!(result.wild_is_bound());
    t.discard(N, "9S");
    t.pass();
    t.draw(S);
    let err = t.refused(S, attach(0, "6H"));
    assert_eq!(
        err,
        IllegalAction::Meld(MeldError::WildPositionAmbiguous {
            options: vec![4, 8]
        })
    );
    t.act(
        S,
        Action::Attach {
            meld: 0,
            cards: cs("6H"),
            wild_at: Some(8),
        },
    );
    let meld = t.game.melds()[0].1;
    assert_eq!(meld.cards(), &cs("5H 6H 7H JK")[..]);
    assert_eq!(meld.wild_position(), Some(8));
}

/// RULES.md 5: a free wild at an end needs no position in the request: opened or attached to, it
/// sits at the low end, and at the high end when the low end is impossible (an ace low below the
/// natural 2).
#[test]
fn unnamed_free_wild_sits_low_else_high() {
    let deck = DeckBuilder::four()
        .hand(N, "5H 6H JK AS 2S 3S 4S JK 9D 9C QD")
        .tallone("KC");
    let mut t = fitab(&deck);
    t.draw(N);
    let events = t.open(N, "5H 6H JK");
    let Event::Opened { result, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(result.cards(), &cs("JK 5H 6H")[..]);
    assert!(!result.wild_is_bound());
    t.open(N, "AS 2S 3S 4S");
    let events = t.attach(N, 1, "JK");
    let Event::Attached { result, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(result.cards(), &cs("AS 2S 3S 4S JK")[..]);
    assert_eq!(result.wild_position(), Some(5));
}
