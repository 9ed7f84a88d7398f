//! Rules to wire and back: over whole hands, every event reads back as itself, every seat's and
//! the spectator's view reads back from its snapshot (but for what the wire does not carry), and
//! every action a seat takes is the same action after a trip through its client message.

use burraco_protocol::codec::{MAX_CLIENT_FRAME, from_json, to_json};
use burraco_protocol::convert::{
    EventContext, cards_held, config_to_wire, event_from_wire, event_to_wire, hand_to_wire,
    view_from_wire,
};
use burraco_protocol::wire::{ClientMessage, SeatState, ServerMessage, TableSnapshot, WireSeat};
use burraco_rules::{Config, DealSource, Event, Game, Preset, Seed, TableView, Viewer};

/// A hand as it went: the state after each step (the deal, then each action) and its events.
type Played = Vec<(Game, Vec<Event>)>;

/// Whole hands of every preset, both table sizes, moves picked deterministically from the legal
/// ones (melding often, so melds, pozzetti and closings appear).
fn hands() -> Vec<(Config, Played)> {
    let mut out = Vec::new();
    for (i, config) in [
        Config::of(Preset::Fitab),
        Config::of(Preset::Feburit),
        Config::of(Preset::Fedibur),
        Config::head_to_head(Preset::Fitab),
        Config::head_to_head(Preset::Feburit),
    ]
    .into_iter()
    .enumerate()
    {
        let first = config.players().seats()[0];
        let (mut game, events) =
            Game::new(config, first, DealSource::Seed(Seed([i as u8 + 11; 32]))).unwrap();
        let mut steps = vec![(game.clone(), events)];
        let mut n = 0usize;
        while !game.is_over() && n < 2_000 {
            let legal = game.legal_actions();
            // The last legal actions are the melds and attachments, the first the takes.
            let action = &legal[(n * 7 + legal.len() - 1) % legal.len()];
            let seat = game.on_turn();
            let events = game.act(seat, action).expect("a legal action");
            steps.push((game.clone(), events));
            n += 1;
        }
        assert!(game.is_over(), "the hand ends");
        out.push((config, steps));
    }
    out
}

#[test]
fn every_event_reads_back_as_itself() {
    let mut seq = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for (config, steps) in hands() {
        let players = config.players();
        for (_, events) in &steps {
            for event in events {
                seq += 1;
                let seed = [5; 32];
                let cx = EventContext {
                    table: "t",
                    seq,
                    players,
                    hand: 2,
                    seed: Some(&seed),
                };
                let wire = event_to_wire(event, cx);
                kinds.insert(wire.kind());
                let back: ServerMessage = from_json(&to_json(&wire), usize::MAX).result.unwrap();
                assert_eq!(event_from_wire(&back, players).as_ref(), Some(event));
            }
        }
    }
    for kind in [
        "opened",
        "attached",
        "pozzetto_taken",
        "picked_up",
        "hand_ended",
    ] {
        assert!(kinds.contains(kind), "the hands have a {kind} event");
    }
}

fn snapshot_of(config: Config, view: &TableView) -> TableSnapshot {
    TableSnapshot {
        settings: config_to_wire(&config),
        status: "playing".into(),
        you: match view.viewer {
            Viewer::Seat(seat) => Some(WireSeat(seat)),
            Viewer::Spectator => None,
        },
        seats: config
            .players()
            .seats()
            .iter()
            .map(|&seat| SeatState {
                seat: WireSeat(seat),
                name: Some("x".into()),
                bot: false,
                connected: true,
                ready: true,
                cards: cards_held(view, seat),
            })
            .collect(),
        hands_played: 0,
        sides: vec!["NS".into(), "EW".into()],
        totals: vec![0, 0],
        round_clock_left_ms: None,
        time_out: false,
        hand: Some(hand_to_wire(view, 1, Some(1_000))),
    }
}

#[test]
fn every_view_reads_back_from_its_snapshot() {
    for (config, steps) in hands() {
        let viewers = config
            .players()
            .seats()
            .iter()
            .map(|&s| Viewer::Seat(s))
            .chain([Viewer::Spectator]);
        for (game, _) in &steps {
            for viewer in viewers.clone() {
                let view = game.view(viewer);
                let snapshot = snapshot_of(config, &view);
                let message = ServerMessage::Snapshot {
                    table: "t".into(),
                    seq: 1,
                    view: Box::new(snapshot),
                };
                let back: ServerMessage = from_json(&to_json(&message), usize::MAX).result.unwrap();
                let ServerMessage::Snapshot { view: snapshot, .. } = back else {
                    panic!("a snapshot");
                };
                let (read_config, read) = view_from_wire(&snapshot, viewer).expect("readable");
                assert_eq!(read_config, config);
                let expected = TableView {
                    move_clock: None,
                    result: None,
                    final_hands: None,
                    ..view
                };
                assert_eq!(read, Some(expected));
            }
        }
    }
}

#[test]
fn every_action_reads_back_from_its_client_message() {
    for (_, steps) in hands() {
        for (game, _) in &steps {
            for action in game.legal_actions() {
                let message = ClientMessage::action(&action, 4, "t-1");
                let back: ClientMessage = from_json(&to_json(&message), MAX_CLIENT_FRAME)
                    .result
                    .unwrap();
                let read = back.into_table_action().expect("a move");
                assert_eq!((read.id, read.table.as_str()), (4, "t-1"));
                assert_eq!(read.action, action);
            }
        }
    }
}
