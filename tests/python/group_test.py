"""KIP-848 consumer groups with confluent-kafka (librdkafka, `group.protocol=consumer`) against
a real `fjord server` node.

Run by .ci/run after `cargo test` (which builds target/debug/fjord):
    python3 tests/python/group_test.py target/debug/fjord
Two consumers split six partitions 3/3 and read every record once; when one closes, the other
gets all six within the heartbeat interval; a static member that restarts gets its partitions
back while the other sees no revoke; a regular-expression subscription picks up a topic
created later; a group moved from the classic protocol to the consumer protocol and back keeps
its committed offsets; a group with classic members takes a consumer-protocol member (online
migration) and goes back when it leaves, every record read exactly once. Prints a one-line
total.
"""

import sys
import time

from admin_test import run_checks, start_node, wait_for
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

EXTRA = "offsets.topic.replication.factor=1\ngroup.initial.rebalance.delay.ms=0\n"
# group.consumer.heartbeat.interval.ms, Kafka's default.
HEARTBEAT_INTERVAL_S = 5.0


def main(binary):
    node, bport, _ = start_node(binary, "fjord-groups-", EXTRA)
    bootstrap = f"127.0.0.1:{bport}"
    try:
        admin = AdminClient({"bootstrap.servers": bootstrap})

        def create(name, partitions):
            wait_for(f"topic {name}", lambda: admin.create_topics([NewTopic(name, partitions, 1)])[name].result() or True)
            wait_for(f"topic {name} in metadata",
                     lambda: len(admin.list_topics(name, timeout=5).topics[name].partitions) == partitions)

        def produce(topic, values, partitions):
            p = Producer({"bootstrap.servers": bootstrap, "acks": "all"})
            for i, v in enumerate(values):
                p.produce(topic, str(v).encode(), partition=i % partitions)
            assert p.flush(30) == 0

        def consumer(group, client_id, protocol="consumer", **extra):
            conf = {"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": protocol,
                    "auto.offset.reset": "earliest", "client.id": client_id, "enable.auto.commit": False}
            conf.update(extra)
            return Consumer(conf)

        def poll_until(consumers, done, timeout, sink=None):
            """Polls every consumer until done() holds; returns the seconds it took."""
            start = time.time()
            while time.time() - start < timeout:
                for c in consumers:
                    m = c.poll(0.05)
                    if m is not None and m.error() is None and sink is not None:
                        sink.append((m.topic(), m.partition(), m.offset(), int(m.value())))
                if done():
                    return time.time() - start
            raise AssertionError(f"not done after {timeout} s: " +
                                 ", ".join(str(len(c.assignment())) for c in consumers))

        def split_then_takeover():
            create("cg-split", 6)
            c1 = consumer("cg-split-group", "c1")
            c1.subscribe(["cg-split"])
            poll_until([c1], lambda: len(c1.assignment()) == 6, 30)
            c2 = consumer("cg-split-group", "c2")
            c2.subscribe(["cg-split"])
            poll_until([c1, c2], lambda: len(c1.assignment()) == 3 and len(c2.assignment()) == 3, 30)
            mine = {c: {tp.partition for tp in c.assignment()} for c in (c1, c2)}
            assert not (mine[c1] & mine[c2]) and len(mine[c1] | mine[c2]) == 6, mine
            produce("cg-split", range(600), 6)
            seen = []
            poll_until([c1, c2], lambda: len(seen) >= 600, 60, sink=seen)
            values = sorted(v for (_, _, _, v) in seen)
            assert values == list(range(600)), (len(values), values[:5])
            c2.close()
            took = poll_until([c1], lambda: len(c1.assignment()) == 6, 30)
            assert took < HEARTBEAT_INTERVAL_S + 1.0, f"takeover took {took:.2f} s"
            c1.close()

        def a_static_member_comes_back_to_its_partitions():
            create("cg-static", 4)
            events = {"a": [], "b": []}

            def static(name):
                c = consumer("cg-static-group", name, **{"group.instance.id": f"instance-{name}"})
                c.subscribe(["cg-static"],
                            on_assign=lambda _, ps: events[name].append(("assign", ps)),
                            on_revoke=lambda _, ps: events[name].append(("revoke", ps)))
                return c

            a, b = static("a"), static("b")
            poll_until([a, b], lambda: len(a.assignment()) == 2 and len(b.assignment()) == 2, 30)
            before = sorted(tp.partition for tp in b.assignment())
            events["a"].clear()
            b.close()
            b = static("b")
            poll_until([a, b], lambda: len(b.assignment()) == 2, 30)
            assert sorted(tp.partition for tp in b.assignment()) == before
            # The other member saw nothing (a second of polling later): no revoke, no assign.
            settle = time.time() + 1.0
            while time.time() < settle:
                a.poll(0.1)
            assert events["a"] == [] and len(a.assignment()) == 2, events["a"]
            a.close()
            b.close()

        def regex_picks_up_a_later_topic():
            create("cg-re-one", 2)
            produce("cg-re-one", range(10), 2)
            c = consumer("cg-regex-group", "re")
            c.subscribe(["^cg-re-.*"])
            seen = []
            poll_until([c], lambda: len(seen) >= 10, 30, sink=seen)
            create("cg-re-two", 3)
            produce("cg-re-two", range(100, 130), 3)
            poll_until([c], lambda: any(t == "cg-re-two" for (t, _, _, _) in seen) and len(seen) >= 40, 30, sink=seen)
            topics = {tp.topic for tp in c.assignment()}
            assert topics == {"cg-re-one", "cg-re-two"}, topics
            assert sorted(v for (_, _, _, v) in seen) == list(range(10)) + list(range(100, 130))
            c.close()

        def migration_keeps_offsets():
            create("cg-mig", 2)
            produce("cg-mig", range(300), 2)
            group = "cg-mig-group"

            def read(protocol, count):
                c = consumer(group, f"mig-{protocol}", protocol)
                c.subscribe(["cg-mig"])
                seen = []
                poll_until([c], lambda: len(seen) >= count, 60, sink=seen)
                # Commit exactly what was read (the next offset of each partition).
                last = {}
                for (_, p, o, _) in seen[:count]:
                    last[p] = max(last.get(p, -1), o)
                c.commit(offsets=[TopicPartition("cg-mig", p, o + 1) for p, o in last.items()],
                         asynchronous=False)
                c.close()
                return seen[:count], last

            first, last1 = read("classic", 100)
            second, last2 = read("consumer", 100)
            # Each partition resumes right after the classic group's commit.
            for (_, p, o, _) in second:
                assert o > last1.get(p, -1), (p, o, last1)
            third, _ = read("classic", 50)
            for (_, p, o, _) in third:
                assert o > max(last1.get(p, -1), last2.get(p, -1)), (p, o, last2)
            values = [v for (_, _, _, v) in first + second + third]
            assert len(set(values)) == 250, len(set(values))

        def online_migration_both_ways():
            """Two classic members (cooperative-sticky) share 6 partitions; a consumer-protocol
            member joins and the group converts with its members in place; it leaves and the
            group is classic again. Every record is read exactly once: each member commits
            what it read before a partition leaves it."""
            topic, group = "cg-online", "cg-online-group"
            create(topic, 6)
            admin_kind = lambda: admin.describe_consumer_groups([group])[group].result()
            seen = []
            members = {}

            def member(name, protocol):
                extra = {"partition.assignment.strategy": "cooperative-sticky"} if protocol == "classic" else {}
                c = consumer(group, name, protocol, **extra)

                def commit_revoked(cons, partitions):
                    if not partitions:
                        return
                    positions = [tp for tp in cons.position(partitions) if tp.offset >= 0]
                    if positions:
                        cons.commit(offsets=positions, asynchronous=False)

                c.subscribe([topic], on_revoke=commit_revoked)
                members[name] = c
                return c

            def owned():
                return {n: {tp.partition for tp in c.assignment()} for n, c in members.items()}

            def split(expected):
                def done():
                    o = owned()
                    every = [p for ps in o.values() for p in ps]
                    return sorted(every) == list(range(6)) and all(len(o[n]) == k for n, k in expected.items())
                return done

            def phase(values, expected):
                produce(topic, values, 6)
                poll_until(list(members.values()), lambda: len(seen) >= len(values) + phase.total and split(expected)(), 90, sink=seen)
                phase.total += len(values)
            phase.total = 0

            member("classic-1", "classic")
            member("classic-2", "classic")
            phase(range(0, 300), {"classic-1": 3, "classic-2": 3})
            assert str(admin_kind().type).endswith("CLASSIC"), admin_kind().type
            # A consumer-protocol member joins the classic group: it becomes a consumer group.
            member("consumer-1", "consumer")
            phase(range(300, 600), {"classic-1": 2, "classic-2": 2, "consumer-1": 2})
            described = admin_kind()
            assert str(described.type).endswith("CONSUMER"), described.type
            assert len(described.members) == 3, described.members
            # The consumer-protocol member leaves: the classic members are a classic group again.
            members.pop("consumer-1").close()
            phase(range(600, 900), {"classic-1": 3, "classic-2": 3})
            assert str(admin_kind().type).endswith("CLASSIC"), admin_kind().type
            values = sorted(v for (_, _, _, v) in seen)
            assert values == list(range(900)), (len(values), len(set(values)))
            for c in members.values():
                c.close()

        return run_checks("python", [
            ("two consumer-protocol members split six partitions, then one takes over", split_then_takeover),
            ("a static member comes back to its partitions, the other sees nothing", a_static_member_comes_back_to_its_partitions),
            ("a regular-expression subscription picks up a topic created later", regex_picks_up_a_later_topic),
            ("a group moved from classic to consumer and back keeps its offsets", migration_keeps_offsets),
            ("a group with members migrates online both ways, every record read once", online_migration_both_ways),
        ])
    finally:
        node.kill()
        node.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
