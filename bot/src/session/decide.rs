//! Deciding a move: here and now ([`Session::poll_action`]), or elsewhere (a blocking pool) with
//! the seat's bot taken out of the session until the decision comes back ([`Session::think`],
//! [`Session::decided`]).

use burraco_protocol::wire::ClientMessage;

use super::refusals::{REFUSALS_BEFORE_FALLBACK, REFUSALS_BEFORE_GIVING_UP};
use super::{Pending, Session, Stage};
use crate::seat::SeatBot;
use burraco_rules::Action;

/// A decision to make off the session (on a blocking pool): the seat's bot, taken out of the
/// session by [`Session::think`] until [`Session::decided`] puts it back. Meanwhile the session
/// must not be fed messages (hold them until then).
#[derive(Debug)]
pub struct Thinking {
    bot: SeatBot,
    refused: Vec<Action>,
    use_strategy: bool,
}

impl Thinking {
    /// Decides: the strategy's action (or, when it has none left or keeps being refused, a random
    /// legal one not refused yet).
    pub fn run(mut self) -> Thought {
        let action = if self.use_strategy {
            self.bot
                .decide(&self.refused)
                .or_else(|| self.bot.fallback(&self.refused))
        } else {
            self.bot.fallback(&self.refused)
        };
        Thought {
            bot: self.bot,
            action,
        }
    }
}

/// A decision made: the bot to give back to its session, and its action (`None`: everything
/// was refused).
#[derive(Debug)]
pub struct Thought {
    bot: SeatBot,
    action: Option<Action>,
}

impl Session {
    /// Whether [`Session::think`] would give a decision to make: the seat is on turn, its turn was
    /// announced, nothing is in flight, and it has not given up on this turn.
    pub fn ready_to_act(&self) -> bool {
        self.pending.is_none()
            && self.sync_id.is_none()
            && self.stage == Stage::Seated
            && self.table.is_some()
            && self.turn_seen
            && self.refusals < REFUSALS_BEFORE_GIVING_UP
            && self.on_turn()
    }

    /// The next action to send, when the seat is on turn and nothing is in flight, decided here
    /// and now.
    pub fn poll_action(&mut self) -> Option<ClientMessage> {
        let thinking = self.think()?;
        self.decided(thinking.run())
    }

    /// The decision to make, when [`Session::ready_to_act`]: the seat's bot goes with it until
    /// [`Session::decided`] (or [`Session::decision_lost`]).
    pub fn think(&mut self) -> Option<Thinking> {
        if !self.ready_to_act() {
            return None;
        }
        Some(Thinking {
            bot: self.bot.take()?,
            refused: self.refused.clone(),
            use_strategy: self.refusals < REFUSALS_BEFORE_FALLBACK,
        })
    }

    /// Takes the bot back from a decision and gives the action's message to send; `None` when
    /// every action was refused (the session then waits: [`Session::is_stuck`]).
    pub fn decided(&mut self, thought: Thought) -> Option<ClientMessage> {
        self.bot = Some(thought.bot);
        let Some(action) = thought.action else {
            self.refusals = REFUSALS_BEFORE_GIVING_UP;
            return None;
        };
        let table = self.table.clone()?;
        let id = self.id();
        self.stats.actions += 1;
        let message = ClientMessage::action(&action, id, &table);
        self.pending = Some(Pending {
            id,
            action,
            replied: false,
            effect_seen: false,
        });
        Some(message)
    }

    /// A decision that never came back (its strategy panicked): the seat's knowledge went with
    /// it, and a snapshot rebuilds it.
    pub fn decision_lost(&mut self, out: &mut Vec<ClientMessage>) {
        self.refusals += 1;
        self.sync(out);
    }

    /// The request id and kind of the action in flight, if any.
    pub fn pending_action(&self) -> Option<(u64, &'static str)> {
        self.pending.as_ref().map(|p| (p.id, p.action.code()))
    }
}
