"""Planted defects: mistakes a reimplementation of the papers could plausibly contain.

Each :class:`Defect` names the mistake, the paper statement it breaks, the source edits that
plant it at run time (:mod:`verification.selftest.injection`; no file is changed) and a
*probe*: a small deterministic computation of the library whose result the defect changes,
so that a test can see that the defect is really planted and really removed again.

The catalog covers Algorithm 1 (``iln/shrinking_gradient.py``), Algorithm 2
(``iln/estimator.py`` and its compiled kernels ``iln/numba_sampling.py``), the feature
families (``iln/features.py``), the formulas (``iln/theory.py``) and the Section 6 baselines
(``iln/baselines``).  Each edit sits on a code path that some claim of the quick profile runs;
whether a claim notices it is what :mod:`verification.selftest.mutation` measures.

Examples
--------
>>> from iln import theory
>>> before = theory.variance_bound_alpha(10, 2.0)
>>> with get("theory_variance_unsquared").applied():
...     theory.variance_bound_alpha(10, 2.0) == before
False
>>> theory.variance_bound_alpha(10, 2.0) == before
True
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from verification.selftest.injection import (
    CodeEdit,
    CompiledModuleEdit,
    Edit,
    apply_all,
    edits_digest,
    edits_json,
)

__all__ = ["DEFECTS", "Defect", "get", "names"]


@dataclass(frozen=True)
class Defect:
    """A planted mistake.

    Attributes
    ----------
    name : str
        Identifier, e.g. ``"alg2_drop_inverse_m"``.
    module : str
        The library file the mistake would be in.
    description : str
        The mistake, as a reimplementer could make it.
    breaks : str
        The paper statement it contradicts (both versions' numbering).
    edits : tuple of Edit
        The run-time source edits that plant it.
    probe : callable ``() -> ndarray``
        A deterministic computation of the library that the defect changes.
    check_added : str
        For a defect the catalog could not flag when it was planted (a gap, issue #8): the
        check added to catch it and why the earlier checks could not; empty otherwise.
    """

    name: str
    module: str
    description: str
    breaks: str
    edits: tuple[Edit, ...]
    probe: Callable[[], np.ndarray]
    check_added: str = ""

    @property
    def identity(self) -> str:
        """The defect's name and the digest of its edits (:func:`~verification.selftest.
        injection.edits_digest`): the runner stores the defect's trials under it, so an edited
        defect's trials are computed again instead of read from its earlier definition's."""
        return f"{self.name}@{edits_digest(self.edits)}"

    def apply(self) -> Callable[[], None]:
        """Plant the defect in this process; returns the function that removes it."""
        return apply_all(self.edits)

    @contextlib.contextmanager
    def applied(self) -> Iterator[Defect]:
        """The defect planted for the duration of the block."""
        undo = self.apply()
        try:
            yield self
        finally:
            undo()

    def to_json(self) -> dict:
        """The defect as the self-test document lists it: what it breaks, where, and its edits."""
        return {"name": self.name, "module": self.module, "description": self.description,
                "breaks": self.breaks, "check_added": self.check_added,
                "edits": edits_json(self.edits)}


# ------------------------------------------------------------------------------------------
# Probes: small, fixed computations of the library (no oracle needed unless stated).
# ------------------------------------------------------------------------------------------


def _algorithm1_probe(eta: float, B: float) -> np.ndarray:
    """Algorithm 1 on three copies of the point 0.5 with one coordinate, labels (1, 0, 0).

    With one coordinate every sample of Algorithm 2 reads it, so ``E_t`` is exact: round 1
    steps to ``alpha_1 = eta``, round 2 sees ``E_2 = eta / 4``, which with ``eta = 64`` lands
    exactly on the shrink threshold ``16 B`` at ``B = 1``.
    """
    from iln.features import RandomCoordinate
    from iln.shrinking_gradient import shrinking_gradient

    run = shrinking_gradient(np.full((3, 1), 0.5), np.array([1.0, 0.0, 0.0]), RandomCoordinate(1),
                             B=B, eta=eta, m=3, seed=0)
    return np.concatenate([run.trace.step, run.trace.alpha_l1, run.trace.shrink.astype(float)])


def _prediction_probe() -> np.ndarray:
    """Test-time prediction of a short run at (epsilon, delta) (Theorem 1, part 3)."""
    from iln.features import RandomCoordinate
    from iln.shrinking_gradient import shrinking_gradient

    X = np.array([[0.5, 0.1], [0.3, 0.6], [0.2, 0.2]])
    run = shrinking_gradient(X, np.array([1.0, -1.0, 0.5]), RandomCoordinate(2), B=1.0, eta=0.1,
                             m=50, seed=0)
    return run.predict(X[:2], seed=1, epsilon=0.05, delta=0.1)


@functools.cache
def _instance(kind: str):
    from iln.features import RandomCoordinate, RandomFourier

    rng = np.random.default_rng(3)
    if kind == "coordinate":
        return RandomCoordinate(6), np.array([1.5, -1.0, 0.75, -0.25]), rng.uniform(-0.9, 0.9, (4, 6))
    return RandomFourier(4, gamma=1.3), np.array([1.0, -1.0, 2.0, -0.5]), rng.standard_normal((4, 4))


def _estimator_probe(kind: str, method: str) -> np.ndarray:
    """One estimate of Algorithm 2 on a fixed instance with mixed-sign alpha."""
    from iln.estimator import estimate_scalar_product

    family, alpha, X = _instance(kind)
    return np.array([estimate_scalar_product(alpha, X, X[1] * 0.8, 2000, family, seed=5, method=method)])


def _sphere_probe() -> np.ndarray:
    """Norms of parameters drawn for ReLU neurons (w uniform on the unit sphere)."""
    from iln.features import RandomReLU

    W = RandomReLU(5).sample(4, np.random.default_rng(0))
    return np.linalg.norm(W[:, :5], axis=1)


def _kernel_probe() -> np.ndarray:
    """The oracle kernel of random-coordinate features on two points."""
    from iln.features import RandomCoordinate

    return RandomCoordinate(4).kernel(np.array([[0.5, 0.5, 0.0, 0.1], [0.2, -0.3, 0.4, 0.0]]))


def _theory_probe(name: str, *args) -> np.ndarray:
    from iln import theory

    return np.atleast_1d(np.asarray(getattr(theory, name)(*args), dtype=float))


def _baseline_probe(name: str) -> np.ndarray:
    """A short run of a Section 6 baseline: its per-round step sizes and predictions."""
    from iln.baselines import doubly_stochastic, fixed_random
    from iln.data import section6_data
    from iln.features import RandomCoordinate

    data = section6_data(10, 8, seed=0)
    family = RandomCoordinate(8)
    if name == "doubly_stochastic":
        res = doubly_stochastic(data.X, data.y, family, k=3, seed=1, gamma0=5.0, gamma1=0.5)
        return np.concatenate([res.steps, res.predictions])
    res = fixed_random(data.X, data.y, family, r=6, seed=1, eta=5.0)
    return res.predictions


# ------------------------------------------------------------------------------------------
# The catalog
# ------------------------------------------------------------------------------------------

_SG = "iln.shrinking_gradient"
_EST = "iln.estimator"
_NUMBA = "iln.numba_sampling"
_KERNELS = ("sum_products", "sum_products_serial")

_CATALOG = (
    Defect(
        name="alg1_ascent_step",
        module="iln/shrinking_gradient.py",
        description="Algorithm 1's new coefficient written as -eta (y_t - E_t) read as "
                    "eta (y_t - E_t): the residual's sign flipped, a step up the gradient.",
        breaks="ICML Lemma 1 / arXiv Lemma 1 (hat f_{t+1} = f_t - eta bar grad_t) and hence "
               "Theorem 1's regret bound (both versions).",
        edits=(CodeEdit(_SG, "shrinking_gradient", "step[t] = sign * eta * (E - y_t)",
                        "step[t] = sign * eta * (y_t - E)"),),
        probe=functools.partial(_algorithm1_probe, 0.1, 1.0),
    ),
    Defect(
        name="alg1_no_shrink",
        module="iln/shrinking_gradient.py",
        description="The shrink branch of Algorithm 1 records the shrink but forgets to divide "
                    "alpha by 4.",
        breaks="Algorithm 1's shrink step alpha^(t+1) = alpha^(t) / 4 (both versions); ICML "
               "Lemma 6 / arXiv Lemma 5 and the shrink penalty of Lemma 2 rest on it.",
        edits=(CodeEdit(_SG, "shrinking_gradient", "alpha[:t] *= shrink_factor",
                        "alpha[:t] *= 1.0"),),
        probe=functools.partial(_algorithm1_probe, 100.0, 1.0),
    ),
    Defect(
        name="alg1_shrink_boundary",
        module="iln/shrinking_gradient.py",
        description="Off by one in the shrink test: 'shrink if |E_t| > 16B' instead of "
                    "'step if |E_t| < 16B', so |E_t| = 16B takes a gradient step.",
        breaks="Algorithm 1's test |E_t| < 16B (both versions), which bounds every step by "
               "(16B+1) eta: ICML Lemma 5 / arXiv Lemma 4.",
        edits=(CodeEdit(_SG, "shrinking_gradient", "if abs(E) < threshold:",
                        "if abs(E) <= threshold:"),),
        probe=functools.partial(_algorithm1_probe, 64.0, 1.0),
        check_added="iln.alg1.rule and its 'tie' run, where E_2 = 16B exactly: the defect changes "
                    "Algorithm 1 only on rounds with |E_t| = 16B, which have probability zero on "
                    "every other instance, so no statistical check can see it.",
    ),
    Defect(
        name="alg1_threshold_without_B",
        module="iln/shrinking_gradient.py",
        description="The shrink threshold written as 16 instead of 16B.",
        breaks="Algorithm 1's test |E_t| < 16B (both versions); with B > 1 it shrinks estimates "
               "that ICML Lemma 6 / arXiv Lemma 5 allow, and the regret bound of Theorem 1.",
        edits=(CodeEdit(_SG, "shrinking_gradient", "threshold = theory.SHRINK_THRESHOLD * B",
                        "threshold = theory.SHRINK_THRESHOLD"),),
        probe=functools.partial(_algorithm1_probe, 64.0, 2.0),
    ),
    Defect(
        name="alg1_predict_printed_m",
        module="iln/shrinking_gradient.py",
        description="Test-time prediction picks m from the printed m = ||alpha||_1^2 "
                    "log(1/delta) / eps^2 instead of the two-sided Hoeffding m.",
        breaks="ICML Theorem 1, part 3 / arXiv Theorem 1, part 3: each prediction within eps with "
               "probability at least 1 - delta.",
        edits=(CodeEdit(_SG, "ShrinkingGradientResult.predict", "m = theory.test_time_m_corrected(",
                        "m = theory.test_time_m("),),
        probe=_prediction_probe,
    ),
    Defect(
        name="alg2_drop_inverse_m",
        module="iln/estimator.py",
        description="Algorithm 2's sum of the m terms not divided by m.",
        breaks="Algorithm 2, E = ||alpha||_1 / m sum_k (...) (eq. 11, both versions); "
               "unbiasedness, ICML Lemma 4 / arXiv Lemma 3.",
        edits=(CodeEdit(_EST, "_fast", "return float(norm1 / m * total)",
                        "return float(norm1 * total)"),),
        probe=functools.partial(_estimator_probe, "coordinate", "fast"),
    ),
    Defect(
        name="alg2_uniform_index",
        module="iln/estimator.py",
        description="Algorithm 2 draws the support point i uniformly instead of with probability "
                    "|alpha_i| / ||alpha||_1 (the importance weights lost).",
        breaks="Algorithm 2's i ~ q(i) = |alpha_i| / ||alpha||_1 (both versions); unbiasedness, "
               "ICML Lemma 4 / arXiv Lemma 3.",
        edits=(CodeEdit(_EST, "_fast", ".multinomial(m, np.abs(a) / norm1)",
                        ".multinomial(m, np.full(a.size, 1.0 / a.size))"),),
        probe=functools.partial(_estimator_probe, "coordinate", "fast"),
    ),
    Defect(
        name="alg2_drop_sign",
        module="iln/estimator.py",
        description="Algorithm 2 forgets sgn(alpha_i) in each term.",
        breaks="Algorithm 2's term sgn(alpha_i) psi(x_i; w) psi(x; w) (eq. 11, both versions); "
               "unbiasedness, ICML Lemma 4 / arXiv Lemma 3.",
        edits=(CodeEdit(_EST, "_fast", "counts.astype(np.int64), np.sign(a), key,",
                        "counts.astype(np.int64), np.abs(np.sign(a)), key,"),),
        probe=functools.partial(_estimator_probe, "coordinate", "fast"),
    ),
    Defect(
        name="alg2_fresh_w_at_query",
        module="iln/estimator.py",
        description="The vectorised Algorithm 2 evaluates psi(x; w) at a fresh draw of w instead "
                    "of the w used for psi(x_i; w).",
        breaks="Algorithm 2's product psi(x_i; w_k) psi(x; w_k) with one w_k (both versions), "
               "whose mean is the kernel k(x_i, x) (ICML eq. 2-3; arXiv eq. 2).",
        edits=(CodeEdit(_EST, "_numpy", "at_x = family.psi_indexed(x_row, np.zeros(n, dtype=np.intp), W)",
                        "at_x = family.psi_indexed(x_row, np.zeros(n, dtype=np.intp), "
                        "family.sample(n, rng))"),),
        probe=functools.partial(_estimator_probe, "coordinate", "numpy"),
    ),
    Defect(
        name="alg2_fixed_stream_key",
        module="iln/estimator.py",
        description="The compiled Algorithm 2 keys its random streams by a constant instead of "
                    "the call's seed: every call reuses the same parameters w.",
        breaks="Algorithm 2's fresh, independent draws w_k ~ mu (both versions), on which the "
               "Hoeffding tail (ICML Lemma 4 / arXiv Lemma 3) and Lemma 5's independence rest.",
        edits=(CodeEdit(_EST, "_fast", "key = seed_sequence.child_key(seed, 1)",
                        "key = random_streams.stream_key(np.random.SeedSequence(1))"),),
        probe=functools.partial(_estimator_probe, "coordinate", "fast"),
    ),
    Defect(
        name="numba_fourier_variance",
        module="iln/numba_sampling.py",
        description="The compiled sampler of random Fourier features draws w ~ N(0, gamma I) "
                    "instead of N(0, 2 gamma I).",
        breaks="The feature family's mu, hence k(x, x') = E_w[psi psi] (ICML eq. 2-3; arXiv "
               "eq. 2) and the unbiasedness of Algorithm 2 (ICML Lemma 4 / arXiv Lemma 3).",
        edits=(CompiledModuleEdit(_NUMBA, "s = math.sqrt(2.0 * params[0])",
                                  "s = math.sqrt(params[0])", _KERNELS),),
        probe=functools.partial(_estimator_probe, "fourier", "fast"),
        check_added="the 'fourier_scale' instance of iln.alg2.unbiased (gamma ||x - x_1||^2 = ln 4, "
                    "bias 1/8 of ||alpha||_1 under the defect): on the 'fourier' instance the defect "
                    "shifts E's mean by 2.5% of ||alpha||_1, below the 5% the quick profile resolves.",
    ),
    Defect(
        name="numba_coordinate_off_by_one",
        module="iln/numba_sampling.py",
        description="The compiled coordinate draw floor(u (D - 1)) never picks the last "
                    "coordinate.",
        breaks="w uniform over the D coordinates (ICML Section 6), hence k(x, x') = x.x'/D and "
               "the unbiasedness of Algorithm 2 (ICML Lemma 4 / arXiv Lemma 3).",
        edits=(CompiledModuleEdit(_NUMBA, "return state, int(u * dim)",
                                  "return state, int(u * (dim - 1))", _KERNELS),),
        probe=functools.partial(_estimator_probe, "coordinate", "fast"),
        check_added="the 'end_coordinates' instance of iln.alg2.unbiased (inputs on the first and "
                    "last coordinates, bias 16% of ||alpha||_1 under the defect): on the earlier "
                    "instances, whose coordinates are alike, the bias is at most 0.5%.",
    ),
    Defect(
        name="fourier_sqrt2_amplitude",
        module="iln/features.py",
        description="Random Fourier features with Rahimi & Recht's sqrt(2) cos(w.x + b), "
                    "whose absolute value reaches sqrt(2) > 1.",
        breaks="The assumption |psi(x; w)| < 1 (ICML and arXiv Section 2) and the family's "
               "kernel exp(-gamma ||x - x'||^2) / 2.",
        edits=(CodeEdit("iln.features", "RandomFourier._activation", "return np.cos(z)",
                        "return np.sqrt(2.0) * np.cos(z)"),),
        probe=functools.partial(_estimator_probe, "fourier", "numpy"),
    ),
    Defect(
        name="sphere_neuron_gaussian_w",
        module="iln/features.py",
        description="Neuron features draw w ~ N(0, I) and forget to normalise it onto the sphere.",
        breaks="w uniform on the unit sphere (ICML Section 1's motivating case), hence the "
               "arc-cosine kernel of the ReLU family and the unbiasedness of Algorithm 2.",
        edits=(CodeEdit("iln.features", "SphereNeuron.sample",
                        "return np.column_stack([g / norms, np.zeros(n)])",
                        "return np.column_stack([g, np.zeros(n)])"),),
        probe=_sphere_probe,
    ),
    Defect(
        name="coordinate_kernel_without_D",
        module="iln/features.py",
        description="The oracle kernel of random-coordinate features written x.x' instead of "
                    "x.x' / D.",
        breaks="k(x, x') = E_w[psi(x; w) psi(x'; w)] (ICML eq. 2-3; arXiv eq. 2) for w uniform "
               "over D coordinates (ICML Section 6).",
        edits=(CodeEdit("iln.features", "RandomCoordinate._kernel", "return X @ Y.T / self.dim",
                        "return X @ Y.T"),),
        probe=_kernel_probe,
    ),
    Defect(
        name="theory_hoeffding_range",
        module="iln/theory.py",
        description="The corrected Hoeffding tail computed with range ||alpha||_1 instead of "
                    "2 ||alpha||_1: 2 exp(-2 m eps^2 / ||alpha||_1^2).",
        breaks="ICML Lemma 4 / arXiv Lemma 3 corrected: 2 exp(-m eps^2 / (2 ||alpha||_1^2)) for "
               "terms in [-||alpha||_1, ||alpha||_1].",
        edits=(CodeEdit("iln.theory", "_tail_corrected",
                        "np.exp(-_hoeffding_exponent(m, epsilon, alpha_l1) / 2.0)",
                        "np.exp(-2.0 * _hoeffding_exponent(m, epsilon, alpha_l1))"),),
        probe=functools.partial(_theory_probe, "hoeffding_tail_corrected", 4, 0.5, 1.0),
    ),
    Defect(
        name="theory_variance_unsquared",
        module="iln/theory.py",
        description="Lemma 3's variance bound written ||alpha||_1 / m instead of ||alpha||_1^2 / m.",
        breaks="ICML Lemma 3 / arXiv Lemma 6: V[E_t] <= ((16B+1) eta t)^2 / m.",
        edits=(CodeEdit("iln.theory", "variance_bound", "_alpha_l1_bound(B, eta, t) ** 2 / m",
                        "_alpha_l1_bound(B, eta, t) / m"),
               CodeEdit("iln.theory", "variance_bound_alpha", "alpha_l1**2 / m", "alpha_l1 / m")),
        probe=functools.partial(_theory_probe, "variance_bound_alpha", 10, 2.0),
    ),
    Defect(
        name="theory_test_time_one_sided",
        module="iln/theory.py",
        description="The corrected test-time sample size from a one-sided Hoeffding bound: "
                    "||alpha||_1^2 log(2/delta) / eps^2, half the two-sided one.",
        breaks="ICML / arXiv Theorem 1, part 3 with the corrected Hoeffding tail: "
               "m = 2 ||alpha||_1^2 log(2/delta) / eps^2.",
        edits=(CodeEdit("iln.theory", "_test_time_m",
                        "samples = 2.0 * alpha_l1**2 * math.log(2.0 / delta) / epsilon0**2",
                        "samples = alpha_l1**2 * math.log(2.0 / delta) / epsilon0**2"),),
        probe=functools.partial(_theory_probe, "test_time_m_corrected", 0.1, 0.05, 1.0),
    ),
    Defect(
        name="dsgd_constant_step",
        module="iln/baselines/doubly_stochastic.py",
        description="DSGD ignores its decay and runs every schedule at the constant step gamma0.",
        breaks="Dai et al.'s step gamma_t = gamma0 / (1 + gamma1 (t - 1)), the schedules the "
               "ICML Section 6 comparison explores for every method.",
        edits=(CodeEdit("iln.baselines.doubly_stochastic", "_descend",
                        "step_sizes(T, gamma0, gamma1) for", "step_sizes(T, gamma0, 0.0) for"),),
        probe=functools.partial(_baseline_probe, "doubly_stochastic"),
        check_added="iln.sec6.baselines, which replays every round of DSGD and Fixed-Random from "
                    "the Section 6 description: the only earlier claim that runs DSGD, "
                    "iln.sec6.figure1, keeps its verdict (violated: Fixed-Random has the lower "
                    "loss) whatever DSGD does, so it could not flag a DSGD made worse.",
    ),
    Defect(
        name="fixed_random_resampled",
        module="iln/baselines/fixed_random.py",
        description="Fixed-Random draws new features for every training point instead of one "
                    "set shared by all points.",
        breaks="ICML Section 6: Fixed-Random samples its features once and uses them for every "
               "point (Rahimi & Recht's random features).",
        edits=(CodeEdit("iln.baselines.fixed_random", "_features",
                        "Phi = feature_matrix(family, X, W) / math.sqrt(r)",
                        "Phi = np.vstack([feature_matrix(family, X[j : j + 1], family.sample("
                        "r, random_streams.generator(random_streams.child(seed, 1, j)))) "
                        "for j in range(X.shape[0])]) / math.sqrt(r)"),),
        probe=functools.partial(_baseline_probe, "fixed_random"),
    ),
)

#: the catalog, by name.
DEFECTS: dict[str, Defect] = {d.name: d for d in _CATALOG}


def names() -> list[str]:
    """The defects' names, in catalog order."""
    return list(DEFECTS)


def get(name: str) -> Defect:
    """The defect called ``name``; ``ValueError`` naming it when unknown."""
    if not isinstance(name, str):
        raise TypeError(f"defect must be a str (a defect name), got {type(name).__name__}")
    if name not in DEFECTS:
        raise ValueError(f"unknown defect {name!r}; known: {', '.join(DEFECTS)}")
    return DEFECTS[name]
