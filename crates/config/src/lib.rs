//! Server configuration: Kafka's `server.properties` format and key names (CLI.md), the
//! embedded single-node default, `--override key=value`, and validation that names the key of
//! any invalid value. The keys, their types, bounds and defaults are `fjord-configdef`'s (those
//! it marks `read`); unknown keys are reported as warnings, as Kafka does.

use fjord_configdef::{broker, ConfigType};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A configuration error: the key and what is wrong with its value.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A value is invalid.
    #[error("invalid value {value:?} for configuration {key}: {reason}")]
    Invalid {
        /// The key.
        key: String,
        /// The value.
        value: String,
        /// Why.
        reason: String,
    },
    /// A required key is missing.
    #[error("missing required configuration {0}")]
    Missing(String),
    /// An `--override` is not `key=value`.
    #[error("--override {0:?} is not key=value")]
    BadOverride(String),
    /// The file is not in Java's properties format.
    #[error("not a properties file: {0}")]
    Syntax(String),
}

/// How a known key's value is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Int,
    Long,
    Bool,
    Text,
}

/// The kind a declared type is checked as here (a choice's words are checked by its reader).
fn kind_of(t: ConfigType) -> Kind {
    match t {
        ConfigType::Int(_) => Kind::Int,
        ConfigType::Long(_) => Kind::Long,
        ConfigType::Bool => Kind::Bool,
        _ => Kind::Text,
    }
}

/// Every key fjord reads from `server.properties` (declared in `fjord-configdef`): name,
/// kind, Kafka's default.
fn known() -> impl Iterator<Item = (&'static str, Kind, Option<&'static str>)> {
    broker::ALL
        .iter()
        .filter(|d| d.read)
        .map(|d| (d.name, kind_of(d.ty), d.default))
}

/// Every key read with a least value (its declared bound; no bound is the type's least).
fn minimums() -> impl Iterator<Item = (&'static str, i64)> {
    broker::ALL.iter().filter(|d| d.read).filter_map(|d| {
        let min = d.ty.min()?;
        (min > i64::from(i32::MIN)).then_some((d.name, min))
    })
}

/// Kafka's StandardAuthorizer: the `authorizer.class.name` that turns ACLs on.
pub const STANDARD_AUTHORIZER: &str = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";

/// Keys that may also be set per listener (`listener.name.<name>.<key>`), or per listener and
/// SASL mechanism (`listener.name.<name>.<mechanism>.sasl.*`, the JAAS entry and
/// OAUTHBEARER's keys).
fn per_listener(key: &str) -> bool {
    key.starts_with("ssl.")
        || key.starts_with("sasl.")
        || key == broker::CONNECTIONS_MAX_REAUTH_MS.name
        || key == broker::CONNECTION_FAILED_AUTHENTICATION_DELAY_MS.name
}

/// A listener: `NAME://host:port`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listener {
    /// Its name (`PLAINTEXT`, `CONTROLLER`, ...).
    pub name: String,
    /// The host (empty: all interfaces).
    pub host: String,
    /// The port.
    pub port: u16,
}

/// A parsed, validated configuration.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    values: BTreeMap<String, String>,
    /// Keys fjord does not know (reported as warnings).
    pub unknown: Vec<String>,
}

/// Parses Java properties text (`fjord_util::properties`, Java's full syntax).
pub fn parse_properties(text: &str) -> Result<BTreeMap<String, String>, ConfigError> {
    fjord_util::properties::parse(text).map_err(|e| ConfigError::Syntax(e.0))
}

impl ServerConfig {
    /// The embedded single-node default of `fjord server` with no arguments (CLI.md).
    pub fn embedded_default() -> ServerConfig {
        let values = [
            (broker::NODE_ID.name, "1"),
            (broker::PROCESS_ROLES.name, "broker,controller"),
            (
                broker::LISTENERS.name,
                "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093",
            ),
            (broker::CONTROLLER_LISTENER_NAMES.name, "CONTROLLER"),
            (
                broker::CONTROLLER_QUORUM_BOOTSTRAP_SERVERS.name,
                "127.0.0.1:9093",
            ),
            (broker::LOG_DIRS.name, "./fjord-data"),
            (broker::OFFSETS_TOPIC_REPLICATION_FACTOR.name, "1"),
            (broker::TRANSACTION_STATE_LOG_REPLICATION_FACTOR.name, "1"),
            (broker::TRANSACTION_STATE_LOG_MIN_ISR.name, "1"),
            (
                broker::SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR.name,
                "1",
            ),
            (broker::SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR.name, "1"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        ServerConfig {
            values,
            unknown: Vec::new(),
        }
    }

    /// The keys set explicitly (properties file and overrides), with their values.
    pub fn explicit(&self) -> &BTreeMap<String, String> {
        &self.values
    }

    /// Every key fjord knows: name, Kafka's DescribeConfigs type number, default.
    pub fn known_keys() -> Vec<(&'static str, i8, Option<&'static str>)> {
        known()
            .map(|(name, kind, default)| {
                let t = match kind {
                    Kind::Bool => 1,
                    Kind::Text => 2,
                    Kind::Int => 3,
                    Kind::Long => 5,
                };
                (name, t, default)
            })
            .collect()
    }

    /// Reads a properties file and applies `overrides` (`key=value`), then validates.
    pub fn load(path: &Path, overrides: &[String]) -> Result<ServerConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        ServerConfig::from_properties(parse_properties(&text)?, overrides)
    }

    /// Builds a configuration from parsed properties and overrides, and validates it.
    pub fn from_properties(
        mut values: BTreeMap<String, String>,
        overrides: &[String],
    ) -> Result<ServerConfig, ConfigError> {
        for o in overrides {
            let (k, v) = o
                .split_once('=')
                .ok_or_else(|| ConfigError::BadOverride(o.clone()))?;
            values.insert(k.trim().to_string(), v.trim().to_string());
        }
        // The object store's and the metadata topic's own keys, below their prefixes.
        let prefix = |def: &fjord_configdef::Def| {
            values
                .get(def.name)
                .cloned()
                .unwrap_or_else(|| def.default.unwrap_or_default().to_string())
        };
        let rsm = prefix(&broker::REMOTE_LOG_STORAGE_MANAGER_IMPL_PREFIX);
        let rlmm = prefix(&broker::REMOTE_LOG_METADATA_MANAGER_IMPL_PREFIX);
        let unknown = values
            .keys()
            .filter(|k| !known().any(|(n, _, _)| n == k.as_str()) && !known_listener_key(k))
            .filter(|k| !k.starts_with(rsm.as_str()) && !k.starts_with(rlmm.as_str()))
            .cloned()
            .collect();
        let c = ServerConfig { values, unknown };
        c.validate()?;
        Ok(c)
    }

    fn invalid(key: &str, value: &str, reason: impl Into<String>) -> ConfigError {
        ConfigError::Invalid {
            key: key.into(),
            value: value.into(),
            reason: reason.into(),
        }
    }

    fn validate(&self) -> Result<(), ConfigError> {
        for (key, kind, _) in known() {
            let Some(v) = self.values.get(key) else {
                continue;
            };
            let ok = match kind {
                Kind::Int => v.parse::<i32>().is_ok(),
                Kind::Long => v.parse::<i64>().is_ok(),
                Kind::Bool => v.eq_ignore_ascii_case("true") || v.eq_ignore_ascii_case("false"),
                Kind::Text => true,
            };
            if !ok {
                let what = match kind {
                    Kind::Int => "not a 32-bit integer",
                    Kind::Long => "not a 64-bit integer",
                    _ => "not a boolean (true or false)",
                };
                return Err(Self::invalid(key, v, what));
            }
        }
        if let Some(v) = self
            .values
            .get(fjord_configdef::broker::COMPRESSION_TYPE.name)
        {
            if fjord_log::config::parse_compression_type(v).is_none() {
                return Err(Self::invalid(
                    fjord_configdef::broker::COMPRESSION_TYPE.name,
                    v,
                    "String must be one of: uncompressed, zstd, lz4, snappy, gzip, producer",
                ));
            }
        }
        let node_id = self.node_id()?;
        if node_id < 0 {
            return Err(Self::invalid(
                broker::NODE_ID.name,
                &node_id.to_string(),
                "must be at least 0",
            ));
        }
        for (key, min) in minimums() {
            if let Some(v) = self.values.get(key) {
                if v.parse::<i64>().is_ok_and(|n| n < min) {
                    return Err(Self::invalid(key, v, format!("must be at least {min}")));
                }
            }
        }
        let roles = self.process_roles()?;
        self.listeners()?;
        if roles.controller {
            self.advertised_controller_listener()?;
        }
        if roles.broker {
            self.advertised_broker_listener()?;
        }
        for l in self.listeners()? {
            self.security_protocol(&l.name)?;
        }
        if let Some(a) = self
            .get(broker::AUTHORIZER_CLASS_NAME.name)
            .filter(|a| !a.is_empty())
        {
            if a != STANDARD_AUTHORIZER {
                return Err(Self::invalid(
                    broker::AUTHORIZER_CLASS_NAME.name,
                    a,
                    format!(
                        "fjord's authorizer is Kafka's StandardAuthorizer ({STANDARD_AUTHORIZER})"
                    ),
                ));
            }
        }
        if roles.broker {
            self.inter_broker_listener()?;
        }
        if roles.broker && self.broker_listener()?.is_none() {
            return Err(Self::invalid(
                broker::LISTENERS.name,
                self.get(broker::LISTENERS.name).unwrap_or_default(),
                "a broker needs a listener that is not a controller listener",
            ));
        }
        self.quorum_voters()?;
        self.bootstrap_servers()?;
        if self.quorum_voters()?.is_empty() && self.bootstrap_servers()?.is_empty() {
            return Err(ConfigError::Missing(
                "controller.quorum.voters or controller.quorum.bootstrap.servers".into(),
            ));
        }
        Ok(())
    }

    /// The raw key-value pairs that were given.
    pub fn values(&self) -> BTreeMap<String, String> {
        self.values.clone()
    }

    /// A raw value, or the key's default.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values
            .get(key)
            .map(String::as_str)
            .or_else(|| known().find(|(n, _, _)| *n == key).and_then(|(_, _, d)| d))
    }

    /// An integer value (validated at load).
    pub fn int(&self, key: &str) -> i64 {
        self.get(key).and_then(|v| v.parse().ok()).unwrap_or(0)
    }

    /// `node.id`.
    pub fn node_id(&self) -> Result<i32, ConfigError> {
        let v = self
            .values
            .get(broker::NODE_ID.name)
            .ok_or_else(|| ConfigError::Missing(broker::NODE_ID.name.into()))?;
        v.parse()
            .map_err(|_| Self::invalid(broker::NODE_ID.name, v, "not a 32-bit integer"))
    }

    /// `process.roles`.
    pub fn process_roles(&self) -> Result<Roles, ConfigError> {
        let v = self
            .values
            .get(broker::PROCESS_ROLES.name)
            .ok_or_else(|| ConfigError::Missing(broker::PROCESS_ROLES.name.into()))?;
        let mut roles = Roles::default();
        for r in v.split(',').map(str::trim).filter(|r| !r.is_empty()) {
            match r {
                "broker" => roles.broker = true,
                "controller" => roles.controller = true,
                other => {
                    return Err(Self::invalid(
                        broker::PROCESS_ROLES.name,
                        v,
                        format!("unknown role {other:?} (broker, controller)"),
                    ))
                }
            }
        }
        if !roles.broker && !roles.controller {
            return Err(Self::invalid(broker::PROCESS_ROLES.name, v, "no role"));
        }
        Ok(roles)
    }

    /// `listeners`.
    pub fn listeners(&self) -> Result<Vec<Listener>, ConfigError> {
        let v = self.get(broker::LISTENERS.name).unwrap_or_default();
        v.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                parse_listener(s)
                    .map_err(|r| Self::invalid(broker::LISTENERS.name, v, r.to_string()))
            })
            .collect()
    }

    /// The controller listener (the first name in `controller.listener.names`).
    pub fn controller_listener(&self) -> Result<Listener, ConfigError> {
        let names = self
            .get(broker::CONTROLLER_LISTENER_NAMES.name)
            .ok_or_else(|| ConfigError::Missing(broker::CONTROLLER_LISTENER_NAMES.name.into()))?;
        let name = names.split(',').next().unwrap_or("").trim();
        self.listeners()?
            .into_iter()
            .find(|l| l.name == name)
            .ok_or_else(|| {
                Self::invalid(
                    broker::CONTROLLER_LISTENER_NAMES.name,
                    names,
                    format!("no listener named {name} in listeners"),
                )
            })
    }

    /// `controller.quorum.voters`: `id@host:port,...`.
    pub fn quorum_voters(&self) -> Result<Vec<(i32, String, u16)>, ConfigError> {
        let v = self
            .get(broker::CONTROLLER_QUORUM_VOTERS.name)
            .unwrap_or_default();
        v.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                let bad = |r: &str| Self::invalid(broker::CONTROLLER_QUORUM_VOTERS.name, v, r);
                let (id, addr) = s
                    .split_once('@')
                    .ok_or_else(|| bad("expected id@host:port"))?;
                let id = id.parse().map_err(|_| bad("the id is not an integer"))?;
                let (host, port) = split_host_port(addr).map_err(|r| bad(&r.to_string()))?;
                Ok((id, host, port))
            })
            .collect()
    }

    /// `controller.quorum.bootstrap.servers`: `host:port,...`.
    pub fn bootstrap_servers(&self) -> Result<Vec<(String, u16)>, ConfigError> {
        let v = self
            .get(broker::CONTROLLER_QUORUM_BOOTSTRAP_SERVERS.name)
            .unwrap_or_default();
        v.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                split_host_port(s).map_err(|r| {
                    Self::invalid(
                        broker::CONTROLLER_QUORUM_BOOTSTRAP_SERVERS.name,
                        v,
                        r.to_string(),
                    )
                })
            })
            .collect()
    }

    /// `log.dirs` (or `log.dir`).
    pub fn log_dirs(&self) -> Vec<PathBuf> {
        let v = self
            .values
            .get(broker::LOG_DIRS.name)
            .map(String::as_str)
            .or(self.get(broker::LOG_DIR.name))
            .unwrap_or_default();
        v.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
            .collect()
    }

    /// The broker's client listener: the first listener that is not a controller listener.
    pub fn broker_listener(&self) -> Result<Option<Listener>, ConfigError> {
        let controller_names: Vec<String> = self
            .get(broker::CONTROLLER_LISTENER_NAMES.name)
            .unwrap_or_default()
            .split(',')
            .map(|n| n.trim().to_string())
            .collect();
        Ok(self
            .listeners()?
            .into_iter()
            .find(|l| !controller_names.contains(&l.name)))
    }

    /// The advertised address of the broker listener (`advertised.listeners`, else the
    /// listener itself, as Kafka's default; an empty host advertises 127.0.0.1).
    pub fn advertised_broker_listener(&self) -> Result<Option<Listener>, ConfigError> {
        let Some(l) = self.broker_listener()? else {
            return Ok(None);
        };
        self.advertised(l).map(Some)
    }

    /// The advertised address of the controller listener (`advertised.listeners`, else the
    /// listener itself; an empty host advertises 127.0.0.1): what the voter set, the
    /// controller's registration and every node dialling it use.
    pub fn advertised_controller_listener(&self) -> Result<Listener, ConfigError> {
        let l = self.controller_listener()?;
        self.advertised(l)
    }

    /// `l` as `advertised.listeners` names it, else `l`; an entry that does not parse is an
    /// error naming the key.
    fn advertised(&self, l: Listener) -> Result<Listener, ConfigError> {
        let advertised = self
            .get(broker::ADVERTISED_LISTENERS.name)
            .unwrap_or_default();
        let mut found = None;
        for entry in advertised
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let a = parse_listener(entry).map_err(|r| {
                Self::invalid(broker::ADVERTISED_LISTENERS.name, advertised, r.to_string())
            })?;
            if a.name == l.name {
                found = Some(a);
            }
        }
        let mut out = found.unwrap_or(l);
        if out.host.is_empty() {
            out.host = "127.0.0.1".into();
        }
        Ok(out)
    }

    /// A listener's value of `key`: `listener.name.<name>.<key>` (the name in lower case, as
    /// Kafka writes it), else `key` itself, else its default.
    pub fn listener_value(&self, listener: &str, key: &str) -> Option<String> {
        let prefixed = format!("listener.name.{}.{key}", listener.to_ascii_lowercase());
        self.values
            .get(&prefixed)
            .cloned()
            .or_else(|| self.get(key).map(str::to_string))
    }

    /// `key` for SASL `mechanism` on `listener`: `listener.name.<listener>.<mechanism>.<key>`
    /// (lowercase names, as Kafka spells them), else [`ServerConfig::listener_value`].
    pub fn mechanism_value(&self, listener: &str, mechanism: &str, key: &str) -> Option<String> {
        let scoped = format!(
            "listener.name.{}.{}.{key}",
            listener.to_ascii_lowercase(),
            mechanism.to_ascii_lowercase()
        );
        self.values
            .get(&scoped)
            .cloned()
            .or_else(|| self.listener_value(listener, key))
    }

    /// The security protocol of the listener `name`, from `listener.security.protocol.map`.
    pub fn security_protocol(&self, name: &str) -> Result<String, ConfigError> {
        let key = broker::LISTENER_SECURITY_PROTOCOL_MAP.name;
        let map = self.get(key).unwrap_or_default();
        for entry in map.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let (n, protocol) = entry.split_once(':').ok_or_else(|| {
                Self::invalid(key, map, format!("{entry:?} is not NAME:PROTOCOL"))
            })?;
            if n.trim() == name {
                let p = protocol.trim().to_ascii_uppercase();
                if !["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"].contains(&p.as_str()) {
                    return Err(Self::invalid(
                        key,
                        map,
                        format!("unknown security protocol {p} (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL)"),
                    ));
                }
                return Ok(p);
            }
        }
        Err(Self::invalid(
            key,
            map,
            format!("no security protocol defined for listener {name}"),
        ))
    }

    /// The broker's listeners: every listener that is not a controller listener.
    pub fn broker_listeners(&self) -> Result<Vec<Listener>, ConfigError> {
        let controller_names: Vec<String> = self
            .get(broker::CONTROLLER_LISTENER_NAMES.name)
            .unwrap_or_default()
            .split(',')
            .map(|n| n.trim().to_string())
            .collect();
        Ok(self
            .listeners()?
            .into_iter()
            .filter(|l| !controller_names.contains(&l.name))
            .collect())
    }

    /// The listener brokers replicate over: `inter.broker.listener.name`, else the listener
    /// named by `security.inter.broker.protocol` (Kafka's rule), else the first broker
    /// listener when no listener has that name (fjord's examples name theirs freely).
    pub fn inter_broker_listener(&self) -> Result<Option<Listener>, ConfigError> {
        let listeners = self.broker_listeners()?;
        if let Some(name) = self.values.get(broker::INTER_BROKER_LISTENER_NAME.name) {
            return listeners
                .into_iter()
                .find(|l| &l.name == name)
                .map(Some)
                .ok_or_else(|| {
                    Self::invalid(
                        broker::INTER_BROKER_LISTENER_NAME.name,
                        name,
                        "must be the name of a broker listener in listeners",
                    )
                });
        }
        let by_protocol = self
            .get(broker::SECURITY_INTER_BROKER_PROTOCOL.name)
            .unwrap_or("PLAINTEXT");
        Ok(listeners
            .iter()
            .find(|l| l.name == by_protocol)
            .or(listeners.first())
            .cloned())
    }

    /// Every broker listener as advertised (see [`ServerConfig::advertised_broker_listener`]).
    pub fn advertised_broker_listeners(&self) -> Result<Vec<Listener>, ConfigError> {
        self.broker_listeners()?
            .into_iter()
            .map(|l| self.advertised(l))
            .collect()
    }

    /// `metadata.log.dir`, else the first log dir.
    pub fn metadata_log_dir(&self) -> PathBuf {
        self.values
            .get(broker::METADATA_LOG_DIR.name)
            .map(PathBuf::from)
            .or_else(|| self.log_dirs().into_iter().next())
            .unwrap_or_else(|| PathBuf::from("/tmp/kafka-logs"))
    }

    /// Every directory to format: the log dirs and the metadata log dir.
    pub fn all_dirs(&self) -> Vec<PathBuf> {
        let mut dirs = self.log_dirs();
        let m = self.metadata_log_dir();
        if !dirs.contains(&m) {
            dirs.push(m);
        }
        dirs
    }
}

/// Whether `key` is `listener.name.<name>.<key>` (or `.<mechanism>.sasl.jaas.config`) of a
/// key that may be set per listener.
fn known_listener_key(key: &str) -> bool {
    let Some(rest) = key.strip_prefix("listener.name.") else {
        return false;
    };
    let Some((_, suffix)) = rest.split_once('.') else {
        return false;
    };
    per_listener(suffix)
        || suffix
            .split_once('.')
            .is_some_and(|(_, k)| k.starts_with("sasl."))
}

/// Which roles the node plays.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Roles {
    /// `broker`.
    pub broker: bool,
    /// `controller`.
    pub controller: bool,
}

/// Why text is not a listener or a `host:port` address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    /// Not `NAME://host:port`.
    #[error("{0:?} is not NAME://host:port")]
    NotListener(String),
    /// No `:port`.
    #[error("{0:?} has no port")]
    NoPort(String),
    /// The port is not a number from 0 to 65535.
    #[error("{0:?} is not a port number")]
    BadPort(String),
    /// A `[` without its `]`.
    #[error("{0:?}: unclosed '[' in the host")]
    Unclosed(String),
    /// An IPv6 host without brackets.
    #[error("{0:?}: an IPv6 host must be written in brackets")]
    Unbracketed(String),
}

/// Parses `NAME://host:port`.
pub fn parse_listener(s: &str) -> Result<Listener, AddressError> {
    let (name, rest) = s
        .split_once("://")
        .ok_or_else(|| AddressError::NotListener(s.to_string()))?;
    let (host, port) = split_host_port(rest)?;
    Ok(Listener {
        name: name.to_string(),
        host,
        port,
    })
}

/// Splits `host:port`; an IPv6 host is written in brackets and returned without them.
pub fn split_host_port(s: &str) -> Result<(String, u16), AddressError> {
    let (host, port) = s
        .rsplit_once(':')
        .ok_or_else(|| AddressError::NoPort(s.to_string()))?;
    let port = port
        .parse()
        .map_err(|_| AddressError::BadPort(port.to_string()))?;
    let host = match host.strip_prefix('[') {
        Some(h) => h
            .strip_suffix(']')
            .ok_or_else(|| AddressError::Unclosed(s.to_string()))?,
        None if host.contains(':') => return Err(AddressError::Unbracketed(s.to_string())),
        None => host,
    };
    Ok((host.to_string(), port))
}

/// `host:port` for dialling or binding, with an IPv6 host in brackets.
pub fn host_port(host: &str, port: u16) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_hosts_keep_their_brackets_and_advertised_listeners_default_to_listeners() {
        assert_eq!(split_host_port("[::1]:9092"), Ok(("::1".into(), 9092)));
        assert_eq!(host_port("::1", 9092), "[::1]:9092");
        assert_eq!(host_port("localhost", 9092), "localhost:9092");
        assert!(
            split_host_port("::1:9092").is_err(),
            "IPv6 without brackets"
        );
        assert!(split_host_port("[::1:9092").is_err());
        let mut p = base();
        p.insert("process.roles".into(), "broker,controller".into());
        p.insert(
            "listeners".into(),
            "PLAINTEXT://[::1]:9192,CONTROLLER://:19093".into(),
        );
        let c = ServerConfig::from_properties(p.clone(), &[]).unwrap();
        let b = c.advertised_broker_listener().unwrap().unwrap();
        assert_eq!((b.host.as_str(), b.port), ("::1", 9192));
        let ctl = c.advertised_controller_listener().unwrap();
        assert_eq!((ctl.host.as_str(), ctl.port), ("127.0.0.1", 19093));
        p.insert("advertised.listeners".into(), "PLAINTEXT:/nonsense".into());
        let e = ServerConfig::from_properties(p, &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("advertised.listeners"), "{e}");
    }

    #[test]
    fn properties_follow_javas_format() {
        let p = parse_properties(
            "# comment\n! also\nnode.id=3\nprocess.roles : controller\nlisteners CONTROLLER://127.0.0.1:19093\nlong=a,\\\n   b\nescaped\\=key=v\\tw\nu=caf\\u00e9\n",
        )
        .unwrap();
        assert_eq!(p["u"], "café");
        assert_eq!(p["node.id"], "3");
        assert_eq!(p["process.roles"], "controller");
        assert_eq!(p["listeners"], "CONTROLLER://127.0.0.1:19093");
        assert_eq!(p["long"], "a,b");
        assert_eq!(p["escaped=key"], "v\tw");
    }

    fn base() -> BTreeMap<String, String> {
        parse_properties(
            "node.id=1\nprocess.roles=controller\nlisteners=CONTROLLER://127.0.0.1:19093\n\
             controller.listener.names=CONTROLLER\ncontroller.quorum.voters=1@127.0.0.1:19093\n",
        )
        .unwrap()
    }

    #[test]
    fn invalid_values_name_their_key_and_unknown_keys_are_kept_as_warnings() {
        let c = ServerConfig::from_properties(base(), &["no.such.key=1".into()]).unwrap();
        assert_eq!(c.unknown, vec!["no.such.key".to_string()]);
        assert_eq!(
            c.quorum_voters().unwrap(),
            vec![(1, "127.0.0.1".into(), 19093)]
        );
        assert_eq!(c.int("controller.quorum.election.timeout.ms"), 1000);
        let e = ServerConfig::from_properties(
            base(),
            &["controller.quorum.fetch.timeout.ms=soon".into()],
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("controller.quorum.fetch.timeout.ms"),
            "{e}"
        );
        let e =
            ServerConfig::from_properties(base(), &["process.roles=leader".into()]).unwrap_err();
        assert!(e.to_string().contains("process.roles"), "{e}");
        let e =
            ServerConfig::from_properties(base(), &["controller.quorum.voters=1@nowhere".into()])
                .unwrap_err();
        assert!(e.to_string().contains("controller.quorum.voters"), "{e}");
        let e = ServerConfig::from_properties(base(), &["controller.listener.names=OTHER".into()])
            .unwrap_err();
        assert!(e.to_string().contains("no listener named OTHER"), "{e}");
        assert!(ServerConfig::from_properties(base(), &["bad".into()]).is_err());
        // Out of range, or too large for its type: an error naming the key, never a cast.
        for (kv, key) in [
            ("max.connections=-1", "max.connections"),
            (
                "broker.heartbeat.interval.ms=0",
                "broker.heartbeat.interval.ms",
            ),
            ("num.partitions=3000000000", "num.partitions"),
        ] {
            let e = ServerConfig::from_properties(base(), &[kv.into()]).unwrap_err();
            assert!(e.to_string().contains(key), "{kv}: {e}");
        }
    }

    #[test]
    fn the_embedded_default_is_valid() {
        let d = ServerConfig::embedded_default();
        d.validate().unwrap();
        assert_eq!(d.controller_listener().unwrap().port, 9093);
        assert_eq!(d.metadata_log_dir(), PathBuf::from("./fjord-data"));
    }
}
