/* mt19937_jump: a build tool, not part of the stand-in. Writes the polynomial that moves an
 * MT19937 state 2^2048 steps on (the distance between the blocks of NVIDIA's MT19937 generator,
 * measured: tests/hw/curand/README.md): x^(2^2048) mod p(x), p the generator's characteristic
 * polynomial (degree 19937), as 312 little-endian 64-bit words, coefficient i at bit i % 64 of
 * word i / 64. p is found by Berlekamp-Massey from the lowest bit of Matsumoto and Nishimura's
 * recursion (written here), the power by squaring modulo p. rand_mt19937.c embeds the file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEG 19937
#define WORDS ((2 * DEG + 128) / 64)

static uint32_t next(uint32_t mt[624], int *i)
{
    if (*i == 624) {
        for (int k = 0; k < 624; k++) {
            uint32_t y = (mt[k] & 0x80000000u) | (mt[(k + 1) % 624] & 0x7fffffffu);
            mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfu : 0);
        }
        *i = 0;
    }
    uint32_t y = mt[(*i)++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

static int bit(const uint64_t *a, int i)
{
    return (int)(a[i >> 6] >> (i & 63) & 1);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mt19937_jump OUT\n");
        return 2;
    }
    /* the lowest output bit of 2 * DEG steps (any seed: the polynomial is the recursion's) */
    enum { N = 2 * DEG };
    static uint8_t s[N], c[N + 1], b[N + 1], t[N + 1];
    uint32_t mt[624];
    int pos = 624;
    mt[0] = 5489;
    for (int k = 1; k < 624; k++)
        mt[k] = 1812433253u * (mt[k - 1] ^ (mt[k - 1] >> 30)) + (uint32_t)k;
    for (int n = 0; n < N; n++)
        s[n] = next(mt, &pos) & 1;
    /* Berlekamp-Massey over GF(2): s[n] = sum c[i] s[n - i], i = 1..len */
    int len = 0, m = 1;
    c[0] = b[0] = 1;
    for (int n = 0; n < N; n++) {
        int d = s[n];
        for (int i = 1; i <= len; i++)
            d ^= c[i] & s[n - i];
        if (!d) {
            m++;
            continue;
        }
        memcpy(t, c, sizeof t);
        for (int i = 0; i + m <= N; i++)
            c[i + m] ^= b[i];
        if (2 * len <= n) {
            len = n + 1 - len;
            memcpy(b, t, sizeof b);
            m = 1;
        } else {
            m++;
        }
    }
    if (len != DEG) {
        fprintf(stderr, "mt19937_jump: the recursion's polynomial has degree %d, not %d\n", len, DEG);
        return 1;
    }
    static uint64_t p[WORDS], r[WORDS], sq[WORDS];
    p[DEG >> 6] |= 1ull << (DEG & 63);
    for (int i = 1; i <= DEG; i++)
        if (c[i])
            p[(DEG - i) >> 6] |= 1ull << ((DEG - i) & 63);
    r[0] = 2; /* x */
    for (int k = 0; k < 2048; k++) { /* r = r^2 mod p */
        memset(sq, 0, sizeof sq);
        for (int i = 0; i < DEG; i++)
            if (bit(r, i))
                sq[(2 * i) >> 6] |= 1ull << ((2 * i) & 63);
        for (int i = 2 * DEG - 2; i >= DEG; i--) {
            if (!bit(sq, i))
                continue;
            int sh = i - DEG, wo = sh >> 6, bo = sh & 63;
            for (int j = 0; j <= DEG / 64; j++) {
                sq[j + wo] ^= p[j] << bo;
                if (bo)
                    sq[j + wo + 1] ^= p[j] >> (64 - bo);
            }
        }
        memcpy(r, sq, sizeof r);
    }
    FILE *f = fopen(argv[1], "wb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    unsigned char out[8 * ((DEG + 63) / 64)];
    for (int w = 0; w < (DEG + 63) / 64; w++)
        for (int k = 0; k < 8; k++)
            out[8 * w + k] = (unsigned char)(r[w] >> (8 * k));
    int ok = fwrite(out, 1, sizeof out, f) == sizeof out;
    if (fclose(f) || !ok) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
