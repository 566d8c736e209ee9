/* curand_dump: what NVIDIA's cuRAND host API gives on the GPU, for the stand-in's golden data
 * (tests/hw/curand/README.md). For each generator x ordering x distribution: the first values,
 * values after an offset, across calls, at a few sizes (head, tail and a hash of the whole), and
 * the status of bad calls. Writes one binary file per generator into the folder argv[1]:
 * records of {char name[40]; int32 status; uint32 esize; uint64 n; uint64 first; uint64 count}
 * followed by count*esize bytes (outputs first..first+count-1 of a call asking for n). */
#include <cuda_runtime.h>
#include <curand.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *out;
static int host_gen;
/* CURAND_DUMP_STANDIN=1: leave out what smemlab's stand-in refuses by name (Poisson of a large lambda
   on the 64-bit Sobol generators, parts of the dynamic ordering), so that the rest runs to the end
   under smemlab run */
static int standin;
static int cur_rng, cur_ord; /* the generator and ordering pseudo() is dumping */
static int broken;           /* a call on this generator was left out: leave out the ones after */

/* a Poisson call the stand-in refuses (docs/run.md) */
static int poisson_refused(int k_pois, double lambda) {
  if (!standin || !k_pois || lambda > 400000) return 0;
  if (cur_rng == CURAND_RNG_PSEUDO_MTGP32) return lambda > 8000;
  if (cur_rng == CURAND_RNG_QUASI_SOBOL64 || cur_rng == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64)
    return lambda >= 2000;
  if (cur_rng >= 200) return lambda > 5000;
  return 0;
}

/* what the stand-in refuses in the dynamic ordering (docs/run.md) */
static int dynamic_refused(int normal, uint64_t off, size_t n) {
  (void)n;
  if (!standin || cur_ord != CURAND_ORDERING_PSEUDO_DYNAMIC) return 0;
  return cur_rng == CURAND_RNG_PSEUDO_MTGP32 || (cur_rng == CURAND_RNG_PSEUDO_XORWOW && normal) ||
         (cur_rng == CURAND_RNG_PSEUDO_PHILOX4_32_10 && off / 4 > 67584 && off / 4 < 100000);
}

static void rec(const char *name, int status, unsigned esize, uint64_t n, uint64_t first,
                uint64_t count, const void *data) {
  char nm[40] = {0};
  snprintf(nm, sizeof nm, "%s", name);
  int32_t st = status;
  uint32_t es = esize;
  uint64_t h[3] = {n, first, count};
  fwrite(nm, 1, 40, out);
  fwrite(&st, 4, 1, out);
  fwrite(&es, 4, 1, out);
  fwrite(h, 8, 3, out);
  if (count) fwrite(data, esize, count, out);
}

static void *dbuf;
static void *hbuf;
#define MAXN (3000016ull)

static uint64_t fnv(const unsigned char *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

enum kind { K_U32, K_U64, K_UNIF, K_UNIFD, K_NORM, K_NORMD, K_LOGN, K_LOGND, K_POIS };
static const unsigned esz[] = {4, 8, 4, 8, 4, 8, 4, 8, 4};

/* one generation call; stores all of it when n <= full, else head, tail and hash */
static int gen(curandGenerator_t g, const char *name, enum kind k, size_t n, double a, double b,
               size_t full) {
  void *dst = host_gen ? hbuf : dbuf;
  int st;
  if (poisson_refused(k == K_POIS, a)) return 0;
  if (standin && broken) return 0;
  if (dynamic_refused((k >= K_NORM && k <= K_LOGND) || (k == K_POIS && a >= 2000 && a <= 400000), 0, n)) {
    broken = 1;
    return 0;
  }
  switch (k) {
  case K_U32: st = curandGenerate(g, dst, n); break;
  case K_U64: st = curandGenerateLongLong(g, dst, n); break;
  case K_UNIF: st = curandGenerateUniform(g, dst, n); break;
  case K_UNIFD: st = curandGenerateUniformDouble(g, dst, n); break;
  case K_NORM: st = curandGenerateNormal(g, dst, n, (float)a, (float)b); break;
  case K_NORMD: st = curandGenerateNormalDouble(g, dst, n, a, b); break;
  case K_LOGN: st = curandGenerateLogNormal(g, dst, n, (float)a, (float)b); break;
  case K_LOGND: st = curandGenerateLogNormalDouble(g, dst, n, a, b); break;
  default: st = curandGeneratePoisson(g, dst, n, a); break;
  }
  if (st == 0 && !host_gen) {
    cudaError_t e = cudaMemcpy(hbuf, dbuf, n * esz[k], cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) st = 1000 + (int)e;
  }
  if (st != 0) { rec(name, st, esz[k], n, 0, 0, NULL); return st; }
  if (n <= full) { rec(name, 0, esz[k], n, 0, n, hbuf); return 0; }
  rec(name, 0, esz[k], n, 0, 256, hbuf);
  rec(name, 0, esz[k], n, n - 256, 256, (char *)hbuf + (n - 256) * esz[k]);
  uint64_t h = fnv(hbuf, n * esz[k]);
  char nm[48];
  snprintf(nm, sizeof nm, "%s#fnv", name);
  rec(nm, 0, 8, n, 0, 1, &h);
  return 0;
}

static int mk(curandGenerator_t *g, int rng, int ord, int dims, uint64_t seed, uint64_t off) {
  broken = 0;
  int st = host_gen ? curandCreateGeneratorHost(g, rng) : curandCreateGenerator(g, rng);
  if (st) return st;
  if (rng < 200 && seed != ~0ull && (st = curandSetPseudoRandomGeneratorSeed(*g, seed))) return st;
  if (ord && (st = curandSetGeneratorOrdering(*g, ord))) return st;
  if (dims && (st = curandSetQuasiRandomGeneratorDimensions(*g, dims))) return st;
  if (off && (st = curandSetGeneratorOffset(*g, off))) return st;
  return 0;
}

/* a fresh generator, one call */
static void one(const char *name, int rng, int ord, int dims, uint64_t seed, uint64_t off,
                enum kind k, size_t n, double a, double b, size_t full) {
  curandGenerator_t g;
  if (poisson_refused(k == K_POIS, a)) return;
  if (dynamic_refused((k >= K_NORM && k <= K_LOGND) || (k == K_POIS && a >= 2000 && a <= 400000), off, n))
    return;
  int st = mk(&g, rng, ord, dims, seed, off);
  if (st) { rec(name, st, esz[k], n, 0, 0, NULL); return; }
  gen(g, name, k, n, a, b, full);
  curandDestroyGenerator(g);
}

#define ST(name, call) do { int s_ = (call); rec(name, s_, 0, 0, 0, 0, NULL); } while (0)

static void pseudo(int rng, int ord, const char *p) {
  char nm[64];
#define N(s) (snprintf(nm, sizeof nm, "%s%s", p, s), nm)
  const uint64_t S = 1234;
  curandGenerator_t g;
  cur_rng = rng;
  cur_ord = ord;
  if (dynamic_refused(0, 0, 0)) return; /* MTGP32 */
  int st = mk(&g, rng, ord, 0, S, 0);
  rec(N("create"), st, 0, 0, 0, 0, NULL);
  if (st) return;
  /* a big first call, then calls continuing it */
  gen(g, N("u32_big"), K_U32, 1u << 18, 0, 0, 1u << 18);
  gen(g, N("c_u32_1000"), K_U32, 1000, 0, 0, 1000);
  gen(g, N("c_u32_7"), K_U32, 7, 0, 0, 7);
  gen(g, N("c_unif_1001"), K_UNIF, 1001, 0, 0, 1001);
  gen(g, N("c_norm_1002"), K_NORM, 1002, 0, 1, 1002);
  gen(g, N("c_normd_998"), K_NORMD, 998, 0, 1, 998);
  gen(g, N("c_u32_4096"), K_U32, 4096, 0, 0, 4096);
  curandDestroyGenerator(g);
  one(N("off_u32"), rng, ord, 0, S, 100003, K_U32, 4096, 0, 0, 4096);
  one(N("off_unif"), rng, ord, 0, S, 100003, K_UNIF, 4096, 0, 0, 4096);
  one(N("off_norm"), rng, ord, 0, S, 100003, K_NORM, 4096, 0, 1, 4096);
  one(N("off_big_u32"), rng, ord, 0, S, 5000000017ull, K_U32, 4096, 0, 0, 4096);
  one(N("unif"), rng, ord, 0, S, 0, K_UNIF, 1 << 14, 0, 0, 1 << 14);
  one(N("unifd"), rng, ord, 0, S, 0, K_UNIFD, 1 << 14, 0, 0, 1 << 14);
  one(N("norm"), rng, ord, 0, S, 0, K_NORM, 1 << 14, 0, 1, 1 << 14);
  one(N("norm_ms"), rng, ord, 0, S, 0, K_NORM, 1024, 1.5, 2.5, 1024);
  one(N("normd"), rng, ord, 0, S, 0, K_NORMD, 1 << 14, 0, 1, 1 << 14);
  one(N("normd_ms"), rng, ord, 0, S, 0, K_NORMD, 1024, 1.5, 2.5, 1024);
  one(N("logn"), rng, ord, 0, S, 0, K_LOGN, 4096, 0.5, 1.5, 4096);
  one(N("lognd"), rng, ord, 0, S, 0, K_LOGND, 4096, 0.5, 1.5, 4096);
  one(N("pois0.3"), rng, ord, 0, S, 0, K_POIS, 4096, 0.3, 0, 4096);
  one(N("pois3.7"), rng, ord, 0, S, 0, K_POIS, 4096, 3.7, 0, 4096);
  one(N("pois60"), rng, ord, 0, S, 0, K_POIS, 4096, 60, 0, 4096);
  one(N("pois2000"), rng, ord, 0, S, 0, K_POIS, 4096, 2000, 0, 4096);
  one(N("pois1e6"), rng, ord, 0, S, 0, K_POIS, 1024, 1e6, 0, 1024);
  one(N("seed0"), rng, ord, 0, 0, 0, K_U32, 4096, 0, 0, 4096);
  one(N("seednone"), rng, ord, 0, ~0ull, 0, K_U32, 4096, 0, 0, 4096);
  one(N("seedbig"), rng, ord, 0, 0xfedcba9876543210ull, 0, K_U32, 4096, 0, 0, 4096);
  static const size_t ns[] = {1, 33, 4097, 65537, 3000001};
  for (int i = 0; i < 5; i++) {
    char s[32];
    snprintf(s, sizeof s, "n_u32_%zu", ns[i]);
    one(N(s), rng, ord, 0, S, 0, K_U32, ns[i], 0, 0, 512);
    snprintf(s, sizeof s, "n_unif_%zu", ns[i]);
    one(N(s), rng, ord, 0, S, 0, K_UNIF, ns[i], 0, 0, 512);
    snprintf(s, sizeof s, "n_norm_%zu", ns[i] + 1);
    one(N(s), rng, ord, 0, S, 0, K_NORM, ns[i] + 1, 0, 1, 512);
    snprintf(s, sizeof s, "n_normd_%zu", ns[i] + 1);
    one(N(s), rng, ord, 0, S, 0, K_NORMD, ns[i] + 1, 0, 1, 512);
  }
  /* bad calls */
  one(N("bad_norm_odd"), rng, ord, 0, S, 0, K_NORM, 1001, 0, 1, 2000);
  one(N("bad_normd_odd"), rng, ord, 0, S, 0, K_NORMD, 1001, 0, 1, 2000);
  one(N("bad_logn_odd"), rng, ord, 0, S, 0, K_LOGN, 3, 0, 1, 2000);
  one(N("bad_u64"), rng, ord, 0, S, 0, K_U64, 16, 0, 0, 2000);
  one(N("bad_norm_sd0"), rng, ord, 0, S, 0, K_NORM, 16, 0, 0, 2000);
  one(N("bad_norm_sdneg"), rng, ord, 0, S, 0, K_NORM, 16, 0, -1, 2000);
  one(N("bad_pois0"), rng, ord, 0, S, 0, K_POIS, 16, 0, 0, 2000);
  one(N("bad_poisneg"), rng, ord, 0, S, 0, K_POIS, 16, -1, 0, 2000);
  one(N("bad_u32_0"), rng, ord, 0, S, 0, K_U32, 0, 0, 0, 2000);
  one(N("bad_norm_0"), rng, ord, 0, S, 0, K_NORM, 0, 0, 1, 2000);
  if (!mk(&g, rng, ord, 0, S, 0)) {
    ST(N("st_dims"), curandSetQuasiRandomGeneratorDimensions(g, 2));
    ST(N("st_ordquasi"), curandSetGeneratorOrdering(g, CURAND_ORDERING_QUASI_DEFAULT));
    ST(N("st_ord999"), curandSetGeneratorOrdering(g, 999));
    ST(N("st_seeds"), curandGenerateSeeds(g));
    ST(N("st_stream0"), curandSetStream(g, 0));
    ST(N("st_offset"), curandSetGeneratorOffset(g, 77));
    curandDestroyGenerator(g);
  }
  /* after GenerateSeeds and a seed change, and ordering changed after a generate */
  if (!mk(&g, rng, ord, 0, S, 0)) {
    gen(g, N("re_u32_a"), K_U32, 64, 0, 0, 64);
    curandSetPseudoRandomGeneratorSeed(g, 99);
    gen(g, N("re_u32_seed99"), K_U32, 64, 0, 0, 64);
    curandSetGeneratorOffset(g, 0);
    gen(g, N("re_u32_off0"), K_U32, 64, 0, 0, 64);
    curandDestroyGenerator(g);
  }
  /* the host generator */
  host_gen = 1;
  one(N("host_u32"), rng, ord, 0, S, 0, K_U32, 1 << 14, 0, 0, 1 << 14);
  one(N("host_unif"), rng, ord, 0, S, 0, K_UNIF, 4096, 0, 0, 4096);
  one(N("host_norm"), rng, ord, 0, S, 0, K_NORM, 4096, 0, 1, 4096);
  one(N("host_off_u32"), rng, ord, 0, S, 100003, K_U32, 4096, 0, 0, 4096);
  host_gen = getenv("CURAND_DUMP_HOST") && atoi(getenv("CURAND_DUMP_HOST"));
#undef N
}

static void quasi(int rng, int dims, const char *p) {
  char nm[64];
#define N(s) (snprintf(nm, sizeof nm, "%s%s", p, s), nm)
  int b64 = rng == CURAND_RNG_QUASI_SOBOL64 || rng == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64;
  cur_rng = rng;
  cur_ord = 0;
  enum kind ki = b64 ? K_U64 : K_U32;
  size_t m = dims >= 100 ? 512 : 4096;
  curandGenerator_t g;
  int st = mk(&g, rng, 0, dims, 0, 0);
  rec(N("create"), st, 0, 0, 0, 0, NULL);
  if (st) return;
  gen(g, N("bits"), ki, dims * m, 0, 0, dims * m);
  gen(g, N("c_bits"), ki, dims * 100, 0, 0, dims * 100);
  gen(g, N("c_unif"), K_UNIF, dims * 33, 0, 0, dims * 33);
  gen(g, N("c_norm"), K_NORM, dims * 34, 0, 1, dims * 34);
  gen(g, N("c_bits2"), ki, dims * 64, 0, 0, dims * 64);
  curandDestroyGenerator(g);
  one(N("off_bits"), rng, 0, dims, ~0ull, 1000, ki, dims * 512, 0, 0, dims * 512);
  one(N("off_unif"), rng, 0, dims, ~0ull, 1000, K_UNIF, dims * 512, 0, 0, dims * 512);
  one(N("off_big_bits"), rng, 0, dims, ~0ull, 5000000017ull, ki, dims * 64, 0, 0, dims * 64);
  one(N("wrongbits"), rng, 0, dims, ~0ull, 0, b64 ? K_U32 : K_U64, dims * 16, 0, 0, dims * 16);
  one(N("unif"), rng, 0, dims, ~0ull, 0, K_UNIF, dims * m, 0, 0, dims * m);
  one(N("unifd"), rng, 0, dims, ~0ull, 0, K_UNIFD, dims * m, 0, 0, dims * m);
  one(N("norm"), rng, 0, dims, ~0ull, 0, K_NORM, dims * m, 0, 1, dims * m);
  one(N("norm_ms"), rng, 0, dims, ~0ull, 0, K_NORM, dims * 256, 1.5, 2.5, dims * 256);
  one(N("normd"), rng, 0, dims, ~0ull, 0, K_NORMD, dims * m, 0, 1, dims * m);
  one(N("logn"), rng, 0, dims, ~0ull, 0, K_LOGN, dims * 256, 0.5, 1.5, dims * 256);
  one(N("lognd"), rng, 0, dims, ~0ull, 0, K_LOGND, dims * 256, 0.5, 1.5, dims * 256);
  one(N("pois3.7"), rng, 0, dims, ~0ull, 0, K_POIS, dims * 256, 3.7, 0, dims * 256);
  one(N("pois2000"), rng, 0, dims, ~0ull, 0, K_POIS, dims * 256, 2000, 0, dims * 256);
  if (dims <= 3) { /* the buffers hold MAXN numbers */
    one(N("n_bits_big"), rng, 0, dims, ~0ull, 0, ki, dims * 1000003ull, 0, 0, 512);
    one(N("n_norm_big"), rng, 0, dims, ~0ull, 0, K_NORM, dims * 1000003ull, 0, 1, 512);
  }
  one(N("n_norm_odd"), rng, 0, dims, ~0ull, 0, K_NORM, dims * 3, 0, 1, 512);
  one(N("bad_len"), rng, 0, dims, ~0ull, 0, ki, dims * 16 + 1, 0, 0, 4096);
  one(N("bad_len_unif"), rng, 0, dims, ~0ull, 0, K_UNIF, dims * 16 + 1, 0, 0, 4096);
  if (!mk(&g, rng, 0, dims, 0, 0)) {
    ST(N("st_seed"), curandSetPseudoRandomGeneratorSeed(g, 5));
    ST(N("st_ordpseudo"), curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_BEST));
    ST(N("st_ordquasi"), curandSetGeneratorOrdering(g, CURAND_ORDERING_QUASI_DEFAULT));
    ST(N("st_dims0"), curandSetQuasiRandomGeneratorDimensions(g, 0));
    ST(N("st_dims20000"), curandSetQuasiRandomGeneratorDimensions(g, 20000));
    ST(N("st_dims20001"), curandSetQuasiRandomGeneratorDimensions(g, 20001));
    ST(N("st_seeds"), curandGenerateSeeds(g));
    curandDestroyGenerator(g);
  }
  host_gen = 1;
  one(N("host_bits"), rng, 0, dims, ~0ull, 0, ki, dims * 256, 0, 0, dims * 256);
  one(N("host_norm"), rng, 0, dims, ~0ull, 0, K_NORM, dims * 256, 0, 1, dims * 256);
  host_gen = getenv("CURAND_DUMP_HOST") && atoi(getenv("CURAND_DUMP_HOST"));
#undef N
}

/* Philox in the dynamic ordering at offsets past 2^32 outputs (session 4): 64 numbers each */
static void philox_dynamic(const char *dir) {
  char path[4096], nm[64];
  snprintf(path, sizeof path, "%s/philoxdyn.bin", dir);
  out = fopen(path, "wb");
  if (!out) { perror(path); return; }
  static const unsigned long long offs[] = {
    100003ull, 4294967040ull, 4294967292ull, 4294967296ull, 4294967300ull, 4294967297ull,
    4295237632ull, 4295237636ull, 5000000017ull, 5000000016ull, 5000270352ull, 8589934592ull,
    10000000000ull, 17179869184ull, 1099511640000ull, 281474976710656ull, 2147483644ull,
    2147483648ull, 2147483652ull, 1073741824ull, 3221225472ull, 2147483647ull, 1610612736ull,
    270336ull, 1000000ull, 4000000ull, 16000000ull, 64000000ull, 128000000ull, 256000000ull,
    512000000ull, 768000000ull, 200000ull, 400000ull, 2000000ull, 8000000ull, 32000000ull};
  cur_rng = CURAND_RNG_PSEUDO_PHILOX4_32_10;
  cur_ord = CURAND_ORDERING_PSEUDO_DYNAMIC;
  for (unsigned i = 0; i < sizeof offs / sizeof *offs; i++) {
    snprintf(nm, sizeof nm, "dynamic/off%llu", offs[i]);
    one(nm, CURAND_RNG_PSEUDO_PHILOX4_32_10, CURAND_ORDERING_PSEUDO_DYNAMIC, 0, 1234, offs[i],
        K_U32, 64, 0, 0, 64);
  }
  /* one call across 2^32 */
  one("dynamic/across", CURAND_RNG_PSEUDO_PHILOX4_32_10, CURAND_ORDERING_PSEUDO_DYNAMIC, 0, 1234,
      4294967296ull - 1024, K_U32, 4096, 0, 0, 4096);
  one("dynamic/across31", CURAND_RNG_PSEUDO_PHILOX4_32_10, CURAND_ORDERING_PSEUDO_DYNAMIC, 0, 1234,
      2147483648ull - 1024, K_U32, 4096, 0, 0, 4096);
  /* a call continuing one that ended below 2^31 outputs, past it */
  curandGenerator_t g;
  if (!mk(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10, CURAND_ORDERING_PSEUDO_DYNAMIC, 0, 1234,
          2147483648ull - 64)) {
    gen(g, "dynamic/cont_a", K_U32, 32, 0, 0, 32);
    gen(g, "dynamic/cont_b", K_U32, 64, 0, 0, 64);
    curandDestroyGenerator(g);
  }
  fclose(out);
}

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: curand_dump OUTDIR [quasi | philoxdyn]\n"); return 2; }
  if (argc > 2 && !strcmp(argv[2], "philoxdyn")) { /* the GPU's Philox dynamic ordering alone */
    if (cudaMalloc(&dbuf, MAXN * 8) != cudaSuccess) { fprintf(stderr, "cudaMalloc failed\n"); return 1; }
    hbuf = malloc(MAXN * 8);
    standin = getenv("CURAND_DUMP_STANDIN") && atoi(getenv("CURAND_DUMP_STANDIN"));
    philox_dynamic(argv[1]);
    return 0;
  }
  int quasi_only = argc > 2 && !strcmp(argv[2], "quasi"); /* the quasirandom part alone */
  /* CURAND_DUMP_HOST=1: every generator a host one (no GPU needed), to compare with the GPU's */
  int all_host = getenv("CURAND_DUMP_HOST") && atoi(getenv("CURAND_DUMP_HOST"));
  if (!all_host && cudaMalloc(&dbuf, MAXN * 8) != cudaSuccess) { fprintf(stderr, "cudaMalloc failed\n"); return 1; }
  host_gen = all_host;
  standin = getenv("CURAND_DUMP_STANDIN") && atoi(getenv("CURAND_DUMP_STANDIN"));
  hbuf = malloc(MAXN * 8);
  char path[4096];
  static const struct { int rng; const char *name; } ps[] = {
    {CURAND_RNG_PSEUDO_XORWOW, "xorwow"}, {CURAND_RNG_PSEUDO_MRG32K3A, "mrg32k3a"},
    {CURAND_RNG_PSEUDO_MTGP32, "mtgp32"}, {CURAND_RNG_PSEUDO_MT19937, "mt19937"},
    {CURAND_RNG_PSEUDO_PHILOX4_32_10, "philox"}};
  static const struct { int ord; const char *name; } os[] = {
    {CURAND_ORDERING_PSEUDO_DEFAULT, "default"}, {CURAND_ORDERING_PSEUDO_BEST, "best"},
    {CURAND_ORDERING_PSEUDO_SEEDED, "seeded"}, {CURAND_ORDERING_PSEUDO_LEGACY, "legacy"},
    {CURAND_ORDERING_PSEUDO_DYNAMIC, "dynamic"}};
  for (int i = 0; i < 5 && !quasi_only; i++) {
    snprintf(path, sizeof path, "%s/%s.bin", argv[1], ps[i].name);
    out = fopen(path, "wb");
    if (!out) { perror(path); return 1; }
    for (int o = 0; o < 5; o++) {
      char p[64];
      snprintf(p, sizeof p, "%s/", os[o].name);
      pseudo(ps[i].rng, os[o].ord, p);
    }
    /* the default generator type, no ordering set */
    if (i == 0) pseudo(CURAND_RNG_PSEUDO_DEFAULT, 0, "rngdefault/");
    fclose(out);
    fprintf(stderr, "%s done\n", ps[i].name);
  }
  snprintf(path, sizeof path, "%s/sobol.bin", argv[1]);
  out = fopen(path, "wb");
  static const struct { int rng; const char *name; } qs[] = {
    {CURAND_RNG_QUASI_SOBOL32, "sobol32"}, {CURAND_RNG_QUASI_SCRAMBLED_SOBOL32, "ssobol32"},
    {CURAND_RNG_QUASI_SOBOL64, "sobol64"}, {CURAND_RNG_QUASI_SCRAMBLED_SOBOL64, "ssobol64"},
    {CURAND_RNG_QUASI_DEFAULT, "quasidefault"}};
  static const int dims[] = {1, 3, 100, 20000};
  for (int i = 0; i < 5; i++)
    for (int d = 0; d < 4; d++) {
      if (dims[d] == 20000 && i != 0 && i != 2) continue;
      char p[64];
      snprintf(p, sizeof p, "%s/d%d/", qs[i].name, dims[d]);
      if (dims[d] == 20000) {
        curandGenerator_t g;
        if (!mk(&g, qs[i].rng, 0, 20000, 0, 0)) {
          snprintf(p, sizeof p, "%s/d20000/bits", qs[i].name);
          gen(g, p, i == 2 ? K_U64 : K_U32, 20000 * 4, 0, 0, 20000 * 4);
          curandDestroyGenerator(g);
        }
        continue;
      }
      quasi(qs[i].rng, dims[d], p);
    }
  /* the tables (first 64 dimensions; the rest checked by hash) */
  for (int set = 101; set <= 104; set++) {
    char nm[48];
    snprintf(nm, sizeof nm, "dirvec%d", set);
    if (set == 101 || set == 102) {
      curandDirectionVectors32_t *v;
      int st = curandGetDirectionVectors32(&v, set);
      if (st) { rec(nm, st, 0, 0, 0, 0, NULL); continue; }
      rec(nm, 0, 4, 20000 * 32, 0, 64 * 32, v);
      uint64_t h = fnv((const unsigned char *)v, 20000 * 32 * 4);
      strcat(nm, "#fnv");
      rec(nm, 0, 8, 20000 * 32, 0, 1, &h);
    } else {
      curandDirectionVectors64_t *v;
      int st = curandGetDirectionVectors64(&v, set);
      if (st) { rec(nm, st, 0, 0, 0, 0, NULL); continue; }
      rec(nm, 0, 8, 20000 * 64, 0, 64 * 64, v);
      uint64_t h = fnv((const unsigned char *)v, 20000 * 64 * 8);
      strcat(nm, "#fnv");
      rec(nm, 0, 8, 20000 * 64, 0, 1, &h);
    }
  }
  {
    unsigned *c32; unsigned long long *c64;
    int st = curandGetScrambleConstants32(&c32);
    rec("scramble32", st, 4, 20000, 0, st ? 0 : 20000, c32);
    st = curandGetScrambleConstants64(&c64);
    rec("scramble64", st, 8, 20000, 0, st ? 0 : 20000, c64);
    ST("st_dirvec_bad", curandGetDirectionVectors32(NULL, 103));
  }
  fclose(out);
  snprintf(path, sizeof path, "%s/misc.txt", argv[1]);
  FILE *t = fopen(path, "w");
  int v = 0, a = -1, b = -1, c = -1;
  curandGetVersion(&v);
  curandGetProperty(MAJOR_VERSION, &a);
  curandGetProperty(MINOR_VERSION, &b);
  curandGetProperty(PATCH_LEVEL, &c);
  int drv = 0, rt = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  struct cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  fprintf(t, "device %s sms %d cc %d.%d\ncuda_driver %d runtime %d\ncurand_version %d property %d %d %d\n",
          prop.name, prop.multiProcessorCount, prop.major, prop.minor, drv, rt, v, a, b, c);
  curandGenerator_t g;
  fprintf(t, "create_rng0 %d\n", curandCreateGenerator(&g, CURAND_RNG_TEST));
  fprintf(t, "create_rng999 %d\n", curandCreateGenerator(&g, 999));
  fprintf(t, "create_host_rng999 %d\n", curandCreateGeneratorHost(&g, 999));
  fprintf(t, "getproperty_bad %d\n", curandGetProperty(7, &a));
  fclose(t);
  fprintf(stderr, "all done\n");
  return 0;
}
