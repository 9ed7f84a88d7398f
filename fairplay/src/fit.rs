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

/// Samples drawn for one prediction.
const SAMPLES: usize = 160;
/// Below this many samples of the right class, the prediction is too noisy to use.
const MIN_ACCEPTED: usize = 16;

/// Predicts `seat`'s hand from `know`'s information: the cards it was seen to pick up, plus its
/// unknown cards drawn uniformly from the unseen ones, keeping only draws whose [`links_class`]
/// is the real hand's (`actual`). Conditioning on that class (a property of the hand, not of
/// any move) keeps the prediction fair to players whose melding leaves their hands thinner or
/// fuller than a random draw, and leaves what the move itself says about the cards untouched.
/// `seed` makes the sampling repeatable. `None` when too few draws fall in the class.
pub fn model_hidden_hand(
    know: &SeatKnowledge,
    seat: Seat,
    actual: &Hand,
    set: &[Card],
    seed: u64,
) -> Option<HiddenHandModel> {
    let known: Vec<Card> = know.known_cards(seat).cards().collect();
    let unknown = know.hand_size(seat).saturating_sub(known.len());
    let mut pool = know.unseen_cards();
    if unknown > pool.len() {
        return None;
    }
    let target = links_class(&actual.cards().collect::<Vec<_>>());
    let known_fit = known.iter().any(|c| set.contains(c));
    let mut rng = SplitMix(seed);
    let (mut accepted, mut hits) = (0usize, 0usize);
    let mut suits = [0usize; 4];
    let mut hand: Vec<Card> = Vec::with_capacity(known.len() + unknown);
    for _ in 0..SAMPLES {
        // A partial Fisher-Yates: the first `unknown` places of the pool become the draw.
        for i in 0..unknown {
            let j = i + (rng.next() % (pool.len() - i) as u64) as usize;
            pool.swap(i, j);
        }
        hand.clear();
        hand.extend_from_slice(&known);
        hand.extend_from_slice(&pool[..unknown]);
        if links_class(&hand) != target {
            continue;
        }
        accepted += 1;
        if known_fit || pool[..unknown].iter().any(|c| set.contains(c)) {
            hits += 1;
        }
        for c in &hand {
            if !c.is_wild()
                && let Some(s) = c.suit()
            {
                suits[Suit::ALL.iter().position(|&x| x == s).unwrap_or(0)] += 1;
            }
        }
    }
    (accepted >= MIN_ACCEPTED).then(|| HiddenHandModel {
        fit_chance: hits as f64 / accepted as f64,
        suit_means: suits.map(|n| n as f64 / accepted as f64),
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
}
