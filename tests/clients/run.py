"""Clients beyond the Python ones, against a real `fjord server` node: franz-go (Go,
tests/clients/go) and kafkajs (Node, tests/clients/node). Each prints its own one-line total
(`go: N passed, M failed`, `kafkajs: ...`), which .ci/run adds up.

Run by .ci/run after `cargo test` (which builds target/debug/fjord), from the repository's
root, with Go and Node installed (the modules come from the Go proxy and npm):
    python3 tests/clients/run.py target/debug/fjord
Given host:port instead of a binary, the suites run against that cluster as it is (Apache Kafka
4.4 from tests/kafka/kafka.sh, started with the internal topics at one replica and
group.initial.rebalance.delay.ms=0), to check that they state Kafka's behaviour.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import socket  # noqa: E402

from admin_test import start_node, wait_for  # noqa: E402

EXTRA = ("offsets.topic.replication.factor=1\ntransaction.state.log.replication.factor=1\n"
         "transaction.state.log.min.isr=1\ngroup.initial.rebalance.delay.ms=0\n")
HERE = os.path.dirname(os.path.abspath(__file__))


def main(target):
    if ":" in target and not os.path.exists(target):
        node, bootstrap = None, target
    else:
        node, bport, _ = start_node(os.path.abspath(target), "fjord-clients-", EXTRA)
        bootstrap = f"127.0.0.1:{bport}"
        # The broker port opens once the node is ready to serve.
        wait_for("the broker port", lambda: socket.create_connection(("127.0.0.1", bport), 1).close() or True)
    status = 0
    try:
        # franz-go's own TestTxnEtl (chained consume-transform-produce groups, classic and
        # KIP-848, static members among them, over topics it has just created): the client's
        # test that met INVALID_TXN_STATE and OUT_OF_ORDER_SEQUENCE_NUMBER on one fjord node
        # (docs/TESTING.md). `go test` prints "ok"; counted as one test.
        etl_env = {**os.environ, "KGO_SEEDS": bootstrap, "KGO_TEST_RF": "1",
                   "KGO_TEST_RECORDS": "100000", "KGO_LOG_LEVEL": "none"}
        suites = [
            ("go", ["go", "run", ".", bootstrap], os.path.join(HERE, "go"), None),
            ("franz-go-etl", ["go", "test", "-count=1", "-timeout", "9m", "-run",
                                     "^TestTxnEtl$", "github.com/twmb/franz-go/pkg/kgo"],
             os.path.join(HERE, "go"), etl_env),
            ("kafkajs", ["node", "test.js", bootstrap], os.path.join(HERE, "node"), None),
        ]
        for label, cmd, cwd, env in suites:
            try:
                r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600,
                                   env=env)
                out = r.stdout
                if label.startswith("franz-go"):
                    out = out[-3000:] if r.returncode else ""
                    out += f"{label}: {int(r.returncode == 0)} passed, {int(r.returncode != 0)} failed\n"
                if r.returncode != 0 and f"{label}:" not in out:
                    out += f"{r.stderr[-3000:]}\n{label}: 0 passed, 1 failed\n"
            except subprocess.TimeoutExpired:
                out = f"{label}: 0 passed, 1 failed (timed out)\n"
                r = None
            sys.stdout.write(out)
            if r is None or r.returncode != 0:
                status = 1
    finally:
        if node is None:
            return status
        node.kill()
        node.wait()
        if status:
            with open(node.log_path) as f:
                sys.stdout.write("".join(f.readlines()[-40:]))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
