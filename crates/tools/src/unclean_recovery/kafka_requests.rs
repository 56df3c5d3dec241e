//! Surveying a replica with Apache Kafka 4.4's own requests, for brokers that do not serve
//! GetReplicaLogInfo (docs/EXTENSIONS.md, "Recovering an Apache Kafka cluster"):
//!
//! - **Log start and log end**: ListOffsets with ReplicaId -2 (Kafka's debugging replica id)
//!   answers EARLIEST and LATEST from the broker's local log, whatever the partition's state:
//!   a follower's, an offline partition's, without the isolation level's bound.
//! - **High watermark**: the local replica's, from the answer to a consumer Fetch (v12+, which
//!   Kafka serves from any replica, KIP-392).
//! - **Epochs**: a consumer Fetch at the log end with `LastFetchedEpoch = E` is checked against
//!   the replica's leader-epoch cache. For E above its newest epoch Kafka answers
//!   OFFSET_OUT_OF_RANGE ("could not determine the end offset of the last fetched epoch"); for
//!   E at or below it, no error. A binary search over
//!   `0..=` the partition's current epoch finds the newest epoch. Below that, the answer for
//!   `E - 1` names the epoch entry before E and where E starts, so the cache is read back entry
//!   by entry (at most [`MAX_EPOCH_ENTRIES`]) down to the log start.
//!
//! The broker's own view of the partition's leader epoch is not served: the metadata's is
//! shown instead. Nothing is guessed: a replica whose answers do not fit these rules is an
//! error, not a row.

use fjord_admin::{expect_response, Admin, AdminError};
use fjord_log::epoch::EpochEntry;
use fjord_protocol::generated::fetch_request::{FetchPartition, FetchRequest, FetchTopic};
use fjord_protocol::generated::list_offsets_request::{
    ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic,
};
use fjord_protocol::{ErrorCode, RequestBody, Uuid};
use fjord_replication::recovery::{LogInfo, MAX_EPOCH_ENTRIES};

/// Kafka's debugging replica id: ListOffsets answers from any replica's local log.
const DEBUGGING_REPLICA_ID: i32 = -2;
/// ListOffsets' EARLIEST and LATEST timestamps.
const EARLIEST: i64 = -2;
const LATEST: i64 = -1;
/// How much one Fetch of the last batch may return (Kafka returns a whole first batch even
/// past it, KIP-74).
const LAST_BATCH_BYTES: i32 = 1;
/// The Fetch versions used: 12 brought diverging epochs and `LastFetchedEpoch`.
const FETCH_VERSIONS: std::ops::RangeInclusive<i16> = 12..=16;

/// One partition of one broker to survey.
#[derive(Debug, Clone)]
pub struct Replica<'a> {
    /// The broker.
    pub broker: i32,
    /// The topic's name (ListOffsets and Fetch v12 name topics).
    pub topic: &'a str,
    /// The topic's id (Fetch v13+).
    pub topic_id: Uuid,
    /// The partition.
    pub partition: i32,
    /// The partition's leader epoch in the metadata: every epoch written is at or below it.
    pub leader_epoch: i32,
}

/// Why a replica could not be surveyed: `retriable` errors may go away when asked again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Whether asking again may help.
    pub retriable: bool,
    /// What went wrong, for the table.
    pub text: String,
}

impl Failure {
    fn code(code: i16, what: &str) -> Failure {
        Failure {
            retriable: super::survey::retriable(code)
                || code == ErrorCode::UnknownLeaderEpoch.code(),
            text: format!("{} ({what})", crate::common::error_text(code, None)),
        }
    }

    fn admin(e: AdminError, what: &str) -> Failure {
        Failure {
            retriable: e.is_retriable(),
            text: format!(
                "{what}: {}",
                e.to_string().lines().next().unwrap_or_default()
            ),
        }
    }
}

/// What a consumer Fetch at the log end with `LastFetchedEpoch = epoch` said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    /// No divergence: `epoch` is the replica's newest epoch (or an older one that ends at the
    /// log end, an epoch with no record after it).
    Agrees,
    /// OFFSET_OUT_OF_RANGE: the epoch asked is above every epoch the replica has.
    Above,
    /// A diverging epoch: the largest epoch at or below the one asked (or the one asked, when
    /// none is) and where the epoch after it starts.
    Diverging(i32, i64),
}

/// The answers a replica gave to probes, as a function: the searches below are pure.
pub trait Prober {
    /// The answer for `LastFetchedEpoch = epoch`.
    fn probe(&mut self, epoch: i32) -> Result<Probe, Failure>;
}

/// The replica's newest epoch, -1 when it has none: the largest `E` in `0..=upper` whose
/// answer is not "above every epoch" (the answers are monotone in `E`).
pub fn newest_epoch(p: &mut impl Prober, upper: i32) -> Result<i32, Failure> {
    let (mut lo, mut hi) = (-1i32, upper.max(-1));
    // Invariant: every epoch <= lo is at or below the newest (or lo = -1); every epoch > hi
    // is above it.
    while lo < hi {
        let mid = lo + (hi - lo + 1) / 2;
        match p.probe(mid)? {
            Probe::Above => hi = mid - 1,
            _ => lo = mid,
        }
    }
    Ok(lo)
}

/// The replica's epoch entries, oldest first, read back from its newest epoch `newest` down to
/// `log_start` (at most [`MAX_EPOCH_ENTRIES`], the newest), for a log ending at
/// `log_end_offset`.
pub fn epoch_entries(
    p: &mut impl Prober,
    newest: i32,
    log_start: i64,
    log_end_offset: i64,
) -> Result<Vec<EpochEntry>, Failure> {
    let mut out: Vec<EpochEntry> = Vec::new();
    let mut epoch = newest;
    while epoch >= 0 && out.len() < MAX_EPOCH_ENTRIES {
        if epoch == 0 {
            out.push(EpochEntry {
                epoch,
                start_offset: log_start,
            });
            break;
        }
        // The entry before `epoch` (its floor) and where `epoch` starts.
        let (floor, start) = match p.probe(epoch - 1)? {
            Probe::Agrees => (epoch - 1, log_end_offset),
            Probe::Above => {
                return Err(Failure {
                    retriable: true,
                    text: format!(
                        "the replica's epochs changed while they were read (epoch {epoch})"
                    ),
                })
            }
            Probe::Diverging(f, s) => (f, s),
        };
        let start = start.max(log_start);
        out.push(EpochEntry {
            epoch,
            start_offset: start,
        });
        // An epoch starting at the log start is the oldest entry (Kafka's cache moves its
        // oldest entry up to the log start); so is one with no floor below it.
        if start <= log_start || floor >= epoch {
            break;
        }
        epoch = floor;
    }
    out.reverse();
    Ok(out)
}

/// Probes one replica over the wire, at the log end `fetch_offset`.
struct Wire<'a> {
    admin: &'a Admin,
    replica: &'a Replica<'a>,
    fetch_offset: i64,
    /// The high watermark and log start of the last answer.
    seen: (i64, i64),
}

impl Wire<'_> {
    /// One consumer Fetch of the replica at `offset` with `LastFetchedEpoch = epoch`.
    async fn fetch_at(
        &self,
        offset: i64,
        epoch: i32,
        max_bytes: i32,
    ) -> Result<fjord_protocol::generated::fetch_response::PartitionData, Failure> {
        let r = self.replica;
        let body = RequestBody::Fetch(FetchRequest {
            replica_id: -1,
            replica_state: fjord_protocol::generated::fetch_request::ReplicaState {
                replica_id: -1,
                replica_epoch: -1,
                ..Default::default()
            },
            max_wait_ms: 0,
            min_bytes: 0,
            max_bytes,
            session_id: 0,
            session_epoch: -1,
            topics: vec![FetchTopic {
                topic: r.topic.to_string(),
                topic_id: r.topic_id,
                partitions: vec![FetchPartition {
                    partition: r.partition,
                    current_leader_epoch: -1,
                    fetch_offset: offset,
                    last_fetched_epoch: epoch,
                    log_start_offset: -1,
                    partition_max_bytes: max_bytes,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        let resp = async {
            let resp = self
                .admin
                .call_broker(r.broker, body, FETCH_VERSIONS)
                .await?;
            expect_response!(resp, Fetch)
        }
        .await
        .map_err(|e| Failure::admin(e, "Fetch"))?;
        if resp.error_code != 0 {
            return Err(Failure::code(resp.error_code, "Fetch"));
        }
        resp.responses
            .into_iter()
            .flat_map(|t| t.partitions)
            .find(|d| d.partition_index == r.partition)
            .ok_or_else(|| Failure {
                retriable: false,
                text: "the broker left the partition out of its Fetch answer".into(),
            })
    }

    /// A probe of the epoch cache: a Fetch at the log end with `LastFetchedEpoch = epoch`.
    async fn fetch(&mut self, epoch: i32) -> Result<Probe, Failure> {
        let d = self.fetch_at(self.fetch_offset, epoch, 1).await?;
        if d.error_code == 0 {
            self.seen = (d.high_watermark, d.log_start_offset);
        }
        if d.error_code == ErrorCode::OffsetOutOfRange.code() {
            return Ok(Probe::Above);
        }
        if d.error_code != 0 {
            return Err(Failure::code(d.error_code, "Fetch"));
        }
        Ok(if d.diverging_epoch.epoch < 0 {
            Probe::Agrees
        } else {
            Probe::Diverging(d.diverging_epoch.epoch, d.diverging_epoch.end_offset)
        })
    }

    /// The high watermark, and the epoch of the last batch when the replica serves it (a
    /// consumer reads a follower up to its high watermark): a Fetch of the last offset with
    /// no epoch check.
    async fn last_batch(&mut self, log_start: i64) -> Result<Option<i32>, Failure> {
        let at = (self.fetch_offset - 1).max(log_start);
        let d = self.fetch_at(at, -1, LAST_BATCH_BYTES).await?;
        if d.error_code != 0 {
            return Err(Failure::code(d.error_code, "Fetch"));
        }
        self.seen = (d.high_watermark, d.log_start_offset);
        let bytes = d
            .records
            .and_then(|r| r.into_bytes().ok())
            .unwrap_or_default();
        Ok(fjord_protocol::records::RecordBatches::new(bytes)
            .filter_map(Result::ok)
            .filter(|b| b.last_offset() < self.fetch_offset)
            .last()
            .map(|b| b.partition_leader_epoch()))
    }
}

/// ListOffsets with the debugging replica id: the local log's offset for `timestamp`.
async fn list_offset(admin: &Admin, r: &Replica<'_>, timestamp: i64) -> Result<i64, Failure> {
    let body = RequestBody::ListOffsets(ListOffsetsRequest {
        replica_id: DEBUGGING_REPLICA_ID,
        isolation_level: 0,
        topics: vec![ListOffsetsTopic {
            name: r.topic.to_string(),
            partitions: vec![ListOffsetsPartition {
                partition_index: r.partition,
                current_leader_epoch: -1,
                timestamp,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    });
    let resp = async {
        let resp = admin.call_broker(r.broker, body, 1..=10).await?;
        expect_response!(resp, ListOffsets)
    }
    .await
    .map_err(|e| Failure::admin(e, "ListOffsets"))?;
    let p = resp
        .topics
        .iter()
        .flat_map(|t| &t.partitions)
        .find(|p| p.partition_index == r.partition)
        .ok_or_else(|| Failure {
            retriable: false,
            text: "the broker left the partition out of its ListOffsets answer".into(),
        })?;
    if p.error_code != 0 {
        return Err(Failure::code(p.error_code, "ListOffsets"));
    }
    Ok(p.offset)
}

/// Surveys one replica with Kafka 4.4's requests.
pub async fn survey(admin: &Admin, replica: &Replica<'_>) -> Result<LogInfo, Failure> {
    let log_start = list_offset(admin, replica, EARLIEST).await?;
    let log_end = list_offset(admin, replica, LATEST).await?;
    let mut wire = Wire {
        admin,
        replica,
        fetch_offset: log_end,
        seen: (-1, log_start),
    };
    // The searches are pure over a memo of the answers: each run asks for the first answer it
    // lacks, the wire fetches it, and the search runs again.
    let mut answers: std::collections::BTreeMap<i32, Probe> = Default::default();
    let newest = loop {
        let mut memo = Memo {
            answers: &answers,
            missing: None,
        };
        match newest_epoch(&mut memo, replica.leader_epoch) {
            Ok(e) => break e,
            Err(_) if memo.missing.is_some() => {
                let e = memo.missing.expect("checked");
                let a = wire.fetch(e).await?;
                answers.insert(e, a);
            }
            Err(f) => return Err(f),
        }
    };
    let epochs = loop {
        let mut memo = Memo {
            answers: &answers,
            missing: None,
        };
        match epoch_entries(&mut memo, newest, log_start, log_end) {
            Ok(v) => break v,
            Err(_) if memo.missing.is_some() => {
                let e = memo.missing.expect("checked");
                let a = wire.fetch(e).await?;
                answers.insert(e, a);
            }
            Err(f) => return Err(f),
        }
    };
    // The high watermark (the probes learn it only when one agrees or diverges), and the
    // epoch of the last batch: Kafka 4.4's cache drops the entry of a log emptied below its
    // start on a restart, so a log holding records can answer with no epoch at all.
    let batch_epoch = wire.last_batch(log_start).await?;
    let holds_records = log_end > log_start;
    let newest = match (newest, batch_epoch) {
        (-1, Some(e)) => e,
        (-1, None) if holds_records || log_start > 0 => {
            return Err(Failure {
                retriable: false,
                text: format!(
                    "last written epoch unknown: the leader-epoch cache is empty though the log spans offsets {log_start} to {log_end}, and no batch below the high watermark could be read (Kafka 4.4 drops the epoch of a log emptied below its start when it restarts)"
                ),
            });
        }
        (n, _) => n,
    };
    // With the epoch taken from a batch the cache's entries are unknown: left empty, the
    // truncation figures that need them say "unknown" rather than guess.
    Ok(LogInfo {
        leader_epoch: replica.leader_epoch,
        last_written_epoch: newest,
        log_end_offset: log_end,
        high_watermark: wire.seen.0,
        log_start_offset: log_start,
        epochs,
        remote: None,
    })
}

/// The answers so far; a probe not yet asked stops the search and is asked next.
struct Memo<'a> {
    answers: &'a std::collections::BTreeMap<i32, Probe>,
    missing: Option<i32>,
}

impl Prober for Memo<'_> {
    fn probe(&mut self, epoch: i32) -> Result<Probe, Failure> {
        match self.answers.get(&epoch) {
            Some(a) => Ok(*a),
            None => {
                self.missing = Some(epoch);
                Err(Failure {
                    retriable: true,
                    text: format!("epoch {epoch} not asked yet"),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_log::epoch::end_offset_for_epoch;

    /// Kafka 4.4's check of a consumer Fetch's `LastFetchedEpoch` (`Partition.readRecords`),
    /// modelled independently of the searches: the end offset of the epoch asked, then
    /// OFFSET_OUT_OF_RANGE when undefined, a diverging epoch when older or ending before the
    /// fetch offset, else none.
    struct Kafka {
        entries: Vec<EpochEntry>,
        log_end: i64,
        asked: usize,
    }

    impl Prober for Kafka {
        fn probe(&mut self, epoch: i32) -> Result<Probe, Failure> {
            self.asked += 1;
            let (e, end) = end_offset_for_epoch(&self.entries, epoch, self.log_end);
            Ok(if e < 0 || end < 0 {
                Probe::Above
            } else if e < epoch || end < self.log_end {
                Probe::Diverging(e, end)
            } else {
                Probe::Agrees
            })
        }
    }

    /// A seeded random cache as Kafka keeps one: epochs and start offsets strictly increasing,
    /// the oldest at the log start, the newest at or below the log end.
    fn random_cache(seed: u64) -> (Vec<EpochEntry>, i64, i64) {
        let mut x = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut next = |n: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % n
        };
        let log_start = next(3) as i64 * next(50) as i64;
        let count = next(6) as usize;
        let mut entries = Vec::new();
        let (mut epoch, mut start) = (next(3) as i32, log_start);
        for i in 0..count {
            if i > 0 {
                epoch += 1 + next(4) as i32;
                start += 1 + next(20) as i64;
            }
            entries.push(EpochEntry {
                epoch,
                start_offset: start,
            });
        }
        let log_end = start + next(2) as i64 * next(30) as i64;
        (entries, log_start, log_end)
    }

    #[test]
    fn the_cache_is_read_back_exactly_from_kafkas_answers() {
        for seed in 0..20_000 {
            let (entries, log_start, log_end) = random_cache(seed);
            let newest = entries.last().map_or(-1, |e| e.epoch);
            let mut k = Kafka {
                entries: entries.clone(),
                log_end,
                asked: 0,
            };
            let upper = newest.max(0) + (seed % 7) as i32;
            let found = newest_epoch(&mut k, upper).unwrap();
            assert_eq!(found, newest, "seed {seed}: {entries:?} end {log_end}");
            let read = epoch_entries(&mut k, found, log_start, log_end).unwrap();
            assert_eq!(
                read, entries,
                "seed {seed}: start {log_start} end {log_end}"
            );
            assert!(
                k.asked <= 40 + entries.len(),
                "seed {seed}: {} probes",
                k.asked
            );
        }
    }
}
