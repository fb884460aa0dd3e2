"""Orbits and group closures in solver.perm against known group orders and orbit sizes."""

import random
from math import factorial

import pytest
from hypothesis import given, strategies as st

from solver import perm


@pytest.mark.parametrize("n", range(2, 7))
def test_a_transposition_and_an_n_cycle_generate_the_symmetric_group(n):
    gens = [perm.from_cycles(n, [[0, 1]]), perm.from_cycles(n, [list(range(n))])]
    group = perm.group_elements(gens, n)
    assert group[0] == perm.identity(n)
    assert len(group) == len(set(group)) == factorial(n)


def test_three_cycles_generate_the_alternating_group():
    gens = [perm.from_cycles(5, [[0, 1, 2]]), perm.from_cycles(5, [[2, 3, 4]])]
    group = perm.group_elements(gens, 5)
    assert len(group) == factorial(5) // 2
    assert all(perm.parity(p) == 0 for p in group)


def test_a_limit_below_the_group_order_gives_none():
    gens = [perm.from_cycles(4, [[0, 1]]), perm.from_cycles(4, [[0, 1, 2, 3]])]
    assert perm.group_elements(gens, 4, limit=23) is None
    assert len(perm.group_elements(gens, 4, limit=24)) == 24


@given(st.lists(st.sampled_from("ABC"), min_size=1, max_size=8))
def test_orbit_of_a_state_under_a_rotation_is_its_distinct_rotations(state):
    n = len(state)
    rotate = perm.from_cycles(n, [list(range(n))]) if n > 1 else perm.identity(1)
    orbit = perm.orbit([tuple(state)], [rotate], lambda s, g: perm.apply(g, s))
    assert orbit[0] == tuple(state)
    assert set(orbit) == {tuple(state[-k:] + state[:-k]) for k in range(n)}
    assert len(orbit) == len(set(orbit))


@given(st.permutations(range(7)))
def test_parity_is_the_parity_of_the_inversion_count(p):
    inversions = sum(1 for i in range(7) for j in range(i + 1, 7) if p[i] > p[j])
    assert perm.parity(p) == inversions % 2
    assert perm.parity(perm.inverse(p)) == perm.parity(p)



def test_orbit_roots_name_each_orbit_by_its_smallest_position():
    rng = random.Random(7)
    n = 30
    perms = [perm.from_cycles(n, [rng.sample(range(n), 4)]) for _ in range(5)]
    roots = perm.orbit_roots(n, perms)
    for x in range(n):  # the orbit by closure: everything the permutations take x to, again and again
        reach = perm.orbit([x], perms, lambda y, p: p[y])
        assert roots[x] == min(reach) and all(roots[y] == roots[x] for y in reach)
