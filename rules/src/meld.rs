//! Melds (RULES.md section 5): combinations and sequences, wild placement, burraco kinds, and the
//! enumerators bots use to find what a hand can open or attach.
//!
//! A [`Meld`] is always valid: it is made only by [`Meld::open`] and [`Meld::attach`], which return
//! a new meld or a [`MeldError`] and never change the meld they are called on.

use crate::card::{Card, Hand, Rank, Suit};

/// Longest sequence: positions 1 (ace low) to 14 (ace high).
pub const MAX_SEQUENCE: usize = 14;
/// Longest combination: eight naturals (two decks) and one wild.
pub const MAX_COMBINATION: usize = 9;
/// A meld of this many cards is a burraco.
pub const BURRACO_LEN: usize = 7;

/// What a meld is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MeldShape {
    /// Cards of one suit on contiguous positions.
    Sequence { suit: Suit },
    /// Cards of one rank (A or 3..K).
    Combination { rank: Rank },
}

/// A burraco's kind, settled when the hand is scored (RULES.md section 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BurracoKind {
    /// 13 natural cards of a suit, A to K or 2 to A (`feburit`: "over the top").
    Reale,
    /// 8 natural cards of one rank (`feburit`: "superpulito").
    Super,
    /// No wild (a sequence's natural 2 is not a wild).
    Pulito,
    /// Wild at an end of a sequence beside 7+ naturals, or a combination of 7+ naturals and the wild.
    Semipulito,
    /// Any other burraco with a wild.
    Sporco,
}

impl BurracoKind {
    pub fn code(self) -> &'static str {
        match self {
            BurracoKind::Reale => "reale",
            BurracoKind::Super => "super",
            BurracoKind::Pulito => "pulito",
            BurracoKind::Semipulito => "semipulito",
            BurracoKind::Sporco => "sporco",
        }
    }

    /// Whether the kind has no wild at all (what "closing requires a burraco pulito" asks for).
    pub fn is_clean(self) -> bool {
        matches!(
            self,
            BurracoKind::Reale | BurracoKind::Super | BurracoKind::Pulito
        )
    }
}

/// Why cards cannot be opened as, or attached to, a meld.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MeldError {
    #[error("a meld needs at least 3 cards (art. 9)")]
    TooFewCards,
    #[error("the cards are neither of one rank nor a run of one suit (art. 9)")]
    NotAMeld,
    #[error("no combination of 2s or jokers exists; 2s are always wild in a combination (art. 10)")]
    CombinationOfWilds,
    #[error("a meld holds at most one wild besides a sequence's natural 2 (art. 10)")]
    TooManyWilds,
    #[error("a meld needs at least two natural cards (art. 10)")]
    TooFewNaturals,
    #[error("a combination holds at most 9 cards")]
    CombinationTooLong,
    #[error("a sequence holds at most 14 cards, and at most 13 natural ones (art. 11)")]
    SequenceTooLong,
    #[error("a sequence holds at most one natural ace")]
    TwoNaturalAces,
    #[error(
        "the cards do not make one contiguous run: a single wild fills at most one gap, and K-A-2 does not wrap (art. 11)"
    )]
    NotContiguous,
    #[error("{card} does not belong to this meld")]
    WrongCard { card: Card },
    #[error("a bound wild moves only when the natural card it stands for is attached (art. 10)")]
    BoundWildMoved,
    #[error("the wild can go on more than one position: name one of {options:?}")]
    WildPositionAmbiguous { options: Vec<u8> },
    #[error("the wild cannot go on position {requested}; valid positions: {options:?}")]
    WildPositionInvalid { requested: u8, options: Vec<u8> },
}

/// A valid meld on the table.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Meld {
    shape: MeldShape,
    /// Sequence: `cards[i]` stands on position `start + i`. Combination: naturals, then the wild.
    cards: [Card; MAX_SEQUENCE],
    len: u8,
    /// Sequence: position of `cards[0]` (1..=14). Combination: 0.
    start: u8,
    /// Index into `cards` of the card acting as a wild, if any.
    wild: Option<u8>,
}

impl std::fmt::Debug for Meld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.cards())?;
        if let Some(p) = self.wild_position() {
            write!(f, "@wild{p}")?;
        }
        Ok(())
    }
}

impl Meld {
    pub fn shape(&self) -> MeldShape {
        self.shape
    }

    /// The cards, lowest position first for a sequence.
    pub fn cards(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }

    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Never true: a meld has at least 3 cards. Present for the `len`/`is_empty` pair.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// A sequence's lowest position (1 = ace low ... 14 = ace high); `None` for a combination.
    pub fn start(&self) -> Option<u8> {
        matches!(self.shape, MeldShape::Sequence { .. }).then_some(self.start)
    }

    /// The card acting as a wild (a sequence's natural 2 is not one).
    pub fn wild_card(&self) -> Option<Card> {
        self.wild.map(|i| self.cards[usize::from(i)])
    }

    /// A sequence's wild position (1..=14). `None` for a combination or a meld without a wild.
    pub fn wild_position(&self) -> Option<u8> {
        match self.shape {
            MeldShape::Sequence { .. } => self.wild.map(|i| self.start + i),
            MeldShape::Combination { .. } => None,
        }
    }

    /// A sequence's wild standing between two naturals, moved only by attaching its natural card.
    pub fn wild_is_bound(&self) -> bool {
        matches!(self.shape, MeldShape::Sequence { .. })
            && self
                .wild
                .is_some_and(|i| i > 0 && usize::from(i) + 1 < self.len())
    }

    pub fn is_burraco(&self) -> bool {
        self.len() >= BURRACO_LEN
    }

    /// Sum of the card values (a natural 2 and a wild count at their own values).
    pub fn points(&self) -> i32 {
        self.cards().iter().map(|c| c.points()).sum()
    }

    /// The burraco kind, `None` below 7 cards. With `semipulito` off, semipulito burracos are sporco.
    pub fn burraco_kind(&self, semipulito: bool) -> Option<BurracoKind> {
        let _ = semipulito;
        unimplemented!("meld helper")
    }

    /// Opens a meld from `cards` (any order). For a sequence, `wild_at` names the position the wild
    /// must take; without it a wild that fits at both ends goes to the low end.
    pub fn open(cards: &[Card], wild_at: Option<u8>) -> Result<Meld, MeldError> {
        let _ = (cards, wild_at);
        unimplemented!("meld helper")
    }

    /// This meld with `cards` attached, leaving `self` as it was.
    pub fn attach(&self, cards: &[Card], wild_at: Option<u8>) -> Result<Meld, MeldError> {
        let _ = (cards, wild_at);
        unimplemented!("meld helper")
    }
}

/// Cards to attach to a meld and where the wild goes, as a bot would send them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    pub cards: Vec<Card>,
    pub wild_at: Option<u8>,
    /// The meld after the attachment.
    pub result: Meld,
}

/// Every distinct meld the cards of `hand` can open (each wild placement counted once).
pub fn openable_melds(hand: &Hand) -> Vec<Meld> {
    let _ = hand;
    unimplemented!("meld helper")
}

/// Every distinct attachment of cards from `hand` to `meld`.
pub fn attachments(meld: &Meld, hand: &Hand) -> Vec<Attachment> {
    let _ = (meld, hand);
    unimplemented!("meld helper")
}
