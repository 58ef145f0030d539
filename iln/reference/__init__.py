"""Reference transcriptions: the papers' pseudo-code, line by line (docs, Design, principle 2).

One module per algorithm, named for it, each beside a fast implementation elsewhere in
:mod:`iln` that must have the same law:

* :mod:`iln.reference.shrinking_gradient`: ICML/arXiv Algorithm 1 (SHRINKING_GRADIENT),
  the averaged predictor ``f_S`` of Corollary 1 and the test-time estimate of Theorem 1,
  part 3 (fast: :mod:`iln.shrinking_gradient`);
* :mod:`iln.reference.fixed_random`: Fixed-Random of ICML Section 6
  (fast: :mod:`iln.baselines.fixed_random`);
* :mod:`iln.reference.doubly_stochastic`: Doubly Stochastic Gradient Descent of ICML
  Section 6 (fast: :mod:`iln.baselines.doubly_stochastic`);
* :mod:`iln.reference.kernel_ogd`: online gradient descent with the exact kernel,
  ICML/arXiv Section 5, eq. (9) (fast: :mod:`iln.baselines.kernel_ogd`).

The transcriptions of the second paper, Random Kitchen Sinks, are in :mod:`iln.rks.reference`.

Algorithm 2 (EST_SCALAR_PROD) has its transcription beside its fast versions, in
:func:`iln.estimator.estimate_scalar_product_reference`.

A transcription takes its parameters from :mod:`iln.theory` where the paper or the
implementation fixes one (the defaults), draws every random number from an explicit seed
with the same children the fast implementation uses, and is written for reading, not speed:
one Python statement per line of pseudo-code.
"""
