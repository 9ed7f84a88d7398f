//! The moderation's store in the single node's SQLite file, beside the accounts' tables (the
//! accounts' migration 7 made its tables). A connection of its own, used on the blocking pool;
//! every write is one immediate transaction (the table log's writer shares the file).

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::grouping::{self, Finding, Grouped, OpenGroup, Plan};
use super::{
    ActError, Action, ActionKind, FileError, ModerationStore, NewReport, Reason, Report,
    ReportKind, Standing,
};
use crate::port::{PortError, PortFuture};
use crate::store::blocking::{BlockingConnection, OnBlockingConnection};

#[derive(Debug, Clone)]
pub struct SqliteModeration {
    conn: BlockingConnection,
}

impl OnBlockingConnection for SqliteModeration {
    fn connection(&self) -> &BlockingConnection {
        &self.conn
    }
}

fn port(e: impl std::fmt::Display) -> PortError {
    PortError(e.to_string())
}

impl SqliteModeration {
    /// Opens the store in the SQLite file of data directory `dir`, the accounts' migrations
    /// applied first.
    pub fn open_dir(dir: &std::path::Path) -> Result<SqliteModeration, PortError> {
        drop(crate::accounts::sqlite::SqliteAccounts::open_dir(dir)?);
        Ok(SqliteModeration {
            conn: BlockingConnection::open_dir(dir)?,
        })
    }
}

pub(super) const REPORT_COLUMNS: &str = "id, kind, reporter_id, subject_id, subject_name, \
     table_id, reason, note, context, created_ms, closed_by";

pub(super) const ACTION_COLUMNS: &str =
    "id, kind, moderator_id, account_id, reason, until_ms, report_id, at_ms, guest_id";

/// A stored name this version does not know reads as the most general one (a newer server's
/// row still shows).
pub(super) fn report_kind(text: &str) -> ReportKind {
    ReportKind::parse(text).unwrap_or(ReportKind::Player)
}

pub(super) fn reason(text: &str) -> Reason {
    Reason::parse(text).unwrap_or(Reason::Other)
}

pub(super) fn action_kind(text: &str) -> ActionKind {
    ActionKind::parse(text).unwrap_or(ActionKind::Warn)
}

pub(super) fn context(text: &str) -> super::Context {
    serde_json::from_str(text).unwrap_or_default()
}

fn report(r: &rusqlite::Row<'_>) -> rusqlite::Result<Report> {
    Ok(Report {
        id: r.get(0)?,
        kind: report_kind(&r.get::<_, String>(1)?),
        reporter: r.get(2)?,
        subject: r.get(3)?,
        subject_name: r.get(4)?,
        table: r.get(5)?,
        reason: reason(&r.get::<_, String>(6)?),
        note: r.get(7)?,
        context: context(&r.get::<_, String>(8)?),
        created_ms: r.get(9)?,
        closed_by: r.get(10)?,
    })
}

fn action(r: &rusqlite::Row<'_>) -> rusqlite::Result<Action> {
    Ok(Action {
        id: r.get(0)?,
        kind: action_kind(&r.get::<_, String>(1)?),
        moderator: r.get(2)?,
        account: r.get(3)?,
        reason: r.get(4)?,
        until_ms: r.get(5)?,
        report: r.get(6)?,
        at_ms: r.get(7)?,
        guest: r.get(8)?,
    })
}

/// Writes a new open report, under `flood_key`, its context `context` (JSON).
fn insert(
    tx: &rusqlite::Transaction<'_>,
    report: &NewReport,
    flood_key: &str,
    context: &str,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO moderation_reports (id, kind, reporter_id, flood_key, subject_id,
            subject_name, table_id, reason, note, context, created_ms, closed_by)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, NULL)",
        params![
            report.id,
            report.kind.as_str(),
            report.reporter,
            flood_key,
            report.subject,
            report.subject_name,
            report.table,
            report.reason.as_str(),
            report.note,
            context,
            report.created_ms
        ],
    )?;
    Ok(())
}

fn json(context: &super::Context) -> rusqlite::Result<String> {
    serde_json::to_string(context).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))
}

/// Files a finding grouped, in one immediate transaction (the open groups read and the plan's
/// write together: two findings at once are grouped one after the other).
fn file_grouped(conn: &mut Connection, finding: &Finding) -> rusqlite::Result<Grouped> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let open: Vec<OpenGroup> = {
        let mut stmt = tx.prepare_cached(
            "SELECT id, flood_key, context FROM moderation_reports
             WHERE kind = ?1 AND closed_by IS NULL AND flood_key LIKE ?2
             ORDER BY created_ms, id",
        )?;
        stmt.query_map(
            params![finding.report.kind.as_str(), grouping::KEY_PATTERN],
            |r| {
                Ok(OpenGroup {
                    id: r.get(0)?,
                    flood_key: r.get(1)?,
                    context: context(&r.get::<_, String>(2)?),
                })
            },
        )?
        .collect::<rusqlite::Result<_>>()?
    };
    let grouped = match grouping::plan(&open, finding) {
        Plan::Open { flood_key, context } => {
            insert(&tx, &finding.report, &flood_key, &json(&context)?)?;
            Grouped::Opened
        }
        Plan::Count {
            id,
            flood_key,
            context,
            table,
            merged,
        } => {
            tx.execute(
                "UPDATE moderation_reports SET flood_key = ?2, context = ?3, table_id = ?4
                 WHERE id = ?1",
                params![id, flood_key, json(&context)?, table],
            )?;
            for other in merged {
                // Closed by the report it went into.
                tx.execute(
                    "UPDATE moderation_reports SET closed_by = ?2 WHERE id = ?1",
                    params![other, id],
                )?;
            }
            Grouped::Counted
        }
    };
    tx.commit()?;
    Ok(grouped)
}

/// Stores an action in one transaction; a refusal (`Ok(Err(..))`) rolls it back.
fn act(conn: &mut Connection, a: &Action) -> rusqlite::Result<Result<(), ActError>> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    if let Some(account) = &a.account {
        let known: bool = tx.query_row(
            "SELECT EXISTS (SELECT 1 FROM accounts WHERE id = ?1)",
            [account],
            |r| r.get(0),
        )?;
        if !known {
            return Ok(Err(ActError::UnknownAccount));
        }
        let sanction = match a.kind {
            ActionKind::Mute => Some("UPDATE accounts SET muted_until_ms = ?2 WHERE id = ?1"),
            ActionKind::Unmute => Some("UPDATE accounts SET muted_until_ms = NULL WHERE id = ?1"),
            ActionKind::Timeout => {
                Some("UPDATE accounts SET timed_out_until_ms = ?2 WHERE id = ?1")
            }
            ActionKind::Disable => Some("UPDATE accounts SET disabled = TRUE WHERE id = ?1"),
            // Enabling lifts a time-out too: the moderator lets the account back in now.
            ActionKind::Enable => Some(
                "UPDATE accounts SET disabled = FALSE, timed_out_until_ms = NULL WHERE id = ?1",
            ),
            ActionKind::Dismiss | ActionKind::Warn => None,
        };
        if let Some(sql) = sanction {
            if a.kind.needs_duration() {
                tx.execute(sql, params![account, a.until_ms])?;
            } else {
                tx.execute(sql, params![account])?;
            }
        }
    }
    if let Some(guest) = &a.guest {
        match a.kind {
            ActionKind::Mute => {
                tx.execute(
                    "INSERT INTO moderation_guest_mutes (player_id, until_ms) VALUES (?1, ?2)
                     ON CONFLICT (player_id) DO UPDATE SET until_ms = excluded.until_ms",
                    params![guest, a.until_ms],
                )?;
            }
            ActionKind::Unmute => {
                tx.execute(
                    "DELETE FROM moderation_guest_mutes WHERE player_id = ?1",
                    [guest],
                )?;
            }
            _ => {}
        }
    }
    if let Some(report) = &a.report {
        let closed = tx.execute(
            "UPDATE moderation_reports SET closed_by = ?2 WHERE id = ?1 AND closed_by IS NULL",
            params![report, a.id],
        )?;
        if closed == 0 {
            return Ok(Err(ActError::UnknownReport));
        }
    }
    tx.execute(
        &format!("INSERT INTO moderation_actions ({ACTION_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"),
        params![
            a.id,
            a.kind.as_str(),
            a.moderator,
            a.account,
            a.reason,
            a.until_ms,
            a.report,
            a.at_ms,
            a.guest
        ],
    )?;
    tx.commit()?;
    Ok(Ok(()))
}

impl ModerationStore for SqliteModeration {
    fn file<'a>(
        &'a self,
        report: &'a NewReport,
        limit: u32,
        since_ms: i64,
    ) -> PortFuture<'a, Result<(), FileError>> {
        let report = report.clone();
        Box::pin(async move {
            let context = serde_json::to_string(&report.context).map_err(port)?;
            let filed = self
                .with(move |conn| {
                    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
                    let recent: i64 = tx.query_row(
                        "SELECT COUNT(*) FROM moderation_reports
                         WHERE flood_key = ?1 AND created_ms >= ?2",
                        params![report.flood_key, since_ms],
                        |r| r.get(0),
                    )?;
                    if recent >= i64::from(limit) {
                        return Ok(false);
                    }
                    insert(&tx, &report, &report.flood_key, &context)?;
                    tx.commit()?;
                    Ok(true)
                })
                .await?;
            if filed {
                Ok(())
            } else {
                Err(FileError::TooMany)
            }
        })
    }

    fn file_grouped<'a>(
        &'a self,
        finding: &'a Finding,
    ) -> PortFuture<'a, Result<Grouped, PortError>> {
        let finding = finding.clone();
        Box::pin(self.with(move |conn| file_grouped(conn, &finding)))
    }

    fn open_reports<'a>(&'a self, limit: u32) -> PortFuture<'a, Result<Vec<Report>, PortError>> {
        Box::pin(self.with(move |conn| {
            let mut stmt = conn.prepare(&format!(
                "SELECT {REPORT_COLUMNS} FROM moderation_reports
                 WHERE closed_by IS NULL ORDER BY created_ms, id LIMIT ?1"
            ))?;
            stmt.query_map([limit], report)?.collect()
        }))
    }

    fn report<'a>(&'a self, id: &'a str) -> PortFuture<'a, Result<Option<Report>, PortError>> {
        let id = id.to_owned();
        Box::pin(self.with(move |conn| {
            conn.query_row(
                &format!("SELECT {REPORT_COLUMNS} FROM moderation_reports WHERE id = ?1"),
                [id],
                report,
            )
            .optional()
        }))
    }

    fn act<'a>(&'a self, action: &'a Action) -> PortFuture<'a, Result<(), ActError>> {
        let action = action.clone();
        Box::pin(async move { self.with(move |conn| act(conn, &action)).await? })
    }

    fn actions<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<Action>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            let mut stmt = conn.prepare(&format!(
                "SELECT {ACTION_COLUMNS} FROM moderation_actions
                 WHERE account_id = ?1 ORDER BY at_ms DESC, id DESC LIMIT ?2"
            ))?;
            stmt.query_map(params![account, limit], action)?.collect()
        }))
    }

    fn standing<'a>(
        &'a self,
        account: &'a str,
    ) -> PortFuture<'a, Result<Option<Standing>, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            conn.query_row(
                "SELECT moderator OR admin, disabled, muted_until_ms, timed_out_until_ms,
                    (SELECT COUNT(*) FROM moderation_actions
                     WHERE account_id = accounts.id AND kind = 'warn')
                 FROM accounts WHERE id = ?1",
                [account],
                |r| {
                    Ok(Standing {
                        moderator: r.get(0)?,
                        disabled: r.get(1)?,
                        muted_until_ms: r.get(2)?,
                        timed_out_until_ms: r.get(3)?,
                        warnings: r.get(4)?,
                    })
                },
            )
            .optional()
        }))
    }

    fn set_moderator<'a>(
        &'a self,
        account: &'a str,
        moderator: bool,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        let account = account.to_owned();
        Box::pin(self.with(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let changed = tx.execute(
                "UPDATE accounts SET moderator = ?2 WHERE id = ?1",
                params![account, moderator],
            )?;
            tx.commit()?;
            Ok(changed == 1)
        }))
    }

    fn barred<'a>(
        &'a self,
        accounts: &'a [String],
        now_ms: i64,
    ) -> PortFuture<'a, Result<Vec<String>, PortError>> {
        let ids = accounts.to_vec();
        Box::pin(self.with(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id FROM accounts
                 WHERE id = ?1 AND (disabled OR timed_out_until_ms > ?2)",
            )?;
            let mut barred = Vec::new();
            for id in ids {
                if let Some(id) = stmt
                    .query_row(params![id, now_ms], |r| r.get::<_, String>(0))
                    .optional()?
                {
                    barred.push(id);
                }
            }
            Ok(barred)
        }))
    }

    fn guest_muted_until<'a>(
        &'a self,
        player: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<Option<i64>, PortError>> {
        let player = player.to_owned();
        Box::pin(self.with(move |conn| {
            conn.query_row(
                "SELECT until_ms FROM moderation_guest_mutes
                 WHERE player_id = ?1 AND until_ms > ?2",
                params![player, now_ms],
                |r| r.get(0),
            )
            .optional()
        }))
    }
}
