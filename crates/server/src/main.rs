//! The `fjord` binary: `fjord server` (this build prints its version; the broker and
//! controller roles arrive with their issues) and the operator tools named after Kafka's
//! scripts, starting with `kafka-dump-log`.

mod dump_log;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// fjord: a Kafka-compatible broker and KRaft controller.
#[derive(Parser)]
#[command(name = "fjord", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the server (this build prints its version and the protocol it speaks).
    Server,
    /// Print the batches and records of log segment files (as kafka-dump-log.sh).
    #[command(name = "kafka-dump-log")]
    KafkaDumpLog(dump_log::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Server => {
            println!("fjord {}", env!("CARGO_PKG_VERSION"));
            println!(
                "Kafka protocol: {} APIs generated from schemas/",
                fjord_protocol::ApiKey::ALL.len()
            );
            ExitCode::SUCCESS
        }
        Command::KafkaDumpLog(args) => dump_log::run(&args),
    }
}
