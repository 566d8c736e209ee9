#!/usr/bin/env python3
"""gen_patterns2.py: the second device run's patterns (patterns2.txt / patterns2.json): held-out
random cases for the ldmatrix/stmatrix and cp.async.ca rules (each row carries the rule's
prediction, written before the run), and cp.async.cg cases built to find its rule (one or two
global 32-byte sectors, their lanes' destinations moved about)."""
import json, random, sys

sys.argv = sys.argv[:1]
import gen_patterns as g

g.PATS.clear()
g.NAMES.clear()
rnd = random.Random(20261123)
NB = g.NB
# held-out ldmatrix / stmatrix: random rows (in 1 KB, 4 KB and the whole buffer), random swizzled tiles
for kind, n in (('ldsm.x4', 16), ('stsm.x4', 10), ('ldsm.x2', 8), ('stsm.x1', 6), ('ldsm.x1.trans', 4),
                ('stsm.x2.trans', 4), ('ldsm.x4.trans', 4)):
    for i in range(n):
        span = (64, 256, 3072)[i % 3]
        g.add(kind, f'heldout{i}', [rnd.randrange(0, span) * 16 for _ in range(32)], f'random rows in {span * 16} B')
    for i in range(3):
        stride = rnd.choice((48, 80, 96, 112, 160, 176, 208, 320, 400))
        arr = rnd.choice(list(g.ARR))
        sw = rnd.choice(g.SWZ)
        g.add(kind, f'heldout_tile{i}', g.tile(arr, stride, base=16 * rnd.randrange(0, 64), sw=sw),
              f'{arr}, stride {stride}, Swizzle<{sw}>, random base')
# held-out cp.async.ca: random destinations with random (mixed-line) sources, duplicates
for S in (4, 8, 16):
    kind = f'cpasync.ca.{S}'
    for i in range(6):
        dst = [rnd.randrange(0, 512 // S) * S for _ in range(32)]          # within 512 B: duplicates
        src = [rnd.randrange(0, 1024 // S) * S for _ in range(32)]         # 8 global lines
        mask = rnd.choice((0xFFFFFFFF, 0xFFFFFFFF, 0x0F0F0F0F, 0x7FFFFFFE))
        g.add(kind, f'heldout{i}', dst, 'random destinations in 512 B, sources in 1 KB', goff=src, mask=mask)
    for i in range(3):
        dst = [l * S for l in range(32)]
        src = [(l % 4) * 256 + (l // 4) * S for l in range(32)]
        if i == 1:
            src = [rnd.randrange(0, 4096 // S) * S for _ in range(32)]
        if i == 2:
            src = [(l // 2) * 128 + (l % 2) * S for l in range(32)]
        g.add(kind, f'heldout_src{i}', dst, 'consecutive destinations, sources spread', goff=src)
# cp.async.cg: one sector (lanes 0, 1), two sectors (lanes 0-3), one line (lanes 0-7)
CG = 'cpasync.cg.16'
for a, b in ((0, 16), (16, 0), (0, 32), (0, 48), (16, 32), (16, 48), (0, 64), (0, 80), (0, 128), (0, 144),
             (32, 48), (48, 32), (0, 0), (64, 16), (128, 16)):
    g.add(CG, f'pair_{a}_{b}', [a, b] + [0] * 30, f'lanes 0, 1 (one global sector) to {a}, {b}', mask=0x3)
for name, d in (('two_whole_sameline', [0, 16, 32, 48]), ('two_whole_twolines', [0, 16, 128, 144]),
                ('two_whole_swapped', [16, 0, 48, 32]), ('whole_split', [0, 16, 64, 96]),
                ('split_split', [0, 32, 64, 96]), ('split_split_far', [0, 256, 512, 768]),
                ('whole_crossed', [0, 48, 16, 32]), ('two_whole_4k', [0, 16, 4096, 4112]),
                ('split_x3', [0, 48, 96, 144]), ('whole_64b_gap', [0, 16, 64, 80]),
                ('pairs_interleaved', [0, 32, 16, 48]), ('same_pair_twice', [0, 16, 0, 16])):
    g.add(CG, f'{name}', d + [0] * 28, f'lanes 0-3 (two global sectors) to {d}', mask=0xF)
for name, d in (('line_x1', [16 * l for l in range(8)]), ('line_x2', [32 * l for l in range(8)]),
                ('line_x3', [48 * l for l in range(8)]), ('line_pairs_spread', [0, 16, 128, 144, 256, 272, 384, 400]),
                ('line_singles_sameline', [0, 32, 64, 96, 16, 48, 80, 112]),
                ('line_x1_rev', [16 * (7 - l) for l in range(8)])):
    g.add(CG, f'{name}', d + [0] * 24, f'lanes 0-7 (one global line) to {d}', mask=0xFF)
# the same destinations with .ca, to compare
for p in [p for p in g.PATS if p['kind'] == CG]:
    g.add('cpasync.ca.16', 'cmp_' + p['name'], p['off'], p['desc'] + ' (.ca)', goff=p['goff'], mask=p['mask'])



def rule_cp(S, off, goff, mask):
    """the cp.async rule of src/model/matrix.c (docs/bank-model.md), written before this run"""
    per = 32 // max(1, S // 4)
    wf = 0
    for p0 in range(0, 32, per):
        L = [l for l in range(p0, p0 + per) if mask >> l & 1]
        groups = {}
        for l in L:
            groups.setdefault(goff[l] // 128, []).append(l)
        for G in groups.values():
            banks = {}
            for l in G:
                for k in range(max(1, S // 4)):
                    w = off[l] // 4 + k
                    banks[w % 32] = banks.get(w % 32, 0) + 1
            wf += max(banks.values())
    return wf


for p in g.PATS:
    if p['kind'].startswith('cpasync'):
        p['rule_wavefronts'] = rule_cp(int(p['kind'].split('.')[2]), p['off'], p['goff'], p['mask'])
    else:
        p['rule_wavefronts'] = p['predicted_wavefronts']

with open('patterns2.txt', 'w') as f:
    for p in g.PATS:
        f.write(f"{p['kind']} {p['name']} {' '.join(map(str, p['off']))} {' '.join(map(str, p['goff']))} {p['mask']:08x}\n")
json.dump(g.PATS, open('patterns2.json', 'w'), indent=0)
kinds = {}
for p in g.PATS:
    kinds[p['kind']] = kinds.get(p['kind'], 0) + 1
print(len(g.PATS), kinds)
