"""Sessions of the project: tests, lint, docs, verify, report, selftest, bench, compare (``nox -l`` lists them)."""

from pathlib import Path

import nox

nox.options.sessions = ["tests", "lint"]
nox.options.default_venv_backend = "venv"
#: the full profile's verdicts and runs without the trials, committed beside the report.
VERDICTS = "reports/verdicts.sqlite"


#: the tiers ``nox -s tests`` leaves to .ci/run (markers declared in pyproject.toml).
SLOW_TIERS = "not slow and not system"


@nox.session
def tests(session):
    """Run the fast tiers of the test suite, slowest 20 listed (``nox -s tests -- ARGS`` passes
    ARGS to pytest instead, ``-m ""`` for every tier, as .ci/run does)."""
    session.install(".[test]")
    session.run("pytest", *(session.posargs or ["-m", SLOW_TIERS, "--durations=20"]))


@nox.session
def lint(session):
    """Check style, docstrings and common bugs with ruff, and the types of iln and verification with mypy."""
    # The versions tests/test_project.py runs in CI (the test extra pins them).
    session.install(".[test]")
    # ruff's D rules (numpy convention, [tool.ruff.lint] in pyproject.toml) check the docstrings
    # the documentation's reference is built from.
    session.run("ruff", "check", "iln", "verification", "tests", "noxfile.py", "hatch_build.py", "docs")
    # Settings (the files, the libraries without types) are in pyproject.toml's [tool.mypy].
    session.run("mypy")


@nox.session
def docs(session):
    """Build the documentation into docs/_build/html, warnings as errors (``-- ARGS`` to sphinx-build)."""
    session.install(".[docs]")
    # --keep-going: every warning is listed before the build fails.
    session.run("sphinx-build", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html", *session.posargs)


@nox.session
def verify(session):
    """Run, on the quick profile, the claims whose code changed since their stored trials."""
    session.install(".")
    # --changed: a claim whose trials' code is unchanged keeps its stored trials and verdict;
    # `nox -s verify -- main` compares with a git revision instead of the store.  Not reports/:
    # that is the committed full-profile report, which only nox -s report writes.
    session.run("iln-verify", "run", "--profile", "quick", "--changed", *session.posargs)
    session.run("iln-verify", "report", "--out", ".iln-verify/report")


@nox.session
def report(session):
    """Run every claim on the full profile; regenerate reports/ and the README's headline."""
    session.install(".")
    session.run("iln-verify", "run", "--profile", "full", "--store", "reports/store.sqlite",
                "--json", "reports/summary-run.json", *session.posargs)
    # The committed copy of the verdicts (no trials): the report can be written again from it.
    Path(VERDICTS).unlink(missing_ok=True)
    session.run("iln-verify", "report", "--store", "reports/store.sqlite", "--out", "reports",
                "--save-verdicts", VERDICTS, "--readme", "README.md")


@nox.session
def bench(session):
    """Time Algorithm 2, Algorithm 1, the learners against scikit-learn and the catalog's search; print the tables."""
    session.install(".[test]")
    for name, target in (("estimator", "tests/benchmarks/test_estimator_speed.py"),
                         ("algorithm1", "tests/benchmarks/test_algorithm1_scaling.py"),
                         ("speed_targets", "tests/benchmarks/test_speed_targets.py"),
                         ("learners", "tests/benchmarks/test_learners.py"),
                         ("search", "tests/benchmarks/test_search_budget.py")):
        session.run("pytest", target, "--benchmark-enable",
                    f"--benchmark-json=reports/benchmarks/{name}.json", *session.posargs)
    session.run("python", "tests/benchmarks/summarize.py", "reports/benchmarks/estimator.json")
    session.run("python", "tests/benchmarks/summarize.py", "reports/benchmarks/search.json")


@nox.session
def selftest(session):
    """Faults, bad input, planted defects and false alarms over 20 seeds (hours; resumable)."""
    session.install(".[test]")
    # Exit 1: a gap, a differing verdict or a failing suite; exit 3: units pending after
    # --budget-minutes. Both are recorded in the JSON, not crashes; a rerun resumes.
    session.run("python", "-m", "verification.selftest", "--defects", "all", "--seeds", "20",
                "--profile", "quick", "--out", "reports/selftest.json", *session.posargs,
                success_codes=[0, 1, 3])
    store = next((p for p in ("reports/store.sqlite", VERDICTS) if Path(p).is_file()), None)
    if store is None:
        session.log("no full-profile verdicts in reports/: nox -s report puts the self-test in the report")
    else:
        session.run("iln-verify", "report", "--store", store, "--out", "reports")


@nox.session(name="type_one")
def type_one(session):
    """A smoke test of false alarms: 200 master seeds of the claims expected to hold (printed or
    corrected), smoke profile, family-wise alpha 0.05 (about 90 minutes on 2 cores; resumable).
    Their true values sit far inside their nulls, so it finds a broken rule, not a rule of the
    wrong level: nox -s null_boundary measures the levels."""
    session.install(".[test]")
    # The plan (seeds, profile, alpha, claims) is fixed here, before any of its seeds ran.
    session.run("python", "-m", "verification.selftest", "--parts", "false_alarms", "--defects", "none",
                "--expected", "holds,holds_after_correction", "--seeds", "200", "--profile", "smoke",
                "--alpha", "0.05", "--out", "reports/selftest-type-one.json", *session.posargs,
                success_codes=[0, 1, 3])


@nox.session(name="null_boundary")
def null_boundary(session):
    """Type I at the null boundary: each statistical rule at the catalog's designs, every point at its
    bound exactly, 320 seeds per case at a per-claim level of 0.05 (about 20 minutes of one core; resumable)."""
    session.install(".")
    # The plan (laws, designs, seeds, criterion) is fixed in verification/selftest/null_boundary.py.
    session.run("python", "-m", "verification.selftest", "--parts", "null_boundary", "--defects", "none",
                "--seeds", "0", "--out", "reports/selftest-null-boundary.json", *session.posargs,
                success_codes=[0, 1, 3])


@nox.session
def mutants(session):
    """Statement mutants: each claim's check against provably false tightenings of its statement (minutes)."""
    session.install(".[test]")
    # Exit 1: a mutant not detected (a gap of its check, recorded in the JSON, not a crash).
    session.run("python", "-m", "verification.selftest", "--parts", "statement_mutants", "--mutants", "all",
                "--defects", "none", "--seeds", "0", "--profile", "smoke",
                "--out", "reports/selftest-statement-mutants.json", *session.posargs, success_codes=[0, 1, 3])


@nox.session
def compare(session):
    """Compare the iln.sklearn estimators with scikit-learn's own at equal budgets; print the table."""
    session.install(".")
    session.run("python", "-m", "iln.benchmark_sklearn", *session.posargs)
