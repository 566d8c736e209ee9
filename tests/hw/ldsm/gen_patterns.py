#!/usr/bin/env python3
"""gen_patterns.py: the address patterns measured on the H100 for ldmatrix, stmatrix and cp.async.
Writes patterns.txt (for ldsm.cu: kind name off[32] goff[32] mask) and patterns.json (the same with
a description and the prediction written down before the measurement, hypothesis H1 below).

Shared offsets are byte offsets into a 48 KB buffer aligned to 1024 bytes.
ldmatrix/stmatrix: lane l supplies the row address off[l] (16-byte aligned); for .x1 only lanes
0-7 are used by the ISA, .x2 lanes 0-15, .x4 all 32 (the unused lanes' addresses are varied too).
H1 (prediction): each 8x8 matrix (8 rows of 16 bytes, lanes 8m..8m+7) is one pass; a pass costs the
largest number of distinct 4-byte words any bank must deliver for its rows.
cp.async: lane l (mask) copies S bytes from global goff[l] to shared off[l]. H1: the wide-store
rule of tests/hw/wide/RULE.md (S=4: one pass of 32 lanes, 8: 16+16, 16: 8x4)."""
import json, random

NB = 48 * 1024
PATS = []
NAMES = set()


def swz(off, B, M, S):
    """CuTe Swizzle<B,M,S> on a byte offset: bits [M+S, M+S+B) xor-ed into bits [M, M+B)."""
    if B == 0:
        return off
    ymask = ((1 << B) - 1) << (M + S)
    return off ^ ((off & ymask) >> S)


def cost_pass(addrs, width):
    banks = {}
    for a in addrs:
        for k in range(max(1, width // 4)):
            w = a // 4 + k
            banks.setdefault(w % 32, set()).add(w)
    return max(len(s) for s in banks.values()) if banks else 0


def predict_mat(kind, offs):
    x = int(kind.split('.')[1][1])
    return sum(cost_pass(offs[8 * m:8 * m + 8], 16) for m in range(x))


def predict_cp(S, offs, mask):
    passes = max(1, S // 4)
    per = 32 // passes
    wf = 0
    for p in range(passes):
        L = [offs[l] for l in range(p * per, (p + 1) * per) if mask >> l & 1]
        if L:
            wf += cost_pass(L, S)
    return wf


def add(kind, name, offs, desc, goff=None, mask=0xFFFFFFFF):
    name = name.replace(' ', '_')
    assert (kind, name) not in NAMES, (kind, name)
    NAMES.add((kind, name))
    assert len(offs) == 32
    if kind.startswith('cpasync'):
        S = int(kind.split('.')[2])
        for l in range(32):
            assert offs[l] % S == 0 and 0 <= offs[l] and offs[l] + S <= NB, (name, l, offs[l])
        goff = goff or [l * S for l in range(32)]
        pred = predict_cp(S, offs, mask)
    else:
        for l in range(32):
            assert offs[l] % 16 == 0 and 0 <= offs[l] and offs[l] + 16 <= NB, (kind, name, l, offs[l])
        goff = goff or [0] * 32
        pred = predict_mat(kind, offs)
    PATS.append(dict(kind=kind, name=name, off=list(offs), goff=list(goff), mask=mask, desc=desc,
                     predicted_wavefronts=pred))


# ---- lane -> (row, 16-byte chunk) arrangements ----------------------------------------------
ARR = {
    'rows': (lambda l: (l, 0), 'lane l: row l, chunk 0 (32 consecutive rows)'),
    'afrag': (lambda l: (l % 16, l // 16), 'lane l: row l%16, chunk l/16 (mma A fragment, m16k16)'),
    'bfrag': (lambda l: (l % 8 + 8 * (l // 16), (l // 8) % 2), 'lane l: row l%8+8(l/16), chunk (l/8)%2 (B fragment pair)'),
    'chunks': (lambda l: (l % 8, l // 8), 'lane l: row l%8, chunk l/8 (one 8-row band, 4 chunks)'),
}


def tile(arr, stride, base=0, sw=(0, 4, 3), chunk0=0):
    f = ARR[arr][0]
    out = []
    for l in range(32):
        r, c = f(l)
        out.append(base + swz(r * stride + (c + chunk0) * 16, *sw))
    return out


STRIDES = [16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 192, 256, 272, 384, 512, 528, 1024]
SWZ = [(1, 4, 3), (2, 4, 3), (3, 4, 3), (2, 4, 2), (3, 4, 4), (2, 4, 4)]


def mat_family(kind, x):
    arrs = ['rows', 'chunks'] + (['afrag', 'bfrag'] if x == 4 else ['afrag'] if x == 2 else [])
    for arr in arrs:
        for s in STRIDES:
            if arr == 'chunks' and s < 64:
                continue
            add(kind, f'{arr}_s{s}', tile(arr, s), f'{ARR[arr][1]}, row stride {s} B')
    # base offsets (placements) on a few strides
    for s in (64, 128, 144):
        for b in (16, 48, 112, 1040):
            add(kind, f'rows_s{s}_b{b}', tile('rows', s, base=b), f'rows, stride {s} B, base +{b} B')
    # swizzles
    for (B, M, S) in SWZ:
        for s in (64, 128, 256):
            for arr in ('rows', 'afrag') if x >= 2 else ('rows',):
                for c0 in (0, 2) if arr == 'rows' else (0,):
                    add(kind, f'{arr}_s{s}_swz{B}{M}{S}_c{c0}', tile(arr, s, sw=(B, M, S), chunk0=c0),
                        f'{ARR[arr][1]}, stride {s} B, chunk +{c0}, Swizzle<{B},{M},{S}> on the byte offset')
    # odd lane addresses
    add(kind, 'all_same', [0] * 32, 'every lane the same row (offset 0)')
    add(kind, 'all_same_1040', [1040] * 32, 'every lane the same row (offset 1040)')
    add(kind, 'pairs_same', [(l // 2) * 16 for l in range(32)], 'lanes 2k, 2k+1 one row, rows 16 B apart')
    add(kind, 'pairs_same_s128', [(l // 2) * 128 for l in range(32)], 'lanes 2k, 2k+1 one row, rows 128 B apart')
    add(kind, 'mats_equal', [(l % 8) * 128 for l in range(32)], 'every matrix the same 8 rows (stride 128)')
    add(kind, 'mats_equal_s16', [(l % 8) * 16 for l in range(32)], 'every matrix the same 8 rows (stride 16)')
    add(kind, 'rev_s16', [(31 - l) * 16 for l in range(32)], 'lane l row 31-l, stride 16')
    add(kind, 'm0_m1_samebank', [(l % 8) * 16 + (l // 8) * 128 for l in range(32)],
        'matrix m: rows m*128 + 16r (matrices on the same banks, other words)')
    add(kind, 'm_stride_s16_b512', [(l % 8) * 16 + (l // 8) * 512 for l in range(32)], 'matrix m at m*512, rows 16 apart')
    add(kind, 'two_rows_alt', [(l % 2) * 128 for l in range(32)], 'two rows 128 B apart, alternating')
    add(kind, 'four_rows_s128', [(l % 4) * 128 for l in range(32)], 'four rows 128 B apart, cycling')
    add(kind, 'half_bank_dup', [(l % 4) * 16 + ((l // 4) % 2) * 128 for l in range(32)],
        'rows at 16r for r<4 and 128+16r: 2-way pairs')
    # unused lanes: the same used lanes, the others pointed at conflicting rows
    if x < 4:
        used = 8 * x
        for arr, s in (('rows', 16), ('rows', 128), ('chunks', 128)):
            if arr == 'chunks' and x == 1:
                continue
            base = tile(arr, s)
            junk = [base[l] if l < used else ((l * 1024) % NB) for l in range(32)]
            add(kind, f'{arr}_s{s}_unused_junk', junk,
                f'{ARR[arr][1]}, stride {s}; lanes {used}-31 point at rows 1024 B apart (32-way if used)')
            z = [base[l] if l < used else 0 for l in range(32)]
            add(kind, f'{arr}_s{s}_unused_zero', z, f'{ARR[arr][1]}, stride {s}; lanes {used}-31 at 0')
    # random rows
    rnd = random.Random(1500 + x)
    for i in range(12):
        add(kind, f'random{i}', [rnd.randrange(0, 3072) * 16 for _ in range(32)], 'random 16-byte-aligned rows')
    for i in range(6):  # random rows inside 1 KB (more sharing)
        add(kind, f'random_1k{i}', [rnd.randrange(0, 64) * 16 for _ in range(32)], 'random rows inside 1 KB')


for op in ('ldsm', 'stsm'):
    for x in (1, 2, 4):
        mat_family(f'{op}.x{x}', x)
# .trans: a subset (the transpose is done in the register crossbar; H1 says cost is unchanged)
TRANS_KEEP = ('rows_s16', 'rows_s64', 'rows_s128', 'rows_s144', 'rows_s272', 'afrag_s64', 'afrag_s128',
              'afrag_s80', 'bfrag_s128', 'chunks_s128', 'rows_s128_swz343_c0', 'afrag_s128_swz343_c0',
              'afrag_s64_swz243_c0', 'all_same', 'pairs_same', 'mats_equal', 'random0', 'random1',
              'random_1k0', 'rows_s64_b16', 'rows_s16_unused_junk')
for p in list(PATS):
    if p['kind'].startswith(('ldsm', 'stsm')) and p['name'] in TRANS_KEEP:
        add(p['kind'] + '.trans', p['name'], p['off'], p['desc'])

# ---- cp.async ------------------------------------------------------------------------------------
def cp_family(kind, S, zf=False):
    for mult in (1, 2, 3, 4, 5, 8, 9, 16, 17, 32, 33):
        st = S * mult
        if 31 * st + S > NB:
            continue
        add(kind, f'lane_x{mult}', [l * st for l in range(32)], f'shared off = lane*{st} B')
    if zf:
        return
    for s in (16, 32, 64, 128, 144, 256):
        if s % S:
            continue
        # a 2D tile: lanes cover (row, chunk) with 128/S chunks... rows of `s` bytes, lane l -> row l//k, chunk l%k
        k = max(1, min(32, 128 // S))
        offs = [(l // k) * s * 8 + (l % k) * S for l in range(32)] if False else None
        offs = [(l // 4) * s + (l % 4) * S for l in range(32)]
        if max(offs) + S <= NB and all(o % S == 0 for o in offs):
            add(kind, f'rows4_s{s}', offs, f'lane l: row l/4 (stride {s} B), element l%4')
    for (B, M, Sh) in ((3, 4, 3), (2, 4, 3)):
        offs = [swz((l // 8) * 128 + (l % 8) * 16 if S == 16 else l * S, B, M, Sh) for l in range(32)]
        add(kind, f'swz{B}{M}{Sh}', offs, f'Swizzle<{B},{M},{Sh}> on lane*{S}/tile')
    add(kind, 'all_same', [0] * 32, 'every lane the same shared destination')
    add(kind, 'goff_scatter', [l * S for l in range(32)], 'shared lane*S, global lanes 1024 B apart',
        goff=[(l * 1024) % 65536 // S * S for l in range(32)])
    add(kind, 'goff_rev', [l * S for l in range(32)], 'shared lane*S, global reversed',
        goff=[(31 - l) * S for l in range(32)])
    for mask, mn in ((0x0000FFFF, 'lo16'), (0x000000FF, 'lo8'), (0x55555555, 'even'), (0x80000001, 'l0l31'),
                     (0x00000001, 'l0')):
        add(kind, f'lane_x1_m{mn}', [l * S for l in range(32)], f'shared lane*{S}, mask {mask:#x}', mask=mask)
        add(kind, f'lane_x32_m{mn}', [l * S * 32 % NB for l in range(32)], f'shared lane*{S*32}, mask {mask:#x}', mask=mask)
    rnd = random.Random(77 + S)
    for i in range(6):
        add(kind, f'random{i}', [rnd.randrange(0, NB // S) * S for _ in range(32)], 'random aligned destinations')


cp_family('cpasync.ca.4', 4)
cp_family('cpasync.ca.8', 8)
cp_family('cpasync.ca.16', 16)
cp_family('cpasync.cg.16', 16)
cp_family('cpasync.ca.16.zfill', 16, zf=True)
cp_family('cpasync.ca.4.zfill', 4, zf=True)

if __name__ == '__main__':
    with open('patterns.txt', 'w') as f:
        for p in PATS:
            f.write(f"{p['kind']} {p['name']} {' '.join(map(str, p['off']))} {' '.join(map(str, p['goff']))} {p['mask']:08x}\n")
    json.dump(PATS, open('patterns.json', 'w'), indent=0)
    kinds = {}
    for p in PATS:
        kinds[p['kind']] = kinds.get(p['kind'], 0) + 1
    print(len(PATS), kinds)
