/* lex.h: tokens of C, C++ and CUDA source, one at a time: identifiers, pp-numbers (digit
 * separators, exponent signs), string and character literals (encoding prefixes, raw strings),
 * punctuators; comments and line splices skipped, each token with its line and column.
 * Preprocessor lines are skipped, or read as tokens marked as theirs; line markers of
 * preprocessed text (`# 12 "file"`, `#line 12 "file"`) can set the line and file. */
#ifndef SMEMLAB_LEX_H
#define SMEMLAB_LEX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum smem_tok_kind {
    SMEM_TOK_EOF,
    SMEM_TOK_IDENT,
    SMEM_TOK_NUMBER,
    SMEM_TOK_STRING,    /* a string or character literal with its prefix ("C", u8'x', R"(..)") */
    SMEM_TOK_PUNCT,
    SMEM_TOK_DIRECTIVE  /* SMEM_LEX_DIRECTIVES: the name after a line's '#' ("define"; "" none) */
};

enum smem_lex_flags {
    SMEM_LEX_LINE_MARKERS = 1, /* `# N "file"` and `#line N "file"` set line and file */
    SMEM_LEX_DIRECTIVES = 2,   /* other preprocessor lines are read (else skipped) */
    SMEM_LEX_SPLIT_PUNCT = 4   /* punctuators of one byte each but "::" and "...": for readers
                                  that pair template brackets themselves (">>" closes two) */
};

struct smem_token {
    const char *s;      /* the token's bytes in the text */
    size_t n;
    unsigned line, col; /* 1-based; col counts bytes from the line's start */
    uint8_t kind;       /* enum smem_tok_kind */
    uint8_t directive;  /* on a preprocessor line (SMEM_LEX_DIRECTIVES) */
};

/* A lexer's state; copy it to look ahead. */
struct smem_lexer {
    const char *text;
    size_t len, pos;
    unsigned line;
    size_t line_start;
    unsigned flags;
    uint8_t bol;        /* only blanks and comments since the line began */
    uint8_t directive;  /* inside a preprocessor line */
    const char *file;   /* the last line marker's file (file_len bytes, not NUL-terminated) */
    size_t file_len;
};

/* Starts reading text[0, len) (need not be NUL-terminated) at line 1. */
void smem_lex_init(struct smem_lexer *L, const char *text, size_t len, unsigned flags);

/* The next token; SMEM_TOK_EOF (n 0) at the end. */
struct smem_token smem_lex_next(struct smem_lexer *L);

/* Skips the rest of the current logical line (a preprocessor line the reader does not want). */
void smem_lex_skip_line(struct smem_lexer *L);

/* Whether t is the text s. */
int smem_tok_is(const struct smem_token *t, const char *s);

#ifdef __cplusplus
}
#endif
#endif
