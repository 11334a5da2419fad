/* measured_costs.c — DH_BLOCK_COSTS=measured: the model's block costs
 * from per-instruction counts of the baseline kernel as it ran on the
 * device (CUDA: CUPTI SASS metrics), mapped to the blocks through the
 * listing of the same build (harness/model/measured.h). The counts are
 * a pass of their own at the workload's baseline case, after its counters
 * pass (counters.c dh__pc_pass), kept in the program cache; the
 * workload's later cases (its cpu_tdr regroupings: each case runs in a
 * fresh worker, runner.c) are priced with the same costs. A case priced
 * before its workload's baseline ran keeps the costs it would have
 * had.
 *
 * DH_MEASURED_DUMP=DIR writes each workload's counts (DIR/<suite>-<bench>-
 * <hash>.pcs) and per-block costs (DIR/<suite>-<bench>.tsv);
 * DH_MEASURED_LOAD=DIR prices with counts recorded so (on another
 * machine: a PoCL run priced as the H100 with DH_SASS_ARCH=90), in place
 * of a pass. */
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "../model/measured.h"
#include "../model/sasscost.h"
#include "../../backends/cache.h"
#include "source.h"
#include "steps.h"
#include "../support/fs.h"

int dh__measured_install(struct dh_worker *w, int nb)
{
    if (!w->bbv_meas || !w->bbv_cost)
        return 0;
    memcpy(w->bbv_cost, w->bbv_meas, (size_t)nb * sizeof *w->bbv_cost);
    w->bbv.block_inst = w->bbv_meas + nb;
    w->bbv.useful_inst = w->bbv_meas + 2 * nb;
    w->bbv.pred_inst = w->bbv.pred_cost = NULL;
    w->bbv.parent = NULL;
    snprintf(w->bbv.costs, sizeof w->bbv.costs, "measured");
    return 1;
}

/* The workload the counts are of, as text (its workload parameters and
 * tunables: the baseline build's; not the variant's choices), and the
 * file they go to in dir. */
static void counts_key(const struct dh_case *c, const char *dir, char *key, size_t klen,
                       char *path, size_t plen)
{
    char wl[400], tn[300];
    dh_pset_format(&c->params, DH_P_WORKLOAD, wl, sizeof wl);
    dh_pset_format(&c->params, DH_P_TUNABLE, tn, sizeof tn);
    snprintf(key, klen, "%s/%s/%s/%s;%s", c->suite, c->bench_name, c->size, wl, tn);
    if (dir)
        snprintf(path, plen, "%s/%s-%s-%016llx.pcs", dir, c->suite, c->bench_name,
                 (unsigned long long)dh_fnv1a64(key, strlen(key), DH_FNV_OFFSET));
}

static int counts_load(const struct dh_case *c, const char *dir, struct dh_pc_count **pc,
                       long *n, struct dh_err *e)
{
    char key[700], path[4096];
    counts_key(c, dir, key, sizeof key, path, sizeof path);
    char why[4400];
    struct stat sb;
    if (stat(path, &sb))
        return dh_err_set(e, DH_E_IO, "DH_MEASURED_LOAD: no counts for %s (%s): record them "
                          "with DH_MEASURED_DUMP on a CUDA machine", key, path);
    FILE *f = dh_fopen_data(path, DH_DATA_MAX_LISTING, why, sizeof why);
    if (!f)
        return dh_err_set(e, DH_E_DATA, "DH_MEASURED_LOAD: %s", why);
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 65536 + 1 > cap) {
            size_t nc = cap ? 2 * cap : 1 << 20;
            char *t = realloc(text, nc);
            if (!t) {
                free(text);
                fclose(f);
                return dh_err_set(e, DH_E_RESOURCES, "out of host memory reading %s", path);
            }
            text = t;
            cap = nc;
        }
        size_t got = fread(text + len, 1, 65536, f);
        len += got;
        if (got < 65536)
            break;
    }
    fclose(f);
    text[len] = 0;
    int rc = strlen(text) != len
                 ? dh_err_set(e, DH_E_DATA, "a NUL byte in the text")
                 : dh_pc_counts_read(text, key, pc, n, e);
    free(text);
    if (rc) {
        char m[sizeof e->msg];
        snprintf(m, sizeof m, "%s", e->msg);
        return dh_err_set(e, rc < 0 ? -rc : rc, "%s: %s", path, m);
    }
    return 0;
}

/* The baseline's counts kept in the program cache for the workload's
 * other cases, which run in processes of their own (a process counts
 * once: counters.c): keyed by the workload, the device and the build. */
static void cache_keyof(const struct dh_case *c, const struct dh_device_info *info,
                        const char *src, const char *opts, char out[33])
{
    char key[700], ident[1100];
    counts_key(c, NULL, key, sizeof key, NULL, 0);
    snprintf(ident, sizeof ident, "%s | %s", info->name, key);
    dh_cache_key(out, "pc-counts", ident, "", src, opts);
}

static void cache_store(const char *ckey, const char *key, const struct dh_pc_count *pc, long n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f && !dh_pc_counts_write(f, key, pc, n) && !fclose(f))
        dh_cache_store(ckey, buf, len);
    else if (f)
        fclose(f);
    free(buf);
}

static int cache_load(const char *ckey, const char *key, struct dh_pc_count **pc, long *n,
                      struct dh_err *e)
{
    void *data = NULL;
    size_t len = 0;
    if (dh_cache_load(ckey, &data, &len))
        return dh_err_set(e, DH_E_UNAVAILABLE, "no counts of %s's baseline on this device yet: "
                          "run the baseline of the workload first (it is, in one command with "
                          "--variant baseline,...)", key);
    char *text = realloc(data, len + 1);
    if (!text) {
        free(data);
        return dh_err_set(e, DH_E_RESOURCES, "out of host memory");
    }
    text[len] = 0;
    int rc = strlen(text) != len ? dh_err_set(e, DH_E_DATA, "cached counts: a NUL byte")
                                 : dh_pc_counts_read(text, key, pc, n, e);
    free(text);
    return rc;
}

/* DH_MEASURED_DUMP=DIR: the counts, and a per-block table (a section a
 * workload, appended). */
static void dump(const struct dh_case *c, const struct dh_measured *m, const double *lanes,
                 const double *warps, const struct dh_pc_count *pc, long n_pc)
{
    const char *dir = getenv("DH_MEASURED_DUMP");
    if (!dir || !*dir)
        return;
    char key[700], path[4096];
    counts_key(c, dir, key, sizeof key, path, sizeof path);
    FILE *f = fopen(path, "w");
    if (!f || dh_pc_counts_write(f, key, pc, n_pc) || fclose(f))
        fprintf(stderr, "harness: DH_MEASURED_DUMP: cannot write %s\n", path);
    snprintf(path, sizeof path, "%s/%s-%s.tsv", dir, c->suite, c->bench_name);
    if (!(f = fopen(path, "a"))) {
        fprintf(stderr, "harness: DH_MEASURED_DUMP: cannot write %s\n", path);
        return;
    }
    double wo = m->warp_total - m->warp_blocks;
    fprintf(f, "# %s: thread instructions %.6g (%.4f in blocks, %.4f moved to the block "
            "around), predicated-on %.6g, warp instructions %.6g, CFE %.4f; outside the "
            "blocks %.4f of the warp instructions, CFE %.4f\n", key,
            m->thread_total, m->thread_total > 0 ? m->thread_blocks / m->thread_total : 0,
            m->thread_total > 0 ? m->thread_moved / m->thread_total : 0, m->on_total,
            m->warp_total, m->warp_total > 0 ? m->on_total / (32 * m->warp_total) : 0,
            m->warp_total > 0 ? wo / m->warp_total : 0,
            wo > 0 ? (m->on_total - m->on_blocks) / (32 * wo) : 0);
    fprintf(f, "block\tname\tlanes\twarps\tinst\tuseful\tcycles\n");
    for (int k = 0; k < m->nb; k++)
        fprintf(f, "%d\t%s\t%.0f\t%.0f\t%.4f\t%.4f\t%.4f\n", k,
                c->bench->blocks && c->bench->blocks[k].name ? c->bench->blocks[k].name : "?",
                lanes[k], warps[k], m->inst[k], m->useful[k], m->cycles[k]);
    fclose(f);
}

int dh__measured_costs(struct dh_worker *w, const struct dh_case *c, struct dh_exec *x)
{
    const struct dh_bench *b = c->bench;
    const char *sel = getenv("DH_BLOCK_COSTS");
    if (!sel || strcmp(sel, "measured") || w->bbv_meas_tried || !w->bbv.counts)
        return 0;
    int base = !strcmp(c->variant, "baseline");
    struct dh_case bc = *c;
    snprintf(bc.variant, sizeof bc.variant, "baseline");
    w->bbv_meas_tried = 1;
    int nb = b->n_blocks, cc = 0;
    int W = w->info.warp_width > 0 ? w->info.warp_width : 32;
    struct dh_err e = {0};
    struct dh_pc_count *pc = NULL;
    long n_pc = 0;
    char opts[4096], *src = NULL, *listing = NULL;
    size_t nbs = (size_t)(nb > 0 ? nb : 1);
    double *lanes = calloc(nbs, sizeof *lanes), *warps = calloc(nbs, sizeof *warps);
    int *parent = malloc(nbs * sizeof *parent);
    double *meas = malloc(nbs * 3 * sizeof *meas);
    struct dh_bbv_block_use *use = malloc(nbs * sizeof *use);
    struct dh_measured m = {0};
    const char *load = getenv("DH_MEASURED_LOAD"), *env_cc = getenv("DH_SASS_ARCH");
    int rc;
    if (!lanes || !warps || !parent || !meas || !use) {
        rc = dh_err_set(&e, DH_E_RESOURCES, "out of host memory");
        goto out;
    }
    if (sscanf(w->info.arch, "sm_%d", &cc) != 1 || strcmp(w->info.platform, "CUDA"))
        cc = load && *load && env_cc ? atoi(env_cc) : 0;
    if (cc <= 0) {
        rc = dh_err_set(&e, DH_E_USAGE, "device %s is not a CUDA sm_XY one: run with --backend "
                        "cuda, or price counts recorded there (DH_MEASURED_LOAD=DIR with "
                        "DH_SASS_ARCH=XY)", w->info.name);
        goto out;
    }
    if (dh_source_options(&bc, &w->info, opts, sizeof opts) || !(src = dh_source_assemble(&bc))) {
        rc = dh_err_set(&e, DH_E_INTERNAL, "cannot assemble the baseline build");
        goto out;
    }
    char key[700], ckey[33];
    counts_key(c, NULL, key, sizeof key, NULL, 0);
    cache_keyof(c, &w->info, src, opts, ckey);
    /* the counts: recorded, the baseline's kept, or a pass (the baseline) */
    if (load && *load) {
        if ((rc = counts_load(c, load, &pc, &n_pc, &e)))
            goto out;
    } else if (!base) {
        if ((rc = cache_load(ckey, key, &pc, &n_pc, &e)))
            goto out;
    } else if ((rc = dh__pc_pass(w, c, x, &pc, &n_pc, &e))) {
        goto out;
    }
    if (base && !(load && *load))
        cache_store(ckey, key, pc, n_pc);
    if ((rc = dh_sass_listing(cc, src, opts, &listing, &e)))
        goto out;
    /* each block's lane executions, and its warp executions as the model
     * counts them (the launch order, windows where there are) */
    for (long i = 0; i < w->bbv.n_items; i++)
        for (int k = 0; k < nb; k++)
            lanes[k] += w->bbv.counts[(size_t)i * nb + k];
    if (dh_bbv_block_use(&w->bbv, NULL, W, use)) {
        rc = dh_err_set(&e, DH_E_RESOURCES, "out of host memory");
        goto out;
    }
    for (int k = 0; k < nb; k++)
        warps[k] = (double)use[k].issued / W;
    for (int k = 0; k < nb; k++)
        parent[k] = -1;
    struct dh_err eg = {0};
    if (dh_bbv_guard_parents(b->blocks, nb, parent, &eg) < 0)
        for (int k = 0; k < nb; k++)
            parent[k] = -1;
    if ((rc = dh_measured_costs(listing, src, opts, pc, n_pc, lanes, warps, parent, nb, &m, &e)))
        goto out;
    if (base)
        dump(c, &m, lanes, warps, pc, n_pc);
    for (int k = 0; k < nb; k++) {
        /* a block no lane ran keeps the cost it had (it weighs nothing) */
        meas[k] = m.priced[k] ? m.cycles[k] : w->bbv_cost[k];
        meas[nb + k] = m.priced[k] ? m.inst[k]
                       : w->bbv.block_inst ? w->bbv.block_inst[k] : w->bbv_cost[k];
        meas[2 * nb + k] = m.priced[k] ? m.useful[k] : meas[nb + k];
    }
    if (base)
        fprintf(stderr, "harness: measured block costs for %s/%s: %d function%s, %.1f%% of the "
                "thread instructions in blocks, %.1f%% priced with the block around theirs\n",
                c->suite, c->bench_name, m.funcs, m.funcs == 1 ? "" : "s",
                m.thread_total > 0 ? 100 * m.thread_blocks / m.thread_total : 0,
                m.thread_total > 0 ? 100 * m.thread_moved / m.thread_total : 0);
    w->bbv_meas = meas;
    meas = NULL;
    dh__measured_install(w, nb);
out:;
    static char said[sizeof e.msg];          /* the same reason once a process */
    if (rc && strcmp(said, e.msg)) {
        snprintf(said, sizeof said, "%s", e.msg);
        fprintf(stderr, "harness: DH_BLOCK_COSTS=measured for %s/%s: %s; the costs stay %s\n",
                c->suite, c->bench_name, e.msg, w->bbv.costs[0] ? w->bbv.costs : "hand");
    }
    dh_measured_free(&m);
    free(pc);
    free(src);
    free(listing);
    free(lanes);
    free(warps);
    free(parent);
    free(meas);
    free(use);
    return rc == 0;
}
