//! The accounts port's conformance suite (`burraco_server::accounts::Accounts`), run on the
//! SQLite store and on a real PostgreSQL 15 server this test starts (scripts/postgres.sh installs
//! it when missing), and the HTTP API at the raw socket level (`http`); the scope table of
//! docs/ACCOUNTS.md against the server's (`scopes`).

mod admin;
mod edges;
mod hardening;
pub mod http;
mod limits;
mod scopes;
mod tokens;

use std::net::TcpListener;
use std::path::Path;
use std::process::Command;

use burraco_server::accounts::audit::{Entry, Kind};
use burraco_server::accounts::limits::{Limit, Reserved, Settle};
use burraco_server::accounts::postgres::PostgresAccounts;
use burraco_server::accounts::sqlite::SqliteAccounts;
use burraco_server::accounts::tokens::{NewToken, Scope, Scopes, TokenInfo};
use burraco_server::accounts::{
    Account, AccountStatus, Accounts, CreateError, MadeBot, NewAccount, NewSession, SessionInfo,
    StoredPasskey, token_hash, username,
};
use burraco_server::store::Store;
use burraco_server::store::postgres::Database;

const DAY_MS: i64 = 24 * 3600 * 1000;

fn new_account(id: &str, name: &str) -> NewAccount {
    NewAccount {
        id: id.into(),
        username: name.into(),
        key: username::key(name),
        skeleton: username::skeleton(name),
        password_hash: format!("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$hash-of-{id}"),
        created_ms: 1_700_000_000_000,
    }
}

fn new_session(id: &str, account: &str, token: &str, created_ms: i64) -> NewSession {
    NewSession {
        info: SessionInfo {
            id: id.into(),
            account: account.into(),
            created_ms,
            expires_ms: created_ms + 30 * DAY_MS,
            user_agent: format!("agent {id}"),
        },
        token_hash: token_hash(token),
    }
}

/// Every implementation: `a` and `b` are two handles on one store (two nodes of a cluster, or
/// the same one twice).
pub async fn conformance(a: &dyn Accounts, b: &dyn Accounts) {
    let now = 1_700_000_000_000;
    // Accounts: unique by key, look-alikes refused, found by id and by any spelling of the name.
    let anna = a
        .create(&new_account("u-0001", "Anna"))
        .await
        .expect("created");
    assert_eq!(
        anna,
        Account {
            id: "u-0001".into(),
            username: "Anna".into(),
            created_ms: now
        }
    );
    for (id, taken) in [
        ("u-0002", "anna"),
        ("u-0003", "ANNA"),
        ("u-0004", "ａｎｎａ"),
    ] {
        assert_eq!(
            b.create(&new_account(id, taken)).await,
            Err(CreateError::NameTaken),
            "{taken}"
        );
    }
    for (id, lookalike) in [
        ("u-0005", "\u{0430}nn\u{0430}"),
        ("u-0006", "\u{0391}NN\u{0391}"),
    ] {
        assert_eq!(
            b.create(&new_account(id, lookalike)).await,
            Err(CreateError::NameConfusable),
            "{lookalike}"
        );
    }
    let bruno = b
        .create(&new_account("u-0007", "bruno"))
        .await
        .expect("created");
    assert_eq!(a.by_id("u-0001").await, Ok(Some(anna.clone())));
    assert_eq!(
        a.by_id("u-0002").await,
        Ok(None),
        "a refused account left nothing"
    );
    assert_eq!(b.by_name("ANNA").await, Ok(Some(anna.clone())));
    assert_eq!(b.by_name("Bruno").await, Ok(Some(bruno.clone())));
    assert_eq!(b.by_name("carla").await, Ok(None));
    for odd in ["", "'; DROP TABLE accounts; --", "%", "_"] {
        assert_eq!(b.by_name(odd).await, Ok(None), "{odd:?}");
        assert_eq!(b.by_id(odd).await, Ok(None), "{odd:?}");
    }

    // Password hashes: stored as given, replaced.
    assert_eq!(
        b.password_hash("u-0001").await,
        Ok(Some(new_account("u-0001", "Anna").password_hash))
    );
    assert_eq!(
        a.set_password_hash("u-0001", "$argon2id$new").await,
        Ok(true)
    );
    assert_eq!(
        b.password_hash("u-0001").await,
        Ok(Some("$argon2id$new".into()))
    );
    assert_eq!(a.set_password_hash("u-none", "$x").await, Ok(false));
    assert_eq!(a.password_hash("u-none").await, Ok(None));

    // Sessions: found by the token's hash on any node, listed, revoked one by one or all.
    let (t1, t2, t3, t4) = (
        "1".repeat(64),
        "2".repeat(64),
        "3".repeat(64),
        "4".repeat(64),
    );
    a.open_session(&new_session("s1", "u-0001", &t1, now))
        .await
        .expect("s1");
    a.open_session(&new_session("s2", "u-0001", &t2, now + 1))
        .await
        .expect("s2");
    b.open_session(&new_session("s3", "u-0001", &t3, now + 2))
        .await
        .expect("s3");
    b.open_session(&new_session("s4", "u-0007", &t4, now))
        .await
        .expect("s4");
    let (account, s1) = b
        .session(&token_hash(&t1), now + 10)
        .await
        .expect("asked")
        .expect("found");
    assert_eq!(account, anna);
    assert_eq!(s1, new_session("s1", "u-0001", &t1, now).info);
    assert_eq!(
        b.session(&t1, now).await,
        Ok(None),
        "the token itself is no key"
    );
    assert_eq!(b.session(&token_hash("5"), now).await, Ok(None));
    // Expired: neither found nor listed.
    assert_eq!(
        b.session(&token_hash(&t1), now + 31 * DAY_MS).await,
        Ok(None)
    );
    assert!(
        a.sessions("u-0001", now + 31 * DAY_MS)
            .await
            .expect("listed")
            .is_empty()
    );
    let ids = |list: Vec<SessionInfo>| list.into_iter().map(|s| s.id).collect::<Vec<_>>();
    assert_eq!(
        ids(a.sessions("u-0001", now).await.expect("listed")),
        ["s1", "s2", "s3"]
    );
    // Revoke: only one's own sessions.
    assert_eq!(a.revoke("u-0007", "s1").await, Ok(false));
    assert_eq!(a.revoke("u-0001", "s1").await, Ok(true));
    assert_eq!(a.revoke("u-0001", "s1").await, Ok(false));
    assert_eq!(b.session(&token_hash(&t1), now).await, Ok(None));
    // Sign out everywhere but here, then everywhere.
    assert_eq!(b.revoke_all("u-0001", Some("s3")).await, Ok(1));
    assert_eq!(
        ids(a.sessions("u-0001", now).await.expect("listed")),
        ["s3"]
    );
    assert_eq!(b.revoke_all("u-0001", None).await, Ok(1));
    assert!(
        a.session(&token_hash(&t3), now)
            .await
            .expect("asked")
            .is_none()
    );
    // Another account's sessions are untouched.
    assert_eq!(
        ids(a.sessions("u-0007", now).await.expect("listed")),
        ["s4"]
    );
    assert!(
        a.session(&token_hash(&t4), now)
            .await
            .expect("asked")
            .is_some()
    );
    // A new session, a month on, takes the account's expired ones away with it.
    let (t5, later) = ("5".repeat(64), now + 31 * DAY_MS);
    b.open_session(&new_session("s5", "u-0007", &t5, later))
        .await
        .expect("s5");
    assert_eq!(
        ids(a.sessions("u-0007", now).await.expect("listed")),
        ["s5"]
    );
    assert!(
        a.session(&token_hash(&t4), now)
            .await
            .expect("asked")
            .is_none()
    );
    tokens_and_bot_accounts(a, b).await;
}

fn new_token(id: &str, account: &str, token: &str, created_ms: i64, days: i64) -> NewToken {
    NewToken {
        info: TokenInfo {
            id: id.into(),
            account: account.into(),
            label: format!("label of {id}"),
            scopes: Scopes::new(vec![Scope::Play, Scope::ReadAccount]),
            created_ms,
            expires_ms: created_ms + days * DAY_MS,
            last_used_ms: None,
            last_address: None,
        },
        token_hash: token_hash(token),
    }
}

/// Bot accounts and personal tokens (migration 2), after [`conformance`]'s accounts.
async fn tokens_and_bot_accounts(a: &dyn Accounts, b: &dyn Accounts) {
    let now = 1_700_000_000_000;
    // A bot account for good: set once, unknown accounts refused.
    assert_eq!(a.is_bot("u-0001").await, Ok(Some(false)));
    assert_eq!(a.is_bot("u-none").await, Ok(None));
    assert_eq!(b.make_bot("u-0001", now).await, Ok(MadeBot::Made));
    assert_eq!(
        b.make_bot("u-0001", now + 1).await,
        Ok(MadeBot::Made),
        "already one"
    );
    assert_eq!(a.is_bot("u-0001").await, Ok(Some(true)));
    assert_eq!(a.make_bot("u-none", now).await, Ok(MadeBot::NoSuchAccount));
    assert_eq!(
        a.is_bot("u-0007").await,
        Ok(Some(false)),
        "others untouched"
    );
    // Registered names, by key or by look-alike, for the guests' check.
    for name in [
        "anna",
        "ANNA",
        "\u{0430}nn\u{0430}",
        "Bruno",
        "Anna.",
        "b_r_u_n_o",
    ] {
        assert_eq!(a.name_registered(name).await, Ok(true), "{name}");
    }
    // The server's own names, whoever holds an account.
    for name in ["admin", "Bot (expert)", "SYSTEM"] {
        assert_eq!(a.name_registered(name).await, Ok(true), "{name}");
    }
    for name in ["Anna Maria", "carla", "'; --"] {
        assert_eq!(b.name_registered(name).await, Ok(false), "{name}");
    }
    // Tokens: found by hash on any node with their account, listed, used, revoked.
    let (k1, k2, k3) = ("brc_one", "brc_two", "brc_three");
    let made = |created: Result<bool, _>| created == Ok(true);
    assert!(made(
        a.create_token(&new_token("tk-1", "u-0001", k1, now, 365), 2)
            .await
    ));
    assert!(made(
        b.create_token(&new_token("tk-2", "u-0001", k2, now + 1, 1), 2)
            .await
    ));
    assert_eq!(
        a.create_token(&new_token("tk-x", "u-0001", "brc_x", now + 2, 1), 2)
            .await,
        Ok(false),
        "the account holds the most live tokens it may"
    );
    assert!(made(
        a.create_token(&new_token("tk-3", "u-0007", k3, now, 365), 2)
            .await
    ));
    let holder = b
        .token(&token_hash(k1), now + 10)
        .await
        .expect("asked")
        .expect("found");
    assert_eq!(holder.account.id, "u-0001");
    assert!(holder.bot);
    assert_eq!(holder.token, new_token("tk-1", "u-0001", k1, now, 365).info);
    assert_eq!(
        b.token(k1, now).await,
        Ok(None),
        "the token itself is no key"
    );
    let bruno = a.token(&token_hash(k3), now).await.expect("asked");
    assert_eq!(
        bruno.map(|h| (h.account.id, h.bot)),
        Some(("u-0007".into(), false))
    );
    let ids = |list: Vec<TokenInfo>| list.into_iter().map(|t| t.id).collect::<Vec<_>>();
    assert_eq!(
        ids(a.tokens("u-0001", now).await.expect("listed")),
        ["tk-1", "tk-2"]
    );
    // Used: when and from where.
    a.token_used("tk-1", now + 5, "192.0.2.7")
        .await
        .expect("used");
    let listed = b.tokens("u-0001", now).await.expect("listed");
    assert_eq!(listed[0].last_used_ms, Some(now + 5));
    assert_eq!(listed[0].last_address.as_deref(), Some("192.0.2.7"));
    // Expired after its day: not found, not listed, not live.
    let day_later = now + 2 * DAY_MS;
    assert_eq!(a.token(&token_hash(k2), day_later).await, Ok(None));
    assert_eq!(
        ids(a.tokens("u-0001", day_later).await.expect("listed")),
        ["tk-1"]
    );
    let all = [
        "tk-1".to_owned(),
        "tk-2".into(),
        "tk-3".into(),
        "tk-none".into(),
    ];
    let mut live = b.live_tokens(&all, day_later).await.expect("asked");
    live.sort();
    assert_eq!(live, ["tk-1", "tk-3"]);
    assert_eq!(b.live_tokens(&[], now).await, Ok(vec![]));
    // Revoked: only one's own, and then gone everywhere.
    assert_eq!(a.revoke_token("u-0007", "tk-1").await, Ok(false));
    assert_eq!(a.revoke_token("u-0001", "tk-1").await, Ok(true));
    assert_eq!(a.revoke_token("u-0001", "tk-1").await, Ok(false));
    assert_eq!(b.token(&token_hash(k1), now).await, Ok(None));
    assert_eq!(b.live_tokens(&all, now).await.expect("asked").len(), 2);
    // Another account: expired tokens make room, and an operator revokes them all.
    b.create(&new_account("u-0008", "Carla"))
        .await
        .expect("created");
    let (k5, k6, k7) = ("brc_five", "brc_six", "brc_seven");
    for (id, token, days) in [("tk-5", k5, 1), ("tk-6", k6, 365)] {
        assert!(made(
            a.create_token(&new_token(id, "u-0008", token, now, days), 2)
                .await
        ));
    }
    assert!(made(
        b.create_token(&new_token("tk-7", "u-0008", k7, day_later, 1), 2)
            .await
    ));
    assert_eq!(a.revoke_tokens("u-0008").await, Ok(2));
    assert_eq!(a.token(&token_hash(k6), day_later).await, Ok(None));
    assert_eq!(b.revoke_tokens("u-0008").await, Ok(0));
    assert_eq!(
        ids(a.tokens("u-0001", now).await.expect("listed")),
        ["tk-2"],
        "others untouched"
    );
    limits(a, b).await;
}

/// The limits' counts (`account_limits`): seen alike through both handles, held back while a
/// key waits, settled.
async fn limits(a: &dyn Accounts, b: &dyn Accounts) {
    let now = 1_700_000_000_000;
    let base = std::time::Duration::from_secs(1);
    let ip = "192.0.2.7".parse().expect("ip");
    let both = [Limit::sign_ins_of("anna"), Limit::sign_ins_from(ip)];
    for i in 0..5 {
        let handle = if i % 2 == 0 { a } else { b };
        assert_eq!(
            handle.reserve(&both, now, base).await,
            Ok(Reserved::Granted),
            "{i}"
        );
    }
    let held = Reserved::HeldBack { wait: base };
    assert_eq!(b.reserve(&both, now, base).await, Ok(held));
    // The address alone is not held: it counted 5 of its 20.
    let from = [Limit::sign_ins_from(ip)];
    assert_eq!(a.reserve(&from, now, base).await, Ok(Reserved::Granted));
    // A right password: the account's count cleared, the address's attempt given back.
    let settled = [
        (Limit::sign_ins_of("anna"), Settle::Clear),
        (Limit::sign_ins_from(ip), Settle::Refund),
    ];
    b.settle(&settled).await.expect("settled");
    assert_eq!(a.reserve(&both, now, base).await, Ok(Reserved::Granted));
    // Fifteen more from the address (6 + 15 = 21, one refunded): the twentieth waits.
    for i in 0..14 {
        let name = format!("nobody{i}");
        let limits = [Limit::sign_ins_of(&name), Limit::sign_ins_from(ip)];
        assert_eq!(
            b.reserve(&limits, now, base).await,
            Ok(Reserved::Granted),
            "{i}"
        );
    }
    let other = [Limit::sign_ins_of("bruno"), Limit::sign_ins_from(ip)];
    assert_eq!(a.reserve(&other, now, base).await, Ok(held));
    // An hour of quiet later, forgiven (and a refund of a key never counted is nothing).
    let later = now + 3_600_000 + 1_000;
    assert_eq!(a.reserve(&other, later, base).await, Ok(Reserved::Granted));
    let nothing = [(Limit::sign_ups_from(ip), Settle::Refund)];
    a.settle(&nothing).await.expect("nothing to give back");
}

fn passkey(id: &str, account: &str, credential_id: &str, created_ms: i64) -> StoredPasskey {
    StoredPasskey {
        id: id.into(),
        account: account.into(),
        credential_id: credential_id.into(),
        name: format!("key {id}"),
        credential: format!("{{\"cred\":\"{id}\"}}"),
        created_ms,
        last_used_ms: None,
    }
}

/// Migration 3 on every implementation: passkeys (unique credential ids, one's own removed),
/// the audit log (newest first, bounded, old entries forgotten) and an account's status (a
/// disabled account has no live session and no live token). Runs after [`conformance`], on its accounts.
pub async fn passkeys_audit_and_status(a: &dyn Accounts, b: &dyn Accounts) {
    let now = 1_700_000_000_000;
    // Passkeys: listed oldest first, found by credential from the other handle.
    assert_eq!(
        a.add_passkey(&passkey("pk-2", "u-0001", "cred-B", now + 1))
            .await,
        Ok(true)
    );
    assert_eq!(
        a.add_passkey(&passkey("pk-1", "u-0001", "cred-A", now))
            .await,
        Ok(true)
    );
    assert_eq!(
        b.add_passkey(&passkey("pk-3", "u-0007", "cred-A", now))
            .await,
        Ok(false),
        "a credential is registered once, whoever asks"
    );
    let ids = |list: Vec<StoredPasskey>| list.into_iter().map(|p| p.id).collect::<Vec<_>>();
    assert_eq!(
        ids(b.passkeys("u-0001").await.expect("listed")),
        ["pk-1", "pk-2"]
    );
    assert!(b.passkeys("u-0007").await.expect("listed").is_empty());
    let found = b.passkey_by_credential("cred-B").await.expect("asked");
    assert_eq!(found, Some(passkey("pk-2", "u-0001", "cred-B", now + 1)));
    assert_eq!(b.passkey_by_credential("cred-Z").await, Ok(None));
    // Used: its new credential state and the time are kept.
    a.touch_passkey("pk-2", "{\"cred\":\"counter 1\"}", now + 5)
        .await
        .expect("touched");
    let used = b
        .passkey_by_credential("cred-B")
        .await
        .expect("asked")
        .expect("there");
    assert_eq!(
        (used.credential.as_str(), used.last_used_ms),
        ("{\"cred\":\"counter 1\"}", Some(now + 5))
    );
    // Removed: only one's own.
    assert_eq!(b.remove_passkey("u-0007", "pk-1").await, Ok(false));
    assert_eq!(b.remove_passkey("u-0001", "pk-1").await, Ok(true));
    assert_eq!(a.remove_passkey("u-0001", "pk-1").await, Ok(false));
    assert_eq!(ids(a.passkeys("u-0001").await.expect("listed")), ["pk-2"]);

    // The audit log: newest first, at most the limit, each account its own.
    let entry = |id: &str, account: &str, at_ms: i64, kind: Kind| Entry {
        id: id.into(),
        account: account.into(),
        at_ms,
        kind: kind.as_str().into(),
        address: Some("192.0.2.7".into()),
        detail: "password".into(),
    };
    let today = burraco_server::ids::unix_ms();
    let old = today - 200 * DAY_MS;
    b.record(&entry("a-0", "u-0001", old, Kind::SignedUp))
        .await
        .expect("recorded");
    assert_eq!(a.audit("u-0001", 10).await.expect("read").len(), 1);
    for (i, kind) in [Kind::SignedIn, Kind::SignInFailed, Kind::PasskeyAdded]
        .into_iter()
        .enumerate()
    {
        b.record(&entry(
            &format!("a-{}", i + 1),
            "u-0001",
            today + i as i64,
            kind,
        ))
        .await
        .expect("recorded");
    }
    let mut operator = entry("a-9", "u-0007", today, Kind::AdminDisabled);
    operator.address = None;
    a.record(&operator).await.expect("recorded");
    let log = a.audit("u-0001", 10).await.expect("read");
    assert_eq!(
        log.iter().map(|e| e.kind.as_str()).collect::<Vec<_>>(),
        ["passkey_added", "sign_in_failed", "signed_in"],
        "newest first; the entry older than the retention went as new ones came"
    );
    assert_eq!(log[2], entry("a-1", "u-0001", today, Kind::SignedIn));
    assert_eq!(a.audit("u-0001", 2).await.expect("read").len(), 2);
    assert_eq!(b.audit("u-0007", 10).await.expect("read"), [operator]);

    // Status: none for an unknown account; a disabled account's sessions are not found.
    assert_eq!(a.status("u-none").await, Ok(None));
    assert_eq!(
        a.set_status("u-none", AccountStatus::default()).await,
        Ok(false)
    );
    assert_eq!(a.status("u-0001").await, Ok(Some(AccountStatus::default())));
    let token = "6".repeat(64);
    a.open_session(&new_session("s6", "u-0001", &token, now))
        .await
        .expect("s6");
    assert!(
        b.session(&token_hash(&token), now)
            .await
            .expect("asked")
            .is_some()
    );
    let disabled = AccountStatus {
        disabled: true,
        admin: true,
    };
    // Its personal tokens too: tk-2 (from [`conformance`]) is live before, refused while the
    // account is disabled, and live again once it is enabled; Bruno's tk-3 is untouched.
    let (two, pair) = (token_hash("brc_two"), ["tk-2".to_owned(), "tk-3".into()]);
    let live = |list: Vec<String>| {
        let mut list = list;
        list.sort();
        list
    };
    assert!(a.token(&two, now).await.expect("asked").is_some());
    assert_eq!(live(b.live_tokens(&pair, now).await.expect("asked")), pair);
    assert_eq!(b.set_status("u-0001", disabled).await, Ok(true));
    assert_eq!(a.status("u-0001").await, Ok(Some(disabled)));
    assert_eq!(a.session(&token_hash(&token), now).await, Ok(None));
    assert_eq!(
        a.token(&two, now).await,
        Ok(None),
        "a disabled account's token"
    );
    assert_eq!(b.live_tokens(&pair, now).await.expect("asked"), ["tk-3"]);
    let enabled = AccountStatus {
        disabled: false,
        admin: true,
    };
    assert_eq!(b.set_status("u-0001", enabled).await, Ok(true));
    assert!(
        a.session(&token_hash(&token), now)
            .await
            .expect("asked")
            .is_some()
    );
    assert!(b.token(&two, now).await.expect("asked").is_some());
    assert_eq!(live(a.live_tokens(&pair, now).await.expect("asked")), pair);
    assert_eq!(
        a.status("u-0007").await,
        Ok(Some(AccountStatus::default())),
        "others untouched"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_accounts_conform_and_survive_a_restart() {
    let dir = tempfile::tempdir().expect("temp dir");
    {
        let (store, writer) = Store::open(dir.path(), false).expect("store");
        let accounts = SqliteAccounts::open(&store).expect("accounts");
        let again = SqliteAccounts::open(&store).expect("migrations run once");
        conformance(&accounts, &again).await;
        passkeys_audit_and_status(&accounts, &again).await;
        drop((accounts, again, store));
        writer.join();
    }
    // Reopened: migrations are not applied twice, and the accounts are still there.
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    let accounts = SqliteAccounts::open(&store).expect("accounts");
    assert_eq!(
        accounts.by_name("anna").await.expect("asked").map(|a| a.id),
        Some("u-0001".to_owned())
    );
    let versions: i64 = store
        .reader()
        .expect("reader")
        .query_row("SELECT COUNT(*) FROM account_migrations", [], |r| r.get(0))
        .expect("count");
    assert_eq!(versions, burraco_server::accounts::MIGRATIONS.len() as i64);
    drop((accounts, store));
    writer.join();
}

/// A PostgreSQL server of this test's own, in a temporary directory on a free loopback port.
pub struct Postgres {
    dir: tempfile::TempDir,
    pub port: u16,
}

fn script() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/postgres.sh")
}

impl Postgres {
    pub fn start() -> Postgres {
        let dir = tempfile::tempdir().expect("temp dir");
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        run_script(&["start", &path(dir.path()), &port.to_string()]);
        Postgres { dir, port }
    }

    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// A node's pool to this server (a few connections), the accounts' migrations applied:
    /// every store's tables.
    pub async fn node(&self) -> Database {
        let db = Database::connect(&self.url(), 4).await.expect("a pool");
        PostgresAccounts::open(&db).await.expect("the migrations");
        db
    }
}

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn run_script(args: &[&str]) {
    let out = Command::new("bash")
        .arg(script())
        .args(args)
        .output()
        .expect("scripts/postgres.sh runs");
    assert!(
        out.status.success(),
        "scripts/postgres.sh {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(script())
            .args(["stop", &path(self.dir.path())])
            .output();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_accounts_conform() {
    let postgres = Postgres::start();
    // Two nodes starting at once: the migrations are applied once.
    let url = postgres.url();
    let (a, b) = tokio::join!(
        async { PostgresAccounts::open(&Database::connect(&url, 4).await?).await },
        async { PostgresAccounts::open(&Database::connect(&url, 4).await?).await }
    );
    let (a, b) = (a.expect("node a"), b.expect("node b"));
    conformance(&a, &b).await;
    passkeys_audit_and_status(&a, &b).await;
    let again = PostgresAccounts::open(&postgres.node().await)
        .await
        .expect("a restarted node");
    assert_eq!(
        again.by_name("anna").await.expect("asked").map(|a| a.id),
        Some("u-0001".to_owned())
    );
    assert!(
        Database::connect("postgres://postgres@127.0.0.1:1/postgres", 4)
            .await
            .is_err(),
        "no server: an error, not a hang"
    );
}

/// Accounts as an older server made them, before the skeleton dropped `_-.`: `Anna` and
/// `Anna.` both taken (their skeletons differed then).
async fn made_under_the_old_rule(accounts: &dyn Accounts) {
    for (id, name) in [("u-0101", "Anna"), ("u-0102", "Anna."), ("u-0103", "b.o.b")] {
        let mut new = new_account(id, name);
        // The old rule kept the punctuation: any skeleton of its own stands for it.
        new.skeleton = format!("old:{}", name.to_lowercase());
        accounts.create(&new).await.expect("made");
    }
}

/// After migration 13: every old account still found and signed in by its name, and a new name
/// like any of them (punctuation aside) refused.
async fn rekeyed(accounts: &dyn Accounts) {
    for name in ["Anna", "anna.", "B.O.B"] {
        assert!(
            accounts.by_name(name).await.expect("asked").is_some(),
            "{name}"
        );
    }
    for (id, name) in [("u-0104", "An.na"), ("u-0105", "bob"), ("u-0106", "Anna_")] {
        assert_eq!(
            accounts.create(&new_account(id, name)).await,
            Err(CreateError::NameConfusable),
            "{name}"
        );
    }
    assert_eq!(accounts.name_registered("b-o-b").await, Ok(true));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn migration_13_makes_the_sqlite_skeletons_again_and_keeps_old_accounts() {
    let dir = tempfile::tempdir().expect("temp dir");
    {
        let (store, writer) = Store::open(dir.path(), false).expect("store");
        let accounts = SqliteAccounts::open(&store).expect("accounts");
        made_under_the_old_rule(&accounts).await;
        store
            .reader()
            .expect("reader")
            .execute("DELETE FROM account_migrations WHERE version = 13", [])
            .expect("as before migration 13");
        drop((accounts, store));
        writer.join();
    }
    let (store, writer) = Store::open(dir.path(), false).expect("store");
    let accounts = SqliteAccounts::open(&store).expect("migration 13 applied");
    rekeyed(&accounts).await;
    drop((accounts, store));
    writer.join();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn migration_13_makes_the_postgres_skeletons_again_and_keeps_old_accounts() {
    let postgres = Postgres::start();
    let db = postgres.node().await;
    let accounts = PostgresAccounts::open(&db).await.expect("accounts");
    made_under_the_old_rule(&accounts).await;
    db.client()
        .await
        .expect("a connection")
        .execute("DELETE FROM account_migrations WHERE version = 13", &[])
        .await
        .expect("as before migration 13");
    let again = PostgresAccounts::open(&db)
        .await
        .expect("migration 13 applied");
    rekeyed(&again).await;
}
