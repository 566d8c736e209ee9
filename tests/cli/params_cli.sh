#!/bin/sh
# --param NAME=VALUE (issue 17): every one reaches its parameter, named as nvcc saw it (macros,
# templates, default arguments, __restrict__), or is refused with exit 2 naming the kernel's
# parameters. analyze and advise alike. Exits 77 without nvcc.
smemlab="$1"
. "$(dirname "$0")/lib.sh"
command -v nvcc >/dev/null 2>&1 || [ -n "$SMEMLAB_NVCC" ] || { echo "no nvcc: skipped"; exit 77; }
# A kernel made by a macro, as the H100 measurement programs (tests/hw/src) write them; a template
# with __restrict__ and a default argument; an extern "C" kernel with narrow types.
cat >"$TMPD/k.cu" <<'CU'
#define PAT(NAME, T, EXPR)                                                       \
    __global__ void NAME(unsigned char *out, int p)                              \
    {                                                                            \
        __shared__ T tile[32 * 33 + 32];                                         \
        const unsigned tid = threadIdx.x;                                        \
        tile[tid] = (T)tid;                                                      \
        __syncthreads();                                                         \
        reinterpret_cast<T *>(out)[tid] = tile[EXPR];                            \
    }
PAT(tile_col_plain, int, tid * 32 + p)
PAT(tile_col_pad, int, tid * 33 + p)

template <typename T, unsigned N>
__global__ void strided(const T *__restrict__ in, T *__restrict__ out, int stride = 1)
{
    __shared__ T s[N];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x * stride) % N];
}
template __global__ void strided<float, 1024u>(const float *, float *, int);

extern "C" __global__ void narrow(int *out, unsigned char c, unsigned u, bool flip, double d)
{
    __shared__ int s[256];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[flip ? (threadIdx.x * c) % 256 : (threadIdx.x + u) % 256] + (int)d;
}
CU
K="$TMPD/k.cu"
# --- the three ways a --param used to vanish ---------------------------------------------------
t "no such name" "$smemlab" analyze "$K" --kernel tile_col_plain --block 32 --param zz=5
expect_rc 2
expect_err "--param zz=5: no parameter of that name in kernel tile_col_plain(unsigned char* out, int p)"
expect_err "k.cu:10:"
t "past the last position" "$smemlab" analyze "$K" --kernel tile_col_plain --block 32 --param 9=1
expect_rc 2
expect_err "--param 9=1: no parameter at that position in kernel tile_col_plain(unsigned char* out, int p) (positions 0..1)"
t "macro-made kernel, by name" "$smemlab" analyze "$K" --kernel tile_col_plain --block 32 --param p=5 --format json
expect_rc 0
expect_out '"complete": true'
expect_out '"line": 10, "op": "ld", "bytes": 4, "requests": 1, "wavefronts": 32'
t "macro-made kernel, by position (as before)" "$smemlab" analyze "$K" --kernel tile_col_plain --block 32 --param 1=5 --format json
expect_out '"line": 10, "op": "ld", "bytes": 4, "requests": 1, "wavefronts": 32'
t "macro-made kernel, unset" "$smemlab" analyze "$K" --kernel tile_col_plain --block 32 --format json
expect_rc 0
expect_out '"data_dependent_requests": 1'
# --- templates, __restrict__, default arguments ----------------------------------------------
t "template: the instance's parameters" "$smemlab" analyze "$K" --kernel strided --block 32 --param stride=2 --format json
expect_rc 0
expect_out '"name": "strided<float, 1024u>"'
expect_out '"line": 19, "op": "ld", "bytes": 4, "requests": 1, "wavefronts": 2'
t "template: unknown name lists the instance" "$smemlab" analyze "$K" --kernel strided --block 32 --param strid=2
expect_rc 2
expect_err "kernel strided<float, 1024u>(float const* in, float* out, int stride)"
t "template: a pointer is no scalar" "$smemlab" analyze "$K" --kernel strided --block 32 --param in=0
expect_rc 2
expect_err "'in' is a pointer (float const*)"
# --- values that do not fit their type ------------------------------------------------------
t "300 for unsigned char" "$smemlab" analyze "$K" --kernel narrow --block 32 --param c=300
expect_rc 2
expect_err "--param c=300: 300 does not fit 'c' (unsigned char: 0..255); kernel narrow(int* out, unsigned char c, unsigned u, bool flip, double d)"
t "-1 for unsigned" "$smemlab" analyze "$K" --kernel narrow --block 32 --param u=-1
expect_rc 2
expect_err "-1 does not fit 'u' (unsigned: 0..4294967295)"
t "1e3 for int" "$smemlab" analyze "$K" --kernel tile_col_plain --block 32 --param p=1e3
expect_rc 2
expect_err "'1e3' is not an integer ('p' is int)"
t "not a number" "$smemlab" analyze "$K" --kernel narrow --block 32 --param d=fast
expect_rc 2
expect_err "'fast' is not a number ('d' is double)"
t "not a bool" "$smemlab" analyze "$K" --kernel narrow --block 32 --param flip=2
expect_rc 2
t "twice" "$smemlab" analyze "$K" --kernel narrow --block 32 --param u=1 --param 2=3
expect_rc 2
expect_err "is already given (--param u=1)"
t "every type, fitting" "$smemlab" analyze "$K" --kernel narrow --block 256 --param c=255 --param u=4294967295 --param flip=true --param d=-0.5 --format json
expect_rc 0
expect_out '"complete": true'
# --- several kernels, no --kernel: a name applies to each kernel that has it -------------------
t "every kernel with a p" "$smemlab" analyze "$K" --block 32 --param p=5 --param stride=2 --param c=2 --param u=0 --param flip=0 --param d=0 --format json
expect_rc 0
expect_out '"name": "tile_col_pad"'
expect_out '"line": 11, "op": "ld", "bytes": 4, "requests": 1, "wavefronts": 1'
t "a name no kernel has" "$smemlab" analyze "$K" --block 32 --param zz=5
expect_rc 2
expect_err "--param zz=5: no parameter of that name in any of the 4 kernels analysed (tile_col_plain(unsigned char* out, int p); tile_col_pad(unsigned char* out, int p); strided<float, 1024u>(float const* in, float* out, int stride); narrow(int* out, unsigned char c, unsigned u, bool flip, double d))"
# --- the H100 measurement program itself (tests/hw/src: PAT(NAME, T, EXPR)) ---------------------
t "tests/hw tile_col_plain p=5" "$smemlab" analyze tests/hw/src/smem_patterns.cu -I tests/hw/src --kernel tile_col_plain --block 32 --param p=5 --format json
expect_rc 0
expect_out '"complete": true'
expect_out '"line": 79, "op": "ld", "bytes": 4, "requests": 1, "wavefronts": 32'
# --- PTX input: names need the source; PTX names and positions work ---------------------------
nvcc -arch=sm_90 -ptx -lineinfo "$K" -o "$TMPD/k.ptx" 2>/dev/null || fail "nvcc -ptx"
t "ptx: a source name" "$smemlab" analyze "$TMPD/k.ptx" --kernel tile_col_plain --block 32 --param p=5
expect_rc 2
expect_err "parameter names need the .cu source: give the position"
t "ptx: the PTX name" "$smemlab" analyze "$TMPD/k.ptx" --kernel tile_col_plain --block 32 --param _Z14tile_col_plainPhi_param_1=5 --format json
expect_rc 0
expect_out '"wavefronts": 32'
t "ptx: extern C, by position, PTX width" "$smemlab" analyze "$TMPD/k.ptx" --kernel narrow --block 32 --param 1=256
expect_rc 2
expect_err "256 does not fit 'narrow_param_1' (.u8: -128..255)"
# --- advise: the same rule ---------------------------------------------------------------------
t "advise: no such name" "$smemlab" advise "$K" --kernel tile_col_plain --block 32 --param zz=5
expect_rc 2
expect_err "--param zz=5: no parameter of that name in kernel tile_col_plain(unsigned char* out, int p)"
t "advise: value does not fit" "$smemlab" advise "$K" --kernel narrow --block 32 --param c=-1
expect_rc 2
t "advise: by name" "$smemlab" advise "$K" --kernel strided --block 32 --param stride=2 --no-compile-check
expect_rc 0
expect_out 'line 19    ld    4B        2 wavefronts  2-way'
finish
