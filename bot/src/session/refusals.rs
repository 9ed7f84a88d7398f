//! How the session answers an `error`: a move refused climbs the refusal ladder (another move,
//! a random legal one after two, a snapshot after four, a pause after eight, which a connected
//! client's driver ends at once: [`Session::unstick`]); a seat request refused for a lost race
//! or the request limit is asked again, at once or after the driver's pause; and a request
//! refused `rate_limited` (a move, a sync, a ready) is asked again as it was, since the server
//! did not judge it.

use burraco_protocol::ErrorCode;
use burraco_protocol::wire::ClientMessage;

use super::{SeatRequest, Session, Stage};

/// Refusals in one state before the session plays a random legal action instead of its
/// strategy's (the strategy may keep choosing among moves the server refuses).
pub(super) const REFUSALS_BEFORE_FALLBACK: u32 = 2;
/// ...before it asks for a snapshot (its knowledge may be wrong).
pub(super) const REFUSALS_BEFORE_SYNC: u32 = 4;
/// ...before it stops trying until the next turn, or [`Session::retry`].
pub(super) const REFUSALS_BEFORE_GIVING_UP: u32 = 8;
/// Times a turn [`Session::unstick`] starts over from a snapshot at once: a strategy refused
/// eight times from fresh knowledge, three times over, is broken, and waiting bounds its noise.
pub(super) const RETRIES_AT_ONCE_PER_TURN: u32 = 3;

/// Seat races lost in a row (`table_full`, `table_started`, `seat_taken` answering a quick
/// play) that are asked again at once; after these the driver pauses before asking (a string of
/// lost races asked at once passes a token's request limit, and `rate_limited` is no race).
pub(super) const SEAT_RACES_ASKED_AT_ONCE: u32 = 2;

impl Session {
    /// Whether every action was refused in this state: the session waits for the next turn, or
    /// for its driver's [`Session::retry`].
    pub fn is_stuck(&self) -> bool {
        self.refusals >= REFUSALS_BEFORE_GIVING_UP
    }

    /// Starts over from a snapshot after giving up (the driver calls it after a while without
    /// news: at a table without clocks nothing else would ever play the turn).
    pub fn retry(&mut self, out: &mut Vec<ClientMessage>) {
        self.refusals = 0;
        self.refused.clear();
        self.sync(out);
    }

    /// Starts over from a snapshot at once when every action was refused and the seat is on
    /// turn, at most [`RETRIES_AT_ONCE_PER_TURN`] times a turn; true when it did. For a
    /// connected client: a pause until the next turn lets its move clock run out while it is
    /// there, which fair play counts against its account (`stalled`).
    pub fn unstick(&mut self, out: &mut Vec<ClientMessage>) -> bool {
        if !self.is_stuck() || !self.on_turn() || self.retries_at_once >= RETRIES_AT_ONCE_PER_TURN {
            return false;
        }
        self.retries_at_once += 1;
        self.retry(out);
        true
    }

    /// How long the driver pauses before [`Session::seat_request_after_pause`], or `None` when
    /// no seat request waits: longer with every race lost in a row, at most two seconds.
    pub fn seat_request_pause(&self) -> Option<std::time::Duration> {
        self.seat_request_due.then(|| {
            let races = u64::from(self.seat_races.clamp(1, 8));
            std::time::Duration::from_millis(250 * races)
        })
    }

    /// The seat request asked again after the driver's pause (lost races in a row, or
    /// `rate_limited`): `None` when none waits.
    pub fn seat_request_after_pause(&mut self) -> Option<ClientMessage> {
        if !std::mem::take(&mut self.seat_request_due) {
            return None;
        }
        Some(self.seat_request())
    }

    /// Asks again, under a new id, the request `id` the server refused `rate_limited`, when it
    /// is the move, the sync or a ready in flight; false for any other (a seat request waits
    /// for its driver's pause: [`Session::seat_request_pause`]).
    fn ask_again(&mut self, id: Option<u64>, out: &mut Vec<ClientMessage>) -> bool {
        let (Some(id), Some(table)) = (id, self.table.clone()) else {
            return false;
        };
        let next = self.next_id;
        if let Some(p) = self.pending.as_mut().filter(|p| p.id == id) {
            p.id = next;
            out.push(ClientMessage::action(&p.action, next, &table));
        } else if self.sync_id == Some(id) {
            self.sync_id = Some(next);
            out.push(ClientMessage::Sync {
                id: next,
                table,
                last_seq: self.last_seq,
            });
        } else if self.ready_id == Some(id) {
            self.ready_id = Some(next);
            out.push(ClientMessage::Ready { id: next, table });
        } else if self.seat_ready_id == Some(id) {
            self.seat_ready_id = Some(next);
            out.push(ClientMessage::Ready { id: next, table });
        } else {
            return false;
        }
        self.next_id += 1;
        true
    }
    /// An `error` reply: a refusal of the seat request, a move, a sync or a ready, each
    /// answered by its own rule (above).
    pub(super) fn on_error(
        &mut self,
        id: Option<u64>,
        text: &str,
        message: &str,
        out: &mut Vec<ClientMessage>,
    ) {
        let code = ErrorCode::parse(text);
        if code == Some(ErrorCode::RateLimited) && self.ask_again(id, out) {
            self.stats.errors += 1;
            self.stats.rate_limited += 1;
            return;
        }
        if id.is_some() && id == self.seat_ready_id {
            self.seat_ready_id = None;
        }
        if id.is_some() && id == self.ready_id {
            self.ready_id = None;
            if code == Some(ErrorCode::TableStarted) {
                // The match ended with that hand, or the next was dealt first: nothing
                // was refused that the session needed.
                return;
            }
        }
        self.stats.errors += 1;
        // The text as sent: a newer server's code is kept, and read as a plain refusal.
        self.last_error = Some(format!("{text}: {message}"));
        if id.is_some() && id == self.seat_request_id {
            self.seat_request_id = None;
            if std::mem::take(&mut self.moved_join) {
                // The seat quick play held went (its table started, or let it go first): ask
                // for a seat again.
                self.table = None;
                out.push(self.seat_request());
                return;
            }
            let quick_play = matches!(
                self.request,
                SeatRequest::QuickPlay { .. } | SeatRequest::QuickPlayRated { .. }
            );
            match code {
                // Lost a race for the last seat: ask again, at once the first times.
                Some(ErrorCode::TableFull | ErrorCode::TableStarted | ErrorCode::SeatTaken)
                    if quick_play =>
                {
                    self.seat_races += 1;
                    if self.seat_races <= SEAT_RACES_ASKED_AT_ONCE {
                        out.push(self.seat_request());
                    } else {
                        self.seat_request_due = true;
                    }
                }
                // Asked too fast: nothing was refused that waiting does not fix.
                Some(ErrorCode::RateLimited) if quick_play => {
                    self.seat_request_due = true;
                }
                _ => self.stage = Stage::Failed,
            }
            return;
        }
        if id.is_some() && id == self.sync_id {
            self.sync_id = None;
        }
        if let Some(p) = self.pending.take_if(|p| Some(p.id) == id) {
            if self.given_seat && code == Some(ErrorCode::NotSeated) {
                self.stage = Stage::Unseated;
                return;
            }
            if code == Some(ErrorCode::IllegalAction) {
                self.stats.illegal += 1;
            }
            self.stats.refused += 1;
            self.refused.push(p.action);
            self.refusals += 1;
            if self.refusals == REFUSALS_BEFORE_SYNC {
                self.refused.clear();
                self.sync(out);
            }
        }
    }
}
