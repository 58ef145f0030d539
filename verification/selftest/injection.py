"""Run-time source edits: how a planted defect enters the library without touching its files.

An *edit* replaces one snippet of the source of one function by another, compiles the result
and swaps it in; undoing it swaps the original back.  Two kinds:

:class:`CodeEdit`
    a pure-Python function or method.  Its ``__code__`` is replaced in place, so every
    reference to the function sees the edit, including names bound by ``from m import f``
    before the edit (the claim modules import Algorithm 1 that way).
:class:`CompiledModuleEdit`
    a numba module.  A compiled kernel inlines the kernels it calls at compile time, so
    swapping one of them changes nothing; instead the whole module is compiled again from
    the edited source (without numba's file cache, which must never hold a defect) and the
    entry points that the rest of the library reads through the module are re-pointed.

An edit whose snippet does not occur exactly once refuses to apply (``ValueError``): a
refactoring of the library then breaks the defect loudly instead of turning it into a
silent no-op, which would count as a defect no claim flags.
"""

from __future__ import annotations
import __future__

import contextlib
import hashlib
import importlib
import inspect
import json
import textwrap
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from verification.fingerprint import source_units

# Re-exported: the runner clears the caches before tracing a claim, the self-test before
# planting a defect; one definition serves both.
from verification.reach import clear_claim_caches

__all__ = [
    "CodeEdit",
    "CompiledModuleEdit",
    "Edit",
    "apply_all",
    "clear_claim_caches",
    "edits_applied",
    "edits_digest",
    "edits_json",
    "python_function",
    "resolve",
    "swap_code",
]

#: compiled as the library is (its modules use postponed annotations).
_FLAGS = __future__.annotations.compiler_flag


def resolve(module: str, qualname: str):
    """The object ``module.qualname`` (a dotted path inside the module, e.g. ``Class.method``)."""
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def _replace_once(source: str, old: str, new: str, where: str) -> str:
    count = source.count(old)
    if count != 1:
        raise ValueError(f"edit of {where}: the snippet {old!r} occurs {count} times, expected once "
                         "(the library changed; update the defect)")
    return source.replace(old, new)


@dataclass(frozen=True)
class CodeEdit:
    """Replace ``old`` by ``new`` in the source of the function ``module.qualname``.

    Parameters
    ----------
    module : str
        Importable module name, e.g. ``"iln.estimator"``.
    qualname : str
        The function inside it, e.g. ``"_fast"`` or ``"RandomFourier._activation"``.
    old, new : str
        A snippet of the function's source, found exactly once, and its replacement.
    """

    module: str
    qualname: str
    old: str
    new: str

    @property
    def where(self) -> str:
        """The edited function, as ``module.qualname``."""
        return f"{self.module}.{self.qualname}"

    def apply(self) -> Callable[[], None]:
        """Swap the edited code in; returns the function that swaps the original back."""
        func = python_function(self.module, self.qualname)
        source = textwrap.dedent(inspect.getsource(func))
        return swap_code(func, _replace_once(source, self.old, self.new, self.where), self.where)


def python_function(module: str, qualname: str) -> types.FunctionType:
    """The pure-Python function ``module.qualname``; ``TypeError`` for anything else."""
    func = resolve(module, qualname)
    if not isinstance(func, types.FunctionType):
        raise TypeError(f"edit of {module}.{qualname}: not a Python function ({type(func).__name__})")
    return func


def swap_code(func: types.FunctionType, source: str, where: str) -> Callable[[], None]:
    """Compile ``source`` (the dedented definition of ``func``, edited) into ``func.__code__``.

    Returns the function that swaps the original code back.
    """
    original = func.__code__
    # Padding keeps the line numbers of tracebacks those of the file.
    padded = "\n" * (original.co_firstlineno - 1) + source
    code = compile(padded, inspect.getsourcefile(func) or "<edit>", "exec", flags=_FLAGS,
                   dont_inherit=True)
    namespace: dict = {}
    exec(code, func.__globals__, namespace)
    replacement = namespace[func.__name__]
    if replacement.__code__.co_freevars != original.co_freevars:
        raise ValueError(f"edit of {where}: the edit changes the function's closure")
    # Compiled alone, a method's code is named ``m``, not ``C.m``: with the original's name a
    # trace (verification.reach) records the edited code as the unit it replaces.
    func.__code__ = replacement.__code__.replace(co_qualname=original.co_qualname)

    def undo() -> None:
        func.__code__ = original

    return undo


@dataclass(frozen=True)
class CompiledModuleEdit:
    """Compile an edited copy of a numba module and re-point its ``entry_points`` to it.

    Parameters
    ----------
    module : str
        The numba module, e.g. ``"iln.numba_sampling"``.
    old, new : str
        A snippet of the module's source, found exactly once, and its replacement.
    entry_points : tuple of str
        Module attributes the rest of the library calls through the module at run time.
    """

    module: str
    old: str
    new: str
    entry_points: tuple[str, ...]

    @property
    def where(self) -> str:
        """The edited kernel module and the entry points that call it."""
        return f"{self.module} ({', '.join(self.entry_points)})"

    def apply(self) -> Callable[[], None]:
        """Point the entry points at the edited kernels; returns the function that restores them."""
        original = importlib.import_module(self.module)
        source = inspect.getsource(original)
        edited = _replace_once(source, self.old, self.new, self.where)
        # numba caches compiled code by source file; a defect must never reach that cache.
        edited = edited.replace("cache=True", "cache=False")
        copy = types.ModuleType(f"{self.module}__defect")
        copy.__dict__["__file__"] = original.__file__
        # Compiled under the module's own file name (the cache is off): a trace then records
        # the edited kernels as the units of the module they replace (verification.reach).
        exec(compile(edited, original.__file__ or self.module, "exec", flags=_FLAGS, dont_inherit=True), copy.__dict__)
        saved = {name: getattr(original, name) for name in self.entry_points}
        for name in self.entry_points:
            setattr(original, name, getattr(copy, name))

        def undo() -> None:
            for name, value in saved.items():
                setattr(original, name, value)

        return undo


Edit = CodeEdit | CompiledModuleEdit


@contextlib.contextmanager
def edits_applied(edits: tuple[Edit, ...]) -> Iterator[None]:
    """Apply ``edits`` for the duration of the block (all or none; undone in reverse order)."""
    undo = apply_all(edits)
    try:
        yield
    finally:
        undo()


def edits_json(edits: tuple[Edit, ...]) -> list[dict]:
    """The edits as a report shows them: ``{"where", "old", "new"}`` each, in order."""
    return [{"where": e.where, "old": e.old, "new": e.new} for e in edits]


def edits_digest(edits: tuple[Edit, ...]) -> str:
    """16 hex digits naming what ``edits`` plant: the edits themselves and the code of this
    module that plants them (its units' digests, :func:`verification.fingerprint.source_units`,
    so a comment or docstring changes nothing).

    The planted code is the edited source of functions on disk: a trial's code state
    (:mod:`verification.incremental`) covers the functions' source, and this digest the edit.
    Stored trials of a planted change are keyed by both, so editing a defect or a mutant, or
    how edits are planted, computes its trials again.
    """
    machinery = source_units(Path(__file__).read_text())
    text = json.dumps({"edits": edits_json(edits), "machinery": machinery}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def apply_all(edits: tuple[Edit, ...]) -> Callable[[], None]:
    """Apply ``edits`` in order; if one fails, undo the others and re-raise."""
    undos: list[Callable[[], None]] = []

    def undo_all() -> None:
        while undos:
            undos.pop()()
        clear_claim_caches()

    try:
        for edit in edits:
            undos.append(edit.apply())
    except BaseException:
        undo_all()
        raise
    clear_claim_caches()
    return undo_all
