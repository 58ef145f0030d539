"""The verification harness: claims, statistics, runner, store, report and the ``iln-verify`` CLI."""
