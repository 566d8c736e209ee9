#!/usr/bin/env python3
"""compare.py [--prefix] H100.csv RUN_DIR [NAME...]: every launch's shared-memory counters as Nsight
Compute counted them on the H100 (H100.csv, packed by pack_ncu.py) against smemlab run's reports
(RUN_DIR/NAME.csv from run_cpu.sh, or RUN_DIR/NAME.json), launch by launch, in order. Exit 1
when any launch differs or is missing. --prefix: the H100 counted only a program's first launches
(ncu --launch-count N): smemlab run's later launches are not compared."""
import csv, json, os, sys

KEYS = ['ld_requests', 'st_requests', 'ld_wavefronts', 'st_wavefronts', 'atom_requests']

def h100(path):
    progs = {}
    for r in csv.DictReader(open(path)):
        for i in range(int(r['first']), int(r['last']) + 1):
            progs.setdefault(r['program'], []).append([int(r[k]) for k in KEYS] + [r['kernel']])
    return progs

def ours(run_dir, name):
    p = os.path.join(run_dir, name + '.csv')
    if os.path.exists(p):
        out = []
        for r in csv.DictReader(open(p)):
            out.append([int(r['ld_requests']), int(r['st_requests']), int(r['ld_wavefronts']),
                        int(r['st_wavefronts']), int(r['atom_requests']), r['kernel']])
        return out
    p = os.path.join(run_dir, name + '.json')
    if not os.path.exists(p):
        return None
    out = []
    for l in json.load(open(p))['launches']:
        out.append([l['shared_ld']['requests'], l['shared_st']['requests'], l['shared_ld']['wavefronts'],
                    l['shared_st']['wavefronts'], l['shared_atom']['requests'], l['kernel']])
    return out

def main():
    args = sys.argv[1:]
    prefix = bool(args) and args[0] == '--prefix'
    if prefix:
        args = args[1:]
    if len(args) < 2:
        sys.exit('usage: compare.py [--prefix] H100.csv RUN_DIR [NAME...]')
    try:
        gpu = h100(args[0])
    except OSError as e:
        sys.exit(f'compare.py: {args[0]}: {e.strerror}')
    names = args[2:] or list(gpu)
    sys.argv = [sys.argv[0]] + args
    bad_total = 0
    for name in names:
        g, o = gpu.get(name, []), ours(sys.argv[2], name)
        if o is None:
            print(f'{name:22s} no smemlab run report')
            bad_total += 1
            continue
        if prefix:
            o = o[:len(g)]
        bad = sum(1 for a, b in zip(g, o) if a[:5] != b[:5]) + abs(len(g) - len(o))
        for i, (a, b) in enumerate(zip(g, o)):
            if a[:5] != b[:5] and bad <= 3:
                print(f'  launch {i} {b[5]}: H100 {a[:5]} smemlab run {b[:5]}')
        print(f'{name:22s} {min(len(g), len(o)) - (bad - abs(len(g) - len(o)))}/{len(g)} launches equal'
              + (f', {len(o)} under smemlab run' if len(o) != len(g) else ''))
        bad_total += bad
    sys.exit(1 if bad_total else 0)

main()
