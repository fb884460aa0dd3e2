"""The few entry points the site, the workers and the command line call.

Everything here takes and returns plain data (definitions, states as tuples of colour symbols, move
names) and raises solver.errors exceptions for bad input; callers never need the modules below.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from solver import catalog, goals
from solver.analysis import group, pieces, scramble as scrambles
from solver.definition import export
from solver.definition.canonical import content_hash
from solver.definition.formats import load_data, load_file, load_text
from solver.definition.model import Definition
from solver.engine import apply_moves, format_state, parse_moves, parse_state, verify
from solver.errors import DefinitionError, PuzzleError, UnreachableError
from solver.search import engine as search
from solver.simplify import simplify
from solver.special import families
from solver.special.cube3.solve import SearchCancelled

SPECIAL = "special"

__all__ = [
    "Definition", "load", "load_data", "load_file", "load_text", "content_hash", "info", "parse_state",
    "format_state", "parse_moves", "apply_moves", "verify", "solve", "scramble", "export_yaml", "reachability",
    "effect", "discover",
]


def load(spec: str) -> Definition:
    """A definition from a catalog name or a YAML/JSON file path."""
    path = Path(spec)
    if path.suffix.lower() in (".yaml", ".yml", ".json") or "/" in spec or path.is_file():
        if not path.is_file():
            raise DefinitionError(f"{spec}: no such file")
        return load_file(path)
    return load_data(catalog.build(spec))


def info(defn: Definition) -> dict:
    model = pieces.piece_model(defn)
    count, exact = group.state_count(defn)
    order, order_exact = (None, False) if defn.guarded else group.group_order(defn)
    return {
        "name": defn.name,
        "stickers": defn.stickers,
        "moves": len(defn.moves),
        "move_names": defn.move_names,
        "goals": len(defn.goals),
        "guarded": defn.guarded,
        "orbits": [
            {"name": o.name, "pieces": len(o.slots), "stickers_per_piece": len(o.slots[0]), "orientations": o.twists}
            for o in model.orbits
        ],
        "group_order": order,
        "group_order_exact": order_exact,
        "state_count": count,
        "state_count_exact": exact,
        "hash": content_hash(defn),
    }


def reachability(defn: Definition, state) -> str | None:
    """None when a goal can be reached from `state`, else the reason it cannot."""
    return group.reachability(defn, state)


def solve(
    defn: Definition,
    state,
    *,
    optimal: bool = False,
    method: str | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    progress=None,
    cancel=None,
) -> dict:
    """Solve `state`; refuses unreachable states before searching; every answer is replayed.

    A specialized solver serves the puzzle when one recognises it (method "special", or by default
    unless `optimal` asks for a proof it cannot give); otherwise the generic search engine."""
    state = tuple(state)
    reason = reachability(defn, state)
    if reason is not None:
        raise UnreachableError(f"state cannot be solved: {reason}")
    if method is not None and method != SPECIAL and method not in search.METHODS:
        raise PuzzleError(f"method: unknown method {method!r}; methods: {', '.join((SPECIAL, *search.METHODS))}")
    special = families.find(defn) if method in (None, SPECIAL) else None
    if method == SPECIAL and special is None:
        raise PuzzleError("method: no specialized solver recognises this puzzle")
    # States that are solved or a few moves from a goal get a shortest answer before any long method.
    result = goals.short_solution(defn, state, time_limit) if method in (None, SPECIAL) else None
    if result is None and special is not None and (method == SPECIAL or not optimal or special.can_prove_optimal):
        result = _solve_special(special, state, optimal, time_limit, cancel)
    elif result is None:
        result = search.solve(
            defn, state, optimal=optimal, method=method, time_limit=time_limit, node_limit=node_limit,
            progress=progress, cancel=cancel,
        )
    moves = simplify(defn, result.moves)
    verified = moves is not None and verify(defn, state, moves)
    return {
        "solution": moves,
        "length": None if moves is None else len(moves),
        "optimal": bool(result.optimal and verified),
        "verified": verified,
        "method": result.method,
        "seconds": round(result.seconds, 4),
        "nodes": result.nodes,
        "complete": result.complete,
        "stopped": result.stopped,
    }


def _solve_special(special: families.Special, state, optimal, time_limit, cancel) -> search.SolveResult:
    started = time.monotonic()
    try:
        moves, proven = special.solve(state, optimal, time_limit, cancel)
    except SearchCancelled:
        return search.SolveResult(None, False, f"{SPECIAL}:{special.family}", seconds=time.monotonic() - started,
                                  complete=False, stopped="cancelled")
    # Asked for a shortest answer and not proven one: the budget ran out first.
    stopped = "time limit" if optimal and not proven else None
    return search.SolveResult(moves, proven, f"{SPECIAL}:{special.family}", seconds=time.monotonic() - started,
                              complete=stopped is None, stopped=stopped)


def scramble(defn: Definition, *, moves: int | None = None, random_state: bool = False, seed=None) -> dict:
    """A scramble: `moves` random moves, or a random reachable state (`uniform` says whether it was
    drawn uniformly or, where the group is not known, is the end of a long random walk)."""
    rng = random.Random(seed)
    if random_state:
        state, uniform = scrambles.random_state(defn, rng)
        return {"moves": None, "state": state, "uniform": uniform}
    if moves is None or moves < 0:
        raise PuzzleError("moves: give a number of moves, 0 or more")
    sequence = scrambles.random_moves(defn, moves, rng)
    return {"moves": sequence, "state": apply_moves(defn, sequence)}


def export_yaml(defn: Definition, fmt: str = "native") -> str:
    if fmt == "native":
        return export.to_yaml(export.native_data(defn))
    if fmt == "seed":
        return export.to_yaml(export.seed_data(defn))
    raise PuzzleError(f"format: unknown format {fmt!r}; formats: native, seed")



def effect(defn: Definition, moves) -> dict:
    """What a move sequence does to the pieces: {effect, effect_key, support, order, cycles}."""
    from solver import discover as discovery  # here, so that numba loads only when discovery is used

    return discovery.effect(defn, moves)


def discover(
    defn: Definition,
    *,
    max_length: int | None = None,
    max_support: int | None = None,
    time_limit: float | None = None,
    progress=None,
    cancel=None,
) -> list[dict]:
    """Short sequences that touch few pieces, best first, a few per effect class: each
    {moves, length, effect, effect_key, support, order, shortest}; every one replayed."""
    from solver import discover as discovery

    return discovery.discover(defn, max_length=max_length, max_support=max_support, time_limit=time_limit,
                              progress=progress, cancel=cancel)
