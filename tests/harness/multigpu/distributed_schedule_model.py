#!/usr/bin/env python3
# A model of harness/multigpu/distributed.cpp's solve, written by hand to mirror it function by
# function (keep the two alike: Loop's make_panel, broadcast, pivot_column, prepare, phase3,
# next_lines and rest, and DistributedSolver::solve): the same ranks, streams, events, launches,
# copies and broadcasts in the same enqueue order (the single-device transport's broadcast), over
# the steps of row_partition.cpp's schedule_steps, each launch done as its blocks' tile products
# (kernels/distributed.cuh's index logic) on numpy arrays. It checks, for P = 1, 2, 3, 4, 8, tiles
# of 4 and 8 and n from 1 to 61 (so P > tiles, idle ranks, and n not a multiple of the tile), with
# look-ahead off and on, phase 3's A from the block and from the column panels (sm90's panel
# point), and pairs of rounds at the panel point (at every size: the engine's runs_pairs only picks
# whether a solve runs them):
#   - that the gathered result equals plain Floyd-Warshall and the padding is untouched;
#   - that every access of every tile is ordered after the accesses it conflicts with (RAW, WAR,
#     WAW) by stream order and event waits (happens-before as bitsets), that nothing reads a
#     buffer tile no one wrote, and that no block of a launch reads what another block of it
#     writes;
#   - that each rank's main stream holds the end of all its work (what the executor waits on);
#   - that the tile products launched are exactly the schedule's (look-ahead moves products to
#     the side stream, it adds none), so a launch that redoes a final tile is caught although
#     the min it takes again changes nothing.
# Mutations of the loop, each run by the harness at the end over a sub-grid (n 13, 17, 33; P 1 to
# 3) and each required to fail some of it, and they do: the side stream not waiting `fork`, the
# main stream not waiting `ready`, one panel buffer and column panel for all steps, and the main
# pass not leaving out the next step's lines (races, under look-ahead); pivot_column not copying
# the pivot into the column panel (pairs read it as A of row r: an unwritten or stale read); a
# pair's main pass also leaving out row and column r, its skip range from the step's first round
# (a wrong result); the look-ahead's column part not leaving out the step's final row of a pair,
# its skip range one later (extra products only: the tile is final, and the min taken again is
# ordered on the same stream, so neither the result nor the race check can see it); the
# look-ahead's column part not leaving out the next step's rows, which its row part updates in
# the same launch (two blocks on one tile). Exit 77
# without numpy.
import sys
import time
from collections import namedtuple

try:
    import numpy as np
except ImportError:
    print("numpy missing: skipped")
    sys.exit(77)
INF = 2**30 - 1
PAD = 0x3F3F3F3F


class Part:
    def __init__(s, n, tile, P):
        s.n, s.tile, s.P = n, tile, P
        s.pitch = (n + tile - 1) // tile * tile
        s.tiles = s.pitch // tile

    def first_tile(s, r):
        b, e = divmod(s.tiles, s.P)
        return r * b + min(r, e)

    def count(s, r):
        b, e = divmod(s.tiles, s.P)
        return b + (1 if r < e else 0)

    def owner(s, kt):
        b, e = divmod(s.tiles, s.P)
        big = e * (b + 1)
        return kt // (b + 1) if kt < big else e + (kt - big) // b

    def real_rows(s, r):
        return max(0, min(s.n - s.first_tile(r) * s.tile, s.count(r) * s.tile))


# row_partition.hpp's Step and schedule_steps.
class Step:
    def __init__(s, index, first, rounds, buffer, prepared_in):
        s.index, s.first, s.rounds, s.buffer, s.prepared_in = (
            index,
            first,
            rounds,
            buffer,
            prepared_in,
        )

    def last(s):
        return s.first + s.rounds - 1


def schedule_steps(p, lookahead, pairs):
    steps, first = [], 0
    while first < p.tiles:
        i = len(steps)
        rounds = 2 if pairs and first + 1 < p.tiles else 1
        steps.append(Step(i, first, rounds, i % 2, i - 1 if lookahead and i > 0 else -1))
        first += rounds
    return steps


# variants/multi_gpu.hpp's Phase3Tiles, its fields in the same order.
Phase3Tiles = namedtuple(
    "Phase3Tiles",
    "first_row rows first_col cols skip_row skip_col skip_rows skip_cols",
    defaults=(-1, -1, 1, 1),
)


def skipped(row_tile, j, t):  # kernels/distributed.cuh skipped()
    return 0 <= row_tile - t.skip_row < t.skip_rows or 0 <= j - t.skip_col < t.skip_cols


class Sim:
    # Buffers: ('blk', r) a row block (local row tile, column tile); ('pan', r, b) rank r's panel
    # buffer b, its half q as tile row q; ('col', r, b) its column panel b as tiles (i, q): local
    # row tile i of pivot column half q, untransposed here. A tile is (buffer, ti, tj).
    def __init__(s, part):
        s.p = part
        P = part.P
        T = part.tile
        s.blk = [np.full((part.count(r) * T, part.pitch), PAD, dtype=np.int64) for r in range(P)]
        s.pan = [
            [np.zeros((2 * T, part.pitch), dtype=np.int64) for _ in range(2)] for r in range(P)
        ]
        s.col = [
            [np.zeros((part.count(r) * T, 2 * T), dtype=np.int64) for _ in range(2)]
            for r in range(P)
        ]
        s.ops = 0
        s.products = 0  # closed pivots and C = min(C, ...) blocks
        s.hb = {}  # stream -> bitset of ops before its tail
        s.on = {}  # stream -> bitset of the ops enqueued on it
        s.last_write = {}  # region -> op
        s.reads = {}  # region -> set of ops
        s.events = {}

    def stream(s, name):
        return s.hb.setdefault(name, 0)

    # CUDA's semantics: a wait orders after the event's latest record at the time of the wait.
    def record(s, ev, st):
        s.events[ev] = s.stream(st)

    def wait(s, st, ev):
        s.hb[st] = s.stream(st) | s.events.get(ev, 0)

    def op(s, st, reads, writes):
        op = s.ops
        s.ops += 1
        hb = s.stream(st)
        for reg in reads:
            w = s.last_write.get(reg)
            if w is None:
                raise Exception(f"read of unwritten {reg}: op {op} on {st}")
            if not (hb >> w) & 1:
                raise Exception(f"RAW race on {reg}: op {op} on {st}, write {w}")
        for reg in writes:
            w = s.last_write.get(reg)
            if w is not None and not (hb >> w) & 1:
                raise Exception(f"WAW race on {reg}: op {op} on {st}")
            for rd in s.reads.get(reg, ()):
                if rd != op and not (hb >> rd) & 1:
                    raise Exception(f"WAR race on {reg}: op {op} on {st}, read {rd}")
        for reg in reads:
            s.reads.setdefault(reg, set()).add(op)
        for reg in writes:
            s.last_write[reg] = op
            s.reads[reg] = set()
        s.hb[st] = hb | (1 << op)
        s.on[st] = s.on.get(st, 0) | (1 << op)

    def arr(s, buf):
        if buf[0] == "blk":
            return s.blk[buf[1]]
        return (s.pan if buf[0] == "pan" else s.col)[buf[1]][buf[2]]

    def tile_view(s, tile):
        buf, ti, tj = tile
        T = s.p.tile
        return s.arr(buf)[ti * T : (ti + 1) * T, tj * T : (tj + 1) * T]

    def launch(s, st, blocks):
        # blocks: ('close', C): C closed in place; ('copy', src, dst); ('prod', C, [(A, B), ...],
        # [copy, ...]): C = min(C, A (x) B, ...), the new C also written to each copy.
        per_block_r, per_block_w, results = [], [], []
        for b in blocks:
            if b[0] == "close":
                t = s.tile_view(b[1]).copy()
                for k in range(t.shape[0]):
                    t = np.minimum(t, t[:, k : k + 1] + t[k : k + 1, :])
                results.append((b[1], t))
                r = {b[1]}
                w = {b[1]}
                s.products += 1
            elif b[0] == "copy":
                results.append((b[2], s.tile_view(b[1]).copy()))
                r = {b[1]}
                w = {b[2]}
            else:
                _, C, terms, copies = b
                acc = s.tile_view(C).copy()
                r = {C}
                for A, B in terms:
                    a = s.tile_view(A)
                    bb = s.tile_view(B)
                    acc = np.minimum(acc, (a[:, :, None] + bb[None, :, :]).min(axis=1))
                    r |= {A, B}
                w = {C} | set(copies)
                results.extend((x, acc) for x in [C] + list(copies))
                s.products += 1
            per_block_r.append(r)
            per_block_w.append(w)
        for i, w in enumerate(per_block_w):
            for j, r in enumerate(per_block_r):
                if i != j and w & r:
                    raise Exception(f"intra-launch conflict {w & r}")
        reads = set().union(*per_block_r)
        writes = set().union(*per_block_w)
        s.op(st, reads, writes)
        for tile, v in results:
            s.tile_view(tile)[:] = v

    def copy(s, st, pairs):  # one cudaMemcpyAsync: (src tile, dst tile) pairs
        s.op(st, {a for a, _ in pairs}, {b for _, b in pairs})
        vals = [s.tile_view(a).copy() for a, _ in pairs]
        for (_, b), v in zip(pairs, vals):
            s.tile_view(b)[:] = v


def run(n, tile, P, lookahead, pairs, from_panel, seed, mut=None):
    p = Part(n, tile, P)
    sim = Sim(p)
    rng = np.random.default_rng(seed)
    d = np.full((n, n), INF, dtype=np.int64)
    mask = rng.random((n, n)) < min(1, 5.0 / max(n, 1))
    d[mask] = rng.integers(0, 6, mask.sum())
    np.fill_diagonal(d, 0)
    tiles = p.tiles
    for r in range(P):  # the executor's restore, on the rank's main stream
        fr = p.first_tile(r) * tile
        rr = p.real_rows(r)
        sim.blk[r][:rr, :n] = d[fr : fr + rr, :]
        sim.op(
            ("main", r),
            set(),
            {(("blk", r), i, j) for i in range(p.count(r)) for j in range(tiles)},
        )

    # ---- the kernels (kernels/distributed.cuh), as their launchers (05_sm90_multigpu.cu) call them
    def k_close_pivot(o, lt, kt, st):
        sim.launch(st, [("close", (("blk", o), lt, kt))])

    def k_pivot_row(o, lt, kt, st):
        B = ("blk", o)
        sim.launch(
            st,
            [
                ("prod", (B, lt, j), [((B, lt, kt), (B, lt, j))], [])
                for j in range(tiles)
                if j != kt
            ],
        )

    def k_pivot_column(r, kt, pan, q, col, st):
        # panel: half q of buffer `pan`; column_panel: half q of `col`. kToPanel = from_panel.
        B = ("blk", r)
        first = p.first_tile(r)
        blocks = []
        for i in range(p.count(r)):
            if first + i == kt:
                if from_panel and mut != "no_pivot_copy":
                    blocks.append(("copy", (B, i, kt), (col, i, q)))
                continue
            blocks.append(
                (
                    "prod",
                    (B, i, kt),
                    [((B, i, kt), (pan, q, kt))],
                    [(col, i, q)] if from_panel else [],
                )
            )
        sim.launch(st, blocks)

    # a launch's tiles: one Phase3Tiles or a list of them (variants/multi_gpu.hpp Phase3Launch), its
    # blocks over each part in turn, the part's own skipped lines left out
    def blocks_of(r, parts):
        first = p.first_tile(r)
        for t in [parts] if isinstance(parts, Phase3Tiles) else parts:
            for i in range(t.first_row, t.first_row + t.rows):
                for j in range(t.first_col, t.first_col + t.cols):
                    if not skipped(first + i, j, t):
                        yield i, j, first + i

    def k_phase3(r, t, kt, pan, col, st):
        B = ("blk", r)
        A = (lambda i: (col, i, 0)) if from_panel else (lambda i: (B, i, kt))
        sim.launch(
            st,
            [
                ("prod", (B, i, j), [(A(i), (pan, 0, j))], [])
                for i, j, rt in blocks_of(r, t)
                if not (j == kt or rt == kt)
            ],
        )

    def k_pair_phase3(r, t, r0, pan, col, st):
        B = ("blk", r)
        sim.launch(
            st,
            [
                ("prod", (B, i, j), [((col, i, 0), (pan, 0, j)), ((col, i, 1), (pan, 1, j))], [])
                for i, j, rt in blocks_of(r, t)
            ],
        )

    # ---- the single-device transport's broadcast (transport_single_device.cpp): half q of every
    # buffer, a copy per receiver on its stream after the root's (event `sent`), the root's
    # stream then after every copy (events `read`)
    def transport_broadcast(root, buffers, q, streams):
        if P == 1:
            return
        sim.record("sent", streams[root])
        for r in range(P):
            if r == root:
                continue
            sim.wait(streams[r], "sent")
            sim.copy(
                streams[r], [((buffers[root], q, j), (buffers[r], q, j)) for j in range(tiles)]
            )
            sim.record(("read", r), streams[r])
            sim.wait(streams[root], ("read", r))

    # ---- DistributedSolver::Loop (distributed.cpp); timeline marks order nothing, left out
    def row_panel(r, g):
        return ("pan", r, g.buffer)  # half q: tile row q

    def column_panel(r, g):
        return ("col", r, g.buffer)  # half q: tile column q

    def stream(r, on_side):
        return ("side", r) if on_side else ("main", r)

    def working(r):
        return p.count(r) > 0

    def make_panel(g, q, on_side):
        kt = g.first + q
        o = p.owner(kt)
        lt = kt - p.first_tile(o)
        st = stream(o, on_side)
        k_close_pivot(o, lt, kt, st)
        k_pivot_row(o, lt, kt, st)
        sim.copy(st, [((("blk", o), lt, j), (row_panel(o, g), q, j)) for j in range(tiles)])

    def broadcast(g, q, on_side):
        transport_broadcast(
            p.owner(g.first + q),
            [row_panel(r, g) for r in range(P)],
            q,
            [stream(r, on_side) for r in range(P)],
        )

    def pivot_column(r, g, q, st):
        k_pivot_column(r, g.first + q, row_panel(r, g), q, column_panel(r, g), st)

    def for_working(f, on_side):
        for r in range(P):
            if working(r):
                f(r, stream(r, on_side))

    def prepare(g, on_side):
        make_panel(g, 0, on_side)
        broadcast(g, 0, on_side)
        for_working(lambda r, st: pivot_column(r, g, 0, st), on_side)
        if g.rounds == 2:
            second = g.first + 1
            o = p.owner(second)

            def column_second(r, st):
                k_phase3(
                    r,
                    Phase3Tiles(0, p.count(r), second, 1, second, -1),
                    g.first,
                    row_panel(r, g),
                    column_panel(r, g),
                    st,
                )

            def ahead_of_panel(r, st):
                if r == o:
                    k_phase3(
                        r,
                        Phase3Tiles(second - p.first_tile(r), 1, 0, tiles),
                        g.first,
                        row_panel(r, g),
                        column_panel(r, g),
                        st,
                    )
                else:
                    column_second(r, st)

            for_working(ahead_of_panel, on_side)
            make_panel(g, 1, on_side)
            broadcast(g, 1, on_side)

            def after_panel(r, st):
                if r == o:
                    column_second(r, st)
                pivot_column(r, g, 1, st)

            for_working(after_panel, on_side)
        if not on_side:
            return
        for r in range(P):
            sim.record(("ready", r), ("side", r))

    def phase3(r, g, t, st):
        if g.rounds == 2:
            k_pair_phase3(r, t, g.first, row_panel(r, g), column_panel(r, g), st)
        else:
            k_phase3(r, t, g.first, row_panel(r, g), column_panel(r, g), st)

    def next_lines(r, g, nxt, st):
        first, rows = p.first_tile(r), p.count(r)
        span = nxt.last() - g.last() + 1
        if mut == "column_skip_later":
            columns = Phase3Tiles(0, rows, nxt.first, nxt.rounds, g.last() + 1, -1, span - 1, 1)
        elif mut == "lines_overlap":
            columns = Phase3Tiles(0, rows, nxt.first, nxt.rounds, g.last(), -1, 1, 1)
        else:
            columns = Phase3Tiles(0, rows, nxt.first, nxt.rounds, g.last(), -1, span, 1)
        lo = max(nxt.first, first)
        hi = min(nxt.last() + 1, first + rows)
        if lo >= hi:
            return phase3(r, g, columns, st)
        phase3(r, g, [Phase3Tiles(lo - first, hi - lo, 0, tiles, -1, g.last(), 1, 1), columns], st)

    def rest(r, g, nxt):
        span = (nxt.last() if nxt else g.last()) - g.last() + 1
        skip = g.last()
        if mut == "rest_keeps_next":
            span = 1
        if mut == "pair_skip_first":
            skip = g.first
            span += g.last() - g.first
        phase3(r, g, Phase3Tiles(0, p.count(r), 0, tiles, skip, skip, span, span), ("main", r))

    # ---- DistributedSolver::solve
    steps = schedule_steps(p, lookahead, pairs)
    if mut == "one_buffer":
        for g in steps:
            g.buffer = 0
    prepare(steps[0], False)
    for g in steps:
        more = g.index + 1 < len(steps)
        ahead = steps[g.index + 1] if more and steps[g.index + 1].prepared_in == g.index else None
        for r in range(P):
            if g.prepared_in >= 0 and mut != "no_ready_wait":
                sim.wait(("main", r), ("ready", r))
            if not ahead:
                continue
            sim.record(("fork", r), ("main", r))
            if mut != "no_fork_wait":
                sim.wait(("side", r), ("fork", r))
            if working(r):
                next_lines(r, g, ahead, ("side", r))
        if ahead:
            prepare(ahead, True)
        for r in range(P):
            if working(r):
                rest(r, g, ahead)
        if more and not ahead:
            prepare(steps[g.index + 1], False)

    # each rank's main stream holds its end (the executor waits on the main streams only), and
    # the readback reads every block tile after it
    for r in range(P):
        late = sim.on.get(("side", r), 0) & ~sim.stream(("main", r))
        assert late == 0, f"rank {r}'s side stream has work after its main stream's end"
        sim.op(
            ("main", r),
            {(("blk", r), i, j) for i in range(p.count(r)) for j in range(tiles)},
            set(),
        )
    # gather and compare
    out = np.zeros((n, n), dtype=np.int64)
    for r in range(P):
        fr = p.first_tile(r) * tile
        rr = p.real_rows(r)
        out[fr : fr + rr, :] = sim.blk[r][:rr, :n]
    ref = d.copy()
    for k in range(n):
        ref = np.minimum(ref, ref[:, k : k + 1] + ref[k : k + 1, :])
    assert (out == ref).all(), f"wrong result: {(out != ref).sum()} differ"
    # padding intact
    for r in range(P):
        b = sim.blk[r]
        rr = p.real_rows(r)
        assert (b[:, n:] == PAD).all() and (b[rr:, :] == PAD).all(), "padding changed"
    # every product once: a round alone is tiles^2 of them (closed pivot, row, column, phase 3);
    # a pair round r's (2 tiles - 1), row s and column s with r (2 tiles - 3), round s's
    # (2 tiles - 1) and the pass off row and column s ((tiles - 1)^2)
    expected = sum(
        tiles * tiles
        if g.rounds == 1
        else 2 * tiles - 1 + 2 * tiles - 3 + 2 * tiles - 1 + (tiles - 1) ** 2
        for g in steps
    )
    assert sim.products == expected, f"{sim.products} tile products, the schedule has {expected}"


# the engine's configs: pairs only at the panel point (pair_phase3 exists only there)
MODES = [
    (la, pairs, fp)
    for la in (False, True)
    for pairs, fp in ((False, False), (False, True), (True, True))
]


def grid():
    for n in [1, 3, 4, 5, 7, 8, 9, 13, 16, 17, 30, 33, 61]:
        for tile in [4, 8]:
            for P in [1, 2, 3, 4, 8]:
                for la, pairs, fp in MODES:
                    yield n, tile, P, la, pairs, fp


def name(cfg):
    n, tile, P, la, pairs, fp = cfg
    return f"n={n} tile={tile} P={P} lookahead={la} pairs={pairs} from_panel={fp}"


start = time.time()
for cfg in grid():
    try:
        run(*cfg, seed=cfg[0] * 100 + cfg[2])
    except Exception as e:
        print(f"FAILED {name(cfg)}: {e}")
        sys.exit(1)
print(f"{sum(1 for _ in grid())} configurations ok ({time.time() - start:.1f} s)")

# Each mutation must fail some configurations (those where it matters: a wait that only
# look-ahead needs, say); the count and the first failure are printed.
MUTATIONS = {
    "no_fork_wait": "the side stream not waiting `fork`",
    "no_ready_wait": "the main stream not waiting `ready`",
    "one_buffer": "one panel buffer and column panel for all steps",
    "no_pivot_copy": "pivot_column not copying the pivot into the column panel",
    "pair_skip_first": "a pair's main pass also leaving out row and column r",
    "column_skip_later": "the look-ahead's column part not leaving out the step's final row",
    "rest_keeps_next": "the main pass not leaving out the next step's lines",
    "lines_overlap": "the look-ahead's column part not leaving out the next step's rows",
}
start = time.time()
missed = []
for mut, what in MUTATIONS.items():
    tried, failures = 0, []
    for cfg in grid():
        if cfg[0] not in (13, 17, 33) or cfg[2] not in (1, 2, 3):
            continue
        tried += 1
        try:
            run(*cfg, seed=cfg[0] * 100 + cfg[2], mut=mut)
        except Exception as e:
            failures.append(f"{name(cfg)}: {e}")
    if failures:
        print(f"mutation {mut} ({what}): caught in {len(failures)}/{tried}, first {failures[0]}")
    else:
        print(f"mutation {mut} ({what}): NOT caught in {tried}")
        missed.append(mut)
print(f"mutations done ({time.time() - start:.1f} s)")
if missed:
    print("mutations not caught: " + ", ".join(missed))
    sys.exit(1)
print("all ok")
