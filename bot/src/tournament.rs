//! Bots in a tournament, over the protocol (1.1): a director connection creates the tournament;
//! each entrant's players are bot connections that register (a pair's second player with the
//! partner code the first was given), go to the table each round's `go_to_table` names, play
//! its match with a [`Session`] (the same state machine as any network bot), and stop when the
//! tournament says it is finished.
//!
//! A dropped connection (a server restart) is retried until the deadline: the player resumes
//! its session, and the welcome's seats take it back to its table, whether or not it heard the
//! round's `go_to_table`.

use std::time::Duration;

use burraco_protocol::ErrorCode;
use burraco_protocol::codec::{from_json, to_json};
use burraco_protocol::wire::{
    ClientMessage, ServerMessage, WireSeat, WireStanding, WireTournamentSettings, protocol_version,
};
use burraco_rules::Seat;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Instant, sleep, timeout};
use tokio_tungstenite::tungstenite::Message;

use crate::session::{SeatRequest, Session};
use crate::strategy::{Level, SearchBudget};

/// What to run.
#[derive(Debug, Clone)]
pub struct TournamentOptions {
    pub url: String,
    pub entrants: u32,
    pub settings: WireTournamentSettings,
    pub level: Level,
    pub seed: u64,
    /// Give up when the tournament is not finished by then.
    pub deadline: Duration,
    /// Where the players report what they see, with when (a load test's measurements).
    pub observer: Option<mpsc::UnboundedSender<Observed>>,
    /// A teams event: the line-ups each team plays, round after round (round r the
    /// `(r - 1) % len`-th), set by its first player (`set_lineup`); empty: registration order.
    pub lineups: Vec<[u8; 4]>,
}

/// What a player saw, and when: sent to [`TournamentOptions::observer`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Observed {
    /// Told to go to `table` for `round`.
    GoToTable {
        round: u32,
        table: String,
        at: Instant,
    },
    /// The first deal this player saw at `table` (its match has started).
    Dealt { table: String, at: Instant },
    /// The match at `table` ended.
    MatchEnded { table: String, at: Instant },
    /// A `tournament_update`: `round` started so far, its status.
    Update {
        round: u32,
        status: String,
        at: Instant,
    },
    /// A request of this player was refused, or its connection dropped.
    Trouble { what: String, at: Instant },
}

/// How it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentSummary {
    pub tournament: String,
    /// The creator's secret, for the director's requests.
    pub director_token: String,
    pub standings: Vec<WireStanding>,
}

impl TournamentSummary {
    /// `{"tournament": id, "standings": [...]}`.
    pub fn to_json(&self) -> String {
        serde_json::json!({
            "tournament": self.tournament,
            "standings": self.standings,
        })
        .to_string()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    #[error("connecting to {0}: {1}")]
    Connect(String, String),
    #[error("the server refused {0}: {1}")]
    Refused(&'static str, String),
    #[error("the connection closed during {0}")]
    Closed(&'static str),
    #[error("the tournament was not finished within {0:?}")]
    Deadline(Duration),
    #[error("a player stopped: {0}")]
    Player(String),
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(url: &str) -> Result<Ws, String> {
    tokio_tungstenite::connect_async(url)
        .await
        .map(|(ws, _)| ws)
        .map_err(|e| e.to_string())
}

async fn send(ws: &mut Ws, message: &ClientMessage) -> Result<(), String> {
    ws.send(Message::text(to_json(message)))
        .await
        .map_err(|e| e.to_string())
}

/// The next server message; `None` when the connection is gone.
async fn next(ws: &mut Ws) -> Option<ServerMessage> {
    loop {
        match ws.next().await? {
            Ok(Message::Text(text)) => {
                if let Ok(m) = from_json::<ServerMessage>(text.as_str(), usize::MAX).result {
                    return Some(m);
                }
            }
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// Waits for the reply to request `id`.
async fn reply(ws: &mut Ws, id: u64, what: &'static str) -> Result<ServerMessage, TournamentError> {
    loop {
        let m = next(ws).await.ok_or(TournamentError::Closed(what))?;
        match &m {
            ServerMessage::Error {
                id: Some(i),
                code,
                message,
                ..
            } if *i == id => {
                return Err(TournamentError::Refused(what, format!("{code}: {message}")));
            }
            ServerMessage::TournamentCreated { id: i, .. }
            | ServerMessage::TournamentRegistered { id: i, .. }
            | ServerMessage::RegistrationConfigured { id: i, .. }
            | ServerMessage::Ok { id: i }
                if *i == id =>
            {
                return Ok(m);
            }
            _ => {}
        }
    }
}

/// A connection that said hello (1.1) and was welcomed; its resume token.
async fn hello(url: &str, name: &str, resume: Option<String>) -> Result<(Ws, String), String> {
    let mut ws = connect(url).await?;
    send(
        &mut ws,
        &ClientMessage::Hello {
            version: protocol_version(),
            name: name.to_owned(),
            resume,
        },
    )
    .await?;
    match next(&mut ws).await {
        Some(ServerMessage::Welcome { session, .. }) => Ok((ws, session)),
        other => Err(format!("no welcome: {other:?}")),
    }
}

/// Creates the tournament; returns its id and the director token.
pub async fn create(
    url: &str,
    settings: &WireTournamentSettings,
) -> Result<(String, String), TournamentError> {
    let (mut ws, _) = hello(url, "director", None)
        .await
        .map_err(|e| TournamentError::Connect(url.to_owned(), e))?;
    send(
        &mut ws,
        &ClientMessage::CreateTournament {
            id: 1,
            settings: Box::new(settings.clone()),
        },
    )
    .await
    .map_err(|e| TournamentError::Connect(url.to_owned(), e))?;
    match reply(&mut ws, 1, "create_tournament").await? {
        ServerMessage::TournamentCreated {
            tournament,
            director_token,
            ..
        } => Ok((tournament, director_token)),
        _ => Err(TournamentError::Closed("create_tournament")),
    }
}

/// Sends one director request (or any tournament request) on a fresh connection; its reply.
pub async fn request(
    url: &str,
    make: impl FnOnce(u64) -> ClientMessage,
) -> Result<ServerMessage, TournamentError> {
    let (mut ws, _) = hello(url, "director", None)
        .await
        .map_err(|e| TournamentError::Connect(url.to_owned(), e))?;
    let message = make(1);
    let what = message.kind();
    send(&mut ws, &message)
        .await
        .map_err(|e| TournamentError::Connect(url.to_owned(), e))?;
    reply(&mut ws, 1, what).await
}

/// Creates a tournament, registers `entrants` bot entrants, starts it (a Sit&Go starts by
/// itself when its list is full) and plays it to its end.
pub async fn run(options: &TournamentOptions) -> Result<TournamentSummary, TournamentError> {
    let (tournament, director_token) = create(&options.url, &options.settings).await?;
    let players = register_and_play(options, &tournament).await?;
    if options.settings.start_when_full != Some(true) {
        let tournament_id = tournament.clone();
        let token = director_token.clone();
        request(&options.url, |id| ClientMessage::StartRound {
            id,
            tournament: tournament_id,
            director: token,
        })
        .await?;
    }
    let standings = finish(players).await?;
    Ok(TournamentSummary {
        tournament,
        director_token,
        standings,
    })
}

/// The bot players of a tournament, registered and playing.
#[derive(Debug)]
pub struct Players {
    tasks: Vec<tokio::task::JoinHandle<Result<Vec<WireStanding>, String>>>,
}

/// Registers `options.entrants` entrants (in order: a pair's first player, then its partner)
/// and leaves their players playing.
pub async fn register_and_play(
    options: &TournamentOptions,
    tournament: &str,
) -> Result<Players, TournamentError> {
    let per_entrant = match options.settings.kind.as_str() {
        "teams" => 4,
        "pairs" => 2,
        _ => 1,
    };
    let deadline = Instant::now() + options.deadline;
    let mut tasks = Vec::new();
    for e in 0..options.entrants {
        let mut code = None;
        for p in 0..per_entrant {
            let name = format!("bot-{e}{}", ["a", "b", "c", "d"][p]);
            let (tx, rx) = oneshot::channel();
            let player = Player {
                url: options.url.clone(),
                tournament: tournament.to_owned(),
                name,
                partner_code: code.clone(),
                level: options.level,
                seed: options
                    .seed
                    .wrapping_mul(1000)
                    .wrapping_add(u64::from(e) * 2 + p as u64),
                deadline,
                observer: options.observer.clone(),
                lineups: if p == 0 && per_entrant == 4 {
                    options.lineups.clone()
                } else {
                    Vec::new()
                },
            };
            tasks.push(tokio::spawn(player.run(tx)));
            match rx.await {
                Ok(Ok(partner)) => code = code.or(partner),
                Ok(Err(e)) => return Err(TournamentError::Refused("register_tournament", e)),
                Err(_) => return Err(TournamentError::Closed("register_tournament")),
            }
        }
    }
    Ok(Players { tasks })
}

/// Waits for every player to hear the end; the final standings.
pub async fn finish(players: Players) -> Result<Vec<WireStanding>, TournamentError> {
    let mut standings = None;
    for task in players.tasks {
        match task.await {
            Ok(Ok(s)) => standings = Some(s),
            Ok(Err(e)) => return Err(TournamentError::Player(e)),
            Err(e) => return Err(TournamentError::Player(e.to_string())),
        }
    }
    standings.ok_or(TournamentError::Closed("the tournament"))
}

struct Player {
    url: String,
    tournament: String,
    name: String,
    partner_code: Option<String>,
    level: Level,
    seed: u64,
    deadline: Instant,
    observer: Option<mpsc::UnboundedSender<Observed>>,
    /// A team's first player: the team's line-ups by round ([`TournamentOptions::lineups`]).
    lineups: Vec<[u8; 4]>,
}

impl Player {
    /// The `set_lineup` for round `round` (from 1), if this player sets its team's.
    fn lineup_for(&self, round: u32) -> Option<ClientMessage> {
        let len = self.lineups.len();
        let order = self
            .lineups
            .get((round as usize).checked_sub(1)? % len.max(1))?;
        Some(ClientMessage::SetLineup {
            id: LINEUP,
            tournament: self.tournament.clone(),
            order: order.to_vec(),
        })
    }

    fn observe(&self, make: impl FnOnce(Instant) -> Observed) {
        if let Some(observer) = &self.observer {
            let _ = observer.send(make(Instant::now()));
        }
    }
}

/// What one connection of a player ended with.
enum Ended {
    Finished(Vec<WireStanding>),
    Dropped,
}

impl Player {
    /// Registers (telling `registered` the partner code, if any), then plays every round,
    /// reconnecting when the connection drops; the final standings.
    async fn run(
        self,
        registered: oneshot::Sender<Result<Option<String>, String>>,
    ) -> Result<Vec<WireStanding>, String> {
        let mut registered = Some(registered);
        let mut token: Option<String> = None;
        let mut session: Option<Session> = None;
        let mut games = 0u64;
        loop {
            if Instant::now() > self.deadline {
                return Err(format!("{}: the deadline passed", self.name));
            }
            let ws = connect(&self.url).await;
            let Ok(ws) = ws else {
                sleep(Duration::from_millis(100)).await;
                continue;
            };
            match self
                .connection(ws, &mut token, &mut registered, &mut session, &mut games)
                .await
            {
                Ok(Ended::Finished(standings)) => return Ok(standings),
                Ok(Ended::Dropped) => {
                    self.observe(|at| Observed::Trouble {
                        what: format!("{}: connection dropped", self.name),
                        at,
                    });
                    sleep(Duration::from_millis(100)).await
                }
                Err(e) => {
                    if let Some(tx) = registered.take() {
                        let _ = tx.send(Err(e.clone()));
                    }
                    return Err(e);
                }
            }
        }
    }

    fn new_session(&self, table: String, seat: Seat, games: &mut u64) -> Session {
        *games += 1;
        let (level, seed) = (self.level, self.seed ^ (*games << 32));
        let budget = SearchBudget {
            worlds: 8,
            max_time: Some(Duration::from_millis(50)),
            horizon: 8,
        };
        let mut n = 0u64;
        let factory = Box::new(move || {
            n += 1;
            level.strategy(seed ^ n, budget)
        });
        let request = SeatRequest::Table {
            table,
            seat: Some(seat),
        };
        Session::new(self.name.clone(), request, 1, factory, seed)
    }

    async fn connection(
        &self,
        mut ws: Ws,
        token: &mut Option<String>,
        registered: &mut Option<oneshot::Sender<Result<Option<String>, String>>>,
        session: &mut Option<Session>,
        games: &mut u64,
    ) -> Result<Ended, String> {
        let hello = ClientMessage::Hello {
            version: protocol_version(),
            name: self.name.clone(),
            resume: token.clone(),
        };
        if send(&mut ws, &hello).await.is_err() {
            return Ok(Ended::Dropped);
        }
        const REGISTER: u64 = 1 << 40;
        let mut out = Vec::new();
        // The round whose `go_to_table` last sent the next round's line-up.
        let mut lineup_sent: Option<u32> = None;
        // The table of the last deal reported (only a table's first is).
        let mut dealt_at: Option<String> = None;
        // The seat the tournament gave us last, and when to ask for it again after a join that
        // failed (refused while the table moved between nodes: "resume and retry").
        let mut assigned: Option<(String, Seat)> = None;
        let mut rejoin_at: Option<Instant> = None;
        loop {
            if Instant::now() > self.deadline {
                return Err(format!("{}: the deadline passed", self.name));
            }
            if let (Some(at), Some((table, seat))) = (rejoin_at, assigned.clone())
                && Instant::now() >= at
                && session.is_none()
            {
                rejoin_at = None;
                let mut s = self.new_session(table, seat, games);
                s.handle(
                    &fresh_welcome(token.as_deref().unwrap_or(""), &self.name),
                    &mut out,
                );
                *session = Some(s);
            }
            let wait = rejoin_at.map_or(Duration::from_secs(5), |at| {
                at.saturating_duration_since(Instant::now())
            });
            let message = match timeout(wait, next(&mut ws)).await {
                Err(_) => {
                    if let Some(s) = session.as_mut()
                        && s.is_stuck()
                    {
                        s.retry(&mut out);
                    }
                    None
                }
                Ok(None) => return Ok(Ended::Dropped),
                Ok(Some(m)) => Some(m),
            };
            match message {
                None => {}
                Some(ServerMessage::Welcome {
                    session: tok,
                    seats,
                    ..
                }) => {
                    *token = Some(tok.clone());
                    if registered.is_some() {
                        out.push(ClientMessage::RegisterTournament {
                            id: REGISTER,
                            tournament: self.tournament.clone(),
                            partner_code: self.partner_code.clone(),
                            bot: Some(true),
                        });
                    }
                    // Back after a drop: the seat the server holds for us is where we play,
                    // whether or not we heard the round's `go_to_table`.
                    let here = session.as_ref().and_then(|s| s.table().map(str::to_owned));
                    let held = seats.last().map(|s| (s.table.clone(), s.seat.0));
                    match (here, held) {
                        (Some(_), _) => {
                            if let Some(s) = session.as_mut() {
                                // What was in flight on the old connection is answered by the
                                // resync the welcome starts.
                                let _ = s.hello();
                                s.handle(
                                    &ServerMessage::Welcome {
                                        version: protocol_version(),
                                        session: tok.clone(),
                                        player: String::new(),
                                        name: self.name.clone(),
                                        resumed: true,
                                        seats: seats.clone(),
                                    },
                                    &mut out,
                                );
                            }
                        }
                        (None, Some((table, seat))) => {
                            let mut s = self.new_session(table, seat, games);
                            s.handle(&fresh_welcome(&tok, &self.name), &mut out);
                            *session = Some(s);
                        }
                        (None, None) => {}
                    }
                }
                Some(ServerMessage::TournamentRegistered {
                    id, partner_code, ..
                }) if id == REGISTER => {
                    if let Some(tx) = registered.take() {
                        let _ = tx.send(Ok(partner_code));
                    }
                    out.extend(self.lineup_for(1));
                }
                // The line-up's answer: an `ok`, or a refusal once the event is over.
                Some(
                    ServerMessage::Ok { id: LINEUP }
                    | ServerMessage::Error {
                        id: Some(LINEUP), ..
                    },
                ) => {}
                Some(ServerMessage::Error {
                    id: Some(id),
                    code,
                    message,
                    ..
                }) if id == REGISTER => {
                    return Err(format!(
                        "{}: registration refused: {code}: {message}",
                        self.name
                    ));
                }
                Some(ServerMessage::GoToTable {
                    tournament,
                    table,
                    seat,
                    round,
                }) if tournament == self.tournament => {
                    self.observe(|at| Observed::GoToTable {
                        round,
                        table: table.clone(),
                        at,
                    });
                    assigned = Some((table.clone(), seat.0));
                    // A round has started: the team's line-up for the next one.
                    if lineup_sent != Some(round) {
                        lineup_sent = Some(round);
                        out.extend(self.lineup_for(round + 1));
                    }
                    // Told again (the tournament moved to another node): a join still
                    // unanswered is asked again.
                    let same = session
                        .as_ref()
                        .is_some_and(|s| s.table() == Some(&table) && s.seat().is_some());
                    if !same {
                        let mut s = self.new_session(table, seat.0, games);
                        s.handle(
                            &fresh_welcome(token.as_deref().unwrap_or(""), &self.name),
                            &mut out,
                        );
                        *session = Some(s);
                    }
                }
                Some(ServerMessage::TournamentUpdate {
                    tournament,
                    status,
                    standings,
                    table,
                    seat,
                    round,
                    ..
                }) if tournament == self.tournament => {
                    self.observe(|at| Observed::Update {
                        round,
                        status: status.clone(),
                        at,
                    });
                    if status == "finished" {
                        let _ = ws.close(None).await;
                        return Ok(Ended::Finished(standings));
                    }
                    if let (Some(table), Some(WireSeat(seat)), None) =
                        (table, seat, session.as_ref())
                    {
                        let mut s = self.new_session(table, seat, games);
                        s.handle(
                            &fresh_welcome(token.as_deref().unwrap_or(""), &self.name),
                            &mut out,
                        );
                        *session = Some(s);
                    }
                }
                Some(other) => {
                    match &other {
                        ServerMessage::Dealt { table, .. } if dealt_at.as_ref() != Some(table) => {
                            dealt_at = Some(table.clone());
                            self.observe(|at| Observed::Dealt {
                                table: table.clone(),
                                at,
                            });
                        }
                        ServerMessage::MatchEnded { table, .. } => {
                            self.observe(|at| Observed::MatchEnded {
                                table: table.clone(),
                                at,
                            });
                        }
                        // A `ready` after the match's last hand is refused so, as the session
                        // expects: not trouble.
                        ServerMessage::Error { code, message, .. }
                            if ErrorCode::parse(code) != Some(ErrorCode::TableStarted) =>
                        {
                            self.observe(|at| Observed::Trouble {
                                what: format!("{}: {code}: {message}", self.name),
                                at,
                            });
                            // The table is moving to another node: resume and retry, as the
                            // refusal says (the resume's sync asks the new owner).
                            if ErrorCode::parse(code) == Some(ErrorCode::ShuttingDown) {
                                let _ = ws.close(None).await;
                                return Ok(Ended::Dropped);
                            }
                        }
                        _ => {}
                    }
                    if let Some(s) = session.as_mut() {
                        s.handle(&other, &mut out);
                    }
                }
            }
            if let Some(s) = session.as_ref().filter(|s| s.is_finished()) {
                // A join refused before the seat was ours: ask again shortly.
                if s.stage() == crate::session::Stage::Failed && s.seat().is_none() {
                    rejoin_at = Some(Instant::now() + Duration::from_millis(500));
                }
                *session = None;
            }
            if let Some(s) = session.as_mut()
                && let Some(action) = s.poll_action()
            {
                out.push(action);
            }
            for m in out.drain(..) {
                if send(&mut ws, &m).await.is_err() {
                    return Ok(Ended::Dropped);
                }
            }
        }
    }
}

/// The id of a team's `set_lineup` requests.
const LINEUP: u64 = 1 << 41;

/// What starts a [`Session`] at a table: as if it had just been welcomed with no seat, it asks
/// for its table's seat (a `join`, which the server answers for a held seat).
fn fresh_welcome(token: &str, name: &str) -> ServerMessage {
    ServerMessage::Welcome {
        version: protocol_version(),
        session: token.to_owned(),
        player: String::new(),
        name: name.to_owned(),
        resumed: false,
        seats: Vec::new(),
    }
}
