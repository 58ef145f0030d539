"""Who may use what: no module reaches into another's private names, and the engine never
imports the self-test (the self-test hands the runner what to plant, :class:`verification.
runner.Planting`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(p for package in ("iln", "verification") for p in (ROOT / package).rglob("*.py"))
#: the engine: everything of verification/ but the self-test and the report, which presents it.
ENGINE = [p for p in MODULES if p.parts[len(ROOT.parts)] == "verification"
          and p.parts[len(ROOT.parts) + 1] not in ("selftest", "report")]
#: names of other libraries spelled with an underscore that are public: ``os._exit``, the
#: documented way to end a process at once (a second Ctrl-C), without the interpreter's exit.
#: No private name of a library is used (iln.sklearn checks its estimators' parameters with
#: iln.arguments, not scikit-learn's private ``_param_validation``).
ALLOWED: set[tuple[str, str]] = {("verification/interruption.py", "os._exit")}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined(tree: ast.AST) -> set[str]:
    """Every name the module binds: its functions, classes, variables, attributes it assigns
    (``self._x = ...``), arguments and imports."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            names.add(node.id if isinstance(node, ast.Name) else node.attr)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def _reaches(path: Path) -> list[str]:
    """The private names of other modules that ``path`` uses: ``from m import _x``, ``m._x``,
    imports of private modules, and private attributes it does not define (``obj._x``)."""
    tree = ast.parse(path.read_text(), str(path))
    imported = set()  # names bound to modules or objects of other modules
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out += [f"{node.module}.{a.name}" for a in node.names if _private(a.name)]
            out += [node.module] if any(_private(part) for part in node.module.split(".")) else []
            imported |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names if any(_private(part) for part in a.name.split("."))]
            imported |= {a.asname or a.name.split(".")[0] for a in node.names}
    own = _defined(tree)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in imported):
            out.append(f"{node.value.id}.{node.attr}")
        elif isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own:
            # A private attribute the module does not define is another module's: an argument's
            # (``family._atoms``), a returned object's (``estimator()._check_m``).
            out.append(ast.unparse(node))
    rel = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    return sorted(r for r in set(out) if (rel, r) not in ALLOWED)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_uses_another_modules_private_names(path):
    assert _reaches(path) == []


@pytest.mark.parametrize("path", ENGINE, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_engine_never_imports_the_selftest(path):
    tree = ast.parse(path.read_text(), str(path))
    names = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module]
    names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert [n for n in names if n.startswith("verification.selftest")] == []


@pytest.mark.parametrize(("source", "reached"), [
    ("from iln.estimator import _check_m\n", ["iln.estimator._check_m"]),
    ("from iln import estimator\nestimator._check_m(3)\n", ["estimator._check_m"]),
    ("import sklearn.utils._param_validation\n", ["sklearn.utils._param_validation"]),
    ("def f(family):\n    return family._psi_indexed\n", ["family._psi_indexed"]),
    ("class A:\n    def _g(self):\n        return 1\n\ndef f(a: A):\n    return a._g()\n", []),
    ("class A:\n    def __init__(self):\n        self._x = 1\n", []),
])
def test_the_check_sees_each_way_of_reaching_a_private_name(tmp_path, source, reached):
    """The check itself can fail: each spelling of another module's private name is caught,
    and a module's own private names are not."""
    module = tmp_path / "probe.py"
    module.write_text(source)
    assert _reaches(module) == reached


TESTS = sorted((ROOT / "tests").rglob("*.py"))


@pytest.mark.parametrize("path", TESTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_test_uses_a_claim_module_s_private_names(path):
    # A claim's test reads what the claim's module offers (the second reader of issue 17
    # found four tests reaching into private names of claim modules); tests of the engine's
    # internals may still reach into the engine.
    tree = ast.parse(path.read_text(), str(path))
    claim_modules = {a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                     and node.module and node.module.startswith("verification.claims") for a in node.names}
    assert [r for r in _reaches(path) if r.split(".")[0] in claim_modules
            or r.startswith("verification.claims")] == []
