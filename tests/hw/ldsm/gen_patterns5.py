#!/usr/bin/env python3
"""gen_patterns5.py: the fifth cp.async run (issue 15, the LDGSTS cost outside its established class).
Every launch's prediction is written into patterns5.json ('predicted': hypothesis -> wavefronts) before
the run; fit_ldgsts.py (the offline model-fitter over all measured rows) made the hypotheses.
(A) held out, .cg: the 'one sector per source line' class: in every 8-lane pass each 128-byte
    global line is read in one 32-byte sector only, by one or two lanes on distinct halves, no
    destination written twice. Hypothesis 'units': a pass costs its distinct (global sector,
    shared sector) pairs (exact on all 194 such rows of h100-ldsm{,2,3,4}.csv). 40 random cases,
    destinations random distinct 16-byte chunks of 2 KB (20) or of 256 bytes (20).
(B) .ca probes (cp.async.ca.4, three lanes, one pass): both sides conflict in the smallest way.
    T1: lanes a, b read the same bank of two different lines (a source conflict), lane c writes the
    destination bank of a (a destination conflict). Reading a first gives {a, c} 2 + {b} 1 = 3;
    reading b first {b, c} 1 + {a} 1 = 2 (two-phase 'read rounds, then write conflicts' rules);
    the best schedule costs 2. The lanes' order and the lines' order are varied apart.
    T2: lanes a, b write one destination bank, lane c reads the source bank of a from another
    line: writing a first 3, b first 2 ('write rounds, then read conflicts').
(C) .cg probes: lanes 0, 1 read the two halves of global sector 0 into two different shared
    sectors (a split sector), lane 2 one half of sector 1 of the same line, to every other 16-byte
    chunk of two shared lines: 2 when lane 2's unit merges with one of the split units, else 3.
(D) .cg probes: four lanes on one global sector (two on each half) to four shared sectors.
Writes patterns5.txt and patterns5.json."""
import json, os, random

HERE = os.path.dirname(os.path.abspath(__file__))
rnd = random.Random(155)
out, js = [], []


def passes(size, mask):
    lanes = 32 // (size // 4)
    for p0 in range(0, 32, lanes):
        P = [l for l in range(p0, p0 + lanes) if mask >> l & 1]
        if P:
            yield P


def words(a, size):
    return [a // 4 + k for k in range(size // 4)]


def dstconf(dst, size, L):
    c = {}
    for l in L:
        for w in words(dst[l], size):
            c[w % 32] = c.get(w % 32, 0) + 1
    return max(c.values()) if c else 0


def srcconf(src, size, L):
    ws = set()
    for l in L:
        ws.update(words(src[l], size))
    c = {}
    for w in ws:
        c[w % 32] = c.get(w % 32, 0) + 1
    return max(c.values()) if c else 0


def readrank(dst, src, size, P, key):
    bank = {}
    for l in P:
        w = src[l] // 4
        bank.setdefault(w % 32, {}).setdefault(w, []).append(l)
    rounds = {}
    for ws in bank.values():
        for i, (w, ls) in enumerate(sorted(ws.items(), key=lambda kv: min(key(l) for l in kv[1]))):
            rounds.setdefault(i, []).extend(ls)
    return sum(dstconf(dst, size, L) for L in rounds.values())


def writerank(dst, src, size, P, key):
    bank = {}
    for l in P:
        bank.setdefault((dst[l] // 4) % 32, []).append(l)
    rounds = {}
    for ls in bank.values():
        for i, l in enumerate(sorted(ls, key=key)):
            rounds.setdefault(i, []).append(l)
    return sum(srcconf(src, size, L) for L in rounds.values())


def ca_predict(dst, src, size, mask):
    h = {}
    for name, f in [('max', lambda P: max(dstconf(dst, size, P), srcconf(src, size, P))),
                    ('readrank_lane', lambda P: readrank(dst, src, size, P, lambda l: l)),
                    ('readrank_addr', lambda P: readrank(dst, src, size, P, lambda l: (src[l], l))),
                    ('writerank_lane', lambda P: writerank(dst, src, size, P, lambda l: l)),
                    ('writerank_addr', lambda P: writerank(dst, src, size, P, lambda l: (dst[l], l)))]:
        h[name] = sum(f(P) for P in passes(size, mask))
    return h


def units(dst, src, P):
    return len({(src[l] // 32, dst[l] // 32) for l in P})


def merge_rot(dst, src, P):
    """units, less one where two units of different global sectors of one line land in one shared
    line with the same 16-byte rotation (dst chunk - src chunk mod 8): the best conjunction found on
    the s2 rows of h100-ldsm3.csv (61 of 70), capped at one merge a pass"""
    u = {}
    for l in P:
        u.setdefault((src[l] // 32, dst[l] // 32), []).append(l)
    keys = list(u)
    m = 0
    for i in range(len(keys)):
        for j in range(i + 1, len(keys)):
            a, b = u[keys[i]][0], u[keys[j]][0]
            if (src[a] // 32 != src[b] // 32 and src[a] // 128 == src[b] // 128 and dst[a] // 128 == dst[b] // 128
                    and (dst[a] // 16 - src[a] // 16) % 8 == (dst[b] // 16 - src[b] // 16) % 8):
                m = 1
    return len(keys) - m


def add(kind, name, dst, src, mask, predicted):
    dst = list(dst) + [0] * (32 - len(dst))
    src = list(src) + [0] * (32 - len(src))
    out.append(f"{kind} {name} " + " ".join(map(str, dst)) + " " + " ".join(map(str, src)) + f" {mask:x}")
    js.append(dict(kind=kind, name=name, off=dst, goff=src, mask=mask, predicted=predicted))


# (A)
for i in range(40):
    span = 2048 if i < 20 else 256
    dst, src = [], []
    for p in range(4):
        free = list(range(span // 32))  # shared sectors not yet used by this pass
        rnd.shuffle(free)
        lines = rnd.sample(range(512), 8)
        pairs = []  # (src, dst) of the pass's lanes
        k = 0
        while len(pairs) < 8:
            base = lines[k] * 128 + rnd.randrange(4) * 32
            k += 1
            if len(pairs) <= 6 and rnd.random() < 0.6:
                halves = rnd.sample((0, 1), 2)
                if rnd.random() < 0.5:   # the whole sector into one shared sector, either order
                    ds = free.pop()
                    pairs += [(base + 16 * h, ds * 32 + 16 * j) for j, h in enumerate(halves)]
                else:                    # split over two shared sectors
                    pairs += [(base + 16 * h, free.pop() * 32 + 16 * rnd.randrange(2)) for h in halves]
            else:
                pairs.append((base + 16 * rnd.randrange(2), free.pop() * 32 + 16 * rnd.randrange(2)))
        rnd.shuffle(pairs)
        src += [a for a, _ in pairs]
        dst += [b + p * span for _, b in pairs]
    P = [list(range(p0, p0 + 8)) for p0 in range(0, 32, 8)]
    add('cpasync.cg.16', f'oneper_{i}', dst, src, 0xffffffff, {'units': sum(units(dst, src, Q) for Q in P)})
# (B)
def probe_ca(name, a, b, c, da, db, dc, sa, sb, sc):
    dst, src = [0] * 32, [0] * 32
    dst[a], dst[b], dst[c] = da, db, dc
    src[a], src[b], src[c] = sa, sb, sc
    mask = (1 << a) | (1 << b) | (1 << c)
    add('cpasync.ca.4', name, dst, src, mask, ca_predict(dst, src, 4, mask))


n = 0
for rep in range(2):
    for lane_ab in (0, 1):          # a's lane below b's, or above
        for line_ab in (0, 1):      # a's line below b's, or above
            for c_pos in (0, 1):    # c's lane first or last
                bank = rnd.randrange(32)
                la, lb = sorted(rnd.sample(range(2, 64), 2))
                if line_ab:
                    la, lb = lb, la
                lanes = [1, 2] if not lane_ab else [2, 1]
                a, b = lanes
                c = 0 if c_pos == 0 else 3
                dbank = rnd.randrange(32)
                rows = rnd.sample(range(1, 40), 3)
                da = rows[0] * 128 + 4 * dbank
                dc = rows[1] * 128 + 4 * dbank
                db = rows[2] * 128 + 4 * ((dbank + 1 + rnd.randrange(30)) % 32)
                sa, sb = la * 128 + 4 * bank, lb * 128 + 4 * bank
                sc = 0 * 128 + 4 * ((bank + 1 + rnd.randrange(30)) % 32)  # line 0: no conflict with a, b
                probe_ca(f'T1_{rep}{lane_ab}{line_ab}{c_pos}', a, b, c, da, db, dc, sa, sb, sc)
                # T2: a, b write one bank; c reads a's source bank from another line
                sbank = rnd.randrange(32)
                la, lb, lc = rnd.sample(range(2, 64), 3)
                sa, sb = la * 128 + 4 * sbank, lb * 128 + 4 * ((sbank + 1 + rnd.randrange(30)) % 32)
                sc = lc * 128 + 4 * sbank
                dbank = rnd.randrange(32)
                ra, rb_ = sorted(rnd.sample(range(1, 40), 2))
                if line_ab:
                    ra, rb_ = rb_, ra
                da, db = ra * 128 + 4 * dbank, rb_ * 128 + 4 * dbank
                dc = 41 * 128 + 4 * ((dbank + 1 + rnd.randrange(30)) % 32)
                probe_ca(f'T2_{rep}{lane_ab}{line_ab}{c_pos}', a, b, c, da, db, dc, sa, sb, sc)
# (C)
for X, Y in ((0, 3), (0, 2), (1, 2), (3, 8)):
    for h in (0, 1):
        for Z in range(16):
            if Z in (X, Y) or (h == 1 and Z % 2 == 0):
                continue
            dst = [16 * X, 16 * Y, 16 * Z]
            src = [0, 16, 32 + 16 * h]
            P = [0, 1, 2]
            add('cpasync.cg.16', f'split3_{X}_{Y}_{h}_{Z}', dst, src, 0x7,
                {'units': units(dst + [0] * 29, src + [0] * 29, P), 'merge_rot': merge_rot(dst + [0] * 29, src + [0] * 29, P)})
# (D)
for i in range(12):
    chunks = rnd.sample(range(16 if i < 6 else 64), 4)
    dst = [16 * c for c in chunks]
    src = [0, 0, 16, 16] if i % 2 == 0 else [0, 16, 0, 16]
    if len({c // 2 for c in chunks}) < 4:
        chunks = [0, 3, 4, 7] if i < 6 else [0, 9, 20, 63]
        dst = [16 * c for c in chunks]
    add('cpasync.cg.16', f'dupsec_{i}', dst, src, 0xf, {'units': units(dst + [0] * 28, src + [0] * 28, [0, 1, 2, 3])})

open(os.path.join(HERE, 'patterns5.txt'), 'w').write('\n'.join(out) + '\n')
json.dump(js, open(os.path.join(HERE, 'patterns5.json'), 'w'), indent=0)
print(len(out), 'patterns')
