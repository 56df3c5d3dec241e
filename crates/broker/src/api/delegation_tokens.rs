//! Delegation tokens (KIP-48) on a broker, as Kafka 4.4's `KafkaApis` serves them: the checks
//! made before CreateDelegationToken, RenewDelegationToken and ExpireDelegationToken are
//! forwarded to the active controller (which decides them), and DescribeDelegationToken,
//! answered from the metadata image with each token's HMAC recomputed from
//! `delegation.token.secret.key`.

use fjord_configdef::broker;
use fjord_metadata::delegation_tokens::{self as tokens, USER_TYPE};
use fjord_metadata::MetadataImage;
use fjord_net::authorize::Access;
use fjord_net::principal::Caller;
use fjord_protocol::acl::{AclOperation as Op, ResourceType as Kind};
use fjord_protocol::generated::{
    create_delegation_token_response::CreateDelegationTokenResponse,
    describe_delegation_token_request::DescribeDelegationTokenRequest,
    describe_delegation_token_response::{
        DescribeDelegationTokenResponse, DescribedDelegationToken, DescribedDelegationTokenRenewer,
    },
    expire_delegation_token_response::ExpireDelegationTokenResponse,
    renew_delegation_token_response::RenewDelegationTokenResponse,
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};

/// The server property that turns tokens on.
pub const SECRET_KEY: &str = broker::DELEGATION_TOKEN_SECRET_KEY.name;

/// The timestamps of an answer refused before the controller (Kafka's `ERROR_TIMESTAMP`).
pub const ERROR_TIMESTAMP: i64 = -1;
/// The first CreateDelegationToken version that names the token's requester.
pub const REQUESTER_VERSION: i16 = 3;

/// Why a create, renew or expire request is answered here instead of being forwarded, as
/// Kafka's broker checks it: the channel (a token-authenticated principal, PLAINTEXT,
/// anonymous one-way TLS: DELEGATION_TOKEN_REQUEST_NOT_ALLOWED), then for a create on behalf
/// of another owner CREATE_TOKENS on that user (DELEGATION_TOKEN_AUTHORIZATION_FAILED), then
/// renewers that are not users (INVALID_PRINCIPAL_TYPE). `None`: forward it.
pub fn refusal(
    body: &RequestBody,
    version: i16,
    caller: &Caller,
    access: &Access<'_>,
) -> Option<ResponseBody> {
    let allowed = caller.allows_token_requests();
    let requester = &caller.principal;
    match body {
        RequestBody::CreateDelegationToken(r) => {
            let (owner_type, owner_name) = match r.owner_principal_name.as_deref() {
                Some(name) if !name.is_empty() => (
                    r.owner_principal_type.clone().unwrap_or_default(),
                    name.to_string(),
                ),
                _ => (requester.kind.clone(), requester.name.clone()),
            };
            let owner = format!("{owner_type}:{owner_name}");
            let code = if !allowed {
                ErrorCode::DelegationTokenRequestNotAllowed
            } else if owner != requester.to_string()
                && !access.allows(Op::CreateTokens, Kind::User, &owner)
            {
                ErrorCode::DelegationTokenAuthorizationFailed
            } else if r.renewers.iter().any(|x| x.principal_type != USER_TYPE) {
                ErrorCode::InvalidPrincipalType
            } else {
                return None;
            };
            let mut answer = CreateDelegationTokenResponse {
                error_code: code.code(),
                principal_type: owner_type,
                principal_name: owner_name,
                issue_timestamp_ms: ERROR_TIMESTAMP,
                expiry_timestamp_ms: ERROR_TIMESTAMP,
                max_timestamp_ms: ERROR_TIMESTAMP,
                ..Default::default()
            };
            if version >= REQUESTER_VERSION {
                answer.token_requester_principal_type = requester.kind.clone();
                answer.token_requester_principal_name = requester.name.clone();
            }
            Some(ResponseBody::CreateDelegationToken(answer))
        }
        RequestBody::RenewDelegationToken(_) if !allowed => Some(
            ResponseBody::RenewDelegationToken(RenewDelegationTokenResponse {
                error_code: ErrorCode::DelegationTokenRequestNotAllowed.code(),
                expiry_timestamp_ms: ERROR_TIMESTAMP,
                ..Default::default()
            }),
        ),
        RequestBody::ExpireDelegationToken(_) if !allowed => Some(
            ResponseBody::ExpireDelegationToken(ExpireDelegationTokenResponse {
                error_code: ErrorCode::DelegationTokenRequestNotAllowed.code(),
                expiry_timestamp_ms: ERROR_TIMESTAMP,
                ..Default::default()
            }),
        ),
        _ => None,
    }
}

/// DescribeDelegationToken: the channel's check, tokens disabled (no secret key:
/// DELEGATION_TOKEN_AUTH_DISABLED), an empty owner list (nothing), else every token the
/// caller may see ([`tokens::visible`]) among those the owners (all when null) own or renew.
pub fn describe(
    image: &MetadataImage,
    secret: Option<&str>,
    r: &DescribeDelegationTokenRequest,
    caller: &Caller,
    access: &Access<'_>,
) -> DescribeDelegationTokenResponse {
    let refused = |code: ErrorCode| DescribeDelegationTokenResponse {
        error_code: code.code(),
        ..Default::default()
    };
    if !caller.allows_token_requests() {
        return refused(ErrorCode::DelegationTokenRequestNotAllowed);
    }
    let Some(secret) = secret else {
        return refused(ErrorCode::DelegationTokenAuthDisabled);
    };
    if r.owners.as_ref().is_some_and(|o| o.is_empty()) {
        return refused(ErrorCode::None);
    }
    let owners: Option<Vec<String>> = r.owners.as_ref().map(|o| {
        o.iter()
            .map(|x| format!("{}:{}", x.principal_type, x.principal_name))
            .collect()
    });
    let requester = caller.principal.to_string();
    let split = |p: &str| -> (String, String) {
        let (k, n) = p.split_once(':').unwrap_or(("", p));
        (k.to_string(), n.to_string())
    };
    let tokens = image
        .tokens
        .by_id
        .values()
        .filter(|t| {
            tokens::visible(
                t,
                &requester,
                owners.as_deref(),
                |id| access.allows(Op::Describe, Kind::DelegationToken, id),
                |owner| access.allows(Op::DescribeTokens, Kind::User, owner),
            )
        })
        .map(|t| {
            let (principal_type, principal_name) = split(&t.owner);
            let (token_requester_principal_type, token_requester_principal_name) =
                split(&t.requester);
            DescribedDelegationToken {
                principal_type,
                principal_name,
                token_requester_principal_type,
                token_requester_principal_name,
                issue_timestamp: t.issue_ms,
                expiry_timestamp: t.expiry_ms,
                max_timestamp: t.max_ms,
                token_id: t.id.clone(),
                hmac: tokens::token_hmac(secret, &t.id).into(),
                renewers: t
                    .renewers
                    .iter()
                    .map(|r| {
                        let (principal_type, principal_name) = split(r);
                        DescribedDelegationTokenRenewer {
                            principal_type,
                            principal_name,
                            ..Default::default()
                        }
                    })
                    .collect(),
                ..Default::default()
            }
        })
        .collect();
    DescribeDelegationTokenResponse {
        tokens,
        ..Default::default()
    }
}
