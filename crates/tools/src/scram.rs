//! SCRAM credentials as operators write them (Kafka's syntax): `kafka-configs --entity-type
//! users --add-config 'SCRAM-SHA-256=[iterations=8192,password=alice-secret]'` and `fjord
//! format --add-scram 'SCRAM-SHA-256=[name=alice,password=alice-secret]'`. The password is
//! salted here, on the operator's side, so it never crosses the wire.

use fjord_net::sasl::scram::{Mechanism, MAX_ITERATIONS, MIN_ITERATIONS};

/// Kafka's default iteration count for new SCRAM credentials.
pub const DEFAULT_ITERATIONS: u32 = 4096;
/// The salt length for credentials salted here.
const SALT_BYTES: usize = 32;

/// One credential to store.
#[derive(Clone, PartialEq, Eq)]
pub struct ScramSpec {
    /// The user (from `name=`, or the entity name).
    pub user: String,
    /// The mechanism.
    pub mechanism: Mechanism,
    /// The iteration count.
    pub iterations: u32,
    /// The salt.
    pub salt: Vec<u8>,
    /// SaltedPassword (PBKDF2 of the password).
    pub salted_password: Vec<u8>,
}

impl std::fmt::Debug for ScramSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScramSpec")
            .field("user", &self.user)
            .field("mechanism", &self.mechanism)
            .field("iterations", &self.iterations)
            .finish_non_exhaustive()
    }
}

fn random_salt() -> Vec<u8> {
    let mut salt = Vec::with_capacity(SALT_BYTES);
    while salt.len() < SALT_BYTES {
        salt.extend_from_slice(uuid::Uuid::new_v4().as_bytes());
    }
    salt.truncate(SALT_BYTES);
    salt
}

/// Parses `MECHANISM` and its bracketed body `k=v,...` (`name`, `password`, `iterations`,
/// `salt` in base64, `saltedpassword` in base64); `user` is the entity's name when the body
/// has no `name`. Errors never quote a password.
pub fn parse(
    mechanism: &str,
    body: &str,
    user: Option<&str>,
) -> Result<ScramSpec, crate::common::InvalidArgument> {
    parse_text(mechanism, body, user).map_err(crate::common::InvalidArgument)
}

fn parse_text(mechanism: &str, body: &str, user: Option<&str>) -> Result<ScramSpec, String> {
    use base64::Engine;
    let m = Mechanism::from_name(mechanism.trim()).ok_or_else(|| {
        format!("{mechanism} is not a SCRAM mechanism (SCRAM-SHA-256, SCRAM-SHA-512)")
    })?;
    let body = body.trim();
    let body = body
        .strip_prefix('[')
        .and_then(|b| b.strip_suffix(']'))
        .unwrap_or(body);
    let (mut name, mut password, mut iterations, mut salt, mut salted) =
        (None, None, None, None, None);
    for part in body.split(',').filter(|p| !p.trim().is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("{mechanism}: expected key=value, found a part without '='"))?;
        let b64 = |what: &str| {
            base64::engine::general_purpose::STANDARD
                .decode(v.trim())
                .map_err(|_| format!("{mechanism}: {what} is not base64"))
        };
        match k.trim() {
            "name" => name = Some(v.trim().trim_matches('"').to_string()),
            "password" => password = Some(v.trim_matches('"').to_string()),
            "iterations" => {
                iterations = Some(v.trim().parse::<u32>().map_err(|_| {
                    format!("{mechanism}: iterations {:?} is not a number", v.trim())
                })?)
            }
            "salt" => salt = Some(b64("salt")?),
            "saltedpassword" => salted = Some(b64("saltedpassword")?),
            other => return Err(format!("{mechanism}: unknown key {other}")),
        }
    }
    let user = name
        .or_else(|| user.map(str::to_string))
        .filter(|u| !u.is_empty())
        .ok_or_else(|| format!("{mechanism}: no user name (name=...)"))?;
    let iterations = iterations.unwrap_or(DEFAULT_ITERATIONS);
    if !(MIN_ITERATIONS..=MAX_ITERATIONS).contains(&iterations) {
        return Err(format!(
            "{mechanism}: iterations must be between {MIN_ITERATIONS} and {MAX_ITERATIONS}"
        ));
    }
    let (salt, salted_password) = match (password, salt, salted) {
        (Some(p), salt, None) => {
            let salt = salt.unwrap_or_else(random_salt);
            let salted = m.salted_password(p.as_bytes(), &salt, iterations);
            (salt, salted)
        }
        (None, Some(salt), Some(salted)) => (salt, salted),
        (Some(_), _, Some(_)) => {
            return Err(format!(
                "{mechanism}: give either password or saltedpassword, not both"
            ))
        }
        _ => return Err(format!("{mechanism}: no password")),
    };
    Ok(ScramSpec {
        user,
        mechanism: m,
        iterations,
        salt,
        salted_password,
    })
}

/// Parses `--add-scram`'s `MECHANISM=[name=...,password=...]`.
pub fn parse_add_scram(arg: &str) -> Result<ScramSpec, crate::common::InvalidArgument> {
    parse_add_scram_text(arg).map_err(crate::common::InvalidArgument)
}

fn parse_add_scram_text(arg: &str) -> Result<ScramSpec, String> {
    let (m, body) = arg
        .split_once('=')
        .ok_or_else(|| "expected MECHANISM=[name=...,password=...]".to_string())?;
    parse_text(m, body, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kafkas_scram_syntax_parses_and_hides_the_password() {
        let s = parse_add_scram("SCRAM-SHA-256=[name=alice,password=alice-secret]").unwrap();
        assert_eq!((s.user.as_str(), s.iterations), ("alice", 4096));
        assert_eq!(s.salt.len(), 32);
        assert_eq!(
            s.salted_password,
            Mechanism::Sha256.salted_password(b"alice-secret", &s.salt, 4096)
        );
        assert!(!format!("{s:?}").contains("alice-secret"));
        let s = parse("SCRAM-SHA-512", "iterations=8192,password=p", Some("bob")).unwrap();
        assert_eq!((s.user.as_str(), s.iterations), ("bob", 8192));
        let s = parse(
            "SCRAM-SHA-256",
            "[name=c,salt=c2FsdA==,saltedpassword=cGFzcw==,iterations=4096]",
            None,
        )
        .unwrap();
        assert_eq!(
            (s.salt.as_slice(), s.salted_password.as_slice()),
            (&b"salt"[..], &b"pass"[..])
        );
        for bad in [
            "SCRAM-SHA-1=[name=a,password=p]",
            "SCRAM-SHA-256=[password=p]",
            "SCRAM-SHA-256=[name=a]",
            "SCRAM-SHA-256=[name=a,password=p,iterations=10]",
            "SCRAM-SHA-256=[name=a,password=p,color=red]",
            "nonsense",
        ] {
            let e = parse_add_scram(bad).unwrap_err();
            assert!(!e.contains("=p"), "{e}");
        }
    }
}
