/* darm/nqu — N-Queens backtracking (DARM's "NQU"), declared on the kit
 * (suites/lib/kit.h). Kernel: nqu.k (read it first). A work-item counts
 * the completions of one start condition; a run is one launch over all
 * of them (per_launch=all) or, DARM's way, launches of two work-groups.
 * Variants:
 *   baseline              the depth-first search's step as branches
 *                         (exhausted / solution / descend / dead end)
 *   melded[meld=darm]     the step's regions melded, DARM's way: the
 *                         conditions computed once, the count an add of
 *                         the solution flag, the level's update one add
 *                         of a selected +1 / -1; the tried-columns store
 *                         and the push stay under their conditions
 *   melded[meld=pred]     if-converted (every store in every lane, a
 *                         spare stack level): not DARM's form
 *   cpu_tdr[mech=dlt,     start conditions reordered on the host (their
 *     regroup=key|sort|   three masks moved, the counts put back): by the
 *     greedy|greedymax]   free columns of the next row (key, a cheap and
 *                         weak proxy), or by basic-block vectors, whose
 *                         loop-head count is the subtree's size (sort,
 *                         greedy, greedymax): the warps' trip counts
 *                         evened out
 *   gpu_tdr[alg=refill]   a work-group owns a pool of pool * wg start
 *                         conditions; a lane whose search ends takes the
 *                         pool's next one (a local counter) inside the
 *                         one loop, so lanes stay busy until the pool is
 *                         drained (wg * ceil(items / (pool * wg))
 *                         work-items a launch)
 *
 * Input: n (the board); the start conditions are the placements of the
 * first mark = n > 11 ? n - 10 : 2 rows, the first queen in the left half
 * (weight 2, the mirror images counted once) and, for odd n, in the
 * middle column (weight 1), in the order of their columns (order=natural,
 * DARM's) or shuffled by a seeded Fisher-Yates (order=random: the same
 * work, the subtree sizes mixed differently over the warps). Items
 * are padded to a multiple of 768 (every wg divides it) with dead ends
 * (no queen placed, every column attacked: a count of 0, one
 * iteration). Verification is exact: every item's count against the CPU
 * solver's, and the weighted sum against the known totals (checked when
 * the reference is made).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"

extern const char dh_src_darm_nqu[];   /* nqu.k, embedded by make */

static const struct dh_param_def params[] = {
    {"per_launch", DH_P_WORKLOAD, "enum:all,2wg", "all", NULL, "start conditions per launch: all in one launch, or 2 work-groups per launch as DARM's scripts run it (hundreds of launches; kernel_ms sums them)"},
    {"order", DH_P_WORKLOAD, "enum:natural,random", "natural", NULL, "the start conditions' order: natural (by their columns, DARM's) or a seeded shuffle"},
    DH_KIT_SEED,
    {"meld", DH_P_CHOICE, "enum:darm,pred", "darm", "melded", "the melded step: darm = the four regions melded (conditions once, the count an add, the level's update one add of a selected +1/-1; the tried-columns store and the push stay under their conditions), pred = if-converted (every store in every lane, a spare stack level; not DARM's form)"},
    DH_KIT_MECH("enum:dlt", "reorder the start conditions (data layout: their three masks moved, the counts put back)"),
    DH_KIT_REGROUP("host reordering of the start conditions: by the free columns of the next row, most first (key: a cheap, weak proxy of the subtree size), or by basic-block vectors, the loop head's count being the subtree size (sort, greedy, greedymax)"),
    DH_KIT_GROUP,
    DH_KIT_DEAL("0"),
    {"alg", DH_P_CHOICE, "enum:refill", "refill", "gpu_tdr", "on-GPU remap: refill = a lane whose start condition is done takes the next of its work-group's pool (a local counter), in the same loop; the stacks stay in place, only the start condition travels (the kit's hot and dgi regroup by a branch key once per iteration: barriers on a body of a few dozen instructions)"},
    {"pool", DH_P_TUNABLE, "int:1,2,4,8", "2", "gpu_tdr", "start conditions per work-item in a work-group's pool (the launch has items / pool work-items: fewer, longer-lived warps)"},
    {"wg", DH_P_TUNABLE, "int:64,96,128,256", "128", NULL, "work-group size (the answer does not change; the stacks take 160 bytes a work-item of local memory, 176 with meld=pred, so at most 256)"},
    DH_CODEGEN_KNOBS,
    {0},
};

static const char *const sweep[] = {"per_launch=all", "per_launch=2wg", "order=random", NULL};

enum { QM, QL, QR, CNT };
static const struct dh_kbuf bufs[] = {
    [QM] = {"qm", DH_T_U32, DH_IN, "items", DH_KB_ITEM | DH_KB_ROTATE},
    [QL] = {"ql", DH_T_U32, DH_IN, "items", DH_KB_ITEM | DH_KB_ROTATE},
    [QR] = {"qr", DH_T_U32, DH_IN, "items", DH_KB_ITEM | DH_KB_ROTATE},
    /* exact; the poison (0xffffffff) is no count */
    [CNT] = {"cnt", DH_T_U32, DH_OUT, "items", DH_KB_ITEM, .poison = -1},
};

static const struct dh_kentry entries[] = {
    {"baseline", "nq_base", "qm ql qr cnt 0"},
    {"melded", "nq_meld", "qm ql qr cnt 0"},
    {"gpu_tdr", "nq_gpu_tdr", "qm ql qr cnt 0 items"},
    {0},
};

/* the solutions of n-queens, n = 0 .. 17 (OEIS A000170) */
static const long long nq_known[] = {1,      1,       0,       0,        2,         10,
                                     4,      40,      92,      352,      724,       2680,
                                     14200,  73712,   365596,  2279184,  14772512,  95815104};

struct nq_priv {
    int *weight;            /* per item: 2, 1 (odd n's middle column), 0 (padding) */
    int *trips;             /* per item: the kernel's iterations (the reference's) */
    int maxtrips;
    double ccost;           /* the ceiling's cost of the layer asked */
};

static void nq_free_priv(void *priv)
{
    struct nq_priv *p = priv;
    free(p->weight);
    free(p->trips);
    free(p);
}

static uint64_t nq_mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

struct nq_enum {
    unsigned *m, *l, *r;
    int *w;
    long k, cap;
    int n, mark;
};

/* the placements of rows row .. mark - 1 after (m, l, r), in column order */
static void nq_place(struct nq_enum *e, int row, unsigned m, unsigned l, unsigned r, int w)
{
    unsigned all = (1u << e->n) - 1u;
    if (row == e->mark) {
        if (e->k < e->cap) {
            e->m[e->k] = m;
            e->l[e->k] = l;
            e->r[e->k] = r;
            e->w[e->k] = w;
        }
        e->k++;
        return;
    }
    for (unsigned f = ~(m | l | r) & all; f; f &= f - 1) {
        unsigned b = f & (0u - f);
        nq_place(e, row + 1, m | b, (l | b) << 1, (r | b) >> 1, w);
    }
}

static int nq_generate(struct dh_khost *h, struct dh_err *err)
{
    const struct dh_pset *v = &h->vars;
    int n = (int)dh_pset_num(v, "n", 13);
    long conds = (long)dh_pset_num(v, "conds", 0);
    struct nq_priv *p = calloc(1, sizeof *p);
    if (!p)
        return dh_err_set(err, DH_E_RESOURCES, "nqu: out of host memory");
    h->priv = p;
    if (!(p->weight = malloc((size_t)h->items * sizeof *p->weight))
        || !(p->trips = malloc((size_t)h->items * sizeof *p->trips)))
        return dh_err_set(err, DH_E_RESOURCES, "nqu: out of host memory");
    struct nq_enum e = {h->data[QM], h->data[QL], h->data[QR], p->weight, 0, h->items, n,
                        n > 11 ? n - 10 : 2};
    for (int c = 0; c < (n + 1) / 2; c++) {
        unsigned b = 1u << c;
        nq_place(&e, 1, b, b << 1, b >> 1, 2 * c + 1 == n ? 1 : 2);
    }
    if (e.k != conds)
        return dh_err_set(err, DH_E_INTERNAL, "nqu: %ld start conditions for n %d, the size "
                          "says %ld", e.k, n, conds);
    if ((int)dh_pset_num(v, "order", 0) == 1) {
        uint64_t seed = 0x6e71ULL ^ ((uint64_t)dh_pset_num(v, "seed", 1) << 24);
        for (long i = e.k - 1; i > 0; i--) {
            long j = (long)(nq_mix(seed ^ ((uint64_t)i * 0xd1342543de82ef95ULL))
                            % (uint64_t)(i + 1));
            unsigned tm = e.m[i], tl = e.l[i], tr = e.r[i];
            int tw = e.w[i];
            e.m[i] = e.m[j], e.l[i] = e.l[j], e.r[i] = e.r[j], e.w[i] = e.w[j];
            e.m[j] = tm, e.l[j] = tl, e.r[j] = tr, e.w[j] = tw;
        }
    }
    for (long i = e.k; i < h->items; i++) {   /* padding: every column attacked */
        e.m[i] = 0;
        e.l[i] = e.r[i] = (1u << n) - 1u;
        e.w[i] = 0;
    }
    return 0;
}

/* the completions of (m, l, r), a placement of rows .. n - left: every
 * row filled when m is full. *trips adds the iterations the kernel's loop
 * spends on it at its level (left > 1: one a free column, each a push,
 * and one for the exhausted row; the last row: one, its solution or its
 * dead end) and below. */
static unsigned nq_count(unsigned all, unsigned m, unsigned l, unsigned r, int left, long *trips)
{
    if (m == all)
        return 1;
    unsigned s = 0;
    unsigned f = ~(m | l | r) & all;
    if (left == 1) {
        ++*trips;
        return f != 0;
    }
    ++*trips;
    for (; f; f &= f - 1) {
        unsigned b = f & (0u - f);
        ++*trips;
        s += nq_count(all, m | b, (l | b) << 1, (r | b) >> 1, left - 1, trips);
    }
    return s;
}

static int nq_reference(struct dh_khost *h, struct dh_err *err)
{
    struct nq_priv *p = h->priv;
    int n = (int)dh_pset_num(&h->vars, "n", 13), depth = n > 11 ? 10 : n - 2;
    unsigned all = (1u << n) - 1u, *want = h->want[CNT];
    const unsigned *m = h->data[QM], *l = h->data[QL], *r = h->data[QR];
    long long sum = 0;
    int maxtrips = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : sum) reduction(max : maxtrips)
    for (long i = 0; i < h->items; i++) {
        long trips = 0;
        want[i] = nq_count(all, m[i], l[i], r[i], depth, &trips);
        p->trips[i] = (int)trips;
        sum += (long long)p->weight[i] * want[i];
        maxtrips = trips > maxtrips ? (int)trips : maxtrips;
    }
    p->maxtrips = maxtrips;
    if (n < (int)(sizeof nq_known / sizeof nq_known[0]) && sum != nq_known[n])
        return dh_err_set(err, DH_E_INTERNAL, "nqu: the reference finds %lld solutions of "
                          "%d-queens, not %lld", sum, n, nq_known[n]);
    return 0;
}

/* one launch, or (per_launch=2wg) launches of two work-groups' items,
 * the first item passed as `base` (gpu_tdr: and the end, over a
 * work-group a pool of pool * wg items) */
static int nq_launch(struct dh_krun *r, const struct dh_kentry *e, double *kernel_ms,
                     struct dh_err *err)
{
    long items = r->h->items, wg = (long)dh_pset_num(&r->x->c->params, "wg", 128);
    long per = (int)dh_pset_num(&r->h->vars, "per_launch", 0) == 1 ? 2 * wg : items;
    int tdr = !strcmp(e->variant, "gpu_tdr");
    long span = tdr ? (long)dh_pset_num(&r->x->c->params, "pool", 2) * wg : 1;
    char args[64];
    double ms = 0;
    int rc = 0;
    *kernel_ms = 0;
    for (long b = 0; b < items && !rc; b += per) {
        long n = items - b < per ? items - b : per;
        if (tdr)
            snprintf(args, sizeof args, "qm ql qr cnt %ld %ld", b, b + n);
        else
            snprintf(args, sizeof args, "qm ql qr cnt %ld", b);
        struct dh_kentry k = {e->variant, e->entry, args};
        size_t global = (size_t)(tdr ? (n + span - 1) / span * wg : n);
        if (!(rc = dh_kit_launch(r, &k, global, &ms, err)))
            *kernel_ms += ms;
    }
    return rc;
}

/* the ordered BBVs' steps (dh_bench.bbv_steps): the search's iterations
 * of the largest subtree, as the reference counts them (nq_count: one an
 * iteration of the kernel's loop); a kernel that ran more would saturate
 * its last window, reported as an overflow */
static long nq_steps(void *state)
{
    const struct dh_khost *h = state;
    const struct nq_priv *p = h->priv;
    return p && p->maxtrips > 0 ? p->maxtrips : 1;
}

/* the model's launches (dh_bench.launch_items): as nq_launch makes them */
static long nq_launch_items(const struct dh_case *c, long items)
{
    long wg = (long)dh_pset_num(&c->params, "wg", 128);
    return (int)dh_pset_num(&c->params, "per_launch", 0) == 1 ? 2 * wg : items;
}

/* cpu_tdr regroup=key: the free columns of the next row, most first (a
 * wider row, a larger subtree as a rule: a cheap and weak proxy) */
static int nq_sort_key(const struct dh_khost *h, int *key)
{
    int n = (int)dh_pset_num(&h->vars, "n", 13);
    unsigned all = (1u << n) - 1u;
    const unsigned *m = h->data[QM], *l = h->data[QL], *r = h->data[QR];
#pragma omp parallel for schedule(static)
    for (long i = 0; i < h->items; i++) {
        int c = 0;
        for (unsigned f = ~(m[i] | l[i] | r[i]) & all; f; f &= f - 1)
            c++;
        key[i] = n - c;
    }
    return n + 1;
}

/* the ceiling's trip thresholds: 1, 2, .. 64, then 1/8 apart */
static long nq_next(long t)
{
    return t < 64 ? t + 1 : t + t / 8;
}

/* The remap ceiling, in loop iterations: layer k holds the items of at
 * least t_k trips (t_0 = 1: all), one path of cost t_k - t_(k-1), so a
 * warp pays its longest item's trips (rounded down to a threshold) and
 * sorting a work-group by trips is the best regrouping inside it. Not in
 * it: the step's own divergence (a uniform cost an iteration), and
 * gpu_tdr's refill, which moves work over time rather than between lanes
 * (its speedup can pass this ceiling). */
static int nq_branch(const struct dh_khost *h, long layer, int *key, const double **cost)
{
    struct nq_priv *p = h->priv;
    long t = 1, prev = 0;
    for (long k = 0; k < layer; k++)
        prev = t, t = nq_next(t);
    if (t > p->maxtrips)
        return 0;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < h->items; i++)
        key[i] = p->trips[i] >= t ? 0 : -1;
    p->ccost = (double)(t - prev);
    *cost = &p->ccost;
    return 1;
}

/* Blocks marked in nqu.k (NQ_BB_*), operations per execution counted in
 * the source (lds: a local load or store): item, the three loads of the
 * start condition, level 0's four stores, the count's store, the index
 * and the first union; head, the loop test, the level's address and
 * load, the exhausted test; pop, the decrement; step, the lowest free
 * column (add, not, and), the tried store, its union, the in-range and
 * last-row tests; leaf, the count and the decrement; push, three loads,
 * four stores, the unions and shifts, the addresses and the increment;
 * dead, the decrement. */
static const struct dh_bb_def blocks[] = {
    {"item", {.alu = 4, .ldg = 3, .stg = 1, .lds = 4}},
    {"head", {.alu = 4, .lds = 1, .br = 2}},
    {"pop", {.alu = 1}},
    {"step", {.alu = 7, .lds = 1, .br = 2}},
    {"leaf", {.alu = 2}},
    {"push", {.alu = 10, .lds = 7}},
    {"dead", {.alu = 1}},
};

static const struct dh_kit kit = {
    .sizes = {"n=13 conds=553", "n=15 conds=47460", "n=16 conds=419408"},
    /* padded to a multiple of 768, which every wg divides */
    .items = "(conds + 767) / 768 * 768", .noun = "start conditions",
    .define = "NQ_N = n; NQ_D = n > 11 ? 10 : n - 2; NQ_MELD = meld; NQ_POOL = pool",
    DH_KIT_TABLES(bufs, entries),
    .generate = nq_generate, .reference = nq_reference, .free_priv = nq_free_priv,
    .launch = nq_launch, .sort_key = nq_sort_key, .branch = nq_branch,
    /* gpu_tdr: the stacks and the pool's counter */
    .local = "bytes = 4 * (4 * (n > 11 ? 10 : n - 2) * wg + 1)",
};

const struct dh_bench dh_bench_darm_nqu = {
    .suite = "darm", .name = "nqu", .source = dh_src_darm_nqu,
    .summary = "N-Queens backtracking: a depth-first search per start condition, a 4-way "
               "data-dependent step and subtree-sized trip counts",
    .params = params, .sweep = sweep, .variants = "baseline,cpu_tdr,gpu_tdr,melded",
    DH_BENCH_BLOCKS(blocks, "compute"), DH_KIT(kit), .launch_items = nq_launch_items,
    .bbv_steps = nq_steps,
};
