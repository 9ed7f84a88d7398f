//! The tables' logs ([`TableLog`]) on the store: appends go to the writer thread and wait for
//! its commit; loads read `table_log` on their own connection: one table's log by following its
//! rows' links back from its last row, the tables in play in one pass from the oldest first row
//! (the log has no index by table, so that its appends stay cheap).

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::oneshot;

use super::writer::Tail;
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
            let mut logs = tokio::task::spawn_blocking(move || store.read_named(&[table]))
                .await
                .map_err(|_| StoreError::Closed)??;
            Ok(logs.pop().unwrap_or_default())
        })
    }

    fn load_many<'a>(&'a self, tables: &'a [String]) -> LogFuture<'a, Vec<Vec<Entry>>> {
        let store = self.clone();
        let wanted = tables.to_vec();
        Box::pin(async move {
            Ok(
                tokio::task::spawn_blocking(move || store.read_named(&wanted))
                    .await
                    .map_err(|_| StoreError::Closed)??,
            )
        })
    }

    fn in_play(&self) -> LogFuture<'_, Vec<String>> {
        let store = self.clone();
        Box::pin(async move {
            let tables = tokio::task::spawn_blocking(move || {
                store.read(|conn| {
                    let mut stmt = conn.prepare_cached(
                        "SELECT id FROM log_tables WHERE in_play = 1 ORDER BY first_row",
                    )?;
                    let ids = stmt
                        .query_map([], |r| r.get::<_, String>(0))?
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(ids)
                })
            })
            .await
            .map_err(|_| StoreError::Closed)??;
            Ok(tables)
        })
    }

    fn load_in_play(&self) -> LogFuture<'_, Vec<(String, Vec<Entry>)>> {
        let store = self.clone();
        Box::pin(async move {
            let logs = tokio::task::spawn_blocking(move || store.read_in_play())
                .await
                .map_err(|_| StoreError::Closed)??;
            // The writer learns where they stand now rather than counting each on its first append.
            let known = logs
                .iter()
                .map(|(table, _, tail)| (table.clone(), *tail))
                .collect();
            let _ = self.tx.send(Job::Known(known)).await;
            Ok(logs
                .into_iter()
                .map(|(table, entries, _)| (table, entries))
                .collect())
        })
    }
}

/// Up to this many tables named at once are each read along their links; more are read in one
/// pass from the oldest first row among them. Following a link is a B-tree lookup per entry,
/// a scan a step per row of any table: a few tables among hundreds in play cost far less by
/// links, but a tournament round's tables read together (most of the rows the pass meets are
/// theirs) cost less by the pass.
const LINKED_READS_AT_MOST: usize = 8;

impl Store {
    /// The logs of the tables named, in the order given (ended or not; empty for a table never
    /// written), all as of one moment.
    fn read_named(&self, tables: &[String]) -> Result<Vec<Vec<Entry>>, StoreError> {
        self.read(|conn| {
            let snapshot = conn.transaction()?;
            if tables.len() <= LINKED_READS_AT_MOST {
                return tables
                    .iter()
                    .map(|table| read_linked(&snapshot, table))
                    .collect();
            }
            let mut first_row =
                snapshot.prepare_cached("SELECT first_row FROM log_tables WHERE id = ?1")?;
            let mut from: Option<i64> = None;
            for table in tables {
                if let Some(first) = first_row
                    .query_row([table], |r| r.get::<_, i64>(0))
                    .optional()?
                {
                    from = Some(from.map_or(first, |from| from.min(first)));
                }
            }
            drop(first_row);
            let Some(from) = from else {
                return Ok(vec![Vec::new(); tables.len()]);
            };
            let logs = scan_tables(&snapshot, from, tables)?;
            Ok(logs.into_iter().map(|(entries, _)| entries).collect())
        })
    }

    /// Every table in play (oldest first), its log and where it stands, in one pass.
    fn read_in_play(&self) -> Result<Vec<(String, Vec<Entry>, Tail)>, StoreError> {
        let conn = self.reader()?;
        let mut tables = Vec::new();
        let mut from = None;
        {
            let mut stmt = conn.prepare(
                "SELECT id, first_row FROM log_tables WHERE in_play = 1 ORDER BY first_row",
            )?;
            let mut rows = stmt.query([])?;
            while let Some(row) = rows.next()? {
                from = from.or(Some(row.get::<_, i64>(1)?));
                tables.push(row.get::<_, String>(0)?);
            }
        }
        let Some(from) = from else {
            return Ok(Vec::new());
        };
        let logs = scan_tables(&conn, from, &tables)?;
        Ok(tables
            .into_iter()
            .zip(logs)
            .map(|(table, (entries, tail))| (table, entries, tail))
            .collect())
    }
}

/// The logs of `tables` and where each stands, in the order given (a table named twice twice, a
/// table never written empty), reading `table_log` once from row `from` (at or before the first
/// row of each).
fn scan_tables(
    conn: &Connection,
    from: i64,
    tables: &[String],
) -> Result<Vec<(Vec<Entry>, Tail)>, StoreError> {
    // Each name's first place in `tables`; a later place of the same name is copied at the end.
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(tables.len());
    for (i, table) in tables.iter().enumerate() {
        index.entry(table.as_str()).or_insert(i);
    }
    let mut logs: Vec<(Vec<Entry>, Tail)> = vec![Default::default(); tables.len()];
    let mut stmt = conn.prepare_cached(
        "SELECT rowid, table_id, entry FROM table_log WHERE rowid >= ?1 ORDER BY rowid",
    )?;
    let mut rows = stmt.query([from])?;
    while let Some(row) = rows.next()? {
        let table = row.get_ref(1)?.as_str().map_err(rusqlite::Error::from)?;
        if let Some(&i) = index.get(table) {
            let (entries, tail) = &mut logs[i];
            entries.push(row.get(2)?);
            tail.len += 1;
            tail.last_row = Some(row.get(0)?);
        }
    }
    for (i, table) in tables.iter().enumerate() {
        let first = index[table.as_str()];
        if first != i {
            logs[i] = logs[first].clone();
        }
    }
    Ok(logs)
}

/// `table`'s log, followed back from its last row through each row's `prev_row`. A link that
/// does not hold (rows written before the links, schema version 2) falls back to a scan of every
/// row since the table began.
fn read_linked(conn: &Connection, table: &str) -> Result<Vec<Entry>, StoreError> {
    let Some((first, last)) = conn
        .prepare_cached("SELECT first_row, last_row FROM log_tables WHERE id = ?1")?
        .query_row([table], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, Option<i64>>(1)?))
        })
        .optional()?
    else {
        return Ok(Vec::new());
    };
    // A table in play: its last row is among the latest, so the search back is short.
    let last = match last {
        Some(last) => Some(last),
        None => conn
            .prepare_cached(
                "SELECT rowid FROM table_log WHERE rowid >= ?1 AND table_id = ?2 ORDER BY rowid DESC LIMIT 1",
            )?
            .query_row(params![first, table], |r| r.get(0))
            .optional()?,
    };
    let Some(mut row) = last else {
        return Ok(Vec::new());
    };
    let mut stmt = conn
        .prepare_cached("SELECT table_id = ?2, entry, prev_row FROM table_log WHERE rowid = ?1")?;
    let mut entries = Vec::new();
    loop {
        let Some((ours, entry, prev)) = stmt
            .query_row(params![row, table], |r| {
                Ok((
                    r.get::<_, bool>(0)?,
                    r.get::<_, Entry>(1)?,
                    r.get::<_, Option<i64>>(2)?,
                ))
            })
            .optional()?
        else {
            return scan(conn, table, first);
        };
        if !ours {
            return scan(conn, table, first);
        }
        entries.push(entry);
        if row == first {
            break;
        }
        match prev {
            // Links only go back, and never before the table began: the walk ends.
            Some(prev) if prev < row && prev >= first => row = prev,
            _ => return scan(conn, table, first),
        }
    }
    entries.reverse();
    Ok(entries)
}

/// `table`'s log by a scan of every row since it began (row `first`).
fn scan(conn: &Connection, table: &str, first: i64) -> Result<Vec<Entry>, StoreError> {
    let entries = conn
        .prepare_cached(
            "SELECT entry FROM table_log WHERE rowid >= ?1 AND table_id = ?2 ORDER BY rowid",
        )?
        .query_map(params![first, table], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(entries)
}
