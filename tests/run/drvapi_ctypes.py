"""drvapi_ctypes.py: a Python program that reaches the CUDA driver as Python's CUDA packages do,
through libcuda.so.1 (here with ctypes, the standard library only): the primary context, PTX text
loaded with cuModuleLoadData, memory, a launch of a kernel that stages its block through shared
memory (each block's 256 floats reversed), the copy back checked against the same computed on the
host; a pointer freed twice (the error smemlab reports at its line). Prints "ctypes PASS"; exit 1
with the failing call otherwise."""
import ctypes
import struct
import sys

PTX = b"""
.version 8.0
.target sm_90
.address_size 64
.visible .entry reverse256(.param .u64 out, .param .u64 in)
{
    .reg .b32 %r<10>; .reg .f32 %f<2>; .reg .b64 %rd<10>;
    .shared .align 4 .f32 tile[256];
    ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [in];
    mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x;
    shl.b32 %r3, %r2, 8; add.u32 %r4, %r3, %r1;
    cvta.to.global.u64 %rd3, %rd2; mul.wide.u32 %rd4, %r4, 4; add.s64 %rd5, %rd3, %rd4;
    ld.global.f32 %f1, [%rd5];
    mov.u32 %r5, tile; shl.b32 %r6, %r1, 2; add.u32 %r7, %r5, %r6;
    st.shared.f32 [%r7], %f1;
    bar.sync 0;
    sub.u32 %r8, 255, %r1; shl.b32 %r9, %r8, 2; add.u32 %r9, %r5, %r9;
    ld.shared.f32 %f1, [%r9];
    cvta.to.global.u64 %rd6, %rd1; add.s64 %rd7, %rd6, %rd4;
    st.global.f32 [%rd7], %f1;
    ret;
}
"""

cu = ctypes.CDLL("libcuda.so.1")


def check(name, *args):
    r = getattr(cu, name)(*args)
    if r != 0:
        print(f"FAIL {name}: CUresult {r}")
        sys.exit(1)


BLOCKS = 4
N = 256 * BLOCKS
check("cuInit", 0)
dev = ctypes.c_int()
check("cuDeviceGet", ctypes.byref(dev), 0)
ctx = ctypes.c_void_p()
check("cuDevicePrimaryCtxRetain", ctypes.byref(ctx), dev)
check("cuCtxSetCurrent", ctx)
mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
check("cuModuleLoadData", ctypes.byref(mod), ctypes.c_char_p(PTX))
check("cuModuleGetFunction", ctypes.byref(fn), mod, b"reverse256")
host = (ctypes.c_float * N)(*[float(i) * 0.5 for i in range(N)])
back = (ctypes.c_float * N)()
din, dout = ctypes.c_uint64(), ctypes.c_uint64()
check("cuMemAlloc_v2", ctypes.byref(din), ctypes.c_size_t(4 * N))
check("cuMemAlloc_v2", ctypes.byref(dout), ctypes.c_size_t(4 * N))
check("cuMemcpyHtoD_v2", din, host, ctypes.c_size_t(4 * N))
params = (ctypes.c_void_p * 2)(ctypes.addressof(dout), ctypes.addressof(din))
u = ctypes.c_uint
check("cuLaunchKernel", fn, u(BLOCKS), u(1), u(1), u(256), u(1), u(1), u(0), None, params, None)
check("cuCtxSynchronize")
check("cuMemcpyDtoH_v2", back, dout, ctypes.c_size_t(4 * N))
want = [host[(i // 256) * 256 + 255 - i % 256] for i in range(N)]
if list(back) != want:
    print("FAIL the reversed blocks differ")
    sys.exit(1)
check("cuMemFree_v2", din)
check("cuMemFree_v2", dout)
if cu.cuMemFree_v2(din) != 1:  # freed twice: CUDA_ERROR_INVALID_VALUE, reported at this line
    print("FAIL a second cuMemFree of the same pointer succeeded")
    sys.exit(1)
check("cuDevicePrimaryCtxRelease_v2", dev)
print("ctypes PASS")
