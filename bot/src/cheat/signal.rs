//! The signalling pairs: a code naming the sender's longest suit, in its discard's suit, its
//! discard's rank or the time its discard takes, and one use of it: the receiver prefers discards
//! of the named suit (the sender's long suit, fed). Each partner is sender and receiver.

use burraco_protocol::record::{RecordInput, RecordedInput};
use burraco_rules::{Action, Card, Hand, Seat, SeatKnowledge, Suit};
use rand_core::Rng;

use super::record::{THINK_MIN_MS, THINK_SPAN_MS};

/// How much worse (in L2's discard score) a discard carrying the code may be than the best one.
const SIGNAL_SLACK: i32 = 15;
/// How much the receiver prefers a discard in the signalled suit.
const SIGNAL_PULL: i32 = 30;

/// A code carried by the discarded card itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CardCode {
    /// The suit before the discard's (rotation 3 of `signal_follow`).
    Suit,
    /// `Suit::ALL[rank number % 4]`: 4, 8, Q hearts; A, 5, 9, K diamonds; 6, 10 clubs; 3, 7, J
    /// spades. The discard's suit says nothing.
    Rank,
}

impl CardCode {
    /// The suit a natural discard names.
    fn names(self, card: Card) -> Option<Suit> {
        if card.is_wild() {
            return None;
        }
        match self {
            CardCode::Suit => card.suit().map(|s| rotate(s, 3)),
            CardCode::Rank => card.rank().map(|r| Suit::ALL[usize::from(r.number()) % 4]),
        }
    }
}

/// The suit `hand` holds most natural cards of (ties: the first in [`Suit::ALL`]).
pub fn longest_suit(hand: &Hand) -> Suit {
    let count = |s: Suit| {
        hand.cards()
            .filter(|c| !c.is_wild() && c.suit() == Some(s))
            .count()
    };
    Suit::ALL
        .into_iter()
        .max_by_key(|&s| (count(s), std::cmp::Reverse(s as u8)))
        .unwrap_or(Suit::Hearts)
}

fn rotate(suit: Suit, by: usize) -> Suit {
    Suit::ALL[(suit_index(suit) + by) % 4]
}

fn suit_index(suit: Suit) -> usize {
    Suit::ALL.iter().position(|&s| s == suit).unwrap_or(0)
}

/// The suit a [`Cheat::Signals`](super::Cheat::Signals) sender holding `hand` discards in: the
/// one after its longest.
pub fn signal_for(hand: &Hand) -> Suit {
    rotate(longest_suit(hand), 1)
}

/// The suit a [`Cheat::Signals`](super::Cheat::Signals) discard asks for: the one before its own.
pub fn decode_signal(discard: Card) -> Option<Suit> {
    CardCode::Suit.names(discard)
}

fn discarded(action: &Action) -> Option<Card> {
    match action {
        Action::Discard { card } => Some(*card),
        _ => None,
    }
}

/// L2's discard scores with the receiver's pull toward `wanted` (lower is discarded).
fn pulled(ranked: Vec<(i32, Action)>, wanted: Option<Suit>) -> Vec<(i32, Action)> {
    ranked
        .into_iter()
        .map(|(s, a)| {
            let natural_suit = discarded(&a).filter(|c| !c.is_wild()).and_then(Card::suit);
            let pull = if wanted.is_some() && natural_suit == wanted {
                SIGNAL_PULL
            } else {
                0
            };
            (s - pull, a)
        })
        .collect()
}

/// A card-code pair's discard: pulled toward the partner's latest signal, then among those within
/// [`SIGNAL_SLACK`] of the best, the best one that names the seat's own longest suit.
pub(super) fn card_code_discard(
    know: &SeatKnowledge,
    ranked: Vec<(i32, Action)>,
    code: CardCode,
) -> Option<Action> {
    let partner = know.seat().partner();
    let wanted = know
        .discards()
        .iter()
        .rev()
        .find(|(s, _)| *s == partner)
        .and_then(|(_, c)| code.names(*c));
    let scored = pulled(ranked, wanted);
    let best = scored.iter().map(|(s, _)| *s).min()?;
    let signal = longest_suit(know.hand()?);
    scored
        .iter()
        .filter(|(s, a)| {
            *s <= best + SIGNAL_SLACK && discarded(a).and_then(|c| code.names(c)) == Some(signal)
        })
        .min_by_key(|(s, _)| *s)
        .or_else(|| scored.iter().find(|(s, _)| *s == best))
        .map(|(_, a)| a.clone())
}

/// The width of one suit's band of think time.
const BAND_MS: u64 = THINK_SPAN_MS / 4;

/// A timing sender's discard time: the band of its longest suit, uniform within it, so over
/// many discards its times look like an honest player's.
pub(super) fn timing_think_ms(know: &SeatKnowledge, rng: &mut impl Rng) -> u64 {
    let band = know.hand().map_or(0, |h| suit_index(longest_suit(h))) as u64;
    THINK_MIN_MS + band * BAND_MS + rng.next_u64() % BAND_MS
}

/// A timing pair's discard: L2's, pulled toward the suit the partner's latest discard's time
/// names.
pub(super) fn timing_discard(
    know: &SeatKnowledge,
    ranked: Vec<(i32, Action)>,
    inputs: &[RecordedInput],
) -> Option<Action> {
    let wanted = latest_discard_think_ms(inputs, know.seat().partner()).map(|ms| {
        let band = (ms.saturating_sub(THINK_MIN_MS) / BAND_MS).min(3);
        Suit::ALL[band as usize]
    });
    let scored = pulled(ranked, wanted);
    let best = scored.iter().map(|(s, _)| *s).min()?;
    scored.into_iter().find(|(s, _)| *s == best).map(|(_, a)| a)
}

/// How long `seat`'s latest discard took: its time since the input before it (the deal for the
/// first).
fn latest_discard_think_ms(inputs: &[RecordedInput], seat: Seat) -> Option<u64> {
    let i = inputs
        .iter()
        .rposition(|r| matches!(r.input, RecordInput::Discard { seat: s, .. } if s == seat))?;
    let at = inputs[i].at_ms?;
    let before = match i.checked_sub(1) {
        Some(j) => inputs[j].at_ms?,
        None => 0,
    };
    Some(at.saturating_sub(before))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(code: &str) -> Card {
        burraco_rules::parse_cards(code).unwrap()[0]
    }

    #[test]
    fn the_rank_code_names_a_suit_whatever_the_discards_suit() {
        for (code, suit) in [
            ("4C", Suit::Hearts),
            ("QS", Suit::Hearts),
            ("AH", Suit::Diamonds),
            ("KC", Suit::Diamonds),
            ("6H", Suit::Clubs),
            ("10D", Suit::Clubs),
            ("3D", Suit::Spades),
            ("JH", Suit::Spades),
        ] {
            assert_eq!(CardCode::Rank.names(card(code)), Some(suit), "{code}");
        }
        assert_eq!(CardCode::Rank.names(card("2C")), None);
        assert_eq!(CardCode::Suit.names(card("7D")), Some(Suit::Hearts));
    }

    #[test]
    fn a_discards_time_is_read_from_the_input_before_it() {
        let input = |input: RecordInput, at: u64| RecordedInput {
            input,
            at_ms: Some(at),
        };
        let inputs = [
            input(RecordInput::Draw { seat: Seat::South }, 1_000),
            input(
                RecordInput::Discard {
                    seat: Seat::South,
                    card: card("7D"),
                },
                2_500,
            ),
            input(RecordInput::Draw { seat: Seat::West }, 3_000),
        ];
        assert_eq!(latest_discard_think_ms(&inputs, Seat::South), Some(1_500));
        assert_eq!(latest_discard_think_ms(&inputs, Seat::North), None);
    }
}
