"""librdkafka (confluent-kafka from PyPI) and franz-go over OAUTHBEARER against a real node
and a real OpenID Connect provider: Ory Hydra (tests/oauth/hydra.sh builds it) issues the
client-credentials tokens librdkafka fetches itself (sasl.oauthbearer.method=oidc), the node
checks them against Hydra's JWKS; a second listener takes librdkafka's unsecured tokens; a
third checks the audience, which franz-go (tests/clients/go/oauth) asks Hydra for.

Run by .ci/run after `cargo test`:
    python3 tests/python/oauth_test.py target/debug/fjord
Prints a one-line total.
"""

import base64
import json
import os
import subprocess
import sys
import tempfile
import urllib.request

from admin_test import ck_round_trip, free_port, run_checks, start_node, wait_for
from confluent_kafka import Producer

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
VALIDATOR = "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler"
MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"


def http(method, url, body=None, headers=None):
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.status, r.read().decode()


def start_hydra(tmp):
    binary = subprocess.check_output([os.path.join(ROOT, "tests/oauth/hydra.sh"), "fetch"]).decode().strip()
    public, admin = free_port(), free_port()
    env = dict(os.environ, DSN="memory", SECRETS_SYSTEM="fjord-oauth-tests-system-secret",
               URLS_SELF_ISSUER=f"http://127.0.0.1:{public}", STRATEGIES_ACCESS_TOKEN="jwt",
               SERVE_PUBLIC_HOST="127.0.0.1", SERVE_PUBLIC_PORT=str(public),
               SERVE_ADMIN_HOST="127.0.0.1", SERVE_ADMIN_PORT=str(admin), LOG_LEVEL="warn")
    log = open(os.path.join(tmp, "hydra.log"), "w")
    proc = subprocess.Popen([binary, "serve", "all", "--dev", "--sqa-opt-out"], env=env,
                            stdout=subprocess.DEVNULL, stderr=log)
    wait_for("hydra", lambda: http("GET", f"http://127.0.0.1:{admin}/health/ready")[0] == 200, timeout=60)
    for client_id, audience in (("rdkafka", []), ("franz", ["fjord", "other"])):
        client = json.dumps({"client_id": client_id, "client_secret": f"{client_id}-secret",
                             "grant_types": ["client_credentials"], "audience": audience,
                             "token_endpoint_auth_method": "client_secret_basic"}).encode()
        http("POST", f"http://127.0.0.1:{admin}/admin/clients", client, {"Content-Type": "application/json"})
    # The provider makes its signing key when it first signs: before the node reads its keys.
    basic = base64.b64encode(b"rdkafka:rdkafka-secret").decode()
    http("POST", f"http://127.0.0.1:{public}/oauth2/token", b"grant_type=client_credentials",
         {"Authorization": f"Basic {basic}", "Content-Type": "application/x-www-form-urlencoded"})
    return proc, f"http://127.0.0.1:{public}"


def main(binary):
    tmp = tempfile.mkdtemp(prefix="fjord-oauth-")
    hydra, issuer = start_hydra(tmp)
    signed, unsecured, strict = free_port(), free_port(), free_port()
    extra = (
        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,"
        "SIGNED:SASL_PLAINTEXT,UNSECURED:SASL_PLAINTEXT,STRICT:SASL_PLAINTEXT\n"
        "sasl.enabled.mechanisms=OAUTHBEARER\n"
        f"listener.name.signed.oauthbearer.sasl.server.callback.handler.class={VALIDATOR}\n"
        f"listener.name.signed.oauthbearer.sasl.jaas.config={MODULE} required;\n"
        f"listener.name.unsecured.oauthbearer.sasl.jaas.config={MODULE} required;\n"
        f"listener.name.strict.oauthbearer.sasl.server.callback.handler.class={VALIDATOR}\n"
        f"listener.name.strict.oauthbearer.sasl.jaas.config={MODULE} required;\n"
        "listener.name.strict.oauthbearer.sasl.oauthbearer.expected.audience=fjord\n"
        "listener.name.strict.oauthbearer.sasl.oauthbearer.allow.unverified.audience=false\n"
        f"sasl.oauthbearer.jwks.endpoint.url={issuer}/.well-known/jwks.json\n"
        f"sasl.oauthbearer.expected.issuer={issuer}\n"
        # librdkafka cannot ask for an audience: Hydra's tokens then name none.
        "sasl.oauthbearer.allow.unverified.audience=true\n"
        "offsets.topic.replication.factor=1\noffsets.topic.num.partitions=3\n"
        "group.initial.rebalance.delay.ms=0\n"
    )
    listeners = (f",SIGNED://127.0.0.1:{signed},UNSECURED://127.0.0.1:{unsecured}"
                 f",STRICT://127.0.0.1:{strict}")
    node, _, _ = start_node(binary, "fjord-oauth-", extra, listeners, (), tmp)

    def oidc(secret="rdkafka-secret"):
        return {"bootstrap.servers": f"127.0.0.1:{signed}", "security.protocol": "SASL_PLAINTEXT",
                "sasl.mechanism": "OAUTHBEARER", "sasl.oauthbearer.method": "oidc",
                "sasl.oauthbearer.client.id": "rdkafka", "sasl.oauthbearer.client.secret": secret,
                "sasl.oauthbearer.token.endpoint.url": f"{issuer}/oauth2/token"}

    def librdkafka_fetches_its_token_from_the_provider():
        ck_round_trip(dict(oidc(), **{"allow.auto.create.topics": True}), "oidc", "signed-in", "g-oidc")

    def librdkafka_unsecured_tokens():
        config = {"bootstrap.servers": f"127.0.0.1:{unsecured}", "security.protocol": "SASL_PLAINTEXT",
                  "sasl.mechanism": "OAUTHBEARER", "sasl.oauthbearer.config": "principal=alice",
                  "enable.sasl.oauthbearer.unsecure.jwt": True}
        ck_round_trip(config, "unsecured", "alice-was-here", "g-unsecured")

    def a_wrong_client_secret_never_signs_in():
        outcome = []
        p = Producer(dict(oidc("wrong"), **{"message.timeout.ms": 5000}))
        p.produce("oidc", b"never", partition=0, on_delivery=lambda err, msg: outcome.append(err))
        p.flush(15)
        assert outcome and outcome[0] is not None, f"delivered without a token: {outcome}"

    def franz_go(audience):
        return subprocess.run(
            ["go", "run", "./oauth", f"127.0.0.1:{strict}", f"{issuer}/oauth2/token", "franz",
             "franz-secret", audience],
            cwd=os.path.join(ROOT, "tests/clients/go"), capture_output=True, text=True, timeout=300)

    def franz_go_signs_in_with_the_audience_the_listener_expects():
        r = franz_go("fjord")
        assert r.returncode == 0, r.stderr[-2000:]

    def franz_go_with_another_audience_is_refused():
        r = franz_go("other")
        assert r.returncode == 1, (r.returncode, r.stderr[-2000:])
        # franz-go retries a refused login until its deadline; the node says why it refused.
        with open(node.log_path) as f:
            log = f.read()
        assert "OAUTHBEARER token refused: Audience (aud) claim [\"other\"]" in log, log[-2000:]

    try:
        return run_checks("python", [
            ("franz_go_signs_in_with_the_audience_the_listener_expects",
             franz_go_signs_in_with_the_audience_the_listener_expects),
            ("franz_go_with_another_audience_is_refused", franz_go_with_another_audience_is_refused),
            ("librdkafka_fetches_its_token_from_the_provider", librdkafka_fetches_its_token_from_the_provider),
            ("librdkafka_unsecured_tokens", librdkafka_unsecured_tokens),
            ("a_wrong_client_secret_never_signs_in", a_wrong_client_secret_never_signs_in),
        ])
    finally:
        node.kill()
        node.wait()
        hydra.kill()
        hydra.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
