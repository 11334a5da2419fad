/* sass_macros.h — what sass_markers.c takes from sass_macros.c: the
 * kernel source's macros and its small integer expressions. Internal to
 * harness/model (sass.h is the public face). */
#ifndef DH_SASS_MACROS_H
#define DH_SASS_MACROS_H

#include <stddef.h>

/* one #define: object-like (n_params -1) or function-like */
struct macro {
    char name[64];
    char params[8][32];
    int n_params;                 /* -1: object-like */
    char *body;
};
struct macros {
    struct macro *v;
    int n, cap;
};

/* frees the table's bodies and array (the struct itself is the caller's) */
void dh__macros_free(struct macros *ms);
/* the latest definition of name[0..len), or NULL */
struct macro *dh__macro_find(const struct macros *ms, const char *name, size_t len);
/* appends a definition (name cut at 63 characters, up to 8 params);
 * 0, or -1 when out of memory */
int dh__macro_add(struct macros *ms, const char *name, size_t nlen, int n_params,
                  char params[][32], const char *body);
/* text as an integer expression: + - * / % ( ) unary -, numbers and
 * object-like macros (depth: macro nesting so far). 0 and *out, or -1
 * when it does not evaluate (overflow, division by zero, too deep) */
int dh__eval_text(const char *text, const struct macros *ms, int depth, long *out);
/* The arguments of a call whose '(' is at *p: up to 8, each copied
 * into args[i]; *p moves past the ')'. The count, or -1. */
int dh__split_args(const char **p, char args[][256]);
/* text with m's whole-word params replaced by args, into out[len] */
void dh__substitute(const char *text, const struct macro *m, char args[][256], int n_args,
                    char *out, size_t len);

#endif
