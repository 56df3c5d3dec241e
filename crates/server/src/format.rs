//! `fjord format` and `fjord random-uuid`, as `kafka-storage.sh format` and `random-uuid`:
//! writes `meta.properties` (cluster id, node id, a new directory id) into every log dir and
//! the metadata log dir, and for a dynamic quorum (`--standalone` or `--initial-controllers`)
//! the bootstrap snapshot `00000000000000000000-0000000000.checkpoint` holding the first
//! voter set.

use crate::config::ServerConfig;
use fjord_kraft::metadata_log::METADATA_TOPIC;
use fjord_kraft::snapshot_file;
use fjord_log::MetaProperties;
use fjord_protocol::MetadataRecord;
use fjord_protocol::Uuid;
use fjord_raft::control::{Endpoint, VoterInfo, VoterSet};
use fjord_raft::SnapshotId;
use fjord_util::system_now_ms as now_ms;
use fjord_util::uuid_text;
use std::path::{Path, PathBuf};

/// How the first voters are given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InitialVoters {
    /// Static voters from `controller.quorum.voters`, or a broker: no bootstrap voter set.
    None,
    /// This controller alone (`--standalone`).
    Standalone,
    /// `--initial-controllers id@host:port:directory-id,...`.
    Listed(Vec<(i32, String, u16, Uuid)>),
}

/// The `__cluster_metadata-0` directory under a metadata log dir.
pub fn metadata_partition_dir(metadata_log_dir: &Path) -> PathBuf {
    metadata_log_dir.join(format!("{METADATA_TOPIC}-0"))
}

/// Parses `--initial-controllers`.
pub(crate) fn parse_initial_controllers(s: &str) -> Result<Vec<(i32, String, u16, Uuid)>, String> {
    s.split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(|entry| {
            let bad = || format!("{entry:?} is not id@host:port:directory-id");
            let (id, rest) = entry.split_once('@').ok_or_else(bad)?;
            let id: i32 = id.parse().map_err(|_| bad())?;
            let (addr, dir) = rest.rsplit_once(':').ok_or_else(bad)?;
            let (host, port) = crate::config::split_host_port(addr).map_err(|_| bad())?;
            let dir = uuid_text::decode(dir).ok_or_else(bad)?;
            Ok((id, host, port, dir))
        })
        .collect()
}

/// The file in a controller's metadata log dir holding the records a new cluster starts from
/// (Kafka's name): the `metadata.version` to finalize, and any SCRAM credentials
/// (`--add-scram`).
pub const BOOTSTRAP_CHECKPOINT: &str = "bootstrap.checkpoint";

/// Writes `bootstrap.checkpoint` in `dir` with `metadata.version` at `level`, then `extra`.
fn write_bootstrap(dir: &Path, level: i16, extra: &[MetadataRecord]) -> Result<(), String> {
    use fjord_protocol::generated::feature_level_record::FeatureLevelRecord;
    let mut records = vec![MetadataRecord::FeatureLevel(FeatureLevelRecord {
        name: fjord_metadata::image::METADATA_VERSION.into(),
        feature_level: level,
        ..Default::default()
    })];
    records.extend_from_slice(extra);
    let state =
        fjord_metadata::snapshot::batch_of(&records, now_ms()).map_err(|e| e.to_string())?;
    let bytes = snapshot_file::build(None, &state, now_ms()).map_err(|e| e.to_string())?;
    let path = dir.join(BOOTSTRAP_CHECKPOINT);
    let part = dir.join(format!("{BOOTSTRAP_CHECKPOINT}.tmp"));
    std::fs::write(&part, &bytes)
        .and_then(|()| std::fs::rename(&part, &path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The feature levels a new cluster at `release` starts with: the release's defaults, with
/// `--feature NAME=LEVEL` arguments in their place. Each is written, level 0 included, so the
/// cluster starts exactly as formatted.
pub(crate) fn feature_records(
    release: i16,
    args: &[String],
) -> Result<Vec<MetadataRecord>, String> {
    use fjord_protocol::generated::feature_level_record::FeatureLevelRecord;
    let mut levels: std::collections::BTreeMap<String, i16> =
        fjord_metadata::version::bootstrap_features(release)
            .into_iter()
            .collect();
    for arg in args {
        let (name, level) = arg
            .split_once('=')
            .ok_or_else(|| format!("{arg:?} is not NAME=LEVEL"))?;
        let name = name.trim();
        if name == fjord_metadata::image::METADATA_VERSION {
            return Err("metadata.version is set with --release-version".into());
        }
        if name == fjord_metadata::version::KRAFT_VERSION {
            return Err(
                "kraft.version follows from the quorum: 1 with --standalone or \
                 --initial-controllers, 0 with controller.quorum.voters"
                    .into(),
            );
        }
        let level: i16 = level
            .trim()
            .parse()
            .map_err(|_| format!("{arg:?}: the level is not a number"))?;
        let (min, max) = fjord_metadata::version::supported_features()
            .into_iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, min, max)| (min, max))
            .ok_or_else(|| format!("unknown feature {name}"))?;
        if !(min..=max).contains(&level) {
            return Err(format!(
                "{name} level {level} is not supported: this build supports {min} to {max}"
            ));
        }
        levels.insert(name.to_string(), level);
    }
    Ok(levels
        .into_iter()
        .map(|(name, feature_level)| {
            MetadataRecord::FeatureLevel(FeatureLevelRecord {
                name,
                feature_level,
                ..Default::default()
            })
        })
        .collect())
}

/// The record that stores an `--add-scram` credential.
pub fn scram_record(spec: &fjord_tools::scram::ScramSpec) -> MetadataRecord {
    use fjord_protocol::generated::user_scram_credential_record::UserScramCredentialRecord;
    let c = fjord_net::sasl::scram::Credential::from_salted_password(
        spec.mechanism,
        &spec.salted_password,
        &spec.salt,
        spec.iterations,
    );
    MetadataRecord::UserScramCredential(UserScramCredentialRecord {
        name: spec.user.clone(),
        mechanism: spec.mechanism.code(),
        salt: spec.salt.clone().into(),
        stored_key: c.stored_key.into(),
        server_key: c.server_key.into(),
        iterations: spec.iterations as i32,
        ..Default::default()
    })
}

/// What `dir`'s `bootstrap.checkpoint` holds, if the file is there: the `metadata.version`,
/// and the other records a new cluster starts with.
pub(crate) fn read_bootstrap(dir: &Path) -> Result<Option<(i16, Vec<MetadataRecord>)>, String> {
    let path = dir.join(BOOTSTRAP_CHECKPOINT);
    let bytes = match std::fs::read(&path) {
        Ok(b) => bytes::Bytes::from(b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let bad = |e: String| format!("{}: {e}", path.display());
    let parsed = snapshot_file::parse(&bytes).map_err(|e| bad(e.to_string()))?;
    let mut batches = fjord_protocol::records::RecordBatches::new(parsed.state);
    let mut level = None;
    let mut others = Vec::new();
    for batch in batches.by_ref() {
        let batch = batch.map_err(|e| bad(e.to_string()))?;
        for r in fjord_metadata::snapshot::batch_records(&batch).map_err(|e| bad(e.to_string()))? {
            match r {
                MetadataRecord::FeatureLevel(f)
                    if f.name == fjord_metadata::image::METADATA_VERSION =>
                {
                    level = Some(f.feature_level)
                }
                other => others.push(other),
            }
        }
    }
    let level = level.ok_or_else(|| bad("no metadata.version in it".into()))?;
    Ok(Some((level, others)))
}

/// Formats every directory of `config`, a controller's with `bootstrap.checkpoint` at
/// `release` (`metadata.version`). Returns the lines Kafka's tool prints.
pub(crate) fn format(
    config: &ServerConfig,
    cluster_id: &str,
    initial: &InitialVoters,
    ignore_formatted: bool,
    (release, bootstrap_records): (i16, &[MetadataRecord]),
) -> Result<Vec<String>, String> {
    use fjord_metadata::version::{release_name, METADATA_VERSION_LATEST, METADATA_VERSION_MIN};
    if !(METADATA_VERSION_MIN..=METADATA_VERSION_LATEST).contains(&release) {
        return Err(format!(
            "Unsupported metadata.version {}: this build supports {} to {}",
            fjord_metadata::version::release_name(release),
            fjord_metadata::version::release_name(METADATA_VERSION_MIN),
            fjord_metadata::version::release_name(METADATA_VERSION_LATEST)
        ));
    }
    if uuid_text::decode(cluster_id).is_none() {
        return Err(format!(
            "Cluster ID string {cluster_id} does not appear to be a valid UUID"
        ));
    }
    let node_id = config.node_id().map_err(|e| e.to_string())?;
    let roles = config.process_roles().map_err(|e| e.to_string())?;
    let metadata_dir = config.metadata_log_dir();
    let voters = initial_voters(config, initial, node_id, roles.controller)?;
    if voters.is_some()
        && !config
            .quorum_voters()
            .map_err(|e| e.to_string())?
            .is_empty()
    {
        return Err(
            "--standalone and --initial-controllers are for a dynamic quorum \
             (controller.quorum.bootstrap.servers), not controller.quorum.voters"
                .into(),
        );
    }
    let mut out = Vec::new();
    let mut formatted_any = false;
    for dir in config.all_dirs() {
        if MetaProperties::read(&dir)
            .map_err(|e| e.to_string())?
            .is_some()
        {
            if ignore_formatted {
                continue;
            }
            return Err(format!(
                "Log directory {} is already formatted. Use --ignore-formatted to ignore this \
                 directory and format the others.",
                dir.display()
            ));
        }
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let is_metadata = dir == metadata_dir;
        let directory_id = match (&voters, is_metadata) {
            (Some(v), true) => v.get(&node_id).map_or_else(random_id, |me| me.directory_id),
            _ => random_id(),
        };
        MetaProperties {
            cluster_id: cluster_id.to_string(),
            node_id,
            directory_id,
        }
        .write(&dir)
        .map_err(|e| e.to_string())?;
        if is_metadata && roles.controller {
            write_bootstrap(&dir, release, bootstrap_records)?;
        }
        if is_metadata {
            if let Some(v) = &voters {
                write_voters_snapshot(&dir, v)?;
                out.push(format!(
                    "Formatting dynamic metadata voter directory {} with metadata.version {}.",
                    dir.display(),
                    release_name(release)
                ));
            } else {
                out.push(format!(
                    "Formatting metadata directory {} with metadata.version {}.",
                    dir.display(),
                    release_name(release)
                ));
            }
        } else {
            out.push(format!(
                "Formatting data directory {} with metadata.version {}.",
                dir.display(),
                release_name(release)
            ));
        }
        formatted_any = true;
    }
    if !formatted_any {
        out.push("All of the log directories are already formatted.".into());
    }
    Ok(out)
}

/// The voter set `--standalone` or `--initial-controllers` formats the metadata log with.
fn initial_voters(
    config: &ServerConfig,
    initial: &InitialVoters,
    node_id: i32,
    controller: bool,
) -> Result<Option<VoterSet>, String> {
    Ok(match initial {
        InitialVoters::None => None,
        InitialVoters::Standalone => {
            if !controller {
                return Err("--standalone is only for a controller".into());
            }
            let l = config
                .advertised_controller_listener()
                .map_err(|e| e.to_string())?;
            let dir = random_id();
            Some(
                [(
                    node_id,
                    VoterInfo {
                        id: node_id,
                        directory_id: dir,
                        endpoints: vec![Endpoint {
                            name: l.name,
                            host: l.host,
                            port: l.port,
                        }],
                    },
                )]
                .into(),
            )
        }
        InitialVoters::Listed(list) => {
            let name = config
                .controller_listener()
                .map(|l| l.name)
                .unwrap_or_else(|_| "CONTROLLER".into());
            Some(
                list.iter()
                    .map(|(id, host, port, dir)| {
                        (
                            *id,
                            VoterInfo {
                                id: *id,
                                directory_id: *dir,
                                endpoints: vec![Endpoint {
                                    name: name.clone(),
                                    host: host.clone(),
                                    port: *port,
                                }],
                            },
                        )
                    })
                    .collect(),
            )
        }
    })
}

/// Writes the metadata dir's first snapshot holding the voter set `voters`.
fn write_voters_snapshot(dir: &std::path::Path, voters: &VoterSet) -> Result<(), String> {
    let partition = metadata_partition_dir(dir);
    std::fs::create_dir_all(&partition).map_err(|e| format!("{}: {e}", partition.display()))?;
    let bytes = snapshot_file::build(Some(voters), &bytes::Bytes::new(), now_ms())
        .map_err(|e| e.to_string())?;
    snapshot_file::write(
        &partition,
        SnapshotId {
            end_offset: 0,
            epoch: 0,
        },
        &bytes,
    )
    .map(|_| ())
    .map_err(|e| e.to_string())
}

/// A new random cluster or directory id, in Kafka's text form. Like Kafka's, it never starts
/// with `-`, so it can follow a flag on a command line.
pub fn random_uuid() -> String {
    uuid_text::encode(&random_id())
}

/// A random id whose text form does not start with `-` (Kafka's `Uuid.randomUuid`).
pub fn random_id() -> Uuid {
    loop {
        let id = Uuid::new_v4();
        if !uuid_text::encode(&id).starts_with('-') {
            return id;
        }
    }
}
