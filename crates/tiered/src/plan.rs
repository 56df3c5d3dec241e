//! The remote log manager's decisions as pure functions of a partition's state: which local
//! segments to copy, which local segments local retention may delete, and which remote
//! segments total retention deletes (Kafka's `RLMCopyTask`, `UnifiedLog.deleteOldSegments`
//! with remote storage on, and `RLMExpirationTask`). The one safety rule: a local segment is
//! deleted by local retention only once the store holds all of it.

use crate::records::{RemoteSegmentId, SegmentMetadata};

/// A local segment as the decisions see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalSegment {
    /// Its first offset.
    pub base_offset: i64,
    /// The offset after its last (the next segment's base, or the log end for the active one).
    pub next_offset: i64,
    /// Its log file's size.
    pub size: u64,
    /// Its largest record timestamp (-1: none).
    pub max_timestamp_ms: i64,
    /// True when it holds no aborted transaction.
    pub txn_index_empty: bool,
}

/// The closed segments to copy, in order: those with records above `highest_remote` whose
/// records all lie below `copy_limit` (the last stable offset, itself at most the high
/// watermark). The active segment (the last one) is never copied.
pub fn copy_candidates(
    local: &[LocalSegment],
    highest_remote: Option<i64>,
    copy_limit: i64,
) -> Vec<LocalSegment> {
    let from = highest_remote.map_or(i64::MIN, |h| h + 1);
    let closed = local.len().saturating_sub(1);
    local[..closed]
        .iter()
        .filter(|s| {
            s.next_offset <= copy_limit && s.next_offset > from && s.next_offset > s.base_offset
        })
        .copied()
        .collect()
}

/// Local retention's limits in effect (Kafka's `local.retention.*`, where -2 means the total
/// retention's value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalRetention {
    /// How long a segment stays on disk after its last record (-1: forever).
    pub ms: i64,
    /// The bytes kept on disk (-1: no limit).
    pub bytes: i64,
}

impl LocalRetention {
    /// The limits from the topic's keys: a `local.retention.*` of -2 takes the total's.
    pub fn resolve(
        local_ms: i64,
        local_bytes: i64,
        retention_ms: i64,
        retention_bytes: i64,
    ) -> Self {
        LocalRetention {
            ms: if local_ms == -2 {
                retention_ms
            } else {
                local_ms
            },
            bytes: if local_bytes == -2 {
                retention_bytes
            } else {
                local_bytes
            },
        }
    }
}

/// How many segments at the front of `local` local retention deletes now: a segment goes when
/// it is closed, wholly below the high watermark and wholly in the store (its last offset at
/// most `highest_remote`), and it breaches local retention by time or size. Stops at the first
/// segment that may not go, so the local log stays contiguous.
pub fn local_deletable(
    local: &[LocalSegment],
    high_watermark: i64,
    highest_remote: Option<i64>,
    limits: LocalRetention,
    now_ms: i64,
) -> usize {
    let Some(highest) = highest_remote else {
        return 0;
    };
    let total: u64 = local.iter().map(|s| s.size).sum();
    let mut remaining = total;
    let closed = local.len().saturating_sub(1);
    let mut n = 0;
    for seg in &local[..closed] {
        let uploaded = seg.next_offset - 1 <= highest;
        if !uploaded || seg.next_offset > high_watermark {
            break;
        }
        let expired = limits.ms >= 0
            && seg.max_timestamp_ms >= 0
            && now_ms - seg.max_timestamp_ms > limits.ms;
        let over = limits.bytes >= 0 && remaining.saturating_sub(seg.size) >= limits.bytes as u64;
        if !(expired || over) {
            break;
        }
        remaining -= seg.size;
        n += 1;
    }
    n
}

/// Total retention's inputs for one partition's remote log.
#[derive(Debug, Clone, Copy)]
pub struct RemoteRetention {
    /// `retention.ms` (-1: forever).
    pub ms: i64,
    /// `retention.bytes` (-1: no limit).
    pub bytes: i64,
    /// The log start offset (DeleteRecords may have moved it into the remote log).
    pub log_start: i64,
    /// The bytes of local segments the store does not hold yet (they count toward
    /// `retention.bytes`, as Kafka's `onlyLocalLogSegmentsSize`).
    pub local_only_bytes: u64,
    /// Now.
    pub now_ms: i64,
}

/// What total retention does to the remote log.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RemoteExpiry {
    /// The segments to delete, oldest first.
    pub delete: Vec<RemoteSegmentId>,
    /// The log start offset once they are gone, if it moves.
    pub new_log_start: Option<i64>,
}

/// Which readable remote segments (`segments`, of the leader's lineage, by start offset) total
/// retention deletes: from the oldest, while each is below the log start, older than
/// `retention.ms`, or not needed to keep `retention.bytes` of the whole log; the first that
/// breaches none stops the walk.
pub fn remote_expired(segments: &[&SegmentMetadata], r: RemoteRetention) -> RemoteExpiry {
    let remote: u64 = segments.iter().map(|s| s.size_bytes.max(0) as u64).sum();
    let mut breach = if r.bytes >= 0 {
        (remote + r.local_only_bytes).saturating_sub(r.bytes as u64)
    } else {
        0
    };
    let mut out = RemoteExpiry::default();
    for seg in segments {
        let size = seg.size_bytes.max(0) as u64;
        let below_start = seg.end_offset < r.log_start;
        let expired = r.ms >= 0 && seg.max_timestamp_ms <= r.now_ms - r.ms;
        let over = r.bytes >= 0 && breach >= size && size > 0;
        if !(below_start || expired || over) {
            break;
        }
        breach = breach.saturating_sub(size);
        out.delete.push(seg.id.clone());
        out.new_log_start = Some(seg.end_offset + 1);
    }
    if let Some(start) = out.new_log_start {
        out.new_log_start = Some(start.max(r.log_start));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(bounds: &[(i64, i64)]) -> Vec<LocalSegment> {
        bounds
            .iter()
            .map(|&(b, n)| LocalSegment {
                base_offset: b,
                next_offset: n,
                size: 100,
                max_timestamp_ms: b,
                txn_index_empty: true,
            })
            .collect()
    }

    #[test]
    fn copies_closed_segments_below_the_limit_after_what_the_store_has() {
        let l = local(&[(0, 10), (10, 20), (20, 30), (30, 35)]);
        let bases = |v: Vec<LocalSegment>| v.iter().map(|s| s.base_offset).collect::<Vec<_>>();
        assert_eq!(bases(copy_candidates(&l, None, 35)), vec![0, 10, 20]);
        assert_eq!(bases(copy_candidates(&l, Some(9), 25)), vec![10]);
        assert_eq!(bases(copy_candidates(&l, Some(29), 35)), Vec::<i64>::new());
        // The store ends inside a segment (another leader cut it elsewhere): copy it whole.
        assert_eq!(bases(copy_candidates(&l, Some(14), 30)), vec![10, 20]);
    }

    #[test]
    fn local_retention_deletes_only_what_the_store_holds() {
        let l = local(&[(0, 10), (10, 20), (20, 30), (30, 35)]);
        let all = LocalRetention { ms: 0, bytes: -1 };
        assert_eq!(local_deletable(&l, 35, None, all, 1000), 0);
        assert_eq!(local_deletable(&l, 35, Some(18), all, 1000), 1);
        assert_eq!(local_deletable(&l, 35, Some(29), all, 1000), 3);
        assert_eq!(
            local_deletable(&l, 25, Some(29), all, 1000),
            2,
            "below the HW only"
        );
        let bytes = LocalRetention { ms: -1, bytes: 250 };
        assert_eq!(local_deletable(&l, 35, Some(29), bytes, 1000), 1);
        assert_eq!(
            LocalRetention::resolve(-2, 5, 7, 9),
            LocalRetention { ms: 7, bytes: 5 }
        );
    }
}
