"""Sphinx configuration of the iln-verify documentation (``nox -s docs`` builds it with ``-W``).

The reference pages are generated at build time (``_ext/generated_pages.py``): the API pages
from the packages' docstrings, the claim catalog and the errata ledger from
:mod:`verification.catalog`, the verdict tables from ``reports/summary.json``.  Nothing is
typed by hand, and nothing runs a trial.
"""

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
# The checkout's packages first (a build from a clone documents the clone, not an older install).
sys.path[:0] = [str(ROOT), str(DOCS / "_ext")]
# Importing the packages must not compile numba kernels (minutes, and a cache written by the
# build): with the JIT off, a jitted function is its Python function, which autodoc reads.
os.environ["NUMBA_DISABLE_JIT"] = "1"

project = "iln-verify"
author = "the iln-verify developers"
copyright = "the iln-verify developers, MIT licence"

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "sphinxarg.ext",
    "generated_pages",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "tutorial/tinypaper/**"]

html_theme = "furo"
html_title = "iln-verify"

myst_enable_extensions = ["dollarmath", "colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "none"  # numpydoc's Parameters sections say the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
# A module page's functions and classes stay out of the navigation: with them, the tree every
# page carries held thousands of entries and took most of the build's time.
toc_object_entries = False
# The self-test's documents (reports/selftest*.md, included as the tool wrote them) put their
# tables under level-4 headings; a jump of heading levels only changes the table of contents.
suppress_warnings = ["myst.header"]
