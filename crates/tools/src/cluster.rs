//! `fjord kafka-cluster` (as `kafka-cluster.sh`): `cluster-id`, `unregister --id N` (a broker)
//! and `unregister-controller --controller-id N` (KIP-1312).

use crate::common::{self, ToolError};
use clap::{Args as ClapArgs, Subcommand};
use fjord_admin::{expect_response, AdminError};
use fjord_protocol::generated::unregister_broker_request::UnregisterBrokerRequest;
use fjord_protocol::{ErrorCode, RequestBody};
use std::path::PathBuf;
use std::process::ExitCode;

/// `kafka-cluster` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

/// The connection flags every subcommand takes.
#[derive(Debug, ClapArgs)]
struct Connection {
    /// A broker to connect to.
    #[arg(long, short = 'b')]
    bootstrap_server: Option<String>,
    /// A controller to connect to.
    #[arg(long, short = 'C')]
    bootstrap_controller: Option<String>,
    /// The admin client's properties.
    #[arg(long, short = 'c')]
    command_config: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Get information about the ID of a cluster.
    ClusterId {
        #[command(flatten)]
        connection: Connection,
    },
    /// Unregister a broker.
    Unregister {
        #[command(flatten)]
        connection: Connection,
        /// The ID of the broker to unregister.
        #[arg(long, short = 'i')]
        id: i32,
    },
    /// Unregister a controller that is stopped for good (it is then no longer consulted on
    /// feature upgrades). A voter must first leave the voter set
    /// (`kafka-metadata-quorum remove-controller --unregister` does both).
    UnregisterController {
        #[command(flatten)]
        connection: Connection,
        /// The ID of the controller to unregister.
        #[arg(long = "controller-id", visible_alias = "id", short = 'i')]
        controller_id: i32,
    },
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-cluster", run_async(args))
}

fn admin(c: &Connection) -> Result<fjord_admin::Admin, ToolError> {
    common::admin(
        c.bootstrap_server.as_deref(),
        c.bootstrap_controller.as_deref(),
        c.command_config.as_deref(),
    )
}

async fn run_async(args: &Args) -> Result<(), ToolError> {
    match &args.command {
        Command::ClusterId { connection } => {
            let admin = admin(connection)?;
            let endpoint_type = if admin.via_controllers() { 2 } else { 1 };
            let r = admin
                .retry(|| admin.describe_cluster(endpoint_type, false))
                .await?;
            println!("Cluster ID: {}", r.cluster_id);
            Ok(())
        }
        Command::Unregister { connection, id } => {
            let admin = admin(connection)?;
            let result = admin
                .retry(|| async {
                    let r = admin
                        .call_controller(
                            RequestBody::UnregisterBroker(UnregisterBrokerRequest {
                                broker_id: *id,
                                ..Default::default()
                            }),
                            0..=0,
                        )
                        .await?;
                    let r = expect_response!(r, UnregisterBroker)?;
                    AdminError::check(r.error_code, r.error_message.as_deref())
                })
                .await;
            match result {
                Ok(()) => {
                    println!("Broker {id} is no longer registered.");
                    Ok(())
                }
                Err(AdminError::UnsupportedVersion { .. }) => Err(ToolError::Failed(
                    "The target cluster does not support the broker unregistration API.".into(),
                )),
                Err(e) => Err(ToolError::Failed(e.server_message())),
            }
        }
        Command::UnregisterController {
            connection,
            controller_id,
        } => {
            let admin = admin(connection)?;
            match crate::metadata_quorum::unregister_controller(&admin, *controller_id).await {
                Ok(()) => {
                    println!("Controller {controller_id} is no longer registered.");
                    Ok(())
                }
                Err(AdminError::UnsupportedVersion { .. }) => Err(ToolError::Failed(
                    "The target cluster does not support the controller unregistration API.".into(),
                )),
                Err(e) if e.code() == Some(ErrorCode::InvalidRequest) => {
                    Err(ToolError::Failed(format!(
                        "{}\nTo remove it from the voter set and unregister it, use: \
                         kafka-metadata-quorum remove-controller --controller-id {controller_id} \
                         --controller-directory-id <ID> --unregister",
                        e.server_message()
                    )))
                }
                Err(e) => Err(ToolError::Failed(e.server_message())),
            }
        }
    }
}
