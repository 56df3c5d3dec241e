//! `fjord kafka-features` (as `kafka-features.sh`): `describe` the supported and finalized
//! feature levels (from ApiVersions), `upgrade`, `downgrade` and `disable` them
//! (UpdateFeatures), with Kafka's flags and output.

use crate::common::{self, ToolError};
use clap::{Args as ClapArgs, Subcommand};
use fjord_admin::{expect_response, Admin, AdminError};
use fjord_metadata::version::{parse_release, release_features, release_name, KAFKA_RELEASES};
use fjord_protocol::generated::update_features_request::{FeatureUpdateKey, UpdateFeaturesRequest};
use fjord_protocol::RequestBody;
use std::collections::BTreeMap;
use std::process::ExitCode;

/// The `metadata.version` feature.
const METADATA_VERSION: &str = "metadata.version";

/// `kafka-features` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    connection: crate::common::Connection,
    #[command(subcommand)]
    command: Command,
}

/// The levels an upgrade or a downgrade asks for.
#[derive(Debug, ClapArgs)]
struct Levels {
    /// The metadata.version to move to, for example 3.9-IV0 (deprecated: use
    /// --release-version).
    #[arg(long)]
    metadata: Option<String>,
    /// The release version to move to: metadata.version and every other feature at the
    /// release's default level. For example, 4.4-IV0.
    #[arg(long)]
    release_version: Option<String>,
    /// A feature to move, in feature=level format.
    #[arg(long = "feature")]
    features: Vec<String>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Describes the current active feature flags.
    Describe,
    /// Upgrade one or more feature flags.
    Upgrade {
        #[command(flatten)]
        levels: Levels,
        /// Validate this upgrade, but do not perform it.
        #[arg(long)]
        dry_run: bool,
    },
    /// Downgrade one or more feature flags.
    Downgrade {
        #[command(flatten)]
        levels: Levels,
        /// Perform this downgrade even if it may irreversibly destroy metadata.
        #[arg(long)]
        r#unsafe: bool,
        /// Validate this downgrade, but do not perform it.
        #[arg(long)]
        dry_run: bool,
    },
    /// Disable one or more feature flags (the same as downgrading the version to zero).
    Disable {
        /// A feature flag to disable.
        #[arg(long = "feature")]
        features: Vec<String>,
        /// Disable this feature flag even if it may irreversibly destroy metadata.
        #[arg(long)]
        r#unsafe: bool,
        /// Perform a dry-run of this disable operation.
        #[arg(long)]
        dry_run: bool,
    },
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-features", run_async(args))
}

/// A level as Kafka prints it: `metadata.version` by name, others as numbers.
pub fn level_text(feature: &str, level: i16) -> String {
    if feature == METADATA_VERSION {
        release_name(level)
    } else {
        level.to_string()
    }
}

async fn run_async(a: &Args) -> Result<(), ToolError> {
    let admin = a.connection.admin()?;
    match &a.command {
        Command::Describe => describe(&admin).await,
        Command::Upgrade { levels, dry_run } => {
            let updates = updates(levels, true)?;
            update(&admin, "upgrade", updates, 1, *dry_run).await
        }
        Command::Downgrade {
            levels,
            r#unsafe,
            dry_run,
        } => {
            let updates = updates(levels, false)?;
            update(
                &admin,
                "downgrade",
                updates,
                if *r#unsafe { 3 } else { 2 },
                *dry_run,
            )
            .await
        }
        Command::Disable {
            features,
            r#unsafe,
            dry_run,
        } => {
            let mut updates = BTreeMap::new();
            for f in features {
                if updates.insert(f.clone(), 0).is_some() {
                    return Err(ToolError::Failed(format!(
                        "Feature {f} was specified more than once."
                    )));
                }
            }
            update(
                &admin,
                "disable",
                updates,
                if *r#unsafe { 3 } else { 2 },
                *dry_run,
            )
            .await
        }
    }
}

async fn describe(admin: &Admin) -> Result<(), ToolError> {
    let r = admin.retry(|| admin.describe_features()).await?;
    let mut supported = r.supported_features.clone();
    supported.sort_by(|a, b| a.name.cmp(&b.name));
    for f in supported {
        let finalized = r
            .finalized_features
            .iter()
            .find(|x| x.name == f.name)
            .map_or(0, |x| x.max_version_level);
        // Kafka 4.4's columns: the name padded to 40, each level to 15, two spaces between.
        println!(
            "Feature: {:<40}  SupportedMinVersion: {:<15}  SupportedMaxVersion: {:<15}  FinalizedVersionLevel: {:<15}  Epoch: {}",
            f.name,
            level_text(&f.name, f.min_version),
            level_text(&f.name, f.max_version),
            level_text(&f.name, finalized),
            if r.finalized_features_epoch >= 0 {
                r.finalized_features_epoch.to_string()
            } else {
                "-".into()
            }
        );
    }
    Ok(())
}

/// The updates `--release-version`, `--metadata` and `--feature name=level` ask for, as
/// Kafka's tool builds them: a release version names metadata.version and every other
/// feature at that release's default level (an upgrade never sends a level of 0).
fn updates(levels: &Levels, upgrade: bool) -> Result<BTreeMap<String, i16>, ToolError> {
    let (metadata, features) = (levels.metadata.as_deref(), &levels.features);
    let level_of = |m: &str| {
        parse_release(m).ok_or_else(|| {
            let names: Vec<&str> = KAFKA_RELEASES.iter().map(|(_, n)| *n).collect();
            ToolError::Failed(format!(
                "Unknown metadata.version '{m}'. Supported metadata.version are: {}",
                names.join(", ")
            ))
        })
    };
    let mut out = BTreeMap::new();
    if let Some(r) = levels.release_version.as_deref() {
        if metadata.is_some() || !features.is_empty() {
            return Err(ToolError::Failed(
                "Can not specify `release-version` with other feature flags.".into(),
            ));
        }
        let level = level_of(r)?;
        out.insert(METADATA_VERSION.to_string(), level);
        for (feature, l) in release_features(level) {
            if !upgrade || l > 0 {
                out.insert(feature, l);
            }
        }
        return Ok(out);
    }
    if let Some(m) = metadata {
        println!(" `metadata` flag is deprecated and may be removed in a future release.");
        out.insert(METADATA_VERSION.to_string(), level_of(m)?);
    }
    for f in features {
        let (name, level) = f.split_once('=').ok_or_else(|| {
            ToolError::Failed(format!(
                "Can't parse feature=level string {f}: equals sign not found."
            ))
        })?;
        let level: i16 = level.trim().parse().map_err(|_| {
            ToolError::Failed(format!(
                "Can't parse feature=level string {f}: unable to parse {} as a short.",
                level.trim()
            ))
        })?;
        if out.insert(name.trim().to_string(), level).is_some() {
            return Err(ToolError::Failed(format!(
                "Feature {} was specified more than once.",
                name.trim()
            )));
        }
    }
    Ok(out)
}

/// UpdateFeatures, one line per feature as Kafka prints it; fails when any failed.
async fn update(
    admin: &Admin,
    op: &str,
    updates: BTreeMap<String, i16>,
    upgrade_type: i8,
    dry_run: bool,
) -> Result<(), ToolError> {
    if updates.is_empty() {
        return Err(ToolError::Failed(format!(
            "You must specify at least one feature to {op}"
        )));
    }
    let timeout_ms = admin.config().request_timeout.as_millis() as i32;
    let keys: Vec<FeatureUpdateKey> = updates
        .iter()
        .map(|(feature, level)| FeatureUpdateKey {
            feature: feature.clone(),
            max_version_level: *level,
            // v1 says it with the upgrade type (AllowDowngrade is v0 only).
            upgrade_type,
            ..Default::default()
        })
        .collect();
    let r = admin
        .retry(|| async {
            let r = admin
                .call_controller(
                    RequestBody::UpdateFeatures(UpdateFeaturesRequest {
                        timeout_ms,
                        feature_updates: keys.clone(),
                        validate_only: dry_run,
                        ..Default::default()
                    }),
                    1..=1,
                )
                .await?;
            let r = expect_response!(r, UpdateFeatures)?;
            // A controller that moved is retried; per-feature answers are reported below.
            match AdminError::from_code(r.error_code, r.error_message.as_deref()) {
                Some(e) if e.is_retriable() => Err(e),
                _ => Ok(r),
            }
        })
        .await?;
    let mut failures = 0;
    for (feature, level) in &updates {
        let result = r.results.iter().find(|x| &x.feature == feature);
        let error = match result {
            Some(x) if x.error_code != 0 => Some(x.error_message.clone().unwrap_or_default()),
            Some(_) => None,
            None if r.error_code != 0 => Some(r.error_message.clone().unwrap_or_default()),
            None => Some("no result from the controller".into()),
        };
        match error {
            Some(message) => {
                failures += 1;
                let what = if op == "disable" {
                    format!("disable {feature}")
                } else {
                    format!("{op} {feature} to {level}")
                };
                println!(
                    "{}{what}. {message}",
                    if dry_run { "Can not " } else { "Could not " }
                );
            }
            None => {
                let what = if op == "disable" {
                    "disabled.".to_string()
                } else {
                    format!("{op}d to {level}.")
                };
                println!(
                    "{feature}{}{what}",
                    if dry_run { " can be " } else { " was " }
                );
            }
        }
    }
    if failures > 0 {
        return Err(ToolError::Failed(format!(
            "{failures} out of {} operation(s) failed.",
            updates.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_versions_read_and_print_as_kafka_names() {
        assert_eq!(parse_release("3.9-IV0"), Some(21));
        assert_eq!(parse_release("3.7"), Some(19));
        assert_eq!(parse_release("28"), Some(28));
        assert_eq!(parse_release("2.8"), None);
        assert_eq!(parse_release("4.3"), Some(30));
        assert_eq!(
            parse_release("4.4"),
            Some(33),
            "a release is its last level"
        );
        assert_eq!(level_text(METADATA_VERSION, 25), "4.0-IV3");
        assert_eq!(level_text(METADATA_VERSION, 29), "4.2-IV1");
        assert_eq!(level_text(METADATA_VERSION, 33), "4.4-IV2");
        assert_eq!(
            level_text(METADATA_VERSION, 34),
            "34",
            "no name: the number"
        );
        assert_eq!(level_text("kraft.version", 1), "1");
    }

    #[test]
    fn feature_updates_are_parsed_as_kafka_does() {
        let levels = |m: Option<&str>, r: Option<&str>, f: &[&str]| Levels {
            metadata: m.map(str::to_string),
            release_version: r.map(str::to_string),
            features: f.iter().map(|s| s.to_string()).collect(),
        };
        let u = updates(&levels(Some("3.9"), None, &["group.version=1"]), true).unwrap();
        assert_eq!(u.get("metadata.version"), Some(&21));
        assert_eq!(u.get("group.version"), Some(&1));
        assert!(updates(&levels(None, None, &["x"]), true).is_err());
        assert!(updates(&levels(None, None, &["x=y"]), true).is_err());
        assert!(updates(&levels(Some("3.9"), None, &["metadata.version=21"]), true).is_err());
        // A release version is every feature at its default; with other flags it is refused.
        let u = updates(&levels(None, Some("4.4"), &[]), true).unwrap();
        assert_eq!(u.get("share.version"), Some(&2));
        assert_eq!(u.get("group.version"), Some(&1));
        assert_eq!(u.get("transaction.version"), Some(&2));
        assert_eq!(u.get("kraft.version"), Some(&1));
        assert_eq!(u.get("streams.version"), Some(&1));
        assert_eq!(u.get("eligible.leader.replicas.version"), Some(&1));
        assert!(u.get("metadata.version").is_some_and(|l| *l > 21));
        let u = updates(&levels(None, Some("3.9"), &[]), true).unwrap();
        assert_eq!(
            u.get("share.version"),
            None,
            "an upgrade never sends level 0"
        );
        let u = updates(&levels(None, Some("3.9"), &[]), false).unwrap();
        assert_eq!(u.get("share.version"), Some(&0));
        assert!(updates(&levels(Some("3.9"), Some("4.4"), &[]), true).is_err());
        assert!(updates(&levels(None, Some("4.4"), &["group.version=1"]), true).is_err());
    }
}
