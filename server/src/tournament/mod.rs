//! Tournaments (RULES.md section 11): one actor per tournament, with its own durable log, like a
//! table. The private [`TournamentActor`] owns the tournament's state (the fold of its log,
//! [`state`]) and the writing of its log; a cloneable [`TournamentHandle`] sends it [`Command`]s
//! over a bounded queue. Each concern is a child module:
//!
//! - [`settings`]: the settings checked (kinds, movements, the tables' rules);
//! - [`state`]: the fold of the log (live, restart and record alike), standings;
//! - [`registration`]: entering and leaving the list, check-in;
//! - [`director_request`]: a director's request parsed from its message, with its typed error;
//! - [`director`]: the director's requests carried out, and an entrant leaving after the start;
//! - [`conduct`]: what runs on the clock (a scheduled start, a Sit&Go's bots, late arrivals,
//!   boards revealed, the next round);
//! - [`pairing`]: who meets whom in the next round, by its movement (pure);
//! - [`plan`]: the next round's plan, its tables named (pure: `plan_round`);
//! - [`rounds`]: a round's life on the actor: logging its plan, creating its tables with the
//!   seats held, noticing each table's end;
//! - [`scoring`]: a table's match read from the table's own log;
//! - [`record`]: the tournament record (`GET /api/tournaments/{id}`) and the wire standings;
//! - [`updates`]: what a player hears when the tournament changes;
//! - [`http`]: `GET /api/tournaments` and `/api/tournaments/{id}`;
//! - [`restore`]: rebuilding after a restart; [`requests`]: a connection's tournament requests;
//! - [`watch`]: players who are no entrants hearing the updates (`watch_tournament`).
//!
//! The log lives behind the tables' [`crate::log::TableLog`] under an id starting with `T-`
//! (see `burraco_protocol::tournament_log`). A tournament never touches a table's state: it
//! creates tables, reads their logs to learn how their matches ended, and at most closes one
//! whose match it scored without it.

mod chat;
mod conduct;
mod director;
pub mod director_request;
mod handle;
pub mod http;
mod pairing;
mod plan;
pub mod record;
mod registration;
mod registry;
pub mod requests;
pub mod restore;
mod rounds;
pub mod scoring;
pub mod settings;
pub mod state;
pub mod telemetry;
#[cfg(test)]
mod testing;
mod updates;
mod watch;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use burraco_protocol::ErrorCode;
use burraco_protocol::tournament_log::{TOURNAMENT_PREFIX, TournamentEntry};
use burraco_protocol::wire::{ServerMessage, WireStanding, WireTournamentSettings};
use tokio::sync::mpsc;
use tracing::Instrument;

use crate::Shared;
use crate::log::LogError;
use crate::outbound::Frame;
pub use director_request::DirectorAction;
pub use handle::{Command, PlayerRequest, TournamentHandle};
pub use registry::Tournaments;
use settings::Settings;
use state::TournamentState;

/// How often a tournament with a round in play looks at its tables.
const POLL: Duration = Duration::from_millis(200);

/// A refusal: (code, message).
pub type Refusal = (ErrorCode, String);

/// What the list shows of a tournament, kept current by its actor.
pub use crate::backplane::TournamentSummary as Summary;

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
    /// Tables of the round in play that told the tournament they ended, not scored yet.
    ended: std::collections::HashSet<String>,
    /// A table of the round in play could not be created yet: tried again (once a second).
    tables_missing: bool,
    /// Players who are told the updates without being entrants.
    watchers: watch::Watchers,
    /// Counted in `burraco_tournaments` (running, not finished).
    counted_in_play: bool,
    /// The chat's recent lines (1.7; not logged: `chat.rs`).
    chat_lines: chat::ChatLines,
}

/// Creates a tournament: logs it, registers it and starts its actor; returns its id and the
/// director token (its hash only is logged).
/// `director_account`: the signed-in account that created it, which directs it without the token
/// (protocol 1.6).
pub async fn create(
    shared: &Arc<Shared>,
    wire: &WireTournamentSettings,
    director_account: Option<&str>,
) -> Result<(String, String), Refusal> {
    create_rated(shared, wire, false, director_account).await
}

/// [`create`], rated or not (protocol 1.6's `create_rated_tournament`: its tables are rated).
pub async fn create_rated(
    shared: &Arc<Shared>,
    wire: &WireTournamentSettings,
    rated: bool,
    director_account: Option<&str>,
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
        burraco_protocol::cards::to_hex(&crate::ids::random_bytes::<5>())
    );
    let token = crate::ids::random_id("", 16);
    let seed = u64::from_le_bytes(crate::ids::random_bytes::<8>());
    let created = TournamentEntry::Created {
        settings: serde_json::to_string(wire).expect("settings serialize"),
        created_ms: crate::ids::unix_ms(),
        director_hash: token_hash(&token),
        seed,
    };
    let mut state = TournamentState::created(id.clone(), &created)
        .map_err(|e| (ErrorCode::InvalidSettings, e.to_string()))?;
    let mut first = vec![created.encode()];
    if rated {
        state
            .apply(&TournamentEntry::Rated)
            .map_err(|e| (ErrorCode::InternalError, e.to_string()))?;
        first.push(TournamentEntry::Rated.encode());
    }
    if let Some(account) = director_account {
        let entry = TournamentEntry::DirectorAccount {
            account: account.to_owned(),
        };
        state
            .apply(&entry)
            .map_err(|e| (ErrorCode::InternalError, e.to_string()))?;
        first.push(entry.encode());
    }
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
        .append(&id, 0, first)
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
    shared.tournaments.register(handle.clone());
    let mut actor = TournamentActor {
        id,
        shared: shared.clone(),
        rx,
        state,
        log_len,
        summary,
        stopping: false,
        advance: false,
        started_ms: crate::ids::unix_ms(),
        update_due: false,
        listed: None,
        polls: 0,
        ended: std::collections::HashSet::new(),
        tables_missing: false,
        watchers: watch::Watchers::default(),
        counted_in_play: false,
        chat_lines: chat::ChatLines::default(),
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
        status: state.status().code(),
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
                    self.tick(crate::ids::unix_ms()).await;
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
                account,
                reply,
            } => {
                // The reply first, then what everyone registered hears (the registrant too).
                let answer = self
                    .register(player, partner_code, bot, invite, account)
                    .await;
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
                let answer = if !self.is_director(&token) {
                    Err((
                        ErrorCode::NotDirector,
                        "that is not this tournament's director token or account".into(),
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
            // Scored at the next tick, with any other that ended meanwhile (one read).
            Command::TableEnded { table } => {
                self.ended.insert(table);
            }
            Command::Chat {
                speaker,
                text,
                reply,
            } => {
                let _ = reply.send(self.chat(speaker, &text));
            }
            Command::ChatHistory { reply } => {
                let _ = reply.send(Ok(self.chat_lines.recent()));
            }
            Command::ReportLine {
                reporter,
                line,
                reply,
            } => {
                let _ = reply.send(self.reported_line(&reporter, line));
            }
        }
    }

    /// Whether a director request's token is this tournament's: its director token, or (written
    /// by the server for a signed-in connection, `director_request::with_account`) the account
    /// that created it.
    fn is_director(&self, token: &str) -> bool {
        match token.strip_prefix(director_request::ACCOUNT_TOKEN) {
            Some(account) => self.state.director_account.as_deref() == Some(account),
            None => token_hash(token) == self.state.director_hash,
        }
    }

    /// Appends entries durably, then folds them into the state: nothing is known before it is
    /// logged.
    async fn log(&mut self, entries: Vec<TournamentEntry>) -> Result<(), Refusal> {
        // The season's places before the end is logged: a restart finishes again, and the
        // award's key (the tournament) keeps it once (`seasons::tournament`).
        if let Some(at_ms) = entries.iter().find_map(|e| match e {
            TournamentEntry::Finished { at_ms } => Some(*at_ms),
            _ => None,
        }) && !self.state.finished
        {
            crate::seasons::tournament::award_places(
                &*self.shared.backplane.log,
                &*self.shared.seasons,
                &self.state,
                at_ms,
            )
            .await;
        }
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
        let now_ms = crate::ids::unix_ms();
        let state = &self.state;
        let standings = self.standings_now();
        let seats = updates::seats_in_play(state);
        let unseated = Frame::new(updates::update(state, standings.clone(), None));
        for entrant in &state.entrants {
            if entrant.unregistered || entrant.server_bot {
                continue;
            }
            let status = Frame::new(updates::status_for(state, entrant, now_ms));
            for p in &entrant.players {
                let update = match seats.get(p.player.as_str()) {
                    Some(&seat) => {
                        Frame::new(updates::update(state, standings.clone(), Some(seat)))
                    }
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
        updates::update(&self.state, self.standings_now(), None)
    }
}
