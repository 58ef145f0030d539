"""Algorithms 1 and 2 where the feature law has finite support, computed exactly.

When ``mu`` puts its mass on finitely many parameters ``w_j`` and the inputs are finitely
many, each term ``sgn(alpha_i) psi(x_i; w) psi(x; w)`` of Algorithm 2 (ICML and arXiv
eq. (11)) takes finitely many values, so the estimate ``E``, the mean of m of them times
``||alpha||_1``, has a finite law (a convolution power), and Algorithm 1's run is a finite
tree of such draws: :func:`estimate_law` and :func:`run_law` enumerate them in
:class:`fractions.Fraction`, every branch with its exact probability.  The state of the run
is ``alpha`` summed by input and sign, which is all Algorithm 2's law and ``f_t`` depend on.

On a point mass (``psi(x; w) = c`` for every w) with a constant label every coefficient keeps
one sign, every estimate is exact and the run is a geometric recurrence broken by the shrinks:
:func:`point_mass_run` computes it in closed form, piece by piece, for horizons where the
round-by-round recurrence in rational arithmetic would take minutes.

These are the ``exact`` evaluators of the claims on Algorithm 1 (``iln.alg1.update_sign``,
``iln.cor1.online_to_batch``, ``iln.lemma1.decomposition``); each is checked against the
shipped implementation (tests, and each claim's Monte Carlo conformance).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from iln import theory
from iln.shrinking_gradient import UPDATES

__all__ = [
    "MAX_BRANCHES",
    "MAX_OUTCOMES",
    "SHRINK",
    "Branch",
    "FiniteLaw",
    "NotEnumerable",
    "PointMassRun",
    "Round",
    "State",
    "Transition",
    "coefficients",
    "coordinates",
    "empty_state",
    "estimate_law",
    "inner",
    "norm_sq",
    "orthogonal_signs",
    "point_mass",
    "point_mass_run",
    "run_law",
    "state_laws",
    "step_coefficient",
]

#: the most outcomes one estimate's law may have before the enumeration refuses (a binomial
#: over m = m_proof draws has about a million: the tree of a run could not be walked).
MAX_OUTCOMES = 4096
#: the most branches (or states of a round) a run's enumeration may reach before it refuses.
MAX_BRANCHES = 200_000

#: Algorithm 1's shrink factor, exactly (1/4).
SHRINK = Fraction(theory.SHRINK_FACTOR)


class NotEnumerable(ValueError):
    """The instance's law is finite but too large to enumerate (or not finite at all)."""


@dataclass(frozen=True)
class FiniteLaw:
    """A feature law with finitely many parameters, on finitely many inputs.

    Attributes
    ----------
    name : str
    weights : tuple of Fraction
        ``P[w = w_j]``, positive, summing to 1.
    psi : tuple of tuple of Fraction
        ``psi[j][k] = psi(x_k; w_j)``, each ``|psi| < 1`` as both versions assume.
    """

    name: str
    weights: tuple[Fraction, ...]
    psi: tuple[tuple[Fraction, ...], ...]

    def __post_init__(self):
        if len(self.weights) != len(self.psi) or not self.psi:
            raise ValueError(f"law {self.name}: one row of psi per weight, at least one")
        if any(w <= 0 for w in self.weights) or sum(self.weights) != 1:
            raise ValueError(f"law {self.name}: weights must be positive and sum to 1")
        if len({len(row) for row in self.psi}) != 1:
            raise ValueError(f"law {self.name}: every row of psi must cover the same inputs")
        if any(abs(v) >= 1 for row in self.psi for v in row):
            raise ValueError(f"law {self.name}: |psi| < 1 is assumed (ICML and arXiv Section 2)")

    @property
    def inputs(self) -> int:
        """How many inputs the law is given on."""
        return len(self.psi[0])

    @functools.cached_property
    def gram(self) -> tuple[tuple[Fraction, ...], ...]:
        """``k(x_a, x_b) = E_w[psi(x_a; w) psi(x_b; w)]``, exactly (the oracle: checker side)."""
        n = self.inputs
        return tuple(tuple(sum((w * row[a] * row[b] for w, row in zip(self.weights, self.psi, strict=True)),
                               Fraction(0)) for b in range(n)) for a in range(n))


def point_mass(c: Fraction) -> FiniteLaw:
    """``psi(x; w) = c`` for every w, one input: ``RandomCoordinate(1)`` at ``x = c``."""
    return FiniteLaw(f"point mass psi = {c}", (Fraction(1),), ((Fraction(c),),))


def orthogonal_signs(s: Fraction, n: int = 2) -> FiniteLaw:
    """Sign features ``s sign(w . x)`` on n orthogonal inputs: independent fair signs.

    ``RandomSign(n, scale=s)`` on the unit vectors ``e_1, ..., e_n``: the signs of the
    coordinates of a Gaussian ``w``, so ``k(x_a, x_b) = s^2`` if ``a = b``, else 0.
    """
    patterns = list(itertools.product((1, -1), repeat=n))
    return FiniteLaw(f"signs {s} on {n} orthogonal inputs", tuple(Fraction(1, len(patterns)) for _ in patterns),
                     tuple(tuple(Fraction(s) * sign for sign in pattern) for pattern in patterns))


def coordinates(rows: Sequence[Sequence[Fraction]]) -> FiniteLaw:
    """Random coordinates: ``w`` uniform over the D coordinates, ``psi(x; w) = x_w``.

    ``RandomCoordinate(D)`` on the inputs ``rows`` (each of length D).
    """
    D = len(rows[0])
    return FiniteLaw(f"coordinates of {len(rows)} inputs in dimension {D}", tuple(Fraction(1, D) for _ in range(D)),
                     tuple(tuple(Fraction(row[d]) for row in rows) for d in range(D)))


#: ``alpha`` summed by input and sign: ``(plus_0, minus_0, plus_1, minus_1, ...)``, each >= 0.
State = tuple[Fraction, ...]


def empty_state(law: FiniteLaw) -> State:
    """``alpha^(1) = 0`` (both versions' Algorithm 1)."""
    return (Fraction(0),) * (2 * law.inputs)


def coefficients(state: State) -> tuple[Fraction, ...]:
    """``f = sum_k a_k Phi(x_k)``: the ``a_k`` of a state."""
    return tuple(state[2 * k] - state[2 * k + 1] for k in range(len(state) // 2))


def inner(law: FiniteLaw, a: Sequence[Fraction], x: int) -> Fraction:
    """``<sum_k a_k Phi(x_k), Phi(x_x)>``."""
    total = Fraction(0)
    for k, a_k in enumerate(a):
        if a_k:
            total += a_k * law.gram[k][x]
    return total


def norm_sq(law: FiniteLaw, a: Sequence[Fraction]) -> Fraction:
    """``||sum_k a_k Phi(x_k)||^2``."""
    total = Fraction(0)
    for i, a_i in enumerate(a):
        if a_i:
            total += a_i * inner(law, a, i)
    return total


def _convolution(p: dict, q: dict) -> dict:
    out: dict = defaultdict(Fraction)
    for (u, a), (v, b) in itertools.product(p.items(), q.items()):
        out[u + v] += a * b
    return dict(out)


def _power(law: dict, m: int) -> dict:
    """The law of a sum of m independent copies (repeated squaring)."""
    result, square = {Fraction(0): Fraction(1)}, law
    while m:
        if m & 1:
            result = _convolution(result, square)
        m >>= 1
        if m:
            square = _convolution(square, square)
    return result


def estimate_law(law: FiniteLaw, state: State, x: int, m: int) -> dict[Fraction, Fraction]:
    """The law of Algorithm 2's estimate ``E`` of ``<f, Phi(x_x)>`` with m samples.

    Each sample draws the index with probability ``|alpha_i| / ||alpha||_1`` and ``w ~ mu``;
    its term ``sgn(alpha_i) psi(x_i; w) psi(x; w)`` therefore has the law below, and ``E =
    ||alpha||_1 / m`` times the sum of m independent terms (ICML and arXiv eq. (11)).  With
    ``alpha = 0`` the estimate is 0 (ICML Algorithm 2 says so; arXiv's would divide by 0).

    Returns
    -------
    dict
        ``{value of E: probability}``.

    Raises
    ------
    NotEnumerable
        When the law would have more than :data:`MAX_OUTCOMES` values.
    """
    l1 = sum(state)
    if l1 == 0:
        return {Fraction(0): Fraction(1)}
    term: dict = defaultdict(Fraction)
    for k in range(law.inputs):
        for sign, mass in ((1, state[2 * k]), (-1, state[2 * k + 1])):
            if mass:
                for weight, row in zip(law.weights, law.psi, strict=True):
                    term[sign * row[k] * row[x]] += mass / l1 * weight
    if len(term) == 1:  # every term the same number: E is exact whatever m
        return {l1 * next(iter(term)): Fraction(1)}
    if math.comb(m + len(term) - 1, len(term) - 1) > MAX_OUTCOMES:
        raise NotEnumerable(f"E takes up to {math.comb(m + len(term) - 1, len(term) - 1)} values at m = {m} "
                            f"({len(term)} values a term): more than {MAX_OUTCOMES}")
    return {l1 * total / m: p for total, p in _power(dict(term), m).items()}


@dataclass(frozen=True)
class Round:
    """One round of one branch: ``alpha^(t)`` (as a state), ``E_t`` and whether it shrank."""

    state: State
    estimate: Fraction
    shrink: bool


@dataclass(frozen=True)
class Branch:
    """One sequence of Algorithm 2's outcomes, its probability, its rounds and ``alpha^(T+1)``."""

    probability: Fraction
    rounds: tuple[Round, ...]
    final: State


def step_coefficient(step: str, eta: Fraction, estimate: Fraction, label: Fraction) -> Fraction:
    """``alpha_t^(t+1)``: ``-eta (E_t - y_t)`` for the descent step, ``eta (E_t - y_t)`` as
    printed (ICML ``-eta (y_t - E_t)``, arXiv ``eta (E_t - y_t)``)."""
    if step not in UPDATES:
        raise ValueError(f"step must be one of {UPDATES}, got {step!r}")
    return (-eta if step == "descent" else eta) * (estimate - label)


def _next_state(state: State, x: int, coefficient: Fraction, shrink: bool) -> State:
    if shrink:
        return tuple(mass * SHRINK for mass in state)
    if coefficient == 0:
        return state
    slot = 2 * x + (coefficient < 0)
    return (*state[:slot], state[slot] + abs(coefficient), *state[slot + 1:])


def run_law(law: FiniteLaw, inputs: Sequence[int], labels: Sequence[Fraction], *, B: Fraction, eta: Fraction,
            m: int, step: str = "descent", start: State | None = None) -> list[Branch]:
    """Every branch of Algorithm 1's run (ICML and arXiv Algorithm 1), with its probability.

    Parameters
    ----------
    law : FiniteLaw
    inputs : sequence of int
        ``x_t`` as indices of the law's inputs, t = 1..T.
    labels : sequence of Fraction
        ``y_t`` in [-1, 1].
    B, eta : Fraction
    m : int
        Samples per call of Algorithm 2.
    step : {"descent", "printed"}
    start : State, optional
        ``alpha^(1)`` by input and sign (default 0, as Algorithm 1 starts): another start is
        an online algorithm of Lemma 1's kind that Algorithm 1 itself never is.

    Returns
    -------
    list of Branch
        Their probabilities sum to 1.
    """
    if len(inputs) != len(labels):
        raise ValueError("inputs and labels must have one entry per round")
    threshold = theory.SHRINK_THRESHOLD * Fraction(B)
    branches: list[tuple[Fraction, tuple[Round, ...], State]] = [
        (Fraction(1), (), empty_state(law) if start is None else tuple(start))]
    for x, y in zip(inputs, labels, strict=True):
        grown = []
        for probability, rounds, state in branches:
            for estimate, p in estimate_law(law, state, x, m).items():
                shrink = not abs(estimate) < threshold
                after = _next_state(state, x, step_coefficient(step, Fraction(eta), estimate, Fraction(y)), shrink)
                grown.append((probability * p, (*rounds, Round(state, estimate, shrink)), after))
        if len(grown) > MAX_BRANCHES:
            raise NotEnumerable(f"the run has more than {MAX_BRANCHES} branches by round {len(grown[0][1])}")
        branches = grown
    return [Branch(p, rounds, state) for p, rounds, state in branches]


@dataclass(frozen=True)
class Transition:
    """From ``alpha^(t)`` (a state of probability ``probability``): one outcome of ``E_t``."""

    estimate: Fraction
    probability: Fraction
    shrink: bool
    after: State


def state_laws(law: FiniteLaw, inputs: Sequence[int], labels: Sequence[Fraction], *, B: Fraction, eta: Fraction,
               m: int, step: str = "descent", start: State | None = None
               ) -> list[dict[State, tuple[Fraction, list[Transition]]]]:
    """The law of ``alpha^(t)`` round by round, with each state's transitions.

    The same run as :func:`run_law`, as a Markov chain: branches that reach the same state
    are merged, so a quantity that is a sum over rounds of a function of ``(alpha^(t), E_t)``
    (a loss, a penalty event, Lemma 1's terms) has its mean computed once per state and
    outcome instead of once per branch and round.

    Returns
    -------
    list of dict
        For t = 1..T: ``{state: (probability, transitions)}``.
    """
    threshold = theory.SHRINK_THRESHOLD * Fraction(B)
    current = {empty_state(law) if start is None else tuple(start): Fraction(1)}
    out = []
    for x, y in zip(inputs, labels, strict=True):
        table: dict[State, tuple[Fraction, list[Transition]]] = {}
        following: dict[State, Fraction] = defaultdict(Fraction)
        for state, p in current.items():
            moves = []
            for estimate, q in estimate_law(law, state, x, m).items():
                shrink = not abs(estimate) < threshold
                after = _next_state(state, x, step_coefficient(step, Fraction(eta), estimate, Fraction(y)), shrink)
                moves.append(Transition(estimate, q, shrink, after))
                following[after] += p * q
            table[state] = (p, moves)
        out.append(table)
        if len(following) > MAX_BRANCHES:
            raise NotEnumerable(f"the run reaches more than {MAX_BRANCHES} states by round {len(out) + 1}")
        current = dict(following)
    return out


@dataclass(frozen=True)
class PointMassRun:
    """Algorithm 1 on a point mass with a constant label, in closed form.

    Attributes
    ----------
    loss : Fraction
        ``sum_t l_t(f_t) = sum_t (p_t - y)^2 / 2`` with ``p_t = <f_t, Phi(x)> = E_t``.
    mean_prediction : Fraction
        ``(1/T) sum_t p_t``: the prediction of the averaged predictor ``f_S`` (Corollary 1).
    shrinks : int
    """

    loss: Fraction
    mean_prediction: Fraction
    shrinks: int


def _geometric(ratio: Fraction, n: int) -> Fraction:
    """``sum_{j < n} ratio^j``."""
    return Fraction(n) if ratio == 1 else (ratio**n - 1) / (ratio - 1)


def _first_shrink(q: Fraction, growth: Fraction, y: Fraction, threshold: Fraction, rounds: int) -> int | None:
    """The first ``j < rounds`` with ``|q growth^j + y| >= threshold``, or None.

    For ``growth <= 1`` the path ``q growth^j + y`` runs monotonically from ``q + y`` to ``y``,
    and ``|y| <= 1 < threshold``, so only ``j = 0`` can cross.  For ``growth > 1`` it crosses
    where ``|q| growth^j`` is within ``|y|`` of the threshold: a float estimate brackets that
    ``j`` and the exact powers decide it.
    """
    def crosses(j: int) -> bool:
        return abs(q * growth**j + y) >= threshold

    if crosses(0):
        return 0
    if growth <= 1 or q == 0:
        return None
    # log1p: a rate eta c^2 below 1e-16 (c near 0) rounds growth to 1.0 in float.
    log_growth = math.log1p(float(growth - 1))
    if log_growth == 0.0:  # below the smallest float: no crossing within any horizon a run can have
        return None
    low = max(0, math.floor(math.log(float((threshold - abs(y)) / abs(q))) / log_growth) - 2)
    high = math.ceil(math.log(float((threshold + abs(y)) / abs(q))) / log_growth) + 2
    return next((j for j in range(low, min(high, rounds)) if crosses(j)), None)


def point_mass_run(c: Fraction, y: Fraction, B: Fraction, eta: Fraction, T: int, step: str) -> PointMassRun:
    """Algorithm 1 from ``alpha^(1) = 0`` on ``psi(x; w) = c``, every label ``y``, exactly.

    Every coefficient keeps one sign (the printed step's ``eta (E_t - y)`` has the sign of
    ``-y`` while ``E_t`` stays on the other side of 0, the descent step's that of ``y`` while
    ``eta c^2 <= 1``), so every term of Algorithm 2 is the same number and ``E_t = p_t``
    exactly, whatever m.  With ``q_t = p_t - y`` and ``r = eta c^2`` a round multiplies
    ``q_t`` by ``1 - r`` (descent) or ``1 + r`` (printed) until ``|p_t| >= 16B``, when the shrink
    sets ``p_{t+1} = p_t / 4``: each piece between shrinks is a geometric series.

    Raises
    ------
    NotEnumerable
        For the descent step with ``eta c^2 > 1`` (the coefficients change sign, and the
        estimates are random).
    """
    if step not in UPDATES:
        raise ValueError(f"step must be one of {UPDATES}, got {step!r}")
    c, y, B, eta = Fraction(c), Fraction(y), Fraction(B), Fraction(eta)
    rate = eta * c * c
    growth = 1 - rate if step == "descent" else 1 + rate
    if growth < 0:
        raise NotEnumerable(f"eta c^2 = {rate} > 1: the descent step overshoots and the estimates are random")
    threshold = theory.SHRINK_THRESHOLD * B
    q, t, loss, total, shrinks = -y, 1, Fraction(0), Fraction(0), 0
    while t <= T and (q != 0 or y != 0):
        rounds = T - t + 1
        j = _first_shrink(q, growth, y, threshold, rounds)
        length = rounds if j is None else j + 1
        loss += q * q * _geometric(growth * growth, length) / 2
        total += q * _geometric(growth, length) + y * length
        t += length
        if j is not None:
            shrinks += 1
            q = (q * growth**j + y) * SHRINK - y
    return PointMassRun(loss=loss, mean_prediction=total / T, shrinks=shrinks)
