"""Sessions of the project: tests, lint, bench (``nox -l`` lists them)."""

import nox

nox.options.sessions = ["tests", "lint"]
nox.options.default_venv_backend = "venv"


@nox.session
def tests(session):
    """Run the test suite (benchmarks run once each, untimed)."""
    session.install(".[test]")
    session.run("pytest", *session.posargs)


@nox.session
def lint(session):
    """Check style and common bugs with ruff."""
    session.install("ruff")
    session.run("ruff", "check", "iln", "tests", "noxfile.py")


@nox.session
def bench(session):
    """Measure the cost per sample of Algorithm 2's versions and print the README table."""
    session.install(".[test]")
    out = "reports/benchmarks/estimator.json"
    session.run("pytest", "tests/benchmarks", "--benchmark-enable", f"--benchmark-json={out}",
                *session.posargs)
    session.run("python", "tests/benchmarks/summarize.py", out)
