//! The bearer token a client of this node (its own connections to other nodes, fjord's
//! tools) signs in with over OAUTHBEARER, as Kafka's login callback handlers obtain it: an
//! unsecured token from the JAAS entry's `unsecuredLoginStringClaim_sub` (Kafka's default),
//! or a token from the provider's token endpoint with the client-credentials grant
//! (`OAuthBearerLoginCallbackHandler`), kept until most of its lifetime has passed.

use base64::Engine;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Kafka's login callback handler that uses the client-credentials grant.
pub const CLIENT_CREDENTIALS_HANDLER: &str =
    "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler";
/// Its pre-3.7 name.
const CLIENT_CREDENTIALS_HANDLER_OLD: &str =
    "org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerLoginCallbackHandler";
/// The lifetime of an unsecured token (Kafka's default `unsecuredLoginLifetimeSeconds`).
const UNSECURED_LIFETIME_S: i64 = 3600;
/// The share of a token's lifetime after which a new one is fetched.
const REFRESH_AT: f64 = 0.8;
/// The largest token endpoint answer read.
const MAX_TOKEN_RESPONSE_BYTES: usize = 1024 * 1024;
/// How long a token request may take.
const TOKEN_TIMEOUT: Duration = Duration::from_secs(10);

/// A shared login, compared by identity (credentials compare equal only when they share it).
#[derive(Debug, Clone)]
pub struct Bearer(pub std::sync::Arc<BearerLogin>);

impl PartialEq for Bearer {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Bearer {}

/// Where the client's bearer token comes from.
#[derive(Debug)]
pub enum BearerLogin {
    /// An unsigned token naming this principal.
    Unsecured(String),
    /// The client-credentials grant at a token endpoint.
    ClientCredentials(ClientCredentials),
}

/// A client-credentials login and the token it holds.
#[derive(Debug)]
pub struct ClientCredentials {
    /// `sasl.oauthbearer.token.endpoint.url`.
    pub url: String,
    /// The client id.
    pub client_id: String,
    secret: String,
    /// The scope asked for, if any.
    pub scope: Option<String>,
    cached: tokio::sync::Mutex<Option<(String, Instant)>>,
}

/// What a login is built from (a JAAS entry's options and the `sasl.*` keys).
#[derive(Debug, Default, Clone)]
pub struct LoginSettings {
    /// The JAAS entry's options.
    pub options: BTreeMap<String, String>,
    /// `sasl.login.callback.handler.class`.
    pub handler: Option<String>,
    /// `sasl.oauthbearer.token.endpoint.url`.
    pub token_url: Option<String>,
    /// `sasl.oauthbearer.client.credentials.client.id`.
    pub client_id: Option<String>,
    /// `sasl.oauthbearer.client.credentials.client.secret`.
    pub client_secret: Option<String>,
    /// `sasl.oauthbearer.scope`.
    pub scope: Option<String>,
}

impl BearerLogin {
    /// The login `settings` describe, or why they describe none.
    pub fn from_settings(settings: LoginSettings) -> Result<BearerLogin, String> {
        let opt = |k: &str| settings.options.get(k).filter(|v| !v.is_empty()).cloned();
        match settings.handler.as_deref().map(str::trim) {
            None | Some("") => {
                let sub = opt("unsecuredLoginStringClaim_sub").ok_or(
                    "an OAUTHBEARER login needs unsecuredLoginStringClaim_sub in its JAAS entry, or sasl.login.callback.handler.class with a token endpoint",
                )?;
                Ok(BearerLogin::Unsecured(sub))
            }
            Some(h) if h == CLIENT_CREDENTIALS_HANDLER || h == CLIENT_CREDENTIALS_HANDLER_OLD => {
                let url = settings
                    .token_url
                    .filter(|u| !u.is_empty())
                    .ok_or("the OAUTHBEARER login needs sasl.oauthbearer.token.endpoint.url")?;
                let client_id = settings
                    .client_id
                    .or_else(|| opt("clientId"))
                    .ok_or("the OAUTHBEARER login needs a client id (clientId in its JAAS entry)")?;
                let secret = settings
                    .client_secret
                    .or_else(|| opt("clientSecret"))
                    .ok_or("the OAUTHBEARER login needs a client secret (clientSecret in its JAAS entry)")?;
                Ok(BearerLogin::ClientCredentials(ClientCredentials {
                    url,
                    client_id,
                    secret,
                    scope: settings.scope.or_else(|| opt("scope")),
                    cached: tokio::sync::Mutex::new(None),
                }))
            }
            Some(other) => Err(format!(
                "fjord cannot load the login callback handler {other} (it signs in with an unsecured token, or with {CLIENT_CREDENTIALS_HANDLER})"
            )),
        }
    }

    /// A token to sign in with now.
    pub async fn token(&self) -> Result<String, String> {
        match self {
            BearerLogin::Unsecured(sub) => Ok(super::oauthbearer::unsecured_token(
                sub,
                fjord_util::system_now_ms(),
                UNSECURED_LIFETIME_S,
            )),
            BearerLogin::ClientCredentials(c) => c.token().await,
        }
    }
}

impl ClientCredentials {
    /// The held token while most of its lifetime remains, else a new one.
    async fn token(&self) -> Result<String, String> {
        let mut cached = self.cached.lock().await;
        if let Some((token, refresh_at)) = cached.as_ref() {
            if Instant::now() < *refresh_at {
                return Ok(token.clone());
            }
        }
        let (token, lifetime) = self.fetch().await?;
        *cached = Some((token.clone(), Instant::now() + lifetime.mul_f64(REFRESH_AT)));
        Ok(token)
    }

    /// Asks the token endpoint (HTTP basic authentication with the URL-encoded id and secret,
    /// as Kafka's `ClientCredentialsRequestFormatter`).
    async fn fetch(&self) -> Result<(String, Duration), String> {
        let client = reqwest::Client::builder()
            .timeout(TOKEN_TIMEOUT)
            .build()
            .map_err(|e| e.to_string())?;
        let basic = base64::engine::general_purpose::STANDARD.encode(format!(
            "{}:{}",
            url_encode(&self.client_id),
            url_encode(&self.secret)
        ));
        let mut body = "grant_type=client_credentials".to_string();
        if let Some(scope) = &self.scope {
            body.push_str("&scope=");
            body.push_str(&url_encode(scope));
        }
        let mut response = client
            .post(&self.url)
            .header("Authorization", format!("Basic {basic}"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Accept", "application/json")
            .body(body)
            .send()
            .await
            .map_err(|e| format!("the token endpoint {}: {e}", self.url))?;
        let status = response.status();
        let mut bytes = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| e.to_string())? {
            if bytes.len() + chunk.len() > MAX_TOKEN_RESPONSE_BYTES {
                return Err("the token endpoint's answer is too large".into());
            }
            bytes.extend_from_slice(&chunk);
        }
        if !status.is_success() {
            return Err(format!(
                "the token endpoint {} answered {status}: {}",
                self.url,
                String::from_utf8_lossy(&bytes)
                    .chars()
                    .take(200)
                    .collect::<String>()
            ));
        }
        let answer: serde_json::Value = serde_json::from_slice(&bytes)
            .map_err(|e| format!("the token endpoint's answer is not JSON: {e}"))?;
        let token = answer
            .get("access_token")
            .and_then(|t| t.as_str())
            .ok_or("the token endpoint's answer has no access_token")?;
        let lifetime = answer
            .get("expires_in")
            .and_then(|t| t.as_u64())
            .map_or(Duration::from_secs(60), Duration::from_secs);
        Ok((token.to_string(), lifetime))
    }
}

/// `application/x-www-form-urlencoded` escaping.
fn url_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'*' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logins_from_kafkas_settings() {
        let unsecured = LoginSettings {
            options: [(
                "unsecuredLoginStringClaim_sub".to_string(),
                "broker".to_string(),
            )]
            .into(),
            ..Default::default()
        };
        assert!(
            matches!(BearerLogin::from_settings(unsecured), Ok(BearerLogin::Unsecured(s)) if s == "broker")
        );
        assert!(BearerLogin::from_settings(LoginSettings::default()).is_err());
        let cc = LoginSettings {
            options: [
                ("clientId".to_string(), "fjord".to_string()),
                ("clientSecret".to_string(), "s e/cret".to_string()),
            ]
            .into(),
            handler: Some(CLIENT_CREDENTIALS_HANDLER.into()),
            token_url: Some("http://127.0.0.1:1/oauth2/token".into()),
            ..Default::default()
        };
        let BearerLogin::ClientCredentials(c) = BearerLogin::from_settings(cc).unwrap() else {
            panic!("client credentials")
        };
        assert_eq!(c.client_id, "fjord");
        assert_eq!(url_encode("s e/cret"), "s+e%2Fcret");
        let other = LoginSettings {
            handler: Some("com.example.Login".into()),
            ..Default::default()
        };
        assert!(BearerLogin::from_settings(other).is_err());
    }
}
