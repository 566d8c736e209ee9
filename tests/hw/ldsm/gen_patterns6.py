#!/usr/bin/env python3
"""gen_patterns6.py: the sixth cp.async run: held-out .cg cases for the 'keys' rule that
fit_ldgsts.py found after the fifth run (exact on all 485 .cg rows of its class in
h100-ldsm{,2,3,4,5}.csv, fitted on them, so not yet tested). Each launch's prediction by the keys
rule ('keys', fit_ldgsts.cg_keys) and by the rule in src/model/matrix.c before it ('line_groups')
is written into patterns6.json before the run. Every case is in the keys class: no global 16-byte
chunk read twice in a pass, no destination written twice.
(a) 24 warps: each 8-lane pass copies all 8 chunks of one global line to one shared line in a
    random permutation (arbitrary 16-byte swizzles);
(b) 24 warps: each pass copies 8 random distinct chunks of two global lines to 8 random distinct
    chunks of two shared lines;
(c) 24 warps: each pass copies whole sectors: the 4 sectors of one global line (8 lanes) to the 4
    sectors of one shared line in a random order, each sector's halves straight or swapped at random
    ('in any order' against the keys rule's (shared - global sector) mod 2);
(d) 12 warps: each pass copies 4 random chunks of each of two global lines to random distinct
    chunks of one shared line;
(e) .ca held out for the hub bound (fit_ldgsts.ca_cross, fitted after the fifth run): 28 warps,
    random sources in 1 KB, random destinations in 512 bytes, sizes 4, 8, 16 ('hub' and 'max');
(f) .ca.4 probes: a hub lane with k lanes on its source bank and m on its destination bank, and
    chains of lanes alternately sharing a source bank and a destination bank.
Writes patterns6.txt and patterns6.json."""
import json, os, random, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fit_ldgsts as F  # noqa: E402

rnd = random.Random(1506)
out, js = [], []


def line_groups(dst, src, P):
    """the rule of src/model/matrix.c before this run (.cg, no pass on one sector), ported"""
    def contig(v):
        v = sorted({x // 32 for x in v})
        return v[-1] - v[0] + 1 == len(v)
    g = {}
    for l in P:
        g.setdefault((src[l] // 128, dst[l] // 128), []).append(l)
    t = sum(1 if contig([src[l] for l in G]) and contig([dst[l] for l in G]) else len({dst[l] // 32 for l in G})
            for G in g.values())
    r = dict(dst=dst, size=16)
    return max(F.dstconf(r, P), t)


def add(name, dst, src):
    r = dict(cg=True, size=16, zf=False, mask=0xffffffff, dst=dst, src=src, wf=0)
    assert F.cg_keys_class(r), name
    P = list(F.passes(r))
    pred = {'keys': sum(F.cg_keys(r, Q) for Q in P), 'line_groups': sum(line_groups(dst, src, Q) for Q in P)}
    out.append(f"cpasync.cg.16 {name} " + " ".join(map(str, dst)) + " " + " ".join(map(str, src)) + " ffffffff")
    js.append(dict(kind='cpasync.cg.16', name=name, off=dst, goff=src, mask=0xffffffff, predicted=pred))


for i in range(24):  # (a)
    dst, src = [], []
    glines, slines = rnd.sample(range(512), 4), rnd.sample(range(96), 4)
    for p in range(4):
        perm = list(range(8))
        rnd.shuffle(perm)
        for c in range(8):
            src.append(glines[p] * 128 + 16 * c)
            dst.append(slines[p] * 128 + 16 * perm[c])
    add(f'perm_{i}', dst, src)
for i in range(24):  # (b)
    dst, src = [], []
    glines, slines = rnd.sample(range(512), 8), rnd.sample(range(96), 8)
    for p in range(4):
        gc = rnd.sample(range(16), 8)
        sc = rnd.sample(range(16), 8)
        for a, b in zip(gc, sc):
            src.append(glines[2 * p + a // 8] * 128 + 16 * (a % 8))
            dst.append(slines[2 * p + b // 8] * 128 + 16 * (b % 8))
    add(f'mix_{i}', dst, src)
for i in range(24):  # (c)
    dst, src = [], []
    glines, slines = rnd.sample(range(512), 4), rnd.sample(range(96), 4)
    for p in range(4):
        order = list(range(4))
        rnd.shuffle(order)
        for s in range(4):
            sw = rnd.randrange(2)
            for h in range(2):
                src.append(glines[p] * 128 + 32 * s + 16 * h)
                dst.append(slines[p] * 128 + 32 * order[s] + 16 * (h ^ sw))
    add(f'wholeperm_{i}', dst, src)
for i in range(12):  # (d)
    dst, src = [], []
    glines, slines = rnd.sample(range(512), 8), rnd.sample(range(96), 4)
    for p in range(4):
        sc = rnd.sample(range(8), 8)
        gc = rnd.sample(range(8), 4) + rnd.sample(range(8), 4)
        for k in range(8):
            src.append(glines[2 * p + k // 4] * 128 + 16 * gc[k])
            dst.append(slines[p] * 128 + 16 * sc[k])
    add(f'twoline_{i}', dst, src)


def add_ca(name, size, dst, src, mask):
    r = dict(cg=False, size=size, zf=False, mask=mask, dst=dst, src=src, wf=0)
    P = list(F.passes(r))
    pred = {'max': sum(F.ca_max(r, Q) for Q in P), 'hub': sum(F.ca_cross(r, Q) for Q in P)}
    out.append(f"cpasync.ca.{size} {name} " + " ".join(map(str, dst)) + " " + " ".join(map(str, src)) + f" {mask:x}")
    js.append(dict(kind=f'cpasync.ca.{size}', name=name, off=dst, goff=src, mask=mask, predicted=pred))


# (e) .ca held out: random sources in 1 KB and random destinations in 512 bytes (both sides conflict)
for size, n in ((4, 12), (8, 8), (16, 8)):
    for i in range(n):
        src = [size * rnd.randrange(1024 // size) for _ in range(32)]
        dst = [size * rnd.randrange(512 // size) for _ in range(32)]
        add_ca(f'rnd{size}_{i}', size, dst, src, 0xffffffff)
# (f) .ca.4 probes: a hub lane with k other lanes on its source bank (other lines) and m on its
# destination bank; and chains a-b (source bank), b-c (destination bank), c-d (source bank)
for k, m in ((1, 2), (2, 1), (2, 2), (3, 1), (1, 3), (3, 3)):
    bank, dbank = rnd.randrange(32), rnd.randrange(32)
    lines = rnd.sample(range(1, 64), k + 1)
    dst, src = [0] * 32, [0] * 32
    src[0], dst[0] = lines[0] * 128 + 4 * bank, 5 * 128 + 4 * dbank
    lane = 1
    for j in range(k):
        src[lane] = lines[j + 1] * 128 + 4 * bank
        dst[lane] = 7 * 128 + 4 * ((dbank + 1 + j) % 32)
        lane += 1
    for j in range(m):
        src[lane] = 0 * 128 + 4 * ((bank + 1 + j) % 32)
        dst[lane] = (9 + j) * 128 + 4 * dbank
        lane += 1
    add_ca(f'hub_{k}_{m}', 4, dst, src, (1 << lane) - 1)
for n in (3, 4, 5, 6):
    # lanes 0..n: lane i and i+1 share a source bank (i even) or a destination bank (i odd)
    dst, src = [0] * 32, [0] * 32
    sb = rnd.sample(range(32), 8)
    db = rnd.sample(range(32), 8)
    lines = rnd.sample(range(1, 64), 8)
    for i in range(n + 1):
        sbank = sb[i // 2]
        dbk = db[(i + 1) // 2]
        src[i] = lines[i] * 128 + 4 * sbank
        dst[i] = (2 + i) * 128 + 4 * dbk
    add_ca(f'chain_{n}', 4, dst, src, (1 << (n + 1)) - 1)
open(os.path.join(HERE, 'patterns6.txt'), 'w').write('\n'.join(out) + '\n')
json.dump(js, open(os.path.join(HERE, 'patterns6.json'), 'w'))
cg = [p for p in js if 'keys' in p['predicted']]
print(len(out), 'patterns;', sum(p['predicted']['keys'] != p['predicted']['line_groups'] for p in cg), 'of', len(cg),
      '.cg where the two rules differ; .ca:', [(p['name'], p['predicted']) for p in js if 'hub' in p['predicted']])
