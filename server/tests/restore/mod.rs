//! A table rebuilt from a log that holds every kind of input: draws, pick-ups, opens, attaches
//! with a wild position, discards, clock expiries, a TIME OUT, a stallo, a pozzetto taken in
//! diretta and one con lo scarto. The log is what a killed server leaves on disk: the entries the
//! table appends, written here into the store of a data directory, with the players' sessions.
//! The real binary rebuilds the table from it; every seat's and a spectator's view must equal the
//! uninterrupted game's (the same inputs applied straight through by the rules), and play goes on
//! to the match's end, whose record holds every input once, in order.

use std::collections::BTreeSet;

use burraco_protocol::convert::{config_from_wire, meld_to_wire};
use burraco_protocol::log::{LoggedInput, SeatHolder, TableEntry};
use burraco_protocol::record::HandRecord;
use burraco_protocol::wire::{ClientMessage, HandSnapshot, ServerMessage, WireSeat};
use burraco_rules::{
    Action, Config, DealSource, Event, Game, Input, Match, Phase, Seat, Seed, Side, Viewer,
};
use burraco_server::log::TableLog;
use burraco_server::store::{Store, Write};

use crate::common::*;
use crate::crash::start_with;

const TABLE: &str = "t-restore";

/// A tiny deterministic generator for the test's policy.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The kinds of input (and of what an input did) the log must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Draw,
    PickUp,
    Open,
    AttachWithWildAt,
    Discard,
    ClockExpired,
    TimeOut,
    Stallo,
    PozzettoInDiretta,
    PozzettoConLoScarto,
}

fn kinds_of(input: &Input, events: &[Event]) -> Vec<Kind> {
    let mut kinds = match input {
        Input::Act { action, .. } => match action {
            Action::Draw => vec![Kind::Draw],
            Action::PickUp => vec![Kind::PickUp],
            Action::Open { .. } => vec![Kind::Open],
            Action::Attach {
                wild_at: Some(_), ..
            } => vec![Kind::AttachWithWildAt],
            Action::Attach { .. } => vec![],
            Action::Discard { .. } => vec![Kind::Discard],
        },
        Input::ClockExpired => vec![Kind::ClockExpired],
        Input::TimeOut => vec![Kind::TimeOut],
    };
    for event in events {
        match event {
            Event::Stallo { .. } => kinds.push(Kind::Stallo),
            Event::PozzettoTaken { in_diretta, .. } => kinds.push(if *in_diretta {
                Kind::PozzettoInDiretta
            } else {
                Kind::PozzettoConLoScarto
            }),
            _ => {}
        }
    }
    kinds
}

/// The match played straight through: every hand's inputs in order, the last hand unfinished.
struct Script {
    config: Config,
    first_dealer: Seat,
    /// Per hand: its dealer and inputs.
    hands: Vec<(Seat, Vec<Input>)>,
    /// The hand in play, with every input of the script applied.
    game: Game,
    matc: Match,
}

/// Plays hand after hand with a random policy that likes melding (attachments with a wild
/// position first), expiring a clock now and then, until the inputs so far hold every kind but
/// TIME OUT; the first hand is exchanges until the stallo ends it. Then, in the next hand, a
/// TIME OUT, and a few more inputs: the log stops there, mid-hand.
fn script(policy: u64) -> Option<Script> {
    let config = config_from_wire(&settings("fitab", 4, Some(8), "federation")).expect("config");
    let first_dealer = Seat::ALL[usize::from(SEED[0]) % 4];
    let mut matc = Match::new(config, first_dealer, false).expect("match");
    let mut rng = Rng(policy.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut seen = BTreeSet::new();
    let mut hands = Vec::new();
    for hand_index in 0..7 {
        let dealer = matc.dealer_of_next_hand()?;
        let (mut game, _) = Game::new(config, dealer, DealSource::Seed(Seed(SEED))).ok()?;
        let mut inputs = Vec::new();
        let all_but_time_out = seen.len() >= 9;
        let mut after_time_out = 0;
        while !game.is_over() {
            let input = if all_but_time_out && game.last_round().is_none() && inputs.len() >= 6 {
                Input::TimeOut
            } else if hand_index > 0 && game.phase() == Phase::Take && rng.below(40) == 0 {
                Input::ClockExpired
            } else {
                let action = choose(&game, hand_index == 0, &mut rng);
                Input::Act {
                    seat: game.on_turn(),
                    action,
                }
            };
            let events = game.apply(&input).ok()?;
            seen.extend(kinds_of(&input, &events));
            inputs.push(input);
            if game.last_round().is_some() {
                after_time_out += 1;
                if after_time_out == 4 && !game.is_over() {
                    hands.push((dealer, inputs));
                    return (seen.len() == 10).then_some(Script {
                        config,
                        first_dealer,
                        hands,
                        game,
                        matc,
                    });
                }
            }
            if inputs.len() > 3000 {
                return None;
            }
        }
        if hand_index == 0 && !seen.contains(&Kind::Stallo) {
            return None;
        }
        matc.record_hand(game.result()?.1).ok()?;
        hands.push((dealer, inputs));
    }
    None
}

/// The first hand: single-card exchanges (pick up the one-card pile, discard) until the stallo.
/// Later hands: a melding random policy.
fn choose(game: &Game, exchanging: bool, rng: &mut Rng) -> Action {
    if game.phase() == Phase::Take {
        let takes = game.legal_takes();
        let pick = takes.contains(&Action::PickUp) && (exchanging || rng.below(3) == 0);
        return if pick || !takes.contains(&Action::Draw) {
            Action::PickUp
        } else {
            Action::Draw
        };
    }
    if !exchanging {
        let attachments = game.legal_attachments();
        if let Some(wild) = attachments.iter().find(|a| {
            matches!(
                a,
                Action::Attach {
                    wild_at: Some(_),
                    ..
                }
            )
        }) {
            return wild.clone();
        }
        let openings = game.legal_openings();
        if !openings.is_empty() && rng.below(2) == 0 {
            return openings[rng.below(openings.len())].clone();
        }
        if !attachments.is_empty() && rng.below(2) == 0 {
            return attachments[rng.below(attachments.len())].clone();
        }
    }
    let discards = game.legal_discards();
    Action::Discard {
        card: discards[rng.below(discards.len())],
    }
}

/// What a viewer should see of the hand in play, from the uninterrupted game.
fn expected_view(game: &Game, number: u32, viewer: Viewer) -> HandSnapshot {
    let players = game.players();
    let v = game.view(viewer);
    HandSnapshot {
        number,
        dealer: WireSeat(v.dealer),
        on_turn: WireSeat(v.on_turn),
        phase: match v.phase {
            Phase::Take => "take",
            Phase::Play => "play",
            Phase::Over => "over",
        }
        .into(),
        hand: v.hand,
        melds: v
            .melds
            .iter()
            .map(|m| meld_to_wire(m.id, m.side, players, &m.meld))
            .collect(),
        pile: v.pile,
        tallone: v.tallone as u8,
        pozzetti: v
            .pozzetti
            .iter()
            .map(|p| p.map(|side| players.side_label(side).to_owned()))
            .collect(),
        picked_single_card: v.picked_single_card,
        commitment: v.commitment.map(|c| burraco_protocol::cards::to_hex(&c)),
        move_clock_left_ms: None,
        last_round: v.last_round,
        stallo_exchanges: v.stallo_exchanges,
        stallo_must_draw: v.stallo_must_draw.map(WireSeat),
    }
}

/// Writes the script as the table's log (the entries the live table appends), and a session per
/// player, into a store in `dir`.
async fn write_log(dir: &std::path::Path, script: &Script) {
    let (store, writer) = Store::open(dir, false).expect("store");
    let settings = settings("fitab", 4, Some(8), "federation");
    let mut entries = vec![TableEntry::Created {
        settings: serde_json::to_string(&settings).expect("json"),
        private: false,
        invite: None,
        bots: None,
        created_ms: 1,
    }];
    let mut sessions = Vec::new();
    for seat in Seat::ALL {
        let player = format!("p-{}", seat.code());
        entries.push(TableEntry::Seat {
            seat: seat.index() as u8,
            holder: Some(SeatHolder {
                player: player.clone(),
                name: format!("name-{}", seat.code()),
                bot: None,
            }),
        });
        sessions.push(Write::Session {
            key: burraco_server::directory::ResumeKey::of(&format!("token-{}", seat.code()))
                .as_str()
                .to_owned(),
            session: burraco_server::Session {
                player,
                name: format!("name-{}", seat.code()),
                account: None,
            },
        });
    }
    entries.push(TableEntry::MatchStarted {
        first_dealer: script.first_dealer.index() as u8,
        round_started_ms: burraco_server::ids::unix_ms(),
    });
    let mut seq = 10;
    for (number, (dealer, inputs)) in script.hands.iter().enumerate() {
        entries.push(TableEntry::Dealt {
            hand: number as u32 + 1,
            dealer: dealer.index() as u8,
            seed: SEED,
            seq,
        });
        for input in inputs {
            seq += 3;
            entries.push(TableEntry::Input {
                after_ms: 100,
                input: LoggedInput::from_rules(input),
            });
        }
        // Finished hands have their record entry too (the restore does not need it).
        if number + 1 < script.hands.len() {
            entries.push(TableEntry::HandFinished {
                hand: number as u32 + 1,
                record: "{}".into(),
                names: Vec::new(),
            });
        }
    }
    let encoded = entries.iter().map(TableEntry::encode).collect();
    store.append(TABLE, 0, encoded).await.expect("log written");
    store.write(sessions).await.expect("sessions written");
    drop(store);
    writer.join();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_with_every_kind_of_input_rebuilds_the_table_and_play_goes_on() {
    let script = (0..20_000)
        .find_map(script)
        .expect("a policy whose match holds every kind of input");
    let data = tempfile::tempdir().expect("temp dir");
    write_log(data.path(), &script).await;
    let number = script.hands.len() as u32;

    let (_server, addr) = start_with(data.path(), &[]);
    let mut clients = Vec::new();
    for seat in Seat::ALL {
        let token = format!("token-{}", seat.code());
        let (mut c, welcome) =
            Client::connect(addr, &format!("name-{}", seat.code()), Some(&token)).await;
        assert!(
            matches!(welcome, ServerMessage::Welcome { resumed: true, .. }),
            "{welcome:?}"
        );
        c.ok(|id| ClientMessage::Sync {
            id,
            table: TABLE.into(),
            last_seq: 0,
        })
        .await;
        clients.push((seat, c));
    }
    let mut spectator = Client::connect(addr, "watcher", None).await.0;
    spectator
        .ok(|id| ClientMessage::Spectate {
            id,
            table: TABLE.into(),
        })
        .await;
    let viewers = clients
        .iter_mut()
        .map(|(seat, c)| (Viewer::Seat(*seat), c))
        .chain([(Viewer::Spectator, &mut spectator)]);
    for (viewer, c) in viewers {
        let ServerMessage::Snapshot { view: snapshot, .. } = c
            .wait(|m| matches!(m, ServerMessage::Snapshot { .. }))
            .await
        else {
            unreachable!()
        };
        let mut hand = snapshot.hand.clone().expect("the hand in play");
        assert!(hand.move_clock_left_ms.is_some(), "the turn's clock runs");
        hand.move_clock_left_ms = None;
        let mut want = expected_view(&script.game, number, viewer);
        if let (Some(got), Some(want)) = (hand.hand.as_mut(), want.hand.as_mut()) {
            got.sort();
            want.sort();
        }
        assert_eq!(hand, want, "{viewer:?}'s view of the rebuilt hand");
        assert_eq!(snapshot.totals, script.matc.totals().to_vec(), "totals");
        assert_eq!(snapshot.hands_played, number - 1);
        assert!(snapshot.time_out, "the TIME OUT is remembered");
        assert_eq!(snapshot.status, "playing");
    }

    // Play goes on: the rest of the last round, then the match ends on its TIME OUT.
    let mut table = Table {
        id: TABLE.into(),
        config: script.config,
        clients,
    };
    let mut mirror = Mirror {
        game: script.game.clone(),
    };
    table.play_hand(&mut mirror, NoCheck).await;
    let c = &mut table.clients[0].1;
    let record = c
        .wait(|m| matches!(m, ServerMessage::HandRecord { hand, .. } if *hand == number))
        .await;
    let ServerMessage::HandRecord { record, .. } = record else {
        unreachable!()
    };
    let record = HandRecord::from_json(&record).expect("record");
    let replayed = record.replay().expect("the record replays");
    assert!(replayed.matches(record.outcome.as_ref().expect("outcome")));
    let logged = &script.hands.last().expect("a hand").1;
    let recorded: Vec<Input> = record.inputs.iter().map(|i| i.input.to_rules()).collect();
    assert_eq!(
        &recorded[..logged.len()],
        &logged[..],
        "every logged input once, in order"
    );
    assert_eq!(
        replayed.game, mirror.game,
        "the record is the hand as played"
    );
    let ended = c
        .wait(|m| matches!(m, ServerMessage::MatchEnded { .. }))
        .await;
    let ServerMessage::MatchEnded { totals, .. } = ended else {
        unreachable!()
    };
    let mut matc = script.matc;
    matc.time_out();
    matc.record_hand(mirror.game.result().expect("over").1)
        .expect("recorded");
    assert_eq!(totals, matc.totals().to_vec());
    assert_eq!(Side::BOTH.len(), totals.len());
}
