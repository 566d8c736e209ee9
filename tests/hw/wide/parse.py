#!/usr/bin/env python3
"""parse.py RAWDIR...: turn the ncu CSVs + launch logs of run.sh into h100-wide.csv and
h100-wide-extra.csv (all counters, the formula, the value check, store winners).

RAWDIR holds ncu-raw.txt and launches.log (one per device call); patterns*.json give addresses."""
import csv, io, json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHORT = {
    'smsp__sass_inst_executed_op_shared_ld.sum': 'ld_inst',
    'smsp__sass_inst_executed_op_shared_st.sum': 'st_inst',
    'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum': 'ld_wf',
    'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum': 'st_wf',
    'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum': 'ld_bc',
    'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum': 'st_bc',
    'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum': 'ld_wf_sass',
    'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum': 'st_wf_sass',
    'smsp__inst_executed_op_shared_ld.sum': 'ld_inst_hw',
    'smsp__inst_executed_op_shared_st.sum': 'st_inst_hw',
}


def split_groups(text):
    out, cur, buf = {}, None, []
    for line in text.splitlines():
        m = re.match(r'### group (\S+)', line)
        if m:
            if cur:
                out[cur] = buf
            cur, buf = m.group(1), []
        else:
            buf.append(line)
    if cur:
        out[cur] = buf
    return out


def num(s):
    s = s.replace(',', '')
    try:
        return int(s)
    except ValueError:
        return float(s)


def load(rawdir):
    ncu = split_groups(open(os.path.join(rawdir, 'ncu-raw.txt')).read())
    logs = split_groups(open(os.path.join(rawdir, 'launches.log')).read())
    rows = []
    for g, lines in ncu.items():
        launches = [l.split(maxsplit=4) for l in logs.get(g, []) if l.startswith('LAUNCH ')]
        body = [l for l in lines if l.startswith('"')]
        kernels = {}
        for r in csv.reader(io.StringIO('\n'.join(body))):
            if r[0] == 'ID':
                continue
            k = kernels.setdefault(int(r[0]), {'kernel': r[4]})
            if r[12] in SHORT:
                k[SHORT[r[12]]] = num(r[14])
        ids = sorted(kernels)
        if len(ids) != len(launches):
            print(f'warning: group {g}: {len(ids)} profiled kernels, {len(launches)} launches', file=sys.stderr)
        for i, kid in zip(ids, launches):
            k = kernels[i]
            _, kind, name, rest = kid[0], kid[1], kid[2], ' '.join(kid[3:])
            rows.append(dict(group=g, kind=kind, name=name, check=rest, **k))
    return rows


def main():
    rawdirs = sys.argv[1:] or [os.path.join(HERE, 'raw')]
    pats = {}
    for f in ('patterns.json', 'patterns2.json'):
        p = os.path.join(HERE, 'src', f)
        if os.path.exists(p):
            for q in json.load(open(p)):
                pats[q['name']] = q
    rows = []
    for d in rawdirs:
        rows += load(d)
    main_rows, extra_rows = [], []
    for r in rows:
        if r['kind'] == 'llmc':
            for op in ('ld', 'st'):
                main_rows.append(dict(name=f'llmc_matmul_forward_kernel4_{op}', width=16, op=op,
                                      active_mask='0xffffffff',
                                      addresses='llm.c matmul_forward_kernel4, block 16x16, one block, C=32 '
                                                '(%s)' % ('lhs_s/rhs_s float4 loads' if op == 'ld' else 'tile float4 stores'),
                                      requests=r[f'{op}_inst'], wavefronts=r[f'{op}_wf'],
                                      bank_conflicts=r[f'{op}_bc']))
                extra_rows.append(dict(main_rows[-1], formula='real kernel', check=r['check'],
                                       wf_sass=r[f'{op}_wf_sass'], inst_hw=r[f'{op}_inst_hw'],
                                       other_op_inst=r[('st' if op == 'ld' else 'ld') + '_inst']))
            continue
        m = re.match(r'(ld|st)(4|8|16)(same)?$', r['kind'])
        op, width, same = m.group(1), int(m.group(2)), bool(m.group(3))
        p = pats[r['name']]
        assert p['width'] == width
        addrs = ' '.join(str(a) if p['mask'] >> l & 1 else '-' for l, a in enumerate(p['offs']))
        name = r['name'] + ('_samevalue' if same else '')
        row = dict(name=name, width=width, op=op, active_mask='0x%08x' % p['mask'], addresses=addrs,
                   requests=r[f'{op}_inst'], wavefronts=r[f'{op}_wf'], bank_conflicts=r[f'{op}_bc'])
        main_rows.append(row)
        extra_rows.append(dict(row, formula=p['formula'] + (' (all lanes store the same bits)' if same else ''),
                               check=r['check'], wf_sass=r[f'{op}_wf_sass'], inst_hw=r[f'{op}_inst_hw'],
                               other_op_inst=r[('st' if op == 'ld' else 'ld') + '_inst']))
    cols = ['name', 'width', 'op', 'active_mask', 'addresses', 'requests', 'wavefronts', 'bank_conflicts']
    with open(os.path.join(HERE, 'h100-wide.csv'), 'w', newline='') as f:
        w = csv.DictWriter(f, cols)
        w.writeheader()
        w.writerows(main_rows)
    with open(os.path.join(HERE, 'h100-wide-extra.csv'), 'w', newline='') as f:
        w = csv.DictWriter(f, cols + ['formula', 'check', 'wf_sass', 'inst_hw', 'other_op_inst'])
        w.writeheader()
        w.writerows(extra_rows)
    print(len(main_rows), 'rows')


if __name__ == '__main__':
    main()
