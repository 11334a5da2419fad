/* micro/branch — host side: generator, CPU reference, variants.
 * Kernel: branch.k (read it first). Variants:
 *   baseline                  the branch as written
 *   cpu_tdr[mech=dlt|rr,      host groups items by key (stable counting
 *     regroup=key|sort|       sort) or by their basic-block vectors
 *     greedy|greedymax]       (suites/lib/regroup.h) and moves the data
 *                             (dlt) or passes an index array (rr); host
 *                             time measured, the BBVs' profiling included
 *   gpu_tdr[alg=hot|dgi]      remap in the kernel before each layer
 *   melded                    loops issued once, epilogues under branch
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../lib/regroup.h"
#include "../../lib/warpvotes.h"
#include "../../suite.h"

extern const char dh_src_micro_branch[];   /* branch.k, embedded by make */

static const struct dh_param_def params[] = {
    {"paths", DH_P_WORKLOAD, "int:2,4,8", "2", NULL, "paths per branch layer (P)"},
    {"layers", DH_P_WORKLOAD, "int:1..2", "1", NULL, "1 = flat, 2 = nested (inner P paths in each outer path)"},
    {"divfrac", DH_P_WORKLOAD, "real:0..1", "1", NULL, "share of items whose path is random (the rest form uniform runs of 64)"},
    {"iters", DH_P_WORKLOAD, "int:1..1000000", "1024", NULL, "dependent FMAs per path per layer"},
    {"seed", DH_P_WORKLOAD, "int:0..2147483647", "1", NULL, "generator seed"},
    {"alg", DH_P_CHOICE, "enum:hot,dgi,hot_warp,dgi_scan", "dgi", "gpu_tdr", "on-GPU remap algorithm (hot_warp, dgi_scan: warp votes, CUDA/HIP)"},
    {"mech", DH_P_CHOICE, "enum:dlt,rr", "dlt", "cpu_tdr", "apply the host regrouping by data layout (dlt) or index array (rr)"},
    {"regroup", DH_P_CHOICE, "enum:key,sort,greedy,greedymax", "key", "cpu_tdr",
     "host regrouping: by branch key, or by basic-block vectors (sort, greedy, greedymax)"},
    {"group", DH_P_TUNABLE, "int:1..65536", "64", "cpu_tdr",
     "items per group of the BBV regroupings (a multiple of the warp width)",
     "regroup=greedy,greedymax"},
    {"wg", DH_P_TUNABLE, "int:1..1024", "256", NULL, "work-group size"},
    {"nf", DH_P_TUNABLE, "int:1..1024", "16", "gpu_tdr", "DGI neighboring factor", "alg=dgi"},
    {0},
};

static const char *const sweep[] = {
    "paths=2 layers=1", "paths=4 layers=1", "paths=8 layers=1", "paths=2 layers=2", NULL,
};

struct mb_cfg {
    long n;
    int P, layers, iters, nkeys;
    double divfrac;
    unsigned seed;
    int wg;
    int mech_rr;                       /* cpu_tdr */
    float A[8], B[8], C[8];            /* layer 1, per path */
    float D[16], E[16], F[16];         /* layer 2, per leaf */
};

struct mb_state {
    struct mb_cfg cfg;
    float *x, *yref, *y;
    int *key, *perm;
    float *xp;                          /* dlt staging */
    int *kp;
    /* device */
    struct dh_buffer **bx, **bk;        /* rotate copies */
    struct dh_buffer *by, *bidx;
    int rot;
};

static long size_n(const char *size)
{
    if (!strcmp(size, "small")) return 1L << 15;
    if (!strcmp(size, "medium")) return 1L << 22;
    return 1L << 24;
}

static void cfg_of(const struct dh_case *c, struct mb_cfg *g)
{
    memset(g, 0, sizeof *g);
    g->n = size_n(c->size);
    g->P = (int)dh_pset_num(&c->params, "paths", 2);
    g->layers = (int)dh_pset_num(&c->params, "layers", 1);
    g->iters = (int)dh_pset_num(&c->params, "iters", 1024);
    g->divfrac = dh_pset_num(&c->params, "divfrac", 1);
    g->seed = (unsigned)dh_pset_num(&c->params, "seed", 1);
    g->wg = (int)dh_pset_num(&c->params, "wg", 256);          /* per case: see upload */
    g->mech_rr = !strcmp(dh_pset_text(&c->params, "mech", "dlt"), "rr");
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

static int mb_check(const struct dh_case *c, const struct dh_device_info *dev,
                    char *why, size_t len)
{
    struct mb_cfg g;
    cfg_of(c, &g);
    if (g.layers == 2 && g.P > 4) {
        snprintf(why, len, "layers=2 supports paths=2 or 4 (paths=%d gives %d leaves)",
                 g.P, g.P * g.P);
        return -DH_E_CONSTRAINT;
    }
    int rg = dh_regroup_check(c, dev, why, len);
    if (rg)
        return rg;
    if (g.n % g.wg) {
        snprintf(why, len, "wg=%d does not divide the %ld items of size %s: use a power of two",
                 g.wg, g.n, c->size);
        return -DH_E_CONSTRAINT;
    }
    if (!strcmp(c->variant, "gpu_tdr")) {
        const char *alg = dh_pset_text(&c->params, "alg", "dgi");
        int nf = (int)dh_pset_num(&c->params, "nf", 16);
        int hot = !strncmp(alg, "hot", 3), fast = !!strchr(alg, '_');
        if (hot && (g.P != 2 || g.layers != 1)) {
            snprintf(why, len, "alg=%s remaps two paths only (paths=%d layers=%d): "
                     "use alg=dgi", alg, g.P, g.layers);
            return -DH_E_CONSTRAINT;
        }
        int vr = fast ? dh_warp_votes_check(c, dev, alg, "hot and dgi", why, len) : 0;
        if (vr)
            return vr;
        int warp = dev && dev->warp_width ? dev->warp_width : 32;
        uint64_t ints = hot ? (uint64_t)g.wg + 2
                        : fast ? (uint64_t)g.nkeys * (uint64_t)(g.wg / warp) + (uint64_t)g.wg + (uint64_t)g.nkeys
                        : (uint64_t)g.nkeys * (uint64_t)(g.wg / (nf ? nf : 1)) + (uint64_t)g.wg + (uint64_t)g.nkeys;
        if (g.layers == 2)      /* a second round's buffers, value and index */
            ints = 2 * ints + 2 * (uint64_t)g.wg;
        if (ints < (uint64_t)g.wg)
            ints = (uint64_t)g.wg;
        if (dev && dev->local_mem_bytes && ints * 4 > dev->local_mem_bytes) {
            snprintf(why, len, "remap needs %llu bytes of local memory, the device has %llu: "
                     "use a larger nf or a smaller wg", (unsigned long long)(ints * 4),
                     (unsigned long long)dev->local_mem_bytes);
            return -DH_E_CONSTRAINT;
        }
    }
    return 0;
}

static uint64_t mb_bytes(const struct dh_case *c, int rotate)
{
    long n = size_n(c->size);
    return (uint64_t)n * (8u * (uint64_t)rotate + 4u + 4u);
}

static int put_f(char *buf, size_t len, size_t *o, const char *name, int k, float v)
{
    int w = snprintf(buf + *o, len - *o, " -D %s%d=%af", name, k, (double)v);
    if (w < 0 || (size_t)w >= len - *o)
        return -1;
    *o += (size_t)w;
    return 0;
}

static int mb_defines(const struct dh_case *c, const struct dh_device_info *dev,
                      char *buf, size_t len)
{
    (void)dev;
    struct mb_cfg g;
    cfg_of(c, &g);
    size_t o = (size_t)snprintf(buf, len, "-D MB_P=%d -D MB_LAYERS=%d -D MB_ITERS=%d",
                                g.P, g.layers, g.iters);
    for (int k = 0; k < g.P; k++)
        if (put_f(buf, len, &o, "MB_A", k, g.A[k]) || put_f(buf, len, &o, "MB_B", k, g.B[k])
            || put_f(buf, len, &o, "MB_C", k, g.C[k]))
            return -DH_E_INTERNAL;
    if (g.layers == 2)
        for (int k = 0; k < g.nkeys; k++)
            if (put_f(buf, len, &o, "MB_D", k, g.D[k]) || put_f(buf, len, &o, "MB_E", k, g.E[k])
                || put_f(buf, len, &o, "MB_F", k, g.F[k]))
                return -DH_E_INTERNAL;
    if (!strcmp(c->variant, "gpu_tdr")) {
        const char *alg = dh_pset_text(&c->params, "alg", "dgi");
        int code = !strcmp(alg, "hot") ? 1 : !strcmp(alg, "dgi") ? 2
                   : !strcmp(alg, "hot_warp") ? 3 : 4;
        o += (size_t)snprintf(buf + o, len - o, " -D TDR_ALG=%d -D TDR_NF=%d", code,
                              (int)dh_pset_num(&c->params, "nf", 16));
    }
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

static void reference(const struct mb_cfg *g, const float *x, const int *key, float *y)
{
#pragma omp parallel for schedule(static)
    for (long i = 0; i < g->n; i++) {
        int k = key[i];
        int p = g->layers == 2 ? k / g->P : k;
        float v = loop_ref(x[i], g->A[p], g->B[p], g->iters);
        v = epi(p, g->C[p], v);
        if (g->layers == 2) {
            v = loop_ref(v, g->D[k], g->E[k], g->iters);
            v = epi(k, g->F[k], v);
        }
        y[i] = v;
    }
}

/* splitmix64: small, seeded, the same on every machine */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int mb_setup(const struct dh_case *c, void **out, struct dh_err *err)
{
    struct mb_state *s = calloc(1, sizeof *s);
    if (!s)
        return dh_err_set(err, DH_E_RESOURCES, "micro/branch: out of host memory");
    cfg_of(c, &s->cfg);
    long n = s->cfg.n;
    s->x = malloc((size_t)n * sizeof *s->x);
    s->y = malloc((size_t)n * sizeof *s->y);
    s->yref = malloc((size_t)n * sizeof *s->yref);
    s->key = malloc((size_t)n * sizeof *s->key);
    s->perm = malloc((size_t)n * sizeof *s->perm);
    s->xp = malloc((size_t)n * sizeof *s->xp);
    s->kp = malloc((size_t)n * sizeof *s->kp);
    if (!s->x || !s->y || !s->yref || !s->key || !s->perm || !s->xp || !s->kp) {
        free(s->x); free(s->y); free(s->yref); free(s->key); free(s->perm);
        free(s->xp); free(s->kp); free(s);
        return dh_err_set(err, DH_E_RESOURCES, "micro/branch: out of host memory "
                          "for %ld items", n);
    }
    uint64_t st = 0x5eedULL ^ ((uint64_t)s->cfg.seed << 20);
    uint64_t thr = (uint64_t)(s->cfg.divfrac * 4294967296.0);
    for (long i = 0; i < n; i++) {
        s->x[i] = (float)((double)(mix(&st) >> 40) / (double)(1u << 24) * 16.0 - 8.0);
        uint64_t r = mix(&st);
        if ((r & 0xffffffffu) < thr || s->cfg.divfrac >= 1.0)
            s->key[i] = (int)((r >> 32) % (uint64_t)s->cfg.nkeys);
        else
            s->key[i] = (int)((i / 64) % s->cfg.nkeys);
    }
    reference(&s->cfg, s->x, s->key, s->yref);
    *out = s;
    return 0;
}

static int mb_upload(void *st, struct dh_exec *x, struct dh_err *err)
{
    struct mb_state *s = st;
    long n = s->cfg.n;
    int rc;
    /* the host data are shared by every variant of the workload: what
     * belongs to this case (its choices and tunables) is read here */
    s->cfg.wg = (int)dh_pset_num(&x->c->params, "wg", 256);
    s->cfg.mech_rr = !strcmp(dh_pset_text(&x->c->params, "mech", "dlt"), "rr");
    s->rot = x->rotate > 0 ? x->rotate : 1;
    s->bx = calloc((size_t)s->rot, sizeof *s->bx);
    s->bk = calloc((size_t)s->rot, sizeof *s->bk);
    if (!s->bx || !s->bk)
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    for (int r = 0; r < s->rot; r++) {
        if ((rc = x->be->alloc(x->dev, (size_t)n * 4, &s->bx[r], err))
            || (rc = x->be->alloc(x->dev, (size_t)n * 4, &s->bk[r], err))
            || (rc = x->be->copy(s->bx[r], s->x, (size_t)n * 4, DH_TO_DEVICE, err))
            || (rc = x->be->copy(s->bk[r], s->key, (size_t)n * 4, DH_TO_DEVICE, err)))
            return rc;
    }
    if ((rc = x->be->alloc(x->dev, (size_t)n * 4, &s->by, err)))
        return rc;
    if (!strcmp(x->c->variant, "cpu_tdr") && s->cfg.mech_rr
        && (rc = x->be->alloc(x->dev, (size_t)n * 4, &s->bidx, err)))
        return rc;
    return 0;
}


/* Stable counting sort of item indices by key: perm[j] = item at slot j. */
static void regroup_by_key(const struct mb_cfg *g, const int *key, int *perm)
{
    long start[16] = {0}, cnt[16] = {0};
    for (long i = 0; i < g->n; i++)
        cnt[key[i]]++;
    for (int k = 1; k < g->nkeys; k++)
        start[k] = start[k - 1] + cnt[k - 1];
    for (long i = 0; i < g->n; i++)
        perm[start[key[i]]++] = (int)i;
}

static void by_key(void *st)
{
    struct mb_state *s = st;
    regroup_by_key(&s->cfg, s->key, s->perm);
}

static int mb_run(void *st, struct dh_exec *x, int rep, struct dh_sample *smp,
                  struct dh_err *err)
{
    struct mb_state *s = st;
    const char *v = x->c->variant;
    long n = s->cfg.n;
    int r = (rep < 0 ? -rep : rep) % s->rot;
    int rc;
    struct dh_arg args[4] = {
        {.kind = DH_ARG_BUFFER, .v.buf = s->bx[r]},
        {.kind = DH_ARG_BUFFER, .v.buf = s->bk[r]},
        {.kind = DH_ARG_BUFFER, .v.buf = s->by},
        {.kind = DH_ARG_BUFFER, .v.buf = s->bidx},
    };
    struct dh_launch l = {.kernel = "mb_baseline", .global = (size_t)n,
                          .local = (size_t)s->cfg.wg, .n_args = 3, .args = args};
    memset(smp, 0, sizeof *smp);
    if (!strcmp(v, "cpu_tdr")) {
        if ((rc = dh_regroup_run(x, s->perm, by_key, s, &smp->host_ms, err)))
            return rc;
        double t0 = dh_now_ms();
        if (!s->cfg.mech_rr) {
            for (long j = 0; j < n; j++) {
                s->xp[j] = s->x[s->perm[j]];
                s->kp[j] = s->key[s->perm[j]];
            }
        }
        smp->host_ms += dh_now_ms() - t0;
        if (s->cfg.mech_rr) {
            double t1 = dh_now_ms();
            if ((rc = x->be->copy(s->bidx, s->perm, (size_t)n * 4, DH_TO_DEVICE, err)))
                return rc;
            smp->xfer_ms = dh_now_ms() - t1;           /* the index array is extra */
            l.kernel = "mb_rr";
            l.n_args = 4;
        } else if ((rc = x->be->copy(s->bx[r], s->xp, (size_t)n * 4, DH_TO_DEVICE, err))
                   || (rc = x->be->copy(s->bk[r], s->kp, (size_t)n * 4, DH_TO_DEVICE, err))) {
            return rc;                              /* same bytes as any upload */
        }
    } else if (!strcmp(v, "gpu_tdr")) {
        l.kernel = "mb_gpu_tdr";
    } else if (!strcmp(v, "melded")) {
        l.kernel = "mb_melded";
    }
    if ((rc = dh_exec_launch(x, &l, &smp->kernel_ms, err)))
        return rc;
    if (!strcmp(v, "cpu_tdr") && !s->cfg.mech_rr) {
        /* dlt: results come back in the regrouped order; putting them back
         * is host work of this variant (the download itself every variant
         * pays) */
        if ((rc = x->be->copy(s->by, s->y, (size_t)n * 4, DH_TO_HOST, err)))
            return rc;
        double t0 = dh_now_ms();
        for (long j = 0; j < n; j++)
            s->xp[s->perm[j]] = s->y[j];
        smp->host_ms += dh_now_ms() - t0;
    }
    return 0;
}

static int mb_poison(void *st, struct dh_exec *x, struct dh_err *err)
{
    struct mb_state *s = st;
    for (long i = 0; i < s->cfg.n; i++)
        s->y[i] = NAN;
    return x->be->copy(s->by, s->y, (size_t)s->cfg.n * 4, DH_TO_DEVICE, err);
}

static int mb_verify(void *st, struct dh_exec *x, struct dh_verify *vf, struct dh_err *err)
{
    struct mb_state *s = st;
    long n = s->cfg.n;
    int rc = x->be->copy(s->by, s->y, (size_t)n * 4, DH_TO_HOST, err);
    if (rc)
        return rc;
    const float *got = s->y;
    if (!strcmp(x->c->variant, "cpu_tdr") && !s->cfg.mech_rr) {
        /* the device holds the regrouped order of the last run */
        for (long j = 0; j < n; j++)
            s->xp[s->perm[j]] = s->y[j];
        got = s->xp;
    }
    memset(vf, 0, sizeof *vf);
    for (long i = 0; i < n; i++) {
        double w = s->yref[i], g = got[i];
        /* NaN counts as bad */
        dh_verify_add(vf, i, g, w, !(fabs(g - w) <= 1e-6 * fmax(1.0, fabs(w))));
    }
    return 0;
}

static double mb_ceiling(void *st, const struct dh_case *c, int warp)
{
    struct mb_state *s = st;
    if (strcmp(c->variant, "gpu_tdr"))
        return 0;
    double co = 0, cs = 0;
    int wg = (int)dh_pset_num(&c->params, "wg", 256);
    if (s->cfg.layers == 2) {
        int *outer = malloc((size_t)s->cfg.n * sizeof *outer);
        if (!outer)
            return 0;
        for (long i = 0; i < s->cfg.n; i++)
            outer[i] = s->key[i] / s->cfg.P;
        dh_ceiling_layer(outer, s->cfg.n, wg, warp, s->cfg.P, &co, &cs);
        free(outer);
    }
    dh_ceiling_layer(s->key, s->cfg.n, wg, warp, s->cfg.nkeys, &co, &cs);
    return cs > 0 ? co / cs : 0;
}

static void mb_teardown(void *st, struct dh_exec *x)
{
    struct mb_state *s = st;
    if (x) {
        for (int r = 0; r < s->rot; r++) {
            if (s->bx && s->bx[r]) x->be->free_buffer(s->bx[r]);
            if (s->bk && s->bk[r]) x->be->free_buffer(s->bk[r]);
        }
        if (s->by) x->be->free_buffer(s->by);
        if (s->bidx) x->be->free_buffer(s->bidx);
    }
    free(s->bx);
    free(s->bk);
    s->bx = s->bk = NULL;
    s->by = s->bidx = NULL;
    s->rot = 0;
}

static void mb_release(void *st)
{
    struct mb_state *s = st;
    if (!s)
        return;
    free(s->x); free(s->y); free(s->yref); free(s->key); free(s->perm);
    free(s->xp); free(s->kp);
    free(s);
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

static long mb_items(void *st)
{
    return ((struct mb_state *)st)->cfg.n;
}

const struct dh_bench dh_bench_micro_branch = {
    .suite = "micro",
    .name = "branch",
    .summary = "compute-bound branch with P data-chosen paths, flat or nested",
    .source = dh_src_micro_branch,
    .params = params,
    .variants = "baseline,cpu_tdr,gpu_tdr,melded",
    .sweep = sweep,
    .check = mb_check,
    .device_bytes = mb_bytes,
    .defines = mb_defines,
    .setup = mb_setup,
    .upload = mb_upload,
    .run = mb_run,
    .poison = mb_poison,
    .verify = mb_verify,
    .ceiling = mb_ceiling,
    .teardown = mb_teardown,
    .release = mb_release,
    .blocks = blocks,
    .n_blocks = (int)(sizeof blocks / sizeof blocks[0]),
    .bound = "compute",
    .items = mb_items,
};
