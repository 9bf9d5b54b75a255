#!/usr/bin/env python3
"""Check and time plain numba: golden rows written with ``UNOSIM_PLAIN_NUMBA=1``.

Under the switch the engine compiles with plain ``@njit(cache=True)`` (docs/design.md,
"Plain numba").  This script writes golden cases again with the switch on, in a child
with an empty cache of its own, checks that every row is the golden file's, bit for bit,
and prints the child's CPU seconds: the price of the plain path's first start.  It is
too slow for the test suite (the plain path compiles for minutes).

    python benchmarks/plain_numba.py                       # standard and house_favourites
    python benchmarks/plain_numba.py --case standard
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import harness as H

ROOT = Path(__file__).resolve().parent.parent
CHILD = textwrap.dedent('''
    import sys, tempfile
    from pathlib import Path

import harness as H
    sys.path.insert(0, sys.argv[1])
    from golden_rows import cases, compare, produce
    from unosim.engine.batch import play_hands
    from unosim.kernel import jit
    assert jit.PLAIN and type(play_hands).__module__.startswith("numba."), type(play_hands)
    wanted = sys.argv[2:]
    with tempfile.TemporaryDirectory() as work:
        for case in [c for c in cases() if c.name in wanted]:
            want, got = case.file.read_text(), produce(case, Path(work))
            if case.trace:
                ok = got == want
            else:
                problems, new = compare(want, got)
                ok = not problems and not new and got == want
            print(("same " if ok else "DIFFERENT ") + case.name, flush=True)
''')


def measure(run: H.Run) -> None:
    cases = run.args.case or ["standard", "house_favourites"]
    for r in range(run.repeats):
        with tempfile.TemporaryDirectory() as tmp:
            child = Path(tmp) / "plain_rows.py"
            child.write_text(CHILD)
            env = {**os.environ, "UNOSIM_PLAIN_NUMBA": "1", "XDG_CACHE_HOME": str(Path(tmp) / "cache")}
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            proc = subprocess.run([sys.executable, str(child), str(ROOT / "tests"), *cases], env=env, cwd=tmp,
                                  stdout=subprocess.PIPE, text=True)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        print(proc.stdout, end="")
        print(f"round {r + 1}: plain numba, empty cache: {cpu:.1f} CPU s, {wall:.1f} s wall for {', '.join(cases)}")
        run.figure(f"plain_first_start_cpu_s_{r + 1}", cpu, "s")
        same = proc.returncode == 0 and proc.stdout.split().count("same") == len(cases)
        run.target("golden cases bit-identical under plain numba", float(same), ">=", 1.0, fmt="{:.0f}",
                   note="1: every row the golden file's")


BENCH = H.Benchmark(__doc__, repeats=1, quick={}, repeats_help="cold starts, each with an empty cache")
BENCH.option("--case", action="append", help="a golden case (repeatable) [default: standard, house_favourites]")

if __name__ == "__main__":
    BENCH.main(measure)
