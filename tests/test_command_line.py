"""The command line as a new user meets it: help, exit statuses, a scheduler that is not there.

Run in fresh interpreters (``subprocess``), as a user runs it: an in-process test shares modules
already imported by others, which hid a help that crashed in a fresh process.
"""

import dataclasses
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from verification import catalog, cli, runner
from verification.verdicts import ERROR

ROOT = Path(__file__).resolve().parents[1]
SUBCOMMANDS = ["list", "run", "show", "report", "diff"]


def _cli(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "verification", *argv], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=timeout, check=False)


@pytest.mark.parametrize("argv", [["-h"], ["--help"], *([c, "-h"] for c in SUBCOMMANDS)])
def test_help_exits_0_in_a_fresh_interpreter(argv):
    done = _cli(*argv)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: iln-verify")
    assert done.stderr == ""


def test_run_help_states_each_profile_s_measured_time():
    text = _cli("run", "-h").stdout
    assert "--fail-on-violation" in text
    assert "--fail-on-unexpected" in text
    for profile in ("smoke", "quick"):
        assert f"{profile} about" in " ".join(text.split()), text


def test_an_unreachable_scheduler_is_one_line_and_status_2_within_seconds(tmp_path):
    start = time.monotonic()
    done = _cli("run", "iln.alg2.unbiased", "--profile", "smoke", "--scheduler", "tcp://127.0.0.1:1",
                "--store", str(tmp_path / "s.sqlite"))
    assert done.returncode == cli.EXIT_USAGE, done.stderr
    assert time.monotonic() - start < 30  # the scheduler's timeout is 5 s; the rest is imports
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "--scheduler" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "s.sqlite").exists()  # refused before the store is touched


#: a claim whose printed statement fails on the smoke profile (``holds_after_correction``),
#: decided in seconds, and one that holds, given another expectation for the test.
FINDING = "iln.lemma4.hoeffding"
UNEXPECTED = "iln.lemma3.grad_norm"


def _catalog_with(monkeypatch, claim) -> None:
    """The catalog with ``claim`` in place of the claim of its id (in this process)."""
    patched = {**catalog.load(), claim.id: claim}
    monkeypatch.setattr(catalog, "load", lambda: dict(patched))
    monkeypatch.setattr(catalog, "get", lambda claim_id: patched[claim_id])


def test_exit_statuses_are_0_for_any_decided_verdict_and_1_only_when_asked(tmp_path, capsys, monkeypatch):
    _catalog_with(monkeypatch, dataclasses.replace(catalog.get(UNEXPECTED), expected="violated"))
    store = str(tmp_path / "s.sqlite")
    argv = ["run", UNEXPECTED, FINDING, "--profile", "smoke", "--jobs", "1", "--quiet", "--store", store]
    assert cli.main(argv) == cli.EXIT_OK
    out = capsys.readouterr().out
    verdicts = {line.split()[0]: line.split()[1] for line in out.splitlines() if line.startswith(("iln.", "rks."))}
    assert verdicts[UNEXPECTED] == "holds", out
    assert verdicts[FINDING] in cli.PRINTED_FAILS, out
    # The same stored run, decided again (no trial runs): each flag fails it for its own reason.
    assert cli.main([*argv, "--fail-on-unexpected"]) == cli.EXIT_FINDINGS
    last = capsys.readouterr().out.splitlines()[-1]
    assert UNEXPECTED in last
    assert FINDING not in last
    assert cli.main([*argv, "--fail-on-violation"]) == cli.EXIT_FINDINGS
    last = capsys.readouterr().out.splitlines()[-1]
    assert FINDING in last
    assert UNEXPECTED not in last


def _raising(config, seed):
    raise RuntimeError("a trial that raises")


def test_a_claim_that_raises_exits_3_and_the_others_are_decided(tmp_path, capsys, monkeypatch):
    broken = dataclasses.replace(catalog.get("iln.alg2.unbiased"), trial=_raising)
    _catalog_with(monkeypatch, broken)
    status = cli.main(["run", broken.id, FINDING, "--profile", "smoke", "--jobs", "1", "--quiet",
                       "--store", str(tmp_path / "s.sqlite"), "--json", str(tmp_path / "r.json")])
    assert status == cli.EXIT_ERROR, capsys.readouterr()
    doc = json.loads((tmp_path / "r.json").read_text())
    got = {c["id"]: c["verdict"] for c in doc["claims"]}
    assert got[broken.id] == ERROR
    assert got[FINDING] != ERROR


def test_the_reuse_is_one_line_unless_verbose(tmp_path, capsys):
    store = str(tmp_path / "s.sqlite")
    argv = ["run", "iln.alg2.unbiased", FINDING, "--profile", "smoke", "--jobs", "1", "--quiet", "--store", store]
    assert cli.main(argv) == 0
    first = capsys.readouterr().out
    assert "ran the trials of 2 claims" in first
    assert "no stored trials" not in first
    assert cli.main([*argv, "--verbose"]) == 0
    again = capsys.readouterr().out
    assert "reused the stored trials of 2 claims" in again
    assert f"reused {FINDING}:" in again  # the reason, claim by claim


def test_the_progress_bar_weighs_trials_by_their_measured_cost():
    seconds = runner.costs.per_trial_s("smoke")
    costly, cheap = max(seconds, key=seconds.get), min(seconds, key=seconds.get)
    bar = runner._Progress([(costly, {}, 0, [0, 1]), (cheap, {}, 0, [0, 1])], "smoke", 2, quiet=False)
    bar.update(costly, 2)
    # Half the trials, nearly all the work: the bar says so.
    assert bar.bar.n / bar.bar.total > 0.9
    bar.close()
