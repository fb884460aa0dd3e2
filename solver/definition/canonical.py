"""Canonical form and content hash: what makes a definition the puzzle it is.

Two definitions with the same sticker count, the same moves (by name, as permutations with their
guards) and the same set of solved states are the same puzzle, however they were written: cycles
rotated or reordered, extenders instead of explicit moves, seed or native format. Names, colours'
display names, layout and description are presentation and stay out.
"""

from __future__ import annotations

import hashlib
import json

from solver import perm
from solver.definition.model import Case, Definition, Move


def canonical_form(defn: Definition) -> dict:
    return {
        "stickers": defn.stickers,
        "moves": [_move_form(m) for m in sorted(defn.moves, key=lambda m: m.name)],
        "goals": sorted(list(g) for g in defn.goals),
    }


def _move_form(move: Move) -> dict:
    cases = [_case_form(c) for c in move.cases]
    if _exclusive(move.cases):
        # When no two guards can hold at once, the order the cases were written in does not matter.
        cases.sort(key=lambda c: json.dumps(c, sort_keys=True))
    return {"name": move.name, "cases": cases}


def _case_form(case: Case) -> dict:
    return {"cycles": perm.cycle_text(case.perm), "when": [[p, c] for p, c in case.guard]}


def _exclusive(cases: tuple[Case, ...]) -> bool:
    for i, a in enumerate(cases):
        for b in cases[i + 1:]:
            guard_a = dict(a.guard)
            if not any(guard_a.get(p, c) != c for p, c in b.guard):
                return False
    return True


def content_hash(defn: Definition) -> str:
    # A definition never changes (frozen, of tuples): its hash is computed once and kept on it, as
    # a cached_property would, since one solve asks several times (table names, recognition:
    # measured a tenth of a small cube's solve).
    known = defn.__dict__.get("_content_hash")
    if known is None:
        text = json.dumps(canonical_form(defn), sort_keys=True, separators=(",", ":"))
        known = defn.__dict__["_content_hash"] = "sha256:" + hashlib.sha256(text.encode()).hexdigest()
    return known
