//! `fjord server`: loads the configuration (or the embedded single-node default, formatting
//! `./fjord-data` on first start), types its settings once ([`settings`]), checks the storage
//! is formatted for this cluster and node, and starts what every node runs (the Raft driver
//! over the metadata log, the image loader, the active-controller task on a controller, the
//! metrics endpoint), then each role: the controller (its listener and registration) and the
//! broker (its partitions, registration and heartbeats, replication, and its listeners once
//! ready). Runs until Ctrl-C or SIGTERM (then a controlled shutdown and a graceful
//! resignation) or a fatal error.

mod listeners;
mod readiness;
mod security;
mod settings;

use crate::config::ServerConfig;
use crate::controller_listener::ControllerHandler;
use crate::format::{self, metadata_partition_dir, InitialVoters};
use fjord_broker::{
    ActiveController, Broker, BrokerConfig, BrokerDeps, BrokerHandle, ControllerClient,
};
use fjord_configdef::broker;
use fjord_kraft::driver::{DriverConfig, RaftHandle};
use fjord_log::MetaProperties;
use fjord_raft::control::{Endpoint, VoterInfo};
use fjord_util::tasks::Fatal;
use listeners::{bind, limits, listen, open};
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
    d.security = security::client_security(
        config,
        &name,
        broker::SASL_MECHANISM_CONTROLLER_PROTOCOL.name,
    )?;
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
    /// What the metrics endpoint reads from the broker, once the broker role has started.
    metered: Arc<std::sync::OnceLock<fjord_broker::Metered>>,
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

/// A running broker and the listeners the server serves it on.
struct RunningBroker {
    broker: BrokerHandle,
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
        b.stop().await?;
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
            broker::SASL_MECHANISM_CONTROLLER_PROTOCOL.name,
        )?,
    ));
    // The metrics endpoint, on every node; the broker's partitions join once they exist.
    let metered = Arc::new(std::sync::OnceLock::new());
    let quota_sensors = crate::metrics::QuotaSensors::default();
    let request_metrics = Arc::new(crate::metrics::RequestMetrics::default());
    if let Some(addr) = &settings.metrics_listener {
        let listener = crate::metrics::bind(addr).await?;
        let sources = crate::metrics::Sources {
            view: view.clone(),
            quorum: raft.quorum_info(),
            controller: local_controller.clone(),
            broker: metered.clone(),
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
        metered,
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
    fjord_broker::spawn_controller_registration(
        fjord_broker::ControllerIdentity {
            node_id: node.node_id,
            incarnation: node.incarnation,
            listener: fjord_broker::Advertised {
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

/// The broker role ([`Broker::start`]): its listeners bound at once (so a port 0 is known and
/// registered) but opened only once the broker is ready. `None` when the node was told to
/// stop before then.
async fn start_broker(
    node: &mut Node,
    config: &ServerConfig,
    role: &settings::BrokerRole,
) -> Result<Option<RunningBroker>, String> {
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
    let broker = Broker::start(
        broker_config(node, config, role, &advertised),
        BrokerDeps {
            view: node.view.clone(),
            controller: node.client.clone(),
            clock: node.clock.clone(),
            quotas: node.quota_sensors.broker.clone(),
            authorizer: node.authorizer.clone(),
            fatal: node.fatal_tx.clone(),
        },
    )
    .await
    .map_err(|e| e.to_string())?;
    let _ = node.metered.set(broker.metered());
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
    broker
        .create_partitions(view)
        .await
        .map_err(|e| e.to_string())?;
    let stop_listeners = tokio::sync::watch::Sender::new(false);
    let mut stopped = Vec::new();
    for (name, socket, bound, security) in bound_listeners {
        let listener = open("broker", socket, bound)?;
        security::watch_tls(&security, &node.fatal_tx);
        stopped.push(listen(
            "broker listener",
            listener,
            broker.handler(&name),
            (node.limits.clone(), Arc::new(security)),
            stop_listeners.subscribe(),
            &node.fatal_tx,
        ));
    }
    Ok(Some(RunningBroker {
        broker,
        stop_listeners,
        stopped,
    }))
}

/// The broker's settings as [`Broker::start`] takes them.
fn broker_config(
    node: &Node,
    config: &ServerConfig,
    role: &settings::BrokerRole,
    advertised: &[crate::config::Listener],
) -> BrokerConfig {
    BrokerConfig {
        node_id: node.node_id,
        cluster_id: node.cluster_id.clone(),
        incarnation: node.incarnation,
        listeners: advertised
            .iter()
            .map(|adv| fjord_broker::Advertised {
                name: adv.name.clone(),
                host: adv.host.clone(),
                port: adv.port,
            })
            .collect(),
        log_dirs: role.log_dirs.clone(),
        recovery_threads: role.recovery_threads,
        log: role.log.clone(),
        tiering: role.tiering.clone(),
        maintenance: role.maintenance,
        replication: role.replication.clone(),
        fetchers: role.fetchers.clone(),
        coordinator: role.coordinator.clone(),
        transactions: role.transactions.clone(),
        share_states: role.share_states.clone(),
        share_leaders: role.share_leaders.clone(),
        fetch_session_slots: role.fetch_session_slots,
        telemetry: role.telemetry,
        fetch_session_eviction_ms: role.fetch_session_eviction_ms,
        auto_create_topics: role.auto_create_topics,
        rack: role.rack.clone(),
        heartbeat_interval: role.heartbeat_interval,
        static_config: fjord_broker::StaticConfig {
            node_id: node.node_id,
            values: config.explicit().clone(),
            known: ServerConfig::known_keys()
                .into_iter()
                .map(|(name, config_type, default)| fjord_broker::KnownKey {
                    name: name.to_string(),
                    config_type,
                    default: default.map(str::to_string),
                })
                .collect(),
        },
    }
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

impl RunningBroker {
    /// A graceful stop ([`BrokerHandle::stop`]); in its middle the requests in flight are
    /// answered and the listeners closed, waiting at most [`DRAIN_TIMEOUT`].
    async fn stop(self) -> Result<(), String> {
        let (stop_listeners, stopped) = (self.stop_listeners, self.stopped);
        let close = async move {
            stop_listeners.send_replace(true);
            let all_stopped = async {
                for s in stopped {
                    let _ = s.await;
                }
            };
            match tokio::time::timeout(DRAIN_TIMEOUT, all_stopped).await {
                Ok(_) => tracing::info!("answered the requests in flight; broker listener closed"),
                Err(_) => {
                    tracing::warn!("requests still in flight after {DRAIN_TIMEOUT:?}; closing")
                }
            }
        };
        self.broker.stop(close).await.map_err(|e| e.to_string())
    }
}
