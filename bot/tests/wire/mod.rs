//! Reading the wire back: every rules event survives rules -> wire -> rules, and a seat's
//! knowledge folded from the wire equals the one folded from the rules events.

use burraco_protocol::codec::{from_json, to_json};
use burraco_protocol::convert::{EventContext, event_from_wire, event_to_wire};
use burraco_protocol::wire::ServerMessage;
use burraco_rules::{Config, DealSource, Game, Preset, Seat, SeatKnowledge, Seed};

#[test]
fn events_survive_the_wire_and_knowledge_matches() {
    for (i, config) in [
        Config::of(Preset::Fitab),
        Config::head_to_head(Preset::Feburit),
    ]
    .into_iter()
    .enumerate()
    {
        let players = config.players();
        let (mut game, mut events) = Game::new(
            config,
            players.seats()[0],
            DealSource::Seed(Seed([i as u8 + 3; 32])),
        )
        .unwrap();
        let mut direct: Vec<SeatKnowledge> = players
            .seats()
            .iter()
            .map(|&s| SeatKnowledge::new(config, s))
            .collect();
        let mut via_wire = direct.clone();
        let mut seq = 0;
        let mut bots: Vec<burraco_bot::SeatBot> = players
            .seats()
            .iter()
            .map(|&s| {
                burraco_bot::SeatBot::new(
                    config,
                    s,
                    burraco_bot::Level::Expert.strategy(1, Default::default()),
                    1,
                )
            })
            .collect();
        loop {
            for e in &events {
                seq += 1;
                let wire = event_to_wire(
                    e,
                    EventContext {
                        table: "t",
                        seq,
                        players,
                        hand: 1,
                        seed: None,
                    },
                );
                let back: ServerMessage = from_json(&to_json(&wire), usize::MAX).result.unwrap();
                let read = event_from_wire(&back, players).expect("a hand event");
                assert_eq!(&read, e);
                for k in &mut direct {
                    k.observe(e);
                }
                for k in &mut via_wire {
                    k.observe(&read);
                }
                for b in &mut bots {
                    b.observe(&read);
                }
            }
            assert_eq!(direct, via_wire);
            if game.is_over() {
                break;
            }
            let seat = game.on_turn();
            let bot = bots.iter_mut().find(|b| b.seat() == seat).unwrap();
            let action = bot.decide(&[]).expect("the seat on turn decides");
            events = game.act(seat, &action).unwrap();
        }
        assert!(game.result().is_some());
        let _ = Seat::ALL;
    }
}
