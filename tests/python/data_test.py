"""The data plane with real Python clients from PyPI against a real `fjord server` node:
kafka-python (pure Python; its producer is idempotent by default) and confluent-kafka
(librdkafka).

Run by .ci/run after `cargo test` (which builds target/debug/fjord):
    python3 tests/python/data_test.py target/debug/fjord
Produce and consume; a consumer group that commits, is closed, resumes from its committed
offsets, and keeps them across a SIGKILL and restart of the node; offsets_for_times; describe
configs and log dirs; list, describe and delete groups; the same with confluent-kafka. Prints a
one-line total.
"""

import sys
import time

from admin_test import restart_node, run_checks, start_node, wait_for
from confluent_kafka import Consumer, Producer, TopicPartition as CTopicPartition
from confluent_kafka.admin import AdminClient
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient, NewTopic

EXTRA = "offsets.topic.replication.factor=1\ngroup.initial.rebalance.delay.ms=0\n"


def main(binary):
    node, bport, _ = start_node(binary, "fjord-data-", EXTRA)
    bootstrap = f"127.0.0.1:{bport}"
    state = {"node": node}
    try:
        admin = wait_for("the admin client",
                         lambda: KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10000))
        admin.create_topics([NewTopic("py-data", 3, 1, topic_configs={"retention.ms": "3600000"})])
        wait_for("the topic", lambda: "py-data" in admin.list_topics())

        def consumer(group, **kw):
            return KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, auto_offset_reset="earliest",
                                 enable_auto_commit=False, consumer_timeout_ms=5000, **kw)

        def produce_and_consume():
            p = KafkaProducer(bootstrap_servers=bootstrap, acks="all")
            futures = [p.send("py-data", str(i).encode(), partition=i % 3) for i in range(900)]
            p.flush()
            offsets = [f.get(timeout=10).offset for f in futures]
            assert sorted(offsets) == sorted([i // 3 for i in range(900)]), offsets[:10]
            p.close()
            c = KafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="earliest", consumer_timeout_ms=5000)
            c.assign([TopicPartition("py-data", i) for i in range(3)])
            values = sorted(int(m.value) for m in c)
            assert values == list(range(900)), len(values)
            c.close()

        def group_commits_and_resumes_across_a_restart():
            c = consumer("py-group")
            c.subscribe(["py-data"])
            first = []
            for m in c:
                first.append(int(m.value))
                if len(first) == 400:
                    break
            c.commit()
            c.close()
            c = consumer("py-group")
            c.subscribe(["py-data"])
            rest = [int(m.value) for m in c]
            assert len(rest) == 500 and not set(first) & set(rest), (len(first), len(rest))
            c.commit()
            c.close()
            # SIGKILL and restart: the committed offsets are kept; a member resumes at the end.
            state["node"] = restart_node(binary, state["node"])
            c = wait_for("the restarted node", lambda: consumer("py-group"), timeout=90)
            c.subscribe(["py-data"])
            again = [int(m.value) for m in c]
            assert again == [], again[:5]
            committed = sum(c.committed(TopicPartition("py-data", i)) or 0 for i in range(3))
            assert committed == 900, committed
            c.close()

        def offsets_for_times():
            p = KafkaProducer(bootstrap_servers=bootstrap)
            base = int(time.time() * 1000) - 100_000
            for i in range(10):
                p.send("py-times", f"t{i}".encode(), partition=0, timestamp_ms=base + i * 1000)
            p.flush()
            p.close()
            c = KafkaConsumer(bootstrap_servers=bootstrap)
            tp = TopicPartition("py-times", 0)
            r = c.offsets_for_times({tp: base + 4500})
            assert r[tp].offset == 5 and r[tp].timestamp == base + 5000, r
            assert c.offsets_for_times({tp: base + 99_000})[tp] is None
            assert c.beginning_offsets([tp])[tp] == 0 and c.end_offsets([tp])[tp] == 10
            c.close()

        def describe_configs_and_log_dirs():
            # The admin client's connection died with the node's restart above; kafka-python
            # finds no ready node until it reconnects, so ask until it has.
            d = wait_for("the admin client to reconnect after the restart",
                         lambda: admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, "py-data")]))
            entry = d["topic"]["py-data"]["retention.ms"]
            assert entry["value"] == "3600000", entry
            # Every topic config and every broker key, with Kafka's sources (confluent-kafka
            # shows defaults too).
            from confluent_kafka.admin import ConfigResource as CResource, ConfigSource
            ca = AdminClient({"bootstrap.servers": bootstrap})
            topic_r, broker_r = CResource("topic", "py-data"), CResource("broker", "1")
            fs = ca.describe_configs([topic_r, broker_r])
            topic = next(f for r, f in fs.items() if r.name == "py-data").result(timeout=10)
            broker = next(f for r, f in fs.items() if r.name == "1").result(timeout=10)
            assert len(topic) >= 20, sorted(topic)
            assert topic["retention.ms"].value == "3600000", topic["retention.ms"]
            assert topic["retention.ms"].source == ConfigSource.DYNAMIC_TOPIC_CONFIG.value
            assert topic["segment.bytes"].value == "1073741824"
            assert topic["segment.bytes"].source == ConfigSource.DEFAULT_CONFIG.value
            assert broker["offsets.topic.replication.factor"].value == "1"
            assert broker["offsets.topic.replication.factor"].source == ConfigSource.STATIC_BROKER_CONFIG.value
            assert broker["num.partitions"].source == ConfigSource.DEFAULT_CONFIG.value
            dirs = admin.describe_log_dirs()
            text = str(dirs)
            assert "py-data" in text, text[:500]

        def list_describe_and_delete_groups():
            # The last member may have left in the middle of its join (a pending member then
            # expires with its session, as in Kafka): wait for the group to be empty.
            def empty():
                groups = {g["group_id"]: g for g in admin.list_groups()}
                return groups["py-group"]["group_state"] == "Empty" and groups
            groups = wait_for("py-group to be empty", empty, timeout=60)
            assert groups["py-group"]["protocol_type"] == "consumer", groups
            d = admin.describe_groups(["py-group"])["py-group"]
            assert d["group_state"] == "Empty" and d["members"] == [], d
            offsets = admin.list_group_offsets("py-group")["py-group"]
            assert sum(o.offset for o in offsets.values()) == 900, offsets
            assert admin.delete_groups(["py-group"])["py-group"] == "OK"
            assert "py-group" not in [g["group_id"] for g in admin.list_groups()]

        def confluent_kafka_round_trip():
            p = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True, "acks": "all"})
            errors = []
            for i in range(3000):
                p.produce("ck-data", str(i).encode(), callback=lambda e, m: e and errors.append(e))
            assert p.flush(30) == 0 and not errors, errors[:3]
            c = Consumer({"bootstrap.servers": bootstrap, "group.id": "ck-group",
                          "auto.offset.reset": "earliest", "enable.auto.commit": False})
            c.subscribe(["ck-data"])
            seen = set()
            deadline = time.time() + 60
            while len(seen) < 3000 and time.time() < deadline:
                m = c.poll(0.2)
                if m is not None and not m.error():
                    seen.add(int(m.value()))
            assert len(seen) == 3000, len(seen)
            c.commit(asynchronous=False)
            committed = c.committed([CTopicPartition("ck-data", 0)], timeout=10)
            assert committed[0].offset == 3000, committed
            c.close()
            a = AdminClient({"bootstrap.servers": bootstrap})
            listed = a.list_consumer_groups().result(timeout=10)
            assert "ck-group" in [g.group_id for g in listed.valid], listed.valid
            described = a.describe_consumer_groups(["ck-group"])["ck-group"].result(timeout=10)
            assert str(described.state).endswith("EMPTY"), described.state
            a.delete_consumer_groups(["ck-group"])["ck-group"].result(timeout=10)
            listed = a.list_consumer_groups().result(timeout=10)
            assert "ck-group" not in [g.group_id for g in listed.valid]

        return run_checks("python", [
            ("produce_and_consume", produce_and_consume),
            ("group_commits_and_resumes_across_a_restart", group_commits_and_resumes_across_a_restart),
            ("offsets_for_times", offsets_for_times),
            ("describe_configs_and_log_dirs", describe_configs_and_log_dirs),
            ("list_describe_and_delete_groups", list_describe_and_delete_groups),
            ("confluent_kafka_round_trip", confluent_kafka_round_trip),
        ])
    finally:
        state["node"].kill()
        state["node"].wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
