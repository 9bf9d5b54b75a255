"""benchmarks/yardstick.py run against a stand-in yardstick: it plays unosim's own hands
(tests/unit/test_benchmarks.py checks the harness and the options without the engine)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
FAKE_YARDSTICK = f"{sys.executable} -c \"print('{{\\\"players\\\": 4, \\\"hands_per_cpu_s\\\": 1000000.0}}')\""


def test_yardstick_reads_an_external_commands_json_and_prints_ratios() -> None:
    """benchmarks/yardstick.py takes the yardstick as a command, reads its JSON line and
    prints unosim's hands per CPU second against it, kernel and end to end, per bot."""
    proc = subprocess.run([sys.executable, str(BENCH / "yardstick.py"), "--yardstick", FAKE_YARDSTICK, "--quick",
                           "--hands", "2000"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "the yardstick plays 4 players only" in proc.stdout
    rows = [line.split() for line in proc.stdout.splitlines() if line.split()[:2] in (["4", "random"], ["4", "counter"])]
    assert [r[:3] for r in rows] == [["4", "random", "1,000,000"], ["4", "counter", "1,000,000"]]
    assert proc.stdout.count("/ yardstick") == 3 and "kernel with counter / yardstick's B0" in proc.stdout
