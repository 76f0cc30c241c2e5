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
import inspect
import os
import textwrap
import types
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


def cache_base() -> str:
    """The directory that holds the kernel caches of every source tree."""
    base = os.environ.get("BELOTE_SIM_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
        base = os.path.join(xdg, "belote_sim")
    return base


def cache_dir() -> str:
    """Directory of this source tree's compiled kernels."""
    return os.path.join(cache_base(), f"numba-{SOURCE_HASH}")


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


def copy_callees_once() -> bool:
    """Make Numba's inlining copy a callee's IR in time linear in its size; return
    whether Numba's code was the one this expects (else it is left alone: the kernels
    compile as well, only slower).

    ``InlineWorker.inline_ir`` copies the callee block by block, each with
    ``copy.deepcopy`` and a memo of its own. Every block refers to the function's one
    scope, which holds all its variables, so every block copies every variable: an
    inlining costs blocks times variables. The deal's phases are inlined into one
    another (each call of its own costs the deal rate), and these copies were a large
    share of a first run's compilation.
    With one memo for the whole copy the scope is copied once and the copied blocks share
    it, as the blocks of the original do; the compiled code is the same.
    """
    from numba.core import inline_closurecall

    worker = inline_closurecall.InlineWorker
    if getattr(worker.inline_ir, "copies_callees_once", False):
        return True
    try:
        source = textwrap.dedent(inspect.getsource(worker.inline_ir))
    except (OSError, TypeError):
        return False
    start = "        kernel_copy.blocks = {}\n"
    per_block = "copy.deepcopy(the_ir.blocks[block_label])"
    if source.count(start) != 1 or source.count(per_block) != 1:
        return False
    source = source.replace(start, start + "        memo = {}\n")
    source = source.replace(per_block, "copy.deepcopy(the_ir.blocks[block_label], memo)")
    namespace: dict[str, Any] = {}
    exec(compile(source, inline_closurecall.__file__, "exec"), vars(inline_closurecall),
         namespace)
    patched = namespace["inline_ir"]
    patched.copies_callees_once = True
    worker.inline_ir = patched
    return True


#: Whether :func:`copy_callees_once` applies to this Numba (the kernels' first compilation
#: takes longer without it).
COPIES_CALLEES_ONCE = copy_callees_once()


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


#: The plain-Python forms of kernels that compile to an LLVM intrinsic, which
#: :func:`python_form` cannot take from their source (``kernels/bits.py`` adds them).
PYTHON_FORMS: dict[Any, Callable] = {}


def python_form(kernel: Any) -> Callable:
    """``kernel`` as plain Python, every jitted callee it names plain Python too: what
    ``NUMBA_DISABLE_JIT=1`` would run. For the tables a module derives at import from a
    kernel's own code (read by other kernels as constants), without compiling or loading
    the kernel and its callees from the cache, which every import would pay for.

    >>> from belote_sim.kernels.bits import popcount
    >>> python_form(popcount)(0b1011)
    3
    """
    if kernel in PYTHON_FORMS:
        return PYTHON_FORMS[kernel]
    func = getattr(kernel, "py_func", None)
    if func is None:  # not a kernel, or NUMBA_DISABLE_JIT=1
        return kernel
    names = dict(func.__globals__)
    for name in func.__code__.co_names:
        if isinstance(names.get(name), numba.core.dispatcher.Dispatcher):
            names[name] = python_form(names[name])
    plain = types.FunctionType(func.__code__, names, func.__name__, func.__defaults__,
                               func.__closure__)
    PYTHON_FORMS[kernel] = plain
    return plain


#: ``BELOTE_SIM_COMPILE_ALL=1``: every kernel compiles the deal functions of every family
#: of rule sets and the code of every player (the solver, the table bidder), not only
#: what its run plays (:func:`belote_sim.players.seating.families_for`,
#: :func:`~belote_sim.players.seating.solver_need`,
#: :func:`belote_sim.players.lookup.lookup_for`). Fewer, larger compilations, for a
#: session that plays many rule sets with many players: the test suite sets it.
COMPILE_ALL = os.environ.get("BELOTE_SIM_COMPILE_ALL") == "1"

#: The options of :data:`jit`, for code compiled by other means (overloads).
KERNEL_OPTIONS = {"nogil": True, "error_model": "numpy"}
#: The options of :data:`jit_no_refcount`, for code compiled by other means (overloads).
NO_REFCOUNT = {**KERNEL_OPTIONS, "_nrt": False}
#: The decorator of every kernel: nopython, cached, no GIL, numpy error model
#: (no Python exceptions from integer division: kernels never raise).
jit = _kernel_decorator(cache=True, **KERNEL_OPTIONS)
#: The same for kernels that allocate nothing, only read and write the arrays they are
#: given: Numba then emits no reference counting for those arrays. Otherwise every
#: array handed to a callee (inlined or not) costs an atomic increment and decrement,
#: a visible share of the time of a kernel as hot as the solver's search. A
#: kernel that allocates does not compile with it: Numba's runtime, the ``_nrt``
#: option, is off.
jit_no_refcount = _kernel_decorator(cache=True, **NO_REFCOUNT)
#: Numba lets a kernel without ``_nrt`` inherit it from its caller, so a kernel called
#: from a ``jit_no_refcount`` one compiles without the runtime too. The kernels that
#: allocate and may be called from there (the solver players' entry points) say so:
#: with this decorator they keep the runtime whoever calls them.
jit_refcounted = _kernel_decorator(cache=True, nogil=True, error_model="numpy", _nrt=True)
