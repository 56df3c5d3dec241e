//! `fjord kafka-metadata-quorum` (as `kafka-metadata-quorum.sh`): `describe --status` and
//! `describe --replication` print what Kafka's tool prints; `add-controller` and
//! `remove-controller` change the voters (KIP-853). The tool finds the active controller with
//! DescribeCluster, then asks it.

use super::{call_once, TOOL_TIMEOUT};
use crate::config::{parse_properties, ServerConfig};
use clap::{Args as ClapArgs, Subcommand};
use fjord_log::{uuid_text, MetaProperties};
use fjord_protocol::generated::{
    add_raft_voter_request::{self as arv, AddRaftVoterRequest},
    describe_cluster_request::DescribeClusterRequest,
    describe_quorum_request::{self as dqr, DescribeQuorumRequest},
    describe_quorum_response::DescribeQuorumResponse,
    remove_raft_voter_request::RemoveRaftVoterRequest,
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody, Uuid};
use fjord_raft::metadata_log::METADATA_TOPIC;
use std::process::ExitCode;

/// `kafka-metadata-quorum` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    /// A broker to ask (brokers forward to the controllers).
    #[arg(long)]
    bootstrap_server: Option<String>,
    /// A controller to ask.
    #[arg(long)]
    bootstrap_controller: Option<String>,
    /// The client configuration; for `add-controller`, the new controller's configuration.
    #[arg(long)]
    command_config: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Describe the metadata quorum.
    Describe {
        /// The leader, epoch, high watermark, lag and voters.
        #[arg(long)]
        status: bool,
        /// Each replica's log end offset, lag and fetch times.
        #[arg(long)]
        replication: bool,
        /// Times as "N ms ago".
        #[arg(long)]
        human_readable: bool,
    },
    /// Add the controller described by --command-config as a voter.
    AddController {
        /// Print what would be done without doing it.
        #[arg(long)]
        dry_run: bool,
    },
    /// Remove a voter.
    RemoveController {
        /// The controller's id.
        #[arg(long, short = 'i')]
        controller_id: i32,
        /// The controller's metadata directory id.
        #[arg(long, short = 'd')]
        controller_directory_id: String,
        /// Print what would be done without doing it.
        #[arg(long)]
        dry_run: bool,
        /// Also remove its controller registration (UnregisterController, KIP-1312), so a
        /// controller that is gone for good no longer blocks metadata.version upgrades.
        #[arg(long)]
        unregister: bool,
    },
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    match rt.block_on(run_async(args)) {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// Where the tool sends its requests, and the cluster id: with `--bootstrap-controller`, the
/// active controller found through DescribeCluster (controller endpoints, KIP-919); with
/// `--bootstrap-server`, the broker itself, which forwards quorum requests to the active
/// controller as Kafka's brokers do.
async fn target(args: &Args) -> Result<(String, String), String> {
    match (&args.bootstrap_controller, &args.bootstrap_server) {
        (Some(c), _) => active_controller(c).await,
        (None, Some(b)) => {
            let r = describe_cluster(b, 1).await?;
            Ok((r.cluster_id, b.clone()))
        }
        (None, None) => {
            Err("one of --bootstrap-server or --bootstrap-controller is required".into())
        }
    }
}

async fn describe_cluster(
    addr: &str,
    endpoint_type: i8,
) -> Result<fjord_protocol::generated::describe_cluster_response::DescribeClusterResponse, String> {
    let r = call_once(
        addr,
        RequestBody::DescribeCluster(DescribeClusterRequest {
            endpoint_type,
            ..Default::default()
        }),
        2,
    )
    .await?;
    let ResponseBody::DescribeCluster(r) = r else {
        return Err("unexpected response to DescribeCluster".into());
    };
    if r.error_code != 0 {
        return Err(format!(
            "DescribeCluster failed: {} {}",
            error_name(r.error_code),
            r.error_message.unwrap_or_default()
        ));
    }
    Ok(r)
}

/// Finds the active controller through the controller listener at `bootstrap`: (cluster id,
/// its address).
async fn active_controller(bootstrap: &str) -> Result<(String, String), String> {
    let r = describe_cluster(bootstrap, 2).await?;
    let leader = r
        .brokers
        .iter()
        .find(|b| b.broker_id == r.controller_id)
        .map(|b| crate::config::host_port(&b.host, b.port as u16))
        .ok_or_else(|| "the metadata quorum has no leader at the moment".to_string())?;
    Ok((r.cluster_id, leader))
}

fn error_name(code: i16) -> String {
    ErrorCode::from_code(code).map_or(format!("error {code}"), |e| format!("{e:?}"))
}

async fn describe_quorum(addr: &str) -> Result<DescribeQuorumResponse, String> {
    let r = call_once(
        addr,
        RequestBody::DescribeQuorum(DescribeQuorumRequest {
            topics: vec![dqr::TopicData {
                topic_name: METADATA_TOPIC.into(),
                partitions: vec![dqr::PartitionData {
                    partition_index: 0,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        }),
        2,
    )
    .await?;
    let ResponseBody::DescribeQuorum(r) = r else {
        return Err("unexpected response to DescribeQuorum".into());
    };
    if r.error_code != 0 {
        return Err(format!(
            "DescribeQuorum failed: {} {}",
            error_name(r.error_code),
            r.error_message.clone().unwrap_or_default()
        ));
    }
    Ok(r)
}

async fn run_async(args: &Args) -> Result<String, String> {
    let (cluster_id, leader) = target(args).await?;
    match &args.command {
        Command::Describe {
            status,
            replication,
            human_readable,
        } => {
            if status == replication {
                return Err("describe needs exactly one of --status or --replication".into());
            }
            let r = describe_quorum(&leader).await?;
            if *status {
                Ok(render_status(&cluster_id, &r))
            } else {
                Ok(render_replication(&r, *human_readable))
            }
        }
        Command::AddController { dry_run } => {
            let path = args.command_config.as_ref().ok_or(
                "add-controller needs --command-config with the new controller's configuration",
            )?;
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let config = parse_properties(&text)
                .and_then(|p| ServerConfig::from_properties(p, &[]))
                .map_err(|e| e.to_string())?;
            let id = config.node_id().map_err(|e| e.to_string())?;
            if !config
                .process_roles()
                .map_err(|e| e.to_string())?
                .controller
            {
                return Err("process.roles did not contain 'controller' in configuration file. Is this a valid controller configuration file?".into());
            }
            let dir = config.metadata_log_dir();
            let meta = MetaProperties::read(&dir)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("Unable to read meta.properties from {}", dir.display()))?;
            let l = config.controller_listener().map_err(|e| e.to_string())?;
            let host = if l.host.is_empty() {
                "localhost".to_string()
            } else {
                l.host.clone()
            };
            if !dry_run {
                let r = call_once(
                    &leader,
                    RequestBody::AddRaftVoter(AddRaftVoterRequest {
                        cluster_id: Some(cluster_id.clone()),
                        timeout_ms: TOOL_TIMEOUT.as_millis() as i32,
                        voter_id: id,
                        voter_directory_id: meta.directory_id,
                        listeners: vec![arv::Listener {
                            name: l.name.clone(),
                            host: host.clone(),
                            port: l.port,
                            ..Default::default()
                        }],
                        ack_when_committed: true,
                        ..Default::default()
                    }),
                    1,
                )
                .await?;
                let ResponseBody::AddRaftVoter(r) = r else {
                    return Err("unexpected response to AddRaftVoter".into());
                };
                if r.error_code != 0 {
                    return Err(format!(
                        "{}: {}",
                        error_name(r.error_code),
                        r.error_message.unwrap_or_default()
                    ));
                }
            }
            Ok(format!(
                "{} controller {id} with directory id {} and endpoints: {}://{host}:{}",
                if *dry_run {
                    "DRY RUN of adding"
                } else {
                    "Added"
                },
                uuid_text::encode(&meta.directory_id),
                l.name,
                l.port
            ))
        }
        Command::RemoveController {
            controller_id,
            controller_directory_id,
            dry_run,
            unregister,
        } => {
            if *controller_id < 0 {
                return Err(format!("Invalid negative --controller-id: {controller_id}"));
            }
            let dir: Uuid = uuid_text::decode(controller_directory_id).ok_or_else(|| {
                format!("Failed to parse --controller-directory-id: {controller_directory_id}")
            })?;
            if !dry_run {
                let r = call_once(
                    &leader,
                    RequestBody::RemoveRaftVoter(RemoveRaftVoterRequest {
                        cluster_id: Some(cluster_id.clone()),
                        voter_id: *controller_id,
                        voter_directory_id: dir,
                        ..Default::default()
                    }),
                    0,
                )
                .await?;
                let ResponseBody::RemoveRaftVoter(r) = r else {
                    return Err("unexpected response to RemoveRaftVoter".into());
                };
                if r.error_code != 0 {
                    return Err(format!(
                        "{}: {}",
                        error_name(r.error_code),
                        r.error_message.unwrap_or_default()
                    ));
                }
            }
            let mut out = format!(
                "{} KRaft controller {controller_id} with directory id {controller_directory_id}",
                if *dry_run {
                    "DRY RUN of removing "
                } else {
                    "Removed "
                }
            );
            if *unregister {
                if !dry_run {
                    unregister_controller(args, *controller_id).await?;
                }
                out.push_str(&format!(
                    "\n{} the registration of controller {controller_id}",
                    if *dry_run {
                        "DRY RUN of removing"
                    } else {
                        "Removed"
                    }
                ));
            }
            Ok(out)
        }
    }
}

/// UnregisterController (KIP-1312) at the active controller, found again after the voter
/// change (the removed controller may have led); retried while the quorum settles.
async fn unregister_controller(args: &Args, id: i32) -> Result<(), String> {
    use fjord_protocol::generated::unregister_controller_request::UnregisterControllerRequest;
    let deadline = tokio::time::Instant::now() + TOOL_TIMEOUT;
    loop {
        let attempt = async {
            let (_, leader) = target(args).await?;
            let r = call_once(
                &leader,
                RequestBody::UnregisterController(UnregisterControllerRequest {
                    controller_id: id,
                    ..Default::default()
                }),
                0,
            )
            .await?;
            let ResponseBody::UnregisterController(r) = r else {
                return Err("unexpected response to UnregisterController".to_string());
            };
            Ok((r.error_code, r.error_message))
        };
        match attempt.await {
            Ok((0, _)) => return Ok(()),
            Ok((code, message))
                if ErrorCode::from_code(code) != Some(ErrorCode::NotController)
                    || tokio::time::Instant::now() >= deadline =>
            {
                return Err(format!(
                    "{}: {}",
                    error_name(code),
                    message.unwrap_or_default()
                ));
            }
            Err(e) if tokio::time::Instant::now() >= deadline => return Err(e),
            _ => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
        }
    }
}

fn replica_node(r: &DescribeQuorumResponse, id: i32, dir: Uuid) -> String {
    let mut s = format!("{{\"id\": {id}");
    if !dir.is_nil() {
        s.push_str(&format!(
            ", \"directoryId\": \"{}\"",
            uuid_text::encode(&dir)
        ));
    }
    if let Some(n) = r.nodes.iter().find(|n| n.node_id == id) {
        if !n.listeners.is_empty() {
            let eps: Vec<String> = n
                .listeners
                .iter()
                .map(|l| format!("\"{}://{}:{}\"", l.name, l.host, l.port))
                .collect();
            s.push_str(&format!(", \"endpoints\": [{}]", eps.join(", ")));
        }
    }
    s.push('}');
    s
}

/// `describe --status`, as Kafka prints it.
pub fn render_status(cluster_id: &str, r: &DescribeQuorumResponse) -> String {
    let Some(p) = r.topics.first().and_then(|t| t.partitions.first()) else {
        return "no partition in the response".into();
    };
    let leader = p
        .current_voters
        .iter()
        .find(|v| v.replica_id == p.leader_id);
    let laggard = p.current_voters.iter().min_by_key(|v| v.log_end_offset);
    let (lag, lag_ms) = match (leader, laggard) {
        (Some(l), Some(f)) if l.replica_id != f.replica_id => (
            l.log_end_offset - f.log_end_offset,
            if l.last_caught_up_timestamp >= 0 && f.last_caught_up_timestamp >= 0 {
                l.last_caught_up_timestamp - f.last_caught_up_timestamp
            } else {
                -1
            },
        ),
        _ => (0, 0),
    };
    let voters: Vec<String> = p
        .current_voters
        .iter()
        .map(|v| replica_node(r, v.replica_id, v.replica_directory_id))
        .collect();
    let observers: Vec<String> = p
        .observers
        .iter()
        .map(|v| replica_node(r, v.replica_id, v.replica_directory_id))
        .collect();
    format!(
        "ClusterId:              {cluster_id}\n\
         LeaderId:               {}\n\
         LeaderEpoch:            {}\n\
         HighWatermark:          {}\n\
         MaxFollowerLag:         {lag}\n\
         MaxFollowerLagTimeMs:   {lag_ms}\n\
         CurrentVoters:          [{}]\n\
         CurrentObservers:       [{}]",
        p.leader_id,
        p.leader_epoch,
        p.high_watermark,
        voters.join(", "),
        observers.join(", ")
    )
}

/// `describe --replication`, as Kafka prints it (a table).
pub fn render_replication(r: &DescribeQuorumResponse, human_readable: bool) -> String {
    let Some(p) = r.topics.first().and_then(|t| t.partitions.first()) else {
        return "no partition in the response".into();
    };
    let leader_end = p
        .current_voters
        .iter()
        .find(|v| v.replica_id == p.leader_id)
        .map_or(0, |v| v.log_end_offset);
    let now = fjord_log::system_now_ms();
    let time = |t: i64| {
        if t < 0 {
            "-1".to_string()
        } else if human_readable {
            format!("{} ms ago", (now - t).max(0))
        } else {
            t.to_string()
        }
    };
    let mut rows = vec![vec![
        "NodeId".to_string(),
        "DirectoryId".into(),
        "LogEndOffset".into(),
        "Lag".into(),
        "LastFetchTimestamp".into(),
        "LastCaughtUpTimestamp".into(),
        "Status".into(),
    ]];
    let mut add = |v: &fjord_protocol::generated::describe_quorum_response::ReplicaState,
                   status: &str| {
        rows.push(vec![
            v.replica_id.to_string(),
            uuid_text::encode(&v.replica_directory_id),
            v.log_end_offset.to_string(),
            (leader_end - v.log_end_offset).to_string(),
            time(v.last_fetch_timestamp),
            time(v.last_caught_up_timestamp),
            status.to_string(),
        ]);
    };
    for v in p
        .current_voters
        .iter()
        .filter(|v| v.replica_id == p.leader_id)
    {
        add(v, "Leader");
    }
    for v in p
        .current_voters
        .iter()
        .filter(|v| v.replica_id != p.leader_id)
    {
        add(v, "Follower");
    }
    for v in &p.observers {
        add(v, "Observer");
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0))
        .collect();
    rows.iter()
        .map(|r| {
            r.iter()
                .enumerate()
                .map(|(c, cell)| format!("{cell:<w$}", w = widths[c]))
                .collect::<Vec<_>>()
                .join("\t")
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}
