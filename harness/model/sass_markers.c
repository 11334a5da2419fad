/* sass_markers.c — DH_BB markers, their regions, constant for-loops and
 * the calls that bind parameter ids, found in a kernel's source; see
 * sass.h. */
#include "sass.h"
#include "sass_macros.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- markers in the source ---- */

struct scan {
    struct dh_bb_markers *m;
    int cap;
    char hdr[2048];               /* text at depth 0 since the last ';' or '}' */
    char fn[64];                  /* the function whose body is open */
    char (*fns)[64];              /* the functions defined so far */
    int n_fns, cap_fns;
    char fn_param[16][32];
    int fn_nparam;
    struct macros ms;
    char file[256];
    int line;
    int scope_stack[256];
    int depth;
    int next_scope;
    /* a DH_BB_N marker covers the loop statement after it: the marker,
     * its depth, and the loop's brace scope once open */
    int pend_n, pend_depth, pend_open, loop_scope;
    /* the open function: a kernel (DH_KERNEL, __global__ or __kernel in
     * its header), and the first line of its header (its parameters'
     * loads carry that line) */
    int kernel, body_line, hdr_line;
};

/* text = PARAM [(+|-) expr]: the parameter's index and the offset */
static int param_id(const struct scan *sc, const char *text, int *param, long *offset)
{
    while (*text == ' ' || *text == '(')
        text++;
    const char *s = text;
    while (isalnum((unsigned char)*text) || *text == '_')
        text++;
    size_t n = (size_t)(text - s);
    for (int i = 0; i < sc->fn_nparam && n; i++)
        if (strlen(sc->fn_param[i]) == n && !strncmp(sc->fn_param[i], s, n)) {
            char rest[256];
            snprintf(rest, sizeof rest, "0%s", text);
            /* "(bb) + 1" leaves ") + 1": drop one closing paren */
            char *cp = strchr(rest, ')');
            if (cp && !strchr(rest, '('))
                *cp = ' ';
            if (dh__eval_text(rest, &sc->ms, 0, offset))
                return 0;
            *param = i;
            return 1;
        }
    return 0;
}

static int marker_add(struct scan *sc, long id, int n_form, long count, const char *text,
                      int ok)
{
    struct dh_bb_markers *m = sc->m;
    int param = -1;
    long offset = 0;
    if (!ok && param_id(sc, text, &param, &offset))
        ok = 1, id = -1;
    /* an id that does not evaluate (a runtime value) still ends the
     * region before it: its code is of an unknown block (-1), not of the
     * block above */
    else if (!ok || id < 0 || id > 1 << 20) {
        if (!m->unresolved++)
            snprintf(m->first_unresolved, sizeof m->first_unresolved, "%s:%d: %.100s",
                     sc->file, sc->line, text);
        id = -1;
    }
    if (m->n == sc->cap) {
        sc->cap = sc->cap ? 2 * sc->cap : 64;
        struct dh_bb_marker *v = realloc(m->v, (size_t)sc->cap * sizeof *v);
        if (!v)
            return -1;
        m->v = v;
    }
    int scope = sc->depth ? sc->scope_stack[sc->depth - 1] : -1;
    /* the previous open marker of this scope ends on the line before;
     * not for DH_BB_N, whose region is the loop after it (the block
     * around resumes after the loop) */
    for (int i = m->n - 1; i >= 0 && !n_form; i--)
        if (m->v[i].scope == scope && m->v[i].last == 0 && m->v[i].line < sc->line &&
            !strcmp(m->v[i].file, sc->file))
            m->v[i].last = sc->line - 1;
    if (n_form) {
        sc->pend_n = m->n;
        sc->pend_depth = sc->depth;
        sc->pend_open = 0;
    }
    /* a kernel's first marker at the top of its body also takes the
     * lines before it (the index, the early return, the loads: code
     * every lane runs before any branch) */
    int first = sc->line;
    if (sc->kernel && !n_form && sc->depth == 1 && sc->body_line > 0) {
        int earlier = 0;
        for (int i = 0; i < m->n; i++)
            earlier |= m->v[i].scope == scope && !strcmp(m->v[i].file, sc->file);
        if (!earlier)
            first = sc->body_line;
    }
    struct dh_bb_marker *k = &m->v[m->n++];
    memset(k, 0, sizeof *k);
    snprintf(k->file, sizeof k->file, "%s", sc->file);
    k->line = sc->line;
    k->first = first;
    k->id = (int)id;
    k->n_form = n_form;
    k->count = count;
    k->scope = scope;
    k->param = param;
    k->offset = offset;
    if (param >= 0)
        snprintf(k->func, sizeof k->func, "%s", sc->fn);
    return 0;
}

/* DH_BB(...) / DH_BB_N(...) in text (already substituted): markers. */
static int markers_in(struct scan *sc, const char *text)
{
    const char *p = text;
    while ((p = strstr(p, "DH_BB"))) {
        int word_start = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        const char *q = p + 5;
        int n_form = 0;
        if (!strncmp(q, "_N", 2)) {
            n_form = 1;
            q += 2;
        }
        const char *r = q;
        while (*r == ' ')
            r++;
        if (!word_start || *r != '(') {
            p = q;
            continue;
        }
        char args[8][256];
        int n = dh__split_args(&r, args);
        if (n < 1)
            return 0;
        long id = 0, count = -1;
        int ok = !dh__eval_text(args[0], &sc->ms, 0, &id);
        if (n_form && (n < 2 || dh__eval_text(args[1], &sc->ms, 0, &count) || count < 1))
            count = -1;
        if (marker_add(sc, id, n_form, count, args[0], ok))
            return -1;
        p = r;
    }
    return 0;
}

/* `for (` on the line with a constant trip count: recorded. */
static int for_loop(struct scan *sc, const char *code)
{
    const char *p = strstr(code, "for");
    while (p && ((p > code && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) ||
                 isalnum((unsigned char)p[3]) || p[3] == '_'))
        p = strstr(p + 3, "for");
    if (!p)
        return 0;
    p += 3;
    while (*p == ' ')
        p++;
    if (*p != '(')
        return 0;
    char hdr[512];
    const char *q = p + 1;
    int depth = 0;
    size_t k = 0;
    for (; *q && k < sizeof hdr - 1; q++) {
        if (*q == '(')
            depth++;
        else if (*q == ')' && depth-- == 0)
            break;
        hdr[k++] = *q;
    }
    hdr[k] = 0;
    char *s1 = strchr(hdr, ';'), *s2 = s1 ? strchr(s1 + 1, ';') : NULL;
    if (!s1 || !s2)
        return 0;
    *s1 = *s2 = 0;
    char *init = hdr, *cond = s1 + 1, *step = s2 + 1;
    /* init: [type] v = A */
    char *eq = strchr(init, '=');
    if (!eq)
        return 0;
    *eq = 0;
    char *v = eq;
    while (v > init && (v[-1] == ' '))
        v--;
    *v = 0;
    char *vs = v;
    while (vs > init && (isalnum((unsigned char)vs[-1]) || vs[-1] == '_'))
        vs--;
    char var[64];
    snprintf(var, sizeof var, "%s", vs);
    if (!var[0])
        return 0;
    long a, b, st;
    if (dh__eval_text(eq + 1, &sc->ms, 0, &a))
        return 0;
    /* cond: v OP B */
    while (*cond == ' ')
        cond++;
    size_t vl = strlen(var);
    if (strncmp(cond, var, vl))
        return 0;
    cond += vl;
    while (*cond == ' ')
        cond++;
    char op[3] = {cond[0], 0, 0};
    if (cond[1] == '=')
        op[1] = '=';
    cond += strlen(op);
    if (dh__eval_text(cond, &sc->ms, 0, &b))
        return 0;
    /* step */
    char sb[128];
    size_t o = 0;
    for (const char *t = step; *t && o < sizeof sb - 1; t++)
        if (*t != ' ')
            sb[o++] = *t;
    sb[o] = 0;
    char inc[140], dec[140];
    snprintf(inc, sizeof inc, "%s++", var);
    snprintf(dec, sizeof dec, "%s--", var);
    if (!strcmp(sb, inc) || (sb[0] == '+' && sb[1] == '+' && !strcmp(sb + 2, var)))
        st = 1;
    else if (!strcmp(sb, dec) || (sb[0] == '-' && sb[1] == '-' && !strcmp(sb + 2, var)))
        st = -1;
    else if (!strncmp(sb, var, vl) && (sb[vl] == '+' || sb[vl] == '-') && sb[vl + 1] == '=') {
        if (dh__eval_text(sb + vl + 2, &sc->ms, 0, &st) || st == 0)
            return 0;
        if (sb[vl] == '-')
            st = -st;
    } else {
        return 0;
    }
    long big = 1L << 40;             /* trip arithmetic cannot overflow below this */
    if (a > big || a < -big || b > big || b < -big || st > big || st < -big)
        return 0;
    long trips = -1;
    if (st > 0 && !strcmp(op, "<"))
        trips = b > a ? (b - a + st - 1) / st : 0;
    else if (st > 0 && !strcmp(op, "<="))
        trips = b >= a ? (b - a) / st + 1 : 0;
    else if (st < 0 && !strcmp(op, ">"))
        trips = a > b ? (a - b - st - 1) / -st : 0;
    else if (st < 0 && !strcmp(op, ">="))
        trips = a >= b ? (a - b) / -st + 1 : 0;
    else if (!strcmp(op, "!=") && (b - a) % st == 0 && (b - a) / st >= 0)
        trips = (b - a) / st;
    if (trips < 0)
        return 0;
    struct dh_bb_markers *m = sc->m;
    if (m->n_loops == m->cap_loops) {
        int cap = m->cap_loops ? 2 * m->cap_loops : 64;
        struct dh_bb_loop *nv = realloc(m->loops, (size_t)cap * sizeof *nv);
        if (!nv)
            return -1;
        m->loops = nv;
        m->cap_loops = cap;
    }
    struct dh_bb_loop *L = &m->loops[m->n_loops++];
    snprintf(L->file, sizeof L->file, "%s", sc->file);
    L->line = sc->line;
    L->trips = trips;
    return 0;
}

/* One line of code (comments gone): markers, marker macros, braces. */
/* The function a body at depth 0 opens: NAME(params) in the header. */
static void function_header(struct scan *sc)
{
    sc->fn[0] = 0;
    sc->fn_nparam = 0;
    sc->kernel = strstr(sc->hdr, "KERNEL") || strstr(sc->hdr, "__global__") ||
                 strstr(sc->hdr, "__kernel");
    sc->body_line = sc->hdr_line > 0 && sc->hdr_line <= sc->line ? sc->hdr_line : sc->line;
    const char *p = strchr(sc->hdr, '(');
    if (!p)
        return;
    const char *e = p;
    while (e > sc->hdr && e[-1] == ' ')
        e--;
    const char *s = e;
    while (s > sc->hdr && (isalnum((unsigned char)s[-1]) || s[-1] == '_'))
        s--;
    if (s == e)
        return;
    snprintf(sc->fn, sizeof sc->fn, "%.*s", (int)(e - s < 63 ? e - s : 63), s);
    if (sc->n_fns == sc->cap_fns) {
        int cap = sc->cap_fns ? 2 * sc->cap_fns : 64;
        char (*v)[64] = realloc(sc->fns, (size_t)cap * sizeof *v);
        if (v) {
            sc->fns = v;
            sc->cap_fns = cap;
        }
    }
    if (sc->n_fns < sc->cap_fns)
        snprintf(sc->fns[sc->n_fns++], sizeof sc->fns[0], "%s", sc->fn);
    char args[8][256];
    int n = dh__split_args(&p, args);
    for (int i = 0; i < n && i < 8; i++) {
        /* the last identifier that is not a macro (DH_BBV_FARGS, ...) */
        char last[32] = "";
        for (const char *q = args[i]; *q;) {
            if (!(isalpha((unsigned char)*q) || *q == '_')) {
                q++;
                continue;
            }
            const char *t = q;
            while (isalnum((unsigned char)*q) || *q == '_')
                q++;
            if (!dh__macro_find(&sc->ms, t, (size_t)(q - t)))
                snprintf(last, sizeof last, "%.*s", (int)(q - t < 31 ? q - t : 31), t);
        }
        snprintf(sc->fn_param[sc->fn_nparam++], sizeof sc->fn_param[0], "%s", last);
    }
}

/* Calls of functions with parameter ids: their arguments. `rest` is the
 * source after this line (arguments may continue there). */
static int calls_in(struct scan *sc, const char *code, const char *rest)
{
    struct dh_bb_markers *m = sc->m;
    for (const char *p = code; *p;) {
        if (!(isalpha((unsigned char)*p) || *p == '_')) {
            p++;
            continue;
        }
        const char *s = p;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        size_t n = (size_t)(p - s);
        /* every function defined above: a parameter id may travel
         * through several calls */
        int known = 0;
        for (int i = 0; i < sc->n_fns && !known; i++)
            known = strlen(sc->fns[i]) == n && !strncmp(sc->fns[i], s, n);
        if (!known || *p != '(')
            continue;
        char buf[4096];
        snprintf(buf, sizeof buf, "%s %.*s", p, 2048, rest ? rest : "");
        for (char *b = buf; *b; b++)
            if (*b == '\n')
                *b = ' ';
        const char *r = buf;
        char args[8][256];
        int na = dh__split_args(&r, args);
        if (na < 1)
            continue;
        if (m->n_calls == m->cap_calls) {
            int cap = m->cap_calls ? 2 * m->cap_calls : 32;
            struct dh_bb_call *v = realloc(m->calls, (size_t)cap * sizeof *v);
            if (!v)
                return -1;
            m->calls = v;
            m->cap_calls = cap;
        }
        struct dh_bb_call *c = &m->calls[m->n_calls++];
        snprintf(c->file, sizeof c->file, "%s", sc->file);
        c->line = sc->line;
        snprintf(c->func, sizeof c->func, "%.*s", (int)(n < 63 ? n : 63), s);
        snprintf(c->caller, sizeof c->caller, "%s", sc->fn);
        for (int i = 0; i < 8; i++) {
            long v;
            c->args[i] = i < na && !dh__eval_text(args[i], &sc->ms, 0, &v) ? v : LONG_MIN;
            c->arg_param[i] = -1;
            c->arg_off[i] = 0;
            if (c->args[i] == LONG_MIN && i < na)
                param_id(sc, args[i], &c->arg_param[i], &c->arg_off[i]);
        }
    }
    return 0;
}

/* The line after a DH_BB_N marker: a loop statement bounds its region. */
static void after_n_marker(struct scan *sc, const char *code)
{
    struct dh_bb_markers *m = sc->m;
    if (sc->pend_n < 0 || sc->pend_open || sc->pend_n >= m->n ||
        sc->line <= m->v[sc->pend_n].line || sc->depth != sc->pend_depth)
        return;
    while (*code == ' ' || *code == '\t')
        code++;
    if (!*code)
        return;
    int is_loop = (!strncmp(code, "for", 3) && !isalnum((unsigned char)code[3]) &&
                   code[3] != '_') ||
                  (!strncmp(code, "while", 5) && !isalnum((unsigned char)code[5]) &&
                   code[5] != '_');
    struct dh_bb_marker *k = &m->v[sc->pend_n];
    if (!is_loop) {
        sc->pend_n = -1;              /* no loop: the marker's region runs on */
        return;
    }
    if (strchr(code, '{')) {
        sc->pend_open = 1;            /* ends where the body's brace closes */
        return;
    }
    size_t n = strlen(code);
    while (n && (code[n - 1] == ' ' || code[n - 1] == '\t'))
        n--;
    k->last = n && code[n - 1] == ')' ? sc->line + 1 : sc->line;
    sc->pend_n = -1;
}

static void close_scope(struct scan *sc, int scope)
{
    struct dh_bb_markers *m = sc->m;
    for (int i = 0; i < m->n; i++)
        if (m->v[i].scope == scope && m->v[i].last == 0)
            m->v[i].last = sc->line;
    if (sc->pend_n >= 0 && sc->pend_open == 2 && scope == sc->loop_scope) {
        if (sc->pend_n < m->n && m->v[sc->pend_n].last == 0)
            m->v[sc->pend_n].last = sc->line;
        sc->pend_n = -1;
        sc->pend_open = 0;
    }
}

static int code_line(struct scan *sc, const char *code, const char *rest)
{
    if (for_loop(sc, code) || calls_in(sc, code, rest))
        return -1;
    after_n_marker(sc, code);
    /* braces first up to each marker would be exact; a marker's line
     * rarely opens its own scope before it, so: markers, then braces,
     * except that a line starting with '}' closes first */
    const char *c = code;
    while (*c == ' ' || *c == '\t')
        c++;
    if (*c == '}' && sc->depth) {
        int scope = sc->scope_stack[--sc->depth];
        sc->hdr[0] = 0;
        close_scope(sc, scope);
        c++;
    }
    if (markers_in(sc, c))
        return -1;
    /* function-like macros that mark blocks */
    for (const char *p = c; *p;) {
        if (!(isalpha((unsigned char)*p) || *p == '_')) {
            p++;
            continue;
        }
        const char *s = p;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        const struct macro *mac = dh__macro_find(&sc->ms, s, (size_t)(p - s));
        if (!mac || mac->n_params < 0 || !strstr(mac->body, "DH_BB"))
            continue;
        const char *r = p;
        while (*r == ' ')
            r++;
        if (*r != '(')
            continue;
        char args[8][256];
        int n = dh__split_args(&r, args);
        if (n < 0)
            continue;
        char body[4096];
        dh__substitute(mac->body, mac, args, n, body, sizeof body);
        if (markers_in(sc, body))
            return -1;
        p = r;
    }
    for (; *c; c++) {
        if (sc->depth == 0) {
            size_t h = strlen(sc->hdr);
            if (*c == ';' || *c == '}')
                sc->hdr[0] = 0;
            else if (*c == '{') {
                function_header(sc);
                sc->hdr[0] = 0;
            }
            else if (h + 1 < sizeof sc->hdr) {
                if (!h && *c != ' ' && *c != '\t')
                    sc->hdr_line = sc->line;
                sc->hdr[h] = *c;
                sc->hdr[h + 1] = 0;
            }
        }
        if (*c == '{' && sc->depth < 256) {
            if (sc->pend_n >= 0 && sc->pend_open == 1 && sc->depth == sc->pend_depth) {
                sc->loop_scope = sc->next_scope;
                sc->pend_open = 2;
            }
            sc->scope_stack[sc->depth++] = sc->next_scope++;
        } else if (*c == '}' && sc->depth) {
            int scope = sc->scope_stack[--sc->depth];
            sc->hdr[0] = 0;
            close_scope(sc, scope);
        }
    }
    return 0;
}

static int define_line(struct scan *sc, const char *d)
{
    while (*d == ' ' || *d == '\t')
        d++;
    const char *s = d;
    while (isalnum((unsigned char)*d) || *d == '_')
        d++;
    size_t nlen = (size_t)(d - s);
    if (!nlen || (nlen == 5 && !strncmp(s, "DH_BB", 5)) || (nlen == 7 && !strncmp(s, "DH_BB_N", 7)))
        return 0;
    char params[8][32];
    int np = -1;
    if (*d == '(') {
        np = 0;
        d++;
        while (*d && *d != ')') {
            while (*d == ' ' || *d == ',')
                d++;
            const char *t = d;
            while (isalnum((unsigned char)*d) || *d == '_' || *d == '.')
                d++;
            if (d > t && np < 8)
                snprintf(params[np++], sizeof params[0], "%.*s", (int)(d - t), t);
            if (d == t && *d && *d != ')')      /* never past the end of "F(a, " */
                d++;
        }
        if (*d == ')')
            d++;
    }
    while (*d == ' ' || *d == '\t')
        d++;
    return dh__macro_add(&sc->ms, s, nlen, np, params, d);
}

/* the -D NAME[=VALUE] options */
static int option_defines(struct scan *sc, const char *options)
{
    const char *p = options ? options : "";
    while ((p = strstr(p, "-D"))) {
        p += 2;
        while (*p == ' ')
            p++;
        const char *s = p;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        size_t n = (size_t)(p - s);
        char val[128] = "1";
        if (*p == '=') {
            p++;
            size_t k = strcspn(p, " ");
            snprintf(val, sizeof val, "%.*s", (int)(k < 127 ? k : 127), p);
            p += k;
        }
        if (n && dh__macro_add(&sc->ms, s, n, -1, NULL, val))
            return -1;
    }
    return 0;
}

int dh_bb_markers_scan(const char *source, const char *options, struct dh_bb_markers *m,
                       struct dh_err *err)
{
    memset(m, 0, sizeof *m);
    struct scan sc = {.m = m, .pend_n = -1};
    snprintf(sc.file, sizeof sc.file, "dh_kernel.cu");
    int rc = 0;
    if (option_defines(&sc, options))
        rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    int in_comment = 0;
    const char *p = source;
    char *logical = NULL;
    size_t cap = 0;
    while (*p && !rc) {
        /* a logical line: backslash continuations joined, the physical
         * line counted from its first */
        size_t used = 0;
        int first_line = sc.line + 1, n_phys = 0;
        for (;;) {
            const char *eol = strchr(p, '\n');
            size_t len = eol ? (size_t)(eol - p) : strlen(p);
            if (used + len + 2 > cap) {
                cap = (used + len + 2) * 2;
                char *v = realloc(logical, cap);
                if (!v) {
                    rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory");
                    break;
                }
                logical = v;
            }
            memcpy(logical + used, p, len);
            used += len;
            logical[used] = 0;
            p += len + (eol ? 1 : 0);
            n_phys++;
            if (used && logical[used - 1] == '\\' && *p) {
                logical[--used] = ' ';
                used++;
                continue;
            }
            break;
        }
        if (rc)
            break;
        sc.line = first_line;
        /* comments out (a block comment may span lines) */
        char *o = logical;
        for (char *q = logical; *q;) {
            if (in_comment) {
                if (q[0] == '*' && q[1] == '/') {
                    in_comment = 0;
                    q += 2;
                } else {
                    q++;
                }
                continue;
            }
            if (q[0] == '/' && q[1] == '*') {
                in_comment = 1;
                q += 2;
                *o++ = ' ';
                continue;
            }
            if (q[0] == '/' && q[1] == '/')
                break;
            *o++ = *q++;
        }
        *o = 0;
        char *t = logical;
        while (*t == ' ' || *t == '\t')
            t++;
        if (*t == '#') {
            t++;
            while (*t == ' ')
                t++;
            if (!strncmp(t, "line", 4)) {
                int n = atoi(t + 4);
                char *f = strchr(t, '"');
                if (n > 0) {
                    sc.line = n - 1;
                    n_phys = 1;
                    first_line = sc.line;
                }
                if (f) {
                    size_t k = strcspn(f + 1, "\"");
                    snprintf(sc.file, sizeof sc.file, "%.*s", (int)(k < 255 ? k : 255), f + 1);
                }
                continue;
            }
            if (!strncmp(t, "define", 6) && define_line(&sc, t + 6))
                rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory");
        } else if (code_line(&sc, t, p)) {
            rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory");
        }
        sc.line = first_line + n_phys - 1;
    }
    free(logical);
    free(sc.fns);
    dh__macros_free(&sc.ms);
    /* a region left open (no closing brace seen) runs to its file's end */
    for (int i = 0; i < m->n; i++)
        if (m->v[i].last < m->v[i].line)
            m->v[i].last = 1 << 30;
    if (rc)
        dh_bb_markers_free(m);
    return rc;
}

void dh_bb_markers_free(struct dh_bb_markers *m)
{
    free(m->v);
    free(m->calls);
    free(m->loops);
    memset(m, 0, sizeof *m);
}

