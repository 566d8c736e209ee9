#!/usr/bin/env python3
"""gen_patterns2.py: the held-out set of the second device call.  Random patterns drawn with
structures that stress the rule found from the first set (pairs of lanes l,l^1 / l,l^2 intact or
broken by one lane, quads, octets, identical halves, partners l,l^8, masks that keep one lane of
each pair), plus a few 4-byte controls.  The rule's prediction is stored with each pattern
before it is measured.  Writes patterns2.h and patterns2.json."""
import json, random, sys
sys.path.insert(0, sys.argv[2] if len(sys.argv) > 2 else '.')
from rules import rule_wide, rule_wide_conflicts, model_banks_c, worst_bank

PATS = []


def add(name, width, offs, mask, formula):
    assert all(a % width == 0 and 0 <= a and a + width <= 32768 for a in offs), name
    a = {l: offs[l] for l in range(32) if mask >> l & 1}
    pred = {}
    for op in ('ld', 'st'):
        if width <= 4:
            pred[op] = [worst_bank(a, list(a), width), worst_bank(a, list(a), width) - 1]
        else:
            pred[op] = [rule_wide(width, op, a), rule_wide_conflicts(width, op, a)]
    PATS.append(dict(name=name, width=width, mask=mask, offs=offs, formula=formula, pred=pred,
                     model_ld=model_banks_c(width, 'ld', a) if width > 4 else None))


rng = random.Random(777001)
STRUCT = ['free', 'pair1', 'pair2', 'pair1_break', 'pair2_break', 'quad', 'halfsame', 'halfsame_break',
          'oct', 'x8pair', 'x4pair', 'pair1_pair2_halves']
for W in (8, 16):
    p = 'd' if W == 8 else 'q'
    E = 128 // W
    for i in range(96):
        st = STRUCT[i % len(STRUCT)]
        npool = rng.choice([1, 2, 3, 4, 6, 8, 12, 16, 24, 32])
        stride = rng.choice([1, 1, 1, 2, 3, E, E + 1, 2 * E])
        base = rng.randrange(4) 
        pool = [base + k * stride for k in range(npool)]
        o = [rng.choice(pool) for _ in range(32)]
        if st in ('pair1', 'pair1_break'):
            o = [o[l & ~1] for l in range(32)]
        if st in ('pair2', 'pair2_break'):
            o = [o[l & ~2] for l in range(32)]
        if st == 'quad':
            o = [o[l & ~3] for l in range(32)]
        if st == 'oct':
            o = [o[l & ~7] for l in range(32)]
        if st in ('halfsame', 'halfsame_break'):
            o = [o[l & 15] for l in range(32)]
        if st == 'x8pair':
            o = [o[l & ~8] for l in range(32)]
        if st == 'x4pair':
            o = [o[l & ~4] for l in range(32)]
        if st == 'pair1_pair2_halves':
            o = [o[l & ~1] if l < 16 else o[l & ~2] for l in range(32)]
        if st.endswith('_break'):
            l = rng.randrange(32)
            o[l] = rng.choice([x for x in pool + [base + npool * stride] if x != o[l]])
        r = rng.random()
        if r < 0.6:
            mask = 0xFFFFFFFF
        elif r < 0.75:
            mask = rng.getrandbits(32) | 1
        elif r < 0.85:   # one lane of each (l, l^1) or (l, l^2) pair
            x = rng.choice([1, 2])
            mask = 0
            for l in range(32):
                if not (l & x) and rng.random() < 0.9:
                    mask |= 1 << (l | (x if rng.random() < 0.5 else 0))
            mask = mask or 1
        else:
            mask = rng.choice([0x0000FFFF, 0xFFFF0000, 0x00FF00FF, 0xFF00FF00, 0x0F0F0F0F, 0x000000FF,
                               0x0000FF00, 0xFF000000, 0x33333333, 0x55555555, 0x11111111, 0x80000001])
        offs = [x * W for x in o]
        add(f'{p}2_{i:03d}_{st}', W, offs, mask,
            f'random #{i} {st}: {npool} elements base {base} stride {stride}, mask 0x{mask:08x}, seed 777001')

# ---- targeted: 16-byte pairs l,l^2: which lanes make up each half-pass ----------------------
# pair classes c = (l>>2)*2 + (l&1) (0..15); lanes 0-15 hold classes 0-7
for nm, f in (('q2_x2grp_a', lambda c: c if c < 8 else c + 8),      # halves: 1+1; other groupings conflict
              ('q2_x2grp_b', lambda c: (c % 4) + 8 * (c // 4)),     # classes 0-3 / 4-7 same banks
              ('q2_x2grp_c', lambda c: [0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15][c])):
    offs = [f((l >> 2) * 2 + (l & 1)) * 16 for l in range(32)]
    add(nm, 16, offs, 0xFFFFFFFF, 'pairs (l,l^2), class c=(l>>2)*2+(l&1) -> element ' + nm[-1])
for nm, f in (('q2_x1grp_b', lambda c: (c % 4) + 8 * (c // 4)),
              ('q2_x1grp_c', lambda c: [0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15][c])):
    offs = [f(l >> 1) * 16 for l in range(32)]
    add(nm, 16, offs, 0xFFFFFFFF, 'pairs (l,l^1), class c=l>>1 -> element ' + nm[-1])

# ---- 4-byte controls: lanes sharing words across halves / pairs never matter ----------------
for nm, f in (('i2_mod16', lambda l: l % 16), ('i2_mod8', lambda l: l % 8), ('i2_mod16_x32', lambda l: (l % 16) * 32),
              ('i2_div2_x32', lambda l: (l >> 1) * 32), ('i2_x8pair', lambda l: ((l >> 4) << 3) | (l & 7)),
              ('i2_tid_x2', lambda l: 2 * l), ('i2_zero', lambda l: 0), ('i2_h0u0_h1tid', lambda l: 0 if l < 16 else l)):
    add(nm, 4, [f(l) * 4 for l in range(32)], 0xFFFFFFFF, nm[3:])

SAME = ['q2_x2grp_a', 'd2_001_pair1', 'q2_001_pair1', 'd2_005_quad', 'q2_005_quad']

if __name__ == '__main__':
    out = sys.argv[1] if len(sys.argv) > 1 else '.'
    with open(f'{out}/patterns2.h', 'w') as h:
        h.write('// generated by gen_patterns2.py: do not edit\n')
        h.write(f'#define NPAT {len(PATS)}\n')
        h.write('static const int pat_width[NPAT] = {%s};\n' % ','.join(str(p['width']) for p in PATS))
        h.write('static const unsigned pat_mask[NPAT] = {%s};\n' % ','.join('0x%08xu' % p['mask'] for p in PATS))
        h.write('static const char *pat_name[NPAT] = {%s};\n' % ','.join('"%s"' % p['name'] for p in PATS))
        h.write('static const unsigned short pat_off[NPAT][32] = {\n')
        for p in PATS:
            h.write('  {%s},\n' % ','.join(str(a) for a in p['offs']))
        h.write('};\n')
        h.write('static const char *same_names[] = {%s};\n' % ','.join('"%s"' % s for s in SAME))
        h.write(f'#define NSAME {len(SAME)}\n')
    json.dump(PATS, open(f'{out}/patterns2.json', 'w'), indent=0)
    n = len(PATS)
    diff = sum(1 for p in PATS if p['width'] > 4 and p['model_ld'] != p['pred']['ld'][0])
    print(n, 'patterns;', diff, 'where the banks.c model and the rule differ on the load')
