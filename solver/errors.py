"""Errors the solver raises for bad input. Each message names the place and the problem, so the
command line prints it as one line and the site returns it as a 400 body."""


class PuzzleError(ValueError):
    """Base of every input error of the solver."""


class DefinitionError(PuzzleError):
    """A definition that does not load or validate."""


class NotationError(PuzzleError):
    """A move sequence with an unknown move name."""


class StateError(PuzzleError):
    """A state that is malformed for its definition (length, unknown colours)."""


class UnreachableError(PuzzleError):
    """A well-formed state that no sequence of moves reaches from a goal."""
