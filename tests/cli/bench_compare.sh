#!/bin/sh
# bench/programs' pack_ncu.py and compare.py: Nsight Compute's per-launch CSV packed (a NaN launch
# left out, equal neighbours run-length encoded, the ldmatrix / cp.async columns only where counted),
# then compared with a smemlab run report: equal -> 0, one counter off -> 1 naming the launch; an
# H100 file without the ldmatrix columns compares the first five counters only. Skipped (77)
# without python3.
command -v python3 >/dev/null 2>&1 || { echo "skipped: no python3"; exit 77; }
. "$(dirname "$0")/lib.sh"
P=bench/programs
H='"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"'
# ncu_row ID KERNEL METRIC VALUE
ncu_row() { printf '"%s","1","p","h","%s","1","7","(256, 1, 1)","(2, 1, 1)","0","9.0","Command line profiler metrics","%s","inst","%s"\n' "$@"; }
raw() { # raw ID KERNEL LD ST LDWF STWF ATOM [LDSM LDSMWF LDGSTS LDGSTSWF]
  id=$1; k=$2
  ncu_row $id "$k" smsp__sass_inst_executed_op_shared_ld.sum "$3"
  ncu_row $id "$k" smsp__sass_inst_executed_op_shared_st.sum "$4"
  ncu_row $id "$k" smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum "$5"
  ncu_row $id "$k" smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum "$6"
  ncu_row $id "$k" smsp__sass_inst_executed_op_shared_atom.sum "$7"
  [ $# -gt 7 ] || return 0
  ncu_row $id "$k" smsp__sass_inst_executed_op_ldsm.sum "$8"
  ncu_row $id "$k" smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum "$9"
  ncu_row $id "$k" smsp__sass_inst_executed_op_ldgsts.sum "${10}"
  ncu_row $id "$k" smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum "${11}"
}
mkdir -p "$TMPD/m" "$TMPD/o" "$TMPD/run"
{ echo "==PROF== Connected"; echo "$H"
  raw 0 gemm 0 768 0 4096 0 2048 8192 768 5120
  raw 1 gemm 0 768 0 4096 0 2048 8192 768 5120
  raw 2 gemm nan nan nan nan nan nan nan nan nan   # faulted on the GPU: not counted
  raw 3 hist 10 20 30 40 50 0 0 0 0
} > "$TMPD/m/p.ncu.csv"
{ echo "$H"; raw 0 gemm 0 768 0 4096 0; raw 1 gemm 0 768 0 4096 0; } > "$TMPD/o/p.ncu.csv"

t "pack with ldmatrix counters" python3 $P/pack_ncu.py "$TMPD/m" p
expect_rc 0
expect_out 'atom_requests,ldsm_requests,ldsm_wavefronts,ldgsts_requests,ldgsts_wavefronts'
expect_out 'p,0,1,gemm,"(2, 1, 1)","(256, 1, 1)",0,768,0,4096,0,2048,8192,768,5120'
expect_out 'p,3,3,hist,"(2, 1, 1)","(256, 1, 1)",10,20,30,40,50,0,0,0,0'
printf '%s\n' "$out" | grep -q '^p,2,' && fail "the NaN launch was packed"
printf '%s\n' "$out" > "$TMPD/m.csv"
t "pack without them" python3 $P/pack_ncu.py "$TMPD/o" p
expect_rc 0
[ "$(printf '%s\n' "$out" | head -1)" = "program,first,last,kernel,grid,block,ld_requests,st_requests,ld_wavefronts,st_wavefronts,atom_requests" ] \
  || fail "old-style header changed: $(printf '%s\n' "$out" | head -1)"
printf '%s\n' "$out" > "$TMPD/o.csv"

# a smemlab run report (run_cpu.sh's CSV; only these columns are read)
C=launch,kernel,ld_requests,ld_wavefronts,st_requests,st_wavefronts,atom_requests,ldsm_requests,ldsm_wavefronts,ldgsts_requests,ldgsts_wavefronts
{ echo $C; echo '0,"gemm",0,0,768,4096,0,2048,8192,768,5120'; echo '1,"gemm",0,0,768,4096,0,2048,8192,768,5120'
  echo '2,"hist",10,30,20,40,50,0,0,0,0'; } > "$TMPD/run/p.csv"
t "equal, ldmatrix included" python3 $P/compare.py "$TMPD/m.csv" "$TMPD/run" p
expect_rc 0
expect_out '3/3 launches equal'
sed -i '3s/2048,8192/2048,8200/' "$TMPD/run/p.csv"
t "ldmatrix wavefronts off" python3 $P/compare.py "$TMPD/m.csv" "$TMPD/run" p
expect_rc 1
expect_out '2/3 launches equal'
expect_out 'launch 1 gemm: H100 [0, 768, 0, 4096, 0, 2048, 8192, 768, 5120]'
t "an H100 file without ldmatrix columns compares the rest" python3 $P/compare.py --prefix "$TMPD/o.csv" "$TMPD/run" p
expect_rc 0
expect_out '2/2 launches equal'
finish
