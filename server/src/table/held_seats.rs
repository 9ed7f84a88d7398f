//! A table whose seats are held for named players before anyone connects: a tournament's round
//! creates its tables so. Its first entries are its creation, its tournament, its boards and
//! round clock, and a seat entry per held seat, logged like joins; the table starts from their
//! fold, as a restart (or a takeover on another node) does. Each player takes their seat with a
//! `join`, which finds them already seated and hands the seat to their connection.

use std::sync::Arc;

use burraco_protocol::convert::config_to_wire;
use burraco_protocol::log::{SeatHolder, TableEntry};
use burraco_rules::{Config, Seat};

use burraco_bot::Level;

use super::{TableActor, TableHandle, start_new};
use crate::Shared;
use crate::log::LogError;

/// Duplicate boards: the seeds of the match's hands, in order, and its first dealer.
#[derive(Debug, Clone)]
pub struct Boards {
    pub seeds: Vec<[u8; 32]>,
    pub first_dealer: Seat,
}

impl TableActor {
    /// The match's round clock: its director's, else the preset's.
    pub(super) fn round_clock_ms(&self) -> Option<u64> {
        self.state
            .round_clock
            .or_else(|| self.state.config.round_clock_ms())
    }

    /// The board seed of hand `number` (from 1), if the table plays duplicate boards.
    pub(super) fn board_seed(&self, number: u32) -> Option<[u8; 32]> {
        let index = usize::try_from(number).ok()?.checked_sub(1)?;
        self.state.boards.as_ref()?.seeds.get(index).copied()
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
// The table's first entries' parts, each from the tournament's state: a struct of them would
// only be unpacked again here.
#[allow(clippy::too_many_arguments)]
pub async fn create_held(
    shared: &Arc<Shared>,
    tournament: &str,
    id: String,
    config: Config,
    held: Vec<HeldSeat>,
    boards: Option<Boards>,
    round_clock_ms: Option<u64>,
    rated: bool,
) -> Result<TableHandle, LogError> {
    // Leased before its first entry, as any new table (see `table::create`).
    if !shared.backplane.leases.take(&id).await {
        return Err(LogError::Unavailable("cannot lease a new table".into()));
    }
    let mut entries = held_entries(tournament, &config, &held, boards.as_ref(), round_clock_ms);
    if rated {
        // A rated tournament's table: expected by the ratings' store before its first entry,
        // as `table::create` does for a rated table (exactly once, by the table's key).
        shared
            .ratings
            .expect(&id, crate::ids::unix_ms())
            .await
            .map_err(|e| LogError::Unavailable(format!("the ratings' store: {e}")))?;
        entries.insert(1, TableEntry::Rated);
    }
    // Folded as a restore folds them: the seats, the tournament, its boards and clock.
    start_new(shared, id, &entries, false).await
}

/// The first entries of a tournament's table: its creation, its tournament, its boards and round
/// clock, and a seat entry per held seat.
pub(super) fn held_entries(
    tournament: &str,
    config: &Config,
    held: &[HeldSeat],
    boards: Option<&Boards>,
    round_clock_ms: Option<u64>,
) -> Vec<TableEntry> {
    let mut entries = vec![TableEntry::Created {
        settings: serde_json::to_string(&config_to_wire(config)).expect("settings serialize"),
        private: false,
        invite: None,
        bots: None,
        created_ms: crate::ids::unix_ms(),
    }];
    entries.push(TableEntry::Tournament {
        id: tournament.to_owned(),
    });
    if let Some(b) = boards {
        entries.push(TableEntry::Boards {
            seeds: b.seeds.clone(),
            first_dealer: b.first_dealer.index() as u8,
        });
    }
    if let Some(ms) = round_clock_ms {
        entries.push(TableEntry::RoundClock { ms });
    }
    for h in held {
        entries.push(TableEntry::Seat {
            seat: h.seat.index() as u8,
            holder: Some(SeatHolder {
                player: h.player.clone(),
                name: h.name.clone(),
                bot: h.bot.map(|level| level.code().to_owned()),
            }),
        });
    }
    entries
}
