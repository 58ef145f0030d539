"""Algorithm 2 (EST_SCALAR_PROD): unbiasedness, equal laws of the three versions, seeds, threads."""

import subprocess
import sys

import numba
import numpy as np
import pytest
from scipy import stats
from tolerances import hoeffding_half_width

from iln import estimator, numba_sampling
from iln.estimator import (
    estimate_scalar_product,
    estimate_scalar_product_numpy,
    estimate_scalar_product_reference,
)
from iln.features import (
    CustomFamily,
    RandomCoordinate,
    RandomFourier,
    RandomReLU,
    RandomSigmoid,
    RandomSign,
    RandomStump,
)

D = 6


def _instance(family, seed=0):
    """Alternating-sign alpha on near-duplicate points: large kernel values, heavy cancellation."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.5, 0.9, D)
    base /= np.linalg.norm(base) * 1.05
    X = np.vstack([base * s for s in (1.0, 0.98, 0.96, 0.5)])
    X[3, 0] = -X[3, 0]
    alpha = np.array([1.5, -1.0, 0.75, -0.25])
    if isinstance(family, RandomFourier | RandomStump):
        X = X * 2.0
    return alpha, X, X[0].copy()


FAMILIES = [RandomCoordinate(D), RandomFourier(D, 1.3), RandomSign(D), RandomReLU(D),
            RandomSigmoid(D, 2.0), RandomStump(D)]


@pytest.mark.parametrize("family", FAMILIES, ids=repr)
@pytest.mark.parametrize("method", ["fast", "numpy"])
def test_unbiased(family, method):
    alpha, X, x = _instance(family)
    exact = alpha @ family.kernel(X, x[None, :])[:, 0]
    n_seeds, m = 200, 2_000
    est = np.array([estimate_scalar_product(alpha, X, x, m, family, seed=s, method=method)
                    for s in range(n_seeds)])
    # The grand mean averages n_seeds * m iid terms in [-||alpha||_1, ||alpha||_1]:
    # two-sided Hoeffding at false-alarm rate 1e-6; power: it detects any bias larger
    # than this half-width (about 0.013 ||alpha||_1 here).
    w = hoeffding_half_width(np.abs(alpha).sum(), n_seeds * m, 1e-6)
    assert abs(est.mean() - exact) <= w


def test_reference_unbiased():
    family = RandomCoordinate(D)
    alpha, X, x = _instance(family)
    exact = alpha @ family.kernel(X, x[None, :])[:, 0]
    est = [estimate_scalar_product_reference(alpha, X, x, 100, family, seed=s) for s in range(150)]
    # As above: Hoeffding over 15 000 terms at false-alarm rate 1e-6.
    assert abs(np.mean(est) - exact) <= hoeffding_half_width(np.abs(alpha).sum(), 15_000, 1e-6)


@pytest.mark.parametrize("family", [RandomCoordinate(D), RandomStump(D), RandomReLU(D)], ids=repr)
def test_reference_and_fast_have_the_same_law(family):
    alpha, X, x = _instance(family)
    m, n = 40, 400
    ref = [estimate_scalar_product_reference(alpha, X, x, m, family, seed=s) for s in range(n)]
    fast = [estimate_scalar_product(alpha, X, x, m, family, seed=10_000 + s) for s in range(n)]
    npy = [estimate_scalar_product_numpy(alpha, X, x, m, family, seed=20_000 + s) for s in range(n)]
    # Two-sample Kolmogorov-Smirnov at level 1e-4 per pair (conservative for the
    # discrete laws of small m, so the false-alarm rate is at most 1e-4); with
    # n = 400 it detects a shift of the distribution function larger than about 0.16.
    assert stats.ks_2samp(ref, fast).pvalue > 1e-4
    assert stats.ks_2samp(ref, npy).pvalue > 1e-4


def test_variance_matches_the_multinomial_law():
    # Var E = (||alpha||_1^2 E[Z^2] - <f, Phi(x)>^2) / m for one term Z (Lemma 3's V[E_t]):
    # the fast version's variance must be the reference's, not only its mean.
    family = RandomCoordinate(D)
    alpha, X, x = _instance(family)
    norm1 = np.abs(alpha).sum()
    q = np.abs(alpha) / norm1
    second = norm1**2 * np.sum(q * ((X * x) ** 2).mean(axis=1))
    exact = alpha @ family.kernel(X, x[None, :])[:, 0]
    m = 50
    var_theory = (second - exact**2) / m
    est = np.array([estimate_scalar_product(alpha, X, x, m, family, seed=s) for s in range(4000)])
    # Chi-square interval for the variance, two-sided level 1e-4 (E is a mean of 50
    # bounded terms, close enough to normal for this interval's level).
    n = len(est)
    lo = (n - 1) * var_theory / stats.chi2.ppf(1 - 5e-5, n - 1)
    hi = (n - 1) * var_theory / stats.chi2.ppf(5e-5, n - 1)
    assert lo <= est.var(ddof=1) <= hi


def test_zero_alpha_gives_zero():
    family = RandomCoordinate(D)
    _, X, x = _instance(family)
    for method in estimator.METHODS:
        assert estimate_scalar_product(np.zeros(4), X, x, 10, family, seed=0, method=method) == 0.0
    assert estimate_scalar_product(np.zeros(0), np.zeros((0, D)), x, 10, family, seed=0) == 0.0


@pytest.mark.parametrize("method", estimator.METHODS)
def test_same_seed_same_number(method):
    family = RandomSign(D)
    alpha, X, x = _instance(family)
    a = estimate_scalar_product(alpha, X, x, 300, family, seed=7, method=method)
    b = estimate_scalar_product(alpha, X, x, 300, family, seed=np.random.SeedSequence(7), method=method)
    # RandomSign's estimates take finitely many values, so two seeds can agree by chance
    # (seeds 7 and 8 do on numpy 2.4's streams); eight other seeds cannot all agree.
    others = {estimate_scalar_product(alpha, X, x, 300, family, seed=s, method=method) for s in range(8, 16)}
    assert a == b
    assert others - {a}
    assert isinstance(a, float)


@pytest.mark.parametrize("family", FAMILIES, ids=repr)
def test_fast_is_independent_of_thread_count(family):
    alpha, X, x = _instance(family)
    # More samples than a few chunks, so that several work items run in parallel.
    m = 5 * numba_sampling.CHUNK + 17 if family.kind == 0 else 2 * numba_sampling.CHUNK + 3
    before = numba.get_num_threads()
    try:
        results = []
        for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
            numba.set_num_threads(threads)
            results.append(estimate_scalar_product(alpha, X, x, m, family, seed=3))
    finally:
        numba.set_num_threads(before)
    assert len(set(results)) == 1


def test_floor_draws_uniform_coordinates_without_psi():
    family = RandomCoordinate(D)
    _, X, x = _instance(family)
    m = 100_000
    # Like E, the floor is scaled by ||alpha||_1 / m = 4 / m.
    floor = estimator.draw_floor(np.ones(4), X, x, m, family, seed=1) * m / 4
    # With positive alpha it is the sum of m uniform coordinates in 0..D-1:
    # mean m (D - 1) / 2, variance m (D^2 - 1) / 12; 6 standard errors (false alarm ~2e-9).
    assert abs(floor - m * (D - 1) / 2) <= 6 * np.sqrt(m * (D**2 - 1) / 12)
    with pytest.raises(ValueError, match="no compiled sampler"):
        estimator.draw_floor(np.ones(4), X, x, 10, CustomFamily(lambda n, r: np.zeros((n, 1)),
                                                               lambda X, W: np.zeros((len(X), len(W))),
                                                               dim=D), seed=1)


def test_custom_family_uses_the_numpy_path():
    fam = CustomFamily(lambda n, rng: rng.uniform(-1, 1, (n, D)),
                       lambda X, W: 0.5 * np.tanh(X @ W.T), dim=D, name="tanh",
                       psi_paired=lambda X, W: 0.5 * np.tanh(np.einsum("kd,kd->k", X, W)))
    alpha, X, x = _instance(RandomCoordinate(D))
    a = estimate_scalar_product(alpha, X, x, 500, fam, seed=1)
    b = estimate_scalar_product_numpy(alpha, X, x, 500, fam, seed=1)
    assert a == b


def test_float32_inputs_are_accepted_and_output_is_float():
    family = RandomCoordinate(D)
    alpha, X, x = _instance(family)
    a = estimate_scalar_product(alpha.astype(np.float32), X.astype(np.float32), x.astype(np.float32),
                                100, family, seed=0)
    assert isinstance(a, float)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"m": 0}, "m must be >= 1"),
        ({"m": 2.5}, "m must be a positive int"),
        # numpy files its time spans under numbers.Integral; not a number of samples all the same.
        ({"m": np.timedelta64(10, "ns")}, "m must be a positive int"),
        ({"m": np.timedelta64(10, "s")}, "m must be a positive int"),
        ({"alpha": np.array([np.nan, 1, 1, 1])}, "alpha must be finite"),
        ({"alpha": np.ones((2, 2))}, "alpha must be 1-D"),
        ({"alpha": np.ones(3)}, "X must have one row per entry of alpha"),
        ({"x": np.ones(D + 1) * 0.1}, "x must have"),
        ({"x": np.ones((2, D)) * 0.1}, "x must be one point"),
        ({"X": np.ones((4, D))}, r"X must satisfy \|x_d\| < 1"),
        ({"family": "coordinate"}, "family must be"),
        ({"seed": -1}, "seed must be >= 0"),
        ({"seed": 1.5}, "seed must be a non-negative int"),
        ({"seed": np.timedelta64(3, "ns")}, "seed must be a non-negative int"),
        ({"seed": None}, "seed must be"),
        ({"method": "gpu"}, "method must be one of"),
    ],
)
def test_bad_input(kwargs, match):
    family = RandomCoordinate(D)
    alpha, X, x = _instance(family)
    args = {"alpha": alpha, "X": X, "x": x, "m": 10, "family": family, "seed": 0, "method": "fast"}
    args.update(kwargs)
    with pytest.raises((ValueError, TypeError), match=match):
        estimate_scalar_product(args["alpha"], args["X"], args["x"], args["m"], args["family"],
                                seed=args["seed"], method=args["method"])


def test_serial_and_parallel_kernels_give_the_same_numbers():
    family = RandomCoordinate(D)
    alpha, X, x = _instance(family)
    counts = np.array([3 * numba_sampling.CHUNK + 5, 17, 0, numba_sampling.CHUNK], dtype=np.int64)
    args = (X, x, counts, np.sign(alpha), np.uint64(99), family.kind, family.numba_params(),
            numba_sampling.MODE_PRODUCTS)
    assert numba_sampling.sum_products(*args) == numba_sampling.sum_products_serial(*args)


@pytest.mark.parametrize("zero_at", [0, 2, 4])
def test_fast_reads_the_support_as_a_run_or_by_index_with_the_same_numbers(zero_at):
    # The support of alpha is read as a view when it is a run of rows (a zero at either end)
    # and by index otherwise (a zero inside): either way the estimate is that of alpha without
    # its zero on the rows that remain, with the same seed.
    family = RandomCoordinate(D)
    rng = np.random.default_rng(3)
    X = rng.uniform(-1, 1, (5, D)) / np.sqrt(D)
    alpha = rng.normal(size=5)
    alpha[zero_at] = 0.0
    kept = np.flatnonzero(alpha)
    for m in (7, numba_sampling.PARALLEL_MIN + 1):
        assert (estimate_scalar_product(alpha, X, X[1], m, family, seed=11)
                == estimate_scalar_product(alpha[kept], X[kept], X[1], m, family, seed=11))


def test_fast_refuses_inputs_shorter_than_alpha():
    # estimate_validated trusts its caller; a short X would otherwise be read past its end.
    alpha = np.array([1.0, -0.5, 0.25])
    X = np.full((2, D), 0.1)
    with pytest.raises(ValueError, match="X must have a row"):
        estimator.estimate_validated(alpha, X, X[0], 10, RandomCoordinate(D), np.random.SeedSequence(0), "fast")


def test_a_kind_code_changed_in_features_alone_stops_the_import():
    """numba's cache of the compiled sampler is keyed by iln/numba_sampling.py alone, and a
    cached kernel keeps the kind codes it was compiled with: a code changed in iln/features.py
    alone must not run the old kernels (they would draw another family)."""
    script = ("import iln.features as f\nf.KIND_FOURIER = 9\n"
              "try:\n    import iln.numba_sampling\nexcept ImportError as e:\n    print('refused:', e)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    assert "refused: iln/features.py's kind codes" in done.stdout, done.stdout + done.stderr


# -- Algorithm 2 at many points with one seed (test time, Theorem 1 part 3) ------------------
def _query_rows(family, n, seed=7):
    """Rows near and far from the instance's support, in the family's domain."""
    _, X, _ = _instance(family)
    rng = np.random.default_rng(seed)
    rows = X[rng.integers(0, len(X), n)] * rng.uniform(-1.0, 1.0, (n, 1))
    return rows + rng.uniform(-0.02, 0.02, rows.shape)


@pytest.mark.parametrize("family", FAMILIES, ids=repr)
@pytest.mark.parametrize("m", [37, numba_sampling.PARALLEL_MIN // 3 + 5])
def test_estimates_at_points_are_algorithm2_at_each_row(family, m):
    # Row j is Algorithm 2 at x_j with the call's seed: the same draws in the same order, so the
    # same number up to the round-off of the sum (the cosine, the coordinate kind's order of
    # additions); the bound is 1e-12 of ||alpha||_1, the scale of an estimate, far below the
    # Monte Carlo error of any m (above 1e-3 ||alpha||_1 for m < 10^6) and far above round-off.
    # The second m runs the parallel kernel (m times 20 rows passes PARALLEL_MIN).
    alpha, X, _ = _instance(family)
    rows = _query_rows(family, 20)
    at_points = estimator.estimate_at_points(alpha, X, rows, m, family, seed=11)
    one_by_one = [estimate_scalar_product(alpha, X, x, m, family, seed=11) for x in rows]
    np.testing.assert_allclose(at_points, one_by_one, rtol=0, atol=1e-12 * np.abs(alpha).sum())


@pytest.mark.parametrize("method", ["numpy", "reference"])
def test_estimates_at_points_of_the_other_versions_are_their_estimates_row_by_row(method):
    family = RandomStump(D)
    alpha, X, _ = _instance(family)
    rows = _query_rows(family, 3)
    at_points = estimator.estimate_at_points(alpha, X, rows, 50, family, seed=2, method=method)
    assert at_points.tolist() == [estimate_scalar_product(alpha, X, x, 50, family, seed=2, method=method)
                                  for x in rows]


@pytest.mark.parametrize("family", FAMILIES, ids=repr)
def test_a_row_does_not_depend_on_the_rows_asked_with_it_nor_on_threads(family):
    # Blocks of ROWS_PER_BLOCK rows, work items on as many threads as there are: a row's
    # number is the same asked alone, in a block of others, or past a block's boundary.
    alpha, X, _ = _instance(family)
    rows = _query_rows(family, numba_sampling.ROWS_PER_BLOCK + 3)
    m = numba_sampling.CHUNK + 9
    before = numba.get_num_threads()
    try:
        results = []
        for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
            numba.set_num_threads(threads)
            results.append(estimator.estimate_at_points(alpha, X, rows, m, family, seed=4))
    finally:
        numba.set_num_threads(before)
    assert all(np.array_equal(r, results[0]) for r in results)
    for j in (0, numba_sampling.ROWS_PER_BLOCK - 1, numba_sampling.ROWS_PER_BLOCK + 2):
        assert estimator.estimate_at_points(alpha, X, rows[j:j + 1], m, family, seed=4)[0] == results[0][j]


def test_estimates_at_points_beyond_the_cosines_range_fall_back_to_the_c_library():
    # gamma = 1e16: arguments w.x + b of order 1e8, where the reduction of cosine() loses
    # digits (its error there is near 1e-8); the C library's cos takes those rows.
    family = RandomFourier(D, 1e16)
    alpha, X, _ = _instance(family)
    rows = _query_rows(family, 5)
    at_points = estimator.estimate_at_points(alpha, X, rows, 200, family, seed=1)
    one_by_one = [estimate_scalar_product(alpha, X, x, 200, family, seed=1) for x in rows]
    np.testing.assert_allclose(at_points, one_by_one, rtol=0, atol=1e-12 * np.abs(alpha).sum())


def test_estimates_at_points_are_zero_for_zero_alpha_and_empty_for_no_rows():
    family = RandomFourier(D)
    alpha, X, x = _instance(family)
    assert estimator.estimate_at_points(np.zeros(4), X, np.vstack([x, x]), 10, family, seed=0).tolist() == [0.0, 0.0]
    assert estimator.estimate_at_points(alpha, X, np.zeros((0, D)), 10, family, seed=0).shape == (0,)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"X_new": np.zeros((2, D + 1))}, "X_new"),
    ({"X_new": np.full((2, D), np.nan)}, "X_new"),
    ({"m": 0}, "m"),
    ({"method": "exact"}, "method"),
    ({"alpha": np.ones(3)}, "X must have one row per entry of alpha"),
])
def test_estimates_at_points_refuse_bad_input_naming_it(kwargs, match):
    family = RandomSign(D)
    alpha, X, x = _instance(family)
    args = {"alpha": alpha, "X_new": np.vstack([x, x]), "m": 10, "method": "fast", **kwargs}
    with pytest.raises((ValueError, TypeError), match=match):
        estimator.estimate_at_points(args["alpha"], X, args["X_new"], args["m"], family, seed=0,
                                     method=args["method"])


def test_cosine_is_within_one_ulp_of_the_c_library():
    # The compiled kernel's cosine (fdlibm's reduction and polynomials) on every range it
    # serves: near 0, near each multiple of pi/2 (where the reduction cancels most), and up
    # to its limit, where n pi/2 is at its largest.  One ulp of the C library's result is
    # fdlibm's own documented accuracy.
    rng = np.random.default_rng(0)
    near = np.arange(-40, 41) * (np.pi / 2)
    x = np.concatenate([
        rng.uniform(-1.0, 1.0, 20_000), rng.uniform(-100.0, 100.0, 20_000),
        rng.uniform(-numba_sampling.COSINE_LIMIT, numba_sampling.COSINE_LIMIT, 20_000),
        (near[:, None] + rng.uniform(-1e-6, 1e-6, (near.size, 50))).ravel(),
        np.nextafter(near, np.inf), np.nextafter(near, -np.inf),
        [0.0, -0.0, np.nextafter(numba_sampling.COSINE_LIMIT, 0.0)],
    ])
    got = _cosines(x)
    want = np.cos(x)
    assert np.all(np.abs(got - want) <= np.spacing(np.abs(want)))


@numba.njit
def _cosines(x):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = numba_sampling.cosine(x[i])
    return out
