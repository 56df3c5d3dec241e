//! The node's security from its configuration: each listener's protocol (TLS key and trust
//! stores, SASL mechanisms, PLAIN users from the listener's JAAS config, SCRAM credentials from
//! the metadata image, `connections.max.reauth.ms`, the failed-authentication delay), how its
//! own connections to controllers and to other brokers authenticate, and the authorizer's
//! settings.

use crate::config::ServerConfig;
use fjord_configdef::broker;
use fjord_metadata::acls::AuthorizerSettings;
use fjord_net::sasl::jaas;
use fjord_net::sasl::scram::{Credential, Mechanism};
use fjord_net::sasl::session::{CredentialStore, SaslServerConfig};
use fjord_net::security::{ClientSecurity, ListenerSecurity, SaslCredentials, SecurityProtocol};
use fjord_net::tls::{ServerTls, TlsSettings};
use std::sync::Arc;
use std::time::Duration;

/// The SASL mechanisms fjord serves.
const MECHANISMS: &[&str] = &[
    "PLAIN",
    "SCRAM-SHA-256",
    "SCRAM-SHA-512",
    "OAUTHBEARER",
    "GSSAPI",
];
/// Kafka's validator of signed bearer tokens (`sasl.server.callback.handler.class`); its
/// pre-3.7 name is accepted too.
const JWKS_VALIDATOR: [&str; 2] = [
    "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler",
    "org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerValidatorCallbackHandler",
];

/// SCRAM credentials as the metadata image holds them now, and delegation tokens' (with
/// `delegation.token.secret.key`, the second field).
struct ImageCredentials(
    tokio::sync::watch::Receiver<fjord_metadata::view::View>,
    Option<String>,
);

impl std::fmt::Debug for ImageCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImageCredentials")
            .field("tokens", &self.1.is_some())
            .finish()
    }
}

impl CredentialStore for ImageCredentials {
    /// A token's SCRAM credential, derived as Kafka's `DelegationTokenCache` does: from its
    /// HMAC in base64 (the password its owner hands out) at the mechanism's lowest
    /// iteration count; the salt is drawn from the token id.
    fn token(
        &self,
        token_id: &str,
        m: Mechanism,
    ) -> Option<fjord_net::sasl::session::TokenCredential> {
        use base64::Engine;
        use sha2::Digest;
        let secret = self.1.as_deref()?;
        let token = self.0.borrow().image.tokens.by_id.get(token_id)?.clone();
        let now = fjord_util::system_now_ms();
        if token.expired(now) {
            return None;
        }
        let owner = fjord_net::principal::Principal::parse(&token.owner)?;
        let password = base64::engine::general_purpose::STANDARD.encode(
            fjord_metadata::delegation_tokens::token_hmac(secret, token_id),
        );
        let salt = sha2::Sha256::digest(token_id.as_bytes())[..16].to_vec();
        let credential =
            Credential::derive(m, &password, &salt, fjord_net::sasl::scram::MIN_ITERATIONS);
        let left = token.expiry_ms.min(token.max_ms).saturating_sub(now).max(0);
        Some(fjord_net::sasl::session::TokenCredential {
            credential,
            owner,
            remaining: Duration::from_millis(left as u64),
        })
    }

    fn credential(&self, user: &str, m: Mechanism) -> Option<Credential> {
        let view = self.0.borrow();
        let c = view.image.scram.get(user, m.code())?;
        Some(Credential {
            salt: c.salt.to_vec(),
            stored_key: c.stored_key.to_vec(),
            server_key: c.server_key.to_vec(),
            iterations: u32::try_from(c.iterations).ok()?,
        })
    }
}

fn protocol(config: &ServerConfig, listener: &str) -> Result<SecurityProtocol, String> {
    let name = config
        .security_protocol(listener)
        .map_err(|e| e.to_string())?;
    SecurityProtocol::parse(&name).ok_or_else(|| format!("unknown security protocol {name}"))
}

/// `listener`'s TLS settings (its `listener.name.<name>.ssl.*` keys, else the plain ones).
fn tls_settings(config: &ServerConfig, listener: &str) -> Result<TlsSettings, String> {
    let get = |k: &str| config.listener_value(listener, k).filter(|v| !v.is_empty());
    TlsSettings::from_keys(&get).map_err(|e| format!("listener {listener}: {e}"))
}

/// A SASL mechanism name fjord serves, or an error naming `key`.
fn mechanism(key: &str, name: &str) -> Result<String, String> {
    let m = name.trim().to_ascii_uppercase();
    if MECHANISMS.contains(&m.as_str()) {
        Ok(m)
    } else {
        Err(format!(
            "invalid {key}: SASL mechanism {m} is not supported (fjord serves {})",
            MECHANISMS.join(", ")
        ))
    }
}

/// The JAAS entry for `mechanism` on `listener`
/// (`listener.name.<listener>.<mechanism>.sasl.jaas.config`, Kafka's broker-side key).
fn jaas_entry(
    config: &ServerConfig,
    listener: &str,
    mechanism: &str,
) -> Result<Option<jaas::JaasEntry>, String> {
    let key = format!(
        "listener.name.{}.{}.sasl.jaas.config",
        listener.to_ascii_lowercase(),
        mechanism.to_ascii_lowercase()
    );
    match config.explicit().get(&key) {
        Some(text) => jaas::parse(text)
            .map(Some)
            .map_err(|e| format!("invalid {key}: {e}")),
        None => Ok(None),
    }
}

/// What the listener `name` needs for its security protocol.
pub(super) fn listener_security(
    config: &ServerConfig,
    name: &str,
    view: tokio::sync::watch::Receiver<fjord_metadata::view::View>,
) -> Result<ListenerSecurity, String> {
    let protocol = protocol(config, name)?;
    let int = |k: &str| {
        config
            .listener_value(name, k)
            .and_then(|v| v.parse::<i64>().ok())
            .unwrap_or(0)
    };
    let mut security = ListenerSecurity::plaintext(name);
    security.protocol = protocol;
    security.failed_auth_delay = Duration::from_millis(
        u64::try_from(int(broker::CONNECTION_FAILED_AUTHENTICATION_DELAY_MS.name)).unwrap_or(0),
    );
    security.sasl_max_receive = usize::try_from(int(broker::SASL_SERVER_MAX_RECEIVE_SIZE.name))
        .unwrap_or(usize::MAX)
        .max(1);
    if protocol.uses_tls() {
        let tls = ServerTls::new(tls_settings(config, name)?)
            .map_err(|e| format!("listener {name}: {e}"))?;
        security.tls = Some(Arc::new(tls));
    }
    if protocol.uses_sasl() {
        let key = broker::SASL_ENABLED_MECHANISMS.name;
        let enabled = config.listener_value(name, key).unwrap_or_default();
        let mechanisms: Vec<String> = enabled
            .split(',')
            .filter(|m| !m.trim().is_empty())
            .map(|m| mechanism(key, m))
            .collect::<Result<_, _>>()?;
        if mechanisms.is_empty() {
            return Err(format!(
                "invalid {key}: listener {name} uses SASL and enables no mechanism"
            ));
        }
        let mut plain_users = Default::default();
        if mechanisms.iter().any(|m| m == "PLAIN") {
            let entry = jaas_entry(config, name, "PLAIN")?.ok_or_else(|| {
                format!(
                    "missing listener.name.{}.plain.sasl.jaas.config: listener {name} enables PLAIN and lists its users there (user_<name>=\"<password>\")",
                    name.to_ascii_lowercase()
                )
            })?;
            plain_users = entry.plain_users();
        }
        let reauth = u64::try_from(int(broker::CONNECTIONS_MAX_REAUTH_MS.name))
            .ok()
            .filter(|ms| *ms > 0)
            .map(Duration::from_millis);
        let oauthbearer = match mechanisms.iter().any(|m| m == "OAUTHBEARER") {
            true => Some(oauth_validator(config, name)?),
            false => None,
        };
        let gssapi = match mechanisms.iter().any(|m| m == "GSSAPI") {
            true => Some(gssapi_acceptor(config, name)?),
            false => None,
        };
        security.sasl = Some(Arc::new(SaslServerConfig {
            gssapi,
            oauthbearer,
            mechanisms,
            plain_users,
            scram: Arc::new(ImageCredentials(
                view,
                config
                    .get(broker::DELEGATION_TOKEN_SECRET_KEY.name)
                    .filter(|k| !k.is_empty())
                    .map(str::to_string),
            )),
            reauth,
        }));
    }
    Ok(security)
}

/// `key` for OAUTHBEARER on `listener` (mechanism-scoped first), when set and not blank.
fn oauth_value(config: &ServerConfig, listener: &str, key: &str) -> Option<String> {
    config
        .mechanism_value(listener, "OAUTHBEARER", key)
        .filter(|v| !v.trim().is_empty())
}

/// What validates OAUTHBEARER tokens on `listener`: Kafka's broker validator when
/// `sasl.server.callback.handler.class` names it (its JWKS fetched and refreshed by a task
/// started here), else Kafka's unsecured validator with the JAAS entry's options.
fn oauth_validator(
    config: &ServerConfig,
    listener: &str,
) -> Result<Arc<dyn fjord_net::sasl::oauthbearer::TokenValidator>, String> {
    use fjord_net::sasl::jwks::{JwksSettings, JwksValidator};
    use fjord_net::sasl::oauthbearer::{ClaimRules, UnsecuredValidator};
    let get = |def: &fjord_configdef::Def| {
        oauth_value(config, listener, def.name).or_else(|| def.default.map(str::to_string))
    };
    let handler = get(&broker::SASL_SERVER_CALLBACK_HANDLER_CLASS);
    match handler.as_deref() {
        None => {
            let options = jaas_entry(config, listener, "OAUTHBEARER")?
                .map(|e| e.options)
                .unwrap_or_default();
            let v = UnsecuredValidator::from_options(&options)
                .map_err(|e| format!("listener {listener}: OAUTHBEARER: {e}"))?;
            return Ok(Arc::new(v));
        }
        Some(h) if JWKS_VALIDATOR.contains(&h.trim()) => {}
        Some(other) => {
            return Err(format!(
                "invalid {}: fjord cannot load the class {other} (it validates OAUTHBEARER tokens with Kafka's unsecured validator, or with {} and a JWKS)",
                broker::SASL_SERVER_CALLBACK_HANDLER_CLASS.name,
                JWKS_VALIDATOR[0]
            ))
        }
    }
    let flag = |def| get(def).is_some_and(|v| v.trim().eq_ignore_ascii_case("true"));
    let number = |def: &fjord_configdef::Def| -> Result<i64, String> {
        let v = get(def).unwrap_or_default();
        v.trim()
            .parse::<i64>()
            .ok()
            .filter(|n| *n >= 0)
            .ok_or_else(|| format!("invalid {}: {v:?} is not a non-negative number", def.name))
    };
    let url = get(&broker::SASL_OAUTHBEARER_JWKS_ENDPOINT_URL).ok_or_else(|| {
        format!(
            "listener {listener}: OAUTHBEARER with {} needs {}",
            JWKS_VALIDATOR[0],
            broker::SASL_OAUTHBEARER_JWKS_ENDPOINT_URL.name
        )
    })?;
    let audience: Vec<String> = get(&broker::SASL_OAUTHBEARER_EXPECTED_AUDIENCE)
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(str::to_string)
        .collect();
    let issuer = get(&broker::SASL_OAUTHBEARER_EXPECTED_ISSUER);
    // Kafka 4.4 refuses to start a validator that checks neither, unless told to.
    if audience.is_empty() && !flag(&broker::SASL_OAUTHBEARER_ALLOW_UNVERIFIED_AUDIENCE) {
        return Err(format!(
            "listener {listener}: the OAuth validator requires {} (the audiences that identify this cluster), or {}=true to accept tokens regardless of their audience",
            broker::SASL_OAUTHBEARER_EXPECTED_AUDIENCE.name,
            broker::SASL_OAUTHBEARER_ALLOW_UNVERIFIED_AUDIENCE.name
        ));
    }
    if issuer.is_none() && !flag(&broker::SASL_OAUTHBEARER_ALLOW_UNVERIFIED_ISSUER) {
        return Err(format!(
            "listener {listener}: the OAuth validator requires {} (the issuer URL of the provider), or {}=true to accept tokens regardless of their issuer",
            broker::SASL_OAUTHBEARER_EXPECTED_ISSUER.name,
            broker::SASL_OAUTHBEARER_ALLOW_UNVERIFIED_ISSUER.name
        ));
    }
    let ms = |def| number(def).map(|n| Duration::from_millis(n as u64));
    let validator = Arc::new(JwksValidator::new(
        ClaimRules {
            audience,
            issuer,
            skew_s: number(&broker::SASL_OAUTHBEARER_CLOCK_SKEW_SECONDS)?,
            scope_claim: get(&broker::SASL_OAUTHBEARER_SCOPE_CLAIM_NAME).unwrap_or_default(),
            sub_claim: get(&broker::SASL_OAUTHBEARER_SUB_CLAIM_NAME).unwrap_or_default(),
        },
        JwksSettings {
            url,
            refresh: ms(&broker::SASL_OAUTHBEARER_JWKS_ENDPOINT_REFRESH_MS)?
                .max(Duration::from_millis(100)),
            backoff: ms(&broker::SASL_OAUTHBEARER_JWKS_ENDPOINT_RETRY_BACKOFF_MS)?
                .max(Duration::from_millis(1)),
            backoff_max: ms(&broker::SASL_OAUTHBEARER_JWKS_ENDPOINT_RETRY_BACKOFF_MAX_MS)?,
        },
    ));
    if let Ok(rt) = tokio::runtime::Handle::try_current() {
        let v = validator.clone();
        rt.spawn(async move { v.run().await });
    }
    Ok(validator)
}

/// How this node's own connections to `listener` (on other nodes) authenticate: its TLS
/// settings, and for SASL the mechanism `mechanism_key` names with the `username` and
/// `password` of that mechanism's JAAS entry on the listener.
pub(super) fn client_security(
    config: &ServerConfig,
    listener: &str,
    mechanism_key: &str,
) -> Result<ClientSecurity, String> {
    let protocol = protocol(config, listener)?;
    let mut security = ClientSecurity::plaintext();
    if protocol.uses_tls() {
        let tls = tls_settings(config, listener)?
            .client_config()
            .map_err(|e| format!("listener {listener}: {e}"))?;
        security.tls = Some(tls);
    }
    if protocol.uses_sasl() {
        let m = mechanism(mechanism_key, config.get(mechanism_key).unwrap_or("GSSAPI"))?;
        if m == "OAUTHBEARER" {
            security.sasl = Some(bearer_credentials(config, listener)?);
            return Ok(security);
        }
        if m == "GSSAPI" {
            security.sasl = Some(kerberos_credentials(config, listener)?);
            return Ok(security);
        }
        let (username, password) = jaas_entry(config, listener, &m)?
            .and_then(|e| e.credentials())
            .ok_or_else(|| {
                format!(
                    "listener.name.{}.{}.sasl.jaas.config needs username and password: this node connects to listener {listener} with {m} ({mechanism_key})",
                    listener.to_ascii_lowercase(),
                    m.to_ascii_lowercase()
                )
            })?;
        security.sasl = Some(SaslCredentials {
            mechanism: m,
            username,
            password,
            token: false,
            bearer: None,
            gssapi: None,
        });
    }
    Ok(security)
}

/// How this node signs in over OAUTHBEARER to `listener`: the JAAS entry's
/// `unsecuredLoginStringClaim_sub`, or the client-credentials grant at
/// `sasl.oauthbearer.token.endpoint.url` with `sasl.login.callback.handler.class` naming Kafka's
/// `OAuthBearerLoginCallbackHandler`.
fn bearer_credentials(config: &ServerConfig, listener: &str) -> Result<SaslCredentials, String> {
    use fjord_net::sasl::login::{Bearer, BearerLogin, LoginSettings};
    let get = |def: &fjord_configdef::Def| oauth_value(config, listener, def.name);
    let login = BearerLogin::from_settings(LoginSettings {
        options: jaas_entry(config, listener, "OAUTHBEARER")?
            .map(|e| e.options)
            .unwrap_or_default(),
        handler: get(&broker::SASL_LOGIN_CALLBACK_HANDLER_CLASS),
        token_url: get(&broker::SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL),
        client_id: get(&broker::SASL_OAUTHBEARER_CLIENT_CREDENTIALS_CLIENT_ID),
        client_secret: get(&broker::SASL_OAUTHBEARER_CLIENT_CREDENTIALS_CLIENT_SECRET),
        scope: get(&broker::SASL_OAUTHBEARER_SCOPE),
    })
    .map_err(|e| format!("listener {listener}: {e}"))?;
    Ok(SaslCredentials {
        mechanism: "OAUTHBEARER".into(),
        username: String::new(),
        password: String::new(),
        token: false,
        bearer: Some(Bearer(Arc::new(login))),
        gssapi: None,
    })
}

/// The Kerberos settings of GSSAPI on `listener`: its JAAS entry
/// (`listener.name.<l>.gssapi.sasl.jaas.config`, Krb5LoginModule's options) and the service
/// name (the entry's `serviceName`, else `sasl.kerberos.service.name`), required as Kafka
/// requires them.
fn kerberos_login(
    config: &ServerConfig,
    listener: &str,
) -> Result<(fjord_kerberos::gss::Login, String), String> {
    let key = format!(
        "listener.name.{}.gssapi.sasl.jaas.config",
        listener.to_ascii_lowercase()
    );
    let entry = jaas_entry(config, listener, "GSSAPI")?
        .ok_or_else(|| format!("missing {key}: listener {listener} enables GSSAPI and names its Kerberos login there (com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true keyTab=\"...\" principal=\"...\";)"))?;
    let login = fjord_kerberos::gss::Login::from_options(&entry.options)
        .map_err(|e| format!("invalid {key}: {e}"))?;
    let service = entry
        .options
        .get("serviceName")
        .cloned()
        .or_else(|| config.listener_value(listener, broker::SASL_KERBEROS_SERVICE_NAME.name))
        .filter(|s| !s.is_empty())
        .ok_or_else(|| format!("listener {listener} enables GSSAPI: No serviceName defined in either JAAS or Kafka config (set {})", broker::SASL_KERBEROS_SERVICE_NAME.name))?;
    Ok((login, service))
}

/// GSSAPI's acceptor on `listener`: the service key from the login's keytab, and
/// `sasl.kerberos.principal.to.local.rules` with the default realm of krb5.conf.
fn gssapi_acceptor(
    config: &ServerConfig,
    listener: &str,
) -> Result<Arc<dyn fjord_net::sasl::gssapi::GssAcceptor>, String> {
    let (login, _service) = kerberos_login(config, listener)?;
    let key = broker::SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES.name;
    let rules: Vec<String> = config
        .listener_value(listener, key)
        .unwrap_or_else(|| "DEFAULT".into())
        .split(',')
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty())
        .collect();
    let realm = fjord_kerberos::realm::default_realm();
    let namer = fjord_kerberos::ShortNamer::parse(&realm, &rules)
        .map_err(|e| format!("invalid {key}: {e}"))?;
    let acceptor = login
        .acceptor(namer)
        .map_err(|e| format!("listener {listener} enables GSSAPI: {e}"))?;
    Ok(Arc::new(acceptor))
}

/// How this node signs in over GSSAPI to `listener`: the login of its JAAS entry, to the
/// service `sasl.kerberos.service.name` on each node's host.
fn kerberos_credentials(config: &ServerConfig, listener: &str) -> Result<SaslCredentials, String> {
    let (login, service) = kerberos_login(config, listener)?;
    Ok(SaslCredentials::kerberos(Arc::new(
        login.initiator(&service),
    )))
}

/// The authorizer's settings, when `authorizer.class.name` turns it on.
pub(super) fn authorizer(config: &ServerConfig) -> Option<AuthorizerSettings> {
    config
        .get(broker::AUTHORIZER_CLASS_NAME.name)
        .filter(|a| !a.is_empty())?;
    Some(AuthorizerSettings {
        super_users: config
            .get(broker::SUPER_USERS.name)
            .unwrap_or_default()
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        allow_if_no_acl: config
            .get(broker::ALLOW_EVERYONE_IF_NO_ACL_FOUND.name)
            .is_some_and(|v| v.eq_ignore_ascii_case("true")),
    })
}

/// Reloads `tls` when its files change, as a task of the node.
pub(super) fn watch_tls(security: &ListenerSecurity, fatal: &fjord_util::tasks::Fatal) {
    if let Some(tls) = &security.tls {
        let (tls, name) = (tls.clone(), security.name.to_string());
        fatal.spawn("TLS store watch", async move { tls.watch(name).await });
    }
}
