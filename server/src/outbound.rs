//! What goes out: a [`Frame`] is a server message encoded at most once per format, shared by every
//! receiver; an [`Outbox`] is a connection's (or an in-process driver's) bounded queue of frames.
//!
//! Senders never wait: [`Outbox::send`] uses `try_send`, and a full queue marks the receiver as
//! too slow and kicks it, so one slow socket can never stall a table.

use std::sync::{Arc, OnceLock};

use axum::body::Bytes;
use axum::extract::ws::{Message, Utf8Bytes};
use burraco_protocol::codec;
use burraco_protocol::wire::ServerMessage;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// One message, lazily encoded as JSON text and as postcard binary, each at most once.
#[derive(Debug)]
pub struct Frame {
    message: ServerMessage,
    json: OnceLock<Utf8Bytes>,
    binary: OnceLock<Bytes>,
}

impl Frame {
    pub fn new(message: ServerMessage) -> Arc<Frame> {
        Arc::new(Frame {
            message,
            json: OnceLock::new(),
            binary: OnceLock::new(),
        })
    }

    pub fn message(&self) -> &ServerMessage {
        &self.message
    }

    /// The JSON text (encoded on first use).
    pub fn json(&self) -> &Utf8Bytes {
        self.json
            .get_or_init(|| Utf8Bytes::from(codec::to_json(&self.message)))
    }

    /// The postcard bytes (encoded on first use).
    pub fn binary(&self) -> &Bytes {
        self.binary
            .get_or_init(|| Bytes::from(codec::to_binary(&self.message)))
    }

    /// The WebSocket message in the receiver's format (a cheap reference-counted clone).
    pub fn to_ws(&self, binary: bool) -> Message {
        if binary {
            Message::Binary(self.binary().clone())
        } else {
            Message::Text(self.json().clone())
        }
    }
}

/// A receiver's bounded queue of frames, and the token that drops it when it falls behind.
#[derive(Debug, Clone)]
pub struct Outbox {
    id: u64,
    tx: mpsc::Sender<Arc<Frame>>,
    kick: CancellationToken,
}

impl Outbox {
    /// A new queue of `capacity` frames; `id` tells receivers apart (a connection id).
    pub fn channel(
        id: u64,
        capacity: usize,
    ) -> (Outbox, mpsc::Receiver<Arc<Frame>>, CancellationToken) {
        let (tx, rx) = mpsc::channel(capacity.max(1));
        let kick = CancellationToken::new();
        (
            Outbox {
                id,
                tx,
                kick: kick.clone(),
            },
            rx,
            kick,
        )
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    /// Queues a frame without waiting. A full queue kicks the receiver (it is too slow) and
    /// returns false; so does a receiver that is gone.
    pub fn send(&self, frame: Arc<Frame>) -> bool {
        match self.tx.try_send(frame) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                if !self.kick.is_cancelled() {
                    metrics::counter!("burraco_slow_clients_dropped_total").increment(1);
                    tracing::info!(
                        conn = self.id,
                        "outbound queue full: dropping a slow client"
                    );
                    self.kick.cancel();
                }
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Queues a message (encoded for this receiver only).
    pub fn send_message(&self, message: ServerMessage) -> bool {
        self.send(Frame::new(message))
    }

    /// Drops the receiver: its connection closes.
    pub fn kick(&self) {
        self.kick.cancel();
    }

    pub fn is_kicked(&self) -> bool {
        self.kick.is_cancelled()
    }
}
