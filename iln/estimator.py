"""Algorithm 2, EST_SCALAR_PROD: an unbiased estimate of ``<f, Phi(x)>``.

For ``f = sum_i alpha_i Phi(x_i)`` the algorithm draws m pairs ``(i, w)`` with
``i ~ q(i) = |alpha_i| / ||alpha||_1`` and ``w ~ mu``, and returns
``E = ||alpha||_1 / m * sum_k sgn(alpha_i) psi(x_i; w) psi(x; w)``
(ICML Algorithm 2 and eq. 11; arXiv Algorithm 2 and eq. 11).  Each term has
mean ``<f, Phi(x)> / ||alpha||_1``, hence E is unbiased (ICML Lemma 4;
arXiv Lemma 3).

Three implementations with the same distribution:

``reference``
    the pseudo-code line by line, one Python iteration per sample: the spec.
``numpy``
    the same draws, vectorised over the m samples in chunks.
``fast``
    draws the number of samples ``c_i`` that land on each ``i`` at once
    (``(c_1, ..., c_n) ~ Multinomial(m, q)``, the law of the counts of m
    independent draws from q), then, in compiled code, ``c_i`` parameters for
    each ``i``.  The sum of the m terms does not depend on their order, so its
    law equals the reference's.  Families without a compiled sampler (a
    :class:`~iln.features.CustomFamily`) fall back to ``numpy``.
"""

from __future__ import annotations

import operator

import numpy as np

from iln import arguments, numba_sampling, random_streams, seed_sequence
from iln.features import check_family, check_features

__all__ = [
    "MAX_M",
    "METHODS",
    "check_inputs",
    "check_m",
    "draw_floor",
    "estimate_at_points",
    "estimate_scalar_product",
    "estimate_scalar_product_numpy",
    "estimate_scalar_product_reference",
]

#: the implementations, by name.
METHODS = ("fast", "numpy", "reference")

#: The most samples one call draws.  The fast version's multinomial counts are int64 (numpy
#: refuses more than 2**63 - 1 with an ``OverflowError``) and the compiled kernels round a
#: count up to whole chunks in int64; 2**62 leaves that rounding room.
MAX_M = 2**62


def check_m(m) -> int:
    """The number of samples ``m`` of Algorithm 2, checked: an int in ``1..MAX_M``."""
    if not arguments.is_integer(m):
        raise TypeError(f"m must be a positive int (the number of samples), got {type(m).__name__}")
    count = operator.index(m)
    if count < 1:
        raise ValueError(f"m must be >= 1 (the number of samples), got {m}")
    if count > MAX_M:
        raise ValueError(f"m must be at most MAX_M = 2**62 (Algorithm 2 counts its samples in "
                         f"int64), got {m}")
    return int(m)


def check_inputs(alpha, X, x, family):
    """The inputs of Algorithm 2 checked, as :func:`estimate_validated` takes them.

    Parameters
    ----------
    alpha, X, x, family
        As in :func:`estimate_scalar_product_reference`.

    Returns
    -------
    tuple
        ``(alpha, X, x, family)``: ``alpha`` a contiguous float64 vector, ``X`` float64 with
        one row per entry of ``alpha`` in the family's domain, ``x`` one float64 point there.
        A caller that estimates at the same inputs many times (a Monte Carlo check of ICML
        Lemma 4 / arXiv Lemma 3) checks them once.

    Raises
    ------
    TypeError, ValueError
        An input that is not of its kind or shape, naming it.
    """
    family = check_family(family)
    alpha, X = _check_support(alpha, X, family)
    x_arr = np.asarray(x)
    if x_arr.ndim != 1:
        raise ValueError(f"x must be one point, a 1-D array of length {family.dim}, got shape {x_arr.shape}")
    x = family.check_inputs(x_arr, "x")[0]
    return alpha, X, x, family


def _check_support(alpha, X, family):
    """``alpha`` as a contiguous float64 vector and ``X``, one row per entry, in ``family``'s domain."""
    alpha = np.ascontiguousarray(arguments.real_array(alpha, "alpha", copy=False))
    if alpha.ndim != 1:
        raise ValueError(f"alpha must be 1-D, got shape {alpha.shape}")
    X = family.check_inputs(X, "X") if len(alpha) else check_features(np.zeros((0, family.dim)), family.dim)
    if X.shape[0] != alpha.shape[0]:
        raise ValueError(f"X must have one row per entry of alpha ({alpha.shape[0]}), got {X.shape[0]}")
    return alpha, X


def _validate(alpha, X, x, m, family):
    """Input validation of Algorithm 2, done once at the public boundary."""
    alpha, X, x, family = check_inputs(alpha, X, x, family)
    return alpha, X, x, check_m(m), family


def estimate_scalar_product_reference(alpha, X, x, m, family, *, seed) -> float:
    """EST_SCALAR_PROD transcribed line by line (ICML Algorithm 2; arXiv Algorithm 2).

    Parameters
    ----------
    alpha : array of shape (n,)
        Coefficients of ``f = sum_i alpha_i Phi(x_i)``.
    X : array of shape (n, D)
        The points ``x_1, ..., x_n``.
    x : array of shape (D,)
        The point at which ``<f, Phi(x)>`` is estimated.
    m : int
        Number of samples.
    family : FeatureFamily
        The pair ``(mu, psi)``.
    seed : int or numpy.random.SeedSequence
        Seed of every draw.

    Returns
    -------
    float
        The estimate E.
    """
    return estimate_scalar_product(alpha, X, x, m, family, seed=seed, method="reference")


def _index_distribution(alpha: np.ndarray) -> tuple[float, np.ndarray]:
    """``||alpha||_1`` and the law ``q_i = |alpha_i| / ||alpha||_1`` Algorithm 2 draws its index
    ``i`` from (ICML and arXiv Algorithm 2); ``alpha`` must not be 0."""
    norm1 = np.abs(alpha).sum()
    return norm1, np.abs(alpha) / norm1


def _reference(alpha, X, x, m, family, seed):
    rng = random_streams.generator(seed)
    # "if alpha = 0 then Set E = 0": q is undefined there (ICML only; arXiv omits the branch).
    if not np.any(alpha):
        return 0.0
    norm1, q = _index_distribution(alpha)
    # i ~ q by inversion of q's distribution function, built once: exactly what
    # ``rng.choice(len(alpha), p=q)`` draws from the same stream (one ``rng.random()`` per
    # sample, searched on the normalised cumulative sum), without re-validating q m times.
    cdf = q.cumsum()
    cdf /= cdf[-1]
    terms = np.empty(m)
    for k in range(m):
        i = int(cdf.searchsorted(rng.random(), side="right"))
        w = family.check_parameters(family.sample(1, rng))
        # psi(x_i; w) and psi(x; w) with the same w, in one call of the family's psi.  X and x
        # were checked once at the public boundary (_validate); checking the two rows again
        # for every sample cost this loop a fifth of its time.
        both = family.psi_validated(np.stack([X[i], x]), w)
        terms[k] = np.sign(alpha[i]) * both[0, 0] * both[1, 0]
    return float(norm1 / m * terms.sum())


def estimate_scalar_product_numpy(alpha, X, x, m, family, *, seed) -> float:
    """EST_SCALAR_PROD vectorised with numpy over chunks of samples.

    Same parameters and law as :func:`estimate_scalar_product_reference`.
    """
    return estimate_scalar_product(alpha, X, x, m, family, seed=seed, method="numpy")


def _numpy(alpha, X, x, m, family, seed):
    rng = random_streams.generator(seed)
    if not np.any(alpha):
        return 0.0
    norm1, q = _index_distribution(alpha)
    signs = np.sign(alpha)
    x_row = x[None, :]
    # Chunks of about 2^22 floats: projection families gather a (chunk, D) block.
    chunk = max(1, (1 << 22) // max(1, family.dim))
    total = 0.0
    for lo in range(0, m, chunk):
        n = min(chunk, m - lo)
        idx = rng.choice(len(alpha), size=n, p=q)
        W = family.sample(n, rng)
        at_support = family.psi_indexed(X, idx, W)
        at_x = family.psi_indexed(x_row, np.zeros(n, dtype=np.intp), W)
        total += float(np.dot(signs[idx] * at_support, at_x))
    return float(norm1 / m * total)


def estimate_scalar_product(alpha, X, x, m, family, *, seed, method: str = "fast") -> float:
    """EST_SCALAR_PROD (ICML Algorithm 2; arXiv Algorithm 2), by default compiled.

    Parameters
    ----------
    alpha, X, x, m, family, seed
        As in :func:`estimate_scalar_product_reference`.
    method : {"fast", "numpy", "reference"}, default="fast"
        Which implementation; all three have the same law.

    Returns
    -------
    float
        The estimate E, unbiased for ``<f, Phi(x)> = sum_i alpha_i k(x_i, x)``.

    Examples
    --------
    >>> import numpy as np
    >>> from iln.features import RandomCoordinate
    >>> fam = RandomCoordinate(3)
    >>> X = np.array([[0.5, 0.0, 0.0], [0.0, 0.5, 0.5]])
    >>> E = estimate_scalar_product([1.0, -2.0], X, np.array([0.5, 0.5, 0.0]), 10_000, fam, seed=0)
    >>> exact = (0.25 - 2 * 0.25) / 3
    >>> abs(E - exact) < 0.02  # sd of E is below 2.0 * 0.25 / sqrt(10_000) = 0.005
    True
    """
    alpha, X, x, m, family = _validate(alpha, X, x, m, family)
    return estimate_validated(alpha, X, x, m, family, random_streams.as_seed_sequence(seed), method)


def _support_rows(alpha, X):
    """The indices of the rows of ``X`` Algorithm 2 can draw (``alpha_i != 0``) and how to read
    them: a run of rows, as Algorithm 1's past usually is, as a slice (a view: no copy of t
    rows per call), any other support by index (no rows for ``alpha = 0``)."""
    support = np.flatnonzero(alpha)
    if support.size == 0:
        return support, None
    if support[-1] >= X.shape[0]:
        # The compiled kernel does not check its bounds: a short X would be read past its end.
        raise ValueError(f"X must have a row for every coefficient of alpha ({alpha.shape[0]}), got {X.shape[0]}")
    return support, slice(support[0], support[-1] + 1) if support[-1] - support[0] + 1 == support.size else support


def _fast(alpha, X, x, m, family, seed, mode=numba_sampling.MODE_PRODUCTS):
    if family.kind is None:
        return _numpy(alpha, X, x, m, family, seed)
    support, rows = _support_rows(alpha, X)
    if support.size == 0:
        return 0.0
    a = alpha[rows]
    norm1 = np.abs(a).sum()
    # The seeds of children 0 and 1, hashed without building them (same numbers).
    counts = seed_sequence.child_generator(seed, 0).multinomial(m, np.abs(a) / norm1)
    key = seed_sequence.child_key(seed, 1)
    kernel = numba_sampling.sum_products if m >= numba_sampling.PARALLEL_MIN else numba_sampling.sum_products_serial
    total = kernel(
        np.ascontiguousarray(X[rows]), x, counts.astype(np.int64), np.sign(a), key,
        family.kind, family.numba_params(), mode,
    )
    return float(norm1 / m * total)


def draw_floor(alpha, X, x, m, family, *, seed) -> float:
    """Draw the random numbers the fast version draws, and skip ``psi``.

    The floor of the speed benchmark (``tests/benchmarks``): the multinomial
    counts and, in the same compiled loop, every sampled parameter, summed so
    that the compiler cannot drop them.  Not an estimate of anything.
    """
    alpha, X, x, m, family = _validate(alpha, X, x, m, family)
    if family.kind is None:
        raise ValueError(f"family {family!r} has no compiled sampler, hence no floor")
    return _fast(alpha, X, x, m, family, random_streams.as_seed_sequence(seed),
                 mode=numba_sampling.MODE_DRAWS_ONLY)


_IMPLEMENTATIONS = {"fast": _fast, "numpy": _numpy, "reference": _reference}


def _fast_at_points(alpha, X, X_new, m, family, seed):
    """:func:`_fast` at every row of ``X_new``: its counts and stream key, one compiled pass."""
    support, rows = _support_rows(alpha, X)
    if support.size == 0:
        return np.zeros(X_new.shape[0])
    a = alpha[rows]
    norm1 = np.abs(a).sum()
    counts = seed_sequence.child_generator(seed, 0).multinomial(m, np.abs(a) / norm1).astype(np.int64)
    support, signs, key = np.ascontiguousarray(X[rows]), np.sign(a), seed_sequence.child_key(seed, 1)
    kernel = (numba_sampling.sum_products_at_points if m * X_new.shape[0] >= numba_sampling.PARALLEL_MIN
              else numba_sampling.sum_products_at_points_serial)
    block = numba_sampling.ROWS_PER_BLOCK
    totals = np.concatenate([np.zeros(0)] + [
        kernel(support, np.ascontiguousarray(X_new[lo:lo + block].T), counts, signs, key, family.kind,
               family.numba_params())
        for lo in range(0, X_new.shape[0], block)])
    return norm1 / m * totals


def estimate_at_points(alpha, X, X_new, m, family, *, seed, method: str = "fast") -> np.ndarray:
    """EST_SCALAR_PROD (ICML and arXiv Algorithm 2) at every row of ``X_new``, each with ``seed``.

    Row ``j`` of the result is ``estimate_scalar_product(alpha, X, X_new[j], m, family,
    seed=seed, method=method)`` (up to round-off, see ``method``): Algorithm 2's estimate of ``<f, Phi(x_j)>`` with m samples,
    unbiased (ICML Lemma 4; arXiv Lemma 3) and within ``epsilon`` with probability
    ``1 - delta`` for the m of Theorem 1, part 3 (:func:`iln.theory.test_time_m_corrected`).
    The rows share one seed, so they share the draws ``(i_k, w_k)``: Theorem 1's test-time
    cost, m evaluations of ``psi`` a row (``O(rho m)``, both versions), is then the whole cost
    beyond one set of m draws, which the fast version makes once per block of rows
    (:data:`iln.numba_sampling.ROWS_PER_BLOCK`) instead of once a row.  Sharing makes the
    rows' errors dependent; each row's law is Algorithm 2's.

    Parameters
    ----------
    alpha, X, m, family, seed
        As in :func:`estimate_scalar_product_reference`.
    X_new : array of shape (n_q, D)
        The points, in the family's domain.
    method : {"fast", "numpy", "reference"}, default="fast"
        As in :func:`estimate_scalar_product`.  The fast version of a family with a compiled
        sampler makes one pass over the draws for a block of rows
        (:func:`iln.numba_sampling.sum_products_at_points`): the same terms as for one point,
        equal up to round-off; the others, and a family without a compiled sampler, run per
        row and give exactly the one-point numbers.

    Returns
    -------
    ndarray of shape (n_q,)

    Examples
    --------
    >>> import numpy as np
    >>> from iln.features import RandomFourier
    >>> fam = RandomFourier(2)
    >>> X = np.array([[0.0, 0.0], [1.0, 0.5]])
    >>> rows = np.array([[0.1, 0.2], [0.9, 0.4], [2.0, -1.0]])
    >>> E = estimate_at_points([1.0, -0.5], X, rows, 1000, fam, seed=3)
    >>> one_by_one = [estimate_scalar_product([1.0, -0.5], X, x, 1000, fam, seed=3) for x in rows]
    >>> float(np.max(np.abs(E - one_by_one))) < 1e-15  # the same draws; round-off apart
    True
    """
    family = check_family(family)
    alpha, X = _check_support(alpha, X, family)
    X_new = family.check_inputs(X_new, "X_new")
    m = check_m(m)
    method = check_method(method)
    seed = random_streams.as_seed_sequence(seed)
    if method == "fast" and family.kind is not None:
        return _fast_at_points(alpha, X, X_new, m, family, seed)
    return np.array([_IMPLEMENTATIONS[method](alpha, X, x, m, family, seed) for x in X_new], dtype=np.float64)


def check_method(method) -> str:
    """Validate the name of an implementation of Algorithm 2."""
    return arguments.choice(method, "method", METHODS)


def estimate_validated(alpha, X, x, m, family, seed: np.random.SeedSequence, method: str) -> float:
    """Algorithm 2 on inputs already validated (used inside Algorithm 1's loop).

    Callers guarantee: ``alpha`` float64 1-D finite, ``X`` float64 (len(alpha), D)
    in the family's domain, ``x`` float64 (D,), ``m >= 1``, ``seed`` a SeedSequence.
    """
    return _IMPLEMENTATIONS[check_method(method)](alpha, X, x, m, family, seed)
