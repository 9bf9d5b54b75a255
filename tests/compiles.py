"""What numba compiles while a block runs, from its public event API (``numba:compile``).

A function loaded from the cache is no compile; a compile in another process is not seen.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from numba.core import event

__all__ = ["compiled"]


@contextmanager
def compiled() -> Iterator[list[str]]:
    """Yields a list that, after the block, holds each function numba compiled in it (its
    qualified name and argument types), callers before the callees they compiled."""
    names: list[str] = []
    with event.install_recorder("numba:compile") as rec:
        yield names
    for _, e in rec.buffer:
        if e.is_start:
            fn = e.data["dispatcher"].py_func
            name = f"{fn.__module__}.{fn.__qualname__}({', '.join(map(str, e.data['args']))})"
            if name not in names:
                names.append(name)
