/* rand_dist.c: the distributions of the host API out of a generator's 32-bit draws, as
 * curand_uniform.h and curand_normal.h form them: uniform floats x * 2^-32 + 2^-33 (fused, as
 * nvcc contracts it), doubles of 53 bits from two draws (x ^ y << 21), Box-Muller pairs, and
 * MRG32k3a's own forms from its combined value. The GPU's Box-Muller takes sine and cosine from
 * the SFU (__sincosf) and sincospi; here they come from libm (docs/run.md says how far apart). */
#include "rand.h"

#include <math.h>

#define INV32 2.3283064e-10f
#define INV53 1.1102230246251565e-16
#define MRG_NORM 2.3283065498378288e-10

float rand_uniform(uint32_t x)
{
    return fmaf((float)x, INV32, INV32 / 2.0f);
}

double rand_uniform_double_hq(uint32_t x, uint32_t y)
{
    uint64_t z = (uint64_t)x ^ ((uint64_t)y << 21);
    return (double)z * INV53 + INV53 / 2.0;
}

float rand_mrg_uniform(uint32_t raw)
{
    return (float)(raw * MRG_NORM);
}

double rand_mrg_uniform_double(uint32_t raw)
{
    return raw * MRG_NORM;
}

void rand_box_muller(uint32_t x, uint32_t y, float out[2])
{
    float u = fmaf((float)x, INV32, INV32 / 2);
    float v = fmaf((float)y, INV32 * 6.2831855f, INV32 * 6.2831855f / 2);
    float s = sqrtf(-2.0f * logf(u));
    out[0] = sinf(v) * s;
    out[1] = cosf(v) * s;
}

void rand_box_muller_double(uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, double out[2])
{
    uint64_t zx = (uint64_t)x0 ^ ((uint64_t)x1 << 21), zy = (uint64_t)y0 ^ ((uint64_t)y1 << 21);
    double u = (double)zx * INV53 + INV53 / 2.0;
    double v = (double)zy * (INV53 * 2.0) + INV53;
    double s = sqrt(-2.0 * log(u));
    out[0] = sin(v * 3.1415926535897932) * s;
    out[1] = cos(v * 3.1415926535897932) * s;
}

void rand_box_muller_mrg(uint32_t rx, uint32_t ry, float out[2])
{
    float x = rand_mrg_uniform(rx), y = rand_mrg_uniform(ry) * 6.2831855f;
    float s = sqrtf(-2.0f * logf(x));
    out[0] = sinf(y) * s;
    out[1] = cosf(y) * s;
}

void rand_box_muller_mrg_double(uint32_t rx, uint32_t ry, double out[2])
{
    double x = rand_mrg_uniform_double(rx), y = rand_mrg_uniform_double(ry) * 2.0;
    double s = sqrt(-2.0 * log(x));
    out[0] = sin(y * 3.1415926535897932) * s;
    out[1] = cos(y * 3.1415926535897932) * s;
}

/* the inverse of the normal CDF for quasirandom points (_curand_normal_icdf): sqrt(2) erfcinv(2p),
   mirrored; erfcinv by Newton steps on erfc from a rational start, in double */
static double erfcinv(double y)
{
    /* y in (0, 2): solve erfc(x) = y */
    double x;
    double t = y < 1 ? y : 2 - y;
    double w = sqrt(-2.0 * log(t / 2.0));
    x = -0.70711 * ((2.30753 + 0.27061 * w) / (1.0 + w * (0.99229 + 0.04481 * w)) - w);
    for (int i = 0; i < 4; i++) { /* Halley on erfc(x) - t */
        double err = erfc(x) - t;
        x += err / (1.12837916709551257 * exp(-x * x) - x * err);
    }
    return y < 1 ? x : -x;
}

float rand_normal_icdf(uint32_t x)
{
    float s = -1.4142135f;
    if (x > 0x80000000u) {
        x = 0xffffffffu - x;
        s = -s;
    }
    float p = fmaf((float)x, INV32, INV32 / 2.0f);
    return s * (float)erfcinv(2.0f * p);
}

double rand_normal_icdf_double(uint32_t x)
{
    double s = -1.4142135623730951;
    if (x > 0x80000000u) {
        x = 0xffffffffu - x;
        s = -s;
    }
    double p = x * 2.3283064365386963e-10 + (2.3283064365386963e-10 / 2.0);
    return s * erfcinv(2.0 * p);
}

float rand_normal_icdf64(uint64_t x)
{
    return rand_normal_icdf((uint32_t)(x >> 32));
}

double rand_normal_icdf_double64(uint64_t x)
{
    double s = -1.4142135623730951;
    x >>= 11;
    if (x > 0x10000000000000ull) {
        x = 0x1fffffffffffffull - x;
        s = -s;
    }
    double p = (double)x * INV53 + (INV53 / 2.0);
    return s * erfcinv(2.0 * p);
}
