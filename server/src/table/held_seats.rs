//! A table whose seats are held for named players before anyone connects: a tournament's round
//! creates its tables so. The seats are logged like joins (a restart seats the players again,
//! as for any table), and each player takes theirs with a `join`, which finds them already
//! seated and hands the seat to their connection.

use std::sync::Arc;

use burraco_protocol::convert::config_to_wire;
use burraco_protocol::log::{SeatHolder, TableEntry};
use burraco_rules::{Config, Seat};

use burraco_bot::Level;

use super::{BotRole, SeatSlot, TableActor, TableHandle, spawn};
use crate::Shared;
use crate::log::LogError;

/// Duplicate boards: the seeds of the match's hands, in order, and its first dealer.
#[derive(Debug, Clone)]
pub struct Boards {
    pub seeds: Vec<[u8; 32]>,
    pub first_dealer: Seat,
}

impl TableActor {
    /// The board seed of hand `number` (from 1), if the table plays duplicate boards.
    /// The match's round clock: its director's, else the preset's.
    pub(super) fn round_clock_ms(&self) -> Option<u64> {
        self.round_clock.or_else(|| self.config.round_clock_ms())
    }

    pub(super) fn board_seed(&self, number: u32) -> Option<[u8; 32]> {
        let index = usize::try_from(number).ok()?.checked_sub(1)?;
        self.boards.as_ref()?.seeds.get(index).copied()
    }
}

/// A player a seat is held for.
#[derive(Debug, Clone)]
pub struct HeldSeat {
    pub seat: Seat,
    pub player: String,
    pub name: String,
    /// A server bot plays the seat (a Sit&Go's filled place): seated ready.
    pub bot: Option<Level>,
}

/// Creates table `id` (public, so anyone may watch; every seat is held, so nobody else sits) with
/// `held` seated, logs it and starts its actor. The players have no disconnect grace until they
/// first come: the seat waits for them.
pub async fn create_held(
    shared: &Arc<Shared>,
    tournament: &str,
    id: String,
    config: Config,
    held: Vec<HeldSeat>,
    boards: Option<Boards>,
    round_clock_ms: Option<u64>,
) -> Result<TableHandle, LogError> {
    // Leased before its first entry, as any new table (see `table::create`).
    if !shared.backplane.leases.take(&id).await {
        return Err(LogError::Unavailable("cannot lease a new table".into()));
    }
    let mut entries = vec![TableEntry::Created {
        settings: serde_json::to_string(&config_to_wire(&config)).expect("settings serialize"),
        private: false,
        invite: None,
        bots: None,
        created_ms: crate::unix_ms(),
    }];
    entries.push(TableEntry::Tournament {
        id: tournament.to_owned(),
    });
    if let Some(b) = &boards {
        entries.push(TableEntry::Boards {
            seeds: b.seeds.clone(),
            first_dealer: b.first_dealer.index() as u8,
        });
    }
    if let Some(ms) = round_clock_ms {
        entries.push(TableEntry::RoundClock { ms });
    }
    for h in &held {
        entries.push(TableEntry::Seat {
            seat: h.seat.index() as u8,
            holder: Some(SeatHolder {
                player: h.player.clone(),
                name: h.name.clone(),
                bot: h.bot.map(|level| level.code().to_owned()),
            }),
        });
    }
    let encoded = entries.iter().map(TableEntry::encode).collect();
    let log_len = shared.backplane.log.append(&id, 0, encoded).await?;
    let (mut actor, handle) = TableActor::new(shared.clone(), id.into(), config, false);
    actor.log_len = log_len;
    actor.boards = boards;
    actor.round_clock = round_clock_ms;
    actor.tournament = Some(tournament.into());
    for h in held {
        if h.bot.is_none() {
            shared.directory.seat_player(&h.player, &actor.id, h.seat);
        }
        actor.seats[h.seat.index()] = Some(SeatSlot {
            player: h.player,
            name: h.name,
            ready: h.bot.is_some(),
            out: None,
            grace_until: None,
            bot: h.bot.map(|level| BotRole {
                level,
                stand_in: false,
            }),
        });
        if h.bot.is_some() {
            actor.start_bot(h.seat);
        }
    }
    actor.refresh_info();
    spawn(actor, handle.clone());
    Ok(handle)
}
