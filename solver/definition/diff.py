"""The semantic difference between two definitions: what changed in the puzzle, not in its text.

Moves are compared through their canonical form (cycles and guards), so rewriting a move with rotated
cycles or as an extender is no change; a move whose permutation reappears under another name is a
rename. Goals are compared as sets of solved states. Presentation (name, description, colours,
layout) is listed separately because it never makes a different puzzle.
"""

from __future__ import annotations

import json

from solver.definition.canonical import canonical_form, content_hash
from solver.definition.model import Definition


def _moves_by_name(defn: Definition) -> dict[str, str]:
    """Name -> canonical text of the move's cases (cycles and guards)."""
    return {
        m["name"]: json.dumps(m["cases"], sort_keys=True, separators=(",", ":"))
        for m in canonical_form(defn)["moves"]
    }


def _cycles_text(cases_json: str) -> str:
    cases = json.loads(cases_json)
    if len(cases) == 1 and not cases[0]["when"]:
        return cases[0]["cycles"]
    return "; ".join(
        case["cycles"] + " when " + ", ".join(f"{p}={c}" for p, c in case["when"]) for case in cases
    )


def _presentation(defn: Definition) -> dict:
    return {
        "name": defn.name,
        "description": defn.description,
        "colors": defn.colors,
        "layout": defn.layout,
    }


def diff(base: Definition, head: Definition) -> dict:
    """What `head` changes relative to `base`.

    Keys: same_puzzle (equal content hashes), base_hash, head_hash, stickers ({base, head} or None),
    moves_added / moves_removed (lists of {name, cycles}), moves_renamed ({from, to}),
    moves_changed ({name, base, head}), goals ({added, removed}: counts of solved states, or None),
    presentation_changed (field names).
    """
    base_moves, head_moves = _moves_by_name(base), _moves_by_name(head)
    removed = {n: c for n, c in base_moves.items() if n not in head_moves}
    added = {n: c for n, c in head_moves.items() if n not in base_moves}

    renamed = []
    for old_name, cases in sorted(removed.items()):
        new_name = next((n for n, c in sorted(added.items()) if c == cases), None)
        if new_name is not None:
            renamed.append({"from": old_name, "to": new_name})
            del added[new_name]
    for pair in renamed:
        del removed[pair["from"]]

    changed = [
        {"name": n, "base": _cycles_text(base_moves[n]), "head": _cycles_text(head_moves[n])}
        for n in sorted(base_moves.keys() & head_moves.keys())
        if base_moves[n] != head_moves[n]
    ]

    base_goals, head_goals = set(base.goals), set(head.goals)
    goals = None
    if base_goals != head_goals:
        goals = {"added": len(head_goals - base_goals), "removed": len(base_goals - head_goals)}

    base_look, head_look = _presentation(base), _presentation(head)
    base_hash, head_hash = content_hash(base), content_hash(head)
    return {
        "same_puzzle": base_hash == head_hash,
        "base_hash": base_hash,
        "head_hash": head_hash,
        "stickers": None if base.stickers == head.stickers else {"base": base.stickers, "head": head.stickers},
        "moves_added": [{"name": n, "cycles": _cycles_text(c)} for n, c in sorted(added.items())],
        "moves_removed": [{"name": n, "cycles": _cycles_text(c)} for n, c in sorted(removed.items())],
        "moves_renamed": renamed,
        "moves_changed": changed,
        "goals": goals,
        "presentation_changed": [k for k in base_look if base_look[k] != head_look[k]],
    }
