//! A round's life on the actor: planned ([`super::plan`]) and logged with its tables' ids before
//! any table exists, then its tables created with the entrants' seats held and the players told
//! where to go. While it is in play the tables' logs are read as they finish; when the last one
//! has, the standings are told and the next round starts (or the tournament finishes).

use burraco_protocol::tournament_log::{RoundBoards, RoundTable, TournamentEntry};
use burraco_protocol::wire::{ServerMessage, WireSeat};

use super::plan::{self, plan_round};
use super::state;
use super::{Refusal, TournamentActor, scoring};
use crate::outbound::Frame;
use crate::table::{self, HeldSeat};

/// How often (in polls of [`super::POLL`], 200 ms) a tournament reads the logs of its round's
/// tables that did not tell it they ended: every 10 s, a backstop for a notice lost with a node.
const LOOK_AT_ALL_EVERY: u64 = 50;

impl TournamentActor {
    /// Pairs and starts the next round: logged first (with its tables' ids), then the tables are
    /// created and the players told.
    pub(super) async fn start_round(&mut self) -> Result<(), Refusal> {
        let started = std::time::Instant::now();
        plan::may_start(&self.state).map_err(plan::PlanError::refusal)?;
        // With check-in, the entrants not checked in when the first round starts are no-shows.
        if !self.state.started() && self.state.registration.check_in {
            let absent: Vec<u32> = self
                .state
                .active()
                .into_iter()
                .filter(|&e| !self.state.entrants[e as usize].checked_in)
                .collect();
            if !absent.is_empty() {
                self.log(vec![TournamentEntry::NoShows {
                    entrants: absent,
                    at_ms: crate::ids::unix_ms(),
                }])
                .await?;
            }
        }
        let plan = plan_round(&self.state, || crate::ids::random_id("t", 5))
            .map_err(plan::PlanError::refusal)?;
        // Duplicate boards: drawn now, logged (secret) with the round, dealt at every table.
        let boards = self.state.settings.duplicate.then(|| {
            let seats = self.state.settings.players().seats();
            let first = seats[usize::from(crate::ids::random_bytes::<1>()[0]) % seats.len()];
            RoundBoards {
                seeds: (0..self.state.settings.hands)
                    .map(|_| crate::ids::random_bytes::<32>())
                    .collect(),
                first_dealer: first.index() as u8,
            }
        });
        self.log(plan.into_entries(boards, crate::ids::unix_ms()))
            .await?;
        if self.state.round_in_play().is_none() {
            self.advance = true;
        }
        self.create_missing_tables().await;
        self.list_tables().await;
        self.send_players_to_tables();
        self.broadcast_update();
        super::telemetry::record_since(super::telemetry::ROUND_START, started);
        Ok(())
    }

    /// The round's new tables are written to the lobby now, so the nodes where the players are
    /// connected know them when the players come.
    pub(super) async fn list_tables(&self) {
        self.shared.backplane.listings.flush().await;
    }

    /// The seats a table of `round` holds, by entrant.
    pub(super) fn held_seats(&self, round: &state::Round, table: &RoundTable) -> Vec<HeldSeat> {
        self.state
            .settings
            .kind
            .places(table)
            .into_iter()
            .filter_map(|(id, index, seat, _)| {
                let entrant = self.state.entrants.get(id as usize)?;
                let player = self.state.player_at(round, id, index)?;
                Some(HeldSeat {
                    seat,
                    player: player.player.clone(),
                    name: player.name.clone(),
                    bot: entrant.server_bot.then_some(burraco_bot::Level::Expert),
                    account: None,
                })
            })
            .collect()
    }

    /// Creates the tables of the round in play that have no log yet (all of them at the round's
    /// start; after a restart, those the crash left uncreated). A table that has a log is
    /// restored (or finished) by the server like any other.
    ///
    /// A table that could not be created (the log unreachable; in a cluster, the table's lease
    /// still held by a node that died creating it) is tried again at the next ticks
    /// (`tables_missing`), and its players are told once it is.
    pub(super) async fn create_missing_tables(&mut self) {
        self.tables_missing = false;
        let Some(round) = self.state.round_in_play().cloned() else {
            return;
        };
        let config = self.state.settings.table;
        let boards = round.boards.as_ref().and_then(|b| {
            Some(table::Boards {
                seeds: b.seeds.clone(),
                first_dealer: burraco_protocol::log::seat_of(b.first_dealer).ok()?,
            })
        });
        let unscored: Vec<&RoundTable> = round
            .tables
            .iter()
            .zip(&round.results)
            .filter(|(_, result)| result.is_none())
            .map(|(table, _)| table)
            .collect();
        let ids: Vec<String> = unscored.iter().map(|table| table.table.clone()).collect();
        let logs = match self.shared.backplane.log.load_many(&ids).await {
            Ok(logs) => logs,
            Err(e) => {
                tracing::error!(tournament = %self.id, "cannot read the round's table logs: {e}");
                self.tables_missing = true;
                return;
            }
        };
        for (table, entries) in unscored.into_iter().zip(logs) {
            if !entries.is_empty() {
                continue;
            }
            let held = self.held_seats(&round, table);
            if let Err(e) = table::create_held(
                &self.shared,
                &self.id,
                table.table.clone(),
                config,
                held,
                table::HeldExtras {
                    boards: boards.clone(),
                    round_clock_ms: self.state.round_secs.map(|s| u64::from(s) * 1000),
                    start_by_ms: None,
                },
                self.state.rated,
            )
            .await
            {
                tracing::warn!(table = %table.table, "cannot create the round's table yet: {e}");
                self.tables_missing = true;
            }
        }
    }

    /// Tells each player of the round in play their table and seat.
    pub(super) fn send_players_to_tables(&self) {
        let Some(round) = self.state.round_in_play() else {
            return;
        };
        for (table, result) in round.tables.iter().zip(&round.results) {
            if result.is_some() {
                continue;
            }
            // A server bot's seat is played by the table itself: nobody to tell.
            for held in self
                .held_seats(round, table)
                .into_iter()
                .filter(|h| h.bot.is_none())
            {
                let go = Frame::new(ServerMessage::GoToTable {
                    tournament: self.id.to_string(),
                    round: round.number,
                    table: table.table.clone(),
                    seat: WireSeat(held.seat),
                });
                self.shared.tournaments.send_to_table(&held.player, &go);
            }
        }
    }

    /// Reads the logs of the round's tables that told the tournament they ended (a table's end
    /// is in its log before it tells), and, every [`LOOK_AT_ALL_EVERY`] polls and at the first
    /// after a start, of every table not seen playing here (a notice lost with a node, or sent
    /// while the tournament was being taken over); logs their results; at the round's end tells
    /// the standings and goes on.
    pub(super) async fn poll_tables(&mut self) {
        let Some(round) = self.state.round_in_play().cloned() else {
            return;
        };
        let look_at_all = self.polls.is_multiple_of(LOOK_AT_ALL_EVERY);
        self.polls += 1;
        if self.ended.is_empty() && !look_at_all {
            return;
        }
        let ended: Vec<&RoundTable> = round
            .tables
            .iter()
            .zip(&round.results)
            .filter(|(_, result)| result.is_none())
            .map(|(table, _)| table)
            .filter(|table| {
                self.ended.contains(&table.table)
                    || (look_at_all
                        && self
                            .shared
                            .directory
                            .table(&table.table)
                            .is_none_or(|handle| handle.info().finished))
            })
            .collect();
        if ended.is_empty() {
            return;
        }
        let started = std::time::Instant::now();
        // Their logs in one read: a round's tables' entries are interleaved in the log.
        let ids: Vec<String> = ended.iter().map(|table| table.table.clone()).collect();
        let Ok(logs) = self.shared.backplane.log.load_many(&ids).await else {
            return;
        };
        let mut finished = Vec::new();
        for (table, entries) in ended.into_iter().zip(logs) {
            if let Some(outcome) = scoring::outcome(&entries) {
                finished.push(TournamentEntry::MatchFinished {
                    round: round.number,
                    table: table.table.clone(),
                    result: self.with_late_points(round.number, table, outcome),
                });
            }
        }
        if finished.is_empty() {
            return;
        }
        if self.log(finished).await.is_err() {
            return;
        }
        // Scored, or of no round in play (a late notice): nothing more to read.
        let unscored: std::collections::HashSet<&str> = self
            .state
            .round_in_play()
            .map(|round| {
                round
                    .tables
                    .iter()
                    .zip(&round.results)
                    .filter(|(_, result)| result.is_none())
                    .map(|(table, _)| table.table.as_str())
                    .collect()
            })
            .unwrap_or_default();
        self.ended.retain(|table| unscored.contains(table.as_str()));
        super::telemetry::record_since(super::telemetry::RESULTS, started);
        if self.state.round_in_play().is_none() {
            // The next round starts at the next tick, unless the director paused.
            self.advance = true;
            self.broadcast_update();
        }
    }

    /// Every round logged is complete: the next starts, or the tournament finishes.
    pub(super) async fn round_over(&mut self) {
        let more = self.state.has_next_round();
        if more && !self.state.end_requested {
            if let Err((_, e)) = self.start_round().await {
                // Nobody is left to pair (withdrawals): the tournament ends here.
                tracing::warn!("the next round could not start: {e}; the tournament ends");
                let _ = self
                    .log(vec![
                        TournamentEntry::EndRequested,
                        TournamentEntry::Finished {
                            at_ms: crate::ids::unix_ms(),
                        },
                    ])
                    .await;
                self.broadcast_update();
            }
        } else {
            let _ = self
                .log(vec![TournamentEntry::Finished {
                    at_ms: crate::ids::unix_ms(),
                }])
                .await;
            self.broadcast_update();
        }
    }
}
