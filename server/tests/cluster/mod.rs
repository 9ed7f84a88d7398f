//! Cluster mode with real processes on loopback: NATS servers (JetStream, clustered) from the
//! project's pinned PyPI wheel (scripts/nats-server.sh installs it) and server nodes.

use std::net::{SocketAddr, TcpListener};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use burraco_protocol::record::HandRecord;
use burraco_protocol::wire::{ClientMessage, ServerMessage};
use burraco_rules::Seat;
use burraco_server::cluster::log::JetStreamLog;

use crate::common::*;
use crate::crash::ServerProcess;

/// The pinned nats-server, installed on first use.
fn nats_server_bin() -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/nats-server.sh");
    let out = Command::new("bash")
        .arg(script)
        .output()
        .expect("scripts/nats-server.sh runs");
    assert!(
        out.status.success(),
        "installing nats-server failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("a path")
        .trim()
        .to_owned()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .expect("a free port")
        .local_addr()
        .expect("address")
        .port()
}

/// NATS servers with JetStream on loopback, clustered when more than one; killed when dropped.
pub struct Nats {
    pub servers: Vec<ServerProcess>,
    pub ports: Vec<u16>,
    routes: Vec<u16>,
    dir: tempfile::TempDir,
}

impl Nats {
    pub fn start(count: usize) -> Nats {
        let ports: Vec<u16> = (0..count).map(|_| free_port()).collect();
        let routes: Vec<u16> = (0..count).map(|_| free_port()).collect();
        let mut nats = Nats {
            servers: Vec::new(),
            ports,
            routes,
            dir: tempfile::tempdir().expect("temp dir"),
        };
        for i in 0..count {
            let server = nats.spawn(i);
            nats.servers.push(server);
        }
        nats.wait_ready();
        nats
    }

    fn spawn(&self, i: usize) -> ServerProcess {
        let store = self.dir.path().join(format!("n{i}"));
        let mut command = Command::new(nats_server_bin());
        command
            .args(["-a", "127.0.0.1", "-p", &self.ports[i].to_string()])
            .args(["-n", &format!("nats-{i}"), "-js", "-sd"])
            .arg(&store)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if self.ports.len() > 1 {
            let routes: Vec<String> = self
                .routes
                .iter()
                .map(|p| format!("nats://127.0.0.1:{p}"))
                .collect();
            command
                .args(["--cluster_name", "burraco-test"])
                .args(["--cluster", &format!("nats://127.0.0.1:{}", self.routes[i])])
                .args(["--routes", &routes.join(",")]);
        }
        ServerProcess(command.spawn().expect("nats-server starts"))
    }

    /// Kills server `i` (SIGKILL) and starts it again on the same ports and store.
    pub fn restart(&mut self, i: usize) {
        let _ = self.servers[i].kill();
        let _ = self.servers[i].wait();
        self.servers[i] = self.spawn(i);
    }

    pub fn urls(&self) -> String {
        self.ports
            .iter()
            .map(|p| format!("nats://127.0.0.1:{p}"))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Until every server accepts connections and (clustered) JetStream has a meta leader.
    fn wait_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        for port in &self.ports {
            while std::net::TcpStream::connect(("127.0.0.1", *port)).is_err() {
                assert!(Instant::now() < deadline, "nats-server on {port} answers");
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

/// A server node in cluster mode; its data dir holds only what a node keeps locally.
pub struct Node {
    pub process: ServerProcess,
    pub addr: SocketAddr,
    pub name: String,
    data: tempfile::TempDir,
    /// Flags beyond the cluster's own, kept for a restart.
    extra: Vec<String>,
}

impl Node {
    pub fn start(nats: &Nats, name: &str) -> Node {
        Node::start_on(nats, name, tempfile::tempdir().expect("temp dir"), 3)
    }

    /// [`Node::start`] with more flags (kept for its restarts).
    pub(crate) fn start_with(nats: &Nats, name: &str, extra: &[&str]) -> Node {
        let extra = extra.iter().map(|f| f.to_string()).collect();
        Node::start_flagged(nats, name, tempfile::tempdir().expect("temp dir"), 3, extra)
    }

    /// A node that reaches NATS at `urls` (a proxy in front of the servers) instead of the
    /// servers' own addresses; not restartable.
    pub(crate) fn start_via(urls: &str, name: &str, extra: &[&str]) -> Node {
        let data = tempfile::tempdir().expect("temp dir");
        let mut flags = vec!["--nats", urls, "--node", name, "--lease-secs", "3"];
        flags.extend(extra);
        let (process, addr) = crate::crash::start_with(data.path(), &flags);
        Node {
            process,
            addr,
            name: name.to_owned(),
            data,
            extra: Vec::new(),
        }
    }

    fn start_on(nats: &Nats, name: &str, data: tempfile::TempDir, lease_secs: u32) -> Node {
        Node::start_flagged(nats, name, data, lease_secs, Vec::new())
    }

    fn start_flagged(
        nats: &Nats,
        name: &str,
        data: tempfile::TempDir,
        lease_secs: u32,
        extra: Vec<String>,
    ) -> Node {
        let lease = lease_secs.to_string();
        let urls = nats.urls();
        let mut flags = vec!["--nats", &urls, "--node", name, "--lease-secs", &lease];
        flags.extend(extra.iter().map(String::as_str));
        let (process, addr) = crate::crash::start_with(data.path(), &flags);
        Node {
            process,
            addr,
            name: name.to_owned(),
            data,
            extra,
        }
    }

    fn pid(&self) -> String {
        self.process.id().to_string()
    }

    /// SIGTERM, and waits for the drain and the exit (bounded).
    pub fn terminate(&mut self) {
        signal(&self.pid(), "-TERM");
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.process.try_wait().expect("wait").is_none() {
            assert!(
                Instant::now() < deadline,
                "{} exits after SIGTERM",
                self.name
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The same node started again (same name and data dir).
    pub fn restart(self, nats: &Nats) -> Node {
        let Node {
            name,
            data,
            mut process,
            extra,
            ..
        } = self;
        let _ = process.kill();
        let _ = process.wait();
        Node::start_flagged(nats, &name, data, 3, extra)
    }
}

fn signal(pid: &str, which: &str) {
    let status = Command::new("kill")
        .args([which, pid])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill {which} {pid}");
}

/// Reconnects every seat through `through(seat)` with its session token and syncs from the last
/// event it saw, retrying while the table moves (bounded); returns the old clients.
async fn resume_all(
    table: &mut Table,
    through: impl Fn(Seat) -> SocketAddr,
    within: Duration,
) -> Vec<(Seat, Client)> {
    let sessions: Vec<(Seat, String, String, u64)> = table
        .clients
        .iter()
        .map(|(s, c)| {
            let last = c.seqs().into_iter().max().unwrap_or(0);
            (*s, c.name.clone(), c.session.clone(), last)
        })
        .collect();
    let mut old = Vec::new();
    for (seat, name, token, last) in sessions {
        let deadline = Instant::now() + within;
        let client = loop {
            let (mut c, _) = Client::connect(through(seat), &name, Some(&token)).await;
            // A connection made while the table moves may itself be closed (1012): resume again.
            let reply = try_sync(&mut c, &table.id, last).await;
            if matches!(reply, Some(ServerMessage::Ok { .. })) {
                break c;
            }
            assert!(Instant::now() < deadline, "{name} resumes: {reply:?}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        old.push((seat, table.replace(seat, client)));
    }
    old
}

/// `sync`, and its reply; `None` if the connection closes first.
pub(crate) async fn try_sync(c: &mut Client, table: &str, last_seq: u64) -> Option<ServerMessage> {
    let id = c.id();
    let sync = ClientMessage::Sync {
        id,
        table: table.to_owned(),
        last_seq,
    };
    if !c.try_send(&sync).await {
        return None;
    }
    loop {
        let message = c.read().await?;
        if reply_id(&message) == Some(id) {
            return Some(message);
        }
        c.inbox.push_back(message);
    }
}

/// No two events under one seq: whatever connections a seat had, through whichever nodes, an
/// event number always meant the same event.
fn assert_one_history(clients: &[(Seat, &Client)]) {
    let conflicts = two_events_under_one_seq(clients);
    assert!(conflicts.is_empty(), "{}", conflicts.join("\n"));
}

/// Each seq that named two different events for a seat, with both events.
pub(crate) fn two_events_under_one_seq(clients: &[(Seat, &Client)]) -> Vec<String> {
    let mut seen: std::collections::HashMap<(Seat, u64), &ServerMessage> =
        std::collections::HashMap::new();
    let mut conflicts = Vec::new();
    for (seat, client) in clients {
        for message in &client.log {
            if matches!(message, ServerMessage::Snapshot { .. }) {
                continue;
            }
            if let Some(seq) = message.seq() {
                let first = seen.entry((*seat, seq)).or_insert(message);
                if *first != message {
                    conflicts.push(format!(
                        "{seat}: two events numbered {seq}: {first:?} and {message:?}"
                    ));
                }
            }
        }
    }
    conflicts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jetstream_log_conforms() {
    let nats = Nats::start(1);
    let client = async_nats::connect(nats.urls().as_str())
        .await
        .expect("connect");
    let js = async_nats::jetstream::new(client);
    let log = Arc::new(
        JetStreamLog::open(js.clone(), "conformance", 1)
            .await
            .expect("open"),
    );
    crate::log::conformance(log.clone()).await;

    // A second writer (another node) is fenced by the stream, not by its own memory.
    let other = JetStreamLog::open(js.clone(), "other", 1)
        .await
        .expect("open");
    let stale = burraco_server::log::TableLog::append(&other, "t-c", 0, vec![vec![9]]).await;
    assert!(
        matches!(
            stale,
            Err(burraco_server::log::LogError::Conflict { found: 3, .. })
        ),
        "{stale:?}"
    );

    // A new owner reads the log and fences it: an append the former writer still had on its
    // way, expecting the same last message, is refused; the new owner's is not, and the fence
    // adds no entry.
    use burraco_server::log::TableLog as _;
    let new_owner = JetStreamLog::open(js.clone(), "new-owner", 1)
        .await
        .expect("open");
    assert_eq!(new_owner.load("t-c").await.expect("load").len(), 3);
    new_owner.fence("t-c").await.expect("fenced");
    let late = log.append("t-c", 3, vec![vec![9]]).await;
    assert!(
        matches!(
            late,
            Err(burraco_server::log::LogError::Conflict { found: 3, .. })
        ),
        "{late:?}"
    );
    assert_eq!(new_owner.append("t-c", 3, vec![vec![7]]).await, Ok(4));
    assert_eq!(
        other.load("t-c").await.expect("load").last(),
        Some(&vec![7])
    );
}

/// A takeover reads a log by batched direct gets of at most 1,000 messages: a longer log,
/// interleaved in the stream with another table's, comes back whole and in order to a reader
/// that never wrote it (another node), with no consumer made, and its fence lands after the last
/// message read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_longer_than_one_batched_read_comes_back_whole() {
    use burraco_server::log::TableLog as _;
    let nats = Nats::start(1);
    let client = async_nats::connect(nats.urls().as_str())
        .await
        .expect("connect");
    let js = async_nats::jetstream::new(client);
    let writer = JetStreamLog::open(js.clone(), "writer", 1)
        .await
        .expect("open");
    let entry = |n: u32| n.to_le_bytes().to_vec();
    let mut long = Vec::new();
    let mut short = Vec::new();
    for n in 0..1_205u32 {
        let appended = writer.append("t-long", u64::from(n), vec![entry(n)]).await;
        assert_eq!(appended, Ok(u64::from(n) + 1));
        long.push(entry(n));
        if n % 100 == 0 {
            let at = short.len() as u64;
            assert_eq!(
                writer.append("t-short", at, vec![entry(n)]).await,
                Ok(at + 1)
            );
            short.push(entry(n));
        }
    }
    let reader = JetStreamLog::open(js.clone(), "reader", 1)
        .await
        .expect("open");
    assert_eq!(reader.load("t-long").await.expect("load"), long);
    assert_eq!(reader.load("t-short").await.expect("load"), short);
    // Read without a consumer (the direct gets answered): none was made on the stream.
    let mut stream = js
        .get_stream(burraco_server::cluster::log::LOG_STREAM)
        .await
        .expect("the log stream");
    let consumers = stream.info().await.expect("info").state.consumer_count;
    assert_eq!(consumers, 0, "the logs were read through consumers");
    reader.fence("t-long").await.expect("fenced");
    let late = writer.append("t-long", 1_205, vec![entry(0)]).await;
    assert!(
        matches!(
            late,
            Err(burraco_server::log::LogError::Conflict { found: 1_205, .. })
        ),
        "{late:?}"
    );
}

/// Connects a named client to a node (speaking postcard if `binary`, else JSON) and seats it at
/// `table`.
async fn join(addr: SocketAddr, name: &str, table: &str, binary: bool) -> (Seat, Client) {
    let mut c = Client::connect_as(addr, name, None, binary).await.0;
    let table = table.to_owned();
    let reply = c
        .request(|id| ClientMessage::Join {
            id,
            table: Some(table),
            invite: None,
            seat: None,
        })
        .await;
    let ServerMessage::Seated { seat, .. } = reply else {
        panic!("join: {reply:?}")
    };
    (seat.0, c)
}

/// Until the node at `node` lists `table` (other nodes learn of a table from the lobby within a
/// flush).
async fn wait_listed(node: SocketAddr, table: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut probe = Client::connect(node, "probe", None).await.0;
        let reply = probe.request(|id| ClientMessage::ListTables { id }).await;
        if let ServerMessage::Tables { tables, .. } = &reply
            && tables.iter().any(|t| t.table == table)
        {
            return;
        }
        assert!(Instant::now() < deadline, "the table is listed on {node}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Creates a 4-player table at `create_at`, then seats the players through `nodes` in turn (the
/// creator resumes its session through `nodes[0]`).
pub(crate) async fn open_across(create_at: SocketAddr, nodes: &[SocketAddr], hands: u8) -> Table {
    let settings = settings("fitab", 4, Some(hands), "off");
    let config = burraco_protocol::convert::config_from_wire(&settings).expect("settings");
    let mut creator = Client::connect(create_at, "north", None).await.0;
    let reply = creator
        .request(|id| ClientMessage::CreateTable {
            id,
            settings: settings.clone(),
            private: false,
            bots: None,
        })
        .await;
    let ServerMessage::TableCreated { table, seat, .. } = reply else {
        panic!("create: {reply:?}")
    };
    let creator = if create_at == nodes[0] {
        creator
    } else {
        wait_listed(nodes[0], &table).await;
        let token = creator.session.clone();
        drop(creator);
        Client::connect(nodes[0], "north", Some(&token)).await.0
    };
    let mut clients = vec![(seat.0, creator)];
    for (i, name) in ["east", "south", "west"].into_iter().enumerate() {
        let node = nodes[(i + 1) % nodes.len()];
        wait_listed(node, &table).await;
        // South speaks postcard: a table's frames reach another node's connections encoded in
        // each connection's own format.
        clients.push(join(node, name, &table, name == "south").await);
    }
    for (_, c) in &mut clients {
        let table = table.clone();
        c.ok(|id| ClientMessage::Ready { id, table }).await;
    }
    Table {
        id: table,
        config,
        clients,
    }
}

/// Every party's knowledge checked after every step: seats see their own hand only, the
/// spectator sees no hand, whichever node their frames come through.
struct EveryoneChecked {
    spectator: Client,
    spectator_knows: Knowledge,
    seats_know: Vec<Knowledge>,
}

impl AsyncStep for &mut EveryoneChecked {
    async fn step(&mut self, table: &mut Table, mirror: &Mirror) {
        self.spectator_knows.observe(&mirror.game);
        self.spectator.barrier().await;
        self.spectator_knows.check(&mut self.spectator);
        for knows in &mut self.seats_know {
            knows.observe(&mirror.game);
            let seat = knows.seat.expect("a seat");
            let client = table.client(seat);
            client.barrier().await;
            knows.check(client);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hand_with_seats_on_three_nodes_and_a_spectator_hides_every_hand() {
    let nats = Nats::start(3);
    let nodes: Vec<Node> = (1..=3)
        .map(|i| Node::start(&nats, &format!("node-{i}")))
        .collect();
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let mut table = open_across(addrs[0], &addrs, 1).await;
    let mut spectator = Client::connect_as(addrs[2], "watcher", None, true).await.0;
    let id = table.id.clone();
    spectator
        .ok(|i| ClientMessage::Spectate { id: i, table: id })
        .await;
    let mut mirror = table.next_hand().await;
    let mut checks = EveryoneChecked {
        spectator,
        spectator_knows: Knowledge::of(None),
        seats_know: Seat::ALL
            .into_iter()
            .map(|s| Knowledge::of(Some(s)))
            .collect(),
    };
    checks.spectator_knows.observe(&mirror.game);
    for knows in &mut checks.seats_know {
        knows.observe(&mirror.game);
    }
    let steps = table.play_hand(&mut mirror, &mut checks).await;
    assert!(steps > 20);
    for (_, client) in &mut table.clients {
        client
            .wait(|m| matches!(m, ServerMessage::HandEnded { .. }))
            .await;
        assert_contiguous(client);
    }
    // Any node answers with the hand's record, read from the cluster's log.
    for addr in &addrs {
        let (status, body) = http_get(*addr, &format!("/api/tables/{}/hands", table.id)).await;
        assert_eq!(status, 200);
        let records: Vec<serde_json::Value> = serde_json::from_str(&body).expect("json");
        assert_eq!(records.len(), 1, "{addr}: {body}");
        let (status, body) = http_get(*addr, "/api/players/south/hands").await;
        assert_eq!(status, 200);
        let records: Vec<serde_json::Value> = serde_json::from_str(&body).expect("json");
        assert_eq!(records.len(), 1, "{addr}: {body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_of_the_owner_mid_hand_another_node_takes_over_and_nothing_is_lost() {
    let nats = Nats::start(3);
    let mut owner = Node::start(&nats, "node-a");
    let other = Node::start(&nats, "node-b");
    // Created on the owner; every seat plays through the other node.
    let mut table = open_across(owner.addr, &[other.addr], 1).await;
    let mut mirror = table.next_hand().await;
    let mut acknowledged = 0;
    for _ in 0..15 {
        table.step(&mut mirror).await;
        acknowledged += 1;
    }
    let killed = Instant::now();
    owner.process.kill().expect("SIGKILL");
    owner.process.wait().expect("reaped");

    // Every seat resumes through the surviving node once it serves the table.
    wait_served(&other).await;
    let old = resume_all(&mut table, |_| other.addr, Duration::from_secs(20)).await;
    let failover = killed.elapsed();
    assert!(
        failover < Duration::from_secs(15),
        "took over in {failover:?}"
    );

    table.play_hand(&mut mirror, NoCheck).await;
    // Every acknowledged action once, in order: the record replays to the mirror's end.
    let record = assert_record_replays(&mut table).await;
    assert!(record.inputs.len() >= acknowledged);
    let mut everyone: Vec<(Seat, &Client)> = old.iter().map(|(s, c)| (*s, c)).collect();
    everyone.extend(table.clients.iter().map(|(s, c)| (*s, c)));
    assert_one_history(&everyone);
    drop(nats);
}

/// A resume through a surviving node while the table is between owners (its owner killed, the
/// lease not lapsed yet) is attached to the seat when the table is served again, with nothing
/// asked of the client: the seats that only resumed hear the next move, and the hand plays on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resume_while_the_table_is_between_owners_hears_the_table_once_it_is_served_again() {
    let nats = Nats::start(3);
    let mut owner = Node::start(&nats, "node-a");
    let other = Node::start(&nats, "node-b");
    let mut table = open_across(owner.addr, &[other.addr], 1).await;
    let mut mirror = table.next_hand().await;
    for _ in 0..6 {
        table.step(&mut mirror).await;
    }
    owner.process.kill().expect("SIGKILL");
    owner.process.wait().expect("reaped");
    // At once, before the lease lapses: every seat resumes through node-b, and says nothing.
    let seats: Vec<(Seat, String, String)> = table
        .clients
        .iter()
        .map(|(s, c)| (*s, c.name.clone(), c.session.clone()))
        .collect();
    for (seat, name, token) in seats {
        let (client, welcome) = Client::connect(other.addr, &name, Some(&token)).await;
        let ServerMessage::Welcome { resumed, seats, .. } = welcome else {
            panic!("{welcome:?}")
        };
        assert!(resumed && seats.len() == 1, "{name}: {seats:?}");
        table.replace(seat, client);
    }
    wait_served(&other).await;
    // The listing of the table's new owner brings the held attaches: every seat is connected
    // again with nothing asked of its client (a move made before would reach it as a gap).
    wait_for_seats(
        other.addr,
        &table.id,
        "every resumed seat attached",
        |seats| seats.iter().all(|s| s.connected),
    )
    .await;
    let on_turn = mirror.game.on_turn();
    table.step(&mut mirror).await;
    for (seat, client) in table.clients.iter_mut().filter(|(s, _)| *s != on_turn) {
        let heard =
            tokio::time::timeout(Duration::from_secs(10), client.wait(|m| m.seq().is_some())).await;
        assert!(heard.is_ok(), "{seat} hears the table it resumed at");
    }
    // No server bot stands in for a connected player: the hand plays to its end by its seats.
    table.play_hand(&mut mirror, NoCheck).await;
    assert_record_replays(&mut table).await;
    drop(nats);
}

/// The hand's record reaches the first seat and replays to its end.
async fn assert_record_replays(table: &mut Table) -> HandRecord {
    let record = table.clients[0]
        .1
        .wait(|m| matches!(m, ServerMessage::HandRecord { .. }))
        .await;
    let ServerMessage::HandRecord { record, .. } = record else {
        unreachable!()
    };
    let record = HandRecord::from_json(&record).expect("record");
    record.replay().expect("the whole hand replays");
    record
}

/// Until `node` serves a table (bounded).
async fn wait_served(node: &Node) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while tables_on(node).await == 0 {
        assert!(
            Instant::now() < deadline,
            "{} takes the table over",
            node.name
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The node serving a table, from any node's metrics: the node whose `burraco_tables` is 1.
async fn tables_on(node: &Node) -> u64 {
    let (_, body) = http_get(node.addr, "/metrics").await;
    body.lines()
        .find_map(|l| l.strip_prefix("burraco_tables "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .map_or(0, |v| v as u64)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_owner_past_its_lease_steps_down_when_it_wakes_and_never_forks_the_table() {
    let nats = Nats::start(3);
    let owner = Node::start(&nats, "node-a");
    let other = Node::start(&nats, "node-b");
    let mut table = open_across(owner.addr, &[other.addr], 1).await;
    let mut mirror = table.next_hand().await;
    for _ in 0..10 {
        table.step(&mut mirror).await;
    }
    assert_eq!(tables_on(&owner).await, 1);

    // SIGSTOP past the lease (3 s): the other node takes the table over from the log. (A client
    // that resumes before that is closed with 1012 once the table moves, and resumes again.)
    signal(&owner.pid(), "-STOP");
    wait_served(&other).await;
    let old = resume_all(&mut table, |_| other.addr, Duration::from_secs(20)).await;
    for _ in 0..6 {
        table.step(&mut mirror).await;
    }
    assert_eq!(
        tables_on(&other).await,
        1,
        "the other node serves the table"
    );

    // SIGCONT: its lease is gone and its log position stale: it stops serving at once.
    signal(&owner.pid(), "-CONT");
    let deadline = Instant::now() + Duration::from_secs(10);
    while tables_on(&owner).await != 0 {
        assert!(Instant::now() < deadline, "the woken owner steps down");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    table.play_hand(&mut mirror, NoCheck).await;
    for (_, client) in &mut table.clients {
        client
            .wait(|m| matches!(m, ServerMessage::HandEnded { .. }))
            .await;
    }
    let mut everyone: Vec<(Seat, &Client)> = old.iter().map(|(s, c)| (*s, c)).collect();
    everyone.extend(table.clients.iter().map(|(s, c)| (*s, c)));
    assert_one_history(&everyone);
    drop(nats);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_of_the_nats_server_leading_the_log_loses_nothing() {
    let mut nats = Nats::start(3);
    // A lease longer than an election (elections measured 4.6-9.6 s here): the node keeps the
    // table through it. A shorter lease makes it step down and take the table back by replay,
    // the path the owner-failure tests cover.
    let node = Node::start_on(&nats, "node-a", tempfile::tempdir().expect("temp dir"), 20);
    let mut table = open_across(node.addr, &[node.addr], 1).await;
    let mut mirror = table.next_hand().await;
    for _ in 0..8 {
        table.step(&mut mirror).await;
    }
    // The stream's leader, as JetStream reports it.
    let servers: Vec<async_nats::ServerAddr> = nats
        .urls()
        .split(',')
        .map(|u| u.parse().expect("a NATS URL"))
        .collect();
    let client = async_nats::connect(servers).await.expect("connect");
    let js = async_nats::jetstream::new(client);
    let mut stream = js
        .get_stream(burraco_server::cluster::log::LOG_STREAM)
        .await
        .expect("the log stream");
    let info = stream.info().await.expect("stream info");
    let leader = info
        .cluster
        .as_ref()
        .and_then(|c| c.leader.clone())
        .expect("a leader");
    let index: usize = leader
        .strip_prefix("nats-")
        .and_then(|i| i.parse().ok())
        .expect("a test server's name");
    drop(js);
    nats.servers[index].kill().expect("SIGKILL");
    nats.servers[index].wait().expect("reaped");

    // Play goes on after the election (an append waits it out); nothing acknowledged is lost.
    let started = Instant::now();
    table.step(&mut mirror).await;
    eprintln!(
        "kill -9 of the stream leader: next action acknowledged after {:?}",
        started.elapsed()
    );
    table.play_hand(&mut mirror, NoCheck).await;
    assert_record_replays(&mut table).await;
    nats.restart(index);
    drop(nats);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_of_every_node_during_play_loses_nothing() {
    let nats = Nats::start(3);
    let mut nodes: Vec<Option<Node>> = (1..=3)
        .map(|i| Some(Node::start(&nats, &format!("node-{i}"))))
        .collect();
    let addrs: Vec<SocketAddr> = nodes.iter().flatten().map(|n| n.addr).collect();
    let mut table = open_across(addrs[0], &addrs, 1).await;
    let mut mirror = table.next_hand().await;
    let mut old = Vec::new();
    let mut longest_pause = Duration::ZERO;
    for i in 0..nodes.len() {
        for _ in 0..4 {
            table.step(&mut mirror).await;
        }
        // SIGTERM drains the node; it comes back under its name, on a new port.
        let mut node = nodes[i].take().expect("running");
        let paused = Instant::now();
        node.terminate();
        let live: Vec<SocketAddr> = nodes.iter().flatten().map(|n| n.addr).collect();
        old.extend(
            resume_all(
                &mut table,
                |s| live[s.index() % live.len()],
                Duration::from_secs(20),
            )
            .await,
        );
        table.step(&mut mirror).await;
        longest_pause = longest_pause.max(paused.elapsed());
        nodes[i] = Some(node.restart(&nats));
    }
    eprintln!("rolling restart: the longest pause of the table was {longest_pause:?}");
    assert!(longest_pause < Duration::from_secs(15), "{longest_pause:?}");
    table.play_hand(&mut mirror, NoCheck).await;
    assert_record_replays(&mut table).await;
    let mut everyone: Vec<(Seat, &Client)> = old.iter().map(|(s, c)| (*s, c)).collect();
    everyone.extend(table.clients.iter().map(|(s, c)| (*s, c)));
    assert_one_history(&everyone);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invites_quick_play_and_sessions_reach_across_nodes_and_a_drain_turns_readiness_off() {
    let nats = Nats::start(3);
    let mut a = Node::start(&nats, "node-a");
    let b = Node::start(&nats, "node-b");

    // A private table on node-a, joined by its invite code through node-b.
    let mut host = Client::connect(a.addr, "host", None).await.0;
    let reply = host
        .request(|id| ClientMessage::CreateTable {
            id,
            settings: settings("fitab", 2, Some(1), "off"),
            private: true,
            bots: None,
        })
        .await;
    let ServerMessage::TableCreated {
        table,
        invite: Some(invite),
        ..
    } = reply
    else {
        panic!("create: {reply:?}")
    };
    // Read-your-writes: the code works through node-b the moment the host could pass it on,
    // with no pause and no retry.
    let mut guest = Client::connect(b.addr, "guest", None).await.0;
    let code = invite.clone();
    let reply = guest
        .request(|id| ClientMessage::Join {
            id,
            table: None,
            invite: Some(code),
            seat: None,
        })
        .await;
    assert!(
        matches!(reply, ServerMessage::Seated { .. }),
        "join by invite through node-b at once: {reply:?}"
    );
    // So does a public table's id.
    let reply = host
        .request(|id| ClientMessage::CreateTable {
            id,
            settings: settings("fitab", 2, Some(1), "off"),
            private: false,
            bots: None,
        })
        .await;
    let ServerMessage::TableCreated { table: public, .. } = reply else {
        panic!("create: {reply:?}")
    };
    let mut by_id = Client::connect(b.addr, "by-id", None).await.0;
    let reply = by_id
        .request(|id| ClientMessage::Join {
            id,
            table: Some(public.clone()),
            invite: None,
            seat: None,
        })
        .await;
    assert!(
        matches!(reply, ServerMessage::Seated { .. }),
        "join by id through node-b at once: {reply:?}"
    );
    // Private: not listed on either node.
    for addr in [a.addr, b.addr] {
        let mut probe = Client::connect(addr, "probe", None).await.0;
        let reply = probe.request(|id| ClientMessage::ListTables { id }).await;
        let ServerMessage::Tables { tables, .. } = reply else {
            panic!("{reply:?}")
        };
        assert!(tables.iter().all(|t| t.table != table));
    }

    // Quick play through node-b finds the public table waiting on node-a.
    let mut first = Client::connect(a.addr, "first", None).await.0;
    let reply = first
        .request(|id| ClientMessage::QuickPlay {
            id,
            preset: Some("fitab".into()),
            players: Some(2),
        })
        .await;
    let ServerMessage::Seated { table: waiting, .. } = reply else {
        panic!("quick play: {reply:?}")
    };
    wait_listed(b.addr, &waiting).await;
    let mut second = Client::connect(b.addr, "second", None).await.0;
    let reply = second
        .request(|id| ClientMessage::QuickPlay {
            id,
            preset: Some("fitab".into()),
            players: Some(2),
        })
        .await;
    let ServerMessage::Seated { table: found, .. } = reply else {
        panic!("quick play: {reply:?}")
    };
    assert_eq!(found, waiting, "node-b seats at node-a's waiting table");

    // A session opened on node-a resumes through node-b, with its seat.
    let (_, welcome) = Client::connect(b.addr, "first", Some(&first.session)).await;
    let ServerMessage::Welcome { resumed, seats, .. } = welcome else {
        unreachable!()
    };
    assert!(resumed);
    assert_eq!(seats.len(), 1, "{seats:?}");
    assert_eq!(seats[0].table, waiting);

    // SIGTERM: readiness turns false while node-a hands its tables off, then it exits.
    assert_eq!(http_get(a.addr, "/healthz/ready").await.0, 200);
    signal(&a.pid(), "-TERM");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (status, _) = http_get(a.addr, "/healthz/ready").await;
        if status == 503 {
            break;
        }
        assert!(Instant::now() < deadline, "readiness turns false");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    a.terminate();
    // Its tables are served by node-b now.
    let deadline = Instant::now() + Duration::from_secs(10);
    while tables_on(&b).await < 2 {
        assert!(Instant::now() < deadline, "node-b serves node-a's tables");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(nats);
}

/// A duplicate tournament created on node-a, every player connected through node-b: requests
/// forwarded to the owner, its messages relayed back, the listing and the boards' embargo read
/// on node-b; then node-a killed mid-round, and node-b takes the tournament and its tables over
/// and finishes it, with standings that the hand records recompute.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_played_through_another_node_survives_kill_9_of_its_node() {
    use crate::tournament::{assert_same_standings, get_json, recompute, standings_of};
    use burraco_bot::tournament as bots;

    let nats = Nats::start(1);
    let mut a = Node::start(&nats, "node-a");
    let b = Node::start(&nats, "node-b");
    let mut options = crate::tournament::options(b.addr, 8, "mitchell,mitchell,danish", 2);
    options.settings.duplicate = Some(true);
    let (tournament, token) = bots::create(&format!("ws://{}/ws", a.addr), &options.settings)
        .await
        .expect("created on node-a");
    let players = bots::register_and_play(&options, &tournament)
        .await
        .expect("registered through node-b");

    // Node-b lists node-a's tournament, full.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let list = get_json(b.addr, "/api/tournaments").await;
        let listed = list.as_array().expect("list").iter().any(|t| {
            t["tournament"] == tournament.as_str()
                && t["entrants"] == 8
                && t["status"] == "registering"
        });
        if listed {
            break;
        }
        assert!(Instant::now() < deadline, "node-b lists it: {list}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // A watcher on node-b (no entrant) hears node-a's tournament: now, and at the start.
    let (mut watcher, _) = Client::connect_saying(b.addr, "watcher", None, false, "1.3").await;
    let t = tournament.clone();
    let reply = watcher
        .request(|id| ClientMessage::WatchTournament { id, tournament: t })
        .await;
    assert!(matches!(reply, ServerMessage::Ok { .. }), "{reply:?}");
    let status_is = |status: &'static str| move |m: &ServerMessage| matches!(m, ServerMessage::TournamentUpdate { status: s, table: None, .. } if s == status);
    watcher.wait(status_is("registering")).await;
    // The director's start, through node-b.
    crate::tournament::start_round(&options.url, &tournament, &token).await;
    watcher.wait(status_is("playing")).await;

    // While round 1 plays: node-b serves a table's record of a board only once the owner
    // revealed the board (it is in the record read after), and never a seed.
    let path = format!("/api/tournaments/{tournament}");
    let (mut hidden, mut served) = (0, 0);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let record = get_json(b.addr, &path).await;
        let round = &record["rounds"][0];
        let Some(tables) = round["tables"].as_array() else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        let mut records = Vec::new();
        for table in tables {
            let hands = get_json(b.addr, table["hand_records"].as_str().expect("path")).await;
            records.extend(hands.as_array().expect("records").clone());
        }
        let again = get_json(b.addr, &path).await;
        let boards = again["rounds"][0]["boards"]["hands"]
            .as_array()
            .expect("boards")
            .clone();
        for hand in &records {
            assert!(hand["seed"].is_null(), "a seed in {hand}");
            let board = boards
                .iter()
                .find(|board| board["commitment"] == hand["commitment"])
                .expect("a record of one of the round's boards");
            assert!(
                !board["seed"].is_null(),
                "node-b served a hidden board's record"
            );
            served += 1;
        }
        hidden += boards.iter().filter(|b| b["seed"].is_null()).count();
        if record["rounds"].as_array().expect("rounds").len() > 1 {
            break;
        }
        assert!(Instant::now() < deadline, "round 1 ends: {record}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(hidden > 0 && served > 0, "hidden {hidden}, served {served}");

    // Mid-round 2 (its first board finished at every table), node-a dies.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let record = get_json(b.addr, &path).await;
        if !record["rounds"][1]["boards"]["hands"][0]["seed"].is_null() {
            break;
        }
        assert!(Instant::now() < deadline, "round 2 plays: {record}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    a.process.kill().expect("SIGKILL");
    a.process.wait().expect("reaped");

    // Node-b takes the tournament and its tables over; the players resume and finish it.
    let finished = tokio::time::timeout(Duration::from_secs(120), bots::finish(players)).await;
    let Ok(finished) = finished else {
        panic!("not finished in time: {}", get_json(b.addr, &path).await);
    };
    let standings = match finished {
        Ok(standings) => standings,
        Err(e) => panic!("{e}: {}", get_json(b.addr, &path).await),
    };
    assert_eq!(standings.len(), 8);
    let record = get_json(b.addr, &path).await;
    assert_eq!(record["status"], "finished");
    crate::tournament::assert_every_match_played(&record, 3, 2);
    let after = recompute(b.addr, &record).await;
    assert_same_standings(&standings_of(&record["standings"]), &after[2], "final");
    drop(nats);
}
