"""Speed targets of the brief, measured (never asserted in a unit test; a loaded machine is
not a slow implementation).

- Doubly Stochastic Gradient Descent at the Section 6 size (T = 200, D = 800, k = 50: about
  1e6 psi evaluations): "well under a second".
- The Section 6 comparison at paper size with its step sizes tuned (D = 600, T = 200, budget
  2e6): "under a minute on 2 cores".
- DSGD's step-size search of the Section 6 comparison (its default grid at the Section 6
  size), each schedule run alone or all on one set of draws (``doubly_stochastic_grid``).
- Seeding the two streams of one Algorithm 2 call (the multinomial's generator and the
  sampler's key) from numpy's children of its seed or from their hash
  (:mod:`iln.seed_sequence`): in the Section 6 comparison's small calls, seeding cost more
  than sampling.
- Algorithm 2 on one instance a Monte Carlo check estimates at again and again (ICML Lemma 4 /
  arXiv Lemma 3, the grid of ``iln.lemma4.hoeffding``): through the public function, which
  checks its inputs at every call, or with the instance checked once
  (``EstimatorInstance.estimate``).
- The code fingerprints of the whole catalog (what ``iln-verify run`` computes before reusing
  any stored trial): about a second.

``nox -s bench`` runs them with ``--benchmark-enable`` and writes their figures; in the test
run (benchmarks disabled) each body runs once, so the workloads stay exercised.
"""

from pathlib import Path

import numpy as np
import pytest

from iln.baselines import doubly_stochastic, doubly_stochastic_grid
from iln.comparison import DEFAULT_STEP_GRID, section6_comparison
from iln.data import section6_data
from iln.estimator import estimate_scalar_product
from iln.features import RandomCoordinate
from iln.random_streams import child, generator, stream_key
from iln.seed_sequence import child_generator, child_key
from verification import catalog, fingerprint
from verification.claims.iln.instances import estimator_instance

ROOT = Path(__file__).resolve().parents[2]


def test_dsgd_at_the_section6_size(benchmark):
    data = section6_data(200, 800, seed=0)
    fam = RandomCoordinate(800)
    res = benchmark(doubly_stochastic, data.X, data.y, fam, k=50, seed=0, gamma0=10.0)
    assert res.budget.psi_evaluations == 50 * 200 * 201 // 2


@pytest.mark.parametrize("shared", [False, True], ids=["runs_alone", "one_set_of_draws"])
def test_dsgd_step_search_of_section6(benchmark, shared):
    data = section6_data(200, 800, seed=0)
    fam = RandomCoordinate(800)
    grid = DEFAULT_STEP_GRID["doubly_stochastic"]

    def search():
        if shared:
            return doubly_stochastic_grid(data.X, data.y, fam, k=50, seed=0, schedules=grid)
        return [doubly_stochastic(data.X, data.y, fam, k=50, seed=0, **steps) for steps in grid]

    with np.errstate(over="ignore", invalid="ignore"):  # the grid's largest steps diverge
        runs = benchmark.pedantic(search, rounds=3, iterations=1)
    assert len(runs) == len(grid)


@pytest.mark.slow
def test_section6_comparison_at_paper_size_tuned(benchmark):
    res = benchmark.pedantic(section6_comparison, args=(600, 200), kwargs={"budget": 2_000_000, "seed": 0},
                             rounds=1, iterations=1)
    assert len(res.outcomes) == 4


@pytest.mark.parametrize("hashed", [False, True], ids=["numpy_children", "hashed_children"])
def test_seeding_one_algorithm2_call(benchmark, hashed):
    seed = child(np.random.SeedSequence(2**127 + 5), 11, 3, 150)  # a round's seed in Algorithm 1
    p = np.full(150, 1 / 150)

    def seeds():
        if hashed:
            return child_generator(seed, 0).multinomial(1000, p), child_key(seed, 1)
        return generator(child(seed, 0)).multinomial(1000, p), stream_key(child(seed, 1))

    counts, key = benchmark(seeds)
    assert counts.sum() == 1000
    assert key == stream_key(child(seed, 1))


@pytest.mark.parametrize("path", ["checked_every_call", "checked_once"])
def test_algorithm2_at_one_instance(benchmark, path):
    inst = estimator_instance("cancelling")
    seeds = [child(np.random.SeedSequence(3), j) for j in range(100)]

    def estimates():
        if path == "checked_once":
            return [inst.estimate(64, s) for s in seeds]
        return [estimate_scalar_product(inst.alpha, inst.X, inst.x, 64, inst.family, seed=s) for s in seeds]

    assert benchmark(estimates) == [estimate_scalar_product(inst.alpha, inst.X, inst.x, 64, inst.family, seed=s)
                                    for s in seeds]


def test_fingerprints_of_the_whole_catalog(benchmark):
    def fingerprints():
        index = fingerprint.current_index(ROOT)
        return {c.id: fingerprint.code_id(index.state(fingerprint.conservative_units(c, index)),
                                          fingerprint.versions()) for c in catalog.load().values()}
    assert len(benchmark(fingerprints)) == len(catalog.load())


@pytest.mark.parametrize("path", ["psi", "psi_validated"])
def test_one_dsgd_round_checked_or_not(benchmark, path):
    # The last round of DSGD at the Section 6 size evaluates all k T features on x_T.  With
    # the checks (psi), every earlier feature is checked again each round; psi_validated is
    # what doubly_stochastic calls on its data and draws, each checked once.
    data = section6_data(200, 800, seed=0)
    fam = RandomCoordinate(800)
    W = fam.sample(50 * 200, np.random.default_rng(0))
    x = data.X[-1:]
    out = benchmark(getattr(fam, path), x, W)
    assert out.shape == (1, 50 * 200)
