//! A strategy sitting at one seat: the seat's knowledge, kept up to date from the events it may
//! see, and the strategy deciding when the seat is on turn. The network client uses it, and so can
//! a server that plays empty or abandoned seats in-process.

use burraco_protocol::convert::view_from_wire;
use burraco_protocol::wire::TableSnapshot;
use burraco_rules::{Action, Config, Event, Phase, Seat, SeatKnowledge, Viewer};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

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

    /// A legal action chosen without the strategy, for a runtime whose strategy's choices keep
    /// being refused: a uniformly random legal action not in `refused` (from a sampled world), or,
    /// when no world can be sampled, the plainest moves the seat can name from what it holds (a
    /// take, then each of its cards as a discard). `None` once everything was refused.
    pub fn fallback(&mut self, refused: &[Action]) -> Option<Action> {
        if !self.must_act() {
            return None;
        }
        if let Ok(world) = self.knowledge.determinize(&mut self.rng) {
            let mut legal = world.legal_actions();
            legal.retain(|a| !refused.contains(a));
            if !legal.is_empty() {
                let i = (self.rng.next_u64() % legal.len() as u64) as usize;
                return Some(legal.swap_remove(i));
            }
        }
        let plain: Vec<Action> = match self.knowledge.phase() {
            Phase::Take => vec![Action::Draw, Action::PickUp],
            Phase::Play => self
                .knowledge
                .hand()
                .map(|h| h.faces().map(|card| Action::Discard { card }).collect())
                .unwrap_or_default(),
            Phase::Over => Vec::new(),
        };
        plain.into_iter().find(|a| !refused.contains(a))
    }
}

/// The table's configuration and what `seat` knows, from a snapshot (a seat taken over, or a gap
/// in the events). The knowledge is `None` before the first deal and once the hand is over (the
/// next hand's events start it afresh); `None` altogether for a snapshot that does not read back.
pub fn knowledge_from_snapshot(
    snapshot: &TableSnapshot,
    seat: Seat,
) -> Option<(Config, Option<SeatKnowledge>)> {
    let (config, view) = view_from_wire(snapshot, Viewer::Seat(seat)).ok()?;
    let knowledge = view
        .filter(|v| v.phase != Phase::Over)
        .map(|v| SeatKnowledge::from_view(config, &v, None, None));
    Some((config, knowledge))
}

#[cfg(test)]
mod tests {
    use burraco_rules::{DealSource, Game, Preset, Seed};

    use super::*;
    use crate::strategy::RandomLegal;

    /// A runtime whose every action is refused (as a server might, with stale knowledge) gets
    /// each legal action at most once from `fallback`, then `None`: it can never loop.
    #[test]
    fn fallback_offers_legal_actions_once_each_then_gives_up() {
        let config = Config::of(Preset::Fitab);
        let first = config.players().seats()[0];
        let (mut game, events) = Game::new(config, first, DealSource::Seed(Seed([9; 32]))).unwrap();
        let seat = game.on_turn();
        let mut bot = SeatBot::new(config, seat, Box::new(RandomLegal::new(1)), 3);
        for e in &events {
            bot.observe(e);
        }
        // Into the play phase, where there are many actions.
        let draw = game.act(seat, &Action::Draw).unwrap();
        draw.iter().for_each(|e| bot.observe(e));
        let legal = game.legal_actions();
        let mut refused = Vec::new();
        while let Some(action) = bot.fallback(&refused) {
            assert!(legal.contains(&action), "{action:?} is legal");
            assert!(!refused.contains(&action), "{action:?} offered twice");
            refused.push(action);
            assert!(refused.len() <= legal.len() + 20);
        }
        assert!(!refused.is_empty());
    }
}
