"""The fingerprint of the code behind the self-test's verdicts: when a stored result still holds.

A self-test campaign takes hours on a laptop, longer than one working session, so its results
are kept unit by unit (a defect, a master seed, a test suite) in ``selftest.json`` and a later
invocation resumes from them.  A stored unit is reused only when the code that produced its
verdicts is the code that would produce them now: the library (``iln/``), the claims and the
engine that decides them (catalog, statistics, verdicts, runner, store), the planted defects,
the test suites of the fault and bad-input parts, and the versions of the interpreter and of
the numerical packages.  The report, the CLI and the campaign's own bookkeeping are left out:
they format or schedule the verdicts and change none of them.

Examples
--------
>>> a = code_fingerprint()
>>> a == code_fingerprint() and len(a["sha256"]) == 64
True
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from verification import runner

__all__ = ["SOURCES", "code_fingerprint", "source_files"]

#: the files whose content determines a verdict, relative to the repository root.
SOURCES = (
    "iln",
    "verification/claims",
    "verification/catalog.py",
    "verification/statistics.py",
    # The decision rules and the confidence sequences they use: they turn trials into verdicts.
    "verification/rules",
    "verification/sequential",
    "verification/verdicts.py",
    "verification/runner.py",
    "verification/trials.py",
    "verification/store.py",
    # Which stored trials a run reuses.
    "verification/fingerprint.py",
    "verification/reach.py",
    "verification/incremental.py",
    # The self-test's own code that plants defects and computes a unit's verdicts.
    "verification/selftest/defects.py",
    "verification/selftest/injection.py",
    "verification/dask_plugin.py",
    "verification/selftest/reach.py",
    "verification/selftest/mutation.py",
    "verification/selftest/campaign.py",
    # The statement mutants: their edits decide their units' verdicts.
    "verification/selftest/statements.py",
)
#: the test suites of parts 3 and 4; they live beside the package in a checkout only.
SUITE_SOURCES = ("tests/conftest.py", "tests/test_engine.py", "tests/test_faults.py", "tests/test_fuzz.py",
                 "tests/test_store.py")

_PACKAGE_ROOT = Path(__file__).resolve().parents[2]


def source_files(root: Path = _PACKAGE_ROOT, suites: Path | None = None) -> list[tuple[str, Path]]:
    """The fingerprinted files as ``(name, path)``, sorted by name.

    Parameters
    ----------
    root : path
        The directory holding the packages ``iln`` and ``verification``.
    suites : path, optional
        The checkout whose ``tests/`` the fault and bad-input parts run; its suites are
        fingerprinted too.  ``None``: the packages only.
    """
    found: dict[str, Path] = {}
    for entry in SOURCES:
        path = root / entry
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for f in files:
            if f.is_file():
                found[f.relative_to(root).as_posix()] = f
    if suites is not None:
        for entry in SUITE_SOURCES:
            if (suites / entry).is_file():
                found[entry] = suites / entry
    return sorted(found.items())


def code_fingerprint(root: Path = _PACKAGE_ROOT, suites: Path | None = None) -> dict:
    """SHA-256 over the fingerprinted files and the package versions.

    Returns
    -------
    dict
        ``{"sha256": hex digest, "files": number of files, "versions": runner.versions()}``.
    """
    digest = hashlib.sha256()
    files = source_files(root, suites)
    for name, path in files:
        digest.update(name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    versions = runner.versions()
    # The project's own version is in the files already; a reinstall must not change the digest.
    versions.pop("iln-verify", None)
    for key in sorted(versions):
        digest.update(f"{key}={versions[key]}\0".encode())
    return {"sha256": digest.hexdigest(), "files": len(files), "versions": versions}
