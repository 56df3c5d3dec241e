"""The harness's network: one namespace per node and one for the clients, each joined by a veth
pair to a bridge in a namespace of its own. Addresses (198.18.0.0/24, the range RFC 2544 sets
aside for testing) exist only inside these namespaces: nothing is routed out of them, and the
host's own namespace has no interface on the bridge.

Faults use only what this kernel offers (htb, pfifo, u32; no netem, no tc drop action): every
namespace's eth0 has an htb root whose default class passes everything and whose class 1:99
feeds a `pfifo limit 0`, which holds nothing; a u32 filter on a peer's address sends the
packets for that peer into it. A slow link is the default class's rate cut, with a short
queue (delay, and loss once the queue is full). Reordering splits a node's TCP segments over a
fast and a slow lane by a bit of their sequence number."""

import subprocess

SUBNET = "198.18.0"
CLIENT_HOST = 100
FULL_RATE = "10gbit"


def sh(*args, check=True, quiet=False):
    """Runs a command; its output when it succeeds."""
    r = subprocess.run(args, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {r.stderr.strip() or r.stdout.strip()}")
    return r.stdout


class Net:
    """The namespaces of one run, named after its tag."""

    def __init__(self, tag, hosts):
        self.tag = tag
        self.hosts = list(hosts) + [CLIENT_HOST]
        self.bridge_ns = f"fj{tag}br"
        self.blocked = set()

    def ns(self, host):
        return f"fj{self.tag}h{host}"

    @staticmethod
    def addr(host):
        return f"{SUBNET}.{host}"

    def up(self):
        sh("ip", "netns", "add", self.bridge_ns)
        sh("ip", "-n", self.bridge_ns, "link", "add", "b0", "type", "bridge")
        sh("ip", "-n", self.bridge_ns, "link", "set", "b0", "up")
        sh("ip", "-n", self.bridge_ns, "link", "set", "lo", "up")
        for h in self.hosts:
            ns = self.ns(h)
            sh("ip", "netns", "add", ns)
            sh("ip", "link", "add", f"fj{self.tag}v{h}", "netns", self.bridge_ns, "type", "veth",
               "peer", "name", "eth0", "netns", ns)
            sh("ip", "-n", self.bridge_ns, "link", "set", f"fj{self.tag}v{h}", "master", "b0")
            sh("ip", "-n", self.bridge_ns, "link", "set", f"fj{self.tag}v{h}", "up")
            sh("ip", "-n", ns, "link", "set", "lo", "up")
            sh("ip", "-n", ns, "addr", "add", f"{self.addr(h)}/24", "dev", "eth0")
            sh("ip", "-n", ns, "link", "set", "eth0", "up")
            self._qdisc(h)

    def _qdisc(self, h, rate=FULL_RATE, limit=1000):
        ns = self.ns(h)
        sh("tc", "-n", ns, "qdisc", "del", "dev", "eth0", "root", check=False)
        sh("tc", "-n", ns, "qdisc", "add", "dev", "eth0", "root", "handle", "1:", "htb",
           "default", "1")
        sh("tc", "-n", ns, "class", "replace", "dev", "eth0", "parent", "1:", "classid", "1:1",
           "htb", "rate", rate, "ceil", rate)
        sh("tc", "-n", ns, "qdisc", "replace", "dev", "eth0", "parent", "1:1", "handle", "10:",
           "pfifo", "limit", str(limit))
        sh("tc", "-n", ns, "class", "replace", "dev", "eth0", "parent", "1:", "classid", "1:99",
           "htb", "rate", "8bit", "ceil", "8bit")
        sh("tc", "-n", ns, "qdisc", "replace", "dev", "eth0", "parent", "1:99", "handle", "99:",
           "pfifo", "limit", "0")

    def drop(self, src, dst):
        """Packets from `src` to `dst` go nowhere (one way)."""
        if (src, dst) in self.blocked:
            return
        prio = 100 + len(self.blocked)
        sh("tc", "-n", self.ns(src), "filter", "add", "dev", "eth0", "parent", "1:", "protocol",
           "ip", "prio", str(prio), "u32", "match", "ip", "dst", f"{self.addr(dst)}/32",
           "flowid", "1:99")
        self.blocked.add((src, dst))

    def cut(self, a, b):
        """No packet between `a` and `b`, either way."""
        self.drop(a, b)
        self.drop(b, a)

    def slow(self, host, rate="200kbit", limit=20):
        """`host`'s outgoing link at `rate` with a short queue: delay, and loss once it fills."""
        self._qdisc(host, rate=rate, limit=limit)

    def reorder(self, host, rate="10mbit"):
        """`host`'s outgoing TCP segments split over two lanes by bit 10 of their sequence
        number: one at full rate, one at `rate` behind a long queue. A segment in the slow lane
        is overtaken by the next one in the fast lane, so peers receive the flow out of order
        (what netem's reordering gives; measured: TCP counts reordering on the flow)."""
        ns = self.ns(host)
        sh("tc", "-n", ns, "class", "replace", "dev", "eth0", "parent", "1:", "classid", "1:2",
           "htb", "rate", rate, "ceil", rate, "burst", "1600b", "cburst", "1600b")
        sh("tc", "-n", ns, "qdisc", "replace", "dev", "eth0", "parent", "1:2", "handle", "20:",
           "pfifo", "limit", "1000")
        # Offset 24: the TCP sequence number behind a 20-byte IP header.
        sh("tc", "-n", ns, "filter", "add", "dev", "eth0", "parent", "1:", "protocol", "ip",
           "prio", "50", "u32", "match", "ip", "protocol", "6", "0xff", "match", "u32",
           "0x00000400", "0x00000400", "at", "24", "flowid", "1:2")

    def reordering_seen(self, host):
        """The reordering events TCP counted on `host`'s open connections (`ss -ti`'s
        reord_seen), the evidence that `reorder` took effect."""
        out = sh("ip", "netns", "exec", self.ns(host), "ss", "-tiH", check=False)
        return sum(int(w.split(":")[1]) for w in out.split() if w.startswith("reord_seen:"))

    def heal(self):
        """Every link whole again and at full rate."""
        for h in self.hosts:
            self._qdisc(h)
        self.blocked.clear()

    def down(self):
        """Removes every namespace of the run (idempotent)."""
        for ns in [self.ns(h) for h in self.hosts] + [self.bridge_ns]:
            sh("ip", "netns", "del", ns, check=False)

    def reaches(self, src, dst, port):
        """Whether a TCP connection from `src`'s namespace to `dst`:`port` opens."""
        r = subprocess.run(
            ["ip", "netns", "exec", self.ns(src), "timeout", "2", "bash", "-c",
             f"exec 3<>/dev/tcp/{self.addr(dst)}/{port}"],
            capture_output=True)
        return r.returncode == 0


def _running(tag):
    """Whether the harness whose pid gave `tag` still runs (its namespaces are its own)."""
    try:
        with open(f"/proc/{int(tag)}/cmdline", "rb") as f:
            return b"harness.py" in f.read()
    except (OSError, ValueError):
        return False


def leftovers():
    """Namespaces an earlier run left (a run killed before its trap ran); those of a run
    still going are left alone."""
    out = sh("ip", "netns", "list", check=False)
    names = [line.split()[0] for line in out.splitlines() if line.startswith("fj")]
    return [n for n in names if not _running(n[2:].split("h")[0].split("br")[0])]
