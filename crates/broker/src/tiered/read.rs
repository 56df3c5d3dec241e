//! Reads below a leader's local log start, served from the store: the remote segment that
//! holds the offset in this log's history (through the metadata cache), its offset index
//! (kept in a bounded cache), then whole batches from the indexed position, as a local read
//! returns them. At most `remote.log.reader.threads` reads run at once and
//! `remote.log.reader.max.pending.tasks` wait; more are refused.

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
/// The least a read asks the store for at once.
const MIN_READ_BYTES: u64 = 256 * 1024;
/// A record batch's header up to its length field.
const BATCH_LENGTH_END: usize = 12;

/// Remote segments' offset indexes, the most recently used kept.
#[derive(Debug, Default)]
pub struct IndexCache {
    entries: HashMap<Uuid, Arc<Vec<(i64, u64)>>>,
    order: VecDeque<Uuid>,
}

impl IndexCache {
    fn get(&mut self, id: Uuid) -> Option<Arc<Vec<(i64, u64)>>> {
        let found = self.entries.get(&id).cloned()?;
        self.order.retain(|x| *x != id);
        self.order.push_back(id);
        Some(found)
    }

    fn put(&mut self, id: Uuid, index: Arc<Vec<(i64, u64)>>) {
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
}

impl Tiering {
    /// Reads from the store for `p` (a blocking call: run it off the async workers).
    pub fn read_blocking(&self, p: &Partition, want: RemoteRead) -> Result<Bytes, ErrorCode> {
        let pending = self.pending_reads.fetch_add(1, Ordering::AcqRel);
        let _pending = scopeguard(&self.pending_reads);
        if pending >= self.config.reader_max_pending {
            tracing::warn!(topic = %p.topic, partition = p.index, "too many reads from tiered storage are waiting; refusing one");
            return Err(ErrorCode::UnknownServerError);
        }
        let epochs: Vec<(i32, i64)> = p
            .log
            .epoch_entries()
            .into_iter()
            .map(|e| (e.epoch, e.start_offset))
            .collect();
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
        let handle = tokio::runtime::Handle::current();
        handle.block_on(async {
            let _permit = self
                .reads
                .acquire()
                .await
                .map_err(|_| ErrorCode::UnknownServerError)?;
            self.read_segment(&seg, want).await.map_err(|e| {
                tracing::warn!(topic = %p.topic, partition = p.index, offset = want.offset, "reading tiered storage: {e}");
                e.code()
            })
        })
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

    async fn read_segment(
        &self,
        seg: &SegmentMetadata,
        want: RemoteRead,
    ) -> Result<Bytes, fjord_tiered::TieredError> {
        let index = self.index_of(seg).await?;
        let i = index.partition_point(|(o, _)| *o <= want.offset);
        let mut pos = if i == 0 { 0 } else { index[i - 1].1 };
        let size = u64::try_from(seg.size_bytes.max(0)).unwrap_or(0);
        let mut out = BytesMut::new();
        let mut buf = Bytes::new();
        while pos < size {
            // Enough bytes for the next batch's length, then the whole batch.
            if buf.len() < BATCH_LENGTH_END {
                let want_len = MIN_READ_BYTES.max(want.max_bytes as u64).min(size - pos);
                buf = self
                    .store
                    .fetch(
                        &seg.id,
                        seg.start_offset,
                        FileKind::Log,
                        Some(pos..pos + want_len),
                    )
                    .await?;
                if buf.len() < BATCH_LENGTH_END {
                    break;
                }
            }
            let len = i32::from_be_bytes([buf[8], buf[9], buf[10], buf[11]]);
            let whole = BATCH_LENGTH_END as u64 + u64::try_from(len.max(0)).unwrap_or(0);
            if (buf.len() as u64) < whole {
                buf = self
                    .store
                    .fetch(
                        &seg.id,
                        seg.start_offset,
                        FileKind::Log,
                        Some(pos..(pos + whole).min(size)),
                    )
                    .await?;
                if (buf.len() as u64) < whole {
                    break;
                }
            }
            let batch_bytes = buf.split_to(whole as usize);
            pos += whole;
            let batch = RecordBatch::new(batch_bytes.clone())
                .map_err(|e| fjord_tiered::TieredError::Store(format!("a remote batch: {e}")))?;
            if batch.last_offset() < want.offset {
                continue;
            }
            if batch.base_offset() >= want.stop {
                break;
            }
            let first = out.is_empty();
            if out.len() + batch_bytes.len() > want.max_bytes && !(first && want.min_one) {
                break;
            }
            out.extend_from_slice(&batch_bytes);
        }
        Ok(out.freeze())
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
