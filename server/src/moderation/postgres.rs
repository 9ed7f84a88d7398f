//! The moderation's store in PostgreSQL (`--database-url`), beside the accounts' tables (the
//! accounts' migration 7 made its tables): what every node of a cluster shares, so a mute or a
//! time-out given through one node holds on all of them at their next read.

use tokio_postgres::types::ToSql;

use super::grouping::{self, Finding, Grouped, OpenGroup, Plan};
use super::sqlite::{ACTION_COLUMNS, REPORT_COLUMNS, action_kind, context, reason, report_kind};
use super::{
    ActError, Action, ActionKind, Context, FileError, ModerationStore, NewReport, Report, Standing,
};
use crate::port::{PortError, PortFuture};
use crate::store::postgres::{Database, OnDatabase, port};

type Param<'a> = &'a (dyn ToSql + Sync);

#[derive(Debug, Clone)]
pub struct PostgresModeration {
    db: Database,
}

impl OnDatabase for PostgresModeration {
    fn database(&self) -> &Database {
        &self.db
    }
}

impl PostgresModeration {
    /// The moderation's tables in `db` (the accounts' migrations, applied when they opened, made them).
    pub fn new(db: &Database) -> PostgresModeration {
        PostgresModeration { db: db.clone() }
    }
}

fn report(r: &tokio_postgres::Row) -> Report {
    Report {
        id: r.get(0),
        kind: report_kind(r.get(1)),
        reporter: r.get(2),
        subject: r.get(3),
        subject_name: r.get(4),
        table: r.get(5),
        reason: reason(r.get(6)),
        note: r.get(7),
        context: context(r.get(8)),
        created_ms: r.get(9),
        closed_by: r.get(10),
    }
}

fn action(r: &tokio_postgres::Row) -> Action {
    Action {
        id: r.get(0),
        kind: action_kind(r.get(1)),
        moderator: r.get(2),
        account: r.get(3),
        reason: r.get(4),
        until_ms: r.get(5),
        report: r.get(6),
        at_ms: r.get(7),
        guest: r.get(8),
    }
}

/// Writes a new open report, under `flood_key`, its context `context` (JSON).
async fn insert(
    tx: &tokio_postgres::Transaction<'_>,
    report: &NewReport,
    flood_key: &str,
    context: &str,
) -> Result<(), PortError> {
    tx.execute(
        "INSERT INTO moderation_reports (id, kind, reporter_id, flood_key, subject_id,
            subject_name, table_id, reason, note, context, created_ms, closed_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULL)",
        &[
            &report.id as Param,
            &report.kind.as_str(),
            &report.reporter,
            &flood_key,
            &report.subject,
            &report.subject_name,
            &report.table,
            &report.reason.as_str(),
            &report.note,
            &context,
            &report.created_ms,
        ],
    )
    .await
    .map_err(port)?;
    Ok(())
}

fn json(context: &Context) -> Result<String, PortError> {
    serde_json::to_string(context).map_err(port)
}

impl ModerationStore for PostgresModeration {
    fn file<'a>(
        &'a self,
        report: &'a NewReport,
        limit: u32,
        since_ms: i64,
    ) -> PortFuture<'a, Result<(), FileError>> {
        Box::pin(async move {
            let context = serde_json::to_string(&report.context).map_err(port)?;
            let mut client = self.client().await?;
            let tx = client.transaction().await.map_err(port)?;
            // Two reports of one key at once are counted one after the other.
            tx.execute(
                "SELECT pg_advisory_xact_lock(hashtext($1))",
                &[&report.flood_key],
            )
            .await
            .map_err(port)?;
            let recent: i64 = tx
                .query_one(
                    "SELECT COUNT(*) FROM moderation_reports
                     WHERE flood_key = $1 AND created_ms >= $2",
                    &[&report.flood_key as Param, &since_ms],
                )
                .await
                .map_err(port)?
                .get(0);
            if recent >= i64::from(limit) {
                return Err(FileError::TooMany);
            }
            insert(&tx, report, &report.flood_key, &context).await?;
            tx.commit().await.map_err(port)?;
            Ok(())
        })
    }

    fn file_grouped<'a>(
        &'a self,
        finding: &'a Finding,
    ) -> PortFuture<'a, Result<Grouped, PortError>> {
        Box::pin(async move {
            let kind = finding.report.kind.as_str();
            let mut client = self.client().await?;
            let tx = client.transaction().await.map_err(port)?;
            // Two findings of one kind at once are grouped one after the other.
            tx.execute(
                "SELECT pg_advisory_xact_lock(hashtext($1))",
                &[&format!("moderation group {kind}")],
            )
            .await
            .map_err(port)?;
            let open: Vec<OpenGroup> = tx
                .query(
                    "SELECT id, flood_key, context FROM moderation_reports
                     WHERE kind = $1 AND closed_by IS NULL AND flood_key LIKE $2
                     ORDER BY created_ms, id",
                    &[&kind as Param, &grouping::KEY_PATTERN],
                )
                .await
                .map_err(port)?
                .iter()
                .map(|r| OpenGroup {
                    id: r.get(0),
                    flood_key: r.get(1),
                    context: context(r.get(2)),
                })
                .collect();
            let grouped = match grouping::plan(&open, finding) {
                Plan::Open { flood_key, context } => {
                    insert(&tx, &finding.report, &flood_key, &json(&context)?).await?;
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
                        "UPDATE moderation_reports SET flood_key = $2, context = $3, table_id = $4
                         WHERE id = $1",
                        &[&id as Param, &flood_key, &json(&context)?, &table],
                    )
                    .await
                    .map_err(port)?;
                    for other in &merged {
                        // Closed by the report it went into.
                        tx.execute(
                            "UPDATE moderation_reports SET closed_by = $2 WHERE id = $1",
                            &[other as Param, &id],
                        )
                        .await
                        .map_err(port)?;
                    }
                    Grouped::Counted
                }
            };
            tx.commit().await.map_err(port)?;
            Ok(grouped)
        })
    }

    fn open_reports<'a>(&'a self, limit: u32) -> PortFuture<'a, Result<Vec<Report>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    &format!(
                        "SELECT {REPORT_COLUMNS} FROM moderation_reports
                         WHERE closed_by IS NULL ORDER BY created_ms, id LIMIT $1"
                    ),
                    &[&i64::from(limit)],
                )
                .await
                .map_err(port)?;
            Ok(rows.iter().map(report).collect())
        })
    }

    fn report<'a>(&'a self, id: &'a str) -> PortFuture<'a, Result<Option<Report>, PortError>> {
        Box::pin(async move {
            if crate::store::postgres::unstorable(id) {
                return Ok(None);
            }
            let client = self.client().await?;
            let row = client
                .query_opt(
                    &format!("SELECT {REPORT_COLUMNS} FROM moderation_reports WHERE id = $1"),
                    &[&id],
                )
                .await
                .map_err(port)?;
            Ok(row.as_ref().map(report))
        })
    }

    fn act<'a>(&'a self, a: &'a Action) -> PortFuture<'a, Result<(), ActError>> {
        Box::pin(async move {
            let mut client = self.client().await?;
            let tx = client.transaction().await.map_err(port)?;
            if let Some(account) = &a.account {
                let known = tx
                    .query_opt("SELECT 1 FROM accounts WHERE id = $1", &[account])
                    .await
                    .map_err(port)?
                    .is_some();
                if !known {
                    return Err(ActError::UnknownAccount);
                }
                let changed = match a.kind {
                    ActionKind::Mute => Some(
                        tx.execute(
                            "UPDATE accounts SET muted_until_ms = $2 WHERE id = $1",
                            &[account as Param, &a.until_ms],
                        )
                        .await,
                    ),
                    ActionKind::Timeout => Some(
                        tx.execute(
                            "UPDATE accounts SET timed_out_until_ms = $2 WHERE id = $1",
                            &[account as Param, &a.until_ms],
                        )
                        .await,
                    ),
                    ActionKind::Unmute => Some(
                        tx.execute(
                            "UPDATE accounts SET muted_until_ms = NULL WHERE id = $1",
                            &[account],
                        )
                        .await,
                    ),
                    ActionKind::Disable => Some(
                        tx.execute(
                            "UPDATE accounts SET disabled = TRUE WHERE id = $1",
                            &[account],
                        )
                        .await,
                    ),
                    ActionKind::Enable => Some(
                        tx.execute(
                            "UPDATE accounts SET disabled = FALSE, timed_out_until_ms = NULL
                             WHERE id = $1",
                            &[account],
                        )
                        .await,
                    ),
                    ActionKind::Dismiss | ActionKind::Warn => None,
                };
                if let Some(changed) = changed {
                    changed.map_err(port)?;
                }
            }
            if let Some(guest) = &a.guest {
                let changed = match a.kind {
                    ActionKind::Mute => Some(
                        tx.execute(
                            "INSERT INTO moderation_guest_mutes (player_id, until_ms)
                             VALUES ($1, $2)
                             ON CONFLICT (player_id) DO UPDATE SET until_ms = excluded.until_ms",
                            &[guest as Param, &a.until_ms],
                        )
                        .await,
                    ),
                    ActionKind::Unmute => Some(
                        tx.execute(
                            "DELETE FROM moderation_guest_mutes WHERE player_id = $1",
                            &[guest],
                        )
                        .await,
                    ),
                    _ => None,
                };
                if let Some(changed) = changed {
                    changed.map_err(port)?;
                }
            }
            if let Some(report) = &a.report {
                let closed = tx
                    .execute(
                        "UPDATE moderation_reports SET closed_by = $2
                         WHERE id = $1 AND closed_by IS NULL",
                        &[report as Param, &a.id],
                    )
                    .await
                    .map_err(port)?;
                if closed == 0 {
                    return Err(ActError::UnknownReport);
                }
            }
            tx.execute(
                &format!(
                    "INSERT INTO moderation_actions ({ACTION_COLUMNS})
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
                ),
                &[
                    &a.id as Param,
                    &a.kind.as_str(),
                    &a.moderator,
                    &a.account,
                    &a.reason,
                    &a.until_ms,
                    &a.report,
                    &a.at_ms,
                    &a.guest,
                ],
            )
            .await
            .map_err(port)?;
            tx.commit().await.map_err(port)?;
            Ok(())
        })
    }

    fn actions<'a>(
        &'a self,
        account: &'a str,
        limit: u32,
    ) -> PortFuture<'a, Result<Vec<Action>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    &format!(
                        "SELECT {ACTION_COLUMNS} FROM moderation_actions
                         WHERE account_id = $1 ORDER BY at_ms DESC, id DESC LIMIT $2"
                    ),
                    &[&account as Param, &i64::from(limit)],
                )
                .await
                .map_err(port)?;
            Ok(rows.iter().map(action).collect())
        })
    }

    fn standing<'a>(
        &'a self,
        account: &'a str,
    ) -> PortFuture<'a, Result<Option<Standing>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let row = client
                .query_opt(
                    "SELECT moderator OR admin, disabled, muted_until_ms, timed_out_until_ms,
                        (SELECT COUNT(*) FROM moderation_actions
                         WHERE account_id = accounts.id AND kind = 'warn')
                     FROM accounts WHERE id = $1",
                    &[&account],
                )
                .await
                .map_err(port)?;
            Ok(row.map(|r| Standing {
                moderator: r.get(0),
                disabled: r.get(1),
                muted_until_ms: r.get(2),
                timed_out_until_ms: r.get(3),
                warnings: u32::try_from(r.get::<_, i64>(4)).unwrap_or(u32::MAX),
            }))
        })
    }

    fn set_moderator<'a>(
        &'a self,
        account: &'a str,
        moderator: bool,
    ) -> PortFuture<'a, Result<bool, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let changed = client
                .execute(
                    "UPDATE accounts SET moderator = $2 WHERE id = $1",
                    &[&account as Param, &moderator],
                )
                .await
                .map_err(port)?;
            Ok(changed == 1)
        })
    }

    fn barred<'a>(
        &'a self,
        accounts: &'a [String],
        now_ms: i64,
    ) -> PortFuture<'a, Result<Vec<String>, PortError>> {
        Box::pin(async move {
            if accounts.is_empty() {
                return Ok(Vec::new());
            }
            let client = self.client().await?;
            let rows = client
                .query(
                    "SELECT id FROM accounts
                     WHERE id = ANY($1) AND (disabled OR timed_out_until_ms > $2)",
                    &[&accounts as Param, &now_ms],
                )
                .await
                .map_err(port)?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn guest_muted_until<'a>(
        &'a self,
        player: &'a str,
        now_ms: i64,
    ) -> PortFuture<'a, Result<Option<i64>, PortError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let row = client
                .query_opt(
                    "SELECT until_ms FROM moderation_guest_mutes
                     WHERE player_id = $1 AND until_ms > $2",
                    &[&player as Param, &now_ms],
                )
                .await
                .map_err(port)?;
            Ok(row.map(|r| r.get(0)))
        })
    }
}
