#!/usr/bin/env python3
"""parse.py RAWDIR... [--patterns patterns2.json] [--out h100-ldsm2.csv] [--extra FILE]: the ncu CSVs + launch logs of run.sh (unpacked from ldsm-results.tgz) and
patterns.json back to ../h100-ldsm.csv (and, with --extra FILE, every counter of every launch).

Launches are matched to ncu's kernel IDs in order, group by group (run.sh profiles one group per
ncu process; the program prints LAUNCH lines in the same order)."""
import csv, io, json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))


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
        try:
            return float(s)
        except ValueError:
            return s


def load(rawdir):
    ncu = split_groups(open(os.path.join(rawdir, 'ncu-raw.txt')).read())
    logs = split_groups(open(os.path.join(rawdir, 'launches.log')).read())
    rows = []
    for g, lines in ncu.items():
        launches = [l.split() for l in logs.get(g, []) if l.startswith('LAUNCH ')]
        body = [l for l in lines if l.startswith('"')]
        kernels = {}
        for r in csv.reader(io.StringIO('\n'.join(body))):
            if r[0] == 'ID':
                continue
            k = kernels.setdefault(int(r[0]), {'kernel': r[4]})
            k[r[12]] = num(r[14])
        ids = sorted(kernels)
        assert len(ids) == len(launches), (g, len(ids), len(launches))
        for i, L in zip(ids, launches):
            k = kernels[i]
            rows.append(dict(kind=L[1], name=L[2], check=L[3], **k))
    return rows


def opt(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main():
    raws, skip = [], False
    for a in sys.argv[1:]:
        if skip:
            skip = False
        elif a.startswith('--'):
            skip = True
        else:
            raws.append(a)
    extra = opt('--extra', None)
    pats = {(p['kind'], p['name']): p for p in json.load(open(os.path.join(HERE, opt('--patterns', 'patterns.json'))))}
    rows = [r for raw in raws for r in load(raw)]
    out = open(os.path.join(HERE, '..', opt('--out', 'h100-ldsm.csv')), 'w', newline='')
    w = csv.writer(out, lineterminator='\n')
    w.writerow(['kind', 'name', 'active_mask', 'addresses', 'global_addresses', 'requests', 'wavefronts',
                'l1tex_wavefronts', 'bank_conflicts', 'values'])
    metrics = set()
    for r in rows:
        p = pats[(r['kind'], r['name'])]
        k = r['kind']
        if k.startswith('ldsm'):
            req = r['smsp__sass_inst_executed_op_ldsm.sum']
            wf = r['smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum']
            l1 = r['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum'] - r['smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum']
            bc = r['l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum']
            mask = 0xFFFFFFFF
        elif k.startswith('stsm'):
            req = r['sm__inst_executed_op_shared_stsm.sum']
            wf = r['smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum']
            l1 = r['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum'] - r['smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum']
            bc = r['l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum']
            mask = 0xFFFFFFFF
        else:
            req = r['smsp__sass_inst_executed_op_ldgsts.sum']
            wf = r['smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum']
            l1 = (r['l1tex__data_pipe_lsu_wavefronts_mem_shared.sum'] - r['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum']
                  - r['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum'])
            bc = r['l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum']
            mask = p['mask']
        metrics.update(x for x in r if '__' in x)
        goff = ' '.join(map(str, p['goff'])) if k.startswith('cpasync') else ''
        w.writerow([k, r['name'], f'{mask:#010x}', ' '.join(map(str, p['off'])), goff, req, wf, l1, bc, r['check']])
    out.close()
    if extra:
        ms = sorted(metrics)
        with open(extra, 'w', newline='') as f:
            e = csv.writer(f, lineterminator='\n')
            e.writerow(['kind', 'name'] + ms)
            for r in rows:
                e.writerow([r['kind'], r['name']] + [r.get(m, '') for m in ms])
    print(len(rows), 'rows')


if __name__ == '__main__':
    main()
