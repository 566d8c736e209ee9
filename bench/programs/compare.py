#!/usr/bin/env python3
"""compare.py [--prefix] H100.csv RUN_DIR [NAME...]: every launch's shared-memory counters as Nsight
Compute counted them on the H100 (H100.csv, packed by pack_ncu.py) against smemlab run's reports
(RUN_DIR/NAME.csv from run_cpu.sh, or RUN_DIR/NAME.json), launch by launch, in order. Exit 1
when any launch differs or is missing. --prefix: the H100 counted only a program's first launches
(ncu --launch-count N): smemlab run's later launches are not compared. Where H100.csv has the
ldmatrix / cp.async columns (ldsm_requests, ldsm_wavefronts, ldgsts_requests, ldgsts_wavefronts:
pack_ncu.py writes them when run_device.sh counted them), they are compared too."""
import csv, json, os, sys

KEYS = ['ld_requests', 'st_requests', 'ld_wavefronts', 'st_wavefronts', 'atom_requests']
MATRIX = ['ldsm_requests', 'ldsm_wavefronts', 'ldgsts_requests', 'ldgsts_wavefronts']

def h100(path):
    """{program: [[counters..., kernel], ...]}, and the counters' names (KEYS, + MATRIX if present)"""
    progs = {}
    reader = csv.DictReader(open(path))
    keys = KEYS + (MATRIX if all(m in (reader.fieldnames or []) for m in MATRIX) else [])
    for r in reader:
        for i in range(int(r['first']), int(r['last']) + 1):
            progs.setdefault(r['program'], []).append([int(r[k]) for k in keys] + [r['kernel']])
    return progs, keys

def ours(run_dir, name, keys):
    p = os.path.join(run_dir, name + '.csv')
    if os.path.exists(p):
        return [[int(r[k]) for k in keys] + [r['kernel']] for r in csv.DictReader(open(p))]
    p = os.path.join(run_dir, name + '.json')
    if not os.path.exists(p):
        return None
    out = []
    for l in json.load(open(p))['launches']:
        v = {'ld_requests': l['shared_ld']['requests'], 'st_requests': l['shared_st']['requests'],
             'ld_wavefronts': l['shared_ld']['wavefronts'], 'st_wavefronts': l['shared_st']['wavefronts'],
             'atom_requests': l['shared_atom']['requests']}
        for op in ('ldsm', 'ldgsts'):
            t = l.get('shared_' + op, {})
            v[op + '_requests'] = t.get('requests', 0)
            v[op + '_wavefronts'] = t.get('wavefronts', 0)
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
        bad = sum(1 for a, b in zip(g, o) if a[:-1] != b[:-1]) + abs(len(g) - len(o))
        for i, (a, b) in enumerate(zip(g, o)):
            if a[:-1] != b[:-1] and bad <= 3:
                print(f'  launch {i} {b[-1]}: H100 {a[:-1]} smemlab run {b[:-1]}')
        print(f'{name:22s} {min(len(g), len(o)) - (bad - abs(len(g) - len(o)))}/{len(g)} launches equal'
              + (f', {len(o)} under smemlab run' if len(o) != len(g) else ''))
        bad_total += bad
    sys.exit(1 if bad_total else 0)

main()
