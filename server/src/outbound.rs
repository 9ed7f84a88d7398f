//! What goes out: a [`Frame`] is a server message encoded at most once per format, shared by every
//! receiver; an [`Outbox`] is a connection's (or an in-process driver's) bounded queue of frames.
//!
//! Senders never wait: [`Outbox::send`] uses `try_send`, and a full queue marks the receiver as
//! too slow and kicks it, so one slow socket can never stall a table.
//!
//! A queue slot holds one frame or a batch ([`Outbox::send_batch`]): everything one action sends
//! to one receiver (its events, and the actor's reply), queued at once, so the receiver's writer
//! always feeds it all before it flushes (one write), whichever worker it runs on and whenever.
//! A resume's catch-up is one slot too, so it never fills a queue by itself.
//!
//! An action's batches to the seats carry one shared [`Fanout`]: each receiver lets go of it once
//! its writer has flushed the batch (a bot, once it has taken it), and the last to let go records
//! the time from the action's arrival (`burraco_action_fanout_seconds`): the server's own share
//! of "action to the last seat's event", without the client's.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, OnceLock};

use axum::body::Bytes;
use burraco_protocol::codec;
use burraco_protocol::wire::ServerMessage;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::Utf8Bytes;
use tokio_tungstenite::tungstenite::protocol::frame::Frame as WsFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_util::sync::CancellationToken;

mod queue;

/// Frames longer than this go out as a fragmented WebSocket message (RFC 6455 section 5.4) of
/// pieces this long: every byte sent is first copied into the connection's WebSocket write
/// buffer, which never shrinks, so one large frame (a hand record is ~11 KB of JSON) would
/// otherwise leave every connection holding a buffer that large for good. Clients reassemble
/// fragments transparently; the message is the same.
pub const FRAGMENT: usize = 512;

/// One message, lazily encoded as JSON text and as postcard binary, each at most once.
#[derive(Debug)]
pub struct Frame {
    /// Always there for a frame made here; a frame relayed from another node's table arrives
    /// encoded in its one receiver's format and is written as it came, read only if asked.
    message: OnceLock<ServerMessage>,
    json: OnceLock<Utf8Bytes>,
    binary: OnceLock<Bytes>,
}

impl Frame {
    pub fn new(message: ServerMessage) -> Arc<Frame> {
        Arc::new(Frame {
            message: OnceLock::from(message),
            json: OnceLock::new(),
            binary: OnceLock::new(),
        })
    }

    /// A frame another node encoded for its receiver (`binary`: postcard, else JSON text);
    /// `None` for JSON that is not UTF-8.
    pub fn relayed(bytes: Bytes, binary: bool) -> Option<Arc<Frame>> {
        let frame = Frame {
            message: OnceLock::new(),
            json: OnceLock::new(),
            binary: OnceLock::new(),
        };
        if binary {
            let _ = frame.binary.set(bytes);
        } else {
            let _ = frame.json.set(Utf8Bytes::try_from(bytes).ok()?);
        }
        Some(Arc::new(frame))
    }

    /// The message. A relayed frame is read on the first ask, which nothing on its way to the
    /// socket makes (a receiver's writer takes its bytes).
    pub fn message(&self) -> &ServerMessage {
        self.message.get_or_init(|| {
            let decoded = match (self.binary.get(), self.json.get()) {
                (Some(bytes), _) => codec::from_binary(bytes, usize::MAX).result.ok(),
                (None, Some(text)) => codec::from_json(text.as_str(), usize::MAX).result.ok(),
                (None, None) => None,
            };
            decoded.unwrap_or_else(|| {
                ServerMessage::error(
                    None,
                    burraco_protocol::ErrorCode::InternalError,
                    "a message from another server did not read",
                    None,
                )
            })
        })
    }

    /// The JSON text (encoded on first use; the allocation is exactly its length).
    pub fn json(&self) -> &Utf8Bytes {
        self.json.get_or_init(|| {
            Utf8Bytes::from(String::from(
                codec::to_json(self.message()).into_boxed_str(),
            ))
        })
    }

    /// The postcard bytes (encoded on first use).
    pub fn binary(&self) -> &Bytes {
        self.binary
            .get_or_init(|| Bytes::from(codec::to_binary(self.message()).into_boxed_slice()))
    }

    /// The WebSocket message in the receiver's format (a cheap reference-counted clone).
    pub fn to_ws(&self, binary: bool) -> Message {
        if binary {
            Message::Binary(self.binary().clone())
        } else {
            Message::Text(self.json().clone())
        }
    }

    /// The WebSocket frames to send for the receiver's format: the message itself, or, above
    /// [`FRAGMENT`] bytes, the fragments of one message (slices of the shared encoding, no copy).
    pub fn to_ws_frames(&self, binary: bool) -> impl Iterator<Item = Message> + use<> {
        let (bytes, text) = if binary {
            (self.binary().clone(), false)
        } else {
            (Bytes::from(self.json().clone()), true)
        };
        let single = (bytes.len() <= FRAGMENT).then(|| self.to_ws(binary));
        let mut pieces = Vec::new();
        if single.is_none() {
            let mut start = 0;
            while start < bytes.len() {
                let mut end = (start + FRAGMENT).min(bytes.len());
                // Keep UTF-8 sequences whole inside each fragment of a text message.
                while text && end < bytes.len() && (bytes[end] & 0xC0) == 0x80 {
                    end -= 1;
                }
                let opcode = if start == 0 {
                    OpCode::Data(if text { Data::Text } else { Data::Binary })
                } else {
                    OpCode::Data(Data::Continue)
                };
                let last = end == bytes.len();
                pieces.push(Message::Frame(WsFrame::message(
                    bytes.slice(start..end),
                    opcode,
                    last,
                )));
                start = end;
            }
        }
        single.into_iter().chain(pieces)
    }

    /// About how many bytes this frame keeps alive once encoded for one format (for the replay
    /// buffer's byte cap): the frame itself, the message's heap data, the encoding.
    pub fn approx_bytes(&self) -> usize {
        let Some(message) = self.message.get() else {
            let encoded =
                self.binary.get().map_or(0, Bytes::len) + self.json.get().map_or(0, |t| t.len());
            return 16 + size_of::<Frame>() + encoded;
        };
        let heap = match message {
            ServerMessage::HandRecord { record, .. } => 2 * record.len() + 64,
            ServerMessage::HandEnded { score, hands, .. } => {
                96 * score.len() + 48 * hands.len() + 400
            }
            ServerMessage::Opened { cards, meld, .. }
            | ServerMessage::Attached { cards, meld, .. } => {
                8 * (cards.len() + meld.cards.len()) + 120
            }
            ServerMessage::ChatMessage { name, text, .. } => 2 * (name.len() + text.len()) + 80,
            ServerMessage::Tick { .. } => 40,
            _ => 120,
        };
        // Arc header + frame + the table id's allocation + encoding.
        16 + size_of::<Frame>() + 32 + heap
    }
}

/// One slot of a receiver's queue: two words (a batch inline made a slot five, and a queue
/// once allocated its slots 32 at a time for every connection).
#[derive(Debug)]
enum Outgoing {
    One(Arc<Frame>),
    Batch(Box<Batch>),
}

#[derive(Debug)]
struct Batch {
    frames: Vec<Arc<Frame>>,
    fanout: Option<Arc<Fanout>>,
}

/// One action's delivery to its seats: dropped by the last receiver to flush it, and timed then.
#[derive(Debug)]
pub struct Fanout {
    received: std::time::Instant,
}

impl Fanout {
    /// `received`: when the action's request arrived.
    pub fn new(received: std::time::Instant) -> Arc<Fanout> {
        Arc::new(Fanout { received })
    }
}

impl Drop for Fanout {
    fn drop(&mut self) {
        metrics::histogram!("burraco_action_fanout_seconds")
            .record(self.received.elapsed().as_secs_f64());
    }
}

/// Why a receiver was dropped: its connection's close frame says which (docs/PROTOCOL.md
/// section 7), since a client must resume after the one and must not after the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kicked {
    /// Its queue was full (it does not read fast enough), or it was dropped for any other reason
    /// it may resume from ([`Outbox::kick`]).
    TooSlow,
    /// A resume of the same session took its seats ([`Outbox::take_over`]): not to be resumed.
    TakenOver,
    /// A table it was at moved to another node (cluster mode) or stopped here: resume, and the
    /// table is found wherever it is served ([`Outbox::table_moved`]).
    Moved,
    /// The personal token the connection signed in with was revoked or expired
    /// (`accounts::live`): closed with 4003, not to be resumed with that token.
    TokenRevoked,
    /// Its account was disabled or timed out by a moderator or an operator
    /// (`moderation::connections`): closed with 4004, not to be resumed until allowed back.
    AccountBarred,
    /// The browser session it signed in with ended (a sign-out, anywhere; a password change; a
    /// revoke; an operator's reset; its expiry: `accounts::live`): closed with 4005, not to be
    /// resumed as that account without signing in again.
    SignedOut,
}

/// The reason a receiver was kicked, shared by its [`Outbox`] clones and read by its writer; the
/// first reason given wins.
#[derive(Debug, Clone, Default)]
pub struct KickReason(Arc<AtomicU8>);

impl KickReason {
    fn set(&self, why: Kicked) {
        let code = match why {
            Kicked::TooSlow => 1,
            Kicked::TakenOver => 2,
            Kicked::Moved => 3,
            Kicked::TokenRevoked => 4,
            Kicked::AccountBarred => 5,
            Kicked::SignedOut => 6,
        };
        let _ = self
            .0
            .compare_exchange(0, code, Ordering::AcqRel, Ordering::Acquire);
    }

    /// `None` until the receiver is kicked.
    pub fn get(&self) -> Option<Kicked> {
        match self.0.load(Ordering::Acquire) {
            1 => Some(Kicked::TooSlow),
            2 => Some(Kicked::TakenOver),
            3 => Some(Kicked::Moved),
            4 => Some(Kicked::TokenRevoked),
            5 => Some(Kicked::AccountBarred),
            6 => Some(Kicked::SignedOut),
            _ => None,
        }
    }
}

/// A receiver's bounded queue of frames, and the token that drops it when it falls behind.
#[derive(Debug, Clone)]
pub struct Outbox {
    id: u64,
    tx: queue::Sender<Outgoing>,
    kick: CancellationToken,
    reason: KickReason,
    /// Its receiver reads postcard frames (a connection whose hello was binary), else JSON
    /// text: what a frame relayed to it from another node is encoded as.
    binary: bool,
    /// The minor version its receiver's hello said: a table sends it no message newer than
    /// that (`ServerMessage::minor`). 0 until told (a cluster's stand-in for another node's
    /// connection stays there until a seat-taking request from it says its minor: it hears
    /// only what every client reads).
    minor: u16,
}

/// The receiving end of an [`Outbox`]: frames one by one, batches unpacked in order.
#[derive(Debug)]
pub struct Inbox {
    rx: queue::Receiver<Outgoing>,
    /// The rest of the batch being read (its allocation goes with the next batch).
    rest: std::vec::IntoIter<Arc<Frame>>,
    /// The fan-outs of the batches handed out since the last wait: a writer calls
    /// [`Inbox::recv`] again only after it has flushed them.
    held: Vec<Arc<Fanout>>,
}

impl Inbox {
    /// The next frame; `None` once every sender is gone and the queue is empty. Everything
    /// handed out before counts as delivered (a writer waits here only after a flush).
    pub async fn recv(&mut self) -> Option<Arc<Frame>> {
        self.held.clear();
        loop {
            if let Some(frame) = self.rest.next() {
                return Some(frame);
            }
            match self.rx.recv().await? {
                Outgoing::One(frame) => return Some(frame),
                Outgoing::Batch(batch) => self.take_batch(*batch),
            }
        }
    }

    /// The next frame if one is queued, without waiting.
    pub fn try_recv(&mut self) -> Option<Arc<Frame>> {
        loop {
            if let Some(frame) = self.rest.next() {
                return Some(frame);
            }
            match self.rx.try_recv()? {
                Outgoing::One(frame) => return Some(frame),
                Outgoing::Batch(batch) => self.take_batch(*batch),
            }
        }
    }

    fn take_batch(&mut self, batch: Batch) {
        self.rest = batch.frames.into_iter();
        self.held.extend(batch.fanout);
    }
}

impl Outbox {
    /// A new queue of `capacity` frames; `id` tells receivers apart (a connection id).
    pub fn channel(id: u64, capacity: usize) -> (Outbox, Inbox, CancellationToken) {
        let (tx, rx) = queue::bounded(capacity);
        let kick = CancellationToken::new();
        (
            Outbox {
                id,
                tx,
                kick: kick.clone(),
                reason: KickReason::default(),
                binary: false,
                minor: 0,
            },
            Inbox {
                rx,
                rest: Vec::new().into_iter(),
                held: Vec::new(),
            },
            kick,
        )
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    /// The outbox of a receiver that reads `binary` (postcard) frames, or JSON text.
    pub fn in_format(mut self, binary: bool) -> Outbox {
        self.binary = binary;
        self
    }

    /// Whether its receiver reads postcard frames.
    pub fn is_binary(&self) -> bool {
        self.binary
    }

    /// The outbox of a receiver whose hello said protocol 1.`minor`.
    pub fn with_minor(mut self, minor: u16) -> Outbox {
        self.minor = minor;
        self
    }

    /// The minor version its receiver's hello said (0 when unknown).
    pub fn minor(&self) -> u16 {
        self.minor
    }

    /// Whether its receiver reads `message` (its hello said that message's minor or later).
    pub fn reads(&self, message: &ServerMessage) -> bool {
        message.minor() <= self.minor
    }

    /// Queues a frame without waiting. A full queue kicks the receiver (it is too slow) and
    /// returns false; so does a receiver that is gone.
    pub fn send(&self, frame: Arc<Frame>) -> bool {
        self.queue(Outgoing::One(frame))
    }

    /// Queues frames as one slot, read back in order: the receiver writes them with one flush.
    /// An empty batch queues nothing (and lets go of its fan-out at once).
    pub fn send_batch(&self, frames: Vec<Arc<Frame>>) -> bool {
        self.send_traced(frames, None)
    }

    /// [`Outbox::send_batch`], the receiver holding `fanout` until it has flushed the batch.
    pub fn send_traced(&self, frames: Vec<Arc<Frame>>, fanout: Option<Arc<Fanout>>) -> bool {
        let mut frames = frames;
        if frames.is_empty() {
            return true;
        }
        if frames.len() > 1 || fanout.is_some() {
            self.queue(Outgoing::Batch(Box::new(Batch { frames, fanout })))
        } else if let Some(frame) = frames.pop() {
            self.queue(Outgoing::One(frame))
        } else {
            true
        }
    }

    fn queue(&self, item: Outgoing) -> bool {
        match self.tx.try_send(item) {
            Ok(()) => true,
            Err(queue::Refused::Full) => {
                if !self.kick.is_cancelled() {
                    metrics::counter!("burraco_slow_clients_dropped_total").increment(1);
                    tracing::info!(
                        conn = self.id,
                        "outbound queue full: dropping a slow client"
                    );
                    self.reason.set(Kicked::TooSlow);
                    self.kick.cancel();
                }
                false
            }
            Err(queue::Refused::Closed) => false,
        }
    }

    /// Queues a message (encoded for this receiver only).
    pub fn send_message(&self, message: ServerMessage) -> bool {
        self.send(Frame::new(message))
    }

    /// Drops the receiver: its connection closes as a slow reader's does, and the client may
    /// resume.
    pub fn kick(&self) {
        self.reason.set(Kicked::TooSlow);
        self.kick.cancel();
    }

    /// Drops the receiver because a newer connection of the same session took its seats: its
    /// connection closes with the takeover's close code (4001), which a client must not resume
    /// on, not the slow reader's.
    pub fn take_over(&self) {
        self.reason.set(Kicked::TakenOver);
        self.kick.cancel();
    }

    /// Drops the receiver because a table it was at stopped being served here (it moved to
    /// another node, or this node is draining): its connection closes with 1012, and the client
    /// resumes and finds the table wherever it is served now.
    pub fn table_moved(&self) {
        self.reason.set(Kicked::Moved);
        self.kick.cancel();
    }

    /// Drops the receiver for `why` (a kick relayed from another node).
    pub fn kick_for(&self, why: Kicked) {
        self.reason.set(why);
        self.kick.cancel();
    }

    /// Why this receiver was kicked, readable by its writer once the kick token fires.
    pub fn kick_reason(&self) -> KickReason {
        self.reason.clone()
    }

    pub fn is_kicked(&self) -> bool {
        self.kick.is_cancelled()
    }

    /// Whether nothing sent here can reach a receiver any more (kicked, or its reader gone).
    pub fn is_gone(&self) -> bool {
        self.kick.is_cancelled() || self.tx.is_closed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tick(seq: u64) -> Arc<Frame> {
        Frame::new(ServerMessage::Tick {
            table: "t".into(),
            seq,
        })
    }

    #[test]
    fn a_queue_slot_is_two_words() {
        assert_eq!(size_of::<Outgoing>(), 2 * size_of::<usize>());
    }

    fn seq(frame: Option<Arc<Frame>>) -> Option<u64> {
        frame.and_then(|f| f.message().seq())
    }

    #[tokio::test]
    async fn batches_take_one_slot_and_come_out_frame_by_frame_in_order() {
        let (out, mut inbox, _kick) = Outbox::channel(1, 2);
        assert!(out.send_batch(vec![tick(1), tick(2), tick(3)]));
        assert!(out.send_batch(Vec::new()), "an empty batch queues nothing");
        assert!(out.send(tick(4)));
        assert!(!out.send(tick(5)), "two slots: the third send is refused");
        assert!(out.is_kicked(), "and the receiver is kicked as too slow");
        assert_eq!(out.kick_reason().get(), Some(Kicked::TooSlow));
        out.take_over();
        assert_eq!(
            out.kick_reason().get(),
            Some(Kicked::TooSlow),
            "the first reason stays"
        );
        assert_eq!(seq(inbox.recv().await), Some(1));
        assert_eq!(seq(inbox.try_recv()), Some(2));
        assert_eq!(seq(inbox.recv().await), Some(3));
        assert_eq!(seq(inbox.try_recv()), Some(4));
        assert_eq!(seq(inbox.try_recv()), None);
        drop(out);
        assert_eq!(seq(inbox.recv().await), None);
    }

    #[tokio::test]
    async fn a_fanout_lives_until_every_receiver_has_come_back_for_more() {
        let (a, mut a_in, _) = Outbox::channel(1, 8);
        let (b, mut b_in, _) = Outbox::channel(2, 8);
        let fanout = Fanout::new(std::time::Instant::now());
        let alive = Arc::downgrade(&fanout);
        assert!(a.send_traced(vec![tick(1), tick(2)], Some(fanout.clone())));
        assert!(b.send_traced(vec![tick(1)], Some(fanout.clone())));
        assert!(
            a.send_traced(Vec::new(), Some(fanout.clone())),
            "nothing to send: let go at once"
        );
        drop(fanout);
        assert!(a.send(tick(3)));
        assert_eq!(seq(a_in.recv().await), Some(1));
        assert_eq!(seq(a_in.try_recv()), Some(2));
        assert_eq!(seq(b_in.recv().await), Some(1));
        // Both have the batch, neither has come back: it is still being written.
        assert!(alive.upgrade().is_some());
        assert_eq!(seq(a_in.recv().await), Some(3));
        assert!(alive.upgrade().is_some(), "b has not come back yet");
        assert!(b.send(tick(2)));
        assert_eq!(seq(b_in.recv().await), Some(2));
        assert!(alive.upgrade().is_none(), "the last receiver let go");
    }
}
