//! The [`Strategy`] trait bot authors implement, and the reference strategies L0-L4.
//!
//! A strategy decides one action at a time for one seat. It sees a [`Decision`]: the seat's
//! [`SeatKnowledge`] (what RULES.md section 12 lets it see, folded from the events), the legal
//! actions, and `world`, a full game *sampled* consistently with that knowledge (the hidden cards
//! are a random guess, never the truth), on which it may simulate. The runtime (in-process arena
//! or network client) calls it whenever the seat is on turn, once per action: a take, any number
//! of melds and attachments, then a discard.

mod deep;
mod eval;
pub(crate) mod expert;
mod greedy;
mod random;
mod search;

pub use deep::{Deep, DeepBudget};
pub use eval::{estimate_margin, usefulness};
pub use expert::Expert;
pub use greedy::Greedy;
pub use random::RandomLegal;
pub use search::{Search, SearchBudget};

use burraco_rules::{Action, Game, SeatKnowledge};

/// What a strategy sees when it must act.
#[derive(Debug)]
pub struct Decision<'a> {
    /// Everything the seat knows.
    pub knowledge: &'a SeatKnowledge,
    /// The legal actions, never empty. Returning anything else is an error the runtime repairs by
    /// playing the first legal action.
    pub legal: &'a [Action],
    /// A game consistent with the knowledge; its hidden cards are a sample, not the real ones.
    pub world: &'a Game,
}

/// A bot's brain. Implementations must be deterministic given their own seed, so arena runs
/// can be repeated.
pub trait Strategy: Send {
    /// A short name for reports ("greedy", "search").
    fn name(&self) -> &str;

    /// Picks one of `decision.legal`.
    fn choose(&mut self, decision: &Decision<'_>) -> Action;
}

impl std::fmt::Debug for dyn Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Strategy({})", self.name())
    }
}

/// The reference strategies, by level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// L0: a uniformly random legal action.
    Random,
    /// L1: meld the most points, take the pile when it pays, discard the least useful card.
    Greedy,
    /// L2: L1 plus pozzetto and closing timing, wild economy and safe discards.
    Expert,
    /// L3: determinized Monte Carlo search over L2 rollouts.
    Search,
    /// L4: determinized search spending a time budget: many worlds, L2 rollouts to the end of
    /// the hand, every candidate, successive halving.
    Deep,
}

impl Level {
    pub const ALL: [Level; 5] = [
        Level::Random,
        Level::Greedy,
        Level::Expert,
        Level::Search,
        Level::Deep,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Greedy => "greedy",
            Level::Expert => "expert",
            Level::Search => "search",
            Level::Deep => "deep",
        }
    }

    pub fn from_code(code: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(code) || l.short() == code.to_ascii_uppercase())
    }

    /// "L0" ... "L4".
    pub fn short(self) -> String {
        format!("L{}", self as u8)
    }

    /// A fresh strategy of this level; `seed` fixes its randomness. L4 gets its default budget
    /// (1 s a decision).
    pub fn strategy(self, seed: u64, budget: SearchBudget) -> Box<dyn Strategy> {
        self.strategy_with(seed, budget, DeepBudget::default())
    }

    /// A fresh strategy of this level, L3 bounded by `search` and L4 by `deep`.
    pub fn strategy_with(
        self,
        seed: u64,
        search: SearchBudget,
        deep: DeepBudget,
    ) -> Box<dyn Strategy> {
        match self {
            Level::Random => Box::new(RandomLegal::new(seed)),
            Level::Greedy => Box::new(Greedy::new(seed)),
            Level::Expert => Box::new(Expert::new(seed)),
            Level::Search => Box::new(Search::new(seed, search)),
            Level::Deep => Box::new(Deep::new(seed, deep)),
        }
    }
}
