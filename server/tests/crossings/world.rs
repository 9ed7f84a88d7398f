//! The crossings' world: one node, or two nodes of a cluster on one PostgreSQL database; a
//! person (a player account with two browser sessions and a token, a bot account with its
//! token); the changes made to them; and each way in, tried and told as a [`Cell`].

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use burraco_protocol::wire::{ClientMessage, ServerMessage, WireSettings};
use serde_json::{Value, json};

use super::{Cell, Change, REACH, Way, answered, chat, table_of};
use crate::accounts::http::{Reply, http};
use crate::common::{Client, TestServer};

/// The protocol version every connection here says.
const VERSION: &str = "1.8";
const PASSWORD: &str = "correct horse";

/// Where the changes are made and where the person comes in.
pub struct World {
    /// Changes (HTTP, moderators' actions) and the fixtures' guest go through this node.
    pub a: SocketAddr,
    /// The person's connections, open before the change and new after it, go through this one.
    pub b: SocketAddr,
    store: Store,
    /// `burraco-server` flags that reach the accounts' store, for `admin`.
    admin: Vec<String>,
    /// A moderator's session cookie.
    moderator: String,
    keep: Keep,
}

enum Store {
    Sqlite(PathBuf),
    Postgres(String),
}

/// What keeps the world running, stopped at the end.
enum Keep {
    One(Box<TestServer>),
    /// Held for its drop: the nodes, NATS and PostgreSQL stop with it.
    Cluster(#[allow(dead_code)] Box<Cluster>),
}

/// Two nodes on one NATS server and one PostgreSQL database.
struct Cluster {
    _postgres: crate::accounts::Postgres,
    _nats: crate::cluster::Nats,
    _nodes: [crate::cluster::Node; 2],
}

impl World {
    pub async fn one_node() -> World {
        let server = TestServer::with(|c| {
            c.trust_forwarded_for = true;
            c.arena_wait = Duration::from_secs(600);
            c.repeat_create_window = Duration::ZERO;
        })
        .await;
        let data = server.dir.path().to_path_buf();
        let addr = server.addr;
        let admin = vec!["--data".to_owned(), data.to_string_lossy().into_owned()];
        World::made(
            addr,
            addr,
            Store::Sqlite(data.join("burraco.sqlite3")),
            admin,
            Keep::One(Box::new(server)),
        )
        .await
    }

    pub async fn cluster() -> World {
        let postgres = crate::accounts::Postgres::start();
        let url = postgres.url();
        let nats = crate::cluster::Nats::start(1);
        let flags = [
            "--database-url",
            &url,
            "--trust-forwarded-for",
            "--test-arena-wait-ms",
            "600000",
        ];
        let a = crate::cluster::Node::start_with(&nats, "node-a", &flags);
        let b = crate::cluster::Node::start_with(&nats, "node-b", &flags);
        let (a_addr, b_addr) = (a.addr, b.addr);
        let admin = vec!["--database-url".to_owned(), url.clone()];
        let keep = Keep::Cluster(Box::new(Cluster {
            _postgres: postgres,
            _nats: nats,
            _nodes: [a, b],
        }));
        World::made(a_addr, b_addr, Store::Postgres(url), admin, keep).await
    }

    async fn made(
        a: SocketAddr,
        b: SocketAddr,
        store: Store,
        admin: Vec<String>,
        keep: Keep,
    ) -> World {
        let mut world = World {
            a,
            b,
            store,
            admin,
            moderator: String::new(),
            keep,
        };
        let (moderator, _) = world.sign_up("moira", "10.250.0.1").await;
        world.run_admin(&["grant-moderator", "moira"]);
        world.moderator = moderator;
        world
    }

    pub async fn stop(self) {
        if let Keep::One(server) = self.keep {
            server.stop().await;
        }
    }

    /// Signs `name` up through node A from `address`: (its session cookie's token, its id).
    async fn sign_up(&self, name: &str, address: &str) -> (String, String) {
        let body = json!({"username": name, "password": PASSWORD}).to_string();
        let reply = http(
            self.a,
            "POST",
            "/api/signup",
            &[("X-Forwarded-For", address)],
            &body,
        )
        .await;
        assert_eq!(reply.status, 201, "sign up {name}: {}", reply.body);
        let id = reply.json()["id"].as_str().expect("id").to_owned();
        (reply.token(), id)
    }

    /// An HTTP request through node A with a session cookie.
    async fn with_cookie(&self, method: &str, path: &str, session: &str, body: Value) -> Reply {
        let cookie = format!("burraco_session={session}");
        let body = if body.is_null() {
            String::new()
        } else {
            body.to_string()
        };
        http(self.a, method, path, &[("Cookie", &cookie)], &body).await
    }

    /// `burraco-server <store flags> admin <args>`, beside the running servers.
    fn run_admin(&self, args: &[&str]) {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_burraco-server"))
            .args(&self.admin)
            .arg("admin")
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("the server binary runs");
        assert!(
            out.status.success(),
            "admin {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// A statement on the accounts' store, as an operator (or the fair-play projection) would
    /// change it.
    async fn execute(&self, sql: &str) {
        match &self.store {
            Store::Sqlite(path) => {
                let conn = rusqlite::Connection::open(path).expect("the store");
                conn.busy_timeout(Duration::from_secs(10)).expect("timeout");
                conn.execute_batch(sql).expect(sql);
            }
            Store::Postgres(url) => {
                let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                    .await
                    .expect("the test's own connection");
                tokio::spawn(connection);
                client.batch_execute(sql).await.expect(sql);
            }
        }
    }

    /// A moderator's action on an account.
    async fn moderate(&self, action: &str, account: &str) {
        let mut body = json!({"action": action, "account": account, "reason": "crossings"});
        if matches!(action, "mute" | "timeout") {
            body["minutes"] = json!(60);
        }
        let reply = self
            .with_cookie("POST", "/api/moderation/actions", &self.moderator, body)
            .await;
        assert_eq!(reply.status, 200, "{action} {account}: {}", reply.body);
    }

    /// Makes `change` to `person` (and its bot account, where the change is the account's).
    pub async fn apply(&self, person: &Person, change: Change) {
        let both = [person.id.as_str(), person.bot_id.as_str()];
        let ids = format!("'{}', '{}'", both[0], both[1]);
        match change {
            Change::Nothing => {}
            Change::Playban => {
                let now = now_ms();
                for id in both {
                    self.execute(&format!(
                        "INSERT INTO fairplay_bans (account_id, start_ms, end_ms, reason) \
                         VALUES ('{id}', {now}, {}, 'left')",
                        now + 3_600_000
                    ))
                    .await;
                }
            }
            Change::Mute | Change::Timeout | Change::Disable => {
                let action = match change {
                    Change::Mute => "mute",
                    Change::Timeout => "timeout",
                    _ => "disable",
                };
                self.moderate(action, &person.name).await;
                self.moderate(action, &person.bot_name).await;
            }
            Change::RevokeToken => {
                let path = format!("/api/tokens/{}", person.token_id);
                let reply = self
                    .with_cookie("DELETE", &path, &person.cookies[0], Value::Null)
                    .await;
                assert_eq!(reply.status, 204, "{}", reply.body);
                let path = format!("/api/tokens/{}", person.bot_token_id);
                let reply = self
                    .with_cookie("DELETE", &path, &person.bot_cookie, Value::Null)
                    .await;
                assert_eq!(reply.status, 204, "{}", reply.body);
            }
            Change::TokenExpiry => {
                self.execute(&format!(
                    "UPDATE account_tokens SET expires_ms = 1 WHERE account_id IN ({ids})"
                ))
                .await;
            }
            Change::SessionExpiry => {
                self.execute(&format!(
                    "UPDATE account_sessions SET expires_ms = 1 WHERE account_id IN ({ids})"
                ))
                .await;
            }
            Change::SignOut => {
                let reply = self
                    .with_cookie("POST", "/api/logout", &person.cookies[0], Value::Null)
                    .await;
                assert_eq!(reply.status, 204, "{}", reply.body);
            }
            Change::SignOutEverywhere => {
                let reply = self
                    .with_cookie(
                        "POST",
                        "/api/logout/everywhere",
                        &person.cookies[1],
                        Value::Null,
                    )
                    .await;
                assert_eq!(reply.status, 204, "{}", reply.body);
            }
            Change::NewPassword => {
                let body = json!({"current": PASSWORD, "new": "battery staple"});
                let reply = self
                    .with_cookie("POST", "/api/password", &person.cookies[1], body)
                    .await;
                assert_eq!(reply.status, 204, "{}", reply.body);
            }
            Change::RevokeSession => {
                let path = format!("/api/sessions/{}", person.first_session);
                let reply = self
                    .with_cookie("DELETE", &path, &person.cookies[1], Value::Null)
                    .await;
                assert_eq!(reply.status, 204, "{}", reply.body);
            }
            Change::Reset => {
                self.run_admin(&["reset-password", &person.name]);
                self.run_admin(&["reset-password", &person.bot_name]);
            }
        }
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as i64
}

/// What one way in signs in with.
#[derive(Debug, Clone, Copy)]
enum Credential<'a> {
    Guest,
    Cookie(&'a str),
    Bearer(&'a str),
    HelloToken(&'a str),
}

/// How a connection went.
enum Entered {
    /// In as an account (`resumed`: its session and seats).
    Account { client: Box<Client>, resumed: bool },
    /// In as a guest.
    Guest { resumed: bool },
    /// Closed by the server (after a welcome, or before), with this code.
    Closed(u16),
    /// The hello refused with this code.
    Refused(&'static str),
    /// The upgrade refused with this HTTP status.
    Http(u16),
}

impl Entered {
    fn cell(&self) -> Cell {
        match self {
            Entered::Account { .. } => Cell::Yes,
            Entered::Guest { .. } => Cell::Guest,
            Entered::Closed(code) => Cell::Closed(*code),
            Entered::Refused(code) => Cell::No(code),
            Entered::Http(status) => Cell::Status(*status),
        }
    }
}

/// Connects to `addr` with `credential` (and `resume`), says hello, and tells how it went: a
/// connection is in once its welcome, its identity and a ping's pong have come.
async fn enter(
    addr: SocketAddr,
    credential: Credential<'_>,
    resume: Option<&str>,
    guest_name: &str,
) -> Entered {
    let origin = format!("http://{addr}");
    let cookie;
    let bearer;
    let mut headers: Vec<(&str, &str)> = Vec::new();
    let resume = resume.map(str::to_owned);
    let hello = match credential {
        Credential::HelloToken(token) => ClientMessage::HelloToken {
            version: VERSION.into(),
            name: guest_name.into(),
            resume,
            token: token.into(),
        },
        other => {
            match other {
                Credential::Cookie(session) => {
                    cookie = format!("burraco_session={session}");
                    headers.push(("Cookie", &cookie));
                    headers.push(("Origin", &origin));
                }
                Credential::Bearer(token) => {
                    bearer = format!("Bearer {token}");
                    headers.push(("Authorization", &bearer));
                }
                _ => {}
            }
            ClientMessage::Hello {
                version: VERSION.into(),
                name: guest_name.into(),
                resume,
            }
        }
    };
    let (mut client, first) = match Client::open(addr, guest_name, false, &headers, &hello).await {
        Ok(opened) => opened,
        Err(e) if e.contains("401") => return Entered::Http(401),
        Err(e) => panic!("{e}"),
    };
    let resumed = match first {
        Some(ServerMessage::Welcome { resumed, .. }) => resumed,
        Some(ServerMessage::Error { code, .. }) => return Entered::Refused(super::leak(&code)),
        Some(other) => panic!("a welcome first, not {other:?}"),
        None => return Entered::Closed(close_code(&client)),
    };
    let kind = match client.read().await {
        Some(ServerMessage::Identity { kind, .. }) => kind,
        Some(other) => panic!("the identity after the welcome, not {other:?}"),
        None => return Entered::Closed(close_code(&client)),
    };
    if !pong(&mut client).await {
        return Entered::Closed(close_code(&client));
    }
    if kind == "guest" {
        Entered::Guest { resumed }
    } else {
        Entered::Account {
            client: Box::new(client),
            resumed,
        }
    }
}

fn close_code(client: &Client) -> u16 {
    client.closed_with.as_ref().map_or(1006, |(code, _)| *code)
}

/// A ping's pong (anything else queued read past); false when the server closed instead.
async fn pong(client: &mut Client) -> bool {
    let id = client.id();
    if !client.try_send(&ClientMessage::Ping { id }).await {
        return false;
    }
    loop {
        match client.read().await {
            Some(ServerMessage::Pong { id: got }) if got == id => return true,
            Some(_) => {}
            None => return false,
        }
    }
}

/// A connection open before the change.
pub struct Open {
    client: Client,
}

impl Open {
    /// Whether it is open (`Yes`) or was closed (`Closed(code)`): a close that must come is
    /// waited for (the change may need [`REACH`] to get here), an open one answers a ping.
    pub async fn state(&mut self, close_expected: bool) -> Cell {
        if close_expected {
            if self.client.closed_within(REACH).await {
                return Cell::Closed(close_code(&self.client));
            }
            return Cell::Yes;
        }
        if pong(&mut self.client).await {
            Cell::Yes
        } else {
            Cell::Closed(close_code(&self.client))
        }
    }
}

/// The tables and tournament a guest made through node A for a row to join.
struct Fixtures {
    /// A public table with a free seat.
    public: String,
    /// A private table's invite code.
    invite: String,
    /// A tournament open for registration.
    tournament: String,
    /// The guest, seated at both tables (they stay open while it is).
    _guest: Client,
}

/// A row's person: a player account and a bot account, and what was made for them.
pub struct Person {
    n: usize,
    name: String,
    id: String,
    /// Two browser sessions' cookies: the first is open at a table before the change.
    cookies: [String; 2],
    /// The first browser session's public id.
    first_session: String,
    token: String,
    token_id: String,
    bot_name: String,
    bot_id: String,
    bot_cookie: String,
    bot_token: String,
    bot_token_id: String,
    /// The first browser's resume token (its open connection's session).
    resume: String,
    /// The table that connection sat at.
    seat_table: String,
    fixtures: Fixtures,
}

impl Person {
    pub async fn make(world: &World, n: usize) -> Person {
        let address = format!("10.{n}.0.1");
        let name = format!("player{n}");
        let (first, id) = world.sign_up(&name, &address).await;
        let body = json!({"username": name, "password": PASSWORD}).to_string();
        let login = http(
            world.a,
            "POST",
            "/api/login",
            &[("X-Forwarded-For", &address)],
            &body,
        )
        .await;
        assert_eq!(login.status, 200, "{}", login.body);
        let second = login.token();
        let me = world
            .with_cookie("GET", "/api/me", &first, Value::Null)
            .await;
        let first_session = me.json()["session"].as_str().expect("session").to_owned();
        let scopes = json!(["play", "create_tables", "join_tournaments", "read_account"]);
        let (token_id, token) = new_token(world, &first, scopes).await;
        let bot_name = format!("robot{n}");
        let (bot_cookie, bot_id) = world.sign_up(&bot_name, &address).await;
        let became = world
            .with_cookie("POST", "/api/account/bot", &bot_cookie, Value::Null)
            .await;
        assert_eq!(became.status, 200, "{}", became.body);
        let (bot_token_id, bot_token) = new_token(world, &bot_cookie, json!(["play"])).await;
        Person {
            n,
            name,
            id,
            cookies: [first, second],
            first_session,
            token,
            token_id,
            bot_name,
            bot_id,
            bot_cookie,
            bot_token,
            bot_token_id,
            resume: String::new(),
            seat_table: String::new(),
            fixtures: Fixtures::make(world, n).await,
        }
    }

    /// The four connections open before the change, through node B, in [`super::WAYS`]' order;
    /// the first browser's is seated at a table of its own.
    pub async fn open_connections(&mut self, world: &World) -> Vec<Open> {
        let guest = format!("guest{}", self.n);
        let mut opened = Vec::new();
        for credential in [
            Credential::Cookie(&self.cookies[0]),
            Credential::Bearer(&self.token),
            Credential::HelloToken(&self.token),
            Credential::HelloToken(&self.bot_token),
        ] {
            match enter(world.b, credential, None, &guest).await {
                Entered::Account { client, .. } => opened.push(Open { client: *client }),
                _ => panic!("{credential:?} signs in before the change"),
            }
        }
        let first = &mut opened[0].client;
        let created = first
            .request(|id| ClientMessage::CreateTable {
                id,
                settings: settings(2, 1),
                private: false,
                bots: None,
            })
            .await;
        self.seat_table = table_of(&created).unwrap_or_else(|| panic!("create: {created:?}"));
        self.resume = first.session.clone();
        opened
    }

    /// Tries `way` after the change.
    pub async fn enter(&self, world: &World, way: Way) -> Cell {
        let guest = format!("guest{}", self.n);
        let b = world.b;
        match way {
            Way::Cookie => enter(b, Credential::Cookie(&self.cookies[0]), None, &guest)
                .await
                .cell(),
            Way::Bearer => enter(b, Credential::Bearer(&self.token), None, &guest)
                .await
                .cell(),
            Way::HelloToken => enter(b, Credential::HelloToken(&self.token), None, &guest)
                .await
                .cell(),
            Way::ResumeAsGuest => {
                match enter(b, Credential::Guest, Some(&self.resume), &guest).await {
                    Entered::Guest { resumed: false, .. } => Cell::Fresh,
                    Entered::Guest { resumed: true, .. } => Cell::Resumed,
                    other => other.cell(),
                }
            }
            Way::Resume => self.resume_signed_in(b, &guest).await,
            Way::HttpCookie => {
                let cookie = format!("burraco_session={}", self.cookies[0]);
                Cell::Status(
                    http(b, "GET", "/api/me", &[("Cookie", &cookie)], "")
                        .await
                        .status,
                )
            }
            Way::HttpBearer => {
                let bearer = format!("Bearer {}", self.token);
                Cell::Status(
                    http(b, "GET", "/api/account", &[("Authorization", &bearer)], "")
                        .await
                        .status,
                )
            }
            Way::ArenaReady => {
                let Entered::Account { mut client, .. } =
                    enter(b, Credential::HelloToken(&self.bot_token), None, &guest).await
                else {
                    return Cell::Out;
                };
                let reply = client
                    .request(|id| ClientMessage::ArenaReady { id, level: None })
                    .await;
                answered(&reply)
            }
            Way::OpenCookie | Way::OpenBearer | Way::OpenHelloToken | Way::OpenBot => {
                unreachable!("the open connections are told by their state")
            }
            request => {
                let Some(mut client) = self.signed_in(b, &guest).await else {
                    return Cell::Out;
                };
                self.request(&mut client, request).await
            }
        }
    }

    /// The account's way in that is left: the second browser's cookie, else the token.
    async fn signed_in(&self, addr: SocketAddr, guest: &str) -> Option<Client> {
        for credential in [
            Credential::Cookie(&self.cookies[1]),
            Credential::HelloToken(&self.token),
        ] {
            if let Entered::Account { client, .. } = enter(addr, credential, None, guest).await {
                return Some(*client);
            }
        }
        None
    }

    /// The first browser's resume token through the account's way in that is left.
    async fn resume_signed_in(&self, addr: SocketAddr, guest: &str) -> Cell {
        let resume = Some(self.resume.as_str());
        let mut last = Cell::Out;
        for credential in [
            Credential::Cookie(&self.cookies[1]),
            Credential::HelloToken(&self.token),
        ] {
            match enter(addr, credential, resume, guest).await {
                Entered::Account { resumed: true, .. } => return Cell::Resumed,
                Entered::Account { resumed: false, .. } => return Cell::Fresh,
                // The first way's close is the answer (the cookie's 4004, not the token's
                // 4003 after it).
                closed @ Entered::Closed(_) if last == Cell::Out => last = closed.cell(),
                _ => {}
            }
        }
        last
    }

    /// One request through a signed-in connection, its seat (if it took one) left again.
    async fn request(&self, client: &mut Client, way: Way) -> Cell {
        let fixtures = &self.fixtures;
        let reply = match way {
            Way::QuickPlay => {
                client
                    .request(|id| ClientMessage::QuickPlay {
                        id,
                        preset: Some("fitab".into()),
                        players: Some(2),
                    })
                    .await
            }
            Way::QuickPlayRated => {
                client
                    .request(|id| ClientMessage::QuickPlayRated {
                        id,
                        preset: Some("fitab".into()),
                        players: Some(2),
                    })
                    .await
            }
            Way::CreateTable => {
                client
                    .request(|id| ClientMessage::CreateTable {
                        id,
                        settings: settings(2, 2),
                        private: false,
                        bots: None,
                    })
                    .await
            }
            Way::CreateRatedTable => {
                client
                    .request(|id| ClientMessage::CreateRatedTable {
                        id,
                        settings: settings(2, 1),
                        private: false,
                    })
                    .await
            }
            Way::JoinById => {
                let table = fixtures.public.clone();
                client
                    .request(|id| ClientMessage::Join {
                        id,
                        table: Some(table),
                        invite: None,
                        seat: None,
                    })
                    .await
            }
            Way::JoinByInvite => {
                let invite = fixtures.invite.clone();
                client
                    .request(|id| ClientMessage::Join {
                        id,
                        table: None,
                        invite: Some(invite),
                        seat: None,
                    })
                    .await
            }
            Way::RegisterTournament => {
                let tournament = fixtures.tournament.clone();
                client
                    .request(|id| ClientMessage::RegisterTournament {
                        id,
                        tournament,
                        partner_code: None,
                        bot: None,
                    })
                    .await
            }
            Way::Chat => {
                let table = fixtures.public.clone();
                let watching = client
                    .request(|id| ClientMessage::Spectate { id, table })
                    .await;
                if matches!(watching, ServerMessage::Error { .. }) {
                    return answered(&watching);
                }
                client.request(chat(&fixtures.public)).await
            }
            Way::TournamentChat => {
                let created = client.request(create_tournament).await;
                let ServerMessage::TournamentCreated {
                    tournament,
                    director_token,
                    ..
                } = created
                else {
                    return answered(&created);
                };
                client
                    .request(|id| ClientMessage::TournamentChat {
                        id,
                        tournament,
                        director: Some(director_token),
                        text: "welcome, everyone".into(),
                    })
                    .await
            }
            other => unreachable!("{other:?} is no request"),
        };
        if let Some(table) = table_of(&reply) {
            client
                .request(|id| ClientMessage::Leave { id, table })
                .await;
        }
        answered(&reply)
    }
}

impl Fixtures {
    async fn make(world: &World, n: usize) -> Fixtures {
        let (mut guest, _) =
            Client::connect_saying(world.a, &format!("host{n}"), None, false, VERSION).await;
        let public = guest
            .request(|id| ClientMessage::CreateTable {
                id,
                settings: settings(4, 1),
                private: false,
                bots: None,
            })
            .await;
        let public = table_of(&public).unwrap_or_else(|| panic!("public table: {public:?}"));
        let private = guest
            .request(|id| ClientMessage::CreateTable {
                id,
                settings: settings(2, 3),
                private: true,
                bots: None,
            })
            .await;
        let ServerMessage::TableCreated {
            invite: Some(invite),
            ..
        } = private
        else {
            panic!("private table: {private:?}")
        };
        let created = guest.request(create_tournament).await;
        let ServerMessage::TournamentCreated { tournament, .. } = created else {
            panic!("tournament: {created:?}")
        };
        Fixtures {
            public,
            invite,
            tournament,
            _guest: guest,
        }
    }
}

fn settings(players: u8, hands: u8) -> WireSettings {
    crate::common::settings("fitab", players, Some(hands), "off")
}

/// A pairs tournament open for registration, as `create_tournament` asks it.
fn create_tournament(id: u64) -> ClientMessage {
    let json = json!({
        "type": "create_tournament",
        "id": id,
        "settings": {"name": "Crossings", "kind": "pairs", "rounds": ["mitchell"], "hands": 1,
                     "preset": "fitab", "max_entrants": 16, "seating": "draw",
                     "start_when_full": false, "clocks": null, "duplicate": false}
    });
    burraco_protocol::codec::from_json(&json.to_string(), usize::MAX)
        .result
        .expect("a create_tournament")
}

/// A new personal token with `scopes` for the account of `session`: (its id, the token).
async fn new_token(world: &World, session: &str, scopes: Value) -> (String, String) {
    let body = json!({"label": "crossings", "scopes": scopes});
    let reply = world
        .with_cookie("POST", "/api/tokens", session, body)
        .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    let body = reply.json();
    (
        body["id"].as_str().expect("id").to_owned(),
        body["token"].as_str().expect("token").to_owned(),
    )
}
