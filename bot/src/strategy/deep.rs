//! L4: determinized search that spends its budget.
//!
//! L3 ([`super::Search`]) answers in about a millisecond: 16 worlds, greedy rollouts cut at 12
//! turns, a handful of candidates, and L2's melds laid without a search. L4 searches every
//! decision that has a choice, over many more worlds, with stronger and longer rollouts:
//!
//! - **Candidates**: every take; in the play phase L2's choice, the biggest meld, and every
//!   legal discard (discarding now is also the alternative of holding the melds L2 would lay).
//! - **Worlds**: full games sampled consistently with what the seat knows
//!   ([`SeatKnowledge::determinize`](burraco_rules::SeatKnowledge::determinize)), each shared by
//!   every candidate still in the race (common random numbers: a difference in the means is the
//!   candidates', not the worlds').
//! - **Rollouts**: L2's own policy for all four seats, to the end of the hand (or a horizon);
//!   a finished hand is scored exactly.
//! - **Successive halving**: the budget is split into rounds; after each round the worse half of
//!   the candidates drops out, so most rollouts go to the few moves worth telling apart.
//!
//! The budget is a number of rollouts (deterministic: the tests and the arena use it) and a time
//! limit (the runtimes': 1 s by default). The search stops at [`ANSWER_SHARE`] of the time limit,
//! checking the clock between worlds, so it answers with a margin before the limit.

use std::time::{Duration, Instant};

use burraco_rules::{Action, Game, Phase};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use super::eval::{action_key, best_meld, estimate_margin};
use super::expert::expert_choice;
use super::search::rollout as fast_rollout;
use super::{Decision, Strategy};

/// The share of the time limit the search may spend; the rest is the margin for the last world
/// in flight, the runtime and a loaded machine.
pub const ANSWER_SHARE: f64 = 0.8;

/// How much an L4 decision may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeepBudget {
    /// Rollouts per decision at most, over all candidates (the iteration budget).
    pub rollouts: u32,
    /// The decision's time limit; the search stops at [`ANSWER_SHARE`] of it. `None`: the
    /// rollouts alone bound it (deterministic).
    pub time: Option<Duration>,
    /// Turns to roll out before estimating the score; 0 plays the hand to its end.
    pub horizon: u32,
    /// Roll out with L2's policy (stronger, slower) or L3's fast greedy one.
    pub expert_rollouts: bool,
}

impl DeepBudget {
    /// The default time limit of a decision.
    pub const DEFAULT_TIME: Duration = Duration::from_secs(1);
}

impl Default for DeepBudget {
    /// One second a decision, as many rollouts as fit.
    fn default() -> Self {
        DeepBudget {
            rollouts: u32::MAX,
            time: Some(DeepBudget::DEFAULT_TIME),
            horizon: 0,
            expert_rollouts: true,
        }
    }
}

/// The L4 player.
#[derive(Debug)]
pub struct Deep {
    rng: ChaCha8Rng,
    budget: DeepBudget,
}

impl Deep {
    pub fn new(seed: u64, budget: DeepBudget) -> Deep {
        Deep {
            rng: ChaCha8Rng::seed_from_u64(seed),
            budget,
        }
    }
}

impl Strategy for Deep {
    fn name(&self) -> &str {
        "deep"
    }

    fn choose(&mut self, decision: &Decision<'_>) -> Action {
        let started = Instant::now();
        let world = decision.world;
        let legal = decision.legal;
        let expert = expert_choice(world, legal, Some(decision.knowledge));
        let candidates = candidates(world, legal, &expert);
        if candidates.len() <= 1 {
            return expert;
        }
        let deadline = self.budget.time.map(|t| started + t.mul_f64(ANSWER_SHARE));
        let me = decision.knowledge.seat();
        let side = decision.knowledge.side();
        let n = candidates.len();
        let Some(expert_at) = candidates.iter().position(|c| c == &expert) else {
            return expert;
        };
        // Per candidate, its value in each world it played; every candidate alive played the
        // same worlds, so differences are paired.
        let mut values: Vec<Vec<i64>> = vec![Vec::new(); n];
        let mut alive: Vec<usize> = (0..n).collect();
        let rounds = ceil_log2(n).max(1);
        let mut spent: u64 = 0;
        let total = u64::from(self.budget.rollouts.max(1));
        'rounds: for round in 0..rounds {
            let rounds_left = u64::from(rounds - round);
            let share = total.saturating_sub(spent) / rounds_left;
            let worlds = (share / alive.len() as u64).max(1);
            // Each round may use its share of the time left, so the halving still happens when
            // time, not rollouts, is what runs out.
            let round_deadline = deadline.map(|d| {
                let now = Instant::now();
                now + d.saturating_duration_since(now).div_f64(rounds_left as f64)
            });
            for w in 0..worlds {
                if w > 0 && round_deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                if (round > 0 || w > 0) && deadline.is_some_and(|d| Instant::now() >= d) {
                    break 'rounds;
                }
                let sample = decision
                    .knowledge
                    .determinize(&mut self.rng)
                    .unwrap_or_else(|_| world.clone());
                for &i in &alive {
                    let v = self.value(&sample, me, &candidates[i], side);
                    values[i].push(v);
                    spent += 1;
                }
            }
            if round + 1 < rounds {
                rank(&mut alive, &values, &candidates, &expert);
                alive.truncate(alive.len().div_ceil(2));
                // L2's choice stays in the race: it is what a deviation must beat.
                if !alive.contains(&expert_at) {
                    alive.push(expert_at);
                }
            }
        }
        rank(&mut alive, &values, &candidates, &expert);
        let best = alive.first().copied().unwrap_or(expert_at);
        if best != expert_at && beats(&values[best], &values[expert_at]) {
            candidates[best].clone()
        } else {
            expert
        }
    }
}

/// Whether `a` beats `b` (their values on the same worlds) by more than the noise: the mean
/// paired difference exceeds [`DEVIATION_Z`] standard errors. Picking the best of many noisy
/// means favours the luckiest; L2's choice is a strong prior, left only on evidence.
fn beats(a: &[i64], b: &[i64]) -> bool {
    let n = a.len().min(b.len());
    if n < 2 {
        return false;
    }
    let diffs: Vec<f64> = a.iter().zip(b).map(|(x, y)| (x - y) as f64).collect();
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    mean > DEVIATION_Z * (var / n as f64).sqrt()
}

/// How many standard errors a candidate must beat L2's choice by.
pub const DEVIATION_Z: f64 = 1.0;

impl Deep {
    /// `side`'s margin after `me` plays `action` on `sample` and the hand is rolled out.
    fn value(
        &self,
        sample: &Game,
        me: burraco_rules::Seat,
        action: &Action,
        side: burraco_rules::Side,
    ) -> i64 {
        let mut g = sample.clone();
        if g.act(me, action).is_err() {
            // Not playable in this world (it cannot happen for a legal action: every world
            // shares the seat's own hand and the table), so never preferred.
            return i64::from(i32::MIN / 4);
        }
        if self.budget.expert_rollouts {
            expert_rollout(&mut g, self.budget.horizon);
        } else {
            fast_rollout(&mut g, self.budget.horizon);
        }
        i64::from(estimate_margin(&g, side))
    }
}

/// The moves worth searching: every take; in the play phase L2's choice, the biggest meld and
/// every discard. Sorted and without repeats, so the order (and the result) is deterministic.
fn candidates(world: &Game, legal: &[Action], expert: &Action) -> Vec<Action> {
    let mut c: Vec<Action> = match world.phase() {
        Phase::Take => legal.to_vec(),
        _ => {
            let mut c = vec![expert.clone()];
            c.extend(
                legal
                    .iter()
                    .filter(|a| matches!(a, Action::Discard { .. }))
                    .cloned(),
            );
            if let Some(m) = best_meld(world).filter(|m| legal.contains(m)) {
                c.push(m);
            }
            c
        }
    };
    c.sort_by_key(action_key);
    c.dedup();
    c
}

/// Best first: the highest sum (every candidate in `alive` played the same worlds), ties to L2's
/// choice, then to the action order.
fn rank(alive: &mut [usize], values: &[Vec<i64>], candidates: &[Action], expert: &Action) {
    let sum = |i: usize| values[i].iter().sum::<i64>();
    alive.sort_by(|&i, &j| {
        sum(j)
            .cmp(&sum(i))
            .then_with(|| (&candidates[j] == expert).cmp(&(&candidates[i] == expert)))
            .then_with(|| action_key(&candidates[i]).cmp(&action_key(&candidates[j])))
    });
}

fn ceil_log2(n: usize) -> u32 {
    usize::BITS - n.saturating_sub(1).leading_zeros()
}

/// Plays `game` forward with L2's policy for every seat: `horizon` turns, or to the end of the
/// hand when `horizon` is 0.
pub fn expert_rollout(game: &mut Game, horizon: u32) {
    let start = game.turns_played();
    for _ in 0..2000 {
        if game.is_over() || (horizon > 0 && game.turns_played() >= start + horizon) {
            return;
        }
        let seat = game.on_turn();
        let legal = game.legal_actions();
        let Some(first) = legal.first() else {
            return;
        };
        let action = expert_choice(game, &legal, None);
        if game.act(seat, &action).is_err() && game.act(seat, &first.clone()).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use burraco_rules::{Config, DealSource, Preset, Seat, SeatKnowledge, Seed};

    use super::*;

    fn budget(rollouts: u32) -> DeepBudget {
        DeepBudget {
            rollouts,
            time: None,
            horizon: 0,
            expert_rollouts: true,
        }
    }

    /// Plays a hand with L4 at every seat on a small rollout budget, checking each choice is
    /// legal; returns the actions played.
    fn play(seed: u8, rollouts: u32, strategy_seed: u64) -> Vec<Action> {
        let config = Config::of(Preset::Fitab);
        let dealer = config.players().seats()[0];
        let (mut game, events) =
            Game::new(config, dealer, DealSource::Seed(Seed([seed; 32]))).expect("a seeded deal");
        let mut know: Vec<SeatKnowledge> = Seat::ALL
            .iter()
            .map(|&s| SeatKnowledge::new(config, s))
            .collect();
        for k in &mut know {
            events.iter().for_each(|e| k.observe(e));
        }
        let mut players: Vec<Deep> = (0..4)
            .map(|i| Deep::new(strategy_seed + i, budget(rollouts)))
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut played = Vec::new();
        for _ in 0..3000 {
            if game.is_over() {
                return played;
            }
            let seat = game.on_turn();
            let legal = game.legal_actions();
            let k = &know[seat.index()];
            let world = k.determinize(&mut rng).expect("a world");
            let action = players[seat.index()].choose(&Decision {
                knowledge: k,
                legal: &legal,
                world: &world,
            });
            assert!(legal.contains(&action), "{action:?} is not legal");
            let events = game.act(seat, &action).expect("a legal action is accepted");
            for k in &mut know {
                events.iter().for_each(|e| k.observe(e));
            }
            played.push(action);
        }
        panic!("the hand did not end");
    }

    #[test]
    fn plays_a_whole_hand_legally() {
        let played = play(3, 24, 1);
        assert!(played.iter().any(|a| matches!(a, Action::Discard { .. })));
    }

    /// With no time limit the rollouts alone bound a decision: the same seeds play the same hand.
    #[test]
    fn an_iteration_budget_is_deterministic() {
        assert_eq!(play(5, 16, 9), play(5, 16, 9));
    }

    /// Every discard is a candidate in the play phase, and both takes in the take phase.
    #[test]
    fn candidates_cover_every_take_and_discard() {
        let config = Config::of(Preset::Fitab);
        let dealer = config.players().seats()[0];
        let (mut game, _) = Game::new(config, dealer, DealSource::Seed(Seed([4; 32]))).unwrap();
        let takes = game.legal_actions();
        let expert = expert_choice(&game, &takes, None);
        let c = candidates(&game, &takes, &expert);
        assert_eq!(c.len(), takes.len());
        let seat = game.on_turn();
        game.act(seat, &Action::Draw).unwrap();
        let legal = game.legal_actions();
        let expert = expert_choice(&game, &legal, None);
        let c = candidates(&game, &legal, &expert);
        let discards = legal
            .iter()
            .filter(|a| matches!(a, Action::Discard { .. }))
            .count();
        assert!(discards > 0);
        assert!(c.iter().all(|a| legal.contains(a)));
        assert!(c.contains(&expert));
        assert!(c.len() >= discards);
    }

    #[test]
    fn successive_halving_rounds() {
        assert_eq!(ceil_log2(1), 0);
        assert_eq!(ceil_log2(2), 1);
        assert_eq!(ceil_log2(3), 2);
        assert_eq!(ceil_log2(8), 3);
        assert_eq!(ceil_log2(9), 4);
    }
}
