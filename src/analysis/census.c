/* census.c: the SASS census (census.h). Lines are source lines as written (the innermost .loc of
 * inlined code), on both sides: the PTX's from its .loc, the SASS's from the cubin's .debug_line,
 * which ptxas writes from the same .loc. Only differences that can change a count are flagged:
 * fewer instructions of a class than the PTX's sites, other widths, an instruction of a class the
 * line has no site of, and an access the PTX runs only inside a branch that the SASS runs in
 * every warp. More instructions of the same width are not flagged: ptxas duplicates and unrolls
 * code, and each copy then runs less often. "Inside a branch": guarded, or between a forward
 * branch and its target, or after an exit (the same rule on both sides). */
#include "smemlab/analysis/census.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "smemlab/base/text.h"
#include "smemlab/sass/flow.h"
#include "smemlab/sass/sass_model.h"

extern char **environ;

enum { C_LDS, C_STS, C_ATOMS, C_LDSM, C_STSM, C_LDGSTS, NC };

static const char *const sass_name[NC] = {"LDS", "STS", "ATOMS", "LDSM", "STSM", "LDGSTS"};
static const char *const ptx_name[NC] = {"load", "store", "atomic", "ldmatrix", "stmatrix",
                                         "cp.async"};

struct line {
    const char *path;
    uint32_t line;
    unsigned np[NC], ns[NC];       /* PTX sites, SASS instructions */
    unsigned pmask[NC], smask[NC]; /* widths present (bytes as bits) */
    unsigned pcond[NC];            /* PTX sites inside a branch */
    unsigned suncond[NC];          /* SASS instructions in every warp */
    char why[NC][320];
    int alias[NC];                 /* 1 + the line whose accesses of the class it is compared with
                                      (a merged group's leader) */
};

struct smem_census {
    const struct smem_cta_program *p;
    char not_checked[200];
    char notes[400];
    char **site_why;  /* per emulator site: NULL, or how its line differs */
    uint32_t nsites;
};


static int find_line(struct line **ls, unsigned *n, unsigned *cap, const char *path, uint32_t ln)
{
    for (unsigned i = 0; i < *n; i++)
        if ((*ls)[i].line == ln && smem_same_source((*ls)[i].path, path))
            return (int)i;
    if (*n == *cap) {
        unsigned nc = *cap ? *cap * 2 : 32;
        struct line *nl = realloc(*ls, nc * sizeof *nl);
        if (!nl)
            return -1;
        *ls = nl;
        *cap = nc;
    }
    memset(&(*ls)[*n], 0, sizeof **ls);
    (*ls)[*n].path = path;
    (*ls)[*n].line = ln;
    return (int)(*n)++;
}

static int class_of_op(unsigned op)
{
    switch (op) {
    case SMEM_ACC_LD: return C_LDS;
    case SMEM_ACC_ST: return C_STS;
    case SMEM_ACC_ATOM: return C_ATOMS;
    case SMEM_ACC_LDSM: return C_LDSM;
    case SMEM_ACC_STSM: return C_STSM;
    case SMEM_ACC_CP_ASYNC: return C_LDGSTS;
    default: return -1;
    }
}

static int class_of_sass(unsigned cls)
{
    switch (cls) {
    case SMEM_SASS_LDS: return C_LDS;
    case SMEM_SASS_STS: return C_STS;
    case SMEM_SASS_ATOMS: return C_ATOMS;
    case SMEM_SASS_LDSM: return C_LDSM;
    case SMEM_SASS_STSM: return C_STSM;
    case SMEM_SASS_LDGSTS: return C_LDGSTS;
    default: return -1;
    }
}

static unsigned top_width(unsigned mask)
{
    unsigned w = 0;
    for (unsigned b = 1; b <= 16; b <<= 1)
        if (mask & b)
            w = b;
    return w;
}

/* Appends to a fixed buffer, cut at its size (the compiler's truncation checks want no %s here). */
static void cat(char *dst, size_t size, const char *src)
{
    size_t l = strlen(dst), n = strlen(src);
    if (l + 1 >= size)
        return;
    if (n > size - l - 1)
        n = size - l - 1;
    memcpy(dst + l, src, n);
    dst[l + n] = 0;
}

static void add(char *buf, size_t size, const char *msg)
{
    if (buf[0])
        cat(buf, size, "; ");
    cat(buf, size, msg);
}

/* The line nearest to i (same file, at most NEAR lines away) that may hold what line i lost of
 * class c: its SASS wider than its PTX, or with more instructions of the class than its PTX has
 * sites; -1 if none (then the report does not say where it went: the line table does not). */
#define NEAR 8
static int nearest(const struct line *ls, unsigned n, unsigned i, int c)
{
    int best = -1;
    unsigned bd = UINT32_MAX;
    for (unsigned j = 0; j < n; j++) {
        if (j == i || !smem_same_source(ls[j].path, ls[i].path))
            continue;
        int wider = ls[j].np[c] && top_width(ls[j].smask[c]) > top_width(ls[j].pmask[c]);
        if (!wider && ls[j].ns[c] <= ls[j].np[c])
            continue;
        unsigned d = ls[j].line > ls[i].line ? ls[j].line - ls[i].line : ls[i].line - ls[j].line;
        if (d > NEAR)
            continue;
        if (d < bd || (d == bd && wider)) {
            bd = d;
            best = (int)j;
        }
    }
    return best;
}

/* How line L differs in class c (empty: not at all). lines: every line, for the neighbour that
 * took a lost load. */
static void compare(struct line *ls, unsigned n, unsigned i, int c)
{
    struct line *L = &ls[i];
    char *w = L->why[c];
    size_t size = sizeof L->why[c];
    unsigned np = L->np[c], ns = L->ns[c];
    int widths = c != C_LDSM && c != C_STSM && L->smask[c] && L->pmask[c];
    char what[64];
    snprintf(what, sizeof what, "%s%s", ptx_name[c], np == 1 ? "" : "s");
    if (np && ns < np && !(widths && top_width(L->smask[c]) > top_width(L->pmask[c]))) {
        /* where the rest went: the nearest line whose SASS is wider than its PTX (merged
           there), or has more of the class than its PTX (moved there) */
        int j = nearest(ls, n, i, c);
        char m[320] = "";
        if (ns)
            snprintf(m, sizeof m, "ptxas made %u %s of this line's %u %s: ", ns, sass_name[c],
                     np, what);
        else
            snprintf(m, sizeof m, "ptxas keeps no %s on this line for its %u %s: ", sass_name[c],
                     np, what);
        char t[320];
        if (j >= 0 && top_width(ls[j].smask[c]) > top_width(ls[j].pmask[c]))
            snprintf(t, sizeof t, "merged into line %u's %s.%u%s", ls[j].line, sass_name[c],
                     top_width(ls[j].smask[c]) * 8,
                     L->pcond[c] && ls[j].suncond[c] ? ", which runs in every warp (the PTX "
                     "reads it only inside its branch)" : "");
        else if (j >= 0 && L->pcond[c] && ls[j].suncond[c] > ls[j].np[c] - ls[j].pcond[c])
            snprintf(t, sizeof t, "moved to line %u, where it runs in every warp (the PTX "
                     "runs it only inside its branch: if-converted or hoisted)", ls[j].line);
        else if (j >= 0)
            snprintf(t, sizeof t, "moved to line %u", ls[j].line);
        else
            snprintf(t, sizeof t, "merged, moved far or removed (no line nearby has more)");
        cat(m, sizeof m, t);
        add(w, size, m);
        return;
    }
    if (!np && ns) {
        for (unsigned j = 0; j < n; j++)
            if (ls[j].np[c] > ls[j].ns[c])
                return; /* some line lost one: that line says where it went */
        char m[320];
        snprintf(m, sizeof m, "ptxas adds %u %s on this line, where the PTX has no %s",
                 ns, sass_name[c], ptx_name[c]);
        add(w, size, m);
        return;
    }
    if (!np)
        return;
    unsigned ps = top_width(L->pmask[c]), ss = top_width(L->smask[c]);
    if (widths && ss > ps) {
        /* the lines whose lost accesses this one's wider instruction holds */
        char lost[80] = "";
        unsigned nlost = 0;
        for (unsigned j = 0; j < n; j++)
            if (j != i && ls[j].np[c] > ls[j].ns[c] && nearest(ls, n, j, c) == (int)i) {
                char one[16];
                snprintf(one, sizeof one, "%s%u", nlost++ ? ", " : "", ls[j].line);
                cat(lost, sizeof lost, one);
            }
        char m[320];
        if (nlost)
            snprintf(m, sizeof m, "ptxas made one %s.%u of this line's %u-byte %s and line%s %s's",
                     sass_name[c], ss * 8, ps, ptx_name[c], nlost > 1 ? "s" : "", lost);
        else
            snprintf(m, sizeof m, "ptxas made %s.%u of this line's %u-byte %ss (merged)",
                     sass_name[c], ss * 8, ps, ptx_name[c]);
        add(w, size, m);
    } else if (widths && L->smask[c] != L->pmask[c]) {
        char m[320];
        snprintf(m, sizeof m, "ptxas's %s widths differ from the PTX's (%u bytes in SASS, %u in "
                 "PTX)", sass_name[c], ss, ps);
        add(w, size, m);
    }
    if (L->pcond[c] == np && L->suncond[c]) {
        char m[320];
        snprintf(m, sizeof m, "ptxas runs this line's %s in every warp (out of its branch: "
                 "hoisted or if-converted), the PTX only where the branch is taken", what);
        add(w, size, m);
    }
}

struct smem_census *smem_census_new(const struct smem_cta_program *p,
                                    const struct smem_sass_module *sm, const char *why_none)
{
    struct smem_census *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->p = p;
    const struct smem_sass_func *sf = sm ? smem_sass_find(sm, p->func->name) : NULL;
    if (!sm) {
        cat(c->not_checked, sizeof c->not_checked, why_none && *why_none ? why_none
            : "no SASS to compare with");
        return c;
    }
    if (!sf) {
        snprintf(c->not_checked, sizeof c->not_checked, "the SASS has no function %s",
                 p->func->name);
        return c;
    }
    if (p->func->error) {
        cat(c->not_checked, sizeof c->not_checked, "the kernel's PTX could not be read");
        return c;
    }
    if (p->flat) {
        /* its PTX calls functions (__noinline__, -G): their SASS lies in functions of their own,
           reached by CALL; the census compares one function's lines and does not follow calls */
        cat(c->not_checked, sizeof c->not_checked, "the kernel calls functions that are not "
            "inlined (__noinline__ or -G), whose code the census does not follow");
        return c;
    }
    if (!sm->has_lines) {
        snprintf(c->not_checked, sizeof c->not_checked, "the SASS has no line table (build with "
                 "-lineinfo)");
        return c;
    }
    for (uint32_t k = 0; k < sf->ninsns; k++)
        if (sf->insns[k].cls == SMEM_SASS_UNKNOWN) {
            snprintf(c->not_checked, sizeof c->not_checked, "SASS instruction at 0x%x has an "
                     "opcode (0x%03x) the decoder has not learnt", sf->insns[k].offset,
                     sf->insns[k].opcode);
            return c;
        }
    c->nsites = p->nsites;
    c->site_why = calloc(p->nsites ? p->nsites : 1, sizeof *c->site_why);
    int *site_line_of = malloc((p->nsites ? p->nsites : 1) * sizeof *site_line_of);
    uint8_t *pc = smem_sass_ptx_conditional(p->func, 1), *scond = malloc(sf->ninsns ? sf->ninsns : 1);
    if (scond && smem_sass_conditional(sf, scond)) {
        free(scond);
        scond = NULL;
    }
    struct line *ls = NULL;
    uint8_t *matched = NULL;
    unsigned n = 0, cap = 0;
    if (!c->site_why || !site_line_of || !pc || !scond)
        goto oom;
    for (uint32_t i = 0; i < p->nsites; i++) {
        const struct smem_cta_site *s = &p->sites[i];
        site_line_of[i] = -1;
        int cl = class_of_op(s->op);
        /* generic accesses are LD/ST in SASS; bulk copies (UBLKCP) make no request at all; a
           fixed-place load matched to its LDS is counted as that LDS (sass/sass_fixed.c) */
        if (s->generic || cl < 0 || p->func->insns[s->insn].op == PO_CP_BULK || s->sass_insn ||
            s->figure == 2) /* the PTX's access the line's SASS counts otherwise (sass_lines.c) */
            continue;
        const char *path;
        uint32_t ln;
        smem_sass_ptx_line(p->module, &p->func->insns[s->src_insn], &path, &ln);
        if (!ln)
            continue;
        int li = find_line(&ls, &n, &cap, path, ln);
        if (li < 0)
            goto oom;
        site_line_of[i] = li;
        ls[li].np[cl]++;
        ls[li].pmask[cl] |= s->width;
        ls[li].pcond[cl] += pc[s->insn] && s->sass_placed != 2; /* hoisted: at an unconditional branch */
        if (s->cas) { /* LDS + ATOMS.CAST.SPIN: the analysis counts both (launch.c) */
            ls[li].np[C_LDS]++;
            ls[li].pmask[C_LDS] |= s->width;
            ls[li].pcond[C_LDS] += pc[s->insn];
        }
    }
    /* the SASS model's merged groups span lines: ptxas may give the merged access to any of
       them, so their lines are compared as one (each SASS instruction lands on its unit) */
    for (uint32_t k = 0; p->merged_into && k < p->func->ninsns; k++) {
        int32_t lead = p->merged_into[k];
        if (lead < 0 || lead == (int32_t)k)
            continue;
        const char *pa, *pb;
        uint32_t la, lb;
        smem_sass_ptx_line(p->module, &p->func->insns[lead], &pa, &la);
        smem_sass_ptx_line(p->module, &p->func->insns[k], &pb, &lb);
        int a = find_line(&ls, &n, &cap, pa, la), b = find_line(&ls, &n, &cap, pb, lb);
        if (a < 0 || b < 0)
            goto oom;
        int cl = p->func->insns[k].op == PO_ST ? C_STS : C_LDS;
        if (a != b && !ls[b].alias[cl])
            ls[b].alias[cl] = a + 1;
    }
    /* the LDS the emulator counts fixed-place loads as, and ptxas's copies of them (the same
       address, width and line): compared already */
    matched = calloc(sf->ninsns ? sf->ninsns : 1, 1);
    if (!matched)
        goto oom;
    for (uint32_t i = 0; i < p->nsites; i++) {
        uint32_t m = p->sites[i].sass_insn;
        if (!m || m > sf->ninsns)
            continue;
        const struct smem_sass_insn *x = &sf->insns[m - 1];
        for (uint32_t k = 0; k < sf->ninsns; k++) {
            const struct smem_sass_insn *y = &sf->insns[k];
            if (k == m - 1 || (y->cls == SMEM_SASS_LDS && y->ra == 255 && y->imm == x->imm &&
                               y->width == x->width && y->line == x->line && y->file == x->file))
                matched[k] = 1;
        }
    }
    for (uint32_t k = 0; k < sf->ninsns; k++) {
        const struct smem_sass_insn *s = &sf->insns[k];
        int cl = class_of_sass(s->cls);
        if (cl < 0 || (s->guard == SMEM_SASS_PT && s->guard_neg) || s->file >= sm->nfiles ||
            !s->line || matched[k])
            continue;
        int li = find_line(&ls, &n, &cap, sm->files[s->file], s->line);
        if (li < 0)
            goto oom;
        for (int hops = 0; s->width >= 8 && ls[li].alias[cl] && hops < 16; hops++)
            li = ls[li].alias[cl] - 1;
        ls[li].ns[cl]++;
        if (s->width)
            ls[li].smask[cl] |= s->width;
        ls[li].suncond[cl] += !scond[k];
    }
    for (unsigned i = 0; i < n; i++)
        for (int cl = 0; cl < NC; cl++)
            compare(ls, n, i, cl);
    /* each site gets its own class's reasons, and those of classes its line has no site of */
    for (uint32_t i = 0; i < p->nsites; i++) {
        int li = site_line_of[i];
        if (li < 0)
            continue;
        const struct line *L = &ls[li];
        char buf[320] = "";
        const struct smem_ptx_insn *in = &p->func->insns[p->sites[i].src_insn];
        if (in->chain < p->module->nframes && L->line != in->top_line) {
            /* inlined: the report shows the kernel's line, the census compared the inner one */
            const char *slash = L->path ? strrchr(L->path, '/') : NULL;
            snprintf(buf, sizeof buf, "at %.100s:%u (inlined): ",
                     slash ? slash + 1 : (L->path ? L->path : "?"), L->line);
        }
        size_t prefix = strlen(buf);
        int own = class_of_op(p->sites[i].op);
        for (int cl = 0; cl < NC; cl++) {
            if (!L->why[cl][0] || (cl != own && L->np[cl] && !(p->sites[i].cas && cl == C_LDS)))
                continue;
            if (strlen(buf) > prefix)
                cat(buf, sizeof buf, "; ");
            cat(buf, sizeof buf, L->why[cl]);
        }
        if (strlen(buf) > prefix && !(c->site_why[i] = strdup(buf)))
            goto oom;
    }
    /* lines with differences and no site: notes */
    for (unsigned i = 0; i < n; i++) {
        int any = 0;
        for (int cl = 0; cl < NC; cl++)
            any |= ls[i].np[cl] != 0;
        for (int cl = 0; cl < NC && !any; cl++) {
            if (!ls[i].why[cl][0])
                continue;
            const char *slash = ls[i].path ? strrchr(ls[i].path, '/') : NULL;
            char at[300];
            snprintf(at, sizeof at, "%.200s:%u: ", slash ? slash + 1 : (ls[i].path ? ls[i].path : "?"),
                     ls[i].line);
            add(c->notes, sizeof c->notes, at);
            cat(c->notes, sizeof c->notes, ls[i].why[cl]);
        }
    }
    free(matched);
    free(ls);
    free(site_line_of);
    free(pc);
    free(scond);
    return c;
oom:
    free(matched);
    free(ls);
    free(site_line_of);
    free(pc);
    free(scond);
    smem_census_free(c);
    return NULL;
}

static int same_site_key(const struct smem_cta_program *p, uint32_t i,
                         const struct smem_site_report *r)
{
    const struct smem_cta_site *s = &p->sites[i];
    const struct smem_ptx_insn *in = &p->func->insns[s->src_insn];
    const struct smem_ptx_module *m = p->module;
    const char *file = in->top_file < m->nfiles ? m->files[in->top_file] : NULL;
    return in->top_line == r->line && in->chain == r->chain && s->op == r->op &&
           s->width == r->bytes && (file == r->file || (file && r->file && !strcmp(file, r->file)));
}

void smem_census_apply(const struct smem_census *c, struct smem_kernel_report *k)
{
    if (!c)
        return;
    k->sass_not_checked[0] = k->sass_notes[0] = 0;
    cat(k->sass_not_checked, sizeof k->sass_not_checked, c->not_checked);
    cat(k->sass_notes, sizeof k->sass_notes, c->notes);
    for (uint32_t j = 0; j < k->nsites; j++) {
        struct smem_site_report *r = &k->sites[j];
        r->ptxas_differs[0] = 0;
        for (uint32_t i = 0; c->site_why && i < c->nsites; i++)
            if (c->site_why[i] && same_site_key(c->p, i, r)) {
                cat(r->ptxas_differs, sizeof r->ptxas_differs, c->site_why[i]);
                break;
            }
    }
}

void smem_census_free(struct smem_census *c)
{
    if (!c)
        return;
    for (uint32_t i = 0; c->site_why && i < c->nsites; i++)
        free(c->site_why[i]);
    free(c->site_why);
    free(c);
}

/* ---- ptxas --------------------------------------------------------------------------------- */

static int spawn_quiet(char *const argv[])
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc)
        return -1;
    int ws;
    while (waitpid(pid, &ws, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127)
        return -1;
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128;
}

uint8_t *smem_ptxas_cubin(const char *ptx, size_t len, size_t *n, char *why, size_t why_size)
{
    char dir[] = "/tmp/smemlab-sassXXXXXX";
    *n = 0;
    if (!mkdtemp(dir)) {
        snprintf(why, why_size, "no temporary folder for ptxas");
        return NULL;
    }
    char in[64], out[64];
    snprintf(in, sizeof in, "%s/k.ptx", dir);
    snprintf(out, sizeof out, "%s/k.cubin", dir);
    char *data = NULL;
    FILE *f = fopen(in, "wb");
    if (!f || fwrite(ptx, 1, len, f) != len) {
        if (f)
            fclose(f);
        snprintf(why, why_size, "the PTX could not be written for ptxas");
        goto done;
    }
    fclose(f);
    const char *env = getenv("SMEMLAB_PTXAS");
    /* sm_90a's own instructions (wgmma, setmaxnreg) need -arch=sm_90a; the code is the H100's */
    const char *t = strstr(ptx, ".target");
    int arch_a = t && (size_t)(t - ptx) < len && !strncmp(t + strspn(t + 7, " \t") + 7, "sm_90a", 6);
    char a0[] = "ptxas", a1[] = "-arch=sm_90", a1a[] = "-arch=sm_90a", a2[] = "-lineinfo",
         a4[] = "-o";
    char *argv[] = {env && *env ? (char *)env : a0, arch_a ? a1a : a1, a2, in, a4, out, NULL};
    int rc = spawn_quiet(argv);
    if (rc < 0) {
        snprintf(why, why_size, "no ptxas found (SMEMLAB_PTXAS, or ptxas on the PATH)");
        goto done;
    }
    if (rc) {
        snprintf(why, why_size, "ptxas -arch=sm_90%s failed on the PTX (exit %d)",
                 arch_a ? "a" : "", rc);
        goto done;
    }
    data = smem_read_file(out, n);
    if (!data)
        snprintf(why, why_size, "ptxas's cubin cannot be read: missing");
done:
    unlink(in);
    unlink(out);
    rmdir(dir);
    return (uint8_t *)data;
}

struct smem_sass_module *smem_sass_of_ptx(const char *ptx, size_t len, char *why, size_t why_size)
{
    size_t n = 0;
    uint8_t *data = smem_ptxas_cubin(ptx, len, &n, why, why_size);
    if (!data)
        return NULL;
    struct smem_sass_module *m = NULL;
    struct smem_error err;
    if (smem_sass_read(data, n, &m, &err)) {
        snprintf(why, why_size, "ptxas's cubin cannot be read: %s", err.msg);
        m = NULL;
    }
    free(data);
    return m;
}
