//! The replay buffer: the table's latest published events, for a client that missed some
//! (`sync`). Bounded by a count and by bytes; a client further behind gets a snapshot.

use std::collections::VecDeque;
use std::sync::Arc;

use burraco_rules::{Seat, Viewer};

use crate::outbound::Frame;

/// One published event: its full frame, and the bare tick those who may not see it get.
#[derive(Debug)]
pub(super) struct Published {
    pub(super) seq: u64,
    pub(super) private_to: Option<Seat>,
    pub(super) frame: Arc<Frame>,
    pub(super) tick: Option<Arc<Frame>>,
}

impl Published {
    /// What `viewer` receives of this event (RULES.md section 12): the event itself when it is
    /// public or theirs, else the tick with the same number. The one rule, for live publishing
    /// and for `sync` alike.
    pub(super) fn project(&self, viewer: Viewer) -> &Arc<Frame> {
        let visible = match (self.private_to, viewer) {
            (None, _) => true,
            (Some(owner), Viewer::Seat(seat)) => owner == seat,
            (Some(_), Viewer::Spectator) => false,
        };
        match &self.tick {
            Some(tick) if !visible => tick,
            _ => &self.frame,
        }
    }

    /// What the entry keeps alive, about ([`Frame::approx_bytes`]), for the byte cap.
    fn bytes(&self) -> usize {
        self.frame.approx_bytes() + self.tick.as_ref().map_or(0, |t| t.approx_bytes())
    }
}

#[derive(Debug)]
pub(super) struct ReplayBuffer {
    entries: VecDeque<(Published, usize)>,
    bytes: usize,
    max_len: usize,
    max_bytes: usize,
}

impl ReplayBuffer {
    pub(super) fn new(max_len: usize, max_bytes: usize) -> ReplayBuffer {
        ReplayBuffer {
            entries: VecDeque::new(),
            bytes: 0,
            max_len,
            max_bytes,
        }
    }

    /// Keeps an event, dropping the oldest beyond the count and byte caps. An event larger than
    /// the byte cap by itself empties the buffer (a client behind it gets a snapshot: the buffer
    /// never has holes).
    pub(super) fn push(&mut self, event: Published) {
        let bytes = event.bytes();
        if bytes > self.max_bytes || self.max_len == 0 {
            self.entries = VecDeque::new();
            self.bytes = 0;
            return;
        }
        while !self.entries.is_empty()
            && (self.entries.len() >= self.max_len || self.bytes + bytes > self.max_bytes)
        {
            if let Some((_, old)) = self.entries.pop_front() {
                self.bytes -= old;
            }
        }
        self.bytes += bytes;
        self.entries.push_back((event, bytes));
    }

    /// The events after `last_seq` when the buffer still holds all of them (`seq` is the
    /// table's latest number), else `None`.
    pub(super) fn since(
        &self,
        last_seq: u64,
        seq: u64,
    ) -> Option<impl Iterator<Item = &Published>> {
        let complete = last_seq >= seq
            || self
                .entries
                .front()
                .is_some_and(|(e, _)| e.seq <= last_seq + 1);
        complete.then(|| {
            self.entries
                .iter()
                .map(|(e, _)| e)
                .filter(move |e| e.seq > last_seq)
        })
    }
}
