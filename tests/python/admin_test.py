"""kafka-python's admin client against a real `fjord server` node.

Run by .ci/run after `cargo test` (which builds target/debug/fjord):
    python3 tests/python/admin_test.py target/debug/fjord
Starts one combined node on free ports on 127.0.0.1, exercises the admin APIs a Kafka operator
uses (describe cluster, create topics with configs, describe and alter configs, create
partitions, list and delete topics) and checks every answer; prints a one-line total.
"""

import os
import socket
import subprocess
import sys
import tempfile
import time
import traceback

from kafka.admin import (
    ConfigResource,
    ConfigResourceType,
    KafkaAdminClient,
    NewPartitions,
    NewTopic,
)
from kafka.errors import InvalidConfigurationError, TopicAlreadyExistsError


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, fn, timeout=30.0):
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            value = fn()
            if value:
                return value
        except Exception as e:  # the node may still be starting
            last = e
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}: {last}")


def start_node(binary, prefix, extra="", listeners="", format_args=(), tmp=None):
    """Formats and starts one combined node on free ports, with `extra` properties lines
    (and `listeners`, more `NAME://host:port` entries, after PLAINTEXT and CONTROLLER);
    returns (process, broker port, cluster id). The process carries `props` and `log_path`
    so a test can start the node again (`restart_node`)."""
    tmp = tmp or tempfile.mkdtemp(prefix=prefix)
    bport, cport = free_port(), free_port()
    props = os.path.join(tmp, "server.properties")
    with open(props, "w") as f:
        f.write(
            "node.id=1\nprocess.roles=broker,controller\n"
            f"listeners=PLAINTEXT://127.0.0.1:{bport},CONTROLLER://127.0.0.1:{cport}{listeners}\n"
            "controller.listener.names=CONTROLLER\n"
            f"controller.quorum.voters=1@127.0.0.1:{cport}\n"
            f"log.dirs={tmp}/data\n"
            f"metrics.listener=http://127.0.0.1:{free_port()}\n"
            f"{extra}\n"
        )
    cluster_id = subprocess.check_output([binary, "random-uuid"]).decode().strip()
    subprocess.check_call([binary, "format", "--config", props, "--cluster-id", cluster_id, *format_args],
                          stdout=subprocess.DEVNULL)
    log_path = os.path.join(tmp, "server.log")
    log = open(log_path, "w")
    node = subprocess.Popen([binary, "server", "--config", props], stdout=log, stderr=log)
    node.props, node.log_path = props, log_path
    return node, bport, cluster_id


def restart_node(binary, node):
    """SIGKILLs `node` and starts it again on the same config and data; returns the new
    process."""
    node.kill()
    node.wait()
    log = open(node.log_path, "a")
    again = subprocess.Popen([binary, "server", "--config", node.props], stdout=log, stderr=log)
    again.props, again.log_path = node.props, node.log_path
    return again


def ck_round_trip(config, topic, value, group):
    """Produces `value` to partition 0 of `topic` with confluent-kafka on `config`, and reads it
    back in consumer group `group`."""
    from confluent_kafka import Consumer, Producer
    p = Producer(dict(config, **{"message.timeout.ms": 20000}))
    p.produce(topic, value.encode(), partition=0)
    assert p.flush(30) == 0, "not delivered"
    c = Consumer(dict(config, **{"group.id": group, "auto.offset.reset": "earliest",
                                 "enable.auto.commit": False}))
    c.subscribe([topic])
    got = []
    for _ in range(60):
        m = c.poll(1.0)
        if m is not None and m.error() is None:
            got.append(m.value().decode())
            if value in got:
                break
    c.close()
    assert value in got, got


def run_checks(label, checks):
    """Runs (name, fn) checks, prints each failure and the suite's one-line total (which
    .ci/run adds up); returns the exit code."""
    failed = []
    for name, fn in checks:
        try:
            fn()
        except Exception:
            failed.append((name, traceback.format_exc()))
    for name, e in failed:
        print(f"FAILED {name}:\n{e}")
    print(f"{label}: {len(checks) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


def main(binary):
    node, bport, cluster_id = start_node(binary, "fjord-python-")
    try:
        admin = wait_for(
            "the admin client",
            lambda: KafkaAdminClient(bootstrap_servers=f"127.0.0.1:{bport}", request_timeout_ms=10000),
        )

        def describe_cluster():
            c = wait_for("an unfenced broker", lambda: admin.describe_cluster()["brokers"] and admin.describe_cluster())
            assert c["cluster_id"] == cluster_id, c
            assert [b["broker_id"] for b in c["brokers"]] == [1], c

        def create_topics():
            r = admin.create_topics([NewTopic("orders", 3, 1, topic_configs={"retention.ms": "60000"})])
            topic = r["topics"][0] if isinstance(r, dict) else r.topics[0]
            err = topic["error_code"] if isinstance(topic, dict) else topic[1]
            assert err == 0, r
            assert "orders" in wait_for("the topic in Metadata", lambda: "orders" in admin.list_topics() and admin.list_topics())

        def duplicate_topic_is_refused():
            try:
                admin.create_topics([NewTopic("orders", 1, 1)], raise_errors=True)
            except TopicAlreadyExistsError:
                return
            raise AssertionError("creating an existing topic succeeded")

        def invalid_config_is_refused():
            try:
                admin.create_topics([NewTopic("bad", 1, 1, topic_configs={"retention.ms": "soon"})], raise_errors=True)
            except InvalidConfigurationError:
                return
            raise AssertionError("an invalid config was accepted")

        def describe_and_alter_configs():
            def value(key):
                d = admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, "orders")])
                # kafka-python 3: {resource type: {name: {key: {"value": ..., ...}}}}
                entry = d["topic"]["orders"].get(key)
                assert entry is not None, d
                return entry["value"], entry["config_source"]
            assert value("retention.ms") == ("60000", "DYNAMIC_TOPIC_CONFIG"), value("retention.ms")
            admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, "orders", configs={"retention.ms": "120000"})])
            # Described from this node's image, which applies the committed change a moment
            # after the controller answers (as a Kafka broker's metadata cache does).
            wait_for("retention.ms 120000", lambda: value("retention.ms")[0] == "120000")

        def create_partitions():
            r = admin.create_partitions({"orders": NewPartitions(5)})
            assert "error_code=0" in str(r), r
            def five():
                m = admin.describe_topics(["orders"])
                return len(m[0]["partitions"]) == 5 and m
            m = wait_for("five partitions", five)
            leaders = [p.get("leader", p.get("leader_id")) for p in m[0]["partitions"]]
            assert leaders == [1] * 5, m

        def delete_topics():
            admin.delete_topics(["orders"])
            wait_for("the topic to go", lambda: "orders" not in admin.list_topics())

        return run_checks("python", [
            ("describe_cluster", describe_cluster),
            ("create_topics", create_topics),
            ("duplicate_topic_is_refused", duplicate_topic_is_refused),
            ("invalid_config_is_refused", invalid_config_is_refused),
            ("describe_and_alter_configs", describe_and_alter_configs),
            ("create_partitions", create_partitions),
            ("delete_topics", delete_topics),
        ])
    finally:
        node.kill()
        node.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
