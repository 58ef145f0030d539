"""Tests for iln.data: the ICML Section 6 generator, benign inputs and worst-case blocks."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from iln.data import (
    LabelledSample,
    Section6Data,
    adversarial_label,
    alternating_labels,
    constant_labels,
    gaussian_data,
    section6_data,
    two_point_inputs,
    unit_ball_data,
)

# ----------------------------------------------------------------------------- Section 6


@pytest.fixture(scope="module")
def s6() -> Section6Data:
    return section6_data(40, 120, seed=2024, n_test=15)


def test_section6_shapes_and_dtypes(s6: Section6Data) -> None:
    assert (s6.T, s6.D) == (40, 120)
    assert s6.X.shape == (40, 120)
    assert s6.y.shape == (40,)
    assert s6.X_test.shape == (15, 120)
    assert s6.y_test.shape == (15,)
    assert s6.a.shape == (120,)
    assert s6.support.shape == s6.target_coef.shape == (4,)  # default max(1, T // 10)
    for array in (s6.X, s6.y, s6.X_test, s6.y_test, s6.a, s6.target_coef):
        assert array.dtype == np.float64
        assert not array.flags.writeable
    assert np.issubdtype(s6.support.dtype, np.integer)
    assert len(set(s6.support.tolist())) == 4
    assert np.all((s6.support >= 0) & (s6.support < 40))
    assert isinstance(s6.target_norm, float)


def test_section6_no_test_set_gives_empty_arrays() -> None:
    data = section6_data(10, 30, seed=0)
    assert data.X_test.shape == (0, 30)
    assert data.y_test.shape == (0,)
    assert float(np.max(np.abs(data.y))) == 1.0


def test_section6_inputs_are_clipped_and_scaled(s6: Section6Data) -> None:
    for X in (s6.X, s6.X_test):
        assert np.all(X >= 0.0)  # negatives clipped to zero
        assert np.all(X < 1.0)  # |psi| < 1 for random-coordinate features
    # The largest entry sits just below 1 by the stated 1e-6 margin (round-off 1e-15).
    top = max(s6.X.max(), s6.X_test.max())
    assert top == pytest.approx(1.0 / (1.0 + 1e-6), rel=1e-14)
    # Clipping a standard Gaussian zeroes half the entries; 6600 entries give a standard
    # error of 0.006, so +-0.05 is an 8-sigma band.
    zeros = np.mean(np.concatenate([s6.X.ravel(), s6.X_test.ravel()]) == 0.0)
    assert abs(zeros - 0.5) < 0.05


def test_section6_labels(s6: Section6Data) -> None:
    y_all = np.concatenate([s6.y, s6.y_test])
    assert float(np.max(np.abs(y_all))) == 1.0  # exactly: y / max|y| at the maximiser
    assert np.all(np.abs(y_all) <= 1.0)
    # y = X a after both scalings: the rescalings only reorder roundings, so the
    # relative discrepancy is a few ulps of the dot product (1e-12 is generous).
    for X, y in ((s6.X, s6.y), (s6.X_test, s6.y_test)):
        np.testing.assert_allclose(X @ s6.a, y, rtol=0, atol=1e-12 * np.max(np.abs(y_all)))


def test_section6_target_norm_direct(s6: Section6Data) -> None:
    # f*(w) = D a_w, ||f*||^2 = E_w f*(w)^2 = (1/D) sum_w (D a_w)^2 = D ||a||^2.
    f_star = s6.D * np.asarray(s6.a)
    direct = math.sqrt(np.mean(f_star**2))
    # Two ways to sum the same squares: 1e-12 relative covers the reordering.
    assert s6.target_norm == pytest.approx(direct, rel=1e-12)
    assert s6.target_norm == pytest.approx(math.sqrt(s6.D) * np.linalg.norm(s6.a), rel=1e-12)
    # <f*, Phi(x)> = (1/D) sum_w f*(w) x_w reproduces the labels.
    np.testing.assert_allclose(s6.X @ f_star / s6.D, s6.y, atol=1e-12)


def test_section6_target_norm_from_kernel(s6: Section6Data) -> None:
    # f* = sum_j gamma_j Phi(x_j) over the support, kernel k(x, x') = x . x' / D.
    X_S = s6.X[s6.support]
    gamma = s6.target_coef
    np.testing.assert_allclose(X_S.T @ gamma / s6.D, s6.a, rtol=1e-12, atol=1e-15)
    K_S = X_S @ X_S.T / s6.D
    rkhs = math.sqrt(gamma @ K_S @ gamma)
    # Quadratic form of a small PSD matrix vs a vector norm: 1e-10 relative is
    # several orders above the round-off of either computation.
    assert s6.target_norm == pytest.approx(rkhs, rel=1e-10)
    # Predictions through the kernel (representer form) equal the labels.
    K_TS = s6.X @ X_S.T / s6.D
    np.testing.assert_allclose(K_TS @ gamma, s6.y, atol=1e-12)


def test_section6_unscaled_inputs_keep_the_clipped_gaussians() -> None:
    scaled = section6_data(12, 30, seed=5, scale_inputs=True)
    raw = section6_data(12, 30, seed=5, scale_inputs=False)
    assert raw.input_scale == 1.0
    # Same draws: the inputs differ only by the common constant c.
    np.testing.assert_allclose(raw.X / scaled.input_scale, scaled.X, rtol=1e-15)
    assert raw.X.max() > 1.0  # standard Gaussians exceed 1 somewhere among 360 draws
    # The scaling leaves the normalised labels unchanged (up to round-off).
    np.testing.assert_allclose(raw.y, scaled.y, atol=1e-12)
    np.testing.assert_allclose(raw.X @ raw.a, raw.y, atol=1e-12)


def test_section6_determinism() -> None:
    a = section6_data(20, 50, seed=7, n_test=5)
    b = section6_data(20, 50, seed=7, n_test=5)
    c = section6_data(20, 50, seed=8, n_test=5)
    for field in ("X", "y", "X_test", "y_test", "a", "support", "target_coef"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert a.target_norm == b.target_norm
    assert not np.array_equal(a.X, c.X)
    ss = np.random.SeedSequence(99)
    np.testing.assert_array_equal(
        section6_data(5, 9, seed=ss).X, section6_data(5, 9, seed=np.random.SeedSequence(99)).X
    )


def test_section6_tiny_dimension_is_never_degenerate() -> None:
    # D = 1, T = 1: the single clipped entry is zero half the time; the generator redraws
    # so that the labels can be scaled to max |y| = 1.
    for seed in range(20):
        data = section6_data(1, 1, seed=seed, n_test=3)
        y_all = np.concatenate([data.y, data.y_test])
        assert float(np.max(np.abs(y_all))) == 1.0


def test_section6_is_frozen(s6: Section6Data) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        s6.T = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    ("kwargs", "exc", "name"),
    [
        ({"T": 0, "D": 5}, ValueError, "T"),
        ({"T": -3, "D": 5}, ValueError, "T"),
        ({"T": 3.0, "D": 5}, TypeError, "T"),
        ({"T": True, "D": 5}, TypeError, "T"),
        ({"T": 3, "D": 0}, ValueError, "D"),
        ({"T": 3, "D": "5"}, TypeError, "D"),
        ({"T": 3, "D": 5, "n_support": 0}, ValueError, "n_support"),
        ({"T": 3, "D": 5, "n_support": 4}, ValueError, "n_support"),
        ({"T": 3, "D": 5, "n_support": 1.5}, TypeError, "n_support"),
        ({"T": 3, "D": 5, "n_test": -1}, ValueError, "n_test"),
        ({"T": 3, "D": 5, "scale_inputs": "yes"}, TypeError, "scale_inputs"),
        ({"T": 3, "D": 5, "seed": -1}, ValueError, "seed"),
        ({"T": 3, "D": 5, "seed": 1.0}, TypeError, "seed"),
        ({"T": 3, "D": 5, "seed": None}, TypeError, "seed"),
    ],
)
def test_section6_rejects_bad_input(kwargs: dict, exc: type, name: str) -> None:
    kwargs = {"seed": 0, **kwargs}
    with pytest.raises(exc, match=rf"\b{name}\b"):
        section6_data(kwargs.pop("T"), kwargs.pop("D"), **kwargs)


def test_section6_seed_is_keyword_only() -> None:
    with pytest.raises(TypeError):
        section6_data(3, 5, 0)  # type: ignore[misc]


# ----------------------------------------------------------------------------- unit ball


def test_unit_ball_uniform() -> None:
    T, D = 4000, 3
    X, y = unit_ball_data(T, D, seed=1)
    assert X.shape == (T, D)
    assert y.shape == (T,)
    assert X.dtype == y.dtype == np.float64
    norms = np.linalg.norm(X, axis=1)
    assert np.all(norms <= 1.0 + 1e-12)  # closed ball, round-off of the normalisation
    # Uniform in the ball: ||x||^D ~ U(0, 1). Hoeffding with T = 4000 and deviation 0.05
    # fails with probability 2 exp(-2 T 0.05^2) ~ 1e-8.
    assert abs(np.mean(norms**D) - 0.5) < 0.05
    assert np.all(np.abs(y) <= 1.0)
    assert abs(np.mean(y)) < 0.05  # uniform on [-1, 1], same Hoeffding bound (range 2: 2e-2)


def test_unit_ball_sphere() -> None:
    X, _ = unit_ball_data(500, 4, seed=2, radius="sphere")
    # Unit norm to round-off of one division (a few ulps).
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1.0, rtol=1e-14)
    # Directions are centred: each coordinate has mean 0 and variance 1/D; 500 draws give
    # a standard error of 0.022, so 0.15 is a 6-sigma band.
    assert np.all(np.abs(X.mean(axis=0)) < 0.15)


def test_unit_ball_labels_argument() -> None:
    X_default, _ = unit_ball_data(6, 2, seed=3)
    X, y = unit_ball_data(6, 2, seed=3, labels=lambda Z: np.tanh(Z[:, 0]))
    np.testing.assert_array_equal(X, X_default)  # inputs do not depend on labels
    np.testing.assert_array_equal(y, np.tanh(X[:, 0]))
    given = np.linspace(-1, 1, 6)
    _, y2 = unit_ball_data(6, 2, seed=3, labels=given)
    np.testing.assert_array_equal(y2, given)
    with pytest.raises(ValueError, match="labels"):
        unit_ball_data(6, 2, seed=3, labels=2 * given)
    with pytest.raises(ValueError, match="labels"):
        unit_ball_data(6, 2, seed=3, labels=given[:5])
    with pytest.raises(ValueError, match="labels"):
        unit_ball_data(6, 2, seed=3, labels=lambda Z: np.full(6, np.nan))


def test_unit_ball_determinism_and_result_type() -> None:
    a = unit_ball_data(10, 3, seed=4)
    b = unit_ball_data(10, 3, seed=4)
    c = unit_ball_data(10, 3, seed=5)
    assert isinstance(a, LabelledSample)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)
    assert not np.array_equal(a.X, c.X)
    assert not a.X.flags.writeable


@pytest.mark.parametrize(
    ("args", "kwargs", "exc", "name"),
    [
        ((0, 3), {}, ValueError, "T"),
        ((2.5, 3), {}, TypeError, "T"),
        ((3, 0), {}, ValueError, "D"),
        ((3, 2), {"radius": "cube"}, ValueError, "radius"),
        ((3, 2), {"radius": 1.0}, ValueError, "radius"),
        ((3, 2), {"seed": -2}, ValueError, "seed"),
    ],
)
def test_unit_ball_rejects_bad_input(args, kwargs, exc, name: str) -> None:
    kwargs = {"seed": 0, **kwargs}
    with pytest.raises(exc, match=rf"\b{name}\b"):
        unit_ball_data(*args, **kwargs)


# ----------------------------------------------------------------------------- Gaussian


def test_gaussian_data() -> None:
    X, y = gaussian_data(3000, 2, seed=6, scale=3.0)
    assert X.shape == (3000, 2)
    assert y.shape == (3000,)
    assert X.dtype == y.dtype == np.float64
    # Sample sd of 6000 normals: relative standard error 1/sqrt(2 * 6000) ~ 0.01, so a
    # 5% band is a 5-sigma check that the scale is applied.
    assert X.std() == pytest.approx(3.0, rel=0.05)
    assert np.all(np.abs(y) <= 1.0)
    X2, y2 = gaussian_data(3000, 2, seed=6, scale=3.0)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    assert not np.array_equal(X, gaussian_data(3000, 2, seed=7, scale=3.0).X)


@pytest.mark.parametrize(
    ("args", "kwargs", "exc", "name"),
    [
        ((0, 3), {}, ValueError, "T"),
        ((3, -1), {}, ValueError, "D"),
        ((3, 2), {"scale": 0.0}, ValueError, "scale"),
        ((3, 2), {"scale": np.inf}, ValueError, "scale"),
        ((3, 2), {"scale": "1"}, TypeError, "scale"),
    ],
)
def test_gaussian_rejects_bad_input(args, kwargs, exc, name: str) -> None:
    kwargs = {"seed": 0, **kwargs}
    with pytest.raises(exc, match=rf"\b{name}\b"):
        gaussian_data(*args, **kwargs)


# ----------------------------------------------------------------------------- worst case


def test_alternating_and_constant_labels() -> None:
    np.testing.assert_array_equal(alternating_labels(5), [1.0, -1.0, 1.0, -1.0, 1.0])
    np.testing.assert_array_equal(constant_labels(3), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(constant_labels(2, value=-0.5), [-0.5, -0.5])
    assert alternating_labels(1).dtype == constant_labels(1).dtype == np.float64
    with pytest.raises(ValueError, match=r"\bT\b"):
        alternating_labels(0)
    with pytest.raises(TypeError, match=r"\bT\b"):
        constant_labels(2.0)
    with pytest.raises(ValueError, match="value"):
        constant_labels(3, value=1.5)
    with pytest.raises(ValueError, match="value"):
        constant_labels(3, value=np.nan)


def test_adversarial_label() -> None:
    assert adversarial_label(0.7) == -1.0
    assert adversarial_label(-1e-300) == 1.0
    assert adversarial_label(0.0) == 1.0
    assert adversarial_label(np.float32(5.0)) == -1.0
    # The returned label maximises the loss over [-1, 1] for every prediction.
    for p in np.linspace(-3, 3, 61):
        worst = max(np.linspace(-1, 1, 201), key=lambda y, p=p: (p - y) ** 2)
        assert (p - adversarial_label(p)) ** 2 >= (p - worst) ** 2
    with pytest.raises(ValueError, match="prediction"):
        adversarial_label(np.nan)
    with pytest.raises(TypeError, match="prediction"):
        adversarial_label("0.5")


def test_two_point_inputs() -> None:
    X = two_point_inputs(7, 5, seed=3, gap=1e-3)
    assert X.shape == (7, 5)
    assert X.dtype == np.float64
    np.testing.assert_array_equal(X[0::2], np.broadcast_to(X[0], (4, 5)))
    np.testing.assert_array_equal(X[1::2], np.broadcast_to(X[1], (3, 5)))
    # Unit rows and the requested distance, to round-off of a QR (a few ulps).
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1.0, rtol=1e-14)
    assert np.linalg.norm(X[0] - X[1]) == pytest.approx(1e-3, rel=1e-9)
    # Nearly identical inputs: Gram matrix of the linear kernel has all entries near 1.
    assert np.min(X @ X.T) > 1 - 1e-6
    np.testing.assert_array_equal(X, two_point_inputs(7, 5, seed=3, gap=1e-3))
    assert not np.array_equal(X, two_point_inputs(7, 5, seed=4, gap=1e-3))


@pytest.mark.parametrize(
    ("args", "kwargs", "exc", "name"),
    [
        ((0, 3), {}, ValueError, "T"),
        ((3, 1), {}, ValueError, "D"),
        ((3, 2), {"gap": 0.0}, ValueError, "gap"),
        ((3, 2), {"gap": 2.5}, ValueError, "gap"),
        ((3, 2), {"seed": "x"}, TypeError, "seed"),
    ],
)
def test_two_point_rejects_bad_input(args, kwargs, exc, name: str) -> None:
    kwargs = {"seed": 0, **kwargs}
    with pytest.raises(exc, match=rf"\b{name}\b"):
        two_point_inputs(*args, **kwargs)
