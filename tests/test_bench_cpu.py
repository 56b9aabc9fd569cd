"""bench.load's cpu_seconds, the CPU that bench.load, bench.compare and bench.server print (issue 16).

A server that forks must be counted whole: its live descendants' CPU, and its reaped children's
(cutime + cstime), read from /proc/<pid>/stat; the load generator counts itself only. Timings
are the benchmark's to print; this checks only whose CPU the reader adds up.
"""

from __future__ import annotations

import subprocess
import sys

from bench.load import cpu_seconds

BURN = 0.5  # CPU seconds the grandchild burns
CHILD = f"import time\nwhile time.process_time() < {BURN}: pass\nprint('burnt', flush=True)\ninput()"
PARENT = (  # starts the burner, waits; on a line from us lets it end and reaps it; then waits again
    "import subprocess, sys\n"
    f"child = subprocess.Popen([sys.executable, '-c', {CHILD!r}], stdin=subprocess.PIPE)\n"
    "input()\nchild.communicate(b'\\n')\nprint('reaped', flush=True)\nsys.stdin.read()"
)


def test_cpu_seconds_counts_a_forking_servers_children_live_and_reaped():
    with subprocess.Popen([sys.executable, "-c", PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True) as parent:
        assert parent.stdout.readline().strip() == "burnt"  # the child's print, through the inherited stdout
        live = cpu_seconds(parent.pid)
        alone = cpu_seconds(parent.pid, tree=False)
        parent.stdin.write("\n")
        parent.stdin.flush()
        assert parent.stdout.readline().strip() == "reaped"
        reaped = cpu_seconds(parent.pid)
        parent.stdin.close()  # the parent ends; leaving the with block waits for it
    assert live >= BURN - 0.05 > alone  # the live grandchild counts for the tree, not for the parent alone
    assert reaped >= live - 0.05  # once reaped, its time is in the parent's cutime + cstime
