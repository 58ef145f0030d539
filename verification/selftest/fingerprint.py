"""The fingerprint of the code behind the self-test's verdicts: when a stored result still holds.

A self-test campaign takes hours on a laptop, longer than one working session, so its results
are kept unit by unit (a defect, a master seed, a test suite) in ``selftest.json`` and a later
invocation resumes from them.  A stored unit is reused only when the code that produced its
verdicts is the code that would produce them now: every file of ``iln/`` and ``verification/``
but the report's, the installed papers' packages (their claims are in the campaign), and the
versions of the interpreter and of the packages the numbers depend on
(:data:`verification.fingerprint.VERSIONED`).  A unit run again after an edit that changes none
of its claims' code reuses their stored trials and decisions, so keying the units broadly
costs seconds a unit, and a file wrongly left out would cost a stale verdict.  The fault and
bad-input suites drive the whole of both packages (the CLI's exit codes, the report's writers)
and list their tests in :mod:`verification.selftest.suites`: their units are keyed by every
file of the packages, the suites' test files and the tests' helpers, and the versions of the
packages the tests use.

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

__all__ = ["NOT_VERDICT_CODE", "SUITE_SOURCES", "SUITE_VERSIONED", "code_fingerprint", "source_files"]

#: the only code of the packages left out of the units' fingerprint: it formats verdicts and
#: changes none.  Anything else may (an inclusion list left out verification/stored_decisions.py,
#: which decides whether a stored decision is read back, until 2026-11-28): an edit elsewhere
#: runs every unit again, each reusing its stored trials and decisions (measured in
#: reports/benchmarks/selftest-after-one-change/).
NOT_VERDICT_CODE = ("verification/report/",)
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
        its two packages, the suites and the tests' helpers.  ``None``: the packages but
        :data:`NOT_VERDICT_CODE`.  The installed papers' sources either way.
    """
    found: dict[str, Path] = {}
    # The suites run in the checkout (its directory first on the path): its packages are theirs.
    base = root if suites is None else suites
    for package in fingerprint.PACKAGES:
        for f in sorted((base / package).rglob("*.py")):
            name = f.relative_to(base).as_posix()
            if suites is not None or not name.startswith(NOT_VERDICT_CODE):
                found[name] = f
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
