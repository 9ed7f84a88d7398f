//! Golden files: one JSON file per message type under `tests/golden/{client,server}/<type>.json`,
//! each the exact text frame of a sample message. Every sample must encode to its file, the file
//! must decode to the sample, and the postcard binary form must round-trip; the first byte of the
//! binary form is the variant index docs/PROTOCOL.md lists.
//!
//! Regenerate after an (additive!) change with `BURRACO_REGENERATE_GOLDEN=1 cargo test -p
//! burraco-protocol --test protocol wire`; old files must keep decoding.

use std::path::PathBuf;

use burraco_protocol::ErrorCode;
use burraco_protocol::codec::{self, MAX_CLIENT_FRAME};
use burraco_protocol::wire::*;
use burraco_rules::{Card, Seat, parse_cards};

fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).expect("cards")
}

fn card(text: &str) -> Card {
    text.parse().expect("card")
}

fn s(seat: Seat) -> WireSeat {
    WireSeat(seat)
}

fn t() -> String {
    "t-3f9a1c22b0".into()
}

fn settings() -> WireSettings {
    WireSettings {
        preset: "fitab".into(),
        players: Some(4),
        hands: Some(2),
        target: None,
        clocks: Some("federation".into()),
        semipulito: None,
        close_requires_pulito: None,
    }
}

/// One sample of every client message, in enum order.
pub fn client_samples() -> Vec<ClientMessage> {
    use ClientMessage::*;
    vec![
        Hello {
            version: "1.0".into(),
            name: "Anna".into(),
            resume: None,
        },
        ListTables { id: 1 },
        CreateTable {
            id: 2,
            settings: settings(),
            private: true,
            bots: None,
        },
        Join {
            id: 3,
            table: Some(t()),
            invite: None,
            seat: Some(s(Seat::East)),
        },
        QuickPlay {
            id: 4,
            preset: Some("fitab".into()),
            players: Some(4),
        },
        Leave { id: 5, table: t() },
        Ready { id: 6, table: t() },
        Spectate { id: 7, table: t() },
        Draw { id: 8, table: t() },
        PickUp { id: 9, table: t() },
        Open {
            id: 10,
            table: t(),
            cards: cards("5H 6H JK"),
            wild_at: Some(7),
        },
        Attach {
            id: 11,
            table: t(),
            meld: 0,
            cards: cards("8H"),
            wild_at: None,
        },
        Discard {
            id: 12,
            table: t(),
            card: card("KS"),
        },
        Sync {
            id: 13,
            table: t(),
            last_seq: 41,
        },
        Chat {
            id: 14,
            table: t(),
            text: None,
            phrase: Some("good_luck".into()),
        },
        Ping { id: 15 },
        AddBots {
            id: 16,
            table: t(),
            level: Some(BotLevel::Expert),
        },
        CreateTournament {
            id: 20,
            settings: Box::new(WireTournamentSettings {
                name: "Friday pairs".into(),
                kind: "pairs".into(),
                rounds: vec!["mitchell".into(), "mitchell".into(), "danish".into()],
                hands: 2,
                preset: "fitab".into(),
                max_entrants: Some(16),
                seating: Some("draw".into()),
                start_when_full: Some(false),
                clocks: None,
                duplicate: Some(true),
            }),
        },
        RegisterTournament {
            id: 21,
            tournament: "T-5d0c2a9e71".into(),
            partner_code: Some("7F3A91C2".into()),
            bot: Some(false),
        },
        UnregisterTournament {
            id: 22,
            tournament: "T-5d0c2a9e71".into(),
        },
        StartRound {
            id: 23,
            tournament: "T-5d0c2a9e71".into(),
            director: "9b2e4c6a8d0f1e3c5a7b9d1f3e5c7a9b".into(),
        },
        AdjustScore {
            id: 24,
            tournament: "T-5d0c2a9e71".into(),
            director: "9b2e4c6a8d0f1e3c5a7b9d1f3e5c7a9b".into(),
            entrant: 3,
            vp: -2,
            reason: "late arrival, second warning".into(),
        },
        WithdrawEntrant {
            id: 25,
            tournament: "T-5d0c2a9e71".into(),
            director: "9b2e4c6a8d0f1e3c5a7b9d1f3e5c7a9b".into(),
            entrant: 4,
            reason: "left the event".into(),
        },
        EndTournament {
            id: 26,
            tournament: "T-5d0c2a9e71".into(),
            director: "9b2e4c6a8d0f1e3c5a7b9d1f3e5c7a9b".into(),
        },
        ConfigureRegistration {
            id: 27,
            tournament: "T-5d0c2a9e71".into(),
            director: "9b2e4c6a8d0f1e3c5a7b9d1f3e5c7a9b".into(),
            registration: WireRegistration {
                open: true,
                invite_only: true,
                closes_ms: Some(1_764_000_000_000),
                starts_ms: Some(1_764_000_600_000),
                check_in: true,
                bots_after_secs: None,
            },
        },
        RegisterInvited {
            id: 28,
            tournament: "T-5d0c2a9e71".into(),
            invite: "C4E81B07".into(),
            partner_code: None,
            bot: None,
        },
        CheckInTournament {
            id: 29,
            tournament: "T-5d0c2a9e71".into(),
        },
        PauseTournament {
            id: 30,
            tournament: "T-5d0c2a9e71".into(),
            director: "9b2e4c6a8d0f1e3c5a7b9d1f3e5c7a9b".into(),
        },
        ResumeTournament {
            id: 31,
            tournament: "T-5d0c2a9e71".into(),
            director: "9b2e4c6a8d0f1e3c5a7b9d1f3e5c7a9b".into(),
        },
        WarnEntrant {
            id: 32,
            tournament: "T-5d0c2a9e71".into(),
            director: "9b2e4c6a8d0f1e3c5a7b9d1f3e5c7a9b".into(),
            entrant: 4,
            reason: "late at table 3".into(),
        },
        DisqualifyEntrant {
            id: 33,
            tournament: "T-5d0c2a9e71".into(),
            director: "9b2e4c6a8d0f1e3c5a7b9d1f3e5c7a9b".into(),
            entrant: 4,
            reason: "signalling".into(),
        },
        ForbidPairing {
            id: 34,
            tournament: "T-5d0c2a9e71".into(),
            director: "9b2e4c6a8d0f1e3c5a7b9d1f3e5c7a9b".into(),
            entrants: vec![2, 5],
        },
        SeatEntrants {
            id: 35,
            tournament: "T-5d0c2a9e71".into(),
            director: "9b2e4c6a8d0f1e3c5a7b9d1f3e5c7a9b".into(),
            order: vec![3, 0, 2, 1],
        },
        SetRoundTime {
            id: 36,
            tournament: "T-5d0c2a9e71".into(),
            director: "9b2e4c6a8d0f1e3c5a7b9d1f3e5c7a9b".into(),
            round_secs: Some(2_700),
        },
        ExcuseEntrant {
            id: 37,
            tournament: "T-5d0c2a9e71".into(),
            director: "9b2e4c6a8d0f1e3c5a7b9d1f3e5c7a9b".into(),
            entrant: 4,
            reason: "taken ill".into(),
        },
        SetLineup {
            id: 38,
            tournament: "T-5d0c2a9e71".into(),
            order: vec![0, 2, 1, 3],
        },
        WatchTournament {
            id: 39,
            tournament: "T-5d0c2a9e71".into(),
        },
        HelloToken {
            version: "1.4".into(),
            name: "ignored for an account".into(),
            resume: None,
            token: "brc_0000000000000000000000000000000000000000000000000".into(),
        },
        CreateRatedTable {
            id: 50,
            settings: WireSettings {
                players: Some(2),
                ..settings()
            },
            private: false,
        },
        QuickPlayRated {
            id: 51,
            preset: Some("fitab".into()),
            players: Some(2),
        },
        ListLobby { id: 52 },
        TableLevels { id: 53, table: t() },
        CreateRatedTournament {
            id: 54,
            settings: Box::new(WireTournamentSettings {
                name: "Rated singles".into(),
                kind: "singles".into(),
                rounds: vec!["round_robin".into()],
                hands: 1,
                preset: "fitab".into(),
                max_entrants: Some(8),
                seating: None,
                start_when_full: Some(true),
                clocks: None,
                duplicate: None,
            }),
        },
        SeatIdentities { id: 54, table: t() },
        TournamentChat {
            id: 55,
            tournament: "T-5d0c2a9e71".into(),
            director: None,
            text: "Good luck everyone".into(),
        },
        TournamentChatHistory {
            id: 56,
            tournament: "T-5d0c2a9e71".into(),
        },
        Report {
            id: 55,
            table: t(),
            seat: None,
            seq: Some(98),
            reason: "abuse".into(),
            note: Some("insults after the hand".into()),
        },
        ArenaReady {
            id: 55,
            level: Some("L2".into()),
        },
        ArenaChallenge {
            id: 56,
            opponent: "RoboGina".into(),
        },
        TournamentReport {
            id: 57,
            tournament: "T-5d0c2a9e71".into(),
            line: 3,
            reason: "abuse".into(),
            note: Some("insults in the event's chat".into()),
        },
    ]
}

fn meld() -> WireMeld {
    WireMeld {
        id: 0,
        side: "NS".into(),
        kind: "sequence".into(),
        start: Some(5),
        cards: cards("5H 6H JK 8H"),
        wild_at: Some(7),
        wild: None,
    }
}

fn score() -> Vec<SideScoreWire> {
    vec![
        SideScoreWire {
            side: "NS".into(),
            melded: 190,
            burracos: vec![BurracoWire {
                meld: 0,
                kind: "pulito".into(),
                bonus: 200,
            }],
            closing: 100,
            in_hand: 0,
            pozzetto: 0,
            total: 490,
        },
        SideScoreWire {
            side: "EW".into(),
            melded: 60,
            burracos: vec![],
            closing: 0,
            in_hand: -85,
            pozzetto: -100,
            total: -125,
        },
    ]
}

/// One sample of every server message, in enum order.
pub fn server_samples() -> Vec<ServerMessage> {
    use ServerMessage::*;
    let table = t;
    vec![
        Welcome {
            version: "1.0".into(),
            session: "8c1f0d3e5a7b9c2d4e6f8a0b1c3d5e7f".into(),
            player: "p-a1b2c3d4e5f6".into(),
            name: "Anna".into(),
            resumed: true,
            seats: vec![SeatRef {
                table: table(),
                seat: s(Seat::North),
            }],
        },
        Ok { id: 6 },
        ServerMessage::error(
            Some(12),
            ErrorCode::IllegalAction,
            "take first: draw from the tallone or pick up the discard pile (RULES.md 4.1)",
            Some("must_take_first".into()),
        ),
        Tables {
            id: 1,
            tables: vec![TableSummary {
                table: table(),
                preset: "fitab".into(),
                players: 4,
                seats: vec![
                    SeatName {
                        seat: s(Seat::North),
                        name: Some("Anna".into()),
                        bot: false,
                    },
                    SeatName {
                        seat: s(Seat::East),
                        name: None,
                        bot: false,
                    },
                    SeatName {
                        seat: s(Seat::South),
                        name: Some("Bruno".into()),
                        bot: false,
                    },
                    SeatName {
                        seat: s(Seat::West),
                        name: None,
                        bot: false,
                    },
                ],
                status: "waiting".into(),
                spectators: 0,
            }],
        },
        TableCreated {
            id: 2,
            table: table(),
            invite: Some("9F2C04AB".into()),
            seat: s(Seat::North),
        },
        Seated {
            id: 3,
            table: table(),
            seat: s(Seat::East),
        },
        Pong { id: 15 },
        Snapshot {
            table: table(),
            seq: 40,
            view: Box::new(TableSnapshot {
                settings: WireSettings {
                    preset: "fitab".into(),
                    players: Some(2),
                    hands: Some(2),
                    target: None,
                    clocks: Some("federation".into()),
                    semipulito: Some(true),
                    close_requires_pulito: Some(false),
                },
                status: "playing".into(),
                you: Some(s(Seat::South)),
                seats: vec![
                    SeatState {
                        seat: s(Seat::North),
                        name: Some("Bruno".into()),
                        bot: false,
                        connected: false,
                        ready: true,
                        cards: Some(11),
                    },
                    SeatState {
                        seat: s(Seat::South),
                        name: Some("Anna".into()),
                        bot: false,
                        connected: true,
                        ready: true,
                        cards: Some(12),
                    },
                ],
                hands_played: 0,
                sides: vec!["S".into(), "N".into()],
                totals: vec![0, 0],
                round_clock_left_ms: Some(1_265_000),
                time_out: false,
                hand: Some(HandSnapshot {
                    number: 1,
                    dealer: s(Seat::North),
                    on_turn: s(Seat::South),
                    phase: "play".into(),
                    hand: Some(cards("3H 3D 7C 9S 10S JD QD QH KC AS 2C JK")),
                    melds: vec![meld()],
                    pile: cards("4C 10H"),
                    tallone: 58,
                    pozzetti: vec![None, None],
                    picked_single_card: None,
                    commitment: Some(
                        "5b0ab2d3c4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f".into(),
                    ),
                    move_clock_left_ms: Some(31_500),
                    last_round: None,
                    stallo_exchanges: 0,
                    stallo_must_draw: None,
                }),
            }),
        },
        Tick {
            table: table(),
            seq: 19,
        },
        PlayerJoined {
            table: table(),
            seq: 1,
            seat: s(Seat::East),
            name: "Carla".into(),
            bot: false,
        },
        PlayerLeft {
            table: table(),
            seq: 2,
            seat: s(Seat::East),
        },
        PlayerReady {
            table: table(),
            seq: 3,
            seat: s(Seat::North),
        },
        PlayerDisconnected {
            table: table(),
            seq: 30,
            seat: s(Seat::West),
            grace_ms: 120_000,
        },
        PlayerReconnected {
            table: table(),
            seq: 33,
            seat: s(Seat::West),
        },
        PlayerReplacedByBot {
            table: table(),
            seq: 90,
            seat: s(Seat::West),
        },
        MatchStarted {
            table: table(),
            seq: 8,
            first_dealer: s(Seat::West),
            round_clock_ms: Some(1_320_000),
        },
        HandStarted {
            table: table(),
            seq: 9,
            hand: 1,
            dealer: s(Seat::West),
            first: s(Seat::North),
            up_card: card("10H"),
            commitment: Some(
                "5b0ab2d3c4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f".into(),
            ),
        },
        Dealt {
            table: table(),
            seq: 10,
            seat: s(Seat::North),
            cards: cards("3H 3D 7C 9S 10S JD QD QH KC AS 2C"),
        },
        TurnStarted {
            table: table(),
            seq: 14,
            seat: s(Seat::North),
            cards_held: 11,
            clock_ms: Some(40_000),
            grace_ms: Some(5_000),
        },
        GraceStarted {
            table: table(),
            seq: 15,
            seat: s(Seat::North),
            grace_ms: 5_000,
        },
        Drew {
            table: table(),
            seq: 16,
            seat: s(Seat::North),
        },
        DrewCard {
            table: table(),
            seq: 17,
            seat: s(Seat::North),
            card: card("JK"),
        },
        PickedUp {
            table: table(),
            seq: 18,
            seat: s(Seat::East),
            cards: cards("4C 10H"),
        },
        Opened {
            table: table(),
            seq: 20,
            seat: s(Seat::North),
            cards: cards("5H 6H JK"),
            meld: meld(),
        },
        Attached {
            table: table(),
            seq: 21,
            seat: s(Seat::South),
            cards: cards("8H"),
            meld: meld(),
        },
        PozzettoTaken {
            table: table(),
            seq: 22,
            seat: s(Seat::South),
            pozzetto: "A".into(),
            in_diretta: true,
        },
        PozzettoCards {
            table: table(),
            seq: 23,
            seat: s(Seat::South),
            cards: cards("2H 4S 5S 6D 7D 8C 9C JH QS KD AD"),
        },
        Discarded {
            table: table(),
            seq: 24,
            seat: s(Seat::South),
            card: card("KS"),
        },
        ClockExpired {
            table: table(),
            seq: 25,
            seat: s(Seat::East),
        },
        TimeOut {
            table: table(),
            seq: 26,
            turns_left: 4,
        },
        StalloWarning {
            table: table(),
            seq: 27,
            exchanges: 4,
        },
        Stallo {
            table: table(),
            seq: 28,
            must_draw: Some(s(Seat::East)),
        },
        HandEnded {
            table: table(),
            seq: 95,
            hand: 1,
            end: "closed".into(),
            closed_by: Some(s(Seat::South)),
            score: score(),
            hands: vec![
                SeatCards {
                    seat: s(Seat::North),
                    cards: cards(""),
                },
                SeatCards {
                    seat: s(Seat::East),
                    cards: cards("AH KH QC"),
                },
                SeatCards {
                    seat: s(Seat::South),
                    cards: vec![],
                },
                SeatCards {
                    seat: s(Seat::West),
                    cards: cards("JK 9D"),
                },
            ],
            seed: Some("0707070707070707070707070707070707070707070707070707070707070707".into()),
        },
        HandRecord {
            table: table(),
            seq: 96,
            hand: 1,
            record: r#"{"format":"burraco-hand-record/1","...":"..."}"#.into(),
        },
        MatchEnded {
            table: table(),
            seq: 97,
            sides: vec!["NS".into(), "EW".into()],
            totals: vec![1490, 875],
            winner: Some("NS".into()),
            vp: Some(vec![15, 5]),
        },
        ChatMessage {
            table: table(),
            seq: 98,
            seat: Some(s(Seat::East)),
            name: "Carla".into(),
            text: "well_played".into(),
        },
        Goodbye {
            reason: "server shutting down: reconnect later with your session".into(),
        },
        TournamentCreated {
            id: 20,
            tournament: "T-5d0c2a9e71".into(),
            director_token: "9b2e4c6a8d0f1e3c5a7b9d1f3e5c7a9b".into(),
        },
        TournamentRegistered {
            id: 21,
            tournament: "T-5d0c2a9e71".into(),
            entrant: 3,
            partner_code: Some("7F3A91C2".into()),
        },
        TournamentUpdate {
            tournament: "T-5d0c2a9e71".into(),
            status: "playing".into(),
            round: 2,
            rounds: 3,
            standings: vec![
                WireStanding {
                    rank: 1,
                    entrant: 3,
                    names: vec!["Anna".into(), "Bruno".into()],
                    bot: false,
                    vp: 17,
                    mp: 640,
                    burraco: 400,
                },
                WireStanding {
                    rank: 2,
                    entrant: 0,
                    names: vec!["bot-0a".into(), "bot-0b".into()],
                    bot: true,
                    vp: 3,
                    mp: -640,
                    burraco: 200,
                },
            ],
            table: Some(t()),
            seat: Some(s(Seat::East)),
        },
        GoToTable {
            tournament: "T-5d0c2a9e71".into(),
            round: 2,
            table: t(),
            seat: s(Seat::East),
        },
        RegistrationConfigured {
            id: 27,
            tournament: "T-5d0c2a9e71".into(),
            invite: Some("C4E81B07".into()),
        },
        TournamentStatus {
            tournament: "T-5d0c2a9e71".into(),
            paused: false,
            registration_open: false,
            checked_in: None,
            round_ends_ms: Some(1_764_003_720_000),
            warnings: 1,
        },
        Identity {
            kind: "bot".into(),
            account: Some("u-3a9f0c2b7d1e4f60".into()),
            name: "RoboAnna".into(),
        },
        Playban {
            until_ms: 1_764_190_800_000,
        },
        Lobby {
            id: 52,
            tables: vec![LobbyTable {
                table: t(),
                preset: "fitab".into(),
                players: 2,
                seats: vec![
                    SeatName {
                        seat: s(Seat::South),
                        name: Some("Anna".into()),
                        bot: false,
                    },
                    SeatName {
                        seat: s(Seat::North),
                        name: Some("Bruno".into()),
                        bot: false,
                    },
                ],
                status: "waiting".into(),
                spectators: 0,
                rated: true,
                levels: vec![SeatLevel {
                    seat: s(Seat::South),
                    level: "advanced".into(),
                }],
            }],
        },
        TableLevels {
            id: 53,
            table: t(),
            rated: true,
            levels: vec![SeatLevel {
                seat: s(Seat::South),
                level: "advanced".into(),
            }],
        },
        TablePaused {
            table: t(),
            paused: true,
            round_clock_left_ms: Some(1_312_000),
            move_clock_left_ms: Some(41_500),
        },
        SeatIdentities {
            id: 54,
            table: t(),
            seats: vec![
                SeatIdentity {
                    seat: s(Seat::North),
                    kind: "server_bot".into(),
                    name: "Bot L2".into(),
                    account: None,
                    server_bot: Some("L2".into()),
                },
                SeatIdentity {
                    seat: s(Seat::East),
                    kind: "bot".into(),
                    name: "robo".into(),
                    account: Some("u-00000000000000a1".into()),
                    server_bot: None,
                },
                SeatIdentity {
                    seat: s(Seat::South),
                    kind: "player".into(),
                    name: "anna".into(),
                    account: Some("u-00000000000000b2".into()),
                    server_bot: None,
                },
                SeatIdentity {
                    seat: s(Seat::West),
                    kind: "guest".into(),
                    name: "Bruno".into(),
                    account: None,
                    server_bot: Some("L2".into()),
                },
            ],
        },
        TournamentChatMessage {
            tournament: "T-5d0c2a9e71".into(),
            line: TournamentChatLine {
                line: 3,
                name: "Anna".into(),
                entrant: Some(0),
                director: false,
                text: "Good luck everyone".into(),
                at_ms: 1_764_190_800_000,
            },
        },
        TournamentChatLines {
            id: 56,
            tournament: "T-5d0c2a9e71".into(),
            lines: vec![
                TournamentChatLine {
                    line: 2,
                    name: "Director".into(),
                    entrant: None,
                    director: true,
                    text: "Round 2 starts at 21:30".into(),
                    at_ms: 1_764_190_740_000,
                },
                TournamentChatLine {
                    line: 3,
                    name: "Anna".into(),
                    entrant: Some(0),
                    director: false,
                    text: "Good luck everyone".into(),
                    at_ms: 1_764_190_800_000,
                },
            ],
        },
        ReportFiled {
            id: 55,
            report: "r-3b9e0c71a4d2f865".into(),
        },
        SameAddress {
            table: t(),
            seats: vec![s(Seat::North), s(Seat::South)],
        },
        ArenaQueued {
            id: 55,
            waiting: true,
            matches_today: 3,
            daily_cap: 20,
        },
        ArenaMatch {
            arena: "A-3f9a1c22b0d4e5f6".into(),
            opponent: "RoboGina".into(),
            opponent_account: Some("u-3a9f0c2b7d1e4f60".into()),
            server_bot: None,
            hands: 2,
            tables: vec![
                ArenaTable {
                    table: "t-a3f9a1c22b0d4e5f61".into(),
                    seat: s(Seat::South),
                },
                ArenaTable {
                    table: "t-a3f9a1c22b0d4e5f62".into(),
                    seat: s(Seat::North),
                },
            ],
        },
        QuickPlayMoved {
            from: "t-7d2e0b4c19".into(),
            table: t(),
            seat: s(Seat::East),
        },
    ]
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("golden")
}

fn regenerate() -> bool {
    std::env::var_os("BURRACO_REGENERATE_GOLDEN").is_some()
}

fn check<T>(side: &str, kind: &str, index: usize, sample: &T)
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let path = golden_dir().join(side).join(format!("{kind}.json"));
    let json = codec::to_json(sample);
    if regenerate() {
        std::fs::create_dir_all(path.parent().expect("dir")).expect("golden dir");
        std::fs::write(&path, format!("{json}\n")).expect("write golden");
    }
    let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (regenerate with BURRACO_REGENERATE_GOLDEN=1)",
            path.display()
        )
    });
    assert_eq!(
        golden.trim_end(),
        json,
        "{} changed: messages of a published major never change",
        path.display()
    );
    let decoded = codec::from_json::<T>(golden.trim_end(), usize::MAX);
    assert_eq!(decoded.result.as_ref(), Ok(sample), "{}", path.display());
    let binary = codec::to_binary(sample);
    assert_eq!(
        usize::from(binary[0]),
        index,
        "{kind}: postcard variant index"
    );
    assert_eq!(
        codec::from_binary::<T>(&binary, usize::MAX).result.as_ref(),
        Ok(sample),
        "{kind}: binary round trip"
    );
}

#[test]
fn every_client_message_matches_its_golden_file_in_both_encodings() {
    let samples = client_samples();
    for (index, sample) in samples.iter().enumerate() {
        check("client", sample.kind(), index, sample);
        assert!(codec::to_json(sample).len() < MAX_CLIENT_FRAME);
    }
    let files = std::fs::read_dir(golden_dir().join("client"))
        .expect("golden/client")
        .count();
    assert_eq!(
        files,
        samples.len(),
        "one golden file per client message, no strays"
    );
}

#[test]
fn every_server_message_matches_its_golden_file_in_both_encodings() {
    let samples = server_samples();
    for (index, sample) in samples.iter().enumerate() {
        check("server", sample.kind(), index, sample);
    }
    let files = std::fs::read_dir(golden_dir().join("server"))
        .expect("golden/server")
        .count();
    assert_eq!(
        files,
        samples.len(),
        "one golden file per server message, no strays"
    );
}

#[test]
fn optional_fields_may_be_omitted_by_clients() {
    // `null` and absent are the same for optional fields: a minimal hello and join.
    let hello = codec::from_json::<ClientMessage>(
        r#"{"type":"hello","version":"1.0","name":"Anna"}"#,
        MAX_CLIENT_FRAME,
    );
    assert_eq!(
        hello.result,
        Ok(ClientMessage::Hello {
            version: "1.0".into(),
            name: "Anna".into(),
            resume: None
        })
    );
    let join = codec::from_json::<ClientMessage>(
        r#"{"type":"join","id":3,"invite":"9F2C04AB"}"#,
        MAX_CLIENT_FRAME,
    );
    assert_eq!(
        join.result,
        Ok(ClientMessage::Join {
            id: 3,
            table: None,
            invite: Some("9F2C04AB".into()),
            seat: None
        })
    );
}

/// 1.8's level L4 (`"deep"`) makes a `create_table` or `add_bots` a 1.8 request (a connection
/// whose hello said less is refused it `needs_minor`); the older levels leave them 1.0.
#[test]
fn asking_for_the_deep_level_is_a_1_8_request() {
    let add = |level| ClientMessage::AddBots {
        id: 1,
        table: t(),
        level,
    };
    let create = |bots| ClientMessage::CreateTable {
        id: 2,
        settings: settings(),
        private: false,
        bots,
    };
    assert_eq!(add(Some(BotLevel::Deep)).minor(), 8);
    assert_eq!(create(Some(BotLevel::Deep)).minor(), 8);
    for level in [None, Some(BotLevel::Search), Some(BotLevel::Random)] {
        assert_eq!(add(level).minor(), 0);
        assert_eq!(create(level).minor(), 0);
    }
    // Its name on the wire, as docs/PROTOCOL.md gives it.
    assert_eq!(serde_json::to_string(&BotLevel::Deep).unwrap(), r#""deep""#);
}

/// 1.9's `quick_play_moved` is a connection message of minor 9: never sent to an older hello.
#[test]
fn being_moved_by_quick_play_is_a_1_9_message() {
    let moved = ServerMessage::QuickPlayMoved {
        from: "t-7d2e0b4c19".into(),
        table: t(),
        seat: s(Seat::East),
    };
    assert_eq!(moved.minor(), 9);
    assert_eq!(moved.seq(), None);
    assert_eq!(PROTOCOL_MINOR, 9);
}
