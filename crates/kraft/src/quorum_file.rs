//! The `quorum-state` file (Kafka's FileQuorumStateStore): one line of QuorumStateData JSON
//! with a `data_version` field, written to `quorum-state.tmp`, fsynced and renamed before the
//! node acts on the state it holds. Version 1 (kraft.version 1) is written; 0 and 1 are read.

use fjord_raft::types::QuorumState;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The file's name in the metadata partition's directory.
pub const FILE_NAME: &str = "quorum-state";

/// Why the file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum QuorumFileError {
    /// A disk operation failed.
    #[error("I/O error on {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file's contents are not a quorum state.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// The quorum state file of one node.
#[derive(Debug, Clone)]
pub struct QuorumFile {
    path: PathBuf,
}

impl QuorumFile {
    /// The file in `dir`.
    pub fn new(dir: &Path) -> QuorumFile {
        QuorumFile {
            path: dir.join(FILE_NAME),
        }
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the state; the default (epoch 0, nothing known) when there is no file.
    pub fn read(&self) -> Result<QuorumState, QuorumFileError> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(QuorumState::default()),
            Err(source) => {
                return Err(QuorumFileError::Io {
                    path: self.path.clone(),
                    source,
                })
            }
        };
        let invalid = |message: String| QuorumFileError::Invalid {
            path: self.path.clone(),
            message,
        };
        let line = text.lines().next().unwrap_or("");
        let v: Value = serde_json::from_str(line).map_err(|e| invalid(e.to_string()))?;
        let version = v
            .get("data_version")
            .and_then(Value::as_i64)
            .ok_or_else(|| invalid("no data_version field".into()))?;
        if !(0..=1).contains(&version) {
            return Err(invalid(format!(
                "data_version ({version}) is not within the min (0) and max (1) supported version"
            )));
        }
        let int = |name: &str| -> Result<i64, QuorumFileError> {
            v.get(name)
                .and_then(Value::as_i64)
                .ok_or_else(|| invalid(format!("no {name} field")))
        };
        let epoch = i32::try_from(int("leaderEpoch")?)
            .map_err(|_| invalid("leaderEpoch out of range".into()))?;
        let id = |n: i64| i32::try_from(n).ok().filter(|n| *n >= 0);
        Ok(QuorumState {
            epoch,
            leader: id(int("leaderId")?),
            voted_for: id(int("votedId")?),
        })
    }

    /// Writes the state durably (temp file, fsync, rename, fsync the directory).
    pub fn write(&self, state: &QuorumState) -> Result<(), QuorumFileError> {
        let io = |source| QuorumFileError::Io {
            path: self.path.clone(),
            source,
        };
        let line = json!({
            "leaderId": state.leader.unwrap_or(-1),
            "leaderEpoch": state.epoch,
            "votedId": state.voted_for.unwrap_or(-1),
            "votedDirectoryId": "AAAAAAAAAAAAAAAAAAAAAA",
            "data_version": 1,
        })
        .to_string();
        let tmp = self.path.with_extension("tmp");
        fjord_util::atomic_file::write_via(&tmp, &self.path, line.as_bytes()).map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_reads_kafkas_version_0() {
        let dir = tempfile::tempdir().unwrap();
        let f = QuorumFile::new(dir.path());
        assert_eq!(f.read().unwrap(), QuorumState::default());
        let s = QuorumState {
            epoch: 7,
            leader: Some(2),
            voted_for: None,
        };
        f.write(&s).unwrap();
        assert_eq!(f.read().unwrap(), s);
        let text = std::fs::read_to_string(f.path()).unwrap();
        assert!(text.contains("\"leaderEpoch\":7") && text.contains("\"data_version\":1"));

        std::fs::write(
            f.path(),
            r#"{"clusterId":"","leaderId":1,"leaderEpoch":2,"votedId":-1,"appliedOffset":0,"currentVoters":[],"data_version":0}"#,
        )
        .unwrap();
        assert_eq!(
            f.read().unwrap(),
            QuorumState {
                epoch: 2,
                leader: Some(1),
                voted_for: None
            }
        );
        std::fs::write(f.path(), r#"{"leaderEpoch":2,"data_version":5}"#).unwrap();
        assert!(f
            .read()
            .unwrap_err()
            .to_string()
            .contains("data_version (5)"));
    }
}
