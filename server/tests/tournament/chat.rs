//! A tournament's chat (protocol 1.7) on the raw socket: an entrant's line heard by the other
//! entrants and the watchers, not by a 1.6 connection; the director's line labelled so; the
//! table chat's text rule (a bidi override, 201 characters) and its refusals by code; a reload's
//! history; closed to a player whose match is in play; a muted account refused `muted`.

use std::net::SocketAddr;

use burraco_bot::tournament as bots;
use burraco_protocol::wire::{ClientMessage, ServerMessage, TournamentChatLine};
use serde_json::json;

use super::{singles, start_round};
use crate::accounts::http::http_post;
use crate::common::*;

const V: &str = "1.7";

async fn connect(addr: SocketAddr, name: &str, version: &str) -> Client {
    Client::connect_saying(addr, name, None, false, version)
        .await
        .0
}

pub(super) fn say(
    tournament: &str,
    director: Option<&str>,
    text: &str,
) -> impl FnOnce(u64) -> ClientMessage {
    let (tournament, director, text) = (
        tournament.to_owned(),
        director.map(str::to_owned),
        text.to_owned(),
    );
    move |id| ClientMessage::TournamentChat {
        id,
        tournament,
        director,
        text,
    }
}

fn code(m: &ServerMessage) -> &str {
    match m {
        ServerMessage::Error { code, .. } => code,
        _ => "",
    }
}

/// The next chat line `client` hears.
async fn heard(client: &mut Client) -> TournamentChatLine {
    match client
        .wait(|m| matches!(m, ServerMessage::TournamentChatMessage { .. }))
        .await
    {
        ServerMessage::TournamentChatMessage { line, .. } => line,
        _ => unreachable!(),
    }
}

pub(super) async fn register(client: &mut Client, tournament: &str) {
    let t = tournament.to_owned();
    let reply = client
        .request(|id| ClientMessage::RegisterTournament {
            id,
            tournament: t,
            partner_code: None,
            bot: None,
        })
        .await;
    assert!(
        matches!(reply, ServerMessage::TournamentRegistered { .. }),
        "{reply:?}"
    );
}

pub(super) async fn history(client: &mut Client, tournament: &str) -> Vec<TournamentChatLine> {
    let t = tournament.to_owned();
    match client
        .request(|id| ClientMessage::TournamentChatHistory { id, tournament: t })
        .await
    {
        ServerMessage::TournamentChatLines { lines, .. } => lines,
        other => panic!("tournament_chat_lines, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournaments_chat_reaches_its_entrants_and_watchers_under_the_table_chats_rules() {
    let server = TestServer::start().await;
    let url = format!("ws://{}/ws", server.addr);
    let (tournament, token) = bots::create(&url, &singles(2, "danish"))
        .await
        .expect("created");
    let mut anna = connect(server.addr, "anna", V).await;
    let mut bruno = connect(server.addr, "bruno", V).await;
    register(&mut anna, &tournament).await;
    register(&mut bruno, &tournament).await;
    let mut watcher = connect(server.addr, "watcher", V).await;
    let t = tournament.clone();
    watcher
        .ok(|id| ClientMessage::WatchTournament { id, tournament: t })
        .await;
    // A 1.6 watcher: refused the request by name, and never sent a line.
    let mut old = connect(server.addr, "old", "1.6").await;
    let t = tournament.clone();
    old.ok(|id| ClientMessage::WatchTournament { id, tournament: t })
        .await;
    let refused = old.request(say(&tournament, None, "hello")).await;
    assert_eq!(code(&refused), "needs_minor", "{refused:?}");

    // An entrant's line, normalised as a table's, heard by the other entrant and the watcher.
    anna.ok(say(&tournament, None, "  Good   luck everyone "))
        .await;
    for client in [&mut bruno, &mut watcher, &mut anna] {
        let line = heard(client).await;
        assert_eq!(
            (line.line, line.name.as_str(), line.entrant, line.director),
            (1, "anna", Some(0), false)
        );
        assert_eq!(line.text, "Good luck everyone");
    }
    // The table chat's rule: no bidi override, at most 200 characters, not empty.
    for bad in [
        "Bidi \u{202E}evil\u{202C} name".to_owned(),
        "x".repeat(201),
        "   ".to_owned(),
    ] {
        let refused = bruno.request(say(&tournament, None, &bad)).await;
        assert_eq!(code(&refused), "invalid_text", "{bad:?}: {refused:?}");
    }
    bruno.ok(say(&tournament, None, &"y".repeat(200))).await;
    assert_eq!(heard(&mut anna).await.line, 2);
    // Not an entrant, not the director: refused; a wrong token too; an unknown tournament.
    let mut outsider = connect(server.addr, "outsider", V).await;
    let refused = outsider.request(say(&tournament, None, "hi")).await;
    assert_eq!(code(&refused), "not_registered", "{refused:?}");
    let refused = outsider
        .request(say(
            &tournament,
            Some("0123456789abcdef0123456789abcdef"),
            "hi",
        ))
        .await;
    assert_eq!(code(&refused), "not_director", "{refused:?}");
    let refused = outsider.request(say("T-0000000000", None, "hi")).await;
    assert_eq!(code(&refused), "unknown_tournament", "{refused:?}");
    // The director, by its token, from a connection that is no entrant's.
    let mut director = connect(server.addr, "Director", V).await;
    director
        .ok(say(&tournament, Some(&token), "Round 1 in two minutes"))
        .await;
    let line = heard(&mut anna).await;
    assert_eq!(
        (line.line, line.name.as_str(), line.entrant, line.director),
        (3, "Director", None, true)
    );
    assert_eq!(heard(&mut director).await.line, 3, "the director hears it");

    // A reload: anyone reads the recent lines, oldest first.
    let lines = history(&mut outsider, &tournament).await;
    let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(lines.iter().map(|l| l.line).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(texts[0], "Good luck everyone");
    assert_eq!(texts[2], "Round 1 in two minutes");
    assert!(lines.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));

    // Once the round starts, a player whose match is in play is refused; the director is not.
    start_round(&url, &tournament, &token).await;
    anna.wait(|m| matches!(m, ServerMessage::GoToTable { .. }))
        .await;
    let refused = anna.request(say(&tournament, None, "my hand is...")).await;
    assert_eq!(code(&refused), "chat_closed", "{refused:?}");
    director
        .ok(say(&tournament, Some(&token), "Round 1 started"))
        .await;
    while heard(&mut watcher).await.line != 4 {}

    // The 1.6 watcher heard no line.
    old.barrier().await;
    assert!(
        !old.log
            .iter()
            .any(|m| matches!(m, ServerMessage::TournamentChatMessage { .. })),
        "a 1.6 connection got a 1.7 message"
    );
    server.stop().await;
}

/// A muted account's line is refused `muted`, as at a table; unmuted, it speaks again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_muted_account_is_refused_in_a_tournaments_chat() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let url = format!("ws://{addr}/ws");
    let signup = |name: &str| json!({"username": name, "password": "correct horse"}).to_string();
    let moira = http_post(addr, "/api/signup", None, &signup("Moira")).await;
    assert_eq!(moira.status, 201, "{}", moira.body);
    let rocco = http_post(addr, "/api/signup", None, &signup("Rocco")).await;
    assert_eq!(rocco.status, 201, "{}", rocco.body);
    let data = server.dir.path().to_string_lossy().into_owned();
    let granted = std::process::Command::new(env!("CARGO_BIN_EXE_burraco-server"))
        .args(["--data", &data, "admin", "grant-moderator", "moira"])
        .output()
        .expect("the server binary runs");
    assert!(granted.status.success(), "{granted:?}");

    let (tournament, _) = bots::create(&url, &singles(2, "danish"))
        .await
        .expect("created");
    let cookie = format!("burraco_session={}", rocco.token());
    let origin = format!("http://{addr}");
    let headers = [("Cookie", cookie.as_str()), ("Origin", origin.as_str())];
    let (mut rocco_ws, _) = Client::connect_with(addr, "ignored", None, V, &headers).await;
    register(&mut rocco_ws, &tournament).await;
    rocco_ws.ok(say(&tournament, None, "hello all")).await;

    let mute = json!({"action": "mute", "account": "Rocco", "reason": "insults", "minutes": 10});
    let muted = http_post(
        addr,
        "/api/moderation/actions",
        Some(&moira.token()),
        &mute.to_string(),
    )
    .await;
    assert_eq!(muted.status, 200, "{}", muted.body);
    let refused = rocco_ws.request(say(&tournament, None, "again")).await;
    assert_eq!(code(&refused), "muted", "{refused:?}");
    assert_eq!(
        history(&mut rocco_ws, &tournament).await.len(),
        1,
        "the refused line was kept nowhere"
    );
    let unmute = json!({"action": "unmute", "account": "Rocco", "reason": "served"});
    let unmuted = http_post(
        addr,
        "/api/moderation/actions",
        Some(&moira.token()),
        &unmute.to_string(),
    )
    .await;
    assert_eq!(unmuted.status, 200, "{}", unmuted.body);
    rocco_ws.ok(say(&tournament, None, "sorry")).await;
    server.stop().await;
}
