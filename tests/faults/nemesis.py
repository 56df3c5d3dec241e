"""The nemeses: each takes the cluster, a seeded random source and how long to hold the fault,
applies it, holds it, heals it, and returns what it did (logged into the history as a start
and an end event of process "nemesis"). Targets (the active controller, a partition's leader,
a coordinator) are found by asking the cluster as a client would.

What each needs of this machine is in tests/faults/README.md; every one of them runs here."""

import json
import os
import signal
import time

TOPIC = "queue"
TXN_ID = "jepsen-txn-0"
GROUPS = ["jepsen-txn-consumer", "jepsen-idem-consumer"]


def _pick(rng, items):
    items = sorted(items)
    return items[rng.randrange(len(items))] if items else None


def _cut_groups(c, a, b):
    for x in a:
        for y in b:
            c.net.cut(x, y)


def _hold(seconds):
    time.sleep(seconds)


def partition_halves(c, rng, hold):
    ids = sorted(c.nodes)
    rng.shuffle(ids)
    a, b = sorted(ids[: len(ids) // 2]), sorted(ids[len(ids) // 2:])
    _cut_groups(c, a, b)
    _hold(hold)
    c.net.heal()
    return {"halves": [a, b]}


def partition_majority(c, rng, hold):
    """One controller (and one broker-only node, if any) apart from everything else."""
    minority = [_pick(rng, [n.id for n in c.controllers])]
    only_brokers = [n.id for n in c.brokers if not n.controller]
    if only_brokers:
        minority.append(_pick(rng, only_brokers))
    majority = [i for i in c.nodes if i not in minority]
    _cut_groups(c, minority, majority)
    _hold(hold)
    c.net.heal()
    return {"minority": minority, "majority": majority}


def partition_controller(c, rng, hold):
    active = c.active_controller()
    if active is None:
        return {"skipped": "no active controller found"}
    _cut_groups(c, [active], [i for i in c.nodes if i != active])
    _hold(hold)
    c.net.heal()
    return {"isolated": active}


def _leader(c, rng):
    parts = {p: v for p, v in c.describe(TOPIC).items() if v[0] in c.nodes}
    if not parts:
        return None, None
    p = _pick(rng, parts)
    return p, parts[p][0]


def partition_leader(c, rng, hold):
    """A partition leader cut off from every other node; the clients still reach it."""
    p, leader = _leader(c, rng)
    if leader is None:
        return {"skipped": "no partition with a leader"}
    _cut_groups(c, [leader], [i for i in c.nodes if i != leader])
    _hold(hold)
    c.net.heal()
    return {"partition": p, "leader": leader}


def partition_bridge(c, rng, hold):
    """One node sees both sides; the two sides do not see each other."""
    ids = sorted(c.nodes)
    rng.shuffle(ids)
    bridge, rest = ids[0], ids[1:]
    a, b = sorted(rest[: len(rest) // 2]), sorted(rest[len(rest) // 2:])
    _cut_groups(c, a, b)
    _hold(hold)
    c.net.heal()
    return {"bridge": bridge, "sides": [a, b]}


def partition_oneway(c, rng, hold):
    """Packets from one node to another are dropped; the other way they pass."""
    src = _pick(rng, c.nodes)
    dst = _pick(rng, [i for i in c.nodes if i != src])
    c.net.drop(src, dst)
    _hold(hold)
    c.net.heal()
    return {"from": src, "to": dst}


def slow_link(c, rng, hold):
    """One node's outgoing link at 200 kbit/s with a 20-packet queue: delay and loss."""
    n = _pick(rng, c.nodes)
    c.net.slow(n)
    _hold(hold)
    c.net.heal()
    return {"node": n, "rate": "200kbit", "queue": 20}


def reorder_link(c, rng, hold):
    """One node's outgoing segments reordered: half of them through a 10 Mbit/s lane."""
    n = _pick(rng, c.nodes)
    c.net.reorder(n)
    _hold(hold)
    seen = c.net.reordering_seen(n)
    c.net.heal()
    return {"node": n, "slow_lane": "10mbit", "selector": "tcp seq bit 10", "reord_seen": seen}


def _pause(c, node, hold):
    c.nodes[node].signal(signal.SIGSTOP)
    _hold(hold)
    c.nodes[node].signal(signal.SIGCONT)


def pause_leader(c, rng, hold):
    p, leader = _leader(c, rng)
    if leader is None:
        return {"skipped": "no partition with a leader"}
    _pause(c, leader, hold)
    return {"partition": p, "paused": leader}


def pause_controller(c, rng, hold):
    active = c.active_controller()
    if active is None:
        return {"skipped": "no active controller found"}
    _pause(c, active, hold)
    return {"paused": active}


def pause_coordinator(c, rng, hold):
    """The transaction coordinator of the first transactional id, or the group coordinator
    of the transactional KIP-848 group (KAFKA-17754's case: a delayed EndTxn)."""
    if rng.random() < 0.5:
        what, node = "transaction", c.coordinator("__transaction_state", TXN_ID)
    else:
        group = rng.choice(GROUPS)
        what, node = f"group {group}", c.coordinator("__consumer_offsets", group)
    if node is None:
        return {"skipped": f"no {what} coordinator found"}
    _pause(c, node, hold)
    return {"coordinator": what, "paused": node}


def kill(c, rng, hold):
    n = _pick(rng, c.nodes)
    c.nodes[n].kill()
    _hold(hold)
    c.nodes[n].start()
    c.nodes[n].wait_ready()
    return {"killed": n}


def clock_step(c, rng, hold):
    """One node's wall clock stepped forward, then back (a backward step to true time)."""
    n = _pick(rng, c.nodes)
    step = rng.choice([60, 300, 3600])
    if not c.fakes_clock:
        return {"skipped": "no libfaketime in this target's nodes (see README)", "node": n}
    c.nodes[n].step_clock(f"+{step}s")
    _hold(hold / 2)
    c.nodes[n].step_clock("-0s" if rng.random() < 0.5 else f"-{step}s")
    _hold(hold / 2)
    c.nodes[n].step_clock("+0")
    return {"node": n, "forward_s": step}


def _disk_fault(c, rng, hold, points, errno, syscalls=()):
    """libfiu failure points (and, with `syscalls`, those raw system calls through strace) on
    one broker for `hold`, then the node restarted (an operator replaces the disk: a log dir
    that failed stays offline until then)."""
    n = _pick(rng, [b.id for b in c.brokers])
    node = c.nodes[n]
    for p in points:
        node.fiu(f"enable name={p},failinfo={errno}")
    if syscalls:
        node.inject(syscalls, "EIO")
    _hold(hold)
    node.uninject()
    died = not node.alive()
    if not died:
        for p in points:
            node.fiu(f"disable name={p}")
    c.restart(node)
    return {"node": n, "points": points, "syscalls": list(syscalls), "errno": errno,
            "node_exited": died}


def disk_eio_write(c, rng, hold):
    """EIO from positional writes: pwrite through libfiu (the indexes, the checkpoints; Kafka's
    FileChannel writes) and, on fjord, the log's segment writes, raw pwritev system calls
    (rustix) that no preload sees, through strace's fault injection. Plain write() is left
    alone: libfiu answers its own control fifo with it, and sockets use it."""
    syscalls = () if c.java else ("pwritev",)
    return _disk_fault(c, rng, hold, ["posix/io/rw/pwrite"], 5, syscalls)


def disk_eio_fsync(c, rng, hold):
    return _disk_fault(c, rng, hold, ["posix/io/sync/fsync", "posix/io/sync/fdatasync"], 5)


def disk_full(c, rng, hold):
    """One broker's disk (a tmpfs of its own) filled to its last 64 KiB: real ENOSPC on every
    write, the log's own pwritev included; then emptied and the node restarted."""
    n = _pick(rng, [b.id for b in c.brokers])
    node = c.nodes[n]
    node.fill_disk()
    _hold(hold)
    died = not node.alive()
    node.free_disk()
    c.restart(node)
    return {"node": n, "node_exited": died}


def reassign(c, rng, hold):
    """A broker drained by reassignment while the workload runs, then given its replicas
    back."""
    parts = c.describe(TOPIC)
    b = _pick(rng, [n.id for n in c.brokers])
    others = [n.id for n in c.brokers if n.id != b]
    before = {p: v[1] for p, v in parts.items()}
    after = {}
    for p, replicas in before.items():
        if b in replicas:
            spare = [o for o in others if o not in replicas]
            after[p] = [spare[0] if r == b else r for r in replicas] if spare else replicas
    if not after:
        return {"skipped": f"broker {b} holds no replica"}

    def move(plan):
        path = os.path.join(c.dir, "reassign.json")
        with open(path, "w") as f:
            json.dump({"version": 1, "partitions": [
                {"topic": TOPIC, "partition": p, "replicas": r} for p, r in plan.items()]}, f)
        c.run_tool("kafka-reassign-partitions", "--bootstrap-server", c.live_bootstrap(),
                   "--reassignment-json-file", path, "--execute", timeout=30)
        deadline = time.monotonic() + hold
        while time.monotonic() < deadline:
            out = c.run_tool("kafka-reassign-partitions", "--bootstrap-server", c.live_bootstrap(),
                             "--reassignment-json-file", path, "--verify", check=False,
                             timeout=30)
            if "is still in progress" not in out:
                return True
            time.sleep(1)
        return False

    drained = move(after)
    restored = move({p: before[p] for p in after})
    return {"broker": b, "moved": sorted(after), "drained": drained, "restored": restored}


def controller_membership(c, rng, hold):
    """A voter that is not the active controller removed from the quorum, stopped and
    unregistered (KIP-1312), then started again and added back (KIP-853)."""
    active = c.active_controller()
    candidates = [n.id for n in c.controllers if n.id != active]
    x = _pick(rng, candidates)
    if x is None:
        return {"skipped": "no voter but the active one"}
    node = c.nodes[x]
    steps = {}
    out = c.run_tool("kafka-metadata-quorum", "--bootstrap-controller", c.controller_bootstrap(),
                     "remove-controller", "--controller-id", str(x),
                     "--controller-directory-id", node.dir_id, check=False, timeout=30)
    steps["removed"] = out.strip()[-200:]
    node.kill()
    out = c.run_tool("kafka-cluster", "unregister-controller", "--bootstrap-server",
                     c.live_bootstrap(), "--controller-id", str(x), check=False, timeout=30)
    steps["unregistered"] = out.strip()[-200:]
    _hold(hold / 2)
    node.start()
    node.wait_ready()
    deadline = time.monotonic() + hold
    while time.monotonic() < deadline:
        out = c.run_tool("kafka-metadata-quorum", "--bootstrap-controller",
                         c.controller_bootstrap(), "--command-config", node.props,
                         "add-controller", check=False, timeout=30)
        if "Added controller" in out:
            break
        time.sleep(1)
    steps["added"] = out.strip()[-200:]
    return {"controller": x, **steps}


NEMESES = {
    "partition-halves": partition_halves,
    "partition-majority": partition_majority,
    "partition-controller": partition_controller,
    "partition-leader": partition_leader,
    "partition-bridge": partition_bridge,
    "partition-oneway": partition_oneway,
    "slow-link": slow_link,
    "reorder-link": reorder_link,
    "pause-leader": pause_leader,
    "pause-controller": pause_controller,
    "pause-coordinator": pause_coordinator,
    "kill": kill,
    "clock-step": clock_step,
    "disk-eio-write": disk_eio_write,
    "disk-eio-fsync": disk_eio_fsync,
    "disk-full": disk_full,
    "reassign": reassign,
    "controller-membership": controller_membership,
}
