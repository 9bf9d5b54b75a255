"""Where compiled machine code is kept: a folder named after the engine sources' contents.

Numba reuses a cached compile after checking only the stamp of the function's own file,
so an edit (or an upgrade) of a helper inlined from another module would otherwise reuse
stale machine code: wrong rows, silently.  Every compiled function of unosim therefore
caches under ``numba-<digest of rules/, kernel/, families/, bots/, engine/>``, below the folder the
user chose with ``NUMBA_CACHE_DIR`` or else ``$XDG_CACHE_HOME/unosim``.

The folder is given to each of unosim's dispatchers through its own cache locator
(:class:`SourcesCache`), not through ``NUMBA_CACHE_DIR`` or numba's config: importing
unosim changes neither, so other numba code in the same process (a notebook's own
``@njit(cache=True)`` functions) keeps caching where it did.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from numba.core.caching import CompileResultCacheImpl, FunctionCache, _CacheLocator, _SourceFileBackedLocatorMixin

__all__ = ["SourcesCache", "cache_folder", "sources_digest"]

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


class _SourcesLocator(_SourceFileBackedLocatorMixin, _CacheLocator):
    """Numba's cache locator for unosim's functions: :func:`cache_folder`, then numba's
    usual per-source-folder subpath (so two checkouts never share entries)."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(cache_folder(), self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path


class _SourcesCacheImpl(CompileResultCacheImpl):
    _locator_classes = [_SourcesLocator]


class SourcesCache(FunctionCache):
    """Numba's function cache, located by :class:`_SourcesLocator`."""

    _impl_class = _SourcesCacheImpl

    def _index_key(self, sig, codegen):
        """Numba's key, but a function made by a factory (:func:`unosim.engine.hand.stepper`)
        is told apart from its siblings by the *names* of the functions it closes over:
        numba's own key pickles them, and a pickled dispatcher carries an id drawn afresh in
        every process, so such an entry would never be found again."""
        cells = self._py_func.__closure__
        if not cells:
            return super()._index_key(sig, codegen)
        names = ",".join(_closed_name(c.cell_contents) for c in cells)
        code = hashlib.sha256(self._py_func.__code__.co_code).hexdigest()
        return (sig, codegen.magic_tuple(), (code, hashlib.sha256(names.encode()).hexdigest()))


def _closed_name(value: object) -> str:
    fn = getattr(value, "py_func", value)
    name = getattr(fn, "__qualname__", None)
    if name is None:
        raise TypeError(f"a compiled factory closes over {value!r}: only functions may be closed over")
    return f"{fn.__module__}.{name}"
