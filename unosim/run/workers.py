"""How many cores the kernel uses: checked in one place, set only while a call plays.

Numba's thread count is per-thread process state, so :func:`kernel_workers` sets it around
the code that plays and puts it back afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numba

from unosim.run.bounds import RunError

__all__ = ["check_workers", "kernel_workers", "max_workers"]


def max_workers() -> int:
    """The cores numba may use in this process (``NUMBA_NUM_THREADS``)."""
    return int(numba.config.NUMBA_NUM_THREADS)


def check_workers(workers: int | None) -> int:
    """The core count ``workers`` stands for (all when None); a RunError naming ``--workers``
    when it is out of range.  Changes nothing."""
    top = max_workers()
    if workers is None:
        return top
    if workers < 1 or workers > top:
        raise RunError(f"--workers: {workers} is not between 1 and {top} (the cores numba may use here)")
    return workers


@contextmanager
def kernel_workers(workers: int | None) -> Iterator[int]:
    """Run the block's kernels on ``workers`` cores (all when None) and give the count; the
    calling thread's numba thread count is restored on the way out."""
    count = check_workers(workers)
    before = numba.get_num_threads()
    numba.set_num_threads(count)
    try:
        yield count
    finally:
        numba.set_num_threads(before)
