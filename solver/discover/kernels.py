"""Compiled kernels of discovery (numba, single-threaded).

Permutations are rows of small unsigned ints (row[i] = where the sticker at i goes). A `store` is a
2-D array of such rows; a `table` is an open-addressing hash table of store indices + 1 (0 = empty)
whose size is a power of two. Pieces are given as CSR arrays (piece_ptr, piece_stk): the stickers of
piece k are piece_stk[piece_ptr[k]:piece_ptr[k + 1]]; `colour` is the goal's colour index per
sticker, so that pieces that look alike may trade places unseen. `rinv` holds the inverses of the goal
rotations (identity first); an effect is measured after taking out the best of them.
"""

from __future__ import annotations

import numpy as np
from solver.compiled import njit

FNV_OFFSET = np.uint64(14695981039346656037)
FNV_PRIME = np.uint64(1099511628211)


@njit(cache=True, nogil=True)
def hash_row(row):
    h = FNV_OFFSET
    for v in row:
        h = (h ^ np.uint64(v)) * FNV_PRIME
    return h


@njit(cache=True, nogil=True)
def _equal(a, b):
    for i in range(a.shape[0]):
        if a[i] != b[i]:
            return False
    return True


@njit(cache=True, nogil=True)
def find(table, store, row):
    """Index of `row` in the store, or -1."""
    mask = np.uint64(table.shape[0] - 1)
    slot = hash_row(row) & mask
    while True:
        e = table[slot]
        if e == 0:
            return -1
        if _equal(store[e - 1], row):
            return e - 1
        slot = (slot + np.uint64(1)) & mask


@njit(cache=True, nogil=True)
def insert_root(table, store, count):
    """Enter store[count] (already written) into the table."""
    mask = np.uint64(table.shape[0] - 1)
    slot = hash_row(store[count]) & mask
    while table[slot] != 0:
        slot = (slot + np.uint64(1)) & mask
    table[slot] = count + 1


@njit(cache=True, nogil=True)
def expand(store, parent, last, depth, table, start, stop, count, moves, allowed, level):
    """Breadth-first step: children of store[start:stop] not seen before are appended at `count`.
    `last` holds the last move of each entry's sequence (M for the root); only moves that
    allowed[last] lets follow it are tried. Returns (new count, index of the first parent not expanded): the second
    is `stop` unless the store filled up."""
    n = store.shape[1]
    cap = store.shape[0]
    m_count = moves.shape[0]
    mask = np.uint64(table.shape[0] - 1)
    child = np.empty(n, dtype=store.dtype)
    for e in range(start, stop):
        if count + m_count > cap:
            return count, e
        row = store[e]
        lm = last[e]
        for m in range(m_count):
            if not allowed[lm, m]:
                continue
            for i in range(n):
                child[i] = moves[m, row[i]]
            slot = hash_row(child) & mask
            seen = False
            while True:
                t = table[slot]
                if t == 0:
                    break
                if _equal(store[t - 1], child):
                    seen = True
                    break
                slot = (slot + np.uint64(1)) & mask
            if seen:
                continue
            store[count] = child
            parent[count] = e
            last[count] = m
            depth[count] = level
            table[slot] = count + 1
            count += 1
    return count, stop


@njit(cache=True, nogil=True)
def _support(p, rinv_row, piece_ptr, piece_stk, colour, stop_above):
    """Pieces visibly moved by p followed by the rotation inverse: pieces with a sticker that
    lands where the goal has another colour (counting stops past stop_above)."""
    count = 0
    for k in range(piece_ptr.shape[0] - 1):
        for j in range(piece_ptr[k], piece_ptr[k + 1]):
            x = piece_stk[j]
            if colour[rinv_row[p[x]]] != colour[x]:
                count += 1
                break
        if count > stop_above:
            return count
    return count


@njit(cache=True, nogil=True)
def best_support(p, rinv, piece_ptr, piece_stk, colour, limit, ref_stk, ref_mask):
    """(fewest pieces visibly moved over the goal rotations, index of that rotation); limit + 1
    when every rotation leaves more than `limit` (counting stops there, which keeps this cheap).

    With ref_stk non-empty (limit + 1 stickers of different pieces, pieces all distinct), only the
    rotations r with r[x] = p[x] for some reference sticker x are tried: a rotation that leaves at
    most `limit` pieces moved fixes one of the reference pieces. ref_mask[j, y] has bit r set when
    rotation r sends ref_stk[j] to y."""
    best = limit + 1
    best_r = 0
    candidates = np.uint64(0)
    use_refs = ref_stk.shape[0] > 0
    if use_refs:
        for j in range(ref_stk.shape[0]):
            candidates |= ref_mask[j, p[ref_stk[j]]]
        if candidates == 0:
            return best, best_r
    for r in range(rinv.shape[0]):
        if use_refs and (candidates >> np.uint64(r)) & np.uint64(1) == 0:
            continue
        s = _support(p, rinv[r], piece_ptr, piece_stk, colour, best)
        if s < best:
            best = s
            best_r = r
    return best, best_r


@njit(cache=True, nogil=True)
def cycle_hash(p, rinv_row, seen):
    """A hash of the cycle type of p followed by the rotation inverse: equal for conjugates
    (`seen`: scratch space of p's length)."""
    n = p.shape[0]
    seen[:] = False
    h = np.uint64(0)
    for s in range(n):
        if seen[s]:
            continue
        length = 0
        x = s
        while not seen[x]:
            seen[x] = True
            length += 1
            x = rinv_row[p[x]]
        if length > 1:
            h += (np.uint64(length) * np.uint64(0x9E3779B97F4A7C15)) ^ np.uint64(0xBF58476D1CE4E5B9)
    return h


@njit(cache=True, nogil=True)
def measure(store, start, stop, rinv, piece_ptr, piece_stk, colour, limit, ref_stk, ref_mask, support_out,
            hash_out):
    """Support (capped at limit + 1) and cycle-type hash of store[start:stop]."""
    seen = np.zeros(store.shape[1], dtype=np.bool_)
    for e in range(start, stop):
        s, r = best_support(store[e], rinv, piece_ptr, piece_stk, colour, limit, ref_stk, ref_mask)
        support_out[e] = s
        hash_out[e] = cycle_hash(store[e], rinv[r], seen)


@njit(cache=True, nogil=True)
def piece_masks(store, stop, piece_ptr, piece_stk, masks):
    """Bit k of masks[e] (64 pieces per word): piece k is moved by store[e]."""
    for e in range(stop):
        p = store[e]
        for k in range(piece_ptr.shape[0] - 1):
            for j in range(piece_ptr[k], piece_ptr[k + 1]):
                x = piece_stk[j]
                if p[x] != x:
                    masks[e, k >> 6] |= np.uint64(1) << np.uint64(k & 63)
                    break


@njit(cache=True, nogil=True)
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True, nogil=True)
def _inverse(p, out):
    for i in range(p.shape[0]):
        out[p[i]] = i


@njit(cache=True, nogil=True)
def _admit(shapes, counts, key, per_shape):
    """Count one more candidate of this shape; False when the shape already has per_shape."""
    mask = np.uint64(shapes.shape[0] - 1)
    slot = key & mask
    while True:
        if counts[slot] == 0 or shapes[slot] == key:
            break
        slot = (slot + np.uint64(1)) & mask
    if counts[slot] >= per_shape:
        return False
    shapes[slot] = key
    counts[slot] += 1
    return True


@njit(cache=True, nogil=True)
def pairs(a_store, a_masks, a_len, a_start, a_stop, b_store, b_masks, b_len, b_stop, max_len, commutator, rinv,
          piece_ptr, piece_stk, colour, ref_stk, ref_mask, max_overlap, limit, shapes, counts, per_shape, out, count,
          stop):
    """For A in a_store[a_start:a_stop] and B in b_store[1:b_stop] whose moved pieces overlap: the
    commutator A B A' B' (overlap at most max_overlap) or the product A B (at most `limit` pieces
    moved by only one of them), kept when it moves 1..limit pieces and its cycle shape has had fewer than per_shape before (shapes/counts: a hash table
    kept across calls). Rows (A, B, support) go to out from `count`; returns the new count, early
    when the budget's stop flag (stop[0]) is raised."""
    n = a_store.shape[1]
    words = a_masks.shape[1]
    ainv = np.empty(n, dtype=a_store.dtype)
    binv = np.empty(n, dtype=a_store.dtype)
    c = np.empty(n, dtype=a_store.dtype)
    seen = np.zeros(n, dtype=np.bool_)
    for i in range(a_start, a_stop):
        if stop[0] != 0:
            return count
        a = a_store[i]
        _inverse(a, ainv)
        for j in range(1, b_stop):
            if a_len[i] + b_len[j] > max_len:  # the sequence would be too long (before cancelling)
                continue
            overlap = 0
            differ = 0
            for w in range(words):
                overlap += _popcount(a_masks[i, w] & b_masks[j, w])
                differ += _popcount(a_masks[i, w] ^ b_masks[j, w])
            # a commutator of disjoint A, B is the identity; a product moves at least the pieces
            # that only one of A, B moves
            if overlap == 0 or (commutator and overlap > max_overlap) or (not commutator and differ > limit):
                continue
            b = b_store[j]
            if commutator:
                _inverse(b, binv)
                for x in range(n):
                    c[x] = binv[ainv[b[a[x]]]]
            else:
                for x in range(n):
                    c[x] = b[a[x]]
            s, r = best_support(c, rinv, piece_ptr, piece_stk, colour, limit, ref_stk, ref_mask)
            if s == 0 or s > limit:
                continue
            if not _admit(shapes, counts, cycle_hash(c, rinv[r], seen) + np.uint64(s), per_shape):
                continue
            if count >= out.shape[0]:
                return count
            out[count, 0] = i
            out[count, 1] = j
            out[count, 2] = s
            count += 1
    return count


@njit(cache=True, nogil=True)
def meet(store, table, b_start, b_stop, targets, out, count, stop):
    """For B in store[b_start:b_stop] and each target t, look up A = t B' (so that A then B is t);
    rows (A, B, target) of hits go to out from `count`. Returns the new count, early when the
    budget's stop flag (stop[0]) is raised."""
    n = store.shape[1]
    binv = np.empty(n, dtype=store.dtype)
    x = np.empty(n, dtype=store.dtype)
    for j in range(b_start, b_stop):
        if stop[0] != 0:
            return count
        _inverse(store[j], binv)
        for t in range(targets.shape[0]):
            row = targets[t]
            for i in range(n):
                x[i] = binv[row[i]]
            a = find(table, store, x)
            if a >= 0:
                if count >= out.shape[0]:
                    return count
                out[count, 0] = a
                out[count, 1] = j
                out[count, 2] = t
                count += 1
    return count


def warm_up() -> None:
    """Compile every kernel (or load it from NUMBA_CACHE_DIR) for both row types on tiny inputs,
    with the argument types discovery uses: call it in a worker before it forks."""
    for dtype in (np.uint8, np.uint16):
        n = 4
        moves = np.array([[1, 0, 2, 3], [0, 2, 1, 3]], dtype=dtype)
        store = np.zeros((16, n), dtype=dtype)
        store[0] = np.arange(n)
        table = np.zeros(64, dtype=np.int64)
        insert_root(table, store, 0)
        parent, last, depth = np.zeros(16, np.int32), np.full(16, 2, np.int16), np.zeros(16, np.int8)
        count, _ = expand(store, parent, last, depth, table, 0, 1, 1, moves, np.ones((3, 2), np.bool_), 1)
        find(table, store, store[1].copy())
        ptr, stk = np.arange(n + 1, dtype=np.int64), np.arange(n, dtype=np.int64)
        colour, rinv = np.arange(n, dtype=np.int32), store[:1].copy()
        ref_stk, ref_mask = np.zeros(0, np.int64), np.zeros((0, n), np.uint64)
        measure(store, 1, count, rinv, ptr, stk, colour, 2, ref_stk, ref_mask, np.zeros(16, np.int64),
                np.zeros(16, np.uint64))
        masks = np.zeros((count, 1), dtype=np.uint64)
        piece_masks(store[:count].copy(), count, ptr, stk, masks)
        out = np.zeros((8, 3), dtype=np.int64)
        shapes, counts = np.zeros(16, np.uint64), np.zeros(16, np.int32)
        rows = store[:count].copy()
        lengths = np.ones(count, dtype=np.int64)
        pairs(rows, masks, lengths, 0, count, rows, masks, lengths, count, 4, True, rinv, ptr, stk, colour, ref_stk,
              ref_mask, 2, 2, shapes, counts, 4, out, 0, np.zeros(1, np.int64))
        meet(store, table, 1, count, rows, out, 0, np.zeros(1, np.int64))
