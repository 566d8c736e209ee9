/* sass_model.c: what ptxas makes of a kernel's shared accesses, modelled over its PTX.
 *
 * ptxas merges neighbouring scalar shared loads (stores) into LDS.64 / LDS.128 (STS) when it can
 * prove the combined address is aligned (seen on an H100: a 16x16 sgemm tile's row reads
 * As[ty][k..k+3] became one LDS.128; tests/validate; and fixed places, cuda-samples'
 * fp16ScalarProduct's last reduction step, v[0] + v[1] of a half2 array: one LDS.64). Requests are
 * SASS instructions, so the analyzer must merge them too. Alignment comes from a trailing-zeros
 * analysis of the registers. Also here, for matching the PTX against a cubin's own SASS: the line a
 * PTX instruction is written on as the line table has it, and what ptxas moves no shared load
 * across. */
#include "smemlab/sass/sass_model.h"
#include "smemlab/sass/flow.h"

#include <stdlib.h>
#include <string.h>

#define TZ_TOP 32 /* nothing known to the contrary: as aligned as can be */

static unsigned ctz64(uint64_t v) { return v ? (unsigned)__builtin_ctzll(v) : TZ_TOP; }
static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }

/* Trailing zero bits an operand is known to have. */
static unsigned tz_operand(const struct smem_ptx_operand *o, const unsigned *tz,
                           const uint32_t *sym_offset)
{
    switch (o->kind) {
    case OPK_REG: return o->reg[0] >= 0 ? tz[o->reg[0]] : 0;
    case OPK_IMM: return ctz64((uint64_t)o->imm);
    case OPK_SYM: return umin(ctz64(sym_offset[o->sym]), ctz64((uint64_t)o->imm));
    default: return 0;
    }
}

/* What an instruction's result is known to be a multiple of (as trailing zeros). */
static unsigned tz_result(const struct smem_ptx_insn *in, const unsigned *tz,
                          const uint32_t *sym_offset)
{
    const struct smem_ptx_operand *o = in->ops;
    unsigned a = in->nops > 1 ? tz_operand(&o[1], tz, sym_offset) : 0;
    unsigned b = in->nops > 2 ? tz_operand(&o[2], tz, sym_offset) : 0;
    unsigned c = in->nops > 3 ? tz_operand(&o[3], tz, sym_offset) : 0;
    switch (in->op) {
    case PO_MOV: case PO_CVT: case PO_CVTA: return o[1].kind == OPK_SREG ? 0 : a;
    case PO_ADD: case PO_SUB: case PO_OR: case PO_XOR: return umin(a, b);
    case PO_AND: return a > b ? a : b;
    case PO_MUL: return in->mode == MODE_HI ? 0 : umin(TZ_TOP, a + b);
    case PO_MAD: return in->mode == MODE_HI ? 0 : umin(umin(TZ_TOP, a + b), c);
    case PO_SHL:
        if (o[2].kind == OPK_IMM && o[2].imm >= 0 && o[2].imm < 64)
            return umin(TZ_TOP, a + (unsigned)o[2].imm);
        return a;
    case PO_SELP: return umin(a, b);
    default: return 0;
    }
}

static int writes_reg(const struct smem_ptx_insn *in, int32_t reg)
{
    if (in->nops == 0 || in->op == PO_ST || in->op == PO_RED || in->op == PO_BRA ||
        in->op == PO_BAR)
        return 0;
    const struct smem_ptx_operand *d = &in->ops[0];
    for (int r = 0; r < 4; r++)
        if (d->reg[r] == reg && (d->kind == OPK_REG || d->kind == OPK_PAIR || d->kind == OPK_VEC))
            return 1;
    return 0;
}

/* A scalar shared load from [reg + imm] (stores: to) that ptxas could merge. */
static int candidate(const struct smem_ptx_insn *in, int stores)
{
    unsigned w = smem_ptx_type_bytes(in->type);
    if (in->space != SP_SHARED || in->vec != 1 || (w != 4 && w != 8) || in->nops != 2)
        return 0;
    /* [reg + imm], or [symbol + imm]: a fixed place in the window */
    if (stores)
        return in->op == PO_ST && in->ops[0].kind == OPK_ADDR &&
               (in->ops[0].reg[0] >= 0 || in->ops[0].sym >= 0) &&
               (in->ops[1].kind == OPK_REG || in->ops[1].kind == OPK_IMM);
    return in->op == PO_LD && in->ops[0].kind == OPK_REG && in->ops[1].kind == OPK_ADDR &&
           (in->ops[1].reg[0] >= 0 || in->ops[1].sym >= 0);
}

static const struct smem_ptx_operand *addr_of(const struct smem_ptx_insn *in)
{
    return in->op == PO_ST ? &in->ops[0] : &in->ops[1];
}

/* The offset an access's address has from its base: the immediate from a base register, or
 * the window offset itself from a symbol (base -1: the window, whose start is aligned). */
static int64_t offset_of(const struct smem_ptx_insn *in, const uint32_t *sym_offset)
{
    const struct smem_ptx_operand *a = addr_of(in);
    return a->imm + (a->reg[0] < 0 && a->sym >= 0 ? (int64_t)sym_offset[a->sym] : 0);
}

/* Instructions ptxas compiles to a call of a slow-path subroutine (FCHK or a range check, a
 * branch, CALL.REL.NOINC): IEEE-rounded f32 / f64 division, square root and reciprocal, and
 * 64-bit integer division and remainder. The loads around them are not merged: measured on the
 * H100 (tests/run/merge_calls.cu, tests/run/h100-merge-calls.csv: 4 neighbouring LDS a loop iteration stay 4 with any of
 * these, become one LDS.128 with a multiplication, div.approx, 32-bit div/rem or ex2). */
static int becomes_call(const struct smem_ptx_insn *in)
{
    int fp = in->type == PT_F32 || in->type == PT_F64;
    int rounded = in->round != RND_NONE && !(in->mods & SMEM_MOD_APPROX);
    switch (in->op) {
    case PO_DIV:
        if (fp)
            return rounded || (in->type == PT_F64 && !(in->mods & SMEM_MOD_APPROX));
        return smem_ptx_type_bytes(in->type) == 8;
    case PO_REM:
        return smem_ptx_type_bytes(in->type) == 8;
    case PO_SQRT: case PO_RCP:
        return fp && rounded;
    default:
        return 0;
    }
}

/* Ends the window of neighbours: control flow, barriers, anything that writes shared memory
 * (for stores: anything that reads it too), and what becomes a call in SASS. */
static int ends_window(const struct smem_ptx_insn *in, int stores)
{
    if (becomes_call(in))
        return 1;
    if (stores && in->space == SP_SHARED && (in->op == PO_LD || in->op == PO_LDU))
        return 1;
    if (stores && in->op == PO_ST)
        return in->space == SP_GENERIC;
    switch (in->op) {
    case PO_BRA: case PO_RET: case PO_EXIT: case PO_CALL: case PO_BAR: case PO_BAR_RED:
    case PO_BAR_ARRIVE: case PO_BAR_WARP: case PO_MEMBAR: case PO_ATOM: case PO_RED:
    case PO_CP_ASYNC: case PO_SHFL: case PO_VOTE: case PO_TRAP:
        return 1;
    case PO_ST:
        return in->space == SP_SHARED || in->space == SP_GENERIC;
    default:
        return 0;
    }
}

static void merge_kind(const struct smem_ptx_func *f, const unsigned *tz, const uint8_t *target,
                       uint32_t *win, struct smem_sass_merge *merge, int stores,
                       const uint32_t *sym_offset);

int smem_sass_merge_loads(const struct smem_ptx_func *f, const uint32_t *sym_offset,
                          struct smem_sass_merge *merge)
{
    for (uint32_t k = 0; k < f->ninsns; k++) {
        merge[k].leader = -1;
        merge[k].width = 0;
        merge[k].offset = 0;
    }
    unsigned *tz = malloc((f->nregs ? f->nregs : 1) * sizeof *tz);
    uint8_t *target = smem_sass_ptx_targets(f);
    uint32_t *win = malloc((f->ninsns ? f->ninsns : 1) * sizeof *win);
    if (!tz || !target || !win) {
        free(tz);
        free(target);
        free(win);
        return -1;
    }
    /* trailing zeros of every register: the weakest over all its definitions (fixpoint) */
    for (uint32_t r = 0; r < f->nregs; r++)
        tz[r] = TZ_TOP;
    for (int changed = 1, rounds = 0; changed && rounds < 64; rounds++) {
        changed = 0;
        for (uint32_t k = 0; k < f->ninsns; k++) {
            const struct smem_ptx_insn *in = &f->insns[k];
            if (in->nops == 0)
                continue;
            const struct smem_ptx_operand *d = &in->ops[0];
            if (in->op == PO_ST || in->op == PO_RED || in->op == PO_BRA || in->op == PO_BAR)
                continue;
            unsigned v = d->kind == OPK_REG ? tz_result(in, tz, sym_offset) : 0;
            for (int r = 0; r < 4; r++) {
                int32_t reg = d->reg[r];
                if (reg < 0 || (uint32_t)reg >= f->nregs ||
                    !(d->kind == OPK_REG || d->kind == OPK_PAIR || d->kind == OPK_VEC))
                    continue;
                unsigned nv = d->kind == OPK_REG ? v : 0;
                if (nv < tz[reg]) {
                    tz[reg] = nv;
                    changed = 1;
                }
            }
        }
    }
    merge_kind(f, tz, target, win, merge, 0, sym_offset);
    merge_kind(f, tz, target, win, merge, 1, sym_offset);
    free(tz);
    free(target);
    free(win);
    return 0;
}

/* Windows of straight-line code; in each, group candidates by (base, guard, type) and merge
 * naturally aligned runs of 16, then 8 bytes. */
static void merge_kind(const struct smem_ptx_func *f, const unsigned *tz, const uint8_t *target,
                       uint32_t *win, struct smem_sass_merge *merge, int stores,
                       const uint32_t *sym_offset)
{
    uint32_t start = 0;
    while (start < f->ninsns) {
        uint32_t n = 0, end = start;
        for (; end < f->ninsns; end++) {
            if (end > start && target[end])
                break;
            const struct smem_ptx_insn *in = &f->insns[end];
            if (candidate(in, stores))
                win[n++] = end;
            if (ends_window(in, stores)) {
                end++;
                break;
            }
        }
        for (uint32_t i = 0; i < n; i++) {
            const struct smem_ptx_insn *a = &f->insns[win[i]];
            if (merge[win[i]].leader >= 0)
                continue;
            unsigned w = smem_ptx_type_bytes(a->type);
            int32_t base = addr_of(a)->reg[0];
            /* the members: same base (not rewritten in between), guard and type */
            uint32_t mem[16];
            int64_t off[16];
            unsigned nm = 0;
            for (uint32_t j = i; j < n && nm < 16; j++) {
                const struct smem_ptx_insn *b = &f->insns[win[j]];
                if (j > i && base >= 0) {
                    int rewritten = 0;
                    for (uint32_t q = win[i] + 1; q < win[j] && !rewritten; q++)
                        rewritten = writes_reg(&f->insns[q], base);
                    if (rewritten)
                        break;
                }
                if (merge[win[j]].leader >= 0 || addr_of(b)->reg[0] != base || b->guard != a->guard ||
                    b->guard_neg != a->guard_neg || smem_ptx_type_bytes(b->type) != w)
                    continue;
                mem[nm] = win[j];
                off[nm] = offset_of(b, sym_offset);
                nm++;
            }
            if (nm < 2)
                continue;
            unsigned btz = base >= 0 ? tz[base] : TZ_TOP;
            /* runs of 16 then 8 bytes, naturally aligned, every element present */
            for (unsigned size = 16; size >= 2 * w; size /= 2) {
                unsigned per = size / w;
                if (btz < (unsigned)__builtin_ctz(size))
                    continue;
                for (unsigned s = 0; s < nm; s++) {
                    if (merge[mem[s]].leader >= 0 || (off[s] % (int64_t)size) != 0)
                        continue;
                    uint32_t grp[4] = {0, 0, 0, 0};
                    unsigned got = 0;
                    for (unsigned e = 0; e < per; e++)
                        for (unsigned t = 0; t < nm; t++)
                            if (off[t] == off[s] + (int64_t)(e * w) && merge[mem[t]].leader < 0) {
                                grp[got++] = mem[t];
                                break;
                            }
                    if (got != per)
                        continue;
                    uint32_t lead = grp[0];
                    for (unsigned e = 1; e < per; e++)
                        if (grp[e] < lead)
                            lead = grp[e];
                    for (unsigned e = 0; e < per; e++)
                        merge[grp[e]].leader = (int32_t)lead;
                    merge[lead].width = (uint8_t)size;
                    merge[lead].offset = (int32_t)(off[s] - offset_of(&f->insns[lead], sym_offset));
                }
            }
        }
        start = end > start ? end : start + 1;
    }
}

/* The line an instruction is written on (the innermost of inlined code), as the cubin's line
 * table has it. */
void smem_sass_ptx_line(const struct smem_ptx_module *m, const struct smem_ptx_insn *in,
                        const char **path, uint32_t *line)
{
    uint32_t file = in->loc_file, ln = in->loc_line;
    if (in->chain < m->nframes) {
        file = m->frames[in->chain].file;
        ln = m->frames[in->chain].line;
    }
    *path = file < m->nfiles ? m->files[file] : NULL;
    *line = ln;
}

/* What ptxas may not move a shared load across. */
int smem_sass_ptx_clobbers(const struct smem_ptx_insn *in)
{
    if (in->op == PO_ST)
        return in->space == SP_SHARED || in->space == SP_GENERIC;
    return smem_op_orders_loads(in->op); /* the opcode table's OPF_ORDERS */
}
