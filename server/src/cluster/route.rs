//! Requests for a table served by another node, and that node's frames back.
//!
//! On the node a player is connected to, a table served elsewhere has an ordinary
//! [`TableHandle`] whose queue is read by a forwarder task instead of an actor: each command is
//! sent with NATS request-reply to `burraco.node.<owner>.table`, and the owner answers once the
//! command is in the table's queue (or that the table is busy or not there). A connection that
//! sent a command through a forwarder is registered here under its id, and the owner sends it
//! frames on `burraco.conn.<node>.<conn>`.
//!
//! On the owner, such a connection is stood in for by an ordinary [`Outbox`] whose reader publishes
//! what the table queues, so the table serves local and remote players the same way. When the
//! table kicks a stand-in (a slow reader, a takeover, the table stopping here), the connection is
//! kicked on its own node and its client resumes, through any node, at whichever node then serves
//! the table.
//!
//! A forwarder also watches its table's lease: when the owner changes (it died, drained or lost
//! the table), it kicks the connections it forwarded for, so their clients resume at the new owner.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_nats::Client;
use burraco_protocol::ErrorCode;
use burraco_protocol::codec;
use burraco_protocol::wire::{ClientMessage, ServerMessage};
use burraco_rules::Seat;
use dashmap::DashMap;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

use crate::Shared;
use crate::outbound::{Frame, Kicked, Outbox};
use crate::table::{Command, Request, TableHandle, TableInfo, Unavailable};

/// How long a forwarded command waits for the owner to take it.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(3);

fn table_subject(node: &str) -> String {
    format!("burraco.node.{node}.table")
}

fn conn_subject(node: &str, conn: u64) -> String {
    format!("burraco.conn.{node}.{conn}")
}

/// A command on its way to the node serving its table.
#[derive(Debug, Serialize, Deserialize)]
struct Forwarded {
    table: String,
    /// The node and connection the replies and events go to.
    origin: String,
    conn: u64,
    command: Wire,
}

/// [`Command`] without its in-process parts (the request's queue and completion).
#[derive(Debug, Serialize, Deserialize)]
enum Wire {
    Join {
        id: u64,
        player: String,
        name: String,
        seat: Option<u8>,
        created: Option<Option<String>>,
    },
    Leave {
        id: u64,
        player: String,
    },
    Ready {
        id: u64,
        player: String,
    },
    Spectate {
        id: u64,
    },
    /// A move, as the client's request in the binary wire format.
    Act {
        player: String,
        request: Vec<u8>,
    },
    Sync {
        id: u64,
        player: String,
        last_seq: u64,
    },
    Chat {
        id: u64,
        player: String,
        name: String,
        text: Option<String>,
        phrase: Option<String>,
    },
    AddBots {
        id: u64,
        player: String,
        level: Option<String>,
    },
    Attach {
        player: String,
    },
    Detach {
        player: String,
    },
    /// A tournament closes a table whose match it scored without it.
    Close,
}

/// The owner's answer to a forwarded command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum Answer {
    Queued,
    Busy,
    NotHere,
}

/// What an owner sends a connection of another node.
#[derive(Debug, Serialize, Deserialize)]
enum ToConn {
    /// Server messages in the binary wire format, in order.
    Frames(Vec<Vec<u8>>),
    /// The table dropped the connection, for this reason.
    Kick(KickWire),
}

/// [`Kicked`] on the wire.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
enum KickWire {
    TooSlow,
    TakenOver,
    Moved,
}

impl KickWire {
    fn of(why: Option<Kicked>) -> KickWire {
        match why {
            Some(Kicked::TakenOver) => KickWire::TakenOver,
            Some(Kicked::Moved) => KickWire::Moved,
            // A revoked token's kick is its own node's (accounts::live), never relayed.
            Some(Kicked::TooSlow | Kicked::TokenRevoked) | None => KickWire::TooSlow,
        }
    }

    fn kicked(self) -> Kicked {
        match self {
            KickWire::TooSlow => Kicked::TooSlow,
            KickWire::TakenOver => Kicked::TakenOver,
            KickWire::Moved => Kicked::Moved,
        }
    }
}

/// This node's side of the routing.
#[derive(Debug)]
pub struct Router {
    client: Client,
    node: String,
    /// This node's connections that other nodes' tables send frames to.
    conns: DashMap<u64, Outbox>,
    /// Tables served elsewhere: their forwarders' handles.
    remote: DashMap<String, TableHandle>,
    /// Outboxes standing in for other nodes' connections at this node's tables.
    stand_ins: Mutex<HashMap<(String, u64), Outbox>>,
    /// Seats this node's connections resumed while their table was between owners (its attach
    /// reached nobody), by table: attached once a node lists the table again.
    pending_attach: Mutex<HashMap<String, Vec<(String, Outbox)>>>,
}

impl Router {
    pub fn new(client: Client, node: &str) -> Router {
        Router {
            client,
            node: node.to_owned(),
            conns: DashMap::new(),
            remote: DashMap::new(),
            stand_ins: Mutex::new(HashMap::new()),
            pending_attach: Mutex::new(HashMap::new()),
        }
    }

    /// Remembers an attach that reached no owner, to send when the table is listed again.
    fn hold_attach(&self, table: &str, player: String, out: Outbox) {
        let mut pending = self
            .pending_attach
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let held = pending.entry(table.to_owned()).or_default();
        held.retain(|(p, o)| !o.is_gone() && *p != player);
        held.push((player, out));
    }

    /// A node listed `table` (its owner wrote its listing): the attaches held for it, whose
    /// connections are still open, are sent to whoever serves it now.
    pub fn table_listed(&self, shared: &Arc<Shared>, table: &str) {
        let held = {
            let mut pending = self
                .pending_attach
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if pending.is_empty() {
                return;
            }
            pending.retain(|_, held| {
                held.retain(|(_, o)| !o.is_gone());
                !held.is_empty()
            });
            pending.remove(table)
        };
        let Some(held) = held else { return };
        let (shared, table) = (shared.clone(), table.to_owned());
        shared.tracker.clone().spawn(async move {
            let Some(handle) = crate::lobby::find(&shared, &table).await else {
                return;
            };
            for (player, out) in held {
                handle.send(Command::Attach { player, out }).await;
            }
        });
    }

    /// A connection of this node closed: frames for it are dropped from now on.
    pub fn forget_conn(&self, conn: u64) {
        self.conns.remove(&conn);
    }

    /// A table ended: its forwarder stops.
    pub fn forget_table(&self, table: &str) {
        self.remote.remove(table);
    }

    /// The handle of a table served by `owner` (another node), with the lobby's `info` of it.
    pub fn remote_table(
        &self,
        shared: &Arc<Shared>,
        cluster: &Arc<super::Cluster>,
        table: &str,
        owner: &str,
        info: TableInfo,
    ) -> TableHandle {
        if let Some(handle) = self.remote.get(table)
            && !handle.is_closed()
        {
            handle.set_info(info);
            return handle.clone();
        }
        let (tx, rx) = mpsc::channel(shared.config.table_queue);
        let handle = TableHandle::forwarding(table, tx, info);
        self.remote.insert(table.to_owned(), handle.clone());
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

    /// Serves this node's side: commands for its tables, frames for its connections. Returns
    /// when the server shuts down.
    pub async fn serve(
        shared: Arc<Shared>,
        cluster: Arc<super::Cluster>,
    ) -> Result<(), async_nats::SubscribeError> {
        let router = &cluster.router;
        let mut commands = router.client.subscribe(table_subject(&router.node)).await?;
        let mut frames = router
            .client
            .subscribe(format!("burraco.conn.{}.*", router.node))
            .await?;
        let stop = shared.shutdown.clone();
        loop {
            tokio::select! {
                _ = stop.cancelled() => return Ok(()),
                Some(message) = commands.next() => {
                    let answer = match postcard::from_bytes::<Forwarded>(&message.payload) {
                        Ok(forwarded) => router.take_command(&shared, forwarded),
                        Err(e) => {
                            tracing::warn!("a forwarded command does not decode: {e}");
                            Answer::NotHere
                        }
                    };
                    if let Some(reply) = message.reply {
                        let bytes = postcard::to_stdvec(&answer).expect("an answer encodes");
                        let _ = router.client.publish(reply, bytes.into()).await;
                    }
                }
                Some(message) = frames.next() => router.deliver(&message.subject, &message.payload),
                else => return Ok(()),
            }
        }
    }

    /// Frames from an owner to one of this node's connections.
    fn deliver(&self, subject: &str, payload: &[u8]) {
        let Some(conn) = subject
            .rsplit('.')
            .next()
            .and_then(|c| c.parse::<u64>().ok())
        else {
            return;
        };
        let Some(out) = self.conns.get(&conn).map(|o| o.value().clone()) else {
            return;
        };
        match postcard::from_bytes::<ToConn>(payload) {
            Ok(ToConn::Frames(frames)) => {
                let frames = frames
                    .iter()
                    .filter_map(|bytes| {
                        codec::from_binary::<ServerMessage>(bytes, usize::MAX)
                            .result
                            .ok()
                    })
                    .map(Frame::new)
                    .collect();
                out.send_batch(frames);
            }
            Ok(ToConn::Kick(why)) => out.kick_for(why.kicked()),
            Err(e) => tracing::warn!(conn, "frames from another node do not decode: {e}"),
        }
    }

    /// A command from another node for one of this node's tables: queued, or why not.
    fn take_command(&self, shared: &Arc<Shared>, forwarded: Forwarded) -> Answer {
        let Some(handle) = shared.directory.table(&forwarded.table) else {
            return Answer::NotHere;
        };
        if let Wire::Close = forwarded.command {
            return match handle.try_send(Command::Close) {
                Ok(()) => Answer::Queued,
                Err(Unavailable::Busy) => Answer::Busy,
                Err(Unavailable::Closed) => Answer::NotHere,
            };
        }
        let out = self.stand_in(shared, &forwarded.origin, forwarded.conn);
        let request = |id: u64| Request {
            id,
            out: out.clone(),
            // The origin's request is answered by the frames; completion is not awaited here.
            done: oneshot::channel().0,
            received: std::time::Instant::now(),
        };
        let command = match forwarded.command {
            Wire::Join {
                id,
                player,
                name,
                seat,
                created,
            } => Command::Join {
                player,
                name,
                seat: seat.and_then(|s| Seat::ALL.get(usize::from(s)).copied()),
                created,
                req: request(id),
            },
            Wire::Leave { id, player } => Command::Leave {
                player,
                req: request(id),
            },
            Wire::Ready { id, player } => Command::Ready {
                player,
                req: request(id),
            },
            Wire::Spectate { id } => Command::Spectate { req: request(id) },
            Wire::Act {
                player,
                request: bytes,
            } => {
                let action = codec::from_binary::<ClientMessage>(&bytes, usize::MAX)
                    .result
                    .ok()
                    .and_then(|m| m.into_table_action().ok());
                let Some(action) = action else {
                    return Answer::NotHere;
                };
                Command::Act {
                    player,
                    action: action.action,
                    req: request(action.id),
                }
            }
            Wire::Sync {
                id,
                player,
                last_seq,
            } => Command::Sync {
                player,
                last_seq,
                req: request(id),
            },
            Wire::Chat {
                id,
                player,
                name,
                text,
                phrase,
            } => Command::Chat {
                player,
                name,
                text,
                phrase,
                req: request(id),
            },
            Wire::AddBots { id, player, level } => Command::AddBots {
                player,
                level: level.as_deref().and_then(burraco_bot::Level::from_code),
                req: request(id),
            },
            Wire::Attach { player } => Command::Attach { player, out },
            Wire::Close => Command::Close,
            Wire::Detach { player } => {
                self.stand_ins_lock()
                    .remove(&(forwarded.origin.clone(), forwarded.conn));
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

    fn stand_ins_lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, u64), Outbox>> {
        self.stand_ins.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The outbox standing in for connection `conn` of node `origin`.
    fn stand_in(&self, shared: &Arc<Shared>, origin: &str, conn: u64) -> Outbox {
        let key = (origin.to_owned(), conn);
        if let Some(out) = self.stand_ins_lock().get(&key)
            && !out.is_kicked()
        {
            return out.clone();
        }
        let (out, mut inbox, kicked) =
            Outbox::channel(shared.next_conn_id(), shared.config.outbound_queue);
        self.stand_ins_lock().insert(key, out.clone());
        let client = self.client.clone();
        let subject = conn_subject(origin, conn);
        let reason = out.kick_reason();
        shared.tracker.spawn(async move {
            loop {
                let first = tokio::select! {
                    biased;
                    _ = kicked.cancelled() => {
                        let why = KickWire::of(reason.get());
                        let bytes = postcard::to_stdvec(&ToConn::Kick(why)).expect("a kick encodes");
                        let _ = client.publish(subject, bytes.into()).await;
                        return;
                    }
                    frame = inbox.recv() => frame,
                };
                let Some(first) = first else { return };
                let mut frames = vec![first.binary().to_vec()];
                while let Some(frame) = inbox.try_recv() {
                    frames.push(frame.binary().to_vec());
                }
                let bytes = postcard::to_stdvec(&ToConn::Frames(frames)).expect("frames encode");
                if client.publish(subject.clone(), bytes.into()).await.is_err() {
                    return;
                }
            }
        });
        out
    }
}

/// Sends one remote table's commands to the node serving it.
struct Forwarder {
    shared: Arc<Shared>,
    cluster: Arc<super::Cluster>,
    table: String,
    /// The node serving the table (its subject).
    owner: String,
    /// The lease's holder (`<node>/<process>`) when first checked: a change, even to a restarted
    /// process of the same node, means the table was rebuilt and the connections must resume.
    holder: Option<String>,
    /// This node's connections that sent commands to the table: kicked when its owner changes.
    forwarded_for: HashSet<u64>,
}

impl Forwarder {
    async fn run(mut self, mut rx: mpsc::Receiver<Box<Command>>) {
        let cluster = self.cluster.clone();
        let check_every = cluster.leases.duration() / 2;
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
        let router = &cluster.router;
        for conn in self.forwarded_for.drain() {
            if let Some(out) = router.conns.get(&conn) {
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
                router.remote.remove(&self.table);
                false
            }
        }
    }

    async fn forward(&mut self, command: Command) {
        let cluster = self.cluster.clone();
        let router = &cluster.router;
        let table = self.table.clone();
        let detached = match &command {
            Command::Detach { conn, .. } => Some(*conn),
            _ => None,
        };
        let attaching = match &command {
            Command::Attach { player, out } => Some((player.clone(), out.clone())),
            _ => None,
        };
        let Some((wire, out, req)) = to_wire(command, &table) else {
            return;
        };
        if let Some(out) = &out {
            router.conns.insert(out.id(), out.clone());
        }
        // A close comes from no connection: conn 0, which no stand-in is made for.
        let closing = matches!(wire, Wire::Close).then_some(0);
        let Some(conn) = out.as_ref().map(Outbox::id).or(detached).or(closing) else {
            return;
        };
        let payload = postcard::to_stdvec(&Forwarded {
            table,
            origin: router.node.clone(),
            conn,
            command: wire,
        })
        .expect("a command encodes");
        let mut answer = if self.owner.is_empty() {
            None
        } else {
            self.send(&cluster, &payload).await
        };
        if !matches!(answer, Some(Answer::Queued | Answer::Busy)) {
            // The owner did not take it: the table may have moved. Look now (the connections
            // sent to the old owner are moved on), and give the new owner the command.
            let before = self.owner.clone();
            if self.owner_still_serves().await && self.owner != before {
                answer = self.send(&cluster, &payload).await;
            }
        }
        // Only a connection the owner took a command from has anything there to lose.
        if let (Some(out), Some(Answer::Queued)) = (&out, answer) {
            self.forwarded_for.insert(out.id());
        }
        // A resume while the table is between owners: attached when it is served again, with
        // nothing asked of the client.
        if let (Some((player, out)), false) = (attaching, matches!(answer, Some(Answer::Queued))) {
            router.hold_attach(&self.table, player, out);
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
}

impl Forwarder {
    /// One request to the owner: its answer, or `None` (no answer in time, nobody listening).
    async fn send(&self, cluster: &super::Cluster, payload: &[u8]) -> Option<Answer> {
        let request = cluster
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

/// A command's wire form, the connection it came from, and its request (to complete here).
fn to_wire(command: Command, table: &str) -> Option<(Wire, Option<Outbox>, Option<Request>)> {
    let seat_index = |s: Seat| s.index() as u8;
    Some(match command {
        Command::Join {
            player,
            name,
            seat,
            created,
            req,
        } => (
            Wire::Join {
                id: req.id,
                player,
                name,
                seat: seat.map(seat_index),
                created,
            },
            Some(req.out.clone()),
            Some(req),
        ),
        Command::Leave { player, req } => (
            Wire::Leave { id: req.id, player },
            Some(req.out.clone()),
            Some(req),
        ),
        Command::Ready { player, req } => (
            Wire::Ready { id: req.id, player },
            Some(req.out.clone()),
            Some(req),
        ),
        Command::Spectate { req } => (
            Wire::Spectate { id: req.id },
            Some(req.out.clone()),
            Some(req),
        ),
        Command::Act {
            player,
            action,
            req,
        } => (
            Wire::Act {
                player,
                request: codec::to_binary(&ClientMessage::action(&action, req.id, table)),
            },
            Some(req.out.clone()),
            Some(req),
        ),
        Command::Sync {
            player,
            last_seq,
            req,
        } => (
            Wire::Sync {
                id: req.id,
                player,
                last_seq,
            },
            Some(req.out.clone()),
            Some(req),
        ),
        Command::Chat {
            player,
            name,
            text,
            phrase,
            req,
        } => (
            Wire::Chat {
                id: req.id,
                player,
                name,
                text,
                phrase,
            },
            Some(req.out.clone()),
            Some(req),
        ),
        Command::AddBots { player, level, req } => (
            Wire::AddBots {
                id: req.id,
                player,
                level: level.map(|l| l.code().to_owned()),
            },
            Some(req.out.clone()),
            Some(req),
        ),
        Command::Attach { player, out } => (Wire::Attach { player }, Some(out), None),
        // The stand-in on the owner is found by this node's connection id: `Forwarded::conn`.
        Command::Detach { player, conn: _ } => (Wire::Detach { player }, None, None),
        // A node's own decision about its own table, never forwarded.
        Command::StepDown => return None,
        // A tournament closes a table it scored without it, on whichever node serves it.
        Command::Close => (Wire::Close, None, None),
    })
}
