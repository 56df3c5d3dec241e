//! README's share-group walk-through, run as a newcomer would copy it: the commands of the
//! "Share groups in five commands" block, against a real node (its address for
//! 127.0.0.1:9092, the binary under test for `fjord`). README claims only what works.

mod common;

use common::{random_uuid, wait_for, Node};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The shell commands of the fenced block after `heading` in README.md, continuation lines
/// joined.
fn block_after(heading: &str) -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    let rest = &readme[readme.find(heading).expect("the heading is in README.md")..];
    let start = rest.find("```sh\n").expect("a sh block follows") + 6;
    let body = &rest[start..start + rest[start..].find("```").unwrap()];
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in body.lines() {
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

#[test]
fn the_share_group_walkthrough_works_as_written() {
    let root = tempfile::tempdir().unwrap();
    let (broker, controller) = (common::free_port(), common::free_port());
    let voters = format!("controller.quorum.voters=1@127.0.0.1:{controller}");
    // The embedded default's single-node settings (README's node).
    let extra = "offsets.topic.replication.factor=1\n\
                 transaction.state.log.replication.factor=1\n\
                 transaction.state.log.min.isr=1\n\
                 share.coordinator.state.topic.replication.factor=1\n\
                 share.coordinator.state.topic.min.isr=1\n";
    let mut node = Node::combined(root.path(), 1, (broker, controller), &voters, extra);
    node.format(&random_uuid(), &[]);
    node.start();
    let addr = node.broker_addr();
    let bin = env!("CARGO_BIN_EXE_fjord");
    let commands = block_after("### Share groups in five commands");
    assert_eq!(commands.len(), 5, "{commands:?}");
    let mut outputs = Vec::new();
    for c in &commands {
        let c = c
            .replace("127.0.0.1:9092", &addr)
            .replace("fjord kafka-", &format!("{bin} kafka-"));
        // The first command waits for the node to serve.
        let out = wait_for(Duration::from_secs(60), || {
            // Every command is bounded: a hung tool fails the test instead of hanging it.
            let o = Command::new("timeout")
                .args(["60", "sh", "-c", &c])
                .output()
                .unwrap();
            o.status.success().then_some(o)
        });
        let out = out.unwrap_or_else(|| panic!("`{c}` failed\n{}", node.log_tail()));
        outputs.push(String::from_utf8_lossy(&out.stdout).into_owned());
    }
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
