"""RKS Lemma 1 (eq. 9): a kitchen-sink average approximates any member of F_p at rate C / sqrt(K).

"Let mu be a measure on X and f* in F_p.  If w_1..w_K are drawn iid from p, then for any
delta > 0, with probability at least 1 - delta, some f_hat in F_w has
``||f_hat - f*||_{L2(mu)} <= C / sqrt(K) (1 + sqrt(2 log(1/delta)))``."

The claim is a specification (:mod:`verification.search`).  Its left side is the probability
that *no* member of F_w is within ``eps`` of f*, ``P[min_{F_w} ||f - f*||_mu > eps]``; its right
side is the delta at which eq. (9)'s bound equals ``eps``, as Lemma 4's proof inverts it
("set delta to the right hand side, solve for eps"): ``eps = C / sqrt(K) (1 + sqrt(2 log(1/
delta)))`` is ``delta = exp(-(sqrt(K) eps / C - 1)^2 / 2)`` for ``eps >= C / sqrt(K)`` (and the
lemma says nothing, delta = 1, below).  So eps searched from where the bound is 1 - 1e-12
(delta at its largest value, 1) to where it is 1e-300 is delta searched over ``[1e-300, 1)``.

Instances with an exact law: a parameter law on two atoms ``w_1, w_2`` of probabilities
``p, 1 - p``, features ``phi_j = phi(.; w_j)`` with ``||phi_j||_mu = u_j sqrt(mu(X))``
(``u_j in [0, 1]``: ``|phi| <= 1`` allows exactly these) and correlation ``rho`` under mu, mu of
any mass ``mu(X) > 0``, and ``f* = p beta_1 phi_1 + (1 - p) beta_2 phi_2`` with ``beta_j = b_j
C``, ``|b_j| <= 1``: every member of F_p on two atoms.  F_w's box is symmetric, so flipping
the sign of a feature (with its beta and rho) and swapping the atoms change no distance: the
domain takes ``p in [0, 1/2]`` (one atom at 0), ``b_1 in [0, 1]``, ``rho in [0, 1]`` and
``b_2 in [-1, 1]``, which reach every instance.  With
``n ~ Binomial(K, p)`` draws of ``w_1``, F_w is ``{x_1 phi_1 + x_2 phi_2 : |x_1| <= n C / K,
|x_2| <= (K - n) C / K}``, so the best member's distance is a convex quadratic minimised over
a box (:func:`best_member_distance`, closed form on the box's edges) and the left side a
binomial tail over n, exact in log space (:func:`approximation_tail`).  Every such instance is
realised by mu on two points of masses ``mu(X) (1 +- rho) / 2``, ``phi_1 = u_1 (1, 1)`` and
``phi_2 = u_2 (1, -1)``; the trial (:func:`approximation_trial`) runs the shipped code there.

Expected verdict, from the mathematics before any search: the printed bound is false for a
measure of mass above 1 (K = 1, p = 1/2, b_1 = b_2 = 1, rho = 0, u_1 = u_2 = 1: f* = C/2
(phi_1 + phi_2), the one draw leaves the other atom's weight C/2 unreached, so the distance
is ``sqrt(mu(X)) C / 2`` surely, beyond ``C (1 + sqrt(2 log(1/delta)))`` for every delta
once mu(X) is large: probability 1 > delta).  The proof's step ``||beta_k phi(.; w_k)|| <=
C`` holds only when ``mu(X) <= 1``; with ``M = C sqrt(mu(X))`` in Lemma 4 (which holds for
any iid vectors in a ball of radius M: McDiarmid with differences 2M/K and Jensen), the
witness ``sum_k beta_k / K phi(.; w_k)``, a member of F_w, is within ``C sqrt(mu(X)) / sqrt(K)
(1 + sqrt(2 log(1/delta)))`` with probability 1 - delta, so the corrected bound
``exp(-(sqrt(K) eps / (C sqrt(mu(X))) - 1)^2 / 2)`` holds at every instance of the domain:
holds_after_correction.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np
from scipy.special import gammaln

from iln.random_streams import generator
from iln.rks import function_class as fc
from iln.rks.kitchen_sinks import minimize_weighted_risk
from verification import search
from verification.catalog import Erratum, Quote, Source, register
from verification.verdicts import HOLDS_AFTER_CORRECTION, Verdict

ID = "rks.lemma1.approximation"
#: the corrected side's name: eq. (9) with C sqrt(mu(X)) in place of C.
CORRECTED = "sqrt(mu(X)) C"
#: binomial terms below exp(-LOG_FLOOR) are left out of the exact tail: it is then exact up to
#: (K + 1) exp(-1000) < 1e-428, far below any right side searched.
LOG_FLOOR = 1000.0


@functools.lru_cache(maxsize=256)
def draw_law(K: int, p: float) -> tuple[np.ndarray, np.ndarray]:
    """The draws n of ``w_1`` among K (``n ~ Binomial(K, p)``) and ``log P[n]``, the n within
    ``sqrt(LOG_FLOOR / (2K))`` of ``Kp`` only (outside, each term is below ``exp(-LOG_FLOOR)``:
    ``P[n = k] <= exp(-2K (k/K - p)^2)``)."""
    if p in (0.0, 1.0):  # n = Kp surely
        return np.array([round(K * p)]), np.array([0.0])
    width = math.sqrt(LOG_FLOOR / (2 * K))
    n = np.arange(max(0, math.floor(K * (p - width))), min(K, math.ceil(K * (p + width))) + 1)
    log_pmf = gammaln(K + 1) - gammaln(n + 1) - gammaln(K - n + 1) + n * math.log(p) + (K - n) * math.log1p(-p)
    return n, log_pmf


def squared_distance(instance, n: np.ndarray, number=float) -> np.ndarray:
    """``min_{f in F_w} ||f - f*||_mu^2`` when ``n`` of the K draws are ``w_1`` (array over n).

    f* is ``t_1 phi_1 + t_2 phi_2`` (``t_1 = p b_1 C``, ``t_2 = (1 - p) |b_2| C``; with ``b_2 < 0``
    phi_2 and rho take its sign), a member of F_w ``x_1 phi_1 + x_2 phi_2`` with ``|x_1| <= r_1 =
    n C / K``, ``|x_2| <= r_2 = (K - n) C / K``, and the squared distance ``e^T G e`` (``e = x -
    t``, G the Gram matrix of phi_1, phi_2 under mu).  It is 0 when t is in the box; otherwise
    the minimum of a convex quadratic over a box lies on its boundary: on each edge (one
    coordinate at +-r, the other the 1-D minimiser, clipped).  Only ``+ - * /``, comparisons and
    min/max: with ``number=Fraction`` (and ``n`` an object array) it is exact rational arithmetic.
    """
    K = int(instance["K"])
    C, mass, p = number(instance["C"]), number(instance["mass"]), number(instance["p"])
    u1, u2, rho, b1, b2 = (number(instance[k]) for k in ("u1", "u2", "rho", "b1", "b2"))
    g11, g22, g12 = mass * u1 * u1, mass * u2 * u2, mass * rho * u1 * u2
    t1, t2 = p * b1 * C, (1 - p) * abs(b2) * C
    if b2 < 0:  # the sign of beta_2 into phi_2's: (b_2, rho) -> (-b_2, -rho)
        g12 = -g12
    r1, r2 = n * C / K, (K - n) * C / K
    edges = []
    for (ga, gb), (ta, tb), (ra, rb) in (((g11, g22), (t1, t2), (r1, r2)), ((g22, g11), (t2, t1), (r2, r1))):
        for sign in (1, -1):
            ea = sign * ra - ta
            # The other coordinate's minimiser on this edge (anything when its feature is 0 under mu).
            xb = tb - (g12 * ea / gb if gb > 0 else 0 * ea)
            eb = np.minimum(np.maximum(xb, -rb), rb) - tb
            edges.append(ga * ea * ea + 2 * g12 * ea * eb + gb * eb * eb)
    best = functools.reduce(np.minimum, edges)
    inside = (t1 <= r1) & (t2 <= r2)
    return np.where(inside, 0 * best, np.maximum(best, 0 * best))


def best_member_distance(instance, n: np.ndarray) -> np.ndarray:
    """``min_{f in F_w} ||f - f*||_mu`` when ``n`` of the K draws are ``w_1``: the square root of
    :func:`squared_distance`."""
    return np.sqrt(squared_distance(instance, np.asarray(n, dtype=float)).astype(float))


#: the largest K whose tail is certified in rational arithmetic; beyond, log-space float64.
RATIONAL_K = 256


def approximation_certified(instance) -> search.ExactValue:
    """``P[min_{F_w} ||f - f*||_mu > eps]`` at one instance in rational arithmetic (the instance's
    floats read exactly), for K up to :data:`RATIONAL_K`: the event ``D^2 > eps^2`` decided per
    draw count n, the binomial weights summed in integers."""
    K = int(instance["K"])
    if K > RATIONAL_K:
        log = float(approximation_tail(instance))
        return search.ExactValue(log, repr(math.exp(log)), "log-space float64 (binomial terms below exp(-1000) "
                                                           "left out)")
    n = np.array([Fraction(k) for k in range(K + 1)], dtype=object)
    beyond = squared_distance(instance, n, Fraction) > Fraction(instance["eps"]) ** 2
    p = Fraction(instance["p"])
    num, den = p.numerator, p.denominator
    total, term = 0, (den - num) ** K  # term = C(K, k) num^k (den - num)^(K - k), an integer
    for k in range(K + 1):
        if beyond[k]:
            total += term
        if k < K:
            term = term * (K - k) * num // ((k + 1) * (den - num)) if den != num else 0
    if num == den:  # p = 1: n = K surely
        total = den**K if beyond[K] else 0
    exact = Fraction(total, den**K)
    log = math.log(exact.numerator) - math.log(exact.denominator) if total else -math.inf
    return search.ExactValue(log, _digits(exact, log), "rational arithmetic")


def _digits(exact: Fraction, log: float) -> str:
    """A probability as its fraction (denominator up to 40 digits), else its first 17 digits,
    computed in integers (a float would lose it below 1e-308)."""
    if exact == 0 or exact.denominator.bit_length() <= 132:
        return f"{exact.numerator}/{exact.denominator}"
    power = math.floor(log / math.log(10)) - 16
    scaled = (exact.numerator * 10**-power // exact.denominator if power < 0
              else exact.numerator // (exact.denominator * 10**power))
    digits = str(scaled)
    return f"{digits[0]}.{digits[1:]}e{power + len(digits) - 1} (the exact rational to {len(digits)} digits)"


@functools.lru_cache(maxsize=1024)
def _distance_law(key: tuple) -> tuple[np.ndarray, np.ndarray]:
    instance = dict(key)
    n, log_pmf = draw_law(int(instance["K"]), float(instance["p"]))
    distance = best_member_distance(instance, n)
    order = np.argsort(distance, kind="stable")
    # log P[D >= d_j] for the atoms in ascending order: a cumulative log-sum from the top.
    return distance[order], np.logaddexp.accumulate(log_pmf[order][::-1])[::-1]


def distance_law(instance) -> tuple[np.ndarray, np.ndarray]:
    """The law of the best member's distance D: its atoms ascending, ``log P[D >= atom]`` each."""
    return _distance_law(tuple(sorted((k, v) for k, v in instance.items() if k != "eps")))


def approximation_tail(instance) -> np.ndarray:
    """``log P[min_{F_w} ||f - f*||_mu > eps]`` at an instance; ``eps`` may be an array."""
    atoms, tail = distance_law(instance)
    first_beyond = np.searchsorted(atoms, np.asarray(instance["eps"], dtype=float), side="right")
    return np.where(first_beyond < atoms.size, tail[np.minimum(first_beyond, atoms.size - 1)], -np.inf)


def distance_ties(cell) -> np.ndarray:
    """The values of eps at which the tail jumps: every distance the best member takes."""
    return np.unique(distance_law(cell)[0])


#: the most values of p at which a draw's box starts to hold f*'s weight, tried per cell.
P_TIES = 16


def draw_ties(cell) -> np.ndarray:
    """The values of p at which the left side jumps, and just beside them: where a draw count
    n's box reaches f*'s weight on an atom (``p b_1 = n / K`` or ``(1 - p) |b_2| = (K - n) / K``),
    at most :data:`P_TIES` of them, evenly spread."""
    K, b1, b2 = int(cell["K"]), float(cell["b1"]), abs(float(cell["b2"]))
    n = np.arange(K + 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ties = np.concatenate([n / (K * b1) if b1 > 0 else [], 1.0 - (K - n) / (K * b2) if b2 > 0 else []])
    ties = np.unique(ties[(ties > 0) & (ties < 0.5)])
    if ties.size > P_TIES:
        ties = ties[np.unique(np.linspace(0, ties.size - 1, P_TIES).round().astype(int))]
    return np.clip(np.concatenate([ties, ties * (1 - 1e-9), ties * (1 + 1e-9)]), 0.0, 0.5)


def approximation_sampling_point(instance) -> dict:
    """The same instance with eps in the middle of the step of the tail it is on: the same
    exact tail, and an event no solver's rounding decides."""
    atoms = distance_ties(instance)
    j = int(np.searchsorted(atoms, float(instance["eps"]), side="right"))
    low = atoms[j - 1] if j > 0 else 0.0
    high = atoms[j] if j < atoms.size else 2.0 * atoms[-1] + float(instance["C"]) * math.sqrt(instance["mass"])
    return {**instance, "eps": float((low + high) / 2)}


def approximation_trial(instance, seed) -> bool:
    """The shipped code once: w_1..w_K drawn by :class:`iln.rks.function_class.AtomFeatures`,
    f* an :func:`~iln.rks.function_class.atom_member`, the best member of F_w by
    :func:`iln.rks.kitchen_sinks.minimize_weighted_risk` (quadratic loss, weights mu on its two
    points, box C / K); whether its L2(mu) distance to f* exceeds eps."""
    C, mass, rho = float(instance["C"]), float(instance["mass"]), float(instance["rho"])
    K, p = int(instance["K"]), float(instance["p"])
    family = fc.AtomFeatures([[instance["u1"], instance["u2"]], [instance["u1"], -instance["u2"]]], [p, 1.0 - p])
    target = fc.atom_member(family, [instance["b1"] * C, instance["b2"] * C], C).values(family.support)
    weights = np.array([mass * (1.0 + rho) / 2.0, mass * (1.0 - rho) / 2.0])
    Z = family.psi(family.support, family.sample(K, generator(seed)))
    alpha = minimize_weighted_risk(Z, target, weights, loss="quadratic", bound=C / K)
    return bool(math.sqrt(float(np.sum(weights * (Z @ alpha - target) ** 2))) > instance["eps"])


def _shipped_tail(i, M: float) -> float:
    """eq. (9)'s delta from the shipped Lemma 4 tail (eq. 20) with radius M: 1 below ``M / sqrt(K)``."""
    excess = i["eps"] - M / math.sqrt(i["K"])
    return 1.0 if excess <= 0 else fc.mcdiarmid_tail(M, int(i["K"]), excess)


APPROXIMATION = search.Statement(
    id=ID,
    domain=search.Domain(
        K=search.Integers(1, cap=2**16),
        eps=search.Reals(0.0, math.inf, open_low=True, ends=search.RightSideEnds(), ties=distance_ties),
        C=search.Reals(0.0, math.inf, open_low=True, cap_low=1e-3, cap_high=1e3, per_decade=0.1),
        mass=search.Reals(0.0, math.inf, open_low=True, cap_low=1e-6, cap_high=1e6, per_decade=0.25),
        p=search.Reals(0.0, 0.5, per_decade=4, ties=draw_ties),
        b1=search.Reals(0.0, 1.0, per_decade=1),
        b2=search.Reals(-1.0, 1.0, per_decade=1),
        u1=search.Reals(0.0, 1.0, per_decade=1),
        u2=search.Reals(0.0, 1.0, per_decade=1),
        rho=search.Reals(0.0, 1.0, per_decade=1),
    ),
    lhs=search.LeftSide("P[min over F_w of ||f - f*||_L2(mu) > eps]", exact=approximation_tail,
                        sample=approximation_trial, certify=approximation_certified,
                        sampling_point=approximation_sampling_point),
    # Square roots as powers 0.5: the rate in K and the measure's mass are exponents the
    # generated mutants move.
    printed="exp(-max(K**0.5 * eps / C - 1, 0)**2 / 2)",
    corrected={CORRECTED: "exp(-max(K**0.5 * eps / (C * mass**0.5) - 1, 0)**2 / 2)"},
    # The bound as the library ships it: Lemma 4's tail (eq. 20) with M = C, and M = C sqrt(mu(X)).
    shipped={"printed": lambda i: _shipped_tail(i, float(i["C"])),
             CORRECTED: lambda i: _shipped_tail(i, float(i["C"]) * math.sqrt(i["mass"]))},
    # Two ends per variable in the coarse product (2^9 cells), then sweeps, refinement and a
    # local search from the best: every value of every variable from the best cells.
    plan=search.Plan(budget=5000, coarse=2, sweeps=4, restarts=4, local_steps=200),
    scope="A parameter law on two atoms (probabilities p, 1 - p), features of L2(mu) norms u_j sqrt(mu(X)) "
          "(|phi| <= 1) and correlation rho under mu, mu of mass mu(X) (any measure: the lemma's 'Let mu be a "
          "measure'), every f* = p beta_1 phi_1 + (1 - p) beta_2 phi_2 with beta_j = b_j C, |b_j| <= 1, in F_p "
          "(p <= 1/2, b_1 >= 0 and rho >= 0 by the symmetries of the box: atoms swapped, signs flipped); the "
          "best member of F_w is exact (a box-constrained quadratic in closed form), its distance a function "
          "of the binomial count of w_1 among the K draws. eps runs from delta = 1 - 1e-12 to delta = 1e-300. "
          "Parameter laws on three or more atoms, and continuous ones, are not searched (no exact evaluator).",
)


def approximation_trial_record(config, seed) -> dict:
    """The shipped code sampled once at each instance the search confirms (:func:`verification.search.confirm`)."""
    return search.confirm(APPROXIMATION, config, seed)


def decide(records, config, alpha) -> Verdict:
    """Each bound decided exactly at its searched instances, then the shipped code's
    conformance to the exact law there (:func:`verification.search.decide`)."""
    return search.decide(APPROXIMATION, records, config, alpha)


_EQ9 = (r"\text{Let } \mu \text{ be a measure on } \mathcal{X} \dots \sqrt{\int_{\mathcal{X}} \left(\hat{f}(x) "
        r"- f^*(x)\right)^2 d\mu(x)} \le \frac{C}{\sqrt{K}} \left(1 + \sqrt{2\log\frac{1}{\delta}}\right)")
_EQ9_CORRECTED = (r"\sqrt{\int_{\mathcal{X}} (\hat{f} - f^*)^2 d\mu} \le \frac{C\sqrt{\mu(\mathcal{X})}}"
                  r"{\sqrt{K}} \left(1 + \sqrt{2\log\frac{1}{\delta}}\right)\quad(\text{eq. (9) as printed "
                  r"when } \mu \text{ is a probability measure})")

register(search.as_claim(
    APPROXIMATION, title="Lemma 1: a kitchen-sink average approximates any member of F_p at rate C / sqrt(K)",
    sources=(Source("RKS", "Section 2, Lemma 1, eq. (9)", _EQ9),),
    expected=HOLDS_AFTER_CORRECTION, trial=approximation_trial_record, decide=decide,
    # Samples of the shipped code at each confirmed instance: a frequency of 1/2 is told from
    # the exact law to +-0.1 (smoke), +-0.045 (quick), +-0.02 (full).
    n_trials={"smoke": 400, "quick": 2000, "full": 10000},
    erratum=Erratum(
        claim_id=ID,
        printed={"RKS": _EQ9 + r"\quad\text{(Lemma 1)};\quad \|\beta_k\phi(\cdot;w_k)\| \le C\quad"
                               r"\text{(its proof)}"},
        counterexample="Two atoms of probability 1/2, |phi| = 1, phi_1 and phi_2 orthogonal under mu, f* = "
                       "C/2 (phi_1 + phi_2) (beta = C on both atoms), K = 1: the one draw leaves the other "
                       "atom's weight C/2 out of reach, so the best member of F_w is at L2(mu) distance "
                       "sqrt(mu(X)) C / 2 surely, beyond C (1 + sqrt(2 log(1/delta))) whenever mu(X) > 4 "
                       "(1 + sqrt(2 log(1/delta)))^2: probability 1 > delta (exact: a binomial law over the "
                       "draws, approximation_tail; the search's smallest counterexample). With many atoms: mu = "
                       "the counting measure of the 32 points of an orthogonal instance (32 atoms of "
                       "probability 1/32, Hadamard features, f* with |beta| = C on every atom) makes the "
                       "failure probability 1 > 0.5 at K = 16, delta = 0.5, and 0.415 > 0.1 at K = 16, "
                       "delta = 0.1 (orthogonal_lemma1_exact: the occupancy law of the draws, summed in "
                       "integers). The proof's step ||beta_k phi(.; w_k)|| <= C holds only when mu(X) <= 1.",
        corrected=_EQ9_CORRECTED,
        check="rks.lemma1.approximation searches the printed and the corrected bound over the declared domain "
              "(K >= 1, delta from 1 to 1e-300, C, mu(X), the two-atom laws, features and members of F_p) and "
              "decides each exactly at its worst instances. Lemma 2 uses mu = P_x, a probability, and is "
              "unaffected.",
        quotes=(
            Quote("RKS", "Section 2, Lemma 1",
                  r"Lemma 1. Let $\mu$ be a measure on $\mathcal{X}$, and $f^*$ a function in $\mathcal{F}_p$."),
            Quote("RKS", "Section 2, Lemma 1, eq. (9)",
                  r"\sqrt{\int_{\mathcal{X}} \left(\hat{f}(x) - f^*(x)\right)^2 d\mu(x)} \le "
                  r"\frac{C}{\sqrt{K}} \left(1 + \sqrt{2\log\frac{1}{\delta}}\right). \tag{9}"),
            Quote("RKS", "Section 2, proof of Lemma 1",
                  r"Also, under the inner product $\langle f,g\rangle=\int f(x)g(x)\ d\mu(x)$, "
                  r"$\|\beta_k\phi(\cdot;w_k)\|\leq C$."),
        ),
    ),
))


# ------------------------------------------------------------------------------------------
# The erratum's counterexample, exact: an occupancy law
# ------------------------------------------------------------------------------------------


def _onto_at_least(draws: int, atoms: int, least: int) -> int:
    """Ways to send ``draws`` labelled draws onto ``atoms`` labelled atoms, each getting at
    least ``least`` of them."""
    @functools.cache
    def ways(n: int, q: int) -> int:
        if q == 0:
            return int(n == 0)
        return sum(math.comb(n, k) * ways(n - k, q - 1) for k in range(least, n - least * (q - 1) + 1))
    return ways(draws, atoms)


def orthogonal_lemma1_exact(K: int, delta: float, mass: float) -> dict:
    """P[no member of F_w is within eq. (9)'s bound of f*] on the orthogonal instance, exactly.

    The instance: 32 atoms of probability 1/32, ``phi`` the columns ``h_j`` of the 32 x 32
    Hadamard matrix (orthonormal under the uniform probability on the 32 points), ``f* =
    (C/32) sum_j s_j h_j``.  A member of F_w puts ``b_j`` with ``|b_j| <= n_j C / K`` on atom j,
    ``n_j`` the times ``w_1..w_K`` drew it, so the best member's squared distance under the
    uniform probability is ``sum_j max(0, C/32 - n_j C/K)^2 = C^2 S / (1024 K^2)`` with
    ``S = sum_j max(0, K - 32 n_j)^2``; under a measure of mass ``mass`` it is ``mass`` times
    that.  Eq. (9) then fails exactly when ``S > 1024 K z^2 / mass``, ``z = 1 + sqrt(2 log
    1/delta)``, an event of the occupancy counts ``(n_j)``, whose law (multinomial, K draws over
    32 equally likely atoms) is summed here in integers.

    Parameters
    ----------
    K : int
        Number of features, ``1 <= K <= 64`` (beyond, atoms drawn up to ``ceil(K/32) - 1`` times
        still miss f*'s weight and the categories of counts multiply: not cheap).
    delta : float
        Eq. (9)'s confidence parameter, in (0, 1).
    mass : float
        ``mu(X)``: 1 for the uniform probability, 32 for the counting measure of the points.

    Returns
    -------
    dict
        ``probability`` of the failure event (Fraction), the same with the corrected bound
        (``sqrt(mass)`` times eq. 9), and whether each exceeds ``delta``.

    Examples
    --------
    >>> orthogonal_lemma1_exact(16, 0.5, 32)["probability"]  # 16 draws leave 16 atoms undrawn
    Fraction(1, 1)
    """
    if not 1 <= K <= 64:
        raise ValueError(f"K must be an integer in [1, 64], got {K!r}")
    least = math.ceil(K / 32)               # an atom drawn this often carries f*'s weight
    shortfall = [(K - 32 * n) ** 2 for n in range(least)]
    z2 = fc.approximation_bound(1.0, 1, delta) ** 2  # (1 + sqrt(2 log(1/delta)))^2
    thresholds = {"printed": 1024 * K * z2 / mass, "corrected": 1024 * K * z2}
    # S is an integer and a threshold irrational, computed to a relative 1e-15: the event is
    # decided exactly unless an integer lies within rounding of the threshold.
    for t in thresholds.values():
        if abs(t - round(t)) <= 1e-9 * max(1.0, t):
            raise ArithmeticError(f"the threshold {t!r} is too close to an integer to decide S > t")
    failing = dict.fromkeys(thresholds, 0)
    counts = [0] * least                     # how many atoms were drawn exactly n < least times

    def visit(n: int, left: int):
        if n == least:
            used = sum(i * c for i, c in enumerate(counts))
            if used > K:
                return
            rest = 32 - sum(counts)
            ways = math.factorial(32) // (math.factorial(rest) * math.prod(map(math.factorial, counts)))
            ways *= math.factorial(K) // (math.factorial(K - used)
                                          * math.prod(math.factorial(i) ** c for i, c in enumerate(counts)))
            ways *= _onto_at_least(K - used, rest, least)
            total_shortfall = sum(c * u for c, u in zip(counts, shortfall, strict=True))
            for name, t in thresholds.items():
                if total_shortfall > t:
                    failing[name] += ways
            return
        for c in range(left + 1):
            counts[n] = c
            visit(n + 1, left - c)
        counts[n] = 0
    visit(0, 32)
    total = 32**K
    printed, corrected = Fraction(failing["printed"], total), Fraction(failing["corrected"], total)
    return {"K": K, "delta": delta, "mass": mass, "probability": printed,
            "violates_printed": printed > delta, "probability_corrected": corrected,
            "violates_corrected": corrected > delta}
