/* kit.c — the operations of a declared benchmark (kit.h): its variables
 * and dimensions, constraints, memory and defines, the host data, and the
 * remap ceiling; the case on the device is kit_device.c's. */
#include "kit.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/support/expr.h"
#include "kit_int.h"
#include "regroup.h"
#include "warpvotes.h"


size_t dh_ktype_size(enum dh_ktype t)
{
    switch (t) {
    case DH_T_U8: return 1;
    case DH_T_U16: return 2;
    case DH_T_I32: case DH_T_U32: case DH_T_F32: return 4;
    case DH_T_I64: case DH_T_F64: return 8;
    }
    return 0;
}

static const struct dh_kit *kit_of(const struct dh_case *c)
{
    return c->bench->kit;
}

int dh_kit_buf_index(const struct dh_kit *k, const char *name)
{
    for (int b = 0; b < k->n_bufs; b++)
        if (!strcmp(k->bufs[b].name, name))
            return b;
    return -1;
}

int dh_kit_alg_code(const char *alg)
{
    static const char *const names[] = {"hot", "dgi", "hot_warp", "dgi_scan", "hot_dgi",
                                        "hot_warp_scan", "static", "refill", "natkey_dgi",
                                        "natkey_scan", "model_dgi", "model_scan", "lean_dgi",
                                        "lean_scan", "scan_multi", "count_multi", "adapt_scan", "buy_pool",
                                        "key_regroup", "key_buy_pool", "kind_buy_pool", "key_dlt",
                                        "key_dlt_buy_pool", "key_dlt_kind_buy_pool", "static_trips",
                                        "meld_buy_pool", "meld_key_dlt"};
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (!strcmp(alg, names[i]))
            return i + 1;
    return 0;
}

/* a parameter's value, or its declared default */
static const char *ptext(const struct dh_case *c, const char *name)
{
    const struct dh_param_def *d = dh_param_find(c->bench->params, name);
    return dh_pset_text(&c->params, name, d ? d->def : "");
}

static double pnum(const struct dh_case *c, const char *name, double dflt)
{
    return dh_pset_num(&c->params, name, dflt);
}

static int in_list(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == n && !strncmp(p, word, n))
            return 1;
        p = e ? e + 1 : NULL;
    }
    return 0;
}

static int used_by(const struct dh_kbuf *b, const char *variant)
{
    return !b->variants || in_list(b->variants, variant);
}

/* what the host sends (in, inout) and what it checks (out, inout) */

static int is_rr(const struct dh_case *c)
{
    return !strcmp(c->variant, "cpu_tdr") && !strcmp(ptext(c, "mech"), "rr");
}

static const struct dh_kentry *entry_of_name(const struct dh_kit *k, const char *v)
{
    for (const struct dh_kentry *e = k->entries; e && e->variant; e++)
        if (!strcmp(e->variant, v))
            return e;
    return NULL;
}

static const struct dh_kentry *entry_of(const struct dh_kit *k, const struct dh_case *c)
{
    const char *v = is_rr(c) ? "cpu_tdr/rr" : c->variant;
    const struct dh_kentry *e = entry_of_name(k, v);
    if (e)
        return e;
    /* cpu_tdr (dlt) runs the baseline's kernel on the regrouped data
     * unless it declares an entry of its own */
    return strcmp(v, "cpu_tdr") ? NULL : entry_of_name(k, "baseline");
}

const char *dh_kit_kernel(const struct dh_case *c)
{
    const struct dh_kentry *e = c->bench && c->bench->kit ? entry_of(c->bench->kit, c) : NULL;
    return e ? e->entry : NULL;
}

const struct dh_kentry *dh__kit_entry(const struct dh_kit *k, const struct dh_case *c)
{
    return entry_of(k, c);
}

const struct dh_kentry *dh__kit_entry_named(const struct dh_kit *k, const char *variant)
{
    return entry_of_name(k, variant);
}

int dh__kit_in_list(const char *list, const char *word)
{
    return in_list(list, word);
}

const char *dh__kit_text(const struct dh_case *c, const char *name)
{
    return ptext(c, name);
}

int dh__kit_is_rr(const struct dh_case *c)
{
    return is_rr(c);
}

int dh__kit_used_by(const struct dh_kbuf *b, const char *variant)
{
    return used_by(b, variant);
}

const char *dh_kit_word(const char *p, char *tok, size_t len, size_t *wlen)
{
    if (!p)
        return NULL;
    p += strspn(p, " ");
    size_t l = strcspn(p, " ");
    if (!l)
        return NULL;
    snprintf(tok, len, "%.*s", (int)l, p);
    if (wlen)
        *wlen = l;
    return p + l;
}

/* The next "name = expr" of a ';'-separated list into name and expr (name
 * empty when the piece does not begin so); where the rest begins, NULL
 * when none is left. */
static const char *next_assign(const char *p, char *name, size_t nlen, char *expr, size_t elen)
{
    while (p && (*p == ' ' || *p == ';'))
        p++;
    if (!p || !*p)
        return NULL;
    size_t l = strcspn(p, ";"), n = 0;
    while (n < l && (isalnum((unsigned char)p[n]) || p[n] == '_'))
        n++;
    size_t e = n + strspn(p + n, " ");
    int ok = n && e < l && p[e] == '=' && p[e + 1] != '=';
    snprintf(name, nlen, "%.*s", ok ? (int)n : 0, p);
    snprintf(expr, elen, "%.*s", ok ? (int)(l - e - 1) : (int)l, ok ? p + e + 1 : p);
    return p + l;
}

/* Evaluate a list of "name = expr; ..." in order, each name then known to
 * the next (put into vars); the last value in *last. */
static int assign_list(const char *list, const char *what, struct dh_pset *vars, double warp,
                       double max_wg, long *last, char *why, size_t len)
{
    char name[32], expr[DH_EXPR_MAX + 1], w[256];
    for (const char *p = list; (p = next_assign(p, name, sizeof name, expr, sizeof expr));) {
        long v;
        if (!name[0]) {
            snprintf(why, len, "%s \"%s\": expected name = expression", what, expr);
            return -DH_E_DATA;
        }
        if (dh_expr_eval(expr, vars, warp, max_wg, dh_pset_num(vars, "items", 0), &v, w,
                         sizeof w)) {
            snprintf(why, len, "%s %s: %s", what, name, w);
            return -DH_E_DATA;
        }
        char t[32];
        snprintf(t, sizeof t, "%ld", v);
        if (dh_pset_put(vars, name, t, (double)v, DH_P_WORKLOAD)) {
            snprintf(why, len, "%s %s: more than %d names", what, name, DH_MAX_PARAMS);
            return -DH_E_DATA;
        }
        if (last)
            *last = v;
    }
    return 0;
}

int dh_kit_dims(const struct dh_kit *k, const struct dh_case *c, struct dh_pset *vars,
                long *items, long *count, char *why, size_t len)
{
    int si = !strcmp(c->size, "small") ? 0 : !strcmp(c->size, "medium") ? 1 : 2;
    memset(vars, 0, sizeof *vars);
    char tok[96];
    for (const char *p = k->sizes[si]; (p = dh_kit_word(p, tok, sizeof tok, NULL));) {
        char name[32], val[48];
        if (dh_param_split(tok, name, sizeof name, val, sizeof val, why, len))
            return -DH_E_DATA;
        dh_pset_put(vars, name, val, atof(val), DH_P_WORKLOAD);
    }
    for (const struct dh_param_def *d = c->bench->params; d && d->name; d++)
        if (d->kind == DH_P_WORKLOAD)    /* the declared default where the case has none */
            dh_pset_put(vars, d->name, d->def, atof(d->def), DH_P_WORKLOAD);
    for (int i = 0; i < c->params.n; i++)
        if (c->params.v[i].kind == DH_P_WORKLOAD)
            dh_pset_put(vars, c->params.v[i].name, c->params.v[i].text, c->params.v[i].num,
                        DH_P_WORKLOAD);
    char w[256];
    if (dh_expr_eval(k->items, vars, 32, 1024, 0, items, w, sizeof w)) {
        snprintf(why, len, "items \"%s\": %s", k->items, w);
        return -DH_E_DATA;
    }
    if (*items <= 0 || *items > (1L << 31) - 1) {
        snprintf(why, len, "items \"%s\" is %ld: it must be 1 .. 2^31-1", k->items, *items);
        return -DH_E_DATA;
    }
    char t[32];
    snprintf(t, sizeof t, "%ld", *items);
    dh_pset_put(vars, "items", t, (double)*items, DH_P_WORKLOAD);
    if (assign_list(k->derive, "derive", vars, 32, 1024, NULL, why, len))
        return -DH_E_DATA;
    for (int b = 0; b < k->n_bufs; b++) {
        const struct dh_kbuf *d = &k->bufs[b];
        if (dh_expr_eval(d->count, vars, 32, 1024, (double)*items, &count[b], w, sizeof w)) {
            snprintf(why, len, "buffer %s: count \"%s\": %s", d->name, d->count, w);
            return -DH_E_DATA;
        }
        if (count[b] <= 0 || count[b] > INT32_MAX) {
            snprintf(why, len, "buffer %s: count \"%s\" is %ld elements: it must be 1 .. "
                     "2^31-1 (kernels index with 32-bit ints)", d->name, d->count, count[b]);
            return -DH_E_DATA;
        }
        if ((d->flags & DH_KB_ITEM) && count[b] % *items) {
            snprintf(why, len, "buffer %s is per item, and its count %ld is not a multiple of "
                     "the %ld items", d->name, count[b], *items);
            return -DH_E_DATA;
        }
    }
    return 0;
}

int dh_kit_vars(const struct dh_case *c, struct dh_pset *vars, char *why, size_t len)
{
    long items, count[DH_KIT_MAXBUF];
    if (dh_kit_dims(kit_of(c), c, vars, &items, count, why, len))
        return -DH_E_DATA;
    for (const struct dh_param_def *d = c->bench->params; d && d->name; d++) {
        if (d->kind == DH_P_WORKLOAD)
            continue;
        const struct dh_pval *v = dh_pset_find(&c->params, d->name);
        double num = v ? v->num : atof(d->def);
        if (!strcmp(d->name, "alg"))
            num = dh_kit_alg_code(v ? v->text : d->def);
        else if (!v && d->domain && !strncmp(d->domain, "enum:", 5)) {
            /* unset: its declared default's index in the enum */
            char dwhy[256];
            if (dh_domain_check(d->domain, d->def, &num, dwhy, sizeof dwhy))
                num = 0;
        }
        dh_pset_put(vars, d->name, v ? v->text : d->def, num, d->kind);
    }
    static const char *const alg[] = {"HOT", "DGI", "HOT_WARP", "DGI_SCAN", "HOT_DGI",
                                      "HOT_WARP_SCAN", NULL, NULL, NULL, NULL, NULL, NULL,
                                      NULL, NULL, "SCAN_MULTI", "COUNT_MULTI", "ADAPT_SCAN"};
    for (int a = 0; a < (int)(sizeof alg / sizeof alg[0]); a++)
        if (alg[a] && dh_pset_put(vars, alg[a], alg[a], a + 1, DH_P_WORKLOAD)) {
            snprintf(why, len, "%s: more than %d names in its parameters, sizes and derived "
                     "counts", c->bench_name, DH_MAX_PARAMS);
            return -DH_E_DATA;
        }
    return 0;
}

/* a rule's `when`: space-separated name=v1,v2 (variant or a parameter) */
static int rule_applies(const struct dh_case *c, const char *when)
{
    char tok[128];
    for (const char *p = when; (p = dh_kit_word(p, tok, sizeof tok, NULL));) {
        char *eq = strchr(tok, '=');
        if (!eq)
            return 0;
        *eq = 0;
        if (!in_list(eq + 1, !strcmp(tok, "variant") ? c->variant : ptext(c, tok)))
            return 0;
    }
    return 1;
}

long dh_kit_remaps(const struct dh_case *c, const struct dh_pset *cfg, char *why, size_t len)
{
    const struct dh_kit *k = c && c->bench ? c->bench->kit : NULL;
    if (why && len)
        why[0] = 0;
    if (!k || !k->remaps)
        return 1;
    struct dh_case cc = *c;
    struct dh_pset vars;
    char w[256];
    long v = 1;
    for (int i = 0; cfg && i < cfg->n; i++)
        dh_pset_put(&cc.params, cfg->v[i].name, cfg->v[i].text, cfg->v[i].num, cfg->v[i].kind);
    int bad = dh_kit_vars(&cc, &vars, w, sizeof w) ||
              dh_expr_eval(k->remaps, &vars, 32, 1024, dh_pset_num(&vars, "items", 0), &v, w,
                           sizeof w);
    if (!bad && v < 1) {
        snprintf(w, sizeof w, "is %ld: must be at least 1", v);
        bad = 1;
    }
    if (bad) {
        if (why && len)
            snprintf(why, len, "%s: remaps \"%s\": %s", c->bench_name, k->remaps, w);
        return 1;
    }
    return v;
}

int dh_kit_remap_plan(const struct dh_case *c, const struct dh_pset *cfg,
                      struct dh_kremap_use *out, int max, char *why, size_t len)
{
    const struct dh_kit *k = c && c->bench ? c->bench->kit : NULL;
    if (why && len)
        why[0] = 0;
    if (!k || !k->remap_plan)
        return -1;
    struct dh_case cc = *c;
    for (int i = 0; cfg && i < cfg->n; i++)
        dh_pset_put(&cc.params, cfg->v[i].name, cfg->v[i].text, cfg->v[i].num, cfg->v[i].kind);
    struct dh_pset vars;
    char w[256];
    if (dh_kit_vars(&cc, &vars, w, sizeof w)) {
        if (why && len)
            snprintf(why, len, "%s: remap_plan: %s", c->bench_name, w);
        return -DH_E_DATA;
    }
    long items = (long)dh_pset_num(&vars, "items", 0);
    int n = 0;
    for (const struct dh_kremap *r = k->remap_plan; r->form; r++) {
        if (r->when && !rule_applies(&cc, r->when))
            continue;
        long keys = 0, times = 1;
        const char *bad = NULL;
        if (dh_expr_eval(r->keys, &vars, 32, 1024, items, &keys, w, sizeof w))
            bad = r->keys;
        else if (r->times && dh_expr_eval(r->times, &vars, 32, 1024, items, &times, w, sizeof w))
            bad = r->times;
        else if (keys < 1 || times < 0)
            snprintf(w, sizeof w, "%s", keys < 1 ? "keys below 1" : "times below 0"),
                bad = keys < 1 ? r->keys : r->times;
        if (bad) {
            if (why && len)
                snprintf(why, len, "%s: remap_plan \"%s\": %s", c->bench_name, bad, w);
            return -DH_E_DATA;
        }
        if (!times)
            continue;
        if (n < max)
            out[n] = (struct dh_kremap_use){r->form, keys, times};
        n++;
    }
    return n;
}


/* ---- constraints, memory, defines ---- */

/* sort_by's buffer and the number of its keys (0 where none is declared) */
static int sort_by_keys(const struct dh_kit *k, const struct dh_pset *vars, int *nk, char *why,
                        size_t len)
{
    long v = 0;
    *nk = 0;
    if (!k->sort_by)
        return 0;
    int b = dh_kit_buf_index(k, k->sort_by);
    if (b < 0 || !(k->bufs[b].flags & DH_KB_ITEM) || !dh__kit_is_input(&k->bufs[b])
        || (k->bufs[b].type != DH_T_I32 && k->bufs[b].type != DH_T_U32)) {
        snprintf(why, len, "sort_by \"%s\" is not a per-item int input buffer", k->sort_by);
        return -DH_E_DATA;
    }
    char w[256];
    if (!k->sort_keys || dh_expr_eval(k->sort_keys, vars, 32, 1024, dh_pset_num(vars, "items", 0),
                                      &v, w, sizeof w) || v < 1 || v > INT32_MAX) {
        snprintf(why, len, "sort_keys \"%s\": %s", k->sort_keys ? k->sort_keys : "(none)",
                 k->sort_keys ? (v < 1 ? "must be at least 1" : w) : "declare the number of keys");
        return -DH_E_DATA;
    }
    *nk = (int)v;
    return 0;
}

int dh_kit_check(const struct dh_case *c, const struct dh_device_info *dev, char *why,
                 size_t len)
{
    const struct dh_kit *k = kit_of(c);
    struct dh_pset vars;
    long items, count[DH_KIT_MAXBUF];
    int nk;
    if (dh_kit_dims(k, c, &vars, &items, count, why, len)
        || sort_by_keys(k, &vars, &nk, why, len) || dh_kit_vars(c, &vars, why, len))
        return -DH_E_CONSTRAINT;
    if (!entry_of(k, c)) {
        snprintf(why, len, "%s has no kernel entry for %s%s", c->bench_name, c->variant,
                 is_rr(c) ? " with mech=rr" : "");
        return -DH_E_CONSTRAINT;
    }
    int wg = (int)pnum(c, "wg", 256);
    if (wg < 1 || items % wg) {
        snprintf(why, len, "wg=%d does not divide the %ld %s of size %s: use a power of two",
                 wg, items, k->noun ? k->noun : "items", c->size);
        return -DH_E_CONSTRAINT;
    }
    for (int b = 0; b < k->n_bufs; b++) {
        uint64_t bytes = (uint64_t)count[b] * dh_ktype_size(k->bufs[b].type);
        if ((k->bufs[b].flags & DH_KB_OWN) && !k->verify_more) {
            snprintf(why, len, "buffer %s is judged by verify_more, which %s does not declare",
                     k->bufs[b].name, c->bench_name);
            return -DH_E_DATA;
        }
        if (used_by(&k->bufs[b], c->variant) && dev && dev->max_alloc_bytes
            && bytes > dev->max_alloc_bytes) {
            snprintf(why, len, "buffer %s needs %llu bytes, the device allocates at most %llu "
                     "in one buffer: use a smaller size or workload", k->bufs[b].name,
                     (unsigned long long)bytes, (unsigned long long)dev->max_alloc_bytes);
            return -DH_E_CONSTRAINT;
        }
    }
    int rc = dh_regroup_check(c, dev, why, len);
    if (rc)
        return rc;
    double warp = dev && dev->warp_width ? dev->warp_width : 32;
    double max_wg = dev && dev->max_wg ? (double)dev->max_wg : 1024;
    for (const struct dh_krule *r = k->rules; r && r->holds; r++) {
        long v = 0;
        char w[256];
        if (!rule_applies(c, r->when))
            continue;
        if (dh_expr_eval(r->holds, &vars, warp, max_wg, (double)items, &v, w, sizeof w)) {
            snprintf(why, len, "%s: rule \"%s\": %s", c->bench_name, r->holds, w);
            return -DH_E_DATA;
        }
        if (!v) {
            snprintf(why, len, "%s", r->why);
            return -DH_E_CONSTRAINT;
        }
    }
    struct dh_pset dv = vars;
    if (assign_list(k->define, "define", &dv, warp, max_wg, NULL, why, len))
        return -DH_E_DATA;
    if (!strcmp(c->variant, "gpu_tdr")) {
        const char *alg = ptext(c, "alg");
        if (!dh_kit_alg_code(alg)) {
            snprintf(why, len, "alg=%s is not a remap the kit knows (hot, dgi, hot_warp, "
                     "dgi_scan, hot_dgi, hot_warp_scan, static, refill, natkey_dgi, natkey_scan, "
                     "model_dgi, model_scan, lean_dgi, lean_scan, scan_multi, count_multi, adapt_scan, buy_pool, key_regroup, key_buy_pool, "
                     "kind_buy_pool, key_dlt, key_dlt_buy_pool, key_dlt_kind_buy_pool, static_trips, meld_buy_pool, meld_key_dlt): fix %s's alg domain", alg,
                     c->bench_name);
            return -DH_E_DATA;
        }
        /* a form another benchmark writes (a selection of several
         * benchmarks passes one alg list to all of them) */
        const struct dh_param_def *ad = dh_param_find(c->bench->params, "alg");
        if (ad && ad->domain && !strncmp(ad->domain, "enum:", 5)
            && !in_list(ad->domain + 5, alg)) {
            snprintf(why, len, "alg=%s is not one of %s's remap forms (%s)", alg, c->bench_name,
                     ad->domain + 5);
            return -DH_E_CONSTRAINT;
        }
        int votes = strstr(alg, "warp") || strstr(alg, "scan");
        if (votes) {
            /* the forms without votes, from the declared domain */
            char portable[128] = "";
            const struct dh_param_def *d = dh_param_find(c->bench->params, "alg");
            const char *p = d && !strncmp(d->domain, "enum:", 5) ? d->domain + 5 : "";
            int n = 0;
            while (*p) {
                size_t l = strcspn(p, ",");
                char a[32];
                snprintf(a, sizeof a, "%.*s", (int)l, p);
                if (!strstr(a, "warp") && !strstr(a, "scan"))
                    snprintf(portable + strlen(portable), sizeof portable - strlen(portable),
                             "%s%s", n++ ? " and " : "", a);
                p += l + (p[l] == ',');
            }
            if ((rc = dh_warp_votes_check(c, dev, alg, portable, why, len)))
                return rc;
        }
        long bytes = 0;
        struct dh_pset lv = vars;
        if (assign_list(k->local, "local", &lv, warp, max_wg, &bytes, why, len))
            return -DH_E_DATA;
        if (dev && dev->local_mem_bytes && (uint64_t)bytes > dev->local_mem_bytes) {
            snprintf(why, len, "the remap needs %ld bytes of local memory, the device has "
                     "%llu: use a smaller wg%s", bytes,
                     (unsigned long long)dev->local_mem_bytes, votes ? "" : " or a larger nf");
            return -DH_E_CONSTRAINT;
        }
    }
    return k->check ? k->check(c, &vars, dev, why, len) : 0;
}

uint64_t dh_kit_bytes(const struct dh_case *c, int rotate)
{
    const struct dh_kit *k = kit_of(c);
    struct dh_pset vars;
    long items, count[DH_KIT_MAXBUF];
    char why[256];
    if (dh_kit_dims(k, c, &vars, &items, count, why, sizeof why))
        return 0;
    uint64_t total = is_rr(c) ? (uint64_t)items * 4 : 0;
    for (int b = 0; b < k->n_bufs; b++) {
        const struct dh_kbuf *d = &k->bufs[b];
        if (!used_by(d, c->variant))
            continue;
        uint64_t copies = (d->flags & DH_KB_ROTATE) && d->role == DH_IN && rotate > 1
                              ? (uint64_t)rotate : 1;
        total += copies * (uint64_t)count[b] * dh_ktype_size(d->type);
    }
    return total;
}

int dh_kit_defines(const struct dh_case *c, const struct dh_device_info *dev, char *buf,
                   size_t len)
{
    const struct dh_kit *k = kit_of(c);
    struct dh_pset vars;
    char why[512], name[32], expr[DH_EXPR_MAX + 1];
    size_t o = 0;
    buf[0] = 0;
    if (dh_kit_vars(c, &vars, why, sizeof why))
        return -DH_E_DATA;
    long items = (long)dh_pset_num(&vars, "items", 0);
    for (const char *p = k->define; (p = next_assign(p, name, sizeof name, expr, sizeof expr));) {
        long v;
        if (!name[0] || dh_expr_eval(expr, &vars, dev && dev->warp_width ? dev->warp_width : 32,
                                     1024, (double)items, &v, why, sizeof why))
            return -DH_E_DATA;
        o += (size_t)snprintf(buf + o, len - o, "%s-D %s=%ld", o ? " " : "", name, v);
        if (o >= len)
            return -DH_E_INTERNAL;
    }
    if (k->defines) {
        if (o + 2 >= len)
            return -DH_E_INTERNAL;
        int rc = k->defines(c, &vars, dev, buf + o + !!o, len - o - !!o);
        if (rc)
            return rc;
        if (o && buf[o + 1])
            buf[o] = ' ';
        o = strlen(buf);
    }
    const char *sep = o ? " " : "";
    if (!strcmp(c->variant, "gpu_tdr"))
        o += (size_t)snprintf(buf + o, len - o, "%s-D TDR_ALG=%d -D TDR_NF=%d", sep,
                              dh_kit_alg_code(ptext(c, "alg")), (int)pnum(c, "nf", 16));
    else if (!strcmp(c->variant, "melded"))
        o += (size_t)snprintf(buf + o, len - o, "%s-D DH_MELDED=1", sep);
    return o < len ? 0 : -DH_E_INTERNAL;
}

/* ---- host data ---- */

/* the host data's buffers for case c, allocated and zeroed */
static int host_alloc(const struct dh_case *c, struct dh_khost **out, struct dh_err *err)
{
    const struct dh_kit *k = kit_of(c);
    struct dh_khost *h = calloc(1, sizeof *h);
    if (!h)
        return dh_err_set(err, DH_E_RESOURCES, "%s: out of host memory", c->bench_name);
    h->kit = k;
    h->c = c;
    char why[512];
    if (dh_kit_dims(k, c, &h->vars, &h->items, h->count, why, sizeof why)
        || sort_by_keys(k, &h->vars, &h->sort_nk, why, sizeof why)) {
        free(h);
        return dh_err_set(err, DH_E_DATA, "%s/%s: %s", c->suite, c->bench_name, why);
    }
    for (int b = 0; b < k->n_bufs; b++) {
        const struct dh_kbuf *d = &k->bufs[b];
        size_t bytes = (size_t)h->count[b] * dh_ktype_size(d->type);
        if (dh__kit_is_input(d) && !d->gather)
            h->data[b] = calloc(1, bytes);
        if (dh__kit_is_output(d))
            h->want[b] = calloc(1, bytes);
        if ((dh__kit_is_input(d) && !d->gather && !h->data[b]) || (dh__kit_is_output(d) && !h->want[b])) {
            dh_kit_release(h);
            return dh_err_set(err, DH_E_RESOURCES, "%s: out of host memory for buffer %s "
                              "(%zu bytes)", c->bench_name, d->name, bytes);
        }
    }
    *out = h;
    return 0;
}

/* checked once: the timed sort trusts them */
static int check_sort_keys(const struct dh_khost *h, struct dh_err *err)
{
    const struct dh_kit *k = h->kit;
    if (!k->sort_by)
        return 0;
    const int *key = h->data[dh_kit_buf_index(k, k->sort_by)];
    for (long i = 0; i < h->items; i++)
        if (key[i] < 0 || key[i] >= h->sort_nk)
            return dh_err_set(err, DH_E_INTERNAL, "%s: sort key %s[%ld] = %d is outside "
                              "0 .. %d (the benchmark's generator)", h->c->bench_name,
                              k->sort_by, i, key[i], h->sort_nk - 1);
    return 0;
}

int dh_kit_setup(const struct dh_case *c, void **state, struct dh_err *err)
{
    struct dh_khost *h;
    int rc = host_alloc(c, &h, err);
    if (rc)
        return rc;
    const struct dh_kit *k = h->kit;
    struct dh_pset before = h->vars;
    rc = k->generate(h, err);
    if (!rc)
        rc = check_sort_keys(h, err);
    if (!rc)
        rc = k->reference(h, err);
    if (rc) {
        dh_kit_release(h);
        return rc;
    }
    /* the names they added, for the workload cache (more than fit: n
     * past the array, and dh_kit_host_parts refuses to store them) */
    for (int i = 0; i < h->vars.n; i++) {
        const struct dh_pval *v = &h->vars.v[i];
        const struct dh_pval *was = dh_pset_find(&before, v->name);
        if (was && was->num == v->num)
            continue;
        if (h->made.n < DH_KIT_MAXMADE) {
            snprintf(h->made.v[h->made.n].name, sizeof h->made.v[0].name, "%s", v->name);
            h->made.v[h->made.n].num = v->num;
        }
        h->made.n++;
    }
    *state = h;
    return 0;
}

/* the host buffers in a fixed order: each buffer's input, then its
 * expected output */
static int host_parts(const struct dh_khost *h, struct dh_kpart *parts)
{
    int n = 0;
    for (int b = 0; b < h->kit->n_bufs; b++) {
        size_t bytes = (size_t)h->count[b] * dh_ktype_size(h->kit->bufs[b].type);
        if (h->data[b])
            parts[n++] = (struct dh_kpart){h->data[b], bytes};
        if (h->want[b])
            parts[n++] = (struct dh_kpart){h->want[b], bytes};
    }
    parts[n++] = (struct dh_kpart){(void *)&h->made, sizeof h->made};
    return n;
}

int dh_kit_host_parts(void *state, struct dh_kpart *parts, int *n)
{
    const struct dh_khost *h = state;
    if ((h->priv && !h->kit->restore) || h->made.n > DH_KIT_MAXMADE)
        return -1;
    *n = host_parts(h, parts);
    return 0;
}

int dh_kit_setup_loaded(const struct dh_case *c, void **state,
                        int (*fill)(void *ctx, const struct dh_kpart *parts, int n,
                                    struct dh_err *err),
                        void *ctx, struct dh_err *err)
{
    struct dh_khost *h;
    int rc = host_alloc(c, &h, err);
    if (rc)
        return rc;
    struct dh_kpart parts[DH_KIT_MAXPARTS];
    int n = host_parts(h, parts);
    rc = fill(ctx, parts, n, err);
    /* the names the generator had added, back into vars */
    if (!rc && h->made.n > DH_KIT_MAXMADE)
        rc = dh_err_set(err, DH_E_DATA, "%u derived names stored, at most %d fit",
                        h->made.n, DH_KIT_MAXMADE);
    for (uint32_t i = 0; !rc && i < h->made.n; i++) {
        char *nm = h->made.v[i].name;
        if (!memchr(nm, 0, sizeof h->made.v[i].name) || !nm[0])
            rc = dh_err_set(err, DH_E_DATA, "derived name %u is not a name", i);
        else if (dh_pset_put(&h->vars, nm, "", h->made.v[i].num, DH_P_WORKLOAD))
            rc = dh_err_set(err, DH_E_DATA, "no room for derived name %s", nm);
    }
    if (!rc && h->kit->restore)
        rc = h->kit->restore(h, err);
    if (!rc)
        rc = check_sort_keys(h, err);
    if (rc) {
        dh_kit_release(h);
        return rc;
    }
    *state = h;
    return 0;
}

void dh_kit_release(void *state)
{
    struct dh_khost *h = state;
    if (!h)
        return;
    for (int b = 0; b < DH_KIT_MAXBUF; b++) {
        free(h->data[b]);
        free(h->want[b]);
    }
    if (h->priv && h->kit->free_priv)
        h->kit->free_priv(h->priv);
    free(h);
}

long dh_kit_items(void *state)
{
    return ((struct dh_khost *)state)->items;
}

/* ---- the remap ceiling ---- */

double dh_kit_ceiling(void *state, const struct dh_case *c, int warp)
{
    struct dh_khost *h = state;
    const struct dh_kit *k = h->kit;
    if (!k->branch || strcmp(c->variant, "gpu_tdr"))
        return 0;
    int wg = (int)pnum(c, "wg", 256);
    if (h->ceil_wg == wg && h->ceil_warp == warp)
        return h->ceil;
    int *key = malloc((size_t)h->items * sizeof *key);
    if (!key)
        return 0;
    double co = 0, cs = 0;
    const double *cost = NULL;
    int paths;
    for (long layer = 0; (paths = k->branch(h, layer, key, &cost)) > 0; layer++, cost = NULL)
        dh_ceiling_layer_w(key, h->items, wg, warp, paths, cost, &co, &cs);
    free(key);
    h->ceil_wg = wg;
    h->ceil_warp = warp;
    h->ceil = cs > 0 ? co / cs : 0;
    return h->ceil;
}
