/* hazards.c: shared-memory races, barrier divergence and out-of-bounds accesses, found from the
 * emulator's event stream: a shadow of the block's shared window (per byte, or per word when no
 * access is narrower: the last writers and readers of the current barrier interval), the barrier
 * releases, and the lanes the emulator marks out of bounds. */
#include "smemlab/emu/hazards.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One access of a byte by one thread. Threads are < 1024, so a tid fits 16 bits. */
struct hz_acc {
    uint32_t site;
    uint32_t ep;      /* the lane's __syncwarp() epoch when it accessed */
    uint16_t tid;
    uint8_t valid;
    uint8_t same;     /* a store of the value the byte already held */
};

/* What one byte (or word) saw in the current interval. Not every access is kept, only enough to
 * find that a race exists (and most of the distinct site pairs): the last writer, the last writer
 * of another thread, the last reader, the last reader of another warp and the last reader of
 * another lane of the last reader's warp. If any earlier reader is in another warp than a writer,
 * one of the first two readers is; readers in the writer's own warp are judged by the latest
 * two (the latest epochs), which misses a race only when several lanes of one warp, separated by
 * __syncwarp(), read and write the byte in one interval.
 * Most bytes are touched by one thread in an interval: the entry (32 bytes, two a cache line)
 * keeps the last writer and reader; the other three live in the tracker's `more` list, taken when
 * a second thread comes (before that they are empty). */
struct hz_more {
    struct hz_acc w2, rb, rc;
};

struct hz_byte {
    uint16_t gen;     /* interval generation the entry belongs to; stale entries are empty */
    uint16_t owner;   /* the one thread that accessed it in the interval, or OWNER_MANY */
    uint32_t more;    /* 1 + its index in the tracker's more list; 0: none yet */
    struct hz_acc w, ra;
};

/* Generations wrap at 2^16 (the shadow is cleared then), keeping an entry at 32 bytes. */
#define GEN_WRAP 0x10000u
#define OWNER_MANY 0xffffu

/* A load waiting for its interval's first store: what apply_load needs of it. */
struct pending_load {
    uint32_t site, warp, lanes; /* lanes: active, known and in bounds */
    uint8_t width;
    uint32_t wsync[SMEM_WARP];
    uint32_t addr[SMEM_WARP];
};

enum hz_detail {
    D_READ_WRITE = 0, D_WRITE_READ, D_WRITE_WRITE, /* race */
    D_DIVERGENT, D_EXIT_WAITING,                   /* barrier */
    D_OOB_READ, D_OOB_WRITE,                       /* oob */
    D_LAYOUT_A, D_LAYOUT_B,                        /* layout: the operand */
    D_CL_READ_WRITE, D_CL_WRITE_READ, D_CL_WRITE_WRITE, /* race between CTAs of a cluster */
    D_FENCE_A, D_FENCE_B,                          /* proxy-fence: the operand */
    D_GL_READ_WRITE, D_GL_WRITE_READ, D_GL_WRITE_WRITE, /* global-race */
    D_UNINIT_READ,                                 /* uninitialized-shared */
    D_COUNT
};

static const char *const detail_name[D_COUNT] = {
    "read-write", "write-read", "write-write", "divergent", "exit-while-waiting", "read", "write",
    "A", "B", "read-write", "write-read", "write-write", "A", "B", "read-write", "write-read",
    "write-write", "read",
};

struct smem_hazard_tracker {
    const struct smem_cta_program *p;
    uint32_t size;            /* bytes of the block's shared window */
    uint32_t gran;            /* bytes per shadow entry: 4 when no access is narrower (exact then:
                                 accesses are aligned to their width), else 1 */
    struct hz_byte *shadow;
    uint32_t gen;
    uint32_t cur_block, cur_interval;
    int have_cur;
    uint32_t bar_block;       /* the block the last barrier event came from */
    uint8_t *written;         /* smem_hazards_track_unwritten: a bit a shared byte, 1 once the
                                 block wrote it; NULL: not tracked */
    uint32_t written_block;
    int have_written;
    int block_diverged;       /* that block's barriers have diverged: later ones are consequences */
    struct smem_hazard *hz;
    uint64_t *keys;           /* per hazard: its dedup key */
    unsigned n, cap;
    unsigned last;            /* the hazard found last */
    uint32_t *index;          /* open-addressing table of hazard indices + 1 */
    unsigned cap_index;
    int oom;                  /* a hazard could not be recorded (the others stay right) */
    uint32_t gshift;          /* log2(gran) */
    /* Loads of the current interval not yet in the shadow. A load finds a race only with a store
     * of its interval, so until the interval's first store its loads only leave traces in the
     * shadow for later stores: they wait here and are applied, in order, when a store comes (or
     * when PEND_MAX wait); an interval of loads only (a GEMM's inner loop) never touches the
     * shadow. Exactly the hazards, counts and order of applying each load at once. */
    struct pending_load *pend;
    uint32_t npend;
    int direct;               /* the interval has had a store: loads go to the shadow at once */
    struct hz_more *more;     /* the current interval's entries of bytes several threads touched */
    uint32_t nmore, cap_more;
    unsigned block_dim[3], grid_dim[3]; /* the launch's (a global race's threads and blocks) */
};

/* 64 K waiting loads of ~270 bytes: 17 MB a tracker at most, allocated on the first wait; a
 * conflict probe's 16 K loads of one interval (64 repetitions x 8 loads x 32 warps) fit */
#define PEND_MAX 65536u

/* ---- variables and lines -------------------------------------------------------------------- */

/* The source name of a demoted static (_ZZ<function>E<len><name>[_<n>]); the PTX name otherwise. */
static void var_display_name(const char *name, char *out, size_t cap)
{
    size_t len = strlen(name);
    if (!strncmp(name, "_ZZ", 3)) {
        for (size_t i = len; i-- > 3;) {
            if (name[i] != 'E' || !isdigit((unsigned char)name[i + 1]))
                continue;
            char *end;
            unsigned long n = strtoul(name + i + 1, &end, 10);
            size_t rest = len - (size_t)(end - name);
            /* the name fills the rest, or is followed by a discriminator _<digits> */
            if (n && n <= rest &&
                (n == rest || (end[n] == '_' && strspn(end + n + 1, "0123456789") == rest - n - 1))) {
                snprintf(out, cap, "%.*s", (int)n, end);
                return;
            }
        }
    }
    snprintf(out, cap, "%s", name);
}

/* The variable holding addr; with nearest, the closest one at or below it (an address above 2 GB
 * is a negative offset: the first variable). NULL when the kernel has no shared variable. */
static const struct smem_cta_var *var_of(const struct smem_cta_program *p, uint32_t addr,
                                         int nearest)
{
    const struct smem_cta_var *best = NULL;
    for (uint32_t i = 0; i < p->nvars; i++) {
        const struct smem_cta_var *v = &p->vars[i];
        if (addr >= v->offset && addr - v->offset < v->size)
            return v;
        if (nearest && v->offset <= addr && (!best || v->offset > best->offset))
            best = v;
    }
    if (nearest && addr >= 0x80000000u)
        for (uint32_t i = 0; i < p->nvars; i++)
            if (!best || p->vars[i].offset < best->offset)
                best = &p->vars[i];
    return nearest ? best : NULL;
}

static const char *insn_file(const struct smem_cta_program *p, uint32_t insn)
{
    const struct smem_ptx_insn *in = &p->func->insns[insn];
    return in->loc_file < p->module->nfiles ? p->module->files[in->loc_file] : NULL;
}

/* ---- the hazard list ------------------------------------------------------------------------ */

static uint64_t make_key(enum smem_hazard_kind k, enum hz_detail d, uint32_t a, uint32_t b)
{
    /* sites and instructions are far below 2^28 */
    return (uint64_t)k << 62 | (uint64_t)d << 56 | (uint64_t)(a & 0xfffffffu) << 28 |
           (b & 0xfffffffu);
}

static uint32_t key_hash(uint64_t key, unsigned cap)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

static int grow_index(struct smem_hazard_tracker *t)
{
    unsigned nc = t->cap_index ? t->cap_index * 2 : 64;
    uint32_t *ni = calloc(nc, sizeof *ni);
    if (!ni)
        return -1;
    for (unsigned i = 0; i < t->n; i++) {
        uint32_t h = key_hash(t->keys[i], nc);
        while (ni[h])
            h = (h + 1) & (nc - 1);
        ni[h] = i + 1;
    }
    free(t->index);
    t->index = ni;
    t->cap_index = nc;
    return 0;
}

/* The hazard with this key, created (count 0) on first sight; NULL when out of memory. */
static struct smem_hazard *hazard_for(struct smem_hazard_tracker *t, enum smem_hazard_kind kind,
                                      enum hz_detail d, uint32_t a, uint32_t b, int *created)
{
    uint64_t key = make_key(kind, d, a, b);
    *created = 0;
    if (t->n && t->keys[t->last] == key) /* consecutive lanes mostly find the same hazard */
        return &t->hz[t->last];
    if ((t->n + 1) * 2 > t->cap_index && grow_index(t)) {
        t->oom = 1;
        return NULL;
    }
    uint32_t h = key_hash(key, t->cap_index);
    while (t->index[h]) {
        if (t->keys[t->index[h] - 1] == key) {
            t->last = t->index[h] - 1;
            return &t->hz[t->last];
        }
        h = (h + 1) & (t->cap_index - 1);
    }
    if (t->n == t->cap) {
        unsigned nc = t->cap ? t->cap * 2 : 16;
        struct smem_hazard *nh = realloc(t->hz, nc * sizeof *nh);
        if (!nh) {
            t->oom = 1;
            return NULL;
        }
        t->hz = nh;
        uint64_t *nk = realloc(t->keys, nc * sizeof *nk);
        if (!nk) {
            t->oom = 1;
            return NULL;
        }
        t->keys = nk;
        t->cap = nc;
    }
    struct smem_hazard *z = &t->hz[t->n];
    memset(z, 0, sizeof *z);
    z->kind = kind;
    snprintf(z->detail, sizeof z->detail, "%s", detail_name[d]);
    t->keys[t->n] = key;
    t->last = t->n;
    t->index[h] = ++t->n;
    *created = 1;
    return z;
}

/* An access hazard (race or oob) between emulator sites a (first) and b (second). */
static struct smem_hazard *site_hazard(struct smem_hazard_tracker *t, enum smem_hazard_kind kind,
                                       enum hz_detail d, uint32_t a, uint32_t b, uint32_t addr)
{
    int created;
    struct smem_hazard *z = hazard_for(t, kind, d, a, b, &created);
    if (z && created) {
        const struct smem_cta_program *p = t->p;
        z->site[0] = a;
        z->site[1] = b;
        z->lines[0] = p->sites[a].line;
        z->lines[1] = p->sites[b].line;
        z->file = p->sites[a].file;
        z->address = addr;
        const struct smem_cta_var *v = var_of(p, addr, kind == SMEM_HAZARD_OOB);
        if (v)
            var_display_name(v->name, z->var, sizeof z->var);
    }
    return z;
}

/* ---- tracking -------------------------------------------------------------------------------- */

struct smem_hazard_tracker *smem_hazards_new(const struct smem_cta_program *p,
                                             const struct smem_launch *l)
{
    struct smem_hazard_tracker *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->p = p;
    for (int d = 0; d < 3; d++) {
        t->block_dim[d] = l->block[d] ? l->block[d] : 1;
        t->grid_dim[d] = l->grid[d] ? l->grid[d] : 1;
    }
    /* the window the emulator gives a block (accesses past it come marked oob) */
    t->size = l->dyn_smem ? p->dyn_offset + l->dyn_smem : p->static_smem;
    t->gran = 4;
    for (uint32_t i = 0; i < p->nsites; i++)
        if (p->sites[i].width < 4)
            t->gran = 1;
    if (t->size) {
        t->shadow = calloc((t->size + t->gran - 1) / t->gran, sizeof *t->shadow);
        if (!t->shadow) {
            free(t);
            return NULL;
        }
    }
    t->gen = 1;
    t->bar_block = UINT32_MAX;
    while ((1u << t->gshift) < t->gran)
        t->gshift++;
    return t;
}

/* Two accesses of different threads are ordered only by a barrier (a new interval: the shadow is
 * empty then) or, within a warp, by a __syncwarp() between them: their epochs differ. */
static inline int unordered(const struct hz_acc *a, uint32_t tid, uint32_t ep)
{
    if (!a->valid || a->tid == tid)
        return 0;
    if (a->tid / 32 != tid / 32)
        return 1;
    return a->ep == ep;
}

/* The hazards one lane access found (each counted once per lane access). */
struct lane_found {
    struct smem_hazard *z[8];
    uint64_t key[8];
    unsigned n;
};

static void found(struct smem_hazard_tracker *t, struct lane_found *lf, enum hz_detail d,
                  uint32_t first_site, uint32_t second_site, uint32_t addr)
{
    /* the bytes of one access mostly find the same hazards: look in the lane's list first */
    uint64_t key = make_key(SMEM_HAZARD_RACE, d, first_site, second_site);
    for (unsigned i = 0; i < lf->n; i++)
        if (lf->key[i] == key)
            return;
    struct smem_hazard *z = site_hazard(t, SMEM_HAZARD_RACE, d, first_site, second_site, addr);
    if (!z)
        return;
    if (lf->n < 8) {
        lf->key[lf->n] = key;
        lf->z[lf->n++] = z;
    } else {
        z->count++; /* more than 8 distinct hazards in one access: count at once */
    }
}

/* What the general code below keeps of an access to a byte only its thread has touched: it. */
static inline void keep_last(struct hz_byte *s, const struct hz_acc *x, int write)
{
    if (write)
        s->w = *x;
    else
        s->ra = *x;
}

/* Inlined where it is called: x, built there field by field, stays in registers (called, its
 * 16-bit and 8-bit fields stored and read back as one word stalled the store-to-load forwarding:
 * most of the time of the hazards on sortingNetworks). */
static inline __attribute__((always_inline)) void
track_byte(struct smem_hazard_tracker *t, struct hz_byte *s, const struct hz_acc *x, int write,
           uint32_t addr, struct lane_found *lf)
{
    uint32_t tid = x->tid, ep = x->ep;
    /* the common case first: a byte only this thread has touched in the interval can race with
       nothing yet, and what the general code below would keep of this access is just it */
    if (s->gen != t->gen) {
        memset(s, 0, sizeof *s);
        s->gen = (uint16_t)t->gen;
        s->owner = (uint16_t)tid;
        keep_last(s, x, write);
        return;
    }
    if (s->owner == tid) {
        keep_last(s, x, write);
        return;
    }
    s->owner = OWNER_MANY;
    if (!s->more) {
        if (t->nmore == t->cap_more) {
            uint32_t nc = t->cap_more ? t->cap_more * 2 : 1024;
            struct hz_more *nm = realloc(t->more, nc * sizeof *nm);
            if (!nm) {
                t->oom = 1; /* what is kept of this byte stays right; its older accesses are lost */
                s->owner = (uint16_t)tid;
                keep_last(s, x, write);
                return;
            }
            t->more = nm;
            t->cap_more = nc;
        }
        memset(&t->more[t->nmore], 0, sizeof t->more[0]);
        s->more = ++t->nmore;
    }
    struct hz_more *m = &t->more[s->more - 1];
    if (!write) {
        if (unordered(&s->w, tid, ep))
            found(t, lf, D_WRITE_READ, s->w.site, x->site, addr);
        if (unordered(&m->w2, tid, ep))
            found(t, lf, D_WRITE_READ, m->w2.site, x->site, addr);
        if (!s->ra.valid) {
            s->ra = *x;
        } else if (s->ra.tid / 32 == tid / 32) {
            if (s->ra.tid != tid)
                m->rc = s->ra;
            s->ra = *x;
        } else {
            m->rb = s->ra;
            s->ra = *x;
            m->rc.valid = 0;
        }
        return;
    }
    const struct hz_acc *ws[2] = {&s->w, &m->w2}, *rs[3] = {&s->ra, &m->rb, &m->rc};
    for (int i = 0; i < 2 && !x->same; i++)
        if (unordered(ws[i], tid, ep))
            found(t, lf, D_WRITE_WRITE, ws[i]->site, x->site, addr);
    for (int i = 0; i < 3; i++)
        if (unordered(rs[i], tid, ep))
            found(t, lf, D_READ_WRITE, rs[i]->site, x->site, addr);
    if (s->w.valid && s->w.tid != tid)
        m->w2 = s->w;
    s->w = *x;
}

/* Races follow what compute-sanitizer's racecheck reports on an H100 (tests/hazards/
 * sanitizer-h100.tsv): atomics take no part (neither with atomics nor with plain loads and stores,
 * although the PTX memory model calls the latter a data race), and a store that leaves the bytes
 * as they were is not the second access of a write-write race (it still races with reads). */
static int lane_oob(const struct smem_hazard_tracker *t, const struct smem_access *a,
                    uint32_t lane, uint32_t width)
{
    uint32_t addr = a->addr[lane];
    uint16_t used = t->p->sites[a->site].used;
    if (used) /* a SASS-placed access: the bytes the program reads (ptxas may read more) */
        return addr >= t->size || (uint32_t)(32 - __builtin_clz(used)) > t->size - addr;
    return (a->oob >> lane & 1u) || addr >= t->size || width > t->size - addr;
}

/* Whether shadow granule b.. of an access is read by the program (all of it, but for a
   SASS-placed access whose used bytes skip it). */
static int granule_used(const struct smem_hazard_tracker *t, uint32_t site, uint32_t b)
{
    uint16_t used = t->p->sites[site].used;
    return !used || (used >> b & ((1u << t->gran) - 1u)) != 0;
}

/* A load's traces in the shadow (it finds nothing: no store in its interval before it). */
static void apply_load(struct smem_hazard_tracker *t, const struct pending_load *a)
{
    uint32_t width = a->width ? a->width : 1;
    int whole = !t->p->sites[a->site].used && width == t->gran;
    for (uint32_t m = a->lanes; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        struct hz_acc x = {a->site, a->wsync[lane], (uint16_t)(a->warp * SMEM_WARP + lane), 1, 0};
        struct lane_found lf;
        lf.n = 0;
        uint32_t addr = a->addr[lane];
        if (whole)
            track_byte(t, &t->shadow[addr >> t->gshift], &x, 0, addr, &lf);
        else
            for (uint32_t b = 0; b < width; b += t->gran)
                if (granule_used(t, a->site, b))
                    track_byte(t, &t->shadow[(addr + b) >> t->gshift], &x, 0, addr + b, &lf);
    }
}

/* The part of load a that waits (its lanes known and in bounds). */
static void pending_of(const struct smem_hazard_tracker *t, const struct smem_access *a,
                       struct pending_load *p)
{
    uint32_t lanes = a->active & ~a->unknown, width = a->width ? a->width : 1;
    p->site = a->site;
    p->warp = a->warp;
    p->width = a->width;
    p->lanes = 0;
    for (uint32_t lane = 0; lane < SMEM_WARP; lane++)
        if ((lanes >> lane & 1u) && !lane_oob(t, a, lane, width))
            p->lanes |= 1u << lane;
    memcpy(p->wsync, a->wsync, sizeof p->wsync);
    memcpy(p->addr, a->addr, sizeof p->addr);
}

/* the waiting loads, into the shadow; later ones go there at once */
static void apply_pending(struct smem_hazard_tracker *t)
{
    for (uint32_t i = 0; i < t->npend; i++)
        apply_load(t, &t->pend[i]);
    t->npend = 0;
    t->direct = 1;
}

int smem_hazards_track_unwritten(struct smem_hazard_tracker *t, const struct smem_launch *l)
{
    if (!t || !t->size)
        return 0;
    for (int d = 0; d < 3; d++)
        if (l->cluster[d] > 1 || t->p->func->reqnctapercluster[d] > 1)
            return 0;
    t->written = calloc((t->size + 7) / 8, 1);
    return t->written ? 0 : -1;
}

/* --initcheck for shared memory: stores, atomics, copies landing mark their bytes written (per
 * block); a load of a byte not marked is a read of memory nothing wrote */
static void track_unwritten(struct smem_hazard_tracker *t, const struct smem_access *a)
{
    if (!t->have_written || a->block != t->written_block) {
        memset(t->written, 0, (t->size + 7) / 8);
        t->written_block = a->block;
        t->have_written = 1;
    }
    if (a->op == SMEM_ACC_GMMA && !a->landed)
        return;
    int write = a->op != SMEM_ACC_LD && a->op != SMEM_ACC_LDSM && a->op != SMEM_ACC_GMMA;
    uint32_t lanes = a->active & ~a->unknown, width = a->width ? a->width : 1;
    /* a SASS-placed load reads bytes the program does not (a float3 as LDS.128): only its used */
    uint32_t used = t->p->sites[a->site].used;
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m), addr = a->addr[lane];
        if (lane_oob(t, a, lane, width))
            continue; /* an out-of-bounds access: reported as such */
        for (uint32_t i = 0; i < width; i++) {
            uint32_t x = addr + i;
            if (!write && used && i < 16 && !(used >> i & 1u))
                continue;
            if (write) {
                t->written[x >> 3] |= (uint8_t)(1u << (x & 7));
            } else if (!(t->written[x >> 3] >> (x & 7) & 1u)) {
                struct smem_hazard *z = site_hazard(t, SMEM_HAZARD_UNINIT_SHARED, D_UNINIT_READ,
                                                    a->site, a->site, x);
                if (z)
                    z->count++;
                break; /* one a lane's access */
            }
        }
    }
}

void smem_hazards_access(struct smem_hazard_tracker *t, const struct smem_access *a)
{
    if (!t || a->site >= t->p->nsites)
        return;
    if (t->written)
        track_unwritten(t, a);
    if (!t->have_cur || a->block != t->cur_block || a->interval != t->cur_interval) {
        /* a new block or barrier interval: everything before it is ordered before it */
        t->have_cur = 1;
        t->cur_block = a->block;
        t->cur_interval = a->interval;
        t->npend = 0;
        t->direct = 0;
        t->nmore = 0;
        if (++t->gen == GEN_WRAP) {
            if (t->shadow)
                memset(t->shadow, 0, (size_t)(t->size + t->gran - 1) / t->gran * sizeof *t->shadow);
            t->gen = 1;
        }
    }
    if (a->op == SMEM_ACC_GMMA && !a->landed)
        return; /* wgmma's request: its reads come as `landed` reads (emu/cta_wgmma.c) */
    int write = a->op != SMEM_ACC_LD && a->op != SMEM_ACC_LDSM && a->op != SMEM_ACC_GMMA;
    uint32_t lanes = a->active & ~a->unknown, width = a->width ? a->width : 1;
    if (!write && !t->direct) {
        /* before the interval's first store: out-of-bounds lanes now, the rest waits */
        for (uint32_t lane = 0; lane < SMEM_WARP; lane++)
            if ((lanes >> lane & 1u) && lane_oob(t, a, lane, width)) {
                struct smem_hazard *z = site_hazard(t, SMEM_HAZARD_OOB, D_OOB_READ, a->site,
                                                    a->site, a->addr[lane]);
                if (z)
                    z->count++;
            }
        if (!t->pend && !(t->pend = malloc(PEND_MAX * sizeof *t->pend))) {
            struct pending_load one; /* out of memory: as before, at once */
            pending_of(t, a, &one);
            apply_load(t, &one);
            return;
        }
        pending_of(t, a, &t->pend[t->npend++]);
        if (t->npend == PEND_MAX)
            apply_pending(t);
        return;
    }
    if (write && a->op != SMEM_ACC_ATOM && !t->direct)
        apply_pending(t);
    uint16_t used = t->p->sites[a->site].used;
    /* the granules of one lane's access: one when it is a whole granule the program reads (the
       common case: no per-granule test) */
    int whole = !used && width == t->gran;
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        uint32_t addr = a->addr[lane];
        if (lane_oob(t, a, lane, width)) {
            struct smem_hazard *z = site_hazard(t, SMEM_HAZARD_OOB, write ? D_OOB_WRITE : D_OOB_READ,
                                                a->site, a->site, addr);
            if (z)
                z->count++;
            continue;
        }
        if (a->op == SMEM_ACC_ATOM)
            continue; /* atomics: in bounds, never part of a race (see smem_hazards_access) */
        struct hz_acc x = {a->site, a->wsync[lane], (uint16_t)(a->warp * SMEM_WARP + lane), 1,
                           (uint8_t)(a->same >> lane & 1u)};
        struct lane_found lf;
        lf.n = 0;
        if (whole)
            track_byte(t, &t->shadow[addr >> t->gshift], &x, write, addr, &lf);
        else
            for (uint32_t b = 0; b < width; b += t->gran)
                if (granule_used(t, a->site, b))
                    track_byte(t, &t->shadow[(addr + b) >> t->gshift], &x, write, addr + b, &lf);
        for (unsigned i = 0; i < lf.n; i++)
            lf.z[i]->count++;
    }
}

void smem_hazards_barrier(struct smem_hazard_tracker *t, const struct smem_cta_barrier *b)
{
    if (!t)
        return;
    const struct smem_cta_program *p = t->p;
    if (b->insn_a >= p->func->ninsns || b->insn_b >= p->func->ninsns)
        return;
    if (b->block != t->bar_block) {
        t->bar_block = b->block;
        t->block_diverged = 0;
    }
    int created;
    struct smem_hazard *z;
    /* some threads exited instead of waiting; after a divergence in this block that is only its
     * consequence (threads released from the other barrier run on and exit) */
    if (b->arrived < b->expected && b->exited > 0 && !t->block_diverged) {
        z = hazard_for(t, SMEM_HAZARD_BARRIER, D_EXIT_WAITING, b->insn_a, b->insn_a, &created);
        if (z) {
            if (created) {
                z->site[0] = z->site[1] = UINT32_MAX;
                z->lines[0] = z->lines[1] = p->func->insns[b->insn_a].loc_line;
                z->file = insn_file(p, b->insn_a);
            }
            z->count++;
        }
    }
    if (b->divergent && b->insn_a != b->insn_b) {
        uint32_t i0 = b->insn_a < b->insn_b ? b->insn_a : b->insn_b;
        uint32_t i1 = b->insn_a < b->insn_b ? b->insn_b : b->insn_a;
        z = hazard_for(t, SMEM_HAZARD_BARRIER, D_DIVERGENT, i0, i1, &created);
        if (z) {
            if (created) {
                z->site[0] = z->site[1] = UINT32_MAX;
                z->lines[0] = p->func->insns[i0].loc_line;
                z->lines[1] = p->func->insns[i1].loc_line;
                z->file = insn_file(p, i0);
            }
            z->count++;
        }
        t->block_diverged = 1;
    }
}

static const char *swizzle_words(unsigned sw)
{
    return sw == 3 ? "128-byte swizzle" : sw == 2 ? "64-byte swizzle" : sw == 1 ? "32-byte swizzle"
                                                                       : "no swizzle";
}

/* The hazard of kind k between the lines of instructions insn0 and insn1 (one a pair of lines:
 * an unrolled loop's wgmmas, a helper's TMA loads are one), counted once more; NULL when no more
 * fit. A new one (*created) is located and named by the variable at address: its caller writes
 * its detail. */
static struct smem_hazard *pair_hazard(struct smem_hazard_tracker *t, enum smem_hazard_kind k,
                                       enum hz_detail d, uint32_t insn0, uint32_t insn1,
                                       uint32_t address, int *created)
{
    const struct smem_cta_program *p = t->p;
    uint32_t s0 = p->site_of_insn[insn0], s1 = p->site_of_insn[insn1];
    uint32_t l0 = s0 < p->nsites ? p->sites[s0].line : p->func->insns[insn0].loc_line;
    uint32_t l1 = s1 < p->nsites ? p->sites[s1].line : p->func->insns[insn1].loc_line;
    struct smem_hazard *z = hazard_for(t, k, d, l0, l1, created);
    if (!z)
        return NULL;
    if (*created) {
        z->site[0] = s0 < p->nsites ? s0 : UINT32_MAX;
        z->site[1] = s1 < p->nsites ? s1 : UINT32_MAX;
        z->lines[0] = l0;
        z->lines[1] = l1;
        z->file = s0 < p->nsites ? p->sites[s0].file : insn_file(p, insn0);
        z->address = address;
        const struct smem_cta_var *v = var_of(p, address, 0);
        if (v)
            var_display_name(v->name, z->var, sizeof z->var);
    }
    z->count++;
    return z;
}

void smem_hazards_layout(struct smem_hazard_tracker *t, const struct smem_cta_layout *e)
{
    int created;
    struct smem_hazard *z = pair_hazard(t, SMEM_HAZARD_LAYOUT, e->operand == 'B' ? D_LAYOUT_B : D_LAYOUT_A,
                                        e->insn, e->tma_insn, e->address, &created);
    if (z && created)
        snprintf(z->detail, sizeof z->detail, "wgmma reads %c as %s, %s-major; the TMA wrote it with %s",
                 e->operand, swizzle_words(e->read_swizzle), e->mn ? "MN" : "K",
                 swizzle_words(e->written_swizzle));
}

/* how a generic-proxy write is named in a proxy-fence hazard */
static const char *write_words(unsigned op)
{
    return op == PO_ST ? "st.shared" : op == PO_ATOM ? "atom.shared" : op == PO_RED ? "red.shared"
         : op == PO_CP_ASYNC ? "cp.async" : op == PO_STMATRIX ? "stmatrix" : smem_ptx_op_name(op);
}

void smem_hazards_proxy_fence(struct smem_hazard_tracker *t, const struct smem_cta_proxy_fence *e)
{
    int created;
    struct smem_hazard *z = pair_hazard(t, SMEM_HAZARD_PROXY_FENCE, e->operand == 'B' ? D_FENCE_B : D_FENCE_A,
                                        e->insn, e->write_insn, e->address, &created);
    if (z && created)
        snprintf(z->detail, sizeof z->detail, "wgmma reads %c written by %s (thread %u) without "
                 "fence.proxy.async", e->operand, write_words(t->p->func->insns[e->write_insn].op),
                 e->thread);
}

void smem_hazards_cluster_race(struct smem_hazard_tracker *t, const struct smem_cta_cluster_race *e)
{
    int created;
    enum hz_detail d = !e->write[0] ? D_CL_READ_WRITE : e->write[1] ? D_CL_WRITE_WRITE : D_CL_WRITE_READ;
    struct smem_hazard *z = pair_hazard(t, SMEM_HAZARD_RACE, d, e->insn[0], e->insn[1], e->address,
                                        &created);
    if (z && created)
        snprintf(z->detail, sizeof z->detail, "%s between the CTAs of a cluster (ranks %u and %u, "
                 "in rank %u's shared memory)", detail_name[d], e->rank[0], e->rank[1], e->owner);
}

static void triple(unsigned out[3], uint32_t linear, const unsigned dim[3])
{
    out[0] = linear % dim[0];
    out[1] = linear / dim[0] % dim[1];
    out[2] = linear / (dim[0] * dim[1]);
}

void smem_hazards_global_race(struct smem_hazard_tracker *t, const struct smem_cta_global_race *e)
{
    const struct smem_cta_program *p = t->p;
    enum hz_detail d = !e->write[0] ? D_GL_READ_WRITE : e->write[1] ? D_GL_WRITE_WRITE : D_GL_WRITE_READ;
    uint32_t l0 = p->func->insns[e->insn[0]].loc_line, l1 = p->func->insns[e->insn[1]].loc_line;
    int created;
    struct smem_hazard *z = hazard_for(t, SMEM_HAZARD_GLOBAL_RACE, d, l0, l1, &created);
    if (!z)
        return;
    if (created) {
        z->site[0] = z->site[1] = UINT32_MAX;
        z->lines[0] = l0;
        z->lines[1] = l1;
        z->file = insn_file(p, e->insn[0]);
        for (int i = 0; i < 2; i++) {
            triple(z->threads[i], e->thread[i], t->block_dim);
            triple(z->blocks[i], e->block[i], t->grid_dim);
        }
        z->device_address = e->address;
        snprintf(z->detail, sizeof z->detail, "%s race on global memory: thread (%u,%u,%u) of "
                 "block (%u,%u,%u), then thread (%u,%u,%u) of block (%u,%u,%u)", detail_name[d],
                 z->threads[0][0], z->threads[0][1], z->threads[0][2], z->blocks[0][0],
                 z->blocks[0][1], z->blocks[0][2], z->threads[1][0], z->threads[1][1],
                 z->threads[1][2], z->blocks[1][0], z->blocks[1][1], z->blocks[1][2]);
    }
    z->count++;
}

unsigned smem_hazards_count(const struct smem_hazard_tracker *t) { return t ? t->n : 0; }

const struct smem_hazard *smem_hazards_get(const struct smem_hazard_tracker *t, unsigned i)
{
    return t && i < t->n ? &t->hz[i] : NULL;
}

void smem_hazards_free(struct smem_hazard_tracker *t)
{
    if (!t)
        return;
    free(t->written);
    free(t->shadow);
    free(t->more);
    free(t->pend);
    free(t->hz);
    free(t->keys);
    free(t->index);
    free(t);
}

const char *smem_hazard_kind_name(enum smem_hazard_kind k)
{
    return k == SMEM_HAZARD_RACE ? "race" : k == SMEM_HAZARD_BARRIER ? "barrier"
         : k == SMEM_HAZARD_LAYOUT ? "layout" : k == SMEM_HAZARD_PROXY_FENCE ? "proxy-fence"
         : k == SMEM_HAZARD_GLOBAL_RACE ? "global-race"
         : k == SMEM_HAZARD_UNINIT_SHARED ? "uninitialized-shared" : "oob";
}
