//! fjord's operator tools, one module per command, named after Kafka's scripts and printing
//! what Kafka's tools print. Each runs on the admin client (`fjord-admin`); the `fjord` binary
//! dispatches to them by subcommand or by the name it was invoked as (`kafka-topics.sh`).

pub mod acls;
mod client_quotas;
pub mod cluster;
pub mod configs;
pub mod console;
pub mod consumer_groups;
pub mod consumer_protocol;
pub mod delegation_tokens;
pub mod features;
pub mod group_command;
pub mod leader_election;
pub mod log_dirs;
pub mod metadata_quorum;
pub mod reassign_partitions;
pub mod scram;
pub mod share_groups;
pub mod streams_groups;
pub mod topics;
pub mod transactions;
pub mod unclean_recovery;

mod common;
pub mod table;

pub use common::ToolError;
