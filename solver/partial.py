"""Partial goals: goals in which some stickers do not matter (the wildcard colour `?`).

A partial goal is one of the definition's goals with `?` where any colour will do ("first layer
done", "these pieces home"). A solve towards it is an ordinary solve of a projected puzzle: the
definition with every goal recoloured, and the state recoloured the same way, piece by piece. A
piece is known by its colours wherever it is; each of its stickers shows `?` when that sticker
is masked at the piece's home. Masked pieces then look alike, so the solver's analysis, tables and
searches see the smaller puzzle of the pieces that matter (a projection that ignores the masked
ones), and a shortest answer of the projected puzzle is a shortest answer of the partial goal.

The projection is exact when the goal tells apart the pieces it keeps: look-alike pieces (same
colours in the same orbit) are masked all or none, and so are look-alike stickers of one piece;
other masks are refused, naming the position.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from solver.analysis.pieces import piece_model
from solver.definition.model import Definition
from solver.engine import parse_state
from solver.errors import StateError

WILDCARD = "?"


def has_wildcard(state) -> bool:
    return WILDCARD in state


@dataclass(frozen=True)
class PartialGoal:
    defn: Definition  # the projected puzzle: every goal with its masked stickers `?`
    slots: tuple  # (orbit index, positions) of every piece; a fixed sticker is its own orbit (-1 - position)
    shown: dict  # (orbit, sorted colours of a piece, colour of one of its stickers) -> colour shown

    def state(self, state, field: str = "state") -> tuple:
        """The state as the projected puzzle sees it: each piece's masked stickers `?`. A piece
        the puzzle does not have is refused (naming `field`); `?` in the state stays `?` where
        the piece it belongs to can be told from its other colours."""
        out = list(state)
        for orbit, slot in self.slots:
            colours = [state[x] for x in slot]
            for x, colour in zip(slot, colours):
                out[x] = self._shown(orbit, colours, colour, x, field)
        return tuple(out)

    def _shown(self, orbit: int, colours: list, colour: str, x: int, field: str) -> str:
        if colour == WILDCARD:
            return WILDCARD
        key = (orbit, tuple(sorted(colours)), colour)
        if key in self.shown:
            return self.shown[key]
        known = sorted(c for c in colours if c != WILDCARD)
        # a piece given partly as `?`: every piece it may be must show this sticker alike
        choices = {shown for (o, piece, c), shown in self.shown.items()
                   if o == orbit and c == colour and _contains(piece, known)}
        if len(choices) == 1:
            return choices.pop()
        where = f"position {x}" if orbit < 0 else f"the piece at positions {', '.join(map(str, self._slot_of(x)))}"
        if not choices:
            raise StateError(f"{field}: {where} shows {' '.join(colours)}, a piece this puzzle does not have")
        raise StateError(f"{field}: {where} shows `?` where it cannot be told which piece it is")

    def _slot_of(self, x: int) -> tuple:
        return next(slot for _, slot in self.slots if x in slot)


def _contains(piece: tuple, known: list) -> bool:
    rest = list(piece)
    for c in known:
        if c not in rest:
            return False
        rest.remove(c)
    return True


def parse_goal(defn: Definition, value) -> tuple:
    """A goal written like a state, `?` allowed for the stickers that do not matter."""
    return parse_state(defn, value, field="goal", wildcard=WILDCARD)


def partial_goal(defn: Definition, goal) -> PartialGoal:
    """The projection for a partial goal (a parsed goal, `?` where a sticker does not matter). Its
    other colours must be those of one of the definition's goals."""
    home = next((g for g in defn.goals if all(c in (WILDCARD, h) for c, h in zip(goal, g))), None)
    if home is None:
        first = next(i for i, (c, h) in enumerate(zip(goal, defn.goal)) if c not in (WILDCARD, h))
        raise StateError(f"goal: position {first} has {goal[first]!r} where the puzzle's goal has "
                         f"{defn.goal[first]!r}; a partial goal is a goal with `?` where a sticker does not matter")
    if all(c == WILDCARD for c in goal):
        raise StateError("goal: every sticker is `?`: nothing would be left to solve")
    model = piece_model(defn)
    slots = tuple((o, slot) for o, orbit in enumerate(model.orbits) for slot in orbit.slots)
    slots += tuple((-1 - x, (x,)) for x in model.fixed)  # told apart by where they are
    shown: dict = {}
    masked_at: dict = {}  # the same keys: a position that decided it, for the error text
    for orbit, slot in slots:
        piece = tuple(sorted(home[x] for x in slot))
        for x in slot:
            key = (orbit, piece, home[x])
            colour = WILDCARD if goal[x] == WILDCARD else home[x]
            if shown.setdefault(key, colour) != colour:
                other = masked_at[key]
                masked, kept = (x, other) if colour == WILDCARD else (other, x)
                raise StateError(f"goal: position {masked} is `?` but position {kept}, a sticker that looks "
                                 "the same, is not: mask look-alike pieces all or none")
            masked_at.setdefault(key, x)
    partial = PartialGoal(defn=defn, slots=slots, shown=shown)
    goals = list(dict.fromkeys(partial.state(g, "goal") for g in defn.goals))
    given = len(dict.fromkeys(partial.state(g, "goal") for g in defn.goals[:defn.given_goals]))
    return replace(partial, defn=replace(defn, goals=tuple(goals), given_goals=given))
