"""Flip-it: shortest solutions by one breadth-first search that serves as both halves of a
bidirectional search.

A row of n cells holds n-1 stones and one empty cell. A stone jumps into the empty cell over at
least one other stone, and every stone it jumps over turns over. The goal is the start with
every stone turned over.

A state is (empty cell e, colour bits c): bit k of c is 1 when the stone in cell k shows black
(the empty cell's bit is 0). It is stored as e * 2^(n-1) + the n-1 stone bits without the empty
cell's.

Turning every stone over (F) commutes with every jump, so the search from the goal F(s) is the
search from s with colours swapped: x is at distance b from F(s) exactly when F(x) is at
distance b from s. One search from s serves both sides: when it reaches y and F(y) is already
known, the path s -> y -> (F of the path s -> F(y), backwards) -> F(s) has d(y) + d(F(y)) jumps.
A shortest solution's middle state gives such a pair with both depths <= ceil(D/2). So when no
pair turned up while layers 0..L were made, D >= 2L+1, and a pair found while layer L+1 is made
has length <= 2L+2. Every jump changes (empty cell + number of black stones) mod 2, so every
solution's length has the parity of n - 1: the first pair found is a shortest solution.
"""

from __future__ import annotations

import numpy as np
from solver.compiled import njit


STOP_EVERY = (1 << 14) - 1  # states between two looks at the stop flag


@njit(cache=True, nogil=True)
def pack(e, c, n):
    low = c & ((1 << e) - 1)
    return (e << (n - 1)) | low | ((c >> (e + 1)) << e)


@njit(cache=True, nogil=True)
def unpack(key, n):
    e = key >> (n - 1)
    bits = key & ((1 << (n - 1)) - 1)
    c = (bits & ((1 << e) - 1)) | ((bits >> e) << (e + 1))
    return e, c


@njit(cache=True, nogil=True)
def jump(e, c, j):
    """The stone on cell j jumps into the empty cell e; returns the new colour bits."""
    lo, hi = (e, j) if e < j else (j, e)
    between = ((1 << hi) - 1) ^ ((1 << (lo + 1)) - 1)
    stone = (c >> j) & 1
    c = (c ^ between) & ~(1 << j)
    return c | (stone << e)


@njit(cache=True, nogil=True)
def _tag(tags, key):
    """0 for an unseen state, else 1 + its depth mod 3 (two bits a state)."""
    return (tags[key >> 2] >> ((key & 3) << 1)) & 3


@njit(cache=True, nogil=True)
def _set_tag(tags, key, depth):
    tags[key >> 2] |= np.uint8((depth % 3 + 1) << ((key & 3) << 1))


@njit(cache=True, nogil=True)
def shortest(e0, c0, n, tags, queue, stop):
    """Empty-cell path of a shortest solution from (e0, c0) (the cells the empty cell visits,
    first e0), or an empty array when the goal is unreachable or stop[0] was raised. Scratch: `tags`, two bits for
    each of the n * 2^(n-1) states, all clear on entry and on return, except after a stop, which
    returns at once and leaves them to be thrown away (depth mod 3 is enough to
    find a parent: neighbours differ by one in depth), and `queue` with an entry for each state.
    (A bottom-up pass for the big late layers was measured: three times slower, because the
    top-down pass stops at the first pair while a scan of unseen states finds it late.)"""
    start = pack(e0, c0, n)
    stones = (1 << (n - 1)) - 1  # in a stored state the low n-1 bits are the stones: F flips them
    _set_tag(tags, start, 0)
    queue[0] = start
    tail = 1
    layer_start, layer_end, depth = 0, 1, 0
    meet_a, meet_b = -1, -1
    halted = False
    while layer_start < layer_end and meet_a < 0 and not halted:
        for i in range(layer_start, layer_end):
            if i & STOP_EVERY == 0 and stop[0]:
                halted = True
                break
            key = queue[i]
            e, c = unpack(key, n)
            for j in range(n):
                if j - e < 2 and e - j < 2:
                    continue
                nc = jump(e, c, j)
                nk = pack(j, nc, n)
                if _tag(tags, nk):
                    continue
                _set_tag(tags, nk, depth + 1)
                queue[tail] = nk
                tail += 1
                mirror = nk ^ stones
                if _tag(tags, mirror):
                    meet_a, meet_b = nk, mirror
                    break
            if meet_a >= 0:
                break
        layer_start, layer_end, depth = layer_end, tail, depth + 1
    path = np.empty(0, np.int64)
    if halted:  # at once, leaving the scratch dirty: clearing it may take longer than the search did
        return path
    if meet_a >= 0:
        # The mirror's depth is depth - 1 or depth (an earlier pair would have been found).
        db = depth - 1 if _tag(tags, meet_b) == (depth - 1) % 3 + 1 else depth
        first = _trace(meet_a, depth, n, tags)
        second = _trace(meet_b, db, n, tags)
        # s -> y, then the empty cells of s -> F(y) backwards (F(y)'s empty cell is y's).
        path = np.concatenate((first, second[::-1][1:]))
    for i in range(tail):
        tags[queue[i] >> 2] = 0
    return path


@njit(cache=True, nogil=True)
def _trace(key, depth, n, tags):
    """Empty cells from the start to `key` (at `depth`), stepping to a neighbour one shallower."""
    out = np.empty(depth + 1, np.int64)
    for k in range(depth, -1, -1):
        e, c = unpack(key, n)
        out[k] = e
        if k == 0:
            break
        for j in range(n):
            if j - e < 2 and e - j < 2:
                continue
            pk = pack(j, jump(e, c, j), n)
            if _tag(tags, pk) == (k - 1) % 3 + 1:
                key = pk
                break
    return out


@njit(cache=True, nogil=True)
def between(e0, c0, e1, c1, n, tags_f, queue_f, tags_b, queue_b, stop):
    """Empty-cell path of a shortest solution from (e0, c0) to any goal (e1, c1), by a plain
    two-sided bidirectional search (for goals other than the start turned over): the side with
    the smaller layer grows by one layer; the first state both sides reach is on a shortest path,
    because no earlier meeting means the distance exceeds the two complete depths' sum."""
    start, goal = pack(e0, c0, n), pack(e1, c1, n)
    if start == goal:
        return np.full(1, e0, np.int64)
    tags = (tags_f, tags_b)
    queues = (queue_f, queue_b)
    _set_tag(tags_f, start, 0)
    _set_tag(tags_b, goal, 0)
    queue_f[0] = start
    queue_b[0] = goal
    lo = np.zeros(2, np.int64)  # current layer of each side: queue[lo:hi], depth
    hi = np.ones(2, np.int64)
    depth = np.zeros(2, np.int64)
    meet, side = -1, 0
    halted = False
    while meet < 0 and hi[0] > lo[0] and hi[1] > lo[1] and not halted:
        side = 0 if hi[0] - lo[0] <= hi[1] - lo[1] else 1
        mine, other, queue = tags[side], tags[1 - side], queues[side]
        tail = hi[side]
        for i in range(lo[side], hi[side]):
            if i & STOP_EVERY == 0 and stop[0]:
                halted = True
                break
            e, c = unpack(queue[i], n)
            for j in range(n):
                if j - e < 2 and e - j < 2:
                    continue
                nk = pack(j, jump(e, c, j), n)
                if _tag(mine, nk):
                    continue
                _set_tag(mine, nk, depth[side] + 1)
                queue[tail] = nk
                tail += 1
                if _tag(other, nk):
                    meet = nk
                    break
            if meet >= 0:
                break
        lo[side], hi[side], depth[side] = hi[side], tail, depth[side] + 1
    path = np.empty(0, np.int64)
    if halted:  # as in `shortest`
        return path
    if meet >= 0:
        forward = _trace(meet, depth[0], n, tags_f)
        backward = _trace(meet, depth[1], n, tags_b)
        path = np.concatenate((forward, backward[::-1][1:]))
    for s in range(2):
        for i in range(hi[s]):
            tags[s][queues[s][i] >> 2] = 0
    return path
