//! Snapshot files (KIP-630): `<20-digit end offset>-<10-digit epoch>.checkpoint` in the
//! metadata partition's directory, holding record batches: a SnapshotHeader batch, the voter set
//! (kraft.version and VotersRecord) when known, the state machine's batches, and a
//! SnapshotFooter batch. Written to `.checkpoint.part`, fsynced, then renamed. A snapshot of
//! the node's own state is written off the Raft thread under a staging name ([`write_staged`])
//! and renamed into place ([`place`]) by the Raft thread when it adopts it.

use bytes::{Bytes, BytesMut};
use fjord_protocol::records::{batch::set_base_offset, ControlRecordType, RecordBatches};
use fjord_raft::control::{self, VoterSet};
use fjord_raft::types::SnapshotId;
use std::path::{Path, PathBuf};

/// The suffix of a finished snapshot.
pub const SNAPSHOT_SUFFIX: &str = ".checkpoint";
/// The suffix of a snapshot still being written (removed at load).
pub const PARTIAL_SUFFIX: &str = ".checkpoint.part";

/// Why a snapshot file is unusable.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotFileError {
    /// A disk operation failed.
    #[error("I/O error on {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The bytes are not a snapshot.
    #[error("invalid snapshot: {0}")]
    Invalid(String),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SnapshotFileError + '_ {
    move |source| SnapshotFileError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The file name of a snapshot.
pub fn file_name(id: SnapshotId) -> String {
    format!("{:020}-{:010}{SNAPSHOT_SUFFIX}", id.end_offset, id.epoch)
}

/// The snapshot id a file name stands for.
pub fn parse_file_name(name: &str) -> Option<SnapshotId> {
    let stem = name.strip_suffix(SNAPSHOT_SUFFIX)?;
    let (offset, epoch) = stem.split_once('-')?;
    if offset.len() != 20 || epoch.len() != 10 {
        return None;
    }
    Some(SnapshotId {
        end_offset: offset.parse().ok()?,
        epoch: epoch.parse().ok()?,
    })
}

/// Builds a snapshot's bytes: header, voters (if any), the state's batches renumbered from
/// offset 1, footer.
pub fn build(
    voters: Option<&VoterSet>,
    state: &Bytes,
    now_ms: i64,
) -> Result<Bytes, SnapshotFileError> {
    let mut out = BytesMut::new();
    out.extend_from_slice(&control::snapshot_header_batch(now_ms, now_ms));
    let mut next = 1i64;
    if let Some(v) = voters {
        let b = control::voters_batch(next, 0, v, true, now_ms);
        next += 2;
        out.extend_from_slice(&b);
    }
    let mut batches = RecordBatches::new(state.clone());
    for b in batches.by_ref() {
        let b = b.map_err(|e| SnapshotFileError::Invalid(format!("state: {e}")))?;
        let mut bytes = BytesMut::from(&b.as_bytes()[..]);
        set_base_offset(&mut bytes, next);
        next += i64::from(b.last_offset_delta()) + 1;
        out.extend_from_slice(&bytes);
    }
    if !batches.remaining().is_empty() {
        return Err(SnapshotFileError::Invalid(
            "state ends with a partial batch".into(),
        ));
    }
    out.extend_from_slice(&control::snapshot_footer_batch(next, now_ms));
    Ok(out.freeze())
}

/// What a valid snapshot holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The voter set it records.
    pub voters: Option<VoterSet>,
    /// The state machine's batches (between the control batches).
    pub state: Bytes,
}

/// Checks a snapshot's bytes: whole batches with valid CRCs, a header first, a footer last.
pub fn parse(bytes: &Bytes) -> Result<Parsed, SnapshotFileError> {
    let invalid = |m: String| SnapshotFileError::Invalid(m);
    let mut batches = RecordBatches::new(bytes.clone());
    let mut voters = None;
    let mut saw_header = false;
    let mut saw_footer = false;
    let mut state = BytesMut::new();
    for b in batches.by_ref() {
        let b = b.map_err(|e| invalid(e.to_string()))?;
        b.verify_crc().map_err(|e| invalid(e.to_string()))?;
        if saw_footer {
            return Err(invalid("a batch after the footer".into()));
        }
        let controls = control::control_records(&b).map_err(|e| invalid(e.to_string()))?;
        if !saw_header {
            if controls.first().map(|c| c.0) != Some(ControlRecordType::SnapshotHeader) {
                return Err(invalid("the first batch is not a snapshot header".into()));
            }
            saw_header = true;
            continue;
        }
        if b.is_control() {
            for (kind, value) in controls {
                match kind {
                    ControlRecordType::KRaftVoters => {
                        voters =
                            Some(control::parse_voters(value).map_err(|e| invalid(e.to_string()))?);
                    }
                    ControlRecordType::SnapshotFooter => saw_footer = true,
                    _ => {}
                }
            }
        } else {
            state.extend_from_slice(b.as_bytes());
        }
    }
    if !batches.remaining().is_empty() {
        return Err(invalid("ends with a partial batch".into()));
    }
    if !saw_footer {
        return Err(invalid("no footer".into()));
    }
    Ok(Parsed {
        voters,
        state: state.freeze(),
    })
}

/// Writes a snapshot durably: `.part`, fsync, rename, fsync the directory.
pub fn write(dir: &Path, id: SnapshotId, bytes: &[u8]) -> Result<PathBuf, SnapshotFileError> {
    let path = dir.join(file_name(id));
    let part = dir.join(format!(
        "{:020}-{:010}{PARTIAL_SUFFIX}",
        id.end_offset, id.epoch
    ));
    fjord_util::atomic_file::write_via(&part, &path, bytes).map_err(io(&path))?;
    Ok(path)
}

/// A snapshot written durably under its staging name, not yet in place.
#[derive(Debug)]
pub struct Staged {
    /// Its id.
    pub id: SnapshotId,
    /// The staging file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub size: u64,
    /// The voter set it records.
    pub voters: Option<VoterSet>,
}

/// Builds a snapshot of `state` recording `voters` and writes it durably (fsynced) under a
/// staging name no other writer uses; [`place`] renames it into place. The slow part of
/// taking a snapshot (megabytes at 100,000 partitions), run off the Raft thread.
pub fn write_staged(
    dir: &Path,
    id: SnapshotId,
    voters: Option<VoterSet>,
    state: &Bytes,
    now_ms: i64,
) -> Result<Staged, SnapshotFileError> {
    use std::io::Write;
    let bytes = build(voters.as_ref(), state, now_ms)?;
    let path = dir.join(format!(
        "{:020}-{:010}.staged{PARTIAL_SUFFIX}",
        id.end_offset, id.epoch
    ));
    let mut f = std::fs::File::create(&path).map_err(io(&path))?;
    f.write_all(&bytes).map_err(io(&path))?;
    f.sync_all().map_err(io(&path))?;
    Ok(Staged {
        id,
        path,
        size: bytes.len() as u64,
        voters,
    })
}

/// Renames a staged snapshot into place, durably; its final path.
pub fn place(dir: &Path, staged: &Staged) -> Result<PathBuf, SnapshotFileError> {
    let path = dir.join(file_name(staged.id));
    std::fs::rename(&staged.path, &path).map_err(io(&path))?;
    fjord_util::atomic_file::sync_dir(dir).map_err(io(dir))?;
    Ok(path)
}

/// The snapshots in `dir`, oldest first.
pub fn list(dir: &Path) -> Result<Vec<SnapshotId>, SnapshotFileError> {
    let mut ids = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let entry = entry.map_err(io(dir))?;
        if let Some(id) = parse_file_name(&entry.file_name().to_string_lossy()) {
            ids.push(id);
        }
    }
    ids.sort_unstable();
    Ok(ids)
}

/// Removes the partial and staged snapshots a crash left in `dir` (at open, before anything
/// writes one).
pub fn remove_partials(dir: &Path) -> Result<(), SnapshotFileError> {
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let entry = entry.map_err(io(dir))?;
        if entry
            .file_name()
            .to_string_lossy()
            .ends_with(PARTIAL_SUFFIX)
        {
            std::fs::remove_file(entry.path()).map_err(io(&entry.path()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::records::{Compression, RecordBatchBuilder};

    #[test]
    fn names_follow_kafka() {
        let id = SnapshotId {
            end_offset: 1234,
            epoch: 5,
        };
        assert_eq!(file_name(id), "00000000000000001234-0000000005.checkpoint");
        assert_eq!(parse_file_name(&file_name(id)), Some(id));
        assert_eq!(parse_file_name("1234-5.checkpoint"), None);
    }

    #[test]
    fn a_snapshot_round_trips_and_damage_is_refused() {
        let mut b = RecordBatchBuilder::new(Compression::None).base_offset(40);
        b.append(5, Some(b"k"), Some(b"v"), &[]);
        b.append(6, Some(b"k2"), Some(b"v2"), &[]);
        let state = b.build().unwrap();
        let bytes = build(None, &state, 7).unwrap();
        let parsed = parse(&bytes).unwrap();
        assert_eq!(parsed.voters, None);
        assert_eq!(parsed.state.len(), state.len());
        assert!(parse(&bytes.slice(..bytes.len() - 1)).is_err());
        let mut flipped = bytes.to_vec();
        let n = flipped.len();
        flipped[n - 1] ^= 1;
        assert!(parse(&Bytes::from(flipped)).is_err());
        assert!(parse(&state).is_err(), "no header");
    }
}
