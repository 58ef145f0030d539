"""numpy's :class:`~numpy.random.SeedSequence` hash, compiled: a child's seeds without the child.

Every call of Algorithm 2 (ICML Algorithm 2; arXiv Algorithm 2) seeds two streams from
children of its seed (:func:`iln.random_streams.child`): a PCG64 generator for the multinomial
counts and a 64-bit key for the compiled sampler.  Building a
:class:`~numpy.random.SeedSequence` for each costs more than a small call's whole sampling (in
the Section 6 comparison, about a quarter of a trial went into seeding).  :class:`Child` hashes
the same words with the same algorithm (Melissa O'Neill's ``seed_seq`` as numpy implements it:
``mix_entropy`` into a pool of four 32-bit words, then ``generate_state``) in compiled code, so
its :meth:`Child.generate_state` returns the very words ``child(seed, *index)`` would, and a
generator seeded from it draws the very same numbers (``tests/test_seed_sequence.py`` checks
both against numpy on generated seeds).

Examples
--------
>>> import numpy as np
>>> from iln import random_streams
>>> seed = np.random.SeedSequence(2024, spawn_key=(3,))
>>> words = Child(seed, 7, 1).generate_state(4, np.uint64)
>>> bool((words == random_streams.child(seed, 7, 1).generate_state(4, np.uint64)).all())
True
"""

from __future__ import annotations

import operator

import numba as nb
import numpy as np
from numpy.random.bit_generator import ISeedSequence

from iln import random_streams

__all__ = ["Child", "child_generator", "child_key"]

#: numpy's constants of the hash (``numpy/random/bit_generator.pyx``).
_POOL_SIZE = 4
_INIT_A = np.uint64(0x43B0D7E5)
_MULT_A = np.uint64(0x931E8875)
_INIT_B = np.uint64(0x8B51F9DD)
_MULT_B = np.uint64(0x58F38DED)
_MIX_MULT_L = np.uint64(0xCA01F9DD)
_MIX_MULT_R = np.uint64(0x4973F715)
_XSHIFT = np.uint64(16)
_MASK32 = np.uint64(0xFFFFFFFF)


# numba widens uint32 arithmetic to 64 bits, so every product and difference is masked back
# to 32 bits, the width numpy's C code wraps at.
@nb.njit(cache=True, inline="always")
def _hashmix(value, hash_const, multiplier):
    value = (value ^ hash_const) & _MASK32
    hash_const = (hash_const * multiplier) & _MASK32
    value = (value * hash_const) & _MASK32
    return value ^ (value >> _XSHIFT), hash_const


@nb.njit(cache=True, inline="always")
def _mix(x, y):
    result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK32
    return result ^ (result >> _XSHIFT)


@nb.njit(cache=True)
def _pool(words):
    """``SeedSequence.mix_entropy`` of the assembled entropy ``words`` (uint32)."""
    hash_const = _INIT_A
    pool = np.zeros(_POOL_SIZE, np.uint64)
    for i in range(_POOL_SIZE):
        word = np.uint64(words[i]) if i < words.shape[0] else np.uint64(0)
        pool[i], hash_const = _hashmix(word, hash_const, _MULT_A)
    # Every word of the pool mixed into every other, so that late words affect early ones.
    for src in range(_POOL_SIZE):
        for dst in range(_POOL_SIZE):
            if src != dst:
                hashed, hash_const = _hashmix(pool[src], hash_const, _MULT_A)
                pool[dst] = _mix(pool[dst], hashed)
    for src in range(_POOL_SIZE, words.shape[0]):
        for dst in range(_POOL_SIZE):
            hashed, hash_const = _hashmix(np.uint64(words[src]), hash_const, _MULT_A)
            pool[dst] = _mix(pool[dst], hashed)
    return pool.astype(np.uint32)


@nb.njit(cache=True)
def _generate(pool, n_words):
    """``SeedSequence.generate_state(n_words, np.uint32)`` from the ``pool``."""
    hash_const = _INIT_B
    out = np.empty(n_words, np.uint32)
    for i in range(n_words):
        out[i], hash_const = _hashmix(np.uint64(pool[i % _POOL_SIZE]), hash_const, _MULT_B)
    return out


def _words(value) -> list[int]:
    """numpy's ``_coerce_to_uint32_array`` of a non-negative int or a sequence of them."""
    if isinstance(value, str):  # numpy parses a string as a number: no seed of the project is one
        raise TypeError(f"entropy words must be ints, got the string {value!r}")
    if isinstance(value, (int, np.integer)):
        value = int(value)
        if value < 0:
            raise ValueError(f"entropy words must be non-negative, got {value}")
        words = []
        while True:
            words.append(value & 0xFFFFFFFF)
            value >>= 32
            if not value:
                return words
    return [word for item in value for word in _words(item)]


class Child(ISeedSequence):
    """``random_streams.child(seed, *index)`` for seeding: the same words, cheaper.

    An :class:`~numpy.random.bit_generator.ISeedSequence`, so a bit generator takes it as a
    seed; it cannot spawn (Algorithm 2 never spawns from its streams' seeds).

    Parameters
    ----------
    seed : int or numpy.random.SeedSequence
        As in :func:`iln.random_streams.as_seed_sequence`.
    *index : int
        The child's position below ``seed``.

    Attributes
    ----------
    pool : numpy.ndarray of uint32, shape (4,)
        Equal to ``random_streams.child(seed, *index).pool``.
    """

    __slots__ = ("pool",)

    def __init__(self, seed, *index: int):
        seed = random_streams.as_seed_sequence(seed)
        if any(int(i) < 0 for i in index):
            raise ValueError(f"index must be non-negative ints (a child's position), got {index}")
        entropy = _words(seed.entropy)
        # numpy pads the entropy with zeros to the pool's size before a spawn key; without one
        # the pool's missing words are hashed from zeros all the same.
        entropy += [0] * (_POOL_SIZE - len(entropy))
        spawn_key = _words(tuple(seed.spawn_key) + tuple(int(i) for i in index))
        self.pool = _pool(np.array(entropy + spawn_key, dtype=np.uint32))

    def generate_state(self, n_words: int, dtype=np.uint32) -> np.ndarray:
        """The words :meth:`numpy.random.SeedSequence.generate_state` gives for the child.

        Parameters
        ----------
        n_words : int
            How many words of ``dtype``.
        dtype : {numpy.uint32, numpy.uint64}, default=numpy.uint32
            Two 32-bit words make one 64-bit word, low word first, as in numpy.

        Returns
        -------
        numpy.ndarray
        """
        n_words = operator.index(n_words)
        dtype = np.dtype(dtype)
        if dtype == np.uint32:
            return _generate(self.pool, n_words)
        if dtype == np.uint64:
            return _generate(self.pool, 2 * n_words).astype("<u4").view("<u8").astype(np.uint64)
        raise ValueError(f"dtype must be numpy.uint32 or numpy.uint64, got {dtype}")


def child_generator(seed, *index: int) -> np.random.Generator:
    """``random_streams.generator(random_streams.child(seed, *index))``, the same draws."""
    # numpy takes any ISeedSequence here (its BitGenerator checks isinstance); its stubs name
    # only SeedSequence.
    return np.random.Generator(np.random.PCG64(Child(seed, *index)))  # type: ignore[arg-type]


def child_key(seed, *index: int) -> np.uint64:
    """``random_streams.stream_key(random_streams.child(seed, *index))``, the same key."""
    return Child(seed, *index).generate_state(1, np.uint64)[0]
