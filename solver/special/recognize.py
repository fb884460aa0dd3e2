"""Does a definition belong to a specialized solver's family, in the catalog's numbering?

A definition is recognized as catalog puzzle `name` when its content hash (stickers, moves by
name with their permutations and guards, solved states) equals the catalog definition's. The
candidate sizes come from the sticker and move counts, so only a few catalog puzzles are built.
Other numberings are matched by solver.analysis.isomorphism, not here.
"""

from __future__ import annotations

from functools import lru_cache

from solver import catalog
from solver.definition.canonical import content_hash
from solver.definition.formats import load_data
from solver.definition.model import Definition


@lru_cache(maxsize=64)
def catalog_hash(name: str) -> str:
    return content_hash(load_data(catalog.build(name)))


def is_catalog(defn: Definition, name: str) -> bool:
    return content_hash(defn) == catalog_hash(name)


def grid_shapes(cells: int, sizes) -> list[tuple[int, int]]:
    """The (rows, cols) with rows * cols = cells and both among the catalog's sizes: the candidate
    sizes of a grid puzzle with one sticker per cell."""
    return [(rows, cells // rows) for rows in sizes if cells % rows == 0 and cells // rows in sizes]
