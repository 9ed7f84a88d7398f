//! The server's own findings grouped (issue 32): a same-address signal, a farming refusal or a
//! filtered chat line about accounts an open report of its kind is already about is counted in
//! that report, which takes the latest finding's context, instead of a new row each time (on one
//! machine whose bots all connect from one address, 383 same-address rows in 30 minutes buried
//! the players' reports). The moderators' queue shows each case once, with how many times it was
//! found and when last; closing the report closes the case, and a later finding opens a new one.
//!
//! Pure: the stores ([`super::sqlite`], [`super::postgres`]) read the open grouped reports of the
//! finding's kind and apply [`plan`]'s answer in one transaction. A group's accounts are kept in
//! its row's `flood_key` (no flood limit applies to a grouped report: it never adds rows), so no
//! column was added; its count, latest time and accounts are in its context.

use super::{Context, NewReport};

/// What a grouped report's `flood_key` starts with...
const PREFIX: &str = "group|";
/// ...as a `LIKE` pattern (SQLite's and PostgreSQL's alike), to read the groups only.
pub const KEY_PATTERN: &str = "group|%";

/// One of the server's own findings, to group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The report it would be alone (its `flood_key` is not used).
    pub report: NewReport,
    /// Whom it is about: accounts (a guest speaker by its player id). Findings of one kind that
    /// share any of them are one case.
    pub accounts: Vec<String>,
}

/// An open grouped report, as the store read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenGroup {
    pub id: String,
    pub flood_key: String,
    pub context: Context,
}

/// What the store does with a finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// No open report of its kind is about its accounts: a new one, with this key and context.
    Open { flood_key: String, context: Context },
    /// Counted in report `id`, which takes this key, context and table; the reports `merged`
    /// (other open cases the finding linked to it) are closed into it.
    Count {
        id: String,
        flood_key: String,
        context: Context,
        table: Option<String>,
        merged: Vec<String>,
    },
}

/// What the store did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grouped {
    /// A new report.
    Opened,
    /// Counted in an open report.
    Counted,
}

/// The key of a group about `accounts`: each once, sorted, between bars.
pub fn key_of<'a>(accounts: impl IntoIterator<Item = &'a str>) -> String {
    let mut accounts: Vec<&str> = accounts.into_iter().collect();
    accounts.sort_unstable();
    accounts.dedup();
    let mut key = PREFIX.to_owned();
    for account in accounts {
        key.push_str(account);
        key.push('|');
    }
    key
}

/// The accounts a group's key names; `None` for a key no grouping wrote.
pub fn accounts_of(flood_key: &str) -> Option<Vec<&str>> {
    let rest = flood_key.strip_prefix(PREFIX)?;
    Some(rest.split('|').filter(|a| !a.is_empty()).collect())
}

/// Where `finding` goes, given the open grouped reports of its kind (oldest first): into the
/// oldest that shares an account with it, else a new report. The others it shares one with are
/// the same case now (the finding links them): merged into that one, their counts and accounts
/// with them.
///
/// Counted there, the report takes the finding's context (its table, seats, detail) and its
/// accounts, and its count grows by one unless the finding is the one it holds already (the same
/// table, and for a chat line the same line: a seat taken again at one table, a projection run
/// again after a crash).
pub fn plan(open: &[OpenGroup], finding: &Finding) -> Plan {
    let mine: Vec<&str> = finding.accounts.iter().map(String::as_str).collect();
    let linked: Vec<(&OpenGroup, Vec<&str>)> = open
        .iter()
        .filter_map(|g| {
            let theirs = accounts_of(&g.flood_key)?;
            theirs
                .iter()
                .any(|a| mine.contains(a))
                .then_some((g, theirs))
        })
        .collect();
    let Some(((group, _), others)) = linked.split_first() else {
        let mut context = finding.report.context.clone();
        context.count = Some(1);
        context.last_ms = Some(finding.report.created_ms);
        context.accounts = sorted(mine.iter().copied());
        return Plan::Open {
            flood_key: key_of(mine),
            context,
        };
    };
    let accounts = sorted(
        linked
            .iter()
            .flat_map(|(_, theirs)| theirs.iter())
            .chain(&mine)
            .copied(),
    );
    let held = &group.context;
    let mut context = finding.report.context.clone();
    let merged_count: u32 = others
        .iter()
        .map(|(g, _)| g.context.count.unwrap_or(1))
        .fold(0, u32::saturating_add);
    let found = u32::from(!same_finding(held, &context));
    context.count = Some(
        held.count
            .unwrap_or(1)
            .saturating_add(merged_count)
            .saturating_add(found),
    );
    context.last_ms = Some(finding.report.created_ms);
    context.accounts = accounts.clone();
    Plan::Count {
        id: group.id.clone(),
        flood_key: key_of(accounts.iter().map(String::as_str)),
        table: context.table.clone(),
        context,
        merged: others.iter().map(|(g, _)| g.id.clone()).collect(),
    }
}

/// Whether two findings are one: at the same table (and for a chat line, the same line).
fn same_finding(a: &Context, b: &Context) -> bool {
    a.table == b.table && a.line.as_ref().map(|l| l.seq) == b.line.as_ref().map(|l| l.seq)
}

fn sorted<'a>(accounts: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut accounts: Vec<String> = accounts.map(str::to_owned).collect();
    accounts.sort_unstable();
    accounts.dedup();
    accounts
}

#[cfg(test)]
mod tests {
    use super::super::{Reason, ReportKind};
    use super::*;

    fn finding(table: &str, accounts: &[&str], at: i64) -> Finding {
        Finding {
            report: NewReport {
                id: format!("r-{at}"),
                kind: ReportKind::SameAddress,
                reporter: None,
                flood_key: String::new(),
                subject: Some(accounts[0].into()),
                subject_name: "A".into(),
                table: Some(table.into()),
                reason: Reason::MultiAccount,
                note: String::new(),
                context: Context {
                    table: Some(table.into()),
                    ..Context::default()
                },
                created_ms: at,
            },
            accounts: accounts.iter().map(|a| (*a).to_owned()).collect(),
        }
    }

    /// Applies plans to an in-memory queue, as a store does.
    fn file(open: &mut Vec<OpenGroup>, f: &Finding) {
        match plan(open, f) {
            Plan::Open { flood_key, context } => open.push(OpenGroup {
                id: f.report.id.clone(),
                flood_key,
                context,
            }),
            Plan::Count {
                id,
                flood_key,
                context,
                merged,
                ..
            } => {
                open.retain(|g| !merged.contains(&g.id));
                let group = open.iter_mut().find(|g| g.id == id).expect("open");
                group.flood_key = flood_key;
                group.context = context;
            }
        }
    }

    #[test]
    fn findings_about_linked_accounts_are_one_case_counted_by_table() {
        let mut open = Vec::new();
        file(&mut open, &finding("t-1", &["u-b", "u-a"], 1));
        assert_eq!(open[0].flood_key, "group|u-a|u-b|");
        file(&mut open, &finding("t-1", &["u-a", "u-b"], 2));
        assert_eq!(open[0].context.count, Some(1), "the same table: not again");
        file(&mut open, &finding("t-2", &["u-a", "u-b"], 3));
        file(&mut open, &finding("t-3", &["u-c", "u-d"], 4));
        assert_eq!(open.len(), 2, "no account in common: two cases");
        file(&mut open, &finding("t-4", &["u-d", "u-a"], 5));
        let [case] = open.as_slice() else {
            panic!("merged: {open:?}")
        };
        assert_eq!(case.id, "r-1", "into the oldest");
        assert_eq!(case.context.count, Some(4));
        assert_eq!(case.context.last_ms, Some(5));
        assert_eq!(case.context.table.as_deref(), Some("t-4"));
        assert_eq!(case.context.accounts, ["u-a", "u-b", "u-c", "u-d"]);
        assert_eq!(
            accounts_of(&case.flood_key),
            Some(vec!["u-a", "u-b", "u-c", "u-d"])
        );
        assert_eq!(
            accounts_of("account:u-a"),
            None,
            "a player's report is no group"
        );
    }
}
