//! The tables' logs ([`TableLog`]) on the store: appends go to the writer thread and wait for
//! its commit; loads read `table_log` on their own connection, in one pass from the oldest first
//! row wanted (the log has no index by table, so that its appends stay cheap).

use std::collections::HashMap;

use rusqlite::OptionalExtension;
use tokio::sync::oneshot;

use super::{Job, Store, StoreError};
use crate::log::{Entry, LogError, LogFuture, TableLog};

impl TableLog for Store {
    fn append(&self, table: &str, expected: u64, entries: Vec<Entry>) -> LogFuture<'_, u64> {
        let table = table.to_owned();
        Box::pin(async move {
            let (ack, done) = oneshot::channel();
            self.tx
                .send(Job::Append {
                    table,
                    expected,
                    entries,
                    ack,
                })
                .await
                .map_err(|_| LogError::from(StoreError::Closed))?;
            self.wait(done)
                .await
                .ok_or_else(|| LogError::from(StoreError::Closed))?
        })
    }

    fn load(&self, table: &str) -> LogFuture<'_, Vec<Entry>> {
        let table = table.to_owned();
        let store = self.clone();
        Box::pin(async move {
            let mut logs = tokio::task::spawn_blocking(move || store.read_logs(Some(&[table])))
                .await
                .map_err(|_| StoreError::Closed)??;
            Ok(logs.pop().map(|(_, entries)| entries).unwrap_or_default())
        })
    }

    fn load_many<'a>(&'a self, tables: &'a [String]) -> LogFuture<'a, Vec<Vec<Entry>>> {
        let store = self.clone();
        let wanted = tables.to_vec();
        Box::pin(async move {
            let logs = tokio::task::spawn_blocking(move || store.read_logs(Some(&wanted)))
                .await
                .map_err(|_| StoreError::Closed)??;
            Ok(logs.into_iter().map(|(_, entries)| entries).collect())
        })
    }

    fn in_play(&self) -> LogFuture<'_, Vec<String>> {
        let store = self.clone();
        Box::pin(async move {
            let tables = tokio::task::spawn_blocking(move || -> Result<_, StoreError> {
                let conn = store.reader()?;
                let mut stmt =
                    conn.prepare("SELECT id FROM log_tables WHERE in_play = 1 ORDER BY first_row")?;
                let ids = stmt
                    .query_map([], |r| r.get::<_, String>(0))?
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(ids)
            })
            .await
            .map_err(|_| StoreError::Closed)??;
            Ok(tables)
        })
    }

    fn load_in_play(&self) -> LogFuture<'_, Vec<(String, Vec<Entry>)>> {
        let store = self.clone();
        Box::pin(async move {
            let logs = tokio::task::spawn_blocking(move || store.read_logs(None))
                .await
                .map_err(|_| StoreError::Closed)??;
            // The writer learns their lengths now rather than counting each on its first append.
            let known = logs
                .iter()
                .map(|(table, entries)| (table.clone(), entries.len() as u64))
                .collect();
            let _ = self.tx.send(Job::Known(known)).await;
            Ok(logs)
        })
    }
}

impl Store {
    /// The logs of the tables named (even if no longer in play; in the order given, empty for
    /// a table never written), or of every table in play (oldest first), reading `table_log`
    /// once from the oldest first row among them: the log has no index by table, so that its
    /// appends stay cheap, and one pass serves any number of tables.
    fn read_logs(&self, only: Option<&[String]>) -> Result<Vec<(String, Vec<Entry>)>, StoreError> {
        let conn = self.reader()?;
        let mut tables: Vec<(String, Option<i64>)> = match only {
            Some(ids) => {
                let mut stmt = conn.prepare("SELECT first_row FROM log_tables WHERE id = ?1")?;
                ids.iter()
                    .map(|id| {
                        let first = stmt.query_row([id], |r| r.get(0)).optional()?;
                        Ok((id.clone(), first))
                    })
                    .collect::<Result<_, StoreError>>()?
            }
            None => conn
                .prepare(
                    "SELECT id, first_row FROM log_tables WHERE in_play = 1 ORDER BY first_row",
                )?
                .query_map([], |r| Ok((r.get(0)?, Some(r.get(1)?))))?
                .collect::<Result<_, _>>()?,
        };
        let from = tables.iter().filter_map(|(_, first)| *first).min();
        let index: HashMap<String, usize> = tables
            .iter()
            .enumerate()
            .filter(|(_, (_, first))| first.is_some())
            .map(|(i, (id, _))| (id.clone(), i))
            .collect();
        let mut logs: Vec<(String, Vec<Entry>)> =
            tables.drain(..).map(|(id, _)| (id, Vec::new())).collect();
        let Some(from) = from else {
            return Ok(logs);
        };
        let mut stmt =
            conn.prepare("SELECT table_id, entry FROM table_log WHERE rowid >= ?1 ORDER BY rowid")?;
        let mut rows = stmt.query([from])?;
        while let Some(row) = rows.next()? {
            let table: String = row.get(0)?;
            if let Some(&i) = index.get(&table) {
                logs[i].1.push(row.get(1)?);
            }
        }
        Ok(logs)
    }
}
