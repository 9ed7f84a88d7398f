//! The peeking cheats: L2's choice changed by a hidden hand the cheater looks at.

use burraco_rules::{Action, Card, Game, Hand, Meld, MeldError, Phase, Rank, SeatKnowledge, Suit};

use crate::strategy::expert::feeds_known;

/// The discard L2 scores best once it gains by feeding `partner` (lower scores are discarded).
pub(super) fn feed(ranked: Vec<(i32, Action)>, partner: &Hand) -> Option<Action> {
    ranked
        .into_iter()
        .map(|(s, a)| (s - discard_feeds(&a, partner), a))
        .min_by_key(|(s, _)| *s)
        .map(|(_, a)| a)
}

/// The discard L2 scores best once it pays for feeding `next`.
pub(super) fn starve(ranked: Vec<(i32, Action)>, next: &Hand) -> Option<Action> {
    ranked
        .into_iter()
        .map(|(s, a)| (s + discard_feeds(&a, next), a))
        .min_by_key(|(s, _)| *s)
        .map(|(_, a)| a)
}

fn discard_feeds(action: &Action, hand: &Hand) -> i32 {
    match action {
        Action::Discard { card } => feeds_known(hand, *card),
        _ => 0,
    }
}

/// At the take: the pile, when one of its natural cards would give the next opponent (whose real
/// hand the cheater sees) a meld with two cards it holds. `None`: L2's take.
pub(super) fn deny_pile(know: &SeatKnowledge, legal: &[Action], truth: &Game) -> Option<Action> {
    if truth.phase() != Phase::Take
        || !legal.contains(&Action::PickUp)
        || !legal.contains(&Action::Draw)
    {
        return None;
    }
    let next = truth.hand(know.players().next(know.seat()));
    truth
        .pile()
        .iter()
        .any(|&c| completes_meld(next, c))
        .then_some(Action::PickUp)
}

/// Whether natural `card` makes a meld with two natural cards of `hand`: two of its rank, or two
/// of its suit that run with it (the ace at both ends).
fn completes_meld(hand: &Hand, card: Card) -> bool {
    let (Some(rank), Some(suit)) = (card.rank(), card.suit()) else {
        return false;
    };
    if card.is_wild() {
        return false;
    }
    let same_rank: u8 = Suit::ALL
        .iter()
        .map(|&s| hand.count(Card::new(rank, s)))
        .sum();
    if same_rank >= 2 {
        return true;
    }
    let held = |n: i32| {
        let n = if n == 14 { 1 } else { n };
        u8::try_from(n)
            .ok()
            .filter(|&n| n == 1 || (3..=13).contains(&n))
            .and_then(Rank::from_number)
            .is_some_and(|r| hand.contains(Card::new(r, suit)))
    };
    let positions: &[i32] = if rank == Rank::Ace {
        &[1, 14]
    } else {
        &[i32::from(rank.number())]
    };
    positions.iter().any(|&p| {
        (held(p - 2) && held(p - 1)) || (held(p - 1) && held(p + 1)) || (held(p + 1) && held(p + 2))
    })
}

/// In the play phase, when L2 would discard: the first meld (in the rules' order) the cheater can
/// open that its partner's real hand holds a natural card to attach to, wild or not. `None`: L2's
/// choice.
pub(super) fn meld_for_partner(
    know: &SeatKnowledge,
    legal: &[Action],
    truth: &Game,
    honest: &Action,
) -> Option<Action> {
    if truth.phase() != Phase::Play || !matches!(honest, Action::Discard { .. }) {
        return None;
    }
    let partner = truth.hand(know.seat().partner());
    legal
        .iter()
        .find(|a| match a {
            Action::Open { cards, wild_at } => Meld::open(cards, *wild_at)
                .is_ok_and(|m| partner.cards().any(|c| !c.is_wild() && attaches(&m, c))),
            _ => false,
        })
        .cloned()
}

/// Whether `card` alone attaches to `meld`, wherever a wild would go.
fn attaches(meld: &Meld, card: Card) -> bool {
    matches!(
        meld.attach(&[card], None),
        Ok(_) | Err(MeldError::WildPositionAmbiguous { .. })
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(codes: &str) -> Hand {
        burraco_rules::parse_cards(codes)
            .unwrap()
            .into_iter()
            .collect()
    }

    fn card(code: &str) -> Card {
        burraco_rules::parse_cards(code).unwrap()[0]
    }

    #[test]
    fn a_card_completes_a_meld_of_its_rank_or_its_run() {
        let h = hand("7H 7D 9S 10S QC KC 4D");
        assert!(completes_meld(&h, card("7C")));
        assert!(completes_meld(&h, card("8S")) && completes_meld(&h, card("JS")));
        assert!(completes_meld(&h, card("AC")), "Q K A");
        assert!(!completes_meld(&h, card("5D")) && !completes_meld(&h, card("8H")));
        assert!(!completes_meld(&h, card("2C")) && !completes_meld(&h, Card::JOKER));
    }
}
