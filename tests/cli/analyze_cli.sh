#!/bin/sh
# `smemlab analyze`: the JSON contract, the table, exit codes, and malformed input (exit 3, located).
smemlab="$1"
. "$(dirname "$0")/lib.sh"
cat >"$TMPD/k.cu" <<'CU'
extern "C" __global__ void rowcol(int *out)
{
    __shared__ int tile[32][32];
    tile[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
extern "C" __global__ void scaled(float *out, int n, float s)
{
    __shared__ float buf[256];
    buf[threadIdx.x] = threadIdx.x * s;
    __syncthreads();
    if (threadIdx.x < n)
        out[threadIdx.x] = buf[(threadIdx.x * 2) % 256];
}
CU
t "json" "$smemlab" analyze "$TMPD/k.cu" --kernel rowcol --block 32,32 --format json
expect_rc 0
expect_out '"name": "rowcol"'
expect_out '"shared_ld": {"requests": 32, "wavefronts": 1024, "ideal_wavefronts": 32}'
expect_out '"shared_st": {"requests": 32, "wavefronts": 32, "ideal_wavefronts": 32}'
expect_out '"line": 6, "op": "ld", "bytes": 4, "requests": 32, "wavefronts": 1024'
expect_out '"max_ways": 32'
t "table shows the source line" "$smemlab" analyze "$TMPD/k.cu" --kernel rowcol --block 32,32
expect_rc 0
expect_out 'tile[threadIdx.x][threadIdx.y]'
expect_out '32-way'
t "csv" "$smemlab" analyze "$TMPD/k.cu" --kernel rowcol --block 32,32 --format csv
expect_rc 0
expect_out 'kernel,file,line,op,bytes,requests,wavefronts,ideal_wavefronts,max_ways,data_dependent'
t "fail-on-conflict" "$smemlab" analyze "$TMPD/k.cu" --kernel rowcol --block 32,32 --fail-on-conflict
expect_rc 1
# a scalar parameter by source name decides the branch; unset, the analysis says it cannot know
t "param by name" "$smemlab" analyze "$TMPD/k.cu" --kernel scaled --block 256 --param n=256 --param s=0.5 --format json
expect_rc 0
expect_out '"complete": true'
expect_out '"wavefronts": 16'
t "param unset" "$smemlab" analyze "$TMPD/k.cu" --kernel scaled --block 256 --format json
expect_rc 0
expect_out '"complete": false'
expect_out 'cannot know'
t "param unset, --fail-on-incomplete: exit 1, the kernel named" "$smemlab" analyze "$TMPD/k.cu" --kernel scaled --block 256 --fail-on-incomplete
expect_rc 1
expect_err 'scaled: incomplete'
expect_err '--fail-on-incomplete: 1 of 1 kernels incomplete'
t "param set, --fail-on-incomplete: exit 0" "$smemlab" analyze "$TMPD/k.cu" --kernel scaled --block 256 --param n=256 --param s=0.5 --fail-on-incomplete
expect_rc 0
# the incomplete kernel comes first in the table, before the whole ones (file order: rowcol, scaled)
t "incomplete first" "$smemlab" analyze "$TMPD/k.cu" --block 256
expect_rc 0
first=$(printf '%s\n' "$out" | head -n 1)
case "$first" in scaled*) ;; *) fail "$last: first line '$first', expected scaled's" ;; esac
printf '%s' "$out" | grep -q '^rowcol  block' || fail "$last: rowcol missing"
# a statement over two lines: the site on its second line shows it whole
cat >"$TMPD/two.cu" <<'CU'
__global__ void twoLine(float *out)
{
    __shared__ float s[64 * 2];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    float v = s[threadIdx.x] +
              s[threadIdx.x * 2]; // the second half
    out[threadIdx.x] = v;
}
CU
t "a two-line statement whole" "$smemlab" analyze "$TMPD/two.cu" --block 32
expect_rc 0
expect_out '7      ld   4           1           2       2.00 2-way           float v = s[threadIdx.x] + s[threadIdx.x * 2]; // the second half'
t "param by position" "$smemlab" analyze "$TMPD/k.cu" --kernel scaled --block 256 --param 1=8 --format json
expect_out '"complete": true'
# launch limits are usage errors
t "2048 threads" "$smemlab" analyze "$TMPD/k.cu" --block 2048
expect_rc 2
expect_err '1024 threads'
t "too much shared memory" "$smemlab" analyze "$TMPD/k.cu" --kernel rowcol --block 32,32 --dyn-smem 300000
expect_rc 2
expect_err '227 KB'
t "unknown kernel" "$smemlab" analyze "$TMPD/k.cu" --kernel nosuch
expect_rc 2
expect_err "no kernel named 'nosuch'"
t "bad option" "$smemlab" analyze "$TMPD/k.cu" --bogus
expect_rc 2
t "missing file" "$smemlab" analyze "$TMPD/none.cu"
expect_rc 3
# compile errors name the place
printf 'extern "C" __global__ void k(int *o) { o[0] = undeclared; }\n' >"$TMPD/bad.cu"
t "compile error" "$smemlab" analyze "$TMPD/bad.cu"
expect_rc 3
expect_err 'bad.cu(1)'
# malformed PTX: exit 3 with line:column
: >"$TMPD/empty.ptx"
t "empty ptx" "$smemlab" analyze "$TMPD/empty.ptx"
expect_rc 3
expect_err 'no .version'
printf '\177ELF\001\002\000\000binary' >"$TMPD/bin.ptx"
t "binary ptx" "$smemlab" analyze "$TMPD/bin.ptx"
expect_rc 3
expect_err 'bin.ptx:1:1: unexpected byte'
printf '.version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(\n\t.param .u64 p\n)\n{\n\t.reg .b32 %%r<4>;\n\tmov.u32 %%r1, %%tid.x;\n' >"$TMPD/trunc.ptx"
t "truncated ptx" "$smemlab" analyze "$TMPD/trunc.ptx"
expect_rc 3
expect_err 'truncated'
printf '.version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %%r<4>;\n\tfrobnicate.u32 %%r1, %%r2;\n\tret;\n}\n' >"$TMPD/op.ptx"
t "unknown opcode" "$smemlab" analyze "$TMPD/op.ptx"
expect_rc 3
expect_err "op.ptx:7:2: unsupported instruction 'frobnicate'"
printf '.version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %%r<99999999999>;\n\tret;\n}\n' >"$TMPD/regs.ptx"
t "absurd registers" "$smemlab" analyze "$TMPD/regs.ptx"
expect_rc 3
expect_err 'regs.ptx:6:'
{ printf '.version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tmov.u32 %%r'; head -c 3000000 /dev/zero | tr '\0' '9'; printf ', 1;\n}\n'; } >"$TMPD/long.ptx"
t "enormous line" "$smemlab" analyze "$TMPD/long.ptx"
expect_rc 3
expect_err 'long.ptx:6:'
printf '.version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %%r<4>;\n$L1:\n\tadd.u32 %%r1, %%r1, 1;\n\tbra $L1;\n}\n' >"$TMPD/loop.ptx"
t "runaway loop" "$smemlab" analyze "$TMPD/loop.ptx" --block 32 --max-steps 100000
expect_rc 3
expect_err 'step budget'
# a real project's file: headers elsewhere, templates, a namespace, host main() in the same file
P=tests/analyze/project.cu
t "template by demangled name" "$smemlab" analyze $P -I tests/analyze/inc -std=c++17 --kernel 'reduce4<int, 256u>' --block 256 --format json
expect_rc 0
expect_out '"name": "reduce4<int, 256u>", "symbol": "_Z7reduce4IiLj256EEvPKT_PS0_"'
expect_out '"shared_ld": {"requests": 25, "wavefronts": 25, "ideal_wavefronts": 25}'
t "plain name: every instance" "$smemlab" analyze $P -I tests/analyze/inc --kernel reduce4 --block 128
expect_out 'reduce4<int, 256u>  block 128x1x1'
expect_out 'reduce4<float, 128u>  block 128x1x1'
t "namespace, -D" "$smemlab" analyze $P -I tests/analyze/inc -DPAD=1 --kernel transpose --block 32,8 --grid 2,2 --param n=64
expect_rc 0
expect_out 'loads    128 requests, 128 wavefronts (ideal 128)'
t "namespace, unpadded" "$smemlab" analyze $P -I tests/analyze/inc --kernel lab::transpose --block 32,8 --grid 2,2 --param n=64 --fail-on-conflict
expect_rc 1
expect_out 'loads    128 requests, 4096 wavefronts (ideal 128): bank conflicts'
t "nvcc args after --" "$smemlab" analyze $P --kernel transpose --block 32,8 --param n=64 -- -I tests/analyze/inc -DPAD=2
expect_rc 0
expect_out 'shared 4352 B static'
# --html: a page with the bank map of the conflicting site
t "html" "$smemlab" analyze "$TMPD/k.cu" --kernel rowcol --block 32,32 --html "$TMPD/k.html"
expect_rc 0
grep -q "<svg" "$TMPD/k.html" || fail "html: no svg"
grep -q "k.cu:6: ld of 4 bytes, 32-way" "$TMPD/k.html" || fail "html: no bank map of line 6"
# the two wavefront counters (docs/bank-model.md): pairs of lanes on two doubles of one bank cost
# 4 a request per instruction (tests/hw/h100-ld64b.csv g2_k2), 2 through the LSU pipeline
cat >"$TMPD/pd.cu" <<'CU'
__global__ void pd(double *o)
{
    __shared__ double s[64];
    s[threadIdx.x] = threadIdx.x;
    s[threadIdx.x + 32] = threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = s[((threadIdx.x / 2) % 2) * 16];
}
CU
t "paired doubles: both counters" "$smemlab" analyze "$TMPD/pd.cu" --block 256 --format json
expect_rc 0
expect_out '"line": 7, "op": "ld", "bytes": 8, "requests": 8, "wavefronts": 32, "ideal_wavefronts": 8'
expect_out '"pipe_wavefronts": 16}'
expect_out '"shared_ld": {"requests": 8, "wavefronts": 32, "ideal_wavefronts": 8, "pipe_wavefronts": 16}'
expect_out '"shared_st": {"requests": 16, "wavefronts": 32, "ideal_wavefronts": 32}'
# one block standing for four (the uniform proof) scales the pipeline's count with the others
t "paired doubles: one block for four" "$smemlab" analyze "$TMPD/pd.cu" --block 256 --grid 4 --format json
expect_rc 0
expect_out '"extrapolation_reason"'
expect_out '"shared_ld": {"requests": 32, "wavefronts": 128, "ideal_wavefronts": 32, "pipe_wavefronts": 64}'

t "html unwritable" "$smemlab" analyze "$TMPD/k.cu" --kernel rowcol --block 32,32 --html /nonexistent/dir/k.html
expect_rc 3
finish
