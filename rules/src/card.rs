//! Cards, their text codes, values and the "secondo norma" order (RULES.md section 2).
//!
//! A `Card` names a face, not a physical card: the two copies of the seven of hearts are the same
//! `Card`. Nothing in play depends on which physical copy is which, so this keeps hands as counts.

use std::fmt;
use std::str::FromStr;

/// Suits, in the federation order from highest to lowest: hearts, diamonds, clubs, spades.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    Hearts = 0,
    Diamonds = 1,
    Clubs = 2,
    Spades = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Hearts, Suit::Diamonds, Suit::Clubs, Suit::Spades];

    pub fn code(self) -> char {
        match self {
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
            Suit::Spades => 'S',
        }
    }

    pub fn from_code(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'H' => Some(Suit::Hearts),
            'D' => Some(Suit::Diamonds),
            'C' => Some(Suit::Clubs),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }

    fn index(self) -> u8 {
        self as u8
    }
}

/// Ranks, numbered as their positions in a sequence with the ace low (ace 1, two 2, ..., king 13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rank {
    Ace = 1,
    Two,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
}

impl Rank {
    pub const ALL: [Rank; 13] = [
        Rank::Ace,
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
    ];

    /// The rank whose low sequence position is `n` (1 = ace ... 13 = king).
    pub fn from_number(n: u8) -> Option<Rank> {
        Rank::ALL.get(usize::from(n).checked_sub(1)?).copied()
    }

    pub fn number(self) -> u8 {
        self as u8
    }

    pub fn code(self) -> &'static str {
        const CODES: [&str; 13] = [
            "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
        ];
        CODES[usize::from(self.number() - 1)]
    }
}

/// One card face: a rank of a suit, or a joker.
///
/// Stored as one byte: `suit * 13 + rank - 1` for the 52 suited faces, 52 for the joker. The order of
/// the byte is the canonical deck order of RULES.md section 3 (hearts A..K, diamonds, clubs, spades).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    pub const JOKER: Card = Card(52);
    /// Number of distinct faces (52 suited faces and the joker).
    pub const FACES: usize = 53;

    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(suit as u8 * 13 + rank as u8 - 1)
    }

    /// The card of `suit` whose rank is numbered `rank` (1 = ace ... 13 = king), for the loops
    /// over a suit's positions; `rank` must be in 1..=13.
    pub(crate) const fn suited(suit: Suit, rank: u8) -> Card {
        debug_assert!(rank >= 1 && rank <= 13);
        Card(suit as u8 * 13 + rank - 1)
    }

    /// The face with this index (0..53), as returned by [`Card::index`].
    pub fn from_index(index: usize) -> Option<Card> {
        (index < Card::FACES).then_some(Card(index as u8))
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    pub fn is_joker(self) -> bool {
        self == Card::JOKER
    }

    /// The suit, or `None` for a joker.
    pub fn suit(self) -> Option<Suit> {
        (!self.is_joker()).then(|| Suit::ALL[usize::from(self.0 / 13)])
    }

    /// The rank, or `None` for a joker.
    pub fn rank(self) -> Option<Rank> {
        (!self.is_joker()).then(|| Rank::ALL[usize::from(self.0 % 13)])
    }

    /// Jokers and twos ("matte"). A two may still sit as the natural two of its own sequence.
    pub fn is_wild(self) -> bool {
        self.is_joker() || self.rank() == Some(Rank::Two)
    }

    /// Points the card is worth in a meld (added) or in a hand at the end (subtracted).
    pub fn points(self) -> i32 {
        match self.rank() {
            None => 30,
            Some(Rank::Two) => 20,
            Some(Rank::Ace) => 15,
            Some(r) if r.number() >= 8 => 10,
            Some(_) => 5,
        }
    }

    /// A key that sorts cards "secondo norma": higher key = discarded first by the clock.
    /// Highest value first, then suit order (H, D, C, S), then rank order (joker, 2, A, K, ..., 3):
    /// the FITAB definition (RULES.md section 2), so of K♠ and Q♥, both 10 points, Q♥ goes first.
    pub fn norma_key(self) -> u16 {
        let rank_strength: u16 = match self.rank() {
            None => 14,
            Some(Rank::Two) => 13,
            Some(Rank::Ace) => 12,
            Some(r) => u16::from(r.number()) - 2, // 3 -> 1, ..., K -> 11
        };
        let suit_strength = self.suit().map_or(0, |s| 3 - u16::from(s.index()));
        // Points dominate (suit_strength*16+rank_strength < 64), then the suit, then the rank.
        (self.points() as u16) * 64 + suit_strength * 16 + rank_strength
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(rank), Some(suit)) => write!(f, "{}{}", rank.code(), suit.code()),
            _ => f.write_str("JK"),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A card code that is not one of `A 2 .. 10 J Q K` followed by `H D C S`, nor `JK`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseCardError(pub String);

impl fmt::Display for ParseCardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid card code {:?}: expected rank (A 2-10 J Q K) then suit (H D C S), or JK",
            self.0
        )
    }
}

impl std::error::Error for ParseCardError {}

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError(s.to_owned());
        if s.eq_ignore_ascii_case("JK") {
            return Ok(Card::JOKER);
        }
        if !s.is_ascii() || s.len() < 2 || s.len() > 3 {
            return Err(err());
        }
        let (rank_text, suit_text) = s.split_at(s.len() - 1);
        let suit = Suit::from_code(suit_text.chars().next().ok_or_else(err)?).ok_or_else(err)?;
        let rank = Rank::ALL
            .into_iter()
            .find(|r| r.code().eq_ignore_ascii_case(rank_text))
            .ok_or_else(err)?;
        Ok(Card::new(rank, suit))
    }
}

/// A multiset of cards kept as a count per face: what a hand, a pozzetto or a meld holds.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Hand {
    counts: [u8; Card::FACES],
    /// Bit `i` is set when `counts[i] > 0`: the faces held, for walking a hand without scanning
    /// all 53 counts (a function of `counts`, so equality and hashing are unchanged).
    present: u64,
    len: u8,
}

impl Default for Hand {
    fn default() -> Self {
        Hand {
            counts: [0; Card::FACES],
            present: 0,
            len: 0,
        }
    }
}

impl Hand {
    pub fn new() -> Hand {
        Hand::default()
    }

    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn count(&self, card: Card) -> u8 {
        self.counts[card.index()]
    }

    pub fn contains(&self, card: Card) -> bool {
        self.present & (1 << card.0) != 0
    }

    pub fn add(&mut self, card: Card) {
        self.counts[card.index()] += 1;
        self.present |= 1 << card.0;
        self.len += 1;
    }

    /// Removes one copy; `false` (and no change) when the hand holds none.
    pub fn remove(&mut self, card: Card) -> bool {
        let slot = &mut self.counts[card.index()];
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        if *slot == 0 {
            self.present &= !(1 << card.0);
        }
        self.len -= 1;
        true
    }

    /// The ranks of `suit` the hand holds, as a mask: bit `n - 1` for the rank numbered `n`
    /// (bit 0 the ace, bit 1 the 2, ..., bit 12 the king).
    pub(crate) fn suit_ranks(&self, suit: Suit) -> u16 {
        ((self.present >> (suit as u32 * 13)) & 0x1fff) as u16
    }

    /// Whether the hand holds every card of `cards` (counting repeats).
    pub fn contains_all(&self, cards: &[Card]) -> bool {
        let mut need = [0u8; Card::FACES];
        for c in cards {
            need[c.index()] += 1;
            if need[c.index()] > self.counts[c.index()] {
                return false;
            }
        }
        true
    }

    /// Every card, repeats included, in face order (hearts A..K, diamonds, clubs, spades, jokers).
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.faces()
            .flat_map(|c| std::iter::repeat_n(c, usize::from(self.counts[c.index()])))
    }

    /// The distinct faces held, each once, in face order.
    pub fn faces(&self) -> impl ExactSizeIterator<Item = Card> + '_ {
        Faces(self.present)
    }

    pub fn points(&self) -> i32 {
        self.faces()
            .map(|c| c.points() * i32::from(self.counts[c.index()]))
            .sum()
    }

    pub fn to_vec(&self) -> Vec<Card> {
        let mut cards = Vec::with_capacity(self.len());
        cards.extend(self.cards());
        cards
    }
}

/// The faces of a [`Hand`], lowest index first ([`Hand::faces`]): the set bits of its mask.
#[derive(Debug, Clone)]
struct Faces(u64);

impl Iterator for Faces {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Faces {}

impl FromIterator<Card> for Hand {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Hand {
        let mut hand = Hand::new();
        for c in iter {
            hand.add(c);
        }
        hand
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.cards()).finish()
    }
}

/// Parses a list of card codes separated by spaces or commas, e.g. `"7H 8H JK"`.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, ParseCardError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(str::parse)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_for_every_face() {
        for i in 0..Card::FACES {
            let card = Card::from_index(i).unwrap();
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
        }
        assert_eq!("10S".parse::<Card>().unwrap().to_string(), "10S");
        assert!("1H".parse::<Card>().is_err());
        assert!("11S".parse::<Card>().is_err());
        assert!("JKX".parse::<Card>().is_err());
        assert!("".parse::<Card>().is_err());
        assert!("é".parse::<Card>().is_err());
    }
}
