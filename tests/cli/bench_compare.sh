#!/bin/sh
# bench/programs' pack_ncu.py and compare.py: Nsight Compute's per-launch CSV packed (a NaN launch
# left out, equal neighbours run-length encoded, the ldmatrix / cp.async columns only where counted;
# the stmatrix, wgmma and dshared ones likewise, compared with a JSON report),
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

# wgmma (gmma_ideal: wavefronts less bank conflicts), stmatrix and dshared columns (run_cutlass_device.sh's
# counters) packed, then compared with a JSON report (shared_gmma; "dshared"'s xbar_bytes against
# the crossbar's read bytes, 0 where the report has no "dshared"; the write bytes not compared)
mkdir -p "$TMPD/h" "$TMPD/j"
hopper() { # hopper ID KERNEL GMMA_REQ GMMA_WF GMMA_CONFLICTS STSM_REQ STSM_WF DSHARED_READ_BYTES
  raw $1 "$2" 0 0 0 0 0 0 0 0 0
  ncu_row $1 "$2" l1tex__lsuin_requests_op_gmma.sum "$3"
  ncu_row $1 "$2" l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum "$4"
  ncu_row $1 "$2" l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum "$5"
  ncu_row $1 "$2" smsp__sass_inst_executed_op_shared_stsm.sum "$6"
  ncu_row $1 "$2" smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum "$7"
  ncu_row $1 "$2" l1tex__m_xbar2l1tex_read_bytes_mem_dshared.sum "$8"
}
{ echo "$H"; hopper 0 gemm 512 4096 0 256 1024 0; hopper 1 gemm 512 4096 96 256 1024 64; } > "$TMPD/h/q.ncu.csv"
t "pack wgmma, stmatrix and dshared counters" python3 $P/pack_ncu.py "$TMPD/h" q
expect_rc 0
expect_out 'ldgsts_wavefronts,stsm_requests,stsm_wavefronts,gmma_requests,gmma_wavefronts,gmma_ideal,dshared_requests'
expect_out 'q,0,0,gemm,"(2, 1, 1)","(256, 1, 1)",0,0,0,0,0,0,0,0,0,256,1024,512,4096,4096,0,0,0,0,0,0'
expect_out 'q,1,1,gemm,"(2, 1, 1)","(256, 1, 1)",0,0,0,0,0,0,0,0,0,256,1024,512,4096,4000,0,0,0,0,64,0'
printf '%s\n' "$out" > "$TMPD/h200.csv"
L='"shared_ld": {"requests": 0, "wavefronts": 0, "ideal_wavefronts": 0}, "shared_st": {"requests": 0, "wavefronts": 0, "ideal_wavefronts": 0}, "shared_atom": {"requests": 0, "wavefronts": 0, "ideal_wavefronts": 0}, "shared_stsm": {"requests": 256, "wavefronts": 1024, "ideal_wavefronts": 1024}'
printf '{"launches": [{"kernel": "gemm", %s, "shared_gmma": {"requests": 512, "wavefronts": 4096, "ideal_wavefronts": 4096}},\n {"kernel": "gemm", %s, "shared_gmma": {"requests": 512, "wavefronts": 4096, "ideal_wavefronts": 4000}, "dshared": {"requests": 0, "bytes": 0, "xbar_bytes": 64}}]}\n' "$L" "$L" > "$TMPD/j/q.json"
t "wgmma, stmatrix and dshared read bytes equal, dshared write bytes not reported" python3 $P/compare.py "$TMPD/h200.csv" "$TMPD/j" q
expect_rc 0
expect_out '2/2 launches equal'
expect_out 'not compared: dshared_write_bytes'
sed -i 's/"requests": 512, "wavefronts": 4096, "ideal_wavefronts": 4000/"requests": 544, "wavefronts": 4096, "ideal_wavefronts": 4000/' "$TMPD/j/q.json"
t "wgmma requests off" python3 $P/compare.py "$TMPD/h200.csv" "$TMPD/j" q
expect_rc 1
expect_out '1/2 launches equal'
expect_out 'launch 1 gemm: H200 ['
printf '{"launches": [{"kernel": "gemm", %s},\n {"kernel": "gemm", %s, "shared_gmma": {"requests": 512, "wavefronts": 4096, "ideal_wavefronts": 4000}, "dshared": {"requests": 2, "ld": 2}}]}\n' "$L" "$L" > "$TMPD/j/q.json"
t "no shared_gmma reads as 0 wgmma requests (launch 0 differs); dshared requests compared (launch 1 differs)" python3 $P/compare.py "$TMPD/h200.csv" "$TMPD/j" q
expect_rc 1
expect_out '0/2 launches equal'
finish
