"""Debian's kcat (librdkafka 2.0.2) against a real `fjord server` node.

Run by .ci/run after `cargo test` (which builds target/debug/fjord), with kcat installed:
    python3 tests/python/kcat_test.py target/debug/fjord
Starts one combined node on free ports on 127.0.0.1, then: `kcat -L` lists the broker,
`kcat -P` produces keyed lines, `kcat -C -e` reads the topic to its end and exits (it hangs if
a partition at its end answers with a null record set), `kcat -C -o -2 -c 2` reads the last two.
Prints a one-line total.
"""

import subprocess
import sys

from admin_test import run_checks, start_node, wait_for


def kcat(*args, stdin=None, timeout=30):
    return subprocess.run(["kcat", *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout, check=True).stdout


def main(binary):
    node, bport, _ = start_node(binary, "fjord-kcat-")
    broker = f"127.0.0.1:{bport}"
    try:
        def metadata():
            out = wait_for("kcat -L", lambda: kcat("-L", "-b", broker, timeout=10))
            assert f"broker 1 at {broker}" in out, out

        def produce():
            lines = "".join(f"key{i}:value-{i}\n" for i in range(100))
            kcat("-P", "-b", broker, "-t", "lines", "-K:", stdin=lines)

        def consume_to_the_end():
            out = kcat("-C", "-b", broker, "-t", "lines", "-e", "-f", "%k=%s\n")
            got = out.splitlines()
            assert got == [f"key{i}=value-{i}" for i in range(100)], got[:5]

        def the_last_two():
            out = kcat("-C", "-b", broker, "-t", "lines", "-o", "-2", "-c", "2", "-f", "%o %s\n")
            assert out.splitlines() == ["98 value-98", "99 value-99"], out

        return run_checks("kcat", [
            ("metadata", metadata),
            ("produce", produce),
            ("consume_to_the_end", consume_to_the_end),
            ("the_last_two", the_last_two),
        ])
    finally:
        node.kill()
        node.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
