//! RULES.md section 6: taking the pozzetto in diretta and con lo scarto, when its owner sees it,
//! which pozzetto goes to which side, and the hand that may no longer empty.

use burraco_rules::{Config, Event, IllegalAction, Phase, PozzettoId, Preset, Seat, Side, Viewer};

use crate::support::{DeckBuilder, Table, attach, cs, open, sorted};

const N: Seat = Seat::North;
const E: Seat = Seat::East;
const S: Seat = Seat::South;

const HEARTS: &str = "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH";
const CLUBS: &str = "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC";

fn pozzetto_cards(events: &[Event]) -> Vec<(Seat, Vec<burraco_rules::Card>)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::PozzettoCards { seat, cards } => Some((*seat, cards.clone())),
            _ => None,
        })
        .collect()
}

fn own_view(t: &Table, seat: Seat) -> Option<Vec<burraco_rules::Card>> {
    t.game.view(Viewer::Seat(seat)).hand
}

/// RULES.md 6, in diretta: the hand emptied by melding; the pozzetto is taken at once, shown to
/// its owner at once, and the turn goes on.
#[test]
fn pozzetto_in_diretta_by_opening_continues_the_turn() {
    let deck = DeckBuilder::four()
        .hand(N, HEARTS)
        .tallone("AH")
        .pozzetto(PozzettoId::A, CLUBS);
    let mut t = Table::new(Config::of(Preset::Fitab), &deck);
    t.draw(N);
    let events = t.open(N, &format!("{HEARTS} AH"));
    assert!(matches!(events[0], Event::Opened { .. }));
    assert_eq!(
        events[1],
        Event::PozzettoTaken {
            seat: N,
            pozzetto: PozzettoId::A,
            in_diretta: true
        }
    );
    assert_eq!(
        events[2],
        Event::PozzettoCards {
            seat: N,
            cards: cs(CLUBS)
        }
    );
    assert_eq!(events[1].private_to(), None);
    assert_eq!(events[2].private_to(), Some(N));
    assert_eq!(events.len(), 3);
    assert_eq!((t.on_turn(), t.game.phase()), (N, Phase::Play));
    assert_eq!(t.hand(N), cs(CLUBS));
    assert_eq!(own_view(&t, N), Some(cs(CLUBS)));
    assert_eq!(t.game.pozzetto_of(Side::NorthSouth), Some(PozzettoId::A));
    assert!(t.game.pozzetto_cards(PozzettoId::A).is_empty());
    // ... and the turn ends, as always, with a discard.
    t.open(N, "3C 4C 5C");
    t.discard(N, "KC");
    assert_eq!(t.on_turn(), E);
    assert_eq!(t.game.hand(N).len(), 7);
}

/// RULES.md 6, in diretta: attaching the last cards takes the pozzetto the same way.
#[test]
fn pozzetto_in_diretta_by_attaching() {
    let deck = DeckBuilder::four()
        .hand(N, HEARTS)
        .tallone("5D 3S 3S 4S AH")
        .pozzetto(PozzettoId::A, CLUBS);
    let mut t = Table::new(Config::of(Preset::Feburit), &deck);
    t.draw(N);
    t.open(N, "3H 4H 5H 6H 7H 8H 9H 10H JH QH");
    t.discard(N, "5D");
    for _ in 0..3 {
        t.pass();
    }
    t.draw(N);
    let events = t.act(N, attach(0, "KH AH"));
    assert!(matches!(events[0], Event::Attached { .. }));
    assert_eq!(
        events[1],
        Event::PozzettoTaken {
            seat: N,
            pozzetto: PozzettoId::A,
            in_diretta: true
        }
    );
    assert_eq!(
        events[2],
        Event::PozzettoCards {
            seat: N,
            cards: cs(CLUBS)
        }
    );
    assert_eq!(t.game.melds()[0].1.len(), 12);
}

/// RULES.md 6, con lo scarto (art. 22.3): the pozzetto is the owner's hand from the discard, but
/// the owner sees it only after the partner's next discard.
#[test]
fn pozzetto_con_lo_scarto_is_shown_after_the_partners_discard() {
    let deck = DeckBuilder::four()
        .hand(N, HEARTS)
        .tallone("5S")
        .pozzetto(PozzettoId::A, CLUBS);
    let mut t = Table::new(Config::of(Preset::Fitab), &deck);
    t.draw(N);
    t.open(N, HEARTS);
    let events = t.discard(N, "5S");
    assert_eq!(
        events[1],
        Event::PozzettoTaken {
            seat: N,
            pozzetto: PozzettoId::A,
            in_diretta: false
        }
    );
    assert!(
        pozzetto_cards(&events).is_empty(),
        "not shown with the discard"
    );
    assert_eq!(t.hand(N), cs(CLUBS), "the pozzetto is the hand from now on");
    assert!(!t.game.hand_visible_to_owner(N));
    assert_eq!(own_view(&t, N), None);
    let sizes = t.game.view(Viewer::Seat(N)).hand_sizes;
    assert!(sizes.contains(&(N, 11)), "the count is public: {sizes:?}");

    let events = t.pass_events(); // E, an opponent
    assert!(pozzetto_cards(&events).is_empty());
    assert_eq!(own_view(&t, N), None);
    assert_eq!(t.on_turn(), S);

    let events = t.pass_events(); // S, the partner
    assert_eq!(pozzetto_cards(&events), vec![(N, cs(CLUBS))]);
    let shown = events
        .iter()
        .find(|e| matches!(e, Event::PozzettoCards { .. }))
        .expect("shown");
    assert_eq!(shown.private_to(), Some(N));
    assert!(t.game.hand_visible_to_owner(N));
    assert_eq!(own_view(&t, N), Some(cs(CLUBS)));

    t.pass(); // W
    assert_eq!(t.on_turn(), N);
    assert!(matches!(
        t.events.last(),
        Some(Event::TurnStarted {
            seat: N,
            cards_held: 11,
            ..
        })
    ));
}

/// RULES.md 6, head to head: the pozzetto taken con lo scarto is seen at the owner's next turn,
/// i.e. after the opponent's discard.
#[test]
fn pozzetto_con_lo_scarto_head_to_head_is_shown_at_the_owners_next_turn() {
    let deck = DeckBuilder::two()
        .hand(N, HEARTS)
        .tallone("5S")
        .pozzetto(PozzettoId::A, CLUBS);
    let mut t = Table::new(Config::head_to_head(Preset::Feburit), &deck);
    t.draw(N);
    t.open(N, HEARTS);
    let events = t.discard(N, "5S");
    assert!(pozzetto_cards(&events).is_empty());
    assert_eq!(own_view(&t, N), None);
    assert_eq!(t.on_turn(), S);
    let events = t.pass_events();
    assert_eq!(pozzetto_cards(&events), vec![(N, cs(CLUBS))]);
    assert_eq!(t.on_turn(), N);
    assert_eq!(own_view(&t, N), Some(cs(CLUBS)));
}

/// RULES.md 6: discarding a wild to go to the pozzetto is allowed.
#[test]
fn a_wild_may_be_discarded_to_go_to_the_pozzetto() {
    let deck = DeckBuilder::four().hand(N, HEARTS).tallone("JK");
    let mut t = Table::new(Config::of(Preset::Fitab), &deck);
    t.draw(N);
    t.open(N, HEARTS);
    assert_eq!(t.game.legal_discards(), cs("JK"));
    let events = t.discard(N, "JK");
    assert!(matches!(
        events[1],
        Event::PozzettoTaken {
            seat: N,
            in_diretta: false,
            ..
        }
    ));
}

/// RULES.md 3.4 and 6: pozzetto A goes to the first side to claim one, B to the other.
#[test]
fn pozzetto_a_goes_to_the_first_side_b_to_the_other() {
    let deck = DeckBuilder::four()
        .hand(E, HEARTS)
        .hand(S, "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD")
        .tallone("4S 5S 5C")
        .pozzetto(PozzettoId::A, CLUBS)
        .pozzetto(PozzettoId::B, "3S 4S 6S 7S 8S 9S 10S JS QS KS AS");
    let mut t = Table::new(Config::of(Preset::Fedibur), &deck);
    t.pass(); // N
    t.draw(E);
    t.open(E, HEARTS);
    let events = t.discard(E, "5S");
    assert_eq!(
        events[1],
        Event::PozzettoTaken {
            seat: E,
            pozzetto: PozzettoId::A,
            in_diretta: false
        }
    );
    t.draw(S);
    t.open(S, "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD");
    let events = t.discard(S, "5C");
    assert_eq!(
        events[1],
        Event::PozzettoTaken {
            seat: S,
            pozzetto: PozzettoId::B,
            in_diretta: false
        }
    );
    assert_eq!(t.game.pozzetto_of(Side::EastWest), Some(PozzettoId::A));
    assert_eq!(t.game.pozzetto_of(Side::NorthSouth), Some(PozzettoId::B));
    assert_eq!(
        t.game.view(Viewer::Spectator).pozzetti,
        [Some(Side::EastWest), Some(Side::NorthSouth)]
    );
    assert_eq!(t.hand(E), cs(CLUBS));
    assert_eq!(t.hand(S), sorted(cs("3S 4S 6S 7S 8S 9S 10S JS QS KS AS")));
}

/// RULES.md 6: once the side has its pozzetto, a hand may not be emptied by melding.
#[test]
fn refusal_would_empty_hand_once_the_side_has_its_pozzetto() {
    let deck = DeckBuilder::four()
        .hand(N, HEARTS)
        .tallone("AH")
        .pozzetto(PozzettoId::A, CLUBS);
    let mut t = Table::new(Config::of(Preset::Fitab), &deck);
    t.draw(N);
    t.open(N, &format!("{HEARTS} AH"));
    assert_eq!(t.refused(N, open(CLUBS)), IllegalAction::WouldEmptyHand);
    t.open(N, "3C 4C 5C 6C 7C 8C 9C 10C");
    assert_eq!(
        t.refused(N, attach(1, "JC QC KC")),
        IllegalAction::WouldEmptyHand
    );
}

/// RULES.md 6: a play that leaves no legal way to end the turn is refused: here melding down to
/// the single card just picked up, which art. 8 forbids to discard.
#[test]
fn refusal_no_legal_discard_left() {
    let spades = "4S 5S 6S 7S 8S 9S 10S JS QS KS AS";
    let deck = DeckBuilder::four().hand(N, spades).up("3H");
    let mut t = Table::new(Config::of(Preset::Fitab), &deck);
    t.pick_up(N);
    assert_eq!(
        t.refused(N, open(spades)),
        IllegalAction::NoLegalDiscardLeft
    );
    // Keeping one more card is fine.
    t.open(N, "4S 5S 6S 7S 8S 9S 10S JS QS KS");
    assert_eq!(t.game.legal_discards(), cs("AS"));
}
