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
#: private names of other libraries that no public spelling replaces yet (issue 17): scikit-learn's
#: parameter constraints, which iln.sklearn declares as scikit-learn's own estimators do.
ALLOWED = {("iln/sklearn.py", "sklearn.utils._param_validation")}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _reaches(path: Path) -> list[str]:
    """The private names of other modules that ``path`` uses: ``from m import _x``, ``m._x``,
    and imports of private modules."""
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
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in imported):
            out.append(f"{node.value.id}.{node.attr}")
    rel = path.relative_to(ROOT).as_posix()
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
