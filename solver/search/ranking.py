"""Ranking sub-states of pieces to dense integers, and back.

A *projection* keeps some of the pieces of some orbits and forgets the rest. Within an orbit it
tracks groups of pieces: where each group sits (a set of slots) and, optionally, how its pieces are
twisted (one digit per piece, in slot order). Pieces of one class are interchangeable, so a group is
always a union of whole classes; a group of one piece gives permutation ranks, a group of identical
pieces a multiset rank, and one group holding every piece of an orbit gives orientation only.

The rank is a mixed-radix number: per group, the combination rank of its slots among the slots the
earlier groups of the orbit left free (combinatorial number system), then its orientation digits.
When a part holds every piece of an orbit whose moves keep the total twist, the last digit is
implied by the others and dropped, as for the corners of a cube (3^7, not 3^8).

Orbits of at most MAX_SLOTS slots keep the slots taken so far as a bit mask in an int64. A larger
orbit (a ring of 198 balls) can only be ranked over a few of its pieces, so its factors are *wide*:
they count the earlier pieces' slots below each slot by reading them again, and order a group's
slots by comparing them pairwise (quadratic in the few tracked pieces, no mask, no scratch).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from math import comb

import numpy as np

from solver.errors import PuzzleError
from solver.search import njit

MAX_SLOTS = 62  # slot sets are bit masks in an int64; larger orbits get wide factors
# group columns (SHIFT: log2 of K when K is a power of two, else -1: a shift is cheaper than a division)
N, K, BASE, PS, PE, TWIST, AVAIL, COUNT, SHIFT = range(9)
# factor columns and kinds: where groups sit (POS), where and how twisted (COMB), twist by slot of a
# whole orbit (ORI), twist of each piece of single-piece groups (PTW, follows their POS factor)
KIND, G0, G1, FN, FK, FBASE, FPIECE, SIZE, DROP, SUM = range(10)
POS, COMB, ORI, PTW = range(4)
BINOM = np.array([[comb(n, k) for k in range(MAX_SLOTS + 2)] for n in range(MAX_SLOTS + 2)], dtype=np.int64)

RANK_LIMIT = 2**62  # ranks are int64; a projection at least this large cannot be ranked
# a wide factor's binomials are computed as needed, C(n, j) = C(n, j-1) (n-j+1) / j with j <= n/2:
# the products stay below j C(n, j) < 56 C(n, j), so its size is kept under this (no table that
# large is ever built)
WIDE_LIMIT = 2**56


@dataclass(frozen=True)
class Part:
    """What a projection keeps of one orbit: some whole classes of pieces (local indices)."""

    orbit: int
    pieces: tuple[int, ...]
    twist: bool  # orientations tracked
    merged: bool = False  # all the pieces form one group: only the set of their slots is kept
    free: tuple[int, ...] = ()  # additive databases: pieces (whole classes) whose moves cost nothing


@dataclass(frozen=True)
class Projection:
    parts: tuple[Part, ...]

    def describe(self, model) -> str:
        """A short human text, e.g. `corners[0-7]+twist edges[0,1,2]`."""
        out = []
        for part in self.parts:
            orb = model.orbits[part.orbit]
            txt = f"{orb.name}[{_ranges(part.pieces)}]"
            if part.merged:
                txt += "/set"
            if part.twist:
                txt += "+twist"
            if part.free:
                txt += f"/free[{_ranges(part.free)}]"
            out.append(txt)
        return " ".join(out)

    def to_json(self) -> str:
        return json.dumps(
            [[p.orbit, list(p.pieces), int(p.twist), int(p.merged), list(p.free)] for p in self.parts],
            separators=(",", ":"),
        )

    @staticmethod
    def from_json(text: str) -> "Projection":
        """Parts as to_json writes them, read strictly: a projection may come from a user, whose
        repeated piece or flag of "x" is a mistake to report, not a table to build."""
        try:
            rows = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise PuzzleError(f"projection: not valid JSON ({exc})") from None
        if not isinstance(rows, list) or not rows:
            raise PuzzleError(f"projection: not a valid projection: a list of parts {PART_FORM}")
        parts: list[Part] = []
        for i, row in enumerate(rows):
            parts.append(_part(i, row, parts))
        return Projection(tuple(parts))


PART_FORM = "[orbit, [pieces], twist, merged, [free pieces]]"


def _whole(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _part(i: int, row, earlier: list[Part]) -> Part:
    """Part `i` of a projection from its JSON row, or a PuzzleError naming what is wrong with it."""
    if not isinstance(row, list) or len(row) != 5:
        raise PuzzleError(f"projection: part {i} is not a valid projection part {PART_FORM}: {row!r:.80}")
    orbit, pieces, twist, merged, free = row
    if not _whole(orbit):
        raise PuzzleError(f"projection: part {i}: the orbit must be a whole number, not {orbit!r:.40}")
    for name, flag in (("twist", twist), ("merged", merged)):
        if not (isinstance(flag, int) and flag in (0, 1)):  # bool is an int: true/false too
            raise PuzzleError(f"projection: part {i}: {name} must be 0 or 1 (or false/true), not {flag!r:.40}")
    for name, one, xs in (("pieces", "piece", pieces), ("free pieces", "free piece", free)):
        if not isinstance(xs, list) or not all(_whole(x) for x in xs):
            raise PuzzleError(f"projection: part {i}: {name} must be a list of whole numbers, not {xs!r:.80}")
        seen: set[int] = set()
        for x in xs:
            if x in seen:
                raise PuzzleError(f"projection: part {i}: {one} {x} is listed twice")
            seen.add(x)
    kept = set(pieces)
    outside = next((x for x in free if x not in kept), None)
    if outside is not None:
        raise PuzzleError(f"projection: part {i}: free piece {outside} is not among the part's pieces")
    for j, other in enumerate(earlier):
        shared = sorted(kept & set(other.pieces)) if other.orbit == orbit else []
        if shared:
            raise PuzzleError(f"projection: part {i}: piece {shared[0]} of orbit {orbit} is also in part {j}")
    return Part(orbit, tuple(pieces), bool(twist), bool(merged), tuple(free))


def _ranges(xs) -> str:
    xs = sorted(xs)
    out, i = [], 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and xs[j + 1] == xs[j] + 1:
            j += 1
        out.append(str(xs[i]) if i == j else f"{xs[i]}-{xs[j]}")
        i = j + 1
    return ",".join(out)


@dataclass
class Ranker:
    """The flattened description the kernels read, and the size of the rank space.

    The rank is a mixed-radix number over *factors* in order. A part that keeps every piece of its
    orbit with their twists is two factors, positions then twists by slot, because each of those
    moves on its own: a move table per factor then replaces ranking in table builds.
    """

    factors: np.ndarray  # int64 [factors, 10]: KIND G0 G1 FN FK FBASE FPIECE SIZE DROP SUM
    groups: np.ndarray  # int64 [groups, 9]: N K BASE PS PE TWIST AVAIL COUNT SHIFT
    pieces: np.ndarray  # int32: global piece indices, group by group
    size: int

    @property
    def counted_pieces(self) -> np.ndarray:
        return np.array(
            [self.pieces[i] for g in self.groups for i in range(g[PS], g[PE]) if g[COUNT]], dtype=np.int32
        )

    def rank(self, loc: np.ndarray) -> int:
        return int(rank(loc, self.factors, self.groups, self.pieces, BINOM, np.zeros(MAX_SLOTS + 2, dtype=np.int64)))

    def scratch(self) -> np.ndarray:
        """The `digits` scratch array unrank needs."""
        return np.zeros(64 + len(self.pieces) + len(self.factors), dtype=np.int64)

    def tracked(self) -> np.ndarray:
        """Every piece whose location the rank depends on."""
        return pieces_read(self.factors, self.groups, self.pieces, range(len(self.factors)))


def pieces_read(factors: np.ndarray, groups: np.ndarray, pieces: np.ndarray, which) -> np.ndarray:
    """The pieces whose locations the digits of factors `which` depend on: their groups' pieces,
    and the whole orbit for a twist-by-slot factor."""
    out = set()
    for f in which:
        if factors[f, KIND] == ORI:
            out.update(range(factors[f, FPIECE], factors[f, FPIECE] + factors[f, FN]))
        for g in range(factors[f, G0], factors[f, G1]):
            out.update(int(p) for p in pieces[groups[g, PS] : groups[g, PE]])
    return np.array(sorted(out), dtype=np.int32)


def full_projection(model) -> Projection:
    return Projection(tuple(Part(r, tuple(range(o.n)), o.k > 1) for r, o in enumerate(model.orbits)))


def make_ranker(model, projection: Projection) -> Ranker:
    factors, rows, pieces = [], [], []
    size = 1
    for part in projection.parts:
        if not 0 <= part.orbit < len(model.orbits):
            raise PuzzleError(f"projection: orbit {part.orbit} does not exist")
        orb = model.orbits[part.orbit]
        chosen = sorted(set(part.pieces))
        if not chosen or chosen[0] < 0 or chosen[-1] >= orb.n:
            raise PuzzleError(f"projection: pieces of {orb.name} must be in 0..{orb.n - 1}")
        classes = orb.classes
        if part.merged:
            groups = [chosen]
        else:
            groups = []
            for cls in dict.fromkeys(int(classes[p]) for p in chosen):
                members = [int(p) for p in np.flatnonzero(classes == cls)]
                if not set(members) <= set(chosen):
                    raise PuzzleError(f"projection: {orb.name} pieces {members} look alike; keep all or none of them")
                groups.append(members)
        whole = len(chosen) == orb.n
        twist = part.twist and orb.k > 1
        split = twist and whole  # positions and twist-by-slot as separate factors
        # twists that add a per-slot amount can follow single pieces in a factor of their own
        apart = twist and not whole and orb.twist_additive and all(len(g) == 1 for g in groups)
        combined = twist and not split and not apart
        g0 = len(rows)
        avail = orb.n
        fsize = 1
        for members in groups:
            m = len(members)
            counted = not set(members) <= set(part.free)
            shift = orb.k.bit_length() - 1 if orb.k & (orb.k - 1) == 0 else -1
            rows.append([orb.n, orb.k, orb.base, len(pieces), len(pieces) + m, int(combined), avail, int(counted), shift])
            pieces.extend(orb.first_piece + p for p in members)
            fsize *= comb(avail, m) * (orb.k**m if combined else 1)
            avail -= m
            if orb.n > MAX_SLOTS and fsize >= WIDE_LIMIT:
                raise PuzzleError(f"projection: more than 2^56 placements of pieces of {orb.name}: too many to rank")
        if fsize > 1 or not split:
            factors.append([COMB if combined else POS, g0, len(rows), orb.n, orb.k, orb.base, orb.first_piece, fsize, 0, 0])
            size *= fsize
        if apart:
            tsize = orb.k ** len(groups)
            factors.append([PTW, g0, len(rows), orb.n, orb.k, orb.base, orb.first_piece, tsize, 0, 0])
            size *= tsize
        if split:
            sums = {gs[part.orbit] for gs in model.goal_sums}
            drop = orb.twist_invariant and len(sums) == 1
            osize = orb.k ** (orb.n - 1 if drop else orb.n)
            factors.append([ORI, len(rows), len(rows), orb.n, orb.k, orb.base, orb.first_piece, osize, int(drop),
                            sums.pop() if drop else 0])
            size *= osize
    if size >= RANK_LIMIT:
        raise PuzzleError(f"projection: {size:,} entries is too many to rank" if size < 10**30 else
                          "projection: more than 10^30 entries is too many to rank")
    return Ranker(np.array(factors, dtype=np.int64).reshape(len(factors), 10),
                  np.array(rows, dtype=np.int64).reshape(len(rows), 9), np.array(pieces, dtype=np.int32), size)


@njit(inline="always")
def popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@njit(inline="always")
def rank_factor(loc, f, factors, groups, pieces, binom, work):
    """The rank of one factor of `loc`; `work` is scratch of at least MAX_SLOTS ints."""
    r = np.int64(0)
    if factors[f, KIND] == ORI:
        k = factors[f, FK]
        base = factors[f, FBASE]
        n = factors[f, FN]
        if k & (k - 1) == 0:
            sh = popcount(k - 1)
            for p in range(factors[f, FPIECE], factors[f, FPIECE] + n):
                c = loc[p] - base
                work[c >> sh] = c & (k - 1)
        else:
            for p in range(factors[f, FPIECE], factors[f, FPIECE] + n):
                c = loc[p] - base
                work[c // k] = c % k
        last = n - 1 if factors[f, DROP] else n
        for s in range(last):
            r = r * k + work[s]
        return r
    if factors[f, KIND] == PTW:
        k = factors[f, FK]
        for g in range(factors[f, G0], factors[f, G1]):
            c = loc[pieces[groups[g, PS]]] - factors[f, FBASE]
            r = r * k + (c & (k - 1) if groups[g, SHIFT] >= 0 else c % k)
        return r
    if factors[f, FN] > MAX_SLOTS:
        return rank_wide(loc, f, factors, groups, pieces)
    used = np.int64(0)
    for g in range(factors[f, G0], factors[f, G1]):
        k = groups[g, K]
        base = groups[g, BASE]
        ps = groups[g, PS]
        pe = groups[g, PE]
        twist = groups[g, TWIST]
        if pe - ps == 1:
            c = loc[pieces[ps]] - base
            s = c >> groups[g, SHIFT] if groups[g, SHIFT] >= 0 else c // k
            r = r * groups[g, AVAIL] + (s - popcount(used & ((np.int64(1) << s) - 1)))
            used |= np.int64(1) << s
            if twist:
                r = r * k + c % k
            continue
        mask = np.int64(0)
        sh = groups[g, SHIFT]
        for i in range(ps, pe):
            c = loc[pieces[i]] - base
            if sh >= 0:
                s = c >> sh
                work[s] = c & (k - 1)
            else:
                s = c // k
                work[s] = c % k
            mask |= np.int64(1) << s
        cr = np.int64(0)
        j = 0
        mm = mask
        while mm:
            bit = mm & -mm
            s = popcount(bit - 1)
            j += 1
            cr += binom[s - popcount(used & (bit - 1)), j]
            mm ^= bit
        r = r * binom[groups[g, AVAIL], pe - ps] + cr
        used |= mask
        if twist:
            mm = mask
            while mm:
                bit = mm & -mm
                r = r * k + work[popcount(bit - 1)]
                mm ^= bit
    return r


@njit(inline="always")
def choose(n, j):
    """C(n, j), 0 when n < j; exact while min(j, n - j) C(n, j) fits an int64."""
    if n < j:
        return np.int64(0)
    if n - j < j:
        j = n - j
    c = np.int64(1)
    for i in range(1, j + 1):
        c = c * (n - j + i) // i
    return c


@njit(nogil=True)
def rank_wide(loc, f, factors, groups, pieces):
    """rank_factor of a factor over an orbit too large for a slot mask: each slot's combination
    digit counts, by reading them again, the earlier groups' pieces below it (they take slots this
    group cannot) and its own group's (its order within the group)."""
    r = np.int64(0)
    first = groups[factors[f, G0], PS]
    for g in range(factors[f, G0], factors[f, G1]):
        k = groups[g, K]
        base = groups[g, BASE]
        ps = groups[g, PS]
        pe = groups[g, PE]
        m = pe - ps
        cr = np.int64(0)
        tw = np.int64(0)
        for i in range(ps, pe):
            c = loc[pieces[i]] - base
            s = c // k
            below = 0
            for q in range(first, ps):
                below += (loc[pieces[q]] - base) // k < s
            order = 0
            for q in range(ps, pe):
                order += (loc[pieces[q]] - base) // k < s
            cr += choose(s - below, order + 1)
            if groups[g, TWIST]:
                digit = c % k
                for _ in range(m - 1 - order):
                    digit *= k
                tw += digit
        r = r * choose(groups[g, AVAIL], m) + cr
        if groups[g, TWIST]:
            for _ in range(m):
                r *= k
            r += tw
    return r


@njit(nogil=True)
def place_wide(f, factors, groups, pieces, loc, digits):
    """unrank_factor's placing for a wide factor, from the decoded digits: each combination digit
    by a binary search for the largest x with C(x, j) <= what is left; the x-th slot (from 0)
    among those the earlier groups left free is the least s with s = x + (their slots <= s)."""
    k = factors[f, FK]
    base = factors[f, FBASE]
    g0 = factors[f, G0]
    first = groups[g0, PS]
    for g in range(g0, factors[f, G1]):
        ps = groups[g, PS]
        m = groups[g, PE] - ps
        cr = digits[g - g0]
        x = groups[g, AVAIL] - 1
        for j in range(m, 0, -1):
            if m == 1:
                x = cr
            else:
                lo = j - 1  # C(j - 1, j) = 0
                while lo < x:
                    mid = (lo + x + 1) // 2
                    if choose(mid, j) <= cr:
                        lo = mid
                    else:
                        x = mid - 1
                cr -= choose(x, j)
            s = x
            while True:
                taken = 0
                for q in range(first, ps):
                    taken += (loc[pieces[q]] - base) // k <= s
                if x + taken == s:
                    break
                s = x + taken
            i = ps + j - 1
            loc[pieces[i]] = base + s * k + (digits[64 + i] if groups[g, TWIST] else 0)
            x -= 1


@njit(nogil=True)
def rank(loc, factors, groups, pieces, binom, work):
    return rank_span(loc, 0, factors.shape[0], factors, groups, pieces, binom, work)


@njit(nogil=True)
def rank_span(loc, f0, f1, factors, groups, pieces, binom, work):
    """The rank over factors f0..f1-1 (several rankers live side by side in one array)."""
    r = np.int64(0)
    for f in range(f0, f1):
        r = r * factors[f, SIZE] + rank_factor(loc, f, factors, groups, pieces, binom, work)
    return r


@njit(nogil=True)
def unrank_factor(r, f, factors, groups, pieces, binom, loc, digits):
    """Set loc[] of the factor's pieces to a sub-state of rank r. A twist-by-slot factor keeps the
    pieces' slots (decode positions first) and sets their twists. `digits`: scratch, >= 64 + pieces."""
    k = factors[f, FK]
    base = factors[f, FBASE]
    if factors[f, KIND] == ORI:
        n = factors[f, FN]
        last = n - 1 if factors[f, DROP] else n
        tsum = 0
        for s in range(last - 1, -1, -1):
            digits[s] = r % k
            r //= k
            tsum += digits[s]
        if factors[f, DROP]:
            digits[n - 1] = (factors[f, SUM] - tsum) % k
        for p in range(factors[f, FPIECE], factors[f, FPIECE] + n):
            s = (loc[p] - base) // k
            loc[p] = base + s * k + digits[s]
        return
    if factors[f, KIND] == PTW:
        for g in range(factors[f, G1] - 1, factors[f, G0] - 1, -1):
            p = pieces[groups[g, PS]]
            loc[p] = base + (loc[p] - base) // k * k + r % k
            r //= k
        return
    off = 64
    g0 = factors[f, G0]
    g1 = factors[f, G1]
    for g in range(g1 - 1, g0 - 1, -1):
        ps = groups[g, PS]
        pe = groups[g, PE]
        if groups[g, TWIST]:
            for i in range(pe - 1, ps - 1, -1):
                digits[off + i] = r % k
                r //= k
        m = pe - ps
        if m == 1:
            radix = groups[g, AVAIL]
        elif factors[f, FN] > MAX_SLOTS:
            radix = choose(groups[g, AVAIL], m)
        else:
            radix = binom[groups[g, AVAIL], m]
        digits[g - g0] = r % radix
        r //= radix
    n = factors[f, FN]
    if n > MAX_SLOTS:
        place_wide(f, factors, groups, pieces, loc, digits)
        return
    used = np.int64(0)
    for g in range(g0, g1):
        ps = groups[g, PS]
        pe = groups[g, PE]
        m = pe - ps
        cr = digits[g - g0]
        j = m
        x = groups[g, AVAIL] - 1
        mask = np.int64(0)
        while j > 0:
            if m == 1:
                x = cr
            else:
                while binom[x, j] > cr:
                    x -= 1
                cr -= binom[x, j]
            if used == 0:
                mask |= np.int64(1) << x
            else:
                cnt = -1
                for s in range(n):
                    if not (used >> s) & 1:
                        cnt += 1
                        if cnt == x:
                            mask |= np.int64(1) << s
                            break
            j -= 1
            x -= 1
        used |= mask
        i = ps
        mm = mask
        while mm:
            bit = mm & -mm
            s = popcount(bit - 1)
            o = digits[off + i] if groups[g, TWIST] else 0
            loc[pieces[i]] = base + s * k + o
            i += 1
            mm ^= bit


@njit(nogil=True)
def unrank(r, factors, groups, pieces, binom, loc, digits):
    nf = factors.shape[0]
    fr = digits[digits.shape[0] - nf :]
    for f in range(nf - 1, -1, -1):
        fr[f] = r % factors[f, SIZE]
        r //= factors[f, SIZE]
    for f in range(nf):
        unrank_factor(fr[f], f, factors, groups, pieces, binom, loc, digits)
