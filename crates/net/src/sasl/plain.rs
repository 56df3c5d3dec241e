//! SASL/PLAIN (RFC 4616) as Kafka's `PlainLoginModule` serves it: one message,
//! `authzid NUL user NUL password`, checked against the listener's users (`user_<name>` in its
//! `sasl.jaas.config`); the authorization id must be empty or the user's own name.

use super::SaslError;
use std::collections::BTreeMap;

/// The mechanism's name.
pub const PLAIN: &str = "PLAIN";

/// Checks a client's PLAIN message against `users` (name to password); returns the user.
pub fn authenticate(message: &[u8], users: &BTreeMap<String, String>) -> Result<String, SaslError> {
    if message.len() > super::scram::MAX_MESSAGE_BYTES {
        return Err(SaslError::Malformed("message too long".into()));
    }
    let text =
        std::str::from_utf8(message).map_err(|_| SaslError::Malformed("not UTF-8".into()))?;
    let mut parts = text.split('\0');
    let (Some(authzid), Some(user), Some(password), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(SaslError::Malformed(
            "expected authzid, user name and password separated by NUL".into(),
        ));
    };
    if user.is_empty() {
        return Err(SaslError::Malformed("empty user name".into()));
    }
    if password.is_empty() {
        return Err(SaslError::Malformed("empty password".into()));
    }
    if !authzid.is_empty() && authzid != user {
        return Err(SaslError::Malformed(
            "the authorization id differs from the user name".into(),
        ));
    }
    match users.get(user) {
        Some(expected) if super::scram::same(expected.as_bytes(), password.as_bytes()) => {
            Ok(user.to_string())
        }
        _ => Err(SaslError::InvalidCredentials(PLAIN)),
    }
}

/// The client's PLAIN message for `user` and `password`.
pub fn client_message(user: &str, password: &str) -> Vec<u8> {
    format!("\0{user}\0{password}").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_accepts_listed_users_with_their_password_only() {
        let users: BTreeMap<String, String> =
            [("alice".to_string(), "alice-secret".to_string())].into();
        assert_eq!(
            authenticate(&client_message("alice", "alice-secret"), &users),
            Ok("alice".into())
        );
        assert_eq!(
            authenticate(b"alice\0alice\0alice-secret", &users),
            Ok("alice".into())
        );
        for bad in [
            client_message("alice", "guess"),
            client_message("mallory", "alice-secret"),
        ] {
            assert_eq!(
                authenticate(&bad, &users),
                Err(SaslError::InvalidCredentials(PLAIN))
            );
        }
        for malformed in [
            &b"bob\0alice\0alice-secret"[..],
            b"\0alice",
            b"\0\0pw",
            b"\0alice\0",
            b"\0a\0b\0c",
            b"\xff\0a\0b",
        ] {
            assert!(matches!(
                authenticate(malformed, &users),
                Err(SaslError::Malformed(_))
            ));
        }
    }
}
