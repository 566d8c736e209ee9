# cudacore_shared.py: a cuda.core program compiled with NVRTC, its kernel with shared memory: a
# 64x64 float matrix transposed through a 32x32 tile in shared memory (unpadded: every warp's column
# read is a 32-way bank conflict), blocks of 32x8 threads, a 2x2 grid; the result against NumPy's,
# "cudacore PASS". 8 warps a block, each 4 row stores and 4 column reads: 128 / 128 stores and
# 128 / 4096 loads in all, as Nsight Compute counts the same PTX on the H200 (tests/hw/python/).
# PTX_DIR=dir: also writes there the PTX NVRTC made (transpose.ptx), for
# tests/hw/python/ on a GPU.
# Run: smemlab run <venv>/bin/python3 tests/run/cudacore_shared.py (docs/run.md).
import ctypes, os, numpy as np
from cuda.core import Device, LaunchConfig, Program, ProgramOptions, launch

code = r"""
extern "C" __global__ void transpose(const float *in, float *out, int n)
{
    __shared__ float tile[32][32];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
"""
dev = Device()
dev.set_current()
s = dev.create_stream()
prog = Program(code, "c++", options=ProgramOptions(arch="sm_90"))
ptx = prog.compile("ptx")
kern = ptx.get_kernel("transpose")
n = 64
a = (np.arange(n * n, dtype=np.float32) * 0.5).reshape(n, n)
din, dout = dev.allocate(a.nbytes, stream=s), dev.allocate(a.nbytes, stream=s)
out = np.zeros_like(a)
cu = ctypes.CDLL("libcuda.so.1")   # the copies: the driver's, as for any program
s.sync()
cu.cuMemcpyHtoD_v2(ctypes.c_uint64(int(din.handle)), a.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(a.nbytes))
launch(s, LaunchConfig(grid=(n // 32, n // 32), block=(32, 8)), kern, din, dout, np.int32(n))
s.sync()
cu.cuMemcpyDtoH_v2(out.ctypes.data_as(ctypes.c_void_p), ctypes.c_uint64(int(dout.handle)), ctypes.c_size_t(a.nbytes))
print(out[:2, :4])
assert np.array_equal(out, a.T)
d = os.environ.get("PTX_DIR")
if d:
    os.makedirs(d, exist_ok=True)
    code = ptx.code if isinstance(ptx.code, bytes) else ptx.code.encode()
    open(f"{d}/transpose.ptx", "wb").write(code.rstrip(b"\0"))   # NVRTC ends it with a NUL
print("cudacore PASS")
