//! Bots at a real server (started in-process on 127.0.0.1:0): four bots play a whole match by
//! quick play (readying between hands), a bot whose connection drops resumes its seat, a private
//! table is joined by invite.

use std::time::Duration;

use burraco_bot::client::{self, ClientOptions, ClientReport};
use burraco_bot::session::StrategyFactory;
use burraco_bot::{Level, SearchBudget, SeatRequest, Session};
use burraco_protocol::wire::WireSettings;

use crate::common::TestServer;

/// A next-hand delay no test waits out: only the players' readies deal the next hand.
const HOUR: Duration = Duration::from_secs(3600);

fn factory(level: Level, seed: u64) -> StrategyFactory {
    Box::new(move || {
        level.strategy(
            seed,
            SearchBudget {
                worlds: 2,
                max_time: None,
                horizon: 4,
            },
        )
    })
}

async fn play(
    url: String,
    name: &str,
    request: SeatRequest,
    level: Level,
    drop_after: Option<u64>,
) -> ClientReport {
    let mut session = Session::new(name, request, 1, factory(level, name.len() as u64), 7);
    let mut options = ClientOptions::new(url);
    options.deadline = Duration::from_secs(50);
    options.drop_after_actions = drop_after;
    client::run(&mut session, &options)
        .await
        .unwrap_or_else(|e| panic!("{name}: {e} ({session:?})"))
}

fn one_hand(preset: &str) -> WireSettings {
    WireSettings {
        preset: preset.into(),
        players: Some(4),
        hands: Some(1),
        ..WireSettings::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_bots_play_a_match_by_quick_play() {
    // The next hand waits for every player's ready, or an hour: the bots ready between hands.
    let server = TestServer::start(|c| c.next_hand_delay = HOUR).await;
    let quick = || SeatRequest::QuickPlay {
        preset: "fitab".into(),
        players: 4,
    };
    let levels = [Level::Expert, Level::Greedy, Level::Search, Level::Random];
    let tasks: Vec<_> = levels
        .iter()
        .enumerate()
        .map(|(i, &level)| {
            tokio::spawn(play(
                server.url(),
                ["ann", "bob", "cid", "dan"][i],
                quick(),
                level,
                None,
            ))
        })
        .collect();
    for t in tasks {
        let report = t.await.unwrap();
        assert_eq!(report.session.matches, 1);
        assert!(report.session.hands >= 1);
        assert_eq!(report.session.illegal, 0, "{report:?}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_bot_resumes_and_a_private_table_fills_by_invite() {
    let server = TestServer::start(|_| {}).await;
    let url = server.url();
    // The creator learns the invite code from its session: create first, then let the others join.
    let mut creator = Session::new(
        "host",
        SeatRequest::Create {
            settings: one_hand("feburit"),
            private: true,
        },
        1,
        factory(Level::Expert, 1),
        1,
    );
    let (tx, mut rx) = tokio::sync::watch::channel(None);
    let mut options = ClientOptions::new(url.clone());
    options.deadline = Duration::from_secs(50);
    // Early: a one-hand match can close before the host's third turn (a CI run saw 4 actions).
    options.drop_after_actions = Some(2);
    options.invite = Some(tx);
    let host = tokio::spawn(async move {
        let r = client::run(&mut creator, &options).await;
        (r, creator)
    });
    let code = rx.wait_for(Option::is_some).await.unwrap().clone().unwrap();
    let guests: Vec<_> = ["g1", "g2", "g3"]
        .iter()
        .map(|n| {
            tokio::spawn(play(
                url.clone(),
                n,
                SeatRequest::Invite { code: code.clone() },
                Level::Greedy,
                None,
            ))
        })
        .collect();
    for g in guests {
        assert_eq!(g.await.unwrap().session.matches, 1);
    }
    let (report, _session) = host.await.unwrap();
    let report = report.unwrap();
    assert_eq!(report.session.matches, 1);
    assert!(report.reconnects >= 1, "{report:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_example_plays_a_match_with_three_rust_bots_resuming_once() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/python/protocol_only_bot.py"
    );
    // The second-language bot is a deliverable (docs/BOTS.md): without python3 this must fail, not pass.
    assert!(
        std::process::Command::new("python3")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success()),
        "python3 is needed to run the Python example bot (examples/python/protocol_only_bot.py)"
    );
    // Three hands, each waiting for every player's ready (or an hour): Python readies too.
    let server = TestServer::start(|c| c.next_hand_delay = HOUR).await;
    let quick = || SeatRequest::QuickPlay {
        preset: "feburit".into(),
        players: 4,
    };
    let python = tokio::process::Command::new("python3")
        .args([
            script,
            "--url",
            &server.url(),
            "--name",
            "py",
            "--preset",
            "feburit",
            // Cut its connection once mid-match: it must resume with its token and sync.
            "--drop-after",
            "3",
        ])
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("python3 runs");
    let bots: Vec<_> = ["r1", "r2", "r3"]
        .iter()
        .map(|n| tokio::spawn(play(server.url(), n, quick(), Level::Greedy, None)))
        .collect();
    for b in bots {
        assert_eq!(b.await.unwrap().session.matches, 1);
    }
    let output = tokio::time::timeout(Duration::from_secs(30), python.wait_with_output())
        .await
        .expect("python finishes")
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("connection lost: resuming"),
        "it did cut its connection and resume: {stderr}"
    );
    server.stop().await;
}

/// One HTTP/1.1 request on the raw socket (`Connection: close`): the status line and the rest.
async fn http(addr: std::net::SocketAddr, head: &str, body: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let request = format!(
        "{head}\r\nHost: test\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = String::new();
    stream.read_to_string(&mut response).await.expect("read");
    response
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_with_a_personal_token_plays_as_its_account() {
    let server = TestServer::start(|c| c.next_hand_delay = HOUR).await;
    let (cookie, token) = bot_account(server.addr, "RoboTok", r#"["play","create_tables"]"#).await;
    // Head to head, one hand: the token's bot opens a private table, a guest joins by invite.
    let settings = WireSettings {
        players: Some(2),
        ..one_hand("fitab")
    };
    let mut with_token = Session::new(
        "ignored",
        SeatRequest::Create {
            settings,
            private: true,
        },
        1,
        factory(Level::Greedy, 3),
        3,
    );
    let (tx, mut rx) = tokio::sync::watch::channel(None);
    let mut options = ClientOptions::new(server.url());
    options.deadline = Duration::from_secs(50);
    options.token = Some(token);
    options.invite = Some(tx);
    let host = tokio::spawn(async move {
        let report = client::run(&mut with_token, &options).await;
        (report, with_token)
    });
    let Ok(code) = rx
        .wait_for(Option::is_some)
        .await
        .map(|c| c.clone().unwrap())
    else {
        let (report, session) = host.await.expect("the token's bot");
        panic!("no invite code: {report:?} ({session:?})");
    };
    let guest = play(
        server.url(),
        "guest",
        SeatRequest::Invite { code },
        Level::Greedy,
        None,
    )
    .await;
    assert_eq!(guest.session.matches, 1);
    let (report, session) = host.await.expect("the token's bot");
    let report = report.unwrap_or_else(|e| panic!("{e} ({session:?})"));
    assert_eq!(report.session.matches, 1);
    // The server knew it as the account: the token's use is recorded.
    let listed = http(
        server.addr,
        &format!("GET /api/tokens HTTP/1.1\r\nCookie: {cookie}"),
        "",
    )
    .await;
    assert!(
        listed.contains("\"last_address\":\"127.0.0.1\""),
        "{listed}"
    );
    server.stop().await;
}

/// Signs up `name`, makes it a bot account and gives it a token with `scopes`: its session
/// cookie and the token.
async fn bot_account(addr: std::net::SocketAddr, name: &str, scopes: &str) -> (String, String) {
    let signup = http(
        addr,
        "POST /api/signup HTTP/1.1",
        &format!(r#"{{"username":"{name}","password":"correct horse"}}"#),
    )
    .await;
    assert!(signup.starts_with("HTTP/1.1 201"), "{signup}");
    let cookie = signup
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .and_then(|c| c.split(';').next())
        .expect("the session cookie")
        .to_owned();
    let bot = http(
        addr,
        &format!("POST /api/account/bot HTTP/1.1\r\nCookie: {cookie}"),
        "",
    )
    .await;
    assert!(bot.starts_with("HTTP/1.1 200"), "{bot}");
    let created = http(
        addr,
        &format!("POST /api/tokens HTTP/1.1\r\nCookie: {cookie}"),
        &format!(r#"{{"scopes":{scopes}}}"#),
    )
    .await;
    assert!(created.starts_with("HTTP/1.1 201"), "{created}");
    let token = created
        .split("\"token\":\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the token")
        .to_owned();
    (cookie, token)
}

/// The pace the client keeps is the server's documented limits (issue 32): a connection's
/// default bucket and a personal token's shared one. A change at the server must change it.
#[test]
fn the_clients_pace_starts_from_the_servers_limits() {
    use burraco_bot::pace;
    use burraco_server::accounts::live;
    let config = burraco_server::ServerConfig::default();
    assert_eq!(
        f64::from(config.rate_per_sec),
        pace::CONNECTION_RATE_PER_SEC
    );
    assert_eq!(f64::from(config.rate_burst), pace::CONNECTION_BURST);
    assert_eq!(live::RATE_PER_SEC, pace::TOKEN_RATE_PER_SEC);
    assert_eq!(live::BURST, pace::TOKEN_BURST);
}

/// A bot account's bot against a guest's, head to head on the federation's move clocks, at a
/// server whose connections may send 12 requests a second in bursts of 12 (an eighth of
/// the default): the bots are refused `rate_limited` and slow down; no move counts as refused and no
/// move clock runs out (before issue 32 the refusals climbed the ladder to its pause, and the
/// clock ran out on a connected bot).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_held_to_a_tight_rate_never_lets_its_move_clock_run_out() {
    let server = TestServer::start(|c| {
        c.next_hand_delay = HOUR;
        c.rate_per_sec = 12;
        c.rate_burst = 12;
    })
    .await;
    let (_, token) = bot_account(server.addr, "RoboPace", r#"["play","create_tables"]"#).await;
    let settings = WireSettings {
        players: Some(2),
        clocks: Some("federation".into()),
        ..one_hand("fitab")
    };
    let mut host = Session::new(
        "ignored",
        SeatRequest::Create {
            settings,
            private: true,
        },
        1,
        factory(Level::Expert, 5),
        5,
    );
    let (tx, mut rx) = tokio::sync::watch::channel(None);
    let mut options = ClientOptions::new(server.url());
    options.deadline = Duration::from_secs(120);
    options.token = Some(token);
    options.invite = Some(tx);
    let hosting = tokio::spawn(async move {
        let report = client::run(&mut host, &options).await;
        (report, host)
    });
    let code = rx.wait_for(Option::is_some).await.unwrap().clone().unwrap();
    let mut guest = Session::new(
        "paced",
        SeatRequest::Invite { code },
        1,
        factory(Level::Expert, 6),
        6,
    );
    let mut options = ClientOptions::new(server.url());
    options.deadline = Duration::from_secs(120);
    let guest_report = client::run(&mut guest, &options)
        .await
        .unwrap_or_else(|e| panic!("the guest: {e} ({guest:?})"));
    let (report, host) = hosting.await.expect("the token's bot");
    let report = report.unwrap_or_else(|e| panic!("the token's bot: {e} ({host:?})"));
    for (who, report) in [("token", report), ("guest", guest_report)] {
        let s = report.session;
        assert_eq!(s.matches, 1, "{who}: {report:?}");
        assert_eq!(s.refused, 0, "{who}: no move counts as refused: {report:?}");
    }
    let limited = report.session.rate_limited + guest_report.session.rate_limited;
    assert!(
        limited > 0,
        "the limit was reached, or this test tests nothing"
    );
    let hands = http(server.addr, "GET /api/players/paced/hands HTTP/1.1", "").await;
    assert!(hands.starts_with("HTTP/1.1 200"), "{hands}");
    assert!(hands.contains("inputs"), "the hand's record: {hands}");
    assert!(
        !hands.contains("clock_expired"),
        "a move clock ran out: {hands}"
    );
    server.stop().await;
}
