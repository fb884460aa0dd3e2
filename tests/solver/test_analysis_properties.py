"""Property tests on random small puzzles: the chain against brute-force closure, counts and
reachability against breadth-first search, piece readings against move actions."""

from hypothesis import given, settings, strategies as st

from solver import perm
from solver.analysis import statespace
from solver.analysis.chain import StabChain, holds_alternating
from solver.analysis.group import reachability, state_count
from solver.analysis.pieces import build_piece_model
from solver.definition.model import Case, Definition, Move


@st.composite
def small_puzzles(draw):
    n = draw(st.integers(3, 8))
    gens = []
    for _ in range(draw(st.integers(1, 3))):
        order = draw(st.permutations(range(n)))
        cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=3)))
        pieces = [order[a:b] for a, b in zip([0] + cuts, cuts + [n])]
        p = perm.from_cycles(n, [c for c in pieces if len(c) > 1])
        if not perm.is_identity(p) and p not in gens:
            gens.append(p)
    if not gens:
        gens.append(perm.from_cycles(n, [[0, 1]]))
    colours = draw(st.lists(st.sampled_from("ABC"), min_size=n, max_size=n))
    moves = tuple(Move(f"m{i}", (Case(g),)) for i, g in enumerate(gens))
    return Definition(name="random", stickers=n, moves=moves, goals=(tuple(colours),))


@settings(max_examples=60, deadline=None)
@given(small_puzzles())
def test_chain_order_and_membership_match_closure(defn):
    n, gens = defn.stickers, defn.generators()
    group = set(perm.group_elements(gens, n))
    chain = StabChain(n, gens)
    assert chain.complete and chain.order == len(group)
    for p in list(group)[:50]:
        assert chain.contains(p)
    outside = [p for p in (perm.from_cycles(n, [[0, 1]]), perm.from_cycles(n, [[0, 1, 2]])) if p not in group]
    assert not any(chain.contains(p) for p in outside)


@settings(max_examples=60, deadline=None)
@given(small_puzzles(), st.randoms(use_true_random=False))
def test_counts_and_reachability_match_breadth_first_search(defn, rnd):
    seen, pack = statespace.reachable_states(defn)
    count, exact = state_count(defn)
    assert exact and count == len(seen)
    for _ in range(10):
        s = list(defn.goal)
        rnd.shuffle(s)
        assert (reachability(defn, s) is None) == statespace.contains(seen, pack(s))


@settings(max_examples=60, deadline=None)
@given(small_puzzles())
def test_every_move_maps_pieces_onto_pieces(defn):
    model = build_piece_model(defn)
    for g in defn.generators():
        for orbit, t in zip(model.orbits, model.action(g)):
            assert sorted(t.tolist()) == list(range(len(orbit.slots) * orbit.twists))
    covered = sorted(model.fixed + tuple(x for o in model.orbits for x in o.stickers))
    assert covered == list(range(defn.stickers))


@settings(max_examples=60, deadline=None)
@given(small_puzzles())
def test_alternating_is_only_claimed_when_every_three_cycle_is_in_the_group(defn):
    n, gens = defn.stickers, defn.generators()
    group = set(perm.group_elements(gens, n))
    for orbit in point_orbits(n, gens):
        if holds_alternating(gens, orbit):
            a = orbit[0]
            for b in orbit[1:]:
                for c in orbit[1:]:
                    if b != c:
                        assert perm.from_cycles(n, [[a, b, c]]) in group


def point_orbits(n, gens):
    seen, out = set(), []
    for start in range(n):
        if start in seen:
            continue
        orbit, frontier = {start}, [start]
        while frontier:
            frontier = [g[x] for x in frontier for g in gens if g[x] not in orbit]
            orbit.update(frontier)
        seen |= orbit
        out.append(sorted(orbit))
    return out
