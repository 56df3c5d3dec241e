//! `fjord kafka-metadata-quorum` (as `kafka-metadata-quorum.sh`): `describe --status` and
//! `describe --replication` print what Kafka's tool prints; `add-controller` and
//! `remove-controller` change the voters (KIP-853). The tool finds the active controller with
//! DescribeCluster, then asks it.

use crate::common::{self, ToolError};
use clap::{Args as ClapArgs, Subcommand};
use fjord_admin::{expect_response, Admin, AdminError};
use fjord_config::{parse_properties, ServerConfig};
use fjord_log::MetaProperties;
use fjord_protocol::generated::{
    add_raft_voter_request::{self as arv, AddRaftVoterRequest},
    describe_quorum_request::{self as dqr, DescribeQuorumRequest},
    describe_quorum_response::DescribeQuorumResponse,
    remove_raft_voter_request::RemoveRaftVoterRequest,
    unregister_controller_request::UnregisterControllerRequest,
};
use fjord_protocol::{ErrorCode, RequestBody, Uuid};
use fjord_util::uuid_text;
use std::process::ExitCode;

/// The metadata log's topic name.
const METADATA_TOPIC: &str = "__cluster_metadata";

/// `kafka-metadata-quorum` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    connection: crate::common::Connection,
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
    common::run::<Args, _>("kafka-metadata-quorum", async {
        let out = run_async(args).await?;
        println!("{out}");
        Ok(())
    })
}

/// The admin client for the tool's flags. With `--command-config` naming a controller's
/// server.properties (add-controller), the file is not a client configuration and is not read
/// as one.
fn admin(args: &Args) -> Result<Admin, ToolError> {
    let client_config = match &args.command {
        Command::AddController { .. } => None,
        _ => args.connection.command_config.as_deref(),
    };
    common::admin(
        args.connection.bootstrap_server.as_deref(),
        args.connection.bootstrap_controller.as_deref(),
        client_config,
    )
}

/// The cluster id, from DescribeCluster at the bootstrap node.
async fn cluster_id(admin: &Admin) -> Result<String, AdminError> {
    let endpoint_type = if admin.via_controllers() { 2 } else { 1 };
    admin
        .retry(|| async {
            Ok(admin
                .describe_cluster(endpoint_type, false)
                .await?
                .cluster_id)
        })
        .await
}

async fn describe_quorum(admin: &Admin) -> Result<DescribeQuorumResponse, AdminError> {
    admin
        .retry(|| async {
            let r = admin
                .call_controller(
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
                    0..=2,
                )
                .await?;
            let r = expect_response!(r, DescribeQuorum)?;
            AdminError::check(r.error_code, r.error_message.as_deref())?;
            if let Some(p) = r.topics.first().and_then(|t| t.partitions.first()) {
                AdminError::check(p.error_code, p.error_message.as_deref())?;
            }
            Ok(r)
        })
        .await
}

/// The pointer printed when `remove-controller --unregister` cannot remove the voter.
fn unregister_pointer(id: i32) -> String {
    format!(
        "To unregister controller {id} without removing it from the voter set, use: \
         kafka-cluster unregister-controller --controller-id {id}"
    )
}

async fn run_async(args: &Args) -> Result<String, ToolError> {
    let admin = admin(args)?;
    match &args.command {
        Command::Describe {
            status,
            replication,
            human_readable,
        } => {
            if status == replication {
                return Err(ToolError::Usage(
                    "describe needs exactly one of --status or --replication".into(),
                ));
            }
            let r = describe_quorum(&admin).await?;
            if *status {
                Ok(render_status(&cluster_id(&admin).await?, &r))
            } else {
                Ok(render_replication(&r, *human_readable))
            }
        }
        Command::AddController { dry_run } => add_controller(&admin, args, *dry_run).await,
        Command::RemoveController {
            controller_id,
            controller_directory_id,
            dry_run,
            unregister,
        } => {
            remove_controller(
                &admin,
                *controller_id,
                controller_directory_id,
                *dry_run,
                *unregister,
            )
            .await
        }
    }
}

/// `add-controller`: the new controller's own configuration (`--command-config`) names it;
/// AddRaftVoter unless `dry_run`.
async fn add_controller(admin: &Admin, args: &Args, dry_run: bool) -> Result<String, ToolError> {
    let path = args.connection.command_config.as_ref().ok_or_else(|| {
        ToolError::Usage(
            "add-controller needs --command-config with the new controller's configuration".into(),
        )
    })?;
    let text = std::fs::read_to_string(path)
        .map_err(|e| ToolError::Failed(format!("{}: {e}", path.display())))?;
    let config = parse_properties(&text)
        .and_then(|p| ServerConfig::from_properties(p, &[]))
        .map_err(|e| ToolError::Failed(e.to_string()))?;
    let id = config
        .node_id()
        .map_err(|e| ToolError::Failed(e.to_string()))?;
    if !config
        .process_roles()
        .map_err(|e| ToolError::Failed(e.to_string()))?
        .controller
    {
        return Err(ToolError::Failed("process.roles did not contain 'controller' in configuration file. Is this a valid controller configuration file?".into()));
    }
    let dir = config.metadata_log_dir();
    let meta = MetaProperties::read(&dir)
        .map_err(|e| ToolError::Failed(e.to_string()))?
        .ok_or_else(|| {
            ToolError::Failed(format!(
                "Unable to read meta.properties from {}",
                dir.display()
            ))
        })?;
    let l = config
        .controller_listener()
        .map_err(|e| ToolError::Failed(e.to_string()))?;
    let host = if l.host.is_empty() {
        "localhost".to_string()
    } else {
        l.host.clone()
    };
    if !dry_run {
        let cluster_id = cluster_id(admin).await?;
        let r = admin
            .call_controller(
                RequestBody::AddRaftVoter(AddRaftVoterRequest {
                    cluster_id: Some(cluster_id),
                    timeout_ms: admin.config().request_timeout.as_millis() as i32,
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
                0..=1,
            )
            .await?;
        let r = expect_response!(r, AddRaftVoter)?;
        AdminError::check(r.error_code, r.error_message.as_deref())?;
    }
    Ok(format!(
        "{} controller {id} with directory id {} and endpoints: {}://{host}:{}",
        if dry_run {
            "DRY RUN of adding"
        } else {
            "Added"
        },
        uuid_text::encode(&meta.directory_id),
        l.name,
        l.port
    ))
}

/// `remove-controller`: RemoveRaftVoter unless `dry_run`, then (KIP-1312) the controller's
/// registration with `--unregister`.
async fn remove_controller(
    admin: &Admin,
    controller_id: i32,
    controller_directory_id: &str,
    dry_run: bool,
    unregister: bool,
) -> Result<String, ToolError> {
    if controller_id < 0 {
        return Err(ToolError::Usage(format!(
            "Invalid negative --controller-id: {controller_id}"
        )));
    }
    let dir: Uuid = uuid_text::decode(controller_directory_id).ok_or_else(|| {
        ToolError::Usage(format!(
            "Failed to parse --controller-directory-id: {controller_directory_id}"
        ))
    })?;
    if !dry_run {
        let removed = remove_voter(admin, controller_id, dir).await;
        match (removed, unregister) {
            (Ok(()), _) => {}
            (Err(e), false) => return Err(e.into()),
            (Err(e), true) => {
                return Err(ToolError::Failed(format!(
                    "Could not remove controller {controller_id} from the voter set: {e}\n{}",
                    unregister_pointer(controller_id)
                )))
            }
        }
    }
    let mut out = format!(
        "{} KRaft controller {controller_id} with directory id {controller_directory_id}",
        if dry_run {
            "DRY RUN of removing "
        } else {
            "Removed "
        }
    );
    if unregister {
        if dry_run {
            out.push_str(&format!(
                "\nDRY RUN of removing the registration of controller {controller_id}"
            ));
        } else {
            match unregister_controller(admin, controller_id).await {
                Ok(()) => out.push_str(&format!(
                    "\nRemoved the registration of controller {controller_id}"
                )),
                // The voter is gone and there was no registration to remove: the
                // state the operator asked for.
                Err(e) if e.code() == Some(ErrorCode::ControllerIdNotRegistered) => {
                    out.push_str(&format!(
                        "\nController {controller_id} was not registered; nothing to unregister"
                    ))
                }
                Err(e) => {
                    return Err(ToolError::Failed(format!(
                        "{out}\nbut its registration could not be removed: {e}"
                    )))
                }
            }
        }
    }
    Ok(out)
}

/// RemoveRaftVoter at the active controller, retried while the quorum settles.
async fn remove_voter(admin: &Admin, id: i32, dir: Uuid) -> Result<(), AdminError> {
    let cluster_id = cluster_id(admin).await?;
    admin
        .retry(|| async {
            let r = admin
                .call_controller(
                    RequestBody::RemoveRaftVoter(RemoveRaftVoterRequest {
                        cluster_id: Some(cluster_id.clone()),
                        voter_id: id,
                        voter_directory_id: dir,
                        ..Default::default()
                    }),
                    0..=0,
                )
                .await?;
            let r = expect_response!(r, RemoveRaftVoter)?;
            AdminError::check(r.error_code, r.error_message.as_deref())
        })
        .await
}

/// UnregisterController (KIP-1312) at the active controller, retried while the quorum settles
/// (the removed controller may have led).
pub(crate) async fn unregister_controller(admin: &Admin, id: i32) -> Result<(), AdminError> {
    admin
        .retry(|| async {
            let r = admin
                .call_controller(
                    RequestBody::UnregisterController(UnregisterControllerRequest {
                        controller_id: id,
                        ..Default::default()
                    }),
                    0..=0,
                )
                .await?;
            let r = expect_response!(r, UnregisterController)?;
            AdminError::check(r.error_code, r.error_message.as_deref())
        })
        .await
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
    let now = fjord_util::system_now_ms();
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
    crate::table::Table::fit(&[], "\t").lines(&rows).join("\n")
}
