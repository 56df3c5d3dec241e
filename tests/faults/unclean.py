"""The mission's tool inside the faults: every in-sync replica of a partition killed for good
while the workload writes to it, then `kafka-unclean-recovery` elects the replica that is
left, once (`--automated-recovery`) or as a watcher started with the run (`--watch`).

The victim is partition 0 of the workload's topic, created by the harness with replicas
[A, B, S]: S (the survivor) is first paused until it leaves the ISR, the workload keeps
writing (acknowledged by A and B alone), then A and B are killed for good and S resumes. Every acknowledged write S never had is lost; the checker then holds the tool to
what it announced (announcement.json, read from the tool's own table): every lost write and
every offset given out twice must lie in a range it said is truncated or unknown, or within
its acknowledged-loss figure."""

import json
import os
import re
import signal
import subprocess
import time

import nemesis

PARTITION = 0
# Seconds between the two looks that must both find a transaction hanging before it is aborted.
CONFIRM_S = 3


def victims(c):
    """(A, B, S): two brokers to kill for good and the survivor, chosen so that no more than
    one controller dies (the quorum must survive)."""
    only = [n.id for n in c.brokers if not n.controller]
    both = [n.id for n in c.brokers if n.controller]
    if len(only) >= 3:
        return only[0], only[1], only[2]
    return only[0], only[1], both[0]


def create_topic(run):
    """The workload's topic, with partition 0 on [A, B, S]; the other partitions spread over
    every broker (those that lose their ISR too are recovered with it)."""
    c = run.cluster
    a, b, s = victims(c)
    brokers = sorted(n.id for n in c.brokers)
    rows = [f"{a}:{b}:{s}"]
    for p in range(1, run.args.keys):
        rows.append(":".join(str(brokers[(p + i) % len(brokers)]) for i in range(3)))
    c.run_tool("kafka-topics", "--bootstrap-server", c.live_bootstrap(), "--create", "--topic",
               nemesis.TOPIC, "--replica-assignment", ",".join(rows), "--config",
               "min.insync.replicas=2", timeout=60)


def wait_for(what, test, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = test()
        if v:
            return v
        time.sleep(0.5)
    raise RuntimeError(f"timed out waiting for {what}")


def kill_isr(run, hold):
    """Pauses S until it leaves the ISR (a network cut would also cut A and B off from the
    active controller when S is it), lets the workload write, kills A and B for good, resumes
    S. Returns what happened."""
    c = run.cluster
    a, b, s = victims(c)
    c.nodes[s].signal(signal.SIGSTOP)
    try:
        wait_for(f"broker {s} to leave the ISR of partition {PARTITION}",
                 lambda: s not in c.describe(nemesis.TOPIC).get(PARTITION, (0, [], [s]))[2], 90)
        time.sleep(hold)
        for x in (a, b):
            c.gone.add(x)
            c.nodes[x].kill()
        killed_ms = int(time.time() * 1000)
    finally:
        c.nodes[s].signal(signal.SIGCONT)
    wait_for(f"partition {PARTITION} to go offline",
             lambda: c.describe(nemesis.TOPIC).get(PARTITION, (0,))[0] == -1, 60)
    return {"killed_for_good": [a, b], "survivor": s, "killed_ms": killed_ms}


def find_hanging(c, cutoff_ms):
    """Every hanging transaction `kafka-transactions find-hanging` reports on the live brokers
    whose producer last wrote before `cutoff_ms` (wall clock): {(topic, partition, producer,
    start offset)}. The tool fails while a broker that may coordinate one does not answer
    (a shard loading after the recovery); it is asked again until it answers."""
    found = set()
    # What the tools saw, for the run's directory: the producers of partition 0 and every
    # transaction's coordinator state.
    seen = [c.run_tool("kafka-transactions", "--bootstrap-server", c.live_bootstrap(),
                       "describe-producers", "--topic", nemesis.TOPIC, "--partition",
                       str(PARTITION), check=False, stderr=True, timeout=60),
            c.run_tool("kafka-transactions", "--bootstrap-server", c.live_bootstrap(), "list",
                       check=False, stderr=True, timeout=60)]
    with open(os.path.join(c.dir, "find-hanging.log"), "a") as f:
        f.write(f"--- at {int(time.time() * 1000)}\n" + "\n".join(seen) + "\n")
    for n in c.brokers:
        if not n.alive() or n.id in c.gone:
            continue
        deadline = time.monotonic() + 60
        while True:
            out = c.run_tool("kafka-transactions", "--bootstrap-server", c.live_bootstrap(),
                             "find-hanging", "--broker-id", str(n.id),
                             "--max-transaction-timeout", "0", check=False, stderr=True,
                             timeout=90)
            with open(os.path.join(c.dir, "find-hanging.log"), "a") as f:
                f.write(f"--- broker {n.id} at {int(time.time() * 1000)}\n{out}\n")
            if out.startswith("Topic"):
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"find-hanging on broker {n.id} kept failing: {out[-400:]}")
            time.sleep(1)
        for line in out.splitlines()[1:]:
            cols = line.split()
            if len(cols) < 7 or not cols[1].isdigit() or not cols[6].isdigit():
                continue
            if int(cols[6]) < cutoff_ms:
                found.add((cols[0], int(cols[1]), int(cols[2]), int(cols[5])))
    return found


def abort_hanging(c, cutoff_ms):
    """What the operator does next when read_committed consumers stall (docs/EXTENSIONS.md,
    "Hanging transactions after a recovery"): every transaction open in a partition of a live
    broker that its coordinator does not hold there is aborted, as `kafka-transactions`
    finds and aborts them (KIP-664). Only transactions last written before the ISR was killed
    (`cutoff_ms`) and found hanging twice, `CONFIRM_S` apart, are aborted: `find-hanging
    --max-transaction-timeout 0` also lists a live transaction whose coordinator has just
    moved, and aborting it loses what its producer then commits. Returns what was aborted."""
    first = find_hanging(c, cutoff_ms)
    if first:
        time.sleep(CONFIRM_S)
        first &= find_hanging(c, cutoff_ms)
    aborted = []
    for topic, partition, producer, start in sorted(first):
        out = c.run_tool("kafka-transactions", "--bootstrap-server", c.live_bootstrap(), "abort",
                         "--topic", topic, "--partition", str(partition), "--start-offset",
                         str(start), check=False, stderr=True, timeout=60)
        aborted.append({"topic": topic, "partition": partition, "producer": producer,
                        "start_offset": start, "answer": out.strip()[-200:]})
    return aborted


def announce_aborted(ann, parts, aborted):
    """Adds to the checker's announcement what aborting hanging transactions may lose outside
    the recovered partitions: such a transaction hangs because its coordinator's
    `__transaction_state` partition was recovered without it (the tool announced that
    partition's data as unknown), so it may have been committed; what it wrote, from its
    first offset on, is of unknown fate."""
    recovered = {p["partition"] for p in parts}
    by_key = {p["key"]: p for p in ann["partitions"]}
    for a in aborted:
        if a["topic"] != nemesis.TOPIC or a["partition"] in recovered:
            continue
        p = by_key.setdefault(a["partition"], {"key": a["partition"], "truncated": [],
                                               "unknown": [], "acknowledged_lost": 0})
        p["unknown"].append([a["start_offset"], None])
    ann["partitions"] = sorted(by_key.values(), key=lambda p: p["key"])
    return ann


def online(c):
    parts = c.describe(nemesis.TOPIC)
    return bool(parts) and all(v[0] != -1 for v in parts.values())


# The internal topics whose partitions may be left with one live replica by the kill.
INTERNAL_TOPICS = ("__transaction_state", "__consumer_offsets", "__share_group_state")


def writable_again(c):
    """What an operator does next: the recovered partitions have one replica, so the
    topics' minimum ISR goes to 1 and writes resume (offsets past the new leader's log end
    are given out again). The internal topics too: a coordinator whose partition has one
    live replica writes nothing below its min ISR (as Kafka's), so no transaction it
    coordinates can end, not even by its timeout, until it may write again."""
    for topic in (nemesis.TOPIC, *INTERNAL_TOPICS):
        c.run_tool("kafka-configs", "--bootstrap-server", c.live_bootstrap(), "--alter",
                   "--entity-type", "topics", "--entity-name", topic, "--add-config",
                   "min.insync.replicas=1", check=False, timeout=30)


def parse_table(text):
    """The announcement in the tool's printed table and cost lines: per partition, each
    answering replica's log end offset and how much it truncates, the chosen leader, the
    acknowledged-loss figure and the brokers whose data is unknown."""
    parts = []
    cur = None
    for line in text.splitlines():
        line = re.sub(r"^\[[^\]]*\] ", "", line)
        m = re.search(r"^\s*Partition ([\w.-]+)-(\d+) is offline", line)
        if m:
            # Only the workload's topic is announced to the checker; the internal topics'
            # partitions recovered with it are read and left out.
            cur = {"topic": m.group(1), "partition": int(m.group(2)), "rows": {},
                   "chosen": None, "lost": None, "unknown": []}
            if m.group(1) == nemesis.TOPIC:
                parts.append(cur)
            continue
        if cur is None:
            continue
        cols = line.split()
        if len(cols) >= 8 and cols[0].isdigit() and cols[1] in ("answered", "Answered", "live",
                                                               "leader", "follower"):
            cur["rows"][int(cols[0])] = {"leo": _int(cols[4]), "hw": _int(cols[5]),
                                         "truncates": cols[7]}
        m = re.search(r"broker (\d+) truncates 0 records \(the new leader\)", line)
        if m:
            cur["chosen"] = int(m.group(1))
        for m in re.finditer(r"broker (\d+) truncates (>=)?(\d+|unknown) records?", line):
            row = cur["rows"].setdefault(int(m.group(1)), {"leo": None, "truncates": None})
            row["truncates"] = (m.group(2) or "") + m.group(3)
        m = re.search(r"Acknowledged records known lost: (\d+|unknown)", line)
        if m:
            cur["lost"] = None if m.group(1) == "unknown" else int(m.group(1))
        m = re.search(r"a lower bound: what (.*) held is unknown", line)
        if m:
            cur["unknown"] = [int(x) for x in re.findall(r"broker (\d+)", m.group(1))]
        m = re.search(r"Open transactions from offset (\d+):", line)
        if m:
            cur["open_from"] = int(m.group(1))
    return parts


def _int(s):
    try:
        return int(s)
    except ValueError:
        return None


def announcement(parts):
    """The checker's announcement from the parsed table: a replica that truncates n records
    from its log end e announces [e - n, e) (a count it could not give, from the new leader's
    high watermark on); brokers whose data is unknown announce everything past the new
    leader's high watermark (what it held past that, transactions whose markers only those
    brokers had among it, was not known to it to be committed); the acknowledged-loss figure
    is carried as it is; transactions the new leader holds open announce what they wrote, from
    their first offset on."""
    out = []
    for p in parts:
        row = p["rows"].get(p["chosen"], {})
        marks = [x for x in (row.get("hw"), row.get("leo")) if x is not None]
        chosen = min(marks) if marks else None
        truncated, unknown = [], []
        for b, row in p["rows"].items():
            t, leo = row.get("truncates"), row.get("leo")
            if b == p["chosen"] or t in (None, "0", "-"):
                continue
            if t.isdigit() and leo is not None:
                truncated.append([leo - int(t), leo])
            elif chosen is not None:
                unknown.append([chosen, None])
        if p["unknown"] and chosen is not None:
            unknown.append([chosen, None])
        # Transactions open on the new leader: what they wrote is of unknown fate.
        if p.get("open_from") is not None:
            unknown.append([p["open_from"], None])
        out.append({"key": p["partition"], "truncated": truncated, "unknown": unknown,
                    "acknowledged_lost": p["lost"] or 0})
    return {"partitions": out}


def finish(run, what, parts):
    """Writes the checker's announcement (the tool's), aborts the hanging transactions, then
    adds what the aborts may lose. The tool's announcement stands even when the aborts could
    not be made."""
    path = os.path.join(run.out, "announcement.json")
    with open(path, "w") as f:
        json.dump(announcement(parts), f, indent=1)
    aborted = abort_hanging(run.cluster, what["killed_ms"])
    with open(path, "w") as f:
        json.dump(announce_aborted(announcement(parts), parts, aborted), f, indent=1)
    return {**what, "announced": parts, "aborted_hanging": aborted}


class Automated:
    """`kafka-unclean-recovery --automated-recovery` once the partition is offline."""

    def prepare(self, run):
        create_topic(run)

    def run(self, run, hold):
        what = kill_isr(run, hold)
        c = run.cluster
        # Every offline partition: the internal topics' partitions whose ISR died too (a
        # transaction coordinator's, a group coordinator's) are recovered with the workload's.
        out = c.run_tool("kafka-unclean-recovery", "--bootstrap-server", c.live_bootstrap(),
                         "--all-offline-partitions", "--automated-recovery", "--allow-offset-reuse",
                         "--deadline-ms", "10000", check=False, stderr=True, timeout=120)
        with open(os.path.join(run.out, "recovery.log"), "w") as f:
            f.write(out)
        parts = parse_table(out)
        wait_for("every partition to have a leader again", lambda: online(c), 60)
        writable_again(c)
        return finish(run, what, parts)


class Watch:
    """`kafka-unclean-recovery --watch` running from the start of the run (Proactive)."""

    proc = None

    def prepare(self, run):
        create_topic(run)
        c = run.cluster
        self.log = os.path.join(run.out, "recovery.log")
        cmd = ["ip", "netns", "exec", c.net.ns(c.client_host), c.tool, "kafka-unclean-recovery",
               "--bootstrap-server", c.live_bootstrap(), "--watch",
               "--default-strategy", "Proactive", "--poll-interval-ms", "2000",
               "--deadline-ms", "10000"]
        self.proc = subprocess.Popen(cmd, stdout=open(self.log, "w"), stderr=subprocess.STDOUT)

    def run(self, run, hold):
        what = kill_isr(run, hold)
        c = run.cluster
        wait_for("the watcher to give every partition a leader", lambda: online(c), 90)
        writable_again(c)
        time.sleep(1)
        self.proc.terminate()
        self.proc.wait(timeout=10)
        with open(self.log) as f:
            parts = parse_table(f.read())
        return finish(run, what, parts)


SCHEDULES = {"unclean-automated": Automated(), "unclean-watch": Watch()}
