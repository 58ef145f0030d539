"""The l1 bound on Algorithm 1's coefficients: ICML Appendix A, Lemma 5 / arXiv Appendix A, Lemma 4.

``||alpha^(t)||_1 <= (16B + 1) eta t`` for the ``alpha^(t)`` Algorithm 1 obtains, every round,
every outcome of its estimates.  (The lemma's second part, the tail of ``E_t``, is
``iln.lemma5.tail`` in :mod:`verification.claims.iln.lemma5`.)

The claim is a specification (:mod:`verification.search`).  Its instances are runs of
Algorithm 1 **as printed** (ICML ``alpha_t^(t+1) = -eta (y_t - E_t)``, arXiv ``eta (E_t - y_t)``:
the step up the gradient, see ``iln.alg1.update_sign``) on point-mass features ``psi(x; w) = c``
for every w (``RandomCoordinate(1)`` at the input ``x = c``, ``0 <= c < 1``), with a label
sequence of one sign: ``y_t = -level`` on the rounds the bits of ``pattern`` (period 8) select,
``y_t = 0`` on the others.  Then every coefficient the printed step writes is
``eta (E_t - y_t) >= 0`` (``E_t >= 0``, ``y_t <= 0``), so every term of Algorithm 2 is the same
number ``c^2`` and ``E_t = c^2 ||alpha^(t)||_1`` exactly, whatever m: the run is deterministic
and its left side exact (:func:`alpha_l1_exact` in float64 for the search,
:func:`alpha_l1_certified` in rational arithmetic for the verdict).  Labels in ``[0, 1]`` give
the mirror image (``alpha -> -alpha``), the same norms.  Variables: ``B >= 1`` (Algorithm 1's
data ``B > 1``, Theorem 1's ``B >= 1``, the implementation's), ``eta > 0``, ``c in [0, 1)``,
``t >= 1``, ``pattern`` (the 256 label patterns of period 8), ``level in [0, 1]``.

Not reached (``scope``): label sequences of both signs, feature laws with more than one value
(there the coefficients can take both signs and the run is random: the lemma is a statement
about every outcome, which has no exact evaluator here yet), and the descent step, which is
not the algorithm the lemma is stated for (on a point mass with a constant label its
coefficients keep the label's sign, ``|E_t| <= |y|`` never shrinks, and the ratio is at most
``1 / (16B + 1)``; with other labels its coefficients change sign and the run is random).

Expected verdict, from the mathematics before any search: **holds**.  The lemma's own
induction is sound for either sign of the step: ``alpha^(1) = 0``; a shrink divides the norm
by 4; an update, taken only when ``|E_t| < 16B``, adds ``eta |E_t - y_t| < eta (16B + 1)``
(``|y_t| <= 1``).  So ``||alpha^(t)||_1 < (16B + 1) eta (t - 1)``: the ratio is below
``(t - 1) / t < 1`` at every instance, and on these deterministic runs far below
(``E_t = c^2 ||alpha^(t)||_1`` must stay below 16B for the norm to grow, and a shrink
quarters it): about ``(16B + 2) / (3 (16B + 1))`` at ``t = 3`` (``eta c^2`` just below ``16B``),
``16B / ((16B + 1) log(16B + 1))`` for long runs.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from iln import theory
from iln.features import RandomCoordinate
from iln.shrinking_gradient import shrinking_gradient
from verification import search
from verification.catalog import register, sources
from verification.verdicts import HOLDS, Verdict

#: the label patterns' period: bit ``(t - 1) mod PERIOD`` of ``pattern`` selects ``y_t = -level``.
PERIOD = 8


def labels(pattern: int, level, rounds: int) -> list:
    """``y_1, ..., y_rounds``: ``-level`` where bit ``(t - 1) mod PERIOD`` of ``pattern`` is set, else 0."""
    return [-level if (int(pattern) >> ((t - 1) % PERIOD)) & 1 else 0 * level for t in range(1, rounds + 1)]


def _printed_run(B, eta, c, t: int, pattern: int, level, zero):
    """``||alpha^(t)||_1`` of Algorithm 1 as printed, on the point mass ``c``, after t - 1
    rounds, in the arithmetic of its arguments (floats or Fractions).

    Every coefficient is ``eta (E_s - y_s) >= 0`` and ``E_s = c^2 ||alpha^(s)||_1`` (module
    docstring); a round whose ``|E_s| >= 16B`` quarters the norm.
    """
    # The shrink factor and threshold in the arguments' arithmetic (a float 1/4 would turn a
    # Fraction run into a float one).
    norm, threshold, shrink, c2 = zero, type(zero)(theory.SHRINK_THRESHOLD) * B, type(zero)(theory.SHRINK_FACTOR), c * c
    for y in labels(pattern, level, t - 1):
        estimate = c2 * norm
        if abs(estimate) < threshold:
            norm += eta * (estimate - y)
        else:
            norm *= shrink
    return norm


#: per run (B, eta, c, pattern, level): ``||alpha^(t)||_1`` for the t computed so far, float64.
#: The search asks for many t of the same run (its sweeps, its local moves): a run is extended,
#: never recomputed.
_RUNS: dict[tuple, list[float]] = {}
#: the most runs kept (each up to the cap on t): tens of megabytes at most.
_KEPT_RUNS = 512


def alpha_l1_exact(instance) -> np.ndarray:
    """``log ||alpha^(t)||_1`` at an instance (B, eta, c, t, pattern, level), float64, in the
    arithmetic of :func:`_printed_run`."""
    B, eta, c, level = (float(instance[k]) for k in ("B", "eta", "c", "level"))
    pattern, t = int(instance["pattern"]), int(instance["t"])
    if len(_RUNS) > _KEPT_RUNS:
        _RUNS.clear()
    norms = _RUNS.setdefault((B, eta, c, pattern, level), [0.0])
    threshold, c2 = theory.SHRINK_THRESHOLD * B, c * c
    while len(norms) < t:  # round s = len(norms) takes alpha^(s) to alpha^(s+1)
        norm, s = norms[-1], len(norms)
        y = -level if (pattern >> ((s - 1) % PERIOD)) & 1 else 0.0
        estimate = c2 * norm
        norms.append(norm + eta * (estimate - y) if abs(estimate) < threshold else norm * theory.SHRINK_FACTOR)
    return np.asarray(math.log(norms[t - 1]) if norms[t - 1] > 0 else -math.inf)


def alpha_l1_certified(instance) -> search.ExactValue:
    """``||alpha^(t)||_1`` at one instance in rational arithmetic (each float read exactly)."""
    B, eta, c = (Fraction(instance[k]) for k in ("B", "eta", "c"))
    norm = _printed_run(B, eta, c, int(instance["t"]), int(instance["pattern"]), Fraction(instance["level"]),
                        Fraction(0))
    assert isinstance(norm, Fraction)
    if norm == 0:
        return search.ExactValue(-math.inf, "0", "rational arithmetic")
    log = math.log(norm.numerator) - math.log(norm.denominator)
    # A long run's denominator has thousands of digits: shown to 17 significant digits then.
    text = (f"{norm.numerator}/{norm.denominator}" if norm.denominator.bit_length() <= 128
            else f"{float(norm):.17g} (the exact rational to 17 digits)")
    return search.ExactValue(log, text, "rational arithmetic")


def alpha_l1_trial(instance, seed) -> float:
    """``||alpha^(t)||_1`` of one run of the shipped Algorithm 1 with the printed step.

    m = 1: on these instances every term of Algorithm 2 is ``c^2``, so the run does not
    depend on m (the proof's default m would cost ``O(B^4 t)`` samples a round for nothing).
    """
    t = int(instance["t"])
    rounds = max(t - 1, 1)  # alpha^(1) = 0 is read off a one-round run
    run = shrinking_gradient(np.full((rounds, 1), float(instance["c"])),
                             np.asarray(labels(instance["pattern"], float(instance["level"]), rounds), dtype=float),
                             RandomCoordinate(1), B=float(instance["B"]), eta=float(instance["eta"]), m=1,
                             update="printed", seed=seed)
    return float(run.trace.alpha_l1[t - 1])


def alpha_l1_range(instance) -> tuple[float, float]:
    """A draw's a-priori range: Algorithm 1's rule adds at most ``eta (16B + 1)`` a round (an
    update only while ``|E_t| < 16B``, and ``|y_t| <= 1``)."""
    return 0.0, float((theory.SHRINK_THRESHOLD * instance["B"] + 1) * instance["eta"] * instance["t"])


ALPHA_L1 = search.Statement(
    id="iln.lemma5.alpha_l1",
    domain=search.Domain(
        B=search.Reals(1.0, math.inf, cap_high=1e6, per_decade=1),
        eta=search.Reals(0.0, math.inf, open_low=True, cap_low=1e-6, cap_high=1e6, per_decade=1),
        c=search.Reals(0.0, 1.0, open_high=True, per_decade=1),
        t=search.Integers(1, cap=2**10),
        pattern=search.Integers(0, high=2**PERIOD - 1),
        level=search.Reals(0.0, 1.0, per_decade=1),
    ),
    lhs=search.LeftSide("||alpha^(t)||_1 (Algorithm 1 as printed; deterministic on these instances)",
                        exact=alpha_l1_exact, sample=alpha_l1_trial, certify=alpha_l1_certified,
                        kind=search.EXPECTATION, sample_range=alpha_l1_range),
    printed="(16 * B + 1) * eta * t",
    # The bound iln.theory ships (the variance bound and the tail of E_t are built on it).
    shipped={"printed": lambda i: float(theory.alpha_l1_bound(i["B"], i["eta"], i["t"]))},
    scope="Algorithm 1 as printed (step eta (E_t - y_t)) on point-mass features psi(x; w) = c, c in [0, 1) "
          "(RandomCoordinate(1) at x = c), labels y_t in {0, -level} (a pattern of period 8; labels in [0, 1] "
          "are the mirror image): every coefficient is >= 0, E_t = c^2 ||alpha^(t)||_1 exactly whatever m, and "
          "the run is deterministic. Not reached: labels of both signs and feature laws with more than one "
          "value (the run is random there; no exact evaluator of the largest norm over its outcomes yet), "
          "and the descent step (not the algorithm the lemma is stated for).",
    plan=search.Plan(budget=3000, coarse=3),
)


def alpha_l1_sample(config, seed) -> dict:
    """The shipped Algorithm 1 run once at each instance the search confirms."""
    return search.confirm(ALPHA_L1, config, seed)


def alpha_l1_decide(records, config, alpha) -> Verdict:
    """Decided exactly at the searched instances, then the shipped run's conformance there."""
    return search.decide(ALPHA_L1, records, config, alpha)


_L1 = r"\|\alpha^{(t)}\|_1 \leq (16B + 1)\eta t"


register(search.as_claim(
    ALPHA_L1, title="l1 bound on Algorithm 1's coefficients",
    sources=sources(_L1, ICML="Appendix A, Lemma 5", arXiv="Appendix A, Lemma 4"),
    expected=HOLDS, trial=alpha_l1_sample, decide=alpha_l1_decide,
    # Runs of the shipped algorithm at each confirmed instance: each is deterministic, and a
    # run of t = 4096 rounds takes seconds; a run off the exact norm by more than the interval's
    # width (from 30% of the a-priori range at 4 runs) is shown.
    n_trials={"smoke": 2, "quick": 4, "full": 16},
))
