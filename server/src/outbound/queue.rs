//! The bounded queue behind an [`Outbox`](super::Outbox): many senders (the tables a receiver
//! sits at or watches, its own connection's replies), one receiver (its writer).
//!
//! Not tokio's `mpsc`: a tokio channel allocates a cache-padded state of ~0.5 KB and its first
//! block of 32 slots (~0.5 KB) when it is made, and a second block once its ring wraps, so every
//! connection held ~1.6 KB of queue whatever it had queued; a playing connection rarely holds
//! more than a few slots. This one is a `VecDeque` of two-word slots behind a lock, holding only
//! what is queued (it gives its room back once emptied after a burst), and a [`Notify`] for the
//! receiver: ~0.1 KB for a queue that waits empty.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::Notify;

/// A queue emptied with more room than this gives the rest back (a resume's catch-up or a burst
/// of spectators' frames must not leave a large buffer behind).
const KEPT_ROOM: usize = 16;

struct Queue<T> {
    slots: Mutex<Slots<T>>,
    /// Wakes the receiver: a send, or the last sender gone.
    ready: Notify,
    /// Read without the lock: every send asks it.
    receiver_gone: AtomicBool,
    capacity: usize,
}

struct Slots<T> {
    items: VecDeque<T>,
    senders: usize,
}

impl<T> Queue<T> {
    fn slots(&self) -> MutexGuard<'_, Slots<T>> {
        // Nothing panics while holding the lock; a poisoned lock still holds consistent slots.
        self.slots.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Why [`Sender::try_send`] gave the item back.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// `capacity` items are queued.
    Full,
    /// The receiver is gone.
    Closed,
}

/// A queue of at most `capacity` items (at least 1).
pub fn bounded<T>(capacity: usize) -> (Sender<T>, Receiver<T>) {
    let queue = Arc::new(Queue {
        slots: Mutex::new(Slots {
            items: VecDeque::new(),
            senders: 1,
        }),
        ready: Notify::new(),
        receiver_gone: AtomicBool::new(false),
        capacity: capacity.max(1),
    });
    (Sender(queue.clone()), Receiver(queue))
}

pub struct Sender<T>(Arc<Queue<T>>);

impl<T> Sender<T> {
    /// Queues `item` without waiting.
    pub fn try_send(&self, item: T) -> Result<(), Refused> {
        if self.is_closed() {
            return Err(Refused::Closed);
        }
        {
            let mut slots = self.0.slots();
            if slots.items.len() >= self.0.capacity {
                return Err(Refused::Full);
            }
            slots.items.push_back(item);
        }
        self.0.ready.notify_one();
        Ok(())
    }

    /// Whether the receiver is gone.
    pub fn is_closed(&self) -> bool {
        self.0.receiver_gone.load(Ordering::Acquire)
    }
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        self.0.slots().senders += 1;
        Sender(self.0.clone())
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        let last = {
            let mut slots = self.0.slots();
            slots.senders -= 1;
            slots.senders == 0
        };
        if last {
            self.0.ready.notify_one();
        }
    }
}

impl<T> std::fmt::Debug for Sender<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sender")
            .field("capacity", &self.0.capacity)
            .finish_non_exhaustive()
    }
}

pub struct Receiver<T>(Arc<Queue<T>>);

impl<T> Receiver<T> {
    /// The next item; `None` once every sender is gone and the queue is empty.
    pub async fn recv(&mut self) -> Option<T> {
        loop {
            {
                let mut slots = self.0.slots();
                if let Some(item) = Self::pop(&mut slots) {
                    return Some(item);
                }
                if slots.senders == 0 {
                    return None;
                }
            }
            // A send between the unlock and this wait leaves a permit: the wait ends at once.
            self.0.ready.notified().await;
        }
    }

    /// The next item if one is queued, without waiting.
    pub fn try_recv(&mut self) -> Option<T> {
        Self::pop(&mut self.0.slots())
    }

    fn pop(slots: &mut Slots<T>) -> Option<T> {
        let item = slots.items.pop_front();
        if slots.items.is_empty() && slots.items.capacity() > KEPT_ROOM {
            slots.items = VecDeque::new();
        }
        item
    }
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        self.0.receiver_gone.store(true, Ordering::Release);
        // What was queued goes now, not with the last sender (a fan-out's timing ends with it).
        let queued = std::mem::take(&mut self.0.slots().items);
        drop(queued);
    }
}

impl<T> std::fmt::Debug for Receiver<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Receiver")
            .field("capacity", &self.0.capacity)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn items_come_out_in_order_and_a_full_queue_refuses() {
        let (tx, mut rx) = bounded(2);
        assert_eq!(tx.try_send(1), Ok(()));
        assert_eq!(tx.try_send(2), Ok(()));
        assert_eq!(tx.try_send(3), Err(Refused::Full));
        assert_eq!(rx.recv().await, Some(1));
        assert_eq!(tx.try_send(4), Ok(()), "room again once one is read");
        assert_eq!(rx.try_recv(), Some(2));
        assert_eq!(rx.try_recv(), Some(4));
        assert_eq!(rx.try_recv(), None);
    }

    #[tokio::test]
    async fn the_receiver_ends_once_every_sender_is_gone_and_the_queue_is_read() {
        let (tx, mut rx) = bounded(4);
        let other = tx.clone();
        assert_eq!(tx.try_send(1), Ok(()));
        drop(tx);
        assert_eq!(other.try_send(2), Ok(()), "a clone still sends");
        drop(other);
        assert_eq!(rx.recv().await, Some(1));
        assert_eq!(rx.recv().await, Some(2));
        assert_eq!(rx.recv().await, None);
    }

    #[tokio::test]
    async fn a_waiting_receiver_wakes_for_a_send_from_another_task() {
        let (tx, mut rx) = bounded(1);
        let waiting = tokio::spawn(async move { rx.recv().await });
        tokio::task::yield_now().await;
        let sender = tokio::spawn(async move {
            tx.try_send(7).expect("room");
            // `tx` drops here: the receiver must still get the 7 first.
        });
        sender.await.expect("sender");
        assert_eq!(waiting.await.expect("receiver"), Some(7));
    }

    #[test]
    fn sends_to_a_dropped_receiver_are_refused_and_what_was_queued_is_dropped_with_it() {
        let (tx, rx) = bounded(4);
        let item = Arc::new(());
        assert_eq!(tx.try_send(item.clone()), Ok(()));
        drop(rx);
        assert!(tx.is_closed());
        assert_eq!(
            Arc::strong_count(&item),
            1,
            "the queued clone went with the receiver"
        );
        assert_eq!(tx.try_send(item), Err(Refused::Closed));
    }

    #[tokio::test]
    async fn an_emptied_queue_gives_back_the_room_a_burst_took() {
        let (tx, mut rx) = bounded(100);
        for i in 0..40 {
            tx.try_send(i).expect("room");
        }
        for i in 0..40 {
            assert_eq!(rx.recv().await, Some(i));
        }
        assert!(rx.0.slots().items.capacity() <= KEPT_ROOM);
    }
}
