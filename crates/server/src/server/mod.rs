//! `fjord server`: loads the configuration (or the embedded single-node default, formatting
//! `./fjord-data` on first start), types its settings once ([`settings`]), checks the storage
//! is formatted for this cluster and node, and starts what every node runs (the Raft driver
//! over the metadata log, the image loader, the active-controller task on a controller, the
//! metrics endpoint), then each role: the controller (its listener and registration) and the
//! broker (its partitions, registration and heartbeats, replication, and its listeners once
//! ready). Runs until Ctrl-C or SIGTERM (then a controlled shutdown and a graceful
//! resignation) or a fatal error.

mod fatal;
mod listeners;
mod log_maintenance;
mod readiness;
mod security;
mod settings;

use crate::config::ServerConfig;
use crate::controller_listener::ControllerHandler;
use crate::format::{self, metadata_partition_dir, InitialVoters};
use fatal::Fatal;
use fjord_broker::controller_client::{ActiveController, ControllerClient};
use fjord_broker::lifecycle;
use fjord_broker::listener::BrokerHandler;
use fjord_broker::replica_manager::ReplicaManager;
use fjord_kraft::driver::{DriverConfig, RaftHandle};
use fjord_log::MetaProperties;
use fjord_raft::control::{Endpoint, VoterInfo};
use listeners::{bind, limits, listen, open};
use log_maintenance::spawn_log_maintenance;
use readiness::ready_to_serve;
use settings::NodeSettings;
use std::process::ExitCode;

/// The longest a graceful shutdown waits for the requests in flight to be answered.
const DRAIN_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);
use std::sync::Arc;

/// Runs a node until it is stopped.
pub fn run(config: ServerConfig, embedded: bool) -> ExitCode {
    for k in &config.unknown {
        tracing::warn!("unknown configuration {k} is ignored");
    }
    if embedded {
        match auto_format(&config) {
            Ok(lines) => lines.iter().for_each(|l| tracing::info!("{l}")),
            Err(e) => return fail(&e),
        }
    }
    raise_open_files_limit();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("fjord-worker")
        .build()
    {
        Ok(r) => r,
        Err(e) => return fail(&format!("starting the runtime: {e}")),
    };
    match runtime.block_on(serve(config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

/// Raises the soft limit of open files to the hard limit (as the JVM does for Kafka), sizes
/// the budget of open segment files from it, and says both.
fn raise_open_files_limit() {
    use rustix::process::{getrlimit, setrlimit, Resource};
    let limits = getrlimit(Resource::Nofile);
    let raised = match (limits.current, limits.maximum) {
        (Some(soft), hard) if hard.is_none_or(|h| h > soft) => {
            let wanted = rustix::process::Rlimit {
                current: hard,
                maximum: hard,
            };
            match setrlimit(Resource::Nofile, wanted) {
                Ok(()) => hard,
                Err(e) => {
                    tracing::warn!("raising the open files limit from {soft}: {e}");
                    Some(soft)
                }
            }
        }
        (soft, _) => soft,
    };
    let budget = fjord_log::open_files::FileBudget::global();
    budget.set_limit(fjord_log::open_files::segment_share(raised));
    tracing::info!(
        open_files_limit = raised.map_or_else(|| "unlimited".to_owned(), |l| l.to_string()),
        segment_files_open_at_most = budget.limit(),
        "segment files beyond the budget are closed while idle and reopened when used"
    );
}

fn fail(message: &str) -> ExitCode {
    tracing::error!("{message}");
    eprintln!("fjord: {message}");
    ExitCode::FAILURE
}

/// Formats the embedded default's directory on first start: a new cluster, one voter.
fn auto_format(config: &ServerConfig) -> Result<Vec<String>, String> {
    let dir = config.metadata_log_dir();
    if MetaProperties::read(&dir)
        .map_err(|e| e.to_string())?
        .is_some()
    {
        return Ok(Vec::new());
    }
    format::format(
        config,
        &format::random_uuid(),
        &InitialVoters::Standalone,
        false,
        (fjord_metadata::version::METADATA_VERSION_LATEST, &[]),
    )
}

/// Reads `meta.properties` from every directory: they must agree on cluster and node id.
fn storage(config: &ServerConfig) -> Result<(String, MetaProperties), String> {
    let node_id = config.node_id().map_err(|e| e.to_string())?;
    let mut cluster: Option<String> = None;
    let mut metadata_meta = None;
    for dir in config.all_dirs() {
        let meta = MetaProperties::read(&dir)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| {
                format!(
                    "No meta.properties found in {} (have you run `fjord format`?)",
                    dir.display()
                )
            })?;
        if meta.node_id != node_id {
            return Err(format!(
                "Stored node id {} in {} doesn't match node.id {node_id}",
                meta.node_id,
                dir.display()
            ));
        }
        match &cluster {
            Some(c) if *c != meta.cluster_id => {
                return Err(format!(
                    "Invalid cluster.id in {}: found {}, but the other directories have {c}",
                    dir.display(),
                    meta.cluster_id
                ))
            }
            _ => cluster = Some(meta.cluster_id.clone()),
        }
        if dir == config.metadata_log_dir() {
            metadata_meta = Some(meta);
        }
    }
    let meta = metadata_meta.ok_or("no metadata log directory")?;
    Ok((meta.cluster_id.clone(), meta))
}

fn driver_config(
    config: &ServerConfig,
    settings: &NodeSettings,
    cluster_id: String,
    meta: &MetaProperties,
) -> Result<DriverConfig, String> {
    let mut d = DriverConfig::new(
        settings.node_id,
        cluster_id,
        metadata_partition_dir(&config.metadata_log_dir()),
    );
    d.directory_id = meta.directory_id;
    let name = settings.controller_listener_name.clone();
    if let Some(c) = &settings.controller {
        d.endpoint = Some(Endpoint {
            name: c.advertised.name.clone(),
            host: c.advertised.host.clone(),
            port: c.advertised.port,
        });
    }
    for (id, host, port) in config.quorum_voters().map_err(|e| e.to_string())? {
        d.static_voters.insert(
            id,
            VoterInfo {
                id,
                directory_id: fjord_protocol::Uuid::nil(),
                endpoints: vec![Endpoint {
                    name: name.clone(),
                    host,
                    port,
                }],
            },
        );
    }
    d.bootstrap_servers = config.bootstrap_servers().map_err(|e| e.to_string())?;
    d.election_timeout_ms = settings.quorum.election_ms;
    d.fetch_timeout_ms = settings.quorum.fetch_ms;
    d.request_timeout_ms = settings.quorum.request_ms;
    d.retry_backoff_ms = settings.quorum.retry_backoff_ms;
    d.security = security::client_security(config, &name, "sasl.mechanism.controller.protocol")?;
    Ok(d)
}

/// The active controller's id and address, following the quorum: the leader, reached at its
/// endpoint in the voter set.
fn active_controller_watch(
    raft: &RaftHandle,
    fatal: &Fatal,
) -> tokio::sync::watch::Receiver<Option<ActiveController>> {
    let mut info = raft.quorum_info();
    let of = |i: &fjord_kraft::driver::QuorumInfo| {
        let id = i.leader?;
        let e = i.voter_set.get(&id)?.endpoints.first()?;
        Some(ActiveController {
            id,
            addr: crate::config::host_port(&e.host, e.port),
        })
    };
    let (tx, rx) = tokio::sync::watch::channel(of(&info.borrow_and_update()));
    fatal.spawn("controller address watch", async move {
        while info.changed().await.is_ok() {
            let next = of(&info.borrow_and_update());
            tx.send_if_modified(|current| {
                let changed = *current != next;
                *current = next;
                changed
            });
        }
    });
    rx
}

/// What every node runs, whatever its roles: the metadata log's Raft driver, the image
/// loader, the active-controller task on a controller, the controller client, the metrics
/// endpoint, and the fatal-error channel of the tasks it cannot live without.
struct Node {
    node_id: i32,
    cluster_id: String,
    raft: RaftHandle,
    view: tokio::sync::watch::Receiver<fjord_broker::View>,
    fatal_tx: Fatal,
    fatal: tokio::sync::mpsc::UnboundedReceiver<String>,
    local_controller: Option<fjord_controller::active::LocalController>,
    client: Arc<ControllerClient>,
    metered_replicas: Arc<std::sync::OnceLock<Arc<ReplicaManager>>>,
    /// The coordinators, for the metrics endpoint once the broker role has started.
    metered_coordinators: Arc<std::sync::OnceLock<crate::metrics::Coordinators>>,
    /// The client quotas' sensors, shared by the listeners and the metrics endpoint.
    quota_sensors: crate::metrics::QuotaSensors,
    limits: fjord_net::serve::Limits,
    authorizer: Option<Arc<fjord_metadata::acls::AuthorizerSettings>>,
    incarnation: fjord_protocol::Uuid,
    /// The controller listener lives as long as the process.
    never_stop: tokio::sync::watch::Sender<bool>,
    sigterm: tokio::signal::unix::Signal,
    /// Where the broker's parts read time and sleep.
    clock: fjord_util::Clock,
}

/// A running broker: what its graceful stop needs.
struct Broker {
    identity: lifecycle::BrokerIdentity,
    state: Arc<tokio::sync::Mutex<lifecycle::BrokerState>>,
    replicas: Arc<ReplicaManager>,
    cleaner: fjord_log::cleaner::LogCleaner,
    coordinators: Coordinators,
    /// The broker listeners stop first on a graceful shutdown, after answering what they read.
    stop_listeners: tokio::sync::watch::Sender<bool>,
    stopped: Vec<tokio::sync::oneshot::Receiver<()>>,
}

async fn serve(config: ServerConfig) -> Result<(), String> {
    let settings = NodeSettings::from_config(&config)?;
    let mut node = start_node(&config, &settings).await?;
    if let Some(role) = &settings.controller {
        start_controller(&node, &config, role)?;
    }
    let broker = match &settings.broker {
        Some(role) => match start_broker(&mut node, &config, role).await? {
            Some(b) => Some(b),
            // Stopped before the broker was ready.
            None => return Ok(()),
        },
        None => None,
    };
    node.run_until_stopped().await?;
    tracing::info!("shutting down");
    if let Some(b) = broker {
        b.stop(&node).await?;
    }
    node.raft.resign();
    node.raft.shutdown();
    Ok(())
}

/// Starts what every node runs (see [`Node`]).
async fn start_node(config: &ServerConfig, settings: &NodeSettings) -> Result<Node, String> {
    let (cluster_id, meta) = storage(config)?;
    let node_id = meta.node_id;
    let driver = driver_config(config, settings, cluster_id.clone(), &meta)?;
    let (raft, commits) =
        RaftHandle::start(driver, tokio::runtime::Handle::current()).map_err(|e| e.to_string())?;
    tracing::info!(node_id, %cluster_id, "metadata log started");
    let (fatal_tx, fatal) = tokio::sync::mpsc::unbounded_channel();
    let fatal_tx = Fatal(fatal_tx);
    let (view, loader) =
        fjord_kraft::loader::loader(raft.clone(), commits, settings.snapshot_bytes);
    let loader_fatal = fatal_tx.0.clone();
    fatal_tx.spawn("metadata image loader", async move {
        let e = loader.await;
        let _ = loader_fatal.send(format!("the metadata image loader stopped: {e}"));
    });
    let local_controller = match &settings.controller {
        Some(role) => {
            let mut controller_settings = role.settings.clone();
            if let Some((level, records)) =
                crate::format::read_bootstrap(&config.metadata_log_dir())?
            {
                controller_settings.bootstrap_metadata_version = level;
                controller_settings.bootstrap_records = records;
            }
            let (handle, task) = fjord_controller::active::active_controller(
                raft.clone(),
                view.clone(),
                controller_settings,
                cluster_id.clone(),
            );
            fatal_tx.spawn("active controller", task);
            Some(handle)
        }
        None => None,
    };
    let client = Arc::new(ControllerClient::with_security(
        active_controller_watch(&raft, &fatal_tx),
        security::client_security(
            config,
            &settings.controller_listener_name,
            "sasl.mechanism.controller.protocol",
        )?,
    ));
    // The metrics endpoint, on every node; the broker's partitions join once they exist.
    let metered_replicas = Arc::new(std::sync::OnceLock::new());
    let metered_coordinators = Arc::new(std::sync::OnceLock::new());
    let quota_sensors = crate::metrics::QuotaSensors::default();
    let request_metrics = Arc::new(crate::metrics::RequestMetrics::default());
    if let Some(addr) = &settings.metrics_listener {
        let listener = crate::metrics::bind(addr).await?;
        let sources = crate::metrics::Sources {
            view: view.clone(),
            quorum: raft.quorum_info(),
            controller: local_controller.clone(),
            replicas: metered_replicas.clone(),
            coordinators: metered_coordinators.clone(),
            requests: request_metrics.clone(),
            quotas: quota_sensors.clone(),
        };
        fatal_tx.spawn("metrics listener", crate::metrics::serve(listener, sources));
    }
    let sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| format!("installing the SIGTERM handler: {e}"))?;
    Ok(Node {
        node_id,
        cluster_id,
        raft,
        view,
        fatal_tx,
        fatal,
        local_controller,
        client,
        metered_replicas,
        metered_coordinators,
        quota_sensors,
        limits: limits(&settings.limits, request_metrics),
        authorizer: settings.authorizer.clone().map(Arc::new),
        incarnation: format::random_id(),
        never_stop: tokio::sync::watch::Sender::new(false),
        sigterm,
        clock: fjord_util::Clock::system(),
    })
}

/// The controller role: its listener (served until the process ends: its peers, brokers and
/// voters, need it until the very end) and its registration.
fn start_controller(
    node: &Node,
    config: &ServerConfig,
    role: &settings::ControllerRole,
) -> Result<(), String> {
    let handler = ControllerHandler {
        raft: node.raft.clone(),
        controller: node
            .local_controller
            .clone()
            .ok_or("a controller runs the active-controller task")?,
        view: node.view.clone(),
        authorizer: node.authorizer.clone(),
        heartbeats: Default::default(),
        mutations: node.quota_sensors.mutations.clone(),
    };
    let l = &role.listener;
    let controller_security = security::listener_security(config, &l.name, node.view.clone())?;
    security::watch_tls(&controller_security, &node.fatal_tx);
    let (socket, addr) = bind("controller", l)?;
    let listener = open("controller", socket, addr)?;
    let _stopped = listen(
        "controller listener",
        listener,
        handler,
        (node.limits.clone(), Arc::new(controller_security)),
        node.never_stop.subscribe(),
        &node.fatal_tx,
    );
    let adv = &role.advertised;
    lifecycle::spawn_controller_registration(
        lifecycle::ControllerIdentity {
            node_id: node.node_id,
            incarnation: node.incarnation,
            listener: lifecycle::Advertised {
                name: adv.name.clone(),
                host: adv.host.clone(),
                port: adv.port,
            },
        },
        node.client.clone(),
        node.view.clone(),
    );
    Ok(())
}

/// The broker role: its partitions over every log dir, the log upkeep, the group coordinator,
/// registration and heartbeats, replication; its listeners bound at once (so a port 0 is known
/// and registered) but opened only once the broker is ready. `None` when the node was told to
/// stop before then.
async fn start_broker(
    node: &mut Node,
    config: &ServerConfig,
    role: &settings::BrokerRole,
) -> Result<Option<Broker>, String> {
    let mut advertised = role.advertised.clone();
    let mut bound_listeners = Vec::new();
    for (l, adv) in role.listeners.iter().zip(advertised.iter_mut()) {
        let (socket, bound) = bind("broker", l)?;
        if adv.port == 0 {
            adv.port = bound.port();
        }
        let security = security::listener_security(config, &l.name, node.view.clone())?;
        tracing::info!(addr = %bound, listener = %l.name, protocol = security.protocol.name(), "broker listener bound; it opens once the broker is ready");
        bound_listeners.push((l.name.clone(), socket, bound, security));
    }
    // The broker's partitions, over every log dir (recovered off the async workers; a dir
    // that cannot be opened is offline from the start), kept as the image says by a task
    // the node cannot live without.
    let (paths, defaults) = (role.log_dirs.clone(), role.log.clone());
    let open_defaults = defaults.clone();
    let dirs = tokio::task::spawn_blocking(move || {
        fjord_broker::log_dirs::LogDirs::open(&paths, |_| open_defaults.clone())
    })
    .await
    .map_err(|e| format!("opening the log dirs: {e}"))?
    .map_err(|e| format!("opening the log dirs: {e}"))?;
    let previous_broker_epoch = dirs.clean_shutdown_broker_epoch().unwrap_or(-1);
    let dir_ids = dirs.ids();
    let dir_health = dirs.health();
    let replicas = Arc::new(
        ReplicaManager::with_dirs(node.node_id, Arc::new(dirs), defaults)
            .with_replication(role.replication.clone()),
    );
    let follower = replicas.clone();
    let follow_view = node.view.clone();
    let follow_fatal = node.fatal_tx.0.clone();
    node.fatal_tx.spawn("replica manager", async move {
        let why = follower.follow(follow_view).await;
        let _ = follow_fatal.send(format!("the replica manager stopped: {why}"));
    });
    let cleaner = spawn_log_maintenance(&role.maintenance, &replicas, &node.fatal_tx)?;
    let coordinators = spawn_coordinators(node, role, &replicas);
    let state = lifecycle::BrokerState::unregistered();
    let handler = broker_handler(node, config, role, (&replicas, &coordinators, &state))?;
    let identity = lifecycle::BrokerIdentity {
        previous_broker_epoch,
        node_id: node.node_id,
        cluster_id: node.cluster_id.clone(),
        incarnation: node.incarnation,
        listeners: advertised
            .iter()
            .map(|adv| lifecycle::Advertised {
                name: adv.name.clone(),
                host: adv.host.clone(),
                port: adv.port,
            })
            .collect(),
        rack: role.rack.clone(),
        log_dirs: dir_ids,
        dir_health,
        heartbeat_interval: role.heartbeat_interval,
    };
    lifecycle::spawn_broker(
        identity.clone(),
        node.client.clone(),
        node.view.clone(),
        state.clone(),
    );
    spawn_replication(role, &replicas, node, &state)?;
    let _ = node.metered_replicas.set(replicas.clone());
    let _ = node.metered_coordinators.set(crate::metrics::Coordinators {
        groups: coordinators.groups.clone(),
        transactions: coordinators.transactions.clone(),
        share_fetcher: coordinators.share_fetcher.clone(),
    });
    // The client port stays closed until the broker is ready: a client that connects as
    // soon as it opens finds brokers, a controller and its topics' leaders.
    let mut ready_view = node.view.clone();
    let mut ready_info = node.raft.quorum_info();
    tokio::select! {
        r = ready_to_serve(node.node_id, node.incarnation, &mut ready_view, &mut ready_info) => r?,
        f = node.fatal.recv() => {
            return Err(f.unwrap_or_else(|| "a task of the node stopped".into()));
        }
        _ = tokio::signal::ctrl_c() => {
            node.raft.shutdown();
            return Ok(None);
        }
        _ = node.sigterm.recv() => {
            node.raft.shutdown();
            return Ok(None);
        }
    }
    // The partitions this image gives the broker exist before the first client arrives.
    let view = node.view.borrow().clone();
    let rm = replicas.clone();
    tokio::task::spawn_blocking(move || rm.apply_view(&view))
        .await
        .map_err(|e| format!("creating the broker's partitions: {e}"))?
        .map_err(|e| format!("creating the broker's partitions: {e}"))?;
    let stop_listeners = tokio::sync::watch::Sender::new(false);
    let mut stopped = Vec::new();
    for (name, socket, bound, security) in bound_listeners {
        let listener = open("broker", socket, bound)?;
        security::watch_tls(&security, &node.fatal_tx);
        let handler = BrokerHandler {
            listener_name: name,
            ..handler.clone()
        };
        stopped.push(listen(
            "broker listener",
            listener,
            handler,
            (node.limits.clone(), Arc::new(security)),
            stop_listeners.subscribe(),
            &node.fatal_tx,
        ));
    }
    Ok(Some(Broker {
        identity,
        state,
        replicas,
        cleaner,
        coordinators,
        stop_listeners,
        stopped,
    }))
}

/// The broker's coordinators.
struct Coordinators {
    groups: Arc<fjord_broker::group_coordinator::GroupCoordinator>,
    transactions: Arc<fjord_broker::txn_coordinator::TxnCoordinator>,
    share_states: Arc<fjord_broker::share_coordinator::ShareCoordinator>,
    share_fetcher: Arc<fjord_broker::share_fetch::ShareFetcher>,
    markers: Arc<fjord_broker::txn_coordinator::MarkerWriter>,
}

/// Starts the group and transaction coordinators, each following the partitions the broker
/// leads, and the transaction marker writer; all are tasks the node cannot live without.
fn spawn_coordinators(
    node: &Node,
    role: &settings::BrokerRole,
    replicas: &Arc<ReplicaManager>,
) -> Coordinators {
    use fjord_broker::{group_coordinator::GroupCoordinator, txn_coordinator};
    let (groups, share_jobs) = GroupCoordinator::groups(
        role.coordinator.clone(),
        replicas.clone(),
        node.client.clone(),
        node.clock.clone(),
    );
    let (transactions, jobs) = txn_coordinator::TxnCoordinator::transactions(
        role.transactions.clone(),
        replicas.clone(),
        node.client.clone(),
        node.clock.clone(),
    );
    let (g, applied, fatal) = (groups.clone(), replicas.applied(), node.fatal_tx.0.clone());
    node.fatal_tx.spawn("group coordinator", async move {
        let why = g.follow_groups(applied).await;
        let _ = fatal.send(format!("the group coordinator stopped: {why}"));
    });
    follow_leadership(node, replicas, "transaction coordinator", &transactions);
    let share_states = fjord_broker::share_coordinator::ShareCoordinator::share_states(
        role.share_states.clone(),
        replicas.clone(),
        node.client.clone(),
        node.clock.clone(),
    );
    follow_leadership(node, replicas, "share coordinator", &share_states);
    let peers = Arc::new(fjord_broker::peers::Peers::new(
        role.fetchers.listener.clone(),
        role.fetchers.security.clone(),
    ));
    let persister = Arc::new(fjord_broker::share_persister::Persister::new(
        node.node_id,
        share_states.clone(),
        peers.clone(),
        node.view.clone(),
    ));
    let (g, view, fatal) = (groups.clone(), node.view.clone(), node.fatal_tx.0.clone());
    let jobs_persister = persister.clone();
    node.fatal_tx.spawn("share group state jobs", async move {
        let why = g.run_share_jobs(jobs_persister, view, share_jobs).await;
        let _ = fatal.send(format!("the share group state jobs stopped: {why}"));
    });
    let share_fetcher = fjord_broker::share_fetch::ShareFetcher::new(
        node.node_id,
        role.share_leaders.clone(),
        replicas.clone(),
        persister,
        node.view.clone(),
        Some(node.client.clone()),
        node.clock.clone(),
    );
    let (f, fatal) = (share_fetcher.clone(), node.fatal_tx.0.clone());
    node.fatal_tx.spawn("share lock expiry", async move {
        let why = f.run_expiry().await;
        let _ = fatal.send(format!("the share lock expiry stopped: {why}"));
    });
    let writer = txn_coordinator::MarkerWriter::new(
        transactions.clone(),
        replicas.clone(),
        groups.clone(),
        node.view.clone(),
        peers.clone(),
        role.transactions.partition_verification,
    );
    let fatal = node.fatal_tx.0.clone();
    let running = writer.clone();
    node.fatal_tx
        .spawn("transaction marker writer", async move {
            let why = running.run(jobs).await;
            let _ = fatal.send(format!("the transaction marker writer stopped: {why}"));
        });
    Coordinators {
        groups,
        transactions,
        share_states,
        share_fetcher,
        markers: writer,
    }
}

/// Spawns the task a coordinator (`name`) cannot live without: loading and dropping its shards
/// as the broker's leadership of its topic moves.
fn follow_leadership<S: fjord_broker::coordinator_runtime::CoordinatorShard>(
    node: &Node,
    replicas: &Arc<ReplicaManager>,
    name: &'static str,
    runtime: &Arc<fjord_broker::coordinator_runtime::Runtime<S>>,
) {
    let (rt, applied, fatal) = (runtime.clone(), replicas.applied(), node.fatal_tx.0.clone());
    node.fatal_tx.spawn(name, async move {
        let why = rt.follow(applied, |_| async {}).await;
        let _ = fatal.send(format!("the {name} stopped: {why}"));
    });
}

/// The handler of the broker's listeners (each copy named for its listener).
fn broker_handler(
    node: &Node,
    config: &ServerConfig,
    role: &settings::BrokerRole,
    (replicas, coordinators, state): (
        &Arc<ReplicaManager>,
        &Coordinators,
        &Arc<tokio::sync::Mutex<lifecycle::BrokerState>>,
    ),
) -> Result<BrokerHandler, String> {
    let first_listener = role
        .listeners
        .first()
        .ok_or("a broker needs a listener")?
        .name
        .clone();
    Ok(BrokerHandler {
        quotas: node.quota_sensors.broker.clone(),
        broker_state: state.clone(),
        static_config: Arc::new(fjord_broker::describe_configs::StaticConfig {
            node_id: node.node_id,
            values: config.explicit().clone(),
            known: ServerConfig::known_keys()
                .into_iter()
                .map(
                    |(name, config_type, default)| fjord_broker::describe_configs::KnownKey {
                        name: name.to_string(),
                        config_type,
                        default: default.map(str::to_string),
                    },
                )
                .collect(),
        }),
        fetch_sessions: Arc::new(std::sync::Mutex::new(
            fjord_broker::fetch_session::SessionCache::new(
                role.fetch_session_slots,
                role.fetch_session_eviction_ms,
                u64::from(node.incarnation.as_u128() as u32) | 1,
            ),
        )),
        groups: coordinators.groups.clone(),
        transactions: coordinators.transactions.clone(),
        share_states: coordinators.share_states.clone(),
        share_fetcher: coordinators.share_fetcher.clone(),
        markers: coordinators.markers.clone(),
        producer_ids: Arc::new(fjord_broker::producer_ids::ProducerIds::new(
            node.node_id,
            node.client.clone(),
        )),
        replicas: replicas.clone(),
        view: node.view.clone(),
        controller: node.client.clone(),
        cluster_id: node.cluster_id.clone(),
        listener_name: first_listener,
        auto_create_topics: role.auto_create_topics,
        pending_creations: Default::default(),
        authorizer: node.authorizer.clone(),
        clock: node.clock.clone(),
    })
}

impl Node {
    /// Runs until Ctrl-C or SIGTERM (Ok) or until the metadata log or a task the node cannot
    /// live without fails (the error), saying each new quorum leader.
    async fn run_until_stopped(&mut self) -> Result<(), String> {
        let mut info = self.raft.quorum_info();
        let mut last_leader = None;
        loop {
            tokio::select! {
                changed = info.changed() => {
                    if changed.is_err() {
                        return Err("the raft driver stopped".into());
                    }
                    let i = info.borrow().clone();
                    if let Some(f) = i.failed {
                        return Err(format!("the metadata log failed: {f}"));
                    }
                    if i.leader != last_leader {
                        tracing::info!(epoch = i.epoch, leader = ?i.leader, "metadata quorum leader");
                        last_leader = i.leader;
                    }
                }
                f = self.fatal.recv() => {
                    return Err(f.unwrap_or_else(|| "a task of the node stopped".into()));
                }
                _ = tokio::signal::ctrl_c() => return Ok(()),
                _ = self.sigterm.recv() => return Ok(()),
            }
        }
    }
}

impl Broker {
    /// A graceful stop: a controlled shutdown, the requests in flight answered, the listeners
    /// closed, the cleaner stopped, every log flushed with its checkpoints and the
    /// clean-shutdown marker.
    async fn stop(self, node: &Node) -> Result<(), String> {
        lifecycle::controlled_shutdown(
            &self.identity,
            &node.client,
            &self.state,
            &node.view,
            std::time::Duration::from_secs(5),
        )
        .await;
        // Answer the requests in flight, then close the connections: long polls answer with
        // what they have, group waits with NOT_COORDINATOR, no new request is read.
        self.replicas.begin_stopping();
        self.coordinators.groups.shutdown().await;
        self.coordinators.transactions.shutdown().await;
        self.stop_listeners.send_replace(true);
        let all_stopped = async {
            for s in self.stopped {
                let _ = s.await;
            }
        };
        match tokio::time::timeout(DRAIN_TIMEOUT, all_stopped).await {
            Ok(_) => tracing::info!("answered the requests in flight; broker listener closed"),
            Err(_) => tracing::warn!("requests still in flight after {DRAIN_TIMEOUT:?}; closing"),
        }
        // The cleaner stops (its pass finishes) before the logs close.
        let cleaner = self.cleaner;
        tokio::task::spawn_blocking(move || drop(cleaner))
            .await
            .map_err(|e| format!("stopping the log cleaner: {e}"))?;
        // Flush every log, write the checkpoints and the clean-shutdown marker (with the
        // broker epoch, KIP-966).
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

/// Replication's tasks, each one the node cannot live without: the replica fetchers (following
/// the images the replica manager applies), the ISR check every half
/// `replica.lag.time.max.ms`, and the AlterPartition sender.
fn spawn_replication(
    role: &settings::BrokerRole,
    replicas: &Arc<ReplicaManager>,
    node: &Node,
    state: &Arc<tokio::sync::Mutex<lifecycle::BrokerState>>,
) -> Result<(), String> {
    let settings = role.fetchers.clone();
    let (controller, view, fatal) = (&node.client, &node.view, &node.fatal_tx);
    let fetchers = fjord_broker::replica_fetcher::ReplicaFetchers::new(
        settings,
        replicas.clone(),
        view.clone(),
        state.clone(),
    );
    let why = fatal.0.clone();
    fatal.spawn("replica fetchers", async move {
        let stopped = fetchers.follow().await;
        let _ = why.send(format!("the replica fetchers stopped: {stopped}"));
    });
    fatal.spawn("ISR check", replicas.clone().check_isr());
    fatal.spawn(
        "AlterPartition sender",
        fjord_broker::isr_updates::send_isr_updates(
            replicas.clone(),
            controller.clone(),
            view.clone(),
            state.clone(),
        ),
    );
    fatal.spawn(
        "AssignReplicasToDirs sender",
        fjord_broker::dir_assignments::send_dir_assignments(
            replicas.clone(),
            controller.clone(),
            state.clone(),
        ),
    );
    Ok(())
}
