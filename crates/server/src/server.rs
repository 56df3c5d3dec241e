//! `fjord server`: loads the configuration (or the embedded single-node default, formatting
//! `./fjord-data` on first start), checks the storage is formatted for this cluster and node,
//! starts the Raft driver over the metadata log, the metadata loop (image and, on the KRaft
//! leader, the active controller), the controller listener and the broker listener as the
//! roles ask, the broker's registration and heartbeats and each controller's registration; runs
//! until Ctrl-C or SIGTERM (then a controlled shutdown and a graceful resignation) or a fatal
//! error.

use crate::config::ServerConfig;
use crate::controller_listener::ControllerHandler;
use crate::format::{self, metadata_partition_dir, InitialVoters};
use crate::metadata_loop;
use fjord_broker::controller_client::ControllerClient;
use fjord_broker::lifecycle;
use fjord_broker::listener::BrokerHandler;
use fjord_controller::ControllerSettings;
use fjord_log::MetaProperties;
use fjord_raft::control::{Endpoint, VoterInfo};
use fjord_raft::driver::{DriverConfig, RaftHandle};
use std::process::ExitCode;
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
        let l = config.controller_listener().map_err(|e| e.to_string())?;
        d.endpoint = Some(Endpoint {
            name: l.name,
            host: if l.host.is_empty() {
                "127.0.0.1".into()
            } else {
                l.host
            },
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
        ..ControllerSettings::default()
    }
}

/// Binds a listener (an empty host means every interface) and serves it with `handler`.
async fn listen<H: fjord_raft::net::serve::Handler>(
    what: &str,
    l: &crate::config::Listener,
    handler: H,
    max_frame: usize,
) -> Result<(), String> {
    let host = if l.host.is_empty() {
        "0.0.0.0"
    } else {
        &l.host
    };
    let addr = format!("{host}:{}", l.port);
    let listener = tokio::net::TcpListener::bind(&addr)
        .await
        .map_err(|e| format!("binding the {what} listener {addr}: {e}"))?;
    tracing::info!(%addr, "{what} listener ready");
    tokio::spawn(fjord_raft::net::serve::serve(
        listener,
        Arc::new(handler),
        max_frame,
    ));
    Ok(())
}

async fn serve(config: ServerConfig) -> Result<(), String> {
    let roles = config.process_roles().map_err(|e| e.to_string())?;
    let (cluster_id, meta) = storage(&config)?;
    let node_id = meta.node_id;
    let driver = driver_config(&config, cluster_id.clone(), &meta)?;
    let (raft, commits) = RaftHandle::start(driver, tokio::runtime::Handle::current())?;
    tracing::info!(node_id, %cluster_id, "metadata log started");
    let (fatal_tx, mut fatal) = tokio::sync::mpsc::unbounded_channel();
    let (view, local_controller) = metadata_loop::spawn(
        raft.clone(),
        commits,
        controller_settings(&config),
        cluster_id.clone(),
        roles.controller,
        u64::try_from(config.int("metadata.log.max.record.bytes.between.snapshots"))
            .unwrap_or(u64::MAX),
        fatal_tx,
    );
    let client = Arc::new(ControllerClient::new(raft.quorum_info()));
    let max_frame = usize::try_from(config.int("socket.request.max.bytes")).unwrap_or(0);
    let incarnation = format::random_id();
    if roles.controller {
        let l = config.controller_listener().map_err(|e| e.to_string())?;
        let handler = ControllerHandler {
            raft: raft.clone(),
            controller: local_controller.clone(),
        };
        listen("controller", &l, handler, max_frame).await?;
        lifecycle::spawn_controller_registration(
            lifecycle::ControllerIdentity {
                node_id,
                incarnation,
                listener: lifecycle::Advertised {
                    name: l.name.clone(),
                    host: if l.host.is_empty() {
                        "127.0.0.1".into()
                    } else {
                        l.host.clone()
                    },
                    port: l.port,
                },
            },
            client.clone(),
            view.clone(),
        );
    }
    let mut broker = None;
    if roles.broker {
        let l = config
            .broker_listener()
            .map_err(|e| e.to_string())?
            .ok_or("a broker needs a listener")?;
        let adv = config
            .advertised_broker_listener()
            .map_err(|e| e.to_string())?
            .ok_or("a broker needs a listener")?;
        let handler = BrokerHandler {
            view: view.clone(),
            controller: client.clone(),
            cluster_id: cluster_id.clone(),
            listener_name: l.name.clone(),
            auto_create_topics: config
                .get("auto.create.topics.enable")
                .is_some_and(|v| v.eq_ignore_ascii_case("true")),
        };
        listen("broker", &l, handler, max_frame).await?;
        let mut log_dirs = Vec::new();
        for dir in config.log_dirs() {
            if let Ok(Some(m)) = MetaProperties::read(&dir) {
                log_dirs.push(m.directory_id);
            }
        }
        let identity = lifecycle::BrokerIdentity {
            node_id,
            cluster_id: cluster_id.clone(),
            incarnation,
            listeners: vec![lifecycle::Advertised {
                name: adv.name.clone(),
                host: adv.host.clone(),
                port: adv.port,
            }],
            rack: config.get("broker.rack").map(str::to_string),
            log_dirs,
            heartbeat_interval: std::time::Duration::from_millis(
                config.int("broker.heartbeat.interval.ms").max(10) as u64,
            ),
        };
        let state = lifecycle::spawn_broker(identity.clone(), client.clone(), view.clone());
        broker = Some((identity, state));
    }
    let mut info = raft.quorum_info();
    let mut last_leader = None;
    let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| format!("installing the SIGTERM handler: {e}"))?;
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
                if let Some(f) = f {
                    return Err(format!("the metadata image failed: {f}"));
                }
            }
            _ = tokio::signal::ctrl_c() => break,
            _ = sigterm.recv() => break,
        }
    }
    tracing::info!("shutting down");
    if let Some((identity, state)) = &broker {
        lifecycle::controlled_shutdown(
            identity,
            &client,
            state,
            &view,
            std::time::Duration::from_secs(5),
        )
        .await;
    }
    raft.resign();
    raft.shutdown();
    Ok(())
}
