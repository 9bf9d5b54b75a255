"""Unreference-counted views of arrays for the hot loop.

Numba reference-counts every array it passes between compiled functions with atomic
instructions; measured with perf on the hand loop that was 40% of all time.  A view with
a null meminfo is never counted.  The caller must keep the owning array alive (used after
the loop) for as long as the view is in use: views never escape a kernel.
"""

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
