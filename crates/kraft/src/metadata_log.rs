//! The `__cluster_metadata` log on disk: [`RaftLog`] over fjord-log's partition log, with
//! snapshot files beside the segments. Every voter set the log holds (VotersRecord batches and
//! the snapshot's) is kept with its endpoints, so the driver can reach the voters.
//!
//! The core's calls cannot fail; a disk error here is fatal to the node (as in Kafka, where a
//! metadata log dir failure halts the process): the first one is kept in [`MetadataLog::failure`]
//! and the driver stops on it. Until then every answer is consistent with the disk.

use crate::snapshot_file;
use bytes::Bytes;
use fjord_log::partition_log::load::Checkpointed;
use fjord_log::{LogConfig, PartitionLog};
use fjord_protocol::records::{RecordBatch, RecordBatches};
use fjord_raft::control::{self, VoterSet};
use fjord_raft::log::{InvalidSnapshot, RaftLog};
use fjord_raft::types::{Entry, EntryKind, NodeId, SnapshotId};
use fjord_util::system_now_ms as now_ms;
use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// The metadata topic's name.
pub const METADATA_TOPIC: &str = "__cluster_metadata";
/// The metadata topic's id (Kafka's `Uuid.METADATA_TOPIC_ID`).
pub const METADATA_TOPIC_ID: fjord_protocol::Uuid = fjord_protocol::Uuid::from_u128(1);
/// The largest batch the metadata log takes (Kafka's KRaft limit, 8 MiB).
pub const MAX_BATCH_BYTES: usize = 8 * 1024 * 1024;
/// The most bytes one read of the log returns.
const READ_BYTES: usize = 1024 * 1024;

/// Why the metadata log could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// A file or directory could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The partition log could not be opened or read.
    #[error(transparent)]
    Log(#[from] fjord_log::LogError),
    /// A snapshot file is unreadable.
    #[error(transparent)]
    Snapshot(#[from] snapshot_file::SnapshotFileError),
    /// A control batch (a voter set) does not decode.
    #[error("a voter set in the log does not decode: {0}")]
    Control(#[from] fjord_protocol::DecodeError),
    /// The log could not be cleaned below the latest snapshot.
    #[error("cleaning below snapshot {snapshot:?}: {source}")]
    Clean {
        /// The snapshot.
        snapshot: SnapshotId,
        /// The cause.
        source: fjord_log::LogError,
    },
}

/// The latest snapshot on disk.
#[derive(Debug, Clone)]
struct SnapshotFile {
    id: SnapshotId,
    path: PathBuf,
    size: u64,
    voters: Option<VoterSet>,
}

/// The metadata log.
#[derive(Debug)]
pub struct MetadataLog {
    dir: PathBuf,
    log: PartitionLog,
    snapshot: Option<SnapshotFile>,
    /// Voter sets held by log batches, by offset.
    voter_sets: BTreeMap<i64, VoterSet>,
    /// The configured voters (`controller.quorum.voters`), when static.
    static_voters: VoterSet,
    failure: std::sync::OnceLock<String>,
}

/// The partition log configuration of the metadata log: no retention but snapshots.
pub fn metadata_log_config() -> LogConfig {
    LogConfig {
        retention_ms: -1,
        retention_bytes: -1,
        max_message_bytes: MAX_BATCH_BYTES,
        file_delete_delay_ms: 0,
        ..LogConfig::default()
    }
}

impl MetadataLog {
    /// Opens (or creates) the log in `dir` (`<metadata.log.dir>/__cluster_metadata-0`):
    /// recovers the segments, finds the latest snapshot (removing partial and older ones), and
    /// drops the log below it.
    pub fn open(dir: &Path, static_voters: VoterSet) -> Result<MetadataLog, OpenError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| OpenError::Io { path, source }
        };
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let (log, _) =
            PartitionLog::open(dir, metadata_log_config(), Checkpointed::default(), false)?;
        snapshot_file::remove_partials(dir)?;
        let ids = snapshot_file::list(dir)?;
        let mut snapshot = None;
        if let Some(&id) = ids.last() {
            let path = dir.join(snapshot_file::file_name(id));
            let bytes = std::fs::read(&path).map_err(io(&path))?;
            let parsed = snapshot_file::parse(&Bytes::from(bytes.clone()))?;
            snapshot = Some(SnapshotFile {
                id,
                path,
                size: bytes.len() as u64,
                voters: parsed.voters,
            });
            for old in &ids[..ids.len() - 1] {
                let p = dir.join(snapshot_file::file_name(*old));
                std::fs::remove_file(&p).map_err(io(&p))?;
            }
        }
        let mut me = MetadataLog {
            dir: dir.to_path_buf(),
            log,
            snapshot,
            voter_sets: BTreeMap::new(),
            static_voters,
            failure: std::sync::OnceLock::new(),
        };
        if let Some(id) = me.snapshot.as_ref().map(|s| s.id) {
            me.clean_below(id.end_offset)
                .map_err(|source| OpenError::Clean {
                    snapshot: id,
                    source,
                })?;
        }
        let mut at = me.log.log_start_offset();
        loop {
            let batches = me.read_batches(at)?;
            let Some(last) = batches.last() else { break };
            at = last.next_offset();
            for b in batches {
                if let Some(v) = control::batch_voters(&b)? {
                    me.voter_sets.insert(b.base_offset(), v);
                }
            }
        }
        Ok(me)
    }

    /// The first disk error, after which the node must stop.
    pub fn failure(&self) -> Option<&str> {
        self.failure.get().map(String::as_str)
    }

    fn fail(&self, what: &str, e: impl std::fmt::Display) {
        if self.failure.get().is_none() {
            tracing::error!(dir = %self.dir.display(), "metadata log: {what}: {e}");
            let _ = self.failure.set(format!("{what}: {e}"));
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The voter set (with endpoints) a snapshot `id` records, of `voters`: none when the
    /// voters are static (`controller.quorum.voters`).
    pub fn snapshot_voter_set(
        &self,
        id: SnapshotId,
        voters: &BTreeSet<NodeId>,
    ) -> Option<VoterSet> {
        self.has_dynamic_voters().then(|| {
            let mut v = self.voter_set_at(id.end_offset);
            v.retain(|id, _| voters.contains(id));
            v
        })
    }

    /// Fails the log: a snapshot could not be written (as a failed write here would).
    pub fn fail_snapshot_write(&self, e: &snapshot_file::SnapshotFileError) {
        self.fail("writing a snapshot", e);
    }

    /// Adopts a snapshot written off the Raft thread ([`snapshot_file::write_staged`]): renames
    /// it into place, then drops the log below it, as taking it here would.
    pub fn adopt_staged_snapshot(&mut self, staged: snapshot_file::Staged) {
        if self.failure.get().is_some() {
            return;
        }
        let path = match snapshot_file::place(&self.dir, &staged) {
            Ok(p) => p,
            Err(e) => return self.fail("placing a snapshot", e),
        };
        self.set_snapshot(staged.id, path, staged.size, staged.voters);
        if let Err(e) = self.clean_below(staged.id.end_offset) {
            self.fail("cleaning below a snapshot", e);
        }
    }

    /// The voter set in force with endpoints: the log's latest, else the snapshot's, else the
    /// static one.
    pub fn voter_set(&self) -> &VoterSet {
        self.voter_sets
            .values()
            .next_back()
            .or(self.snapshot.as_ref().and_then(|s| s.voters.as_ref()))
            .unwrap_or(&self.static_voters)
    }

    /// True when the voters come from the log or a snapshot (kraft.version 1), not from
    /// `controller.quorum.voters`.
    pub fn has_dynamic_voters(&self) -> bool {
        !self.voter_sets.is_empty() || self.snapshot.as_ref().is_some_and(|s| s.voters.is_some())
    }

    /// True when a VotersRecord is in the log itself (not only in the snapshot).
    pub fn has_voters_in_log(&self) -> bool {
        !self.voter_sets.is_empty()
    }

    /// The voter set in force just below `offset`.
    fn voter_set_at(&self, offset: i64) -> VoterSet {
        self.voter_sets
            .range(..offset)
            .next_back()
            .map(|(_, v)| v.clone())
            .or_else(|| self.snapshot.as_ref().and_then(|s| s.voters.clone()))
            .unwrap_or_else(|| self.static_voters.clone())
    }

    /// The state the latest snapshot holds (the state machine's batches), read from disk.
    pub fn snapshot_state(
        &self,
    ) -> Result<Option<(SnapshotId, Bytes)>, snapshot_file::SnapshotFileError> {
        let Some(s) = &self.snapshot else {
            return Ok(None);
        };
        let bytes =
            std::fs::read(&s.path).map_err(|source| snapshot_file::SnapshotFileError::Io {
                path: s.path.clone(),
                source,
            })?;
        let parsed = snapshot_file::parse(&Bytes::from(bytes))?;
        Ok(Some((s.id, parsed.state)))
    }

    /// Sets the high watermark the partition log keeps (it bounds cleaning).
    pub fn set_high_watermark(&self, hw: i64) {
        self.log.set_high_watermark(hw);
    }

    fn read_batches(&self, from: i64) -> Result<Vec<RecordBatch>, fjord_log::LogError> {
        if from >= self.log.log_end_offset() {
            return Ok(Vec::new());
        }
        let info = self.log.read(from, READ_BYTES, None, true)?;
        let mut out = Vec::new();
        for b in RecordBatches::new(info.records) {
            out.push(b.map_err(|e| fjord_log::LogError::CorruptRecord(e.to_string()))?);
        }
        Ok(out)
    }

    /// Drops the log below `offset` (a snapshot's end), or empties it there when it is shorter.
    fn clean_below(&mut self, offset: i64) -> Result<(), fjord_log::LogError> {
        if self.log.log_end_offset() < offset {
            self.log.truncate_fully_and_start_at(offset)?;
            self.voter_sets.clear();
        } else if self.log.log_start_offset() < offset {
            self.log
                .set_high_watermark(offset.max(self.log.high_watermark()));
            self.log.delete_records(offset)?;
            self.log.apply_retention(now_ms())?;
            self.log.delete_expired_files(i64::MAX)?;
            self.voter_sets = self.voter_sets.split_off(&offset);
        }
        Ok(())
    }

    fn remove_snapshots_before(&mut self, id: SnapshotId) {
        match snapshot_file::list(&self.dir) {
            Ok(ids) => {
                for old in ids.into_iter().filter(|o| *o < id) {
                    let p = self.dir.join(snapshot_file::file_name(old));
                    if let Err(e) = std::fs::remove_file(&p) {
                        self.fail("removing an old snapshot", e);
                    }
                }
            }
            Err(e) => self.fail("listing snapshots", e),
        }
    }

    fn set_snapshot(&mut self, id: SnapshotId, path: PathBuf, size: u64, voters: Option<VoterSet>) {
        self.snapshot = Some(SnapshotFile {
            id,
            path,
            size,
            voters,
        });
        self.remove_snapshots_before(id);
    }
}

impl RaftLog for MetadataLog {
    fn start_offset(&self) -> i64 {
        self.log.log_start_offset()
    }

    fn end_offset(&self) -> i64 {
        self.log.log_end_offset()
    }

    fn last_epoch(&self) -> i32 {
        if self.log.log_end_offset() > self.log.log_start_offset() {
            if let Some(e) = self.log.latest_epoch() {
                return e;
            }
        }
        self.snapshot.as_ref().map_or(0, |s| s.id.epoch)
    }

    fn end_offset_for_epoch(&self, epoch: i32) -> (i32, i64) {
        let entries = self.log.epoch_entries();
        let end = self.log.log_end_offset();
        let has_entries = end > self.log.log_start_offset();
        if has_entries {
            if let Some(i) = entries.iter().rposition(|e| e.epoch <= epoch) {
                let found = entries[i].epoch;
                let until = entries.get(i + 1).map_or(end, |n| n.start_offset);
                return (found, until);
            }
        }
        match &self.snapshot {
            Some(s) if s.id.epoch <= epoch => (s.id.epoch, self.log.log_start_offset()),
            _ => (0, 0),
        }
    }

    fn append(&mut self, entries: &[Entry]) {
        if self.failure.get().is_some() {
            return;
        }
        for e in entries {
            let data = match (&e.kind, e.data.is_empty()) {
                (EntryKind::LeaderChange { leader }, true) => {
                    let voters: BTreeSet<NodeId> = self.voter_set().keys().copied().collect();
                    control::leader_change_batch(e.offset, e.epoch, *leader, &voters, now_ms())
                }
                _ => e.data.clone(),
            };
            match self.log.append_as_leader(data.clone(), e.epoch, now_ms()) {
                Ok(info) if info.first_offset == e.offset => {}
                Ok(info) => {
                    self.fail(
                        "append",
                        format!("entry at {} landed at {}", e.offset, info.first_offset),
                    );
                    return;
                }
                Err(err) => {
                    self.fail("append", err);
                    return;
                }
            }
            if let EntryKind::Voters(_) = e.kind {
                match RecordBatch::new(data).map(|b| control::batch_voters(&b)) {
                    Ok(Ok(Some(v))) => {
                        self.voter_sets.insert(e.offset, v);
                    }
                    Ok(Ok(None)) => self.fail("append", "a voters entry without a VotersRecord"),
                    Ok(Err(err)) | Err(err) => self.fail("append", err),
                }
            }
        }
    }

    fn truncate_to(&mut self, offset: i64) {
        if self.failure.get().is_some() {
            return;
        }
        match self.log.truncate_to(offset) {
            Ok(end) => {
                self.voter_sets.split_off(&end);
            }
            Err(e) => self.fail("truncate", e),
        }
    }

    fn read(&self, from: i64, max: usize) -> Vec<Entry> {
        let from = from.max(self.log.log_start_offset());
        // A read that fails is a disk failure of the metadata log (fatal to the node), never
        // an empty read that would look like a short log.
        match self.read_batches(from) {
            Ok(batches) => {
                let mut out = Vec::new();
                for b in batches.into_iter().take(max) {
                    let offset = b.base_offset();
                    match control::entry_of(b) {
                        Ok(e) => out.push(e),
                        Err(e) => {
                            self.fail(&format!("reading the entry at {offset}"), e);
                            break;
                        }
                    }
                }
                out
            }
            Err(e) => {
                self.fail(&format!("reading at {from}"), e);
                Vec::new()
            }
        }
    }

    fn flush(&mut self) {
        if self.failure.get().is_none() {
            if let Err(e) = self.log.flush() {
                self.fail("flush", e);
            }
        }
    }

    fn flushed_end_offset(&self) -> i64 {
        self.log.recovery_point()
    }

    fn latest_snapshot(&self) -> Option<SnapshotId> {
        self.snapshot.as_ref().map(|s| s.id)
    }

    fn snapshot_voters(&self) -> Option<BTreeSet<NodeId>> {
        let voters = self.snapshot.as_ref()?.voters.as_ref()?;
        Some(voters.keys().copied().collect())
    }

    fn read_snapshot(&self, id: SnapshotId, position: u64, max: usize) -> Option<(u64, Bytes)> {
        let s = self.snapshot.as_ref().filter(|s| s.id == id)?;
        let len = max.min(s.size.saturating_sub(position) as usize);
        let mut buf = vec![0u8; len];
        let f = std::fs::File::open(&s.path).ok()?;
        f.read_exact_at(&mut buf, position).ok()?;
        Some((s.size, Bytes::from(buf)))
    }

    fn create_snapshot(&mut self, id: SnapshotId, voters: &BTreeSet<NodeId>, state: Bytes) {
        if self.failure.get().is_some() {
            return;
        }
        // The driver writes its snapshots off the Raft thread; this path (the same steps in
        // one go) serves the core's `create_snapshot`.
        let recorded = self.snapshot_voter_set(id, voters);
        match snapshot_file::write_staged(&self.dir, id, recorded, &state, now_ms()) {
            Ok(staged) => self.adopt_staged_snapshot(staged),
            Err(e) => self.fail_snapshot_write(&e),
        }
    }

    fn install_snapshot(&mut self, id: SnapshotId, bytes: Bytes) -> Result<(), InvalidSnapshot> {
        let parsed = snapshot_file::parse(&bytes).map_err(|e| InvalidSnapshot(e.to_string()))?;
        if self.failure.get().is_some() {
            return Err(InvalidSnapshot("the metadata log has failed".into()));
        }
        let path = match snapshot_file::write(&self.dir, id, &bytes) {
            Ok(p) => p,
            Err(e) => {
                self.fail("writing a downloaded snapshot", &e);
                return Err(InvalidSnapshot(e.to_string()));
            }
        };
        if let Err(e) = self.log.truncate_fully_and_start_at(id.end_offset) {
            self.fail("emptying the log for a snapshot", &e);
            return Err(InvalidSnapshot(e.to_string()));
        }
        self.voter_sets.clear();
        self.set_snapshot(id, path, bytes.len() as u64, parsed.voters);
        Ok(())
    }
}
