//! A table whose seats are held for named players before anyone connects: a tournament's round
//! creates its tables so, and the arena its matches' (`crate::arena`). Its first entries are its
//! creation, its tournament, its boards, round clock and start deadline, and a seat entry per
//! held seat, logged like joins; the table starts from their fold, as a restart (or a takeover on
//! another node) does. Each player takes their seat with a `join`, which finds them already
//! seated and hands the seat to their connection.

use std::sync::Arc;

use burraco_protocol::convert::config_to_wire;
use burraco_protocol::log::{SeatAccount, SeatHolder, TableEntry};
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
    /// The account the seat is held for, logged with it (`AccountSeat`): an arena seat is its
    /// bot account's, whichever session of the account comes for it (`arena_table.rs`). `None`:
    /// the seat is its session's player's (a tournament's entrant, who may be a guest).
    pub account: Option<SeatAccount>,
}

/// What else a held table's log starts with, besides its seats: its tournament's boards and
/// round clock, and an arena table's start deadline.
#[derive(Debug, Clone, Default)]
pub struct HeldExtras {
    pub boards: Option<Boards>,
    pub round_clock_ms: Option<u64>,
    /// `TableEntry::StartBy`: the arena's first table's (Unix ms).
    pub start_by_ms: Option<i64>,
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
    extras: HeldExtras,
    rated: bool,
) -> Result<TableHandle, LogError> {
    // Leased before its first entry, as any new table (see `table::create`).
    if !shared.backplane.leases.take(&id).await {
        return Err(LogError::Unavailable("cannot lease a new table".into()));
    }
    let mut entries = held_entries(tournament, &config, &held, &extras);
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

/// The first entries of a tournament's (or the arena's) table: its creation, its tournament, its
/// boards, round clock and start deadline, and a seat entry per held seat (with its account, if
/// it is held for one).
pub(super) fn held_entries(
    tournament: &str,
    config: &Config,
    held: &[HeldSeat],
    extras: &HeldExtras,
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
    if let Some(b) = &extras.boards {
        entries.push(TableEntry::Boards {
            seeds: b.seeds.clone(),
            first_dealer: b.first_dealer.index() as u8,
        });
    }
    if let Some(ms) = extras.round_clock_ms {
        entries.push(TableEntry::RoundClock { ms });
    }
    if let Some(deadline_ms) = extras.start_by_ms {
        entries.push(TableEntry::StartBy { deadline_ms });
    }
    for h in held {
        let seat = h.seat.index() as u8;
        let holder = SeatHolder {
            player: h.player.clone(),
            name: h.name.clone(),
            bot: h.bot.map(|level| level.code().to_owned()),
        };
        entries.push(match &h.account {
            Some(account) => TableEntry::AccountSeat {
                seat,
                holder,
                account: account.clone(),
            },
            None => TableEntry::Seat {
                seat,
                holder: Some(holder),
            },
        });
    }
    entries
}
