//! OAUTHBEARER (KIP-255, KIP-768) against a real OpenID Connect provider (Ory Hydra, built by
//! `tests/oauth/hydra.sh`): a node whose controller listener takes signed tokens registers its
//! broker with a client-credentials login of its own; its strict listener checks the
//! signature against the provider's JWKS, the audience, the issuer and the expiry; a token
//! signed by a key the provider never published is refused, a rotated key is taken up, and
//! tokens already issued keep working while the provider is down. Ignored in a plain `cargo
//! test` (it builds Hydra); `.ci/run` runs it.

mod common;

use common::hydra::Hydra;
use common::{free_port, random_uuid, wait_for, Node};
use fjord_net::client::Client;
use fjord_protocol::generated::sasl_authenticate_request::SaslAuthenticateRequest;
use fjord_protocol::generated::sasl_handshake_request::SaslHandshakeRequest;
use fjord_protocol::{RequestBody, ResponseBody};
use std::time::Duration;

const VALIDATOR: &str =
    "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler";
const LOGIN: &str = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler";
const MODULE: &str = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";

/// How one sign-in went.
#[derive(Debug, PartialEq)]
enum Outcome {
    /// Signed in; the session's lifetime (ms, 0 for none).
    Accepted(i64),
    /// Refused with RFC 7628's error, then failed.
    Refused(String),
    /// Failed at once (code, message).
    Failed(i16, String),
}

/// Signs in on `addr` with `token` (SaslHandshake v1, SaslAuthenticate v2).
async fn sign_in(addr: &str, token: &str) -> Outcome {
    let timeout = Duration::from_secs(10);
    let Ok(c) = Client::connect(addr, timeout).await else {
        return Outcome::Failed(-1, "no connection".into());
    };
    let hs = RequestBody::SaslHandshake(SaslHandshakeRequest {
        mechanism: "OAUTHBEARER".into(),
    });
    let Ok(ResponseBody::SaslHandshake(h)) = c.call(hs, 1, timeout).await else {
        return Outcome::Failed(-1, "no handshake".into());
    };
    assert_eq!(h.error_code, 0, "{h:?}");
    let step = |bytes: Vec<u8>| {
        RequestBody::SaslAuthenticate(SaslAuthenticateRequest {
            auth_bytes: bytes.into(),
            ..Default::default()
        })
    };
    let first = fjord_net::sasl::oauthbearer::initial_response(token);
    let Ok(ResponseBody::SaslAuthenticate(r)) = c.call(step(first), 2, timeout).await else {
        return Outcome::Failed(-1, "no answer".into());
    };
    if r.error_code != 0 {
        return Outcome::Failed(r.error_code, r.error_message.unwrap_or_default());
    }
    if r.auth_bytes.is_empty() {
        return Outcome::Accepted(r.session_lifetime_ms);
    }
    let error = String::from_utf8_lossy(&r.auth_bytes).into_owned();
    let Ok(ResponseBody::SaslAuthenticate(last)) = c.call(step(vec![1]), 2, timeout).await else {
        return Outcome::Failed(-1, "no answer to %x01".into());
    };
    assert_eq!(last.error_code, 58, "{last:?}");
    Outcome::Refused(error)
}

/// A token signed by a key the provider never published (ES256, key id `rogue`), with
/// otherwise valid claims.
fn rogue_token(hydra: &Hydra) -> String {
    let key = rcgen::KeyPair::generate().unwrap();
    let pem = key.serialize_pem();
    let now = fjord_util::system_now_ms() / 1000;
    let claims = serde_json::json!({
        "sub": "mallory", "aud": ["fjord"], "iss": hydra.issuer(), "iat": now, "exp": now + 600
    });
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::ES256);
    header.kid = Some("rogue".into());
    jsonwebtoken::encode(
        &header,
        &claims,
        &jsonwebtoken::EncodingKey::from_ec_pem(pem.as_bytes()).unwrap(),
    )
    .unwrap()
}

/// A combined node: CONTROLLER and CLIENT take signed tokens of any audience, STRICT only
/// audience `fjord` with no clock skew; the node signs in to its controller listener with
/// client credentials.
fn node(root: &std::path::Path, hydra: &Hydra) -> (Node, String, String) {
    let (client, controller, strict) = (free_port(), free_port(), free_port());
    let quorum = format!("controller.quorum.bootstrap.servers=127.0.0.1:{controller}");
    let mut extra = format!(
        "listeners=CLIENT://127.0.0.1:{client},CONTROLLER://127.0.0.1:{controller},STRICT://127.0.0.1:{strict}\n\
         advertised.listeners=CLIENT://127.0.0.1:{client},STRICT://127.0.0.1:{strict}\n\
         listener.security.protocol.map=CLIENT:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT,STRICT:SASL_PLAINTEXT\n\
         inter.broker.listener.name=CLIENT\noffsets.topic.replication.factor=1\n\
         sasl.enabled.mechanisms=OAUTHBEARER\nsasl.mechanism.controller.protocol=OAUTHBEARER\n\
         sasl.mechanism.inter.broker.protocol=OAUTHBEARER\n\
         sasl.oauthbearer.jwks.endpoint.url={}\nsasl.oauthbearer.expected.issuer={}\n\
         sasl.oauthbearer.token.endpoint.url={}\nsasl.login.callback.handler.class={LOGIN}\n\
         listener.name.strict.oauthbearer.sasl.oauthbearer.expected.audience=fjord\n\
         listener.name.strict.oauthbearer.sasl.oauthbearer.clock.skew.seconds=0\n",
        hydra.jwks_url(),
        hydra.issuer(),
        hydra.token_url()
    );
    for l in ["client", "controller", "strict"] {
        extra.push_str(&format!(
            "listener.name.{l}.oauthbearer.sasl.server.callback.handler.class={VALIDATOR}\n\
             listener.name.{l}.oauthbearer.sasl.jaas.config={MODULE} required clientId=\"fjord-node\" clientSecret=\"node-secret\";\n"
        ));
        if l != "strict" {
            extra.push_str(&format!(
                "listener.name.{l}.oauthbearer.sasl.oauthbearer.allow.unverified.audience=true\n"
            ));
        }
    }
    let mut node = Node::combined(root, 1, (client, controller), &quorum, &extra);
    node.format(&random_uuid(), &["--standalone"]);
    node.start();
    (
        node,
        format!("127.0.0.1:{client}"),
        format!("127.0.0.1:{strict}"),
    )
}

#[test]
#[ignore = "builds Ory Hydra from the Go module proxy (tests/oauth/hydra.sh); .ci/run runs it"]
fn signed_tokens_from_a_real_provider() {
    let root = tempfile::tempdir().unwrap();
    let mut hydra = Hydra::start(root.path());
    hydra.client("fjord-node", "node-secret", &[]);
    hydra.client("app", "app-secret", &["fjord", "other"]);
    hydra.client("brief", "brief-secret", &["fjord"]);
    hydra.lifespan("brief", 3);
    // The provider makes its signing key when it first signs: before the node reads its keys.
    let app = hydra.token("app", "app-secret", Some("fjord"));
    let (node, client, strict) = node(root.path(), &hydra);
    let rt = tokio::runtime::Runtime::new().unwrap();

    // The broker registered over the controller listener with the node's own
    // client-credentials token: its client listener serves signed tokens.
    let served = wait_for(Duration::from_secs(60), || {
        matches!(rt.block_on(sign_in(&client, &app)), Outcome::Accepted(_)).then_some(())
    });
    assert!(served.is_some(), "{}", node.log_tail());

    // The strict listener: the audience is checked; a token's session ends with it. Each
    // listener fetches its own keys at start (until then: "No keys from the JWKS endpoint
    // yet"), so this one may still be fetching (CI under load found it so).
    let mut last = None;
    let lifetime = wait_for(Duration::from_secs(60), || {
        let outcome = rt.block_on(sign_in(&strict, &app));
        let ms = match &outcome {
            Outcome::Accepted(ms) => Some(*ms),
            _ => None,
        };
        last = Some(outcome);
        ms
    })
    .unwrap_or_else(|| panic!("a token for audience fjord: {last:?}\n{}", node.log_tail()));
    assert!((3_000_000..=3_600_000).contains(&lifetime), "{lifetime}");
    let other = hydra.token("app", "app-secret", Some("other"));
    let refused = "{\"status\":\"invalid_token\"}".to_string();
    assert_eq!(
        rt.block_on(sign_in(&strict, &other)),
        Outcome::Refused(refused.clone())
    );
    let none = hydra.token("app", "app-secret", None);
    assert_eq!(
        rt.block_on(sign_in(&strict, &none)),
        Outcome::Refused(refused.clone())
    );
    assert!(matches!(
        rt.block_on(sign_in(&client, &other)),
        Outcome::Accepted(_)
    ));

    // A key the provider never published.
    assert_eq!(
        rt.block_on(sign_in(&client, &rogue_token(&hydra))),
        Outcome::Refused(refused.clone())
    );

    // An expiring token: its session lasts no longer than it, and once it has expired
    // (no skew on the strict listener) it is refused.
    let brief = hydra.token("brief", "brief-secret", Some("fjord"));
    match rt.block_on(sign_in(&strict, &brief)) {
        Outcome::Accepted(ms) => assert!(ms <= 3_000, "{ms}"),
        other => panic!("{other:?}"),
    }
    let expired = wait_for(Duration::from_secs(30), || {
        (rt.block_on(sign_in(&strict, &brief)) == Outcome::Refused(refused.clone())).then_some(())
    });
    assert!(expired.is_some(), "an expired token kept signing in");

    // A rotated key: tokens signed with it are taken up (the first one asks for a refresh).
    hydra.rotate();
    let rotated = hydra.token("app", "app-secret", Some("fjord"));
    let taken = wait_for(Duration::from_secs(30), || {
        matches!(
            rt.block_on(sign_in(&strict, &rotated)),
            Outcome::Accepted(_)
        )
        .then_some(())
    });
    assert!(
        taken.is_some(),
        "a rotated key was never taken up:\n{}",
        node.log_tail()
    );

    // The provider down: tokens it issued still sign in.
    hydra.kill();
    assert!(matches!(
        rt.block_on(sign_in(&strict, &rotated)),
        Outcome::Accepted(_)
    ));
    assert!(matches!(
        rt.block_on(sign_in(&client, &app)),
        Outcome::Accepted(_)
    ));
    // A malformed message fails at once, with Kafka's words; a huge token is an invalid one.
    match rt.block_on(sign_in(&client, "not a token")) {
        Outcome::Failed(58, m) => assert!(m.contains("SASL mechanism OAUTHBEARER"), "{m}"),
        other => panic!("{other:?}"),
    }
    let huge = "a".repeat(fjord_net::sasl::oauthbearer::MAX_TOKEN_BYTES + 1);
    assert_eq!(
        rt.block_on(sign_in(&client, &huge)),
        Outcome::Refused(refused)
    );
}

/// One SaslAuthenticate answer as compared with Kafka's: the error code and message, the
/// bytes (as text), and the session lifetime in whole minutes.
#[derive(Debug, PartialEq, Eq)]
struct Answer(i16, Option<String>, String, i64);

/// SaslHandshake OAUTHBEARER on a new connection to `addr`, then each message in turn, until
/// an answer carries an error or the connection closes (`None` then).
async fn exchange(addr: &str, messages: &[Vec<u8>]) -> Vec<Option<Answer>> {
    let timeout = Duration::from_secs(10);
    let c = Client::connect(addr, timeout).await.expect("connects");
    let hs = RequestBody::SaslHandshake(SaslHandshakeRequest {
        mechanism: "OAUTHBEARER".into(),
    });
    assert!(
        matches!(c.call(hs, 1, timeout).await, Ok(ResponseBody::SaslHandshake(h)) if h.error_code == 0)
    );
    let mut answers = Vec::new();
    for m in messages {
        let body = RequestBody::SaslAuthenticate(SaslAuthenticateRequest {
            auth_bytes: m.clone().into(),
            ..Default::default()
        });
        match c.call(body, 2, timeout).await {
            Ok(ResponseBody::SaslAuthenticate(r)) => {
                let failed = r.error_code != 0;
                answers.push(Some(Answer(
                    r.error_code,
                    r.error_message,
                    String::from_utf8_lossy(&r.auth_bytes).into_owned(),
                    (r.session_lifetime_ms + 30_000) / 60_000,
                )));
                if failed {
                    break;
                }
            }
            _ => {
                answers.push(None);
                break;
            }
        }
    }
    answers
}

/// The OAUTHBEARER exchanges both servers must answer alike, with unsecured tokens (Kafka's
/// default validator): a good token, an expired one, one without `exp`, a huge one, an
/// authorization id that is not the token's, malformed messages, and a good token after a
/// refusal.
fn oauth_exchanges(addr: &str) -> Vec<Vec<Option<Answer>>> {
    use fjord_net::sasl::oauthbearer::{initial_response, unsecured_token};
    let now = fjord_util::system_now_ms();
    let good = unsecured_token("alice", now, 3600);
    let expired = unsecured_token("alice", now - 7_200_000, 3600);
    let b64 = |v: serde_json::Value| {
        use base64::Engine;
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string())
    };
    let no_exp = format!(
        "{}.{}.",
        b64(serde_json::json!({"alg": "none"})),
        b64(serde_json::json!({"sub": "alice", "iat": now / 1000}))
    );
    let huge = "a".repeat(70_000);
    let cases: Vec<Vec<Vec<u8>>> = vec![
        vec![initial_response(&good)],
        vec![initial_response(&expired), vec![1]],
        vec![initial_response(&no_exp), vec![1]],
        vec![initial_response(&huge), vec![1]],
        vec![format!("n,a=bob,\u{1}auth=Bearer {good}\u{1}\u{1}").into_bytes()],
        vec![b"not a message".to_vec()],
        vec![format!("n,,\u{1}auth=Basic {good}\u{1}\u{1}").into_bytes()],
        vec![b"n,,\x01auth=Bearer a!b\x01\x01".to_vec()],
        vec![initial_response(&expired), initial_response(&good)],
    ];
    let rt = tokio::runtime::Runtime::new().unwrap();
    cases
        .iter()
        .map(|c| rt.block_on(exchange(addr, c)))
        .collect()
}

/// The exchange of [`oauth_exchanges`] with a scheme that is not Bearer.
const BASIC_SCHEME: usize = 6;

/// Settings both servers get: the PLAINTEXT listener takes unsecured tokens (Kafka's default
/// validator), and the nodes sign in to each other with one.
const UNSECURED: &str = "listener.security.protocol.map=PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT\n\
    sasl.enabled.mechanisms=OAUTHBEARER\nsasl.mechanism.inter.broker.protocol=OAUTHBEARER\n\
    listener.name.plaintext.oauthbearer.sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub=\"admin\";\n\
    offsets.topic.replication.factor=1\n";

#[test]
#[ignore = "runs Kafka 4.4 (tests/kafka/kafka.sh); .ci/run runs it"]
fn oauthbearer_answers_as_kafka_answers() {
    let root = tempfile::tempdir().unwrap();
    let (client, controller) = (free_port(), free_port());
    let voters = format!("controller.quorum.voters=1@127.0.0.1:{controller}");
    let mut node = Node::combined(root.path(), 1, (client, controller), &voters, UNSECURED);
    node.format(&random_uuid(), &[]);
    node.start();
    let addr = node.broker_addr();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let ready = wait_for(Duration::from_secs(60), || {
        let good =
            fjord_net::sasl::oauthbearer::unsecured_token("a", fjord_util::system_now_ms(), 60);
        matches!(rt.block_on(sign_in(&addr, &good)), Outcome::Accepted(_)).then_some(())
    });
    assert!(ready.is_some(), "{}", node.log_tail());
    let on_fjord = oauth_exchanges(&addr);
    let kafka = common::kafka::KafkaCluster::start(1, 24900, UNSECURED);
    let on_kafka = oauth_exchanges(&kafka.bootstrap);
    assert_eq!(on_fjord.len(), on_kafka.len());
    for (i, (f, k)) in on_fjord.iter().zip(&on_kafka).enumerate() {
        if i == BASIC_SCHEME {
            // On purpose (docs/EXTENSIONS.md): Kafka 4.4's parser fails with an exception of
            // its own on a scheme that is not Bearer and drops the connection unanswered;
            // fjord answers with the failure.
            assert_eq!(*k, vec![None], "Kafka 4.4 no longer drops it");
            assert!(matches!(f[..], [Some(Answer(58, _, _, 0))]), "{f:?}");
            continue;
        }
        assert_eq!(f, k, "exchange {i}: fjord, then Kafka 4.4");
    }
}
