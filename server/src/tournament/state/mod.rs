//! A tournament as the fold of its log: the one place an entry changes the tournament, used live
//! (after the entry is durable), by a restart and by the record. No IO, no clock: what the
//! entries say and nothing else. The questions asked of it are in [`queries`] and, the
//! standings, in [`standings`].

mod queries;
mod standings;
#[cfg(test)]
mod tests;

use burraco_protocol::tournament_log::{
    EntrantPlayer, MatchOutcome, RoundBoards, RoundTable, TournamentEntry,
};
use burraco_protocol::wire::WireTournamentSettings;

use super::settings::Settings;
pub use standings::score_of;

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
    /// The account behind each of its players who registered signed in, as (player, account)
    /// (`TournamentEntry::EntrantAccount`, protocol 1.7); a guest's player has none.
    pub accounts: Vec<(String, String)>,
}

impl Entrant {
    /// The account of each of its players, in the players' order (`None`: a guest, a server
    /// bot, or a player registered before the log named accounts).
    pub fn player_accounts(&self) -> Vec<Option<String>> {
        self.players
            .iter()
            .map(|p| {
                self.accounts
                    .iter()
                    .find(|(player, _)| *player == p.player)
                    .map(|(_, account)| account.clone())
            })
            .collect()
    }

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
    /// The signed-in account that created it (`TournamentEntry::DirectorAccount`, protocol
    /// 1.6): it directs without the token.
    pub director_account: Option<String>,
    pub seed: u64,
    pub entrants: Vec<Entrant>,
    pub rounds: Vec<Round>,
    pub adjustments: Vec<Adjustment>,
    pub end_requested: bool,
    pub finished: bool,
    /// Rated (`TournamentEntry::Rated`, protocol 1.6): its tables are rated tables.
    pub rated: bool,
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
            director_account: None,
            seed: *seed,
            entrants: Vec::new(),
            rounds: Vec::new(),
            adjustments: Vec::new(),
            end_requested: false,
            finished: false,
            rated: false,
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
                    // A pair or team with a program in it (a bot account, or a player saying
                    // `bot`) is a bot entrant in the standings.
                    e.bot |= *bot;
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
                        accounts: Vec::new(),
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
            TournamentEntry::Rated => self.rated = true,
            TournamentEntry::DirectorAccount { account } => {
                self.director_account = Some(account.clone());
            }
            TournamentEntry::EntrantAccount {
                entrant,
                player,
                account,
            } => {
                let e = self.entrant_mut(*entrant)?;
                e.accounts.retain(|(p, _)| p != player);
                e.accounts.push((player.clone(), account.clone()));
            }
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
                        accounts: Vec::new(),
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
}

/// The player id of server bot `index` of entrant `entrant` (a Sit&Go's filled places).
pub fn server_bot_player(tournament: &str, entrant: u32, index: usize) -> EntrantPlayer {
    EntrantPlayer {
        player: format!("bot-{tournament}-{entrant}-{index}"),
        name: format!("Bot {}", entrant + 1),
    }
}
