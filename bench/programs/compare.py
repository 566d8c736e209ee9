#!/usr/bin/env python3
"""compare.py [--prefix] H100.csv RUN_DIR [NAME...]: every launch's shared-memory counters as Nsight
Compute counted them on the H100 (H100.csv, packed by pack_ncu.py) against smemlab run's reports
(RUN_DIR/NAME.csv from run_cpu.sh, or RUN_DIR/NAME.json), launch by launch, in order. Exit 1
when any launch differs or is missing. --prefix: the H100 counted only a program's first launches
(ncu --launch-count N): smemlab run's later launches are not compared. Where H100.csv has the
ldmatrix / cp.async columns (ldsm_requests, ldsm_wavefronts, ldgsts_requests, ldgsts_wavefronts:
pack_ncu.py writes them when run_device.sh counted them), they are compared too; likewise stmatrix's
(stsm_requests, stsm_wavefronts) and wgmma's (gmma_requests, gmma_wavefronts, gmma_ideal: the JSON
report's shared_gmma; run_cpu.sh's CSV has no gmma columns, so RUN_DIR/NAME.json is read where the
H100/H200 file has them). Distributed shared memory's requests (dshared_requests and its ld, st
and atom parts) against the JSON report's "dshared" {"requests", "ld", "st", "atom"} (left out of a
launch without any, as shared_gmma is: 0); dshared_read_bytes (the crossbar's
l1tex__m_xbar2l1tex_read_bytes_mem_dshared) against the report's "xbar_bytes"; dshared_write_bytes
(l1tex__m_l1tex2xbar_write_bytes_mem_dshared) is not in the report: listed as not reported, not
compared."""
import csv, json, os, sys

KEYS = ['ld_requests', 'st_requests', 'ld_wavefronts', 'st_wavefronts', 'atom_requests']
MATRIX = ['ldsm_requests', 'ldsm_wavefronts', 'ldgsts_requests', 'ldgsts_wavefronts']
STSM = ['stsm_requests', 'stsm_wavefronts']
GMMA = ['gmma_requests', 'gmma_wavefronts', 'gmma_ideal']
DSHARED = ['dshared_requests', 'dshared_ld_requests', 'dshared_st_requests', 'dshared_atom_requests',
           'dshared_read_bytes', 'dshared_write_bytes']

def h100(path):
    """{program: [[counters..., kernel], ...]}, and the counters' names (KEYS, + each group present)"""
    progs = {}
    reader = csv.DictReader(open(path))
    keys = list(KEYS)
    for g in (MATRIX, STSM, GMMA, DSHARED):
        if all(m in (reader.fieldnames or []) for m in g):
            keys += g
    for r in reader:
        for i in range(int(r['first']), int(r['last']) + 1):
            progs.setdefault(r['program'], []).append([int(r[k]) for k in keys] + [r['kernel']])
    return progs, keys

def ours(run_dir, name, keys):
    """smemlab run's launches as [[counters..., kernel], ...] (None: no report); a counter the
    report does not carry (the dshared bytes) is None"""
    p = os.path.join(run_dir, name + '.csv')
    if os.path.exists(p) and not any(k in GMMA + DSHARED for k in keys):
        return [[int(r[k]) for k in keys] + [r['kernel']] for r in csv.DictReader(open(p))]
    p = os.path.join(run_dir, name + '.json')
    if not os.path.exists(p):
        return None
    out = []
    for l in json.load(open(p))['launches']:
        v = {'ld_requests': l['shared_ld']['requests'], 'st_requests': l['shared_st']['requests'],
             'ld_wavefronts': l['shared_ld']['wavefronts'], 'st_wavefronts': l['shared_st']['wavefronts'],
             'atom_requests': l['shared_atom']['requests']}
        for op in ('ldsm', 'ldgsts', 'stsm', 'gmma'):
            t = l.get('shared_' + op, {})  # shared_gmma is left out of a launch without wgmma
            v[op + '_requests'] = t.get('requests', 0)
            v[op + '_wavefronts'] = t.get('wavefronts', 0)
            v[op + '_ideal'] = t.get('ideal_wavefronts', 0)
        d = l.get('dshared', {})
        v['dshared_requests'] = d.get('requests', 0)
        for op in ('ld', 'st', 'atom'):
            v['dshared_%s_requests' % op] = d.get(op, 0)
        v['dshared_read_bytes'] = d.get('xbar_bytes', 0)
        v['dshared_write_bytes'] = None
        out.append([v[k] for k in keys] + [l['kernel']])
    return out

def main():
    args = sys.argv[1:]
    prefix = bool(args) and args[0] == '--prefix'
    if prefix:
        args = args[1:]
    if len(args) < 2:
        sys.exit('usage: compare.py [--prefix] H100.csv RUN_DIR [NAME...]')
    try:
        gpu, keys = h100(args[0])
    except OSError as e:
        sys.exit(f'compare.py: {args[0]}: {e.strerror}')
    names = args[2:] or list(gpu)
    sys.argv = [sys.argv[0]] + args
    bad_total = 0
    for name in names:
        g, o = gpu.get(name, []), ours(sys.argv[2], name, keys)
        if o is None:
            print(f'{name:22s} no smemlab run report')
            bad_total += 1
            continue
        if prefix:
            o = o[:len(g)]
        unreported = [k for i, k in enumerate(keys) if any(b[i] is None for b in o)]
        if unreported:  # not compared: the report does not carry them
            print(f'{name:22s} not reported by smemlab run, not compared: {", ".join(unreported)}')
            g = [[x for i, x in enumerate(a[:-1]) if keys[i] not in unreported] + a[-1:] for a in g]
            o = [[x for i, x in enumerate(b[:-1]) if keys[i] not in unreported] + b[-1:] for b in o]
        bad = sum(1 for a, b in zip(g, o) if a[:-1] != b[:-1]) + abs(len(g) - len(o))
        gpu_name = 'H200' if 'h200' in os.path.basename(args[0]) else 'H100'
        for i, (a, b) in enumerate(zip(g, o)):
            if a[:-1] != b[:-1] and bad <= 3:
                k = b[-1] if len(b[-1]) <= 120 else b[-1][:117] + '...'
                print(f'  launch {i} {k}: {gpu_name} {a[:-1]} smemlab run {b[:-1]}')
        print(f'{name:22s} {min(len(g), len(o)) - (bad - abs(len(g) - len(o)))}/{len(g)} launches equal'
              + (f', {len(o)} under smemlab run' if len(o) != len(g) else ''))
        bad_total += bad
    sys.exit(1 if bad_total else 0)

main()
