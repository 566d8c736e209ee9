/* decode.c: one sm_90 instruction, decoded as far as shared memory needs. Every field below was
 * learnt from the H100's disassembly (cuobjdump -sass, CUDA 13.0, 2026-11-24) of 164,240
 * instructions: our kernels' and tests' cubins and cuda-samples' (tests/sass/README.md). The
 * 128-bit word is two little-endian 64-bit halves, lo then hi:
 *   lo[0:12)   opcode (178 distinct values seen, each always the same mnemonic)
 *   lo[12:15)  guard predicate P0..P6, 7 = PT (none); lo[15] negates it (@!P0)
 *   hi[9:12)   (bits 73..75) LDS / STS / LDGSTS access size: 0 .U8, 1 .S8, 2 .U16, 3 .S16,
 *              4 32-bit, 5 .64, 6 .128; ATOMS.CAST.SPIN: 0 32-bit, 2 .64
 *   LDS        [Ra + URb + imm]: lo[24:32) Ra (255 RZ), lo[32:38) URb, hi[27] URb used, lo[40:64)
 *              imm, signed (tests/sass/fixed.golden.tsv)
 *   BRA        target = pc + 16 + 1024 * sext48(hi[0:18) : lo[34:64)) + 4 * lo[16:24): all 10,278
 *              branches of the second listing (2026-11-24 13:35 UTC, tests/sass/README.md), BRA.DIV
 *              and BRA.U too, whose lo[32:34) is not zero (2, 1: it is not part of the offset; the
 *              first reading, 256 * sext50(hi[0:18) : lo[32:64)), put those 512 or 256 bytes
 *              too far) */
#include "smemlab/sass/sass.h"

/* every opcode the listings hold (their low 12 bits), sorted: what is not here is UNKNOWN. The
 * first run's 178, and 34 more from a second (the same H100, 2026-11-24 07:58 UTC: cuobjdump -sass
 * of the 110 programs of bench/programs' batches, 197 opcodes, each one mnemonic:
 * tests/sass/h100-opcodes.tsv). Left unknown on purpose: 0x9a2 (ATOM, a generic atomic that may
 * reach shared memory) and 0x9b1 (SYNCS, mbarrier operations on shared memory). A third (2026-11-24
 * 15:32 UTC, CUB's programs and 150 cubins of our own) named 12 more, 0x38c (ATOMS.ADD,
 * ATOMS.EXCH.64) among them, and two more left unknown on purpose: 0x38b (ATOM.E.CAS, generic) and
 * 0x344 (CALL.REL.NOINC through a register: a callee nobody can see). A fourth (the H200, driver
 * 580.159.04, 2026-11-29: siboehm/SGEMM_CUDA's warptiling and autotuned kernels) named 0xe25
 * (IMAD.WIDE.U32 R, R, R, UR: 0x225 with a uniform addend), and Triton's cubins 0xe23 (FFMA R, R,
 * R, UR) and 0x81a (SGXT); left unknown on purpose there: 0x9c5 (WARPGROUP.ARRIVE / DEPBAR) and
 * 0x9f0 (HGMMA, which reads shared memory through a descriptor: the census does not compare it
 * yet). A fifth (the H200, driver 580.159.04, 2026-11-29: Rodinia's pathfinder and srad_v2, issue
 * 33) named 0x20f (VIMNMX3 R, R, R, R, P: a three-way integer min / max) and 0xd10 (F2F.F64.F32
 * R, UR: 0x310 with a uniform source). */
static const uint16_t known[] = {
    0x202, 0x207, 0x208, 0x209, 0x20a, 0x20b, 0x20c, 0x20f, 0x210, 0x211, 0x212, 0x213, 0x215, 0x216,
    0x219, 0x21b, 0x220, 0x221, 0x223, 0x224, 0x225, 0x226, 0x227, 0x228, 0x229, 0x22a, 0x22b,
    0x230, 0x231, 0x235, 0x237, 0x23a, 0x23c, 0x23d, 0x23e, 0x23f, 0x245, 0x246, 0x248, 0x287,
    0x28c, 0x290, 0x291, 0x292, 0x299, 0x2a4, 0x2a5, 0x2bd, 0x2be, 0x2bf, 0x2ca, 0x300, 0x301,
    0x302, 0x304, 0x305, 0x306, 0x307, 0x308, 0x309, 0x310, 0x311, 0x312, 0x313, 0x31c, 0x31d,
    0x343, 0x348, 0x355, 0x356, 0x35d, 0x387, 0x388, 0x389, 0x38c, 0x38d, 0x3a1, 0x3a9, 0x3aa,
    0x3ba, 0x3c4, 0x3c6, 0x419, 0x421, 0x423, 0x424, 0x429, 0x42a, 0x42b, 0x430, 0x435, 0x446,
    0x4a4, 0x589, 0x5a7, 0x5ab, 0x5b2, 0x802, 0x803, 0x804, 0x805, 0x806, 0x807, 0x808, 0x809,
    0x80b, 0x80c, 0x810, 0x811, 0x812, 0x816, 0x819, 0x81a, 0x81b, 0x81c, 0x820, 0x823, 0x824,
    0x825, 0x827, 0x828, 0x82b, 0x82e, 0x82f, 0x835, 0x836, 0x83b, 0x83e, 0x844, 0x845, 0x846,
    0x848, 0x882, 0x886, 0x887, 0x88c, 0x890, 0x891, 0x892, 0x896, 0x899, 0x89a, 0x89b, 0x8a4,
    0x8a5, 0x906, 0x908, 0x918, 0x919, 0x91a, 0x91b, 0x941, 0x942, 0x944, 0x945, 0x946, 0x947,
    0x948, 0x949, 0x94d, 0x94e, 0x950, 0x95c, 0x95d, 0x980, 0x981, 0x983, 0x984, 0x985, 0x986,
    0x988, 0x989, 0x98a, 0x98c, 0x98e, 0x98f, 0x992, 0x9a6, 0x9a7, 0x9a8, 0x9ab, 0x9af, 0x9b0,
    0x9b7, 0x9c3, 0xab9, 0xb1d, 0xb82, 0xc02, 0xc07, 0xc08, 0xc09, 0xc0c, 0xc10, 0xc11, 0xc12,
    0xc19, 0xc20, 0xc23, 0xc24, 0xc25, 0xc27, 0xc28, 0xc2b, 0xc36, 0xc45, 0xc46, 0xc48, 0xc82,
    0xd00, 0xd06, 0xd08, 0xd09, 0xd10, 0xd12, 0xe21, 0xe23, 0xe24, 0xe25, 0xe29, 0xe2a, 0xe2b, 0xe46,
    0xf60, 0xf66, 0xf89, 0xf8c, 0xf9d, 0xfae,
};

static int is_known(uint16_t op)
{
    size_t lo = 0, hi = sizeof known / sizeof known[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (known[mid] == op)
            return 1;
        if (known[mid] < op)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

static unsigned classify(uint16_t op)
{
    switch (op) {
    case 0x984: return SMEM_SASS_LDS;
    case 0x388: case 0x988: return SMEM_SASS_STS;
    case 0x38c: case 0x38d: case 0x98c: case 0xf8c: return SMEM_SASS_ATOMS;
    case 0x83b: return SMEM_SASS_LDSM;
    case 0x844: return SMEM_SASS_STSM;
    case 0xfae: return SMEM_SASS_LDGSTS;
    case 0xb1d: case 0x31d: return SMEM_SASS_BAR; /* 0x31d: BAR.SYNC with a register operand */
    case 0x947: return SMEM_SASS_BRA;
    case 0x94d: return SMEM_SASS_EXIT;
    default: return is_known(op) ? SMEM_SASS_OTHER : SMEM_SASS_UNKNOWN;
    }
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

void smem_sass_decode(const uint8_t enc[16], uint32_t offset, struct smem_sass_insn *out)
{
    uint64_t lo = le64(enc), hi = le64(enc + 8);
    uint16_t op = (uint16_t)(lo & 0xfff);
    out->offset = offset;
    out->opcode = op;
    out->cls = (uint8_t)classify(op);
    out->guard = (uint8_t)(lo >> 12 & 7);
    out->guard_neg = (uint8_t)(lo >> 15 & 1);
    out->width = 0;
    out->target = -1;
    out->file = UINT32_MAX;
    out->line = 0;
    out->ra = out->ur = out->ur_used = out->ra_fixed = 0;
    out->imm = 0;
    out->lo = lo;
    out->hi = hi;
    unsigned size = (unsigned)(hi >> 9 & 7);
    switch (out->cls) {
    case SMEM_SASS_LDS: case SMEM_SASS_STS: case SMEM_SASS_LDGSTS: {
        static const uint8_t bytes[8] = {1, 1, 2, 2, 4, 8, 16, 0};
        out->width = bytes[size];
        if (op == 0x984) {
            out->ra = (uint8_t)(lo >> 24 & 0xff);
            out->ur = (uint8_t)(lo >> 32 & 0x3f);
            out->ur_used = (uint8_t)(hi >> 27 & 1);
            out->imm = (int32_t)((int64_t)lo >> 40);
        }
        break;
    }
    case SMEM_SASS_ATOMS:
        out->width = size < 2 ? 4 : size < 4 ? 8 : 0;
        break;
    case SMEM_SASS_BRA: {
        uint64_t v = (hi & 0x3ffffu) << 30 | lo >> 34; /* 48 bits, signed; lo[32:34) is not in it */
        int64_t s = (int64_t)(v << 16) >> 16;
        out->target = (int64_t)offset + 16 + s * 1024 + (int64_t)((lo >> 16 & 0xff) * 4);
        break;
    }
    default:
        break;
    }
}

const char *smem_sass_class_name(unsigned cls)
{
    static const char *const names[SMEM_SASS_NCLASSES] = {
        "other", "LDS", "STS", "ATOMS", "LDSM", "STSM", "LDGSTS", "BAR", "BRA", "EXIT", "unknown"};
    return cls < SMEM_SASS_NCLASSES ? names[cls] : "unknown";
}
