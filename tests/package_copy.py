"""A copy of the packages whose files a test edits: the fingerprints read the code on disk,
so a test of what an edit reruns edits a copy and runs it in child processes
(tests/test_incremental.py, tests/test_selftest_incremental.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the claims of the edit tests: the two ILN claims' trials call Algorithm 2's check_m, the RKS claim's do not.
CLAIMS = ["iln.alg2.unbiased", "iln.lemma4.hoeffding", "rks.lemma2.risk_approximation"]
#: a function of Algorithm 2 that the two ILN claims' trials call and the RKS claim's do not.
EDITED_UNIT = "iln/estimator.py:check_m"
#: the edit: the same function written differently, so the verdicts must not move.
EDIT = ("iln/estimator.py", "    return int(m)\n", "    m = int(m)\n    return m\n")


def copy_packages(tmp_path: Path) -> Path:
    """``iln`` and ``verification`` copied under ``tmp_path / "checkout"``; the copy's root."""
    root = tmp_path / "checkout"
    for package in ("iln", "verification"):
        # copytree keeps the files' times, so numba's on-disk cache of the kernels stays valid.
        shutil.copytree(ROOT / package, root / package)
    return root


def edit(root: Path, path: str, old: str, new: str) -> None:
    """Replace ``old``, which must occur once, by ``new`` in the file ``path`` of the copy."""
    text = (root / path).read_text()
    assert text.count(old) == 1, (path, old)
    (root / path).write_text(text.replace(old, new))
