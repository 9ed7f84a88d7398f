//! A server that keeps no ratings (a cluster node started without `--database-url`) refuses
//! rated play with the typed `rated_unavailable` (protocol 1.7), whoever asks, before anything is
//! created; a connection whose hello said 1.6 hears what it heard before (a guest:
//! `account_required`), and casual play goes on.

use burraco_protocol::wire::{ClientMessage, ServerMessage, WireTournamentSettings};

use crate::cluster::{Nats, Node};
use crate::common::{Client, settings};

/// The answers to the three rated requests: a rated table, rated quick play, a rated tournament.
pub async fn rated_requests(client: &mut Client) -> Vec<ServerMessage> {
    let table = client
        .request(|id| ClientMessage::CreateRatedTable {
            id,
            settings: settings("fitab", 2, Some(1), "off"),
            private: false,
        })
        .await;
    let quick = client
        .request(|id| ClientMessage::QuickPlayRated {
            id,
            preset: Some("fitab".into()),
            players: Some(2),
        })
        .await;
    let tournament = client
        .request(|id| ClientMessage::CreateRatedTournament {
            id,
            settings: Box::new(WireTournamentSettings {
                name: "rated cup".into(),
                kind: "singles".into(),
                rounds: vec!["danish".into()],
                hands: 1,
                preset: "fitab".into(),
                max_entrants: Some(4),
                ..WireTournamentSettings::default()
            }),
        })
        .await;
    vec![table, quick, tournament]
}

fn code_of(reply: &ServerMessage) -> &str {
    let ServerMessage::Error { code, .. } = reply else {
        panic!("a refusal: {reply:?}")
    };
    code
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_without_a_database_refuses_rated_play_as_rated_unavailable() {
    let nats = Nats::start(1);
    let node = Node::start(&nats, "node-a");
    let mut new = Client::connect_saying(node.addr, "Gianni", None, false, "1.7")
        .await
        .0;
    for reply in rated_requests(&mut new).await {
        assert_eq!(code_of(&reply), "rated_unavailable", "{reply:?}");
    }
    // The same over the binary encoding: the code is the wire's text either way.
    let mut binary = Client::connect_saying(node.addr, "Bina", None, true, "1.7")
        .await
        .0;
    for reply in rated_requests(&mut binary).await {
        assert_eq!(code_of(&reply), "rated_unavailable", "{reply:?}");
    }
    // A 1.6 connection hears what it heard before.
    let mut old = Client::connect_saying(node.addr, "Olga", None, false, "1.6")
        .await
        .0;
    for reply in rated_requests(&mut old).await {
        assert_eq!(code_of(&reply), "account_required", "{reply:?}");
    }
    // Casual play goes on.
    let created = new
        .request(|id| ClientMessage::CreateTable {
            id,
            settings: settings("fitab", 2, Some(1), "off"),
            private: false,
            bots: None,
        })
        .await;
    assert!(
        matches!(created, ServerMessage::TableCreated { .. }),
        "{created:?}"
    );
}
