"""The moves of a definition as arrays for discovery: permutations, inverses, which move may follow
which in a canonical sequence, and the simplification of sequences built from pieces.

Discovery works on the group of the unguarded moves, so a definition with guarded moves is refused.
Moves with the same permutation as an earlier move are left out (they add no new sequences).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from solver import deadline, perm
from solver.definition.model import Definition
from solver.errors import PuzzleError
from solver.perm import Perm


@dataclass(frozen=True)
class MoveSet:
    names: tuple[str, ...]
    perms: tuple[Perm, ...]
    stickers: int
    aliases: tuple[tuple[str, int], ...] = ()  # every move name of the definition -> its index here

    @classmethod
    def of(cls, defn: Definition) -> "MoveSet":
        if defn.guarded:
            guarded = ", ".join(m.name for m in defn.moves if m.guarded)
            raise PuzzleError(f"discover: moves {guarded} are guarded; discovery needs moves that always apply")
        names, perms, aliases = [], [], []
        for m in defn.moves:
            if m.perm not in perms:
                names.append(m.name)
                perms.append(m.perm)
            aliases.append((m.name, perms.index(m.perm)))
        return cls(tuple(names), tuple(perms), defn.stickers, tuple(aliases))

    def __len__(self) -> int:
        return len(self.perms)

    @cached_property
    def index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.names)}

    @cached_property
    def dtype(self):
        return np.uint8 if self.stickers <= 256 else np.uint16

    @cached_property
    def array(self) -> np.ndarray:
        """perms as an (M, n) array: array[m, i] is where move m sends the sticker at i."""
        return np.array(self.perms, dtype=self.dtype).reshape(len(self.perms), self.stickers)

    @cached_property
    def _by_perm(self) -> dict[Perm, int]:
        return {p: i for i, p in enumerate(self.perms)}

    @cached_property
    def inverse_sequences(self) -> tuple[tuple[int, ...], ...]:
        """Per move, the shortest way found to undo it: its inverse move, else the move repeated."""
        out = []
        for p in self.perms:
            inv = self._by_perm.get(perm.inverse(p))
            m = self._by_perm[p]
            out.append((inv,) if inv is not None else (m,) * (perm.order(p) - 1))
        return tuple(out)

    @cached_property
    def closed_under_inverse(self) -> bool:
        return all(len(s) == 1 for s in self.inverse_sequences)

    @cached_property
    def merges(self) -> dict[tuple[int, int], int | None]:
        """(a, b) -> the move equal to a then b, or None when a then b is the identity; only pairs
        that collapse like that are listed."""
        out: dict[tuple[int, int], int | None] = {}
        ident = perm.identity(self.stickers)
        for a, pa in enumerate(self.perms):
            for b, pb in enumerate(self.perms):
                c = perm.compose(pa, pb)
                if c == ident:
                    out[a, b] = None
                elif c in self._by_perm:
                    out[a, b] = self._by_perm[c]
        return out

    @cached_property
    def commute(self) -> np.ndarray:
        arr = self.array.astype(np.int64)
        m = len(self)
        out = np.zeros((m, m), dtype=np.bool_)
        for a in range(m):
            # a then b equals b then a: arr[b][arr[a]] == arr[a][arr[b]]
            out[a] = (arr[:, arr[a]] == arr[a][arr]).all(axis=1)
        return out

    @cached_property
    def allowed(self) -> np.ndarray:
        """(M + 1, M) table of canonical sequences: may move b follow move a (row M: the start)?
        Never when a then b collapses into one move or nothing (U U', U U2, or U U when U2 is a
        move); never a commuting pair out of index order (D U is written U D)."""
        m = len(self)
        table = np.ones((m + 1, m), dtype=np.bool_)
        for (a, b) in self.merges:
            table[a, b] = False
        for a in range(m):
            for b in range(a):
                if self.commute[a, b]:
                    table[a, b] = False
        return table

    def perm_of(self, seq) -> Perm:
        result = perm.identity(self.stickers)
        for m in seq:
            result = perm.compose(result, self.perms[m])
        return result

    def rows_of(self, seqs) -> np.ndarray:
        """The permutations of many sequences as rows of an array (numpy, for speed)."""
        arr = self.array
        out = np.empty((len(seqs), self.stickers), dtype=self.dtype)
        for k, seq in enumerate(seqs):
            if k % 1024 == 0:
                deadline.check()  # the running job's cancel: there may be tens of thousands
            row = np.arange(self.stickers, dtype=self.dtype)
            for m in seq:
                row = arr[m][row]
            out[k] = row
        return out

    def inverse_of(self, seq) -> list[int]:
        out: list[int] = []
        for m in reversed(seq):
            out.extend(self.inverse_sequences[m])
        return out

    def simplify(self, seq) -> list[int]:
        """Merge moves that collapse, also across moves that commute with them (U D U' -> D),
        until nothing changes. The permutation stays the same."""
        out: list[int] = []
        for m in seq:
            self._push(out, m)
        return out

    def _push(self, out: list[int], m: int) -> None:
        j = len(out) - 1
        while j >= 0:
            key = (out[j], m)
            if key in self.merges:
                merged = self.merges[key]
                rest = out[j + 1:]
                del out[j:]
                if merged is not None:
                    self._push(out, merged)
                for r in rest:
                    self._push(out, r)
                return
            if not self.commute[out[j], m]:
                break
            j -= 1
        out.append(m)

    def names_of(self, seq) -> list[str]:
        return [self.names[m] for m in seq]

    def parse(self, names: list[str]) -> list[int]:
        """Indices of move names already checked by the engine; a name whose permutation duplicates
        an earlier move maps to that move."""
        lookup = dict(self.aliases)
        return [lookup[n] for n in names]
