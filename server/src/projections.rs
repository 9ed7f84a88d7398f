//! The match-end projections: what the stores learn from a table's match once it ends, each
//! read from the table's log alone, each exactly once whatever crashes, restarts or takeovers
//! happen in between.
//!
//! One pending list for all of them: the table's row written by
//! [`crate::match_end::pending`] before the match's end is logged (`Ratings::ended`, the row a rated table was expected by since its creation),
//! holding when the match ended. [`settle`] then runs, in this order:
//!
//! 1. fair play's outcomes and playbans ([`crate::fairplay::judge_match`], keyed by table and
//!    account; a ban judged as of the match's end);
//! 2. the ratings ([`crate::ratings::settle_log`], keyed by table), which need the outcomes: a
//!    leaver loses the match 0-20 and nobody else is rated by it;
//! 3. the players' index ([`crate::players::index_log`], keyed by table, match and seat; a
//!    leaver's row a loss, as the ratings count it);
//! 4. an arena match's settlement ([`crate::arena::settle::settle_log`], keyed by the arena,
//!    once its tables' logs allow it);
//!
//! and deletes the pending row only when all are done. Each is idempotent by its key, so a run
//! cut short by a crash is simply run again, whole, by the next one: right after the end (the
//! table announces it on [`crate::match_end::MatchEnds`], heard by a task of the table's node,
//! [`settle_soon`]) and by every node's [`sweep`] (at start and every [`SWEEP_EVERY`]). The
//! table never calls in here: the projections read its log, so the arrow runs one way. A new projection (a seasons ladder, say) is one more idempotent step in
//! [`settle`], keyed by the table.

use std::sync::Arc;
use std::time::Duration;

use burraco_protocol::log::EntryKind;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::backplane::Backplane;
use crate::config::ServerConfig;
use crate::fairplay::Outcome;
use crate::match_end::MatchEnd;
use crate::moderation::ModerationStore;
use crate::port::PortError;
use crate::ratings::Ratings;

/// What the projections use of the server: the stores they read and write, the settings, and
/// the server's tasks and shutdown. Their own struct rather than the server's hub, so this
/// module depends on what it uses; `lib.rs` makes it once.
#[derive(Debug, Clone)]
pub struct Context {
    /// The logs, fair play, the accounts, the players' index, the boards' embargo.
    pub backplane: Backplane,
    /// The ratings, which keep the pending list.
    pub ratings: Arc<dyn Ratings>,
    /// The moderation's store: a match refused as farming is reported there.
    pub reports: Arc<dyn ModerationStore>,
    /// The arena's store: a void arena match leaves the daily cap there.
    pub arena: Arc<dyn crate::arena::store::ArenaStore>,
    pub config: Arc<ServerConfig>,
    pub tracker: TaskTracker,
    pub shutdown: CancellationToken,
}

/// How often every node runs the projections of the pending tables whose logs ended (a node
/// killed between a match's end and its projections, or a store that failed).
pub const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// What [`settle`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settled {
    /// Every projection is done and the pending row is gone.
    Done,
    /// The table's log has not ended: nothing yet.
    InPlay,
}

/// Runs every projection of table `table`'s ended match, then forgets its pending row.
/// `ended_ms`: when the match ended (its pending row's); `None` (a row from before this list
/// held times) takes now.
pub async fn settle(
    context: &Context,
    table: &str,
    ended_ms: Option<i64>,
) -> Result<Settled, PortError> {
    let entries = context
        .backplane
        .log
        .load(table)
        .await
        .map_err(|e| PortError(e.to_string()))?;
    if !entries
        .iter()
        .any(|e| EntryKind::of(e).is_some_and(EntryKind::ends_table))
    {
        return Ok(Settled::InPlay);
    }
    let ended_ms = ended_ms.unwrap_or_else(crate::ids::unix_ms);
    // 1. Fair play first: the ratings need to know who left.
    let mut left = Vec::new();
    if let Some(facts) = crate::table::facts_of_log(&entries) {
        crate::fairplay::judge_match(
            &*context.backplane.fairplay,
            &*context.backplane.accounts,
            table,
            &facts,
            ended_ms,
        )
        .await?;
        left = crate::fairplay::outcome::outcomes(&facts)
            .into_iter()
            .filter(|(_, _, outcome)| *outcome == Outcome::Left)
            .map(|(seat, _, _)| seat as u8)
            .collect();
    }
    // 2. The ratings; a match they refuse as farming is reported to the moderators.
    let applied =
        crate::ratings::settle_log(&*context.ratings, &context.config, table, &entries, &left)
            .await?;
    if let Some(crate::ratings::Applied::NotRated(crate::ratings::NotRated::DailyCap)) = applied
        && let crate::ratings::LoggedEnd::Finished(m) =
            crate::ratings::FinishedMatch::from_log(table, &entries)
    {
        let accounts: Vec<String> = m.seats.into_iter().map(|s| s.account).collect();
        crate::moderation::signals::rating_farming(
            &*context.reports,
            &*context.backplane.accounts,
            table,
            &accounts,
        )
        .await;
    }
    // 3. The players' index: a leaver's row is a loss, whatever a stand-in did in the seat.
    crate::players::index_log(
        &*context.backplane.players,
        table,
        &entries,
        ended_ms,
        &left,
    )
    .await?;
    // 4. An arena table's match, settled from its tables' logs once it can be (keyed by the
    //    arena).
    let stores = crate::arena::settle::Stores {
        log: &*context.backplane.log,
        embargo: &*context.backplane.embargo,
        ratings: &*context.ratings,
        arena: &*context.arena,
    };
    crate::arena::settle::settle_log(stores, table, &entries).await?;
    // All done: a failure here only leaves the row for a sweep, which redoes nothing.
    if let Err(e) = context.ratings.forget(table).await {
        tracing::debug!(%table, "pending row kept: {e}");
    }
    Ok(Settled::Done)
}

/// Called by a table once its match's end is durable: runs the projections now (after the
/// test-only `rating_delay`), retrying a failed store a few times; the sweep does the rest.
fn settle_soon(context: &Context, table: &str, ended_ms: i64) {
    let context = context.clone();
    let table = table.to_owned();
    let tracker = context.tracker.clone();
    tracker.spawn(async move {
        tokio::time::sleep(context.config.rating_delay).await;
        for attempt in 0..3u32 {
            match settle(&context, &table, Some(ended_ms)).await {
                Ok(_) => return,
                Err(e) => {
                    tracing::warn!(%table, "match-end projections not done yet: {e}");
                    tokio::time::sleep(Duration::from_secs(1 << attempt)).await;
                }
            }
        }
    });
}

/// Runs [`sweep`] at start, then every [`SWEEP_EVERY`]; and the projections of each match end
/// its table announces ([`crate::match_end::MatchEnds`]), as it comes.
/// `ends`: the announcements' receiver (`MatchEnds::take_receiver`).
pub fn start_sweep(context: &Context, ends: Option<mpsc::Receiver<MatchEnd>>) {
    if let Some(mut ends) = ends {
        let listening = context.clone();
        context.tracker.spawn(async move {
            loop {
                tokio::select! {
                    () = listening.shutdown.cancelled() => return,
                    end = ends.recv() => match end {
                        Some(end) => settle_soon(&listening, &end.table, end.ended_ms),
                        None => return,
                    },
                }
            }
        });
    }
    let context = context.clone();
    let tracker = context.tracker.clone();
    tracker.spawn(async move {
        loop {
            sweep(&context).await;
            tokio::select! {
                () = context.shutdown.cancelled() => return,
                () = tokio::time::sleep(SWEEP_EVERY) => {}
            }
        }
    });
}

/// One pass of the sweep: settles every pending table whose log has ended.
pub async fn sweep(context: &Context) {
    let pending = match context.ratings.expected(1000).await {
        Ok(pending) => pending,
        Err(e) => {
            tracing::debug!("match-end sweep: {e}");
            return;
        }
    };
    if pending.is_empty() {
        return;
    }
    // The tables still playing (one indexed read) are not read whole every minute.
    let playing: std::collections::HashSet<String> = match context.backplane.log.in_play().await {
        Ok(tables) => tables.into_iter().collect(),
        Err(e) => {
            tracing::debug!("match-end sweep: {e}");
            return;
        }
    };
    for row in pending.into_iter().filter(|p| !playing.contains(&p.key)) {
        if let Err(e) = settle(context, &row.key, row.ended_ms).await {
            tracing::warn!(table = %row.key, "match-end sweep: {e}");
        }
    }
}
