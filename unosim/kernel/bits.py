"""Bit operations on integer masks that numba does not expose: compiled to one instruction."""

from llvmlite import ir
from numba import config, types
from numba.extending import intrinsic


@intrinsic
def _lowest_bit(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return x(x), codegen


def _lowest_bit_py(x):
    return (int(x) & -int(x)).bit_length() - 1


lowest_bit = _lowest_bit_py if config.DISABLE_JIT else _lowest_bit
"""The index of the lowest set bit of x (x must not be 0)."""
