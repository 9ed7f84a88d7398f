//! RULES.md section 9, per-move clock (FITAB art. 34; FIBUR art. 32 bis): the limit by cards held,
//! the grace, relaxed and off clocks, and what the server does when the clock runs out.

use burraco_rules::{
    Action, ClockMode, Config, ConfigError, Event, IllegalAction, Input, MatchLength, MoveClock,
    Preset, Seat, TableSettings, Viewer,
};

use crate::support::{DeckBuilder, Table, c, discarders};

const N: Seat = Seat::North;
const E: Seat = Seat::East;

fn clock(limit_s: u32, grace_s: u32) -> Option<MoveClock> {
    Some(MoveClock {
        limit_ms: limit_s * 1000,
        grace_ms: grace_s * 1000,
    })
}

fn with_clocks(preset: Preset, clocks: ClockMode) -> Result<Config, ConfigError> {
    Config::new(&TableSettings {
        preset,
        clocks: Some(clocks),
        ..TableSettings::default()
    })
}

/// RULES.md 9: fewer than 4 cards 10 s, 4 to 10 cards 20 s, 11 or more 40 s, then 5 s of grace;
/// relaxed doubles every limit; `fedibur` has no clock.
#[test]
fn move_clock_by_cards_held() {
    let federation = Config::of(Preset::Fitab);
    let relaxed = with_clocks(Preset::Feburit, ClockMode::Relaxed).expect("valid");
    let off = with_clocks(Preset::Fitab, ClockMode::Off).expect("valid");
    for (held, limit) in [
        (0, 10),
        (1, 10),
        (3, 10),
        (4, 20),
        (10, 20),
        (11, 40),
        (12, 40),
        (30, 40),
    ] {
        assert_eq!(federation.move_clock(held), clock(limit, 5), "{held} cards");
        assert_eq!(
            Config::of(Preset::Feburit).move_clock(held),
            clock(limit, 5)
        );
        assert_eq!(
            relaxed.move_clock(held),
            clock(2 * limit, 10),
            "relaxed, {held} cards"
        );
        assert_eq!(off.move_clock(held), None);
        assert_eq!(Config::of(Preset::Fedibur).move_clock(held), None);
    }
    assert_eq!(
        with_clocks(Preset::Fedibur, ClockMode::Federation),
        Err(ConfigError::ClockNotInPreset { preset: "fedibur" })
    );
}

fn turn_clock(events: &[Event], seat: Seat) -> (u8, Option<MoveClock>) {
    events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::TurnStarted {
                seat: s,
                cards_held,
                clock,
            } if *s == seat => Some((*cards_held, *clock)),
            _ => None,
        })
        .expect("a TurnStarted for the seat")
}

/// RULES.md 9: the limit is set by the cards held at the start of the turn, announced with it.
#[test]
fn each_turn_announces_its_clock_from_the_cards_held() {
    let deck = DeckBuilder::four()
        .hand(N, "3H 4H 5H 6H 7H 8H 9H 3S 4S 5S 9D")
        .tallone("KD");
    for (config, factor) in [
        (Config::of(Preset::Fitab), Some(1)),
        (
            with_clocks(Preset::Fitab, ClockMode::Relaxed).expect("valid"),
            Some(2),
        ),
        (Config::of(Preset::Fedibur), None),
    ] {
        let expect = |s: u32| {
            factor.map(|f| MoveClock {
                limit_ms: s * 1000 * f,
                grace_ms: 5000 * f,
            })
        };
        let mut t = Table::new(config, &deck);
        assert_eq!(turn_clock(&t.events, N), (11, expect(40)));
        assert_eq!(t.game.move_clock(), expect(40));
        t.draw(N);
        t.open(N, "3H 4H 5H 6H 7H 8H 9H");
        assert_eq!(
            t.game.move_clock(),
            expect(40),
            "the limit is fixed at the start of the turn"
        );
        t.discard(N, "9D");
        // E picks up the two-card pile: 13 cards at its next turn.
        t.pick_up(E);
        t.discard(E, &t.game.legal_discards()[0].to_string());
        t.pass();
        t.pass();
        assert_eq!(turn_clock(&t.events, N), (4, expect(20)));
        assert_eq!(t.game.view(Viewer::Spectator).move_clock, expect(20));
        t.draw(N);
        t.open(N, "3S 4S 5S");
        t.discard(N, "KD");
        assert_eq!(turn_clock(&t.events, E), (12, expect(40)));
        for _ in 0..3 {
            t.pass();
        }
        assert_eq!(turn_clock(&t.events, N), (1, expect(10)));
    }
}

/// RULES.md 9: when the clock runs out before the take, the server draws from the tallone and
/// discards the highest legal card secondo norma; the next turn starts.
#[test]
fn clock_expiry_draws_then_discards_the_highest_card() {
    let deck = DeckBuilder::four()
        .hand(N, "3H 4D 5C 6S 7H 8D 9C 10S JH QD KC")
        .tallone("3S");
    let mut t = Table::new(Config::of(Preset::Fitab), &deck);
    let events = t.clock();
    assert_eq!(
        events[..4],
        [
            Event::ClockExpired { seat: N },
            Event::Drew { seat: N },
            Event::DrewCard {
                seat: N,
                card: c("3S")
            },
            // Five 10-point cards: hearts first (RULES.md 2), so JH.
            Event::Discarded {
                seat: N,
                card: c("JH")
            },
        ]
    );
    assert!(matches!(events[4], Event::TurnStarted { seat: E, .. }));
    assert_eq!(events.len(), 5);
    assert_eq!(events[2].private_to(), Some(N));
}

/// RULES.md 1 and 9: a table without a per-move clock (`fedibur`, or clocks switched off) has no
/// expiry to apply, so a record claiming one is refused and changes nothing.
#[test]
fn clock_expiry_is_refused_without_a_move_clock() {
    let deck = DeckBuilder::four().hand(N, "3H 4D 5C 6S 7H 8D 9C 10S JH QD KC");
    for config in [
        Config::of(Preset::Fedibur),
        with_clocks(Preset::Fitab, ClockMode::Off).unwrap(),
    ] {
        let mut t = Table::new(config, &deck);
        assert_eq!(
            t.refused_input(&Input::ClockExpired),
            IllegalAction::NoMoveClock
        );
    }
}

/// RULES.md 2 "secondo norma" (the FITAB definition): highest value first; equal values by suit
/// order (hearts, diamonds, clubs, spades); within one suit by rank order (joker, 2, A, K, ..., 3).
#[test]
fn clock_expiry_follows_the_norma_order() {
    let low = [
        "3S", "3S", "4S", "4S", "5S", "5S", "6S", "6S", "3C", "3C", "4C",
    ];
    for (cards, expected) in [
        ("JK 2H AH", "JK"),
        ("2S 2H AH", "2H"),
        ("2C 2D KH", "2D"),
        ("AS KH QH", "AS"),
        ("KS QH JH", "QH"),
        ("KS KH QD", "KH"),
        ("KC KD 10H", "10H"),
        ("8S 7H 7D", "8S"),
        ("7S 6H 5D", "6H"),
        ("7S 7H 7C", "7H"),
        ("10S 9H 8H", "9H"),
    ] {
        let mut hand: Vec<&str> = cards.split(' ').collect();
        hand.extend_from_slice(&low[hand.len()..]);
        let deck = DeckBuilder::four().hand(N, &hand.join(" ")).tallone("3D");
        let mut t = Table::new(Config::of(Preset::Feburit), &deck);
        t.draw(N);
        let events = t.clock();
        assert_eq!(
            events[..2],
            [
                Event::ClockExpired { seat: N },
                Event::Discarded {
                    seat: N,
                    card: c(expected)
                }
            ],
            "hand {cards}: already taken, so no draw"
        );
    }
}

/// RULES.md 9 and art. 8: the automatic discard is the highest *legal* card, so a single card
/// just picked up is skipped unless an identical card is held.
#[test]
fn clock_expiry_skips_the_single_picked_up_card() {
    let deck = DeckBuilder::four()
        .hand(N, "AH KS 3S 3S 4S 4S 5S 5S 6S 6S 3C")
        .up("JK");
    let mut t = Table::new(Config::of(Preset::Fitab), &deck);
    t.pick_up(N);
    let events = t.clock();
    assert_eq!(
        events[1],
        Event::Discarded {
            seat: N,
            card: c("AH")
        }
    );

    let deck = DeckBuilder::four()
        .hand(N, "JK AH KS 3S 3S 4S 4S 5S 5S 6S 6S")
        .up("JK");
    let mut t = Table::new(Config::of(Preset::Fitab), &deck);
    t.pick_up(N);
    let events = t.clock();
    assert_eq!(
        events[1],
        Event::Discarded {
            seat: N,
            card: c("JK")
        }
    );
}

/// RULES.md 9: clock expiry completes whatever turn is in progress, then play goes on.
#[test]
fn clock_expiry_completes_turns_in_a_row() {
    let mut t = Table::new(Config::of(Preset::Feburit), &DeckBuilder::four());
    for _ in 0..8 {
        t.clock();
    }
    assert_eq!(
        discarders(&t.events),
        vec![N, E, Seat::South, Seat::West, N, E, Seat::South, Seat::West]
    );
    assert_eq!(t.game.tallone_len(), 41 - 8);
    assert_eq!(t.game.legal_actions(), vec![Action::Draw, Action::PickUp]);
}

/// RULES.md 1 and 9: the round clock of a match of N hands is 22/32/42 minutes for 2/3/4 hands
/// under `fitab` and 25/35/45 under `feburit` (art. 5); lengths the codes do not list take ten
/// minutes a hand plus 2 (FITAB) or plus 5 (FE.BUR.IT); relaxed clocks double it as they double
/// the move limits (section 1's "relaxed = doubled"; section 9 names only the move limits). A
/// casual `fedibur` table, a match by points and clocks off have no round clock, so no TIME OUT
/// comes from the table.
#[test]
fn round_clock_by_preset_and_match_length() {
    let round_clock = |preset, clocks, length| {
        Config::new(&TableSettings {
            preset,
            clocks: Some(clocks),
            match_length: Some(length),
            ..TableSettings::default()
        })
        .expect("valid")
        .round_clock_ms()
    };
    let minutes = |m: u64| Some(m * 60_000);
    let federation = ClockMode::Federation;
    for (hands, fitab, feburit) in [
        (1, 12, 15),
        (2, 22, 25),
        (3, 32, 35),
        (4, 42, 45),
        (5, 52, 55),
        (8, 82, 85),
    ] {
        let length = MatchLength::Hands(hands);
        assert_eq!(
            round_clock(Preset::Fitab, federation, length),
            minutes(fitab),
            "fitab, {hands} hands"
        );
        assert_eq!(
            round_clock(Preset::Feburit, federation, length),
            minutes(feburit),
            "feburit, {hands} hands"
        );
        // "Relaxed = doubled" (RULES.md section 1): the round clock as the move clock.
        assert_eq!(
            round_clock(Preset::Fitab, ClockMode::Relaxed, length),
            minutes(2 * fitab),
            "fitab relaxed, {hands} hands"
        );
        assert_eq!(round_clock(Preset::Fitab, ClockMode::Off, length), None);
        assert_eq!(round_clock(Preset::Fedibur, ClockMode::Off, length), None);
    }
    assert_eq!(Config::of(Preset::Fitab).round_clock_ms(), minutes(22));
    assert_eq!(Config::of(Preset::Feburit).round_clock_ms(), minutes(35));
    assert_eq!(Config::of(Preset::Fedibur).round_clock_ms(), None);
    let by_points = MatchLength::Points(2005);
    assert_eq!(round_clock(Preset::Fitab, federation, by_points), None);
}

/// RULES.md 8 and 9: a turn completed by the clock is a turn like any other: when its draw is the
/// third-to-last tallone card, the hand ends with the automatic discard (art. 17).
#[test]
fn clock_expiry_on_the_third_to_last_card_ends_the_hand() {
    let mut t = Table::new(Config::of(Preset::Fitab), &DeckBuilder::four());
    for _ in 0..38 {
        let events = t.clock();
        assert_eq!(crate::support::hand_end(&events), None);
    }
    assert_eq!(t.game.tallone_len(), 3);
    let events = t.clock();
    assert_eq!(
        crate::support::hand_end(&events),
        Some(burraco_rules::HandEnd::TalloneExhausted)
    );
    assert_eq!(t.game.tallone_len(), 2);
    let (_, score) = t.result().expect("over");
    assert!(score.sides.iter().all(|s| s.closing == 0));
}
