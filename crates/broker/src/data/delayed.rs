//! Delayed operations keyed by partition (Kafka's purgatory, reduced to what waits today): a
//! long-polling fetch or an acks=all produce registers a [`Notify`] with the partitions it
//! waits on and sleeps until one of them moves or its deadline passes. A fetch session
//! (KIP-227) instead subscribes once to each of its partitions with an [`Interest`]: every
//! move of a subscribed partition marks that partition in the interest and wakes the session's
//! waiting fetch, so an incremental fetch reads only the partitions that moved. No polling
//! loops and no timer beyond each operation's own deadline.

use crate::data::fetch_session::Key;
use fjord_replication::Seen;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::Notify;

/// A fetch session's standing interest in its partitions: which moved since the session last
/// read them, and a wake-up for its waiting fetch.
#[derive(Debug)]
pub struct Interest {
    moved: Mutex<HashSet<Key>>,
    /// Woken (a permit is kept) whenever a subscribed partition moves.
    pub notify: Notify,
    /// The follower whose session it is (-1: a consumer's).
    replica: i32,
    /// When the session last fetched (monotonic ms): each of its fetches fetches every one of
    /// its partitions again at the offset the session holds.
    last_fetch_ms: AtomicI64,
    /// Whether its last fetch made the follower eligible to join ISRs (KIP-903).
    eligible: AtomicBool,
}

impl Interest {
    /// The interest of a session of follower `replica` (-1 for a consumer).
    pub fn new(replica: i32) -> Interest {
        Interest {
            moved: Mutex::default(),
            notify: Notify::new(),
            replica,
            last_fetch_ms: AtomicI64::new(i64::MIN),
            eligible: AtomicBool::new(false),
        }
    }

    /// The session fetched at `now_ms`.
    pub fn used(&self, now_ms: i64) {
        self.last_fetch_ms.fetch_max(now_ms, Ordering::Relaxed);
    }

    /// The session's follower is (or is no longer) eligible to join ISRs; returns whether
    /// that changed.
    pub fn set_eligible(&self, eligible: bool) -> bool {
        self.eligible.swap(eligible, Ordering::Relaxed) != eligible
    }

    /// Marks `key` as moved and wakes the waiting fetch.
    pub fn mark(&self, key: &Key) {
        let fresh = self.moved.lock().expect("interest").insert(key.clone());
        if fresh {
            self.notify.notify_one();
        }
    }

    /// Takes every partition marked since the last take.
    pub fn take(&self) -> HashSet<Key> {
        std::mem::take(&mut *self.moved.lock().expect("interest"))
    }
}

/// The most waiters one partition keeps before dropping those that already finished.
const PRUNE_AT: usize = 64;

/// The operations waiting on one partition.
#[derive(Debug, Default)]
pub struct Watchers {
    waiting: Mutex<Vec<Weak<Notify>>>,
    /// Fetch sessions subscribed to this partition, with the partition's key in each.
    sessions: Mutex<Vec<(Weak<Interest>, Key)>>,
}

impl Watchers {
    /// Registers `waiter`; it is woken (once) by the next [`Watchers::wake`]. A waiter
    /// registered before it reads what it waits for misses no wake-up (the permit is kept).
    pub fn watch(&self, waiter: &std::sync::Arc<Notify>) {
        let mut w = self.waiting.lock().expect("watchers");
        if w.len() >= PRUNE_AT {
            w.retain(|n| n.strong_count() > 0);
        }
        w.push(std::sync::Arc::downgrade(waiter));
    }

    /// Subscribes a fetch session (idempotent): every later [`Watchers::wake`] marks `key` in
    /// `interest` until the session is dropped.
    pub fn subscribe(&self, interest: &Arc<Interest>, key: &Key) {
        let mut s = self.sessions.lock().expect("watchers");
        s.retain(|(i, _)| i.strong_count() > 0);
        if !s
            .iter()
            .any(|(i, _)| std::ptr::eq(i.as_ptr(), Arc::as_ptr(interest)))
        {
            s.push((Arc::downgrade(interest), key.clone()));
        }
    }

    /// Unsubscribes a fetch session (it forgot the partition).
    pub fn unsubscribe(&self, interest: &Arc<Interest>) {
        self.sessions.lock().expect("watchers").retain(|(i, _)| {
            i.strong_count() > 0 && !std::ptr::eq(i.as_ptr(), Arc::as_ptr(interest))
        });
    }

    /// Follower `replica`'s latest fetch through a session that holds this partition, if it
    /// has one.
    pub fn seen(&self, replica: i32) -> Option<Seen> {
        self.sessions
            .lock()
            .expect("watchers")
            .iter()
            .filter_map(|(i, _)| i.upgrade())
            .filter(|i| i.replica == replica)
            .map(|i| Seen {
                at_ms: i.last_fetch_ms.load(Ordering::Relaxed),
                eligible: i.eligible.load(Ordering::Relaxed),
            })
            .max_by_key(|s| s.at_ms)
    }

    /// Wakes every registered waiter and forgets them, and marks the partition in every
    /// subscribed session.
    pub fn wake(&self) {
        let waiting = std::mem::take(&mut *self.waiting.lock().expect("watchers"));
        for n in waiting.iter().filter_map(Weak::upgrade) {
            n.notify_one();
        }
        let mut sessions = self.sessions.lock().expect("watchers");
        sessions.retain(|(i, key)| match i.upgrade() {
            Some(i) => {
                i.mark(key);
                true
            }
            None => false,
        });
    }

    /// How many waiters are registered (finished ones included until pruned).
    pub fn len(&self) -> usize {
        self.waiting.lock().expect("watchers").len()
    }

    /// True when none are registered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test]
    async fn a_wake_before_the_wait_is_not_lost_and_finished_waiters_are_pruned() {
        let w = Watchers::default();
        let n = Arc::new(Notify::new());
        w.watch(&n);
        w.wake();
        // Woken before it waited: the permit is kept.
        tokio::time::timeout(std::time::Duration::from_secs(5), n.notified())
            .await
            .unwrap();
        assert!(w.is_empty());
        for _ in 0..10 * PRUNE_AT {
            w.watch(&Arc::new(Notify::new()));
        }
        assert!(w.len() <= PRUNE_AT + 1);
    }

    #[tokio::test]
    async fn a_subscribed_session_is_marked_by_every_wake_until_it_is_dropped() {
        let w = Watchers::default();
        let key = Key {
            topic: String::new(),
            topic_id: fjord_protocol::Uuid::from_u128(7),
            partition: 3,
        };
        let interest = Arc::new(Interest::new(2));
        interest.used(40);
        w.subscribe(&interest, &key);
        w.subscribe(&interest, &key);
        w.wake();
        tokio::time::timeout(
            std::time::Duration::from_secs(5),
            interest.notify.notified(),
        )
        .await
        .unwrap();
        assert_eq!(interest.take(), HashSet::from([key.clone()]));
        assert!(interest.take().is_empty());
        // Still subscribed after a wake (unlike a one-shot waiter).
        w.wake();
        assert_eq!(interest.take().len(), 1);
        assert_eq!(
            w.seen(2),
            Some(Seen {
                at_ms: 40,
                eligible: false
            })
        );
        assert_eq!(w.seen(3), None);
        drop(interest);
        assert_eq!(w.seen(2), None);
        w.wake();
        assert!(w.sessions.lock().unwrap().is_empty());
    }
}
