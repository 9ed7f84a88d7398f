//! What a table tells the moderation (`crate::moderation`): each chat line it published (kept
//! for reports, and read by the chat filter), and who sits at it once a seat is taken (the
//! same-address signal). Nothing here waits: the moderation files its reports in the
//! background.

use burraco_rules::Seat;

use super::TableActor;
use crate::moderation::{ChatLine, signals};

impl TableActor {
    /// The chat line just published (the table's last event), from `seat` or a spectator.
    pub(super) fn chat_published(&self, seat: Option<Seat>, name: &str, text: &str) {
        let account = seat
            .and_then(|s| self.state.seats[s.index()].as_ref())
            .and_then(|slot| slot.account.as_ref())
            .map(|a| a.id.clone());
        let line = ChatLine {
            seq: self.seq,
            seat: seat.map(|s| s.to_string()),
            name: name.to_owned(),
            account,
            text: text.to_owned(),
            at_ms: crate::unix_ms(),
        };
        let info = self.info.lock().unwrap_or_else(|e| e.into_inner()).clone();
        signals::chat_line(&self.shared, &self.id, line, &info);
    }

    /// A seat was taken: the accounts seated here, for the same-address signal.
    pub(super) fn seats_changed(&self) {
        let seated: Vec<(String, String)> = self
            .state
            .seats
            .iter()
            .flatten()
            .filter_map(|slot| Some((slot.account.as_ref()?.id.clone(), slot.name.clone())))
            .collect();
        if seated.len() < 2 {
            return;
        }
        let info = self.info.lock().unwrap_or_else(|e| e.into_inner()).clone();
        signals::seated(&self.shared, &self.id, &seated, &info);
    }
}
