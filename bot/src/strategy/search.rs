//! L3: determinized Monte Carlo search ("perfect information Monte Carlo").
//!
//! For each decision the seat samples `worlds` full games consistent with what it knows
//! ([`SeatKnowledge::determinize`]), plays every candidate action in each of them, rolls the hand
//! forward with a fast greedy policy for all four seats (to the end, or for `horizon` turns), and
//! keeps the candidate with the best mean score margin. All candidates share each world (common
//! random numbers), which keeps the comparison fair with few samples. Candidates are the take
//! choices, or in the play phase L2's choice, its three safest discards and the biggest meld.
//! Melds L2 wants to lay are laid without searching: the search spends its budget on the two
//! decisions that shape a hand, what to take and what to give the next player.

use std::time::{Duration, Instant};

use burraco_rules::{Action, Card, Game, Phase};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use super::eval::{
    action_key, attaches, best_meld, estimate_margin, least_useful_discard, own_melds,
};
use super::expert::{expert_choice, expert_discards};
use super::{Decision, Strategy};

/// How much a search decision may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchBudget {
    /// Sampled worlds per decision (the iteration budget: deterministic).
    pub worlds: u32,
    /// Stop sampling after this long (at least one world is always played). `None`: no limit.
    pub max_time: Option<Duration>,
    /// Turns to roll out before estimating the score; 0 plays the hand to its end.
    pub horizon: u32,
}

impl Default for SearchBudget {
    fn default() -> Self {
        SearchBudget {
            worlds: 16,
            max_time: None,
            horizon: 12,
        }
    }
}

/// The search player.
#[derive(Debug)]
pub struct Search {
    rng: ChaCha8Rng,
    budget: SearchBudget,
}

impl Search {
    pub fn new(seed: u64, budget: SearchBudget) -> Search {
        Search {
            rng: ChaCha8Rng::seed_from_u64(seed),
            budget,
        }
    }
}

impl Strategy for Search {
    fn name(&self) -> &str {
        "search"
    }

    fn choose(&mut self, decision: &Decision<'_>) -> Action {
        let world = decision.world;
        let legal = decision.legal;
        let expert = expert_choice(world, legal, Some(decision.knowledge));
        let candidates: Vec<Action> = match world.phase() {
            Phase::Take => legal.to_vec(),
            _ => {
                if matches!(expert, Action::Open { .. } | Action::Attach { .. }) {
                    return expert;
                }
                let mut c = vec![expert.clone()];
                for (_, a) in expert_discards(world, legal, Some(decision.knowledge))
                    .into_iter()
                    .take(3)
                {
                    c.push(a);
                }
                if let Some(m) = best_meld(world) {
                    c.push(m);
                }
                c.sort_by_key(action_key);
                c.dedup();
                c
            }
        };
        if candidates.len() <= 1 {
            return expert;
        }
        let me = decision.knowledge.seat();
        let side = decision.knowledge.side();
        let mut sums = vec![0i64; candidates.len()];
        let start = Instant::now();
        for w in 0..self.budget.worlds.max(1) {
            if w > 0 && self.budget.max_time.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
            let sample = decision
                .knowledge
                .determinize(&mut self.rng)
                .unwrap_or_else(|_| world.clone());
            for (i, c) in candidates.iter().enumerate() {
                let mut g = sample.clone();
                if g.act(me, c).is_err() {
                    sums[i] = i64::MIN / 4;
                    continue;
                }
                rollout(&mut g, self.budget.horizon);
                sums[i] += i64::from(estimate_margin(&g, side));
            }
        }
        // Ties go to L2's choice, then to the action order.
        let best = candidates
            .iter()
            .enumerate()
            .max_by(|(i, a), (j, b)| {
                sums[*i]
                    .cmp(&sums[*j])
                    .then_with(|| (*a == &expert).cmp(&(*b == &expert)))
                    .then_with(|| action_key(b).cmp(&action_key(a)))
            })
            .map(|(_, a)| a.clone());
        best.unwrap_or(expert)
    }
}

/// Plays `game` forward with the fast rollout policy for every seat: `horizon` turns, or to the
/// end of the hand when `horizon` is 0.
pub fn rollout(game: &mut Game, horizon: u32) {
    let start = game.turns_played();
    for _ in 0..2000 {
        if game.is_over() || (horizon > 0 && game.turns_played() >= start + horizon) {
            return;
        }
        let seat = game.on_turn();
        let action = match game.phase() {
            Phase::Take => fast_take(game),
            _ => best_meld(game).unwrap_or_else(|| {
                least_useful_discard(game, &game.legal_discard_actions())
                    .unwrap_or(Action::Discard { card: Card::JOKER })
            }),
        };
        if game.act(seat, &action).is_err() {
            let Some(any) = game.legal_actions().into_iter().next() else {
                return;
            };
            if game.act(seat, &any).is_err() {
                return;
            }
        }
    }
}

/// Pick up a pile of three or more, or a top card that fits the hand or the side's melds.
fn fast_take(game: &Game) -> Action {
    let takes = game.legal_takes();
    if !takes.contains(&Action::PickUp) {
        return takes.into_iter().next().unwrap_or(Action::Draw);
    }
    if !takes.contains(&Action::Draw) {
        return Action::PickUp;
    }
    let pile = game.pile();
    let Some(&top) = pile.last() else {
        return Action::Draw;
    };
    let hand = game.hand(game.on_turn());
    let fits = top.is_wild()
        || own_melds(game).any(|m| attaches(m, top))
        || hand.cards().filter(|c| c.rank() == top.rank()).count() >= 2
        || hand.cards().any(|c| {
            c.suit() == top.suit()
                && c.rank().zip(top.rank()).is_some_and(|(a, b)| {
                    (i32::from(a.number()) - i32::from(b.number())).abs() == 1
                })
        });
    if pile.len() >= 3 || fits {
        Action::PickUp
    } else {
        Action::Draw
    }
}
