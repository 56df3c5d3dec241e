//! Client settings: Kafka's admin-client keys, read from a `--command-config` properties file.

use crate::AdminError;
use fjord_net::sasl::jaas;
use fjord_net::security::{ClientSecurity, SaslCredentials, SecurityProtocol};
use fjord_net::tls::TlsSettings;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// Kafka's default `request.timeout.ms` for the admin client.
pub const DEFAULT_REQUEST_TIMEOUT_MS: u64 = 30_000;
/// Kafka's default `default.api.timeout.ms`.
pub const DEFAULT_API_TIMEOUT_MS: u64 = 60_000;
/// Kafka's default `retry.backoff.ms`.
pub const DEFAULT_RETRY_BACKOFF_MS: u64 = 100;
/// Kafka's default `retry.backoff.max.ms`.
pub const DEFAULT_RETRY_BACKOFF_MAX_MS: u64 = 1_000;
/// The client id sent when `client.id` is not set.
pub const DEFAULT_CLIENT_ID: &str = "fjord-admin";

/// Where the client starts: brokers (admin requests are forwarded by them to the active
/// controller) or the controllers themselves (KIP-919).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bootstrap {
    /// `--bootstrap-server` / `bootstrap.servers`.
    Servers(Vec<String>),
    /// `--bootstrap-controller` / `bootstrap.controllers`.
    Controllers(Vec<String>),
}

/// The admin client's settings.
#[derive(Debug, Clone)]
pub struct AdminConfig {
    /// Where to start.
    pub bootstrap: Bootstrap,
    /// `client.id`.
    pub client_id: String,
    /// `request.timeout.ms`: how long one request waits for its answer.
    pub request_timeout: Duration,
    /// `default.api.timeout.ms`: how long an operation retries in all.
    pub api_timeout: Duration,
    /// `retry.backoff.ms`: the first wait between attempts.
    pub retry_backoff: Duration,
    /// `retry.backoff.max.ms`: the longest wait between attempts.
    pub retry_backoff_max: Duration,
    /// The keys the `--command-config` file set (a tool's own defaults yield to them).
    pub explicit: std::collections::BTreeSet<String>,
    /// How connections authenticate (`security.protocol`, `ssl.*`, `sasl.*`).
    pub security: ClientSecurity,
}

/// Keys the admin client reads; others are reported as unknown, as Kafka's clients do.
const KNOWN_KEYS: &[&str] = &[
    "bootstrap.servers",
    "bootstrap.controllers",
    "client.id",
    "request.timeout.ms",
    "default.api.timeout.ms",
    "retry.backoff.ms",
    "retry.backoff.max.ms",
    "security.protocol",
    "sasl.mechanism",
    "sasl.jaas.config",
    "sasl.kerberos.service.name",
    "ssl.truststore.type",
    "ssl.truststore.location",
    "ssl.truststore.password",
    "ssl.truststore.certificates",
    "ssl.keystore.type",
    "ssl.keystore.location",
    "ssl.keystore.password",
    "ssl.keystore.key",
    "ssl.keystore.certificate.chain",
    "ssl.key.password",
    "ssl.endpoint.identification.algorithm",
    "ssl.enabled.protocols",
    "ssl.protocol",
    "ssl.cipher.suites",
    "connections.max.idle.ms",
    "metadata.max.age.ms",
    "socket.connection.setup.timeout.ms",
    "socket.connection.setup.timeout.max.ms",
];

impl AdminConfig {
    /// Settings for `bootstrap` with Kafka's defaults.
    pub fn new(bootstrap: Bootstrap) -> AdminConfig {
        AdminConfig {
            bootstrap,
            client_id: DEFAULT_CLIENT_ID.into(),
            request_timeout: Duration::from_millis(DEFAULT_REQUEST_TIMEOUT_MS),
            api_timeout: Duration::from_millis(DEFAULT_API_TIMEOUT_MS),
            retry_backoff: Duration::from_millis(DEFAULT_RETRY_BACKOFF_MS),
            retry_backoff_max: Duration::from_millis(DEFAULT_RETRY_BACKOFF_MAX_MS),
            explicit: Default::default(),
            security: ClientSecurity::plaintext(),
        }
    }

    /// Settings from the tool's flags and its `--command-config` file: a flag's bootstrap wins
    /// over the file's. Returns the settings and a warning per unknown key.
    pub fn from_args(
        bootstrap_server: Option<&str>,
        bootstrap_controller: Option<&str>,
        command_config: Option<&Path>,
    ) -> Result<(AdminConfig, Vec<String>), AdminError> {
        let props = match command_config {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| AdminError::Config {
                    key: "--command-config".into(),
                    value: path.display().to_string(),
                    reason: e.to_string(),
                })?;
                fjord_util::properties::parse(&text).map_err(|e| AdminError::Config {
                    key: "--command-config".into(),
                    value: path.display().to_string(),
                    reason: e.0,
                })?
            }
            None => BTreeMap::new(),
        };
        let list = |s: &str| -> Vec<String> {
            s.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect()
        };
        let bootstrap = match (bootstrap_server, bootstrap_controller) {
            (Some(_), Some(_)) => {
                return Err(AdminError::Config {
                    key: "--bootstrap-server".into(),
                    value: String::new(),
                    reason: "only one of --bootstrap-server or --bootstrap-controller can be given"
                        .into(),
                })
            }
            (Some(b), None) => Bootstrap::Servers(list(b)),
            (None, Some(c)) => Bootstrap::Controllers(list(c)),
            (None, None) => {
                match (
                    props.get("bootstrap.servers"),
                    props.get("bootstrap.controllers"),
                ) {
                    (Some(b), _) => Bootstrap::Servers(list(b)),
                    (None, Some(c)) => Bootstrap::Controllers(list(c)),
                    (None, None) => return Err(AdminError::Config {
                        key: "--bootstrap-server".into(),
                        value: String::new(),
                        reason:
                            "one of --bootstrap-server or --bootstrap-controller must be specified"
                                .into(),
                    }),
                }
            }
        };
        let mut config = AdminConfig::new(bootstrap);
        match &config.bootstrap {
            Bootstrap::Servers(l) | Bootstrap::Controllers(l) if l.is_empty() => {
                return Err(AdminError::Config {
                    key: "bootstrap.servers".into(),
                    value: String::new(),
                    reason: "no address given".into(),
                })
            }
            _ => {}
        }
        let mut warnings = Vec::new();
        config.explicit = props.keys().cloned().collect();
        for (key, value) in &props {
            let ms = || -> Result<Duration, AdminError> {
                value
                    .trim()
                    .parse::<u64>()
                    .map(Duration::from_millis)
                    .map_err(|_| AdminError::Config {
                        key: key.clone(),
                        value: value.clone(),
                        reason: "not a non-negative number of milliseconds".into(),
                    })
            };
            match key.as_str() {
                "client.id" => config.client_id = value.clone(),
                "request.timeout.ms" => config.request_timeout = ms()?,
                "default.api.timeout.ms" => config.api_timeout = ms()?,
                "retry.backoff.ms" => config.retry_backoff = ms()?,
                "retry.backoff.max.ms" => config.retry_backoff_max = ms()?,
                "security.protocol" => {
                    config.security = client_security(&props)?;
                }
                k if KNOWN_KEYS.contains(&k) => {}
                k => warnings.push(format!(
                    "The configuration '{k}' was supplied but isn't a known config."
                )),
            }
        }
        if config.api_timeout < config.request_timeout {
            // As Kafka's admin client: an operation may take at least one request's time.
            config.api_timeout = config.request_timeout;
        }
        Ok((config, warnings))
    }
}

/// The TLS and SASL a client's `security.protocol`, `ssl.*` and `sasl.*` keys ask for.
fn client_security(props: &BTreeMap<String, String>) -> Result<ClientSecurity, AdminError> {
    let bad = |key: &str, value: &str, reason: String| AdminError::Config {
        key: key.into(),
        value: value.into(),
        reason,
    };
    let name = props
        .get("security.protocol")
        .map_or("PLAINTEXT", |s| s.trim());
    let protocol = SecurityProtocol::parse(name).ok_or_else(|| {
        bad(
            "security.protocol",
            name,
            "not one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL".into(),
        )
    })?;
    let mut security = ClientSecurity::plaintext();
    if protocol.uses_tls() {
        let get = |k: &str| props.get(k).filter(|v| !v.is_empty()).cloned();
        let settings = TlsSettings::from_keys(&get)
            .and_then(|s| s.client_config())
            .map_err(|e| bad(&e.key.clone(), "", e.reason))?;
        security.tls = Some(settings);
    }
    if protocol.uses_sasl() {
        let mechanism = props.get("sasl.mechanism").map_or("GSSAPI", |s| s.trim());
        if !matches!(
            mechanism,
            "PLAIN" | "SCRAM-SHA-256" | "SCRAM-SHA-512" | "OAUTHBEARER" | "GSSAPI"
        ) {
            return Err(bad(
                "sasl.mechanism",
                mechanism,
                "fjord's tools speak PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER and GSSAPI"
                    .into(),
            ));
        }
        let text = props.get("sasl.jaas.config").ok_or_else(|| {
            bad(
                "sasl.jaas.config",
                "",
                "SASL needs a login module (with username and password, OAUTHBEARER's options, or for GSSAPI, the default mechanism, Krb5LoginModule's)"
                    .into(),
            )
        })?;
        // The value holds a password: errors never quote it.
        let entry = jaas::parse(text).map_err(|e| bad("sasl.jaas.config", "(hidden)", e.0))?;
        if mechanism == "GSSAPI" {
            security.sasl = Some(kerberos_login(props, &entry.options)?);
            return Ok(security);
        }
        if mechanism == "OAUTHBEARER" {
            let get = |k: &str| props.get(k).filter(|v| !v.is_empty()).cloned();
            let login = fjord_net::sasl::login::BearerLogin::from_settings(
                fjord_net::sasl::login::LoginSettings {
                    options: entry.options,
                    handler: get("sasl.login.callback.handler.class"),
                    token_url: get("sasl.oauthbearer.token.endpoint.url"),
                    client_id: get("sasl.oauthbearer.client.credentials.client.id"),
                    client_secret: get("sasl.oauthbearer.client.credentials.client.secret"),
                    scope: get("sasl.oauthbearer.scope"),
                },
            )
            .map_err(|e| bad("sasl.jaas.config", "(hidden)", e))?;
            security.sasl = Some(SaslCredentials {
                mechanism: mechanism.to_string(),
                username: String::new(),
                password: String::new(),
                token: false,
                bearer: Some(fjord_net::sasl::login::Bearer(std::sync::Arc::new(login))),
                gssapi: None,
            });
            return Ok(security);
        }
        // `tokenauth="true"`: log in with a delegation token (its id and HMAC).
        let token = entry
            .options
            .get("tokenauth")
            .is_some_and(|v| v.eq_ignore_ascii_case("true"));
        let (username, password) = entry.credentials().ok_or_else(|| {
            bad(
                "sasl.jaas.config",
                "(hidden)",
                "the login module needs username and password".into(),
            )
        })?;
        security.sasl = Some(SaslCredentials {
            mechanism: mechanism.to_string(),
            username,
            password,
            token,
            bearer: None,
            gssapi: None,
        });
    }
    Ok(security)
}

/// A tool's Kerberos login: Krb5LoginModule's options (a keytab or the ticket cache), to the
/// service `sasl.kerberos.service.name` (or the entry's `serviceName`).
fn kerberos_login(
    props: &BTreeMap<String, String>,
    options: &BTreeMap<String, String>,
) -> Result<SaslCredentials, AdminError> {
    let bad = |key: &str, value: &str, reason: String| AdminError::Config {
        key: key.to_string(),
        value: value.to_string(),
        reason,
    };
    let login = fjord_kerberos::gss::Login::from_options(options)
        .map_err(|e| bad("sasl.jaas.config", "(hidden)", e))?;
    let service = options
        .get("serviceName")
        .or_else(|| props.get("sasl.kerberos.service.name"))
        .filter(|s| !s.is_empty())
        .ok_or_else(|| {
            bad(
                "sasl.kerberos.service.name",
                "",
                "GSSAPI needs the brokers' Kerberos service name (kafka in kafka/host@REALM)"
                    .into(),
            )
        })?;
    Ok(SaslCredentials::kerberos(std::sync::Arc::new(
        login.initiator(service),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_kafka_keys_and_flags_win() {
        let dir = std::env::temp_dir().join(format!("fjord-admin-cfg-{}", std::process::id()));
        std::fs::write(
            &dir,
            "bootstrap.servers=a:1\nrequest.timeout.ms=500\ndefault.api.timeout.ms=2000\nclient.id=ops\nfoo=bar\n",
        )
        .unwrap();
        let (c, w) = AdminConfig::from_args(Some("b:2,c:3"), None, Some(&dir)).unwrap();
        assert_eq!(
            c.bootstrap,
            Bootstrap::Servers(vec!["b:2".into(), "c:3".into()])
        );
        assert_eq!(c.request_timeout, Duration::from_millis(500));
        assert_eq!(c.api_timeout, Duration::from_millis(2000));
        assert_eq!(c.client_id, "ops");
        assert_eq!(w.len(), 1);
        let (c, _) = AdminConfig::from_args(None, None, Some(&dir)).unwrap();
        assert_eq!(c.bootstrap, Bootstrap::Servers(vec!["a:1".into()]));
        std::fs::write(&dir, "security.protocol=SASL_CLEAR\n").unwrap();
        let e = AdminConfig::from_args(Some("a:1"), None, Some(&dir)).unwrap_err();
        assert!(e.to_string().contains("security.protocol"), "{e}");
        std::fs::write(
            &dir,
            "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\n\
             sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"ops\" password=\"s3cret\";\n",
        )
        .unwrap();
        let (c, w) = AdminConfig::from_args(Some("a:1"), None, Some(&dir)).unwrap();
        assert!(w.is_empty(), "{w:?}");
        let sasl = c.security.sasl.unwrap();
        assert_eq!(
            (sasl.mechanism.as_str(), sasl.username.as_str()),
            ("SCRAM-SHA-512", "ops")
        );
        for (props, key) in [
            // The mechanism defaults to GSSAPI, as Kafka's: it needs its login module.
            ("security.protocol=SASL_PLAINTEXT\n", "Krb5LoginModule"),
            (
                "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n",
                "sasl.jaas.config",
            ),
            ("security.protocol=SSL\n", "ssl.truststore.location"),
            (
                "security.protocol=SSL\nssl.truststore.type=JKS\nssl.truststore.location=/x\n",
                "ssl.truststore.type",
            ),
        ] {
            std::fs::write(&dir, props).unwrap();
            let e = AdminConfig::from_args(Some("a:1"), None, Some(&dir)).unwrap_err();
            assert!(e.to_string().contains(key), "{props}: {e}");
            assert!(!e.to_string().contains("s3cret"), "{e}");
        }
        std::fs::write(&dir, "request.timeout.ms=soon\n").unwrap();
        let e = AdminConfig::from_args(Some("a:1"), None, Some(&dir)).unwrap_err();
        assert!(e.to_string().contains("request.timeout.ms"), "{e}");
        std::fs::remove_file(&dir).unwrap();
        assert!(AdminConfig::from_args(None, None, None).is_err());
    }
}
