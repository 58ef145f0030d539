"""Instances of RKS's function classes and the data sets on which the RKS claims are checked.

Each instance is built deterministically from its name, so that a trial is a pure function of
(configuration, seed) in any process.  The finite instances put the whole distribution P and
the whole parameter law p on finitely many points, so that every risk, every member of F_p
and the minimum of the risk over F_p are exact (:mod:`iln.rks.function_class`).  The data sets of
the figure claims (:func:`dataset`, :data:`DATASETS`) are bundled, synthetic stand-ins for
RKS's, or a user's LIBSVM file.  What several claims share about them is here too: the grid
of a claim's points (:func:`grid`), their descriptions (:func:`described`), the figures' seeded
split (:func:`split`) and a figure claim's run on another data set (:func:`run_on`).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import linalg, special

from iln.features import FeatureFamily, RandomFourier
from iln.random_streams import child
from iln.rks.datasets import (
    LIBSVM_PREFIX,
    SKLEARN_DATASETS,
    Dataset,
    default_data_dir,
    load_libsvm,
    load_sklearn_dataset,
    standardize,
    train_test_split_seeded,
)
from iln.rks.function_class import (
    AtomFeatures,
    AtomMember,
    KernelMember,
    LabelledSupport,
    atom_member,
)
from iln.rks.synthetic_benchmarks import adult_like, kdd_like
from verification import catalog
from verification.verdicts import Verdict

__all__ = ["DATASETS", "DESCRIPTIONS", "ClassInstance", "atom_columns", "class_instance", "data_note",
           "dataset", "described", "grid", "largest_member_risk", "largest_risk", "risk_minimizer",
           "run_on", "split", "standardized", "training_rows"]


@dataclass(frozen=True)
class ClassInstance:
    """A feature law, a member f* of F_p with exact values, and a distribution P on a support.

    Attributes
    ----------
    name : str
    family : FeatureFamily
        Sampled by Algorithm 1 (only sampled and evaluated, never its oracle).
    member : AtomMember or KernelMember
        The fixed f* of RKS Lemmas 1-2, ``|beta| = C`` wherever the instance allows.
    support : LabelledSupport
        P: x uniform on the support, ``E[y | x]`` given.
    C : float
    sign_features : bool
        Whether every feature value is +-1 (``|phi| <= 1`` attained everywhere).
    """

    name: str
    family: FeatureFamily
    member: KernelMember | AtomMember
    support: LabelledSupport
    C: float
    sign_features: bool

    @property
    def target(self) -> np.ndarray:
        """f* on the support, exact."""
        return self.member.values(self.support.X)

    def features(self, W) -> np.ndarray:
        """``phi(x_i; w_k)`` on the support, shape ``(n, K)``."""
        return self.family.psi(self.support.X, W)


#: what each instance is and why it pushes against the claims (shown in the report).
DESCRIPTIONS = {
    "orthogonal": "32 points, 32 atoms of equal probability, phi = the +-1 entries of a Hadamard "
                  "matrix: the features are exactly orthogonal under P (the case RKS's discussion "
                  "singles out), |phi| = 1 everywhere, and f* has |beta(w)| = C at every atom with "
                  "random signs, so ||f*|| = C / sqrt(32) is small and the variance of the kitchen-sink "
                  "average, C^2 - ||f*||^2, is nearly the largest the class allows; labels: "
                  "E[y|x] = 0.8 times the majority vote of five Hadamard columns",
    "stumps": "the paper's decision stumps sign(x - t), t ~ N(0, 1), on 24 points spread over "
              "[-2.5, 2.5]: the atoms are the 25 intervals between the points (probabilities from "
              "the normal distribution function), |phi| = 1, beta = +-C alternating between "
              "intervals (the roughest edge member); labels E[y|x] = 0.8 sign(sin(2x))",
    "threshold": "the stumps instance's features and points with noiseless labels y = sign(x) "
                 "(E[y|x] = +-1), which one stump fits: the best member of F_p has a risk far "
                 "below that of f = 0 (hinge 0.30 against 1), so a member of F_w within the "
                 "lemmas' distance of it is a real demand where the noisy instances' are not; "
                 "f* is the instance's risk minimiser",
    "fourier": "random Fourier features cos(w.x + b), w ~ N(0, 2I), on 40 points in R^2, f* = "
               "C (0.5 k(x_1, .) - 0.3 k(x_2, .) + 0.2 k(x_3, .)) through the oracle kernel "
               "(continuous parameter law); labels E[y|x] = 0.7 sign(f*)",
}


@functools.cache
def class_instance(name: str, C: float = 1.0) -> ClassInstance:
    """The instance called ``name`` (see :data:`DESCRIPTIONS`) with the class scalar C."""
    family: FeatureFamily
    member: KernelMember | AtomMember
    if name == "orthogonal":
        table = linalg.hadamard(32).astype(np.float64)
        family = AtomFeatures(table, np.full(32, 1 / 32))
        signs = np.where(np.random.default_rng(32).random(32) < 0.5, -1.0, 1.0)
        member = atom_member(family, C * signs, C)
        vote = np.sign(table[:, [1, 2, 4, 8, 16]].sum(axis=1))
        support = LabelledSupport(family.support, 0.8 * vote)
        return ClassInstance(name, family, member, support, C, True)
    if name in ("stumps", "threshold"):
        x = np.linspace(-2.5, 2.5, 24)
        cdf = np.concatenate([[0.0], special.ndtr(x), [1.0]])
        # Atom j: the threshold lies between x_{j-1} and x_j; then sign(x_i - t) = +1 iff i >= j.
        table = np.where(np.arange(24)[:, None] >= np.arange(25)[None, :], 1.0, -1.0)
        family = AtomFeatures(table, np.diff(cdf))
        member = atom_member(family, C * np.where(np.arange(25) % 2 == 0, 1.0, -1.0), C)
        labels = 0.8 * np.sign(np.sin(2 * x)) if name == "stumps" else np.sign(x)
        return ClassInstance(name, family, member, LabelledSupport(family.support, labels), C, True)
    if name == "fourier":
        family = RandomFourier(2, gamma=1.0)
        X = np.random.default_rng(40).uniform(-1.5, 1.5, size=(40, 2))
        member = KernelMember(family, X[:3], np.array([0.5, -0.3, 0.2]), C)
        support = LabelledSupport(X, 0.7 * np.sign(member.values(X)))
        return ClassInstance(name, family, member, support, C, False)
    raise ValueError(f"unknown class instance {name!r}; known: {sorted(DESCRIPTIONS)}")



def grid(config, *axes) -> list[tuple]:
    """The points of a claim's grid: every combination of the values of ``axes``, the first
    outermost, in the order whose index ``j`` names a point's child seed in a trial.

    An axis is a key of ``config`` (its list of values: ``"instances"``, ``"K"``) or a tuple
    of the values themselves (``("best", "witness")``).
    """
    return list(itertools.product(*(config[axis] if isinstance(axis, str) else axis for axis in axes)))


def described(names, descriptions=DESCRIPTIONS) -> str:
    """``"name: description; ..."`` of the instances ``names`` (a claim's instances, for the report)."""
    return "; ".join(f"{name}: {descriptions[name]}" for name in names)


# The synthetic stand-ins are fixed data sets, like the bundled ones: one seed for all runs (the
# paper's year), and each trial's seed varies only the split and the features.  12,000 adult-like
# rows give 9,000 training points, so K up to 3,000 keeps K <= m/3, while a least squares fit at
# K = 2,048 stays near ten seconds on one core.
_SYNTHETIC_SEED = 2008
_SYNTHETIC_ROWS = {"adult_like": 12_000, "kdd_like": 20_000}

#: the data sets the figure claims know by name, and what each is (shown in the report).
DATASETS = {
    "adult_like": "synthetic adult-like data (iln.rks.synthetic_benchmarks.adult_like, 12,000 rows, "
                  "seed 2008): a9a's 123 one-hot binary columns of 14 attributes, 24% positive, a "
                  "logistic label with interactions; a stand-in for RKS's adult, not adult",
    "kdd_like": "synthetic KDD-Cup-99-like data (iln.rks.synthetic_benchmarks.kdd_like, 20,000 rows, "
                "seed 2008): 80% attacks, 80% duplicate rows; a stand-in for RKS's KDDCUP99",
    "breast_cancer": "scikit-learn's breast_cancer, 569 x 30 continuous coordinates",
    "digits": "scikit-learn's digits, even vs odd, 1797 x 64 pixel values 0-16",
    "diabetes": "scikit-learn's diabetes, 442 x 10, regression",
    LIBSVM_PREFIX + "PATH": "a user's LIBSVM file (iln.rks.datasets.load_libsvm), e.g. RKS's adult (a9a)",
}


#: short names of the data sets for a verdict's headline; the proxies say what they stand in for.
_LABELS = {"adult_like": "adult-like synthetic data", "kdd_like": "KDD-Cup-99-like synthetic data",
           "breast_cancer": "scikit-learn's breast_cancer", "digits": "scikit-learn's digits (even vs odd)",
           "diabetes": "scikit-learn's diabetes"}


def data_note(name: str) -> dict:
    """What a verdict on data set ``name`` was decided on, for its headline and its page
    (issue 20 item 4: a verdict reached only on substitute data says so).

    Parameters
    ----------
    name : str
        A name of :data:`DATASETS` or ``"libsvm:PATH"``.

    Returns
    -------
    dict
        ``dataset`` (the name), ``label`` (a short phrase: "adult-like synthetic data"),
        ``proxy`` (True unless the data is a user's file, which may be the paper's own) and
        ``description`` (:data:`DATASETS`' entry).
    """
    if name.startswith(LIBSVM_PREFIX):
        return {"dataset": name, "label": f"the LIBSVM file {name[len(LIBSVM_PREFIX):]}", "proxy": False,
                "description": DATASETS[LIBSVM_PREFIX + "PATH"]}
    if name not in _LABELS:
        raise ValueError(f"dataset name must be one of {sorted(_LABELS)} or '{LIBSVM_PREFIX}PATH', got {name!r}")
    return {"dataset": name, "label": _LABELS[name], "proxy": True, "description": DATASETS[name]}


@functools.cache
def dataset(name: str) -> Dataset:
    """The data set called ``name`` (see :data:`DATASETS`), raw (not standardized).

    Parameters
    ----------
    name : str
        A bundled data set (``"breast_cancer"``, ``"digits"``, ``"diabetes"``), a synthetic
        stand-in (``"adult_like"``, ``"kdd_like"``), or ``"libsvm:PATH"`` for a user's file
        (a relative path is one under ``$ILN_DATA_DIR``, never the current directory).

    Returns
    -------
    Dataset
    """
    if not isinstance(name, str):
        raise TypeError(f"dataset name must be a str, got {type(name).__name__}")
    if name.startswith(LIBSVM_PREFIX):
        return load_libsvm(_libsvm_path(name))
    if name == "adult_like":
        return adult_like(_SYNTHETIC_ROWS[name], seed=_SYNTHETIC_SEED)
    if name == "kdd_like":
        return kdd_like(_SYNTHETIC_ROWS[name], seed=_SYNTHETIC_SEED)
    if name in SKLEARN_DATASETS:
        return load_sklearn_dataset(name)
    known = [key for key in DATASETS if not key.startswith(LIBSVM_PREFIX)]
    raise ValueError(f"dataset name must be one of {known} or '{LIBSVM_PREFIX}PATH', got {name!r}")


def _libsvm_path(name: str) -> Path:
    # A claim never reads through the current directory: a relative path is one under the
    # data directory (the CLI's --data makes a path absolute before it reaches here).
    path = Path(name[len(LIBSVM_PREFIX):]).expanduser()
    return path if path.is_absolute() else default_data_dir() / path


def data_digests(names: list[str]) -> dict[str, str]:
    """The SHA-256 of each user's file among the data sets ``names`` (``"libsvm:PATH"``), by
    name: a figure claim's configuration on a user's file holds it, so that its stored trials
    are keyed by the file's content, not its path (a file replaced at the same path is run
    anew)."""
    return {name: hashlib.sha256(_libsvm_path(name).read_bytes()).hexdigest()
            for name in names if name.startswith(LIBSVM_PREFIX)}


def training_rows(name: str, test_fraction: float = 0.25) -> int:
    """Rows of the training part of a seeded split of :func:`dataset` ``(name)`` (the split of
    :func:`iln.rks.datasets.train_test_split_seeded`: ``round(test_fraction * n)`` go to test)."""
    n = dataset(name).n
    return n - round(test_fraction * n)


@functools.cache
def standardized(name: str) -> tuple[np.ndarray, np.ndarray]:
    """A data set of :func:`dataset`, each coordinate zero-meaned and scaled to unit variance
    (RKS Section 4), over the whole data set; returns ``(X, y)``."""
    data = dataset(name)
    return standardize(data.X).X_train, np.asarray(data.y)


def split(name: str, seed) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(X_train, y_train, X_test, y_test)``: a seeded 75/25 split of :func:`dataset` ``(name)``,
    standardized with the training statistics (RKS Section 4; the figure claims' trials)."""
    train, test = train_test_split_seeded(dataset(name), 0.25, seed)
    Xtr, Xte, _, _ = standardize(train.X, test.X)
    return Xtr, np.asarray(train.y), Xte, np.asarray(test.y)


def run_on(claim_id: str, dataset: str, *, seeds: int, profile: str = "quick", seed: int = 0) -> Verdict:
    """Run a figure claim's trials and decision on another data set (e.g. ``"libsvm:a9a"``).

    Parameters
    ----------
    claim_id : {"rks.fig1.vs_adaboost", "rks.fig2.alpha_inf_decay"}
        An RKS claim that runs on a data set.
    dataset : str
        A data set name of :func:`verification.claims.rks.instances.dataset`: bundled,
        synthetic (``"adult_like"``) or ``"libsvm:PATH"`` (relative paths also under
        ``$ILN_DATA_DIR``).
    seeds : int
        Trials (seeds), ``>= 2``.
    profile : str, default="quick"
        The profile whose grid is used.
    seed : int, default=0
        Master seed; trial i uses its child i.
    """
    figures = [c for c, claim in catalog.load().items() if c.startswith("rks.") and claim.with_data]
    if claim_id not in figures:
        raise ValueError(f"claim_id must be one of {figures}, got {claim_id!r}")
    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 2:
        raise ValueError(f"seeds must be an int >= 2, got {seeds!r}")
    claim = catalog.get(claim_id)
    config = {**claim.config(profile, data=dataset), "n_trials": seeds}
    master = np.random.SeedSequence(seed)
    records = [claim.trial(config, child(master, i)) for i in range(seeds)]
    return claim.decide(records, config, 1e-3)


@functools.cache
def risk_minimizer(name: str, loss: str, C: float = 1.0):
    """The minimiser f* of the true risk over all of F_p (RKS proof of Theorem 1), for a finite
    instance, as an :class:`~iln.rks.function_class.AtomMember`, and its risk.

    With ``alpha_j = p_j beta_j`` the class is ``{table (p * beta) : |beta_j| <= C}``, so the
    minimum is the box-constrained problem :meth:`LabelledSupport.minimize_risk` solves exactly.
    """
    inst = class_instance(name, C)
    if not isinstance(inst.family, AtomFeatures):
        raise ValueError(f"instance {name!r} has a continuous parameter law: its minimum over F_p "
                         "is not computed")
    table = inst.family.psi(inst.support.X, inst.family.support_atoms)
    beta, risk = inst.support.minimize_risk(table * inst.family.probabilities, C, loss)
    return atom_member(inst.family, np.clip(beta, -C, C), C), risk


def largest_risk(name: str, loss: str, C: float = 1.0) -> float:
    """The largest true risk of any function with ``|f| <= C`` on instance ``name``: an a-priori
    ceiling on the risk of every member of F_p and F_w (RKS eq. 6, 8), which makes the events
    of a tail claim that lie above it impossible.

    The conditional risk ``g(f) = P(y=1|x) c(f) + P(y=-1|x) c(-f)`` is convex in f, so its
    maximum over ``[-C, C]`` is at an end, and ``g(C) - g(-C) = E[y|x] (c(C) - c(-C))`` with
    ``c(C) <= c(-C)`` for both margin losses: the end is ``-C sign(E[y|x])``.
    """
    support = class_instance(name, C).support
    return support.risk(np.where(support.label_mean >= 0, -C, C), loss)


def atom_columns(name: str, C: float = 1.0) -> np.ndarray:
    """``phi(x_i; w_j)`` of every atom j on the support of the finite instance ``name``, shape
    ``(n, N)``: the vertices of the sets that F_w's members and the witnesses lie in.

    A member of F_w, ``sum_k alpha_k phi(.; w_k)`` with ``|alpha_k| <= C/K`` (RKS eq. 8), lies
    in the convex hull of ``{+-C phi(.; w_j)}``; the witness of Lemma 1's proof, the average of
    ``beta(w_k) phi(.; w_k)``, in that of ``{beta_j phi(.; w_j)}``.  A convex function of f
    (a risk, a distance to f*) is largest at a vertex.
    """
    inst = class_instance(name, C)
    if not isinstance(inst.family, AtomFeatures):
        raise ValueError(f"instance {name!r} has a continuous parameter law: its atoms are not enumerated")
    return inst.family.psi(inst.support.X, inst.family.support_atoms)


def largest_member_risk(name: str, loss: str, C: float = 1.0) -> float:
    """The largest true risk of any member of F_w (any K, any draw) on the finite instance
    ``name``: the risk is convex in f, so over the hull of ``{+-C phi_j}`` it is largest at a
    vertex (:func:`atom_columns`).  At most :func:`largest_risk`, and on the noisy instances
    well below it (a single feature is nearly uncorrelated with their labels)."""
    support, columns = class_instance(name, C).support, C * atom_columns(name, C)
    return max(support.risk(sign * v, loss) for v in columns.T for sign in (1.0, -1.0))
