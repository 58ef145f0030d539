"""The snippets are scripts the errata page shows, not modules: pytest's doctest collection
would import (and so run) each of them; ``tests/test_report_snippets.py`` runs them instead,
each in a fresh interpreter, and compares what they print with what the page states."""

collect_ignore_glob = ["*.py"]
