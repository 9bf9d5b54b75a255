"""unosim: Monte Carlo simulation of UNO and its house rules."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

__version__ = "0.1.0"


def _sources_digest() -> str:
    """The compiled sources' contents, as 12 hex digits."""
    root = Path(__file__).parent
    digest = hashlib.sha1()
    for sub in ("rules", "kernel", "bots", "engine"):
        for path in sorted((root / sub).glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _numba_cache_dir(chosen: str | None) -> str:
    """A numba cache folder keyed by the compiled sources' contents, under the folder the
    user chose with ``NUMBA_CACHE_DIR`` or else under ``$XDG_CACHE_HOME/unosim``.

    Numba checks only a function's own file when it reuses a cached compile, so an edit
    (or an upgrade) of a helper inlined from another module would otherwise leave stale
    machine code: wrong rows, silently.  A folder already keyed by these sources (set by
    a parent process, e.g. ``unosim`` started from a test or a benchmark) is kept.
    """
    folder = f"numba-{_sources_digest()}"
    if chosen:
        return chosen if Path(chosen).name == folder else str(Path(chosen) / folder)
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "unosim"
    return str(base / folder)


os.environ["NUMBA_CACHE_DIR"] = _numba_cache_dir(os.environ.get("NUMBA_CACHE_DIR"))
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
