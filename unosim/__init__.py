"""unosim: Monte Carlo simulation of UNO and its house rules."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

__version__ = "0.1.0"


def _numba_cache_dir() -> str:
    """A numba cache folder keyed by the compiled sources' contents.

    Numba checks only a function's own file when it reuses a cached compile, so an edit
    to a helper inlined from another module would otherwise leave stale machine code.
    """
    root = Path(__file__).parent
    digest = hashlib.sha1()
    for sub in ("rules", "kernel", "bots", "engine"):
        for path in sorted((root / sub).glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "unosim"
    return str(base / f"numba-{digest.hexdigest()[:12]}")


if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = _numba_cache_dir()
    try:  # numba imported before us: its config has already read the environment
        import sys

        if "numba" in sys.modules:
            sys.modules["numba"].config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
    except AttributeError:  # pragma: no cover
        pass

# The kernel's threads sleep between parallel regions instead of spinning (OpenMP's
# default): the Parquet writer thread shares the cores with them, and spinning threads
# took ~0.5 CPU-s per million hands from it (measured: 2 workers 540k -> 610k hands/s).
# Read when numba starts its threading layer, i.e. at the first parallel kernel call.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
