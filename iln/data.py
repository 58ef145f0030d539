r"""Data generators: the Section 6 experiment, benign inputs, and worst-case building blocks.

Everything here produces inputs ``x`` and labels ``y`` in ``[-1, 1]`` (the label set
:math:`\mathcal{Y} = [-1, 1]` of Section 2 in both versions of Livni, Carmon & Globerson,
ICML 2017 / arXiv "Beyond the Kernel Trick") for the online protocol whose loss is ICML
eq. (6) / arXiv eq. (5) and whose regret is ICML eq. (7) / arXiv eq. (6).

Every random generator takes an explicit keyword ``seed`` (an ``int >= 0`` or a
:class:`numpy.random.SeedSequence`) and builds its generator with
:func:`numpy.random.default_rng`: the same seed gives the same arrays.  Every size (``T``,
``D``, ``n_test``, ``n_support``) is an int of at most :data:`iln.arguments.MAX_LENGTH`, the
most float64 entries a numpy array can hold.

The worst-case helpers (:func:`alternating_labels`, :func:`constant_labels`,
:func:`adversarial_label`, :func:`two_point_inputs`) follow docs, Design, principle 5: bounds
that hold "for every sequence" are checked on sequences built to push against them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from iln import arguments, random_streams

__all__ = [
    "LabelledSample",
    "Section6Data",
    "adversarial_label",
    "alternating_labels",
    "constant_labels",
    "gaussian_data",
    "section6_data",
    "two_point_inputs",
    "unit_ball_data",
]

# Dividing by exactly the largest entry would put one coordinate at |x_d| = 1, but the
# paper assumes |psi(w; x)| < 1 strictly (Section 2). A relative margin of 1e-6 keeps
# every |x_d| <= 1 - 1e-6, far above round-off (1e-16) and far below anything that changes
# the experiment (the inputs shrink by a millionth).
_INPUT_MARGIN = 1e-6


@dataclass(frozen=True)
class LabelledSample:
    """Inputs and labels; unpacks as ``X, y = sample``.

    Attributes
    ----------
    X : ndarray of shape (T, D)
        Inputs, float64, read-only.
    y : ndarray of shape (T,)
        Labels in ``[-1, 1]``, float64, read-only.
    """

    X: np.ndarray
    y: np.ndarray

    def __iter__(self) -> Iterator[np.ndarray]:
        return iter((self.X, self.y))


@dataclass(frozen=True)
class Section6Data:
    r"""The synthetic regression data of ICML Section 6 (the Figure 1 experiment).

    With the random-coordinate features :math:`\psi(x; w) = x_w`, ``w`` uniform over the
    ``D`` coordinates, the kernel is :math:`k(x, x') = x \cdot x' / D` and the target
    :math:`x \mapsto a \cdot x` is :math:`\langle f^*, \Phi(x) \rangle` for
    :math:`f^*(w) = D a_w`.

    Attributes
    ----------
    X : ndarray of shape (T, D)
        Training inputs (clipped Gaussians, scaled so that ``0 <= X < 1`` when
        ``scale_inputs`` was true).
    y : ndarray of shape (T,)
        Training labels, ``y = X @ a`` up to round-off.
    X_test : ndarray of shape (n_test, D)
        Test inputs from the same distribution (shape ``(0, D)`` if ``n_test == 0``).
    y_test : ndarray of shape (n_test,)
        Test labels ``X_test @ a``.
    a : ndarray of shape (D,)
        Weight vector after all scalings.
    target_norm : float
        :math:`\|f^*\|_{L_2(\mu)} = \sqrt{D}\,\|a\|_2` for :math:`f^*(w) = D a_w`:
        the smallest ``B`` whose class :math:`\mathcal{H}^B_\mu` (closed ball) contains
        the target on all inputs.
    support : ndarray of shape (n_support,)
        Indices of the training points whose combination defines ``a``.
    target_coef : ndarray of shape (n_support,)
        Representer coefficients: :math:`f^* = \sum_j \mathrm{target\_coef}_j
        \Phi(x_{\mathrm{support}_j})`, i.e. ``a = X[support].T @ target_coef / D``.
    input_scale : float
        The constant ``c`` the raw clipped Gaussians were divided by (1.0 if
        ``scale_inputs`` was false).
    label_scale : float
        The constant the raw labels were divided by so that ``max |y| = 1``.
    D : int
        Input dimension (number of random-coordinate features).
    T : int
        Number of training points.
    """

    X: np.ndarray
    y: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    a: np.ndarray
    target_norm: float
    support: np.ndarray
    target_coef: np.ndarray
    input_scale: float
    label_scale: float
    D: int
    T: int


def _rng(seed) -> np.random.Generator:
    return random_streams.generator(random_streams.as_seed_sequence(seed))


def _check_labels(labels, X: np.ndarray) -> np.ndarray | None:
    """Resolve ``labels`` (None, callable of X, or array) to a checked (T,) array."""
    if labels is None:
        return None
    values = labels(X.copy()) if callable(labels) else labels
    return arguments.labels(values, "labels", X.shape[0])


def _freeze(*arrays: np.ndarray) -> None:
    for array in arrays:
        array.setflags(write=False)


def section6_data(
    T: int,
    D: int,
    *,
    seed,
    n_support: int | None = None,
    n_test: int = 0,
    scale_inputs: bool = True,
) -> Section6Data:
    r"""Generate the synthetic data of the ICML Section 6 experiment (Figure 1).

    Following Section 6 (the arXiv version has no experiment section): inputs are standard
    Gaussians in :math:`\mathbb{R}^D` with negative values clipped to zero ("to make the
    data sparser and more challenging for feature sampling"); a weight vector ``a`` is a
    random sparse linear combination of ``n_support`` training points with standard normal
    coefficients ("in order for the true function to be in the corresponding RKHS"); labels
    are :math:`y_i = a \cdot x_i`. The labels are then divided by their largest absolute
    value over train and test, so that they lie in ``[-1, 1]`` (Section 2) with
    ``max |y| = 1``; ``a`` is divided by the same constant, so ``y = X @ a`` still holds.

    The features are random coordinates, :math:`\psi(x; w) = x_w` with ``w`` uniform over
    the ``D`` coordinates, so the kernel (ICML eq. (2)) is :math:`k(x, x') = x \cdot x'/D`.
    The paper assumes :math:`|\psi| < 1`: with ``scale_inputs`` all inputs are divided by
    :math:`c = \max_{i,d} x_{id} \cdot (1 + 10^{-6})` (the margin keeps the inequality
    strict) and ``a`` is multiplied by ``c``, which leaves the labels unchanged before
    their final scaling.

    Since :math:`\langle f, \Phi(x) \rangle = E_w[f(w) x_w] = \frac1D \sum_w f(w) x_w`
    (ICML eq. (5)), the function :math:`f^*(w) = D a_w` predicts :math:`a \cdot x` and has
    :math:`\|f^*\|^2 = E_w f^*(w)^2 = D \|a\|^2`; this is ``target_norm`` (with ``a``
    after both scalings). The same number is :math:`\sqrt{\gamma^\top K_S \gamma}` for
    the representer coefficients ``gamma = target_coef`` and ``K_S`` the kernel matrix of
    the support points.

    Parameters
    ----------
    T : int
        Number of training points, ``T >= 1``.
    D : int
        Input dimension, ``D >= 1``. The paper works in the regime ``D > T`` (it uses
        ``T = 200``, ``D = 550, ..., 800``) so that ``T`` sampled coordinates cannot reveal
        all of ``x``; this is not required here.
    seed : int or numpy.random.SeedSequence
        Seed, ``int >= 0``.
    n_support : int, default=max(1, T // 10)
        Number of training points combined into ``a``, ``1 <= n_support <= T``.
    n_test : int, default=0
        Number of test points, ``n_test >= 0``.
    scale_inputs : bool, default=True
        Divide the inputs by a common constant so that ``0 <= x_d < 1``.

    Returns
    -------
    Section6Data
        Arrays are float64 and read-only.

    Raises
    ------
    TypeError
        If an integer argument is not an int, ``scale_inputs`` is not a bool, or ``seed``
        has the wrong type.
    ValueError
        If ``T``, ``D`` or ``n_support`` is out of range or ``n_test < 0``.

    Notes
    -----
    If every support point happens to be all zeros after clipping (probability
    :math:`2^{-n_{\mathrm{support}} D}`, non-negligible only for tiny ``D``), the target
    would be identically zero and cannot be scaled to ``max |y| = 1``; the inputs, support
    points and coefficients are then drawn again from the same generator, which keeps the output
    a deterministic function of the seed.

    Examples
    --------
    >>> data = section6_data(20, 50, seed=0, n_test=5)
    >>> data.X.shape, data.X_test.shape, float(max(abs(data.y).max(), abs(data.y_test).max()))
    ((20, 50), (5, 50), 1.0)
    """
    T = arguments.length(T, "T", 1)
    D = arguments.length(D, "D", 1)
    n_test = arguments.length(n_test, "n_test", 0)
    if n_support is None:
        n_support = max(1, T // 10)
    n_support = arguments.length(n_support, "n_support", 1)
    if n_support > T:
        raise ValueError(f"n_support must be an int in [1, T] = [1, {T}], got {n_support}")
    if not isinstance(scale_inputs, bool | np.bool_):
        raise TypeError(f"scale_inputs must be a bool, got {type(scale_inputs).__name__}")
    rng = _rng(seed)

    while True:
        X_all = np.maximum(rng.standard_normal((T + n_test, D)), 0.0)
        support = np.sort(rng.choice(T, size=n_support, replace=False))
        coef = rng.standard_normal(n_support)
        # a = 0 exactly iff every support row is zero: otherwise ||a||^2 = sum_j coef_j
        # (a . x_j) > 0 forces some label to be non-zero.
        if np.any(X_all[support] != 0.0):
            break

    input_scale = 1.0
    if scale_inputs:
        input_scale = float(X_all.max()) * (1.0 + _INPUT_MARGIN)
        X_all = X_all / input_scale
    # a = X_raw[S].T @ coef = input_scale * X[S].T @ coef, so X @ a equals the raw labels.
    a = input_scale * (X_all[support].T @ coef)
    y_all = X_all @ a
    label_scale = float(np.max(np.abs(y_all)))
    # y / max|y| rounds to exactly +-1 at the maximiser and never exceeds 1 in magnitude.
    y_all = y_all / label_scale
    a = a / label_scale
    # f* = sum_j gamma_j Phi(x_j) has f*(w) = sum_j gamma_j x_jw, which must equal D a_w.
    target_coef = coef * (D * input_scale / label_scale)
    target_norm = math.sqrt(D) * float(np.linalg.norm(a))

    X, X_test = X_all[:T].copy(), X_all[T:].copy()
    y, y_test = y_all[:T].copy(), y_all[T:].copy()
    support = support.astype(np.int64)
    _freeze(X, X_test, y, y_test, a, support, target_coef)
    return Section6Data(
        X=X, y=y, X_test=X_test, y_test=y_test, a=a, target_norm=target_norm, support=support,
        target_coef=target_coef, input_scale=input_scale, label_scale=label_scale, D=D, T=T,
    )


def _labelled_sample(rng: np.random.Generator, X: np.ndarray, labels) -> LabelledSample:
    """``X`` with its labels, ``labels`` resolved or else drawn uniform in ``[-1, 1]`` from
    ``rng`` (after ``X``), both frozen."""
    y = _check_labels(labels, X)
    if y is None:
        y = np.asarray(rng.uniform(-1.0, 1.0, size=X.shape[0]))
    _freeze(X, y)
    return LabelledSample(X=X, y=y)


def unit_ball_data(
    T: int,
    D: int,
    *,
    seed,
    radius: str = "uniform",
    labels: Callable[[np.ndarray], np.ndarray] | np.ndarray | None = None,
) -> LabelledSample:
    r"""Inputs in the closed unit ball or on the unit sphere, for the neuron feature families.

    Neuron-type features :math:`\psi(x; w) = \sigma(w \cdot x)` with ``w`` on the sphere
    satisfy the bound :math:`|\psi| < 1` of Section 2 when ``||x|| <= 1`` and
    :math:`|\sigma| < 1` on ``[-1, 1]``.

    Parameters
    ----------
    T : int
        Number of points, ``T >= 1``.
    D : int
        Dimension, ``D >= 1``.
    seed : int or numpy.random.SeedSequence
        Seed, ``int >= 0``.
    radius : {"uniform", "sphere"}, default="uniform"
        ``"uniform"``: uniform in the closed unit ball (direction uniform, radius
        :math:`U^{1/D}`). ``"sphere"``: uniform on the unit sphere (norm 1 to round-off).
    labels : callable or array_like of shape (T,), optional
        ``None`` draws labels uniform in ``[-1, 1]``; a callable is called as
        ``labels(X)`` on a copy of the inputs; an array is used as is. Either must give
        finite values in ``[-1, 1]``. The inputs do not depend on this argument.

    Returns
    -------
    LabelledSample
        ``X`` of shape (T, D) and ``y`` of shape (T,), float64; unpacks as ``X, y``.

    Raises
    ------
    TypeError
        If ``T``, ``D`` or ``seed`` has the wrong type, or labels are not numeric.
    ValueError
        If ``T < 1``, ``D < 1``, ``radius`` is unknown, or labels have the wrong shape or
        leave ``[-1, 1]``.

    Examples
    --------
    >>> X, y = unit_ball_data(100, 3, seed=1, radius="sphere")
    >>> bool(np.allclose(np.linalg.norm(X, axis=1), 1.0)), bool(np.all(np.abs(y) <= 1))
    (True, True)
    """
    T = arguments.length(T, "T", 1)
    D = arguments.length(D, "D", 1)
    if radius not in ("uniform", "sphere"):
        raise ValueError(f"radius must be 'uniform' or 'sphere', got {radius!r}")
    rng = _rng(seed)
    directions = rng.standard_normal((T, D))
    # A normalised Gaussian vector is uniform on the sphere (rotation invariance).
    X = directions / np.linalg.norm(directions, axis=1, keepdims=True)
    if radius == "uniform":
        X = X * rng.uniform(0.0, 1.0, size=(T, 1)) ** (1.0 / D)
    return _labelled_sample(rng, X, labels)


def gaussian_data(
    T: int,
    D: int,
    *,
    seed,
    scale: float = 1.0,
    labels: Callable[[np.ndarray], np.ndarray] | np.ndarray | None = None,
) -> LabelledSample:
    r"""Gaussian inputs :math:`x \sim N(0, \mathrm{scale}^2 I_D)`, for Fourier and stump features.

    Random Fourier features :math:`\cos(w \cdot x + b)` and decision stumps are bounded
    for every input, so the inputs need no scaling.

    Parameters
    ----------
    T, D, seed
        As in :func:`unit_ball_data`.
    scale : float, default=1.0
        Standard deviation of every coordinate, finite and ``> 0``.
    labels : callable or array_like of shape (T,), optional
        As in :func:`unit_ball_data`; by default uniform in ``[-1, 1]``.

    Returns
    -------
    LabelledSample
        As in :func:`unit_ball_data`.

    Raises
    ------
    TypeError
        If an argument has the wrong type.
    ValueError
        If ``T < 1``, ``D < 1``, ``scale <= 0`` or not finite, or labels are invalid.

    Examples
    --------
    >>> X, y = gaussian_data(4, 2, seed=0, scale=2.0)
    >>> X.shape, y.shape
    ((4, 2), (4,))
    """
    T = arguments.length(T, "T", 1)
    D = arguments.length(D, "D", 1)
    scale = arguments.positive_real(scale, "scale")
    rng = _rng(seed)
    X = scale * rng.standard_normal((T, D))
    return _labelled_sample(rng, X, labels)


def alternating_labels(T: int) -> np.ndarray:
    """Labels ``+1, -1, +1, ...``: the extreme labels, flipping every round.

    Paired with :func:`two_point_inputs` (nearly identical inputs) this forces the largest
    possible gradient every round in alternating directions, the sequence a regret bound
    "for every sequence" (ICML eq. (7), arXiv eq. (6)) must survive.

    Parameters
    ----------
    T : int
        Length, ``1 <= T <=`` :data:`iln.arguments.MAX_LENGTH`.

    Returns
    -------
    ndarray of shape (T,)
        float64.

    Examples
    --------
    >>> alternating_labels(4)
    array([ 1., -1.,  1., -1.])
    """
    T = arguments.length(T, "T", 1)
    y = np.ones(T)
    y[1::2] = -1.0
    return y


def constant_labels(T: int, value: float = 1.0) -> np.ndarray:
    """Labels all equal to ``value``: a sequence that lets the learner's weights grow.

    With a constant label the gradient keeps one sign, so the coefficients of Algorithm 1
    accumulate in one direction; this pushes against the norm (shrink) step and the
    ``alpha`` bounds.

    Parameters
    ----------
    T : int
        As in :func:`alternating_labels`.
    value : float, default=1.0
        The label, in ``[-1, 1]``.

    Returns
    -------
    ndarray of shape (T,)
        float64, ``value`` in every entry.

    Examples
    --------
    >>> constant_labels(3, value=-1.0)
    array([-1., -1., -1.])
    """
    T = arguments.length(T, "T", 1)
    value = arguments.finite_real(value, "value")
    if abs(value) > 1.0:
        raise ValueError(f"value must lie in [-1, 1], got {value!r}")
    return np.full(T, value)


def adversarial_label(prediction: float) -> float:
    r"""The label in ``[-1, 1]`` farthest from the learner's prediction.

    An adaptive adversary for the online protocol of Section 2: after the learner commits
    to :math:`f_t`, it reveals :math:`y_t = -\mathrm{sign}(\langle f_t, \Phi(x_t)\rangle)`
    (``+1`` at a zero prediction), which maximises the loss :math:`\ell_t(f_t)` of ICML
    eq. (6) / arXiv eq. (5) over the label set.

    Parameters
    ----------
    prediction : float
        The learner's current prediction, finite.

    Returns
    -------
    float
        ``-1.0`` if ``prediction > 0``, else ``+1.0``.

    Examples
    --------
    >>> adversarial_label(0.3), adversarial_label(-2.0), adversarial_label(0.0)
    (-1.0, 1.0, 1.0)
    """
    prediction = arguments.finite_real(prediction, "prediction")
    return -1.0 if prediction > 0.0 else 1.0


def two_point_inputs(T: int, D: int, *, seed, gap: float = 1e-3) -> np.ndarray:
    r"""Two nearly identical unit vectors, alternating: ``x0, x1, x0, x1, ...``.

    The inputs repeat, so the kernel values :math:`k(x_s, x_t)` are as large as the
    family allows everywhere (for a rotation-invariant kernel on the sphere,
    :math:`k(x_0, x_1) \approx k(x_0, x_0)`): the Gram matrix is nearly rank one and the
    learner's scalar-product estimates all add up along one direction, the hardest case
    for the shrink step of Algorithm 1. Combine with :func:`alternating_labels` for labels
    that contradict each other on almost the same input.

    Parameters
    ----------
    T : int
        Number of rows, ``T >= 1``.
    D : int
        Dimension, ``D >= 2`` (a second direction is needed to separate the points).
    seed : int or numpy.random.SeedSequence
        Seed, ``int >= 0``; it draws the direction of ``x0`` and of the offset.
    gap : float, default=1e-3
        Euclidean distance ``||x0 - x1||``, in ``(0, 2]``.

    Returns
    -------
    ndarray of shape (T, D)
        float64; every row has unit norm to round-off.

    Raises
    ------
    TypeError
        If an argument has the wrong type.
    ValueError
        If ``T < 1``, ``D < 2`` or ``gap`` is outside ``(0, 2]``.

    Examples
    --------
    >>> X = two_point_inputs(4, 3, seed=0, gap=0.1)
    >>> round(float(np.linalg.norm(X[0] - X[1])), 12), bool(np.array_equal(X[0], X[2]))
    (0.1, True)
    """
    T = arguments.length(T, "T", 1)
    D = arguments.length(D, "D", 2)
    gap = arguments.finite_real(gap, "gap")
    if not 0.0 < gap <= 2.0:
        raise ValueError(f"gap must lie in (0, 2], got {gap!r}")
    rng = _rng(seed)
    # Orthonormal pair from a QR of a Gaussian matrix: x0 uniform on the sphere and the
    # offset direction uniform on the great sphere orthogonal to it.
    q, r = np.linalg.qr(rng.standard_normal((D, 2)))
    q = q * np.where(np.diag(r) < 0.0, -1.0, 1.0)
    x0, v = q[:, 0], q[:, 1]
    # Chord length 2 sin(theta / 2) = gap between unit vectors at angle theta.
    theta = 2.0 * math.asin(gap / 2.0)
    x1 = math.cos(theta) * x0 + math.sin(theta) * v
    X = np.empty((T, D))
    X[0::2] = x0
    X[1::2] = x1
    return X
