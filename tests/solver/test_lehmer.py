"""Lehmer ranks against the lexicographic order of all permutations."""

from itertools import permutations

import numpy as np
from hypothesis import given, settings, strategies as st

from solver.special.lehmer import rank_permutation, unrank_permutation

LEXICOGRAPHIC = {p: i for i, p in enumerate(sorted(permutations(range(6))))}
LEXICOGRAPHIC_3 = {p: i for i, p in enumerate(sorted(permutations(range(3))))}


@settings(deadline=None)  # the first example loads the compiled functions
@given(st.permutations(range(6)))
def test_rank_is_the_lexicographic_position_and_unrank_inverts_it(p):
    r = rank_permutation(np.array(p, dtype=np.int64), 6)
    assert r == LEXICOGRAPHIC[tuple(p)]
    out = np.empty(6, np.int64)
    unrank_permutation(r, 6, out)
    assert tuple(out) == tuple(p)


def test_rank_reads_only_the_first_n_values():
    assert rank_permutation(np.array([2, 0, 1, 9, 9], dtype=np.int64), 3) == LEXICOGRAPHIC_3[(2, 0, 1)]

