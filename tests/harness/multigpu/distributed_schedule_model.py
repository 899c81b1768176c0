#!/usr/bin/env python3
# A model of harness/multigpu/distributed.cpp's round loop, written by hand to mirror it (keep the two in
# step): the same ranks, streams, events, launches and broadcasts (single-device transport
# semantics), each launch done as its blocks' tile products (kernels/distributed.cuh's index
# logic) on numpy arrays. It checks, for P = 1, 2, 3, 4, 8, tiles of 4 and 8 and n from 1 to 61,
# without look-ahead and with it, its column part on and off, phase 3's A from the block and from
# the column panels (sm90's panel point), that the gathered result equals plain Floyd-Warshall and the
# padding is untouched, and that every access of every tile is ordered after the accesses it
# conflicts with by stream order and event waits (happens-before as bitsets), and that no block
# of a launch reads what another block of it writes. Mutations of the loop (a missing wait, the
# look-ahead row or column not left out, the look-ahead pivot column before its panel lands, one
# panel buffer, one column panel) each fail it. Exit 77 without numpy.
import sys
try:
    import numpy as np
except ImportError:
    print("numpy missing: skipped")
    sys.exit(77)
INF = 2**30 - 1; PAD = 0x3F3F3F3F

class Part:
    def __init__(s, n, tile, P):
        s.n, s.tile, s.P = n, tile, P
        s.pitch = (n + tile - 1) // tile * tile; s.tiles = s.pitch // tile
    def first_tile(s, r): b, e = divmod(s.tiles, s.P); return r * b + min(r, e)
    def count(s, r): b, e = divmod(s.tiles, s.P); return b + (1 if r < e else 0)
    def owner(s, kt):
        b, e = divmod(s.tiles, s.P); big = e * (b + 1)
        return kt // (b + 1) if kt < big else e + (kt - big) // b
    def real_rows(s, r): return max(0, min(s.n - s.first_tile(r) * s.tile, s.count(r) * s.tile))

class Sim:
    def __init__(s, part):
        s.p = part; P = part.P; T = part.tile
        s.blk = [np.full((part.count(r) * T, part.pitch), PAD, dtype=np.int64) for r in range(P)]
        s.pan = [[np.zeros((T, part.pitch), dtype=np.int64) for _ in range(2)] for r in range(P)]
        # a column panel as its tiles (i, 0): column tile kt of the block, untransposed here
        s.col = [[np.zeros((part.count(r) * T, T), dtype=np.int64) for _ in range(2)] for r in range(P)]
        s.ops = 0
        s.hb = {}            # stream -> bitset of ops before its tail
        s.last_write = {}    # region -> op
        s.reads = {}         # region -> set of ops
        s.events = {}
    def stream(s, name): return s.hb.setdefault(name, 0)
    def record(s, ev, st): s.events[ev] = s.stream(st)
    def wait(s, st, ev): s.hb[st] = s.stream(st) | s.events.get(ev, 0)
    def op(s, st, reads, writes):
        op = s.ops; s.ops += 1
        hb = s.stream(st)
        for reg in reads:
            w = s.last_write.get(reg)
            if w is not None and not (hb >> w) & 1: raise Exception(f"RAW race on {reg}: op {op} on {st}, write {w}")
        for reg in writes:
            w = s.last_write.get(reg)
            if w is not None and not (hb >> w) & 1: raise Exception(f"WAW race on {reg}: op {op} on {st}")
            for rd in s.reads.get(reg, ()):
                if rd != op and not (hb >> rd) & 1: raise Exception(f"WAR race on {reg}: op {op} on {st}, read {rd}")
        for reg in reads: s.reads.setdefault(reg, set()).add(op)
        for reg in writes: s.last_write[reg] = op; s.reads[reg] = set()
        s.hb[st] = hb | (1 << op)

    # buffers: ('blk', r), ('pan', r, b) or ('col', r, b); a "pointer" = (buffer, row_offset_in_tiles)
    def arr(s, buf):
        if buf[0] == 'blk': return s.blk[buf[1]]
        return (s.pan if buf[0] == 'pan' else s.col)[buf[1]][buf[2]]
    def tile_view(s, buf, ti, tj):
        T = s.p.tile; return s.arr(buf)[ti * T:(ti + 1) * T, tj * T:(tj + 1) * T]
    def launch(s, st, blocks):
        # blocks: list of (C=(buf,ci,cj), A=(buf,ti,tk), B=(buf,tk,tj)[, copy=(buf,ti,tj)]) or
        # ('close', buf, lt, kt); copy: the new C also goes there (the column panel)
        reads, writes, per_block_w, per_block_r = set(), set(), [], []
        results = []
        for b in blocks:
            if b[0] == 'close':
                _, buf, lt, kt = b
                t = s.tile_view(buf, lt, kt).copy()
                for k in range(t.shape[0]): t = np.minimum(t, t[:, k:k+1] + t[k:k+1, :])
                results.append(((buf, lt, kt), t)); r = {(buf, lt, kt)}; w = {(buf, lt, kt)}
            else:
                C, A, B = b[:3]
                c = s.tile_view(*C); a = s.tile_view(*A); bb = s.tile_view(*B)
                acc = np.minimum(c, (a[:, :, None] + bb[None, :, :]).min(axis=1))
                results.append((C, acc)); r = {A, B, C}; w = {C}
                if len(b) == 4: results.append((b[3], acc)); w.add(b[3])
            per_block_r.append(r); per_block_w.append(w)
        for i, w in enumerate(per_block_w):
            for j, r in enumerate(per_block_r):
                if i != j and w & r: raise Exception(f"intra-launch conflict {w & r}")
        for r in per_block_r: reads |= r
        for w in per_block_w: writes |= w
        s.op(st, {('t',) + x for x in reads}, {('t',) + x for x in writes})
        for (buf, ti, tj), v in results: s.tile_view(buf, ti, tj)[:] = v

    def copy_panel(s, st, src_buf, src_tile_row, dst_buf):
        T = s.p.tile; tiles = s.p.tiles
        s.op(st, {('t', src_buf, src_tile_row, j) for j in range(tiles)}, {('t', dst_buf, 0, j) for j in range(tiles)})
        s.arr(dst_buf)[:] = s.arr(src_buf)[src_tile_row * T:(src_tile_row + 1) * T, :]

def run(n, tile, P, lookahead, column, from_panel, seed):
    p = Part(n, tile, P); sim = Sim(p); rng = np.random.default_rng(seed)
    d = np.full((n, n), INF, dtype=np.int64)
    mask = rng.random((n, n)) < min(1, 5.0 / max(n, 1))
    d[mask] = rng.integers(0, 6, mask.sum())
    np.fill_diagonal(d, 0)
    for r in range(P):
        fr = p.first_tile(r) * tile; rr = p.real_rows(r)
        sim.blk[r][:rr, :n] = d[fr:fr + rr, :]
    tiles = p.tiles
    main = lambda r: ('main', r); side = lambda r: ('side', r)
    def panel_of(r, kt):
        if p.owner(kt) != r: return (('pan', r, kt % 2), 0)
        return (('blk', r), kt - p.first_tile(r))
    def prepare(kt, on_side):
        o = p.owner(kt); lt = kt - p.first_tile(o); st = side(o) if on_side else main(o); B = ('blk', o)
        sim.launch(st, [('close', B, lt, kt)])
        sim.launch(st, [((B, lt, j), (B, lt, kt), (B, lt, j)) for j in range(tiles) if j != kt])
    def broadcast(kt, on_side):
        o = p.owner(kt); st = side if on_side else main
        ev_sent = ('sent', kt)
        sim.record(ev_sent, st(o))
        src_buf, src_row = panel_of(o, kt)
        for r in range(P):
            if r == o: continue
            sim.wait(st(r), ev_sent)
            dst_buf, _ = panel_of(r, kt)
            sim.copy_panel(st(r), src_buf, src_row, dst_buf)
            sim.record(('read', kt, r), st(r)); sim.wait(st(o), ('read', kt, r))
    prepared_in = [(kt - 1 if lookahead and kt > 0 else -1) for kt in range(tiles)]
    prepare(0, False); broadcast(0, False)
    column_of = lambda r, kt: ('col', r, kt % 2)
    def phase3(st, r, kt, rows, cols, skip_row, skip_col):
        first = p.first_tile(r); B = ('blk', r); pb, prow = panel_of(r, kt)
        A = lambda i: (column_of(r, kt), i, 0) if from_panel else (B, i, kt)
        sim.launch(st, [((B, i, j), A(i), (pb, prow, j)) for i in rows for j in cols
                        if j != kt and j != skip_col and first + i != kt and first + i != skip_row])
    def pivot_column(st, r, kt):
        first = p.first_tile(r); B = ('blk', r); pb, prow = panel_of(r, kt)
        to = lambda i: ((column_of(r, kt), i, 0),) if from_panel else ()
        sim.launch(st, [((B, i, kt), (B, i, kt), (pb, prow, kt)) + to(i) for i in range(p.count(r)) if first + i != kt])
    column_done = False
    for kt in range(tiles):
        ahead = kt + 1 < tiles and prepared_in[kt + 1] == kt
        nxt = p.owner(kt + 1) if ahead else -1
        column_ahead = ahead and column
        for r in range(P):
            if prepared_in[kt] >= 0: sim.wait(main(r), ('ready', r))
            if ahead: sim.record(('freed', r), main(r))
            if p.count(r) == 0: continue
            first = p.first_tile(r); rows = range(p.count(r))
            if not column_done: pivot_column(main(r), r, kt)
            skip_row = skip_col = -1
            if ahead:
                sim.record(('fork', r), main(r)); sim.wait(side(r), ('fork', r))
                if r == nxt:
                    phase3(side(r), r, kt, [kt + 1 - first], range(tiles), -1, -1)
                    prepare(kt + 1, True)
                    skip_row = kt + 1
                elif column_ahead:
                    phase3(side(r), r, kt, rows, [kt + 1], kt + 1, -1)
                if column_ahead: skip_col = kt + 1
            phase3(main(r), r, kt, rows, range(tiles), skip_row, skip_col)
        if ahead:
            for r in range(P):
                if r != nxt: sim.wait(side(r), ('freed', r))
            broadcast(kt + 1, True)
            for r in range(P):
                if column_ahead and p.count(r) > 0:
                    if r == nxt: phase3(side(r), r, kt, range(p.count(r)), [kt + 1], kt + 1, -1)
                    pivot_column(side(r), r, kt + 1)
                sim.record(('ready', r), side(r))
        elif kt + 1 < tiles:
            prepare(kt + 1, False); broadcast(kt + 1, False)
        column_done = column_ahead
    # gather and compare
    out = np.zeros((n, n), dtype=np.int64)
    for r in range(P):
        fr = p.first_tile(r) * tile; rr = p.real_rows(r)
        out[fr:fr + rr, :] = sim.blk[r][:rr, :n]
    ref = d.copy()
    for k in range(n): ref = np.minimum(ref, ref[:, k:k+1] + ref[k:k+1, :])
    assert (out == ref).all(), f"wrong result n={n} tile={tile} P={P} la={lookahead} column={column} from_panel={from_panel}: {(out != ref).sum()} differ"
    # padding intact
    for r in range(P):
        b = sim.blk[r]; rr = p.real_rows(r)
        assert (b[:, n:] == PAD).all() and (b[rr:, :] == PAD).all(), "padding changed"

for n in [1, 3, 4, 5, 7, 8, 9, 13, 16, 17, 30, 33, 61]:
    for tile in [4, 8]:
        for P in [1, 2, 3, 4, 8]:
            for la, column in [(False, False), (True, False), (True, True)]:
                for from_panel in [False, True]:
                    run(n, tile, P, la, column, from_panel, n * 100 + P)
print("all ok")
