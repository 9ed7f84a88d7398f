//! Questions about a tournament folded so far that are not its standings: who is in, where a
//! player sits, the clock and its pauses, whether the list is open, its status.

use burraco_protocol::tournament_log::{EntrantPlayer, RoundTable};
use burraco_protocol::tournament_record::TournamentStatus;

use super::{Entrant, Late, Round, TournamentState};

impl TournamentState {
    /// The points late arrivals moved at a table, by side (index 0 North-South).
    pub fn late_points(&self, round: u32, table: &RoundTable) -> [i32; 2] {
        let mut points = [0, 0];
        let sides = self.settings.kind.sides(table);
        // The last step of each late entrant holds its total.
        let mut last: Vec<&Late> = Vec::new();
        for l in self
            .late
            .iter()
            .filter(|l| l.round == round && l.table == table.table)
        {
            last.retain(|k| k.entrant != l.entrant);
            last.push(l);
        }
        for l in last {
            if let Some(late_side) = sides.iter().position(|s| s.contains(&l.entrant)) {
                points[1 - late_side] += l.points;
            }
        }
        points
    }

    /// A round's clock: the director's round time, else the preset's (none with `fedibur`).
    pub fn round_clock_ms(&self) -> Option<u64> {
        self.round_secs
            .map(|s| u64::from(s) * 1000)
            .or_else(|| self.settings.table.round_clock_ms())
    }

    /// Milliseconds the tournament was paused between `from` and `to`.
    pub fn paused_between(&self, from: i64, to: i64) -> i64 {
        self.pauses
            .iter()
            .map(|&(start, end)| {
                let end = end.unwrap_or(to).min(to);
                (end - start.max(from)).max(0)
            })
            .sum()
    }

    /// Whether two entrants may not meet in a round paired by standing.
    pub fn forbids(&self, a: u32, b: u32) -> bool {
        self.forbidden
            .iter()
            .any(|&[x, y]| (x == a && y == b) || (x == b && y == a))
    }

    /// Whether the entry list takes registrations at `now_ms`.
    pub fn registration_open(&self, now_ms: i64) -> bool {
        let r = &self.registration;
        !self.started()
            && !self.finished
            && r.open
            && r.closes_ms.is_none_or(|t| now_ms < t)
            && r.starts_ms.is_none_or(|t| now_ms < t)
    }

    pub fn started(&self) -> bool {
        !self.rounds.is_empty()
    }

    /// The round being played, if one is.
    pub fn round_in_play(&self) -> Option<&Round> {
        self.rounds.last().filter(|r| !r.is_complete())
    }

    /// The player of `entrant` at place `index` of a table of `round` (`Kind::places`): for a
    /// team, through the line-up in force when the round started.
    pub fn player_at(&self, round: &Round, entrant: u32, index: usize) -> Option<&EntrantPlayer> {
        let index = round
            .lineups
            .iter()
            .find(|(e, _)| *e == entrant)
            .and_then(|(_, order)| order.get(index))
            .map_or(index, |&i| usize::from(i));
        self.entrants.get(entrant as usize)?.players.get(index)
    }

    /// Entrants with all their players, still registered and not withdrawn, in registration order.
    pub fn active(&self) -> Vec<u32> {
        self.entrants
            .iter()
            .filter(|e| {
                !e.unregistered
                    && !e.no_show
                    && !e.gone()
                    && e.players.len() == self.settings.kind.players()
            })
            .map(|e| e.id)
            .collect()
    }

    /// Entrants in the standings: every one that played or was paired, or is active.
    pub(super) fn ranked(&self) -> Vec<u32> {
        self.entrants
            .iter()
            .filter(|e| {
                !e.unregistered
                    && !e.no_show
                    && !e.gone_before_the_start()
                    && e.players.len() == self.settings.kind.players()
            })
            .map(|e| e.id)
            .collect()
    }

    /// Entrants a fixed schedule (Mitchell, round robin) still places: the active ones and
    /// those gone since the start, whose later opponents get the bye score (art. 36).
    pub fn scheduled(&self) -> Vec<u32> {
        if !self.started() {
            return self.active();
        }
        let active = self.active();
        self.ranked()
            .into_iter()
            .filter(|e| active.contains(e) || self.entrants[*e as usize].gone())
            .collect()
    }

    pub fn entrant_of(&self, player: &str) -> Option<&Entrant> {
        self.entrants
            .iter()
            .find(|e| !e.unregistered && e.players.iter().any(|p| p.player == player))
    }

    pub fn status(&self) -> TournamentStatus {
        if self.finished {
            TournamentStatus::Finished
        } else if self.started() {
            TournamentStatus::Playing
        } else {
            TournamentStatus::Registering
        }
    }
}
