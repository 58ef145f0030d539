"""Seeded synthetic stand-ins for the benchmark data sets of Rahimi & Recht's Section 4.

Rahimi & Recht, *Weighted Sums of Random Kitchen Sinks*, Section 4 runs
Random Kitchen Sinks and AdaBoost on *adult* ("roughly 32,000 training instances. Each
categorical variable was replaced by a binary indicator variable over the categories,
resulting in 123 dimensions"), *KDDCUP99* ("roughly 5,000,000 127-dimensional training
instances, subsampled to 50,000") and *activity*.  None of them can be downloaded here, so
this module builds data sets with their *structure*: the properties that decide how decision
stumps and unconstrained least squares behave on them (binary one-hot columns, many repeated
rows, class shares).  They are not the real data: every number a check reports on them is a
number about the stand-in, and says so.  A user with the real files runs on them through
:func:`iln.rks.datasets.load_libsvm`.

* :func:`adult_like`: 14 attributes coded one-hot into the 123 binary columns of LIBSVM's
  ``a9a``, about 24% positive, label from a logistic model with a few interactions.
* :func:`kdd_like`: the 41 connection attributes of KDD Cup 99 (3 symbolic ones one-hot),
  about 80% attacks, most attack rows exact copies of a few flood records.

Both return an :class:`iln.rks.datasets.Dataset` with labels in {-1, +1}, raw (not standardized:
RKS standardizes, :func:`iln.rks.datasets.standardize` does it).  Every random draw comes from the
explicit ``seed`` through :func:`iln.random_streams.generator`, so the same ``(n, seed)`` gives
the same arrays in any process and with any number of threads; draws are made in one fixed
order by numpy (no threads involved).
"""

from __future__ import annotations

import numpy as np

from iln import arguments, random_streams
from iln.rks.datasets import Dataset

__all__ = ["ADULT_ATTRIBUTES", "KDD_ATTACK_SHARE", "KDD_KINDS", "adult_like", "duplicate_share",
           "kdd_like"]

# ------------------------------------------------------------------------------------------
# adult
# ------------------------------------------------------------------------------------------
#: (attribute, number of one-hot columns) in the order of LIBSVM's a9a coding: six continuous
#: attributes cut into quantile bins (capital gain and loss: zero or not), eight categorical
#: ones one column a category.  The widths add up to a9a's 123 columns.
ADULT_ATTRIBUTES = (
    ("age", 5), ("workclass", 8), ("fnlwgt", 5), ("education", 16), ("education-num", 5),
    ("marital-status", 7), ("occupation", 14), ("relationship", 6), ("race", 5), ("sex", 2),
    ("capital-gain", 2), ("capital-loss", 2), ("hours-per-week", 5), ("native-country", 41),
)

# Category shares, rounded from the UCI adult training file's documented marginals, so that the
# one-hot columns have adult's sparsity pattern: a few dense columns and many rare ones (the
# rare ones are where a stump on a standardized column is most often constant on the data).
_WORKCLASS = (0.70, 0.08, 0.065, 0.04, 0.035, 0.03, 0.0005, 0.0002)  # Private first
_EDUCATION = (0.32, 0.22, 0.16, 0.053, 0.042, 0.036, 0.033, 0.029, 0.02, 0.018, 0.016, 0.013,
              0.013, 0.01, 0.005, 0.0016)  # HS-grad, Some-college, Bachelors, Masters, ...
# Years of schooling of each education category above (adult's education-num), which orders
# them: the latent status shifts people towards more schooling.
_EDUCATION_YEARS = (9, 10, 13, 14, 11, 7, 12, 6, 4, 15, 5, 8, 16, 3, 2, 1)
_MARITAL = (0.46, 0.33, 0.14, 0.03, 0.03, 0.013, 0.0007)  # Married-civ-spouse, Never-married, ...
_OCCUPATION = (0.127, 0.126, 0.125, 0.116, 0.112, 0.101, 0.061, 0.049, 0.042, 0.03, 0.028, 0.02,
               0.005, 0.0003)  # Prof-specialty, Craft-repair, Exec-managerial, ...
_WHITE_COLLAR = (0, 2, 4, 10)  # Prof-specialty, Exec-managerial, Sales, Tech-support
_RACE = (0.854, 0.096, 0.032, 0.01, 0.008)
# Missing values (adult's "?"): the row gets no 1 in that attribute's block, as in a9a.
_MISSING = {"workclass": 0.056, "occupation": 0.057, "native-country": 0.018}
# Native country: the United States, Mexico, then 39 countries with Zipf-like shares.
_COUNTRY = np.concatenate([[0.896, 0.02], 0.066 * (1 / np.arange(1, 40)) / np.sum(1 / np.arange(1, 40))])
# The logistic model's intercept, chosen (with n = 200,000, seed 0) so that about 24% of the
# labels are +1, adult's share (24.1% of the training file earn more than $50K).
_ADULT_INTERCEPT = -2.75


def _categorical(rng: np.random.Generator, logits: np.ndarray) -> np.ndarray:
    """One category a row from row-wise ``logits`` of shape (n, k) (Gumbel-max: exact and
    vectorized, one uniform a cell, so the draws used do not depend on the values)."""
    return np.argmax(logits + rng.gumbel(size=logits.shape), axis=1)


def _shares(rng: np.random.Generator, n: int, shares, shift=None) -> np.ndarray:
    """Categories with base ``shares``, each row's log-shares moved by ``shift`` (n, k)."""
    logits = np.broadcast_to(np.log(np.asarray(shares, dtype=np.float64)), (n, len(shares)))
    return _categorical(rng, logits if shift is None else logits + shift)


def _one_hot(codes: list[np.ndarray], widths: list[int]) -> np.ndarray:
    """The columns of each attribute's indicator block side by side; code -1 (missing) gives
    a block of zeros."""
    n = codes[0].shape[0]
    X = np.zeros((n, sum(widths)), dtype=np.float64)
    offset = 0
    for code, width in zip(codes, widths, strict=True):
        present = code >= 0
        X[np.flatnonzero(present), offset + code[present]] = 1.0
        offset += width
    return X


def _with_missing(rng: np.random.Generator, code: np.ndarray, share: float) -> np.ndarray:
    return np.where(rng.random(code.shape[0]) < share, -1, code)


def _seed_text(seed) -> str:
    sequence = random_streams.as_seed_sequence(seed)
    return f"{sequence.entropy}" + (f", spawn key {tuple(sequence.spawn_key)}" if sequence.spawn_key else "")


def adult_like(n: int = 32_561, *, seed) -> Dataset:
    """A synthetic data set with the structure of *adult* as RKS Section 4 uses it (LIBSVM a9a).

    Each row is a person with 14 attributes (:data:`ADULT_ATTRIBUTES`), drawn from a latent
    "status" ``z ~ N(0, 1)``, sex and age: schooling, occupation, hours, capital gains and the
    label rise with ``z``; marriage and relationship follow age and sex.  The label is +1 with
    probability ``sigmoid(score)``, where ``score`` has main effects (marriage, schooling, age,
    capital gain and loss, hours) and three interactions (married x degree, white-collar x long
    hours, capital gain x age over the median).

    Parameters
    ----------
    n : int, default=32561
        Rows (a9a's training file has 32,561; RKS: "roughly 32,000"), from 2 up.
    seed : int or numpy.random.SeedSequence
        Keyword only, required.

    Returns
    -------
    Dataset
        ``X`` of shape ``(n, 123)`` with 0/1 entries, ``y`` in {-1, +1}; name
        ``"adult_like"``, task ``"classification"``.

    Notes
    -----
    Shared with a9a: 123 binary columns in 14 one-hot blocks of a9a's widths (at most one 1 a
    block, 13 to 14 ones a row, so about 89% of the entries are 0); continuous attributes as
    quantile bins (even shares), categorical ones with adult's rounded category shares (a few
    dense columns, many rare ones: over a third of the columns are 1 on fewer than 1% of rows);
    missing workclass, occupation and country as all-zero blocks; education-num a function of
    education (two blocks that duplicate each other's information, as in adult); about 24%
    positive labels; labels noisy (a logistic model: logistic regression on 30,000 rows is
    right on about 83% of new ones, near what it reaches on adult); some rows repeated exactly,
    as binned binary codings make them (about 9% at the default size).

    Not shared: the real joint distribution (the dependencies here are a handful chosen by
    hand, not adult's), the real label mechanism and error rates, the real order of the
    category columns within a block, and the test file (draw a second set with another seed).
    A verdict reached on this set is about the stand-in, not about adult.

    Examples
    --------
    >>> data = adult_like(1000, seed=0)
    >>> data.X.shape, sorted(set(data.X.ravel().tolist()))
    ((1000, 123), [0.0, 1.0])
    """
    n = arguments.length(n, "n", 2)
    rng = random_streams.generator(random_streams.as_seed_sequence(seed))
    z = rng.standard_normal(n)
    male = rng.random(n) < 0.67
    age = rng.integers(0, 5, n)  # quantile bins: even shares
    workclass = _with_missing(rng, _shares(rng, n, _WORKCLASS), _MISSING["workclass"])
    fnlwgt = rng.integers(0, 5, n)  # census sampling weight: unrelated to the label in adult
    years = np.asarray(_EDUCATION_YEARS, dtype=np.float64)
    education = _shares(rng, n, _EDUCATION, 0.35 * np.outer(z, (years - years.mean()) / years.std()))
    # adult's education-num is the schooling of the education category: a function of it,
    # cut here into five bins (<= 8, 9, 10, 11-12, >= 13 years).
    education_num = np.searchsorted([8.5, 9.5, 10.5, 12.5], years[education])
    # The young are mostly never married; marriage becomes likely from the second age bin on.
    married_shift = np.zeros((n, len(_MARITAL)))
    married_shift[:, 0] = np.array([-2.0, -0.3, 0.3, 0.5, 0.3])[age]
    married_shift[:, 1] = np.array([1.5, 0.0, -0.8, -1.2, -1.5])[age]
    marital = _shares(rng, n, _MARITAL, married_shift)
    married = marital == 0
    occupation_shift = np.zeros((n, len(_OCCUPATION)))
    occupation_shift[:, list(_WHITE_COLLAR)] = 0.6 * z[:, None]
    occupation = _with_missing(rng, _shares(rng, n, _OCCUPATION, occupation_shift), _MISSING["occupation"])
    # Relationship follows marriage and sex (Husband = 0, Wife = 4); the unmarried spread over
    # Not-in-family, Own-child (the young), Unmarried and Other-relative.
    single_shift = np.zeros((n, 4))
    single_shift[:, 1] = np.array([1.5, 0.0, -1.5, -2.5, -3.0])[age]
    single = np.array([1, 2, 3, 5])[_shares(rng, n, (0.5, 0.2, 0.2, 0.1), single_shift)]
    relationship = np.where(married, np.where(male, 0, 4), single)
    race = _shares(rng, n, _RACE)
    sex = np.where(male, 0, 1)
    gain = rng.random(n) < 1 / (1 + np.exp(-(-2.6 + 0.8 * z)))  # about 8% have capital gains
    loss = rng.random(n) < 0.047
    hours = np.clip(np.round(2 + 0.5 * z + 0.6 * male - 0.4 + rng.normal(0, 1.1, n)), 0, 4).astype(int)
    country = _with_missing(rng, _shares(rng, n, _COUNTRY), _MISSING["native-country"])
    white_collar = np.isin(occupation, _WHITE_COLLAR)
    degree = years[education] >= 13
    score = (_ADULT_INTERCEPT + 1.4 * married + 0.6 * (years[education] - 10) / 2.5
             + np.array([-1.5, -0.3, 0.3, 0.5, 0.2])[age] + 2.0 * gain + 0.8 * loss + 0.3 * (hours - 2)
             + 0.3 * z
             # the interactions: a stump sees one column at a time, so these need several
             + 0.8 * (married & degree) + 0.7 * (white_collar & (hours >= 3)) + 0.8 * (gain & (age >= 3)))
    y = np.where(rng.random(n) < 1 / (1 + np.exp(-score)), 1.0, -1.0)
    codes = [age, workclass, fnlwgt, education, education_num, marital, occupation, relationship,
             race, sex, gain.astype(int), loss.astype(int), hours, country]
    X = _one_hot(codes, [width for _, width in ADULT_ATTRIBUTES])
    return Dataset(X, y, "adult_like", "classification",
                   f"synthetic adult-like data (iln.rks.synthetic_benchmarks.adult_like, n={n}, "
                   f"seed {_seed_text(seed)}): a9a's 123-column one-hot structure, not the adult data")


# ------------------------------------------------------------------------------------------
# KDD Cup 99
# ------------------------------------------------------------------------------------------
_PROTOCOLS, _SERVICES, _FLAGS = 3, 70, 11
# KDD Cup 99's 38 numeric attributes, by kind of value (the order within a kind follows the
# data set's documentation): how a latent value becomes the recorded one.
_NUMERIC = (
    ("seconds", 1),    # duration: mostly 0
    ("bytes", 2),      # src_bytes, dst_bytes: heavy-tailed
    ("binary", 1),     # land
    ("counter", 4),    # wrong_fragment, urgent, hot, num_failed_logins
    ("binary", 1),     # logged_in
    ("counter", 8),    # num_compromised, root_shell, ..., num_outbound_cmds
    ("binary", 2),     # is_host_login, is_guest_login
    ("window", 2),     # count, srv_count: connections in the last two seconds, 0-511
    ("rate", 7),       # serror_rate, ..., srv_diff_host_rate
    ("host", 2),       # dst_host_count, dst_host_srv_count: 0-255
    ("rate", 8),       # dst_host_same_srv_rate, ..., dst_host_srv_rerror_rate
)
#: (kind, share of rows, attack, protocol, services, templates, share of rows copied from a
#: template): the shares of the connection kinds in KDD Cup 99's 10% training file (smurf
#: 56.8%, neptune 21.7%, normal 19.7%, the rest rare attacks); floods are a few records
#: repeated (Tavallaee et al. 2009 count 93% of the attack records of the full training set as
#: duplicates, 16% of the normal ones).
KDD_KINDS = (
    ("smurf", 0.5684, True, 0, 1, 3, 0.995),
    ("neptune", 0.2170, True, 1, 6, 6, 0.98),
    ("normal", 0.1969, False, 1, 12, 400, 0.16),
    ("back", 0.0045, True, 1, 1, 40, 0.6),
    ("satan", 0.0032, True, 1, 20, 30, 0.5),
    ("ipsweep", 0.0025, True, 0, 2, 20, 0.6),
    ("portsweep", 0.0021, True, 1, 20, 20, 0.5),
    ("warezclient", 0.0021, True, 1, 1, 30, 0.3),
    ("teardrop", 0.0020, True, 2, 1, 3, 0.95),
    ("rare", 0.0013, True, 1, 5, 50, 0.1),  # pod, nmap, guess_passwd, buffer_overflow, ...
)
#: share of attack rows, from :data:`KDD_KINDS` (80.3%; the normal class is the minority).
KDD_ATTACK_SHARE = sum(kind[1] for kind in KDD_KINDS if kind[2])


def _kdd_numeric(rng: np.random.Generator, center: np.ndarray, rows: int) -> np.ndarray:
    """``rows`` records of the 38 numeric attributes around a kind's latent ``center``."""
    latent = center + 0.5 * rng.standard_normal((rows, center.size))
    columns, start = [], 0
    for kind, width in _NUMERIC:
        block = latent[:, start:start + width]
        start += width
        if kind == "seconds":
            columns.append(np.where(block > 1, np.round(np.exp(block)), 0.0))
        elif kind == "bytes":
            columns.append(np.round(np.exp(3 * block + 5)))
        elif kind == "binary":
            columns.append((block > 0).astype(np.float64))
        elif kind == "counter":
            columns.append(np.maximum(np.round(block - 1.5), 0.0))
        elif kind == "window":
            columns.append(np.clip(np.round(256 * (1 + np.tanh(block))), 0, 511))
        elif kind == "host":
            columns.append(np.clip(np.round(128 * (1 + np.tanh(block))), 0, 255))
        else:  # rate: two decimals in [0, 1], as recorded
            columns.append(np.round(1 / (1 + np.exp(-3 * block)), 2))
    return np.hstack(columns)


def kdd_like(n: int = 50_000, *, seed) -> Dataset:
    """A synthetic data set with the structure of *KDD Cup 99* (RKS Section 4: subsampled to
    50,000 training instances).

    Each row is a network connection of one of the kinds in :data:`KDD_KINDS`, drawn with the
    kinds' shares in KDD Cup 99's training file.  A kind has a protocol, a few services, a flag
    and a latent centre of its 38 numeric attributes; with the kind's copy share the row is an
    exact copy of one of the kind's few template records, otherwise a fresh record near the
    centre.  The label is +1 for an attack, -1 for normal traffic.

    Parameters
    ----------
    n : int, default=50000
        Rows, from 2 up.
    seed : int or numpy.random.SeedSequence
        Keyword only, required; the kinds' services, flags, centres and templates are drawn
        from it too.

    Returns
    -------
    Dataset
        ``X`` of shape ``(n, 122)``: protocol (3), service (70) and flag (11) one-hot, then
        the 38 numeric attributes raw; ``y`` in {-1, +1}; name ``"kdd_like"``.

    Notes
    -----
    Shared with KDD Cup 99: heavy class imbalance (about 80% attacks, and within them the two
    floods smurf and neptune make up 98%; the rare attack kinds are 0.1% to 0.5% each); many
    exact duplicate rows (about 80% of the rows repeat an earlier one at the default size,
    nearly all in the floods; the real training set has 78%; :func:`duplicate_share` measures
    it); one-hot symbolic attributes beside
    heavy-tailed byte counts, small counters, 0-511 windows and two-decimal rates.

    Not shared: the real records and their dependencies (the kinds' centres are random, not
    the real traffic's), the real difficulty (the kinds here are far apart, so the task is
    easier than KDD's), the 127 columns RKS reports (its coding is not described; this one
    gives 122), and the test set's different attack mix.  A verdict reached on this set is
    about the stand-in, not about KDD Cup 99.

    Examples
    --------
    >>> data = kdd_like(2000, seed=0)
    >>> data.X.shape
    (2000, 122)
    """
    n = arguments.length(n, "n", 2)
    sequence = random_streams.as_seed_sequence(seed)
    # The structure (per kind) and the rows draw from separate children, so that the kinds are
    # the same whatever n is.
    structure = random_streams.generator(random_streams.child(sequence, 0))
    rng = random_streams.generator(random_streams.child(sequence, 1))
    shares = np.array([kind[1] for kind in KDD_KINDS])
    counts = rng.multinomial(n, shares / shares.sum())
    blocks_X, blocks_y = [], []
    for (_kind, _, attack, protocol, n_services, n_templates, copied), count in zip(KDD_KINDS, counts,
                                                                                    strict=True):
        services = structure.choice(_SERVICES, size=n_services, replace=False)
        flag = structure.integers(0, _FLAGS)
        center = structure.normal(0, 1, sum(width for _, width in _NUMERIC))
        templates = _kdd_numeric(structure, center, n_templates)
        template_services = structure.choice(services, size=n_templates)
        copy = rng.random(count) < copied
        which = rng.integers(0, n_templates, count)
        numeric = np.where(copy[:, None], templates[which], _kdd_numeric(rng, center, count))
        service = np.where(copy, template_services[which], rng.choice(services, size=count))
        codes = [np.full(count, protocol), service, np.full(count, flag)]
        blocks_X.append(np.hstack([_one_hot(codes, [_PROTOCOLS, _SERVICES, _FLAGS]), numeric]))
        blocks_y.append(np.full(count, 1.0 if attack else -1.0))
    # Kinds were drawn in blocks; a seeded shuffle mixes them as a subsample would.
    order = rng.permutation(n)
    X, y = np.vstack(blocks_X)[order], np.concatenate(blocks_y)[order]
    return Dataset(X, y, "kdd_like", "classification",
                   f"synthetic KDD-Cup-99-like data (iln.rks.synthetic_benchmarks.kdd_like, n={n}, "
                   f"seed {_seed_text(seed)}): class shares and duplicate rows like KDD's, not the KDD data")


def duplicate_share(X) -> float:
    """The share of rows of ``X`` that repeat an earlier row exactly.

    Parameters
    ----------
    X : array of shape (n, D), n >= 1

    Returns
    -------
    float
        ``1 - (distinct rows) / n``.
    """
    X = arguments.real_array(X, "X")
    if X.ndim != 2 or X.shape[0] < 1:
        raise ValueError(f"X must be a 2-D array with at least one row, got shape {X.shape}")
    return 1.0 - np.unique(X, axis=0).shape[0] / X.shape[0]
