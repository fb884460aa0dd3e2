"""Alg notation: how people write move sequences, expanded to the definition's own move names.

    R U R' U'          moves, separated by spaces (or not, where the names leave no doubt)
    (R U R' U')3       a group repeated; R2 is R twice when the puzzle has no move named R2
    (R U)'             the inverse of a group: reversed, each move replaced by its inverse
    [A, B]             commutator: A B A' B'
    [A: B]             conjugate: A B A'

Groups nest. Names are matched longest first against the definition's moves, so a puzzle with a
move named "R2" keeps it as one move. Errors give the column (from 1) of the problem. The expanded
length is computed before anything is expanded, so `((R)1000)1000` is refused at once instead of
filling memory.
"""

from __future__ import annotations

from solver.definition.model import Definition
from solver.errors import NotationError

MAX_MOVES = 50_000  # expanded length; a written alg longer than this is a mistake, not a sequence
MAX_DEPTH = 64      # brackets nested deeper than this are refused (and never reach Python's limit)
STRUCTURE = "()[],:"


class _Parser:
    def __init__(self, defn: Definition, text: str):
        self.defn = defn
        self.text = text
        self.pos = 0
        self.names: dict[str, list[str]] = {}  # by first character, longest first
        for name in sorted(defn.move_index, key=len, reverse=True):
            self.names.setdefault(name[:1], []).append(name)
        self.inverses: dict[str, str | None] = {}

    # --- errors and characters -------------------------------------------------------------------
    def error(self, message: str, at: int | None = None):
        column = (self.pos if at is None else at) + 1
        raise NotationError(f"alg: {message} at column {column}")

    def skip_space(self):
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    # --- grammar: sequence := item*; item := atom suffix*; atom := move | (sequence) | [seq ,|: seq]
    def sequence(self, depth: int, closing: str) -> list:
        """A list of nodes; a node is a move name or ("seq", nodes, length)."""
        items, length = [], 0
        while True:
            self.skip_space()
            ch = self.peek()
            if ch == "" or ch in closing:
                return items, length
            if ch in ")]":
                self.error(f'unbalanced "{ch}"')
            if ch in ",:":
                self.error(f'"{ch}" outside "[ ]"')
            node, n = self.item(depth)
            items.append(node)
            length += n
            if length > MAX_MOVES:
                self.error(f"longer than {MAX_MOVES:,} moves once expanded")

    def item(self, depth: int):
        start = self.pos
        ch = self.peek()
        if ch in "([":
            if depth >= MAX_DEPTH:
                self.error(f"brackets nested deeper than {MAX_DEPTH}")
            node, n = self.group(depth + 1) if ch == "(" else self.bracket(depth + 1)
        else:
            name = self.move_name()
            node, n = name, 1
        return self.suffixes(node, n, start)

    def move_name(self) -> str:
        for name in self.names.get(self.peek(), ()):
            if self.text.startswith(name, self.pos):
                self.pos += len(name)
                return name
        end = self.pos
        while end < len(self.text) and not self.text[end].isspace() and self.text[end] not in STRUCTURE:
            end += 1
        word = self.text[self.pos:end]
        valid = ", ".join(self.defn.move_names[:60]) + (" ..." if len(self.defn.move_names) > 60 else "")
        raise NotationError(f'alg: unknown move "{word}" at column {self.pos + 1}; valid moves: {valid}')

    def group(self, depth: int):
        opened = self.pos
        self.pos += 1
        items, n = self.sequence(depth, ")")
        if self.peek() != ")":
            self.error('unbalanced "("', at=opened)
        self.pos += 1
        return ("seq", items, n), n

    def bracket(self, depth: int):
        opened = self.pos
        self.pos += 1
        a, na = self.sequence(depth, ",:]")
        sep = self.peek()
        if sep == "]":
            self.error('"[" needs "," (commutator) or ":" (conjugate) before "]"', at=opened)
        if sep not in ",:":
            self.error('unbalanced "["', at=opened)
        self.pos += 1
        b, nb = self.sequence(depth, "]")
        if self.peek() != "]":
            self.error('unbalanced "["', at=opened)
        self.pos += 1
        first, second = ("seq", a, na), ("seq", b, nb)
        inv_a = self.inverse(first, opened)
        if sep == ",":
            return ("seq", [first, second, inv_a, self.inverse(second, opened)], 2 * (na + nb)), 2 * (na + nb)
        return ("seq", [first, second, inv_a], 2 * na + nb), 2 * na + nb

    def suffixes(self, node, n: int, start: int):
        """Repeat counts and primes after an atom: `(R U)3'`, `R2` when R2 is not itself a move."""
        while True:
            ch = self.peek()
            if ch.isdigit():
                at = self.pos
                while self.peek().isdigit():
                    self.pos += 1
                count = int(self.text[at:self.pos])
                if count == 0:
                    self.error("a repeat count is at least 1", at=at)
                if n * count > MAX_MOVES:
                    self.error(f"longer than {MAX_MOVES:,} moves once expanded", at=at)
                node, n = ("seq", [node] * count, n * count), n * count
            elif ch == "'":
                node = self.inverse(node, self.pos)
                self.pos += 1
            else:
                return node, n

    def inverse(self, node, at: int):
        if isinstance(node, str):
            if node not in self.inverses:
                self.inverses[node] = self.defn.inverse_name(node)
            inv = self.inverses[node]
            if inv is None:
                self.error(f'move "{node}" has no inverse among this puzzle\'s moves', at=at)
            return inv
        _, items, n = node
        return ("seq", [self.inverse(item, at) for item in reversed(items)], n)


def _flatten(node, out: list[str]):
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        else:
            stack.extend(reversed(item[1]))


def expand(defn: Definition, text: str) -> list[str]:
    """The definition's move names that `text` stands for, in order."""
    parser = _Parser(defn, text)
    items, _ = parser.sequence(0, "")
    out: list[str] = []
    _flatten(("seq", items, 0), out)
    return out
