"""Where compiled machine code is kept: a folder named after the engine sources' contents.

Numba reuses a cached compile after checking only the stamp of the function's own file,
so an edit (or an upgrade) of a helper inlined from another module would otherwise reuse
stale machine code: wrong rows, silently.  Every compiled function of unosim therefore
caches under ``numba-<digest of the compiled sources>``, below the folder the user chose
with ``NUMBA_CACHE_DIR`` or else ``$XDG_CACHE_HOME/unosim``.  The compiled sources are
kernel/, families/, bots/, engine/ and the modules of rules/ they import (:data:`COMPILED`).

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

__all__ = ["COMPILED", "cache_folder", "compiled_sources", "sources_digest"]

_PACKAGE = Path(__file__).resolve().parent.parent
COMPILED = ("kernel/*.py", "families/*.py", "bots/*.py", "engine/*.py", "rules/__init__.py", "rules/cards.py",
            "rules/codes.py", "rules/keys.py", "rules/params.py", "rules/strategies.py")
"""The files whose contents name the cache folder: every module compiled code imports,
directly or not (tests/unit/test_cache_key.py checks the list against the imports).  An
edit to the rest of rules/ (the config's parsing and checks) keeps the compiled code."""


def compiled_sources() -> list[Path]:
    """The files of :data:`COMPILED`, in a fixed order."""
    return [path for pattern in COMPILED for path in sorted(_PACKAGE.glob(pattern))]


@functools.lru_cache(maxsize=1)
def sources_digest() -> str:
    """The compiled sources' contents, as 12 hex digits."""
    digest = hashlib.sha1()
    for path in compiled_sources():
        digest.update(path.relative_to(_PACKAGE).as_posix().encode())
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

