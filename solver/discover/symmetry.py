"""Symmetries discovery uses, derived from the definition.

- Automorphisms of the move set: sticker permutations s such that s^-1 m s is again a move for every
  move m (whole-puzzle rotations and mirrors of a cube, translations of a Loopover, ...). Conjugating
  by one maps any sequence to a sequence of the same length, so effects related by one are the same
  effect seen from elsewhere.
- Goal rotations: the group of the definition's declared symmetries, restricted to those that map
  pieces onto pieces. A state that differs from a goal by one of them is solved (a 2x2x2 has no
  fixed centres), so an effect is read modulo them.
"""

from __future__ import annotations

import time

from solver import deadline, perm
from solver.perm import Perm

AUTOMORPHISM_LIMIT = 4096
GROUP_LIMIT = 4096


def _cycle_lengths(p: Perm) -> list[int]:
    """Per position, the length of its cycle (1 when fixed)."""
    out = [1] * len(p)
    for c in perm.cycles(p):
        for x in c:
            out[x] = len(c)
    return out


def automorphisms(perms: tuple[Perm, ...], time_limit: float = 3.0) -> tuple[list[Perm], bool]:
    """The sticker permutations that map the move set onto itself by conjugation (fixing the
    stickers no move touches), one per way of mapping moves to moves, and whether the search
    finished within its limits. The running job's budget (solver.deadline) may stop it too
    (Cancelled, OutOfTime): it can take seconds."""
    n = len(perms[0])
    m_count = len(perms)
    clen = [_cycle_lengths(p) for p in perms]
    ctype = [tuple(sorted(len(c) for c in perm.cycles(p))) for p in perms]
    moved = [x for x in range(n) if any(p[x] != x for p in perms)]
    profile = {x: tuple(sorted(cl[x] for cl in clen)) for x in moved}
    found: dict[tuple[int, ...], Perm] = {}  # move images -> the first automorphism found for them
    until = time.monotonic() + time_limit
    complete = True

    def propagate(sigma, sinv, pi, events) -> bool:
        while events:
            kind, v = events.pop()
            if kind == "x":
                pairs = [(v, m) for m in range(m_count) if pi[m] >= 0]
            else:
                pairs = [(x, v) for x in moved if sigma[x] >= 0]
            for x, m in pairs:
                x2 = perms[m][x]
                y2 = perms[pi[m]][sigma[x]]
                if sigma[x2] < 0:
                    if sinv[y2] >= 0 or profile.get(y2) != profile[x2]:
                        return False
                    sigma[x2], sinv[y2] = y2, x2
                    events.append(("x", x2))
                elif sigma[x2] != y2:
                    return False
        return True

    def search(sigma, sinv, pi, pinv) -> bool:
        """Extend a partial automorphism; True when one was completed below."""
        nonlocal complete
        deadline.check()
        if len(found) >= AUTOMORPHISM_LIMIT or time.monotonic() > until:
            complete = False
            return False
        # a move with an assigned sticker in its support but no image yet: branch on its image
        for m in range(m_count):
            if pi[m] >= 0:
                continue
            x = next((x for x in moved if sigma[x] >= 0 and perms[m][x] != x), None)
            if x is None:
                continue
            done = False
            for m2 in range(m_count):
                if pinv[m2] >= 0 or ctype[m2] != ctype[m] or clen[m2][sigma[x]] != clen[m][x]:
                    continue
                s2, si2, p2, pi2 = list(sigma), list(sinv), list(pi), list(pinv)
                p2[m], pi2[m2] = m2, m
                if propagate(s2, si2, p2, [("m", m)]):
                    done = search(s2, si2, p2, pi2) or done
            return done
        # else a sticker not yet reached: branch on where it goes
        x = next((x for x in moved if sigma[x] < 0), None)
        if x is None:
            s = tuple(sigma[i] if sigma[i] >= 0 else i for i in range(n))
            if tuple(pi) in found:
                return True
            if all(perm.compose(perm.inverse(s), perms[m], s) == perms[pi[m]] for m in range(m_count)):
                found[tuple(pi)] = s
                return True
            return False
        # Once every move has its image, other completions differ by a permutation that commutes
        # with every move (it conjugates nothing), so the first one is enough.
        settled = all(v >= 0 for v in pi)
        done = False
        for y in moved:
            if sinv[y] >= 0 or profile[y] != profile[x]:
                continue
            s2, si2 = list(sigma), list(sinv)
            s2[x], si2[y] = y, x
            if propagate(s2, si2, pi, [("x", x)]):
                done = search(s2, si2, list(pi), list(pinv)) or done
                if done and settled:
                    return True
        return done

    search([-1] * n, [-1] * n, [-1] * m_count, [-1] * m_count)
    result = sorted(found.values(), key=lambda s: (not perm.is_identity(s), s))
    return result, complete


def closure(generators: list[Perm], n: int, limit: int = GROUP_LIMIT) -> list[Perm] | None:
    """The group generated (identity first), or None when it has more than `limit` elements."""
    ident = perm.identity(n)
    group = [ident]
    seen = {ident}
    for g in group:
        for s in generators:
            h = perm.compose(g, s)
            if h not in seen:
                if len(group) >= limit:
                    return None
                seen.add(h)
                group.append(h)
    return group


def generators_of(elements: list[Perm]) -> list[Perm]:
    """A small generating set of a group given by its elements (greedy)."""
    if not elements:
        return []
    n = len(elements[0])
    gens: list[Perm] = []
    reached = {perm.identity(n)}
    for e in elements:
        if e not in reached:
            gens.append(e)
            reached = set(closure(gens, n) or elements)
            if len(reached) == len(elements):
                break
    return gens
