//! The shard's deadlines: member sessions, pending members, join and sync phases and the
//! offsets-expiration pass, each keyed so rescheduling or cancelling replaces the old one.
//! The driver sleeps until [`Timers::next`] and then feeds the time back in.

use std::collections::{BTreeSet, HashMap};

/// What a deadline is for.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TimerKey {
    /// A member's session (heartbeats).
    Session {
        /// The group.
        group: String,
        /// The member.
        member: String,
    },
    /// A member id handed out with MEMBER_ID_REQUIRED and not yet used to join.
    Pending {
        /// The group.
        group: String,
        /// The member.
        member: String,
    },
    /// A share group member's session (KIP-932).
    ShareSession {
        /// The group.
        group: String,
        /// The member.
        member: String,
    },
    /// A consumer-protocol member's session (KIP-848).
    ConsumerSession {
        /// The group.
        group: String,
        /// The member.
        member: String,
    },
    /// The time a consumer-protocol member has to revoke partitions (its rebalance timeout).
    ConsumerRevocation {
        /// The group.
        group: String,
        /// The member.
        member: String,
    },
    /// The time a classic member of a consumer group has to rejoin once told to (its
    /// rebalance timeout).
    ConsumerJoin {
        /// The group.
        group: String,
        /// The member.
        member: String,
    },
    /// The time a classic member of a consumer group has to send SyncGroup after joining.
    ConsumerSync {
        /// The group.
        group: String,
        /// The member.
        member: String,
    },
    /// A streams-group member's session (KIP-1071).
    StreamsSession {
        /// The group.
        group: String,
        /// The member.
        member: String,
    },
    /// The time a streams-group member has to revoke tasks (its rebalance timeout).
    StreamsRevocation {
        /// The group.
        group: String,
        /// The member.
        member: String,
    },
    /// The end of a group's join phase (rebalance timeout, or the initial delay).
    Join(String),
    /// The end of a group's sync phase (rebalance timeout).
    Sync(String),
    /// The next offsets-expiration pass.
    ExpireOffsets,
}

/// Keyed deadlines in ms.
#[derive(Debug, Default)]
pub struct Timers {
    by_key: HashMap<TimerKey, i64>,
    by_time: BTreeSet<(i64, TimerKey)>,
}

impl Timers {
    /// Sets `key`'s deadline to `at`, replacing any earlier one.
    pub fn schedule(&mut self, key: TimerKey, at: i64) {
        self.cancel(&key);
        self.by_time.insert((at, key.clone()));
        self.by_key.insert(key, at);
    }

    /// Sets `key`'s deadline to `at` unless it has one.
    pub fn schedule_if_absent(&mut self, key: TimerKey, at: i64) {
        if !self.contains(&key) {
            self.schedule(key, at);
        }
    }

    /// Removes `key`'s deadline.
    pub fn cancel(&mut self, key: &TimerKey) {
        if let Some(at) = self.by_key.remove(key) {
            self.by_time.remove(&(at, key.clone()));
        }
    }

    /// True when `key` has a deadline.
    pub fn contains(&self, key: &TimerKey) -> bool {
        self.by_key.contains_key(key)
    }

    /// The earliest deadline.
    pub fn next(&self) -> Option<i64> {
        self.by_time.first().map(|(at, _)| *at)
    }

    /// Removes and returns the earliest key whose deadline is at or before `now`.
    pub fn pop_expired(&mut self, now: i64) -> Option<TimerKey> {
        let (at, _) = self.by_time.first()?;
        if *at > now {
            return None;
        }
        let (_, key) = self.by_time.pop_first()?;
        self.by_key.remove(&key);
        Some(key)
    }

    /// How many deadlines are set.
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    /// True when none are.
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rescheduling_replaces_and_expiry_is_in_order() {
        let mut t = Timers::default();
        t.schedule(TimerKey::Join("a".into()), 10);
        t.schedule(TimerKey::Join("b".into()), 5);
        t.schedule(TimerKey::Join("a".into()), 3);
        assert_eq!(t.len(), 2);
        assert_eq!(t.next(), Some(3));
        assert_eq!(t.pop_expired(2), None);
        assert_eq!(t.pop_expired(20), Some(TimerKey::Join("a".into())));
        t.cancel(&TimerKey::Join("b".into()));
        assert!(t.is_empty());
        assert_eq!(t.pop_expired(100), None);
    }
}
