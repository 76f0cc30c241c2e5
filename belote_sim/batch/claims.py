"""Items handed to the threads of a chunk as they free up: a counter shared by the
blocks (:func:`~belote_sim.batch.blocks.run_blocks`), from which compiled code takes
the next item with an atomic fetch-and-add.

A block that plays a fixed share of a chunk's items suits items of even cost. Where the
costs vary by orders of magnitude (double-dummy solves of whole deals), the thread that
drew the long ones finishes last while the others wait; taking items one at a time from
a shared counter keeps every thread busy to the end. Which thread
plays an item never changes what it counts (every item has its own random stream), and
the counters are sums, so the totals stay those of any other split.

>>> import numpy as np
>>> counter = np.zeros(2, dtype=np.int64)
>>> take(counter, 0), take(counter, 0), take(counter, 1)
(0, 1, 0)
"""

from __future__ import annotations

import threading

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from belote_sim._jit import DISABLE_JIT, jit


@intrinsic
def _fetch_add(typingctx, counter, i):
    """``counter[i] += 1`` as one atomic operation; the value before it."""
    if not (isinstance(counter, types.Array) and counter.dtype == types.int64
            and counter.ndim == 1 and isinstance(i, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        index = context.cast(builder, args[1], signature.args[1], types.int64)
        slot = builder.gep(array.data, [index])
        return builder.atomic_rmw("add", slot, ir.Constant(ir.IntType(64), 1), "seq_cst")

    return types.int64(counter, i), codegen


if DISABLE_JIT:
    _lock = threading.Lock()

    def take(counter, i):
        """Add one to ``counter[i]`` and return its value before (a lock stands for the
        atomic operation in plain Python)."""
        with _lock:
            value = int(counter[i])
            counter[i] = value + 1
        return value

else:

    @jit(inline="always")
    def take(counter, i):
        """Add one to ``counter[i]`` (``int64``) atomically and return its value before:
        the next item for the calling thread. ``i`` must be a valid index (unchecked)."""
        return _fetch_add(counter, i)
