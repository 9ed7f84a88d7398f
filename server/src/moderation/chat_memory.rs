//! The recent chat of the tables this node serves, as their actors published it: what a report
//! of a chat line is checked against and keeps as its context (the reporter's copy is never
//! trusted). Chat is not in the table's log (it decides nothing), so it lives here, bounded:
//! [`LINES_PER_TABLE`] a table, and a table silent for [`FORGET_AFTER_MS`] is forgotten.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use super::ChatLine;

/// Lines kept per table: a report names a recent line.
pub const LINES_PER_TABLE: usize = 64;
/// Lines around a reported one kept in its report's context, each side.
pub const AROUND: usize = 5;
/// A table whose last line is older than this is forgotten (it has closed, or gone quiet).
pub const FORGET_AFTER_MS: i64 = 6 * 3600 * 1000;
/// Every this many lines, the tables gone quiet are swept.
const SWEEP_EVERY: u64 = 1024;

#[derive(Debug, Default)]
pub struct ChatMemory {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    tables: HashMap<String, VecDeque<ChatLine>>,
    pushed: u64,
}

impl ChatMemory {
    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A line the table published.
    pub fn push(&self, table: &str, line: ChatLine) {
        let mut inner = self.inner();
        inner.pushed += 1;
        if inner.pushed.is_multiple_of(SWEEP_EVERY) {
            let oldest = line.at_ms - FORGET_AFTER_MS;
            inner
                .tables
                .retain(|_, lines| lines.back().is_some_and(|l| l.at_ms >= oldest));
        }
        let lines = inner.tables.entry(table.to_owned()).or_default();
        if lines.len() == LINES_PER_TABLE {
            lines.pop_front();
        }
        lines.push_back(line);
    }

    /// The line `seq` of `table` and the [`AROUND`] lines each side of it; `None` when this
    /// node keeps no such line.
    pub fn around(&self, table: &str, seq: u64) -> Option<(ChatLine, Vec<ChatLine>)> {
        let inner = self.inner();
        let lines = inner.tables.get(table)?;
        let at = lines.iter().position(|l| l.seq == seq)?;
        let from = at.saturating_sub(AROUND);
        let to = (at + AROUND + 1).min(lines.len());
        Some((lines[at].clone(), lines.range(from..to).cloned().collect()))
    }

    /// The latest lines of `table` (at most `2 * AROUND + 1`), oldest first.
    pub fn latest(&self, table: &str) -> Vec<ChatLine> {
        let inner = self.inner();
        inner.tables.get(table).map_or_else(Vec::new, |lines| {
            let from = lines.len().saturating_sub(2 * AROUND + 1);
            lines.range(from..).cloned().collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(seq: u64, at_ms: i64) -> ChatLine {
        ChatLine {
            seq,
            seat: Some("N".into()),
            name: "Anna".into(),
            account: None,
            player: Some("p-anna".into()),
            text: format!("line {seq}"),
            at_ms,
        }
    }

    #[test]
    fn a_line_comes_with_its_neighbours_and_old_lines_go() {
        let memory = ChatMemory::default();
        for seq in 1..=(LINES_PER_TABLE as u64 + 10) {
            memory.push("t-1", line(seq, 1000));
        }
        assert!(memory.around("t-1", 5).is_none(), "pushed out");
        let (line, around) = memory.around("t-1", 40).expect("kept");
        assert_eq!(line.seq, 40);
        let seqs: Vec<u64> = around.iter().map(|l| l.seq).collect();
        assert_eq!(seqs, (35..=45).collect::<Vec<_>>());
        assert!(memory.around("t-2", 40).is_none(), "another table");
        assert_eq!(memory.latest("t-1").len(), 2 * AROUND + 1);
    }

    #[test]
    fn quiet_tables_are_forgotten() {
        let memory = ChatMemory::default();
        memory.push("t-old", line(1, 0));
        for seq in 0..SWEEP_EVERY {
            memory.push("t-new", line(seq, FORGET_AFTER_MS + 1));
        }
        assert!(memory.latest("t-old").is_empty());
        assert!(!memory.latest("t-new").is_empty());
    }
}
