//! Chaos on a real cluster: 3 NATS servers and 3 nodes on loopback, a dozen 4-player tables of
//! raw-socket players spread over the nodes, and a node killed (-9) and restarted at random
//! moments for about a minute. Each table is played by its own task through its rules mirror;
//! a seat whose connection closes, or whose request is refused because the table is moving,
//! resumes through a live node with its session token, syncs, and goes on.
//!
//! A move whose reply was lost with a node may or may not have been applied: after the resume
//! the test finds out which from what the server says (the seat's own hand and the table in the
//! `snapshot`, or the move's own events in the catch-up) and applies it to the mirror only if
//! the server did. Everything the server did wrong is collected as a finding with its table, seat
//! and seq, and the test fails at the end with all of them (seed in the output:
//! `BURRACO_CHAOS_SEED=<seed>` runs the same schedule again, as far as timing allows).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use burraco_protocol::ErrorCode;
use burraco_protocol::convert::{meld_to_wire, phase_code};
use burraco_protocol::record::{HandRecord, RecordInput};
use burraco_protocol::wire::{ServerMessage, TableSnapshot, WireMeld};
use burraco_rules::{Action, Card, Game, Input, Seat};

use crate::cluster::{Nats, Node, open_across, try_sync, two_events_under_one_seq};
use crate::common::*;

/// A node cut off from NATS and its peers mid-play (issue 19's partition test).
mod partition;

/// Tables played at once.
const TABLES: usize = 12;
/// How long nodes are killed and restarted.
const CHAOS: Duration = Duration::from_secs(60);
/// How long a hand would take undisturbed: the tables are paced to play through the chaos.
const PLAY: Duration = Duration::from_secs(50);
/// Milliseconds between two kills (drawn uniformly), and the most a killed node stays down.
const KILL_EVERY_MS: (u64, u64) = (3_000, 7_000);
const DOWN_MS: (u64, u64) = (0, 2_000);
/// The nodes' disconnect grace: short, so a server bot standing in for a seat whose player is
/// connected shows within the test; much longer than the test ever leaves a seat without a
/// connection (which it measures and reports).
const GRACE: Duration = Duration::from_secs(15);
/// From the start: every table must have finished by then.
const FINISH_WITHIN: Duration = Duration::from_secs(150);
/// A resume gives up after this (a takeover is a lease of 3 s and a restore).
const RESUME_WITHIN: Duration = Duration::from_secs(30);
/// A request on a live connection must be answered within this.
const REPLY_WITHIN: Duration = Duration::from_secs(20);
/// The events of the table's acknowledged moves must reach every seat's connection within this.
const HEAR_WITHIN: Duration = Duration::from_secs(5);
/// How long a lost reply's move may still be on its way to the table.
const SETTLE: Duration = Duration::from_millis(300);
/// Tries of one move (each after a refusal or a lost reply that did nothing).
const ATTEMPTS: usize = 20;

/// The refusals that say the table is moving between nodes (or its log is electing a leader):
/// resume and retry.
const MOVING: [ErrorCode; 4] = [
    ErrorCode::ShuttingDown,
    ErrorCode::UnknownTable,
    ErrorCode::TableBusy,
    ErrorCode::InternalError,
];

fn chaos_seed() -> u64 {
    std::env::var("BURRACO_CHAOS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(19)
}

/// splitmix64: a seeded schedule, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn between(&mut self, (lo, hi): (u64, u64)) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
}

/// The nodes' addresses as the players know them: `None` while a node is down (a restarted
/// node listens on a new port).
#[derive(Clone)]
struct Live(Arc<Mutex<Vec<Option<SocketAddr>>>>);

impl Live {
    fn pick(&self, rng: &mut Rng) -> Option<(usize, SocketAddr)> {
        let nodes = self.0.lock().expect("live nodes");
        let up: Vec<(usize, SocketAddr)> = nodes
            .iter()
            .enumerate()
            .filter_map(|(i, a)| a.map(|a| (i, a)))
            .collect();
        (!up.is_empty()).then(|| up[rng.below(up.len())])
    }

    fn set(&self, node: usize, addr: Option<SocketAddr>) {
        self.0.lock().expect("live nodes")[node] = addr;
    }

    fn node_of(&self, addr: SocketAddr) -> usize {
        let nodes = self.0.lock().expect("live nodes");
        nodes
            .iter()
            .position(|a| *a == Some(addr))
            .expect("a node's address")
    }
}

/// What one table's task counted.
#[derive(Debug, Default)]
struct Stats {
    acknowledged: usize,
    resumes: usize,
    /// Refusals of moves, by code.
    refused: BTreeMap<&'static str, usize>,
    /// Refusals of a resume's `sync`, by code (retried on the same connection).
    sync_refused: BTreeMap<&'static str, usize>,
    /// Close codes of the connections the server closed.
    closes: BTreeMap<u16, usize>,
    /// Moves whose reply was lost, and how many of those the server had applied.
    in_doubt: usize,
    in_doubt_applied: usize,
    /// How the resumes after a move found out whether it was applied.
    by_snapshot: usize,
    by_events: usize,
    /// The longest a seat was left without a connection, as the test measured it.
    longest_outage: Duration,
}

/// One seat of a table: its current connection and every one it had before.
struct Line {
    seat: Seat,
    name: String,
    token: String,
    client: Client,
    /// The node the current connection goes through.
    node: usize,
    old: Vec<Client>,
}

impl Line {
    /// The highest seq any of this seat's connections heard.
    fn heard(&self) -> u64 {
        self.old
            .iter()
            .chain([&self.client])
            .flat_map(Client::seqs)
            .max()
            .unwrap_or(0)
    }
}

/// The reply to a request, or what came instead.
enum Reply {
    Ok,
    Refused(ServerMessage),
    /// The connection closed first (the frame may or may not have been read).
    Closed,
    /// No reply in [`REPLY_WITHIN`] on a live connection.
    Silent,
}

/// What a seat and the table look like to that seat: what a move changes.
#[derive(Debug, PartialEq)]
struct Seen {
    phase: String,
    /// `None` once the hand is over (the turn no longer moves).
    on_turn: Option<Seat>,
    /// Sorted; `None` while the seat may not see it (its pozzetto not visible yet).
    hand: Option<Vec<Card>>,
    pile: Vec<Card>,
    tallone: usize,
    melds: Vec<WireMeld>,
}

impl Seen {
    fn of_game(game: &Game, seat: Seat) -> Seen {
        let over = game.is_over();
        Seen {
            phase: phase_code(game.phase()).to_owned(),
            on_turn: (!over).then(|| game.on_turn()),
            hand: game.hand_visible_to_owner(seat).then(|| {
                let mut cards = game.hand(seat).to_vec();
                cards.sort();
                cards
            }),
            pile: game.pile().to_vec(),
            tallone: game.tallone_len(),
            melds: game
                .melds()
                .iter()
                .enumerate()
                .map(|(id, (side, meld))| meld_to_wire(id as u8, *side, game.players(), meld))
                .collect(),
        }
    }

    fn of_snapshot(view: &TableSnapshot) -> Option<Seen> {
        let hand = view.hand.as_ref()?;
        Some(Seen {
            phase: hand.phase.clone(),
            on_turn: (hand.phase != "over").then_some(hand.on_turn.0),
            hand: hand.hand.clone().map(|mut cards| {
                cards.sort();
                cards
            }),
            pile: hand.pile.clone(),
            tallone: usize::from(hand.tallone),
            melds: hand.melds.clone(),
        })
    }
}

/// Whether `message` is an event of `seat`'s `action`.
fn announces(message: &ServerMessage, seat: Seat, action: &Action) -> bool {
    use ServerMessage as M;
    let by = match (action, message) {
        (Action::Draw, M::Drew { seat, .. } | M::DrewCard { seat, .. })
        | (Action::PickUp, M::PickedUp { seat, .. })
        | (Action::Open { .. }, M::Opened { seat, .. })
        | (Action::Attach { .. }, M::Attached { seat, .. })
        | (Action::Discard { .. }, M::Discarded { seat, .. }) => seat.0,
        _ => return false,
    };
    by == seat
}

fn kinds(messages: &[ServerMessage]) -> String {
    messages
        .iter()
        .map(|m| match m.seq() {
            Some(seq) => format!("{}#{seq}", m.kind()),
            None => m.kind().to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One table and the task that plays it.
struct Driver {
    index: usize,
    id: String,
    /// By seat index.
    lines: Vec<Line>,
    mirror: Mirror,
    /// Every move the server applied, as far as the test knows: the record must be exactly this.
    applied: Vec<RecordInput>,
    /// The highest seq of an acknowledged move's events: every seat must hear up to it.
    table_seq: u64,
    live: Live,
    rng: Rng,
    pace: Duration,
    deadline: Instant,
    started: Instant,
    stats: Stats,
    findings: Vec<String>,
}

/// What a table's task reports.
struct Report {
    index: usize,
    id: String,
    finished: bool,
    took: Duration,
    stats: Stats,
    findings: Vec<String>,
}

impl Driver {
    fn finding(&mut self, what: String) {
        let at = self.started.elapsed().as_secs_f32();
        let line = format!("table {} ({}) at {at:.1}s: {what}", self.index, self.id);
        eprintln!("chaos finding: {line}");
        self.findings.push(line);
    }

    fn line(&mut self, seat: Seat) -> &mut Line {
        &mut self.lines[seat.index()]
    }

    async fn run(mut self) -> Report {
        let mut steps = 0;
        while !self.mirror.game.is_over() {
            if Instant::now() > self.deadline || steps > 2_000 {
                let on_turn = self.mirror.game.on_turn();
                self.finding(format!(
                    "not finished in time: {} moves applied, {on_turn} on turn",
                    self.applied.len()
                ));
                break;
            }
            steps += 1;
            let pace = self
                .pace
                .mul_f64(0.5 + (self.rng.next() % 1000) as f64 / 1000.0);
            tokio::time::sleep(pace).await;
            self.pump().await;
            let seat = self.mirror.game.on_turn();
            self.catch_up(seat).await;
            if !self.act(seat).await {
                break;
            }
        }
        let finished = self.mirror.game.is_over();
        if finished {
            self.hear_the_end().await;
        }
        self.check_record(finished).await;
        self.check_history();
        Report {
            index: self.index,
            id: self.id,
            finished,
            took: self.started.elapsed(),
            stats: self.stats,
            findings: self.findings,
        }
    }

    /// Reads what every seat's connection has received; resumes the seats whose connection
    /// closed (a seat not on turn would otherwise stay away past its grace).
    async fn pump(&mut self) {
        for seat in Seat::ALL {
            for _ in 0..10_000 {
                let read =
                    tokio::time::timeout(Duration::from_millis(1), self.line(seat).client.read())
                        .await;
                match read {
                    Err(_) => break,
                    Ok(Some(_)) => {}
                    Ok(None) => {
                        self.resume(seat).await;
                        break;
                    }
                }
            }
        }
    }

    /// Before `seat` acts: the seat must have heard every acknowledged move (what its resumed
    /// connection's sync brought counts with what it hears live).
    async fn catch_up(&mut self, seat: Seat) {
        let target = self.table_seq;
        let until = Instant::now() + HEAR_WITHIN;
        loop {
            let heard = self.line(seat).heard();
            if heard >= target {
                return;
            }
            let left = until.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, self.line(seat).client.read()).await {
                Ok(Some(_)) => {}
                Ok(None) => {
                    self.resume(seat).await;
                    return;
                }
                Err(_) => {
                    let line = &self.lines[seat.index()];
                    let (node, connections) = (line.node, line.old.len() + 1);
                    let log = &line.client.log;
                    let last = kinds(&log[log.len().saturating_sub(12)..]);
                    self.finding(format!(
                        "{seat} heard up to seq {heard}; the table's acknowledged moves reached \
                         seq {target}: no events for {HEAR_WITHIN:?} on its connection #\
                         {connections} (through node {node}; its last messages: {last}); \
                         resuming again"
                    ));
                    self.resume(seat).await;
                    return;
                }
            }
        }
    }

    /// Plays the mirror's move for `seat` until the server applied it; `false` when the table
    /// cannot go on (a finding says why).
    async fn act(&mut self, seat: Seat) -> bool {
        let action = self.mirror.choose();
        let before = self.mirror.game.clone();
        let mut after = before.clone();
        after
            .act(seat, &action)
            .expect("the mirror's own choice is legal");
        for _ in 0..ATTEMPTS {
            if Instant::now() > self.deadline {
                return true; // the main loop reports it
            }
            let id = self.id.clone();
            let line = self.line(seat);
            let mark = line.client.log.len();
            let request_id = line.client.id();
            let sent = line
                .client
                .try_send(&to_request(&action, id, request_id))
                .await;
            let reply = if sent {
                self.reply_to(seat, request_id).await
            } else {
                Reply::Closed
            };
            let line = self.line(seat);
            let since_request = line.client.log[mark..].to_vec();
            let node = line.node;
            match reply {
                Reply::Ok => {
                    if !since_request.iter().any(|m| announces(m, seat, &action)) {
                        self.finding(format!(
                            "{seat} {action:?} acknowledged through node {node} with no event \
                             of it before the ok (received since the request: {}); resuming",
                            kinds(&since_request)
                        ));
                        self.apply(seat, &action);
                        self.stats.acknowledged += 1;
                        self.resume(seat).await;
                        return true;
                    }
                    self.apply(seat, &action);
                    self.stats.acknowledged += 1;
                    return true;
                }
                Reply::Refused(refusal) => {
                    let ServerMessage::Error { code, message, .. } = &refusal else {
                        unreachable!()
                    };
                    let parsed = ErrorCode::parse(code);
                    let moving = parsed.is_some_and(|c| MOVING.contains(&c));
                    if moving {
                        let code = parsed.expect("known").as_str();
                        *self.stats.refused.entry(code).or_default() += 1;
                    } else {
                        self.finding(format!(
                            "{seat} {action:?} through node {node} refused: {refusal:?}"
                        ));
                        if matches!(
                            parsed,
                            Some(ErrorCode::IllegalAction | ErrorCode::NoHandInPlay)
                        ) {
                            return false;
                        }
                    }
                    let Some(caught_up) = self.resume(seat).await else {
                        return false;
                    };
                    // A refusal did nothing (PROTOCOL.md section 7): check it did not.
                    match self.applied_by_server(
                        seat,
                        &action,
                        &before,
                        &after,
                        &since_request,
                        &caught_up,
                    ) {
                        None => return false,
                        Some(false) => {}
                        Some(true) => {
                            self.finding(format!(
                                "{seat} {action:?} refused {code} ({message}) through node \
                                 {node}, yet the server applied it"
                            ));
                            self.apply(seat, &action);
                            return true;
                        }
                    }
                }
                Reply::Closed | Reply::Silent => {
                    if matches!(reply, Reply::Silent) {
                        self.finding(format!(
                            "{seat} {action:?} through node {node}: no reply in {REPLY_WITHIN:?} \
                             on an open connection; resuming"
                        ));
                    }
                    self.stats.in_doubt += 1;
                    // A move another node was forwarding when the connection died may still
                    // reach the table: let it land before asking what the table holds.
                    tokio::time::sleep(SETTLE).await;
                    let Some(caught_up) = self.resume(seat).await else {
                        return false;
                    };
                    match self.applied_by_server(
                        seat,
                        &action,
                        &before,
                        &after,
                        &since_request,
                        &caught_up,
                    ) {
                        None => return false,
                        Some(false) => {}
                        Some(true) => {
                            self.stats.in_doubt_applied += 1;
                            self.apply(seat, &action);
                            return true;
                        }
                    }
                }
            }
        }
        self.finding(format!(
            "{seat} {action:?} not applied after {ATTEMPTS} attempts"
        ));
        false
    }

    fn apply(&mut self, seat: Seat, action: &Action) {
        self.mirror
            .game
            .act(seat, action)
            .expect("the server applied it: the mirror agrees");
        self.applied.push(RecordInput::from_rules(&Input::Act {
            seat,
            action: action.clone(),
        }));
        let heard = self.line(seat).heard();
        self.table_seq = self.table_seq.max(heard);
    }

    /// The reply to request `id` of `seat`'s connection.
    async fn reply_to(&mut self, seat: Seat, id: u64) -> Reply {
        let client = &mut self.line(seat).client;
        let until = Instant::now() + REPLY_WITHIN;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, client.read()).await {
                Err(_) => return Reply::Silent,
                Ok(None) => return Reply::Closed,
                Ok(Some(message)) if reply_id(&message) == Some(id) => {
                    return match message {
                        ServerMessage::Ok { .. } => Reply::Ok,
                        refusal => Reply::Refused(refusal),
                    };
                }
                Ok(Some(_)) => {}
            }
        }
    }

    /// After a resume: whether the server applied `seat`'s `action`, from the snapshot of the
    /// resume's sync (the seat's own hand and the table: `before` or `after` the move), else
    /// from the move's own events (heard on the old connection after the request, or in the
    /// catch-up). `None` when the server's state is neither (a finding says what it was).
    fn applied_by_server(
        &mut self,
        seat: Seat,
        action: &Action,
        before: &Game,
        after: &Game,
        since_request: &[ServerMessage],
        caught_up: &[ServerMessage],
    ) -> Option<bool> {
        let snapshot = caught_up.iter().rev().find_map(|m| match m {
            ServerMessage::Snapshot { view, seq, .. } => Some((view, *seq)),
            _ => None,
        });
        if let Some((view, seq)) = snapshot {
            self.stats.by_snapshot += 1;
            let seen = Seen::of_snapshot(view);
            let (was, would) = (Seen::of_game(before, seat), Seen::of_game(after, seat));
            return match seen {
                Some(seen) if seen == would => Some(true),
                Some(seen) if seen == was => Some(false),
                seen => {
                    self.finding(format!(
                        "after {seat} {action:?} in doubt, the snapshot (seq {seq}) is neither \
                         the table before nor after it: {seen:?}; before {was:?}; after {would:?}"
                    ));
                    None
                }
            };
        }
        self.stats.by_events += 1;
        Some(
            since_request
                .iter()
                .chain(caught_up)
                .any(|m| announces(m, seat, action)),
        )
    }

    /// Reconnects `seat` through a live node with its session token and syncs from the last
    /// seq it heard, retrying while the table moves (bounded). Returns what the sync brought
    /// (events or a snapshot, then `ok`), or `None` after a finding.
    async fn resume(&mut self, seat: Seat) -> Option<Vec<ServerMessage>> {
        self.stats.resumes += 1;
        let lost = Instant::now();
        let table = self.id.clone();
        let line = &self.lines[seat.index()];
        let (name, token) = (line.name.clone(), line.token.clone());
        if let Some((code, _)) = line.client.closed_with {
            *self.stats.closes.entry(code).or_default() += 1;
        }
        let give_up = lost + RESUME_WITHIN;
        for _ in 0..200 {
            if Instant::now() > give_up {
                break;
            }
            let Some((node, addr)) = self.live.pick(&mut self.rng) else {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            };
            let connected = tokio::time::timeout(
                Duration::from_secs(10),
                Client::try_connect(addr, &name, Some(&token)),
            )
            .await;
            let Ok(Ok((mut client, welcome))) = connected else {
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            };
            let ServerMessage::Welcome { resumed, seats, .. } = &welcome else {
                unreachable!()
            };
            if !resumed || !seats.iter().any(|s| s.table == table && s.seat.0 == seat) {
                self.finding(format!(
                    "{seat}'s resume through node {node} welcomed with resumed {resumed}, seats \
                     {seats:?}"
                ));
            }
            // Sync on this connection until the table is served (a resume while the table is
            // between nodes is attached when it is served again).
            let last = self.line(seat).heard();
            for _ in 0..100 {
                let mark = client.log.len();
                let reply = tokio::time::timeout(
                    Duration::from_secs(10),
                    try_sync(&mut client, &table, last),
                )
                .await;
                match reply {
                    Ok(Some(ServerMessage::Ok { .. })) => {
                        let caught_up = client.log[mark..].to_vec();
                        self.check_own_snapshot(seat, node, &caught_up);
                        let line = self.line(seat);
                        let old = std::mem::replace(&mut line.client, client);
                        line.old.push(old);
                        line.node = node;
                        self.stats.longest_outage = self.stats.longest_outage.max(lost.elapsed());
                        return Some(caught_up);
                    }
                    Ok(Some(ServerMessage::Error { code, .. }))
                        if ErrorCode::parse(&code).is_some_and(|c| MOVING.contains(&c)) =>
                    {
                        let code = ErrorCode::parse(&code).expect("known").as_str();
                        *self.stats.sync_refused.entry(code).or_default() += 1;
                        if Instant::now() > give_up {
                            break;
                        }
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                    Ok(Some(other)) => {
                        self.finding(format!(
                            "{seat}'s sync from seq {last} through node {node}: {other:?}"
                        ));
                        tokio::time::sleep(Duration::from_millis(200)).await;
                        break;
                    }
                    Ok(None) | Err(_) => break,
                }
            }
            // This connection closed (or never synced): keep what it heard, try another.
            if let Some((code, _)) = &client.closed_with {
                *self.stats.closes.entry(*code).or_default() += 1;
            }
            self.line(seat).old.push(client);
        }
        self.finding(format!("{seat} could not resume within {RESUME_WITHIN:?}"));
        None
    }

    /// A sync is a request through the seat's newest connection: the connection is attached
    /// before it is answered, so a snapshot it brings shows the seat connected, and played by
    /// no server bot.
    fn check_own_snapshot(&mut self, seat: Seat, node: usize, caught_up: &[ServerMessage]) {
        for message in caught_up {
            let ServerMessage::Snapshot { view, seq, .. } = message else {
                continue;
            };
            let Some(own) = view.seats.iter().find(|s| s.seat.0 == seat) else {
                continue;
            };
            if !own.connected || own.bot {
                let own = own.clone();
                self.finding(format!(
                    "the snapshot (seq {seq}) answering {seat}'s sync through node {node} shows \
                     the seat {own:?}"
                ));
            }
        }
    }

    /// Every seat's connection hears the hand end (a closed one resumes and syncs instead).
    async fn hear_the_end(&mut self) {
        for seat in Seat::ALL {
            let until = Instant::now() + HEAR_WITHIN * 2;
            loop {
                let ended = self
                    .line(seat)
                    .client
                    .log
                    .iter()
                    .any(|m| matches!(m, ServerMessage::HandEnded { .. }));
                if ended {
                    break;
                }
                let left = until.saturating_duration_since(Instant::now());
                match tokio::time::timeout(left, self.line(seat).client.read()).await {
                    Ok(Some(_)) => {}
                    Ok(None) => {
                        self.resume(seat).await;
                        break;
                    }
                    Err(_) => {
                        let node = self.line(seat).node;
                        let heard = self.line(seat).client.seqs().into_iter().max();
                        self.finding(format!(
                            "{seat}'s connection through node {node} (heard up to seq \
                             {heard:?}) never heard the hand end"
                        ));
                        break;
                    }
                }
            }
        }
    }

    /// The hand's record, from any live node: every move the server applied, exactly once and
    /// in order, and nothing else (no server bot's move); it replays to its announced score.
    async fn check_record(&mut self, finished: bool) {
        let path = format!("/api/tables/{}/hands", self.id);
        let until = Instant::now() + Duration::from_secs(30);
        let mut records = None;
        while Instant::now() < until {
            if let Some((_, addr)) = self.live.pick(&mut self.rng)
                && let Ok(Ok((200, body))) =
                    tokio::time::timeout(Duration::from_secs(5), try_http_get(addr, &path)).await
                && let Ok(list) = serde_json::from_str::<Vec<serde_json::Value>>(&body)
                && (!finished || !list.is_empty())
            {
                records = Some(list);
                break;
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        let Some(records) = records else {
            self.finding(format!("no node served {path}"));
            return;
        };
        if !finished {
            return;
        }
        if records.len() != 1 {
            self.finding(format!("{} hand records, not 1", records.len()));
            return;
        }
        let record = HandRecord::from_json(&records[0].to_string()).expect("a hand record");
        let inputs: Vec<RecordInput> = record.inputs.iter().map(|r| r.input.clone()).collect();
        if inputs != self.applied {
            let at = inputs
                .iter()
                .zip(&self.applied)
                .position(|(a, b)| a != b)
                .unwrap_or(inputs.len().min(self.applied.len()));
            self.finding(format!(
                "the record holds {} inputs, the server applied {} moves of the test's; first \
                 difference at input {at}: record {:?}, test {:?}",
                inputs.len(),
                self.applied.len(),
                inputs.get(at),
                self.applied.get(at)
            ));
        }
        match (record.replay(), &record.outcome) {
            (Ok(replayed), Some(outcome)) if replayed.matches(outcome) => {}
            (replayed, outcome) => self.finding(format!(
                "the record does not replay to its score: replay {:?}, outcome {outcome:?}",
                replayed.map(|r| r.outcome())
            )),
        }
        // Every copy a seat's connection received is that record.
        let copies: Vec<String> = self
            .lines
            .iter()
            .flat_map(|l| l.old.iter().chain([&l.client]))
            .flat_map(|c| &c.log)
            .filter_map(|m| match m {
                ServerMessage::HandRecord { record, .. } => Some(record.clone()),
                _ => None,
            })
            .collect();
        for copy in copies {
            if HandRecord::from_json(&copy).ok().as_ref() != Some(&record) {
                self.finding(format!(
                    "a hand_record event differs from the served record: {copy}"
                ));
            }
        }
    }

    /// No seq named two events for a seat, over all its connections; no server bot stood in for
    /// a seat (the test never leaves one without a connection for its grace).
    fn check_history(&mut self) {
        let mut found = Vec::new();
        for line in &self.lines {
            let clients: Vec<(Seat, &Client)> = line
                .old
                .iter()
                .chain([&line.client])
                .map(|c| (line.seat, c))
                .collect();
            found.extend(two_events_under_one_seq(&clients));
            for client in line.old.iter().chain([&line.client]) {
                for message in &client.log {
                    if let ServerMessage::PlayerReplacedByBot { seat, seq, .. } = message {
                        found.push(format!(
                            "{} heard player_replaced_by_bot #{seq} for {}: a server bot stood in \
                             (the test's longest outage of a seat: {:?}, grace {GRACE:?})",
                            line.seat, seat.0, self.stats.longest_outage
                        ));
                    }
                }
            }
        }
        found.sort();
        found.dedup();
        for f in found {
            self.finding(f);
        }
    }
}

/// A driver for each opened table (each seated through the nodes of `via`), paced so that an
/// undisturbed hand lasts about `play`.
fn drive(
    opened: Vec<(Table, Mirror, Vec<SocketAddr>)>,
    play: Duration,
    live: &Live,
    seed: u64,
    deadline: Instant,
    started: Instant,
) -> Vec<Driver> {
    let mut drivers = Vec::new();
    for (index, (table, mirror, via)) in opened.into_iter().enumerate() {
        // Paced so that an undisturbed hand lasts about `play`: the chaos hits every stage.
        let mut sim = Game::clone(&mirror.game);
        let mut moves = 0u32;
        while !sim.is_over() && moves < 2_000 {
            let seat = sim.on_turn();
            let action = Mirror { game: sim.clone() }.choose();
            sim.act(seat, &action).expect("legal");
            moves += 1;
        }
        let mut lines: Vec<Line> = table
            .clients
            .into_iter()
            .map(|(seat, client)| Line {
                seat,
                name: client.name.clone(),
                token: client.session.clone(),
                node: 0,
                client,
                old: Vec::new(),
            })
            .collect();
        lines.sort_by_key(|l| l.seat);
        assert_eq!(
            lines.iter().map(|l| l.seat).collect::<Vec<_>>(),
            Seat::ALL.to_vec()
        );
        // open_across seats the creator through via[0], the others through via[1..] in join order.
        for (line, addr) in lines.iter_mut().zip(&via) {
            line.node = live.node_of(*addr);
        }
        let table_seq = lines
            .iter()
            .map(|l| l.client.seqs().into_iter().max().unwrap_or(0))
            .max()
            .unwrap_or(0);
        drivers.push(Driver {
            index,
            id: table.id,
            lines,
            mirror,
            applied: Vec::new(),
            table_seq,
            live: live.clone(),
            rng: Rng(seed.wrapping_add(1 + index as u64)),
            pace: play / moves.max(1),
            deadline,
            started,
            stats: Stats::default(),
            findings: Vec::new(),
        });
    }
    drivers
}

/// Kills a random node (-9) at random moments and restarts it (same name and data) until the
/// chaos is over or every table finished; returns the nodes and what it did.
async fn chaos(
    nats: Arc<Nats>,
    mut nodes: Vec<Option<Node>>,
    live: Live,
    done: Arc<AtomicBool>,
    seed: u64,
    started: Instant,
) -> (Vec<Option<Node>>, Vec<String>) {
    let mut rng = Rng(seed ^ 0xc4a0_5c4a_05c4_a05c);
    let mut kills = Vec::new();
    for _ in 0..1_000 {
        let wait = Duration::from_millis(rng.between(KILL_EVERY_MS));
        let until = Instant::now() + wait;
        while Instant::now() < until && !done.load(Ordering::Relaxed) {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        if done.load(Ordering::Relaxed) || started.elapsed() > CHAOS {
            break;
        }
        let i = rng.below(nodes.len());
        let down = Duration::from_millis(rng.between(DOWN_MS));
        let mut node = nodes[i].take().expect("running");
        live.set(i, None);
        let at = started.elapsed();
        node.process.kill().expect("SIGKILL");
        node.process.wait().expect("reaped");
        tokio::time::sleep(down).await;
        let nats = nats.clone();
        let node = tokio::task::spawn_blocking(move || node.restart(&nats))
            .await
            .expect("restarted");
        live.set(i, Some(node.addr));
        kills.push(format!(
            "{:.1}s kill -9 {} (down {down:?}, back on {})",
            at.as_secs_f32(),
            node.name,
            node.addr
        ));
        nodes[i] = Some(node);
    }
    (nodes, kills)
}

/// Issue 19's chaos test: every table finishes; every acknowledged move is in its record once,
/// in order, and the record replays to its score; no seq names two events for a seat; every
/// resumed connection hears its table (no `ok` without its events before it); no server bot
/// plays a seat whose player is connected.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_killed_and_restarted_at_random_while_a_dozen_tables_play_lose_nothing() {
    let seed = chaos_seed();
    eprintln!("chaos: seed {seed} (BURRACO_CHAOS_SEED={seed} runs this schedule again)");
    let started = Instant::now();
    let nats = Arc::new(Nats::start(3));
    let grace = GRACE.as_secs().to_string();
    let nodes: Vec<Option<Node>> = (1..=3)
        .map(|i| {
            let flags = ["--disconnect-grace-secs", grace.as_str()];
            Some(Node::start_with(&nats, &format!("node-{i}"), &flags))
        })
        .collect();
    let addrs: Vec<SocketAddr> = nodes.iter().flatten().map(|n| n.addr).collect();
    let live = Live(Arc::new(Mutex::new(
        addrs.iter().copied().map(Some).collect(),
    )));

    // Each seat through a node of the seeded draw (the creator resumes through its own).
    let mut rng = Rng(seed);
    let opening = (0..TABLES).map(|_| {
        let via: Vec<SocketAddr> = (0..4).map(|_| addrs[rng.below(addrs.len())]).collect();
        async move {
            let mut table = open_across(via[0], &via, 1).await;
            let mirror = table.next_hand().await;
            (table, mirror, via)
        }
    });
    let opened = futures_util::future::join_all(opening).await;
    eprintln!("chaos: {TABLES} tables dealt after {:?}", started.elapsed());

    let deadline = started + FINISH_WITHIN;
    let chaos_started = Instant::now();
    let drivers = drive(opened, PLAY, &live, seed, deadline, chaos_started);
    let done = Arc::new(AtomicBool::new(false));
    let chaos = tokio::spawn(chaos(
        nats.clone(),
        nodes,
        live.clone(),
        done.clone(),
        seed,
        chaos_started,
    ));
    let tasks: Vec<_> = drivers.into_iter().map(|d| tokio::spawn(d.run())).collect();
    let mut reports: Vec<Report> = Vec::new();
    for task in tasks {
        reports.push(task.await.expect("a table's task"));
    }
    done.store(true, Ordering::Relaxed);
    let (nodes, kills) = chaos.await.expect("the chaos task");

    let mut total = Stats::default();
    eprintln!("chaos: {} kills", kills.len());
    for kill in &kills {
        eprintln!("  {kill}");
    }
    for r in &reports {
        let s = &r.stats;
        eprintln!(
            "  table {:>2} {} finished {} in {:.1}s: {} acknowledged, {} resumes, refused {:?}, \
             sync refused {:?}, closes {:?}, in doubt {} (applied {}), reconciled by snapshot {} \
             by events {}, longest outage {:?}",
            r.index,
            r.id,
            r.finished,
            r.took.as_secs_f32(),
            s.acknowledged,
            s.resumes,
            s.refused,
            s.sync_refused,
            s.closes,
            s.in_doubt,
            s.in_doubt_applied,
            s.by_snapshot,
            s.by_events,
            s.longest_outage
        );
        total.acknowledged += s.acknowledged;
        total.resumes += s.resumes;
        total.in_doubt += s.in_doubt;
        total.in_doubt_applied += s.in_doubt_applied;
        total.longest_outage = total.longest_outage.max(s.longest_outage);
    }
    eprintln!(
        "chaos: seed {seed}, {} tables, {} kills, {} resumes, {} acknowledged moves, {} in doubt \
         ({} applied), longest outage {:?}, {:?} in all",
        reports.len(),
        kills.len(),
        total.resumes,
        total.acknowledged,
        total.in_doubt,
        total.in_doubt_applied,
        total.longest_outage,
        started.elapsed()
    );
    drop(nodes);
    drop(nats);

    let findings: Vec<&String> = reports.iter().flat_map(|r| &r.findings).collect();
    assert!(
        findings.is_empty(),
        "seed {seed}: {} findings:\n{}",
        findings.len(),
        findings
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(reports.iter().all(|r| r.finished));
    assert!(!kills.is_empty(), "the chaos killed nodes");
}
