//! The bot arena online (issue 23): bot accounts say they are ready for arena play (protocol
//! 1.7 `arena_ready`) and the server matches them, against each other or, when no other bot is
//! ready within `ServerConfig::arena_wait`, against a server bot of the level they named, into
//! rated matches on duplicate boards: the same deals at two tables, the seats swapped (the
//! offline `burraco-bot arena`'s rule, and a duplicate tournament's boards), at most
//! `ServerConfig::arena_daily_cap` a day per bot. A bot may also challenge a ready bot account
//! or a level at once (`arena_challenge`).
//!
//! An arena match is two tables created with their seats held (`table::create_held`, the
//! tournaments' path), whose logs name the match (`TableEntry::Tournament` with an `A-` id, so
//! each table tells nothing else and the projections find its sibling), hold its boards, hold
//! each seat for its bot account (not for the session that was ready: [`reclaim`] gives a new
//! session of the account its seats and tells it the match again after every welcome) and the
//! first table's start deadline (`TableEntry::StartBy`; the second's is logged when the first
//! ends, [`table_ended`]). A table not started by its deadline ends by the no-show rule
//! (`table/arena_table.rs`). The match is settled once, from its tables' logs, by one more
//! match-end projection ([`settle::settle_log`], run by `crate::projections` for every table):
//! rated as one head-to-head match in the bots' pool (`Ratings::apply`, keyed by the arena id,
//! so exactly once), a leaver or a no-show losing it as a leaver does, or void when nobody came
//! ([`result::settle`]). A server bot is its level's fixed anchor (`ratings::finished::ANCHORS`):
//! it never moves.
//!
//! What the arena keeps in memory (the queue of ready bots) is lost with the node: a bot says
//! ready again on its next connection. What it stores ([`store`]) counts the daily cap, lists
//! the leaderboard's bots and finds a bot account's matches in play for [`reclaim`].

pub mod http;
pub mod reclaim;
pub mod result;
pub mod settle;
pub mod store;

use std::sync::{Arc, Mutex};

use burraco_bot::Level;
use burraco_protocol::ErrorCode;
use burraco_protocol::log::SeatAccount;
use burraco_protocol::wire::{ArenaTable, ServerMessage, WireSeat, WireSettings};
use burraco_rules::Seat;
use tokio::time::Instant;

use crate::Shared;
use crate::outbound::Outbox;
use crate::port::PortError;
use crate::table::{Boards, HeldExtras, HeldSeat};

/// An arena match's id starts so (`A-` and 8 random bytes in hex); its tables are
/// [`tables_of`] it.
pub const ARENA_PREFIX: &str = "A-";

/// The level a bot meets when it names none.
pub const DEFAULT_LEVEL: Level = Level::Expert;

/// Whether `id` (a table log's `Tournament` entry) names an arena match.
pub fn is_arena(id: &str) -> bool {
    id.starts_with(ARENA_PREFIX)
}

/// The two tables of arena match `arena`, in the order they are played: at the first the bot
/// that asked sits South, at the second North.
pub fn tables_of(arena: &str) -> [String; 2] {
    let key = arena.strip_prefix(ARENA_PREFIX).unwrap_or(arena);
    [format!("t-a{key}1"), format!("t-a{key}2")]
}

/// The table of arena match `arena` played before `table` (`None` for the first).
pub fn table_before(arena: &str, table: &str) -> Option<String> {
    let tables = tables_of(arena);
    let at = tables.iter().position(|t| t == table)?;
    at.checked_sub(1).map(|before| tables[before].clone())
}

/// The seat `side` holds at each table of a match (0: the bot that asked, South first).
pub fn seats_of_side(side: usize) -> [Seat; 2] {
    if side == 0 {
        [Seat::South, Seat::North]
    } else {
        [Seat::North, Seat::South]
    }
}

/// A bot account in the queue, on the connection that said it is ready.
#[derive(Debug, Clone)]
pub struct Entrant {
    pub account: String,
    pub name: String,
    /// Its session's player id: the match's seats name it first (they are the account's: any
    /// session of the account takes them over, `reclaim`).
    pub player: String,
    pub out: Outbox,
}

#[derive(Debug)]
struct Waiting {
    entrant: Entrant,
    level: Level,
    since: Instant,
}

/// Who a bot is matched with.
#[derive(Debug, Clone)]
pub enum Opponent {
    Bot(Entrant),
    ServerBot(Level),
}

/// The bots ready for arena play on this node.
#[derive(Debug, Default)]
pub struct Arena {
    queue: Mutex<Vec<Waiting>>,
    wake: tokio::sync::Notify,
}

impl Arena {
    fn queue(&self) -> std::sync::MutexGuard<'_, Vec<Waiting>> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A refusal of an arena request: its code and message.
pub type Refusal = (ErrorCode, String);

/// The bot's arena matches of the last 24 hours, refused once at the daily cap.
async fn under_cap(shared: &Shared, account: &str) -> Result<u32, Refusal> {
    let since = crate::ids::unix_ms() - 86_400_000;
    let today = shared
        .arena_store
        .matches_since(account, since)
        .await
        .map_err(|e| (ErrorCode::InternalError, format!("the arena's store: {e}")))?;
    let cap = shared.config.arena_daily_cap;
    if today >= cap {
        return Err((
            ErrorCode::ArenaDailyCap,
            format!("{today} arena matches in the last 24 hours: the daily number is {cap}"),
        ));
    }
    Ok(today)
}

/// A server bot level the arena plays: one with a fixed anchor rating (L0-L3; L4 has none yet,
/// and its 1 s a move would hold a bot permit through a whole match).
fn arena_level(code: &str) -> Option<Level> {
    Level::from_code(code).filter(|l| {
        crate::ratings::finished::anchor(&crate::ratings::finished::anchor_account(&l.short()))
            .is_some()
    })
}

/// A level named by a request: `"L0"`..`"L3"` or its name; `None` (absent) the default.
fn level_of(named: Option<&str>) -> Result<Level, Refusal> {
    match named {
        None => Ok(DEFAULT_LEVEL),
        Some(code) => arena_level(code).ok_or_else(|| {
            (
                ErrorCode::InvalidMessage,
                format!("{code:?} is no level: L0 to L3 (random, greedy, expert, search)"),
            )
        }),
    }
}

/// `arena_ready`: the bot joins the queue (again: its newer connection replaces the older). The
/// reply (`arena_queued`) is sent here, before the bot is queued, so it comes before any
/// `arena_match`.
pub async fn ready(
    shared: &Arc<Shared>,
    entrant: Entrant,
    level: Option<&str>,
    id: u64,
) -> Result<(), Refusal> {
    let level = level_of(level)?;
    let today = under_cap(shared, &entrant.account).await?;
    entrant.out.send_message(ServerMessage::ArenaQueued {
        id,
        waiting: true,
        matches_today: today,
        daily_cap: shared.config.arena_daily_cap,
    });
    {
        let mut queue = shared.arena.queue();
        queue.retain(|w| w.entrant.account != entrant.account);
        queue.push(Waiting {
            entrant,
            level,
            since: Instant::now(),
        });
    }
    shared.arena.wake.notify_one();
    Ok(())
}

/// `arena_challenge`: a match at once against a level, or against a bot account waiting in the
/// queue (by id or name), taken out of it. The reply (`arena_queued`) is sent here, before the
/// match is made, so it comes before `arena_match`.
pub async fn challenge(
    shared: &Arc<Shared>,
    entrant: Entrant,
    opponent: &str,
    id: u64,
) -> Result<(), Refusal> {
    let today = under_cap(shared, &entrant.account).await?;
    let opponent = match arena_level(opponent) {
        Some(level) => {
            let mut queue = shared.arena.queue();
            queue.retain(|w| w.entrant.account != entrant.account);
            Opponent::ServerBot(level)
        }
        None => {
            let mut queue = shared.arena.queue();
            // A challenger waiting in the queue leaves it: it is matched here.
            queue.retain(|w| w.entrant.account != entrant.account);
            let found = queue.iter().position(|w| {
                w.entrant.account != entrant.account
                    && !w.entrant.out.is_gone()
                    && (w.entrant.account == opponent
                        || w.entrant.name.eq_ignore_ascii_case(opponent))
            });
            match found {
                Some(at) => Opponent::Bot(queue.remove(at).entrant),
                None => {
                    return Err((
                        ErrorCode::OpponentUnavailable,
                        format!("{opponent:?} is neither a level nor a bot ready for the arena"),
                    ));
                }
            }
        }
    };
    entrant.out.send_message(ServerMessage::ArenaQueued {
        id,
        waiting: false,
        matches_today: today,
        daily_cap: shared.config.arena_daily_cap,
    });
    spawn_match(shared, entrant, opponent);
    Ok(())
}

fn spawn_match(shared: &Arc<Shared>, entrant: Entrant, opponent: Opponent) {
    let shared = shared.clone();
    let tracker = shared.tracker.clone();
    tracker.spawn(async move {
        if let Err(e) = make_match(&shared, entrant, opponent).await {
            tracing::warn!("an arena match not made: {e}");
        }
    });
}

/// The matcher: pairs the two longest-waiting bots as soon as two are ready, and gives a bot
/// that waited `arena_wait` alone a server bot of its level. Runs on every node for the bots
/// connected there (matching across nodes would need a shared queue; a cluster's bots are
/// matched with those on their node, or with server bots).
pub fn start(shared: &Arc<Shared>) {
    let shared = shared.clone();
    let tracker = shared.tracker.clone();
    tracker.spawn(async move {
        let tick = (shared.config.arena_wait / 4).clamp(
            std::time::Duration::from_millis(20),
            std::time::Duration::from_secs(1),
        );
        loop {
            tokio::select! {
                () = shared.shutdown.cancelled() => return,
                () = shared.arena.wake.notified() => {}
                () = tokio::time::sleep(tick) => {}
            }
            for (entrant, opponent) in pairs(&shared.arena, shared.config.arena_wait) {
                spawn_match(&shared, entrant, opponent);
            }
        }
    });
}

/// Takes the matches the queue makes now out of it (the bots gone are dropped).
fn pairs(arena: &Arena, wait: std::time::Duration) -> Vec<(Entrant, Opponent)> {
    let mut queue = arena.queue();
    queue.retain(|w| !w.entrant.out.is_gone());
    queue.sort_by_key(|w| w.since);
    let mut made = Vec::new();
    while queue.len() >= 2 {
        let first = queue.remove(0);
        let second = queue.remove(0);
        made.push((first.entrant, Opponent::Bot(second.entrant)));
    }
    if let Some(alone) = queue.first()
        && alone.since.elapsed() >= wait
    {
        let alone = queue.remove(0);
        made.push((alone.entrant, Opponent::ServerBot(alone.level)));
    }
    made
}

/// The table settings of an arena match: FITAB head to head, `arena_hands` hands, the
/// federation's clocks (a bot that stops moving has its moves played by the clock).
fn arena_settings(hands: u8) -> WireSettings {
    WireSettings {
        preset: "fitab".into(),
        players: Some(2),
        hands: Some(hands),
        target: None,
        clocks: Some("federation".into()),
        semipulito: None,
        close_requires_pulito: None,
    }
}

/// Makes an arena match: recorded (it counts toward both bots' daily cap), its boards drawn, its
/// two tables created with the seats held (swapped at the second), and the bots told.
pub async fn make_match(
    shared: &Arc<Shared>,
    a: Entrant,
    b: Opponent,
) -> Result<String, PortError> {
    let arena = crate::ids::random_id("A", 8);
    let hands = shared.config.arena_hands.max(1);
    let config = burraco_protocol::convert::config_from_wire(&arena_settings(hands))
        .map_err(|e| PortError(format!("the arena's settings: {e:?}")))?;
    let (bot_b, name_b) = match &b {
        Opponent::Bot(e) => (e.account.clone(), e.name.clone()),
        Opponent::ServerBot(level) => (
            crate::ratings::finished::anchor_account(&level.short()),
            crate::bots::name(*level),
        ),
    };
    let made = store::MadeMatch {
        arena: arena.clone(),
        bot_a: a.account.clone(),
        name_a: a.name.clone(),
        bot_b: bot_b.clone(),
        name_b: name_b.clone(),
        created_ms: crate::ids::unix_ms(),
    };
    shared.arena_store.record(&made).await?;
    // The deals: fixed in tests (`fixed_seed`), else fresh; the same at both tables.
    let seeds: Vec<[u8; 32]> = (0..hands)
        .map(|_| {
            shared
                .config
                .fixed_seed
                .unwrap_or_else(crate::ids::random_bytes::<32>)
        })
        .collect();
    let first_dealer = if crate::ids::random_bytes::<1>()[0].is_multiple_of(2) {
        Seat::South
    } else {
        Seat::North
    };
    let boards = Boards {
        seeds: seeds.clone(),
        first_dealer,
    };
    // A duplicate board's hand records stay back until both tables played it (the arena's
    // projection lets them out).
    for seed in &seeds {
        let commitment = burraco_rules::Seed(*seed).commitment_hex();
        shared.backplane.embargo.set(&commitment, true);
    }
    // Each seat is held for its bot account (any session of it may claim it); a server bot's
    // for the server's bots.
    let bot_seat = |e: &Entrant, seat: Seat| HeldSeat {
        seat,
        player: e.player.clone(),
        name: e.name.clone(),
        bot: None,
        account: Some(SeatAccount {
            id: e.account.clone(),
            bot: true,
        }),
    };
    let server_bot_player = crate::bots::player_id();
    let held_b = |seat: Seat| match &b {
        Opponent::Bot(e) => bot_seat(e, seat),
        Opponent::ServerBot(level) => HeldSeat {
            seat,
            player: server_bot_player.clone(),
            name: name_b.clone(),
            bot: Some(*level),
            account: None,
        },
    };
    let ids = tables_of(&arena);
    let layouts = [
        vec![bot_seat(&a, Seat::South), held_b(Seat::North)],
        vec![held_b(Seat::South), bot_seat(&a, Seat::North)],
    ];
    for (at, (id, held)) in ids.iter().zip(layouts).enumerate() {
        // The first table's turn is now: its start deadline is logged with it. The second's
        // comes with the first's end (`table_ended`).
        let start_by_ms = (at == 0).then(|| made.created_ms.saturating_add(start_limit_ms(shared)));
        let extras = HeldExtras {
            boards: Some(boards.clone()),
            round_clock_ms: None,
            start_by_ms,
        };
        crate::table::create_held(shared, &arena, id.clone(), config, held, extras, false)
            .await
            .map_err(|e| PortError(format!("an arena table: {e}")))?;
    }
    shared.backplane.listings.flush().await;
    let tables = |side: usize| {
        ids.iter()
            .zip(seats_of_side(side))
            .map(|(table, seat)| ArenaTable {
                table: table.clone(),
                seat: WireSeat(seat),
            })
            .collect()
    };
    a.out.send_message(notice(&made, 0, hands, tables(0)));
    if let Opponent::Bot(e) = &b {
        e.out.send_message(notice(&made, 1, hands, tables(1)));
    }
    tracing::info!(%arena, a = %a.account, b = %bot_b, "arena match made");
    Ok(arena)
}

/// The start limit of an arena table, in milliseconds.
fn start_limit_ms(shared: &Shared) -> i64 {
    i64::try_from(shared.config.arena_start_limit.as_millis()).unwrap_or(i64::MAX)
}

/// The `arena_match` telling side `side` of match `made` (0: the bot that asked) where to play:
/// `tables`, those still to play, each with its seat.
pub fn notice(
    made: &store::MadeMatch,
    side: usize,
    hands: u8,
    tables: Vec<ArenaTable>,
) -> ServerMessage {
    let server_bot = made
        .bot_b
        .strip_prefix(crate::ratings::finished::ANCHOR_PREFIX)
        .map(str::to_owned);
    let (opponent, opponent_account, server_bot) = if side == 0 {
        let account = server_bot.is_none().then(|| made.bot_b.clone());
        (made.name_b.clone(), account, server_bot)
    } else {
        (made.name_a.clone(), Some(made.bot_a.clone()), None)
    };
    ServerMessage::ArenaMatch {
        arena: made.arena.clone(),
        opponent,
        opponent_account,
        server_bot,
        hands,
        tables,
    }
}

/// Table `table` of arena match `arena` (a table's tournament, when it is one) ended its match
/// at `ended_ms`: the next table's turn came, and its start deadline is logged there (on
/// whichever node serves it). A notice lost with a node is made up for when the next table is
/// started again (`table/arena_table.rs`, `look_for_turn`).
pub fn table_ended(shared: &Arc<Shared>, arena: &str, table: &str, ended_ms: i64) {
    if !is_arena(arena) {
        return;
    }
    let tables = tables_of(arena);
    let Some(next) = tables
        .iter()
        .position(|t| t == table)
        .and_then(|at| tables.get(at + 1))
        .cloned()
    else {
        return;
    };
    let deadline_ms = ended_ms.saturating_add(start_limit_ms(shared));
    let shared = shared.clone();
    let tracker = shared.tracker.clone();
    tracker.spawn(async move {
        match crate::lobby::find_soon(&shared, &next).await {
            Some(handle) => {
                handle
                    .send(crate::table::Command::ArenaTurn { deadline_ms })
                    .await;
            }
            None => tracing::warn!(table = %next, "an arena table's turn not told: not served"),
        }
    });
}

/// Table `table` of arena match `arena` ended unplayed (the no-show rule): the match's tables
/// after it close too, unplayed.
pub fn close_later_tables(shared: &Arc<Shared>, arena: &str, table: &str) {
    let tables = tables_of(arena);
    let Some(at) = tables.iter().position(|t| t == table) else {
        return;
    };
    let later: Vec<String> = tables[at + 1..].to_vec();
    let shared = shared.clone();
    let tracker = shared.tracker.clone();
    tracker.spawn(async move {
        for id in later {
            if let Some(handle) = crate::lobby::find(&shared, &id).await {
                handle.send(crate::table::Command::Close).await;
            }
        }
    });
}
