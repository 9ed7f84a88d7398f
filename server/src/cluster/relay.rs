//! Frames from a table to a connection of another node. On the table's node an ordinary
//! [`Outbox`] stands in for the connection, so the table serves local and remote players the
//! same way; its reader publishes what the table queues on `burraco.conn.<node>.<conn>`, already
//! encoded in the connection's format (postcard or JSON, as its hello chose), and the
//! connection's node writes those bytes to its socket as they are: nothing is decoded or encoded
//! again on the way. When the table kicks a stand-in (a slow reader, a takeover, the table
//! stopping here) the kick travels the same way, and the connection is kicked on its own node.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_nats::Client;
use axum::body::Bytes;
use serde::{Deserialize, Serialize};

use super::peer_directory::PeerDirectory;
use crate::Shared;
use crate::outbound::{Frame, Kicked, Outbox};

pub(super) fn conn_subject(node: &str, conn: u64) -> String {
    format!("burraco.conn.{node}.{conn}")
}

/// What a table's node sends a connection of another node.
#[derive(Debug, Serialize, Deserialize)]
enum ToConn<'a> {
    /// Server messages in order, each encoded for the connection.
    Frames(#[serde(borrow)] Vec<&'a [u8]>),
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
            // A revoked token's or ended session's kick is its own node's (accounts::live),
            // never relayed, and so is a barred account's (moderation::connections).
            Some(
                Kicked::TooSlow | Kicked::TokenRevoked | Kicked::AccountBarred | Kicked::SignedOut,
            )
            | None => KickWire::TooSlow,
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

/// The frames' bytes as the connection reads them.
fn encoded(frame: &Frame, binary: bool) -> &[u8] {
    if binary {
        frame.binary()
    } else {
        frame.json().as_str().as_bytes()
    }
}

/// The table's side: the stand-ins of other nodes' connections at this node's tables.
#[derive(Debug)]
pub(super) struct Relay {
    client: Client,
    /// By (node, connection).
    stand_ins: Mutex<HashMap<(String, u64), Outbox>>,
}

impl Relay {
    pub(super) fn new(client: Client) -> Relay {
        Relay {
            client,
            stand_ins: Mutex::new(HashMap::new()),
        }
    }

    fn stand_ins(&self) -> std::sync::MutexGuard<'_, HashMap<(String, u64), Outbox>> {
        self.stand_ins.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The stand-in for connection `conn` of node `origin` (as [`Relay::stand_in`]), told the
    /// minor version its hello said (a seat-taking request carries it), so the table sends it
    /// what that minor reads (`same_address`, `table_paused`), as to its own connections.
    pub(super) fn stand_in_reading(
        &self,
        shared: &Arc<Shared>,
        origin: &str,
        conn: u64,
        binary: bool,
        minor: u16,
    ) -> Outbox {
        let out = self
            .stand_in(shared, origin, conn, binary)
            .with_minor(minor);
        self.stand_ins()
            .insert((origin.to_owned(), conn), out.clone());
        out
    }

    /// The outbox standing in for connection `conn` of node `origin`, which reads `binary`
    /// (postcard) frames or JSON text.
    pub(super) fn stand_in(
        &self,
        shared: &Arc<Shared>,
        origin: &str,
        conn: u64,
        binary: bool,
    ) -> Outbox {
        let key = (origin.to_owned(), conn);
        if let Some(out) = self.stand_ins().get(&key)
            && !out.is_kicked()
        {
            return out.clone();
        }
        let (out, mut inbox, kicked) =
            Outbox::channel(shared.next_conn_id(), shared.config.outbound_queue);
        let out = out.in_format(binary);
        self.stand_ins().insert(key, out.clone());
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
                let mut frames = vec![first];
                while let Some(frame) = inbox.try_recv() {
                    frames.push(frame);
                }
                let bytes = frames.iter().map(|f| encoded(f, binary)).collect();
                let bytes = postcard::to_stdvec(&ToConn::Frames(bytes)).expect("frames encode");
                if client.publish(subject.clone(), bytes.into()).await.is_err() {
                    return;
                }
            }
        });
        out
    }

    /// The connection `conn` of node `origin` closed: its stand-in goes.
    pub(super) fn forget_stand_in(&self, origin: &str, conn: u64) {
        self.stand_ins().remove(&(origin.to_owned(), conn));
    }
}

/// The connection's side: frames (or a kick) from a table's node for one of this node's
/// connections, named by the subject's last token.
pub(super) fn deliver(directory: &PeerDirectory, subject: &str, payload: &Bytes) {
    let Some(conn) = subject
        .rsplit('.')
        .next()
        .and_then(|c| c.parse::<u64>().ok())
    else {
        return;
    };
    let Some(out) = directory.conn(conn) else {
        return;
    };
    match postcard::from_bytes::<ToConn>(payload) {
        Ok(ToConn::Frames(frames)) => {
            let binary = out.is_binary();
            let frames = frames
                .into_iter()
                .filter_map(|bytes| Frame::relayed(payload.slice_ref(bytes), binary))
                .collect();
            out.send_batch(frames);
        }
        Ok(ToConn::Kick(why)) => out.kick_for(why.kicked()),
        Err(e) => tracing::warn!(conn, "frames from another node do not decode: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burraco_protocol::codec;
    use burraco_protocol::wire::ServerMessage;

    /// What a table's node publishes is what the connection's node writes: the same bytes, in
    /// the connection's format, shared with the message received (no copy, no second encoding).
    #[test]
    fn relayed_frames_are_the_bytes_encoded_for_the_connection() {
        let messages = [
            ServerMessage::Pong { id: 7 },
            ServerMessage::Tick {
                table: "t-1".into(),
                seq: 42,
            },
        ];
        for binary in [true, false] {
            let frames: Vec<_> = messages.iter().cloned().map(Frame::new).collect();
            let sent = frames.iter().map(|f| encoded(f, binary)).collect();
            let payload = Bytes::from(postcard::to_stdvec(&ToConn::Frames(sent)).unwrap());

            let directory = PeerDirectory::default();
            let (out, mut inbox, _kick) = Outbox::channel(9, 8);
            directory.reached_from_elsewhere(&out.in_format(binary));
            deliver(&directory, "burraco.conn.node-a.9", &payload);
            for message in &messages {
                let frame = inbox.try_recv().expect("a relayed frame");
                let written = frame.to_ws(binary).into_data();
                let range = payload.as_ptr_range();
                assert!(range.contains(&written.as_ptr()), "the payload's own bytes");
                let expected = if binary {
                    codec::to_binary(message)
                } else {
                    codec::to_json(message).into_bytes()
                };
                assert_eq!(written.as_ref(), expected.as_slice());
            }
            assert!(inbox.try_recv().is_none());
        }
    }

    #[test]
    fn a_kick_reaches_the_connection_with_its_reason() {
        let directory = PeerDirectory::default();
        let (out, _inbox, _kick) = Outbox::channel(3, 8);
        directory.reached_from_elsewhere(&out);
        let payload = Bytes::from(postcard::to_stdvec(&ToConn::Kick(KickWire::Moved)).unwrap());
        deliver(&directory, "burraco.conn.node-a.4", &payload);
        assert!(!out.is_kicked(), "another connection's kick");
        deliver(&directory, "burraco.conn.node-a.3", &payload);
        assert_eq!(out.kick_reason().get(), Some(Kicked::Moved));
    }
}
