/* expr.c — the small integer expressions of descriptor constraints:
 *   expr := or ; or := and ('||' and)* ; and := cmp ('&&' cmp)*
 *   cmp := sum (('=='|'!='|'<='|'>='|'<'|'>') sum)?
 *   sum := prod (('+'|'-') prod)* ; prod := unary (('*'|'/'|'%') unary)*
 *   unary := '-' unary | '(' expr ')' | number | name */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "userkernel.h"

struct ps {
    const char *p;
    const struct dh_pset *vars;
    double warp, max_wg, items;
    char *why;
    size_t len;
    int err;
};

static long p_or(struct ps *s);

static void skip(struct ps *s)
{
    while (isspace((unsigned char)*s->p))
        s->p++;
}

static int eat(struct ps *s, const char *tok)
{
    skip(s);
    size_t n = strlen(tok);
    if (!strncmp(s->p, tok, n)) {
        s->p += n;
        return 1;
    }
    return 0;
}

static void fail(struct ps *s, const char *what)
{
    if (!s->err)
        snprintf(s->why, s->len, "%s at \"%.20s\"", what, s->p);
    s->err = 1;
}

static long p_unary(struct ps *s)
{
    skip(s);
    if (eat(s, "-"))
        return -p_unary(s);
    if (eat(s, "(")) {
        long v = p_or(s);
        if (!eat(s, ")"))
            fail(s, "missing ')'");
        return v;
    }
    if (isdigit((unsigned char)*s->p)) {
        long v = 0;
        while (isdigit((unsigned char)*s->p))
            v = v * 10 + (*s->p++ - '0');
        return v;
    }
    if (isalpha((unsigned char)*s->p) || *s->p == '_') {
        char name[32];
        size_t n = 0;
        while ((isalnum((unsigned char)*s->p) || *s->p == '_') && n < sizeof name - 1)
            name[n++] = *s->p++;
        name[n] = 0;
        if (!strcmp(name, "warp"))
            return (long)s->warp;
        if (!strcmp(name, "max_wg"))
            return (long)s->max_wg;
        if (!strcmp(name, "items"))
            return (long)s->items;
        const struct dh_pval *v = dh_pset_find(s->vars, name);
        if (!v) {
            fail(s, "unknown name (use a tunable, warp, max_wg or items)");
            return 0;
        }
        return (long)v->num;
    }
    fail(s, "expected a number, a name or '('");
    return 0;
}

static long p_prod(struct ps *s)
{
    long v = p_unary(s);
    for (;;) {
        if (eat(s, "*"))
            v *= p_unary(s);
        else if (eat(s, "/") || eat(s, "%")) {
            char op = s->p[-1];
            long d = p_unary(s);
            if (!d) {
                fail(s, "division by zero");
                return 0;
            }
            v = op == '/' ? v / d : v % d;
        } else
            return v;
    }
}

static long p_sum(struct ps *s)
{
    long v = p_prod(s);
    for (;;) {
        if (eat(s, "+"))
            v += p_prod(s);
        else if (eat(s, "-"))
            v -= p_prod(s);
        else
            return v;
    }
}

static long p_cmp(struct ps *s)
{
    long a = p_sum(s);
    if (eat(s, "==")) return a == p_sum(s);
    if (eat(s, "!=")) return a != p_sum(s);
    if (eat(s, "<=")) return a <= p_sum(s);
    if (eat(s, ">=")) return a >= p_sum(s);
    if (eat(s, "<")) return a < p_sum(s);
    if (eat(s, ">")) return a > p_sum(s);
    return a;
}

static long p_and(struct ps *s)
{
    long v = p_cmp(s);
    while (eat(s, "&&")) {
        long w = p_cmp(s);
        v = v && w;
    }
    return v;
}

static long p_or(struct ps *s)
{
    long v = p_and(s);
    while (eat(s, "||")) {
        long w = p_and(s);
        v = v || w;
    }
    return v;
}

int dh_expr_eval(const char *expr, const struct dh_pset *vars, double warp, double max_wg,
                 double items, long *value, char *why, size_t why_len)
{
    struct ps s = {.p = expr, .vars = vars, .warp = warp, .max_wg = max_wg, .items = items,
                   .why = why, .len = why_len};
    long v = p_or(&s);
    skip(&s);
    if (!s.err && *s.p)
        fail(&s, "unexpected text");
    if (s.err)
        return -DH_E_DATA;
    *value = v;
    return 0;
}
