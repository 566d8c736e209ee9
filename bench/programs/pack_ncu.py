#!/usr/bin/env python3
"""pack_ncu.py DIR NAME... > h100-DATE-ncu.csv: Nsight Compute's per-launch CSVs (DIR/NAME.ncu.csv,
written by run_device.sh) packed into one file, consecutive equal launches run-length encoded:
program,first,last,kernel,grid,block,ld_requests,st_requests,ld_wavefronts,st_wavefronts,atom_requests
(ld/st requests: smsp__sass_inst_executed_op_shared_ld/st; wavefronts: smsp__sass_l1tex_data_pipe_
lsu_wavefronts_mem_shared_op_ld/st; atom: smsp__sass_inst_executed_op_shared_atom)."""
import csv, os, sys
M = ['smsp__sass_inst_executed_op_shared_ld.sum', 'smsp__sass_inst_executed_op_shared_st.sum',
     'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
     'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum',
     'smsp__sass_inst_executed_op_shared_atom.sum']
w = csv.writer(sys.stdout, lineterminator='\n')
w.writerow(['program', 'first', 'last', 'kernel', 'grid', 'block', 'ld_requests', 'st_requests',
            'ld_wavefronts', 'st_wavefronts', 'atom_requests'])
for name in sys.argv[2:]:
    launches = {}
    for line in open(os.path.join(sys.argv[1], name + '.ncu.csv'), errors='replace'):
        if not line.startswith('"'):
            continue
        row = next(csv.reader([line]))
        if len(row) < 15 or row[0] == 'ID' or row[12] not in M:
            continue
        v = float(row[14].replace(',', ''))
        if v != v:  # NaN: the launch faulted on the GPU (an illegal access): not counted
            continue
        L = launches.setdefault(int(row[0]), {'k': row[4], 'g': row[8], 'b': row[7]})
        L[row[12]] = int(v)
    run = None
    for i in sorted(launches):
        L = launches[i]
        key = (L['k'], L['g'], L['b']) + tuple(L.get(m, 0) for m in M)
        if run and run[2] == key and run[1] == i - 1:
            run[1] = i
            continue
        if run:
            w.writerow([name, run[0], run[1]] + list(run[2]))
        run = [i, i, key]
    if run:
        w.writerow([name, run[0], run[1]] + list(run[2]))
