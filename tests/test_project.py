"""The project's own contract: the README's commands, CI, and the demo main job."""

import pathlib
import re
import subprocess
import sys

import pytest

from iln import demo

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _readme_commands():
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("##", 1)[0]
    return re.findall(r"```bash\n(.+?)\n```", quick)


def test_quick_start_is_two_single_line_commands():
    commands = _readme_commands()
    assert len(commands) == 2
    assert all("\n" not in c for c in commands)


def test_ci_runs_exactly_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert ci[-1] == _readme_commands()[1]


@pytest.mark.slow
@pytest.mark.parametrize("check", [["ruff", "check", "iln", "verification", "tests", "noxfile.py", "hatch_build.py", "docs"],
                                   ["mypy"]], ids=["ruff", "mypy"])
def test_lint_passes(check):
    """``nox -s lint``'s two checks (mypy's settings in pyproject.toml), run in CI so that a type
    error fails the change that makes it (nine had stood unnoticed in two modules)."""
    result = subprocess.run([sys.executable, "-m", *check], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("module", ["verification", "verification.cli"])
def test_the_command_line_runs_as_a_module(module):
    """``python -m verification.cli`` once exited 0 having done nothing (no main guard)."""
    result = subprocess.run([sys.executable, "-m", module, "list"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "iln.alg2.unbiased" in result.stdout


def test_demo_prints_regret_against_the_bound(capsys):
    figures = demo.run(T=20, D=30, B=1.0, seed=0)
    out = capsys.readouterr().out
    assert "regret" in out
    assert "proof's bound" in out
    assert figures["max_alpha_l1"] <= figures["alpha_l1_bound"]


@pytest.mark.parametrize("argv", [["--B", "0.5"], ["--T", "0"], ["--seed", "-1"], ["--T", "x"]])
def test_demo_rejects_bad_arguments(argv, capsys):
    with pytest.raises(SystemExit) as info:
        demo.main(argv)
    assert info.value.code == 2
    assert "error" in capsys.readouterr().err
