//! Tournaments across nodes. A tournament is served by one node at a time, like a table: the
//! holder of its lease (`burraco_owners`, key the tournament's id), which runs its actor and
//! writes its log. The other nodes:
//!
//! - forward their connections' requests for it to that node (`burraco.node.<node>.tournament`,
//!   request-reply; the request and its reply travel in the protocol's binary encoding), and
//!   answer with what it answered;
//! - deliver what it tells a player whose connection they hold: the owner publishes a message
//!   for a player it has no connection of on `burraco.player.<player>`, and the node holding the
//!   player's latest connection delivers it (checking the message's minor version there); a
//!   player connecting announces itself on `burraco.arrived.<player>`, and the node of its
//!   tournament tells it again where to play (a `go_to_table` sent while it was away);
//! - list it from the KV bucket `burraco_tournaments` (`summary.<id>`, written by the owner when
//!   the summary changes), and keep a duplicate board's hand records out of their hand-record
//!   routes while the owner's `embargo.<commitment>` key is there.
//!
//! A node that dies or drains leaves the lease to lapse or releases it, and the node that takes
//! it rebuilds the tournament from its log (`tournament::restore`), as a restart would.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use async_nats::jetstream::{self, kv};
use axum::body::Bytes;
use burraco_protocol::ErrorCode;
use burraco_protocol::codec;
use burraco_protocol::wire::{ClientMessage, ServerMessage};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::{ClusterError, jetstream_error};
use crate::Shared;
use crate::config::ClusterConfig;
use crate::outbound::Frame;
use crate::session::Session;
use crate::tournament::{Refusal, Summary};

pub const TOURNAMENT_BUCKET: &str = "burraco_tournaments";
/// How long a forwarded request waits for the owner's answer (a register waits for its append).
const FORWARD_TIMEOUT: Duration = Duration::from_secs(5);
/// Messages for players on other nodes waiting to be published; past this, dropped (the
/// player's next update, or a resume's welcome, tells them where things stand).
const RELAY_QUEUE: usize = 65_536;

fn request_subject(node: &str) -> String {
    format!("burraco.node.{node}.tournament")
}

/// Player ids are the server's own (`p-` and hex); anything else is not a subject token.
fn is_token(player: &str) -> bool {
    !player.is_empty()
        && player
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A connection's tournament request on its way to the owner.
#[derive(Debug, Serialize, Deserialize)]
struct Call {
    player: String,
    name: String,
    minor: u16,
    /// The request in the binary wire format.
    request: Vec<u8>,
    /// The connection's signed-in account (a registration logs it). Last: a node from before
    /// it reads a call without looking past `request` (postcard ignores what follows), and
    /// this node reads an older node's call as [`OlderCall`].
    account: Option<String>,
}

/// A call as nodes before the account was carried sent it.
#[derive(Debug, Serialize, Deserialize)]
struct OlderCall {
    player: String,
    name: String,
    minor: u16,
    request: Vec<u8>,
}

impl Call {
    fn decode(bytes: &[u8]) -> Option<Call> {
        postcard::from_bytes::<Call>(bytes).ok().or_else(|| {
            let older = postcard::from_bytes::<OlderCall>(bytes).ok()?;
            Some(Call {
                player: older.player,
                name: older.name,
                minor: older.minor,
                request: older.request,
                account: None,
            })
        })
    }
}

/// A tournament's listing as the owner writes it.
#[derive(Debug, Serialize, Deserialize)]
struct Listed {
    name: String,
    kind: String,
    status: String,
    entrants: usize,
    round: u32,
    rounds: u32,
}

/// This node's side of the tournaments of the cluster.
#[derive(Debug)]
pub struct Remote {
    client: async_nats::Client,
    node: String,
    kv: kv::Store,
    /// (subject, payload) to publish, in order.
    relay: mpsc::Sender<(String, Bytes)>,
    relay_rx: std::sync::Mutex<Option<mpsc::Receiver<(String, Bytes)>>>,
}

impl Remote {
    pub async fn open(
        client: async_nats::Client,
        js: &jetstream::Context,
        config: &ClusterConfig,
    ) -> Result<Remote, ClusterError> {
        let kv = js
            .create_or_update_key_value(super::bucket(TOURNAMENT_BUCKET, config.replicas))
            .await
            .map_err(jetstream_error)?;
        let (relay, relay_rx) = mpsc::channel(RELAY_QUEUE);
        Ok(Remote {
            client,
            node: config.node.clone(),
            kv,
            relay,
            relay_rx: std::sync::Mutex::new(Some(relay_rx)),
        })
    }

    /// Queues a message for `player`, whose connection is not on this node.
    pub fn tell(&self, player: &str, frame: &Frame) {
        if is_token(player) {
            self.relay_out(format!("burraco.player.{player}"), frame.binary().clone());
        }
    }

    /// `player` connected to this node: the node of its tournament tells it where to play.
    pub fn arrived(&self, player: &str) {
        if is_token(player) {
            self.relay_out(format!("burraco.arrived.{player}"), Bytes::new());
        }
    }

    /// A table of `tournament` ended; the node serving the tournament tells it.
    pub fn table_ended(&self, tournament: &str, table: &str) {
        if is_token(tournament) {
            let table = Bytes::copy_from_slice(table.as_bytes());
            self.relay_out(format!("burraco.ended.{tournament}"), table);
        }
    }

    fn relay_out(&self, subject: String, payload: Bytes) {
        if self.relay.try_send((subject, payload)).is_err() {
            tracing::warn!("the tournament relay is full: a message is dropped");
        }
    }

    /// The owner's request to its tournament, answered as the owner answered it.
    pub async fn forward(
        &self,
        owner: &str,
        session: &Session,
        account: Option<&str>,
        minor: u16,
        request: &ClientMessage,
    ) -> Result<ServerMessage, Refusal> {
        let call = Call {
            player: session.player.clone(),
            name: session.name.clone(),
            minor,
            request: codec::to_binary(request),
            account: account.map(str::to_owned),
        };
        let bytes = postcard::to_stdvec(&call).expect("a call encodes");
        let busy = || {
            (
                ErrorCode::TableBusy,
                "the tournament's node did not answer; retry".to_owned(),
            )
        };
        let reply = tokio::time::timeout(
            FORWARD_TIMEOUT,
            self.client.request(request_subject(owner), bytes.into()),
        )
        .await
        .map_err(|_| busy())?
        .map_err(|_| busy())?;
        codec::from_binary::<ServerMessage>(&reply.payload, usize::MAX)
            .result
            .map_err(|_| busy())
    }

    /// The owner writes its tournament's listing (when it changed).
    pub async fn list(&self, id: &str, summary: &Summary) {
        let listed = Listed {
            name: summary.name.clone(),
            kind: summary.kind.clone(),
            status: summary.status.to_owned(),
            entrants: summary.entrants,
            round: summary.round,
            rounds: summary.rounds,
        };
        let json = serde_json::to_vec(&listed).expect("a listing serializes");
        if let Err(e) = self.kv.put(format!("summary.{id}"), json.into()).await {
            tracing::warn!(tournament = id, "cannot list the tournament: {e}");
        }
    }

    /// Every tournament's listing, as `(id, summary)`.
    pub async fn listed(&self) -> Result<Vec<(String, Summary)>, ClusterError> {
        let mut keys = self.kv.keys().await.map_err(jetstream_error)?;
        let mut ids = Vec::new();
        while let Some(key) = keys.next().await {
            let key = key.map_err(jetstream_error)?;
            if let Some(id) = key.strip_prefix("summary.") {
                ids.push(id.to_owned());
            }
        }
        let mut listed = Vec::new();
        for id in ids {
            let Some(bytes) = self
                .kv
                .get(format!("summary.{id}"))
                .await
                .map_err(jetstream_error)?
            else {
                continue;
            };
            let Ok(l) = serde_json::from_slice::<Listed>(&bytes) else {
                continue;
            };
            let status = match l.status.as_str() {
                "registering" => "registering",
                "playing" => "playing",
                _ => "finished",
            };
            listed.push((
                id,
                Summary {
                    name: l.name,
                    kind: l.kind,
                    status,
                    entrants: l.entrants,
                    round: l.round,
                    rounds: l.rounds,
                },
            ));
        }
        Ok(listed)
    }

    /// The owner keeps a duplicate board's records from every node's routes (`on`), or lets
    /// them out.
    pub async fn set_embargo(&self, commitment: &str, on: bool) {
        let key = format!("embargo.{commitment}");
        let failed = if on {
            self.kv
                .put(key, Bytes::from_static(b"1"))
                .await
                .err()
                .map(|e| e.to_string())
        } else {
            self.kv.purge(key).await.err().map(|e| e.to_string())
        };
        if let Some(e) = failed {
            tracing::warn!(commitment, "cannot write a board's embargo: {e}");
        }
    }

    /// Of `commitments`, those under embargo somewhere in the cluster. When the bucket cannot
    /// be read, all of them: a board's records are never let out on a doubt.
    pub async fn embargoed(&self, commitments: &[String]) -> HashSet<String> {
        let mut hidden = HashSet::new();
        for c in commitments {
            match self.kv.get(format!("embargo.{c}")).await {
                Ok(None) => {}
                Ok(Some(_)) | Err(_) => {
                    hidden.insert(c.clone());
                }
            }
        }
        hidden
    }
}

/// Serves this node's side until shutdown: the requests other nodes forward to the tournaments
/// it serves, the messages other nodes' tournaments send its connections, and the relay of its
/// own tournaments' messages to players connected elsewhere.
pub async fn serve(
    shared: Arc<Shared>,
    cluster: Arc<super::Cluster>,
) -> Result<(), async_nats::SubscribeError> {
    let remote = &cluster.tournaments;
    let mut requests = remote
        .client
        .subscribe(request_subject(&remote.node))
        .await?;
    let mut messages = remote.client.subscribe("burraco.player.*").await?;
    let mut arrivals = remote.client.subscribe("burraco.arrived.*").await?;
    let mut ended = remote.client.subscribe("burraco.ended.*").await?;
    let relay_rx = remote
        .relay_rx
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    if let Some(mut relay_rx) = relay_rx {
        let client = remote.client.clone();
        let stop = shared.shutdown.clone();
        shared.tracker.spawn(async move {
            loop {
                let next = tokio::select! {
                    _ = stop.cancelled() => return,
                    next = relay_rx.recv() => next,
                };
                let Some((subject, bytes)) = next else { return };
                let _ = client.publish(subject, bytes).await;
            }
        });
    }
    let stop = shared.shutdown.clone();
    loop {
        tokio::select! {
            _ = stop.cancelled() => return Ok(()),
            Some(message) = requests.next() => {
                let shared = shared.clone();
                let client = remote.client.clone();
                // Each request waits for its tournament's answer: none holds up the others.
                tokio::spawn(async move {
                    let Some(reply) = message.reply else { return };
                    let answer = match Call::decode(&message.payload) {
                        Some(call) => answer(&shared, call).await,
                        None => ServerMessage::error(
                            None,
                            ErrorCode::InternalError,
                            "a forwarded request does not decode",
                            None,
                        ),
                    };
                    let _ = client.publish(reply, codec::to_binary(&answer).into()).await;
                });
            }
            Some(message) = messages.next() => {
                let Some(player) = message.subject.as_str().strip_prefix("burraco.player.") else {
                    continue;
                };
                if let Ok(m) = codec::from_binary::<ServerMessage>(&message.payload, usize::MAX).result {
                    shared.tournaments.tell_here(player, &Frame::new(m));
                }
            }
            Some(message) = arrivals.next() => {
                if let Some(player) = message.subject.as_str().strip_prefix("burraco.arrived.") {
                    shared.tournaments.arrived_elsewhere(player);
                }
            }
            Some(message) = ended.next() => {
                let tournament = message.subject.as_str().strip_prefix("burraco.ended.");
                if let (Some(tournament), Ok(table)) = (tournament, std::str::from_utf8(&message.payload)) {
                    shared.tournaments.table_ended_here(tournament, table);
                }
            }
            else => return Ok(()),
        }
    }
}

async fn answer(shared: &Arc<Shared>, call: Call) -> ServerMessage {
    let request = match codec::from_binary::<ClientMessage>(&call.request, usize::MAX).result {
        Ok(request) => request,
        Err(_) => {
            return ServerMessage::error(
                None,
                ErrorCode::InternalError,
                "a forwarded request does not decode",
                None,
            );
        }
    };
    let session = Session {
        player: call.player,
        name: call.name,
        account: call.account.clone(),
    };
    let account = call.account.as_deref();
    crate::tournament::requests::reply_here(shared, &session, account, call.minor, request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nodes of two builds side by side (a rolling upgrade): each reads the other's calls.
    #[test]
    fn a_call_with_the_account_and_an_older_call_read_both_ways() {
        let call = Call {
            player: "p-1".into(),
            name: "Anna".into(),
            minor: 7,
            request: vec![1, 2, 3],
            account: Some("u-0123456789abcdef".into()),
        };
        let bytes = postcard::to_stdvec(&call).expect("encodes");
        let read = Call::decode(&bytes).expect("a call");
        assert_eq!(read.account.as_deref(), Some("u-0123456789abcdef"));
        // An older node reads the fields it knows and ignores the account after them.
        let older: OlderCall = postcard::from_bytes(&bytes).expect("an older node reads it");
        assert_eq!(
            (older.player.as_str(), older.request),
            ("p-1", vec![1, 2, 3])
        );
        // An older node's call reads as a call without an account.
        let older = OlderCall {
            player: "p-2".into(),
            name: "Bruno".into(),
            minor: 6,
            request: vec![4],
        };
        let read = Call::decode(&postcard::to_stdvec(&older).expect("encodes")).expect("a call");
        assert_eq!(
            (read.player.as_str(), read.minor, read.account),
            ("p-2", 6, None)
        );
    }
}
