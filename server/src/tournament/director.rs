//! The director's requests (start a round, adjust, withdraw, end, configure the entry list,
//! pause and resume, warn, disqualify, forbid a pairing, seat the first round, set the round
//! time) and an entrant leaving the event after its start, each logged before it takes effect.

use burraco_protocol::ErrorCode;
use burraco_protocol::tournament_log::TournamentEntry;

use super::scoring::Award;
use super::{DirectorAction, Refusal, TournamentActor};

/// How an entrant leaves the event after its start: what its match in play is scored by, and
/// the rule the record names for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaving {
    /// It left (`unregister_tournament`, `withdraw_entrant`): "a 0" (art. 36).
    Abandonment,
    /// It cannot go on for force majeure (`excuse_entrant`): the code's force-majeure score.
    ForceMajeure,
    /// Expelled (`disqualify_entrant`, art. 37 bis).
    Disqualification,
}

impl Leaving {
    /// The rule a match it leaves is awarded by.
    pub fn rule(self) -> Award {
        match self {
            Leaving::Abandonment => Award::Abandonment,
            Leaving::ForceMajeure => Award::ForceMajeure,
            Leaving::Disqualification => Award::Disqualification,
        }
    }
}

impl TournamentActor {
    /// Entrant `entrant` leaves the event after its start (withdrawn, expelled, abandoning, or
    /// for force majeure): a match it has in play is scored by the abandonment rule (art. 36)
    /// and its table closed; then it is logged gone.
    pub(super) async fn leave_event(
        &mut self,
        entrant: u32,
        leaving: Leaving,
        reason: String,
    ) -> Result<(), Refusal> {
        let at_ms = crate::ids::unix_ms();
        let mut entries = Vec::new();
        let mut close = Vec::new();
        let force_majeure = leaving == Leaving::ForceMajeure;
        for (round, table, result) in self.abandoned_matches(entrant, force_majeure).await {
            close.push(table.clone());
            entries.push(TournamentEntry::MatchAwarded {
                round,
                table,
                result,
                reason: leaving.rule().code().to_owned(),
                at_ms,
            });
        }
        entries.push(if leaving == Leaving::Disqualification {
            TournamentEntry::Disqualified {
                entrant,
                reason,
                at_ms,
            }
        } else {
            TournamentEntry::Withdrawn {
                entrant,
                reason,
                at_ms,
            }
        });
        self.log(entries).await?;
        for table in close {
            self.close_table(&table).await;
        }
        self.broadcast_update();
        if self.state.started() && self.state.round_in_play().is_none() {
            self.advance = true;
        }
        Ok(())
    }

    pub(super) async fn direct(
        &mut self,
        action: DirectorAction,
    ) -> Result<Option<String>, Refusal> {
        self.direct_action(action).await?;
        Ok(self.state.registration.invite.clone())
    }

    async fn direct_action(&mut self, action: DirectorAction) -> Result<(), Refusal> {
        // The request is well formed (`director_request`): what is checked here depends on
        // the tournament.
        let at_ms = crate::ids::unix_ms();
        let excused = matches!(action, DirectorAction::Excuse { .. });
        match action {
            DirectorAction::StartRound => {
                if self.state.paused {
                    return Err((
                        ErrorCode::TournamentPaused,
                        "the tournament is paused: resume it first".into(),
                    ));
                }
                self.start_round().await
            }
            DirectorAction::Registration(r) => {
                if self.state.started() || self.state.finished {
                    return Err((ErrorCode::RoundInPlay, "the tournament has started".into()));
                }
                // A start time already past would start (or, short of entrants, end) the event
                // at once, a closing time close the list: refused, unless it is the time
                // already set, sent again with the rest of the configuration.
                let now = &self.state.registration;
                for (wanted, set, what) in [
                    (r.closes_ms, now.closes_ms, "closing"),
                    (r.starts_ms, now.starts_ms, "start"),
                ] {
                    if let Some(t) = wanted
                        && t <= at_ms
                        && Some(t) != set
                    {
                        return Err((
                            ErrorCode::TimeInPast,
                            format!("the {what} time is in the past"),
                        ));
                    }
                }
                let invite = r.invite_only.then(|| {
                    self.state.registration.invite.clone().unwrap_or_else(|| {
                        burraco_protocol::cards::to_hex(&crate::ids::random_bytes::<4>())
                            .to_uppercase()
                    })
                });
                self.log(vec![TournamentEntry::RegistrationConfigured {
                    open: r.open,
                    invite,
                    closes_ms: r.closes_ms,
                    starts_ms: r.starts_ms,
                    check_in: r.check_in,
                    bots_after_secs: r.bots_after_secs,
                    at_ms,
                }])
                .await?;
                self.broadcast_update();
                Ok(())
            }
            DirectorAction::Pause => {
                if self.state.finished {
                    return Err((ErrorCode::RoundInPlay, "the tournament is over".into()));
                }
                if !self.state.paused {
                    self.log(vec![TournamentEntry::Paused { at_ms }]).await?;
                    // Play stops at the tables too, at the same instant (their round clocks
                    // count the pause out as the tournament's does).
                    self.pause_tables(true, at_ms).await;
                    self.broadcast_update();
                }
                Ok(())
            }
            DirectorAction::Resume => {
                if self.state.paused {
                    self.log(vec![TournamentEntry::Resumed { at_ms }]).await?;
                    self.pause_tables(false, at_ms).await;
                    self.broadcast_update();
                    // A round the pause held back starts now.
                    self.advance = self.state.started() && self.state.round_in_play().is_none();
                }
                Ok(())
            }
            DirectorAction::Warn { entrant, reason } => {
                self.known(entrant)?;
                self.log(vec![TournamentEntry::Warning {
                    entrant,
                    reason,
                    at_ms,
                }])
                .await?;
                self.broadcast_update();
                Ok(())
            }
            DirectorAction::Disqualify { entrant, reason } => {
                self.known(entrant)?;
                if self.state.entrants[entrant as usize].disqualified.is_some() {
                    return Ok(());
                }
                self.leave_event(entrant, Leaving::Disqualification, reason)
                    .await
            }
            DirectorAction::Forbid { entrants: [a, b] } => {
                self.known(a)?;
                self.known(b)?;
                self.log(vec![TournamentEntry::Forbidden {
                    entrants: [a, b],
                    at_ms,
                }])
                .await
            }
            DirectorAction::RoundTime { secs } => {
                if self.state.finished {
                    return Err((ErrorCode::RoundInPlay, "the tournament is over".into()));
                }
                self.log(vec![TournamentEntry::RoundTime { secs, at_ms }])
                    .await
            }
            DirectorAction::Seat { order } => {
                if self.state.settings.wire.seating.as_deref() != Some("director") {
                    return Err((
                        ErrorCode::InvalidMessage,
                        "this tournament's seating is not the director's".into(),
                    ));
                }
                if self.state.started() {
                    return Err((ErrorCode::RoundInPlay, "the tournament has started".into()));
                }
                for &e in &order {
                    self.known(e)?;
                }
                self.log(vec![TournamentEntry::Seating { order, at_ms }])
                    .await
            }
            DirectorAction::Adjust {
                entrant,
                vp,
                reason,
            } => {
                self.known(entrant)?;
                self.log(vec![TournamentEntry::Adjustment {
                    entrant,
                    vp,
                    reason,
                    at_ms,
                }])
                .await?;
                self.broadcast_update();
                Ok(())
            }
            DirectorAction::Withdraw { entrant, reason }
            | DirectorAction::Excuse { entrant, reason } => {
                self.known(entrant)?;
                if self.state.started() {
                    if self.state.entrants[entrant as usize].gone() {
                        return Ok(());
                    }
                    let leaving = if excused {
                        Leaving::ForceMajeure
                    } else {
                        Leaving::Abandonment
                    };
                    return self.leave_event(entrant, leaving, reason).await;
                }
                self.log(vec![TournamentEntry::Withdrawn {
                    entrant,
                    reason,
                    at_ms,
                }])
                .await?;
                self.broadcast_update();
                Ok(())
            }
            DirectorAction::End => {
                if self.state.finished {
                    return Err((ErrorCode::RoundInPlay, "the tournament is over".into()));
                }
                let mut entries = vec![TournamentEntry::EndRequested];
                if self.state.round_in_play().is_none() {
                    entries.push(TournamentEntry::Finished { at_ms });
                }
                self.log(entries).await?;
                self.broadcast_update();
                Ok(())
            }
        }
    }

    fn known(&self, entrant: u32) -> Result<(), Refusal> {
        match self.state.entrants.get(entrant as usize) {
            Some(e) if !e.unregistered => Ok(()),
            _ => Err((
                ErrorCode::InvalidMessage,
                format!("no entrant {entrant} in this tournament"),
            )),
        }
    }
}
