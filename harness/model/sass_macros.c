/* sass_macros.c — the kernel source's #define macros as sass_markers.c
 * reads them: the table of definitions, their expansion, and the small
 * integer expressions marker ids, counts and loop bounds are written in.
 * Source text is data: nothing here runs it. */
#include "sass_macros.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
void dh__macros_free(struct macros *ms)
{
    for (int i = 0; i < ms->n; i++)
        free(ms->v[i].body);
    free(ms->v);
}

struct macro *dh__macro_find(const struct macros *ms, const char *name, size_t len)
{
    for (int i = ms->n - 1; i >= 0; i--)       /* the latest definition */
        if (strlen(ms->v[i].name) == len && !strncmp(ms->v[i].name, name, len))
            return &ms->v[i];
    return NULL;
}

int dh__macro_add(struct macros *ms, const char *name, size_t nlen, int n_params,
                  char params[][32], const char *body)
{
    if (ms->n == ms->cap) {
        int cap = ms->cap ? 2 * ms->cap : 256;
        struct macro *v = realloc(ms->v, (size_t)cap * sizeof *v);
        if (!v)
            return -1;
        ms->v = v;
        ms->cap = cap;
    }
    struct macro *m = &ms->v[ms->n];
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%.*s", (int)(nlen < 63 ? nlen : 63), name);
    m->n_params = n_params;
    for (int i = 0; i < n_params && i < 8; i++)
        snprintf(m->params[i], sizeof m->params[i], "%s", params[i]);
    if (!(m->body = strdup(body)))
        return -1;
    ms->n++;
    return 0;
}

/* A small integer expression: + - * / % ( ) unary -, numbers, names
 * (object-like macros, evaluated in turn). 0 when it evaluates. */
struct ev {
    const char *p;
    const struct macros *ms;
    int depth;                    /* macro nesting */
    int nest;                     /* parentheses and unary minus */
    int bad;
};
static long ev_sum(struct ev *e);

static void ev_ws(struct ev *e)
{
    while (isspace((unsigned char)*e->p))
        e->p++;
}

/* `text` without the names of macros defined empty (DH_BBV_PASS in a
 * timed build) */
static void drop_empty_macros(const char *text, const struct macros *ms, char *out, size_t len)
{
    size_t o = 0;
    for (const char *p = text; *p && o + 1 < len;) {
        if (isalpha((unsigned char)*p) || *p == '_') {
            const char *s = p;
            while (isalnum((unsigned char)*p) || *p == '_')
                p++;
            const struct macro *m = dh__macro_find(ms, s, (size_t)(p - s));
            int empty = m && m->n_params < 0 && !m->body[strspn(m->body, " \t")];
            for (const char *t = s; !empty && t < p && o + 1 < len; t++)
                out[o++] = *t;
            continue;
        }
        out[o++] = *p++;
    }
    out[o] = 0;
}

int dh__eval_text(const char *text, const struct macros *ms, int depth, long *out)
{
    char clean[512];
    drop_empty_macros(text, ms, clean, sizeof clean);
    struct ev e = {clean, ms, depth, 0, 0};
    long v = ev_sum(&e);
    ev_ws(&e);
    if (e.bad || *e.p)
        return -1;
    *out = v;
    return 0;
}

/* Source text is data: an overflow, a division by zero or nesting past
 * 64 levels makes the expression not evaluate, never a signal. */
static long ev_atom(struct ev *e)
{
    ev_ws(e);
    if (e->bad || e->nest > 64) {
        e->bad = 1;
        return 0;
    }
    if (*e->p == '(') {
        e->p++;
        e->nest++;
        long v = ev_sum(e);
        e->nest--;
        ev_ws(e);
        if (*e->p != ')')
            e->bad = 1;
        else
            e->p++;
        return v;
    }
    if (*e->p == '-') {
        e->p++;
        e->nest++;
        long v = ev_atom(e);
        e->nest--;
        if (v == LONG_MIN)
            e->bad = 1;
        return e->bad ? 0 : -v;
    }
    if (isdigit((unsigned char)*e->p)) {
        char *end;
        errno = 0;
        long v = strtol(e->p, &end, 0);
        if (errno == ERANGE)
            e->bad = 1;
        while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
            end++;
        if (*end == '.' || isalpha((unsigned char)*end))
            e->bad = 1;                    /* a float, say */
        e->p = end;
        return v;
    }
    if (isalpha((unsigned char)*e->p) || *e->p == '_') {
        const char *s = e->p;
        while (isalnum((unsigned char)*e->p) || *e->p == '_')
            e->p++;
        const struct macro *m = dh__macro_find(e->ms, s, (size_t)(e->p - s));
        long v = 0;
        if (!m || m->n_params >= 0 || e->depth > 16 || dh__eval_text(m->body, e->ms, e->depth + 1, &v))
            e->bad = 1;
        return v;
    }
    e->bad = 1;
    return 0;
}

static long ev_prod(struct ev *e)
{
    long v = ev_atom(e);
    for (;;) {
        ev_ws(e);
        char c = *e->p;
        if (c != '*' && c != '/' && c != '%')
            return v;
        e->p++;
        long r = ev_atom(e);
        if (e->bad)
            return 0;
        if (c == '*') {
            if (__builtin_mul_overflow(v, r, &v))
                e->bad = 1;
        } else if (r == 0 || (v == LONG_MIN && r == -1)) {
            e->bad = 1;
        } else {
            v = c == '/' ? v / r : v % r;
        }
    }
}

static long ev_sum(struct ev *e)
{
    long v = ev_prod(e);
    for (;;) {
        ev_ws(e);
        char c = *e->p;
        if (c != '+' && c != '-')
            return v;
        e->p++;
        long r = ev_prod(e);
        if (e->bad)
            return 0;
        if (c == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v))
            e->bad = 1;
    }
}

/* The arguments of a call whose '(' is at *p: up to 8, each copied
 * into args[i]; *p moves past the ')'. The count, or -1. */
int dh__split_args(const char **p, char args[][256])
{
    const char *q = *p + 1;
    int depth = 0, n = 0;
    size_t k = 0;
    for (; *q; q++) {
        if (*q == '(')
            depth++;
        else if (*q == ')' && depth-- == 0)
            break;
        if (*q == ',' && depth == 0) {
            if (n < 8)
                args[n][k < 255 ? k : 255] = 0;
            n++;
            k = 0;
            continue;
        }
        if (n < 8 && k < 255)
            args[n][k++] = *q;
    }
    if (*q != ')')
        return -1;
    if (n < 8)
        args[n][k < 255 ? k : 255] = 0;
    *p = q + 1;
    return n + 1;
}

/* Replace whole-word params by args in text (into out). */
void dh__substitute(const char *text, const struct macro *m, char args[][256], int n_args,
                    char *out, size_t len)
{
    size_t o = 0;
    const char *p = text;
    while (*p && o + 1 < len) {
        if (isalpha((unsigned char)*p) || *p == '_') {
            const char *s = p;
            while (isalnum((unsigned char)*p) || *p == '_')
                p++;
            size_t k = (size_t)(p - s);
            const char *rep = NULL;
            for (int i = 0; i < m->n_params && i < n_args; i++)
                if (strlen(m->params[i]) == k && !strncmp(m->params[i], s, k))
                    rep = args[i];
            int w = rep ? snprintf(out + o, len - o, "(%s)", rep)
                        : snprintf(out + o, len - o, "%.*s", (int)k, s);
            o += w > 0 ? (size_t)w : 0;
            continue;
        }
        out[o++] = *p++;
    }
    out[o < len ? o : len - 1] = 0;
}
