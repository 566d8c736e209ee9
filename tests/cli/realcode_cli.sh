#!/bin/sh
# analyze on code as real programs write it: inline PTX with scoped registers, warpSize (WARP_SZ),
# a kernel in a .cuh header, and a file where one kernel cannot be analysed (the others still are).
S=$1
. "$(dirname "$0")/lib.sh"
D=tests/analyze/realcode

t "scoped inline PTX block, a=1" "$S" analyze $D/scoped_asm.cu --block 32 --param 1=1 --format csv
expect_rc 0
expect_out '"scoped",scoped_asm.cu,12,st,4,1,2,1,2,0'   # s[2*tid + 1]: 2-way
expect_out '"scoped",scoped_asm.cu,14,ld,4,1,1,1,1,0'   # s[tid + 32]
t "scoped inline PTX block, a=0" "$S" analyze $D/scoped_asm.cu --block 32 --param 1=0 --format csv
expect_rc 0
expect_out '"scoped",scoped_asm.cu,12,st,4,1,2,1,2,0'   # s[2*tid]: 2-way as well

t "a .cuh header with warpSize" "$S" analyze $D/warp_size.cuh --block 64 --format csv
expect_rc 0
expect_out '"lanes",warp_size.cuh,7,st,4,2,4,2,2,0'     # s[2*lane], 2 warps: 2-way each
expect_out '"lanes",warp_size.cuh,9,ld,4,2,2,2,1,0'

t "one kernel unmodelled, one assert failing, one plain" "$S" analyze $D/one_bad_kernel.cu --block 32
expect_rc 3
expect_out "plain  block 32x1x1"
expect_out "s[threadIdx.x * 2] = 1.0f;"
expect_out "unmodelled  not analysed:"
expect_out "unsupported instruction 'applypriority' (source one_bad_kernel.cu:15)"
expect_out "asserts  not analysed:"
expect_out "assert() fails"
expect_err "2 of 3 kernels could not be analysed"
t "the same as JSON" "$S" analyze $D/one_bad_kernel.cu --block 32 --format json
expect_rc 3
expect_out '"error": "<nvcc output>:'
expect_out '"error_stage": "parse"'
expect_out '"error_stage": "run"'
expect_out '"wavefronts": 2, "ideal_wavefronts": 1'
t "only the unmodelled kernel: exit 3 and its reason" "$S" analyze $D/one_bad_kernel.cu --block 32 --kernel unmodelled
expect_rc 3
expect_err "unsupported instruction 'applypriority'"
t "only the plain kernel" "$S" analyze $D/one_bad_kernel.cu --block 32 --kernel plain
expect_rc 0
t "inlined helpers: the kernel's line, with the chain" "$S" analyze $D/inlined_helpers.cu --block 64 --format json
expect_rc 0
expect_out '"line": 15, "op": "ld", "bytes": 16, "requests": 2, "wavefronts": 8'
expect_out '"inline": [{"file": "inlined_helpers.cu", "line": 3}, {"file": "inlined_helpers.cu", "line": 6}]'
t "inlined helpers, as a table" "$S" analyze $D/inlined_helpers.cu --block 64
expect_out "inlined from inlined_helpers.cu:3:"
expect_out "called at inlined_helpers.cu:6:"
expect_out "  15>3   ld   16          2           8"   # the kernel's line > the line written on
t "size_t n unset: incomplete, named (not taken for a pointer)" "$S" analyze $D/size_params.cu --kernel guarded --block 64
expect_rc 0
expect_out "unset scalar parameters: n;"
expect_out "no shared-memory access"
t "size_t n=34: 33 threads store (2 warps)" "$S" analyze $D/size_params.cu --kernel guarded --block 64 --param n=34 --format csv
expect_rc 0
expect_out '"guarded",size_params.cu,9,st,4,2,2,2,1,0'
# the same kernel as PTX alone, extern "C" (no mangled types, no source): the PTX's dataflow decides
t "extern C, PTX only: n is no pointer" sh -c "nvcc -ptx -arch=sm_90 -lineinfo -o $TMPD/s.ptx $D/size_params.cu && \"$S\" analyze $TMPD/s.ptx --kernel guarded_c --block 64"
expect_rc 0
expect_out "unset scalar parameters: guarded_c_param_1"
t "extern C, PTX only, n=64" "$S" analyze $TMPD/s.ptx --kernel guarded_c --block 64 --param 1=64 --format csv
expect_rc 0
expect_out ',st,4,2,4,2,2,0'
t "textures and surfaces parse; a fetched value is unknown data" "$S" analyze $D/textures.cu --block 64 --format csv
expect_rc 0
expect_out '"fetch_to_smem",textures.cu,5,st,4,2,2,2,1,0'
expect_out '"fetch_to_smem",textures.cu,7,ld,4,2,4,2,2,0'
expect_out '"fetch_index",textures.cu,16,ld,4,2,0,0,0,1'
expect_out '"surface_store",textures.cu,24,ld,4,2,2,2,1,0'
t "bmsk, szext, cvt.rna.tf32 and griddepcontrol parse and run" "$S" analyze $D/new_insns.cu --block 64 --format csv
expect_rc 0
expect_out '"bits",new_insns.cu,11,st,4,2,2,2,1,0'
expect_out '"bits",new_insns.cu,13,ld,4,4,6,4,2,0'   # s[0] and s[2*tid]: 2-way only when all three are right
t "__noinline__ device functions: counted at the kernel's line of the call" "$S" analyze $D/calls.cu --block 64 --param k=1 --format csv
expect_rc 3
expect_out '"calls",calls.cu,16,st,4,4,66,4,32,0'   # store_twice: s[t] and s[32t % 1024]
expect_out '"calls",calls.cu,18,ld,4,2,2,2,1,0'     # load_at(s, 3t % 1024): the result of stride_of
expect_out '"calls",calls.cu,21,ld,4,2,2,2,1,0'     # nested (t < 16): load_at twice, warp 0 only
expect_out '"recursive",calls.cu,31,ld,4,2,2,2,1,0' # depth(): runs on smemlab's call stack
expect_err "calls.cu:46:5: recursive calls nest deeper than smemlab's call stack"
t "recursion: counts flagged as a lower bound in JSON, the runaway one stopped at run" "$S" analyze $D/calls.cu --block 32 --param k=1 --format json
expect_rc 3
expect_out '"in_recursion": true'
expect_out '"error_stage": "run"'
t "the same under -G (nvcc inlines nothing)" "$S" analyze $D/calls.cu --kernel calls --block 64 --param k=1 --format csv -- -G
expect_rc 0
expect_out '"calls",calls.cu,16,st,4,4,66,4,32,0'
expect_out '"calls",calls.cu,21,ld,4,2,2,2,1,0'
finish
