use burraco_protocol::ErrorCode;
use burraco_protocol::record::HandRecord;
use burraco_protocol::wire::{ClientMessage, ServerMessage};
use burraco_rules::{HandEnd, Seat, Side};

use crate::common::*;

/// Checks a spectator's and an opponent's raw frames after every step.
struct Visibility {
    spectator: Client,
    spectator_knows: Knowledge,
    opponent: Seat,
    opponent_knows: Knowledge,
}

impl AsyncStep for &mut Visibility {
    async fn step(&mut self, table: &mut Table, mirror: &Mirror) {
        self.spectator_knows.observe(&mirror.game);
        self.opponent_knows.observe(&mirror.game);
        self.spectator.barrier().await;
        self.spectator_knows.check(&mut self.spectator);
        let opponent = table.client(self.opponent);
        opponent.barrier().await;
        self.opponent_knows.check(opponent);
    }
}

#[tokio::test]
async fn four_player_hand_to_its_score_with_no_hidden_card_leaked() {
    let server = TestServer::start().await;
    let mut table = Table::open(
        &server,
        settings("fitab", 4, Some(1), "off"),
        &["north", "east", "south", "west"],
    )
    .await;
    let mut spectator = server.client("watcher").await;
    let id = table.id.clone();
    spectator
        .ok(|i| ClientMessage::Spectate { id: i, table: id })
        .await;

    let mut mirror = table.next_hand().await;
    let delivered_before = server.metric("burraco_action_fanout_seconds_count").await;
    let mut visibility = Visibility {
        spectator,
        spectator_knows: Knowledge::of(None),
        opponent: Seat::East,
        opponent_knows: Knowledge::of(Some(Seat::East)),
    };
    visibility.spectator_knows.observe(&mirror.game);
    visibility.opponent_knows.observe(&mirror.game);
    let steps = table.play_hand(&mut mirror, &mut visibility).await;
    assert!(steps > 20);

    let (end, score) = mirror.game.result().expect("over");
    for (_, client) in &mut table.clients {
        let ended = client
            .wait(|m| matches!(m, ServerMessage::HandEnded { .. }))
            .await;
        let ServerMessage::HandEnded {
            score: wire,
            seed,
            end: code,
            ..
        } = ended
        else {
            unreachable!()
        };
        assert_eq!(code, end.code());
        assert_eq!(
            seed.as_deref(),
            Some(burraco_rules::Seed(SEED).to_hex().as_str()),
            "seed revealed"
        );
        for side in Side::BOTH {
            assert_eq!(wire[side.index()].total, score.sides[side.index()].total());
        }
        client
            .wait(|m| matches!(m, ServerMessage::MatchEnded { .. }))
            .await;
        client.barrier().await;
        assert_contiguous(client);
    }
    // Every accepted action's delivery to the seats was timed once its last seat's writer had
    // flushed it (each client's barrier came back after its events, so every writer has).
    let delivered = server.metric("burraco_action_fanout_seconds_count").await - delivered_before;
    assert!(
        delivered >= steps as u64,
        "{delivered} deliveries timed for {steps} actions"
    );
    let spectator = &mut visibility.spectator;
    spectator
        .wait(|m| matches!(m, ServerMessage::MatchEnded { .. }))
        .await;
    assert_contiguous(spectator);
    // Spectators get ticks for every private event, never the content.
    assert!(
        spectator
            .log
            .iter()
            .any(|m| matches!(m, ServerMessage::Tick { .. }))
    );
    assert!(!spectator.log.iter().any(|m| matches!(
        m,
        ServerMessage::Dealt { .. } | ServerMessage::DrewCard { .. }
    )));

    // The published record replays to the same outcome; the HTTP API serves it.
    let (status, body) = server
        .http_get(&format!("/api/tables/{}/hands", table.id))
        .await;
    assert_eq!(status, 200);
    let records: Vec<serde_json::Value> = serde_json::from_str(&body).expect("json array");
    assert_eq!(records.len(), 1);
    let record = HandRecord::from_json(&records[0].to_string()).expect("record");
    let replayed = record.replay().expect("replays");
    assert!(replayed.matches(record.outcome.as_ref().expect("outcome")));
    assert_eq!(replayed.end, Some(end));
    let (status, body) = server.http_get("/api/players/east/hands").await;
    assert_eq!(status, 200);
    assert!(body.starts_with("[{"), "{body}");
    server.stop().await;
}

#[tokio::test]
async fn two_player_match_to_its_scores_and_vp() {
    let server = TestServer::start().await;
    let mut table = Table::open(
        &server,
        settings("fitab", 2, Some(2), "off"),
        &["anna", "bruno"],
    )
    .await;
    let mut totals = [0i32; 2];
    for hand in 1..=2 {
        let mut mirror = table.next_hand().await;
        table.play_hand(&mut mirror, NoCheck).await;
        let (end, score) = mirror.game.result().expect("over");
        assert_ne!(end, HandEnd::Voided);
        for side in Side::BOTH {
            totals[side.index()] += score.sides[side.index()].total();
        }
        let client = &mut table.clients[0].1;
        let record = client
            .wait(|m| matches!(m, ServerMessage::HandRecord { .. }))
            .await;
        let ServerMessage::HandRecord {
            hand: n, record, ..
        } = record
        else {
            unreachable!()
        };
        assert_eq!(n, hand);
        let record = HandRecord::from_json(&record).expect("record");
        assert!(
            record
                .replay()
                .expect("replay")
                .matches(record.outcome.as_ref().expect("outcome"))
        );
    }
    for (_, client) in &mut table.clients {
        let ended = client
            .wait(|m| matches!(m, ServerMessage::MatchEnded { .. }))
            .await;
        let ServerMessage::MatchEnded {
            totals: wire,
            vp,
            sides,
            winner,
            ..
        } = ended
        else {
            unreachable!()
        };
        assert_eq!(sides, ["S", "N"]);
        assert_eq!(wire, totals.to_vec());
        let vp = vp.expect("a match by hands is scored in VP");
        assert_eq!(u32::from(vp[0]) + u32::from(vp[1]), 20);
        assert_eq!(winner.is_none(), totals[0] == totals[1]);
        assert_contiguous(client);
    }
    // A finished table leaves the lobby's list, and lingers for its players' sync.
    let c = &mut table.clients[0].1;
    let reply = c.request(|id| ClientMessage::ListTables { id }).await;
    let ServerMessage::Tables { tables, .. } = reply else {
        panic!()
    };
    assert!(!tables.iter().any(|t| t.table == table.id), "{tables:?}");
    let (id, last_seq) = (table.id.clone(), c.seqs().last().copied().unwrap_or(0));
    c.ok(|i| ClientMessage::Sync {
        id: i,
        table: id,
        last_seq,
    })
    .await;
    server.stop().await;
}

#[tokio::test]
async fn binary_frames_play_like_text_frames() {
    let server = TestServer::start().await;
    let (mut c, _) = Client::connect_as(server.addr, "bin", None, true).await;
    let reply = c
        .request(|id| ClientMessage::QuickPlay {
            id,
            preset: Some("feburit".into()),
            players: Some(2),
        })
        .await;
    assert!(matches!(reply, ServerMessage::Seated { .. }), "{reply:?}");
    let snapshot = c.next_event().await;
    assert!(
        matches!(snapshot, ServerMessage::Snapshot { .. }),
        "{snapshot:?}"
    );
    // A second quick player lands at the same table.
    let mut d = server.client("text").await;
    let reply2 = d
        .request(|id| ClientMessage::QuickPlay {
            id,
            preset: Some("feburit".into()),
            players: Some(2),
        })
        .await;
    let (ServerMessage::Seated { table: t1, .. }, ServerMessage::Seated { table: t2, .. }) =
        (&reply, &reply2)
    else {
        panic!("{reply2:?}")
    };
    assert_eq!(t1, t2);
    server.stop().await;
}

/// Quick play does not seat a newcomer beside players who are all gone (their tab closed, their
/// seat waiting out the grace): it picks another table, or starts one.
#[tokio::test]
async fn quick_play_passes_over_a_table_whose_players_are_gone() {
    let server = TestServer::start().await;
    let quick = |id| ClientMessage::QuickPlay {
        id,
        preset: Some("fitab".into()),
        players: Some(2),
    };
    let mut gone = server.client("gone").await;
    let ServerMessage::Seated {
        table: deserted, ..
    } = gone.request(quick).await
    else {
        panic!("quick play")
    };
    drop(gone);
    // Once the table has heard of the closed connection (the seat waits out the grace).
    wait_for_seats(server.addr, &deserted, "the seat left", |seats| {
        seats.iter().any(|s| s.name.is_some() && !s.connected)
    })
    .await;
    let mut newcomer = server.client("newcomer").await;
    let ServerMessage::Seated { table, .. } = newcomer.request(quick).await else {
        panic!("quick play")
    };
    assert_ne!(table, deserted, "not beside a player who is gone");
    // A table with someone connected is still joined.
    let mut third = server.client("third").await;
    let ServerMessage::Seated { table: joined, .. } = third.request(quick).await else {
        panic!("quick play")
    };
    assert_eq!(joined, table);
    server.stop().await;
}

/// Between hands the next hand waits for every player's `ready` (at the latest the server's
/// `next_hand_delay`, here an hour): one ready is not enough, the second deals at once. A
/// `ready` while a hand is in play is refused.
#[tokio::test]
async fn the_next_hand_is_dealt_when_every_player_is_ready() {
    let server =
        TestServer::with(|c| c.next_hand_delay = std::time::Duration::from_secs(3600)).await;
    let mut table = Table::open(&server, settings("fitab", 2, Some(2), "off"), &["a", "b"]).await;
    let mut mirror = table.next_hand().await;
    let id = table.id.clone();
    let refused = table.clients[0]
        .1
        .request(|i| ClientMessage::Ready {
            id: i,
            table: id.clone(),
        })
        .await;
    assert!(
        matches!(&refused, ServerMessage::Error { code, .. } if ErrorCode::parse(code) == Some(ErrorCode::TableStarted)),
        "{refused:?}"
    );
    table.play_hand(&mut mirror, NoCheck).await;
    for (_, c) in &mut table.clients {
        c.wait(|m| matches!(m, ServerMessage::HandRecord { .. }))
            .await;
    }
    let (first, second) = (table.clients[0].0, table.clients[1].0);
    table
        .client(first)
        .ok(|i| ClientMessage::Ready {
            id: i,
            table: id.clone(),
        })
        .await;
    let other = table.client(second);
    other
        .wait(|m| matches!(m, ServerMessage::PlayerReady { seat, .. } if seat.0 == first))
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    other.barrier().await;
    assert!(
        !other
            .inbox
            .iter()
            .any(|m| matches!(m, ServerMessage::HandStarted { .. })),
        "no deal before everyone is ready"
    );
    other
        .ok(|i| ClientMessage::Ready {
            id: i,
            table: id.clone(),
        })
        .await;
    let started = table.clients[0]
        .1
        .wait(|m| matches!(m, ServerMessage::HandStarted { .. }))
        .await;
    assert!(
        matches!(started, ServerMessage::HandStarted { hand: 2, .. }),
        "{started:?}"
    );
}

/// A waiting table everyone has left closes: it leaves the table list and cannot be joined.
#[tokio::test]
async fn a_waiting_table_everyone_left_leaves_the_list() {
    let server = TestServer::start().await;
    let mut anna = server.client("anna").await;
    let created = anna
        .request(|id| ClientMessage::CreateTable {
            id,
            settings: settings("fitab", 4, Some(1), "off"),
            private: false,
            bots: None,
        })
        .await;
    let ServerMessage::TableCreated { table, .. } = created else {
        panic!("{created:?}")
    };
    let listed = |tables: &ServerMessage| match tables {
        ServerMessage::Tables { tables, .. } => tables.iter().any(|t| t.table == table),
        other => panic!("{other:?}"),
    };
    let before = anna.request(|id| ClientMessage::ListTables { id }).await;
    assert!(listed(&before), "a waiting table is listed");
    let id = table.clone();
    anna.ok(|i| ClientMessage::Leave { id: i, table: id }).await;
    let mut after = anna.request(|id| ClientMessage::ListTables { id }).await;
    for _ in 0..50 {
        if !listed(&after) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        after = anna.request(|id| ClientMessage::ListTables { id }).await;
    }
    assert!(!listed(&after), "the empty table left the list");
    let mut bruno = server.client("bruno").await;
    let id = table.clone();
    let refused = bruno
        .request(|i| ClientMessage::Join {
            id: i,
            table: Some(id),
            invite: None,
            seat: None,
        })
        .await;
    assert!(
        matches!(&refused, ServerMessage::Error { code, .. } if ErrorCode::parse(code) == Some(ErrorCode::UnknownTable)),
        "{refused:?}"
    );
}

/// A chat line follows the rule of names (PROTOCOL.md section 2): a bidi override or an
/// invisible character is refused with `invalid_text`; a clean line is trimmed and its runs of
/// spaces made one. The same `create_table` again at once (a double click) is refused.
#[tokio::test]
async fn a_chat_line_with_a_bidi_override_and_a_double_create_are_refused() {
    let server = TestServer::start().await;
    let mut anna = server.client("anna").await;
    let create = |id| ClientMessage::CreateTable {
        id,
        settings: settings("fitab", 4, Some(1), "off"),
        private: false,
        bots: None,
    };
    let created = anna.request(create).await;
    let ServerMessage::TableCreated { table, .. } = created else {
        panic!("{created:?}")
    };
    let twice = anna.request(create).await;
    assert!(
        matches!(&twice, ServerMessage::Error { code, .. } if ErrorCode::parse(code) == Some(ErrorCode::RepeatedCreate)),
        "{twice:?}"
    );
    for bad in ["ciao \u{202E}olleh\u{202C}", "a\u{200B}b", &"x".repeat(201)] {
        let t = table.clone();
        let reply = anna
            .request(|id| ClientMessage::Chat {
                id,
                table: t,
                text: Some(bad.to_owned()),
                phrase: None,
            })
            .await;
        assert!(
            matches!(&reply, ServerMessage::Error { code, .. } if ErrorCode::parse(code) == Some(ErrorCode::InvalidText)),
            "{bad:?}: {reply:?}"
        );
    }
    let t = table.clone();
    anna.ok(|id| ClientMessage::Chat {
        id,
        table: t,
        text: Some("  good   luck ".into()),
        phrase: None,
    })
    .await;
    let said = anna
        .wait(|m| matches!(m, ServerMessage::ChatMessage { .. }))
        .await;
    assert!(
        matches!(&said, ServerMessage::ChatMessage { text, .. } if text == "good luck"),
        "{said:?}"
    );
    server.stop().await;
}
