"""A cycle counter readable inside jitted code, to time decisions without leaving it.

``cycles()`` is LLVM's ``readcyclecounter`` (the time-stamp counter on x86-64): cheap,
monotonic on one core, in units that :func:`belote_sim.studies.arena` converts to seconds by
measuring them against ``time.perf_counter`` over the same run.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from belote_sim._jit import DISABLE_JIT, jit


@intrinsic
def _readcyclecounter(typingctx):
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = builder.module.declare_intrinsic("llvm.readcyclecounter", fnty=fnty)
        return builder.call(fn, [])

    return types.int64(), codegen


if DISABLE_JIT:
    import time

    def cycles():
        """Nanoseconds of ``time.perf_counter`` (plain Python fallback)."""
        return time.perf_counter_ns()

else:

    @jit(inline="always")
    def cycles():
        """The processor's cycle counter (int64)."""
        return _readcyclecounter()
