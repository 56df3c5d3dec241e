//! Delegation tokens on the controller, checked by a seeded history against a model: random
//! creations, renewals, expiries by owners, renewers and strangers, clock steps and sweeps.
//! The model restates KIP-48's rules as Kafka 4.4's controller applies them; the invariants
//! hold whatever the model says: no token's expiry is ever past its max, an expired token
//! never comes back (its expiry never moves once passed), only its owner or a renewer changes
//! a token, and the image the records fold to is the controller's working image.

use fjord_controller::{Controller, ControllerSettings, Handled};
use fjord_metadata::delegation_tokens::{token_hmac, TokenSettings};
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    create_delegation_token_request as cdt, expire_delegation_token_request as edt,
    renew_delegation_token_request as rdt,
};
use fjord_protocol::{ErrorCode, MetadataRecord, RequestBody, ResponseBody};
use std::collections::BTreeMap;

const SECRET: &str = "secret";
const MAX_LIFETIME: i64 = 10_000;
const RENEW: i64 = 1_000;
const PRINCIPALS: [&str; 3] = ["User:alice", "User:bob", "User:carol"];

/// What the model knows of a token.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Model {
    owner: String,
    renewers: Vec<String>,
    max: i64,
    expiry: i64,
}

impl Model {
    fn may_change(&self, p: &str) -> bool {
        self.owner == p || self.renewers.iter().any(|r| r == p)
    }
    fn expired(&self, now: i64) -> bool {
        now > self.max || now > self.expiry
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len() as u64) as usize]
    }
}

fn controller() -> Controller {
    let settings = ControllerSettings {
        tokens: TokenSettings {
            secret: Some(SECRET.into()),
            max_lifetime_ms: MAX_LIFETIME,
            renew_ms: RENEW,
            check_interval_ms: 1,
        },
        ..ControllerSettings::default()
    };
    Controller::new(settings, "cluster".into(), MetadataImage::empty(), 0)
}

/// Runs one request; the records it writes commit at once and are kept.
fn run(
    c: &mut Controller,
    log: &mut Vec<MetadataRecord>,
    body: RequestBody,
    version: i16,
    who: &str,
    now: i64,
) -> ResponseBody {
    match c.handle_as(&body, version, 0, who, now) {
        Handled::Reply(r) => r,
        Handled::Write { records, response } => {
            log.extend(records);
            response
        }
        other => panic!("{other:?}"),
    }
}

fn history(seed: u64) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut c = controller();
    let mut log: Vec<MetadataRecord> = Vec::new();
    let mut model: BTreeMap<String, Model> = BTreeMap::new();
    // Once a token's expiry has passed, the expiry it had then (it must never change).
    let mut dead: BTreeMap<String, i64> = BTreeMap::new();
    let mut now = 1_000_000i64;
    for step in 0..300 {
        let ctx = format!("seed {seed} step {step}");
        let who = rng.pick(&PRINCIPALS);
        let ids: Vec<String> = model.keys().cloned().collect();
        // A known token's HMAC, or one that names nothing.
        let hmac_of = |rng: &mut Rng| -> (Option<String>, Vec<u8>) {
            if ids.is_empty() || rng.below(8) == 0 {
                (None, b"no such token".to_vec())
            } else {
                let id = ids[rng.below(ids.len() as u64) as usize].clone();
                let h = token_hmac(SECRET, &id);
                (Some(id), h)
            }
        };
        match rng.below(6) {
            0 => now += rng.below(800) as i64,
            1 => {
                let renewers: Vec<&str> = PRINCIPALS
                    .iter()
                    .copied()
                    .filter(|_| rng.below(3) == 0)
                    .collect();
                let asked = match rng.below(3) {
                    0 => -1,
                    1 => 0,
                    _ => 1 + rng.below(20_000) as i64,
                };
                let body = RequestBody::CreateDelegationToken(cdt::CreateDelegationTokenRequest {
                    renewers: renewers
                        .iter()
                        .map(|r| cdt::CreatableRenewers {
                            principal_type: "User".into(),
                            principal_name: r.trim_start_matches("User:").into(),
                            ..Default::default()
                        })
                        .collect(),
                    max_lifetime_ms: asked,
                    ..Default::default()
                });
                let ResponseBody::CreateDelegationToken(r) =
                    run(&mut c, &mut log, body, 3, who, now)
                else {
                    panic!("{ctx}")
                };
                assert_eq!(r.error_code, 0, "{ctx}");
                let lifetime = if asked > 0 {
                    asked.min(MAX_LIFETIME)
                } else {
                    MAX_LIFETIME
                };
                let m = Model {
                    owner: who.into(),
                    renewers: renewers.iter().map(|r| r.to_string()).collect(),
                    max: now + lifetime,
                    expiry: (now + lifetime).min(now + RENEW),
                };
                assert_eq!(
                    (r.max_timestamp_ms, r.expiry_timestamp_ms),
                    (m.max, m.expiry),
                    "{ctx}"
                );
                assert_eq!(r.hmac.to_vec(), token_hmac(SECRET, &r.token_id), "{ctx}");
                assert!(model.insert(r.token_id, m).is_none(), "{ctx}: a fresh id");
            }
            2 => {
                let (id, hmac) = hmac_of(&mut rng);
                let period = match rng.below(3) {
                    0 => -1,
                    1 => 0,
                    _ => 1 + rng.below(3_000) as i64,
                };
                let body = RequestBody::RenewDelegationToken(rdt::RenewDelegationTokenRequest {
                    hmac: hmac.into(),
                    renew_period_ms: period,
                    ..Default::default()
                });
                let ResponseBody::RenewDelegationToken(r) =
                    run(&mut c, &mut log, body, 2, who, now)
                else {
                    panic!("{ctx}")
                };
                let want = match id.as_ref().and_then(|i| model.get_mut(i)) {
                    None => (ErrorCode::DelegationTokenNotFound.code(), 0),
                    Some(m) if m.expired(now) => (ErrorCode::DelegationTokenExpired.code(), 0),
                    Some(m) if !m.may_change(who) => {
                        (ErrorCode::DelegationTokenOwnerMismatch.code(), 0)
                    }
                    Some(m) => {
                        let p = if period > 0 { period.min(RENEW) } else { RENEW };
                        m.expiry = m.max.min(now + p);
                        (0, m.expiry)
                    }
                };
                assert_eq!(
                    (r.error_code, r.expiry_timestamp_ms),
                    want,
                    "{ctx}: renew {id:?} by {who}"
                );
            }
            3 => {
                let (id, hmac) = hmac_of(&mut rng);
                let period = match rng.below(3) {
                    0 => -1 - rng.below(5) as i64,
                    1 => 0,
                    _ => 1 + rng.below(3_000) as i64,
                };
                let body = RequestBody::ExpireDelegationToken(edt::ExpireDelegationTokenRequest {
                    hmac: hmac.into(),
                    expiry_time_period_ms: period,
                    ..Default::default()
                });
                let ResponseBody::ExpireDelegationToken(r) =
                    run(&mut c, &mut log, body, 2, who, now)
                else {
                    panic!("{ctx}")
                };
                let known = id.as_ref().and_then(|i| model.get(i).cloned());
                let want = match known {
                    None => (ErrorCode::DelegationTokenNotFound.code(), 0),
                    Some(m) if !m.may_change(who) => {
                        (ErrorCode::DelegationTokenOwnerMismatch.code(), 0)
                    }
                    Some(_) if period < 0 => {
                        model.remove(id.as_ref().unwrap());
                        (0, now)
                    }
                    Some(m) if m.expired(now) => (ErrorCode::DelegationTokenExpired.code(), 0),
                    Some(m) => {
                        let at = m.max.min(now + period);
                        model.get_mut(id.as_ref().unwrap()).unwrap().expiry = at;
                        (0, at)
                    }
                };
                assert_eq!(
                    (r.error_code, r.expiry_timestamp_ms),
                    want,
                    "{ctx}: expire {id:?} by {who}"
                );
            }
            4 => {
                log.extend(c.sweep_tokens(now));
                model.retain(|_, m| !m.expired(now));
            }
            _ => {
                // A token whose renewer list names someone the caller is not changes nothing.
            }
        }
        // The working image is the model.
        let image = c.image();
        let seen: BTreeMap<String, Model> = image
            .tokens
            .by_id
            .iter()
            .map(|(id, t)| {
                (
                    id.clone(),
                    Model {
                        owner: t.owner.clone(),
                        renewers: t.renewers.clone(),
                        max: t.max_ms,
                        expiry: t.expiry_ms,
                    },
                )
            })
            .collect();
        assert_eq!(seen, model, "{ctx}");
        for (id, t) in &seen {
            assert!(t.expiry <= t.max, "{ctx}: {id} expires after its max");
            if t.expired(now) {
                let was = *dead.entry(id.clone()).or_insert(t.expiry);
                assert_eq!(t.expiry, was, "{ctx}: {id} came back after expiring");
            }
        }
    }
    // The records fold to the same tokens.
    let (folded, _) = MetadataImage::empty()
        .apply(&log, log.len() as i64, 1)
        .expect("the records apply");
    assert_eq!(
        folded.tokens,
        c.image().tokens,
        "seed {seed}: the fold of the records"
    );
}

#[test]
fn token_histories_match_the_model_seeded() {
    let seeds: u64 = std::env::var("TOKEN_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    for seed in 0..seeds {
        history(seed);
    }
}

#[test]
fn without_a_secret_key_tokens_are_disabled() {
    let mut c = Controller::new(
        ControllerSettings::default(),
        "cluster".into(),
        MetadataImage::empty(),
        0,
    );
    let mut log = Vec::new();
    let body = RequestBody::CreateDelegationToken(cdt::CreateDelegationTokenRequest {
        max_lifetime_ms: -1,
        ..Default::default()
    });
    let ResponseBody::CreateDelegationToken(r) = run(&mut c, &mut log, body, 3, "User:alice", 5)
    else {
        panic!()
    };
    assert_eq!(r.error_code, ErrorCode::DelegationTokenAuthDisabled.code());
    assert_eq!(
        (
            r.principal_name.as_str(),
            r.token_requester_principal_name.as_str()
        ),
        ("alice", "alice")
    );
    assert!(log.is_empty());
    // Before v3 the answer does not name the requester (it cannot be encoded).
    let body = RequestBody::CreateDelegationToken(cdt::CreateDelegationTokenRequest::default());
    let ResponseBody::CreateDelegationToken(r) = run(&mut c, &mut log, body, 2, "User:alice", 5)
    else {
        panic!()
    };
    assert_eq!(r.token_requester_principal_name, "");
}

/// A cluster holds at most `MAX_TOKENS` tokens: one more is refused with POLICY_VIOLATION
/// and writes nothing; once one goes, creating works again.
#[test]
fn the_token_count_is_bounded() {
    use fjord_metadata::delegation_tokens::{TokenInfo, MAX_TOKENS};
    let records: Vec<MetadataRecord> = (0..MAX_TOKENS)
        .map(|i| {
            MetadataRecord::DelegationToken(
                TokenInfo {
                    id: format!("t{i}"),
                    owner: "User:alice".into(),
                    requester: "User:alice".into(),
                    renewers: Vec::new(),
                    issue_ms: 0,
                    max_ms: i64::MAX,
                    expiry_ms: i64::MAX,
                }
                .to_record(),
            )
        })
        .collect();
    let (image, _) = MetadataImage::empty().apply(&records, 1, 1).unwrap();
    let settings = ControllerSettings {
        tokens: TokenSettings {
            secret: Some(SECRET.into()),
            ..TokenSettings::default()
        },
        ..ControllerSettings::default()
    };
    let mut c = Controller::new(settings, "cluster".into(), image, 0);
    let mut log = Vec::new();
    let create = || {
        RequestBody::CreateDelegationToken(cdt::CreateDelegationTokenRequest {
            max_lifetime_ms: -1,
            ..Default::default()
        })
    };
    let ResponseBody::CreateDelegationToken(r) = run(&mut c, &mut log, create(), 3, "User:bob", 5)
    else {
        panic!()
    };
    assert_eq!(r.error_code, ErrorCode::PolicyViolation.code());
    assert!(log.is_empty());
    // Expiring one (its HMAC found among the 100,000) makes room.
    let body = RequestBody::ExpireDelegationToken(edt::ExpireDelegationTokenRequest {
        hmac: token_hmac(SECRET, "t77").into(),
        expiry_time_period_ms: -1,
        ..Default::default()
    });
    let ResponseBody::ExpireDelegationToken(r) = run(&mut c, &mut log, body, 2, "User:alice", 5)
    else {
        panic!()
    };
    assert_eq!(r.error_code, 0);
    let ResponseBody::CreateDelegationToken(r) = run(&mut c, &mut log, create(), 3, "User:bob", 5)
    else {
        panic!()
    };
    assert_eq!(r.error_code, 0);
}
