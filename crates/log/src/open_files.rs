//! The process's budget of open segment files. Each segment's `.log` file is opened on first
//! use and kept open while it is used; when more are open than the budget allows, the ones
//! unused longest are closed (a clock: one "used" bit per file, cleared as the hand passes,
//! and a file whose bit is clear when the hand comes round again is closed) and reopened when
//! next needed. A node with more partitions than it may have open files (30,000 on a machine
//! whose limit is 20,000) then keeps only the busy ones open.
//!
//! Closing is safe for what was written: fsync(2) on a later handle flushes every dirty page
//! of the file, and a fetch holding a handle (a file slice being sent) keeps it open until it
//! is done.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock, Weak};

/// The share of the process's open-files limit segment files may take; the rest is for
/// connections, indexes opened to be flushed, checkpoints and the metadata log.
pub const SEGMENT_SHARE_PERCENT: u64 = 75;
/// The fewest segment files kept open, whatever the limit.
pub const MIN_SEGMENT_FILES: usize = 64;

/// How many segment files may be open at once, and which are.
#[derive(Debug)]
pub struct FileBudget {
    limit: AtomicUsize,
    clock: Mutex<Clock>,
}

#[derive(Debug, Default)]
struct Clock {
    /// Every open file (and files dropped since, until the hand finds them).
    open: Vec<Weak<LazyFile>>,
    hand: usize,
}

impl FileBudget {
    /// A budget of `limit` open files (at least [`MIN_SEGMENT_FILES`]).
    pub fn new(limit: usize) -> FileBudget {
        FileBudget {
            limit: AtomicUsize::new(limit.max(MIN_SEGMENT_FILES)),
            clock: Mutex::new(Clock::default()),
        }
    }

    /// The process-wide budget: [`SEGMENT_SHARE_PERCENT`] of the open-files limit, unless
    /// [`FileBudget::set_limit`] said otherwise.
    pub fn global() -> &'static Arc<FileBudget> {
        static GLOBAL: OnceLock<Arc<FileBudget>> = OnceLock::new();
        GLOBAL.get_or_init(|| Arc::new(FileBudget::new(default_limit())))
    }

    /// The most files kept open.
    pub fn limit(&self) -> usize {
        self.limit.load(Ordering::Relaxed)
    }

    /// Changes the most files kept open (closing some at the next open if now over).
    pub fn set_limit(&self, limit: usize) {
        self.limit
            .store(limit.max(MIN_SEGMENT_FILES), Ordering::Relaxed);
    }

    /// How many files are counted open (files dropped since the hand last passed included).
    pub fn open_count(&self) -> usize {
        self.clock.lock().expect("file budget").open.len()
    }

    /// Counts `file` as open, then closes the files unused longest while over the limit.
    fn opened(&self, file: Weak<LazyFile>) {
        let mut clock = self.clock.lock().expect("file budget");
        clock.open.push(file);
        let limit = self.limit();
        // Each step drops an entry or clears a bit, so two turns are enough; files being
        // opened or used right now are passed over.
        let mut steps = 2 * clock.open.len();
        while clock.open.len() > limit && steps > 0 {
            steps -= 1;
            if clock.hand >= clock.open.len() {
                clock.hand = 0;
            }
            let hand = clock.hand;
            let Some(f) = clock.open[hand].upgrade() else {
                clock.open.swap_remove(hand);
                continue;
            };
            if f.pinned.load(Ordering::Relaxed) || f.used.swap(false, Ordering::Relaxed) {
                clock.hand += 1;
                continue;
            }
            if f.try_close() {
                clock.open.swap_remove(hand);
            } else {
                clock.hand += 1;
            }
        }
    }
}

/// The share of an open-files limit (`None`: unlimited) segment files may take.
pub fn segment_share(open_files_limit: Option<u64>) -> usize {
    let limit = open_files_limit.unwrap_or(1 << 20);
    usize::try_from(limit.saturating_mul(SEGMENT_SHARE_PERCENT) / 100).unwrap_or(usize::MAX)
}

/// The share of the process's open-files limit now.
fn default_limit() -> usize {
    segment_share(rustix::process::getrlimit(rustix::process::Resource::Nofile).current)
}

/// A segment's `.log` file, open while it is used.
#[derive(Debug)]
pub struct LazyFile {
    path: RwLock<PathBuf>,
    handle: RwLock<Option<Arc<File>>>,
    used: AtomicBool,
    /// Never closed by the budget (a segment marked deleted: its path may vanish).
    pinned: AtomicBool,
    budget: Arc<FileBudget>,
    me: Weak<LazyFile>,
}

impl LazyFile {
    /// Wraps an already open `file` at `path`, counted against `budget`.
    pub fn new(path: PathBuf, file: File, budget: Arc<FileBudget>) -> Arc<LazyFile> {
        let f = Arc::new_cyclic(|me| LazyFile {
            path: RwLock::new(path),
            handle: RwLock::new(Some(Arc::new(file))),
            used: AtomicBool::new(true),
            pinned: AtomicBool::new(false),
            budget: budget.clone(),
            me: me.clone(),
        });
        budget.opened(Arc::downgrade(&f));
        f
    }

    /// The open file, reopened (read and write) when the budget had closed it.
    pub fn get(&self) -> std::io::Result<Arc<File>> {
        self.used.store(true, Ordering::Relaxed);
        if let Some(f) = self.handle.read().expect("file handle").as_ref() {
            return Ok(f.clone());
        }
        let f = {
            let mut h = self.handle.write().expect("file handle");
            if let Some(f) = h.as_ref() {
                return Ok(f.clone());
            }
            let path = self.path();
            let f = Arc::new(OpenOptions::new().read(true).write(true).open(&path)?);
            *h = Some(f.clone());
            f
        };
        // Counted once the handle lock is released: the budget may close other files.
        self.budget.opened(self.me.clone());
        Ok(f)
    }

    /// Whether the file is open now.
    pub fn is_open(&self) -> bool {
        self.handle.read().expect("file handle").is_some()
    }

    /// The file's path.
    pub fn path(&self) -> PathBuf {
        self.path.read().expect("file path").clone()
    }

    /// The file was renamed to `path`.
    pub fn set_path(&self, path: &Path) {
        *self.path.write().expect("file path") = path.to_owned();
    }

    /// Opens the file and keeps it open from now on (its path is about to go away).
    pub fn pin(&self) -> std::io::Result<()> {
        self.pinned.store(true, Ordering::Relaxed);
        self.get().map(drop)
    }

    /// Closes the handle unless someone holds the lock now.
    fn try_close(&self) -> bool {
        match self.handle.try_write() {
            Ok(mut h) => {
                *h = None;
                true
            }
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(dir: &Path, n: usize, budget: &Arc<FileBudget>) -> Vec<Arc<LazyFile>> {
        (0..n)
            .map(|i| {
                let path = dir.join(format!("{i}.log"));
                std::fs::write(&path, format!("file {i}")).unwrap();
                let f = OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(&path)
                    .unwrap();
                LazyFile::new(path, f, budget.clone())
            })
            .collect()
    }

    fn read(f: &LazyFile) -> String {
        use std::os::unix::fs::FileExt;
        let file = f.get().unwrap();
        let mut buf = vec![0u8; 64];
        let n = file.read_at(&mut buf, 0).unwrap();
        String::from_utf8(buf[..n].to_vec()).unwrap()
    }

    #[test]
    fn never_more_open_than_the_budget_and_every_file_still_reads() {
        let dir = tempfile::tempdir().unwrap();
        let budget = Arc::new(FileBudget::new(MIN_SEGMENT_FILES));
        let all = files(dir.path(), 3 * MIN_SEGMENT_FILES, &budget);
        assert_eq!(budget.open_count(), MIN_SEGMENT_FILES);
        let open = all.iter().filter(|f| f.is_open()).count();
        assert_eq!(open, MIN_SEGMENT_FILES);
        for round in 0..3 {
            for (i, f) in all.iter().enumerate() {
                assert_eq!(read(f), format!("file {i}"), "round {round}");
                assert!(budget.open_count() <= MIN_SEGMENT_FILES);
            }
        }
    }

    #[test]
    fn a_busy_file_stays_open_while_idle_ones_are_closed() {
        let dir = tempfile::tempdir().unwrap();
        let budget = Arc::new(FileBudget::new(MIN_SEGMENT_FILES));
        let all = files(dir.path(), 4 * MIN_SEGMENT_FILES, &budget);
        let busy = &all[0];
        read(busy);
        for f in &all[1..] {
            read(f);
            read(busy);
            assert!(
                busy.is_open(),
                "the file used between every other is never closed"
            );
        }
    }

    #[test]
    fn dropped_files_leave_the_count_and_pinned_ones_stay_open() {
        let dir = tempfile::tempdir().unwrap();
        let budget = Arc::new(FileBudget::new(MIN_SEGMENT_FILES));
        let pinned = files(dir.path(), 1, &budget).remove(0);
        pinned.pin().unwrap();
        drop(files(dir.path(), 2 * MIN_SEGMENT_FILES, &budget));
        let kept = files(dir.path(), MIN_SEGMENT_FILES, &budget);
        assert!(pinned.is_open());
        assert!(budget.open_count() <= MIN_SEGMENT_FILES);
        assert!(kept.iter().filter(|f| f.is_open()).count() >= MIN_SEGMENT_FILES - 1);
    }
}
