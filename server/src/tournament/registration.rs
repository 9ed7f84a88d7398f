//! The entry list (register, by invitation or not, a partner joining by code, unregister,
//! check-in, a Sit&Go starting when full), each change logged before it takes effect. Leaving
//! after the start is abandoning (`director.rs`, `leave_event`).

use burraco_protocol::ErrorCode;
use burraco_protocol::tournament_log::{EntrantPlayer, TournamentEntry};

use super::director::Leaving;
use super::settings::Kind;
use super::{Refusal, TournamentActor};

/// A registration's entries: `Registered`, and right after it (in the same append) the account
/// behind the player when it registered signed in.
fn with_account(
    registered: TournamentEntry,
    entrant: u32,
    player: &EntrantPlayer,
    account: Option<String>,
) -> Vec<TournamentEntry> {
    let mut entries = vec![registered];
    if let Some(account) = account {
        entries.push(TournamentEntry::EntrantAccount {
            entrant,
            player: player.player.clone(),
            account,
        });
    }
    entries
}

impl TournamentActor {
    pub(super) async fn register(
        &mut self,
        player: EntrantPlayer,
        partner_code: Option<String>,
        bot: bool,
        invite: Option<String>,
        account: Option<String>,
    ) -> Result<(u32, Option<String>), Refusal> {
        // Before anything else: a guest could never take its seat at a rated table, and would
        // lose every match by the code (protocol 1.7; before it, it was let in and refused at
        // the table).
        if self.state.rated && account.is_none() {
            return Err((
                ErrorCode::AccountRequired,
                "a rated tournament takes signed-in accounts only: sign in to register".into(),
            ));
        }
        if self.state.started() || self.state.finished {
            return Err((
                ErrorCode::RegistrationClosed,
                "the tournament has started".into(),
            ));
        }
        if !self.state.registration_open(crate::ids::unix_ms()) {
            return Err((
                ErrorCode::RegistrationClosed,
                "the entry list is closed".into(),
            ));
        }
        if let Some(wanted) = &self.state.registration.invite
            && invite.as_ref() != Some(wanted)
        {
            return Err((
                ErrorCode::BadInvite,
                "this tournament is by invitation: register_invited with its code".into(),
            ));
        }
        if self.state.entrant_of(&player.player).is_some() {
            return Err((
                ErrorCode::AlreadyRegistered,
                "you are registered in this tournament".into(),
            ));
        }
        // An account is one player, whichever of its sessions registers (another device's
        // session is another player id).
        if let Some(account) = &account
            && self
                .state
                .entrants
                .iter()
                .any(|e| !e.unregistered && e.accounts.iter().any(|(_, a)| a == account))
        {
            return Err((
                ErrorCode::AlreadyRegistered,
                "your account is registered in this tournament (from another session)".into(),
            ));
        }
        let at_ms = crate::ids::unix_ms();
        if let Some(code) = partner_code {
            let entrant = self
                .state
                .entrants
                .iter()
                .find(|e| e.code.as_deref() == Some(code.as_str()))
                .map(|e| e.id);
            let Some(entrant) = entrant else {
                // A code that was good once is told apart from a mistyped one.
                return Err(if self.state.spent_codes.contains(&code) {
                    (
                        ErrorCode::EntrantComplete,
                        "that partner code's entrant is complete, or has left the list".to_owned(),
                    )
                } else {
                    (
                        ErrorCode::UnknownPartnerCode,
                        "no entrant of this tournament has that partner code".to_owned(),
                    )
                });
            };
            let bot = self.state.entrants[entrant as usize].bot;
            let registered = TournamentEntry::Registered {
                entrant,
                player: player.clone(),
                bot,
                code: None,
                at_ms,
            };
            self.log(with_account(registered, entrant, &player, account))
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
        let code = (self.state.settings.kind.players() > 1).then(|| {
            burraco_protocol::cards::to_hex(&crate::ids::random_bytes::<4>()).to_uppercase()
        });
        let registered = TournamentEntry::Registered {
            entrant,
            player: player.clone(),
            bot,
            code: code.clone(),
            at_ms,
        };
        self.log(with_account(registered, entrant, &player, account))
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
        let entrant = self.state.entrant_of(player).map(|e| e.id).ok_or((
            ErrorCode::NotRegistered,
            "you are not registered in this tournament".to_owned(),
        ))?;
        if self.state.started() {
            // Leaving after the start is abandoning (art. 36).
            if self.state.finished || self.state.entrants[entrant as usize].gone() {
                return Err((
                    ErrorCode::RoundInPlay,
                    "you are no longer in play in this tournament".into(),
                ));
            }
            return self
                .leave_event(
                    entrant,
                    Leaving::Abandonment,
                    "abandoned the tournament".into(),
                )
                .await;
        }
        self.log(vec![TournamentEntry::Unregistered {
            entrant,
            at_ms: crate::ids::unix_ms(),
        }])
        .await?;
        Ok(())
    }

    /// A Sit&Go starts as soon as its list is full of complete entrants.
    pub(super) async fn start_if_full(&mut self) {
        if self.state.paused {
            return;
        }
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

    /// A player of a registered entrant checks in (lists with check-in, before the start).
    pub(super) async fn check_in(&mut self, player: &str) -> Result<(), Refusal> {
        let entrant = self.state.entrant_of(player).map(|e| e.id).ok_or((
            ErrorCode::NotRegistered,
            "you are not registered in this tournament".to_owned(),
        ))?;
        if self.state.started() {
            return Err((ErrorCode::RoundInPlay, "the tournament has started".into()));
        }
        if self.state.entrants[entrant as usize].checked_in {
            return Ok(());
        }
        self.log(vec![TournamentEntry::CheckedIn {
            entrant,
            at_ms: crate::ids::unix_ms(),
        }])
        .await
    }

    /// A team's player sets the team's line-up for the rounds started from now on (RULES.md
    /// section 11: a team's pairs may change between matches).
    pub(super) async fn set_lineup(&mut self, player: &str, order: &[u8]) -> Result<(), Refusal> {
        let entrant = self.state.entrant_of(player).map(|e| e.id).ok_or((
            ErrorCode::NotRegistered,
            "you are not registered in this tournament".to_owned(),
        ))?;
        if self.state.settings.kind != Kind::Teams {
            return Err((
                ErrorCode::InvalidMessage,
                "only a teams event has line-ups".into(),
            ));
        }
        let order = burraco_protocol::tournament_log::lineup(order).ok_or((
            ErrorCode::InvalidMessage,
            "a line-up is the team's four players, 0 to 3, each once".to_owned(),
        ))?;
        if self.state.finished || self.state.end_requested {
            return Err((ErrorCode::RoundInPlay, "the tournament is over".into()));
        }
        self.log(vec![TournamentEntry::LineupSet {
            entrant,
            order,
            at_ms: crate::ids::unix_ms(),
        }])
        .await
    }
}
