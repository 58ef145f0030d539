"""RKS Theorem 2 (eq. 24, Bartlett and Mendelson): the one-sided uniform deviation with R_m.

With probability at least ``1 - delta`` over m iid examples, every f in F_w has ``R[f] <=
R_emp[f] + 4 L R_m[F_w] + 2 |c(0)| / sqrt(m) + L C sqrt(log(1/delta) / (2m))``.  Checked on
Lemma 3's trials and grid (:mod:`verification.claims.rks.lemma3`), with the exact Rademacher
complexity of F_w for +-1 features, :func:`iln.rks.function_class.rademacher_sign_features`.
"""

from __future__ import annotations

from iln.rks import function_class as fc
from verification import rules
from verification.catalog import Claim, Source, register
from verification.claims.rks import lemma3
from verification.claims.rks.instances import described
from verification.verdicts import HOLDS, Verdict

ID = "rks.thm2.uniform_deviation"


def _eq24(L, C, c0, m, delta):
    return fc.uniform_deviation_bound(L, C, c0, m, delta, fc.rademacher_sign_features(C, m))


def decide(records, config, alpha) -> Verdict:
    """Probability-bound rule on ``sup (R - R_emp) > eq. (24)`` with the exact ``R_m[F_w]``."""
    return rules.bracketed(ID, *lemma3.deviation_points(records, config, "one", _eq24), alpha)


_EQ24 = (r"\mathbf{R}[f] \le \mathbf{R}_{emp}[f] + 4L\mathcal{R}_m[\mathcal{F}] + \frac{2|c(0)|}{\sqrt{m}} "
         r"+ LC\sqrt{\frac{1}{2m}\log\frac{1}{\delta}}")

register(Claim(
    id=ID, title="Theorem 2 (Bartlett and Mendelson): one-sided uniform deviation with R_m",
    sources=(Source("RKS", "Appendix B, Theorem 2, eq. (24)", _EQ24),), rule="probability bound",
    # A published theorem (Bartlett and Mendelson 2002) with the exact R_m: holds.
    expected=HOLDS, configs=lemma3.CONFIGS, trial=lemma3.trial, decide=decide,
    instances=lemma3.SETTING + "R_m[F_w] = C E|S_m| / m exactly (+-1 features); " + described(lemma3.INSTANCES),
))
