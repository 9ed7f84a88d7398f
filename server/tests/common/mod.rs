//! Shared test machinery: a server on 127.0.0.1:0 with a temporary data directory, a WebSocket
//! client that keeps every raw frame, a rules mirror that picks legal moves, and the visibility
//! check of RULES.md section 12.

#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::time::Duration;

use burraco_protocol::codec::{self, MAX_CLIENT_FRAME};
use burraco_protocol::wire::{ClientMessage, ServerMessage, WireSeat, WireSettings};
use burraco_rules::{Action, Card, Config, DealSource, Game, Phase, Seat, Seed};
use burraco_server::ServerConfig;
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Every test table deals from this seed, so a test can mirror the hand with the rules crate.
pub const SEED: [u8; 32] = [7; 32];

thread_local! {
    /// The read patience of clients made on this thread (see [`paused_patience`]).
    static PATIENCE: std::cell::Cell<Duration> = const { std::cell::Cell::new(Duration::from_secs(30)) };
}

thread_local! {
    /// Clients made on this thread read everything already sent to them before each request.
    static BARRIERS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Clients made from now on (on this thread) make a ping round trip before every request, so the
/// order of what they send and receive is deterministic (for the transcript).
pub fn barriers_before_requests() {
    BARRIERS.with(|b| b.set(true));
}

/// Under `tokio::time::pause` the clock jumps to the next timer whenever the runtime idles, so
/// clients must outwait every server timer: call this first in a paused test.
pub fn paused_patience() {
    PATIENCE.with(|p| p.set(Duration::from_secs(24 * 3600)));
}

/// A server running in this test's runtime.
pub struct TestServer {
    pub addr: SocketAddr,
    pub dir: tempfile::TempDir,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<Result<(), burraco_server::RunError>>,
}

impl TestServer {
    pub async fn start() -> TestServer {
        TestServer::with(|_| {}).await
    }

    pub async fn with(adjust: impl FnOnce(&mut ServerConfig)) -> TestServer {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = ServerConfig {
            data_dir: dir.path().to_owned(),
            next_hand_delay: Duration::ZERO,
            fixed_seed: Some(SEED),
            rate_per_sec: 100_000,
            rate_burst: 100_000,
            ..ServerConfig::default()
        };
        adjust(&mut config);
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(burraco_server::run(listener, config, async move {
            let _ = stopped.await;
        }));
        TestServer {
            addr,
            dir,
            stop: Some(stop),
            task,
        }
    }

    /// Graceful shutdown; returns once the server has stopped.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let result = tokio::time::timeout(Duration::from_secs(20), &mut self.task).await;
        result.expect("server stops").expect("task").expect("run");
    }

    pub async fn client(&self, name: &str) -> Client {
        Client::connect(self.addr, name, None).await.0
    }

    /// A counter or a histogram's `_count` from `/metrics` (0 when not yet recorded). The
    /// recorder is process-wide: every server in a test binary adds to it, so only a rise means
    /// anything.
    pub async fn metric(&self, name: &str) -> u64 {
        let (status, body) = self.http_get("/metrics").await;
        assert_eq!(status, 200, "{body}");
        body.lines()
            .filter_map(|line| line.strip_prefix(name))
            .find_map(|rest| rest.strip_prefix(' '))
            .map_or(0, |value| value.trim().parse().expect("a count"))
    }

    pub async fn http_get(&self, path: &str) -> (u16, String) {
        http_get(self.addr, path).await
    }
}

/// A minimal HTTP/1.1 GET.
pub async fn http_get(addr: SocketAddr, path: &str) -> (u16, String) {
    try_http_get(addr, path)
        .await
        .unwrap_or_else(|e| panic!("GET {path} from {addr}: {e}"))
}

/// [`http_get`] from a server that may be gone (killed, restarting).
pub async fn try_http_get(addr: SocketAddr, path: &str) -> std::io::Result<(u16, String)> {
    let mut stream = TcpStream::connect(addr).await?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await?;
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    let body = if text
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(&body)
    } else {
        body
    };
    Ok((status, body))
}

fn dechunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    out
}

/// A WebSocket client that keeps every frame it receives.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    pub name: String,
    pub session: String,
    pub player: String,
    /// Events received and not yet taken by [`Client::next_event`] / [`Client::wait`].
    pub inbox: VecDeque<ServerMessage>,
    /// Every message received, in order.
    pub log: Vec<ServerMessage>,
    /// Every raw text frame received, in order, and how many were already checked.
    pub frames: Vec<String>,
    pub checked: usize,
    /// Every frame sent, with how many frames had been received by then.
    pub sent: Vec<(usize, String)>,
    /// Text (false) or postcard binary (true) frames.
    pub binary: bool,
    /// The server's close frame (code and reason), once [`Client::read`] met it.
    pub closed_with: Option<(u16, String)>,
    /// How long a read may wait (raise it under a paused clock, where server timers of minutes
    /// must fire before a test's read times out).
    pub patience: Duration,
    barriers: bool,
}

pub fn reply_id(message: &ServerMessage) -> Option<u64> {
    match message {
        ServerMessage::Ok { id }
        | ServerMessage::Tables { id, .. }
        | ServerMessage::TableCreated { id, .. }
        | ServerMessage::Seated { id, .. }
        | ServerMessage::Pong { id }
        | ServerMessage::TournamentCreated { id, .. }
        | ServerMessage::TournamentRegistered { id, .. }
        | ServerMessage::RegistrationConfigured { id, .. }
        | ServerMessage::Lobby { id, .. }
        | ServerMessage::TableLevels { id, .. }
        | ServerMessage::SeatIdentities { id, .. }
        | ServerMessage::TournamentChatLines { id, .. }
        | ServerMessage::ReportFiled { id, .. } => Some(*id),
        ServerMessage::ArenaQueued { id, .. } => Some(*id),
        ServerMessage::Error { id, .. } => *id,
        _ => None,
    }
}

impl Client {
    /// Connects and says hello; returns the client and the welcome.
    pub async fn connect(
        addr: SocketAddr,
        name: &str,
        resume: Option<&str>,
    ) -> (Client, ServerMessage) {
        Client::connect_as(addr, name, resume, false).await
    }

    pub async fn connect_as(
        addr: SocketAddr,
        name: &str,
        resume: Option<&str>,
        binary: bool,
    ) -> (Client, ServerMessage) {
        Client::connect_saying(addr, name, resume, binary, "1.0").await
    }

    /// Connects with a hello that says `version`.
    pub async fn connect_saying(
        addr: SocketAddr,
        name: &str,
        resume: Option<&str>,
        binary: bool,
        version: &str,
    ) -> (Client, ServerMessage) {
        Client::try_connect_saying(addr, name, resume, binary, version, &[])
            .await
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Client::connect`] to a server that may be gone (killed, restarting): `Err` says why
    /// there is no welcome.
    pub async fn try_connect(
        addr: SocketAddr,
        name: &str,
        resume: Option<&str>,
    ) -> Result<(Client, ServerMessage), String> {
        Client::try_connect_saying(addr, name, resume, false, "1.0", &[]).await
    }

    /// Connects with extra upgrade headers (an account's `Cookie` or `Authorization`), a resume
    /// token and a hello that says `version`.
    pub async fn connect_with(
        addr: SocketAddr,
        name: &str,
        resume: Option<&str>,
        version: &str,
        headers: &[(&str, &str)],
    ) -> (Client, ServerMessage) {
        Client::try_connect_saying(addr, name, resume, false, version, headers)
            .await
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Connects with extra upgrade headers (a session `Cookie` and its `Origin`: an account's
    /// connection) and a hello that says `version`.
    pub async fn connect_with_headers(
        addr: SocketAddr,
        name: &str,
        version: &str,
        headers: &[(&str, &str)],
    ) -> (Client, ServerMessage) {
        Client::try_connect_saying(addr, name, None, false, version, headers)
            .await
            .unwrap_or_else(|e| panic!("{e}"))
    }

    async fn try_connect_saying(
        addr: SocketAddr,
        name: &str,
        resume: Option<&str>,
        binary: bool,
        version: &str,
        headers: &[(&str, &str)],
    ) -> Result<(Client, ServerMessage), String> {
        let hello = ClientMessage::Hello {
            version: version.into(),
            name: name.into(),
            resume: resume.map(str::to_owned),
        };
        let (client, first) = Client::open(addr, name, binary, headers, &hello).await?;
        match first {
            Some(welcome @ ServerMessage::Welcome { .. }) => Ok((client, welcome)),
            other => Err(format!("expected welcome, got {other:?}")),
        }
    }

    /// Upgrades (with extra headers: a `Cookie` and its `Origin`, an `Authorization`) and sends
    /// `hello` (a `hello` or a `hello_token`); returns the client and what came first (`None`:
    /// closed at once). A welcome fills in the session and player.
    pub async fn open(
        addr: SocketAddr,
        name: &str,
        binary: bool,
        headers: &[(&str, &str)],
        hello: &ClientMessage,
    ) -> Result<(Client, Option<ServerMessage>), String> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{addr}/ws")
            .into_client_request()
            .map_err(|e| e.to_string())?;
        for (name, value) in headers {
            let name =
                tokio_tungstenite::tungstenite::http::HeaderName::from_bytes(name.as_bytes())
                    .map_err(|e| e.to_string())?;
            request
                .headers_mut()
                .insert(name, value.parse().map_err(|e| format!("{e}"))?);
        }
        let (ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .map_err(|e| format!("ws connect to {addr}: {e}"))?;
        let mut client = Client {
            ws,
            next_id: 0,
            name: name.to_owned(),
            session: String::new(),
            player: String::new(),
            inbox: VecDeque::new(),
            log: Vec::new(),
            frames: Vec::new(),
            checked: 0,
            sent: Vec::new(),
            binary,
            patience: PATIENCE.with(|p| p.get()),
            barriers: BARRIERS.with(|b| b.get()),
            closed_with: None,
        };
        if !client.try_send(hello).await {
            return Err(format!("{addr} closed before the hello"));
        }
        let first = client.read().await;
        if let Some(ServerMessage::Welcome {
            session, player, ..
        }) = &first
        {
            client.session = session.clone();
            client.player = player.clone();
        }
        Ok((client, first))
    }

    pub async fn send(&mut self, message: &ClientMessage) {
        assert!(self.try_send(message).await, "send");
    }

    /// Sends; `false` when the connection is gone (the frame may not have left).
    pub async fn try_send(&mut self, message: &ClientMessage) -> bool {
        self.sent.push((self.frames.len(), codec::to_json(message)));
        let frame = if self.binary {
            Message::Binary(codec::to_binary(message).into())
        } else {
            Message::Text(codec::to_json(message).into())
        };
        self.ws.send(frame).await.is_ok()
    }

    pub async fn send_raw(&mut self, message: Message) -> bool {
        self.ws.send(message).await.is_ok()
    }

    /// The next message, or `None` when the server closed the connection.
    pub async fn read(&mut self) -> Option<ServerMessage> {
        self.read_within(self.patience).await
    }

    pub async fn read_within(&mut self, limit: Duration) -> Option<ServerMessage> {
        loop {
            let frame = tokio::time::timeout(limit, self.ws.next())
                .await
                .expect("a frame in time")?;
            let message = match frame {
                Ok(Message::Text(text)) => {
                    let decoded = codec::from_json::<ServerMessage>(text.as_str(), usize::MAX);
                    self.frames.push(text.as_str().to_owned());
                    decoded
                        .result
                        .unwrap_or_else(|e| panic!("undecodable frame {text}: {e}"))
                }
                Ok(Message::Binary(bytes)) => {
                    let message = codec::from_binary::<ServerMessage>(&bytes, usize::MAX)
                        .result
                        .unwrap_or_else(|e| panic!("undecodable binary frame: {e}"));
                    self.frames.push(codec::to_json(&message));
                    message
                }
                Ok(Message::Close(frame)) => {
                    self.closed_with = frame.map(|f| (f.code.into(), f.reason.to_string()));
                    return None;
                }
                Err(_) => return None,
                Ok(_) => continue,
            };
            self.log.push(message.clone());
            return Some(message);
        }
    }

    /// Whether the server closes the connection (reading past anything else it sends).
    pub async fn closed_within(&mut self, limit: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            match tokio::time::timeout(left, self.ws.next()).await {
                Err(_) => return false,
                Ok(Some(Ok(Message::Close(frame)))) => {
                    self.closed_with = frame.map(|f| (f.code.into(), f.reason.to_string()));
                    return true;
                }
                Ok(None) | Ok(Some(Err(_))) => return true,
                Ok(Some(Ok(Message::Text(text)))) => {
                    if let Ok(m) =
                        codec::from_json::<ServerMessage>(text.as_str(), usize::MAX).result
                    {
                        self.log.push(m);
                    }
                }
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    pub fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Sends a request and returns its reply; events received meanwhile go to the inbox.
    pub async fn request(&mut self, make: impl FnOnce(u64) -> ClientMessage) -> ServerMessage {
        if self.barriers {
            self.barrier().await;
        }
        let id = self.id();
        self.send(&make(id)).await;
        loop {
            let message = self.read().await.expect("connection open for the reply");
            if reply_id(&message) == Some(id) {
                return message;
            }
            self.inbox.push_back(message);
        }
    }

    /// A request that must succeed with `ok`.
    pub async fn ok(&mut self, make: impl FnOnce(u64) -> ClientMessage) {
        let reply = self.request(make).await;
        assert!(
            matches!(reply, ServerMessage::Ok { .. }),
            "{} expected ok, got {reply:?}",
            self.name
        );
    }

    /// A round trip: every frame queued for this client before it has arrived afterwards.
    pub async fn barrier(&mut self) {
        let id = self.id();
        self.send(&ClientMessage::Ping { id }).await;
        loop {
            let message = self.read().await.expect("connection open for the pong");
            if matches!(message, ServerMessage::Pong { id: pong } if pong == id) {
                return;
            }
            self.inbox.push_back(message);
        }
    }

    pub async fn next_event(&mut self) -> ServerMessage {
        if let Some(m) = self.inbox.pop_front() {
            return m;
        }
        self.read().await.expect("connection open")
    }

    /// Takes events until one matches.
    pub async fn wait(&mut self, pred: impl Fn(&ServerMessage) -> bool) -> ServerMessage {
        loop {
            let m = self.next_event().await;
            if pred(&m) {
                return m;
            }
        }
    }

    /// Every event sequence number received, in order (snapshots included).
    pub fn seqs(&self) -> Vec<u64> {
        self.log.iter().filter_map(ServerMessage::seq).collect()
    }
}

/// Asserts a receiver saw every number exactly once, in order, from its first.
pub fn assert_contiguous(client: &Client) {
    let seqs = client.seqs();
    for w in seqs.windows(2) {
        assert_eq!(w[1], w[0] + 1, "{}: gap or repeat in {seqs:?}", client.name);
    }
}

pub fn settings(preset: &str, players: u8, hands: Option<u8>, clocks: &str) -> WireSettings {
    WireSettings {
        preset: preset.into(),
        players: Some(players),
        hands,
        target: None,
        clocks: Some(clocks.into()),
        semipulito: None,
        close_requires_pulito: None,
    }
}

/// A table with seated clients; index i of `clients` sits at `seats[i]`.
pub struct Table {
    pub id: String,
    pub config: Config,
    pub clients: Vec<(Seat, Client)>,
}

impl Table {
    /// Creates a table (the first client), seats everyone, readies everyone; returns before the
    /// match starts being observed.
    pub async fn open(server: &TestServer, settings: WireSettings, names: &[&str]) -> Table {
        Table::open_at(server.addr, settings, names).await
    }

    /// [`Table::open`] on a server at any address.
    pub async fn open_at(addr: SocketAddr, settings: WireSettings, names: &[&str]) -> Table {
        let config =
            burraco_protocol::convert::config_from_wire(&settings).expect("valid settings");
        let mut clients = Vec::new();
        let mut creator = Client::connect(addr, names[0], None).await.0;
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
        clients.push((seat.0, creator));
        for name in &names[1..] {
            let mut c = Client::connect(addr, name, None).await.0;
            let table = table.clone();
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
            clients.push((seat.0, c));
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

    pub fn client(&mut self, seat: Seat) -> &mut Client {
        &mut self
            .clients
            .iter_mut()
            .find(|(s, _)| *s == seat)
            .expect("seated")
            .1
    }

    /// Waits for the next hand_started at the first client; returns the mirror of that hand.
    pub async fn next_hand(&mut self) -> Mirror {
        let started = self.clients[0]
            .1
            .wait(|m| matches!(m, ServerMessage::HandStarted { .. }))
            .await;
        let ServerMessage::HandStarted { dealer, .. } = started else {
            unreachable!()
        };
        Mirror::new(self.config, dealer.0)
    }

    /// Plays one action of the seat on turn.
    pub async fn step(&mut self, mirror: &mut Mirror) {
        let seat = mirror.game.on_turn();
        let action = mirror.choose();
        let table = self.id.clone();
        let reply = self
            .client(seat)
            .request(|id| to_request(&action, table, id))
            .await;
        assert!(
            matches!(reply, ServerMessage::Ok { .. }),
            "{seat} {action:?}: {reply:?}"
        );
        mirror.game.act(seat, &action).expect("the mirror agrees");
    }

    /// Swaps in a new client for a seat (after a reconnection).
    pub fn replace(&mut self, seat: Seat, client: Client) -> Client {
        let slot = &mut self
            .clients
            .iter_mut()
            .find(|(s, _)| *s == seat)
            .expect("seated")
            .1;
        std::mem::replace(slot, client)
    }

    /// Plays the mirror's hand to its end through the seats' clients. `after_step` runs after
    /// every accepted action (for checks).
    pub async fn play_hand(
        &mut self,
        mirror: &mut Mirror,
        mut after_step: impl AsyncStep,
    ) -> usize {
        let mut steps = 0;
        while !mirror.game.is_over() {
            let seat = mirror.game.on_turn();
            let action = mirror.choose();
            let table = self.id.clone();
            let reply = self
                .client(seat)
                .request(|id| to_request(&action, table, id))
                .await;
            assert!(
                matches!(reply, ServerMessage::Ok { .. }),
                "{seat} {action:?}: {reply:?}"
            );
            mirror.game.act(seat, &action).expect("the mirror agrees");
            steps += 1;
            after_step.step(self, mirror).await;
            assert!(steps < 2000, "a hand ends");
        }
        steps
    }
}

/// A check run after every step of [`Table::play_hand`].
pub trait AsyncStep {
    fn step(&mut self, table: &mut Table, mirror: &Mirror) -> impl Future<Output = ()>;
}

/// No check.
pub struct NoCheck;

impl AsyncStep for NoCheck {
    async fn step(&mut self, _: &mut Table, _: &Mirror) {}
}

/// The hand as the test knows it (the server deals from [`SEED`]).
pub struct Mirror {
    pub game: Game,
}

impl Mirror {
    pub fn new(config: Config, dealer: Seat) -> Mirror {
        let (game, _) = Game::new(config, dealer, DealSource::Seed(Seed(SEED))).expect("deal");
        Mirror { game }
    }

    /// The next seat after `seat` (head to head: the opponent).
    pub fn players_other(&self, seat: Seat) -> Seat {
        self.game.players().next(seat)
    }

    /// A simple legal strategy from the rules enumerators: pick up a pile of three or more,
    /// else draw; lay every opening and attachment found; discard the first legal card.
    pub fn choose(&self) -> Action {
        let game = &self.game;
        match game.phase() {
            Phase::Take => {
                let takes = game.legal_takes();
                let pick = game.pile().len() >= 3 && takes.contains(&Action::PickUp);
                if pick || !takes.contains(&Action::Draw) {
                    Action::PickUp
                } else {
                    Action::Draw
                }
            }
            _ => {
                if let Some(open) = game.legal_openings().into_iter().next() {
                    return open;
                }
                if let Some(attach) = game.legal_attachments().into_iter().next() {
                    return attach;
                }
                Action::Discard {
                    card: game.legal_discards()[0],
                }
            }
        }
    }
}

pub fn to_request(action: &Action, table: String, id: u64) -> ClientMessage {
    ClientMessage::action(action, id, &table)
}

/// What one party may know of the cards (RULES.md section 12), as the most copies of each card
/// code it has seen in public places (pile, melds) and in its own hand.
#[derive(Debug, Default)]
pub struct Knowledge {
    pub seat: Option<Seat>,
    public: HashMap<Card, usize>,
    own: HashMap<Card, usize>,
}

fn count(cards: impl Iterator<Item = Card>) -> HashMap<Card, usize> {
    let mut counts = HashMap::new();
    for c in cards {
        *counts.entry(c).or_insert(0) += 1;
    }
    counts
}

fn raise(into: &mut HashMap<Card, usize>, from: HashMap<Card, usize>) {
    for (c, n) in from {
        let e = into.entry(c).or_insert(0);
        *e = (*e).max(n);
    }
}

impl Knowledge {
    pub fn of(seat: Option<Seat>) -> Knowledge {
        Knowledge {
            seat,
            ..Knowledge::default()
        }
    }

    /// Learns what the party may see of the game now.
    pub fn observe(&mut self, game: &Game) {
        let public = game.pile().iter().copied().chain(
            game.melds()
                .iter()
                .flat_map(|(_, m)| m.cards().iter().copied()),
        );
        raise(&mut self.public, count(public));
        if let Some(seat) = self.seat
            && game.hand_visible_to_owner(seat)
        {
            raise(&mut self.own, count(game.hand(seat).cards()));
        }
    }

    /// Checks every frame not yet checked: each card code in it must be one the party may know,
    /// and private messages must be the party's own. Frames after the hand ended are public.
    pub fn check(&self, client: &mut Client) {
        for text in &client.frames[client.checked..] {
            let value: serde_json::Value = serde_json::from_str(text).expect("json");
            let kind = value["type"].as_str().unwrap_or_default();
            if matches!(kind, "hand_ended" | "hand_record" | "match_ended") {
                continue;
            }
            if matches!(kind, "dealt" | "drew_card" | "pozzetto_cards") {
                let seat = value["seat"].as_str().and_then(Seat::from_code);
                assert_eq!(
                    seat, self.seat,
                    "{}: a private message of another seat: {text}",
                    client.name
                );
            }
            if kind == "snapshot" && self.seat.is_none() {
                assert!(
                    value["view"]["hand"].is_null() || value["view"]["hand"]["hand"].is_null(),
                    "{text}"
                );
            }
            // Each list (and single card field) on its own: a message may repeat the same cards,
            // as `opened` does in `cards` and `meld.cards`.
            let mut groups = Vec::new();
            collect_cards(&value, &mut groups);
            let mut need: HashMap<Card, usize> = HashMap::new();
            for group in groups {
                raise(&mut need, count(group.into_iter()));
            }
            for (card, n) in need {
                let may = self.public.get(&card).copied().unwrap_or(0)
                    + self.own.get(&card).copied().unwrap_or(0);
                assert!(
                    n <= may,
                    "{}: frame shows {n} x {card}, party may know {may}: {text}",
                    client.name
                );
            }
        }
        client.checked = client.frames.len();
    }
}

fn collect_cards(value: &serde_json::Value, out: &mut Vec<Vec<Card>>) {
    match value {
        serde_json::Value::String(s) => {
            if let Ok(card) = s.parse::<Card>() {
                out.push(vec![card]);
            }
        }
        serde_json::Value::Array(items) => {
            let cards: Vec<Card> = items
                .iter()
                .filter_map(|v| v.as_str()?.parse().ok())
                .collect();
            if !cards.is_empty() {
                out.push(cards);
            }
            items
                .iter()
                .filter(|v| !v.is_string())
                .for_each(|v| collect_cards(v, out));
        }
        serde_json::Value::Object(map) => map.values().for_each(|v| collect_cards(v, out)),
        _ => {}
    }
}

/// Reads the seat of a wire seat.
pub fn seat(s: &WireSeat) -> Seat {
    s.0
}

/// The largest frame a client may send, for the hygiene tests.
pub const MAX_FRAME: usize = MAX_CLIENT_FRAME;

/// Watches `table` through `addr` until its seats, as a spectator's snapshot shows them, satisfy
/// `wanted` (a fresh look every 50 ms, at most 10 s): a test waits for the state it needs, never
/// for a time.
pub async fn wait_for_seats(
    addr: SocketAddr,
    table: &str,
    what: &str,
    wanted: impl Fn(&[burraco_protocol::wire::SeatState]) -> bool,
) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let mut watcher = Client::connect(addr, "watcher", None).await.0;
        let table = table.to_owned();
        let reply = watcher
            .request(|id| ClientMessage::Spectate { id, table })
            .await;
        if matches!(reply, ServerMessage::Ok { .. })
            && let ServerMessage::Snapshot { view, .. } = watcher
                .wait(|m| matches!(m, ServerMessage::Snapshot { .. }))
                .await
            && wanted(&view.seats)
        {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{what}: not within 10 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
