//! RULES.md section 9, round clock: after the TIME OUT the hand ends after a last round whose
//! length depends on the preset (FITAB art. 15, FE.BUR.IT art. 22, FEDIBUR art. 10) and on the
//! moment of the announcement: before the first take, before a take, or in the middle of a turn.

use burraco_rules::{Config, Event, HandEnd, IllegalAction, Input, PozzettoId, Preset, Seat, Side};

use crate::support::{DeckBuilder, Table, discarders, hand_end};

const N: Seat = Seat::North;
const E: Seat = Seat::East;
const S: Seat = Seat::South;
const W: Seat = Seat::West;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Moment {
    /// Turn 0, nobody has taken yet ("announced during the deal").
    BeforeFirstTake,
    /// `turns` turns have been played and the seat on turn has not taken.
    BeforeTake { turns: u32 },
    /// `turns` turns have been played and the seat on turn has drawn.
    MidTurn { turns: u32 },
}

/// Plays to `moment`, announces the TIME OUT, then lets every seat draw and discard until the
/// hand ends. Returns the announced turns left and the seats that played after the announcement,
/// the seat on turn first.
fn last_round(config: Config, moment: Moment) -> (u8, Vec<Seat>, Table) {
    let deck = if config.players().count() == 4 {
        DeckBuilder::four()
    } else {
        DeckBuilder::two()
    };
    let mut t = Table::new(config, &deck);
    let turns = match moment {
        Moment::BeforeFirstTake => 0,
        Moment::BeforeTake { turns } | Moment::MidTurn { turns } => turns,
    };
    for _ in 0..turns {
        t.pass();
    }
    if let Moment::MidTurn { .. } = moment {
        let seat = t.on_turn();
        t.draw(seat);
    }
    let events = t.time_out();
    let Event::TimeOutAnnounced { turns_left } = events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(t.game.last_round(), Some(turns_left));
    let mark = t.events.len();
    let mut guard = 0;
    while !t.game.is_over() {
        t.pass();
        guard += 1;
        assert!(guard < 20, "the last round does not end");
    }
    let seats = discarders(&t.events[mark..]);
    (turns_left, seats, t)
}

fn check(config: Config, moment: Moment, expected: &[Seat]) {
    let (turns_left, seats, t) = last_round(config, moment);
    let what = format!("{:?} {:?} {moment:?}", config.preset(), config.players());
    assert_eq!(seats, expected, "{what}");
    assert_eq!(usize::from(turns_left), expected.len(), "{what}");
    assert_eq!(
        t.result().map(|(end, _)| end),
        Some(HandEnd::TimeOut),
        "{what}"
    );
}

/// FITAB art. 15: announced before P takes (or during the deal), one full round starting with P.
#[test]
fn fitab_time_out_before_a_take_is_one_full_round() {
    let fitab = Config::of(Preset::Fitab);
    check(fitab, Moment::BeforeFirstTake, &[N, E, S, W]);
    check(fitab, Moment::BeforeTake { turns: 6 }, &[S, W, N, E]);
    check(fitab, Moment::BeforeTake { turns: 3 }, &[W, N, E, S]);
}

/// FITAB art. 15 and RULES.md 13, the worked example of section 9: with P on turn after taking, N
/// next and R on P's right, after P's discard come N, P's partner, then the final round R, P, N,
/// P's partner: P plays once more, R once, the other two twice.
#[test]
fn fitab_time_out_mid_turn_worked_example() {
    // P = South, N = West (next), P's partner = North, R = East.
    let (p, next, partner, right) = (S, W, N, E);
    let (turns_left, seats, _) =
        last_round(Config::of(Preset::Fitab), Moment::MidTurn { turns: 6 });
    assert_eq!(seats, vec![p, next, partner, right, p, next, partner]);
    assert_eq!(turns_left, 7);
    for (seat, after_p) in [(p, 1), (right, 1), (next, 2), (partner, 2)] {
        assert_eq!(
            seats[1..].iter().filter(|&&s| s == seat).count(),
            after_p,
            "{seat}"
        );
    }
    // The same from the very first turn.
    check(
        Config::of(Preset::Fitab),
        Moment::MidTurn { turns: 0 },
        &[N, E, S, W, N, E, S],
    );
}

/// FE.BUR.IT art. 22: the player on turn finishes and plays once more at the end; if P has not
/// taken, one full round starting with P.
#[test]
fn feburit_time_out() {
    let feburit = Config::of(Preset::Feburit);
    check(feburit, Moment::BeforeFirstTake, &[N, E, S, W]);
    check(feburit, Moment::BeforeTake { turns: 6 }, &[S, W, N, E]);
    check(feburit, Moment::MidTurn { turns: 6 }, &[S, W, N, E, S]);
    check(feburit, Moment::MidTurn { turns: 1 }, &[E, S, W, N, E]);
}

/// FEDIBUR art. 10: the round in progress is completed up to the dealer, then one full round
/// ending with the dealer: 4 to 7 further turns. West deals here.
#[test]
fn fedibur_time_out_completes_the_round_then_plays_one_more() {
    let fedibur = Config::of(Preset::Fedibur);
    check(
        fedibur,
        Moment::BeforeTake { turns: 6 },
        &[S, W, N, E, S, W],
    );
    check(fedibur, Moment::MidTurn { turns: 6 }, &[S, W, N, E, S, W]);
    // The dealer on turn: 4 further turns.
    check(fedibur, Moment::BeforeTake { turns: 3 }, &[W, N, E, S, W]);
    // The dealer's left on turn: 7 further turns.
    check(
        fedibur,
        Moment::BeforeTake { turns: 4 },
        &[N, E, S, W, N, E, S, W],
    );
    // After the first take the hand is played.
    check(
        fedibur,
        Moment::MidTurn { turns: 0 },
        &[N, E, S, W, N, E, S, W],
    );
}

/// FEDIBUR art. 10: announced during the deal or before the first take, the hand is not played
/// and the previous hand's score stands (the hand scores nothing).
#[test]
fn fedibur_time_out_before_the_first_take_voids_the_hand() {
    for config in [
        Config::of(Preset::Fedibur),
        Config::head_to_head(Preset::Fedibur),
    ] {
        let deck = if config.players().count() == 4 {
            DeckBuilder::four()
        } else {
            DeckBuilder::two()
        };
        let mut t = Table::new(config, &deck);
        let events = t.time_out();
        assert_eq!(events[0], Event::TimeOutAnnounced { turns_left: 0 });
        assert_eq!(hand_end(&events), Some(HandEnd::Voided));
        let (_, score) = t.result().expect("over");
        assert!(
            score
                .sides
                .iter()
                .all(|s| s.total() == 0 && s.pozzetto == 0)
        );
        assert_eq!(t.game.turns_played(), 0);
    }
}

/// RULES.md 9: head to head every procedure is the player on turn finishing, then each player once
/// more.
#[test]
fn head_to_head_time_out_is_three_turns() {
    // South deals: North plays first.
    for preset in Preset::ALL {
        let config = Config::head_to_head(preset);
        check(config, Moment::BeforeTake { turns: 2 }, &[N, S, N]);
        check(config, Moment::MidTurn { turns: 2 }, &[N, S, N]);
        check(config, Moment::MidTurn { turns: 3 }, &[S, N, S]);
        if preset != Preset::Fedibur {
            check(config, Moment::BeforeFirstTake, &[N, S, N]);
        }
    }
}

/// RULES.md 9: the TIME OUT is announced once.
#[test]
fn refusal_time_out_twice() {
    let mut t = Table::new(Config::of(Preset::Fitab), &DeckBuilder::four());
    t.pass();
    t.time_out();
    assert_eq!(
        t.refused_input(&Input::TimeOut),
        IllegalAction::TimeOutAlreadyAnnounced
    );
}

/// RULES.md 9 and 10: the hand ended by the last round has no closing bonus, and (RULES.md 13) a
/// side that never took its pozzetto still loses 100.
#[test]
fn time_out_end_scores_without_closing_bonus() {
    let (_, _, t) = last_round(Config::of(Preset::Feburit), Moment::MidTurn { turns: 2 });
    let (end, score) = t.result().expect("over");
    assert_eq!(end, HandEnd::TimeOut);
    for side in &score.sides {
        assert_eq!(side.closing, 0);
        assert_eq!(side.pozzetto, -100);
    }
}

/// RULES.md 9: "without closing bonus unless someone closes": closing in the last round ends the
/// hand at once, with the bonus.
#[test]
fn closing_in_the_last_round_earns_the_bonus() {
    let deck = DeckBuilder::four()
        .hand(N, "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
        .tallone("AH")
        .pozzetto(PozzettoId::A, "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC");
    let mut t = Table::new(Config::of(Preset::Fitab), &deck);
    t.draw(N);
    t.time_out();
    t.open(N, "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH");
    t.open(N, "3C 4C 5C 6C 7C 8C 9C 10C JC QC");
    let events = t.discard(N, "KC");
    assert_eq!(hand_end(&events), Some(HandEnd::Closed { seat: N }));
    let (_, score) = t.result().expect("over");
    assert_eq!(score.sides[Side::NorthSouth.index()].closing, 100);
}

/// RULES.md 9: an expired move clock in the last round is one of its turns.
#[test]
fn clock_expiry_counts_in_the_last_round() {
    let mut t = Table::new(Config::of(Preset::Feburit), &DeckBuilder::four());
    t.time_out();
    for left in (1..=4u8).rev() {
        assert_eq!(t.game.last_round(), Some(left));
        t.clock();
    }
    assert_eq!(t.result().map(|(end, _)| end), Some(HandEnd::TimeOut));
    assert_eq!(discarders(&t.events), vec![N, E, S, W]);
}
