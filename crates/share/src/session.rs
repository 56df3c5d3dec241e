//! Share sessions (KIP-932), as Kafka 4.4's `SharePartitionManager` keeps them: one per group
//! and member, holding the share-partitions the member fetches, so a ShareFetch names only
//! what changed. Epoch 0 opens a session (replacing the member's old one; an initial fetch
//! may not carry acknowledgements), -1 closes it, any other epoch must be the session's next
//! one; each accepted request moves it on (after `i32::MAX` comes 1). A session ends with its
//! connection or its member, and the cache holds at most `group.share.max.share.sessions`.

use std::collections::{BTreeSet, HashMap, HashSet};

use uuid::Uuid;

/// The epoch that opens a session.
pub const INITIAL_EPOCH: i32 = 0;
/// The epoch that closes a session.
pub const FINAL_EPOCH: i32 = -1;
/// The most share-partitions one session holds (a bound Kafka lacks; a member is assigned
/// far fewer).
pub const MAX_SESSION_PARTITIONS: usize = 100_000;

/// A topic partition by id.
pub type TopicIdPartition = (Uuid, i32);

/// Why a share session refused a request, with Kafka's code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// SHARE_SESSION_NOT_FOUND (122).
    #[error("The share session was not found.")]
    NotFound,
    /// INVALID_SHARE_SESSION_EPOCH (123).
    #[error("The share session epoch is invalid.")]
    InvalidEpoch,
    /// SHARE_SESSION_LIMIT_REACHED (133).
    #[error("The limit of share sessions has been reached.")]
    LimitReached,
    /// INVALID_REQUEST (42).
    #[error("{0}")]
    InvalidRequest(String),
}

impl SessionError {
    /// The Kafka error code.
    pub fn code(&self) -> i16 {
        match self {
            SessionError::NotFound => 122,
            SessionError::InvalidEpoch => 123,
            SessionError::LimitReached => 133,
            SessionError::InvalidRequest(_) => 42,
        }
    }
}

/// The epoch after `epoch`.
pub fn next_epoch(epoch: i32) -> i32 {
    if epoch < 0 {
        epoch
    } else if epoch == i32::MAX {
        1
    } else {
        epoch + 1
    }
}

#[derive(Debug)]
struct Session {
    /// The epoch the next request must carry.
    epoch: i32,
    partitions: BTreeSet<TopicIdPartition>,
    connection: u64,
}

/// What a ShareFetch is to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchContext {
    /// The share-partitions to fetch from: the session's, after this request's changes.
    pub partitions: Vec<TopicIdPartition>,
    /// The session closed with this request (acknowledge only, fetch nothing).
    pub closed: bool,
}

/// The share sessions of one broker.
#[derive(Debug)]
pub struct ShareSessionCache {
    max_sessions: usize,
    sessions: HashMap<(String, String), Session>,
    by_connection: HashMap<u64, HashSet<(String, String)>>,
}

impl ShareSessionCache {
    /// A cache of at most `max_sessions` sessions.
    pub fn new(max_sessions: usize) -> ShareSessionCache {
        ShareSessionCache {
            max_sessions,
            sessions: HashMap::new(),
            by_connection: HashMap::new(),
        }
    }

    /// How many sessions are open.
    pub fn len(&self) -> usize {
        self.sessions.len()
    }

    /// Whether none is open.
    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }

    /// The epoch `member`'s session expects next.
    pub fn epoch(&self, group: &str, member: &str) -> Option<i32> {
        self.sessions
            .get(&(group.to_string(), member.to_string()))
            .map(|s| s.epoch)
    }

    fn remove(&mut self, key: &(String, String)) -> Option<Session> {
        let s = self.sessions.remove(key)?;
        if let Some(keys) = self.by_connection.get_mut(&s.connection) {
            keys.remove(key);
            if keys.is_empty() {
                self.by_connection.remove(&s.connection);
            }
        }
        Some(s)
    }

    /// A ShareFetch from `member` of `group` on `connection` at `epoch`, adding `add` to its
    /// session and forgetting `forget`; `acks` says whether it carries acknowledgements.
    pub fn fetch(
        &mut self,
        group: &str,
        member: &str,
        epoch: i32,
        add: &[TopicIdPartition],
        forget: &[TopicIdPartition],
        acks: bool,
        connection: u64,
    ) -> Result<FetchContext, SessionError> {
        let key = (group.to_string(), member.to_string());
        match epoch {
            FINAL_EPOCH => {
                let s = self.remove(&key).ok_or(SessionError::NotFound)?;
                Ok(FetchContext {
                    partitions: s.partitions.into_iter().collect(),
                    closed: true,
                })
            }
            INITIAL_EPOCH => {
                if acks {
                    return Err(SessionError::InvalidRequest(format!(
                        "Acknowledge data present in the initial fetch request for group {group} member {member}"
                    )));
                }
                self.remove(&key);
                if self.sessions.len() >= self.max_sessions {
                    return Err(SessionError::LimitReached);
                }
                let partitions: BTreeSet<TopicIdPartition> = add.iter().copied().collect();
                check_size(partitions.len())?;
                self.by_connection
                    .entry(connection)
                    .or_default()
                    .insert(key.clone());
                self.sessions.insert(
                    key,
                    Session {
                        epoch: next_epoch(INITIAL_EPOCH),
                        partitions: partitions.clone(),
                        connection,
                    },
                );
                Ok(FetchContext {
                    partitions: partitions.into_iter().collect(),
                    closed: false,
                })
            }
            _ => {
                let s = self.sessions.get_mut(&key).ok_or(SessionError::NotFound)?;
                if s.epoch != epoch {
                    return Err(SessionError::InvalidEpoch);
                }
                let mut partitions = s.partitions.clone();
                partitions.extend(add.iter().copied());
                for f in forget {
                    partitions.remove(f);
                }
                check_size(partitions.len())?;
                s.partitions = partitions;
                s.epoch = next_epoch(epoch);
                Ok(FetchContext {
                    partitions: s.partitions.iter().copied().collect(),
                    closed: false,
                })
            }
        }
    }

    /// A ShareAcknowledge from `member` of `group` at `epoch` (0 is refused: a session must
    /// be open; -1 closes it).
    pub fn acknowledge(
        &mut self,
        group: &str,
        member: &str,
        epoch: i32,
    ) -> Result<bool, SessionError> {
        let key = (group.to_string(), member.to_string());
        match epoch {
            INITIAL_EPOCH => Err(SessionError::InvalidEpoch),
            FINAL_EPOCH => {
                self.remove(&key).ok_or(SessionError::NotFound)?;
                Ok(true)
            }
            _ => {
                let s = self.sessions.get_mut(&key).ok_or(SessionError::NotFound)?;
                if s.epoch != epoch {
                    return Err(SessionError::InvalidEpoch);
                }
                s.epoch = next_epoch(epoch);
                Ok(false)
            }
        }
    }

    /// The connection closed: its sessions end. Returns them as (group, member).
    pub fn connection_closed(&mut self, connection: u64) -> Vec<(String, String)> {
        let keys: Vec<(String, String)> = self
            .by_connection
            .remove(&connection)
            .map(|k| k.into_iter().collect())
            .unwrap_or_default();
        for k in &keys {
            self.sessions.remove(k);
        }
        keys
    }

    /// The member left its group: its session ends.
    pub fn member_left(&mut self, group: &str, member: &str) -> bool {
        self.remove(&(group.to_string(), member.to_string()))
            .is_some()
    }
}

fn check_size(n: usize) -> Result<(), SessionError> {
    if n > MAX_SESSION_PARTITIONS {
        return Err(SessionError::InvalidRequest(format!(
            "A share session holds at most {MAX_SESSION_PARTITIONS} partitions; this one would hold {n}."
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tp(t: u128, p: i32) -> TopicIdPartition {
        (Uuid::from_u128(t), p)
    }

    #[test]
    fn epochs_open_advance_and_close() {
        let mut c = ShareSessionCache::new(2);
        let ctx = c
            .fetch("g", "m", 0, &[tp(1, 0), tp(1, 1)], &[], false, 7)
            .unwrap();
        assert_eq!(ctx.partitions, vec![tp(1, 0), tp(1, 1)]);
        assert_eq!(c.epoch("g", "m"), Some(1));
        // A stale or skipped epoch is refused and changes nothing.
        assert_eq!(
            c.fetch("g", "m", 2, &[], &[], true, 7),
            Err(SessionError::InvalidEpoch)
        );
        let ctx = c
            .fetch("g", "m", 1, &[tp(2, 0)], &[tp(1, 0)], true, 7)
            .unwrap();
        assert_eq!(ctx.partitions, vec![tp(1, 1), tp(2, 0)]);
        assert_eq!(c.acknowledge("g", "m", 2), Ok(false));
        assert_eq!(c.acknowledge("g", "m", 2), Err(SessionError::InvalidEpoch));
        assert_eq!(c.acknowledge("g", "m", 0), Err(SessionError::InvalidEpoch));
        assert_eq!(c.epoch("g", "m"), Some(3));
        // Closing returns what it held; closing again finds nothing.
        let ctx = c.fetch("g", "m", -1, &[], &[], true, 7).unwrap();
        assert!(ctx.closed);
        assert_eq!(
            c.fetch("g", "m", -1, &[], &[], false, 7),
            Err(SessionError::NotFound)
        );
        assert_eq!(
            c.fetch("g", "m", 3, &[], &[], false, 7),
            Err(SessionError::NotFound)
        );
        assert!(c.is_empty());
    }

    #[test]
    fn an_initial_fetch_carries_no_acknowledgements() {
        let mut c = ShareSessionCache::new(2);
        let e = c.fetch("g", "m", 0, &[], &[], true, 1).unwrap_err();
        assert_eq!(e.code(), 42);
        assert!(c.is_empty());
    }

    #[test]
    fn the_cache_is_bounded_and_a_reopen_replaces() {
        let mut c = ShareSessionCache::new(2);
        c.fetch("g", "a", 0, &[], &[], false, 1).unwrap();
        c.fetch("g", "b", 0, &[], &[], false, 1).unwrap();
        assert_eq!(
            c.fetch("g", "c", 0, &[], &[], false, 2),
            Err(SessionError::LimitReached)
        );
        // The same member opening again replaces its own session, even when full.
        c.fetch("g", "a", 0, &[tp(1, 0)], &[], false, 2).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(
            c.connection_closed(1),
            vec![("g".to_string(), "b".to_string())]
        );
        assert!(c.member_left("g", "a"));
        assert!(c.is_empty());
        assert_eq!(next_epoch(i32::MAX), 1);
    }
}
