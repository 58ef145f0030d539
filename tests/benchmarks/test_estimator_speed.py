"""Cost per sampled (i, w) pair of the versions of Algorithm 2 (EST_SCALAR_PROD).

One pytest-benchmark run on the same inputs: 1000 support points, D = 600,
random-coordinate features.  ``extra_info`` carries ``variant`` and ``samples``
so that ``--benchmark-json`` output gives seconds per sample;
``tests/benchmarks/summarize.py`` turns it into a table.
``rng_floor`` draws the random numbers the fast version needs and nothing else.
"""

import numpy as np
import pytest

from iln import estimator
from iln.features import RandomCoordinate

N_SUPPORT = 1000
D = 600
# Samples per call, so that each call lasts between ~0.05 and ~1 s.
SAMPLES = {"reference": 2_000, "numpy": 200_000, "fast": 5_000_000, "rng_floor": 5_000_000}


@pytest.fixture(scope="module")
def setting():
    rng = np.random.default_rng(20261122)
    X = rng.uniform(0.0, 0.99, (N_SUPPORT, D))
    x = rng.uniform(0.0, 0.99, D)
    alpha = rng.standard_normal(N_SUPPORT)
    return alpha, X, x, RandomCoordinate(D)


VARIANTS = {
    "reference": estimator.estimate_scalar_product_reference,
    "numpy": estimator.estimate_scalar_product_numpy,
    "fast": estimator.estimate_scalar_product,
    "rng_floor": estimator.draw_floor,
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_cost_per_sample(benchmark, setting, variant):
    alpha, X, x, family = setting
    m = SAMPLES[variant]
    benchmark.extra_info.update(variant=variant, samples=m, support=N_SUPPORT, dim=D,
                                family="random coordinate")
    fn = VARIANTS[variant]
    value = benchmark.pedantic(fn, args=(alpha, X, x, m, family), kwargs={"seed": 1},
                               rounds=5 if variant != "reference" else 2, warmup_rounds=1)
    assert np.isfinite(value)
