//! Fetch sessions (KIP-227): a client that fetches the same partitions again and again sends
//! them once; later fetches name only what changed (added, changed or forgotten partitions)
//! and the answer carries only partitions with something new (records, a moved high
//! watermark or log start, an error). Sessions live in a bounded cache
//! (`max.incremental.fetch.session.cache.slots`); a new session may evict one that has been
//! idle longer than `min.incremental.fetch.session.eviction.ms`, else (for a follower) the
//! smallest consumer session, else (for a consumer) a consumer session with fewer partitions,
//! as Kafka's `FetchSessionCache` does.

use crate::data::delayed::Interest;
use fjord_protocol::Uuid;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The most partitions one session holds (a bigger full fetch is served without a session).
pub const MAX_PARTITIONS_PER_SESSION: usize = 100_000;

/// Identifies a partition in a session: by topic id from Fetch v13, else by name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// The topic's name (empty when the session uses ids).
    pub topic: String,
    /// The topic's id (nil when the session uses names).
    pub topic_id: Uuid,
    /// The partition.
    pub partition: i32,
}

/// What a fetch asks of one partition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// The partition.
    pub key: Key,
    /// Where to read from.
    pub fetch_offset: i64,
    /// `partition_max_bytes`.
    pub max_bytes: i32,
    /// The leader epoch the client knows (-1: unchecked).
    pub current_leader_epoch: i32,
    /// The epoch of the last record fetched (-1: unknown).
    pub last_fetched_epoch: i32,
}

/// A cached partition: the request's spec and what the last answer told the client.
#[derive(Debug, Clone)]
struct Cached {
    spec: Spec,
    high_watermark: i64,
    log_start_offset: i64,
    /// When it last returned something (a sequence number): partitions that waited longest
    /// are read first, so every partition gets its turn under `max_bytes`.
    served: u64,
}

/// One session.
#[derive(Debug)]
struct Session {
    /// The epoch the next incremental fetch must carry.
    next_epoch: i32,
    /// A follower's session (it may evict consumers' sessions).
    privileged: bool,
    /// Its partitions.
    partitions: HashMap<Key, Cached>,
    /// The session's standing interest in its partitions (which moved since last read).
    interest: Arc<Interest>,
    /// The hosted-partition generation its partitions were last resolved against.
    generation: u64,
    /// The next `served` sequence number.
    sequence: u64,
    last_used_ms: i64,
}

/// Why an incremental fetch cannot be served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionError {
    /// No session with that id (FETCH_SESSION_ID_NOT_FOUND).
    NotFound,
    /// The epoch is not the one expected (INVALID_FETCH_SESSION_EPOCH).
    InvalidEpoch,
}

/// What the answer to one partition told the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answered {
    /// The high watermark sent.
    pub high_watermark: i64,
    /// The log start offset sent.
    pub log_start_offset: i64,
    /// Whether records, an error or a diverging epoch were sent.
    pub eventful: bool,
}

/// What an incremental fetch reads first.
#[derive(Debug)]
pub struct Incremental {
    /// The partitions to read: those the request added or changed, those that moved since the
    /// session last read them, or every partition when the hosted partitions changed.
    pub specs: Vec<Spec>,
    /// The session's interest (for the wait and later passes).
    pub interest: Arc<Interest>,
}

/// The cache of sessions.
#[derive(Debug)]
pub struct SessionCache {
    slots: usize,
    eviction_ms: i64,
    sessions: HashMap<i32, Session>,
    rng: u64,
}

/// The epoch after `epoch` (wrapping to 1; 0 starts a session, -1 ends one).
fn next_epoch(epoch: i32) -> i32 {
    if epoch == i32::MAX {
        1
    } else {
        epoch + 1
    }
}

impl SessionCache {
    /// A cache of `slots` sessions; an idle session may be evicted after `eviction_ms`.
    pub fn new(slots: usize, eviction_ms: i64, seed: u64) -> SessionCache {
        SessionCache {
            slots,
            eviction_ms,
            sessions: HashMap::new(),
            rng: seed | 1,
        }
    }

    /// How many sessions are cached.
    pub fn len(&self) -> usize {
        self.sessions.len()
    }

    /// True when none are.
    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }

    /// Ends a session (a fetch with epoch -1, or a new full fetch naming its old session).
    pub fn remove(&mut self, id: i32) {
        self.sessions.remove(&id);
    }

    /// Creates a session for a full fetch's partitions with what was answered, subscribed
    /// through `interest` as of hosted-partition `generation`; returns its id, or 0 when the
    /// cache has no room for it (the fetch is then sessionless).
    pub fn create(
        &mut self,
        now_ms: i64,
        privileged: bool,
        answered: Vec<(Spec, Answered)>,
        interest: Arc<Interest>,
        generation: u64,
    ) -> i32 {
        let size = answered.len();
        if self.slots == 0 || size == 0 || size > MAX_PARTITIONS_PER_SESSION {
            return 0;
        }
        if self.sessions.len() >= self.slots && !self.evict_for(now_ms, privileged, size) {
            return 0;
        }
        let id = loop {
            self.rng ^= self.rng << 13;
            self.rng ^= self.rng >> 7;
            self.rng ^= self.rng << 17;
            let id = (self.rng & 0x7fff_ffff) as i32;
            if id != 0 && !self.sessions.contains_key(&id) {
                break id;
            }
        };
        interest.used(now_ms);
        self.sessions.insert(
            id,
            Session {
                next_epoch: 1,
                privileged,
                partitions: answered
                    .into_iter()
                    .map(|(spec, a)| {
                        (
                            spec.key.clone(),
                            Cached {
                                spec,
                                high_watermark: a.high_watermark,
                                log_start_offset: a.log_start_offset,
                                served: u64::from(a.eventful),
                            },
                        )
                    })
                    .collect(),
                interest,
                generation,
                sequence: 2,
                last_used_ms: now_ms,
            },
        );
        id
    }

    /// Makes room for a new session of `size` partitions (Kafka's rules); false when none
    /// may go.
    fn evict_for(&mut self, now_ms: i64, privileged: bool, size: usize) -> bool {
        let stale = self
            .sessions
            .iter()
            .filter(|(_, s)| now_ms - s.last_used_ms > self.eviction_ms)
            .min_by_key(|(_, s)| s.last_used_ms)
            .map(|(id, _)| *id);
        let victim = stale.or_else(|| {
            let (id, s) = self
                .sessions
                .iter()
                .filter(|(_, s)| !s.privileged)
                .min_by_key(|(_, s)| (s.partitions.len(), s.last_used_ms))?;
            (privileged || s.partitions.len() < size).then_some(*id)
        });
        match victim {
            Some(id) => {
                self.sessions.remove(&id);
                true
            }
            None => false,
        }
    }

    /// An incremental fetch: checks the epoch, applies the request's changes (`changed`
    /// partitions added or updated, `forgotten` removed) and returns what to read first: the
    /// changed partitions and those that moved since they were last read, or, when the
    /// hosted partitions changed since the session last looked (`generation`) or its
    /// follower just became `eligible` to join ISRs, all of them; oldest-served first.
    pub fn incremental(
        &mut self,
        id: i32,
        epoch: i32,
        now_ms: i64,
        changed: Vec<Spec>,
        forgotten: &[Key],
        generation: u64,
        eligible: bool,
    ) -> Result<Incremental, SessionError> {
        let s = self.sessions.get_mut(&id).ok_or(SessionError::NotFound)?;
        if epoch != s.next_epoch {
            return Err(SessionError::InvalidEpoch);
        }
        s.next_epoch = next_epoch(epoch);
        s.last_used_ms = now_ms;
        s.interest.used(now_ms);
        for k in forgotten {
            s.partitions.remove(k);
        }
        let mut read: HashSet<Key> = s.interest.take();
        for spec in changed {
            let key = spec.key.clone();
            let room = s.partitions.len() < MAX_PARTITIONS_PER_SESSION;
            match s.partitions.get_mut(&key) {
                Some(c) => c.spec = spec,
                None if room => {
                    s.partitions.insert(
                        key.clone(),
                        Cached {
                            spec,
                            high_watermark: -1,
                            log_start_offset: -1,
                            served: 0,
                        },
                    );
                }
                None => continue,
            }
            read.insert(key);
        }
        // A follower that just became eligible to join ISRs has every partition looked at
        // once with it (a caught-up follower names none of them).
        let now_eligible = s.interest.set_eligible(eligible) && eligible;
        if s.generation != generation || now_eligible {
            s.generation = generation;
            read.extend(s.partitions.keys().cloned());
        }
        Ok(Incremental {
            specs: s.specs_of(read),
            interest: s.interest.clone(),
        })
    }

    /// The session's specs for the partitions in `moved` that it still holds, oldest-served
    /// first (a later pass of a waiting fetch).
    pub fn specs(&self, id: i32, moved: HashSet<Key>) -> Vec<Spec> {
        self.sessions
            .get(&id)
            .map(|s| s.specs_of(moved))
            .unwrap_or_default()
    }

    /// Which of `answers` (partitions of session `id` just read) go in the answer: those with
    /// records, an error, or a high watermark or log start the client has not seen (a
    /// partition the session no longer holds, or an unknown session: all). With `commit` the
    /// session takes them as told (the answer is going out).
    pub fn answered(&mut self, id: i32, answers: &[(Key, Answered)], commit: bool) -> Vec<bool> {
        let Some(s) = self.sessions.get_mut(&id) else {
            return vec![true; answers.len()];
        };
        let mut include = Vec::with_capacity(answers.len());
        for (key, a) in answers {
            let Some(c) = s.partitions.get_mut(key) else {
                include.push(true);
                continue;
            };
            include.push(
                a.eventful
                    || a.high_watermark != c.high_watermark
                    || a.log_start_offset != c.log_start_offset,
            );
            if commit {
                c.high_watermark = a.high_watermark;
                c.log_start_offset = a.log_start_offset;
                if a.eventful {
                    c.served = s.sequence;
                    s.sequence += 1;
                }
            }
        }
        include
    }

    /// The next fetch offset a session holds for a partition (tests).
    pub fn fetch_offset(&self, id: i32, key: &Key) -> Option<i64> {
        self.sessions
            .get(&id)?
            .partitions
            .get(key)
            .map(|c| c.spec.fetch_offset)
    }
}

impl Session {
    /// The specs of `keys` it holds, oldest-served first.
    fn specs_of(&self, keys: HashSet<Key>) -> Vec<Spec> {
        let mut out: Vec<&Cached> = keys.iter().filter_map(|k| self.partitions.get(k)).collect();
        out.sort_by(|a, b| {
            (
                a.served,
                &a.spec.key.topic_id,
                &a.spec.key.topic,
                a.spec.key.partition,
            )
                .cmp(&(
                    b.served,
                    &b.spec.key.topic_id,
                    &b.spec.key.topic,
                    b.spec.key.partition,
                ))
        });
        out.into_iter().map(|c| c.spec.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(p: i32) -> Key {
        Key {
            topic: "t".into(),
            topic_id: Uuid::nil(),
            partition: p,
        }
    }

    fn spec(p: i32, offset: i64) -> Spec {
        Spec {
            key: key(p),
            fetch_offset: offset,
            max_bytes: 1 << 20,
            current_leader_epoch: -1,
            last_fetched_epoch: -1,
        }
    }

    fn answered(hw: i64, eventful: bool) -> Answered {
        Answered {
            high_watermark: hw,
            log_start_offset: 0,
            eventful,
        }
    }

    fn parts(i: &Result<Incremental, SessionError>) -> Vec<i32> {
        i.as_ref()
            .unwrap()
            .specs
            .iter()
            .map(|s| s.key.partition)
            .collect()
    }

    fn fresh() -> Arc<Interest> {
        Arc::new(Interest::new(-1))
    }

    #[test]
    fn incremental_fetches_read_only_what_changed_or_moved() {
        let mut c = SessionCache::new(10, 120_000, 1);
        let interest = fresh();
        let id = c.create(
            0,
            false,
            vec![
                (spec(0, 0), answered(5, true)),
                (spec(1, 0), answered(0, false)),
                (spec(3, 0), answered(0, false)),
            ],
            interest.clone(),
            7,
        );
        assert_ne!(id, 0);
        assert_eq!(
            c.incremental(id, 2, 1, vec![], &[], 7, false).err(),
            Some(SessionError::InvalidEpoch)
        );
        assert_eq!(
            c.incremental(99, 1, 1, vec![], &[], 7, false).err(),
            Some(SessionError::NotFound)
        );
        // Epoch 1: partition 0 moves on, partition 2 is added, partition 1 is forgotten;
        // partition 3 is neither named nor moved, so it is not read. The new partition has
        // never been served, so it is read before 0 (which returned records).
        let first = c.incremental(id, 1, 1, vec![spec(0, 5), spec(2, 0)], &[key(1)], 7, false);
        assert_eq!(parts(&first), vec![2, 0]);
        assert_eq!(c.fetch_offset(id, &key(0)), Some(5));
        assert_eq!(c.fetch_offset(id, &key(1)), None);
        // Only what changed is answered: 0 has nothing new, 2 is new to the client.
        let include = c.answered(
            id,
            &[(key(2), answered(3, false)), (key(0), answered(5, false))],
            true,
        );
        assert_eq!(include, vec![true, false]);
        // Partition 3 moved: the next fetch reads it, and only it.
        interest.mark(&key(3));
        assert_eq!(
            parts(&c.incremental(id, 2, 2, vec![], &[], 7, false)),
            vec![3]
        );
        // Nothing moved and nothing named: nothing is read.
        assert_eq!(
            parts(&c.incremental(id, 3, 3, vec![], &[], 7, false)),
            Vec::<i32>::new()
        );
        // The hosted partitions changed: every partition is read once, those served longest
        // ago first (0 returned records at the first answer).
        let include = c.answered(id, &[(key(2), answered(3, true))], true);
        assert_eq!(include, vec![true]);
        assert_eq!(
            parts(&c.incremental(id, 4, 4, vec![], &[], 8, false)),
            vec![3, 0, 2]
        );
        assert_eq!(
            parts(&c.incremental(id, 5, 5, vec![], &[], 8, false)),
            Vec::<i32>::new()
        );
        // An uncommitted look changes nothing.
        let look = c.answered(id, &[(key(3), answered(9, false))], false);
        assert_eq!(look, vec![true]);
        assert_eq!(
            c.answered(id, &[(key(3), answered(9, false))], true),
            vec![true]
        );
        assert_eq!(
            c.answered(id, &[(key(3), answered(9, false))], true),
            vec![false]
        );
        c.remove(id);
        assert_eq!(
            c.incremental(id, 6, 6, vec![], &[], 8, false).err(),
            Some(SessionError::NotFound)
        );
    }

    #[test]
    fn the_cache_evicts_by_kafkas_rules() {
        let mut c = SessionCache::new(2, 1_000, 7);
        let one = |p| vec![(spec(p, 0), answered(0, false))];
        let ok =
            |c: &mut SessionCache, id, now| c.incremental(id, 1, now, vec![], &[], 0, false).err();
        let three = vec![
            (spec(0, 0), answered(0, false)),
            (spec(1, 0), answered(0, false)),
            (spec(2, 0), answered(0, false)),
        ];
        let a = c.create(0, false, one(0), fresh(), 0);
        let b = c.create(10, false, three.clone(), fresh(), 0);
        assert!(a != 0 && b != 0);
        // Full and nothing stale: a consumer with one partition may not evict anyone (no
        // session is smaller than it).
        assert_eq!(c.create(20, false, one(5), fresh(), 0), 0);
        // A consumer with more partitions evicts the smallest consumer session.
        let big: Vec<_> = (0..5).map(|p| (spec(p, 0), answered(0, false))).collect();
        let d = c.create(30, false, big, fresh(), 0);
        assert_ne!(d, 0);
        assert_eq!(ok(&mut c, a, 31), Some(SessionError::NotFound));
        // A follower evicts the smallest consumer session whatever its size.
        let f = c.create(40, true, one(0), fresh(), 0);
        assert_ne!(f, 0);
        assert_eq!(c.len(), 2);
        assert_eq!(ok(&mut c, b, 41), Some(SessionError::NotFound));
        // Idle past the eviction time: anyone may take its slot.
        let g = c.create(5_000, false, one(1), fresh(), 0);
        assert_ne!(g, 0);
        assert_eq!(c.len(), 2);
        // No slots at all: never a session.
        let mut none = SessionCache::new(0, 1_000, 3);
        assert_eq!(none.create(0, false, one(0), fresh(), 0), 0);
    }
}
