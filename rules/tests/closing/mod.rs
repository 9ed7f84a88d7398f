//! RULES.md section 7: closing, its conditions, and how the presets differ on closing in the turn
//! the pile was picked up ("al monte") and in the first round (section 1).
//!
//! A discard can only close from a one-card hand, and a play that leaves one card the player may
//! not close with is refused at once (RULES.md 6), naming the closing rule that forbids it.

use burraco_rules::{
    BurracoKind, Config, Event, HandEnd, IllegalAction, PozzettoId, Preset, Seat, Side,
    TableSettings,
};

use crate::support::{DeckBuilder, Table, attach, cs, open};

const N: Seat = Seat::North;
const E: Seat = Seat::East;
const S: Seat = Seat::South;
const W: Seat = Seat::West;

const HEARTS: &str = "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH";
const CLUBS: &str = "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC";

/// N draws the ace of hearts, opens twelve hearts (a burraco pulito) and takes pozzetto A (the
/// clubs) in diretta.
fn burraco_and_pozzetto(config: Config, pozzetto: &str) -> Table {
    let deck = DeckBuilder::four()
        .hand(N, HEARTS)
        .tallone("AH")
        .pozzetto(PozzettoId::A, pozzetto);
    let mut t = Table::new(config, &deck);
    t.draw(N);
    t.open(N, &format!("{HEARTS} AH"));
    t
}

fn points(t: &Table, seats: &[Seat]) -> i32 {
    seats.iter().map(|&s| t.game.hand(s).points()).sum()
}

/// RULES.md 7 and 10: with the pozzetto taken and a burraco, discarding the last card closes; the
/// hand ends and the side earns 100 for closing. `fitab` allows it in the first round.
#[test]
fn closing_ends_the_hand_with_the_closing_bonus() {
    let mut t = burraco_and_pozzetto(Config::of(Preset::Fitab), CLUBS);
    t.open(N, "3C 4C 5C 6C 7C 8C 9C 10C JC QC");
    assert_eq!(t.game.legal_discards(), cs("KC"));
    let events = t.discard(N, "KC");
    let Some(Event::HandEnded { end, score, hands }) = events.last() else {
        panic!("the hand ends: {events:?}");
    };
    assert_eq!(*end, HandEnd::Closed { seat: N });
    assert!(t.game.is_over());
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::TurnStarted { .. }))
    );
    assert_eq!(
        hands.iter().find(|(s, _)| *s == N).map(|(_, h)| h.len()),
        Some(0)
    );
    let ns = &score.sides[Side::NorthSouth.index()];
    assert_eq!(ns.closing, 100);
    assert_eq!(ns.melded, 100 + 75);
    let kinds: Vec<(u8, BurracoKind, i32)> = ns
        .burracos
        .iter()
        .map(|b| (b.meld, b.kind, b.bonus))
        .collect();
    assert_eq!(
        kinds,
        vec![(0, BurracoKind::Pulito, 200), (1, BurracoKind::Pulito, 200)]
    );
    assert_eq!(ns.in_hand, -points(&t, &[S]));
    assert_eq!(ns.pozzetto, 0);
    assert_eq!(ns.total(), 175 + 400 + 100 - points(&t, &[S]));
    let ew = &score.sides[Side::EastWest.index()];
    assert_eq!((ew.closing, ew.melded, ew.pozzetto), (0, 0, -100));
    assert_eq!(ew.in_hand, -points(&t, &[E, W]));
}

/// FEDIBUR art. 5: no closing during the first round of the hand.
#[test]
fn refusal_close_in_first_round_under_fedibur() {
    let mut t = burraco_and_pozzetto(Config::of(Preset::Fedibur), CLUBS);
    assert_eq!(
        t.refused(N, open("3C 4C 5C 6C 7C 8C 9C 10C JC QC")),
        IllegalAction::CloseInFirstRound
    );
    // Keeping two cards is fine; the closing waits for the next round.
    t.open(N, "3C 4C 5C 6C 7C 8C 9C 10C JC");
    t.discard(N, "KC");
    for _ in 0..3 {
        t.pass();
    }
    t.draw(N);
    t.attach(N, 1, "QC");
    let closing = t.game.legal_discards();
    assert_eq!(closing.len(), 1);
    let events = t.act(N, burraco_rules::Action::Discard { card: closing[0] });
    assert!(matches!(
        events.last(),
        Some(Event::HandEnded {
            end: HandEnd::Closed { seat: N },
            ..
        })
    ));
}

/// RULES.md 7: closing requires the side's burraco.
#[test]
fn refusal_close_without_burraco() {
    let deck = DeckBuilder::four()
        .hand(N, "3H 4H 5H 6H 7H 8H 3S 4S 5S 6S 7S")
        .tallone("8S")
        .pozzetto(PozzettoId::A, "3C 4C 5C 6C 7C 8C 10D 10S 10C 10H KD");
    let mut t = Table::new(Config::of(Preset::Feburit), &deck);
    t.draw(N);
    t.open(N, "3H 4H 5H 6H 7H 8H");
    t.open(N, "3S 4S 5S 6S 7S 8S");
    assert_eq!(t.game.pozzetto_of(Side::NorthSouth), Some(PozzettoId::A));
    t.open(N, "3C 4C 5C 6C 7C 8C");
    t.open(N, "10D 10S 10C");
    assert_eq!(
        t.refused(N, attach(3, "10H")),
        IllegalAction::CloseWithoutBurraco
    );
}

/// RULES.md 1 and 7: with "closing requires a burraco pulito" on, a burraco sporco is not enough.
#[test]
fn refusal_close_without_burraco_pulito_when_the_setting_is_on() {
    let deck = DeckBuilder::four()
        .hand(N, "3H 4H 5H 6H 7H 8H JK 3S 4S 5S 6S")
        .tallone("7S")
        .pozzetto(PozzettoId::A, "3C 4C 5C 6C 7C 8C 10D 10S 10C 10H KD");
    let play = |config: Config| {
        let mut t = Table::new(config, &deck);
        t.draw(N);
        t.open(N, "3H 4H 5H 6H 7H 8H JK");
        t.open(N, "3S 4S 5S 6S 7S");
        t.open(N, "3C 4C 5C 6C 7C 8C");
        t.open(N, "10D 10S 10C");
        t
    };
    let pulito = Config::new(&TableSettings {
        preset: Preset::Fitab,
        close_requires_pulito: Some(true),
        ..TableSettings::default()
    })
    .expect("valid");
    let mut t = play(pulito);
    assert_eq!(
        t.refused(N, attach(3, "10H")),
        IllegalAction::CloseWithoutBurracoPulito
    );

    // Without the setting a burraco sporco is enough.
    let mut t = play(Config::of(Preset::Fitab));
    t.attach(N, 3, "10H");
    let events = t.discard(N, "KD");
    let Some(Event::HandEnded { end, score, .. }) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(*end, HandEnd::Closed { seat: N });
    let ns = &score.sides[Side::NorthSouth.index()];
    assert_eq!(ns.burracos.len(), 1);
    assert_eq!(
        (ns.burracos[0].kind, ns.burracos[0].bonus),
        (BurracoKind::Sporco, 100)
    );
}

/// Art. 14: the closing discard may not be a wild (a joker or a 2).
#[test]
fn refusal_close_with_a_wild() {
    for wild in ["JK", "2D"] {
        let pozzetto = format!("3C 4C 5C 6C 7C 8C 10D 10S 10C 10H {wild}");
        let mut t = burraco_and_pozzetto(Config::of(Preset::Feburit), &pozzetto);
        t.open(N, "3C 4C 5C 6C 7C 8C");
        t.open(N, "10D 10S 10C");
        assert_eq!(
            t.refused(N, attach(2, "10H")),
            IllegalAction::CloseWithWild,
            "{wild}"
        );
    }
}

/// Second round, N's turn: N holds the pozzetto's ten clubs 3..Q and a burraco; the pile is the
/// single card KC (`multi` false) or the two cards AC, KC (`multi` true). N picks it up.
fn pile_pickup_before_closing(config: Config, multi: bool) -> Table {
    let deck = DeckBuilder::four()
        .hand(N, HEARTS)
        .hand(S, "AC")
        .hand(W, "KC")
        .tallone("AH")
        .pozzetto(PozzettoId::A, "3C 4C 5C 6C 7C 8C 9C 10C JC QC 5S");
    let mut t = Table::new(config, &deck);
    t.draw(N);
    t.open(N, &format!("{HEARTS} AH"));
    t.discard(N, "5S");
    t.pass(); // E
    if multi {
        t.pick_up(S);
        t.discard(S, "AC");
        t.draw(W);
    } else {
        t.pass(); // S
        t.pick_up(W);
    }
    t.discard(W, "KC");
    assert_eq!(t.game.pile().len(), if multi { 2 } else { 1 });
    t.pick_up(N);
    assert_eq!(t.game.turns_played(), 4, "the second round");
    t
}

/// FITAB art. 32 D: no closing in the turn the pile was picked up ("chiusura al monte"),
/// whatever its size.
#[test]
fn refusal_close_al_monte_under_fitab() {
    for multi in [false, true] {
        let mut t = pile_pickup_before_closing(Config::of(Preset::Fitab), multi);
        let run = if multi {
            "4C 5C 6C 7C 8C 9C 10C JC QC KC AC"
        } else {
            "4C 5C 6C 7C 8C 9C 10C JC QC KC"
        };
        assert_eq!(t.refused(N, open(run)), IllegalAction::CloseAfterPilePickup);
    }
}

/// RULES.md 1: `feburit` allows closing al monte.
#[test]
fn feburit_allows_closing_al_monte() {
    for multi in [false, true] {
        let mut t = pile_pickup_before_closing(Config::of(Preset::Feburit), multi);
        let run = if multi {
            "4C 5C 6C 7C 8C 9C 10C JC QC KC AC"
        } else {
            "4C 5C 6C 7C 8C 9C 10C JC QC KC"
        };
        t.open(N, run);
        let events = t.discard(N, "3C");
        assert!(matches!(
            events.last(),
            Some(Event::HandEnded {
                end: HandEnd::Closed { seat: N },
                ..
            })
        ));
    }
}

/// FEDIBUR art. 5: closing al monte only when the pile was a single card.
#[test]
fn fedibur_closes_al_monte_only_after_a_single_card_pile() {
    let mut t = pile_pickup_before_closing(Config::of(Preset::Fedibur), false);
    t.open(N, "4C 5C 6C 7C 8C 9C 10C JC QC KC");
    let events = t.discard(N, "3C");
    assert!(matches!(
        events.last(),
        Some(Event::HandEnded {
            end: HandEnd::Closed { seat: N },
            ..
        })
    ));

    let mut t = pile_pickup_before_closing(Config::of(Preset::Fedibur), true);
    assert_eq!(
        t.refused(N, open("4C 5C 6C 7C 8C 9C 10C JC QC KC AC")),
        IllegalAction::CloseAfterMultiCardPickup
    );
}

/// Art. 8 still holds when closing: the single card picked up may not be the closing discard.
#[test]
fn the_single_picked_up_card_may_not_be_the_closing_discard() {
    let mut t = pile_pickup_before_closing(Config::of(Preset::Feburit), false);
    assert_eq!(
        t.refused(N, open("3C 4C 5C 6C 7C 8C 9C 10C JC QC")),
        IllegalAction::NoLegalDiscardLeft
    );
}

/// RULES.md 7: with "closing requires a burraco pulito" on, a reale and a super are enough: they
/// have no wild and count as pulito (the reale's 2 of hearts is its natural 2).
#[test]
fn reale_and_super_count_as_pulito_for_closing() {
    let pulito = Config::new(&TableSettings {
        preset: Preset::Fitab,
        close_requires_pulito: Some(true),
        ..TableSettings::default()
    })
    .expect("valid");

    // Reale: twelve hearts 3..A, then the pozzetto's 2H makes 2..A.
    let mut t = burraco_and_pozzetto(pulito, "2H 3C 4C 5C 6C 7C 8C 10D 10S 10C KD");
    t.attach(N, 0, "2H");
    t.open(N, "3C 4C 5C 6C 7C 8C");
    t.open(N, "10D 10S 10C");
    assert_eq!(t.game.legal_discards(), cs("KD"));
    let events = t.discard(N, "KD");
    let Some(Event::HandEnded { end, score, .. }) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(*end, HandEnd::Closed { seat: N });
    let ns = &score.sides[Side::NorthSouth.index()];
    let kinds: Vec<BurracoKind> = ns.burracos.iter().map(|b| b.kind).collect();
    assert_eq!(kinds, vec![BurracoKind::Reale]);

    // Super: eight tens.
    let deck = DeckBuilder::four()
        .hand(N, "10H 10H 10D 10D 10C 10C 10S 3S 4S 5S 6S")
        .tallone("10S")
        .pozzetto(PozzettoId::A, "3C 4C 5C 6C 7C 8C 9D 9S 9C 9H KD");
    let mut t = Table::new(pulito, &deck);
    t.draw(N);
    t.open(N, "10H 10H 10D 10D 10C 10C 10S 10S");
    t.open(N, "3S 4S 5S 6S");
    assert_eq!(t.game.pozzetto_of(Side::NorthSouth), Some(PozzettoId::A));
    t.open(N, "3C 4C 5C 6C 7C 8C");
    t.open(N, "9D 9S 9C");
    t.attach(N, 3, "9H");
    let events = t.discard(N, "KD");
    let Some(Event::HandEnded { end, score, .. }) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(*end, HandEnd::Closed { seat: N });
    let ns = &score.sides[Side::NorthSouth.index()];
    let kinds: Vec<BurracoKind> = ns.burracos.iter().map(|b| b.kind).collect();
    assert_eq!(kinds, vec![BurracoKind::Super]);
}

/// RULES.md 1 and 7: `fitab` and `feburit` allow closing during the first round of the hand.
#[test]
fn fitab_and_feburit_allow_closing_in_the_first_round() {
    for preset in [Preset::Fitab, Preset::Feburit] {
        let mut t = burraco_and_pozzetto(Config::of(preset), CLUBS);
        assert_eq!(t.game.turns_played(), 0);
        t.open(N, "3C 4C 5C 6C 7C 8C 9C 10C JC QC");
        let events = t.discard(N, "KC");
        assert_eq!(
            crate::support::hand_end(&events),
            Some(HandEnd::Closed { seat: N }),
            "{preset:?}"
        );
    }
}

/// FEDIBUR art. 5 head to head: the first round is the first two turns, so the player who could
/// not close in the first turn closes in the third.
#[test]
fn fedibur_first_round_head_to_head_is_two_turns() {
    let deck = DeckBuilder::two()
        .hand(N, HEARTS)
        .tallone("AH")
        .pozzetto(PozzettoId::A, CLUBS);
    let mut t = Table::new(Config::head_to_head(Preset::Fedibur), &deck);
    t.draw(N);
    t.open(N, &format!("{HEARTS} AH"));
    assert_eq!(
        t.refused(N, open("3C 4C 5C 6C 7C 8C 9C 10C JC QC")),
        IllegalAction::CloseInFirstRound
    );
    t.open(N, "3C 4C 5C 6C 7C 8C 9C 10C JC");
    t.discard(N, "KC");
    t.pass(); // S
    assert_eq!(t.game.turns_played(), 2, "the second round");
    t.draw(N);
    t.attach(N, 1, "QC");
    let closing = t.game.legal_discards();
    assert_eq!(closing.len(), 1);
    let events = t.act(N, burraco_rules::Action::Discard { card: closing[0] });
    assert_eq!(
        crate::support::hand_end(&events),
        Some(HandEnd::Closed { seat: N })
    );
}

/// RULES.md 7: with "closing requires a burraco pulito" on, a burraco semipulito (it has a wild)
/// is not enough; only reale, super and pulito count as pulito.
#[test]
fn refusal_close_with_only_a_burraco_semipulito_when_pulito_is_required() {
    let deck = DeckBuilder::four()
        .hand(N, "3H 4H 5H 6H 7H 8H 9H JK 3S 4S 5S")
        .tallone("6S")
        .pozzetto(PozzettoId::A, "3C 4C 5C 6C 7C 8C 10D 10S 10C 10H KD");
    let pulito = Config::new(&TableSettings {
        preset: Preset::Fitab,
        close_requires_pulito: Some(true),
        ..TableSettings::default()
    })
    .expect("valid");
    let mut t = Table::new(pulito, &deck);
    t.draw(N);
    t.open(N, "3H 4H 5H 6H 7H 8H 9H JK");
    assert_eq!(
        t.game.melds()[0].1.burraco_kind(true),
        Some(BurracoKind::Semipulito)
    );
    t.open(N, "3S 4S 5S 6S");
    assert_eq!(t.game.pozzetto_of(Side::NorthSouth), Some(PozzettoId::A));
    t.open(N, "3C 4C 5C 6C 7C 8C");
    t.open(N, "10D 10S 10C");
    assert_eq!(
        t.refused(N, attach(3, "10H")),
        IllegalAction::CloseWithoutBurracoPulito
    );
}

/// FITAB art. 32 D and RULES.md 13: "chiusura al monte" is closing in the same turn the pile was
/// picked up; at the player's next turn, after a draw, closing is allowed again.
#[test]
fn fitab_allows_closing_the_turn_after_a_pile_pick_up() {
    let mut t = pile_pickup_before_closing(Config::of(Preset::Fitab), false);
    // N holds clubs 3..K, the KC just picked up; it keeps KC for the next turn.
    t.open(N, "4C 5C 6C 7C 8C 9C 10C JC QC");
    t.discard(N, "3C");
    for _ in 0..3 {
        t.pass();
    }
    t.draw(N);
    t.attach(N, 1, "KC");
    let closing = t.game.legal_discards();
    assert_eq!(closing.len(), 1);
    let events = t.act(N, burraco_rules::Action::Discard { card: closing[0] });
    assert_eq!(
        crate::support::hand_end(&events),
        Some(HandEnd::Closed { seat: N })
    );
}
