//! The accounts' edges, seen from outside (issue 32): every state-changing route refusing a page
//! of another site (`Origin`, `Sec-Fetch-Site`) while programs without either go on; the data
//! directory kept to its owner; `admin` refusing a store that does not exist and a reset ending
//! the thief's tokens; an IP public origin leaving passwords working; one account or address
//! unable to fill the passkey ceremonies' room.

use std::net::SocketAddr;

use serde_json::json;

use super::admin::admin;
use super::http::{Reply, http, http_post};
use crate::common::TestServer;

fn credentials(username: &str, password: &str) -> String {
    json!({"username": username, "password": password}).to_string()
}

async fn sign_up(addr: SocketAddr, name: &str) -> Reply {
    let reply = http_post(
        addr,
        "/api/signup",
        None,
        &credentials(name, "correct horse"),
    )
    .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    reply
}

fn cookie(session: &str) -> String {
    format!("burraco_session={session}")
}

/// Every state-changing route under `/api`, with a body it takes.
fn state_changing() -> Vec<(&'static str, &'static str, String)> {
    vec![
        (
            "POST",
            "/api/signup",
            credentials("Mallory", "correct horse"),
        ),
        ("POST", "/api/login", credentials("anna", "correct horse")),
        ("POST", "/api/logout", String::new()),
        ("POST", "/api/logout/everywhere", String::new()),
        (
            "POST",
            "/api/password",
            json!({"current": "correct horse", "new": "battery staple"}).to_string(),
        ),
        ("DELETE", "/api/sessions/0000000000000000", String::new()),
        ("POST", "/api/account/bot", String::new()),
        (
            "POST",
            "/api/tokens",
            json!({"scopes": ["play"]}).to_string(),
        ),
        ("DELETE", "/api/tokens/tk-0000000000000000", String::new()),
        ("DELETE", "/api/passkeys/pk-0000000000000000", String::new()),
        (
            "POST",
            "/api/passkeys/register/start",
            json!({"name": "laptop"}).to_string(),
        ),
        (
            "POST",
            "/api/passkeys/register/finish",
            json!({"ceremony": "x", "credential": {}}).to_string(),
        ),
        ("POST", "/api/passkeys/login/start", String::new()),
        (
            "POST",
            "/api/passkeys/login/finish",
            json!({"ceremony": "x", "credential": {}}).to_string(),
        ),
        (
            "POST",
            "/api/reports",
            json!({"kind": "player", "player": "Bruno", "reason": "spam"}).to_string(),
        ),
        (
            "POST",
            "/api/moderation/actions",
            json!({"kind": "warn", "account": "Bruno", "reason": "x"}).to_string(),
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_of_another_site_cannot_change_anything_with_a_players_cookie() {
    let server = TestServer::with(|config| {
        config.allowed_origins = vec!["https://burraco.example".into()];
    })
    .await;
    let addr = server.addr;
    sign_up(addr, "Bruno").await;
    let session = sign_up(addr, "Anna").await.token();
    let cookie = cookie(&session);
    let foreign: [&[(&str, &str)]; 5] = [
        &[("Origin", "https://evil.example")],
        &[("Origin", "null")],
        &[("Origin", "https://sub.test")],
        &[("Sec-Fetch-Site", "cross-site")],
        &[("Sec-Fetch-Site", "same-site")],
    ];
    for (method, path, body) in state_changing() {
        for extra in foreign {
            let mut headers = vec![("Cookie", cookie.as_str())];
            headers.extend_from_slice(extra);
            let reply = http(addr, method, path, &headers, &body).await;
            assert_eq!(
                (reply.status, reply.code()),
                (403, "origin_refused".into()),
                "{method} {path} {extra:?}: {}",
                reply.body
            );
        }
    }
    // Nothing changed: still signed in, still a player, no token.
    let me = http(addr, "GET", "/api/account", &[("Cookie", &cookie)], "").await;
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!(me.json()["bot"], false);
    let tokens = http(addr, "GET", "/api/tokens", &[("Cookie", &cookie)], "").await;
    assert_eq!(tokens.json(), json!([]));
    // The server's own pages, an allowed origin, and programs that send neither header.
    let own: &[(&str, &str)] = &[("Origin", "http://test"), ("Sec-Fetch-Site", "same-origin")];
    let allowed: &[(&str, &str)] = &[
        ("Origin", "https://burraco.example"),
        ("Sec-Fetch-Site", "cross-site"),
    ];
    for extra in [own, allowed, &[]] {
        let mut headers = vec![("Cookie", cookie.as_str())];
        headers.extend_from_slice(extra);
        let body = json!({"scopes": ["play"]}).to_string();
        let reply = http(addr, "POST", "/api/tokens", &headers, &body).await;
        assert_eq!(reply.status, 201, "{extra:?}: {}", reply.body);
    }
    let made = http(
        addr,
        "POST",
        "/api/account/bot",
        &[("Cookie", &cookie), ("Sec-Fetch-Site", "same-origin")],
        "",
    )
    .await;
    assert_eq!(made.status, 200, "{}", made.body);
    // Reading stays open to any page (no state changes): the same-origin policy keeps the
    // answer from it.
    let read = http(
        addr,
        "GET",
        "/api/me",
        &[("Cookie", &cookie), ("Sec-Fetch-Site", "cross-site")],
        "",
    )
    .await;
    assert_eq!(read.status, 200, "{}", read.body);
    server.stop().await;
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_data_directory_and_its_files_are_the_owners_alone() {
    use std::os::unix::fs::PermissionsExt;
    let parent = tempfile::tempdir().expect("temp dir");
    let data = parent.path().join("data");
    let dir = data.clone();
    let server = TestServer::with(move |config| config.data_dir = dir).await;
    sign_up(server.addr, "Anna").await;
    let mode = |path: &std::path::Path| {
        std::fs::metadata(path)
            .expect("metadata")
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode(&data), 0o700, "the directory");
    let mut files = 0;
    for entry in std::fs::read_dir(&data).expect("the data directory") {
        let path = entry.expect("an entry").path();
        assert_eq!(mode(&path), 0o600, "{}", path.display());
        files += 1;
    }
    assert!(files >= 2, "the database and its WAL");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_refuses_a_data_directory_that_holds_no_store() {
    let server = TestServer::start().await;
    sign_up(server.addr, "Anna").await;
    let typo = server.dir.path().join("tpyo");
    let typo_text = typo.to_string_lossy().into_owned();
    let (ok, out, err) = admin(&["--data", &typo_text], &["disable", "anna"], "");
    assert!(!ok, "{out}{err}");
    assert!(err.contains("no accounts' store"), "{err}");
    assert!(!typo.exists(), "nothing made at {typo_text}");
    // An empty directory is no store either.
    let empty = tempfile::tempdir().expect("temp dir");
    let empty_text = empty.path().to_string_lossy().into_owned();
    let (ok, _, err) = admin(&["--data", &empty_text], &["enable", "anna"], "");
    assert!(!ok && err.contains("no accounts' store"), "{err}");
    assert_eq!(std::fs::read_dir(empty.path()).expect("dir").count(), 0);
    // The right one works.
    let data = server.dir.path().to_string_lossy().into_owned();
    let (ok, out, err) = admin(&["--data", &data], &["enable", "anna"], "");
    assert!(ok, "{out}{err}");
    server.stop().await;
}

/// A reset password ends what a thief may hold: sessions and personal tokens.
async fn a_reset_ends_tokens(addr: SocketAddr, store: &[&str]) {
    let session = sign_up(addr, "Victim").await.token();
    let created = http(
        addr,
        "POST",
        "/api/tokens",
        &[("Cookie", &cookie(&session))],
        &json!({"scopes": ["read_account"]}).to_string(),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let token = created.json()["token"].as_str().expect("token").to_owned();
    let bearer = format!("Bearer {token}");
    let read = http(
        addr,
        "GET",
        "/api/account",
        &[("Authorization", &bearer)],
        "",
    )
    .await;
    assert_eq!(read.status, 200, "{}", read.body);
    let (ok, out, err) = admin(store, &["reset-password", "victim"], "");
    assert!(ok, "{out}{err}");
    assert!(out.contains("1 tokens revoked"), "{out}");
    let read = http(
        addr,
        "GET",
        "/api/account",
        &[("Authorization", &bearer)],
        "",
    )
    .await;
    assert_eq!(
        (read.status, read.code()),
        (401, "invalid_token".into()),
        "{}",
        read.body
    );
    let me = http(addr, "GET", "/api/me", &[("Cookie", &cookie(&session))], "").await;
    assert_eq!(me.code(), "not_signed_in");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operators_reset_revokes_the_accounts_tokens_on_sqlite() {
    let server = TestServer::start().await;
    let data = server.dir.path().to_string_lossy().into_owned();
    a_reset_ends_tokens(server.addr, &["--data", &data]).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operators_reset_revokes_the_accounts_tokens_on_postgres() {
    let postgres = super::Postgres::start();
    let url = postgres.url();
    let server = TestServer::with(|config| config.database_url = Some(url.clone())).await;
    a_reset_ends_tokens(server.addr, &["--database-url", &url]).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_origin_on_an_ip_address_leaves_passwords_working() {
    let data = tempfile::tempdir().expect("temp dir");
    let data_dir = data.path().to_string_lossy().into_owned();
    let server = super::http::try_start_binary(
        &[
            "--data",
            &data_dir,
            "--public-origin",
            "http://127.0.0.1:8080",
        ],
        &[],
    )
    .unwrap_or_else(|said| panic!("the server stopped: {said}"));
    let addr = server.addr;
    let session = sign_up(addr, "Anna").await.token();
    let login = http_post(
        addr,
        "/api/login",
        None,
        &credentials("anna", "correct horse"),
    )
    .await;
    assert_eq!(login.status, 200, "{}", login.body);
    let start = http_post(
        addr,
        "/api/passkeys/register/start",
        Some(&session),
        r#"{"name":"laptop"}"#,
    )
    .await;
    assert_eq!(
        (start.status, start.code()),
        (503, "passkeys_unavailable".into())
    );
    let start = http_post(addr, "/api/passkeys/login/start", None, "").await;
    assert_eq!(
        (start.status, start.code()),
        (503, "passkeys_unavailable".into())
    );
    // What is no URL at all still stops it.
    let stopped = super::http::try_start_binary(
        &["--data", &data_dir, "--public-origin", "not an origin"],
        &[],
    );
    assert!(stopped.is_err());
}

/// A forged answer to registration ceremony `ceremony`: which says whether it was still there
/// (`passkey_rejected`) or gone (`no_such_ceremony`).
async fn finish(addr: SocketAddr, session: &str, ceremony: &str) -> String {
    let body = json!({"ceremony": ceremony, "credential": {
        "id": "AAAA", "rawId": "AAAA", "type": "public-key",
        "response": {"attestationObject": "AAAA", "clientDataJSON": "AAAA"},
    }});
    http_post(
        addr,
        "/api/passkeys/register/finish",
        Some(session),
        &body.to_string(),
    )
    .await
    .code()
}

async fn start_registration(addr: SocketAddr, session: &str, forwarded: &str) -> Reply {
    http(
        addr,
        "POST",
        "/api/passkeys/register/start",
        &[("Cookie", &cookie(session)), ("X-Forwarded-For", forwarded)],
        r#"{"name":"laptop"}"#,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_account_or_address_cannot_fill_the_passkey_ceremonies() {
    let server = TestServer::with(|config| config.trust_forwarded_for = true).await;
    let addr = server.addr;
    let anna = sign_up(addr, "Anna").await.token();
    // An account holds 3 registrations waiting at most: a fourth drops its oldest.
    let mut ceremonies = Vec::new();
    for _ in 0..4 {
        let start = start_registration(addr, &anna, "198.51.100.1").await;
        assert_eq!(start.status, 200, "{}", start.body);
        ceremonies.push(start.json()["ceremony"].as_str().expect("id").to_owned());
    }
    assert_eq!(
        finish(addr, &anna, &ceremonies[0]).await,
        "no_such_ceremony"
    );
    assert_eq!(
        finish(addr, &anna, &ceremonies[3]).await,
        "passkey_rejected"
    );
    // One address starts 30, then waits (whichever account asks).
    for i in 4..30 {
        let start = start_registration(addr, &anna, "198.51.100.1").await;
        assert_eq!(start.status, 200, "start {i}: {}", start.body);
    }
    let held = start_registration(addr, &anna, "198.51.100.1").await;
    assert_eq!(
        (held.status, held.code()),
        (429, "too_many_ceremonies".into())
    );
    assert!(held.header("retry-after").is_some());
    // Everybody else goes on.
    let bruno = sign_up(addr, "Bruno").await.token();
    let other = start_registration(addr, &bruno, "203.0.113.5").await;
    assert_eq!(other.status, 200, "{}", other.body);
    server.stop().await;
}
