//! The image loader every node runs: it folds the committed stream of the metadata log into
//! the image and publishes it on a watch ([`View`]) for the broker's answers and the active
//! controller, each publication with what changed since the one before (the [`Changes`] of
//! its batches merged, or a full delta when a snapshot loaded; a follower applies only those,
//! see `fjord_metadata::delta`), and writes a metadata snapshot every
//! `metadata.log.max.record.bytes.between.snapshots` of applied records (encoded and written
//! off this task). It does nothing else, so no controller work can hold the image back.

use crate::driver::{Committed, RaftHandle};
use fjord_metadata::delta::{MetadataDelta, Publication};
use fjord_metadata::snapshot::{batch_records, load};
pub use fjord_metadata::view::View;
use fjord_metadata::{Changes, MetadataImage};
use fjord_util::system_now_ms as now_ms;
use std::sync::Arc;
use tokio::sync::{mpsc, watch};

/// Why the loader stopped: the node cannot go on without its image.
#[derive(Debug, thiserror::Error)]
pub enum LoaderError {
    /// A committed snapshot or batch did not decode or apply.
    #[error("metadata batch at offset {offset}: {message}")]
    Apply {
        /// The batch's (or snapshot's) offset.
        offset: i64,
        /// What went wrong.
        message: String,
    },
    /// The committed stream ended (the Raft driver stopped).
    #[error("the committed stream of the metadata log ended")]
    Ended,
}

/// The loader's state.
struct Loader {
    raft: RaftHandle,
    snapshot_bytes: u64,
    bytes_since_snapshot: u64,
    snapshotting: bool,
    image: MetadataImage,
    applied_up_to: i64,
    /// The `kraft.version` the Raft layer last reported; every image carries it.
    kraft_version: i16,
    view: watch::Sender<View>,
    /// What the records folded since the last publication changed.
    pending: MetadataDelta,
    /// The last publication.
    publication: Publication,
}

/// The loader: its view, and the task to run (which ends only with an error).
/// `snapshot_bytes` is `metadata.log.max.record.bytes.between.snapshots`.
pub fn loader(
    raft: RaftHandle,
    commits: mpsc::UnboundedReceiver<Committed>,
    snapshot_bytes: u64,
) -> (
    watch::Receiver<View>,
    impl std::future::Future<Output = LoaderError> + Send + 'static,
) {
    let first = View::new(Arc::new(MetadataImage::empty()), 0);
    let publication = first.publication.clone();
    let (view, view_rx) = watch::channel(first);
    let l = Loader {
        raft,
        snapshot_bytes,
        bytes_since_snapshot: 0,
        snapshotting: false,
        image: MetadataImage::empty(),
        applied_up_to: 0,
        kraft_version: 0,
        view,
        pending: MetadataDelta::default(),
        publication,
    };
    (view_rx, l.run(commits))
}

impl Loader {
    async fn run(mut self, mut commits: mpsc::UnboundedReceiver<Committed>) -> LoaderError {
        let (done_tx, mut done) = mpsc::unbounded_channel::<()>();
        loop {
            tokio::select! {
                c = commits.recv() => {
                    let Some(c) = c else { return LoaderError::Ended };
                    if let Err(e) = self.apply(c) {
                        return e;
                    }
                    // Fold a burst before publishing.
                    while let Ok(c) = commits.try_recv() {
                        if let Err(e) = self.apply(c) {
                            return e;
                        }
                    }
                    self.publish();
                    self.maybe_snapshot(&done_tx);
                }
                _ = done.recv() => self.snapshotting = false,
            }
        }
    }

    fn apply(&mut self, c: Committed) -> Result<(), LoaderError> {
        match c {
            Committed::Snapshot { id, state } => {
                self.image =
                    load(state, id.end_offset - 1, id.epoch).map_err(|e| LoaderError::Apply {
                        offset: id.end_offset,
                        message: e.to_string(),
                    })?;
                self.applied_up_to = id.end_offset;
                self.pending = MetadataDelta::full();
            }
            Committed::Batch { epoch, batch } => {
                self.bytes_since_snapshot += batch.size() as u64;
                let offset = batch.base_offset();
                let fail = |message: String| {
                    tracing::error!(
                        offset,
                        "a committed metadata batch does not apply: {message}"
                    );
                    LoaderError::Apply { offset, message }
                };
                let records = batch_records(&batch).map_err(|e| fail(e.to_string()))?;
                let (next, changes) = self
                    .image
                    .apply(&records, batch.last_offset(), epoch)
                    .map_err(|e| fail(e.to_string()))?;
                self.image = next;
                self.applied_up_to = batch.last_offset() + 1;
                self.changed(changes);
            }
            Committed::UpTo(offset) => self.applied_up_to = self.applied_up_to.max(offset),
            Committed::KraftVersion(level) => self.kraft_version = level,
        }
        if self.image.features.kraft_version != self.kraft_version {
            std::sync::Arc::make_mut(&mut self.image.features).kraft_version = self.kraft_version;
        }
        Ok(())
    }

    /// Adds what a batch changed to what the next publication says.
    fn changed(&mut self, changes: Changes) {
        if !self.pending.full {
            self.pending.changes.merge(&changes);
        }
    }

    /// Publishes the image with what changed since the last publication.
    fn publish(&mut self) {
        let delta = std::mem::take(&mut self.pending);
        self.publication = self.publication.next(delta);
        self.view.send_replace(View {
            image: Arc::new(self.image.clone()),
            applied_up_to: self.applied_up_to,
            publication: self.publication.clone(),
        });
    }

    /// Writes a snapshot of the image once enough record bytes were applied since the last
    /// one; the log is then cleaned below it. Encoding and writing run off this task.
    fn maybe_snapshot(&mut self, done: &mpsc::UnboundedSender<()>) {
        if self.snapshotting || self.bytes_since_snapshot < self.snapshot_bytes {
            return;
        }
        self.snapshotting = true;
        self.bytes_since_snapshot = 0;
        let image = self.image.clone();
        let end = self.applied_up_to;
        let raft = self.raft.clone();
        let done = done.clone();
        tokio::spawn(async move {
            let state = tokio::task::spawn_blocking(move || {
                fjord_metadata::snapshot::image_batches(&image, now_ms())
            })
            .await;
            match state {
                Ok(Ok(state)) => match raft.create_snapshot(end, state).await {
                    Ok(id) => tracing::info!(
                        end_offset = id.end_offset,
                        epoch = id.epoch,
                        "wrote a metadata snapshot"
                    ),
                    Err(e) => tracing::warn!("metadata snapshot at {end}: {e}"),
                },
                Ok(Err(e)) => tracing::warn!("encoding a metadata snapshot: {e}"),
                Err(e) => tracing::warn!("encoding a metadata snapshot: {e}"),
            }
            let _ = done.send(());
        });
    }
}
