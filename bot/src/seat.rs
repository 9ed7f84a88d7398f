//! A strategy sitting at one seat: the seat's knowledge, kept up to date from the events it may
//! see, and the strategy deciding when the seat is on turn. The network client uses it, and so can
//! a server that plays empty or abandoned seats in-process.

use burraco_rules::{Action, Config, Event, Seat, SeatKnowledge};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::strategy::{Decision, Strategy};

/// One seat played by a [`Strategy`].
#[derive(Debug)]
pub struct SeatBot {
    knowledge: SeatKnowledge,
    strategy: Box<dyn Strategy>,
    rng: ChaCha8Rng,
}

impl SeatBot {
    pub fn new(config: Config, seat: Seat, strategy: Box<dyn Strategy>, seed: u64) -> SeatBot {
        SeatBot {
            knowledge: SeatKnowledge::new(config, seat),
            strategy,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Takes over a seat whose knowledge was rebuilt elsewhere (a snapshot).
    pub fn with_knowledge(
        knowledge: SeatKnowledge,
        strategy: Box<dyn Strategy>,
        seed: u64,
    ) -> SeatBot {
        SeatBot {
            knowledge,
            strategy,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    pub fn knowledge(&self) -> &SeatKnowledge {
        &self.knowledge
    }

    pub fn set_knowledge(&mut self, knowledge: SeatKnowledge) {
        self.knowledge = knowledge;
    }

    pub fn seat(&self) -> Seat {
        self.knowledge.seat()
    }

    /// Folds an event in; events private to other seats are ignored.
    pub fn observe(&mut self, event: &Event) {
        self.knowledge.observe(event);
    }

    /// Whether the seat must act now and can (it sees its own hand).
    pub fn must_act(&self) -> bool {
        self.knowledge.my_turn() && self.knowledge.hand().is_some()
    }

    /// The seat's next action, when it must act; `refused` lists actions the server refused for
    /// this very state (they are not offered again).
    pub fn decide(&mut self, refused: &[Action]) -> Option<Action> {
        if !self.must_act() {
            return None;
        }
        let world = self.knowledge.determinize(&mut self.rng).ok()?;
        let mut legal = world.legal_actions();
        legal.retain(|a| !refused.contains(a));
        if legal.is_empty() {
            return None;
        }
        let chosen = self.strategy.choose(&Decision {
            knowledge: &self.knowledge,
            legal: &legal,
            world: &world,
        });
        Some(if legal.contains(&chosen) {
            chosen
        } else {
            legal[0].clone()
        })
    }
}
