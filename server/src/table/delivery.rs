//! Delivery: numbering, projecting and queueing what the table publishes, and `sync`.
//!
//! [`TableActor::publish`] is the only place a number is given: it hands the next number to the
//! message it builds, projects the frame per receiver ([`Published::project`]), keeps it in the
//! replay buffer and stages it. While an action runs, what it publishes is released at its end as
//! one batch per receiver, with the reply last (see [`crate::outbound`]); otherwise at once.

use std::sync::Arc;

use burraco_protocol::ErrorCode;
use burraco_protocol::convert::{EventContext, event_to_wire};
use burraco_protocol::wire::{ServerMessage, WireSeat};
use burraco_rules::{Event, Seat, Viewer};

use super::TableActor;
use super::handle::Request;
use super::replay_buffer::Published;
use crate::outbound::{Fanout, Frame, Outbox};

/// The frames one action publishes, per seat and for the spectators.
#[derive(Default)]
pub(super) struct Staged {
    seats: [Vec<Arc<Frame>>; 4],
    spectators: Vec<Arc<Frame>>,
}

impl TableActor {
    /// Publishes the message `build` makes from the table's id and the event's number; only
    /// `private_to` (if any) sees it, everyone else a tick with the same number.
    pub(super) fn publish(
        &mut self,
        private_to: Option<Seat>,
        build: impl FnOnce(String, u64) -> ServerMessage,
    ) {
        self.seq += 1;
        let seq = self.seq;
        let published = Published {
            seq,
            private_to,
            frame: Frame::new(build(self.id.to_string(), seq)),
            tick: private_to.map(|_| {
                Frame::new(ServerMessage::Tick {
                    table: self.id.to_string(),
                    seq,
                })
            }),
        };
        let at_once = self.staged.is_none();
        let staged = self.staged.get_or_insert_with(Staged::default);
        for seat in Seat::ALL {
            staged.seats[seat.index()].push(published.project(Viewer::Seat(seat)).clone());
        }
        staged
            .spectators
            .push(published.project(Viewer::Spectator).clone());
        self.buffer.push(published);
        if at_once {
            self.release_staged(None, None);
        }
    }

    /// Publishes the rules' events of the hand in play.
    pub(super) fn publish_events(&mut self, events: &[Event]) {
        let players = self.players();
        let (hand, seed) = self
            .state
            .hand
            .as_ref()
            .map_or((self.state.hand_no, None), |h| {
                (h.number(), Some(*h.seed()))
            });
        // A duplicate board's seed is revealed by its tournament, not here.
        let seed = seed.filter(|_| self.state.boards.is_none());
        for event in events {
            let revealed = match event {
                Event::HandEnded { .. } => seed,
                _ => None,
            };
            self.publish(event.private_to(), |table, seq| {
                event_to_wire(
                    event,
                    EventContext {
                        table: &table,
                        seq,
                        players,
                        hand,
                        seed: revealed.as_ref(),
                    },
                )
            });
            if let Event::TurnStarted { clock, .. } = event {
                self.set_turn_timer(*clock);
            }
        }
    }

    /// Tells everyone at the table that `seat` is ready.
    pub(super) fn publish_ready(&mut self, seat: Seat) {
        self.publish(None, |table, seq| ServerMessage::PlayerReady {
            table,
            seq,
            seat: WireSeat(seat),
        });
    }

    /// Queues what was staged, one batch per receiver (seats without a connection get nothing),
    /// with `reply` last in the batch of the connection it answers (or on its own when that
    /// connection has no seat here). `received`: when the action arrived, to time its delivery
    /// to the seats ([`Fanout`]).
    pub(super) fn release_staged(
        &mut self,
        reply: Option<(&Outbox, ServerMessage)>,
        received: Option<std::time::Instant>,
    ) {
        let mut staged = self.staged.take().unwrap_or_default();
        let mut reply = reply;
        let fanout = received
            .filter(|_| staged.seats.iter().any(|frames| !frames.is_empty()))
            .map(Fanout::new);
        for seat in Seat::ALL {
            let Some(out) = self.state.seats[seat.index()]
                .as_ref()
                .and_then(|s| s.out.as_ref())
            else {
                continue;
            };
            let mut frames = std::mem::take(&mut staged.seats[seat.index()]);
            if let Some((_, message)) = reply.take_if(|(to, _)| to.id() == out.id()) {
                frames.push(Frame::new(message));
            }
            out.send_traced(frames, fanout.clone());
        }
        if let Some((out, message)) = reply {
            out.send_message(message);
        }
        if !self.spectators.is_empty() {
            for out in &self.spectators {
                out.send_batch(staged.spectators.clone());
            }
            self.spectators.retain(|o| !o.is_kicked());
        }
    }

    /// A client missed events: what it missed from the replay buffer, projected as it would have
    /// been live, or a snapshot when the buffer no longer holds them all; then `ok`.
    pub(super) fn sync(&mut self, player: &str, last_seq: u64, req: Request) {
        let viewer = match self.seat_of(player) {
            Some(seat) => Viewer::Seat(seat),
            None if self.spectators.iter().any(|o| o.id() == req.out.id()) => Viewer::Spectator,
            None => {
                return req.error(
                    ErrorCode::NotAtTable,
                    "you are neither seated at nor watching this table",
                );
            }
        };
        // One batch: the client's writer sends the whole catch-up with one flush.
        let mut frames: Vec<Arc<Frame>> = match self.buffer.since(last_seq, self.seq) {
            Some(missed) => missed.map(|e| e.project(viewer).clone()).collect(),
            None => vec![Frame::new(self.snapshot(viewer))],
        };
        frames.extend(self.pause_frame_for(&req.out));
        frames.push(Frame::new(ServerMessage::Ok { id: req.id }));
        req.out.send_batch(frames);
        let _ = req.done.send(());
    }
}
