/* opcodes.c: the opcode and type tables (include/smemlab/ptx/opcodes.def, types.def) as the
 * library asks them: each opcode's row, mnemonic and flags; the parser's name lookups; each
 * type's name and width. */
#include "opcodes.h"

#include <string.h>

const struct smem_ptx_opinfo smem_ptx_ops[256] = {
#define OP(id, mnemonic, cls, min_ops, mem_op, flags, fast32, lane, warp) \
    [PO_##id] = {mnemonic, (flags), OPC_##cls, (min_ops), (mem_op)},
#include "smemlab/ptx/opcodes.def"
#undef OP
};

const char *smem_ptx_op_name(unsigned op)
{
    return op < PO_COUNT ? smem_ptx_ops[op].name : "?";
}

static const struct {
    const char *name;
    uint8_t op;
} op_aliases[] = {
#define ALIAS(mnemonic, id) {mnemonic, PO_##id},
#define OP(id, mnemonic, cls, min_ops, mem_op, flags, fast32, lane, warp)
#include "smemlab/ptx/opcodes.def"
#undef OP
#undef ALIAS
};

uint8_t ptx_op_of(const char *word)
{
    for (unsigned op = 0; op < PO_COUNT; op++)
        if ((smem_ptx_ops[op].flags & OPF_NAME) && !strcmp(word, smem_ptx_ops[op].name))
            return (uint8_t)op;
    for (size_t i = 0; i < sizeof op_aliases / sizeof op_aliases[0]; i++)
        if (!strcmp(word, op_aliases[i].name))
            return op_aliases[i].op;
    return 0xff;
}

static const struct {
    const char *name;
    uint8_t bytes, where;
} types[PT_COUNT] = {
#define TYPE(id, name, bytes, where) [PT_##id] = {name, (bytes), (where)},
#include "smemlab/ptx/types.def"
#undef TYPE
};

uint8_t ptx_type_of(const char *name, unsigned where)
{
    for (unsigned t = 1; t < PT_COUNT; t++)
        if ((types[t].where & where) && !strcmp(name, types[t].name))
            return (uint8_t)t;
    return PT_NONE;
}

unsigned smem_ptx_type_bytes(enum smem_ptx_type t)
{
    return (unsigned)t < PT_COUNT ? types[t].bytes : 0;
}

const char *smem_ptx_type_name(unsigned t)
{
    return t < PT_COUNT ? types[t].name : "";
}
