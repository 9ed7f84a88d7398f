//! A connection's tournament requests (protocol 1.1): refused on a connection whose hello said
//! 1.0, so such a client never gets a reply it cannot read; otherwise routed to the tournament's
//! actor, the answer sent on the connection's queue.

use std::sync::Arc;

use burraco_protocol::ErrorCode;
use burraco_protocol::tournament_log::EntrantPlayer;
use burraco_protocol::wire::{ClientMessage, ServerMessage};

use super::{Command, DirectorAction, Refusal};
use crate::outbound::Outbox;
use crate::{Session, Shared};

/// Answers one tournament request on `out`.
pub async fn handle(
    shared: &Arc<Shared>,
    session: &Session,
    minor: u16,
    out: &Outbox,
    request: ClientMessage,
) {
    let Some(id) = request.id() else { return };
    if request.minor() > minor {
        refuse(
            out,
            id,
            (
                ErrorCode::NeedsMinor,
                format!(
                    "{} is a 1.{} request; your hello said 1.{minor}",
                    request.kind(),
                    request.minor()
                ),
            ),
        );
        return;
    }
    match answer(shared, session, request).await {
        Ok(message) => {
            debug_assert!(message.minor() <= minor);
            out.send_message(message);
        }
        Err(refusal) => refuse(out, id, refusal),
    }
}

fn refuse(out: &Outbox, id: u64, (code, message): Refusal) {
    metrics::counter!("burraco_errors_total", "code" => code.as_str()).increment(1);
    out.send_message(ServerMessage::error(Some(id), code, message, None));
}

async fn answer(
    shared: &Arc<Shared>,
    session: &Session,
    request: ClientMessage,
) -> Result<ServerMessage, Refusal> {
    use ClientMessage as C;
    let find = |tournament: &str| {
        shared.tournaments.get(tournament).ok_or((
            ErrorCode::UnknownTournament,
            format!("no tournament {tournament:?}"),
        ))
    };
    let director = |id: u64, tournament: String, token: String, action: DirectorAction| async move {
        find(&tournament)?
            .ask(|reply| Command::Director {
                token,
                action,
                reply,
            })
            .await
            .map(|_| ServerMessage::Ok { id })
    };
    let register = |tournament: String, partner_code, bot: Option<bool>, invite| async move {
        let player = EntrantPlayer {
            player: session.player.clone(),
            name: session.name.clone(),
        };
        find(&tournament)?
            .ask(|reply| Command::Register {
                player,
                partner_code,
                bot: bot.unwrap_or(false),
                invite,
                reply,
            })
            .await
            .map(|(entrant, partner_code)| (tournament, entrant, partner_code))
    };
    match request {
        C::CreateTournament { id, settings } => {
            let (tournament, director_token) = super::create(shared, &settings).await?;
            Ok(ServerMessage::TournamentCreated {
                id,
                tournament,
                director_token,
            })
        }
        C::RegisterTournament {
            id,
            tournament,
            partner_code,
            bot,
        } => {
            let (tournament, entrant, partner_code) =
                register(tournament, partner_code, bot, None).await?;
            Ok(ServerMessage::TournamentRegistered {
                id,
                tournament,
                entrant,
                partner_code,
            })
        }
        C::RegisterInvited {
            id,
            tournament,
            invite,
            partner_code,
            bot,
        } => {
            let (tournament, entrant, partner_code) =
                register(tournament, partner_code, bot, Some(invite)).await?;
            Ok(ServerMessage::TournamentRegistered {
                id,
                tournament,
                entrant,
                partner_code,
            })
        }
        C::CheckInTournament { id, tournament } => {
            let player = session.player.clone();
            find(&tournament)?
                .ask(|reply| Command::CheckIn { player, reply })
                .await?;
            Ok(ServerMessage::Ok { id })
        }
        C::ConfigureRegistration {
            id,
            tournament,
            director: token,
            registration,
        } => {
            let invite = find(&tournament)?
                .ask(|reply| Command::Director {
                    token,
                    action: DirectorAction::Registration(registration),
                    reply,
                })
                .await?;
            Ok(ServerMessage::RegistrationConfigured {
                id,
                tournament,
                invite,
            })
        }
        C::PauseTournament {
            id,
            tournament,
            director: token,
        } => director(id, tournament, token, DirectorAction::Pause).await,
        C::ResumeTournament {
            id,
            tournament,
            director: token,
        } => director(id, tournament, token, DirectorAction::Resume).await,
        C::WarnEntrant {
            id,
            tournament,
            director: token,
            entrant,
            reason,
        } => {
            let action = DirectorAction::Warn { entrant, reason };
            director(id, tournament, token, action).await
        }
        C::DisqualifyEntrant {
            id,
            tournament,
            director: token,
            entrant,
            reason,
        } => {
            let action = DirectorAction::Disqualify { entrant, reason };
            director(id, tournament, token, action).await
        }
        C::ForbidPairing {
            id,
            tournament,
            director: token,
            entrants,
        } => {
            let action = DirectorAction::Forbid { entrants };
            director(id, tournament, token, action).await
        }
        C::SeatEntrants {
            id,
            tournament,
            director: token,
            order,
        } => director(id, tournament, token, DirectorAction::Seat { order }).await,
        C::SetRoundTime {
            id,
            tournament,
            director: token,
            round_secs,
        } => {
            let action = DirectorAction::RoundTime { secs: round_secs };
            director(id, tournament, token, action).await
        }
        C::UnregisterTournament { id, tournament } => {
            let player = session.player.clone();
            find(&tournament)?
                .ask(|reply| Command::Unregister { player, reply })
                .await?;
            Ok(ServerMessage::Ok { id })
        }
        C::StartRound {
            id,
            tournament,
            director: token,
        } => director(id, tournament, token, DirectorAction::StartRound).await,
        C::AdjustScore {
            id,
            tournament,
            director: token,
            entrant,
            vp,
            reason,
        } => {
            let action = DirectorAction::Adjust {
                entrant,
                vp,
                reason,
            };
            director(id, tournament, token, action).await
        }
        C::WithdrawEntrant {
            id,
            tournament,
            director: token,
            entrant,
            reason,
        } => {
            let action = DirectorAction::Withdraw { entrant, reason };
            director(id, tournament, token, action).await
        }
        C::EndTournament {
            id,
            tournament,
            director: token,
        } => director(id, tournament, token, DirectorAction::End).await,
        other => Err((
            ErrorCode::InvalidMessage,
            format!("{} is not a tournament request", other.kind()),
        )),
    }
}
