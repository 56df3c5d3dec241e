//! `fjord kafka-dump-log --files F[,F...] [--deep-iteration] [--print-data-log]`.

use fjord_log::dump::{dump_file, DumpOptions};
use std::io::Write;
use std::process::ExitCode;

pub use fjord_server::cli::DumpLogArgs as Args;

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
