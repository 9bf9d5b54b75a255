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

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = textwrap.dedent('''
    import sys, tempfile
    from pathlib import Path
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", help="a golden case (repeatable) [default: standard, house_favourites]")
    args = parser.parse_args(argv)
    cases = args.case or ["standard", "house_favourites"]
    with tempfile.TemporaryDirectory() as tmp:
        child = Path(tmp) / "plain_rows.py"
        child.write_text(CHILD)
        env = {**os.environ, "UNOSIM_PLAIN_NUMBA": "1", "XDG_CACHE_HOME": str(Path(tmp) / "cache")}
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, str(child), str(ROOT / "tests"), *cases], env=env, cwd=tmp,
                                stdout=subprocess.PIPE, text=True)
        out, _ = proc.communicate()
        wall = time.perf_counter() - start
    print(out, end="")
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)  # the one child, reaped
    print(f"plain numba, empty cache: {ru.ru_utime + ru.ru_stime:.1f} CPU s, {wall:.1f} s wall for {', '.join(cases)}")
    same = out.split().count("same") == len(cases)
    print("rows: " + ("bit-identical to the golden files" if same and proc.returncode == 0 else "NOT the golden files"))
    return 0 if same and proc.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
