//! Deterministic simulation of the Raft core: voters and observers in one process, a network
//! that drops, duplicates, delays (so reorders) and partitions messages, and crashes that lose
//! every log entry that was not flushed, all driven by one seed. After every step:
//! - at most one leader per epoch;
//! - a committed entry never changes or disappears, and every node's committed prefix agrees;
//! - a node's high watermark never goes back while it stays up.
//!
//! Nodes also take snapshots of their committed prefix at random (the log is cleaned below
//! them, so lagging nodes must download one), and leaders add and remove voters, themselves
//! included (KIP-853). A node's committed prefix is its snapshot's entries plus its log below
//! the high watermark. Half the snapshots are named at once and adopted some steps later, as
//! the driver writes one off its thread; by then the log may have moved past it (a newer
//! snapshot, one downloaded), and only that refusal is allowed.
//!
//! Connections close, too: when a node crashes every other node hears that its connection to
//! it closed (a follower of it asks for pre-votes at once, KIP-996), and at random a node
//! hears that a connection to a live peer closed (a blip).
//! `connection_blips_never_depose_a_live_leader` checks that blips alone never change a
//! healthy cluster's leader or epoch.
//!
//! After the faults stop, a leader is elected, a new proposal commits, and every live node
//! converges. `cargo test` runs `DEFAULT_SEEDS` seeds. `FJORD_SIM_SEEDS=N cargo test -p
//! fjord-raft --test simulation -- --ignored` runs N; `FJORD_SIM_SEED=S` replays one seed.

use bytes::{Buf, BufMut, Bytes, BytesMut};
use fjord_raft::{
    Action, Entry, EntryKind, MemLog, Message, NodeId, QuorumState, RaftConfig, RaftLog, RaftNode,
    Role, SnapshotId, VoterChangeError,
};
use fjord_util::SimRng as Rng;
use std::collections::{BTreeMap, BTreeSet};

const DEFAULT_SEEDS: u64 = 2_000;
const TICK_MS: i64 = 10;
const FAULT_STEPS: usize = 400;
const CALM_STEPS: usize = 500;

fn config() -> RaftConfig {
    RaftConfig {
        election_timeout_ms: 150,
        fetch_timeout_ms: 300,
        fetch_idle_ms: 50,
        retry_backoff_ms: 50,
        request_timeout_ms: 100,
        max_fetch_entries: 8,
        max_snapshot_chunk: 256,
    }
}

struct SimNode {
    id: NodeId,
    core: Option<RaftNode<MemLog>>,
    /// What survives a crash: the persisted quorum state and the flushed log.
    persisted: QuorumState,
    survivor: Option<MemLog>,
    down_until: i64,
    incarnation: u32,
    last_hw: i64,
    /// The entries decoded from the node's latest snapshot.
    snapshot_entries: Option<(SnapshotId, Vec<Entry>)>,
    /// The snapshot the node itself took last.
    created: Option<SnapshotId>,
    /// A snapshot named and being written (as the driver writes one off the Raft thread),
    /// adopted at a later step, by when the log may have moved past it.
    planned: Option<(SnapshotId, Bytes)>,
    /// The node's latest snapshot when last checked.
    seen: Option<SnapshotId>,
}

/// What the seeds exercised, so a test can tell the features were reached.
#[derive(Debug, Default, Clone, Copy)]
struct Stats {
    snapshots_taken: u64,
    /// Snapshots adopted some steps after they were named.
    snapshots_adopted_late: u64,
    /// Named snapshots refused at adoption: the log had moved past them.
    snapshots_superseded: u64,
    snapshots_loaded: u64,
    voters_added: u64,
    voters_removed: u64,
    leaders_removed: u64,
    /// Closed connections that made a follower give its leader up (it stands within tens of
    /// milliseconds).
    pre_votes_on_close: u64,
    /// Closed connections a follower heard of about its leader.
    leader_closes: u64,
}

/// The simulated state machine's snapshot: the committed entries themselves.
fn encode_entries(entries: &[Entry]) -> Bytes {
    let mut b = BytesMut::new();
    for e in entries {
        b.put_i64(e.offset);
        b.put_u32(e.records);
        b.put_i32(e.epoch);
        match &e.kind {
            EntryKind::Data => b.put_u8(0),
            EntryKind::LeaderChange { leader } => {
                b.put_u8(1);
                b.put_i32(*leader);
            }
            EntryKind::Voters(v) => {
                b.put_u8(2);
                b.put_u32(v.len() as u32);
                v.iter().for_each(|id| b.put_i32(*id));
            }
        }
        b.put_u32(e.data.len() as u32);
        b.put_slice(&e.data);
    }
    b.freeze()
}

fn decode_entries(mut b: Bytes) -> Vec<Entry> {
    let mut out = Vec::new();
    while b.has_remaining() {
        let offset = b.get_i64();
        let records = b.get_u32();
        let epoch = b.get_i32();
        let kind = match b.get_u8() {
            0 => EntryKind::Data,
            1 => EntryKind::LeaderChange {
                leader: b.get_i32(),
            },
            _ => {
                let n = b.get_u32();
                EntryKind::Voters((0..n).map(|_| b.get_i32()).collect())
            }
        };
        let len = b.get_u32() as usize;
        let data = b.split_to(len);
        out.push(Entry {
            offset,
            records,
            epoch,
            kind,
            data,
        });
    }
    out
}

struct InFlight {
    at: i64,
    seq: u64,
    from: NodeId,
    to: NodeId,
    message: Message,
}

struct Faults {
    drop: u64,
    duplicate: u64,
    max_delay: u64,
    crash: u64,
    partition: u64,
    resign: u64,
    snapshot: u64,
    reconfigure: u64,
    /// Per mille per step: a node hears that its connection to a random peer closed.
    close: u64,
}

const CALM: Faults = Faults {
    drop: 0,
    duplicate: 0,
    max_delay: 5,
    crash: 0,
    partition: 0,
    resign: 0,
    snapshot: 0,
    reconfigure: 0,
    close: 0,
};

struct Sim {
    seed: u64,
    rng: Rng,
    voters: BTreeSet<NodeId>,
    nodes: Vec<SimNode>,
    net: Vec<InFlight>,
    seq: u64,
    now: i64,
    blocked: BTreeSet<(NodeId, NodeId)>,
    leaders: BTreeMap<i32, NodeId>,
    committed: Vec<Entry>,
    proposals: u64,
    voter_changes: u64,
    stats: Stats,
    /// Sends to a node that is down, refused: (sender's index, the down node).
    refused: Vec<(usize, NodeId)>,
    /// When each (node, peer) connection last blipped.
    last_blip: BTreeMap<(usize, NodeId), i64>,
}

impl Sim {
    fn new(seed: u64) -> Sim {
        let mut rng = Rng::new(seed);
        let voter_count = [1, 3, 3, 5][rng.below(4) as usize];
        let observers = rng.below(3) as i32;
        let voters: BTreeSet<NodeId> = (1..=voter_count).collect();
        let nodes = (1..=voter_count + observers)
            .map(|id| SimNode {
                id,
                core: Some(RaftNode::new(
                    id,
                    voters.clone(),
                    config(),
                    MemLog::default(),
                    QuorumState::default(),
                    0,
                    seed ^ (id as u64) << 32,
                )),
                persisted: QuorumState::default(),
                survivor: None,
                down_until: 0,
                incarnation: 0,
                last_hw: 0,
                snapshot_entries: None,
                created: None,
                planned: None,
                seen: None,
            })
            .collect();
        Sim {
            seed,
            rng,
            voters,
            nodes,
            net: Vec::new(),
            seq: 0,
            now: 0,
            blocked: BTreeSet::new(),
            leaders: BTreeMap::new(),
            committed: Vec::new(),
            proposals: 0,
            voter_changes: 0,
            stats: Stats::default(),
            refused: Vec::new(),
            last_blip: BTreeMap::new(),
        }
    }

    fn fail(&self, what: String) -> String {
        let mut nodes = String::new();
        for n in &self.nodes {
            match &n.core {
                Some(c) => nodes.push_str(&format!(
                    "\n  node {}: epoch {} leader {:?} role {:?} voters {:?} hw {} log {}..{} persisted {:?}",
                    n.id,
                    c.epoch(),
                    c.leader(),
                    c.role(),
                    c.voters(),
                    c.high_watermark(),
                    c.log().start_offset(),
                    c.log().end_offset(),
                    n.persisted
                )),
                None => nodes.push_str(&format!("\n  node {}: down until {}", n.id, n.down_until)),
            }
        }
        format!(
            "seed {}: {what} (at {} ms; replay with FJORD_SIM_SEED={}){nodes}",
            self.seed, self.now, self.seed
        )
    }

    fn dispatch(&mut self, from: usize, faults: &Faults) {
        let actions = self.nodes[from]
            .core
            .as_mut()
            .map(|c| c.take_actions())
            .unwrap_or_default();
        let from_id = self.nodes[from].id;
        for a in actions {
            match a {
                Action::PersistQuorumState(s) => self.nodes[from].persisted = s,
                Action::Send { to, message } => {
                    // A down node's machine refuses the connection.
                    if self.nodes.iter().any(|n| n.id == to && n.core.is_none()) {
                        self.refused.push((from, to));
                        continue;
                    }
                    if self.rng.per_mille(faults.drop) {
                        continue;
                    }
                    let copies = if self.rng.per_mille(faults.duplicate) {
                        2
                    } else {
                        1
                    };
                    for _ in 0..copies {
                        let at = self.now + 1 + self.rng.below(faults.max_delay) as i64;
                        self.seq += 1;
                        self.net.push(InFlight {
                            at,
                            seq: self.seq,
                            from: from_id,
                            to,
                            message: message.clone(),
                        });
                    }
                }
            }
        }
    }

    /// Senders hear that their connections to down nodes were refused.
    fn deliver_refusals(&mut self, faults: &Faults) {
        // Each refusal may send more (to down nodes too): bounded rounds.
        for _ in 0..8 {
            let refused = std::mem::take(&mut self.refused);
            if refused.is_empty() {
                return;
            }
            for (i, peer) in refused {
                self.connection_closed(i, peer, faults);
            }
        }
        self.refused.clear();
    }

    /// Node `i` (if up) hears that its connection to `peer` closed.
    fn connection_closed(&mut self, i: usize, peer: NodeId, faults: &Faults) {
        let Some(core) = self.nodes[i].core.as_mut() else {
            return;
        };
        let was_following = matches!(core.role(), Role::Follower { leader } if *leader == peer);
        core.peer_connection_closed(peer);
        if was_following {
            self.stats.leader_closes += 1;
            if core.leader_lost() {
                self.stats.pre_votes_on_close += 1;
            }
        }
        self.dispatch(i, faults);
    }

    fn index_of(&self, id: NodeId) -> usize {
        self.nodes
            .iter()
            .position(|n| n.id == id)
            .expect("known node")
    }

    /// Node `i` (up) adopts a snapshot it named earlier, now and then, and takes one of its
    /// committed prefix at random: at once, or named now and adopted later.
    fn snapshot(&mut self, i: usize, faults: &Faults, propose: bool) -> Result<(), String> {
        let node = &mut self.nodes[i];
        let core = node.core.as_mut().expect("up");
        if node.planned.is_some() && self.rng.per_mille(200) {
            // The file is written: adopt it, or learn the log moved past it.
            let (id, state) = node.planned.take().expect("planned");
            match core.adopt_snapshot(id, |log, voters| log.create_snapshot(id, voters, state)) {
                Ok(_) => {
                    node.created = Some(id);
                    self.stats.snapshots_taken += 1;
                    self.stats.snapshots_adopted_late += 1;
                }
                Err(fjord_raft::SnapshotError::NotNewer) => {
                    self.stats.snapshots_superseded += 1;
                }
                Err(e) => return Err(self.fail(format!("snapshot {id:?} not adopted: {e:?}"))),
            }
        }
        if propose && self.rng.per_mille(faults.snapshot) {
            // Any node may snapshot its committed prefix: at once, or named now and
            // adopted later (the driver's way).
            let hw = core.high_watermark();
            if hw > core.log().start_offset() {
                let state = encode_entries(&committed_view(core, &mut node.snapshot_entries));
                let later = node.planned.is_none() && self.rng.per_mille(500);
                let taken = if later {
                    core.snapshot_id_at(hw).map(|(id, _)| {
                        node.planned = Some((id, state));
                        None
                    })
                } else {
                    core.create_snapshot(hw, state).map(Some)
                };
                match taken {
                    Ok(Some(id)) => {
                        node.created = Some(id);
                        self.stats.snapshots_taken += 1;
                    }
                    Ok(None) => {}
                    Err(e) => return Err(self.fail(format!("snapshot at {hw} refused: {e:?}"))),
                }
            }
        }
        Ok(())
    }

    fn step(&mut self, faults: &Faults, propose: bool) -> Result<(), String> {
        self.now += TICK_MS;
        // Crashes and restarts.
        if self.rng.per_mille(faults.crash) {
            let i = self.rng.below(self.nodes.len() as u64) as usize;
            let down_for = 100 + self.rng.below(1_000) as i64;
            let n = &mut self.nodes[i];
            if let Some(core) = n.core.take() {
                // Whatever was not flushed is gone; the persisted quorum state stays.
                n.survivor = Some(core.log().after_crash());
                n.down_until = self.now + down_for;
                n.planned = None;
                n.incarnation += 1;
                n.last_hw = 0;
                // Its kernel closes its connections: every peer hears of it.
                let dead = n.id;
                for j in 0..self.nodes.len() {
                    self.connection_closed(j, dead, faults);
                }
            }
        }
        // A connection to a live peer closes (a network blip; a connection that keeps
        // failing is a partition, not a blip, so one pair blips at most every 200 ms).
        if self.rng.per_mille(faults.close) {
            let i = self.rng.below(self.nodes.len() as u64) as usize;
            let peer = self.nodes[self.rng.below(self.nodes.len() as u64) as usize].id;
            let last = self
                .last_blip
                .get(&(i, peer))
                .copied()
                .unwrap_or(i64::MIN / 2);
            if peer != self.nodes[i].id && self.now - last >= 200 {
                self.last_blip.insert((i, peer), self.now);
                self.connection_closed(i, peer, faults);
            }
        }
        self.deliver_refusals(faults);
        for n in &mut self.nodes {
            if n.core.is_none() && self.now >= n.down_until {
                let log = n.survivor.take().unwrap_or_default();
                let seed = self.seed ^ ((n.id as u64) << 32) ^ u64::from(n.incarnation);
                n.core = Some(RaftNode::new(
                    n.id,
                    self.voters.clone(),
                    config(),
                    log,
                    n.persisted,
                    self.now,
                    seed,
                ));
            }
        }
        // Partitions come and go.
        if self.rng.per_mille(faults.partition) {
            if self.blocked.is_empty() || self.rng.per_mille(500) {
                let ai = self.rng.below(self.nodes.len() as u64) as usize;
                let bi = self.rng.below(self.nodes.len() as u64) as usize;
                let (a, b) = (self.nodes[ai].id, self.nodes[bi].id);
                if a != b {
                    self.blocked.insert((a, b));
                    self.blocked.insert((b, a));
                    // Some partitions reset the connections across them.
                    if self.rng.per_mille(500) {
                        self.connection_closed(ai, b, faults);
                        self.connection_closed(bi, a, faults);
                    }
                }
            } else {
                self.blocked.clear();
            }
        }
        // Deliver what is due, in delivery order.
        self.net.sort_by_key(|m| (m.at, m.seq));
        let due = self.net.iter().take_while(|m| m.at <= self.now).count();
        let delivering: Vec<InFlight> = self.net.drain(..due).collect();
        for m in delivering {
            if self.blocked.contains(&(m.from, m.to)) {
                continue;
            }
            let i = self.index_of(m.to);
            if let Some(core) = self.nodes[i].core.as_mut() {
                if trace_node().is_some_and(|t| t == m.from || t == m.to) {
                    eprintln!("{} ms: {} -> {}: {:?}", self.now, m.from, m.to, m.message);
                }
                core.receive(m.from, m.message);
                self.dispatch(i, faults);
            }
        }
        let ids: Vec<NodeId> = self.nodes.iter().map(|n| n.id).collect();
        for i in 0..self.nodes.len() {
            let node = &mut self.nodes[i];
            if let Some(core) = node.core.as_mut() {
                core.tick(self.now);
                if propose && core.is_leader() && self.rng.per_mille(faults.resign) {
                    core.resign();
                }
                self.snapshot(i, faults, propose)?;
                let node = &mut self.nodes[i];
                let core = node.core.as_mut().expect("up");
                if propose && core.is_leader() && self.rng.per_mille(faults.reconfigure) {
                    let pick = ids[self.rng.below(ids.len() as u64) as usize];
                    self.voter_changes += 1;
                    let data = Bytes::from(format!("v{}", self.voter_changes));
                    let outcome = if core.voters().contains(&pick) {
                        core.remove_voter(pick, data)
                    } else {
                        core.add_voter(pick, data)
                    };
                    match outcome {
                        Ok(_)
                        | Err(VoterChangeError::ChangeInProgress)
                        | Err(VoterChangeError::NotCaughtUp)
                        | Err(VoterChangeError::LastVoter) => {}
                        Err(e) => return Err(self.fail(format!("voter change refused: {e:?}"))),
                    }
                }
                if propose && core.is_leader() && self.rng.per_mille(300) {
                    self.proposals += 1;
                    let data = Bytes::from(format!("p{}", self.proposals));
                    let records = 1 + self.rng.below(4) as u32;
                    core.propose(records, data)
                        .expect("a leader accepts proposals");
                }
                self.dispatch(i, faults);
            }
        }
        self.deliver_refusals(faults);
        self.check()
    }

    fn check(&mut self) -> Result<(), String> {
        for n in &self.nodes {
            let Some(core) = &n.core else { continue };
            if core.is_leader() {
                if let Some(other) = self.leaders.insert(core.epoch(), n.id) {
                    if other != n.id {
                        return Err(self.fail(format!(
                            "two leaders in epoch {}: {other} and {}",
                            core.epoch(),
                            n.id
                        )));
                    }
                }
            }
        }
        for i in 0..self.nodes.len() {
            let mut cache = self.nodes[i].snapshot_entries.take();
            let Some(core) = &self.nodes[i].core else {
                continue;
            };
            let hw = core.high_watermark();
            if hw < self.nodes[i].last_hw {
                return Err(self.fail(format!(
                    "node {} high watermark went back from {} to {hw}",
                    self.nodes[i].id, self.nodes[i].last_hw
                )));
            }
            let entries = core.log().entries();
            let end = core.log().end_offset();
            if end < hw {
                return Err(self.fail(format!(
                    "node {} high watermark {hw} is past its log end {end}",
                    self.nodes[i].id
                )));
            }
            // The committed entries: those that end at or below the high watermark, which must
            // fall on a batch boundary.
            let upto = entries.partition_point(|e| e.next_offset() <= hw);
            let start = core.log().start_offset();
            if entries[..upto].last().map_or(start, Entry::next_offset) != hw {
                return Err(self.fail(format!(
                    "node {} high watermark {hw} splits a batch",
                    self.nodes[i].id
                )));
            }
            let latest = core.log().latest_snapshot();
            let from_snapshot = snapshot_entries(core, &mut cache);
            let mine = || from_snapshot.iter().chain(&entries[..upto]);
            if mine().last().map_or(0, Entry::next_offset) != hw {
                return Err(self.fail(format!(
                    "node {}: its snapshot and log do not add up to its high watermark {hw}",
                    self.nodes[i].id
                )));
            }
            if !mine().zip(&self.committed).all(|(a, b)| a == b) {
                return Err(self.fail(format!(
                    "node {} disagrees with the committed prefix below {hw}",
                    self.nodes[i].id
                )));
            }
            let new: Vec<Entry> = mine().skip(self.committed.len()).cloned().collect();
            self.committed.extend(new);
            self.nodes[i].last_hw = hw;
            self.nodes[i].snapshot_entries = cache;
            if latest != self.nodes[i].seen {
                if latest != self.nodes[i].created {
                    self.stats.snapshots_loaded += 1;
                }
                self.nodes[i].seen = latest;
            }
        }
        Ok(())
    }

    /// Counts the committed voter changes.
    fn count_voter_changes(&mut self) {
        let mut voters = self.voters.clone();
        for e in &self.committed {
            if let EntryKind::Voters(next) = &e.kind {
                self.stats.voters_added += next.difference(&voters).count() as u64;
                for gone in voters.difference(next) {
                    self.stats.voters_removed += 1;
                    if self.leaders.get(&e.epoch) == Some(gone) {
                        self.stats.leaders_removed += 1;
                    }
                }
                voters = next.clone();
            }
        }
    }

    fn run(mut self) -> Result<Stats, String> {
        let faults = Faults {
            drop: self.rng.below(150),
            duplicate: self.rng.below(100),
            max_delay: 1 + self.rng.below(60),
            crash: self.rng.below(8),
            partition: self.rng.below(20),
            resign: self.rng.below(4),
            snapshot: self.rng.below(10),
            reconfigure: self.rng.below(30),
            close: self.rng.below(30),
        };
        for _ in 0..FAULT_STEPS {
            self.step(&faults, true)?;
        }
        // Heal: no more faults; everyone comes back.
        self.blocked.clear();
        for n in &mut self.nodes {
            n.down_until = n.down_until.min(self.now);
        }
        // A proposal to a leader that is later deposed may be lost; keep proposing to the
        // current leader until the end, and require the last one to commit.
        let mut marker: Option<(NodeId, i32, i64)> = None;
        for _ in 0..CALM_STEPS {
            self.step(&CALM, false)?;
            if let Some(n) = self
                .nodes
                .iter_mut()
                .find(|n| n.core.as_ref().is_some_and(|c| c.is_leader()))
            {
                let core = n.core.as_mut().expect("leader is up");
                if marker.is_none_or(|(id, epoch, _)| id != n.id || epoch != core.epoch()) {
                    let offset = core
                        .propose(2, Bytes::from_static(b"after-heal"))
                        .expect("leader");
                    marker = Some((n.id, core.epoch(), offset));
                }
            }
        }
        let leaders: Vec<&SimNode> = self
            .nodes
            .iter()
            .filter(|n| n.core.as_ref().is_some_and(|c| c.is_leader()))
            .collect();
        if leaders.len() != 1 {
            return Err(self.fail(format!("{} leaders after healing", leaders.len())));
        }
        let (_, _, offset) =
            marker.ok_or_else(|| self.fail("no leader to propose to after healing".into()))?;
        let leader_hw = leaders[0].core.as_ref().expect("up").high_watermark();
        if leader_hw <= offset {
            return Err(self.fail(format!(
                "the proposal at {offset} did not commit (high watermark {leader_hw})"
            )));
        }
        for n in &self.nodes {
            let core = n.core.as_ref().expect("all nodes are up after healing");
            if core.high_watermark() != leader_hw {
                return Err(self.fail(format!(
                    "node {} has high watermark {} but the leader has {leader_hw}",
                    n.id,
                    core.high_watermark()
                )));
            }
        }
        self.count_voter_changes();
        Ok(self.stats)
    }
}

/// `FJORD_SIM_TRACE=id` prints every message to or from that node (with a replayed seed).
fn trace_node() -> Option<NodeId> {
    std::env::var("FJORD_SIM_TRACE").ok()?.parse().ok()
}

/// The entries a node's latest snapshot holds (decoded once per snapshot into `cache`).
fn snapshot_entries<'a>(
    core: &RaftNode<MemLog>,
    cache: &'a mut Option<(SnapshotId, Vec<Entry>)>,
) -> &'a [Entry] {
    let Some(id) = core.log().latest_snapshot() else {
        return &[];
    };
    if cache.as_ref().is_none_or(|(cached, _)| *cached != id) {
        let state = core.log().snapshot_state().expect("a snapshot has a state");
        *cache = Some((id, decode_entries(state)));
    }
    &cache.as_ref().expect("cached").1
}

/// A node's committed entries: its snapshot's, then its log's below the high watermark.
fn committed_view(
    core: &RaftNode<MemLog>,
    cache: &mut Option<(SnapshotId, Vec<Entry>)>,
) -> Vec<Entry> {
    let mut view = snapshot_entries(core, cache).to_vec();
    let hw = core.high_watermark();
    view.extend(
        core.log()
            .entries()
            .iter()
            .take_while(|e| e.next_offset() <= hw)
            .cloned(),
    );
    view
}

fn run_seeds(seeds: impl Iterator<Item = u64>) -> Stats {
    let mut count = 0;
    let mut total = Stats::default();
    for seed in seeds {
        match Sim::new(seed).run() {
            Ok(s) => {
                total.snapshots_taken += s.snapshots_taken;
                total.snapshots_adopted_late += s.snapshots_adopted_late;
                total.snapshots_superseded += s.snapshots_superseded;
                total.snapshots_loaded += s.snapshots_loaded;
                total.voters_added += s.voters_added;
                total.voters_removed += s.voters_removed;
                total.leaders_removed += s.leaders_removed;
                total.pre_votes_on_close += s.pre_votes_on_close;
                total.leader_closes += s.leader_closes;
            }
            Err(e) => panic!("{e}"),
        }
        count += 1;
    }
    eprintln!("{count} seeds passed: {total:?}");
    total
}

#[test]
fn simulated_clusters_stay_safe_and_recover() {
    if let Some(seed) = std::env::var("FJORD_SIM_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        run_seeds(std::iter::once(seed));
        return;
    }
    let stats = run_seeds(0..DEFAULT_SEEDS);
    // The faults must have reached what they are meant to test.
    assert!(stats.snapshots_loaded >= 100, "{stats:?}");
    assert!(stats.snapshots_adopted_late >= 100, "{stats:?}");
    assert!(stats.voters_added >= 100, "{stats:?}");
    assert!(stats.voters_removed >= 100, "{stats:?}");
    assert!(stats.leaders_removed >= 20, "{stats:?}");
    assert!(stats.pre_votes_on_close >= 100, "{stats:?}");
}

/// Blips alone (connections to live peers closing, nothing else going wrong) never change a
/// healthy cluster's leader or epoch: the follower that lost its connection asks for
/// pre-votes, the voters that still hear the leader refuse, and it follows the leader again.
#[test]
fn connection_blips_never_depose_a_live_leader() {
    let blips = Faults { close: 300, ..CALM };
    let mut reached = 0;
    for seed in 0..DEFAULT_SEEDS / 4 {
        let mut sim = Sim::new(seed);
        if sim.voters.len() < 3 {
            continue;
        }
        for _ in 0..CALM_STEPS {
            sim.step(&CALM, true).unwrap_or_else(|e| panic!("{e}"));
        }
        let leader_of = |sim: &Sim| {
            sim.nodes
                .iter()
                .filter_map(|n| n.core.as_ref())
                .find(|c| c.is_leader())
                .map(|c| (c.id(), c.epoch()))
        };
        let before = leader_of(&sim).unwrap_or_else(|| panic!("{}", sim.fail("no leader".into())));
        for _ in 0..FAULT_STEPS {
            sim.step(&blips, true).unwrap_or_else(|e| panic!("{e}"));
            let now = leader_of(&sim);
            assert_eq!(
                now,
                Some(before),
                "{}",
                sim.fail(format!("blips moved the leadership from {before:?}"))
            );
        }
        reached += sim.stats.leader_closes;
    }
    assert!(
        reached >= 1_000,
        "followers heard of closed connections to their leader {reached} times"
    );
}

#[test]
#[ignore = "long run: FJORD_SIM_SEEDS=N (default 20000)"]
fn simulated_clusters_many_seeds() {
    let n = std::env::var("FJORD_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    run_seeds(DEFAULT_SEEDS..DEFAULT_SEEDS + n);
}
