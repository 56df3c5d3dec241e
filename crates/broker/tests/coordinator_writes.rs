//! A coordinator writes its records as an acks=all producer does, and answers only from
//! records every in-sync replica has:
//! - below min ISR nothing is written: the request is answered COORDINATOR_NOT_AVAILABLE
//!   (Kafka's coordinators turn NOT_ENOUGH_REPLICAS into it), the shard is rebuilt from the
//!   log and stays loaded, and its requests are answered once the backoff has passed and
//!   the partition takes writes;
//! - a write that was appended but never committed (the ISR shrank under it) is answered
//!   COORDINATOR_NOT_AVAILABLE; the shard loaded again holds it, so nothing is answered from
//!   it until it is committed.
//!
//!
//! And a seeded history (`FJORD_SIM_SEEDS` seeds, default 40) of ISR and min ISR changes with
//! commits between them, checked against what must hold whatever the code does: a commit
//! asked while the ISR is below min ISR adds nothing to the log; an acknowledged commit is
//! committed (the high watermark covers the log); and once the partition takes writes
//! again, a commit is acknowledged within the backoff.
//!
//! Found by the fault tests: a transaction coordinator whose partition had lost two of three
//! replicas wrote a transaction's partitions to its log anyway, loaded them back after the
//! commit timed out, told a partition leader they were in the transaction, and the
//! transaction it could then never abort left its partitions' consumers stuck.

mod common;

use fjord_broker::{ReplicaManager, ReplicationSettings};
use fjord_log::LogDir;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::config_record::ConfigRecord;
use fjord_protocol::generated::offset_commit_request::{
    OffsetCommitRequest, OffsetCommitRequestPartition, OffsetCommitRequestTopic,
};
use fjord_protocol::generated::partition_change_record::PartitionChangeRecord;
use fjord_protocol::generated::partition_record::PartitionRecord;
use fjord_protocol::generated::topic_record::TopicRecord;
use fjord_protocol::{ErrorCode, MetadataRecord, RequestBody, ResponseBody, Uuid};
use fjord_util::{Clock, Hand};
use std::sync::Arc;
use std::time::{Duration, Instant};

const OFFSETS: Uuid = Uuid::from_u128(7);
const TOPIC: Uuid = Uuid::from_u128(42);
/// The OffsetCommit version asked with (topics by name).
const VERSION: i16 = 8;

/// `__consumer_offsets` with one partition on brokers 1, 2 and 3, led by 1 with ISR `isr`,
/// and topic `t` to commit offsets of.
fn records(isr: &[i32]) -> Vec<MetadataRecord> {
    let mut records = vec![
        MetadataRecord::Topic(TopicRecord {
            name: "__consumer_offsets".into(),
            topic_id: OFFSETS,
            ..Default::default()
        }),
        MetadataRecord::Partition(PartitionRecord {
            partition_id: 0,
            topic_id: OFFSETS,
            replicas: vec![1, 2, 3],
            isr: isr.to_vec(),
            leader: 1,
            leader_epoch: 0,
            ..Default::default()
        }),
    ];
    records.extend(common::sole_replica_topic("t", TOPIC));
    records
}

/// The ISR of `__consumer_offsets`-0 becomes `isr`, with min ISR `min_isr`.
fn isr_change(isr: &[i32], min_isr: usize) -> Vec<MetadataRecord> {
    vec![
        MetadataRecord::PartitionChange(PartitionChangeRecord {
            partition_id: 0,
            topic_id: OFFSETS,
            isr: Some(isr.to_vec()),
            ..Default::default()
        }),
        MetadataRecord::Config(ConfigRecord {
            resource_type: 2,
            resource_name: "__consumer_offsets".into(),
            name: "min.insync.replicas".into(),
            value: Some(min_isr.to_string()),
            ..Default::default()
        }),
    ]
}

/// One broker (id 1) whose min ISR is 2, its group coordinator on a manual clock.
struct Node {
    _dir: tempfile::TempDir,
    replicas: Arc<ReplicaManager>,
    image: Arc<MetadataImage>,
    c: common::Coordinators,
    hand: Hand,
}

impl Node {
    fn new(isr: &[i32]) -> Node {
        let image = Arc::new(
            MetadataImage::empty()
                .apply(&records(isr), 10, 1)
                .unwrap()
                .0,
        );
        let dir = tempfile::tempdir().unwrap();
        let logs = Arc::new(LogDir::open(dir.path(), |_| Default::default()).unwrap().0);
        let settings = ReplicationSettings {
            min_insync_replicas: 2,
            ..Default::default()
        };
        let replicas =
            Arc::new(ReplicaManager::new(1, logs, Default::default()).with_replication(settings));
        replicas.apply(&image).unwrap();
        let (clock, hand) = Clock::manual(fjord_util::system_now_ms());
        let coordinators = common::coordinators(&replicas, &clock);
        Node {
            _dir: dir,
            replicas,
            image,
            c: coordinators,
            hand,
        }
    }

    /// Applies `records` to the image.
    fn change(&mut self, records: &[MetadataRecord]) {
        let next = self.image.apply(records, 20, 1).unwrap().0;
        self.image = Arc::new(next);
        self.replicas.apply(&self.image).unwrap();
    }

    /// The offsets partition's log end offset.
    fn log_end(&self) -> i64 {
        self.replicas.get(OFFSETS, 0).unwrap().log.log_end_offset()
    }

    /// A simple (memberless) commit of `offset` for `t`-0 by group `g`: its code, with the
    /// clock moved on `step_ms` at a time while it waits (COORDINATOR_LOAD_IN_PROGRESS, the
    /// shard loading on first use, is asked again).
    async fn commit(&self, offset: i64, step_ms: i64) -> ErrorCode {
        let request = RequestBody::OffsetCommit(OffsetCommitRequest {
            group_id: "g".into(),
            generation_id_or_member_epoch: -1,
            topics: vec![OffsetCommitRequestTopic {
                name: "t".into(),
                partitions: vec![OffsetCommitRequestPartition {
                    partition_index: 0,
                    committed_offset: offset,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        let started = Instant::now();
        loop {
            let api = fjord_broker::parts::Groups {
                coordinator: &self.c.groups,
                transactions: &self.c.transactions,
                share_states: &self.c.shares,
                image: self.image.clone(),
                listener: "PLAINTEXT",
                client: ("test", "127.0.0.1:1".parse().unwrap()),
            };
            let answer = api.one_group(&request, VERSION, "g");
            tokio::pin!(answer);
            let answered = loop {
                tokio::select! {
                    biased;
                    a = &mut answer => break a,
                    _ = tokio::task::yield_now() => self.hand.advance(step_ms),
                }
            };
            let ResponseBody::OffsetCommit(r) = answered else {
                panic!("not an OffsetCommit answer")
            };
            let code = ErrorCode::from_code(r.topics[0].partitions[0].error_code).unwrap();
            if code != ErrorCode::CoordinatorLoadInProgress {
                return code;
            }
            assert!(started.elapsed() < Duration::from_secs(10), "never loaded");
            tokio::task::yield_now().await;
        }
    }

    /// [`Node::commit`] asked again while it is COORDINATOR_NOT_AVAILABLE, the clock moved on
    /// 100 ms between tries, for at most `within_ms` of the clock: its last code.
    async fn commit_within(&self, offset: i64, within_ms: i64) -> ErrorCode {
        let mut waited = 0;
        loop {
            let code = self.commit(offset, 100).await;
            if code != ErrorCode::CoordinatorNotAvailable || waited >= within_ms {
                return code;
            }
            self.hand.advance(100);
            waited += 100;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn below_min_isr_a_coordinator_writes_nothing_and_comes_back_once_it_may() {
    let mut node = Node::new(&[1]);
    // ISR 1 of min 2: refused, nothing written, and the shard stays loaded (listings such
    // as ListTransactions go on answering); asked again within the backoff, refused again,
    // nothing written.
    assert_eq!(
        node.commit(5, 100).await,
        ErrorCode::CoordinatorNotAvailable
    );
    assert_eq!(node.log_end(), 0);
    assert!(
        !node.c.groups.loading_in(&node.image),
        "the shard was dropped"
    );
    assert_eq!(
        node.commit(5, 100).await,
        ErrorCode::CoordinatorNotAvailable
    );
    assert_eq!(node.log_end(), 0);
    // The partition takes writes again (min ISR 1): once the backoff has passed the shard
    // is back and the commit is written and committed.
    node.change(&isr_change(&[1], 1));
    assert_eq!(node.commit_within(5, 2_000).await, ErrorCode::None);
    assert_eq!(node.log_end(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_never_committed_is_not_answered_from_until_it_is() {
    // ISR 1 and 2, min 2: the record is appended, broker 2 never fetches it, so it is never
    // committed: COORDINATOR_NOT_AVAILABLE once the commit timeout has passed.
    let mut node = Node::new(&[1, 2]);
    assert_eq!(
        node.commit(5, 100).await,
        ErrorCode::CoordinatorNotAvailable
    );
    assert_eq!(node.log_end(), 1, "appended, not committed");
    // The shard comes back from the log, holding the uncommitted commit: nothing is answered
    // from it (nor written) while it is uncommitted.
    assert_eq!(
        node.commit(6, 100).await,
        ErrorCode::CoordinatorNotAvailable
    );
    assert_eq!(
        node.log_end(),
        1,
        "nothing written on top of an uncommitted record"
    );
    // The ISR shrinks to broker 1 alone with min ISR 1: the record is committed, and the
    // coordinator answers and writes again.
    node.change(&isr_change(&[1], 1));
    assert_eq!(node.commit_within(6, 2_000).await, ErrorCode::None);
    assert_eq!(node.log_end(), 2);
}

/// How many seeded histories run (`FJORD_SIM_SEEDS`, default 40).
fn seeds() -> u64 {
    std::env::var("FJORD_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeded_isr_changes_never_write_below_min_isr_nor_acknowledge_the_uncommitted() {
    let mut acknowledged = 0;
    for seed in 0..seeds() {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        // xorshift64: the history's choices.
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut isr, mut min_isr) = (vec![1, 2], 2);
        let mut node = Node::new(&isr);
        let mut offset = 0;
        for step in 0..12 {
            if next() % 3 == 0 {
                isr = if next() % 2 == 0 { vec![1] } else { vec![1, 2] };
                min_isr = 1 + (next() % 2) as usize;
                node.change(&isr_change(&isr, min_isr));
                continue;
            }
            offset += 1;
            let before = node.log_end();
            let code = node.commit(offset, 100).await;
            let after = node.log_end();
            let log = &node.replicas.get(OFFSETS, 0).unwrap().log;
            let at = format!("seed {seed} step {step}: ISR {isr:?}, min {min_isr}, {code:?}");
            if isr.len() < min_isr {
                assert_eq!(after, before, "{at}: written below min ISR");
            }
            if code == ErrorCode::None {
                acknowledged += 1;
                assert!(
                    log.high_watermark() >= after,
                    "{at}: acknowledged, not committed (HW {} < end {after})",
                    log.high_watermark()
                );
            }
        }
        // Writable again: a commit is acknowledged within the backoff and the commit timeout.
        node.change(&isr_change(&[1], 1));
        assert_eq!(
            node.commit_within(offset + 1, 7_000).await,
            ErrorCode::None,
            "seed {seed}: not writable again"
        );
    }
    assert!(
        acknowledged > 0,
        "no history acknowledged a commit before its end"
    );
}
