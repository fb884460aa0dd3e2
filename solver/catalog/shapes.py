"""The well-known named shapes (solver.geometry: a solid and the planes that cut it) in the catalog,
under their names written as catalog names (`master-pyraminx`, `gigaminx`, `christophers-jewel`).

The puzzles the catalog already builds with generators of its own stay theirs, so no puzzle is
listed twice: SAME_AS names the shape each of them also is. The shape `pyraminx` (with tips) is the
catalog's pyraminx (without) plus four free tips: it stays `shape:pyraminx`. The Rex Cube is no shape
(its cuts are spheres); the catalog's `rex` is its own.
"""

from __future__ import annotations

# named shape -> catalog name; the shapes people know by name that no catalog generator builds
WELL_KNOWN = {
    name: name.replace("'", "").replace(" ", "-") for name in (
        "master skewb", "professor skewb", "compy cube", "helicopter", "curvy copter",
        "pyramorphix", "mastermorphix", "master pyraminx", "professor pyraminx", "royal pyraminx",
        "jing pyraminx", "gigaminx", "teraminx", "pentultimate", "starminx", "pyraminx crystal",
        "chopasaurus", "big chop", "master fto", "christopher's jewel", "trajber's octahedron",
        "icosamate", "redicosahedron", "icosaminx", "eitan's star",
    )
}
BY_CATALOG_NAME = {catalog_name: shape for shape, catalog_name in WELL_KNOWN.items()}

# catalog puzzle -> the named shape that is the same puzzle, built from its cuts instead
SAME_AS = {f"cube{n}": f"{n}x{n}x{n}" for n in range(2, 11)} | {
    "skewb": "skewb", "dino": "dino", "little-chop": "little chop", "pyraminx": "tetraminx",
    "megaminx": "megaminx", "skewb-diamond": "skewb diamond", "fto": "fto",
}

SOLIDS = {"t": "tetrahedron", "c": "cube", "o": "octahedron", "d": "dodecahedron", "i": "icosahedron"}


def _text(shape: str) -> str:
    from solver.geometry import named  # here: solver.geometry draws on the catalog's generators

    return named(shape)


def build(name: str) -> dict:
    """The definition of a well-known shape under its catalog name."""
    from solver import geometry  # here: solver.geometry draws on the catalog's generators

    return geometry.build(BY_CATALOG_NAME[name], name=name)


def describe(name: str) -> str:
    shape = BY_CATALOG_NAME[name]
    text = _text(shape)
    solid = SOLIDS[text[0]]
    article = "an" if solid[0] in "aeiou" else "a"
    return f"The named shape '{shape}' ({text}): {article} {solid} cut by planes, built from its cuts (docs/shapes.md)."


def topics(name: str) -> list[str]:
    """Search words: `shape`, the solid and the words of its name."""
    shape = BY_CATALOG_NAME[name]
    return list(dict.fromkeys(["shape", SOLIDS[_text(shape)[0]], *shape.replace("'", "").split()]))


def same_as_note(name: str) -> str:
    """For a catalog puzzle that is also a named shape: where that shape is."""
    shape = SAME_AS.get(name)
    return f" The named shape '{shape}' ({_text(shape)}) is the same puzzle." if shape else ""
