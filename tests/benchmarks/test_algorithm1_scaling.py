"""Run time of Algorithm 1 over a grid of T and B, at the proof's eta and m (Theorem 1, part 2).

Theorem 1.2 (ICML and arXiv) states a run time of O~(rho B^4 T^2).  Each
benchmark runs SHRINKING_GRADIENT on the Section 6 data with random-coordinate
features and records ``T``, ``B`` and the number of sampled features in
``extra_info``; the claim ``iln.thm1.runtime`` fits the exponents of the measured
time in T and in B from the ``--benchmark-json`` output
(``reports/benchmarks/algorithm1.json``, written by ``nox -s bench``).
"""

import pytest

from iln.data import section6_data
from iln.features import RandomCoordinate
from iln.shrinking_gradient import shrinking_gradient

#: (T, B): a line in T at B = 1 and a line in B at T = 128 (T > 16 B^2 keeps eta < 1/8).
GRID = [(64, 1.0), (128, 1.0), (256, 1.0), (512, 1.0), (128, 1.5), (128, 2.0), (128, 2.5)]


@pytest.mark.parametrize(("T", "B"), GRID, ids=[f"T={t}-B={b}" for t, b in GRID])
def test_algorithm1_run_time(benchmark, T, B):
    data = section6_data(T, 2 * T, seed=T)
    family = RandomCoordinate(2 * T)
    run = shrinking_gradient(data.X, data.y, family, B=B, seed=0)  # compile and warm the caches
    benchmark.extra_info.update(variant="algorithm1", T=T, B=B, m=run.m,
                                samples=run.budget.features_sampled)
    result = benchmark.pedantic(shrinking_gradient, args=(data.X, data.y, family),
                                kwargs={"B": B, "seed": 0}, rounds=3, warmup_rounds=0)
    assert result.budget.features_sampled == run.budget.features_sampled
