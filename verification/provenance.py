"""The git revision of the running code, in a checkout or in an installed copy.

A run records the revision of its code so that its verdicts can be traced to it.  In a checkout
(and an editable install) git tells it.  An installed copy is no checkout: its wheel carries the
revision of the checkout it was built from, in :data:`BUILD_INFO` beside this module, written
at build time by the project's build hook (``hatch_build.py``, which loads this module by its
path: it imports nothing but the standard library).

Examples
--------
>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:  # neither a checkout nor a built copy
...     git_revision(Path(folder))
'unknown'
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

__all__ = ["BUILD_INFO", "ROOT", "checkout_revision", "git_revision", "recorded_revision"]

#: the directory holding the packages ``iln`` and ``verification``.
ROOT = Path(__file__).resolve().parents[1]
#: the file, inside ``verification/`` of a built copy, that records its checkout's revision:
#: ``{"revision": <40 hex digits>, "dirty": <bool>}``.  Generated, never committed.
BUILD_INFO = "_build_info.json"

_COMMIT = re.compile(r"[0-9a-f]{40}")


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10,
                          check=True).stdout.strip()


def checkout_revision(root: Path) -> dict | None:
    """The revision of the git checkout whose top directory is ``root``.

    Parameters
    ----------
    root : path
        The directory holding the packages.

    Returns
    -------
    dict or None
        ``{"revision": HEAD's commit, "dirty": whether tracked files differ from it}``; None when
        git is missing or ``root`` is not the top of a checkout.  An installed copy inside some
        other checkout (a virtual environment in a project's folder) is not that checkout's
        code, so only the top counts.
    """
    try:
        top = _git(root, "rev-parse", "--show-toplevel")
        if Path(top).resolve() != Path(root).resolve():
            return None
        revision = _git(root, "rev-parse", "HEAD")
        changed = _git(root, "status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return None
    return {"revision": revision, "dirty": bool(changed)}


def recorded_revision(root: Path) -> dict | None:
    """The revision a built copy recorded (:data:`BUILD_INFO`), or None where there is none.

    Raises
    ------
    ValueError
        The file exists but does not hold a commit and a dirty flag.
    """
    path = Path(root) / "verification" / BUILD_INFO
    try:
        text = path.read_text()
    except FileNotFoundError:
        return None
    try:
        info = json.loads(text)
    except ValueError:
        info = None
    if not (isinstance(info, dict) and isinstance(info.get("revision"), str)
            and _COMMIT.fullmatch(info["revision"]) and isinstance(info.get("dirty"), bool)):
        raise ValueError(f"{path}: expected {{'revision': <40 hex digits>, 'dirty': <bool>}}, got {text[:200]!r}")
    return {"revision": info["revision"], "dirty": info["dirty"]}


def git_revision(root: Path = ROOT) -> str:
    """The git revision of the code under ``root``: ``<commit>``, ``<commit>+dirty`` when
    tracked files were edited since it, or ``"unknown"``.

    The checkout's own revision where ``root`` is one, else the one its wheel recorded at build
    time (:func:`recorded_revision`), else ``"unknown"`` (a copy built outside a checkout).
    """
    info = checkout_revision(root) or recorded_revision(root)
    if info is None:
        return "unknown"
    return info["revision"] + ("+dirty" if info["dirty"] else "")
