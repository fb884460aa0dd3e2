"""Pairing: the reduction step of a big cube (wings into edges), found from the definition alone.

The outer moves H (the move classes whose moved stickers contain no other class's: a cube's face
turns) may carry stickers in blocks, as a big cube's face turns carry the two wings of an edge
together. Phases by labels (multiphase.py) cannot ask for "these stickers alike", so this step
takes a state whose other stickers already show their labels under H (centres on their faces) to
one where every block shows one colour and whose parities lie in the span of H's (no lone flipped
edge, corners and edges swapped alike): a state of H, which the phases of H then solve.

Macros: the conjugates s X s' and commutators s X s' X' of a move s outside H with a word X of H
(at most WORD_MOVES), kept when they leave every sticker outside the blocks on its label. A step
takes the one, conjugated by a setup of at most one move of H, that pairs the most blocks per
move. The last blocks (or a step that pairs nothing, as the last two edges of a cube often do) go
by two macros in a row, searched over all pairs whose first one moves a block still apart; among
those the shortest whose end has the right parities. Pieces that look alike make no parity, so
only orbits of distinct pieces count.

Anchors: where every block holds one sticker of a piece that no other block shares (a 5x5x5's
midge), the other pieces of the blocks each have one place, beside it. There the stalled macros
(a 5x5x5's leave 10-38 pairs apart) give way to exchanges: a 3-cycle or two swaps of such pieces
towards their places, each a target for the finisher's few-piece algorithms, then macros again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from solver import deadline, perm
from solver.analysis.group import in_span
from solver.definition.model import Definition
from solver.engine import apply_moves
from solver.errors import PuzzleError
from solver.recent import Recent
from solver.search.budget import Budget, Stopped

WORD_MOVES = 3  # moves of H in the X of a macro
LAST_BLOCKS = 4  # pairs of stickers apart (a 4x4x4's last two edges) that go by two macros in a row
CHUNK = 64  # first macros of a two-macro search looked at together
MACROS = 8000  # kept, the shortest: a step weighs every one of them with every setup
CYCLES = 6  # exchanges weighed when the macros stall: the finisher's answers to them differ (14-32 moves)
LAST_SHARE = 0.25  # of the step's time left for a two-macro search (a 5x5x5's takes seconds)


def _gathers(defn: Definition, names) -> dict[str, np.ndarray]:
    """Per move, the index array of its effect: the state after it is `state[index]`."""
    return {n: np.argsort(np.array(defn.move(n).perm)) for n in names}


def _run(gather: dict[str, np.ndarray], n: int, seq) -> np.ndarray:
    out = np.arange(n)
    for m in seq:
        out = out[gather[m]]
    return out


def outer_moves(defn: Definition, classes) -> tuple[str, ...] | None:
    """The moves of the classes that move no strict superset of another class's stickers, or None
    when that is every class or none."""
    moved = {c.names[0]: frozenset(x for x, y in enumerate(defn.move(c.names[0]).perm) if x != y) for c in classes}
    outer = [c for c in classes if not any(moved[d.names[0]] < moved[c.names[0]] for d in classes)]
    if not outer or len(outer) == len(classes):
        return None
    names = {n for c in outer for n in c.names}
    return tuple(n for n in defn.move_names if n in names)


def sticker_blocks(defn: Definition, goal: tuple, outer) -> np.ndarray | None:
    """The coarsest blocks of H's action on stickers of distinct pieces that hold one colour in the
    goal and join stickers of different orbits of H (a block within one orbit is a piece's turn,
    not a pair): the
    join of every such block system (a 5x5x5's wings with their midge), when its blocks are all of
    one size, as an array (blocks, size); else None."""
    from solver.search.model import search_model

    n = defn.stickers
    images = [np.array(defn.move(m).perm) for m in outer]
    roots = perm.orbit_roots(n, (tuple(int(v) for v in p) for p in images))
    # stickers of distinct pieces only: look-alike pieces (centres) show all there is in their labels
    model = search_model(defn)
    distinct = {int(z) for r in model.distinct_orbits for slot in model.orbits[r].slots for z in slot}
    joined = perm.Unions(n)
    found = False
    for x in sorted(set(roots) & distinct):  # a block system is H-invariant: one start per orbit is enough
        deadline.check()
        for y in sorted(distinct):
            if roots[y] == roots[x] or goal[y] != goal[x] or joined.find(x) == joined.find(y):
                continue
            system = _closure(n, images, goal, x, y)
            if system is not None:
                found = True
                for block in system:
                    for z in block[1:]:
                        joined.union(block[0], z)
    if not found:
        return None
    groups: dict[int, list[int]] = {}
    for z in range(n):
        groups.setdefault(joined.find(z), []).append(z)
    blocks = [g for g in groups.values() if len(g) > 1]
    if len({len(g) for g in blocks}) != 1 or any(len({goal[z] for z in g}) != 1 for g in blocks):
        return None
    return np.array(blocks, dtype=np.int64)


def _closure(n: int, images, goal, x: int, y: int) -> list[list[int]] | None:
    """The blocks of the smallest H-invariant partition joining x and y, when each holds one goal
    colour; else None (given up at the first block that does not)."""
    u = perm.Unions(n)
    u.union(x, y)
    todo = [(x, y)]
    while todo:
        a, b = todo.pop()
        for p in images:
            pa, pb = int(p[a]), int(p[b])
            if u.find(pa) == u.find(pb):
                continue
            if goal[pa] != goal[pb]:
                return None
            u.union(pa, pb)
            todo.append((pa, pb))
    groups: dict[int, list[int]] = {}
    for z in range(n):
        groups.setdefault(u.find(z), []).append(z)
    return [g for g in groups.values() if len(g) > 1]


class _Parity:
    """The parities of a state's orbits of distinct pieces, and of the paired blocks' quotient
    (which home pair sits in which slot pair), against those of H's moves."""

    def __init__(self, defn: Definition, blocks: np.ndarray, outer, goal: tuple):
        from solver.search.model import search_model

        self.model = model = search_model(defn)
        sticker_slot = {}
        for r, orb in enumerate(model.orbits):
            for s, stickers in enumerate(orb.slots):
                for x in stickers:
                    sticker_slot[x] = (r, s)
        self.orbits = [r for r in model.distinct_orbits if model.orbits[r].n > 1]
        # slot pairs: slots of one orbit whose stickers share blocks
        self.pairs = {}
        for r in self.orbits:
            u = perm.Unions(model.orbits[r].n)
            joined = False
            for block in blocks:
                slots = [sticker_slot[int(z)][1] for z in block if int(z) in sticker_slot and sticker_slot[int(z)][0] == r]
                for other in slots[1:]:
                    u.union(slots[0], other)
                    joined = True
            if joined:
                self.pairs[r] = np.array([u.find(s) for s in range(model.orbits[r].n)])
        self.defn, self.goal = defn, goal
        i, self.own_bits = 0, 0  # the slot parities of the paired orbits
        for r in self.orbits:
            if r in self.pairs:
                self.own_bits |= 1 << i
            i += 2 if r in self.pairs else 1
        self.origin = self.vector(goal)
        self.span = [self.vector(apply_moves(defn, [m], goal)) ^ self.origin for m in outer]

    def vector(self, state) -> int | None:
        """Bit per orbit of distinct pieces (slot parity) and per paired orbit (quotient parity);
        None when a paired orbit is not paired."""
        model = self.model
        try:
            loc = model.encode(tuple(state))
        except PuzzleError:  # a state of other colours: no parity
            return None
        bits, i = 0, 0
        for r in self.orbits:
            slots = model.slots_of(loc, r)
            bits |= perm.parity(slots) << i
            i += 1
            if r in self.pairs:
                root = self.pairs[r]
                holds: dict[int, int] = {}
                for piece, slot in enumerate(slots):  # piece numbers are home slots
                    if holds.setdefault(int(root[slot]), int(root[piece])) != int(root[piece]):
                        return None
                ids = sorted(holds)
                where = {b: j for j, b in enumerate(ids)}
                bits |= perm.parity([where[holds[b]] for b in ids]) << i
                i += 1
        return bits

    def in_span(self, state) -> bool:
        v = self.vector(state)
        return v is not None and in_span(v ^ self.origin, self.span)


@dataclass
class Pairing:
    outer: tuple[str, ...]
    blocks: np.ndarray  # (blocks, size) sticker positions
    macros: list[list[str]]
    effects: np.ndarray  # (macros, stickers) index arrays
    lengths: np.ndarray
    setups: list[list[str]]
    setup_effects: np.ndarray
    parity: _Parity
    inverse: dict[str, str]
    colouring: object  # states to labels under H
    labels: tuple  # the goal's under H
    keep: np.ndarray  # stickers outside the blocks
    gather: dict[str, np.ndarray]
    swapper: tuple | None = None  # (moves, effect) of `_swapper`, () when there is none
    anchors: dict | None = None  # sticker of a block -> its block's anchor (`_anchors`), None without

    def apart(self, cur: np.ndarray) -> np.ndarray:
        """Per state of `cur` (..., stickers), the pairs of stickers of one block showing two
        colours (a block of three with one sticker right counts: a 5x5x5's wing beside its midge)."""
        shown = cur[..., self.blocks]  # (..., blocks, size)
        size = self.blocks.shape[1]
        return sum((shown[..., i] != shown[..., j]).sum(-1) for i in range(size) for j in range(i + 1, size))


_made: Recent = Recent()  # (id(defn), goal) -> (defn, Pairing | None)


def pairing(defn: Definition, goal: tuple, classes) -> Pairing | None:
    """The pairing step of `defn` towards `goal`, or None when its outer moves carry no blocks."""
    hit = _made.get((id(defn), goal))
    if hit is not None and hit[0] is defn:
        return hit[1]
    made = None if defn.guarded else _make(defn, goal, classes)
    _made[(id(defn), goal)] = (defn, made)
    return made


def _make(defn: Definition, goal: tuple, classes) -> Pairing | None:
    from solver.search.multiphase import recolouring

    outer = outer_moves(defn, classes)
    if outer is None:
        return None
    blocks = sticker_blocks(defn, goal, outer)
    if blocks is None:
        return None
    n = defn.stickers
    gather = _gathers(defn, defn.move_names)
    inverse = {m: defn.inverse_name(m) for m in defn.move_names}
    if None in inverse.values():
        return None
    colouring = recolouring(defn, goal, outer)
    labels = colouring.state(goal)
    code = {v: i for i, v in enumerate(dict.fromkeys(labels))}
    label = np.array([code[v] for v in labels])
    keep = np.setdiff1d(np.arange(n), blocks.ravel())
    # words of H up to WORD_MOVES moves, one per effect
    words: dict[bytes, tuple[list[str], np.ndarray]] = {np.arange(n).tobytes(): ([], np.arange(n))}
    frontier = [([], np.arange(n))]
    for _ in range(WORD_MOVES):
        grown = []
        for w, p in frontier:
            for m in outer:
                q = p[gather[m]]
                if q.tobytes() not in words:
                    words[q.tobytes()] = (w + [m], q)
                    grown.append((w + [m], q))
        frontier = grown
        deadline.check()
    listed = list(words.values())[1:]
    effects = np.array([p for _, p in listed])
    undo_effects = np.array([_run(gather, n, [inverse[m] for m in reversed(w)]) for w, _ in listed])
    layers = [[s] for s in defn.move_names if s not in outer]
    found: dict[bytes, tuple[list[str], np.ndarray]] = {}
    for s in layers:
        deadline.check()
        undo_s = [inverse[m] for m in reversed(s)]
        conj = _run(gather, n, s)[effects][:, _run(gather, n, undo_s)]  # s X s', every X at once
        comm = np.take_along_axis(conj, undo_effects, axis=1)  # s X s' X'
        for kind, qs in ((0, conj), (1, comm)):
            for i in np.flatnonzero((label[qs[:, keep]] == label[keep]).all(1)):
                w = listed[i][0]
                seq = s + w + undo_s + ([inverse[m] for m in reversed(w)] if kind else [])
                key = qs[i].tobytes()
                if key not in found or len(seq) < len(found[key][0]):
                    found[key] = (seq, qs[i])
    if not found:
        return None
    macros = sorted(found.values(), key=lambda t: len(t[0]))[:MACROS]
    setups = [[]] + [[m] for m in outer]
    parity = _Parity(defn, blocks, outer, goal)
    return Pairing(outer, blocks, [s for s, _ in macros], np.array([q for _, q in macros]),
                   np.array([len(s) for s, _ in macros]), setups,
                   np.array([_run(gather, n, s) for s in setups]),
                   parity, inverse, colouring, tuple(labels), keep, gather, anchors=_anchors(parity, blocks))


def pair(p: Pairing, state: tuple, budget: Budget) -> list[str] | None:
    """Moves taking `state` (its stickers outside the blocks on their labels under H) into H, or
    None when the steps find no way."""
    from solver.search.multiphase import _finish

    shown = p.colouring.state(state)
    if any(shown[x] != p.labels[x] for x in p.keep):
        return None  # the stickers outside the blocks are not on their labels: not this step's start
    colours = {c: i for i, c in enumerate(dict.fromkeys(state))}
    names = dict(enumerate(colours))
    cur = np.array([colours[c] for c in state], dtype=np.int16)

    def into_h(moves, end) -> list[str] | None:
        """`moves`, or with the swapper after them, whichever ends with the parities of H."""
        if p.parity.in_span(tuple(names[int(c)] for c in end)):
            return moves
        swapper = _swapper(p, budget)
        if swapper is None or not p.parity.in_span(tuple(names[int(c)] for c in end[swapper[1]])):
            return None
        return moves + swapper[0]

    moves: list[str] = []
    back = None  # (moves, cur) before the last greedy step
    exchange_cost = math.inf  # moves of the finisher's last exchange: none until the macros stall
    while True:
        budget.check()
        apart = int(p.apart(cur))
        if apart == 0:
            right = into_h(moves, cur)
            if right is None or back is None or len(right) == len(moves):
                return right
            moves, cur = back  # paired, but with the wrong parities: the last step again, by two macros
            apart = LAST_BLOCKS
        gains = apart - p.apart(cur[p.setup_effects][:, p.effects])  # (setups, macros)
        cost = p.lengths[None, :] + 2 * np.array([len(s) for s in p.setups])[:, None]
        shown = tuple(names[int(c)] for c in cur)
        exchanges = anchor_cycles(p, shown)
        if exchanges:  # pieces with anchors: an exchange by the finisher where it pairs more per move
            drops = [apart - int(p.apart(np.array([colours[c] for c in x]))) for x in exchanges]
            if gains.max() <= 0 or apart <= LAST_BLOCKS or max(drops) / exchange_cost >= (gains / cost).max():
                found = [(d / max(1, len(f)), f) for d, f in
                         zip(drops, (_finish(p.parity.defn, x, shown, budget) for x in exchanges)) if f is not None]
                rest = max(found, key=lambda t: t[0])[1] if found else None
                if rest is not None:
                    exchange_cost = max(1, len(rest))
                    moves = moves + rest
                    cur = cur[_run(p.gather, len(cur), rest)]
                    continue
        if apart <= LAST_BLOCKS or gains.max() <= 0:
            left = budget.remaining()
            done = []
            if apart <= 2 * LAST_BLOCKS:
                done = _two_macros(p, cur, budget.part(None if left is None else left * LAST_SHARE))
            for seq, end in done:
                if p.parity.in_span(tuple(names[int(c)] for c in end)):
                    return moves + seq
            if done:
                return into_h(moves + done[0][0], done[0][1])
            if gains.max() <= 0:  # stuck: every piece beside its anchors at once, when there are any
                rest = _to_anchors(p, shown, budget)
                return None if rest is None else into_h(moves + rest, cur[_run(p.gather, len(cur), rest)])
        i, j = np.unravel_index(np.argmax(gains / cost), gains.shape)
        back = (list(moves), cur)
        moves = moves + p.setups[i] + p.macros[j] + [p.inverse[m] for m in reversed(p.setups[i])]
        cur = cur[p.setup_effects[i]][p.effects[j]][np.argsort(p.setup_effects[i])]


def _two_macros(p: Pairing, cur: np.ndarray, budget: Budget) -> list[tuple[list[str], np.ndarray]]:
    """Two macros in a row that pair every block, shortest first, as (moves, state after): the first
    moving a sticker of a block apart, conjugated by the first setup for which any pair does."""
    for i, setup in enumerate(p.setups):
        back = np.argsort(p.setup_effects[i])
        start = cur[p.setup_effects[i]]
        shown = start[p.blocks]
        bad = p.blocks[(shown != shown[:, :1]).any(1)].ravel()
        first = np.flatnonzero((p.effects[:, bad] != bad[None, :]).any(1))
        done = []
        for k in range(0, len(first), CHUNK):
            try:
                budget.check()
            except Stopped:
                if budget.cancelled():
                    raise
                return []
            xs = start[p.effects[first[k:k + CHUNK]]][:, back]  # (chunk, stickers)
            whole = p.apart(xs[:, p.effects]) == 0  # (chunk, macros)
            for a, b in zip(*np.nonzero(whole)):
                done.append((int(p.lengths[first[k + a]] + p.lengths[b]), int(first[k + a]), int(b)))
        if done:
            undo = [p.inverse[m] for m in reversed(setup)]
            return [(setup + p.macros[a] + undo + p.macros[b], start[p.effects[a]][back][p.effects[b]])
                    for _, a, b in sorted(done)]
    return []


def _anchors(parity: _Parity, blocks: np.ndarray) -> dict | None:
    """Per sticker of a block its block's anchor: the sticker of an orbit of distinct pieces that
    has one sticker in every block it touches (a 5x5x5's midge); None when some block has none or
    more than one."""
    model = parity.model
    block_of = {int(z): b for b, block in enumerate(blocks) for z in block}
    anchor: dict[int, list[int]] = {}
    for r in parity.orbits:
        if r in parity.pairs:
            continue
        for stickers in model.orbits[r].slots:
            for z in stickers:
                if int(z) in block_of:
                    anchor.setdefault(block_of[int(z)], []).append(int(z))
    if len(anchor) < len(blocks) or any(len(zs) != 1 for zs in anchor.values()):
        return None
    return {int(z): anchor[b][0] for b, block in enumerate(blocks) for z in block}


def anchored(p: Pairing, state: tuple) -> tuple | None:
    """`state` with every piece of a paired orbit moved beside its anchors (`_anchors`: they name
    their blocks' colours), or None when the blocks have no anchors or the anchors ask for no one
    arrangement: each slot of a paired orbit (a wing) wants the piece whose home colours are those
    of its blocks."""
    if p.anchors is None:
        return None
    model = p.parity.model
    goal = p.parity.goal
    out = list(state)
    for r in p.parity.pairs:
        slots = model.orbits[r].slots
        home = {tuple(goal[z] for z in stickers): stickers for stickers in slots}
        used = set()
        for stickers in slots:
            wanted = tuple(state[p.anchors[z]] if z in p.anchors else None for z in stickers)
            piece = home.get(wanted)
            if piece is None or piece in used:
                return None
            used.add(piece)
            for z, colour in zip(stickers, wanted):
                out[z] = colour
    return tuple(out)


def anchor_cycles(p: Pairing, state: tuple) -> list[tuple]:
    """`state` with two or three pieces of a paired orbit moved beside their anchors by one even
    exchange, in each way there is (at most CYCLES): a 3-cycle along a cycle of `anchored`'s
    arrangement (two pieces land), else two swaps (four land); none when every piece is beside its
    anchors or no such exchange is left."""
    target = anchored(p, state)
    if target is None:
        return []
    model = p.parity.model
    for r in p.parity.pairs:
        slots = model.orbits[r].slots
        has = [tuple(state[z] for z in stickers) for stickers in slots]
        wants = [tuple(target[z] for z in stickers) for stickers in slots]
        wanted_at = {w: t for t, w in enumerate(wants)}
        dest = {s: wanted_at[has[s]] for s in range(len(slots)) if has[s] != wants[s]}
        if not dest:
            continue
        ways = [((s, dest[s]), (dest[s], dest[dest[s]]), (dest[dest[s]], s)) for s in dest if dest[dest[s]] != s]
        ways.sort(key=lambda way: dest[way[1][1]] != way[0][0])  # closing a cycle of three first: three land
        if not ways:
            swaps = [(s, t) for s, t in dest.items() if s < t]
            ways = [((a, b), (b, a), (c, d), (d, c)) for (a, b), (c, d) in zip(swaps, swaps[1:])]
        out: dict[tuple, None] = {}  # a cycle of three is found from each of its slots: once each
        for way in ways:
            changed = list(state)
            for a, b in way:  # the piece in slot a goes to slot b
                for z, colour in zip(slots[b], has[a]):
                    changed[z] = colour
            out[tuple(changed)] = None
            if len(out) == CYCLES:
                break
        return list(out)
    return []


def _to_anchors(p: Pairing, state: tuple, budget: Budget) -> list[str] | None:
    """Moves from `state` to `anchored(p, state)` by the finisher's few-piece algorithms (a
    5x5x5's last wings by 3-cycles), or None."""
    from solver.search.multiphase import _finish

    target = anchored(p, state)
    return None if target is None else _finish(p.parity.defn, target, state, budget)


def _swapper(p: Pairing, budget: Budget) -> tuple[list[str], np.ndarray] | None:
    """Moves that swap two paired blocks of pieces and leave the rest (their parities those of a
    quarter turn of H's quotient without the turn: a big cube's two edges swapped against the
    corners), with their effect; found once by the finisher from the goal with the two swapped."""
    if p.swapper is not None:
        return p.swapper or None
    from solver.search.multiphase import _finish
    from solver.simplify import simplify

    p.swapper = ()
    defn, goal = p.parity.defn, p.parity.goal
    for r, roots in p.parity.pairs.items():
        orb = p.parity.model.orbits[r]
        groups: dict[int, list[int]] = {}
        for slot, root in enumerate(roots.tolist()):
            groups.setdefault(root, []).append(slot)
        first, second = [g for g in groups.values() if len(g) == 2][:2]
        for other in (second, second[::-1]):
            swapped = list(goal)
            for a, b in zip(first, other):
                for x, y in zip(orb.slots[a], orb.slots[b]):
                    swapped[x], swapped[y] = goal[y], goal[x]
            swapped = tuple(swapped)
            v = p.parity.vector(swapped)
            if p.apart(np.array([hash(c) for c in swapped])) or v is None or p.parity.in_span(swapped) or (v ^ p.parity.origin) & p.parity.own_bits:
                continue  # not paired, or not the quotient's parity alone
            moves = _finish(defn, goal, swapped, budget)
            if moves is not None:
                moves = simplify(defn, _inverse_moves(p, moves))
                p.swapper = (moves, _run(p.gather, defn.stickers, moves))
                return p.swapper
    return None


def _inverse_moves(p: Pairing, moves: list[str]) -> list[str]:
    return [p.inverse[m] for m in reversed(moves)]
