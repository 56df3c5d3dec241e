//! `kafka-unclean-recovery --watch` on real processes (a controller-only node and brokers 1,
//! 2, 3): three topics, one per KIP-966 strategy, go offline the same way (broker 1, the last
//! ISR member, dies holding 50 records the others never got; brokers 2 and 3 come back). The
//! watcher recovers the Proactive topic within its poll interval, leaves the Balanced one
//! waiting for its ELR member and recovers it (with broker 1's longer log) once that member is
//! back, never touches the Manual one, serves its own `/metrics`, and stops cleanly on SIGTERM.

mod common;

use common::{
    consume_values, controller_and_brokers, create, fjord_bin, free_port, metrics_text,
    partition_zero, produce_acked, wait_for, wait_partition, Node, FAST_REPLICATION,
};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The watcher's process and the file its output goes to.
struct Watcher {
    child: Child,
    out: std::path::PathBuf,
    metrics_port: u16,
}

impl Watcher {
    fn output(&self) -> String {
        std::fs::read_to_string(&self.out).unwrap_or_default()
    }

    /// The value of one of its counters (`None` until its `/metrics` answers).
    fn counter(&self, name: &str) -> Option<u64> {
        let text = std::panic::catch_unwind(|| metrics_text(self.metrics_port)).ok()?;
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{name} ")))
            .and_then(|v| v.parse().ok())
    }

    /// Waits until the watcher has polled `n` more times (each poll reads the cluster anew).
    fn polls_more(&self, n: u64) {
        let now = wait_for(Duration::from_secs(30), || {
            self.counter("fjord_unclean_recovery_polls_total")
        })
        .expect("the watcher serves /metrics");
        let later = wait_for(Duration::from_secs(60), || {
            self.counter("fjord_unclean_recovery_polls_total")
                .filter(|p| *p >= now + n)
        });
        assert!(later.is_some(), "{}", self.output());
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_watcher_applies_each_topics_strategy() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (_controller, mut brokers) = controller_and_brokers(root.path(), 3, FAST_REPLICATION);
    let addrs: Vec<String> = brokers.iter().map(Node::broker_addr).collect();
    let topics = [("pro", "Proactive"), ("bal", "Balanced"), ("man", "Manual")];
    for (t, strategy) in topics {
        create(
            &addrs.join(","),
            t,
            "1:2:3",
            &[
                "min.insync.replicas=1",
                "unclean.leader.election.enable=false",
                &format!("unclean.recovery.strategy={strategy}"),
                "unclean.recovery.timeout.ms=5000",
            ],
        );
        wait_partition(&rt, &addrs[0], t, "three in sync", |l, isr| {
            l == 1 && isr.len() == 3
        });
        produce_acked(&rt, &addrs.join(","), t, 0..100);
    }
    // Brokers 3 and 2 leave; broker 1 alone takes 50 more of each, then dies (in the ELR).
    brokers[2].kill();
    for (t, _) in topics {
        wait_partition(&rt, &addrs[0], t, "ISR 1,2", |_, isr| isr == [1, 2]);
    }
    brokers[1].kill();
    for (t, _) in topics {
        wait_partition(&rt, &addrs[0], t, "ISR 1", |_, isr| isr == [1]);
        produce_acked(&rt, &addrs[0], t, 100..150);
    }
    brokers[0].kill();
    brokers[1].start();
    brokers[2].start();
    for (t, _) in topics {
        wait_partition(&rt, &addrs[1], t, "offline", |l, _| l == -1);
    }

    let out = root.path().join("watch.log");
    let metrics_port = free_port();
    let child = Command::new(fjord_bin())
        .args([
            "kafka-unclean-recovery",
            "--bootstrap-server",
            &addrs[1..].join(","),
            "--watch",
            "--poll-interval-ms",
            "300",
            "--metrics-listener",
            &format!("http://127.0.0.1:{metrics_port}"),
        ])
        .stdout(Stdio::from(std::fs::File::create(&out).unwrap()))
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut w = Watcher {
        child,
        out,
        metrics_port,
    };

    // Proactive: recovered at once (brokers 2 and 3 tie at 100 records: broker 2).
    wait_partition(&rt, &addrs[1], "pro", "recovered by the watcher", |l, _| {
        l == 2
    });
    let recovered = wait_for(Duration::from_secs(30), || {
        w.output()
            .contains("Recovered pro-0: leader is broker 2.")
            .then_some(())
    });
    assert!(recovered.is_some(), "{}", w.output());
    // Balanced and Manual wait for their fenced ELR member, poll after poll.
    w.polls_more(3);
    let log = w.output();
    assert!(
        log.contains("pro-0: recovering (ELR members 1 are down; Proactive)."),
        "{log}"
    );
    assert!(
        log.contains("bal-0: not recovered: waiting for ELR members 1 (Balanced)."),
        "{log}"
    );
    assert!(
        log.contains("man-0: not recovered: waiting for ELR members 1 (Manual)."),
        "{log}"
    );
    assert_eq!(
        log.matches("bal-0: not recovered").count(),
        1,
        "a decision is logged once: {log}"
    );
    for t in ["bal", "man"] {
        assert_eq!(
            partition_zero(&rt, &addrs[1], t).map(|p| p.1),
            Some(-1),
            "{t} untouched"
        );
    }

    // Broker 1 comes back after its unclean shutdown (it leaves the ELR): Balanced now
    // recovers, and chooses broker 1's longer log; Manual stays offline.
    brokers[0].start();
    wait_partition(&rt, &addrs[1], "bal", "recovered by the watcher", |l, _| {
        l == 1
    });
    let recovered = wait_for(Duration::from_secs(30), || {
        w.output()
            .contains("Recovered bal-0: leader is broker 1.")
            .then_some(())
    });
    assert!(recovered.is_some(), "{}", w.output());
    let expected: Vec<String> = (0..150).map(|i| format!("v{i}")).collect();
    assert_eq!(consume_values(&addrs.join(","), "bal", 150), expected);
    w.polls_more(3);
    let log = w.output();
    assert!(
        log.contains("man-0: not recovered: Manual: left for the operator"),
        "{log}"
    );
    assert!(!log.contains("Recovered man-0"), "{log}");
    assert_eq!(partition_zero(&rt, &addrs[1], "man").map(|p| p.1), Some(-1));

    // Its own metrics, then a clean stop on SIGTERM.
    assert_eq!(
        w.counter("fjord_unclean_recovery_partitions_recovered_total"),
        Some(2)
    );
    assert!(w.counter("fjord_unclean_recovery_partitions_skipped_total") >= Some(3));
    assert_eq!(
        w.counter("fjord_unclean_recovery_offline_partitions"),
        Some(1)
    );
    let sent = Command::new("kill")
        .args(["-TERM", &w.child.id().to_string()])
        .status()
        .is_ok_and(|s| s.success());
    assert!(sent);
    let status = wait_for(Duration::from_secs(30), || {
        w.child.try_wait().ok().flatten()
    });
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    assert!(
        w.output().trim_end().ends_with("Stopped."),
        "{}",
        w.output()
    );
}
