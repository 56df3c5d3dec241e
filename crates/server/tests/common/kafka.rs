//! Apache Kafka 4.4 clusters for the reference tests, run by `tests/kafka/kafka.sh` (the jars
//! from Maven Central, nodes on 127.0.0.1 below port 32768), stopped with SIGKILL when dropped.

use std::path::PathBuf;
use std::process::Command;

/// The script that runs Kafka 4.4 here.
pub fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/kafka/kafka.sh")
}

/// Runs the script with `args` (and `extra` broker properties), asserting it succeeds;
/// returns what it printed.
fn run(args: &[&str], extra: &str, log_dirs: u16) -> String {
    let o = Command::new("bash")
        .arg(script())
        .args(args)
        .env("KAFKA_EXTRA", extra)
        .env("KAFKA_LOG_DIRS", log_dirs.to_string())
        .output()
        .expect("bash runs");
    assert!(
        o.status.success(),
        "kafka.sh {args:?}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// A running Kafka 4.4 cluster: a controller (id 100) and brokers 1..=n.
pub struct KafkaCluster {
    dir: tempfile::TempDir,
    base: u16,
    extra: String,
    log_dirs: u16,
    /// The brokers' bootstrap list.
    pub bootstrap: String,
}

impl KafkaCluster {
    /// Formats and starts a split cluster of `brokers` brokers, broker `i` on `base + 10 * i`,
    /// with `extra` broker properties.
    pub fn start(brokers: u16, base: u16, extra: &str) -> KafkaCluster {
        KafkaCluster::start_with_dirs(brokers, base, extra, 1)
    }

    /// [`KafkaCluster::start`] with `log_dirs` log dirs per node (`data`, `data2`, ...).
    pub fn start_with_dirs(brokers: u16, base: u16, extra: &str, log_dirs: u16) -> KafkaCluster {
        let dir = tempfile::tempdir().unwrap();
        let bootstrap = run(
            &[
                "start",
                dir.path().to_str().unwrap(),
                &brokers.to_string(),
                &base.to_string(),
                "--split",
            ],
            extra,
            log_dirs,
        );
        KafkaCluster {
            dir,
            base,
            extra: extra.to_string(),
            log_dirs,
            bootstrap,
        }
    }

    /// Broker `id`'s address.
    pub fn addr(&self, id: i32) -> String {
        format!("127.0.0.1:{}", i32::from(self.base) + 10 * id)
    }

    /// SIGKILLs node `id`.
    pub fn kill(&self, id: i32) {
        run(
            &["kill", self.dir.path().to_str().unwrap(), &id.to_string()],
            &self.extra,
            self.log_dirs,
        );
    }

    /// Starts node `id` again on its old port and waits until it listens.
    pub fn restart(&self, id: i32) {
        run(
            &[
                "restart",
                self.dir.path().to_str().unwrap(),
                &id.to_string(),
            ],
            &self.extra,
            self.log_dirs,
        );
    }

    /// Node `id`'s log dir `n` (1 is `data`, 2 is `data2`, ...).
    pub fn log_dir(&self, id: i32, n: u16) -> PathBuf {
        let name = if n == 1 {
            "data".to_string()
        } else {
            format!("data{n}")
        };
        self.dir.path().join(format!("node-{id}/{name}"))
    }

    /// A file of node `id`'s log dir (empty when there is none).
    pub fn data_file(&self, id: i32, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(format!("node-{id}/data/{name}")))
            .unwrap_or_default()
    }

    /// The server log of node `id`.
    pub fn log(&self, id: i32) -> String {
        std::fs::read_to_string(self.dir.path().join(format!("node-{id}/logs/server.log")))
            .unwrap_or_default()
    }
}

impl Drop for KafkaCluster {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(script())
            .args(["stop", self.dir.path().to_str().unwrap()])
            .status();
    }
}
