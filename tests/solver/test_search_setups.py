"""Setup tables: for every tuple of slots, a shortest move sequence carrying it onto the target."""

import random

import numpy as np

from solver.search.setups import SetupTable


def carried(slot_maps, moves, slots):
    for m in moves:
        slots = tuple(int(slot_maps[m][s]) for s in slots)
    return slots


def fewest_moves(slot_maps, start, target):
    """Plain BFS forward from one tuple (the table searches backward from the target)."""
    seen, frontier, depth = {start}, [start], 0
    while frontier:
        if target in frontier:
            return depth
        grown = []
        for slots in frontier:
            for m in range(len(slot_maps)):
                after = carried(slot_maps, [m], slots)
                if after not in seen:
                    seen.add(after)
                    grown.append(after)
        frontier, depth = grown, depth + 1
    return None


def test_setups_carry_every_tuple_onto_the_target_in_fewest_moves():
    rng = random.Random(7)
    n = 7
    # three random permutations of slots 0..5; slot 6 never moves, so tuples holding it are unreachable
    slot_maps = np.array([rng.sample(range(6), 6) + [6] for _ in range(3)])
    target = (4, 0, 2)
    table = SetupTable(slot_maps, target)
    checked = 0
    for start in [tuple(rng.sample(range(n), 3)) for _ in range(60)]:
        moves = table.setup(start)
        if 6 in start:
            assert moves is None
            continue
        expected = fewest_moves(slot_maps, start, target)
        if expected is None:
            assert moves is None
        else:
            assert carried(slot_maps, moves, start) == target and len(moves) == expected
            checked += 1
        assert table.depth[table.index(start)] == (-1 if moves is None else len(moves))  # read without walking
    assert checked > 20
    assert table.setup(target) == []


def test_a_table_renamed_serves_an_orbit_whose_moves_act_alike():
    """Another orbit's moves act as these, in another order (and one acts on neither): the renamed
    table's setups, in that orbit's move numbers, carry its tuples onto the target."""
    rng = random.Random(3)
    slot_maps = np.array([rng.sample(range(6), 6) for _ in range(3)] + [list(range(6))])
    order = [2, 3, 0, 1]  # the other orbit's move j acts as this orbit's move order[j]
    other = slot_maps[order]
    table = SetupTable(slot_maps, (1, 4, 5))
    renamed = table.renamed([order.index(m) for m in range(4)])
    for slots in [(0, 2, 3), (5, 1, 4), (3, 0, 1)]:
        moves = renamed.setup(slots)
        assert carried(other, moves, slots) == (1, 4, 5)
        assert len(moves) == len(table.setup(slots))
