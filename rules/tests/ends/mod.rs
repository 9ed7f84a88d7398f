//! RULES.md section 8: the hand ends when the tallone is exhausted (art. 17) and, by preset, on a
//! stallo (art. 16; FE.BUR.IT art. 20; FEDIBUR art. 5).

use burraco_rules::{
    Action, Config, Event, HandEnd, IllegalAction, PozzettoId, Preset, Seat, Side,
};

use crate::support::{DeckBuilder, Table, cs, hand_end};

const N: Seat = Seat::North;
const S: Seat = Seat::South;

/// The seat on turn draws and throws back the card it drew: hands never change.
fn draw_and_throw_back(t: &mut Table) -> Vec<Event> {
    let seat = t.on_turn();
    let mut events = t.draw(seat);
    let Some(Event::DrewCard { card, .. }) = events.last().cloned() else {
        panic!("{events:?}")
    };
    events.extend(t.act(seat, Action::Discard { card }));
    events
}

/// A card exchange: pick up the single-card pile, discard the lowest other card.
fn exchange(t: &mut Table) -> Vec<Event> {
    let seat = t.on_turn();
    assert_eq!(
        t.game.pile().len(),
        1,
        "an exchange takes a single-card pile"
    );
    let mut events = t.pick_up(seat);
    let card = t
        .game
        .legal_discards()
        .into_iter()
        .min_by_key(|c| c.norma_key())
        .expect("discard");
    events.extend(t.act(seat, Action::Discard { card }));
    events
}

/// Art. 17: the last two tallone cards are never drawn; the hand ends with the discard of the
/// player who drew the third-to-last card, without closing bonus.
#[test]
fn tallone_exhausted_ends_the_hand_after_the_third_to_last_card() {
    for (config, deck, tallone) in [
        (Config::of(Preset::Fitab), DeckBuilder::four(), 41),
        (
            Config::head_to_head(Preset::Fedibur),
            DeckBuilder::two(),
            63,
        ),
    ] {
        let mut t = Table::new(config, &deck);
        for _ in 0..tallone - 3 {
            let events = draw_and_throw_back(&mut t);
            assert_eq!(hand_end(&events), None);
        }
        assert_eq!(t.game.tallone_len(), 3);
        let last = t.on_turn();
        let events = draw_and_throw_back(&mut t);
        assert_eq!(t.game.tallone_len(), 2, "the last two cards stay");
        assert_eq!(hand_end(&events), Some(HandEnd::TalloneExhausted));
        assert_eq!(t.on_turn(), last);
        assert_eq!(t.game.turns_played() as usize, tallone - 3);
        let (_, score) = t.result().expect("over");
        assert!(score.sides.iter().all(|s| s.closing == 0));
        assert!(score.sides.iter().all(|s| s.pozzetto == -100));
    }
}

/// Art. 17: the player who drew the third-to-last card plays the whole turn; going to the pozzetto
/// con lo scarto with that discard still ends the hand, and the unplayed pozzetto counts as cards
/// in hand (RULES.md 10).
#[test]
fn tallone_exhausted_after_a_pozzetto_con_lo_scarto() {
    // S plays turns 2, 6, ..., 38: its tenth draw is the 39th card, the third-to-last of 41.
    let hearts = "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH";
    let deck = DeckBuilder::four()
        .hand(S, hearts)
        .tallone(&filler_tallone_ending_in("5S"))
        .pozzetto(PozzettoId::A, "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC");
    let mut t = Table::new(Config::of(Preset::Feburit), &deck);
    for _ in 0..38 {
        draw_and_throw_back(&mut t);
    }
    assert_eq!(t.on_turn(), S);
    t.draw(S);
    t.open(S, hearts);
    let events = t.discard(S, "5S");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::PozzettoTaken {
            seat: S,
            in_diretta: false,
            ..
        }
    )));
    assert_eq!(hand_end(&events), Some(HandEnd::TalloneExhausted));
    let (_, score) = t.result().expect("over");
    let ns = &score.sides[Side::NorthSouth.index()];
    assert_eq!(ns.pozzetto, 0, "the pozzetto was taken");
    assert_eq!(
        ns.in_hand,
        -(85 + t.game.hand(N).points()),
        "the unplayed pozzetto counts in hand"
    );
    assert_eq!(ns.melded, 85);
    assert_eq!(ns.burraco_bonus(), 200);
    assert_eq!(ns.closing, 0);
}

/// Thirty-eight dull natural cards, then `last` as the 39th card of the tallone.
fn filler_tallone_ending_in(last: &str) -> String {
    let dull = "4D 4S 5D 6D 6S 7D 7S 8D 8S 9D 9S 10D 10S JD JS QD QS KD KS \
                4D 4S 5D 6D 6S 7D 7S 8D 8S 9D 9S 10D 10S JD JS QD QS KD KS";
    let mut cards = cs(dull);
    assert_eq!(cards.len(), 38);
    cards.push(last.parse().expect("card"));
    cards
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// RULES.md 8: one round of card exchanges brings a warning, two a stallo, and under `fitab` and
/// `feburit` a further exchange ends the hand, scored as it stands, without closing bonus.
#[test]
fn stallo_ends_the_hand_under_fitab_and_feburit() {
    for preset in [Preset::Fitab, Preset::Feburit] {
        for (config, deck, players) in [
            (Config::of(preset), DeckBuilder::four(), 4u8),
            (Config::head_to_head(preset), DeckBuilder::two(), 2),
        ] {
            let mut t = Table::new(config, &deck);
            for k in 1..=2 * players {
                let events = exchange(&mut t);
                assert_eq!(t.game.stallo().0, k);
                let warned = events.contains(&Event::StalloWarning { exchanges: players });
                assert_eq!(
                    warned,
                    k == players,
                    "{preset:?} warning after exchange {k}"
                );
                let stallo = events.contains(&Event::Stallo { must_draw: None });
                assert_eq!(
                    stallo,
                    k == 2 * players,
                    "{preset:?} stallo after exchange {k}"
                );
                assert_eq!(hand_end(&events), None);
            }
            let events = exchange(&mut t);
            assert_eq!(
                hand_end(&events),
                Some(HandEnd::Stallo),
                "{preset:?} {players}"
            );
            let (_, score) = t.result().expect("over");
            assert!(score.sides.iter().all(|s| s.closing == 0));
        }
    }
}

/// RULES.md 8: after two rounds of exchanges under `fedibur`, the player who made the first
/// exchange of the run must draw.
#[test]
fn stallo_under_fedibur_makes_the_first_exchanger_draw() {
    for (config, deck, players) in [
        (Config::of(Preset::Fedibur), DeckBuilder::four(), 4u8),
        (Config::head_to_head(Preset::Fedibur), DeckBuilder::two(), 2),
    ] {
        let mut t = Table::new(config, &deck);
        // A draw, then a two-card pick-up: neither is an exchange; the run starts after them.
        t.pass();
        let seat = t.on_turn();
        t.pick_up(seat);
        let card = t.game.legal_discards()[0];
        t.act(seat, Action::Discard { card });
        let first = t.on_turn();
        let mut events = Vec::new();
        for _ in 0..2 * players {
            events = exchange(&mut t);
        }
        assert!(events.contains(&Event::Stallo {
            must_draw: Some(first)
        }));
        assert_eq!(t.on_turn(), first);
        assert_eq!(t.game.stallo(), (2 * players, Some(first)));
        assert_eq!(
            t.refused(first, Action::PickUp),
            IllegalAction::StalloMustDraw
        );
        assert_eq!(t.game.legal_takes(), vec![Action::Draw]);
        assert_eq!(
            t.game
                .view(burraco_rules::Viewer::Spectator)
                .stallo_must_draw,
            Some(first)
        );
        t.pass();
        assert_eq!(
            t.game.stallo(),
            (0, None),
            "the draw ends the run and the obligation"
        );
        assert!(!t.game.is_over());
    }
}

/// RULES.md 8 and 13: the exchanges must be consecutive; any other take starts the count again.
/// A card exchange is a single-card pick-up whatever else the turn does.
#[test]
fn stallo_counts_consecutive_exchanges_only() {
    let deck = DeckBuilder::four().hand(S, "7H 7D 7C 3S 3S 4S 4S 5D 5D 6S 6S");
    let mut t = Table::new(Config::of(Preset::Fitab), &deck);
    for _ in 0..3 {
        exchange(&mut t); // N, E, S
    }
    assert_eq!(t.game.stallo().0, 3);
    t.pass(); // W draws
    assert_eq!(t.game.stallo().0, 0);
    // A two-card pile is not an exchange either.
    assert_eq!(t.game.pile().len(), 2);
    t.pick_up(N);
    let card = t.game.legal_discards()[0];
    t.act(N, Action::Discard { card });
    assert_eq!(t.game.stallo().0, 0);
    exchange(&mut t); // E
    // An exchange that also melds is still an exchange.
    t.pick_up(S);
    t.open(S, "7H 7D 7C");
    let card = t.game.legal_discards()[0];
    t.act(S, Action::Discard { card });
    assert_eq!(t.game.stallo().0, 2);
    exchange(&mut t); // W
    let events = exchange(&mut t); // N
    assert!(events.contains(&Event::StalloWarning { exchanges: 4 }));
}

/// RULES.md 8: under `feburit` (which allows closing after a pick-up) the exchange after a stallo
/// ends the hand with its discard, and when that discard closes, the hand is closed and earns the
/// closing bonus. Head to head the stallo is four exchanges and the fifth is the last. The
/// exchanges pass a joker back and forth: any two jokers are identical (RULES.md 4, art. 8).
#[test]
fn stallo_ending_discard_that_closes_earns_the_bonus() {
    let deck = DeckBuilder::two()
        .hand(N, "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
        .hand(S, "JK 2H")
        .up("JK")
        .tallone("AH")
        .pozzetto(PozzettoId::A, "3C 4C 5C 6C 7C 8C JK 10D 10S KD QD");
    let mut t = Table::new(Config::head_to_head(Preset::Feburit), &deck);
    t.draw(N);
    t.open(N, "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH");
    // Head to head North is a side of its own (`Players::side_of`).
    let north = Side::EastWest;
    assert_eq!(t.game.pozzetto_of(north), Some(PozzettoId::A));
    t.discard(N, "QD");
    // A two-card pile: not an exchange.
    t.pick_up(S);
    t.discard(S, "JK");
    for (k, seat) in [N, S, N, S].into_iter().enumerate() {
        t.pick_up(seat);
        let card = if k == 3 { "2H" } else { "JK" };
        let events = t.discard(seat, card);
        assert_eq!(hand_end(&events), None);
        assert_eq!(
            events.contains(&Event::Stallo { must_draw: None }),
            k == 3,
            "stallo after exchange {}",
            k + 1
        );
    }
    // The fifth exchange: N picks up the 2H and closes.
    t.pick_up(N);
    t.attach(N, 0, "2H");
    t.open(N, "3C 4C 5C 6C 7C 8C");
    t.open(N, "10D 10S JK");
    let events = t.discard(N, "KD");
    assert_eq!(hand_end(&events), Some(HandEnd::Closed { seat: N }));
    let (_, score) = t.result().expect("over");
    assert_eq!(score.sides[north.index()].closing, 100);
    assert_eq!(score.sides[north.other().index()].closing, 0);
}

/// Art. 17: the player who drew the third-to-last card finishes the turn; when that discard closes,
/// the hand ends closed and earns the closing bonus.
#[test]
fn tallone_exhausted_turn_that_closes_earns_the_closing_bonus() {
    // S plays turns 2, 6, ..., 38: its first draw is the third tallone card (the ace of hearts),
    // its tenth the 39th, the third-to-last of 41.
    let hearts = "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH";
    let mut tallone = cs(&filler_tallone_ending_in("5S"));
    tallone[2] = "AH".parse().expect("card");
    let tallone = tallone
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    let deck = DeckBuilder::four()
        .hand(S, hearts)
        .tallone(&tallone)
        .pozzetto(PozzettoId::A, "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC");
    let mut t = Table::new(Config::of(Preset::Fitab), &deck);
    draw_and_throw_back(&mut t);
    draw_and_throw_back(&mut t);
    assert_eq!(t.on_turn(), S);
    t.draw(S);
    t.open(S, &format!("{hearts} AH"));
    assert_eq!(t.game.pozzetto_of(Side::NorthSouth), Some(PozzettoId::A));
    t.discard(S, "KC");
    for _ in 3..38 {
        let events = draw_and_throw_back(&mut t);
        assert_eq!(hand_end(&events), None);
    }
    assert_eq!((t.on_turn(), t.game.tallone_len()), (S, 3));
    t.draw(S);
    assert_eq!(t.game.tallone_len(), 2);
    t.open(S, "3C 4C 5C 6C 7C 8C 9C 10C JC QC");
    let events = t.discard(S, "5S");
    assert_eq!(hand_end(&events), Some(HandEnd::Closed { seat: S }));
    let (_, score) = t.result().expect("over");
    assert_eq!(score.sides[Side::NorthSouth.index()].closing, 100);
    assert_eq!(score.sides[Side::EastWest.index()].closing, 0);
}

/// RULES.md 8: the server tells the table when a stallo is one round away (after one round of
/// card exchanges: 4 with four players, 2 head to head), under every preset.
#[test]
fn the_table_is_warned_one_round_before_a_stallo_under_every_preset() {
    for preset in Preset::ALL {
        for (config, deck, players) in [
            (Config::of(preset), DeckBuilder::four(), 4u8),
            (Config::head_to_head(preset), DeckBuilder::two(), 2),
        ] {
            let mut t = Table::new(config, &deck);
            for k in 1..=2 * players {
                let events = exchange(&mut t);
                let warnings = events
                    .iter()
                    .filter(|e| matches!(e, Event::StalloWarning { .. }))
                    .count();
                assert_eq!(
                    warnings,
                    usize::from(k == players),
                    "{preset:?} {players} players, exchange {k}"
                );
                assert_eq!(
                    events.iter().any(|e| matches!(e, Event::Stallo { .. })),
                    k == 2 * players,
                    "{preset:?} {players} players, exchange {k}"
                );
            }
        }
    }
}

/// RULES.md 8: under `fitab` and `feburit` only a card exchange right after the stallo ends the
/// hand; a turn that draws instead ends the run, and the hand goes on.
#[test]
fn after_a_stallo_a_turn_that_draws_lets_the_hand_go_on() {
    for preset in [Preset::Fitab, Preset::Feburit] {
        for (config, deck, players) in [
            (Config::of(preset), DeckBuilder::four(), 4u8),
            (Config::head_to_head(preset), DeckBuilder::two(), 2),
        ] {
            let mut t = Table::new(config, &deck);
            for _ in 0..2 * players {
                exchange(&mut t);
            }
            assert_eq!(t.game.stallo().0, 2 * players);
            let events = draw_and_throw_back(&mut t);
            assert_eq!(hand_end(&events), None, "{preset:?} {players}");
            assert!(!t.game.is_over());
            assert_eq!(t.game.stallo(), (0, None));
            // The next take is free, and the hand still goes on.
            let seat = t.on_turn();
            t.pick_up(seat);
            let card = t.game.legal_discards()[0];
            let events = t.act(seat, Action::Discard { card });
            assert_eq!(hand_end(&events), None, "{preset:?} {players}");
        }
    }
}
