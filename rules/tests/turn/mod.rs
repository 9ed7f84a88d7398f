//! RULES.md section 4: a turn is a take, optional plays, and a discard; the single-card pile of
//! art. 8; the refusals that guard the order of a turn.

use burraco_rules::{
    Action, Config, Event, Game, IllegalAction, Input, Phase, Preset, Seat, TableSettings,
};

use crate::support::{DeckBuilder, Table, c, cs, discard, open, sorted};

const N: Seat = Seat::North;
const E: Seat = Seat::East;
const S: Seat = Seat::South;
const W: Seat = Seat::West;

fn fitab(deck: &DeckBuilder) -> Table {
    Table::new(Config::of(Preset::Fitab), deck)
}

/// RULES.md 4.1: drawing takes the top of the tallone; which card it is is private to the drawer.
#[test]
fn draw_takes_the_tallone_top_privately() {
    let mut t = fitab(&DeckBuilder::four().tallone("QD JD"));
    let events = t.draw(N);
    assert_eq!(
        events,
        vec![
            Event::Drew { seat: N },
            Event::DrewCard {
                seat: N,
                card: c("QD")
            }
        ]
    );
    assert_eq!(events[0].private_to(), None);
    assert_eq!(events[1].private_to(), Some(N));
    assert_eq!(t.game.hand(N).len(), 12);
    assert!(t.game.hand(N).contains(c("QD")));
    assert_eq!(t.game.tallone_len(), 40);
    assert_eq!(t.game.tallone_top_first()[0], c("JD"));
    assert_eq!(t.game.phase(), Phase::Play);
    assert_eq!(t.game.picked_up_this_turn(), 0);
}

/// RULES.md 4.1: picking up takes the whole discard pile, in public.
#[test]
fn pick_up_takes_the_whole_pile() {
    let deck = DeckBuilder::four().hand(N, "9S").up("KS").tallone("QD");
    let mut t = fitab(&deck);
    t.draw(N);
    t.discard(N, "9S");
    let before = t.hand(E);
    let events = t.pick_up(E);
    assert_eq!(
        events,
        vec![Event::PickedUp {
            seat: E,
            cards: cs("KS 9S")
        }]
    );
    assert_eq!(events[0].private_to(), None);
    assert!(t.game.pile().is_empty());
    assert_eq!(t.hand(E), sorted([before, cs("KS 9S")].concat()));
    assert_eq!(t.game.picked_up_this_turn(), 2);
    assert_eq!(
        t.game.picked_single_card(),
        None,
        "a two-card pile has no art. 8 card"
    );
}

/// RULES.md 4.3: the discard, and only the discard, ends the turn; the next seat clockwise plays.
#[test]
fn discard_ends_the_turn_and_play_goes_clockwise() {
    let deck = DeckBuilder::four().hand(N, "9S").tallone("QD");
    let mut t = fitab(&deck);
    t.draw(N);
    // Playing is optional and does not end the turn.
    assert_eq!((t.on_turn(), t.game.phase()), (N, Phase::Play));
    let events = t.discard(N, "9S");
    assert_eq!(
        events[0],
        Event::Discarded {
            seat: N,
            card: c("9S")
        }
    );
    assert!(matches!(
        events[1],
        Event::TurnStarted {
            seat: E,
            cards_held: 11,
            ..
        }
    ));
    assert_eq!(t.game.pile().last(), Some(&c("9S")));
    for expected in [E, S, W, N, E] {
        assert_eq!(t.pass(), expected);
    }
    assert_eq!(t.game.turns_played(), 6);
}

/// RULES.md 4: only the seat on turn acts; a seat not at the table is refused as such.
#[test]
fn refusal_not_your_turn_and_not_seated() {
    let mut t = fitab(&DeckBuilder::four());
    assert_eq!(
        t.refused(E, Action::Draw),
        IllegalAction::NotYourTurn { on_turn: N }
    );
    assert_eq!(
        t.refused(W, Action::PickUp),
        IllegalAction::NotYourTurn { on_turn: N }
    );
    let mut h2h = Table::new(Config::head_to_head(Preset::Fitab), &DeckBuilder::two());
    assert_eq!(
        h2h.refused(E, Action::Draw),
        IllegalAction::NotSeated { seat: E }
    );
    assert_eq!(
        h2h.refused(S, Action::Draw),
        IllegalAction::NotYourTurn { on_turn: N }
    );
}

/// RULES.md 4.1: the take comes first.
#[test]
fn refusal_take_first() {
    let mut t = fitab(&DeckBuilder::four().hand(N, "5H 6H 7H 9S"));
    assert_eq!(t.refused(N, discard("9S")), IllegalAction::MustTakeFirst);
    assert_eq!(t.refused(N, open("5H 6H 7H")), IllegalAction::MustTakeFirst);
    let attach = Action::Attach {
        meld: 0,
        cards: cs("9S"),
        wild_at: None,
    };
    assert_eq!(t.refused(N, attach), IllegalAction::MustTakeFirst);
    assert!(t.game.legal_discards().is_empty());
}

/// RULES.md 4.1: one take per turn.
#[test]
fn refusal_already_taken() {
    let mut t = fitab(&DeckBuilder::four());
    t.draw(N);
    assert_eq!(t.refused(N, Action::Draw), IllegalAction::AlreadyTaken);
    assert_eq!(t.refused(N, Action::PickUp), IllegalAction::AlreadyTaken);
    let mut t = fitab(&DeckBuilder::four());
    t.pick_up(N);
    assert_eq!(t.refused(N, Action::Draw), IllegalAction::AlreadyTaken);
    assert_eq!(t.refused(N, Action::PickUp), IllegalAction::AlreadyTaken);
    assert!(t.game.legal_takes().is_empty());
}

/// RULES.md 4.3: a discard must be a card in the hand; RULES.md 4.2: so must melded cards, repeats
/// counted.
#[test]
fn refusal_card_not_in_hand() {
    let deck = DeckBuilder::four().hand(N, "5H 5D 5C 9S").tallone("3C");
    let mut t = fitab(&deck);
    t.draw(N);
    assert_eq!(
        t.refused(N, discard("KS")),
        IllegalAction::CardNotInHand { card: c("KS") }
    );
    assert_eq!(
        t.refused(N, open("5H 5H 5D")),
        IllegalAction::CardsNotInHand
    );
    assert_eq!(
        t.refused(N, open("JS QS KS")),
        IllegalAction::CardsNotInHand
    );
}

/// Art. 8: the card of a single-card pile may not be discarded in the same turn.
#[test]
fn refusal_discarding_the_single_picked_up_card() {
    let deck = DeckBuilder::four()
        .hand(N, "3S 4D 6C 8S 9D 10C JS QD KC AS 7H")
        .up("KH");
    let mut t = fitab(&deck);
    t.pick_up(N);
    assert_eq!(t.game.picked_single_card(), Some(c("KH")));
    assert_eq!(
        t.refused(N, discard("KH")),
        IllegalAction::DiscardPickedUpCard { card: c("KH") }
    );
    assert!(!t.game.legal_discards().contains(&c("KH")));
    assert_eq!(t.game.legal_discards().len(), 11);
    t.discard(N, "KC");
    // The restriction lasts one turn only.
    assert_eq!(t.game.picked_single_card(), None);
}

/// Art. 8: ... unless the player holds an identical card (same rank and suit).
#[test]
fn single_picked_up_card_may_go_back_with_an_identical_card_in_hand() {
    let deck = DeckBuilder::four()
        .hand(N, "KH 4D 6C 8S 9D 10C JS QD KC AS 7H")
        .up("KH");
    let mut t = fitab(&deck);
    t.pick_up(N);
    assert!(t.game.legal_discards().contains(&c("KH")));
    t.discard(N, "KH");
    assert_eq!(t.game.pile(), &[c("KH")]);
    // A king of another suit is not identical.
    let deck = DeckBuilder::four()
        .hand(N, "KS KD KC 4D 6C 8S 9D 10C JS QD AS")
        .up("KH");
    let mut t = fitab(&deck);
    t.pick_up(N);
    assert_eq!(
        t.refused(N, discard("KH")),
        IllegalAction::DiscardPickedUpCard { card: c("KH") }
    );
}

/// Art. 8: if the player melds a copy of the picked-up face, the copy still in the hand may be
/// discarded: the faces are identical, so the picked-up card may be taken to be the melded one.
#[test]
fn single_picked_up_card_melded_lets_the_identical_copy_go() {
    let deck = DeckBuilder::four()
        .hand(N, "KH KS KD 4D 6C 8S 9D 10C JS QD AS")
        .up("KH");
    let mut t = fitab(&deck);
    t.pick_up(N);
    t.open(N, "KH KS KD");
    assert!(t.game.legal_discards().contains(&c("KH")));
    t.discard(N, "KH");
}

/// Art. 8 applies to a single-card pile only: the top card of a larger pile may be discarded.
#[test]
fn top_of_a_multi_card_pile_may_be_discarded() {
    let deck = DeckBuilder::four().hand(N, "9S").up("KH").tallone("3C");
    let mut t = fitab(&deck);
    t.draw(N);
    t.discard(N, "9S");
    t.pick_up(E);
    assert_eq!(t.game.picked_up_this_turn(), 2);
    t.discard(E, "9S");
    t.pick_up(S);
    // S picked up the single card 9S: art. 8 again.
    assert_eq!(
        t.refused(S, discard("9S")),
        IllegalAction::DiscardPickedUpCard { card: c("9S") }
    );
}

/// RULES.md 4: once the hand is over every input is refused.
#[test]
fn refusal_hand_over() {
    // Stallo under fitab ends the hand quickly: nine card exchanges.
    let mut t = fitab(&DeckBuilder::four());
    for _ in 0..9 {
        let seat = t.on_turn();
        t.pick_up(seat);
        let card = t.game.legal_discards()[0];
        t.act(seat, Action::Discard { card });
    }
    assert!(t.game.is_over());
    assert_eq!(t.game.phase(), Phase::Over);
    let seat = t.on_turn();
    assert_eq!(t.refused(seat, Action::Draw), IllegalAction::HandOver);
    assert_eq!(
        t.refused(seat.left(), Action::Draw),
        IllegalAction::HandOver
    );
    assert_eq!(
        t.refused_input(&Input::ClockExpired),
        IllegalAction::HandOver
    );
    assert_eq!(t.refused_input(&Input::TimeOut), IllegalAction::HandOver);
    assert!(t.game.legal_actions().is_empty());
}

/// RULES.md 1: a table may override settings; the turn rules are the same head to head.
#[test]
fn head_to_head_turns_alternate() {
    let config = Config::new(&TableSettings {
        preset: Preset::Feburit,
        players: Some(burraco_rules::Players::Two),
        ..TableSettings::default()
    })
    .expect("valid");
    let mut t = Table::new(config, &DeckBuilder::two());
    for expected in [N, S, N, S] {
        assert_eq!(t.pass(), expected);
    }
    assert_eq!(t.game.tallone_len(), 63 - 4);
}

/// A checked input is good for the game it was checked on: kept past another input, `play`
/// checks it again and refuses it as `apply` would then.
#[test]
fn a_checked_input_kept_past_another_input_is_checked_again() {
    let (config, deck) = (Config::of(Preset::Fitab), DeckBuilder::four());
    let mut game = Game::new(config, N, deck.source()).unwrap().0;
    let seat = game.on_turn();
    let draw = Input::Act {
        seat,
        action: Action::Draw,
    };
    let checked = game.check(&draw).unwrap();
    assert_eq!(checked.input(), &draw);
    let again = checked.clone();
    game.play(checked).unwrap();
    assert_eq!(game.play(again), Err(IllegalAction::AlreadyTaken));
}

/// RULES.md 4 (art. 8): any two jokers are identical, so a single joker picked up may go back
/// when the player holds another joker, and not otherwise.
#[test]
fn single_picked_up_joker_may_go_back_with_another_joker() {
    let deck = DeckBuilder::four()
        .hand(N, "JK 4D 6C 8S 9D 10C JS QD KC AS 7H")
        .up("JK");
    let mut t = fitab(&deck);
    t.pick_up(N);
    assert!(t.game.legal_discards().contains(&c("JK")));
    t.discard(N, "JK");
    assert_eq!(t.game.pile(), &[c("JK")]);

    let deck = DeckBuilder::four()
        .hand(N, "3S 4D 6C 8S 9D 10C JS QD KC AS 7H")
        .up("JK");
    let mut t = fitab(&deck);
    t.pick_up(N);
    assert_eq!(
        t.refused(N, discard("JK")),
        IllegalAction::DiscardPickedUpCard { card: c("JK") }
    );
}

/// Art. 8: once the single card picked up has been melded, a copy of it reaching the hand later in
/// the turn (here from the pozzetto taken in diretta) is an identical card held, and may go.
#[test]
fn single_picked_up_card_melded_then_a_copy_from_the_pozzetto_may_be_discarded() {
    let deck = DeckBuilder::four()
        .hand(N, "KS KD 3C 4C 5C 6C 7C 8C 9C 10C JC")
        .up("KH")
        .pozzetto(
            burraco_rules::PozzettoId::A,
            "KH 3S 4S 5S 6S 7S 8S 9S 10S JS QS",
        );
    let mut t = fitab(&deck);
    t.pick_up(N);
    assert_eq!(t.game.picked_single_card(), Some(c("KH")));
    t.open(N, "KH KS KD");
    t.open(N, "3C 4C 5C 6C 7C 8C 9C 10C JC");
    assert_eq!(t.hand(N).len(), 11, "the pozzetto was taken in diretta");
    assert!(t.hand(N).contains(&c("KH")));
    assert!(t.game.legal_discards().contains(&c("KH")));
    t.discard(N, "KH");
    assert_eq!(t.game.pile(), &[c("KH")]);
}

/// RULES.md 4.2: melds are never merged: a card that would bridge two sequences of the side joins
/// only the meld it is attached to, and the other is left as it was.
#[test]
fn melds_are_never_merged_a_bridging_card_joins_only_its_meld() {
    let deck = DeckBuilder::four()
        .hand(N, "3H 4H 5H 6H 7H 8H 9H 9S")
        .tallone("QD");
    let mut t = fitab(&deck);
    t.draw(N);
    t.open(N, "3H 4H 5H");
    t.open(N, "7H 8H 9H");
    let high_before = t.game.melds()[1];
    t.act(N, crate::support::attach(0, "6H"));
    assert_eq!(t.game.melds().len(), 2);
    assert_eq!(t.game.melds()[0].1.cards(), &cs("3H 4H 5H 6H")[..]);
    assert_eq!(t.game.melds()[1], high_before);
}
