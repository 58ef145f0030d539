"""Feature families: a sampler of ``w ~ mu`` and the evaluation ``psi(x; w)``.

A feature family is the paper's pair ``(mu, psi)`` (ICML Section 2, eq. 4;
arXiv Section 2, eq. 3): the learner may draw parameters ``w`` from ``mu`` and
evaluate ``psi(x; w)``, whose absolute value the paper assumes below 1.  The
kernel ``k(x, x') = E_w[psi(x; w) psi(x'; w)]`` (ICML eq. 2-3; arXiv eq. 2) is an
*oracle*: only checkers and the comparator may call :meth:`FeatureFamily.kernel`;
no learner does (docs, Design, principle 1; ``tests/test_oracle_isolation.py``).

Parameters ``W`` of ``n`` features are a float64 array of shape ``(n, p)``
whose layout each family documents.  Built-in families also name a *kind*
code and a parameter vector so that :mod:`iln.numba_sampling` can draw the same
distribution inside a compiled loop.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable

import numpy as np
from scipy import special

from iln import arguments

__all__ = [
    "CustomFamily",
    "FeatureFamily",
    "NoOracleError",
    "RandomCoordinate",
    "RandomFourier",
    "RandomReLU",
    "RandomSigmoid",
    "RandomSign",
    "RandomStump",
    "SphereNeuron",
    "check_family",
    "check_features",
]

# Numba kind codes; the single source both the families and the compiled
# sampler read, so a new family cannot silently reuse a code.
KIND_COORDINATE = 0
KIND_FOURIER = 1
KIND_SIGN = 2
KIND_RELU = 3
KIND_SIGMOID = 4
KIND_STUMP = 5


#: floats of repeated rows per block of the generic all-pairs evaluation (32 MB).
_PSI_BLOCK = 1 << 22


class NoOracleError(LookupError):
    """Raised by :meth:`FeatureFamily.kernel` when a family has no oracle kernel."""


def check_features(X, dim: int, name: str = "X") -> np.ndarray:
    """Validate an input matrix: 2-D (a 1-D array is one point), finite, ``dim`` columns.

    Parameters
    ----------
    X : array_like of shape (n_points, dim) or (dim,)
        The inputs.
    dim : int
        The number of columns, ``>= 1``.
    name : str, default="X"
        The argument's name, used in error messages.

    Returns
    -------
    ndarray of shape (n_points, dim)
        A C-contiguous float64 copy-free view where possible.
    """
    dim = arguments.integer(dim, "dim", 1)
    arr = arguments.real_array(X, name, copy=False)
    if arr.ndim == 1:
        arr = arr[None, :]
    return _finite_matrix(arr, name, "n_points", dim, "the family's input dimension")


def _finite_matrix(arr: np.ndarray, name: str, rows: str, columns: int, what: str) -> np.ndarray:
    """``arr`` (checked finite by :func:`iln.arguments.real_array`) as a C-contiguous float64
    matrix of ``columns`` columns (``what``)."""
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array ({rows}, {columns}), got shape {arr.shape}")
    if arr.shape[1] != columns:
        raise ValueError(f"{name} must have {columns} columns ({what}), got {arr.shape[1]}")
    return np.ascontiguousarray(arr, dtype=np.float64)


def check_family(family, name: str = "family") -> FeatureFamily:
    """Validate a feature family: an instance of :class:`FeatureFamily`.

    Parameters
    ----------
    family : FeatureFamily
        The argument.
    name : str, default="family"
        The argument's name, used in error messages.

    Returns
    -------
    FeatureFamily
        ``family`` itself.
    """
    if not isinstance(family, FeatureFamily):
        raise TypeError(f"{name} must be an iln.features.FeatureFamily, got {type(family).__name__}")
    return family


def _check_open_unit(name: str, value) -> float:
    value = arguments.finite_real(value, name)
    if not (0.0 < value < 1.0):
        raise ValueError(f"{name} must lie in (0, 1) so that |psi| < 1, got {value}")
    return value



class FeatureFamily(ABC):
    """A distribution ``mu`` over parameters and a bounded feature ``psi``.

    Subclasses implement :meth:`sample` and :meth:`_psi_rows`; those with an
    oracle implement :meth:`_kernel`.
    """

    #: numba kind code, or ``None`` when the family has no compiled sampler.
    kind: int | None = None
    #: how the oracle is computed: ``"closed form"``, ``"quadrature"`` or ``None``.
    oracle: str | None = None

    def __init__(self, dim: int):
        self.dim = arguments.integer(dim, "dim", 1)

    # -- sampling and evaluation -------------------------------------------------
    @abstractmethod
    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """Draw ``n`` parameters ``w ~ mu``; returns an array of shape ``(n, p)``."""

    @abstractmethod
    def _psi_rows(self, X: np.ndarray, W: np.ndarray) -> np.ndarray:
        """``psi(X[k]; W[k])`` for each k (X and W have the same length)."""

    def psi_indexed(self, X: np.ndarray, idx: np.ndarray, W: np.ndarray) -> np.ndarray:
        """``psi(X[idx[k]]; W[k])`` for each k; families that read one coordinate skip the row gather.

        The inner loop of Algorithm 2 (:mod:`iln.estimator`): nothing is checked, so ``X`` and
        ``W`` must already have passed :meth:`check_inputs` and :meth:`check_parameters`.
        """
        return self._psi_rows(X[idx], W)

    def psi(self, X, W) -> np.ndarray:
        """All pairs: ``out[j, k] = psi(X[j]; W[k])``, shape ``(len(X), len(W))``.

        ``X`` and ``W`` are checked (:meth:`check_inputs`, :meth:`check_parameters`), then
        evaluated by :meth:`psi_validated`.
        """
        return self.psi_validated(self.check_inputs(X), self.check_parameters(W))

    def psi_validated(self, X: np.ndarray, W: np.ndarray) -> np.ndarray:
        """:meth:`psi` without its checks, for a learner's loop over data it checked once.

        ``X`` must have passed :meth:`check_inputs` and ``W`` :meth:`check_parameters` (or come
        from :meth:`sample` and passed it once): an online learner evaluates the same rows
        again every round, and checking them again each time cost Doubly Stochastic Gradient
        Descent more than its evaluations (``tests/benchmarks/test_speed_targets.py``).
        """
        n_x, n_w = X.shape[0], W.shape[0]
        out = np.empty((n_x, n_w))
        # Row blocks keep the repeated rows near _PSI_BLOCK floats, whatever len(X) * len(W) is.
        step = max(1, _PSI_BLOCK // max(1, n_w * self.dim))
        for lo in range(0, n_x, step):
            block = X[lo : lo + step]
            rows = self._psi_rows(np.repeat(block, n_w, axis=0),
                                  np.tile(W, (block.shape[0],) + (1,) * (W.ndim - 1)))
            out[lo : lo + step] = rows.reshape(block.shape[0], n_w)
        return out

    def psi_paired(self, X, W) -> np.ndarray:
        """Row-wise: ``out[k] = psi(X[k]; W[k])``, shape ``(n,)``."""
        X = self.check_inputs(X)
        W = self.check_parameters(W)
        if W.shape[0] != X.shape[0]:
            raise ValueError(f"W must have one row per row of X ({X.shape[0]}), got {W.shape[0]}")
        return self._psi_rows(X, W)

    # -- the oracle ------------------------------------------------------------------
    @property
    def has_kernel(self) -> bool:
        """Whether :meth:`kernel` can be called (an oracle exists)."""
        return self.oracle is not None

    def kernel(self, X, Y=None) -> np.ndarray:
        """Oracle kernel matrix ``k(X[j], Y[l]) = E_w[psi(X[j]; w) psi(Y[l]; w)]``.

        ICML eq. (2)-(3); arXiv eq. (2).  Only checkers and the comparator may
        call it.

        Raises
        ------
        NoOracleError
            When the family has no oracle kernel.
        """
        self._require_oracle()  # before the inputs: without an oracle, no input is right
        X = self.check_inputs(X, "X")
        return self.kernel_validated(X, X if Y is None else self.check_inputs(Y, "Y"))

    def kernel_validated(self, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        """:meth:`kernel` without its input checks (``X`` and ``Y`` passed :meth:`check_inputs`):
        exact-kernel OGD reads one row of the Gram matrix per round over data it checked once.

        Raises
        ------
        NoOracleError
            When the family has no oracle kernel.
        """
        self._require_oracle()
        return self._kernel(X, Y)

    def _require_oracle(self) -> None:
        if not self.has_kernel:
            raise NoOracleError(f"feature family {self!r} has no oracle kernel")

    def _kernel(self, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        raise NoOracleError(f"feature family {self!r} has no oracle kernel")

    # -- the compiled path -------------------------------------------------------------
    def numba_params(self) -> np.ndarray:
        """Scalar parameters handed to the compiled sampler (see :mod:`iln.numba_sampling`)."""
        return np.zeros(1)

    # -- inputs ----------------------------------------------------------------------------
    def check_inputs(self, X, name: str = "X") -> np.ndarray:
        """Validate inputs for this family; subclasses add their domain (e.g. the unit ball)."""
        return check_features(X, self.dim, name)

    @property
    def param_width(self) -> int | None:
        """Columns of one parameter row ``W[k]`` in the family's layout; ``None`` when the family
        fixes none (a :class:`CustomFamily` passes ``W`` on to the user's ``psi``)."""
        return None

    def check_parameters(self, W, name: str = "W") -> np.ndarray:
        """Validate parameters for :meth:`psi`: real numbers and, when the family fixes its
        layout (``param_width``), a finite ``(n_features, param_width)`` float64 matrix;
        subclasses add their range (e.g. coordinates in ``0..D-1``)."""
        W = arguments.real_array(W, name, copy=False)
        if self.param_width is None:
            return W.astype(np.float64, copy=False)
        return _finite_matrix(W, name, "n_features", self.param_width, "the family's parameter layout")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(dim={self.dim})"


# ---------------------------------------------------------------------------------------
# Families that look at one coordinate: W[:, 0] is the coordinate d (stored as a float).
# ---------------------------------------------------------------------------------------
class _CoordinateFamily(FeatureFamily):
    """Families whose feature reads one coordinate ``x_d`` (``W[:, 0]`` is d)."""

    param_width = 1

    @abstractmethod
    def _of_coordinate(self, values: np.ndarray, W: np.ndarray) -> np.ndarray:
        """The feature from ``values[..., k] = x_d`` with d = ``W[k, 0]`` (broadcast over rows)."""

    def _psi_rows(self, X, W):
        return self.psi_indexed(X, np.arange(X.shape[0]), W)

    def psi_indexed(self, X, idx, W):
        return self._of_coordinate(X[idx, W[:, 0].astype(np.intp)], W)

    def psi_validated(self, X, W):
        # All pairs by one column gather: no row of X or W is repeated per pair.  np.take keeps
        # the result C-ordered (X[:, cols] is Fortran-ordered), so the products a learner takes
        # of it sum in the order they always did.
        return self._of_coordinate(np.take(X, W[:, 0].astype(np.intp), axis=1), W)

    def check_parameters(self, W, name="W"):
        W = super().check_parameters(W, name)
        d = W[:, 0]
        # Read as an index, a fractional or out-of-range coordinate would pick a wrong column.
        if np.any((d != np.floor(d)) | (d < 0) | (d >= self.dim)):
            raise ValueError(f"{name}[:, 0] must hold coordinates, integers in [0, {self.dim - 1}]")
        return W


class RandomCoordinate(_CoordinateFamily):
    """``w`` uniform over the D coordinates, ``psi(x; w) = x_w`` (ICML Section 6).

    Kernel: ``k(x, x') = x . x' / D``.  Inputs must satisfy ``|x_d| < 1``.
    Parameters: ``W[:, 0]`` is the coordinate index.
    """

    kind = KIND_COORDINATE
    oracle = "closed form"

    def sample(self, n, rng):
        """Draw ``n`` coordinates uniform on ``0..D-1``, shape ``(n, 1)``."""
        n = arguments.integer(n, "n", 0)
        return rng.integers(0, self.dim, size=n).astype(np.float64)[:, None]

    def _of_coordinate(self, values, W):
        return values

    def _kernel(self, X, Y):
        return X @ Y.T / self.dim

    def check_inputs(self, X, name="X"):
        """Validate inputs: finite, with every coordinate ``|x_d| < 1`` (so that ``|psi| < 1``)."""
        X = super().check_inputs(X, name)
        if X.size and np.max(np.abs(X)) >= 1.0:
            raise ValueError(
                f"{name} must satisfy |x_d| < 1 for random-coordinate features "
                f"(psi(x; w) = x_w and the paper assumes |psi| < 1); max |x_d| = {np.max(np.abs(X)):.6g}"
            )
        return X


class RandomStump(_CoordinateFamily):
    """Random decision stumps ``psi(x; (d, t)) = s * sign(x_d - t)``.

    ``d`` uniform over the D coordinates and ``t ~ N(0, 1)``: the features of
    Rahimi & Recht, *Weighted Sums of Random Kitchen Sinks* (RKS, Section 4),
    scaled by ``s < 1`` so that ``|psi| < 1``.

    Kernel: ``E[sign(a - t) sign(b - t)] = 1 - 2 |Phi_N(a) - Phi_N(b)|`` with
    ``Phi_N`` the standard normal distribution function (the two signs differ
    exactly when ``t`` falls between ``a`` and ``b``), so
    ``k(x, x') = s^2 (1 - (2/D) sum_d |Phi_N(x_d) - Phi_N(x'_d)|)``.
    Parameters: ``W[:, 0]`` coordinate, ``W[:, 1]`` threshold.
    """

    kind = KIND_STUMP
    oracle = "closed form"
    param_width = 2

    def __init__(self, dim, scale: float = 0.999):
        super().__init__(dim)
        self.scale = _check_open_unit("scale", scale)

    def sample(self, n, rng):
        """Draw ``n`` stumps: a coordinate uniform on ``0..D-1`` and a standard normal threshold."""
        n = arguments.integer(n, "n", 0)
        d = rng.integers(0, self.dim, size=n).astype(np.float64)
        t = rng.standard_normal(n)
        return np.column_stack([d, t])

    def _of_coordinate(self, values, W):
        return self.scale * np.sign(values - W[:, 1])

    def _kernel(self, X, Y):
        U, V = special.ndtr(X), special.ndtr(Y)
        out = np.empty((X.shape[0], Y.shape[0]))
        # Chunked so that the (rows, n_y, D) broadcast stays near 32 MB.
        step = max(1, 4_000_000 // max(1, Y.shape[0] * self.dim))
        for lo in range(0, X.shape[0], step):
            diff = np.abs(U[lo : lo + step, None, :] - V[None, :, :]).mean(axis=2)
            out[lo : lo + step] = 1.0 - 2.0 * diff
        return self.scale**2 * out

    def numba_params(self):
        """The compiled sampler's parameter: the scale ``s`` of ``psi = s sign(x_d - t)``."""
        return np.array([self.scale])

    def __repr__(self):
        return f"RandomStump(dim={self.dim}, scale={self.scale})"


# ---------------------------------------------------------------------------------------
# Families of a random projection: W[:, :D] is the direction, W[:, D] an offset.
# ---------------------------------------------------------------------------------------
class _ProjectionFamily(FeatureFamily):
    """``psi(x; w) = sigma(w . x + b)`` for a random direction ``w`` and offset ``b``."""

    @abstractmethod
    def _activation(self, z: np.ndarray) -> np.ndarray:
        """The map ``sigma`` applied to the projection ``w . x + b``."""

    def _psi_rows(self, X, W):
        z = np.einsum("kd,kd->k", X, W[:, : self.dim]) + W[:, self.dim]
        return self._activation(z)

    @property
    def param_width(self) -> int:
        return self.dim + 1

    def psi_validated(self, X, W):
        # All pairs share one matrix product, far cheaper than repeating rows.
        return self._activation(X @ W[:, : self.dim].T + W[:, self.dim])


class RandomFourier(_ProjectionFamily):
    """Random Fourier features ``psi(x; (w, b)) = cos(w . x + b)``.

    ``w ~ N(0, 2 gamma I)``, ``b ~ U[0, 2 pi)`` (Rahimi & Recht 2007 without the
    ``sqrt(2)`` factor, which would break ``|psi| < 1``).  Kernel:
    ``E[cos(w.x + b) cos(w.x' + b)] = E[cos(w.(x - x'))] / 2
    = exp(-gamma ||x - x'||^2) / 2``.  ``|psi| = 1`` only on a null set.
    """

    kind = KIND_FOURIER
    oracle = "closed form"

    def __init__(self, dim, gamma: float = 1.0):
        super().__init__(dim)
        self.gamma = arguments.positive_real(gamma, "gamma")

    def sample(self, n, rng):
        """Draw ``n`` rows ``(w, b)``: ``w ~ N(0, 2 gamma I)`` and ``b`` uniform on ``[0, 2 pi)``."""
        n = arguments.integer(n, "n", 0)
        w = rng.standard_normal((n, self.dim)) * math.sqrt(2.0 * self.gamma)
        b = rng.uniform(0.0, 2.0 * math.pi, size=n)
        return np.column_stack([w, b])

    def _activation(self, z):
        return np.cos(z)

    def _kernel(self, X, Y):
        sq = (X**2).sum(1)[:, None] + (Y**2).sum(1)[None, :] - 2.0 * X @ Y.T
        return 0.5 * np.exp(-self.gamma * np.maximum(sq, 0.0))

    def numba_params(self):
        """The compiled sampler's parameter: the kernel width ``gamma``."""
        return np.array([self.gamma])

    def __repr__(self):
        return f"RandomFourier(dim={self.dim}, gamma={self.gamma})"


def _norms_and_directions(X: np.ndarray):
    """Row norms and unit rows (zero rows stay zero), scaled first so that squares of
    tiny or huge entries neither underflow nor overflow: a row of 1e-210 still has a
    direction, which ``sign(w . x)`` sees."""
    scale = np.max(np.abs(X), axis=1, initial=0.0)
    safe = np.where(scale > 0, scale, 1.0)[:, None]
    inner = np.linalg.norm(X / safe, axis=1)
    U = np.divide(X / safe, inner[:, None], out=np.zeros_like(X), where=inner[:, None] > 0)
    return scale * inner, U


def _angles(X: np.ndarray, Y: np.ndarray):
    """Norms of X and Y rows and the angle between each pair (0 where a norm is 0).

    ``theta = 2 atan2(||u - v||, ||u + v||)`` for the unit vectors u, v: unlike
    ``arccos(u . v)``, which loses half the digits near 0 and pi, it is accurate
    at every angle.
    """
    nx, U = _norms_and_directions(X)
    ny, V = _norms_and_directions(Y)
    theta = np.empty((X.shape[0], Y.shape[0]))
    step = max(1, 4_000_000 // max(1, Y.shape[0] * X.shape[1]))
    for lo in range(0, X.shape[0], step):
        u = U[lo : lo + step, None, :]
        theta[lo : lo + step] = 2.0 * np.arctan2(
            np.linalg.norm(u - V[None], axis=2), np.linalg.norm(u + V[None], axis=2)
        )
    return nx, ny, theta


class RandomSign(_ProjectionFamily):
    """Sign of a random projection, ``psi(x; w) = s * sign(w . x)``, ``s < 1``.

    ``w ~ N(0, I)`` (only its direction matters).  With ``theta`` the angle
    between ``x`` and ``x'``, the two signs differ with probability
    ``theta / pi``, hence ``E[sign(w.x) sign(w.x')] = 1 - 2 theta / pi`` and
    ``k(x, x') = s^2 (1 - 2 theta / pi)``.  In the arc-cosine kernel of degree 0
    this is ``s^2 (2 k_0 - 1)`` with Cho & Saul's normalisation
    ``k_0 = 1 - theta / pi``, or ``s^2 (4 k_0' - 1)`` with the raw expectation
    of Heaviside steps ``k_0' = (pi - theta) / (2 pi)``.  ``k = 0`` when
    ``x = 0`` or ``x' = 0`` (``sign(0) = 0``).
    """

    kind = KIND_SIGN
    oracle = "closed form"

    def __init__(self, dim, scale: float = 0.999):
        super().__init__(dim)
        self.scale = _check_open_unit("scale", scale)

    def sample(self, n, rng):
        """Draw ``n`` rows ``(w, 0)`` with ``w ~ N(0, I)`` (the sign ignores ``w``'s norm)."""
        n = arguments.integer(n, "n", 0)
        return np.column_stack([rng.standard_normal((n, self.dim)), np.zeros(n)])

    def _activation(self, z):
        return self.scale * np.sign(z)

    def _kernel(self, X, Y):
        nx, ny, theta = _angles(X, Y)
        k = self.scale**2 * (1.0 - 2.0 * theta / math.pi)
        # Not outer(nx, ny) > 0: two norms of 1e-200 are not zero, but their product is.
        return np.where((nx[:, None] > 0) & (ny[None, :] > 0), k, 0.0)

    def numba_params(self):
        """The compiled sampler's parameter: the scale ``s`` of ``psi = s sign(w . x)``."""
        return np.array([self.scale])

    def __repr__(self):
        return f"RandomSign(dim={self.dim}, scale={self.scale})"


class SphereNeuron(_ProjectionFamily):
    """A neuron ``psi(x; w) = sigma(w . x)`` with ``w`` uniform on the unit sphere.

    Inputs lie in the closed unit ball, so ``|w . x| <= 1``; ``sigma`` must map
    ``[-1, 1]`` into ``(-1, 1)``.  This is the paper's motivating case (ICML
    Section 1).  The oracle is computed by quadrature: for ``w`` uniform on
    ``S^{D-1}`` (``D >= 3``) the projections ``(a, b)`` of ``w`` on an
    orthonormal basis of ``span(x, x')`` have density proportional to
    ``(1 - a^2 - b^2)^{(D-4)/2}`` on the unit disc; in polar coordinates with
    ``s = r^2`` this is Gauss-Jacobi in ``s`` (weight ``(1 - s)^{(D-4)/2}``)
    times a uniform angle, integrated by the trapezoid rule (exact to
    round-off for smooth periodic integrands).  ``D = 1`` (``w = +-1``) and
    ``D = 2`` (``w`` uniform on the circle) are handled directly.
    """

    oracle = "quadrature"

    def __init__(self, dim, activation: Callable[[np.ndarray], np.ndarray], *,
                 n_radial: int = 48, n_angular: int = 64):
        super().__init__(dim)
        if not callable(activation):
            raise TypeError("activation must be callable")
        self.activation = activation
        self.n_radial = int(n_radial)
        self.n_angular = int(n_angular)

    def sample(self, n, rng):
        """Draw ``n`` rows ``(w, 0)`` with ``w`` uniform on the unit sphere."""
        n = arguments.integer(n, "n", 0)
        g = rng.standard_normal((n, self.dim))
        norms = np.linalg.norm(g, axis=1, keepdims=True)
        return np.column_stack([g / norms, np.zeros(n)])

    def _activation(self, z):
        return self.activation(z)

    def check_inputs(self, X, name="X"):
        """Validate inputs: finite, in the closed unit ball (so that ``|w . x| <= 1``)."""
        X = super().check_inputs(X, name)
        # The tolerance admits points normalised onto the sphere in floating point.
        if X.size and np.max(np.linalg.norm(X, axis=1)) > 1.0 + 1e-12:
            raise ValueError(
                f"{name} must lie in the closed unit ball for neuron features "
                f"(so that |w . x| <= 1); max ||x|| = {np.max(np.linalg.norm(X, axis=1)):.6g}"
            )
        return X

    def _quadrature_nodes(self):
        """Nodes (a, b) on the disc and their weights for E over (w.e1, w.e2)."""
        phi = 2.0 * math.pi * np.arange(self.n_angular) / self.n_angular
        if self.dim == 2:
            return np.cos(phi), np.sin(phi), np.full(self.n_angular, 1.0 / self.n_angular)
        u, wu = special.roots_jacobi(self.n_radial, (self.dim - 4) / 2.0, 0.0)
        r = np.sqrt((u + 1.0) / 2.0)
        wu = wu / wu.sum()
        a = (r[:, None] * np.cos(phi)[None, :]).ravel()
        b = (r[:, None] * np.sin(phi)[None, :]).ravel()
        w = (wu[:, None] * np.full(self.n_angular, 1.0 / self.n_angular)[None, :]).ravel()
        return a, b, w

    def _kernel(self, X, Y):
        nx, ny, theta = _angles(X, Y)
        sig = self.activation
        if self.dim == 1:
            # w = +1 or -1 with probability 1/2 each.
            return 0.5 * (np.outer(sig(X[:, 0]), sig(Y[:, 0])) + np.outer(sig(-X[:, 0]), sig(-Y[:, 0])))
        a, b, w = self._quadrature_nodes()
        out = np.empty(theta.shape)
        for j in range(X.shape[0]):
            left = sig(nx[j] * a) * w  # sigma(w . x) with e1 along x
            proj = ny[:, None] * (np.cos(theta[j])[:, None] * a + np.sin(theta[j])[:, None] * b)
            out[j] = sig(proj) @ left
        return out


class RandomReLU(SphereNeuron):
    """ReLU neuron ``psi(x; w) = max(0, w . x)``, ``w`` uniform on the unit sphere.

    Kernel in closed form (arc-cosine kernel of degree 1, Cho & Saul 2009):
    for Gaussian ``g ~ N(0, I)``,
    ``E[relu(g.x) relu(g.x')] = ||x|| ||x'|| (sin theta + (pi - theta) cos theta) / (2 pi)``;
    ``g = ||g|| w`` with ``||g||`` independent of ``w`` and ``E||g||^2 = D``,
    so ``k(x, x') = ||x|| ||x'|| (sin theta + (pi - theta) cos theta) / (2 pi D)``.
    """

    kind = KIND_RELU
    oracle = "closed form"

    def __init__(self, dim):
        super().__init__(dim, _relu)

    def _kernel(self, X, Y):
        nx, ny, theta = _angles(X, Y)
        j1 = np.sin(theta) + (math.pi - theta) * np.cos(theta)
        return np.outer(nx, ny) * j1 / (2.0 * math.pi * self.dim)

    def quadrature_kernel(self, X, Y=None) -> np.ndarray:
        """The same kernel by the generic quadrature (a cross-check of the closed form)."""
        X = self.check_inputs(X, "X")
        Y = X if Y is None else self.check_inputs(Y, "Y")
        return SphereNeuron._kernel(self, X, Y)

    def __repr__(self):
        return f"RandomReLU(dim={self.dim})"


class RandomSigmoid(SphereNeuron):
    """Logistic neuron ``psi(x; w) = 1 / (1 + exp(-g w . x))``, ``w`` uniform on the sphere.

    No closed-form kernel is known for the logistic function under this
    ``mu``; the oracle is the quadrature of :class:`SphereNeuron`.
    """

    kind = KIND_SIGMOID

    def __init__(self, dim, gain: float = 1.0):
        self.gain = arguments.positive_real(gain, "gain")
        super().__init__(dim, self._logistic)

    def _logistic(self, z):
        return special.expit(self.gain * z)

    def numba_params(self):
        """The compiled sampler's parameter: the sigmoid's ``gain``."""
        return np.array([self.gain])

    def __repr__(self):
        return f"RandomSigmoid(dim={self.dim}, gain={self.gain})"


def _relu(z):
    return np.maximum(z, 0.0)


# ---------------------------------------------------------------------------------------
# A family the user supplies.
# ---------------------------------------------------------------------------------------
class CustomFamily(FeatureFamily):
    """A family given by a sampler and ``psi``; no oracle, no compiled path.

    Parameters
    ----------
    sampler : callable ``(n, rng) -> W``
        Draws ``n`` parameters; ``W`` has ``n`` rows.
    psi : callable ``(X, W) -> array of shape (len(X), len(W))``
        Evaluates every pair.  Values with ``|psi| >= 1`` raise ``ValueError``:
        the paper's bounds assume ``|psi| < 1`` (ICML and arXiv Section 2).
    dim : int
        Input dimension.
    name : str, optional
        Shown in messages and reports.
    psi_paired : callable ``(X, W) -> array of shape (n,)``, optional
        Row-wise evaluation; without it each row is evaluated on its own.
    """

    def __init__(self, sampler, psi, dim, *, name: str = "custom", psi_paired=None):
        super().__init__(dim)
        if not callable(sampler):
            raise TypeError("sampler must be callable (n, rng) -> W")
        if not callable(psi):
            raise TypeError("psi must be callable (X, W) -> array (len(X), len(W))")
        if psi_paired is not None and not callable(psi_paired):
            raise TypeError("psi_paired must be callable (X, W) -> array (n,)")
        self._sampler, self._psi, self._psi_paired_fn, self.name = sampler, psi, psi_paired, name

    def sample(self, n, rng):
        """Draw ``n`` parameters with the user's sampler, checked to return ``n`` rows."""
        n = arguments.integer(n, "n", 0)
        W = np.asarray(self._sampler(n, rng), dtype=np.float64)
        if W.ndim == 1:
            W = W[:, None]
        if W.shape[0] != n:
            raise ValueError(f"sampler must return {n} rows, got shape {W.shape}")
        return W

    def _bounded(self, values, shape, what):
        values = np.asarray(values, dtype=np.float64)
        if values.shape != shape:
            raise ValueError(f"{what} of family {self.name!r} must return shape {shape}, got {values.shape}")
        if not np.all(np.isfinite(values)):
            raise ValueError(f"{what} of family {self.name!r} returned a non-finite value")
        if values.size and np.max(np.abs(values)) >= 1.0:
            raise ValueError(
                f"{what} of family {self.name!r} returned |psi| = {np.max(np.abs(values)):.6g} >= 1; "
                "the paper assumes |psi(x; w)| < 1"
            )
        return values

    def psi_validated(self, X, W):
        """The user's ``psi`` on all pairs, its values checked finite and below 1 in absolute value."""
        # The user's values are checked even here: they are outputs, not inputs checked once.
        return self._bounded(self._psi(X, W), (X.shape[0], W.shape[0]), "psi")

    def _psi_rows(self, X, W):
        if self._psi_paired_fn is not None:
            return self._bounded(self._psi_paired_fn(X, W), (X.shape[0],), "psi_paired")
        return np.array([self.psi(X[k : k + 1], W[k : k + 1])[0, 0] for k in range(X.shape[0])])

    def __repr__(self):
        return f"CustomFamily(name={self.name!r}, dim={self.dim})"
