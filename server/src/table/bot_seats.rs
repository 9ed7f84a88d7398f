//! Bot seats: the server bots the table seats itself (the empty seats of a table created with
//! bots, atomically with the creator's join, or when a seated player asks with `add_bots`; a
//! stand-in for a player gone past the grace period; the seat of a player who left mid-match;
//! after a restart, every seat the log gives a bot).
//! Each gets an [`Outbox`](crate::outbound::Outbox) of its own with a snapshot, and from then on
//! is the seat's connection: the same projected frames, the same [`Command::Act`] path.
//!
//! [`Command::Act`]: super::Command::Act

use burraco_bot::Level;
use burraco_protocol::ErrorCode;
use burraco_protocol::log::{SeatHolder, TableEntry};
use burraco_protocol::wire::{ServerMessage, WireSeat};
use burraco_rules::{Seat, Viewer};

use super::bot_link::BotLink;
use super::handle::{Request, TableHandle};
use super::{Status, TableActor};
use crate::log::LogError;

impl TableActor {
    /// `add_bots`: a seated player of a waiting table fills the free seats with bots, who are
    /// ready at once; like the last `ready`, that starts the match when every player was ready.
    pub(super) async fn add_bots(&mut self, player: &str, level: Option<Level>, req: Request) {
        if self.seat_of(player).is_none() {
            return req.error(ErrorCode::NotSeated, "you are not seated at this table");
        }
        if self.state.status != Status::Waiting {
            return req.error(
                ErrorCode::TableStarted,
                "the match has started: seats are taken",
            );
        }
        if self.state.rated {
            return req.error(
                ErrorCode::AccountRequired,
                "a rated table seats signed-in accounts only, not server bots",
            );
        }
        let level = level.or(self.state.bot_level).unwrap_or(Level::Expert);
        if self.fill_with_bots(level).await.is_err() {
            return req.error(ErrorCode::InternalError, "could not save the bots' seats");
        }
        let id = req.id;
        req.reply(ServerMessage::Ok { id });
        self.refresh_info();
        if self.all_ready() {
            self.start_match().await;
        }
    }

    /// Seats a bot of `level` in every free seat, ready (a table created with `bots`, or
    /// `add_bots`); nothing changed when the seats could not be saved.
    pub(super) async fn fill_with_bots(&mut self, level: Level) -> Result<(), LogError> {
        let name = crate::bots::name(level);
        let free: Vec<(Seat, String)> = self
            .players()
            .seats()
            .iter()
            .filter(|s| self.state.seats[s.index()].is_none())
            .map(|&s| (s, crate::bots::player_id()))
            .collect();
        if free.is_empty() {
            return Ok(());
        }
        let entries: Vec<TableEntry> = free
            .iter()
            .map(|(seat, player)| TableEntry::Seat {
                seat: seat.index() as u8,
                holder: Some(SeatHolder {
                    player: player.clone(),
                    name: name.clone(),
                    bot: Some(level.code().into()),
                }),
            })
            .collect();
        if let Err(e) = self.append(&entries).await {
            tracing::error!("bot seats not saved: {e}");
            return Err(e);
        }
        // The seats are folded from their entries on appending: each a ready bot's.
        for (seat, _) in free {
            self.publish(None, |table, seq| ServerMessage::PlayerJoined {
                table,
                seq,
                seat: WireSeat(seat),
                name: name.clone(),
                bot: true,
            });
            self.publish_ready(seat);
            self.start_bot(seat);
        }
        Ok(())
    }

    /// Starts a bot on a seat whose slot says a bot plays it; it replaces (and kicks) whatever
    /// outbox the seat had.
    pub(super) fn start_bot(&mut self, seat: Seat) {
        let Some(tx) = self.weak.upgrade() else {
            return;
        };
        let handle = TableHandle {
            id: self.id.clone(),
            tx,
            info: self.info.clone(),
        };
        let Some((player, role)) = self.state.seats[seat.index()]
            .as_ref()
            .and_then(|s| Some((s.player.clone(), s.bot?)))
        else {
            return;
        };
        let link = BotLink {
            table: handle,
            player,
        };
        let out = crate::bots::spawn(self.shared.bot_context(), &self.id, link, seat, role.level);
        out.send_message(self.snapshot(Viewer::Seat(seat)));
        self.send_pause_after_snapshot(&out);
        if let Some(slot) = self.state.seats[seat.index()].as_mut()
            && let Some(old) = slot.out.replace(out)
        {
            old.kick();
        }
    }

    /// Stops every bot of the table (the table is stopping).
    pub(super) fn stop_bots(&mut self) {
        for slot in self.state.seats.iter().flatten() {
            if slot.bot.is_some()
                && let Some(out) = &slot.out
            {
                out.kick();
            }
        }
    }

    /// The level of a bot standing in for an absent player.
    pub(super) fn stand_in_level(&self) -> Level {
        self.state.bot_level.unwrap_or(Level::Expert)
    }
}
