//! An honest style outside the ladder, for the fair-play detectors' population: L2 whose
//! discards have a temperature. It plays L2's takes and melds, and discards by a softmax over L2's
//! discard scores, so it throws L2's choice most often and a near-equal card often, and sometimes
//! a card L2 would keep: a player who errs, without any hidden information.

use burraco_rules::Action;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use crate::strategy::expert::{expert_choice, expert_discards};
use crate::strategy::{Decision, Strategy};

/// L2 with a discard temperature.
#[derive(Debug)]
pub struct Tempered {
    rng: ChaCha8Rng,
    /// In L2's discard-score points: a discard scored this much worse than the best is chosen
    /// e (2.72) times less often.
    temperature: f64,
}

impl Tempered {
    pub fn new(seed: u64, temperature: f64) -> Tempered {
        Tempered {
            rng: ChaCha8Rng::seed_from_u64(seed),
            temperature: temperature.max(1e-3),
        }
    }
}

impl Strategy for Tempered {
    fn name(&self) -> &str {
        "tempered"
    }

    fn choose(&mut self, decision: &Decision<'_>) -> Action {
        let know = Some(decision.knowledge);
        let honest = expert_choice(decision.world, decision.legal, know);
        if !matches!(honest, Action::Discard { .. }) {
            return honest;
        }
        let ranked = expert_discards(decision.world, decision.legal, know);
        let Some(best) = ranked.iter().map(|(s, _)| *s).min() else {
            return honest;
        };
        let weights: Vec<f64> = ranked
            .iter()
            .map(|(s, _)| (-f64::from(s - best) / self.temperature).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        // A uniform draw in [0, total) from 53 random bits.
        let mut x = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for ((_, action), w) in ranked.iter().zip(&weights) {
            if x < *w {
                return action.clone();
            }
            x -= w;
        }
        honest
    }
}

#[cfg(test)]
mod tests {
    use burraco_rules::{Config, Game, Preset, Seat, SeatKnowledge, Seed};

    use super::*;

    /// The first discard of a hand: a cold player throws L2's card (or one scored the same), a hot
    /// one throws others too.
    #[test]
    fn the_temperature_spreads_the_discards_around_l2s() {
        let config = Config::of(Preset::Fitab);
        let (mut game, events) = Game::new(
            config,
            Seat::South,
            burraco_rules::DealSource::Seed(Seed([7; 32])),
        )
        .unwrap();
        let seat = game.on_turn();
        let mut know = SeatKnowledge::new(config, seat);
        events.iter().for_each(|e| know.observe(e));
        let drawn = game.act(seat, &Action::Draw).unwrap();
        drawn.iter().for_each(|e| know.observe(e));
        let legal: Vec<Action> = game
            .legal_actions()
            .into_iter()
            .filter(|a| matches!(a, Action::Discard { .. }))
            .collect();
        let decision = Decision {
            knowledge: &know,
            legal: &legal,
            world: &game,
        };
        let l2 = expert_choice(&game, &legal, Some(&know));
        let distinct = |temperature: f64| {
            let mut t = Tempered::new(1, temperature);
            let mut seen: Vec<Action> = (0..200).map(|_| t.choose(&decision)).collect();
            assert!(seen.iter().all(|a| legal.contains(a)));
            seen.sort_by_key(|a| format!("{a:?}"));
            seen.dedup();
            seen
        };
        // Cold: only L2's best score (ties between equal cards are the only choice left).
        let ranked = expert_discards(&game, &legal, Some(&know));
        let best: Vec<&Action> = ranked
            .iter()
            .filter(|(s, _)| *s == ranked[0].0)
            .map(|(_, a)| a)
            .collect();
        let cold = distinct(0.01);
        assert!(cold.contains(&l2) && cold.iter().all(|a| best.contains(&a)));
        assert!(distinct(40.0).len() >= 3);
    }
}
