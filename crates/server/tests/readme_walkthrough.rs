//! README's set-up and five-minute tour and the guide's share-group and tiered-storage
//! walk-throughs, run as a
//! newcomer would copy them: the tour against `fjord server` started with no arguments as
//! README's first command starts it, the walk-through against a node like it on free ports
//! (the binary under test for `fjord`); the tour's output compared with what README shows.
//! README claims only what works.

mod common;

use common::{wait_for, Node};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The text of the fenced block of `kind` (`sh`, `text`) after `heading` in `file` (relative
/// to the repository's root).
fn fenced_after(file: &str, heading: &str, kind: &str) -> String {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(file),
    )
    .unwrap();
    let rest = &text[text.find(heading).expect("the heading is in the file")..];
    let fence = format!("```{kind}\n");
    let start = rest.find(&fence).expect("a block follows") + fence.len();
    rest[start..start + rest[start..].find("```").unwrap()].to_string()
}

/// The shell commands of the `sh` block after `heading` in `file`, continuation lines joined.
fn block_after(file: &str, heading: &str) -> Vec<String> {
    let body = fenced_after(file, heading, "sh");
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in body.lines().filter(|l| !l.starts_with("alias ")) {
        match line.strip_suffix('\\') {
            Some(head) => current.push_str(head),
            None => {
                current.push_str(line);
                out.push(std::mem::take(&mut current));
            }
        }
    }
    out
}

/// Where README's commands are sent: the node's broker address and metrics port, and how to
/// show its log when a command fails.
struct Target<'a> {
    broker: String,
    metrics_port: u16,
    log: Box<dyn Fn() -> String + 'a>,
}

/// Runs `c` as a shell command with README's addresses and `fjord` replaced by the target's
/// and the binary under test, retried until it succeeds (the first waits for the node to
/// serve); its stdout and stderr.
fn run_as_written(target: &Target, c: &str) -> (String, String) {
    let bin = env!("CARGO_BIN_EXE_fjord");
    let c = c
        .replace("127.0.0.1:9092", &target.broker)
        .replace(
            "127.0.0.1:9404",
            &format!("127.0.0.1:{}", target.metrics_port),
        )
        .replace("fjord kafka-", &format!("{bin} kafka-"));
    let c = match c.strip_prefix("fjord ") {
        Some(rest) => format!("{bin} {rest}"),
        None => c,
    };
    let out = wait_for(Duration::from_secs(60), || {
        // Every command is bounded: a hung tool fails the test instead of hanging it.
        let o = Command::new("timeout")
            .args(["60", "sh", "-c", &c])
            .output()
            .unwrap();
        o.status.success().then_some(o)
    });
    let out = out.unwrap_or_else(|| panic!("`{c}` failed\n{}", (target.log)()));
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A process killed when dropped.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_five_minute_tour_prints_what_readme_shows() {
    // README's first command, as written: `fjord server` with no arguments in a fresh
    // directory (the embedded default: 127.0.0.1:9092, :9093 and metrics on :9404, ports no
    // other test uses).
    let setup = block_after("README.md", "## Set up");
    assert_eq!(
        setup.len(),
        2,
        "README has exactly two set-up commands: {setup:?}"
    );
    assert!(
        setup[0].starts_with("cargo run --bin fjord -- server "),
        "{setup:?}"
    );
    assert!(setup[1].starts_with("cargo test --workspace "), "{setup:?}");
    let dir = tempfile::tempdir().unwrap();
    let log_path = dir.path().join("server.log");
    let _node = Killed(
        Command::new(env!("CARGO_BIN_EXE_fjord"))
            .arg("server")
            .current_dir(dir.path())
            .stdout(std::fs::File::create(&log_path).unwrap())
            .stderr(std::fs::File::create(dir.path().join("server.err")).unwrap())
            .spawn()
            .unwrap(),
    );
    let err_path = dir.path().join("server.err");
    let target = Target {
        broker: "127.0.0.1:9092".into(),
        metrics_port: 9404,
        log: Box::new(|| std::fs::read_to_string(&err_path).unwrap_or_default()),
    };
    let commands = block_after("README.md", "## A five-minute tour");
    assert_eq!(commands.len(), 4, "{commands:?}");
    let mut printed = String::new();
    for c in &commands {
        let (out, err) = run_as_written(&target, c);
        printed.push_str(&out);
        printed.push_str(&err);
    }
    let shown = fenced_after("README.md", "## A five-minute tour", "text");
    let printed_lines: Vec<&str> = printed.lines().collect();
    for line in shown.lines() {
        // The bytes in depend on how the producer batched the two records: that series
        // must be there with a positive count, every other line as shown.
        let bytes_in = "kafka_server_brokertopicmetrics_bytesin_total{topic=\"tour\"} ";
        if line.starts_with(bytes_in) {
            assert!(
                printed_lines.iter().any(|l| l
                    .strip_prefix(bytes_in)
                    .and_then(|n| n.trim().parse::<u64>().ok())
                    .is_some_and(|n| n > 0)),
                "README shows `{line}`; the tour printed:\n{printed}"
            );
        } else {
            assert!(
                printed_lines.contains(&line),
                "README shows `{line}`; the tour printed:\n{printed}"
            );
        }
    }
}

#[test]
fn the_share_group_walkthrough_works_as_written() {
    let root = tempfile::tempdir().unwrap();
    let node = Node::embedded_like(root.path());
    let target = Target {
        broker: node.broker_addr(),
        metrics_port: node.metrics_port,
        log: Box::new(|| node.log_tail()),
    };
    let commands = block_after(
        "docs/guide/share-groups.md",
        "# Share groups in five commands",
    );
    assert_eq!(commands.len(), 5, "{commands:?}");
    let outputs: Vec<String> = commands
        .iter()
        .map(|c| run_as_written(&target, c).0)
        .collect();
    let jobs: Vec<&str> = outputs[3].lines().collect();
    assert_eq!(jobs.len(), 6, "six jobs printed: {jobs:?}");
    assert!(jobs
        .iter()
        .all(|j| j.parse::<u32>().is_ok_and(|n| (1..=10).contains(&n))));
    let described = &outputs[4];
    assert!(
        described.contains("START-OFFSET") && described.contains("workers"),
        "{described}"
    );
    let started: Vec<i64> = described
        .lines()
        .filter(|l| l.starts_with("workers"))
        .filter_map(|l| l.split_whitespace().nth(3)?.parse().ok())
        .collect();
    assert_eq!(
        started.len(),
        2,
        "both partitions have a start offset: {described}"
    );
    assert_eq!(
        started.iter().sum::<i64>(),
        6,
        "the six printed jobs are done with: {described}"
    );
}

#[test]
fn the_tiered_storage_walkthrough_works_as_written() {
    let root = tempfile::tempdir().unwrap();
    // The overrides of the guide's start command.
    let start = fenced_after("docs/guide/tiered-storage.md", "# Tiered storage in", "sh");
    let overrides: String = start
        .split("--override ")
        .skip(1)
        .map(|o| format!("{}\n", o.split_whitespace().next().unwrap_or("")))
        .collect();
    assert_eq!(overrides.lines().count(), 4, "{overrides}");
    let node = Node::embedded_like_with(root.path(), &overrides);
    let target = Target {
        broker: node.broker_addr(),
        metrics_port: node.metrics_port,
        log: Box::new(|| node.log_tail()),
    };
    let all = block_after("docs/guide/tiered-storage.md", "half a million records");
    assert_eq!(all.len(), 4, "{all:?}");
    run_as_written(&target, &all[0]);
    run_as_written(&target, &all[1]);
    // Within seconds the local size is the active segment's alone.
    let field = |out: &str, key: &str| -> Option<u64> {
        let at = out.find("\"partition\":\"history-0\"")?;
        let rest = &out[at..];
        let key = format!("\"{key}\":");
        let s = &rest[rest.find(&key)? + key.len()..];
        s[..s.find([',', '}'])?].parse().ok()
    };
    // And the store holds the rest, as `remoteSize` says.
    let small = wait_for(Duration::from_secs(60), || {
        let out = run_as_written(&target, &all[2]).0;
        let local = field(&out, "size").filter(|n| *n < 2_000_000)?;
        field(&out, "remoteSize").filter(|r| *r > 2_000_000 && *r > local)
    });
    assert!(
        small.is_some(),
        "history-0 stayed on local disk\n{}",
        node.log_tail()
    );
    let read = run_as_written(&target, &all[3]).0;
    assert_eq!(read.trim(), "500000", "{}", node.log_tail());
}
