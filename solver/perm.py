"""Permutation algebra on sticker positions: the bottom floor of the solver.

A permutation is a tuple `p` of length n where `p[i]` is the position the sticker at `i` goes to
(the reading of a cycle `(0 2 8 6)`: 0 goes to 2). Applying `p` to a state gives
`new[p[i]] = old[i]`, i.e. `new[j] = old[inverse(p)[j]]`.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence, TypeVar

Perm = tuple[int, ...]
T = TypeVar("T")
G = TypeVar("G")


def identity(n: int) -> Perm:
    return tuple(range(n))


def is_identity(p: Sequence[int]) -> bool:
    return all(i == x for i, x in enumerate(p))


def inverse(p: Sequence[int]) -> Perm:
    inv = [0] * len(p)
    for i, x in enumerate(p):
        inv[x] = i
    return tuple(inv)


def compose(*perms: Sequence[int]) -> Perm:
    """The permutation of doing perms[0] first, then perms[1], and so on."""
    n = len(perms[0])
    result = list(range(n))
    for p in perms:
        result = [p[x] for x in result]
    return tuple(result)


def power(p: Sequence[int], k: int) -> Perm:
    """p applied k times (k may be negative)."""
    base = tuple(p) if k >= 0 else inverse(p)
    k = abs(k)
    result = identity(len(p))
    while k:
        if k & 1:
            result = compose(result, base)
        base = compose(base, base)
        k >>= 1
    return result


def sources(p: Sequence[int]) -> Perm:
    """Index array `src` with new_state[j] = old_state[src[j]] (the inverse, named for its use)."""
    return inverse(p)


def apply(p: Sequence[int], state: Sequence) -> tuple:
    """The state reached by moving every sticker i of `state` to p[i]."""
    new = [None] * len(state)
    for i, x in enumerate(p):
        new[x] = state[i]
    return tuple(new)


def cycles(p: Sequence[int]) -> list[list[int]]:
    """Canonical cycles: each starts at its smallest element, sorted by that element; no 1-cycles."""
    seen = [False] * len(p)
    result = []
    for start in range(len(p)):
        if seen[start] or p[start] == start:
            seen[start] = True
            continue
        cycle = []
        i = start
        while not seen[i]:
            seen[i] = True
            cycle.append(i)
            i = p[i]
        result.append(cycle)
    return result


def cycle_text(p: Sequence[int]) -> str:
    """`(0 2 8 6)(1 5 7 3)`; the identity is `()`."""
    cs = cycles(p)
    return "".join("(" + " ".join(map(str, c)) + ")" for c in cs) or "()"


def from_cycles(n: int, cycle_list: Iterable[Sequence[int]]) -> Perm:
    """Build a permutation of n positions; the caller has checked range and repeats."""
    p = list(range(n))
    for c in cycle_list:
        for k, x in enumerate(c):
            p[x] = c[(k + 1) % len(c)]
    return tuple(p)


def closed_array(p: Sequence[int]) -> list[int]:
    """The seed format's flat array: each cycle closed by repeating its first number."""
    out: list[int] = []
    for c in cycles(p):
        out.extend(c)
        out.append(c[0])
    return out


def order(p: Sequence[int]) -> int:
    from math import lcm

    result = 1
    for c in cycles(p):
        result = lcm(result, len(c))
    return result


def support(p: Sequence[int]) -> list[int]:
    """Positions the permutation moves."""
    return [i for i, x in enumerate(p) if i != x]


def parity(p: Sequence[int]) -> int:
    """0 for even, 1 for odd: a cycle of length L is L - 1 transpositions. Walks the cycles without
    building them, since the group analysis calls it on every generator image."""
    seen = bytearray(len(p))
    odd = 0
    for start in range(len(p)):
        i, length = start, 0
        while not seen[i]:
            seen[i] = 1
            i = p[i]
            length += 1
        if length:
            odd ^= (length - 1) & 1
    return odd


class Unions:
    """Union-find over range(n): positions joined into classes, each named by its smallest member."""

    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        a, b = self.find(a), self.find(b)
        if a != b:
            self.parent[max(a, b)] = min(a, b)


def orbit_roots(n: int, perms: Iterable[Sequence[int]]) -> list[int]:
    """Per position, the smallest position of its orbit under the permutations (union-find, so
    linear in their total size rather than a closure)."""
    u = Unions(n)
    for p in perms:
        for x, y in enumerate(p):
            u.union(x, int(y))
    return [u.find(x) for x in range(n)]


def orbit(start: Iterable[T], generators: Sequence[G], act: Callable[[T, G], T],
          limit: int | None = None) -> list[T] | None:
    """Everything `act(x, g)` reaches from the start items by generators applied again and again, in
    breadth-first order with the start items first (repeats dropped); None as soon as more than
    `limit` are found, so that a caller can refuse a closure too large to hold."""
    found = dict.fromkeys(start)
    queue = list(found)
    for x in queue:  # the queue grows while it is read: breadth-first
        for g in generators:
            image = act(x, g)
            if image not in found:
                found[image] = None
                queue.append(image)
                if limit is not None and len(found) > limit:
                    return None
    return queue


def group_elements(generators: Sequence[Perm], n: int, limit: int | None = None) -> list[Perm] | None:
    """The permutations of n positions that the generators generate (identity first); None when
    there are more than `limit`."""
    return orbit([identity(n)], generators, compose, limit)
