//! The server's own reports: a chat line the word filter catches ([`super::chat_filter`]), two
//! accounts connected from one address seated at one rated table, and the same accounts' rated
//! matches past the ratings' daily cap (rating farming). Filed in the background (a table's
//! actor never waits on the store), each with the context the table had, and limited like a
//! player's reports, by a key of their own: one same-address report per pair of accounts and
//! table a day, one farming report per group of accounts a day, a few filter reports per
//! speaker an hour.

use std::net::IpAddr;
use std::sync::Arc;

use burraco_rules::Seat;

use tokio_util::task::TaskTracker;

use super::{
    ChatLine, Context, ContextSeat, Moderation, ModerationStore, NewReport, Reason, ReportKind,
};
use crate::accounts::Accounts;
use crate::table::TableInfo;

/// Filter reports of one speaker in [`super::REPORT_WINDOW_MS`].
const FILTER_REPORTS_PER_WINDOW: u32 = 3;
const DAY_MS: i64 = 24 * 3600 * 1000;

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
    let speaker = line.account.clone().unwrap_or_else(|| line.name.clone());
    if line.account.is_none() {
        context.guest = line.player.clone();
    }
    context.line = Some(line.clone());
    let report = NewReport {
        id: crate::ids::random_id("r", 8),
        kind: ReportKind::ChatFilter,
        reporter: None,
        flood_key: format!("chat_filter:{speaker}"),
        subject: line.account,
        subject_name: line.name,
        table: Some(table.to_owned()),
        reason: Reason::Abuse,
        note: String::new(),
        context,
        created_ms: crate::ids::unix_ms(),
    };
    file(
        &moderation.store,
        tracker,
        report,
        FILTER_REPORTS_PER_WINDOW,
        super::REPORT_WINDOW_MS,
    );
}

/// An account's seat at a table, for the same-address signal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatedAccount {
    pub seat: Seat,
    pub account: String,
    pub name: String,
}

/// Who sits at a rated table after a seat was taken. Two accounts from one address (an IPv6
/// address by its /64) are reported, and their seats returned (in seat order, each once) for
/// the table to show. An account's addresses are its connections' on this node and those it
/// took a seat from through another node (`addresses.rs`: the forwarded join carries it).
pub fn seated(
    moderation: &Moderation,
    tracker: &TaskTracker,
    table: &str,
    seated: &[SeatedAccount],
    info: &TableInfo,
) -> Vec<Seat> {
    let now = crate::ids::unix_ms();
    let addressed: Vec<(&SeatedAccount, Vec<IpAddr>)> = seated
        .iter()
        .map(|s| {
            let mut blocks: Vec<IpAddr> = moderation
                .connections
                .addresses(&s.account)
                .into_iter()
                .chain(moderation.seen.of(&s.account, now))
                .map(block)
                .collect();
            blocks.sort();
            blocks.dedup();
            (s, blocks)
        })
        .collect();
    let mut sharing: Vec<Seat> = Vec::new();
    for (i, (sa, a_blocks)) in addressed.iter().enumerate() {
        for (sb, b_blocks) in &addressed[i + 1..] {
            let (a, a_name, b, b_name) = (&sa.account, &sa.name, &sb.account, &sb.name);
            if a == b || !a_blocks.iter().any(|x| b_blocks.contains(x)) {
                continue;
            }
            sharing.extend([sa.seat, sb.seat]);
            let mut context = context_of(table, info);
            context.detail = Some(format!(
                "{a_name} ({a}) and {b_name} ({b}) are connected from one address"
            ));
            let (first, second) = if a < b { (a, b) } else { (b, a) };
            let report = NewReport {
                id: crate::ids::random_id("r", 8),
                kind: ReportKind::SameAddress,
                reporter: None,
                flood_key: format!("same_address:{table}:{first}:{second}"),
                subject: Some(b.clone()),
                subject_name: b_name.clone(),
                table: Some(table.to_owned()),
                reason: Reason::MultiAccount,
                note: String::new(),
                context,
                created_ms: crate::ids::unix_ms(),
            };
            file(&moderation.store, tracker, report, 1, DAY_MS);
        }
    }
    sharing.sort_by_key(|s| s.index());
    sharing.dedup();
    sharing
}

/// A rated match the ratings refused as farming (the same accounts past the daily cap,
/// `crate::ratings::NotRated::DailyCap`): a report to the moderators, one per group of
/// accounts a day, with the accounts' names. Awaited: a match-end projection calls it, off any
/// table's task, and a second run after a crash is absorbed by the flood key. `names`: the
/// accounts' store, which names them.
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
        flood_key: format!("rating_farming:{}", ids.join(":")),
        subject: Some(subject.clone()),
        subject_name: subject_name.clone(),
        table: Some(table.to_owned()),
        reason: Reason::MultiAccount,
        note: String::new(),
        context,
        created_ms: crate::ids::unix_ms(),
    };
    let since = report.created_ms - DAY_MS;
    match store.file(&report, 1, since).await {
        Ok(()) => tracing::info!(report = %report.id, %table, "rating farming reported"),
        Err(super::FileError::TooMany) => {}
        Err(e) => tracing::warn!(%table, "cannot file a farming report: {e}"),
    }
}

/// Files a report of the server's own in the background; one over its limit is dropped.
fn file(
    store: &Arc<dyn ModerationStore>,
    tracker: &TaskTracker,
    report: NewReport,
    limit: u32,
    window_ms: i64,
) {
    let store = store.clone();
    tracker.spawn(async move {
        let since = report.created_ms - window_ms;
        match store.file(&report, limit, since).await {
            Ok(()) => {
                tracing::info!(report = %report.id, kind = report.kind.as_str(), "automatic report")
            }
            Err(super::FileError::TooMany) => {}
            Err(e) => tracing::warn!("cannot file an automatic report: {e}"),
        }
    });
}

/// The block one subscriber holds: an IPv4 address, or an IPv6 /64.
fn block(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut octets = v6.octets();
                octets[8..].fill(0);
                IpAddr::V6(octets.into())
            }
        },
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_subscriber_is_its_slash_64() {
        let a: IpAddr = "2001:db8:1:2::7".parse().expect("ip");
        let b: IpAddr = "2001:db8:1:2:ffff::1".parse().expect("ip");
        let c: IpAddr = "2001:db8:1:3::7".parse().expect("ip");
        assert_eq!(block(a), block(b));
        assert_ne!(block(a), block(c));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().expect("ip");
        assert_eq!(block(mapped), "192.0.2.7".parse::<IpAddr>().expect("ip"));
    }
}
