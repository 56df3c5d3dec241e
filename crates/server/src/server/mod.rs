//! `fjord server`: loads the configuration (or the embedded single-node default, formatting
//! `./fjord-data` on first start), checks the storage is formatted for this cluster and node,
//! starts the Raft driver over the metadata log, the image loader, the active-controller
//! task, the controller listener and the broker listener as the roles ask, the broker's registration and heartbeats and each controller's registration; runs
//! until Ctrl-C or SIGTERM (then a controlled shutdown and a graceful resignation) or a fatal
//! error.

mod fatal;
mod listeners;
mod log_maintenance;
mod readiness;
mod security;

use crate::config::ServerConfig;
use crate::controller_listener::ControllerHandler;
use crate::format::{self, metadata_partition_dir, InitialVoters};
use fatal::Fatal;
use fjord_broker::controller_client::{ActiveController, ControllerClient};
use fjord_broker::lifecycle;
use fjord_broker::listener::BrokerHandler;
use fjord_controller::ControllerSettings;
use fjord_kraft::driver::{DriverConfig, RaftHandle};
use fjord_log::MetaProperties;
use fjord_raft::control::{Endpoint, VoterInfo};
use listeners::{bind, limits, listen, open};
use log_maintenance::{broker_log_config, spawn_log_maintenance};
use readiness::ready_to_serve;
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
    cluster_id: String,
    meta: &MetaProperties,
) -> Result<DriverConfig, String> {
    let node_id = config.node_id().map_err(|e| e.to_string())?;
    let mut d = DriverConfig::new(
        node_id,
        cluster_id,
        metadata_partition_dir(&config.metadata_log_dir()),
    );
    d.directory_id = meta.directory_id;
    let controller = config
        .process_roles()
        .map_err(|e| e.to_string())?
        .controller;
    let name = config
        .get("controller.listener.names")
        .and_then(|n| n.split(',').next())
        .unwrap_or("CONTROLLER")
        .trim()
        .to_string();
    if controller {
        let l = config
            .advertised_controller_listener()
            .map_err(|e| e.to_string())?;
        d.endpoint = Some(Endpoint {
            name: l.name,
            host: l.host,
            port: l.port,
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
    d.election_timeout_ms = config.int("controller.quorum.election.timeout.ms");
    d.fetch_timeout_ms = config.int("controller.quorum.fetch.timeout.ms");
    d.request_timeout_ms = config.int("controller.quorum.request.timeout.ms");
    d.retry_backoff_ms = config.int("controller.quorum.retry.backoff.ms");
    d.security = security::client_security(config, &name, "sasl.mechanism.controller.protocol")?;
    Ok(d)
}

fn controller_settings(config: &ServerConfig) -> ControllerSettings {
    ControllerSettings {
        num_partitions: config.int("num.partitions") as i32,
        default_replication_factor: config.int("default.replication.factor") as i16,
        min_insync_replicas: config.int("min.insync.replicas") as i32,
        unclean_leader_election_enable: config
            .get("unclean.leader.election.enable")
            .is_some_and(|v| v.eq_ignore_ascii_case("true")),
        broker_session_timeout_ms: config.int("broker.session.timeout.ms"),
        broker_connection_loss_fence_ms: config.int("broker.connection.loss.fence.ms"),
        broker_heartbeat_interval_ms: config.int("broker.heartbeat.interval.ms"),
        authorizer_enabled: security::authorizer(config).is_some(),
        ..ControllerSettings::default()
    }
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

async fn serve(config: ServerConfig) -> Result<(), String> {
    // The controller listener lives as long as the process; the broker listener stops first
    // on a graceful shutdown, after answering what it has read.
    let never_stop = tokio::sync::watch::Sender::new(false);
    let stop_broker_listener = tokio::sync::watch::Sender::new(false);
    let roles = config.process_roles().map_err(|e| e.to_string())?;
    let (cluster_id, meta) = storage(&config)?;
    let node_id = meta.node_id;
    let driver = driver_config(&config, cluster_id.clone(), &meta)?;
    let (raft, commits) =
        RaftHandle::start(driver, tokio::runtime::Handle::current()).map_err(|e| e.to_string())?;
    tracing::info!(node_id, %cluster_id, "metadata log started");
    let (fatal_tx, mut fatal) = tokio::sync::mpsc::unbounded_channel();
    let fatal_tx = Fatal(fatal_tx);
    let snapshot_bytes =
        u64::try_from(config.int("metadata.log.max.record.bytes.between.snapshots"))
            .unwrap_or(u64::MAX);
    let (view, loader) = fjord_kraft::loader::loader(raft.clone(), commits, snapshot_bytes);
    let loader_fatal = fatal_tx.0.clone();
    fatal_tx.spawn("metadata image loader", async move {
        let e = loader.await;
        let _ = loader_fatal.send(format!("the metadata image loader stopped: {e}"));
    });
    let local_controller = if roles.controller {
        let mut settings = controller_settings(&config);
        if let Some((level, records)) = crate::format::read_bootstrap(&config.metadata_log_dir())? {
            settings.bootstrap_metadata_version = level;
            settings.bootstrap_records = records;
        }
        let (handle, task) = fjord_controller::active::active_controller(
            raft.clone(),
            view.clone(),
            settings,
            cluster_id.clone(),
        );
        fatal_tx.spawn("active controller", task);
        Some(handle)
    } else {
        None
    };
    let controller_listener_name = config
        .get("controller.listener.names")
        .and_then(|n| n.split(',').next())
        .unwrap_or("CONTROLLER")
        .trim()
        .to_string();
    let client = Arc::new(ControllerClient::with_security(
        active_controller_watch(&raft, &fatal_tx),
        security::client_security(
            &config,
            &controller_listener_name,
            "sasl.mechanism.controller.protocol",
        )?,
    ));
    // The metrics endpoint, on every node; the broker's partitions join once they exist.
    let metered_replicas = Arc::new(std::sync::OnceLock::new());
    let request_metrics = Arc::new(crate::metrics::RequestMetrics::default());
    if let Some(addr) =
        crate::metrics::listener_address(config.get("metrics.listener").unwrap_or(""))?
    {
        let listener = crate::metrics::bind(&addr).await?;
        let sources = crate::metrics::Sources {
            view: view.clone(),
            quorum: raft.quorum_info(),
            controller: local_controller.clone(),
            replicas: metered_replicas.clone(),
            requests: request_metrics.clone(),
        };
        fatal_tx.spawn("metrics listener", crate::metrics::serve(listener, sources));
    }
    let limits = limits(&config, request_metrics.clone());
    let authorizer = security::authorizer(&config).map(Arc::new);
    let incarnation = format::random_id();
    if roles.controller {
        let l = config.controller_listener().map_err(|e| e.to_string())?;
        let adv = config
            .advertised_controller_listener()
            .map_err(|e| e.to_string())?;
        let handler = ControllerHandler {
            raft: raft.clone(),
            controller: local_controller
                .clone()
                .ok_or("a controller runs the active-controller task")?,
            view: view.clone(),
            authorizer: authorizer.clone(),
            heartbeats: Default::default(),
        };
        let controller_security = security::listener_security(&config, &l.name, view.clone())?;
        security::watch_tls(&controller_security, &fatal_tx);
        let (socket, addr) = bind("controller", &l)?;
        let listener = open("controller", socket, addr)?;
        // Stops with the process: its peers (brokers, voters) need it until the very end.
        let _stopped = listen(
            "controller listener",
            listener,
            handler,
            (limits.clone(), Arc::new(controller_security)),
            never_stop.subscribe(),
            &fatal_tx,
        );
        lifecycle::spawn_controller_registration(
            lifecycle::ControllerIdentity {
                node_id,
                incarnation,
                listener: lifecycle::Advertised {
                    name: adv.name,
                    host: adv.host,
                    port: adv.port,
                },
            },
            client.clone(),
            view.clone(),
        );
    }
    let mut broker = None;
    let mut info = raft.quorum_info();
    let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| format!("installing the SIGTERM handler: {e}"))?;
    if roles.broker {
        let broker_listeners = config.broker_listeners().map_err(|e| e.to_string())?;
        let mut advertised = config
            .advertised_broker_listeners()
            .map_err(|e| e.to_string())?;
        // Bound now (so a port 0 is known and registered), listening only once ready.
        let mut bound_listeners = Vec::new();
        for (l, adv) in broker_listeners.iter().zip(advertised.iter_mut()) {
            let (socket, bound) = bind("broker", l)?;
            if adv.port == 0 {
                adv.port = bound.port();
            }
            let security = security::listener_security(&config, &l.name, view.clone())?;
            tracing::info!(addr = %bound, listener = %l.name, protocol = security.protocol.name(), "broker listener bound; it opens once the broker is ready");
            bound_listeners.push((l.name.clone(), socket, bound, security));
        }
        let inter_broker = config
            .inter_broker_listener()
            .map_err(|e| e.to_string())?
            .ok_or("a broker needs a listener")?
            .name;
        let first_listener = broker_listeners
            .first()
            .ok_or("a broker needs a listener")?
            .name
            .clone();
        // The broker's partitions, over every log dir (recovered off the async workers; a dir
        // that cannot be opened is offline from the start), kept as the image says by a task
        // the node cannot live without.
        let paths = config.log_dirs();
        if paths.is_empty() {
            return Err("a broker needs log.dirs".into());
        }
        let defaults = broker_log_config(&config);
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
            fjord_broker::replica_manager::ReplicaManager::with_dirs(
                node_id,
                Arc::new(dirs),
                defaults,
            )
            .with_replication(fjord_broker::replica_manager::ReplicationSettings {
                lag_max_ms: config.int("replica.lag.time.max.ms"),
                min_insync_replicas: usize::try_from(config.int("min.insync.replicas"))
                    .unwrap_or(1),
            }),
        );
        let follower = replicas.clone();
        let follow_view = view.clone();
        let follow_fatal = fatal_tx.0.clone();
        fatal_tx.spawn("replica manager", async move {
            let why = follower.follow(follow_view).await;
            let _ = follow_fatal.send(format!("the replica manager stopped: {why}"));
        });
        let cleaner = spawn_log_maintenance(&config, &replicas, &fatal_tx)?;
        let groups = fjord_broker::group_coordinator::GroupCoordinator::new(
            coordinator_config(&config),
            replicas.clone(),
            client.clone(),
        );
        let groups_handle = groups.clone();
        let follower = groups.clone();
        let applied = replicas.applied();
        let follow_fatal = fatal_tx.0.clone();
        fatal_tx.spawn("group coordinator", async move {
            let why = follower.follow(applied).await;
            let _ = follow_fatal.send(format!("the group coordinator stopped: {why}"));
        });
        let broker_state = lifecycle::BrokerState::unregistered();
        let handler = BrokerHandler {
            broker_state: broker_state.clone(),
            static_config: Arc::new(fjord_broker::describe_configs::StaticConfig {
                node_id,
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
                    config
                        .int("max.incremental.fetch.session.cache.slots")
                        .max(0) as usize,
                    config.int("min.incremental.fetch.session.eviction.ms"),
                    u64::from(incarnation.as_u128() as u32) | 1,
                ),
            )),
            groups,
            producer_ids: Arc::new(fjord_broker::producer_ids::ProducerIds::new(
                node_id,
                client.clone(),
            )),
            replicas: replicas.clone(),
            view: view.clone(),
            controller: client.clone(),
            cluster_id: cluster_id.clone(),
            listener_name: first_listener,
            auto_create_topics: config
                .get("auto.create.topics.enable")
                .is_some_and(|v| v.eq_ignore_ascii_case("true")),
            pending_creations: Default::default(),
            authorizer: authorizer.clone(),
        };
        let log_dirs = dir_ids;
        let identity = lifecycle::BrokerIdentity {
            previous_broker_epoch,
            node_id,
            cluster_id: cluster_id.clone(),
            incarnation,
            listeners: advertised
                .iter()
                .map(|adv| lifecycle::Advertised {
                    name: adv.name.clone(),
                    host: adv.host.clone(),
                    port: adv.port,
                })
                .collect(),
            rack: config.get("broker.rack").map(str::to_string),
            log_dirs,
            dir_health,
            heartbeat_interval: std::time::Duration::from_millis(
                config.int("broker.heartbeat.interval.ms").max(10) as u64,
            ),
        };
        lifecycle::spawn_broker(
            identity.clone(),
            client.clone(),
            view.clone(),
            broker_state.clone(),
        );
        let state = broker_state;
        spawn_replication(
            &config,
            &replicas,
            &client,
            &view,
            &state,
            &inter_broker,
            &fatal_tx,
        )?;
        let _ = metered_replicas.set(replicas.clone());
        // The client port stays closed until the broker is ready: a client that connects as
        // soon as it opens finds brokers, a controller and its topics' leaders.
        let mut ready_view = view.clone();
        let mut ready_info = raft.quorum_info();
        tokio::select! {
            r = ready_to_serve(node_id, incarnation, &mut ready_view, &mut ready_info) => r?,
            f = fatal.recv() => {
                return Err(f.unwrap_or_else(|| "a task of the node stopped".into()));
            }
            _ = tokio::signal::ctrl_c() => {
                raft.shutdown();
                return Ok(());
            }
            _ = sigterm.recv() => {
                raft.shutdown();
                return Ok(());
            }
        }
        // The partitions this image gives the broker exist before the first client arrives.
        let image = view.borrow().image.clone();
        let rm = replicas.clone();
        tokio::task::spawn_blocking(move || rm.apply_and_publish(image))
            .await
            .map_err(|e| format!("creating the broker's partitions: {e}"))?
            .map_err(|e| format!("creating the broker's partitions: {e}"))?;
        let mut stopped = Vec::new();
        for (name, socket, bound, security) in bound_listeners {
            let listener = open("broker", socket, bound)?;
            security::watch_tls(&security, &fatal_tx);
            let handler = BrokerHandler {
                listener_name: name,
                ..handler.clone()
            };
            stopped.push(listen(
                "broker listener",
                listener,
                handler,
                (limits.clone(), Arc::new(security)),
                stop_broker_listener.subscribe(),
                &fatal_tx,
            ));
        }
        broker = Some((identity, state, replicas, cleaner, groups_handle, stopped));
    }
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
            f = fatal.recv() => {
                return Err(f.unwrap_or_else(|| "a task of the node stopped".into()));
            }
            _ = tokio::signal::ctrl_c() => break,
            _ = sigterm.recv() => break,
        }
    }
    tracing::info!("shutting down");
    if let Some((identity, state, replicas, cleaner, groups, stopped)) = broker {
        lifecycle::controlled_shutdown(
            &identity,
            &client,
            &state,
            &view,
            std::time::Duration::from_secs(5),
        )
        .await;
        // Answer the requests in flight, then close the connections: long polls answer with
        // what they have, group waits with NOT_COORDINATOR, no new request is read.
        replicas.begin_stopping();
        groups.shutdown().await;
        stop_broker_listener.send_replace(true);
        let all_stopped = async {
            for s in stopped {
                let _ = s.await;
            }
        };
        match tokio::time::timeout(DRAIN_TIMEOUT, all_stopped).await {
            Ok(_) => tracing::info!("answered the requests in flight; broker listener closed"),
            Err(_) => tracing::warn!("requests still in flight after {DRAIN_TIMEOUT:?}; closing"),
        }
        // The cleaner stops (its pass finishes) before the logs close.
        tokio::task::spawn_blocking(move || drop(cleaner))
            .await
            .map_err(|e| format!("stopping the log cleaner: {e}"))?;
        // Flush every log, write the checkpoints and the clean-shutdown marker (with the
        // broker epoch, KIP-966).
        let epoch = state.lock().await.epoch.unwrap_or(-1);
        let replicas = replicas.clone();
        match tokio::task::spawn_blocking(move || replicas.shutdown(epoch)).await {
            Ok(Ok(())) => tracing::info!("logs flushed and closed cleanly"),
            Ok(Err(e)) => tracing::error!("closing the logs: {e}"),
            Err(e) => tracing::error!("closing the logs: {e}"),
        }
    }
    raft.resign();
    raft.shutdown();
    Ok(())
}

/// Replication's tasks, each one the node cannot live without: the replica fetchers (following
/// the images the replica manager applies), the ISR check every half
/// `replica.lag.time.max.ms`, and the AlterPartition sender.
fn spawn_replication(
    config: &ServerConfig,
    replicas: &Arc<fjord_broker::replica_manager::ReplicaManager>,
    controller: &Arc<ControllerClient>,
    view: &tokio::sync::watch::Receiver<fjord_broker::View>,
    state: &Arc<tokio::sync::Mutex<lifecycle::BrokerState>>,
    listener: &str,
    fatal: &Fatal,
) -> Result<(), String> {
    let int = |k: &str| i32::try_from(config.int(k)).unwrap_or(i32::MAX);
    let settings = fjord_broker::replica_fetcher::FetcherSettings {
        num_fetchers: usize::try_from(config.int("num.replica.fetchers")).unwrap_or(1),
        max_bytes: int("replica.fetch.max.bytes"),
        response_max_bytes: int("replica.fetch.response.max.bytes"),
        wait_max_ms: int("replica.fetch.wait.max.ms"),
        min_bytes: int("replica.fetch.min.bytes"),
        backoff: std::time::Duration::from_millis(
            u64::try_from(config.int("replica.fetch.backoff.ms")).unwrap_or(1_000),
        ),
        listener: listener.to_string(),
        security: security::client_security(
            config,
            listener,
            "sasl.mechanism.inter.broker.protocol",
        )?,
    };
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

/// The group coordinator's settings from the broker's keys.
fn coordinator_config(config: &ServerConfig) -> fjord_broker::group_coordinator::CoordinatorConfig {
    let int = |k: &str| config.int(k);
    let clamp_i32 = |v: i64| v.clamp(0, i64::from(i32::MAX)) as i32;
    fjord_broker::group_coordinator::CoordinatorConfig {
        group: fjord_group::GroupConfig {
            min_session_timeout_ms: clamp_i32(int("group.min.session.timeout.ms")),
            max_session_timeout_ms: clamp_i32(int("group.max.session.timeout.ms")),
            initial_rebalance_delay_ms: clamp_i32(int("group.initial.rebalance.delay.ms")),
            max_size: (int("group.max.size").max(1) as usize)
                .min(fjord_group::config::MAX_GROUP_MEMBERS),
            offset_metadata_max_bytes: int("offset.metadata.max.bytes").max(0) as usize,
            offsets_retention_ms: int("offsets.retention.minutes").max(1) * 60_000,
            offsets_retention_check_interval_ms: int("offsets.retention.check.interval.ms").max(1),
        },
        num_partitions: clamp_i32(int("offsets.topic.num.partitions")).max(1),
        replication_factor: int("offsets.topic.replication.factor").clamp(1, i64::from(i16::MAX))
            as i16,
        segment_bytes: int("offsets.topic.segment.bytes").max(1),
    }
}
