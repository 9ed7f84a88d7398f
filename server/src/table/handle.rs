//! The table's outside: the [`TableHandle`] everyone holds, the closed set of [`Command`]s it
//! carries over a bounded queue, the [`Request`] each command answers, and the one conversion of a
//! client's table request into its command ([`TableRequest`]).

use std::sync::{Arc, Mutex};

use burraco_bot::Level;
use burraco_protocol::ErrorCode;
use burraco_protocol::log::SeatAccount;
use burraco_protocol::wire::{ClientMessage, SeatIdentity, ServerMessage, TableSummary};
use burraco_rules::{Action, Seat};
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

use crate::outbound::Outbox;

/// A request from a connection (or driver): the reply goes to `out`, in order with the table's
/// events, then `done` fires so the requester may send its next request.
#[derive(Debug)]
pub struct Request {
    pub id: u64,
    pub out: Outbox,
    pub done: oneshot::Sender<()>,
    pub received: std::time::Instant,
}

impl Request {
    pub(super) fn reply(self, message: ServerMessage) {
        self.out.send_message(message);
        let _ = self.done.send(());
    }

    pub(super) fn error(self, code: ErrorCode, message: impl Into<String>) {
        self.refuse(code, message.into(), None);
    }

    /// A typed refusal, with the rule that refused it for an illegal action.
    pub(super) fn refuse(self, code: ErrorCode, message: String, rule: Option<String>) {
        let id = self.id;
        metrics::counter!("burraco_errors_total", "code" => code.as_str()).increment(1);
        self.reply(ServerMessage::Error {
            id: Some(id),
            code: code.as_str().to_owned(),
            message,
            rule,
        });
    }
}

/// A client's request for a table as the client sent it, and who sent it: how every request of a
/// connection reaches a table, on this node or (its frame forwarded) on the node serving it, where
/// it is read once ([`TableRequest::into_command`]).
#[derive(Debug)]
pub struct TableRequest {
    pub message: ClientMessage,
    pub player: String,
    /// The player's name (a join and a chat line show it).
    pub name: String,
    /// The signed-in account of the connection (`None`: a guest, or a server bot): a join logs
    /// it with the seat.
    pub account: Option<SeatAccount>,
    /// The connection's address, when its node knows it (a server bot has none): the
    /// same-address signal notes an account's at its joins (`crate::moderation::addresses`),
    /// and it travels with a forwarded join so the table's node learns it in a cluster.
    pub address: Option<std::net::IpAddr>,
    pub req: Request,
}

impl TableRequest {
    /// The table's command for the request: the one place a client's table request becomes a
    /// [`Command`] (every move, whatever its kind, through the protocol's reading of it as a rules
    /// action). A request that is not a table's gives its [`Request`] back, to be refused.
    pub fn into_command(self) -> Result<Command, Request> {
        use ClientMessage as C;
        let TableRequest {
            message,
            player,
            name,
            account,
            req,
            ..
        } = self;
        let message = match message.into_table_action() {
            Ok(act) => {
                return Ok(Command::Act {
                    player,
                    action: act.action,
                    req,
                });
            }
            Err(message) => message,
        };
        Ok(match message {
            // By id or by invite code: the lobby found the table (and refused a private one
            // asked by id).
            C::Join { seat, .. } => Command::Join {
                player,
                name,
                account,
                seat: seat.map(|s| s.0),
                created: None,
                req,
            },
            // Quick play found this table: the first free seat.
            C::QuickPlay { .. } => Command::Join {
                player,
                name,
                account,
                seat: None,
                created: None,
                req,
            },
            C::Leave { .. } => Command::Leave { player, req },
            C::Ready { .. } => Command::Ready { player, req },
            C::Spectate { .. } => Command::Spectate { req },
            C::Sync { last_seq, .. } => Command::Sync {
                player,
                last_seq,
                req,
            },
            C::Chat { text, phrase, .. } => Command::Chat {
                player,
                name,
                text,
                phrase,
                req,
            },
            C::AddBots { level, .. } => Command::AddBots {
                player,
                level: level.map(crate::bots::level_from_wire),
                req,
            },
            C::Report {
                seat,
                seq,
                reason,
                note,
                ..
            } => Command::Report {
                player,
                account,
                seat: seat.map(|s| s.0),
                seq,
                reason,
                note,
                req,
            },
            _ => return Err(req),
        })
    }
}

/// What a table can be asked. Closed: the actor answers exactly these.
#[derive(Debug)]
pub enum Command {
    /// A client's request, read by the table into one of the commands below.
    Request(TableRequest),
    /// Take a seat (`seat` or the first free one). `created` is `Some(invite)` when this join is
    /// the creator's (at the table it just created here): the reply is then `table_created`.
    Join {
        player: String,
        name: String,
        /// The signed-in account taking the seat, logged with it.
        account: Option<SeatAccount>,
        seat: Option<Seat>,
        created: Option<Option<String>>,
        req: Request,
    },
    Leave {
        player: String,
        req: Request,
    },
    Ready {
        player: String,
        req: Request,
    },
    Spectate {
        req: Request,
    },
    Act {
        player: String,
        action: Action,
        req: Request,
    },
    Sync {
        player: String,
        last_seq: u64,
        req: Request,
    },
    Chat {
        player: String,
        name: String,
        text: Option<String>,
        phrase: Option<String>,
        req: Request,
    },
    /// A seated player of a waiting table fills the free seats with server bots of `level`
    /// (`None`: the table's level, else expert).
    AddBots {
        player: String,
        level: Option<Level>,
        req: Request,
    },
    /// A resumed session's new connection takes over the player's seat.
    Attach {
        player: String,
        out: Outbox,
    },
    /// A connection closed.
    Detach {
        player: String,
        conn: u64,
    },
    /// Cluster mode: this node lost the table's lease; stop serving it at once.
    StepDown,
    /// Its tournament scored the match without it (a late arrival past the limit, an
    /// abandonment, an expulsion): the table closes where it stands.
    Close,
    /// Its tournament's director paused play (`paused`) or resumed it, at `at_ms` (the
    /// tournament's own time of it, Unix ms): the table stops or restarts its clocks.
    TournamentPause {
        paused: bool,
        at_ms: i64,
    },
    /// A player or spectator reports a seat's player (`seat`) or a chat line (`seq`) to the
    /// moderators (protocol 1.7): the table adds the context it keeps.
    Report {
        player: String,
        /// The reporter's account: only accounts report.
        account: Option<SeatAccount>,
        seat: Option<Seat>,
        seq: Option<u64>,
        reason: String,
        note: Option<String>,
        req: Request,
    },
    /// A connection of the bot account an arena seat is held for, under another session than
    /// the one the seat names (a new connection after the bot's program restarted, or the
    /// server did): the seat becomes this session's player's, and the connection takes it
    /// (`crate::arena::reclaim`, after the welcome).
    Claim {
        player: String,
        name: String,
        account: SeatAccount,
        out: Outbox,
    },
    /// The arena match's table before this one ended: this one's turn came, and its match must
    /// start by `deadline_ms` (Unix ms).
    ArenaTurn {
        deadline_ms: i64,
    },
    /// Quick play brings the players waiting at table `from` here (`crate::quick_play`): a
    /// seat each is held for them, or none (not enough free seats, the match started...). The
    /// seats held, by player, answer on `reply`.
    HoldMoved {
        from: String,
        movers: Vec<Mover>,
        reply: oneshot::Sender<Option<Vec<(String, Seat)>>>,
    },
    /// Table `to` holds these seats for this table's players: they leave, each told where they
    /// sit now (1.9 `quick_play_moved`), unless they are no longer exactly this table's players
    /// (then `to` is asked to let the seats go).
    MoveOut {
        to: String,
        seats: Vec<(String, Seat)>,
    },
    /// Seats held here for players whose move did not happen go, unless taken meanwhile.
    ReleaseHeld {
        players: Vec<String>,
    },
}

/// A player quick play may move to another table: who, under what name, with which account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mover {
    pub player: String,
    pub name: String,
    pub account: Option<SeatAccount>,
}

impl Command {
    /// The player and request of a seated player's request through a connection (a join is
    /// not one yet; a spectator's has no player).
    pub fn request_of_player(&self) -> Option<(&str, &Request)> {
        match self {
            Command::Leave { player, req }
            | Command::Ready { player, req }
            | Command::Act { player, req, .. }
            | Command::Sync { player, req, .. }
            | Command::Chat { player, req, .. }
            | Command::AddBots { player, req, .. }
            | Command::Report { player, req, .. } => Some((player, req)),
            // Read into its command first.
            Command::Request(_)
            | Command::Join { .. }
            | Command::Spectate { .. }
            | Command::Attach { .. }
            | Command::Detach { .. }
            | Command::StepDown
            | Command::Close
            | Command::TournamentPause { .. }
            | Command::Claim { .. }
            | Command::ArenaTurn { .. }
            | Command::HoldMoved { .. }
            | Command::MoveOut { .. }
            | Command::ReleaseHeld { .. } => None,
        }
    }
}

/// What the lobby shows of a table, kept current by the actor.
#[derive(Debug, Clone, PartialEq)]
pub struct TableInfo {
    pub summary: TableSummary,
    pub private: bool,
    pub free_seats: usize,
    pub waiting: bool,
    /// The match is over: the table lingers for `sync` and its records, out of the lobby.
    pub finished: bool,
    /// While waiting: the seats not ready yet (their players have not come).
    pub absent: Vec<Seat>,
    /// Hands of the match finished so far.
    pub hands_finished: u32,
    /// Players sit here and none of them is connected (they closed their tabs and their seats
    /// wait out the grace): quick play does not seat a newcomer beside them.
    pub deserted: bool,
    /// A rated table (protocol 1.5).
    pub rated: bool,
    /// The account of each seat an account holds, by seat index (the lobby's levels).
    pub accounts: Vec<(u8, String)>,
    /// Who holds each occupied seat (1.6 `seat_identities`).
    pub identities: Vec<SeatIdentity>,
    /// When the table was created (Unix ms).
    pub created_ms: i64,
    /// The ids of the players seated (bots included), by seat order: quick play tells a seat it
    /// promised from one taken by the same look at the table.
    pub players: Vec<String>,
    /// A table quick play opened, still waiting, whose players all read 1.9 and are connected:
    /// quick play may move them to another table of the kind (`crate::quick_play`). Empty
    /// otherwise.
    pub movers: Vec<Mover>,
}

/// Why a table did not take a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unavailable {
    /// Its queue is full.
    Busy,
    /// It has stopped.
    Closed,
}

/// A cloneable handle on a table actor.
#[derive(Debug, Clone)]
pub struct TableHandle {
    pub(super) id: Arc<str>,
    /// Boxed commands: a channel allocates its slots 32 at a time, and a `Command` is ~150
    /// bytes, so unboxed that was ~5 KB per table whether it was busy or not.
    pub(super) tx: mpsc::Sender<Box<Command>>,
    pub(super) info: Arc<Mutex<TableInfo>>,
}

impl TableHandle {
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Queues a command without waiting; fails when the table is busy or gone.
    pub fn try_send(&self, command: Command) -> Result<(), Unavailable> {
        self.tx.try_send(Box::new(command)).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => Unavailable::Busy,
            mpsc::error::TrySendError::Closed(_) => Unavailable::Closed,
        })
    }

    /// Queues a command, waiting for room (for messages that must not be lost, like a detach);
    /// false when the table is gone.
    pub async fn send(&self, command: Command) -> bool {
        self.tx.send(Box::new(command)).await.is_ok()
    }

    /// A handle whose queue is read by a forwarder to the node serving the table (cluster
    /// mode), with the lobby's `info` of the table.
    pub fn forwarding(id: &str, tx: mpsc::Sender<Box<Command>>, info: TableInfo) -> TableHandle {
        TableHandle {
            id: id.into(),
            tx,
            info: Arc::new(Mutex::new(info)),
        }
    }

    /// Whether the queue's reader (actor or forwarder) has stopped.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Replaces what the handle knows of the table (a forwarder's, from the lobby).
    pub fn set_info(&self, info: TableInfo) {
        *self.info.lock().unwrap_or_else(|e| e.into_inner()) = info;
    }

    pub fn info(&self) -> TableInfo {
        self.info.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// [`TableHandle::info`], only when `wanted` says so of it: a scan of every table (quick
    /// play's) copies only the ones it keeps.
    pub fn info_if(&self, wanted: impl FnOnce(&TableInfo) -> bool) -> Option<TableInfo> {
        let info = self.info.lock().unwrap_or_else(|e| e.into_inner());
        wanted(&info).then(|| info.clone())
    }
}
