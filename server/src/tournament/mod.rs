//! Tournaments (RULES.md section 11): one actor per tournament, with its own durable log, like a
//! table. The private [`TournamentActor`] owns the tournament's state (the fold of its log,
//! [`state`]) and the writing of its log; a cloneable [`TournamentHandle`] sends it [`Command`]s
//! over a bounded queue. Each concern is a child module:
//!
//! - [`settings`]: the settings checked (kinds, movements, the tables' rules);
//! - [`state`]: the fold of the log (live, restart and record alike), standings;
//! - [`registration`]: entering and leaving the list, check-in;
//! - [`director`]: the director's requests, and an entrant leaving after the start;
//! - [`conduct`]: what runs on the clock (a scheduled start, a Sit&Go's bots, late arrivals,
//!   boards revealed, the next round);
//! - [`rounds`]: pairing a round by its movement, creating its tables with the seats held, and
//!   noticing each table's end;
//! - [`scoring`]: a table's match read from the table's own log;
//! - [`record`]: the tournament record (`GET /api/tournaments/{id}`) and the wire standings;
//! - [`http`]: `GET /api/tournaments` and `/api/tournaments/{id}`;
//! - [`restore`]: rebuilding after a restart; [`requests`]: a connection's tournament requests;
//! - [`watch`]: players who are no entrants hearing the updates (`watch_tournament`).
//!
//! The log lives behind the tables' [`crate::log::TableLog`] under an id starting with `T-`
//! (see `burraco_protocol::tournament_log`). A tournament never touches a table's state: it
//! creates tables, reads their logs to learn how their matches ended, and at most closes one
//! whose match it scored without it.

mod conduct;
mod director;
pub mod http;
pub mod record;
mod registration;
pub mod requests;
pub mod restore;
mod rounds;
pub mod scoring;
pub mod settings;
pub mod state;
pub mod telemetry;
mod watch;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use burraco_protocol::ErrorCode;
use burraco_protocol::tournament_log::{EntrantPlayer, TOURNAMENT_PREFIX, TournamentEntry};
use burraco_protocol::wire::{
    ServerMessage, WireRegistration, WireStanding, WireTournamentSettings,
};
use dashmap::DashMap;
use tokio::sync::{mpsc, oneshot};
use tracing::Instrument;

use crate::Shared;
use crate::backplane::{Backplane, Embargo, Peers};
use crate::log::LogError;
use crate::outbound::{Frame, Outbox};
use settings::Settings;
use state::TournamentState;

/// How often a tournament with a round in play looks at its tables.
const POLL: Duration = Duration::from_millis(200);

/// A refusal: (code, message).
pub type Refusal = (ErrorCode, String);

/// The director's powers.
#[derive(Debug, Clone)]
pub enum DirectorAction {
    StartRound,
    Adjust {
        entrant: u32,
        vp: i32,
        reason: String,
    },
    Withdraw {
        entrant: u32,
        reason: String,
    },
    /// A withdrawal for force majeure (FITAB art. 36).
    Excuse {
        entrant: u32,
        reason: String,
    },
    End,
    /// Answered with the invitation code of an invite-only list.
    Registration(WireRegistration),
    Pause,
    Resume,
    Warn {
        entrant: u32,
        reason: String,
    },
    Disqualify {
        entrant: u32,
        reason: String,
    },
    Forbid {
        entrants: Vec<u32>,
    },
    Seat {
        order: Vec<u32>,
    },
    RoundTime {
        secs: Option<u32>,
    },
}

/// What a player asks for itself (no director token).
#[derive(Debug)]
pub enum PlayerRequest {
    CheckIn,
    Unregister,
    /// Hear the updates without being an entrant (`watch_tournament`).
    Watch,
    /// A team's line-up (`set_lineup`).
    SetLineup {
        order: Vec<u8>,
    },
}

/// What a tournament can be asked. Closed: the actor answers exactly these.
#[derive(Debug)]
pub enum Command {
    Register {
        player: EntrantPlayer,
        partner_code: Option<String>,
        bot: bool,
        /// The invitation code given (`register_invited`).
        invite: Option<String>,
        reply: oneshot::Sender<Result<(u32, Option<String>), Refusal>>,
    },
    /// A player's own request, answered `ok` or refused.
    Player {
        player: String,
        request: PlayerRequest,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Answered with the invitation code for `DirectorAction::Registration`, else `None`.
    Director {
        token: String,
        action: DirectorAction,
        reply: oneshot::Sender<Result<Option<String>, Refusal>>,
    },
    /// Cluster mode: this node lost the tournament's lease; stop serving it at once.
    StepDown,
}

/// What the list shows of a tournament, kept current by its actor.
pub use crate::backplane::TournamentSummary as Summary;

#[derive(Debug, Clone)]
pub struct TournamentHandle {
    id: Arc<str>,
    tx: mpsc::Sender<Command>,
    summary: Arc<Mutex<Summary>>,
}

impl TournamentHandle {
    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn summary(&self) -> Summary {
        self.summary
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Sends a command and waits for its answer; a busy or stopped tournament refuses.
    pub async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, Refusal>>) -> Command,
    ) -> Result<T, Refusal> {
        let (tx, rx) = oneshot::channel();
        if self.tx.try_send(make(tx)).is_err() {
            return Err((ErrorCode::TableBusy, "the tournament is busy; retry".into()));
        }
        rx.await.unwrap_or_else(|_| {
            Err((
                ErrorCode::InternalError,
                "the tournament stopped before answering".into(),
            ))
        })
    }
}

/// Tournaments by id, and the connections that may hear from them: the latest connection of each
/// player whose hello said 1.1 or later (a 1.0 connection is never listed, so it never receives a
/// message new in 1.1).
#[derive(Debug)]
pub struct Tournaments {
    handles: DashMap<String, TournamentHandle>,
    /// Each player's latest connection past a 1.1 hello, with the minor it said.
    players: DashMap<String, (Outbox, u16)>,
    /// The commitments of the duplicate boards of rounds in play: their hand records (played at
    /// one table, still to be played at another) are served by no route until the round ends.
    embargo: Arc<dyn Embargo>,
    /// The tables of rounds in play whose matches are not scored yet: their seats are held for
    /// their entrants (a `leave` there keeps the seat; the late-arrival rule judges it).
    held_tables: DashMap<String, ()>,
    /// Each player's `go_to_table` while its table's match is to be played: told again on each
    /// new connection (one made while it was sent, a resume after a drop, another node's).
    going: DashMap<String, Arc<Frame>>,
    /// Players connected to other nodes are told through them.
    peers: Arc<dyn Peers>,
}

impl Tournaments {
    pub fn new(backplane: &Backplane) -> Tournaments {
        Tournaments {
            handles: DashMap::new(),
            players: DashMap::new(),
            embargo: backplane.embargo.clone(),
            held_tables: DashMap::new(),
            going: DashMap::new(),
            peers: backplane.peers.clone(),
        }
    }

    pub fn get(&self, id: &str) -> Option<TournamentHandle> {
        self.handles.get(id).map(|h| h.clone())
    }

    /// Stops serving tournament `id` here (its lease was lost).
    pub fn step_down(&self, id: &str) {
        if let Some((_, handle)) = self.handles.remove(id) {
            let _ = handle.tx.try_send(Command::StepDown);
        }
    }

    /// Forgets the handle of an actor that stopped (unless a newer one took its place).
    fn stopped(&self, id: &str, summary: &Arc<Mutex<Summary>>) {
        self.handles
            .remove_if(id, |_, h| Arc::ptr_eq(&h.summary, summary));
    }

    /// Whether `table` is a tournament's table whose match is to be played: its seats are held.
    pub fn holds_table(&self, table: &str) -> bool {
        self.held_tables.contains_key(table)
    }

    pub fn all(&self) -> Vec<TournamentHandle> {
        let mut all: Vec<TournamentHandle> = self.handles.iter().map(|h| h.clone()).collect();
        all.sort_by(|a, b| a.id.cmp(&b.id));
        all
    }

    /// A connection of `player` past its hello, speaking minor version `minor`.
    pub fn connected(&self, player: &str, minor: u16, out: &Outbox) {
        if minor < 1 {
            return;
        }
        self.players.insert(player.to_owned(), (out.clone(), minor));
        if let Some(going) = self.going.get(player).map(|f| f.clone()) {
            out.send(going);
        } else {
            // Its tournament may be served by another node: that node tells it again.
            self.peers.arrived(player);
        }
    }

    /// Another node says `player` connected there: its `go_to_table`, if this node has one.
    pub fn arrived_elsewhere(&self, player: &str) {
        if let Some(going) = self.going.get(player).map(|f| f.clone()) {
            self.tell_frame(player, &going);
        }
    }

    /// Sends `player` where to play (and keeps it, to tell again on a new connection).
    fn send_to_table(&self, player: &str, go: &Arc<Frame>) {
        self.going.insert(player.to_owned(), go.clone());
        self.tell_frame(player, go);
    }

    /// `player`'s match at `table` was scored: no more telling it to go there.
    fn played(&self, player: &str, table: &str) {
        self.going.remove_if(player, |_, frame| {
            matches!(frame.message(), ServerMessage::GoToTable { table: t, .. } if t == table)
        });
    }

    /// Whether `player` has a connection on this node.
    pub fn is_connected(&self, player: &str) -> bool {
        self.players.contains_key(player)
    }

    /// Connection `conn` of `player` closed (a newer one stays listed).
    pub fn disconnected(&self, player: &str, conn: u64) {
        self.players
            .remove_if(player, |_, (out, _)| out.id() == conn);
    }

    /// Keeps a duplicate board's hand records from every node's routes (`on`), or lets them out.
    fn set_embargo(&self, seed: &[u8; 32], on: bool) {
        self.embargo
            .set(&burraco_rules::Seed(*seed).commitment_hex(), on);
    }

    /// Hand records (a JSON array) without those of duplicate boards in play on any node.
    pub async fn hide_embargoed(&self, records: String) -> String {
        let Ok(mut list) = serde_json::from_str::<Vec<serde_json::Value>>(&records) else {
            return records;
        };
        let mut commitments: Vec<String> = list
            .iter()
            .filter_map(|r| r["commitment"].as_str().map(str::to_owned))
            .collect();
        commitments.sort_unstable();
        commitments.dedup();
        if commitments.is_empty() {
            return records;
        }
        let hidden = self.embargo.hidden(&commitments).await;
        if hidden.is_empty() {
            return records;
        }
        list.retain(|r| r["commitment"].as_str().is_none_or(|c| !hidden.contains(c)));
        serde_json::Value::from(list).to_string()
    }

    /// Sends a frame (shared by many players, encoded once) to `player`'s listed connection, if
    /// its minor version allows the message; in cluster mode, a player with no connection here
    /// is told through the node that has one.
    fn tell_frame(&self, player: &str, frame: &Arc<Frame>) {
        if !self.tell_here(player, frame) {
            self.peers.tell(player, frame);
        }
    }

    /// Sends a frame to `player`'s connection on this node, if it has one; false if not.
    pub fn tell_here(&self, player: &str, frame: &Arc<Frame>) -> bool {
        let Some(entry) = self.players.get(player) else {
            return false;
        };
        let (out, minor) = &*entry;
        if frame.message().minor() <= *minor {
            out.send(frame.clone());
        }
        true
    }
}

struct TournamentActor {
    id: Arc<str>,
    shared: Arc<Shared>,
    rx: mpsc::Receiver<Command>,
    state: TournamentState,
    /// How many entries the log holds: what the next append expects.
    log_len: u64,
    summary: Arc<Mutex<Summary>>,
    /// The log refused an append as stale: stop at once.
    stopping: bool,
    /// The last round is over and the next is to start (or the end to be logged) once no
    /// pause holds it.
    advance: bool,
    /// When this actor started (Unix ms): late arrivals count from no earlier.
    started_ms: i64,
    /// Something changed that the players have not been told yet.
    update_due: bool,
    /// Cluster mode: the summary last written to the cluster's listing.
    listed: Option<Summary>,
    /// How many times the round's tables were looked at.
    polls: u64,
    /// A table of the round in play could not be created yet: tried again (once a second).
    tables_missing: bool,
    /// Players who are told the updates without being entrants.
    watchers: watch::Watchers,
    /// Counted in `burraco_tournaments` (running, not finished).
    counted_in_play: bool,
}

/// Creates a tournament: logs it, registers it and starts its actor; returns its id and the
/// director token (its hash only is logged).
pub async fn create(
    shared: &Arc<Shared>,
    wire: &WireTournamentSettings,
) -> Result<(String, String), Refusal> {
    if shared.shutdown.is_cancelled() {
        return Err((
            ErrorCode::ShuttingDown,
            "the server is shutting down".into(),
        ));
    }
    Settings::for_new(wire).map_err(|e| (ErrorCode::InvalidSettings, e.to_string()))?;
    let id = format!(
        "{TOURNAMENT_PREFIX}{}",
        burraco_protocol::cards::to_hex(&crate::random_bytes::<5>())
    );
    let token = crate::random_id("", 16);
    let seed = u64::from_le_bytes(crate::random_bytes::<8>());
    let created = TournamentEntry::Created {
        settings: serde_json::to_string(wire).expect("settings serialize"),
        created_ms: crate::unix_ms(),
        director_hash: token_hash(&token),
        seed,
    };
    let state = TournamentState::created(id.clone(), &created)
        .map_err(|e| (ErrorCode::InvalidSettings, e.to_string()))?;
    // Leased before its first entry, as a table: one node serves it.
    if !shared.backplane.leases.take(&id).await {
        return Err((
            ErrorCode::InternalError,
            "could not create the tournament: no lease".into(),
        ));
    }
    let log_len = shared
        .backplane
        .log
        .append(&id, 0, vec![created.encode()])
        .await
        .map_err(|e| {
            (
                ErrorCode::InternalError,
                format!("could not create the tournament: {e}"),
            )
        })?;
    spawn(shared, state, log_len);
    Ok((id, token))
}

/// The SHA-256 of a director token (its 32 hex characters, as bytes).
fn token_hash(token: &str) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    for (b, t) in bytes.iter_mut().zip(token.bytes()) {
        *b = t;
    }
    // Tokens are 32 characters; a longer one is not a token and hashes to something else.
    if token.len() != 32 {
        bytes[0] ^= 0xff;
    }
    burraco_rules::Seed(bytes).commitment()
}

fn spawn(shared: &Arc<Shared>, state: TournamentState, log_len: u64) -> TournamentHandle {
    let id: Arc<str> = state.id.clone().into();
    let (tx, rx) = mpsc::channel(shared.config.table_queue);
    let summary = Arc::new(Mutex::new(summary_of(&state)));
    let handle = TournamentHandle {
        id: id.clone(),
        tx,
        summary: summary.clone(),
    };
    shared
        .tournaments
        .handles
        .insert(id.to_string(), handle.clone());
    let mut actor = TournamentActor {
        id,
        shared: shared.clone(),
        rx,
        state,
        log_len,
        summary,
        stopping: false,
        advance: false,
        started_ms: crate::unix_ms(),
        update_due: false,
        listed: None,
        polls: 0,
        tables_missing: false,
        watchers: watch::Watchers::default(),
        counted_in_play: false,
    };
    // Counted before the server listens (a restart restores its tournaments first).
    actor.count_in_play(true);
    let span = tracing::info_span!("tournament", id = %actor.id);
    shared
        .tracker
        .spawn(async move { actor.run().await }.instrument(span));
    handle
}

fn summary_of(state: &TournamentState) -> Summary {
    Summary {
        name: state.settings.wire.name.clone(),
        kind: state.settings.wire.kind.clone(),
        status: state.status(),
        entrants: state.active().len(),
        round: state.rounds.len() as u32,
        rounds: state.planned_rounds(),
    }
}

impl TournamentActor {
    async fn run(&mut self) {
        self.resume().await;
        // Stops with the tables: at shutdown, and when a cluster node drains (the tournament is
        // then served by the node that takes its lease).
        let token = self.shared.stop_tables.child_token();
        let shutdown = token.cancelled();
        tokio::pin!(shutdown);
        let mut tick = tokio::time::interval(POLL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        while !self.stopping {
            tokio::select! {
                biased;
                _ = &mut shutdown => break,
                command = self.rx.recv() => match command {
                    Some(command) => self.handle_command(command).await,
                    None => break,
                },
                _ = tick.tick(), if !self.state.finished || self.update_due || self.listing_due() => {
                    self.tick(crate::unix_ms()).await;
                    self.flush_update();
                    self.write_listing().await;
                }
            }
        }
        self.count_in_play(false);
        self.shared.tournaments.stopped(&self.id, &self.summary);
        // Released only if still ours (a lease lost is not).
        self.shared.backplane.leases.release(&self.id).await;
    }

    /// A match scored: its players are no longer told to go to its table.
    fn forget_going(&self, round: u32, table: &str) {
        let Some(round) = self.state.rounds.get((round as usize).wrapping_sub(1)) else {
            return;
        };
        let Some(at) = round.tables.iter().find(|t| t.table == table) else {
            return;
        };
        for held in self.held_seats(round, at) {
            self.shared.tournaments.played(&held.player, table);
        }
    }

    /// The listing other nodes read is behind this node's summary.
    fn listing_due(&self) -> bool {
        self.listed.as_ref() != Some(&self.summary_now())
    }

    fn summary_now(&self) -> Summary {
        self.summary
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Writes the tournament's listing when its summary changed (at most once a tick: a list
    /// filling up is not one write per entrant).
    async fn write_listing(&mut self) {
        let summary = self.summary_now();
        if self.listed.as_ref() != Some(&summary) {
            let listings = &self.shared.backplane.tournament_listings;
            listings.list(&self.id, &summary).await;
            self.listed = Some(summary);
        }
    }

    async fn handle_command(&mut self, command: Command) {
        match command {
            Command::Register {
                player,
                partner_code,
                bot,
                invite,
                reply,
            } => {
                // The reply first, then what everyone registered hears (the registrant too).
                let answer = self.register(player, partner_code, bot, invite).await;
                let changed = answer.is_ok();
                let _ = reply.send(answer);
                if changed {
                    self.broadcast_update();
                }
                self.start_if_full().await;
            }
            Command::Player {
                player,
                request,
                reply,
            } => {
                // A watcher changes nothing the others hear of.
                let watching = matches!(request, PlayerRequest::Watch);
                let answer = match request {
                    PlayerRequest::CheckIn => self.check_in(&player).await,
                    PlayerRequest::Unregister => self.unregister(&player).await,
                    PlayerRequest::SetLineup { order } => self.set_lineup(&player, &order).await,
                    PlayerRequest::Watch => {
                        self.watch(&player);
                        Ok(())
                    }
                };
                let changed = answer.is_ok() && !watching;
                let _ = reply.send(answer);
                if changed {
                    self.broadcast_update();
                }
            }
            Command::Director {
                token,
                action,
                reply,
            } => {
                let answer = if token_hash(&token) != self.state.director_hash {
                    Err((
                        ErrorCode::NotDirector,
                        "that is not this tournament's director token".into(),
                    ))
                } else {
                    self.direct(action).await
                };
                let _ = reply.send(answer);
            }
            Command::StepDown => {
                tracing::warn!("lost the tournament's lease: stepping down");
                self.stopping = true;
            }
        }
    }

    /// Appends entries durably, then folds them into the state: nothing is known before it is
    /// logged.
    async fn log(&mut self, entries: Vec<TournamentEntry>) -> Result<(), Refusal> {
        let encoded = entries.iter().map(TournamentEntry::encode).collect();
        match self
            .shared
            .backplane
            .log
            .append(&self.id, self.log_len, encoded)
            .await
        {
            Ok(len) => self.log_len = len,
            Err(e) => {
                if let LogError::Conflict { .. } = e {
                    tracing::error!("the log refused an append as stale: {e}");
                    self.stopping = true;
                }
                return Err((ErrorCode::InternalError, format!("not saved: {e}")));
            }
        }
        for entry in &entries {
            if let Err(e) = self.state.apply(entry) {
                tracing::error!("a logged entry does not fold: {e}");
                self.stopping = true;
            }
            if let TournamentEntry::MatchFinished { round, table, .. }
            | TournamentEntry::MatchAwarded { round, table, .. } = entry
            {
                self.forget_going(*round, table);
            }
        }
        self.embargo_boards();
        *self.summary.lock().unwrap_or_else(|e| e.into_inner()) = summary_of(&self.state);
        self.count_in_play(true);
        Ok(())
    }

    /// Keeps the duplicate boards not yet finished at every table out of every hand-record
    /// route, and lets out those that are.
    fn embargo_boards(&self) {
        for round in &self.state.rounds {
            if let Some(boards) = &round.boards {
                for (k, seed) in boards.seeds.iter().enumerate() {
                    let revealed = round.board_revealed(k as u32 + 1);
                    self.shared.tournaments.set_embargo(seed, !revealed);
                }
            }
        }
    }

    /// The tournament changed: every registered player is told at the next tick (changes in
    /// between are told once: a list of a thousand filling up is not a thousand broadcasts).
    fn broadcast_update(&mut self) {
        self.update_due = true;
    }

    /// Tells every registered player where the tournament stands (and their table), and a
    /// 1.2 connection what else it shows (`tournament_status`). The standings are computed
    /// once, and the players told the same thing (all but those seated in the round in play)
    /// share one frame, encoded once.
    fn flush_update(&mut self) {
        if !std::mem::take(&mut self.update_due) {
            return;
        }
        let started = std::time::Instant::now();
        let now_ms = crate::unix_ms();
        let state = &self.state;
        let standings = self.standings_now();
        let seats = record::seats_in_play(state);
        let unseated = Frame::new(record::update(state, standings.clone(), None));
        for entrant in &state.entrants {
            if entrant.unregistered || entrant.server_bot {
                continue;
            }
            let status = Frame::new(record::status_for(state, entrant, now_ms));
            for p in &entrant.players {
                let update = match seats.get(p.player.as_str()) {
                    Some(&seat) => Frame::new(record::update(state, standings.clone(), Some(seat))),
                    None => unseated.clone(),
                };
                self.shared.tournaments.tell_frame(&p.player, &update);
                self.shared.tournaments.tell_frame(&p.player, &status);
            }
        }
        self.tell_watchers(&unseated);
        telemetry::record_since(telemetry::UPDATE, started);
    }

    /// The standings after the last complete round, as the updates carry them.
    fn standings_now(&self) -> Vec<WireStanding> {
        let state = &self.state;
        record::wire_standings(state, &state.standings_after(state.complete_rounds()))
    }

    /// The update a player with no seat in the round in play hears.
    fn unseated_update(&self) -> ServerMessage {
        record::update(&self.state, self.standings_now(), None)
    }
}
