"""Feature families: bounds, samplers and oracle kernels against Monte Carlo."""

import math

import numpy as np
import pytest

from iln.features import (
    CustomFamily,
    NoOracleError,
    RandomCoordinate,
    RandomFourier,
    RandomReLU,
    RandomSigmoid,
    RandomSign,
    RandomStump,
    SphereNeuron,
)

D = 5


def _ball_points(n, dim, seed, radius=0.9):
    rng = np.random.default_rng(seed)
    g = rng.standard_normal((n, dim))
    return radius * g / np.linalg.norm(g, axis=1, keepdims=True) * rng.uniform(0.3, 1.0, (n, 1))


def _points(family, seed):
    """Inputs in the family's domain, including a near-duplicate pair (large kernel values)."""
    X = _ball_points(4, family.dim, seed)
    X[3] = X[0] * 0.999
    if isinstance(family, RandomFourier | RandomStump):
        X *= 1.5  # these families take any input
    return X


FAMILIES = [
    RandomCoordinate(D),
    RandomFourier(D, gamma=0.7),
    RandomSign(D),
    RandomReLU(D),
    RandomSigmoid(D, gain=3.0),
    RandomStump(D),
]


@pytest.mark.parametrize("family", FAMILIES, ids=repr)
def test_oracle_kernel_matches_monte_carlo(family):
    X = _points(family, seed=1)
    n = 200_000
    W = family.sample(n, np.random.default_rng(2))
    P = family.psi(X, W)
    assert np.max(np.abs(P)) <= 1.0
    products = P[:, None, :] * P[None, :, :]
    mc = products.mean(axis=2)
    se = products.std(axis=2) / math.sqrt(n)
    K = family.kernel(X)
    # 6 standard errors: false-alarm probability about 2e-9 per entry under the CLT
    # (16 entries per family); the 1e-12 floor covers entries whose products are constant.
    assert np.all(np.abs(mc - K) <= 6 * se + 1e-12), np.max(np.abs(mc - K) / (se + 1e-300))
    assert np.allclose(K, K.T)
    assert np.min(np.linalg.eigvalsh(K)) > -1e-12  # a Gram matrix is PSD


def test_sign_kernel_constant_at_known_angles():
    fam = RandomSign(2, scale=0.5)
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, 0.0]])
    K = fam.kernel(X)
    # theta = 0, pi/2, pi give 1, 0, -1 times scale^2; the zero vector has sign 0.
    assert K[0, 0] == pytest.approx(0.25)
    assert K[0, 1] == pytest.approx(0.0, abs=1e-15)
    assert K[0, 2] == pytest.approx(-0.25)
    assert np.all(K[3] == 0.0)


def test_relu_closed_form_equals_quadrature():
    fam = RandomReLU(7)
    fam.n_angular = 1024
    X = _ball_points(6, 7, seed=3)
    # The ReLU kink makes the angular trapezoid rule converge as O(n^-2), about
    # 3e-5 relative at 1024 nodes, not spectrally: 1e-4 is that rate with room.
    np.testing.assert_allclose(fam.quadrature_kernel(X), fam.kernel(X), rtol=1e-4)


@pytest.mark.parametrize("dim", [3, 4, 9])
def test_quadrature_is_exact_on_a_polynomial_activation(dim):
    # For w uniform on the sphere E[w_i w_j w_k w_l] = (d_ij d_kl + d_ik d_jl + d_il d_jk) / (D (D + 2)),
    # so E[(w.x)^2 (w.y)^2] = (|x|^2 |y|^2 + 2 (x.y)^2) / (D (D + 2)); the quadrature
    # integrates such polynomials exactly, up to round-off.
    fam = SphereNeuron(dim, lambda z: z**2)
    X = _ball_points(5, dim, seed=dim)
    sq = (X**2).sum(1)
    expected = (np.outer(sq, sq) + 2 * (X @ X.T) ** 2) / (dim * (dim + 2))
    np.testing.assert_allclose(fam.kernel(X), expected, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("dim", [1, 2, 3])
def test_quadrature_in_low_dimension(dim):
    fam = RandomSigmoid(dim, gain=2.0)
    X = _ball_points(3, dim, seed=dim)
    W = fam.sample(400_000, np.random.default_rng(dim))
    P = fam.psi(X, W)
    prod = P[:, None, :] * P[None, :, :]
    se = prod.std(axis=2) / math.sqrt(W.shape[0])
    assert np.all(np.abs(prod.mean(axis=2) - fam.kernel(X)) <= 6 * se + 1e-12)


def test_relu_kernel_one_dimension_exact():
    fam = RandomReLU(1)
    K = fam.kernel(np.array([[0.5], [-0.25], [0.3]]))
    # w = +-1: E[relu(wx) relu(wy)] = xy/2 when x, y share a sign, else 0.
    np.testing.assert_allclose(
        K, [[0.125, 0.0, 0.075], [0.0, 0.03125, 0.0], [0.075, 0.0, 0.045]], atol=1e-15
    )


@pytest.mark.parametrize("family", FAMILIES, ids=repr)
def test_sampler_is_reproducible_and_shapes(family):
    W1 = family.sample(10, np.random.default_rng(5))
    W2 = family.sample(10, np.random.default_rng(5))
    np.testing.assert_array_equal(W1, W2)
    assert W1.dtype == np.float64
    assert W1.shape[0] == 10
    X = _points(family, seed=2)
    assert family.psi(X, W1).shape == (4, 10)
    paired = family.psi_paired(np.repeat(X[:1], 10, axis=0), W1)
    np.testing.assert_allclose(paired, family.psi(X[:1], W1)[0], rtol=1e-12, atol=1e-15)


def test_custom_family_has_no_oracle_and_checks_bound():
    fam = CustomFamily(lambda n, rng: rng.uniform(-1, 1, (n, 2)),
                       lambda X, W: 0.5 * np.tanh(X @ W.T), dim=2, name="tanh")
    assert not fam.has_kernel
    with pytest.raises(NoOracleError):
        fam.kernel(np.zeros((1, 2)))
    bad = CustomFamily(lambda n, rng: np.ones((n, 2)), lambda X, W: X @ W.T, dim=2, name="linear")
    with pytest.raises(ValueError, match=r"\|psi\|"):
        bad.psi(np.ones((1, 2)), np.ones((1, 2)))


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: RandomCoordinate(0), "dim"),
        (lambda: RandomCoordinate(2.5), "dim"),
        (lambda: RandomCoordinate(np.timedelta64(3, "ns")), "dim"),
        (lambda: RandomStump(2, scale=np.timedelta64(1, "s")), "scale"),
        (lambda: RandomFourier(3, gamma=-1.0), "gamma"),
        (lambda: RandomSign(3, scale=1.0), "scale"),
        (lambda: RandomStump(3, scale=0.0), "scale"),
        (lambda: RandomSigmoid(3, gain=float("nan")), "gain"),
        (lambda: CustomFamily(None, lambda X, W: X, dim=2), "sampler"),
        (lambda: CustomFamily(lambda n, r: n, "psi", dim=2), "psi"),
    ],
)
def test_bad_family_arguments(make, match):
    with pytest.raises((ValueError, TypeError), match=match):
        make()


@pytest.mark.parametrize(
    ("family", "X", "match"),
    [
        (RandomCoordinate(2), [[1.0, 0.0]], r"\|x_d\| < 1"),
        (RandomReLU(2), [[1.0, 1.0]], "unit ball"),
        (RandomFourier(2), [[np.nan, 0.0]], "finite"),
        (RandomFourier(2), [[0.0, 0.0, 0.0]], "columns"),
        (RandomFourier(2), [["a", "b"]], "numeric"),
        (RandomFourier(2), np.zeros((1, 2, 2)), "2-D"),
        # numpy files time spans under its integers: a time span is still not a real number.
        (RandomFourier(2), np.array([[1, 2]], dtype="timedelta64[s]"), "numeric"),
        (RandomFourier(2), np.array([[1, 2]], dtype="datetime64[D]"), "numeric"),
        (RandomFourier(2), np.array([[True, False]]), "numeric"),
        (RandomFourier(2), np.array([[1j, 0]]), "numeric"),
    ],
)
def test_bad_inputs_name_the_argument(family, X, match):
    with pytest.raises((ValueError, TypeError), match=match):
        family.kernel(X)
    with pytest.raises((ValueError, TypeError), match="X"):
        family.psi(X, family.sample(1, np.random.default_rng(0)))


def test_kernels_see_the_direction_of_tiny_inputs():
    # Found by hypothesis: squaring 1e-210 underflows, and a naive norm called such a
    # point the zero vector although sign(w . x) still sees its direction.
    fam = RandomSign(3)
    X = np.full((1, 3), 1.1e-210)
    x = np.array([[0.5, 0.0, 0.0]])
    theta = np.arccos(1 / np.sqrt(3))
    assert fam.kernel(X, x)[0, 0] == pytest.approx(fam.scale**2 * (1 - 2 * theta / np.pi), rel=1e-12)
    # Two tiny points: each norm is positive, their product underflows to 0 (hypothesis again).
    assert fam.kernel(X, X)[0, 0] == pytest.approx(fam.scale**2, rel=1e-12)
    W = fam.sample(1000, np.random.default_rng(0))
    assert np.mean(fam.psi(X, W) ** 2) == pytest.approx(fam.scale**2, rel=1e-12)  # |psi| = s


def test_generic_all_pairs_evaluation_in_blocks_equals_the_specialised_one(monkeypatch):
    import iln.features as features_module

    # Blocks of 7 floats force one row per block through the generic path.
    monkeypatch.setattr(features_module, "_PSI_BLOCK", 7)
    fam = RandomSign(6)
    rng = np.random.default_rng(0)
    X = rng.uniform(-0.4, 0.4, size=(5, 6))
    W = fam.sample(3, rng)
    generic = features_module.FeatureFamily.psi_validated(fam, X, W)
    np.testing.assert_array_equal(generic, fam.psi(X, W))
    stump = RandomStump(6)
    Ws = stump.sample(4, rng)
    pairwise = [[stump.psi_paired(X[j : j + 1], Ws[k : k + 1])[0] for k in range(4)] for j in range(5)]
    np.testing.assert_array_equal(stump.psi(X, Ws), np.array(pairwise))


def _validated_cases():
    """Every family with inputs in its domain and parameters from its sampler."""
    from iln.rks.function_class import AtomFeatures

    custom = CustomFamily(lambda n, rng: rng.uniform(-1, 1, (n, D)),
                          lambda X, W: 0.5 * np.tanh(X @ W.T), dim=D, name="tanh")
    atoms = AtomFeatures(np.array([[0.5, -1.0, 0.25], [1.0, 0.0, -0.5]]), [0.2, 0.3, 0.5])
    cases = [(fam, _points(fam, seed=3)) for fam in [*FAMILIES, custom]]
    return [*cases, (atoms, atoms.support)]


@pytest.mark.parametrize(("family", "X"), _validated_cases(), ids=lambda v: type(v).__name__)
def test_validated_evaluation_equals_the_checked_one(family, X):
    # The learners' loops call psi_validated / kernel_validated on data checked once: the
    # numbers must be those of psi / kernel bit for bit, or skipping the checks changed results.
    W = family.check_parameters(family.sample(7, np.random.default_rng(4)))
    X = family.check_inputs(X)
    np.testing.assert_array_equal(family.psi_validated(X, W), family.psi(X, W))
    assert family.psi_validated(X, W).flags["C_CONTIGUOUS"]
    if family.has_kernel:
        np.testing.assert_array_equal(family.kernel_validated(X, X[:2]), family.kernel(X, X[:2]))
    else:
        with pytest.raises(NoOracleError):
            family.kernel_validated(X, X)


def test_learners_still_check_what_they_no_longer_check_each_round():
    from iln.baselines.doubly_stochastic import doubly_stochastic
    from iln.baselines.kernel_ogd import kernel_ogd

    draws = iter([np.zeros((2, 2)), np.array([[0.1, np.nan], [0.0, 0.0]])])
    late_nan = CustomFamily(lambda n, rng: next(draws), lambda X, W: 0.5 * np.tanh(X @ W.T), dim=2)
    X, y = np.full((3, 2), 0.5), np.zeros(3)
    # Round 2's draw holds a NaN: caught when drawn, not evaluated silently afterwards.
    with pytest.raises(ValueError, match="W"):
        doubly_stochastic(X, y, late_nan, k=2, seed=0, gamma0=1.0)
    with pytest.raises(NoOracleError):
        kernel_ogd(X, y, late_nan, B=1.0, eta=1.0)
    with pytest.raises(ValueError, match="X"):
        kernel_ogd(np.full((3, 2), 1.5), y, RandomCoordinate(2), B=1.0, eta=1.0)
