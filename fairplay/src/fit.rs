//! When a card "fits" a hand, and how likely that is from one seat's information alone.
//!
//! A natural card fits a hand holding a natural card of the same rank (a combination) or of the same
//! suit one or two ranks away (a sequence): the cards a player would use it with. Twos and jokers
//! are wild: they fit every hand and are never scored as discards.
//!
//! Under fair play a seat knows its own hand, the table, and the cards it saw another seat pick up
//! from the pile; every other card is somewhere among the hidden places (the other hands, the
//! tallone, the untaken pozzetti), and nothing it knows tells which. So the hidden part of another
//! seat's hand is a uniform draw, without replacement, from the seat's unseen cards, and the chance
//! that it holds a fitting card follows from the unseen cards. Melding thins a hand of cards that fit
//! each other, and how much depends on its owner's play, so the prediction keeps only draws as
//! connected inside as the real hand ([`model_hidden_hand`]).

use burraco_rules::{Card, Hand, Rank, Seat, SeatKnowledge, Suit};

/// The natural cards a natural `card` fits with: its rank in every suit, its suit one or two ranks
/// either side (the ace both below the three and above the king). Empty for a wild card.
pub fn fit_set(card: Card) -> Vec<Card> {
    let (Some(rank), Some(suit)) = (card.rank(), card.suit()) else {
        return Vec::new();
    };
    if card.is_wild() {
        return Vec::new();
    }
    let mut out: Vec<Card> = Suit::ALL.iter().map(|&s| Card::new(rank, s)).collect();
    let pos = i32::from(rank.number());
    let positions: &[i32] = if rank == Rank::Ace { &[1, 14] } else { &[pos] };
    for &p in positions {
        for d in [-2i32, -1, 1, 2] {
            let q = p + d;
            let n = if q == 14 { 1 } else { q };
            if !(3..=13).contains(&n) && n != 1 {
                continue;
            }
            if let Some(r) = u8::try_from(n).ok().and_then(Rank::from_number) {
                let c = Card::new(r, suit);
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// Whether `card` fits `hand`: a wild always does, a natural card when the hand holds a card of its
/// [`fit_set`].
pub fn fits(card: Card, hand: &Hand) -> bool {
    card.is_wild() || fit_set(card).iter().any(|&c| hand.contains(c))
}

/// Whether two natural cards fit each other (same rank, or same suit one or two ranks apart,
/// the ace at both ends); wilds never do.
fn pair_fits(a: Card, b: Card) -> bool {
    if a.is_wild() || b.is_wild() {
        return false;
    }
    let (Some(ra), Some(rb), Some(sa), Some(sb)) = (a.rank(), b.rank(), a.suit(), b.suit()) else {
        return false;
    };
    if ra == rb {
        return true;
    }
    if sa != sb {
        return false;
    }
    let (x, y) = (i32::from(ra.number()), i32::from(rb.number()));
    let close = |x: i32, y: i32| (1..=2).contains(&(x - y).abs());
    close(x, y) || (ra == Rank::Ace && close(14, y)) || (rb == Rank::Ace && close(x, 14))
}

/// How connected a hand is inside: pairs of its cards that fit each other, halved and capped (a
/// coarse class). Melding thins a hand of them, and how much depends on how its owner plays.
pub fn links_class(cards: &[Card]) -> u32 {
    let mut links = 0u32;
    for (i, &a) in cards.iter().enumerate() {
        for &b in &cards[i + 1..] {
            links += u32::from(pair_fits(a, b));
        }
    }
    (links.div_ceil(2)).min(10)
}

/// What a seat's information predicts of another seat's hidden hand, given how connected that
/// hand really is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HiddenHandModel {
    /// The chance the hand holds a card of the set asked about.
    pub fit_chance: f64,
    /// The mean number of natural cards of each suit (in [`Suit::ALL`] order).
    pub suit_means: [f64; 4],
}

/// Most draws made for one prediction.
const MAX_SAMPLES: usize = 1536;
/// Draws of the finest class after which sampling stops.
const ENOUGH_ACCEPTED: usize = 128;
/// Below this many draws of a class, the prediction is too noisy to use; a coarser class is.
const MIN_ACCEPTED: usize = 24;
/// The classes, finest first: every public trace, then fewer, down to connectedness alone.
const LEVELS: usize = 5;

/// What a hidden card is, next to its owner's public traces this hand (see [`HandClass`]).
#[derive(Debug, Clone, Copy, Default)]
struct Traces {
    /// It attaches to a meld of its owner's side (an owner who could would usually have).
    attaches: bool,
    /// It fits a card its owner discarded (an owner keeps what fits and throws what does not).
    near_discard: bool,
    /// It fits a card its owner took from the pile (what it wanted the pile for).
    near_pickup: bool,
    /// It fits a card discarded by the seat before its owner: the cards its owner chose to take
    /// or to draw past (a hand that fitted them would more often have taken the pile).
    near_offered: bool,
}

/// The public traces of a hidden hand that its owner's play leaves, counted on one hand and
/// put in coarse classes. Each is a property of the hidden hand and of the table, not of any
/// later move: conditioning the prediction on the real hand's class is always fair, and when
/// the owner's past choices depend on its hand mostly through these counts, the conditioned
/// draw is what those choices tell a fair player about the hand (the posterior, whatever the
/// owner's style).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct HandClass {
    links: u32,
    /// It holds three naturals that would open a meld (an owner who melds when it can has none).
    natural_meld: bool,
    attaches: u8,
    near_discard: u8,
    near_pickup: u8,
    near_offered: u8,
}

impl HandClass {
    fn of(links: u32, natural_meld: bool, traces: impl Iterator<Item = Traces>) -> HandClass {
        let (mut a, mut d, mut p, mut o) = (0u8, 0u8, 0u8, 0u8);
        for t in traces {
            a += u8::from(t.attaches);
            d += u8::from(t.near_discard);
            p += u8::from(t.near_pickup);
            o += u8::from(t.near_offered);
        }
        HandClass {
            links,
            natural_meld,
            attaches: a.min(2),
            near_discard: d.min(3),
            near_pickup: p.min(2),
            near_offered: o.min(3),
        }
    }

    /// Whether two hands share the class at `level` (0 finest, `LEVELS - 1` connectedness only).
    fn same_at(self, other: HandClass, level: usize) -> bool {
        self.links == other.links
            && (level > 3 || self.natural_meld == other.natural_meld)
            && (level > 3 || self.near_discard == other.near_discard)
            && (level > 2 || self.near_offered == other.near_offered)
            && (level > 1 || self.attaches == other.attaches)
            && (level > 0 || self.near_pickup == other.near_pickup)
    }
}

/// Whether `cards` hold three naturals of one rank, or three of one suit in a row (the ace at
/// both ends): a meld its owner could open without a wild.
fn has_natural_meld(cards: impl Iterator<Item = Card>) -> bool {
    let mut ranks = [0u8; 15];
    let mut runs = [0u16; 4];
    for c in cards.filter(|c| !c.is_wild()) {
        let (Some(rank), Some(suit)) = (c.rank(), c.suit()) else {
            continue;
        };
        let n = usize::from(rank.number());
        ranks[n] += 1;
        let bits = &mut runs[Suit::ALL.iter().position(|&x| x == suit).unwrap_or(0)];
        *bits |= 1 << n;
        if rank == Rank::Ace {
            *bits |= 1 << 14;
        }
    }
    ranks.iter().any(|&k| k >= 3) || runs.iter().any(|&b| b & (b >> 1) & (b >> 2) != 0)
}

/// The traces of `card` in `seat`'s hand, from what every seat sees: its side's melds, its
/// discards and its pick-ups this hand.
fn traces_of(know: &SeatKnowledge, seat: Seat, card: Card) -> Traces {
    if card.is_wild() {
        return Traces::default();
    }
    let side = know.side_of(seat);
    let players = know.players();
    // The seat whose discards `seat` is offered: the one it follows.
    let before = players
        .seats()
        .iter()
        .copied()
        .find(|&s| players.next(s) == seat)
        .unwrap_or(seat);
    Traces {
        attaches: know
            .melds()
            .iter()
            .any(|(s, m)| *s == side && m.attach(&[card], None).is_ok()),
        near_discard: know
            .discards()
            .iter()
            .any(|&(s, d)| s == seat && pair_fits(card, d)),
        near_pickup: know
            .pickups()
            .iter()
            .any(|(s, cards)| *s == seat && cards.iter().any(|&d| pair_fits(card, d))),
        near_offered: know
            .discards()
            .iter()
            .any(|&(s, d)| s == before && pair_fits(card, d)),
    }
}

/// Predicts `seat`'s hand from `know`'s information: the cards it was seen to pick up, plus its
/// unknown cards drawn uniformly from the unseen ones, keeping only draws of the real hand's
/// (`actual`) [`HandClass`]: as connected inside, and as close to its owner's melds, discards and
/// pick-ups. Conditioning on that class keeps the prediction fair to players whose melding thins
/// their hands and to players who read the other seats' discards, and leaves what the move itself
/// says about the cards untouched. When too few draws fall in the finest class, a coarser one is
/// used. `seed` makes the sampling repeatable. `None` when too few draws fall even in the
/// coarsest.
pub fn model_hidden_hand(
    know: &SeatKnowledge,
    seat: Seat,
    actual: &Hand,
    set: &[Card],
    seed: u64,
) -> Option<HiddenHandModel> {
    let known: Vec<Card> = know.known_cards(seat).cards().collect();
    let unknown = know.hand_size(seat).saturating_sub(known.len());
    let pool = know.unseen_cards();
    if unknown > pool.len() {
        return None;
    }
    // Every card a draw can hold, by index: the known ones first, then the pool. Pair fits and
    // traces are computed once here, not per draw.
    let universe: Vec<Card> = known.iter().chain(&pool).copied().collect();
    let u = universe.len();
    let mut fit_matrix = vec![false; u * u];
    for i in 0..u {
        for j in i + 1..u {
            let f = pair_fits(universe[i], universe[j]);
            fit_matrix[i * u + j] = f;
            fit_matrix[j * u + i] = f;
        }
    }
    let traces: Vec<Traces> = universe.iter().map(|&c| traces_of(know, seat, c)).collect();
    let in_set: Vec<bool> = universe.iter().map(|c| set.contains(c)).collect();
    let suit_of: Vec<Option<usize>> = universe
        .iter()
        .map(|c| {
            c.suit()
                .filter(|_| !c.is_wild())
                .and_then(|s| Suit::ALL.iter().position(|&x| x == s))
        })
        .collect();
    let class_of = |hand: &[usize]| {
        let mut links = 0u32;
        for (a, &i) in hand.iter().enumerate() {
            for &j in &hand[a + 1..] {
                links += u32::from(fit_matrix[i * u + j]);
            }
        }
        HandClass::of(
            links.div_ceil(2).min(10),
            has_natural_meld(hand.iter().map(|&i| universe[i])),
            hand.iter().map(|&i| traces[i]),
        )
    };
    let actual_cards: Vec<Card> = actual.cards().collect();
    let target = HandClass::of(
        links_class(&actual_cards),
        has_natural_meld(actual_cards.iter().copied()),
        actual_cards.iter().map(|&c| traces_of(know, seat, c)),
    );
    let mut rng = SplitMix(seed);
    // Per level: draws accepted, draws holding a card of the set, natural cards per suit.
    let mut accepted = [0usize; LEVELS];
    let mut hits = [0usize; LEVELS];
    let mut suits = [[0usize; 4]; LEVELS];
    let mut order: Vec<usize> = (known.len()..u).collect();
    let mut hand: Vec<usize> = Vec::with_capacity(known.len() + unknown);
    for _ in 0..MAX_SAMPLES {
        // A partial Fisher-Yates: the first `unknown` places of the pool become the draw.
        for i in 0..unknown {
            let j = i + (rng.next() % (order.len() - i) as u64) as usize;
            order.swap(i, j);
        }
        hand.clear();
        hand.extend(0..known.len());
        hand.extend_from_slice(&order[..unknown]);
        let class = class_of(&hand);
        let hit = hand.iter().any(|&i| in_set[i]);
        for level in 0..LEVELS {
            if !class.same_at(target, level) {
                continue;
            }
            accepted[level] += 1;
            hits[level] += usize::from(hit);
            for s in hand.iter().filter_map(|&i| suit_of[i]) {
                suits[level][s] += 1;
            }
        }
        if accepted[0] >= ENOUGH_ACCEPTED {
            break;
        }
    }
    let level = (0..LEVELS).find(|&l| accepted[l] >= MIN_ACCEPTED)?;
    let n = accepted[level] as f64;
    Some(HiddenHandModel {
        fit_chance: hits[level] as f64 / n,
        suit_means: suits[level].map(|k| k as f64 / n),
    })
}

/// SplitMix64: a small, well-mixed generator, so a prediction is a pure function of its seed.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(code: &str) -> Card {
        burraco_rules::parse_cards(code).unwrap()[0]
    }

    #[test]
    fn a_seven_fits_sevens_and_its_suit_neighbours() {
        let set = fit_set(c("7H"));
        for code in ["7H", "7D", "7C", "7S", "5H", "6H", "8H", "9H"] {
            assert!(set.contains(&c(code)), "{code}");
        }
        assert_eq!(set.len(), 8);
        assert!(!set.contains(&c("5D")));
    }

    #[test]
    fn an_ace_reaches_both_ends_and_a_three_skips_the_wild_two() {
        let ace = fit_set(c("AS"));
        assert!(ace.contains(&c("KS")) && ace.contains(&c("QS")) && ace.contains(&c("3S")));
        assert!(!ace.contains(&c("2S")));
        let three = fit_set(c("3D"));
        assert!(three.contains(&c("AD")) && three.contains(&c("4D")) && three.contains(&c("5D")));
        assert!(!three.contains(&c("2D")));
        assert!(fit_set(c("2C")).is_empty() && fit_set(Card::JOKER).is_empty());
    }

    #[test]
    fn a_natural_meld_is_three_of_a_rank_or_three_in_a_row() {
        let hand = |codes: &str| burraco_rules::parse_cards(codes).unwrap().into_iter();
        assert!(has_natural_meld(hand("7H 7D 7C 9S")));
        assert!(has_natural_meld(hand("5S 6S 7S KD")));
        assert!(has_natural_meld(hand("QC KC AC 4H")));
        assert!(!has_natural_meld(hand("7H 7D 2C 9S 10S QS")));
        assert!(!has_natural_meld(hand("KC AC 3C 4H")));
    }
}
