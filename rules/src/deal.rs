//! The deal (RULES.md section 3): the canonical deck, the seeded shuffle, the seed commitment.
//!
//! Everything here must stay bit-for-bit reproducible: any player may recompute a deal from the
//! revealed seed, in this crate, in the browser, or by hand from the algorithm in RULES.md.

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use sha2::{Digest, Sha256};

use crate::card::Card;
use crate::seat::{Players, Seat};

/// Cards in the game: two French decks and four jokers.
pub const DECK_SIZE: usize = 108;
/// Cards in each hand and in each pozzetto.
pub const HAND_SIZE: usize = 11;

/// A 32-byte shuffle seed.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    pub fn to_hex(&self) -> String {
        hex(&self.0)
    }

    /// Parses exactly 64 hex digits.
    pub fn from_hex(text: &str) -> Option<Seed> {
        let bytes = text.as_bytes();
        if bytes.len() != 64 {
            return None;
        }
        let mut seed = [0u8; 32];
        for (i, pair) in bytes.chunks_exact(2).enumerate() {
            let digit = |b: u8| (b as char).to_digit(16);
            seed[i] = (digit(pair[0])? * 16 + digit(pair[1])?) as u8;
        }
        Some(Seed(seed))
    }

    /// SHA-256 of the seed bytes, published before the hand as a commitment.
    pub fn commitment(&self) -> [u8; 32] {
        Sha256::digest(self.0).into()
    }

    pub fn commitment_hex(&self) -> String {
        hex(&self.commitment())
    }
}

impl std::fmt::Debug for Seed {
    // Seeds are secret until the reveal: keep them out of logs that print a game with `{:?}`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Seed(commitment {})", self.commitment_hex())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The unshuffled deck: twice hearts, diamonds, clubs, spades (each A, 2..10, J, Q, K), then 4 jokers.
pub fn canonical_deck() -> [Card; DECK_SIZE] {
    std::array::from_fn(|i| {
        if i < 104 {
            Card::from_index(i % 52).expect("suited face")
        } else {
            Card::JOKER
        }
    })
}

/// The shuffled deck for a seed; index 0 is the top.
///
/// ChaCha20 keyed with the seed (nonce 0, counter 0), read as little-endian u32 words; Fisher-Yates
/// from the last index down, each index drawn uniformly by rejection sampling.
pub fn shuffled_deck(seed: &Seed) -> [Card; DECK_SIZE] {
    let mut rng = ChaCha20Rng::from_seed(seed.0);
    let mut deck = canonical_deck();
    fisher_yates(&mut deck, &mut rng);
    deck
}

/// The shuffle of RULES.md section 3 over any slice: for i from the last index down to 1, draw j
/// uniformly in 0..=i by rejection sampling on 32-bit words, and swap. The deal, tournament draws
/// and bots' sampled worlds all use this one function, so "the deal's algorithm" means one thing.
pub fn fisher_yates<T, R: Rng + ?Sized>(items: &mut [T], rng: &mut R) {
    for i in (1..items.len()).rev() {
        let n = i as u64 + 1;
        // Largest multiple of n that fits in 2^32: words at or above it would bias the draw.
        let zone = (1u64 << 32) - ((1u64 << 32) % n);
        let j = loop {
            let x = u64::from(rng.next_u32());
            if x < zone {
                break (x % n) as usize;
            }
        };
        items.swap(i, j);
    }
}

/// Where the 108 cards lie after the deal, before the first turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deal {
    /// The hands in dealing order: the first is the player on the dealer's left, then clockwise.
    pub hands: Vec<Vec<Card>>,
    /// Pozzetto A then B, each in the order its cards were taken from the bottom of the deck.
    pub pozzetti: [Vec<Card>; 2],
    /// The card turned face up to start the discard pile.
    pub discard: Card,
    /// The rest of the deck, top first.
    pub tallone: Vec<Card>,
}

impl Deal {
    /// Deals a shuffled (or explicit) deck: hands one card at a time, pozzetti from the bottom,
    /// then the up-card, the rest being the tallone.
    pub fn from_deck(deck: &[Card; DECK_SIZE], players: Players) -> Deal {
        let n = players.count();
        let mut hands = vec![Vec::with_capacity(HAND_SIZE); n];
        for (k, &card) in deck[..n * HAND_SIZE].iter().enumerate() {
            hands[k % n].push(card);
        }
        let mut pozzetti = [Vec::with_capacity(HAND_SIZE), Vec::with_capacity(HAND_SIZE)];
        for k in 0..2 * HAND_SIZE {
            pozzetti[k % 2].push(deck[DECK_SIZE - 1 - k]);
        }
        let top = n * HAND_SIZE;
        Deal {
            hands,
            pozzetti,
            discard: deck[top],
            tallone: deck[top + 1..DECK_SIZE - 2 * HAND_SIZE].to_vec(),
        }
    }

    pub fn from_seed(seed: &Seed, players: Players) -> Deal {
        Deal::from_deck(&shuffled_deck(seed), players)
    }

    /// The seat that receives `hands[i]` when `dealer` deals.
    pub fn seat_of_hand(players: Players, dealer: Seat, i: usize) -> Seat {
        let mut seat = players.next(dealer);
        for _ in 0..i {
            seat = players.next(seat);
        }
        seat
    }
}

/// Checks that a 108-card order is a permutation of the canonical deck.
pub fn is_complete_deck(cards: &[Card]) -> bool {
    let mut counts = [0u8; Card::FACES];
    for c in cards {
        counts[c.index()] += 1;
    }
    cards.len() == DECK_SIZE
        && counts
            .iter()
            .enumerate()
            .all(|(i, &n)| n == if i == 52 { 4 } else { 2 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_is_a_permutation_and_depends_on_the_seed() {
        let a = shuffled_deck(&Seed([1; 32]));
        let b = shuffled_deck(&Seed([2; 32]));
        assert!(is_complete_deck(&a));
        assert!(is_complete_deck(&b));
        assert_ne!(a, b);
        assert_eq!(a, shuffled_deck(&Seed([1; 32])));
    }

    #[test]
    fn deal_sizes() {
        for (players, tallone) in [(Players::Four, 41), (Players::Two, 63)] {
            let d = Deal::from_seed(&Seed([7; 32]), players);
            assert_eq!(d.hands.len(), players.count());
            assert!(d.hands.iter().all(|h| h.len() == 11));
            assert!(d.pozzetti.iter().all(|p| p.len() == 11));
            assert_eq!(d.tallone.len(), tallone);
        }
    }

    #[test]
    fn seed_hex_round_trips() {
        let s = Seed(std::array::from_fn(|i| i as u8 * 7));
        assert_eq!(Seed::from_hex(&s.to_hex()), Some(s));
        assert_eq!(Seed::from_hex("zz"), None);
        assert_eq!(Seed::from_hex(&"g".repeat(64)), None);
    }

    #[test]
    fn commitment_is_sha256_of_the_seed() {
        // SHA-256 of 32 zero bytes.
        assert_eq!(
            Seed([0; 32]).commitment_hex(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }
}
