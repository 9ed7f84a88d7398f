//! A connection's tournament requests (protocol 1.1): refused on a connection whose hello said
//! 1.0, so such a client never gets a reply it cannot read; otherwise routed to the tournament's
//! actor (in cluster mode, the node serving it), the answer sent on the connection's queue.

use std::sync::Arc;

use burraco_protocol::ErrorCode;
use burraco_protocol::tournament_log::EntrantPlayer;
use burraco_protocol::wire::{ClientMessage, ServerMessage};

use super::director_request::{DirectorAction, DirectorRequest, Parsed, with_account};
use super::{Command, PlayerRequest, Refusal};
use crate::Shared;
use crate::outbound::Outbox;
use crate::session::Session;

/// Answers one tournament request on `out`. In cluster mode a request for a tournament another
/// node serves is answered by that node. `account`: the connection's signed-in account, which
/// directs the tournaments it creates without their token (its director requests carry it from
/// here on, forwarded included: [`with_account`]).
pub async fn handle(
    shared: &Arc<Shared>,
    session: &Session,
    account: Option<&str>,
    minor: u16,
    out: &Outbox,
    request: ClientMessage,
) {
    let request = super::chat::with_account(with_account(request, account), account);
    // A muted account's or guest's chat line goes nowhere (checked here, where the account is known).
    if let (Some(refused), Some(id)) = (
        super::chat::muted(shared, account, &session.player, &request).await,
        request.id(),
    ) {
        out.send_message(refusal(id, refused));
        return;
    }
    if let Some(reply) = reply(shared, session, account, minor, request, true).await {
        out.send_message(reply);
    }
}

/// The answer to a request forwarded by another node for a tournament this node serves (never
/// forwarded again: a tournament that moved meanwhile is refused as busy, and retried).
/// `account`: the signed-in account of the connection on the first node, which a registration
/// logs with its player.
pub async fn reply_here(
    shared: &Arc<Shared>,
    session: &Session,
    account: Option<&str>,
    minor: u16,
    request: ClientMessage,
) -> ServerMessage {
    let id = request.id();
    // Never a creation (no tournament to forward to), and its director field is as the first
    // node wrote it.
    reply(shared, session, account, minor, request, false)
        .await
        .unwrap_or_else(|| {
            ServerMessage::error(id, ErrorCode::InvalidMessage, "not a request", None)
        })
}

async fn reply(
    shared: &Arc<Shared>,
    session: &Session,
    account: Option<&str>,
    minor: u16,
    request: ClientMessage,
    may_forward: bool,
) -> Option<ServerMessage> {
    let id = request.id()?;
    if request.minor() > minor {
        return Some(refusal(
            id,
            (
                ErrorCode::NeedsMinor,
                format!(
                    "{} is a 1.{} request; your hello said 1.{minor}",
                    request.kind(),
                    request.minor()
                ),
            ),
        ));
    }
    let answered = match elsewhere(shared, &request, may_forward).await {
        Ok(Some(owner)) => {
            let peers = &shared.backplane.peers;
            peers
                .forward_tournament(&owner, session, account, minor, &request)
                .await
        }
        Ok(None) => answer(shared, session, account, request).await,
        Err(refused) => Err(refused),
    };
    Some(match answered {
        Ok(message) => {
            debug_assert!(message.minor() <= minor);
            message
        }
        Err(refused) => refusal(id, refused),
    })
}

/// The node serving the request's tournament, when it is another.
async fn elsewhere(
    shared: &Arc<Shared>,
    request: &ClientMessage,
    may_forward: bool,
) -> Result<Option<String>, Refusal> {
    let Some(tournament) = tournament_of(request) else {
        return Ok(None);
    };
    let backplane = &shared.backplane;
    if shared.tournaments.get(tournament).is_some() {
        return Ok(None);
    }
    let moving = || {
        (
            ErrorCode::TableBusy,
            "the tournament is moving to another node; retry".to_owned(),
        )
    };
    let holder = if burraco_protocol::tournament_log::is_tournament(tournament) {
        backplane
            .leases
            .holder(tournament)
            .await
            .map_err(|_| moving())?
    } else {
        None
    };
    match holder {
        Some(node) => {
            if node == backplane.node.name() || !may_forward {
                // Leased here but not running yet (being rebuilt), or it moved again.
                Err(moving())
            } else {
                Ok(Some(node))
            }
        }
        // Nobody serves it: unknown (answered here), or between owners (its log is in play).
        None if backplane.log.is_in_play(tournament).await.unwrap_or(false) => Err(moving()),
        None => Ok(None),
    }
}

/// The tournament a request names (every tournament request but `create_tournament`).
fn tournament_of(request: &ClientMessage) -> Option<&str> {
    use ClientMessage as C;
    match request {
        C::RegisterTournament { tournament, .. }
        | C::RegisterInvited { tournament, .. }
        | C::CheckInTournament { tournament, .. }
        | C::ConfigureRegistration { tournament, .. }
        | C::PauseTournament { tournament, .. }
        | C::ResumeTournament { tournament, .. }
        | C::WarnEntrant { tournament, .. }
        | C::DisqualifyEntrant { tournament, .. }
        | C::ForbidPairing { tournament, .. }
        | C::SeatEntrants { tournament, .. }
        | C::SetRoundTime { tournament, .. }
        | C::UnregisterTournament { tournament, .. }
        | C::StartRound { tournament, .. }
        | C::AdjustScore { tournament, .. }
        | C::WithdrawEntrant { tournament, .. }
        | C::EndTournament { tournament, .. }
        | C::ExcuseEntrant { tournament, .. }
        | C::SetLineup { tournament, .. }
        | C::WatchTournament { tournament, .. }
        | C::TournamentChat { tournament, .. }
        | C::TournamentChatHistory { tournament, .. }
        | C::TournamentReport { tournament, .. } => Some(tournament),
        _ => None,
    }
}

fn refusal(id: u64, (code, message): Refusal) -> ServerMessage {
    metrics::counter!("burraco_errors_total", "code" => code.as_str()).increment(1);
    ServerMessage::error(Some(id), code, message, None)
}

async fn answer(
    shared: &Arc<Shared>,
    session: &Session,
    account: Option<&str>,
    request: ClientMessage,
) -> Result<ServerMessage, Refusal> {
    use ClientMessage as C;
    let find = |tournament: &str| {
        shared.tournaments.get(tournament).ok_or((
            ErrorCode::UnknownTournament,
            format!("no tournament {tournament:?}"),
        ))
    };
    // A player's own request: answered `ok`.
    let as_player = |id: u64, tournament: String, request: PlayerRequest| async move {
        let player = session.player.clone();
        find(&tournament)?
            .ask(|reply| Command::Player {
                player,
                request,
                reply,
            })
            .await
            .map(|()| ServerMessage::Ok { id })
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
                account: account.map(str::to_owned),
                reply,
            })
            .await
            .map(|(entrant, partner_code)| (tournament, entrant, partner_code))
    };
    let request = match DirectorRequest::parse(request) {
        Parsed::Request(request) => return direct(shared, request).await,
        Parsed::Malformed { error, .. } => return Err(error.refusal()),
        Parsed::Other(request) => request,
    };
    match request {
        C::CreateTournament { id, settings } => {
            let (tournament, director_token) = super::create(shared, &settings, account).await?;
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
            as_player(id, tournament, PlayerRequest::CheckIn).await
        }
        C::UnregisterTournament { id, tournament } => {
            as_player(id, tournament, PlayerRequest::Unregister).await
        }
        C::WatchTournament { id, tournament } => {
            as_player(id, tournament, PlayerRequest::Watch).await
        }
        C::SetLineup {
            id,
            tournament,
            order,
        } => as_player(id, tournament, PlayerRequest::SetLineup { order }).await,
        C::TournamentChat {
            id,
            tournament,
            director,
            text,
        } => {
            let speaker = super::chat::Speaker {
                player: session.player.clone(),
                name: session.name.clone(),
                account: account.map(str::to_owned),
                director,
            };
            find(&tournament)?
                .ask(|reply| Command::Chat {
                    speaker,
                    text,
                    reply,
                })
                .await
                .map(|()| ServerMessage::Ok { id })
        }
        C::TournamentChatHistory { id, tournament } => {
            let lines = find(&tournament)?
                .ask(|reply| Command::ChatHistory { reply })
                .await?;
            Ok(ServerMessage::TournamentChatLines {
                id,
                tournament,
                lines,
            })
        }
        C::TournamentReport {
            id,
            tournament,
            line,
            reason,
            note,
        } => {
            let reporter = (session.player.as_str(), account);
            let at = (id, tournament.as_str());
            super::chat::report(shared, reporter, at, line, &reason, note.as_deref()).await
        }
        other => Err((
            ErrorCode::InvalidMessage,
            format!("{} is not a tournament request", other.kind()),
        )),
    }
}

/// A director's request, well formed, asked of its tournament: answered `ok`, or for
/// `configure_registration` with the list's invitation code.
async fn direct(shared: &Arc<Shared>, request: DirectorRequest) -> Result<ServerMessage, Refusal> {
    let DirectorRequest {
        id,
        tournament,
        token,
        action,
    } = request;
    let configures = matches!(action, DirectorAction::Registration(_));
    let handle = shared.tournaments.get(&tournament).ok_or((
        ErrorCode::UnknownTournament,
        format!("no tournament {tournament:?}"),
    ))?;
    let invite = handle
        .ask(|reply| Command::Director {
            token,
            action,
            reply,
        })
        .await?;
    Ok(if configures {
        ServerMessage::RegistrationConfigured {
            id,
            tournament,
            invite,
        }
    } else {
        ServerMessage::Ok { id }
    })
}
