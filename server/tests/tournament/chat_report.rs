//! A tournament's chat line reported (protocol 1.8, `tournament_report`) on the raw socket: the
//! report in the moderators' queue with the tournament's context (the line, the five lines each
//! side, the tournament, the round) and nothing the chat does not show but the speakers' ids;
//! every refusal by its code (a guest, an older connection, an unknown tournament or line,
//! one's own line, a bad reason or note, a flood); a mute answering a report silencing its
//! speaker, a guest by its player id or an account; and a report made through another node
//! than the tournament's, in a cluster.

use burraco_bot::tournament as bots;
use burraco_protocol::wire::{ClientMessage, ServerMessage};
use serde_json::{Value, json};

use super::chat::{register, say};
use super::{singles, start_round};
use crate::common::*;
use crate::moderation::http::{admin, post, sign_up};
use crate::moderation::table::{account, code, queued};

const V: &str = "1.8";

fn report(
    tournament: &str,
    line: u64,
    reason: &str,
    note: Option<&str>,
) -> impl FnOnce(u64) -> ClientMessage {
    let (tournament, reason, note) = (
        tournament.to_owned(),
        reason.to_owned(),
        note.map(str::to_owned),
    );
    move |id| ClientMessage::TournamentReport {
        id,
        tournament,
        line,
        reason,
        note,
    }
}

/// The report id of a `report_filed`, or a panic naming what came instead.
fn filed(reply: ServerMessage) -> String {
    match reply {
        ServerMessage::ReportFiled { report, .. } => report,
        other => panic!("report_filed, got {other:?}"),
    }
}

fn player_of(welcome: &ServerMessage) -> String {
    match welcome {
        ServerMessage::Welcome { player, .. } => player.clone(),
        other => panic!("welcome, got {other:?}"),
    }
}

/// The lines' numbers and texts of a report's `context.chat`.
fn lines_of(context: &Value) -> Vec<(u64, String)> {
    context["chat"]
        .as_array()
        .expect("chat")
        .iter()
        .map(|l| {
            let seq = l["seq"].as_u64().expect("seq");
            (seq, l["text"].as_str().expect("text").to_owned())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_chat_line_is_reported_with_its_context_and_a_mute_answering_it_silences_its_speaker()
 {
    let server = TestServer::start().await;
    let addr = server.addr;
    let url = format!("ws://{addr}/ws");
    let (moira, _) = sign_up(addr, "Moira").await;
    let (rocco_session, rocco_id) = sign_up(addr, "Rocco").await;
    let (paola_session, paola_id) = sign_up(addr, "Paola").await;
    admin(&server, &["grant-moderator", "moira"]);
    let (tournament, token) = bots::create(&url, &singles(2, "danish"))
        .await
        .expect("created");
    // Rocco (an account) and Gianni (a guest) are the entrants; Paola only reads the chat.
    let mut rocco = account(addr, "Rocco", &rocco_session, V).await;
    let (mut gianni, welcome) = Client::connect_saying(addr, "Gianni", None, false, V).await;
    let gianni_player = player_of(&welcome);
    register(&mut rocco, &tournament).await;
    register(&mut gianni, &tournament).await;
    let mut paola = account(addr, "Paola", &paola_session, V).await;
    let (mut director, welcome) = Client::connect_saying(addr, "Director", None, false, V).await;
    let director_player = player_of(&welcome);

    // Line 1 the director's; then Rocco on the even lines, Gianni on the odd ones, to 14.
    director
        .ok(say(&tournament, Some(&token), "Welcome to the event"))
        .await;
    for n in 2..=14u64 {
        let text = if n == 9 {
            "line 9: you play like a child".to_owned()
        } else {
            format!("line {n}")
        };
        let speaker = if n % 2 == 0 { &mut rocco } else { &mut gianni };
        speaker.ok(say(&tournament, None, &text)).await;
    }

    // Paola reports Gianni's line 9, and Rocco's line 8.
    let guest_report = filed(
        paola
            .request(report(&tournament, 9, "abuse", Some("  rude   again ")))
            .await,
    );
    let account_report = filed(paola.request(report(&tournament, 8, "spam", None)).await);

    // What does not fit is refused by its code, and nothing is filed.
    let refused = gianni.request(report(&tournament, 8, "abuse", None)).await;
    assert_eq!(
        code(&refused),
        Some("account_required"),
        "a guest: {refused:?}"
    );
    let mut older = account(addr, "Paola", &paola_session, "1.7").await;
    let refused = older.request(report(&tournament, 8, "abuse", None)).await;
    assert_eq!(code(&refused), Some("needs_minor"), "{refused:?}");
    let refused = paola
        .request(report("T-0000000000", 8, "abuse", None))
        .await;
    assert_eq!(code(&refused), Some("unknown_tournament"), "{refused:?}");
    let too_long = "x".repeat(501);
    for (line, reason, note) in [
        (99, "abuse", None),
        (0, "abuse", None),
        (8, "rudeness", None),
        (8, "abuse", Some("bell \u{7} rings")),
        (8, "abuse", Some("hidden\u{200B}space")),
        (8, "abuse", Some(too_long.as_str())),
    ] {
        let refused = paola.request(report(&tournament, line, reason, note)).await;
        assert_eq!(
            code(&refused),
            Some("invalid_report"),
            "{line} {reason} {note:?}: {refused:?}"
        );
    }
    // One's own line, from the connection that said it or another of the same account.
    let refused = rocco.request(report(&tournament, 8, "abuse", None)).await;
    assert_eq!(
        code(&refused),
        Some("invalid_report"),
        "own line: {refused:?}"
    );
    let mut rocco_elsewhere = account(addr, "Rocco", &rocco_session, V).await;
    let refused = rocco_elsewhere
        .request(report(&tournament, 10, "abuse", None))
        .await;
    assert_eq!(
        code(&refused),
        Some("invalid_report"),
        "own account's line: {refused:?}"
    );

    // The guest's line as moderators read it: the line with five lines each side, the
    // tournament, no table and no round yet.
    let found = queued(addr, &moira, |r| r["id"] == guest_report.as_str()).await;
    assert_eq!(found["kind"], "chat");
    assert_eq!(found["reporter"], paola_id.as_str());
    assert_eq!(found["subject"], Value::Null, "a guest has no account");
    assert_eq!(found["subject_name"], "Gianni");
    assert_eq!(found["table"], Value::Null);
    assert_eq!(found["reason"], "abuse");
    assert_eq!(found["note"], "rude again");
    let context = &found["context"];
    assert_eq!(context["tournament"], tournament.as_str());
    assert_eq!(context["round"], Value::Null, "said before the first round");
    assert_eq!(context["table"], Value::Null);
    assert_eq!(context["seats"], json!([]));
    assert_eq!(context["chat_here"], true);
    assert_eq!(context["guest"], gianni_player.as_str());
    assert_eq!(context["line"]["seq"], 9);
    assert_eq!(context["line"]["text"], "line 9: you play like a child");
    assert_eq!(context["line"]["name"], "Gianni");
    assert_eq!(context["line"]["player"], gianni_player.as_str());
    assert_eq!(context["line"]["account"], Value::Null);
    let mut want: Vec<(u64, String)> = (4..=14).map(|n| (n, format!("line {n}"))).collect();
    want[5].1 = "line 9: you play like a child".into();
    assert_eq!(lines_of(context), want);
    // Nothing the chat does not show but who spoke: never the director's token.
    let queue = crate::moderation::http::get(addr, "/api/moderation/reports", &moira).await;
    assert!(!queue.body.contains(&token), "the director's token leaked");
    // Rocco's line names his account, and no guest.
    let found = queued(addr, &moira, |r| r["id"] == account_report.as_str()).await;
    assert_eq!(found["subject"], rocco_id.as_str());
    assert_eq!(found["subject_name"], "Rocco");
    assert_eq!(found["context"]["guest"], Value::Null);
    assert_eq!(found["context"]["line"]["account"], rocco_id.as_str());
    assert_eq!(lines_of(&found["context"]).first().map(|l| l.0), Some(3));

    // A mute answering the guest's report mutes the guest (by its player id): its line is
    // refused `muted`; Rocco still speaks.
    let mute =
        json!({"action": "mute", "report": guest_report, "reason": "insults", "minutes": 10});
    let muted = post(addr, "/api/moderation/actions", &moira, mute).await;
    assert_eq!(muted.status, 200, "{}", muted.body);
    assert_eq!(muted.json()["action"]["guest"], gianni_player.as_str());
    assert_eq!(muted.json()["action"]["account"], Value::Null);
    let refused = gianni.request(say(&tournament, None, "hello again")).await;
    assert_eq!(code(&refused), Some("muted"), "{refused:?}");
    rocco.ok(say(&tournament, None, "line 15")).await;
    // One answering Rocco's report mutes his account.
    let mute = json!({"action": "mute", "report": account_report, "reason": "spam", "minutes": 10});
    let muted = post(addr, "/api/moderation/actions", &moira, mute).await;
    assert_eq!(muted.status, 200, "{}", muted.body);
    assert_eq!(muted.json()["action"]["account"], rocco_id.as_str());
    let refused = rocco.request(say(&tournament, None, "again")).await;
    assert_eq!(code(&refused), Some("muted"), "{refused:?}");

    // A line said in a round keeps its round; the newest line has no lines after it.
    start_round(&url, &tournament, &token).await;
    director
        .ok(say(&tournament, Some(&token), "Round 1 started"))
        .await;
    let round_report = filed(paola.request(report(&tournament, 16, "other", None)).await);
    let found = queued(addr, &moira, |r| r["id"] == round_report.as_str()).await;
    assert_eq!(found["context"]["round"], 1);
    assert_eq!(found["subject_name"], "Director");
    assert_eq!(found["context"]["guest"], director_player.as_str());
    let numbers: Vec<u64> = lines_of(&found["context"]).iter().map(|l| l.0).collect();
    assert_eq!(numbers, (11..=16).collect::<Vec<_>>());

    // Ten reports an hour per account: Paola filed three, seven more pass, the next is refused.
    for _ in 0..7 {
        filed(paola.request(report(&tournament, 2, "other", None)).await);
    }
    let flood = paola.request(report(&tournament, 2, "other", None)).await;
    assert_eq!(code(&flood), Some("too_many_reports"), "{flood:?}");
    server.stop().await;
}

/// Two nodes sharing a PostgreSQL database: the tournament on node-a, where Rocco speaks;
/// Paola, connected to node-b, reports his line. The request goes to the tournament's node as
/// its frame, and the report holds that node's context.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_chat_line_is_reported_through_another_node_than_the_tournaments() {
    let postgres = crate::accounts::Postgres::start();
    let url = postgres.url();
    let nats = crate::cluster::Nats::start(1);
    let a = crate::cluster::Node::start_with(&nats, "node-a", &["--database-url", &url]);
    let b = crate::cluster::Node::start_with(&nats, "node-b", &["--database-url", &url]);
    let (moira, _) = sign_up(a.addr, "Moira").await;
    let (rocco_session, rocco_id) = sign_up(a.addr, "Rocco").await;
    let (paola_session, paola_id) = sign_up(a.addr, "Paola").await;
    let granted = std::process::Command::new(env!("CARGO_BIN_EXE_burraco-server"))
        .args(["--database-url", &url, "admin", "grant-moderator", "moira"])
        .output()
        .expect("the server binary runs");
    assert!(granted.status.success(), "{granted:?}");

    let ws_a = format!("ws://{}/ws", a.addr);
    let (tournament, _) = bots::create(&ws_a, &singles(2, "danish"))
        .await
        .expect("created");
    let mut rocco = account(a.addr, "Rocco", &rocco_session, V).await;
    register(&mut rocco, &tournament).await;
    rocco.ok(say(&tournament, None, "good luck")).await;
    rocco.ok(say(&tournament, None, "you will need it")).await;

    let mut paola = account(b.addr, "Paola", &paola_session, V).await;
    let report_id = filed(paola.request(report(&tournament, 2, "abuse", None)).await);
    // Refusals come back from the tournament's node by their codes.
    let refused = paola.request(report(&tournament, 7, "abuse", None)).await;
    assert_eq!(code(&refused), Some("invalid_report"), "{refused:?}");
    let (mut guest, _) = Client::connect_saying(b.addr, "Gianni", None, false, V).await;
    let refused = guest.request(report(&tournament, 2, "abuse", None)).await;
    assert_eq!(code(&refused), Some("account_required"), "{refused:?}");

    // Read on node-b: the same database, the tournament's context.
    let found = queued(b.addr, &moira, |r| r["id"] == report_id.as_str()).await;
    assert_eq!(found["reporter"], paola_id.as_str());
    assert_eq!(found["subject"], rocco_id.as_str());
    assert_eq!(found["context"]["tournament"], tournament.as_str());
    assert_eq!(found["context"]["line"]["text"], "you will need it");
    assert_eq!(
        lines_of(&found["context"]),
        [
            (1, "good luck".to_owned()),
            (2, "you will need it".to_owned())
        ]
    );
    // The mute answering it, taken on node-b, silences Rocco on node-a.
    let mute = json!({"action": "mute", "report": report_id, "reason": "insults", "minutes": 10});
    let muted = post(b.addr, "/api/moderation/actions", &moira, mute).await;
    assert_eq!(muted.status, 200, "{}", muted.body);
    let refused = rocco.request(say(&tournament, None, "again")).await;
    assert_eq!(code(&refused), Some("muted"), "{refused:?}");
}
