r"""Fingerprints of the code a claim's trials reach: when stored trials still hold.

A trial is a pure function of its claim's configuration, its seed and the code it runs, so a
stored trial can be reused as long as that code is unchanged.  "The code" is split into
*units*, each named ``path:name`` relative to the repository root:

- ``iln/estimator.py:estimate_scalar_product``: a function defined at the top of a module,
  with its decorators, default values and the functions nested in it;
- ``iln/features.py:RandomFourier.sample``: a method of a class defined at the top of a module;
- ``iln/features.py:RandomFourier``: the rest of the class (bases, decorators, class attributes,
  dataclass fields, nested classes) and the name of each method in its place;
- ``iln/estimator.py:<module>``: the module's skeleton: imports, constants, code under ``if``,
  each class without its methods' bodies, and the name (and decorators) of each function and
  method in its place.  A definition added, removed or moved changes it, though no unit that
  ran was edited: a method added to a subclass overrides the one that ran, a function
  defined after an import rebinds the imported name.  So does an edit of a class attribute,
  which is read without any method of its class running.

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
>>> units = source_units("import math\nX = 1\ndef f(a):\n    '''doc'''\n    return a + X\n")
>>> sorted(units)
['<module>', 'f']
>>> units == source_units("import math\nX = 1\ndef f(a):  # a comment\n    return a + X\n")
True
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import importlib.abc
import importlib.util
import inspect
import json
import platform
import secrets
import site
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Iterable, Mapping
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
    "installed_versions",
    "is_fingerprinted",
    "is_users_module",
    "paper_packages",
    "paper_sources",
    "revision_index",
    "run_code_id",
    "source_units",
    "state_now",
    "trial_entry_units",
    "users_imports",
    "users_module_units",
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
                   "verification/incremental.py", "verification/provenance.py")
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


def _definition(node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.stmt:
    # What a def statement does where it stands: bind its name, through its decorators.  Its
    # body, signature and defaults are its own unit's.
    return type(node)(name=node.name, args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[],
                                                         defaults=[]),
                      body=[], decorator_list=node.decorator_list, returns=None, type_comment=None)


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
    # The skeleton (MODULE): the definitions stand in it as what they bind, in their places.
    rest: list[ast.stmt] = []
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    for node in _without_docstring(ast.parse(text).body):
        if isinstance(node, functions):
            parts.setdefault(node.name, []).append(_function(node))
            rest.append(_definition(node))
        elif isinstance(node, ast.ClassDef):
            body = []
            for item in _without_docstring(node.body):
                if isinstance(item, functions):
                    parts.setdefault(f"{node.name}.{item.name}", []).append(_function(item))
                    body.append(_definition(item))
                else:
                    body.append(item)
            skeleton = ast.ClassDef(name=node.name, bases=node.bases, keywords=node.keywords, body=body,
                                    decorator_list=node.decorator_list)
            parts.setdefault(node.name, []).append(skeleton)
            rest.append(skeleton)
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
#: the digests of each fingerprinted module's file as this process imported it (by file).
_AT_IMPORT: dict[str, tuple[str, dict[str, str]]] = {}


class StaleCodeError(RuntimeError):
    """A module this process imported has changed on disk since, or a worker runs other code
    than its run: the code it runs is not the code the store would key its trials and
    decisions by."""


def _file_digests(file: Path, path: str) -> dict[str, str]:
    """The digests of the units of ``file`` (``path`` relative to the root), cached by size and
    modification time."""
    stat = file.stat()
    key = str(file)
    cached = _DISK_CACHE.get(key)
    if cached is None or cached[0] != (stat.st_size, stat.st_mtime_ns):
        cached = ((stat.st_size, stat.st_mtime_ns), _index({path: file.read_text()}).digests)
        _DISK_CACHE[key] = cached
    return cached[1]


def current_index(root: Path = ROOT) -> CodeIndex:
    """The index of the code on disk under ``root`` (cached per file by size and mtime)."""
    digests = {}
    for package in PACKAGES:
        for file in sorted((root / package).rglob("*.py")):
            path = file.relative_to(root).as_posix()
            if is_fingerprinted(path):
                digests.update(_file_digests(file, path))
    return CodeIndex(digests)


def _note_import(origin: str | None) -> None:
    """Digest a fingerprinted module's file as it is imported (or imported again)."""
    if not origin or not origin.endswith(".py"):
        return
    file = Path(origin).resolve()
    try:
        path = file.relative_to(ROOT).as_posix()
    except ValueError:
        return  # another checkout's file: not the code this index reads
    if is_fingerprinted(path):
        with contextlib.suppress(OSError, SyntaxError, UnicodeDecodeError, ValueError):
            _AT_IMPORT[str(file)] = (path, _file_digests(file, path))


class _ImportNotes(importlib.abc.MetaPathFinder):
    """Notes the digests of each module of the packages when it is found for an import: the
    code the process runs from then on.  It finds nothing itself (the other finders do)."""

    def find_spec(self, fullname, path, target=None):
        if fullname.split(".", 1)[0] not in PACKAGES:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                _note_import(spec.origin)
                return spec
        return None


def _start_noting_imports() -> None:
    """Note every module of the packages imported from now on, and those imported already
    (digested now: an edit between their import and this call is not seen)."""
    if not any(isinstance(f, _ImportNotes) for f in sys.meta_path):
        sys.meta_path.insert(0, _ImportNotes())
    for name, module in list(sys.modules.items()):
        if name.split(".", 1)[0] in PACKAGES and str(Path(getattr(module, "__file__", None) or "?").resolve()) \
                not in _AT_IMPORT:
            _note_import(getattr(module, "__file__", None))


def check_not_stale(root: Path = ROOT) -> CodeIndex:
    """Raise :class:`StaleCodeError` if a module of the packages that this process imported has
    changed on disk since (its units' digests, so a comment or a touch does not count).

    Trials run in worker processes read the code on disk, but decisions, and trials with one
    job, run the code this process imported: keyed by the disk, they would be saved under
    code they did not run, and reused by every later run.  A long-lived process (the
    self-test campaign runs all its units in one; a Dask worker outlives its runs) must be
    started again after an edit.  Each module's digests are taken when it is imported (a
    finder on :data:`sys.meta_path`, placed when this module is imported; the modules
    imported before are digested then).

    Returns
    -------
    CodeIndex
        The code on disk, which is then the code this process runs.
    """
    index = current_index(root)
    changed = []
    for key, (path, at_import) in _AT_IMPORT.items():
        try:
            now = _file_digests(Path(key), path)
        except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
            now = {}
        if now != at_import:
            changed.append(path)
    if changed:
        raise StaleCodeError(f"{', '.join(sorted(changed))} changed on disk since this process imported it: "
                             f"start the command again (stored trials and decisions are keyed by the "
                             f"code on disk, and this process runs the code it imported)")
    return index


def run_code_id(index: CodeIndex) -> str:
    """The id of the whole code of ``index`` with the package versions: a worker whose own
    differs from its run's runs other code than the run keys its trials by."""
    return code_id(index.digests, versions())


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
    return frozenset().union(*_unit_imports(path, root).values())


def _unit_imports(path: str, root: Path) -> dict[str, frozenset[str]]:
    """The fingerprinted modules each unit of a module imports: a function's (or method's)
    imports inside its body, a class's in its body outside its methods, :data:`MODULE`'s the
    rest."""
    file = root / path
    stat = file.stat()
    return _imports_of(file, stat.st_size, stat.st_mtime_ns, path, root)


@functools.lru_cache(maxsize=1024)
def _imports_of(file: Path, size: int, mtime_ns: int, path: str, root: Path) -> dict[str, frozenset[str]]:
    # Keyed by the file's size and mtime: an edited module is parsed again.
    tree = ast.parse(file.read_text())
    package = Path(path).parent.as_posix().replace("/", ".")
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    by_unit: dict[str, set[str]] = {}

    def note(unit: str, node: ast.AST) -> None:
        for inner in ast.walk(node):
            if isinstance(inner, ast.Import):
                names = [a.name for a in inner.names]
            elif isinstance(inner, ast.ImportFrom):
                base = inner.module or ""
                if inner.level:
                    anchor = package.rsplit(".", inner.level - 1)[0] if inner.level > 1 else package
                    base = f"{anchor}.{base}" if base else anchor
                # ``from p import m`` imports the module p.m when there is one, else p itself.
                names = [f"{base}.{a.name}" for a in inner.names] + [base]
            else:
                continue
            for name in names:
                resolved = _module_path(name, root)
                if resolved is not None and is_fingerprinted(resolved):
                    by_unit.setdefault(unit, set()).add(resolved)

    for node in tree.body:
        if isinstance(node, functions):
            note(node.name, node)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                note(f"{node.name}.{item.name}" if isinstance(item, functions) else node.name, item)
        else:
            note(MODULE, node)
    return {unit: frozenset(paths) for unit, paths in by_unit.items()}


def claim_module_path(claim, root: Path = ROOT) -> str:
    """The path (relative to ``root``) of the module defining a claim's trial function (the
    function a wrapper wraps: :func:`inspect.unwrap`)."""
    module = getattr(inspect.unwrap(claim.trial), "__module__", None) or "?"
    path = _module_path(module, root)
    if path is None:
        raise ValueError(f"claim {claim.id!r}: its trial's module {module!r} is not in {PACKAGES}")
    return path


def _module_file(module_name: str) -> str | None:
    """The file of module ``module_name``: the imported module's, or the one an import would
    load (a trial's helper that only a worker imported)."""
    module = sys.modules.get(module_name)
    try:
        file = getattr(module, "__file__", None) if module is not None else None
        if file is None:
            spec = importlib.util.find_spec(module_name)
            file = spec.origin if spec is not None else None
    except (ImportError, ValueError, AttributeError):
        return None
    return file if isinstance(file, str) else None


def foreign_module(module_name: str) -> dict[str, str]:
    """The unit and digest of a module outside the fingerprinted packages (a test's claim, a
    paper of one's own): its whole source, as one unit ``"module.name:<module>"``; nothing
    for a module of the packages, whose units the index holds.

    A module whose source cannot be read (a ``python -c`` script's ``__main__``, a notebook's
    cell, a module without its ``.py``) gets a digest that matches nothing, so what its code
    computed is never reused.
    """
    if module_name.split(".", 1)[0] in PACKAGES:
        return {}
    file = _module_file(module_name)
    try:
        source = Path(file).read_text() if file and file.endswith(".py") else ""
    except (OSError, ValueError, UnicodeDecodeError):
        source = ""
    digest = hashlib.sha256(source.encode()).hexdigest()[:16] if source else f"no source {secrets.token_hex(8)}"
    return {f"{module_name}:{MODULE}": digest}


#: where the interpreter and the installed packages live: code elsewhere that is not ours is a
#: user's (a paper of one's own on the path, a test), keyed by its module's source.
_INSTALLED = tuple(sorted({str(Path(p)) + "/" for p in (*sysconfig.get_paths().values(), sys.prefix,
                                                          sys.base_prefix, sys.exec_prefix, site.getuserbase())}))
#: the entry-point group of the papers (:data:`verification.catalog.ENTRY_POINTS`).
_PAPERS_GROUP = "iln_verify.papers"


@functools.cache
def paper_packages() -> frozenset[str]:
    """The top-level packages of the papers installed beside ours (docs, the tutorial *Verify a lemma of your own paper*):
    a user's code even where it is installed."""
    names = {ep.value.split(":", 1)[0].split(".", 1)[0] for ep in metadata.entry_points(group=_PAPERS_GROUP)}
    return frozenset(names - set(PACKAGES))


def paper_sources() -> dict[str, Path]:
    """Every Python source of the installed papers' packages (:func:`paper_packages`), by the
    name ``"papers/PACKAGE/RELATIVE.py"``, sorted."""
    found: dict[str, Path] = {}
    for package in sorted(paper_packages()):
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            continue
        if spec.submodule_search_locations:
            for location in spec.submodule_search_locations:
                for file in sorted(Path(location).rglob("*.py")):
                    found[f"papers/{package}/{file.relative_to(location).as_posix()}"] = file
        elif spec.origin and spec.origin.endswith(".py"):
            found[f"papers/{package}/{Path(spec.origin).name}"] = Path(spec.origin)
    return dict(sorted(found.items()))


def is_users_module(module_name: str, filename: str) -> bool:
    """Whether the module ``module_name``, from ``filename``, is a user's: a Python source
    outside our packages and outside the interpreter's and the installed packages' folders,
    or any module of an installed paper's package.  A user's module is keyed by its whole
    source (:func:`foreign_module`)."""
    top = module_name.split(".", 1)[0]
    if top in PACKAGES or not filename.endswith(".py"):
        return False
    return not filename.startswith(_INSTALLED) or top in paper_packages()


def users_imports(module_names: Iterable[str]) -> set[str]:
    """``module_names`` (users' modules) and every user's module they import, at any depth.

    A constant imported by name (``from own_constants import PRINTED``) is read without any
    code of its module running while a trial or decision is traced, so its module's source
    must key what the importer computes, as :func:`imported_module_code` does for the
    packages.
    """
    return _reachable(module_names, _users_imported_by)


def _users_imported_by(name: str) -> set[str]:
    """The users' modules that the module ``name`` imports (anywhere in its source)."""
    file = _module_file(name)
    try:
        tree = ast.parse(Path(file).read_text()) if file and file.endswith(".py") else None
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        tree = None
    if tree is None or file is None:
        return set()
    package = name if file.endswith("__init__.py") else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            try:
                base = importlib.util.resolve_name("." * node.level + (node.module or ""), package) \
                    if node.level else (node.module or "")
            except (ImportError, ValueError):
                continue
            # ``from package import submodule`` imports a module too.
            candidates = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for candidate in candidates:
            if candidate and candidate.split(".", 1)[0] not in PACKAGES:
                found_file = _module_file(candidate)
                if found_file and is_users_module(candidate, found_file):
                    found.add(candidate)
    return found


def _reachable(start: Iterable[str], successors: Callable[[str], Iterable[str]]) -> set[str]:
    """``start`` and every node that ``successors`` leads to from it, at any depth."""
    todo, seen = list(start), set()
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(n for n in successors(node) if n not in seen)
    return seen


def users_module_units(module_name: str) -> set[str]:
    """The units of a claim's own module outside the packages (its trial's or decision's: a
    paper of one's own, a test's claim) and of the users' modules it imports
    (:func:`users_imports`), whose sources key what it computes; none for a module of ours."""
    if not module_name or module_name.split(".", 1)[0] in PACKAGES:
        return set()
    return {f"{name}:{MODULE}" for name in users_imports([module_name])}


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


def imported_module_code(units: Iterable[str], index: CodeIndex, root: Path = ROOT) -> set[str]:
    """The :data:`MODULE` unit of every fingerprinted module that the ``units`` import: each
    unit's own imports (a function's inside its body) and its module's, then, at any depth,
    the imports of those modules' code.  A name imported from a module (a constant) is read
    without any of its functions running.  An import inside a function that did not run
    imports nothing (``rules/pilot.py`` imports the runner inside its command line only)."""
    todo: list[str] = []
    for unit in units:
        path, _, name = unit.rpartition(":")
        if path.endswith(".py") and (root / path).is_file():
            imports = _unit_imports(path, root)
            todo += [*imports.get(MODULE, ()), *imports.get(name, ())]
    seen = _reachable(todo, lambda path: _unit_imports(path, root).get(MODULE, frozenset()))
    return {f"{p}:{MODULE}" for p in seen if f"{p}:{MODULE}" in index.digests}


def _import_closure(paths: Iterable[str], root: Path) -> set[str]:
    """``paths`` and every fingerprinted module they import, at any depth."""
    return _reachable(paths, lambda path: _imported_paths(path, root))


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


def installed_versions(names: Iterable[str]) -> dict[str, str]:
    """The installed version of each package of ``names``, ``"not installed"`` for one missing."""
    out = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


@functools.cache
def _versions() -> dict[str, str]:
    return {"python": platform.python_version(), **installed_versions(VERSIONED)}


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



# From this module's import on, each module of the packages is digested as it is imported.
_start_noting_imports()
