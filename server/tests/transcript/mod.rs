//! Plays one head-to-head hand and writes what North's connection sent and received, annotated,
//! into docs/PROTOCOL.md between the transcript markers. Without `BURRACO_REGENERATE_TRANSCRIPT=1`
//! it checks the document still says exactly that.

use std::collections::HashSet;

use burraco_protocol::wire::ServerMessage;

use crate::common::*;

const BEGIN: &str = "<!-- transcript:begin -->";
const END: &str = "<!-- transcript:end -->";

fn note(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "hello" => {
            "the first frame: protocol version and name (add \"resume\": token to reconnect)"
        }
        "welcome" => "keep `session`: it is the resume token",
        "create_table" => "a request: every request carries an id and gets exactly one reply",
        "table_created" => "the reply to create_table: you are seated",
        "snapshot" => "the table as you may see it, as of `seq`",
        "player_joined" => "table events carry the table's sequence number",
        "ok" => "the reply of a request that has nothing else to say",
        "player_ready" => "the ready check: the match starts when every seat is ready",
        "match_started" => "first dealer drawn; round_clock_ms is null with clocks off",
        "hand_started" => "commitment = SHA-256 of the seed, revealed in hand_ended",
        "dealt" => "private: only you get your cards",
        "tick" => "an event you may not see (the opponent's cards): only its number",
        "turn_started" => "clock_ms/grace_ms are null with clocks off",
        "draw" => "a game request: draw from the tallone",
        "drew" => "public: who drew",
        "drew_card" => "private: the card you drew",
        "discard" => "ends your turn",
        "discarded" => "public",
        "pick_up" => "take the whole discard pile",
        "picked_up" => "public: the pile's cards",
        "open" => "lay a meld",
        "opened" => "the meld as laid, with its id",
        "attach" => "add to one of your side's melds by id",
        "attached" => "the meld after the attachment",
        "hand_ended" => "every hand and the seed are public now",
        "hand_record" => "the full record (docs/HAND_RECORD.md) as a JSON string",
        "match_ended" => "totals and victory points by side",
        _ => return None,
    })
}

/// Replaces the digits after `key` everywhere (timestamps, random ids).
fn blank_numbers(text: &str, key: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(key) {
        out.push_str(&rest[..i + key.len()]);
        rest = rest[i + key.len()..].trim_start_matches(|c: char| c.is_ascii_digit());
        out.push('0');
    }
    out.push_str(rest);
    out
}

#[tokio::test]
async fn transcript_of_one_hand_in_protocol_md() {
    barriers_before_requests();
    let server = TestServer::start().await;
    let mut table = Table::open(
        &server,
        settings("fitab", 2, Some(1), "off"),
        &["anna", "bruno"],
    )
    .await;
    let mut mirror = table.next_hand().await;
    table.play_hand(&mut mirror, NoCheck).await;
    let (id, anna) = (table.id.clone(), &mut table.clients[0].1);
    anna.wait(|m| matches!(m, ServerMessage::MatchEnded { .. }))
        .await;
    let (session, player) = (anna.session.clone(), anna.player.clone());

    let mut lines = Vec::new();
    let mut sent = anna.sent.iter().peekable();
    for (i, frame) in anna.frames.iter().enumerate() {
        while let Some((_, out)) = sent.next_if(|(at, _)| *at <= i) {
            lines.push(format!("-> {out}"));
        }
        lines.push(format!("<- {frame}"));
    }
    let normalize = |l: &str| {
        let l = l
            .replace(&id, "t-1")
            .replace(&session, "SESSION-TOKEN")
            .replace(&player, "p-anna");
        blank_numbers(&l, "\\\"at_ms\\\":")
    };
    let lines: Vec<String> = lines
        .iter()
        .filter(|l| !l.contains(r#"{"type":"ping""#) && !l.contains(r#"{"type":"pong""#))
        .map(|l| normalize(l))
        .collect();
    // Keep the first turns and the end whole; the middle is more of the same.
    let (head, tail) = (70, 24);
    let mut shown = Vec::new();
    let mut noted = HashSet::new();
    let mut push = |shown: &mut Vec<String>, line: &str| {
        let kind = line
            .split("\"type\":\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or_default()
            .to_owned();
        if noted.insert(kind.clone())
            && let Some(n) = note(&kind)
        {
            shown.push(format!("   # {n}"));
        }
        shown.push(line.to_owned());
    };
    for l in &lines[..head.min(lines.len())] {
        push(&mut shown, l);
    }
    if lines.len() > head + tail {
        shown.push(format!(
            "   # ... {} frames of the same kinds ...",
            lines.len() - head - tail
        ));
        for l in &lines[lines.len() - tail..] {
            push(&mut shown, l);
        }
    } else {
        for l in &lines[head.min(lines.len())..] {
            push(&mut shown, l);
        }
    }
    let block = format!("{BEGIN}\n```text\n{}\n```\n{END}", shown.join("\n"));

    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/PROTOCOL.md");
    let doc = std::fs::read_to_string(&path).expect("docs/PROTOCOL.md");
    let (before, rest) = doc.split_once(BEGIN).expect("transcript markers");
    let (_, after) = rest.split_once(END).expect("transcript end marker");
    let updated = format!("{before}{block}{after}");
    if std::env::var_os("BURRACO_REGENERATE_TRANSCRIPT").is_some() {
        std::fs::write(&path, updated).expect("write docs/PROTOCOL.md");
    } else {
        assert!(
            doc == updated,
            "docs/PROTOCOL.md's transcript is stale: BURRACO_REGENERATE_TRANSCRIPT=1 cargo test -p burraco-server --test server transcript"
        );
    }
    server.stop().await;
}
