"""Fingerprints of the code a claim's trials reach: when stored trials still hold.

A trial is a pure function of its claim's configuration, its seed and the code it runs, so a
stored trial can be reused as long as that code is unchanged.  "The code" is split into
*units*, each named ``path:name`` relative to the repository root:

- ``iln/estimator.py:estimate_scalar_product``: a function defined at the top of a module,
  with its decorators, default values and the functions nested in it;
- ``iln/features.py:RandomFourier.sample``: a method of a class defined at the top of a module;
- ``iln/features.py:RandomFourier``: the rest of the class (bases, decorators, class attributes,
  dataclass fields, nested classes);
- ``iln/estimator.py:<module>``: the rest of the module (imports, constants, code under ``if``).

A unit's digest is the SHA-256 of its syntax tree (:func:`ast.dump`) without docstrings, so an
edited comment, docstring or layout changes nothing, and the digest is the same in every
process (no ``id()`` or ``hash()``).  It is computed from the source text alone, so the code at
another git revision (:func:`revision_index`) is fingerprinted without importing it.

A *code state* is the digests of a set of units plus the versions of the packages the numbers
depend on; its id (:func:`code_id`) keys a claim's stored trials.  The set is what the trials
were traced to reach (:mod:`verification.reach`), or, before any trial was traced, the
conservative set of :func:`conservative_units`.

Examples
--------
>>> units = source_units("import math\\nX = 1\\ndef f(a):\\n    '''doc'''\\n    return a + X\\n")
>>> sorted(units)
['<module>', 'f']
>>> units == source_units("import math\\nX = 1\\ndef f(a):  # a comment\\n    return a + X\\n")
True
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import json
import platform
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

__all__ = [
    "MODULE",
    "PACKAGES",
    "ROOT",
    "CodeIndex",
    "GitRevisionError",
    "StaleCodeError",
    "changes",
    "check_not_stale",
    "claim_module_path",
    "code_id",
    "conservative_units",
    "current_index",
    "foreign_module",
    "imported_module_code",
    "is_fingerprinted",
    "revision_index",
    "source_units",
    "state_now",
    "trial_entry_units",
    "versions",
]

#: the repository root: the directory holding the packages ``iln`` and ``verification``.
ROOT = Path(__file__).resolve().parents[1]
#: the packages whose code is fingerprinted.
PACKAGES = ("iln", "verification")
#: the name of a module's code outside its functions and classes.
MODULE = "<module>"
#: the packages whose versions change the numbers of a trial.
VERSIONED = ("numpy", "scipy", "numba", "statsmodels", "scikit-learn", "hypothesis")
#: parts of the engine no trial runs: fingerprinting them would only cost reruns.
_NOT_TRIAL_CODE = ("verification/report/", "verification/selftest/", "verification/cli.py",
                   "verification/__main__.py", "verification/fingerprint.py", "verification/reach.py",
                   "verification/incremental.py")
#: the engine code every trial runs: it derives the trial's seed, sets the libraries' threads
#: and calls the trial.
_TRIAL_ENTRY = "verification/trials.py"


class GitRevisionError(ValueError):
    """A git revision cannot be read: not a checkout, git missing, or an unknown revision."""


def _digest(node: ast.AST) -> str:
    return hashlib.sha256(ast.dump(node).encode()).hexdigest()[:16]


def _without_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    first = body[0] if body else None
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        return body[1:]
    return body


def _function(node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.stmt:
    # A copy with the body's docstring dropped; nested functions keep theirs (they are rare).
    return type(node)(name=node.name, args=node.args, body=_without_docstring(node.body),
                      decorator_list=node.decorator_list, returns=node.returns,
                      type_comment=node.type_comment)


def source_units(text: str) -> dict[str, str]:
    """The digest of every unit of one module's source, by unit name (``f``, ``C.m``, ``C``,
    :data:`MODULE`).

    Parameters
    ----------
    text : str
        The module's source.

    Returns
    -------
    dict of str to str
        16 hex digits per unit.  Two definitions of one name (a property and its setter) make
        one unit.

    Raises
    ------
    SyntaxError
        The source does not parse.
    """
    parts: dict[str, list[ast.stmt]] = {}
    rest: list[ast.stmt] = []
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    for node in _without_docstring(ast.parse(text).body):
        if isinstance(node, functions):
            parts.setdefault(node.name, []).append(_function(node))
        elif isinstance(node, ast.ClassDef):
            body = []
            for item in _without_docstring(node.body):
                if isinstance(item, functions):
                    parts.setdefault(f"{node.name}.{item.name}", []).append(_function(item))
                else:
                    body.append(item)
            parts.setdefault(node.name, []).append(ast.ClassDef(
                name=node.name, bases=node.bases, keywords=node.keywords, body=body,
                decorator_list=node.decorator_list))
        else:
            rest.append(node)
    digests = {name: _digest(ast.Module(body=nodes, type_ignores=[])) if len(nodes) > 1 else _digest(nodes[0])
               for name, nodes in parts.items()}
    digests[MODULE] = _digest(ast.Module(body=rest, type_ignores=[]))  # last, as it always was
    return digests


@dataclass(frozen=True)
class CodeIndex:
    """The digests of every unit of the fingerprinted packages at one version of the code.

    Attributes
    ----------
    digests : dict of str to str
        ``"path:unit"`` to its digest; ``path`` is relative to the repository root.
    """

    digests: dict[str, str]

    @functools.cached_property
    def _by_path(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for unit in sorted(self.digests):
            out.setdefault(unit.rsplit(":", 1)[0], []).append(unit)
        return out

    def units_of(self, path: str) -> list[str]:
        """Every unit of the module at ``path`` (relative to the root), sorted."""
        return list(self._by_path.get(path, []))

    def paths(self) -> list[str]:
        """The fingerprinted module paths, sorted."""
        return sorted(self._by_path)

    def unit_of(self, path: str, qualname: str) -> str:
        """The unit holding the function ``qualname`` (``code.co_qualname``) of ``path``.

        A function nested in another (``f.<locals>.g``, a comprehension, a lambda) belongs to
        the outermost one; a method of a nested class to its top-level class; a function
        defined under ``if`` or ``try`` at the top level to :data:`MODULE`.
        """
        names = qualname.split(".<locals>", 1)[0].split(".")
        while names:
            unit = f"{path}:{'.'.join(names)}"
            if unit in self.digests:
                return unit
            names.pop()
        return f"{path}:{MODULE}"

    def closure(self, units: Iterable[str]) -> set[str]:
        """``units`` with what they use implicitly: a method's class unit, and the
        :data:`MODULE` unit (imports, constants) of every module they lie in."""
        out = set()
        for unit in units:
            path, name = unit.rsplit(":", 1)
            out.add(unit)
            out.add(f"{path}:{MODULE}")
            if "." in name:
                out.add(f"{path}:{name.split('.', 1)[0]}")
        return out

    def state(self, units: Iterable[str]) -> dict[str, str]:
        """The digest of each unit now, ``"absent"`` for a unit this code lacks (deleted or
        renamed: a change like any other)."""
        return {u: self.digests.get(u, "absent") for u in sorted(units)}


def _index(sources: Mapping[str, str]) -> CodeIndex:
    digests = {}
    for path, text in sorted(sources.items()):
        try:
            units = source_units(text)
        except SyntaxError:
            # A module that does not parse cannot have run: one unit that differs from any
            # parsed version stands for it.
            units = {MODULE: "unparsable-" + hashlib.sha256(text.encode()).hexdigest()[:8]}
        digests.update({f"{path}:{name}": d for name, d in units.items()})
    return CodeIndex(digests)


def is_fingerprinted(path: str) -> bool:
    """Whether the module at ``path`` (relative to the root) is code a trial may run: the
    report, the CLI, the self-test and the fingerprinting itself are not."""
    return path.endswith(".py") and not path.startswith(_NOT_TRIAL_CODE)


_DISK_CACHE: dict[str, tuple[tuple[int, int], dict[str, str]]] = {}
#: the digests this process first read for each file whose module it had imported by then.
_FIRST_READ: dict[str, tuple[str, dict[str, str]]] = {}


class StaleCodeError(RuntimeError):
    """A module this process imported has changed on disk since: the code it runs is not the
    code the store would key its trials and decisions by."""


def current_index(root: Path = ROOT) -> CodeIndex:
    """The index of the code on disk under ``root`` (cached per file by size and mtime)."""
    digests = {}
    for package in PACKAGES:
        for file in sorted((root / package).rglob("*.py")):
            path = file.relative_to(root).as_posix()
            if not is_fingerprinted(path):
                continue
            stat = file.stat()
            key = str(file)
            cached = _DISK_CACHE.get(key)
            if cached is None or cached[0] != (stat.st_size, stat.st_mtime_ns):
                cached = ((stat.st_size, stat.st_mtime_ns), _index({path: file.read_text()}).digests)
                _DISK_CACHE[key] = cached
            if key not in _FIRST_READ and _imported(path):
                _FIRST_READ[key] = (path, cached[1])
            digests.update(cached[1])
    return CodeIndex(digests)


def _imported(path: str) -> bool:
    name = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    return name in sys.modules


def check_not_stale(root: Path = ROOT) -> CodeIndex:
    """Raise :class:`StaleCodeError` if a module of the packages that this process had imported
    when it first read the code has changed on disk since (its units' digests, so a comment or
    a touch does not count).

    Trials run in worker processes read the code on disk, but decisions, and trials with one
    job, run the code this process imported: keyed by the disk, they would be saved under
    code they did not run, and reused by every later run.  A long-lived process (the
    self-test campaign runs all its units in one) must be started again after an edit.

    Returns
    -------
    CodeIndex
        The code on disk, which is then the code this process runs.
    """
    index = current_index(root)
    changed = sorted(path for key, (path, first) in _FIRST_READ.items() if _DISK_CACHE[key][1] != first)
    if changed:
        raise StaleCodeError(f"{', '.join(changed)} changed on disk since this process imported it: "
                             f"start the command again (stored trials and decisions are keyed by the "
                             f"code on disk, and this process runs the code it imported)")
    return index


def revision_index(revision: str, root: Path = ROOT) -> CodeIndex:
    """The index of the code at git revision ``revision`` of the checkout holding ``root``.

    Raises
    ------
    GitRevisionError
        ``root`` is not in a git checkout, git is missing, or ``revision`` names no commit;
        the message is one line.
    """
    def git(*args: str, stdin: bytes | None = None) -> bytes:
        try:
            done = subprocess.run(["git", "-C", str(root), *args], input=stdin, capture_output=True,
                                  timeout=60, check=False)
        except (OSError, subprocess.SubprocessError) as exc:
            raise GitRevisionError(f"--changed: git cannot run ({exc})") from None
        if done.returncode != 0:
            message = " ".join(done.stderr.decode(errors="replace").split()) or f"git {args[0]} failed"
            raise GitRevisionError(f"--changed: {message}")
        return done.stdout

    if not revision or revision.startswith("-"):
        raise GitRevisionError(f"--changed: expected a git revision, got {revision!r}")
    git("rev-parse", "--show-toplevel")  # a clear error outside a checkout
    try:
        commit = git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}").decode().strip()
    except GitRevisionError:
        raise GitRevisionError(f"--changed: {revision!r} names no commit of the checkout at {root}") from None
    prefix = git("rev-parse", "--show-prefix").decode().strip()  # root inside the repository
    listing = git("ls-tree", "-r", "-z", "--name-only", commit, "--", *(f"{prefix}{p}" for p in PACKAGES))
    paths = [p[len(prefix):] for p in listing.decode().split("\0") if p]
    paths = [p for p in paths if is_fingerprinted(p)]
    # One cat-file process for every file: a `git show` per file would cost a process each.
    request = "".join(f"{commit}:{prefix}{p}\n" for p in paths).encode()
    blob = git("cat-file", "--batch", stdin=request)
    sources, offset = {}, 0
    for path in paths:
        header_end = blob.index(b"\n", offset)
        size = int(blob[offset:header_end].split()[2])
        sources[path] = blob[header_end + 1:header_end + 1 + size].decode(errors="replace")
        offset = header_end + 1 + size + 1
    return _index(sources)


def _module_path(module: str, root: Path) -> str | None:
    parts = module.split(".")
    if parts[0] not in PACKAGES:
        return None
    for candidate in (Path(*parts).with_suffix(".py"), Path(*parts) / "__init__.py"):
        if (root / candidate).is_file():
            return candidate.as_posix()
    return None


def _imported_paths(path: str, root: Path) -> frozenset[str]:
    """The fingerprinted modules a module imports (statically, at any depth of its body)."""
    file = root / path
    stat = file.stat()
    return _imports_of(file, stat.st_size, stat.st_mtime_ns, path, root)


@functools.lru_cache(maxsize=1024)
def _imports_of(file: Path, size: int, mtime_ns: int, path: str, root: Path) -> frozenset[str]:
    # Keyed by the file's size and mtime: an edited module is parsed again.
    tree = ast.parse(file.read_text())
    package = Path(path).parent.as_posix().replace("/", ".")
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            # ``from p import m`` imports the module p.m when there is one, else p itself.
            names = [f"{base}.{a.name}" for a in node.names] + [base]
        else:
            continue
        for name in names:
            resolved = _module_path(name, root)
            if resolved is not None and is_fingerprinted(resolved):
                found.add(resolved)
    return frozenset(found)


def claim_module_path(claim, root: Path = ROOT) -> str:
    """The path (relative to ``root``) of the module defining a claim's trial function."""
    path = _module_path(claim.trial.__module__, root)
    if path is None:
        raise ValueError(f"claim {claim.id!r}: its trial's module {claim.trial.__module__!r} is "
                         f"not in {PACKAGES}")
    return path


def foreign_module(module_name: str) -> dict[str, str]:
    """The unit and digest of a module outside the fingerprinted packages (a test's claim, a
    paper of one's own): its whole source, as one unit ``"module.name:<module>"``; nothing
    for a module of the packages, whose units the index holds."""
    if module_name.split(".", 1)[0] in PACKAGES:
        return {}
    # The file on disk, as for the packages' units; found without the module imported in this
    # process too (a trial's helper that only a worker imported).
    module = sys.modules.get(module_name)
    try:
        file = getattr(module, "__file__", None) if module is not None else None
        if file is None:
            spec = importlib.util.find_spec(module_name)
            file = spec.origin if spec is not None else None
        source = Path(file).read_text() if file and file.endswith(".py") else ""
    except (OSError, ImportError, ValueError, UnicodeDecodeError):
        source = ""
    return {f"{module_name}:{MODULE}": hashlib.sha256(source.encode()).hexdigest()[:16] if source else "no source"}


def state_now(units: Iterable[str], index: CodeIndex) -> dict[str, str]:
    """:meth:`CodeIndex.state` of the code now, with each unit of a module outside the packages
    (:func:`foreign_module`, named by its dotted module, not a file) digested from its source
    now: an edit of a paper of one's own changes its claims' state like any other edit."""
    state = index.state(units)
    for unit, digest in state.items():
        module, _, name = unit.rpartition(":")
        if digest == "absent" and name == MODULE and not module.endswith(".py"):
            state[unit] = foreign_module(module).get(unit, "absent")
    return state


def conservative_units(claim, index: CodeIndex, root: Path = ROOT) -> set[str]:
    """Every unit a claim's trials could reach, before any of them has been traced: all of
    ``iln/``, the module of the claim's trial, the runner that calls it, and every module of
    ``verification/`` these import, at any depth."""
    paths = _import_closure([claim_module_path(claim, root), _TRIAL_ENTRY], root)
    paths |= {p for p in index.paths() if p.startswith("iln/")}
    return {u for p in paths for u in index.units_of(p)}


def imported_module_code(paths: Iterable[str], index: CodeIndex, root: Path = ROOT) -> set[str]:
    """The :data:`MODULE` unit of every fingerprinted module that the modules at ``paths``
    import, at any depth: a name imported from it (a constant) is read without any of its
    functions running."""
    seen = _import_closure([p for p in paths if p.endswith(".py") and (root / p).is_file()], root)
    return {f"{p}:{MODULE}" for p in seen if f"{p}:{MODULE}" in index.digests}


def _import_closure(paths: Iterable[str], root: Path) -> set[str]:
    """``paths`` and every fingerprinted module they import, at any depth."""
    todo, seen = list(paths), set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo.extend(_imported_paths(path, root) - seen)
    return seen


def trial_entry_units(index: CodeIndex) -> set[str]:
    """Every unit of the engine code every trial runs (:mod:`verification.trials`), in every
    claim's traced code state: its thread policy and its untraced retry of a trial that reads a
    clock run around the traced trial, so a trace alone would not key them."""
    return set(index.units_of(_TRIAL_ENTRY))


def versions() -> dict[str, str]:
    """The interpreter's and the numerical packages' versions: a change of any reruns every
    claim, since a trial's numbers may depend on it.

    Read once per process (a fresh dict each call): the packages a process runs are those it
    imported, whatever is installed later; reading the installed metadata at each of a run's
    40 claims took 0.7 s of a smoke run's 7.
    """
    return dict(_versions())


@functools.cache
def _versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for name in VERSIONED:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def code_id(state: Mapping[str, str], package_versions: Mapping[str, str]) -> str:
    """The id of a code state: 16 hex digits of the SHA-256 of the units' digests and the
    versions (sorted, so the same in every process)."""
    text = json.dumps({"units": dict(sorted(state.items())), "versions": dict(sorted(package_versions.items()))},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def changes(old_state: Mapping[str, str], new_state: Mapping[str, str],
            old_versions: Mapping[str, str] | None = None,
            new_versions: Mapping[str, str] | None = None) -> list[str]:
    """What differs between two code states, as phrases: ``"iln/estimator.py:_fast changed"``,
    ``"... removed"``, ``"numpy 1.26.4 -> 2.0.0"``.

    Only the units of ``old_state`` are compared (those the old trials reached).
    """
    out = []
    for unit, digest in sorted(old_state.items()):
        now = new_state.get(unit, "absent")
        if now != digest:
            out.append(f"{unit} {'removed' if now == 'absent' else 'added' if digest == 'absent' else 'changed'}")
    for name in sorted(set(old_versions or {}) | set(new_versions or {})):
        before, after = (old_versions or {}).get(name), (new_versions or {}).get(name)
        if before != after:
            out.append(f"{name} {before} -> {after}")
    return out

