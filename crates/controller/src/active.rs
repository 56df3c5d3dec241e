//! The active controller's task, on every controller node: when this node leads the KRaft
//! quorum and the loaded image has caught up with everything committed, a [`Controller`]
//! starts from that image (a new generation); each controller-bound request becomes records
//! proposed as one batch and is answered once they commit; timers fence brokers whose session
//! expired. Losing leadership, or a failed append of the current generation, drops the
//! controller; it starts again from the committed image. It only reads the image the loader
//! publishes, so a slow or failing controller never holds back the broker's view.

use crate::controller::{not_controller, Controller, Handled};
use crate::settings::ControllerSettings;
use fjord_kraft::driver::{ProposeError, QuorumInfo, RaftHandle};
use fjord_metadata::snapshot::batch_at;
use fjord_metadata::version::MetadataVersion;
use fjord_metadata::view::View;
use fjord_protocol::generated::feature_level_record::FeatureLevelRecord;
use fjord_protocol::{error_response, ErrorCode, MetadataRecord, RequestBody, ResponseBody};
use fjord_util::{monotonic_ms, system_now_ms as now_ms};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};

/// How often the active controller's timers run.
pub const CONTROLLER_TICK: Duration = Duration::from_millis(100);
/// The most broker connection losses waiting for the controller task (more are dropped: the
/// session timeout still fences those brokers).
pub const MAX_QUEUED_CONNECTION_LOSSES: usize = 1024;
/// The most requests waiting for the controller task; senders wait beyond it (each connection
/// has at most one request in flight, so this only bounds a burst).
pub const MAX_QUEUED_REQUESTS: usize = 4096;

/// A request for the active controller.
#[derive(Debug)]
pub struct ControllerRequest {
    /// The request.
    pub body: RequestBody,
    /// Its version.
    pub version: i16,
    /// Where the answer goes.
    pub reply: oneshot::Sender<ResponseBody>,
    /// Who asks (`Type:name`), for the requests whose answer depends on it.
    pub principal: Option<String>,
}

/// How long the active controller's batches took from proposal to commit.
#[derive(Debug, Default)]
pub struct CommitLatency {
    count: std::sync::atomic::AtomicU64,
    total_us: std::sync::atomic::AtomicU64,
    max_us: std::sync::atomic::AtomicU64,
}

impl CommitLatency {
    fn record(&self, elapsed: Duration) {
        use std::sync::atomic::Ordering::Relaxed;
        let us = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
        self.count.fetch_add(1, Relaxed);
        self.total_us.fetch_add(us, Relaxed);
        self.max_us.fetch_max(us, Relaxed);
    }

    /// (average, maximum) in milliseconds over every committed batch so far.
    pub fn average_and_max_ms(&self) -> (f64, f64) {
        use std::sync::atomic::Ordering::Relaxed;
        let n = self.count.load(Relaxed);
        let avg = if n == 0 {
            0.0
        } else {
            self.total_us.load(Relaxed) as f64 / n as f64 / 1_000.0
        };
        (avg, self.max_us.load(Relaxed) as f64 / 1_000.0)
    }
}

/// What the metrics endpoint reads of this node's controller.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ControllerStats {
    /// True while this node is the active controller.
    pub active: bool,
    /// Its event counters, summed over every time it was active.
    pub counters: crate::controller::Counters,
}

/// A handle to send requests to this node's controller (answers NOT_CONTROLLER when it is not
/// the active one).
#[derive(Debug, Clone)]
pub struct LocalController {
    tx: mpsc::Sender<ControllerRequest>,
    lost: mpsc::Sender<i32>,
    stats: watch::Receiver<ControllerStats>,
    latency: std::sync::Arc<CommitLatency>,
}

impl LocalController {
    /// Whether this node's controller is active, and its counters.
    pub fn stats(&self) -> ControllerStats {
        self.stats.borrow().clone()
    }

    /// Proposal-to-commit times of the batches this node proposed as the active controller.
    pub fn commit_latency(&self) -> &CommitLatency {
        &self.latency
    }

    /// The connection that carried broker `id`'s heartbeats to this node closed (see
    /// [`Controller::connection_lost`]).
    pub fn broker_connection_lost(&self, id: i32) {
        if self.lost.try_send(id).is_err() {
            tracing::debug!(
                broker = id,
                "connection-loss queue full; the session timeout applies"
            );
        }
    }

    /// Handles `body` on this node's controller.
    pub async fn handle(&self, body: RequestBody, version: i16) -> ResponseBody {
        self.handle_as(body, version, None).await
    }

    /// Handles `body` on this node's controller on behalf of `principal` (`Type:name`; the
    /// delegation-token requests need it).
    pub async fn handle_as(
        &self,
        body: RequestBody,
        version: i16,
        principal: Option<String>,
    ) -> ResponseBody {
        let (reply, rx) = oneshot::channel();
        let fallback = not_controller(&body, version);
        let request = ControllerRequest {
            body,
            version,
            reply,
            principal,
        };
        if self.tx.send(request).await.is_err() {
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

struct Active {
    raft: RaftHandle,
    settings: ControllerSettings,
    cluster_id: String,
    view: watch::Receiver<View>,
    controller: Option<Controller>,
    /// Counts activations; a failure is only acted on by the generation that caused it.
    generation: u64,
    failures: mpsc::UnboundedSender<u64>,
    /// Counters of earlier generations.
    carried: crate::controller::Counters,
    stats: watch::Sender<ControllerStats>,
    latency: std::sync::Arc<CommitLatency>,
}

/// The active-controller task and its handle; the caller runs the task as one the node cannot
/// live without.
pub fn active_controller(
    raft: RaftHandle,
    view: watch::Receiver<View>,
    settings: ControllerSettings,
    cluster_id: String,
) -> (
    LocalController,
    impl std::future::Future<Output = ()> + Send + 'static,
) {
    let (tx, requests) = mpsc::channel(MAX_QUEUED_REQUESTS);
    let (lost, losses) = mpsc::channel(MAX_QUEUED_CONNECTION_LOSSES);
    let (failures, failed) = mpsc::unbounded_channel();
    let (stats, stats_rx) = watch::channel(ControllerStats::default());
    let latency = std::sync::Arc::new(CommitLatency::default());
    let a = Active {
        raft,
        settings,
        cluster_id,
        view,
        controller: None,
        generation: 0,
        failures,
        carried: Default::default(),
        stats,
        latency: latency.clone(),
    };
    (
        LocalController {
            tx,
            lost,
            stats: stats_rx,
            latency,
        },
        a.run(requests, losses, failed),
    )
}

impl Active {
    /// Publishes whether this node is active and the counters (the current generation's on
    /// top of the earlier ones').
    fn publish_stats(&self) {
        let stats = ControllerStats {
            active: self.controller.is_some(),
            counters: self
                .controller
                .as_ref()
                .map_or(self.carried.clone(), |c| self.carried.plus(&c.counters)),
        };
        self.stats.send_if_modified(|s| {
            let changed = *s != stats;
            *s = stats;
            changed
        });
    }

    /// Drops the controller, keeping its counters.
    fn drop_controller(&mut self) {
        if let Some(c) = self.controller.take() {
            self.carried = self.carried.plus(&c.counters);
        }
    }

    async fn run(
        mut self,
        mut requests: mpsc::Receiver<ControllerRequest>,
        mut losses: mpsc::Receiver<i32>,
        mut failed: mpsc::UnboundedReceiver<u64>,
    ) {
        let mut info = self.raft.quorum_info();
        let mut tick = tokio::time::interval(CONTROLLER_TICK);
        // Expired delegation tokens are swept at the first tick, then every
        // `delegation.token.expiry.check.interval.ms`.
        let mut next_token_sweep = 0i64;
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                changed = info.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    let i = info.borrow_and_update().clone();
                    if !i.is_leader {
                        self.drop_controller();
                    }
                    if let Some(c) = &mut self.controller {
                        c.set_voters(i.voters.clone());
                    }
                    self.maybe_activate(&i);
                }
                changed = self.view.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    let i = info.borrow().clone();
                    self.maybe_activate(&i);
                }
                r = requests.recv() => {
                    let Some(r) = r else { return };
                    self.handle(r).await;
                }
                Some(id) = losses.recv() => {
                    if let Some(c) = &mut self.controller {
                        tracing::info!(broker = id, "the connection carrying broker {id}'s heartbeats closed");
                        c.connection_lost(id, monotonic_ms());
                    }
                }
                g = failed.recv() => {
                    let Some(g) = g else { return };
                    if g == self.generation && self.controller.is_some() {
                        // An append of this generation failed: start again from the
                        // committed image.
                        tracing::info!(generation = g, "a metadata append failed; the controller starts again from the committed image");
                        self.drop_controller();
                        let i = info.borrow().clone();
                        self.maybe_activate(&i);
                    }
                }
                _ = tick.tick() => {
                    if let Some(c) = &mut self.controller {
                        let mv = c.metadata_version();
                        let mut records = c.tick(monotonic_ms());
                        let wall = now_ms();
                        if wall >= next_token_sweep {
                            next_token_sweep = wall.saturating_add(c.settings.tokens.check_interval_ms.max(1));
                            records.extend(c.sweep_tokens(wall));
                        }
                        if !records.is_empty() {
                            self.propose(records, mv, None);
                        }
                    }
                    self.publish_stats();
                }
            }
        }
    }

    /// Starts the controller when this node leads and the loaded image holds everything
    /// committed (and nothing is in flight).
    fn maybe_activate(&mut self, info: &QuorumInfo) {
        if self.controller.is_some() || !info.is_leader {
            return;
        }
        let (image, applied_up_to) = {
            let v = self.view.borrow();
            (v.image.clone(), v.applied_up_to)
        };
        if applied_up_to < info.high_watermark || info.high_watermark < info.log_end_offset {
            return;
        }
        self.generation += 1;
        let mut c = Controller::new(
            self.settings.clone(),
            self.cluster_id.clone(),
            (*image).clone(),
            monotonic_ms(),
        );
        c.set_voters(info.voters.clone());
        c.topic_id_salt = fjord_protocol::Uuid::new_v4().as_u128();
        tracing::info!(
            epoch = info.epoch,
            generation = self.generation,
            "this node is the active controller"
        );
        let bootstrap = c.image().features.metadata_version().is_none();
        self.controller = Some(c);
        if bootstrap {
            // A new cluster: the first active controller sets metadata.version.
            let mut records = vec![MetadataRecord::FeatureLevel(FeatureLevelRecord {
                name: fjord_metadata::image::METADATA_VERSION.into(),
                feature_level: self.settings.bootstrap_metadata_version,
                ..Default::default()
            })];
            records.extend(self.settings.bootstrap_records.iter().cloned());
            // Features the bootstrap records leave out start at the release's defaults.
            for (name, level) in fjord_metadata::version::bootstrap_features(
                self.settings.bootstrap_metadata_version,
            ) {
                let named = self
                    .settings
                    .bootstrap_records
                    .iter()
                    .any(|r| matches!(r, MetadataRecord::FeatureLevel(f) if f.name == name));
                if !named && level > 0 {
                    records.push(MetadataRecord::FeatureLevel(FeatureLevelRecord {
                        name,
                        feature_level: level,
                        ..Default::default()
                    }));
                }
            }
            if let Some(c) = &mut self.controller {
                let mv = c.metadata_version();
                if c.apply(&records).is_ok() {
                    self.propose(records, mv, None);
                }
            }
        }
    }

    /// Proposes `records` as one batch; answers the request in `pending` with its response
    /// once committed, with NOT_CONTROLLER when the append fails, or with POLICY_VIOLATION
    /// when the batch is larger than the metadata log takes (nothing is written and the
    /// controller starts again from the committed image).
    fn propose(
        &mut self,
        records: Vec<MetadataRecord>,
        mv: MetadataVersion,
        pending: Option<Pending>,
    ) {
        let failure = self.failures.clone();
        let generation = self.generation;
        let rx = batch_at(&records, mv, now_ms())
            .map_err(|e| ProposeError::Invalid(e.to_string()))
            .and_then(|b| self.raft.propose_nowait(b));
        let proposed = std::time::Instant::now();
        let latency = self.latency.clone();
        match rx {
            Ok(rx) => {
                tokio::spawn(async move {
                    let committed = matches!(rx.await, Ok(Ok(_)));
                    if committed {
                        latency.record(proposed.elapsed());
                    }
                    if !committed {
                        let _ = failure.send(generation);
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
                tracing::warn!(generation, "could not propose a metadata batch: {e}");
                self.drop_controller();
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

    /// UpdateFeatures of kraft.version: the quorum's leader moves the voters into the log
    /// (this node leads it: the active controller runs on the quorum's leader). Once that
    /// commits, the other features' `records` are to be written as any change is: the
    /// request comes back with what the controller makes of them. A refusal answers the
    /// whole request, in Kafka's words, and nothing comes back.
    async fn upgrade_kraft(
        &mut self,
        r: ControllerRequest,
        level: i16,
        validate_only: bool,
        records: Vec<MetadataRecord>,
        response: ResponseBody,
    ) -> Option<(ControllerRequest, Handled)> {
        if let Err(f) = self.raft.upgrade_kraft_version(level, validate_only).await {
            let message = format!(
                "The update failed for all features since the following feature had an \
                 error: Invalid update version {level} for feature {}. {}",
                fjord_metadata::version::KRAFT_VERSION,
                f.message
            );
            let code = match f.code {
                ErrorCode::NotLeaderOrFollower => ErrorCode::NotController,
                ErrorCode::RequestTimedOut => ErrorCode::RequestTimedOut,
                _ => ErrorCode::InvalidUpdateVersion,
            };
            let _ = r
                .reply
                .send(error_response(&r.body, r.version, code, &message));
            return None;
        }
        match &mut self.controller {
            Some(c) => Some((r, c.write(records, response))),
            None => {
                let _ = r.reply.send(not_controller(&r.body, r.version));
                None
            }
        }
    }

    async fn handle(&mut self, r: ControllerRequest) {
        let Some(c) = &mut self.controller else {
            let _ = r.reply.send(not_controller(&r.body, r.version));
            return;
        };
        let mv = c.metadata_version();
        let principal = r.principal.as_deref().unwrap_or("User:ANONYMOUS");
        let handled = c.handle_as(&r.body, r.version, monotonic_ms(), principal, now_ms());
        self.answer(r, handled, mv).await
    }

    /// Carries out what the controller made of request `r`: answers it now, or after its
    /// records (or the quorum's kraft.version change) commit.
    async fn answer(&mut self, r: ControllerRequest, handled: Handled, mv: MetadataVersion) {
        match handled {
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
                mv,
                Some(Pending {
                    reply: r.reply,
                    response,
                    request: r.body,
                    version: r.version,
                }),
            ),
            Handled::UpgradeKraft {
                level,
                validate_only,
                records,
                response,
            } => {
                let next = self
                    .upgrade_kraft(r, level, validate_only, records, response)
                    .await;
                // The follow-up is a write or an answer (never another kraft change).
                if let Some((r, next)) = next {
                    Box::pin(self.answer(r, next, mv)).await;
                }
            }
            Handled::Register(plan) => {
                let build_plan = plan.clone();
                let built = self
                    .raft
                    .propose_at(Box::new(move |offset| {
                        batch_at(&build_plan.records(offset), mv, now_ms()).unwrap_or_default()
                    }))
                    .await;
                let generation = self.generation;
                match built {
                    Ok((offset, committed)) => {
                        let registered = self
                            .controller
                            .as_mut()
                            .map(|c| c.registered(&plan, offset));
                        if !matches!(registered, Some(Ok(_))) {
                            let _ = self.failures.send(generation);
                        }
                        let response = plan.response(offset);
                        let failure = self.failures.clone();
                        tokio::spawn(async move {
                            let ok = matches!(committed.await, Ok(Ok(_)));
                            if !ok {
                                let _ = failure.send(generation);
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
                        self.drop_controller();
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
