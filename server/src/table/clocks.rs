//! The table's clocks, all deadlines of the actor's one timer: the per-move clock (limit, then
//! the announced grace, then `Input::ClockExpired`), the round clock (`Input::TimeOut`, and no new
//! hand after the current one), the pause before the next deal, each disconnected seat's grace
//! period, an arena table's start deadline (`arena_table.rs`), and how long a finished table
//! lingers.

use burraco_protocol::wire::{ServerMessage, WireSeat};
use burraco_rules::{Input, MoveClock, Seat};
use tokio::time::Instant;

use super::TableActor;
use super::play::Refused;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stage {
    Limit,
    Grace,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct MoveTimer {
    pub(super) stage: Stage,
    pub(super) deadline: Instant,
}

impl TableActor {
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        let seats = self
            .state
            .seats
            .iter()
            .flatten()
            .filter_map(|s| s.grace_until);
        [
            self.move_timer.map(|t| t.deadline),
            self.round_deadline,
            self.next_hand_at,
            self.linger_until,
            self.start_deadline,
        ]
        .into_iter()
        .flatten()
        .chain(seats)
        .min()
    }

    /// Runs whatever timers are due; true when the table should stop.
    pub(super) async fn on_timers(&mut self) -> bool {
        let now = Instant::now();
        if self.linger_until.is_some_and(|t| t <= now) {
            for slot in self.state.seats.iter().flatten() {
                self.shared.directory.forget_seat(&slot.player, &self.id);
            }
            self.shared
                .directory
                .forget_table(&self.id, self.state.invite.as_deref());
            return true;
        }
        for seat in Seat::ALL {
            let due = self.state.seats[seat.index()]
                .as_ref()
                .is_some_and(|s| s.grace_until.is_some_and(|t| t <= now));
            if due {
                self.grace_over(seat).await;
            }
        }
        if self.round_deadline.is_some_and(|t| t <= now) {
            self.round_deadline = None;
            self.round_clock_ran_out().await;
        }
        if let Some(timer) = self.move_timer.filter(|t| t.deadline <= now) {
            self.move_clock(timer.stage).await;
        }
        if self.next_hand_at.is_some_and(|t| t <= now) {
            self.next_hand_at = None;
            self.deal_hand().await;
        }
        if self.start_deadline.is_some_and(|t| t <= now) {
            self.start_deadline = None;
            self.start_deadline_passed().await;
        }
        false
    }

    async fn round_clock_ran_out(&mut self) {
        let in_play = self.state.hand.as_ref().is_some_and(|h| !h.is_over());
        if in_play {
            if let Err(Refused::Log) = self.process(Input::TimeOut).await {
                tracing::error!("TIME OUT not saved");
            }
        } else if self.state.matc.as_ref().is_some_and(|m| !m.is_over()) {
            // Between hands: the hand about to be dealt is the last, with its last round.
            self.pending_time_out = true;
        }
    }

    async fn move_clock(&mut self, stage: Stage) {
        match stage {
            Stage::Limit => {
                let Some(hand) = &self.state.hand else { return };
                let seat = hand.game().on_turn();
                let grace = hand.game().move_clock().map_or(0, |c| c.grace_ms);
                self.move_timer = Some(MoveTimer {
                    stage: Stage::Grace,
                    deadline: Instant::now() + std::time::Duration::from_millis(grace.into()),
                });
                self.publish(None, |table, seq| ServerMessage::GraceStarted {
                    table,
                    seq,
                    seat: WireSeat(seat),
                    grace_ms: grace,
                });
            }
            Stage::Grace => {
                self.move_timer = None;
                let on_turn = self.state.hand.as_ref().map(|h| h.game().on_turn());
                match self.process(Input::ClockExpired).await {
                    Ok(()) => {
                        if let Some(seat) = on_turn {
                            self.note_clock_expired(seat).await;
                        }
                    }
                    Err(Refused::Log) => tracing::error!("clock expiry not saved"),
                    Err(_) => {}
                }
            }
        }
    }

    /// Starts the turn's move clock from now (bots play on the same clock as everyone: they act
    /// well within it).
    pub(super) fn set_turn_timer(&mut self, clock: Option<MoveClock>) {
        let now = Instant::now();
        let limit = clock.map(|c| std::time::Duration::from_millis(c.limit_ms.into()));
        if self.state.paused() {
            // Its tournament is paused: the clock starts afresh when play goes on.
            self.held
                .hold_move_clock(limit.map(|left| (Stage::Limit, left)));
            return;
        }
        self.move_timer = limit.map(|left| MoveTimer {
            stage: Stage::Limit,
            deadline: now + left,
        });
    }
}
