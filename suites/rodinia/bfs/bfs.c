/* rodinia/bfs — level-synchronous breadth-first search (Rodinia's BFS),
 * declared on the kit (suites/lib/kit.h). Kernel: bfs.k (read it first);
 * the graphs and the reference: bfs_graph.c. A run is an untimed reset,
 * then one expand and one update launch per level, exactly as many
 * levels as the CPU reference finds plus the last launch that discovers
 * nothing (where Rodinia's host loop stops); kernel_ms sums the expand
 * and update launches. Variants:
 *   baseline                  one work-item per node, as written
 *   cpu_tdr[mech=dlt,         the graph relabelled on the host (node ids
 *     regroup=key|sort|       permuted, the edge array rewritten, the root
 *     greedy|greedymax]       follows): by degree bucket, hubs first (key),
 *                             or by basic-block vectors summed over all
 *                             levels; costs are put back in node order
 *   gpu_tdr[alg=hot|dgi|      per launch and group: a vote skips groups
 *     hot_warp|dgi_scan]      without frontier nodes, the edges of heavy
 *                             nodes (degree >= the tunable split) are dealt
 *                             over the group, light nodes are remapped to
 *                             the leading lanes
 * melded does not apply: the frontier and visited tests are if-thens with
 * nothing on the other side.
 *
 * Input (Rodinia reads files of its graph generator; here both graphs come
 * from counter-based streams, bfs_graph.c), source node 0: deg=rodinia,
 * each node draws 2-4 edges to uniform random nodes, plus the reverses
 * (average degree 6, duplicates and self-loops kept, all but a handful of
 * nodes reached); deg=rmat, ef edges per node by R-MAT, plus the reverses
 * (power-law degrees: node 0 is the largest hub, 242,738 edges at size
 * large, and about half the nodes are isolated). Sizes: 2^14, 2^20, 2^23
 * nodes; ef = 3, 3, 8 (R-MAT's average degree 6, 6, 16).
 *
 * The BBV regroupings see what a node does over a whole run (reached or
 * not, its degree, its discoveries): the degree loop's trips, which is
 * what a relabelling can fix. They cannot see the level a node expands
 * at, and the model prices a warp as if its nodes expanded in one launch,
 * so its predictions for this benchmark miss the mask's divergence.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"
#include "bfs_graph.h"

extern const char dh_src_rodinia_bfs[];   /* bfs.k, embedded by make */

static const struct dh_param_def params[] = {
    {"deg", DH_P_WORKLOAD, "enum:rodinia,rmat", "rodinia", NULL, "the graph: Rodinia's rule (each node 2-4 edges to uniform random nodes, plus the reverses: average degree 6) or R-MAT (0.57, 0.19, 0.19, 0.05: power-law degrees; ef edges per node, plus the reverses)"},
    DH_KIT_SEED,
    DH_KIT_ALG4("hot, hot_warp on light frontier node or not; dgi, dgi_scan on four degree buckets of them"),
    {"split", DH_P_TUNABLE, "int:1..16777216", "32", "gpu_tdr", "degree from which a frontier node's edges are dealt over the work-group instead of looped by its own lane"},
    DH_KIT_MECH("enum:dlt", "relabel the graph (data layout: node ids permuted, the edge array rewritten)"),
    DH_KIT_REGROUP("host relabelling: by degree bucket, hubs first (key), or by basic-block vectors summed over all levels (sort, greedy, greedymax)"),
    DH_KIT_GROUP,
    DH_KIT_WG,
    DH_KIT_NF("alg=dgi"),
    DH_CODEGEN_KNOBS,
    {0},
};

static const char *const sweep[] = {"deg=rodinia", "deg=rmat", NULL};

enum { OFF, ADJ, ROOT, MASK, UPD, VIS, COST };

struct bf_priv {
    struct bf_graph g;
    int *inv, *noff;        /* cpu_tdr's relabelling scratch (n, n + 1) */
    int maxdeg;             /* the largest degree of a reached node */
    double *ccost;          /* the ceiling's cost per level (levels entries) */
};

static void bf_free_priv(void *priv)
{
    struct bf_priv *p = priv;
    bf_free(&p->g);
    free(p->inv);
    free(p->noff);
    free(p->ccost);
    free(p);
}

/* the graph as uploaded: as generated (perm NULL) or relabelled, the
 * edge buffer's spare room zeroed */
static void bf_gather_off(const struct dh_khost *h, const int *perm, void *dst)
{
    const struct bf_priv *p = h->priv;
    if (perm)
        bf_relabel_off(&p->g, perm, dst);
    else
        memcpy(dst, p->g.off, ((size_t)p->g.n + 1) * sizeof *p->g.off);
}

static void bf_gather_adj(const struct dh_khost *h, const int *perm, void *dst)
{
    struct bf_priv *p = h->priv;
    long room = h->count[ADJ];
    if (perm) {
        bf_relabel_off(&p->g, perm, p->noff);
        bf_relabel_adj(&p->g, perm, p->noff, p->inv, dst);
    } else {
        memcpy(dst, p->g.adj, (size_t)p->g.m * sizeof *p->g.adj);
    }
    memset((int *)dst + p->g.m, 0, (size_t)(room - p->g.m) * sizeof(int));
}

static const struct dh_kbuf bufs[] = {
    [OFF] = {"off", DH_T_I32, DH_IN, "n + 1", DH_KB_ROTATE, .gather = bf_gather_off},
    [ADJ] = {"adj", DH_T_I32, DH_IN, "m", DH_KB_ROTATE, .gather = bf_gather_adj},
    [ROOT] = {"root", DH_T_U8, DH_IN, "items", DH_KB_ITEM},
    [MASK] = {"mask", DH_T_U8, DH_SCRATCH, "items"},
    [UPD] = {"upd", DH_T_U8, DH_SCRATCH, "items"},
    [VIS] = {"vis", DH_T_U8, DH_SCRATCH, "items"},
    [COST] = {"cost", DH_T_I32, DH_OUT, "items", DH_KB_ITEM},
};

static const struct dh_kentry entries[] = {
    {"baseline", "bfs_expand", "off adj mask upd vis cost"},
    {"gpu_tdr", "bfs_expand_tdr", "off adj mask upd vis cost"},
    {0},
};

static int bf_generate(struct dh_khost *h, struct dh_err *err)
{
    const struct dh_pset *v = &h->vars;
    struct bf_priv *p = calloc(1, sizeof *p);
    if (!p)
        return dh_err_set(err, DH_E_RESOURCES, "bfs: out of host memory");
    h->priv = p;
    uint64_t seed = 0xbf5ULL ^ ((uint64_t)dh_pset_num(v, "seed", 1) << 24);
    int rmat = (int)dh_pset_num(v, "deg", 0) == 1;
    if (bf_make(&p->g, h->items, rmat, (int)dh_pset_num(v, "ef", 3), seed)
        || !(p->inv = malloc((size_t)h->items * sizeof *p->inv))
        || !(p->noff = malloc(((size_t)h->items + 1) * sizeof *p->noff)))
        return dh_err_set(err, DH_E_RESOURCES, "bfs: out of host memory for the graph");
    if (p->g.m > h->count[ADJ])
        return dh_err_set(err, DH_E_INTERNAL, "bfs: %ld edge entries, room for %ld", p->g.m,
                          h->count[ADJ]);
    ((unsigned char *)h->data[ROOT])[0] = 1;          /* the source: node 0 */
    return 0;
}

/* the levels on the CPU: cost per node, and how many launch pairs a run
 * makes (the deepest level + 1) */
static int bf_reference(struct dh_khost *h, struct dh_err *err)
{
    struct bf_priv *p = h->priv;
    int *cost = h->want[COST];
    int deepest = bf_levels(&p->g, 0, cost);
    if (deepest < 0 || !(p->ccost = malloc(((size_t)deepest + 1) * sizeof *p->ccost)))
        return dh_err_set(err, DH_E_RESOURCES, "bfs: out of host memory for the reference");
    for (long i = 0; i < h->items; i++)
        if (cost[i] >= 0 && p->g.off[i + 1] - p->g.off[i] > p->maxdeg)
            p->maxdeg = p->g.off[i + 1] - p->g.off[i];
    dh_pset_put(&h->vars, "levels", "", deepest + 1.0, DH_P_WORKLOAD);
    return 0;
}

/* reset (not timed), then expand and update per level (timed) */
static int bf_launch(struct dh_krun *r, const struct dh_kentry *e, double *kernel_ms,
                     struct dh_err *err)
{
    int levels = (int)dh_pset_num(&r->h->vars, "levels", 1);
    struct dh_kentry reset = {e->variant, "bfs_reset", "root mask upd vis cost"};
    /* cost: only the profiling build reads it (the ordered BBVs' row) */
    struct dh_kentry update = {e->variant, "bfs_update", "mask upd vis cost"};
    double ms = 0;
    int rc = dh_kit_launch(r, &reset, 0, &ms, err);
    *kernel_ms = 0;
    for (int l = 0; l < levels && !rc; l++) {
        if (!(rc = dh_kit_launch(r, e, 0, &ms, err)))
            *kernel_ms += ms;
        if (!rc && !(rc = dh_kit_launch(r, &update, 0, &ms, err)))
            *kernel_ms += ms;
    }
    return rc;
}

/* cpu_tdr's key: the degree, exact below 32, then by powers of two,
 * hubs first (host time of the variant) */
#define BF_NKEY 58
static int bf_sort_key(const struct dh_khost *h, int *key)
{
    const int *off = ((const struct bf_priv *)h->priv)->g.off;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < h->items; i++) {
        int d = off[i + 1] - off[i], b = d;
        if (d >= 32)
            for (b = 27; d > 1; d >>= 1)
                b++;
        key[i] = BF_NKEY - 1 - b;
    }
    return BF_NKEY;
}

/* the ceiling's degree thresholds: 1, 2, .. 64, then 1/8 apart */
static long bf_step(long t)
{
    return t < 64 ? t + 1 : t + t / 8;
}

/* The remap ceiling over all launches at once: a node's key is the level
 * it expands at, so a warp pays once for each level it holds frontier
 * nodes of, and sorting a group by key is the best per-launch remap of
 * nodes. Costs in global accesses: layer 0, every node, every launch:
 * the two flag tests (2); layer 1, the expansion (mask, cost, offsets:
 * 3); then the degree loop (adj and vis: 2 per trip) as layers of
 * thresholds t: the nodes of degree >= t, at cost 2 (t - previous t), so
 * a warp pays its largest degree at each level (above 64, rounded down
 * to a threshold). Not in it: the visited test's stores, the update's
 * stores, and gpu_tdr's dealing of heavy nodes, which no regrouping of
 * nodes can do (its speedup can pass this ceiling). */
static int bf_branch(const struct dh_khost *h, long layer, int *key, const double **cost)
{
    struct bf_priv *p = h->priv;
    const int *lv = h->want[COST], *off = p->g.off;
    int levels = (int)dh_pset_num(&h->vars, "levels", 1);
    long t = 0, prev = 0;
    for (long l = 2; l <= layer; l++)
        prev = t, t = bf_step(t);
    if (layer >= 2 && t > p->maxdeg)
        return 0;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < h->items; i++)
        key[i] = layer == 0 ? 0 : lv[i] >= 0 && off[i + 1] - off[i] >= t ? lv[i] : -1;
    for (int q = 0; q < levels; q++)
        p->ccost[q] = layer == 0 ? 2.0 * levels : layer == 1 ? 3.0 : 2.0 * (double)(t - prev);
    *cost = p->ccost;
    return layer == 0 ? 1 : levels;
}

/* Blocks marked in bfs.k (BF_BB_*), operations per execution counted in
 * the source: a kernel's flag load and test; the expansion's mask store,
 * cost and offset loads; a loop trip's adj and vis loads, test and loop
 * branch; a discovery's two stores; the update's three stores. A
 * discovery is decided afresh in each trip of the edge loop (`each`). */
static const struct dh_bb_def blocks[] = {
    {"entry", {.alu = 2, .ldg = 1, .br = 1}},
    {"expand", {.alu = 3, .ldg = 3, .stg = 1}},
    {"edge", {.alu = 3, .ldg = 2, .br = 2}},
    {"discover", {.alu = 1, .stg = 2}, .each = "edge"},
    {"update", {.stg = 3}},
};

static const struct dh_kit kit = {
    .sizes = {"n=16384 ef=3", "n=1048576 ef=3", "n=8388608 ef=8"},
    .items = "n", .noun = "nodes",
    /* room for the edge entries: rmat draws ef per node, rodinia at most 4 */
    .derive = "m = deg == 1 ? 2 * ef * n : 8 * n",
    .define = "BF_SPLIT = split",
    DH_KIT_TABLES(bufs, entries),
    .generate = bf_generate, .reference = bf_reference, .free_priv = bf_free_priv,
    .launch = bf_launch, .sort_key = bf_sort_key, .branch = bf_branch,
    /* bfs_expand_tdr's local memory (ints): the remap's, the heavy list
     * (3 per lane), the vote and the list's count */
    .local = "remap = alg == HOT || alg == HOT_WARP ? wg + 2"
             " : 5 * (alg == DGI ? wg / nf : wg / warp) + wg + 5;"
             "bytes = 4 * (remap + 3 * wg + wg / warp + 3)",
};

/* the ordered BBVs' steps (dh_bench.bbv_steps): the launch pairs, one a
 * level (the reference's deepest + 1): a node's totals over the levels
 * hide that its warp expanded its nodes in as many different launches */
static long bf_steps(void *state)
{
    const struct dh_khost *h = state;
    return (long)dh_pset_num(&h->vars, "levels", 1);
}

const struct dh_bench dh_bench_rodinia_bfs = {
    .suite = "rodinia", .name = "bfs", .source = dh_src_rodinia_bfs,
    .summary = "level-synchronous BFS: a frontier mask that changes every launch, degree-driven loops",
    .params = params, .sweep = sweep, .variants = "baseline,cpu_tdr,gpu_tdr",
    .absent = "melded: the frontier and visited tests are if-thens with nothing on the other side",
    DH_BENCH_BLOCKS(blocks, "memory"), DH_KIT(kit), .bbv_steps = bf_steps,
    /* compiled costs (update's from the table: bfs_update is another
     * kernel): with one-level windows, PoCL's BBVs priced as the H100,
     * modeled CFE +2.8 / -1.3 points off CUPTI (Rodinia / R-MAT) against
     * the hand table's -2.1 / -3.3 (docs/model.md "Blocks decided each
     * iteration") */
    .costs = "sass+pred",
};
