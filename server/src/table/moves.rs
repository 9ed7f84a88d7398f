//! Quick play's moves (issue 32): the players waiting at a table quick play opened may be
//! brought to another waiting table of the kind (`crate::quick_play` decides which, on the node
//! serving the table they go to). Three steps, each the command of one table:
//!
//! 1. the table they go to holds a seat for each ([`TableActor::hold_moved`]: logged as their
//!    seats, with the disconnect grace running until they come);
//! 2. the table they leave gives their seats up and tells each where it sits now (1.9
//!    `quick_play_moved`; [`TableActor::move_out`]), if they are still exactly its players and
//!    all read 1.9 (otherwise step 3);
//! 3. the table they were to go to lets the held seats go ([`TableActor::release_held`]).
//!
//! The player then `join`s the table holding its seat, as a tournament's player does.

use burraco_protocol::log::{SeatHolder, TableEntry};
use burraco_protocol::wire::{ServerMessage, WireSeat};
use burraco_rules::Seat;
use tokio::time::Instant;

use super::handle::{Command, Mover};
use super::{Status, TableActor};
use crate::outbound::Outbox;

/// Whether the connection behind `out` reads 1.9's `quick_play_moved` (and is still there): an
/// older client is never moved into a table it cannot see.
fn reads_moves(out: &Outbox) -> bool {
    let moved = ServerMessage::QuickPlayMoved {
        from: String::new(),
        table: String::new(),
        seat: WireSeat(Seat::North),
    };
    out.reads(&moved) && !out.is_gone()
}

impl TableActor {
    /// A quick play's table still waiting, with nothing but connected 1.9 players: who they
    /// are (empty for any other table, or when anyone seated could not follow a move).
    pub(super) fn movers(&self) -> Vec<Mover> {
        let state = &self.state;
        if !self.quick
            || state.status != Status::Waiting
            || state.closed
            || state.private
            || state.tournament.is_some()
        {
            return Vec::new();
        }
        let mut movers = Vec::new();
        for slot in state.seats.iter().flatten() {
            let follows = slot.bot.is_none()
                && slot.grace_until.is_none()
                && slot.out.as_ref().is_some_and(reads_moves);
            if !follows {
                return Vec::new();
            }
            movers.push(Mover {
                player: slot.player.clone(),
                name: slot.name.clone(),
                account: slot.account.clone(),
            });
        }
        movers
    }

    /// Holds a seat for each of `movers` (from table `from`), all or none: the seats taken, by
    /// player. None when the table no longer waits, lacks the seats, or would seat an account
    /// twice at a rated table.
    pub(super) async fn hold_moved(
        &mut self,
        from: &str,
        movers: Vec<Mover>,
    ) -> Option<Vec<(String, Seat)>> {
        let state = &self.state;
        if movers.is_empty()
            || state.status != Status::Waiting
            || state.closed
            || state.private
            || state.tournament.is_some()
            || movers.iter().any(|m| self.seat_of(&m.player).is_some())
        {
            return None;
        }
        if state.rated {
            let mut accounts: Vec<&str> = state
                .seats
                .iter()
                .flatten()
                .filter_map(|s| s.account.as_ref().map(|a| a.id.as_str()))
                .collect();
            for mover in &movers {
                accounts.push(mover.account.as_ref().map(|a| a.id.as_str())?);
            }
            let all = accounts.len();
            accounts.sort_unstable();
            accounts.dedup();
            if accounts.len() != all {
                return None;
            }
        }
        let free: Vec<Seat> = self
            .players()
            .seats()
            .iter()
            .copied()
            .filter(|s| state.seats[s.index()].is_none())
            .collect();
        if free.len() < movers.len() {
            return None;
        }
        let placed: Vec<(Mover, Seat)> = movers.into_iter().zip(free).collect();
        let entries: Vec<TableEntry> = placed
            .iter()
            .map(|(mover, seat)| {
                let holder = SeatHolder {
                    player: mover.player.clone(),
                    name: mover.name.clone(),
                    bot: None,
                };
                let seat = seat.index() as u8;
                match &mover.account {
                    None => TableEntry::Seat {
                        seat,
                        holder: Some(holder),
                    },
                    Some(account) => TableEntry::AccountSeat {
                        seat,
                        holder,
                        account: account.clone(),
                    },
                }
            })
            .collect();
        if let Err(e) = self.append(&entries).await {
            tracing::warn!(from, "seats for quick play's move not saved: {e}");
            return None;
        }
        // Held as a seat whose connection is gone: a player who never comes frees it when the
        // grace runs out, as one who closed the tab does.
        let until = Instant::now() + self.shared.config.disconnect_grace;
        for (mover, seat) in &placed {
            self.shared
                .directory
                .seat_player(&mover.player, &self.id, *seat);
            if let Some(slot) = self.state.seats[seat.index()].as_mut() {
                slot.grace_until = Some(until);
            }
            let (name, bot) = (
                mover.name.clone(),
                mover.account.as_ref().is_some_and(|a| a.bot),
            );
            self.publish(None, |table, seq| ServerMessage::PlayerJoined {
                table,
                seq,
                seat: WireSeat(*seat),
                name,
                bot,
            });
        }
        self.refresh_info();
        // Every node finds the seats (the players' joins may come through any) before they hear.
        self.shared.backplane.listings.flush_table(&self.id).await;
        self.seats_changed();
        tracing::info!(
            from,
            moved = placed.len(),
            "quick play brought players here"
        );
        Some(
            placed
                .into_iter()
                .map(|(mover, seat)| (mover.player, seat))
                .collect(),
        )
    }

    /// Table `to` holds `seats` for this table's players: if they are exactly the players
    /// seated here, still waiting and able to follow, each leaves and hears where it sits now;
    /// otherwise `to` lets the seats go.
    pub(super) async fn move_out(&mut self, to: &str, seats: Vec<(String, Seat)>) {
        let movers = self.movers();
        let exact = !movers.is_empty()
            && movers.len() == seats.len()
            && movers
                .iter()
                .all(|m| seats.iter().any(|(player, _)| *player == m.player));
        if !exact {
            let players = seats.into_iter().map(|(player, _)| player).collect();
            self.release_elsewhere(to, players);
            return;
        }
        for (player, held) in seats {
            let Some(seat) = self.seat_of(&player) else {
                continue;
            };
            self.shared.directory.forget_seat(&player, &self.id);
            if let Some(out) = self.vacate(seat).await.and_then(|slot| slot.out) {
                out.send_message(ServerMessage::QuickPlayMoved {
                    from: self.id.to_string(),
                    table: to.to_owned(),
                    seat: WireSeat(held),
                });
            }
        }
        self.refresh_info();
        self.close_if_empty().await;
    }

    /// Seats held here for `players` whose move did not happen go (a seat its player has taken
    /// meanwhile stays).
    pub(super) async fn release_held(&mut self, players: &[String]) {
        if self.state.status != Status::Waiting {
            return;
        }
        for player in players {
            let Some(seat) = self.seat_of(player) else {
                continue;
            };
            let unclaimed = self.state.seats[seat.index()]
                .as_ref()
                .is_some_and(|slot| slot.out.is_none() && slot.bot.is_none());
            if unclaimed {
                self.shared.directory.forget_seat(player, &self.id);
                self.vacate(seat).await;
            }
        }
        self.refresh_info();
        self.close_if_empty().await;
    }

    /// Asks table `to` (here or on its node) to let the seats it holds for `players` go; off the
    /// actor, which has its own players to serve meanwhile.
    fn release_elsewhere(&self, to: &str, players: Vec<String>) {
        let (shared, to) = (self.shared.clone(), to.to_owned());
        self.shared.tracker.spawn(async move {
            if let Some(handle) = crate::lobby::find(&shared, &to).await {
                handle.send(Command::ReleaseHeld { players }).await;
            }
        });
    }
}
