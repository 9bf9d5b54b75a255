"""How many cores the kernel uses: checked in one place, set only for as long as a call
plays.

Numba's thread count is process state (per thread, in fact: each Python thread that
calls a parallel kernel has its own).  A library that set it and left it would change what
the caller's next numba call runs on, in a notebook for instance; so the count is set by
:func:`kernel_workers` around the code that plays and put back as it was afterwards, and
:func:`check_workers` only checks a count (a bad ``--workers`` is refused before any output
is touched).
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
    """Run the block's kernels on ``workers`` cores (all when None; checked as
    :func:`check_workers` does) and give the count; numba's thread count of the calling
    thread is restored on the way out, however the block ends."""
    count = check_workers(workers)
    before = numba.get_num_threads()
    numba.set_num_threads(count)
    try:
        yield count
    finally:
        numba.set_num_threads(before)
