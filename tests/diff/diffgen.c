/* diffgen: the differential suite's files for the GPU, and its golden data back.
 *
 *   diffgen bundle DIR        DIR/<group>.ptx, DIR/inputs.bin, DIR/manifest.txt (for driver.c;
 *                             the combinations the emulator refuses are left out)
 *   diffgen split DIR         every kernel alone, DIR/<kernel>.ptx (to check each with ptxas)
 *   diffgen pack DIR GOLDEN   DIR/outputs.bin + DIR/device.txt from the GPU -> GOLDEN.idx/.bin
 *   diffgen list              the combinations, one a line
 *
 * manifest.txt, one line a combination: kernel group ncases bx by bz gx gy gz dyn_smem in_offset
 * in_size out_size hash name (the name is the rest of the line). */
#include "cases.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
        fprintf(stderr, "diffgen: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static int bundle(const struct diff_set *s, const char *dir)
{
    char path[4096];
    const char *groups[64];
    unsigned ng = diff_groups(s, groups, 64);
    mkdir(dir, 0777);
    for (unsigned g = 0; g < ng; g++) {
        if (!strcmp(groups[g], "refused"))
            continue; /* what the emulator refuses is not run on the GPU either */
        char *ptx = diff_module_ptx(s, groups[g]);
        snprintf(path, sizeof path, "%s/%s.ptx", dir, groups[g]);
        if (!ptx || write_file(path, ptx, strlen(ptx))) {
            free(ptx);
            return -1;
        }
        free(ptx);
    }
    snprintf(path, sizeof path, "%s/inputs.bin", dir);
    FILE *in = fopen(path, "wb");
    snprintf(path, sizeof path, "%s/manifest.txt", dir);
    FILE *man = fopen(path, "w");
    if (!in || !man)
        return -1;
    uint64_t off = 0, outs = 0;
    unsigned nrun = 0;
    for (unsigned i = 0; i < s->n; i++) {
        const struct diff_combo *c = &s->c[i];
        if (!strcmp(c->group, "refused"))
            continue;
        nrun++;
        size_t n = diff_in_size(c);
        uint8_t *buf = malloc(n);
        if (!buf)
            return -1;
        diff_inputs(c, buf);
        if (fwrite(buf, 1, n, in) != n)
            return -1;
        free(buf);
        fprintf(man, "%s %s %u %u %u %u %u %u %u %u %" PRIu64 " %zu %zu %016" PRIx64 " %s\n", c->kname,
                c->group, c->ncases, c->block[0], c->block[1], c->block[2], c->grid[0], c->grid[1],
                c->grid[2], c->dyn_smem, off, n, diff_out_size(c), diff_hash(c), c->name);
        off += n;
        outs += diff_out_size(c);
    }
    fclose(in);
    fclose(man);
    printf("%u combinations in %u modules; inputs %.1f MB, outputs %.1f MB\n", nrun, ng, off / 1e6,
           outs / 1e6);
    return 0;
}

static int split(const struct diff_set *s, const char *dir)
{
    char path[4096];
    mkdir(dir, 0777);
    for (unsigned i = 0; i < s->n; i++) {
        char *ptx = diff_kernel_ptx(&s->c[i]);
        snprintf(path, sizeof path, "%s/%s.ptx", dir, s->c[i].kname);
        if (!ptx || write_file(path, ptx, strlen(ptx))) {
            free(ptx);
            return -1;
        }
        free(ptx);
    }
    return 0;
}

/* GOLDEN.idx: "# " header lines (device.txt), then "name<TAB>hash offset size" per combination;
 * GOLDEN.bin: the outputs, in that order. Combinations the GPU did not run (missing from the
 * manifest the outputs came with) are left out. */
static int pack(const char *dir, const char *golden)
{
    char path[4096], line[1024];
    snprintf(path, sizeof path, "%s/manifest.txt", dir);
    FILE *man = fopen(path, "r");
    snprintf(path, sizeof path, "%s/outputs.bin", dir);
    FILE *out = fopen(path, "rb");
    snprintf(path, sizeof path, "%s/device.txt", dir);
    FILE *dev = fopen(path, "r");
    snprintf(path, sizeof path, "%s.idx", golden);
    FILE *idx = fopen(path, "w");
    snprintf(path, sizeof path, "%s.bin", golden);
    FILE *bin = fopen(path, "wb");
    if (!man || !out || !dev || !idx || !bin) {
        fprintf(stderr, "diffgen pack: cannot open the files of %s or %s\n", dir, golden);
        return -1;
    }
    fprintf(idx, "# smemlab differential suite: golden outputs (tests/diff/README.md)\n");
    while (fgets(line, sizeof line, dev))
        fprintf(idx, "# %s", line);
    uint64_t off = 0;
    unsigned n = 0;
    while (fgets(line, sizeof line, man)) {
        char kname[128], group[64], hash[32];
        unsigned nc, d[7];
        unsigned long long ioff, isz, osz;
        int pos = 0;
        if (sscanf(line, "%127s %63s %u %u %u %u %u %u %u %u %llu %llu %llu %31s %n", kname, group, &nc,
                   &d[0], &d[1], &d[2], &d[3], &d[4], &d[5], &d[6], &ioff, &isz, &osz, hash, &pos) < 14)
            return -1;
        char *name = line + pos;
        name[strcspn(name, "\n")] = 0;
        uint8_t *buf = malloc(osz ? osz : 1);
        if (!buf || fread(buf, 1, osz, out) != osz) {
            fprintf(stderr, "diffgen pack: outputs.bin ends before '%s'\n", name);
            free(buf);
            return -1;
        }
        fwrite(buf, 1, osz, bin);
        free(buf);
        fprintf(idx, "%s\t%s %llu %llu\n", name, hash, (unsigned long long)off, osz);
        off += osz;
        n++;
    }
    fclose(man);
    fclose(out);
    fclose(dev);
    fclose(idx);
    if (fclose(bin))
        return -1;
    printf("packed %u combinations, %.2f MB\n", n, off / 1e6);
    return 0;
}

int main(int argc, char **argv)
{
    struct diff_set s;
    if (argc < 2) {
        fprintf(stderr, "usage: diffgen bundle DIR | split DIR | pack DIR GOLDEN | list\n");
        return 2;
    }
    if (!strcmp(argv[1], "pack"))
        return argc == 4 && !pack(argv[2], argv[3]) ? 0 : 1;
    if (diff_build(&s)) {
        fprintf(stderr, "diffgen: the combination table is broken\n");
        return 1;
    }
    int rc = 0;
    if (!strcmp(argv[1], "bundle") && argc == 3)
        rc = bundle(&s, argv[2]);
    else if (!strcmp(argv[1], "split") && argc == 3)
        rc = split(&s, argv[2]);
    else if (!strcmp(argv[1], "list"))
        for (unsigned i = 0; i < s.n; i++)
            printf("%s\t%s\t%u\n", s.c[i].name, s.c[i].group, s.c[i].ncases);
    else
        rc = 2;
    diff_free(&s);
    return rc ? 1 : 0;
}
