//! RULES.md section 10 (art. 18): melded cards, burraco bonuses by kind and preset, the closing
//! bonus, cards left in hand, the side without a pozzetto. The hands here end by TIME OUT so that
//! every preset scores the same melds.

use burraco_rules::{
    BurracoKind, Config, HandEnd, HandScore, PozzettoId, Preset, Seat, Side, SideScore,
    TableSettings,
};

use crate::support::{DeckBuilder, Table};

const N: Seat = Seat::North;
const E: Seat = Seat::East;
const S: Seat = Seat::South;
const W: Seat = Seat::West;

/// Everyone draws and discards until the last round ends.
fn finish(t: &mut Table) -> HandScore {
    while !t.game.is_over() {
        t.pass();
    }
    let (end, score) = t.result().expect("over");
    assert_eq!(end, HandEnd::TimeOut);
    score
}

fn kinds(side: &SideScore) -> Vec<(u8, BurracoKind, i32)> {
    side.burracos
        .iter()
        .map(|b| (b.meld, b.kind, b.bonus))
        .collect()
}

fn in_hand(t: &Table, seats: &[Seat]) -> i32 {
    -seats.iter().map(|&s| t.game.hand(s).points()).sum::<i32>()
}

/// The items of a side add up to its total; cards in hand and the missing pozzetto are as the
/// final state says; the untaken pozzetto counts for nobody.
fn check_common(t: &Table, score: &HandScore) {
    for side in Side::BOTH {
        let s = &score.sides[side.index()];
        assert_eq!(
            s.total(),
            s.melded + s.burraco_bonus() + s.closing + s.in_hand + s.pozzetto
        );
        let seats: &[Seat] = if side == Side::NorthSouth {
            &[N, S]
        } else {
            &[E, W]
        };
        assert_eq!(s.in_hand, in_hand(t, seats), "{side}");
        let melded: i32 = t
            .game
            .melds()
            .iter()
            .filter(|(s, _)| *s == side)
            .map(|(_, m)| m.points())
            .sum();
        assert_eq!(s.melded, melded);
        let took = t.game.pozzetto_of(side).is_some();
        assert_eq!(s.pozzetto, if took { 0 } else { -100 });
        assert_eq!(s.closing, 0);
    }
}

/// Reale (A..K of one suit, 13 naturals): 300 under `fitab` and `feburit`; `fedibur` has no reale
/// and scores it as a burraco pulito (200).
#[test]
fn burraco_reale_by_preset() {
    let deck = DeckBuilder::four()
        .hand(N, "AH 3H 4H 5H 6H 7H 8H 9H 10H JH QH")
        .tallone("2H")
        .pozzetto(PozzettoId::A, "KH 3C 4C 5C 6C 7C 8C 9C 10C JC QC");
    for (preset, reale) in [
        (Preset::Fitab, (BurracoKind::Reale, 300)),
        (Preset::Feburit, (BurracoKind::Reale, 300)),
        (Preset::Fedibur, (BurracoKind::Pulito, 200)),
    ] {
        let mut t = Table::new(Config::of(preset), &deck);
        t.draw(N);
        t.time_out();
        t.open(N, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH");
        t.attach(N, 0, "KH");
        t.open(N, "3C 4C 5C 6C 7C 8C 9C 10C");
        t.discard(N, "QC");
        let score = finish(&mut t);
        check_common(&t, &score);
        let ns = &score.sides[Side::NorthSouth.index()];
        assert_eq!(ns.melded, 120 + 55);
        assert_eq!(
            kinds(ns),
            vec![(0, reale.0, reale.1), (1, BurracoKind::Pulito, 200)],
            "{preset:?}"
        );
        let ew = &score.sides[Side::EastWest.index()];
        assert!(ew.burracos.is_empty());
    }
}

/// Super / superpulito (8 naturals of one rank): 250 under `fitab` and `feburit`; `fedibur` scores
/// it as a burraco pulito.
#[test]
fn burraco_super_by_preset() {
    let deck = DeckBuilder::four()
        .hand(N, "7H 7H 7D 7D 7C 7C 7S 7S 3S 4S 5S")
        .tallone("6S");
    for (preset, expected) in [
        (Preset::Fitab, (BurracoKind::Super, 250)),
        (Preset::Feburit, (BurracoKind::Super, 250)),
        (Preset::Fedibur, (BurracoKind::Pulito, 200)),
    ] {
        let mut t = Table::new(Config::of(preset), &deck);
        t.draw(N);
        t.time_out();
        t.open(N, "7H 7H 7D 7D 7C 7C 7S 7S");
        t.open(N, "3S 4S 5S 6S");
        assert_eq!(t.game.pozzetto_of(Side::NorthSouth), Some(PozzettoId::A));
        let card = t.game.legal_discards()[0];
        t.act(N, burraco_rules::Action::Discard { card });
        let score = finish(&mut t);
        check_common(&t, &score);
        let ns = &score.sides[Side::NorthSouth.index()];
        assert_eq!(ns.melded, 40 + 20);
        assert_eq!(kinds(ns), vec![(0, expected.0, expected.1)], "{preset:?}");
    }
}

/// Semipulito (150; a sequence's wild at an end beside 7 naturals, a combination of 7 naturals and
/// the wild) and sporco (100). With semipulito off (the `fedibur` default, or the table setting)
/// a semipulito scores as sporco. South's burraco counts for North-South like North's.
#[test]
fn burraco_semipulito_and_sporco() {
    let deck = DeckBuilder::four()
        .hand(N, "3S 4S 5S 6S 7S 8S 9S JK 10D JD QD")
        .hand(S, "3D 4D 2H 6D 7D 8D 9D")
        .tallone("KD 4C 6C")
        .pozzetto(PozzettoId::A, "5H 5H 5D 5D 5C 5C 5S 2C 8H 6H 9H");
    let semipulito_off = Config::new(&TableSettings {
        preset: Preset::Fitab,
        semipulito: Some(false),
        ..TableSettings::default()
    })
    .expect("valid");
    for (config, semi) in [
        (Config::of(Preset::Fitab), (BurracoKind::Semipulito, 150)),
        (Config::of(Preset::Feburit), (BurracoKind::Semipulito, 150)),
        (Config::of(Preset::Fedibur), (BurracoKind::Sporco, 100)),
        (semipulito_off, (BurracoKind::Sporco, 100)),
    ] {
        let mut t = Table::new(config, &deck);
        t.draw(N);
        t.time_out();
        t.open(N, "JK 3S 4S 5S 6S 7S 8S 9S");
        t.open(N, "10D JD QD KD");
        t.open(N, "5H 5H 5D 5D 5C 5C 5S 2C");
        t.discard(N, "9H");
        t.pass(); // E
        t.draw(S);
        t.open(S, "3D 4D 2H 6D 7D 8D 9D");
        assert!(t.game.melds()[3].1.wild_is_bound());
        let card = t.game.legal_discards()[0];
        t.act(S, burraco_rules::Action::Discard { card });
        let score = finish(&mut t);
        check_common(&t, &score);
        let ns = &score.sides[Side::NorthSouth.index()];
        assert_eq!(ns.melded, 75 + 40 + 55 + 60);
        assert_eq!(
            kinds(ns),
            vec![
                (0, semi.0, semi.1),
                (2, semi.0, semi.1),
                (3, BurracoKind::Sporco, 100)
            ],
            "{:?} semipulito {}",
            config.preset(),
            config.semipulito()
        );
    }
}

/// RULES.md 10: a pozzetto taken con lo scarto and not yet played counts as cards in hand; the
/// other, untaken pozzetto counts for nobody; the side without a pozzetto loses 100.
#[test]
fn unplayed_and_untaken_pozzetti() {
    let clubs = "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC";
    let deck = DeckBuilder::four()
        .hand(N, "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
        .tallone("5S")
        .pozzetto(PozzettoId::A, clubs)
        .pozzetto(PozzettoId::B, "JK JK JK JK AS AS AD AD AC AC 2S");
    let mut t = Table::new(Config::of(Preset::Fitab), &deck);
    t.time_out(); // before the first take: N, E, S, W
    t.draw(N);
    t.open(N, "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH");
    t.discard(N, "5S");
    let score = finish(&mut t);
    check_common(&t, &score);
    let ns = &score.sides[Side::NorthSouth.index()];
    assert_eq!(t.game.hand(N).points(), 85, "N still holds the clubs");
    assert_eq!(ns.in_hand, -85 - t.game.hand(S).points());
    assert_eq!((ns.melded, ns.burraco_bonus(), ns.pozzetto), (85, 200, 0));
    let ew = &score.sides[Side::EastWest.index()];
    assert_eq!(ew.pozzetto, -100);
    assert_eq!(
        ew.in_hand,
        in_hand(&t, &[E, W]),
        "pozzetto B (240 points) is nobody's"
    );
    assert_eq!(t.game.pozzetto_cards(PozzettoId::B).len(), 11);
}

/// RULES.md 2: card values: joker 30, 2 (pinella) 20, A 15, K Q J 10 9 8 10 each, 7 6 5 4 3 5
/// each, whatever the suit; a meld is worth the sum of its cards, a natural 2 and a wild included.
#[test]
fn card_values_are_joker_30_two_20_ace_15_king_to_8_10_and_7_to_3_5() {
    let values = [
        ("A", 15),
        ("2", 20),
        ("3", 5),
        ("4", 5),
        ("5", 5),
        ("6", 5),
        ("7", 5),
        ("8", 10),
        ("9", 10),
        ("10", 10),
        ("J", 10),
        ("Q", 10),
        ("K", 10),
    ];
    for (rank, points) in values {
        for suit in ["H", "D", "C", "S"] {
            let card: burraco_rules::Card = format!("{rank}{suit}").parse().expect("card");
            assert_eq!(card.points(), points, "{card}");
        }
    }
    assert_eq!(burraco_rules::Card::JOKER.points(), 30);
    let meld = burraco_rules::Meld::open(&crate::support::cs("AH 2H 3H JK"), None).expect("meld");
    assert_eq!(meld.points(), 15 + 20 + 5 + 30);
}
