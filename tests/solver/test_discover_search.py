"""Discovery's searches: the pool against known counts, shortest lengths against breadth-first search
over the whole group, merging of inverse and symmetric duplicates, budgets."""

import time
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import catalog, perm
from solver.definition.formats import load_data
from solver.discover import discover, effect, shortest_with_effect
from solver.discover.discovery import Discovery
from solver.discover.effects import Effects
from solver.discover.moveset import MoveSet
from solver.discover.pool import Pool
from solver.search.budget import Budget


def load(name):
    return load_data(catalog.build(name))


def two_generator_cube2():
    """The 2x2x2 with only U and R turns (29,160 positions), no rotation goals."""
    data = catalog.build("cube2")
    data["moves"] = [m for m in data["moves"] if m["name"][0] in "UR"]
    data.pop("symmetries", None)
    data["name"] = "cube2-ur"
    return load_data(data)


def group_depths(defn):
    """Breadth-first over the whole group of the moves: permutation -> its distance."""
    gens = [m.perm for m in defn.moves]
    start = perm.identity(defn.stickers)
    depth = {start: 0}
    queue = deque([start])
    while queue:
        p = queue.popleft()
        for g in gens:
            q = perm.compose(p, g)
            if q not in depth:
                depth[q] = depth[p] + 1
                queue.append(q)
    return depth


def shortest_by_class(defn, depths, max_support):
    effects = Effects(defn)
    best = {}
    for p, d in depths.items():
        moved = sum(1 for i, x in enumerate(p) if i != x)
        if 0 < moved <= 4 * max_support:
            e = effects.of_perm(p)
            if 0 < e.support <= max_support and d < best.get(e.key, (99,))[0]:
                best[e.key] = (d, p)
    return best


@pytest.fixture(scope="module")
def floppy():
    defn = load("floppy")
    return defn, group_depths(defn)


@pytest.fixture(scope="module")
def cube2_ur():
    defn = two_generator_cube2()
    return defn, group_depths(defn)


def test_pool_levels_are_the_known_cube_counts():
    pool = Pool.build(MoveSet.of(load("cube3")), max_depth=4, budget=Budget())
    assert [b - a for a, b in pool.levels] == [1, 18, 243, 3240, 43239]  # positions at 0..4 face turns
    assert pool.complete_depth == 4


@pytest.mark.parametrize("name, size", [("pyraminx", 933_120), ("loopover-3x3", 181_440)])
def test_canonical_sequences_reach_the_whole_group(name, size):
    """Pruning to canonical sequences loses no position: the pool ends with every element of groups
    of known size (the Pyraminx without tips; the 3x3 Loopover, all even permutations of 9 tiles)."""
    pool = Pool.build(MoveSet.of(load(name)), max_depth=40, budget=Budget())
    assert pool.count == size and pool.levels[-1][0] == pool.levels[-1][1]


def test_pool_holds_the_whole_floppy_group(floppy):
    defn, depths = floppy
    pool = Pool.build(MoveSet.of(defn), max_depth=20, budget=Budget())
    assert pool.count == len(depths) == 192
    assert max(int(d) for d in pool.depth[: pool.count]) == 8  # God's number of the floppy cube
    for e in range(pool.count):
        p = MoveSet.of(defn).perm_of(pool.sequence(e))
        assert tuple(int(x) for x in pool.store[e]) == p and depths[p] == pool.depth[e]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 17), max_size=12))
def test_simplify_keeps_the_permutation_and_never_lengthens(seq):
    moves = MoveSet.of(load("cube3"))
    out = moves.simplify(seq)
    assert moves.perm_of(out) == moves.perm_of(seq) and len(out) <= len(seq)
    assert all((a, b) not in moves.merges for a, b in zip(out, out[1:]))


def test_simplify_merges_across_commuting_moves():
    moves = MoveSet.of(load("cube3"))
    assert moves.names_of(moves.simplify(moves.parse("U D U'".split()))) == ["D"]
    assert moves.names_of(moves.simplify(moves.parse("R U U R'".split()))) == ["R", "U2", "R'"]


@pytest.mark.parametrize("which", ["floppy", "cube2_ur"])
def test_meet_in_the_middle_finds_the_shortest_of_each_class(which, request):
    defn, depths = request.getfixturevalue(which)
    truth = shortest_by_class(defn, depths, 4)
    effects = Effects(defn)
    moves = effects.moves
    assert len(truth) >= 5
    for key, (d, p) in truth.items():
        # a long way to the same class: the element conjugated by a setup, then searched back down
        setup = [0, 1] if len(moves) > 1 else [0]
        seq = moves.inverse_of(setup) + bfs_sequence(moves, p) + setup
        found = shortest_with_effect(defn, moves.names_of(seq), max_length=len(seq))
        assert found["length"] == d, (key, found)
        assert effect(defn, found["moves"])["effect_key"] == key


def bfs_sequence(moves, target):
    start = perm.identity(moves.stickers)
    back = {start: None}
    queue = deque([start])
    while queue:
        p = queue.popleft()
        if p == target:
            break
        for m, g in enumerate(moves.perms):
            q = perm.compose(p, g)
            if q not in back:
                back[q] = (p, m)
                queue.append(q)
    seq = []
    while back[target] is not None:
        target, m = back[target]
        seq.append(m)
    return seq[::-1]


@pytest.mark.parametrize("which", ["floppy", "cube2_ur"])
def test_discover_is_replayed_ranked_and_exact_where_it_says_so(which, request):
    defn, depths = request.getfixturevalue(which)
    truth = shortest_by_class(defn, depths, 4)
    results = discover(defn, max_support=4, time_limit=20)
    assert results
    ranks = [(r["length"], r["support"], len(set(r["moves"]))) for r in results]
    assert ranks == sorted(ranks)
    per_class = {}
    for r in results:
        replay = effect(defn, r["moves"])
        assert (replay["effect"], replay["effect_key"], replay["support"], replay["order"]) == \
               (r["effect"], r["effect_key"], r["support"], r["order"])
        assert r["length"] == len(r["moves"]) and 0 < r["support"] <= 4
        per_class.setdefault(r["effect_key"], []).append(r)
        if r["shortest"]:
            assert r["length"] == truth[r["effect_key"]][0]
    assert all(len(v) <= 3 for v in per_class.values())
    # on these small groups every class is found and proven
    assert set(per_class) == set(truth)
    assert all(v[0]["shortest"] for v in per_class.values())


def test_inverse_and_symmetric_duplicates_are_merged(floppy):
    """Two classes reported apart are never related by inversion, conjugation in the group or a
    symmetry of the move set (checked by brute force over all 192 elements)."""
    defn, depths = floppy
    effects = Effects(defn)
    results = discover(defn, max_support=4, time_limit=20)
    reps = {}
    for r in results:
        reps.setdefault(r["effect_key"], effects.moves.perm_of(effects.moves.parse(r["moves"])))
    group = list(depths)
    autos = effects.automorphisms
    assert len(autos) > 1
    keys = list(reps)
    for i, k1 in enumerate(keys):
        x = reps[k1]
        related = {perm.compose(perm.inverse(s), perm.inverse(g), y, g, s)
                   for y in (x, perm.inverse(x)) for g in group for s in autos}
        for k2 in keys[i + 1:]:
            assert reps[k2] not in related, (k1, k2)


def test_cube3_classes_include_the_corner_3_cycle_in_8_moves():
    results = discover(load("cube3"), max_support=3, max_length=8, time_limit=25)
    corner = [r for r in results if r["effect"].startswith("corner 3-cycle")]
    assert corner and corner[0]["length"] == 8 and corner[0]["shortest"]


def test_budget_cancel_and_progress():
    seen = []
    started = time.monotonic()

    def cancel():  # once the progress shows
        return bool(seen)

    results = discover(load("cube3"), time_limit=60, progress=seen.append, cancel=cancel)
    assert time.monotonic() - started < 20
    assert isinstance(results, list) and seen and {"nodes", "seconds"} <= set(seen[0])


def test_the_symmetry_search_before_the_phases_stops_on_cancel():
    """It may take seconds (discovery runs it before its first phase): the job's cancel stops it."""
    from solver import deadline
    from solver.discover import symmetry
    from solver.search.budget import Cancelled

    with deadline.limit(Budget(cancel=lambda: True)), pytest.raises(Cancelled):
        symmetry.automorphisms(MoveSet.of(load("cube3")).perms)


@pytest.mark.parametrize("raised", [0, 1])
def test_the_pair_and_meet_kernels_read_the_stop_flag(raised):
    """They may run a second per call: with the budget's stop flag raised they return at once."""
    import numpy as np

    from solver.discover import kernels

    defn = two_generator_cube2()
    effects = Effects(defn, MoveSet.of(defn))
    pool = Pool.build(effects.moves, max_depth=6, budget=Budget())
    stop = np.array([raised], dtype=np.int64)
    rows = pool.store[:pool.count]
    target = rows[pool.count - 1 : pool.count].copy()  # a permutation the meet finds from any level
    out = np.zeros((16, 3), dtype=np.int64)
    met = kernels.meet(pool.store, pool.table, 1, pool.count, target, out, 0, stop)
    run = Discovery(effects, max_length=12, max_support=4, budget=Budget())
    run.pool = pool
    masks = run._piece_masks(rows, 1)
    lengths = pool.depth[:pool.count].astype(np.int64)
    paired = kernels.pairs(rows, masks, lengths, 0, pool.count, rows, masks, lengths, pool.count, 12, True, run.rinv,
                           run.piece_ptr, run.piece_stk, run.colour, run.ref_stk, run.ref_mask, 4, 4,
                           np.zeros(1 << 16, np.uint64), np.zeros(1 << 16, np.int32), 16, out, 0, stop)
    if raised:
        assert (met, paired) == (0, 0)
    else:
        assert met > 0 and paired > 0


def test_bad_limits_are_refused():
    from solver.errors import PuzzleError

    with pytest.raises(PuzzleError, match="max_support"):
        discover(load("floppy"), max_support=0)
    with pytest.raises(PuzzleError, match="time_limit"):
        discover(load("floppy"), time_limit=-1)
