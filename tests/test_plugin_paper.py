"""Papers are plug-ins: a third-party paper, installed beside the project, is in every command.

The paper is the tutorial's (``docs/tutorial/own-paper.md``): its files, which the page
includes from ``docs/tutorial/tinypaper/``, are installed with pip into a folder of their own
(put on ``PYTHONPATH`` of the commands, so that nothing is installed into the running
environment) and run through the page's commands, ``iln-verify list``, ``run``, ``show``,
``report`` and the self-test, in subprocesses, with no change to this repository.  So the
tutorial cannot rot: its false statement must come out ``violated`` with a counterexample,
its true one ``holds``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from verification import catalog

ROOT = Path(__file__).resolve().parents[1]
CLAIMS = ("tiny.prop1.mean", "tiny.prop2.second_moment")


#: the tutorial's page, and the folder of the plug-in it walks through.
TUTORIAL = ROOT / "docs" / "tutorial" / "own-paper.md"
PACKAGE = ROOT / "docs" / "tutorial" / "tinypaper"


def _tutorial_files() -> dict[str, str]:
    """The files of the tutorial's plug-in, by their path below ``docs/tutorial``."""
    return {str(path.relative_to(PACKAGE.parent)): path.read_text() for path in sorted(PACKAGE.rglob("*"))
            if path.is_file() and "__pycache__" not in path.parts}


def _tutorial_commands() -> list[list[str]]:
    """The commands of the tutorial, after its ``pip install``."""
    (block,) = re.findall(r"```bash\n(.*?)```", TUTORIAL.read_text(), re.S)
    lines = [shlex.split(line) for line in block.strip().splitlines()]
    assert lines[0][:2] == ["pip", "install"]
    return lines[1:]


def _env(*paths: Path) -> dict[str, str]:
    """The environment of a command that finds ``paths`` (and this checkout) first."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*map(str, paths), str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return env


def _command(words: list[str], extra: list[str]) -> list[str]:
    """A tutorial's command as this test runs it: this interpreter and this checkout, plus ``extra``."""
    program = {"iln-verify": [sys.executable, "-m", "verification"], "python": [sys.executable]}[words[0]]
    return [*program, *words[1:], *extra]


def _run(argv: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The tutorial's plug-in, installed by pip into a folder of its own."""
    base = tmp_path_factory.mktemp("tinypaper")
    for path, text in _tutorial_files().items():
        (base / path).parent.mkdir(parents=True, exist_ok=True)
        (base / path).write_text(text)
    site = base / "site"
    # Offline and into the folder only: no index, no dependency resolution, the running
    # environment's setuptools as the build backend.
    done = _run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                 "--no-build-isolation", "--target", str(site), str(base / "tinypaper")], dict(os.environ), base)
    assert done.returncode == 0, done.stderr
    assert (site / "tinypaper" / "claims.py").is_file()
    return site


def test_the_tutorial_includes_its_plugin_s_files_and_runs_its_commands():
    files = _tutorial_files()
    assert set(files) == {"tinypaper/pyproject.toml", "tinypaper/tinypaper/__init__.py",
                          "tinypaper/tinypaper/claims.py"}
    page = TUTORIAL.read_text()
    for path in files:  # the page shows each file as it stands (Sphinx's literalinclude)
        assert f"```{{literalinclude}} {path}\n" in page, path
    commands = _tutorial_commands()
    assert [c[:2] for c in commands] == [["iln-verify", "list"], ["iln-verify", "run"], ["iln-verify", "show"],
                                         ["iln-verify", "report"], ["python", "-m"]]


@pytest.mark.system
def test_third_party_paper_is_in_list_run_report_and_selftest(installed, tmp_path):
    env = _env(installed)
    listing, run, show, report, selftest = _tutorial_commands()
    store, out = tmp_path / "store.sqlite", tmp_path / "report"

    done = _run(_command(listing, ["--json"]), env, tmp_path)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["papers"]["tiny"] == {"versions": {"TINY": "A. Author, Means of uniform samples, 2025"},
                                     "claims": "tinypaper.claims"}
    assert {"iln", "rks", "tiny"} <= set(doc["papers"])
    assert doc["left_out"] == {}
    ids = [c["id"] for c in doc["claims"]]
    assert set(CLAIMS) <= set(ids)
    assert any(i.startswith("iln.") for i in ids)

    done = _run(_command(run, ["--jobs", "1", "--quiet", "--store", str(store)]), env, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr  # both verdicts as expected
    assert re.search(r"^tiny\.prop1\.mean\s+holds\s.*\)$", done.stdout, re.M), done.stdout
    assert re.search(r"^tiny\.prop2\.second_moment\s+violated\s.*\)$", done.stdout, re.M), done.stdout

    # The false statement's stored verdict names its counterexample and how to reproduce it.
    done = _run(_command(show, ["--store", str(store)]), env, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "verdict: violated" in done.stdout, done.stdout
    (counterexample,) = re.findall(r"^  counterexample: (.+)$", done.stdout, re.M)
    assert "'point': 'mean_square'" in counterexample, counterexample
    assert "'reproduce': 'iln-verify run tiny.prop2.second_moment --profile smoke --seed 0'" in counterexample

    done = _run(_command(report, ["--store", str(store), "--out", str(out)]), env, tmp_path)
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert set(CLAIMS) <= {c["id"] for c in summary["claims"]}, summary.keys()
    verdicts = {c["id"]: c for c in summary["claims"]}
    assert verdicts["tiny.prop1.mean"]["verdict"] == "holds"
    assert verdicts["tiny.prop1.mean"]["counterexample"] is None
    assert verdicts["tiny.prop2.second_moment"]["verdict"] == "violated"
    assert verdicts["tiny.prop2.second_moment"]["counterexample"]["point"] == "mean_square"
    assert "Means of uniform samples" in (out / "index.html").read_text()

    result = tmp_path / "selftest.json"
    done = _run(_command(selftest, ["--jobs", "1", "--quiet", "--workdir", str(tmp_path / "work"),
                                    "--out", str(result)]), env, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert set(CLAIMS) <= set(json.dumps(json.loads(result.read_text())).split('"')), result.read_text()[:2000]


def test_an_installed_paper_s_source_keys_the_self_test_s_stored_units(installed, tmp_path):
    # A copy of the installed folder, edited: the fixture's stays as pip wrote it.
    site = tmp_path / "site"
    shutil.copytree(installed, site)
    code = ("import json; from verification.selftest.fingerprint import code_fingerprint, source_files;"
            "print(json.dumps([code_fingerprint()['sha256'], [name for name, _ in source_files()]]))")

    def fingerprint() -> tuple[str, list[str]]:
        done = _run([sys.executable, "-c", code], _env(site), tmp_path)
        assert done.returncode == 0, done.stderr
        return tuple(json.loads(done.stdout))

    before, names = fingerprint()
    assert "papers/tinypaper/claims.py" in names
    claims = site / "tinypaper" / "claims.py"
    claims.write_text(claims.read_text() + "\nEDITED = True\n")
    assert fingerprint()[0] != before


def _dist_info(site: Path, name: str, entry_points: str) -> Path:
    """A distribution's metadata as pip would install it: the entry points are all it needs."""
    info = site / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{catalog.ENTRY_POINTS}]\n{entry_points}\n")
    return site


@pytest.mark.parametrize(("entry", "files", "why"), [
    ("broken = nosuchpackage:PAPER", {}, r"entry point broken = nosuchpackage:PAPER .*cannot be loaded: "
                                         r"ModuleNotFoundError"),
    ("broken = brokenpaper:PAPER", {"brokenpaper/__init__.py": "PAPER = 42\n"},
     r"entry point broken = brokenpaper:PAPER .*is a int, not a verification.catalog.Paper"),
    ("broken = brokenpaper:PAPER", {
        "brokenpaper/__init__.py": "from verification.catalog import Paper\n"
                                   "PAPER = Paper(versions={'B': 'b'}, claims='brokenpaper.claims')\n",
        "brokenpaper/claims.py": "raise ImportError('a missing dependency')\n"},
     r"claims package 'brokenpaper.claims' \(entry point broken, .*raised on import: ImportError: "
     r"a missing dependency"),
    ("broken = brokenpaper:PAPER", {"brokenpaper/__init__.py": "from verification.catalog import Paper\n"
                                                               "PAPER = Paper(versions={'RKS': 'x'}, claims='x')\n"},
     r"declares the version key 'RKS', which paper 'rks' declares too"),
])
@pytest.mark.system
def test_a_broken_plugin_is_named_and_left_out(tmp_path, entry, files, why):
    site = _dist_info(tmp_path / "site", "brokenpaper", entry)
    for path, text in files.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(text)
    done = _run([sys.executable, "-m", "verification", "list", "--json"], _env(site), tmp_path)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert re.search(why, doc["left_out"]["broken"]), doc["left_out"]
    assert "PaperWarning" in done.stderr
    assert "broken" in done.stderr
    assert "broken" not in doc["papers"]
    assert "iln" in doc["papers"]
    assert any(c["id"].startswith("iln.") for c in doc["claims"])
    # Two papers that declare one version key are both left out: a source citing it could be either's.
    assert ("rks" in doc["left_out"]) == ("'RKS'" in why)


def test_this_projects_papers_are_plugins_too():
    papers = catalog.papers()
    assert {"iln", "rks"} <= set(papers)
    assert papers["iln"].claims == "verification.claims.iln"
    assert set(papers["iln"].versions) == {"ICML", "arXiv"}
    assert {c.split(".", 1)[0] for c in catalog.load()} <= set(papers)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert catalog.broken_papers() == {}


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"versions": {}, "claims": "x"}, "versions must be a non-empty mapping"),
    ({"versions": {"A": 1}, "claims": "x"}, r"bad keys: \['A'\]"),
    ({"versions": {"A": "a"}, "claims": ""}, "claims must be the name of an importable package"),
])
def test_paper_rejects_bad_arguments_naming_them(kwargs, match):
    with pytest.raises(TypeError, match=match):
        catalog.Paper(**kwargs)


def test_claim_ids_start_with_their_papers_name():
    with pytest.raises(ValueError, match=r"claim id 'nopaper\.x' must start with a paper's name"):
        catalog.paper_of("nopaper.x")
    assert catalog.paper_of("rks.lemma1.approximation") == "rks"
