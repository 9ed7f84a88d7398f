//! A hand record replayed one move at a time, with every seat's knowledge beside the real game.

use burraco_protocol::record::{HandRecord, ReplayError};
use burraco_rules::{Action, Game, Input, Seat, SeatKnowledge};

/// The table just before a seat's move: the real game (every hidden card), what each seat knew
/// (indexed by [`Seat::index`]), and the move.
#[derive(Debug)]
pub struct Moment<'a> {
    pub truth: &'a Game,
    pub know: &'a [SeatKnowledge],
    pub seat: Seat,
    pub action: &'a Action,
}

impl Moment<'_> {
    /// What the seat making the move knew.
    pub fn mover(&self) -> &SeatKnowledge {
        &self.know[self.seat.index()]
    }
}

/// Replays `record` (checked as [`HandRecord::replay`] checks it) and calls `visit` before each
/// seat's move. Clock inputs move the hand without being anybody's choice: they are applied, not
/// visited.
pub fn walk(record: &HandRecord, mut visit: impl FnMut(&Moment<'_>)) -> Result<(), ReplayError> {
    record.replay()?;
    let config = record.config()?;
    let source = record.deal_source()?;
    let (mut game, events) = Game::new(config, record.dealer, source)
        .map_err(|_| ReplayError::DealerNotSeated(record.dealer))?;
    let mut know: Vec<SeatKnowledge> = Seat::ALL
        .iter()
        .map(|&s| SeatKnowledge::new(config, s))
        .collect();
    let observe_all = |know: &mut Vec<SeatKnowledge>, events: &[burraco_rules::Event]| {
        for k in know.iter_mut() {
            events.iter().for_each(|e| k.observe(e));
        }
    };
    observe_all(&mut know, &events);
    for (action_index, recorded) in record.inputs.iter().enumerate() {
        let input = recorded.input.to_rules();
        if let Input::Act { seat, action } = &input {
            visit(&Moment {
                truth: &game,
                know: &know,
                seat: *seat,
                action,
            });
        }
        let events = game.apply(&input).map_err(|error| ReplayError::Refused {
            action_index,
            error,
        })?;
        observe_all(&mut know, &events);
    }
    Ok(())
}
