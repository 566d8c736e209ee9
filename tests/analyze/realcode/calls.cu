// Device functions that are not inlined (__noinline__, or every function under -G): their shared
// accesses count at the kernel's line of the call; arguments and results pass through them.
__device__ __noinline__ float load_at(const float *s, int i) { return s[i]; }
__device__ __noinline__ int stride_of(int k) { return 2 * k + 1; }         // odd: conflict-free
__device__ __noinline__ void store_twice(float *s, int i, float v)
{
    s[i] = v;
    s[(i * 32) % 1024] = v;                                                 // 32-way
}
__device__ __noinline__ float nested(const float *s, int i) { return load_at(s, i) + load_at(s, i + 1); }

__global__ void calls(float *out, int k)
{
    __shared__ float s[1024];
    int t = threadIdx.x;
    store_twice(s, t, 1.0f);
    __syncthreads();
    float a = load_at(s, (t * stride_of(k)) % 1024);
    float b = 0.0f;
    if (t < 16)
        b = nested(s, t);
    out[t] = a + b;
}

__device__ __noinline__ int depth(const float *s, int n) { return n <= 0 ? (int)s[0] : depth(s, n - 1) + 1; }
__global__ void recursive(float *out)
{
    __shared__ float s[32];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = depth(s, threadIdx.x);
}

// A recursion that never reaches its base case: smemlab's call stack overflows, located.
__device__ __noinline__ int runaway_depth(volatile int *s, int n)
{
    if (n == 0)
        return s[0];
    int r = runaway_depth(s, n + 1);
    s[n % 32] = r;
    return r + runaway_depth(s, n + 2);
}
__global__ void runaway(int *out)
{
    __shared__ int s[32];
    out[threadIdx.x] = runaway_depth(s, threadIdx.x + 1);
}
