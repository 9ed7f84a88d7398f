//! The moderation's port: everything it stores goes through [`ModerationStore`], on the
//! accounts' database (SQLite on one node, PostgreSQL in a cluster: `sqlite.rs`, `postgres.rs`,
//! one conformance suite in `server/tests/moderation`), or [`Unconfigured`] without one.

use super::{ActError, Action, FileError, NewReport, Report, Standing, grouping};
use crate::port::{PortError, PortFuture};

/// The moderation's storage, on the accounts' database.
pub trait ModerationStore: Send + Sync + std::fmt::Debug {
    /// Files a report unless its `flood_key` filed `limit` reports since `since_ms` (counted
    /// and written in one transaction).
    fn file<'a>(
        &'a self,
        report: &'a NewReport,
        limit: u32,
        since_ms: i64,
    ) -> PortFuture<'a, Result<(), FileError>>;
    /// Files one of the server's own findings, grouped ([`grouping::plan`]): counted in the
    /// open report of its kind about any of its accounts, else a new report; read and written
    /// in one transaction.
    fn file_grouped<'a>(
        &'a self,
        finding: &'a grouping::Finding,
    ) -> PortFuture<'a, Result<grouping::Grouped, PortError>>;
    /// The open reports, oldest first, at most `limit`.
    fn open_reports<'a>(&'a self, limit: u32) -> PortFuture<'a, Result<Vec<Report>, PortError>>;
    fn report<'a>(&'a self, id: &'a str) -> PortFuture<'a, Result<Option<Report>, PortError>>;
    /// Stores an action, applies its sanction (mute, unmute, time-out, disable, enable, a
    /// warning; to its guest's player id a mute or unmute) and closes its report, in one
    /// transaction.
    fn act<'a>(&'a self, action: &'a Action) -> PortFuture<'a, Result<(), ActError>>;
    /// An account's actions, newest first, at most `limit`.
    fn actions<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<Action>, PortError>>;
    /// The account's role and sanctions; `None` for an unknown account.
    fn standing<'a>(
        &'a self,
        account: &'a str,
    ) -> PortFuture<'a, Result<Option<Standing>, PortError>>;
    /// Grants or revokes the moderator role; false for an unknown account.
    fn set_moderator<'a>(
        &'a self,
        account: &'a str,
        moderator: bool,
    ) -> PortFuture<'a, Result<bool, PortError>>;
    /// Which of these accounts may not be connected at `now_ms` (disabled, or timed out): what
    /// a node asks every half second about the accounts its connections belong to.
    fn barred<'a>(
        &'a self,
        accounts: &'a [String],
        now_ms: i64,
    ) -> PortFuture<'a, Result<Vec<String>, PortError>>;
    /// The end of a guest's mute in force at `now_ms`, by its player id; `None` when it may
    /// speak.
    fn guest_muted_until<'a>(
        &'a self,
        player: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<Option<i64>, PortError>>;
}

/// Moderation switched off (a cluster without `--database-url`): every call fails.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unconfigured;

fn off<T: Send + 'static>() -> PortFuture<'static, Result<T, PortError>> {
    Box::pin(async { Err(PortError("moderation needs the accounts' database".into())) })
}

impl ModerationStore for Unconfigured {
    fn file<'a>(
        &'a self,
        _: &'a NewReport,
        _: u32,
        _: i64,
    ) -> PortFuture<'a, Result<(), FileError>> {
        Box::pin(async { off::<()>().await.map_err(FileError::Port) })
    }
    fn file_grouped<'a>(
        &'a self,
        _: &'a grouping::Finding,
    ) -> PortFuture<'a, Result<grouping::Grouped, PortError>> {
        off()
    }
    fn open_reports<'a>(&'a self, _: u32) -> PortFuture<'a, Result<Vec<Report>, PortError>> {
        off()
    }
    fn report<'a>(&'a self, _: &'a str) -> PortFuture<'a, Result<Option<Report>, PortError>> {
        off()
    }
    fn act<'a>(&'a self, _: &'a Action) -> PortFuture<'a, Result<(), ActError>> {
        Box::pin(async { off::<()>().await.map_err(ActError::Port) })
    }
    fn actions<'a>(&'a self, _: &'a str, _: u32) -> PortFuture<'a, Result<Vec<Action>, PortError>> {
        off()
    }
    fn standing<'a>(&'a self, _: &'a str) -> PortFuture<'a, Result<Option<Standing>, PortError>> {
        off()
    }
    fn set_moderator<'a>(&'a self, _: &'a str, _: bool) -> PortFuture<'a, Result<bool, PortError>> {
        off()
    }
    fn barred<'a>(
        &'a self,
        _: &'a [String],
        _: i64,
    ) -> PortFuture<'a, Result<Vec<String>, PortError>> {
        off()
    }
    /// Nobody can mute without the store, so no guest is muted (and a guest's chat does not
    /// log an error per line).
    fn guest_muted_until<'a>(
        &'a self,
        _: &'a str,
        _: i64,
    ) -> PortFuture<'a, Result<Option<i64>, PortError>> {
        Box::pin(async { Ok(None) })
    }
}
