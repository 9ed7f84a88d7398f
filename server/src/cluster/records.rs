//! Hand records in a cluster: read from the tables' logs (a hand-finished entry holds its record),
//! so any node answers `/api/tables/{id}/hands` from the cluster's durable state.

use burraco_protocol::log::TableEntry;

use super::log::JetStreamLog;
use crate::log::{LogError, TableLog as _};

/// The most records `/api/players/{name}/hands` returns (as the single node's query).
const PLAYER_RECORDS_MAX: usize = 1000;

/// The table's hand records as a JSON array text, in hand order.
pub async fn of_table(log: &JetStreamLog, table: &str) -> Result<String, LogError> {
    let records: Vec<String> = records(log, table)
        .await?
        .into_iter()
        .map(|(record, _)| record)
        .collect();
    Ok(format!("[{}]", records.join(",")))
}

/// The records of every hand a player of that name sat at, as a JSON array text, oldest first.
pub async fn of_player(log: &JetStreamLog, name: &str) -> Result<String, LogError> {
    let mut found = Vec::new();
    for table in log.tables_of_player(name).await? {
        for (record, names) in records(log, &table).await? {
            if names.iter().any(|n| n == name) && found.len() < PLAYER_RECORDS_MAX {
                found.push(record);
            }
        }
    }
    Ok(format!("[{}]", found.join(",")))
}

/// A table's records, each with the names seated in it.
async fn records(log: &JetStreamLog, table: &str) -> Result<Vec<(String, Vec<String>)>, LogError> {
    // Not a subject token (a dot, a wildcard): no such table.
    if table.is_empty() || table.contains(['.', '*', '>', ' ']) {
        return Ok(Vec::new());
    }
    Ok(log
        .load(table)
        .await?
        .iter()
        .filter_map(|bytes| match TableEntry::decode(bytes) {
            Ok(TableEntry::HandFinished { record, names, .. }) => Some((record, names)),
            _ => None,
        })
        .collect())
}
