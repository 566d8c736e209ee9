/* signature.h: demangled C++ function names, as cu++filt and c++filt write them ("void
 * ns::reduce4<int, 256u>(int*, int*, unsigned int)"), read into their parts: the return type (only
 * templates demangle with one), the qualified name, the last name's template arguments and the
 * parameter list; and comma lists split at their top level. Nesting of <> () [] {} is followed,
 * operator names (operator<, operator(), operator<<) are not brackets, "(anonymous namespace)"
 * and "{lambda(int)#1}" are parts of names. The parts are spans of the caller's text. */
#ifndef SMEMLAB_SIGNATURE_H
#define SMEMLAB_SIGNATURE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes [off, off + len) of the text read. */
struct smem_span {
    size_t off, len;
};

struct smem_signature {
    struct smem_span ret;     /* "void"; empty when the name has none */
    struct smem_span name;    /* "ns::reduce4<int, 256u>": qualified, with template arguments */
    struct smem_span qual;    /* "ns::reduce4": name without the last name's template arguments */
    struct smem_span last;    /* "reduce4<int, 256u>": after the name's last top-level "::" */
    struct smem_span base;    /* "reduce4": last without its template arguments */
    struct smem_span targs;   /* "int, 256u": inside last's <> (has_targs) */
    struct smem_span params;  /* "int*, int*, unsigned int": inside the () (has_params) */
    int has_targs;
    int has_params;           /* 0: a name alone ("k<32>", an extern "C" symbol) */
};

/* Reads text[0, len) as a demangled function (or a name alone). 0; -1 when its brackets do not
 * balance, and then the whole text is the name (no return type, no parameters). */
int smem_signature_parse(const char *text, size_t len, struct smem_signature *out);

/* Splits the comma list text[list] at its top level into items[0..max) (each trimmed of blanks;
 * an empty list has no item, "a, " two). Returns the number of items, which may exceed max. */
unsigned smem_signature_split(const char *text, struct smem_span list, struct smem_span *items,
                              unsigned max);

/* The parameter types of a parsed signature into items[0..max) ("(void)" has none). Returns their
 * number (may exceed max), -1 when it has no parameter list. */
int smem_signature_params(const char *text, const struct smem_signature *s,
                          struct smem_span *items, unsigned max);

/* The name of a demangled function as reports show it, malloc'd ("void reduce4<int, 256u>(int*)"
 * -> "reduce4<int, 256u>"); NULL when out of memory. */
char *smem_signature_name(const char *demangled);

/* Removes every <...> group of a name in place, and the blanks outside them except after a ':'
 * ("ns::k<int, 2>" -> "ns::k", "(anonymous namespace)::k<T>" keeps its blank). */
void smem_signature_strip_targs(char *name);

#ifdef __cplusplus
}
#endif
#endif
