//! What the table shows: the per-viewer snapshot (a seat's or a spectator's view of the hand,
//! RULES.md section 12, plus the table around it) and the lobby's summary.

use burraco_protocol::convert::{cards_held, config_to_wire, hand_to_wire};
use burraco_protocol::wire::{
    SeatName, SeatState, ServerMessage, TableSnapshot, TableSummary, WireSeat,
};
use burraco_rules::{Match, Seat, Side, Viewer};
use tokio::time::Instant;

use super::handle::TableInfo;
use super::{SeatSlot, Status, TableActor};
use crate::backplane::Listing;

impl TableActor {
    pub(super) fn snapshot(&self, viewer: Viewer) -> ServerMessage {
        let players = self.players();
        let view = self.state.hand.as_ref().map(|h| h.game().view(viewer));
        let seats = players
            .seats()
            .iter()
            .map(|&seat| {
                let slot = self.state.seats[seat.index()].as_ref();
                SeatState {
                    seat: WireSeat(seat),
                    name: slot.map(|s| s.name.clone()),
                    bot: slot.is_some_and(SeatSlot::played_by_program),
                    connected: slot.is_some_and(|s| s.out.is_some()),
                    ready: slot.is_some_and(|s| s.ready),
                    cards: view.as_ref().and_then(|v| cards_held(v, seat)),
                }
            })
            .collect();
        let status = match (self.state.status, &self.state.hand) {
            (Status::Playing, Some(h)) if h.is_over() => "between_hands",
            (status, _) => status.code(),
        };
        let now = Instant::now();
        let hand = self.state.hand.as_ref().zip(view.as_ref()).map(|(h, v)| {
            // The clock left to the player on turn, grace included: the table's own clock.
            // Held where it stood while its tournament is paused.
            let clock_left = self.move_clock_left_ms(now).filter(|_| !h.is_over());
            hand_to_wire(v, h.number(), clock_left)
        });
        let totals = self.state.matc.as_ref().map_or([0, 0], Match::totals);
        ServerMessage::Snapshot {
            table: self.id.to_string(),
            seq: self.seq,
            view: Box::new(TableSnapshot {
                settings: config_to_wire(&self.state.config),
                status: status.into(),
                you: match viewer {
                    Viewer::Seat(seat) => Some(WireSeat(seat)),
                    Viewer::Spectator => None,
                },
                seats,
                hands_played: self.state.matc.as_ref().map_or(0, Match::hands_played),
                sides: Side::BOTH
                    .iter()
                    .map(|&s| players.side_label(s).to_owned())
                    .collect(),
                totals: totals.to_vec(),
                round_clock_left_ms: self.round_clock_left_ms(now),
                // A TIME OUT reaches the match at the hand's end; until then the hand knows it.
                time_out: self.state.matc.as_ref().is_some_and(Match::is_timed_out)
                    || self
                        .state
                        .hand
                        .as_ref()
                        .is_some_and(|h| h.game().last_round().is_some()),
                hand,
            }),
        }
    }

    pub(super) fn refresh_info(&self) {
        let players = self.players();
        let summary = TableSummary {
            table: self.id.to_string(),
            preset: self.state.config.preset().code().to_owned(),
            players: players.count() as u8,
            seats: players
                .seats()
                .iter()
                .map(|&seat| {
                    let slot = self.state.seats[seat.index()].as_ref();
                    SeatName {
                        seat: WireSeat(seat),
                        name: slot.map(|s| s.name.clone()),
                        bot: slot.is_some_and(SeatSlot::played_by_program),
                    }
                })
                .collect(),
            status: self.state.status.code().into(),
            spectators: self.spectators.len() as u32,
        };
        let free_seats = players
            .seats()
            .iter()
            .filter(|s| self.state.seats[s.index()].is_none())
            .count();
        let info = TableInfo {
            summary,
            private: self.state.private,
            free_seats,
            // A waiting table that closed (everyone left) takes nobody from now on.
            waiting: self.state.status == Status::Waiting && !self.state.closed,
            finished: self.state.status == Status::Finished,
            hands_finished: self.state.matc.as_ref().map_or(0, Match::hands_played),
            deserted: {
                let mut people = self
                    .state
                    .seats
                    .iter()
                    .flatten()
                    .filter(|s| s.bot.is_none());
                let first = people.next();
                first.is_some_and(|s| s.out.is_none()) && people.all(|s| s.out.is_none())
            },
            absent: if self.state.status == Status::Waiting {
                players
                    .seats()
                    .iter()
                    .copied()
                    .filter(|s| {
                        !self.state.seats[s.index()]
                            .as_ref()
                            .is_some_and(|slot| slot.ready)
                    })
                    .collect()
            } else {
                Vec::new()
            },
            rated: self.state.rated,
            accounts: self
                .state
                .seats
                .iter()
                .enumerate()
                .filter_map(|(at, slot)| {
                    let account = slot.as_ref()?.account.as_ref()?;
                    Some((at as u8, account.id.clone()))
                })
                .collect(),
            identities: self.seat_identities(),
            created_ms: self.state.created_ms,
            players: Seat::ALL
                .into_iter()
                .filter_map(|seat| Some(self.state.seats[seat.index()].as_ref()?.player.clone()))
                .collect(),
            movers: self.movers(),
        };
        let mut current = self.info.lock().unwrap_or_else(|e| e.into_inner());
        if *current != info {
            // Other nodes' lobbies learn of the change (only of a change: this runs per action).
            let players = Seat::ALL
                .into_iter()
                .filter_map(|seat| {
                    Some((
                        self.state.seats[seat.index()].as_ref()?.player.clone(),
                        seat,
                    ))
                })
                .collect();
            let listings = &self.shared.backplane.listings;
            let listing = Listing::new(
                listings.node(),
                &info,
                self.state.invite.as_deref(),
                players,
            );
            listings.publish(&self.id, listing);
        }
        *current = info;
    }
}
