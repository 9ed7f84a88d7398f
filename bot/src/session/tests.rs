//! The session's unit tests: the refusal ladder, `rate_limited`, seat races, readies.

use burraco_protocol::ErrorCode;
use burraco_protocol::convert::{cards_held, config_to_wire, hand_to_wire};
use burraco_protocol::wire::{SeatState, TableSnapshot};
use burraco_rules::{DealSource, Game, Preset, Seed, Viewer};

use super::refusals::{RETRIES_AT_ONCE_PER_TURN, SEAT_RACES_ASKED_AT_ONCE};
use super::*;
use crate::strategy::RandomLegal;

/// A fresh hand's snapshot as `seat`, the seat on turn, receives it once it has drawn (so it
/// has a dozen moves to try, not two).
fn snapshot_on_turn() -> (Seat, ServerMessage) {
    let config = Config::of(Preset::Fitab);
    let first = config.players().seats()[0];
    let (mut game, _) = Game::new(config, first, DealSource::Seed(Seed([4; 32]))).unwrap();
    let seat = game.on_turn();
    game.act(seat, &Action::Draw).unwrap();
    let view = game.view(Viewer::Seat(seat));
    let snapshot = TableSnapshot {
        settings: config_to_wire(&config),
        status: "playing".into(),
        you: Some(WireSeat(seat)),
        seats: config
            .players()
            .seats()
            .iter()
            .map(|&s| SeatState {
                seat: WireSeat(s),
                name: None,
                bot: true,
                connected: true,
                ready: true,
                cards: cards_held(&view, s),
            })
            .collect(),
        hands_played: 0,
        sides: vec!["NS".into(), "EW".into()],
        totals: vec![0, 0],
        round_clock_left_ms: None,
        time_out: false,
        hand: Some(hand_to_wire(&view, 1, None)),
    };
    let message = ServerMessage::Snapshot {
        table: "t".into(),
        seq: 5,
        view: Box::new(snapshot),
    };
    (seat, message)
}

fn seated_on_turn() -> Session {
    let (seat, snapshot) = snapshot_on_turn();
    let factory: StrategyFactory = Box::new(|| Box::new(RandomLegal::new(1)));
    let mut session = Session::seated("bot", "t", seat, factory, 1);
    let mut out = Vec::new();
    session.handle(&snapshot, &mut out);
    assert!(out.is_empty(), "a seated session asks for nothing: {out:?}");
    session
}

fn refuse(session: &mut Session, id: u64, code: ErrorCode) -> Vec<ClientMessage> {
    let mut out = Vec::new();
    session.handle(&ServerMessage::error(Some(id), code, "no", None), &mut out);
    out
}

/// A seat the table gave: the session plays from the snapshot; refusals climb the ladder (a
/// snapshot asked for after four, a pause after eight, a retry on demand); `not_seated` ends it.
#[test]
fn a_seated_session_climbs_the_refusal_ladder_and_never_spins() {
    let mut session = seated_on_turn();
    assert!(session.ready_to_act());
    for refusal in 1..=8 {
        let action = session.poll_action().expect("an action to try");
        let id = action.id().expect("a request");
        assert!(action.table_action().is_some(), "{action:?}");
        let out = refuse(&mut session, id, ErrorCode::IllegalAction);
        if refusal == 4 {
            let [ClientMessage::Sync { id, last_seq, .. }] = out.as_slice() else {
                panic!("a sync after four refusals, not {out:?}");
            };
            assert_eq!(*last_seq, 5);
            let mut none = Vec::new();
            session.handle(&ServerMessage::Ok { id: *id }, &mut none);
        } else {
            assert!(out.is_empty(), "{out:?}");
        }
    }
    assert!(session.is_stuck());
    assert!(!session.ready_to_act());
    assert_eq!(session.poll_action(), None);
    assert_eq!(session.stats().refused, 8);
    assert_eq!(session.stats().illegal, 8);
    let mut out = Vec::new();
    session.retry(&mut out);
    assert!(matches!(out.as_slice(), [ClientMessage::Sync { .. }]));
    assert!(!session.is_stuck());

    let mut session = seated_on_turn();
    let id = session
        .poll_action()
        .and_then(|a| a.id())
        .expect("an action");
    assert!(refuse(&mut session, id, ErrorCode::NotSeated).is_empty());
    assert_eq!(session.stage(), Stage::Unseated);
    assert!(session.is_finished());
}

/// `rate_limited` is no verdict on a move: the same move is asked again at once under a new
/// id, however often, and the ladder does not climb (it did, and ran connected bots' clocks
/// out: issue 32). A sync and a ready refused so are asked again too.
#[test]
fn a_rate_limited_request_is_asked_again_and_no_move_counts_refused() {
    let mut session = seated_on_turn();
    let first = session.poll_action().expect("an action");
    let move_of = |m: &ClientMessage| m.table_action().map(|a| a.action);
    let mut id = first.id().expect("a request");
    for _ in 0..20 {
        let out = refuse(&mut session, id, ErrorCode::RateLimited);
        let [again] = out.as_slice() else {
            panic!("asked again: {out:?}")
        };
        assert_eq!(move_of(again), move_of(&first), "the same move");
        assert_ne!(again.id(), Some(id));
        id = again.id().expect("a request");
        assert_eq!(session.poll_action(), None, "still in flight");
    }
    assert!(!session.is_stuck());
    assert_eq!(session.stats().refused, 0);
    assert_eq!(session.stats().rate_limited, 20);
    // Refused for good: the ladder's first step, another move.
    assert!(refuse(&mut session, id, ErrorCode::IllegalAction).is_empty());
    let next = session.poll_action().expect("another move");
    assert_ne!(move_of(&next), move_of(&first));
    assert_eq!(session.stats().refused, 1);
    let mut id = next.id().expect("a request");
    let sync = loop {
        let out = refuse(&mut session, id, ErrorCode::IllegalAction);
        if let [sync @ ClientMessage::Sync { .. }] = out.as_slice() {
            break sync.clone();
        }
        id = session.poll_action().and_then(|a| a.id()).expect("a move");
    };
    let out = refuse(
        &mut session,
        sync.id().expect("an id"),
        ErrorCode::RateLimited,
    );
    assert!(
        matches!(out.as_slice(), [again @ ClientMessage::Sync { .. }] if again.id() != sync.id()),
        "{out:?}"
    );

    let (seat, snapshot) = snapshot_on_turn();
    let mut session = seated_by_request(seat, &snapshot);
    let mut out = Vec::new();
    session.handle(&hand_record(6), &mut out);
    let [ClientMessage::Ready { id, .. }] = out.as_slice() else {
        panic!("a ready: {out:?}")
    };
    let out = refuse(&mut session, *id, ErrorCode::RateLimited);
    assert!(matches!(out.as_slice(), [ClientMessage::Ready { id: again, .. }] if again != id));
}

/// A client whose every move was refused starts over from a snapshot at once, three times a
/// turn; then it waits (the ladder's pause) until the turn changes.
#[test]
fn a_stuck_client_starts_over_at_once_a_few_times_a_turn() {
    let mut session = seated_on_turn();
    let mut snapshots = 0;
    loop {
        let mut out = Vec::new();
        if let Some(action) = session.poll_action() {
            let id = action.id().expect("a request");
            out = refuse(&mut session, id, ErrorCode::IllegalAction);
        }
        session.unstick(&mut out);
        match out.as_slice() {
            [] if session.is_stuck() => break,
            [] => {}
            [ClientMessage::Sync { id, .. }] => {
                snapshots += 1;
                let mut none = Vec::new();
                session.handle(&ServerMessage::Ok { id: *id }, &mut none);
            }
            other => panic!("{other:?}"),
        }
        assert!(snapshots < 20, "it spins");
    }
    // Each round of eight refusals asks one at the fourth; each of the first three ends
    // with a start over.
    assert_eq!(snapshots, 2 * (1 + RETRIES_AT_ONCE_PER_TURN) - 1);
    assert!(!session.unstick(&mut Vec::new()), "not again this turn");
}

/// The split decision (for a runtime that thinks elsewhere) is the same as `poll_action`.
#[test]
fn thinking_elsewhere_gives_the_same_action() {
    let mut here = seated_on_turn();
    let mut elsewhere = seated_on_turn();
    let thinking = elsewhere.think().expect("on turn");
    assert!(!elsewhere.ready_to_act(), "the bot is out thinking");
    let thought = std::thread::spawn(move || thinking.run()).join().unwrap();
    assert_eq!(elsewhere.decided(thought), here.poll_action());
}

fn quick_play() -> Session {
    let request = SeatRequest::QuickPlay {
        preset: "fitab".into(),
        players: 4,
    };
    Session::new(
        "b",
        request,
        1,
        Box::new(|| Box::new(RandomLegal::new(1))),
        1,
    )
}

/// Welcomed, the session asks for a seat; returns that request's id.
fn seat_request(session: &mut Session) -> u64 {
    session.hello();
    let welcome = ServerMessage::Welcome {
        version: protocol_version(),
        session: "token".into(),
        player: "p".into(),
        name: "b".into(),
        resumed: false,
        seats: vec![],
    };
    let mut out = Vec::new();
    session.handle(&welcome, &mut out);
    match out.as_slice() {
        [ClientMessage::QuickPlay { id, .. }] => *id,
        other => panic!("a quick play, not {other:?}"),
    }
}

/// Rated quick play asks `quick_play_rated` once welcomed, and asks again after losing a
/// race for the last seat, as casual quick play does.
#[test]
fn rated_quick_play_asks_for_a_rated_seat_and_again_after_a_lost_race() {
    let mut session = Session::new(
        "b",
        SeatRequest::QuickPlayRated {
            preset: "fitab".into(),
            players: 2,
        },
        1,
        Box::new(|| Box::new(RandomLegal::new(1))),
        1,
    );
    session.hello();
    let welcome = ServerMessage::Welcome {
        version: protocol_version(),
        session: "token".into(),
        player: "p".into(),
        name: "b".into(),
        resumed: false,
        seats: vec![],
    };
    let mut out = Vec::new();
    session.handle(&welcome, &mut out);
    let [ClientMessage::QuickPlayRated { id, players, .. }] = out.as_slice() else {
        panic!("a rated quick play, not {out:?}")
    };
    assert_eq!(*players, Some(2));
    let lost = ServerMessage::error(Some(*id), ErrorCode::TableFull, "full", None);
    let mut again = Vec::new();
    session.handle(&lost, &mut again);
    assert!(
        matches!(again.as_slice(), [ClientMessage::QuickPlayRated { .. }]),
        "{again:?}"
    );
}

/// Races lost in a row past the first two, and `rate_limited`, wait for the driver's pause
/// (asking at once spun past a token's request limit, and the bot stopped on it).
#[test]
fn lost_races_in_a_row_and_rate_limits_wait_for_a_pause() {
    let mut session = quick_play();
    let mut id = seat_request(&mut session);
    for race in 1..=SEAT_RACES_ASKED_AT_ONCE {
        let lost = ServerMessage::error(Some(id), ErrorCode::TableFull, "full", None);
        let mut again = Vec::new();
        session.handle(&lost, &mut again);
        let [ClientMessage::QuickPlay { id: next, .. }] = again.as_slice() else {
            panic!("race {race}: asked again at once, not {again:?}")
        };
        id = *next;
        assert_eq!(session.seat_request_pause(), None);
    }
    let lost = ServerMessage::error(Some(id), ErrorCode::SeatTaken, "taken", None);
    let mut again = Vec::new();
    session.handle(&lost, &mut again);
    assert!(again.is_empty(), "{again:?}");
    assert_eq!(
        session.seat_request_pause(),
        Some(std::time::Duration::from_millis(750))
    );
    let Some(ClientMessage::QuickPlay { id: next, .. }) = session.seat_request_after_pause() else {
        panic!("the seat request after the pause")
    };
    assert!(session.seat_request_after_pause().is_none(), "asked once");
    let limited = ServerMessage::error(Some(next), ErrorCode::RateLimited, "slow", None);
    session.handle(&limited, &mut again);
    assert!(again.is_empty(), "{again:?}");
    assert_ne!(session.stage(), Stage::Failed);
    assert!(session.seat_request_pause().is_some());
    assert!(session.seat_request_after_pause().is_some());
}

/// A quick-play session seated at table `t` in `seat`, with the snapshot `snapshot` read.
fn seated_by_request(seat: Seat, snapshot: &ServerMessage) -> Session {
    let mut session = quick_play();
    let id = seat_request(&mut session);
    let mut out = Vec::new();
    let seated = ServerMessage::Seated {
        id,
        table: "t".into(),
        seat: WireSeat(seat),
    };
    session.handle(&seated, &mut out);
    assert!(matches!(out.as_slice(), [ClientMessage::Ready { .. }]));
    out.clear();
    session.handle(snapshot, &mut out);
    assert!(out.is_empty(), "{out:?}");
    session
}

fn hand_record(seq: u64) -> ServerMessage {
    ServerMessage::HandRecord {
        table: "t".into(),
        seq,
        hand: 1,
        record: "{}".into(),
    }
}

/// Between hands a client says ready at once (the table deals when all have); the refusal of
/// that ready once the match is over is expected and changes nothing. A seat the table gave
/// says nothing: the table readies it.
#[test]
fn a_client_readies_between_hands_and_shrugs_off_the_match_end() {
    let (seat, snapshot) = snapshot_on_turn();
    let mut session = seated_by_request(seat, &snapshot);
    let mut out = Vec::new();
    session.handle(&hand_record(6), &mut out);
    let [ClientMessage::Ready { id, table }] = out.as_slice() else {
        panic!("a ready after the hand's record, not {out:?}");
    };
    assert_eq!(table, "t");
    let id = *id;
    out.clear();
    let before = session.stats();
    let refused = ServerMessage::error(Some(id), ErrorCode::TableStarted, "over", None);
    session.handle(&refused, &mut out);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(session.stats(), before);
    assert_eq!(session.last_error(), None);
    assert_eq!(session.stage(), Stage::Seated);
    assert!(session.ready_to_act(), "still the seat's turn to play");

    let mut seated = seated_on_turn();
    seated.handle(&hand_record(6), &mut out);
    assert!(
        out.is_empty(),
        "a seat the table gave asks for nothing: {out:?}"
    );
}

/// A session that comes back between hands without the hand's record (a snapshot instead)
/// says the ready it missed, unless the snapshot shows it said it already.
#[test]
fn a_snapshot_between_hands_gets_the_missed_ready() {
    let (seat, snapshot) = snapshot_on_turn();
    let between = |ready: bool| {
        let ServerMessage::Snapshot { table, seq, view } = &snapshot else {
            unreachable!()
        };
        let mut view = view.clone();
        view.status = "between_hands".into();
        for s in &mut view.seats {
            s.ready = ready && s.seat.0 == seat;
        }
        ServerMessage::Snapshot {
            table: table.clone(),
            seq: seq + 10,
            view,
        }
    };
    let mut session = seated_by_request(seat, &snapshot);
    let mut out = Vec::new();
    session.handle(&between(true), &mut out);
    assert!(out.is_empty(), "{out:?}");
    session.handle(&between(false), &mut out);
    assert!(
        matches!(out.as_slice(), [ClientMessage::Ready { .. }]),
        "{out:?}"
    );
}

/// A lost race for the last seat is retried; any other refusal, including a code this
/// version does not know, ends the attempt without a panic, its text kept.
#[test]
fn seat_refusals_are_read_by_code() {
    let mut session = quick_play();
    let id = seat_request(&mut session);
    let mut out = Vec::new();
    let full = ServerMessage::error(Some(id), ErrorCode::TableFull, "full", None);
    session.handle(&full, &mut out);
    assert!(matches!(out.as_slice(), [ClientMessage::QuickPlay { .. }]));
    assert_eq!(session.stage(), Stage::Seating);

    let mut session = quick_play();
    let id = seat_request(&mut session);
    let newer = ServerMessage::Error {
        id: Some(id),
        code: "table_on_fire".into(),
        message: "a code from a newer server".into(),
        rule: None,
    };
    let mut out = Vec::new();
    session.handle(&newer, &mut out);
    assert!(out.is_empty());
    assert_eq!(session.stage(), Stage::Failed);
    assert_eq!(
        session.last_error(),
        Some("table_on_fire: a code from a newer server")
    );
}

/// 1.9: quick play moved the session's players to another table: it joins the seat held
/// there, then readies as after any seat; a refused join (the seat went) asks for a seat
/// again, and a move from a table that is not its own changes nothing.
#[test]
fn a_session_moved_by_quick_play_joins_its_held_seat_and_readies() {
    let moved = |from: &str| ServerMessage::QuickPlayMoved {
        from: from.into(),
        table: "t2".into(),
        seat: WireSeat(Seat::East),
    };
    let mut session = quick_play();
    let id = seat_request(&mut session);
    let mut out = Vec::new();
    let seated = ServerMessage::Seated {
        id,
        table: "t".into(),
        seat: WireSeat(Seat::North),
    };
    session.handle(&seated, &mut out);
    out.clear();
    session.handle(&moved("elsewhere"), &mut out);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(session.table(), Some("t"));
    session.handle(&moved("t"), &mut out);
    let [
        ClientMessage::Join {
            id: join,
            table: Some(table),
            invite: None,
            seat: Some(WireSeat(Seat::East)),
        },
    ] = out.as_slice()
    else {
        panic!("the held seat joined, not {out:?}")
    };
    assert_eq!(table, "t2");
    let join = *join;
    out.clear();
    let seated = ServerMessage::Seated {
        id: join,
        table: "t2".into(),
        seat: WireSeat(Seat::East),
    };
    session.handle(&seated, &mut out);
    assert!(
        matches!(out.as_slice(), [ClientMessage::Ready { table, .. }] if table == "t2"),
        "{out:?}"
    );
    assert_eq!(
        (session.table(), session.seat()),
        (Some("t2"), Some(Seat::East))
    );

    // Moved again, and the held seat is gone when the join arrives: quick play again.
    out.clear();
    session.handle(
        &ServerMessage::QuickPlayMoved {
            from: "t2".into(),
            table: "t3".into(),
            seat: WireSeat(Seat::South),
        },
        &mut out,
    );
    let [ClientMessage::Join { id: join, .. }] = out.as_slice() else {
        panic!("{out:?}")
    };
    let gone = ServerMessage::error(Some(*join), ErrorCode::UnknownTable, "gone", None);
    let mut again = Vec::new();
    session.handle(&gone, &mut again);
    assert!(
        matches!(again.as_slice(), [ClientMessage::QuickPlay { .. }]),
        "{again:?}"
    );
    assert_eq!(session.stage(), Stage::Seating);
}
