//! Reads below a leader's local log start, served from the store: the remote segment that
//! holds the offset in this log's history (through the metadata cache), its offset index
//! (kept in a bounded cache), then whole batches from the indexed position, read in 1 MiB
//! chunks that a bounded cache keeps (a consumer reading on, or a second one, is served
//! from memory; batches within one chunk go out as a slice of it, not a copy). At most
//! `remote.log.reader.threads` reads run at once and `remote.log.reader.max.pending.tasks`
//! wait; more are refused. Past `remote.log.manager.fetch.max.bytes.per.second` a read
//! returns nothing, as Kafka's does.

use super::{topic_id_partition, Tiering};
use crate::replica::partition::Partition;
use bytes::{Bytes, BytesMut};
use fjord_protocol::records::RecordBatch;
use fjord_protocol::{ErrorCode, Uuid};
use fjord_tiered::records::SegmentMetadata;
use fjord_tiered::rlmm::Lineage;
use fjord_tiered::store::FileKind;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// How many remote segments' offset indexes stay cached.
pub const CACHED_INDEXES: usize = 1024;
/// The unit a segment's log is read from the store and cached in.
pub const CHUNK_BYTES: u64 = 1024 * 1024;
/// The most bytes of remote segments' logs kept in the chunk cache.
pub const CACHED_CHUNK_BYTES: usize = 128 * 1024 * 1024;
/// A record batch's header up to its length field.
const BATCH_LENGTH_END: usize = 12;
/// A record batch's header up to its last offset delta (base offset, length, partition
/// leader epoch, magic, CRC, attributes, last offset delta).
const BATCH_HEADER_BYTES: u64 = 27;

/// Remote segments' indexes of one kind (offset indexes, transaction indexes), the most
/// recently used [`CACHED_INDEXES`] kept.
#[derive(Debug)]
pub struct IndexCache<T = (i64, u64)> {
    entries: HashMap<Uuid, Arc<Vec<T>>>,
    order: VecDeque<Uuid>,
}

impl<T> Default for IndexCache<T> {
    fn default() -> Self {
        IndexCache {
            entries: HashMap::new(),
            order: VecDeque::new(),
        }
    }
}

impl<T> IndexCache<T> {
    fn get(&mut self, id: Uuid) -> Option<Arc<Vec<T>>> {
        let found = self.entries.get(&id).cloned()?;
        self.order.retain(|x| *x != id);
        self.order.push_back(id);
        Some(found)
    }

    fn put(&mut self, id: Uuid, index: Arc<Vec<T>>) {
        if self.entries.insert(id, index).is_none() {
            self.order.push_back(id);
        }
        while self.order.len() > CACHED_INDEXES {
            if let Some(old) = self.order.pop_front() {
                self.entries.remove(&old);
            }
        }
    }
}

/// An offset index's entries as `(offset, position)`, from Kafka's file format (a relative
/// offset and a position, four big-endian bytes each); a zeroed tail ends it.
pub fn parse_offset_index(base: i64, bytes: &[u8]) -> Vec<(i64, u64)> {
    let mut out: Vec<(i64, u64)> = Vec::with_capacity(bytes.len() / 8);
    for e in bytes.chunks_exact(8) {
        let rel = i64::from(i32::from_be_bytes([e[0], e[1], e[2], e[3]]));
        let pos = u64::from(u32::from_be_bytes([e[4], e[5], e[6], e[7]]));
        if out.last().is_some_and(|(o, _)| base + rel <= *o) {
            break;
        }
        out.push((base + rel, pos));
    }
    out
}

/// What a read asks for.
#[derive(Debug, Clone, Copy)]
pub struct RemoteRead {
    /// The first offset wanted.
    pub offset: i64,
    /// The byte budget.
    pub max_bytes: usize,
    /// Batches at or above this offset are not returned (the high watermark or the last
    /// stable offset).
    pub stop: i64,
    /// Return the first batch even past the budget (KIP-74).
    pub min_one: bool,
    /// A read_committed fetch: the transactions aborted in what it reads are collected too.
    pub read_committed: bool,
}

/// What a read from the store returns.
#[derive(Debug, Default)]
pub struct RemoteAnswer {
    /// Whole batches.
    pub records: Bytes,
    /// For a read_committed read, the transactions aborted in `[offset, stop)` that the
    /// store's transaction indexes name.
    pub aborted: Vec<fjord_log::txn_index::AbortedTxn>,
}

impl Tiering {
    /// Reads from the store for `p` (a blocking call: run it off the async workers).
    pub fn read_blocking(
        &self,
        p: &Partition,
        want: RemoteRead,
    ) -> Result<RemoteAnswer, ErrorCode> {
        if self.fetch_quota.exceeded(fjord_util::system_now_ms()) {
            // Kafka's answer while `remote.log.manager.fetch.max.bytes.per.second` is passed:
            // no records and no error (the fetch waits as an empty one does, then is retried).
            return Ok(RemoteAnswer::default());
        }
        if !self.is_ready() {
            // The store's segments are not all known yet: a retriable answer, never
            // OFFSET_OUT_OF_RANGE (a consumer would reset its position).
            return Err(ErrorCode::ReplicaNotAvailable);
        }
        let pending = self.pending_reads.fetch_add(1, Ordering::AcqRel);
        let _pending = scopeguard(&self.pending_reads);
        if pending >= self.config.reader_max_pending {
            tracing::warn!(topic = %p.topic, partition = p.index, "too many reads from tiered storage are waiting; refusing one");
            return Err(ErrorCode::UnknownServerError);
        }
        let epochs = super::epochs_of(&p.log);
        let lineage = Lineage {
            epochs: &epochs,
            end_offset: p.log.log_end_offset(),
        };
        let seg = self
            .with_cache(|c| {
                let r = c.partition(&topic_id_partition(p))?;
                r.segment_for(want.offset, lineage)
                    .or_else(|| r.next_segment_after(want.offset, lineage))
                    .cloned()
            })
            .ok_or(ErrorCode::OffsetOutOfRange)?;
        self.read_with_permit(async {
            let records = self.read_segment(&seg, want).await;
            let aborted = match &records {
                Ok(_) if want.read_committed => {
                    self.remote_aborted(p, lineage, want.offset, want.stop).await
                }
                _ => Ok(Vec::new()),
            };
            records
                .and_then(|records| aborted.map(|aborted| RemoteAnswer { records, aborted }))
                .map_err(|e| {
                    tracing::warn!(topic = %p.topic, partition = p.index, offset = want.offset, "reading tiered storage: {e}");
                    e.code()
                })
        })
    }

    /// Runs `read` on this blocking thread once one of `remote.log.reader.threads` is free.
    fn read_with_permit<T>(
        &self,
        read: impl std::future::Future<Output = Result<T, ErrorCode>>,
    ) -> Result<T, ErrorCode> {
        tokio::runtime::Handle::current().block_on(async {
            let _permit = self
                .reads
                .acquire()
                .await
                .map_err(|_| ErrorCode::UnknownServerError)?;
            read.await
        })
    }

    /// ListOffsets by timestamp in the store (Kafka's `findOffsetByTimestamp`): the first
    /// record of `p`'s history in the store, at or above the log start, whose timestamp is at
    /// or after `timestamp`, as `(timestamp, offset)`; `None` when the store holds none (the
    /// local log is looked at next). Blocking: run it off the async workers.
    pub fn offset_for_timestamp_blocking(
        &self,
        p: &Partition,
        timestamp: i64,
    ) -> Result<Option<(i64, i64)>, ErrorCode> {
        if !self.is_ready() {
            return Err(ErrorCode::ReplicaNotAvailable);
        }
        let epochs = super::epochs_of(&p.log);
        let lineage = Lineage {
            epochs: &epochs,
            end_offset: p.log.log_end_offset(),
        };
        let log_start = p.log.log_start_offset();
        let segments: Vec<SegmentMetadata> = self.with_cache(|c| {
            c.partition(&topic_id_partition(p))
                .map_or_else(Vec::new, |r| {
                    r.readable_in(lineage)
                        .into_iter()
                        .filter(|s| s.end_offset >= log_start && s.max_timestamp_ms >= timestamp)
                        .cloned()
                        .collect()
                })
        });
        self.read_with_permit(async {
            for seg in &segments {
                match self.find_in_segment(seg, timestamp, log_start).await {
                    Ok(Some(found)) => return Ok(Some(found)),
                    Ok(None) => {}
                    Err(e) => {
                        tracing::warn!(topic = %p.topic, partition = p.index, "reading tiered storage: {e}");
                        return Err(e.code());
                    }
                }
            }
            Ok(None)
        })
    }

    /// The first record of `seg` at or after `timestamp` and at or above `from`.
    async fn find_in_segment(
        &self,
        seg: &SegmentMetadata,
        timestamp: i64,
        from: i64,
    ) -> Result<Option<(i64, i64)>, fjord_tiered::TieredError> {
        let size = u64::try_from(seg.size_bytes.max(0)).unwrap_or(0);
        let mut pos = 0;
        let bad = |e: String| fjord_tiered::TieredError::Store(format!("a remote batch: {e}"));
        while pos + BATCH_HEADER_BYTES <= size {
            let header = self
                .log_bytes(seg, pos, pos + BATCH_LENGTH_END as u64, size)
                .await?;
            let len = i32::from_be_bytes(header[8..12].try_into().expect("4 bytes"));
            let whole = BATCH_LENGTH_END as u64 + u64::try_from(len.max(0)).unwrap_or(0);
            if len <= 0 || pos + whole > size {
                break;
            }
            let batch = RecordBatch::new(self.log_bytes(seg, pos, pos + whole, size).await?)
                .map_err(|e| bad(e.to_string()))?;
            pos += whole;
            if batch.max_timestamp() < timestamp || batch.last_offset() < from {
                continue;
            }
            for r in batch.records().map_err(|e| bad(e.to_string()))? {
                let r = r.map_err(|e| bad(e.to_string()))?;
                let ts = batch.base_timestamp() + r.timestamp_delta;
                let off = batch.base_offset() + i64::from(r.offset_delta);
                if ts >= timestamp && off >= from {
                    return Ok(Some((ts, off)));
                }
            }
        }
        Ok(None)
    }

    /// The transactions aborted in `[from, upper)` that the transaction indexes of `p`'s
    /// remote segments (of `lineage`'s history, from the one holding `from` up to the local
    /// log start) name, as Kafka's `collectAbortedTransactions` walks them: until an entry's
    /// last stable offset reaches `upper`. The local log's own entries are added by the
    /// caller.
    async fn remote_aborted(
        &self,
        p: &Partition,
        lineage: Lineage<'_>,
        from: i64,
        upper: i64,
    ) -> Result<Vec<fjord_log::txn_index::AbortedTxn>, fjord_tiered::TieredError> {
        let local_start = p.log.local_log_start_offset();
        let segments: Vec<SegmentMetadata> = self.with_cache(|c| {
            c.partition(&topic_id_partition(p))
                .map_or_else(Vec::new, |r| {
                    r.readable_in(lineage)
                        .into_iter()
                        .filter(|s| s.end_offset >= from && s.start_offset < local_start)
                        .filter(|s| !s.txn_index_empty)
                        .cloned()
                        .collect()
                })
        });
        let mut out = Vec::new();
        for seg in segments {
            let entries = self.txn_index_of(&seg).await?;
            let index = fjord_log::txn_index::AbortedIndex::new(entries.to_vec());
            out.extend(index.overlapping(from, upper));
            if index
                .entries()
                .iter()
                .any(|e| e.last_stable_offset >= upper)
            {
                break;
            }
        }
        Ok(out)
    }

    /// `seg`'s aborted-transaction index, from the cache or the store.
    async fn txn_index_of(
        &self,
        seg: &SegmentMetadata,
    ) -> Result<Arc<Vec<fjord_log::txn_index::AbortedTxn>>, fjord_tiered::TieredError> {
        if let Some(found) = self.txn_indexes.lock().expect("txn indexes").get(seg.id.id) {
            return Ok(found);
        }
        let bytes = self
            .store
            .fetch(&seg.id, seg.start_offset, FileKind::TxnIndex, None)
            .await?;
        let entries = Arc::new(fjord_log::txn_index::parse(&bytes));
        self.txn_indexes
            .lock()
            .expect("txn indexes")
            .put(seg.id.id, entries.clone());
        Ok(entries)
    }

    async fn index_of(
        &self,
        seg: &SegmentMetadata,
    ) -> Result<Arc<Vec<(i64, u64)>>, fjord_tiered::TieredError> {
        if let Some(found) = self.indexes.lock().expect("indexes").get(seg.id.id) {
            return Ok(found);
        }
        let bytes = self
            .store
            .fetch(&seg.id, seg.start_offset, FileKind::OffsetIndex, None)
            .await?;
        let index = Arc::new(parse_offset_index(seg.start_offset, &bytes));
        self.indexes
            .lock()
            .expect("indexes")
            .put(seg.id.id, index.clone());
        Ok(index)
    }

    /// Chunk `k` of `seg`'s log (`[k * CHUNK_BYTES, (k + 1) * CHUNK_BYTES)`, shorter at the
    /// end), from the chunk cache or the store.
    async fn chunk(
        &self,
        seg: &SegmentMetadata,
        k: u64,
        size: u64,
    ) -> Result<Bytes, fjord_tiered::TieredError> {
        if let Some(found) = self.chunks.lock().expect("chunks").get(seg.id.id, k) {
            return Ok(found);
        }
        let from = k * CHUNK_BYTES;
        let to = (from + CHUNK_BYTES).min(size);
        let bytes = self
            .store
            .fetch(&seg.id, seg.start_offset, FileKind::Log, Some(from..to))
            .await?;
        self.fetch_quota
            .record(fjord_util::system_now_ms(), bytes.len());
        self.chunks
            .lock()
            .expect("chunks")
            .put(seg.id.id, k, bytes.clone());
        Ok(bytes)
    }

    /// Bytes `[from, to)` of `seg`'s log (`to` at most its size): a slice of one cached chunk
    /// when they lie in one, else the chunks joined.
    async fn log_bytes(
        &self,
        seg: &SegmentMetadata,
        from: u64,
        to: u64,
        size: u64,
    ) -> Result<Bytes, fjord_tiered::TieredError> {
        let (first, last) = (from / CHUNK_BYTES, (to.max(from + 1) - 1) / CHUNK_BYTES);
        if first == last {
            let c = self.chunk(seg, first, size).await?;
            let at = (from - first * CHUNK_BYTES) as usize;
            let end = ((to - first * CHUNK_BYTES) as usize).min(c.len());
            return Ok(if at >= end {
                Bytes::new()
            } else {
                c.slice(at..end)
            });
        }
        let mut out = BytesMut::with_capacity((to - from) as usize);
        for k in first..=last {
            let c = self.chunk(seg, k, size).await?;
            let base = k * CHUNK_BYTES;
            let at = from.saturating_sub(base) as usize;
            let end = ((to - base) as usize).min(c.len());
            if at < end {
                out.extend_from_slice(&c[at..end]);
            }
        }
        Ok(out.freeze())
    }

    async fn read_segment(
        &self,
        seg: &SegmentMetadata,
        want: RemoteRead,
    ) -> Result<Bytes, fjord_tiered::TieredError> {
        let index = self.index_of(seg).await?;
        let i = index.partition_point(|(o, _)| *o <= want.offset);
        let mut pos = if i == 0 { 0 } else { index[i - 1].1 };
        let size = u64::try_from(seg.size_bytes.max(0)).unwrap_or(0);
        // The batches returned lie in `[start, pos)`: found by their headers, then taken at
        // once (a slice of a cached chunk when they fit in one).
        let mut start = None;
        while pos + BATCH_HEADER_BYTES <= size {
            let header = self
                .log_bytes(seg, pos, pos + BATCH_HEADER_BYTES, size)
                .await?;
            if (header.len() as u64) < BATCH_HEADER_BYTES {
                break;
            }
            let base = i64::from_be_bytes(header[0..8].try_into().expect("8 bytes"));
            let len = i32::from_be_bytes(header[8..12].try_into().expect("4 bytes"));
            let delta = i32::from_be_bytes(header[23..27].try_into().expect("4 bytes"));
            let whole = BATCH_LENGTH_END as u64 + u64::try_from(len.max(0)).unwrap_or(0);
            if len <= 0 || pos + whole > size {
                break;
            }
            let last = base + i64::from(delta);
            if last < want.offset {
                pos += whole;
                continue;
            }
            if base >= want.stop {
                break;
            }
            let begin = *start.get_or_insert(pos);
            let taken = pos - begin;
            if taken + whole > want.max_bytes as u64 && !(taken == 0 && want.min_one) {
                break;
            }
            pos += whole;
        }
        let Some(begin) = start else {
            return Ok(Bytes::new());
        };
        let out = self.log_bytes(seg, begin, pos, size).await?;
        // Checked as whole batches before they go out.
        let mut rest = out.clone();
        while !rest.is_empty() {
            let len = i32::from_be_bytes(rest[8..12].try_into().expect("4 bytes"));
            let whole = BATCH_LENGTH_END + len.max(0) as usize;
            RecordBatch::new(rest.split_to(whole.min(rest.len())))
                .map_err(|e| fjord_tiered::TieredError::Store(format!("a remote batch: {e}")))?;
        }
        Ok(out)
    }
}

/// Recently read chunks of remote segments' logs, the most recently used kept, at most
/// [`CACHED_CHUNK_BYTES`] in all.
#[derive(Debug, Default)]
pub struct ChunkCache {
    entries: HashMap<(Uuid, u64), Bytes>,
    order: VecDeque<(Uuid, u64)>,
    bytes: usize,
}

impl ChunkCache {
    fn get(&mut self, id: Uuid, k: u64) -> Option<Bytes> {
        let found = self.entries.get(&(id, k)).cloned()?;
        if self.order.back() != Some(&(id, k)) {
            self.order.retain(|x| *x != (id, k));
            self.order.push_back((id, k));
        }
        Some(found)
    }

    fn put(&mut self, id: Uuid, k: u64, chunk: Bytes) {
        let len = chunk.len();
        match self.entries.insert((id, k), chunk) {
            Some(old) => self.bytes -= old.len(),
            None => self.order.push_back((id, k)),
        }
        self.bytes += len;
        while self.bytes > CACHED_CHUNK_BYTES {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            if let Some(c) = self.entries.remove(&old) {
                self.bytes -= c.len();
            }
        }
    }
}

/// Gives back one pending read when dropped.
struct PendingGuard<'a>(&'a std::sync::atomic::AtomicUsize);

impl Drop for PendingGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

fn scopeguard(n: &std::sync::atomic::AtomicUsize) -> PendingGuard<'_> {
    PendingGuard(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offset_index_parses_until_its_zeroed_tail() {
        let mut b = Vec::new();
        for (rel, pos) in [(0u32, 0u32), (10, 4096), (25, 8192), (0, 0), (0, 0)] {
            b.extend_from_slice(&rel.to_be_bytes());
            b.extend_from_slice(&pos.to_be_bytes());
        }
        assert_eq!(
            parse_offset_index(100, &b),
            vec![(100, 0), (110, 4096), (125, 8192)]
        );
    }
}
