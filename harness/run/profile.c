/* profile.c — the workload's basic-block vectors, when a case needs them
 * (a BBV regrouping) or the model prices it (baseline and cpu_tdr runs):
 * one run of the baseline kernel's profiling build (-D DH_BBV), verified
 * like any run, counters downloaded and checked for overflow. Obtained
 * once per workload; a failure is kept too, so the variants of one
 * workload do not repeat it.
 *
 * DH_BBV_WINDOW=K (a benchmark that marks DH_BBV_STEP and says its
 * iterations, dh_bench bbv_steps): ordered BBVs, one row per item per
 * window of K iterations, ceil(iterations / K) windows; the buffer
 * (items x windows x blocks x 4 bytes) must fit DH_BBV_LIMIT_MB (default
 * 4096) and the device's largest allocation, else the profile is refused
 * with the figures. The windows summed are the ordinary BBVs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../suites/lib/regroup.h"
#include "../model/sasscost.h"
#include "source.h"
#include "steps.h"

int dh__profile_buffer(struct dh_worker *w, const struct dh_bench *b, int windows,
                       struct dh_buffer **buf, long *items, struct dh_err *e)
{
    *items = b->items(w->state);
    size_t bytes = (size_t)*items * (size_t)b->n_blocks * (size_t)(windows > 1 ? windows : 1) * 4;
    uint32_t *zero = calloc(1, bytes);
    if (!zero)
        return dh_err_set(e, DH_E_RESOURCES, "out of host memory for %zu bytes of BBVs", bytes);
    int rc = w->be->alloc(w->dev, bytes, buf, e);
    if (!rc && (rc = w->be->copy(*buf, zero, bytes, DH_TO_DEVICE, e))) {
        w->be->free_buffer(*buf);
        *buf = NULL;
    }
    free(zero);
    return rc;
}

/* w->bbv_counts, profiled or from the workload cache, as the workload's
 * BBVs; a saturated counter is an overflow either way */
static int bbv_adopt(struct dh_worker *w, const struct dh_bench *b, long items,
                     struct dh_err *e)
{
    w->bbv.n_items = items;
    w->bbv.n_blocks = b->n_blocks;
    w->bbv.counts = w->bbv_counts;
    w->bbv.block_cost = w->bbv_cost;
    w->bbv.n_windows = w->bbv_wcounts ? w->bbv_nwin : 1;
    w->bbv.window = w->bbv_wcounts ? (int)w->bbv_window : 0;
    w->bbv.win_counts = w->bbv_wcounts;
    snprintf(w->bbv.source, sizeof w->bbv.source, "profile");
    int blk = 0;
    long it = dh_bbv_overflow(&w->bbv, &blk);
    if (it >= 0)
        return dh_err_set(e, DH_E_OVERFLOW, "BBV counter overflow: block %d (%s) of item %ld "
                          "passed 2^32-1 executions%s; use a smaller size or fewer iterations",
                          blk, b->blocks[blk].name, it,
                          w->bbv_wcounts ? " (or the item ran more DH_BBV_STEP iterations "
                                           "than the benchmark's bbv_steps says)" : "");
    return 0;
}

/* DH_BBV_WINDOW (*k, 0: unset, windows off) and DH_BBV_LIMIT_MB (*limit,
 * bytes); a bad value is an error naming it and the fix. */
static int window_env(long *k, uint64_t *limit, struct dh_err *e)
{
    const char *s = getenv("DH_BBV_WINDOW");
    char *end;
    *k = 0;
    *limit = (uint64_t)4096 << 20;
    if (s && *s) {
        long v = strtol(s, &end, 10);
        if (*end || v < 1)
            return dh_err_set(e, DH_E_USAGE, "DH_BBV_WINDOW=%.60s: give the iterations per "
                              "window of ordered BBVs, a positive integer (unset: the totals)",
                              s);
        *k = v;
    }
    s = getenv("DH_BBV_LIMIT_MB");
    if (s && *s) {
        double v = strtod(s, &end);
        if (*end || !(v > 0) || v > 1e9)
            return dh_err_set(e, DH_E_USAGE, "DH_BBV_LIMIT_MB=%.60s: give the largest ordered "
                              "BBV buffer in MiB, a positive number", s);
        *limit = (uint64_t)(v * 1048576.0);
    }
    return 0;
}

/* The windows of this workload's profiling build: w->bbv_nwin and
 * w->bbv_window (1 and 0 when off, the benchmark marks no step, or its
 * loop is one window); an error when the buffer is over the limit. */
static int window_plan(struct dh_worker *w, const struct dh_bench *b, struct dh_err *e)
{
    long k;
    uint64_t limit, bytes;
    int rc;
    w->bbv_nwin = 1;
    w->bbv_window = 0;
    if ((rc = window_env(&k, &limit, e)) || !k || !b->bbv_steps)
        return rc;
    if (w->info.max_alloc_bytes && w->info.max_alloc_bytes < limit)
        limit = w->info.max_alloc_bytes;
    if ((rc = dh_bbv_window_plan(b->items(w->state), b->n_blocks, b->bbv_steps(w->state), k,
                                 limit, &w->bbv_nwin, &bytes, e)))
        return rc;
    w->bbv_window = w->bbv_nwin > 1 ? k : 0;
    return 0;
}

/* The profiling run and the download are timed: acquire_ms is what a new
 * input costs before a BBV regrouping can start. */
static int acquire(struct dh_worker *w, const struct dh_case *c, struct dh_err *e)
{
    const struct dh_bench *b = c->bench;
    struct dh_case bc = *c;
    snprintf(bc.variant, sizeof bc.variant, "baseline");
    char opts[4096];
    int rc;
    if ((rc = window_plan(w, b, e)))
        return rc;
    int nwin = w->bbv_nwin;
    if ((rc = dh__build_options(w, &bc, 1, opts, sizeof opts)))
        return dh_err_set(e, DH_E_INTERNAL, "build options do not fit");
    if (nwin > 1) {
        size_t o = strlen(opts);
        int n = snprintf(opts + o, sizeof opts - o, " -D DH_BBV_WIN=%ld -D DH_BBV_WINS=%d",
                         w->bbv_window, nwin);
        if (n < 0 || (size_t)n >= sizeof opts - o)
            return dh_err_set(e, DH_E_INTERNAL, "build options do not fit");
    }
    char *src = dh_source_assemble(&bc);
    if (!src)
        return dh_err_set(e, DH_E_RESOURCES, "out of host memory");
    struct dh_exec x = {.be = w->be, .dev = w->dev, .info = &w->info, .c = &bc, .rotate = 1};
    /* the workload cache holds BBVs of this workload, source, options and
     * device: no profiling run */
    struct dh_store_key key = {{0}};
    if (w->wkey_ok) {
        dh__wcache_bbv_key(w, &bc, &w->wkey, src, opts, &key);
        long items = b->items(w->state);
        if (!(w->bbv_cost = malloc((size_t)b->n_blocks * 8))) {
            free(src);
            return dh_err_set(e, DH_E_RESOURCES, "out of host memory");
        }
        uint32_t *got = NULL;
        if (dh__wcache_bbv_load(w, c, &key, items, b->n_blocks, nwin, &got,
                                &w->bbv.acquire_ms)) {
            free(src);
            if (nwin > 1) {
                w->bbv_wcounts = got;
                if (!(w->bbv_counts = malloc((size_t)items * b->n_blocks * 4 + 1)))
                    return dh_err_set(e, DH_E_RESOURCES, "out of host memory for BBVs");
                dh_bbv_window_sum(got, items, nwin, b->n_blocks, w->bbv_counts);
            } else {
                w->bbv_counts = got;
            }
            return bbv_adopt(w, b, items, e);
        }
    }
    char *log = NULL;
    rc = w->be->build(w->dev, src, opts, &x.prog, &log, NULL, e);
    free(src);
    if (rc) {
        if (log) {
            char first[300];
            snprintf(first, sizeof first, "%s", log);
            dh_err_set(e, -rc, "the profiling build (DH_BBV) failed: %s", first);
        }
        free(log);
        return rc;
    }
    free(log);
    struct dh_sample s;
    struct dh_verify v;
    long items = 0;
    size_t bytes = 0;
    double t0 = 0;
    uint32_t *dst = NULL;
    if ((rc = b->upload(w->state, &x, e))
        || (rc = dh__profile_buffer(w, b, nwin, &x.bbv_buf, &items, e)))
        goto out;
    bytes = (size_t)items * (size_t)b->n_blocks * (size_t)nwin * 4;
    if (!(w->bbv_counts = malloc((size_t)items * (size_t)b->n_blocks * 4 + 1))
        || (nwin > 1 && !(w->bbv_wcounts = malloc(bytes)))
        || (!w->bbv_cost && !(w->bbv_cost = malloc((size_t)b->n_blocks * 8)))) {
        rc = dh_err_set(e, DH_E_RESOURCES, "out of host memory for %zu bytes of BBVs", bytes);
        goto out;
    }
    /* the counters land here: the windows, or the totals themselves */
    dst = nwin > 1 ? w->bbv_wcounts : w->bbv_counts;
    /* one untimed launch first (a runtime may compile lazily at the first
     * launch, a one-time cost), then zeroed counters, the timed run and
     * the download */
    if ((rc = b->run(w->state, &x, -299, &s, e)))
        goto out;
    memset(dst, 0, bytes);
    if ((rc = w->be->copy(x.bbv_buf, dst, bytes, DH_TO_DEVICE, e))
        || (rc = b->poison(w->state, &x, e)))
        goto out;
    t0 = dh_now_ms();
    if ((rc = b->run(w->state, &x, -300, &s, e))
        || (rc = w->be->copy(x.bbv_buf, dst, bytes, DH_TO_HOST, e)))
        goto out;
    if (nwin > 1)
        dh_bbv_window_sum(dst, items, nwin, b->n_blocks, w->bbv_counts);
    w->bbv.acquire_ms = dh_now_ms() - t0;
    if ((rc = b->verify(w->state, &x, &v, e)))
        goto out;
    if (v.mismatches) {
        rc = dh_err_set(e, DH_E_WRONG, "the profiling build (DH_BBV) gives wrong results: "
                        "%ld of %ld outputs differ", v.mismatches, v.checked);
        goto out;
    }
    if (!(rc = bbv_adopt(w, b, items, e)) && w->wkey_ok)
        dh__wcache_bbv_save(w, c, &key, items, b->n_blocks, nwin, dst, w->bbv.acquire_ms);
out:
    dh__exec_teardown(w, b, &x);
    return rc;
}

/* DH_BLOCK_COSTS=sass: the block costs of the baseline kernel's compiled
 * code (harness/model/sasscost.h), once per workload: per execution,
 * issue cycles (the sm_90 opcode table) and instructions. A block the
 * code gives none (its lines shared with another block, say) keeps its
 * hand cost, and the record says "sass+hand". Where the compile or the
 * disassembler is missing the hand costs stay, the record says "hand",
 * and the reason goes to stderr once. The arch: the device's sm_XY, else
 * DH_SASS_ARCH (e.g. 90, to price H100 code from a PoCL run). */
static void sass_costs(struct dh_worker *w, const struct dh_case *c)
{
    const struct dh_bench *b = c->bench;
    const char *sel = getenv("DH_BLOCK_COSTS");
    /* measured: these until the baseline's counts are in (measured_costs.c) */
    if (sel && !strcmp(sel, "measured"))
        sel = NULL;
    /* unset: the benchmark's own preference, taken where it can be had
     * (the device's code is CUDA's or HIP's for an sm_XY, or DH_SASS_ARCH
     * names one) and quietly left for the hand table where not */
    int preferred = (!sel || !*sel) && b->costs;
    if (preferred)
        sel = b->costs;
    int pred = sel && !strcmp(sel, "sass+pred");
    if (!sel || (strcmp(sel, "sass") && !pred) || w->bbv_sass_tried)
        return;
    w->bbv_sass_tried = 1;
    int cc = 0;
    const char *env_cc = getenv("DH_SASS_ARCH");
    int own = sscanf(w->info.arch, "sm_%d", &cc) == 1;
    if (preferred && own && strcmp(w->info.platform, "CUDA") && strcmp(w->info.platform, "HIP"))
        own = 0, cc = 0;                 /* NVIDIA's OpenCL: other code */
    if (!own && env_cc)
        cc = atoi(env_cc);
    if (preferred && cc <= 0)
        return;
    struct dh_case bc = *c;
    snprintf(bc.variant, sizeof bc.variant, "baseline");
    char opts[4096];
    char *src = NULL;
    struct dh_err e = {0};
    struct dh_sass_costs sc;
    int rc;
    if (cc <= 0) {
        rc = dh_err_set(&e, DH_E_USAGE, "device %s is not an sm_XY one: set DH_SASS_ARCH "
                        "(e.g. 90)", w->info.name);
    } else if (dh_source_options(&bc, &w->info, opts, sizeof opts) ||
               !(src = dh_source_assemble(&bc))) {
        rc = dh_err_set(&e, DH_E_INTERNAL, "cannot assemble the baseline build");
    } else {
        rc = dh_sass_costs_build(cc, src, opts, b->kernel ? b->kernel(&bc) : NULL,
                                 b->n_blocks, &sc, &e);
    }
    free(src);
    if (rc) {
        if (!preferred)
            fprintf(stderr, "harness: DH_BLOCK_COSTS=%s for %s/%s: %s; hand costs used\n",
                    sel, c->suite, c->bench_name, e.msg);
        return;
    }
    if (!(w->bbv_sass = calloc((size_t)b->n_blocks * 4, sizeof *w->bbv_sass)) ||
        (pred && !(w->bbv_parent = malloc((size_t)b->n_blocks * sizeof *w->bbv_parent)))) {
        free(w->bbv_sass);
        w->bbv_sass = NULL;
        dh_sass_costs_free(&sc);
        return;
    }
    struct dh_latency_table hand;
    double *hc = calloc((size_t)b->n_blocks * 2, sizeof *hc);
    int fallback = 0;
    if (hc && !dh_latency_table_for(&w->info, &hand, &e))
        dh_bbv_block_costs(b->blocks, b->n_blocks, &hand, hc, hc + b->n_blocks);
    for (int k = 0; k < b->n_blocks; k++) {
        if (w->bbv_parent)
            w->bbv_parent[k] = sc.b[k].insts > 0 ? sc.b[k].parent : -1;
        if (sc.b[k].insts > 0) {
            w->bbv_sass[k] = sc.b[k].cost_per_exec;
            w->bbv_sass[b->n_blocks + k] = sc.b[k].inst_per_exec;
            w->bbv_sass[2 * b->n_blocks + k] = sc.b[k].pred_per_exec;
            w->bbv_sass[3 * b->n_blocks + k] = sc.b[k].pred_cost_per_exec;
        } else {
            fallback++;
            w->bbv_sass[k] = hc ? hc[k] : 0;
            w->bbv_sass[b->n_blocks + k] = hc ? hc[b->n_blocks + k] : 0;
        }
    }
    free(hc);
    snprintf(w->bbv_costs, sizeof w->bbv_costs, "%s%s", pred ? "sass+pred" : "sass",
             fallback ? "+hand" : "");
    dh_sass_costs_free(&sc);
}

/* Hand costs: a table's guarded blocks (dh_bb_def.guarded_in) are
 * guarded code inside another block, issued whenever the warp runs that
 * one (bbv.c prices them as the compiled costs' guarded part under
 * DH_BLOCK_COSTS=sass+pred, the whole block guarded). inst: the table's
 * issued instructions per block, w->bbv_cost its cycles. A table naming
 * no block of its own is a bug of the benchmark: said on stderr once, and
 * its guards are then priced as branches. */
static void hand_guards(struct dh_worker *w, const struct dh_bench *b, int nb, const double *inst)
{
    if (!w->bbv_hparent) {
        struct dh_err e = {0};
        int *parent = malloc((size_t)nb * sizeof *parent);
        int n = parent ? dh_bbv_guard_parents(b->blocks, nb, parent, &e) : 0;
        if (n < 0)
            fprintf(stderr, "harness: %s/%s's block table: %s; its guarded blocks priced as "
                    "branches\n", b->suite, b->name, e.msg);
        if (n <= 0 || !(w->bbv_hguard = calloc((size_t)nb * 2, sizeof *w->bbv_hguard))) {
            free(parent);
            return;
        }
        w->bbv_hparent = parent;
    }
    for (int k = 0; k < nb; k++) {
        int g = w->bbv_hparent[k] >= 0;
        w->bbv_hguard[k] = g ? inst[k] : 0;
        w->bbv_hguard[nb + k] = g ? w->bbv_cost[k] : 0;
    }
    w->bbv.pred_inst = w->bbv_hguard;
    w->bbv.pred_cost = w->bbv_hguard + nb;
    w->bbv.parent = w->bbv_hparent;
}

/* The table's blocks decided each iteration (dh_bb_def.each), priced by
 * their expected runs whatever the costs (bbv.h). A table naming no
 * block of its own is a bug of the benchmark: said on stderr once, and
 * those blocks are then priced by the max over lanes. */
static void each_loops(struct dh_worker *w, const struct dh_bench *b, int nb)
{
    if (!w->bbv_each) {
        struct dh_err e = {0};
        int *each = malloc((size_t)nb * sizeof *each);
        int n = each ? dh_bbv_each_loops(b->blocks, nb, each, &e) : 0;
        if (n < 0)
            fprintf(stderr, "harness: %s/%s's block table: %s; those blocks priced by the most "
                    "of any lane's runs\n", b->suite, b->name, e.msg);
        if (n <= 0) {
            free(each);
            each = NULL;
        }
        w->bbv_each = each;
    }
    w->bbv.each = w->bbv_each;
}

/* The workload's BBVs for case c, obtained once per workload. */
static const struct dh_bbv *workload_bbv(struct dh_worker *w, const struct dh_case *c,
                                         const struct dh_latency_table *t)
{
    if (!w->bbv_tried) {
        struct dh_err e = {0};
        w->bbv_tried = 1;
        w->bbv_status = acquire(w, c, &e);
        if (w->bbv_status) {
            snprintf(w->bbv_message, sizeof w->bbv_message, "%s",
                     e.msg[0] ? e.msg : dh_strerror(w->bbv_status));
            free(w->bbv_counts);
            free(w->bbv_wcounts);
            w->bbv_counts = w->bbv_wcounts = NULL;
            memset(&w->bbv, 0, sizeof w->bbv);
        }
    }
    if (w->bbv_status)
        return NULL;
    /* block costs follow the table (the device's, or DH_LATENCY_TABLE) */
    double inst[256];
    int nb = c->bench->n_blocks < 256 ? c->bench->n_blocks : 256;
    dh_bbv_block_costs(c->bench->blocks, nb, t, w->bbv_cost, inst);
    sass_costs(w, c);
    if (w->bbv_sass) {
        memcpy(w->bbv_cost, w->bbv_sass, (size_t)nb * sizeof *w->bbv_cost);
        w->bbv.block_inst = w->bbv_sass + c->bench->n_blocks;
        w->bbv.pred_inst = w->bbv_parent ? w->bbv_sass + 2 * c->bench->n_blocks : NULL;
        w->bbv.pred_cost = w->bbv_parent ? w->bbv_sass + 3 * c->bench->n_blocks : NULL;
        w->bbv.parent = w->bbv_parent;
        snprintf(w->bbv.costs, sizeof w->bbv.costs, "%s", w->bbv_costs);
    } else {
        w->bbv.block_inst = NULL;
        w->bbv.pred_inst = w->bbv.pred_cost = NULL;
        w->bbv.parent = NULL;
        snprintf(w->bbv.costs, sizeof w->bbv.costs, "hand");
        hand_guards(w, c->bench, nb, inst);
    }
    each_loops(w, c->bench, nb);
    /* costs measured at the workload's baseline, once they are in */
    if (!dh__measured_install(w, nb))
        w->bbv.useful_inst = NULL;
    return &w->bbv;
}

int dh__profile_bbv(struct dh_worker *w, const struct dh_case *c,
                    struct dh_latency_table *table, const struct dh_bbv **bbv,
                    int *want_model, struct dh_result *r)
{
    const struct dh_bench *b = c->bench;
    const char *rg = dh_pset_text(&c->params, "regroup", "");
    int need_bbv = dh_regroup_parse(rg) != 0;
    *want_model = c->model && b->blocks && b->items
                  && (!strcmp(c->variant, "baseline") || !strcmp(c->variant, "cpu_tdr"));
    *bbv = NULL;
    if (!need_bbv && !*want_model)
        return 0;
    struct dh_err e = {0};
    int rc;
    if ((rc = dh_latency_table_for(&w->info, table, &e))) {
        dh__step_fail(r, &e, rc);
        return rc;
    }
    uint64_t limit;
    long k;
    if ((rc = window_env(&k, &limit, &e))) {
        dh__step_fail(r, &e, rc);
        return rc;
    }
    const char *costs = getenv("DH_BLOCK_COSTS");
    if (costs && *costs && strcmp(costs, "hand") && strcmp(costs, "sass") &&
        strcmp(costs, "sass+pred") && strcmp(costs, "measured")) {
        rc = dh_err_set(&e, DH_E_USAGE, "DH_BLOCK_COSTS=%.60s: choose hand (the benchmarks' "
                        "tables), sass (the compiled kernel's), sass+pred (and its "
                        "if-converted code issued as often as the block around it) or "
                        "measured (counted per instruction on a CUDA device)", costs);
        dh__step_fail(r, &e, rc);
        return rc;
    }
    if (need_bbv && !(b->blocks && b->items)) {
        r->status = DH_E_UNSUPPORTED;
        snprintf(r->message, sizeof r->message, "regroup=%s needs basic-block vectors "
                 "and %s/%s has no blocks marked", rg, c->suite, c->bench_name);
        return DH_E_UNSUPPORTED;
    }
    if (need_bbv && !c->model) {
        r->status = DH_E_USAGE;
        snprintf(r->message, sizeof r->message, "regroup=%s needs the BBV profiling "
                 "run: drop --no-model", rg);
        return DH_E_USAGE;
    }
    *bbv = workload_bbv(w, c, table);
    if (!*bbv && need_bbv) {
        r->status = w->bbv_status < 0 ? -w->bbv_status : w->bbv_status;
        snprintf(r->message, sizeof r->message, "no BBVs for regroup=%s: %s", rg,
                 w->bbv_message);
        return r->status ? r->status : DH_E_INTERNAL;
    }
    return 0;
}
