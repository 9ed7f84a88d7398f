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
//! each table tells nothing else and the projections find its sibling) and hold its boards. It
//! is rated once both tables ended, by one more match-end projection ([`settle_log`], run by
//! `crate::projections` for every table): whichever table ends last reads both logs and rates
//! the pair as one head-to-head match in the bots' pool (`Ratings::apply`, keyed by the arena
//! id, so exactly once). A server bot is its level's fixed anchor
//! (`ratings::finished::ANCHORS`): it never moves.
//!
//! What the arena keeps in memory (the queue of ready bots) is lost with the node: a bot says
//! ready again on its next connection. What it stores ([`store`]) counts the daily cap and lists
//! the leaderboard's bots.

pub mod http;
pub mod result;
pub mod store;

use std::sync::{Arc, Mutex};

use burraco_bot::Level;
use burraco_protocol::ErrorCode;
use burraco_protocol::wire::{ArenaTable, ServerMessage, WireSeat, WireSettings};
use burraco_rules::Seat;
use tokio::time::Instant;

use crate::Shared;
use crate::backplane::Embargo;
use crate::backplane::port::PortError;
use crate::log::TableLog;
use crate::outbound::Outbox;
use crate::ratings::{Applied, Policy, Ratings};
use crate::table::{Boards, HeldSeat};

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

/// A bot account in the queue, on the connection that said it is ready.
#[derive(Debug, Clone)]
pub struct Entrant {
    pub account: String,
    pub name: String,
    /// Its session's player id: the seats are held for it.
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
    shared
        .arena_store
        .record(&store::MadeMatch {
            arena: arena.clone(),
            bot_a: a.account.clone(),
            name_a: a.name.clone(),
            bot_b: bot_b.clone(),
            name_b: name_b.clone(),
            created_ms: crate::ids::unix_ms(),
        })
        .await?;
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
    let held_a = |seat: Seat| HeldSeat {
        seat,
        player: a.player.clone(),
        name: a.name.clone(),
        bot: None,
    };
    let server_bot_player = crate::bots::player_id();
    let held_b = |seat: Seat| match &b {
        Opponent::Bot(e) => HeldSeat {
            seat,
            player: e.player.clone(),
            name: e.name.clone(),
            bot: None,
        },
        Opponent::ServerBot(level) => HeldSeat {
            seat,
            player: server_bot_player.clone(),
            name: name_b.clone(),
            bot: Some(*level),
        },
    };
    let ids = tables_of(&arena);
    let layouts = [
        vec![held_a(Seat::South), held_b(Seat::North)],
        vec![held_b(Seat::South), held_a(Seat::North)],
    ];
    for (id, held) in ids.iter().zip(layouts) {
        crate::table::create_held(
            shared,
            &arena,
            id.clone(),
            config,
            held,
            Some(boards.clone()),
            None,
            false,
        )
        .await
        .map_err(|e| PortError(format!("an arena table: {e}")))?;
    }
    shared.backplane.listings.flush().await;
    let tables = |first: Seat, second: Seat| {
        vec![
            ArenaTable {
                table: ids[0].clone(),
                seat: WireSeat(first),
            },
            ArenaTable {
                table: ids[1].clone(),
                seat: WireSeat(second),
            },
        ]
    };
    let (server_bot, b_account) = match &b {
        Opponent::Bot(e) => (None, Some(e.account.clone())),
        Opponent::ServerBot(level) => (Some(level.short()), None),
    };
    a.out.send_message(ServerMessage::ArenaMatch {
        arena: arena.clone(),
        opponent: name_b,
        opponent_account: b_account,
        server_bot,
        hands,
        tables: tables(Seat::South, Seat::North),
    });
    if let Opponent::Bot(e) = &b {
        e.out.send_message(ServerMessage::ArenaMatch {
            arena: arena.clone(),
            opponent: a.name.clone(),
            opponent_account: Some(a.account.clone()),
            server_bot: None,
            hands,
            tables: tables(Seat::North, Seat::South),
        });
    }
    tracing::info!(%arena, a = %a.account, b = %bot_b, "arena match made");
    watch_start(shared, ids);
    Ok(arena)
}

/// A table of an arena match must start within `arena_start_limit` of its turn (the match's
/// making for the first, the first's end for the second): a bot that never comes would hold
/// its opponent's seat for ever. Past it, that table and the ones after it close (their logs
/// end `Closed`: the match is never rated). This node's watch; a restart forgets it.
fn watch_start(shared: &Arc<Shared>, ids: [String; 2]) {
    let shared = shared.clone();
    let tracker = shared.tracker.clone();
    tracker.spawn(async move {
        let limit = shared.config.arena_start_limit;
        let poll = (limit / 10).clamp(
            std::time::Duration::from_millis(50),
            std::time::Duration::from_secs(5),
        );
        for (at, id) in ids.iter().enumerate() {
            let deadline = Instant::now() + limit;
            loop {
                tokio::select! {
                    () = shared.shutdown.cancelled() => return,
                    () = tokio::time::sleep(poll) => {}
                }
                let Some(handle) = crate::lobby::find(&shared, id).await else {
                    break; // served no more: ended (or closed)
                };
                let info = handle.info();
                if info.finished {
                    break;
                }
                // Playing: the next table's turn starts at this one's end.
                if info.waiting && Instant::now() >= deadline {
                    for late in &ids[at..] {
                        if let Some(handle) = crate::lobby::find(&shared, late).await {
                            handle.send(crate::table::Command::Close).await;
                        }
                    }
                    tracing::info!(table = %id, "an arena table not started in time: closed");
                    return;
                }
            }
        }
    });
}

/// The arena's projection of a table's match end (`crate::projections`): for an arena table,
/// once both of its match's tables ended, the pair rated as one match, exactly once by the
/// arena's id, and its boards' records let out. Nothing for any other table, nor while the
/// sibling plays (its own end runs this again). `log`: the tables' logs, `embargo`: the boards
/// held back.
pub async fn settle_log(
    log: &dyn TableLog,
    embargo: &dyn Embargo,
    ratings: &dyn Ratings,
    table: &str,
    entries: &[Vec<u8>],
) -> Result<Option<Applied>, PortError> {
    let Some(arena) = result::arena_of(entries) else {
        return Ok(None);
    };
    let ids = tables_of(&arena);
    let mut outcomes = Vec::new();
    for id in &ids {
        let table_entries = if id == table {
            entries.to_vec()
        } else {
            log.load(id).await.map_err(|e| PortError(e.to_string()))?
        };
        let Some(outcome) = result::table_outcome(&table_entries) else {
            return Ok(None);
        };
        outcomes.push(outcome);
    }
    let Some(m) = result::duplicate(&arena, &outcomes[0], &outcomes[1]) else {
        tracing::warn!(%arena, "an arena match's tables do not make a duplicate pair");
        return Ok(None);
    };
    let policy = Policy {
        // Bots play a match in seconds: the people's rule against a match thrown at once would
        // leave every arena match unrated. The arena makes its matches itself (two duplicate
        // tables, an opponent it chose or a challenge), so a throw costs the thrower both
        // directions of the deal, and its daily cap bounds how often.
        min_play_ms: 0,
        // The arena's own cap limits matches when they are made; the same two bots meeting
        // often is the arena's design, not farming.
        daily_cap: u32::MAX,
        now_ms: crate::ids::unix_ms(),
    };
    let applied = ratings.apply(&m, policy).await?;
    if let Applied::NotRated(why) = &applied {
        tracing::info!(%arena, reason = why.as_str(), "arena match not rated");
    }
    lift_embargo(log, embargo, &ids).await;
    Ok(Some(applied))
}

/// Lets the boards' hand records out once both tables played them.
async fn lift_embargo(log: &dyn TableLog, embargo: &dyn Embargo, ids: &[String; 2]) {
    let Ok(first) = log.load(&ids[0]).await else {
        return;
    };
    for bytes in &first {
        if let Ok(burraco_protocol::log::TableEntry::Boards { seeds, .. }) =
            burraco_protocol::log::TableEntry::decode(bytes)
        {
            for seed in seeds {
                let commitment = burraco_rules::Seed(seed).commitment_hex();
                embargo.set(&commitment, false);
            }
        }
    }
}
