#!/usr/bin/env python3
"""check_rule.py: checks the wide-access rule of RULE.md (rules.rule_wide) against
  1. every row of h100-wide.csv (this study: one request per row, wavefronts and bank conflicts),
  2. every 8- and 16-byte row of section C of tests/hw/h100-counters.csv (one load per kernel),
  3. every tests/validate kernel that executes an 8- or 16-byte shared instruction (per kernel and
     op: requests and wavefronts against h100-2026-11-22-ncu.csv and, where counted, the H200's),
     each request's lanes and addresses rebuilt from kernels.cu and the SASS (ptxas merges).
For contrast it prints how many the model of src/model/banks.c (rules.model_banks_c) matches.
Usage: python3 check_rule.py [REPO]   (REPO defaults to the repository holding this file)"""
import csv, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rules import model_banks_c, rule_wide, rule_wide_conflicts, sass_metric_ld, worst_bank

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..')


def cost(rule, width, op, addrs):
    """One request, any width: <= 4 bytes is one pass over the warp (its worst bank)."""
    if not addrs:
        return 0
    if width <= 4:
        return worst_bank(addrs, list(addrs), width)
    return rule(width, op, addrs)


# ---------------------------------------------------------------------------------------------
# 1. h100-wide.csv
def check_wide():
    n = ok = okbc = okm = 0
    nw = okw = 0
    for r in csv.DictReader(open(os.path.join(HERE, 'h100-wide.csv'))):
        w, op = int(r['width']), r['op']
        if r['name'].startswith('llmc_matmul_forward_kernel4'):
            reqs = llmc_kernel4_requests(op)
            got = sum(cost(rule_wide, w, op, a) for a in reqs)
            gbc = sum(rule_wide_conflicts(w, op, a) for a in reqs)
            gm = sum(cost(model_banks_c, w, op, a) for a in reqs)
            want, wbc, nreq = int(r['wavefronts']), int(r['bank_conflicts']), int(r['requests'])
            assert nreq == len(reqs), (nreq, len(reqs))
        else:
            mask = int(r['active_mask'], 16)
            offs = r['addresses'].split()
            a = {l: int(offs[l]) for l in range(32) if mask >> l & 1}
            assert int(r['requests']) == 1, r['name']
            got, gbc, gm = rule_wide(w, op, a), rule_wide_conflicts(w, op, a), model_banks_c(w, op, a)
            want, wbc = int(r['wavefronts']), int(r['bank_conflicts'])
        n += 1
        ok += got == want
        okbc += gbc == wbc
        okm += gm == want
        if w >= 8:
            nw += 1
            okw += got == want and gbc == wbc
        if got != want or gbc != wbc:
            print(f'  MISMATCH {r["name"]} {op}: measured {want} (bc {wbc}), rule {got} (bc {gbc})')
    print(f'1. h100-wide.csv: rule matches {ok}/{n} wavefronts, {okbc}/{n} bank-conflict counts '
          f'({okw}/{nw} rows of 8/16 bytes, the rest 4-byte controls); banks.c model matches {okm}/{n} wavefronts')
    return ok == n and okbc == n


def llmc_kernel4_requests(op):
    """The shared requests of one 16x16 block of matmul_forward_kernel4 with C=32 (one so pass),
    in lane order per warp: 8 warps x (8 si steps x (8 rhs + 8 lhs) loads) or 8 stores per warp."""
    out = []
    for w in range(8):
        lanes = [(l, l % 16, 2 * w + l // 16) for l in range(32)]           # (lane, tx, ty)
        if op == 'st':
            for it in range(4):
                for arr in (0, 16384):                                        # lhs_s, rhs_s
                    a = {}
                    for l, tx, ty in lanes:
                        y = 2 * ty + tx // 8 + 32 * it
                        a[l] = arr + (y * 32 + 4 * (tx % 8)) * 4
                    out.append(a)
        else:
            for k in range(8):
                for u in range(8):
                    out.append({l: 16384 + ((u + 8 * ty) * 32 + (4 * (16 * ty + tx) + 4 * k) % 32) * 4
                                for l, tx, ty in lanes})
                for ii in range(8):
                    out.append({l: ((ii + 8 * tx) * 32 + (4 * (16 * ty + tx) + 4 * k) % 32) * 4
                                for l, tx, ty in lanes})
    return out


# ---------------------------------------------------------------------------------------------
# 2. tests/hw section C (one block of 32 threads, one load arr[EXPR]; the fill is 130 4-byte stores)
HW_C = {
    'f64_tid': (8, lambda t: t), 'f64_stride2': (8, lambda t: 2 * t), 'f64_stride16': (8, lambda t: 16 * t),
    'f64_stride17': (8, lambda t: 17 * t), 'f64_bcast_0': (8, lambda t: 0), 'f64_tid_div2': (8, lambda t: t // 2),
    'f4_tid': (16, lambda t: t), 'f4_stride2': (16, lambda t: 2 * t), 'f4_stride8': (16, lambda t: 8 * t),
    'f4_bcast_0': (16, lambda t: 0), 'f4_tid_div2': (16, lambda t: t // 2),
}


def check_hw():
    pats = {r['kernel']: r for r in csv.DictReader(open(os.path.join(REPO, 'tests/hw/h100-patterns.csv')))}
    n = ok = okbc = okm = 0
    for r in csv.DictReader(open(os.path.join(REPO, 'tests/hw/h100-counters.csv'))):
        if r['section'] != 'C' or int(pats[r['kernel']]['access_bytes']) not in (8, 16):
            continue
        w, f = HW_C[r['kernel']]
        assert int(pats[r['kernel']]['access_bytes']) == w
        a = {l: f(l) * w for l in range(32)}
        assert int(r['ld_inst']) == 1
        got, gbc, gm = rule_wide(w, 'ld', a), rule_wide_conflicts(w, 'ld', a), model_banks_c(w, 'ld', a)
        want, wbc = int(r['ld_wf']), int(r['ld_bc'])
        n += 1
        ok += got == want and int(r['ld_wf_sass']) == want
        okbc += gbc == wbc
        okm += gm == want
        if got != want or gbc != wbc:
            print(f'  MISMATCH tests/hw {r["kernel"]}: measured {want} (bc {wbc}), rule {got} (bc {gbc})')
    print(f'2. tests/hw section C, 8/16-byte rows: rule matches {ok}/{n} wavefronts, {okbc}/{n} '
          f'bank-conflict counts; banks.c model matches {okm}/{n}')
    return ok == n and okbc == n


# ---------------------------------------------------------------------------------------------
# 3. tests/validate: every kernel with an 8- or 16-byte shared instruction, rebuilt request by
# request from kernels.cu and h100-2026-11-22-sass.txt.  A request: (op, width, {lane: addr}).
def warps(block):
    """lanes of each warp as (lane, x, y) for a block (bx, by)."""
    bx, by = block
    n = bx * by
    for w0 in range(0, n, 32):
        yield [(t - w0, t % bx, t // bx) for t in range(w0, min(n, w0 + 32))]


def R(op, width, lanes, f):
    return (op, width, {l: f(x, y) for l, x, y in lanes})


def v_dbl_tile33():
    for L in warps((32, 32)):
        yield R('st', 8, L, lambda x, y: (y * 33 + x) * 8)
        yield R('ld', 8, L, lambda x, y: (x * 33 + y) * 8)


def v_dbl_halfswap():
    for L in warps((32, 1)):
        yield R('st', 8, L, lambda x, y: x * 8)
        yield R('st', 8, L, lambda x, y: (x + 32) * 8)
        yield R('ld', 8, L, lambda x, y: (2 * x if x < 16 else 2 * (x - 16) + 1) * 8)


def v_dbl_quarter():
    for L in warps((32, 1)):
        for j in range(8):
            yield R('st', 8, L, lambda x, y: (x + 32 * j) * 8)
        yield R('ld', 8, L, lambda x, y: ((x % 8) * 16 + x // 8) * 8)


def v_f4_halfsame():
    for L in warps((32, 1)):
        yield R('st', 16, L, lambda x, y: x * 16)
        yield R('ld', 16, L, lambda x, y: (x % 16) * 16)


def v_f4_stride3():
    for L in warps((32, 1)):
        for j in range(4):
            yield R('st', 16, L, lambda x, y: (x + 32 * j) * 16)
        yield R('ld', 16, L, lambda x, y: ((3 * x) % 128) * 16)


def v_f2_col():
    for L in warps((16, 32)):
        yield R('st', 8, L, lambda x, y: (y * 16 + x) * 8)
        yield R('ld', 8, L, lambda x, y: (((2 * x + y) % 32) * 16 + (y + x) % 16) * 8)


def v_dyn_two():          # a = double[64] at 0, b = int[] at byte 512
    for L in warps((64, 1)):
        yield R('st', 8, L, lambda x, y: x * 8)
        yield R('st', 4, L, lambda x, y: 512 + ((x * 4) % 256) * 4)
        yield R('ld', 4, L, lambda x, y: 512 + ((x * 8) % 256) * 4)
        yield R('ld', 8, L, lambda x, y: (63 - x) * 8)


def v_struct():           # Rec {float a@0; int b@4; double c@8; short d@16}, 24 bytes
    for L in warps((64, 1)):
        yield R('st', 8, L, lambda x, y: 24 * x)            # a, b merged: STS.64 [R11]
        yield R('st', 2, L, lambda x, y: 24 * x + 16)
        yield R('st', 8, L, lambda x, y: 24 * x + 8)
        yield R('ld', 4, L, lambda x, y: 24 * x + 4)
        yield R('ld', 2, L, lambda x, y: 24 * ((x + 1) % 64) + 16)
        yield R('ld', 8, L, lambda x, y: 24 * (63 - x) + 8)


def v_int4_partial():
    for L in warps((64, 1)):
        yield R('st', 16, L, lambda x, y: 16 * x)
        yield R('ld', 4, L, lambda x, y: 16 * ((2 * x) % 64))
        yield R('ld', 4, L, lambda x, y: 16 * ((2 * x) % 64) + 12)


def v_sgemm16():          # As, Bs float[16][16]: As at 0, Bs at 1024 (any multiple of 128 prices the same)
    for L in warps((16, 16)):
        for k0 in range(4):
            yield R('st', 4, L, lambda x, y: (y * 16 + x) * 4)
            yield R('st', 4, L, lambda x, y: 1024 + (y * 16 + x) * 4)
            for k in range(0, 16, 4):
                yield R('ld', 16, L, lambda x, y: (y * 16 + k) * 4)
            for k in range(16):
                yield R('ld', 4, L, lambda x, y: 1024 + (k * 16 + x) * 4)


def v_dbl_bcast4():
    for L in warps((32, 1)):
        yield R('st', 8, L, lambda x, y: x * 8)
        yield R('st', 8, L, lambda x, y: (x + 32) * 8)
        yield R('ld', 8, L, lambda x, y: (x // 4) * 8 * 8)


def v_merge_row4():
    for L in warps((32, 4)):
        for i in range(0, 32, 4):
            yield R('st', 4, L, lambda x, y: ((i + y) * 32 + x) * 4)
        for m in range(8):
            yield R('ld', 16, L, lambda x, y: ((y * 8 + (x & 7)) * 32 + 4 * m) * 4)


def v_merge_pair_odd():
    for L in warps((32, 1)):
        for j in range(32):
            yield R('st', 4, L, lambda x, y: (x + 32 * j) * 4)
        yield R('ld', 4, L, lambda x, y: (6 * x + 1) * 4)
        yield R('ld', 8, L, lambda x, y: (6 * x + 2) * 4)


def v_merge_pair_even():
    for L in warps((32, 1)):
        for j in range(32):
            yield R('st', 4, L, lambda x, y: (x + 32 * j) * 4)
        yield R('ld', 8, L, lambda x, y: (6 * x + 2) * 4)
        yield R('ld', 8, L, lambda x, y: (6 * x) * 4)


def v_merge_store4():
    for L in warps((32, 1)):
        yield R('st', 16, L, lambda x, y: x * 4 * 8 * 4)
        yield R('ld', 4, L, lambda x, y: (x * 4 * 8 + (x & 3)) * 4)


def v_merge_dbl2():
    for L in warps((32, 1)):
        for j in range(16):
            yield R('st', 8, L, lambda x, y: (x + 32 * j) * 8)
        yield R('ld', 16, L, lambda x, y: (x * 4) * 8)


def v_double2_col():
    for L in warps((16, 16)):
        yield R('st', 16, L, lambda x, y: (y * 17 + x) * 16)
        yield R('ld', 16, L, lambda x, y: (x * 17 + y) * 16)


def v_unroll_row_dot():
    for L in warps((64, 1)):
        for r in range(8):
            yield R('st', 4, L, lambda x, y: (r * 64 + x) * 4)
        for m in range(4):
            yield R('ld', 16, L, lambda x, y: ((x % 8) * 64 + ((x // 8) * 8) % 48 + 4 * m) * 4)


def v_xor_f4():
    for L in warps((64, 1)):
        yield R('st', 16, L, lambda x, y: ((x // 8) * 8 + ((x % 8) ^ (x // 8))) * 16)
        yield R('ld', 16, L, lambda x, y: ((x % 8) * 8 + ((x // 8) ^ (x % 8))) * 16)


def v_struct_mix():       # Mix {char c@0; double d@8; int i@16}, 24 bytes
    for L in warps((32, 1)):
        yield R('st', 8, L, lambda x, y: 24 * x + 8)
        yield R('st', 4, L, lambda x, y: 24 * x + 16)
        yield R('st', 1, L, lambda x, y: 24 * x)
        yield R('ld', 4, L, lambda x, y: 24 * ((3 * x) % 32) + 16)
        yield R('ld', 1, L, lambda x, y: 24 * x)
        yield R('ld', 8, L, lambda x, y: 24 * (31 - x) + 8)


def v_transpose64_dbl():
    for L in warps((32, 8)):
        for j in range(0, 32, 8):
            yield R('st', 8, L, lambda x, y: ((y + j) * 33 + x) * 8)
        for j in range(0, 32, 8):
            yield R('ld', 8, L, lambda x, y: (x * 33 + y + j) * 8)


def v_ld_v2_partial():
    for L in warps((64, 1)):
        yield R('st', 8, L, lambda x, y: x * 8)
        yield R('ld', 4, L, lambda x, y: ((3 * x) % 64) * 8 + 4)


VALIDATE = [v_dbl_tile33, v_dbl_halfswap, v_dbl_quarter, v_f4_halfsame, v_f4_stride3, v_f2_col,
            v_dyn_two, v_struct, v_int4_partial, v_sgemm16, v_dbl_bcast4, v_merge_row4,
            v_merge_pair_odd, v_merge_pair_even, v_merge_store4, v_merge_dbl2, v_double2_col,
            v_unroll_row_dot, v_xor_f4, v_struct_mix, v_transpose64_dbl, v_ld_v2_partial]


def ncu_table(path):
    t = {}
    if not os.path.exists(path):
        return t
    short = {'smsp__sass_inst_executed_op_shared_ld.sum': ('ld', 'inst'),
             'smsp__sass_inst_executed_op_shared_st.sum': ('st', 'inst'),
             'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum': ('ld', 'wf'),
             'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum': ('st', 'wf')}
    for r in csv.reader(open(path)):
        if len(r) > 14 and r[12] in short:
            t[(r[4],) + short[r[12]]] = int(r[14].replace(',', ''))
    return t


def check_validate():
    tabs = {'H100': ncu_table(os.path.join(REPO, 'tests/validate/h100-2026-11-22-ncu.csv')),
            'H200': ncu_table(os.path.join(REPO, 'tests/validate/h200-2026-11-22-ncu.csv'))}
    n = ok = okm = 0
    nreq_wide = 0
    for fn in VALIDATE:
        reqs = list(fn())
        for op in ('ld', 'st'):
            mine = [(w, a) for o, w, a in reqs if o == op]
            if not any(w >= 8 for w, a in mine):
                continue            # this op has no 8/16-byte request: not a wide row
            nreq_wide += sum(w >= 8 for w, a in mine)
            inst = len(mine)
            wf = sum(cost(rule_wide, w, op, a) for w, a in mine)
            wfm = sum(cost(model_banks_c, w, op, a) for w, a in mine)
            for dev, t in tabs.items():
                if (fn.__name__, op, 'wf') not in t:
                    continue
                want_i, want_wf = t[(fn.__name__, op, 'inst')], t[(fn.__name__, op, 'wf')]
                n += 1
                good = inst == want_i and wf == want_wf
                ok += good
                okm += inst == want_i and wfm == want_wf
                if not good:
                    print(f'  MISMATCH {dev} {fn.__name__} {op}: measured {want_i} requests {want_wf} '
                          f'wavefronts, rule {inst} requests {wf} wavefronts')
                elif wfm != want_wf:
                    print(f'  (banks.c model misses {dev} {fn.__name__} {op}: measured {want_wf}, model {wfm})')
    print(f'3. tests/validate, kernel x op rows with 8/16-byte requests ({nreq_wide} wide requests per '
          f'H100 run): rule matches {ok}/{n} (H100 and H200 files); banks.c model matches {okm}/{n}')
    return ok == n


def report_sass_metric():
    """Informational: Nsight Compute's per-instruction metric (h100-wide-extra.csv, wf_sass)
    against the l1tex hardware counter, the rule and sass_metric_ld."""
    path = os.path.join(HERE, 'h100-wide-extra.csv')
    if not os.path.exists(path):
        return
    n = same = fit = nld = 0
    for r in csv.DictReader(open(path)):
        if r['name'].startswith('llmc_matmul') or int(r['width']) < 8:
            continue
        n += 1
        same += r['wf_sass'] == r['wavefronts']
        if r['op'] == 'ld':
            mask = int(r['active_mask'], 16)
            offs = r['addresses'].split()
            a = {l: int(offs[l]) for l in range(32) if mask >> l & 1}
            nld += 1
            fit += sass_metric_ld(int(r['width']), a) == int(r['wf_sass'])
    print(f'(info) smsp__sass_l1tex_..._wavefronts (per-instruction metric) equals the l1tex counter on '
          f'{same}/{n} single-request 8/16-byte rows: every store, {nld - (n - same)}/{nld} loads; '
          f'sass_metric_ld reproduces it on {fit}/{nld} of those loads')


if __name__ == '__main__':
    report_sass_metric()
    a = check_wide()
    b = check_hw()
    c = check_validate()
    print('ALL MATCH' if a and b and c else 'SOME ROWS DO NOT MATCH')
    sys.exit(0 if a and b and c else 1)
