//! What runs a tournament between requests, on its clock (RULES.md section 11): a scheduled
//! start, a Sit&Go's server bots after its wait, late arrivals at a round's tables (a warning,
//! points to the present side, then the match lost), a match abandoned by an entrant leaving,
//! and the next round once the last one is over (unless the director paused).
//!
//! Time comes in as `now_ms`; the late-arrival minute is the server's `tournament_minute` (a
//! real minute; tests shrink it).

use std::time::Duration;

use burraco_protocol::tournament_log::{MatchOutcome, RoundTable, TournamentEntry};
use burraco_rules::tournament::{
    LateArrival, MatchScore, abandonment, force_majeure_leaver_score, late_arrival,
};

use super::TournamentActor;
use super::scoring;
use crate::table::Command as TableCommand;

impl TournamentActor {
    /// One look at the clock: called every poll.
    pub(super) async fn tick(&mut self, now_ms: i64) {
        if self.state.finished || self.stopping {
            return;
        }
        if !self.state.started() {
            self.fill_with_bots(now_ms).await;
            self.start_if_full().await;
            self.start_if_scheduled(now_ms).await;
            return;
        }
        if self.state.round_in_play().is_some() {
            if self.tables_missing && self.polls.is_multiple_of(5) {
                self.create_missing_tables().await;
                if !self.tables_missing {
                    self.list_tables().await;
                    self.send_players_to_tables();
                }
            }
            self.reveal_boards(now_ms).await;
            self.poll_tables().await;
            if !self.state.paused {
                self.late_arrivals(now_ms).await;
            }
        }
        if self.advance && !self.state.paused && self.state.round_in_play().is_none() {
            self.advance = false;
            self.round_over().await;
        }
    }

    /// A duplicate board every table of the round has finished is revealed (the bridge code:
    /// not before). A table whose match is over, or was scored without play, has finished
    /// every board it will play; one this node does not serve counts as having finished none.
    async fn reveal_boards(&mut self, now_ms: i64) {
        let Some(round) = self.state.round_in_play() else {
            return;
        };
        let Some(boards) = &round.boards else {
            return;
        };
        let all = boards.seeds.len() as u32;
        let finished = round
            .tables
            .iter()
            .zip(&round.results)
            .map(|(table, result)| {
                if result.is_some() {
                    return all;
                }
                self.shared
                    .directory
                    .table(&table.table)
                    .map_or(0, |h| h.info().hands_finished)
            })
            .min()
            .unwrap_or(0)
            .min(all);
        if finished > round.revealed {
            let entry = TournamentEntry::BoardsRevealed {
                round: round.number,
                hand: finished,
                at_ms: now_ms,
            };
            let _ = self.log(vec![entry]).await;
        }
    }

    /// A scheduled event starts at its time (the director may still start it earlier).
    async fn start_if_scheduled(&mut self, now_ms: i64) {
        let due = self
            .state
            .registration
            .starts_ms
            .is_some_and(|t| now_ms >= t);
        if due
            && !self.state.paused
            && !self.state.end_requested
            && let Err((_, e)) = self.start_round().await
        {
            // Too few entrants came: the event is called off rather than tried every poll.
            tracing::warn!("the scheduled start failed: {e}; the tournament ends");
            let _ = self
                .log(vec![
                    TournamentEntry::EndRequested,
                    TournamentEntry::Finished { at_ms: now_ms },
                ])
                .await;
            self.broadcast_update();
        }
    }

    /// A Sit&Go whose wait is over fills its free places with server bots.
    async fn fill_with_bots(&mut self, now_ms: i64) {
        let settings = &self.state.settings;
        let (Some(max), Some(wait), Some(first)) = (
            settings.max_entrants,
            self.state.registration.bots_after_secs,
            self.state.first_registration_ms,
        ) else {
            return;
        };
        // A rated tournament's tables seat accounts only: no server bots.
        if !settings.start_when_full
            || self.state.paused
            || self.state.rated
            || now_ms < first + i64::from(wait) * 1000
        {
            return;
        }
        // Places held by incomplete entrants (a pair waiting for its partner) stay theirs.
        let taken = self
            .state
            .entrants
            .iter()
            .filter(|e| !e.unregistered && !e.gone())
            .count() as u32;
        let count = max.saturating_sub(taken);
        if count == 0 {
            return;
        }
        let first = self.state.entrants.len() as u32;
        if self
            .log(vec![TournamentEntry::ServerBots {
                first,
                count,
                at_ms: now_ms,
            }])
            .await
            .is_ok()
        {
            self.broadcast_update();
        }
    }

    /// FITAB art. 37 (FE.BUR.IT art. 26): an entrant not at its table after the round started
    /// gets a warning, the present side points, and past 10 minutes the match is lost. The
    /// pause holds this clock.
    async fn late_arrivals(&mut self, now_ms: i64) {
        let Some(round) = self.state.round_in_play().cloned() else {
            return;
        };
        let minute = self.shared.config.tournament_minute.as_millis().max(1) as i64;
        // Counted from the round's start, or from this actor's start after a restart: time the
        // server was down is nobody's lateness.
        let from = round.started_ms.max(self.started_ms);
        let waited = now_ms - from - self.state.paused_between(from, now_ms);
        // The codes' minutes, on the tournament's clock.
        let delay = Duration::from_millis((waited.max(0) * 60_000 / minute) as u64);
        let format = self.state.settings.format();
        let mut entries = Vec::new();
        let mut close = Vec::new();
        for (table, result) in round.tables.iter().zip(&round.results) {
            if result.is_some() {
                continue;
            }
            let Some(handle) = self.shared.directory.table(&table.table) else {
                continue;
            };
            let info = handle.info();
            if !info.waiting || info.absent.is_empty() {
                continue;
            }
            let places = self.state.settings.kind.places(table);
            let mut late: Vec<(u32, usize)> = places
                .iter()
                .filter(|(_, _, seat, _)| info.absent.contains(seat))
                .map(|&(entrant, _, _, side)| (entrant, side))
                .collect();
            late.dedup();
            match late_arrival(format, delay) {
                LateArrival::OnTime => {}
                LateArrival::Penalised {
                    present_points,
                    late_points,
                    ..
                } => {
                    // The margin the late side gives away, added to the present side's total.
                    let points = present_points - late_points;
                    let minutes = (delay.as_secs() / 60) as u32;
                    for &(entrant, _) in &late {
                        let logged = self
                            .state
                            .late
                            .iter()
                            .rev()
                            .find(|l| {
                                l.round == round.number
                                    && l.table == table.table
                                    && l.entrant == entrant
                            })
                            .map(|l| l.points);
                        // Only ever more (a restart's fresh count never lowers a step).
                        if logged.is_none_or(|p| points > p) {
                            entries.push(TournamentEntry::LateArrival {
                                round: round.number,
                                table: table.table.clone(),
                                entrant,
                                minutes,
                                points,
                                at_ms: now_ms,
                            });
                        }
                    }
                }
                LateArrival::Forfeit {
                    present,
                    late: lost,
                } => {
                    let late_sides: Vec<usize> = late.iter().map(|&(_, side)| side).collect();
                    let result = forfeit(&late_sides, present, lost);
                    entries.push(TournamentEntry::MatchAwarded {
                        round: round.number,
                        table: table.table.clone(),
                        result,
                        reason: scoring::Award::LateArrival.code().into(),
                        at_ms: now_ms,
                    });
                    close.push(table.table.clone());
                }
            }
        }
        if entries.is_empty() || self.log(entries).await.is_err() {
            return;
        }
        for table in close {
            self.close_table(&table).await;
        }
        self.broadcast_update();
        if self.state.round_in_play().is_none() {
            self.advance = true;
        }
    }

    /// The tables in play of the match entrant `entrant` leaves (a team's two), each scored by
    /// the abandonment rule from the hands it finished (art. 36), as (round, table, result).
    pub(super) async fn abandoned_matches(
        &self,
        entrant: u32,
        force_majeure: bool,
    ) -> Vec<(u32, String, MatchOutcome)> {
        let Some(round) = self.state.round_in_play() else {
            return Vec::new();
        };
        let kind = self.state.settings.kind;
        let mut scored = Vec::new();
        for (table, _) in round
            .tables
            .iter()
            .zip(&round.results)
            .filter(|(_, r)| r.is_none())
            .filter(|(t, _)| kind.sides(t).iter().any(|s| s.contains(&entrant)))
        {
            scored.push(
                self.abandoned_table(round.number, table, entrant, force_majeure)
                    .await,
            );
        }
        scored
    }

    async fn abandoned_table(
        &self,
        round: u32,
        table: &RoundTable,
        entrant: u32,
        force_majeure: bool,
    ) -> (u32, String, MatchOutcome) {
        let kind = self.state.settings.kind;
        let leaver = usize::from(!kind.sides(table)[0].contains(&entrant));
        let entries = self
            .shared
            .backplane
            .log
            .load(&table.table)
            .await
            .unwrap_or_default();
        let partial = scoring::so_far(&entries);
        let totals: [i32; 2] = partial
            .hand_totals
            .iter()
            .fold([0, 0], |acc, h| [acc[0] + h[0], acc[1] + h[1]]);
        let innocent = 1 - leaver;
        let format = self.state.settings.format();
        let mut scored = abandonment(format, totals[innocent] - totals[leaver]);
        // FITAB art. 36: a side that cannot go on for force majeure gets 6 VP (8 in 4-hand
        // matches) instead of 0; the other codes give it nothing more.
        if force_majeure && let Some(excused) = force_majeure_leaver_score(format) {
            scored.leaver = excused;
        }
        let mut out = [false, false];
        out[leaver] = true;
        // The hands finished before the interruption stay in the record.
        let result = MatchOutcome {
            burraco: partial.burraco,
            hands: partial.hands,
            hand_totals: partial.hand_totals,
            ..scoring::awarded(out, scored.innocent, scored.leaver)
        };
        (round, table.table.clone(), result)
    }

    /// Closes a round's table whose match the tournament scored without it (in cluster mode,
    /// wherever it is served).
    pub(super) async fn close_table(&self, table: &str) {
        if let Some(handle) = crate::lobby::find(&self.shared, table).await {
            handle.send(TableCommand::Close).await;
        }
    }

    /// Tells every table of the round in play that the director paused play (`paused`) or
    /// resumed it at `at_ms`, wherever each is served: each logs it and holds or restarts its
    /// clocks (a table that finished, or already knows, changes nothing).
    pub(super) async fn pause_tables(&self, paused: bool, at_ms: i64) {
        let Some(round) = self.state.round_in_play() else {
            return;
        };
        let tables: Vec<String> = round.tables.iter().map(|t| t.table.clone()).collect();
        for table in tables {
            if let Some(handle) = crate::lobby::find(&self.shared, &table).await {
                handle
                    .send(TableCommand::TournamentPause { paused, at_ms })
                    .await;
            }
        }
    }

    /// The tables told the pause as the log holds it (after a restart: a notice the crash may
    /// have cut short is sent again; the tables ignore what they know).
    pub(super) async fn pause_tables_as_logged(&self) {
        match self.state.pauses.last() {
            Some(&(from, None)) => self.pause_tables(true, from).await,
            Some(&(_, Some(to))) => self.pause_tables(false, to).await,
            None => {}
        }
    }

    /// A played match's outcome with the late-arrival points of its table added to the present
    /// side's total, and its VP taken again from the preset's table for the new margin.
    pub(super) fn with_late_points(
        &self,
        round: u32,
        table: &RoundTable,
        mut outcome: MatchOutcome,
    ) -> MatchOutcome {
        let points = self.state.late_points(round, table);
        if points == [0, 0] || !outcome.played {
            return outcome;
        }
        outcome.totals[0] += points[0];
        outcome.totals[1] += points[1];
        let vp_table = self.state.settings.format().vp_table();
        for side in 0..2 {
            let margin = outcome.totals[side] - outcome.totals[1 - side];
            outcome.vp[side] = MatchScore::from_margin(vp_table, margin).vp;
        }
        outcome
    }
}

/// A match lost by late arrival: the present side's score and the late side's (both late: both
/// get the late score). MP are the margin: the present side's total holds it.
fn forfeit(late_sides: &[usize], present: MatchScore, late: MatchScore) -> MatchOutcome {
    let out = [late_sides.contains(&0), late_sides.contains(&1)];
    scoring::awarded(out, present, late)
}
