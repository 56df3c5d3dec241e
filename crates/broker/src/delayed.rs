//! Delayed operations keyed by partition (Kafka's purgatory, reduced to what waits today): a
//! long-polling fetch or an acks=all produce registers a [`Notify`] with the partitions it
//! waits on and sleeps until one of them moves or its deadline passes. No polling loops and no
//! timer beyond each operation's own deadline.

use std::sync::{Mutex, Weak};
use tokio::sync::Notify;

/// The most waiters one partition keeps before dropping those that already finished.
const PRUNE_AT: usize = 64;

/// The operations waiting on one partition.
#[derive(Debug, Default)]
pub struct Watchers {
    waiting: Mutex<Vec<Weak<Notify>>>,
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

    /// Wakes every registered waiter and forgets them.
    pub fn wake(&self) {
        let waiting = std::mem::take(&mut *self.waiting.lock().expect("watchers"));
        for n in waiting.iter().filter_map(Weak::upgrade) {
            n.notify_one();
        }
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
}
