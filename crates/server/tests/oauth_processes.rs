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

    // The strict listener: the audience is checked; a token's session ends with it.
    let lifetime = match rt.block_on(sign_in(&strict, &app)) {
        Outcome::Accepted(ms) => ms,
        other => panic!("a token for audience fjord: {other:?}\n{}", node.log_tail()),
    };
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
    // Malformed and oversized messages fail at once, with Kafka's words.
    let huge = "a".repeat(fjord_net::sasl::oauthbearer::MAX_TOKEN_BYTES + 1);
    for token in ["not a token", huge.as_str()] {
        match rt.block_on(sign_in(&client, token)) {
            Outcome::Failed(58, m) => assert!(m.contains("SASL mechanism OAUTHBEARER"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}
