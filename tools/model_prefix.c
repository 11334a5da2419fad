/* model_prefix.c — the modeled CFE of a BBV sort made on a prefix of a
 * benchmark's blocks: the order `regroup=sort` gave before the blocks
 * after the first K were marked, priced on all of them.
 *
 * Why: a regrouping measured on the GPU (pol's cpu_tdr regroup=sort,
 * CUPTI CFE 0.805 on the H100, 34 blocks then) put items with equal
 * BBVs side by side. Marking more blocks refines the BBVs, and a sort on
 * them is another order; to price the measured order, sort on the old
 * blocks' counts (the new blocks' ids come after the old ones, and the
 * old ones count as before) and price it with the new ones.
 *
 *   build/tools/model_prefix SUITE/BENCH SIZE K
 *
 * Profiles the baseline on the first OpenCL device (as `harness run`
 * does, one untimed-for-us run), sorts the items stably by the first K
 * counters of their BBVs (ties in item order: regroup=sort's order) and
 * prints the modeled CFE at warp 32 of that order and of the launch
 * order. The environment picks the costs as for a run: DH_LATENCY_TABLE,
 * DH_BLOCK_COSTS (hand, sass, sass+pred), DH_SASS_ARCH. Exit 0, 3 when
 * the device or the profile fails, 64 on a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness/model/bbv.h"
#include "../harness/model/price.h"
#include "../harness/run/plan.h"
#include "../harness/run/worker.h"

static const uint32_t *g_counts;
static int g_nb, g_k;

static int prefix_cmp(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    const uint32_t *va = g_counts + (size_t)a * g_nb, *vb = g_counts + (size_t)b * g_nb;
    for (int j = 0; j < g_k; j++)
        if (va[j] != vb[j])
            return va[j] < vb[j] ? -1 : 1;
    return a < b ? -1 : a > b;                   /* stable: item order */
}

int main(int argc, char **argv)
{
    if (argc != 4 || !strchr(argv[1], '/') || atoi(argv[3]) < 1) {
        fprintf(stderr, "usage: model_prefix SUITE/BENCH SIZE K (K >= 1: blocks to sort on)\n");
        return 64;
    }
    char suite[64];
    snprintf(suite, sizeof suite, "%.*s", (int)(strchr(argv[1], '/') - argv[1]), argv[1]);
    const char *bench = strchr(argv[1], '/') + 1;
    struct dh_devlist devs;
    struct dh_err e = {0};
    if (dh_devices_gather(&devs, 0, &e)) {
        fprintf(stderr, "model_prefix: %s\n", e.msg);
        return 3;
    }
    struct dh_selection sel = {.suite = suite, .benches = bench, .size = argv[2], .reps = 1,
                               .timeout_s = 600, .device = -1, .backends = "opencl",
                               .variants = "baseline", .model = 1};
    struct dh_run *runs;
    int n;
    if (dh_plan(&sel, &devs, &runs, &n, &e) || n < 1) {
        fprintf(stderr, "model_prefix: %s\n", n < 1 && !e.msg[0] ? "no baseline case" : e.msg);
        return 64;
    }
    struct dh_worker w;
    if (dh_worker_open(&w, dh_backend_find("opencl"), 0, &e)) {
        fprintf(stderr, "model_prefix: %s\n", e.msg);
        return 3;
    }
    dh_worker_run(&w, &runs[0].c, &runs[0].r);
    if (runs[0].r.status || !w.bbv.counts) {
        fprintf(stderr, "model_prefix: %s\n", runs[0].r.message);
        return 3;
    }
    const struct dh_bbv *b = &w.bbv;
    g_counts = b->counts;
    g_nb = b->n_blocks;
    g_k = atoi(argv[3]) < g_nb ? atoi(argv[3]) : g_nb;
    int *order = malloc((size_t)b->n_items * sizeof *order);
    if (!order)
        return 3;
    for (long i = 0; i < b->n_items; i++)
        order[i] = (int)i;
    qsort(order, (size_t)b->n_items, sizeof *order, prefix_cmp);
    struct dh_latency_table t;
    if (dh_latency_table_for(&w.info, &t, &e)) {
        fprintf(stderr, "model_prefix: %s\n", e.msg);
        return 3;
    }
    struct dh_device_info info = w.info;
    info.warp_width = 32;
    struct dh_model_result m = {0};
    dh_model_price(b, runs[0].c.bench->blocks, &t, &info, 256, 0, order, 0, &m);
    printf("%s %s: %d blocks, sorted on the first %d; costs %s, table %s, warp 32\n"
           "modeled CFE: launch order %.3f, sorted %.3f\n",
           argv[1], argv[2], g_nb, g_k, m.costs, m.table, m.base.cfe, m.own.cfe);
    free(order);
    dh_worker_close(&w);
    free(runs);
    return 0;
}
