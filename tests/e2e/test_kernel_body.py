"""How the engine is compiled (unosim/kernel/jit.py): a batch kernel's loop body calls its
own copies of the engine functions, optimized with it, whatever the process ran before,
and a cached function loads light.
A fresh interpreter compiles a small kernel, so this is no unit test (tests/unit/test_jit.py
checks the rest of unosim/kernel/jit.py without compiling)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from unosim.kernel.jit import PLAIN, PLAIN_ENV

PROBE = textwrap.dedent('''
    import numpy as np
    from numba import prange

    from unosim.kernel import jit as J
    from unosim.kernel import numba_internals as I

    bodies = []
    optimize = I._BodyLibrary._optimize_final_module

    def record(self):
        optimize(self)
        bodies.append({fn.name: fn.linkage.name for fn in self._final_module.functions if not fn.is_declaration})

    I._BodyLibrary._optimize_final_module = record

    @J.jit()
    def twice(x):
        return 2 * x

    @J.kernel(parallel=True, nogil=True)
    def doubled(out):
        for i in prange(out.shape[0]):
            out[i] = twice(i)

    assert twice(3) == 6  # the callee's own, lightly optimized copy is loaded first
    out = np.zeros(4, np.int64)
    doubled(out)
    assert list(out) == [0, 2, 4, 6], out
    assert len(bodies) == 1, bodies
    for name, linkage in bodies[0].items():
        print(linkage, name)
''')


@pytest.mark.skipif(PLAIN, reason="plain numba: no loop body of unosim's own")
def test_a_kernel_body_links_no_weak_copy_of_a_callee(tmp_path: Path) -> None:
    """A callee linked into a kernel's loop body as a weak (``linkonce_odr``) definition
    would resolve to the first copy the process loaded: the callee's own, lightly
    optimized one when it ran from Python first (here ``twice``), and the kernel would run
    several times slower (benchmarks/load_order.py measures it).
    The body's linked functions are internal (every function it defines is its own entry
    point, external, or internal, none weak) and renamed: the JIT finds a function by
    name whatever its linkage, and a later caller of ``NRT_incref`` or ``twice`` must not
    get the body's copy, whose arguments the optimizer may have changed."""
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    env.pop(PLAIN_ENV, None)
    r = subprocess.run([sys.executable, str(probe)], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = [line.split(" ", 1) for line in r.stdout.splitlines()]
    assert lines, "the loop body defines no function"
    linkages = {linkage for linkage, _ in lines}
    assert linkages <= {"external", "internal", "private"}, r.stdout
    assert "internal" in linkages, r.stdout  # the linked callees, kept as the body's own
    suffixes = {name.rsplit(".", 1)[-1] for linkage, name in lines if linkage == "internal"}
    assert len(suffixes) == 1 and re.fullmatch("[0-9a-f]{16}", suffixes.pop()), r.stdout  # this body's own


LAZY = textwrap.dedent('''
    import importlib
    import sys

    sys.path.insert(0, sys.argv[1])

    from cached import thrice  # compiled by the first process, loaded from the cache by the second

    assert thrice(5) == 15
    library = thrice.overloads[thrice.signatures[0]].library
    print(type(library).__name__, "numba.np.linalg" in sys.modules)
    caller = importlib.import_module(sys.argv[2])  # new to each process: it compiles, linking thrice
    assert caller.plus_thrice(5) == 16
''')


@pytest.mark.skipif(PLAIN, reason="plain numba: numba's own cache")
def test_a_cached_function_loads_light_and_still_links(tmp_path: Path) -> None:
    """A cached function is loaded without numba's typing and lowering registries (the
    numpy extensions among them are not even imported) and without parsing the bitcode
    that links it into a caller; a caller compiled later links it all the same."""
    (tmp_path / "cached.py").write_text("from unosim.kernel.jit import jit\n\n\n@jit()\ndef thrice(x):\n"
                                       "    return 3 * x\n")
    for name in ("first", "again"):
        (tmp_path / f"{name}.py").write_text("from cached import thrice\nfrom unosim.kernel.jit import jit\n\n\n"
                                            "@jit()\ndef plus_thrice(x):\n    return thrice(x) + 1\n")
    probe = tmp_path / "probe.py"
    probe.write_text(LAZY)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    env.pop(PLAIN_ENV, None)
    runs = {name: subprocess.run([sys.executable, str(probe), str(tmp_path), name], env=env, capture_output=True,
                                 text=True, timeout=300) for name in ("first", "again")}
    for r in runs.values():
        assert r.returncode == 0, r.stderr
    assert runs["first"].stdout.split()[0] != "_LazyLinkLibrary"  # compiled there
    assert runs["again"].stdout.split() == ["_LazyLinkLibrary", "False"], runs["again"].stdout
