"""The nodes of a run, each a real server process in its own namespace: fjord (the binary) or
Apache Kafka 4.4 (the jars tests/kafka/kafka.sh fetches), in the same layouts with the same
settings, so that one schedule runs on both.

Layouts: `combined` is three nodes with both roles plus two broker-only nodes; `split` is
three controller-only nodes and three broker-only nodes. The quorum is dynamic (KIP-853,
`controller.quorum.bootstrap.servers`), so a nemesis can remove and add a controller.

Every node starts with libfaketime (its wall clock can be stepped; the monotonic clock is
left alone) and libfiu's POSIX preload (failures of fdatasync/fsync and pwrite can be turned
on through its control fifo), and keeps its data on a tmpfs of its own (a full disk is real
ENOSPC)."""

import os
import re
import signal
import subprocess
import time

from netns import sh

FAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
FAKETIME_MT = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1"
FIU = "/usr/lib/fiu"
BROKER_PORT = 9092
CONTROLLER_PORT = 9093
# Each node's data dir is a tmpfs of this size (MiB).
DISK_MB = 512


class Node:
    """One server process: its id, roles, namespace host and files."""

    def __init__(self, cluster, nid, roles):
        self.cluster = cluster
        self.id = nid
        self.roles = roles
        self.dir = os.path.join(cluster.dir, f"node-{nid}")
        self.data = os.path.join(self.dir, "data")
        self.props = os.path.join(self.dir, "server.properties")
        self.clock = os.path.join(self.dir, "faketime")
        self.fifo = os.path.join(self.dir, "fiu-ctrl")
        self.proc = None
        self.log = None
        self.dir_id = None
        self.paused = False

    @property
    def addr(self):
        return self.cluster.net.addr(self.id)

    @property
    def broker(self):
        return "broker" in self.roles

    @property
    def controller(self):
        return "controller" in self.roles

    def env(self):
        preload = [f"{FIU}/fiu_run_preload.so", f"{FIU}/fiu_posix_preload.so"]
        if self.cluster.fakes_clock:
            preload.append(FAKETIME)
        return {
            "LD_PRELOAD": " ".join(preload),
            "FIU_CTRL_FIFO": self.fifo,
            "FIU_ENABLE": "",
            "FAKETIME_TIMESTAMP_FILE": self.clock,
            "FAKETIME_CACHE_DURATION": "1",
            "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            # fjord's log filter (tracing's EnvFilter), passed through: RUST_LOG=debug.
            "RUST_LOG": os.environ.get("RUST_LOG", "info"),
        }

    def start(self):
        with open(self.clock, "w") as f:
            f.write("+0\n")
        self.log = open(os.path.join(self.dir, "node.log"), "ab")
        env = [f"{k}={v}" for k, v in self.env().items()]
        cmd = ["ip", "netns", "exec", self.cluster.net.ns(self.id), "env", *env,
               *self.cluster.command(self)]
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def inject(self, syscalls, errno_name):
        """Fails every one of the process's `syscalls` with `errno_name` until `uninject`:
        strace's fault injection through ptrace, on every thread, so it reaches raw system
        calls that no LD_PRELOAD library sees (fjord's segment writes)."""
        names = ",".join(syscalls)
        self.tracer = subprocess.Popen(
            ["strace", "-f", "-qq", "-o", "/dev/null", "-p", str(self.proc.pid),
             "-e", f"trace={names}", "-e", f"inject={names}:error={errno_name}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def uninject(self):
        """Detaches `inject`'s tracer (the process goes on untraced)."""
        tracer = getattr(self, "tracer", None)
        if tracer is not None:
            tracer.terminate()
            tracer.wait()
            self.tracer = None

    def signal(self, sig):
        if self.alive():
            os.kill(self.proc.pid, sig)
            if sig == signal.SIGSTOP:
                self.paused = True
            elif sig in (signal.SIGCONT, signal.SIGKILL):
                self.paused = False

    def kill(self):
        self.signal(signal.SIGCONT)
        self.signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait()

    def wait_ready(self, timeout=90):
        """Until the node accepts connections from the clients' namespace."""
        port = BROKER_PORT if self.broker else CONTROLLER_PORT
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise RuntimeError(f"node {self.id} exited: {self.tail()}")
            if self.cluster.net.reaches(self.cluster.client_host, self.id, port):
                return
            time.sleep(0.3)
        raise RuntimeError(f"node {self.id} not ready in {timeout}s: {self.tail()}")

    def tail(self, n=15):
        try:
            with open(os.path.join(self.dir, "node.log"), "rb") as f:
                return b"\n".join(f.read().splitlines()[-n:]).decode(errors="replace")
        except OSError:
            return ""

    def step_clock(self, offset):
        """Steps the node's wall clock to `offset` from real time ("+60s", "-60s", "+0")."""
        with open(self.clock, "w") as f:
            f.write(offset + "\n")

    def fiu(self, command):
        """A libfiu control command for the running process (`enable name=...`)."""
        sh("timeout", "10", "fiu-ctrl", "-f", self.fifo, "-c", command, str(self.proc.pid))

    def mount(self):
        os.makedirs(self.data, exist_ok=True)
        sh("mount", "-t", "tmpfs", "-o", f"size={DISK_MB}m", "tmpfs", self.data)

    def umount(self):
        sh("umount", "-l", self.data, check=False)

    def fill_disk(self, leave_kb=64):
        """Fills the node's disk with a ballast file, then gives back its last `leave_kb` KiB:
        the next writes that need more meet ENOSPC."""
        path = os.path.join(self.data, "ballast")
        chunk = b"\0" * (1 << 20)
        with open(path, "wb") as f:
            try:
                while True:
                    f.write(chunk)
                    f.flush()
            except OSError:
                pass
            try:
                f.truncate(max(0, f.tell() - leave_kb * 1024))
            except OSError:
                pass

    def free_disk(self):
        try:
            os.remove(os.path.join(self.data, "ballast"))
        except FileNotFoundError:
            pass


class Cluster:
    """The nodes of one run and the commands that ask them things."""

    java = False
    # Whether libfaketime is preloaded (the clock-step nemesis needs it).
    fakes_clock = True

    def __init__(self, net, root, layout, tool):
        self.net = net
        self.dir = root
        self.tool = tool
        self.client_host = 100
        if layout == "combined":
            roles = {1: "broker,controller", 2: "broker,controller", 3: "broker,controller",
                     4: "broker", 5: "broker"}
        elif layout == "split":
            roles = {1: "controller", 2: "controller", 3: "controller", 4: "broker",
                     5: "broker", 6: "broker"}
        else:
            raise ValueError(f"unknown layout {layout}")
        self.nodes = {i: Node(self, i, r) for i, r in roles.items()}
        # Nodes killed for good (the unclean-recovery schedules): never restarted.
        self.gone = set()

    @property
    def brokers(self):
        return [n for n in self.nodes.values() if n.broker]

    @property
    def controllers(self):
        return [n for n in self.nodes.values() if n.controller]

    def bootstrap(self):
        """Every broker: what the clients are given."""
        return ",".join(f"{n.addr}:{BROKER_PORT}" for n in self.brokers)

    def live_bootstrap(self):
        """The brokers running and not paused: what the harness's own tool calls are given
        (a paused node accepts connections and never answers; a tool waits out its request
        timeout there before it tries the next)."""
        live = [n for n in self.brokers if n.alive() and not n.paused] or self.brokers
        return ",".join(f"{n.addr}:{BROKER_PORT}" for n in live)

    def controller_bootstrap(self):
        return ",".join(f"{n.addr}:{CONTROLLER_PORT}" for n in self.controllers)

    def properties(self, n):
        lines = [f"node.id={n.id}", f"process.roles={n.roles}"]
        listeners = []
        if n.broker:
            listeners.append(f"PLAINTEXT://{n.addr}:{BROKER_PORT}")
            lines.append(f"advertised.listeners=PLAINTEXT://{n.addr}:{BROKER_PORT}")
        if n.controller:
            listeners.append(f"CONTROLLER://{n.addr}:{CONTROLLER_PORT}")
        lines += [
            "listeners=" + ",".join(listeners),
            "controller.listener.names=CONTROLLER",
            "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
            "inter.broker.listener.name=PLAINTEXT",
            f"controller.quorum.bootstrap.servers={self.controller_bootstrap()}",
            f"log.dirs={n.data}/log",
            "default.replication.factor=3",
            "min.insync.replicas=2",
            "offsets.topic.replication.factor=3",
            "transaction.state.log.replication.factor=3",
            "transaction.state.log.min.isr=2",
            "share.coordinator.state.topic.replication.factor=3",
            "share.coordinator.state.topic.min.isr=2",
            "group.initial.rebalance.delay.ms=0",
            "unclean.leader.election.enable=false",
            # A replica cut off leaves the ISR in 10 s rather than 30 (the unclean-recovery
            # schedules wait for it); the same on both targets.
            "replica.lag.time.max.ms=10000",
        ]
        return "\n".join(lines) + "\n"

    def setup(self):
        """Writes every node's files, mounts its disk and formats it."""
        cluster_id = sh(self.tool, "random-uuid").strip()
        for n in self.nodes.values():
            os.makedirs(n.dir, exist_ok=True)
            n.mount()
            with open(n.props, "w") as f:
                f.write(self.properties(n))
            if n.controller:
                n.dir_id = sh(self.tool, "random-uuid").strip()
        initial = ",".join(f"{n.id}@{n.addr}:{CONTROLLER_PORT}:{n.dir_id}"
                           for n in self.controllers)
        for n in self.nodes.values():
            self.format(n, cluster_id, initial)

    def format(self, n, cluster_id, initial):
        args = [self.tool, "format", "--config", n.props, "--cluster-id", cluster_id]
        if n.controller:
            args += ["--initial-controllers", initial]
        sh(*args)

    def command(self, n):
        return [self.tool, "server", "--config", n.props]

    def start(self):
        for n in self.nodes.values():
            n.start()
        for n in self.nodes.values():
            n.wait_ready()

    def stop(self):
        for n in self.nodes.values():
            n.kill()
            if n.log:
                n.log.close()
        for n in self.nodes.values():
            n.free_disk()
            # The node's data outlives the run (its tmpfs does not): metadata and logs to read.
            if os.path.isdir(n.data):
                subprocess.run(["cp", "-a", n.data, os.path.join(n.dir, "data-kept")],
                               capture_output=True)
            n.umount()

    def restart(self, n):
        n.kill()
        n.start()
        n.wait_ready()

    def run_tool(self, *args, timeout=60, check=True, stderr=False):
        """One of fjord's Kafka tools, run in the clients' namespace: its output (with its
        error output after it, with `stderr`)."""
        cmd = ["ip", "netns", "exec", self.net.ns(self.client_host), "timeout", str(timeout),
               self.tool, *args]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if check and r.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])}: {r.stderr.strip()[-400:]}")
        return r.stdout + (r.stderr if stderr else "")

    def describe(self, topic):
        """Per partition: (leader, replicas, isr) from `kafka-topics --describe`."""
        out = self.run_tool("kafka-topics", "--bootstrap-server", self.live_bootstrap(),
                            "--describe", "--topic", topic, check=False, timeout=20)
        parts = {}
        for line in out.splitlines():
            m = re.search(r"Partition:\s*(\d+)\s+Leader:\s*(-?\d+|none)\s+Replicas:\s*([\d,]*)\s+"
                          r"Isr:\s*([\d,]*)", line)
            if m:
                leader = -1 if m.group(2) == "none" else int(m.group(2))
                ids = lambda s: [int(x) for x in s.split(",") if x]
                parts[int(m.group(1))] = (leader, ids(m.group(3)), ids(m.group(4)))
        return parts

    def active_controller(self):
        out = self.run_tool("kafka-metadata-quorum", "--bootstrap-server", self.live_bootstrap(),
                            "describe", "--status", check=False, timeout=20)
        m = re.search(r"LeaderId:\s*(\d+)", out)
        return int(m.group(1)) if m else None

    def coordinator(self, internal_topic, key):
        """The leader of the internal topic's partition that `key` hashes to (as Java's
        String.hashCode and Utils.abs, over the default 50 partitions)."""
        h = 0
        for ch in key:
            h = (31 * h + ord(ch)) & 0xFFFFFFFF
        if h >= 1 << 31:
            h -= 1 << 32
        h = 0 if h == -(1 << 31) else abs(h)
        leader = self.describe(internal_topic).get(h % 50, (-1,))[0]
        return leader if leader in self.nodes else None


KAFKA_HOME = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "target",
                          "kafka-4.4.0")
LOG4J = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "kafka",
                     "log4j2.properties")


class KafkaCluster(Cluster):
    """Apache Kafka 4.4 in the same layout, with the same settings (its own tools format and
    run it; fjord's tools ask it things, as they ask fjord)."""

    java = True
    fakes_clock = False

    def java_cmd(self, n, main, *args):
        return ["java", "-Xmx512m", "-XX:+UseG1GC", f"-Dlog4j2.configurationFile={LOG4J}",
                f"-Dkafka.logs.dir={n.dir}", "-cp", f"{KAFKA_HOME}/libs/*", main, *args]

    def format(self, n, cluster_id, initial):
        args = ["format", "-t", cluster_id, "-c", n.props]
        if n.controller:
            args += ["--initial-controllers", initial]
        sh(*self.java_cmd(n, "kafka.tools.StorageTool", *args))

    def command(self, n):
        return self.java_cmd(n, "kafka.Kafka", n.props)
