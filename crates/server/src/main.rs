//! The `fjord` binary: `fjord server` (the node), `fjord format` and `fjord random-uuid` (as
//! `kafka-storage.sh`), and the operator tools named after Kafka's scripts.

mod controller_listener;
mod dump_log;
mod format;
mod metrics;
mod server;

use fjord_config as config;
use fjord_server::cli::{as_fjord_args, Cli, Command};
use std::process::ExitCode;

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr)
        .try_init();
}

fn main() -> ExitCode {
    let cli = Cli::from_args(as_fjord_args(std::env::args_os().collect()));
    match cli.command {
        Command::Server { config, overrides } => {
            init_logging();
            let (cfg, embedded) = match config {
                Some(path) => match config::ServerConfig::load(&path, &overrides) {
                    Ok(c) => (c, false),
                    Err(e) => {
                        eprintln!("fjord: {e}");
                        return ExitCode::FAILURE;
                    }
                },
                None => {
                    let mut values = config::ServerConfig::embedded_default();
                    if !overrides.is_empty() {
                        match config::ServerConfig::from_properties(values.values(), &overrides) {
                            Ok(c) => values = c,
                            Err(e) => {
                                eprintln!("fjord: {e}");
                                return ExitCode::FAILURE;
                            }
                        }
                    }
                    (values, true)
                }
            };
            server::run(cfg, embedded)
        }
        Command::Format {
            config,
            overrides,
            cluster_id,
            standalone,
            initial_controllers,
            no_initial_controllers: _,
            ignore_formatted,
            release_version,
            add_scram,
            features,
        } => {
            let mut scram = Vec::new();
            for arg in &add_scram {
                match fjord_tools::scram::parse_add_scram(arg) {
                    Ok(spec) => scram.push(format::scram_record(&spec)),
                    Err(e) => {
                        eprintln!("--add-scram: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            }
            let release = match release_version.as_deref() {
                None => fjord_metadata::version::METADATA_VERSION_LATEST,
                Some(v) => match fjord_metadata::version::parse_release(v) {
                    Some(l) => l,
                    None => {
                        eprintln!("Unknown release version {v:?}: give a Kafka release such as 3.9 or 3.9-IV0, or a metadata.version level");
                        return ExitCode::FAILURE;
                    }
                },
            };
            match format::feature_records(release, &features) {
                Ok(records) => scram.extend(records),
                Err(e) => {
                    eprintln!("--feature: {e}");
                    return ExitCode::FAILURE;
                }
            }
            let cfg = match config::ServerConfig::load(&config, &overrides) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::FAILURE;
                }
            };
            let initial = if standalone {
                format::InitialVoters::Standalone
            } else if let Some(list) = initial_controllers {
                match format::parse_initial_controllers(&list) {
                    Ok(l) => format::InitialVoters::Listed(l),
                    Err(e) => {
                        eprintln!("--initial-controllers: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            } else {
                format::InitialVoters::None
            };
            match format::format(
                &cfg,
                &cluster_id,
                &initial,
                ignore_formatted,
                (release, &scram),
            ) {
                Ok(lines) => {
                    lines.iter().for_each(|l| println!("{l}"));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::RandomUuid => {
            println!("{}", format::random_uuid());
            ExitCode::SUCCESS
        }
        Command::KafkaMetadataQuorum(args) => fjord_tools::metadata_quorum::run(&args),
        Command::KafkaTopics(args) => fjord_tools::topics::run(&args),
        Command::KafkaLeaderElection(args) => fjord_tools::leader_election::run(&args),
        Command::KafkaUncleanRecovery(args) => fjord_tools::unclean_recovery::run(&args),
        Command::KafkaCluster(args) => fjord_tools::cluster::run(&args),
        Command::KafkaFeatures(args) => fjord_tools::features::run(&args),
        Command::KafkaLogDirs(args) => fjord_tools::log_dirs::run(&args),
        Command::KafkaReassignPartitions(args) => fjord_tools::reassign_partitions::run(&args),
        Command::KafkaTransactions(args) => fjord_tools::transactions::run(&args),
        Command::KafkaConfigs(args) => fjord_tools::configs::run(&args),
        Command::KafkaDelegationTokens(args) => fjord_tools::delegation_tokens::run(&args),
        Command::KafkaAcls(args) => fjord_tools::acls::run(&args),
        Command::KafkaConsumerGroups(args) => fjord_tools::consumer_groups::run(&args),
        Command::KafkaShareGroups(args) => fjord_tools::share_groups::run(&args),
        Command::KafkaStreamsGroups(args) => fjord_tools::streams_groups::run(&args),
        Command::KafkaConsoleShareConsumer(args) => {
            fjord_tools::console::share_consumer::run(&args)
        }
        Command::KafkaConsoleProducer(args) => fjord_tools::console::producer::run(&args),
        Command::KafkaConsoleConsumer(args) => fjord_tools::console::consumer::run(&args),
        Command::KafkaDumpLog(args) => dump_log::run(&args),
    }
}
