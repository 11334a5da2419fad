/* expr.c — small integer expressions (expr.h has the grammar). */
#include "expr.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../../backends/errors.h"

struct ps {
    const char *p;
    const struct dh_pset *vars;
    double warp, max_wg, items;
    char *why;
    size_t len;
    int err;
    int dead;               /* inside the branch a ?: does not take */
};

static long p_expr(struct ps *s);

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

/* an arithmetic error (overflow, division by zero) counts only where the
 * value is used: not in the branch a ?: does not take */
static void arith(struct ps *s, const char *what)
{
    if (!s->dead)
        fail(s, what);
}

/* a name's value as a 64-bit integer: a value beyond (or NaN) is an
 * error, not a float-to-integer overflow */
static long as_long(struct ps *s, const char *name, double v)
{
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) {
        (void)name;
        arith(s, "a value beyond 64-bit integers");
        return 0;
    }
    return (long)v;
}

static long p_unary(struct ps *s)
{
    skip(s);
    if (eat(s, "-")) {
        long v = p_unary(s);
        if (v == LONG_MIN) {
            arith(s, "overflow (negation)");
            return 0;
        }
        return -v;
    }
    if (eat(s, "!"))
        return !p_unary(s);
    if (eat(s, "(")) {
        long v = p_expr(s);
        if (!eat(s, ")"))
            fail(s, "missing ')'");
        return v;
    }
    if (isdigit((unsigned char)*s->p)) {
        long v = 0;
        while (isdigit((unsigned char)*s->p)) {
            if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *s->p - '0', &v)) {
                fail(s, "number too large (64-bit integers)");
                return 0;
            }
            s->p++;
        }
        return v;
    }
    if (isalpha((unsigned char)*s->p) || *s->p == '_') {
        char name[32];
        size_t n = 0;
        while ((isalnum((unsigned char)*s->p) || *s->p == '_') && n < sizeof name - 1)
            name[n++] = *s->p++;
        name[n] = 0;
        if (isalnum((unsigned char)*s->p) || *s->p == '_') {
            fail(s, "name longer than 31 characters");
            return 0;
        }
        skip(s);
        if ((!strcmp(name, "min") || !strcmp(name, "max")) && eat(s, "(")) {
            long a = p_expr(s);
            if (!eat(s, ","))
                fail(s, "expected ',' (min(a, b), max(a, b))");
            long b = p_expr(s);
            if (!eat(s, ")"))
                fail(s, "missing ')'");
            return name[1] == 'i' ? (a < b ? a : b) : (a > b ? a : b);
        }
        const struct dh_pval *pv = s->vars ? dh_pset_find(s->vars, name) : NULL;
        if (pv)
            return as_long(s, name, pv->num);
        if (!strcmp(name, "warp"))
            return as_long(s, name, s->warp);
        if (!strcmp(name, "max_wg"))
            return as_long(s, name, s->max_wg);
        if (!strcmp(name, "items"))
            return as_long(s, name, s->items);
        fail(s, "unknown name (use a parameter, warp, max_wg or items)");
        return 0;
    }
    fail(s, "expected a number, a name or '('");
    return 0;
}

static long p_prod(struct ps *s)
{
    long v = p_unary(s);
    for (;;) {
        if (eat(s, "*")) {
            long w = p_unary(s);
            if (__builtin_mul_overflow(v, w, &v))
                arith(s, "overflow (multiplication)");
        }
        else if (eat(s, "/") || eat(s, "%")) {
            char op = s->p[-1];
            long d = p_unary(s);
            if (!d) {
                arith(s, "division by zero");
                return 0;
            }
            if (d == -1 && v == LONG_MIN) {
                arith(s, "overflow (division)");
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
        if (eat(s, "+")) {
            long w = p_prod(s);
            if (__builtin_add_overflow(v, w, &v))
                arith(s, "overflow (addition)");
        } else if (eat(s, "-")) {
            long w = p_prod(s);
            if (__builtin_sub_overflow(v, w, &v))
                arith(s, "overflow (subtraction)");
        } else
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

/* c ? a : b, right-associative; only the branch taken can fail */
static long p_expr(struct ps *s)
{
    long c = p_or(s);
    if (!eat(s, "?"))
        return c;
    s->dead += !c;
    long a = p_expr(s);
    s->dead -= !c;
    if (!eat(s, ":"))
        fail(s, "expected ':' (c ? a : b)");
    s->dead += !!c;
    long b = p_expr(s);
    s->dead -= !!c;
    return c ? a : b;
}

int dh_expr_eval(const char *expr, const struct dh_pset *vars, double warp, double max_wg,
                 double items, long *value, char *why, size_t why_len)
{
    if (strlen(expr) > DH_EXPR_MAX) {
        snprintf(why, why_len, "expression longer than %d characters", DH_EXPR_MAX);
        return -DH_E_DATA;
    }
    struct ps s = {.p = expr, .vars = vars, .warp = warp, .max_wg = max_wg, .items = items,
                   .why = why, .len = why_len};
    long v = p_expr(&s);
    skip(&s);
    if (!s.err && *s.p)
        fail(&s, "unexpected text");
    if (s.err)
        return -DH_E_DATA;
    *value = v;
    return 0;
}
