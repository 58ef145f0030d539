"""Errata of RKS that rest on quotations: places of the paper that disagree.

Each entry quotes two places that cannot both be right (a statement and its proof, or a
remark and the bound it comments), and names the claim whose check covers the corrected
statement.  None changes a verdict: the claims already check the corrected statement, as each
entry's ``check`` says.  Points an earlier reader raised that are not errata are listed in the
package's report notes instead (the Lipschitz constant of the quadratic loss, p a
probability measure).
"""

from __future__ import annotations

from verification.catalog import Erratum, Quote, register_erratum

QUOTED = "quoted disagreement"

register_erratum(Erratum(
    claim_id="rks.thm1.excess_risk",
    printed={"RKS": r"\text{Proof of Theorem 1: by Theorem 1, with probability at least } 1 - \delta,\ "
                    r"\mathbf{R}[\hat{f}^*] - \mathbf{R}[f^*] \le \epsilon_{app}"},
    counterexample="The proof of Theorem 1 cites Theorem 1 itself for the approximation term; the "
                   "bound it quotes, eps_app = LC/sqrt(K) (1 + sqrt(2 log(1/delta))), is Lemma 2's eq. "
                   "(10), which the outline of Section 2 announces as its approximation error bound "
                   "(quoted).",
    corrected=r"\text{by Lemma 2, with probability at least } 1-\delta,\ \mathbf{R}[\hat{f}^*] - "
              r"\mathbf{R}[f^*] \le \epsilon_{app}",
    check="rks.lemma2.risk_approximation checks eq. (10) and rks.thm1.excess_risk the resulting "
          "2 eps_est + eps_app at probability 1 - 2 delta.",
    kind=QUOTED,
    quotes=(
        Quote("RKS", "Section 2, proof of Theorem 1",
              r"The second term in Equation (15) is the approximation error, and by Theorem 1, with "
              r"probability at least $1 - \delta$, it is bounded above by $\epsilon_{app} = "
              r"\frac{LC}{\sqrt{K}} \left(1 + \sqrt{2 \log \frac{1}{\delta}} \right)$."),
        Quote("RKS", "Section 2, outline of the proof",
              r"An approximation error bound that shows that the lowest true risk attainable by a "
              r"function in $\hat{\mathcal{F}}_w$ is not much larger than the lowest true risk "
              r"attainable in $\mathcal{F}_p$ (Lemma 2)."),
        Quote("RKS", "Section 2, Lemma 2, eq. (10)",
              r"\mathbf{R}[\hat{f}] \le \mathbf{R}[f^*] + \frac{LC}{\sqrt{K}} \left(1 + "
              r"\sqrt{2\log\frac{1}{\delta}} \right). \tag{10}"),
    ),
))

register_erratum(Erratum(
    claim_id="rks.lemma3.estimation",
    printed={"RKS": r"|\mathbf{R}[f] - \mathbf{R}_{emp}[f]| \le \frac{1}{\sqrt{m}} \left(4LC + 2|c(0)| + "
                    r"LC\sqrt{\tfrac{1}{2}\log\tfrac{1}{\delta}}\right)\ \text{(eq. 13, two-sided)};\quad "
                    r"\mathbf{R}[f] \le \mathbf{R}_{emp}[f] + \dots + LC\sqrt{\tfrac{1}{2m}\log\tfrac{1}{\delta}}"
                    r"\ \text{(eq. 24, one-sided, the result its proof cites)}"},
    counterexample="Lemma 3 states a two-sided deviation at probability 1 - delta, but the result "
                   "its proof sketch rests on (Theorem 2, eq. 24) bounds only R - R_emp. The other "
                   "side follows by the same argument, and both together by a union bound at "
                   "delta/2 each, i.e. with log(2/delta) in place of log(1/delta).",
    corrected=r"\forall f \in \hat{\mathcal{F}}_w:\ |\mathbf{R}[f] - \mathbf{R}_{emp}[f]| \le "
              r"\frac{1}{\sqrt{m}} \left(4LC + 2|c(0)| + LC\sqrt{2\log\tfrac{2}{\delta}}\right)"
              r"\ \text{with probability at least } 1 - \delta",
    check="rks.lemma3.estimation decides the printed two-sided bound and this correction, which also "
          "doubles the last term (the loss's range 2LC: its own erratum), and rks.thm2.uniform_deviation "
          "the one-sided eq. (24).",
    kind=QUOTED,
    quotes=(
        Quote("RKS", "Section 2, Lemma 3, eq. (13)",
              r"\forall_{f \in \hat{\mathcal{F}}_w} \quad |\mathbf{R}[f] - \mathbf{R}_{emp}[f]| \le "
              r"\frac{1}{\sqrt{m}} \left(4LC + 2|c(0)| + LC\sqrt{\frac{1}{2}\log\frac{1}{\delta}} "
              r"\right). \tag{13}"),
        Quote("RKS", "Section 2, proof sketch of Lemma 3",
              r"The theorem follows by results from [12] which are summarized in Theorem 2 of the Appendix."),
        Quote("RKS", "Appendix B, Theorem 2, eq. (24)",
              r"\mathbf{R}[f] \le \mathbf{R}_{emp}[f] + 4L\mathcal{R}_m[\mathcal{F}] + "
              r"\frac{2|c(0)|}{\sqrt{m}} + LC\sqrt{\frac{1}{2m}\log\frac{1}{\delta}}. \tag{24}"),
    ),
))

register_erratum(Erratum(
    claim_id="rks.rademacher.bound",
    printed={"RKS": r"\sqrt{\mathbb{E}_\sigma \left(\frac{1}{m} \sum_{k=1}^{m} \sigma_i \phi(x_i; \omega_k)"
                    r"\right)^2}\ \text{(eq. 22)},\quad \sqrt{\mathbb{E}_{\sigma} \frac{1}{m^{2}} "
                    r"\sum_{k=1}^{m} \phi^{2}(x_{i}; \omega_{k})}\ \text{(eq. 23)}"},
    counterexample="In eq. (22) and (23) the inner sums run over k = 1..m while their terms carry "
                   "the index i of the examples; k is already the index of the outer sum over the "
                   "K features (eq. 21 writes the same inner sum over i = 1..m).",
    corrected=r"\sqrt{\mathbb{E}_\sigma \left(\frac{1}{m} \sum_{i=1}^{m} \sigma_i \phi(x_i; \omega_k)\right)^2}"
              r" = \sqrt{\frac{1}{m^2} \sum_{i=1}^{m} \phi^2(x_i; \omega_k)} \le \frac{1}{\sqrt{m}}",
    check="rks.rademacher.bound checks R_m[F_w] <= C / sqrt(m), with the exact value C E|S_m| / m for "
          "+-1 features.",
    kind=QUOTED,
    quotes=(
        Quote("RKS", "Appendix B, eq. (21)",
              r"\sum_{k=1}^{K} \alpha_k \frac{1}{m} \sum_{i=1}^{m} \sigma_i \phi(x_i; \omega_k)"),
        Quote("RKS", "Appendix B, eq. (22)",
              r"\sqrt{\mathbb{E}_\sigma \left(\frac{1}{m} \sum_{k=1}^{m} \sigma_i \phi(x_i; \omega_k)"
              r"\right)^2}"),
        Quote("RKS", "Appendix B, eq. (23)",
              r"\sqrt{\mathbb{E}_{\sigma}} \frac{1}{m^{2}} \sum_{k=1}^{m} \phi^{2}(x_{i}; \omega_{k})"),
    ),
))

register_erratum(Erratum(
    claim_id="rks.fig2.alpha_inf_decay",
    printed={"RKS": r"\text{Section 4: for the results of this paper to hold, } C \text{ cannot grow "
                    r"faster than } K;\quad \text{eq. (7): } O\left(\left(\frac{1}{\sqrt{m}} + "
                    r"\frac{1}{\sqrt{K}}\right) LC\sqrt{\log \frac{1}{\delta}}\right)"},
    counterexample="With C = K^{3/4}, C grows slower than K, yet the right side of eq. (7) (and the "
                   "explicit 2 eps_est + eps_app) grows like K^{1/4}: the theorem then says nothing. "
                   "For its bound to vanish C must grow slower than sqrt(K) (and sqrt(m)).",
    corrected=r"C = o\left(\min(\sqrt{K}, \sqrt{m})\right)\ \text{for the bound of Theorem 1 to vanish}",
    check="rks.fig2.alpha_inf_decay measures how K ||alpha||_inf (the smallest C for which the "
          "constraint (4) is inactive) grows with K: a log-log slope s of ||alpha||_inf means C grows "
          "like K^{1 + s}, which keeps Theorem 1 informative only for s < -1/2.",
    kind=QUOTED,
    quotes=(
        Quote("RKS", "Section 4",
              r"However, for the results of this paper to hold, C cannot grow faster than K."),
        Quote("RKS", "Section 1, Theorem 1, eq. (7)",
              r"\mathbf{R}[\hat{f}] - \min_{f \in \mathcal{F}_p} \mathbf{R}[f] \le O\left(\left("
              r"\frac{1}{\sqrt{m}} + \frac{1}{\sqrt{K}}\right) LC\sqrt{\log \frac{1}{\delta}}\right) "
              r"\tag{7}"),
    ),
))
