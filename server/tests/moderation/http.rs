//! Reports and moderation on the raw socket: a chat line reported, in the moderators' queue
//! with the server's own context (and the filter's report beside it), a
//! mute refusing the account's chat with `muted` until unmuted; a flood of reports limited;
//! actions on unknown accounts and by non-moderators refused with their codes; a disable (a
//! moderator's, and the operator's command) and a time-out closing a cookie-signed-in
//! connection within a second; a guest reported as a player kept with its player id, on the
//! table's node and through another, so the mute answering the report mutes that guest.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use burraco_protocol::codec;
use burraco_protocol::wire::{ClientMessage, ServerMessage};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::accounts::http::{Reply, http, http_post};
use crate::common::TestServer;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub(crate) async fn sign_up(addr: SocketAddr, name: &str) -> (String, String) {
    let body = json!({"username": name, "password": "correct horse"}).to_string();
    let reply = http_post(addr, "/api/signup", None, &body).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    let id = reply.json()["id"].as_str().expect("id").to_owned();
    (reply.token(), id)
}

pub(crate) async fn get(addr: SocketAddr, path: &str, session: &str) -> Reply {
    let cookie = format!("burraco_session={session}");
    http(addr, "GET", path, &[("Cookie", &cookie)], "").await
}

pub(crate) async fn post(addr: SocketAddr, path: &str, session: &str, body: Value) -> Reply {
    http_post(addr, path, Some(session), &body.to_string()).await
}

/// `burraco-server --data <dir> admin <args>`, beside the running server.
pub(crate) fn admin(server: &TestServer, args: &[&str]) {
    let data = server.dir.path().to_string_lossy().into_owned();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_burraco-server"))
        .args(["--data", &data, "admin"])
        .args(args)
        .output()
        .expect("the server binary runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A WebSocket signed in with `session`'s cookie from the server's own page, past its
/// welcome and identity.
async fn connect(addr: SocketAddr, session: &str) -> Ws {
    let mut ws = open(addr, session).await;
    assert!(matches!(
        read(&mut ws).await,
        Ok(ServerMessage::Welcome { .. })
    ));
    let identity = read(&mut ws).await;
    assert!(
        matches!(&identity, Ok(ServerMessage::Identity { kind, .. }) if kind == "player"),
        "{identity:?}"
    );
    ws
}

/// A WebSocket signed in with `session`'s cookie, its hello said and nothing read.
async fn open(addr: SocketAddr, session: &str) -> Ws {
    let mut request = format!("ws://{addr}/ws")
        .into_client_request()
        .expect("request");
    let headers = request.headers_mut();
    headers.insert(
        "Cookie",
        format!("burraco_session={session}")
            .parse()
            .expect("cookie"),
    );
    headers.insert("Origin", format!("http://{addr}").parse().expect("origin"));
    let (mut ws, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("upgrade");
    send(
        &mut ws,
        &ClientMessage::Hello {
            version: "1.4".into(),
            name: "ignored".into(),
            resume: None,
        },
    )
    .await;
    ws
}

async fn send(ws: &mut Ws, message: &ClientMessage) {
    ws.send(Message::text(codec::to_json(message)))
        .await
        .expect("send");
}

/// The next message; `Err(close code)` once the server closed.
async fn read(ws: &mut Ws) -> Result<ServerMessage, Option<u16>> {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a frame in time");
        match frame {
            Some(Ok(Message::Text(text))) => {
                return Ok(codec::from_json(text.as_str(), usize::MAX)
                    .result
                    .expect("a server message"));
            }
            Some(Ok(Message::Close(frame))) => return Err(frame.map(|f| u16::from(f.code))),
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return Err(None),
        }
    }
}

/// The reply to `message` (events before it skipped, but chat lines noted).
async fn request(ws: &mut Ws, message: ClientMessage) -> ServerMessage {
    let id = message.id();
    send(ws, &message).await;
    loop {
        let reply = read(ws).await.expect("a reply");
        let reply_id = match &reply {
            ServerMessage::Error { id, .. } => *id,
            ServerMessage::TableCreated { id, .. }
            | ServerMessage::Seated { id, .. }
            | ServerMessage::Pong { id }
            | ServerMessage::Ok { id } => Some(*id),
            _ => None,
        };
        if reply_id == id {
            return reply;
        }
    }
}

fn chat(id: u64, table: &str, text: &str) -> ClientMessage {
    ClientMessage::Chat {
        id,
        table: table.into(),
        text: Some(text.into()),
        phrase: None,
    }
}

/// The next `chat_message` this socket hears: its seq and text.
async fn heard(ws: &mut Ws) -> (u64, String) {
    loop {
        if let ServerMessage::ChatMessage { seq, text, .. } = read(ws).await.expect("a message") {
            return (seq, text);
        }
    }
}

/// The close code the server sends within `limit`.
async fn closed_within(ws: &mut Ws, limit: Duration) -> Option<u16> {
    tokio::time::timeout(limit, async {
        loop {
            if let Err(code) = read(ws).await {
                return code;
            }
        }
    })
    .await
    .expect("closed in time")
}

/// Rocco and Paola at one table (Rocco's, head to head, not started): its id.
async fn seat_two(rocco: &mut Ws, paola: &mut Ws) -> String {
    let settings: burraco_protocol::wire::WireSettings = serde_json::from_value(
        json!({"preset": "fitab", "players": 2, "hands": 1, "target": null,
            "clocks": "off", "semipulito": null, "close_requires_pulito": null}),
    )
    .expect("settings");
    let created = request(
        rocco,
        ClientMessage::CreateTable {
            id: 1,
            settings,
            private: false,
            bots: None,
        },
    )
    .await;
    let ServerMessage::TableCreated { table, .. } = created else {
        panic!("expected table_created, got {created:?}");
    };
    let joined = request(
        paola,
        ClientMessage::Join {
            id: 1,
            table: Some(table.clone()),
            invite: None,
            seat: None,
        },
    )
    .await;
    assert!(matches!(joined, ServerMessage::Seated { .. }), "{joined:?}");
    table
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reported_line_reaches_the_queue_and_a_mute_refuses_chat_until_unmuted() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let (moira, _) = sign_up(addr, "Moira").await;
    let (rocco_session, rocco_id) = sign_up(addr, "Rocco").await;
    let (paola_session, paola_id) = sign_up(addr, "Paola").await;
    admin(&server, &["grant-moderator", "moira"]);
    let mut rocco = connect(addr, &rocco_session).await;
    let mut paola = connect(addr, &paola_session).await;
    let table = seat_two(&mut rocco, &mut paola).await;

    // Rocco says something; Paola reports the line by its number.
    let said = request(&mut rocco, chat(2, &table, "you are an idiot")).await;
    assert!(matches!(said, ServerMessage::Ok { .. }), "{said:?}");
    let (seq, text) = heard(&mut paola).await;
    assert_eq!(text, "you are an idiot", "the filter delivers the line");
    let reported = post(
        addr,
        "/api/reports",
        &paola_session,
        json!({"kind": "chat", "table": table, "seq": seq, "reason": "abuse", "note": "rude"}),
    )
    .await;
    assert_eq!(reported.status, 201, "{}", reported.body);
    let report_id = reported.json()["id"].as_str().expect("id").to_owned();
    // A line the table never published is no line to report.
    let unknown = post(
        addr,
        "/api/reports",
        &paola_session,
        json!({"kind": "chat", "table": table, "seq": seq + 100, "reason": "abuse"}),
    )
    .await;
    assert_eq!(
        (unknown.status, unknown.code()),
        (404, "unknown_line".into())
    );

    // The queue is the moderators' only.
    let refused = get(addr, "/api/moderation/reports", &paola_session).await;
    assert_eq!(
        (refused.status, refused.code()),
        (403, "not_moderator".into())
    );
    let anonymous = http(addr, "GET", "/api/moderation/reports", &[], "").await;
    assert_eq!(
        (anonymous.status, anonymous.code()),
        (401, "not_signed_in".into())
    );
    // The automatic reports are filed in the background: wait for them.
    let deadline = Instant::now() + Duration::from_secs(5);
    let reports = loop {
        let queue = get(addr, "/api/moderation/reports", &moira).await;
        assert_eq!(queue.status, 200, "{}", queue.body);
        let reports = queue.json()["reports"].as_array().expect("reports").clone();
        let kinds: Vec<&str> = reports.iter().filter_map(|r| r["kind"].as_str()).collect();
        if kinds.contains(&"chat_filter") {
            break reports;
        }
        assert!(Instant::now() < deadline, "automatic reports: {kinds:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let report = reports
        .iter()
        .find(|r| r["id"] == report_id.as_str())
        .expect("in the queue");
    assert_eq!(report["kind"], "chat");
    assert_eq!(report["reporter"], paola_id.as_str());
    assert_eq!(report["subject"], rocco_id.as_str());
    assert_eq!(report["subject_name"], "Rocco");
    assert_eq!(report["reason"], "abuse");
    assert_eq!(report["note"], "rude");
    let context = &report["context"];
    assert_eq!(context["table"], table.as_str());
    assert_eq!(context["status"], "waiting");
    assert_eq!(context["line"]["text"], "you are an idiot");
    assert_eq!(context["line"]["account"], rocco_id.as_str());
    assert_eq!(context["line"]["seq"], seq);
    assert_eq!(context["chat"].as_array().expect("chat").len(), 1);
    assert_eq!(context["seats"].as_array().expect("seats").len(), 2);
    let filtered = reports
        .iter()
        .find(|r| r["kind"] == "chat_filter")
        .expect("the filter's report");
    assert_eq!(filtered["reporter"], Value::Null);
    assert_eq!(filtered["subject"], rocco_id.as_str());
    assert_eq!(filtered["context"]["detail"], "the filter's word: idiot");
    // Two accounts of one address at an unrated table are not reported (a rated table's are:
    // `table::two_accounts_from_one_address_at_a_rated_table_are_shown_to_it_and_reported`).
    assert!(!reports.iter().any(|r| r["kind"] == "same_address"));

    // Muted for ten minutes, answering the report: Rocco's chat is refused, saying until when.
    let started =
        json!({"action": "mute", "report": report_id, "reason": "insults", "minutes": 10});
    let muted = post(addr, "/api/moderation/actions", &moira, started).await;
    assert_eq!(muted.status, 200, "{}", muted.body);
    let until = muted.json()["action"]["until_ms"].as_i64().expect("until");
    let refused = request(&mut rocco, chat(3, &table, "hello again")).await;
    let ServerMessage::Error { code, message, .. } = &refused else {
        panic!("expected an error, got {refused:?}");
    };
    assert_eq!(code, "muted");
    assert!(
        message.contains(&until.to_string()),
        "{message} names {until}"
    );
    let phrase = request(
        &mut rocco,
        ClientMessage::Chat {
            id: 4,
            table: table.clone(),
            text: None,
            phrase: Some("thanks".into()),
        },
    )
    .await;
    assert!(
        matches!(&phrase, ServerMessage::Error { code, .. } if code == "muted"),
        "{phrase:?}"
    );
    let me = get(addr, "/api/moderation/me", &rocco_session).await;
    assert_eq!(me.json()["muted_until_ms"], until);
    // The report left the queue; the action is in Rocco's audit log.
    let queue = get(addr, "/api/moderation/reports", &moira).await;
    assert!(
        !queue.body.contains(&report_id),
        "the answered report is closed"
    );
    let audit = get(addr, "/api/account/audit", &rocco_session).await;
    assert!(audit.body.contains("moderation_muted"), "{}", audit.body);
    let history = get(addr, "/api/moderation/accounts/rocco", &moira).await;
    assert_eq!(history.json()["actions"][0]["kind"], "mute");

    // Unmuted (by name, no report), Rocco speaks again.
    let unmute = json!({"action": "unmute", "account": "Rocco", "reason": "served"});
    let unmuted = post(addr, "/api/moderation/actions", &moira, unmute).await;
    assert_eq!(unmuted.status, 200, "{}", unmuted.body);
    let said = request(&mut rocco, chat(5, &table, "sorry")).await;
    assert!(matches!(said, ServerMessage::Ok { .. }), "{said:?}");
    assert_eq!(
        get(addr, "/api/moderation/me", &rocco_session).await.json()["muted_until_ms"],
        Value::Null
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_reports_from_one_account_is_limited() {
    let server = TestServer::start().await;
    let addr = server.addr;
    sign_up(addr, "Rocco").await;
    let (paola, _) = sign_up(addr, "Paola").await;
    let (anna, _) = sign_up(addr, "Anna").await;
    let body = json!({"kind": "player", "player": "Rocco", "reason": "stalling"});
    for i in 0..burraco_server::moderation::REPORTS_PER_WINDOW {
        let reply = post(addr, "/api/reports", &paola, body.clone()).await;
        assert_eq!(reply.status, 201, "report {i}: {}", reply.body);
    }
    let over = post(addr, "/api/reports", &paola, body.clone()).await;
    assert_eq!((over.status, over.code()), (429, "too_many_reports".into()));
    assert!(over.header("retry-after").is_some());
    // Another reporter is not held back by Paola's flood.
    let other = post(addr, "/api/reports", &anna, body).await;
    assert_eq!(other.status, 201, "{}", other.body);
    // Bad reports are typed refusals.
    for (bad, code) in [
        (
            json!({"kind": "player", "player": "Nobody", "reason": "abuse"}),
            "unknown_player",
        ),
        (
            json!({"kind": "player", "player": "Rocco", "reason": "ugly"}),
            "invalid_report",
        ),
        (
            json!({"kind": "chat", "player": "Rocco", "reason": "abuse"}),
            "invalid_report",
        ),
        (
            json!({"kind": "player", "player": "Anna", "reason": "abuse"}),
            "invalid_report",
        ),
        (
            json!({"kind": "player", "table": "t-0000000000", "player": "Rocco", "reason": "abuse"}),
            "unknown_table",
        ),
        (
            json!({"kind": "player", "player": "Rocco", "reason": "abuse", "extra": 1}),
            "bad_json",
        ),
    ] {
        let reply = post(addr, "/api/reports", &anna, bad.clone()).await;
        assert_eq!(reply.code(), code, "{bad}: {}", reply.body);
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn actions_on_unknown_accounts_and_by_non_moderators_are_refused_with_their_codes() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let (moira, _) = sign_up(addr, "Moira").await;
    let (paola, _) = sign_up(addr, "Paola").await;
    // An administrator is a moderator.
    admin(&server, &["create-admin", "moira"]);
    let cases = [
        (
            json!({"action": "mute", "account": "Nobody", "reason": "x", "minutes": 5}),
            404,
            "unknown_account",
        ),
        (
            json!({"action": "warn", "report": "r-0000000000000000", "reason": "x"}),
            404,
            "unknown_report",
        ),
        (
            json!({"action": "mute", "account": "Paola", "reason": "x"}),
            400,
            "invalid_action",
        ),
        (
            json!({"action": "mute", "account": "Paola", "reason": "x", "minutes": 0}),
            400,
            "invalid_action",
        ),
        (
            json!({"action": "warn", "account": "Paola", "reason": "  "}),
            400,
            "invalid_action",
        ),
        (
            json!({"action": "dismiss", "account": "Paola", "reason": "x"}),
            400,
            "invalid_action",
        ),
        (
            json!({"action": "ban", "account": "Paola", "reason": "x"}),
            400,
            "invalid_action",
        ),
    ];
    for (body, status, code) in cases {
        let reply = post(addr, "/api/moderation/actions", &moira, body.clone()).await;
        assert_eq!(
            (reply.status, reply.code()),
            (status, code.into()),
            "{body}"
        );
    }
    // A player is no moderator: 403, whatever the action names.
    let warn = json!({"action": "warn", "account": "Moira", "reason": "x"});
    let reply = post(addr, "/api/moderation/actions", &paola, warn.clone()).await;
    assert_eq!((reply.status, reply.code()), (403, "not_moderator".into()));
    let reply = get(addr, "/api/moderation/accounts/moira", &paola).await;
    assert_eq!((reply.status, reply.code()), (403, "not_moderator".into()));
    // Granted, then revoked, the role comes and goes.
    admin(&server, &["grant-moderator", "paola"]);
    let reply = post(addr, "/api/moderation/actions", &paola, warn.clone()).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    admin(&server, &["revoke-moderator", "paola"]);
    let reply = post(addr, "/api/moderation/actions", &paola, warn).await;
    assert_eq!(reply.code(), "not_moderator");
    assert_eq!(
        get(addr, "/api/moderation/me", &moira).await.json()["warnings"],
        1
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disable_or_a_time_out_closes_a_cookie_connection_within_a_second() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let (moira, _) = sign_up(addr, "Moira").await;
    let (rocco, _) = sign_up(addr, "Rocco").await;
    let (dora, _) = sign_up(addr, "Dora").await;
    let (tino, _) = sign_up(addr, "Tino").await;
    admin(&server, &["grant-moderator", "moira"]);

    // A moderator's disable: closed at once on this node.
    let mut ws = connect(addr, &rocco).await;
    let started = Instant::now();
    let disable = json!({"action": "disable", "account": "Rocco", "reason": "cheating"});
    let reply = post(addr, "/api/moderation/actions", &moira, disable).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(
        closed_within(&mut ws, Duration::from_secs(2)).await,
        Some(4004)
    );
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    // Its session ended with it.
    assert_eq!(get(addr, "/api/me", &rocco).await.code(), "not_signed_in");

    // The operator's command (another process): the node's recheck closes it.
    let mut ws = connect(addr, &dora).await;
    let data = server.dir.path().to_string_lossy().into_owned();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_burraco-server"))
        .args(["--data", &data, "admin", "disable", "dora"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let ran = Instant::now();
    assert_eq!(
        closed_within(&mut ws, Duration::from_secs(2)).await,
        Some(4004)
    );
    assert!(
        ran.elapsed() < Duration::from_secs(1),
        "{:?}",
        ran.elapsed()
    );

    // A time-out: closed, and a new connection of the account is closed as it comes.
    let mut ws = connect(addr, &tino).await;
    let timeout =
        json!({"action": "timeout", "account": "Tino", "reason": "stalling", "minutes": 5});
    let reply = post(addr, "/api/moderation/actions", &moira, timeout).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(
        closed_within(&mut ws, Duration::from_secs(2)).await,
        Some(4004)
    );
    // (Closed right after its hello: the welcome may or may not be written first.)
    let mut again = open(addr, &tino).await;
    assert_eq!(
        closed_within(&mut again, Duration::from_secs(2)).await,
        Some(4004)
    );
    assert!(get(addr, "/api/moderation/me", &tino).await.json()["timed_out_until_ms"].is_i64());
    // Enabled, Tino plays again.
    let enable = json!({"action": "enable", "account": "Tino", "reason": "served"});
    assert_eq!(
        post(addr, "/api/moderation/actions", &moira, enable)
            .await
            .status,
        200
    );
    let mut back = connect(addr, &tino).await;
    let pong = request(&mut back, ClientMessage::Ping { id: 9 }).await;
    assert!(!matches!(pong, ServerMessage::Error { .. }), "{pong:?}");
    server.stop().await;
}

/// Rocco (an account, by its session) creates a head-to-head table at `addr` and the guest
/// Gianni joins it: both clients (1.7), the guest's player id and the table.
async fn account_and_guest_seated(
    addr: SocketAddr,
    rocco_session: &str,
) -> (crate::common::Client, crate::common::Client, String, String) {
    use super::table::account;
    use crate::common::{Client, settings};

    let mut rocco = account(addr, "Rocco", rocco_session, "1.7").await;
    let (mut gianni, welcome) = Client::connect_saying(addr, "Gianni", None, false, "1.7").await;
    let ServerMessage::Welcome {
        player: gianni_player,
        ..
    } = welcome
    else {
        panic!("welcome: {welcome:?}")
    };
    let created = rocco
        .request(|id| ClientMessage::CreateTable {
            id,
            settings: settings("fitab", 2, Some(1), "off"),
            private: false,
            bots: None,
        })
        .await;
    let ServerMessage::TableCreated { table, .. } = created else {
        panic!("create: {created:?}")
    };
    let t = table.clone();
    let seated = gianni
        .request(|id| ClientMessage::Join {
            id,
            table: Some(t),
            invite: None,
            seat: None,
        })
        .await;
    assert!(matches!(seated, ServerMessage::Seated { .. }), "{seated:?}");
    (rocco, gianni, gianni_player, table)
}

/// A guest reported over HTTP by the name its seat shows: the report keeps the guest's player
/// id (read from the table's seats), so the moderator's mute answering it mutes that guest,
/// whose chat is then refused `muted`; an account reported so names no guest.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_reported_over_http_is_muted_by_the_action_answering_the_report() {
    use super::table::{code, queued};

    let server = TestServer::start().await;
    let addr = server.addr;
    let (moira, _) = sign_up(addr, "Moira").await;
    let (rocco_session, rocco_id) = sign_up(addr, "Rocco").await;
    let (paola, _) = sign_up(addr, "Paola").await;
    admin(&server, &["grant-moderator", "moira"]);
    let (mut rocco, mut gianni, gianni_player, table) =
        account_and_guest_seated(addr, &rocco_session).await;

    // Paola, not at the table, reports both players by the names the table shows.
    let body = json!({"kind": "player", "table": table, "player": "Gianni", "reason": "abuse"});
    let reported = post(addr, "/api/reports", &paola, body).await;
    assert_eq!(reported.status, 201, "{}", reported.body);
    let guest_report = reported.json()["id"].as_str().expect("id").to_owned();
    let body = json!({"kind": "player", "table": table, "player": "Rocco", "reason": "stalling"});
    let reported = post(addr, "/api/reports", &paola, body).await;
    assert_eq!(reported.status, 201, "{}", reported.body);
    let account_report = reported.json()["id"].as_str().expect("id").to_owned();

    let found = queued(addr, &moira, |r| r["id"] == guest_report.as_str()).await;
    assert_eq!(found["subject"], Value::Null, "a guest has no account");
    assert_eq!(found["subject_name"], "Gianni");
    assert_eq!(found["context"]["guest"], gianni_player.as_str());
    let found = queued(addr, &moira, |r| r["id"] == account_report.as_str()).await;
    assert_eq!(found["subject"], rocco_id.as_str());
    assert_eq!(found["context"]["guest"], Value::Null);

    // The mute answering the guest's report names the guest, and its chat is refused.
    let mute =
        json!({"action": "mute", "report": guest_report, "reason": "insults", "minutes": 10});
    let muted = post(addr, "/api/moderation/actions", &moira, mute).await;
    assert_eq!(muted.status, 200, "{}", muted.body);
    assert_eq!(muted.json()["action"]["guest"], gianni_player.as_str());
    assert_eq!(muted.json()["action"]["account"], Value::Null);
    let t = table.clone();
    let refused = gianni
        .request(|id| ClientMessage::Chat {
            id,
            table: t,
            text: Some("hello again".into()),
            phrase: None,
        })
        .await;
    assert_eq!(code(&refused), Some("muted"), "{refused:?}");
    // Rocco, at the same table, still speaks.
    let said = rocco
        .request(|id| ClientMessage::Chat {
            id,
            table,
            text: Some("good evening".into()),
            phrase: None,
        })
        .await;
    assert!(matches!(said, ServerMessage::Ok { .. }), "{said:?}");
    server.stop().await;
}

/// The same through another node than the table's (two nodes sharing a PostgreSQL database):
/// the guest's player id comes from the table's listing, which node-a publishes and node-b reads.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_reported_over_http_through_another_node_is_kept_with_its_player_id() {
    use super::table::{code, queued};

    let postgres = crate::accounts::Postgres::start();
    let url = postgres.url();
    let nats = crate::cluster::Nats::start(1);
    let a = crate::cluster::Node::start_with(&nats, "node-a", &["--database-url", &url]);
    let b = crate::cluster::Node::start_with(&nats, "node-b", &["--database-url", &url]);
    let (moira, _) = sign_up(a.addr, "Moira").await;
    let (rocco_session, _) = sign_up(a.addr, "Rocco").await;
    let (paola, _) = sign_up(a.addr, "Paola").await;
    let granted = std::process::Command::new(env!("CARGO_BIN_EXE_burraco-server"))
        .args(["--database-url", &url, "admin", "grant-moderator", "moira"])
        .output()
        .expect("the server binary runs");
    assert!(granted.status.success(), "{granted:?}");
    let (_rocco, mut gianni, gianni_player, table) =
        account_and_guest_seated(a.addr, &rocco_session).await;

    let body = json!({"kind": "player", "table": table, "player": "Gianni", "reason": "abuse"});
    let reported = post(b.addr, "/api/reports", &paola, body).await;
    assert_eq!(reported.status, 201, "{}", reported.body);
    let guest_report = reported.json()["id"].as_str().expect("id").to_owned();
    let found = queued(b.addr, &moira, |r| r["id"] == guest_report.as_str()).await;
    assert_eq!(found["context"]["guest"], gianni_player.as_str());
    let mute =
        json!({"action": "mute", "report": guest_report, "reason": "insults", "minutes": 10});
    let muted = post(b.addr, "/api/moderation/actions", &moira, mute).await;
    assert_eq!(muted.status, 200, "{}", muted.body);
    let refused = gianni
        .request(|id| ClientMessage::Chat {
            id,
            table,
            text: Some("hello again".into()),
            phrase: None,
        })
        .await;
    assert_eq!(code(&refused), Some("muted"), "{refused:?}");
}
