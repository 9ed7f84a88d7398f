//! L0: a uniformly random legal action.

use burraco_rules::Action;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use super::{Decision, Strategy};

/// Picks uniformly among the legal actions (so it melds often: most legal actions are melds).
#[derive(Debug)]
pub struct RandomLegal {
    rng: ChaCha8Rng,
}

impl RandomLegal {
    pub fn new(seed: u64) -> RandomLegal {
        RandomLegal {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Strategy for RandomLegal {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, decision: &Decision<'_>) -> Action {
        let n = decision.legal.len().max(1);
        let i = (self.rng.next_u64() % n as u64) as usize;
        decision.legal.get(i).cloned().unwrap_or(Action::Draw)
    }
}
