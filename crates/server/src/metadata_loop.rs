//! The metadata loop every node runs: it folds the committed stream of the metadata log into
//! the image (published on a watch for the broker's answers), and on the KRaft leader it runs
//! the active controller: once the leader has applied everything committed, a [`Controller`]
//! starts from that image; each controller-bound request becomes records proposed as one batch
//! and is answered after they commit; timers fence brokers whose session expired. Losing
//! leadership (or a failed append) drops the controller; it starts again from the committed
//! image.

pub use fjord_broker::View;
use fjord_controller::controller::METADATA_VERSION_LATEST;
use fjord_controller::{not_controller, Controller, ControllerSettings, Handled};
use fjord_log::{monotonic_ms, system_now_ms as now_ms};
use fjord_metadata::snapshot::{batch_of, batch_records, load};
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::feature_level_record::FeatureLevelRecord;
use fjord_protocol::{error_response, ErrorCode, MetadataRecord, RequestBody, ResponseBody};
use fjord_raft::driver::{Committed, ProposeError, QuorumInfo, RaftHandle};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};

/// How often the active controller's timers run.
const CONTROLLER_TICK: Duration = Duration::from_millis(250);

/// A request for the active controller.
#[derive(Debug)]
pub struct ControllerRequest {
    /// The request.
    pub body: RequestBody,
    /// Its version.
    pub version: i16,
    /// Where the answer goes.
    pub reply: oneshot::Sender<ResponseBody>,
}

/// A handle to send requests to this node's controller (answers NOT_CONTROLLER when it is not
/// the active one).
#[derive(Debug, Clone)]
pub struct LocalController {
    tx: mpsc::UnboundedSender<ControllerRequest>,
}

impl LocalController {
    /// Handles `body` on this node's controller.
    pub async fn handle(&self, body: RequestBody, version: i16) -> ResponseBody {
        let (reply, rx) = oneshot::channel();
        let fallback = not_controller(&body, version);
        if self
            .tx
            .send(ControllerRequest {
                body,
                version,
                reply,
            })
            .is_err()
        {
            return fallback;
        }
        rx.await.unwrap_or(fallback)
    }
}

/// A request waiting for its records to commit.
struct Pending {
    reply: oneshot::Sender<ResponseBody>,
    /// The answer once committed.
    response: ResponseBody,
    request: RequestBody,
    version: i16,
}

impl Pending {
    /// Answers with the request's error response.
    fn fail(self, code: ErrorCode, message: &str) {
        let _ = self
            .reply
            .send(error_response(&self.request, self.version, code, message));
    }
}

struct Loop {
    raft: RaftHandle,
    /// `metadata.log.max.record.bytes.between.snapshots`.
    snapshot_bytes: u64,
    /// Record bytes applied since the last snapshot.
    bytes_since_snapshot: u64,
    /// A snapshot is being written.
    snapshotting: bool,
    snapshot_done: (
        mpsc::UnboundedSender<()>,
        Option<mpsc::UnboundedReceiver<()>>,
    ),
    settings: ControllerSettings,
    cluster_id: String,
    run_controller: bool,
    image: MetadataImage,
    applied_up_to: i64,
    view: watch::Sender<View>,
    controller: Option<Controller>,
    failures: mpsc::UnboundedSender<()>,
    fatal: mpsc::UnboundedSender<String>,
}

/// Builds the loop. `run_controller` is false on a broker-only node. The returned future is
/// the loop: the caller runs it as a task the node cannot live without (its end is fatal).
pub fn spawn(
    raft: RaftHandle,
    commits: mpsc::UnboundedReceiver<Committed>,
    settings: ControllerSettings,
    cluster_id: String,
    run_controller: bool,
    snapshot_bytes: u64,
    fatal: mpsc::UnboundedSender<String>,
) -> (
    watch::Receiver<View>,
    LocalController,
    impl std::future::Future<Output = ()> + Send + 'static,
) {
    let (view, view_rx) = watch::channel(View {
        image: Arc::new(MetadataImage::empty()),
        applied_up_to: 0,
    });
    let (tx, requests) = mpsc::unbounded_channel();
    let (failures, failed) = mpsc::unbounded_channel();
    let (done_tx, done_rx) = mpsc::unbounded_channel();
    let l = Loop {
        raft,
        snapshot_bytes,
        bytes_since_snapshot: 0,
        snapshotting: false,
        snapshot_done: (done_tx, Some(done_rx)),
        settings,
        cluster_id,
        run_controller,
        image: MetadataImage::empty(),
        applied_up_to: 0,
        view,
        controller: None,
        failures,
        fatal,
    };
    (
        view_rx,
        LocalController { tx },
        l.run(commits, requests, failed),
    )
}

impl Loop {
    async fn run(
        mut self,
        mut commits: mpsc::UnboundedReceiver<Committed>,
        mut requests: mpsc::UnboundedReceiver<ControllerRequest>,
        mut failed: mpsc::UnboundedReceiver<()>,
    ) {
        let mut info = self.raft.quorum_info();
        let mut snapshot_done = self.snapshot_done.1.take().expect("taken once");
        let mut tick = tokio::time::interval(CONTROLLER_TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                c = commits.recv() => {
                    let Some(c) = c else { return };
                    if let Err(e) = self.apply(c) {
                        let _ = self.fatal.send(e);
                        return;
                    }
                    // Fold a burst before publishing.
                    while let Ok(c) = commits.try_recv() {
                        if let Err(e) = self.apply(c) {
                            let _ = self.fatal.send(e);
                            return;
                        }
                    }
                    let _ = self.view.send(View {
                        image: Arc::new(self.image.clone()),
                        applied_up_to: self.applied_up_to,
                    });
                    self.maybe_snapshot();
                    let i = info.borrow().clone();
                    self.maybe_activate(&i).await;
                }
                changed = info.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    let i = info.borrow_and_update().clone();
                    if !i.is_leader {
                        self.controller = None;
                    }
                    if let Some(c) = &mut self.controller {
                        c.set_voters(i.voters.clone());
                    }
                    self.maybe_activate(&i).await;
                }
                r = requests.recv() => {
                    let Some(r) = r else { return };
                    self.handle(r).await;
                }
                _ = snapshot_done.recv() => self.snapshotting = false,
                _ = failed.recv() => {
                    // An append failed: start again from the committed image.
                    self.controller = None;
                    let i = info.borrow().clone();
                    self.maybe_activate(&i).await;
                }
                _ = tick.tick() => {
                    if let Some(c) = &mut self.controller {
                        let records = c.tick(monotonic_ms());
                        if !records.is_empty() {
                            self.propose(records, None);
                        }
                    }
                }
            }
        }
    }

    fn apply(&mut self, c: Committed) -> Result<(), String> {
        match c {
            Committed::Snapshot { id, state } => {
                self.image = load(state, id.end_offset - 1, id.epoch)?;
                self.applied_up_to = id.end_offset;
            }
            Committed::Batch { epoch, batch } => {
                self.bytes_since_snapshot += batch.size() as u64;
                let records = batch_records(&batch)
                    .map_err(|e| format!("metadata batch at {}: {e}", batch.base_offset()))?;
                let (next, _) = self
                    .image
                    .apply(&records, batch.last_offset(), epoch)
                    .map_err(|e| format!("metadata batch at {}: {e}", batch.base_offset()))?;
                self.image = next;
                self.applied_up_to = batch.last_offset() + 1;
            }
            Committed::UpTo(offset) => self.applied_up_to = self.applied_up_to.max(offset),
        }
        Ok(())
    }

    /// Writes a snapshot of the image once enough record bytes were applied since the last
    /// one (Kafka's `metadata.log.max.record.bytes.between.snapshots`); the log is then cleaned
    /// below it. Encoding and writing run off this loop.
    fn maybe_snapshot(&mut self) {
        if self.snapshotting || self.bytes_since_snapshot < self.snapshot_bytes {
            return;
        }
        self.snapshotting = true;
        self.bytes_since_snapshot = 0;
        let image = self.image.clone();
        let end = self.applied_up_to;
        let raft = self.raft.clone();
        let done = self.snapshot_done.0.clone();
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

    /// Starts the controller when this node leads and has applied everything committed.
    async fn maybe_activate(&mut self, info: &QuorumInfo) {
        if !self.run_controller || self.controller.is_some() || !info.is_leader {
            return;
        }
        if self.applied_up_to < info.high_watermark || info.high_watermark < info.log_end_offset {
            return;
        }
        let mut c = Controller::new(
            self.settings.clone(),
            self.cluster_id.clone(),
            self.image.clone(),
            monotonic_ms(),
        );
        c.set_voters(info.voters.clone());
        tracing::info!(epoch = info.epoch, "this node is the active controller");
        let bootstrap = c.image().features.metadata_version().is_none();
        self.controller = Some(c);
        if bootstrap {
            // A new cluster: the first active controller sets metadata.version.
            let records = vec![MetadataRecord::FeatureLevel(FeatureLevelRecord {
                name: fjord_metadata::image::METADATA_VERSION.into(),
                feature_level: METADATA_VERSION_LATEST,
                ..Default::default()
            })];
            if let Some(c) = &mut self.controller {
                if c.apply(&records).is_ok() {
                    self.propose(records, None);
                }
            }
        }
    }

    /// Proposes `records` as one batch; answers the request in `pending` with its response
    /// once committed, with NOT_CONTROLLER when the append fails, or with POLICY_VIOLATION
    /// when the batch is larger than the metadata log takes (nothing is written and the
    /// controller starts again from the committed image).
    fn propose(&mut self, records: Vec<MetadataRecord>, pending: Option<Pending>) {
        let failure = self.failures.clone();
        let rx = batch_of(&records, now_ms())
            .map_err(|e| ProposeError::Invalid(e.to_string()))
            .and_then(|b| self.raft.propose_nowait(b));
        match rx {
            Ok(rx) => {
                tokio::spawn(async move {
                    let committed = matches!(rx.await, Ok(Ok(_)));
                    if !committed {
                        let _ = failure.send(());
                    }
                    if let Some(p) = pending {
                        if committed {
                            let _ = p.reply.send(p.response);
                        } else {
                            p.fail(
                                ErrorCode::NotController,
                                "The controller lost its leadership before the change \
                                 committed; retry.",
                            );
                        }
                    }
                });
            }
            Err(e) => {
                tracing::warn!("could not propose a metadata batch: {e}");
                self.controller = None;
                if let Some(p) = pending {
                    let code = match e {
                        ProposeError::TooLarge { .. } => ErrorCode::PolicyViolation,
                        _ => ErrorCode::NotController,
                    };
                    p.fail(code, &e.to_string());
                }
            }
        }
    }

    async fn handle(&mut self, r: ControllerRequest) {
        let Some(c) = &mut self.controller else {
            let _ = r.reply.send(not_controller(&r.body, r.version));
            return;
        };
        match c.handle(&r.body, r.version, monotonic_ms()) {
            Handled::Reply(resp) => {
                let _ = r.reply.send(resp);
            }
            Handled::Refuse { code, message } => {
                let _ = r
                    .reply
                    .send(error_response(&r.body, r.version, code, &message));
            }
            Handled::Write { records, response } => self.propose(
                records,
                Some(Pending {
                    reply: r.reply,
                    response,
                    request: r.body,
                    version: r.version,
                }),
            ),
            Handled::Register(plan) => {
                let build_plan = plan.clone();
                let built = self
                    .raft
                    .propose_at(Box::new(move |offset| {
                        batch_of(&build_plan.records(offset), now_ms()).unwrap_or_default()
                    }))
                    .await;
                match built {
                    Ok((offset, committed)) => {
                        let registered = self
                            .controller
                            .as_mut()
                            .map(|c| c.registered(&plan, offset));
                        if !matches!(registered, Some(Ok(_))) {
                            let _ = self.failures.send(());
                        }
                        let response = plan.response(offset);
                        let failure = self.failures.clone();
                        tokio::spawn(async move {
                            let ok = matches!(committed.await, Ok(Ok(_)));
                            if !ok {
                                let _ = failure.send(());
                            }
                            let answer = if ok {
                                response
                            } else {
                                error_response(
                                    &r.body,
                                    r.version,
                                    ErrorCode::NotController,
                                    "The controller lost its leadership before the \
                                     registration committed; retry.",
                                )
                            };
                            let _ = r.reply.send(answer);
                        });
                    }
                    Err(e) => {
                        self.controller = None;
                        let _ = r.reply.send(error_response(
                            &r.body,
                            r.version,
                            ErrorCode::NotController,
                            &e.to_string(),
                        ));
                    }
                }
            }
        }
    }
}
