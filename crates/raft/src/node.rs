//! The sans-IO Raft node (KIP-595 with KIP-996 pre-vote): events in (`tick`, `receive`,
//! `propose`), actions out (`take_actions`). It has no clock, socket or disk of its own: time
//! is what `tick` says, randomness comes from a seed, and the log is reached through
//! [`RaftLog`]. A driver persists [`Action::PersistQuorumState`] before carrying out the sends
//! that follow it.

use crate::log::RaftLog;
use crate::types::{
    Action, Entry, EntryKind, FetchResult, Message, NodeId, QuorumState, SnapshotChunk, SnapshotId,
};
use bytes::{Bytes, BytesMut};
use std::collections::{BTreeMap, BTreeSet};

/// Timers and limits, with Kafka's `controller.quorum.*` names and defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RaftConfig {
    /// `controller.quorum.election.timeout.ms`: how long without a leader before an election
    /// (randomised between this and twice this).
    pub election_timeout_ms: i64,
    /// `controller.quorum.fetch.timeout.ms`: how long a follower waits for the leader, and a
    /// leader for a majority of fetches, before giving up on it.
    pub fetch_timeout_ms: i64,
    /// How long a caught-up follower waits before fetching again: 0 when the leader holds
    /// fetches until there is something new (the driver), more in a simulation that answers
    /// at once.
    pub fetch_idle_ms: i64,
    /// `controller.quorum.retry.backoff.ms`: how long to wait before fetching again from a node
    /// that no longer leads.
    pub retry_backoff_ms: i64,
    /// How long a fetch may go unanswered before it is sent again.
    pub request_timeout_ms: i64,
    /// The most entries one fetch response carries.
    pub max_fetch_entries: usize,
    /// The most snapshot bytes one FetchSnapshot response carries.
    pub max_snapshot_chunk: usize,
}

impl Default for RaftConfig {
    fn default() -> Self {
        RaftConfig {
            election_timeout_ms: 1_000,
            fetch_timeout_ms: 2_000,
            fetch_idle_ms: 500,
            retry_backoff_ms: 20,
            request_timeout_ms: 2_000,
            max_fetch_entries: 1_024,
            max_snapshot_chunk: 1 << 20,
        }
    }
}

/// What a leader knows of one replica.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplicaProgress {
    /// The replica's log end offset, as its last fetch said.
    pub end_offset: i64,
    /// When it last fetched.
    pub last_fetch_ms: i64,
    /// When the leader last sent it BeginQuorumEpoch.
    pub last_begin_ms: i64,
    /// When it last fetched from at or past the leader's log end (-1: never).
    pub last_caught_up_ms: i64,
}

/// How long a leader keeps an observer that stopped fetching (Kafka's
/// `OBSERVER_SESSION_TIMEOUT_MS`).
pub const OBSERVER_SESSION_TIMEOUT_MS: i64 = 300_000;
/// The most observers a leader tracks; a new one beyond it replaces the one that fetched
/// longest ago, so fetches with made-up replica ids cannot grow the leader's state.
pub const MAX_TRACKED_OBSERVERS: usize = 1_000;

/// Makes room for one more tracked replica: at [`MAX_TRACKED_OBSERVERS`] observers, forgets
/// the one that fetched longest ago.
fn track_bounded(progress: &mut BTreeMap<NodeId, ReplicaProgress>, voters: &BTreeSet<NodeId>) {
    let observers = progress.keys().filter(|id| !voters.contains(id)).count();
    if observers < MAX_TRACKED_OBSERVERS {
        return;
    }
    let oldest = progress
        .iter()
        .filter(|(id, _)| !voters.contains(id))
        .min_by_key(|(_, p)| p.last_fetch_ms)
        .map(|(id, _)| *id);
    if let Some(id) = oldest {
        progress.remove(&id);
    }
}

/// One replica as DescribeQuorum reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplicaDescription {
    /// The replica.
    pub id: NodeId,
    /// Its log end offset (as its last fetch said; the leader's own for the leader).
    pub log_end_offset: i64,
    /// When it last fetched (-1: never).
    pub last_fetch_ms: i64,
    /// When it was last caught up with the leader (-1: never).
    pub last_caught_up_ms: i64,
}

/// DescribeQuorum's answer, from the leader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuorumDescription {
    /// The leader.
    pub leader: NodeId,
    /// Its epoch.
    pub epoch: i32,
    /// Its high watermark.
    pub high_watermark: i64,
    /// The voters, the leader included.
    pub voters: Vec<ReplicaDescription>,
    /// The observers that have fetched.
    pub observers: Vec<ReplicaDescription>,
}

/// The node's role in its epoch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// No leader known and no election under way.
    Unattached,
    /// Asking for pre-votes before starting an election (KIP-996).
    Prospective {
        /// The voters that granted a pre-vote.
        granted: BTreeSet<NodeId>,
        /// The leader this node gave up on, if any: hints pointing back to it are ignored.
        gave_up_on: Option<NodeId>,
    },
    /// Running an election in its epoch.
    Candidate {
        /// The voters that granted their vote.
        granted: BTreeSet<NodeId>,
    },
    /// Leading the epoch.
    Leader {
        /// The offset of the leader-change entry that starts the epoch.
        epoch_start: i64,
        /// What the leader knows of every other replica.
        progress: BTreeMap<NodeId, ReplicaProgress>,
    },
    /// Following the epoch's leader.
    Follower {
        /// The leader.
        leader: NodeId,
    },
    /// A leader that lost its majority: it stays out of the way until an election.
    Resigned,
}

/// Why a proposal was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotLeader {
    /// The leader this node knows of.
    pub leader: Option<NodeId>,
}

/// Why a voter change was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VoterChangeError {
    /// This node does not lead (Kafka: NOT_LEADER_OR_FOLLOWER).
    NotLeader(NotLeader),
    /// The leader has not committed an entry in its epoch yet, or an earlier change is not
    /// committed (Kafka: REQUEST_TIMED_OUT; the caller retries).
    ChangeInProgress,
    /// The replica to add is already a voter (Kafka: DUPLICATE_VOTER).
    DuplicateVoter,
    /// The replica to remove is not a voter (Kafka: VOTER_NOT_FOUND).
    VoterNotFound,
    /// The replica to add is not fetching and caught up (Kafka: REQUEST_TIMED_OUT).
    NotCaughtUp,
    /// The change would leave no voter.
    LastVoter,
}

/// Why a snapshot could not be taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotError {
    /// Its end offset is above the high watermark.
    NotCommitted,
    /// Its end offset is not after the latest snapshot's.
    NotNewer,
    /// Its end offset falls inside a batch.
    NotOnBatchBoundary,
}

/// A snapshot being downloaded from the leader.
#[derive(Debug)]
struct Download {
    id: SnapshotId,
    bytes: BytesMut,
}

/// One Raft node.
#[derive(Debug)]
pub struct RaftNode<L: RaftLog> {
    id: NodeId,
    /// The voters in force below the first entry of `voter_changes` (from the snapshot, else
    /// the static configuration).
    base_voters: BTreeSet<NodeId>,
    /// Voter sets appended to the log after the snapshot, by offset: the last is in force.
    voter_changes: Vec<(i64, BTreeSet<NodeId>)>,
    download: Option<Download>,
    config: RaftConfig,
    log: L,
    state: QuorumState,
    role: Role,
    high_watermark: i64,
    now: i64,
    deadline: i64,
    next_fetch_at: i64,
    /// The id of the last fetch sent: answers to older ones are stale and ignored.
    fetch_request_id: u64,
    /// The leader whose connection closed since this follower last heard from it: a second
    /// failure (its reconnect refused) before an answer gives it up.
    suspect: Option<NodeId>,
    /// True once this follower gave its leader up after two connection failures: it stands
    /// at its (jittered, short) deadline and grants pre-votes meanwhile.
    leader_lost: bool,
    rng: u64,
    actions: Vec<Action>,
}

impl<L: RaftLog> RaftNode<L> {
    /// A node starting (or restarting) with its persisted quorum state. `voters` is the static
    /// voter set, used unless the log's snapshot or entries record one. A node that led before
    /// it stopped does not lead again in that epoch: it resigns.
    pub fn new(
        id: NodeId,
        voters: BTreeSet<NodeId>,
        config: RaftConfig,
        log: L,
        persisted: QuorumState,
        now: i64,
        seed: u64,
    ) -> RaftNode<L> {
        let role = match persisted.leader {
            Some(l) if l == id => Role::Resigned,
            Some(l) => Role::Follower { leader: l },
            None => Role::Unattached,
        };
        let base_voters = log.snapshot_voters().unwrap_or(voters);
        let mut voter_changes = Vec::new();
        let mut at = log.start_offset();
        loop {
            let chunk = log.read(at, 1_024);
            let Some(last) = chunk.last() else { break };
            at = last.next_offset();
            voter_changes.extend(chunk.into_iter().filter_map(|e| match e.kind {
                EntryKind::Voters(v) => Some((e.offset, v)),
                _ => None,
            }));
        }
        let high_watermark = log.start_offset();
        let mut node = RaftNode {
            id,
            base_voters,
            voter_changes,
            download: None,
            config,
            log,
            state: persisted,
            role,
            high_watermark,
            now,
            deadline: now,
            next_fetch_at: now,
            fetch_request_id: 0,
            suspect: None,
            leader_lost: false,
            rng: seed | 1,
            actions: Vec::new(),
        };
        node.deadline = match node.role {
            Role::Follower { .. } => now + config.fetch_timeout_ms,
            // The only voter has nobody to wait for: it stands at the first tick.
            _ if node.voters().len() == 1 && node.is_voter() => now,
            _ => now + node.election_timeout(),
        };
        node
    }

    /// This node's id.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The current epoch.
    pub fn epoch(&self) -> i32 {
        self.state.epoch
    }

    /// The leader of the current epoch, if known.
    pub fn leader(&self) -> Option<NodeId> {
        self.state.leader
    }

    /// The role.
    pub fn role(&self) -> &Role {
        &self.role
    }

    /// True when this node leads its epoch.
    pub fn is_leader(&self) -> bool {
        matches!(self.role, Role::Leader { .. })
    }

    /// The high watermark: entries below it are committed.
    pub fn high_watermark(&self) -> i64 {
        self.high_watermark
    }

    /// The quorum state as last persisted.
    pub fn quorum_state(&self) -> QuorumState {
        self.state
    }

    /// The log.
    pub fn log(&self) -> &L {
        &self.log
    }

    /// The actions produced since the last call, in order.
    pub fn take_actions(&mut self) -> Vec<Action> {
        std::mem::take(&mut self.actions)
    }

    /// The voter set in force: the last one in the log, else the snapshot's or the static one.
    pub fn voters(&self) -> &BTreeSet<NodeId> {
        self.voter_changes
            .last()
            .map_or(&self.base_voters, |(_, v)| v)
    }

    /// The voter set in force just below `offset`.
    fn voters_at(&self, offset: i64) -> BTreeSet<NodeId> {
        self.voter_changes
            .iter()
            .rev()
            .find(|(o, _)| *o < offset)
            .map_or_else(|| self.base_voters.clone(), |(_, v)| v.clone())
    }

    /// True when a voter change is appended but not committed.
    pub fn voter_change_pending(&self) -> bool {
        self.voter_changes
            .last()
            .is_some_and(|(o, _)| *o >= self.high_watermark)
    }

    /// The leader to point others at: not this node once it stopped leading its epoch.
    fn leader_hint(&self) -> Option<NodeId> {
        self.state
            .leader
            .filter(|l| *l != self.id || self.is_leader())
    }

    /// Whether this node may stand for election: a voter, or a node the latest (uncommitted)
    /// voter change removed, which may still be needed to commit it (as in the Raft
    /// dissertation, §4.2.2; it does not count its own vote).
    fn may_stand(&self) -> bool {
        self.is_voter()
            || (self.voter_change_pending()
                && self
                    .voter_changes
                    .last()
                    .is_some_and(|(o, _)| self.voters_at(*o).contains(&self.id)))
    }

    fn is_voter(&self) -> bool {
        self.voters().contains(&self.id)
    }

    fn majority(&self) -> usize {
        self.voters().len() / 2 + 1
    }

    /// How many of `granted` are voters now.
    fn voter_count(&self, granted: &BTreeSet<NodeId>) -> usize {
        granted.intersection(self.voters()).count()
    }

    fn append_to_log(&mut self, entries: &[Entry]) {
        for e in entries {
            if let EntryKind::Voters(v) = &e.kind {
                self.voter_changes.push((e.offset, v.clone()));
            }
        }
        self.log.append(entries);
    }

    fn truncate_log(&mut self, offset: i64) {
        self.log.truncate_to(offset);
        let end = self.log.end_offset();
        self.voter_changes.retain(|(o, _)| *o < end);
    }

    fn next_random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// When a follower gives up on a silent leader: the fetch timeout plus a little jitter
    /// (up to a quarter of the election timeout), so followers that heard the leader last at
    /// the same moment do not all stand at once and split the vote.
    fn follower_deadline(&mut self) -> i64 {
        let jitter = (self.config.election_timeout_ms / 4).max(0) as u64 + 1;
        self.now + self.config.fetch_timeout_ms + (self.next_random() % jitter) as i64
    }

    fn election_timeout(&mut self) -> i64 {
        let base = self.config.election_timeout_ms.max(1);
        base + (self.next_random() % base as u64) as i64
    }

    fn persist(&mut self) {
        self.actions.push(Action::PersistQuorumState(self.state));
    }

    fn send(&mut self, to: NodeId, message: Message) {
        self.actions.push(Action::Send { to, message });
    }

    fn others(&self) -> Vec<NodeId> {
        self.voters()
            .iter()
            .copied()
            .filter(|v| *v != self.id)
            .collect()
    }

    // ---- transitions -------------------------------------------------------------------

    fn become_unattached(&mut self, epoch: i32) {
        self.download = None;
        self.state = QuorumState {
            epoch,
            leader: None,
            voted_for: None,
        };
        self.persist();
        self.role = Role::Unattached;
        self.deadline = self.now + self.election_timeout();
        self.next_fetch_at = self.now;
    }

    fn become_prospective(&mut self) {
        self.download = None;
        let mut granted = BTreeSet::new();
        granted.insert(self.id);
        let gave_up_on = match &self.role {
            Role::Prospective { gave_up_on, .. } => *gave_up_on,
            _ => self.state.leader,
        };
        self.role = Role::Prospective {
            granted,
            gave_up_on,
        };
        self.deadline = self.now + self.election_timeout();
        self.ask_for_votes(self.state.epoch, true);
        self.maybe_won_pre_vote();
    }

    /// Sends a vote (or pre-vote) request for `epoch` to every other voter.
    fn ask_for_votes(&mut self, epoch: i32, pre_vote: bool) {
        let request = Message::VoteRequest {
            epoch,
            candidate: self.id,
            last_epoch: self.log.last_epoch(),
            end_offset: self.log.end_offset(),
            pre_vote,
        };
        for v in self.others() {
            self.send(v, request.clone());
        }
    }

    fn maybe_won_pre_vote(&mut self) {
        if let Role::Prospective { granted, .. } = &self.role {
            if self.voter_count(granted) >= self.majority() {
                self.become_candidate();
            }
        }
    }

    fn become_candidate(&mut self) {
        self.state = QuorumState {
            epoch: self.state.epoch + 1,
            leader: None,
            voted_for: Some(self.id),
        };
        self.persist();
        let mut granted = BTreeSet::new();
        granted.insert(self.id);
        self.role = Role::Candidate { granted };
        self.deadline = self.now + self.election_timeout();
        self.ask_for_votes(self.state.epoch, false);
        self.maybe_won_election();
    }

    fn maybe_won_election(&mut self) {
        if let Role::Candidate { granted } = &self.role {
            if self.voter_count(granted) >= self.majority() {
                self.become_leader();
            }
        }
    }

    fn become_leader(&mut self) {
        self.state.leader = Some(self.id);
        self.persist();
        let epoch_start = self.log.end_offset();
        self.download = None;
        // The leader-change entry: the epoch's first entry, committed before anything else.
        self.append_to_log(&[Entry {
            offset: epoch_start,
            records: 1,
            epoch: self.state.epoch,
            kind: EntryKind::LeaderChange { leader: self.id },
            data: Bytes::new(),
        }]);
        let progress = self
            .others()
            .into_iter()
            .map(|v| {
                (
                    v,
                    ReplicaProgress {
                        end_offset: 0,
                        last_fetch_ms: self.now,
                        last_begin_ms: self.now,
                        last_caught_up_ms: -1,
                    },
                )
            })
            .collect();
        self.role = Role::Leader {
            epoch_start,
            progress,
        };
        self.deadline = self.now + self.config.fetch_timeout_ms;
        let begin = Message::BeginQuorumEpoch {
            epoch: self.state.epoch,
            leader: self.id,
        };
        for v in self.others() {
            self.send(v, begin.clone());
        }
        self.update_high_watermark();
    }

    fn become_follower(&mut self, epoch: i32, leader: NodeId) {
        if epoch != self.state.epoch || self.state.leader != Some(leader) {
            self.download = None;
        }
        let voted_for = if epoch == self.state.epoch {
            self.state.voted_for
        } else {
            None
        };
        self.state = QuorumState {
            epoch,
            leader: Some(leader),
            voted_for,
        };
        self.persist();
        self.role = Role::Follower { leader };
        self.suspect = None;
        self.leader_lost = false;
        self.deadline = self.follower_deadline();
        self.next_fetch_at = self.now;
        self.maybe_fetch();
    }

    // ---- events ------------------------------------------------------------------------

    /// The connection to `peer` closed, or a connection to it could not be made (its process
    /// may have died; its kernel closed the socket and refuses new ones). A voter following
    /// `peer` fetches again at once; if that fails too before `peer` answers, it stops
    /// waiting for `controller.quorum.fetch.timeout.ms`: it grants other voters' pre-votes
    /// and asks for its own after a delay staggered by its rank among the other voters (a
    /// fortieth of the election timeout per rank, plus jitter within half of that), so that
    /// the voters that lost the same leader do not split the vote (KIP-996). Voters that still hear from a live leader
    /// refuse them and the epoch does not change, so a live leader that lost one connection is
    /// never deposed; this voter keeps probing its leader and follows it again when it
    /// answers.
    pub fn peer_connection_closed(&mut self, peer: NodeId) {
        if !matches!(self.role, Role::Follower { leader } if leader == peer) {
            return;
        }
        if self.suspect == Some(peer) {
            if !self.leader_lost {
                // Stand after a short delay, staggered by this voter's rank among the others
                // (the lost leader left out) plus a little jitter, so that followers that
                // lost the same leader at the same moment do not split the vote; grant
                // others' pre-votes meanwhile.
                self.leader_lost = true;
                let slot = (self.config.election_timeout_ms / 40).max(1);
                let rank = self
                    .voters()
                    .iter()
                    .filter(|v| **v != peer)
                    .position(|v| *v == self.id)
                    .unwrap_or(0) as i64;
                let jitter = (self.next_random() % (slot as u64 / 2 + 1)) as i64;
                self.deadline = self.deadline.min(self.now + rank * slot + jitter);
            }
            return;
        }
        // First failure: fetch again now (a reconnect). A dead process's kernel refuses it,
        // which is the second failure; a live leader answers and the suspicion ends.
        self.suspect = Some(peer);
        self.next_fetch_at = self.now;
        self.maybe_fetch();
    }

    /// True while this follower has given its leader up after two connection failures
    /// and is about to stand ([`RaftNode::peer_connection_closed`]).
    pub fn leader_lost(&self) -> bool {
        self.leader_lost && matches!(self.role, Role::Follower { .. })
    }

    /// Advances time to `now` and fires whatever timers are due.
    pub fn tick(&mut self, now: i64) {
        self.now = self.now.max(now);
        match self.role.clone() {
            Role::Leader { progress, .. } => {
                self.log.flush();
                self.update_high_watermark();
                // A leader the committed voter set left hands over (KIP-853).
                if !self.is_voter() && !self.voter_change_pending() {
                    self.resign();
                    return;
                }
                let voters = self.voters().clone();
                // Voters that are not fetching may not know this epoch: tell them again.
                let interval = self.config.fetch_timeout_ms / 2;
                let begin = Message::BeginQuorumEpoch {
                    epoch: self.state.epoch,
                    leader: self.id,
                };
                let stale: Vec<NodeId> = progress
                    .iter()
                    .filter(|(v, p)| {
                        voters.contains(v)
                            && self.now - p.last_fetch_ms >= interval
                            && self.now - p.last_begin_ms >= interval
                    })
                    .map(|(v, _)| *v)
                    .collect();
                for v in stale {
                    self.send(v, begin.clone());
                    if let Role::Leader { progress, .. } = &mut self.role {
                        if let Some(p) = progress.get_mut(&v) {
                            p.last_begin_ms = self.now;
                        }
                    }
                }
                // Observers that stopped fetching are forgotten (Kafka's observer session).
                if let Role::Leader { progress, .. } = &mut self.role {
                    let now = self.now;
                    progress.retain(|id, p| {
                        voters.contains(id) || now - p.last_fetch_ms <= OBSERVER_SESSION_TIMEOUT_MS
                    });
                }
                // Check quorum: a leader that has not heard from a majority resigns.
                let window = self.config.fetch_timeout_ms * 3 / 2;
                let fresh = usize::from(self.is_voter())
                    + progress
                        .iter()
                        .filter(|(v, p)| voters.contains(v) && self.now - p.last_fetch_ms <= window)
                        .count();
                if fresh < self.majority() {
                    self.role = Role::Resigned;
                    self.deadline = self.now + self.election_timeout();
                }
            }
            Role::Follower { .. } => {
                if self.now >= self.deadline {
                    if self.may_stand() {
                        self.become_prospective();
                    } else {
                        self.become_unattached(self.state.epoch);
                    }
                } else {
                    self.maybe_fetch();
                }
            }
            Role::Unattached
            | Role::Prospective { .. }
            | Role::Candidate { .. }
            | Role::Resigned => {
                if self.may_stand() && self.now >= self.deadline {
                    self.become_prospective();
                } else {
                    self.maybe_fetch();
                }
            }
        }
    }

    /// Sends a fetch when one is due: to the leader, or (an observer with no leader) to a voter.
    fn maybe_fetch(&mut self) {
        if self.now < self.next_fetch_at {
            return;
        }
        let target = match (&self.role, self.state.leader) {
            (Role::Follower { leader }, _) => *leader,
            // A voter that gave up on its leader still probes it: an answer proves it alive
            // (the voters may have moved on without this one, e.g. after removing it).
            (Role::Prospective { .. }, Some(l)) if l != self.id => l,
            (_, _) if !self.is_voter() => {
                let others: Vec<NodeId> = self.voters().iter().copied().collect();
                if others.is_empty() {
                    return;
                }
                others[(self.next_random() % others.len() as u64) as usize]
            }
            _ => return,
        };
        self.fetch_request_id += 1;
        self.next_fetch_at = self.now + self.config.request_timeout_ms;
        if let Some(d) = &self.download {
            let request = Message::FetchSnapshotRequest {
                epoch: self.state.epoch,
                replica: self.id,
                snapshot: d.id,
                position: d.bytes.len() as u64,
                request_id: self.fetch_request_id,
            };
            self.send(target, request);
            return;
        }
        let request = Message::FetchRequest {
            epoch: self.state.epoch,
            replica: self.id,
            fetch_offset: self.log.end_offset(),
            last_fetched_epoch: self.log.last_epoch(),
            // fjord's fetchers send Fetch v17 (a node of an older build serves no v18).
            high_watermark: crate::types::HIGH_WATERMARK_NOT_SENT,
            request_id: self.fetch_request_id,
        };
        self.send(target, request);
    }

    /// Proposes a batch of `records` records (`data`): the offset of its last record, once
    /// appended to the leader's log. It is committed when the high watermark passes it.
    pub fn propose(&mut self, records: u32, data: Bytes) -> Result<i64, NotLeader> {
        if !self.is_leader() {
            return Err(NotLeader {
                leader: self.state.leader,
            });
        }
        let offset = self.log.end_offset();
        let entry = Entry {
            offset,
            records: records.max(1),
            epoch: self.state.epoch,
            kind: EntryKind::Data,
            data,
        };
        let last = entry.next_offset() - 1;
        self.append_to_log(&[entry]);
        Ok(last)
    }

    /// Adds a voter (KIP-853 AddRaftVoter): appends the new voter set, in force at once; the
    /// change is done when the high watermark passes the returned offset. `data` is the
    /// VotersRecord batch as the log stores it. The replica must be fetching and caught up, the
    /// leader must have committed in its epoch, and no other change may be pending.
    pub fn add_voter(&mut self, replica: NodeId, data: Bytes) -> Result<i64, VoterChangeError> {
        self.check_voter_change()?;
        if self.voters().contains(&replica) {
            return Err(VoterChangeError::DuplicateVoter);
        }
        let progress = match &self.role {
            Role::Leader { progress, .. } => progress.get(&replica),
            _ => None,
        };
        let caught_up = progress.is_some_and(|p| {
            p.last_caught_up_ms >= 0
                && self.now - p.last_caught_up_ms <= self.config.fetch_timeout_ms
        });
        if !caught_up {
            return Err(VoterChangeError::NotCaughtUp);
        }
        let mut voters = self.voters().clone();
        voters.insert(replica);
        Ok(self.append_voters(voters, data))
    }

    /// Removes a voter (KIP-853 RemoveRaftVoter), the leader included: a leader that removed
    /// itself resigns once the change is committed. `data` as for [`RaftNode::add_voter`].
    pub fn remove_voter(&mut self, replica: NodeId, data: Bytes) -> Result<i64, VoterChangeError> {
        self.check_voter_change()?;
        if !self.voters().contains(&replica) {
            return Err(VoterChangeError::VoterNotFound);
        }
        if self.voters().len() == 1 {
            return Err(VoterChangeError::LastVoter);
        }
        let mut voters = self.voters().clone();
        voters.remove(&replica);
        Ok(self.append_voters(voters, data))
    }

    /// Rewrites the voter set unchanged with new details in `data` (KIP-853 UpdateRaftVoter:
    /// a voter's endpoints or supported versions), under the same rules as other changes.
    pub fn update_voter(&mut self, replica: NodeId, data: Bytes) -> Result<i64, VoterChangeError> {
        self.check_voter_change()?;
        if !self.voters().contains(&replica) {
            return Err(VoterChangeError::VoterNotFound);
        }
        let voters = self.voters().clone();
        Ok(self.append_voters(voters, data))
    }

    fn check_voter_change(&self) -> Result<(), VoterChangeError> {
        let Role::Leader { epoch_start, .. } = &self.role else {
            return Err(VoterChangeError::NotLeader(NotLeader {
                leader: self.state.leader,
            }));
        };
        if self.high_watermark <= *epoch_start || self.voter_change_pending() {
            return Err(VoterChangeError::ChangeInProgress);
        }
        Ok(())
    }

    fn append_voters(&mut self, voters: BTreeSet<NodeId>, data: Bytes) -> i64 {
        let offset = self.log.end_offset();
        self.append_to_log(&[Entry {
            offset,
            records: 1,
            epoch: self.state.epoch,
            kind: EntryKind::Voters(voters),
            data,
        }]);
        self.update_high_watermark();
        offset
    }

    /// Takes a snapshot of the state machine's `state` below `end_offset` (committed, on a
    /// batch boundary, after the latest snapshot); the log is cleaned below it.
    pub fn create_snapshot(
        &mut self,
        end_offset: i64,
        state: Bytes,
    ) -> Result<SnapshotId, SnapshotError> {
        let (id, _) = self.snapshot_id_at(end_offset)?;
        self.adopt_snapshot(id, |log, voters| log.create_snapshot(id, voters, state))
    }

    /// The id a snapshot of the state below `end_offset` takes, and the voters it records,
    /// refused as [`RaftNode::create_snapshot`] refuses it. The driver asks this, writes the
    /// snapshot off its thread, then [`RaftNode::adopt_snapshot`]s it.
    pub fn snapshot_id_at(
        &self,
        end_offset: i64,
    ) -> Result<(SnapshotId, BTreeSet<NodeId>), SnapshotError> {
        if end_offset > self.high_watermark {
            return Err(SnapshotError::NotCommitted);
        }
        if end_offset <= self.log.start_offset() {
            return Err(SnapshotError::NotNewer);
        }
        let last = self
            .log
            .read(end_offset - 1, 1)
            .into_iter()
            .next()
            .filter(|e| e.next_offset() == end_offset)
            .ok_or(SnapshotError::NotOnBatchBoundary)?;
        let id = SnapshotId {
            end_offset,
            epoch: last.epoch,
        };
        Ok((id, self.voters_at(end_offset)))
    }

    /// Makes `id` the latest snapshot, checked again as [`RaftNode::snapshot_id_at`] checks it
    /// (the log may have moved on while it was written): `adopt` puts it in the log, given the
    /// voters it records.
    pub fn adopt_snapshot(
        &mut self,
        id: SnapshotId,
        adopt: impl FnOnce(&mut L, &BTreeSet<NodeId>),
    ) -> Result<SnapshotId, SnapshotError> {
        let (now, voters) = self.snapshot_id_at(id.end_offset)?;
        if now != id {
            return Err(SnapshotError::NotOnBatchBoundary);
        }
        adopt(&mut self.log, &voters);
        self.base_voters = voters;
        self.voter_changes.retain(|(o, _)| *o >= id.end_offset);
        Ok(id)
    }

    /// Handles a message from `from`.
    pub fn receive(&mut self, from: NodeId, message: Message) {
        match message {
            Message::VoteRequest {
                epoch,
                candidate,
                last_epoch,
                end_offset,
                pre_vote,
            } => self.on_vote_request(from, epoch, candidate, last_epoch, end_offset, pre_vote),
            Message::VoteResponse {
                epoch,
                granted,
                pre_vote,
                leader,
            } => self.on_vote_response(from, epoch, granted, pre_vote, leader),
            Message::BeginQuorumEpoch { epoch, leader } => {
                self.on_begin_quorum_epoch(epoch, leader)
            }
            Message::EndQuorumEpoch {
                epoch,
                leader,
                preferred_successors,
            } => self.on_end_quorum_epoch(epoch, leader, &preferred_successors),
            Message::FetchRequest {
                epoch,
                replica,
                fetch_offset,
                last_fetched_epoch,
                request_id,
                ..
            } => self.on_fetch_request(
                from,
                epoch,
                replica,
                fetch_offset,
                last_fetched_epoch,
                request_id,
            ),
            Message::FetchResponse {
                epoch,
                leader,
                result,
                high_watermark,
                request_id,
            } => {
                if request_id == self.fetch_request_id {
                    self.on_fetch_response(from, epoch, leader, result, high_watermark)
                }
            }
            Message::FetchSnapshotRequest {
                epoch,
                replica,
                snapshot,
                position,
                request_id,
            } => {
                self.on_fetch_snapshot_request(from, epoch, replica, snapshot, position, request_id)
            }
            Message::FetchSnapshotResponse {
                epoch,
                leader,
                snapshot,
                chunk,
                request_id,
            } => {
                if request_id == self.fetch_request_id {
                    self.on_fetch_snapshot_response(from, epoch, leader, snapshot, chunk)
                }
            }
        }
    }

    fn on_fetch_snapshot_request(
        &mut self,
        from: NodeId,
        epoch: i32,
        replica: NodeId,
        snapshot: SnapshotId,
        position: u64,
        request_id: u64,
    ) {
        if epoch > self.state.epoch {
            self.become_unattached(epoch);
        }
        let chunk = if epoch != self.state.epoch || !self.is_leader() {
            SnapshotChunk::Fenced
        } else {
            // A replica loading a snapshot is alive: it counts for check-quorum.
            let now = self.now;
            if let Role::Leader { progress, .. } = &mut self.role {
                if let Some(p) = progress.get_mut(&replica) {
                    p.last_fetch_ms = now;
                }
            }
            match self
                .log
                .read_snapshot(snapshot, position, self.config.max_snapshot_chunk)
            {
                Some((size, bytes)) if position <= size => SnapshotChunk::Bytes {
                    size,
                    position,
                    bytes,
                },
                _ => SnapshotChunk::NotFound,
            }
        };
        let response = Message::FetchSnapshotResponse {
            epoch: self.state.epoch,
            leader: self.leader_hint(),
            snapshot,
            chunk,
            request_id,
        };
        self.send(from, response);
    }

    fn on_fetch_snapshot_response(
        &mut self,
        from: NodeId,
        epoch: i32,
        leader: Option<NodeId>,
        snapshot: SnapshotId,
        chunk: SnapshotChunk,
    ) {
        if epoch != self.state.epoch {
            // Same handling as a fetch answer from another epoch.
            self.on_fetch_response(from, epoch, leader, FetchResult::Fenced, 0);
            return;
        }
        let Role::Follower { leader: current } = self.role else {
            return;
        };
        if from != current {
            return;
        }
        match chunk {
            SnapshotChunk::Fenced => self.next_fetch_at = self.now + self.config.retry_backoff_ms,
            SnapshotChunk::NotFound => {
                // A newer snapshot replaced it: the next fetch learns which.
                self.deadline = self.follower_deadline();
                self.download = None;
                self.next_fetch_at = self.now;
            }
            SnapshotChunk::Bytes {
                size,
                position,
                bytes,
            } => {
                self.deadline = self.follower_deadline();
                let Some(d) = self.download.as_mut().filter(|d| d.id == snapshot) else {
                    return;
                };
                if position == d.bytes.len() as u64 && position + bytes.len() as u64 <= size {
                    d.bytes.extend_from_slice(&bytes);
                }
                if d.bytes.len() as u64 == size {
                    let d = self.download.take().expect("downloading");
                    if self.log.install_snapshot(d.id, d.bytes.freeze()).is_ok() {
                        self.base_voters = self
                            .log
                            .snapshot_voters()
                            .unwrap_or_else(|| self.base_voters.clone());
                        self.voter_changes.clear();
                        self.high_watermark = self.high_watermark.max(d.id.end_offset);
                    }
                }
                self.next_fetch_at = self.now;
            }
        }
        self.maybe_fetch();
    }

    /// Steps down gracefully (KIP-595 EndQuorumEpoch): stops taking proposals and asks the
    /// voters to elect a successor now, preferring the most caught-up ones.
    pub fn resign(&mut self) {
        let Role::Leader { progress, .. } = &self.role else {
            return;
        };
        let mut successors: Vec<(i64, NodeId)> = progress
            .iter()
            .filter(|(v, _)| self.voters().contains(v))
            .map(|(v, p)| (p.end_offset, *v))
            .collect();
        successors.sort_unstable_by(|a, b| b.cmp(a));
        let preferred_successors: Vec<NodeId> = successors.into_iter().map(|(_, v)| v).collect();
        self.role = Role::Resigned;
        self.deadline = self.now + self.election_timeout();
        let end = Message::EndQuorumEpoch {
            epoch: self.state.epoch,
            leader: self.id,
            preferred_successors,
        };
        for v in self.others() {
            self.send(v, end.clone());
        }
    }

    /// The leader of `epoch` resigned: its followers stand for election without waiting out
    /// the fetch timeout, the preferred first and the others after a backoff by rank.
    fn on_end_quorum_epoch(&mut self, epoch: i32, leader: NodeId, preferred: &[NodeId]) {
        if epoch != self.state.epoch || self.state.leader != Some(leader) || !self.may_stand() {
            return;
        }
        if !matches!(self.role, Role::Follower { .. }) {
            return;
        }
        let rank = preferred
            .iter()
            .position(|v| *v == self.id)
            .unwrap_or(preferred.len()) as i64;
        if rank == 0 {
            self.become_prospective();
        } else {
            // Stop treating the leader as alive; stand after a backoff by rank.
            self.deadline = self.now + rank * (self.config.election_timeout_ms / 2).max(1);
        }
    }

    /// DescribeQuorum: the leader's view of every replica, or `None` on a non-leader.
    pub fn describe_quorum(&self) -> Option<QuorumDescription> {
        let Role::Leader { progress, .. } = &self.role else {
            return None;
        };
        let me = ReplicaDescription {
            id: self.id,
            log_end_offset: self.log.end_offset(),
            last_fetch_ms: self.now,
            last_caught_up_ms: self.now,
        };
        let describe = |(id, p): (&NodeId, &ReplicaProgress)| ReplicaDescription {
            id: *id,
            log_end_offset: p.end_offset,
            last_fetch_ms: p.last_fetch_ms,
            last_caught_up_ms: p.last_caught_up_ms,
        };
        let mut voters = vec![me];
        voters.extend(
            progress
                .iter()
                .filter(|(v, _)| self.voters().contains(v))
                .map(describe),
        );
        if !self.is_voter() {
            voters.remove(0);
        }
        let observers = progress
            .iter()
            .filter(|(v, _)| !self.voters().contains(v))
            .map(describe)
            .collect();
        Some(QuorumDescription {
            leader: self.id,
            epoch: self.state.epoch,
            high_watermark: self.high_watermark,
            voters,
            observers,
        })
    }

    /// The leader of `epoch` announces itself: direct proof of a live leader, which even a
    /// node that timed out on it accepts.
    fn on_begin_quorum_epoch(&mut self, epoch: i32, leader: NodeId) {
        let same_epoch_ok = epoch == self.state.epoch
            && !self.is_leader()
            && self.state.leader.is_none_or(|l| l == leader);
        if epoch > self.state.epoch || same_epoch_ok {
            if matches!(self.role, Role::Follower { leader: l } if l == leader)
                && epoch == self.state.epoch
            {
                self.deadline = self.follower_deadline();
            } else {
                self.become_follower(epoch, leader);
            }
        }
    }

    fn log_is_up_to_date(&self, last_epoch: i32, end_offset: i64) -> bool {
        (last_epoch, end_offset) >= (self.log.last_epoch(), self.log.end_offset())
    }

    fn on_vote_request(
        &mut self,
        from: NodeId,
        epoch: i32,
        candidate: NodeId,
        last_epoch: i32,
        end_offset: i64,
        pre_vote: bool,
    ) {
        // A replica answers even when its own log does not (yet) make it a voter: the
        // candidate's voter set may be newer (KIP-853), and only the candidate counts votes.
        if pre_vote {
            // A pre-vote carries the candidate's current epoch and asks whether this voter
            // would grant the next one, changing nothing here. It proves that epoch exists:
            // a voter behind it moves up, as Raft requires (else a node stranded in a higher
            // epoch could never rejoin). It is granted to an up-to-date log when this node has
            // no live leader (KIP-996).
            if epoch > self.state.epoch {
                self.become_unattached(epoch);
            }
            let leader_alive = match self.role {
                Role::Leader { .. } => true,
                Role::Follower { .. } => self.now < self.deadline && !self.leader_lost,
                _ => false,
            };
            let granted = epoch >= self.state.epoch
                && !leader_alive
                && self.log_is_up_to_date(last_epoch, end_offset);
            let response = Message::VoteResponse {
                epoch: self.state.epoch,
                granted,
                pre_vote: true,
                leader: self.state.leader,
            };
            self.send(from, response);
            return;
        }
        if epoch > self.state.epoch {
            self.become_unattached(epoch);
        }
        let granted = epoch == self.state.epoch
            && self.state.leader.is_none()
            && self.state.voted_for.is_none_or(|v| v == candidate)
            && self.log_is_up_to_date(last_epoch, end_offset);
        if granted && self.state.voted_for.is_none() {
            self.state.voted_for = Some(candidate);
            self.persist();
            self.deadline = self.now + self.election_timeout();
        }
        let response = Message::VoteResponse {
            epoch: self.state.epoch,
            granted,
            pre_vote: false,
            leader: self.state.leader,
        };
        self.send(from, response);
    }

    fn on_vote_response(
        &mut self,
        from: NodeId,
        epoch: i32,
        granted: bool,
        pre_vote: bool,
        leader: Option<NodeId>,
    ) {
        if epoch > self.state.epoch {
            match leader {
                Some(l) => self.become_follower(epoch, l),
                None => self.become_unattached(epoch),
            }
            return;
        }
        match &mut self.role {
            Role::Prospective {
                granted: set,
                gave_up_on,
            } if pre_vote => {
                if granted {
                    set.insert(from);
                    self.maybe_won_pre_vote();
                } else if let (Some(l), true) = (leader, epoch == self.state.epoch) {
                    // A voter still follows a leader of our epoch: follow it too, unless it is
                    // the one this node timed out on.
                    if l != self.id && Some(l) != *gave_up_on {
                        self.become_follower(epoch, l);
                    }
                }
            }
            Role::Candidate { granted: set }
                if !pre_vote && granted && epoch == self.state.epoch =>
            {
                set.insert(from);
                self.maybe_won_election();
            }
            _ => {}
        }
    }

    fn on_fetch_request(
        &mut self,
        from: NodeId,
        epoch: i32,
        replica: NodeId,
        fetch_offset: i64,
        last_fetched_epoch: i32,
        request_id: u64,
    ) {
        if epoch > self.state.epoch {
            self.become_unattached(epoch);
        }
        let fenced = Message::FetchResponse {
            epoch: self.state.epoch,
            leader: self.leader_hint(),
            result: FetchResult::Fenced,
            high_watermark: self.high_watermark,
            request_id,
        };
        if epoch != self.state.epoch || !self.is_leader() {
            self.send(from, fenced);
            return;
        }
        let (found_epoch, end) = self.log.end_offset_for_epoch(last_fetched_epoch);
        let start = self.log.start_offset();
        let consistent = (fetch_offset == 0 && last_fetched_epoch == 0)
            || (found_epoch == last_fetched_epoch && fetch_offset <= end);
        let behind_snapshot = fetch_offset < start || (!consistent && end < start);
        let result = if let (true, Some(id)) = (behind_snapshot, self.log.latest_snapshot()) {
            FetchResult::Snapshot(id)
        } else if consistent {
            let voters = self.voters().clone();
            if let Role::Leader { progress, .. } = &mut self.role {
                if !progress.contains_key(&replica) {
                    track_bounded(progress, &voters);
                }
                let p = progress.entry(replica).or_insert(ReplicaProgress {
                    end_offset: 0,
                    last_fetch_ms: self.now,
                    last_begin_ms: self.now,
                    last_caught_up_ms: -1,
                });
                p.end_offset = fetch_offset;
                p.last_fetch_ms = self.now;
                if fetch_offset >= self.log.end_offset() {
                    p.last_caught_up_ms = self.now;
                }
            }
            self.update_high_watermark();
            FetchResult::Entries(self.log.read(fetch_offset, self.config.max_fetch_entries))
        } else {
            FetchResult::Diverging {
                epoch: found_epoch,
                end_offset: end,
            }
        };
        let response = Message::FetchResponse {
            epoch: self.state.epoch,
            leader: Some(self.id),
            result,
            high_watermark: self.high_watermark,
            request_id,
        };
        self.send(from, response);
    }

    fn on_fetch_response(
        &mut self,
        from: NodeId,
        epoch: i32,
        leader: Option<NodeId>,
        result: FetchResult,
        high_watermark: i64,
    ) {
        if epoch > self.state.epoch {
            match leader {
                Some(l) if l != self.id => self.become_follower(epoch, l),
                _ => self.become_unattached(epoch),
            }
            return;
        }
        if epoch < self.state.epoch {
            return;
        }
        let Role::Follower { leader: current } = self.role else {
            if !self.is_voter() {
                // An observer probing a voter learns the leader from its answer.
                if let Some(l) = leader.filter(|l| *l != self.id) {
                    self.become_follower(epoch, l);
                }
            } else if matches!(self.role, Role::Prospective { .. })
                && leader == Some(from)
                && result != FetchResult::Fenced
            {
                // The leader this voter gave up on answered its probe: it lives.
                self.become_follower(epoch, from);
            }
            return;
        };
        if from != current {
            return;
        }
        // It answered: it lives.
        self.suspect = None;
        self.leader_lost = false;
        match result {
            FetchResult::Fenced => {
                // The node we follow no longer leads (it restarted or resigned): this is no
                // sign of a live leader, so the fetch timeout keeps running.
                self.next_fetch_at = self.now + self.config.retry_backoff_ms;
            }
            FetchResult::Diverging {
                epoch: diverging_epoch,
                end_offset,
            } => {
                self.deadline = self.follower_deadline();
                let (_, local_end) = self.log.end_offset_for_epoch(diverging_epoch);
                self.truncate_log(end_offset.min(local_end));
                self.next_fetch_at = self.now;
            }
            FetchResult::Snapshot(id) => {
                self.deadline = self.follower_deadline();
                self.download = Some(Download {
                    id,
                    bytes: BytesMut::new(),
                });
                self.next_fetch_at = self.now;
            }
            FetchResult::Entries(entries) => {
                self.deadline = self.follower_deadline();
                let fresh: Vec<Entry> = entries
                    .into_iter()
                    .skip_while(|e| e.offset < self.log.end_offset())
                    .collect();
                let contiguous = fresh
                    .first()
                    .is_none_or(|e| e.offset == self.log.end_offset());
                let got_any = !fresh.is_empty() && contiguous;
                if got_any {
                    self.append_to_log(&fresh);
                    // A voter acknowledges entries by fetching past them: make them durable first.
                    self.log.flush();
                }
                let hw = high_watermark.min(self.log.end_offset());
                self.high_watermark = self.high_watermark.max(hw);
                self.next_fetch_at = if got_any {
                    self.now
                } else {
                    self.now + self.config.fetch_idle_ms
                };
            }
        }
        self.maybe_fetch();
    }

    fn update_high_watermark(&mut self) {
        let Role::Leader {
            epoch_start,
            progress,
        } = &self.role
        else {
            return;
        };
        let voters = self.voters();
        let mut ends: Vec<i64> = voters
            .iter()
            .map(|v| {
                if *v == self.id {
                    self.log.flushed_end_offset()
                } else {
                    progress.get(v).map_or(0, |p| p.end_offset)
                }
            })
            .collect();
        ends.sort_unstable_by(|a, b| b.cmp(a));
        let majority_end = ends[voters.len() / 2];
        if majority_end > *epoch_start && majority_end > self.high_watermark {
            self.high_watermark = majority_end;
        }
    }
}
