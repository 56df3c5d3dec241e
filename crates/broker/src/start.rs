//! The broker's front door: [`Broker::start`] opens the broker's partitions over its log dirs
//! and starts every part that keeps them (the replica manager following metadata deltas, log
//! upkeep, the group, transaction and share coordinators, registration and heartbeats,
//! replication); the [`BrokerHandle`] it returns gives the handler for each listener, what
//! the metrics endpoint reads, and the graceful stop. The server only parses config, binds
//! listeners and composes this with the controller and the metrics.

use crate::api::describe_configs::StaticConfig;
use crate::api::listener::BrokerHandler;
use crate::cluster::controller_client::ControllerClient;
use crate::cluster::lifecycle::{self, Advertised, BrokerIdentity, BrokerState};
use crate::cluster::peers::Peers;
use crate::coordinator::group_coordinator::{CoordinatorConfig, GroupCoordinator};
use crate::coordinator::producer_ids::ProducerIds;
use crate::coordinator::runtime::{CoordinatorShard, Runtime};
use crate::coordinator::txn_coordinator::{MarkerWriter, TxnCoordinator, TxnCoordinatorConfig};
use crate::data::fetch_session::SessionCache;
use crate::data::quotas::BrokerQuotas;
use crate::error::BrokerError;
use crate::replica::log_dirs::LogDirs;
use crate::replica::maintenance::{spawn_log_maintenance, MaintenanceSettings};
use crate::replica::replica_fetcher::{FetcherSettings, ReplicaFetchers};
use crate::replica::replica_manager::{ReplicaManager, ReplicationSettings};
use crate::share::coordinator::{ShareCoordinator, ShareCoordinatorConfig};
use crate::share::fetch::{ShareFetcher, ShareLeaderConfig};
use crate::share::persister::Persister;
use crate::View;
use fjord_util::tasks::Fatal;
use fjord_util::Clock;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{watch, Mutex};

/// How long a graceful stop waits for the controller to acknowledge the controlled shutdown.
const CONTROLLED_SHUTDOWN_WAIT: Duration = Duration::from_secs(5);

/// Everything the broker role is configured with, typed once by the server.
#[derive(Debug, Clone)]
pub struct BrokerConfig {
    /// `node.id`.
    pub node_id: i32,
    /// The cluster id from `meta.properties`.
    pub cluster_id: String,
    /// This process's incarnation (a new one on every start).
    pub incarnation: fjord_protocol::Uuid,
    /// The broker listeners as registered (bound ports filled in); the first one names the
    /// handler until a listener gets its own copy.
    pub listeners: Vec<Advertised>,
    /// `log.dirs`.
    pub log_dirs: Vec<PathBuf>,
    /// `num.recovery.threads.per.data.dir`: the threads that open each dir's logs at start.
    pub recovery_threads: usize,
    /// The broker-level `log.*` defaults topic configs override.
    pub log: fjord_log::LogConfig,
    /// Retention, producer expiry and checkpoint intervals.
    pub maintenance: MaintenanceSettings,
    /// `replica.lag.time.max.ms`, `min.insync.replicas`.
    pub replication: ReplicationSettings,
    /// The replica fetchers' settings (on the inter-broker listener, with its security).
    pub fetchers: FetcherSettings,
    /// The group coordinator's settings.
    pub coordinator: CoordinatorConfig,
    /// The transaction coordinator's settings.
    pub transactions: TxnCoordinatorConfig,
    /// The share coordinator's settings.
    pub share_states: ShareCoordinatorConfig,
    /// The share-partition leaders' settings.
    pub share_leaders: ShareLeaderConfig,
    /// `max.incremental.fetch.session.cache.slots`.
    pub fetch_session_slots: usize,
    /// `min.incremental.fetch.session.eviction.ms`.
    pub fetch_session_eviction_ms: i64,
    /// `auto.create.topics.enable`.
    pub auto_create_topics: bool,
    /// `broker.rack`.
    pub rack: Option<String>,
    /// `broker.heartbeat.interval.ms`.
    pub heartbeat_interval: Duration,
    /// Tiered storage's settings (None: `remote.log.storage.system.enable` is off).
    pub tiering: Option<crate::tiered::TieringConfig>,
    /// The static configuration DescribeConfigs shows.
    pub static_config: StaticConfig,
    /// `telemetry.max.bytes` and `metrics.client.max.series`.
    pub telemetry: fjord_telemetry::Settings,
}

/// What the broker is given by the node it runs in.
#[derive(Clone)]
pub struct BrokerDeps {
    /// The metadata view the loader publishes.
    pub view: watch::Receiver<View>,
    /// The active controller.
    pub controller: Arc<ControllerClient>,
    /// Where every part reads time and sleeps.
    pub clock: Clock,
    /// The client quota sensors (shared with the metrics endpoint).
    pub quotas: Arc<BrokerQuotas>,
    /// The authorizer's settings; `None` without `authorizer.class.name`.
    pub authorizer: Option<Arc<fjord_metadata::acls::AuthorizerSettings>>,
    /// Where the tasks the node cannot live without report their end.
    pub fatal: Fatal,
}

/// The broker role: see [`Broker::start`].
pub struct Broker;

/// A running broker.
pub struct BrokerHandle {
    identity: BrokerIdentity,
    state: Arc<Mutex<BrokerState>>,
    replicas: Arc<ReplicaManager>,
    cleaner: fjord_log::cleaner::LogCleaner,
    coordinators: Coordinators,
    handler: BrokerHandler,
}

/// What the metrics endpoint reads from a running broker.
#[derive(Clone)]
pub struct Metered {
    /// The hosted partitions.
    pub replicas: Arc<ReplicaManager>,
    /// The group coordinator.
    pub groups: Arc<GroupCoordinator>,
    /// The transaction coordinator.
    pub transactions: Arc<TxnCoordinator>,
    /// The share-partition leaders.
    pub share_fetcher: Arc<ShareFetcher>,
    /// Client telemetry: the pushed series and the `client-metrics` counters.
    pub telemetry: Arc<crate::api::telemetry::ClientTelemetry>,
}

/// The broker's coordinators and their links.
struct Coordinators {
    groups: Arc<GroupCoordinator>,
    transactions: Arc<TxnCoordinator>,
    share_states: Arc<ShareCoordinator>,
    share_fetcher: Arc<ShareFetcher>,
    markers: Arc<MarkerWriter>,
}

impl Broker {
    /// Opens the log dirs (off the async workers; a dir that cannot be opened is offline from
    /// the start) and starts the broker's parts, each a task the node cannot live without.
    /// The broker registers at once; it serves once the caller opens its listeners with
    /// [`BrokerHandle::handler`], after [`BrokerHandle::create_partitions`].
    pub async fn start(
        config: BrokerConfig,
        deps: BrokerDeps,
    ) -> Result<BrokerHandle, BrokerError> {
        let (paths, defaults) = (config.log_dirs.clone(), config.log.clone());
        let threads = config.recovery_threads;
        let open_defaults = defaults.clone();
        let opening = std::time::Instant::now();
        // Each log opens with its topic's settings as the image has them now, or the node's
        // defaults when the image does not know the topic yet: on a node with tiered storage
        // on, a log then keeps a log start below its first local segment until its settings
        // arrive, which raise it for a topic that does not tier.
        let open_image = deps.view.borrow().image.clone();
        let dirs = tokio::task::spawn_blocking(move || {
            LogDirs::open(
                &paths,
                |tp| match open_image.topics.get_by_name(&tp.topic) {
                    Some(_) => crate::replica::replica_manager::log_config(
                        &open_defaults,
                        &open_image,
                        &tp.topic,
                    ),
                    None => open_defaults.clone(),
                },
                threads,
            )
        })
        .await
        .map_err(BrokerError::task("opening the log dirs"))??;
        let hosted: usize = dirs
            .all()
            .iter()
            .filter_map(|d| d.logs())
            .map(|l| l.len())
            .sum();
        tracing::info!(
            partitions = hosted,
            elapsed_ms = opening.elapsed().as_millis() as u64,
            "opened the partition logs"
        );
        let identity = BrokerIdentity {
            previous_broker_epoch: dirs.clean_shutdown_broker_epoch().unwrap_or(-1),
            node_id: config.node_id,
            cluster_id: config.cluster_id.clone(),
            incarnation: config.incarnation,
            listeners: config.listeners.clone(),
            rack: config.rack.clone(),
            log_dirs: dirs.ids(),
            dir_health: dirs.health(),
            heartbeat_interval: config.heartbeat_interval,
        };
        let replicas = Arc::new(
            ReplicaManager::with_dirs(config.node_id, Arc::new(dirs), defaults)
                .with_replication(config.replication.clone()),
        );
        let (follower, view) = (replicas.clone(), deps.view.clone());
        deps.fatal.spawn_with_reason(
            "replica manager",
            async move { follower.follow(view).await },
        );
        spawn_tiering(&config, &deps, &replicas)?;
        let cleaner = spawn_log_maintenance(&config.maintenance, &replicas, &deps.fatal)?;
        let coordinators = spawn_coordinators(&config, &deps, &replicas);
        let state = BrokerState::unregistered();
        let handler = handler(&config, &deps, (&replicas, &coordinators, &state))?;
        lifecycle::spawn_broker(
            identity.clone(),
            deps.controller.clone(),
            deps.view.clone(),
            state.clone(),
        );
        spawn_replication(&config, &deps, &replicas, &state);
        Ok(BrokerHandle {
            identity,
            state,
            replicas,
            cleaner,
            coordinators,
            handler,
        })
    }
}

impl BrokerHandle {
    /// The handler of the listener `listener_name` (brokers' endpoints of that name are what
    /// Metadata answers with).
    pub fn handler(&self, listener_name: &str) -> BrokerHandler {
        BrokerHandler {
            listener_name: listener_name.to_owned(),
            ..self.handler.clone()
        }
    }

    /// Creates the partitions `view` gives this broker (off the async workers), so they exist
    /// before the first client arrives.
    pub async fn create_partitions(&self, view: View) -> Result<(), BrokerError> {
        let rm = self.replicas.clone();
        tokio::task::spawn_blocking(move || rm.apply_view(&view))
            .await
            .map_err(BrokerError::task("creating the broker's partitions"))?
            .map_err(|e| BrokerError::Partitions(e.to_string()))
    }

    /// What the metrics endpoint reads.
    pub fn metered(&self) -> Metered {
        Metered {
            replicas: self.replicas.clone(),
            groups: self.coordinators.groups.clone(),
            transactions: self.coordinators.transactions.clone(),
            share_fetcher: self.coordinators.share_fetcher.clone(),
            telemetry: self.handler.telemetry.clone(),
        }
    }

    /// A graceful stop: a controlled shutdown; long polls answered with what they have and
    /// group waits with NOT_COORDINATOR; then `close_listeners` (the caller answers the
    /// requests in flight and closes its listeners); then the cleaner stopped (its pass
    /// finishes) and every log flushed with its checkpoints and the clean-shutdown marker
    /// (with the broker epoch, KIP-966).
    pub async fn stop(
        self,
        close_listeners: impl std::future::Future<Output = ()>,
    ) -> Result<(), BrokerError> {
        lifecycle::controlled_shutdown(
            &self.identity,
            &self.handler.controller,
            &self.state,
            &self.handler.view,
            CONTROLLED_SHUTDOWN_WAIT,
        )
        .await;
        self.replicas.begin_stopping();
        self.coordinators.groups.shutdown().await;
        self.coordinators.transactions.shutdown().await;
        close_listeners.await;
        let cleaner = self.cleaner;
        tokio::task::spawn_blocking(move || drop(cleaner))
            .await
            .map_err(BrokerError::task("stopping the log cleaner"))?;
        let epoch = self.state.lock().await.epoch.unwrap_or(-1);
        let replicas = self.replicas;
        match tokio::task::spawn_blocking(move || replicas.shutdown(epoch)).await {
            Ok(Ok(())) => tracing::info!("logs flushed and closed cleanly"),
            Ok(Err(e)) => tracing::error!("closing the logs: {e}"),
            Err(e) => tracing::error!("closing the logs: {e}"),
        }
        Ok(())
    }
}

/// Starts the group, transaction and share coordinators, each following the partitions the
/// broker leads, the share-partition leaders and the transaction marker writer.
fn spawn_coordinators(
    config: &BrokerConfig,
    deps: &BrokerDeps,
    replicas: &Arc<ReplicaManager>,
) -> Coordinators {
    let (groups, share_jobs) = GroupCoordinator::groups(
        config.coordinator.clone(),
        replicas.clone(),
        deps.controller.clone(),
        deps.clock.clone(),
    );
    let (transactions, jobs) = TxnCoordinator::transactions(
        config.transactions.clone(),
        replicas.clone(),
        deps.controller.clone(),
        deps.clock.clone(),
    );
    let (g, applied) = (groups.clone(), replicas.applied());
    deps.fatal
        .spawn_with_reason("group coordinator", async move {
            g.follow_groups(applied).await
        });
    follow_leadership(deps, replicas, "transaction coordinator", &transactions);
    let share_states = ShareCoordinator::share_states(
        config.share_states.clone(),
        replicas.clone(),
        deps.controller.clone(),
        deps.clock.clone(),
    );
    follow_leadership(deps, replicas, "share coordinator", &share_states);
    let peers = Arc::new(Peers::new(
        config.fetchers.listener.clone(),
        config.fetchers.security.clone(),
    ));
    let persister = Arc::new(Persister::new(
        config.node_id,
        share_states.clone(),
        peers.clone(),
        deps.view.clone(),
    ));
    let flusher = persister.clone();
    deps.fatal
        .spawn_with_reason("share persister", async move { flusher.run().await });
    let (g, view, jobs_persister) = (groups.clone(), deps.view.clone(), persister.clone());
    let controller = deps.controller.clone();
    deps.fatal
        .spawn_with_reason("group coordinator jobs", async move {
            g.run_group_jobs(jobs_persister, view, controller, share_jobs)
                .await
        });
    let share_fetcher = ShareFetcher::new(
        config.node_id,
        config.share_leaders.clone(),
        replicas.clone(),
        persister,
        deps.view.clone(),
        Some(deps.controller.clone()),
        deps.clock.clone(),
    );
    let f = share_fetcher.clone();
    deps.fatal
        .spawn_with_reason("share lock expiry", async move { f.run_expiry().await });
    let markers = MarkerWriter::new(
        transactions.clone(),
        replicas.clone(),
        groups.clone(),
        deps.view.clone(),
        peers,
        config.transactions.partition_verification,
    );
    let running = markers.clone();
    deps.fatal
        .spawn_with_reason("transaction marker writer", async move {
            running.run(jobs).await
        });
    Coordinators {
        groups,
        transactions,
        share_states,
        share_fetcher,
        markers,
    }
}

/// Tiered storage's tasks, when it is on: the reader of `__remote_log_metadata` and the
/// remote log managers; both live as long as the broker.
fn spawn_tiering(
    config: &BrokerConfig,
    deps: &BrokerDeps,
    replicas: &Arc<ReplicaManager>,
) -> Result<(), BrokerError> {
    let Some(tiering) = &config.tiering else {
        return Ok(());
    };
    let peers = Arc::new(Peers::new(
        config.fetchers.listener.clone(),
        config.fetchers.security.clone(),
    ));
    let tiering = crate::tiered::Tiering::new(
        config.node_id,
        tiering.clone(),
        replicas.clone(),
        deps.view.clone(),
        peers,
        deps.controller.clone(),
    )
    .map_err(|e| BrokerError::Tiering(e.to_string()))?;
    replicas.set_tiering(tiering.clone());
    let reader = tiering.clone();
    deps.fatal
        .spawn_with_reason("remote log metadata reader", async move {
            reader.read_metadata().await
        });
    deps.fatal
        .spawn_with_reason("remote log managers", async move {
            tiering.run_managers().await
        });
    Ok(())
}

/// Spawns the task a coordinator (`name`) cannot live without: loading and dropping its shards
/// as the broker's leadership of its topic moves.
fn follow_leadership<S: CoordinatorShard>(
    deps: &BrokerDeps,
    replicas: &Arc<ReplicaManager>,
    name: &'static str,
    runtime: &Arc<Runtime<S>>,
) {
    let (rt, applied) = (runtime.clone(), replicas.applied());
    deps.fatal
        .spawn_with_reason(name, async move { rt.follow(applied, |_| async {}).await });
}

/// The handler of the broker's listeners (each listener gets a copy named for it).
fn handler(
    config: &BrokerConfig,
    deps: &BrokerDeps,
    (replicas, coordinators, state): (
        &Arc<ReplicaManager>,
        &Coordinators,
        &Arc<Mutex<BrokerState>>,
    ),
) -> Result<BrokerHandler, BrokerError> {
    let first_listener = config
        .listeners
        .first()
        .ok_or(BrokerError::Setting("a broker needs a listener"))?
        .name
        .clone();
    Ok(BrokerHandler {
        quotas: deps.quotas.clone(),
        broker_state: state.clone(),
        static_config: Arc::new(config.static_config.clone()),
        fetch_sessions: Arc::new(std::sync::Mutex::new(SessionCache::new(
            config.fetch_session_slots,
            config.fetch_session_eviction_ms,
            u64::from(config.incarnation.as_u128() as u32) | 1,
        ))),
        groups: coordinators.groups.clone(),
        transactions: coordinators.transactions.clone(),
        share_states: coordinators.share_states.clone(),
        share_fetcher: coordinators.share_fetcher.clone(),
        markers: coordinators.markers.clone(),
        producer_ids: Arc::new(ProducerIds::new(config.node_id, deps.controller.clone())),
        replicas: replicas.clone(),
        view: deps.view.clone(),
        controller: deps.controller.clone(),
        cluster_id: config.cluster_id.clone(),
        listener_name: first_listener,
        auto_create_topics: config.auto_create_topics,
        pending_creations: Default::default(),
        authorizer: deps.authorizer.clone(),
        clock: deps.clock.clone(),
        telemetry: Arc::new(crate::api::telemetry::ClientTelemetry::new(
            config.telemetry,
        )),
    })
}

/// Replication's tasks: the replica fetchers (following the images the replica manager
/// applies), the ISR check every half `replica.lag.time.max.ms`, the AlterPartition sender and
/// the AssignReplicasToDirs sender.
fn spawn_replication(
    config: &BrokerConfig,
    deps: &BrokerDeps,
    replicas: &Arc<ReplicaManager>,
    state: &Arc<Mutex<BrokerState>>,
) {
    let fetchers = ReplicaFetchers::new(
        config.fetchers.clone(),
        replicas.clone(),
        deps.view.clone(),
        state.clone(),
    );
    deps.fatal
        .spawn_with_reason("replica fetchers", async move { fetchers.follow().await });
    deps.fatal.spawn("ISR check", replicas.clone().check_isr());
    deps.fatal.spawn(
        "AlterPartition sender",
        crate::replica::isr_updates::send_isr_updates(
            replicas.clone(),
            deps.controller.clone(),
            deps.view.clone(),
            state.clone(),
        ),
    );
    deps.fatal.spawn(
        "AssignReplicasToDirs sender",
        crate::replica::dir_assignments::send_dir_assignments(
            replicas.clone(),
            deps.controller.clone(),
            state.clone(),
        ),
    );
}
