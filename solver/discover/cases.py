"""Staged algorithm sets of a layer: its cases, for any definition with unguarded moves.

A layer is the set of pieces one move M touches. Its states are the arrangements of those pieces
reachable while every other piece stays solved: the group H that fixes every other sticker (the
tail of a stabiliser chain whose base lists the other stickers first). Three sets are read from it:

- `orient`: where the layer's face colour shows (the one goal colour every layer piece carries
  once: a cube's top colour), the rest of the layer ignored;
- `permute`: the states of H that show the face colour on the face (the subgroup P of H fixing the
  orient projection of the goal; its generators are Schreier generators of the orient orbit);
- `full`: every state of H.
A set with more than STATE_LIMIT states is left out.

Cases are counted as published sets count them: two states are one case when they differ by turns
of the layer (T, the group of the moves that leave every other piece alone: <M>) before the
algorithm and after it (relabelling), that is by the double coset T h T. Mirror images and inverses are separate cases. A case holds `size` states.

States here are tuples over the layer's stickers only (H fixes every other sticker), with the
solver's convention: apply(p, s)[p[i]] = s[i].
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from solver import perm
from solver.analysis.chain import StabChain
from solver.analysis.pieces import piece_generators, piece_model
from solver.definition.model import Definition
from solver.errors import PuzzleError
from solver.perm import Perm

STATE_LIMIT = 20_000  # states a set may have (larger sets are left out: enumerating them costs minutes)
WILDCARD = "?"  # the colour of stickers a set ignores


@dataclass
class Case:
    number: int
    state: tuple  # colours over the whole puzzle: the case as seen (ignored stickers are WILDCARD)
    perm: Perm  # a permutation of the whole puzzle in H that makes `state` from the set's goal
    size: int  # states of the set in this case


@dataclass
class CaseSet:
    kind: str  # "orient" | "permute" | "full"
    move: str  # the move whose layer it is
    stickers: tuple[int, ...]  # the layer's stickers
    goal: tuple  # the set's goal: the definition's, with ignored stickers WILDCARD
    goals: tuple  # every state that counts as done: `goal` after turns of the layer (post-turns)
    states: int  # reachable states of the set
    turns: tuple = ()  # the turns of the layer, as permutations of the whole puzzle
    cases: list[Case] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.move} layer: {self.kind}"


class Layer:
    def __init__(self, defn: Definition, move: str):
        if defn.guarded:
            raise PuzzleError("sets: a puzzle with guarded moves has no layers to learn")
        if move not in defn.move_index:
            raise PuzzleError(f"move: no move named {move!r}")
        self.defn = defn
        self.move = move
        n = defn.stickers
        m = defn.move(move).perm
        model = piece_model(defn)
        touched = {x for x in range(n) if m[x] != x}
        slots = [slot for o in model.orbits for slot in o.slots if touched & set(slot)]
        self.stickers = tuple(sorted(x for slot in slots for x in slot))
        if not self.stickers:
            raise PuzzleError(f"move: {move} moves no piece")
        inside = set(self.stickers)
        rest = [x for x in range(n) if x not in inside]
        chain = StabChain(n, piece_generators(defn), rest + list(self.stickers))
        tail = next((lv for lv in chain.levels if lv.point in inside), None)
        self.index = {x: i for i, x in enumerate(self.stickers)}
        # H's strong generators, and M, as permutations of the layer's stickers (indices)
        self.gens = [] if tail is None else _unique(self._restrict(g) for g in tail.gens)
        # the turns of the layer: every product of the moves that leave the rest of the puzzle alone
        own = [self._restrict(mv.perm) for mv in defn.moves if all(mv.perm[x] == x for x in rest)]
        self.turns = list(_orbit(perm.identity(len(self.stickers)), own).values())

    def _restrict(self, p) -> Perm:
        return tuple(self.index[int(p[x])] for x in self.stickers)

    def _extend(self, q: Perm) -> Perm:
        """A permutation of the layer's stickers as one of the whole puzzle."""
        full = list(range(self.defn.stickers))
        for i, x in enumerate(self.stickers):
            full[x] = self.stickers[q[i]]
        return tuple(full)

    def face_colour(self) -> str | None:
        """The goal colour every piece of the layer shows exactly once, if one does."""
        model = piece_model(self.defn)
        goal = self.defn.goal
        pieces = [slot for o in model.orbits for slot in o.slots if slot[0] in self.index]
        common = set.intersection(*({goal[x] for x in slot if [goal[y] for y in slot].count(goal[x]) == 1}
                                    for slot in pieces))
        counts = {c: sum(goal[x] == c for x in self.stickers) for c in common}
        # a colour also shown by stickers outside the layer's face would not be one face
        return max(sorted(counts), key=counts.get) if counts else None

    def sets(self, kinds=("orient", "permute", "full")) -> list[CaseSet]:
        out = []
        colour = self.face_colour()
        if colour is not None and {"orient", "permute"} & set(kinds):
            orient, schreier = self._orient(colour)
            out += [orient] if "orient" in kinds else []
            out += [self._permute(schreier)] if "permute" in kinds and orient is not None else []
        if "full" in kinds:
            out.append(self._full())
        return [s for s in out if s is not None]

    # -- the three sets ------------------------------------------------------------------------

    def _labelled(self, labels: tuple) -> tuple:
        """The whole puzzle's goal with the layer's stickers showing `labels`."""
        goal = list(self.defn.goal)
        for i, x in enumerate(self.stickers):
            goal[x] = labels[i]
        return tuple(goal)

    def _orient(self, colour: str) -> tuple[CaseSet | None, list[Perm]]:
        goal = self.defn.goal
        start = tuple(colour if goal[x] == colour else WILDCARD for x in self.stickers)
        tree = _orbit(start, self.gens, limit=STATE_LIMIT)
        if tree is None:
            return None, []
        schreier = set()
        for s, u in tree.items():
            for g in self.gens:
                t = perm.apply(g, s)
                schreier.add(perm.compose(u, g, perm.inverse(tree[t])))
        schreier.discard(perm.identity(len(self.stickers)))
        case_set = self._classes("orient", start, tree)
        return case_set, sorted(schreier)

    def _permute(self, schreier: list[Perm]) -> CaseSet | None:
        k = len(self.stickers)
        strong = StabChain(k, schreier) if schreier else None
        gens = [] if strong is None else _unique(tuple(int(v) for v in g) for lv in strong.levels[:1] for g in lv.gens)
        start = tuple(range(k))
        tree = _orbit(start, gens, limit=STATE_LIMIT)
        return None if tree is None else self._classes("permute", start, tree)

    def _full(self) -> CaseSet | None:
        start = tuple(range(len(self.stickers)))
        tree = _orbit(start, self.gens, limit=STATE_LIMIT)
        return None if tree is None else self._classes("full", start, tree)

    def _classes(self, kind: str, start: tuple, tree: dict) -> CaseSet:
        """Group the reached states into cases: double cosets of the turns of the layer."""
        # relabelling by M^c: the labels the start shows after M^c, label by label
        relabels = []
        for t in self.turns:
            turned = perm.apply(t, start)
            relabels.append(dict(zip(start, turned)))
        named = [label if isinstance(label, str) else self.defn.goal[self.stickers[label]] for label in start]
        goal = self._labelled(tuple(named))
        done = {self._labelled(tuple(named[start.index(v)] if not isinstance(v, str) else v
                                     for v in perm.apply(t, start))) for t in self.turns}
        case_set = CaseSet(kind=kind, move=self.move, stickers=self.stickers, goal=goal,
                           goals=tuple(sorted(done)), states=len(tree),
                           turns=tuple(self._extend(t) for t in self.turns))
        seen: set = set()
        found = []
        for s in sorted(tree, key=lambda s: (s != start, s)):
            if s in seen:
                continue
            images = {perm.apply(t, tuple(r[v] for v in s)) for r in relabels for t in self.turns}
            images &= tree.keys()
            seen |= images
            first = min(images, key=lambda s: (s != start, s))
            u = tree[first]
            colours = tuple(v if isinstance(v, str) else named[start.index(v)] for v in first)
            found.append((first == start, Case(number=0, state=self._labelled(colours), perm=self._extend(u),
                                               size=len(images))))
        case_set.cases = [c for solved, c in found if not solved]
        for number, case in enumerate(case_set.cases, 1):
            case.number = number
        return case_set


def _orbit(start: tuple, gens: list[Perm], limit: int | None = None) -> dict | None:
    """Breadth-first: every state the generators reach from `start`, each with a permutation
    (a product of generators) that makes it from `start`; None past `limit` states."""
    tree = {start: perm.identity(len(start))}
    queue = [start]
    for s in queue:
        u = tree[s]
        for g in gens:
            t = perm.apply(g, s)
            if t not in tree:
                tree[t] = perm.compose(u, g)
                queue.append(t)
                if limit is not None and len(tree) > limit:
                    return None
    return tree


def _unique(perms) -> list[Perm]:
    return list(dict.fromkeys(p for p in perms if not perm.is_identity(p)))


def layer_sets(defn: Definition, move: str, kinds=("orient", "permute", "full")) -> list[CaseSet]:
    """The staged sets of the layer `move` turns (see the module text)."""
    return Layer(defn, move).sets(kinds)


def trimmed(defn: Definition, case_set: CaseSet, moves: list[str]) -> tuple[list[str], list[str]]:
    """A solve split into its leading turns of the layer (a turn before the algorithm, which only
    picks another state of the same case) and the algorithm, without the turns at its end."""
    layer = {name for name in defn.move_names if defn.move(name).perm in case_set.turns}
    moves = list(moves)
    while moves and moves[-1] in layer:
        moves.pop()
    lead = 0
    while lead < len(moves) and moves[lead] in layer:
        lead += 1
    return moves[:lead], moves[lead:]


def case_algorithms(defn: Definition, case_set: CaseSet, case: Case, *, time_limit: float,
                    cancel=None) -> list[list[str]]:
    """Algorithms for a case, shortest first: a solve of one state of the case after each turn of
    the layer before it (distinct answers are alternatives), without the layer turns it starts
    and ends with. The
    states solved are whole states (an orient case's representative has its layer's other
    stickers somewhere), so that the solver's fastest method serves; each is replayed to a goal
    (after a turn of the layer) before it is kept. Where the definition declares goal rotations
    (a 2x2x2), "the rest solved" is up to turning the whole puzzle, as the solver's goals are."""
    from solver import api  # here: api imports the discovery package

    state = perm.apply(case.perm, defn.goal)
    starts = list(dict.fromkeys(perm.apply(t, state) for t in case_set.turns))
    done = {perm.apply(t, g) for t in case_set.turns for g in defn.goals}
    found: list[list[str]] = []
    deadline = time.monotonic() + time_limit
    for n, start in enumerate(starts):
        left = deadline - time.monotonic()
        if left <= 0 or (cancel is not None and cancel()):
            break
        # the first solve may build tables (then the rest are quick): it may use all the time
        answer = api.solve(defn, start, time_limit=left if n == 0 else left / (len(starts) - n), cancel=cancel)
        if answer["solution"] is None:
            continue
        lead, moves = trimmed(defn, case_set, answer["solution"])
        if moves and moves not in found and api.apply_moves(defn, lead + moves, start) in done:
            found.append(moves)
    return sorted(found, key=len)


def case_start(defn: Definition, goal, moves: list[str]) -> tuple:
    """The state of a case that one of its algorithms, `moves`, brings to the set's `goal` itself:
    the goal with the moves undone. The case's drawn `state` is that only by chance: an algorithm
    solves its case up to turns of the layer before and after it (`case_algorithms` drops them),
    and which turns differs from one algorithm to the next."""
    made = perm.compose(*(defn.move(name).perm for name in moves))
    return perm.apply(perm.inverse(made), tuple(goal))


def layer_moves(defn: Definition) -> list[str]:
    """One move per layer up to the puzzle's symmetries (the move-set automorphisms): the first
    base move of each, among moves that turn at most half of the pieces."""
    from solver.discover.effects import effects_for

    model = piece_model(defn)
    pieces = sum(len(o.slots) for o in model.orbits)
    automorphisms = effects_for(defn).automorphisms
    seen: set = set()
    out = []
    for name in defn.base_moves or defn.move_names:
        m = defn.move(name).perm
        touched = frozenset(x for x in range(defn.stickers) if m[x] != x)
        slots = sum(1 for o in model.orbits for slot in o.slots if touched & set(slot))
        if not touched or touched in seen or not 0 < slots <= pieces / 2:
            continue
        out.append(name)
        seen |= {frozenset(s[x] for x in touched) for s in automorphisms}
    return out


MAX_CASES = 200  # cases of a set that `build_sets` solves; larger sets are left out


def build_sets(defn: Definition, *, moves=None, time_limit: float = 60.0, progress=None, cancel=None) -> list[dict]:
    """Every set of the given layers (default `layer_moves`) with 1 to MAX_CASES cases, each
    case with its algorithms (`case_algorithms`, an even share of the time each): plain data,
    [{kind, move, stickers, goal, states, cases: [{number, state, size, algorithms: [moves]}]}]."""
    started = time.monotonic()
    chosen = [s for move in (moves or layer_moves(defn)) for s in layer_sets(defn, move)
              if 0 < len(s.cases) <= MAX_CASES]
    total = sum(len(s.cases) for s in chosen)
    found: dict[tuple[int, int], list] = {}

    def attempt(passes: int) -> None:
        """One pass over the cases still without an algorithm, an even share of the time each."""
        todo = [(i, case) for i, s in enumerate(chosen) for case in s.cases if not found.get((i, case.number))]
        for n, (i, case) in enumerate(todo):
            left = time_limit - (time.monotonic() - started)
            if left <= 0 or (cancel is not None and cancel()):
                return
            # the first solve may build the solver's tables (once per puzzle): it gets all the time
            share = left if not found else max(0.2, left / (len(todo) - n) / passes)
            found[(i, case.number)] = case_algorithms(defn, chosen[i], case, time_limit=share, cancel=cancel)
            if progress is not None:
                progress({"fraction": sum(1 for v in found.values() if v) / max(1, total),
                          "seconds": time.monotonic() - started, "text": f"{len(found)} of {total} cases"})

    attempt(2)  # the first pass keeps half the time for cases it left without an answer
    attempt(1)
    out = []
    for i, case_set in enumerate(chosen):
        out.append({"kind": case_set.kind, "move": case_set.move, "stickers": list(case_set.stickers),
                    "goal": list(case_set.goal), "states": case_set.states,
                    "cases": [{"number": c.number, "state": list(c.state), "size": c.size,
                               "algorithms": found.get((i, c.number), [])} for c in case_set.cases]})
    return out
