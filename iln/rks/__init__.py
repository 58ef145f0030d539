"""Rahimi & Recht, *Weighted Sums of Random Kitchen Sinks* (NIPS 2008): the second paper.

The implementation of the second paper checked by this project, apart from the ILN paper's
(the rest of :mod:`iln`):

* :mod:`iln.rks.kitchen_sinks`: Random Kitchen Sinks, Algorithm 1 with eq. (3)-(4)
  (:func:`~iln.rks.kitchen_sinks.random_kitchen_sinks`), and the competitor of its Figure 1,
  AdaBoost with decision stumps (:func:`~iln.rks.kitchen_sinks.adaboost_stumps`);
* :mod:`iln.rks.function_class`: the function class F_p of eq. (6), with members whose values
  are exact;
* :mod:`iln.rks.datasets`: the bundled data sets of its Section 4 comparisons (nothing is
  downloaded at run time) and a user's LIBSVM file;
* :mod:`iln.rks.synthetic_benchmarks`: seeded synthetic stand-ins for its benchmark data sets
  (adult-like, KDD-like);
* :mod:`iln.rks.reference`: the line-by-line transcriptions of Algorithm 1 and of AdaBoost.

The feature families (random stumps, Fourier features) are shared with the ILN paper and live in
:mod:`iln.features`.
"""
