//! Operators and the audit log on the raw socket: `burraco-server admin ...` (the binary,
//! beside a running server, on its SQLite file and on PostgreSQL) disables an account (its
//! sessions end, it cannot sign in), enables it, resets a password, makes an administrator;
//! `GET /api/account/audit` shows one's own sign-ins (failed ones too, with the address) and
//! the operators' actions. The passkey ceremonies' refusals, typed.

use std::io::Write;
use std::net::SocketAddr;
use std::process::{Command, Stdio};

use serde_json::Value;

use super::http::{Reply, http, http_post};
use crate::common::TestServer;

fn credentials(username: &str, password: &str) -> String {
    serde_json::json!({"username": username, "password": password}).to_string()
}

async fn get(addr: SocketAddr, path: &str, token: &str) -> Reply {
    let cookie = format!("burraco_session={token}");
    http(addr, "GET", path, &[("Cookie", &cookie)], "").await
}

/// Runs `burraco-server <store flags> admin <args>` with `stdin`; (success, stdout, stderr).
pub(super) fn admin(store: &[&str], args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_burraco-server"))
        .args(store)
        .arg("admin")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("stdin written");
    let out = child.wait_with_output().expect("it ends");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The one-time password an admin command printed.
fn printed_password(stdout: &str) -> String {
    stdout
        .lines()
        .find_map(|l| l.split_once("one-time password").map(|(_, rest)| rest))
        .and_then(|rest| rest.rsplit(' ').next())
        .expect("a one-time password printed")
        .trim()
        .to_owned()
}

fn kinds(audit: &Value) -> Vec<String> {
    audit["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["kind"].as_str().unwrap_or("").to_owned())
        .collect()
}

/// The operators' commands against a server's store while it runs; returns the passwords they
/// set (none of which may reach the store).
async fn operators(addr: SocketAddr, store: &[&str]) -> Vec<String> {
    let signup = http_post(
        addr,
        "/api/signup",
        None,
        &credentials("Anna", "correct horse"),
    )
    .await;
    assert_eq!(signup.status, 201, "{}", signup.body);
    let token = signup.token();
    // A wrong password, then a right one: both in the log, with the address.
    let wrong = http_post(
        addr,
        "/api/login",
        None,
        &credentials("anna", "wrong horse"),
    )
    .await;
    assert_eq!(wrong.code(), "bad_credentials");
    let login = http_post(
        addr,
        "/api/login",
        None,
        &credentials("anna", "correct horse"),
    )
    .await;
    assert_eq!(login.status, 200);
    let audit = get(addr, "/api/account/audit", &login.token()).await;
    assert_eq!(audit.status, 200, "{}", audit.body);
    assert_eq!(audit.header("cache-control"), Some("no-store"));
    let audit = audit.json();
    assert_eq!(kinds(&audit), ["signed_in", "sign_in_failed", "signed_up"]);
    assert_eq!(audit["entries"][0]["address"], "127.0.0.1");
    assert_eq!(audit["entries"][0]["detail"], "password");
    assert!(audit["entries"][0]["at_ms"].as_i64().is_some());
    assert_eq!(
        get(addr, "/api/account/audit", &"0".repeat(64))
            .await
            .code(),
        "not_signed_in"
    );

    // Disabled: every session ends, and the right password is answered account_disabled.
    let (ok, out, err) = admin(store, &["disable", "ANNA"], "");
    assert!(ok, "{out}{err}");
    assert!(out.contains("disabled Anna"), "{out}");
    assert!(out.contains("2 sessions ended"), "{out}");
    assert_eq!(get(addr, "/api/me", &token).await.code(), "not_signed_in");
    let refused = http_post(
        addr,
        "/api/login",
        None,
        &credentials("anna", "correct horse"),
    )
    .await;
    assert_eq!(
        (refused.status, refused.code()),
        (403, "account_disabled".into())
    );
    assert!(
        refused.header("set-cookie").is_none(),
        "no session for a disabled account"
    );
    // A wrong password to a disabled account is just a wrong password.
    let wrong = http_post(
        addr,
        "/api/login",
        None,
        &credentials("anna", "wrong horse"),
    )
    .await;
    assert_eq!(wrong.code(), "bad_credentials");

    // Enabled again.
    let (ok, out, err) = admin(store, &["enable", "anna"], "");
    assert!(ok && out.contains("enabled Anna"), "{out}{err}");
    let login = http_post(
        addr,
        "/api/login",
        None,
        &credentials("anna", "correct horse"),
    )
    .await;
    assert_eq!(login.status, 200, "{}", login.body);

    // A one-time password: the old one no longer works, the sessions ended.
    let (ok, out, err) = admin(store, &["reset-password", "anna"], "");
    assert!(ok, "{out}{err}");
    let one_time = printed_password(&out);
    assert_eq!(one_time.len(), 20, "{out}");
    assert_eq!(
        get(addr, "/api/me", &login.token()).await.code(),
        "not_signed_in"
    );
    let old = http_post(
        addr,
        "/api/login",
        None,
        &credentials("anna", "correct horse"),
    )
    .await;
    assert_eq!(old.code(), "bad_credentials");
    let fresh = http_post(addr, "/api/login", None, &credentials("anna", &one_time)).await;
    assert_eq!(fresh.status, 200, "{}", fresh.body);
    // One read from stdin, never printed.
    let (ok, out, err) = admin(
        store,
        &["reset-password", "anna", "--password-stdin"],
        "typed by the operator\n",
    );
    assert!(ok, "{out}{err}");
    assert!(!out.contains("typed by the operator"), "{out}");
    let typed = http_post(
        addr,
        "/api/login",
        None,
        &credentials("anna", "typed by the operator"),
    )
    .await;
    assert_eq!(typed.status, 200, "{}", typed.body);
    let (ok, _, err) = admin(
        store,
        &["reset-password", "anna", "--password-stdin"],
        "short\n",
    );
    assert!(!ok && err.contains("8 to 256 bytes"), "{err}");

    // The operators' actions are in the account's own log, with no address.
    let audit = get(addr, "/api/account/audit", &typed.token()).await.json();
    let log = kinds(&audit);
    for kind in [
        "admin_disabled",
        "sign_in_refused",
        "admin_enabled",
        "admin_password_reset",
    ] {
        assert!(log.contains(&kind.to_owned()), "{kind} in {log:?}");
    }
    let reset = &audit["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .find(|e| e["kind"] == "admin_password_reset")
        .expect("a reset");
    assert_eq!(reset["address"], Value::Null);
    assert_eq!(reset["detail"], "command line");

    // An administrator: created with a one-time password, or an account promoted.
    let (ok, out, err) = admin(store, &["create-admin", "Root"], "");
    assert!(ok, "{out}{err}");
    let root_password = printed_password(&out);
    let root = http_post(
        addr,
        "/api/login",
        None,
        &credentials("root", &root_password),
    )
    .await;
    assert_eq!(root.status, 200, "{}", root.body);
    let (ok, out, err) = admin(store, &["create-admin", "anna"], "");
    assert!(
        ok && out.contains("Anna (u-") && out.contains("is an administrator"),
        "{out}{err}"
    );
    // Unknown or invalid names fail with a reason, changing nothing.
    let (ok, _, err) = admin(store, &["disable", "nobody"], "");
    assert!(!ok && err.contains("no account is named nobody"), "{err}");
    let (ok, _, err) = admin(store, &["create-admin", "a b"], "");
    assert!(!ok && err.contains("no valid username"), "{err}");
    vec![one_time, "typed by the operator".into(), root_password]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operators_disable_enable_and_reset_on_the_sqlite_file_of_a_running_server() {
    let server = TestServer::start().await;
    let data = server.dir.path().to_string_lossy().into_owned();
    let passwords = operators(server.addr, &["--data", &data]).await;
    // The database file and its WAL hold hashes only.
    for entry in std::fs::read_dir(server.dir.path()).expect("the data directory") {
        let bytes = std::fs::read(entry.expect("an entry").path()).unwrap_or_default();
        for password in &passwords {
            assert!(
                !bytes
                    .windows(password.len())
                    .any(|w| w == password.as_bytes()),
                "{password} in the data directory"
            );
        }
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operators_work_on_postgres_by_database_url() {
    let postgres = super::Postgres::start();
    let url = postgres.url();
    let server = TestServer::with(|config| config.database_url = Some(url.clone())).await;
    let _ = operators(server.addr, &["--database-url", &url]).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn passkey_ceremonies_refuse_with_typed_codes() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let no_cookie = http_post(
        addr,
        "/api/passkeys/register/start",
        None,
        r#"{"name":"x"}"#,
    )
    .await;
    assert_eq!(no_cookie.code(), "not_signed_in");
    let token = http_post(
        addr,
        "/api/signup",
        None,
        &credentials("Bruno", "correct horse"),
    )
    .await
    .token();
    let post = |path: &'static str, body: String| {
        let token = token.clone();
        async move { http_post(addr, path, Some(&token), &body).await }
    };
    // Registration: the options name this server as the relying party and ask for a
    // discoverable credential with user verification.
    let start = post(
        "/api/passkeys/register/start",
        r#"{"name":"laptop"}"#.into(),
    )
    .await;
    assert_eq!(start.status, 200, "{}", start.body);
    assert_eq!(start.header("cache-control"), Some("no-store"));
    let start = start.json();
    let options = &start["options"]["publicKey"];
    assert_eq!(options["rp"]["id"], "localhost");
    assert_eq!(options["user"]["name"], "Bruno");
    assert_eq!(options["authenticatorSelection"]["residentKey"], "required");
    assert_eq!(
        options["authenticatorSelection"]["userVerification"],
        "required"
    );
    assert!(options["challenge"].as_str().is_some_and(|c| c.len() >= 40));
    let ceremony = start["ceremony"]
        .as_str()
        .expect("a ceremony id")
        .to_owned();
    for name in [
        r#"{"name":""}"#.to_owned(),
        format!(r#"{{"name":"{}"}}"#, "n".repeat(65)),
        r#"{"name":"a\u0007b"}"#.to_owned(),
    ] {
        assert_eq!(
            post("/api/passkeys/register/start", name).await.code(),
            "invalid_passkey_name"
        );
    }
    assert_eq!(
        post("/api/passkeys/register/start", "{}".into())
            .await
            .code(),
        "bad_json"
    );
    // An answer that is no credential, an unknown ceremony, a forged credential.
    let forged = serde_json::json!({
        "id": "AAAA", "rawId": "AAAA", "type": "public-key",
        "response": {"attestationObject": "AAAA", "clientDataJSON": "AAAA"},
    });
    let finish = |ceremony: &str| {
        serde_json::json!({"ceremony": ceremony, "credential": forged}).to_string()
    };
    assert_eq!(
        post("/api/passkeys/register/finish", finish("nope"))
            .await
            .code(),
        "no_such_ceremony"
    );
    let rejected = post("/api/passkeys/register/finish", finish(&ceremony)).await;
    assert_eq!(
        (rejected.status, rejected.code()),
        (400, "passkey_rejected".into())
    );
    assert_eq!(
        post("/api/passkeys/register/finish", finish(&ceremony))
            .await
            .code(),
        "no_such_ceremony",
        "a ceremony is answered once"
    );
    assert_eq!(
        post(
            "/api/passkeys/register/finish",
            r#"{"ceremony":"x"}"#.into()
        )
        .await
        .code(),
        "bad_json"
    );
    let big = format!(r#"{{"ceremony":"{}"}}"#, "x".repeat(20_000));
    assert_eq!(
        post("/api/passkeys/register/finish", big).await.code(),
        "body_too_large"
    );

    // Sign-in: no name needed; a forged assertion is refused and signs nobody in.
    let start = http_post(addr, "/api/passkeys/login/start", None, "").await;
    assert_eq!(start.status, 200, "{}", start.body);
    let start = start.json();
    assert_eq!(start["options"]["publicKey"]["rpId"], "localhost");
    assert_eq!(
        start["options"]["publicKey"]["userVerification"],
        "required"
    );
    let assertion = serde_json::json!({
        "ceremony": start["ceremony"],
        "credential": {
            "id": "AAAA", "rawId": "AAAA", "type": "public-key",
            "response": {"authenticatorData": "AAAA", "clientDataJSON": "AAAA", "signature": "AAAA", "userHandle": "AAAAAAAAAAAAAAAAAAAAAA"},
        },
    });
    let refused = http_post(
        addr,
        "/api/passkeys/login/finish",
        None,
        &assertion.to_string(),
    )
    .await;
    assert_eq!(refused.code(), "passkey_rejected");
    assert!(refused.header("set-cookie").is_none());
    let again = http_post(
        addr,
        "/api/passkeys/login/finish",
        None,
        &assertion.to_string(),
    )
    .await;
    assert_eq!(again.code(), "no_such_ceremony");

    // One address starting sign-ins in a loop is held back after 30 (the thirtieth starts the
    // delay), so it cannot fill the ceremonies' room for everybody.
    for i in 1..30 {
        let start = http_post(addr, "/api/passkeys/login/start", None, "").await;
        assert_eq!(start.status, 200, "start {i}: {}", start.body);
    }
    let held = http_post(addr, "/api/passkeys/login/start", None, "").await;
    assert_eq!(
        (held.status, held.code()),
        (429, "too_many_ceremonies".into())
    );
    assert!(held.header("retry-after").is_some());

    // The list, and removing what is not there.
    let list = get(addr, "/api/passkeys", &token).await;
    assert_eq!(list.json(), serde_json::json!({"passkeys": []}));
    let cookie = format!("burraco_session={token}");
    let missing = http(
        addr,
        "DELETE",
        "/api/passkeys/pk-0000",
        &[("Cookie", &cookie)],
        "",
    )
    .await;
    assert_eq!(
        (missing.status, missing.code()),
        (404, "no_such_passkey".into())
    );
    server.stop().await;
}
