// multi_dyn.cu: several arrays carved out of one dynamic shared-memory allocation (seeds 001 and
// 002; EXPERIMENTS row 9). The launch gives one size; the kernel splits it with pointers, so the
// programmer, not the compiler, is responsible for each part's size and alignment.

// Seed 001's int / float / char split: ints at offset 0, floats after nI ints, chars after nF
// floats. Dynamic shared memory: nI*4 + nF*4 + nC bytes (576 for 64 of each). Global in and out
// hold the three arrays packed the same way; each part is copied in, and copied out reversed so
// that every element crosses between threads. Every access is conflict-free: 4-byte parts are
// consecutive words, the char part is 4 lanes to a word (sub-word accesses share the word).
// Launch: grid 1, block 64, params nI = nF = nC = 64.
extern "C" __global__ void multiArrays(const unsigned char *in, unsigned char *out, int nI, int nF,
                                       int nC)
{
    extern __shared__ int s[];
    int *integerData = s;
    float *floatData = (float *)&integerData[nI];
    char *charData = (char *)&floatData[nF];

    const int *gi = (const int *)in;
    const float *gf = (const float *)(gi + nI);
    const char *gc = (const char *)(gf + nF);
    int *oi = (int *)out;
    float *of = (float *)(oi + nI);
    char *oc = (char *)(of + nF);

    for (int i = threadIdx.x; i < nI; i += blockDim.x)
        integerData[i] = gi[i];
    for (int i = threadIdx.x; i < nF; i += blockDim.x)
        floatData[i] = gf[i];
    for (int i = threadIdx.x; i < nC; i += blockDim.x)
        charData[i] = gc[i];
    __syncthreads();
    for (int i = threadIdx.x; i < nI; i += blockDim.x)
        oi[i] = integerData[nI - 1 - i];
    for (int i = threadIdx.x; i < nF; i += blockDim.x)
        of[i] = floatData[nF - 1 - i];
    for (int i = threadIdx.x; i < nC; i += blockDim.x)
        oc[i] = charData[nC - 1 - i];
}

// Seed 002's listing 6.3: a char array and a float array in one buffer (bothBuffers), the float
// part starting sizeofCharArray bytes in. That offset must be a multiple of 4 (a float must be
// 4-byte aligned): 64 here. Every thread copies its elements in; thread 0 then increments the first
// char and the first float (the listing's firstArray[0]++, secondArray[0]++, done by one thread so
// the result is defined); everything is copied out. Dynamic shared memory: sizeofCharArray + nF*4
// bytes (320). Launch: grid 1, block 64.
extern "C" __global__ void charFloat(const char *inc, const float *inf, char *outc, float *outf,
                                     int sizeofCharArray, int nF)
{
    extern __shared__ char bothBuffers[];
    char *firstArray = &bothBuffers[0];
    float *secondArray = (float *)&bothBuffers[sizeofCharArray];

    for (int i = threadIdx.x; i < sizeofCharArray; i += blockDim.x)
        firstArray[i] = inc[i];
    for (int i = threadIdx.x; i < nF; i += blockDim.x)
        secondArray[i] = inf[i];
    __syncthreads();
    if (threadIdx.x == 0) {
        firstArray[0]++;
        secondArray[0]++;
    }
    __syncthreads();
    for (int i = threadIdx.x; i < sizeofCharArray; i += blockDim.x)
        outc[i] = firstArray[i];
    for (int i = threadIdx.x; i < nF; i += blockDim.x)
        outf[i] = secondArray[i];
}
