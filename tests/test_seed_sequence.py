"""iln.seed_sequence: a child's seeds hashed in compiled code equal numpy's SeedSequence's."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iln import random_streams, seed_sequence
from iln.random_streams import child

#: entropy as numpy takes it: an int of any width, or a sequence of them.
ENTROPY = st.one_of(st.integers(0, 2**256), st.lists(st.integers(0, 2**70), max_size=6),
                    st.lists(st.integers(0, 2**32 - 1), max_size=6).map(lambda w: np.array(w, dtype=np.uint32)),
                    st.lists(st.integers(0, 2**63 - 1), max_size=6).map(lambda w: np.array(w, dtype=np.int64)))
#: spawn keys and child indices, small and past one 32-bit word, Python's ints and numpy's.
KEY = st.lists(st.one_of(st.integers(0, 8), st.integers(0, 2**70), st.integers(0, 2**64 - 1).map(np.uint64)),
               max_size=6).map(tuple)


@settings(max_examples=400, deadline=None)
@given(entropy=ENTROPY, spawn_key=KEY, index=KEY, n_words=st.integers(1, 9))
def test_child_generates_the_words_of_numpys_child(entropy, spawn_key, index, n_words):
    seed = np.random.SeedSequence(entropy, spawn_key=spawn_key)
    mine, numpys = seed_sequence.Child(seed, *index), random_streams.child(seed, *index)
    np.testing.assert_array_equal(mine.pool, numpys.pool)
    for dtype in (np.uint32, np.uint64):
        words = mine.generate_state(n_words, dtype)
        assert words.dtype == dtype
        np.testing.assert_array_equal(words, numpys.generate_state(n_words, dtype))


@settings(max_examples=100, deadline=None)
@given(entropy=ENTROPY, spawn_key=KEY, index=KEY)
def test_child_generator_and_key_draw_what_random_streams_draws(entropy, spawn_key, index):
    seed = np.random.SeedSequence(entropy, spawn_key=spawn_key)
    p = np.array([0.5, 0.25, 0.125, 0.125])
    np.testing.assert_array_equal(seed_sequence.child_generator(seed, *index).multinomial(1000, p),
                                  random_streams.generator(random_streams.child(seed, *index)).multinomial(1000, p))
    assert seed_sequence.child_key(seed, *index) == random_streams.stream_key(random_streams.child(seed, *index))


def test_an_int_seed_is_the_seed_sequence_it_names():
    assert seed_sequence.child_key(7, 3) == random_streams.stream_key(random_streams.child(7, 3))


@pytest.mark.parametrize(("seed", "error"), [(None, TypeError), (-1, ValueError), (np.random.default_rng(0), TypeError)])
def test_a_bad_seed_is_refused_by_name(seed, error):
    with pytest.raises(error, match="seed"):
        seed_sequence.Child(seed, 0)


def test_words_of_another_dtype_or_a_fractional_count_are_refused():
    with pytest.raises(ValueError, match="dtype"):
        seed_sequence.Child(0, 1).generate_state(2, np.float64)
    with pytest.raises(TypeError):
        seed_sequence.Child(0, 1).generate_state(2.5)


def test_a_string_in_the_entropy_is_refused():
    # numpy parses "123" as a number; no seed of the project is a string, so Child refuses it.
    with pytest.raises(TypeError, match="string"):
        seed_sequence.Child(np.random.SeedSequence(["123"]), 0)


def test_a_new_seed_stream_shares_no_seed_with_the_old_one():
    from verification import catalog, trials

    old = trials.claim_seed(0, "rks.fig2.alpha_inf_decay")
    assert trials.claim_seed(0, "rks.fig2.alpha_inf_decay", 0).generate_state(4).tolist() == \
        old.generate_state(4).tolist()  # stream 0: the seeds claims always had
    streams = [trials.claim_seed(0, "rks.fig2.alpha_inf_decay", k) for k in range(3)]
    states = {tuple(child(s, i).generate_state(4)) for s in streams for i in range(200)}
    assert len(states) == 3 * 200
    with pytest.raises(ValueError, match=catalog.SEED_STREAM):
        trials.claim_seed(0, "rks.fig2.alpha_inf_decay", -1)


def test_a_configuration_s_seed_stream_reaches_its_trials(monkeypatch):
    from verification import catalog, trials

    seen = []
    claim = catalog.get("iln.alg2.unbiased")
    monkeypatch.setattr(catalog, "get", lambda claim_id: dataclasses.replace(
        claim, trial=lambda config, seed: seen.append(tuple(seed.spawn_key)) or {}))
    config = claim.config("smoke")
    trials.run_batch(claim.id, config, 0, [0])
    trials.run_batch(claim.id, {**config, catalog.SEED_STREAM: 2}, 0, [0])
    key = catalog.claim_key(claim.id)
    assert seen == [(key, 0), (key, 2, 0)]
