# numba_shared.py: a Numba-CUDA kernel with shared memory (cuda.shared.array, cuda.syncthreads): a
# tree sum of each block of 128 floats, against NumPy's, "numba PASS". Under `smemlab run`, Numba
# (which finds smemlab's nvJitLink, answering no version, so compiles without LTO) links its PTX
# with the driver's cuLink* (through cuda.core) and loads the cubin: docs/run.md. Per block: 4
# warps store, 7 halving steps (2 warps, then 1) load twice and store once, thread 0 loads: 17
# load and 12 store requests, conflict-free; 8 blocks: 136 / 136 and 96 / 96, as Nsight Compute
# counts the same PTX on the H200 (tests/hw/python/).
# PTX_DIR=dir: also writes there the PTX Numba made (block_sum.ptx), for tests/hw/python/ on a GPU.
# Run: smemlab run <venv>/bin/python3 tests/run/numba_shared.py
import numpy as np
from numba import cuda, float32

TPB = 128

@cuda.jit
def block_sum(x, out):
    s = cuda.shared.array(TPB, float32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * TPB + t
    s[t] = x[i] if i < x.size else float32(0)
    cuda.syncthreads()
    step = TPB // 2
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        out[cuda.blockIdx.x] = s[0]

n = 1000
x = np.arange(n, dtype=np.float32) % 7
nb = (n + TPB - 1) // TPB
dx = cuda.to_device(x)
dout = cuda.device_array(nb, np.float32)
block_sum[nb, TPB](dx, dout)
out = dout.copy_to_host()
ref = np.array([x[b*TPB:(b+1)*TPB].sum() for b in range(nb)], np.float32)
print(out, ref)
assert np.array_equal(out, ref)
import os
d = os.environ.get("PTX_DIR")
if d:   # the PTX NVVM made, as Numba hands it to the driver's cuLink* under `smemlab run`
    os.makedirs(d, exist_ok=True)
    open(f"{d}/block_sum.ptx", "w").write(next(iter(block_sum.inspect_asm().values())))
print("numba PASS")
