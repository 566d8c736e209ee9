/* decl.h: `__shared__` array declarations read from CUDA source text (name, element type, each
 * dimension as written and as a number), the integer constants they use (#define, constexpr,
 * enum, -D), and the one edit advise makes to them: a row padded by P elements. */
#ifndef SMEMLAB_DECL_H
#define SMEMLAB_DECL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SMEM_DECL_MAX_DIMS 4

struct smem_decl {
    char name[128];
    char type[128];          /* element type as written, qualifiers dropped ("unsigned int") */
    char func[128];          /* function whose body holds it ("" at file scope) */
    char tparams[256];       /* that function's template parameter names, comma-separated */
    int is_extern;
    unsigned ndims;          /* 0 for a scalar */
    char dim_text[SMEM_DECL_MAX_DIMS][128]; /* each dimension's expression, trimmed ("" for []) */
    int64_t dim[SMEM_DECL_MAX_DIMS];        /* its value, -1 when it cannot be evaluated */
    unsigned line, col;      /* of the name, 1-based */
    size_t stmt_start, stmt_end;   /* the statement: from `__shared__` (or before it) to ';' incl. */
    size_t last_start, last_end;   /* the last dimension's expression inside its brackets */
};

/* Integer constants a file defines: object-like #define, constexpr/const integers, enumerators,
 * plus -D NAME[=VALUE] from the command line (which win). */
struct smem_consts;

/* Scans text for constants; defines are compiler arguments ("-DX=1", or "-D" then "X=1"; others
 * ignored). NULL when out of memory. */
struct smem_consts *smem_consts_scan(const char *text, size_t len, const char *const *args,
                                     unsigned nargs);
void smem_consts_free(struct smem_consts *c);

/* Adds NAME = VALUE (an expression) unless NAME is already defined; 0, or -1 when out of memory. */
int smem_consts_define(struct smem_consts *c, const char *name, const char *value);

/* Evaluates an integer constant expression (C operators, parentheses, ?:, sizeof of basic types,
 * integer suffixes) with c's constants (c may be NULL). 0 and *v, or -1 when it cannot. */
int smem_const_eval(const struct smem_consts *c, const char *expr, int64_t *v);

/* Every `__shared__` declarator in text, in order (comments, strings and `#if 0` are not read
 * specially: a declaration in an inactive branch is listed too). consts may be NULL. Returns the
 * count (0 also when out of memory, *out NULL). */
unsigned smem_decl_scan(const char *text, size_t len, const struct smem_consts *consts,
                        struct smem_decl **out);

/* The byte size of a basic CUDA element type ("float", "unsigned short", "__half", "float4",
 * "double2", any pointer), 0 when unknown (a struct). */
unsigned smem_type_bytes(const char *type);

/* The last dimension's text with pad added: "BDIMX" -> "BDIMX + 2", "32" -> "34",
 * "TILE + 1" -> "TILE + 3", "A << 2" -> "(A << 2) + 1". */
void smem_decl_pad_text(const struct smem_decl *d, unsigned pad, char *buf, size_t size);

/* A copy of text (malloc'd, NUL-terminated, *outlen) with each decls[i]'s last dimension padded
 * by pads[i] elements (0 = unchanged). Declarations must come from scanning this same text.
 * NULL when out of memory. */
char *smem_decl_patch(const char *text, size_t len, const struct smem_decl *const *decls,
                      const unsigned *pads, unsigned n, size_t *outlen);

/* The declaration statement with d padded by pad, on one line ("__shared__ int tile[BDIMY]
 * [BDIMX + 2];"): what advise tells the user to write. */
void smem_decl_statement(const char *text, const struct smem_decl *d, unsigned pad, char *buf,
                         size_t size);

/* The source name of a shared variable from its PTX name: a demoted static's mangling
 * "_ZZ13setRowReadColPiE4tile" gives "tile" (and func "setRowReadCol" when func is not NULL);
 * a plain name is itself. */
void smem_decl_source_name(const char *ptx_name, char *name, size_t size, char *func,
                           size_t fsize);

#ifdef __cplusplus
}
#endif
#endif
