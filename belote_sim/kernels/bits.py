"""Population count, trailing-zero count and bit selection of card masks (LLVM
intrinsics).

``popcount`` and ``ctz`` compile to single ``ctpop``/``cttz`` instructions inside jitted
code; ``nth_bit`` to one ``pdep`` where the processor has a fast one; with
``NUMBA_DISABLE_JIT=1`` they fall back to plain Python.

>>> from belote_sim.kernels.bits import popcount, ctz, nth_bit
>>> popcount(0b1011), ctz(0b1000), nth_bit(0b10110, 1)
(3, 3, 2)
"""

from __future__ import annotations

import llvmlite.binding as llvm
import numpy as np
from llvmlite import ir
from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic

from belote_sim._jit import DISABLE_JIT, PYTHON_FORMS, jit


@jit(inline="always")
def nonneg(i):
    """``i``, a non-negative index, as the compiler can see it is one: its sign bit
    masked off (a no-op). Numba wraps negative indices around, which costs three
    instructions at each access through an index it cannot prove non-negative (one read
    from memory, say); the mask costs one.

    >>> nonneg(5)
    5
    """
    return i & 0x7FFFFFFFFFFFFFFF


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


@intrinsic
def _pdep(typingctx, src, mask):
    if not (isinstance(src, types.Integer) and isinstance(mask, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pdep.64"
        )
        a = context.cast(builder, args[0], signature.args[0], types.int64)
        b = context.cast(builder, args[1], signature.args[1], types.int64)
        return builder.call(fn, [a, b])

    return types.int64(src, mask), codegen


def _fast_pdep() -> bool:
    """Whether the kernels may use ``pdep``: an x86 processor with BMI2 that Numba
    compiles for (no ``NUMBA_CPU_NAME`` override) and that runs it in hardware. AMD's
    Zen 1 and 2 run it in microcode, slower than the table it replaces."""
    if DISABLE_JIT or config.CPU_NAME or config.CPU_FEATURES:
        return False
    if not llvm.get_process_triple().startswith("x86_64"):
        return False
    return bool(llvm.get_host_cpu_features().get("bmi2")) and llvm.get_host_cpu_name() not in (
        "znver1", "znver2"
    )


#: ``nth_bit`` compiles to ``pdep`` (see :func:`_fast_pdep`).
FAST_PDEP = _fast_pdep()


def _python_popcount(x):
    """Number of set bits."""
    return int(x).bit_count()


def _python_ctz(x):
    """Index of the lowest set bit (``x`` must be non-zero)."""
    x = int(x)
    return (x & -x).bit_length() - 1


if DISABLE_JIT:
    popcount = _python_popcount
    ctz = _python_ctz

else:

    @jit(inline="always")
    def popcount(x):
        """Number of set bits."""
        return _ctpop(x)

    @jit(inline="always")
    def ctz(x):
        """Index of the lowest set bit (``x`` must be non-zero)."""
        return _cttz(x)

    PYTHON_FORMS[popcount] = _python_popcount
    PYTHON_FORMS[ctz] = _python_ctz


def _bits_of_bytes() -> np.ndarray:
    """``BIT_OF_BYTE[8 * b + j]``: the index of the ``j``-th lowest set bit of the byte
    ``b`` (0 where ``b`` has fewer bits)."""
    out = np.zeros(256 * 8, dtype=np.int64)
    for b in range(256):
        for j, bit in enumerate(i for i in range(8) if b >> i & 1):
            out[8 * b + j] = bit
    return out


BIT_OF_BYTE = _bits_of_bytes()


@jit(inline="always")
def nth_bit(mask, n):
    """Index of the ``n``-th lowest set bit of the card mask ``mask`` (32 bits;
    ``0 <= n < popcount(mask)``); for ``n = 0`` use :func:`ctz`.

    Without a branch or a loop: one ``pdep`` (:data:`FAST_PDEP`), else
    :func:`nth_bit_by_bytes`, both tested against Python on every bit of random masks.
    The loop clearing ``n`` bits it replaced ended after a random count when ``n`` was
    random, and its mispredicted exit cost more than the rest of a random card."""
    if FAST_PDEP:  # deposit bit n of a one-bit word at the mask's n-th set bit
        return ctz(_pdep(np.int64(1) << n, mask))
    return nth_bit_by_bytes(mask, n)


@jit(inline="always")
def nth_bit_by_bytes(mask, n):
    """:func:`nth_bit` without ``pdep``: the byte holding the bit is found from the bit
    counts of the bytes below it, the bit inside the byte read from
    :data:`BIT_OF_BYTE`."""
    c0 = popcount(mask & 0xFF)
    c1 = c0 + popcount(mask & 0xFF00)
    c2 = c1 + popcount(mask & 0xFF0000)
    byte = int(n >= c0) + int(n >= c1) + int(n >= c2)
    below = c2 if n >= c2 else (c1 if n >= c1 else (c0 if n >= c0 else 0))
    return 8 * byte + BIT_OF_BYTE[8 * ((mask >> (8 * byte)) & 0xFF) + n - below]
