#!/usr/bin/env python3
"""gen_patterns4.py: held-out cases for the .cg rules of h100-ldsm3.csv, each with the rule's
prediction (src/model/matrix.c, ported below) written into patterns4.json before the run:
(a) 32 lanes whose every 8-lane pass reads one random 32-byte global sector (lanes on random
    halves of it), destinations random 16-byte chunks of 1 KB: one wavefront per shared sector;
(b) 32 lanes copying whole random sectors (lane pairs on one sector, in either order) to random
    distinct aligned 32-byte shared sectors of 2 KB: the established multi-sector rule.
Writes patterns4.txt and patterns4.json (prediction in 'predicted')."""
import json, os, random

HERE = os.path.dirname(os.path.abspath(__file__))
rnd = random.Random(1504)
out, js = [], []


def worst_w(dst, lanes):
    cnt = {}
    for l in lanes:
        for k in range(4):
            b = (dst[l] // 4 + k) % 32
            cnt[b] = cnt.get(b, 0) + 1
    return max(cnt.values())


def predict(dst, src):
    wf = 0
    for p0 in range(0, 32, 8):
        P = list(range(p0, p0 + 8))
        if len({src[l] // 32 for l in P}) == 1:
            wf += len({dst[l] // 32 for l in P})
            continue
        w = worst_w(dst, P)
        lines = len({src[l] // 128 for l in P})
        secs = sorted({dst[l] // 32 for l in P})
        runs = sum(1 for i, s in enumerate(secs) if i == 0 or s != secs[i - 1] + 1 or s % 4 == 0)
        wf += max(w, lines, runs)
    return wf


def add(name, dst, src):
    out.append(f"cpasync.cg.16 {name} " + " ".join(map(str, dst)) + " " + " ".join(map(str, src)) + " ffffffff")
    js.append(dict(kind='cpasync.cg.16', name=name, off=dst, goff=src, mask=0xffffffff, predicted=predict(dst, src)))


for i in range(30):
    dst, src = [], []
    for p in range(4):
        sec = rnd.randrange(64)
        for l in range(8):
            src.append(32 * sec + 16 * rnd.randrange(2))
            dst.append(16 * rnd.randrange(64))
    add(f'onesec_{i}', dst, src)
for i in range(30):
    secs = rnd.sample(range(64), 16)
    gs = rnd.sample(range(256), 16)
    dst, src = [], []
    for j in range(16):
        swap = rnd.randrange(2)
        for h in range(2):
            dst.append(32 * secs[j] + 16 * (h ^ swap))
            src.append(32 * gs[j] + 16 * h)
    add(f'whole_{i}', dst, src)
open(os.path.join(HERE, 'patterns4.txt'), 'w').write('\n'.join(out) + '\n')
json.dump(js, open(os.path.join(HERE, 'patterns4.json'), 'w'))
print(len(out), 'patterns; predictions:', [p['predicted'] for p in js])
