"""The move group of a definition and what it says about states: the group order (exact, with a
proof), the number of reachable colourings, whether a state is reachable and why not, and the
groupoid of sliding puzzles. Chains come from `chain`; pieces and orbits from `pieces`.

A chain from random Schreier-Sims is proven complete when its order (a lower bound) reaches an
upper bound: the product of the group's images on each orbit of pieces (each proven by Sims'
verification or a wreath-product bound), cut by the parity relations between orbits.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from math import factorial, prod
from typing import Sequence

import numpy as np

from solver import perm
from solver.analysis.chain import (LARGEST_ENTRIES, MAX_ENTRIES, StabChain, f2_rank, holds_alternating,
                                   symmetric_bound)
from solver.analysis.pieces import Orbit, PieceModel, piece_generators, piece_model
from solver.errors import StateError
from solver.perm import Perm


@dataclass
class MoveGroup:
    """The group of a definition's moves (unguarded moves and every case of guarded ones) with a
    stabiliser chain whose base starts with the stickers of pinned pieces (pieces no other piece
    looks like, in any orientation), so that the chain's tail is the group fixing them."""

    chain: StabChain
    exact: bool  # the order is proven (the chain is, when chain.complete)
    pinned: int  # base points of pinned pieces at the start of the base
    model: PieceModel
    # When the chain cannot be proven (too big to store) but every orbit is one-sticker pieces
    # whose alternating group the group holds: the group is exactly the permutations of those
    # orbits whose parities lie in the span of the generators' parities.
    tiles: tuple[tuple[int, ...], ...] = ()
    tile_parities: tuple[int, ...] = ()  # the generators' parity vectors over `tiles`

    @property
    def order(self) -> int:
        if self.chain.complete or not self.tiles:
            return self.chain.order
        return prod(factorial(len(t)) // 2 for t in self.tiles) * 2 ** f2_rank(self.tile_parities)


def pinned_slots(model: PieceModel) -> set[tuple[int, int]]:
    """(orbit, slot) of the pieces that only themselves, unturned, match the goal colours there."""
    goal = model.goal
    out = set()
    for oi, orbit in enumerate(model.orbits):
        looks = Counter(seen for _, _, seen in orbit.looks(goal))
        for s, slot in enumerate(orbit.slots):
            if looks[tuple(goal[x] for x in slot)] == 1:
                out.add((oi, s))
    return out


def orbit_signs(model: PieceModel, p: Sequence[int]) -> int:
    """Bit 2j: parity of p on the slots of orbit j; bit 2j+1: parity on its stickers."""
    bits = 0
    for oi, orbit in enumerate(model.orbits):
        slot_of = {x: s for s, slot in enumerate(orbit.slots) for x in slot}
        slot_perm = [slot_of[p[slot[0]]] for slot in orbit.slots]
        stickers = orbit.stickers
        index = {x: i for i, x in enumerate(stickers)}
        sticker_perm = [index[p[x]] for x in stickers]
        bits |= perm.parity(slot_perm) << (2 * oi) | perm.parity(sticker_perm) << (2 * oi + 1)
    return bits


@lru_cache(maxsize=32)
def orbit_chains(defn) -> tuple[StabChain, ...]:
    """Per orbit, the chain of the group's image on that orbit's stickers (numbered slot by slot
    in reference order), proven by verification or by `wreath_bound`."""
    model, gens = piece_model(defn), piece_generators(defn)
    out = []
    for orbit in model.orbits:
        index = {x: i for i, x in enumerate(orbit.stickers)}
        images = sorted({tuple(index[g[x]] for x in orbit.stickers) for g in gens})
        bound = wreath_bound(orbit, images)
        chain = StabChain(len(index), images, bound=bound)
        if not chain.complete and not chain.truncated:
            chain.complete = chain.order == bound
        out.append(chain)
    return tuple(out)


def wreath_bound(orbit: Orbit, images: list[Perm]) -> int:
    """Upper bound of the group's image on one orbit (given by its generators' `images`, stickers
    numbered slot by slot): every element permutes the pieces and turns each within the
    orientation group H, so it lies in the wreath product W of order S! |H|^S; its features (slot
    parity, sticker parity and, for a cyclic H, total twist) stay in what the generators reach."""
    slots, k = len(orbit.slots), len(orbit.rot)
    whole = OrbitFeatures(orbit)
    swap = [(1, len(orbit.slots[0]) % 2, 0)] if slots > 1 else []  # two pieces trading slots
    whole_reach = whole.reached(swap + [(0, perm.parity(r), whole.exponent[r] % whole.twist_mod) for r in orbit.rot])
    return factorial(slots) * k**slots * len(whole.reached([whole.of(q) for q in images])) // len(whole_reach)


class OrbitFeatures:
    """The features of an element of an orbit's wreath product (stickers numbered slot by slot):
    (slot parity, sticker parity, total twist mod k when the orientation group is cyclic of order
    k, else 0). They are a homomorphism to an abelian group, so the features of a group's elements
    are what its generators' features reach."""

    def __init__(self, orbit: Orbit):
        self.slots, self.m = len(orbit.slots), len(orbit.slots[0])
        k = len(orbit.rot)
        step = next((r for r in orbit.rot if perm.order(r) == k), None)  # a generator of H if cyclic
        self.exponent = {perm.power(step, e): e for e in range(k)} if step else {r: 0 for r in orbit.rot}
        self.twist_mod = k if step else 1

    def of(self, q: Sequence[int]) -> tuple[int, int, int]:
        m = self.m
        slot_perm = [q[s * m] // m for s in range(self.slots)]
        total = sum(self.exponent[tuple(q[s * m + j] - slot_perm[s] * m for j in range(m))] for s in range(self.slots))
        return perm.parity(slot_perm), perm.parity(q), total % self.twist_mod

    def untwisted(self, q: Sequence[int]) -> tuple[int, int, int]:
        """The features of q with every piece put back in its reference orientation."""
        m = self.m
        return self.of([(q[s * m] // m) * m + j for s in range(self.slots) for j in range(m)])

    def reached(self, vectors) -> set[tuple[int, int, int]]:
        def add(a, v):
            return (a[0] + v[0]) % 2, (a[1] + v[1]) % 2, (a[2] + v[2]) % self.twist_mod

        return set(perm.orbit([(0, 0, 0)], vectors, add))


def orbit_upper_bound(defn) -> int | None:
    """An upper bound of the group order: the product of the orders of the group's images on each
    orbit, divided by what the parity relations between orbits rule out (every generator, hence
    every element, has its vector of per-orbit slot and sticker parities in the span V of the
    generators' vectors, inside the span W the orbit images reach one by one: the bound is
    prod * |V| / |W|). None when an orbit's image cannot be proven exactly."""
    model, gens = piece_model(defn), piece_generators(defn)
    chains = orbit_chains(defn)
    if not all(c.complete for c in chains):
        return None
    total = prod(c.order for c in chains)
    per_orbit = []
    vectors = [orbit_signs(model, g) for g in gens]
    for oi in range(len(model.orbits)):
        per_orbit.extend(v & (3 << (2 * oi)) for v in vectors)
    dim_v, dim_w = f2_rank(vectors), f2_rank(per_orbit)
    return total * 2**dim_v // 2**dim_w


@lru_cache(maxsize=4)
def move_group(defn) -> MoveGroup:
    """The move group of a definition (cached per definition)."""
    model = piece_model(defn)
    gens = piece_generators(defn)
    pinned = pinned_slots(model)
    first = [x for oi, o in enumerate(model.orbits) for s, slot in enumerate(o.slots)
             if (oi, s) in pinned for x in slot]
    rest = [x for oi, o in enumerate(model.orbits) for s, slot in enumerate(o.slots)
            if (oi, s) not in pinned for x in slot]
    bound = orbit_upper_bound(defn)  # proves most puzzles' chains without Sims' verification
    chain = StabChain(defn.stickers, gens, first + rest, max_entries=_chain_room(defn.stickers, model), bound=bound)
    exact = chain.complete
    if not exact:
        exact = chain.order == bound
        chain.complete = exact
    moved_first = sum(1 for lv in chain.levels if lv.point in set(first))
    tiles: tuple = ()
    if not exact and all(len(o.slots[0]) == 1 for o in model.orbits):
        if all(holds_alternating(gens, o.stickers) for o in model.orbits):
            tiles = tuple(tuple(o.stickers) for o in model.orbits)
            exact = True
    return MoveGroup(chain=chain, exact=exact, pinned=moved_first, model=model, tiles=tiles,
                     tile_parities=tuple(run_parities(tiles, g) for g in gens) if tiles else ())


def _chain_room(n: int, model: PieceModel) -> int:
    """How many transversal entries the chain may hold: with the base orbit by orbit, a level's
    orbit stays inside one orbit of pieces, so an orbit of s stickers needs at most s(s+1)/2
    transversal elements of 2n entries. Many small orbits (a 20x20x20 cube) get the room that
    estimate asks, up to LARGEST_ENTRIES; one that cannot fit gets the usual MAX_ENTRIES."""
    expected = 2 * n * sum(len(o.stickers) * (len(o.stickers) + 1) // 2 for o in model.orbits)
    return expected if MAX_ENTRIES < expected <= LARGEST_ENTRIES else MAX_ENTRIES


def group_order(defn) -> tuple[int, bool]:
    """(order of the move group, whether it is proven exact; else it is a lower bound)."""
    g = move_group(defn)
    return g.order, g.exact


def random_element(defn, rng: random.Random) -> Perm:
    """A uniformly random element of the move group (given a proven chain)."""
    return move_group(defn).chain.random_element(rng)


# --- reachable colourings -----------------------------------------------------------------------


def _identical_runs(defn, group: MoveGroup):
    """The stickers of unpinned pieces per orbit, when every unpinned piece is a one-sticker piece
    (big-cube centres); None otherwise."""
    pinned = pinned_slots(group.model)
    runs = []
    for oi, orbit in enumerate(group.model.orbits):
        loose = [slot for s, slot in enumerate(orbit.slots) if (oi, s) not in pinned]
        if not loose:
            continue
        if len(orbit.slots[0]) != 1:
            return None
        runs.append([slot[0] for slot in loose])
    return runs


def _three_cycles(run: list[int], n: int):
    for i in range(2, len(run)):
        p = list(range(n))
        p[run[0]], p[run[1]], p[run[i]] = run[1], run[i], run[0]
        yield p


def colour_stabiliser_order(defn) -> int | None:
    """|G ∩ Y|, Y the permutations keeping the goal's colours, when provable: an element of G ∩ Y
    fixes every pinned piece, so it lies in K, the chain's tail after the pinned base points, and
    permutes each orbit's unpinned one-sticker pieces R_j. If K holds every even permutation of
    each R_j (checked by sifting 3-cycles), K is exactly the elements of prod Sym(R_j) whose
    vector of parities lies in V (the span of K's generators' parities), and
    |K ∩ Y| = prod |Y_j ∩ Alt(R_j)| * |V ∩ W|, W the parities that colour-keeping permutations
    reach. None when the structure is different."""
    runs = identical_runs(defn)
    if runs is None:
        return None
    return parity_cut_order(runs.runs, defn.goal, list(runs.parities))


@dataclass(frozen=True)
class IdenticalRuns:
    """The runs R_j of unpinned one-sticker pieces, and the run parities of the generators of K
    (the group fixing the pinned pieces), known to hold every even permutation of each run."""

    runs: tuple[tuple[int, ...], ...]
    parities: tuple[int, ...]


@lru_cache(maxsize=32)
def identical_runs(defn) -> IdenticalRuns | None:
    """The runs of a proven group whose unpinned pieces are all one-sticker pieces (big-cube
    centres) and which holds each run's alternating group (checked by sifting 3-cycles, once per
    definition); None otherwise."""
    group = move_group(defn)
    if not group.chain.complete:
        return None
    runs = _identical_runs(defn, group)
    if runs is None or not all(group.chain.contains(c) for run in runs for c in _three_cycles(run, defn.stickers)):
        return None
    chain = group.chain
    tail = chain.levels[group.pinned].gens if group.pinned < len(chain.levels) else []
    return IdenticalRuns(tuple(tuple(r) for r in runs), tuple(run_parities(runs, g) for g in tail))


def run_parities(runs, p) -> int:
    """Bit j: the parity of p on the positions of runs[j] (which p maps onto themselves)."""
    bits = 0
    for j, run in enumerate(runs):
        index = {x: i for i, x in enumerate(run)}
        bits |= perm.parity([index[int(p[x])] for x in run]) << j
    return bits


def parity_cut_order(runs, goal, v: list[int]) -> int:
    """How many permutations of the runs keep the goal's colours and have their parity vector in
    the span of v: prod |Y_j ∩ Alt(run j)| * |V ∩ W|, W the parities colour-keeping ones reach."""
    w = []
    size = 1
    for j, run in enumerate(runs):
        counts = Counter(goal[x] for x in run)
        y = prod(factorial(c) for c in counts.values())
        if any(c > 1 for c in counts.values()):
            w.append(1 << j)
            y //= 2
        size *= y
    dim_v, dim_w = f2_rank(v), f2_rank(w)
    return size * 2 ** (dim_v + dim_w - f2_rank(v + w))


def _distinct_bound(defn) -> int:
    """Colourings with the goal's colour counts: a bound for any puzzle."""
    counts = Counter(defn.goal)
    return factorial(defn.stickers) // prod(factorial(c) for c in counts.values())


def state_count(defn) -> tuple[int, bool]:
    """(number of colourings reachable from the goal, exact?). When not exact, an upper bound."""
    from solver.analysis import statespace

    same_colour = prod(factorial(c) for c in Counter(defn.goal).values())
    if defn.guarded:
        token = token_groupoid(defn)
        lower = 0
        if token is not None:
            if token.count is not None:
                return token.count, True
            lower = len(token.paths) * token.loops.order // same_colour
    else:
        group = move_group(defn)
        stab = colour_stabiliser_order(defn)
        if group.tiles:
            stab = parity_cut_order(group.tiles, defn.goal, list(group.tile_parities))
        if stab is not None:
            return group.order // stab, True
        lower = group.order // same_colour  # |G| / |G ∩ Y| >= |G| / |Y|
    if lower <= statespace.BFS_LIMIT:
        counted = statespace.count_states(defn)
        if counted is not None:
            return counted, True
    bound = _distinct_bound(defn)
    if not defn.guarded and move_group(defn).exact:
        bound = min(bound, move_group(defn).order)
    return bound, False


# --- puzzles whose guards only ask where one token is (sliding puzzles) --------------------------


@dataclass
class TokenGroupoid:
    """A guarded puzzle whose every guard asks whether one unique-coloured sticker, the token (the
    blank), is at a given position. Its states are (token position, arrangement): the moves form a
    groupoid over the token positions, and the sequences from the home position back to it form
    a group, generated by one Schreier generator per edge outside a spanning tree. The states with
    the token at v are the goal moved by that loop group, then by the tree path to v."""

    token: str
    home: int
    paths: dict[int, Perm]  # token position -> the tree path's permutation from home
    loops: StabChain
    count: int | None  # reachable colourings when the goal's colours are all distinct


def _token_edges(defn):
    token = None
    edges: dict[int, list[Perm]] = {}
    unguarded = []
    for m in defn.moves:
        if not m.guarded:
            unguarded.append(m.perm)
            continue
        used = set()
        for case in m.cases:
            if len(case.guard) != 1:
                return None
            pos, colour = case.guard[0]
            if token not in (None, colour):
                return None
            token = colour
            if pos not in used:  # a move applies the first case whose guard holds
                used.add(pos)
                edges.setdefault(pos, []).append(case.perm)
    return token, edges, unguarded


@lru_cache(maxsize=32)
def token_groupoid(defn) -> TokenGroupoid | None:
    found = _token_edges(defn)
    if found is None or found[0] is None:
        return None
    token, edges, unguarded = found
    if list(defn.goal).count(token) != 1:
        return None
    n = defn.stickers
    home = defn.goal.index(token)
    paths = {home: perm.identity(n)}
    loops = []
    queue = [home]
    for v in queue:
        for q in edges.get(v, []) + unguarded:
            w = q[v]
            step = perm.compose(paths[v], q)
            if w not in paths:
                paths[w] = step
                queue.append(w)
            else:
                loop = perm.compose(step, perm.inverse(paths[w]))
                if not perm.is_identity(loop):
                    loops.append(loop)
    chain = StabChain(n, sorted(set(loops)))
    if not chain.complete and not chain.truncated:
        chain.complete = chain.order == symmetric_bound(n, chain.gens)
    distinct = len(set(defn.goal)) == n
    count = len(paths) * chain.order if distinct and chain.complete else None
    return TokenGroupoid(token, home, paths, chain, count)


# --- reachability -------------------------------------------------------------------------------


def _colour_reason(defn, state) -> str | None:
    have, want = Counter(state), Counter(defn.goal)
    for colour in [c for c in have if c not in want] + list(want):
        if have[colour] != want[colour]:
            return f"colour counts differ: {have[colour]} {colour}, goal has {want[colour]}"
    return None


def _arrangement(model: PieceModel, state, n: int) -> Perm:
    """A permutation taking the goal to `state`; identical pieces are assigned in slot order."""
    goal = model.goal
    p = list(range(n))
    for orbit, reading, home in zip(model.orbits, model.read(state), model.read(goal)):
        k = orbit.twists
        free: dict[int, list[int]] = {}
        for h, code in enumerate(home):
            free.setdefault(int(code) // k, []).append(h)
        for s, code in enumerate(reading):
            if not free[int(code) // k]:
                piece = " ".join(goal[x] for x in orbit.slots[int(code) // k])
                raise StateError(f"{orbit.name}: the piece {piece} appears too often")
            h = free[int(code) // k].pop(0)
            for r in orbit.rot:  # the orientation in which goal piece h shows these colours
                if all(state[orbit.slots[s][r[j]]] == goal[x] for j, x in enumerate(orbit.slots[h])):
                    break
            for j, x in enumerate(orbit.slots[h]):
                p[x] = orbit.slots[s][r[j]]
    return tuple(p)


def singular(name: str) -> str:
    head, _, tail = name.partition(" ")
    head = head[:-1] if head.endswith("s") and head != "orbit" else head
    return f"{head} {tail}".strip()


def _diagnose(defn, group: MoveGroup, p: Perm) -> str:
    """Why the arrangement p is not in the group: a twist in one orbit, parity, or otherwise."""
    model = group.model
    gen_signs = [orbit_signs(model, g) for g in piece_generators(defn)]
    twists, parities = [], []
    for oi, (orbit, chain) in enumerate(zip(model.orbits, orbit_chains(defn))):
        stickers = orbit.stickers
        index = {x: i for i, x in enumerate(stickers)}
        image = [index[p[x]] for x in stickers]
        if chain.contains(image):
            continue
        m = len(orbit.slots[0])
        untwisted = [(index[p[slot[0]]] // m) * m + j for slot in orbit.slots for j in range(m)]
        if chain.contains(untwisted):
            word = {2: "flip", 3: "twist"}.get(orbit.twists, "twist")
            twists.append(f"{singular(orbit.name)} {word}")
        elif perm.parity([i // m for i in untwisted[::m]]) and not any(v >> (2 * oi) & 1 for v in gen_signs):
            parities.append(orbit.name)
        else:
            return f"{orbit.name}: this arrangement of pieces is not reachable"
    if twists:
        return ", ".join(twists)
    if parities:
        return f"parity ({', '.join(parities)})"
    if not in_span(orbit_signs(model, p), gen_signs):
        odd = [o.name for oi, o in enumerate(model.orbits) if orbit_signs(model, p) >> (2 * oi) & 1]
        return f"parity ({', '.join(odd) or 'orientation'})"
    return "not reachable with these moves"


def in_span(v: int, vectors: list[int]) -> bool:
    """Whether the bit vector v is a sum of some of `vectors` (rank arithmetic: any number of them)."""
    return f2_rank(vectors + [v]) == f2_rank(vectors)


def obvious_reason(defn, state) -> str | None:
    """Why a state of the right length cannot be a state of the puzzle at all (its colour counts),
    or None."""
    if len(state) != defn.stickers:
        raise StateError(f"state has {len(state)} stickers, the puzzle has {defn.stickers}")
    return _colour_reason(defn, state)


def arrangement(defn, model: PieceModel, state) -> tuple[str | None, Perm | None]:
    """(None, a permutation taking the goal to `state`) for an unguarded puzzle, or (the reason no
    arrangement of the pieces shows it, None)."""
    for x in model.fixed:
        if state[x] != defn.goal[x]:
            return f"sticker {x} never moves: it holds {state[x]}, the goal has {defn.goal[x]}", None
    try:
        return None, _arrangement(model, state, defn.stickers)
    except StateError as e:
        return str(e), None


def reachability(defn, state) -> str | None:
    """None when `state` can be reached from the goal (or cannot be ruled out), else the reason.
    Exact for puzzles whose pieces are all distinguishable and for the identical one-sticker
    pieces of big cubes; guarded puzzles are decided by their token groupoid or, when small, by
    enumerating the state space."""
    state = tuple(state)
    reason = obvious_reason(defn, state)
    if reason is not None or state in defn.goals:
        return reason
    if defn.guarded:
        return _guarded_reachability(defn, state)
    reason, p = arrangement(defn, piece_model(defn), state)
    if reason is not None:
        return reason
    group = move_group(defn)
    if group.chain.contains(p):
        return None
    if group.tiles:
        return _tile_reason(defn, group, p)
    if not group.chain.complete:
        return _by_enumeration(defn, state)
    runs = identical_runs(defn)
    if runs is None:  # identical pieces with orientations: other assignments might be reachable
        return _by_enumeration(defn, state)
    if _reachable_up_to_runs(defn, group, runs, p):
        return None
    return _diagnose(defn, group, p)


def _reachable_up_to_runs(defn, group: MoveGroup, runs: IdenticalRuns, p: Perm) -> bool:
    """Whether y.p is in the group for some permutation y of the runs keeping the goal's colours,
    by parity arithmetic (any number of runs). Sifting p through the pinned levels leaves
    h = p.w (w in the group) fixing the pinned base points; y fixes pinned pieces, so y.p is in
    the group iff y.h lies in K, the group fixing the pinned pieces. K is every permutation of
    the runs whose parity vector lies in V (the span of K's generators' parities), given that it
    holds each run's alternating group; y's parity vector ranges over W, the runs with a
    repeated colour. So: h moves only run stickers, each run onto itself, and its parity vector
    lies in V + W."""
    chain = group.chain
    h, stopped = chain.sift(np.asarray(p, dtype=chain.dtype), stop=group.pinned)
    if stopped < group.pinned:
        return False
    h = [int(x) for x in h]
    run_of = {x: j for j, run in enumerate(runs.runs) for x in run}
    if any(h[x] != x if x not in run_of else run_of.get(h[x]) != run_of[x] for x in range(len(h))):
        return False
    goal = defn.goal
    repeated = [1 << j for j, run in enumerate(runs.runs) if len({goal[x] for x in run}) < len(run)]
    return in_span(run_parities(runs.runs, h), list(runs.parities) + repeated)


def _tile_reason(defn, group: MoveGroup, p: Perm) -> str | None:
    """With tiles, p is reachable up to identical tiles iff its parities lie in the span of the
    generators' parities plus the parities that swapping identical tiles gives."""
    goal = defn.goal
    swaps = [1 << j for j, run in enumerate(group.tiles)
             if len({goal[x] for x in run}) < len(run)]
    if in_span(run_parities(group.tiles, p), list(group.tile_parities) + swaps):
        return None
    odd = [o.name for j, o in enumerate(group.model.orbits) if run_parities(group.tiles, p) >> j & 1]
    return f"parity ({', '.join(odd)})"


def _by_enumeration(defn, state) -> str | None:
    """Decide by listing every reachable state when there are few enough (a guarded puzzle is
    tried up to the limit); else None (not ruled out: the search will find out)."""
    from solver.analysis import statespace

    if not defn.guarded:
        group = move_group(defn)
        if not (group.chain.complete and group.order <= statespace.BFS_LIMIT):
            return None
    try:
        seen, pack = statespace.reachable_states(defn)
    except statespace.TooLarge:
        return None
    return None if statespace.contains(seen, pack(state)) else "not reachable with these moves (searched every state)"


def _guarded_reachability(defn, state) -> str | None:
    token = token_groupoid(defn)
    if token is not None and token.count is not None and token.loops.complete:
        v = state.index(token.token)
        if v not in token.paths:
            return f"the {token.token} sticker cannot reach position {v}"
        where = {c: i for i, c in enumerate(defn.goal)}
        p = [0] * defn.stickers
        for i, c in enumerate(state):
            p[where[c]] = i
        loop = perm.compose(tuple(p), perm.inverse(token.paths[v]))
        if token.loops.contains(loop):
            return None
        if perm.parity(loop) and all(perm.parity(g) == 0 for g in token.loops.gens):
            return "parity: the tiles' permutation does not match the blank's position"
        return "not reachable with these moves"
    return _by_enumeration(defn, state)

