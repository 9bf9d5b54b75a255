"""Reference-count-free handles on arrays for the hot loop.

Numba reference-counts every array a compiled function passes on, and an inlined
function still counts its array arguments: measured with perf, the hand loop made
hundreds of (mostly no-op) ``NRT_incref``/``NRT_decref`` calls per hand, and each call
spilled the registers around it.  The kernels therefore hand the hand loop raw data
pointers (:func:`address`): numba indexes a ``CPointer`` like a 1-d array (``p[i]``,
``p[i] = v``) and never counts it.  :func:`borrow` is the same idea for arrays whose
shape is still needed (the output rows).

The caller must keep the owning arrays alive (used after the loop) for as long as the
handles are in use: handles never escape a kernel.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


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
        dst.meminfo = cgutils.get_null_value(dst.meminfo.type)
        dst.parent = cgutils.get_null_value(dst.parent.type)
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
