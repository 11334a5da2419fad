/* sass.c — nvdisasm listings and the sm_90 issue-cost table; see sass.h.
 * The markers in the source: sass_markers.c; the mapping: sass_blocks.c. */
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

