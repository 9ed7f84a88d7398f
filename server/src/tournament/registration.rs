//! The entry list (register, a partner joining by code, unregister, a Sit&Go starting when full)
//! and the director's requests (start a round, adjust, withdraw, end now), each logged before it
//! takes effect.

use burraco_protocol::ErrorCode;
use burraco_protocol::tournament_log::{EntrantPlayer, TournamentEntry};

use super::{DirectorAction, Refusal, TournamentActor};

impl TournamentActor {
    pub(super) async fn register(
        &mut self,
        player: EntrantPlayer,
        partner_code: Option<String>,
        bot: bool,
    ) -> Result<(u32, Option<String>), Refusal> {
        if self.state.started() || self.state.finished {
            return Err((
                ErrorCode::RegistrationClosed,
                "the tournament has started".into(),
            ));
        }
        if self.state.entrant_of(&player.player).is_some() {
            return Err((
                ErrorCode::AlreadyRegistered,
                "you are registered in this tournament".into(),
            ));
        }
        let at_ms = crate::unix_ms();
        if let Some(code) = partner_code {
            let entrant = self
                .state
                .entrants
                .iter()
                .find(|e| e.code.as_deref() == Some(code.as_str()))
                .map(|e| e.id)
                .ok_or((
                    ErrorCode::RegistrationClosed,
                    "no entrant is waiting for a partner with that code".to_owned(),
                ))?;
            let bot = self.state.entrants[entrant as usize].bot;
            self.log(vec![TournamentEntry::Registered {
                entrant,
                player,
                bot,
                code: None,
                at_ms,
            }])
            .await?;
            return Ok((entrant, None));
        }
        if self
            .state
            .settings
            .max_entrants
            .is_some_and(|max| self.open_entrants() >= max as usize)
        {
            return Err((ErrorCode::RegistrationClosed, "the list is full".into()));
        }
        let entrant = self.state.entrants.len() as u32;
        let code = (self.state.settings.kind.players() > 1)
            .then(|| burraco_protocol::cards::to_hex(&crate::random_bytes::<4>()).to_uppercase());
        self.log(vec![TournamentEntry::Registered {
            entrant,
            player,
            bot,
            code: code.clone(),
            at_ms,
        }])
        .await?;
        Ok((entrant, code))
    }

    /// Entrants on the list, complete or waiting for a partner.
    fn open_entrants(&self) -> usize {
        self.state
            .entrants
            .iter()
            .filter(|e| !e.unregistered && e.withdrawn.is_none())
            .count()
    }

    pub(super) async fn unregister(&mut self, player: &str) -> Result<(), Refusal> {
        if self.state.started() {
            return Err((
                ErrorCode::RoundInPlay,
                "the tournament has started: the director may withdraw you".into(),
            ));
        }
        let entrant = self.state.entrant_of(player).map(|e| e.id).ok_or((
            ErrorCode::NotRegistered,
            "you are not registered in this tournament".to_owned(),
        ))?;
        self.log(vec![TournamentEntry::Unregistered {
            entrant,
            at_ms: crate::unix_ms(),
        }])
        .await?;
        Ok(())
    }

    /// A Sit&Go starts as soon as its list is full of complete entrants.
    pub(super) async fn start_if_full(&mut self) {
        let settings = &self.state.settings;
        let full = settings
            .max_entrants
            .is_some_and(|max| self.state.active().len() >= max as usize);
        if settings.start_when_full
            && full
            && !self.state.started()
            && let Err((_, e)) = self.start_round().await
        {
            tracing::error!("the Sit&Go could not start: {e}");
        }
    }

    pub(super) async fn direct(&mut self, action: DirectorAction) -> Result<(), Refusal> {
        let at_ms = crate::unix_ms();
        match action {
            DirectorAction::StartRound => self.start_round().await,
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
            DirectorAction::Withdraw { entrant, reason } => {
                self.known(entrant)?;
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
