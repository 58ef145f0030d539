"""The claim catalog: every checked statement of the papers, as data.

A paper is a plug-in: a :class:`Paper` (its printed versions and the package of its claims)
published in the entry-point group :data:`ENTRY_POINTS`, ``iln_verify.papers``, of an installed
distribution.  This project's two papers are found that way too (``pyproject.toml``), so a
third paper needs no change here: the documentation's tutorial walks through one.  Importing
a paper's claims package registers its claims, errata and instances; a paper whose entry point
or claims package raises is left out with a :class:`PaperWarning` naming its entry point
(:func:`broken_papers`), and the other papers load as usual.

A :class:`Claim` names its sources in each paper version with the statement as
printed (LaTeX), its decision rule, its expected verdict, its configuration per
profile, a *trial* (a pure function of the configuration and a seed returning a
JSON-ready record) and a *decision* (records -> verdict).  The CLI, the runner
and the report read this catalog; adding a claim is adding one entry (a call of
:func:`register` in a module of :mod:`verification.claims`) and its two functions.

Trials are looked up by claim id in worker processes, so trial functions are
module-level functions, never closures.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib
import json
import pkgutil
import warnings
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import numpy as np

from verification.verdicts import (
    HOLDS,
    HOLDS_AFTER_CORRECTION,
    INCONCLUSIVE,
    NOT_REPRODUCED,
    OUTCOMES,
    Verdict,
)

__all__ = [
    "CATALOG_RUN_SHARE",
    "CLAIM_KINDS",
    "DESIGN_ALPHA",
    "DESIGN_POWER",
    "ENTRY_POINTS",
    "ERRATUM_KINDS",
    "PAPERS",
    "PROFILES",
    "SEED_STREAM",
    "SEQUENTIAL",
    "Claim",
    "Erratum",
    "NoPaperError",
    "Paper",
    "PaperWarning",
    "Quote",
    "Source",
    "broken_papers",
    "claim_key",
    "config_hash",
    "domain_not_searched",
    "errata",
    "get",
    "load",
    "paper_of",
    "papers",
    "profiles",
    "register",
    "register_erratum",
    "sources",
]

#: the entry-point group a paper is published in: ``name = "package.module:OBJECT"`` with OBJECT
#: a :class:`Paper`; the name is the paper's, and the first dotted part of its claims' ids.
ENTRY_POINTS = "iln_verify.papers"


@dataclass(frozen=True)
class Paper:
    """A paper the harness checks, as its plug-in publishes it (see :data:`ENTRY_POINTS`).

    Attributes
    ----------
    versions : mapping str -> str
        The printed versions of the paper a :class:`Source` or :class:`Quote` may cite, each
        key (``"ICML"``, ``"arXiv"``) mapped to the full reference.  Keys are unique across
        all papers.
    claims : str
        The importable package (or module) of the paper's claims: importing it and every
        module under it registers the claims (:func:`register`), the errata
        (:func:`register_erratum`) and, through the claims' imports, the instances.  The
        module that holds the :class:`Paper` itself must register nothing, since it is
        imported to learn the versions before any claim is built.
    """

    versions: Mapping[str, str]
    claims: str

    def __post_init__(self):
        if not isinstance(self.versions, Mapping) or not self.versions:
            raise TypeError(f"versions must be a non-empty mapping of version key -> reference, "
                            f"got {self.versions!r}")
        bad = [k for k, v in self.versions.items() if not (isinstance(k, str) and k and isinstance(v, str))]
        if bad:
            raise TypeError(f"versions must map non-empty str keys to str references; bad keys: {bad}")
        if not isinstance(self.claims, str) or not self.claims:
            raise TypeError(f"claims must be the name of an importable package, got {self.claims!r}")


class NoPaperError(RuntimeError):
    """No paper is published in the entry-point group: the project is not installed."""


class PaperWarning(UserWarning):
    """A paper's plug-in could not be loaded: it is left out and the other papers load."""


#: entry-point name -> Paper, once the entry points are read (:func:`papers`).
_PAPERS: dict[str, Paper] | None = None
#: entry-point name -> why that paper is left out of the catalog.
_BROKEN: dict[str, str] = {}
#: papers whose claims package was imported (successfully or not).
_IMPORTED: set[str] = set()
#: True while the entry points are read: a paper module that builds a Source then recurses.
_READING = False


def _leave_out(name: str, why: str) -> None:
    _BROKEN[name] = why
    warnings.warn(f"paper {name!r} left out: {why}", PaperWarning, stacklevel=3)


def papers() -> dict[str, Paper]:
    """The papers published in the entry-point group :data:`ENTRY_POINTS`, by name.

    The entry points are read once per process.  One that cannot be loaded, that is not a
    :class:`Paper`, whose name is taken or that shares a version key with another paper (both
    are then left out: a source citing the key could be either's) is left out, with a :class:`PaperWarning` naming it (:func:`broken_papers`); so is one
    whose claims package raised on import (:func:`load`).
    """
    global _PAPERS, _READING
    if _PAPERS is not None:
        # A paper whose claims package raised (load) is left out from then on.
        return {name: paper for name, paper in _PAPERS.items() if name not in _BROKEN}
    if _READING:
        raise RuntimeError(f"a module published in the entry-point group {ENTRY_POINTS} built a Source or "
                           "Quote while the papers were being read: the module holding the Paper must "
                           "not import its claims (Paper.claims names them)")
    _READING = True
    found: dict[str, Paper] = {}
    try:
        for ep in sorted(metadata.entry_points(group=ENTRY_POINTS), key=lambda e: (e.name, e.value)):
            where = f"entry point {ep.name} = {ep.value} (group {ENTRY_POINTS})"
            if ep.name in found:
                _leave_out(ep.name, f"{where}: the name {ep.name!r} is already taken by {found[ep.name]!r}")
                continue
            try:
                paper = ep.load()
            except Exception as error:  # one broken plug-in never takes the other papers down
                _leave_out(ep.name, f"{where} cannot be loaded: {type(error).__name__}: {error}")
                continue
            if not isinstance(paper, Paper):
                _leave_out(ep.name, f"{where} is a {type(paper).__name__}, not a verification.catalog.Paper")
                continue
            found[ep.name] = paper
        # A version key two papers declare could be either's: neither paper is trusted with it.
        declared: dict[str, list[str]] = {}
        for name, paper in found.items():
            for key in paper.versions:
                declared.setdefault(key, []).append(name)
        for key, names in declared.items():
            for name in names if len(names) > 1 else ():
                others = [n for n in names if n != name]
                _leave_out(name, f"entry point {name} (group {ENTRY_POINTS}) declares the version key "
                                 f"{key!r}, which paper {others[0]!r} declares too")
                found.pop(name, None)
        _PAPERS = found
    finally:
        _READING = False
    return dict(found)


def broken_papers() -> dict[str, str]:
    """Papers left out of the catalog, by entry-point name: why (the entry point, the error)."""
    load()
    return dict(_BROKEN)


def paper_of(claim_id: str) -> str:
    """The paper a claim id belongs to: its first dotted part, which must name a paper."""
    name = claim_id.split(".", 1)[0]
    if "." not in claim_id or name not in papers():
        raise ValueError(f"claim id {claim_id!r} must start with a paper's name and a dot; the papers "
                         f"of the entry-point group {ENTRY_POINTS} are {sorted(papers())}")
    return name


class _Versions(Mapping[str, str]):
    """Every paper's versions, version key -> reference, read from the plug-ins on first use."""

    def _all(self) -> dict[str, str]:
        return {k: v for paper in papers().values() for k, v in paper.versions.items()}

    def __getitem__(self, key: str) -> str:
        return self._all()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __repr__(self) -> str:
        return f"PAPERS({self._all()!r})"


#: the paper versions a source may cite, key -> reference: the union of the papers' versions.
PAPERS: Mapping[str, str] = _Versions()
#: profiles, from seconds (unit tests) to the committed report (docs, Reproducibility, Profiles).
PROFILES = ("smoke", "quick", "full")
#: the false-alarm level sample sizes are planned for: a CI run's family-wise budget of 1e-3
#: (docs, The decision rules) shared by 30 claims.  A run with fewer claims
#: gives each a larger share (Holm); the catalog has grown to 40, so at Holm's first rank of a
#: whole-catalog run the power is a little below the plan, and each
#: verdict's min_detectable_ratio is computed at the level it actually ran at.
DESIGN_ALPHA = 1e-3 / 30
#: the detection probability sample sizes are planned for (the "power" of a verdict).
DESIGN_POWER = 0.9
#: a claim's share of a whole-catalog run's family-wise budget, 1e-3 over its 40 claims
#: (Bonferroni; Holm's first rank): the level a plan is made at when its sample size steps at
#: the level itself, as the sign test's fewest repetitions do (2^-n <= level: 15 at DESIGN_ALPHA,
#: 16 here), so that a claim planned at DESIGN_ALPHA could not decide in a whole-catalog run.
CATALOG_RUN_SHARE = 1e-3 / 40
#: the configuration key of a claim that samples in batches until it is decided: its
#: ``n_trials`` is then a budget, the runner decides after every batch of this many trials
#: and stops at the first decided checkpoint, and the claim's rule must be anytime-valid
#: (``anytime=True`` of the mean and equivalence rules) so that stopping keeps its level: a
#: :class:`Claim` refuses the key unless it declares so (:attr:`Claim.anytime`).  A fixed-n rule
#: stopped at its first decided checkpoint does not keep it (the exact binomial rule's level
#: grows 7 to 18 times, issue 42).
SEQUENTIAL = "sequential_batch"

#: the configuration key that gives a claim's trials a new stream of seeds: a claim whose plan
#: changes after a run that decided it raises its stream by one, so that the new run uses seeds
#: the old one never used (a run that kept the old seeds and added some would be the old
#: decision looked at again: optional stopping).  Stream 0, the default, is the seeds of
#: :func:`verification.trials.claim_seed` as they always were.
SEED_STREAM = "seed_stream"


@dataclass(frozen=True)
class Source:
    """Where a claim is printed: paper version, location, and the statement as printed (LaTeX)."""

    paper: str
    location: str
    statement: str

    def __post_init__(self):
        _check_paper(self.paper)


def sources(statement: str, **locations: str) -> tuple[Source, ...]:
    """The :class:`Source` of one statement printed alike in several paper versions.

    ``sources(latex, ICML="Appendix A, Lemma 5", arXiv="Appendix A, Lemma 4")`` is
    ``(Source("ICML", ..., latex), Source("arXiv", ..., latex))``: where the versions print the
    same LaTeX at different places, the statement is written once.

    Parameters
    ----------
    statement : str
        The statement as printed (LaTeX), the same in every version named.
    **locations : str
        Per paper version (a key of :data:`PAPERS`), where it prints the statement.

    Returns
    -------
    tuple of Source
        One per version, in the order given.

    Raises
    ------
    ValueError
        If ``locations`` is empty or names a version that is not in :data:`PAPERS`.
    """
    if not locations:
        raise ValueError("locations must name at least one paper version")
    return tuple(Source(paper, location, statement) for paper, location in locations.items())


def _check_paper(paper: str) -> None:
    """A :class:`Source` or :class:`Quote` names a paper version of :data:`PAPERS`."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {sorted(PAPERS)}, got {paper!r}")


@dataclass(frozen=True)
class Quote:
    """A place of a paper quoted word for word: the evidence an erratum cites.

    Attributes
    ----------
    paper : str
        The paper version quoted (a key of :data:`PAPERS`).
    location : str
        Where, in the paper's words (section, statement, equation).
    text : str
        The quoted words as printed (LaTeX for the math), one contiguous passage:
        ``tests/test_errata.py`` finds it character by character in the paper's text
        (:mod:`verification.quotations`).
    """

    paper: str
    location: str
    text: str

    def __post_init__(self):
        _check_paper(self.paper)
        if not self.text.strip():
            raise ValueError(f"the quotation at {self.paper} {self.location} is empty")


#: what an erratum rests on: a counterexample to the printed statement, or a quotation of
#: two places of the papers that disagree (two versions, or a statement and its own proof).
ERRATUM_KINDS = ("counterexample", "quoted disagreement")


@dataclass(frozen=True)
class Erratum:
    """A printed statement that is false, with the evidence and the correction.

    Nothing is recorded here without a counterexample or a quoted disagreement.

    Attributes
    ----------
    claim_id : str
        The claim whose check covers the corrected statement.
    printed : mapping paper -> str
        The statement as printed in each version (LaTeX), or the places that disagree, in
        formulas; the words themselves are in ``quotes``.
    counterexample : str
        The smallest counterexample found, or the disagreement with its quotations.
    corrected : str
        The corrected statement (LaTeX).
    check : str
        How the corrected statement is checked (which claim, which numbers).
    kind : str
        One of :data:`ERRATUM_KINDS`.
    quotes : tuple of Quote, default=()
        The places of the papers the entry quotes, word for word, each checked against the
        paper's text; ``printed`` and ``counterexample`` refer to them instead of quoting
        in prose.
    """

    claim_id: str
    printed: Mapping[str, str]
    counterexample: str
    corrected: str
    check: str
    kind: str = "counterexample"
    quotes: tuple[Quote, ...] = ()

    def __post_init__(self):
        if self.kind not in ERRATUM_KINDS:
            raise ValueError(f"kind must be one of {ERRATUM_KINDS}, got {self.kind!r}")
        unknown = sorted(set(self.printed) - set(PAPERS))
        if unknown:
            raise ValueError(f"printed must name papers among {sorted(PAPERS)}, got {unknown}")
        if not all(isinstance(q, Quote) for q in self.quotes):
            raise TypeError(f"quotes of the erratum of {self.claim_id} must be Quote instances")


#: what a claim's verdict is about: a statement of a paper, or the conformance of the shipped
#: code to its line-by-line transcription of a paper's pseudo-code (reported apart from the
#: verdicts on the papers: an identity of the code, not evidence for or against a statement).
#: a paper's statement; an exploration (a finding beyond the papers' statements, reported in its
#: own section); a claim about the shipped code (conformance).
CLAIM_KINDS = ("statement", "exploration", "conformance")


@dataclass(frozen=True)
class Claim:
    """A numbered statement of a paper and how it is checked.

    Attributes
    ----------
    id : str
        Dotted id, e.g. ``"iln.lemma4.hoeffding"``.
    title : str
    sources : tuple of Source
        One per paper version that prints the statement.
    rule : str
        The decision rule (docs, The decision rules).
    expected : str
        The verdict the project expects, fixed before running it (one of the outcomes).
    configs : mapping profile -> dict
        JSON-ready configuration per profile; ``"n_trials"`` is required.  A value may be
        a callable without arguments (a planned sample size, say), evaluated on first use
        so that loading the catalog stays fast.
    trial : callable ``(config, seed) -> dict``
        One trial: a pure function of the configuration and a SeedSequence.
    decide : callable ``(records, config, alpha) -> Verdict``
        The decision from the records (in trial order) at false-alarm level alpha.
    instances : str
        Which instances the check tries and why they are hard (for the report).
    erratum : Erratum or None
    kind : str, default="statement"
        One of :data:`CLAIM_KINDS`.
    with_data : callable ``(config, dataset) -> config``, optional
        For a claim that runs on a data set: its configuration on the data set named
        ``dataset`` instead (``"libsvm:PATH"`` for a user's file, ``iln-verify run --data``).
    anytime : bool, default False
        Whether ``decide`` decides with an anytime-valid rule (the betting confidence sequence:
        ``anytime=True`` of the mean and equivalence rules) whenever the configuration has
        :data:`SEQUENTIAL`.  Only such a claim may set :data:`SEQUENTIAL` (a ``ValueError``
        naming the claim, the profile and the key otherwise): the runner stops it at its first
        decided checkpoint, which only an anytime-valid rule survives with its level.
    unsearched : str, default ""
        For a bound claim whose check is still a grid its author chose (not a specification of
        :mod:`verification.search`): the variables its statement quantifies over that no search
        covers, in words.  Such a claim cannot be ``holds`` (the domain decides, not the
        author): the runner makes a ``holds`` or ``holds_after_correction`` of its check
        ``inconclusive``, naming them (:func:`domain_not_searched`).
    """

    id: str
    title: str
    sources: tuple[Source, ...]
    rule: str
    expected: str
    configs: Mapping[str, Mapping[str, Any]]
    trial: Callable[[Mapping[str, Any], np.random.SeedSequence], dict]
    decide: Callable[[list[dict], Mapping[str, Any], float], Verdict]
    instances: str = ""
    erratum: Erratum | None = field(default=None)
    kind: str = "statement"
    with_data: Callable[[Mapping[str, Any], str], dict] | None = field(default=None)
    anytime: bool = False
    unsearched: str = ""

    def __post_init__(self):
        if self.kind not in CLAIM_KINDS:
            raise ValueError(f"claim {self.id}: kind must be one of {CLAIM_KINDS}, got {self.kind!r}")
        if self.expected not in OUTCOMES:
            raise ValueError(f"expected must be one of {OUTCOMES}, got {self.expected!r}")
        if self.expected == NOT_REPRODUCED and not self.is_figure:
            raise ValueError(f"claim {self.id}: expected {NOT_REPRODUCED!r} is the outcome of a figure "
                             "claim (a source located at a Figure), and no source of this claim is")
        missing = [p for p in PROFILES if p not in self.configs or "n_trials" not in self.configs[p]]
        if missing:
            raise ValueError(f"claim {self.id}: configs lack a profile or its n_trials: {missing}")
        for profile in PROFILES:
            self._check_stopping(self.configs[profile], f"profile {profile!r}")

    def _check_stopping(self, config: Mapping[str, Any], where: str) -> None:
        """Refuse :data:`SEQUENTIAL` in ``config`` unless the claim's rule is anytime-valid."""
        if config.get(SEQUENTIAL) and not self.anytime:
            raise ValueError(
                f"claim {self.id}: {where} sets {SEQUENTIAL!r}, but the claim's rule ({self.rule}) is not "
                f"anytime-valid (Claim.anytime is False): stopping at the first decided checkpoint would not keep "
                f"its level; decide with the confidence sequence and declare anytime=True, or drop {SEQUENTIAL!r}")

    @property
    def is_figure(self) -> bool:
        """Whether the claim is a paper's figure (a source located at a Figure): the claims
        that can be ``not_reproduced``."""
        return self.kind == "statement" and any("figure" in s.location.lower() for s in self.sources)

    def config(self, profile: str, data: str | None = None) -> dict[str, Any]:
        """The configuration of ``profile``, with its deferred values evaluated; with ``data``,
        on that data set (see :attr:`with_data`)."""
        if profile not in PROFILES:
            raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")
        config = {k: _evaluated(v) for k, v in self.configs[profile].items()}
        if data is None:
            return config
        if self.with_data is None:
            raise ValueError(f"data: claim {self.id} runs on no data set, so it cannot run on {data!r}")
        config = self.with_data(config, data)
        self._check_stopping(config, f"its configuration on {data!r}")
        return config

    def sources_json(self) -> list[dict[str, str]]:
        """The sources as JSON: one ``{paper, location, statement}`` per printed version."""
        return [{"paper": s.paper, "location": s.location, "statement": s.statement} for s in self.sources]


def profiles(base: Mapping[str, Any] | None = None, **overrides: Mapping[str, Any]
             ) -> dict[str, dict[str, Any]]:
    """A claim's configuration per profile: one base, and what each profile changes in it.

    ``profiles({"T": 64, "B": 1.0}, smoke={"n_trials": 30}, quick={"n_trials": 1500},
    full={"n_trials": 5000})`` is the mapping of :attr:`Claim.configs`, each profile's
    dictionary the base updated by its own keys, so a setting shared by the three profiles is
    written once.

    Parameters
    ----------
    base : mapping, optional
        The settings every profile shares.
    **overrides : mapping
        Per profile of :data:`PROFILES`, the settings that profile sets or changes (every
        profile must be named: each needs at least its ``n_trials``).

    Returns
    -------
    dict
        ``{profile: {**base, **overrides[profile]}}`` for every profile.

    Raises
    ------
    ValueError
        If ``overrides`` names a profile that does not exist, or leaves one out.
    """
    unknown = sorted(set(overrides) - set(PROFILES))
    missing = [p for p in PROFILES if p not in overrides]
    if unknown or missing:
        raise ValueError(f"overrides must name exactly the profiles {PROFILES}: unknown {unknown}, "
                         f"missing {missing}")
    return {profile: {**(base or {}), **overrides[profile]} for profile in PROFILES}


@functools.cache
def _cached_call(fn):
    return fn()


def _evaluated(value):
    return _cached_call(value) if callable(value) else value


_CATALOG: dict[str, Claim] = {}
#: errata registered on their own: quoted disagreements that do not change a claim's verdict,
#: and further errata of a claim that already carries one.
_ERRATA: list[Erratum] = []


def domain_not_searched(claim: Claim, verdict: Verdict) -> Verdict:
    """``verdict``, or, for a claim whose domain no search covers (:attr:`Claim.unsearched`),
    ``inconclusive`` in place of a ``holds`` or ``holds_after_correction`` of its grid, with
    the reason: a holds is worth the hardest instance tried, and a grid its author chose
    finds only what its author suspected (issue 41).  Its grid's own outcome stays in
    ``details["grid_verdict"]``; a ``violated`` (a counterexample found) stands."""
    # A claim-like object of a user's or a test's, without the attribute, has nothing unsearched.
    unsearched = getattr(claim, "unsearched", "")
    if not unsearched or verdict.verdict not in (HOLDS, HOLDS_AFTER_CORRECTION):
        return verdict
    reason = f"its grid found no violation ({verdict.verdict}), but the statement's domain was not searched: {unsearched}"
    return dataclasses.replace(verdict, verdict=INCONCLUSIVE,
                               details={**verdict.details, "grid_verdict": verdict.verdict, "reason": reason})


def register(claim: Claim) -> Claim:
    """Add a claim to the catalog (ids are unique, and start with their paper's name)."""
    paper_of(claim.id)
    if claim.id in _CATALOG and _CATALOG[claim.id] is not claim:
        raise ValueError(f"claim id {claim.id!r} is registered twice")
    _CATALOG[claim.id] = claim
    return claim


def _import_claims(name: str, paper: Paper) -> None:
    """Import every module of a paper's claims package; on an error, leave the paper out."""
    try:
        package = importlib.import_module(paper.claims)
        for info in pkgutil.walk_packages(getattr(package, "__path__", []), package.__name__ + "."):
            importlib.import_module(info.name)
    except Exception as error:  # one broken plug-in never takes the other papers down
        for claim_id in [c for c in _CATALOG if c.split(".", 1)[0] == name]:
            del _CATALOG[claim_id]
        _ERRATA[:] = [e for e in _ERRATA if e.claim_id.split(".", 1)[0] != name]
        _leave_out(name, f"its claims package {paper.claims!r} (entry point {name}, group {ENTRY_POINTS}) "
                         f"raised on import: {type(error).__name__}: {error}")


def load() -> dict[str, Claim]:
    """Import the claims of every paper (:func:`papers`) and return the catalog, by id.

    Raises :class:`NoPaperError` when no paper is published at all: the project is then not
    installed, or was installed before its entry points existed (``pip install -e .``
    again).
    """
    for name, paper in papers().items():
        if name not in _IMPORTED:
            _IMPORTED.add(name)
            _import_claims(name, paper)
    if not _PAPERS and not _BROKEN:
        raise NoPaperError(f"no paper is published in the entry-point group {ENTRY_POINTS}: install the "
                           "project (pip install -e .), again if it was installed before the group existed")
    return dict(sorted(_CATALOG.items()))


def get(claim_id: str) -> Claim:
    """The claim with this id; ``ValueError`` naming it when unknown."""
    catalog = load()
    if claim_id not in catalog:
        raise ValueError(f"unknown claim id {claim_id!r} (iln-verify list shows the catalog)")
    return catalog[claim_id]


def register_erratum(erratum: Erratum) -> Erratum:
    """Add an erratum that is not a claim's own (see :attr:`Claim.erratum`) to the ledger."""
    paper_of(erratum.claim_id)
    if erratum not in _ERRATA:
        _ERRATA.append(erratum)
    return erratum


def errata() -> list[Erratum]:
    """The errata ledger, by claim id: each claim's own erratum first, then the registered ones.

    Raises ``ValueError`` naming an erratum whose claim is not in the catalog.
    """
    catalog = load()
    orphans = [e.claim_id for e in _ERRATA if e.claim_id not in catalog]
    if orphans:
        raise ValueError(f"errata name claims that are not in the catalog: {orphans}")
    own = [c.erratum for c in catalog.values() if c.erratum is not None]
    return sorted(own + _ERRATA, key=lambda e: e.claim_id)


def claim_key(claim_id: str) -> int:
    """A stable integer naming the claim's branch of the run's SeedSequence.

    Derived from the id, not from catalog order, so that adding a claim changes
    no other claim's numbers.
    """
    return zlib.crc32(claim_id.encode())


def config_hash(config: Mapping[str, Any]) -> str:
    """Digest of a configuration: trials stored under another configuration are not reused."""
    return hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:16]
