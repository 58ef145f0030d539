"""Compiled inner loop of Algorithm 2 (EST_SCALAR_PROD); arrays and scalars only.

The loop draws, for every support point ``i`` with ``c_i`` samples, ``c_i``
parameters ``w ~ mu`` and sums ``psi(x_i; w) psi(x; w)``.  Samples are cut
into chunks of fixed length; each chunk has its own counter-based stream
(SplitMix64, Steele, Lea & Flood 2014) keyed by ``(key, i, chunk)``, and the
chunk sums are added in index order.  The result therefore does not depend on
how many threads run the ``prange`` (docs, Design, principle 7).

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

__all__ = ["CHUNK", "COMPILED_KINDS", "MODE_DRAWS_ONLY", "MODE_PRODUCTS", "PARALLEL_MIN", "sum_products", "sum_products_serial"]

#: samples per work item; fixed so that the streams do not depend on the thread count.
CHUNK = 1 << 15
#: calls with fewer samples run on the calling thread (same numbers, no thread-pool start).
PARALLEL_MIN = 4 * CHUNK
MODE_PRODUCTS = 0
#: draw the same random numbers but skip ``psi``: the floor of the benchmark.
MODE_DRAWS_ONLY = 1

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
def _item_sum(X, x, counts, signs, key, kind, params, mode, i, c):
    """The signed sum of work item ``(i, c)``, on its own stream."""
    count = min(CHUNK, counts[i] - c * CHUNK)
    state = _mix(key ^ _mix(np.uint64(i) * _GAMMA + _mix(np.uint64(c) + _GAMMA)))
    return signs[i] * _chunk_sum(X[i], x, count, state, kind, params, mode)


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
