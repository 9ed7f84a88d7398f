//! A tournament's pause at its table (protocol 1.6): the director's pause stops every clock here.
//! The tournament tells the table (`Command::TournamentPause`, with the tournament's own time of
//! the pause); the table logs `TableEntry::Paused` / `Resumed` (so a restart stays paused and
//! counts the pause out of the round clock), holds every clock (the turn's move clock where it
//! stood, a new turn's from its start, the round clock, the next deal: due after the resume) and
//! tells every receiver that reads 1.6 (`table_paused`). On resume the round clock's deadline is
//! the tournament's reckoning: the match's start, plus the round time, plus the pauses since.
//!
//! Moves are still taken while paused (docs/PROTOCOL.md, `table_paused`): nobody loses time
//! during the interruption, nobody is timed out of a move, and a round in play still finishes,
//! which is what the 1.2 pause was for (the director holds the next round to look at the
//! standings, warn, forbid a pairing); a player who stops waits without cost.

use std::time::Duration;

use burraco_protocol::log::TableEntry;
use burraco_protocol::wire::ServerMessage;
use tokio::time::Instant;

use super::clocks::{MoveTimer, Stage};
use super::{Status, TableActor};
use crate::outbound::{Frame, Outbox};

/// The clocks a pause holds: what was left on each when it began.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct HeldClocks {
    /// The turn's move clock: its stage and what was left of that stage.
    move_clock: Option<(Stage, Duration)>,
    /// What was left before the next deal (between hands).
    next_hand: Option<Duration>,
}

impl HeldClocks {
    /// The turn's move clock as it will start when play goes on.
    pub(super) fn hold_move_clock(&mut self, clock: Option<(Stage, Duration)>) {
        self.move_clock = clock;
    }

    /// The next deal, due `wait` after play goes on.
    pub(super) fn hold_next_hand(&mut self, wait: Duration) {
        self.next_hand = Some(wait);
    }
}

impl TableActor {
    /// The tournament paused (`paused`) or resumed play at `at_ms`. Idempotent: a table already
    /// in that state (a repeated notice, a table restored paused) changes nothing.
    pub(super) async fn tournament_pause(&mut self, paused: bool, at_ms: i64) {
        if paused == self.state.paused()
            || self.state.closed
            || self.state.status == Status::Finished
        {
            return;
        }
        let entry = if paused {
            TableEntry::Paused { at_ms }
        } else {
            TableEntry::Resumed { at_ms }
        };
        if let Err(e) = self.append(&[entry]).await {
            tracing::error!("the tournament's pause not saved at its table: {e}");
            return;
        }
        let now = Instant::now();
        if paused {
            self.hold_clocks(now);
        } else {
            self.release_clocks(now);
        }
        let notice = self.pause_notice(now);
        for out in self.receivers() {
            if out.reads(&notice) {
                out.send_message(notice.clone());
            }
        }
    }

    /// Stops every clock where it stands.
    fn hold_clocks(&mut self, now: Instant) {
        // A clock already held (a restore's fresh move clock) stays as it was held.
        if let Some(t) = self.move_timer.take() {
            self.held.move_clock = Some((t.stage, t.deadline.saturating_duration_since(now)));
        }
        if let Some(t) = self.next_hand_at.take() {
            self.held.next_hand = Some(t.saturating_duration_since(now));
        }
        // The round clock is the log's: recomputed on resume.
        self.round_deadline = None;
    }

    /// Starts the clocks again: the move clock and the next deal from what they had left, the
    /// round clock from the log (unless it already ran out).
    fn release_clocks(&mut self, now: Instant) {
        let held = std::mem::take(&mut self.held);
        self.move_timer = held.move_clock.map(|(stage, left)| MoveTimer {
            stage,
            deadline: now + left,
        });
        // Every player said ready during the pause: the next hand at once.
        let all_ready = self.all_ready();
        self.next_hand_at = held
            .next_hand
            .map(|left| if all_ready { now } else { now + left });
        self.round_deadline = self.round_deadline_from_log(now);
    }

    /// The round clock's deadline as the log reckons it: the match's start, plus the round
    /// time, plus every pause since (the tournament's own reckoning); `None` without a round
    /// clock, before the match, or once TIME OUT was called.
    pub(super) fn round_deadline_from_log(&self, now: Instant) -> Option<Instant> {
        let total = self.round_clock_ms()?;
        let started = self.state.round_started_ms?;
        let matc = self.state.matc.as_ref()?;
        let timed_out = matc.is_timed_out()
            || self.pending_time_out
            || self
                .state
                .hand
                .as_ref()
                .is_some_and(|h| h.game().last_round().is_some());
        if timed_out || matc.is_over() {
            return None;
        }
        let now_ms = crate::ids::unix_ms();
        let counted = (now_ms - started - self.state.paused_between(started, now_ms)).max(0);
        Some(now + Duration::from_millis(total.saturating_sub(counted as u64)))
    }

    /// Milliseconds left on the round clock: running, or held by a pause.
    pub(super) fn round_clock_left_ms(&self, now: Instant) -> Option<u64> {
        let deadline = if self.state.paused() {
            self.round_deadline_from_log(now)
        } else {
            self.round_deadline
        };
        deadline.map(|d| d.saturating_duration_since(now).as_millis() as u64)
    }

    /// The clock left to the player on turn, grace included: running, or held by a pause.
    pub(super) fn move_clock_left_ms(&self, now: Instant) -> Option<u32> {
        let hand = self.state.hand.as_ref().filter(|h| !h.is_over())?;
        let grace = hand.game().move_clock().map_or(0, |c| c.grace_ms);
        let (stage, left) = match self.move_timer {
            Some(t) => (t.stage, t.deadline.saturating_duration_since(now)),
            None => self.held.move_clock?,
        };
        let left = left.as_millis() as u32;
        Some(match stage {
            Stage::Limit => left + grace,
            Stage::Grace => left,
        })
    }

    /// The table's pause state as its message.
    fn pause_notice(&self, now: Instant) -> ServerMessage {
        ServerMessage::TablePaused {
            table: self.id.to_string(),
            paused: self.state.paused(),
            round_clock_left_ms: self.round_clock_left_ms(now),
            move_clock_left_ms: self.move_clock_left_ms(now),
        }
    }

    /// What follows a snapshot or a `sync`'s catch-up while paused (for a receiver that reads
    /// it): the pause, which no snapshot field says.
    pub(super) fn pause_frame_for(&self, out: &Outbox) -> Option<std::sync::Arc<Frame>> {
        if !self.state.paused() {
            return None;
        }
        let notice = self.pause_notice(Instant::now());
        out.reads(&notice).then(|| Frame::new(notice))
    }

    /// Sends the pause after a snapshot, when paused.
    pub(super) fn send_pause_after_snapshot(&self, out: &Outbox) {
        if let Some(frame) = self.pause_frame_for(out) {
            out.send(frame);
        }
    }

    /// Everyone the table sends to: the seats' connections (and bots) and the spectators.
    fn receivers(&self) -> Vec<Outbox> {
        self.state
            .seats
            .iter()
            .flatten()
            .filter_map(|s| s.out.clone())
            .chain(self.spectators.iter().cloned())
            .collect()
    }

    /// A table restored paused: its clocks held as the pause left them (the turn's move clock
    /// afresh, as any restore gives it: downtime is nobody's).
    pub(super) fn hold_restored_clocks(&mut self, now: Instant) {
        if self.state.paused() {
            self.hold_clocks(now);
        }
    }
}
