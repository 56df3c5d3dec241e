//! The `fjord` binary. For now it reports its version; the broker and controller roles arrive
//! with their issues.
use clap::{Parser, Subcommand};

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
}

fn main() {
    let cli = Cli::parse();
    match cli.command {
        Command::Server => {
            println!("fjord {}", env!("CARGO_PKG_VERSION"));
            println!(
                "Kafka protocol: {} APIs generated from schemas/",
                fjord_protocol::ApiKey::ALL.len()
            );
        }
    }
}
