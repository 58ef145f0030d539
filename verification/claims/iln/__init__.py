"""Claims of *Learning Infinite Layer Networks Without the Kernel Trick* (ICML and arXiv versions)."""

from verification.catalog import Paper

#: the paper's plug-in, published as ``iln`` in the entry-point group ``iln_verify.papers``.
PAPER = Paper(
    versions={
        "ICML": "Livni, Carmon, Globerson, Learning Infinite Layer Networks Without the Kernel Trick, ICML 2017",
        "arXiv": "Globerson, Livni, Learning Infinite-Layer Networks: Beyond the Kernel Trick (arXiv)",
    },
    claims=__name__,
)
