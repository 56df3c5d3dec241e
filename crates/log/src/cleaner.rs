//! The background log cleaner: a thread that, every `log.cleaner.backoff.ms`, compacts each
//! compacted log of a log dir whose dirty ratio has reached `min.cleanable.dirty.ratio`, and
//! unlinks segment files whose `file.delete.delay.ms` has passed. Appends never wait for it:
//! it reads and rewrites segments without the writer lock and takes the lock only to swap.

use crate::log_dir::LogDir;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Kafka's default `log.cleaner.backoff.ms`: 15 seconds.
pub const DEFAULT_CLEANER_BACKOFF: Duration = Duration::from_secs(15);

/// A running cleaner thread; stopped on `shutdown` or drop.
#[derive(Debug)]
pub struct LogCleaner {
    stop: Option<mpsc::Sender<()>>,
    handle: Option<JoinHandle<()>>,
    passes: Arc<AtomicU64>,
    cleaned: Arc<AtomicU64>,
}

impl LogCleaner {
    /// Starts cleaning `dir` every `backoff`, reading the time from `now_ms`.
    pub fn start(
        dir: Arc<LogDir>,
        backoff: Duration,
        now_ms: fn() -> i64,
    ) -> std::io::Result<LogCleaner> {
        LogCleaner::start_over(move || vec![dir.clone()], backoff, now_ms)
    }

    /// Starts cleaning, every `backoff`, the log dirs `dirs` gives at each pass (the online
    /// ones of a broker with several).
    pub fn start_over(
        dirs: impl Fn() -> Vec<Arc<LogDir>> + Send + 'static,
        backoff: Duration,
        now_ms: fn() -> i64,
    ) -> std::io::Result<LogCleaner> {
        let (stop, stopped) = mpsc::channel::<()>();
        let passes = Arc::new(AtomicU64::new(0));
        let cleaned = Arc::new(AtomicU64::new(0));
        let (p, c) = (passes.clone(), cleaned.clone());
        let handle = std::thread::Builder::new().name("log-cleaner".into()).spawn(move || loop {
            let now = now_ms();
            for (dir, tp) in dirs()
                .into_iter()
                .flat_map(|d| d.partitions().into_iter().map(move |tp| (d.clone(), tp)))
            {
                let Some(log) = dir.get(&tp) else { continue };
                match log.clean(now, false) {
                    Ok(Some(stats)) => {
                        c.fetch_add(stats.segments as u64, Ordering::Relaxed);
                        tracing::info!(partition = %tp.dir_name(), ?stats, "compacted");
                    }
                    Ok(None) => {}
                    Err(e) => tracing::error!(partition = %tp.dir_name(), error = %e, "compaction failed"),
                }
                if let Err(e) = log.delete_expired_files(now) {
                    tracing::error!(partition = %tp.dir_name(), error = %e, "deleting old segment files failed");
                }
            }
            p.fetch_add(1, Ordering::Release);
            match stopped.recv_timeout(backoff) {
                Err(RecvTimeoutError::Timeout) => {}
                Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
            }
        })?;
        Ok(LogCleaner {
            stop: Some(stop),
            handle: Some(handle),
            passes,
            cleaned,
        })
    }

    /// How many passes over the log dir have finished.
    pub fn passes(&self) -> u64 {
        self.passes.load(Ordering::Acquire)
    }

    /// How many segments have been rewritten.
    pub fn segments_cleaned(&self) -> u64 {
        self.cleaned.load(Ordering::Relaxed)
    }

    /// Stops the thread and waits for it.
    pub fn shutdown(mut self) {
        self.stop_and_join();
    }

    fn stop_and_join(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl Drop for LogCleaner {
    fn drop(&mut self) {
        self.stop_and_join();
    }
}
