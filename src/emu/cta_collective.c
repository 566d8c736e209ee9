/* cta_collective.c: the warp collectives (shfl, vote, activemask, match, redux, bar.warp.sync,
 * elect.sync):
 * the lanes `lanes` of a warp exchange their operands, each lane's view through the per-thread
 * register row (emu_lane_in / emu_lane_out). */
#include "families.h"
#include "lanes.h"

int emu_exec_collective(struct block *b, uint32_t warp, uint32_t pc, uint32_t lanes)
{
    const struct smem_ptx_insn *in = &b->p->func->insns[pc];
    uint32_t base = warp * 32;
    uint64_t val[32];
    int vk[32];
    uint32_t nl = 0;
    for (uint32_t l = 0; l < 32; l++)
        if (lanes >> l & 1u)
            nl++;
    (void)nl;
    if (in->op == PO_ELECT) {
        /* elect.sync d|p, membermask: the lowest lane of the mask that executes it leads; d its
           lane id in every lane, p true in it alone */
        int k = 1;
        uint64_t m = emu_lane_val(b, warp, (uint32_t)__builtin_ctz(lanes), &in->ops[1], &k);
        if (!k) {
            emu_stop_unknown(b, pc, "elect.sync member mask");
            return 0;
        }
        uint32_t cand = lanes & (uint32_t)m;
        uint32_t lead = cand ? (uint32_t)__builtin_ctz(cand) : 32;
        const struct smem_ptx_operand *d = &in->ops[0];
        for (uint32_t l = 0; l < 32; l++) {
            if (!(lanes >> l & 1u))
                continue;
            if (d->kind == OPK_REG || d->kind == OPK_PAIR)
                emu_lane_set(b, warp, l, d->reg[0], lead & 31u, cand != 0);
            if (d->kind == OPK_PAIR)
                emu_lane_set(b, warp, l, d->reg[1], l == lead, 1);
        }
        return 0;
    }
    if (in->op == PO_SHFL) {
        /* shfl.sync.mode.b32 d[|p], a, b, c, membermask */
        for (uint32_t l = 0; l < 32; l++) {
            if (!(lanes >> l & 1u))
                continue;
            uint32_t tid = base + l;
            uint64_t *R = b->sr;
            uint8_t *K = b->sk;
            emu_lane_in(b, warp, l, in);
            int k = 1;
            val[l] = op_src(b, tid, R, K, &in->ops[1], &k);
            vk[l] = k;
        }
        for (uint32_t l = 0; l < 32; l++) {
            if (!(lanes >> l & 1u))
                continue;
            uint32_t tid = base + l;
            uint64_t *R = b->sr;
            uint8_t *K = b->sk;
            emu_lane_in(b, warp, l, in);
            int k = 1;
            uint32_t bb = (uint32_t)op_src(b, tid, R, K, &in->ops[2], &k);
            uint32_t cc = (uint32_t)op_src(b, tid, R, K, &in->ops[3], &k);
            if (!k) {
                emu_stop_unknown(b, pc, "shuffle lane");
                return 0;
            }
            /* the PTX ISA's pseudo-code: b[4:0], c[4:0] the clamp, c[12:8] the segment mask */
            int32_t segmask = (int32_t)((cc >> 8) & 0x1f), clamp = (int32_t)(cc & 0x1f);
            int32_t bval = (int32_t)(bb & 0x1f), lane_ = (int32_t)l;
            int32_t maxl = (lane_ & segmask) | (clamp & ~segmask), minl = lane_ & segmask, jj;
            int ok;
            switch (in->mode) {
            case MODE_UP: jj = lane_ - bval; ok = jj >= maxl; break;
            case MODE_DOWN: jj = lane_ + bval; ok = jj <= maxl; break;
            case MODE_BFLY: jj = lane_ ^ bval; ok = jj <= maxl; break;
            default: jj = minl | (bval & ~segmask); ok = jj <= maxl; break;
            }
            uint32_t j = ok ? (uint32_t)jj : l;
            if (j > 31)
                j = l;
            uint64_t v = val[j];
            int known = (lanes >> j & 1u) ? vk[j] : 0; /* a source lane not there: undefined */
            op_dst(R, K, in->ops[0].reg[0], v, known, 4);
            if (in->ops[0].kind == OPK_PAIR && in->ops[0].reg[1] >= 0)
                op_dst(R, K, in->ops[0].reg[1], ok ? 1 : 0, 1, 1);
            emu_lane_out(b, warp, l, in);
        }
    } else if (in->op == PO_VOTE || in->op == PO_ACTIVEMASK || in->op == PO_MATCH ||
               in->op == PO_REDUX) {
        uint32_t ballot = 0;
        int allk = 1;
        for (uint32_t l = 0; l < 32; l++) {
            if (!(lanes >> l & 1u))
                continue;
            uint32_t tid = base + l;
            uint64_t *R = b->sr;
            uint8_t *K = b->sk;
            emu_lane_in(b, warp, l, in);
            int k = 1;
            val[l] = in->nops > 1 ? op_src(b, tid, R, K, &in->ops[1], &k) : 0;
            if (in->op == PO_VOTE && in->ops[1].neg)
                val[l] = !val[l];
            vk[l] = k;
            allk = allk && k;
            if (val[l] && in->op == PO_VOTE)
                ballot |= 1u << l;
        }
        for (uint32_t l = 0; l < 32; l++) {
            if (!(lanes >> l & 1u))
                continue;
            uint64_t *R = b->sr;
            uint8_t *K = b->sk;
            emu_lane_in(b, warp, l, in);
            uint64_t r = 0;
            int known = allk;
            if (in->op == PO_ACTIVEMASK) {
                r = lanes;
                known = 1;
            } else if (in->op == PO_VOTE) {
                switch (in->mode) {
                case MODE_ALL: r = ballot == lanes; break;
                case MODE_ANY: r = ballot != 0; break;
                case MODE_UNI: r = ballot == 0 || ballot == lanes; break;
                default: r = ballot; break;
                }
            } else if (in->op == PO_MATCH) {
                uint32_t same = 0;
                for (uint32_t j = 0; j < 32; j++)
                    if ((lanes >> j & 1u) && val[j] == val[l])
                        same |= 1u << j;
                r = in->mode == MODE_ALL ? (same == lanes ? lanes : 0) : same;
                if (in->mode == MODE_ALL && in->ops[0].kind == OPK_PAIR && in->ops[0].reg[1] >= 0)
                    op_dst(R, K, in->ops[0].reg[1], same == lanes, known, 1); /* match.all d|p */
            } else { /* redux.sync.op */
                uint64_t acc = in->mode == MODE_ATOM_AND ? ~0ull
                               : in->mode == MODE_ATOM_MIN ? ~0ull >> (is_signed(in->type) ? 33 : 32)
                                                           : 0;
                int first = 1;
                for (uint32_t j = 0; j < 32; j++) {
                    if (!(lanes >> j & 1u))
                        continue;
                    uint64_t v = val[j] & 0xffffffffu;
                    int64_t sv = (int32_t)v;
                    switch (in->mode) {
                    case MODE_ATOM_ADD: acc += v; break;
                    case MODE_ATOM_AND: acc &= v; break;
                    case MODE_ATOM_OR: acc |= v; break;
                    case MODE_ATOM_XOR: acc ^= v; break;
                    case MODE_ATOM_MIN:
                        if (first || (is_signed(in->type) ? sv < (int32_t)acc : v < (acc & 0xffffffffu))) acc = v;
                        break;
                    case MODE_ATOM_MAX:
                        if (first || (is_signed(in->type) ? sv > (int32_t)acc : v > (acc & 0xffffffffu))) acc = v;
                        break;
                    default: break;
                    }
                    first = 0;
                }
                r = acc;
            }
            op_dst(R, K, in->ops[0].reg[0], r, known, 4);
            emu_lane_out(b, warp, l, in);
        }
    }
    /* __syncwarp advances the lanes' warp-level epoch (the caller moves them on) */
    if (in->op == PO_BAR_WARP)
        for (uint32_t l = 0; l < 32; l++)
            if (lanes >> l & 1u)
                b->T[base + l].wsync++;
    return 0;
}
