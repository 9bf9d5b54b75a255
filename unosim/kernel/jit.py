"""How every engine function is compiled: once per argument type, inlined by LLVM.

``@jit()`` and ``@jit(inline=True)`` stand for ``@njit(cache=True)`` and
``@njit(cache=True, forceinline=True)`` in kernel/, families/, bots/ and engine/;
:func:`kernel` makes the parallel batch kernels. By default they come from
:mod:`unosim.kernel.numba_internals` (unosim's cache and code generation, on numba's
private API). ``UNOSIM_PLAIN_NUMBA=1``, or a numba whose internals moved, compiles with
numba's public API alone: the same results, a slower first start. Either way the cache
is :func:`unosim.kernel.cache.cache_folder`. Why: docs/design.md, "Compile time".
"""

from __future__ import annotations

import os
import threading
import warnings
from contextlib import contextmanager

import numba
from numba import config, njit

from .cache import cache_folder

__all__ = ["PLAIN", "PLAIN_ENV", "PlainNumbaWarning", "jit", "kernel"]

PLAIN_ENV = "UNOSIM_PLAIN_NUMBA"
"""The switch: set to anything but ``""`` or ``"0"``, unosim uses numba's public API only."""


class PlainNumbaWarning(RuntimeWarning):
    """unosim's own compile path could not be loaded; it compiles with plain numba."""


def _internals():
    """:mod:`unosim.kernel.numba_internals`, or None: switched off, or failing to load."""
    if os.environ.get(PLAIN_ENV, "") not in ("", "0"):
        return None
    try:
        from . import numba_internals
    except Exception as e:  # noqa: BLE001 - any failure of numba's private API means the plain path
        warnings.warn_explicit(f"numba {numba.__version__} lacks the internals unosim's compile cache uses "
                               f"({type(e).__name__}: {e}); compiling with plain @njit(cache=True) instead "
                               f"(same results, a slower first start)", PlainNumbaWarning, "<unosim>", 0)
        return None
    return numba_internals


_INTERNALS = _internals()
PLAIN = _INTERNALS is None
"""Whether this process compiles with numba's public API alone."""


@contextmanager
def _numba_cache_dir():
    """numba's own ``NUMBA_CACHE_DIR`` setting, pointed at :func:`cache_folder`'s ``plain``
    while a dispatcher is made (numba places its cache then), and put back after: the
    two paths never load each other's code."""
    with _SWAP:
        saved = config.CACHE_DIR
        config.CACHE_DIR = os.path.join(cache_folder(), "plain")
        try:
            yield
        finally:
            config.CACHE_DIR = saved


_SWAP = threading.Lock()  # modules imported by two threads at once put back what they found


def _plain(fn, **options):
    # numba keys a closure's cache entry by pickled dispatchers, new in every process:
    # a factory-made function is compiled afresh instead of piling up entries
    with _numba_cache_dir():
        return njit(cache=fn.__closure__ is None, **options)(fn)


def jit(inline: bool = False):
    """Decorator: compile with numba (``cache=True``), one version per plain argument
    types (plain numba: per constant argument too); ``inline`` asks LLVM to inline the
    function into every compiled caller.
    Under ``NUMBA_DISABLE_JIT=1`` the function stays plain Python (a debugger steps
    through it)."""

    def decorate(fn):
        if config.DISABLE_JIT:
            return fn
        if PLAIN:
            return _plain(fn, forceinline=inline)
        return _INTERNALS.jit_dispatcher(fn, inline)

    return decorate


def kernel(**options):
    """Decorator for an entry point called from Python (``parallel=True`` batch loops):
    numba's ``njit(**options)``, cached in unosim's folder; plain Python under
    ``NUMBA_DISABLE_JIT=1``."""

    def decorate(fn):
        if config.DISABLE_JIT:
            return fn
        if PLAIN:
            return _plain(fn, **options)
        return _INTERNALS.kernel_dispatcher(fn, options)

    return decorate
