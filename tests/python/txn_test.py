"""Transactions with confluent-kafka (librdkafka) against a real `fjord server` node.

Run by .ci/run after `cargo test` (which builds target/debug/fjord):
    python3 tests/python/txn_test.py target/debug/fjord
Commit and abort seen by read_committed and read_uncommitted consumers; a
consume-transform-produce loop with send_offsets_to_transaction, whose output holds every
input exactly once and whose group offsets move only on commit; a producer fenced by a
second one with the same transactional id; a transaction the coordinator aborts when it
times out. Prints a one-line total.
"""

import sys
import time

from admin_test import run_checks, start_node, wait_for
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

EXTRA = (
    "offsets.topic.replication.factor=1\n"
    "transaction.state.log.replication.factor=1\n"
    "transaction.state.log.min.isr=1\n"
    "group.initial.rebalance.delay.ms=0\n"
    # Timed-out transactions are looked for every half second (Kafka: every 10 s).
    "transaction.abort.timed.out.transaction.cleanup.interval.ms=500\n"
)


def read_all(bootstrap, topic, partitions, isolation, expect=None, timeout=20.0):
    """Every value of `topic` a consumer with `isolation` reads from the start, waiting
    until `expect` values arrived (or the partitions' ends were reached)."""
    c = Consumer({
        "bootstrap.servers": bootstrap,
        "group.id": f"reader-{isolation}-{time.time()}",
        "isolation.level": isolation,
        "enable.auto.commit": False,
        "enable.partition.eof": True,
    })
    c.assign([TopicPartition(topic, p, 0) for p in range(partitions)])
    out, at_end = [], set()
    deadline = time.time() + timeout
    while time.time() < deadline:
        m = c.poll(0.5)
        if m is None:
            continue
        if m.error():
            if m.error().code() == KafkaError._PARTITION_EOF:
                at_end.add(m.partition())
                if expect is None and len(at_end) == partitions:
                    break
                continue
            raise KafkaException(m.error())
        out.append(m.value().decode())
        if expect is not None and len(out) >= expect:
            break
    c.close()
    return out


def main(binary):
    node, bport, _ = start_node(binary, "fjord-txn-", EXTRA)
    bootstrap = f"127.0.0.1:{bport}"
    try:
        admin = wait_for("the admin client", lambda: AdminClient({"bootstrap.servers": bootstrap}))

        def create(name, partitions):
            for f in admin.create_topics([NewTopic(name, partitions, 1)]).values():
                f.result(timeout=20)

        def producer(txn_id, **extra):
            p = Producer({"bootstrap.servers": bootstrap, "transactional.id": txn_id, **extra})
            p.init_transactions(30)
            return p

        def commit_and_abort():
            create("tx-data", 2)
            p = producer("tx-commit-abort")
            p.begin_transaction()
            for i in range(100):
                p.produce("tx-data", f"c{i}".encode(), partition=i % 2)
            p.commit_transaction(30)
            p.begin_transaction()
            for i in range(50):
                p.produce("tx-data", f"a{i}".encode(), partition=i % 2)
            # Sent before the abort (librdkafka drops what it has not sent when aborting).
            p.flush(30)
            p.abort_transaction(30)
            p.begin_transaction()
            p.produce("tx-data", b"last", partition=0)
            p.commit_transaction(30)
            committed = read_all(bootstrap, "tx-data", 2, "read_committed")
            assert sorted(committed) == sorted([f"c{i}" for i in range(100)] + ["last"]), committed
            everything = read_all(bootstrap, "tx-data", 2, "read_uncommitted")
            assert len(everything) == 151 and "a7" in everything, len(everything)
            # An open transaction holds read_committed readers at its first offset.
            p.begin_transaction()
            p.produce("tx-data", b"open", partition=1)
            p.flush(30)
            held = read_all(bootstrap, "tx-data", 2, "read_committed")
            assert "open" not in held and len(held) == 101, held
            assert "open" in read_all(bootstrap, "tx-data", 2, "read_uncommitted")
            p.commit_transaction(30)
            assert "open" in read_all(bootstrap, "tx-data", 2, "read_committed", expect=102)

        def consume_transform_produce():
            create("ctp-in", 3)
            create("ctp-out", 3)
            plain = Producer({"bootstrap.servers": bootstrap})
            for i in range(600):
                plain.produce("ctp-in", str(i).encode(), partition=i % 3)
            plain.flush(30)
            c = Consumer({
                "bootstrap.servers": bootstrap,
                "group.id": "ctp",
                "isolation.level": "read_committed",
                "enable.auto.commit": False,
                "auto.offset.reset": "earliest",
            })
            c.subscribe(["ctp-in"])
            p = producer("ctp-1")
            done, rounds, aborted = 0, 0, 0
            deadline = time.time() + 60
            while done < 600 and time.time() < deadline:
                batch = c.consume(100, 1.0)
                batch = [m for m in batch if not m.error()]
                if not batch:
                    continue
                rounds += 1
                p.begin_transaction()
                for m in batch:
                    p.produce("ctp-out", f"out-{m.value().decode()}".encode(), partition=m.partition())
                p.send_offsets_to_transaction(c.position(c.assignment()), c.consumer_group_metadata(), 30)
                if rounds == 2:
                    # One round aborted: its input is read again from the committed offsets.
                    p.flush(30)
                    p.abort_transaction(30)
                    aborted += len(batch)
                    positions = c.committed(c.assignment(), timeout=10)
                    for tp in positions:
                        c.seek(TopicPartition(tp.topic, tp.partition, tp.offset if tp.offset >= 0 else 0))
                    continue
                p.commit_transaction(30)
                done += len(batch)
            assert done == 600, (done, rounds)
            committed = c.committed([TopicPartition("ctp-in", i) for i in range(3)], timeout=10)
            assert sum(tp.offset for tp in committed) == 600, committed
            c.close()
            out = read_all(bootstrap, "ctp-out", 3, "read_committed", expect=600)
            assert sorted(out) == sorted(f"out-{i}" for i in range(600)), (len(out), len(set(out)))
            assert aborted > 0
            assert len(read_all(bootstrap, "ctp-out", 3, "read_uncommitted")) == 600 + aborted

        def fenced_by_a_second_producer():
            create("tx-fence", 1)
            first = producer("tx-fence-id")
            first.begin_transaction()
            first.produce("tx-fence", b"zombie", partition=0)
            first.flush(30)
            second = producer("tx-fence-id")
            second.begin_transaction()
            second.produce("tx-fence", b"winner", partition=0)
            second.commit_transaction(30)
            try:
                first.produce("tx-fence", b"zombie-2", partition=0)
                first.commit_transaction(30)
                raise AssertionError("the fenced producer committed")
            except KafkaException as e:
                err = e.args[0]
                assert err.fatal() or err.code() in (KafkaError._FENCED, KafkaError.PRODUCER_FENCED,
                                                     KafkaError.INVALID_PRODUCER_EPOCH), err
            values = read_all(bootstrap, "tx-fence", 1, "read_committed")
            assert values == ["winner"], values

        def timed_out_transaction_is_aborted():
            create("tx-timeout", 1)
            p = producer("tx-timeout-id", **{"transaction.timeout.ms": 2000})
            p.begin_transaction()
            p.produce("tx-timeout", b"late", partition=0)
            p.flush(30)
            # The coordinator aborts it after 2 s; read_committed readers move past it.
            plain = Producer({"bootstrap.servers": bootstrap})
            plain.produce("tx-timeout", b"after", partition=0)
            plain.flush(30)
            values = wait_for("the timed-out transaction's abort",
                              lambda: read_all(bootstrap, "tx-timeout", 1, "read_committed", expect=1,
                                               timeout=2) or None, timeout=30)
            assert values == ["after"], values
            try:
                p.commit_transaction(30)
                raise AssertionError("a timed-out transaction committed")
            except KafkaException as e:
                assert e.args[0].code() != KafkaError.NO_ERROR, e
            assert read_all(bootstrap, "tx-timeout", 1, "read_committed") == ["after"]

        return run_checks("python", [
            ("commit_and_abort", commit_and_abort),
            ("consume_transform_produce", consume_transform_produce),
            ("fenced_by_a_second_producer", fenced_by_a_second_producer),
            ("timed_out_transaction_is_aborted", timed_out_transaction_is_aborted),
        ])
    finally:
        node.kill()
        node.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
