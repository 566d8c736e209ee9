#!/usr/bin/env python3
"""gen_patterns3.py: the third cp.async run (issue 15, what keeps the cp.async rule open):
(a) every .ca row outside the established class (h100-ldsm2.csv's held-out random cases) again,
    and three permutations of its (destination, source) pairs among the lanes of each pass: does
    the cost depend on which lane carries which copy?
(b) .cg, one 32-byte source sector (lanes 0, 1: sources 0, 16), destinations at every pair of
    16-byte chunks 0..11;
(c) .cg, two sectors of one line (lanes 0-3), random distinct chunks 0..15; and two sectors of
    two lines (sources 0, 16, 128, 144);
(d) .cg, four sectors (lanes 0-7, one pass), random distinct chunks 0..31.
Writes patterns3.txt (the format of patterns.txt) and patterns3.json (for parse.py)."""
import csv, json, os, random

HERE = os.path.dirname(os.path.abspath(__file__))
rnd = random.Random(15)
out = []
js = []


def line(kind, name, dst, src, mask):
    dst = list(dst) + [0] * (32 - len(dst))
    src = list(src) + [0] * (32 - len(src))
    out.append(f"{kind} {name} " + " ".join(map(str, dst)) + " " + " ".join(map(str, src)) + f" {mask:x}")
    js.append(dict(kind=kind, name=name, off=dst, goff=src, mask=mask))


# (a)
held = [r for r in csv.DictReader(open(os.path.join(HERE, '..', 'h100-ldsm2.csv')))
        if r['kind'].startswith('cpasync.ca') and r['name'].startswith('heldout') and 'src' not in r['name']]
for r in held:
    size = int(r['kind'].split('.')[2])
    dst = [int(x) for x in r['addresses'].split()]
    src = [int(x) for x in r['global_addresses'].split()]
    mask = int(r['active_mask'], 16)
    line(r['kind'], 'again_' + r['name'], dst, src, mask)
    lanes = 32 // max(1, size // 4)
    for k in range(3):
        d2, s2, m2 = dst[:], src[:], 0
        for p0 in range(0, 32, lanes):
            idx = list(range(p0, p0 + lanes))
            perm = idx[:]
            rnd.shuffle(perm)
            for a, b in zip(idx, perm):
                d2[a], s2[a] = dst[b], src[b]
                if mask >> b & 1:
                    m2 |= 1 << a
        line(r['kind'], f'perm{k}_' + r['name'], d2, s2, m2)
# (b)
for c0 in range(12):
    for c1 in range(12):
        line('cpasync.cg.16', f's1_{c0}_{c1}', [16 * c0, 16 * c1], [0, 16], 0x3)
# (c)
for i in range(60):
    ch = rnd.sample(range(16), 4)
    line('cpasync.cg.16', f's2_{i}_' + '_'.join(map(str, ch)), [16 * c for c in ch], [0, 16, 32, 48], 0xf)
for i in range(20):
    ch = rnd.sample(range(16), 4)
    line('cpasync.cg.16', f's2l_{i}_' + '_'.join(map(str, ch)), [16 * c for c in ch], [0, 16, 128, 144], 0xf)
# (d)
for i in range(40):
    ch = rnd.sample(range(32), 8)
    line('cpasync.cg.16', f's4_{i}_' + '_'.join(map(str, ch)), [16 * c for c in ch], [16 * k for k in range(8)], 0xff)
open(os.path.join(HERE, 'patterns3.txt'), 'w').write('\n'.join(out) + '\n')
json.dump(js, open(os.path.join(HERE, 'patterns3.json'), 'w'))
print(len(out), 'patterns')
