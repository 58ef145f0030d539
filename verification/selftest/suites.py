"""Parts 3 and 4 of the self-test: the fault tests and the bad-input fuzz, run and recorded.

Both parts are pytest suites of the checkout (``tests/``): each fault is simulated by one
test that asserts the run either completes with every trial counted once or stops with a
one-line error and leaves the store as it was; the fuzz drives every public entry point of
``iln`` and the CLI with hypothesis.  The self-test runs them in a child interpreter with a
JUnit XML report and records, per test, what it simulates, its outcome and its time, so that
the report shows the four parts side by side.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["FAULTS", "SUITES", "SuiteOutcome", "parse_junit", "run_suite"]

#: the faults of issue #8, part 3, each with the test that simulates it.
FAULTS = {
    "tests/test_faults.py::test_sigkill_of_a_worker_process_stops_the_run_and_resume_completes":
        "SIGKILL of a worker process part-way",
    "tests/test_faults.py::test_sigkill_of_a_runner_with_workers_then_resume":
        "SIGKILL of the runner (with worker processes) part-way",
    "tests/test_engine.py::test_sigkill_then_resume_loses_and_repeats_no_trial":
        "SIGKILL of a one-process runner part-way",
    "tests/test_store.py::test_sigkill_in_the_middle_of_a_batch_loses_only_that_batch":
        "SIGKILL of a writer inside a batch",
    "tests/test_faults.py::test_dask_worker_lost_part_way_the_run_completes":
        "a Dask worker lost part-way",
    "tests/test_engine.py::test_locked_store_exits_2_and_is_left_intact":
        "a store locked by another process",
    "tests/test_store.py::test_run_lock_excludes_a_second_run_until_the_holder_dies":
        "a second run on a locked store, then the holder dies",
    "tests/test_store.py::test_corrupted_file_is_refused_and_left_untouched":
        "a corrupted store file (random bytes, a lying header, short text)",
    "tests/test_faults.py::test_store_damaged_inside_exits_2_and_is_left_as_it_was":
        "a store damaged inside, its header intact",
    "tests/test_store.py::test_other_schema_version_is_refused_and_left_untouched":
        "a store of another schema version",
    "tests/test_faults.py::test_full_disk_stops_with_one_line_and_keeps_the_store":
        "a full disk (file-size limit) part-way",
}

#: part name -> pytest arguments (node ids or files, relative to the checkout).
SUITES = {
    "faults": tuple(FAULTS),
    "bad_input": ("tests/test_fuzz.py",),
}


@dataclass(frozen=True)
class SuiteOutcome:
    """The tests of one part, as the JUnit report of pytest gives them.

    Attributes
    ----------
    part : str
        ``"faults"`` or ``"bad_input"``.
    tests : list of dict
        ``{"id", "what", "outcome", "seconds", "message"}`` per test (or parametrized case);
        ``outcome`` is ``passed``, ``failed``, ``error``, ``skipped`` or ``xfailed``.
    returncode : int
        pytest's exit status.
    elapsed_s : float
    """

    part: str
    tests: list[dict]
    returncode: int
    elapsed_s: float

    @property
    def counts(self) -> dict[str, int]:
        """How many of the part's tests ended in each outcome (passed, failed, skipped, ...)."""
        out: dict[str, int] = {}
        for t in self.tests:
            out[t["outcome"]] = out.get(t["outcome"], 0) + 1
        return out

    @property
    def passed(self) -> bool:
        """Every test ran and none failed (pytest exit status 0, at least one test)."""
        return self.returncode == 0 and bool(self.tests) and not (
            {"failed", "error"} & set(self.counts))

    def to_json(self) -> dict:
        """The part's entry of the self-test document."""
        return {"part": self.part, "passed": self.passed, "counts": self.counts,
                "returncode": self.returncode, "elapsed_s": self.elapsed_s, "tests": self.tests}


def _node_id(case: ET.Element) -> str:
    classname, name = case.get("classname", ""), case.get("name", "")
    # JUnit gives "tests.test_faults" (plus a class, if any): back to pytest's node id.
    parts = classname.split(".")
    cut = next((i for i, p in enumerate(parts) if p.startswith("test_")), len(parts) - 1)
    path = "/".join(parts[:cut + 1]) + ".py"
    return "::".join([path, *parts[cut + 1:], name])


def _what(node: str) -> str:
    base = node.split("[", 1)[0]
    return FAULTS.get(base, "")


def _outcome(case: ET.Element) -> tuple[str, str]:
    for tag, outcome in (("failure", "failed"), ("error", "error"), ("skipped", "skipped")):
        found = case.find(tag)
        if found is not None:
            message = " ".join((found.get("message") or found.text or "").split())[:300]
            if tag == "skipped" and found.get("type") == "pytest.xfail":
                return "xfailed", message
            return outcome, message
    return "passed", ""


def parse_junit(path: Path) -> list[dict]:
    """The test cases of a JUnit XML report written by ``pytest --junitxml``."""
    tests = []
    for case in ET.parse(path).getroot().iter("testcase"):
        node = _node_id(case)
        outcome, message = _outcome(case)
        tests.append({"id": node, "what": _what(node), "outcome": outcome,
                      "seconds": float(case.get("time") or 0.0), "message": message})
    return tests


def run_suite(part: str, checkout: Path, timeout_s: float = 3600.0,
              tests: Sequence[str] | None = None) -> SuiteOutcome:
    """Run the tests of ``part`` from the checkout ``checkout`` in a child interpreter.

    Parameters
    ----------
    part : {"faults", "bad_input"}
    checkout : path
        The repository root holding ``tests/``.
    timeout_s : float, default=3600
        A suite still running then is stopped and recorded as an error.
    tests : sequence of str, optional
        pytest node ids or files instead of the part's own (:data:`SUITES`).

    Returns
    -------
    SuiteOutcome
    """
    if part not in SUITES:
        raise ValueError(f"part must be one of {tuple(SUITES)}, got {part!r}")
    checkout = Path(checkout)
    if not (checkout / "tests").is_dir():
        raise ValueError(f"checkout: {checkout} has no tests/ directory (run from a clone of the "
                         "repository)")
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "junit.xml"
        cmd = [sys.executable, "-m", "pytest", *(SUITES[part] if tests is None else tests), "-q", "-p", "no:cacheprovider",
               "--junitxml", str(report), "-o", "junit_family=xunit1"]
        try:
            proc = subprocess.run(cmd, cwd=checkout, capture_output=True, text=True,
                                  timeout=timeout_s, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
            returncode, tail = proc.returncode, (proc.stdout + proc.stderr)[-300:]
        except subprocess.TimeoutExpired:
            returncode, tail = -1, f"stopped after {timeout_s:.0f} s"
        cases = parse_junit(report) if report.is_file() else []
    if not cases:
        cases = [{"id": " ".join(cmd[3:-5]), "what": "", "outcome": "error", "seconds": 0.0,
                  "message": " ".join(tail.split())}]
    return SuiteOutcome(part, cases, returncode, time.perf_counter() - start)
