"""Share groups (KIP-932) with confluent-kafka's ShareConsumer (librdkafka 2.16) against a
real `fjord server` node.

Run by .ci/run after `cargo test` (which builds target/debug/fjord):
    python3 tests/python/share_test.py target/debug/fjord
Implicit acknowledgement delivers each record once; explicit accept, release and reject (a
released record comes back with delivery count 2, a rejected one never); a record released up
to the group's delivery-count limit is archived; five consumers on two partitions process each
record once; a SIGKILLed consumer's records come back. That a record never comes back is
checked with a marker record produced after it on the same partition: the group reads up to
the marker, which a share-partition delivers only after every available record before it.
Prints a one-line total.
"""

import os
import re
import subprocess
import urllib.request
import sys
import threading
import time

from admin_test import run_checks, start_node, wait_for
from confluent_kafka import AcknowledgeType, Consumer, Producer, ShareConsumer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

EXTRA = (
    "offsets.topic.replication.factor=1\n"
    "share.coordinator.state.topic.replication.factor=1\n"
    "share.coordinator.state.topic.min.isr=1\n"
)

# The child consumer of killed_consumer: acquires records, says how many, hangs.
HANG = """
import sys
from confluent_kafka import ShareConsumer
c = ShareConsumer({"bootstrap.servers": sys.argv[1], "group.id": sys.argv[2],
                   "share.acknowledgement.mode": "explicit"})
c.subscribe([sys.argv[3]])
while True:
    msgs = [m for m in c.poll(0.5) if m.error() is None]
    if msgs:
        print("GOT", len(msgs), flush=True)
        while True:
            pass
"""


def main(binary):
    node, bport, _ = start_node(binary, "fjord-share-", EXTRA)
    bootstrap = f"127.0.0.1:{bport}"
    try:
        admin = AdminClient({"bootstrap.servers": bootstrap})

        def create(name, partitions, config=None):
            wait_for(f"topic {name}", lambda: admin.create_topics(
                [NewTopic(name, partitions, 1, config=config or {})])[name].result() or True)
            wait_for(f"topic {name} in metadata",
                     lambda: len(admin.list_topics(name, timeout=5).topics[name].partitions) == partitions)

        def group(name, **configs):
            """A group reading from the start of the log (group configs set with fjord's
            kafka-configs, as an operator would)."""
            configs = {"share.auto.offset.reset": "earliest", **configs}
            subprocess.check_call([binary, "kafka-configs", "--bootstrap-server", bootstrap, "--alter",
                                   "--entity-type", "groups", "--entity-name", name, "--add-config",
                                   ",".join(f"{k}={v}" for k, v in configs.items())],
                                  stdout=subprocess.DEVNULL)
            return name

        def produce(topic, values, partition=None):
            p = Producer({"bootstrap.servers": bootstrap, "acks": "all"})
            for v in values:
                if partition is None:
                    p.produce(topic, str(v).encode())
                else:
                    p.produce(topic, str(v).encode(), partition=partition)
            assert p.flush(30) == 0

        def consumer(group_id, mode="implicit"):
            return ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group_id,
                                  "share.acknowledgement.mode": mode})

        def messages(c, timeout=0.5):
            out = []
            for m in c.poll(timeout):
                assert m.error() is None, m.error()
                out.append(m)
            return out

        def read_to_marker(group_id, topic, marker):
            """Every value before the marker that the group still delivers."""
            seen, found = [], []
            c = consumer(group_id)
            c.subscribe([topic])
            try:
                def step():
                    for m in messages(c):
                        (found if m.value().decode() == marker else seen).append(m.value().decode())
                    return bool(found)
                wait_for(f"marker {marker}", step, timeout=90)
                c.commit_sync()
            finally:
                c.close()
            return seen

        def implicit():
            create("py-share-implicit", 1)
            g = group("py-sg-implicit")
            produce("py-share-implicit", range(200), 0)
            got = {}
            c = consumer(g)
            c.subscribe(["py-share-implicit"])
            try:
                def step():
                    for m in messages(c):
                        v = m.value().decode()
                        assert v not in got, f"delivered twice: {v}"
                        got[v] = m.delivery_count()
                    return len(got) == 200
                wait_for("200 records", step, timeout=90)
                c.commit_sync()
            finally:
                c.close()
            assert set(got.values()) == {1}, set(got.values())
            produce("py-share-implicit", ["marker"], 0)
            assert read_to_marker(g, "py-share-implicit", "marker") == []

        def explicit():
            create("py-share-explicit", 1)
            g = group("py-sg-explicit")
            produce("py-share-explicit", range(30), 0)
            counts = {}
            c = consumer(g, "explicit")
            c.subscribe(["py-share-explicit"])
            try:
                def step():
                    for m in messages(c):
                        n = int(m.value())
                        counts[n] = counts.get(n, 0) + 1
                        assert m.delivery_count() == counts[n], (n, m.delivery_count(), counts[n])
                        if n < 10 or counts[n] > 1:
                            t = AcknowledgeType.ACCEPT
                        elif n < 20:
                            t = AcknowledgeType.RELEASE
                        else:
                            t = AcknowledgeType.REJECT
                        c.acknowledge(m, t)
                    c.commit_sync()
                    return len(counts) == 30 and all(
                        counts[n] == (2 if 10 <= n < 20 else 1) for n in counts)
                wait_for("every record settled", step, timeout=90)
            finally:
                c.close()
            produce("py-share-explicit", ["marker"], 0)
            assert read_to_marker(g, "py-share-explicit", "marker") == []

        def delivery_limit():
            create("py-share-limit", 1)
            g = group("py-sg-limit", **{"share.delivery.count.limit": "3"})
            produce("py-share-limit", ["x"], 0)
            seen = []
            c = consumer(g, "explicit")
            c.subscribe(["py-share-limit"])
            try:
                def step():
                    for m in messages(c):
                        seen.append(m.delivery_count())
                        c.acknowledge(m, AcknowledgeType.RELEASE)
                    c.commit_sync()
                    return len(seen) >= 3
                wait_for("three deliveries", step, timeout=90)
            finally:
                c.close()
            assert seen == [1, 2, 3], seen
            produce("py-share-limit", ["marker"], 0)
            assert read_to_marker(g, "py-share-limit", "marker") == []

        def five_on_two():
            create("py-share-five", 2)
            g = group("py-sg-five")
            total = 3000
            produce("py-share-five", range(total))
            seen, lock, stop, errors = {}, threading.Lock(), threading.Event(), []

            def work():
                c = consumer(g)
                c.subscribe(["py-share-five"])
                try:
                    while not stop.is_set():
                        for m in messages(c, 0.2):
                            with lock:
                                seen[m.value()] = seen.get(m.value(), 0) + 1
                    c.commit_sync()
                except Exception as e:  # reported below
                    errors.append(e)
                finally:
                    c.close()

            threads = [threading.Thread(target=work) for _ in range(5)]
            for t in threads:
                t.start()
            try:
                wait_for(f"{total} records", lambda: len(seen) == total, timeout=120)
            finally:
                stop.set()
                for t in threads:
                    t.join(60)
            assert not errors, errors
            twice = [v for v, n in seen.items() if n > 1]
            assert not twice, f"{len(twice)} records processed twice"

        def killed_consumer():
            create("py-share-killed", 1)
            g = group("py-sg-killed", **{"share.record.lock.duration.ms": "15000"})
            produce("py-share-killed", range(50), 0)
            child = subprocess.Popen([sys.executable, "-c", HANG, bootstrap, g, "py-share-killed"],
                                     stdout=subprocess.PIPE, text=True)
            try:
                line = child.stdout.readline()
                assert line.startswith("GOT "), line
                held = int(line.split()[1])
            finally:
                child.kill()  # SIGKILL: it never acknowledges nor leaves
                child.wait()
            counts = {}
            c = consumer(g)
            c.subscribe(["py-share-killed"])
            try:
                def step():
                    for m in messages(c):
                        counts[m.value()] = m.delivery_count()
                    return len(counts) == 50
                wait_for("every record", step, timeout=90)
                c.commit_sync()
            finally:
                c.close()
            again = sum(1 for n in counts.values() if n >= 2)
            assert again >= held, (held, again)

        def dead_letters():
            create("py-share-dlq", 1)
            create("dlq.py-share-dlq", 1, {"errors.deadletterqueue.group.enable": "true"})
            g = group("py-sg-dlq", **{"errors.deadletterqueue.topic.name": "dlq.py-share-dlq"})
            produce("py-share-dlq", range(5), 0)
            rejected = set()
            c = consumer(g, "explicit")
            c.subscribe(["py-share-dlq"])
            try:
                def step():
                    for m in messages(c):
                        c.acknowledge(m, AcknowledgeType.REJECT)
                        rejected.add(m.offset())
                    c.commit_sync()
                    return len(rejected) == 5
                wait_for("five rejected", step, timeout=90)
            finally:
                c.close()
            letters = {}
            r = Consumer({"bootstrap.servers": bootstrap, "group.id": "py-dlq-reader",
                          "auto.offset.reset": "earliest"})
            r.assign([TopicPartition("dlq.py-share-dlq", 0, 0)])
            try:
                def read():
                    m = r.poll(0.5)
                    if m is not None and m.error() is None:
                        h = {k: v.decode() for k, v in (m.headers() or [])}
                        letters[int(h["__dlq.errors.offset"])] = h
                    return len(letters) == 5
                wait_for("five dead letters", read, timeout=60)
            finally:
                r.close()
            for o, h in letters.items():
                assert h["__dlq.errors.topic"] == "py-share-dlq", h
                assert h["__dlq.errors.group"] == g, h
                assert h["__dlq.errors.message"] == "Offset rejected by client.", h
                assert h["__dlq.errors.delivery.count"] == "1", h
            produce("py-share-dlq", ["marker"], 0)
            assert read_to_marker(g, "py-share-dlq", "marker") == []

        def metrics():
            """The share series on /metrics after the checks above: Kafka's names."""
            with open(node.props) as f:
                url = re.search(r"metrics.listener=(\S+)", f.read()).group(1)
            text = urllib.request.urlopen(url + "/metrics", timeout=10).read().decode()

            def value(series):
                m = re.search("^" + re.escape(series) + r" (\S+)$", text, re.M)
                assert m, f"{series} not on /metrics"
                return float(m.group(1))
            assert value('kafka_server_group_coordinator_metrics_group_count{protocol="share"}') >= 5
            # The SIGKILLed consumer stays a member until its session ends: its group is Stable.
            assert value('kafka_server_group_coordinator_metrics_share_group_count{state="empty"}') \
                + value('kafka_server_group_coordinator_metrics_share_group_count{state="stable"}') >= 5
            assert value('kafka_server_sharegroupmetrics_recordacknowledgements_total{acktype="accept"}') >= 200
            assert value('kafka_server_sharegroupmetrics_recordacknowledgements_total{acktype="release"}') >= 10
            assert value('kafka_server_sharegroupmetrics_recordacknowledgements_total{acktype="reject"}') >= 10
            assert value("kafka_server_sharegroupmetrics_recordsacquired_total") >= 200
            assert value("kafka_server_group_coordinator_metrics_share_group_rebalance_total") >= 5

        return run_checks("python", [
            ("implicit acknowledgement delivers each record once", implicit),
            ("accept, release and reject", explicit),
            ("a record released up to the delivery limit is archived", delivery_limit),
            ("five consumers on two partitions process each record once", five_on_two),
            ("a SIGKILLed consumer's records come back", killed_consumer),
            ("rejected records go to the dead-letter queue", dead_letters),
            ("share-group series on /metrics", metrics),
        ])
    finally:
        node.kill()
        node.wait()


if __name__ == "__main__":
    sys.exit(main(os.path.abspath(sys.argv[1])))
