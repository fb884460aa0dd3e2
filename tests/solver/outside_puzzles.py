"""Puzzles as an outside user writes them: plain sticker permutations in the native format, no
piece model, no catalog. The families of the Santa 2023 challenge, at any size: cubes whose moves
turn one slice each, "wreath" rings of two cycles sharing two positions, and "globes" (bands that
turn, half-globes that flip)."""

from __future__ import annotations

import itertools
import random
import string

from solver.definition.formats import load_data


def _names(count: int) -> list[str]:
    """`count` distinct colour symbols (letters first, then numbered ones)."""
    letters = string.ascii_uppercase
    return list(letters[:count]) if count <= len(letters) else [f"c{i}" for i in range(count)]


def _cycles(p: list[int]) -> list[list[int]]:
    seen, out = set(), []
    for start in range(len(p)):
        if start in seen or p[start] == start:
            continue
        cycle, i = [], start
        while i not in seen:
            seen.add(i)
            cycle.append(i)
            i = p[i]
        out.append(cycle)
    return out


def _definition(name: str, goal: list[str], moves: dict[str, list[int]], inverses: bool = True) -> object:
    """The native-format definition; each move p maps position i's sticker to p[i] (its inverse
    added as -name, as the challenge allows)."""
    out = []
    for move, p in moves.items():
        out.append({"name": move, "cycles": _cycles(p)})
        inverse = [0] * len(p)
        for i, j in enumerate(p):
            inverse[j] = i
        if inverses and inverse != list(p):
            out.append({"name": f"-{move}", "cycles": _cycles(inverse)})
    return load_data({"format": "puzzlehub/1", "name": name, "goal": goal, "moves": out})


def slice_cube(n: int, *, distinct: bool = False, seed: int | None = None):
    """The NxNxN cube with one move per slice (3n moves and their inverses), stickers numbered in
    a shuffled order when `seed` is given; one colour per face, or every sticker its own."""
    stickers = []  # (position, normal) in doubled coordinates: faces at +-n, centres odd
    coords = range(-n + 1, n, 2)
    for axis in range(3):
        for sign in (1, -1):
            for a, b in itertools.product(coords, repeat=2):
                pos = [a, b]
                pos.insert(axis, sign * n)
                normal = [0, 0, 0]
                normal[axis] = sign
                stickers.append((tuple(pos), tuple(normal)))
    order = list(range(len(stickers)))
    if seed is not None:
        random.Random(seed).shuffle(order)
    number = {st: order[i] for i, st in enumerate(stickers)}

    def turn(v, axis):  # a quarter turn about the axis
        x = list(v)
        i, j = [a for a in range(3) if a != axis]
        x[i], x[j] = -v[j], v[i]
        return tuple(x)

    moves = {}
    for axis, letter in enumerate("xyz"):
        for layer in range(n):
            p = [0] * len(stickers)
            for (pos, normal), i in number.items():
                inside = min(max((pos[axis] + n - 1) // 2, 0), n - 1) == layer
                p[i] = number[(turn(pos, axis), turn(normal, axis))] if inside else i
            moves[f"{letter}{layer}"] = p
    faces = _names(6)
    goal = [""] * len(stickers)
    colours = _names(len(stickers)) if distinct else None
    for k, ((pos, normal), i) in enumerate(number.items()):
        goal[i] = colours[k] if distinct else faces[[(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)].index(normal)]
    return _definition(f"slice-cube-{n}", goal, moves)


def ring(left: int, right: int | None = None, *, distinct: bool = False):
    """Two cycles of `left` and `right` positions sharing two (a wreath): the left ring is
    positions 0..left-1, the right ring passes through left positions 0 and left // 2. Three
    colours (left only, right only, shared) or every ball its own."""
    right = left if right is None else right
    a, b = 0, max(1, left // 4)
    own = list(range(left, left + right - 2))
    split = max(1, 3 * right // 4) - 1
    right_cycle = [b] + own[:split] + [a] + own[split:]
    n = left + right - 2
    moves = {}
    for name, cycle in (("l", list(range(left))), ("r", right_cycle)):
        p = list(range(n))
        for i, pos in enumerate(cycle):
            p[pos] = cycle[(i + 1) % len(cycle)]
        moves[name] = p
    if distinct:
        goal = _names(n)
    else:
        goal = ["C" if i in (a, b) else "A" if i < left else "B" for i in range(n)]
    return _definition(f"ring-{left}-{right}", goal, moves)


def globe(bands: int, half: int, *, distinct: bool = False):
    """bands + 1 rows of 2*half columns: a move turns one row by a column, another flips the half
    globe starting at a column (row r's column j+c goes to row bands-r's column j+half-1-c)."""
    rows, cols = bands + 1, 2 * half
    at = lambda r, c: r * cols + c % cols  # noqa: E731
    n = rows * cols
    moves = {}
    for r in range(rows):
        p = list(range(n))
        for c in range(cols):
            p[at(r, c)] = at(r, c + 1)
        moves[f"r{r}"] = p
    for j in range(cols):
        p = list(range(n))
        for r in range(rows):
            for c in range(half):
                p[at(r, j + c)] = at(bands - r, j + half - 1 - c)
        moves[f"f{j}"] = p
    names = _names(2 * rows)
    goal = _names(n) if distinct else [names[2 * r + (c >= half)] for r in range(rows) for c in range(cols)]
    return _definition(f"globe-{bands}-{half}", goal, moves)


def flip_ring(n: int):
    """n two-sticker pieces on a ring (tops 0..n-1, bottoms n..2n-1), every sticker distinct: `a`
    turns the ring one step, `f` flips the piece at the first position (one orbit of n pieces
    that twist)."""
    turn = [(i + 1) % n for i in range(n)] + [n + (i + 1) % n for i in range(n)]
    flip = list(range(2 * n))
    flip[0], flip[n] = n, 0
    return _definition(f"flip-ring-{n}", _names(2 * n), {"a": turn, "f": flip})


def pairings(copies: int):
    """`copies` side by side of a 4-point wheel turned by a quarter turn and a swap, with three
    more positions that follow how those moves permute the wheel's three pairings ({01|23},
    {02|13}, {03|12}): two orbits per copy, and no algorithm moving at most three slots of one
    without moving the other (a 3-cycle of the wheel cycles the pairings; what fixes every pairing
    moves four wheel slots)."""
    n = 7 * copies
    moves = {}
    for c in range(copies):
        w, p = 7 * c, 7 * c + 4
        turn, swap = list(range(n)), list(range(n))
        for i in range(4):
            turn[w + i] = w + (i + 1) % 4
        turn[p], turn[p + 2] = p + 2, p  # (01|23 -> 12|30), (03|12 -> 10|23)
        swap[w], swap[w + 1] = w + 1, w
        swap[p + 1], swap[p + 2] = p + 2, p + 1  # (02|13 -> 12|03)
        moves[f"t{c}"], moves[f"s{c}"] = turn, swap
    return _definition(f"pairings-{copies}", _names(n), moves, inverses=False)
