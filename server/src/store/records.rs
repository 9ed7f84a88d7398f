//! The hand records the HTTP API reads, by table and by player: projected from each table's
//! `HandFinished` entries in the transaction that appends them, and read back as JSON arrays.

use burraco_protocol::log::TableEntry;
use rusqlite::{Connection, params};

use super::{Store, StoreError};
use crate::log::Entry;

/// Indexes a `HandFinished` entry's record under its table and under each of its players' names.
pub(super) fn project(tx: &Connection, table: &str, entry: &Entry) -> rusqlite::Result<()> {
    if let Ok(TableEntry::HandFinished {
        hand,
        record,
        names,
    }) = TableEntry::decode(entry)
    {
        tx.prepare_cached(
            "INSERT OR REPLACE INTO records (table_id, hand, record) VALUES (?1, ?2, ?3)",
        )?
        .execute(params![table, hand, record])?;
        for name in names {
            tx.prepare_cached(
                "INSERT INTO record_players (name, table_id, hand) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![name, table, hand])?;
        }
    }
    Ok(())
}

impl Store {
    /// Records as a JSON array text, by table.
    pub async fn table_records(&self, table: String) -> Result<String, StoreError> {
        let store = self.clone();
        tokio::task::spawn_blocking(move || {
            store.read(|conn| {
                let mut stmt = conn.prepare_cached(
                    "SELECT record FROM records WHERE table_id = ?1 ORDER BY hand",
                )?;
                let rows = stmt.query_map([table], |r| r.get::<_, String>(0))?;
                json_array(rows)
            })
        })
        .await
        .map_err(|_| StoreError::Closed)?
    }

    /// Records as a JSON array text, of every hand a player of that name sat at.
    pub async fn player_records(&self, name: String) -> Result<String, StoreError> {
        let store = self.clone();
        tokio::task::spawn_blocking(move || {
            store.read(|conn| {
                let mut stmt = conn.prepare_cached(
                    "SELECT r.record FROM record_players p JOIN records r
                     ON r.table_id = p.table_id AND r.hand = p.hand WHERE p.name = ?1
                     ORDER BY p.rowid LIMIT 1000",
                )?;
                let rows = stmt.query_map([name], |r| r.get::<_, String>(0))?;
                json_array(rows)
            })
        })
        .await
        .map_err(|_| StoreError::Closed)?
    }
}

fn json_array(rows: impl Iterator<Item = rusqlite::Result<String>>) -> Result<String, StoreError> {
    let mut out = String::from("[");
    for (i, row) in rows.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&row?);
    }
    out.push(']');
    Ok(out)
}
