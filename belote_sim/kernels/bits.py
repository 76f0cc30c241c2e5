"""Population count and trailing-zero count of card masks (LLVM intrinsics).

``popcount`` and ``ctz`` compile to single ``ctpop``/``cttz`` instructions inside jitted
code; with ``NUMBA_DISABLE_JIT=1`` they fall back to plain Python.

>>> from belote_sim.kernels.bits import popcount, ctz, nth_bit
>>> popcount(0b1011), ctz(0b1000), nth_bit(0b10110, 1)
(3, 3, 2)
"""

from __future__ import annotations

from numba import types
from numba.extending import intrinsic

from belote_sim._jit import DISABLE_JIT, jit


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def _cttz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        # cttz(0) is defined (= bit width) with the flag off; kernels never ask for it.
        return builder.cttz(args[0], context.get_constant(types.boolean, False))

    return x(x), codegen


if DISABLE_JIT:

    def popcount(x):
        """Number of set bits."""
        return int(x).bit_count()

    def ctz(x):
        """Index of the lowest set bit (``x`` must be non-zero)."""
        x = int(x)
        return (x & -x).bit_length() - 1

else:

    @jit(inline="always")
    def popcount(x):
        """Number of set bits."""
        return _ctpop(x)

    @jit(inline="always")
    def ctz(x):
        """Index of the lowest set bit (``x`` must be non-zero)."""
        return _cttz(x)


@jit(inline="always")
def nth_bit(mask, n):
    """Index of the ``n``-th lowest set bit of ``mask`` (``0 <= n < popcount(mask)``)."""
    for _ in range(n):
        mask &= mask - 1
    return ctz(mask)
