//! Reading: whole batches from an offset up to a byte limit and an offset limit (the high
//! watermark for consumers), and offset lookups for ListOffsets (earliest, latest, by
//! timestamp, max timestamp).

use super::PartitionLog;
use crate::error::{LogError, Result};
use bytes::Bytes;
use fjord_protocol::Records;

/// The length of what a read returns, whatever holds it.
trait RecordsLen {
    fn byte_len(&self) -> usize;
}

impl RecordsLen for Bytes {
    fn byte_len(&self) -> usize {
        self.len()
    }
}

impl RecordsLen for Records {
    fn byte_len(&self) -> usize {
        self.len()
    }
}

/// What a read returned: the records in memory ([`PartitionLog::read`]) or, for fetches, as
/// [`Records`] that may be a slice of a segment file ([`PartitionLog::read_records`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ReadInfo<R = Bytes> {
    /// Whole batches, back to back (empty when there is nothing to read).
    pub records: R,
    /// The base offset of the first batch returned, if any.
    pub first_batch_offset: Option<i64>,
    /// The log start offset when the read ran.
    pub log_start_offset: i64,
    /// The log end offset when the read ran.
    pub log_end_offset: i64,
}

/// ListOffsets' special timestamps and a real one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OffsetLookup {
    /// -2: the log start offset.
    Earliest,
    /// -1: the log end offset (or the high watermark, as the caller chooses).
    Latest,
    /// -3: the offset of the record with the largest timestamp.
    MaxTimestamp,
    /// The first record with a timestamp at or after this one.
    Timestamp(i64),
}

impl PartitionLog {
    /// Reads whole batches starting with the one that holds `offset`, up to `max_bytes`,
    /// stopping before `max_offset` (exclusive; `None` reads to the log end). With `min_one`,
    /// the first batch is returned even if it is larger than `max_bytes` (KIP-74).
    pub fn read(
        &self,
        offset: i64,
        max_bytes: usize,
        max_offset: Option<i64>,
        min_one: bool,
    ) -> Result<ReadInfo> {
        self.read_with(offset, max_offset, min_one, |seg, limit| {
            seg.read(offset, max_bytes, limit, min_one)
        })
    }

    /// As [`PartitionLog::read`], for the transport: ranges of at least `copy_below` bytes
    /// come back as a slice of the segment file, sent later with sendfile(2) without passing
    /// through user space; smaller ones in memory.
    pub fn read_records(
        &self,
        offset: i64,
        max_bytes: usize,
        max_offset: Option<i64>,
        min_one: bool,
        copy_below: usize,
    ) -> Result<ReadInfo<Records>> {
        self.read_with(offset, max_offset, min_one, |seg, limit| {
            seg.read_records(offset, max_bytes, limit, min_one, copy_below)
        })
    }

    /// Finds the segment to read from and reads it with `take` (given the segment and the
    /// position to stop at).
    fn read_with<R: Default + RecordsLen>(
        &self,
        offset: i64,
        max_offset: Option<i64>,
        min_one: bool,
        take: impl Fn(
            &crate::segment::Segment,
            u64,
        ) -> Result<Option<(crate::segment::BatchPosition, R)>>,
    ) -> Result<ReadInfo<R>> {
        let log_start = self.log_start_offset();
        let log_end = self.log_end_offset();
        if offset < log_start || offset > log_end {
            return Err(LogError::OffsetOutOfRange {
                offset,
                log_start,
                log_end,
            });
        }
        let local_start = self.local_log_start_offset();
        if offset < local_start {
            return Err(LogError::InTieredStorage {
                offset,
                local_start,
            });
        }
        let stop = max_offset.unwrap_or(log_end).min(log_end);
        let empty = || ReadInfo {
            records: R::default(),
            first_batch_offset: None,
            log_start_offset: log_start,
            log_end_offset: log_end,
        };
        if offset >= stop {
            return Ok(empty());
        }
        let segments = self.segments_from(offset);
        for (i, seg) in segments.iter().enumerate() {
            if seg.base_offset() >= stop {
                break;
            }
            let next_base = segments.get(i + 1).map(|s| s.base_offset());
            // Up to the segment's published size when the read may run to its end; otherwise
            // stop before the batch holding `stop`.
            let limit = match next_base {
                Some(n) if n <= stop => seg.size(),
                None if stop >= log_end => seg.size(),
                _ => seg.position_of(stop)?,
            };
            if let Some((first, records)) = take(seg, limit)? {
                if records.byte_len() == 0 && !min_one {
                    return Ok(empty());
                }
                return Ok(ReadInfo {
                    records,
                    first_batch_offset: Some(first.base_offset),
                    log_start_offset: log_start,
                    log_end_offset: log_end,
                });
            }
        }
        Ok(empty())
    }

    /// Finds the batch holding `offset` (or the first after it): the segment's base offset and
    /// the batch's position, through the segment map, the offset index and a header walk.
    pub fn locate(&self, offset: i64) -> Result<Option<(i64, crate::segment::BatchPosition)>> {
        let segments = self.segments_from(offset);
        for seg in segments {
            if let Some(b) = seg.find_batch(offset, seg.size())? {
                return Ok(Some((seg.base_offset(), b)));
            }
        }
        Ok(None)
    }

    /// ListOffsets: `(timestamp, offset)` for the lookup, or `None` when no record matches.
    pub fn lookup_offset(&self, lookup: OffsetLookup) -> Result<Option<(i64, i64)>> {
        match lookup {
            OffsetLookup::Earliest => Ok(Some((-1, self.log_start_offset()))),
            OffsetLookup::Latest => Ok(Some((-1, self.log_end_offset()))),
            OffsetLookup::MaxTimestamp => {
                let mut best: Option<(i64, i64)> = None;
                for seg in self.segment_list() {
                    let ts = seg.max_timestamp();
                    if ts >= 0 && best.is_none_or(|(b, _)| ts > b) {
                        best = seg.find_offset_by_timestamp(ts, self.log_start_offset())?;
                    }
                }
                Ok(best)
            }
            OffsetLookup::Timestamp(ts) => {
                let start = self.log_start_offset();
                for seg in self.segment_list() {
                    if seg.max_timestamp() < ts {
                        continue;
                    }
                    if let Some(found) = seg.find_offset_by_timestamp(ts, start)? {
                        return Ok(Some(found));
                    }
                }
                Ok(None)
            }
        }
    }
}
