"""The build hook: a wheel or sdist built from a checkout records the checkout's git revision.

An installed copy is no checkout, so without this its runs would record "git revision unknown".
The hook writes ``verification/_build_info.json`` into the built archive only (never into the
source tree, where it would be a file of the checkout); :mod:`verification.provenance` reads it.
A wheel built from an sdist takes the file the sdist carries.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _provenance(root: Path):
    """:mod:`verification.provenance`, loaded by its path: the build cannot import the package."""
    path = root / "verification" / "provenance.py"
    spec = importlib.util.spec_from_file_location("_iln_verify_provenance", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildInfoHook(BuildHookInterface):
    """Add ``verification/_build_info.json`` (the revision and whether the tree was dirty)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Write the revision file into the archive being built (not for an editable install)."""
        self._scratch: str | None = None
        if version == "editable":
            # An editable install runs from the checkout, where git tells the revision.
            return
        root = Path(self.root)
        provenance = _provenance(root)
        target = f"verification/{provenance.BUILD_INFO}"
        info = provenance.checkout_revision(root)
        if info is None:
            # Not a checkout: an unpacked sdist carries the file its checkout's build wrote
            # (read to check it, git-ignored so that only this includes it); else nothing.
            if provenance.recorded_revision(root) is not None:
                build_data["force_include"][str(root / target)] = target
            return
        self._scratch = tempfile.mkdtemp(prefix="iln-verify-build-")
        path = Path(self._scratch) / provenance.BUILD_INFO
        path.write_text(json.dumps(info) + "\n")
        build_data["force_include"][str(path)] = target

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the scratch folder the revision file was written in."""
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
