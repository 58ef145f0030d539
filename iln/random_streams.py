"""Seeds for every random draw of the package.

A run has one :class:`numpy.random.SeedSequence`.  Everything random below it
(a round of Algorithm 1, a call of Algorithm 2, a chunk of samples inside a
numba kernel) gets its own child, named by its position rather than by the
order in which children happen to be spawned.  That is what makes the numbers
independent of the number of threads, processes or machines (docs, Design,
principle 7): a work item's stream depends only on the master seed and the
item's index.
"""

from __future__ import annotations

import numpy as np

from iln import arguments

__all__ = ["as_seed_sequence", "child", "generator", "stream_key"]


def as_seed_sequence(seed, name: str = "seed") -> np.random.SeedSequence:
    """Return the :class:`~numpy.random.SeedSequence` that ``seed`` names.

    Parameters
    ----------
    seed : int or numpy.random.SeedSequence
        A non-negative integer or a seed sequence.  ``None`` and
        :class:`numpy.random.Generator` are refused: every random result of the
        project must be reproducible from an explicit seed.
    name : str, default="seed"
        The argument's name, used in error messages.

    Returns
    -------
    numpy.random.SeedSequence
    """
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if not arguments.is_integer(seed):
        raise TypeError(
            f"{name} must be a non-negative int or a numpy.random.SeedSequence, "
            f"got {type(seed).__name__}"
        )
    if seed < 0:
        raise ValueError(f"{name} must be >= 0, got {seed}")
    return np.random.SeedSequence(int(seed))


def child(seed, *index: int) -> np.random.SeedSequence:
    """The child of ``seed`` at position ``index``, without mutating ``seed``.

    :meth:`numpy.random.SeedSequence.spawn` numbers children by how many were
    spawned before, so the same object passed twice would give different
    streams; naming the child by its index keeps a result a pure function of
    (seed, index).

    Parameters
    ----------
    seed : int or numpy.random.SeedSequence
        As in :func:`as_seed_sequence`.
    *index : int
        The child's position below ``seed``.

    Returns
    -------
    numpy.random.SeedSequence
    """
    seed = as_seed_sequence(seed)
    return np.random.SeedSequence(
        seed.entropy, spawn_key=tuple(seed.spawn_key) + tuple(int(i) for i in index)
    )


def generator(seed) -> np.random.Generator:
    """A PCG64 generator on ``seed`` (an int or SeedSequence, as in :func:`as_seed_sequence`).

    An int gives the numbers ``numpy.random.PCG64(int)`` gives: numpy wraps it in the same
    :class:`~numpy.random.SeedSequence`.
    """
    return np.random.Generator(np.random.PCG64(as_seed_sequence(seed)))


def stream_key(seed) -> np.uint64:
    """A 64-bit key from ``seed`` (as in :func:`as_seed_sequence`) for the counter-based
    streams of the numba kernels."""
    return as_seed_sequence(seed).generate_state(1, np.uint64)[0]
