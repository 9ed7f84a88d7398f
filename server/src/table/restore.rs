//! Rebuilding a table from its log after a restart (or, in a cluster, on another node): the
//! entries are folded ([`super::state`]), then the table is resumed.
//!
//! Downtime is nobody's: the turn in play gets its move clock afresh, every seated player the
//! disconnect grace again (but a tournament's table still waiting keeps its seats for its
//! players, as it did when created), and the hand's time (`at_ms`) goes on from its last input; only the
//! round clock and an arena table's start deadline are wall time (a deadline passed meanwhile
//! is moved to the disconnect grace).

use std::sync::Arc;

use burraco_rules::Seat;
use tokio::time::Instant;

use super::hand_log::HandLog;
use super::state::fold;
use super::{SEQ_RESTART_GAP, Status, TableActor, spawn};
use crate::Shared;
use crate::log::Entry;

pub use super::state::RestoreError;

/// Rebuilds table `id` from its log entries and starts its actor.
pub fn restore(shared: &Arc<Shared>, id: String, log: Vec<Entry>) -> Result<(), RestoreError> {
    let log_len = log.len() as u64;
    let now = Instant::now();
    let (state, logged_seq) = fold(log, now)?;
    let (mut actor, handle) = TableActor::new(shared.clone(), id.into(), state);
    actor.log_len = log_len;
    actor.seq = logged_seq + SEQ_RESTART_GAP;
    actor.register_seats_and_invite();
    if actor.state.players_get_grace_on_resume() {
        let grace = now + shared.config.disconnect_grace;
        for slot in actor.state.seats.iter_mut().flatten() {
            if slot.bot.is_none() {
                slot.grace_until = Some(grace);
            }
        }
    }
    resume_clocks(&mut actor, now);
    actor.arm_start_deadline(Some(now));
    actor.look_for_turn();
    actor.start_seated_bots();
    actor.refresh_info();
    spawn(actor, handle);
    Ok(())
}

/// The clocks of a match in play: the round clock's deadline from the match's start, the turn's
/// move clock afresh, or the next deal at once between hands.
fn resume_clocks(actor: &mut TableActor, now: Instant) {
    let Some(matc) = &actor.state.matc else {
        return;
    };
    // A TIME OUT announced in the hand in play reaches the match at the hand's end.
    let timed_out = matc.is_timed_out()
        || actor
            .state
            .hand
            .as_ref()
            .is_some_and(|h| h.game().last_round().is_some());
    if !timed_out {
        // From the match's start, its tournament's pauses not counted.
        actor.round_deadline = actor.round_deadline_from_log(now);
    }
    match actor.state.hand.as_ref().map(HandLog::game) {
        Some(game) if !game.is_over() => {
            let clock = game.move_clock();
            actor.set_turn_timer(clock);
        }
        _ if actor.state.status == Status::Finished => {}
        _ => actor.next_hand_at = Some(now),
    }
    // Restored paused: every clock held until its tournament resumes.
    actor.hold_restored_clocks(now);
}

impl TableActor {
    /// Tells the directory who sits here (players, not bots) and the table's invite code.
    pub(super) fn register_seats_and_invite(&self) {
        for (index, slot) in self.state.seats.iter().enumerate() {
            if let Some(slot) = slot
                && slot.bot.is_none()
            {
                self.shared
                    .directory
                    .seat_player(&slot.player, &self.id, Seat::ALL[index]);
            }
        }
        if let Some(code) = &self.state.invite {
            self.shared.directory.register_invite(code, &self.id);
        }
    }

    /// Starts the server bots of the seats the log gives to bots.
    pub(super) fn start_seated_bots(&mut self) {
        for seat in Seat::ALL {
            if self.state.seats[seat.index()]
                .as_ref()
                .is_some_and(|s| s.bot.is_some())
            {
                self.start_bot(seat);
            }
        }
    }
}
