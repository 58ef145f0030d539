"""The fingerprint of the code behind the self-test's verdicts: when a stored result still holds.

A self-test campaign takes hours on a laptop, longer than one working session, so its results
are kept unit by unit (a defect, a master seed, a test suite) in ``selftest.json`` and a later
invocation resumes from them.  A stored unit is reused only when the code that produced its
verdicts is the code that would produce them now: the library (``iln/``), the claims and the
engine that decides them (catalog, statistics, verdicts, runner, store), the planted defects,
the installed papers' packages (their claims are in the campaign), and the versions of the
interpreter and of the packages the numbers depend on
(:data:`verification.fingerprint.VERSIONED`).  The report, the CLI and the campaign's own
bookkeeping are left out of the seeds', defects' and mutants' units: they format or schedule
the verdicts and change none of them.  The fault and bad-input suites drive the whole of both
packages (the CLI's exit codes, the report's writers) and list their tests in
:mod:`verification.selftest.suites`: their units are keyed by every file of the packages, the
suites' test files and the tests' helpers, and the versions of the packages the tests use.

Examples
--------
>>> a = code_fingerprint()
>>> a == code_fingerprint() and len(a["sha256"]) == 64
True
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from verification import fingerprint, runner

__all__ = ["SOURCES", "SUITE_SOURCES", "SUITE_VERSIONED", "code_fingerprint", "source_files"]

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
#: the test suites of parts 3 and 4; they live beside the package in a checkout only.  The
#: tests' helper modules (``tests/*.py`` but ``test_*.py``) are keyed with them.
SUITE_SOURCES = ("tests/test_engine.py", "tests/test_faults.py", "tests/test_fuzz.py", "tests/test_store.py")
#: the packages the suites' tests run besides the numerical ones: the runner of the tests, the
#: fuzzer, the cluster of the Dask fault, the process tools of the kills.
SUITE_VERSIONED = ("pytest", "hypothesis", "dask", "distributed", "psutil")

_PACKAGE_ROOT = Path(__file__).resolve().parents[2]


def source_files(root: Path = _PACKAGE_ROOT, suites: Path | None = None) -> list[tuple[str, Path]]:
    """The fingerprinted files as ``(name, path)``, sorted by name.

    Parameters
    ----------
    root : path
        The directory holding the packages ``iln`` and ``verification``.
    suites : path, optional
        The checkout whose ``tests/`` the fault and bad-input parts run: then every file of
        its two packages, the suites and the tests' helpers.  ``None``: :data:`SOURCES`.  The
        installed papers' sources either way.
    """
    found: dict[str, Path] = {}
    # The suites run in the checkout (its directory first on the path): its packages are theirs.
    base = root if suites is None else suites
    for entry in (SOURCES if suites is None else fingerprint.PACKAGES):
        path = base / entry
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for f in files:
            if f.is_file():
                found[f.relative_to(base).as_posix()] = f
    found.update(fingerprint.paper_sources())
    if suites is not None:
        helpers = [f.relative_to(suites).as_posix() for f in sorted((suites / "tests").glob("*.py"))
                   if not f.name.startswith("test_")]
        for entry in (*SUITE_SOURCES, *helpers):
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
    if suites is not None:
        versions.update(fingerprint.installed_versions(SUITE_VERSIONED))
    for key in sorted(versions):
        digest.update(f"{key}={versions[key]}\0".encode())
    return {"sha256": digest.hexdigest(), "files": len(files), "versions": versions}
