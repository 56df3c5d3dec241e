//! Seeded simulation of a transactional (version 2) producer pipelining batches into one
//! partition log the way a client does over one connection: up to five requests in flight,
//! answered in order; any of them may be refused before it reaches the log (the broker's
//! verification answers NOT_ENOUGH_REPLICAS while the coordinator is still writing the last
//! transaction's markers); a refused batch is sent again, with every batch after it, in
//! order. Each transaction ends with a marker at the next epoch (a version 2 end), written
//! after a delay during which the new epoch's batches are refused as above.
//!
//! The oracle reads only the log: at each epoch the producer's batches carry sequences
//! 0, 1, 2, ... with no gap, no repeat and none out of order, and every batch the client was
//! told is written is there exactly once. And the client is never told its next expected
//! batch is out of order (for a producer nothing was lost from, that would be the broker
//! forgetting it; a client fails its transaction on it). Found by franz-go's own
//! transactional test on one fjord node: a later request accepted at a fresh epoch, with a
//! gap, after the first one was refused, so the first one's retry was answered
//! OUT_OF_ORDER_SEQUENCE_NUMBER.
//!
//! `FJORD_SIM_SEEDS` sets how many seeds run (default 300).

use bytes::Bytes;
use fjord_log::partition_log::load::Checkpointed;
use fjord_log::{LogConfig, LogError, PartitionLog};
use fjord_protocol::records::{
    Compression, EndTxnMarker, RecordBatch, RecordBatchBuilder, RecordBatches,
};
use fjord_util::SimRng;
use std::collections::VecDeque;

/// The producer id.
const PID: i64 = 7;
/// Requests a client keeps in flight on one connection (Kafka's default
/// `max.in.flight.requests.per.connection`).
const MAX_IN_FLIGHT: usize = 5;
/// Steps per seed.
const STEPS: usize = 400;

/// A batch the client has not yet been told is written.
#[derive(Debug, Clone, Copy)]
struct Pending {
    seq: i32,
    n: i32,
}

/// The client, the connection and the coordinator's pending marker.
struct Sim {
    log: PartitionLog,
    epoch: i16,
    next_seq: i32,
    /// Batches not yet acknowledged, in sequence order.
    unacked: VecDeque<Pending>,
    /// Requests on the wire, answered in order.
    in_flight: VecDeque<Pending>,
    /// Whether the batch at the head of `unacked` failed and waits to be sent again.
    resend: bool,
    /// The last transaction's marker, not yet written: batches of the new epoch are refused.
    marker_pending: bool,
    /// (epoch, first sequence) of every batch acknowledged.
    acked: Vec<(i16, i32)>,
    /// Answers OUT_OF_ORDER_SEQUENCE_NUMBER to the client's next expected batch.
    lost_track: Vec<String>,
}

fn batch(epoch: i16, p: Pending) -> Bytes {
    let mut b = RecordBatchBuilder::new(Compression::None)
        .producer(PID, epoch, p.seq)
        .transactional(true);
    for i in 0..p.n {
        b.append(
            1_000,
            None,
            Some(format!("e{epoch}s{}", p.seq + i).as_bytes()),
            &[],
        );
    }
    b.build().unwrap()
}

impl Sim {
    fn new(dir: &std::path::Path) -> Sim {
        let log = PartitionLog::open(dir, LogConfig::default(), Checkpointed::default(), true)
            .unwrap()
            .0;
        Sim {
            log,
            epoch: 0,
            next_seq: 0,
            unacked: VecDeque::new(),
            in_flight: VecDeque::new(),
            resend: false,
            // The partition knows the producer from the start (its previous transaction's
            // marker): a producer it has never seen may start at any sequence (KIP-360), in
            // Kafka too.
            marker_pending: true,
            acked: Vec::new(),
            lost_track: Vec::new(),
        }
    }

    fn send_new(&mut self, rng: &mut SimRng) {
        let p = Pending {
            seq: self.next_seq,
            n: 1 + rng.below(3) as i32,
        };
        self.next_seq += p.n;
        self.unacked.push_back(p);
        self.in_flight.push_back(p);
    }

    /// The connection answers its oldest request.
    fn answer(&mut self, rng: &mut SimRng) {
        let Some(p) = self.in_flight.pop_front() else {
            return;
        };
        let first = self.unacked.front().is_some_and(|u| u.seq == p.seq);
        let refused_before_log = self.marker_pending || rng.percent(15);
        let outcome = if refused_before_log {
            None
        } else {
            Some(self.log.append_as_leader(batch(self.epoch, p), 0, 1_000))
        };
        match outcome {
            Some(Ok(_)) => {
                self.acked.push((self.epoch, p.seq));
                self.unacked.retain(|u| u.seq != p.seq);
            }
            Some(Err(LogError::OutOfOrderSequence(m))) if first && !self.resend => {
                self.lost_track
                    .push(format!("epoch {} seq {}: {m}", self.epoch, p.seq));
                self.resend = true;
            }
            // Retriable (or out of order behind a batch that failed): sent again in order.
            _ => self.resend = true,
        }
        if self.in_flight.is_empty() && self.resend {
            self.resend = false;
            self.in_flight.extend(self.unacked.iter().copied());
        }
    }

    /// A version 2 end once everything is acknowledged: the next epoch, its marker later.
    fn end(&mut self) {
        if !self.unacked.is_empty() || !self.in_flight.is_empty() || self.marker_pending {
            return;
        }
        self.epoch += 1;
        self.next_seq = 0;
        self.marker_pending = true;
    }

    fn write_marker(&mut self) {
        if !self.marker_pending {
            return;
        }
        let marker = EndTxnMarker {
            commit: true,
            coordinator_epoch: 0,
        }
        .to_batch(PID, self.epoch, 1_000)
        .unwrap();
        self.log.append_as_coordinator(marker, 0, 1_000).unwrap();
        self.marker_pending = false;
    }

    /// The producer's data batches in the log: (epoch, first sequence, last sequence).
    fn written(&self) -> Vec<(i16, i32, i32)> {
        let mut out = Vec::new();
        let mut next = 0;
        while next < self.log.log_end_offset() {
            let r = self.log.read(next, 1 << 20, None, true).unwrap();
            let batches: Vec<RecordBatch> = RecordBatches::new(r.records.clone())
                .map(Result::unwrap)
                .collect();
            let Some(last) = batches.last() else { break };
            next = last.last_offset() + 1;
            for b in batches.iter().filter(|b| !b.is_control()) {
                let n = b.last_offset_delta();
                out.push((b.producer_epoch(), b.base_sequence(), b.base_sequence() + n));
            }
        }
        out
    }
}

/// The oracle: contiguous sequences from 0 at each epoch; every acknowledged batch written
/// once; the client never told its next batch is out of order.
fn check(sim: &Sim, seed: u64) {
    assert!(
        sim.lost_track.is_empty(),
        "seed {seed}: the broker answered the client's next expected batch out of order: {:?}",
        sim.lost_track
    );
    let written = sim.written();
    let mut expected: Option<(i16, i32)> = None;
    for &(epoch, first, last) in &written {
        let want = match expected {
            Some((e, s)) if e == epoch => s,
            _ => 0,
        };
        assert_eq!(
            first, want,
            "seed {seed}: at epoch {epoch} the log has sequence {first} where {want} belongs: {written:?}"
        );
        expected = Some((epoch, last + 1));
    }
    for &(epoch, seq) in &sim.acked {
        let copies = written
            .iter()
            .filter(|&&(e, f, _)| e == epoch && f == seq)
            .count();
        assert_eq!(
            copies, 1,
            "seed {seed}: acknowledged batch epoch {epoch} seq {seq} is in the log {copies} times"
        );
    }
}

fn run(seed: u64) {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = SimRng::new(seed);
    let mut sim = Sim::new(dir.path());
    for _ in 0..STEPS {
        match rng.below(10) {
            0..=3 if sim.in_flight.len() < MAX_IN_FLIGHT => sim.send_new(&mut rng),
            4..=7 => sim.answer(&mut rng),
            8 => sim.end(),
            _ => sim.write_marker(),
        }
    }
    // Quiesce: every batch answered and written, the last marker written.
    for _ in 0..10_000 {
        if sim.in_flight.is_empty() && sim.unacked.is_empty() {
            break;
        }
        sim.write_marker();
        sim.answer(&mut rng);
    }
    check(&sim, seed);
    assert!(sim.unacked.is_empty(), "seed {seed}: batches never written");
}

#[test]
fn pipelined_batches_keep_their_sequences_across_version_2_epochs() {
    let seeds: u64 = std::env::var("FJORD_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    for seed in 0..seeds {
        run(seed);
    }
}
