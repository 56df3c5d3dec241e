//! Where a request's log work runs. Small appends, and reads of a few partitions at their
//! active segment, run on the async worker that decoded the request: they are page-cache
//! copies of microseconds, and handing them to a blocking thread and back costs two context
//! switches each, which on a loaded machine were most of an acks=all round trip. Larger work,
//! and reads that may go to disk, run on the blocking pool.

/// The most record bytes an append may carry and still run on the worker.
pub const INLINE_APPEND_BYTES: usize = 64 * 1024;
/// The most partitions a read may name and still run on the worker.
pub const INLINE_READ_PARTITIONS: usize = 4;

/// Whether an append of `bytes` record bytes runs on the worker: small, and into no
/// partition whose flush policy (`flush.messages`/`flush.ms`) may make it fsync (asked only
/// when small).
pub fn append_inline(bytes: usize, may_fsync: impl FnOnce() -> bool) -> bool {
    bytes <= INLINE_APPEND_BYTES && !may_fsync()
}

/// Runs `f` here when `inline`, else on the blocking pool; a panic in the pool is an error.
pub async fn run<T: Send + 'static>(
    inline: bool,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, tokio::task::JoinError> {
    if inline {
        Ok(f())
    } else {
        tokio::task::spawn_blocking(f).await
    }
}
