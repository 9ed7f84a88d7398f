//! The moderation's store (`burraco_server::moderation::ModerationStore`): one conformance
//! suite run on the SQLite file and on a PostgreSQL 15 server this test starts (the server's own
//! findings grouped among it); and the API on the raw socket (`http`), at the table, protocol
//! 1.7 (`table`), and the server's own reports at the table (`signals`).

pub(crate) mod http;
mod signals;
pub(crate) mod table;

use burraco_server::accounts::postgres::PostgresAccounts;
use burraco_server::accounts::sqlite::SqliteAccounts;
use burraco_server::accounts::{AccountStatus, Accounts, NewAccount, username};
use burraco_server::moderation::grouping::{Finding, Grouped};
use burraco_server::moderation::postgres::PostgresModeration;
use burraco_server::moderation::sqlite::SqliteModeration;
use burraco_server::moderation::{
    ActError, Action, ActionKind, ChatLine, Context, FileError, ModerationStore, NewReport, Reason,
    ReportKind,
};

const NOW: i64 = 1_800_000_000_000;
const HOUR: i64 = 3600 * 1000;

fn new_account(id: &str, name: &str) -> NewAccount {
    NewAccount {
        id: id.into(),
        username: name.into(),
        key: username::key(name),
        skeleton: username::skeleton(name),
        password_hash: format!("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$hash-of-{id}"),
        created_ms: NOW,
    }
}

fn report(id: &str, reporter: &str, subject: &str, created_ms: i64) -> NewReport {
    let line = ChatLine {
        seq: 7,
        seat: Some("E".into()),
        name: "Rocco".into(),
        account: Some(subject.into()),
        player: Some("p-00000000000e".into()),
        text: "a line".into(),
        at_ms: created_ms,
    };
    NewReport {
        id: id.into(),
        kind: ReportKind::Chat,
        reporter: Some(reporter.into()),
        flood_key: format!("account:{reporter}"),
        subject: Some(subject.into()),
        subject_name: "Rocco".into(),
        table: Some("t-0123456789".into()),
        reason: Reason::Abuse,
        note: "rude".into(),
        context: Context {
            table: Some("t-0123456789".into()),
            status: Some("waiting".into()),
            hand: None,
            seats: Vec::new(),
            line: Some(line.clone()),
            chat: vec![line],
            chat_here: true,
            detail: None,
            guest: None,
            tournament: None,
            round: None,
            count: None,
            last_ms: None,
            accounts: Vec::new(),
        },
        created_ms,
    }
}

/// A same-address finding at `table` about `accounts` (the second its subject).
fn finding(id: &str, table: &str, accounts: &[&str], created_ms: i64) -> Finding {
    Finding {
        report: NewReport {
            kind: ReportKind::SameAddress,
            reporter: None,
            flood_key: String::new(),
            table: Some(table.into()),
            reason: Reason::MultiAccount,
            note: String::new(),
            context: Context {
                table: Some(table.into()),
                detail: Some(format!("{} share an address", accounts.join(" and "))),
                ..Context::default()
            },
            ..report(id, "u-mod", accounts[1], created_ms)
        },
        accounts: accounts.iter().map(|a| (*a).to_owned()).collect(),
    }
}

/// The server's own findings, grouped: one open report per case (a kind, and accounts linked by
/// its findings), counting its findings at different tables, with the latest's context; a case
/// closed opens anew; two cases a finding links are merged; two findings at once through two
/// nodes make one case.
async fn grouping(a: &dyn ModerationStore, b: &dyn ModerationStore) {
    let cases = |open: Vec<burraco_server::moderation::Report>| -> Vec<_> {
        open.into_iter().filter(|r| r.reporter.is_none()).collect()
    };
    let first = finding("r-g1", "t-1", &["u-rocco", "u-paola"], NOW);
    assert_eq!(a.file_grouped(&first).await, Ok(Grouped::Opened));
    let second = finding("r-g2", "t-2", &["u-paola", "u-rocco"], NOW + 1);
    assert_eq!(b.file_grouped(&second).await, Ok(Grouped::Counted));
    // Found again at the same table (a seat taken again there): not counted twice.
    let again = finding("r-g3", "t-2", &["u-rocco", "u-paola"], NOW + 2);
    assert_eq!(a.file_grouped(&again).await, Ok(Grouped::Counted));
    // One of the case's accounts with another: the same case, one account more.
    let third = finding("r-g4", "t-3", &["u-paola", "u-mod"], NOW + 3);
    assert_eq!(b.file_grouped(&third).await, Ok(Grouped::Counted));
    // Another kind about the same accounts is another case.
    let farming = Finding {
        report: NewReport {
            kind: ReportKind::RatingFarming,
            ..finding("r-f1", "t-3", &["u-rocco", "u-paola"], NOW + 4).report
        },
        accounts: vec!["u-rocco".into(), "u-paola".into()],
    };
    assert_eq!(a.file_grouped(&farming).await, Ok(Grouped::Opened));
    let open = cases(b.open_reports(100).await.expect("listed"));
    let ids: Vec<&str> = open.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["r-g1", "r-f1"], "each case once");
    let case = &open[0];
    assert_eq!(case.kind, ReportKind::SameAddress);
    assert_eq!(case.table.as_deref(), Some("t-3"), "the latest table");
    assert_eq!(case.context, {
        let mut latest = third.report.context.clone();
        latest.count = Some(3);
        latest.last_ms = Some(NOW + 3);
        latest.accounts = vec!["u-mod".into(), "u-paola".into(), "u-rocco".into()];
        latest
    });
    assert_eq!(
        (case.subject.as_deref(), case.created_ms),
        (Some("u-paola"), NOW),
        "the first finding's subject and time"
    );
    // Closed by a moderator: the next finding opens the case anew.
    a.act(&action("m-gd", ActionKind::Dismiss, None, Some("r-g1")))
        .await
        .expect("dismissed");
    let after = finding("r-g5", "t-4", &["u-rocco", "u-paola"], NOW + 5);
    assert_eq!(b.file_grouped(&after).await, Ok(Grouped::Opened));
    let open = cases(a.open_reports(100).await.expect("listed"));
    let reopened = open.iter().find(|r| r.id == "r-g5").expect("a new case");
    assert_eq!(reopened.context.count, Some(1));
    // A finding that links two open cases merges them into the older: counts and accounts
    // added, the younger closed by it.
    let left = finding("r-m1", "t-7", &["u-a1", "u-a2"], NOW + 7);
    let right = finding("r-m2", "t-8", &["u-b1", "u-b2"], NOW + 8);
    let link = finding("r-m3", "t-9", &["u-b1", "u-a2"], NOW + 9);
    for f in [&left, &right] {
        assert_eq!(a.file_grouped(f).await, Ok(Grouped::Opened));
    }
    assert_eq!(b.file_grouped(&link).await, Ok(Grouped::Counted));
    let merged = b.report("r-m1").await.expect("read").expect("kept");
    assert_eq!(merged.context.count, Some(3));
    assert_eq!(merged.context.accounts, ["u-a1", "u-a2", "u-b1", "u-b2"]);
    let gone = a.report("r-m2").await.expect("read").expect("kept");
    assert_eq!(gone.closed_by.as_deref(), Some("r-m1"));
    // Two findings of a new case at once, through both nodes: one report counting both.
    let (gx, gy) = (
        finding("r-gx", "t-5", &["u-x", "u-y"], NOW + 6),
        finding("r-gy", "t-6", &["u-y", "u-x"], NOW + 6),
    );
    let (x, y) = tokio::join!(a.file_grouped(&gx), b.file_grouped(&gy));
    let mut both = [x.expect("filed"), y.expect("filed")];
    both.sort_by_key(|g| *g == Grouped::Counted);
    assert_eq!(both, [Grouped::Opened, Grouped::Counted]);
    let open = cases(b.open_reports(100).await.expect("listed"));
    let xy: Vec<_> = open
        .iter()
        .filter(|r| r.context.accounts == ["u-x", "u-y"])
        .collect();
    assert_eq!(xy.len(), 1, "{open:?}");
    assert_eq!(xy[0].context.count, Some(2));
}

fn action(id: &str, kind: ActionKind, account: Option<&str>, report: Option<&str>) -> Action {
    Action {
        id: id.into(),
        kind,
        moderator: Some("u-mod".into()),
        account: account.map(str::to_owned),
        reason: format!("{} for a test", kind.as_str()),
        until_ms: kind.needs_duration().then_some(NOW + HOUR),
        report: report.map(str::to_owned),
        at_ms: NOW,
        guest: None,
    }
}

/// Every implementation: `a` and `b` are two handles on one store (two nodes).
async fn conformance(accounts: &dyn Accounts, a: &dyn ModerationStore, b: &dyn ModerationStore) {
    for (id, name) in [
        ("u-mod", "Moira"),
        ("u-rocco", "Rocco"),
        ("u-paola", "Paola"),
    ] {
        accounts
            .create(&new_account(id, name))
            .await
            .expect("created");
    }
    // Roles: nobody is a moderator until granted; an administrator is one.
    let standing = a.standing("u-mod").await.expect("asked").expect("known");
    assert!(!standing.moderator && !standing.disabled && standing.warnings == 0);
    assert!(a.set_moderator("u-mod", true).await.expect("set"));
    assert!(
        b.standing("u-mod")
            .await
            .expect("asked")
            .expect("known")
            .moderator
    );
    assert!(!a.set_moderator("u-nobody", true).await.expect("asked"));
    assert_eq!(a.standing("u-nobody").await.expect("asked"), None);
    let admin = AccountStatus {
        admin: true,
        disabled: false,
    };
    assert!(accounts.set_status("u-paola", admin).await.expect("set"));
    assert!(
        b.standing("u-paola")
            .await
            .expect("asked")
            .expect("known")
            .moderator
    );
    assert!(
        accounts
            .set_status("u-paola", AccountStatus::default())
            .await
            .expect("set")
    );

    // Reports: filed with their context, listed oldest first, limited per flood key.
    for i in 0..3 {
        let r = report(&format!("r-{i}"), "u-paola", "u-rocco", NOW - HOUR / 2 + i);
        a.file(&r, 3, NOW - HOUR).await.expect("filed");
    }
    let over = report("r-over", "u-paola", "u-rocco", NOW);
    assert_eq!(b.file(&over, 3, NOW - HOUR).await, Err(FileError::TooMany));
    // Another key, or the same key past the window, files.
    let other = NewReport {
        flood_key: "account:u-mod".into(),
        ..report("r-other", "u-mod", "u-rocco", NOW)
    };
    b.file(&other, 3, NOW - HOUR).await.expect("another key");
    let later = report("r-later", "u-paola", "u-rocco", NOW + 2 * HOUR);
    a.file(&later, 3, NOW + HOUR).await.expect("a new window");
    let open = b.open_reports(100).await.expect("listed");
    let ids: Vec<&str> = open.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["r-0", "r-1", "r-2", "r-other", "r-later"]);
    let first = &open[0];
    assert_eq!(
        first.context,
        report("r-0", "u-paola", "u-rocco", NOW - HOUR / 2).context
    );
    assert_eq!(
        (
            first.kind,
            first.reason,
            first.subject.as_deref(),
            first.closed_by.as_deref()
        ),
        (ReportKind::Chat, Reason::Abuse, Some("u-rocco"), None)
    );
    assert_eq!(b.open_reports(2).await.expect("listed").len(), 2);

    // Actions: stored, applied, closing their report, in one go.
    let mute = action("m-1", ActionKind::Mute, Some("u-rocco"), Some("r-0"));
    a.act(&mute).await.expect("muted");
    let standing = b.standing("u-rocco").await.expect("asked").expect("known");
    assert_eq!(standing.muted_at(NOW), Some(NOW + HOUR));
    assert_eq!(standing.muted_at(NOW + HOUR), None, "over at its end");
    let closed = b.report("r-0").await.expect("read").expect("kept");
    assert_eq!(closed.closed_by.as_deref(), Some("m-1"));
    assert_eq!(b.open_reports(100).await.expect("listed").len(), 4);
    // A closed report cannot be closed again; an unknown account is refused; nothing of a
    // refused action is kept.
    let again = action("m-2", ActionKind::Warn, Some("u-rocco"), Some("r-0"));
    assert_eq!(b.act(&again).await, Err(ActError::UnknownReport));
    let nobody = action("m-3", ActionKind::Mute, Some("u-nobody"), Some("r-1"));
    assert_eq!(a.act(&nobody).await, Err(ActError::UnknownAccount));
    assert!(
        b.report("r-1")
            .await
            .expect("read")
            .expect("kept")
            .closed_by
            .is_none()
    );
    // A guest's report is dismissed without an account.
    let dismiss = action("m-4", ActionKind::Dismiss, None, Some("r-1"));
    a.act(&dismiss).await.expect("dismissed");
    for (i, kind) in [ActionKind::Warn, ActionKind::Warn, ActionKind::Unmute]
        .into_iter()
        .enumerate()
    {
        a.act(&action(&format!("m-w{i}"), kind, Some("u-rocco"), None))
            .await
            .expect("acted");
    }
    let standing = a.standing("u-rocco").await.expect("asked").expect("known");
    assert_eq!((standing.warnings, standing.muted_until_ms), (2, None));
    let history = b.actions("u-rocco", 10).await.expect("listed");
    assert_eq!(history.len(), 4);
    assert!(history.iter().any(|h| h == &mute));

    // Time-outs and disabling bar an account's connections; enabling lifts both.
    let ids = vec![
        "u-rocco".to_owned(),
        "u-mod".to_owned(),
        "u-nobody".to_owned(),
    ];
    assert!(a.barred(&ids, NOW).await.expect("asked").is_empty());
    a.act(&action("m-t", ActionKind::Timeout, Some("u-rocco"), None))
        .await
        .expect("timed out");
    assert_eq!(b.barred(&ids, NOW).await.expect("asked"), ["u-rocco"]);
    assert!(
        b.barred(&ids, NOW + HOUR).await.expect("asked").is_empty(),
        "over"
    );
    a.act(&action("m-e", ActionKind::Enable, Some("u-rocco"), None))
        .await
        .expect("enabled");
    assert!(
        b.barred(&ids, NOW).await.expect("asked").is_empty(),
        "lifted"
    );
    a.act(&action("m-d", ActionKind::Disable, Some("u-mod"), None))
        .await
        .expect("disabled");
    assert_eq!(
        b.barred(&ids, NOW + 10 * HOUR).await.expect("asked"),
        ["u-mod"]
    );
    let status = accounts
        .status("u-mod")
        .await
        .expect("asked")
        .expect("known");
    assert!(status.disabled, "the accounts' own flag: sign-ins refused");
    assert!(b.barred(&[], NOW).await.expect("asked").is_empty());

    // A guest (no account) muted by its player id, seen through the other node, then unmuted;
    // the action is stored with its guest and no account.
    let guest = "p-0a1b2c3d4e5f";
    assert_eq!(b.guest_muted_until(guest, NOW).await.expect("asked"), None);
    let mute = Action {
        guest: Some(guest.into()),
        ..action("m-g1", ActionKind::Mute, None, None)
    };
    a.act(&mute).await.expect("guest muted");
    assert_eq!(
        b.guest_muted_until(guest, NOW).await.expect("asked"),
        Some(NOW + HOUR)
    );
    assert_eq!(
        b.guest_muted_until(guest, NOW + HOUR).await.expect("asked"),
        None,
        "over at its end"
    );
    assert_eq!(
        b.guest_muted_until("p-ffffffffffff", NOW)
            .await
            .expect("asked"),
        None,
        "another guest speaks"
    );
    let again = Action {
        guest: Some(guest.into()),
        until_ms: Some(NOW + 2 * HOUR),
        ..action("m-g2", ActionKind::Mute, None, None)
    };
    a.act(&again).await.expect("muted longer");
    assert_eq!(
        b.guest_muted_until(guest, NOW + HOUR).await.expect("asked"),
        Some(NOW + 2 * HOUR),
        "a second mute replaces the first"
    );
    let unmute = Action {
        guest: Some(guest.into()),
        ..action("m-g3", ActionKind::Unmute, None, None)
    };
    b.act(&unmute).await.expect("guest unmuted");
    assert_eq!(a.guest_muted_until(guest, NOW).await.expect("asked"), None);

    grouping(a, b).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_moderation_store_conforms() {
    let dir = tempfile::tempdir().expect("temp dir");
    let accounts = SqliteAccounts::open_dir(dir.path()).expect("accounts");
    let a = SqliteModeration::open_dir(dir.path()).expect("node a");
    let b = SqliteModeration::open_dir(dir.path()).expect("node b");
    conformance(&accounts, &a, &b).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_moderation_store_conforms() {
    let postgres = crate::accounts::Postgres::start();
    let (a, b) = tokio::join!(postgres.node(), postgres.node());
    let accounts = PostgresAccounts::open(&a).await.expect("accounts");
    let (a, b) = (PostgresModeration::new(&a), PostgresModeration::new(&b));
    conformance(&accounts, &a, &b).await;
}
