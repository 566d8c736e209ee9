/* unpack.c: Zstandard (RFC 8878) and LZ4-block decoders for the compressed entries of nvcc's
 * fatbinaries. Written from the two formats' specifications, for data we did not make: every read
 * is bounds-checked and nothing is written past the output's stated size.
 * zstd needs its two entropy coders (FSE tables, Huffman literals) and the sequence executor; each
 * is one section below. */
#include "unpack.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(msg) do { *why = (msg); return -1; } while (0)

/* ---- LZ4 block ---------------------------------------------------------------------------- */

long smem_lz4_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, const char **why)
{
    size_t i = 0, o = 0;
    const char *dummy;
    if (!why)
        why = &dummy;
    while (i < n) {
        unsigned token = src[i++];
        size_t lit = token >> 4;
        if (lit == 15) {
            unsigned b;
            do {
                if (i >= n)
                    FAIL("LZ4: literal length runs past the input");
                b = src[i++];
                lit += b;
            } while (b == 255);
        }
        if (lit > n - i || lit > cap - o)
            FAIL("LZ4: literals run past the input or the output");
        memcpy(dst + o, src + i, lit);
        i += lit;
        o += lit;
        if (i == n)
            break; /* the last sequence has literals only */
        if (n - i < 2)
            FAIL("LZ4: truncated match offset");
        size_t off = (size_t)src[i] | (size_t)src[i + 1] << 8;
        i += 2;
        if (off == 0 || off > o)
            FAIL("LZ4: match offset outside the output");
        size_t len = (token & 15u) + 4u;
        if ((token & 15u) == 15) {
            unsigned b;
            do {
                if (i >= n)
                    FAIL("LZ4: match length runs past the input");
                b = src[i++];
                len += b;
            } while (b == 255);
        }
        if (len > cap - o)
            FAIL("LZ4: match runs past the output");
        for (size_t k = 0; k < len; k++, o++) /* overlapping copies repeat a pattern */
            dst[o] = dst[o - off];
    }
    return (long)o;
}

/* ---- bit readers -------------------------------------------------------------------------- */

static unsigned highbit32(uint32_t v) /* index of the highest set bit; v != 0 */
{
    unsigned r = 0;
    while (v >>= 1)
        r++;
    return r;
}

/* Backward reader (FSE and Huffman streams): bits are consumed from the end of the stream
 * towards its start; positions before the start read as zeros (the format relies on it). */
struct bwd {
    const uint8_t *p;
    int64_t pos; /* bits not yet consumed; negative once the stream is overrun */
};

static int bwd_init(struct bwd *b, const uint8_t *p, size_t n)
{
    if (!n || !p[n - 1])
        return -1; /* the last byte holds the end-of-stream marker bit */
    b->p = p;
    b->pos = (int64_t)n * 8 - 8 + (int64_t)highbit32(p[n - 1]);
    return 0;
}

static uint64_t bwd_read(struct bwd *b, unsigned nb) /* nb <= 56 */
{
    if (!nb)
        return 0;
    b->pos -= nb;
    int64_t start = b->pos;
    unsigned cnt = nb, shift = 0;
    if (start < 0) {
        if (start + (int64_t)nb <= 0)
            return 0;
        cnt = (unsigned)(nb + start);
        shift = (unsigned)-start;
        start = 0;
    }
    size_t byte = (size_t)(start >> 3);
    unsigned bit = (unsigned)(start & 7), got = 0;
    uint64_t v = 0;
    size_t last = (size_t)((start + cnt - 1) >> 3);
    for (size_t k = byte; k <= last; k++, got += 8)
        v |= (uint64_t)b->p[k] << got;
    v >>= bit;
    v &= cnt == 64 ? ~0ull : ((1ull << cnt) - 1);
    return v << shift;
}

/* Forward reader (FSE table descriptions). */
struct fwd {
    const uint8_t *p;
    size_t n, pos; /* pos in bits */
};

static int fwd_read(struct fwd *f, unsigned nb, uint32_t *v)
{
    uint32_t r = 0;
    if (f->pos + nb > f->n * 8)
        return -1;
    for (unsigned i = 0; i < nb; i++, f->pos++)
        r |= (uint32_t)(f->p[f->pos >> 3] >> (f->pos & 7) & 1u) << i;
    *v = r;
    return 0;
}

/* ---- FSE ---------------------------------------------------------------------------------- */

#define FSE_MAX_LOG 9
#define FSE_MAX_SYMS 64

struct fse {
    unsigned log;
    uint8_t sym[1u << FSE_MAX_LOG];
    uint8_t nb[1u << FSE_MAX_LOG];
    uint16_t base[1u << FSE_MAX_LOG];
};

/* The decoding table of a normalized distribution (prob -1: "less than one"). */
static int fse_build(struct fse *t, const int16_t *prob, unsigned nsym, unsigned log)
{
    unsigned size = 1u << log, high = size - 1, mask = size - 1;
    unsigned step = (size >> 1) + (size >> 3) + 3;
    uint16_t next[FSE_MAX_SYMS];
    if (nsym > FSE_MAX_SYMS || log > FSE_MAX_LOG)
        return -1;
    t->log = log;
    for (unsigned s = 0; s < nsym; s++) {
        if (prob[s] == -1) {
            t->sym[high--] = (uint8_t)s;
            next[s] = 1;
        } else {
            next[s] = (uint16_t)prob[s];
        }
    }
    unsigned pos = 0;
    for (unsigned s = 0; s < nsym; s++)
        for (int i = 0; i < prob[s]; i++) {
            t->sym[pos] = (uint8_t)s;
            do
                pos = (pos + step) & mask;
            while (pos > high);
        }
    if (pos != 0 && size > 1)
        return -1; /* the distribution does not fill the table */
    for (unsigned u = 0; u < size; u++) {
        unsigned s = t->sym[u];
        if (s >= nsym)
            return -1;
        unsigned x = next[s]++;
        if (!x)
            return -1;
        unsigned nb = log - highbit32(x);
        t->nb[u] = (uint8_t)nb;
        t->base[u] = (uint16_t)((x << nb) - size);
    }
    return 0;
}

/* Reads an FSE table description (forward bitstream) and builds its table; *used: bytes read. */
static int fse_read(const uint8_t *p, size_t n, unsigned maxlog, unsigned maxsym, struct fse *t,
                    size_t *used)
{
    struct fwd f = {p, n, 0};
    int16_t prob[FSE_MAX_SYMS];
    uint32_t v;
    if (fwd_read(&f, 4, &v))
        return -1;
    unsigned log = v + 5;
    if (log > maxlog)
        return -1;
    int32_t left = 1 << log;
    unsigned nsym = 0;
    while (left > 0) {
        if (nsym >= maxsym)
            return -1;
        uint32_t maxval = (uint32_t)left + 1;
        unsigned bits = highbit32(maxval) + 1;
        uint32_t thresh = (1u << bits) - 1 - maxval, lowmask = (1u << (bits - 1)) - 1;
        size_t at = f.pos;
        if (fwd_read(&f, bits - 1, &v))
            return -1;
        if (v >= thresh) {
            f.pos = at;
            if (fwd_read(&f, bits, &v))
                return -1;
            if (v > lowmask)
                v -= thresh;
        }
        int proba = (int)v - 1;
        left -= proba < 0 ? -proba : proba;
        prob[nsym++] = (int16_t)proba;
        if (proba == 0) {
            uint32_t rep;
            do {
                if (fwd_read(&f, 2, &rep))
                    return -1;
                for (uint32_t i = 0; i < rep; i++) {
                    if (nsym >= maxsym)
                        return -1;
                    prob[nsym++] = 0;
                }
            } while (rep == 3);
        }
    }
    if (left != 0)
        return -1;
    *used = (f.pos + 7) / 8;
    return fse_build(t, prob, nsym, log);
}

static void fse_rle(struct fse *t, uint8_t sym)
{
    t->log = 0;
    t->sym[0] = sym;
    t->nb[0] = 0;
    t->base[0] = 0;
}

/* ---- Huffman literals --------------------------------------------------------------------- */

#define HUF_MAX_BITS 11

struct huf {
    unsigned maxbits;
    uint8_t sym[1u << HUF_MAX_BITS];
    uint8_t nb[1u << HUF_MAX_BITS];
};

/* Reads a Huffman tree description; *used: bytes read. */
static int huf_read(const uint8_t *p, size_t n, struct huf *h, size_t *used)
{
    uint8_t w[256];
    unsigned nw = 0;
    if (!n)
        return -1;
    unsigned hb = p[0];
    if (hb >= 128) {
        nw = hb - 127;
        size_t bytes = (nw + 1) / 2;
        if (bytes > n - 1)
            return -1;
        for (unsigned i = 0; i < nw; i++)
            w[i] = (uint8_t)(i % 2 ? p[1 + i / 2] & 15 : p[1 + i / 2] >> 4);
        *used = 1 + bytes;
    } else {
        if (hb > n - 1 || hb == 0)
            return -1;
        struct fse t;
        size_t tu;
        if (fse_read(p + 1, hb, 6, 16, &t, &tu) || tu >= hb)
            return -1;
        struct bwd b;
        if (bwd_init(&b, p + 1 + tu, hb - tu))
            return -1;
        unsigned s1 = (unsigned)bwd_read(&b, t.log), s2 = (unsigned)bwd_read(&b, t.log);
        for (;;) {
            if (nw >= 254)
                return -1;
            w[nw++] = t.sym[s1];
            s1 = t.base[s1] + (unsigned)bwd_read(&b, t.nb[s1]);
            if (b.pos < 0) {
                w[nw++] = t.sym[s2];
                break;
            }
            w[nw++] = t.sym[s2];
            s2 = t.base[s2] + (unsigned)bwd_read(&b, t.nb[s2]);
            if (b.pos < 0) {
                w[nw++] = t.sym[s1];
                break;
            }
        }
        *used = 1 + hb;
    }
    /* the last weight completes the sum of 2^(w-1) to a power of two */
    uint32_t sum = 0;
    for (unsigned i = 0; i < nw; i++) {
        if (w[i] > HUF_MAX_BITS)
            return -1;
        if (w[i])
            sum += 1u << (w[i] - 1);
    }
    if (!sum || nw >= 256)
        return -1;
    unsigned maxbits = highbit32(sum) + 1;
    uint32_t rest = (1u << maxbits) - sum;
    if (rest & (rest - 1) || maxbits > HUF_MAX_BITS)
        return -1;
    w[nw++] = (uint8_t)(highbit32(rest) + 1);
    /* codes: longest (lowest weight) first, symbols in natural order within a length */
    unsigned count[HUF_MAX_BITS + 2] = {0}, start[HUF_MAX_BITS + 2];
    for (unsigned i = 0; i < nw; i++)
        if (w[i])
            count[maxbits + 1 - w[i]]++;
    start[maxbits] = 0;
    for (unsigned bits = maxbits; bits >= 1; bits--) {
        start[bits - 1] = start[bits] + count[bits] * (1u << (maxbits - bits));
        if (start[bits - 1] > (1u << maxbits))
            return -1;
    }
    for (unsigned i = 0; i < nw; i++) {
        if (!w[i])
            continue;
        unsigned bits = maxbits + 1 - w[i], len = 1u << (maxbits - bits);
        memset(h->sym + start[bits], (int)i, len);
        memset(h->nb + start[bits], (int)bits, len);
        start[bits] += len;
    }
    h->maxbits = maxbits;
    return 0;
}

static int huf_stream(const struct huf *h, const uint8_t *p, size_t n, uint8_t *out, size_t count)
{
    struct bwd b;
    if (bwd_init(&b, p, n))
        return -1;
    unsigned mask = (1u << h->maxbits) - 1;
    unsigned state = (unsigned)bwd_read(&b, h->maxbits);
    for (size_t i = 0; i < count; i++) {
        unsigned nb = h->nb[state];
        out[i] = h->sym[state];
        state = ((state << nb) & mask) | (unsigned)bwd_read(&b, nb);
    }
    return b.pos == -(int64_t)h->maxbits ? 0 : -1;
}

/* ---- frames, blocks, sequences ------------------------------------------------------------ */

#define BLOCK_MAX (128u * 1024u)

struct zctx {
    struct huf huf;
    int have_huf;
    struct fse ll, of, ml;
    int have_seq_tables;
    uint32_t rep[3];
    uint8_t lit[BLOCK_MAX];
};

static const uint32_t ll_base[36] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18,
                                     20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048,
                                     4096, 8192, 16384, 32768, 65536};
static const uint8_t ll_bits[36] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                    1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const uint32_t ml_base[53] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                                     20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
                                     35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515,
                                     1027, 2051, 4099, 8195, 16387, 32771, 65539};
static const uint8_t ml_bits[53] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1,
                                    2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const int16_t ll_default[36] = {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2,
                                       2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1};
static const int16_t ml_default[53] = {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                       1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                       1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
static const int16_t of_default[29] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1,
                                       1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1};

/* The literals section: into z->lit; *nlit literals, *used bytes of the block. */
static long literals(struct zctx *z, const uint8_t *p, size_t n, size_t *nlit, const char **why)
{
    if (!n)
        FAIL("zstd: empty block");
    unsigned type = p[0] & 3, sf = p[0] >> 2 & 3;
    size_t regen, comp = 0, hdr;
    if (type <= 1) {
        if (sf == 0 || sf == 2) {
            hdr = 1;
            regen = p[0] >> 3;
        } else if (sf == 1) {
            if (n < 2)
                FAIL("zstd: truncated literals header");
            hdr = 2;
            regen = (p[0] >> 4) + ((size_t)p[1] << 4);
        } else {
            if (n < 3)
                FAIL("zstd: truncated literals header");
            hdr = 3;
            regen = (p[0] >> 4) + ((size_t)p[1] << 4) + ((size_t)p[2] << 12);
        }
        if (regen > BLOCK_MAX)
            FAIL("zstd: literals larger than a block");
        if (type == 0) {
            if (regen > n - hdr)
                FAIL("zstd: raw literals run past the block");
            memcpy(z->lit, p + hdr, regen);
            *nlit = regen;
            return (long)(hdr + regen);
        }
        if (n - hdr < 1)
            FAIL("zstd: truncated RLE literals");
        memset(z->lit, p[hdr], regen);
        *nlit = regen;
        return (long)(hdr + 1);
    }
    unsigned streams = sf == 0 ? 1 : 4;
    hdr = sf <= 1 ? 3 : sf == 2 ? 4 : 5;
    if (n < hdr)
        FAIL("zstd: truncated literals header");
    uint64_t h = 0;
    for (size_t i = 0; i < hdr; i++)
        h |= (uint64_t)p[i] << (8 * i);
    unsigned width = sf <= 1 ? 10 : sf == 2 ? 14 : 18;
    regen = (size_t)(h >> 4 & ((1u << width) - 1));
    comp = (size_t)(h >> (4 + width) & ((1u << width) - 1));
    if (regen > BLOCK_MAX || comp > n - hdr)
        FAIL("zstd: literal sizes out of range");
    const uint8_t *q = p + hdr;
    size_t qn = comp;
    if (type == 2) {
        size_t used;
        if (huf_read(q, qn, &z->huf, &used))
            FAIL("zstd: bad Huffman tree description");
        z->have_huf = 1;
        q += used;
        qn -= used;
    } else if (!z->have_huf) {
        FAIL("zstd: treeless literals without an earlier Huffman tree");
    }
    if (streams == 1) {
        if (huf_stream(&z->huf, q, qn, z->lit, regen))
            FAIL("zstd: corrupt Huffman stream");
    } else {
        if (qn < 10)
            FAIL("zstd: truncated jump table");
        size_t s1 = q[0] | (size_t)q[1] << 8, s2 = q[2] | (size_t)q[3] << 8,
               s3 = q[4] | (size_t)q[5] << 8;
        if (s1 + s2 + s3 + 6 >= qn)
            FAIL("zstd: bad jump table");
        size_t s4 = qn - 6 - s1 - s2 - s3, per = (regen + 3) / 4;
        if (per * 3 > regen)
            FAIL("zstd: too few literals for four streams");
        const uint8_t *sp = q + 6;
        size_t sizes[4] = {s1, s2, s3, s4};
        for (int k = 0; k < 4; k++) {
            size_t cnt = k < 3 ? per : regen - 3 * per;
            if (huf_stream(&z->huf, sp, sizes[k], z->lit + (size_t)k * per, cnt))
                FAIL("zstd: corrupt Huffman stream");
            sp += sizes[k];
        }
    }
    *nlit = regen;
    return (long)(hdr + comp);
}

/* One table of the sequences section in mode `mode`; *used bytes of the description. */
static int seq_table(struct zctx *z, struct fse *t, unsigned mode, const int16_t *def,
                     unsigned ndef, unsigned deflog, unsigned maxlog, unsigned maxsym,
                     const uint8_t *p, size_t n, size_t *used)
{
    *used = 0;
    switch (mode) {
    case 0: return fse_build(t, def, ndef, deflog);
    case 1:
        if (!n)
            return -1;
        if (p[0] >= maxsym)
            return -1;
        fse_rle(t, p[0]);
        *used = 1;
        return 0;
    case 2: return fse_read(p, n, maxlog, maxsym, t, used);
    default: return z->have_seq_tables ? 0 : -1; /* repeat: the previous block's table */
    }
}

static long zstd_block(struct zctx *z, const uint8_t *p, size_t n, uint8_t *dst, size_t o, size_t cap,
                       const char **why)
{
    size_t nlit = 0;
    long lr = literals(z, p, n, &nlit, why);
    if (lr < 0)
        return -1;
    const uint8_t *q = p + lr;
    size_t qn = n - (size_t)lr;
    if (!qn)
        FAIL("zstd: missing sequences section");
    size_t nseq = q[0], h = 1;
    if (q[0] >= 128) {
        if (q[0] < 255) {
            if (qn < 2)
                FAIL("zstd: truncated sequence count");
            nseq = ((size_t)(q[0] - 128) << 8) + q[1];
            h = 2;
        } else {
            if (qn < 3)
                FAIL("zstd: truncated sequence count");
            nseq = q[1] + ((size_t)q[2] << 8) + 0x7F00;
            h = 3;
        }
    }
    size_t lpos = 0;
    if (nseq) {
        if (qn < h + 1)
            FAIL("zstd: missing compression modes");
        unsigned modes = q[h++];
        if (modes & 3)
            FAIL("zstd: reserved bits set in the compression modes");
        size_t used;
        if (seq_table(z, &z->ll, modes >> 6, ll_default, 36, 6, 9, 36, q + h, qn - h, &used))
            FAIL("zstd: bad literal-length table");
        h += used;
        if (seq_table(z, &z->of, modes >> 4 & 3, of_default, 29, 5, 8, 32, q + h, qn - h, &used))
            FAIL("zstd: bad offset table");
        h += used;
        if (seq_table(z, &z->ml, modes >> 2 & 3, ml_default, 53, 6, 9, 53, q + h, qn - h, &used))
            FAIL("zstd: bad match-length table");
        h += used;
        z->have_seq_tables = 1;
        if (h > qn)
            FAIL("zstd: truncated sequences section");
        struct bwd b;
        if (bwd_init(&b, q + h, qn - h))
            FAIL("zstd: bad sequence bitstream");
        unsigned sl = (unsigned)bwd_read(&b, z->ll.log), so = (unsigned)bwd_read(&b, z->of.log),
                 sm = (unsigned)bwd_read(&b, z->ml.log);
        for (size_t i = 0; i < nseq; i++) {
            unsigned llc = z->ll.sym[sl], ofc = z->of.sym[so], mlc = z->ml.sym[sm];
            if (llc >= 36 || mlc >= 53 || ofc > 31)
                FAIL("zstd: sequence code out of range");
            uint32_t ofv = (uint32_t)((1ull << ofc) + bwd_read(&b, ofc));
            size_t ml = ml_base[mlc] + (size_t)bwd_read(&b, ml_bits[mlc]);
            size_t ll = ll_base[llc] + (size_t)bwd_read(&b, ll_bits[llc]);
            if (i + 1 < nseq) {
                sl = z->ll.base[sl] + (unsigned)bwd_read(&b, z->ll.nb[sl]);
                sm = z->ml.base[sm] + (unsigned)bwd_read(&b, z->ml.nb[sm]);
                so = z->of.base[so] + (unsigned)bwd_read(&b, z->of.nb[so]);
            }
            if (b.pos < 0)
                FAIL("zstd: sequence bitstream overrun");
            /* offset: a new one, or one of the three repeat offsets */
            uint32_t off;
            if (ofv > 3) {
                off = ofv - 3;
                z->rep[2] = z->rep[1];
                z->rep[1] = z->rep[0];
                z->rep[0] = off;
            } else {
                unsigned idx = ofv - 1 + (ll == 0);
                if (idx == 3) {
                    off = z->rep[0] - 1;
                    if (!off)
                        FAIL("zstd: repeat offset of zero");
                } else {
                    off = z->rep[idx];
                }
                if (idx > 0) {
                    if (idx >= 2)
                        z->rep[2] = z->rep[1];
                    z->rep[1] = z->rep[0];
                    z->rep[0] = off;
                }
            }
            if (ll > nlit - lpos || ll > cap - o)
                FAIL("zstd: literal copy runs past its buffer");
            memcpy(dst + o, z->lit + lpos, ll);
            lpos += ll;
            o += ll;
            if (off > o)
                FAIL("zstd: match offset before the start of the output");
            if (ml > cap - o)
                FAIL("zstd: match runs past the output");
            for (size_t k = 0; k < ml; k++, o++)
                dst[o] = dst[o - off];
        }
        if (b.pos != 0)
            FAIL("zstd: sequence bitstream not consumed exactly");
    } else if (h != qn) {
        FAIL("zstd: bytes after an empty sequences section");
    }
    if (nlit - lpos > cap - o)
        FAIL("zstd: literals run past the output");
    memcpy(dst + o, z->lit + lpos, nlit - lpos);
    o += nlit - lpos;
    return (long)o;
}

static long zstd_frames(struct zctx *z, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
                        const char **why)
{
    size_t i = 0, o = 0;
    while (i < n) {
        if (n - i < 4)
            FAIL("zstd: truncated frame magic");
        uint32_t magic = (uint32_t)src[i] | (uint32_t)src[i + 1] << 8 |
                         (uint32_t)src[i + 2] << 16 | (uint32_t)src[i + 3] << 24;
        i += 4;
        if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) { /* skippable frame */
            if (n - i < 4)
                FAIL("zstd: truncated skippable frame");
            size_t sz = (size_t)src[i] | (size_t)src[i + 1] << 8 | (size_t)src[i + 2] << 16 |
                        (size_t)src[i + 3] << 24;
            i += 4;
            if (sz > n - i)
                FAIL("zstd: skippable frame runs past the input");
            i += sz;
            continue;
        }
        if (magic != 0xFD2FB528u)
            FAIL("zstd: not a Zstandard frame");
        if (i >= n)
            FAIL("zstd: truncated frame header");
        unsigned fhd = src[i++];
        unsigned fcs_flag = fhd >> 6, single = fhd >> 5 & 1, checksum = fhd >> 2 & 1,
                 did_flag = fhd & 3;
        if (fhd & 8)
            FAIL("zstd: reserved bit set in the frame header");
        size_t skip = (single ? 0 : 1) + (did_flag == 3 ? 4 : did_flag) +
                      (fcs_flag == 0 ? single : 1u << fcs_flag);
        if (did_flag) {
            size_t dpos = i + (single ? 0 : 1);
            uint32_t did = 0;
            for (unsigned k = 0; k < (did_flag == 3 ? 4u : did_flag) && dpos + k < n; k++)
                did |= (uint32_t)src[dpos + k] << (8 * k);
            if (did)
                FAIL("zstd: the frame needs a dictionary");
        }
        if (skip > n - i)
            FAIL("zstd: truncated frame header");
        i += skip;
        memset(z, 0, offsetof(struct zctx, lit));
        z->rep[0] = 1;
        z->rep[1] = 4;
        z->rep[2] = 8;
        size_t frame_start = o;
        for (;;) {
            if (n - i < 3)
                FAIL("zstd: truncated block header");
            uint32_t bh = (uint32_t)src[i] | (uint32_t)src[i + 1] << 8 | (uint32_t)src[i + 2] << 16;
            i += 3;
            unsigned last = bh & 1, type = bh >> 1 & 3;
            size_t size = bh >> 3;
            if (size > BLOCK_MAX)
                FAIL("zstd: block larger than 128 KB");
            if (type == 0) {
                if (size > n - i || size > cap - o)
                    FAIL("zstd: raw block runs past its buffer");
                memcpy(dst + o, src + i, size);
                i += size;
                o += size;
            } else if (type == 1) {
                if (i >= n || size > cap - o)
                    FAIL("zstd: RLE block runs past its buffer");
                memset(dst + o, src[i], size);
                i += 1;
                o += size;
            } else if (type == 2) {
                if (size > n - i)
                    FAIL("zstd: compressed block runs past the input");
                /* matches may reach back into earlier blocks of the frame, never before it */
                long r = zstd_block(z, src + i, size, dst + frame_start, o - frame_start,
                                    cap - frame_start, why);
                if (r < 0)
                    return -1;
                o = frame_start + (size_t)r;
                i += size;
            } else {
                FAIL("zstd: reserved block type");
            }
            if (last)
                break;
        }
        if (checksum) {
            if (n - i < 4)
                FAIL("zstd: truncated content checksum");
            i += 4; /* xxHash64 of the content: not verified (the PTX parser checks its input) */
        }
    }
    return (long)o;
}

long smem_zstd_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    struct zctx *z = malloc(sizeof *z); /* ~140 KB: too large for the stack of a program's thread */
    if (!z)
        FAIL("zstd: out of memory");
    long r = zstd_frames(z, src, n, dst, cap, why);
    free(z);
    return r;
}
