"""Compiled inner loop of Algorithm 2 (EST_SCALAR_PROD); arrays and scalars only.

The loop draws, for every support point ``i`` with ``c_i`` samples, ``c_i``
parameters ``w ~ mu`` and sums ``psi(x_i; w) psi(x; w)``.  Samples are cut
into chunks of fixed length; each chunk has its own counter-based stream
(SplitMix64, Steele, Lea & Flood 2014) keyed by ``(key, i, chunk)``, and the
chunk sums are added in index order.  The result therefore does not depend on
how many threads run the ``prange`` (docs, Design, principle 7).

At test time (ICML and arXiv Theorem 1, part 3) Algorithm 2 runs at many points with one
seed: the draws depend on the seed only, so :func:`sum_products_at_points` makes them once
for a block of query rows and evaluates every row on each, with a cosine of its own
(:func:`cosine`, fdlibm's algorithm) that the compiler keeps inline.

Feature kinds mirror :mod:`iln.features` (``KIND_*``): the compiled samplers
draw the same distributions as the families' :meth:`sample` methods, which
``tests/test_estimator.py`` checks through the estimator's distribution.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from iln.features import (
    KIND_COORDINATE,
    KIND_FOURIER,
    KIND_RELU,
    KIND_SIGMOID,
    KIND_SIGN,
    KIND_STUMP,
)

__all__ = ["CHUNK", "COMPILED_KINDS", "COSINE_LIMIT", "MODE_DRAWS_ONLY", "MODE_PRODUCTS", "PARALLEL_MIN", "ROWS_PER_BLOCK",
           "cosine", "sum_products", "sum_products_at_points", "sum_products_at_points_serial", "sum_products_serial"]

#: samples per work item; fixed so that the streams do not depend on the thread count.
CHUNK = 1 << 15
#: calls with fewer samples run on the calling thread (same numbers, no thread-pool start).
PARALLEL_MIN = 4 * CHUNK
MODE_PRODUCTS = 0
#: draw the same random numbers but skip ``psi``: the floor of the benchmark.
MODE_DRAWS_ONLY = 1
#: query rows a caller passes to :func:`sum_products_at_points` at once.  Each call draws the samples again,
#: so a block must be wide enough for its rows' evaluations to outweigh the draws (a Fourier
#: draw in 10 dimensions, ten normals by Box-Muller, costs about as much as a hundred
#: evaluations of its feature), and narrow enough that a block's rows, and its partial sums
#: (one row per work item), stay in the cache.
ROWS_PER_BLOCK = 256

#: the kind codes the kernels below were compiled with.  numba's on-disk cache
#: (``cache=True``) is invalidated by an edit of this file only, and a kernel keeps the values
#: of the globals it read when it was compiled: a code changed in iln/features.py alone would
#: leave the cached kernels drawing another family than the one asked for.  So the codes are
#: written here too, and a difference stops the import.
COMPILED_KINDS = {"KIND_COORDINATE": 0, "KIND_FOURIER": 1, "KIND_SIGN": 2, "KIND_RELU": 3, "KIND_SIGMOID": 4,
                  "KIND_STUMP": 5}
_KINDS = {"KIND_COORDINATE": KIND_COORDINATE, "KIND_FOURIER": KIND_FOURIER, "KIND_SIGN": KIND_SIGN,
          "KIND_RELU": KIND_RELU, "KIND_SIGMOID": KIND_SIGMOID, "KIND_STUMP": KIND_STUMP}
if _KINDS != COMPILED_KINDS:
    raise ImportError(f"iln/features.py's kind codes {_KINDS} differ from iln/numba_sampling.py's COMPILED_KINDS "
                      f"{COMPILED_KINDS}: change both (an edit of numba_sampling.py invalidates numba's cache)")

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_TWO_POW_M53 = 2.0**-53
_TWO_PI = 2.0 * math.pi


@nb.njit(cache=True)
def _mix(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@nb.njit(cache=True)
def _uniform(state):
    """Next state and a uniform double in [0, 1) with 53 random bits."""
    state = state + _GAMMA
    # Through int64: the value fits in 53 bits, and the signed conversion is one instruction.
    return state, np.float64(np.int64(_mix(state) >> _S11)) * _TWO_POW_M53


@nb.njit(cache=True)
def _normal_pair(state):
    """Box-Muller: two independent standard normals."""
    state, u1 = _uniform(state)
    state, u2 = _uniform(state)
    r = math.sqrt(-2.0 * math.log(1.0 - u1))  # 1 - u1 lies in (0, 1]
    return state, r * math.cos(_TWO_PI * u2), r * math.sin(_TWO_PI * u2)


@nb.njit(cache=True)
def _coordinate(state, dim):
    state, u = _uniform(state)
    # floor(u * dim) with 53-bit u: bias below dim / 2^53, far under any test's resolution.
    return state, int(u * dim)


_BLOCK = 512
_LANES = 8


@nb.njit(cache=True)
def _coordinate_products(xi, x, count, state):
    """``sum_k xi[d_k] x[d_k]`` for ``count`` uniform coordinates ``d_k``.

    Indices are drawn a block at a time (a loop the compiler vectorises, as in
    the floor) and the products are summed into eight accumulators in a fixed
    pattern: that removes the chain of dependent additions while keeping the
    order of every floating-point operation independent of the thread count
    and of the machine's vector width.
    """
    dim = x.shape[0]
    # One load per sample instead of two once the O(D) product pays off.
    prod = xi * x if count >= dim else np.empty(0)
    idx = np.empty(_BLOCK, np.int64)
    # Scalar accumulators, not an array: the compiler keeps them in registers.
    a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = 0.0
    done = 0
    while done < count:
        n = min(_BLOCK, count - done)
        for k in range(n):
            state, d = _coordinate(state, dim)
            idx[k] = d
        full = n - n % _LANES
        if count >= dim:
            for k in range(0, full, _LANES):
                a0 += prod[idx[k]]
                a1 += prod[idx[k + 1]]
                a2 += prod[idx[k + 2]]
                a3 += prod[idx[k + 3]]
                a4 += prod[idx[k + 4]]
                a5 += prod[idx[k + 5]]
                a6 += prod[idx[k + 6]]
                a7 += prod[idx[k + 7]]
            for k in range(full, n):
                a0 += prod[idx[k]]
        else:
            for k in range(0, full, _LANES):
                a0 += xi[idx[k]] * x[idx[k]]
                a1 += xi[idx[k + 1]] * x[idx[k + 1]]
                a2 += xi[idx[k + 2]] * x[idx[k + 2]]
                a3 += xi[idx[k + 3]] * x[idx[k + 3]]
                a4 += xi[idx[k + 4]] * x[idx[k + 4]]
                a5 += xi[idx[k + 5]] * x[idx[k + 5]]
                a6 += xi[idx[k + 6]] * x[idx[k + 6]]
                a7 += xi[idx[k + 7]] * x[idx[k + 7]]
            for k in range(full, n):
                a0 += xi[idx[k]] * x[idx[k]]
        done += n
    total = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7))
    return total


@nb.njit(cache=True)
def _project(state, xi, x, mode):
    """A standard normal direction g, returned through g.xi, g.x and ||g||^2."""
    dim = x.shape[0]
    a = 0.0
    b = 0.0
    sq = 0.0
    for j in range(0, dim, 2):
        state, g0, g1 = _normal_pair(state)
        if mode == MODE_DRAWS_ONLY:
            a += g0
            sq += g1
            continue
        a += g0 * xi[j]
        b += g0 * x[j]
        sq += g0 * g0
        if j + 1 < dim:
            a += g1 * xi[j + 1]
            b += g1 * x[j + 1]
            sq += g1 * g1
    return state, a, b, sq


@nb.njit(cache=True)
def _chunk_sum(xi, x, count, state, kind, params, mode):
    """Sum over ``count`` fresh draws of ``psi(xi; w) psi(x; w)``."""
    dim = x.shape[0]
    acc = 0.0
    if kind == KIND_COORDINATE:
        if mode == MODE_DRAWS_ONLY:
            drawn = 0
            for _ in range(count):
                state, d = _coordinate(state, dim)
                drawn += d
            return float(drawn)
        return _coordinate_products(xi, x, count, state)
    elif kind == KIND_STUMP:
        scale2 = params[0] * params[0]
        for _ in range(count):
            state, d = _coordinate(state, dim)
            state, t, _unused = _normal_pair(state)
            if mode == MODE_DRAWS_ONLY:
                acc += d + t
            else:
                acc += scale2 * np.sign(xi[d] - t) * np.sign(x[d] - t)
    else:
        for _ in range(count):
            state, a, b, sq = _project(state, xi, x, mode)
            if mode == MODE_DRAWS_ONLY:
                acc += a + sq
                if kind == KIND_FOURIER:
                    state, u = _uniform(state)
                    acc += u
                continue
            if kind == KIND_FOURIER:
                state, u = _uniform(state)
                s = math.sqrt(2.0 * params[0])
                beta = _TWO_PI * u
                acc += math.cos(s * a + beta) * math.cos(s * b + beta)
            elif kind == KIND_SIGN:
                acc += params[0] * params[0] * np.sign(a) * np.sign(b)
            else:
                r = math.sqrt(sq)
                if kind == KIND_RELU:
                    acc += max(a / r, 0.0) * max(b / r, 0.0)
                elif kind == KIND_SIGMOID:
                    acc += 1.0 / (1.0 + math.exp(-params[0] * a / r)) / (1.0 + math.exp(-params[0] * b / r))
    return acc


@nb.njit(cache=True)
def _work_items(counts):
    """Work items ``(point, chunk)``: CHUNK samples each, the last of a point shorter."""
    n = counts.shape[0]
    first = np.zeros(n + 1, np.int64)
    for i in range(n):
        first[i + 1] = first[i] + (counts[i] + CHUNK - 1) // CHUNK
    item_point = np.empty(first[n], np.int64)
    item_chunk = np.empty(first[n], np.int64)
    for i in range(n):
        for c in range(first[i + 1] - first[i]):
            item_point[first[i] + c] = i
            item_chunk[first[i] + c] = c
    return item_point, item_chunk


@nb.njit(cache=True)
def _item_state(key, i, c):
    """The first state of work item ``(i, c)``'s stream: a function of the call's key and of
    the item's position alone."""
    return _mix(key ^ _mix(np.uint64(i) * _GAMMA + _mix(np.uint64(c) + _GAMMA)))


@nb.njit(cache=True)
def _item_sum(X, x, counts, signs, key, kind, params, mode, i, c):
    """The signed sum of work item ``(i, c)``, on its own stream."""
    count = min(CHUNK, counts[i] - c * CHUNK)
    return signs[i] * _chunk_sum(X[i], x, count, _item_state(key, i, c), kind, params, mode)


@nb.njit(cache=True)
def _in_order(partial):
    total = 0.0
    for it in range(partial.shape[0]):
        total += partial[it]
    return total


@nb.njit(cache=True, parallel=True)
def sum_products(X, x, counts, signs, key, kind, params, mode):
    """``sum_i signs[i] * sum_{k <= counts[i]} psi(X[i]; w_ik) psi(x; w_ik)``, on all threads.

    Parameters
    ----------
    X : float64 array (n, D)
        Support points ``x_i`` of Algorithm 2.
    x : float64 array (D,)
        The query point.
    counts : int64 array (n,)
        How many of the m samples fell on each support point.
    signs : float64 array (n,)
        ``sgn(alpha_i)``.
    key : uint64
        Stream key of this call.
    kind : int
        Feature kind code (``iln.features.KIND_*``).
    params : float64 array
        The family's ``numba_params()``.
    mode : int
        ``MODE_PRODUCTS`` or ``MODE_DRAWS_ONLY``.
    """
    item_point, item_chunk = _work_items(counts)
    partial = np.zeros(item_point.shape[0])
    for it in nb.prange(item_point.shape[0]):
        partial[it] = _item_sum(X, x, counts, signs, key, kind, params, mode, item_point[it], item_chunk[it])
    return _in_order(partial)


@nb.njit(cache=True)
def sum_products_serial(X, x, counts, signs, key, kind, params, mode):
    """:func:`sum_products` on the calling thread, with the same numbers.

    For small calls: starting the thread pool costs more than the work, and far more
    when other processes share the cores.
    """
    item_point, item_chunk = _work_items(counts)
    partial = np.zeros(item_point.shape[0])
    for it in range(item_point.shape[0]):
        partial[it] = _item_sum(X, x, counts, signs, key, kind, params, mode, item_point[it], item_chunk[it])
    return _in_order(partial)


# -- Algorithm 2 at many query points with the same draws (test time) ----------------------
# The draws of a call depend on its key and counts only, never on the query point (each work
# item (i, c) has its own stream), so one pass over the draws serves every query row: a row's
# sum then holds the very terms :func:`sum_products` sums for that row alone.


@nb.njit(cache=True)
def _direction(state, g):
    """Fill ``g`` with standard normals in the order :func:`_project` draws them."""
    dim = g.shape[0]
    for j in range(0, dim, 2):
        state, g0, g1 = _normal_pair(state)
        g[j] = g0
        if j + 1 < dim:
            g[j + 1] = g1
    return state


# cos in two parts, fdlibm's (Sun Microsystems, 1993): __ieee754_rem_pio2 reduces x to
# y0 + y1 = x - n pi/2 with pi/2 in three parts of 33 bits and their tails (exact products
# while |n| < 2**19), then __kernel_cos / __kernel_sin evaluate their minimax polynomials on
# [-pi/4, pi/4].  It is within 1 ulp of the C library's cos (tests/test_estimator.py) and has
# no call in it, so the loop over a draw's rows runs inline, where calls of the C library's
# cos took most of a prediction's time; beyond COSINE_LIMIT a row falls back to math.cos.
_INV_PIO2 = 6.36619772367581382433e-01
_PIO2_1, _PIO2_1T = 1.57079632673412561417e+00, 6.07710050650619224932e-11
_PIO2_2, _PIO2_2T = 6.07710050630396597660e-11, 2.02226624879595063154e-21
_PIO2_3, _PIO2_3T = 2.02226624871116645580e-21, 8.47842766036889956997e-32
_S1, _S2, _S3 = -1.66666666666666324348e-01, 8.33333333332248946124e-03, -1.98412698298579493134e-04
_S4, _S5, _S6 = 2.75573137070700676789e-06, -2.50507602534068634195e-08, 1.58969099521155010221e-10
_C1, _C2, _C3 = 4.16666666666666019037e-02, -1.38888888888741095749e-03, 2.48015872894767294178e-05
_C4, _C5, _C6 = -2.75573143513906633035e-07, 2.08757232129817482790e-09, -1.13596475577881948265e-11
# Adding and subtracting 1.5 * 2**52 rounds a double of magnitude below 2**51 to the nearest integer.
_ROUNDER = 6755399441055744.0
#: ``|x|`` below which :func:`cosine` reduces x itself: ``n = round(2x / pi) <= 2**19``, as in fdlibm.
COSINE_LIMIT = 823549.0


@nb.njit(cache=True, inline="always")
def cosine(x):
    """``cos(x)`` for ``|x| < COSINE_LIMIT``, within 1 ulp of ``math.cos`` (fdlibm's algorithm)."""
    n = (x * _INV_PIO2 + _ROUNDER) - _ROUNDER
    # x - n pi/2 in three steps, each with the rounding error of the step before (__ieee754_rem_pio2).
    r = x - n * _PIO2_1
    w = n * _PIO2_1T
    t = r
    w = n * _PIO2_2
    r = t - w
    w = n * _PIO2_2T - ((t - r) - w)
    t = r
    w = n * _PIO2_3
    r = t - w
    w = n * _PIO2_3T - ((t - r) - w)
    y0 = r - w
    y1 = (r - y0) - w
    z = y0 * y0
    # __kernel_cos(y0, y1)
    poly = z * (_C1 + z * (_C2 + z * (_C3 + z * (_C4 + z * (_C5 + z * _C6)))))
    half = 0.5 * z
    one_minus = 1.0 - half
    cos_r = one_minus + (((1.0 - one_minus) - half) + (z * poly - y0 * y1))
    # __kernel_sin(y0, y1, 1)
    v = z * y0
    poly = _S2 + z * (_S3 + z * (_S4 + z * (_S5 + z * _S6)))
    sin_r = y0 - ((z * (0.5 * y1 - v * poly) - y1) - v * _S1)
    quadrant = n - 4.0 * math.floor(n * 0.25)
    value = sin_r if (quadrant == 1.0 or quadrant == 3.0) else cos_r
    return -value if (quadrant == 1.0 or quadrant == 2.0) else value


@nb.njit(cache=True)
def _accumulate_projected(kind, params, at_support, z, norm, phase, acc, values):
    """``acc[j] += at_support * psi`` at every row from its projection ``z[j] = g . x_j`` on the
    draw's standard normal ``g`` (norm ``norm``; Fourier: phase ``phase``), ``psi`` as
    :func:`_chunk_sum` evaluates it; ``z`` is overwritten and ``values`` is scratch."""
    rows = z.shape[0]
    if kind == KIND_FOURIER:
        frequency = math.sqrt(2.0 * params[0])
        for j in range(rows):
            z[j] = frequency * z[j] + phase
        for j in range(rows):
            values[j] = cosine(z[j])
        for j in range(rows):
            if not abs(z[j]) < COSINE_LIMIT:
                values[j] = math.cos(z[j])
    elif kind == KIND_SIGN:
        for j in range(rows):
            values[j] = params[0] * np.sign(z[j])
    elif kind == KIND_RELU:
        for j in range(rows):
            values[j] = max(z[j] / norm, 0.0)
    else:
        for j in range(rows):
            values[j] = 1.0 / (1.0 + math.exp(-params[0] * z[j] / norm))
    for j in range(rows):
        acc[j] += at_support * values[j]


@nb.njit(cache=True)
def _item_sums_at(xi, XT, count, state, kind, params, acc, z, values, g):
    """``acc[j] = sum over count fresh draws of psi(xi; w) psi(XT[:, j]; w)``, every row on the
    same draws; ``z``, ``values`` (one float a row) and ``g`` (one a coordinate) are scratch."""
    dim, rows = XT.shape
    acc[:] = 0.0
    for _ in range(count):
        if kind in (KIND_COORDINATE, KIND_STUMP):
            state, d = _coordinate(state, dim)
            if kind == KIND_COORDINATE:
                at_support = xi[d]
                for j in range(rows):
                    acc[j] += at_support * XT[d, j]
            else:
                state, t, _unused = _normal_pair(state)
                at_support = params[0] * np.sign(xi[d] - t)
                for j in range(rows):
                    acc[j] += at_support * (params[0] * np.sign(XT[d, j] - t))
            continue
        state = _direction(state, g)
        a = 0.0
        sq = 0.0
        for q in range(dim):
            a += g[q] * xi[q]
            sq += g[q] * g[q]
        # Every row's projection summed over the coordinates in order, as _project sums one row's.
        z[:] = 0.0
        for q in range(dim):
            for j in range(rows):
                z[j] += g[q] * XT[q, j]
        norm = math.sqrt(sq)
        phase = 0.0
        if kind == KIND_FOURIER:
            state, u = _uniform(state)
            phase = _TWO_PI * u
            at_support = math.cos(math.sqrt(2.0 * params[0]) * a + phase)
        elif kind == KIND_SIGN:
            at_support = params[0] * np.sign(a)
        elif kind == KIND_RELU:
            at_support = max(a / norm, 0.0)
        else:
            at_support = 1.0 / (1.0 + math.exp(-params[0] * a / norm))
        _accumulate_projected(kind, params, at_support, z, norm, phase, acc, values)


@nb.njit(cache=True)
def _item_partial(X, XT, counts, signs, key, kind, params, i, c, out):
    """``out[j]``: the signed sum of work item ``(i, c)`` at row ``j`` (the columns of ``XT``), on
    the item's own stream, as :func:`_item_sum` sums it at one point."""
    rows = XT.shape[1]
    count = min(CHUNK, counts[i] - c * CHUNK)
    _item_sums_at(X[i], XT, count, _item_state(key, i, c), kind, params, out, np.empty(rows), np.empty(rows),
                  np.empty(XT.shape[0]))
    for j in range(rows):
        out[j] = signs[i] * out[j]


@nb.njit(cache=True)
def _rows_in_order(partial):
    """Each column of ``partial`` summed over the work items in order, as :func:`_in_order` sums."""
    total = np.zeros(partial.shape[1])
    for it in range(partial.shape[0]):
        for j in range(partial.shape[1]):
            total[j] += partial[it, j]
    return total


@nb.njit(cache=True, parallel=True)
def sum_products_at_points(X, XT, counts, signs, key, kind, params):
    """:func:`sum_products` at every column of ``XT`` with the same draws, on all threads.

    Column ``j`` of ``XT`` is a query point ``x_j``; entry ``j`` of the result sums the terms
    ``sum_products(X, x_j, counts, signs, key, kind, params, MODE_PRODUCTS)`` sums: the same
    draws, the same work items, added in the same order.  Within an item a value may differ
    in its last bits (Fourier features through :func:`cosine`, the coordinate and sigmoid
    kinds by the order of their operations).  The work items run in parallel, each drawing
    its samples once for all the columns, so the numbers depend neither on the thread count
    nor on the other columns.  A caller passes blocks of about :data:`ROWS_PER_BLOCK` columns.

    Parameters
    ----------
    X, counts, signs, key, kind, params
        As in :func:`sum_products`.
    XT : float64 array (D, n_q), C-contiguous
        The query points as columns: a draw's coordinate, or a step of its projection, runs
        along a row of ``XT`` for every point at once.

    Returns
    -------
    float64 array (n_q,)
    """
    item_point, item_chunk = _work_items(counts)
    partial = np.empty((item_point.shape[0], XT.shape[1]))
    for it in nb.prange(item_point.shape[0]):
        _item_partial(X, XT, counts, signs, key, kind, params, item_point[it], item_chunk[it], partial[it])
    return _rows_in_order(partial)


@nb.njit(cache=True)
def sum_products_at_points_serial(X, XT, counts, signs, key, kind, params):
    """:func:`sum_products_at_points` on the calling thread, with the same numbers."""
    item_point, item_chunk = _work_items(counts)
    partial = np.empty((item_point.shape[0], XT.shape[1]))
    for it in range(item_point.shape[0]):
        _item_partial(X, XT, counts, signs, key, kind, params, item_point[it], item_chunk[it], partial[it])
    return _rows_in_order(partial)
