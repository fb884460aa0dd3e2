"""The catalog against facts from outside the code: the seed article's vectors, known state counts
and God's numbers of small puzzles (found here by plain BFS), and geometric laws of turning."""

import json
from collections import Counter, deque

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import catalog, perm
from solver.definition.formats import load_data
from solver.errors import DefinitionError

SOLVED_3 = "WWWWWWWWWOOOGGGRRRBBBOOOGGGRRRBBBOOOGGGRRRBBBYYYYYYYYY"
SEED_U = {
    "U": [0, 2, 8, 6, 0, 1, 5, 7, 3, 1, 9, 18, 15, 12, 9, 10, 19, 16, 13, 10, 11, 20, 17, 14, 11],
    "U'": [0, 6, 8, 2, 0, 1, 3, 7, 5, 1, 9, 12, 15, 18, 9, 10, 13, 16, 19, 10, 11, 14, 17, 20, 11],
    "U2": [0, 8, 0, 1, 7, 1, 2, 6, 2, 3, 5, 3, 9, 15, 9, 10, 16, 10, 11, 17, 11, 12, 18, 12, 13, 19, 13, 14, 20, 14],
}
SCRAMBLE = "L D2 R U2 L F2 U2 L F2 R2 B2 R U' R' U2 F2 R' D B' F2".split()


def load(name):
    return load_data(catalog.build(name))


def run(defn, moves, state=None):
    state = tuple(defn.goal if state is None else state)
    for name in moves:
        case = defn.move(name).case_for(state)
        assert case is not None, f"{name} cannot be made in {state}"
        state = perm.apply(case.perm, state)
    return state


def distances(defn, start=None):
    """Plain BFS over every state reachable from `start` (the goal by default)."""
    start = tuple(defn.goal if start is None else start)
    seen = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for move in defn.moves:
            case = move.case_for(state)
            if case is None:
                continue
            nxt = perm.apply(case.perm, state)
            if nxt not in seen:
                seen[nxt] = seen[state] + 1
                queue.append(nxt)
    return seen


# -- the seed 3x3x3 --------------------------------------------------------------------------------


def test_cube3_goal_is_the_seed_net():
    assert load("cube3").goal == tuple(SOLVED_3)


@pytest.mark.parametrize("name", sorted(SEED_U))
def test_cube3_u_turns_are_the_seed_arrays(name):
    assert perm.closed_array(load("cube3").move(name).perm) == SEED_U[name]


def test_u_on_the_solved_cube3_gives_the_seed_vector():
    assert "".join(run(load("cube3"), ["U"])) == "WWWWWWWWWGGGRRRBBBOOOOOOGGGRRRBBBOOOGGGRRRBBBYYYYYYYYY"


def test_scramble_then_its_inverse_is_the_identity():
    cube = load("cube3")
    undo = [cube.inverse_name(m) for m in reversed(SCRAMBLE)]
    scrambled = run(cube, SCRAMBLE)
    assert scrambled != cube.goal
    assert run(cube, undo, scrambled) == cube.goal


# Cubie slots on the seed net, written from its picture (U/D or F/B sticker first), in the order of
# the seed's piece vectors: corners ULB UBR URF UFL DLB DBR DRF DFL; edges BL BR FR FL UB UR UF UL DB
# DR DF DL.
CORNER_SLOTS = [(0, 9, 20), (2, 18, 17), (8, 15, 14), (6, 12, 11), (51, 33, 44), (53, 42, 41), (47, 39, 38), (45, 36, 35)]
EDGE_SLOTS = [(32, 21), (30, 29), (26, 27), (24, 23), (1, 19), (5, 16), (7, 13), (3, 10),
              (52, 43), (50, 40), (46, 37), (48, 34)]


def test_scramble_reaches_the_seed_piece_vectors():
    """SEEDS section 2: the scramble gives cp, co, ep, eo; read them back from the sticker state."""
    state = run(load("cube3"), SCRAMBLE)
    goal = SOLVED_3

    def pieces(slots):
        homes = {frozenset(goal[i] for i in slot): k for k, slot in enumerate(slots)}
        where = [homes[frozenset(state[i] for i in slot)] for slot in slots]
        # oriented when the piece's reference colour (U/D, else F/B) is on the slot's first sticker
        oriented = [state[slot[0]] == goal[slots[where[k]][0]] for k, slot in enumerate(slots)]
        return where, oriented

    cp, co_zero = pieces(CORNER_SLOTS)
    ep, eo_zero = pieces(EDGE_SLOTS)
    assert cp == [4, 3, 2, 1, 6, 5, 7, 0]
    assert co_zero == [c == 0 for c in [0, 0, 1, 0, 2, 2, 2, 2]]
    assert ep == [2, 9, 4, 10, 0, 7, 3, 1, 11, 5, 6, 8]
    assert eo_zero == [e == 0 for e in [1, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]]


# -- every catalog puzzle --------------------------------------------------------------------------


@pytest.mark.parametrize("name", catalog.names())
def test_every_catalog_puzzle_loads_and_is_well_formed(name):
    data = catalog.build(name)
    assert data["format"] == "puzzlehub/1" and data["name"] == name
    assert catalog.describe(name)
    defn = load_data(data)
    n = defn.stickers
    assert len(data["layout"]["cells"]) == n
    assert set(defn.colours) <= set(data["colors"])
    cells = [tuple(c[:2]) for c in data["layout"]["cells"]]
    assert len(set(cells)) == n, "two stickers drawn in the same cell"
    for move in data["moves"]:
        for case in move.get("cases", [move]):
            cycles = case["cycles"]
            flat = [x for c in cycles for x in c]
            assert len(flat) == len(set(flat)) and all(0 <= x < n for x in flat)
            assert all(c[0] == min(c) and len(c) > 1 for c in cycles)
            assert [c[0] for c in cycles] == sorted(c[0] for c in cycles)


@pytest.mark.parametrize("name", [n for n in catalog.names() if not load(n).guarded])
def test_moves_pair_with_inverses_and_doubles(name):
    defn = load(name)
    names = set(defn.move_names)
    for move in defn.moves:
        assert defn.inverse_name(move.name) is not None
        if move.name.endswith("'"):
            assert defn.move(move.name[:-1]).perm == perm.inverse(move.perm)
        if move.name.endswith("2") and move.name[:-1] in names:
            assert move.perm == perm.compose(defn.move(move.name[:-1]).perm, defn.move(move.name[:-1]).perm)


def test_build_is_reproducible():
    assert catalog.build("cube4") == catalog.build("cube4")


@pytest.mark.parametrize(
    "name, problem",
    [("cube1", "2..20"), ("cube21", "2..20"), ("cube03", "unknown"), ("megacube", "unknown"),
     ("loopover-1x4", "2..30"), ("loopover-3x31", "2..30"), ("flipit-4", "5..20"), ("flipit-21", "5..20"),
     ("sliding-1x5", "2..10"), ("cuboid-1x1x1", "no layer"), ("cuboid-11x2x2", "1..10"), ("", "unknown")],
)
def test_bad_names_are_refused_with_a_reason(name, problem):
    with pytest.raises(DefinitionError, match=problem):
        catalog.build(name)
    with pytest.raises(DefinitionError):
        catalog.describe(name)


def test_parametrised_names_beyond_the_listing():
    assert load("cube9").stickers == 6 * 81
    assert load("loopover-30x30").stickers == 900
    assert load("loopover-2x7").stickers == 14
    assert load("cuboid-1x3x3").goals == load("floppy").goals
    assert load("flipit-20").stickers == 40


# -- cubes and cuboids: laws of the geometry -------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_layer_turns_move_the_stickers_of_their_layers(n):
    """A turn of the outer k layers moves its face (n*n) and k rows on each of four sides."""
    cube = load(f"cube{n}")
    for move in cube.moves:
        name = move.name.rstrip("'2")
        depth = 1 if "w" not in name else int(name[:-2] or 2)
        assert len(perm.support(move.perm)) == n * n - n % 2 + 4 * depth * n
        assert perm.order(move.perm) == (2 if move.name.endswith("2") else 4)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_u_on_the_net_shifts_the_top_rows(n):
    """The seed vector generalised: after U the top row of F shows R's colour, of L F's, ..."""
    state = run(load(f"cube{n}"), ["U"])
    band = state[n * n: n * n + 4 * n]
    assert "".join(band) == "G" * n + "R" * n + "B" * n + "O" * n
    assert "".join(state[n * n + 4 * n: n * n + 8 * n]) == "O" * n + "G" * n + "R" * n + "B" * n


@pytest.mark.parametrize("name", ["cube2", "cube4", "cube5", "cuboid-2x2x3", "domino", "cuboid-3x3x4"])
def test_opposite_faces_commute(name):
    defn = load(name)
    turn = {f: defn.move(f).perm for f in "UDLRFB"}
    for a, b in ("UD", "LR", "FB"):
        assert perm.compose(turn[a], turn[b]) == perm.compose(turn[b], turn[a])


@pytest.mark.parametrize("name, goals", [("cube2", 24), ("cube3", 1), ("cube4", 24), ("cube5", 1), ("cube6", 24),
                                         ("floppy", 1), ("domino", 4), ("cuboid-2x2x3", 4), ("cuboid-2x2x4", 8)])
def test_goal_orientations(name, goals):
    """Solved in every orientation the moves can turn the whole puzzle to, and no other."""
    assert len(load(name).goals) == goals


def test_even_cube_rotation_is_made_by_moves():
    """y on cube4 is Uw with Dw' (half the cube each): the symmetry is reachable, hence a goal."""
    cube = load("cube4")
    y = dict(cube.symmetries)["y"]
    assert perm.compose(cube.move("Uw").perm, cube.move("Dw'").perm) == y


def test_cuboid_faces_that_are_not_square_turn_half_only():
    assert set(load("cuboid-2x2x3").move_names) == {"U", "U'", "U2", "D", "D'", "D2", "L", "R", "F", "B"}
    assert load("floppy").move_names == ["U", "D", "L", "R"]
    assert all(perm.order(m.perm) == 2 for m in load("floppy").moves)


def test_floppy_has_192_states_and_gods_number_8():
    dist = distances(load("floppy"))
    assert load("floppy").stickers == 30
    assert len(dist) == 192
    assert max(dist.values()) == 8


# -- the other families ----------------------------------------------------------------------------


def test_pyraminx_moves_turn_nine_stickers_and_spare_one_face():
    pyr = load("pyraminx")
    assert pyr.stickers == 24
    for move in pyr.moves:
        moved = perm.support(move.perm)
        assert len(moved) == 9 and perm.order(move.perm) == 3
        untouched = Counter(pyr.goal[i] for i in range(24) if i not in moved)
        assert 6 in untouched.values(), "the face opposite the vertex must stay"


def test_skewb_fixes_one_corner():
    sk = load("skewb")
    moved = set().union(*(perm.support(m.perm) for m in sk.moves))
    assert sk.stickers - len(moved) == 3
    for move in sk.moves:
        assert len(perm.support(move.perm)) == 15 and perm.order(move.perm) == 3


def test_ball_ring_is_the_seed_file(ball_ring_text):
    seed = load_data(yaml.safe_load(ball_ring_text))
    ring = load("ball-ring")
    assert ring.goals == seed.goals
    for name in seed.move_names:
        assert ring.move(name).perm == seed.move(name).perm


def test_loopover_2x2_reaches_all_24_arrangements():
    assert len(distances(load("loopover-2x2"))) == 24


def test_loopover_moves_shift_one_line():
    lo = load("loopover-3x4")
    assert "".join(run(lo, ["R1<"])) == "BCDAEFGHIJKL"
    assert "".join(run(lo, ["C2v"])) == "AJCDEBGHIFKL"


def test_sliding_2x3_has_360_states_and_gods_number_21():
    dist = distances(load("sliding-2x3"))
    assert len(dist) == 360 and max(dist.values()) == 21


def test_sliding_moves_name_the_way_the_tile_goes():
    fifteen = load("sliding-4x4")
    assert fifteen.goal == tuple(str(i) for i in range(16))
    after = run(fifteen, ["U", "L"])  # tile 4 slides up into the blank, then tile 5 left
    assert after[:6] == ("4", "1", "2", "3", "5", "0")
    assert fifteen.move("D").case_for(fifteen.goal) is None  # nothing above the blank


def test_sliding_4x4_reads_korf_instances():
    from pathlib import Path

    korf = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "korf100.txt"
    if not korf.is_file():
        pytest.skip("korf100.txt is not beside the repository")
    rows = korf.read_text().split("\n")
    tiles = rows[1].split()
    assert sorted(tiles, key=int) == list(load("sliding-4x4").goal)


def flipit_state(text):
    """`_BWB` -> stickers up, down per cell."""
    other = {"B": "W", "W": "B", "_": "_"}
    return tuple(s for ch in text for s in (ch, other[ch]))


@pytest.mark.parametrize("cells", [5, 6])
def test_flipit_start_reaches_the_flipped_goal(cells):
    defn = load(f"flipit-{cells}")
    assert defn.goal == flipit_state("_" + "W" * (cells - 1))
    assert flipit_state("_" + "B" * (cells - 1)) in distances(defn)


def test_flipit_below_five_cells_has_no_solution():
    """The seed article: solutions exist for boards of 5 or more cells."""
    from solver.catalog import flipit

    four = load_data(flipit.build(4, "flipit-4"))
    assert flipit_state("_BBB") not in distances(four)


def test_flipit_jump_flips_the_stones_jumped_over():
    defn = load("flipit-5")
    assert run(defn, ["J4"], flipit_state("_BWBB")) == flipit_state("BWB_B")
    assert defn.move("J2").case_for(flipit_state("_BWBB")) is None  # next to the empty cell: no jump


@pytest.mark.parametrize("name", ["cube2", "floppy", "pyraminx", "skewb", "ball-ring", "loopover-3x3", "sliding-3x3",
                                  "sliding-4x4", "flipit-5"])
def test_yaml_and_json_texts_are_the_same_puzzle(name):
    """What `puzzle show` and the site store is text: the dict must survive YAML and JSON."""
    from solver.definition.canonical import content_hash
    from solver.definition.formats import load_text

    data = catalog.build(name)
    expected = content_hash(load_data(data))
    assert content_hash(load_text(yaml.safe_dump(data, sort_keys=False))) == expected
    assert content_hash(load_text(json.dumps(data))) == expected


def test_megaminx_turns_fifths_of_one_face_and_its_rim():
    mega = load("megaminx")
    assert mega.stickers == 132 and len(mega.moves) == 48
    for move in mega.moves:
        assert len(perm.support(move.perm)) == 10 + 5 * 3 and perm.order(move.perm) == 5
    u, d = mega.move("U").perm, mega.move("D").perm
    assert perm.compose(u, d) == perm.compose(d, u)
    assert perm.power(u, 2) == mega.move("U2").perm and perm.inverse(u) == mega.move("U'").perm
    # clockwise from above, like the cube's U: the front face's rim now shows the colour of R
    after = run(mega, ["U"])
    front_rim = {after[i] for i in perm.support(u) if mega.goal[i] == "G"}
    assert front_rim == {mega.goal[next(i for i in perm.support(u) if mega.goal[i] == "R")]}


@settings(max_examples=25, deadline=None)
@given(st.one_of(
    st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4)).filter(lambda s: max(s) > 1)
    .map(lambda s: "cuboid-{}x{}x{}".format(*s)),
    st.integers(2, 9).map(lambda n: f"cube{n}"),
    st.tuples(st.integers(2, 30), st.integers(2, 30)).map(lambda s: "loopover-{}x{}".format(*s)),
    st.tuples(st.integers(2, 10), st.integers(2, 10)).map(lambda s: "sliding-{}x{}".format(*s)),
    st.integers(5, 20).map(lambda n: f"flipit-{n}"),
))
def test_any_size_of_a_family_builds_a_sound_definition(name):
    defn = load(name)
    assert defn.stickers == len(catalog.build(name)["layout"]["cells"])
    for move in defn.moves:
        if move.guarded:
            # the guarded cell (the blank) is one that the case moves
            for case in move.cases:
                assert {pos for pos, _colour in case.guard} <= set(perm.support(case.perm))
        else:
            assert defn.inverse_name(move.name) is not None
