//! What the tools share: running a tool on a small runtime, building the admin client from the
//! common flags, and the error a tool ends with.

use fjord_admin::{Admin, AdminConfig, AdminError};
use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// How a tool failed: the message printed on stderr, and whether usage should follow it.
#[derive(Debug)]
pub enum ToolError {
    /// Bad arguments: printed with the tool's options, exit 1.
    Usage(String),
    /// The operation failed.
    Failed(String),
    /// The operation failed; the message goes to stdout, as some of Kafka's tools print it
    /// ("Error while executing topic command : ...").
    FailedStdout(String),
}

fjord_util::message_error! {
    /// An argument a tool cannot use (a malformed `--add-config`, election JSON or SCRAM spec):
    /// what is wrong, never quoting a secret.
    pub struct InvalidArgument;
}

impl From<AdminError> for ToolError {
    fn from(e: AdminError) -> ToolError {
        match e {
            AdminError::Config { .. } => ToolError::Usage(e.to_string()),
            e => ToolError::Failed(e.to_string()),
        }
    }
}

impl ToolError {
    /// A failure as Kafka's tools print it: the server's message for a Kafka error (a usage
    /// error for a bad setting).
    pub fn from_server(e: AdminError) -> ToolError {
        match e {
            AdminError::Config { .. } => ToolError::Usage(e.to_string()),
            e => ToolError::Failed(e.server_message()),
        }
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ToolError::Usage(m) | ToolError::Failed(m) | ToolError::FailedStdout(m) => {
                f.write_str(m)
            }
        }
    }
}

/// Runs a tool's future on a current-thread runtime; prints its error (a usage error with the
/// tool's usage, from its clap arguments `A`) and maps the result to an exit code (the tool
/// prints its own output as it goes).
pub fn run<A, F>(tool: &'static str, fut: F) -> ExitCode
where
    A: clap::Args,
    F: Future<Output = Result<(), ToolError>>,
{
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("{tool}: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    match rt.block_on(fut) {
        Ok(()) => ExitCode::SUCCESS,
        Err(ToolError::Usage(m)) => {
            // As Kafka's tools: the message, then the options.
            let help = A::augment_args(clap::Command::new(tool))
                .about(None::<&'static str>)
                .render_help();
            eprintln!("{m}");
            eprintln!("{help}");
            ExitCode::FAILURE
        }
        Err(ToolError::Failed(m)) => {
            eprintln!("{m}");
            ExitCode::FAILURE
        }
        Err(ToolError::FailedStdout(m)) => {
            println!("{m}");
            ExitCode::FAILURE
        }
    }
}

/// The connection options of the tools that reach a broker or a controller (one of the two).
#[derive(Debug, clap::Args)]
pub struct Connection {
    /// A broker to connect to, host:port (comma separated for several).
    #[arg(long)]
    pub bootstrap_server: Option<String>,
    /// A controller to connect to, host:port (comma separated for several).
    #[arg(long)]
    pub bootstrap_controller: Option<String>,
    /// Property file containing configs to be passed to Admin Client.
    #[arg(long)]
    pub command_config: Option<PathBuf>,
}

impl Connection {
    /// The admin client these options name.
    pub fn admin(&self) -> Result<Admin, ToolError> {
        admin(
            self.bootstrap_server.as_deref(),
            self.bootstrap_controller.as_deref(),
            self.command_config.as_deref(),
        )
    }
}

/// The connection options of the tools that reach brokers only.
#[derive(Debug, clap::Args)]
pub struct BrokerConnection {
    /// REQUIRED: a broker to connect to, host:port (comma separated for several).
    #[arg(long)]
    pub bootstrap_server: Option<String>,
    /// Property file containing configs to be passed to Admin Client.
    #[arg(long)]
    pub command_config: Option<PathBuf>,
}

impl BrokerConnection {
    /// The admin client these options name.
    pub fn admin(&self) -> Result<Admin, ToolError> {
        admin(
            self.bootstrap_server.as_deref(),
            None,
            self.command_config.as_deref(),
        )
    }
}

/// The admin client for the common flags; warnings about unknown keys go to stderr.
pub fn admin(
    bootstrap_server: Option<&str>,
    bootstrap_controller: Option<&str>,
    command_config: Option<&Path>,
) -> Result<Admin, ToolError> {
    let (config, warnings) =
        AdminConfig::from_args(bootstrap_server, bootstrap_controller, command_config)?;
    for w in warnings {
        eprintln!("WARN {w}");
    }
    Ok(Admin::new(config))
}

/// A Kafka error's name and message, as tools print them.
pub fn error_text(code: i16, message: Option<&str>) -> String {
    AdminError::from_code(code, message).map_or_else(String::new, |e| e.to_string())
}

/// A limit given as a flag where Kafka's tools read a negative number as none (as their -1
/// defaults of `--max-messages` or `--timeout-ms`).
pub fn limit(value: Option<i64>) -> Option<u64> {
    value.and_then(|v| u64::try_from(v).ok())
}

/// A flag's value that must not be negative (Kafka's tools parse any number; each says what it
/// takes).
pub fn non_negative(flag: &str, value: i64) -> Result<u64, ToolError> {
    u64::try_from(value)
        .map_err(|_| ToolError::Usage(format!("Option {flag} must not be negative: {value}")))
}

/// Kafka's check that exactly one of some options is given: `options` are (given, name).
pub fn exactly_one(options: &[(bool, &str)]) -> Result<(), ToolError> {
    if options.iter().filter(|(given, _)| *given).count() == 1 {
        return Ok(());
    }
    let names: Vec<&str> = options.iter().map(|(_, n)| *n).collect();
    Err(ToolError::Usage(format!(
        "One and only one of the following options is required: {}",
        names.join(", ")
    )))
}

/// The (year, month, day) of a day count since 1970-01-01 (Howard Hinnant's algorithm).
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// A time in ms since the epoch as `yyyy-MM-dd'T'HH:mm` in UTC (Kafka's tools print this
/// form in the JVM's time zone).
pub(crate) fn minutes_utc(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
}

#[cfg(test)]
mod time_tests {
    use super::*;

    #[test]
    fn times_are_civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_788), (2026, 12, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        // 2026-12-03T21:23:10.5Z
        assert_eq!(minutes_utc(1_796_332_990_500), "2026-12-03T21:23");
        assert_eq!(minutes_utc(0), "1970-01-01T00:00");
    }
}
