//! Offsets never go backwards because of a recovery, on real processes (a controller-only node
//! and brokers 1, 2, 3):
//!
//! - a log emptied by DeleteRecords and retention (log start = log end = 1000) still knows
//!   the epoch of what it held, across a SIGKILL and a restart, so `kafka-unclean-recovery` chooses it over a
//!   replica that died holding only 0..500: the next offset given out is 1000, not 500, and
//!   records 0..500 stay deleted (the issue's own run, which once gave offsets 500..999 out
//!   again and made deleted records readable);
//! - where the best replica by the rule does end below another replica's high watermark, the
//!   table says "Offsets reused", `--automated-recovery` refuses the partition, and
//!   `--allow-offset-reuse` elects it.

mod common;

use common::{
    call, consume_values, controller_and_brokers, create, delete_records_to as delete_records,
    produce_acked, recovery_row as row, show, text, wait_for, wait_partition, Node,
};
use fjord_protocol::generated::get_replica_log_info_request::{
    GetReplicaLogInfoRequest, TopicPartitions,
};
use fjord_protocol::generated::get_replica_log_info_response::PartitionLogInfo;
use fjord_protocol::generated::metadata_request::{MetadataRequest, MetadataRequestTopic};
use fjord_protocol::{RequestBody, ResponseBody, Uuid};
use std::process::Output;
use std::time::Duration;

/// Retention passes, and the high-watermark and log-start checkpoints, every 200 ms: what a
/// SIGKILL leaves on disk is then what the brokers knew a moment before.
const EXTRA: &str = "replica.lag.time.max.ms=2000\nreplica.fetch.wait.max.ms=100\n\
     broker.session.timeout.ms=3000\nbroker.heartbeat.interval.ms=500\n\
     log.retention.check.interval.ms=200\nreplica.high.watermark.checkpoint.interval.ms=200\n\
     log.flush.start.offset.checkpoint.interval.ms=200";

/// The segment files (`.log`) of partition 0 of `topic` on `node`, by name.
fn segment_files(node: &Node, topic: &str) -> Vec<String> {
    let dir = node.dir.join("data").join(format!("{topic}-0"));
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".log"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

const TOPIC_CONFIGS: [&str; 2] = [
    "min.insync.replicas=1",
    "unclean.leader.election.enable=false",
];

/// Runs `kafka-unclean-recovery --topic topic` with `flags`.
fn recovery(bootstrap: &str, topic: &str, flags: &[&str]) -> Output {
    common::unclean_recovery(bootstrap, topic, 5_000, flags)
}

/// Like [`recovery`], asserting success, returning what it printed.
fn recovered(bootstrap: &str, topic: &str, flags: &[&str]) -> String {
    common::unclean_recovered(bootstrap, topic, 5_000, flags)
}

fn topic_id(rt: &tokio::runtime::Runtime, addr: &str, topic: &str) -> Uuid {
    let ask = RequestBody::Metadata(MetadataRequest {
        topics: Some(vec![MetadataRequestTopic {
            name: Some(topic.into()),
            ..Default::default()
        }]),
        ..Default::default()
    });
    match rt.block_on(call(addr, ask, 12)) {
        Some(ResponseBody::Metadata(m)) => m.topics[0].topic_id,
        other => panic!("Metadata: {other:?}"),
    }
}

/// What broker `addr`'s replica of partition 0 reports (GetReplicaLogInfo).
fn log_info(rt: &tokio::runtime::Runtime, addr: &str, id: Uuid) -> Option<PartitionLogInfo> {
    let ask = RequestBody::GetReplicaLogInfo(GetReplicaLogInfoRequest {
        topic_partitions: Some(vec![TopicPartitions {
            topic_id: id,
            partitions: vec![0],
            ..Default::default()
        }]),
        ..Default::default()
    });
    let ResponseBody::GetReplicaLogInfo(r) = rt.block_on(call(addr, ask, 0))? else {
        return None;
    };
    let p = r
        .topic_partition_log_info_list
        .first()?
        .partition_log_info
        .first()?;
    (p.error_code == 0).then(|| p.clone())
}

#[test]
fn a_log_emptied_below_its_start_is_chosen_and_offsets_never_go_backwards() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (_controller, mut brokers) = controller_and_brokers(root.path(), 3, EXTRA);
    let addrs: Vec<String> = brokers.iter().map(Node::broker_addr).collect();
    let t = "emptied";
    create(&addrs.join(","), t, "1:2:3", &TOPIC_CONFIGS);
    wait_partition(&rt, &addrs[0], t, "three in sync", |l, isr| {
        l == 1 && isr.len() == 3
    });
    let id = topic_id(&rt, &addrs[0], t);
    // 500 records reach all three; broker 3 dies holding 0..500 (epoch 0).
    produce_acked(&rt, &addrs.join(","), t, 0..500);
    brokers[2].kill();
    wait_partition(&rt, &addrs[0], t, "ISR 1,2", |_, isr| isr == [1, 2]);
    // 500 more reach brokers 1 and 2; then every record is deleted there.
    produce_acked(&rt, &addrs[..2].join(","), t, 500..1000);
    delete_records(&rt, &addrs[0], t, 1000);
    // Broker 2 follows the log start, and retention deletes every segment below it.
    let emptied = wait_for(Duration::from_secs(30), || {
        let start = log_info(&rt, &addrs[1], id)?.log_start_offset;
        (start == 1000 && segment_files(&brokers[1], t) == ["00000000000000001000.log"])
            .then_some(())
    });
    assert!(
        emptied.is_some(),
        "broker 2 follows the log start and retention empties it: {:?} {:?}",
        log_info(&rt, &addrs[1], id),
        segment_files(&brokers[1], t)
    );
    // Broker 2, then the last ISR member, broker 1, die; brokers 2 and 3 come back.
    brokers[1].kill();
    wait_partition(&rt, &addrs[0], t, "ISR 1", |_, isr| isr == [1]);
    brokers[0].kill();
    brokers[1].start();
    brokers[2].start();
    wait_partition(&rt, &addrs[1], t, "offline", |l, _| l == -1);

    let out = recovered(&addrs[1], t, &["--dry-run"]);
    // Broker 2's empty log still names epoch 0 after its restart.
    let two = row(&out, 2);
    assert_eq!(
        [&two[1], &two[3], &two[4], &two[6]],
        ["answered", "0", "1000", "1000"],
        "{out}"
    );
    assert_eq!(row(&out, 3)[3..5], ["0", "500"], "{out}");
    assert!(
        out.contains(
            "Choice: broker 2 (longest log (log end offset 1000) at last written epoch 0)"
        ),
        "{out}"
    );
    assert!(!out.contains("Offsets reused"), "{out}");

    let out = recovered(&addrs[1], t, &["--automated-recovery"]);
    assert!(
        out.contains("Recovered emptied-0: leader is broker 2."),
        "{out}"
    );
    produce_acked(&rt, &addrs[1..].join(","), t, 1000..1001);
    // The next record took offset 1000, and records 0..500 did not come back: broker 3
    // started over at the leader's log start.
    let leader = log_info(&rt, &addrs[1], id).expect("broker 2 answers");
    assert_eq!(
        (leader.log_start_offset, leader.log_end_offset),
        (1000, 1001)
    );
    assert_eq!(consume_values(&addrs[1..].join(","), t, 1), ["v1000"]);
    let follower = wait_for(Duration::from_secs(30), || {
        log_info(&rt, &addrs[2], id).filter(|i| i.log_end_offset == 1001)
    });
    assert_eq!(
        follower.map(|i| i.log_start_offset),
        Some(1000),
        "broker 3 follows from 1000"
    );
}

#[test]
fn a_recovery_that_reuses_offsets_is_refused_unless_allowed() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (_controller, mut brokers) = controller_and_brokers(root.path(), 3, EXTRA);
    let addrs: Vec<String> = brokers.iter().map(Node::broker_addr).collect();
    let t = "reuse";
    create(&addrs.join(","), t, "1:2:3", &TOPIC_CONFIGS);
    wait_partition(&rt, &addrs[0], t, "three in sync", |l, isr| {
        l == 1 && isr.len() == 3
    });
    produce_acked(&rt, &addrs.join(","), t, 0..100);
    brokers[2].kill();
    wait_partition(&rt, &addrs[0], t, "ISR 1,2", |_, isr| isr == [1, 2]);
    produce_acked(&rt, &addrs[..2].join(","), t, 100..200);
    brokers[1].kill();
    wait_partition(&rt, &addrs[0], t, "ISR 1", |_, isr| isr == [1]);
    brokers[0].kill();
    // Only broker 3 (0..100) comes back: the tool cannot know what the others hold, and
    // elects it; it writes 10 records in the new epoch (offsets 100..110).
    brokers[2].start();
    wait_partition(&rt, &addrs[2], t, "offline", |l, _| l == -1);
    let out = recovered(&addrs[2], t, &["--automated-recovery"]);
    assert!(
        out.contains("Recovered reuse-0: leader is broker 3."),
        "{out}"
    );
    produce_acked(&rt, &addrs[2], t, 300..310);
    // Broker 2 comes back, follows broker 3 (its 100..200 are cut) and joins the ISR; broker
    // 3, then broker 2 die, so broker 2 is the last ISR member and the partition is offline.
    brokers[1].start();
    wait_partition(&rt, &addrs[2], t, "ISR 2,3", |l, isr| {
        l == 3 && isr.len() == 2
    });
    brokers[2].kill();
    wait_partition(&rt, &addrs[1], t, "broker 2 leads", |l, isr| {
        l == 2 && isr == [2]
    });
    brokers[1].kill();
    // Brokers 1 (0..200 in epoch 0, committed) and 3 (0..110, the newer epoch) come back.
    brokers[0].start();
    brokers[2].start();
    wait_partition(&rt, &addrs[0], t, "offline", |l, _| l == -1);

    let out = recovered(&addrs[0], t, &["--dry-run"]);
    let one = row(&out, 1);
    let three = row(&out, 3);
    assert_eq!(three[4], "110", "{out}");
    assert!(
        out.contains("Choice: broker 3 (highest last written leader epoch"),
        "{out}"
    );
    // Broker 1 gave out offsets up to its log start or high watermark (as checkpointed).
    let above: i64 = one[5]
        .parse::<i64>()
        .unwrap_or(0)
        .max(one[6].parse().unwrap_or(0));
    assert!(above > 110, "broker 1 committed past 110: {out}");
    let line = format!(
        "Offsets reused: {} (offsets 110 to {} would be given out again: the chosen log ends at 110, broker 1 already gave out offsets up to {above}",
        above - 110,
        above - 1
    );
    assert!(out.contains(&line), "{line}\n{out}");

    let refused = recovery(&addrs[0], t, &["--automated-recovery"]);
    assert!(!refused.status.success(), "{}", show(&refused));
    let said = text(&refused.stdout);
    assert!(
        said.contains(&format!(
            "Refused reuse-0: electing broker 3 would give out {} offsets again (110 to {}), already given out by broker 1.",
            above - 110,
            above - 1
        )),
        "{said}"
    );
    wait_partition(&rt, &addrs[0], t, "still offline", |l, _| l == -1);

    let out = recovered(
        &addrs[0],
        t,
        &["--automated-recovery", "--allow-offset-reuse"],
    );
    assert!(
        out.contains("Recovered reuse-0: leader is broker 3."),
        "{out}"
    );
}
