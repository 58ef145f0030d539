"""The search of the whole catalog against the quick profile's budget (issue 41).

``iln-verify run`` builds every claim's configuration, and with it the search of every
specification (:func:`verification.search.search`), in its main process, one after the
other, before any trial runs: the searches' serial sum is what a run waits for, whatever the
number of cores.  The quick profile's budget for it is 5 minutes on 2 cores (the project's design:
the whole quick catalog in 15 minutes).  ``nox -s bench`` measures it (one round: a search
is deterministic, and its time is what a user waits once) and writes the seconds of each
statement into ``reports/benchmarks/search.json``; ``tests/benchmarks/summarize.py search``
prints them against the budget.  Never asserted in a unit test (a loaded machine is not a
slow search); in the test run the benchmark is skipped, as every claim's own tests search
its statement already.
"""

import time

import pytest

from verification import catalog, search

#: the quick profile's budget for the whole catalog's search, in seconds.
BUDGET_S = 300.0


def _search_all() -> dict[str, float]:
    """Seconds of each registered statement's search, fresh (no cached result), in id order."""
    catalog.load()
    seconds = {}
    for claim_id, spec in sorted(search.registered().items()):
        start = time.perf_counter()
        search.search(spec)
        seconds[claim_id] = time.perf_counter() - start
    return seconds


def test_search_of_the_whole_catalog(benchmark):
    if benchmark.disabled:
        pytest.skip("measured by nox -s bench; each claim's tests run its search")
    seconds = benchmark.pedantic(_search_all, rounds=1, iterations=1, warmup_rounds=0)
    benchmark.extra_info.update(seconds=seconds, total_s=sum(seconds.values()), budget_s=BUDGET_S,
                                statements=len(seconds))
    assert seconds, "no statement is registered"
