#!/bin/sh
# analyze on template kernels nobody instantiated (listed; --kernel 'k<args>' instantiates one) and
# on a header that does not compile alone (through a .cu of its folder, or --include-from).
S=$1
. "$(dirname "$0")/lib.sh"
command -v "${SMEMLAB_NVCC:-nvcc}" >/dev/null 2>&1 || exit 77
T=tests/analyze/templates
D=tests/analyze/dependent

t "no instance: the templates listed, how to name one" "$S" analyze $T/sgemm_tpl.cuh
expect_rc 3
expect_err "template kernels are not instantiated: sgemmTiled<int BM, int BN, int BK> (sgemm_tpl.cuh:5), lab::scaleTile<typename T, int N = 4> (sgemm_tpl.cuh:21)"
expect_err "--kernel 'sgemmTiled<BM, BN, BK>'"
t "--kernel with arguments instantiates it" "$S" analyze $T/sgemm_tpl.cuh --kernel 'sgemmTiled<64, 64, 8>' --block 256
expect_rc 0
expect_out 'sgemmTiled<64, 64, 8>  block 256x1x1'
expect_out '11     st   4           8           8       1.00 conflict-free'
expect_err 'compiled with sgemmTiled<64, 64, 8> instantiated'
t "a template in a namespace, a type argument, unqualified" "$S" analyze $T/sgemm_tpl.cuh --kernel 'scaleTile<float, 4>' --block 32 --format csv
expect_rc 0
expect_out '"lab::scaleTile<float, 4>",sgemm_tpl.cuh,26,ld,4,1,2,1,2,0'
t "instantiated, then a --param it lacks: the usage error, exit 2" "$S" analyze $T/sgemm_tpl.cuh --kernel 'sgemmTiled<64, 64, 8>' --block 64 --param nosuch=1
expect_rc 2
expect_err 'no parameter of that name in kernel sgemmTiled<64, 64, 8>'
t "arguments that do not fit: nvcc's reason" "$S" analyze $T/sgemm_tpl.cuh --kernel 'sgemmTiled<64, 64>'
expect_rc 3
expect_err 'sgemmTiled<64, 64> cannot be instantiated'
t "a name that is no template: listed" "$S" analyze $T/sgemm_tpl.cuh --kernel 'nosuch<1>'
expect_rc 3
expect_err "no kernel named 'nosuch<1>'"
expect_err 'template kernels not instantiated here: sgemmTiled<int BM, int BN, int BK>'
t "a plain kernel beside a template: analysed, the template named" "$S" analyze $T/mixed.cu --block 32
expect_rc 0
expect_out 'plain  block 32x1x1'
expect_err 'template kernels not instantiated here, not analysed: strided<int STRIDE> (mixed.cu:4)'
t "a header that does not compile alone: through the .cu that includes it" "$S" analyze $D/walsh_kernel.cuh --block 32 --format csv
expect_rc 0
expect_out '"walsh",walsh_kernel.cuh,7,ld,4,1,2,1,2,0'
expect_err 'compiled through tests/analyze/dependent/walsh.cu of its folder, which includes it'
mkdir "$TMPD/alone"
cp $D/walsh_kernel.cuh "$TMPD/alone/"
t "no .cu includes it: nvcc's error and how to give one" "$S" analyze "$TMPD/alone/walsh_kernel.cuh" --block 32
expect_rc 3
expect_err 'does not compile alone and no .cu of its folder includes it: give one that does with --include-from FILE.cu'
expect_err 'identifier "TILE" is undefined'
printf '#include "%s/%s/helpers.cuh"\n#include "alone/walsh_kernel.cuh"\n' "$PWD" $D >"$TMPD/user.cu"
t "--include-from" "$S" analyze "$TMPD/alone/walsh_kernel.cuh" --block 32 --include-from "$TMPD/user.cu" --format csv
expect_rc 0
expect_out '"walsh",walsh_kernel.cuh,7,ld,4,1,2,1,2,0'
expect_err "compiled through $TMPD/user.cu (--include-from)"
finish
