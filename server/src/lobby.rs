//! The lobby's requests over the [`crate::directory::Directory`] (the tables' state lives in their
//! actors): the list, table creation with invite codes, finding a table. Quick play picks its
//! table in [`crate::quick_play`].

use std::sync::Arc;

use burraco_bot::Level;
use burraco_protocol::ErrorCode;
use burraco_protocol::convert::config_from_wire;
use burraco_protocol::wire::{LobbyTable, SeatLevel, TableSummary, WireSeat, WireSettings};
use burraco_ratings::Category;
use burraco_rules::{ClockMode, Config, Seat, TableSettings};

use crate::Shared;
use crate::backplane::{Backplane, Listing};
use crate::directory::Directory;
use crate::table::{self, TableHandle, TableInfo};

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
        .chain(elsewhere(shared).into_iter().map(|(_, info)| info))
        .filter(|info| !info.private && !info.finished)
        .map(|info| info.summary)
        .collect();
    tables.sort_by(|a, b| a.table.cmp(&b.table));
    tables
}

/// The 1.5 lobby: [`list`] with each table's rated flag and its seated accounts' levels
/// (read from the ratings' store in one call; none when it cannot be read).
pub async fn list_lobby(shared: &Shared) -> Vec<LobbyTable> {
    let infos: Vec<TableInfo> = shared
        .directory
        .tables()
        .iter()
        .map(TableHandle::info)
        .chain(elsewhere(shared).into_iter().map(|(_, info)| info))
        .filter(|info| !info.private && !info.finished)
        .collect();
    let levels = levels_at(shared, &infos).await;
    let mut tables: Vec<LobbyTable> = infos
        .into_iter()
        .map(|info| {
            let levels = seat_levels(&info, &levels);
            let summary = info.summary;
            LobbyTable {
                levels,
                table: summary.table,
                preset: summary.preset,
                players: summary.players,
                seats: summary.seats,
                status: summary.status,
                spectators: summary.spectators,
                rated: info.rated,
            }
        })
        .collect();
    tables.sort_by(|a, b| a.table.cmp(&b.table));
    tables
}

/// A table's rated flag and its seats' levels (1.5 `table_levels`).
pub async fn table_levels(shared: &Shared, info: &TableInfo) -> (bool, Vec<SeatLevel>) {
    let levels = levels_at(shared, std::slice::from_ref(info)).await;
    (info.rated, seat_levels(info, &levels))
}

type Levels = std::collections::HashMap<(String, Category), burraco_ratings::Level>;

/// The established levels of the accounts seated at `tables`, in each table's category, in one
/// read of the ratings' store (none when it cannot be read: levels are a nicety).
async fn levels_at(shared: &Shared, tables: &[TableInfo]) -> Levels {
    let wanted: Vec<(String, Category)> = tables
        .iter()
        .flat_map(|info| {
            let category = crate::ratings::category_of(info.summary.players);
            info.accounts
                .iter()
                .map(move |(_, account)| (account.clone(), category))
        })
        .collect();
    crate::ratings::levels(&*shared.ratings, &wanted)
        .await
        .unwrap_or_default()
}

fn seat_levels(info: &TableInfo, levels: &Levels) -> Vec<SeatLevel> {
    let category = crate::ratings::category_of(info.summary.players);
    info.accounts
        .iter()
        .filter_map(|(seat, account)| {
            let level = levels.get(&(account.clone(), category))?;
            Some(SeatLevel {
                seat: WireSeat(*Seat::ALL.get(usize::from(*seat))?),
                level: level.as_str().to_owned(),
            })
        })
        .collect()
}

/// Creates a table; returns its handle and invite code (private tables). With `bots`, the seats
/// the creator's join leaves free are filled by server bots of that level, and the clocks are
/// relaxed unless the settings name them (see [`relaxed_for_bots`]).
pub async fn create(
    shared: &Arc<Shared>,
    settings: &WireSettings,
    private: bool,
    bots: Option<Level>,
    rated: bool,
) -> Result<(TableHandle, Option<String>), LobbyError> {
    create_table(shared, settings, private, bots, rated, false).await
}

/// A public table quick play opens (`crate::quick_play`): while it waits, its players may be
/// brought to another table of the kind.
pub async fn create_for_quick_play(
    shared: &Arc<Shared>,
    settings: &WireSettings,
    rated: bool,
) -> Result<TableHandle, LobbyError> {
    let (handle, _) = create_table(shared, settings, false, None, rated, true).await?;
    Ok(handle)
}

async fn create_table(
    shared: &Arc<Shared>,
    settings: &WireSettings,
    private: bool,
    bots: Option<Level>,
    rated: bool,
    quick: bool,
) -> Result<(TableHandle, Option<String>), LobbyError> {
    if shared.shutdown.is_cancelled() || shared.backplane.node.is_draining() {
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
        .then(|| burraco_protocol::cards::to_hex(&crate::ids::random_bytes::<4>()).to_uppercase());
    if rated && bots.is_some() {
        return Err((
            ErrorCode::InvalidSettings,
            "a rated table seats accounts only, not server bots".into(),
        ));
    }
    let handle = table::create(shared, config, private, invite.clone(), bots, rated, quick)
        .await
        .map_err(|e| {
            (
                ErrorCode::InternalError,
                format!("could not create the table: {e}"),
            )
        })?;
    // Listed before the creator hears of it: its id and invite code work through every node
    // the moment the creator can pass them on.
    let backplane = &shared.backplane;
    let listing = Listing::new(
        backplane.node.name(),
        &handle.info(),
        invite.as_deref(),
        Vec::new(),
    );
    backplane.listings.publish(handle.id(), listing);
    backplane.listings.flush().await;
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
/// A table served by another node is reached through a forwarding handle; one it listed an
/// instant ago is found too (the listing is read through, not only from what this node saw).
pub async fn find(shared: &Arc<Shared>, id: &str) -> Option<TableHandle> {
    find_in(&shared.directory, &shared.backplane, id).await
}

/// [`find`] from the two things it reads, for the code that holds only those.
pub async fn find_in(
    directory: &Directory,
    backplane: &Backplane,
    id: &str,
) -> Option<TableHandle> {
    if let Some(handle) = directory.table(id) {
        return Some(handle);
    }
    let listing = backplane.listings.listing(id).await?;
    elsewhere_handle(backplane, id, &listing)
}

/// A table by id, as [`find`]; a table another node has just created (leased before its first
/// entry) or that is being taken over (in play, its lease lapsed) is waited for until this node
/// can reach it (at most a second): a tournament tells its players their tables as soon as it
/// created them, or took itself over.
pub async fn find_soon(shared: &Arc<Shared>, id: &str) -> Option<TableHandle> {
    if let Some(handle) = find(shared, id).await {
        return Some(handle);
    }
    let backplane = &shared.backplane;
    // Leased (just created), or in play with its lease lapsed (being taken over).
    let leased = backplane.leases.holder(id).await.ok().flatten().is_some();
    if !leased && !backplane.log.is_in_play(id).await.unwrap_or(false) {
        return None;
    }
    for _ in 0..40 {
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        if let Some(handle) = find(shared, id).await {
            return Some(handle);
        }
    }
    None
}

/// A table by invite code.
pub async fn by_invite(shared: &Arc<Shared>, code: &str) -> Option<TableHandle> {
    if let Some(handle) = shared.directory.table_by_invite(code) {
        return Some(handle);
    }
    let (id, listing) = shared.backplane.listings.by_invite(code).await?;
    elsewhere_handle(&shared.backplane, &id, &listing)
}

/// The seats a player holds, at this node's tables and at the others'.
pub fn seats_of(shared: &Shared, player: &str) -> Vec<(String, Seat)> {
    let mut seats = shared.directory.seats_of(player);
    for seat in shared.backplane.listings.seats_of(player) {
        if !seats.iter().any(|(t, _)| *t == seat.0) {
            seats.push(seat);
        }
    }
    seats
}

/// Tables served by other nodes, as the lobby knows them.
fn elsewhere(shared: &Shared) -> Vec<(String, TableInfo)> {
    shared
        .backplane
        .listings
        .elsewhere()
        .into_iter()
        .map(|(id, listing)| (id, listing.info()))
        .collect()
}

/// A forwarding handle to a table another node serves (`None` for one of this node's, which
/// the directory would have had).
fn elsewhere_handle(backplane: &Backplane, id: &str, listing: &Listing) -> Option<TableHandle> {
    (listing.owner != backplane.node.name()).then(|| {
        backplane
            .peers
            .remote_table(id, &listing.owner, listing.info())
    })
}
