//! The last stable offset never passes an open transaction, even while a follower that
//! fetches everything at once moves the high watermark up to each new log end as soon as it
//! is published. One thread opens and ends transactions one at a time, so each opens when
//! none is open and nothing else holds the last stable offset back; another acts as that follower and as a read_committed
//! reader. Its oracle reads only the log: every transactional record below the last stable
//! offset it saw must have its producer's marker in the log when it looks afterwards (markers
//! only come later, so a record with none then had none when the offset was read). Found by
//! the fault tests: a read_committed poll read an open transaction's first record, the
//! producer state taking the batch only after the write had made it fetchable.

use bytes::Bytes;
use fjord_log::partition_log::load::Checkpointed;
use fjord_log::{LogConfig, PartitionLog};
use fjord_protocol::records::{
    Compression, EndTxnMarker, RecordBatch, RecordBatchBuilder, RecordBatches,
};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Transactions opened (and ended) by the writer, one at a time: each opens with none open.
const TRANSACTIONS: i64 = 10_000;

fn txn_batch(pid: i64) -> Bytes {
    let mut b = RecordBatchBuilder::new(Compression::None)
        .producer(pid, 0, 0)
        .transactional(true);
    b.append(1_000, None, Some(b"v"), &[]);
    b.build().unwrap()
}

fn commit(pid: i64) -> Bytes {
    EndTxnMarker {
        commit: true,
        coordinator_epoch: 0,
    }
    .to_batch(pid, 0, 1_000)
    .unwrap()
}

/// The batches in `[from, to)`.
fn batches(log: &PartitionLog, from: i64, to: i64) -> Vec<RecordBatch> {
    let mut out = Vec::new();
    let mut next = from;
    while next < to {
        let r = log.read(next, 1 << 20, Some(to), false).unwrap();
        let got: Vec<RecordBatch> = RecordBatches::new(r.records.clone())
            .map(Result::unwrap)
            .collect();
        let Some(last) = got.last() else { break };
        next = last.next_offset();
        out.extend(got.into_iter().filter(|b| b.last_offset() >= from));
    }
    out
}

#[test]
fn the_last_stable_offset_stops_at_a_transaction_the_moment_it_is_fetchable() {
    let dir = tempfile::tempdir().unwrap();
    let log = Arc::new(
        PartitionLog::open(
            dir.path(),
            LogConfig::default(),
            Checkpointed::default(),
            true,
        )
        .unwrap()
        .0,
    );
    let done = Arc::new(AtomicBool::new(false));
    let writer = {
        let (log, done) = (log.clone(), done.clone());
        std::thread::spawn(move || {
            for pid in 1..=TRANSACTIONS {
                log.append_as_leader(txn_batch(pid), 0, 1_000).unwrap();
                log.append_as_coordinator(commit(pid), 0, 1_000).unwrap();
            }
            done.store(true, Ordering::Release);
        })
    };
    let mut checked = 0;
    let mut violations = Vec::new();
    while !done.load(Ordering::Acquire) {
        // The follower: it has everything the leader published.
        log.set_high_watermark(log.log_end_offset());
        // The reader: what read_committed may read now.
        let lso = log.last_stable_offset();
        if lso <= checked {
            continue;
        }
        let end = log.log_end_offset();
        let seen = batches(&log, checked, end);
        let ended: HashSet<i64> = seen
            .iter()
            .filter(|b| b.is_control())
            .map(RecordBatch::producer_id)
            .collect();
        for b in seen
            .iter()
            .filter(|b| !b.is_control() && b.base_offset() < lso)
        {
            if !ended.contains(&b.producer_id()) {
                violations.push((b.base_offset(), lso));
            }
        }
        // Every transaction below `lso` started at or after `checked` ends after it.
        checked = lso;
    }
    writer.join().unwrap();
    assert!(
        violations.is_empty(),
        "the last stable offset passed open transactions (first offset, LSO): {:?}",
        &violations[..violations.len().min(10)]
    );
    log.set_high_watermark(log.log_end_offset());
    assert_eq!(log.last_stable_offset(), log.log_end_offset());
}
