//! What a tournament can be asked, and the handle that asks it: a player's own requests, the
//! director's (parsed in [`super::director_request`]), the actor's closed set of commands over a bounded queue.

use std::sync::{Arc, Mutex};

use burraco_protocol::ErrorCode;
use burraco_protocol::tournament_log::EntrantPlayer;
use tokio::sync::{mpsc, oneshot};

use super::{DirectorAction, Refusal, Summary};

/// What a player asks for itself (no director token).
#[derive(Debug)]
pub enum PlayerRequest {
    CheckIn,
    Unregister,
    /// Hear the updates without being an entrant (`watch_tournament`).
    Watch,
    /// A team's line-up (`set_lineup`).
    SetLineup {
        order: Vec<u8>,
    },
}

/// What a tournament can be asked. Closed: the actor answers exactly these.
#[derive(Debug)]
pub enum Command {
    Register {
        player: EntrantPlayer,
        partner_code: Option<String>,
        bot: bool,
        /// The invitation code given (`register_invited`).
        invite: Option<String>,
        /// The registering connection's signed-in account (`None`: a guest): logged with the
        /// player (`TournamentEntry::EntrantAccount`); a rated tournament takes accounts only.
        account: Option<String>,
        reply: oneshot::Sender<Result<(u32, Option<String>), Refusal>>,
    },
    /// A player's own request, answered `ok` or refused.
    Player {
        player: String,
        request: PlayerRequest,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Answered with the invitation code for `DirectorAction::Registration`, else `None`.
    Director {
        token: String,
        action: DirectorAction,
        reply: oneshot::Sender<Result<Option<String>, Refusal>>,
    },
    /// Cluster mode: this node lost the tournament's lease; stop serving it at once.
    StepDown,
    /// One of its tables ended (its match finished, in its log): read it and score it.
    TableEnded { table: String },
    /// A line to the tournament's chat (1.7, `chat.rs`).
    Chat {
        speaker: super::chat::Speaker,
        text: String,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// The chat's recent lines (1.7).
    ChatHistory {
        reply: oneshot::Sender<Result<Vec<burraco_protocol::wire::TournamentChatLine>, Refusal>>,
    },
    /// A chat line reported by the player `reporter` (1.8, `chat.rs`): the line with its
    /// context, to file.
    ReportLine {
        reporter: String,
        line: u64,
        reply: oneshot::Sender<Result<super::chat::ReportedLine, Refusal>>,
    },
}

#[derive(Debug, Clone)]
pub struct TournamentHandle {
    pub(super) id: Arc<str>,
    pub(super) tx: mpsc::Sender<Command>,
    pub(super) summary: Arc<Mutex<Summary>>,
}

impl TournamentHandle {
    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn summary(&self) -> Summary {
        self.summary
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Sends a command and waits for its answer; a busy or stopped tournament refuses.
    pub async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, Refusal>>) -> Command,
    ) -> Result<T, Refusal> {
        let (tx, rx) = oneshot::channel();
        if self.tx.try_send(make(tx)).is_err() {
            return Err((ErrorCode::TableBusy, "the tournament is busy; retry".into()));
        }
        rx.await.unwrap_or_else(|_| {
            Err((
                ErrorCode::InternalError,
                "the tournament stopped before answering".into(),
            ))
        })
    }
}
