// Instructions CUB and the TF32 paths emit: the stored values feed the next address.
__global__ void bits(float *out)
{
    __shared__ unsigned s[256];
    unsigned m, z, t;
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(m) : "r"(1u), "r"(2u));               // 0b110 = 6
    asm("szext.wrap.s32 %0, %1, %2;" : "=r"(z) : "r"(0xfu), "r"(4u));              // -1
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t) : "f"(1.0f + 0x1p-11f));              // 1 + 2^-10
    asm volatile("griddepcontrol.wait;" ::: "memory");
    unsigned k = (m == 6u) + (z == 0xffffffffu) + (t == 0x3f802000u);               // 3 when right
    s[threadIdx.x] = k;
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x * (s[0] - 1)) % 256];                         // stride 2 iff right
}
