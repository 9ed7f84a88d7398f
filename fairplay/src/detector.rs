//! The detectors: each turns a move into observations of one statistic, with the value fair play
//! expects from what the mover could see.
//!
//! Every observation is "what happened" (read from the real hidden cards) against "what the mover's
//! own information predicts" (the [`fit`](crate::fit) chances over its unseen cards). Under fair
//! play the move is a function of the mover's information (and its own randomness), and the hidden
//! cards, given that information, are a uniform arrangement of the unseen ones; so each
//! observation's expectation is exactly the predicted value, whatever the strategy, and the sums
//! over many moves are near normal. A player who sees hidden cards makes moves that correlate with
//! them beyond that prediction.

use burraco_rules::{Action, Card, Players, Seat, SeatKnowledge, Suit};

use crate::fit::{fit_set, fits, model_hidden_hand};
use crate::walk::Moment;

/// The statistics, in report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Detector {
    /// (a) Discards that fit the partner's hidden hand, against the chance they would from the
    /// discarder's information. High: the player feeds a partner whose cards it knows.
    PartnerFit,
    /// (b) Discards that avoid the next opponent's hidden hand (the seat that may pick them up),
    /// against the chance. High: the player sees what the opponent wants. (Low, i.e. feeding the
    /// opponent beyond chance, is what a player colluding with the opponents would show.)
    NextOpponentAvoid,
    /// (c) Takes that beat the tallone: drawing when the top card (hidden) fits the hand, picking
    /// up the pile when it would not, against the chance the top card fits. High: the player sees
    /// the tallone.
    TalloneTake,
    /// (d) The suit of a player's discards carries information about the partner's hidden hand:
    /// the partner holds more cards of the discard's suit (or of the suit one, two or three places
    /// on, for an unknown code) than the unseen cards explain. The best of the four, corrected for
    /// the choice. High: the pair signals, or the player sees its partner's hand.
    SuitSignal,
    /// (e) A player's discard suits follow its partner's latest discard: the suit is the partner's
    /// (or the one one, two or three places on, for an unknown code) more often than the player's
    /// own hand explains. The best of the four, corrected for the choice. High: the pair passes a
    /// code, and this player obeys it.
    SignalFollow,
}

impl Detector {
    pub const ALL: [Detector; 5] = [
        Detector::PartnerFit,
        Detector::NextOpponentAvoid,
        Detector::TalloneTake,
        Detector::SuitSignal,
        Detector::SignalFollow,
    ];

    /// Whether the detector scores four suit rotations (and reports the best, corrected).
    pub fn rotates(self) -> bool {
        matches!(self, Detector::SuitSignal | Detector::SignalFollow)
    }

    pub fn code(self) -> &'static str {
        match self {
            Detector::PartnerFit => "partner_fit",
            Detector::NextOpponentAvoid => "next_opponent_avoid",
            Detector::TalloneTake => "tallone_take",
            Detector::SuitSignal => "suit_signal",
            Detector::SignalFollow => "signal_follow",
        }
    }

    /// What a high score means, for reports.
    pub fn meaning(self) -> &'static str {
        match self {
            Detector::PartnerFit => "discards fit the partner's hidden hand",
            Detector::NextOpponentAvoid => "discards avoid the next opponent's hidden hand",
            Detector::TalloneTake => "draws and pick-ups follow the hidden top of the tallone",
            Detector::SuitSignal => "discard suits predict the partner's hidden suits",
            Detector::SignalFollow => "discard suits follow the partner's latest discard",
        }
    }
}

/// One observation: `observed` against `expected`, its mean under fair play.
/// `variant` tells apart the suit rotations of [`Detector::SuitSignal`] and
/// [`Detector::SignalFollow`] (0 for the others).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Observation {
    pub seat: Seat,
    pub detector: Detector,
    pub variant: u8,
    pub observed: f64,
    pub expected: f64,
}

/// The observations a move gives (none for most moves: melds, and moves the mover had no real
/// choice or no information about).
pub fn observe(m: &Moment<'_>, out: &mut Vec<Observation>) {
    let know = m.mover();
    // A seat holding a pozzetto it may not see yet knows nothing of its own hand.
    let Some(own) = know.hand() else { return };
    let players = know.players();
    match m.action {
        Action::Discard { card } if !card.is_wild() => {
            discard(m, know, players, *card, out);
        }
        Action::Draw | Action::PickUp => {
            let legal = m.truth.legal_actions();
            if !(legal.contains(&Action::Draw) && legal.contains(&Action::PickUp)) {
                return;
            }
            let Some(&top) = m.truth.tallone_top_first().first() else {
                return;
            };
            let pool = know.unseen_cards();
            if pool.is_empty() {
                return;
            }
            let p = pool.iter().filter(|&&c| fits(c, own)).count() as f64 / pool.len() as f64;
            if p <= 0.0 || p >= 1.0 {
                return;
            }
            let hit = f64::from(u8::from(fits(top, own)));
            let sign = if *m.action == Action::Draw { 1.0 } else { -1.0 };
            out.push(Observation {
                seat: m.seat,
                detector: Detector::TalloneTake,
                variant: 0,
                observed: sign * hit,
                expected: sign * p,
            });
        }
        _ => {}
    }
}

fn discard(
    m: &Moment<'_>,
    know: &SeatKnowledge,
    players: Players,
    card: Card,
    out: &mut Vec<Observation>,
) {
    let set = fit_set(card);
    let seed = moment_seed(m, card);
    let next = players.next(m.seat);
    let targets: &[Seat] = if players == Players::Four {
        &[next, m.seat.partner()]
    } else {
        &[next]
    };
    for &target in targets {
        let actual = m.truth.hand(target);
        let Some(model) =
            model_hidden_hand(know, target, actual, &set, seed ^ target.index() as u64)
        else {
            continue;
        };
        let p = model.fit_chance;
        let hit = f64::from(u8::from(fits(card, actual)));
        if target == next {
            if p > 0.0 && p < 1.0 {
                out.push(Observation {
                    seat: m.seat,
                    detector: Detector::NextOpponentAvoid,
                    variant: 0,
                    observed: -hit,
                    expected: -p,
                });
            }
            continue;
        }
        if p > 0.0 && p < 1.0 {
            out.push(Observation {
                seat: m.seat,
                detector: Detector::PartnerFit,
                variant: 0,
                observed: hit,
                expected: p,
            });
        }
        let Some(suit) = card.suit() else { continue };
        let start = Suit::ALL.iter().position(|&s| s == suit).unwrap_or(0);
        for r in 0..4u8 {
            let i = (start + usize::from(r)) % 4;
            let held = actual
                .cards()
                .filter(|&c| natural_of(c, Suit::ALL[i]))
                .count();
            out.push(Observation {
                seat: m.seat,
                detector: Detector::SuitSignal,
                variant: r,
                observed: held as f64,
                expected: model.suit_means[i],
            });
        }
    }
}

/// One discard for [`Detector::SignalFollow`]: its suit, the suit of the partner's latest
/// discard before it, and the discarder's natural cards per suit (indices in [`Suit::ALL`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FollowEvent {
    pub seat: Seat,
    pub suit: usize,
    pub signal: usize,
    pub held: [u8; 4],
}

/// The [`FollowEvent`] of a move: a natural discard at four seats after a natural discard of the
/// partner's, from a hand with a choice of suits, in a turn that did not take the pile.
pub fn follow_event(m: &Moment<'_>) -> Option<FollowEvent> {
    let Action::Discard { card } = m.action else {
        return None;
    };
    let know = m.mover();
    if card.is_wild() || know.players() != Players::Four {
        return None;
    }
    // A seat that took the pile this turn may hold the partner's latest discard itself: its
    // suit would follow the partner's through the pile, not through a code.
    if know.picked_up_this_turn() > 0 {
        return None;
    }
    let own = know.hand()?;
    let partner = m.seat.partner();
    let &(_, signal) = know.discards().iter().rev().find(|(s, _)| *s == partner)?;
    let signal = signal.suit().filter(|_| !signal.is_wild())?;
    let mut held = [0u8; 4];
    for s in own
        .cards()
        .filter(|c| !c.is_wild())
        .filter_map(|c| c.suit())
    {
        held[suit_index(s)] = held[suit_index(s)].saturating_add(1);
    }
    let naturals: u8 = held.iter().sum();
    // A hand of one suit has no choice of suit.
    if held.contains(&naturals) {
        return None;
    }
    Some(FollowEvent {
        seat: m.seat,
        suit: suit_index(card.suit()?),
        signal: suit_index(signal),
        held,
    })
}

pub(crate) fn suit_index(suit: Suit) -> usize {
    Suit::ALL.iter().position(|&s| s == suit).unwrap_or(0)
}

/// A seed for a prediction's sampling, from the moment alone (so a report is repeatable).
fn moment_seed(m: &Moment<'_>, card: Card) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut mix = |x: u64| {
        h ^= x;
        h = h.wrapping_mul(0x0100_0000_01B3);
    };
    mix(m.seat.index() as u64);
    mix(card.index() as u64);
    mix(u64::from(m.truth.turns_played()));
    for c in m.mover().hand().into_iter().flat_map(|h| h.cards()) {
        mix(c.index() as u64);
    }
    h
}

fn natural_of(card: Card, suit: Suit) -> bool {
    !card.is_wild() && card.suit() == Some(suit)
}
