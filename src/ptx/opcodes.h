/* opcodes.h (private to ptx/): the parser's lookups in the opcode and type tables
 * (include/smemlab/ptx/opcodes.def, types.def). */
#ifndef SMEMLAB_PTX_OPCODES_H
#define SMEMLAB_PTX_OPCODES_H

#include "smemlab/ptx/ptx.h"

/* Where a type name may stand (types.def, where). */
#define TYW_REG 0x1u /* a register's, a variable's or an instruction's type */
#define TYW_MAT 0x2u /* a matrix instruction's operand type */

/* the opcode an instruction's first word names (OPF_NAME rows and the aliases), 0xff none */
uint8_t ptx_op_of(const char *word);
/* the type a name is where it stands (TYW_*), PT_NONE none */
uint8_t ptx_type_of(const char *name, unsigned where);

#endif
