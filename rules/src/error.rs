//! Why the rules refuse an input. Every variant names the rule (RULES.md section, federation article)
//! in its message and has a stable snake_case [`IllegalAction::code`] for the wire.

use crate::card::Card;
use crate::meld::MeldError;
use crate::seat::Seat;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    #[error("the hand is over")]
    HandOver,
    #[error("{seat} is not seated at this table")]
    NotSeated { seat: Seat },
    #[error("it is {on_turn}'s turn (RULES.md 4)")]
    NotYourTurn { on_turn: Seat },
    #[error("take first: draw from the tallone or pick up the discard pile (RULES.md 4.1)")]
    MustTakeFirst,
    #[error("you have already taken this turn (RULES.md 4.1)")]
    AlreadyTaken,
    #[error("the last two cards of the tallone are never drawn (art. 17)")]
    TalloneExhausted,
    #[error(
        "stallo: the player who began the run of card exchanges must draw, not pick up (FEDIBUR art. 5)"
    )]
    StalloMustDraw,
    #[error("you do not hold {card}")]
    CardNotInHand { card: Card },
    #[error("you do not hold all of those cards")]
    CardsNotInHand,
    #[error("no meld {meld} on the table")]
    UnknownMeld { meld: u8 },
    #[error(
        "meld {meld} belongs to the opponents: attach only to your own side's melds (RULES.md 4.2)"
    )]
    OpponentsMeld { meld: u8 },
    #[error("your side already has a combination of that rank (art. 31)")]
    DuplicateCombination,
    #[error(transparent)]
    Meld(#[from] MeldError),
    #[error(
        "your side has its pozzetto: you may empty your hand only by closing with a discard (RULES.md 6)"
    )]
    WouldEmptyHand,
    #[error("that would leave you no legal discard to end the turn (RULES.md 6)")]
    NoLegalDiscardLeft,
    #[error(
        "you picked up the single card {card} this turn and may not discard it without holding an identical one (art. 8)"
    )]
    DiscardPickedUpCard { card: Card },
    #[error("closing requires your side's pozzetto to be taken (RULES.md 7)")]
    CloseWithoutPozzetto,
    #[error("closing requires a burraco (RULES.md 7)")]
    CloseWithoutBurraco,
    #[error("closing requires a burraco pulito at this table (FIBUR rule)")]
    CloseWithoutBurracoPulito,
    #[error("you may not close by discarding a wild (art. 14)")]
    CloseWithWild,
    #[error(
        "you may not close in the turn you picked up the discard pile: chiusura al monte (FITAB art. 32 D)"
    )]
    CloseAfterPilePickup,
    #[error(
        "you may close in the turn you picked up the pile only if it was a single card (FEDIBUR art. 5)"
    )]
    CloseAfterMultiCardPickup,
    #[error("closing is not allowed during the first round of the hand (FEDIBUR art. 5)")]
    CloseInFirstRound,
    #[error("the TIME OUT has already been announced")]
    TimeOutAlreadyAnnounced,
    #[error("this table has no per-move clock, so no clock can expire (RULES.md 1, 9)")]
    NoMoveClock,
}

impl IllegalAction {
    /// A stable identifier for protocols and logs: never changes meaning once published.
    pub fn code(&self) -> &'static str {
        use IllegalAction::*;
        match self {
            HandOver => "hand_over",
            NotSeated { .. } => "not_seated",
            NotYourTurn { .. } => "not_your_turn",
            MustTakeFirst => "must_take_first",
            AlreadyTaken => "already_taken",
            TalloneExhausted => "tallone_exhausted",
            StalloMustDraw => "stallo_must_draw",
            CardNotInHand { .. } => "card_not_in_hand",
            CardsNotInHand => "cards_not_in_hand",
            UnknownMeld { .. } => "unknown_meld",
            OpponentsMeld { .. } => "opponents_meld",
            DuplicateCombination => "duplicate_combination",
            Meld(e) => e.code(),
            WouldEmptyHand => "would_empty_hand",
            NoLegalDiscardLeft => "no_legal_discard_left",
            DiscardPickedUpCard { .. } => "discard_picked_up_card",
            CloseWithoutPozzetto => "close_without_pozzetto",
            CloseWithoutBurraco => "close_without_burraco",
            CloseWithoutBurracoPulito => "close_without_burraco_pulito",
            CloseWithWild => "close_with_wild",
            CloseAfterPilePickup => "close_after_pile_pickup",
            CloseAfterMultiCardPickup => "close_after_multi_card_pickup",
            CloseInFirstRound => "close_in_first_round",
            TimeOutAlreadyAnnounced => "time_out_already_announced",
            NoMoveClock => "no_move_clock",
        }
    }
}

impl MeldError {
    /// A stable identifier, as [`IllegalAction::code`].
    pub fn code(&self) -> &'static str {
        use MeldError::*;
        match self {
            TooFewCards => "meld_too_few_cards",
            NotAMeld => "not_a_meld",
            CombinationOfWilds => "combination_of_wilds",
            TooManyWilds => "too_many_wilds",
            TooFewNaturals => "too_few_naturals",
            CombinationTooLong => "combination_too_long",
            SequenceTooLong => "sequence_too_long",
            TwoNaturalAces => "two_natural_aces",
            NotContiguous => "not_contiguous",
            WrongCard { .. } => "wrong_card_for_meld",
            BoundWildMoved => "bound_wild_moved",
            WildPositionAmbiguous { .. } => "wild_position_ambiguous",
            WildPositionInvalid { .. } => "wild_position_invalid",
        }
    }
}
