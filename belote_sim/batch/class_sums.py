"""The atlas's rows summed by hand class, in compiled passes over the rows.

A chunk of the bid atlas writes one row per (deal, decision, candidate call, play
model) (:func:`~belote_sim.batch.counterfactuals.atlas_chunk`); what the atlas keeps is
their integer sums per class and model (:data:`SUMS`). :func:`atlas_class_sums` turns
a chunk's rows into such a table, sorted by its keys, and :func:`merge_sums` adds two
such tables: the result does not depend on the order of the rows or of the chunks.

A chunk has several rows a deal, so a pandas group-by of them (a DataFrame built column
by column, then hashed) costs a fair share of what the deals do.
Here the class of a row is coded as one integer (each key's offset from its smallest
value, in a mixed radix, so the codes sort as the keys do), one compiled pass adds each
row into its class, found in a hash table of the codes, and numpy sorts the classes by
their codes.

>>> table = np.array([[1, 0, 5], [0, 2, 1], [1, 0, 2]])
>>> group_sums(table, n_keys=2).tolist()
[[0, 2, 1], [1, 0, 7]]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from belote_sim._jit import jit
from belote_sim.batch.counterfactuals import (
    AF_CAPOT,
    AF_DEDANS,
    AF_DIFF2,
    AF_DIFF2_PASS,
    AF_MADE,
    AF_POLICY_CALLED,
    AF_TAKERS,
)

#: The integer sums of an atlas class, from which the atlas's rates are derived
#: (pooling classes is summing these): the decisions, how often the bidding policy made
#: the call, then how often the seat's side ended as takers, made, went dedans, took
#: every trick, and the sum and sum of squares of the paired gain over passing (twice
#: the score difference, an integer in every game).
SUMS = ("n", "policy_calls", "takers", "made", "dedans", "capot", "gain2", "gain2_sq")
_N_SUMS = len(SUMS)
#: A class's code must stay below this (the product of its keys' ranges).
_MAX_CODE = 1 << 62
#: Fibonacci hashing: the code times 2^64 / golden ratio, its top bits the slot.
_HASH = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as a signed 64-bit integer


def atlas_class_sums(rows: np.ndarray, key_slots: Sequence[int]) -> np.ndarray:
    """The atlas ``rows`` of a chunk summed per class: an ``int64`` table with the row
    fields ``key_slots`` as keys, then :data:`SUMS`, sorted by its keys."""
    return _fold(rows, np.asarray(key_slots, dtype=np.int64), True)


def group_sums(table: np.ndarray, n_keys: int) -> np.ndarray:
    """The rows of an integer ``table`` added up per distinct value of their first
    ``n_keys`` columns: one row per key, sorted by the keys (lexicographically),
    the other columns summed; what ``pandas`` gives with
    ``groupby(keys, sort=True).sum()``.

    >>> group_sums(np.array([[2, 1], [1, 4], [2, 3]]), 1).tolist()
    [[1, 4], [2, 4]]
    """
    return _fold(np.ascontiguousarray(table, dtype=np.int64),
                 np.arange(n_keys, dtype=np.int64), False)


def merge_sums(a: np.ndarray, b: np.ndarray, n_keys: int) -> np.ndarray:
    """Two tables of :func:`group_sums` (sorted by their first ``n_keys`` columns, one
    row per key) as one: :func:`group_sums` of both, in one pass over their rows.

    >>> merge_sums(np.array([[1, 4], [2, 4]]), np.array([[2, 1], [3, 1]]), 1).tolist()
    [[1, 4], [2, 5], [3, 1]]
    """
    out = np.empty((len(a) + len(b), a.shape[1]), dtype=np.int64)
    return out[: _merge_sorted(np.ascontiguousarray(a, dtype=np.int64),
                               np.ascontiguousarray(b, dtype=np.int64), n_keys, out)]


def _fold(rows: np.ndarray, key_slots: np.ndarray, atlas: bool) -> np.ndarray:
    """:func:`group_sums` of ``rows`` keyed by their fields ``key_slots``, the other
    columns those of the table (``atlas``: the terms of :data:`SUMS` of atlas rows)."""
    width = len(key_slots) + (_N_SUMS if atlas else rows.shape[1] - len(key_slots))
    if len(rows) == 0:
        return np.zeros((0, width), dtype=np.int64)
    lo, hi = _key_ranges(rows, key_slots)
    spans = hi - lo + 1
    if np.prod(spans.astype(float)) >= _MAX_CODE:
        raise ValueError(f"class sums: keys spanning {spans.tolist()} do not fit one code")
    bits = max(4, int(2 * len(rows) - 1).bit_length())
    codes, sums = _sum_classes(rows, key_slots, lo, spans, bits, width, atlas)
    return sums[np.argsort(codes)]


@jit
def _key_ranges(rows, key_slots):
    """The smallest and largest value of each key field of ``rows``."""
    lo = rows[0][key_slots]
    hi = lo.copy()
    for i in range(1, rows.shape[0]):
        for c in range(len(key_slots)):
            v = rows[i, key_slots[c]]
            lo[c] = min(lo[c], v)
            hi[c] = max(hi[c], v)
    return lo, hi


@jit
def _sum_classes(rows, key_slots, lo, spans, bits, width, atlas):
    """The distinct class codes of ``rows`` (their keys' offsets from ``lo`` in the mixed
    radix ``spans``, first key most significant: codes sort as the keys do) and each
    class's row: its keys, then its sums. The classes are found in an open-addressing
    table of ``2**bits`` slots (at least twice the rows: the probes stay short)."""
    n_keys = len(key_slots)
    slots = np.zeros((1 << bits, 2), dtype=np.int64)  # code + 1 (0: empty), class
    codes = np.empty(rows.shape[0], dtype=np.int64)
    sums = np.empty((rows.shape[0], width), dtype=np.int64)  # rows touched: the classes
    n_classes = 0
    mask = (1 << bits) - 1
    for i in range(rows.shape[0]):
        r = rows[i]
        code = 0
        for c in range(n_keys):
            code = code * spans[c] + (r[key_slots[c]] - lo[c])
        h = np.int64(np.uint64(code * _HASH) >> np.uint64(64 - bits))
        while slots[h, 0] != 0 and slots[h, 0] != code + 1:
            h = (h + 1) & mask
        if slots[h, 0] == 0:
            slots[h, 0] = code + 1
            slots[h, 1] = n_classes
            codes[n_classes] = code
            s = sums[n_classes]
            s[:] = 0
            for c in range(n_keys):
                s[c] = r[key_slots[c]]
            n_classes += 1
        s = sums[slots[h, 1]]
        if atlas:
            gain2 = r[AF_DIFF2] - r[AF_DIFF2_PASS]
            s[n_keys] += 1
            s[n_keys + 1] += r[AF_POLICY_CALLED]
            s[n_keys + 2] += r[AF_TAKERS]
            s[n_keys + 3] += r[AF_MADE]
            s[n_keys + 4] += r[AF_DEDANS]
            s[n_keys + 5] += r[AF_CAPOT]
            s[n_keys + 6] += gain2
            s[n_keys + 7] += gain2 * gain2
        else:
            for c in range(n_keys, width):
                s[c] += r[c]
    return codes[:n_classes], sums[:n_classes]


@jit
def _merge_sorted(a, b, n_keys, out):
    """Merge the sorted tables ``a`` and ``b`` into ``out``, adding the sums of a key
    both hold; return the rows written."""
    i = j = m = 0
    while i < len(a) and j < len(b):
        order = 0
        for c in range(n_keys):
            if a[i, c] != b[j, c]:
                order = -1 if a[i, c] < b[j, c] else 1
                break
        if order < 0:
            out[m] = a[i]
            i += 1
        elif order > 0:
            out[m] = b[j]
            j += 1
        else:
            out[m] = a[i]
            out[m, n_keys:] += b[j, n_keys:]
            i += 1
            j += 1
        m += 1
    for k in range(i, len(a)):
        out[m] = a[k]
        m += 1
    for k in range(j, len(b)):
        out[m] = b[k]
        m += 1
    return m
