//! Each detector on constructed records: a seat whose scripted discards or takes follow a hidden
//! hand scores high, the mirror-image script scores low, and a script blind to hidden cards
//! stays near zero.

use burraco_fairplay::fit::fits;
use burraco_fairplay::{Analysis, Detector};
use burraco_protocol::record::HandRecord;
use burraco_rules::{Action, Card, Config, DealSource, Game, Input, Preset, Seat, Seed, Suit};

/// How the scripted North discards: from the real game, its legal discards.
type DiscardRule = fn(&Game, &[Card]) -> Card;
/// How the scripted North takes: from the real game, draw or pick up.
type TakeRule = fn(&Game) -> Action;

fn seed(n: u64) -> Seed {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&n.to_le_bytes());
    bytes[8] = 0x5A;
    Seed(bytes)
}

/// A hand of `turns` turns: North by the rules given, everyone else draws and throws its first
/// legal discard; nobody melds. The record stops there (a hand still in play is a valid record).
fn scripted(n: u64, turns: usize, take: TakeRule, discard: DiscardRule) -> HandRecord {
    let config = Config::of(Preset::Fitab);
    let source = DealSource::Seed(seed(n));
    let dealer = Seat::ALL[(n % 4) as usize];
    let (mut game, _) = Game::new(config, dealer, source.clone()).unwrap();
    let mut record = HandRecord::new(
        &config,
        Seat::ALL.map(|s| (s, s.code().to_string())),
        dealer,
        &source,
    );
    for _ in 0..turns * 4 {
        if game.is_over() {
            break;
        }
        let seat = game.on_turn();
        let legal = game.legal_actions();
        let take_action = if seat == Seat::North {
            take(&game)
        } else {
            Action::Draw
        };
        let take_action = if legal.contains(&take_action) {
            take_action
        } else {
            legal[0].clone()
        };
        let mut act = |game: &mut Game, action: Action| {
            game.act(seat, &action).unwrap();
            record.push(&Input::Act { seat, action }, None);
        };
        act(&mut game, take_action);
        if game.is_over() {
            break;
        }
        let discards: Vec<Card> = game.legal_discards();
        if discards.is_empty() {
            break;
        }
        let card = if seat == Seat::North {
            discard(&game, &discards)
        } else {
            discards[0]
        };
        act(&mut game, Action::Discard { card });
    }
    record
}

fn analyse(take: TakeRule, discard: DiscardRule) -> (f64, [f64; Detector::ALL.len()]) {
    let mut analysis = Analysis::new();
    for n in 0..40 {
        analysis
            .add(&format!("hand {n}"), &scripted(n, 10, take, discard))
            .unwrap();
    }
    let north = analysis.player("N", 3).unwrap();
    let z = Detector::ALL.map(|d| north.score(d).unwrap().z);
    (north.suspicion(), z)
}

fn draw(_: &Game) -> Action {
    Action::Draw
}

fn natural(discards: &[Card]) -> impl Iterator<Item = Card> + '_ {
    discards.iter().copied().filter(|c| !c.is_wild())
}

fn first_natural(discards: &[Card]) -> Card {
    natural(discards).next().unwrap_or(discards[0])
}

/// Blind to hidden cards: the first natural legal discard.
fn blind(_: &Game, discards: &[Card]) -> Card {
    first_natural(discards)
}

fn pick(discards: &[Card], want: impl Fn(Card) -> bool) -> Card {
    natural(discards)
        .find(|&c| want(c))
        .unwrap_or_else(|| first_natural(discards))
}

const PARTNER_FIT: usize = 0;
const NEXT_AVOID: usize = 1;
const TALLONE: usize = 2;
const SUIT: usize = 3;

#[test]
fn a_blind_script_scores_near_zero_everywhere() {
    let (suspicion, z) = analyse(draw, blind);
    assert!(z.iter().all(|z| z.abs() < 3.0), "{z:?}");
    assert!(suspicion < 3.0, "{suspicion}");
}

#[test]
fn discards_that_fit_the_partner_score_high_and_the_opposite_low() {
    let (_, high) = analyse(draw, |g, d| pick(d, |c| fits(c, g.hand(Seat::South))));
    assert!(high[PARTNER_FIT] > 3.0, "{high:?}");
    let (_, low) = analyse(draw, |g, d| pick(d, |c| !fits(c, g.hand(Seat::South))));
    assert!(low[PARTNER_FIT] < -3.0, "{low:?}");
}

#[test]
fn discards_that_avoid_the_next_opponent_score_high_and_feeding_it_low() {
    let (_, high) = analyse(draw, |g, d| pick(d, |c| !fits(c, g.hand(Seat::East))));
    assert!(high[NEXT_AVOID] > 3.0, "{high:?}");
    let (_, low) = analyse(draw, |g, d| pick(d, |c| fits(c, g.hand(Seat::East))));
    assert!(low[NEXT_AVOID] < -3.0, "{low:?}");
}

fn top_fits(g: &Game) -> bool {
    g.tallone_top_first()
        .first()
        .is_some_and(|&top| fits(top, g.hand(Seat::North)))
}

#[test]
fn takes_that_follow_the_tallone_score_high_and_the_opposite_low() {
    let (_, high) = analyse(
        |g| {
            if top_fits(g) {
                Action::Draw
            } else {
                Action::PickUp
            }
        },
        blind,
    );
    assert!(high[TALLONE] > 3.0, "{high:?}");
    let (_, low) = analyse(
        |g| {
            if top_fits(g) {
                Action::PickUp
            } else {
                Action::Draw
            }
        },
        blind,
    );
    assert!(low[TALLONE] < -3.0, "{low:?}");
}

#[test]
fn discarding_the_partners_long_suit_scores_high() {
    let (suspicion, z) = analyse(draw, |g, d| {
        let south = g.hand(Seat::South);
        let count = |s: Suit| {
            south
                .cards()
                .filter(|c| !c.is_wild() && c.suit() == Some(s))
                .count()
        };
        let long = Suit::ALL.into_iter().max_by_key(|&s| count(s)).unwrap();
        pick(d, |c| c.suit() == Some(long))
    });
    assert!(z[SUIT] > 3.0, "{z:?}");
    assert!(suspicion > 2.5, "{suspicion}");
}

#[test]
fn a_report_names_the_hands_behind_a_score() {
    let mut analysis = Analysis::new();
    for n in 0..10 {
        let record = scripted(n, 10, draw, |g, d| {
            pick(d, |c| fits(c, g.hand(Seat::South)))
        });
        analysis.add(&format!("hand {n}"), &record).unwrap();
    }
    let north = analysis.player("N", 3).unwrap();
    let partner = north.score(Detector::PartnerFit).unwrap();
    assert_eq!(north.hands, 10);
    assert_eq!(partner.top_hands.len(), 3);
    assert!(partner.top_hands[0].1 >= partner.top_hands[2].1);
    assert!(partner.top_hands[0].0.starts_with("hand "));
    assert!(partner.observed > partner.expected);
    // Every seated name is reported, most suspicious first.
    let names: Vec<String> = analysis.report(1).into_iter().map(|r| r.player).collect();
    assert_eq!(names.len(), 4);
    assert_eq!(names[0], "N");
}
