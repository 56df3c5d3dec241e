//! Kafka's broker validator of signed bearer tokens (`OAuthBearerValidatorCallbackHandler`):
//! the provider's keys fetched from `sasl.oauthbearer.jwks.endpoint.url` and refreshed every
//! `sasl.oauthbearer.jwks.endpoint.refresh.ms` (with Kafka's retry backoff), a token with an
//! unknown key id triggering an early refresh (at most once a minute per key id, as Kafka's
//! `RefreshingHttpsJwks`), the signature checked by `jsonwebtoken`, then the claims by
//! [`ClaimRules`]. The keys last fetched stay in use while the provider is down.

use super::oauthbearer::{signed_header, ClaimRules, Invalid, TokenValidator, ValidToken};
use jsonwebtoken::jwk::JwkSet;
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::{Mutex, RwLock};
use std::time::Duration;

/// The largest JWKS document read.
pub const MAX_JWKS_BYTES: usize = 1024 * 1024;
/// How long an unknown key id waits before it may trigger another refresh (Kafka's).
const MISSING_KEY_ID_INTERVAL_MS: i64 = 60_000;
/// The longest key id remembered as missing (Kafka's).
const MAX_KEY_ID_CHARS: usize = 1000;
/// The most key ids remembered as missing.
const MAX_MISSING_KEY_IDS: usize = 16;
/// How long one fetch may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// Where and how often the keys are fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JwksSettings {
    /// `sasl.oauthbearer.jwks.endpoint.url` (http, https or file).
    pub url: String,
    /// `sasl.oauthbearer.jwks.endpoint.refresh.ms` (default an hour).
    pub refresh: Duration,
    /// `sasl.oauthbearer.jwks.endpoint.retry.backoff.ms` (default 100 ms).
    pub backoff: Duration,
    /// `sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms` (default 10 s).
    pub backoff_max: Duration,
}

/// A listener's validator of signed tokens.
#[derive(Debug)]
pub struct JwksValidator {
    rules: ClaimRules,
    settings: JwksSettings,
    keys: RwLock<Option<JwkSet>>,
    /// Key ids not found, and when each may trigger a refresh again.
    missing: Mutex<HashMap<String, i64>>,
    wake: tokio::sync::Notify,
}

impl JwksValidator {
    /// A validator with no keys yet: [`JwksValidator::run`] fetches them.
    pub fn new(rules: ClaimRules, settings: JwksSettings) -> JwksValidator {
        JwksValidator {
            rules,
            settings,
            keys: RwLock::new(None),
            missing: Mutex::new(HashMap::new()),
            wake: tokio::sync::Notify::new(),
        }
    }

    /// Keeps the keys fresh: a fetch now, then every refresh interval or when a token names
    /// a key id the keys lack; a failed fetch is retried with backoff, the old keys kept.
    pub async fn run(&self) {
        let client = reqwest::Client::builder()
            .timeout(FETCH_TIMEOUT)
            .build()
            .unwrap_or_default();
        loop {
            let mut backoff = self.settings.backoff;
            loop {
                match fetch(&client, &self.settings.url).await {
                    Ok(set) => {
                        tracing::debug!(url = %self.settings.url, keys = set.keys.len(), "JWKS refreshed");
                        *self.keys.write().unwrap_or_else(|e| e.into_inner()) = Some(set);
                        break;
                    }
                    Err(e) => {
                        tracing::warn!(url = %self.settings.url, "could not fetch the OAUTHBEARER JWKS (retrying in {backoff:?}): {e}");
                        tokio::time::sleep(backoff).await;
                        backoff = (backoff * 2).min(self.settings.backoff_max);
                    }
                }
            }
            tokio::select! {
                _ = tokio::time::sleep(self.settings.refresh) => {}
                _ = self.wake.notified() => {}
            }
        }
    }

    /// Asks for an early refresh for `kid`, unless one was asked for it within a minute.
    fn expedite(&self, kid: &str, now_ms: i64) {
        if kid.chars().count() > MAX_KEY_ID_CHARS {
            return;
        }
        let mut missing = self.missing.lock().unwrap_or_else(|e| e.into_inner());
        if missing.get(kid).is_some_and(|next| *next > now_ms) {
            return;
        }
        if missing.len() >= MAX_MISSING_KEY_IDS {
            missing.retain(|_, next| *next > now_ms);
            if missing.len() >= MAX_MISSING_KEY_IDS {
                return;
            }
        }
        missing.insert(kid.to_string(), now_ms + MISSING_KEY_ID_INTERVAL_MS);
        self.wake.notify_one();
    }
}

impl TokenValidator for JwksValidator {
    fn validate(&self, token: &str, now_ms: i64) -> Result<ValidToken, Invalid> {
        let (alg, kid) = signed_header(token)?;
        let algorithm = jsonwebtoken::Algorithm::from_str(&alg)
            .map_err(|_| Invalid::token(format!("The token's algorithm {alg} is not supported")))?;
        let key = {
            let keys = self.keys.read().unwrap_or_else(|e| e.into_inner());
            let Some(set) = keys.as_ref() else {
                return Err(Invalid::token(format!(
                    "No keys from the JWKS endpoint {} yet",
                    self.settings.url
                )));
            };
            let found = match &kid {
                Some(kid) => set.find(kid),
                None if set.keys.len() == 1 => set.keys.first(),
                None => None,
            };
            match found.map(jsonwebtoken::DecodingKey::from_jwk) {
                Some(Ok(key)) => key,
                Some(Err(e)) => {
                    return Err(Invalid::token(format!(
                        "The verification key is unusable: {e}"
                    )))
                }
                None => {
                    let kid = kid.unwrap_or_default();
                    self.expedite(&kid, now_ms);
                    return Err(Invalid::token(format!(
                        "Unable to find a suitable verification key for key id {kid:?} from the JWKS endpoint {}",
                        self.settings.url
                    )));
                }
            }
        };
        let mut validation = jsonwebtoken::Validation::new(algorithm);
        // The claims are ClaimRules' to check, with Kafka's rules and messages.
        validation.validate_exp = false;
        validation.validate_aud = false;
        validation.required_spec_claims.clear();
        let data = jsonwebtoken::decode::<serde_json::Value>(token, &key, &validation)
            .map_err(|e| Invalid::token(format!("Could not validate the access token: {e}")))?;
        self.rules.check(&data.claims, now_ms)
    }
}

/// Reads the key set at `url`.
async fn fetch(client: &reqwest::Client, url: &str) -> Result<JwkSet, String> {
    let bytes = if let Some(path) = url.strip_prefix("file://") {
        tokio::fs::read(path).await.map_err(|e| e.to_string())?
    } else {
        let mut response = client
            .get(url)
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .map_err(|e| e.to_string())?;
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| e.to_string())? {
            if body.len() + chunk.len() > MAX_JWKS_BYTES {
                return Err(format!("the JWKS is larger than {MAX_JWKS_BYTES} bytes"));
            }
            body.extend_from_slice(&chunk);
        }
        body
    };
    serde_json::from_slice(&bytes).map_err(|e| format!("not a JWKS document: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_key_id_asks_for_a_refresh_at_most_once_a_minute() {
        let v = JwksValidator::new(
            ClaimRules {
                audience: vec![],
                issuer: None,
                skew_s: 30,
                scope_claim: "scope".into(),
                sub_claim: "sub".into(),
            },
            JwksSettings {
                url: "file:///nonexistent".into(),
                refresh: Duration::from_secs(3600),
                backoff: Duration::from_millis(100),
                backoff_max: Duration::from_secs(10),
            },
        );
        v.expedite("k1", 0);
        v.expedite("k1", 1_000);
        assert_eq!(v.missing.lock().unwrap().get("k1"), Some(&60_000));
        v.expedite("k1", 60_000);
        assert_eq!(v.missing.lock().unwrap().get("k1"), Some(&120_000));
        for i in 0..40 {
            v.expedite(&format!("k{i}"), 61_000);
        }
        assert!(v.missing.lock().unwrap().len() <= MAX_MISSING_KEY_IDS);
        v.expedite(&"x".repeat(MAX_KEY_ID_CHARS + 1), 0);
        assert!(!v
            .missing
            .lock()
            .unwrap()
            .contains_key(&"x".repeat(MAX_KEY_ID_CHARS + 1)));
    }
}
