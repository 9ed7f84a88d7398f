//! A request for a table another node serves, on its way there. It travels as the client sent it
//! (its frame in the protocol's binary encoding) with who sent it (the node, the connection and
//! its format, the player), as a tournament's requests do, and the table's node reads it once,
//! with the same conversion as its own connections' requests ([`TableRequest::into_command`]).
//! Besides clients' requests a table hears what no client frame says (a resumed connection
//! taking its seat, a connection closed, its tournament closing or pausing it, a bot account's
//! new session claiming its arena seat, the arena telling it its turn came), which travel as
//! themselves.
//!
//! On the node a player is connected to, a table served elsewhere has an ordinary
//! [`TableHandle`] whose queue is read by a [`Forwarder`] instead of an actor: each request is
//! sent with NATS request-reply to `burraco.node.<owner>.table`, and the owner answers once it is
//! in the table's queue (or that the table is busy or not there). A forwarder also watches its
//! table's lease: when the owner changes (it died, drained or lost the table), it moves the
//! connections it forwarded for on (1012), so their clients resume at the new owner.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use burraco_protocol::ErrorCode;
use burraco_protocol::codec;
use burraco_protocol::log::SeatAccount;
use burraco_protocol::wire::ClientMessage;
use burraco_rules::Seat;
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

use super::Cluster;
use crate::Shared;
use crate::outbound::Outbox;
use crate::table::{Command, Request, TableHandle, TableRequest, Unavailable};

/// How long a forwarded request waits for the owner to take it.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(3);

pub(super) fn table_subject(node: &str) -> String {
    format!("burraco.node.{node}.table")
}

/// Something for a table, on its way to the node serving it.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Forwarded {
    table: String,
    /// The node and connection the replies and events go to (0 for none: a close).
    origin: String,
    conn: u64,
    /// The connection reads postcard frames, else JSON text: what its frames are relayed as.
    binary: bool,
    player: String,
    carried: Carried,
}

/// What a [`Forwarded`] carries.
#[derive(Debug, Serialize, Deserialize)]
enum Carried {
    /// A client's request for the table, its frame in the binary encoding, and the player's name.
    Request { name: String, frame: Vec<u8> },
    /// A resumed session's connection takes over the player's seat.
    Attach,
    /// The connection closed.
    Detach,
    /// Its tournament scored the match without it: the table closes where it stands.
    Close,
    /// A signed-in connection's request: as `Request`, with the account a join logs with the
    /// seat (a bot account's seat is shown as a program's on every node). Last, so the
    /// variants before it keep their numbers.
    AccountRequest {
        name: String,
        frame: Vec<u8>,
        account: SeatAccount,
    },
    /// Its tournament paused or resumed play (protocol 1.6). Last, as above.
    TournamentPause { paused: bool, at_ms: i64 },
    /// A signed-in connection's `join` or `quick_play`: as `AccountRequest`, with what only
    /// the connection's node knows: its address (its text), which the table's node notes for
    /// the same-address signal (`crate::moderation::addresses`), and the minor version its
    /// hello said, so the table sends the seat what that minor reads. Only the requests that
    /// take a seat carry them. Last, as above.
    AddressedRequest {
        name: String,
        frame: Vec<u8>,
        account: SeatAccount,
        address: String,
        minor: u16,
    },
    /// A connection of the bot account an arena seat is held for claims the seat for its
    /// session's player (`Command::Claim`). Last, as above.
    Claim { name: String, account: SeatAccount },
    /// The arena match's table before this one ended: this one's start deadline
    /// (`Command::ArenaTurn`). Last, as above.
    ArenaTurn { deadline_ms: i64 },
    /// Quick play moves this table's players to table `to`, which holds these seats for them
    /// (`Command::MoveOut`). Last, as above.
    MoveOut {
        to: String,
        seats: Vec<(String, u8)>,
    },
    /// Seats held for players whose move did not happen go (`Command::ReleaseHeld`). Last, as
    /// above.
    ReleaseHeld { players: Vec<String> },
}

/// The owner's answer to a forwarded request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(super) enum Answer {
    Queued,
    Busy,
    NotHere,
}

/// On the table's node: a forwarded request into the table's queue, or why not.
pub(super) fn take(shared: &Arc<Shared>, cluster: &Cluster, forwarded: Forwarded) -> Answer {
    let Some(handle) = shared.directory.table(&forwarded.table) else {
        return Answer::NotHere;
    };
    let relay = &cluster.router.relay;
    let Forwarded {
        origin,
        conn,
        binary,
        player,
        carried,
        ..
    } = forwarded;
    // A client's frame as the table's request, answered through a stand-in for the origin's
    // connection; `None` when it does not decode (the origin encoded what it had decoded itself,
    // so only a node of another version could send such a frame).
    let request = |player: String,
                   name: String,
                   frame: &[u8],
                   account: Option<SeatAccount>,
                   address: Option<std::net::IpAddr>,
                   minor: Option<u16>| {
        let message = codec::from_binary::<ClientMessage>(frame, usize::MAX)
            .result
            .ok()?;
        let out = match minor {
            Some(minor) => relay.stand_in_reading(shared, &origin, conn, binary, minor),
            None => relay.stand_in(shared, &origin, conn, binary),
        };
        let req = Request {
            id: message.id().unwrap_or_default(),
            out,
            // The origin's request is answered by the frames; completion is not awaited here.
            done: oneshot::channel().0,
            received: std::time::Instant::now(),
        };
        Some(Command::Request(TableRequest {
            message,
            player,
            name,
            account,
            address,
            req,
        }))
    };
    let command = match carried {
        Carried::Close => Command::Close,
        Carried::MoveOut { to, seats } => Command::MoveOut {
            to,
            seats: seats
                .into_iter()
                .filter_map(|(player, seat)| Some((player, *Seat::ALL.get(usize::from(seat))?)))
                .collect(),
        },
        Carried::ReleaseHeld { players } => Command::ReleaseHeld { players },
        Carried::TournamentPause { paused, at_ms } => Command::TournamentPause { paused, at_ms },
        Carried::Request { name, frame } => {
            let Some(command) = request(player, name, &frame, None, None, None) else {
                return Answer::NotHere;
            };
            command
        }
        Carried::AccountRequest {
            name,
            frame,
            account,
        } => {
            let Some(command) = request(player, name, &frame, Some(account), None, None) else {
                return Answer::NotHere;
            };
            command
        }
        Carried::AddressedRequest {
            name,
            frame,
            account,
            address,
            minor,
        } => {
            let address = address.parse().ok();
            let Some(command) = request(player, name, &frame, Some(account), address, Some(minor))
            else {
                return Answer::NotHere;
            };
            command
        }
        Carried::Attach => Command::Attach {
            player,
            out: relay.stand_in(shared, &origin, conn, binary),
        },
        Carried::Claim { name, account } => Command::Claim {
            player,
            name,
            account,
            out: relay.stand_in(shared, &origin, conn, binary),
        },
        Carried::ArenaTurn { deadline_ms } => Command::ArenaTurn { deadline_ms },
        Carried::Detach => {
            let out = relay.stand_in(shared, &origin, conn, binary);
            relay.forget_stand_in(&origin, conn);
            Command::Detach {
                player,
                conn: out.id(),
            }
        }
    };
    match handle.try_send(command) {
        Ok(()) => Answer::Queued,
        Err(Unavailable::Busy) => Answer::Busy,
        Err(Unavailable::Closed) => Answer::NotHere,
    }
}

/// Sends one remote table's requests to the node serving it.
pub(super) struct Forwarder {
    shared: Arc<Shared>,
    cluster: Arc<Cluster>,
    table: String,
    /// The node serving the table (its subject).
    owner: String,
    /// The lease's holder (`<node>/<process>`) when first checked: a change, even to a restarted
    /// process of the same node, means the table was rebuilt and the connections must resume.
    holder: Option<String>,
    /// This node's connections that sent requests to the table: moved on when its owner changes.
    forwarded_for: HashSet<u64>,
}

impl Forwarder {
    /// A forwarder for `table`, served by `owner`, reading the queue of a new handle.
    pub(super) fn start(
        shared: &Arc<Shared>,
        cluster: &Arc<Cluster>,
        table: &str,
        owner: &str,
        info: crate::table::TableInfo,
    ) -> TableHandle {
        let (tx, rx) = mpsc::channel(shared.config.table_queue);
        let handle = TableHandle::forwarding(table, tx, info);
        let forwarder = Forwarder {
            shared: shared.clone(),
            cluster: cluster.clone(),
            table: table.to_owned(),
            owner: owner.to_owned(),
            holder: None,
            forwarded_for: HashSet::new(),
        };
        shared.tracker.spawn(forwarder.run(rx));
        handle
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Box<Command>>) {
        let check_every = self.cluster.leases.duration() / 2;
        let mut check = tokio::time::interval(check_every);
        check.tick().await;
        let stop = self.shared.shutdown.clone();
        loop {
            tokio::select! {
                _ = stop.cancelled() => return,
                command = rx.recv() => match command {
                    Some(command) => self.forward(*command).await,
                    None => return,
                },
                _ = check.tick() => {
                    if !self.owner_still_serves().await {
                        return;
                    }
                }
            }
        }
    }

    /// False once the table has ended (no lease, no listing): the forwarder stops.
    async fn owner_still_serves(&mut self) -> bool {
        let cluster = self.cluster.clone();
        let holder = cluster.leases.holder(&self.table).await.ok().flatten();
        let first = self.holder.is_none();
        if let Some(current) = &holder
            && (first || self.holder.as_ref() == Some(current))
            && super::lease::node_of(current) == self.owner
        {
            self.holder = holder;
            return true;
        }
        // The owner changed or is gone: the connections resume at whoever serves the table now.
        let directory = &cluster.router.directory;
        for conn in self.forwarded_for.drain() {
            if let Some(out) = directory.conn(conn) {
                out.table_moved();
            }
        }
        match holder {
            Some(holder) if super::lease::node_of(&holder) != cluster.node() => {
                self.owner = super::lease::node_of(&holder).to_owned();
                self.holder = Some(holder);
                true
            }
            // Served here now, or by nobody yet: a later lookup makes a new handle.
            _ => {
                directory.forget_remote_table(&self.table);
                false
            }
        }
    }

    async fn forward(&mut self, command: Command) {
        let cluster = self.cluster.clone();
        let router = &cluster.router;
        // What travels, the connection it came from (`conn`: its id, 0 for none) and the request
        // to complete here.
        let (player, carried, out, conn, req) = match command {
            Command::Request(TableRequest {
                message,
                player,
                name,
                account,
                address,
                req,
            }) => {
                let takes_seat = matches!(
                    message,
                    ClientMessage::Join { .. } | ClientMessage::QuickPlay { .. }
                );
                let frame = codec::to_binary(&message);
                let out = req.out.clone();
                let conn = out.id();
                (
                    player,
                    match (account, address) {
                        (Some(account), Some(address)) if takes_seat => Carried::AddressedRequest {
                            name,
                            frame,
                            account,
                            address: address.to_string(),
                            minor: out.minor(),
                        },
                        (Some(account), _) => Carried::AccountRequest {
                            name,
                            frame,
                            account,
                        },
                        (None, _) => Carried::Request { name, frame },
                    },
                    Some(out),
                    conn,
                    Some(req),
                )
            }
            Command::Attach { player, out } => {
                let conn = out.id();
                (player, Carried::Attach, Some(out), conn, None)
            }
            // The stand-in on the owner is found by this node's connection id.
            Command::Detach { player, conn } => (player, Carried::Detach, None, conn, None),
            Command::Close => (String::new(), Carried::Close, None, 0, None),
            Command::Claim {
                player,
                name,
                account,
                out,
            } => {
                let conn = out.id();
                (
                    player,
                    Carried::Claim { name, account },
                    Some(out),
                    conn,
                    None,
                )
            }
            Command::ArenaTurn { deadline_ms } => (
                String::new(),
                Carried::ArenaTurn { deadline_ms },
                None,
                0,
                None,
            ),
            Command::TournamentPause { paused, at_ms } => (
                String::new(),
                Carried::TournamentPause { paused, at_ms },
                None,
                0,
                None,
            ),
            Command::MoveOut { to, seats } => (
                String::new(),
                Carried::MoveOut {
                    to,
                    seats: seats
                        .into_iter()
                        .map(|(player, seat)| (player, seat.index() as u8))
                        .collect(),
                },
                None,
                0,
                None,
            ),
            Command::ReleaseHeld { players } => (
                String::new(),
                Carried::ReleaseHeld { players },
                None,
                0,
                None,
            ),
            // A node's own decision about its own table, never forwarded.
            Command::StepDown => return,
            // Made only on the table's node (by its reading of a request, or by a creator at the
            // table just created there): never queued here. Dropped, its requester is refused.
            other => {
                tracing::warn!(
                    table = self.table,
                    "a typed command for a table served elsewhere: {other:?}"
                );
                return;
            }
        };
        let attaching = matches!(carried, Carried::Attach).then(|| (player.clone(), out.clone()));
        if let Some(out) = &out {
            router.directory.reached_from_elsewhere(out);
        }
        let binary = out.as_ref().is_some_and(Outbox::is_binary);
        let payload = postcard::to_stdvec(&Forwarded {
            table: self.table.clone(),
            origin: router.node.clone(),
            conn,
            binary,
            player,
            carried,
        })
        .expect("a forwarded request encodes");
        let mut answer = if self.owner.is_empty() {
            None
        } else {
            self.send(&payload).await
        };
        if !matches!(answer, Some(Answer::Queued | Answer::Busy)) {
            // The owner did not take it: the table may have moved. Look now (the connections
            // sent to the old owner are moved on), and give the new owner the request.
            let before = self.owner.clone();
            if self.owner_still_serves().await && self.owner != before {
                answer = self.send(&payload).await;
            }
        }
        // Only a connection the owner took a request from has anything there to lose.
        if let (Some(out), Some(Answer::Queued)) = (&out, answer) {
            self.forwarded_for.insert(out.id());
        }
        // A resume while the table is between owners: attached when it is served again, with
        // nothing asked of the client.
        if let (Some((player, Some(out))), false) =
            (attaching, matches!(answer, Some(Answer::Queued)))
        {
            router.directory.hold_attach(&self.table, player, out);
        }
        let Some(req) = req else { return };
        match answer {
            Some(Answer::Queued) => {
                let _ = req.done.send(());
            }
            Some(Answer::Busy) => refuse(req, ErrorCode::TableBusy, "the table is busy: retry"),
            _ => refuse(
                req,
                ErrorCode::ShuttingDown,
                "the table is moving to another server: resume and retry",
            ),
        }
    }

    /// One request to the owner: its answer, or `None` (no answer in time, nobody listening).
    async fn send(&self, payload: &[u8]) -> Option<Answer> {
        let request = self
            .cluster
            .router
            .client
            .request(table_subject(&self.owner), payload.to_vec().into());
        tokio::time::timeout(FORWARD_TIMEOUT, request)
            .await
            .ok()
            .and_then(Result::ok)
            .and_then(|reply| postcard::from_bytes::<Answer>(&reply.payload).ok())
    }
}

fn refuse(req: Request, code: ErrorCode, message: &str) {
    req.out
        .send_message(crate::conn::error(Some(req.id), code, message));
    let _ = req.done.send(());
}
