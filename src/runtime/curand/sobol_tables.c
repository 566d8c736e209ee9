/* sobol_tables: a build tool, not part of the stand-in. Writes the Sobol direction vectors and
 * scramble constants that the CUDA toolkit's libcurand carries (curandGetDirectionVectors32/64,
 * curandGetScrambleConstants32/64: host calls, no GPU needed) to one binary file, which the
 * stand-in embeds (rand_sobol.c): the four vector sets (32-bit plain and scrambled, 64-bit plain
 * and scrambled), then the 32-bit and 64-bit scramble constants, 20000 dimensions each. */
#include <curand.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: sobol_tables OUT\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "wb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    curandDirectionVectors32_t *v32;
    curandDirectionVectors64_t *v64;
    unsigned *c32;
    unsigned long long *c64;
    int ok = 1;
    for (int set = 0; set < 2 && ok; set++)
        ok = curandGetDirectionVectors32(&v32, set ? CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6
                                                   : CURAND_DIRECTION_VECTORS_32_JOEKUO6) == 0 &&
             fwrite(v32, sizeof *v32, 20000, f) == 20000;
    for (int set = 0; set < 2 && ok; set++)
        ok = curandGetDirectionVectors64(&v64, set ? CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6
                                                   : CURAND_DIRECTION_VECTORS_64_JOEKUO6) == 0 &&
             fwrite(v64, sizeof *v64, 20000, f) == 20000;
    ok = ok && curandGetScrambleConstants32(&c32) == 0 && fwrite(c32, 4, 20000, f) == 20000;
    ok = ok && curandGetScrambleConstants64(&c64) == 0 && fwrite(c64, 8, 20000, f) == 20000;
    if (fclose(f) || !ok) {
        fprintf(stderr, "sobol_tables: the toolkit's libcurand did not give its tables\n");
        remove(argv[1]);
        return 1;
    }
    return 0;
}
