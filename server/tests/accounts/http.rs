//! The accounts' HTTP API on the raw socket: sign up, sign in (the token rotated), who am I,
//! sessions listed and revoked, sign out here and everywhere, a new password; bad bodies get
//! typed 400s; wrong passwords in a loop get 429 with a growing delay while the server serves
//! on; and no password or token reaches the database file, a log line or /metrics.

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::common::TestServer;

/// A response, as read off the socket.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    /// The `code` of a refusal.
    pub fn code(&self) -> String {
        self.json()["code"].as_str().unwrap_or("").to_owned()
    }

    /// The session token the response's `Set-Cookie` carries.
    pub fn token(&self) -> String {
        let cookie = self.header("set-cookie").expect("a Set-Cookie");
        let value = cookie
            .split(';')
            .next()
            .and_then(|pair| pair.trim().strip_prefix("burraco_session="))
            .expect("the session cookie");
        value.to_owned()
    }
}

/// One HTTP/1.1 request with `Connection: close`; the body is sent as `application/json`
/// unless a `Content-Type` is among `headers`.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Reply {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("content-type"))
    {
        request.push_str("Content-Type: application/json\r\n");
    }
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).await.expect("write");
    // Read until the server closes; a reset after the answer (a body refused unread) keeps
    // what came before it.
    let mut response = Vec::new();
    let read = async {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stream.read(&mut buf).await {
            if n == 0 {
                break;
            }
            response.extend_from_slice(&buf[..n]);
        }
    };
    tokio::time::timeout(Duration::from_secs(20), read)
        .await
        .expect("an answer within 20 s");
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    Reply {
        status,
        headers,
        body: body.to_owned(),
    }
}

pub async fn http_post(addr: SocketAddr, path: &str, cookie: Option<&str>, body: &str) -> Reply {
    let cookie = cookie.map(|t| format!("burraco_session={t}"));
    let headers: Vec<(&str, &str)> = cookie.iter().map(|c| ("Cookie", c.as_str())).collect();
    http(addr, "POST", path, &headers, body).await
}

async fn get(addr: SocketAddr, path: &str, token: &str) -> Reply {
    let cookie = format!("burraco_session={token}");
    http(addr, "GET", path, &[("Cookie", &cookie)], "").await
}

fn credentials(username: &str, password: &str) -> String {
    serde_json::json!({"username": username, "password": password}).to_string()
}

/// `POST /api/login` with these credentials and no cookie.
async fn post_login(addr: SocketAddr, username: &str, password: &str) -> Reply {
    http_post(addr, "/api/login", None, &credentials(username, password)).await
}

/// `POST /api/signup` with these credentials and no cookie.
async fn post_signup(addr: SocketAddr, username: &str, password: &str) -> Reply {
    http_post(addr, "/api/signup", None, &credentials(username, password)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_sign_in_sessions_and_sign_out() {
    let server = TestServer::start().await;
    let addr = server.addr;

    let signup = post_signup(addr, "Anna", "correct horse").await;
    assert_eq!(signup.status, 201, "{}", signup.body);
    assert_eq!(signup.json()["username"], "Anna");
    let id = signup.json()["id"].as_str().expect("id").to_owned();
    let cookie = signup.header("set-cookie").expect("cookie").to_owned();
    assert!(cookie.contains("; HttpOnly"), "{cookie}");
    assert!(cookie.contains("; SameSite=Lax"), "{cookie}");
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
    assert_eq!(signup.header("cache-control"), Some("no-store"));
    let first = signup.token();
    assert_eq!(first.len(), 64, "256 bits in hex");

    let me = get(addr, "/api/me", &first).await;
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!(me.header("cache-control"), Some("no-store"));
    assert_eq!(
        (me.json()["id"].as_str(), me.json()["username"].as_str()),
        (Some(&*id), Some("Anna"))
    );

    // Signing in makes a new token and ends the session the request came with.
    let login = http_post(
        addr,
        "/api/login",
        Some(&first),
        &credentials("ANNA", "correct horse"),
    )
    .await;
    assert_eq!(login.status, 200, "{}", login.body);
    assert_eq!(login.json()["id"].as_str(), Some(&*id));
    let second = login.token();
    assert_ne!(second, first);
    assert_eq!(get(addr, "/api/me", &first).await.code(), "not_signed_in");
    assert_eq!(get(addr, "/api/me", &second).await.status, 200);

    // Over TLS (as a proxy says), the cookie is Secure.
    let tls = http(
        addr,
        "POST",
        "/api/login",
        &[("X-Forwarded-Proto", "https"), ("User-Agent", "Phone/1.0")],
        &credentials("anna", "correct horse"),
    )
    .await;
    assert_eq!(tls.status, 200, "{}", tls.body);
    assert!(
        tls.header("set-cookie")
            .expect("cookie")
            .contains("; Secure")
    );
    let phone = tls.token();

    // The list, the current one marked; revoking one ends it at once.
    let list = get(addr, "/api/sessions", &second).await;
    assert_eq!(list.status, 200, "{}", list.body);
    let list = list.json();
    let list = list.as_array().expect("an array");
    assert_eq!(list.len(), 2, "{list:?}");
    let phone_entry = list
        .iter()
        .find(|s| s["user_agent"] == "Phone/1.0")
        .expect("the phone's session");
    assert_eq!(phone_entry["current"], false);
    assert!(list.iter().any(|s| s["current"] == true));
    let phone_id = phone_entry["id"].as_str().expect("id");
    let revoked = http(
        addr,
        "DELETE",
        &format!("/api/sessions/{phone_id}"),
        &[("Cookie", &format!("burraco_session={second}"))],
        "",
    )
    .await;
    assert_eq!(revoked.status, 204, "{}", revoked.body);
    assert_eq!(get(addr, "/api/me", &phone).await.code(), "not_signed_in");
    let again = http(
        addr,
        "DELETE",
        &format!("/api/sessions/{phone_id}"),
        &[("Cookie", &format!("burraco_session={second}"))],
        "",
    )
    .await;
    assert_eq!(
        (again.status, again.code()),
        (404, "no_such_session".into())
    );

    // Sign out: the cookie is cleared and the token is useless from then on.
    let out = http_post(addr, "/api/logout", Some(&second), "").await;
    assert_eq!(out.status, 204);
    assert!(
        out.header("set-cookie")
            .expect("cleared")
            .contains("Max-Age=0")
    );
    for path in ["/api/me", "/api/sessions"] {
        let after = get(addr, path, &second).await;
        assert_eq!(
            (after.status, after.code()),
            (401, "not_signed_in".into()),
            "{path}"
        );
    }
    let stale = http_post(addr, "/api/logout/everywhere", Some(&second), "").await;
    assert_eq!(stale.code(), "not_signed_in");

    // A new password signs the other sessions out; the old password no longer works.
    let laptop = post_login(addr, "anna", "correct horse").await.token();
    let tablet = post_login(addr, "anna", "correct horse").await.token();
    let wrong = http_post(
        addr,
        "/api/password",
        Some(&laptop),
        r#"{"current": "incorrect horse", "new": "battery staple"}"#,
    )
    .await;
    assert_eq!(
        (wrong.status, wrong.code()),
        (401, "bad_credentials".into())
    );
    let changed = http_post(
        addr,
        "/api/password",
        Some(&laptop),
        r#"{"current": "correct horse", "new": "battery staple"}"#,
    )
    .await;
    assert_eq!(changed.status, 204, "{}", changed.body);
    assert_eq!(
        get(addr, "/api/me", &laptop).await.status,
        200,
        "this session stays"
    );
    assert_eq!(get(addr, "/api/me", &tablet).await.code(), "not_signed_in");
    let old = post_login(addr, "anna", "correct horse").await;
    assert_eq!(old.code(), "bad_credentials");
    let new = post_login(addr, "anna", "battery staple").await;
    assert_eq!(new.status, 200);

    // Sign out everywhere: every session ends.
    let everywhere = http_post(addr, "/api/logout/everywhere", Some(&laptop), "").await;
    assert_eq!(everywhere.status, 204);
    assert_eq!(get(addr, "/api/me", &laptop).await.code(), "not_signed_in");
    assert_eq!(
        get(addr, "/api/me", &new.token()).await.code(),
        "not_signed_in"
    );

    // Guests play as ever, whatever the accounts: a registered name is not yet reserved on the
    // WebSocket (protocol 1.4 will be).
    let mut guest = server.client("Bruno").await;
    guest.barrier().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_bodies_and_names_get_typed_refusals() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let ok = post_signup(addr, "anna", "correct horse").await;
    assert_eq!(ok.status, 201, "{}", ok.body);

    let big = format!(
        r#"{{"username": "bruno", "password": "{}"}}"#,
        "x".repeat(5 * 1024)
    );
    let cases: Vec<(String, u16, &str)> = vec![
        ("{".into(), 400, "bad_json"),
        ("".into(), 400, "bad_json"),
        ("[1, 2]".into(), 400, "bad_json"),
        (r#"{"username": "bruno"}"#.into(), 400, "bad_json"),
        (
            r#"{"username": 7, "password": "correct horse"}"#.into(),
            400,
            "bad_json",
        ),
        (
            r#"{"username": "bruno", "password": "correct horse", "admin": true}"#.into(),
            400,
            "bad_json",
        ),
        (big, 400, "body_too_large"),
        (credentials("br", "correct horse"), 400, "invalid_username"),
        (
            credentials("bruno rossi", "correct horse"),
            400,
            "invalid_username",
        ),
        (
            credentials("bru\u{200B}no", "correct horse"),
            400,
            "invalid_username",
        ),
        (credentials("bruno", "short"), 400, "invalid_password"),
        (
            credentials("bruno", &"x".repeat(257)),
            400,
            "invalid_password",
        ),
        (credentials("ANNA", "correct horse"), 409, "name_taken"),
        (credentials("ａｎｎａ", "correct horse"), 409, "name_taken"),
        (
            credentials("\u{0430}nn\u{0430}", "correct horse"),
            409,
            "name_confusable",
        ),
    ];
    for (body, status, code) in cases {
        let reply = http_post(addr, "/api/signup", None, &body).await;
        let shown: String = body.chars().take(60).collect();
        assert_eq!(
            (reply.status, reply.code().as_str()),
            (status, code),
            "{shown}"
        );
        assert!(reply.header("set-cookie").is_none(), "{shown}");
    }
    let login = http_post(addr, "/api/login", None, "{").await;
    assert_eq!((login.status, login.code()), (400, "bad_json".into()));
    let form = http(
        addr,
        "POST",
        "/api/login",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        "username=anna&password=correct+horse",
    )
    .await;
    assert_eq!((form.status, form.code()), (415, "not_json".into()));
    // A cookie that is no token, or an unknown one: not signed in.
    for token in ["", "zz", &"0".repeat(64), "'; --"] {
        let me = get(addr, "/api/me", token).await;
        assert_eq!(
            (me.status, me.code()),
            (401, "not_signed_in".into()),
            "{token:?}"
        );
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_passwords_in_a_loop_get_429_with_a_growing_delay() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let ok = post_signup(addr, "anna", "correct horse").await;
    assert_eq!(ok.status, 201);

    // Five wrong passwords are answered as such; the fifth starts a delay, during which even
    // the right password is refused, at once.
    for _ in 0..5 {
        let reply = post_login(addr, "anna", "wrong horse").await;
        assert_eq!(
            (reply.status, reply.code()),
            (401, "bad_credentials".into())
        );
    }
    let mut delays = Vec::new();
    for round in 0..3 {
        let started = Instant::now();
        let refused = post_login(addr, "anna", "correct horse").await;
        assert_eq!(
            (refused.status, refused.code()),
            (429, "too_many_attempts".into()),
            "round {round}"
        );
        assert!(
            started.elapsed() < Duration::from_millis(500),
            "answered, not stalled"
        );
        let wait: u64 = refused
            .header("retry-after")
            .and_then(|s| s.parse().ok())
            .expect("Retry-After seconds");
        delays.push(wait);
        // The server serves everyone else meanwhile.
        assert_eq!(server.http_get("/healthz").await.0, 200);
        tokio::time::sleep(Duration::from_millis(wait * 1000 + 100)).await;
        let wrong = post_login(addr, "anna", "wrong horse").await;
        assert_eq!(wrong.code(), "bad_credentials", "round {round}");
    }
    assert_eq!(delays, [1, 2, 4], "the delay doubles");
    // Another account is not held back by anna's delay...
    let bruno = post_signup(addr, "bruno", "correct horse").await;
    assert_eq!(bruno.status, 201);
    // ...but one address trying many names is: twenty checked (eight were anna's; the refused
    // ones counted nothing), the twentieth starting a delay, then 429 for any name.
    let mut statuses = Vec::new();
    for i in 0..12 {
        let reply = http_post(
            addr,
            "/api/login",
            None,
            &credentials(&format!("nobody{i}"), "guess"),
        )
        .await;
        statuses.push(reply.status);
    }
    assert!(statuses.iter().all(|s| *s == 401), "{statuses:?}");
    let reply = post_login(addr, "bruno", "correct horse").await;
    assert_eq!(
        (reply.status, reply.code()),
        (429, "too_many_attempts".into()),
        "the address is held"
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let reply = post_login(addr, "bruno", "correct horse").await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    server.stop().await;
}

/// The real binary, its output (logs) collected into a buffer.
pub struct Logged {
    child: std::process::Child,
    pub addr: SocketAddr,
    logs: Arc<Mutex<Vec<u8>>>,
}

impl Logged {
    /// Everything it wrote so far.
    pub fn logs(&self) -> Vec<u8> {
        self.logs.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Drop for Logged {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `burraco-server --listen 127.0.0.1:0 <args>` with `env`, once it listens; `Err` with what it
/// said when it stopped instead.
pub fn try_start_binary(args: &[&str], env: &[(&str, &str)]) -> Result<Logged, String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_burraco-server"))
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let logs = Arc::new(Mutex::new(Vec::new()));
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    stdout
        .read_line(&mut line)
        .expect("its first line or its end");
    let Some(addr) = line.trim().strip_prefix("listening on ") else {
        let mut said = line;
        if let Some(mut stderr) = child.stderr.take() {
            let _ = stderr.read_to_string(&mut said);
        }
        let _ = child.wait();
        return Err(said);
    };
    let addr = addr.parse().expect("address");
    let stderr = child.stderr.take().expect("stderr");
    collect(stdout, logs.clone());
    collect(stderr, logs.clone());
    Ok(Logged { child, addr, logs })
}

/// [`try_start_binary`], which must start.
pub fn start_binary(args: &[&str], env: &[(&str, &str)]) -> Logged {
    try_start_binary(args, env).unwrap_or_else(|said| panic!("the server stopped: {said}"))
}

fn start_logged(data: &std::path::Path) -> Logged {
    let data = data.to_string_lossy().into_owned();
    start_binary(&["--data", &data], &[("RUST_LOG", "debug")])
}

/// Appends what `source` says to `logs` until it closes.
fn collect(mut source: impl Read + Send + 'static, logs: Arc<Mutex<Vec<u8>>>) {
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = source.read(&mut buf) {
            if n == 0 {
                break;
            }
            let mut logs = logs.lock().unwrap_or_else(|e| e.into_inner());
            logs.extend_from_slice(&buf[..n]);
        }
    });
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_password_or_token_reaches_the_database_a_log_line_or_metrics() {
    let data = tempfile::tempdir().expect("temp dir");
    let server = start_logged(data.path());
    let addr = server.addr;
    let (password, new_password) = ("Plaintext-Pa55word-one", "Plaintext-Pa55word-two");
    let signup = post_signup(addr, "carla", password).await;
    assert_eq!(signup.status, 201, "{}", signup.body);
    let mut tokens = vec![signup.token()];
    let login = post_login(addr, "carla", password).await;
    tokens.push(login.token());
    let wrong = post_login(addr, "carla", "Plaintext-wrong-guess").await;
    assert_eq!(wrong.code(), "bad_credentials");
    let body = serde_json::json!({"current": password, "new": new_password}).to_string();
    let changed = http_post(addr, "/api/password", Some(&tokens[1]), &body).await;
    assert_eq!(changed.status, 204, "{}", changed.body);
    let login = post_login(addr, "carla", new_password).await;
    tokens.push(login.token());
    assert_eq!(get(addr, "/api/me", &tokens[2]).await.status, 200);
    // A personal token: created, used on the API and on the socket, revoked.
    let cookie = format!("burraco_session={}", tokens[2]);
    let created = http(
        addr,
        "POST",
        "/api/tokens",
        &[("Cookie", &cookie)],
        r#"{"label":"grep me","scopes":["play","read_account"]}"#,
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let personal = created.json()["token"].as_str().expect("token").to_owned();
    let bearer = format!("Bearer {personal}");
    let account = http(
        addr,
        "GET",
        "/api/account",
        &[("Authorization", &bearer)],
        "",
    )
    .await;
    assert_eq!(account.status, 200, "{}", account.body);
    let mut request = format!("ws://{addr}/ws")
        .into_client_request()
        .expect("request");
    request
        .headers_mut()
        .insert("authorization", bearer.parse().expect("header"));
    let (mut ws, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("upgrade with the token");
    let hello = r#"{"type":"hello","version":"1.4","name":"x","resume":null}"#;
    ws.send(tokio_tungstenite::tungstenite::Message::text(hello))
        .await
        .expect("hello");
    let welcome = ws.next().await.expect("a frame").expect("welcome");
    assert!(welcome.to_text().expect("text").contains("welcome"));
    drop(ws);
    let personal_hash = burraco_server::accounts::token_hash(&personal);
    tokens.push(personal);
    let (status, metrics) = crate::common::http_get(addr, "/metrics").await;
    assert_eq!(status, 200);
    assert!(
        metrics.contains("burraco_account_signins_total"),
        "the sign-ins are counted"
    );
    // What the store keeps of a session is the token's SHA-256: it is there, the token is not.
    let hashes: Vec<String> = tokens
        .iter()
        .map(|t| burraco_server::accounts::token_hash(t))
        .collect();

    let mut database = Vec::new();
    for entry in std::fs::read_dir(data.path()).expect("data dir") {
        let path = entry.expect("entry").path();
        database.extend(std::fs::read(&path).expect("read"));
    }
    let logs = server.logs();
    assert!(contains(&logs, "signed in"), "the log is captured");
    assert!(contains(&database, &hashes[2]), "the database file is read");
    assert!(
        contains(&database, &personal_hash),
        "the personal token's hash is stored"
    );
    assert!(contains(&logs, "token used"), "the token's use is logged");
    let secrets = [password, new_password, "Plaintext-wrong-guess"]
        .into_iter()
        .map(str::to_owned)
        .chain(tokens.iter().cloned());
    for secret in secrets {
        assert!(!contains(&database, &secret), "{secret} in the database");
        assert!(!contains(&logs, &secret), "{secret} in a log line");
        assert!(!metrics.contains(&secret), "{secret} in /metrics");
    }
    // Nor what the database keeps of them, at any level.
    for hash in hashes.iter().chain([&personal_hash]) {
        assert!(!contains(&logs, hash), "{hash} in a log line");
    }
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sign_in_storm_does_not_stall_the_server() {
    // Behind a proxy, so that the storm comes from four addresses (one address has 20
    // sign-ins in flight at most, an account 5).
    let server = TestServer::with(|config| config.trust_forwarded_for = true).await;
    let addr = server.addr;
    let from = |i: usize| format!("198.51.100.{}", i % 8);
    for i in 0..8 {
        let made = http(
            addr,
            "POST",
            "/api/signup",
            &[("X-Forwarded-For", &from(i))],
            &credentials(&format!("storm{i}"), "correct horse"),
        )
        .await;
        assert_eq!(made.status, 201, "{}", made.body);
    }
    // 40 sign-ins at once, each an Argon2id check of 19 MiB: they queue for the cores on the
    // blocking pool while the runtime answers everyone else.
    let storm: Vec<_> = (0..40)
        .map(|i| {
            let name = format!("storm{}", i % 8);
            let address = format!("203.0.113.{}", i % 4);
            tokio::spawn(async move {
                http(
                    addr,
                    "POST",
                    "/api/login",
                    &[("X-Forwarded-For", &address)],
                    &credentials(&name, "correct horse"),
                )
                .await
                .status
            })
        })
        .collect();
    let mut slowest = Duration::ZERO;
    let mut guest = server.client("Bruno").await;
    for _ in 0..20 {
        let started = Instant::now();
        assert_eq!(server.http_get("/healthz").await.0, 200);
        guest.barrier().await;
        slowest = slowest.max(started.elapsed());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for sign_in in storm {
        assert_eq!(sign_in.await.expect("task"), 200);
    }
    assert!(
        slowest < Duration::from_millis(500),
        "a health check and a WebSocket round trip took {slowest:?} during the storm"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_runs_on_postgres_given_a_database_url() {
    let postgres = super::Postgres::start();
    let url = postgres.url();
    let server = TestServer::with(|config| config.database_url = Some(url.clone())).await;
    let addr = server.addr;
    let signup = post_signup(addr, "Dario", "correct horse").await;
    assert_eq!(signup.status, 201, "{}", signup.body);
    let token = signup.token();
    assert_eq!(
        get(addr, "/api/me", &token).await.json()["username"],
        "Dario"
    );
    assert_eq!(
        post_signup(addr, "DARIO", "correct horse").await.code(),
        "name_taken"
    );
    server.stop().await;
    // A second server on the same database (another node, or a restart) knows the account
    // and the session; the session's end is seen by both.
    let other = TestServer::with(|config| config.database_url = Some(url.clone())).await;
    assert_eq!(get(other.addr, "/api/me", &token).await.status, 200);
    let out = http_post(other.addr, "/api/logout", Some(&token), "").await;
    assert_eq!(out.status, 204);
    assert_eq!(
        get(other.addr, "/api/me", &token).await.code(),
        "not_signed_in"
    );
    let login = http_post(
        other.addr,
        "/api/login",
        None,
        &credentials("dario", "correct horse"),
    )
    .await;
    assert_eq!(login.status, 200, "{}", login.body);
    other.stop().await;
}

/// Every store of a node (accounts, ratings, seasons, the players' index, fair play,
/// moderation) shares its one pool: however many stores are asked at once, the node holds
/// `--database-pool` connections at most.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_holds_one_pool_of_database_connections_for_every_store() {
    const POOL: usize = 2;
    let postgres = super::Postgres::start();
    let url = postgres.url();
    let server = TestServer::with(|config| {
        config.database_url = Some(url.clone());
        config.database_pool = POOL;
    })
    .await;
    let addr = server.addr;
    let signup = post_signup(addr, "Dario", "correct horse").await;
    assert_eq!(signup.status, 201, "{}", signup.body);
    let token = signup.token();
    let paths = [
        "/api/me",
        "/api/leaderboards/two",
        "/api/seasons",
        "/api/players/dario",
    ];
    let asked = (0..24).map(|i| {
        let token = token.clone();
        tokio::spawn(async move { get(addr, paths[i % paths.len()], &token).await.status })
    });
    for status in futures_util::future::join_all(asked).await {
        assert_eq!(status.expect("task"), 200);
    }
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .expect("the test's own connection");
    tokio::spawn(connection);
    let held: i64 = client
        .query_one(
            "SELECT COUNT(*) FROM pg_stat_activity
             WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
            &[],
        )
        .await
        .expect("pg_stat_activity")
        .get(0);
    assert!(
        (1..=POOL as i64).contains(&held),
        "the node holds {held} connections, its pool {POOL}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_without_a_database_url_has_no_accounts_and_guests_play() {
    let nats = crate::cluster::Nats::start(1);
    let cluster = burraco_server::config::ClusterConfig::new(vec![nats.urls()], "n1".into());
    let server = TestServer::with(|config| config.cluster = Some(cluster)).await;
    let addr = server.addr;
    let signup = post_signup(addr, "anna", "correct horse").await;
    assert_eq!(
        (signup.status, signup.code()),
        (503, "accounts_unavailable".into())
    );
    let login = post_login(addr, "anna", "correct horse").await;
    assert_eq!(login.code(), "accounts_unavailable");
    assert_eq!(
        get(addr, "/api/me", &"a".repeat(64)).await.code(),
        "accounts_unavailable"
    );
    let mut guest = server.client("anna").await;
    guest.barrier().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_creating_accounts_in_a_loop_gets_429() {
    let server = TestServer::start().await;
    let addr = server.addr;
    // Five free, the fifth starting a delay...
    for i in 0..5 {
        let reply = http_post(
            addr,
            "/api/signup",
            None,
            &credentials(&format!("player{i}"), "correct horse"),
        )
        .await;
        assert_eq!(reply.status, 201, "{i}: {}", reply.body);
    }
    let refused = post_signup(addr, "player6", "correct horse").await;
    assert_eq!(
        (refused.status, refused.code()),
        (429, "too_many_signups".into())
    );
    assert_eq!(refused.header("retry-after"), Some("1"));
    // ...which the accounts already made do not feel.
    let login = post_login(addr, "player0", "correct horse").await;
    assert_eq!(login.status, 200, "{}", login.body);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let later = post_signup(addr, "player6", "correct horse").await;
    assert_eq!(later.status, 201, "{}", later.body);
    server.stop().await;
}
