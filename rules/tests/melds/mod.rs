//! RULES.md sections 4.2 and 5 through `Game::apply`: opening and attaching, whose melds a seat may
//! touch, art. 31's one combination per rank, wild placement requests. The shapes themselves are
//! tested in `meld.rs`; here it is what the game does with them.

use burraco_rules::{
    Action, BurracoKind, Config, Event, IllegalAction, Meld, MeldError, MeldShape, Preset, Rank,
    Seat, Side, Suit,
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

// ---------------------------------------------------------------------------------------------
// RULES.md 5, sentence by sentence, on the meld itself (`Meld::open` / `Meld::attach` are what
// `Game::apply` calls for an opening or an attachment).

fn open_cards(codes: &str, wild_at: Option<u8>) -> Result<Meld, MeldError> {
    Meld::open(&cs(codes), wild_at)
}

fn meld(codes: &str, wild_at: Option<u8>) -> Meld {
    open_cards(codes, wild_at).unwrap_or_else(|e| panic!("{codes} is a meld: {e}"))
}

fn attach_cards(meld: &Meld, codes: &str, wild_at: Option<u8>) -> Result<Meld, MeldError> {
    meld.attach(&cs(codes), wild_at)
}

fn codes(meld: &Meld) -> String {
    let codes: Vec<String> = meld.cards().iter().map(ToString::to_string).collect();
    codes.join(" ")
}

fn kind(meld: &Meld) -> Option<BurracoKind> {
    meld.burraco_kind(true)
}

/// RULES.md 5: a combination is 3 to 9 cards of the same rank, A or 3..K, suits may repeat.
#[test]
fn a_combination_is_3_to_9_cards_of_one_rank_ace_or_3_to_king_suits_may_repeat() {
    let three = meld("7H 7D 7C", None);
    assert_eq!(three.shape(), MeldShape::Combination { rank: Rank::Seven });
    assert_eq!(open_cards("7H 7D", None), Err(MeldError::TooFewCards));
    let aces = meld("AH AD AS", None);
    assert_eq!(aces.shape(), MeldShape::Combination { rank: Rank::Ace });
    let kings = meld("KH KH KD", None);
    assert_eq!(kings.shape(), MeldShape::Combination { rank: Rank::King });
    let nine = meld("7H 7H 7D 7D 7C 7C 7S 7S JK", None);
    assert_eq!(nine.len(), 9);
    assert_eq!(
        open_cards("7H 7H 7D 7D 7C 7C 7S 7S 7S JK", None),
        Err(MeldError::CombinationTooLong)
    );
    assert_eq!(
        attach_cards(&nine, "7H", None),
        Err(MeldError::CombinationTooLong)
    );
    let eight = meld("7H 7H 7D 7D 7C 7C 7S 7S", None);
    assert_eq!(attach_cards(&eight, "JK", None).map(|m| m.len()), Ok(9));
}

/// RULES.md 5 and 13: a combination is never of 2s or jokers (2s are always wild in a combination).
#[test]
fn a_combination_of_2s_or_jokers_does_not_exist() {
    for cards in [
        "2H 2D 2C",
        "2H 2H 2H",
        "JK JK JK",
        "2S 2S JK",
        "2H 2H 2D 2D JK",
    ] {
        assert_eq!(
            open_cards(cards, None),
            Err(MeldError::CombinationOfWilds),
            "{cards}"
        );
    }
}

/// RULES.md 5: a combination holds at most one wild and at least two natural cards.
#[test]
fn a_combination_holds_at_most_one_wild_and_at_least_two_naturals() {
    let dirty = meld("9H 9D JK", None);
    assert_eq!(dirty.wild_card(), Some(c("JK")));
    assert_eq!(meld("9H 9D 2C", None).wild_card(), Some(c("2C")));
    assert_eq!(open_cards("9H JK 2C", None), Err(MeldError::TooFewNaturals));
    assert_eq!(
        open_cards("9H 9D 9C JK 2C", None),
        Err(MeldError::TooManyWilds)
    );
    // Two 2s of one suit are two wilds in a combination.
    assert_eq!(
        open_cards("9H 9D 2H 2H", None),
        Err(MeldError::TooManyWilds)
    );
    assert_eq!(
        attach_cards(&dirty, "9C 2S", None),
        Err(MeldError::TooManyWilds)
    );
    assert_eq!(attach_cards(&dirty, "9C 9S", None).map(|m| m.len()), Ok(5));
}

/// RULES.md 5: a sequence is 3 to 14 cards of one suit on contiguous positions 1..14, 1 the ace
/// low and 14 the ace high.
#[test]
fn a_sequence_is_3_to_14_contiguous_cards_of_one_suit_on_positions_1_to_14() {
    let run = meld("7H 5H 6H", None);
    assert_eq!(run.shape(), MeldShape::Sequence { suit: Suit::Hearts });
    assert_eq!((codes(&run), run.start()), ("5H 6H 7H".to_owned(), Some(5)));
    assert_eq!(meld("AH 2H 3H", None).start(), Some(1));
    let high = meld("KH AH QH", None);
    assert_eq!(
        (codes(&high), high.start()),
        ("QH KH AH".to_owned(), Some(12))
    );
    assert_eq!(open_cards("5H 6H", None), Err(MeldError::TooFewCards));
    assert_eq!(open_cards("5H 6D 7H", None), Err(MeldError::NotAMeld));
    assert_eq!(open_cards("5H 6H 8H", None), Err(MeldError::NotContiguous));
    let fourteen = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", Some(14));
    assert_eq!((fourteen.len(), fourteen.start()), (14, Some(1)));
    assert_eq!(
        open_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK 2D", None),
        Err(MeldError::SequenceTooLong)
    );
    assert_eq!(
        attach_cards(&fourteen, "2D", None),
        Err(MeldError::SequenceTooLong)
    );
}

/// RULES.md 5: at most one wild besides the suit's natural 2.
#[test]
fn a_sequence_holds_at_most_one_wild_besides_the_suits_natural_2() {
    let both = meld("2H 3H 4H JK", None);
    assert_eq!(both.wild_card(), Some(c("JK")));
    assert_eq!(codes(&both), "JK 2H 3H 4H");
    // Two 2s of the suit: one is the natural 2, the other the one wild.
    let twos = meld("2H 2H 3H", None);
    assert_eq!(twos.wild_card(), Some(c("2H")));
    assert_eq!(twos.len(), 3);
    assert_eq!(
        open_cards("5H 6H JK 2C", None),
        Err(MeldError::TooManyWilds)
    );
    assert_eq!(
        open_cards("2H 3H 4H JK 2C", None),
        Err(MeldError::TooManyWilds)
    );
    assert_eq!(
        open_cards("2H 2H 2H 3H 4H", None),
        Err(MeldError::TooManyWilds)
    );
    // The suit's 2 away from position 2 is a wild like any other.
    assert_eq!(
        open_cards("5H 6H JK 2H", None),
        Err(MeldError::TooManyWilds)
    );
    assert_eq!(
        attach_cards(&both, "2D", None),
        Err(MeldError::TooManyWilds)
    );
}

/// RULES.md 5: a sequence holds at least two natural cards (a natural 2 is one).
#[test]
fn a_sequence_holds_at_least_two_natural_cards() {
    assert_eq!(open_cards("5H JK 2C", None), Err(MeldError::TooFewNaturals));
    assert_eq!(open_cards("KH 2D JK", None), Err(MeldError::TooFewNaturals));
    let with_natural_two = meld("2H 3H JK", None);
    assert_eq!(with_natural_two.wild_card(), Some(c("JK")));
    assert_eq!(with_natural_two.len(), 3);
}

/// RULES.md 5 (art. 11): at most one natural ace and at most 13 natural cards, so the fourteenth
/// position can only be a wild.
#[test]
fn a_sequence_holds_one_natural_ace_and_its_fourteenth_card_is_a_wild() {
    assert_eq!(
        open_cards("AH 2H 3H AH", None),
        Err(MeldError::TwoNaturalAces)
    );
    let a_to_k = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", None);
    assert_eq!(
        attach_cards(&a_to_k, "AH", None),
        Err(MeldError::TwoNaturalAces)
    );
    let two_to_k = meld("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", None);
    assert_eq!(
        attach_cards(&two_to_k, "AH AH", None),
        Err(MeldError::TwoNaturalAces)
    );
    for wild in ["JK", "2C", "2H"] {
        let full = attach_cards(&a_to_k, wild, None).expect("the wild goes on 14");
        assert_eq!(full.len(), 14);
        assert_eq!(full.wild_card(), Some(c(wild)), "{wild}");
        assert_eq!(full.wild_position(), Some(14));
    }
}

/// RULES.md 5 (art. 11): no wrap-around K-A-2.
#[test]
fn a_sequence_does_not_wrap_around_from_king_through_ace_to_2() {
    assert_eq!(
        open_cards("KH AH 2H 3H", None),
        Err(MeldError::NotContiguous)
    );
    assert_eq!(
        open_cards("QH KH AH 2H 3H", None),
        Err(MeldError::NotContiguous)
    );
    assert_eq!(
        open_cards("KH AH JK 3H", None),
        Err(MeldError::NotContiguous)
    );
    let high = meld("QH KH AH", None);
    assert_eq!(
        attach_cards(&high, "2H 3H", None),
        Err(MeldError::NotContiguous)
    );
    let low = meld("AH 2H 3H", None);
    assert_eq!(
        attach_cards(&low, "KH QH", None),
        Err(MeldError::NotContiguous)
    );
}

/// RULES.md 5: a wild at an end is free: whenever cards are attached it may be placed on any
/// position that keeps the sequence valid.
#[test]
fn a_free_wild_may_take_any_valid_position_whenever_cards_are_attached() {
    let high = meld("5H 6H JK", Some(7));
    assert!(!high.wild_is_bound());
    let low = attach_cards(&high, "4H", Some(3)).expect("3 is valid");
    assert_eq!(codes(&low), "JK 4H 5H 6H");
    let kept = attach_cards(&high, "4H", Some(7)).expect("7 is valid");
    assert_eq!(codes(&kept), "4H 5H 6H JK");
    assert_eq!(
        attach_cards(&high, "4H", Some(9)),
        Err(MeldError::WildPositionInvalid {
            requested: 9,
            options: vec![3, 7]
        })
    );
    // Attaching the card a free wild stands for moves it too.
    let replaced = attach_cards(&high, "7H", Some(8)).expect("8 is valid");
    assert_eq!(codes(&replaced), "5H 6H 7H JK");
}

/// RULES.md 5: a wild between two naturals is bound: it moves only when the natural card it stands
/// for is attached, then stays in the meld on a position the player chooses, for a 2 of the suit
/// its natural position included.
#[test]
fn a_bound_wild_moves_only_when_its_natural_card_is_attached() {
    let bound = meld("5H JK 7H", None);
    assert!(bound.wild_is_bound());
    let grown = attach_cards(&bound, "8H", None).expect("8 fits");
    assert_eq!(grown.wild_position(), Some(6));
    assert_eq!(
        attach_cards(&bound, "8H", Some(9)),
        Err(MeldError::BoundWildMoved)
    );
    let freed = attach_cards(&bound, "6H", Some(4)).expect("4 is valid");
    assert_eq!(codes(&freed), "JK 5H 6H 7H");
    // The suit's own 2, bound on 4, may go to its natural position once the 4 is attached.
    let two = meld("3H 2H 5H", None);
    assert!(two.wild_is_bound());
    let natural = attach_cards(&two, "4H", Some(2)).expect("2 is its natural place");
    assert_eq!(
        (codes(&natural), natural.wild_card()),
        ("2H 3H 4H 5H".to_owned(), None)
    );
    let still_wild = attach_cards(&two, "4H", Some(6)).expect("6 is valid");
    assert_eq!(still_wild.wild_position(), Some(6));
}

/// RULES.md 5: a request that names no position where several are valid is refused with the
/// valid positions listed (here: a displaced bound wild, and a wild that is bound wherever it
/// goes).
#[test]
fn a_request_naming_no_position_where_several_are_valid_is_refused_listing_them() {
    let bound = meld("5H JK 7H 8H", None);
    assert_eq!(
        attach_cards(&bound, "6H", None),
        Err(MeldError::WildPositionAmbiguous {
            options: vec![4, 9]
        })
    );
    let two = meld("3H 2H 5H", None);
    assert_eq!(
        attach_cards(&two, "4H", None),
        Err(MeldError::WildPositionAmbiguous {
            options: vec![2, 6]
        })
    );
    assert_eq!(
        open_cards("AH 3H 4H 5H 6H 7H 8H 9H 10H JH QH JK", None),
        Err(MeldError::WildPositionAmbiguous {
            options: vec![2, 13]
        })
    );
    // Where only one position is valid the server places the wild.
    let gap = meld("5H JK 7H", None);
    assert_eq!(gap.wild_position(), Some(6));
}

/// RULES.md 5: the exception: a free wild at an end, when a meld is opened or attached to, sits at
/// the low end, and at the high end when the low end is taken or impossible.
#[test]
fn an_unnamed_free_wild_sits_at_the_low_end_else_at_the_high_end() {
    assert_eq!(codes(&meld("5H 6H JK", None)), "JK 5H 6H");
    assert_eq!(codes(&meld("QH KH JK", None)), "JK QH KH");
    // A free wild already on the table, high, goes low when cards are attached without a position.
    let high = meld("5H 6H JK", Some(7));
    assert_eq!(
        codes(&attach_cards(&high, "4H", None).expect("fits")),
        "JK 4H 5H 6H"
    );
    let run = meld("5H 6H 7H", None);
    assert_eq!(
        codes(&attach_cards(&run, "JK", None).expect("fits")),
        "JK 5H 6H 7H"
    );
    // The low end impossible: the ace is low, so the wild goes high.
    let low_ace = meld("AH 2H 3H", None);
    assert_eq!(
        codes(&attach_cards(&low_ace, "JK", None).expect("fits")),
        "AH 2H 3H JK"
    );
    let a_to_k = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", None);
    assert_eq!(
        attach_cards(&a_to_k, "JK", None).map(|m| m.wild_position()),
        Ok(Some(14))
    );
    // Opened with both ends possible (the ace may go either end): the low end.
    let both = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", None);
    assert_eq!(both.wild_position(), Some(1));
    assert_eq!(both.cards().last(), Some(&c("AH")));
}

/// RULES.md 2 and 5: a 2 of the sequence's suit named at position 2 (or placed between the ace and
/// the 3) is that sequence's natural 2, not a wild.
#[test]
fn a_2_of_the_suit_named_at_position_2_is_the_natural_2() {
    let named = meld("2H 3H 4H", Some(2));
    assert_eq!((named.start(), named.wild_card()), (Some(2), None));
    assert_eq!(meld("2H 3H 4H", None), named);
    let wild = meld("2H 3H 4H", Some(5));
    assert_eq!(
        (codes(&wild), wild.wild_position()),
        ("3H 4H 2H".to_owned(), Some(5))
    );
    let between = meld("AH 2H 3H", None);
    assert_eq!(between.wild_card(), None);
    // A 2 of another suit on position 2 is a wild.
    let other = meld("AH 2D 3H", None);
    assert_eq!(
        (other.wild_card(), other.wild_position()),
        (Some(c("2D")), Some(2))
    );
}

/// RULES.md 5: a burraco is a meld of 7 or more cards; pulito has no wild, a natural 2 not being
/// one.
#[test]
fn a_burraco_is_7_cards_and_pulito_has_no_wild_the_natural_2_not_being_one() {
    assert_eq!(kind(&meld("3H 4H 5H 6H 7H 8H", None)), None);
    assert_eq!(kind(&meld("7H 7D 7C 7S 7H 7D", None)), None);
    assert_eq!(
        kind(&meld("3H 4H 5H 6H 7H 8H 9H", None)),
        Some(BurracoKind::Pulito)
    );
    assert_eq!(
        kind(&meld("2H 3H 4H 5H 6H 7H 8H", None)),
        Some(BurracoKind::Pulito)
    );
    assert_eq!(
        kind(&meld("7H 7D 7C 7S 7H 7D 7C", None)),
        Some(BurracoKind::Pulito)
    );
}

/// RULES.md 5: reale is a sequence of 13 natural cards, A to K or 2 to A (FITAB art. 13: without a
/// wild, so A..K plus a wild on 14 is not one).
#[test]
fn reale_is_a_sequence_of_13_naturals_ace_to_king_or_2_to_ace() {
    let a_to_k = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", None);
    assert_eq!(a_to_k.start(), Some(1));
    assert_eq!(kind(&a_to_k), Some(BurracoKind::Reale));
    let high = meld("QH KH AH", None);
    let two_to_a = attach_cards(&high, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH", None).expect("fits");
    assert_eq!((two_to_a.start(), two_to_a.len()), (Some(2), 13));
    assert_eq!(kind(&two_to_a), Some(BurracoKind::Reale));
    // 12 naturals and a wild: no reale.
    let dirty = meld("AH 2H 3H 4H 5H 6H JK 8H 9H 10H JH QH KH", None);
    assert_eq!(kind(&dirty), Some(BurracoKind::Sporco));
    let fourteen = attach_cards(&a_to_k, "JK", None).expect("the joker goes on 14");
    assert_eq!(kind(&fourteen), Some(BurracoKind::Semipulito));
}

/// RULES.md 5: super is 8 identical-rank cards without a wild; with a wild it is not.
#[test]
fn super_is_8_cards_of_one_rank_without_a_wild() {
    let eight = meld("7H 7H 7D 7D 7C 7C 7S 7S", None);
    assert_eq!(kind(&eight), Some(BurracoKind::Super));
    let nine = attach_cards(&eight, "JK", None).expect("a wild fits");
    assert_eq!(kind(&nine), Some(BurracoKind::Semipulito));
    assert_eq!(
        kind(&meld("7H 7H 7D 7D 7C 7C 7S 2S", None)),
        Some(BurracoKind::Semipulito)
    );
}

/// RULES.md 5: semipulito is a sequence whose wild sits at an end beside at least 7 natural cards,
/// or a combination of at least 7 naturals plus the wild; any other burraco with a wild is sporco,
/// and so is a semipulito when semipulito is switched off.
#[test]
fn semipulito_has_its_wild_at_an_end_beside_7_naturals_any_other_wild_is_sporco() {
    let semi = [
        meld("3H 4H 5H 6H 7H 8H 9H JK", None),
        meld("3H 4H 5H 6H 7H 8H 9H JK", Some(10)),
        meld("2H 3H 4H 5H 6H 7H 8H JK", None),
        meld("3H 4H 5H 6H 7H 8H 9H 2H", Some(10)),
        meld("7H 7D 7D 7C 7C 7S 7S JK", None),
    ];
    for m in &semi {
        assert_eq!(kind(m), Some(BurracoKind::Semipulito), "{m:?}");
        assert_eq!(m.burraco_kind(false), Some(BurracoKind::Sporco), "{m:?}");
    }
    let sporco = [
        // The wild between naturals.
        meld("3H 4H 5H JK 7H 8H 9H 10H", None),
        // At an end, but beside 6 naturals only.
        meld("3H 4H 5H 6H 7H 8H JK", None),
        meld("7H 7D 7C 7C 7S 7S 2D", None),
    ];
    for m in &sporco {
        assert_eq!(kind(m), Some(BurracoKind::Sporco), "{m:?}");
    }
}

/// Art. 31 (RULES.md 5): the second combination of a rank is not among the legal actions either,
/// while attaching the same cards to the side's combination is.
#[test]
fn a_second_combination_of_a_rank_is_never_offered_as_a_legal_action() {
    let deck = DeckBuilder::four()
        .hand(N, "7H 7D 7C 7S 7S JK 9S")
        .tallone("3C");
    let mut t = fitab(&deck);
    t.draw(N);
    t.open(N, "7H 7D 7C");
    let actions = t.game.legal_actions();
    let sevens = |action: &Action| match action {
        Action::Open { cards, wild_at } => Meld::open(cards, *wild_at)
            .is_ok_and(|m| m.shape() == MeldShape::Combination { rank: Rank::Seven }),
        _ => false,
    };
    assert!(!actions.iter().any(sevens), "{actions:?}");
    assert!(actions.contains(&attach(0, "7S 7S JK")));
}

/// RULES.md 5 through the game: an opening whose wild is bound wherever it goes names its
/// position; without one it is refused with the valid positions listed, and nothing changes.
#[test]
fn an_opening_whose_wild_has_several_positions_must_name_one() {
    let deck = DeckBuilder::four()
        .hand(N, "AH 3H 4H 5H 6H 7H 8H 9H 10H JH QH")
        .tallone("JK");
    let mut t = fitab(&deck);
    t.draw(N);
    let cards = cs("AH 3H 4H 5H 6H 7H 8H 9H 10H JH QH JK");
    assert_eq!(
        t.refused(
            N,
            Action::Open {
                cards: cards.clone(),
                wild_at: None
            }
        ),
        IllegalAction::Meld(MeldError::WildPositionAmbiguous {
            options: vec![2, 13]
        })
    );
    let events = t.act(
        N,
        Action::Open {
            cards,
            wild_at: Some(13),
        },
    );
    let Event::Opened { result, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(
        (result.start(), result.wild_position()),
        (Some(3), Some(13))
    );
    assert!(result.wild_is_bound());
}
