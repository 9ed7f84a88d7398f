//! Cheating bots, for proving the fair-play detectors (docs/FAIR_PLAY.md), and an in-process loop
//! that plays a hand with them and writes its [`HandRecord`](burraco_protocol::record::HandRecord).
//!
//! Every cheater is L2 ([`Expert`](crate::Expert)) with one difference, so a detector that flags
//! it flags the cheating and nothing else. Three re-rank L2's discard, the place the detectors
//! were written for; the others use what they see, or what they are told, where no detector looks:
//!
//! - [`Cheat::SeesPartner`]: sees its partner's hand and discards what the partner can use (the
//!   pile it grows is the partner's to pick up).
//! - [`Cheat::SeesNextOpponent`]: sees the next opponent's hand and never feeds it, the way L2
//!   avoids the cards it saw that opponent pick up, but over the whole hand.
//! - [`Cheat::Signals`]: a pair with a code in its discards' suits and no peeking at all. The suit
//!   of a discard is the suit after the one the discarder holds most of (hearts, diamonds, clubs,
//!   spades, round again), chosen among near-equal discards so the hand hardly suffers; the partner
//!   decodes the latest signal and discards in the signalled suit, feeding the long suit.
//! - [`Cheat::DeniesPile`]: sees the next opponent's hand and takes the pile whenever a card in it
//!   would give that opponent a meld (its discards are L2's).
//! - [`Cheat::MeldsForPartner`]: sees its partner's hand and opens, at once and even with a wild
//!   L2 would keep, any meld the partner holds a card to attach to (its discards are L2's).
//! - [`Cheat::RankSignals`]: the signalling pair with the code in the discards' ranks (a rank's
//!   number modulo 4 names a suit), the use unchanged.
//! - [`Cheat::TimingTell`]: the signalling pair with the code in the time a discard takes (a
//!   quarter of the honest think-time range per suit); its discards' cards are L2's but for the
//!   receiver's pull toward the signalled suit.
//!
//! Nothing here is reachable from the server: these bots exist for the detectors' harness.

mod peek;
mod record;
mod signal;

pub use record::{Player, THINK_MIN_MS, THINK_SPAN_MS, play_recorded_hand};
pub use signal::{decode_signal, longest_suit, signal_for};

use burraco_protocol::record::RecordedInput;
use burraco_rules::{Action, Game, SeatKnowledge};
use rand_core::Rng;

use crate::strategy::Decision;
use crate::strategy::expert::{expert_choice, expert_discards};

/// How a cheater cheats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cheat {
    SeesPartner,
    SeesNextOpponent,
    Signals,
    DeniesPile,
    MeldsForPartner,
    RankSignals,
    TimingTell,
}

impl Cheat {
    pub const ALL: [Cheat; 7] = [
        Cheat::SeesPartner,
        Cheat::SeesNextOpponent,
        Cheat::Signals,
        Cheat::DeniesPile,
        Cheat::MeldsForPartner,
        Cheat::RankSignals,
        Cheat::TimingTell,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Cheat::SeesPartner => "sees-partner",
            Cheat::SeesNextOpponent => "sees-next-opponent",
            Cheat::Signals => "signals",
            Cheat::DeniesPile => "denies-pile",
            Cheat::MeldsForPartner => "melds-for-partner",
            Cheat::RankSignals => "rank-signals",
            Cheat::TimingTell => "timing-tell",
        }
    }

    pub fn from_code(code: &str) -> Option<Cheat> {
        Cheat::ALL.into_iter().find(|c| c.code() == code)
    }

    /// Whether both partners cheat: a code needs a sender and a receiver.
    pub fn is_pair(self) -> bool {
        matches!(
            self,
            Cheat::Signals | Cheat::RankSignals | Cheat::TimingTell
        )
    }
}

/// What a cheater is handed besides its seat's decision: the real game (the hidden cards a
/// peeking cheat looks at) and the hand's inputs so far with their times (what everybody at the
/// table saw, and when: a timing code's channel).
#[derive(Debug, Clone, Copy)]
pub struct Table<'a> {
    pub truth: &'a Game,
    pub inputs: &'a [RecordedInput],
}

/// L2 plus one cheat.
#[derive(Debug, Clone)]
pub struct Cheater {
    cheat: Cheat,
}

impl Cheater {
    pub fn new(cheat: Cheat) -> Cheater {
        Cheater { cheat }
    }

    pub fn cheat(&self) -> Cheat {
        self.cheat
    }

    /// L2's decision, changed by the cheat.
    pub fn choose(&mut self, decision: &Decision<'_>, table: &Table<'_>) -> Action {
        let know = decision.knowledge;
        let honest = expert_choice(decision.world, decision.legal, Some(know));
        match self.cheat {
            Cheat::DeniesPile => {
                return peek::deny_pile(know, decision.legal, table.truth).unwrap_or(honest);
            }
            Cheat::MeldsForPartner => {
                return peek::meld_for_partner(know, decision.legal, table.truth, &honest)
                    .unwrap_or(honest);
            }
            _ => {}
        }
        if !matches!(honest, Action::Discard { .. }) {
            return honest;
        }
        let ranked = expert_discards(decision.world, decision.legal, Some(know));
        if ranked.len() < 2 {
            return honest;
        }
        let seat = know.seat();
        let chosen = match self.cheat {
            Cheat::SeesPartner => peek::feed(ranked, table.truth.hand(seat.partner())),
            Cheat::SeesNextOpponent => {
                peek::starve(ranked, table.truth.hand(know.players().next(seat)))
            }
            Cheat::Signals => signal::card_code_discard(know, ranked, signal::CardCode::Suit),
            Cheat::RankSignals => signal::card_code_discard(know, ranked, signal::CardCode::Rank),
            Cheat::TimingTell => signal::timing_discard(know, ranked, table.inputs),
            Cheat::DeniesPile | Cheat::MeldsForPartner => None,
        };
        chosen.unwrap_or(honest)
    }

    /// How long the cheater takes over `action` (milliseconds): an honest player's time, but for
    /// the timing code's discards.
    pub fn think_ms(&self, know: &SeatKnowledge, action: &Action, rng: &mut impl Rng) -> u64 {
        match (self.cheat, action) {
            (Cheat::TimingTell, Action::Discard { .. }) => signal::timing_think_ms(know, rng),
            _ => record::honest_think_ms(rng),
        }
    }
}

#[cfg(test)]
mod tests;
