"""Puzzles from shapes: a Platonic solid cut by planes, described in the PuzzleGeometry language
(`c f 0.333333333333333` is the 3x3x3), built into a native definition. See docs/shapes.md."""

from solver.geometry.description import NAMED, named, parse
from solver.geometry.shape import build

__all__ = ["NAMED", "build", "named", "parse"]
