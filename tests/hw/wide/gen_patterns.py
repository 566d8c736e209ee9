#!/usr/bin/env python3
"""gen_patterns.py: the address patterns measured on the H100 (8- and 16-byte shared loads and
stores).  Writes patterns.h (per-pattern lane byte offsets + active masks, for wide.cu) and
patterns.json (the same, with names and descriptions, for the CSV).

Every pattern is a list of 32 byte offsets into a 32 KB shared buffer (16-byte aligned) and an
active mask.  Each pattern is measured as a load (LDS.64 / LDS.128) and as a store (STS.64 /
STS.128) of its width, one warp, one block, one request."""
import json, sys

PATS = []   # (name, width, mask, offs[32], formula)


def add(name, width, f, mask=0xFFFFFFFF, formula=None, base=0, byte=False):
    offs = []
    for l in range(32):
        v = f(l)
        a = base + (v if byte else v * width)
        assert a % width == 0 and 0 <= a and a + width <= 32768, (name, l, a)
        offs.append(a)
    for p in PATS:
        assert p[0] != name, name
    PATS.append((name, width, mask, offs, formula or name))


def rank_of(mask):
    """lane -> rank among active lanes (compact index)"""
    r, out = 0, {}
    for l in range(32):
        if mask >> l & 1:
            out[l] = r
            r += 1
        else:
            out[l] = 0
    return out


for W in (8, 16):
    p = 'd' if W == 8 else 'q'     # d = 8-byte (double), q = 16-byte (float4)
    E = 128 // W                   # elements per 128-byte bank sweep
    # ---- controls (existing measurements) ---------------------------------------------
    add(f'{p}_tid', W, lambda l: l, formula='arr[l]')
    add(f'{p}_zero', W, lambda l: 0, formula='arr[0]')
    add(f'{p}_tid_div2', W, lambda l: l >> 1, formula='arr[l/2]')
    add(f'{p}_tid_x2', W, lambda l: 2 * l, formula='arr[2l]')
    if W == 8:
        add('d_tid_x16', 8, lambda l: 16 * l, formula='arr[16l]')
        add('d_tid_x17', 8, lambda l: 17 * l, formula='arr[17l]')
        add('d_halfswap', 8, lambda l: 2 * l if l < 16 else 2 * (l - 16) + 1,
            formula='arr[l<16 ? 2l : 2(l-16)+1]')
        add('d_quarter', 8, lambda l: (l % 8) * 16 + l // 8, formula='arr[(l%8)*16 + l/8]')
        add('d_bcast4', 8, lambda l: (l // 4) * 8, formula='arr[(l/4)*8]')
    else:
        add('q_tid_x8', 16, lambda l: 8 * l, formula='arr[8l]')
        add('q_tid_x3', 16, lambda l: (3 * l) % 128, formula='arr[(3l)%128]')
        add('q_tid_x9', 16, lambda l: 9 * l, formula='arr[9l]')
    # ---- halves identical ----------------------------------------------------------------
    add(f'{p}_mod16', W, lambda l: l % 16, formula='arr[l%16]')
    add(f'{p}_mod8', W, lambda l: l % 8, formula='arr[l%8]')
    add(f'{p}_mod4', W, lambda l: l % 4, formula='arr[l%4]')
    add(f'{p}_mod2', W, lambda l: l % 2, formula='arr[l%2]')
    add(f'{p}_mod16_x2', W, lambda l: (l % 16) * 2, formula='arr[(l%16)*2]')
    add(f'{p}_mod16_xE', W, lambda l: (l % 16) * E, formula=f'arr[(l%16)*{E}]')
    add(f'{p}_mod16_div2', W, lambda l: (l % 16) >> 1, formula='arr[(l%16)/2]')
    add(f'{p}_mod8_rows', W, lambda l: (l % 8) + E * ((l % 16) // 8),
        formula=f'arr[l%8 + {E}*((l%16)/8)]')
    # ---- halves disjoint -----------------------------------------------------------------
    add(f'{p}_h1_plus2E', W, lambda l: (l % 16) + (2 * E) * (l // 16) if W == 8 else (l % 16) + 32 * (l // 16),
        formula='half 1 = half 0 + 256 B (same banks, other words)')
    add(f'{p}_mod8_halfdisj', W, lambda l: (l % 8) + 8 * (l // 16),
        formula='arr[l%8 + 8*(l/16)] (pairs l,l^8 in a half; halves disjoint)')
    add(f'{p}_h0u0_h1u1', W, lambda l: 0 if l < 16 else 1, formula='half0 arr[0], half1 arr[1]')
    add(f'{p}_h0u0_h1uE', W, lambda l: 0 if l < 16 else E, formula=f'half0 arr[0], half1 arr[{E}] (same bank)')
    add(f'{p}_h0u0_h1tid', W, lambda l: 0 if l < 16 else (l - 16) + 1,
        formula='half0 arr[0], half1 arr[l-15]')
    add(f'{p}_h0u0_h1div2', W, lambda l: 0 if l < 16 else (l >> 1),
        formula='half0 arr[0], half1 arr[l/2]')
    add(f'{p}_h0u0_h1u0_l31', W, lambda l: 1 if l == 31 else 0, formula='arr[0], lane 31 arr[1]')
    add(f'{p}_h0u0_h1u0_l15', W, lambda l: 1 if l == 15 else 0, formula='arr[0], lane 15 arr[1]')
    add(f'{p}_u0_l30_31', W, lambda l: 1 if l >= 30 else 0, formula='arr[0], lanes 30,31 arr[1]')
    add(f'{p}_u0_l29_31', W, lambda l: 1 if l in (29, 31) else 0, formula='arr[0], lanes 29,31 arr[1]')
    # ---- partly shared halves ------------------------------------------------------------
    for k in (1, 4, 8, 12):
        if W == 16 and k > 8:
            continue
        add(f'{p}_h1_shift{k}', W, lambda l, k=k: (l % 16) + k * (l // 16),
            formula=f'arr[l%16 + {k}*(l/16)]')
    add(f'{p}_h1_half_same', W, lambda l: l % 16 if (l < 16 or l % 2 == 0) else l,
        formula='half1 even lanes as half0, odd lanes own words')
    # ---- pairs of lanes on one word --------------------------------------------------------
    add(f'{p}_pair_x2', W, lambda l: ((l >> 2) << 1) | (l & 1), formula='pairs (l,l^2)')
    add(f'{p}_pair_x4', W, lambda l: ((l >> 3) << 2) | (l & 3), formula='pairs (l,l^4)')
    add(f'{p}_pair_x8', W, lambda l: ((l >> 4) << 3) | (l & 7), formula='pairs (l,l^8)')
    add(f'{p}_pair_x3', W, lambda l: (l >> 2) * 2 + (0 if (l & 3) in (0, 3) else 1), formula='pairs (l,l^3)')
    add(f'{p}_pair_x1x2mix', W, lambda l: (l >> 1) if l < 16 else 8 + (((l - 16) >> 2) << 1 | (l & 1)),
        formula='half0 pairs (l,l^1), half1 pairs (l,l^2)')
    add(f'{p}_pair_x1_broken', W, lambda l: (l >> 1) if l < 30 else 14 + (l - 30),
        formula='pairs (l,l^1) for lanes 0-29; lane 30 arr[14], lane 31 arr[15]')
    add(f'{p}_pair_x1_broken0', W, lambda l: 16 if l == 0 else (l >> 1),
        formula='pairs (l,l^1) but lane 0 distinct')
    add(f'{p}_quad', W, lambda l: l >> 2, formula='arr[l/4]')
    add(f'{p}_oct', W, lambda l: l >> 3, formula='arr[l/8]')
    add(f'{p}_div16', W, lambda l: l >> 4, formula='arr[l/16]')
    add(f'{p}_pair_x1_x2', W, lambda l: (l >> 1) * 2, formula='arr[(l/2)*2] (pairs, 2-way)')
    add(f'{p}_pair_x1_xE', W, lambda l: (l >> 1) * E, formula=f'arr[(l/2)*{E}] (pairs, one bank)')
    add(f'{p}_pair_x2_x2', W, lambda l: (((l >> 2) << 1) | (l & 1)) * 2, formula='pairs (l,l^2), 2-way')
    add(f'{p}_pair_x1_rev', W, lambda l: 15 - (l >> 1), formula='arr[15 - l/2]')
    add(f'{p}_pair_x1_h1rows', W, lambda l: (l >> 1) if l < 16 else (l >> 1) + 2 * E - 8,
        formula='pairs (l,l^1); half 1 at the same banks as half 0')
    # ---- broadcast within a half ------------------------------------------------------------
    add(f'{p}_h0bc_h1tid', W, lambda l: 0 if l < 16 else l, formula='half0 arr[0], half1 arr[l]')
    add(f'{p}_h0tid_h1bc', W, lambda l: l if l < 16 else 0, formula='half0 arr[l], half1 arr[0]')
    add(f'{p}_h0bc_h1bcE2', W, lambda l: 0 if l < 16 else 2 * E, formula=f'half0 arr[0], half1 arr[{2*E}]')
    add(f'{p}_qbc_rows', W, lambda l: (l >> 3) * E, formula=f'arr[(l/8)*{E}] (quarter broadcast, one bank)')
    # ---- conflicts inside a half ---------------------------------------------------------------
    add(f'{p}_h0conf_h1free', W, lambda l: 2 * l if l < 16 else 64 + (l - 16),
        formula='half0 arr[2l] (2-way), half1 arr[64+l-16]')
    add(f'{p}_mod16_x2_pairs', W, lambda l: ((l % 16) >> 1) * 2, formula='arr[((l%16)/2)*2]')
    # ---- partial warps ---------------------------------------------------------------------------
    add(f'{p}_m_lo16_tid', W, lambda l: l, 0x0000FFFF, 'arr[l], lanes 0-15')
    add(f'{p}_m_hi16_tid', W, lambda l: l, 0xFFFF0000, 'arr[l], lanes 16-31')
    add(f'{p}_m_lo8_tid', W, lambda l: l, 0x000000FF, 'arr[l], lanes 0-7')
    add(f'{p}_m_q02_tid', W, lambda l: l, 0x00FF00FF, 'arr[l], lanes 0-7,16-23')
    add(f'{p}_m_q01_mod8', W, lambda l: l % 8, 0x0000FFFF, 'arr[l%8], lanes 0-15')
    add(f'{p}_m_one', W, lambda l: 0, 0x00000001, 'arr[0], lane 0')
    add(f'{p}_m_0_16_same', W, lambda l: 0, 0x00010001, 'arr[0], lanes 0,16')
    add(f'{p}_m_0_16_diff', W, lambda l: l >> 4, 0x00010001, 'arr[l/16], lanes 0,16')
    add(f'{p}_m_0_1_diff', W, lambda l: l, 0x00000003, 'arr[l], lanes 0,1')
    add(f'{p}_m_0_8_diff', W, lambda l: l >> 3, 0x00000101, 'arr[l/8], lanes 0,8')
    add(f'{p}_m_even_div2', W, lambda l: l >> 1, 0x55555555, 'arr[l/2], even lanes')
    r = rank_of(0x33333333)
    add(f'{p}_m_33_rank', W, lambda l, r=r: r[l], 0x33333333, 'arr[rank], lanes 0,1,4,5,...')
    r = rank_of(0x0F0F0F0F)
    add(f'{p}_m_0f_rank', W, lambda l, r=r: r[l], 0x0F0F0F0F, 'arr[rank], lanes 0-3,8-11,...')
    r = rank_of(0x00FF00FF)
    add(f'{p}_m_q02_rank', W, lambda l, r=r: r[l], 0x00FF00FF, 'arr[rank], lanes 0-7,16-23')
    add(f'{p}_m_not0_div2', W, lambda l: l >> 1, 0xFFFFFFFE, 'arr[l/2], lane 0 off')
    add(f'{p}_m_lo16_div2', W, lambda l: l >> 1, 0x0000FFFF, 'arr[l/2], lanes 0-15')
    add(f'{p}_m_lo16_x2', W, lambda l: 2 * l, 0x0000FFFF, 'arr[2l], lanes 0-15')
    add(f'{p}_m_odd_tid', W, lambda l: l, 0xAAAAAAAA, 'arr[l], odd lanes')

# ---- llm.c matmul_forward_kernel4 (dev/cuda/matmul_forward.cu), block 16x16 -------------
# lhs_s[128][32] at byte 0, rhs_s[128][32] at byte 16384 (floats).  Warp w holds
# ty = 2w + lane/16, tx = lane%16; si = 4*(16*ty+tx) + 4*k, si%32 = 4*((lane+k)%8).
def llmc(kind, w, k, sub):
    def f(l):
        ty, tx = 2 * w + l // 16, l % 16
        col = (4 * (16 * ty + tx) + 4 * k) % 32
        if kind == 'lhs':
            return ((sub + 8 * tx) * 32 + col) * 4
        return 16384 + ((sub + 8 * ty) * 32 + col) * 4
    return f


for kind in ('lhs', 'rhs'):
    for (w, k, sub) in ((0, 0, 0), (0, 3, 5), (1, 0, 0), (3, 7, 7)):
        add(f'llmc_{kind}_w{w}_k{k}_{"ii" if kind == "lhs" else "u"}{sub}', 16, llmc(kind, w, k, sub),
            formula=(f'llm.c kernel4 {kind}_s[{"ii+8*tx" if kind == "lhs" else "u+8*ty"}][si%32], '
                     f'warp {w}, k={k}, {"ii" if kind == "lhs" else "u"}={sub}'), byte=True)


# ---- random patterns (fixed seed): sharing, conflicts and masks mixed ------------------------
import random
rng = random.Random(20261123)
for W in (8, 16):
    p = 'd' if W == 8 else 'q'
    E = 128 // W
    for i in range(20):
        kind = ['free', 'free', 'free', 'pair1', 'pair2'][i % 5]
        pool = rng.choice([4, 8, 16, 24, 48, 96])          # distinct elements to draw from
        offs = [rng.randrange(pool) for _ in range(32)]
        if kind == 'pair1':
            offs = [offs[l & ~1] for l in range(32)]
        elif kind == 'pair2':
            offs = [offs[l & ~2] for l in range(32)]
        mask = 0xFFFFFFFF if i % 3 else rng.getrandbits(32) | 1
        add(f'{p}_rand{i:02d}_{kind}_pool{pool}', W, lambda l, o=offs: o[l], mask,
            f'random ({kind}, elements 0..{pool-1}, seed 20261123 #{i})')

# store-value variants: all lanes store the same bits (tests whether stores look at data)
SAME = ['d_zero', 'd_tid_div2', 'd_mod16', 'q_zero', 'q_tid_div2', 'q_mod8', 'q_mod16']

if __name__ == '__main__':
    out = sys.argv[1] if len(sys.argv) > 1 else '.'
    with open(f'{out}/patterns.h', 'w') as h:
        h.write('// generated by gen_patterns.py: do not edit\n')
        h.write(f'#define NPAT {len(PATS)}\n')
        h.write('static const int pat_width[NPAT] = {%s};\n' % ','.join(str(p[1]) for p in PATS))
        h.write('static const unsigned pat_mask[NPAT] = {%s};\n' % ','.join('0x%08xu' % p[2] for p in PATS))
        h.write('static const char *pat_name[NPAT] = {%s};\n' % ','.join('"%s"' % p[0] for p in PATS))
        h.write('static const unsigned short pat_off[NPAT][32] = {\n')
        for p in PATS:
            h.write('  {%s},\n' % ','.join(str(a) for a in p[3]))
        h.write('};\n')
        h.write('static const char *same_names[] = {%s};\n' % ','.join('"%s"' % s for s in SAME))
        h.write(f'#define NSAME {len(SAME)}\n')
    json.dump([dict(name=p[0], width=p[1], mask=p[2], offs=p[3], formula=p[4]) for p in PATS],
              open(f'{out}/patterns.json', 'w'), indent=0)
    print(len(PATS), 'patterns', sum(p[1] == 8 for p in PATS), 'of 8 B', sum(p[1] == 16 for p in PATS), 'of 16 B')
