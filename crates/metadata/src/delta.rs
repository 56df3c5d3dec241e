//! What changed between two published images, as Kafka's publishers receive (image, delta):
//! a [`MetadataDelta`] is the [`Changes`] of the batches folded since the last publication,
//! or `full` when a snapshot replaced the image (everything may have changed). Publications
//! are numbered and their deltas kept, a bounded number, in a [`Journal`], so a follower of a
//! watch (which sees only the newest value) still learns everything that changed since the
//! image it last applied: a [`Cursor`] merges the deltas it missed, and only a follower that
//! fell further behind than the journal keeps makes a full pass.

use crate::replay::Changes;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// The most deltas a journal keeps.
pub const MAX_JOURNAL_DELTAS: usize = 1024;

/// The most changed keys (partitions, topics, configs, ...) a journal keeps over all its
/// deltas: a follower further behind than this makes a full pass instead.
pub const MAX_JOURNAL_KEYS: usize = 1_000_000;

/// What changed between two publications.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MetadataDelta {
    /// True when the image was replaced as a whole (a snapshot loaded, or a follower fell
    /// behind the journal): every part of it must be looked at again.
    pub full: bool,
    /// What the batches changed (meaningless when `full`).
    pub changes: Changes,
}

impl MetadataDelta {
    /// The delta of a whole new image.
    pub fn full() -> MetadataDelta {
        MetadataDelta {
            full: true,
            changes: Changes::default(),
        }
    }

    /// Adds `later` (which happened after `self`).
    pub fn merge(&mut self, later: &MetadataDelta) {
        if self.full {
            return;
        }
        if later.full {
            *self = MetadataDelta::full();
            return;
        }
        self.changes.merge(&later.changes);
    }

    /// True when nothing changed.
    pub fn is_empty(&self) -> bool {
        !self.full && self.changes == Changes::default()
    }
}

impl Changes {
    /// Adds `later` (the changes of batches after these).
    pub fn merge(&mut self, later: &Changes) {
        let Changes {
            topics,
            partitions,
            deleted_topics,
            brokers,
            controllers,
            configs,
            features,
            acls,
            scram_users,
            quotas,
            tokens,
        } = later;
        self.topics.extend(topics.iter().copied());
        self.partitions.extend(partitions.iter().copied());
        for (id, name) in deleted_topics {
            self.topics.remove(id);
            self.partitions.retain(|(t, _)| t != id);
            self.deleted_topics.insert(*id, name.clone());
        }
        self.brokers.extend(brokers.iter().copied());
        self.controllers.extend(controllers.iter().copied());
        self.configs.extend(configs.iter().cloned());
        self.features |= features;
        self.acls |= acls;
        self.scram_users.extend(scram_users.iter().cloned());
        self.quotas |= quotas;
        self.tokens.extend(tokens.iter().cloned());
    }

    /// How many keys it names (the journal's measure of size).
    pub fn keys(&self) -> usize {
        self.topics.len()
            + self.partitions.len()
            + self.deleted_topics.len()
            + self.brokers.len()
            + self.controllers.len()
            + self.configs.len()
            + self.scram_users.len()
            + self.tokens.len()
            + 1
    }
}

#[derive(Debug, Default)]
struct Entries {
    /// (publication number, its delta), oldest first, numbers consecutive.
    deltas: VecDeque<(u64, Arc<MetadataDelta>)>,
    keys: usize,
}

/// The recent publications' deltas, shared by a publisher and its followers.
#[derive(Debug, Default)]
pub struct Journal {
    entries: Mutex<Entries>,
}

impl Journal {
    /// A new, empty journal.
    pub fn new() -> Arc<Journal> {
        Arc::new(Journal::default())
    }

    /// Records the delta of publication `seq` (one more than the last recorded), dropping
    /// the oldest beyond the journal's bounds.
    pub fn record(&self, seq: u64, delta: Arc<MetadataDelta>) {
        let mut e = self.entries.lock().expect("journal");
        if e.deltas.back().is_some_and(|(last, _)| *last + 1 != seq) {
            e.deltas.clear();
            e.keys = 0;
        }
        e.keys += delta.changes.keys();
        e.deltas.push_back((seq, delta));
        while e.deltas.len() > MAX_JOURNAL_DELTAS
            || (e.keys > MAX_JOURNAL_KEYS && e.deltas.len() > 1)
        {
            if let Some((_, d)) = e.deltas.pop_front() {
                e.keys -= d.changes.keys();
            }
        }
    }

    /// Everything that changed after publication `after` up to and including `upto`: the
    /// merged deltas, or a full delta when the journal no longer holds them all.
    pub fn since(&self, after: u64, upto: u64) -> MetadataDelta {
        if upto <= after {
            return MetadataDelta::default();
        }
        let e = self.entries.lock().expect("journal");
        let first = e.deltas.front().map(|(s, _)| *s);
        if first.is_none_or(|f| f > after + 1) {
            return MetadataDelta::full();
        }
        let mut merged = MetadataDelta::default();
        let mut seen = after;
        for (s, d) in e.deltas.iter().filter(|(s, _)| *s > after && *s <= upto) {
            debug_assert_eq!(*s, seen + 1);
            seen = *s;
            merged.merge(d);
            if merged.full {
                break;
            }
        }
        if seen < upto && !merged.full {
            return MetadataDelta::full();
        }
        merged
    }
}

/// A publication: its number and the journal holding the deltas up to it.
#[derive(Debug, Clone)]
pub struct Publication {
    /// Its number: one more than the publication before it (0: none yet).
    pub seq: u64,
    /// The publisher's journal.
    pub journal: Arc<Journal>,
}

impl Default for Publication {
    fn default() -> Publication {
        Publication {
            seq: 0,
            journal: Journal::new(),
        }
    }
}

impl Publication {
    /// The next publication, recording `delta` for it.
    pub fn next(&self, delta: MetadataDelta) -> Publication {
        let seq = self.seq + 1;
        self.journal.record(seq, Arc::new(delta));
        Publication {
            seq,
            journal: self.journal.clone(),
        }
    }
}

/// A follower's place among a publisher's publications: what it has applied.
#[derive(Debug, Default)]
pub struct Cursor {
    /// The journal and publication last applied (none: nothing applied yet).
    at: Option<(Arc<Journal>, u64)>,
}

impl Cursor {
    /// A follower that has applied nothing yet (its first delta is full).
    pub fn new() -> Cursor {
        Cursor::default()
    }

    /// What changed since the publication last applied, up to `p`, which becomes the one
    /// applied: full the first time, after a change of publisher, or when the follower fell
    /// behind the journal.
    pub fn advance(&mut self, p: &Publication) -> MetadataDelta {
        let delta = match &self.at {
            Some((journal, seq)) if Arc::ptr_eq(journal, &p.journal) => {
                p.journal.since(*seq, p.seq)
            }
            _ => MetadataDelta::full(),
        };
        self.at = Some((p.journal.clone(), p.seq));
        delta
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::Uuid;

    fn partition(t: u128, p: i32) -> MetadataDelta {
        let mut d = MetadataDelta::default();
        d.changes.partitions.insert((Uuid::from_u128(t), p));
        d.changes.topics.insert(Uuid::from_u128(t));
        d
    }

    #[test]
    fn a_follower_that_skipped_publications_gets_their_deltas_merged() {
        let mut p = Publication::default();
        let mut c = Cursor::new();
        assert!(c.advance(&p).full, "the first delta is full");
        for i in 0..5 {
            p = p.next(partition(1, i));
        }
        let d = c.advance(&p);
        assert!(!d.full);
        assert_eq!(d.changes.partitions.len(), 5);
        assert!(c.advance(&p).is_empty(), "nothing new");
        p = p.next(partition(2, 0));
        let d = c.advance(&p);
        assert_eq!(
            d.changes.partitions.iter().copied().collect::<Vec<_>>(),
            vec![(Uuid::from_u128(2), 0)]
        );
    }

    #[test]
    fn a_snapshot_or_a_follower_behind_the_journal_gets_a_full_delta() {
        let mut p = Publication::default();
        let mut c = Cursor::new();
        c.advance(&p);
        p = p.next(partition(1, 0));
        p = p.next(MetadataDelta::full());
        p = p.next(partition(1, 1));
        assert!(c.advance(&p).full, "a snapshot in between");
        for i in 0..(MAX_JOURNAL_DELTAS as i32 + 1) {
            p = p.next(partition(3, i));
        }
        assert!(c.advance(&p).full, "fell behind the journal");
        p = p.next(partition(3, 0));
        assert!(!c.advance(&p).full);
    }

    #[test]
    fn a_deleted_topic_drops_its_earlier_partition_changes() {
        let mut d = partition(1, 0);
        let mut gone = MetadataDelta::default();
        gone.changes
            .deleted_topics
            .insert(Uuid::from_u128(1), "t".into());
        d.merge(&gone);
        assert!(d.changes.partitions.is_empty());
        assert!(d.changes.topics.is_empty());
        assert_eq!(d.changes.deleted_topics.len(), 1);
    }

    #[test]
    fn another_publisher_means_a_full_delta() {
        let mut c = Cursor::new();
        let p = Publication::default().next(partition(1, 0));
        c.advance(&p);
        let q = Publication::default().next(partition(1, 0));
        assert!(c.advance(&q).full);
    }
}
