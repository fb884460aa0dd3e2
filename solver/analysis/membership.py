"""Group data: what deciding whether a state is reachable needs, computed once per definition and
kept as JSON (the site stores it with the revision), so that the check itself takes milliseconds
even on a 20x20x20 cube, where building the move group takes a minute.

It exists when the move group is the "orbit product" of its images: every element whose image on
each orbit of pieces lies in that orbit's image group, and whose vector of per-orbit parities lies
in the span V of the generators' vectors, is in the group. That holds exactly when the group's
proven order equals `orbit_upper_bound` (which counts that set). Each orbit's image is then
decided without a chain: either it is the whole wreath product cut by its features (slot parity,
sticker parity, total twist), or the orbit holds identical one-sticker pieces (big-cube centres)
and its image holds every even permutation, so any arrangement of them is right up to a parity
that swapping two identical pieces settles.
"""

from __future__ import annotations

from math import factorial

from solver.analysis.group import (
    OrbitFeatures, arrangement, in_span, move_group, obvious_reason, orbit_chains, orbit_signs,
    orbit_upper_bound, singular, wreath_bound,
)
from solver.analysis.pieces import Orbit, PieceModel, piece_generators, piece_model

FORMAT = 1


def group_data(defn) -> dict | None:
    """The group data of an unguarded definition, or None when its group is not an orbit product
    of the kinds above (reachability then needs the group itself)."""
    if defn.guarded:
        return None
    group = move_group(defn)
    if not group.exact or group.tiles or group.order != orbit_upper_bound(defn):
        return None
    model, gens = piece_model(defn), piece_generators(defn)
    orbits, repeated = [], []
    for j, (orbit, chain) in enumerate(zip(model.orbits, orbit_chains(defn))):
        index = {x: i for i, x in enumerate(orbit.stickers)}
        images = [tuple(index[g[x]] for x in orbit.stickers) for g in gens]
        entry = {"slots": [list(s) for s in orbit.slots], "rot": [list(r) for r in orbit.rot], "name": orbit.name}
        if model.has_identical_pieces(j):
            if len(orbit.slots[0]) != 1 or 2 * chain.order < factorial(len(orbit.slots)):
                return None
            entry["kind"] = "runs"
            repeated.append(3 << (2 * j))  # a swap of two identical pieces: odd slots and stickers
        elif chain.order == wreath_bound(orbit, images):
            features = OrbitFeatures(orbit)
            entry["kind"] = "wreath"
            entry["features"] = sorted(features.reached([features.of(q) for q in images]))
        else:
            return None
        orbits.append(entry)
    return {"format": FORMAT, "stickers": defn.stickers, "fixed": list(model.fixed), "orbits": orbits,
            "signs": [format(v, "x") for v in _basis([orbit_signs(model, g) for g in gens])],
            "repeated": [format(v, "x") for v in repeated]}


def usable(defn, data) -> bool:
    """Whether `data` is group data of this format for a definition of this size."""
    return isinstance(data, dict) and data.get("format") == FORMAT and data.get("stickers") == defn.stickers


def reachability(defn, data: dict, state) -> str | None:
    """None when `state` can be reached from a goal, else the reason (as `group.reachability`
    says it), decided from the group data alone."""
    state = tuple(state)
    reason = obvious_reason(defn, state)
    if reason is not None or state in defn.goals:
        return reason
    model = PieceModel(
        orbits=tuple(Orbit(slots=tuple(map(tuple, o["slots"])), twists=len(o["rot"]),
                           rot=tuple(map(tuple, o["rot"])), name=o["name"]) for o in data["orbits"]),
        fixed=tuple(data["fixed"]), goal=tuple(defn.goal))
    reason, p = arrangement(defn, model, state)
    if reason is not None:
        return reason
    twists, parities = [], []
    for orbit, entry in zip(model.orbits, data["orbits"]):
        if entry["kind"] != "wreath":
            continue
        allowed = {tuple(f) for f in entry["features"]}
        index = {x: i for i, x in enumerate(orbit.stickers)}
        features, q = OrbitFeatures(orbit), [index[p[x]] for x in orbit.stickers]
        if features.of(q) in allowed:
            continue
        if features.untwisted(q) in allowed:
            twists.append(f"{singular(orbit.name)} {({2: 'flip', 3: 'twist'}).get(orbit.twists, 'twist')}")
        else:
            parities.append(orbit.name)
    if twists:
        return ", ".join(twists)
    signs = orbit_signs(model, p)
    if parities or not in_span(signs, [int(v, 16) for v in data["signs"] + data["repeated"]]):
        odd = parities or [o.name for j, o in enumerate(model.orbits) if signs >> (2 * j) & 1]
        return f"parity ({', '.join(odd) or 'orientation'})"
    return None


def _basis(vectors: list[int]) -> list[int]:
    """Independent vectors spanning what `vectors` span over GF(2) (to keep the data small)."""
    pivots: dict[int, int] = {}
    out = []
    for v in vectors:
        w = v
        while w and (w.bit_length() - 1) in pivots:
            w ^= pivots[w.bit_length() - 1]
        if w:
            pivots[w.bit_length() - 1] = w
            out.append(v)
    return out
