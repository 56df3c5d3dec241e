//! TLS for listeners and clients with rustls: PEM key stores and trust stores (files or
//! inline, as Kafka's `ssl.keystore.type=PEM`), `ssl.client.auth`, `ssl.enabled.protocols`,
//! `ssl.cipher.suites`, hostname checks (`ssl.endpoint.identification.algorithm`), the
//! principal of a client certificate (its distinguished name in RFC 2253 form, through
//! `ssl.principal.mapping.rules`), and a listener's certificates reloaded when their files
//! change, without touching the connections already open.

use crate::principal::Principal;
use fjord_configdef::broker;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

/// The longest a TLS handshake may take before the connection is closed.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How often a listener looks for changed key or trust store files.
pub const RELOAD_CHECK_INTERVAL: Duration = Duration::from_secs(5);

/// A TLS setting that cannot be used, naming its Kafka key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid {key}: {reason}")]
pub struct TlsError {
    /// The configuration key.
    pub key: String,
    /// What is wrong.
    pub reason: String,
}

fn err(key: &str, reason: impl std::fmt::Display) -> TlsError {
    TlsError {
        key: key.into(),
        reason: reason.to_string(),
    }
}

/// PEM text from a file or given inline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pem {
    /// A file (`ssl.keystore.location`, `ssl.truststore.location`), re-read on reload.
    File(PathBuf),
    /// Inline text (`ssl.keystore.key` + `ssl.keystore.certificate.chain`,
    /// `ssl.truststore.certificates`).
    Inline(String),
}

impl Pem {
    fn read(&self, key: &str) -> Result<Vec<u8>, TlsError> {
        match self {
            Pem::File(p) => std::fs::read(p).map_err(|e| err(key, format!("{}: {e}", p.display()))),
            Pem::Inline(t) => Ok(t.clone().into_bytes()),
        }
    }

    fn modified(&self) -> Option<SystemTime> {
        match self {
            Pem::File(p) => std::fs::metadata(p).and_then(|m| m.modified()).ok(),
            Pem::Inline(_) => None,
        }
    }
}

/// `ssl.client.auth`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClientAuth {
    /// No client certificate is asked for.
    #[default]
    None,
    /// Asked for; a client without one connects as `User:ANONYMOUS`.
    Requested,
    /// Required: a client without a trusted certificate cannot connect.
    Required,
}

/// One side's TLS settings, as a listener's or a client's `ssl.*` keys give them.
#[derive(Debug, Clone, Default)]
pub struct TlsSettings {
    /// The certificate chain and private key: one PEM holding both (a key store file), or the
    /// chain and the key apart (inline).
    pub keystore: Option<(Pem, Option<Pem>)>,
    /// `ssl.key.password`: decrypts an `ENCRYPTED PRIVATE KEY` (PKCS#8, PBES2).
    pub key_password: Option<String>,
    /// The trusted certificates.
    pub truststore: Option<Pem>,
    /// `ssl.client.auth` (listeners).
    pub client_auth: ClientAuth,
    /// `ssl.enabled.protocols` (TLSv1.2, TLSv1.3).
    pub protocols: Vec<String>,
    /// `ssl.cipher.suites` (IANA names; empty: rustls' defaults).
    pub cipher_suites: Vec<String>,
    /// `ssl.endpoint.identification.algorithm=https` (clients check the server's name).
    pub check_hostname: bool,
    /// `ssl.principal.mapping.rules` (listeners).
    pub principal_rules: PrincipalRules,
}

impl TlsSettings {
    /// The settings Kafka's `ssl.*` keys give, through `get` (which applies any listener
    /// prefix). Key and trust stores must be PEM; JKS and PKCS12 are refused naming the key.
    pub fn from_keys(get: &dyn Fn(&str) -> Option<String>) -> Result<TlsSettings, TlsError> {
        for key in [
            broker::SSL_KEYSTORE_TYPE.name,
            broker::SSL_TRUSTSTORE_TYPE.name,
        ] {
            if let Some(t) = get(key).filter(|t| !t.eq_ignore_ascii_case("PEM")) {
                return Err(err(
                    key,
                    format!("{t} stores are not supported: fjord reads PEM (set {key}=PEM and give PEM files, or the inline PEM keys)"),
                ));
            }
        }
        let list = |key: &str| -> Vec<String> {
            get(key)
                .unwrap_or_default()
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        };
        let keystore = match (
            get(broker::SSL_KEYSTORE_KEY.name),
            get(broker::SSL_KEYSTORE_CERTIFICATE_CHAIN.name),
        ) {
            (Some(key), Some(chain)) => Some((Pem::Inline(chain), Some(Pem::Inline(key)))),
            (Some(_), None) => {
                return Err(err(
                    broker::SSL_KEYSTORE_CERTIFICATE_CHAIN.name,
                    "ssl.keystore.key needs the certificate chain too",
                ))
            }
            (None, Some(_)) => {
                return Err(err(
                    broker::SSL_KEYSTORE_KEY.name,
                    "ssl.keystore.certificate.chain needs the private key too",
                ))
            }
            (None, None) => {
                get(broker::SSL_KEYSTORE_LOCATION.name).map(|p| (Pem::File(p.into()), None))
            }
        };
        let truststore = get(broker::SSL_TRUSTSTORE_CERTIFICATES.name)
            .map(Pem::Inline)
            .or_else(|| get(broker::SSL_TRUSTSTORE_LOCATION.name).map(|p| Pem::File(p.into())));
        let client_auth = match get(broker::SSL_CLIENT_AUTH.name)
            .as_deref()
            .map(str::to_ascii_lowercase)
        {
            None => ClientAuth::None,
            Some(v) if v == "none" => ClientAuth::None,
            Some(v) if v == "requested" => ClientAuth::Requested,
            Some(v) if v == "required" => ClientAuth::Required,
            Some(v) => {
                return Err(err(
                    broker::SSL_CLIENT_AUTH.name,
                    format!("{v} is not one of required, requested, none"),
                ))
            }
        };
        let principal_rules = match get(broker::SSL_PRINCIPAL_MAPPING_RULES.name) {
            Some(r) => PrincipalRules::parse(&r)?,
            None => PrincipalRules::default(),
        };
        let settings = TlsSettings {
            keystore,
            key_password: get(broker::SSL_KEY_PASSWORD.name),
            truststore,
            client_auth,
            protocols: list(broker::SSL_ENABLED_PROTOCOLS.name),
            cipher_suites: list(broker::SSL_CIPHER_SUITES.name),
            check_hostname: get(broker::SSL_ENDPOINT_IDENTIFICATION_ALGORITHM.name)
                .is_none_or(|v| !v.trim().is_empty()),
            principal_rules,
        };
        settings.versions()?;
        settings.provider()?;
        Ok(settings)
    }
}

/// The key names the errors cite.
const KEYSTORE: &str = broker::SSL_KEYSTORE_LOCATION.name;
const TRUSTSTORE: &str = broker::SSL_TRUSTSTORE_LOCATION.name;

impl TlsSettings {
    fn provider(&self) -> Result<Arc<CryptoProvider>, TlsError> {
        let mut p = rustls::crypto::ring::default_provider();
        // AES-128-GCM first: as strong as needed and about a third cheaper than AES-256 on
        // every byte a broker moves (the server's order decides, see `server_config`).
        p.cipher_suites.sort_by_key(|s| {
            !s.suite()
                .as_str()
                .is_some_and(|n| n.contains("AES_128_GCM"))
        });
        if !self.cipher_suites.is_empty() {
            let mut chosen = Vec::new();
            for name in &self.cipher_suites {
                let suite = p
                    .cipher_suites
                    .iter()
                    .find(|s| s.suite().as_str() == Some(name.as_str()))
                    .ok_or_else(|| {
                        err(
                            broker::SSL_CIPHER_SUITES.name,
                            format!("{name} is not a supported cipher suite"),
                        )
                    })?;
                chosen.push(*suite);
            }
            p.cipher_suites = chosen;
        }
        Ok(Arc::new(p))
    }

    fn versions(&self) -> Result<Vec<&'static rustls::SupportedProtocolVersion>, TlsError> {
        let names: Vec<&str> = if self.protocols.is_empty() {
            vec!["TLSv1.2", "TLSv1.3"]
        } else {
            self.protocols.iter().map(String::as_str).collect()
        };
        names
            .into_iter()
            .map(|n| match n {
                "TLSv1.2" => Ok(&rustls::version::TLS12),
                "TLSv1.3" => Ok(&rustls::version::TLS13),
                other => Err(err(
                    broker::SSL_ENABLED_PROTOCOLS.name,
                    format!("{other} is not supported (TLSv1.2, TLSv1.3)"),
                )),
            })
            .collect()
    }

    fn chain_and_key(
        &self,
    ) -> Result<Option<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>)>, TlsError> {
        let Some((chain, key)) = &self.keystore else {
            return Ok(None);
        };
        let chain_pem = chain.read(KEYSTORE)?;
        let key_pem = match key {
            Some(k) => k.read(broker::SSL_KEYSTORE_KEY.name)?,
            None => chain_pem.clone(),
        };
        let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&chain_pem)
            .collect::<Result<_, _>>()
            .map_err(|e| err(KEYSTORE, format!("not PEM certificates: {e}")))?;
        if certs.is_empty() {
            return Err(err(KEYSTORE, "no certificate in the key store"));
        }
        let key = if String::from_utf8_lossy(&key_pem).contains("ENCRYPTED PRIVATE KEY") {
            decrypt_key(&key_pem, self.key_password.as_deref())?
        } else {
            PrivateKeyDer::from_pem_slice(&key_pem)
                .map_err(|e| err(KEYSTORE, format!("no PEM private key: {e}")))?
        };
        Ok(Some((certs, key)))
    }

    fn roots(&self) -> Result<Option<rustls::RootCertStore>, TlsError> {
        let Some(t) = &self.truststore else {
            return Ok(None);
        };
        let pem = t.read(TRUSTSTORE)?;
        let mut roots = rustls::RootCertStore::empty();
        for c in CertificateDer::pem_slice_iter(&pem) {
            let c = c.map_err(|e| err(TRUSTSTORE, format!("not PEM certificates: {e}")))?;
            roots
                .add(c)
                .map_err(|e| err(TRUSTSTORE, format!("unusable certificate: {e}")))?;
        }
        if roots.is_empty() {
            return Err(err(TRUSTSTORE, "no certificate in the trust store"));
        }
        Ok(Some(roots))
    }

    /// A listener's rustls configuration.
    pub fn server_config(&self) -> Result<Arc<rustls::ServerConfig>, TlsError> {
        let provider = self.provider()?;
        let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
            .with_protocol_versions(&self.versions()?)
            .map_err(|e| err(broker::SSL_ENABLED_PROTOCOLS.name, e))?;
        let builder = match (self.client_auth, self.roots()?) {
            (ClientAuth::None, _) => builder.with_no_client_auth(),
            (auth, Some(roots)) => {
                let v = rustls::server::WebPkiClientVerifier::builder_with_provider(
                    Arc::new(roots),
                    provider,
                );
                let v = if auth == ClientAuth::Requested {
                    v.allow_unauthenticated()
                } else {
                    v
                };
                builder.with_client_cert_verifier(v.build().map_err(|e| err(TRUSTSTORE, e))?)
            }
            (_, None) => {
                return Err(err(
                    broker::SSL_CLIENT_AUTH.name,
                    "client authentication needs a trust store (ssl.truststore.location)",
                ))
            }
        };
        let (chain, key) = self
            .chain_and_key()?
            .ok_or_else(|| err(KEYSTORE, "a TLS listener needs a key store"))?;
        let mut config = builder
            .with_single_cert(chain, key)
            .map_err(|e| err(KEYSTORE, e))?;
        // The listener's order of `ssl.cipher.suites` (or fjord's default order) wins.
        config.ignore_client_order = true;
        Ok(Arc::new(config))
    }

    /// A client's rustls configuration.
    pub fn client_config(&self) -> Result<Arc<rustls::ClientConfig>, TlsError> {
        let provider = self.provider()?;
        let roots = self.roots()?.ok_or_else(|| {
            err(
                TRUSTSTORE,
                "a TLS client needs a trust store (ssl.truststore.location or ssl.truststore.certificates)",
            )
        })?;
        let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
            .with_protocol_versions(&self.versions()?)
            .map_err(|e| err(broker::SSL_ENABLED_PROTOCOLS.name, e))?;
        let builder = if self.check_hostname {
            builder.with_root_certificates(roots)
        } else {
            let inner = rustls::client::WebPkiServerVerifier::builder_with_provider(
                Arc::new(roots),
                provider,
            )
            .build()
            .map_err(|e| err(TRUSTSTORE, e))?;
            builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(NoHostnameCheck(inner)))
        };
        let config = match self.chain_and_key()? {
            Some((chain, key)) => builder
                .with_client_auth_cert(chain, key)
                .map_err(|e| err(KEYSTORE, e))?,
            None => builder.with_no_client_auth(),
        };
        Ok(Arc::new(config))
    }

    fn files_modified(&self) -> Vec<Option<SystemTime>> {
        let mut out = Vec::new();
        if let Some((a, b)) = &self.keystore {
            out.push(a.modified());
            out.push(b.as_ref().and_then(Pem::modified));
        }
        out.push(self.truststore.as_ref().and_then(Pem::modified));
        out
    }
}

/// The key of an `ENCRYPTED PRIVATE KEY` PEM section (PKCS#8 with PBES2, as
/// `openssl pkcs8 -topk8` writes it), decrypted with `ssl.key.password`.
fn decrypt_key(pem: &[u8], password: Option<&str>) -> Result<PrivateKeyDer<'static>, TlsError> {
    let key = broker::SSL_KEY_PASSWORD.name;
    let password =
        password.ok_or_else(|| err(key, "the private key is encrypted and no password is set"))?;
    let text = std::str::from_utf8(pem).map_err(|_| err(KEYSTORE, "not PEM text"))?;
    let start = text
        .find("-----BEGIN ENCRYPTED PRIVATE KEY-----")
        .ok_or_else(|| err(KEYSTORE, "no encrypted private key"))?;
    let end_marker = "-----END ENCRYPTED PRIVATE KEY-----";
    let end = text[start..]
        .find(end_marker)
        .map(|e| start + e + end_marker.len())
        .ok_or_else(|| err(KEYSTORE, "an unterminated encrypted private key"))?;
    let (label, der) = pkcs8::der::pem::decode_vec(&text.as_bytes()[start..end])
        .map_err(|e| err(KEYSTORE, format!("not PEM: {e}")))?;
    if label != "ENCRYPTED PRIVATE KEY" {
        return Err(err(KEYSTORE, format!("unexpected PEM section {label}")));
    }
    let info = pkcs8::EncryptedPrivateKeyInfo::try_from(der.as_slice())
        .map_err(|e| err(KEYSTORE, format!("not an encrypted PKCS#8 key: {e}")))?;
    let plain = info
        .decrypt(password)
        .map_err(|_| err(key, "the password does not decrypt the private key"))?;
    Ok(PrivateKeyDer::Pkcs8(plain.as_bytes().to_vec().into()))
}

/// Checks the chain against the trust store but not the name
/// (`ssl.endpoint.identification.algorithm` empty).
#[derive(Debug)]
struct NoHostnameCheck(Arc<rustls::client::WebPkiServerVerifier>);

impl rustls::client::danger::ServerCertVerifier for NoHostnameCheck {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: rustls::pki_types::UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp, now)
        {
            Err(rustls::Error::InvalidCertificate(rustls::CertificateError::NotValidForName))
            | Err(rustls::Error::InvalidCertificate(
                rustls::CertificateError::NotValidForNameContext { .. },
            )) => Ok(rustls::client::danger::ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

/// A listener's TLS: the current configuration, replaced when the files change.
#[derive(Debug)]
pub struct ServerTls {
    settings: TlsSettings,
    current: RwLock<(Arc<rustls::ServerConfig>, Vec<Option<SystemTime>>)>,
}

impl ServerTls {
    /// Loads the listener's key and trust stores.
    pub fn new(settings: TlsSettings) -> Result<ServerTls, TlsError> {
        let stamps = settings.files_modified();
        let config = settings.server_config()?;
        Ok(ServerTls {
            settings,
            current: RwLock::new((config, stamps)),
        })
    }

    /// The acceptor for a new connection (the configuration current now).
    pub fn acceptor(&self) -> tokio_rustls::TlsAcceptor {
        let current = self.current.read().unwrap_or_else(|p| p.into_inner());
        tokio_rustls::TlsAcceptor::from(current.0.clone())
    }

    /// The principal mapping rules.
    pub fn principal_rules(&self) -> &PrincipalRules {
        &self.settings.principal_rules
    }

    /// Reloads the stores if a file changed since the last load; returns whether it did. A
    /// change that does not load (a half-written file, say) keeps the old configuration and
    /// is retried at the next check.
    pub fn reload_if_changed(&self) -> Result<bool, TlsError> {
        let stamps = self.settings.files_modified();
        if self.current.read().unwrap_or_else(|p| p.into_inner()).1 == stamps {
            return Ok(false);
        }
        let config = self.settings.server_config()?;
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = (config, stamps);
        Ok(true)
    }

    /// Checks for changed files every [`RELOAD_CHECK_INTERVAL`], forever.
    pub async fn watch(self: Arc<Self>, listener: String) {
        let mut last_error = None;
        loop {
            tokio::time::sleep(RELOAD_CHECK_INTERVAL).await;
            let this = self.clone();
            let result = tokio::task::spawn_blocking(move || this.reload_if_changed()).await;
            match result {
                Ok(Ok(true)) => {
                    tracing::info!(listener, "reloaded the listener's TLS key and trust stores");
                    last_error = None;
                }
                Ok(Ok(false)) => {}
                Ok(Err(e)) => {
                    if last_error.as_ref() != Some(&e) {
                        tracing::warn!(
                            listener,
                            "the changed TLS stores do not load, keeping the old ones: {e}"
                        );
                    }
                    last_error = Some(e);
                }
                Err(e) => tracing::warn!(listener, "checking the TLS stores: {e}"),
            }
        }
    }
}

/// A client's TLS connector for `host` (an IP address or a DNS name).
pub fn connector(
    config: Arc<rustls::ClientConfig>,
    host: &str,
) -> Result<(tokio_rustls::TlsConnector, ServerName<'static>), PeerError> {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let name =
        ServerName::try_from(host.to_string()).map_err(|e| PeerError(format!("{host}: {e}")))?;
    Ok((tokio_rustls::TlsConnector::from(config), name))
}

/// One rule of `ssl.principal.mapping.rules`.
#[derive(Debug, Clone)]
enum Rule {
    /// The distinguished name as it is.
    Default,
    /// A pattern the whole name must match, its replacement, and an optional case change.
    Pattern {
        regex: regex::Regex,
        replacement: String,
        case: Option<char>,
    },
}

/// `ssl.principal.mapping.rules`: the first rule matching a certificate's distinguished name
/// gives the principal's name; no match refuses the connection (as Kafka does).
#[derive(Debug, Clone)]
pub struct PrincipalRules(Vec<Rule>);

impl Default for PrincipalRules {
    fn default() -> Self {
        PrincipalRules(vec![Rule::Default])
    }
}

impl PrincipalRules {
    /// Parses Kafka's syntax: `RULE:pattern/replacement/[LU]` and `DEFAULT`, comma-separated
    /// (commas inside a pattern are part of it).
    pub fn parse(text: &str) -> Result<PrincipalRules, TlsError> {
        let key = broker::SSL_PRINCIPAL_MAPPING_RULES.name;
        let mut rules = Vec::new();
        let mut rest = text.trim();
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix("DEFAULT") {
                rules.push(Rule::Default);
                rest = r;
            } else if let Some(r) = rest.strip_prefix("RULE:") {
                let (pattern, r) =
                    until_slash(r).ok_or_else(|| err(key, "a RULE needs pattern/replacement/"))?;
                let (replacement, r) =
                    until_slash(r).ok_or_else(|| err(key, "a RULE needs pattern/replacement/"))?;
                let (case, r) = match r.chars().next() {
                    Some(c @ ('L' | 'U')) => (Some(c), &r[1..]),
                    _ => (None, r),
                };
                let regex = regex::Regex::new(&format!("^(?:{pattern})$"))
                    .map_err(|e| err(key, format!("bad pattern {pattern:?}: {e}")))?;
                // Java's $1 is regex's ${1} (so "$1a" stays group 1 and a letter).
                let replacement = java_replacement(&replacement);
                rules.push(Rule::Pattern {
                    regex,
                    replacement,
                    case,
                });
                rest = r;
            } else {
                return Err(err(key, format!("unexpected rule text {rest:?}")));
            }
            rest = rest.trim_start();
            match rest.strip_prefix(',') {
                Some(r) => rest = r.trim_start(),
                None if rest.is_empty() => {}
                None => return Err(err(key, format!("expected a comma before {rest:?}"))),
            }
        }
        if rules.is_empty() {
            rules.push(Rule::Default);
        }
        Ok(PrincipalRules(rules))
    }

    /// The principal name for a distinguished name, or why there is none.
    pub fn map(&self, dn: &str) -> Result<String, PeerError> {
        self.map_text(dn).map_err(PeerError)
    }

    fn map_text(&self, dn: &str) -> Result<String, String> {
        for rule in &self.0 {
            match rule {
                Rule::Default => return Ok(dn.to_string()),
                Rule::Pattern {
                    regex,
                    replacement,
                    case,
                } => {
                    if let Some(c) = regex.captures(dn) {
                        let mut out = String::new();
                        c.expand(replacement, &mut out);
                        return Ok(match case {
                            Some('L') => out.to_lowercase(),
                            Some('U') => out.to_uppercase(),
                            _ => out,
                        });
                    }
                }
            }
        }
        Err(format!("no ssl.principal.mapping.rules rule matches {dn}"))
    }
}

/// Text up to an unescaped '/', with `\/` unescaped, and the rest after the '/'.
fn until_slash(s: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' if s[i + 1..].starts_with('/') => {
                out.push('/');
                chars.next();
            }
            '/' => return Some((out, &s[i + 1..])),
            c => out.push(c),
        }
    }
    None
}

fn java_replacement(r: &str) -> String {
    let mut out = String::new();
    let mut chars = r.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            let d = chars.next().unwrap_or('0');
            out.push_str(&format!("${{{d}}}"));
        } else {
            out.push(c);
        }
    }
    out
}

/// The principal of a TLS client: from its certificate's distinguished name through the
/// rules, or `User:ANONYMOUS` without a certificate.
pub fn principal_of(
    certs: Option<&[CertificateDer<'_>]>,
    rules: &PrincipalRules,
) -> Result<Principal, PeerError> {
    let Some(cert) = certs.and_then(|c| c.first()) else {
        return Ok(Principal::anonymous());
    };
    let dn = distinguished_name(cert)?;
    rules.map(&dn).map(|name| Principal::user(&name))
}

/// A certificate subject's distinguished name as Java's `X500Principal.getName()` writes it
/// (RFC 2253: the last RDN first, no spaces after commas).
pub fn distinguished_name(cert: &CertificateDer<'_>) -> Result<String, PeerError> {
    let (_, parsed) = x509_parser::parse_x509_certificate(cert.as_ref())
        .map_err(|e| PeerError(format!("an unreadable client certificate: {e}")))?;
    let mut rdns = Vec::new();
    for rdn in parsed.subject().iter_rdn() {
        let mut parts = Vec::new();
        for attr in rdn.iter() {
            let oid = attr.attr_type().to_id_string();
            let name = match oid.as_str() {
                "2.5.4.3" => "CN".to_string(),
                "2.5.4.6" => "C".into(),
                "2.5.4.7" => "L".into(),
                "2.5.4.8" => "ST".into(),
                "2.5.4.10" => "O".into(),
                "2.5.4.11" => "OU".into(),
                "2.5.4.9" => "STREET".into(),
                "0.9.2342.19200300.100.1.25" => "DC".into(),
                "0.9.2342.19200300.100.1.1" => "UID".into(),
                other => other.to_string(),
            };
            let value = attr.as_str().map_err(|e| {
                PeerError(format!(
                    "a certificate name attribute that is not text: {e}"
                ))
            })?;
            parts.push(format!("{name}={}", escape_rfc2253(value)));
        }
        rdns.push(parts.join("+"));
    }
    rdns.reverse();
    Ok(rdns.join(","))
}

fn escape_rfc2253(v: &str) -> String {
    let mut out = String::new();
    let last = v.chars().count().saturating_sub(1);
    for (i, c) in v.chars().enumerate() {
        let special = matches!(c, ',' | '+' | '"' | '\\' | '<' | '>' | ';')
            || (i == 0 && (c == '#' || c == ' '))
            || (i == last && c == ' ');
        if special {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fjord_util::message_error! {
    /// Why a TLS peer's name, certificate or principal could not be had (the handshake fails:
    /// Kafka has no error code for it on the wire).
    pub struct PeerError;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapping_rules_follow_kafkas_syntax() {
        let r = PrincipalRules::parse(
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,RULE:^CN=(.*?),OU=(.*?),O=(.*?)$/$1@$2/L, RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/U, DEFAULT",
        )
        .unwrap();
        assert_eq!(
            r.map("CN=kafka-server1,OU=ServiceUsers,O=Org").unwrap(),
            "kafka-server1"
        );
        assert_eq!(r.map("CN=Duke,OU=JavaSoft,O=Sun").unwrap(), "duke@javasoft");
        assert_eq!(r.map("O=x,cn=Bob.Smith,C=US").unwrap(), "BOB.SMITH");
        assert_eq!(r.map("O=nothing").unwrap(), "O=nothing");
        let strict = PrincipalRules::parse("RULE:^CN=([a-z]+)$/$1/").unwrap();
        assert!(
            strict.map("CN=UPPER").is_err(),
            "no rule matches and no DEFAULT"
        );
        assert_eq!(
            PrincipalRules::parse("").unwrap().map("CN=a").unwrap(),
            "CN=a"
        );
        assert_eq!(
            PrincipalRules::parse("RULE:^CN=(.*)\\/x$/$1/")
                .unwrap()
                .map("CN=a/x")
                .unwrap(),
            "a"
        );
        for bad in ["RULE:^CN", "NONSENSE", "RULE:(/x/", "DEFAULT junk"] {
            assert!(PrincipalRules::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn distinguished_names_are_written_as_java_writes_them() {
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        let mut dn = rcgen::DistinguishedName::new();
        dn.push(rcgen::DnType::CountryName, "NO");
        dn.push(rcgen::DnType::OrganizationName, "fjord, inc");
        dn.push(rcgen::DnType::CommonName, "alice");
        params.distinguished_name = dn;
        let key = rcgen::KeyPair::generate().unwrap();
        let cert = params.self_signed(&key).unwrap();
        let der = CertificateDer::from(cert.der().to_vec());
        assert_eq!(
            distinguished_name(&der).unwrap(),
            "CN=alice,O=fjord\\, inc,C=NO"
        );
        let p = principal_of(Some(&[der]), &PrincipalRules::default()).unwrap();
        assert_eq!(p.to_string(), "User:CN=alice,O=fjord\\, inc,C=NO");
        assert_eq!(
            principal_of(None, &PrincipalRules::default()).unwrap(),
            Principal::anonymous()
        );
    }

    #[test]
    fn kafka_keys_give_the_settings_and_other_store_types_are_refused() {
        let keys = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let s = TlsSettings::from_keys(&keys(&[
            ("ssl.keystore.location", "/k.pem"),
            ("ssl.truststore.location", "/t.pem"),
            ("ssl.client.auth", "required"),
            ("ssl.endpoint.identification.algorithm", ""),
            ("ssl.enabled.protocols", "TLSv1.3"),
        ]))
        .unwrap();
        assert_eq!(s.keystore, Some((Pem::File("/k.pem".into()), None)));
        assert_eq!(s.truststore, Some(Pem::File("/t.pem".into())));
        assert_eq!(s.client_auth, ClientAuth::Required);
        assert!(!s.check_hostname);
        assert_eq!(s.protocols, vec!["TLSv1.3".to_string()]);
        for (pairs, key) in [
            (&[("ssl.keystore.type", "JKS")][..], "ssl.keystore.type"),
            (
                &[("ssl.truststore.type", "PKCS12")][..],
                "ssl.truststore.type",
            ),
            (&[("ssl.client.auth", "maybe")][..], "ssl.client.auth"),
            (
                &[("ssl.keystore.key", "k")][..],
                "ssl.keystore.certificate.chain",
            ),
            (
                &[("ssl.enabled.protocols", "SSLv3")][..],
                "ssl.enabled.protocols",
            ),
        ] {
            let e = TlsSettings::from_keys(&keys(pairs)).unwrap_err();
            assert_eq!(e.key, key);
        }
        let e = TlsSettings::from_keys(&keys(&[("ssl.keystore.type", "JKS")])).unwrap_err();
        assert!(e.to_string().contains("PEM"), "{e}");
    }

    #[test]
    fn encrypted_keys_open_with_ssl_key_password() {
        use pkcs8::der::pem::LineEnding;
        let key = rcgen::KeyPair::generate().unwrap();
        let mut params = rcgen::CertificateParams::new(vec!["localhost".to_string()]).unwrap();
        params.distinguished_name = rcgen::DistinguishedName::new();
        let cert = params.self_signed(&key).unwrap();
        let info = pkcs8::PrivateKeyInfo::try_from(key.serialized_der()).unwrap();
        let scheme = pkcs8::pkcs5::pbes2::Parameters::pbkdf2_sha256_aes256cbc(
            2048,
            b"0123456789abcdef",
            b"fedcba9876543210",
        )
        .unwrap();
        let encrypted = info.encrypt_with_params(scheme, "s3cret").unwrap();
        let pem = encrypted
            .to_pem("ENCRYPTED PRIVATE KEY", LineEnding::LF)
            .unwrap();
        let keystore = format!("{}{}", pem.as_str(), cert.pem());
        let settings = |password: Option<&str>| TlsSettings {
            keystore: Some((Pem::Inline(keystore.clone()), None)),
            key_password: password.map(str::to_string),
            ..Default::default()
        };
        settings(Some("s3cret")).server_config().unwrap();
        for wrong in [Some("guess"), None] {
            let e = settings(wrong).server_config().unwrap_err();
            assert_eq!(e.key, "ssl.key.password");
            assert!(!e.to_string().contains("s3cret"));
        }
    }

    #[test]
    fn unusable_settings_name_their_key() {
        let none = TlsSettings::default();
        assert_eq!(none.server_config().unwrap_err().key, KEYSTORE);
        assert_eq!(none.client_config().unwrap_err().key, TRUSTSTORE);
        let s = TlsSettings {
            protocols: vec!["TLSv1.1".into()],
            ..Default::default()
        };
        assert_eq!(s.server_config().unwrap_err().key, "ssl.enabled.protocols");
        let s = TlsSettings {
            cipher_suites: vec!["TLS_NULL_WITH_NULL_NULL".into()],
            ..Default::default()
        };
        assert_eq!(s.server_config().unwrap_err().key, "ssl.cipher.suites");
        let s = TlsSettings {
            keystore: Some((Pem::Inline("not pem".into()), None)),
            ..Default::default()
        };
        assert_eq!(s.server_config().unwrap_err().key, KEYSTORE);
    }
}
