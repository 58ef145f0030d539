"""The git revision of the code: read from its checkout, or from what its wheel recorded at
build time (``hatch_build.py``), so that an installed copy's runs name it too."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from verification import provenance

ROOT = Path(__file__).resolve().parents[1]
COMMIT = "0123456789abcdef0123456789abcdef01234567"

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="reads a git checkout")


def _record(root: Path, text: str) -> None:
    (root / "verification").mkdir(parents=True, exist_ok=True)
    (root / "verification" / provenance.BUILD_INFO).write_text(text)


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", *args],
                          capture_output=True, text=True, check=True).stdout.strip()


def test_a_copy_neither_checked_out_nor_built_is_of_unknown_revision(tmp_path):
    assert provenance.recorded_revision(tmp_path) is None
    assert provenance.git_revision(tmp_path) == "unknown"


@pytest.mark.parametrize(("dirty", "expected"), [(False, COMMIT), (True, COMMIT + "+dirty")])
def test_a_built_copy_names_the_revision_it_recorded(tmp_path, dirty, expected):
    _record(tmp_path, json.dumps({"revision": COMMIT, "dirty": dirty}))
    assert provenance.git_revision(tmp_path) == expected


@pytest.mark.parametrize("text", ["", "[]", '{"revision": "abc", "dirty": false}',
                                  json.dumps({"revision": COMMIT, "dirty": "no"}), json.dumps({"revision": COMMIT})])
def test_a_malformed_record_is_refused_naming_the_file(tmp_path, text):
    _record(tmp_path, text)
    with pytest.raises(ValueError, match=provenance.BUILD_INFO):
        provenance.git_revision(tmp_path)


@needs_git
def test_a_checkout_names_its_head_and_its_edits(tmp_path):
    _git(tmp_path, "init", "-q")
    (tmp_path / "a.py").write_text("x = 1\n")
    _git(tmp_path, "add", "a.py")
    _git(tmp_path, "commit", "-q", "-m", "one")
    head = _git(tmp_path, "rev-parse", "HEAD")
    # A record in a checkout (a stray file) is not what runs: git is.
    _record(tmp_path, json.dumps({"revision": COMMIT, "dirty": False}))
    assert provenance.git_revision(tmp_path) == head
    (tmp_path / "a.py").write_text("x = 2\n")
    assert provenance.git_revision(tmp_path) == head + "+dirty"


@needs_git
def test_a_copy_inside_another_checkout_is_not_that_checkout(tmp_path):
    """A virtual environment in a project's folder: its site-packages is inside that checkout,
    whose revision says nothing of the installed copy."""
    _git(tmp_path, "init", "-q")
    (tmp_path / "a.py").write_text("x = 1\n")
    _git(tmp_path, "add", "a.py")
    _git(tmp_path, "commit", "-q", "-m", "one")
    site = tmp_path / ".venv" / "site-packages"
    site.mkdir(parents=True)
    assert provenance.checkout_revision(site) is None
    assert provenance.git_revision(site) == "unknown"
    _record(site, json.dumps({"revision": COMMIT, "dirty": False}))
    assert provenance.git_revision(site) == COMMIT


def _build(argv: list[str], cwd: Path) -> None:
    done = subprocess.run([sys.executable, *argv], cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def _recorded_in_wheel(wheel: Path, tmp_path: Path) -> str:
    unpacked = tmp_path / "unpacked"
    shutil.rmtree(unpacked, ignore_errors=True)
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(unpacked)
    return provenance.git_revision(unpacked)


@pytest.mark.system
@needs_git
def test_a_wheel_built_from_the_checkout_records_its_revision(tmp_path):
    """Built as pip builds it (the hook, offline with the environment's hatchling), directly and
    through an sdist; the checkout itself gets no file."""
    if provenance.checkout_revision(ROOT) is None:
        pytest.skip(f"{ROOT} is not a git checkout")
    head = _git(ROOT, "rev-parse", "HEAD")
    expected = head + ("+dirty" if _git(ROOT, "status", "--porcelain", "--untracked-files=no") else "")
    generated = ROOT / "verification" / provenance.BUILD_INFO
    assert not generated.exists()

    _build(["-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--wheel-dir",
            str(tmp_path / "wheel"), str(ROOT)], tmp_path)
    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    assert _recorded_in_wheel(wheel, tmp_path) == expected

    _build(["-m", "hatchling", "build", "--target", "sdist", "--directory", str(tmp_path / "sdist")], ROOT)
    (sdist,) = (tmp_path / "sdist").glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "source", filter="data")
    (source,) = (tmp_path / "source").iterdir()
    assert not (source / ".git").exists()
    _build(["-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--wheel-dir",
            str(tmp_path / "from-sdist"), str(source)], tmp_path)
    (wheel,) = (tmp_path / "from-sdist").glob("*.whl")
    assert _recorded_in_wheel(wheel, tmp_path) == expected

    assert not generated.exists()
