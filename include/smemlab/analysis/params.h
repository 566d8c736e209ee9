/* params.h: kernel parameters by the names the compiler saw, and --param values checked against
 * their types. Names come from nvcc's preprocessed device source (its .cpp1.ii: macros expanded,
 * headers inlined, templates as written), each __global__ declaration matched to its PTX entry by
 * qualified name, parameter count and the types of the demangled signature (the instantiation, for
 * templates). Types come from the demangled signature, else the declaration (typedefs resolved
 * through the preprocessed text), else the PTX. Pure: no I/O, no subprocess. */
#ifndef SMEMLAB_PARAMS_H
#define SMEMLAB_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "smemlab/base/error.h"
#include "smemlab/emu/cta.h"
#include "smemlab/ptx/ptx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One --param NAME=VALUE. */
struct smem_param_arg {
    const char *name;       /* source name, PTX name or position (decimal) */
    const char *value;      /* integer (decimal or 0x hex, negative), floating point, true/false */
};

enum smem_param_kind {
    SMEM_PARAM_INT,         /* integers and enums */
    SMEM_PARAM_BOOL,
    SMEM_PARAM_FLOAT,       /* float, double */
    SMEM_PARAM_POINTER,     /* the analysis gives each its own address: no --param */
    SMEM_PARAM_AGGREGATE    /* a struct, vector or array by value: no --param */
};

struct smem_kparam {
    char name[64];          /* source name ("rest[1]" for the 2nd of a pack); "" if unnamed/unknown */
    char type[96];          /* as the compiler spelled it: demangled, else declared, else ".u32" */
    uint8_t kind;           /* enum smem_param_kind */
    uint8_t bytes;          /* width of a scalar */
    int8_t is_signed;       /* integers: 1 signed, 0 unsigned, -1 not known (PTX alone, enums) */
    uint8_t type_known;     /* kind comes from the C type (demangled or declared), not the PTX */
    const char *ptx_name;   /* the PTX parameter (borrowed from the function) */
    uint64_t size;          /* bytes in the parameter buffer */
};

/* A kernel's parameters, one per PTX parameter, in order. */
struct smem_ksig {
    char name[256];         /* demangled, without its parameter list ("reduce4<int, 256u>") */
    struct smem_kparam *params;
    unsigned nparams;
    int named;              /* the names come from the source */
    char why_unnamed[200];  /* when not named: why ("no .cu source", "2 overloads could be ...") */
    char file[256];         /* the declaration named (a line marker of the preprocessed text) */
    unsigned line;
};

/* Every __global__ declaration of a preprocessed translation unit, and its simple typedefs. */
struct smem_pp_unit;

/* Scans preprocessed C++ (need not be NUL-terminated). NULL only when out of memory. */
struct smem_pp_unit *smem_pp_scan(const char *text, size_t len);
void smem_pp_unit_free(struct smem_pp_unit *u);
/* How many __global__ declarations the scan found. */
unsigned smem_pp_unit_kernels(const struct smem_pp_unit *u);
/* A template kernel's definition ("template <int BM, int BN> __global__ void k(...) {...}"). */
struct smem_pp_template {
    const char *qual;       /* "ns::k" */
    const char *tparams;    /* "int BM, int BN" */
    const char *file;       /* the line marker's file, or NULL */
    unsigned line;
};
/* Declaration i (< smem_pp_unit_kernels) when it defines a template kernel: 1 and *out (borrowed
 * from u); 0 for any other. */
int smem_pp_unit_template(const struct smem_pp_unit *u, unsigned i, struct smem_pp_template *out);

/* The parameters of PTX entry f, demangled as `demangled` ("void k<int>(int const*, int)"; the
 * symbol itself for extern "C"), named from u (NULL: no source; names stay ""). 0, or -1 when
 * out of memory. Free with smem_ksig_free. */
int smem_ksig_build(const struct smem_pp_unit *u, const struct smem_ptx_func *f,
                    const char *demangled, struct smem_ksig *out);
void smem_ksig_free(struct smem_ksig *s);
/* "tile_col_plain(unsigned char* out, int p)", truncated with "..." to fit. */
const char *smem_ksig_format(const struct smem_ksig *s, char *buf, size_t size);
/* The parameter's name for messages: its source name, else its PTX name. */
const char *smem_kparam_label(const struct smem_kparam *p);

/* VALUE for parameter p: 0 with the parameter's bits (little-endian in the low bytes), or -1 with
 * why ("300 does not fit unsigned char (0..255)"). */
int smem_kparam_value(const struct smem_kparam *p, const char *value, uint64_t *bits, char *why,
                      size_t why_size);

/* Binds args to the kernels of one analysis: an arg applies to every kernel with a parameter of
 * that source name, PTX name or position; one that applies to none, a value that does not fit,
 * a pointer or aggregate parameter, or two args for one parameter is an error (err, located at
 * source or the kernel's declaration; the caller reports it as a usage error). pv[k] has room
 * for sigs[k].nparams values (zeroed by the caller). */
int smem_params_bind(const struct smem_ksig *sigs, unsigned nk, const struct smem_param_arg *args,
                     unsigned nargs, struct smem_param_value *const *pv, const char *source,
                     struct smem_error *err);

#ifdef __cplusplus
}
#endif
#endif
