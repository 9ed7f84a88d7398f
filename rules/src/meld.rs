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
        if !self.is_burraco() {
            return None;
        }
        let len = self.len();
        let kind = match (self.shape, self.wild) {
            // Without a wild, 13 cards of a sequence are 13 naturals: A..K (start 1) or 2..A (start 2).
            (MeldShape::Sequence { .. }, None) if len == 13 && matches!(self.start, 1 | 2) => {
                BurracoKind::Reale
            }
            (MeldShape::Combination { .. }, None) if len == 8 => BurracoKind::Super,
            (_, None) => BurracoKind::Pulito,
            (shape, Some(index)) => {
                // A sequence's wild must "precede or follow" the naturals (FITAB art. 13); a
                // combination's wild has no place, only the count of naturals matters.
                let beside = match shape {
                    MeldShape::Sequence { .. } => index == 0 || usize::from(index) + 1 == len,
                    MeldShape::Combination { .. } => true,
                };
                // `len > 7`: at least 7 naturals besides the one wild.
                if semipulito && beside && len > 7 {
                    BurracoKind::Semipulito
                } else {
                    BurracoKind::Sporco
                }
            }
        };
        Some(kind)
    }

    /// Opens a meld from `cards` (any order). For a sequence, `wild_at` names the position the wild
    /// must take; without it a wild that fits at both ends goes to the low end.
    ///
    /// A 2 of the sequence's suit whose place is open is placed on its natural position 2 when
    /// `wild_at` is `None` and that position is valid (a meld with no wild needs no position).
    pub fn open(cards: &[Card], wild_at: Option<u8>) -> Result<Meld, MeldError> {
        Plan::open(cards)?.select(wild_at)
    }

    /// This meld with `cards` attached, leaving `self` as it was.
    ///
    /// The naturals already on the table keep their positions (an ace stays at the end it is on);
    /// only the wild may move, as RULES.md section 5 says. Attaching no card is refused as
    /// [`MeldError::TooFewCards`].
    pub fn attach(&self, cards: &[Card], wild_at: Option<u8>) -> Result<Meld, MeldError> {
        Plan::attach(self, cards)?.select(wild_at)
    }
}

/// Cards to attach to a meld and where the wild goes, as a bot would send them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attachment {
    pub cards: OfferCards,
    pub wild_at: Option<u8>,
    /// The meld after the attachment.
    pub result: Meld,
}

/// Every distinct meld the cards of `hand` can open (each wild placement counted once).
///
/// Each meld `m` is what `Meld::open(m.cards(), m.wild_position())` returns. The search walks the
/// runs of positions each suit's faces can cover and the ranks' face counts, never subsets of
/// cards, and is complete: it has no bound.
pub fn openable_melds(hand: &Hand) -> Vec<Meld> {
    let mut melds = Vec::with_capacity(32);
    let (wild_faces, wild_count) = wild_faces(hand);
    let wilds = &wild_faces[..wild_count];
    for rank in Rank::ALL {
        if rank != Rank::Two {
            combinations_of(hand, rank, wilds, &mut melds);
        }
    }
    for suit in Suit::ALL {
        sequences_of(hand, suit, wilds, &mut melds);
    }
    melds
}

/// Every distinct attachment of cards from `hand` to `meld`.
///
/// Distinct means a different multiset of cards or a different resulting meld; `wild_at` is `None`
/// when [`Meld::attach`] places the wild there by itself, else the position to name. The search is
/// complete (no bound): for a sequence it walks the runs the meld can grow into, with at most one
/// position left to a wild, and every way of adding up to two 2s of the suit and one other wild.
pub fn attachments(meld: &Meld, hand: &Hand) -> Vec<Attachment> {
    let mut found = Vec::new();
    if !might_attach(meld, hand) {
        return found;
    }
    let (wild_faces, wild_count) = wild_faces(hand);
    let wilds = &wild_faces[..wild_count];
    match meld.shape {
        MeldShape::Combination { rank } => {
            combination_attachments(meld, rank, hand, wilds, &mut found)
        }
        MeldShape::Sequence { suit } => sequence_attachments(meld, suit, hand, wilds, &mut found),
    }
    found
}

/// A cheap necessary condition for [`attachments`] to find anything, checked first because most
/// melds on the table take nothing from a given hand. An attachment holds a natural card of the
/// meld's rank (a combination) or of its suit near its naturals (a sequence: the new natural
/// nearest to them is at most two positions away, one wild filling the gap, or is the natural
/// card a bound wild stands for), or else only wilds, which a meld that already has a wild refuses
/// (art. 10: one wild at most; its wild moves only when its natural card comes with it) unless
/// that wild is the sequence's own 2.
fn might_attach(meld: &Meld, hand: &Hand) -> bool {
    let own = match meld.shape() {
        MeldShape::Combination { rank } => Suit::ALL
            .iter()
            .any(|&suit| hand.contains(Card::new(rank, suit))),
        MeldShape::Sequence { suit } => {
            let start = meld.start().unwrap_or(1);
            let end = start + meld.len() as u8 - 1;
            let (mut low, mut high) = (start, end);
            match meld.wild_position() {
                Some(p) if p == start => low += 1,
                Some(p) if p == end => high -= 1,
                _ => {}
            }
            // The positions of the suit's cards in the hand (rank n on n, the ace also on 14)
            // within two of the naturals.
            let ranks = hand.suit_ranks(suit);
            let mut held = ranks << 1;
            if ranks & 1 != 0 {
                held |= bit(14);
            }
            held & span(low.saturating_sub(2).max(1), (high + 2).min(14)) != 0
        }
    };
    // A sequence whose wild is its own 2 may still take a wild: the 2 can move to its natural
    // position and leave the wild's role to the newcomer.
    let takes_a_wild = match (meld.wild_card(), meld.shape()) {
        (None, _) => true,
        (Some(wild), MeldShape::Sequence { suit }) => wild == Card::new(Rank::Two, suit),
        (Some(_), MeldShape::Combination { .. }) => false,
    };
    own || (takes_a_wild
        && (hand.contains(Card::JOKER)
            || Suit::ALL
                .iter()
                .any(|&suit| hand.contains(Card::new(Rank::Two, suit)))))
}

// ---------------------------------------------------------------------------------------------
// Positions and cards

/// The bit of a sequence position (1..=14) in a `u16` mask; bits 0 and 15 are never used.
const fn bit(pos: u8) -> u16 {
    1 << pos
}

/// The positions `lo..=hi` as a mask (`1 <= lo <= hi <= 14`).
const fn span(lo: u8, hi: u8) -> u16 {
    (bit(hi) << 1) - bit(lo)
}

/// The positions of a mask, ascending.
fn positions(mask: u16) -> Vec<u8> {
    (1..=14).filter(|&p| mask & bit(p) != 0).collect()
}

fn lowest(mask: u16) -> u8 {
    mask.trailing_zeros() as u8
}

fn highest(mask: u16) -> u8 {
    15 - mask.leading_zeros() as u8
}

/// The positions with a layout ([`SeqPlan::layouts`]), as a mask.
fn options_of(layouts: &[Option<Layout>; 15]) -> u16 {
    (1..=14u8)
        .filter(|&pos| layouts[usize::from(pos)].is_some())
        .fold(0, |mask, pos| mask | bit(pos))
}

/// The positions from one below a mask's lowest to one above its highest, within 1..=14 (all of
/// them for an empty mask).
fn around(mask: u16) -> u16 {
    if mask == 0 {
        return span(1, 14);
    }
    span(
        lowest(mask).saturating_sub(1).max(1),
        (highest(mask) + 1).min(14),
    )
}

/// How many positions a mask holds, told apart only as none, one and more: what the hot loops
/// ask, without `count_ones` (a dozen instructions where the build targets no `popcnt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Few {
    None,
    One,
    More,
}

fn few(mask: u16) -> Few {
    if mask == 0 {
        Few::None
    } else if mask & (mask - 1) == 0 {
        Few::One
    } else {
        Few::More
    }
}

/// The natural card of `suit` on a sequence position: positions 1 and 14 are both the ace.
const fn natural_at(suit: Suit, pos: u8) -> Card {
    // Position n is rank n (1..=13); 14 is the ace again.
    let rank = match pos {
        1..=13 => pos,
        _ => 1,
    };
    Card::suited(suit, rank)
}

/// What a card can be in a sequence of `suit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A natural card of the suit, 3..K, on the position of its rank.
    Natural(u8),
    /// The suit's ace, natural on position 1 or 14.
    Ace,
    /// The suit's 2: natural on position 2, the wild anywhere else (art. 10).
    SuitTwo,
    /// A joker or a 2 of another suit: always the wild.
    Wild,
    /// A card of another suit.
    Foreign,
}

fn role(card: Card, suit: Suit) -> Role {
    match (card.rank(), card.suit()) {
        (Some(Rank::Two), Some(s)) if s == suit => Role::SuitTwo,
        (None, _) | (_, None) | (Some(Rank::Two), _) => Role::Wild,
        (Some(_), Some(s)) if s != suit => Role::Foreign,
        (Some(Rank::Ace), _) => Role::Ace,
        (Some(rank), _) => Role::Natural(rank.number()),
    }
}

/// The faces in `hand` that can act as a wild: the joker and the four 2s, each face once.
fn wild_faces(hand: &Hand) -> ([Card; 5], usize) {
    let mut faces = [Card::JOKER; 5];
    let mut count = 0;
    let twos = Suit::ALL.map(|suit| Card::new(Rank::Two, suit));
    for face in std::iter::once(Card::JOKER).chain(twos) {
        if hand.contains(face) {
            faces[count] = face;
            count += 1;
        }
    }
    (faces, count)
}

/// A combination in canonical order: naturals by suit (face order), then the wild.
/// `counts` (per suit, in [`Suit::ALL`] order) and the wild total at most [`MAX_COMBINATION`].
fn combination(rank: Rank, counts: [u8; 4], wild: Option<Card>) -> Meld {
    let mut cards = [Card::JOKER; MAX_SEQUENCE];
    let mut len = 0;
    for (suit, &count) in Suit::ALL.iter().zip(&counts) {
        for _ in 0..count {
            cards[len] = Card::new(rank, *suit);
            len += 1;
        }
    }
    let wild = wild.map(|card| {
        cards[len] = card;
        len += 1;
        (len - 1) as u8
    });
    Meld {
        shape: MeldShape::Combination { rank },
        cards,
        len: len as u8,
        start: 0,
        wild,
    }
}

// ---------------------------------------------------------------------------------------------
// Plans: what the cards are, before the wild's position is chosen

/// Cards checked for everything except the wild's position, which [`Plan::select`] settles.
#[derive(Debug, Clone, Copy)]
enum Plan {
    /// A combination has nothing left to choose.
    Combination(Meld),
    Sequence(SeqPlan),
}

impl Plan {
    fn open(cards: &[Card]) -> Result<Plan, MeldError> {
        if cards.len() < 3 {
            return Err(MeldError::TooFewCards);
        }
        // The naturals (neither 2 nor joker) decide the shape: two or more of one rank make a
        // combination (two of one rank never fit one sequence), otherwise they must share a suit.
        let mut naturals = cards.iter().filter(|c| !c.is_wild());
        let Some(&first) = naturals.next() else {
            return Err(MeldError::CombinationOfWilds);
        };
        let (mut one_rank, mut one_suit, mut count) = (true, true, 1);
        for card in naturals {
            one_rank &= card.rank() == first.rank();
            one_suit &= card.suit() == first.suit();
            count += 1;
        }
        match (first.rank(), first.suit()) {
            (Some(rank), _) if one_rank && count >= 2 => {
                open_combination(rank, cards).map(Plan::Combination)
            }
            (_, Some(suit)) if one_suit => open_sequence(suit, cards).map(Plan::Sequence),
            _ => Err(MeldError::NotAMeld),
        }
    }

    fn attach(meld: &Meld, cards: &[Card]) -> Result<Plan, MeldError> {
        if cards.is_empty() {
            return Err(MeldError::TooFewCards);
        }
        match meld.shape {
            MeldShape::Combination { rank } => {
                attach_combination(meld, rank, cards).map(Plan::Combination)
            }
            MeldShape::Sequence { suit } => attach_sequence(meld, suit, cards).map(Plan::Sequence),
        }
    }

    fn select(&self, wild_at: Option<u8>) -> Result<Meld, MeldError> {
        match (self, wild_at) {
            (Plan::Combination(_), Some(requested)) => Err(MeldError::WildPositionInvalid {
                requested,
                options: Vec::new(),
            }),
            (Plan::Combination(meld), None) => Ok(*meld),
            (Plan::Sequence(plan), _) => plan.select(wild_at),
        }
    }

    /// Every meld the plan can give, each with the `wild_at` that asks for it: `None` when that
    /// meld is what `select(None)` gives.
    fn choices(&self, mut emit: impl FnMut(Option<u8>, Meld)) {
        let plan = match self {
            Plan::Combination(meld) => return emit(None, *meld),
            Plan::Sequence(plan) => plan,
        };
        let (suit_two, bound) = match plan.wild {
            WildSlot::Mover {
                suit_two, bound, ..
            } => (suit_two, bound),
            WildSlot::Absent | WildSlot::Fixed { .. } => {
                if let Ok(meld) = plan.select(None) {
                    emit(None, meld);
                }
                return;
            }
        };
        // `select(None)` lays the mover on its default position, one of the options; each option
        // lays it elsewhere (or, for a 2 on 2, as a natural), so the option equal to the default
        // is the one whose meld `select(None)` gives.
        let layouts = plan.layouts();
        let default = plan
            .default_position_in(options_of(&layouts), suit_two, bound)
            .ok();
        for pos in 1..=14 {
            if let Some(layout) = layouts[usize::from(pos)] {
                let meld = plan.build(layout);
                let wild_at = if default == Some(pos) {
                    None
                } else {
                    Some(pos)
                };
                emit(wild_at, meld);
            }
        }
    }
}

fn open_combination(rank: Rank, cards: &[Card]) -> Result<Meld, MeldError> {
    if cards.len() > MAX_COMBINATION {
        return Err(MeldError::CombinationTooLong);
    }
    let mut counts = [0u8; 4];
    let mut wild = None;
    let mut wilds = 0;
    for &card in cards {
        match card.suit() {
            // In a combination every 2 is a wild (art. 10), whatever its suit.
            Some(suit) if !card.is_wild() => counts[suit as usize] += 1,
            _ => {
                wilds += 1;
                wild = Some(card);
            }
        }
    }
    if wilds > 1 {
        return Err(MeldError::TooManyWilds);
    }
    Ok(combination(rank, counts, wild))
}

fn attach_combination(meld: &Meld, rank: Rank, cards: &[Card]) -> Result<Meld, MeldError> {
    if let Some(&card) = cards
        .iter()
        .find(|c| !c.is_wild() && c.rank() != Some(rank))
    {
        return Err(MeldError::WrongCard { card });
    }
    let len = meld.len() + cards.len();
    if len > MAX_COMBINATION {
        return Err(MeldError::CombinationTooLong);
    }
    // The result is the combination of all the cards together: count them once, without the heap.
    let mut all = [Card::JOKER; MAX_COMBINATION];
    for (slot, &card) in all.iter_mut().zip(meld.cards().iter().chain(cards)) {
        *slot = card;
    }
    open_combination(rank, &all[..len])
}

/// Where a sequence's ace goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AceSlot {
    Absent,
    /// An ace already on the table stays at its end.
    At(u8),
    /// A new ace goes low (1) or high (14), whichever the rest allows.
    Either,
}

/// The card acting as a sequence's wild, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WildSlot {
    Absent,
    /// A bound wild whose natural card was not attached: it stays on `pos`.
    Fixed {
        card: Card,
        pos: u8,
    },
    /// The card whose position is chosen: a new or free wild, a bound wild displaced by its
    /// natural card (`bound`), or a 2 of the suit that may also sit naturally on 2 (`suit_two`).
    Mover {
        card: Card,
        suit_two: bool,
        bound: bool,
    },
}

/// A card that may act as the wild, found among the cards of an opening or attachment.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    card: Card,
    /// A 2 of the sequence's suit, natural if it lands on position 2.
    suit_two: bool,
    /// The meld's bound wild, displaced by its natural card.
    bound: bool,
    /// Comes from the hand (not the meld's own wild).
    new: bool,
}

/// The wild candidates of a sequence; more than two can never be valid (one natural 2, one wild).
#[derive(Debug, Clone, Copy, Default)]
struct Candidates {
    list: [Option<Candidate>; 2],
    count: usize,
}

impl Candidates {
    fn push(&mut self, candidate: Candidate) {
        if let Some(slot) = self.list.get_mut(self.count) {
            *slot = Some(candidate);
        }
        self.count += 1;
    }

    fn suit_twos(&self) -> usize {
        self.list.iter().flatten().filter(|c| c.suit_two).count()
    }

    /// Decides which candidate is the wild: a 2 of the suit that cannot be a second wild goes to
    /// its natural position 2 (art. 10). Returns the naturals (with that 2), the wild slot and
    /// whether a 2 was placed that way.
    fn resolve(
        &self,
        mut naturals: u16,
        fixed: Option<(Card, u8)>,
    ) -> Result<(u16, WildSlot, bool), MeldError> {
        let limit = if fixed.is_some() { 1 } else { 2 };
        if self.count > limit {
            return Err(MeldError::TooManyWilds);
        }
        // While position 2 is taken, a 2 of the suit can only be one more wild.
        let two_free = naturals & bit(2) == 0;
        let mut twos = [None; 2];
        let mut others = [None; 2];
        let (mut n_twos, mut n_others) = (0, 0);
        for c in self.list.iter().flatten() {
            if c.suit_two && two_free {
                twos[n_twos] = Some(*c);
                n_twos += 1;
            } else {
                others[n_others] = Some(*c);
                n_others += 1;
            }
        }
        let mover = |c: Candidate, suit_two: bool| WildSlot::Mover {
            card: c.card,
            suit_two,
            bound: c.bound,
        };
        let (wild, forced_two) = match (fixed, others, twos) {
            (Some((card, pos)), [None, _], [None, _]) => (WildSlot::Fixed { card, pos }, false),
            (Some((card, pos)), [None, _], [Some(_), None]) => {
                (WildSlot::Fixed { card, pos }, true)
            }
            (Some(_), _, _) => return Err(MeldError::TooManyWilds),
            (None, [None, _], [None, _]) => (WildSlot::Absent, false),
            (None, [Some(c), None], [None, _]) => (mover(c, false), false),
            (None, [Some(c), None], [Some(_), None]) => (mover(c, false), true),
            (None, [None, _], [Some(c), None]) => (mover(c, true), false),
            // Two 2s of the suit: one natural on 2, the other the wild. They are the same face,
            // so let the one from the hand be the wild: it moves freely, as a new wild does.
            (None, [None, _], [Some(a), Some(b)]) => {
                (mover(if a.new { a } else { b }, false), true)
            }
            (None, _, _) => return Err(MeldError::TooManyWilds),
        };
        if forced_two {
            naturals |= bit(2);
        }
        Ok((naturals, wild, forced_two))
    }
}

fn open_sequence(suit: Suit, cards: &[Card]) -> Result<SeqPlan, MeldError> {
    let mut naturals = 0u16;
    let mut aces = 0u32;
    let mut duplicate = None;
    let mut candidates = Candidates::default();
    for &card in cards {
        let new = |suit_two| Candidate {
            card,
            suit_two,
            bound: false,
            new: true,
        };
        match role(card, suit) {
            Role::Natural(pos) if naturals & bit(pos) != 0 => {
                duplicate.get_or_insert(card);
            }
            Role::Natural(pos) => naturals |= bit(pos),
            Role::Ace => aces += 1,
            Role::SuitTwo => candidates.push(new(true)),
            Role::Wild => candidates.push(new(false)),
            // `Plan::open` sends only cards of one suit (and wilds) here.
            Role::Foreign => return Err(MeldError::NotAMeld),
        }
    }
    if cards.len() > MAX_SEQUENCE {
        return Err(MeldError::SequenceTooLong);
    }
    if aces > 1 {
        return Err(MeldError::TwoNaturalAces);
    }
    if let Some(card) = duplicate {
        return Err(MeldError::WrongCard { card });
    }
    let most_naturals = naturals.count_ones() + aces + u32::from(candidates.suit_twos() > 0);
    if most_naturals < 2 {
        return Err(MeldError::TooFewNaturals);
    }
    let (naturals, wild, forced_two) = candidates.resolve(naturals, None)?;
    Ok(SeqPlan {
        suit,
        naturals,
        ace: if aces == 1 {
            AceSlot::Either
        } else {
            AceSlot::Absent
        },
        wild,
        forced_two,
    })
}

fn attach_sequence(meld: &Meld, suit: Suit, cards: &[Card]) -> Result<SeqPlan, MeldError> {
    // The naturals on the table keep their positions.
    let mut naturals = 0u16;
    let mut ace = AceSlot::Absent;
    for (i, pos) in (meld.start..).take(meld.len()).enumerate() {
        if meld.wild == Some(i as u8) {
            continue;
        }
        if pos == 1 || pos == MAX_SEQUENCE as u8 {
            ace = AceSlot::At(pos);
        } else {
            naturals |= bit(pos);
        }
    }
    let mut added = 0u16;
    let mut new_suit_twos = 0;
    let mut two_aces = false;
    let mut duplicate = None;
    let mut candidates = Candidates::default();
    for &card in cards {
        let new = |suit_two| Candidate {
            card,
            suit_two,
            bound: false,
            new: true,
        };
        match role(card, suit) {
            Role::Foreign => return Err(MeldError::WrongCard { card }),
            Role::Natural(pos) if (naturals | added) & bit(pos) != 0 => {
                duplicate.get_or_insert(card);
            }
            Role::Natural(pos) => added |= bit(pos),
            Role::Ace if ace == AceSlot::Absent => ace = AceSlot::Either,
            Role::Ace => two_aces = true,
            Role::SuitTwo => {
                new_suit_twos += 1;
                candidates.push(new(true));
            }
            Role::Wild => candidates.push(new(false)),
        }
    }
    if meld.len() + cards.len() > MAX_SEQUENCE {
        return Err(MeldError::SequenceTooLong);
    }
    if two_aces {
        return Err(MeldError::TwoNaturalAces);
    }
    if let Some(card) = duplicate {
        return Err(MeldError::WrongCard { card });
    }
    let mut fixed = None;
    if let (Some(card), Some(pos)) = (meld.wild_card(), meld.wild_position()) {
        // A bound wild sits on 2..=13 (it has a natural on each side), so the card it stands for
        // is the rank of its position; on 2 that is the suit's 2.
        let natural_attached = if pos == 2 {
            new_suit_twos > 0
        } else {
            added & bit(pos) != 0
        };
        let bound = meld.wild_is_bound();
        if bound && !natural_attached {
            fixed = Some((card, pos));
        } else {
            candidates.push(Candidate {
                card,
                suit_two: role(card, suit) == Role::SuitTwo,
                bound,
                new: false,
            });
        }
    }
    let (naturals, wild, forced_two) = candidates.resolve(naturals | added, fixed)?;
    Ok(SeqPlan {
        suit,
        naturals,
        ace,
        wild,
        forced_two,
    })
}

/// A sequence whose cards are known, with the wild's position (and a new ace's end) still open.
#[derive(Debug, Clone, Copy)]
struct SeqPlan {
    suit: Suit,
    /// Natural positions other than the ace's (including a natural 2 already decided).
    naturals: u16,
    ace: AceSlot,
    wild: WildSlot,
    /// A 2 of the suit was put on position 2 because it could not be a second wild; kept to tell
    /// "too many wilds" from "not contiguous" when nothing fits.
    forced_two: bool,
}

/// Where a sequence's cards go: positions `lo..=hi`, the wild (card, position) if any.
#[derive(Debug, Clone, Copy)]
struct Layout {
    lo: u8,
    hi: u8,
    wild: Option<(Card, u8)>,
}

impl Layout {
    fn wild_at_end(&self) -> bool {
        self.wild.is_some_and(|(_, p)| p == self.lo || p == self.hi)
    }
}

impl SeqPlan {
    /// The layout with the ace on `ace` and the mover on `mover_at`, if the rules allow it.
    fn try_layout(&self, ace: Option<u8>, mover_at: Option<u8>) -> Option<Layout> {
        let mut naturals = self.naturals;
        if let Some(a) = ace {
            if naturals & bit(a) != 0 {
                return None;
            }
            naturals |= bit(a);
        }
        let wild = match (self.wild, mover_at) {
            (WildSlot::Absent, None) => None,
            (WildSlot::Fixed { card, pos }, None) => Some((card, pos)),
            (WildSlot::Mover { card, suit_two, .. }, Some(p)) if (1..=14).contains(&p) => {
                // A 2 of the suit on position 2 is that sequence's natural 2, not a wild.
                if suit_two && p == 2 && naturals & bit(2) == 0 {
                    naturals |= bit(2);
                    None
                } else {
                    Some((card, p))
                }
            }
            _ => return None,
        };
        let occupied = match wild {
            Some((_, p)) if naturals & bit(p) != 0 => return None,
            Some((_, p)) => naturals | bit(p),
            None => naturals,
        };
        // At least two naturals (art. 10); the positions are distinct, so at most one natural
        // ace and at most 13 naturals follow from the mask itself.
        if few(naturals) != Few::More {
            return None;
        }
        let lo = lowest(occupied);
        let run = occupied >> lo;
        if run & (run + 1) != 0 {
            return None;
        }
        Some(Layout {
            lo,
            hi: highest(occupied),
            wild,
        })
    }

    /// The layout for a mover position (`None`: no card's position is open). When a new ace fits
    /// at either end, prefer the layout whose wild is at an end (free, and semipulito when the
    /// meld grows to a burraco), then the ace low.
    fn layout(&self, mover_at: Option<u8>) -> Option<Layout> {
        match self.ace {
            AceSlot::Absent => self.try_layout(None, mover_at),
            AceSlot::At(a) => self.try_layout(Some(a), mover_at),
            AceSlot::Either => {
                let low = self.try_layout(Some(1), mover_at);
                let high = self.try_layout(Some(14), mover_at);
                match (low, high) {
                    (Some(l), Some(h)) if !l.wild_at_end() && h.wild_at_end() => Some(h),
                    (Some(l), _) => Some(l),
                    (None, h) => h,
                }
            }
        }
    }

    /// The valid positions of the mover, as a mask (0 without a mover).
    fn options(&self) -> u16 {
        options_of(&self.layouts())
    }

    /// The layout for each position of the mover (indexed by position; `None` where it cannot
    /// go, and everywhere without a mover).
    fn layouts(&self) -> [Option<Layout>; 15] {
        let mut layouts = [None; 15];
        if !matches!(self.wild, WildSlot::Mover { .. }) {
            return layouts;
        }
        // A layout is one run holding the naturals, the ace and the mover: the mover is at most
        // one position beyond the naturals and the ace (either end's, for a new ace). Only those
        // positions are worth laying out.
        let reach = match self.ace {
            AceSlot::Absent => around(self.naturals),
            AceSlot::At(a) => around(self.naturals | bit(a)),
            AceSlot::Either => around(self.naturals | bit(1)) | around(self.naturals | bit(14)),
        };
        for pos in 1..=14 {
            if reach & bit(pos) != 0 {
                layouts[usize::from(pos)] = self.layout(Some(pos));
            }
        }
        layouts
    }

    fn select(&self, wild_at: Option<u8>) -> Result<Meld, MeldError> {
        match self.wild {
            WildSlot::Mover {
                suit_two, bound, ..
            } => {
                let pos = match wild_at {
                    Some(requested) => requested,
                    None => self.default_position(suit_two, bound)?,
                };
                if let Some(layout) = self.layout(Some(pos)) {
                    return Ok(self.build(layout));
                }
                match self.options() {
                    0 => Err(self.failure()),
                    options => Err(MeldError::WildPositionInvalid {
                        requested: pos,
                        options: positions(options),
                    }),
                }
            }
            WildSlot::Fixed { pos, .. } => {
                if wild_at.is_some_and(|requested| requested != pos) {
                    return Err(MeldError::BoundWildMoved);
                }
                self.layout(None)
                    .map(|layout| self.build(layout))
                    .ok_or_else(|| self.failure())
            }
            WildSlot::Absent => {
                let layout = self.layout(None).ok_or_else(|| self.failure())?;
                match wild_at {
                    Some(requested) => Err(MeldError::WildPositionInvalid {
                        requested,
                        options: Vec::new(),
                    }),
                    None => Ok(self.build(layout)),
                }
            }
        }
    }

    /// The mover's position when the request names none (RULES.md section 5).
    fn default_position(&self, suit_two: bool, bound: bool) -> Result<u8, MeldError> {
        self.default_position_in(self.options(), suit_two, bound)
    }

    /// [`SeqPlan::default_position`] among `options`, the mover's valid positions
    /// ([`SeqPlan::options`]) when the caller has them already.
    fn default_position_in(
        &self,
        options: u16,
        suit_two: bool,
        bound: bool,
    ) -> Result<u8, MeldError> {
        if options == 0 {
            return Err(self.failure());
        }
        let low = lowest(options);
        if few(options) == Few::One {
            return Ok(low);
        }
        // A displaced bound wild goes where the player says, among every valid position.
        if !bound {
            // A 2 of the suit that can sit naturally needs no position: it is not a wild there.
            if suit_two && options & bit(2) != 0 {
                return Ok(2);
            }
            // Both ends possible: the low end, by convention (FEDIBUR art. 5, FE.BUR.IT art. 6).
            let high = highest(options);
            let at_ends = options.count_ones() == 2
                && self.layout(Some(low)).is_some_and(|l| l.lo == low)
                && self.layout(Some(high)).is_some_and(|l| l.hi == high);
            if at_ends {
                return Ok(low);
            }
        }
        Err(MeldError::WildPositionAmbiguous {
            options: positions(options),
        })
    }

    /// Why no layout fits: a 2 of the suit forced onto position 2 is reported as the wild too many
    /// when the cards would fit without it.
    fn failure(&self) -> MeldError {
        if self.forced_two {
            let without_two = SeqPlan {
                naturals: self.naturals & !bit(2),
                forced_two: false,
                ..*self
            };
            let fits = match without_two.wild {
                WildSlot::Mover { .. } => without_two.options() != 0,
                _ => without_two.layout(None).is_some(),
            };
            if fits {
                return MeldError::TooManyWilds;
            }
        }
        MeldError::NotContiguous
    }

    fn build(&self, layout: Layout) -> Meld {
        sequence(self.suit, layout)
    }
}

/// The sequence of `suit` laid out as `layout` says: naturals on every position but the wild's.
fn sequence(suit: Suit, layout: Layout) -> Meld {
    let (lo, hi) = (usize::from(layout.lo), usize::from(layout.hi));
    let len = hi - lo + 1;
    let mut cards = [Card::JOKER; MAX_SEQUENCE];
    // The naturals of the run in one copy, then the wild over its position.
    cards[..len].copy_from_slice(&NATURALS_AT[suit as usize][lo..=hi]);
    let mut wild = None;
    if let Some((card, pos)) = layout.wild
        && (layout.lo..=layout.hi).contains(&pos)
    {
        let i = pos - layout.lo;
        cards[usize::from(i)] = card;
        wild = Some(i);
    }
    Meld {
        shape: MeldShape::Sequence { suit },
        cards,
        len: len as u8,
        start: layout.lo,
        wild,
    }
}

/// [`natural_at`] of every suit and position (index 0 unused), for building runs by copying.
const NATURALS_AT: [[Card; 15]; 4] = {
    let mut table = [[Card::JOKER; 15]; 4];
    let mut suit = 0;
    while suit < 4 {
        let mut pos = 1;
        while pos <= 14 {
            table[suit][pos] = natural_at(Suit::ALL[suit], pos as u8);
            pos += 1;
        }
        suit += 1;
    }
    table
};

// ---------------------------------------------------------------------------------------------
// Enumerators

/// Every combination of `rank` the hand can open: each count of each suit's face, with no wild
/// (3+ naturals) or with one of the hand's wild faces (2+ naturals).
fn combinations_of(hand: &Hand, rank: Rank, wilds: &[Card], melds: &mut Vec<Meld>) {
    let have = Suit::ALL.map(|suit| hand.count(Card::new(rank, suit)).min(MAX_COMBINATION as u8));
    // Two naturals and a wild, or three naturals, at least.
    let enough = if wilds.is_empty() { 3 } else { 2 };
    if have.iter().map(|&n| usize::from(n)).sum::<usize>() < enough {
        return;
    }
    for_each_count(have, |counts, naturals| {
        if (3..=MAX_COMBINATION).contains(&naturals) {
            melds.push(combination(rank, counts, None));
        }
        if (2..MAX_COMBINATION).contains(&naturals) {
            for &wild in wilds {
                melds.push(combination(rank, counts, Some(wild)));
            }
        }
    });
}

/// Calls `f` with every per-suit count vector `0..=have[s]` and its total.
fn for_each_count(have: [u8; 4], mut f: impl FnMut([u8; 4], usize)) {
    // Half-open ranges: an inclusive range's loop carries an extra exhaustion check (this is
    // the hot loop of both combination enumerators).
    for a in 0..have[0] + 1 {
        for b in 0..have[1] + 1 {
            for c in 0..have[2] + 1 {
                for d in 0..have[3] + 1 {
                    let total = usize::from(a) + usize::from(b) + usize::from(c) + usize::from(d);
                    f([a, b, c, d], total);
                }
            }
        }
    }
}

/// Every sequence of `suit` the hand can open: each run of positions whose faces the hand holds,
/// with no wild, or with a wild on the one missing position or on any position.
fn sequences_of(hand: &Hand, suit: Suit, wilds: &[Card], melds: &mut Vec<Meld>) {
    let suit_twos = hand.count(Card::new(Rank::Two, suit));
    let ranks = hand.suit_ranks(suit);
    // Rank n (2..=13) stands on position n; the ace on 1 and 14.
    let mut have = (ranks & !1) << 1;
    if ranks & 1 != 0 {
        have |= bit(1) | bit(14);
    }
    // Two natural cards of the suit at least (positions 1 and 14 are the same ace).
    if few(have & !bit(14)) != Few::More {
        return;
    }
    // A run starts where its first three positions miss at most one card (none without a wild):
    // the other starts would find nothing, and are skipped without walking their runs.
    let (next, after) = (have >> 1, have >> 2);
    let starts = if wilds.is_empty() {
        have & next & after
    } else {
        (have & next) | (have & after) | (next & after)
    };
    let mut starts = starts & span(1, 12);
    while starts != 0 {
        let lo = lowest(starts);
        starts &= starts - 1;
        for hi in lo + 2..=14 {
            let missing = span(lo, hi) & !have;
            match few(missing) {
                Few::None => {
                    try_run(suit, suit_twos, lo, hi, None, melds);
                    for hole in lo..=hi {
                        for &wild in wilds {
                            try_run(suit, suit_twos, lo, hi, Some((hole, wild)), melds);
                        }
                    }
                }
                Few::One => {
                    for &wild in wilds {
                        try_run(
                            suit,
                            suit_twos,
                            lo,
                            hi,
                            Some((lowest(missing), wild)),
                            melds,
                        );
                    }
                }
                // Longer runs from `lo` miss even more.
                Few::More => break,
            }
        }
    }
}

/// Opens the run `lo..=hi` of `suit` with the naturals the hand holds and `hole` = (position,
/// wild face) if any, pushing the meld when it is valid and not found by another run.
fn try_run(
    suit: Suit,
    suit_twos: u8,
    lo: u8,
    hi: u8,
    hole: Option<(u8, Card)>,
    melds: &mut Vec<Meld>,
) {
    let hole_pos = hole.map(|(pos, _)| pos);
    // 1..=14 holds a single natural ace: the wild is on 1 or 14.
    if lo == 1 && hi == 14 && !matches!(hole_pos, Some(1 | 14)) {
        return;
    }
    // 2..=14 with a natural ace has the same cards and wild position as 1..=13 with the ace low;
    // `open` picks one layout for both, so try those cards once.
    if lo == 2 && hi == 14 && hole_pos != Some(14) {
        return;
    }
    if let Some((pos, wild)) = hole
        && wild.suit() == Some(suit)
    {
        // On 2 the suit's 2 is natural (the run without a wild); elsewhere it is the wild,
        // and the run's natural 2, if any, is a second copy.
        let natural_two = lo <= 2 && hi >= 2;
        if pos == 2 || (natural_two && suit_twos < 2) {
            return;
        }
    }
    // The cards `Meld::open` is given: the naturals of the run, then the wild.
    let run_cards = || {
        let mut cards = [Card::JOKER; MAX_SEQUENCE];
        let mut n = 0;
        for pos in lo..=hi {
            if hole_pos != Some(pos) {
                cards[n] = natural_at(suit, pos);
                n += 1;
            }
        }
        if let Some((_, wild)) = hole {
            cards[n] = wild;
            n += 1;
        }
        (cards, n)
    };
    // Clear of the ace's positions (1, 14) and of position 2, a run of 3 to 11 positions with at
    // least two naturals leaves `open` nothing to choose (no end for an ace, no 2 that could be
    // natural) and nothing to refuse: the meld is the run with the wild on the hole, built here
    // without checking the cards again (this is most of what the enumerator opens).
    if lo >= 3 && hi <= 13 {
        let meld = sequence(
            suit,
            Layout {
                lo,
                hi,
                wild: hole.map(|(pos, wild)| (wild, pos)),
            },
        );
        debug_assert_eq!(
            {
                let (cards, n) = run_cards();
                Meld::open(&cards[..n], hole_pos)
            },
            Ok(meld)
        );
        melds.push(meld);
        return;
    }
    let (cards, n) = run_cards();
    if let Ok(meld) = Meld::open(&cards[..n], hole_pos) {
        melds.push(meld);
    }
}

/// Offers `cards` to `meld` and records every distinct result (on the stack: an enumeration
/// allocates only its list).
fn offer(meld: &Meld, cards: &OfferCards, found: &mut Vec<Attachment>) {
    if let Ok(plan) = Plan::attach(meld, cards) {
        plan.choices(|wild_at, result| {
            found.push(Attachment {
                cards: *cards,
                wild_at,
                result,
            });
        });
    }
}

/// The most cards an attachment can offer: a sequence's 13 naturals besides the ace's second
/// position, two 2s of the suit and one other wild (a combination offers at most 9).
const MAX_OFFER: usize = 16;

/// The cards of an attachment, kept inline: the enumerators find many attachments and a caller
/// tries few, so only the cards it sends are copied to the heap (`to_vec`). Reads as a slice.
#[derive(Clone, Copy)]
pub struct OfferCards {
    cards: [Card; MAX_OFFER],
    len: u8,
}

impl OfferCards {
    fn new() -> OfferCards {
        OfferCards {
            cards: [Card::JOKER; MAX_OFFER],
            len: 0,
        }
    }

    fn push(&mut self, card: Card) {
        self.cards[usize::from(self.len)] = card;
        self.len += 1;
    }

    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }
}

impl std::ops::Deref for OfferCards {
    type Target = [Card];

    fn deref(&self) -> &[Card] {
        self.as_slice()
    }
}

/// Equal when they hold the same cards in the same order (the unused slots do not count).
impl PartialEq for OfferCards {
    fn eq(&self, other: &OfferCards) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for OfferCards {}

impl std::fmt::Debug for OfferCards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}

fn combination_attachments(
    meld: &Meld,
    rank: Rank,
    hand: &Hand,
    wilds: &[Card],
    found: &mut Vec<Attachment>,
) {
    let room = MAX_COMBINATION - meld.len();
    let have = Suit::ALL.map(|suit| hand.count(Card::new(rank, suit)).min(room as u8));
    // A second wild is always refused (art. 9), so offer one only to a meld without.
    let extra: &[Card] = if meld.wild.is_some() { &[] } else { wilds };
    for_each_count(have, |counts, naturals| {
        let with = |wild: Option<Card>| {
            let mut cards = OfferCards::new();
            for (suit, &count) in Suit::ALL.iter().zip(&counts) {
                for _ in 0..count {
                    cards.push(Card::new(rank, *suit));
                }
            }
            if let Some(wild) = wild {
                cards.push(wild);
            }
            cards
        };
        if naturals > 0 && naturals <= room {
            offer(meld, &with(None), found);
        }
        if naturals < room {
            for &wild in extra {
                offer(meld, &with(Some(wild)), found);
            }
        }
    });
}

fn sequence_attachments(
    meld: &Meld,
    suit: Suit,
    hand: &Hand,
    wilds: &[Card],
    found: &mut Vec<Attachment>,
) {
    // Positions of the naturals on the table (they never move).
    let mut fixed = 0u16;
    for (i, pos) in (meld.start..).take(meld.len()).enumerate() {
        if meld.wild != Some(i as u8) {
            fixed |= bit(pos);
        }
    }
    let ranks = hand.suit_ranks(suit);
    // Ranks 3..=13 on their positions (the 2s are counted apart, below); the ace on 1 and 14.
    let mut have = (ranks & !0b11) << 1;
    if ranks & 1 != 0 && fixed & (bit(1) | bit(14)) == 0 {
        have |= bit(1) | bit(14);
    }
    // The sets of natural positions (3..=13, and the ace as position 1) worth offering: for each
    // run the meld can grow into, every position the hand fills, leaving out at most one (the
    // wild's). Position 2 is left to the loop over the suit's 2s below.
    let (min, max) = (lowest(fixed), highest(fixed));
    let mut sets: Vec<u16> = Vec::with_capacity(16);
    sets.push(0);
    let mut add = |set: u16| {
        let set = if set & bit(14) != 0 {
            set & !bit(14) | bit(1)
        } else {
            set
        };
        if !sets.contains(&set) {
            sets.push(set);
        }
    };
    for lo in (1..=min).rev() {
        if few(span(lo, max) & !fixed & !bit(2) & !have) == Few::More {
            break;
        }
        for hi in max..=14 {
            let free = span(lo, hi) & !fixed & !bit(2);
            let missing = free & !have;
            match few(missing) {
                Few::None => {
                    if free & bit(1) == 0 || free & bit(14) == 0 {
                        add(free);
                    }
                    let mut left_out = free;
                    while left_out != 0 {
                        let set = free & !(left_out & left_out.wrapping_neg());
                        left_out &= left_out - 1;
                        if set & bit(1) == 0 || set & bit(14) == 0 {
                            add(set);
                        }
                    }
                }
                Few::One => {
                    let set = free & !missing;
                    if set & bit(1) == 0 || set & bit(14) == 0 {
                        add(set);
                    }
                }
                Few::More => break,
            }
        }
    }
    let suit_two = Card::new(Rank::Two, suit);
    let twos = hand.count(suit_two).min(2);
    for &set in &sets {
        // The set's naturals, put together once for all its offers.
        let mut naturals = OfferCards::new();
        let mut left = set & span(1, 13);
        while left != 0 {
            naturals.push(natural_at(suit, lowest(left)));
            left &= left - 1;
        }
        for two_count in 0..twos + 1 {
            // `None` then each wild face other than the suit's 2 (that one is counted above).
            let others = std::iter::once(None)
                .chain(wilds.iter().filter(|&&w| w != suit_two).map(|&w| Some(w)));
            for other in others {
                let mut cards = naturals;
                for _ in 0..two_count {
                    cards.push(suit_two);
                }
                if let Some(other) = other {
                    cards.push(other);
                }
                if cards.len > 0 {
                    offer(meld, &cards, found);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::card::parse_cards;
    use crate::deal::{Seed, shuffled_deck};

    fn cards(text: &str) -> Vec<Card> {
        parse_cards(text).expect("test card codes are valid")
    }

    fn card(text: &str) -> Card {
        text.parse().expect("test card code is valid")
    }

    fn hand(text: &str) -> Hand {
        cards(text).into_iter().collect()
    }

    fn open(text: &str, wild_at: Option<u8>) -> Result<Meld, MeldError> {
        Meld::open(&cards(text), wild_at)
    }

    fn meld(text: &str, wild_at: Option<u8>) -> Meld {
        open(text, wild_at).expect("test meld is valid")
    }

    fn attach(meld: &Meld, text: &str, wild_at: Option<u8>) -> Result<Meld, MeldError> {
        meld.attach(&cards(text), wild_at)
    }

    /// The meld's cards as codes, lowest position first.
    fn codes(meld: &Meld) -> String {
        let codes: Vec<String> = meld.cards().iter().map(ToString::to_string).collect();
        codes.join(" ")
    }

    fn ambiguous(options: &[u8]) -> MeldError {
        MeldError::WildPositionAmbiguous {
            options: options.to_vec(),
        }
    }

    fn invalid(requested: u8, options: &[u8]) -> MeldError {
        MeldError::WildPositionInvalid {
            requested,
            options: options.to_vec(),
        }
    }

    // --- Refusals, one test per variant -----------------------------------------------------

    #[test]
    fn too_few_cards() {
        assert_eq!(open("5H 6H", None), Err(MeldError::TooFewCards));
        assert_eq!(open("", None), Err(MeldError::TooFewCards));
        // Attaching nothing is refused with the same reason.
        assert_eq!(
            attach(&meld("5H 6H 7H", None), "", None),
            Err(MeldError::TooFewCards)
        );
    }

    #[test]
    fn not_a_meld() {
        assert_eq!(open("5H 6D 7H", None), Err(MeldError::NotAMeld));
        assert_eq!(open("5H 5D 6H JK", None), Err(MeldError::NotAMeld));
    }

    #[test]
    fn combination_of_wilds() {
        // Art. 10 / RULES.md 13: no combination of 2s or jokers, not even of one suit's 2s.
        assert_eq!(open("2H 2D JK", None), Err(MeldError::CombinationOfWilds));
        assert_eq!(open("2H 2H 2H", None), Err(MeldError::CombinationOfWilds));
        assert_eq!(open("JK JK JK", None), Err(MeldError::CombinationOfWilds));
    }

    #[test]
    fn too_many_wilds() {
        assert_eq!(open("5H 5D JK 2C", None), Err(MeldError::TooManyWilds));
        // In a combination every 2 is wild, even two of the same suit.
        assert_eq!(open("5H 5D 2H 2H", None), Err(MeldError::TooManyWilds));
        assert_eq!(open("5H 6H JK 2D", None), Err(MeldError::TooManyWilds));
        // Three 2s of the suit: one natural, two wild.
        assert_eq!(open("2H 2H 2H 3H 4H", None), Err(MeldError::TooManyWilds));
        // The suit's 2 would have to be natural, but 2 is not next to 5-6: it is a second wild.
        assert_eq!(open("5H 6H JK 2H", None), Err(MeldError::TooManyWilds));
        let with_wild = meld("5H 6H 7H JK", None);
        assert_eq!(attach(&with_wild, "2C", None), Err(MeldError::TooManyWilds));
        let combo = meld("9H 9D 2S", None);
        assert_eq!(attach(&combo, "JK", None), Err(MeldError::TooManyWilds));
    }

    #[test]
    fn too_few_naturals() {
        assert_eq!(open("5H JK 2D", None), Err(MeldError::TooFewNaturals));
        assert_eq!(open("KH 2C 2C", None), Err(MeldError::TooFewNaturals));
    }

    #[test]
    fn combination_too_long() {
        let nine = "5H 5H 5D 5D 5C 5C 5S 5S";
        assert_eq!(meld(&format!("{nine} JK"), None).len(), 9);
        assert_eq!(
            open(&format!("{nine} 5S JK"), None),
            Err(MeldError::CombinationTooLong)
        );
        let full = meld(&format!("{nine} JK"), None);
        assert_eq!(
            attach(&full, "5H", None),
            Err(MeldError::CombinationTooLong)
        );
        let eight = meld(nine, None);
        assert_eq!(
            attach(&eight, "5H 5H", None),
            Err(MeldError::CombinationTooLong)
        );
    }

    #[test]
    fn sequence_too_long() {
        let all = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH";
        assert_eq!(meld(&format!("{all} JK"), None).len(), 14);
        assert_eq!(
            open(&format!("{all} JK 2D"), None),
            Err(MeldError::SequenceTooLong)
        );
        let fourteen = meld(&format!("{all} JK"), None);
        assert_eq!(
            attach(&fourteen, "2D", None),
            Err(MeldError::SequenceTooLong)
        );
    }

    #[test]
    fn two_natural_aces() {
        assert_eq!(open("AH KH QH AH", None), Err(MeldError::TwoNaturalAces));
        let low = meld("AH 2H 3H", None);
        assert_eq!(attach(&low, "AH", None), Err(MeldError::TwoNaturalAces));
        let long = meld("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", None);
        assert_eq!(attach(&long, "AH AH", None), Err(MeldError::TwoNaturalAces));
    }

    #[test]
    fn not_contiguous() {
        assert_eq!(open("5H 6H 9H", None), Err(MeldError::NotContiguous));
        assert_eq!(open("5H JK 8H", None), Err(MeldError::NotContiguous));
        assert_eq!(open("AH 5H 6H", None), Err(MeldError::NotContiguous));
        let run = meld("5H 6H 7H", None);
        assert_eq!(attach(&run, "9H", None), Err(MeldError::NotContiguous));
    }

    #[test]
    fn no_wrap_around() {
        // K-A-2 does not wrap (art. 11), with the natural 2, a joker or the 2 as a wild.
        assert_eq!(open("KH AH 2H 3H", None), Err(MeldError::NotContiguous));
        assert_eq!(open("KH AH JK 3H", None), Err(MeldError::NotContiguous));
        assert_eq!(open("QH KH AH 2H 3H", None), Err(MeldError::NotContiguous));
        let high = meld("QH KH AH", None);
        assert_eq!(attach(&high, "2H 3H", None), Err(MeldError::NotContiguous));
        // The 2 alone is simply the wild below the queen.
        assert_eq!(codes(&meld("KH AH 2H", None)), "2H KH AH");
    }

    #[test]
    fn wrong_card() {
        let run = meld("5H 6H 7H", None);
        assert_eq!(
            attach(&run, "8H 8D", None),
            Err(MeldError::WrongCard { card: card("8D") })
        );
        // A natural already in the sequence does not belong to it a second time.
        assert_eq!(
            attach(&run, "6H", None),
            Err(MeldError::WrongCard { card: card("6H") })
        );
        assert_eq!(
            open("5H 6H 6H 7H", None),
            Err(MeldError::WrongCard { card: card("6H") })
        );
        let combo = meld("9H 9D 9S", None);
        assert_eq!(
            attach(&combo, "9C 10C", None),
            Err(MeldError::WrongCard { card: card("10C") })
        );
    }

    #[test]
    fn wild_position_invalid() {
        // Free wild: only the two ends are valid.
        assert_eq!(open("5H 6H JK", Some(9)), Err(invalid(9, &[4, 7])));
        assert_eq!(open("5H 6H JK", Some(0)), Err(invalid(0, &[4, 7])));
        assert_eq!(open("5H 6H JK", Some(200)), Err(invalid(200, &[4, 7])));
        // No wild, or a combination: no position to name.
        assert_eq!(open("5H 6H 7H", Some(8)), Err(invalid(8, &[])));
        assert_eq!(open("5H 5D JK", Some(1)), Err(invalid(1, &[])));
        let combo = meld("9H 9D 9S", None);
        assert_eq!(attach(&combo, "2C", Some(2)), Err(invalid(2, &[])));
        let run = meld("5H 6H 7H", None);
        assert_eq!(attach(&run, "8H", Some(8)), Err(invalid(8, &[])));
    }

    #[test]
    fn wild_position_ambiguous_and_bound_wild_moved() {
        // 5 JK 7 8: the joker is bound on 6.
        let bound = meld("5H JK 7H 8H", None);
        assert!(bound.wild_is_bound());
        assert_eq!(bound.wild_position(), Some(6));
        // It stays when other cards are attached, and may not be asked to move.
        let grown = attach(&bound, "9H", None).expect("9 extends the run");
        assert_eq!(grown.wild_position(), Some(6));
        assert_eq!(attach(&bound, "9H", Some(6)), Ok(grown));
        assert_eq!(
            attach(&bound, "9H", Some(10)),
            Err(MeldError::BoundWildMoved)
        );
        // Its natural card frees it: the player must choose the end (RULES.md 5).
        assert_eq!(attach(&bound, "6H", None), Err(ambiguous(&[4, 9])));
        let high = attach(&bound, "6H", Some(9)).expect("9 is valid");
        assert_eq!(codes(&high), "5H 6H 7H 8H JK");
        let low = attach(&bound, "6H", Some(4)).expect("4 is valid");
        assert_eq!(codes(&low), "JK 5H 6H 7H 8H");
        assert_eq!(attach(&bound, "6H", Some(12)), Err(invalid(12, &[4, 9])));
        assert_eq!(attach(&bound, "6H 9H 10H", None), Err(ambiguous(&[4, 11])));
        // A second wild with a bound one: refused whatever the position asked.
        assert_eq!(attach(&bound, "6H 2C", None), Err(MeldError::TooManyWilds));
        // Open with the suit's 2 able to sit naturally or on 13, neither being an end of its run.
        assert_eq!(
            open("AH 3H 4H 5H 6H 7H 8H 9H 10H JH QH JK", None),
            Err(ambiguous(&[2, 13]))
        );
    }

    // --- Sequences: the natural 2, aces, length ----------------------------------------------

    #[test]
    fn natural_two() {
        // RULES.md 2: the suit's 2 between the ace and the 3 (or below the 3) is natural.
        let m = meld("2H 3H 4H", None);
        assert_eq!((m.start(), m.wild_card()), (Some(2), None));
        // Asked as the wild on 5, it is a wild there.
        let w = meld("2H 3H 4H", Some(5));
        assert_eq!((codes(&w), w.wild_position()), ("3H 4H 2H".into(), Some(5)));
        // Position 2 for the suit's 2 is its natural place: no wild.
        assert_eq!(meld("2H 3H 4H", Some(2)), m);
        // A natural 2 leaves room for one more wild (art. 10), which defaults low.
        let extra = meld("2H 3H 4H JK", None);
        assert_eq!(
            (codes(&extra), extra.wild_position()),
            ("JK 2H 3H 4H".into(), Some(1))
        );
        // Two 2s of the suit: one natural, the other the wild (low end by default).
        let twos = meld("2H 2H 3H", None);
        assert_eq!(
            (codes(&twos), twos.wild_position()),
            ("2H 2H 3H".into(), Some(1))
        );
        let twos_high = meld("2H 2H 3H", Some(4));
        assert_eq!(codes(&twos_high), "2H 3H 2H");
        // A 2 of another suit is always a wild.
        let other = meld("2D 3H 4H", None);
        assert_eq!(
            (codes(&other), other.wild_position()),
            ("2D 3H 4H".into(), Some(2))
        );
        // The suit's 2 filling a gap elsewhere acts as the wild.
        let gap = meld("5H 2H 7H", None);
        assert_eq!(
            (codes(&gap), gap.wild_position()),
            ("5H 2H 7H".into(), Some(6))
        );
        // Attaching the suit's 2 below a 3 makes it natural; the free joker may then take either
        // end, and defaults low.
        let run = meld("3H 4H JK", Some(5));
        let with_two = attach(&run, "2H", None).expect("2H is natural below the 3");
        assert_eq!(
            (codes(&with_two), with_two.wild_position()),
            ("JK 2H 3H 4H".into(), Some(1))
        );
        let kept = attach(&run, "2H", Some(5)).expect("5 is valid");
        assert_eq!(codes(&kept), "2H 3H 4H JK");
    }

    #[test]
    fn ace_low_and_high() {
        assert_eq!(meld("AH 2H 3H", None).start(), Some(1));
        assert_eq!(codes(&meld("KH QH AH", None)), "QH KH AH");
        assert_eq!(meld("QH KH AH", None).start(), Some(12));
        // A wild beside an ace: the ace stays where the run allows.
        let low = meld("AH JK 3H", None);
        assert_eq!((low.start(), low.wild_position()), (Some(1), Some(2)));
        let high = meld("QH AH JK", None);
        assert_eq!((high.start(), high.wild_position()), (Some(12), Some(13)));
        // An ace on the table keeps its end: attaching a wild to A..K puts it on 14.
        let a_to_k = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", None);
        assert_eq!(a_to_k.start(), Some(1));
        let topped = attach(&a_to_k, "JK", None).expect("the joker goes on 14");
        assert_eq!(topped.wild_position(), Some(14));
        assert_eq!(attach(&a_to_k, "JK", Some(1)), Err(invalid(1, &[14])));
        // An ace attached to 2..K may go either end; with no wild it goes low.
        let two_to_k = meld("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", None);
        assert_eq!(attach(&two_to_k, "AH", None), Ok(a_to_k));
        // An ace attached to JK 3..K goes high, keeping the wild at the end.
        let low_wild = meld("JK 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", None);
        assert_eq!(low_wild.wild_position(), Some(2));
        let with_ace = attach(&low_wild, "AH", None).expect("the ace fits high");
        assert_eq!(codes(&with_ace), "JK 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH");
    }

    #[test]
    fn an_ace_that_fits_either_end_keeps_the_wild_at_an_end() {
        // A 2..Q JK: with the ace low the joker ends the run (on 13); with the ace high it would
        // stand between Q and A. Same wild position, so the layout with the wild at the end wins.
        let m = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH JK", None);
        assert_eq!((m.start(), m.wild_position()), (Some(1), Some(13)));
        assert!(!m.wild_is_bound());
        assert_eq!(m.burraco_kind(true), Some(BurracoKind::Semipulito));
    }

    #[test]
    fn fourteen_cards_with_the_wild_on_fourteen() {
        // Art. 11: A-2-...-K plus the wild; the fourteenth position can only be the wild.
        let all = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH";
        let top = meld(&format!("{all} JK"), Some(14));
        assert_eq!(top.len(), 14);
        assert_eq!((top.start(), top.wild_position()), (Some(1), Some(14)));
        assert_eq!(codes(&top), format!("{all} JK"));
        // Without a choice the wild takes the low end and the ace goes high.
        let bottom = meld(&format!("{all} JK"), None);
        assert_eq!((bottom.start(), bottom.wild_position()), (Some(1), Some(1)));
        assert_eq!(bottom.cards().last(), Some(&card("AH")));
        // A second 2 of the suit can be that wild (art. 11: "(2) o (Jolly)").
        let with_two = meld(&format!("{all} 2H"), Some(14));
        assert_eq!(with_two.wild_position(), Some(14));
        assert_eq!(with_two.wild_card(), Some(card("2H")));
        // 13 naturals plus the wild: semipulito (the wild is at an end).
        assert_eq!(top.burraco_kind(true), Some(BurracoKind::Semipulito));
    }

    #[test]
    fn free_wild_defaults_low() {
        // FEDIBUR art. 5: "questa deve per convenzione essere posta in basso".
        let m = meld("5H 6H JK", None);
        assert_eq!((codes(&m), m.wild_position()), ("JK 5H 6H".into(), Some(4)));
        assert!(!m.wild_is_bound());
        let high = meld("5H 6H JK", Some(7));
        assert_eq!(codes(&high), "5H 6H JK");
        // A gap forces the position.
        assert_eq!(meld("5H JK 7H", None).wild_position(), Some(6));
        // A free wild may move on any attachment, and defaults low again.
        let grown = attach(&high, "4H", None).expect("4 fits");
        assert_eq!(codes(&grown), "JK 4H 5H 6H");
        let kept = attach(&high, "4H", Some(7)).expect("7 is still valid");
        assert_eq!(codes(&kept), "4H 5H 6H JK");
        // Attaching its natural card moves it; a free wild defaults low.
        let replaced = attach(&m, "4H", None).expect("the joker moves");
        assert_eq!(codes(&replaced), "JK 4H 5H 6H");
        // A new wild attached to a meld without one is free too.
        let run = meld("5H 6H 7H", None);
        assert_eq!(
            codes(&attach(&run, "JK", None).expect("fits")),
            "JK 5H 6H 7H"
        );
        assert_eq!(
            codes(&attach(&run, "JK", Some(8)).expect("fits")),
            "5H 6H 7H JK"
        );
        // Attaching at both ends at once, and filling a gap with the attached wild.
        assert_eq!(
            codes(&attach(&run, "4H 8H", None).expect("fits")),
            "4H 5H 6H 7H 8H"
        );
        assert_eq!(
            codes(&attach(&run, "2S 9H", None).expect("fits")),
            "5H 6H 7H 2S 9H"
        );
    }

    #[test]
    fn self_never_changes() {
        let m = meld("5H JK 7H", None);
        let copy = m;
        let _ = attach(&m, "6H", Some(4));
        let _ = attach(&m, "8H 9H", None);
        let _ = attach(&m, "2C", None);
        assert_eq!(m, copy);
    }

    // --- Burraco kinds ------------------------------------------------------------------------

    #[test]
    fn burraco_kinds() {
        let kind = |text: &str, at: Option<u8>, semi: bool| meld(text, at).burraco_kind(semi);
        assert_eq!(kind("3H 4H 5H 6H 7H 8H", None, true), None);
        // Reale A..K and 2..A (FITAB art. 13), the 2 being the natural one.
        let a_to_k = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH";
        assert_eq!(kind(a_to_k, None, true), Some(BurracoKind::Reale));
        let ace_added = meld("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", None)
            .attach(&cards("AH"), None)
            .expect("the ace fits");
        assert_eq!(ace_added.burraco_kind(true), Some(BurracoKind::Reale));
        let q_k_a = meld("QH KH AH", None);
        let high = attach(&q_k_a, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH", None).expect("fits");
        assert_eq!(
            (high.start(), codes(&high).ends_with("AH")),
            (Some(2), true)
        );
        assert_eq!(high.burraco_kind(true), Some(BurracoKind::Reale));
        // Super: 8 naturals of a rank.
        let eight = "7H 7H 7D 7D 7C 7C 7S 7S";
        assert_eq!(kind(eight, None, true), Some(BurracoKind::Super));
        // Pulito: 7 naturals, also with the natural 2 (FEDIBUR art. 5 example "2 3 4 5 6 7 8").
        assert_eq!(
            kind("2H 3H 4H 5H 6H 7H 8H", None, true),
            Some(BurracoKind::Pulito)
        );
        assert_eq!(
            kind("7H 7D 7D 7C 7C 7S 7S", None, true),
            Some(BurracoKind::Pulito)
        );
        // Semipulito: the wild at an end beside 7+ naturals; a combination of 7 naturals + wild.
        let seq = "3H 4H 5H 6H 7H 8H 9H JK";
        assert_eq!(kind(seq, None, true), Some(BurracoKind::Semipulito));
        assert_eq!(kind(seq, Some(10), true), Some(BurracoKind::Semipulito));
        let combo = "7H 7D 7D 7C 7C 7S 7S JK";
        assert_eq!(kind(combo, None, true), Some(BurracoKind::Semipulito));
        // Sporco: the wild inside, or fewer than 7 naturals.
        assert_eq!(
            kind("3H 4H 5H JK 7H 8H 9H 10H", None, true),
            Some(BurracoKind::Sporco)
        );
        assert_eq!(
            kind("3H 4H 5H 6H 7H 8H JK", None, true),
            Some(BurracoKind::Sporco)
        );
        assert_eq!(
            kind("7H 7D 7C 7C 7S 7S 2D", None, true),
            Some(BurracoKind::Sporco)
        );
        // Semipulito switched off: sporco (FEDIBUR art. 5: a combination with a matta is sporco).
        assert_eq!(kind(seq, None, false), Some(BurracoKind::Sporco));
        assert_eq!(kind(combo, None, false), Some(BurracoKind::Sporco));
        // Nine cards of a rank with a wild: semipulito, not super.
        let nine = format!("{eight} JK");
        assert_eq!(kind(&nine, None, true), Some(BurracoKind::Semipulito));
    }

    // --- Bound wilds --------------------------------------------------------------------------

    #[test]
    fn bound_two_of_the_suit_may_become_natural() {
        // 3 2H 5: the suit's 2 stands for the 4. Attaching the 4 frees it; its natural place 2
        // is one of the choices (RULES.md 5).
        let m = meld("3H 2H 5H", None);
        assert!(m.wild_is_bound());
        assert_eq!(attach(&m, "4H", None), Err(ambiguous(&[2, 6])));
        let natural = attach(&m, "4H", Some(2)).expect("2 is its natural place");
        assert_eq!(
            (codes(&natural), natural.wild_card()),
            ("2H 3H 4H 5H".into(), None)
        );
        let wild = attach(&m, "4H", Some(6)).expect("6 is valid");
        assert_eq!(
            (codes(&wild), wild.wild_position()),
            ("3H 4H 5H 2H".into(), Some(6))
        );
        // Still bound while the 4 is not attached: a joker would be a second wild.
        assert_eq!(attach(&m, "JK AH", None), Err(MeldError::TooManyWilds));
    }

    #[test]
    fn displaced_wild_with_a_single_option_moves_there() {
        // 10 J Q JK A: the joker stands for the king, bound between Q and A.
        let m = meld("10H JH QH JK AH", None);
        assert_eq!((m.wild_position(), m.wild_is_bound()), (Some(13), true));
        let moved = attach(&m, "KH", None).expect("the joker can only go on 9");
        assert_eq!(
            (codes(&moved), moved.wild_position()),
            ("JK 10H JH QH KH AH".into(), Some(9))
        );
        assert_eq!(attach(&m, "KH", Some(14)), Err(invalid(14, &[9])));
    }

    #[test]
    fn bound_wild_below_the_natural_two() {
        // A JK 3: the joker stands for the 2; attaching the suit's 2 displaces it to 4.
        let m = meld("AH JK 3H", None);
        assert!(m.wild_is_bound());
        let moved = attach(&m, "2H", None).expect("the joker moves to 4");
        assert_eq!(
            (codes(&moved), moved.wild_position()),
            ("AH 2H 3H JK".into(), Some(4))
        );
    }

    // --- Worked examples from the federation texts -------------------------------------------

    #[test]
    fn fedibur_art5_free_wild_moves_up() {
        // "se c'è la sequenza Fante – Dieci - Pinella, è ammesso attaccare il Re spostando in
        // alto la Pinella prima del Fante --> Re – Pinella – Fante - Dieci".
        for pinella in ["2C", "2H"] {
            let m = meld(&format!("JH 10H {pinella}"), None);
            assert_eq!(
                m.wild_position(),
                Some(9),
                "the pinella sits low by convention"
            );
            assert!(!m.wild_is_bound());
            let moved = attach(&m, "KH", None).expect("the free pinella moves up");
            assert_eq!(codes(&moved), format!("10H JH {pinella} KH"));
            assert_eq!(moved.wild_position(), Some(12));
        }
    }

    #[test]
    fn fedibur_art5_bound_wild_moves_only_when_replaced() {
        // "con la sequenza Asso – Pinella - Donna, posso attaccare il Dieci solo sostituendo la
        // Pinella con il Re e spostandola in basso a fare le veci del Fante --> Asso – Re - Donna
        // – Pinella - Dieci".
        let m = meld("AH 2C QH", None);
        assert_eq!(
            (codes(&m), m.wild_position()),
            ("QH 2C AH".into(), Some(13))
        );
        assert!(m.wild_is_bound());
        assert_eq!(attach(&m, "10H", None), Err(MeldError::NotContiguous));
        assert_eq!(attach(&m, "10H", Some(11)), Err(MeldError::BoundWildMoved));
        let done = attach(&m, "KH 10H", None).expect("the king frees the pinella for the jack");
        assert_eq!(
            (codes(&done), done.wild_position()),
            ("10H 2C QH KH AH".into(), Some(11))
        );
        assert_eq!(attach(&m, "KH 10H", Some(11)), Ok(done));
        assert_eq!(attach(&m, "KH 10H", Some(9)), Err(invalid(9, &[11])));
    }

    #[test]
    fn fedibur_art5_one_wild_besides_the_natural_two() {
        // "In ciascun gioco non si può utilizzare più di un Jolly o Pinella, salvo che, se la
        // Pinella del seme di una sequenza è messa proprio al posto del 2, si può utilizzare anche
        // un altro Jolly o pinella."
        assert!(open("2H 3H 4H 2D", None).is_ok());
        assert_eq!(open("5H 6H 2D 2C", None), Err(MeldError::TooManyWilds));
        // "Non si possono calare combinazioni di tre o più Pinelle e/o Jolly."
        assert_eq!(open("2H 2D 2C", None), Err(MeldError::CombinationOfWilds));
    }

    #[test]
    fn feburit_art7_sequences_and_combinations() {
        // "A-2-3-4-5-6-7-8-9-10-J-Q-K-Matta" (14 cards at most).
        let all = meld("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK", Some(14));
        assert_eq!(all.len(), MAX_SEQUENCE);
        // "L'Asso nelle sequenze è unico e può essere legato indistintamente al 2 o al K."
        assert_eq!(meld("AS 2S 3S", None).start(), Some(1));
        assert_eq!(meld("QS KS AS", None).start(), Some(12));
        // "Una pinella, se dello stesso seme della sequenza aperta, è il 2 naturale, solo se
        // collocata al di sotto del 3; in questo caso sarà possibile legare anche un'ulteriore
        // matta."
        let natural = meld("2S 3S 4S", None);
        assert_eq!(natural.wild_card(), None);
        assert!(attach(&natural, "JK", None).is_ok());
        // "massimo di 9 carte uguali anche dello stesso seme, compresa un'eventuale matta.
        // Non sono ammesse combinazioni di matte."
        assert_eq!(
            meld("8S 8S 8H 8H 8D 8D 8C 8C 2S", None).len(),
            MAX_COMBINATION
        );
        assert_eq!(open("JK 2S 2H", None), Err(MeldError::CombinationOfWilds));
        // "OGNI GIOCO APERTO PUÒ CONTENERE UNA SOLA MATTA".
        assert_eq!(open("8S 8H JK 2D", None), Err(MeldError::TooManyWilds));
    }

    #[test]
    fn feburit_irregularities_when_melding() {
        // A) "3-matta-6-7" is wrong; it is healed with the 4 or the 5.
        assert_eq!(open("3H JK 6H 7H", None), Err(MeldError::NotContiguous));
        assert_eq!(meld("3H 4H JK 6H 7H", None).wild_position(), Some(5));
        assert_eq!(meld("3H JK 5H 6H 7H", None).wild_position(), Some(4));
        // C) "A-A-K" is no combination; D) "A-A-A K" neither, "A-A-A" is.
        assert_eq!(open("AH AD KH", None), Err(MeldError::NotAMeld));
        assert_eq!(open("AH AD AC KH", None), Err(MeldError::NotAMeld));
        assert!(open("AH AD AC", None).is_ok());
        // E) "9-10" and "J-Q" melded together are two melds of two cards.
        assert_eq!(open("9H 10H", None), Err(MeldError::TooFewCards));
        assert_eq!(open("JH QH", None), Err(MeldError::TooFewCards));
        // F) "4-2-6-2": a sequence with two wilds; "4-2-6" alone is correct.
        assert_eq!(open("4H 2C 6H 2D", None), Err(MeldError::TooManyWilds));
        assert_eq!(meld("4H 2C 6H", None).wild_position(), Some(5));
        // G) a combination with two wilds.
        assert_eq!(open("9H 9D 2C JK", None), Err(MeldError::TooManyWilds));
        // H) "A-matta-3-2-5" is only a wrong arrangement: A 2 3 matta 5, the 2 natural.
        let h = meld("AH JK 3H 2H 5H", None);
        assert_eq!(
            (codes(&h), h.wild_position()),
            ("AH 2H 3H JK 5H".into(), Some(4))
        );
    }

    #[test]
    fn feburit_irregularities_when_attaching() {
        // I) 8-9-10 attached to 4-5-6 is healed with the 7 or a wild.
        let low = meld("4H 5H 6H", None);
        assert_eq!(
            attach(&low, "8H 9H 10H", None),
            Err(MeldError::NotContiguous)
        );
        assert_eq!(attach(&low, "7H 8H 9H 10H", None).map(|m| m.len()), Ok(7));
        let healed = attach(&low, "JK 8H 9H 10H", None).expect("the wild fills 7");
        assert_eq!(healed.wild_position(), Some(7));
        // L) 7-8-9 attached to 3-4-5-6-7: the 7 is one too many; 8 and 9 make a burraco.
        let five = meld("3H 4H 5H 6H 7H", None);
        assert_eq!(
            attach(&five, "7H 8H 9H", None),
            Err(MeldError::WrongCard { card: card("7H") })
        );
        let burraco = attach(&five, "8H 9H", None).expect("8 and 9 fit");
        assert_eq!(burraco.burraco_kind(true), Some(BurracoKind::Pulito));
        // M) a 9 alone does not attach to 4-5-6; 9, 8 and 7 together do.
        assert_eq!(attach(&low, "9H", None), Err(MeldError::NotContiguous));
        assert!(attach(&low, "9H 8H 7H", None).is_ok());
        // O) a 3 does not attach to a combination of 4s.
        let fours = meld("4H 4D 4S", None);
        assert_eq!(
            attach(&fours, "3H", None),
            Err(MeldError::WrongCard { card: card("3H") })
        );
        // P) a wild attached to a meld that already has one.
        let dirty = meld("4H 4D JK", None);
        assert_eq!(attach(&dirty, "2S", None), Err(MeldError::TooManyWilds));
        let dirty_run = meld("4H 5H 2S", None);
        assert_eq!(attach(&dirty_run, "JK", None), Err(MeldError::TooManyWilds));
    }

    // --- Enumerators --------------------------------------------------------------------------

    /// Every sub-multiset of `hand`, as count vectors over the 53 faces.
    fn sub_multisets(hand: &Hand) -> Vec<Vec<Card>> {
        let faces: Vec<(Card, u8)> = hand.faces().map(|c| (c, hand.count(c))).collect();
        let mut all = vec![Vec::new()];
        for (face, count) in faces {
            let mut next = Vec::new();
            for set in &all {
                for n in 0..=count {
                    let mut grown = set.clone();
                    grown.extend(std::iter::repeat_n(face, usize::from(n)));
                    next.push(grown);
                }
            }
            all = next;
        }
        all
    }

    fn wild_requests() -> impl Iterator<Item = Option<u8>> {
        std::iter::once(None).chain((1..=14).map(Some))
    }

    fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
        cards.sort();
        cards
    }

    fn test_hands() -> Vec<Hand> {
        let mut hands: Vec<Hand> = [
            "AH 2H 3H 4H 5H JK 2D 7C 7C 7D KS",
            "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
            "AH 3H 4H 5H 6H 7H 8H 9H 10H JH QH 2H JK",
            "2H 2H 3H 4H QH KH AH 2S JK 5D 5D",
            "9S 9S 9H 9D 9C 2C 2D JK 10S JS QS",
            "AS AS AH KS QS 2S 2S JK 3S 4S 5D",
        ]
        .iter()
        .map(|text| hand(text))
        .collect();
        for i in 0..40u8 {
            let deck = shuffled_deck(&Seed([i; 32]));
            hands.push(deck[..11].iter().copied().collect());
        }
        hands
    }

    #[test]
    fn openable_melds_are_exactly_what_open_accepts() {
        for hand in test_hands() {
            let listed = openable_melds(&hand);
            let distinct: HashSet<Meld> = listed.iter().copied().collect();
            assert_eq!(distinct.len(), listed.len(), "duplicates for {hand:?}");
            for m in &listed {
                assert!(hand.contains_all(m.cards()), "{m:?} not from {hand:?}");
                assert_eq!(Meld::open(m.cards(), m.wild_position()), Ok(*m));
            }
            // Brute force: every sub-multiset with every requested position.
            let mut expected = HashSet::new();
            for set in sub_multisets(&hand) {
                if set.len() < 3 {
                    continue;
                }
                for at in wild_requests() {
                    if let Ok(m) = Meld::open(&set, at) {
                        expected.insert(m);
                    }
                }
            }
            assert_eq!(distinct, expected, "openable melds of {hand:?}");
        }
    }

    #[test]
    fn attachments_are_exactly_what_attach_accepts() {
        let hands = test_hands();
        let mut targets: Vec<Meld> = [
            ("5H JK 7H", None),
            ("5H 6H 7H", None),
            ("QH 2C AH", None),
            ("3H 2H 5H", None),
            ("2H 3H 4H", None),
            ("AH 2H 3H", None),
            ("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", None),
            ("9S 9H 2D", None),
            ("7C 7C 7D", None),
            ("4S 5S JK", Some(6)),
        ]
        .iter()
        .map(|(text, at)| meld(text, *at))
        .collect();
        // A sample of what random hands open, sequences and combinations alike.
        for hand in hands.iter().skip(6).take(10) {
            targets.extend(openable_melds(hand).into_iter().step_by(5).take(2));
        }
        for hand in hands.iter().take(24) {
            for target in &targets {
                let listed = attachments(target, hand);
                let mut seen = HashSet::new();
                for a in &listed {
                    assert!(hand.contains_all(&a.cards));
                    assert_eq!(target.attach(&a.cards, a.wild_at), Ok(a.result));
                    assert!(
                        seen.insert((sorted(a.cards.to_vec()), a.result)),
                        "duplicate {a:?}"
                    );
                }
                let mut expected = HashSet::new();
                for set in sub_multisets(hand) {
                    if set.is_empty() {
                        continue;
                    }
                    for at in wild_requests() {
                        if let Ok(m) = target.attach(&set, at) {
                            expected.insert((sorted(set.clone()), m));
                        }
                    }
                }
                assert_eq!(seen, expected, "attachments of {hand:?} to {target:?}");
            }
        }
    }
}
