//! The accounts' limits under a burst, on the raw socket: 200 sign-ins for one account sent at
//! once are 5 checked (401) and the rest held back (429), the right password too; 200 sign-ins
//! naming 200 names from one address are 20 checked; 40 sign-ups at once from one address make
//! 5 accounts; 70 token creations at once leave 50 live tokens. The same on SQLite and on
//! PostgreSQL, and with two servers sharing one PostgreSQL database (the counts are the
//! database's, not each node's).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::Duration;

use serde_json::json;

use super::http::{Reply, http, http_post};
use crate::common::TestServer;

/// The first delay, longer than any burst here takes: the counts are asserted while it runs
/// (after it, one more attempt is let through, as the doubling delays say).
const FIRST_DELAY: Duration = Duration::from_secs(120);

async fn server(database_url: Option<&str>) -> TestServer {
    let url = database_url.map(str::to_owned);
    TestServer::with(move |config| {
        config.database_url = url;
        config.login_backoff = FIRST_DELAY;
    })
    .await
}

fn credentials(username: &str, password: &str) -> String {
    json!({"username": username, "password": password}).to_string()
}

/// `count` requests sent at once, each on its own connection: `send(i)` makes the i-th, to
/// `addrs[i % addrs.len()]`.
async fn at_once<F, Fut>(count: usize, addrs: &[SocketAddr], send: F) -> Vec<Reply>
where
    F: Fn(SocketAddr, usize) -> Fut,
    Fut: Future<Output = Reply> + Send + 'static,
{
    let tasks: Vec<_> = (0..count)
        .map(|i| tokio::spawn(send(addrs[i % addrs.len()], i)))
        .collect();
    let mut replies = Vec::with_capacity(count);
    for task in tasks {
        replies.push(task.await.expect("a request task"));
    }
    replies
}

/// How many replies had each status and code.
fn tally(replies: &[Reply]) -> BTreeMap<(u16, String), usize> {
    let mut counts = BTreeMap::new();
    for reply in replies {
        let code = if reply.body.starts_with('{') {
            reply.json()["code"].as_str().unwrap_or("").to_owned()
        } else {
            String::new()
        };
        *counts.entry((reply.status, code)).or_insert(0) += 1;
    }
    counts
}

fn count(tally: &BTreeMap<(u16, String), usize>, status: u16, code: &str) -> usize {
    tally.get(&(status, code.to_owned())).copied().unwrap_or(0)
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

async fn login(addr: SocketAddr, name: String, password: &'static str) -> Reply {
    http_post(addr, "/api/login", None, &credentials(&name, password)).await
}

/// The sign-in limits of docs/ACCOUNTS.md under bursts, through `addrs` (one server, or several
/// sharing a store).
/// `name` is an account whose password is "correct horse", with no wrong one yet.
async fn sign_in_bursts(addrs: &[SocketAddr], name: &str) {
    // 200 wrong passwords for one account at once: 5 checked, the rest held back at once.
    let replies = at_once(200, addrs, |addr, _| {
        login(addr, name.to_owned(), "wrong horse")
    })
    .await;
    let counts = tally(&replies);
    assert_eq!(count(&counts, 401, "bad_credentials"), 5, "{counts:?}");
    assert_eq!(count(&counts, 429, "too_many_attempts"), 195, "{counts:?}");
    // The right password waits as well, on every node.
    for addr in addrs {
        let right = login(*addr, name.into(), "correct horse").await;
        assert_eq!(
            (right.status, right.code()),
            (429, "too_many_attempts".into()),
            "{addr}"
        );
        assert!(right.header("retry-after").is_some());
    }
    // One address naming 200 names at once: 20 checked in all (5 were the burst's; the right
    // password's refusals checked nothing), the rest held back.
    let replies = at_once(200, addrs, |addr, i| {
        login(addr, format!("nobody{i}"), "guess guess")
    })
    .await;
    let counts = tally(&replies);
    assert_eq!(count(&counts, 401, "bad_credentials"), 15, "{counts:?}");
    assert_eq!(count(&counts, 429, "too_many_attempts"), 185, "{counts:?}");
}

/// 40 sign-ups from one address at once through `addrs`: 5 accounts; their names and sessions.
async fn sign_up_burst(addrs: &[SocketAddr]) -> Vec<(String, String)> {
    let replies = at_once(40, addrs, |addr, i| async move {
        http_post(
            addr,
            "/api/signup",
            None,
            &credentials(&format!("player{i}"), "correct horse"),
        )
        .await
    })
    .await;
    let counts = tally(&replies);
    assert_eq!(count(&counts, 201, ""), 5, "{counts:?}");
    assert_eq!(count(&counts, 429, "too_many_signups"), 35, "{counts:?}");
    replies
        .iter()
        .filter(|r| r.status == 201)
        .map(|r| {
            let name = r.json()["username"].as_str().expect("a name").to_owned();
            (name, r.token())
        })
        .collect()
}

/// 70 token creations at once for one account through `addrs`: 50 live tokens, never more.
async fn token_burst(addrs: &[SocketAddr], session: &str) {
    let cookie = format!("burraco_session={session}");
    let replies = at_once(70, addrs, |addr, i| {
        let cookie = cookie.clone();
        async move {
            let body = json!({"label": format!("bot {i}"), "scopes": ["play"]}).to_string();
            http(addr, "POST", "/api/tokens", &[("Cookie", &cookie)], &body).await
        }
    })
    .await;
    let counts = tally(&replies);
    assert_eq!(count(&counts, 201, ""), 50, "{counts:?}");
    assert_eq!(
        count(&counts, 400, "invalid_token_settings"),
        20,
        "{counts:?}"
    );
    for addr in addrs {
        let listed = http(*addr, "GET", "/api/tokens", &[("Cookie", &cookie)], "").await;
        assert_eq!(listed.status, 200, "{}", listed.body);
        assert_eq!(listed.json().as_array().map(Vec::len), Some(50), "{addr}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bursts_meet_the_documented_limits_exactly_on_sqlite() {
    let server = server(None).await;
    let addrs = [server.addr];
    let session = sign_up(server.addr, "Anna").await.token();
    token_burst(&addrs, &session).await;
    sign_in_bursts(&addrs, "anna").await;
    server.stop().await;
    // Sign-ups from a fresh address count (a new server: its own database).
    let fresh = self::server(None).await;
    sign_up_burst(&[fresh.addr]).await;
    fresh.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bursts_meet_the_documented_limits_exactly_on_postgres() {
    let postgres = super::Postgres::start();
    let server = server(Some(&postgres.url())).await;
    let addrs = [server.addr];
    let session = sign_up(server.addr, "Anna").await.token();
    token_burst(&addrs, &session).await;
    sign_in_bursts(&addrs, "anna").await;
    server.stop().await;
}

/// Two nodes on one database count together: a burst split between them meets the limits of
/// one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_database_share_the_limits() {
    let postgres = super::Postgres::start();
    let a = server(Some(&postgres.url())).await;
    let b = server(Some(&postgres.url())).await;
    let addrs = [a.addr, b.addr];
    let made = sign_up_burst(&addrs).await;
    let (name, session) = &made[0];
    token_burst(&addrs, session).await;
    sign_in_bursts(&addrs, name).await;
    a.stop().await;
    b.stop().await;
}
