"""Reference transcriptions of Rahimi & Recht's pseudo-code, line by line (docs, Design,
principle 2), each beside its fast implementation in :mod:`iln.rks.kitchen_sinks`:

* :mod:`iln.rks.reference.kitchen_sinks`: Random Kitchen Sinks, Algorithm 1 with eq. (3)-(4)
  (fast: :func:`iln.rks.kitchen_sinks.random_kitchen_sinks`);
* :mod:`iln.rks.reference.adaboost`: Freund & Schapire's AdaBoost over decision stumps, the
  competitor of Figure 1 (fast: :func:`iln.rks.kitchen_sinks.adaboost_stumps`).

As for :mod:`iln.reference`: parameters from the implementation's defaults, every random number
from an explicit seed with the same children the fast implementation uses, one Python statement
per line of pseudo-code.
"""
