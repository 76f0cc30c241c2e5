"""Counter-based random streams: every deal's randomness is a pure function of its key.

A stream is a ``uint64[1]`` state array. :func:`seed_stream` sets it from
``(seed, a, b)`` (for a simulation: seed and global deal index; for a match: seed,
match index and deal number), then every draw steps the state by SplitMix64's gamma and
scrambles it (:func:`rand_below`, :func:`rand_float`; :func:`below_from` and
:func:`float_from` for a loop that holds the state in a local). Nothing depends on
threads, chunking or the machine, so a run is reproducible.

>>> import numpy as np
>>> from belote_sim.kernels.rng import seed_stream, rand_below
>>> s = np.zeros(1, np.uint64)
>>> seed_stream(s, 42, 7, 0); a = [int(rand_below(s, 10)) for _ in range(5)]
>>> seed_stream(s, 42, 7, 0); b = [int(rand_below(s, 10)) for _ in range(5)]
>>> a == b and all(0 <= x < 10 for x in a)
True
"""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_K_A = np.uint64(0xD1B54A32D192ED03)
_K_B = np.uint64(0x8CB92BA72F3D8DD7)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S11 = np.uint64(11)
_LOW32 = np.int64(0xFFFFFFFF)


@jit(inline="always")
def mix64(z):
    """SplitMix64's finaliser: a bijective scramble of a uint64."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@jit
def seed_stream(state, seed, a, b):
    """Start the stream of key ``(seed, a, b)`` (all non-negative integers)."""
    z = mix64(np.uint64(seed) ^ _GOLDEN)
    z = mix64(z ^ (np.uint64(a) * _K_A))
    z = mix64(z ^ (np.uint64(b) * _K_B))
    state[0] = z


@jit(inline="always")
def rand_below(state, n):
    """Uniform integer in ``0..n-1`` (``1 <= n < 2**31``), exactly unbiased (Lemire)."""
    value, z = below_from(state[0], n)
    state[0] = z
    return value


@jit(inline="always")
def below_from(z, n):
    """:func:`rand_below` of a stream whose state ``z`` a loop holds in a local (the
    shuffle): ``(value, next state)``.

    ``n = 1`` (a forced card) takes no branch of its own: the value is 0 whatever the
    bits, and the rejection loop cannot run (its threshold is 0); a branch on it would be
    mispredicted whenever a seat's legal cards shrink to one."""
    z += _GOLDEN
    value, low = draw_below(z, n)
    if low < n:
        t = ((1 << 32) - n) % n
        while low < t:
            z += _GOLDEN
            value, low = draw_below(z, n)
    return value, z


@jit(inline="always")
def draw_below(z, n):
    """One draw of :func:`below_from` at the (already stepped) stream state ``z``,
    before its rejection test: ``(value, low)``; the value stands unless ``low < n``."""
    m = np.int64(mix64(z) >> _S32) * n
    return m >> 32, m & _LOW32


@jit(inline="always")
def rand_float(state):
    """Uniform float in ``[0, 1)`` with 53 random bits."""
    value, z = float_from(state[0])
    state[0] = z
    return value


@jit(inline="always")
def float_from(z):
    """:func:`rand_float` of a stream whose state ``z`` a loop holds in a local:
    ``(value, next state)``."""
    z += _GOLDEN
    return np.float64(mix64(z) >> _S11) * (1.0 / 9007199254740992.0), z
