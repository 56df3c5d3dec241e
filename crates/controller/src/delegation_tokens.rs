//! CreateDelegationToken, RenewDelegationToken and ExpireDelegationToken on the active
//! controller, as Kafka 4.4's `DelegationTokenControlManager` decides them: each decision is a
//! `DelegationTokenRecord` (or `RemoveDelegationTokenRecord`) and the answer goes out once it
//! commits. Expired tokens are swept every `delegation.token.expiry.check.interval.ms`. The
//! caller's principal comes with the request (the listener knows it; see
//! [`Controller::handle_as`]); times are wall-clock milliseconds, as tokens carry them to
//! clients. The rules themselves are `fjord_metadata::delegation_tokens`'.

use crate::controller::{Controller, Handled};
use fjord_metadata::delegation_tokens::{self as tokens, Expiry};
use fjord_protocol::generated::{
    create_delegation_token_request::CreateDelegationTokenRequest,
    create_delegation_token_response::CreateDelegationTokenResponse,
    expire_delegation_token_request::ExpireDelegationTokenRequest,
    expire_delegation_token_response::ExpireDelegationTokenResponse,
    remove_delegation_token_record::RemoveDelegationTokenRecord,
    renew_delegation_token_request::RenewDelegationTokenRequest,
    renew_delegation_token_response::RenewDelegationTokenResponse,
};
use fjord_protocol::{ErrorCode, MetadataRecord, RequestBody, ResponseBody};
use sha2::{Digest, Sha256};

/// The first CreateDelegationToken version that names the token's requester.
const REQUESTER_VERSION: i16 = 3;

/// Splits `Type:name` (a name may hold colons).
pub fn split_principal(p: &str) -> (String, String) {
    match p.split_once(':') {
        Some((kind, name)) => (kind.to_string(), name.to_string()),
        None => (String::new(), p.to_string()),
    }
}

impl Controller {
    /// Handles a request on behalf of `principal` (`Type:name`) at wall-clock `wall_ms`: the
    /// delegation-token requests, whose answers depend on who asks; any other request as
    /// [`Controller::handle`] does.
    pub fn handle_as(
        &mut self,
        body: &RequestBody,
        version: i16,
        now_ms: i64,
        principal: &str,
        wall_ms: i64,
    ) -> Handled {
        match body {
            RequestBody::CreateDelegationToken(r) => {
                self.create_token(r, version, principal, wall_ms)
            }
            RequestBody::RenewDelegationToken(r) => self.renew_token(r, principal, wall_ms),
            RequestBody::ExpireDelegationToken(r) => self.expire_token(r, principal, wall_ms),
            other => self.handle(other, version, now_ms),
        }
    }

    /// A new token id: Kafka's random UUID in its base64 form, drawn from the controller's
    /// salt, the log's position and a count, so a simulation stays replayable.
    fn next_token_id(&mut self) -> String {
        self.token_seq += 1;
        let mut h = Sha256::new();
        h.update(self.cluster_id.as_bytes());
        h.update(self.topic_id_salt.to_be_bytes());
        h.update(self.image.provenance.last_offset.to_be_bytes());
        h.update(self.token_seq.to_be_bytes());
        let d = h.finalize();
        let mut b = [0u8; 16];
        b.copy_from_slice(&d[..16]);
        fjord_util::uuid_text::encode(&fjord_protocol::Uuid::from_u128(u128::from_be_bytes(b)))
    }

    fn create_token(
        &mut self,
        r: &CreateDelegationTokenRequest,
        version: i16,
        principal: &str,
        wall_ms: i64,
    ) -> Handled {
        let owner = match r.owner_principal_name.as_deref() {
            Some(name) if !name.is_empty() => format!(
                "{}:{name}",
                r.owner_principal_type.as_deref().unwrap_or_default()
            ),
            _ => principal.to_string(),
        };
        let (owner_type, owner_name) = split_principal(&owner);
        let (requester_type, requester_name) = split_principal(principal);
        let mut answer = CreateDelegationTokenResponse {
            principal_type: owner_type,
            principal_name: owner_name,
            ..Default::default()
        };
        // The requester is named from v3.
        if version >= REQUESTER_VERSION {
            answer.token_requester_principal_type = requester_type;
            answer.token_requester_principal_name = requester_name;
        }
        let Some(secret) = self.settings.tokens.secret.clone() else {
            answer.error_code = ErrorCode::DelegationTokenAuthDisabled.code();
            return Handled::Reply(ResponseBody::CreateDelegationToken(answer));
        };
        let renewers: Vec<(String, String)> = r
            .renewers
            .iter()
            .map(|x| (x.principal_type.clone(), x.principal_name.clone()))
            .collect();
        if self.image.tokens.by_id.len() >= tokens::MAX_TOKENS {
            answer.error_code = ErrorCode::PolicyViolation.code();
            return Handled::Reply(ResponseBody::CreateDelegationToken(answer));
        }
        let id = self.next_token_id();
        match tokens::create(
            &self.settings.tokens,
            id,
            owner,
            principal.to_string(),
            &renewers,
            r.max_lifetime_ms,
            wall_ms,
        ) {
            Err(code) => {
                answer.error_code = code.code();
                Handled::Reply(ResponseBody::CreateDelegationToken(answer))
            }
            Ok(t) => {
                answer.issue_timestamp_ms = t.issue_ms;
                answer.expiry_timestamp_ms = t.expiry_ms;
                answer.max_timestamp_ms = t.max_ms;
                answer.hmac = tokens::token_hmac(&secret, &t.id).into();
                answer.token_id = t.id.clone();
                self.write(
                    vec![MetadataRecord::DelegationToken(t.to_record())],
                    ResponseBody::CreateDelegationToken(answer),
                )
            }
        }
    }

    /// The token an HMAC names, or why there is none to act on. Each token's HMAC is
    /// computed once per controller (`token_hmacs`), so a lookup among many tokens compares
    /// bytes instead of hashing every id again.
    fn token_by_hmac(&mut self, hmac: &[u8]) -> Result<tokens::TokenInfo, ErrorCode> {
        let Some(secret) = self.settings.tokens.secret.clone() else {
            return Err(ErrorCode::DelegationTokenAuthDisabled);
        };
        let live = &self.image.tokens.by_id;
        self.token_hmacs.retain(|id, _| live.contains_key(id));
        for id in live.keys() {
            if !self.token_hmacs.contains_key(id) {
                self.token_hmacs
                    .insert(id.clone(), tokens::token_hmac(&secret, id));
            }
        }
        self.token_hmacs
            .iter()
            .find(|(_, h)| h.as_slice() == hmac)
            .and_then(|(id, _)| live.get(id))
            .cloned()
            .ok_or(ErrorCode::DelegationTokenNotFound)
    }

    fn renew_token(
        &mut self,
        r: &RenewDelegationTokenRequest,
        principal: &str,
        wall_ms: i64,
    ) -> Handled {
        let reply = |code: ErrorCode, expiry: i64| {
            ResponseBody::RenewDelegationToken(RenewDelegationTokenResponse {
                error_code: code.code(),
                expiry_timestamp_ms: expiry,
                ..Default::default()
            })
        };
        let outcome = self.token_by_hmac(&r.hmac).and_then(|t| {
            tokens::renew(
                &self.settings.tokens,
                &t,
                principal,
                r.renew_period_ms,
                wall_ms,
            )
            .map(|expiry| (t, expiry))
        });
        match outcome {
            Err(code) => Handled::Reply(reply(code, 0)),
            Ok((t, expiry)) => {
                let record = tokens::TokenInfo {
                    expiry_ms: expiry,
                    ..t
                }
                .to_record();
                self.write(
                    vec![MetadataRecord::DelegationToken(record)],
                    reply(ErrorCode::None, expiry),
                )
            }
        }
    }

    fn expire_token(
        &mut self,
        r: &ExpireDelegationTokenRequest,
        principal: &str,
        wall_ms: i64,
    ) -> Handled {
        let reply = |code: ErrorCode, expiry: i64| {
            ResponseBody::ExpireDelegationToken(ExpireDelegationTokenResponse {
                error_code: code.code(),
                expiry_timestamp_ms: expiry,
                ..Default::default()
            })
        };
        let outcome = self.token_by_hmac(&r.hmac).and_then(|t| {
            tokens::expire(&t, principal, r.expiry_time_period_ms, wall_ms).map(|e| (t, e))
        });
        match outcome {
            Err(code) => Handled::Reply(reply(code, 0)),
            Ok((t, Expiry::Removed(at))) => self.write(
                vec![MetadataRecord::RemoveDelegationToken(
                    RemoveDelegationTokenRecord {
                        token_id: t.id,
                        ..Default::default()
                    },
                )],
                reply(ErrorCode::None, at),
            ),
            Ok((t, Expiry::At(at))) => {
                let record = tokens::TokenInfo { expiry_ms: at, ..t }.to_record();
                self.write(
                    vec![MetadataRecord::DelegationToken(record)],
                    reply(ErrorCode::None, at),
                )
            }
        }
    }

    /// The records that remove the tokens expired at wall-clock `wall_ms` (at most
    /// [`tokens::MAX_REMOVALS_PER_SWEEP`]), applied to the working image.
    pub fn sweep_tokens(&mut self, wall_ms: i64) -> Vec<MetadataRecord> {
        let records = tokens::sweep(&self.image.tokens, wall_ms);
        for r in &records {
            if let MetadataRecord::RemoveDelegationToken(x) = r {
                tracing::info!(token = %x.token_id, "delegation token expired; removing it");
            }
        }
        match self.apply(&records) {
            Ok(()) => records,
            Err(e) => {
                tracing::error!("token removal records do not apply: {e}");
                Vec::new()
            }
        }
    }
}
