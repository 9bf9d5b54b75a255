"""What numba compiles while a block runs, from its public event API (``numba:compile``),
and, with ``loads=True``, the functions it loads from its cache instead (each dispatcher's
``stats.cache_hits``).  A compile in another process is not seen.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from numba.core import event
from numba.core.dispatcher import Dispatcher

__all__ = ["compiled"]


def _cache_hits() -> dict[str, int]:
    """Cache loads so far of every dispatcher in unosim's modules, by qualified name."""
    hits = {}
    for name, mod in list(sys.modules.items()):
        if name.startswith("unosim."):
            for v in list(vars(mod).values()):
                if isinstance(v, Dispatcher):
                    hits[f"{v.py_func.__module__}.{v.py_func.__qualname__}"] = sum(v.stats.cache_hits.values())
    return hits


@contextmanager
def compiled(loads: bool = False) -> Iterator[list[str]]:
    """Yields a list that, after the block, holds each function numba compiled in it (its
    qualified name and argument types), callers before the callees they compiled; with
    ``loads``, then each function it loaded from the cache ("... (from the cache)")."""
    names: list[str] = []
    before = _cache_hits() if loads else {}
    with event.install_recorder("numba:compile") as rec:
        yield names
    if loads:
        names += [f"{n} (from the cache)" for n, h in _cache_hits().items() if h > before.get(n, 0)]
    for _, e in rec.buffer:
        if e.is_start:
            fn = e.data["dispatcher"].py_func
            name = f"{fn.__module__}.{fn.__qualname__}({', '.join(map(str, e.data['args']))})"
            if name not in names:
                names.append(name)
