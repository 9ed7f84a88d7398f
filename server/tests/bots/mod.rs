use std::time::Duration;

use burraco_bot::{Decision, SearchBudget, SeatBot, Strategy, knowledge_from_snapshot};
use burraco_protocol::convert::event_from_wire;
use burraco_protocol::wire::{BotLevel, ClientMessage, ServerMessage, WireSettings};
use burraco_rules::{Action, Players, Seat};
use burraco_server::ServerConfig;

use crate::common::*;

/// Server bots at full speed, L3 with a small budget.
pub(crate) fn fast_bots(c: &mut ServerConfig) {
    c.bot_delay = Duration::ZERO;
    c.bot_search = SearchBudget {
        worlds: 2,
        max_time: None,
        horizon: 4,
    };
}

/// The human's play, from the rules enumerators: draw (else the one legal take), then the first
/// legal discard.
struct DrawThenDiscard;

impl Strategy for DrawThenDiscard {
    fn name(&self) -> &str {
        "draw-then-discard"
    }

    fn choose(&mut self, decision: &Decision<'_>) -> Action {
        let legal = decision.legal;
        legal
            .iter()
            .find(|a| matches!(a, Action::Draw))
            .or_else(|| legal.iter().find(|a| matches!(a, Action::Discard { .. })))
            .unwrap_or(&legal[0])
            .clone()
    }
}

/// A person at the table: a WebSocket client, what its seat knows (from the frames it gets), and
/// the enumerator strategy above. It checks its numbering has no gaps and that it never receives
/// another seat's private event.
pub(crate) struct Human {
    pub(crate) client: Client,
    pub(crate) table: String,
    pub(crate) seat: Seat,
    players: Players,
    bot: Option<SeatBot>,
    last_seq: u64,
    /// Own discards the server accepted.
    discards: u32,
    /// The turn in progress was announced (a deal's events arrive one by one).
    turn_seen: bool,
}

impl Human {
    /// Creates a table (with `bots`) and returns the creator.
    pub(crate) async fn create(
        server: &TestServer,
        name: &str,
        settings: WireSettings,
        bots: Option<BotLevel>,
    ) -> Human {
        Human::create_at(server.addr, name, settings, bots).await
    }

    async fn create_at(
        addr: std::net::SocketAddr,
        name: &str,
        settings: WireSettings,
        bots: Option<BotLevel>,
    ) -> Human {
        let mut client = Client::connect(addr, name, None).await.0;
        let reply = client
            .request(|id| ClientMessage::CreateTable {
                id,
                settings,
                private: false,
                bots,
            })
            .await;
        let ServerMessage::TableCreated { table, seat, .. } = reply else {
            panic!("create: {reply:?}")
        };
        Human::seated(client, table, seat.0)
    }

    /// Joins a table by id (or, for a player already seated there, takes the seat again).
    pub(crate) async fn join(mut client: Client, table: &str) -> Human {
        let id = table.to_owned();
        let reply = client
            .request(|i| ClientMessage::Join {
                id: i,
                table: Some(id),
                invite: None,
                seat: None,
            })
            .await;
        let ServerMessage::Seated { seat, .. } = reply else {
            panic!("join: {reply:?}")
        };
        Human::seated(client, table.to_owned(), seat.0)
    }

    pub(crate) fn seated(client: Client, table: String, seat: Seat) -> Human {
        Human {
            client,
            table,
            seat,
            players: Players::Four,
            bot: None,
            last_seq: 0,
            discards: 0,
            turn_seen: false,
        }
    }

    pub(crate) async fn ready(&mut self) {
        let table = self.table.clone();
        self.client
            .ok(|id| ClientMessage::Ready { id, table })
            .await;
    }

    /// Reads and plays (whenever the seat is on turn) until a message matches `until`.
    pub(crate) async fn pump(
        &mut self,
        mut until: impl FnMut(&ServerMessage) -> bool,
    ) -> ServerMessage {
        loop {
            // Act only once everything received has been folded in.
            if self.turn_seen
                && self.client.inbox.is_empty()
                && self.bot.as_ref().is_some_and(SeatBot::must_act)
            {
                self.act().await;
                continue;
            }
            let message = self.client.next_event().await;
            self.observe(&message);
            if until(&message) {
                return message;
            }
        }
    }

    async fn act(&mut self) {
        let action = self
            .bot
            .as_mut()
            .and_then(|b| b.decide(&[]))
            .expect("a legal action");
        let table = self.table.clone();
        let reply = self
            .client
            .request(|id| to_request(&action, table, id))
            .await;
        assert!(
            matches!(reply, ServerMessage::Ok { .. }),
            "{} {action:?}: {reply:?}",
            self.client.name
        );
        if matches!(action, Action::Discard { .. }) {
            self.discards += 1;
        }
    }

    fn observe(&mut self, message: &ServerMessage) {
        if let ServerMessage::Snapshot { seq, view, .. } = message {
            self.last_seq = *seq;
            self.turn_seen = true;
            let (config, knowledge) =
                knowledge_from_snapshot(view, self.seat).expect("a readable snapshot");
            self.players = config.players();
            self.bot = Some(match knowledge {
                Some(k) => SeatBot::with_knowledge(k, Box::new(DrawThenDiscard), 1),
                None => SeatBot::new(config, self.seat, Box::new(DrawThenDiscard), 1),
            });
            return;
        }
        let Some(seq) = message.seq() else { return };
        if self.bot.is_none() || seq <= self.last_seq {
            // Before the first snapshot (a resumed player's reconnection notice), or in it.
            return;
        }
        assert_eq!(
            seq,
            self.last_seq + 1,
            "{}: numbered without gaps",
            self.client.name
        );
        self.last_seq = seq;
        if let ServerMessage::Dealt { seat, .. }
        | ServerMessage::DrewCard { seat, .. }
        | ServerMessage::PozzettoCards { seat, .. } = message
        {
            assert_eq!(seat.0, self.seat, "another seat's private event");
        }
        match message {
            ServerMessage::HandStarted { .. } => self.turn_seen = false,
            ServerMessage::TurnStarted { .. } => self.turn_seen = true,
            _ => {}
        }
        if let Some(event) = event_from_wire(message, self.players)
            && let Some(bot) = &mut self.bot
        {
            bot.observe(&event);
        }
    }
}

fn is_hand_ended(m: &ServerMessage) -> bool {
    matches!(m, ServerMessage::HandEnded { .. })
}

/// A human opens a 4-player table with three bots of `level` and plays the hand to its score.
async fn a_hand_against_three_bots(level: BotLevel, code: &str) {
    let server = TestServer::with(fast_bots).await;
    let mut human = Human::create(
        &server,
        "anna",
        settings("fitab", 4, Some(1), "off"),
        Some(level),
    )
    .await;
    let mut bots = Vec::new();
    while bots.len() < 3 {
        if let ServerMessage::PlayerJoined {
            seat, name, bot, ..
        } = human
            .pump(|m| matches!(m, ServerMessage::PlayerJoined { .. }))
            .await
            && seat.0 != human.seat
        {
            assert!(bot, "{name}");
            assert_eq!(name, format!("Bot ({code})"));
            bots.push(seat.0);
        }
    }
    // The lobby shows the bots.
    let mut other = server.client("watcher").await;
    let tables = other.request(|id| ClientMessage::ListTables { id }).await;
    let ServerMessage::Tables { tables, .. } = tables else {
        panic!("{tables:?}")
    };
    let summary = tables
        .iter()
        .find(|t| t.table == human.table)
        .expect("listed");
    assert_eq!(summary.seats.iter().filter(|s| s.bot).count(), 3);

    // Bots are ready already: the creator's ready starts the match.
    human.ready().await;
    let ended = human.pump(is_hand_ended).await;
    let ServerMessage::HandEnded { score, .. } = ended else {
        unreachable!()
    };
    assert_eq!(score.len(), 2, "a score per side");
    assert!(human.discards > 0, "the human played its turns");
    human
        .pump(|m| matches!(m, ServerMessage::MatchEnded { .. }))
        .await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_human_plays_a_hand_against_three_random_bots() {
    a_hand_against_three_bots(BotLevel::Random, "random").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_human_plays_a_hand_against_three_greedy_bots() {
    a_hand_against_three_bots(BotLevel::Greedy, "greedy").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_human_plays_a_hand_against_three_expert_bots() {
    a_hand_against_three_bots(BotLevel::Expert, "expert").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_human_plays_a_hand_against_three_search_bots() {
    a_hand_against_three_bots(BotLevel::Search, "search").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_gone_past_the_grace_is_replaced_by_a_bot_until_resuming() {
    let server = TestServer::with(|c| {
        fast_bots(c);
        c.disconnect_grace = Duration::from_millis(300);
    })
    .await;
    let mut anna = Human::create(&server, "anna", settings("fitab", 2, Some(2), "off"), None).await;
    let bruno = server.client("bruno").await;
    let mut bruno = Human::join(bruno, &anna.table).await;
    anna.ready().await;
    bruno.ready().await;
    let started = |m: &ServerMessage| matches!(m, ServerMessage::HandStarted { .. });
    tokio::join!(anna.pump(started), bruno.pump(started));

    // Bruno's connection drops. Anna plays on; after the grace a bot (expert: the table has no
    // bot level) plays Bruno's turns.
    let away = bruno.seat;
    bruno.client.barrier().await;
    let (token, name) = (bruno.client.session.clone(), bruno.client.name.clone());
    drop(bruno);
    let mut replaced = false;
    let mut bot_discards = 0;
    anna.pump(|m| {
        match m {
            ServerMessage::PlayerReplacedByBot { seat, .. } if seat.0 == away => replaced = true,
            ServerMessage::Discarded { seat, .. } if seat.0 == away => {
                assert!(replaced, "nobody plays for Bruno during the grace");
                bot_discards += 1;
            }
            _ => {}
        }
        bot_discards >= 2
    })
    .await;
    let mut watcher = server.client("watcher").await;
    let tables = watcher.request(|id| ClientMessage::ListTables { id }).await;
    let ServerMessage::Tables { tables, .. } = tables else {
        panic!("{tables:?}")
    };
    let summary = tables
        .iter()
        .find(|t| t.table == anna.table)
        .expect("listed");
    assert!(summary.seats.iter().any(|s| s.seat.0 == away && s.bot));

    // Bruno resumes and takes the seat back at once: from then on every turn of his seat is his
    // own (the bot would make his requests illegal, and Anna would see more discards).
    let (client, welcome) = Client::connect(server.addr, &name, Some(&token)).await;
    let ServerMessage::Welcome { resumed, seats, .. } = welcome else {
        unreachable!()
    };
    assert!(resumed);
    assert_eq!(seats.len(), 1);
    let mut bruno = Human::join(client, &anna.table).await;
    assert_eq!(bruno.seat, away);
    let mut reconnected = false;
    let mut seen = 0;
    let done = |m: &ServerMessage| matches!(m, ServerMessage::MatchEnded { .. });
    tokio::join!(
        anna.pump(|m| {
            match m {
                ServerMessage::PlayerReconnected { seat, .. } if seat.0 == away => {
                    reconnected = true
                }
                ServerMessage::Discarded { seat, .. } if seat.0 == away && reconnected => seen += 1,
                _ => {}
            }
            seen >= 2 || done(m)
        }),
        async {
            let start = bruno.discards;
            while bruno.discards < start + 2 {
                let m = bruno.pump(|m| done(m) || own_discard(m, away)).await;
                if done(&m) {
                    break;
                }
            }
        }
    );
    assert!(reconnected, "the table was told");
    assert!(bruno.discards >= 1, "Bruno played his own turns");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_seats_are_bots_again_after_kill_9_and_a_restart() {
    let data = tempfile::tempdir().expect("temp dir");
    let flags = ["--bot-delay-ms", "0"];
    let (mut child, addr) = crate::crash::start_with(data.path(), &flags);
    let mut human = Human::create_at(
        addr,
        "anna",
        settings("fitab", 4, Some(1), "off"),
        Some(BotLevel::Greedy),
    )
    .await;
    human.ready().await;
    let mine = human.seat;
    while human.discards < 2 {
        human.pump(|m| own_discard(m, mine)).await;
    }
    let (token, table) = (human.client.session.clone(), human.table.clone());
    drop(human);
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");

    let (mut child, addr) = crate::crash::start_with(data.path(), &flags);
    let (client, welcome) = Client::connect(addr, "anna", Some(&token)).await;
    assert!(matches!(
        welcome,
        ServerMessage::Welcome { resumed: true, .. }
    ));
    let mut human = Human::join(client, &table).await;
    assert_eq!(human.seat, mine);
    let ServerMessage::Snapshot { view, .. } = human
        .pump(|m| matches!(m, ServerMessage::Snapshot { .. }))
        .await
    else {
        unreachable!()
    };
    let bots: Vec<_> = view.seats.iter().filter(|s| s.bot).collect();
    assert_eq!(bots.len(), 3, "{:?}", view.seats);
    assert!(
        bots.iter()
            .all(|s| s.name.as_deref() == Some("Bot (greedy)") && s.connected)
    );
    // They play the hand to its end.
    human.pump(is_hand_ended).await;
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
}

fn own_discard(m: &ServerMessage, seat: Seat) -> bool {
    matches!(m, ServerMessage::Discarded { seat: s, .. } if s.0 == seat)
}

fn add_bots(table: &str, level: Option<BotLevel>) -> impl FnOnce(u64) -> ClientMessage {
    let table = table.to_owned();
    move |id| ClientMessage::AddBots { id, table, level }
}

fn refused_with(reply: &ServerMessage, code: &str) -> bool {
    matches!(reply, ServerMessage::Error { code: c, .. } if c == code)
}

/// `add_bots` from a seated player of a waiting table: every free seat gets a ready bot (the
/// table's level by default, else expert), announced before the `ok`; the match starts only once
/// every player is ready, by the last `ready` or by the `add_bots` itself; then the bots play.
/// Anyone else is refused with `not_seated`, and once the match has started `table_started`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seated_player_adds_bots_to_a_waiting_table() {
    let server = TestServer::with(fast_bots).await;
    let mut anna = Human::create(&server, "anna", settings("fitab", 4, Some(1), "off"), None).await;
    let table = anna.table.clone();
    let mut carl = server.client("carl").await;
    let reply = carl.request(add_bots(&table, None)).await;
    assert!(refused_with(&reply, "not_seated"), "{reply:?}");

    let bob = server.client("bob").await;
    let mut bob = Human::join(bob, &table).await;
    anna.ready().await;
    anna.client.inbox.clear();
    anna.client.ok(add_bots(&table, None)).await;
    let joined: Vec<(Seat, String, bool)> = anna
        .client
        .inbox
        .iter()
        .filter_map(|m| match m {
            ServerMessage::PlayerJoined {
                seat, name, bot, ..
            } => Some((seat.0, name.clone(), *bot)),
            _ => None,
        })
        .collect();
    let expert = || "Bot (expert)".to_owned();
    assert_eq!(
        joined,
        [(Seat::South, expert(), true), (Seat::West, expert(), true)]
    );
    let readied = anna
        .client
        .inbox
        .iter()
        .filter(|m| matches!(m, ServerMessage::PlayerReady { seat, .. } if seat.0 == Seat::South || seat.0 == Seat::West))
        .count();
    assert_eq!(readied, 2, "the bots are ready: {:?}", anna.client.inbox);
    // Bob is not ready yet: no match.
    anna.client.barrier().await;
    assert!(
        !anna
            .client
            .inbox
            .iter()
            .any(|m| matches!(m, ServerMessage::MatchStarted { .. })),
        "{:?}",
        anna.client.inbox
    );
    // No seat left to fill: nothing to do.
    anna.client
        .ok(add_bots(&table, Some(BotLevel::Random)))
        .await;
    bob.ready().await;
    bob.client
        .wait(|m| matches!(m, ServerMessage::MatchStarted { .. }))
        .await;
    let reply = anna.client.request(add_bots(&table, None)).await;
    assert!(refused_with(&reply, "table_started"), "{reply:?}");

    // Head to head, ready first: the bots' arrival starts the match, and the bot plays it.
    let mut dora = Human::create(&server, "dora", settings("fitab", 2, Some(1), "off"), None).await;
    dora.ready().await;
    let table = dora.table.clone();
    dora.client
        .ok(add_bots(&table, Some(BotLevel::Random)))
        .await;
    assert!(dora.client.inbox.iter().any(|m| matches!(
        m,
        ServerMessage::PlayerJoined { name, bot: true, .. } if name == "Bot (random)"
    )));
    dora.pump(|m| matches!(m, ServerMessage::MatchStarted { .. }))
        .await;
    dora.pump(is_hand_ended).await;
    assert!(dora.discards > 0, "dora played her turns against the bot");
    server.stop().await;
}

/// A table created with bots and no `clocks` setting gets relaxed clocks (most often one person
/// playing alone); clocks named in the settings are kept, and a preset without clocks has none.
#[tokio::test]
async fn a_table_with_bots_gets_relaxed_clocks_unless_it_names_them() {
    let server = TestServer::with(|c| c.bot_delay = Duration::from_secs(3600)).await;
    let cases = [
        ("fitab", None, Some(BotLevel::Random), "relaxed"),
        ("feburit", None, Some(BotLevel::Random), "relaxed"),
        (
            "fitab",
            Some("federation"),
            Some(BotLevel::Random),
            "federation",
        ),
        ("fitab", Some("off"), Some(BotLevel::Random), "off"),
        ("fedibur", None, Some(BotLevel::Random), "off"),
        ("fitab", None, None, "federation"),
    ];
    for (preset, clocks, bots, expected) in cases {
        let mut client = server.client("anna").await;
        let settings = WireSettings {
            clocks: clocks.map(str::to_owned),
            ..settings(preset, 4, Some(1), "off")
        };
        let reply = client
            .request(|id| ClientMessage::CreateTable {
                id,
                settings,
                private: false,
                bots,
            })
            .await;
        assert!(
            matches!(reply, ServerMessage::TableCreated { .. }),
            "{reply:?}"
        );
        let ServerMessage::Snapshot { view, .. } = client
            .wait(|m| matches!(m, ServerMessage::Snapshot { .. }))
            .await
        else {
            unreachable!()
        };
        assert_eq!(
            view.settings.clocks.as_deref(),
            Some(expected),
            "{preset} clocks {clocks:?} bots {bots:?}"
        );
    }
    server.stop().await;
}

/// L4 (`"deep"`) is a 1.8 level: a connection whose hello said 1.7 is refused it `needs_minor`
/// (it could not have named it), a 1.8 one gets its table filled with L4 bots.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deep_bots_are_asked_for_by_a_1_8_hello() {
    let server = TestServer::with(fast_bots).await;
    let create = |id| ClientMessage::CreateTable {
        id,
        settings: settings("fitab", 4, Some(1), "off"),
        private: true,
        bots: Some(BotLevel::Deep),
    };
    let (mut old, _) = Client::connect_saying(server.addr, "old", None, false, "1.7").await;
    let reply = old.request(create).await;
    assert!(
        matches!(&reply, ServerMessage::Error { code, .. } if code == "needs_minor"),
        "{reply:?}"
    );
    let (mut new, _) = Client::connect_saying(server.addr, "new", None, false, "1.8").await;
    let reply = new.request(create).await;
    assert!(!matches!(reply, ServerMessage::Error { .. }), "{reply:?}");
    let joined = new
        .wait(|m| matches!(m, ServerMessage::PlayerJoined { bot: true, .. }))
        .await;
    assert!(
        matches!(&joined, ServerMessage::PlayerJoined { name, .. } if name == "Bot (deep)"),
        "{joined:?}"
    );
}
