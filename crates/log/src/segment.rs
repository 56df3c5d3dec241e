//! One log segment: `<base offset>.log` (batches back to back) with its `.index` and
//! `.timeindex`. One writer appends; any number of readers read concurrently with positional
//! reads bounded by the published size, so a reader never sees a partly written batch.

use crate::error::{io_err, LogError, Result};
use crate::index::{OffsetEntry, OffsetIndex, TimeEntry, TimeIndex};
use crate::open_files::{FileBudget, LazyFile};
use bytes::{Bytes, BytesMut};
use fjord_protocol::records::batch::LOG_OVERHEAD;
use fjord_protocol::records::{RecordBatch, BATCH_HEADER_LEN};
use fjord_protocol::{FileSlice, Records};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, IoSlice, Read, Seek, SeekFrom};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// The suffix of a segment's data file.
pub const LOG_SUFFIX: &str = ".log";
/// The suffix of a segment's offset index.
pub const INDEX_SUFFIX: &str = ".index";
/// The suffix of a segment's time index.
pub const TIME_INDEX_SUFFIX: &str = ".timeindex";
/// Appended to a segment's files when it is deleted, before they are unlinked.
pub const DELETED_SUFFIX: &str = ".deleted";
/// The bytes of a batch header needed to find its last offset: up to lastOffsetDelta.
const BATCH_PREFIX: usize = 27;
/// The read buffer used when recovery scans a segment.
const RECOVERY_READ_BUFFER: usize = 1024 * 1024;

/// The file name of a segment file: the base offset in 20 digits, then the suffix.
pub fn file_name(base_offset: i64, suffix: &str) -> String {
    format!("{base_offset:020}{suffix}")
}

/// A batch ready to be written: its first bytes as they must be on disk (base offset,
/// length and leader epoch patched) and the rest, shared with the request.
#[derive(Debug, Clone)]
pub struct PreparedBatch {
    /// The first 16 bytes of the batch, patched.
    pub prefix: [u8; 16],
    /// Bytes 16.. of the batch, unchanged.
    pub rest: Bytes,
    /// The batch's base offset.
    pub base_offset: i64,
    /// The batch's last offset.
    pub last_offset: i64,
    /// The batch's max timestamp.
    pub max_timestamp: i64,
}

impl PreparedBatch {
    /// Wraps a batch as stored (nothing patched).
    pub fn unchanged(batch: &RecordBatch) -> PreparedBatch {
        let bytes = batch.as_bytes();
        let mut prefix = [0u8; 16];
        prefix.copy_from_slice(&bytes[..16]);
        PreparedBatch {
            prefix,
            rest: bytes.slice(16..),
            base_offset: batch.base_offset(),
            last_offset: batch.last_offset(),
            max_timestamp: batch.max_timestamp(),
        }
    }

    /// The batch's size in bytes.
    pub fn size(&self) -> usize {
        16 + self.rest.len()
    }
}

/// What one batch header says: where the batch is and which offsets it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchPosition {
    /// The position of the batch in the `.log` file.
    pub position: u64,
    /// Its base offset.
    pub base_offset: i64,
    /// Its last offset.
    pub last_offset: i64,
    /// Its size in bytes.
    pub size: u64,
}

/// What recovering a segment found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecoveryResult {
    /// The offset after the last valid batch, if any.
    pub next_offset: Option<i64>,
    /// Bytes cut from the end because they did not form a valid batch.
    pub truncated_bytes: u64,
    /// Why the first invalid byte was invalid.
    pub reason: Option<String>,
    /// Each (leader epoch, base offset) where the epoch changed, in order.
    pub epoch_starts: Vec<(i32, i64)>,
}

#[derive(Debug)]
struct WriterState {
    bytes_since_index_entry: u64,
    max_timestamp: i64,
    offset_of_max_timestamp: i64,
    /// The timestamp of the first batch, for `segment.ms`.
    first_batch_timestamp: Option<i64>,
}

/// One segment of a partition log.
#[derive(Debug)]
pub struct Segment {
    base_offset: i64,
    /// The `.log` file, open while used (within the process's [`FileBudget`]); its handle is
    /// shared with the file slices fetches hand to the transport.
    file: Arc<LazyFile>,
    size: AtomicU64,
    index: RwLock<OffsetIndex>,
    time_index: RwLock<TimeIndex>,
    state: Mutex<WriterState>,
    index_interval_bytes: u64,
}

fn batch_prefix(b: &[u8]) -> (i64, u64, i64) {
    let mut base = [0u8; 8];
    base.copy_from_slice(&b[0..8]);
    let base = i64::from_be_bytes(base);
    let len = i32::from_be_bytes([b[8], b[9], b[10], b[11]]);
    let delta = i32::from_be_bytes([b[23], b[24], b[25], b[26]]);
    (
        base,
        len.max(0) as u64 + LOG_OVERHEAD as u64,
        base.wrapping_add(i64::from(delta)),
    )
}

impl Segment {
    /// Creates an empty segment in `dir` (any old files of that base offset are emptied).
    pub fn create(
        dir: &Path,
        base_offset: i64,
        index_bytes: u64,
        index_interval_bytes: u64,
    ) -> Result<Segment> {
        let log_path = dir.join(file_name(base_offset, LOG_SUFFIX));
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&log_path)
            .map_err(io_err(&log_path))?;
        let index =
            OffsetIndex::create(&dir.join(file_name(base_offset, INDEX_SUFFIX)), index_bytes)?;
        let time_index = TimeIndex::create(
            &dir.join(file_name(base_offset, TIME_INDEX_SUFFIX)),
            index_bytes,
        )?;
        Ok(Segment::assemble(
            base_offset,
            file,
            0,
            index,
            time_index,
            log_path,
            index_interval_bytes,
        ))
    }

    fn assemble(
        base_offset: i64,
        file: File,
        size: u64,
        index: OffsetIndex,
        time_index: TimeIndex,
        log_path: PathBuf,
        index_interval_bytes: u64,
    ) -> Segment {
        let (max_timestamp, offset_of_max_timestamp) = match time_index.last() {
            Some(e) => (e.timestamp, base_offset + i64::from(e.relative_offset)),
            None => (-1, base_offset),
        };
        Segment {
            base_offset,
            file: LazyFile::new(log_path, file, FileBudget::global().clone()),
            size: AtomicU64::new(size),
            index: RwLock::new(index),
            time_index: RwLock::new(time_index),
            state: Mutex::new(WriterState {
                bytes_since_index_entry: 0,
                max_timestamp,
                offset_of_max_timestamp,
                first_batch_timestamp: None,
            }),
            index_interval_bytes,
        }
    }

    /// Opens an existing segment. Its indexes are loaded when they pass their sanity checks and
    /// rebuilt from the log otherwise (the second value is then true).
    pub fn open(
        dir: &Path,
        base_offset: i64,
        index_bytes: u64,
        index_interval_bytes: u64,
    ) -> Result<(Segment, bool)> {
        let log_path = dir.join(file_name(base_offset, LOG_SUFFIX));
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&log_path)
            .map_err(io_err(&log_path))?;
        let size = file.seek(SeekFrom::End(0)).map_err(io_err(&log_path))?;
        let index_path = dir.join(file_name(base_offset, INDEX_SUFFIX));
        let time_path = dir.join(file_name(base_offset, TIME_INDEX_SUFFIX));
        let index = OffsetIndex::open(&index_path, index_bytes, |e: &OffsetEntry| {
            u64::from(e.position) < size.max(1)
        })?;
        // Time entries cannot be checked against the log without reading it; structure only.
        let time_index = TimeIndex::open(&time_path, index_bytes, |_: &TimeEntry| true)?;
        let (index, time_index, rebuild) = match (index, time_index) {
            (Some(index), Some(time_index)) => (index, time_index, false),
            _ => (
                OffsetIndex::create(&index_path, index_bytes)?,
                TimeIndex::create(&time_path, index_bytes)?,
                true,
            ),
        };
        let seg = Segment::assemble(
            base_offset,
            file,
            size,
            index,
            time_index,
            log_path,
            index_interval_bytes,
        );
        Ok((seg, rebuild))
    }

    /// The segment's base offset.
    pub fn base_offset(&self) -> i64 {
        self.base_offset
    }

    /// The published size in bytes.
    pub fn size(&self) -> u64 {
        self.size.load(Ordering::Acquire)
    }

    /// The largest timestamp appended, or -1.
    pub fn max_timestamp(&self) -> i64 {
        self.state.lock().expect("segment state").max_timestamp
    }

    /// The timestamp of the first batch appended since the segment was created or opened.
    pub fn first_batch_timestamp(&self) -> Option<i64> {
        self.state
            .lock()
            .expect("segment state")
            .first_batch_timestamp
    }

    /// True when either index has no room left.
    pub fn indexes_full(&self) -> bool {
        self.index.read().expect("index").is_full()
            || self.time_index.read().expect("time index").is_full()
    }

    /// The `.log` file's current path.
    pub fn log_path(&self) -> PathBuf {
        self.file.path()
    }

    /// The `.log` file's handle, reopened if the budget had closed it.
    fn handle(&self) -> Result<Arc<File>> {
        self.file.get().map_err(|e| io_err(self.log_path())(e))
    }

    /// Appends batches (offsets already assigned) and publishes them to readers.
    pub fn append(&self, batches: &[PreparedBatch]) -> Result<()> {
        let mut st = self.state.lock().expect("segment state");
        let start = self.size();
        let mut slices: Vec<IoSlice<'_>> = Vec::with_capacity(batches.len() * 2);
        for b in batches {
            slices.push(IoSlice::new(&b.prefix));
            slices.push(IoSlice::new(&b.rest));
        }
        let file = self.handle()?;
        if let Err(e) = write_all_at(&file, &mut slices, start) {
            let path = self.log_path();
            // Leave the segment at its published size: a failed or partial write must not
            // leave a gap or half a batch for the next append to land after.
            return Err(match file.set_len(start) {
                Ok(()) => io_err(&path)(e),
                Err(t) => io_err(&path)(std::io::Error::new(
                    e.kind(),
                    format!("{e}; truncating back to {start} bytes also failed: {t}"),
                )),
            });
        }
        let mut pos = start;
        let mut index = self.index.write().expect("index");
        let mut time_index = self.time_index.write().expect("time index");
        for b in batches {
            if st.first_batch_timestamp.is_none() {
                st.first_batch_timestamp = Some(b.max_timestamp);
            }
            if st.bytes_since_index_entry >= self.index_interval_bytes {
                index.append(OffsetEntry {
                    relative_offset: self.relative(b.last_offset),
                    position: pos as u32,
                });
                st.bytes_since_index_entry = 0;
            }
            if b.max_timestamp > st.max_timestamp {
                st.max_timestamp = b.max_timestamp;
                st.offset_of_max_timestamp = b.last_offset;
                time_index.append(TimeEntry {
                    timestamp: b.max_timestamp,
                    relative_offset: self.relative(b.last_offset),
                });
            }
            st.bytes_since_index_entry += b.size() as u64;
            pos += b.size() as u64;
        }
        self.size.store(pos, Ordering::Release);
        Ok(())
    }

    fn relative(&self, offset: i64) -> u32 {
        (offset - self.base_offset) as u32
    }

    /// Reads the batch prefix at `position`, if a whole prefix lies below `limit`.
    fn prefix_at(&self, position: u64, limit: u64) -> Result<Option<BatchPosition>> {
        if position + BATCH_PREFIX as u64 > limit {
            return Ok(None);
        }
        let mut b = [0u8; BATCH_PREFIX];
        self.handle()?
            .read_exact_at(&mut b, position)
            .map_err(|e| io_err(self.log_path())(e))?;
        let (base_offset, size, last_offset) = batch_prefix(&b);
        if position + size > limit {
            return Ok(None);
        }
        Ok(Some(BatchPosition {
            position,
            base_offset,
            last_offset,
            size,
        }))
    }

    /// The first batch holding `offset` or a later one: found through the offset index, then
    /// by walking batch headers. `None` when no such batch lies below `limit`.
    pub fn find_batch(&self, offset: i64, limit: u64) -> Result<Option<BatchPosition>> {
        let start = {
            let index = self.index.read().expect("index");
            index
                .floor(offset - self.base_offset)
                .map_or(0, |e| u64::from(e.position))
        };
        let mut pos = start;
        while let Some(b) = self.prefix_at(pos, limit)? {
            if b.last_offset >= offset {
                return Ok(Some(b));
            }
            pos += b.size;
        }
        Ok(None)
    }

    /// Where whole batches starting with the one holding `offset` lie, up to `max_bytes` and
    /// not past `limit` (a position): the first batch and the end position. With `min_one`,
    /// the first batch counts even when it is larger than `max_bytes` (KIP-74); without it, a
    /// first batch that does not fit gives an empty range (end = its position). Batch
    /// boundaries come from the offset index and a walk over batch headers from the last
    /// indexed batch that fits, so the cost does not grow with `max_bytes`.
    pub fn batch_range(
        &self,
        offset: i64,
        max_bytes: usize,
        limit: u64,
        min_one: bool,
    ) -> Result<Option<(BatchPosition, u64)>> {
        let limit = limit.min(self.size());
        let Some(first) = self.find_batch(offset, limit)? else {
            return Ok(None);
        };
        let budget_end = first.position.saturating_add(max_bytes as u64).min(limit);
        let first_end = first.position + first.size;
        if first_end > budget_end && !min_one {
            return Ok(Some((first, first.position)));
        }
        let indexed = {
            let index = self.index.read().expect("index");
            let entries = index.entries();
            let fits = entries.partition_point(|e| u64::from(e.position) <= budget_end);
            fits.checked_sub(1)
                .map_or(0, |i| u64::from(entries[i].position))
        };
        let mut end = first_end.max(indexed.min(budget_end));
        while let Some(b) = self.prefix_at(end, budget_end)? {
            end += b.size;
        }
        Ok(Some((first, end)))
    }

    /// Reads whole batches starting with the one holding `offset`, up to `max_bytes` and not
    /// past `limit` (a position), into memory. With `min_one`, the first batch is returned
    /// even when it is larger than `max_bytes`.
    pub fn read(
        &self,
        offset: i64,
        max_bytes: usize,
        limit: u64,
        min_one: bool,
    ) -> Result<Option<(BatchPosition, Bytes)>> {
        let Some((first, end)) = self.batch_range(offset, max_bytes, limit, min_one)? else {
            return Ok(None);
        };
        if end == first.position {
            return Ok(Some((first, Bytes::new())));
        }
        let buf = self.read_range(first.position, (end - first.position) as usize)?;
        Ok(Some((first, Bytes::from(buf))))
    }

    /// As [`Segment::read`], but ranges of at least `copy_below` bytes come back as a slice of
    /// the segment file ([`Records::File`]) for the transport to send with sendfile(2); smaller
    /// ones are read into memory (one syscall for them is not worth a syscall of its own).
    pub fn read_records(
        &self,
        offset: i64,
        max_bytes: usize,
        limit: u64,
        min_one: bool,
        copy_below: usize,
    ) -> Result<Option<(BatchPosition, Records)>> {
        let Some((first, end)) = self.batch_range(offset, max_bytes, limit, min_one)? else {
            return Ok(None);
        };
        let len = (end - first.position) as usize;
        if len == 0 {
            return Ok(Some((first, Records::default())));
        }
        if len < copy_below {
            let buf = self.read_range(first.position, len)?;
            return Ok(Some((first, Records::Memory(Bytes::from(buf)))));
        }
        let slice = FileSlice::new(self.handle()?, first.position, len);
        Ok(Some((first, Records::File(slice))))
    }

    /// Reads `len` bytes at `position` into a new buffer (a positional read on the segment's
    /// one handle: no handle of its own per reader, so an idle partition holds one file).
    fn read_range(&self, position: u64, len: usize) -> Result<Vec<u8>> {
        let mut buf = vec![0u8; len];
        self.handle()?
            .read_exact_at(&mut buf, position)
            .map_err(|e| {
                io_err(self.log_path())(std::io::Error::new(
                    e.kind(),
                    format!("reading {len} bytes at {position}: {e}"),
                ))
            })?;
        Ok(buf)
    }

    /// The whole segment, as published.
    pub fn read_all(&self) -> Result<Bytes> {
        Ok(Bytes::from(self.read_range(0, self.size() as usize)?))
    }

    /// The position of the first batch holding `offset` or later, or the size when none does.
    pub fn position_of(&self, offset: i64) -> Result<u64> {
        Ok(self
            .find_batch(offset, self.size())?
            .map_or(self.size(), |b| b.position))
    }

    /// The offset after the last batch (scanning from the last index entry), or the base
    /// offset for an empty segment.
    pub fn read_next_offset(&self) -> Result<i64> {
        let start = self
            .index
            .read()
            .expect("index")
            .last()
            .map_or(0, |e| u64::from(e.position));
        let limit = self.size();
        let mut pos = start;
        let mut next = self.base_offset;
        while let Some(b) = self.prefix_at(pos, limit)? {
            next = b.last_offset + 1;
            pos += b.size;
        }
        Ok(next)
    }

    /// The offset of the first record whose timestamp is at or after `timestamp`: the time
    /// index narrows the scan, then batches are read. `None` when no batch qualifies.
    pub fn find_offset_by_timestamp(
        &self,
        timestamp: i64,
        from_offset: i64,
    ) -> Result<Option<(i64, i64)>> {
        let start_offset = {
            let ti = self.time_index.read().expect("time index");
            // Entries are (max timestamp so far, offset): the last one below the target tells
            // where records at or after it can begin.
            let below = ti.entries().partition_point(|e| e.timestamp < timestamp);
            below.checked_sub(1).map_or(self.base_offset, |i| {
                self.base_offset + i64::from(ti.entries()[i].relative_offset)
            })
        }
        .max(from_offset);
        let limit = self.size();
        let Some(mut b) = self.find_batch(start_offset, limit)? else {
            return Ok(None);
        };
        loop {
            let mut raw = vec![0u8; b.size as usize];
            self.handle()?
                .read_exact_at(&mut raw, b.position)
                .map_err(|e| io_err(self.log_path())(e))?;
            let batch = RecordBatch::new(Bytes::from(raw))
                .map_err(|e| LogError::CorruptRecord(e.to_string()))?;
            if batch.max_timestamp() >= timestamp {
                for r in batch
                    .records()
                    .map_err(|e| LogError::CorruptRecord(e.to_string()))?
                {
                    let r = r.map_err(|e| LogError::CorruptRecord(e.to_string()))?;
                    let ts = batch.base_timestamp() + r.timestamp_delta;
                    let off = batch.base_offset() + i64::from(r.offset_delta);
                    if ts >= timestamp && off >= from_offset {
                        return Ok(Some((ts, off)));
                    }
                }
            }
            match self.prefix_at(b.position + b.size, limit)? {
                Some(next) => b = next,
                None => return Ok(None),
            }
        }
    }

    /// Scans the whole segment: checks every batch's framing and CRC, rebuilds both indexes,
    /// and cuts the file at the first invalid byte.
    pub fn recover(&self) -> Result<RecoveryResult> {
        let mut st = self.state.lock().expect("segment state");
        let path = self.log_path();
        let file = self.handle()?;
        let file_len = file.metadata().map_err(io_err(&path))?.len();
        let mut index = self.index.write().expect("index");
        let mut time_index = self.time_index.write().expect("time index");
        index.truncate_entries(0)?;
        time_index.truncate_entries(0)?;
        st.bytes_since_index_entry = 0;
        st.max_timestamp = -1;
        st.offset_of_max_timestamp = self.base_offset;
        let mut reader = BufReader::with_capacity(
            RECOVERY_READ_BUFFER,
            file.try_clone().map_err(io_err(&path))?,
        );
        reader.seek(SeekFrom::Start(0)).map_err(io_err(&path))?;
        let mut result = RecoveryResult::default();
        let mut pos = 0u64;
        let mut last_epoch = None;
        while pos < file_len {
            match read_valid_batch(&mut reader, file_len - pos, result.next_offset) {
                Ok(batch) => {
                    let size = batch.size() as u64;
                    if st.bytes_since_index_entry >= self.index_interval_bytes {
                        index.append(OffsetEntry {
                            relative_offset: self.relative(batch.last_offset()),
                            position: pos as u32,
                        });
                        st.bytes_since_index_entry = 0;
                    }
                    if batch.max_timestamp() > st.max_timestamp {
                        st.max_timestamp = batch.max_timestamp();
                        st.offset_of_max_timestamp = batch.last_offset();
                        time_index.append(TimeEntry {
                            timestamp: batch.max_timestamp(),
                            relative_offset: self.relative(batch.last_offset()),
                        });
                    }
                    let epoch = batch.partition_leader_epoch();
                    if epoch >= 0 && last_epoch.is_none_or(|l| epoch > l) {
                        result.epoch_starts.push((epoch, batch.base_offset()));
                        last_epoch = Some(epoch);
                    }
                    st.bytes_since_index_entry += size;
                    result.next_offset = Some(batch.next_offset());
                    pos += size;
                }
                Err(reason) => {
                    result.reason = Some(reason);
                    break;
                }
            }
        }
        if pos < file_len {
            result.truncated_bytes = file_len - pos;
            file.set_len(pos).map_err(io_err(&path))?;
        }
        self.size.store(pos, Ordering::Release);
        Ok(result)
    }

    /// Cuts the segment before the batch holding `offset`; returns the bytes removed.
    pub fn truncate_to(&self, offset: i64) -> Result<u64> {
        let mut st = self.state.lock().expect("segment state");
        let path = self.log_path();
        let old = self.size();
        let pos = self.find_batch(offset, old)?.map_or(old, |b| b.position);
        if pos >= old {
            return Ok(0);
        }
        let rel = (offset - self.base_offset).max(0);
        let mut index = self.index.write().expect("index");
        let keep = index
            .entries()
            .partition_point(|e| u64::from(e.position) < pos);
        index.truncate_entries(keep)?;
        let mut time_index = self.time_index.write().expect("time index");
        let keep = time_index
            .entries()
            .partition_point(|e| i64::from(e.relative_offset) < rel);
        time_index.truncate_entries(keep)?;
        self.handle()?.set_len(pos).map_err(io_err(&path))?;
        self.size.store(pos, Ordering::Release);
        match time_index.last() {
            Some(e) => {
                st.max_timestamp = e.timestamp;
                st.offset_of_max_timestamp = self.base_offset + i64::from(e.relative_offset);
            }
            None => {
                st.max_timestamp = -1;
                st.offset_of_max_timestamp = self.base_offset;
            }
        }
        st.bytes_since_index_entry = pos - index.last().map_or(0, |e| u64::from(e.position));
        if pos == 0 {
            st.first_batch_timestamp = None;
        }
        Ok(old - pos)
    }

    /// Fsyncs the log file and both indexes.
    pub fn flush(&self) -> Result<()> {
        let path = self.log_path();
        self.handle()?.sync_data().map_err(io_err(&path))?;
        self.index.write().expect("index").flush()?;
        self.time_index.write().expect("time index").flush()
    }

    /// The path of the segment's aborted-transaction index (which exists only once a
    /// transaction aborted in it), `.deleted` with the rest.
    pub fn txn_index_path(&self) -> PathBuf {
        let log = self.log_path();
        let mut name = file_name(self.base_offset, crate::txn_index::TXN_INDEX_SUFFIX);
        if log.as_os_str().to_string_lossy().ends_with(DELETED_SUFFIX) {
            name.push_str(DELETED_SUFFIX);
        }
        log.with_file_name(name)
    }

    /// The paths of the segment's files: log, index, time index, transaction index.
    fn paths(&self) -> [PathBuf; 4] {
        let log = self.log_path();
        let index = self.index.read().expect("index").path().to_owned();
        let time = self
            .time_index
            .read()
            .expect("time index")
            .path()
            .to_owned();
        let txn = self.txn_index_path();
        [log, index, time, txn]
    }

    /// Renames the segment's files with `.deleted` so that they no longer belong to the log;
    /// they are unlinked later by [`Segment::delete_files`]. Open readers keep working.
    pub fn mark_deleted(&self) -> Result<()> {
        let [log, index, time, txn] = self.paths();
        let renamed = |p: &Path| {
            let mut s = p.as_os_str().to_owned();
            s.push(DELETED_SUFFIX);
            PathBuf::from(s)
        };
        match std::fs::rename(&txn, renamed(&txn)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io_err(&txn)(e)),
            _ => {}
        }
        for (from, to) in [
            (&log, renamed(&log)),
            (&index, renamed(&index)),
            (&time, renamed(&time)),
        ] {
            std::fs::rename(from, &to).map_err(io_err(from))?;
        }
        self.file.set_path(&renamed(&log));
        // Kept open from now on: readers may still use it after its path is unlinked.
        self.file.pin().map_err(io_err(renamed(&log)))?;
        self.index.write().expect("index").set_path(renamed(&index));
        self.time_index
            .write()
            .expect("time index")
            .set_path(renamed(&time));
        Ok(())
    }

    /// Unlinks the segment's files (after [`Segment::mark_deleted`]).
    pub fn delete_files(&self) -> Result<()> {
        for p in self.paths() {
            match std::fs::remove_file(&p) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(io_err(&p)(e)),
            }
        }
        Ok(())
    }
}

/// Writes every slice at `position` with positional vectored writes (`pwritev`), looping
/// over partial writes; the file cursor is not used, so appends never depend on it.
fn write_all_at(
    file: &File,
    mut slices: &mut [IoSlice<'_>],
    mut position: u64,
) -> std::io::Result<()> {
    IoSlice::advance_slices(&mut slices, 0);
    while !slices.is_empty() {
        let batch = &slices[..slices.len().min(MAX_IOV)];
        match rustix::io::pwritev(file, batch, position) {
            Ok(0) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::WriteZero,
                    "failed to write batch",
                ))
            }
            Ok(n) => {
                position += n as u64;
                IoSlice::advance_slices(&mut slices, n);
            }
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// The most buffers one `pwritev` takes (Linux's `IOV_MAX` is 1024).
const MAX_IOV: usize = 1024;

/// Reads the next batch from `reader` and checks it; `Err` says why it is not valid.
fn read_valid_batch(
    reader: &mut impl Read,
    remaining: u64,
    expected_base: Option<i64>,
) -> std::result::Result<RecordBatch, String> {
    if remaining < BATCH_HEADER_LEN as u64 {
        return Err(format!(
            "{remaining} trailing bytes are shorter than a batch header"
        ));
    }
    let mut head = [0u8; LOG_OVERHEAD];
    reader
        .read_exact(&mut head)
        .map_err(|e| format!("read failed: {e}"))?;
    let len = i32::from_be_bytes([head[8], head[9], head[10], head[11]]);
    let total = len as i64 + LOG_OVERHEAD as i64;
    if len < (BATCH_HEADER_LEN - LOG_OVERHEAD) as i32 || total as u64 > remaining {
        return Err(format!(
            "batch length {len} is impossible here ({remaining} bytes remain)"
        ));
    }
    let mut buf = BytesMut::zeroed(total as usize);
    buf[..LOG_OVERHEAD].copy_from_slice(&head);
    reader
        .read_exact(&mut buf[LOG_OVERHEAD..])
        .map_err(|e| format!("read failed: {e}"))?;
    let batch = RecordBatch::new(buf.freeze()).map_err(|e| e.to_string())?;
    batch.verify_crc().map_err(|e| e.to_string())?;
    if let Some(expected) = expected_base {
        if batch.base_offset() < expected {
            return Err(format!(
                "batch at offset {} overlaps the previous batch ending before {expected}",
                batch.base_offset()
            ));
        }
    }
    if batch.last_offset() < batch.base_offset() {
        return Err(format!(
            "batch has last offset {} below its base {}",
            batch.last_offset(),
            batch.base_offset()
        ));
    }
    Ok(batch)
}
