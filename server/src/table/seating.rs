//! Seating: joining and leaving, readiness, spectators, connections coming and going (with the
//! disconnect grace), and freeing seats before the match.

use burraco_bot::Level;
use burraco_protocol::ErrorCode;
use burraco_protocol::log::{SeatAccount, SeatHolder, TableEntry};
use burraco_protocol::wire::{ServerMessage, WireSeat};
use burraco_rules::{Seat, Viewer};
use tokio::time::Instant;

use super::hand_log::HandLog;
use super::handle::Request;
use super::{BotRole, SeatSlot, Status, TableActor};
use crate::outbound::Outbox;

impl TableActor {
    pub(super) async fn join(
        &mut self,
        player: String,
        name: String,
        account: Option<SeatAccount>,
        wanted: Option<Seat>,
        created: Option<Option<String>>,
        req: Request,
    ) {
        let reply =
            |seat: Seat, created: Option<Option<String>>, id: u64, table: String| match created {
                Some(invite) => ServerMessage::TableCreated {
                    id,
                    table,
                    invite,
                    seat: WireSeat(seat),
                },
                None => ServerMessage::Seated {
                    id,
                    table,
                    seat: WireSeat(seat),
                },
            };
        if let Some(account) = &account
            && self.seat_of(&player).is_none()
        {
            // An arena seat is its bot account's: another session of the account takes it.
            self.claim_arena_seat(&player, &name, account).await;
        }
        if let Some(seat) = self.seat_of(&player) {
            // Already here: answer again and hand over the connection. A seat held for the
            // player (a tournament's) learns the account they come with.
            if let Some(account) = account {
                self.log_seat_account(seat, account).await;
            }
            let out = req.out.clone();
            let id = req.id;
            self.attach(&player, out.clone());
            out.send_message(reply(seat, created, id, self.id.to_string()));
            out.send_message(self.snapshot(Viewer::Seat(seat)));
            self.send_pause_after_snapshot(&out);
            self.send_same_address_after_snapshot(&out);
            let _ = req.done.send(());
            // A seat held for the player (a rated tournament's) was checked as they came
            // (`attach`); so is the address they come back from.
            return;
        }
        if self.state.status != Status::Waiting {
            return req.error(
                ErrorCode::TableStarted,
                "the match has started: seats are taken; spectate instead",
            );
        }
        if self.state.rated && account.is_none() {
            return req.error(
                ErrorCode::AccountRequired,
                "a rated table seats signed-in accounts only",
            );
        }
        if self.state.rated
            && let Some(account) = &account
            && self
                .state
                .seats
                .iter()
                .flatten()
                .any(|slot| slot.account.as_ref().is_some_and(|a| a.id == account.id))
        {
            // Two connections of one account would rate it against itself.
            return req.error(
                ErrorCode::SeatTaken,
                "your account already holds a seat at this rated table",
            );
        }
        let seat = match wanted {
            Some(seat) if !self.players().is_seated(seat) => {
                return req.error(
                    ErrorCode::InvalidSeat,
                    format!("seat {seat} is not in play at this table"),
                );
            }
            Some(seat) if self.state.seats[seat.index()].is_some() => {
                return req.error(ErrorCode::SeatTaken, format!("seat {seat} is taken"));
            }
            Some(seat) => seat,
            None => match self
                .players()
                .seats()
                .iter()
                .find(|s| self.state.seats[s.index()].is_none())
            {
                Some(&seat) => seat,
                None => return req.error(ErrorCode::TableFull, "every seat is taken"),
            },
        };
        let holder = SeatHolder {
            player: player.clone(),
            name: name.clone(),
            bot: None,
        };
        let program = account.as_ref().is_some_and(|a| a.bot);
        // A guest's seat is logged as ever; an account's with the account, so the label stays.
        let taken = match account {
            None => TableEntry::Seat {
                seat: seat.index() as u8,
                holder: Some(holder),
            },
            Some(account) => TableEntry::AccountSeat {
                seat: seat.index() as u8,
                holder,
                account,
            },
        };
        if self.append(&[taken]).await.is_err() {
            return req.error(ErrorCode::InternalError, "could not save the seat");
        }
        // The seat is folded from its entry on appending.
        self.shared.directory.seat_player(&player, &self.id, seat);
        let creating = created.is_some();
        let out = req.out.clone();
        // Connected before the snapshot is made (the seat's own first snapshot shows it so) and
        // before the lobby's info is: a table whose only player had no connection yet read as
        // deserted, and a quick play asking at that moment opened another table (issue 32).
        if let Some(slot) = self.state.seats[seat.index()].as_mut() {
            slot.out = Some(out.clone());
        }
        // Every node finds the seat (a resume through another) before the player hears of it.
        self.refresh_info();
        self.shared.backplane.listings.flush_table(&self.id).await;
        out.send_message(reply(seat, created, req.id, self.id.to_string()));
        out.send_message(self.snapshot(Viewer::Seat(seat)));
        self.send_pause_after_snapshot(&out);
        self.send_same_address_after_snapshot(&out);
        let _ = req.done.send(());
        self.publish(None, |table, seq| ServerMessage::PlayerJoined {
            table,
            seq,
            seat: WireSeat(seat),
            name,
            bot: program,
        });
        if creating && let Some(level) = self.state.bot_level {
            // Already logged; the creator is seated and may add bots again (`add_bots`).
            let _ = self.fill_with_bots(level).await;
        }
        self.refresh_info();
        self.seats_changed();
    }

    /// Logs the account of the player holding `seat`, unless already logged (a failed append
    /// leaves the seat as it was: the label waits for the next join).
    async fn log_seat_account(&mut self, seat: Seat, account: SeatAccount) {
        let Some(slot) = self.state.seats[seat.index()].as_ref() else {
            return;
        };
        if slot.bot.is_some() || slot.account.as_ref() == Some(&account) {
            return;
        }
        let entry = TableEntry::AccountSeat {
            seat: seat.index() as u8,
            holder: SeatHolder {
                player: slot.player.clone(),
                name: slot.name.clone(),
                bot: None,
            },
            account,
        };
        if let Err(e) = self.append(&[entry]).await {
            tracing::error!("a seat's account not saved: {e}");
            return;
        }
        self.refresh_info();
    }

    /// Before the match, a table where only bots are left frees their seats too.
    async fn dismiss_bots_if_alone(&mut self) {
        let humans = self.state.seats.iter().flatten().any(|s| s.bot.is_none());
        if humans {
            return;
        }
        for seat in Seat::ALL {
            if let Some(out) = self.vacate(seat).await.and_then(|slot| slot.out) {
                out.kick();
            }
        }
    }

    /// A waiting table everyone has left closes: it leaves the lobby and its log leaves play.
    pub(super) async fn close_if_empty(&mut self) {
        if self.state.status != Status::Waiting || self.state.seats.iter().any(Option::is_some) {
            return;
        }
        if let Err(e) = self.append(&[TableEntry::Closed]).await {
            tracing::error!("the closing of an empty table not saved: {e}");
        }
        // Folded from the entry on appending; closed also when that append failed (nobody is
        // left, and a restart finds the table empty). Spectators simply hear no more.
        self.state.closed = true;
        self.stopping = true;
        // Out of quick play at once: a request queued behind this one would find the table gone.
        self.refresh_info();
    }

    /// Its tournament scored the match without it: the log leaves play (`Closed`), bots stop,
    /// and the table stops where it stands (its players hear of the result from the
    /// tournament).
    pub(super) async fn close_for_tournament(&mut self) {
        if self.state.status == Status::Finished || self.state.closed {
            return;
        }
        // A match under way ends here: its outcomes are judged, exactly once, by the match-end
        // projections (pending before the end is logged, so no crash loses them).
        let ended_ms = match self.state.matc {
            Some(_) => Some(crate::match_end::pending(&*self.shared.ratings, &self.id).await),
            None => None,
        };
        if let Err(e) = self.append(&[TableEntry::Closed]).await {
            tracing::error!("the closing of a tournament's table not saved: {e}");
            return;
        }
        // `closed` is folded from the entry on appending.
        if let Some(ended_ms) = ended_ms {
            self.shared.match_ends.announce(&self.id, ended_ms);
        }
        self.stop_bots();
        self.stopping = true;
    }

    /// Frees a seat, persists that, and tells the table; returns who sat there.
    pub(super) async fn vacate(&mut self, seat: Seat) -> Option<SeatSlot> {
        let slot = self.state.seats[seat.index()].take()?;
        let freed = TableEntry::Seat {
            seat: seat.index() as u8,
            holder: None,
        };
        if let Err(e) = self.append(&[freed]).await {
            tracing::error!("freed seat not saved: {e}");
        }
        self.publish(None, |table, seq| ServerMessage::PlayerLeft {
            table,
            seq,
            seat: WireSeat(seat),
        });
        Some(slot)
    }

    /// Everyone must ready again (a seat was freed before the match, or a hand ended); bots are
    /// ready at once (and say so).
    pub(super) fn reset_ready(&mut self) {
        let mut bots = Vec::new();
        for seat in Seat::ALL {
            if let Some(slot) = self.state.seats[seat.index()].as_mut() {
                slot.ready = slot.bot.is_some();
                if slot.ready {
                    bots.push(seat);
                }
            }
        }
        for seat in bots {
            self.publish_ready(seat);
        }
    }

    pub(super) async fn leave(&mut self, player: &str, req: Request) {
        let Some(seat) = self.seat_of(player) else {
            let before = self.spectators.len();
            self.spectators.retain(|o| o.id() != req.out.id());
            if self.spectators.len() != before {
                self.refresh_info();
                let id = req.id;
                return req.reply(ServerMessage::Ok { id });
            }
            return req.error(
                ErrorCode::NotAtTable,
                "you are neither seated at nor watching this table",
            );
        };
        let id = req.id;
        if self.state.status == Status::Waiting && self.state.tournament.is_some() {
            // A tournament's seat stays its entrant's: the connection goes, the seat (and a
            // ready already said) stays, the player may come back, and one who does not is late
            // by the code. Leaving the event is `unregister_tournament`.
            if let Some(slot) = self.state.seats[seat.index()].as_mut() {
                slot.out = None;
            }
            req.reply(ServerMessage::Ok { id });
            self.refresh_info();
            self.seats_changed();
            return;
        }
        self.shared.directory.forget_seat(player, &self.id);
        match self.state.status {
            Status::Waiting => {
                self.vacate(seat).await;
                self.reset_ready();
                self.dismiss_bots_if_alone().await;
                req.reply(ServerMessage::Ok { id });
                self.close_if_empty().await;
            }
            Status::Playing => {
                let level = self.stand_in_level();
                let mut given_up = None;
                if let Some(slot) = self.state.seats[seat.index()].as_mut() {
                    slot.out = None;
                    slot.grace_until = None;
                    slot.bot = Some(BotRole {
                        level,
                        stand_in: false,
                    });
                    // Nobody may resume this seat: the player gave it up. Saved as a bot's seat,
                    // so a restart seats the bot again.
                    slot.player = format!("{}{}", super::state::GAVE_UP, slot.player);
                    given_up = Some(TableEntry::Seat {
                        seat: seat.index() as u8,
                        holder: Some(SeatHolder {
                            player: slot.player.clone(),
                            name: slot.name.clone(),
                            bot: Some(level.code().into()),
                        }),
                    });
                }
                if let Some(entry) = given_up
                    && let Err(e) = self.append(&[entry]).await
                {
                    tracing::error!("the bot's seat not saved: {e}");
                }
                self.publish(None, |table, seq| ServerMessage::PlayerLeft {
                    table,
                    seq,
                    seat: WireSeat(seat),
                });
                self.publish(None, |table, seq| ServerMessage::PlayerReplacedByBot {
                    table,
                    seq,
                    seat: WireSeat(seat),
                });
                req.reply(ServerMessage::Ok { id });
                self.start_bot(seat);
            }
            Status::Finished => {
                if let Some(slot) = self.state.seats[seat.index()].as_mut() {
                    slot.out = None;
                }
                req.reply(ServerMessage::Ok { id });
            }
        }
        self.refresh_info();
        // A seat's connection went (or the seat): the same address is of the connections now.
        self.seats_changed();
    }

    pub(super) async fn ready(&mut self, player: &str, req: Request) {
        let Some(seat) = self.seat_of(player) else {
            return req.error(ErrorCode::NotSeated, "you are not seated at this table");
        };
        let between_hands = self.state.status == Status::Playing && self.next_hand_at.is_some();
        if self.state.status != Status::Waiting && !between_hands {
            return req.error(
                ErrorCode::TableStarted,
                "the match has started: ready is for the wait before it and between hands",
            );
        }
        let id = req.id;
        let already = self.state.seats[seat.index()]
            .as_ref()
            .is_some_and(|s| s.ready);
        if let Some(slot) = self.state.seats[seat.index()].as_mut() {
            slot.ready = true;
        }
        if !already {
            self.publish_ready(seat);
            // Who is still awaited is in the table's info (a tournament judges lateness by it).
            self.refresh_info();
        }
        req.reply(ServerMessage::Ok { id });
        if !self.all_ready() {
            return;
        }
        if between_hands {
            self.next_hand_at = None;
            self.deal_hand().await;
        } else {
            self.start_match().await;
        }
    }

    /// Every seat in play is taken and ready.
    pub(super) fn all_ready(&self) -> bool {
        self.players().seats().iter().all(|s| {
            self.state.seats[s.index()]
                .as_ref()
                .is_some_and(|slot| slot.ready)
        })
    }

    pub(super) fn spectate(&mut self, req: Request) {
        if self.state.boards.is_some() && self.state.status != Status::Finished {
            return req.error(
                ErrorCode::DuplicateInPlay,
                "a duplicate board's table is not watched while other tables may be playing it",
            );
        }
        let out = req.out.clone();
        if !self.spectators.iter().any(|o| o.id() == out.id()) {
            self.spectators.push(out.clone());
        }
        let id = req.id;
        out.send_message(ServerMessage::Ok { id });
        out.send_message(self.snapshot(Viewer::Spectator));
        self.send_pause_after_snapshot(&out);
        self.send_same_address_after_snapshot(&out);
        let _ = req.done.send(());
        self.refresh_info();
    }

    pub(super) fn attach(&mut self, player: &str, out: Outbox) {
        let Some(seat) = self.seat_of(player) else {
            return;
        };
        let was_gone = {
            let Some(slot) = self.state.seats[seat.index()].as_mut() else {
                return;
            };
            // Presence follows the connection that holds the seat: a seat no connection held
            // (a tournament's seat held for its entrant, or one left before the match) is
            // connected from now on, and the table hears it (it showed "disconnected" to the
            // others until the player's first move).
            let unheld = slot.out.is_none() && slot.bot.is_none();
            if let Some(old) = slot.out.replace(out.clone())
                && old.id() != out.id()
            {
                // Not a slow reader: the session moved to a newer connection (4001).
                old.take_over();
            }
            let stand_in = slot.bot.is_some_and(|b| b.stand_in);
            let was_gone = slot.grace_until.is_some() || stand_in || unheld;
            slot.grace_until = None;
            if stand_in {
                // The player takes the seat back at once; the bot was kicked above.
                slot.bot = None;
            }
            was_gone
        };
        if was_gone {
            self.publish(None, |table, seq| ServerMessage::PlayerReconnected {
                table,
                seq,
                seat: WireSeat(seat),
            });
            // Back in time for its turn: the normal clock again, from now.
            if let Some(game) = self.state.hand.as_ref().map(HandLog::game)
                && !game.is_over()
                && game.on_turn() == seat
            {
                let clock = game.move_clock();
                self.set_turn_timer(clock);
            }
            self.refresh_info();
        }
        // The player may be back from another address.
        self.seats_changed();
    }

    /// A seated player's request through a connection the seat does not have, where the seat
    /// has none that can reach the player (a resume whose attach found the table gone: it was
    /// being taken over by another node), attaches that connection first, so the events of the
    /// request, and every later one, reach the player who made it. A bot's request never does;
    /// nor does an older connection's while a newer one holds the seat.
    pub(super) fn attach_requester(&mut self, player: &str, out: &Outbox) {
        if crate::bots::is_bot_conn(out.id()) || out.is_gone() {
            return;
        }
        let Some(seat) = self.seat_of(player) else {
            return;
        };
        let reaches = self.state.seats[seat.index()]
            .as_ref()
            .and_then(|slot| slot.out.as_ref())
            .is_some_and(|o| {
                o.id() == out.id() || !(o.is_gone() || crate::bots::is_bot_conn(o.id()))
            });
        if !reaches {
            self.attach(player, out.clone());
        }
    }

    pub(super) fn detach(&mut self, player: &str, conn: u64) {
        self.spectators.retain(|o| o.id() != conn);
        if let Some(seat) = self.seat_of(player) {
            let grace = self.shared.config.disconnect_grace;
            let playing = self.state.status != Status::Finished;
            let Some(slot) = self.state.seats[seat.index()].as_mut() else {
                return;
            };
            if slot.out.as_ref().is_none_or(|o| o.id() != conn) {
                return;
            }
            slot.out = None;
            if playing {
                slot.grace_until = Some(Instant::now() + grace);
                self.publish(None, |table, seq| ServerMessage::PlayerDisconnected {
                    table,
                    seq,
                    seat: WireSeat(seat),
                    grace_ms: grace.as_millis() as u64,
                });
            }
        }
        self.refresh_info();
        self.seats_changed();
    }

    /// A disconnected seat's grace period ran out.
    pub(super) async fn grace_over(&mut self, seat: Seat) {
        let Some(slot) = self.state.seats[seat.index()].as_mut() else {
            return;
        };
        slot.grace_until = None;
        if self.state.status == Status::Waiting {
            let player = slot.player.clone();
            self.shared.directory.forget_seat(&player, &self.id);
            self.vacate(seat).await;
            self.dismiss_bots_if_alone().await;
            self.refresh_info();
            self.close_if_empty().await;
            return;
        }
        if self.state.status == Status::Playing {
            slot.bot = Some(BotRole {
                level: self.state.bot_level.unwrap_or(Level::Expert),
                stand_in: true,
            });
            self.note_grace_ran_out(seat).await;
            self.publish(None, |table, seq| ServerMessage::PlayerReplacedByBot {
                table,
                seq,
                seat: WireSeat(seat),
            });
            self.start_bot(seat);
            self.refresh_info();
        }
    }
}
