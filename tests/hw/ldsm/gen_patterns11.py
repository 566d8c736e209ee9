#!/usr/bin/env python3
"""gen_patterns11.py: the eleventh cp.async run (issue 15): probes, not a held-out test, of how the
extra wavefronts outside the warp rule's class combine. The tenth run (h100-ldsm10.csv) showed
crowded warps costing up to 3 above the warp rule, with neither the estimate (a sum over the
wavefronts of t) nor the chunk rule (the most lines of one chunk) exact. Here one variable at a
time: a 'unit' is the eighth run's d_wh probe that costs one more (h100-ldsm8.csv d_wh_*: a whole
sector pair on two low lanes copied to one shared sector, and a higher lane reading one of its
chunks as a half item into the same shared line, an even number of chunks from it); the probes put
one, two or three units in one request: (U1) one unit; (U2l) two on different global and shared
lines; (U2g) one global line, two shared lines, different chunks; (U2c) one global line, two
shared lines, the same sector (the same chunk read under two keys in each line); (U2s) two units
of different global lines into one shared line; (U3c) three units of one sector into three
shared lines; (U2x) two, the half lane of the second sharing a key with another lane (x not
alone). Each probe carries the predictions of 'est' (fit_ldgsts.cg_outside_extra), 'chunk'
(cg_outside_chunks) and 'warp' (the warp rule alone), committed before the run; no rule is
claimed from them. Writes patterns11.txt / patterns11.json; run by run7.sh with RUN=11."""
import json, os, random, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fit_ldgsts as F  # noqa: E402

rnd = random.Random(1511)
txt, js, names = [], [], set()
CG = 'cpasync.cg.16'


def row(dst, src, mask):
    return dict(kind=CG, cg=True, size=16, zf=False, sb=16, mask=mask, dst=list(dst), src=list(src), wf=0)


def predict(r):
    w = F.cg_warp_mult(r)
    if F.cg_warp_class(r):
        return {'est': w, 'chunk': w, 'warp': w, 'class': 1}
    return {'est': w + F.cg_outside_extra(r), 'chunk': w + F.cg_outside_chunks(r), 'warp': w, 'class': 0}


def add(name, copies, group):
    """copies: (src, dst) in lane order, on the lowest lanes of a random lane set"""
    assert name not in names
    names.add(name)
    lanes = sorted(rnd.sample(range(32), len(copies)))
    dst, src = [0] * 32, [0] * 32
    for (a, b), l in zip(copies, lanes):
        src[l], dst[l] = a, b
    mask = sum(1 << l for l in lanes)
    r = row(dst, src, mask)
    txt.append(f"{CG} {name} " + " ".join(map(str, dst)) + " " + " ".join(map(str, src)) + f" {mask:x}")
    js.append(dict(kind=CG, name=name, off=dst, goff=src, mask=mask, group=group, zero=0, predicted=predict(r)))


def unit(G, S, sec=None, ss=None):
    """a whole pair of global sector sec of line G to shared sector ss of line S (halves straight or
    swapped), then a half lane on one of its chunks to S at an even distance (another sector)"""
    sec = rnd.randrange(4) if sec is None else sec
    ss = rnd.randrange(4) if ss is None else ss
    swp, h = rnd.randrange(2), rnd.randrange(2)
    pos = 2 * ss + (h ^ swp)  # where the pair writes chunk h
    e = rnd.choice([p for p in range(8) if p // 2 != ss and (p - pos) % 2 == 0])
    pair = [(G + 32 * sec, S + 32 * ss + 16 * swp), (G + 32 * sec + 16, S + 32 * ss + 16 * (1 - swp))]
    return pair, (G + 32 * sec + 16 * h, S + 16 * e)


def lines(n, lo, hi, step=128):
    return [step * x for x in rnd.sample(range(lo, hi), n)]


for i in range(8):
    p, x = unit(*[24576 + g for g in lines(1, 0, 64)], *lines(1, 0, 64))
    add(f'u1_{i}', p + [x], 'U1')
for i in range(8):
    g1, g2 = [24576 + g for g in lines(2, 0, 64)]
    s1, s2 = lines(2, 0, 64)
    p1, x1 = unit(g1, s1)
    p2, x2 = unit(g2, s2)
    add(f'u2l_{i}', p1 + p2 + [x1, x2], 'U2l')
for i in range(8):
    g = 24576 + lines(1, 0, 64)[0]
    s1, s2 = lines(2, 0, 64)
    a, b = rnd.sample(range(4), 2)
    p1, x1 = unit(g, s1, a)
    p2, x2 = unit(g, s2, b)
    add(f'u2g_{i}', p1 + p2 + [x1, x2], 'U2g')
for i in range(8):
    g = 24576 + lines(1, 0, 64)[0]
    s1, s2 = lines(2, 0, 64)
    a = rnd.randrange(4)
    p1, x1 = unit(g, s1, a)
    p2, x2 = unit(g, s2, a)
    add(f'u2c_{i}', p1 + p2 + [x1, x2], 'U2c')
for i in range(8):
    g1, g2 = [24576 + g for g in lines(2, 0, 64)]
    s = lines(1, 0, 64)[0]
    a, b = rnd.sample(range(4), 2)
    p1, x1 = unit(g1, s, ss=a)
    p2, x2 = unit(g2, s, ss=b)
    add(f'u2s_{i}', p1 + p2 + [x1, x2], 'U2s')
for i in range(8):
    g = 24576 + lines(1, 0, 64)[0]
    ss = lines(3, 0, 64)
    a = rnd.randrange(4)
    us = [unit(g, s, a) for s in ss]
    add(f'u3c_{i}', [c for p, _ in us for c in p] + [x for _, x in us], 'U3c')
for i in range(8):
    g = 24576 + lines(1, 0, 64)[0]
    s1, s2 = lines(2, 0, 64)
    a, b = rnd.sample(range(4), 2)
    p1, x1 = unit(g, s1, a)
    p2, x2 = unit(g, s2, b)
    # a lane of x2's key (same global and shared line, same half, same rotation) reading another chunk
    free = [c for c in range(8) if c // 2 not in (a, b)]
    c = rnd.choice([c for c in free if c % 2 == (x2[0] // 16) % 2])
    mate = (g + 16 * c, s2 + (x2[1] - s2 - (x2[0] - g) + 16 * c) % 128 if True else 0)
    add(f'u2x_{i}', p1 + p2 + [x1, x2, mate], 'U2x')

import predictions as P  # noqa: E402


if __name__ == '__main__':
    open(os.path.join(HERE, 'patterns11.txt'), 'w').write('\n'.join(txt) + '\n')
    json.dump(js, open(os.path.join(HERE, 'patterns11.json'), 'w'), indent=0)
    table = {f"{p['kind']} {p['name']}": p['predicted'] for p in js}
    print(len(txt), 'launches')
    P.write_or_check(__file__, table, '--write-table' in sys.argv)


# ---- PREDICTIONS, written by --write-table before the run: "kind name": {hypothesis: wavefronts} ----
# "cpasync.cg.16 u1_0": {"chunk": 3, "class": 0, "est": 3, "warp": 2}
# "cpasync.cg.16 u1_1": {"chunk": 3, "class": 0, "est": 3, "warp": 2}
# "cpasync.cg.16 u1_2": {"chunk": 3, "class": 0, "est": 3, "warp": 2}
# "cpasync.cg.16 u1_3": {"chunk": 3, "class": 0, "est": 3, "warp": 2}
# "cpasync.cg.16 u1_4": {"chunk": 3, "class": 0, "est": 3, "warp": 2}
# "cpasync.cg.16 u1_5": {"chunk": 3, "class": 0, "est": 3, "warp": 2}
# "cpasync.cg.16 u1_6": {"chunk": 3, "class": 0, "est": 3, "warp": 2}
# "cpasync.cg.16 u1_7": {"chunk": 3, "class": 0, "est": 3, "warp": 2}
# "cpasync.cg.16 u2c_0": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2c_1": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2c_2": {"chunk": 6, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2c_3": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2c_4": {"chunk": 6, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2c_5": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2c_6": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2c_7": {"chunk": 6, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2g_0": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2g_1": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2g_2": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2g_3": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2g_4": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2g_5": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2g_6": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2g_7": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2l_0": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2l_1": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2l_2": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2l_3": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2l_4": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2l_5": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2l_6": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2l_7": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2s_0": {"chunk": 4, "class": 0, "est": 4, "warp": 3}
# "cpasync.cg.16 u2s_1": {"chunk": 4, "class": 0, "est": 4, "warp": 3}
# "cpasync.cg.16 u2s_2": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2s_3": {"chunk": 4, "class": 0, "est": 4, "warp": 3}
# "cpasync.cg.16 u2s_4": {"chunk": 2, "class": 1, "est": 2, "warp": 2}
# "cpasync.cg.16 u2s_5": {"chunk": 4, "class": 0, "est": 4, "warp": 3}
# "cpasync.cg.16 u2s_6": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2s_7": {"chunk": 4, "class": 0, "est": 4, "warp": 3}
# "cpasync.cg.16 u2x_0": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2x_1": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2x_2": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2x_3": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2x_4": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2x_5": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2x_6": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u2x_7": {"chunk": 5, "class": 0, "est": 6, "warp": 4}
# "cpasync.cg.16 u3c_0": {"chunk": 8, "class": 0, "est": 9, "warp": 6}
# "cpasync.cg.16 u3c_1": {"chunk": 8, "class": 0, "est": 9, "warp": 6}
# "cpasync.cg.16 u3c_2": {"chunk": 9, "class": 0, "est": 9, "warp": 6}
# "cpasync.cg.16 u3c_3": {"chunk": 8, "class": 0, "est": 9, "warp": 6}
# "cpasync.cg.16 u3c_4": {"chunk": 8, "class": 0, "est": 9, "warp": 6}
# "cpasync.cg.16 u3c_5": {"chunk": 8, "class": 0, "est": 9, "warp": 6}
# "cpasync.cg.16 u3c_6": {"chunk": 8, "class": 0, "est": 9, "warp": 6}
# "cpasync.cg.16 u3c_7": {"chunk": 9, "class": 0, "est": 9, "warp": 6}
