"""Client quotas with real Python clients from PyPI against a real `fjord server` node:
confluent-kafka (librdkafka) and kafka-python honour the throttle time the broker sends
(KIP-219), with no error in their callbacks or logs.

Run by .ci/run after `cargo test` (which builds target/debug/fjord):
    python3 tests/python/quota_test.py target/debug/fjord
Each client id gets a byte-rate quota of 512 KiB/s set with `fjord kafka-configs`; writing or
reading 2 MiB then takes about three seconds or more, each client sees throttle times (the
throttle callback, the throttle metrics), and every record arrives. Prints a one-line total.
"""

import logging
import subprocess
import sys
import time

from admin_test import run_checks, start_node, wait_for
from confluent_kafka import Consumer, Producer, TopicPartition as CTopicPartition
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import KafkaAdminClient, NewTopic

EXTRA = "offsets.topic.replication.factor=1\ngroup.initial.rebalance.delay.ms=0\n"
RATE = 524288
RECORDS, SIZE = 20, 2 * 1048576 // 20


class Collect(logging.Handler):
    """Keeps every log record at WARNING or above: the errors, and the warnings."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []
        self.warnings = []

    def emit(self, record):
        if record.levelno >= logging.ERROR:
            self.records.append(record.getMessage())
        else:
            self.warnings.append(record.getMessage())


def max_throttle(metrics):
    """The largest `throttle-time-max` among a kafka-python client's metric groups."""
    return max((group.get("throttle-time-max") or 0 for group in metrics.values()), default=0)


def set_quota(binary, bootstrap, client, key):
    out = subprocess.run(
        [binary, "kafka-configs", "--bootstrap-server", bootstrap, "--alter", "--entity-type", "clients",
         "--entity-name", client, "--add-config", f"{key}={RATE}"],
        capture_output=True, text=True, check=True).stdout
    assert out == f"Completed updating config for client {client}.\n", out

    def shown():
        d = subprocess.run([binary, "kafka-configs", "--bootstrap-server", bootstrap, "--describe",
                            "--entity-type", "clients", "--entity-name", client],
                           capture_output=True, text=True, check=True).stdout
        return key in d

    wait_for(f"the quota of {client}", shown)


def main(binary):
    node, bport, _ = start_node(binary, "fjord-quota-", EXTRA)
    bootstrap = f"127.0.0.1:{bport}"
    try:
        admin = wait_for("the admin client",
                         lambda: KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10000))
        admin.create_topics([NewTopic("py-quota-ck", 1, 1), NewTopic("py-quota-kp", 1, 1)])
        wait_for("the topics", lambda: {"py-quota-ck", "py-quota-kp"} <= set(admin.list_topics()))

        def confluent_kafka_producer_and_consumer():
            set_quota(binary, bootstrap, "ck-slow", "producer_byte_rate")
            set_quota(binary, bootstrap, "ck-reader", "consumer_byte_rate")
            log = logging.getLogger("ck")
            logs = Collect()
            log.addHandler(logs)
            throttles, errors = [], []
            p = Producer({"bootstrap.servers": bootstrap, "client.id": "ck-slow", "acks": "all",
                          "linger.ms": 5, "logger": log,
                          "throttle_cb": lambda e: throttles.append(e.throttle_time),
                          "error_cb": lambda e: errors.append(e)})
            started = time.time()
            for _ in range(RECORDS):
                p.produce("py-quota-ck", b"x" * SIZE, partition=0,
                          callback=lambda e, m: e and errors.append(e))
                p.poll(0)
            assert p.flush(60) == 0, "not every record was delivered"
            took = time.time() - started
            p.poll(1)
            assert not errors, errors[:3]
            assert took >= 2.5, f"2 MiB at 512 KiB/s took {took:.2f}s"
            assert throttles and max(throttles) > 0, throttles

            c = Consumer({"bootstrap.servers": bootstrap, "client.id": "ck-reader", "group.id": "ck-reader",
                          "enable.auto.commit": False, "logger": log,
                          "error_cb": lambda e: errors.append(e)})
            c.assign([CTopicPartition("py-quota-ck", 0, 0)])
            got, started = 0, time.time()
            while got < RECORDS * SIZE and time.time() - started < 60:
                m = c.poll(0.5)
                if m is not None and not m.error():
                    got += len(m.value())
            took = time.time() - started
            c.close()
            assert got == RECORDS * SIZE, got
            assert took >= 2.5, f"2 MiB at 512 KiB/s read in {took:.2f}s"
            assert not errors, errors[:3]
            assert not logs.records, logs.records[:3]

        def kafka_python_producer_and_consumer():
            set_quota(binary, bootstrap, "kp-slow", "producer_byte_rate")
            set_quota(binary, bootstrap, "kp-reader", "consumer_byte_rate")
            logs = Collect()
            logging.getLogger("kafka").addHandler(logs)
            p = KafkaProducer(bootstrap_servers=bootstrap, client_id="kp-slow", acks="all", linger_ms=5,
                              max_request_size=2 * SIZE)
            started = time.time()
            futures = [p.send("py-quota-kp", b"y" * SIZE, partition=0) for _ in range(RECORDS)]
            p.flush(60)
            offsets = [f.get(timeout=60).offset for f in futures]
            took = time.time() - started
            assert offsets == list(range(RECORDS)), offsets
            throttle = max_throttle(p.metrics())
            p.close()
            assert took >= 2.5, f"2 MiB at 512 KiB/s took {took:.2f}s"
            assert throttle > 0, throttle

            c = KafkaConsumer(bootstrap_servers=bootstrap, client_id="kp-reader", consumer_timeout_ms=20000,
                              fetch_max_bytes=4 * SIZE, max_partition_fetch_bytes=2 * SIZE)
            c.assign([TopicPartition("py-quota-kp", 0)])
            c.seek_to_beginning()
            got, started = 0, time.time()
            for m in c:
                got += len(m.value)
                if got >= RECORDS * SIZE:
                    break
            took = time.time() - started
            throttle = max_throttle(c.metrics())
            c.close()
            assert got == RECORDS * SIZE, got
            assert took >= 2.5, f"2 MiB at 512 KiB/s read in {took:.2f}s"
            assert throttle > 0, throttle
            # kafka-python's fetcher logs its own pause (the throttle it honours) as a failed
            # fetch to a node "paused: {'throttle'}"; nothing else may be logged as an error.
            errors = [r for r in logs.records if "Node paused: {'throttle'}" not in r]
            assert not errors, errors[:3]
            # kafka-python notes each throttled answer as a warning (and that a consumer without
            # a group does not commit), nothing else.
            assert logs.warnings, "no throttle noted"
            others = [w for w in logs.warnings if "throttled by broker" not in w
                      and "disabling auto-commit" not in w]
            assert not others, others[:3]

        return run_checks("python", [
            ("confluent_kafka_producer_and_consumer", confluent_kafka_producer_and_consumer),
            ("kafka_python_producer_and_consumer", kafka_python_producer_and_consumer),
        ])
    finally:
        node.kill()
        node.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
