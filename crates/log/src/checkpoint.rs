//! Checkpoint files in Kafka's text format (a version line, a count line, one entry per line),
//! written atomically: temp file, fsync, rename over the old file, fsync the directory. A torn
//! write leaves the old checkpoint in place and a `.tmp` file that is ignored and removed.

use crate::error::{io_err, LogError, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The suffix of a checkpoint being written.
pub const TMP_SUFFIX: &str = ".tmp";
/// The version of every checkpoint format fjord writes (Kafka's current one).
pub const CHECKPOINT_VERSION: i32 = 0;

/// Per-log-dir: the high watermark of each partition.
pub const REPLICATION_OFFSET_CHECKPOINT: &str = "replication-offset-checkpoint";
/// Per-log-dir: the offset up to which each partition's log is known flushed.
pub const RECOVERY_POINT_CHECKPOINT: &str = "recovery-point-offset-checkpoint";
/// Per-log-dir: the offset below which compaction has cleaned each partition.
pub const CLEANER_OFFSET_CHECKPOINT: &str = "cleaner-offset-checkpoint";
/// Per-log-dir: the log start offset of each partition.
pub const LOG_START_OFFSET_CHECKPOINT: &str = "log-start-offset-checkpoint";

/// Fsyncs a directory, so a rename or unlink in it is durable.
pub fn sync_dir(dir: &Path) -> Result<()> {
    fjord_util::atomic_file::sync_dir(dir).map_err(io_err(dir))
}

/// Replaces `path` with `contents` so that a crash leaves either the old or the new file.
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<()> {
    fjord_util::atomic_file::write_via(&tmp_path(path), path, contents).map_err(io_err(path))
}

/// Replaces `path` with `contents` through a temp file and a rename, without fsync: for a
/// checkpoint that is only a hint (the high watermarks), written often. A crash can leave the
/// old file, the new one or (on a file system without ext4's replace-by-rename ordering) a
/// torn one, which its reader takes as missing.
pub fn write_unsynced(path: &Path, contents: &[u8]) -> Result<()> {
    let tmp = tmp_path(path);
    std::fs::write(&tmp, contents).map_err(io_err(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io_err(path))
}

/// The temp path a checkpoint is written through.
pub fn tmp_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(TMP_SUFFIX);
    PathBuf::from(s)
}

/// Writes a checkpoint: version, count, then each entry on its own line.
pub fn write_entries(path: &Path, entries: &[String]) -> Result<()> {
    write_atomically(path, entries_text(entries).as_bytes())
}

fn entries_text(entries: &[String]) -> String {
    let mut text = format!("{CHECKPOINT_VERSION}\n{}\n", entries.len());
    for e in entries {
        text.push_str(e);
        text.push('\n');
    }
    text
}

/// Reads a checkpoint's entries, or `None` when the file does not exist.
pub fn read_entries(path: &Path) -> Result<Option<Vec<String>>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(path)(e)),
    };
    let bad = |reason: &str| LogError::Malformed {
        path: path.to_owned(),
        reason: reason.to_string(),
    };
    let mut lines = text.lines();
    let version: i32 = lines
        .next()
        .and_then(|l| l.trim().parse().ok())
        .ok_or_else(|| bad("no version"))?;
    if version != CHECKPOINT_VERSION {
        return Err(bad(&format!("unsupported version {version}")));
    }
    let count: usize = lines
        .next()
        .and_then(|l| l.trim().parse().ok())
        .ok_or_else(|| bad("no count"))?;
    let entries: Vec<String> = lines
        .filter(|l| !l.trim().is_empty())
        .map(String::from)
        .collect();
    if entries.len() != count {
        return Err(bad(&format!(
            "expected {count} entries, found {}",
            entries.len()
        )));
    }
    Ok(Some(entries))
}

/// A topic partition, as checkpoints and directory names spell it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TopicPartition {
    /// The topic name.
    pub topic: String,
    /// The partition index.
    pub partition: i32,
}

impl TopicPartition {
    /// A topic partition.
    pub fn new(topic: impl Into<String>, partition: i32) -> TopicPartition {
        TopicPartition {
            topic: topic.into(),
            partition,
        }
    }

    /// The partition's directory name, `<topic>-<partition>`.
    pub fn dir_name(&self) -> String {
        format!("{}-{}", self.topic, self.partition)
    }

    /// Parses a directory name `<topic>-<partition>` (the topic may itself contain `-`).
    pub fn parse_dir_name(name: &str) -> Option<TopicPartition> {
        let (topic, partition) = name.rsplit_once('-')?;
        let partition = partition.parse().ok().filter(|p: &i32| *p >= 0)?;
        (!topic.is_empty()).then(|| TopicPartition::new(topic, partition))
    }
}

/// A per-log-dir offset checkpoint: `topic partition offset` per line.
#[derive(Debug, Clone)]
pub struct OffsetCheckpoint {
    path: PathBuf,
}

impl OffsetCheckpoint {
    /// The checkpoint at `path`.
    pub fn new(path: impl Into<PathBuf>) -> OffsetCheckpoint {
        OffsetCheckpoint { path: path.into() }
    }

    /// Writes the offsets atomically.
    pub fn write(&self, offsets: &BTreeMap<TopicPartition, i64>) -> Result<()> {
        write_entries(&self.path, &Self::entries(offsets))
    }

    /// Writes the offsets through a rename without fsync ([`write_unsynced`]).
    pub fn write_unsynced(&self, offsets: &BTreeMap<TopicPartition, i64>) -> Result<()> {
        write_unsynced(&self.path, entries_text(&Self::entries(offsets)).as_bytes())
    }

    fn entries(offsets: &BTreeMap<TopicPartition, i64>) -> Vec<String> {
        offsets
            .iter()
            .map(|(tp, o)| format!("{} {} {o}", tp.topic, tp.partition))
            .collect()
    }

    /// Reads the offsets (empty when the file does not exist).
    pub fn read(&self) -> Result<BTreeMap<TopicPartition, i64>> {
        let Some(entries) = read_entries(&self.path)? else {
            return Ok(BTreeMap::new());
        };
        let mut out = BTreeMap::new();
        for e in entries {
            let mut parts = e.split_whitespace();
            let parsed = (|| {
                let topic = parts.next()?;
                let partition = parts.next()?.parse().ok()?;
                let offset = parts.next()?.parse().ok()?;
                parts
                    .next()
                    .is_none()
                    .then(|| (TopicPartition::new(topic, partition), offset))
            })();
            let (tp, offset) = parsed.ok_or_else(|| LogError::Malformed {
                path: self.path.clone(),
                reason: format!("bad entry {e:?}"),
            })?;
            out.insert(tp, offset);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_round_trip_in_kafkas_format() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(REPLICATION_OFFSET_CHECKPOINT);
        let cp = OffsetCheckpoint::new(&path);
        let mut m = BTreeMap::new();
        m.insert(TopicPartition::new("a-b", 0), 42);
        m.insert(TopicPartition::new("c", 3), 7);
        cp.write(&m).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "0\n2\na-b 0 42\nc 3 7\n"
        );
        assert_eq!(cp.read().unwrap(), m);
        assert!(!tmp_path(&path).exists());
    }

    #[test]
    fn a_missing_checkpoint_is_empty_and_a_torn_temp_file_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(RECOVERY_POINT_CHECKPOINT);
        let cp = OffsetCheckpoint::new(&path);
        assert!(cp.read().unwrap().is_empty());
        let mut m = BTreeMap::new();
        m.insert(TopicPartition::new("t", 0), 5);
        cp.write(&m).unwrap();
        std::fs::write(tmp_path(&path), "0\n3\nt 0").unwrap();
        assert_eq!(
            cp.read().unwrap(),
            m,
            "the old checkpoint survives a torn write"
        );
    }

    #[test]
    fn malformed_checkpoints_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cp");
        for bad in [
            "",
            "1\n0\n",
            "0\n2\nt 0 1\n",
            "0\n1\nt x 1\n",
            "0\n1\nt 0 1 9\n",
        ] {
            std::fs::write(&path, bad).unwrap();
            assert!(OffsetCheckpoint::new(&path).read().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn dir_names_parse_back() {
        let tp = TopicPartition::new("my-topic", 12);
        assert_eq!(tp.dir_name(), "my-topic-12");
        assert_eq!(TopicPartition::parse_dir_name("my-topic-12"), Some(tp));
        assert_eq!(TopicPartition::parse_dir_name("nope"), None);
        assert_eq!(
            TopicPartition::parse_dir_name("t--1"),
            Some(TopicPartition::new("t-", 1))
        );
        assert_eq!(TopicPartition::parse_dir_name("-1"), None);
        assert_eq!(TopicPartition::parse_dir_name("t-x"), None);
    }
}
