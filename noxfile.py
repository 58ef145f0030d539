"""Sessions of the project: tests, lint, verify, bench (``nox -l`` lists them)."""

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
def verify(session):
    """Run every claim of the catalog on the quick profile."""
    session.install(".")
    session.run("iln-verify", "run", "--profile", "quick", "--json", "reports/summary.json", *session.posargs)
    session.run("iln-verify", "report")


@nox.session
def bench(session):
    """Measure Algorithm 2's cost per sample and Algorithm 1's run time; print the README table."""
    session.install(".[test]")
    for name, target in (("estimator", "tests/benchmarks/test_estimator_speed.py"),
                         ("algorithm1", "tests/benchmarks/test_algorithm1_scaling.py")):
        session.run("pytest", target, "--benchmark-enable",
                    f"--benchmark-json=reports/benchmarks/{name}.json", *session.posargs)
    session.run("python", "tests/benchmarks/summarize.py", "reports/benchmarks/estimator.json")
