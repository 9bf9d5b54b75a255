"""Reference-count-free handles on arrays for the hot loop.

:func:`address` gives a raw data pointer numba indexes like a 1-d array without counting
it; :func:`borrow` does the same for arrays whose shape is needed.  A handle does not keep
its array alive, so handles are taken only from a parameter: allocate with :func:`scratch`,
pass it on, take handles with :func:`handles` (a test checks this).  Why: docs/design.md,
"Speed".
"""

import numpy as np
from llvmlite import ir
from numba import config, types
from numba.extending import intrinsic

from unosim.kernel.jit import jit
from unosim.kernel.layout import LOG_WIDTH, N_STATE


def _plain(intrinsic_fn, python_fn):
    """``intrinsic_fn`` for compiled code, ``python_fn`` when numba's JIT is off."""
    return python_fn if config.DISABLE_JIT else intrinsic_fn


@intrinsic
def borrow(typingctx, arr):
    """A view of ``arr`` (same type) that numba does not reference-count."""

    def codegen(context, builder, sig, args):
        aryty = sig.args[0]
        src = context.make_array(aryty)(context, builder, args[0])
        dst = context.make_array(aryty)(context, builder)
        dst.data = src.data
        dst.shape = src.shape
        dst.strides = src.strides
        dst.itemsize = src.itemsize
        dst.nitems = src.nitems
        dst.meminfo = ir.Constant(dst.meminfo.type, None)
        dst.parent = ir.Constant(dst.parent.type, None)
        return dst._getvalue()

    return arr(arr), codegen


@intrinsic
def address(typingctx, arr):
    """The data pointer of a C-contiguous array, indexed flat (``p[i]``) like a 1-d array."""
    if not isinstance(arr, types.Array) or arr.layout != "C":
        return None
    sig = types.CPointer(arr.dtype)(arr)

    def codegen(context, builder, sig, args):
        return context.make_array(sig.args[0])(context, builder, args[0]).data

    return sig, codegen


borrow = _plain(borrow, lambda arr: arr)
address = _plain(address, lambda arr: arr.reshape(-1))


@jit()
def scratch(extra):
    """A block's own arrays, the only ones a kernel allocates: the hand state, the random
    state, an empty event log (capacity ``st[S_LOGCAP]`` 0: nothing is logged) and
    ``extra`` int64 of scratch.  Pass them as one argument to the function that uses them
    (module docstring)."""
    return (np.zeros(N_STATE, np.int64), np.zeros(1, np.uint64), np.zeros((0, LOG_WIDTH), np.int64),
            np.zeros(extra, np.int64))


@jit(inline=True)
def handles(mem):
    """Handles on the arrays of :func:`scratch`: the state, random state and log as data
    pointers, the scratch as a borrowed view.  ``mem`` must be a parameter of the calling
    function (module docstring)."""
    return address(mem[0]), address(mem[1]), address(mem[2]), borrow(mem[3])
