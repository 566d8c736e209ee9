#!/usr/bin/env python3
"""pack_ncu.py DIR NAME... > h100-DATE-ncu.csv: Nsight Compute's per-launch CSVs (DIR/NAME.ncu.csv,
written by run_device.sh or run_cutlass_device.sh) packed into one file, consecutive equal
launches run-length encoded:
program,first,last,kernel,grid,block,ld_requests,st_requests,ld_wavefronts,st_wavefronts,atom_requests
(ld/st requests: smsp__sass_inst_executed_op_shared_ld/st; wavefronts: smsp__sass_l1tex_data_pipe_
lsu_wavefronts_mem_shared_op_ld/st; atom: smsp__sass_inst_executed_op_shared_atom), then, each group
only where the CSVs hold its counters (files packed before a group existed are unchanged):
- ldsm_requests,ldsm_wavefronts,ldgsts_requests,ldgsts_wavefronts (run_device.sh since unseen6:
  smsp__sass_inst_executed_op_ldsm/ldgsts, smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm/ldgsts);
- stsm_requests,stsm_wavefronts (stmatrix: smsp__sass_inst_executed_op_shared_stsm,
  smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm);
- gmma_requests,gmma_wavefronts,gmma_ideal (wgmma's shared reads: l1tex__lsuin_requests_op_gmma,
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma, and those wavefronts less
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma, as tests/run/h200-wgmma-ncu.csv was read);
- dshared_requests,dshared_ld_requests,dshared_st_requests,dshared_atom_requests,dshared_read_bytes,
  dshared_write_bytes (distributed shared memory: smsp__sass_inst_executed_op_dshared{,_ld,_st,_atom},
  l1tex__m_xbar2l1tex_read_bytes_mem_dshared, l1tex__m_l1tex2xbar_write_bytes_mem_dshared).
A metric ncu did not count (run_cutlass_device.sh leaves out names ncu does not know) is 0."""
import csv, os, sys
M = ['smsp__sass_inst_executed_op_shared_ld.sum', 'smsp__sass_inst_executed_op_shared_st.sum',
     'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
     'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum',
     'smsp__sass_inst_executed_op_shared_atom.sum']
HEAD = ['program', 'first', 'last', 'kernel', 'grid', 'block', 'ld_requests', 'st_requests',
        'ld_wavefronts', 'st_wavefronts', 'atom_requests']
GMMA_CONFLICTS = 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum'
# (column names, metrics): a group is packed when any launch has any of its metrics
GROUPS = [
    (['ldsm_requests', 'ldsm_wavefronts', 'ldgsts_requests', 'ldgsts_wavefronts'],
     ['smsp__sass_inst_executed_op_ldsm.sum',
      'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum',
      'smsp__sass_inst_executed_op_ldgsts.sum',
      'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum']),
    (['stsm_requests', 'stsm_wavefronts'],
     ['smsp__sass_inst_executed_op_shared_stsm.sum',
      'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum']),
    (['gmma_requests', 'gmma_wavefronts', 'gmma_ideal'],
     ['l1tex__lsuin_requests_op_gmma.sum',
      'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum', GMMA_CONFLICTS]),
    (['dshared_requests', 'dshared_ld_requests', 'dshared_st_requests', 'dshared_atom_requests',
      'dshared_read_bytes', 'dshared_write_bytes'],
     ['smsp__sass_inst_executed_op_dshared.sum', 'smsp__sass_inst_executed_op_dshared_ld.sum',
      'smsp__sass_inst_executed_op_dshared_st.sum', 'smsp__sass_inst_executed_op_dshared_atom.sum',
      'l1tex__m_xbar2l1tex_read_bytes_mem_dshared.sum',
      'l1tex__m_l1tex2xbar_write_bytes_mem_dshared.sum']),
]
KNOWN = set(M) | {m for _, ms in GROUPS for m in ms}

def launches(path):
    out = {}
    for line in open(path, errors='replace'):
        if not line.startswith('"'):
            continue
        row = next(csv.reader([line]))
        if len(row) < 15 or row[0] == 'ID' or row[12] not in KNOWN:
            continue
        v = float(row[14].replace(',', ''))
        if v != v:  # NaN: the launch faulted on the GPU (an illegal access): not counted
            continue
        L = out.setdefault(int(row[0]), {'k': row[4], 'g': row[8], 'b': row[7]})
        L[row[12]] = int(v)
    return out

def values(L, metrics):
    v = [L.get(m, 0) for m in metrics]
    if metrics[-1] == GMMA_CONFLICTS:  # gmma_ideal: the wavefronts less the bank conflicts
        v[-1] = v[-2] - v[-1]
    return v

def main():
    progs = [(name, launches(os.path.join(sys.argv[1], name + '.ncu.csv'))) for name in sys.argv[2:]]
    groups = [(h, ms) for h, ms in GROUPS
              if any(m in L for _, ls in progs for L in ls.values() for m in ms)]
    w = csv.writer(sys.stdout, lineterminator='\n')
    w.writerow(HEAD + [c for h, _ in groups for c in h])
    for name, ls in progs:
        run = None
        for i in sorted(ls):
            L = ls[i]
            key = (L['k'], L['g'], L['b']) + tuple(L.get(m, 0) for m in M)
            for _, ms in groups:
                key += tuple(values(L, ms))
            if run and run[2] == key and run[1] == i - 1:
                run[1] = i
                continue
            if run:
                w.writerow([name, run[0], run[1]] + list(run[2]))
            run = [i, i, key]
        if run:
            w.writerow([name, run[0], run[1]] + list(run[2]))

main()
