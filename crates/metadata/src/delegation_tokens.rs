//! Delegation tokens (KIP-48) in the image, and Kafka 4.4's rules for them. A token is what
//! `DelegationTokenRecord` last wrote for its id (creation and every renewal or expiry change
//! rewrite it) until `RemoveDelegationTokenRecord` removes it. The rules are pure functions of
//! a token, the caller and the time, shared by the controller (which decides) and the tests
//! (which check the decisions against a model): [`create`], [`renew`], [`expire`], [`sweep`].
//! A token's HMAC is HMAC-SHA512 of its id under `delegation.token.secret.key`; a client
//! authenticates with SCRAM as the token id with the HMAC in base64 as its password.

use crate::image::Map;
use fjord_protocol::generated::{
    delegation_token_record::DelegationTokenRecord,
    remove_delegation_token_record::RemoveDelegationTokenRecord,
};
use fjord_protocol::{ErrorCode, MetadataRecord};
use hmac::{Hmac, Mac};
use sha2::Sha512;

/// The most expired tokens one sweep removes (Kafka's `MAX_RECORDS_PER_EXPIRATION`).
pub const MAX_REMOVALS_PER_SWEEP: usize = 1000;
/// The most tokens a cluster holds (fjord's bound; Kafka has none): a create beyond it is
/// refused with POLICY_VIOLATION until tokens expire or are expired.
pub const MAX_TOKENS: usize = 100_000;
/// The only principal type a token's owner may name renewers of.
pub const USER_TYPE: &str = "User";

/// One token as the image keeps it. Principals are `Type:name` text, as Kafka's records
/// write them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TokenInfo {
    /// The token's id.
    pub id: String,
    /// Whose token it is (it authenticates as this principal).
    pub owner: String,
    /// Who asked for it (the owner, or someone allowed CREATE_TOKENS on the owner).
    pub requester: String,
    /// Who else may renew or expire it.
    pub renewers: Vec<String>,
    /// When it was created (ms since the epoch).
    pub issue_ms: i64,
    /// The latest it can be renewed to.
    pub max_ms: i64,
    /// When it stops authenticating unless renewed first.
    pub expiry_ms: i64,
}

impl TokenInfo {
    /// True when `principal` owns it, asked for it or may renew it (Kafka's
    /// `ownerOrRenewer`, which describing a token allows).
    pub fn owner_or_renewer(&self, principal: &str) -> bool {
        self.owner == principal
            || self.requester == principal
            || self.renewers.iter().any(|r| r == principal)
    }

    /// True when `principal` may renew or expire it: its owner or one of its renewers
    /// (Kafka's `allowedToRenew`).
    pub fn renewable_by(&self, principal: &str) -> bool {
        self.owner == principal || self.renewers.iter().any(|r| r == principal)
    }

    /// True when it no longer authenticates at `now_ms`.
    pub fn expired(&self, now_ms: i64) -> bool {
        self.max_ms < now_ms || self.expiry_ms < now_ms
    }

    /// The record that writes it.
    pub fn to_record(&self) -> DelegationTokenRecord {
        DelegationTokenRecord {
            owner: self.owner.clone(),
            requester: self.requester.clone(),
            renewers: self.renewers.clone(),
            issue_timestamp: self.issue_ms,
            max_timestamp: self.max_ms,
            expiration_timestamp: self.expiry_ms,
            token_id: self.id.clone(),
            ..Default::default()
        }
    }

    /// The token a record writes.
    pub fn from_record(r: &DelegationTokenRecord) -> TokenInfo {
        TokenInfo {
            id: r.token_id.clone(),
            owner: r.owner.clone(),
            requester: r.requester.clone(),
            renewers: r.renewers.clone(),
            issue_ms: r.issue_timestamp,
            max_ms: r.max_timestamp,
            expiry_ms: r.expiration_timestamp,
        }
    }
}

/// Every token, by id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TokensImage {
    /// Tokens by id.
    pub by_id: Map<String, TokenInfo>,
}

impl TokensImage {
    /// The token whose HMAC under `secret` is `hmac`, if any.
    pub fn by_hmac(&self, secret: &str, hmac: &[u8]) -> Option<&TokenInfo> {
        self.by_id
            .values()
            .find(|t| crate::delegation_tokens::same(&token_hmac(secret, &t.id), hmac))
    }
}

/// Constant-time equality of two HMACs.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A token's HMAC: HMAC-SHA512 of its id under the cluster's secret key (Kafka's
/// `createHmac`).
pub fn token_hmac(secret: &str, token_id: &str) -> Vec<u8> {
    let mut m = Hmac::<Sha512>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key");
    m.update(token_id.as_bytes());
    m.finalize().into_bytes().to_vec()
}

/// The server's token settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenSettings {
    /// `delegation.token.secret.key` (`None`: tokens are disabled).
    pub secret: Option<String>,
    /// `delegation.token.max.lifetime.ms` (Kafka: 7 days).
    pub max_lifetime_ms: i64,
    /// `delegation.token.expiry.time.ms`: a renewal's default and longest period (Kafka: 1 day).
    pub renew_ms: i64,
    /// `delegation.token.expiry.check.interval.ms` (Kafka: 1 hour).
    pub check_interval_ms: i64,
}

impl Default for TokenSettings {
    fn default() -> Self {
        TokenSettings {
            secret: None,
            max_lifetime_ms: 7 * 24 * 3_600_000,
            renew_ms: 24 * 3_600_000,
            check_interval_ms: 3_600_000,
        }
    }
}

/// `a + b`, at most `i64::MAX` (Kafka's `sum`).
fn sum(a: i64, b: i64) -> i64 {
    a.saturating_add(b)
}

/// A new token `id` for `owner`, asked for by `requester` at `now_ms`, renewable by `renewers`
/// ((type, name) pairs), living at most `max_lifetime_ms` (≤ 0: the server's). Kafka's
/// checks: every renewer a `User` (INVALID_PRINCIPAL_TYPE).
pub fn create(
    s: &TokenSettings,
    id: String,
    owner: String,
    requester: String,
    renewers: &[(String, String)],
    max_lifetime_ms: i64,
    now_ms: i64,
) -> Result<TokenInfo, ErrorCode> {
    if renewers.iter().any(|(kind, _)| kind != USER_TYPE) {
        return Err(ErrorCode::InvalidPrincipalType);
    }
    let lifetime = if max_lifetime_ms > 0 {
        s.max_lifetime_ms.min(max_lifetime_ms)
    } else {
        s.max_lifetime_ms
    };
    let max_ms = sum(now_ms, lifetime);
    Ok(TokenInfo {
        id,
        owner,
        requester,
        renewers: renewers
            .iter()
            .map(|(kind, name)| format!("{kind}:{name}"))
            .collect(),
        issue_ms: now_ms,
        max_ms,
        expiry_ms: max_ms.min(sum(now_ms, s.renew_ms)),
    })
}

/// A renewal of `token` by `principal` at `now_ms` for `period_ms` (≤ 0: the server's
/// default): its new expiry, never past its max. Kafka's order: expired
/// (DELEGATION_TOKEN_EXPIRED), then not the owner or a renewer
/// (DELEGATION_TOKEN_OWNER_MISMATCH).
pub fn renew(
    s: &TokenSettings,
    token: &TokenInfo,
    principal: &str,
    period_ms: i64,
    now_ms: i64,
) -> Result<i64, ErrorCode> {
    if token.expired(now_ms) {
        return Err(ErrorCode::DelegationTokenExpired);
    }
    if !token.renewable_by(principal) {
        return Err(ErrorCode::DelegationTokenOwnerMismatch);
    }
    let period = if period_ms > 0 {
        s.renew_ms.min(period_ms)
    } else {
        s.renew_ms
    };
    Ok(token.max_ms.min(sum(now_ms, period)))
}

/// What an expiry request does to a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expiry {
    /// Removed at once (a negative period); the answer's expiry is now.
    Removed(i64),
    /// Its expiry moves to this time.
    At(i64),
}

/// An expiry of `token` by `principal` at `now_ms`, `period_ms` from now (negative: at
/// once). Kafka's order: not the owner or a renewer (DELEGATION_TOKEN_OWNER_MISMATCH), a
/// negative period removes it, else expired (DELEGATION_TOKEN_EXPIRED), else the new expiry,
/// never past its max.
pub fn expire(
    token: &TokenInfo,
    principal: &str,
    period_ms: i64,
    now_ms: i64,
) -> Result<Expiry, ErrorCode> {
    if !token.renewable_by(principal) {
        return Err(ErrorCode::DelegationTokenOwnerMismatch);
    }
    if period_ms < 0 {
        return Ok(Expiry::Removed(now_ms));
    }
    if token.expired(now_ms) {
        return Err(ErrorCode::DelegationTokenExpired);
    }
    Ok(Expiry::At(token.max_ms.min(sum(now_ms, period_ms))))
}

/// The tokens expired at `now_ms`, at most [`MAX_REMOVALS_PER_SWEEP`], as the records that
/// remove them (Kafka's `sweepExpiredDelegationTokens`).
pub fn sweep(tokens: &TokensImage, now_ms: i64) -> Vec<MetadataRecord> {
    tokens
        .by_id
        .values()
        .filter(|t| t.expired(now_ms))
        .take(MAX_REMOVALS_PER_SWEEP)
        .map(|t| {
            MetadataRecord::RemoveDelegationToken(RemoveDelegationTokenRecord {
                token_id: t.id.clone(),
                ..Default::default()
            })
        })
        .collect()
}

/// Whether DescribeDelegationToken shows `token` to `requester`: when `owners` is given, only
/// a token one of them owns or may renew; then the requester's own (owner, requester or
/// renewer), or one `may_describe_token` (DESCRIBE on the token) or `may_describe_owner`
/// (DESCRIBE_TOKENS on its owner) allows. Kafka's `filterToken`.
pub fn visible(
    token: &TokenInfo,
    requester: &str,
    owners: Option<&[String]>,
    may_describe_token: impl Fn(&str) -> bool,
    may_describe_owner: impl Fn(&str) -> bool,
) -> bool {
    if let Some(owners) = owners {
        if !owners.iter().any(|o| token.owner_or_renewer(o)) {
            return false;
        }
    }
    token.owner_or_renewer(requester)
        || may_describe_token(&token.id)
        || may_describe_owner(&token.owner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> TokenSettings {
        TokenSettings {
            secret: Some("s3cret".into()),
            max_lifetime_ms: 1_000,
            renew_ms: 100,
            check_interval_ms: 10,
        }
    }

    fn token() -> TokenInfo {
        create(
            &settings(),
            "t".into(),
            "User:alice".into(),
            "User:alice".into(),
            &[("User".into(), "bob".into())],
            -1,
            0,
        )
        .unwrap()
    }

    #[test]
    fn lifetimes_as_kafka_computes_them() {
        let t = token();
        assert_eq!((t.issue_ms, t.max_ms, t.expiry_ms), (0, 1_000, 100));
        assert_eq!(t.renewers, vec!["User:bob".to_string()]);
        // A shorter max lifetime asked for wins; a longer one does not.
        let short = create(
            &settings(),
            "u".into(),
            "User:a".into(),
            "User:a".into(),
            &[],
            50,
            0,
        )
        .unwrap();
        assert_eq!((short.max_ms, short.expiry_ms), (50, 50));
        let long = create(
            &settings(),
            "v".into(),
            "User:a".into(),
            "User:a".into(),
            &[],
            5_000,
            0,
        )
        .unwrap();
        assert_eq!(long.max_ms, 1_000);
        assert_eq!(
            create(
                &settings(),
                "w".into(),
                "User:a".into(),
                "User:a".into(),
                &[("Group".into(), "g".into())],
                -1,
                0
            ),
            Err(ErrorCode::InvalidPrincipalType)
        );
        // Renewals never pass the max; the period asked for is capped by the server's.
        assert_eq!(renew(&settings(), &t, "User:bob", -1, 50), Ok(150));
        let late = TokenInfo {
            expiry_ms: 960,
            ..t.clone()
        };
        assert_eq!(
            renew(&settings(), &late, "User:alice", 10_000, 950),
            Ok(1_000)
        );
        assert_eq!(
            renew(&settings(), &t, "User:carol", -1, 50),
            Err(ErrorCode::DelegationTokenOwnerMismatch)
        );
        assert_eq!(
            renew(&settings(), &t, "User:carol", -1, 101),
            Err(ErrorCode::DelegationTokenExpired),
            "expired is checked before ownership, as Kafka does"
        );
        // Expiry: ownership first, a negative period removes even an expired token.
        assert_eq!(
            expire(&t, "User:carol", -1, 500),
            Err(ErrorCode::DelegationTokenOwnerMismatch)
        );
        assert_eq!(expire(&t, "User:bob", -1, 500), Ok(Expiry::Removed(500)));
        assert_eq!(expire(&t, "User:bob", 0, 50), Ok(Expiry::At(50)));
        assert_eq!(
            expire(&t, "User:bob", 10, 500),
            Err(ErrorCode::DelegationTokenExpired)
        );
    }

    #[test]
    fn the_hmac_is_hmac_sha512_of_the_id() {
        // The first bytes of HMAC-SHA512("key", "The quick brown fox jumps over the lazy dog").
        let h = token_hmac("key", "The quick brown fox jumps over the lazy dog");
        assert_eq!(&h[..4], &[0xb4, 0x2a, 0xf0, 0x90]);
        let mut img = TokensImage::default();
        img.by_id.insert("t".into(), token());
        assert_eq!(
            img.by_hmac("s3cret", &token_hmac("s3cret", "t"))
                .map(|t| t.id.as_str()),
            Some("t")
        );
        assert!(img.by_hmac("other", &token_hmac("s3cret", "t")).is_none());
    }

    #[test]
    fn describe_shows_a_token_to_whom_kafka_shows_it() {
        let t = token();
        let no = |_: &str| false;
        assert!(visible(&t, "User:alice", None, no, no));
        assert!(visible(&t, "User:bob", None, no, no), "a renewer");
        assert!(!visible(&t, "User:carol", None, no, no));
        assert!(visible(&t, "User:carol", None, |id| id == "t", no));
        assert!(visible(&t, "User:carol", None, no, |o| o == "User:alice"));
        let only_dave = ["User:dave".to_string()];
        assert!(!visible(&t, "User:alice", Some(&only_dave), no, no));
    }
}
