//! The accounts' smaller holes, each seen from outside (issue 32): a bot account made from an
//! account with rated games; a NUL in an input answered alike by both stores; reserved and
//! punctuated look-alike names; token labels under the text rule; no secret or hash in a debug
//! log on PostgreSQL; a renamed skeleton rule migrated with old accounts kept readable.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::json;

use super::http::{Reply, http, http_post};
use crate::common::{Client, TestServer};

fn credentials(username: &str, password: &str) -> String {
    json!({"username": username, "password": password}).to_string()
}

async fn sign_up(addr: SocketAddr, name: &str) -> Reply {
    http_post(
        addr,
        "/api/signup",
        None,
        &credentials(name, "correct horse"),
    )
    .await
}

fn cookie(session: &str) -> String {
    format!("burraco_session={session}")
}

/// Anna and Bruno play a rated match; then Anna, who has a rating, may not become a bot
/// account (docs/ACCOUNTS.md), while Carla, who never played rated, may.
async fn rated_accounts_stay_people(server: &TestServer) {
    let addr = server.addr;
    let (anna_id, anna) = crate::ratings::sign_up(addr, "Anna").await;
    let (_, bruno) = crate::ratings::sign_up(addr, "Bruno").await;
    crate::ratings::play_rated_match(addr, &anna, &bruno).await;
    let ratings = crate::ratings::until_matches(addr, &anna_id, 1, Duration::from_secs(20)).await;
    assert_eq!(crate::ratings::matches_two(&ratings), 1, "{ratings}");
    let refused = http(
        addr,
        "POST",
        "/api/account/bot",
        &[("Cookie", &cookie(&anna))],
        "",
    )
    .await;
    assert_eq!(
        (refused.status, refused.code()),
        (409, "has_rated_games".into()),
        "{}",
        refused.body
    );
    let account = http(
        addr,
        "GET",
        "/api/account",
        &[("Cookie", &cookie(&anna))],
        "",
    )
    .await;
    assert_eq!(account.json()["bot"], false, "nothing changed");
    let carla = sign_up(addr, "Carla").await.token();
    let made = http(
        addr,
        "POST",
        "/api/account/bot",
        &[("Cookie", &cookie(&carla))],
        "",
    )
    .await;
    assert_eq!(made.status, 200, "{}", made.body);
    assert_eq!(made.json()["bot"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_with_rated_games_cannot_become_a_bot_account_on_sqlite() {
    let server = TestServer::with(|config| config.rated_min_play = Duration::ZERO).await;
    rated_accounts_stay_people(&server).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_with_rated_games_cannot_become_a_bot_account_on_postgres() {
    let postgres = super::Postgres::start();
    let url = postgres.url();
    let server = TestServer::with(|config| {
        config.rated_min_play = Duration::ZERO;
        config.database_url = Some(url.clone());
    })
    .await;
    rated_accounts_stay_people(&server).await;
    server.stop().await;
}

/// Every input that may carry a NUL, and the answer it gets: (what, status, code). `store`:
/// the server's store flags, for `admin` to make the account a moderator.
async fn nul_answers(addr: SocketAddr, store: &[&str]) -> Vec<(&'static str, u16, String)> {
    let session = sign_up(addr, "Nula").await.token();
    let (ok, out, err) = super::admin::admin(store, &["grant-moderator", "nula"], "");
    assert!(ok, "{out}{err}");
    let cookie = cookie(&session);
    let with_cookie = [("Cookie", cookie.as_str())];
    let cases: Vec<(&'static str, &'static str, &'static str, String)> = vec![
        (
            "a name at sign-in",
            "POST",
            "/api/login",
            credentials("Nu\u{0}la", "correct horse"),
        ),
        (
            "a name at sign-up",
            "POST",
            "/api/signup",
            credentials("Nu\u{0}lb", "correct horse"),
        ),
        (
            "a password",
            "POST",
            "/api/password",
            json!({"current": "correct\u{0}horse", "new": "battery staple"}).to_string(),
        ),
        (
            "a token's label",
            "POST",
            "/api/tokens",
            json!({"label": "my\u{0}bot", "scopes": ["play"]}).to_string(),
        ),
        (
            "a passkey's name",
            "POST",
            "/api/passkeys/register/start",
            json!({"name": "lap\u{0}top"}).to_string(),
        ),
        (
            "a reported player",
            "POST",
            "/api/reports",
            json!({"kind": "player", "player": "Nu\u{0}la", "reason": "spam"}).to_string(),
        ),
        (
            "a session's id",
            "DELETE",
            "/api/sessions/ab%00cd",
            String::new(),
        ),
        (
            "a token's id",
            "DELETE",
            "/api/tokens/tk-%00",
            String::new(),
        ),
        (
            "a passkey's id",
            "DELETE",
            "/api/passkeys/pk-%00",
            String::new(),
        ),
        (
            "a player's page",
            "GET",
            "/api/players/Nu%00la",
            String::new(),
        ),
        (
            "a player's ratings",
            "GET",
            "/api/ratings/u-%00",
            String::new(),
        ),
        (
            "a report a moderator answers",
            "POST",
            "/api/moderation/actions",
            json!({"action": "dismiss", "report": "r-\u{0}", "reason": "spam"}).to_string(),
        ),
        (
            "an account a moderator looks up",
            "GET",
            "/api/moderation/accounts/Nu%00la",
            String::new(),
        ),
    ];
    let mut answers = Vec::new();
    for (what, method, path, body) in cases {
        let reply = http(addr, method, path, &with_cookie, &body).await;
        let code = if reply.body.starts_with('{') {
            reply.json()["code"].as_str().unwrap_or("").to_owned()
        } else {
            String::new()
        };
        answers.push((what, reply.status, code));
    }
    answers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nul_in_any_input_is_answered_alike_by_both_stores() {
    let sqlite = TestServer::start().await;
    let data = sqlite.dir.path().to_string_lossy().into_owned();
    let on_sqlite = nul_answers(sqlite.addr, &["--data", &data]).await;
    sqlite.stop().await;
    let postgres = super::Postgres::start();
    let url = postgres.url();
    let server = TestServer::with(|config| config.database_url = Some(url.clone())).await;
    let on_postgres = nul_answers(server.addr, &["--database-url", &url]).await;
    server.stop().await;
    assert_eq!(on_sqlite, on_postgres);
    // Refused, or found to be nothing (an unknown account's ratings are `[]`); never a 5xx.
    for (what, status, code) in &on_sqlite {
        assert!(*status < 500, "{what}: {status} {code}");
    }
    let answer = |what: &str| {
        on_sqlite
            .iter()
            .find(|(w, _, _)| *w == what)
            .map(|(_, status, code)| (*status, code.clone()))
    };
    assert_eq!(
        answer("a name at sign-in"),
        Some((401, "bad_credentials".into()))
    );
    assert_eq!(
        answer("a token's label"),
        Some((400, "invalid_token_settings".into()))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reserved_names_and_punctuated_look_alikes_are_refused() {
    let server = TestServer::start().await;
    let addr = server.addr;
    assert_eq!(sign_up(addr, "Anna").await.status, 201);
    for (name, code) in [
        ("admin", "name_reserved"),
        ("Moderator", "name_reserved"),
        ("SYSTEM", "name_reserved"),
        ("Bot_expert", "name_reserved"),
        ("Anna.", "name_confusable"),
        ("An.na", "name_confusable"),
        ("_anna_", "name_confusable"),
        ("a-n-n-a", "name_confusable"),
    ] {
        let reply = sign_up(addr, name).await;
        assert_eq!(
            (reply.status, reply.code().as_str()),
            (409, code),
            "{name}: {}",
            reply.body
        );
    }
    assert_eq!(sign_up(addr, "Annabel").await.status, 201);
    // Guests may take neither a reserved name nor a server bot's, nor an account's with dots.
    for name in [
        "admin",
        "Bot (expert)",
        "bot (greedy)",
        "System",
        "Anna.",
        "A.n.n.a",
    ] {
        let refused = Client::try_connect(addr, name, None).await;
        let Err(why) = refused else {
            panic!("{name} was let in")
        };
        assert!(why.contains("name_registered"), "{name}: {why}");
    }
    let mut guest = Client::connect(addr, "Anna Maria", None).await.0;
    guest.barrier().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tokens_label_follows_the_text_rule() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let session = sign_up(addr, "Labels").await.token();
    let cookie = cookie(&session);
    let create = |label: &str| {
        let body = json!({"label": label, "scopes": ["play"]}).to_string();
        let cookie = cookie.clone();
        async move { http(addr, "POST", "/api/tokens", &[("Cookie", &cookie)], &body).await }
    };
    for label in [
        "my\u{0}bot",
        "my\u{7}bot",
        "line\nbreak",
        "\u{202E}tob ym",
        "zero\u{200B}width",
    ] {
        let reply = create(label).await;
        assert_eq!(
            (reply.status, reply.code()),
            (400, "invalid_token_settings".into()),
            "{label:?}"
        );
    }
    let made = create("  my   bot ").await;
    assert_eq!(made.status, 201, "{}", made.body);
    assert_eq!(made.json()["label"], "my bot");
    let unnamed = create("").await;
    assert_eq!(unnamed.status, 201, "{}", unnamed.body);
    assert_eq!(unnamed.json()["label"], "");
    server.stop().await;
}

/// Whether `needle` is anywhere in `haystack`.
fn holds(haystack: &[u8], needle: &str) -> bool {
    !needle.is_empty()
        && haystack
            .windows(needle.len())
            .any(|w| w == needle.as_bytes())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_debug_log_on_postgres_holds_no_secret_and_no_hash() {
    let postgres = super::Postgres::start();
    let url = postgres.url();
    let data = tempfile::tempdir().expect("temp dir");
    let data_dir = data.path().to_string_lossy().into_owned();
    let server = super::http::start_binary(
        &["--data", &data_dir, "--database-url", &url],
        &[("RUST_LOG", "debug")],
    );
    let addr = server.addr;
    let password = "Plaintext-Pa55word-pg";
    let signup = http_post(addr, "/api/signup", None, &credentials("Greta", password)).await;
    assert_eq!(signup.status, 201, "{}", signup.body);
    let login = http_post(addr, "/api/login", None, &credentials("greta", password)).await;
    assert_eq!(login.status, 200, "{}", login.body);
    let wrong = http_post(
        addr,
        "/api/login",
        None,
        &credentials("greta", "Plaintext-wrong-pg"),
    )
    .await;
    assert_eq!(wrong.code(), "bad_credentials");
    let session = login.token();
    let created = http(
        addr,
        "POST",
        "/api/tokens",
        &[("Cookie", &cookie(&session))],
        r#"{"label":"grep me","scopes":["read_account"]}"#,
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let personal = created.json()["token"].as_str().expect("token").to_owned();
    let account = http(
        addr,
        "GET",
        "/api/account",
        &[("Authorization", &format!("Bearer {personal}"))],
        "",
    )
    .await;
    assert_eq!(account.status, 200, "{}", account.body);
    // A guest's hello, which the server logs at debug level.
    let mut guest = Client::connect(addr, "Guest", None).await.0;
    guest.barrier().await;
    // What the database holds: the Argon2id hash and the tokens' SHA-256.
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .expect("the test's own connection");
    tokio::spawn(connection);
    let mut stored: Vec<String> = Vec::new();
    for query in [
        "SELECT password_hash FROM accounts",
        "SELECT token_hash FROM account_sessions",
        "SELECT token_hash FROM account_tokens",
    ] {
        for row in client.query(query, &[]).await.expect(query) {
            stored.push(row.get(0));
        }
    }
    assert!(stored.len() >= 4, "{stored:?}");
    let logs = server.logs();
    assert!(holds(&logs, "signed in"), "the log is captured");
    assert!(holds(&logs, "DEBUG"), "at debug level");
    let secrets = [
        password.to_owned(),
        "Plaintext-wrong-pg".into(),
        session,
        personal,
    ];
    for secret in secrets.iter().chain(&stored) {
        assert!(!holds(&logs, secret), "{secret} in a log line");
    }
}
