//! OAUTHBEARER (RFC 7628, KIP-255, KIP-768) on the server: the client's initial response in
//! Kafka's grammar, and the validation of its bearer token as Kafka's two validators do it:
//! the unsecured validator (tokens with `alg: none`, for development, the default) and the
//! broker validator of signed JWTs (the signature checked against the provider's JWKS by a
//! [`crate::sasl::jwks::JwksValidator`], then the claims: expiry and issued-at with the clock
//! skew, the expected audience and issuer, the subject and scope claims named by config).
//! Sans-IO: every check takes the time; fetching keys is the JWKS module's.

use super::SaslError;
use base64::Engine;
use serde_json::Value;
use std::collections::BTreeMap;

/// The mechanism's name.
pub const OAUTHBEARER: &str = "OAUTHBEARER";
/// The separator of the initial response's key-value pairs.
const KVSEP: char = '\u{1}';
/// The longest token validated (a token is a JWT: a few kilobytes at most); a longer one is
/// refused as an invalid token, as Kafka refuses a token it cannot read, before any decoding.
pub const MAX_TOKEN_BYTES: usize = 64 * 1024;

/// What the client's initial response carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitialResponse {
    /// The authorization id (`a=`), empty when none.
    pub authzid: String,
    /// The bearer token.
    pub token: String,
    /// The SASL extensions (KIP-342): every pair but `auth`.
    pub extensions: BTreeMap<String, String>,
}

/// Parses `n,[a=authzid],^Aauth=Bearer <token>^A[key=value^A]*^A`, as Kafka's
/// `OAuthBearerClientInitialResponse` does.
pub fn parse_initial(message: &[u8]) -> Result<InitialResponse, SaslError> {
    let bad =
        |why: &str| SaslError::Malformed(format!("Invalid OAUTHBEARER client first message{why}"));
    let text = std::str::from_utf8(message).map_err(|_| bad(""))?;
    let rest = text.strip_prefix("n,").ok_or_else(|| bad(""))?;
    let (gs2, rest) = rest.split_once(',').ok_or_else(|| bad(""))?;
    let authzid = match gs2 {
        "" => String::new(),
        a => {
            let id = a.strip_prefix("a=").ok_or_else(|| bad(""))?;
            if id.is_empty() || !id.bytes().all(|b| (1..=0x7f).contains(&b)) {
                return Err(bad(""));
            }
            id.replace("=2C", ",").replace("=3D", "=")
        }
    };
    let pairs = rest
        .strip_prefix(KVSEP)
        .and_then(|r| r.strip_suffix(KVSEP))
        .ok_or_else(|| bad(""))?;
    let mut properties = BTreeMap::new();
    if !pairs.is_empty() {
        let pairs = pairs.strip_suffix(KVSEP).ok_or_else(|| bad(""))?;
        for pair in pairs.split(KVSEP) {
            let (k, v) = pair.split_once('=').ok_or_else(|| bad(""))?;
            let key_ok = !k.is_empty() && k.bytes().all(|b| b.is_ascii_alphabetic());
            let value_ok = !v.is_empty()
                && v.bytes().all(|b| {
                    (0x21..=0x7e).contains(&b) || matches!(b, b' ' | b'\t' | b'\r' | b'\n')
                });
            if !key_ok || !value_ok {
                return Err(bad(""));
            }
            properties.insert(k.to_string(), v.to_string());
        }
    }
    let auth = properties
        .remove("auth")
        .ok_or_else(|| bad(": 'auth' not specified"))?;
    let (scheme, token) = auth
        .split_once(' ')
        .map(|(s, t)| (s, t.trim_start_matches(' ')))
        .ok_or_else(|| bad(": invalid 'auth' format"))?;
    let token_ok = !token.is_empty()
        && token
            .trim_end_matches('=')
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_~+/.".contains(&b));
    if !scheme
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        || !token_ok
    {
        return Err(bad(": invalid 'auth' format"));
    }
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(SaslError::Malformed(format!(
            "Invalid scheme in OAUTHBEARER client first message: {scheme}"
        )));
    }
    Ok(InitialResponse {
        authzid,
        token: token.to_string(),
        extensions: properties,
    })
}

/// A token that passed validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidToken {
    /// The principal's name (the subject claim).
    pub principal: String,
    /// When it expires, in milliseconds since the epoch.
    pub expiry_ms: i64,
    /// Its scope.
    pub scopes: Vec<String>,
}

/// Why a token was refused: the status the client is told (RFC 7628's error JSON) and the
/// reason the broker logs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// `invalid_token` or `insufficient_scope`.
    pub status: &'static str,
    /// The scope that was missing, for `insufficient_scope`.
    pub scope: Option<String>,
    /// What was wrong.
    pub reason: String,
}

impl Invalid {
    /// An `invalid_token` refusal.
    pub fn token(reason: impl Into<String>) -> Invalid {
        Invalid {
            status: "invalid_token",
            scope: None,
            reason: reason.into(),
        }
    }

    /// The error the server sends back (Kafka's `jsonErrorResponse`).
    pub fn json(&self) -> String {
        match &self.scope {
            Some(scope) => format!(
                "{{\"status\":\"{}\", \"scope\":\"{}\"}}",
                self.status, scope
            ),
            None => format!("{{\"status\":\"{}\"}}", self.status),
        }
    }
}

/// What validates a listener's bearer tokens.
pub trait TokenValidator: Send + Sync + std::fmt::Debug {
    /// Validates `token` at `now_ms`.
    fn validate(&self, token: &str, now_ms: i64) -> Result<ValidToken, Invalid>;
}

/// The parts of a compact JWT: header, claims (both decoded JSON) and whether it carries a
/// signature. Every validator starts here, so a token over [`MAX_TOKEN_BYTES`] is refused
/// here, before any decoding.
fn split_jwt(token: &str) -> Result<(Value, Value, bool), Invalid> {
    if token.len() > MAX_TOKEN_BYTES {
        return Err(Invalid::token(format!(
            "a token of {} bytes, over the bound of {MAX_TOKEN_BYTES}",
            token.len()
        )));
    }
    let parts: Vec<&str> = token.split('.').collect();
    if parts.len() != 3 {
        return Err(Invalid::token(format!(
            "Expected 3 dot-separated parts in the token, found {}",
            parts.len()
        )));
    }
    let json = |part: &str, what: &str| -> Result<Value, Invalid> {
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(part.trim_end_matches('='))
            .map_err(|_| Invalid::token(format!("The token's {what} is not base64url")))?;
        let value: Value = serde_json::from_slice(&bytes)
            .map_err(|_| Invalid::token(format!("The token's {what} is not JSON")))?;
        if value.is_object() {
            Ok(value)
        } else {
            Err(Invalid::token(format!(
                "The token's {what} is not a JSON object"
            )))
        }
    };
    Ok((
        json(parts[0], "header")?,
        json(parts[1], "claims")?,
        !parts[2].is_empty(),
    ))
}

/// A claim as seconds since the epoch (a JSON number), if present; an error when present
/// with another type.
fn seconds(claims: &Value, name: &str) -> Result<Option<f64>, Invalid> {
    match claims.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => Ok(n.as_f64()),
        Some(other) => Err(Invalid::token(format!(
            "The {name} claim had the incorrect type: {}",
            json_type(other)
        ))),
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "Boolean",
        Value::Number(_) => "Number",
        Value::String(_) => "String",
        Value::Array(_) => "List",
        Value::Object(_) => "Map",
    }
}

/// The scope claim: a space-delimited string or a list of strings.
fn scopes(claims: &Value, name: &str) -> Vec<String> {
    match claims.get(name) {
        Some(Value::String(s)) => s
            .split(' ')
            .filter(|x| !x.is_empty())
            .map(str::to_string)
            .collect(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::trim)
            .filter(|x| !x.is_empty())
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// Kafka's default validator (`OAuthBearerUnsecuredValidatorCallbackHandler`): an unsigned
/// token (`alg: none`) whose principal claim is a string, whose `exp` is still ahead (within
/// the allowed skew), whose `iat` if present is not ahead, and whose scope holds every
/// required scope. Its options come from the listener's OAUTHBEARER JAAS entry
/// (`unsecuredValidator*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsecuredValidator {
    /// `unsecuredValidatorPrincipalClaimName` (default `sub`).
    pub principal_claim: String,
    /// `unsecuredValidatorScopeClaimName` (default `scope`).
    pub scope_claim: String,
    /// `unsecuredValidatorRequiredScope` (space-delimited).
    pub required_scope: Vec<String>,
    /// `unsecuredValidatorAllowableClockSkewMs` (default 0).
    pub skew_ms: i64,
}

impl UnsecuredValidator {
    /// The validator the JAAS entry's options describe; an error names a bad option.
    pub fn from_options(options: &BTreeMap<String, String>) -> Result<UnsecuredValidator, String> {
        let opt = |k: &str| options.get(k).map(|v| v.trim()).filter(|v| !v.is_empty());
        let skew_ms = match opt("unsecuredValidatorAllowableClockSkewMs") {
            None => 0,
            Some(v) => v
                .parse::<i32>()
                .map_err(|e| format!("unsecuredValidatorAllowableClockSkewMs: {e}"))?
                .into(),
        };
        if skew_ms < 0 {
            return Err(format!(
                "Allowable clock skew millis must not be negative: {skew_ms}"
            ));
        }
        Ok(UnsecuredValidator {
            principal_claim: opt("unsecuredValidatorPrincipalClaimName")
                .unwrap_or("sub")
                .into(),
            scope_claim: opt("unsecuredValidatorScopeClaimName")
                .unwrap_or("scope")
                .into(),
            required_scope: opt("unsecuredValidatorRequiredScope")
                .map(|s| {
                    s.split(' ')
                        .filter(|x| !x.is_empty())
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            skew_ms,
        })
    }
}

impl TokenValidator for UnsecuredValidator {
    fn validate(&self, token: &str, now_ms: i64) -> Result<ValidToken, Invalid> {
        let (header, claims, signed) = split_jwt(token)?;
        if signed || header.get("alg").and_then(Value::as_str) != Some("none") {
            return Err(Invalid::token(
                "Unsecured validation requires an unsigned token (alg: none)",
            ));
        }
        let principal = match claims.get(&self.principal_claim) {
            Some(Value::String(s)) => s.clone(),
            None | Some(Value::Null) => {
                return Err(Invalid::token(format!(
                    "Required claim missing: {}",
                    self.principal_claim
                )))
            }
            Some(other) => {
                return Err(Invalid::token(format!(
                    "The {} claim had the incorrect type: {}",
                    self.principal_claim,
                    json_type(other)
                )))
            }
        };
        let iat = seconds(&claims, "iat")?;
        if let Some(iat) = iat {
            if 1000.0 * iat > (now_ms + self.skew_ms) as f64 {
                return Err(Invalid::token(format!(
                    "The Issued At value ({iat} seconds) was after the indicated time ({now_ms} ms) plus allowable clock skew ({} ms)",
                    self.skew_ms
                )));
            }
        }
        let exp = seconds(&claims, "exp")?
            .ok_or_else(|| Invalid::token("Required claim missing: exp"))?;
        if (now_ms - self.skew_ms) as f64 >= 1000.0 * exp {
            return Err(Invalid::token(format!(
                "The indicated time ({now_ms} ms) minus allowable clock skew ({} ms) was on or after the Expiration Time value ({exp} seconds)",
                self.skew_ms
            )));
        }
        if iat.is_some_and(|iat| exp <= iat) {
            return Err(Invalid::token(
                "The Expiration Time was not after the Issued At time",
            ));
        }
        let scopes = scopes(&claims, &self.scope_claim);
        if let Some(missing) = self.required_scope.iter().find(|s| !scopes.contains(s)) {
            return Err(Invalid {
                status: "insufficient_scope",
                scope: Some(format!("[{}]", self.required_scope.join(", "))),
                reason: format!("The provided scope was missing a required scope ({missing})"),
            });
        }
        Ok(ValidToken {
            principal,
            expiry_ms: (exp * 1000.0) as i64,
            scopes,
        })
    }
}

/// The claim checks of Kafka's broker validator (`BrokerJwtValidator`), after the signature:
/// `sasl.oauthbearer.*` keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimRules {
    /// `sasl.oauthbearer.expected.audience`: the token's `aud` must name one (empty: not
    /// checked, which needs `sasl.oauthbearer.allow.unverified.audience=true`).
    pub audience: Vec<String>,
    /// `sasl.oauthbearer.expected.issuer` (None: not checked, which needs
    /// `sasl.oauthbearer.allow.unverified.issuer=true`).
    pub issuer: Option<String>,
    /// `sasl.oauthbearer.clock.skew.seconds` (default 30).
    pub skew_s: i64,
    /// `sasl.oauthbearer.scope.claim.name` (default `scope`).
    pub scope_claim: String,
    /// `sasl.oauthbearer.sub.claim.name` (default `sub`).
    pub sub_claim: String,
}

impl ClaimRules {
    /// Checks a signed token's claims at `now_ms`.
    pub fn check(&self, claims: &Value, now_ms: i64) -> Result<ValidToken, Invalid> {
        let skew_ms = self.skew_s * 1000;
        let exp = seconds(claims, "exp")?
            .ok_or_else(|| Invalid::token("No Expiration Time (exp) claim present."))?;
        if (now_ms - skew_ms) as f64 >= 1000.0 * exp {
            return Err(Invalid::token(format!(
                "The JWT is no longer valid - the evaluation time {now_ms} ms is on or after the Expiration Time (exp={exp}) claim value (even when providing {} seconds of leeway to account for clock skew).",
                self.skew_s
            )));
        }
        seconds(claims, "iat")?
            .ok_or_else(|| Invalid::token("No Issued At (iat) claim present."))?;
        if let Some(nbf) = seconds(claims, "nbf")? {
            if ((now_ms + skew_ms) as f64) < 1000.0 * nbf {
                return Err(Invalid::token(format!(
                    "The JWT is not yet valid as the evaluation time {now_ms} ms is before the Not Before (nbf={nbf}) claim time (even when providing {} seconds of leeway to account for clock skew).",
                    self.skew_s
                )));
            }
        }
        if let Some(issuer) = &self.issuer {
            let iss = claims.get("iss").and_then(Value::as_str);
            if iss != Some(issuer.as_str()) {
                return Err(Invalid::token(format!(
                    "Issuer (iss) claim value ({}) doesn't match expected value of {issuer}",
                    iss.unwrap_or("null")
                )));
            }
        }
        if !self.audience.is_empty() {
            let aud: Vec<&str> = match claims.get("aud") {
                Some(Value::String(s)) => vec![s.as_str()],
                Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if aud.is_empty() {
                return Err(Invalid::token("No Audience (aud) claim present."));
            }
            if !aud.iter().any(|a| self.audience.iter().any(|e| e == a)) {
                return Err(Invalid::token(format!(
                    "Audience (aud) claim {aud:?} doesn't contain an acceptable identifier. Expected {:?} as an aud value.",
                    self.audience
                )));
            }
        }
        let principal = claims
            .get(&self.sub_claim)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| {
                Invalid::token(format!(
                    "{} value must be non-null and non-empty",
                    self.sub_claim
                ))
            })?;
        Ok(ValidToken {
            principal: principal.to_string(),
            expiry_ms: (exp * 1000.0) as i64,
            scopes: scopes(claims, &self.scope_claim),
        })
    }
}

/// The header of a signed token: its algorithm and key id.
pub fn signed_header(token: &str) -> Result<(String, Option<String>), Invalid> {
    let (header, _, signed) = split_jwt(token)?;
    let alg = header
        .get("alg")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    if !signed || alg.is_empty() || alg.eq_ignore_ascii_case("none") {
        return Err(Invalid::token(
            "'none' is not a permitted algorithm: the token must be signed",
        ));
    }
    Ok((
        alg,
        header
            .get("kid")
            .and_then(Value::as_str)
            .map(str::to_string),
    ))
}

/// An unsecured token for `sub` (Kafka's `OAuthBearerUnsecuredLoginCallbackHandler`): what a
/// client with `unsecuredLoginStringClaim_sub` sends; valid for `lifetime_s` from `now_ms`.
pub fn unsecured_token(sub: &str, now_ms: i64, lifetime_s: i64) -> String {
    let b64 = |v: &Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
    let iat = now_ms as f64 / 1000.0;
    let header = serde_json::json!({"alg": "none"});
    let claims = serde_json::json!({"sub": sub, "iat": iat, "exp": iat + lifetime_s as f64});
    format!("{}.{}.", b64(&header), b64(&claims))
}

/// The client's initial response carrying `token`.
pub fn initial_response(token: &str) -> Vec<u8> {
    format!("n,,{KVSEP}auth=Bearer {token}{KVSEP}{KVSEP}").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000_000;

    fn unsecured(claims: Value) -> String {
        let b64 =
            |v: &Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
        format!(
            "{}.{}.",
            b64(&serde_json::json!({"alg": "none"})),
            b64(&claims)
        )
    }

    #[test]
    fn the_initial_response_in_kafkas_grammar() {
        let t = unsecured_token("alice", NOW, 3600);
        let r = parse_initial(&initial_response(&t)).unwrap();
        assert_eq!(r.token, t);
        assert_eq!(r.authzid, "");
        let with = format!("n,a=alice,\u{1}auth=Bearer {t}\u{1}traceId=abc\u{1}\u{1}");
        let r = parse_initial(with.as_bytes()).unwrap();
        assert_eq!(r.authzid, "alice");
        assert_eq!(r.extensions.get("traceId").map(String::as_str), Some("abc"));
        for bad in [
            "".to_string(),
            "n,,auth=Bearer x".to_string(),
            format!("n,,\u{1}auth=Basic {t}\u{1}\u{1}"),
            "n,,\u{1}\u{1}".to_string(),
            format!("n,,\u{1}auth=Bearer {t}\u{1}"),
            "n,,\u{1}auth=Bearer \u{1}\u{1}".to_string(),
        ] {
            assert!(parse_initial(bad.as_bytes()).is_err(), "{bad:?}");
        }
        assert!(parse_initial(&[0xff, 0xfe]).is_err());
    }

    #[test]
    fn the_unsecured_validator_checks_what_kafkas_does() {
        let v = UnsecuredValidator::from_options(&BTreeMap::new()).unwrap();
        let exp = (NOW / 1000 + 60) as f64;
        let ok = v.validate(
            &unsecured(serde_json::json!({"sub": "alice", "exp": exp})),
            NOW,
        );
        assert_eq!(ok.unwrap().principal, "alice");
        let expired = v.validate(
            &unsecured(serde_json::json!({"sub": "a", "exp": (NOW / 1000) as f64})),
            NOW,
        );
        assert!(expired.unwrap_err().reason.contains("Expiration Time"));
        let no_exp = v.validate(&unsecured(serde_json::json!({"sub": "a"})), NOW);
        assert_eq!(no_exp.unwrap_err().reason, "Required claim missing: exp");
        let huge = v
            .validate(&"a".repeat(MAX_TOKEN_BYTES + 1), NOW)
            .unwrap_err();
        assert!(huge.reason.contains("over the bound"), "{}", huge.reason);
        let no_sub = v.validate(&unsecured(serde_json::json!({"exp": exp})), NOW);
        assert_eq!(no_sub.unwrap_err().reason, "Required claim missing: sub");
        let number_sub = v.validate(&unsecured(serde_json::json!({"sub": 5, "exp": exp})), NOW);
        assert!(number_sub.is_err());
        let future_iat = v.validate(
            &unsecured(serde_json::json!({"sub": "a", "exp": exp, "iat": exp - 1.0})),
            NOW,
        );
        assert!(future_iat.unwrap_err().reason.contains("Issued At"));
        assert!(v.validate("a.b", NOW).is_err());
        assert!(v.validate("!!.!!.", NOW).is_err());
        // A signed token is not an unsecured one.
        let signed = format!(
            "{}sig",
            unsecured(serde_json::json!({"sub": "a", "exp": exp}))
        );
        assert!(v.validate(&signed, NOW).is_err());
        let scoped = UnsecuredValidator::from_options(
            &[(
                "unsecuredValidatorRequiredScope".to_string(),
                "write read".to_string(),
            )]
            .into(),
        )
        .unwrap();
        let refused = scoped
            .validate(
                &unsecured(serde_json::json!({"sub": "a", "exp": exp, "scope": "read"})),
                NOW,
            )
            .unwrap_err();
        assert_eq!(refused.status, "insufficient_scope");
        assert_eq!(
            refused.json(),
            "{\"status\":\"insufficient_scope\", \"scope\":\"[write, read]\"}"
        );
        assert!(scoped
            .validate(
                &unsecured(serde_json::json!({"sub": "a", "exp": exp, "scope": ["read", "write"]})),
                NOW
            )
            .is_ok());
    }

    #[test]
    fn a_signed_tokens_claims() {
        let rules = ClaimRules {
            audience: vec!["fjord".into()],
            issuer: Some("http://idp".into()),
            skew_s: 30,
            scope_claim: "scope".into(),
            sub_claim: "sub".into(),
        };
        let now_s = (NOW / 1000) as f64;
        let good = serde_json::json!({"sub": "svc", "exp": now_s + 60.0, "iat": now_s, "aud": ["fjord"], "iss": "http://idp"});
        assert_eq!(rules.check(&good, NOW).unwrap().principal, "svc");
        let mut c = good.clone();
        c["aud"] = serde_json::json!("other");
        assert!(rules
            .check(&c, NOW)
            .unwrap_err()
            .reason
            .contains("Audience"));
        let mut c = good.clone();
        c["iss"] = serde_json::json!("http://evil");
        assert!(rules.check(&c, NOW).is_err());
        // Expired beyond the skew; within it is still valid.
        let mut c = good.clone();
        c["exp"] = serde_json::json!(now_s - 10.0);
        assert!(rules.check(&c, NOW).is_ok());
        c["exp"] = serde_json::json!(now_s - 31.0);
        assert!(rules.check(&c, NOW).is_err());
        let mut c = good.clone();
        c.as_object_mut().unwrap().remove("iat");
        assert!(rules.check(&c, NOW).is_err());
        let mut c = good;
        c["sub"] = serde_json::json!(" ");
        assert!(rules.check(&c, NOW).is_err());
    }
}
