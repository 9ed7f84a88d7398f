//! One truth across every path (issue 32): every sanction and identity change crossed with every
//! way a person comes in, on one node (its SQLite file) and through another node of a cluster
//! (NATS, the accounts in PostgreSQL), where the change is made through one node and the person
//! is connected to, and comes back through, the other.
//!
//! [`TABLE`] is the whole specification: a row for each change, a column for each way in, and in
//! each cell what must hold. Each row runs with accounts of its own, all rows at once: a player
//! account (two browser sessions and a personal token) and a bot account (its token), whose
//! connections are opened before the change; then the change; then every column, from the
//! connections open before it to the HTTP API.

mod world;

use std::time::Duration;

use burraco_protocol::wire::{ClientMessage, ServerMessage};

use world::{Person, World};

/// A change to who a person is or what the person may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    /// Nothing: the control row.
    Nothing,
    /// A playban (fair play), as the store holds it.
    Playban,
    /// A moderator's mute.
    Mute,
    /// A moderator's time-out.
    Timeout,
    /// A moderator's disable.
    Disable,
    /// The personal tokens revoked (`DELETE /api/tokens/{id}`).
    RevokeToken,
    /// The personal tokens past their expiry.
    TokenExpiry,
    /// Every browser session past its expiry.
    SessionExpiry,
    /// `POST /api/logout` from the first browser.
    SignOut,
    /// `POST /api/logout/everywhere` from the second browser.
    SignOutEverywhere,
    /// `POST /api/password` from the second browser: the first is signed out.
    NewPassword,
    /// `DELETE /api/sessions/{first}` from the second browser.
    RevokeSession,
    /// `burraco-server admin reset-password`: every session and token ends.
    Reset,
}

/// A way in, or a thing done once in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    /// The first browser's connection, open (and seated at a table) before the change.
    OpenCookie,
    /// A connection opened with the token as `Authorization: Bearer`, before the change.
    OpenBearer,
    /// A connection opened with the token in `hello_token`, before the change.
    OpenHelloToken,
    /// The bot account's connection (its token), before the change.
    OpenBot,
    /// A new connection with the first browser's cookie.
    Cookie,
    /// A new connection with the token as `Authorization: Bearer`.
    Bearer,
    /// A new connection with the token in `hello_token`.
    HelloToken,
    /// The first browser's resume token in a guest's hello.
    ResumeAsGuest,
    /// The same resume token through the account's way in that is left (the second browser,
    /// else the token).
    Resume,
    /// These, through the account's way in that is left.
    QuickPlay,
    QuickPlayRated,
    CreateTable,
    CreateRatedTable,
    JoinById,
    JoinByInvite,
    RegisterTournament,
    /// The bot account's `arena_ready`, through its token.
    ArenaReady,
    /// Chat at a table it watches.
    Chat,
    /// A tournament's chat, as its director.
    TournamentChat,
    /// `GET /api/me` with the first browser's cookie.
    HttpCookie,
    /// `GET /api/account` with the token.
    HttpBearer,
}

const WAYS: [Way; 21] = [
    Way::OpenCookie,
    Way::OpenBearer,
    Way::OpenHelloToken,
    Way::OpenBot,
    Way::Cookie,
    Way::Bearer,
    Way::HelloToken,
    Way::ResumeAsGuest,
    Way::Resume,
    Way::QuickPlay,
    Way::QuickPlayRated,
    Way::CreateTable,
    Way::CreateRatedTable,
    Way::JoinById,
    Way::JoinByInvite,
    Way::RegisterTournament,
    Way::ArenaReady,
    Way::Chat,
    Way::TournamentChat,
    Way::HttpCookie,
    Way::HttpBearer,
];

/// What must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    /// In as the account; the request done.
    Yes,
    /// Refused with this code, the connection kept (a hello refused with it is closed).
    No(&'static str),
    /// Closed by the server with this code.
    Closed(u16),
    /// Taken as a guest (the cookie's session is over).
    Guest,
    /// This HTTP status.
    Status(u16),
    /// Not resumed: a session of its own.
    Fresh,
    /// Resumed: the session and its seat.
    Resumed,
    /// No way in is left to the account: nothing can be asked as it.
    Out,
}

use Cell::{Closed, Fresh, Guest, No, Out, Resumed, Status, Yes};

const PLAYBANNED: Cell = No("playbanned");
const MUTED: Cell = No("muted");
const INVALID_TOKEN: Cell = No("invalid_token");
/// Barred: a cookie's connection (4004), a token's (4003).
const BARRED: Cell = Closed(4004);
const REVOKED: Cell = Closed(4003);
const SIGNED_OUT: Cell = Closed(4005);

/// The specification. Columns in [`WAYS`]' order:
/// open cookie, open bearer, open hello_token, open bot | cookie, bearer, hello_token |
/// resume as guest, resume | quick play, rated quick play, create, create rated, join by id,
/// join by invite, register | arena | chat, tournament chat | HTTP cookie, HTTP bearer.
#[rustfmt::skip]
const TABLE: [(Change, [Cell; 21]); 13] = [
    (Change::Nothing,
     [Yes, Yes, Yes, Yes, Yes, Yes, Yes, Fresh, Resumed,
      Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Status(200), Status(200)]),
    (Change::Playban,
     [Yes, Yes, Yes, Yes, Yes, Yes, Yes, Fresh, Resumed,
      PLAYBANNED, PLAYBANNED, PLAYBANNED, PLAYBANNED, PLAYBANNED, PLAYBANNED, PLAYBANNED,
      PLAYBANNED, Yes, Yes, Status(200), Status(200)]),
    (Change::Mute,
     [Yes, Yes, Yes, Yes, Yes, Yes, Yes, Fresh, Resumed,
      Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, MUTED, MUTED, Status(200), Status(200)]),
    (Change::Timeout,
     [BARRED, REVOKED, REVOKED, REVOKED, BARRED, REVOKED, REVOKED, Fresh, BARRED,
      Out, Out, Out, Out, Out, Out, Out, Out, Out, Out, Status(200), Status(200)]),
    (Change::Disable,
     [BARRED, REVOKED, REVOKED, REVOKED, Guest, Status(401), INVALID_TOKEN, Fresh, Out,
      Out, Out, Out, Out, Out, Out, Out, Out, Out, Out, Status(401), Status(401)]),
    (Change::RevokeToken,
     [Yes, REVOKED, REVOKED, REVOKED, Yes, Status(401), INVALID_TOKEN, Fresh, Resumed,
      Yes, Yes, Yes, Yes, Yes, Yes, Yes, Out, Yes, Yes, Status(200), Status(401)]),
    (Change::TokenExpiry,
     [Yes, REVOKED, REVOKED, REVOKED, Yes, Status(401), INVALID_TOKEN, Fresh, Resumed,
      Yes, Yes, Yes, Yes, Yes, Yes, Yes, Out, Yes, Yes, Status(200), Status(401)]),
    (Change::SessionExpiry,
     [SIGNED_OUT, Yes, Yes, Yes, Guest, Yes, Yes, Fresh, Resumed,
      Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Status(401), Status(200)]),
    (Change::SignOut,
     [SIGNED_OUT, Yes, Yes, Yes, Guest, Yes, Yes, Fresh, Resumed,
      Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Status(401), Status(200)]),
    (Change::SignOutEverywhere,
     [SIGNED_OUT, Yes, Yes, Yes, Guest, Yes, Yes, Fresh, Resumed,
      Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Status(401), Status(200)]),
    (Change::NewPassword,
     [SIGNED_OUT, Yes, Yes, Yes, Guest, Yes, Yes, Fresh, Resumed,
      Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Status(401), Status(200)]),
    (Change::RevokeSession,
     [SIGNED_OUT, Yes, Yes, Yes, Guest, Yes, Yes, Fresh, Resumed,
      Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Yes, Status(401), Status(200)]),
    (Change::Reset,
     [SIGNED_OUT, REVOKED, REVOKED, REVOKED, Guest, Status(401), INVALID_TOKEN, Fresh, Out,
      Out, Out, Out, Out, Out, Out, Out, Out, Out, Out, Status(401), Status(401)]),
];

/// How long a change made through one node may take to reach a connection on another: the
/// recheck's half second, a store's answer and a relay, with room for a loaded machine.
const REACH: Duration = Duration::from_secs(5);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_change_holds_on_every_way_in_on_one_node() {
    let world = World::one_node().await;
    cross(&world).await;
    world.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_change_holds_on_every_way_in_through_another_node_with_postgres() {
    let world = World::cluster().await;
    cross(&world).await;
    world.stop().await;
}

/// Every row at once, each on accounts of its own; then one report of every cell that failed.
async fn cross(world: &World) {
    let rows = TABLE
        .iter()
        .enumerate()
        .map(|(n, (change, cells))| row(world, n, *change, cells));
    let failures: Vec<String> = futures_util::future::join_all(rows)
        .await
        .into_iter()
        .flatten()
        .collect();
    assert!(
        failures.is_empty(),
        "{} cells failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// One row: the person made and connected, the change, then each cell; the cells that failed.
async fn row(world: &World, n: usize, change: Change, cells: &[Cell; 21]) -> Vec<String> {
    let mut person = Person::make(world, n).await;
    let mut open = person.open_connections(world).await;
    world.apply(&person, change).await;
    let mut failures = Vec::new();
    // First the connections open before the change: those to close must close (which also
    // means the change has reached the node), then the others must be open still.
    let mut order: Vec<usize> = (0..4).collect();
    order.sort_by_key(|i| !matches!(cells[*i], Closed(_)));
    for i in order {
        let got = open[i].state(matches!(cells[i], Closed(_))).await;
        check(&mut failures, change, WAYS[i], cells[i], got);
    }
    for (i, way) in WAYS.iter().enumerate().skip(4) {
        let got = person.enter(world, *way).await;
        check(&mut failures, change, *way, cells[i], got);
    }
    open.clear();
    failures
}

fn check(failures: &mut Vec<String>, change: Change, way: Way, want: Cell, got: Cell) {
    if want != got {
        failures.push(format!("{change:?} x {way:?}: want {want:?}, got {got:?}"));
    }
}

/// A reply as a cell: an error's code, anything else done.
fn answered(reply: &ServerMessage) -> Cell {
    match reply {
        ServerMessage::Error { code, .. } => No(leak(code)),
        _ => Yes,
    }
}

/// An error code as the `'static` a [`Cell`] holds: the codes are few and the test short.
fn leak(code: &str) -> &'static str {
    match code {
        "playbanned" => "playbanned",
        "muted" => "muted",
        "invalid_token" => "invalid_token",
        other => Box::leak(other.to_owned().into_boxed_str()),
    }
}

/// The request ids of the tables a seat-taking reply names, to leave them again.
fn table_of(reply: &ServerMessage) -> Option<String> {
    match reply {
        ServerMessage::Seated { table, .. } | ServerMessage::TableCreated { table, .. } => {
            Some(table.clone())
        }
        _ => None,
    }
}

/// A chat line at `table`.
fn chat(table: &str) -> impl FnOnce(u64) -> ClientMessage {
    let table = table.to_owned();
    move |id| ClientMessage::Chat {
        id,
        table,
        text: Some("good game".into()),
        phrase: None,
    }
}
