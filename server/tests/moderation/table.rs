//! Moderation at the table, on the raw socket (protocol 1.7): a `report` of a seat or a chat
//! line, kept with the table's context and refused by code when it does not fit (a guest, an
//! account not at the table, an older connection, an empty seat, oneself, an unknown line, a
//! flood); a guest muted by a moderator through the report and refused chat with `muted` until
//! unmuted. The server's own reports at the table are `signals`'.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use burraco_protocol::wire::{ClientMessage, ServerMessage, WireSeat};
use burraco_rules::Seat;
use serde_json::{Value, json};

use super::http::{admin, get, post, sign_up};
use crate::common::{Client, TestServer, settings};

/// A connection signed in with the session cookie, its hello saying `version`.
pub(crate) async fn account(addr: SocketAddr, name: &str, session: &str, version: &str) -> Client {
    let cookie = format!("burraco_session={session}");
    let origin = format!("http://{addr}");
    Client::connect_with_headers(
        addr,
        name,
        version,
        &[("Cookie", &cookie), ("Origin", &origin)],
    )
    .await
    .0
}

pub(crate) fn code(reply: &ServerMessage) -> Option<&str> {
    match reply {
        ServerMessage::Error { code, .. } => Some(code),
        _ => None,
    }
}

fn report(
    table: &str,
    seat: Option<Seat>,
    seq: Option<u64>,
    reason: &str,
) -> impl FnOnce(u64) -> ClientMessage {
    let (table, reason) = (table.to_owned(), reason.to_owned());
    move |id| ClientMessage::Report {
        id,
        table,
        seat: seat.map(WireSeat),
        seq,
        reason,
        note: Some("  said  it twice ".into()),
    }
}

fn say(table: &str, text: &str) -> impl FnOnce(u64) -> ClientMessage {
    let (table, text) = (table.to_owned(), text.to_owned());
    move |id| ClientMessage::Chat {
        id,
        table,
        text: Some(text),
        phrase: None,
    }
}

/// Polls the moderators' queue until `found` picks a report out of it (5 s at most).
pub(crate) async fn queued(
    addr: SocketAddr,
    moderator: &str,
    found: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let queue = get(addr, "/api/moderation/reports", moderator).await;
        assert_eq!(queue.status, 200, "{}", queue.body);
        let reports = queue.json()["reports"].as_array().expect("reports").clone();
        if let Some(report) = reports.iter().find(|r| found(r)) {
            return report.clone();
        }
        assert!(Instant::now() < deadline, "not in the queue: {reports:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_at_the_table_keeps_its_context_and_a_muted_guest_is_refused_chat() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let (moira, _) = sign_up(addr, "Moira").await;
    let (rocco_session, _) = sign_up(addr, "Rocco").await;
    let (paola_session, paola_id) = sign_up(addr, "Paola").await;
    let (olga_session, _) = sign_up(addr, "Olga").await;
    admin(&server, &["grant-moderator", "moira"]);
    let mut rocco = account(addr, "Rocco", &rocco_session, "1.7").await;
    let mut paola = account(addr, "Paola", &paola_session, "1.7").await;
    let (mut gianni, welcome) = Client::connect_saying(addr, "Gianni", None, false, "1.7").await;
    let ServerMessage::Welcome {
        player: gianni_player,
        ..
    } = welcome
    else {
        panic!("welcome: {welcome:?}")
    };

    // Rocco North, Paola East, the guest Gianni South; West stays free.
    let created = rocco
        .request(|id| ClientMessage::CreateTable {
            id,
            settings: settings("fitab", 4, Some(1), "off"),
            private: false,
            bots: None,
        })
        .await;
    let ServerMessage::TableCreated { table, .. } = created else {
        panic!("create: {created:?}")
    };
    for (client, seat) in [(&mut paola, Seat::East), (&mut gianni, Seat::South)] {
        let t = table.clone();
        let seated = client
            .request(|id| ClientMessage::Join {
                id,
                table: Some(t),
                invite: None,
                seat: Some(WireSeat(seat)),
            })
            .await;
        assert!(matches!(seated, ServerMessage::Seated { .. }), "{seated:?}");
    }
    rocco.ok(say(&table, "good evening")).await;
    gianni.ok(say(&table, "you play like a child")).await;
    rocco.ok(say(&table, "no need for that")).await;
    let line = paola
        .wait(|m| matches!(m, ServerMessage::ChatMessage { text, .. } if text.starts_with("you play")))
        .await;
    let ServerMessage::ChatMessage { seq, .. } = line else {
        unreachable!()
    };

    // Paola reports the line, and Gianni's seat.
    let filed = paola
        .request(report(&table, None, Some(seq), "abuse"))
        .await;
    let ServerMessage::ReportFiled {
        report: line_report,
        ..
    } = filed
    else {
        panic!("report of a line: {filed:?}")
    };
    let filed = paola
        .request(report(&table, Some(Seat::South), None, "stalling"))
        .await;
    assert!(
        matches!(filed, ServerMessage::ReportFiled { .. }),
        "{filed:?}"
    );

    // What does not fit is refused by its code, and nothing is filed.
    let refusals = [
        // West is free: nobody to report.
        (
            table.as_str(),
            Some(Seat::West),
            None,
            "abuse",
            "invalid_seat",
        ),
        // Oneself.
        (&table, Some(Seat::East), None, "abuse", "invalid_report"),
        // A line the table never published.
        (&table, None, Some(seq + 100), "abuse", "invalid_report"),
        // Neither a seat nor a line, or both.
        (&table, None, None, "abuse", "invalid_report"),
        (
            &table,
            Some(Seat::South),
            Some(seq),
            "abuse",
            "invalid_report",
        ),
        (
            &table,
            Some(Seat::South),
            None,
            "rudeness",
            "invalid_report",
        ),
        (
            "t-0000000000",
            Some(Seat::South),
            None,
            "abuse",
            "unknown_table",
        ),
    ];
    for (at, seat, line, reason, want) in refusals {
        let refused = paola.request(report(at, seat, line, reason)).await;
        assert_eq!(
            code(&refused),
            Some(want),
            "{at} {seat:?} {line:?} {reason}: {refused:?}"
        );
    }
    let refused = gianni
        .request(report(&table, Some(Seat::North), None, "abuse"))
        .await;
    assert_eq!(
        code(&refused),
        Some("account_required"),
        "a guest: {refused:?}"
    );
    let mut olga = account(addr, "Olga", &olga_session, "1.7").await;
    let refused = olga
        .request(report(&table, Some(Seat::North), None, "abuse"))
        .await;
    assert_eq!(code(&refused), Some("not_at_table"), "{refused:?}");
    let mut old = account(addr, "Rocco", &rocco_session, "1.6").await;
    let refused = old
        .request(report(&table, Some(Seat::South), None, "abuse"))
        .await;
    assert_eq!(code(&refused), Some("needs_minor"), "{refused:?}");
    // A spectator may report.
    olga.ok(|id| ClientMessage::Spectate {
        id,
        table: table.clone(),
    })
    .await;
    let filed = olga
        .request(report(&table, Some(Seat::South), None, "spam"))
        .await;
    assert!(
        matches!(filed, ServerMessage::ReportFiled { .. }),
        "{filed:?}"
    );

    // The line's report, as moderators read it: the guest's line with its neighbours.
    let found = queued(addr, &moira, |r| r["id"] == line_report.as_str()).await;
    assert_eq!(found["kind"], "chat");
    assert_eq!(found["reporter"], paola_id.as_str());
    assert_eq!(found["subject"], Value::Null, "a guest has no account");
    assert_eq!(found["subject_name"], "Gianni");
    assert_eq!(found["reason"], "abuse");
    assert_eq!(found["note"], "said it twice");
    let context = &found["context"];
    assert_eq!(context["table"], table.as_str());
    assert_eq!(context["status"], "waiting");
    assert_eq!(context["guest"], gianni_player.as_str());
    assert_eq!(context["line"]["text"], "you play like a child");
    assert_eq!(context["line"]["player"], gianni_player.as_str());
    let chat: Vec<&str> = context["chat"]
        .as_array()
        .expect("chat")
        .iter()
        .filter_map(|l| l["text"].as_str())
        .collect();
    assert_eq!(
        chat,
        ["good evening", "you play like a child", "no need for that"]
    );
    assert_eq!(context["seats"].as_array().map(Vec::len), Some(4));
    let seat_report = queued(addr, &moira, |r| {
        r["kind"] == "player" && r["reporter"] == paola_id.as_str()
    })
    .await;
    assert_eq!(seat_report["subject_name"], "Gianni");
    assert_eq!(seat_report["context"]["guest"], gianni_player.as_str());
    assert_eq!(seat_report["reason"], "stalling");

    // Muted through the report: the guest's chat is refused, phrases too, saying until when.
    let mute = json!({"action": "mute", "report": line_report, "reason": "insults", "minutes": 10});
    let muted = post(addr, "/api/moderation/actions", &moira, mute).await;
    assert_eq!(muted.status, 200, "{}", muted.body);
    assert_eq!(muted.json()["action"]["guest"], gianni_player.as_str());
    assert_eq!(muted.json()["action"]["account"], Value::Null);
    let until = muted.json()["action"]["until_ms"].as_i64().expect("until");
    let refused = gianni.request(say(&table, "hello again")).await;
    let ServerMessage::Error {
        code: refusal,
        message,
        ..
    } = &refused
    else {
        panic!("expected muted, got {refused:?}")
    };
    assert_eq!(refusal, "muted");
    assert!(message.contains(&until.to_string()), "{message}");
    let phrase = gianni
        .request(|id| ClientMessage::Chat {
            id,
            table: table.clone(),
            text: None,
            phrase: Some("sorry".into()),
        })
        .await;
    assert_eq!(code(&phrase), Some("muted"), "{phrase:?}");
    // Nobody else is: Rocco, and another guest.
    rocco.ok(say(&table, "thank you")).await;
    let mut other = Client::connect_saying(addr, "Gianni", None, false, "1.7")
        .await
        .0;
    other
        .ok(|id| ClientMessage::Spectate {
            id,
            table: table.clone(),
        })
        .await;
    other.ok(say(&table, "just watching")).await;
    // A guest cannot be timed out (no account to bar); unmuted by its player id, it speaks.
    let timeout = json!({"action": "timeout", "guest": gianni_player, "reason": "x", "minutes": 5});
    let refused = post(addr, "/api/moderation/actions", &moira, timeout).await;
    assert_eq!(
        (refused.status, refused.code()),
        (400, "invalid_action".into())
    );
    let malformed = json!({"action": "unmute", "guest": "u-not-a-guest", "reason": "served"});
    let refused = post(addr, "/api/moderation/actions", &moira, malformed).await;
    assert_eq!(
        (refused.status, refused.code()),
        (400, "invalid_action".into())
    );
    let unmute = json!({"action": "unmute", "guest": gianni_player, "reason": "served"});
    let unmuted = post(addr, "/api/moderation/actions", &moira, unmute).await;
    assert_eq!(unmuted.status, 200, "{}", unmuted.body);
    gianni.ok(say(&table, "sorry")).await;

    // Ten reports an hour per account: Paola filed two, eight more pass, the next is refused.
    for n in 0..8 {
        let filed = paola
            .request(report(&table, Some(Seat::North), None, "other"))
            .await;
        assert!(
            matches!(filed, ServerMessage::ReportFiled { .. }),
            "{n}: {filed:?}"
        );
    }
    let flood = paola
        .request(report(&table, Some(Seat::North), None, "other"))
        .await;
    assert_eq!(code(&flood), Some("too_many_reports"), "{flood:?}");
    server.stop().await;
}
