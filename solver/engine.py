"""The move engine: states, move notation, applying sequences, verification by replay.

States here are tuples of colour symbols, exactly as users write them. Searches that need speed
encode states as bytes (`Codec`) and apply moves through precomputed source-index getters.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from operator import itemgetter

from solver import alg, perm
from solver.definition.model import Definition
from solver.errors import NotationError, StateError

State = tuple[str, ...]


def parse_state(defn: Definition, value, *, field: str = "state", wildcard: str | None = None) -> State:
    """A state given as a list, a JSON list, space-separated symbols or a string of letters;
    errors name `field`. `wildcard` is a symbol accepted besides the puzzle's colours (solver.partial)."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                value = json.loads(text)
            except json.JSONDecodeError as exc:
                raise StateError(f"{field}: not a valid JSON list ({exc.msg})") from None
            except RecursionError:
                raise StateError(f"{field}: a JSON list nested too deeply") from None
        elif any(ch.isspace() for ch in text):
            value = text.split()
        elif defn.single_char_colours:
            value = list(text)
        else:
            raise StateError(
                f"{field}: this puzzle's colours are longer than one letter; give a list or space-separated colours"
            )
    if not isinstance(value, (list, tuple)):
        raise StateError(f"{field}: expected a string or a list of colours, got {type(value).__name__}")
    state = tuple(str(v) if isinstance(v, int) and not isinstance(v, bool) else v for v in value)
    if len(state) != defn.stickers:
        raise StateError(f"{field} has {len(state)} stickers, the puzzle has {defn.stickers}")
    known = set(defn.colours) | ({wildcard} if wildcard else set())
    for i, c in enumerate(state):
        if not isinstance(c, str) or c not in known:
            shown = ", ".join(defn.colours[:12]) + (" ..." if len(defn.colours) > 12 else "")
            raise StateError(f"{field}: position {i} has colour {c!r}, not a colour of this puzzle ({shown})")
    return state


def format_state(defn: Definition, state: State) -> str | list[str]:
    return "".join(state) if defn.single_char_colours else list(state)


def state_text(defn: Definition, state: State) -> str:
    """One line for a terminal: letters run together, longer symbols space-separated."""
    return "".join(state) if defn.single_char_colours else " ".join(state)


def parse_moves(defn: Definition, value) -> list[str]:
    """Moves written in alg notation (solver.alg: groups, repeats, commutators), or a list of move
    names; an unknown name lists the valid ones."""
    if isinstance(value, str):
        return alg.expand(defn, value)
    if not isinstance(value, (list, tuple)):
        raise NotationError(f"moves: expected move names in a string or a list, got {type(value).__name__}")
    names = list(value)
    if len(names) > alg.MAX_MOVES:
        raise NotationError(f"moves: at most {alg.MAX_MOVES:,} moves")
    index = defn.move_index
    for k, name in enumerate(names):
        if not isinstance(name, str) or name not in index:
            valid = ", ".join(defn.move_names[:60]) + (" ..." if len(defn.move_names) > 60 else "")
            raise NotationError(f"moves[{k}]: unknown move {name!r}; valid moves: {valid}")
    return names


def apply_moves(defn: Definition, moves: list[str], state: State | None = None) -> State:
    """Replay moves from `state` (default: the first goal). A guarded move that cannot be made there
    is an error naming the step."""
    current = defn.goal if state is None else tuple(state)
    for k, name in enumerate(moves):
        case = defn.move(name).case_for(current)
        if case is None:
            raise NotationError(f"moves[{k}]: move {name} cannot be made in this state (no case's guard holds)")
        current = perm.apply(case.perm, current)
    return current


def is_solved(defn: Definition, state: State) -> bool:
    return tuple(state) in defn.goal_set


def verify(defn: Definition, state: State, moves: list[str]) -> bool:
    """True when the moves can be made from `state` and end in a solved state."""
    try:
        return is_solved(defn, apply_moves(defn, moves, state))
    except NotationError:
        return False


def inverse_sequence(defn: Definition, moves: list[str]) -> list[str] | None:
    """The sequence undoing `moves`, in the definition's own move names, when every move has an inverse."""
    result = []
    for name in reversed(moves):
        inv = defn.inverse_name(name)
        if inv is None:
            return None
        result.append(inv)
    return result


@dataclass(frozen=True)
class Codec:
    """States as colour indices for fast searches: bytes (one per sticker) up to 256 colours,
    tuples of ints beyond (as many colours as stickers)."""

    defn: Definition

    @cached_property
    def colour_index(self) -> dict[str, int]:
        return {c: i for i, c in enumerate(self.defn.colours)}

    @cached_property
    def pack(self):
        """Makes a state of a sequence of colour indices."""
        return bytes if len(self.defn.colours) <= 256 else tuple

    def encode(self, state: State) -> bytes | tuple[int, ...]:
        return self.pack(self.colour_index[c] for c in state)

    def decode(self, data) -> State:
        colours = self.defn.colours
        return tuple(colours[b] for b in data)

    @cached_property
    def goals(self) -> frozenset[bytes]:
        return frozenset(self.encode(g) for g in self.defn.goals)

    @cached_property
    def steps(self) -> list[tuple[str, list[tuple[itemgetter, tuple[tuple[int, int], ...]]]]]:
        """Per move: its cases as (getter of the new state's bytes, guard as (position, colour index))."""
        out = []
        for m in self.defn.moves:
            cases = [
                (itemgetter(*perm.inverse(c.perm)), tuple((p, self.colour_index[col]) for p, col in c.guard))
                for c in m.cases
            ]
            out.append((m.name, cases))
        return out

    @cached_property
    def reverse_steps(self) -> list[tuple[str, list[tuple[itemgetter, tuple[tuple[int, int], ...], int]]]]:
        """Per move: how to step back over it. From state t, case k of the move gives the predecessor
        s = getter(t), valid only when case k is the first case whose guard holds in s."""
        out = []
        for m in self.defn.moves:
            cases = [(itemgetter(*c.perm), k) for k, c in enumerate(m.cases)]
            out.append((m.name, cases))
        return out

    @cached_property
    def plain(self) -> list[tuple[str, itemgetter, itemgetter]] | None:
        """Per move (name, getter of the next state, getter of the previous one) when no move has a
        guard or several cases (most puzzles): neighbours then need no guard checks, which halves
        the cost of a plain search's step."""
        if any(len(m.cases) > 1 or m.cases[0].guard for m in self.defn.moves):
            return None
        return [(m.name, itemgetter(*perm.inverse(m.cases[0].perm)), itemgetter(*m.cases[0].perm))
                for m in self.defn.moves]

    def successors(self, s):
        if self.plain is not None:
            pack = self.pack
            return [(name, pack(forward(s))) for name, forward, _ in self.plain]
        return self._guarded_successors(s)

    def _guarded_successors(self, s):
        pack = self.pack
        for name, cases in self.steps:
            for getter, guard in cases:
                if all(s[p] == c for p, c in guard):
                    yield name, pack(getter(s))
                    break

    def predecessors(self, t):
        if self.plain is not None:
            pack = self.pack
            return [(name, pack(back(t))) for name, _, back in self.plain]
        return self._guarded_predecessors(t)

    def _guarded_predecessors(self, t):
        pack = self.pack
        for (name, back), (_, forward) in zip(self.reverse_steps, self.steps):
            for getter, k in back:
                s = pack(getter(t))
                if self._first_case(forward, s) == k:
                    yield name, s

    @staticmethod
    def _first_case(cases, s) -> int | None:
        for k, (_, guard) in enumerate(cases):
            if all(s[p] == c for p, c in guard):
                return k
        return None
