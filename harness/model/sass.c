/* sass.c — nvdisasm listings, the sm_90 issue-cost table, DH_BB markers
 * in the source and the instruction -> block mapping; see sass.h. */
#include "sass.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the listing ---- */

void dh_sass_free(struct dh_sass *s)
{
    free(s->v);
    free(s->funcs);
    memset(s, 0, sizeof *s);
}

int dh_sass_func(const struct dh_sass *s, const char *name)
{
    for (int i = 0; i < s->n_funcs; i++)
        if (!strcmp(s->funcs[i], name))
            return i;
    return -1;
}

static int add_func(struct dh_sass *s, const char *name, size_t len)
{
    if (s->n_funcs == s->cap_funcs) {
        int cap = s->cap_funcs ? 2 * s->cap_funcs : 16;
        char (*f)[128] = realloc(s->funcs, (size_t)cap * sizeof *f);
        if (!f)
            return -1;
        s->funcs = f;
        s->cap_funcs = cap;
    }
    snprintf(s->funcs[s->n_funcs], sizeof s->funcs[0], "%.*s", (int)(len < 127 ? len : 127),
             name);
    return s->n_funcs++;
}

static int file_index(struct dh_sass *s, const char *name, size_t len)
{
    for (int i = 0; i < s->n_files; i++)
        if (strlen(s->files[i]) == len && !strncmp(s->files[i], name, len))
            return i;
    if (s->n_files == DH_SASS_FILES || len >= sizeof s->files[0])
        return -1;
    snprintf(s->files[s->n_files], sizeof s->files[0], "%.*s", (int)len, name);
    return s->n_files++;
}

struct label {
    char name[32];
    int func;
    unsigned addr;
    int set;
};

struct pending {                  /* a branch waiting for its label */
    int inst;
    char name[32];
};

/* `//## File "X", line N` with an optional ` inlined at ...`: the first
 * position into *fr. 1 when read. */
static int parse_file_comment(struct dh_sass *s, const char *p, struct dh_sass_frame *fr)
{
    const char *q = strstr(p, "File \"");
    if (!q)
        return 0;
    q += 6;
    const char *e = strchr(q, '"');
    if (!e)
        return 0;
    const char *l = strstr(e, ", line ");
    if (!l)
        return 0;
    fr->file = file_index(s, q, (size_t)(e - q));
    fr->line = atoi(l + 7);
    return fr->file >= 0 && fr->line > 0;
}

int dh_sass_parse(const char *text, struct dh_sass *s, struct dh_err *err)
{
    memset(s, 0, sizeof *s);
    struct label *labels = NULL;
    struct pending *pend = NULL;
    int n_labels = 0, cap_labels = 0, n_pend = 0, cap_pend = 0;
    int func = -1, ln = 0, rc = 0, in_sub = 0;
    struct dh_sass_frame cur[DH_SASS_FRAMES];
    int n_cur = 0, in_group = 0;
    const char *p = text;
    while (*p && !rc) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), p);
        p += len + (eol ? 1 : 0);
        ln++;
        char *t = line;
        while (*t == ' ' || *t == '\t')
            t++;
        if (!strncmp(t, ".section", 8)) {
            char *sec = strstr(t, ".text.");
            in_group = 0;
            if (!sec)
                continue;
            sec += 6;
            size_t k = strcspn(sec, ",\" \t");
            if ((func = add_func(s, sec, k)) < 0)
                rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory");
            n_cur = 0;
            in_sub = 0;
            continue;
        }
        if (!strncmp(t, "//##", 4)) {
            struct dh_sass_frame fr;
            if (!in_group) {
                n_cur = 0;
                in_group = 1;
            }
            if (parse_file_comment(s, t, &fr) && n_cur < DH_SASS_FRAMES)
                cur[n_cur++] = fr;
            else if (n_cur == DH_SASS_FRAMES)  /* keep the outer frames */
                cur[DH_SASS_FRAMES - 1] = fr;
            continue;
        }
        in_group = 0;
        if ((t[0] == '.' || t[0] == '$') && t[strlen(t) - 1] == ':' && strncmp(t, ".text.", 6)) {
            /* a subroutine: its lines are not the caller's */
            if (t[0] == '$') {
                in_sub = 1;
                n_cur = 0;
            }
            if (n_labels == cap_labels) {
                cap_labels = cap_labels ? 2 * cap_labels : 64;
                struct label *v = realloc(labels, (size_t)cap_labels * sizeof *v);
                if (!v) {
                    rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory");
                    break;
                }
                labels = v;
            }
            struct label *L = &labels[n_labels++];
            snprintf(L->name, sizeof L->name, "%.*s", (int)(strlen(t) - 1), t);
            L->func = func;
            L->set = 0;
            continue;
        }
        if (strncmp(t, "/*", 2))
            continue;
        char *close = strstr(t, "*/");
        if (!close)
            continue;
        char *endp;
        unsigned long addr = strtoul(t + 2, &endp, 16);
        if (endp != close)
            continue;                      /* a comment, not an address */
        if (func < 0) {
            rc = dh_err_set(err, DH_E_DATA, "nvdisasm listing line %d: an instruction "
                            "before any .section .text.<function>", ln);
            break;
        }
        char *q = close + 2;
        while (*q == ' ' || *q == '\t')
            q++;
        struct dh_sass_inst in = {.func = func, .addr = (unsigned)addr, .target = -1,
                                  .sub = in_sub};
        if (*q == '@') {
            char *g = q + 1;
            if (*g == '!')
                g++;
            in.pred = strncmp(g, "PT", 2) != 0;
            q += strcspn(q, " \t");
            while (*q == ' ' || *q == '\t')
                q++;
        }
        size_t k = strcspn(q, " \t;");
        if (!k || !isupper((unsigned char)*q)) {
            rc = dh_err_set(err, DH_E_DATA, "nvdisasm listing line %d: no opcode after the "
                            "address: \"%.80s\"", ln, t);
            break;
        }
        snprintf(in.op, sizeof in.op, "%.*s", (int)(k < 31 ? k : 31), q);
        const char *ops = q + k;
        while (*ops == ' ' || *ops == '\t')
            ops++;
        size_t ak = strcspn(ops, ";");
        while (ak && (ops[ak - 1] == ' ' || ops[ak - 1] == '\t'))
            ak--;
        snprintf(in.args, sizeof in.args, "%.*s", (int)(ak < 95 ? ak : 95), ops);
        in.n_frames = n_cur;
        memcpy(in.fr, cur, sizeof cur);
        /* labels seen since the last instruction point here */
        for (int i = n_labels - 1; i >= 0 && !labels[i].set; i--) {
            labels[i].addr = in.addr;
            labels[i].set = 1;
        }
        char *tick = strstr(q, "`(");
        if (tick && dh_sass_op_is_branch(in.op)) {
            if (n_pend == cap_pend) {
                cap_pend = cap_pend ? 2 * cap_pend : 64;
                struct pending *v = realloc(pend, (size_t)cap_pend * sizeof *v);
                if (!v) {
                    rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory");
                    break;
                }
                pend = v;
            }
            size_t m = strcspn(tick + 2, ")");
            snprintf(pend[n_pend].name, sizeof pend[0].name, "%.*s", (int)(m < 31 ? m : 31),
                     tick + 2);
            pend[n_pend++].inst = s->n;
        }
        if (s->n == s->cap) {
            int cap = s->cap ? 2 * s->cap : 1024;
            struct dh_sass_inst *v = realloc(s->v, (size_t)cap * sizeof *v);
            if (!v) {
                rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory");
                break;
            }
            s->v = v;
            s->cap = cap;
        }
        s->v[s->n++] = in;
    }
    for (int i = 0; !rc && i < n_pend; i++) {
        struct dh_sass_inst *in = &s->v[pend[i].inst];
        for (int j = 0; j < n_labels; j++)
            if (labels[j].set && labels[j].func == in->func &&
                !strcmp(labels[j].name, pend[i].name))
                in->target = labels[j].addr;
    }
    free(labels);
    free(pend);
    if (!rc && s->n == 0)
        rc = dh_err_set(err, DH_E_DATA, "no instructions in the nvdisasm listing (is it "
                        "`nvdisasm -c` output?)");
    return rc;
}

/* ---- the cost table ---- */

static const struct {
    const char *prefix;
    double cost;
} cost_table[] = {
    /* FP32, 128 results/clk/SM */
    {"FFMA", 1}, {"FADD", 1}, {"FMUL", 1}, {"FFMA32I", 1}, {"FADD32I", 1}, {"FMUL32I", 1},
    {"HFMA2", 1}, {"HADD2", 1}, {"HMUL2", 1},
    /* int32 add, compare, min/max, logic, shift, multiply(-add): 64 */
    {"IADD3", 2}, {"IADD", 2}, {"IADD32I", 2}, {"IMAD.WIDE", 4}, {"IMAD.HI", 4}, {"IMAD", 2},
    {"IMUL", 2}, {"ISETP", 2}, {"IMNMX", 2}, {"VIMNMX", 2}, {"VIMNMX3", 2}, {"VIADD", 2},
    {"VIADDMNMX", 2}, {"IABS", 2}, {"LOP3", 2},
    {"LOP", 2}, {"SHF", 2}, {"SHL", 2}, {"SHR", 2}, {"LEA", 2}, {"SEL", 2}, {"ICMP", 2},
    {"VABSDIFF", 2}, {"PRMT", 2}, {"BMSK", 2}, {"SGXT", 2}, {"IDP", 2},
    /* FP32 compare, min/max, select on the same 64-wide pipe */
    {"FSETP", 2}, {"FMNMX", 2}, {"FSEL", 2}, {"FCHK", 2}, {"FSET", 2},
    /* FP64: 64 */
    {"DFMA", 2}, {"DADD", 2}, {"DMUL", 2}, {"DSETP", 2}, {"DMNMX", 2},
    /* special functions, conversions, bit counts: 16 */
    {"MUFU", 8}, {"F2F", 8}, {"F2I", 8}, {"I2F", 8}, {"I2I", 8}, {"F2FP", 2}, {"FRND", 8},
    {"POPC", 8}, {"FLO", 8}, {"BREV", 8},
    /* warp shuffles and votes: 32 */
    {"SHFL", 4}, {"VOTE", 1}, {"MATCH", 4}, {"REDUX", 4},
    /* moves, predicates, special registers, constants, uniform datapath */
    {"MOV", 1}, {"IMAD.MOV", 2}, {"PLOP3", 1}, {"P2R", 1}, {"R2P", 1}, {"S2R", 1},
    {"CS2R", 1}, {"S2UR", 1}, {"LDC", 1}, {"ULDC", 1}, {"U", 1},
    /* memory: one issue each */
    {"LDG", 1}, {"STG", 1}, {"LDS", 1}, {"STS", 1}, {"LDL", 1}, {"STL", 1}, {"LD", 1},
    {"ST", 1}, {"ATOMS", 1}, {"ATOMG", 1}, {"ATOM", 1}, {"RED", 1}, {"LDSM", 1},
    {"LDGSTS", 1}, {"LDGDEPBAR", 1}, {"DEPBAR", 1}, {"MEMBAR", 1}, {"CCTL", 1},
    /* control */
    {"BRA", 1}, {"BRX", 1}, {"JMP", 1}, {"EXIT", 1}, {"RET", 1}, {"CALL", 1}, {"BSSY", 1},
    {"BSYNC", 1}, {"BREAK", 1}, {"BPT", 1}, {"WARPSYNC", 1}, {"BAR", 1}, {"NOP", 1},
    {"YIELD", 1}, {"NANOSLEEP", 1}, {"KILL", 1}, {"ERRBAR", 1},
};

double dh_sass_op_cost(const char *op, int *known)
{
    size_t best = 0;
    double cost = 1;
    for (size_t i = 0; i < sizeof cost_table / sizeof cost_table[0]; i++) {
        size_t n = strlen(cost_table[i].prefix);
        /* a prefix ends at the opcode's end or a '.', except the uniform "U" */
        if (!strncmp(op, cost_table[i].prefix, n) && n > best &&
            (op[n] == 0 || op[n] == '.' || (n == 1 && cost_table[i].prefix[0] == 'U'))) {
            best = n;
            cost = cost_table[i].cost;
        }
    }
    if (known)
        *known = best > 0;
    return cost;
}

int dh_sass_op_is_branch(const char *op)
{
    static const char *const br[] = {"BRA", "BRX", "JMP", "JMX", "EXIT", "RET", "CALL",
                                     "BREAK", "BSSY", "BSYNC", "WARPSYNC", "KILL", "BPT"};
    for (size_t i = 0; i < sizeof br / sizeof br[0]; i++) {
        size_t n = strlen(br[i]);
        if (!strncmp(op, br[i], n) && (op[n] == 0 || op[n] == '.'))
            return 1;
    }
    return 0;
}

void dh_sass_cost_table(char *out, size_t len)
{
    size_t used = 0;
    out[0] = 0;
    for (size_t i = 0; i < sizeof cost_table / sizeof cost_table[0] && used < len; i++) {
        int w = snprintf(out + used, len - used, "%s %g\n", cost_table[i].prefix,
                         cost_table[i].cost);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* ---- markers in the source ---- */

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

static void macros_free(struct macros *ms)
{
    for (int i = 0; i < ms->n; i++)
        free(ms->v[i].body);
    free(ms->v);
}

static struct macro *macro_find(const struct macros *ms, const char *name, size_t len)
{
    for (int i = ms->n - 1; i >= 0; i--)       /* the latest definition */
        if (strlen(ms->v[i].name) == len && !strncmp(ms->v[i].name, name, len))
            return &ms->v[i];
    return NULL;
}

static int macro_add(struct macros *ms, const char *name, size_t nlen, int n_params,
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
    int depth;
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
            const struct macro *m = macro_find(ms, s, (size_t)(p - s));
            int empty = m && m->n_params < 0 && !m->body[strspn(m->body, " \t")];
            for (const char *t = s; !empty && t < p && o + 1 < len; t++)
                out[o++] = *t;
            continue;
        }
        out[o++] = *p++;
    }
    out[o] = 0;
}

static int eval_text(const char *text, const struct macros *ms, int depth, long *out)
{
    char clean[512];
    drop_empty_macros(text, ms, clean, sizeof clean);
    struct ev e = {clean, ms, depth, 0};
    long v = ev_sum(&e);
    ev_ws(&e);
    if (e.bad || *e.p)
        return -1;
    *out = v;
    return 0;
}

static long ev_atom(struct ev *e)
{
    ev_ws(e);
    if (*e->p == '(') {
        e->p++;
        long v = ev_sum(e);
        ev_ws(e);
        if (*e->p != ')')
            e->bad = 1;
        else
            e->p++;
        return v;
    }
    if (*e->p == '-') {
        e->p++;
        return -ev_atom(e);
    }
    if (isdigit((unsigned char)*e->p)) {
        char *end;
        long v = strtol(e->p, &end, 0);
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
        const struct macro *m = macro_find(e->ms, s, (size_t)(e->p - s));
        long v = 0;
        if (!m || m->n_params >= 0 || e->depth > 16 || eval_text(m->body, e->ms, e->depth + 1, &v))
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
        if (c == '*')
            v *= r;
        else if (r == 0)
            e->bad = 1;
        else
            v = c == '/' ? v / r : v % r;
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
        v = c == '+' ? v + r : v - r;
    }
}

/* The arguments of a call whose '(' is at *p: up to 8, each copied
 * into args[i]; *p moves past the ')'. The count, or -1. */
static int split_args(const char **p, char args[][256])
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
static void substitute(const char *text, const struct macro *m, char args[][256], int n_args,
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
            if (eval_text(rest, &sc->ms, 0, offset))
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
    struct dh_bb_marker *k = &m->v[m->n++];
    memset(k, 0, sizeof *k);
    snprintf(k->file, sizeof k->file, "%s", sc->file);
    k->line = sc->line;
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
        int n = split_args(&r, args);
        if (n < 1)
            return 0;
        long id = 0, count = -1;
        int ok = !eval_text(args[0], &sc->ms, 0, &id);
        if (n_form && (n < 2 || eval_text(args[1], &sc->ms, 0, &count) || count < 1))
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
    if (eval_text(eq + 1, &sc->ms, 0, &a))
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
    if (eval_text(cond, &sc->ms, 0, &b))
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
        if (eval_text(sb + vl + 2, &sc->ms, 0, &st) || st == 0)
            return 0;
        if (sb[vl] == '-')
            st = -st;
    } else {
        return 0;
    }
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
    int n = split_args(&p, args);
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
            if (!macro_find(&sc->ms, t, (size_t)(q - t)))
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
        int na = split_args(&r, args);
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
            c->args[i] = i < na && !eval_text(args[i], &sc->ms, 0, &v) ? v : LONG_MIN;
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
        const struct macro *mac = macro_find(&sc->ms, s, (size_t)(p - s));
        if (!mac || mac->n_params < 0 || !strstr(mac->body, "DH_BB"))
            continue;
        const char *r = p;
        while (*r == ' ')
            r++;
        if (*r != '(')
            continue;
        char args[8][256];
        int n = split_args(&r, args);
        if (n < 0)
            continue;
        char body[4096];
        substitute(mac->body, mac, args, n, body, sizeof body);
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
            if (d == t && *d != ')')
                d++;
        }
        if (*d == ')')
            d++;
    }
    while (*d == ' ' || *d == '\t')
        d++;
    return macro_add(&sc->ms, s, nlen, np, params, d);
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
        if (n && macro_add(&sc->ms, s, n, -1, NULL, val))
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
    macros_free(&sc.ms);
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

/* ---- the mapping ---- */

/* nvdisasm names files as NVRTC saw them, possibly with a directory in
 * front ("/tmp/suites/x.k" for "suites/x.k"). */
static int same_file(const char *listing, const char *source)
{
    size_t a = strlen(listing), b = strlen(source);
    if (a < b)
        return 0;
    if (a == b)
        return !strcmp(listing, source);
    return listing[a - b - 1] == '/' && !strcmp(listing + a - b, source);
}

static int block_of(const struct dh_sass *s, const struct dh_sass_inst *in,
                    const struct dh_bb_markers *m, int pair[2], int *marker);

int dh_sass_block_of(const struct dh_sass *s, const struct dh_sass_inst *in,
                     const struct dh_bb_markers *m, int pair[2])
{
    int marker;
    return block_of(s, in, m, pair, &marker);
}

/* ... and *marker, the deciding marker (its form: DH_BB or DH_BB_N) */
static int block_of(const struct dh_sass *s, const struct dh_sass_inst *in,
                    const struct dh_bb_markers *m, int pair[2], int *marker)
{
    *marker = -1;
    for (int f = 0; f < in->n_frames; f++) {
        const char *file = s->files[in->fr[f].file];
        int line = in->fr[f].line, best = -1;
        for (int i = 0; i < m->n; i++) {
            const struct dh_bb_marker *k = &m->v[i];
            if (line < k->line || line > k->last || !same_file(file, k->file))
                continue;
            if (best < 0 || k->line > m->v[best].line) {
                best = i;
            } else if (k->line == m->v[best].line && k->id != m->v[best].id) {
                if (pair) {
                    pair[0] = m->v[best].id;
                    pair[1] = k->id;
                }
                return -2;
            }
        }
        if (best >= 0)
            *marker = best;
        if (best >= 0 && m->v[best].id < 0 && m->v[best].func[0]) {
            /* a parameter id: the argument at the call site (frame f+1),
             * or, where that is the caller's parameter, at its call site
             * in turn */
            const struct dh_bb_marker *k = &m->v[best];
            const char *fn = k->func;
            int param = k->param;
            long off = k->offset;
            for (int g = f + 1; g < in->n_frames; g++) {
                const struct dh_bb_call *hit = NULL;
                for (int c = 0; c < m->n_calls; c++) {
                    const struct dh_bb_call *call = &m->calls[c];
                    if (call->line != in->fr[g].line || strcmp(call->func, fn) ||
                        !same_file(s->files[in->fr[g].file], call->file))
                        continue;
                    if (hit && (hit->args[param] != call->args[param] ||
                                hit->arg_param[param] != call->arg_param[param] ||
                                hit->arg_off[param] != call->arg_off[param])) {
                        if (pair) {           /* two calls on one line, two blocks */
                            pair[0] = hit->args[param] == LONG_MIN ? -1
                                      : (int)(hit->args[param] + off);
                            pair[1] = call->args[param] == LONG_MIN ? -1
                                      : (int)(call->args[param] + off);
                        }
                        return -2;
                    }
                    hit = call;
                }
                if (!hit)
                    return -1;
                if (hit->args[param] != LONG_MIN) {
                    long id = hit->args[param] + off;
                    return id >= 0 && id <= 1 << 20 ? (int)id : -1;
                }
                if (hit->arg_param[param] < 0)
                    return -1;
                off += hit->arg_off[param];
                param = hit->arg_param[param];
                fn = hit->caller;
            }
            return -1;
        }
        if (best >= 0 && m->v[best].id < 0)
            return -1;
        if (best >= 0) {
            /* another block marked on the same line: shared */
            for (int i = 0; i < m->n; i++)
                if (i != best && m->v[i].line == m->v[best].line &&
                    m->v[i].id != m->v[best].id && same_file(file, m->v[i].file) &&
                    line <= m->v[i].last) {
                    if (pair) {
                        pair[0] = m->v[best].id;
                        pair[1] = m->v[i].id;
                    }
                    return -2;
                }
            return m->v[best].id;
        }
    }
    return -1;
}

/* The constant trip count of the `for` behind a back branch: its frames
 * from the innermost out, the first on a recorded for-line; -1: none. */
static long trips_of(const struct dh_sass *s, const struct dh_sass_inst *br,
                     const struct dh_bb_markers *m, int *frame)
{
    for (int f = 0; f < br->n_frames; f++)
        for (int i = 0; i < m->n_loops; i++)
            if (m->loops[i].line == br->fr[f].line &&
                same_file(s->files[br->fr[f].file], m->loops[i].file)) {
                *frame = f;
                return m->loops[i].trips;
            }
    return -1;
}

/* The loop counter's step: `IADD3 Rx, Rx, imm, ...` / `VIADD Rx, Rx, imm`
 * (a 32-bit register counting itself; a 64-bit pointer add, with its
 * carry predicate, is no counter): |imm|, else 0. */
long dh_sass_counter_step(const struct dh_sass_inst *in)
{
    if (strcmp(in->op, "IADD3") && strcmp(in->op, "VIADD") && strcmp(in->op, "IADD"))
        return 0;
    char d[16], s[16];
    int used = 0;
    if (sscanf(in->args, " %15[^, ] , %15[^, ] ,%n", d, s, &used) != 2 || !used ||
        strcmp(d, s) || d[0] != 'R' || !strcmp(d, "RZ"))
        return 0;
    const char *p = in->args + used;
    while (*p == ' ')
        p++;
    char *end;
    long v = strtol(p, &end, 0);
    if (end == p || (*end && *end != ',' && *end != ' '))
        return 0;
    return v < 0 ? -v : v;
}

/* in belongs to the `for` line at frame f of br: same line, file and
 * inlining */
static int on_for_line(const struct dh_sass_inst *in, const struct dh_sass_inst *br, int f)
{
    if (in->n_frames != br->n_frames - f)
        return 0;
    for (int k = 0; k < in->n_frames; k++)
        if (in->fr[k].line != br->fr[f + k].line || in->fr[k].file != br->fr[f + k].file)
            return 0;
    return 1;
}

struct sass_loop {
    unsigned lo, hi;              /* [target, back branch] */
    int block;
    long trips;                   /* the source loop's, -1 unknown */
    int unroll;
};

/* the largest count of one (opcode, innermost line) among the block's
 * instructions i with sel(i) */
static int most_repeated(const struct dh_sass *s, const int *blk, int b, const char *sel)
{
    int most = 0;
    for (int i = 0; i < s->n; i++) {
        if (blk[i] != b || !sel[i])
            continue;
        int n = 0, li = s->v[i].n_frames ? s->v[i].fr[0].line : 0;
        for (int j = i; j < s->n; j++)
            if (blk[j] == b && sel[j] && !strcmp(s->v[j].op, s->v[i].op) &&
                (s->v[j].n_frames ? s->v[j].fr[0].line : 0) == li)
                n++;
        if (n > most)
            most = n;
    }
    return most > 0 ? most : 1;
}

void dh_sass_blocks(const struct dh_sass *s, int func, const struct dh_bb_markers *m, int nb,
                    struct dh_sass_block *out, int *unmarked, int *shared)
{
    memset(out, 0, (size_t)nb * sizeof *out);
    *unmarked = *shared = 0;
    size_t n = (size_t)(s->n > 0 ? s->n : 1);
    int *blk = malloc(n * sizeof *blk);
    int *inner = malloc(n * sizeof *inner);       /* innermost loop of the block, or -1 */
    char *sel = calloc(n, 1);
    struct sass_loop *loops = malloc(n * sizeof *loops);
    int n_loops = 0;
    if (!blk || !inner || !sel || !loops) {
        free(blk);
        free(inner);
        free(sel);
        free(loops);
        return;
    }
    for (int b = 0; b < nb; b++)
        out[b].count = -1;
    for (int i = 0; i < m->n; i++)
        if (m->v[i].id >= 0 && m->v[i].id < nb && m->v[i].n_form) {
            out[m->v[i].id].n_form = 1;
            out[m->v[i].id].count = m->v[i].count;
        }
    for (int i = 0; i < s->n; i++) {
        blk[i] = -1;
        inner[i] = -1;
        if (s->v[i].func != func)
            continue;
        /* alignment padding and the unreachable self-branch after EXIT
         * are never issued */
        if (!strcmp(s->v[i].op, "NOP") || s->v[i].sub ||
            (!strcmp(s->v[i].op, "BRA") && s->v[i].target == (long)s->v[i].addr))
            continue;
        int pair[2] = {-1, -1}, mk = -1;
        blk[i] = block_of(s, &s->v[i], m, pair, &mk);
        /* a parameter id's form is known once bound */
        if (blk[i] >= 0 && blk[i] < nb && mk >= 0 && m->v[mk].n_form) {
            out[blk[i]].n_form = 1;
            out[blk[i]].count = m->v[mk].count;
        }
        if (blk[i] == -1)
            (*unmarked)++;

        if (blk[i] == -2) {
            (*shared)++;
            for (int k = 0; k < 2; k++)
                if (pair[k] >= 0 && pair[k] < nb)
                    out[pair[k]].shared++;
        }
    }
    /* a back branch of block b makes [target, branch] a loop of b; an
     * instruction of b belongs to the smallest such loop around it */
    for (int i = 0; i < s->n; i++) {
        const struct dh_sass_inst *br = &s->v[i];
        if (br->func != func || br->target < 0 || br->target >= (long)br->addr || blk[i] < 0 ||
            blk[i] >= nb)
            continue;
        struct sass_loop *L = &loops[n_loops];
        int fb = 0;
        *L = (struct sass_loop){(unsigned)br->target, br->addr, blk[i], trips_of(s, br, m, &fb),
                                1};
        /* its unroll: the step of the counter the for's own line
         * updates (a source step of 1 counted u at a time); none (a
         * counter kept in predicates, say): 1. Without a recorded for
         * line, the back branch's own line is taken for it. */
        {
            long u = 0;
            for (int j = 0; j < s->n; j++) {
                if (s->v[j].func != func || s->v[j].addr < L->lo || s->v[j].addr > L->hi ||
                    !on_for_line(&s->v[j], br, fb))
                    continue;
                long st = dh_sass_counter_step(&s->v[j]);
                if (st > 0 && (u == 0 || st < u))
                    u = st;
            }
            L->unroll = u > 0 && (L->trips < 0 || u <= (L->trips > 0 ? L->trips : 1)) ? (int)u : 1;
        }
        for (int j = 0; j < s->n; j++) {
            if (s->v[j].func != func || blk[j] != L->block || s->v[j].addr < L->lo ||
                s->v[j].addr > L->hi)
                continue;
            if (inner[j] < 0 || loops[inner[j]].hi - loops[inner[j]].lo > L->hi - L->lo)
                inner[j] = n_loops;
        }
        n_loops++;
    }
    for (int l = 0; l < n_loops; l++) {
        struct dh_sass_block *o = &out[loops[l].block];
        o->loops++;
        o->loops_unknown += loops[l].trips < 0;
    }
    for (int i = 0; i < s->n; i++) {
        int b = blk[i];
        if (b < 0 || b >= nb)
            continue;
        const struct dh_sass_inst *in = &s->v[i];
        int known = 1;
        double c = dh_sass_op_cost(in->op, &known);
        struct dh_sass_block *o = &out[b];
        o->insts++;
        o->cost += c;
        o->unknown_ops += !known;
        if (in->pred && !dh_sass_op_is_branch(in->op))
            o->predicated++;
        double w = 1;
        if (inner[i] >= 0) {
            const struct sass_loop *L = &loops[inner[i]];
            o->loop_insts++;
            o->loop_cost += c;
            /* SASS iterations: the source loop's trips / its unroll */
            if (L->trips >= 0)
                w = (double)L->trips / L->unroll;
        }
        o->dyn_insts += w;
        o->dyn_cost += w * c;
        /* a call: the subroutine's instructions, from its entry to its
         * first RET, once per call */
        if (!strncmp(in->op, "CALL", 4) && in->target >= 0) {
            for (int j = 0; j < s->n; j++) {
                const struct dh_sass_inst *t = &s->v[j];
                if (t->func != func || !t->sub || (long)t->addr < in->target)
                    continue;
                double ct = dh_sass_op_cost(t->op, NULL);
                o->insts++;
                o->cost += ct;
                o->called++;
                o->dyn_insts += w;
                o->dyn_cost += w * ct;
                if (!strncmp(t->op, "RET", 3))
                    break;
            }
        }
    }
    for (int b = 0; b < nb; b++) {
        struct dh_sass_block *o = &out[b];
        int use_loop = o->loop_insts > 0;
        if (use_loop) {
            o->unroll = 1;
            for (int l = 0; l < n_loops; l++)
                if (loops[l].block == b && loops[l].unroll > o->unroll)
                    o->unroll = loops[l].unroll;
        } else {
            for (int i = 0; i < s->n; i++)
                sel[i] = blk[i] == b;
            o->unroll = most_repeated(s, blk, b, sel);
        }
        if (o->n_form && o->count > 0) {
            o->inst_per_exec = o->dyn_insts / (double)o->count;
            o->cost_per_exec = o->dyn_cost / (double)o->count;
        } else if (o->n_form && use_loop) {
            o->inst_per_exec = (double)o->loop_insts / o->unroll;
            o->cost_per_exec = o->loop_cost / o->unroll;
        } else if (o->n_form) {
            o->inst_per_exec = (double)o->insts / o->unroll;
            o->cost_per_exec = o->cost / o->unroll;
        } else {
            o->inst_per_exec = o->dyn_insts;
            o->cost_per_exec = o->dyn_cost;
        }
    }
    free(blk);
    free(inner);
    free(sel);
    free(loops);
}
