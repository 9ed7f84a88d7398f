//! The lobby's requests over the [`crate::directory::Directory`] (the tables' state lives in their
//! actors): the list, table creation with invite codes, finding a table, and quick play.

use std::sync::Arc;

use burraco_bot::Level;
use burraco_protocol::ErrorCode;
use burraco_protocol::convert::config_from_wire;
use burraco_protocol::wire::{TableSummary, WireSettings};
use burraco_rules::{ClockMode, Config, Players, Preset, TableSettings};

use crate::Shared;
use crate::table::{self, TableHandle};

/// Why a lobby request failed: (code, message).
pub type LobbyError = (ErrorCode, String);

/// Every public table still waiting or playing, by id. A finished table lingers a while for
/// its players' `sync` and records, but there is nothing left in it to join or watch.
pub fn list(shared: &Shared) -> Vec<TableSummary> {
    let mut tables: Vec<TableSummary> = shared
        .directory
        .tables()
        .iter()
        .map(TableHandle::info)
        .filter(|info| !info.private && !info.finished)
        .map(|info| info.summary)
        .collect();
    tables.sort_by(|a, b| a.table.cmp(&b.table));
    tables
}

/// Creates a table; returns its handle and invite code (private tables). With `bots`, the seats
/// the creator's join leaves free are filled by server bots of that level, and the clocks are
/// relaxed unless the settings name them (see [`relaxed_for_bots`]).
pub async fn create(
    shared: &Arc<Shared>,
    settings: &WireSettings,
    private: bool,
    bots: Option<Level>,
) -> Result<(TableHandle, Option<String>), LobbyError> {
    if shared.shutdown.is_cancelled() {
        return Err((
            ErrorCode::ShuttingDown,
            "the server is shutting down".into(),
        ));
    }
    let mut config =
        config_from_wire(settings).map_err(|e| (ErrorCode::InvalidSettings, e.to_string()))?;
    if bots.is_some() && settings.clocks.is_none() {
        config = relaxed_for_bots(config);
    }
    let invite = private
        .then(|| burraco_protocol::cards::to_hex(&crate::random_bytes::<4>()).to_uppercase());
    let handle = table::create(shared, config, private, invite.clone(), bots)
        .await
        .map_err(|e| {
            (
                ErrorCode::InternalError,
                format!("could not create the table: {e}"),
            )
        })?;
    Ok((handle, invite))
}

/// A table with bots is most often one person learning or playing alone, on any device: the
/// federation's move clocks, made for tournament rooms, are doubled unless the creator asked for
/// them. A preset without clocks keeps none.
fn relaxed_for_bots(config: Config) -> Config {
    if config.clocks() != ClockMode::Federation {
        return config;
    }
    let relaxed = TableSettings {
        clocks: Some(ClockMode::Relaxed),
        ..config.settings()
    };
    // Relaxed is valid wherever federation clocks are; keep the settings as given otherwise.
    Config::new(&relaxed).unwrap_or(config)
}

/// A table by id; private tables are found by id too (the invite code is what lets you sit).
pub fn find(shared: &Shared, id: &str) -> Option<TableHandle> {
    shared.directory.table(id)
}

/// A table by invite code.
pub fn by_invite(shared: &Shared, code: &str) -> Option<TableHandle> {
    shared.directory.table_by_invite(code)
}

/// The first open public table of this kind with a free seat.
pub fn quick_match(shared: &Shared, preset: Preset, players: Players) -> Option<TableHandle> {
    let mut open: Vec<(String, TableHandle)> = shared
        .directory
        .tables()
        .into_iter()
        .filter_map(|t| {
            let info = t.info();
            let fits = !info.private
                && info.waiting
                && info.free_seats > 0
                && info.summary.preset == preset.code()
                && usize::from(info.summary.players) == players.count();
            fits.then(|| (t.id().to_owned(), t))
        })
        .collect();
    open.sort_by(|a, b| a.0.cmp(&b.0));
    open.into_iter().next().map(|(_, h)| h)
}
