"""Names of piece slots for effect texts, from what the definition tells.

- Faces: when every goal colour covers stickers that some move turns onto themselves (the colour
  of a face and the face turn), a piece is named by the faces its stickers lie on, each face by
  the shortest name of the smallest such move: `URF`. Letters follow the order of the moves.
- Colours: else, when colours tell the pieces of a kind apart, by the colours of its stickers in the
  goal: `GR`, or `12` for a Loopover tile named 12.
- Otherwise no names, and texts stay generic (`3-cycle of orbit 2`).
"""

from __future__ import annotations

from solver.analysis.pieces import PieceModel
from solver.definition.model import Definition
from solver.discover.moveset import MoveSet


def face_names(defn: Definition, moves: MoveSet) -> dict[str, tuple[int, str]] | None:
    """Colour -> (rank, face name), or None when some colour is not a face."""
    goal = defn.goal
    result: dict[str, tuple[int, str]] = {}
    for colour in defn.colours:
        where = {i for i, c in enumerate(goal) if c == colour}
        best = None
        for m, p in enumerate(moves.perms):
            moved = [i for i in where if p[i] != i]
            if not moved or any(p[i] not in where for i in where):
                continue
            size = sum(1 for i, x in enumerate(p) if i != x)
            candidate = (size, len(moves.names[m]), m)
            best = candidate if best is None or candidate < best else best
        if best is None:
            return None
        result[colour] = (best[2], _shortest_alias(moves, best[2]))
    names = [name for _rank, name in result.values()]
    return result if len(set(names)) == len(names) else None


def _shortest_alias(moves: MoveSet, m: int) -> str:
    """The shortest name among moves that turn the same stickers (U among U, U', U2)."""
    support = {i for i, x in enumerate(moves.perms[m]) if i != x}
    same = [name for name, p in zip(moves.names, moves.perms) if {i for i, x in enumerate(p) if i != x} == support]
    return min(same, key=lambda s: (len(s), s))


def piece_names(defn: Definition, moves: MoveSet, model: PieceModel, kinds: list[str]) -> list[list[str] | None]:
    """Per orbit, a name per slot, or None when the slots cannot be told apart by name: names must
    differ among all orbits of the same kind (`kinds`, one per orbit), as texts list them together."""
    goal = defn.goal
    faces = face_names(defn, moves)
    colour_rank = {c: i for i, c in enumerate(defn.colours)}

    # letters run together (URF); longer names are joined with '-' (U-BR-R) so they stay readable
    face_sep = "" if faces is None or all(len(name) == 1 for _r, name in faces.values()) else "-"
    colour_sep = "" if defn.single_char_colours else "-"

    def by_faces(slot):
        return face_sep.join(faces[goal[x]][1] for x in sorted(slot, key=lambda x: faces[goal[x]][0]))

    def by_colours(slot):
        return colour_sep.join(sorted((goal[x] for x in slot), key=colour_rank.get))

    schemes = ([by_faces] if faces is not None else []) + [by_colours]
    out: list[list[str] | None] = [None] * len(model.orbits)
    for kind in set(kinds):
        members = [i for i, k in enumerate(kinds) if k == kind]
        for scheme in schemes:
            names = {i: [scheme(slot) for slot in model.orbits[i].slots] for i in members}
            flat = [name for i in members for name in names[i]]
            if len(set(flat)) == len(flat):
                for i in members:
                    out[i] = names[i]
                break
    return out
