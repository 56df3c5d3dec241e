//! The `fjord` command line: the subcommands and their flags, and the mapping from a link
//! named after one of Kafka's scripts to a subcommand. A library module so that tests parse
//! documented commands with the parser the binary uses.

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// fjord: a Kafka-compatible broker and KRaft controller.
#[derive(Parser)]
#[command(name = "fjord", version, about)]
pub struct Cli {
    #[command(subcommand)]
    /// The subcommand.
    pub command: Command,
}

/// The subcommands: the node, the storage tool and Kafka's tools.
#[derive(Subcommand)]
pub enum Command {
    /// Run a node: with no arguments, one node on the embedded default (data in ./fjord-data).
    Server {
        /// A server.properties file.
        #[arg(long)]
        config: Option<PathBuf>,
        /// Override one configuration key (key=value); may be repeated.
        #[arg(long = "override")]
        overrides: Vec<String>,
    },
    /// Format the log directories of a node (as kafka-storage.sh format).
    Format {
        /// The node's server.properties.
        #[arg(long, short = 'c')]
        config: PathBuf,
        /// Override one configuration key (key=value); may be repeated.
        #[arg(long = "override")]
        overrides: Vec<String>,
        /// The cluster id (from `fjord random-uuid`).
        #[arg(long, short = 't')]
        cluster_id: String,
        /// This controller is the only voter of a new dynamic quorum.
        #[arg(long, short = 's', conflicts_with_all = ["initial_controllers", "no_initial_controllers"])]
        standalone: bool,
        /// The first voters of a dynamic quorum: id@host:port:directory-id,...
        #[arg(long, short = 'I', conflicts_with = "no_initial_controllers")]
        initial_controllers: Option<String>,
        /// A controller that joins an existing dynamic quorum later (add-controller).
        #[arg(long, short = 'N')]
        no_initial_controllers: bool,
        /// Skip directories that are already formatted.
        #[arg(long, short = 'g')]
        ignore_formatted: bool,
        /// The metadata.version a new cluster starts at: a Kafka release ("3.9", "3.9-IV0") or
        /// a level; the newest this build supports by default.
        #[arg(long, short = 'r')]
        release_version: Option<String>,
        /// A SCRAM credential the new cluster starts with:
        /// 'SCRAM-SHA-256=[name=alice,password=alice-secret]'; may be repeated.
        #[arg(long = "add-scram", short = 'S')]
        add_scram: Vec<String>,
        /// A feature level the new cluster starts with, instead of the release's default:
        /// NAME=LEVEL (for example transaction.version=1); may be repeated.
        #[arg(long = "feature", short = 'f')]
        features: Vec<String>,
    },
    /// Print a new random id for a cluster or a directory.
    #[command(name = "random-uuid")]
    RandomUuid,
    /// Describe or change the metadata quorum (as kafka-metadata-quorum.sh).
    #[command(name = "kafka-metadata-quorum")]
    KafkaMetadataQuorum(fjord_tools::metadata_quorum::Args),
    /// Create, delete, list, alter and describe topics (as kafka-topics.sh).
    #[command(name = "kafka-topics")]
    KafkaTopics(fjord_tools::topics::Args),
    /// Elect leaders: preferred, unclean or designated (as kafka-leader-election.sh).
    #[command(name = "kafka-leader-election")]
    KafkaLeaderElection(fjord_tools::leader_election::Args),
    /// Recover offline partitions by electing the replica with the most data.
    #[command(name = "kafka-unclean-recovery")]
    KafkaUncleanRecovery(fjord_tools::unclean_recovery::Args),
    /// Produce lines from stdin to a topic (as kafka-console-producer.sh).
    #[command(name = "kafka-console-producer")]
    KafkaConsoleProducer(fjord_tools::console::producer::Args),
    /// Print a topic's records (as kafka-console-consumer.sh).
    #[command(name = "kafka-console-consumer")]
    KafkaConsoleConsumer(fjord_tools::console::consumer::Args),
    /// Describe and alter topic and broker configs and users' SCRAM credentials (as
    /// kafka-configs.sh).
    #[command(name = "kafka-configs")]
    KafkaConfigs(fjord_tools::configs::Args),
    /// Create, renew, expire and describe delegation tokens (as
    /// kafka-delegation-tokens.sh).
    #[command(name = "kafka-delegation-tokens")]
    KafkaDelegationTokens(fjord_tools::delegation_tokens::Args),
    /// Add, remove and list ACLs (as kafka-acls.sh).
    #[command(name = "kafka-acls")]
    KafkaAcls(fjord_tools::acls::Args),
    /// List, describe, reset and delete consumer groups (as kafka-consumer-groups.sh).
    #[command(name = "kafka-consumer-groups")]
    KafkaConsumerGroups(fjord_tools::consumer_groups::Args),
    /// Read a topic in a share group, acknowledging each record (as
    /// kafka-console-share-consumer.sh).
    #[command(name = "kafka-console-share-consumer")]
    KafkaConsoleShareConsumer(fjord_tools::console::share_consumer::Args),
    /// List, describe, reset and delete share groups (as kafka-share-groups.sh).
    #[command(name = "kafka-share-groups")]
    KafkaShareGroups(fjord_tools::share_groups::Args),
    /// List, describe, reset and delete streams groups (as kafka-streams-groups.sh).
    #[command(name = "kafka-streams-groups")]
    KafkaStreamsGroups(fjord_tools::streams_groups::Args),
    /// Describe, upgrade, downgrade and disable feature levels (as kafka-features.sh).
    #[command(name = "kafka-features")]
    KafkaFeatures(fjord_tools::features::Args),
    /// Move partitions between brokers and log dirs, with throttles (as
    /// kafka-reassign-partitions.sh).
    #[command(name = "kafka-reassign-partitions")]
    KafkaReassignPartitions(fjord_tools::reassign_partitions::Args),
    /// Describe the brokers' log directories (as kafka-log-dirs.sh).
    #[command(name = "kafka-log-dirs")]
    KafkaLogDirs(fjord_tools::log_dirs::Args),
    /// List, describe and abort transactions, and find hanging ones (as
    /// kafka-transactions.sh).
    #[command(name = "kafka-transactions")]
    KafkaTransactions(fjord_tools::transactions::Args),
    /// Cluster id, and unregistering brokers and controllers (as kafka-cluster.sh).
    #[command(name = "kafka-cluster")]
    KafkaCluster(fjord_tools::cluster::Args),
    /// Print the batches and records of log segment files (as kafka-dump-log.sh).
    #[command(name = "kafka-dump-log")]
    KafkaDumpLog(DumpLogArgs),
}

/// The flags of `kafka-dump-log`.
#[derive(clap::Args, Debug)]
pub struct DumpLogArgs {
    /// Comma-separated segment files (.log, .index, .timeindex) to dump.
    #[arg(long, required = true, value_delimiter = ',')]
    pub files: Vec<PathBuf>,
    /// Print every record of each batch.
    #[arg(long)]
    pub deep_iteration: bool,
    /// Print record keys and payloads (implies --deep-iteration).
    #[arg(long)]
    pub print_data_log: bool,
}

/// The command line's parser. As Kafka's tools do (`--request-required-acks -1`,
/// `--offset -2`), every subcommand takes a negative number as a flag's value.
pub fn command() -> clap::Command {
    fn negatives(c: clap::Command) -> clap::Command {
        c.allow_negative_numbers(true).mut_subcommands(negatives)
    }
    negatives(<Cli as clap::CommandFactory>::command())
}

impl Cli {
    /// Parses `args` with [`command`]; a usage error (or `--help`) says so and exits.
    pub fn from_args(args: Vec<std::ffi::OsString>) -> Cli {
        Cli::try_from_args(args).unwrap_or_else(|e| e.exit())
    }

    /// Parses `args` with [`command`].
    pub fn try_from_args<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = command().try_get_matches_from(args)?;
        <Cli as clap::FromArgMatches>::from_arg_matches(&matches)
    }
}

/// The tools a link may be named after (`kafka-topics.sh` or `kafka-topics`).
pub const TOOL_LINKS: &[&str] = &[
    "kafka-topics",
    "kafka-leader-election",
    "kafka-unclean-recovery",
    "kafka-cluster",
    "kafka-features",
    "kafka-configs",
    "kafka-acls",
    "kafka-delegation-tokens",
    "kafka-consumer-groups",
    "kafka-share-groups",
    "kafka-streams-groups",
    "kafka-console-producer",
    "kafka-console-consumer",
    "kafka-console-share-consumer",
    "kafka-metadata-quorum",
    "kafka-dump-log",
    "kafka-log-dirs",
    "kafka-reassign-partitions",
    "kafka-transactions",
];

/// The arguments as `fjord` subcommands when the binary was invoked through a link named as
/// one of Kafka's scripts: `kafka-topics.sh ARGS` is `fjord kafka-topics ARGS`,
/// `kafka-storage.sh format ARGS` is `fjord format ARGS`, and `kafka-server-start.sh
/// server.properties [--override k=v]...` is `fjord server --config server.properties ...`.
pub fn as_fjord_args(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let Some(first) = args.first() else {
        return args;
    };
    let invoked = std::path::Path::new(first)
        .file_name()
        .map(|n| n.to_string_lossy().trim_end_matches(".sh").to_string())
        .unwrap_or_default();
    let rest = args[1..].to_vec();
    let mut out: Vec<std::ffi::OsString> = vec!["fjord".into()];
    match invoked.as_str() {
        name if TOOL_LINKS.contains(&name) => {
            out.push(name.into());
            out.extend(rest);
        }
        "kafka-storage" => out.extend(rest),
        "kafka-server-start" => {
            out.push("server".into());
            let mut rest = rest.into_iter().peekable();
            if let Some(path) = rest.next_if(|a| !a.to_string_lossy().starts_with('-')) {
                out.push("--config".into());
                out.push(path);
            }
            out.extend(rest);
        }
        _ => return args,
    }
    out
}
