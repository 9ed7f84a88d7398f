//! The server's own reports: a chat line the word filter catches ([`super::chat_filter`]), two
//! accounts connected from one address seated at one rated table, and the same accounts' rated
//! matches past the ratings' daily cap (rating farming). Filed in the background (a table's
//! actor never waits on the store), each with the context the table had, and grouped
//! ([`super::grouping`]): a finding about accounts an open report of its kind is about is
//! counted there, so the moderators' queue shows each case once however often it is found.

use std::net::IpAddr;
use std::sync::Arc;

use burraco_rules::Seat;

use tokio_util::task::TaskTracker;

use super::grouping::{Finding, Grouped};
use super::{
    ChatLine, Context, ContextSeat, Moderation, ModerationStore, NewReport, Reason, ReportKind,
};
use crate::accounts::Accounts;
use crate::accounts::address::subscriber_block;
use crate::table::TableInfo;

/// What the lobby knows of a table, as a report's context (no chat yet).
pub fn context_of(table: &str, info: &TableInfo) -> Context {
    let playing = info.summary.status == "playing";
    let hand = if playing {
        Some(info.hands_finished + 1)
    } else {
        (info.hands_finished > 0).then_some(info.hands_finished)
    };
    Context {
        table: Some(table.to_owned()),
        status: Some(info.summary.status.clone()),
        hand,
        seats: info
            .summary
            .seats
            .iter()
            .map(|s| ContextSeat {
                seat: s.seat.0.to_string(),
                name: s.name.clone(),
                bot: s.bot,
            })
            .collect(),
        ..Context::default()
    }
}

/// A chat line a table published: kept for reports, and reported when the filter catches it.
/// The line is delivered either way (see [`super::chat_filter`]). `tracker`: the node's tasks,
/// a report is filed on one.
pub fn chat_line(
    moderation: &Moderation,
    tracker: &TaskTracker,
    table: &str,
    line: ChatLine,
    info: &TableInfo,
) {
    moderation.chat.push(table, line.clone());
    let Some(word) = super::chat_filter::flagged(&line.text) else {
        return;
    };
    let mut context = context_of(table, info);
    context.chat_here = true;
    context.chat = moderation
        .chat
        .around(table, line.seq)
        .map(|(_, around)| around)
        .unwrap_or_default();
    context.detail = Some(format!("the filter's word: {word}"));
    // A guest by its player id (a mute names it), or by its name when the line has none.
    let speaker =
        (line.account.clone().or_else(|| line.player.clone())).unwrap_or_else(|| line.name.clone());
    if line.account.is_none() {
        context.guest = line.player.clone();
    }
    context.line = Some(line.clone());
    let report = NewReport {
        id: crate::ids::random_id("r", 8),
        kind: ReportKind::ChatFilter,
        reporter: None,
        flood_key: String::new(),
        subject: line.account,
        subject_name: line.name,
        table: Some(table.to_owned()),
        reason: Reason::Abuse,
        note: String::new(),
        context,
        created_ms: crate::ids::unix_ms(),
    };
    let finding = Finding {
        report,
        accounts: vec![speaker],
    };
    file(&moderation.store, tracker, finding);
}

/// An account's seat at a table, for the same-address signal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatedAccount {
    pub seat: Seat,
    pub account: String,
    pub name: String,
    /// The connection that holds the seat now (its outbox's id): `None` while the player is
    /// away (disconnected, or a stand-in plays for them).
    pub conn: Option<u64>,
}

/// The address of the connection `conn` of `account` now: its connection's on this node, or
/// for one through another node of a cluster, the address its forwarded seat request carried
/// (`addresses.rs`). `None` when unknown: an address is never guessed from an older connection.
fn address_now(moderation: &Moderation, account: &str, conn: u64, now_ms: i64) -> Option<IpAddr> {
    (moderation.connections)
        .address_of(account, conn)
        .or_else(|| moderation.seen.of_connection(account, conn, now_ms))
}

/// The pairs of seated accounts whose connections share an address now (an IPv6 address by
/// its /64), in seat order. An account's address is the connection's that holds its seat, never
/// one it was seen at before (a player who left from one network and came back from another is
/// not at the first any more); a seat nobody holds now, or whose connection's address is not
/// known, is not compared.
pub fn sharing<'a>(
    moderation: &Moderation,
    seated: &'a [SeatedAccount],
) -> Vec<(&'a SeatedAccount, &'a SeatedAccount)> {
    let now = crate::ids::unix_ms();
    let addressed: Vec<(&SeatedAccount, IpAddr)> = seated
        .iter()
        .filter_map(|s| {
            let address = address_now(moderation, &s.account, s.conn?, now)?;
            Some((s, subscriber_block(address)))
        })
        .collect();
    let mut pairs = Vec::new();
    for (i, (a, a_block)) in addressed.iter().enumerate() {
        for (b, b_block) in &addressed[i + 1..] {
            if a.account != b.account && a_block == b_block {
                pairs.push((*a, *b));
            }
        }
    }
    pairs
}

/// Reports each pair [`sharing`] found at `table` to the moderators (in the background,
/// grouped: the same accounts found again are the same case).
pub fn report_sharing(
    moderation: &Moderation,
    tracker: &TaskTracker,
    table: &str,
    pairs: &[(&SeatedAccount, &SeatedAccount)],
    info: &TableInfo,
) {
    let now = crate::ids::unix_ms();
    for (sa, sb) in pairs {
        let (a, a_name, b, b_name) = (&sa.account, &sa.name, &sb.account, &sb.name);
        let mut context = context_of(table, info);
        context.detail = Some(format!(
            "{a_name} ({a}) and {b_name} ({b}) are connected from one address"
        ));
        let report = NewReport {
            id: crate::ids::random_id("r", 8),
            kind: ReportKind::SameAddress,
            reporter: None,
            flood_key: String::new(),
            subject: Some(b.clone()),
            subject_name: b_name.clone(),
            table: Some(table.to_owned()),
            reason: Reason::MultiAccount,
            note: String::new(),
            context,
            created_ms: now,
        };
        let finding = Finding {
            report,
            accounts: vec![a.clone(), b.clone()],
        };
        file(&moderation.store, tracker, finding);
    }
}

/// A rated match the ratings refused as farming (the same accounts past the daily cap,
/// `crate::ratings::NotRated::DailyCap`): a report to the moderators with the accounts' names,
/// grouped with the open farming report about any of them. Awaited: a match-end projection
/// calls it, off any table's task, and a second run after a crash finds its table's finding
/// counted already. `names`: the accounts' store, which names them.
pub async fn rating_farming(
    store: &dyn ModerationStore,
    names: &dyn Accounts,
    table: &str,
    accounts: &[String],
) {
    let mut named: Vec<(String, String)> = Vec::new();
    for id in accounts {
        let name = match names.by_id(id).await {
            Ok(Some(account)) => account.username,
            _ => id.clone(),
        };
        named.push((id.clone(), name));
    }
    let Some((subject, subject_name)) = named.first() else {
        return;
    };
    let mut ids: Vec<&str> = named.iter().map(|(id, _)| id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    let names: Vec<&str> = named.iter().map(|(_, name)| name.as_str()).collect();
    let context = Context {
        table: Some(table.to_owned()),
        status: Some("finished".into()),
        detail: Some(format!(
            "{} played more rated matches together today than the ratings count (not rated: daily_cap)",
            names.join(", ")
        )),
        ..Context::default()
    };
    let report = NewReport {
        id: crate::ids::random_id("r", 8),
        kind: ReportKind::RatingFarming,
        reporter: None,
        flood_key: String::new(),
        subject: Some(subject.clone()),
        subject_name: subject_name.clone(),
        table: Some(table.to_owned()),
        reason: Reason::MultiAccount,
        note: String::new(),
        context,
        created_ms: crate::ids::unix_ms(),
    };
    let finding = Finding {
        report,
        accounts: ids.iter().map(|id| (*id).to_owned()).collect(),
    };
    match store.file_grouped(&finding).await {
        Ok(grouped) => tracing::info!(%table, ?grouped, "rating farming reported"),
        Err(e) => tracing::warn!(%table, "cannot file a farming report: {e}"),
    }
}

/// Files a finding of the server's own in the background, grouped.
fn file(store: &Arc<dyn ModerationStore>, tracker: &TaskTracker, finding: Finding) {
    let store = store.clone();
    tracker.spawn(async move {
        let kind = finding.report.kind.as_str();
        match store.file_grouped(&finding).await {
            // A new case; a case found again is counted quietly.
            Ok(Grouped::Opened) => {
                tracing::info!(report = %finding.report.id, kind, "automatic report")
            }
            Ok(Grouped::Counted) => {}
            Err(e) => tracing::warn!("cannot file an automatic report: {e}"),
        }
    });
}
