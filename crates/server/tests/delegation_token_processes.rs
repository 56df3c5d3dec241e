//! Delegation tokens (KIP-48) on a real node with a SASL_PLAINTEXT listener and
//! `delegation.token.secret.key`: a SCRAM user creates a token, a client authenticates with
//! it (SCRAM, `tokenauth=true`) as the token's owner, may then not ask for tokens itself;
//! renewal only by the owner or a renewer and never past the token's max; describe shows the
//! HMAC; a token expired or swept no longer authenticates; tokens survive a SIGKILL; the
//! PLAINTEXT controller listener refuses token requests as Kafka's controller does.

mod common;

use base64::Engine;
use common::{free_port, random_uuid, wait_for, Node};
use fjord_net::client::Client;
use fjord_net::sasl::scram::Mechanism;
use fjord_net::security::{ClientSecurity, SaslCredentials};
use fjord_protocol::generated::{
    alter_user_scram_credentials_request as scram_rq, create_delegation_token_request as cdt,
    describe_delegation_token_request as ddt, expire_delegation_token_request as edt,
    metadata_request::MetadataRequest, renew_delegation_token_request as rdt,
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(10);
const PLAIN_JAAS: &str = r#"org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="admin-secret" user_admin="admin-secret" user_bob="bob-secret";"#;
const SECRET: &str = "fjord-token-secret";
const DAY_MS: i64 = 86_400_000;
const WEEK_MS: i64 = 7 * DAY_MS;

/// A described token: its id, HMAC and renewers.
type Described = (String, Vec<u8>, Vec<String>);

fn creds(mechanism: &str, user: &str, password: &str, token: bool) -> ClientSecurity {
    ClientSecurity {
        tls: None,
        sasl: Some(SaslCredentials {
            mechanism: mechanism.into(),
            username: user.into(),
            password: password.into(),
            token,
            bearer: None,
            gssapi: None,
        }),
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

struct Cluster {
    rt: tokio::runtime::Runtime,
    addr: String,
}

impl Cluster {
    fn connect(&self, security: &ClientSecurity) -> Option<Client> {
        self.rt
            .block_on(Client::connect_with(
                &self.addr,
                TIMEOUT,
                "token-test",
                security,
            ))
            .ok()
    }

    fn call(&self, c: &Client, body: RequestBody, version: i16) -> ResponseBody {
        self.rt.block_on(c.call(body, version, TIMEOUT)).unwrap()
    }

    /// A connection that answers Metadata (the listener opens once the node is ready).
    fn ready(&self, security: &ClientSecurity) -> Option<Client> {
        let c = self.connect(security)?;
        match self.rt.block_on(c.call(
            RequestBody::Metadata(MetadataRequest::default()),
            12,
            TIMEOUT,
        )) {
            Ok(ResponseBody::Metadata(m)) if !m.brokers.is_empty() => Some(c),
            _ => None,
        }
    }

    fn create(&self, c: &Client, renewers: &[&str]) -> (i16, String, Vec<u8>, i64, i64, i64) {
        let body = RequestBody::CreateDelegationToken(cdt::CreateDelegationTokenRequest {
            renewers: renewers
                .iter()
                .map(|r| cdt::CreatableRenewers {
                    principal_type: "User".into(),
                    principal_name: r.to_string(),
                    ..Default::default()
                })
                .collect(),
            max_lifetime_ms: -1,
            ..Default::default()
        });
        let ResponseBody::CreateDelegationToken(r) = self.call(c, body, 3) else {
            panic!()
        };
        (
            r.error_code,
            r.token_id,
            r.hmac.to_vec(),
            r.issue_timestamp_ms,
            r.expiry_timestamp_ms,
            r.max_timestamp_ms,
        )
    }

    fn renew(&self, c: &Client, hmac: &[u8], period: i64) -> (i16, i64) {
        let body = RequestBody::RenewDelegationToken(rdt::RenewDelegationTokenRequest {
            hmac: hmac.to_vec().into(),
            renew_period_ms: period,
            ..Default::default()
        });
        let ResponseBody::RenewDelegationToken(r) = self.call(c, body, 2) else {
            panic!()
        };
        (r.error_code, r.expiry_timestamp_ms)
    }

    fn expire(&self, c: &Client, hmac: &[u8], period: i64) -> (i16, i64) {
        let body = RequestBody::ExpireDelegationToken(edt::ExpireDelegationTokenRequest {
            hmac: hmac.to_vec().into(),
            expiry_time_period_ms: period,
            ..Default::default()
        });
        let ResponseBody::ExpireDelegationToken(r) = self.call(c, body, 2) else {
            panic!()
        };
        (r.error_code, r.expiry_timestamp_ms)
    }

    /// The ids and HMACs DescribeDelegationToken shows (all owners), or its error.
    fn describe(&self, c: &Client) -> Result<Vec<Described>, i16> {
        let body = RequestBody::DescribeDelegationToken(ddt::DescribeDelegationTokenRequest {
            owners: None,
            ..Default::default()
        });
        let ResponseBody::DescribeDelegationToken(r) = self.call(c, body, 3) else {
            panic!()
        };
        if r.error_code != 0 {
            return Err(r.error_code);
        }
        Ok(r.tokens
            .into_iter()
            .map(|t| {
                (
                    t.token_id,
                    t.hmac.to_vec(),
                    t.renewers
                        .iter()
                        .map(|x| format!("{}:{}", x.principal_type, x.principal_name))
                        .collect(),
                )
            })
            .collect())
    }

    fn token_login(&self, id: &str, hmac: &[u8]) -> Option<Client> {
        let password = base64::engine::general_purpose::STANDARD.encode(hmac);
        self.ready(&creds("SCRAM-SHA-256", id, &password, true))
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// A combined node whose client listener takes PLAIN and SCRAM-SHA-256 and whose tokens
/// are checked for expiry every 500 ms, and a runtime to ask it from.
fn token_node(root: &std::path::Path) -> (Node, Cluster) {
    let ports = (free_port(), free_port());
    let quorum = format!("controller.quorum.bootstrap.servers=127.0.0.1:{}", ports.1);
    let config = format!(
        "listeners=CLIENT://127.0.0.1:{},CONTROLLER://127.0.0.1:{}\n\
         listener.security.protocol.map=CLIENT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT\n\
         inter.broker.listener.name=CLIENT\noffsets.topic.replication.factor=1\n\
         sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256\n\
         sasl.mechanism.inter.broker.protocol=PLAIN\n\
         listener.name.client.plain.sasl.jaas.config={PLAIN_JAAS}\n\
         delegation.token.secret.key={SECRET}\n\
         delegation.token.expiry.check.interval.ms=500\n",
        ports.0, ports.1
    );
    let mut node = Node::combined(root, 1, ports, &quorum, &config);
    node.format(&random_uuid(), &["--standalone"]);
    node.start();
    let c = Cluster {
        rt: runtime(),
        addr: format!("127.0.0.1:{}", ports.0),
    };
    (node, c)
}

#[test]
fn tokens_are_created_used_renewed_expired_and_swept() {
    let root = tempfile::tempdir().unwrap();
    let (mut node, c) = token_node(root.path());
    let admin_creds = creds("PLAIN", "admin", "admin-secret", false);
    let admin = wait_for(Duration::from_secs(60), || c.ready(&admin_creds))
        .unwrap_or_else(|| panic!("no node:\n{}", node.log_tail()));
    // alice is a SCRAM user.
    let body = scram_alice();
    let ResponseBody::AlterUserScramCredentials(r) = c.call(&admin, body, 0) else {
        panic!()
    };
    assert_eq!(r.results[0].error_code, 0);
    let alice_creds = creds("SCRAM-SHA-256", "alice", "alice-secret", false);
    let alice = wait_for(Duration::from_secs(30), || c.ready(&alice_creds)).expect("alice");

    // alice's token, renewable by bob: Kafka's lifetimes (a day to expiry, a week at most).
    let before = now_ms();
    let (code, id, hmac, issue, expiry, max) = c.create(&alice, &["bob"]);
    assert_eq!(code, 0);
    assert!(issue >= before && issue <= now_ms(), "issued now");
    assert_eq!((expiry - issue, max - issue), (DAY_MS, WEEK_MS));
    assert_eq!(hmac.len(), 64, "HMAC-SHA512");
    assert_eq!(id.len(), 22, "a Kafka UUID in base64");
    // A renewer that is not a user is refused.
    let body = RequestBody::CreateDelegationToken(cdt::CreateDelegationTokenRequest {
        renewers: vec![cdt::CreatableRenewers {
            principal_type: "Group".into(),
            principal_name: "g".into(),
            ..Default::default()
        }],
        max_lifetime_ms: -1,
        ..Default::default()
    });
    let ResponseBody::CreateDelegationToken(r) = c.call(&alice, body, 3) else {
        panic!()
    };
    assert_eq!(r.error_code, ErrorCode::InvalidPrincipalType.code());

    // The token logs in as alice, and a token-authenticated client may not ask for tokens.
    let with_token = wait_for(Duration::from_secs(30), || c.token_login(&id, &hmac))
        .unwrap_or_else(|| panic!("the token never authenticated:\n{}", node.log_tail()));
    assert_eq!(
        c.create(&with_token, &[]).0,
        ErrorCode::DelegationTokenRequestNotAllowed.code()
    );
    assert_eq!(
        c.describe(&with_token),
        Err(ErrorCode::DelegationTokenRequestNotAllowed.code())
    );
    let mut wrong = hmac.clone();
    wrong[0] ^= 1;
    assert!(c.token_login(&id, &wrong).is_none(), "a wrong HMAC fails");

    // Describe shows it with its HMAC and renewer.
    let described = c.describe(&alice).unwrap();
    assert_eq!(
        described,
        vec![(id.clone(), hmac.clone(), vec!["User:bob".to_string()])]
    );

    // Renewals: bob (a renewer) yes, capped by the server's period; admin (neither owner
    // nor renewer) no.
    let bob = c
        .ready(&creds("PLAIN", "bob", "bob-secret", false))
        .unwrap();
    let asked = now_ms();
    let (code, renewed) = c.renew(&bob, &hmac, 60_000);
    assert_eq!(code, 0);
    assert!(renewed >= asked + 60_000 && renewed <= now_ms() + 60_000);
    let (code, _) = c.renew(&bob, &hmac, 30 * DAY_MS);
    assert_eq!(code, 0);
    assert_eq!(
        c.renew(&admin, &hmac, 1_000).0,
        ErrorCode::DelegationTokenOwnerMismatch.code()
    );
    assert_eq!(
        c.renew(&alice, b"not a token", 1_000).0,
        ErrorCode::DelegationTokenNotFound.code()
    );

    // The PLAINTEXT controller listener refuses token requests (not forwarded, PLAINTEXT).
    let plain =
        c.rt.block_on(Client::connect(
            &format!("127.0.0.1:{}", node.port),
            TIMEOUT,
        ))
        .unwrap();
    let ResponseBody::RenewDelegationToken(r) = c.call(
        &plain,
        RequestBody::RenewDelegationToken(rdt::RenewDelegationTokenRequest {
            hmac: hmac.clone().into(),
            renew_period_ms: 1_000,
            ..Default::default()
        }),
        2,
    ) else {
        panic!()
    };
    assert_eq!(
        r.error_code,
        ErrorCode::DelegationTokenRequestNotAllowed.code()
    );

    // Tokens survive a SIGKILL (they are in the metadata log).
    node.kill();
    node.start();
    let alice = wait_for(Duration::from_secs(60), || c.ready(&alice_creds))
        .unwrap_or_else(|| panic!("no node after restart:\n{}", node.log_tail()));
    wait_for(Duration::from_secs(30), || c.token_login(&id, &hmac))
        .expect("the token authenticates after a restart");

    // A second token expired now (period 0) stops authenticating, and the sweep removes it.
    let (code, id2, hmac2, ..) = c.create(&alice, &[]);
    assert_eq!(code, 0);
    let (code, at) = c.expire(&alice, &hmac2, 0);
    assert_eq!(code, 0);
    assert!(at <= now_ms());
    let swept = wait_for(Duration::from_secs(30), || {
        let ids: Vec<String> = c.describe(&alice).ok()?.into_iter().map(|t| t.0).collect();
        (!ids.contains(&id2)).then_some(ids)
    })
    .unwrap_or_else(|| panic!("never swept:\n{}", node.log_tail()));
    assert_eq!(swept, vec![id.clone()]);
    assert!(c.token_login(&id2, &hmac2).is_none());

    // Expiring with a negative period removes it at once; it no longer authenticates.
    let (code, _) = c.expire(&alice, &hmac, -1);
    assert_eq!(code, 0);
    let gone = wait_for(Duration::from_secs(30), || {
        c.describe(&alice).ok()?.is_empty().then_some(())
    });
    assert!(gone.is_some());
    assert!(
        c.token_login(&id, &hmac).is_none(),
        "an expired token fails"
    );
    assert_eq!(
        c.expire(&alice, &hmac, -1).0,
        ErrorCode::DelegationTokenNotFound.code()
    );
}

/// AlterUserScramCredentials: alice's SCRAM-SHA-256 credential (password alice-secret).
fn scram_alice() -> RequestBody {
    let m = Mechanism::Sha256;
    let salt = b"a-salt-of-16-bytes".to_vec();
    RequestBody::AlterUserScramCredentials(scram_rq::AlterUserScramCredentialsRequest {
        upsertions: vec![scram_rq::ScramCredentialUpsertion {
            name: "alice".into(),
            mechanism: m.code(),
            iterations: 4096,
            salted_password: m.salted_password(b"alice-secret", &salt, 4096).into(),
            salt: salt.into(),
            ..Default::default()
        }],
        ..Default::default()
    })
}
