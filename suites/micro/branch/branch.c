/* micro/branch — a declared benchmark (suites/lib/kit.h): buffers,
 * entries, generator, CPU reference, branch keys. Kernel: branch.k (read
 * it first). Variants:
 *   baseline                  the branch as written
 *   cpu_tdr[mech=dlt|rr,      host groups items by key (stable counting
 *     regroup=key|sort|       sort) or by their basic-block vectors
 *     greedy|greedymax]       (suites/lib/regroup.h) and moves the data
 *                             (dlt) or passes an index array (rr)
 *   gpu_tdr[alg=hot|dgi|      remap in the kernel before each layer
 *     hot_warp|dgi_scan|      (the _multi forms and adapt_scan: ipl items
 *     scan_multi|count_multi| a lane, the group remaps wg * ipl items;
 *     adapt_scan]             adapt_scan skips a remap that cannot pay)
 *   melded                    loops issued once, epilogues under branch
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"

extern const char dh_src_micro_branch[];   /* branch.k, embedded by make */

static const struct dh_param_def params[] = {
    {"paths", DH_P_WORKLOAD, "int:2,4,8", "2", NULL, "paths per branch layer (P)"},
    {"layers", DH_P_WORKLOAD, "int:1..2", "1", NULL, "1 = flat, 2 = nested (inner P paths in each outer path)"},
    {"divfrac", DH_P_WORKLOAD, "real:0..1", "1", NULL, "share of items whose path is random (the rest form uniform runs of 64)"},
    {"iters", DH_P_WORKLOAD, "int:1..1000000", "1024", NULL, "dependent FMAs per path per layer"},
    DH_KIT_SEED,
    {"alg", DH_P_CHOICE, "enum:hot,dgi,hot_warp,dgi_scan,scan_multi,count_multi,adapt_scan", "dgi", "gpu_tdr",
     "on-GPU remap algorithm; scan_multi, count_multi, adapt_scan: ipl items a lane, wg * ipl "
     "remapped together; adapt_scan skips a group's remap that saves too little (hot_warp, "
     "dgi_scan, scan_multi, adapt_scan: warp votes, CUDA/HIP)"},
    DH_KIT_MECH("enum:dlt,rr", "apply the host regrouping by data layout (dlt) or index array (rr)"),
    DH_KIT_REGROUP("host regrouping: by branch key, or by basic-block vectors (sort, greedy, greedymax)"),
    DH_KIT_GROUP,
    DH_KIT_WG,
    DH_KIT_NF("alg=dgi"),
    {"ipl", DH_P_TUNABLE, "int:1,2,4,8,16", "8", "gpu_tdr",
     "items per lane of the multi-item remaps (a group remaps wg * ipl items, launches "
     "items / ipl lanes)", "alg=scan_multi,count_multi,adapt_scan"},
    {"once", DH_P_TUNABLE, "int:0..1", "0", "gpu_tdr",
     "layers=2, multi-item remaps: 1 = one remap by the leaf before the outer branch (the "
     "leaf is known up front), 0 = one remap before each layer",
     "alg=scan_multi,count_multi,adapt_scan"},
    {"thr", DH_P_TUNABLE, "int:0,10,40,160,640", "40", "gpu_tdr",
     "adapt_scan remaps a group only where the warp-path executions it saves, times the "
     "path length, reach thr FMAs per warp-item (32 of the wg * ipl items; 0: wherever it saves any)",
     "alg=adapt_scan"},
    DH_CODEGEN_KNOBS,
    {0},
};

static const char *const sweep[] = {
    "paths=2 layers=1", "paths=4 layers=1", "paths=8 layers=1", "paths=2 layers=2", NULL,
};

enum { X, KEY, Y };
static const struct dh_kbuf bufs[] = {
    [X] = {"x", DH_T_F32, DH_IN, "items", DH_KB_ITEM | DH_KB_ROTATE},
    [KEY] = {"key", DH_T_I32, DH_IN, "items", DH_KB_ITEM | DH_KB_ROTATE},
    [Y] = {"y", DH_T_F32, DH_OUT, "items", DH_KB_ITEM, .tol = 1e-6},
};

static const struct dh_kentry entries[] = {
    {"baseline", "mb_baseline", "x key y"},
    {"cpu_tdr/rr", "mb_rr", "x key y perm"},
    {"gpu_tdr", "mb_gpu_tdr", "x key y"},
    {"melded", "mb_melded", "x key y"},
    {0},
};

struct mb_cfg {
    int P, layers, iters, nkeys;
    double divfrac;
    unsigned seed;
    float A[8], B[8], C[8];            /* layer 1, per path */
    float D[16], E[16], F[16];         /* layer 2, per leaf */
};

static void cfg_of(const struct dh_case *c, struct mb_cfg *g)
{
    memset(g, 0, sizeof *g);
    g->P = (int)dh_pset_num(&c->params, "paths", 2);
    g->layers = (int)dh_pset_num(&c->params, "layers", 1);
    g->iters = (int)dh_pset_num(&c->params, "iters", 1024);
    g->divfrac = dh_pset_num(&c->params, "divfrac", 1);
    g->seed = (unsigned)dh_pset_num(&c->params, "seed", 1);
    g->nkeys = g->layers == 2 ? g->P * g->P : g->P;
    /* a = 1 - c/iters keeps e^-c of the input after the loop, at any
     * length; b moves the fixed point to 0.5 + 0.25k */
    for (int k = 0; k < 8; k++) {
        float cc = 0.5f + 0.15f * (float)k;
        g->A[k] = 1.0f - cc / (float)g->iters;
        g->B[k] = (0.5f + 0.25f * (float)k) * (cc / (float)g->iters);
        g->C[k] = 0.3f + 0.2f * (float)k;
    }
    for (int k = 0; k < 16; k++) {
        float cc = 0.6f + 0.07f * (float)k;
        g->D[k] = 1.0f - cc / (float)g->iters;
        g->E[k] = (1.0f - 0.05f * (float)k) * (cc / (float)g->iters);
        g->F[k] = 0.1f + 0.15f * (float)k;
    }
}

/* the paths' constants as exact floats: MB_A0.. MB_C<P-1>, with two
 * layers MB_D0.. MB_F<P*P-1> */
static int mb_defines(const struct dh_case *c, const struct dh_pset *vars,
                      const struct dh_device_info *dev, char *buf, size_t len)
{
    (void)vars, (void)dev;
    struct mb_cfg g;
    cfg_of(c, &g);
    const float *tab[6] = {g.A, g.B, g.C, g.D, g.E, g.F};
    size_t o = 0;
    buf[0] = 0;
    for (int t = 0; t < 6; t++)
        for (int k = 0; k < (t < 3 ? g.P : g.layers == 2 ? g.nkeys : 0) && o < len; k++)
            o += (size_t)snprintf(buf + o, len - o, "%s-D MB_%c%d=%af", o ? " " : "", 'A' + t,
                                  k, (double)tab[t][k]);
    return o < len ? 0 : -DH_E_INTERNAL;
}

/* ---- CPU reference: plain C, exact float operations ---- */
static float epi(int k, float c, float v)
{
    switch (k % 4) {
    case 0: return fmaf(v, c, 1.0f);
    case 1: return fmaxf(v, c) - 0.5f;
    case 2: return fabsf(v - c);
    default: return fminf(v * 0.75f, c) + v;
    }
}

__attribute__((target_clones("fma", "default")))
static float loop_ref(float v, float a, float b, int iters)
{
    for (int k = 0; k < iters; k++)
        v = fmaf(v, a, b);
    return v;
}

static int mb_reference(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    struct mb_cfg g;
    cfg_of(h->c, &g);
    const float *x = h->data[X];
    const int *key = h->data[KEY];
    float *y = h->want[Y];
#pragma omp parallel for schedule(static)
    for (long i = 0; i < h->items; i++) {
        int k = key[i];
        int p = g.layers == 2 ? k / g.P : k;
        float v = loop_ref(x[i], g.A[p], g.B[p], g.iters);
        v = epi(p, g.C[p], v);
        if (g.layers == 2) {
            v = loop_ref(v, g.D[k], g.E[k], g.iters);
            v = epi(k, g.F[k], v);
        }
        y[i] = v;
    }
    return 0;
}

/* splitmix64: small, seeded, the same on every machine */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int mb_generate(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    struct mb_cfg g;
    cfg_of(h->c, &g);
    float *x = h->data[X];
    int *key = h->data[KEY];
    uint64_t st = 0x5eedULL ^ ((uint64_t)g.seed << 20);
    uint64_t thr = (uint64_t)(g.divfrac * 4294967296.0);
    for (long i = 0; i < h->items; i++) {
        x[i] = (float)((double)(mix(&st) >> 40) / (double)(1u << 24) * 16.0 - 8.0);
        uint64_t r = mix(&st);
        if ((r & 0xffffffffu) < thr || g.divfrac >= 1.0)
            key[i] = (int)((r >> 32) % (uint64_t)g.nkeys);
        else
            key[i] = (int)((i / 64) % g.nkeys);
    }
    return 0;
}

/* the ceiling: nested, the outer path (key / P) then the leaf */
static int mb_branch(const struct dh_khost *h, long layer, int *key, const double **cost)
{
    struct mb_cfg g;
    cfg_of(h->c, &g);
    (void)cost;
    const int *k = h->data[KEY];
    if (layer >= g.layers)
        return 0;
    int outer = g.layers == 2 && layer == 0;
    for (long i = 0; i < h->items; i++)
        key[i] = outer ? k[i] / g.P : k[i];
    return outer ? g.P : g.nkeys;
}

/* Blocks marked in branch.k, in id order (MB_BB_*): operations per
 * execution, counted in the source. Epilogue shapes cycle with k % 4
 * (MB_EPI): fma; max and subtract; subtract and abs; mul, min and add;
 * each behind its switch case. */
#define MB_EPI_OPS(k) {.fp = (k) % 4 == 0 ? 1 : (k) % 4 == 3 ? 3 : 2, .br = 1}
#define MB_L1(k) {"l1_loop" #k, {.fp = 1}}
#define MB_E1(k) {"l1_epi" #k, MB_EPI_OPS(k)}
#define MB_L2(k) {"l2_loop" #k, {.fp = 1}}
#define MB_E2(k) {"l2_epi" #k, MB_EPI_OPS(k)}
static const struct dh_bb_def blocks[] = {
    {"entry", {.alu = 3, .ldg = 2, .stg = 1, .br = 1}},
    MB_L1(0), MB_L1(1), MB_L1(2), MB_L1(3), MB_L1(4), MB_L1(5), MB_L1(6), MB_L1(7),
    MB_E1(0), MB_E1(1), MB_E1(2), MB_E1(3), MB_E1(4), MB_E1(5), MB_E1(6), MB_E1(7),
    MB_L2(0), MB_L2(1), MB_L2(2), MB_L2(3), MB_L2(4), MB_L2(5), MB_L2(6), MB_L2(7),
    MB_L2(8), MB_L2(9), MB_L2(10), MB_L2(11), MB_L2(12), MB_L2(13), MB_L2(14), MB_L2(15),
    MB_E2(0), MB_E2(1), MB_E2(2), MB_E2(3), MB_E2(4), MB_E2(5), MB_E2(6), MB_E2(7),
    MB_E2(8), MB_E2(9), MB_E2(10), MB_E2(11), MB_E2(12), MB_E2(13), MB_E2(14), MB_E2(15),
};

/* The multi-item remaps run ipl items a lane: items / ipl lanes. */
static int mb_launch(struct dh_krun *r, const struct dh_kentry *e, double *kernel_ms,
                     struct dh_err *err)
{
    const struct dh_case *c = r->x->c;
    size_t global = 0;
    if (!strcmp(e->variant, "gpu_tdr")) {
        int alg = dh_kit_alg_code(dh_pset_text(&c->params, "alg", "dgi"));
        const struct dh_param_def *d = dh_param_find(c->bench->params, "ipl");
        if (alg >= 15 && alg <= 17)      /* the case's ipl, else the declared default */
            global = (size_t)r->h->items
                     / (size_t)dh_pset_num(&c->params, "ipl", d ? atof(d->def) : 1);
    }
    return dh_kit_launch(r, e, global, kernel_ms, err);
}

/* On OpenCL the nested multi-item kernel gives its second round buffers of
 * its own (a PoCL workaround, branch.k): the local memory the kit's .local
 * counts, plus map[] and the scratch once more. */
static int mb_check(const struct dh_case *c, const struct dh_pset *vars,
                    const struct dh_device_info *dev, char *why, size_t len)
{
    int alg = (int)dh_pset_num(vars, "alg", 0);
    if (strcmp(c->variant, "gpu_tdr") || strcmp(c->backend, "opencl") || alg < 15 || alg > 17
            || dh_pset_num(vars, "layers", 1) != 2 || dh_pset_num(vars, "once", 0)
            || !dev || !dev->local_mem_bytes)
        return 0;
    long wg = (long)dh_pset_num(vars, "wg", 256), ipl = (long)dh_pset_num(vars, "ipl", 8);
    long nk = (long)dh_pset_num(vars, "nkeys", 4), warp = dev->warp_width ? dev->warp_width : 32;
    long ints = 2 * nk * (wg / warp) + nk + wg / warp + wg * ipl;
    long bytes = 4 * (2 * ints + 2 * wg * ipl);
    if ((uint64_t)bytes > dev->local_mem_bytes) {
        snprintf(why, len, "the nested multi-item remap needs %ld bytes of local memory on "
                 "OpenCL (two rounds' buffers), the device has %llu: use a smaller wg or ipl",
                 bytes, (unsigned long long)dev->local_mem_bytes);
        return -DH_E_CONSTRAINT;
    }
    return 0;
}

static const struct dh_krule rules[] = {
    {NULL, "layers == 1 || paths <= 4", "layers=2 supports paths=2 or 4 (paths=8 gives 64 leaves)"},
    {"alg=hot,hot_warp", "paths == 2 && layers == 1",
     "alg=hot and hot_warp remap two paths only (paths=2 layers=1): use alg=dgi"},
    {"alg=scan_multi,count_multi,adapt_scan", "wg % warp == 0 && items % (wg * ipl) == 0",
     "the multi-item remaps need wg a multiple of the warp width and the items a multiple "
     "of wg * ipl: use a smaller ipl or wg"},
    {"alg=scan_multi,count_multi,adapt_scan", "wg * ipl <= 65536",
     "the multi-item remaps number at most 65536 items a group: use a smaller ipl or wg"},
    {0},
};

static const struct dh_kit kit = {
    .sizes = {"n=32768", "n=4194304", "n=16777216"}, .items = "n",
    .derive = "nkeys = layers == 2 ? paths * paths : paths",
    .define = "MB_P = paths; MB_LAYERS = layers; MB_ITERS = iters; TDR_IPL = ipl; TDR_THR = thr; TDR_ONCE = once",
    .remaps = "layers",                         /* the per-layer forms: one a layer */
    DH_KIT_TABLES(bufs, entries), .rules = rules,
    .generate = mb_generate, .reference = mb_reference, .defines = mb_defines,
    .sort_by = "key", .sort_keys = "nkeys", .branch = mb_branch,     /* cpu_tdr; the ceiling */
    /* mb_gpu_tdr's remap buffers (ints), as branch.k declares them: HoT
     * wg + 2; DGI nkeys * wg / nf + wg + nkeys (dgi_scan: wg / warp); a
     * second layer a second round and its value and index */
    /* the multi-item forms: DH_TDR_MULTI_INTS(nkeys) and map[] of
     * wg * ipl, two layers the items and values of wg * ipl */
    .local = "per = alg == DGI ? wg / nf : wg / warp;"
             "round = alg == HOT || alg == HOT_WARP ? wg + 2 : nkeys * per + wg + nkeys;"
             "multi = alg == SCAN_MULTI || alg == COUNT_MULTI || alg == ADAPT_SCAN;"
             "mround = 2 * nkeys * (wg / warp) + nkeys + wg / warp + wg * ipl;"
             "bytes = 4 * (multi ? mround + (layers == 2 && !once ? 2 * wg * ipl : 0)"
             " : layers == 2 ? 2 * round + 2 * wg : round)",
    .launch = mb_launch, .check = mb_check,
};

const struct dh_bench dh_bench_micro_branch = {
    .suite = "micro", .name = "branch", .source = dh_src_micro_branch,
    .summary = "compute-bound branch with P data-chosen paths, flat or nested",
    .params = params, .sweep = sweep, .variants = "baseline,cpu_tdr,gpu_tdr,melded",
    DH_BENCH_BLOCKS(blocks, "compute"), DH_KIT(kit),
    /* compiled costs (its entry's; the other blocks keep the table's): on
     * the H100 (results/reference/h100/model-micro-2026-11-26/) modeled CFE
     * within 0.2 points either way, the regroupings' scheduled error 1.4
     * points against 1.8 (docs/model.md "Which costs a benchmark prefers") */
    .costs = "sass+pred",
};
