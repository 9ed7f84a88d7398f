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

use super::scoring::Award;
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
    pub withdrawn_at: Option<Moment>,
    pub disqualified: Option<String>,
    pub disqualified_at: Option<Moment>,
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

    /// Withdrawn or expelled before the first round: never paired, like an entrant that
    /// unregistered, so not in the standings.
    fn gone_before_the_start(&self) -> bool {
        [self.withdrawn_at, self.disqualified_at]
            .iter()
            .flatten()
            .any(|m| m.after_round == 0)
    }

    /// Expelled, counted in the standings after `rounds` rounds (FITAB art. 37 bis): from the
    /// standings after the round in play when it was expelled, as an adjustment counts; the
    /// standings after earlier rounds stay as they were.
    fn expelled_by(&self, rounds: usize) -> bool {
        self.disqualified_at
            .is_some_and(|m| m.after_round as usize <= rounds)
    }
}

/// When something happened to an entrant: the time, and how many rounds had started by then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moment {
    pub at_ms: i64,
    pub after_round: u32,
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
                        withdrawn_at: None,
                        disqualified: None,
                        disqualified_at: None,
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
                // A fixed schedule keeps an entrant gone since the start in its place: the rest
                // it would have had there is nobody's (a leaver scores nothing after it left,
                // art. 36).
                bye: bye.filter(|&b| !self.entrants.get(b as usize).is_some_and(Entrant::gone)),
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
                entrant,
                reason,
                at_ms,
            } => {
                let at = self.moment(*at_ms);
                let e = self.entrant_mut(*entrant)?;
                e.withdrawn = Some(reason.clone());
                e.withdrawn_at = Some(at);
            }
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
                entrant,
                reason,
                at_ms,
            } => {
                let at = self.moment(*at_ms);
                let e = self.entrant_mut(*entrant)?;
                e.disqualified = Some(reason.clone());
                e.disqualified_at = Some(at);
            }
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
                        withdrawn_at: None,
                        disqualified: None,
                        disqualified_at: None,
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

    /// `at_ms`, with the rounds started by now.
    fn moment(&self, at_ms: i64) -> Moment {
        Moment {
            at_ms,
            after_round: self.rounds.len() as u32,
        }
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
    /// made by then), best first: VP, then MP, then burraco bonus (RULES.md section 11). From
    /// the standings after the round in play when it was expelled, an expelled entrant ranks
    /// last and those that met it at a table get at least 12 VP from that match (FITAB art. 37
    /// bis: not those paired with it by a fixed schedule after it was gone, nor a forfeit).
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
                .is_some_and(|e| e.expelled_by(rounds))
        };
        let mut changes: Vec<(usize, MatchScore, i32, bool)> = Vec::new();
        for round in self.rounds.iter().take(rounds) {
            for scored in self.scored_meetings(round) {
                let result = &scored.outcome;
                let sides = self.settings.kind.sides(&scored.table);
                for (side, entrants) in sides.iter().enumerate() {
                    let mut score = score_of(result, side);
                    if scored.met && sides[1 - side].iter().any(|&e| expelled(e)) {
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
        self.scored_meetings(round)
            .into_iter()
            .map(|m| (m.table, m.outcome))
            .collect()
    }

    /// [`Self::scored_matches`], each with whether its sides met at a table (a teams event's,
    /// at either of its two).
    fn scored_meetings(&self, round: &Round) -> Vec<ScoredMatch> {
        let tables = round.tables.iter().zip(&round.results).zip(&round.awarded);
        if self.settings.kind != Kind::Teams {
            return tables
                .filter_map(|((t, r), awarded)| {
                    let outcome = r.clone()?;
                    Some(ScoredMatch {
                        table: t.clone(),
                        met: sides_met(&outcome, awarded),
                        outcome,
                    })
                })
                .collect();
        }
        let all: Vec<_> = tables.collect();
        all.chunks(2)
            .filter_map(|two| {
                let [((first, Some(a)), a_awarded), ((_, Some(b)), b_awarded)] = two else {
                    return None;
                };
                let met = sides_met(a, a_awarded) || sides_met(b, b_awarded);
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
                Some(ScoredMatch {
                    table: (*first).clone(),
                    outcome,
                    met,
                })
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
    /// as its bracket needs: fixed by its first round's bracket once that is paired (entrants
    /// leaving later leave places empty, they do not shorten it), by the entrants still in
    /// before.
    pub fn planned_rounds(&self) -> u32 {
        let listed = self.settings.movements.len() as u32;
        if !self.settings.ends_in_knockout() {
            return listed;
        }
        let field = self
            .rounds
            .iter()
            .find(|r| Movement::is_knockout_code(&r.movement))
            .map_or_else(|| self.active().len(), |r| r.bracket.len())
            .max(2) as u32;
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

/// A match that is over, as the standings count it.
struct ScoredMatch {
    table: RoundTable,
    outcome: MatchOutcome,
    /// The sides sat at a table against each other (FITAB art. 37 bis's "met").
    met: bool,
}

/// Whether a table's sides met: its match began (played to its end, or left mid-match), not
/// closed unplayed nor scored without play ([`Award::sides_met`]). A reason this build does
/// not know counts as a meeting.
fn sides_met(outcome: &MatchOutcome, awarded: &Option<String>) -> bool {
    outcome.played
        && awarded
            .as_deref()
            .and_then(Award::from_code)
            .is_none_or(Award::sides_met)
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

#[cfg(test)]
mod tests {
    use burraco_protocol::tournament_log::EntrantPlayer;
    use burraco_rules::vp::VpTable;
    use serde_json::Value;

    use super::super::rounds::pair_next;
    use super::super::scoring::{self, Award};
    use super::*;

    /// A `fitab` singles event of one-hand matches, `entrants` registered.
    fn registered(movements: &[&str], entrants: u32) -> TournamentState {
        registered_with(movements, entrants, |_| {})
    }

    fn registered_with(
        movements: &[&str],
        entrants: u32,
        change: impl FnOnce(&mut WireTournamentSettings),
    ) -> TournamentState {
        let mut wire = WireTournamentSettings {
            name: "t".into(),
            kind: "singles".into(),
            rounds: movements.iter().map(|&m| m.to_owned()).collect(),
            hands: 1,
            preset: "fitab".into(),
            ..WireTournamentSettings::default()
        };
        change(&mut wire);
        let created = TournamentEntry::Created {
            settings: serde_json::to_string(&wire).expect("json"),
            created_ms: 0,
            director_hash: [0; 32],
            seed: 1,
        };
        let mut state = TournamentState::created("T-0".into(), &created).expect("settings");
        for entrant in 0..entrants {
            state
                .apply(&TournamentEntry::Registered {
                    entrant,
                    player: EntrantPlayer {
                        player: format!("p{entrant}"),
                        name: format!("n{entrant}"),
                    },
                    bot: true,
                    code: None,
                    at_ms: 0,
                })
                .expect("registered");
        }
        state
    }

    /// Starts the next round as the actor does: paired by its movement (duplicate boards dealt
    /// if the settings say so), and a table with an
    /// entrant gone since the start scored `absent_opponent` (the bye score to the present
    /// side). Its tables, as (ns, ew, table id).
    fn start_round(state: &mut TournamentState, at_ms: i64) -> Vec<(u32, u32, String)> {
        let (movement, round, bracket) = pair_next(state).expect("a round to pair");
        let number = state.rounds.len() as u32 + 1;
        let tables: Vec<RoundTable> = round
            .tables
            .iter()
            .map(|t| RoundTable {
                number: t.number as u32,
                table: format!("t-{number}-{}", t.number),
                ns: t.ns as u32,
                ew: t.ew as u32,
                ns_partner: None,
                ew_partner: None,
            })
            .collect();
        state
            .apply(&TournamentEntry::RoundStarted {
                round: number,
                movement: movement.code().to_owned(),
                tables: tables.clone(),
                bye: round.bye.map(|b| b as u32),
                bracket,
                // Duplicate boards, as the actor draws them (the seeds do not matter here).
                boards: state.settings.duplicate.then(|| RoundBoards {
                    seeds: vec![[7; 32]; usize::from(state.settings.hands)],
                    first_dealer: 0,
                }),
                at_ms,
            })
            .expect("round");
        for t in &tables {
            let gone = [t.ns, t.ew].map(|e| state.entrants[e as usize].gone());
            if gone != [false, false] {
                let result =
                    scoring::awarded(gone, bye_score(state.settings.format()), MatchScore::ZERO);
                state
                    .apply(&TournamentEntry::MatchAwarded {
                        round: number,
                        table: t.table.clone(),
                        result,
                        reason: Award::AbsentOpponent.code().into(),
                        at_ms,
                    })
                    .expect("awarded");
            }
        }
        tables.into_iter().map(|t| (t.ns, t.ew, t.table)).collect()
    }

    /// A one-hand match played to its end with these totals (VP from FITAB's 2-hand column).
    fn finish(state: &mut TournamentState, table: &str, totals: [i32; 2]) {
        let (won, lost) = VpTable::FitabTwoHands.victory_points(totals[0] - totals[1]);
        let vp = if totals[0] >= totals[1] {
            [won, lost]
        } else {
            [lost, won]
        };
        let round = state.rounds.len() as u32;
        state
            .apply(&TournamentEntry::MatchFinished {
                round,
                table: table.into(),
                result: MatchOutcome {
                    played: true,
                    totals,
                    vp,
                    burraco: [0, 0],
                    hands: 1,
                    hand_totals: vec![totals],
                },
            })
            .expect("finished");
    }

    fn table_of(tables: &[(u32, u32, String)], a: u32, b: u32) -> String {
        tables
            .iter()
            .find(|(ns, ew, _)| (*ns, *ew) == (a, b) || (*ns, *ew) == (b, a))
            .map(|(_, _, id)| id.clone())
            .unwrap_or_else(|| panic!("{a} and {b} do not meet in {tables:?}"))
    }

    fn vp_by_entrant(lines: &[Standing]) -> Vec<(usize, i32)> {
        lines.iter().map(|s| (s.entrant, s.vp)).collect()
    }

    /// The case an independent recomputation found: in a singles round robin of four (Berger:
    /// 0-3 and 1-2, then 3-2 and 0-1, then 1-3 and 2-0), entrant 1 withdraws in round 2 and
    /// entrant 3 is expelled before round 3, where the two were to meet: that table is scored
    /// `absent_opponent`, 0 VP to both. Art. 37 bis gives at least 12 VP to the entrants the
    /// expelled one met at a table (0 and 2), never to 1, who never played it.
    fn withdrawal_then_expulsion() -> TournamentState {
        let mut state = registered(&["round_robin", "round_robin", "round_robin"], 4);
        let first = start_round(&mut state, 10);
        assert_eq!(
            first.iter().map(|(a, b, _)| (*a, *b)).collect::<Vec<_>>(),
            [(0, 3), (1, 2)]
        );
        // 3 beats 0 17-3; 1 loses to 2 9-11.
        finish(&mut state, &table_of(&first, 0, 3), [0, 700]);
        finish(&mut state, &table_of(&first, 1, 2), [100, 160]);
        let second = start_round(&mut state, 20);
        // 3 beats 2 15-5; 1 leaves its match with 0 in play: "a 0", 0 the bye score.
        finish(&mut state, &table_of(&second, 3, 2), [500, 0]);
        let abandoned = table_of(&second, 0, 1);
        let side_of_1 = usize::from(
            second
                .iter()
                .any(|(_, ew, id)| *id == abandoned && *ew == 1),
        );
        let mut out = [false, false];
        out[side_of_1] = true;
        let bye = bye_score(state.settings.format());
        let entries = [
            TournamentEntry::MatchAwarded {
                round: 2,
                table: abandoned,
                result: scoring::awarded(out, bye, MatchScore::ZERO),
                reason: Award::Abandonment.code().into(),
                at_ms: 25,
            },
            TournamentEntry::Withdrawn {
                entrant: 1,
                reason: "abandoned the tournament".into(),
                at_ms: 25,
            },
            TournamentEntry::Disqualified {
                entrant: 3,
                reason: "signalling".into(),
                at_ms: 30,
            },
        ];
        for entry in &entries {
            state.apply(entry).expect("fits");
        }
        let third = start_round(&mut state, 40);
        // 2 beats 0 14-6.
        finish(&mut state, &table_of(&third, 2, 0), [400, 0]);
        let absent = state.rounds[2]
            .tables
            .iter()
            .position(|t| [t.ns, t.ew].contains(&1))
            .expect("1's table");
        assert_eq!(
            state.rounds[2].awarded[absent].as_deref(),
            Some(Award::AbsentOpponent.code())
        );
        assert!(state.rounds[2].tables[absent].ns == 3 || state.rounds[2].tables[absent].ew == 3);
        state
    }

    #[test]
    fn an_expelled_entrants_12_vp_go_to_those_it_met_at_a_table_only() {
        let state = withdrawal_then_expulsion();
        // 0: 12 (3, raised against the expelled 3) + 14 (the bye score) + 6; 1: 9 + 0 + 0, never
        // raised (it never met 3: their table was not played); 2: 11 + 12 (5, raised) + 14; 3
        // last with its own 17 + 15.
        assert_eq!(
            vp_by_entrant(&state.standings_after(3)),
            [(2, 37), (0, 32), (1, 9), (3, 32)]
        );
    }

    #[test]
    fn an_expulsion_counts_from_the_standings_after_the_round_it_was_made_in() {
        let state = withdrawal_then_expulsion();
        // Expelled with two rounds started: the standings after round 1 (what round 2 was
        // paired by, for a movement by standing) stay as they were.
        assert_eq!(
            vp_by_entrant(&state.standings_after(1)),
            [(3, 17), (2, 11), (1, 9), (0, 3)]
        );
        // From those after round 2: 0 has 12 + 14, 2 has 11 + 12, 3 is last.
        assert_eq!(
            vp_by_entrant(&state.standings_after(2)),
            [(0, 26), (2, 23), (1, 9), (3, 32)]
        );
        // The record says when each left, and how many rounds had started.
        assert_eq!(
            state.entrants[1].withdrawn_at,
            Some(Moment {
                at_ms: 25,
                after_round: 2
            })
        );
        assert_eq!(
            state.entrants[3].disqualified_at,
            Some(Moment {
                at_ms: 30,
                after_round: 2
            })
        );
        let record = super::super::record::record(&state);
        assert_eq!(record["entrants"][1]["withdrawn_ms"], 25);
        assert_eq!(record["entrants"][1]["withdrawn_after_round"], 2);
        assert_eq!(record["entrants"][3]["disqualified_ms"], 30);
        assert_eq!(record["entrants"][3]["disqualified_after_round"], 2);
        assert_eq!(
            record["entrants"][0]["disqualified_after_round"],
            Value::Null
        );
    }

    /// An entrant the director withdraws (or expels) before the first round is never paired:
    /// like one that unregistered, it has no line in the standings.
    #[test]
    fn an_entrant_gone_before_the_start_has_no_standing() {
        let mut state = registered(&["danish"], 3);
        state
            .apply(&TournamentEntry::Withdrawn {
                entrant: 1,
                reason: "cannot come".into(),
                at_ms: 5,
            })
            .expect("withdrawn");
        assert_eq!(state.active(), [0, 2]);
        let tables = start_round(&mut state, 10);
        assert_eq!(state.rounds[0].bye, None);
        finish(&mut state, &tables[0].2, [400, 0]);
        assert_eq!(vp_by_entrant(&state.standings_after(1)), [(0, 14), (2, 6)]);
    }

    /// `rounds` in the list and the updates: a knock-out takes the rounds its first bracket
    /// needs, however many entrants leave once it started (a knock-out of five is three rounds,
    /// a bracket of eight, even when one withdraws after the first).
    #[test]
    fn a_knockouts_planned_rounds_are_fixed_by_its_first_bracket() {
        let mut state = registered(&["knockout"], 5);
        assert_eq!(state.planned_rounds(), 3);
        let first = start_round(&mut state, 10);
        assert_eq!(first.len(), 1, "three of five go through without playing");
        let (ns, ew, table) = first[0].clone();
        finish(&mut state, &table, [300, 0]);
        let through = state.rounds[0]
            .bracket
            .iter()
            .flatten()
            .copied()
            .find(|&e| e != ns && e != ew)
            .expect("an entrant through without playing");
        state
            .apply(&TournamentEntry::Withdrawn {
                entrant: through,
                reason: "had to leave".into(),
                at_ms: 20,
            })
            .expect("withdrawn");
        assert_eq!(state.active().len(), 4);
        assert_eq!(state.planned_rounds(), 3);
    }

    /// Duplicate matchpoints compare a board only among the tables that finished it: a match
    /// ended after its first board (the round clock) is left out of the second.
    #[test]
    fn a_board_is_compared_among_the_tables_that_finished_it() {
        let mut state = registered_with(&["danish"], 6, |w| {
            w.hands = 2;
            w.duplicate = Some(true);
        });
        let tables = start_round(&mut state, 10);
        let hand_totals = [
            vec![[100, 0], [50, 0]],
            vec![[0, 0], [20, 0]],
            vec![[100, 0]],
        ];
        for ((_, _, table), hands) in tables.iter().zip(hand_totals) {
            let totals = hands
                .iter()
                .fold([0, 0], |acc, h| [acc[0] + h[0], acc[1] + h[1]]);
            state
                .apply(&TournamentEntry::MatchFinished {
                    round: 1,
                    table: table.clone(),
                    result: MatchOutcome {
                        played: true,
                        totals,
                        vp: [10, 10],
                        burraco: [0, 0],
                        hands: hands.len() as u32,
                        hand_totals: hands,
                    },
                })
                .expect("finished");
        }
        let record = super::super::record::record(&state);
        let matchpoints: Vec<Value> = record["rounds"][0]["tables"]
            .as_array()
            .expect("tables")
            .iter()
            .map(|t| t["result"]["matchpoints"].clone())
            .collect();
        // Board 1, North-South 100, 0, 100: 3, 0, 3; board 2, only the first two, 50 and 20:
        // 2, 0. East-West the other way round: 1, 4, 1, then 0, 2.
        assert_eq!(
            matchpoints,
            [
                serde_json::json!([5, 1]),
                serde_json::json!([0, 6]),
                serde_json::json!([3, 1])
            ]
        );
    }

    /// An entrant gone since the start is nobody's bye when a fixed schedule would rest it:
    /// it scores nothing after it left (round robin of five: 3 would rest in round 2).
    #[test]
    fn a_withdrawn_entrants_rest_in_a_fixed_schedule_scores_nothing() {
        let mut state = registered(&["round_robin", "round_robin"], 5);
        let first = start_round(&mut state, 10);
        assert_eq!(state.rounds[0].bye, Some(0));
        for (_, _, table) in &first {
            finish(&mut state, table, [400, 0]);
        }
        state
            .apply(&TournamentEntry::Withdrawn {
                entrant: 3,
                reason: "had to leave".into(),
                at_ms: 15,
            })
            .expect("withdrawn");
        let (_, round, _) = pair_next(&state).expect("round 2");
        assert_eq!(round.bye, Some(3), "the Berger table rests 3 in round 2");
        start_round(&mut state, 20);
        assert_eq!(state.rounds[1].bye, None);
        let three = state
            .standings_after(1)
            .iter()
            .find(|s| s.entrant == 3)
            .map(|s| s.vp);
        let standings = state.standings_after(2);
        assert_eq!(
            standings
                .iter()
                .find(|s| s.entrant == 3)
                .map(|s| (s.vp, s.byes)),
            three.map(|vp| (vp, 0))
        );
        assert_eq!(record_bye(&state, 1), Value::Null);
    }

    fn record_bye(state: &TournamentState, round: usize) -> Value {
        super::super::record::record(state)["rounds"][round]["bye"].clone()
    }

    /// A knock-out of four: a finalist withdrawn before the final leaves the other through (the
    /// final has no table, and that one wins); a winner of the final who leaves afterwards
    /// stays the winner.
    #[test]
    fn a_knockout_finalist_who_leaves() {
        let semis_won_by_ns = |state: &mut TournamentState| -> Vec<u32> {
            let semis = start_round(state, 10);
            assert_eq!(semis.len(), 2);
            for (_, _, table) in &semis {
                finish(state, table, [400, 0]);
            }
            semis.iter().map(|(ns, _, _)| *ns).collect()
        };
        let mut state = registered(&["knockout"], 4);
        let finalists = semis_won_by_ns(&mut state);
        state
            .apply(&TournamentEntry::Withdrawn {
                entrant: finalists[0],
                reason: "had to leave".into(),
                at_ms: 15,
            })
            .expect("withdrawn");
        assert!(state.has_next_round());
        let final_ = start_round(&mut state, 20);
        assert!(final_.is_empty(), "{final_:?}");
        assert_eq!(state.rounds[1].bracket, [None, Some(finalists[1])]);
        assert!(state.rounds[1].is_complete());
        assert!(!state.has_next_round());
        assert_eq!(state.knockout_winner(), Some(finalists[1]));

        let mut state = registered(&["knockout"], 4);
        semis_won_by_ns(&mut state);
        let final_ = start_round(&mut state, 20);
        let (winner, _, table) = final_[0].clone();
        finish(&mut state, &table, [400, 0]);
        assert_eq!(state.knockout_winner(), Some(winner));
        state
            .apply(&TournamentEntry::Disqualified {
                entrant: winner,
                reason: "signalling".into(),
                at_ms: 30,
            })
            .expect("expelled");
        assert_eq!(state.knockout_winner(), Some(winner));
    }
}
