//! `fjord kafka-dump-log --files F[,F...] [--deep-iteration] [--print-data-log]`.

use fjord_log::dump::{dump_file, DumpOptions};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// The flags of `kafka-dump-log`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Comma-separated segment files (.log, .index, .timeindex) to dump.
    #[arg(long, required = true, value_delimiter = ',')]
    files: Vec<PathBuf>,
    /// Print every record of each batch.
    #[arg(long)]
    deep_iteration: bool,
    /// Print record keys and payloads (implies --deep-iteration).
    #[arg(long)]
    print_data_log: bool,
}

/// Dumps every file; a file that cannot be read is reported and makes the exit code 1.
pub fn run(args: &Args) -> ExitCode {
    let options = DumpOptions {
        deep_iteration: args.deep_iteration,
        print_data_log: args.print_data_log,
    };
    let mut failed = false;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for f in &args.files {
        match dump_file(f, options) {
            Ok(text) => {
                if out.write_all(text.as_bytes()).is_err() {
                    return ExitCode::FAILURE;
                }
            }
            Err(e) => {
                eprintln!("Error: {}: {e}", f.display());
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
