//! Fencing of a broker on real processes (split roles: one controller, three brokers): a
//! SIGKILLed broker's kernel closes its heartbeat connection, so the controller fences it
//! `broker.connection.loss.fence.ms` later and its partitions move, long before its session
//! would end; a SIGSTOPped broker keeps its connection open and is fenced only when its
//! session ends; once resumed it is unfenced and leads again.

mod common;

use common::*;
use std::time::{Duration, Instant};

/// The broker session timeout of these tests (heartbeats every 500 ms).
const SESSION_MS: u64 = 8_000;

#[test]
fn a_killed_broker_is_fenced_at_once_and_a_paused_one_only_when_its_session_ends() {
    let root = tempfile::tempdir().unwrap();
    let (controller, mut brokers) = controller_and_brokers(
        root.path(),
        3,
        &format!("broker.session.timeout.ms={SESSION_MS}\nbroker.heartbeat.interval.ms=500"),
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    let b1 = brokers[0].broker_addr();
    create(&b1, "killed", "3:1:2", &[]);
    create(&b1, "paused", "2:1:3", &[]);
    wait_partition(&rt, &b1, "killed", "led by 3 with all in sync", |l, isr| {
        l == 3 && isr.len() == 3
    });
    wait_partition(&rt, &b1, "paused", "led by 2 with all in sync", |l, isr| {
        l == 2 && isr.len() == 3
    });

    // SIGKILL: fenced after the 1 s grace, well before its 8 s session ends.
    brokers[2].kill();
    let killed = Instant::now();
    wait_partition(&rt, &b1, "killed", "led by another broker", |l, _| {
        l >= 0 && l != 3
    });
    let took = killed.elapsed();
    assert!(
        took < Duration::from_millis(SESSION_MS / 2),
        "a killed broker's partitions moved after {took:?}, as if only its session ended"
    );

    // SIGSTOP: its connection stays open, so only the session timeout fences it.
    brokers[1].signal("STOP");
    let stopped = Instant::now();
    wait_partition(&rt, &b1, "paused", "led by another broker", |l, _| {
        l >= 0 && l != 2
    });
    let took = stopped.elapsed();
    brokers[1].signal("CONT");
    // Its last heartbeat was at most 500 ms before the stop.
    assert!(
        took >= Duration::from_millis(SESSION_MS - 1_000),
        "a paused broker was fenced after {took:?}, before its session ended"
    );
    // Resumed, it heartbeats, is unfenced and catches up: back in the ISR.
    wait_partition(&rt, &b1, "paused", "2 back in the ISR", |_, isr| {
        isr.contains(&2)
    });
    let log = std::fs::read_to_string(controller.dir.join("server.log")).unwrap_or_default();
    assert!(
        log.contains("the connection carrying broker 3's heartbeats closed"),
        "the controller logged the connection loss:\n{}",
        controller.log_tail()
    );
}
