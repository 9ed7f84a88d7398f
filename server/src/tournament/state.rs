//! A tournament as the fold of its log: the one place an entry changes the tournament, used live
//! (after the entry is durable), by a restart and by the record. No IO, no clock: what the
//! entries say and nothing else.

use burraco_protocol::tournament_log::{
    EntrantPlayer, MatchOutcome, RoundBoards, RoundTable, TournamentEntry,
};
use burraco_protocol::wire::WireTournamentSettings;
use burraco_rules::tournament::{
    MatchFormat, MatchScore, Standing, bye_score, expelled_opponent_vp, standings,
};

use super::settings::{Kind, Movement, Settings};

#[derive(Debug, Clone)]
pub struct Entrant {
    pub id: u32,
    pub players: Vec<EntrantPlayer>,
    pub bot: bool,
    /// The partner's registration code, while the entrant lacks players.
    pub code: Option<String>,
    pub unregistered: bool,
    pub withdrawn: Option<String>,
    pub disqualified: Option<String>,
    /// Not checked in when the first round started.
    pub no_show: bool,
    pub checked_in: bool,
    /// Server bots play it (a Sit&Go's filled places).
    pub server_bot: bool,
    /// A team's line-up for the next round (`set_lineup`): its players by index, the first two
    /// its first pair; `None`: registration order.
    pub lineup: Option<[u8; 4]>,
}

impl Entrant {
    /// Left the event after it started (withdrawn or expelled): later opponents by a fixed
    /// schedule get the bye score.
    pub fn gone(&self) -> bool {
        self.withdrawn.is_some() || self.disqualified.is_some()
    }
}

/// How the entry list works (`configure_registration`; open to all by default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    pub open: bool,
    pub invite: Option<String>,
    pub closes_ms: Option<i64>,
    pub starts_ms: Option<i64>,
    pub check_in: bool,
    pub bots_after_secs: Option<u32>,
}

impl Default for Registration {
    fn default() -> Registration {
        Registration {
            open: true,
            invite: None,
            closes_ms: None,
            starts_ms: None,
            check_in: false,
            bots_after_secs: None,
        }
    }
}

/// A warning, counted in the standings after the rounds started when it was given.
#[derive(Debug, Clone)]
pub struct Warning {
    pub entrant: u32,
    pub reason: String,
    pub at_ms: i64,
    pub after_round: u32,
}

/// Points a late arrival moved (FITAB art. 37; FE.BUR.IT art. 26), by entrant at a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Late {
    pub round: u32,
    pub table: String,
    pub entrant: u32,
    pub minutes: u32,
    pub points: i32,
}

#[derive(Debug, Clone)]
pub struct Round {
    pub number: u32,
    pub movement: String,
    pub tables: Vec<RoundTable>,
    /// Aligned with `tables`.
    pub results: Vec<Option<MatchOutcome>>,
    pub bye: Option<u32>,
    /// A knock-out round's bracket (see `TournamentEntry::RoundStarted`); empty otherwise.
    pub bracket: Vec<Option<u32>>,
    /// Duplicate boards (secret until the round is complete).
    pub boards: Option<RoundBoards>,
    pub started_ms: i64,
    /// Aligned with `tables`: why a match was scored by the code, not played out.
    pub awarded: Vec<Option<String>>,
    /// Duplicate boards 1 to this one were finished at every table: revealed.
    pub revealed: u32,
    /// The teams' line-ups in force when the round started, for those that set one.
    pub lineups: Vec<(u32, [u8; 4])>,
}

impl Round {
    pub fn is_complete(&self) -> bool {
        self.results.iter().all(Option::is_some)
    }

    /// Whether duplicate board `hand` (from 1) is public: every table finished it, or the round
    /// is over.
    pub fn board_revealed(&self, hand: u32) -> bool {
        hand <= self.revealed || self.is_complete()
    }
}

#[derive(Debug, Clone)]
pub struct Adjustment {
    pub entrant: u32,
    pub vp: i32,
    pub reason: String,
    pub at_ms: i64,
    /// Rounds started when it was made: it counts in the standings after that round.
    pub after_round: u32,
}

/// Why an entry does not fit the tournament folded so far.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FoldError {
    #[error("the log does not start with the tournament's creation")]
    NotCreated,
    #[error("the settings: {0}")]
    Settings(String),
    #[error("entry names entrant {0}, unknown")]
    Entrant(u32),
    #[error("entry names round {0} or table {1:?}, unknown")]
    Table(u32, String),
}

#[derive(Debug, Clone)]
pub struct TournamentState {
    pub id: String,
    pub settings: Settings,
    pub created_ms: i64,
    pub director_hash: [u8; 32],
    pub seed: u64,
    pub entrants: Vec<Entrant>,
    pub rounds: Vec<Round>,
    pub adjustments: Vec<Adjustment>,
    pub end_requested: bool,
    pub finished: bool,
    pub registration: Registration,
    pub paused: bool,
    /// Pauses as (from, to) Unix ms; the last one open while paused.
    pub pauses: Vec<(i64, Option<i64>)>,
    pub warnings: Vec<Warning>,
    pub forbidden: Vec<[u32; 2]>,
    /// The director's first-round order.
    pub seating: Option<Vec<u32>>,
    pub late: Vec<Late>,
    pub first_registration_ms: Option<i64>,
    /// The director's round time in seconds (FEDIBUR's procedure); `None`: the preset's clock.
    pub round_secs: Option<u32>,
    /// Partner codes no longer waiting (their entrant complete, or gone from the list): a
    /// registration with one is told so, not that the code is unknown.
    pub spent_codes: Vec<String>,
}

impl TournamentState {
    /// The tournament as its first entry made it.
    pub fn created(id: String, first: &TournamentEntry) -> Result<TournamentState, FoldError> {
        let TournamentEntry::Created {
            settings,
            created_ms,
            director_hash,
            seed,
        } = first
        else {
            return Err(FoldError::NotCreated);
        };
        let wire: WireTournamentSettings =
            serde_json::from_str(settings).map_err(|e| FoldError::Settings(e.to_string()))?;
        let settings =
            Settings::from_wire(&wire).map_err(|e| FoldError::Settings(e.to_string()))?;
        Ok(TournamentState {
            id,
            settings,
            created_ms: *created_ms,
            director_hash: *director_hash,
            seed: *seed,
            entrants: Vec::new(),
            rounds: Vec::new(),
            adjustments: Vec::new(),
            end_requested: false,
            finished: false,
            registration: Registration::default(),
            paused: false,
            pauses: Vec::new(),
            warnings: Vec::new(),
            forbidden: Vec::new(),
            seating: None,
            spent_codes: Vec::new(),
            late: Vec::new(),
            first_registration_ms: None,
            round_secs: None,
        })
    }

    /// Folds a whole log.
    pub fn fold(id: String, entries: &[TournamentEntry]) -> Result<TournamentState, FoldError> {
        let (first, rest) = entries.split_first().ok_or(FoldError::NotCreated)?;
        let mut state = TournamentState::created(id, first)?;
        for entry in rest {
            state.apply(entry)?;
        }
        Ok(state)
    }

    /// The one place an entry changes the tournament.
    pub fn apply(&mut self, entry: &TournamentEntry) -> Result<(), FoldError> {
        match entry {
            TournamentEntry::Created { .. } => return Err(FoldError::NotCreated),
            TournamentEntry::Registered {
                entrant,
                player,
                bot,
                code,
                at_ms,
            } => {
                self.first_registration_ms.get_or_insert(*at_ms);
                if let Some(e) = self.entrants.get_mut(*entrant as usize) {
                    e.players.push(player.clone());
                    if e.players.len() >= self.settings.kind.players()
                        && let Some(code) = e.code.take()
                    {
                        self.spent_codes.push(code);
                    }
                } else if *entrant as usize == self.entrants.len() {
                    let complete = self.settings.kind.players() <= 1;
                    self.entrants.push(Entrant {
                        id: *entrant,
                        players: vec![player.clone()],
                        bot: *bot,
                        code: if complete { None } else { code.clone() },
                        unregistered: false,
                        withdrawn: None,
                        disqualified: None,
                        no_show: false,
                        checked_in: false,
                        server_bot: false,
                        lineup: None,
                    });
                } else {
                    return Err(FoldError::Entrant(*entrant));
                }
            }
            TournamentEntry::Unregistered { entrant, .. } => {
                let e = self.entrant_mut(*entrant)?;
                e.unregistered = true;
                if let Some(code) = e.code.take() {
                    self.spent_codes.push(code);
                }
            }
            TournamentEntry::RoundStarted {
                round,
                movement,
                tables,
                bye,
                bracket,
                boards,
                at_ms,
            } => self.rounds.push(Round {
                number: *round,
                movement: movement.clone(),
                tables: tables.clone(),
                results: vec![None; tables.len()],
                bye: *bye,
                bracket: bracket.clone(),
                boards: boards.clone(),
                started_ms: *at_ms,
                awarded: vec![None; tables.len()],
                lineups: self
                    .entrants
                    .iter()
                    .filter_map(|e| e.lineup.map(|l| (e.id, l)))
                    .collect(),
                revealed: 0,
            }),
            TournamentEntry::MatchFinished {
                round,
                table,
                result,
            } => {
                let (r, i) = self.table_mut(*round, table)?;
                r.results[i] = Some(result.clone());
            }
            TournamentEntry::MatchAwarded {
                round,
                table,
                result,
                reason,
                ..
            } => {
                let (r, i) = self.table_mut(*round, table)?;
                r.results[i] = Some(result.clone());
                r.awarded[i] = Some(reason.clone());
            }
            TournamentEntry::EndRequested => self.end_requested = true,
            TournamentEntry::Finished { .. } | TournamentEntry::Cancelled => self.finished = true,
            TournamentEntry::Adjustment {
                entrant,
                vp,
                reason,
                at_ms,
            } => {
                self.entrant_mut(*entrant)?;
                let after_round = self.rounds.len() as u32;
                self.adjustments.push(Adjustment {
                    entrant: *entrant,
                    vp: *vp,
                    reason: reason.clone(),
                    at_ms: *at_ms,
                    after_round,
                });
            }
            TournamentEntry::Withdrawn {
                entrant, reason, ..
            } => self.entrant_mut(*entrant)?.withdrawn = Some(reason.clone()),
            TournamentEntry::RegistrationConfigured {
                open,
                invite,
                closes_ms,
                starts_ms,
                check_in,
                bots_after_secs,
                ..
            } => {
                self.registration = Registration {
                    open: *open,
                    invite: invite.clone(),
                    closes_ms: *closes_ms,
                    starts_ms: *starts_ms,
                    check_in: *check_in,
                    bots_after_secs: *bots_after_secs,
                }
            }
            TournamentEntry::CheckedIn { entrant, .. } => {
                self.entrant_mut(*entrant)?.checked_in = true
            }
            TournamentEntry::Paused { at_ms } => {
                self.paused = true;
                self.pauses.push((*at_ms, None));
            }
            TournamentEntry::Resumed { at_ms } => {
                self.paused = false;
                if let Some((_, end)) = self.pauses.last_mut() {
                    end.get_or_insert(*at_ms);
                }
            }
            TournamentEntry::Warning {
                entrant,
                reason,
                at_ms,
            } => {
                self.entrant_mut(*entrant)?;
                self.warnings.push(Warning {
                    entrant: *entrant,
                    reason: reason.clone(),
                    at_ms: *at_ms,
                    after_round: self.rounds.len() as u32,
                });
            }
            TournamentEntry::Disqualified {
                entrant, reason, ..
            } => self.entrant_mut(*entrant)?.disqualified = Some(reason.clone()),
            TournamentEntry::Forbidden { entrants, .. } => {
                for e in entrants {
                    self.entrant_mut(*e)?;
                }
                self.forbidden.push(*entrants);
            }
            TournamentEntry::Seating { order, .. } => self.seating = Some(order.clone()),
            TournamentEntry::NoShows { entrants, .. } => {
                for e in entrants {
                    self.entrant_mut(*e)?.no_show = true;
                }
            }
            TournamentEntry::LateArrival {
                round,
                table,
                entrant,
                minutes,
                points,
                at_ms,
            } => {
                self.table_mut(*round, table)?;
                self.entrant_mut(*entrant)?;
                // A first late step is a warning to the late entrant (art. 37).
                if !self
                    .late
                    .iter()
                    .any(|l| l.round == *round && l.table == *table && l.entrant == *entrant)
                {
                    self.warnings.push(Warning {
                        entrant: *entrant,
                        reason: format!("late at table {table} in round {round}"),
                        at_ms: *at_ms,
                        after_round: self.rounds.len() as u32,
                    });
                }
                self.late.push(Late {
                    round: *round,
                    table: table.clone(),
                    entrant: *entrant,
                    minutes: *minutes,
                    points: *points,
                });
            }
            TournamentEntry::RoundTime { secs, .. } => self.round_secs = *secs,
            TournamentEntry::LineupSet { entrant, order, .. } => {
                self.entrant_mut(*entrant)?.lineup = Some(*order);
            }
            TournamentEntry::BoardsRevealed { round, hand, .. } => {
                let r = self
                    .rounds
                    .iter_mut()
                    .find(|r| r.number == *round)
                    .ok_or_else(|| FoldError::Table(*round, String::new()))?;
                r.revealed = r.revealed.max(*hand);
            }
            TournamentEntry::ServerBots {
                first,
                count,
                at_ms,
            } => {
                if *first as usize != self.entrants.len() {
                    return Err(FoldError::Entrant(*first));
                }
                self.first_registration_ms.get_or_insert(*at_ms);
                for id in *first..first + count {
                    let players = (0..self.settings.kind.players())
                        .map(|i| server_bot_player(&self.id, id, i))
                        .collect();
                    self.entrants.push(Entrant {
                        id,
                        players,
                        bot: true,
                        code: None,
                        unregistered: false,
                        withdrawn: None,
                        disqualified: None,
                        no_show: false,
                        checked_in: true,
                        server_bot: true,
                        lineup: None,
                    });
                }
            }
        }
        Ok(())
    }

    fn table_mut(&mut self, round: u32, table: &str) -> Result<(&mut Round, usize), FoldError> {
        let missing = || FoldError::Table(round, table.to_owned());
        let r = self
            .rounds
            .iter_mut()
            .find(|r| r.number == round)
            .ok_or_else(missing)?;
        let i = r
            .tables
            .iter()
            .position(|t| t.table == table)
            .ok_or_else(missing)?;
        Ok((r, i))
    }

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

    fn entrant_mut(&mut self, entrant: u32) -> Result<&mut Entrant, FoldError> {
        self.entrants
            .get_mut(entrant as usize)
            .ok_or(FoldError::Entrant(entrant))
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
    fn ranked(&self) -> Vec<u32> {
        self.entrants
            .iter()
            .filter(|e| {
                !e.unregistered && !e.no_show && e.players.len() == self.settings.kind.players()
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

    pub fn status(&self) -> &'static str {
        if self.finished {
            "finished"
        } else if self.started() {
            "playing"
        } else {
            "registering"
        }
    }

    /// The standings after the first `rounds` complete rounds (byes, adjustments and warnings
    /// made by then), best first: VP, then MP, then burraco bonus (RULES.md section 11). An
    /// expelled entrant's opponents get at least 12 VP from their match with it (FITAB art. 37
    /// bis), and it ranks last.
    pub fn standings_after(&self, rounds: usize) -> Vec<Standing> {
        let mut lines: Vec<Standing> = self
            .ranked()
            .into_iter()
            .map(|e| Standing::new(e as usize))
            .collect();
        let mut line = |entrant: u32| lines.iter().position(|s| s.entrant == entrant as usize);
        let expelled = |entrant: u32| {
            self.entrants
                .get(entrant as usize)
                .is_some_and(|e| e.disqualified.is_some())
        };
        let mut changes: Vec<(usize, MatchScore, i32, bool)> = Vec::new();
        for round in self.rounds.iter().take(rounds) {
            for (table, result) in self.scored_matches(round) {
                let result = &result;
                let sides = self.settings.kind.sides(&table);
                for (side, entrants) in sides.iter().enumerate() {
                    let mut score = score_of(result, side);
                    if sides[1 - side].iter().any(|&e| expelled(e)) {
                        score.vp = expelled_opponent_vp(score.vp);
                    }
                    for &entrant in entrants {
                        if let Some(i) = line(entrant) {
                            changes.push((i, score, result.burraco[side], false));
                        }
                    }
                }
            }
            if let Some(i) = round.bye.and_then(&mut line) {
                changes.push((i, bye_score(self.settings.format()), 0, true));
            }
        }
        let adjustments: Vec<(usize, i32)> = self
            .adjustments
            .iter()
            .filter(|a| a.after_round as usize <= rounds)
            .filter_map(|a| line(a.entrant).map(|i| (i, a.vp)))
            .collect();
        let mut warnings: Vec<(usize, u32)> = Vec::new();
        for w in self
            .warnings
            .iter()
            .filter(|w| w.after_round as usize <= rounds)
        {
            if let Some(i) = line(w.entrant) {
                match warnings.iter_mut().find(|(j, _)| *j == i) {
                    Some((_, n)) => *n += 1,
                    None => warnings.push((i, 1)),
                }
            }
        }
        for (i, score, burraco, bye) in changes {
            if bye {
                lines[i].add_bye(score);
            } else {
                lines[i].add_match(score, burraco);
            }
        }
        for (i, vp) in adjustments {
            lines[i].vp += vp;
        }
        for (i, n) in warnings {
            for _ in 0..n {
                lines[i].warn();
            }
        }
        let mut ranked = standings(self.settings.preset, &lines);
        // Expelled entrants last (in their order among themselves).
        ranked.sort_by_key(|s| expelled(s.entrant as u32));
        ranked
    }

    /// A round's matches that are over, as (table, outcome), North-South first. A teams event's
    /// match is its two tables together (the first's North-South team as side 0): each team's
    /// total its two tables' totals, VP from the teams column by the margin; a match with a
    /// table scored by the code (`awarded`) takes that table's score.
    pub fn scored_matches(&self, round: &Round) -> Vec<(RoundTable, MatchOutcome)> {
        let tables = round.tables.iter().zip(&round.results).zip(&round.awarded);
        if self.settings.kind != Kind::Teams {
            return tables
                .filter_map(|((t, r), _)| Some((t.clone(), r.clone()?)))
                .collect();
        }
        let all: Vec<_> = tables.collect();
        all.chunks(2)
            .filter_map(|two| {
                let [((first, Some(a)), a_awarded), ((_, Some(b)), b_awarded)] = two else {
                    return None;
                };
                let outcome = if a_awarded.is_some() {
                    a.clone()
                } else if b_awarded.is_some() {
                    // The second table seats the teams the other way round.
                    MatchOutcome {
                        totals: [b.totals[1], b.totals[0]],
                        vp: [b.vp[1], b.vp[0]],
                        burraco: [b.burraco[1], b.burraco[0]],
                        ..b.clone()
                    }
                } else {
                    team_match(self.settings.format(), a, b)
                };
                Some(((*first).clone(), outcome))
            })
            .collect()
    }

    /// Warnings an entrant has had.
    pub fn warnings_of(&self, entrant: u32) -> u32 {
        self.warnings
            .iter()
            .filter(|w| w.entrant == entrant)
            .count() as u32
    }

    /// A complete knock-out round's winners in bracket order: the next round's bracket. A tie
    /// is one match (a teams event's, its two tables together).
    pub fn knockout_winners(&self, round: &Round) -> Vec<Option<u32>> {
        let matches = self.scored_matches(round);
        round
            .bracket
            .chunks(2)
            .map(|place| match place {
                [Some(a), Some(b)] => winner_between(&matches, *a, *b),
                [Some(a), None] | [None, Some(a)] | [Some(a)] => Some(*a),
                _ => None,
            })
            .collect()
    }

    /// Whether another round is to be paired once the last one is complete.
    pub fn has_next_round(&self) -> bool {
        let index = self.rounds.len();
        match self.settings.movement_at(index) {
            None => false,
            Some(Movement::Knockout { .. }) => match self.rounds.last() {
                Some(last) if Movement::is_knockout_code(&last.movement) => {
                    self.knockout_winners(last).iter().flatten().count() > 1
                }
                _ => self.active().len() > 1,
            },
            Some(_) => true,
        }
    }

    /// The rounds the tournament will have: as many as the settings list, a knock-out's as many
    /// as its bracket needs.
    pub fn planned_rounds(&self) -> u32 {
        let listed = self.settings.movements.len() as u32;
        if !self.settings.ends_in_knockout() {
            return listed;
        }
        let field = self.active().len().max(2) as u32;
        listed - 1 + field.next_power_of_two().trailing_zeros()
    }

    /// The knock-out's winner, once its final is over.
    pub fn knockout_winner(&self) -> Option<u32> {
        let last = self.rounds.last()?;
        if !Movement::is_knockout_code(&last.movement) || !last.is_complete() {
            return None;
        }
        match self.knockout_winners(last)[..] {
            [Some(winner)] => Some(winner),
            _ => None,
        }
    }

    /// Rounds complete so far.
    pub fn complete_rounds(&self) -> usize {
        self.rounds.iter().take_while(|r| r.is_complete()).count()
    }

    /// Entrants that had a bye.
    pub fn had_bye(&self) -> Vec<usize> {
        self.rounds
            .iter()
            .filter_map(|r| r.bye.map(|b| b as usize))
            .collect()
    }
}

/// A team match from its two tables' outcomes (the second seats the teams the other way round):
/// each team's total is its two tables' totals; VP from the format's (teams) column by the
/// margin.
fn team_match(format: MatchFormat, first: &MatchOutcome, second: &MatchOutcome) -> MatchOutcome {
    let totals = [
        first.totals[0] + second.totals[1],
        first.totals[1] + second.totals[0],
    ];
    let vp_table = format.vp_table();
    let vp =
        [0, 1].map(|side| MatchScore::from_margin(vp_table, totals[side] - totals[1 - side]).vp);
    let hand_totals = first
        .hand_totals
        .iter()
        .zip(&second.hand_totals)
        .map(|(a, b)| [a[0] + b[1], a[1] + b[0]])
        .collect();
    MatchOutcome {
        played: first.played && second.played,
        totals,
        vp,
        burraco: [
            first.burraco[0] + second.burraco[1],
            first.burraco[1] + second.burraco[0],
        ],
        hands: first.hands.max(second.hands),
        hand_totals,
    }
}

/// The player id of server bot `index` of entrant `entrant` (a Sit&Go's filled places).
pub fn server_bot_player(tournament: &str, entrant: u32, index: usize) -> EntrantPlayer {
    EntrantPlayer {
        player: format!("bot-{tournament}-{entrant}-{index}"),
        name: format!("Bot {}", entrant + 1),
    }
}

/// A side's score in a table's match: its VP and its margin (MP).
pub fn score_of(result: &MatchOutcome, side: usize) -> MatchScore {
    if !result.played {
        return MatchScore::ZERO;
    }
    MatchScore {
        vp: result.vp[side],
        mp: result.totals[side] - result.totals[1 - side],
    }
}

/// Who won the match between `a` (the higher place) and `b` among a round's `matches` (as
/// [`TournamentState::scored_matches`] gives them): VP, then MP, then burraco bonus; equal on
/// all three, the higher place (each tie is one match). `None` while it is not over.
fn winner_between(matches: &[(RoundTable, MatchOutcome)], a: u32, b: u32) -> Option<u32> {
    let (table, result) = matches
        .iter()
        .find(|(t, _)| (t.ns == a && t.ew == b) || (t.ns == b && t.ew == a))?;
    let side_of_a = usize::from(table.ns != a);
    let key = |side: usize| {
        let s = score_of(result, side);
        (s.vp, s.mp, result.burraco[side])
    };
    Some(if key(1 - side_of_a) > key(side_of_a) {
        b
    } else {
        a
    })
}
