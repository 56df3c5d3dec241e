//! The Raft thread: owns the core and the metadata log, handles one event at a time (draining
//! whatever is queued before ticking, so one fsync covers a burst of proposals), holds fetches
//! that found nothing new until there is news or their wait runs out, and after each round
//! resolves proposals and voter changes, delivers newly committed batches and publishes the
//! quorum state.

use super::handle::{Committed, Event, ProposeError, QuorumInfo, SnapshotPlan, VoterChangeFailure};
use super::peers::Peers;
use super::wire::{self, Responder};
use super::DriverConfig;
use crate::metadata_log::MetadataLog;
use crate::quorum_file::QuorumFile;
use fjord_protocol::records::RecordBatch;
use fjord_protocol::ErrorCode;
use fjord_raft::control::{self, Endpoint, VoterInfo, VoterSet};
use fjord_raft::log::RaftLog;
use fjord_raft::node::{RaftNode, VoterChangeError};
use fjord_raft::types::{Action, EntryKind, FetchResult, Message, NodeId};
use fjord_util::{monotonic_ms, system_now_ms as now_ms};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::mpsc;
use std::time::Duration;
use tokio::sync::{mpsc as tmpsc, oneshot, watch};

/// How often the core is ticked when nothing happens.
const TICK: Duration = Duration::from_millis(10);
/// The most events handled before the core is ticked again.
const MAX_EVENTS_PER_ROUND: usize = 1_024;
/// How often a voter re-announces a changed endpoint until the log shows it.
const ENDPOINT_UPDATE_INTERVAL_MS: i64 = 2_000;
/// How often a static voter (kraft.version 0) announces itself to the leader of its epoch
/// again, so that a lost announcement does not hold up an upgrade to kraft.version 1.
const STATIC_ANNOUNCE_INTERVAL_MS: i64 = 10_000;
/// The most entries read per step when delivering commits.
const DELIVER_BATCH: usize = 256;

/// A fetch held until there is news for it.
/// The most fetchers whose last-told high watermark the leader remembers.
const MAX_SENT_HW_ENTRIES: usize = 2_000;

struct Parked {
    from: NodeId,
    request: Message,
    reply: oneshot::Sender<(Option<Message>, Responder)>,
    deadline: i64,
    high_watermark: i64,
}

/// Something waiting for an offset to commit in an epoch.
struct Waiting<T> {
    epoch: i32,
    offset: i64,
    reply: oneshot::Sender<T>,
}

struct Loop {
    cfg: DriverConfig,
    core: RaftNode<MetadataLog>,
    quorum_file: QuorumFile,
    peers: Peers,
    book: BTreeMap<NodeId, Endpoint>,
    /// The log's voter set as last seen, shared with every published `QuorumInfo`.
    voter_set_seen: std::sync::Arc<VoterSet>,
    parked: Vec<Parked>,
    /// The high watermark last sent to each fetcher.
    sent_hw: BTreeMap<NodeId, i64>,
    proposals: Vec<Waiting<Result<i64, ProposeError>>>,
    voter_changes: Vec<Waiting<Result<(), VoterChangeFailure>>>,
    delivered: i64,
    /// The `kraft.version` last sent to the subscriber.
    kraft_version_sent: Option<i16>,
    commits: tmpsc::UnboundedSender<Committed>,
    info: watch::Sender<QuorumInfo>,
    failed: Option<String>,
    next_endpoint_update: i64,
    /// While the voters are static (kraft.version 0) and this node leads: each voter as it
    /// announced itself in `upgrade_epoch` (directory id, endpoints) with the highest
    /// kraft.version it supports, for an upgrade to kraft.version 1 (KIP-853).
    upgrade_voters: BTreeMap<NodeId, (VoterInfo, i16)>,
    /// The epoch `upgrade_voters` belongs to.
    upgrade_epoch: i32,
    /// The epoch a static voter last announced itself in, and when.
    announced: Option<(i32, i64)>,
}

/// Opens the log and quorum state, then starts the thread.
pub(super) fn spawn(
    cfg: DriverConfig,
    runtime: tokio::runtime::Handle,
    events_tx: mpsc::Sender<Event>,
    events: mpsc::Receiver<Event>,
    info: watch::Sender<QuorumInfo>,
    commits: tmpsc::UnboundedSender<Committed>,
) -> Result<(), StartError> {
    let log = MetadataLog::open(&cfg.metadata_dir, cfg.static_voters.clone())?;
    let quorum_file = QuorumFile::new(&cfg.metadata_dir);
    let persisted = quorum_file.read()?;
    let mut book: BTreeMap<NodeId, Endpoint> = BTreeMap::new();
    let voters: BTreeSet<NodeId> = if !cfg.static_voters.is_empty() {
        cfg.static_voters.keys().copied().collect()
    } else if log.has_dynamic_voters() {
        log.voter_set().keys().copied().collect()
    } else {
        // Not a voter and no voter known yet: fetch from the bootstrap servers, known by
        // negative ids until a response names the leader.
        (1..=cfg.bootstrap_servers.len() as i32)
            .map(|i| -i)
            .collect()
    };
    for (i, (host, port)) in cfg.bootstrap_servers.iter().enumerate() {
        book.insert(
            -(i as i32 + 1),
            Endpoint {
                name: String::new(),
                host: host.clone(),
                port: *port,
            },
        );
    }
    for v in cfg.static_voters.values() {
        if let Some(e) = v.endpoints.first() {
            book.insert(v.id, e.clone());
        }
    }
    let sender = wire::Sender {
        cluster_id: cfg.cluster_id.clone(),
        endpoint: cfg.endpoint.clone(),
        fetch_max_wait_ms: cfg.fetch_max_wait_ms,
        snapshot_chunk: cfg.snapshot_chunk_bytes,
    };
    let timeout =
        Duration::from_millis((cfg.request_timeout_ms + i64::from(cfg.fetch_max_wait_ms)) as u64);
    let peers = Peers::new(runtime, events_tx, sender, timeout, cfg.security.clone());
    let seed = (cfg.node_id as u64) << 32 ^ now_ms() as u64;
    let core = RaftNode::new(
        cfg.node_id,
        voters,
        cfg.raft_config(),
        log,
        persisted,
        monotonic_ms(),
        seed,
    );
    let mut l = Loop {
        cfg,
        core,
        quorum_file,
        peers,
        book,
        voter_set_seen: std::sync::Arc::default(),
        parked: Vec::new(),
        sent_hw: BTreeMap::new(),
        proposals: Vec::new(),
        voter_changes: Vec::new(),
        delivered: 0,
        kraft_version_sent: None,
        commits,
        info,
        failed: None,
        next_endpoint_update: 0,
        upgrade_voters: BTreeMap::new(),
        upgrade_epoch: -1,
        announced: None,
    };
    l.refresh_book();
    std::thread::Builder::new()
        .name(format!("raft-{}", l.cfg.node_id))
        .spawn(move || l.run(events))
        .map_err(StartError::Thread)?;
    Ok(())
}

/// Why the driver could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The metadata log could not be opened.
    #[error("opening the metadata log: {0}")]
    MetadataLog(#[from] crate::metadata_log::OpenError),
    /// The quorum-state file could not be read.
    #[error(transparent)]
    QuorumState(#[from] crate::quorum_file::QuorumFileError),
    /// The Raft thread could not be started.
    #[error("starting the raft thread: {0}")]
    Thread(std::io::Error),
}

fn is_response(m: &Message) -> bool {
    matches!(
        m,
        Message::VoteResponse { .. }
            | Message::FetchResponse { .. }
            | Message::FetchSnapshotResponse { .. }
    )
}

fn failure(code: ErrorCode, message: impl Into<String>) -> VoterChangeFailure {
    VoterChangeFailure {
        code,
        message: message.into(),
    }
}

impl Loop {
    fn run(mut self, events: mpsc::Receiver<Event>) {
        let mut stop = false;
        while !stop {
            match events.recv_timeout(TICK) {
                Ok(e) => stop |= self.handle(e),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => stop = true,
            }
            for _ in 0..MAX_EVENTS_PER_ROUND {
                match events.try_recv() {
                    Ok(e) => stop |= self.handle(e),
                    Err(_) => break,
                }
            }
            self.wake_parked(false);
            self.core.tick(monotonic_ms());
            self.process_actions(None);
            self.wake_parked(false);
            self.write_bootstrap_voters();
            self.announce_own_endpoint();
            self.resolve_waiting();
            self.deliver_commits();
            self.refresh_book();
            if let Some(f) = self.core.log().failure() {
                self.failed.get_or_insert_with(|| f.to_string());
            }
            self.publish();
            if let Some(f) = &self.failed {
                tracing::error!(node = self.cfg.node_id, "the raft driver stops: {f}");
                stop = true;
            }
        }
        self.wake_parked(true);
        for w in self.proposals.drain(..) {
            let _ = w.reply.send(Err(ProposeError::Stopped));
        }
    }

    /// Handles one event; true to stop.
    fn handle(&mut self, event: Event) -> bool {
        match event {
            Event::Inbound { inbound, reply } => {
                let from = inbound.from;
                let request = inbound.message;
                // A fetch that advances the high watermark is answered at once (a held fetch
                // wakes when the high watermark moves past the one it was held at).
                let hw_before = self.core.high_watermark();
                self.core.receive(from, request.clone());
                let answer = self.process_actions(Some(from));
                let idle_fetch = matches!(
                    (&request, &answer),
                    (Message::FetchRequest { fetch_offset, .. },
                     Some(Message::FetchResponse { result: FetchResult::Entries(e), .. }))
                        if e.is_empty() && *fetch_offset >= self.core.log().end_offset()
                );
                // Hold it only if the fetcher already knows the current high watermark
                // (KIP-1166): the one a v18 request says it knows, else what this leader last
                // told it stands in.
                let hw = self.core.high_watermark();
                let knows_hw =
                    fetcher_knows_high_watermark(&request, self.sent_hw.get(&from).copied(), hw);
                if idle_fetch && knows_hw && self.core.is_leader() {
                    self.parked.push(Parked {
                        from,
                        request,
                        reply,
                        deadline: monotonic_ms() + i64::from(self.cfg.fetch_max_wait_ms),
                        high_watermark: hw_before,
                    });
                } else {
                    self.note_sent_hw(from, answer.as_ref());
                    let _ = reply.send((answer, self.responder()));
                }
            }
            Event::PeerResponse { from, message } => {
                self.core.receive(from, message);
                self.process_actions(None);
            }
            Event::PeerClosed { peer } => {
                self.core.peer_connection_closed(peer);
                self.process_actions(None);
            }
            Event::Learned { id, endpoint } => {
                self.book.entry(id).or_insert(endpoint);
            }
            Event::Propose {
                records,
                data,
                reply,
            } => match self.core.propose(records, data) {
                Ok(offset) => self.proposals.push(Waiting {
                    epoch: self.core.epoch(),
                    offset,
                    reply,
                }),
                Err(e) => {
                    let _ = reply.send(Err(ProposeError::NotLeader { leader: e.leader }));
                }
            },
            Event::ProposeAt {
                build,
                appended,
                reply,
            } => {
                if !self.core.is_leader() {
                    let _ = appended.send(Err(ProposeError::NotLeader {
                        leader: self.core.leader(),
                    }));
                    return false;
                }
                let base = self.core.log().end_offset();
                let data = build(base);
                let records = match super::handle::records_in(&data) {
                    Ok(r) => r,
                    Err(e) => {
                        let _ = appended.send(Err(e));
                        return false;
                    }
                };
                match self.core.propose(records, data) {
                    Ok(offset) => {
                        let _ = appended.send(Ok(base));
                        self.proposals.push(Waiting {
                            epoch: self.core.epoch(),
                            offset,
                            reply,
                        });
                    }
                    Err(e) => {
                        let _ = appended.send(Err(ProposeError::NotLeader { leader: e.leader }));
                    }
                }
            }
            Event::Describe { reply } => {
                let d = self
                    .core
                    .describe_quorum()
                    .map(|d| (d, self.core.log().voter_set().clone()));
                let _ = reply.send(d);
            }
            Event::AddVoter { voter, reply } => {
                let r = self.add_voter(voter);
                self.await_change(r, reply);
            }
            Event::RemoveVoter {
                id,
                directory_id,
                reply,
            } => {
                let r = self.remove_voter(id, directory_id);
                self.await_change(r, reply);
            }
            Event::UpdateVoter {
                voter,
                kraft_versions,
                reply,
            } => {
                let r = self.update_voter(voter, kraft_versions);
                self.await_optional_change(r, reply);
            }
            Event::UpgradeKraftVersion {
                level,
                validate_only,
                reply,
            } => {
                let r = self.upgrade_kraft_version(level, validate_only);
                self.await_optional_change(r, reply);
            }
            Event::PlanSnapshot { end_offset, reply } => {
                let _ = reply.send(self.plan_snapshot(end_offset));
            }
            Event::AdoptSnapshot { id, written, reply } => {
                let _ = reply.send(self.adopt_snapshot(id, written));
            }
            Event::Resign => {
                self.core.resign();
                self.process_actions(None);
            }
            Event::Shutdown => return true,
        }
        false
    }

    /// Names the snapshot of the state below `end_offset`, for writing off this thread.
    fn plan_snapshot(&self, end_offset: i64) -> Result<SnapshotPlan, fjord_raft::SnapshotError> {
        let (id, voters) = self.core.snapshot_id_at(end_offset)?;
        let log = self.core.log();
        Ok(SnapshotPlan {
            id,
            voters: log.snapshot_voter_set(id, &voters),
            dir: log.dir().to_path_buf(),
        })
    }

    /// Puts a snapshot written off this thread in place (or fails the log when writing it
    /// failed); a refused one's file is removed.
    fn adopt_snapshot(
        &mut self,
        id: fjord_raft::types::SnapshotId,
        written: Result<crate::snapshot_file::Staged, crate::snapshot_file::SnapshotFileError>,
    ) -> Result<fjord_raft::types::SnapshotId, fjord_raft::SnapshotError> {
        let staged = written.as_ref().ok().map(|s| s.path.clone());
        let r = self.core.adopt_snapshot(id, |log, _| match written {
            Ok(staged) => log.adopt_staged_snapshot(staged),
            Err(e) => log.fail_snapshot_write(&e),
        });
        if let (Err(_), Some(path)) = (&r, staged) {
            // The log moved past it while it was written: it is not needed.
            let _ = std::fs::remove_file(path);
        }
        r
    }

    /// Carries out the core's actions in order: persisting before the sends that follow. A
    /// response addressed to `answering` is returned (it answers the inbound request).
    fn process_actions(&mut self, answering: Option<NodeId>) -> Option<Message> {
        let mut answer = None;
        for action in self.core.take_actions() {
            match action {
                Action::PersistQuorumState(state) => {
                    if let Err(e) = self.quorum_file.write(&state) {
                        self.failed.get_or_insert_with(|| e.to_string());
                        return answer;
                    }
                }
                Action::Send { to, message } => {
                    if is_response(&message) {
                        if answering == Some(to) && answer.is_none() {
                            answer = Some(message);
                        }
                    } else {
                        let endpoint = self.book.get(&to).cloned();
                        self.peers.send(to, endpoint.as_ref(), &message);
                    }
                }
            }
        }
        answer
    }

    /// Remembers the high watermark a fetch answer told `to`; at most [`MAX_SENT_HW_ENTRIES`]
    /// fetchers are remembered.
    fn note_sent_hw(&mut self, to: NodeId, answer: Option<&Message>) {
        if let Some(Message::FetchResponse { high_watermark, .. }) = answer {
            if self.sent_hw.len() >= MAX_SENT_HW_ENTRIES && !self.sent_hw.contains_key(&to) {
                // Made-up fetcher ids cannot grow this: keep the voters' entries only (an
                // observer forgotten here is answered at once next time, not held).
                let voters = self.core.voters().clone();
                self.sent_hw.retain(|id, _| voters.contains(id));
            }
            self.sent_hw.insert(to, *high_watermark);
        }
    }

    fn responder(&self) -> Responder {
        let leader = self
            .core
            .leader()
            .filter(|l| *l != self.cfg.node_id || self.core.is_leader());
        Responder {
            epoch: self.core.epoch(),
            leader: leader.map(|l| (l, self.book.get(&l).cloned())),
        }
    }

    /// Answers held fetches that have news (new entries, a new high watermark), whose wait is
    /// over, or all of them (`all`, at shutdown).
    fn wake_parked(&mut self, all: bool) {
        if self.parked.is_empty() {
            return;
        }
        let now = monotonic_ms();
        let end = self.core.log().end_offset();
        let hw = self.core.high_watermark();
        let leader = self.core.is_leader();
        let (due, keep): (Vec<Parked>, Vec<Parked>) =
            std::mem::take(&mut self.parked).into_iter().partition(|p| {
                let fetch_offset = match &p.request {
                    Message::FetchRequest { fetch_offset, .. } => *fetch_offset,
                    _ => i64::MIN,
                };
                all || !leader || now >= p.deadline || end > fetch_offset || hw != p.high_watermark
            });
        self.parked = keep;
        for p in due {
            if all {
                let _ = p.reply.send((None, self.responder()));
                continue;
            }
            self.core.receive(p.from, p.request);
            let answer = self.process_actions(Some(p.from));
            self.note_sent_hw(p.from, answer.as_ref());
            let _ = p.reply.send((answer, self.responder()));
        }
    }

    fn resolve_waiting(&mut self) {
        let hw = self.core.high_watermark();
        let epoch = self.core.epoch();
        let leader = self.core.leader();
        let mut keep = Vec::new();
        for w in self.proposals.drain(..) {
            if w.epoch != epoch {
                let _ = w.reply.send(Err(ProposeError::NotLeader { leader }));
            } else if hw > w.offset {
                let _ = w.reply.send(Ok(w.offset));
            } else {
                keep.push(w);
            }
        }
        self.proposals = keep;
        let mut keep = Vec::new();
        for w in self.voter_changes.drain(..) {
            if w.epoch != epoch {
                let _ = w.reply.send(Err(failure(
                    ErrorCode::NotLeaderOrFollower,
                    "the leader changed before the voter change committed",
                )));
            } else if hw > w.offset {
                let _ = w.reply.send(Ok(()));
            } else {
                keep.push(w);
            }
        }
        self.voter_changes = keep;
    }

    /// Sends newly committed batches (and a snapshot first, when the log now starts past
    /// what was delivered) to the subscriber.
    fn deliver_commits(&mut self) {
        let kraft_version = i16::from(self.core.log().has_dynamic_voters());
        if self.kraft_version_sent != Some(kraft_version) {
            self.kraft_version_sent = Some(kraft_version);
            let _ = self.commits.send(Committed::KraftVersion(kraft_version));
        }
        let before = self.delivered;
        self.deliver_committed_entries();
        if self.delivered > before {
            let _ = self.commits.send(Committed::UpTo(self.delivered));
        }
    }

    fn deliver_committed_entries(&mut self) {
        let hw = self.core.high_watermark();
        let log = self.core.log();
        if let Some(id) = log.latest_snapshot() {
            if self.delivered < id.end_offset && id.end_offset > 0 {
                match log.snapshot_state() {
                    Ok(Some((id, state))) => {
                        let _ = self.commits.send(Committed::Snapshot { id, state });
                        self.delivered = id.end_offset;
                    }
                    Ok(None) => {}
                    Err(e) => {
                        self.failed.get_or_insert(e.to_string());
                        return;
                    }
                }
            }
        }
        self.delivered = self.delivered.max(log.start_offset());
        while self.delivered < hw {
            let entries = log.read(self.delivered, DELIVER_BATCH);
            if entries.is_empty() {
                break;
            }
            for e in entries {
                if e.next_offset() > hw {
                    return;
                }
                if e.kind == EntryKind::Data {
                    match RecordBatch::new(e.data) {
                        Ok(batch) => {
                            let _ = self.commits.send(Committed::Batch {
                                epoch: e.epoch,
                                batch,
                            });
                        }
                        Err(err) => {
                            self.failed.get_or_insert_with(|| {
                                format!("committed batch at {}: {err}", e.offset)
                            });
                            return;
                        }
                    }
                }
                self.delivered = e.offset + i64::from(e.records);
            }
        }
    }

    /// A voter whose controller listener differs from what the voter set records tells the
    /// leader (KIP-853 UpdateRaftVoter), every couple of seconds until the log shows it. While
    /// the voters are static (kraft.version 0), each voter announces itself (directory id,
    /// endpoint, supported kraft.version) to every new leader, as Kafka's do, so that the
    /// leader can move the quorum to kraft.version 1.
    fn announce_own_endpoint(&mut self) {
        use fjord_protocol::generated::update_raft_voter_request::{
            self as uv, UpdateRaftVoterRequest,
        };
        let me = self.cfg.node_id;
        let (Some(mine), Some(leader)) = (self.cfg.endpoint.clone(), self.core.leader()) else {
            return;
        };
        let now = monotonic_ms();
        let epoch = self.core.epoch();
        let log = self.core.log();
        if leader == me || now < self.next_endpoint_update {
            return;
        }
        let dynamic = log.has_dynamic_voters();
        if dynamic {
            let Some(listed) = log.voter_set().get(&me) else {
                return;
            };
            let same = listed
                .endpoints
                .first()
                .is_some_and(|e| e.host == mine.host && e.port == mine.port && e.name == mine.name);
            if same {
                return;
            }
        } else {
            let recent = self
                .announced
                .is_some_and(|(e, at)| e == epoch && now - at < STATIC_ANNOUNCE_INTERVAL_MS);
            if !self.cfg.static_voters.contains_key(&me) || recent {
                return;
            }
        }
        let body = fjord_protocol::RequestBody::UpdateRaftVoter(UpdateRaftVoterRequest {
            cluster_id: Some(self.cfg.cluster_id.clone()),
            current_leader_epoch: epoch,
            voter_id: me,
            voter_directory_id: self.cfg.directory_id,
            listeners: vec![uv::Listener {
                name: mine.name.clone(),
                host: mine.host.clone(),
                port: mine.port,
                ..Default::default()
            }],
            k_raft_version_feature: uv::KRaftVersionFeature {
                min_supported_version: 0,
                max_supported_version: control::KRAFT_VERSION,
                ..Default::default()
            },
            ..Default::default()
        });
        let endpoint = self.book.get(&leader).cloned();
        if self.peers.send_unanswered(leader, endpoint.as_ref(), body) {
            if dynamic {
                tracing::info!(
                    leader,
                    "announcing this voter's new endpoint {}:{}",
                    mine.host,
                    mine.port
                );
            } else {
                self.announced = Some((epoch, now));
            }
        }
        self.next_endpoint_update = now + ENDPOINT_UPDATE_INTERVAL_MS;
    }

    /// The first leader of a dynamic quorum copies the voter set from the bootstrap snapshot
    /// into the log (KIP-853), so replicas that never see that snapshot (observers joining
    /// later) learn the voters by fetching.
    fn write_bootstrap_voters(&mut self) {
        let log = self.core.log();
        if !self.core.is_leader()
            || !log.has_dynamic_voters()
            || log.has_voters_in_log()
            || self.core.voter_change_pending()
            || !self.core.voters().contains(&self.cfg.node_id)
        {
            return;
        }
        let set = log.voter_set().clone();
        let data = self.voters_data(&set);
        match self.core.update_voter(self.cfg.node_id, data) {
            Ok(_) | Err(VoterChangeError::ChangeInProgress) => {}
            Err(e) => tracing::warn!("writing the bootstrap voter set: {e:?}"),
        }
        self.process_actions(None);
    }

    /// Learns voter endpoints from the log's voter set when it changes.
    fn refresh_book(&mut self) {
        let set = self.core.log().voter_set();
        if *set != *self.voter_set_seen {
            for v in set.values() {
                if let Some(e) = v.endpoints.first() {
                    self.book.insert(v.id, e.clone());
                }
            }
            self.voter_set_seen = std::sync::Arc::new(set.clone());
        }
    }

    fn publish(&mut self) {
        let info = QuorumInfo {
            node_id: self.cfg.node_id,
            epoch: self.core.epoch(),
            leader: self
                .core
                .leader()
                .filter(|l| *l != self.cfg.node_id || self.core.is_leader()),
            is_leader: self.core.is_leader(),
            high_watermark: self.core.high_watermark(),
            log_end_offset: self.core.log().end_offset(),
            voters: self.core.voters().clone(),
            voter_set: self.voter_set_seen.clone(),
            failed: self.failed.clone(),
        };
        self.info.send_if_modified(|old| {
            if *old == info {
                false
            } else {
                *old = info;
                true
            }
        });
    }

    fn await_change(
        &mut self,
        r: Result<i64, VoterChangeFailure>,
        reply: oneshot::Sender<Result<(), VoterChangeFailure>>,
    ) {
        match r {
            Ok(offset) => self.voter_changes.push(Waiting {
                epoch: self.core.epoch(),
                offset,
                reply,
            }),
            Err(e) => {
                let _ = reply.send(Err(e));
            }
        }
    }

    /// As [`Loop::await_change`], answering at once when nothing was appended (`Ok(None)`).
    fn await_optional_change(
        &mut self,
        r: Result<Option<i64>, VoterChangeFailure>,
        reply: oneshot::Sender<Result<(), VoterChangeFailure>>,
    ) {
        match r {
            Ok(None) => {
                let _ = reply.send(Ok(()));
            }
            Ok(Some(offset)) => self.await_change(Ok(offset), reply),
            Err(e) => {
                let _ = reply.send(Err(e));
            }
        }
    }

    fn require_dynamic(&self, what: &str) -> Result<(), VoterChangeFailure> {
        if self.core.log().has_dynamic_voters() {
            Ok(())
        } else {
            Err(failure(
                ErrorCode::UnsupportedVersion,
                format!(
                    "Cluster doesn't support {what} because the kraft.version feature is 0 \
                     (the voters are static: controller.quorum.voters)"
                ),
            ))
        }
    }

    fn map_change_error(&self, e: VoterChangeError, id: NodeId) -> VoterChangeFailure {
        match e {
            VoterChangeError::NotLeader(n) => failure(
                ErrorCode::NotLeaderOrFollower,
                format!(
                    "node {} is not the leader (the leader is {})",
                    self.cfg.node_id,
                    n.leader.map_or("unknown".into(), |l| l.to_string())
                ),
            ),
            VoterChangeError::ChangeInProgress => failure(
                ErrorCode::RequestTimedOut,
                "another voter change is not committed yet, or the leader has not committed in \
                 its epoch; retry",
            ),
            VoterChangeError::DuplicateVoter => failure(
                ErrorCode::DuplicateVoter,
                format!("node {id} is already a voter"),
            ),
            VoterChangeError::VoterNotFound => failure(
                ErrorCode::VoterNotFound,
                format!("node {id} is not a voter"),
            ),
            VoterChangeError::NotCaughtUp => failure(
                ErrorCode::RequestTimedOut,
                format!("node {id} is not fetching from the leader or not caught up"),
            ),
            VoterChangeError::LastVoter => failure(
                ErrorCode::InvalidRequest,
                format!("node {id} is the only voter"),
            ),
        }
    }

    fn voters_data(&self, set: &VoterSet) -> bytes::Bytes {
        control::voters_batch(0, self.core.epoch(), set, false, now_ms())
    }

    fn add_voter(&mut self, voter: VoterInfo) -> Result<i64, VoterChangeFailure> {
        self.require_dynamic("adding voter")?;
        let id = voter.id;
        let mut set = self.core.log().voter_set().clone();
        if set.contains_key(&id) {
            return Err(self.map_change_error(VoterChangeError::DuplicateVoter, id));
        }
        set.insert(id, voter);
        let data = self.voters_data(&set);
        self.core
            .add_voter(id, data)
            .map_err(|e| self.map_change_error(e, id))
    }

    fn remove_voter(
        &mut self,
        id: NodeId,
        directory_id: fjord_protocol::Uuid,
    ) -> Result<i64, VoterChangeFailure> {
        self.require_dynamic("removing voter")?;
        let mut set = self.core.log().voter_set().clone();
        match set.get(&id) {
            Some(v) if directory_id.is_nil() || v.directory_id == directory_id => {}
            _ => {
                return Err(failure(
                    ErrorCode::VoterNotFound,
                    format!("no voter {id} with directory id {directory_id}"),
                ))
            }
        }
        set.remove(&id);
        let data = self.voters_data(&set);
        self.core
            .remove_voter(id, data)
            .map_err(|e| self.map_change_error(e, id))
    }

    /// `Ok(None)` when nothing changes. While the voters are static, the voter is only
    /// noted for an upgrade to kraft.version 1 (`kraft_versions`: the range it supports).
    fn update_voter(
        &mut self,
        voter: VoterInfo,
        kraft_versions: (i16, i16),
    ) -> Result<Option<i64>, VoterChangeFailure> {
        if !self.core.log().has_dynamic_voters() {
            return self.note_static_voter(voter, kraft_versions).map(|()| None);
        }
        let id = voter.id;
        let mut set = self.core.log().voter_set().clone();
        match set.get(&id) {
            Some(v) if v.directory_id == voter.directory_id || voter.directory_id.is_nil() => {
                if v.endpoints == voter.endpoints {
                    return Ok(None);
                }
            }
            _ => return Err(self.map_change_error(VoterChangeError::VoterNotFound, id)),
        }
        set.insert(id, voter);
        let data = self.voters_data(&set);
        self.core
            .update_voter(id, data)
            .map(Some)
            .map_err(|e| self.map_change_error(e, id))
    }

    /// Starts the upgrade notes afresh in a new epoch; a leader notes itself.
    fn refresh_upgrade_voters(&mut self) {
        let epoch = self.core.epoch();
        if self.upgrade_epoch != epoch {
            self.upgrade_epoch = epoch;
            self.upgrade_voters.clear();
        }
        let me = self.cfg.node_id;
        if self.core.is_leader() && !self.upgrade_voters.contains_key(&me) {
            let endpoints = match &self.cfg.endpoint {
                Some(e) => vec![e.clone()],
                None => self
                    .cfg
                    .static_voters
                    .get(&me)
                    .map_or_else(Vec::new, |v| v.endpoints.clone()),
            };
            let info = VoterInfo {
                id: me,
                directory_id: self.cfg.directory_id,
                endpoints,
            };
            self.upgrade_voters
                .insert(me, (info, control::KRAFT_VERSION));
        }
    }

    /// A static voter's announcement (UpdateRaftVoter at kraft.version 0), as Kafka's leader
    /// keeps it: in memory, for this epoch, the voter matched by id alone.
    fn note_static_voter(
        &mut self,
        voter: VoterInfo,
        (min, max): (i16, i16),
    ) -> Result<(), VoterChangeFailure> {
        if !self.core.is_leader() {
            return Err(self.map_change_error(
                VoterChangeError::NotLeader(fjord_raft::node::NotLeader {
                    leader: self.core.leader(),
                }),
                voter.id,
            ));
        }
        if !self.cfg.static_voters.contains_key(&voter.id) {
            return Err(self.map_change_error(VoterChangeError::VoterNotFound, voter.id));
        }
        if min > 0 || max < 0 || voter.endpoints.is_empty() {
            return Err(failure(
                ErrorCode::InvalidRequest,
                format!(
                    "voter {} supports kraft.version {min} to {max}, or named no endpoint",
                    voter.id
                ),
            ));
        }
        self.refresh_upgrade_voters();
        self.upgrade_voters.insert(voter.id, (voter, max));
        Ok(())
    }

    /// Moves a static quorum to kraft.version 1 (KIP-853, as Kafka's leader does): once every
    /// voter has announced its directory id and support this epoch, the leader appends the
    /// kraft.version record and the voter set, in force at once; `Ok(Some(offset))` is done
    /// when that commits. The same level is nothing to do; a downgrade is refused.
    fn upgrade_kraft_version(
        &mut self,
        level: i16,
        validate_only: bool,
    ) -> Result<Option<i64>, VoterChangeFailure> {
        let current = i16::from(self.core.log().has_dynamic_voters());
        let invalid = |m: String| Err(failure(ErrorCode::InvalidUpdateVersion, m));
        if level == current {
            return Ok(None);
        }
        if level < current {
            return invalid(format!(
                "Invalid upgrade of kraft.version from version {current} to {level} because \
                 the new version is a downgrade"
            ));
        }
        let me = self.cfg.node_id;
        if !self.core.is_leader() {
            return Err(self.map_change_error(
                VoterChangeError::NotLeader(fjord_raft::node::NotLeader {
                    leader: self.core.leader(),
                }),
                me,
            ));
        }
        self.refresh_upgrade_voters();
        let silent: Vec<NodeId> = self
            .core
            .voters()
            .iter()
            .copied()
            .filter(|id| {
                self.upgrade_voters
                    .get(id)
                    .is_none_or(|(_, max)| *max < level)
            })
            .collect();
        if !silent.is_empty() {
            tracing::info!(
                level,
                ?silent,
                "not all voters support kraft.version {level}: these have not announced it"
            );
            return invalid(format!(
                "Invalid upgrade of kraft.version to {level} because not all of the voters \
                 support it"
            ));
        }
        let set: VoterSet = self
            .core
            .voters()
            .iter()
            .filter_map(|id| self.upgrade_voters.get(id).map(|(v, _)| (*id, v.clone())))
            .collect();
        if set.values().any(|v| v.directory_id.is_nil()) {
            return invalid(format!(
                "Directory id must be known for all of the voters: {:?}",
                set.values()
                    .map(|v| (v.id, v.directory_id))
                    .collect::<Vec<_>>()
            ));
        }
        if validate_only {
            return Ok(None);
        }
        let data = control::voters_batch(0, self.core.epoch(), &set, true, now_ms());
        tracing::info!(
            ?set,
            "upgrading kraft.version to {level}: the voters move into the log"
        );
        self.core
            .update_voter(me, data)
            .map(Some)
            .map_err(|e| self.map_change_error(e, me))
    }
}

/// Whether the fetcher of `request` already knows the leader's high watermark `hw`, so that
/// an idle fetch of it may be held (KIP-1166): the high watermark a Fetch v18 says its
/// fetcher knows, else the one this leader last told it (`last_told`).
fn fetcher_knows_high_watermark(request: &Message, last_told: Option<i64>, hw: i64) -> bool {
    match request {
        Message::FetchRequest { high_watermark, .. }
            if *high_watermark != fjord_raft::types::HIGH_WATERMARK_NOT_SENT =>
        {
            *high_watermark >= hw
        }
        _ => last_told == Some(hw),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_raft::types::HIGH_WATERMARK_NOT_SENT;

    fn fetch(high_watermark: i64) -> Message {
        Message::FetchRequest {
            epoch: 1,
            replica: 2,
            fetch_offset: 10,
            last_fetched_epoch: 1,
            high_watermark,
            request_id: 1,
        }
    }

    /// KIP-1166: a v18 fetcher behind the high watermark is answered at once (it learns the
    /// new one); one that knows it may wait. A v17 fetcher is judged by what this leader told
    /// it last; one it never told anything is answered at once.
    #[test]
    fn a_fetch_is_held_only_while_its_fetcher_knows_the_high_watermark() {
        assert!(
            !fetcher_knows_high_watermark(&fetch(7), Some(10), 10),
            "v18 behind"
        );
        assert!(
            !fetcher_knows_high_watermark(&fetch(-1), Some(10), 10),
            "v18 knows none"
        );
        assert!(
            fetcher_knows_high_watermark(&fetch(10), None, 10),
            "v18 current"
        );
        assert!(
            fetcher_knows_high_watermark(&fetch(10), Some(3), 10),
            "v18 says so itself"
        );
        let v17 = fetch(HIGH_WATERMARK_NOT_SENT);
        assert!(
            fetcher_knows_high_watermark(&v17, Some(10), 10),
            "told the current one"
        );
        assert!(
            !fetcher_knows_high_watermark(&v17, Some(9), 10),
            "told an older one"
        );
        assert!(
            !fetcher_knows_high_watermark(&v17, None, 10),
            "told nothing yet"
        );
    }
}
