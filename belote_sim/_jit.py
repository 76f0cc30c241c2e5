"""One set of Numba options for every kernel, and a cache that can never go stale.

Numba's own cache checks only the timestamp of the file that defines a function, so a
change in a jitted helper imported from *another* module would leave stale machine code
behind. Every kernel of belote_sim is therefore cached under a directory named after a
hash of the package sources below the runs layer: any edit there gives a fresh cache
directory.

The base directory is ``$BELOTE_SIM_CACHE_DIR``, else ``$NUMBA_CACHE_DIR``, else
``~/.cache/belote_sim``; the kernels live in ``<base>/numba-<source hash>``. Old
directories can be deleted at any time.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numba

PACKAGE_DIR = Path(__file__).resolve().parent

#: True when NUMBA_DISABLE_JIT=1: kernels then run as plain Python (for coverage, debugging).
DISABLE_JIT = bool(numba.config.DISABLE_JIT)


#: The layers above the batch kernels and the package's front door (``__init__.py``, which
#: only re-exports the studies and the deal logs): they hold no kernel, and the import contract
#: (``make test``) forbids every kernel to import them, so their sources stay out of the
#: hash and editing them keeps the compiled kernels.
ABOVE_KERNELS = ("report/", "studies/", "deallog/", "runner/", "stats.py", "cli.py",
                 "__main__.py", "__init__.py")


def source_hash(package_dir: Path = PACKAGE_DIR) -> str:
    """Hash of every ``.py`` file of the package that kernels may depend on (names and
    contents): all but :data:`ABOVE_KERNELS`. No data file is compiled into a kernel (the
    ``table`` bidder's lookups reach them as arrays), so none is hashed."""
    h = hashlib.sha256()
    for path in sorted(package_dir.rglob("*.py")):
        name = path.relative_to(package_dir).as_posix()
        if name.startswith(ABOVE_KERNELS):
            continue
        h.update(name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


SOURCE_HASH = source_hash()


def cache_dir() -> str:
    """Directory of this source tree's compiled kernels."""
    base = os.environ.get("BELOTE_SIM_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
        base = os.path.join(xdg, "belote_sim")
    return os.path.join(base, f"numba-{SOURCE_HASH}")


@contextlib.contextmanager
def kernel_cache() -> Iterator[None]:
    """Point Numba's cache at :func:`cache_dir` while kernels are decorated.

    Numba picks a function's cache locator when ``@njit(cache=True)`` runs, so setting
    the directory around the decoration is enough and leaves other users' numba alone.
    """
    old = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = cache_dir()
    try:
        yield
    finally:
        numba.config.CACHE_DIR = old


def _kernel_decorator(**options: Any) -> Callable:
    """``numba.njit`` with ``options``, cached under :func:`cache_dir`; usable bare
    (``@jit``) or with more options (``@jit(inline="always")``). Each module decorates
    its own kernels, so any module can be imported alone."""

    def decorate(fn: Callable | None = None, **more: Any) -> Any:
        if fn is None:
            return functools.partial(decorate, **more)
        with kernel_cache():
            return numba.njit(**options, **more)(fn)

    return decorate


#: The decorator of every kernel: nopython, cached, no GIL, numpy error model
#: (no Python exceptions from integer division: kernels never raise).
jit = _kernel_decorator(cache=True, nogil=True, error_model="numpy")
#: The same for kernels that allocate nothing, only read and write the arrays they are
#: given: Numba then emits no reference counting for those arrays. Otherwise every
#: array handed to a callee (inlined or not) costs an atomic increment and decrement,
#: a visible share of the time of a kernel as hot as the solver's search. A
#: kernel that allocates does not compile with it: Numba's runtime, the ``_nrt``
#: option, is off.
jit_no_refcount = _kernel_decorator(cache=True, nogil=True, error_model="numpy", _nrt=False)
#: Numba lets a kernel without ``_nrt`` inherit it from its caller, so a kernel called
#: from a ``jit_no_refcount`` one compiles without the runtime too. The kernels that
#: allocate and may be called from there (the solver players' entry points) say so:
#: with this decorator they keep the runtime whoever calls them.
jit_refcounted = _kernel_decorator(cache=True, nogil=True, error_model="numpy", _nrt=True)
#: The same for the parallel (prange) chunk kernels.
jit_parallel = _kernel_decorator(cache=True, nogil=True, error_model="numpy", parallel=True)
