"""Which code a claim's trials reach: the functions of ``iln/`` and ``verification/`` they run.

A run traces the first trial of every batch it computes (:func:`traced`), and the store keeps,
per claim, the units of code (:mod:`verification.fingerprint`) those trials reached, so that a
later run reuses the claim's trials while those units are unchanged, whatever else changed.

Why the first trial of a batch only.  Under Python 3.11 any trace function turns off the
interpreter's specialised instructions, which slows Python-heavy trials by 1.2 to 3 times
(measured on the smoke profile of the catalog: 69 s of trials became 84 s, and
``rks.fig1.vs_adaboost``, whose records are wall-clock times, 3 times slower).  A trial's
trace stands for its batch's (50 trials) because the trials of a claim run the same code on
other numbers: on the smoke profile, for every claim of the catalog, the units reached by all
trials equal those reached by the first trial of each batch.  A branch that only some seeds
take, in a function no other trial of the batch calls, would be missed; the first trials of
the other batches, each on another seed, narrow that further.  A traced trial whose code names
a clock (:data:`CLOCKS`) is computed again untraced, so that no stored timing is a traced one.

What counts as reached:

- every Python function of the fingerprinted packages that runs during the trial (a global
  trace function, :func:`sys.settrace`, sees each new frame once; it returns no local tracer,
  so lines are not traced);
- every numba kernel such a function names (a compiled kernel runs no Python frame), and the
  kernels those name in turn: named is enough, called or not; named directly, through a module
  of ours (at any depth), as an attribute of a class of ours or of the method's own class, or
  in a small table (a dict, list or tuple of at most 64 items) so named;
- for the code that :mod:`dataclasses` generates (``__init__``, ``__eq__``, ...), which has no
  source file, the whole module of the class;
- the class and the module-level code (imports, constants) of each of these
  (:meth:`verification.fingerprint.CodeIndex.closure`).

Caches.  The claim modules cache values (instances, exact tails, warm-started runs) with
``functools.cache``, and the rules a sign test's critical count; a trial (or a decision,
:mod:`verification.stored_decisions`) that reads a cached value runs none of the code that
computed it.
So the caches are cleared whenever a process starts tracing another claim or another run
(:func:`traced`): the first trial of a claim in a process computes, and is traced computing,
what the later ones read.  A Dask worker running several threads shares one cache between
claims running at once; run such workers with one thread each (as the tests do) for a precise
reach.

Examples
--------
>>> from iln import theory
>>> with traced(("doctest", 0)) as recorder:
...     _ = theory.regret_bound_proof(1.0, 100)
>>> "iln/theory.py:regret_bound_proof" in recorder.functions()
True
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
import os
import sys
import types
from collections.abc import Hashable, Iterable, Iterator
from pathlib import Path
from typing import Literal

from verification.fingerprint import (
    MODULE,
    PACKAGES,
    ROOT,
    CodeIndex,
    imported_module_code,
    is_fingerprinted,
    is_users_module,
    users_imports,
)

__all__ = ["CLOCKS", "Recorder", "clear_claim_caches", "traced", "unit_of_function", "units_reached"]

def _package_prefixes() -> dict[str, str]:
    """The prefix of every file of each fingerprinted package, to its package's name: the
    resolved one of :data:`ROOT`, and the one the package was imported from, which a code
    object's ``co_filename`` carries.  They differ when the checkout is reached through a
    symbolic link (macOS's ``/tmp`` and ``/var/folders``, a link to a checkout); before
    2026-11-28 such a trace saw none of our functions, and its near-empty reach was saved."""
    prefixes = {f"{ROOT / p}/": p for p in PACKAGES}
    for package in PACKAGES:
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            spec = None
        origin = getattr(spec, "origin", None)
        if isinstance(origin, str):
            prefixes.setdefault(f"{os.path.dirname(os.path.abspath(origin))}/", package)
    return prefixes


_PREFIXES = _package_prefixes()
#: prefix of the files of every fingerprinted package.
_ROOTS = tuple(_PREFIXES)
#: a reached module's code that has no source file of its own (dataclasses' methods).
WHOLE_MODULE = "*"
#: the names of :mod:`time`'s clocks and :mod:`datetime`'s "now" (``time.time`` is named ``time``,
#: as the module is: code that names either is taken to read the clock).
CLOCKS = frozenset({"perf_counter", "perf_counter_ns", "process_time", "process_time_ns", "monotonic",
                    "monotonic_ns", "time", "time_ns", "thread_time", "thread_time_ns", "clock_gettime",
                    "clock_gettime_ns", "localtime", "gmtime", "ctime", "now", "utcnow", "today"})


#: the largest container a trace looks into for kernels: a table of kernels is small, and a
#: module's table of numbers is not searched item by item at every traced call.
_TABLE_SIZE = 64

#: the modules whose caches a trace starts without: the claims' (instances, exact values,
#: warm-started runs) and the rules' (a sign test's critical count, which decisions read).
_CACHING = ("verification.claims", "verification.rules")


def clear_claim_caches() -> None:
    """Forget what the claim modules and the rules cached.

    A cached value was computed by the code of its time and by the trial (or decision) that
    came first: one that reads it runs none of that code, so its trace would miss it.  The
    catalog's planned sample sizes are not cleared: they are fixed before a run.
    """
    for name, module in list(sys.modules.items()):
        if name.startswith(_CACHING) and module is not None:
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def _ours(module_name: object) -> bool:
    return isinstance(module_name, str) and module_name.split(".", 1)[0] in PACKAGES


def _names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


class Recorder:
    """A global trace function noting the code objects that run, each once."""

    def __init__(self) -> None:
        # Every code object seen, ours or not, so that the trace function returns at once the
        # second time; the value says where it belongs (None: a file of ours; a str: a module
        # of ours without a source file; False: not ours).
        self._seen: dict[types.CodeType, str | Literal[False] | None] = {}
        self._kernels: set[types.CodeType] = set()
        self._clocks: set[str] = set()  # the files (a user's modules) of the code that names a clock
        self._users: set[str] = set()  # the user's modules whose code ran

    def __call__(self, frame: types.FrameType, event: str, arg: object) -> None:
        """The trace function (:func:`sys.settrace`): note the frame's code the first time it runs."""
        code = frame.f_code
        if code not in self._seen:
            self._first(code, frame.f_globals)
        return None

    def _first(self, code: types.CodeType, module_globals: dict) -> None:
        if code.co_filename.startswith(_ROOTS):
            self._seen[code] = None
            self._named_kernels(code, module_globals)
            if CLOCKS & set(code.co_names):
                self._clocks.add(_relative(code.co_filename))
        elif not code.co_filename.endswith(".py") and _ours(module_globals.get("__name__")):
            self._seen[code] = module_globals["__name__"]
        else:
            self._seen[code] = False
            name = module_globals.get("__name__")
            if isinstance(name, str) and is_users_module(name, code.co_filename):
                self._users.add(name)
                if CLOCKS & set(code.co_names):
                    self._clocks.add(name)

    def _named_kernels(self, code: types.CodeType, module_globals: dict) -> None:
        names = _names(code)
        # A method's own class: ``self._sampler`` names a class attribute of it.
        owner = module_globals.get(code.co_qualname.split(".", 1)[0]) if "." in code.co_qualname else None
        candidates = [module_globals.get(n) for n in names] + [owner]
        # Where else a named kernel may be held: ``numba_sampling.sum_products`` (the names of a
        # module of ours looked up in it, ``iln.numba_sampling`` at any depth), a class of ours'
        # attribute, a table of kernels (``{True: sum_products, ...}[parallel]``).
        searched: set[int] = set()
        k = 0
        while k < len(candidates):
            obj = candidates[k]
            k += 1
            if obj is None or id(obj) in searched:
                continue
            if (isinstance(obj, types.ModuleType) and _ours(obj.__name__)) or \
                    (isinstance(obj, type) and _ours(obj.__module__)):
                searched.add(id(obj))
                candidates += [getattr(obj, n, None) for n in names]
            elif isinstance(obj, (dict, list, tuple, set, frozenset)) and len(obj) <= _TABLE_SIZE:
                searched.add(id(obj))
                candidates += list(obj.values() if isinstance(obj, dict) else obj)
        for obj in candidates:
            py_func = getattr(obj, "py_func", None)  # a numba dispatcher's Python function
            if isinstance(py_func, types.FunctionType) and py_func.__code__.co_filename.startswith(_ROOTS) \
                    and py_func.__code__ not in self._kernels:
                self._kernels.add(py_func.__code__)
                self._named_kernels(py_func.__code__, py_func.__globals__)

    def reads_clock(self, besides: Iterable[str] = ()) -> bool:
        """Whether code that ran names a clock (:data:`CLOCKS`), outside the files ``besides``:
        the trace slows code down, so a record holding timings is wrong when traced."""
        return bool(self._clocks - set(besides))

    def functions(self) -> list[str]:
        """What ran, as ``"path:qualname"`` (``"path:*"`` for a module's generated code), and
        each module of the user's that ran as ``"dotted.name:<module>"`` (its whole source is
        its unit, :func:`verification.fingerprint.foreign_module`)."""
        out = {f"{name}:{MODULE}" for name in self._users}
        for code, where in self._seen.items():
            if where is None:
                out.add(f"{_relative(code.co_filename)}:{code.co_qualname}")
            elif where:
                out.add(f"{_module_file(where)}:{WHOLE_MODULE}")
        out |= {f"{_relative(c.co_filename)}:{c.co_qualname}" for c in self._kernels}
        return sorted(out)


def _relative(filename: str) -> str:
    for prefix, package in _PREFIXES.items():
        if filename.startswith(prefix):
            return f"{package}/{filename[len(prefix):]}"
    return filename[len(str(ROOT)) + 1:]


def unit_of_function(function: object, index: CodeIndex) -> str | None:
    """The unit of ``function`` (the function a wrapper wraps) when it lies in the packages,
    else None.  A trace that ran a claim's trial or decision holds that unit; one that does not
    missed what it was to record, and is not saved (:func:`verification.incremental.record_reach`,
    :mod:`verification.stored_decisions`)."""
    code = getattr(inspect.unwrap(function), "__code__", None) if callable(function) else None
    if not isinstance(code, types.CodeType):
        return None
    # Resolved, not by the trace's prefixes: this checks the trace, so it does not share its view.
    try:
        path = Path(os.path.realpath(code.co_filename)).relative_to(ROOT).as_posix()
    except ValueError:
        return None
    return index.unit_of(path, code.co_qualname) if path.split("/", 1)[0] in PACKAGES else None


def _module_file(module_name: str) -> str:
    module = sys.modules.get(module_name)
    filename = getattr(module, "__file__", None) or ""
    return _relative(filename) if filename.startswith(_ROOTS) else module_name.replace(".", "/") + ".py"


#: the (claim, run) this process traced last: its caches hold that claim's values only.
_LAST_TRACED: list[Hashable] = [None]


@contextlib.contextmanager
def traced(context: Hashable) -> Iterator[Recorder]:
    """Trace the code run in the ``with`` block (this thread only).

    Parameters
    ----------
    context : hashable
        What the block computes, e.g. ``(claim_id, run_token)``.  When it differs from the
        previous traced block's in this process, the claim modules' caches are cleared first
        (see the module docstring).
    """
    if _LAST_TRACED[0] != context:
        clear_claim_caches()
        _LAST_TRACED[0] = context
    recorder = Recorder()
    previous = sys.gettrace()
    sys.settrace(recorder)
    try:
        yield recorder
    finally:
        sys.settrace(previous)


def units_reached(functions: Iterable[str], index: CodeIndex) -> set[str]:
    """The units of ``index`` that the traced ``functions`` (:meth:`Recorder.functions`) lie in,
    with their closure (class and module code)."""
    units = set()
    foreign = set()
    for item in functions:
        path, qualname = item.rsplit(":", 1)
        if not path.endswith(".py"):
            foreign.add(item)  # a user's module, by its dotted name
            continue
        if not is_fingerprinted(path):
            continue  # the tracing's and the self-test's own code: no trial's numbers
        if qualname == WHOLE_MODULE:
            units.update(index.units_of(path) or [f"{path}:{MODULE}"])
        else:
            units.add(index.unit_of(path, qualname))
    # A constant imported by name (``from verification.catalog import DESIGN_POWER``) is read
    # without any function of its module running: the module code of every module a reached
    # module imports, at any depth, is reached too.
    closure = index.closure(units)
    # The same for a user's modules, which are keyed by their whole source.
    users = {f"{name}:{MODULE}" for name in users_imports(item.rsplit(":", 1)[0] for item in foreign)}
    return closure | imported_module_code(closure, index) | users
