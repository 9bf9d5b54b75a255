"""Where compiled machine code is kept: a folder named after the engine sources' contents.

Numba reuses a cached compile after checking only the stamp of the function's own file,
so an edit (or an upgrade) of a helper inlined from another module would otherwise reuse
stale machine code: wrong rows, silently.  Every compiled function of unosim therefore
caches under ``numba-<digest of rules/, kernel/, families/, bots/, engine/>``, below the folder the
user chose with ``NUMBA_CACHE_DIR`` or else ``$XDG_CACHE_HOME/unosim``.

Each of unosim's dispatchers is given the folder as it is made (by
:mod:`unosim.kernel.jit`); importing unosim changes neither ``NUMBA_CACHE_DIR`` nor
numba's config, so other numba code in the same process (a notebook's own
``@njit(cache=True)`` functions) keeps caching where it did. Plain numba
(``UNOSIM_PLAIN_NUMBA=1``) caches in its subfolder ``plain``.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

__all__ = ["cache_folder", "sources_digest"]

_PACKAGE = Path(__file__).resolve().parent.parent
_COMPILED = ("rules", "kernel", "families", "bots", "engine")


@functools.lru_cache(maxsize=1)
def sources_digest() -> str:
    """The compiled sources' contents, as 12 hex digits."""
    digest = hashlib.sha1()
    for sub in _COMPILED:
        for path in sorted((_PACKAGE / sub).glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def cache_folder(chosen: str | None = None) -> str:
    """The folder unosim's compiled code is cached in: ``numba-<digest>`` under ``chosen``
    (default: ``NUMBA_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/unosim``).  A ``chosen``
    folder already so named (a parent process's, passed down) is used as it is."""
    folder = f"numba-{sources_digest()}"
    chosen = chosen if chosen is not None else os.environ.get("NUMBA_CACHE_DIR") or None
    if chosen:
        return chosen if Path(chosen).name == folder else str(Path(chosen) / folder)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "unosim"
    return str(base / folder)

