# triton_matmul.py: Triton's tutorial matmul (03-matrix-multiplication's matmul_kernel) compiled for
# the device `smemlab run` answers (sm_90: wgmma from shared memory filled by cp.async), without
# PyTorch (device memory from cuMemAlloc through ctypes). argv[1]: fp16 (default) or f32 (the tf32
# variant: float32 inputs, tl.dot's default input precision). 128x128x128, BLOCK 64x64x32, 4 warps,
# 3 stages; the result against NumPy's float32 product within the kernel's own tolerance, "triton
# matmul KIND PASS". TMM_DIR=dir: also writes there the cubin and PTX Triton made, the inputs and
# the result, for tests/hw/triton/triton_mm.c on a GPU (tests/hw/triton/README.md).
# Run: smemlab run <venv>/bin/python3 tests/run/triton_matmul.py [fp16|f32] (docs/run.md).
import ctypes, sys, numpy as np, triton, triton.language as tl
cu = ctypes.CDLL("libcuda.so.1")
class Buf:
    def __init__(self, a, dt):
        self.a, self.p = a, ctypes.c_uint64()
        assert cu.cuMemAlloc_v2(ctypes.byref(self.p), ctypes.c_size_t(a.nbytes)) == 0
        cu.cuMemcpyHtoD_v2(self.p, a.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(a.nbytes))
        self.dtype = dt
    def data_ptr(self): return self.p.value
    def numpy(self):
        out = np.empty_like(self.a)
        cu.cuMemcpyDtoH_v2(out.ctypes.data_as(ctypes.c_void_p), self.p, ctypes.c_size_t(out.nbytes))
        return out

@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                  BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, c, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))

ctx = ctypes.c_void_p()
cu.cuInit(0); cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), 0); cu.cuCtxSetCurrent(ctx)
kind = sys.argv[1] if len(sys.argv) > 1 else "fp16"
M = N = K = 128
rng = np.random.default_rng(0)
if kind == "fp16":
    a = rng.standard_normal((M, K)).astype(np.float16); b = rng.standard_normal((K, N)).astype(np.float16)
    dt = "torch.float16"
else:
    a = rng.standard_normal((M, K)).astype(np.float32); b = rng.standard_normal((K, N)).astype(np.float32)
    dt = "torch.float32"
c = np.zeros((M, N), np.float32)
ba, bb, bc = Buf(a, dt), Buf(b, dt), Buf(c, "torch.float32")
BM, BN, BK = 64, 64, 32
grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
h = matmul_kernel[grid](ba, bb, bc, M, N, K, K, 1, N, 1, N, 1, BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN,
                        BLOCK_SIZE_K=BK, GROUP_SIZE_M=8, num_warps=4, num_stages=3)
out = bc.numpy()
ref = a.astype(np.float32) @ b.astype(np.float32)
err = np.abs(out - ref).max()
print(kind, "max abs err", err, "wgmma" in h.asm["ptx"], "cp.async.bulk.tensor" in h.asm["ptx"])
tol = 1e-2 if kind == "fp16" else 5e-2   # tf32 inputs: 10-bit mantissas
assert err < tol, err
import os
d = os.environ.get("TMM_DIR")
if d:   # the kernel, its inputs and smemlab's output, for tests/hw/triton/triton_mm.c on the GPU
    os.makedirs(d, exist_ok=True)
    open(f"{d}/matmul_{kind}.cubin", "wb").write(h.asm["cubin"])
    open(f"{d}/matmul_{kind}.ptx", "w").write(h.asm["ptx"])
    a.tofile(f"{d}/a_{kind}.bin"); b.tofile(f"{d}/b_{kind}.bin"); out.tofile(f"{d}/c_{kind}.smemlab.bin")
    print("shared", h.metadata.shared)
print("triton matmul", kind, "PASS")
