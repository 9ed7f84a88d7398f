//! L1: meld the most points, take the pile when it pays, discard the least useful card.

use burraco_rules::{Action, Game, Phase};

use super::eval::{best_meld, least_useful_discard, take_value};
use super::{Decision, Strategy};

/// The greedy player: every decision is the one that looks best right now.
#[derive(Debug)]
pub struct Greedy {
    _seed: u64,
}

impl Greedy {
    pub fn new(seed: u64) -> Greedy {
        Greedy { _seed: seed }
    }
}

/// L1's decision on a world, for the seat on turn (also used as a rollout policy).
pub(crate) fn greedy_choice(world: &Game, legal: &[Action]) -> Action {
    match world.phase() {
        Phase::Take => {
            if legal.contains(&Action::PickUp) {
                let pick = take_value(world, &Action::PickUp, 0);
                let draw = if legal.contains(&Action::Draw) {
                    take_value(world, &Action::Draw, 0)
                } else {
                    i32::MIN
                };
                if pick > draw || world.pile().len() >= 5 || !legal.contains(&Action::Draw) {
                    return Action::PickUp;
                }
            }
            legal.first().cloned().unwrap_or(Action::Draw)
        }
        _ => best_meld(world)
            .filter(|a| legal.contains(a))
            .or_else(|| least_useful_discard(world, legal))
            .unwrap_or_else(|| legal[0].clone()),
    }
}

impl Strategy for Greedy {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, decision: &Decision<'_>) -> Action {
        greedy_choice(decision.world, decision.legal)
    }
}
