//! Hand records in a cluster: read from the tables' logs (a hand-finished entry holds its record),
//! so any node answers `/api/tables/{id}/hands` from the cluster's durable state.

use burraco_protocol::log::TableEntry;

use super::log::JetStreamLog;
use crate::log::{LogError, TableLog as _};

/// The table's hand records as a JSON array text, in hand order.
pub async fn of_table(log: &JetStreamLog, table: &str) -> Result<String, LogError> {
    // Not a subject token (a dot, a wildcard): no such table.
    if table.is_empty() || table.contains(['.', '*', '>', ' ']) {
        return Ok("[]".into());
    }
    let records: Vec<String> = log
        .load(table)
        .await?
        .iter()
        .filter_map(|bytes| match TableEntry::decode(bytes) {
            Ok(TableEntry::HandFinished { record, .. }) => Some(record),
            _ => None,
        })
        .collect();
    Ok(format!("[{}]", records.join(",")))
}
