#!/usr/bin/env python3
"""pack_ncu.py DIR NAME... > h100-DATE-ncu.csv: Nsight Compute's per-launch CSVs (DIR/NAME.ncu.csv,
written by run_device.sh) packed into one file, consecutive equal launches run-length encoded:
program,first,last,kernel,grid,block,ld_requests,st_requests,ld_wavefronts,st_wavefronts,atom_requests
(ld/st requests: smsp__sass_inst_executed_op_shared_ld/st; wavefronts: smsp__sass_l1tex_data_pipe_
lsu_wavefronts_mem_shared_op_ld/st; atom: smsp__sass_inst_executed_op_shared_atom), then, where the
CSVs hold ldmatrix / cp.async counters (run_device.sh since unseen6),
ldsm_requests,ldsm_wavefronts,ldgsts_requests,ldgsts_wavefronts (smsp__sass_inst_executed_op_ldsm/
ldgsts, smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm/ldgsts). Files packed before
those counters existed are unchanged."""
import csv, os, sys
M = ['smsp__sass_inst_executed_op_shared_ld.sum', 'smsp__sass_inst_executed_op_shared_st.sum',
     'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
     'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum',
     'smsp__sass_inst_executed_op_shared_atom.sum']
MATRIX = ['smsp__sass_inst_executed_op_ldsm.sum',
          'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum',
          'smsp__sass_inst_executed_op_ldgsts.sum',
          'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum']
HEAD = ['program', 'first', 'last', 'kernel', 'grid', 'block', 'ld_requests', 'st_requests',
        'ld_wavefronts', 'st_wavefronts', 'atom_requests']
MATRIX_HEAD = ['ldsm_requests', 'ldsm_wavefronts', 'ldgsts_requests', 'ldgsts_wavefronts']

def launches(path):
    out = {}
    for line in open(path, errors='replace'):
        if not line.startswith('"'):
            continue
        row = next(csv.reader([line]))
        if len(row) < 15 or row[0] == 'ID' or (row[12] not in M and row[12] not in MATRIX):
            continue
        v = float(row[14].replace(',', ''))
        if v != v:  # NaN: the launch faulted on the GPU (an illegal access): not counted
            continue
        L = out.setdefault(int(row[0]), {'k': row[4], 'g': row[8], 'b': row[7]})
        L[row[12]] = int(v)
    return out

def main():
    progs = [(name, launches(os.path.join(sys.argv[1], name + '.ncu.csv'))) for name in sys.argv[2:]]
    matrix = any(m in L for _, ls in progs for L in ls.values() for m in MATRIX)
    keys = M + (MATRIX if matrix else [])
    w = csv.writer(sys.stdout, lineterminator='\n')
    w.writerow(HEAD + (MATRIX_HEAD if matrix else []))
    for name, ls in progs:
        run = None
        for i in sorted(ls):
            L = ls[i]
            key = (L['k'], L['g'], L['b']) + tuple(L.get(m, 0) for m in keys)
            if run and run[2] == key and run[1] == i - 1:
                run[1] = i
                continue
            if run:
                w.writerow([name, run[0], run[1]] + list(run[2]))
            run = [i, i, key]
        if run:
            w.writerow([name, run[0], run[1]] + list(run[2]))

main()
