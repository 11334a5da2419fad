/* frontier/pol — host side: parameters, buffers, variants, verification.
 * Kernel: pol.k (its header gives the rules and the layers); generator,
 * policies and CPU reference: pol_ref.c. Variants:
 *   baseline              the layers as written: status (one filer or
 *                         joint) -> special cases -> credits, with the
 *                         phase-outs and smaller special cases inside
 *   cpu_tdr[mech=dlt,     host regrouping: a stable counting sort of the
 *     regroup=key|sort|   units by filing status and income band (key, the
 *     greedy|greedymax]   natural key), or by their basic-block vectors
 *                         (sort, greedy, greedymax: suites/lib/regroup.h,
 *                         in groups of `group` units); the input columns
 *                         moved into that order before upload, the outputs
 *                         put back; all of it host time, the BBVs'
 *                         profiling run included
 *   gpu_tdr[alg=...]      a remap before each layer (tunable rounds: how
 *                         many, from the outermost)
 *   melded                the status layer melded (pol.k)
 * Verification: every unit's two taxes and their difference, exactly
 * (integer cents), and the host aggregation the study reports (per filing
 * status and income decile: units, sums of both taxes and of the change,
 * winners, losers) against the same aggregation of the reference.
 * BBV model: pol.k marks its basic blocks (DH_BB), the table below gives
 * their operations; the harness profiles the baseline once per workload.
 * DH_POL_MODEL=1 in the environment prints the baseline CFE that the
 * older estimate of pol_ref.c expects (a developer's aid with its own
 * block costs; the H100 counters read lower, see pol_ref.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../lib/regroup.h"
#include "../../lib/warpvotes.h"
#include "../../suite.h"
#include "pol_ref.h"

extern const char dh_src_frontier_pol[];   /* pol.k, embedded by make */

static const struct dh_param_def params[] = {
    {"seed", DH_P_WORKLOAD, "int:0..2147483647", "1", NULL, "generator seed (the synthetic tax units)"},
    {"alg", DH_P_CHOICE, "enum:hot_dgi,dgi,dgi_scan,hot_warp_scan", "hot_dgi", "gpu_tdr",
     "on-GPU remap: hot_dgi = HoT for the two-path layers (status, special cases), DGI for "
     "the credit layer; dgi; dgi_scan; hot_warp_scan = hot_warp + dgi_scan (the last two: "
     "warp votes, CUDA/HIP)"},
    {"mech", DH_P_CHOICE, "enum:dlt", "dlt", "cpu_tdr", "apply the host regrouping by moving the input (data layout transformation)"},
    {"regroup", DH_P_CHOICE, "enum:key,sort,greedy,greedymax", "key", "cpu_tdr",
     "host regrouping: by filing status and income band (key), or by basic-block vectors "
     "(sort, greedy, greedymax)"},
    {"group", DH_P_TUNABLE, "int:1..65536", "64", "cpu_tdr",
     "items per group of the BBV regroupings (a multiple of the warp width)",
     "regroup=greedy,greedymax"},
    {"wg", DH_P_TUNABLE, "int:1..1024", "256", NULL, "work-group size"},
    {"nf", DH_P_TUNABLE, "int:1..1024", "16", "gpu_tdr", "DGI neighboring factor", "alg=hot_dgi,dgi"},
    {"rounds", DH_P_TUNABLE, "int:1..3", "3", "gpu_tdr",
     "layers with a remap before them, from the outermost: 1 status; 2 status, special "
     "cases; 3 status, special cases, credits"},
    {0},
};

static const char *const sweep[] = {"seed=1", NULL};

#define PL_DECILES 10
#define PL_CELLS (PL_NSTATUS * PL_DECILES)
/* one cell of the aggregation */
struct pl_agg {
    int64_t units, base, reform, change, winners, losers;
};

struct pl_state {
    long n;
    struct pl_input in;
    int32_t pol[2 * PL_WORDS];
    int64_t *ref_b, *ref_r;               /* reference taxes */
    struct pl_refinfo info;
    uint8_t *decile;                      /* per unit */
    struct pl_agg agg_ref[PL_CELLS];
    int64_t *got[3];                      /* downloads: base, reform, change */
    int64_t *tmp;                         /* cpu_tdr: putting one back */
    int32_t *staged;                      /* cpu_tdr: the moved input */
    int *key, *perm;
    /* device */
    struct dh_buffer **bin;               /* rotate copies of the input */
    struct dh_buffer *bpol, *bout[3];
    int rot;
};

static long size_n(const char *size)
{
    if (!strcmp(size, "small")) return 1L << 14;
    if (!strcmp(size, "medium")) return 1L << 20;
    return 1L << 24;
}

static int alg_code(const char *alg)
{
    return !strcmp(alg, "hot_dgi") ? 1 : !strcmp(alg, "dgi") ? 2 : !strcmp(alg, "dgi_scan") ? 3 : 4;
}

/* Local memory of pl_gpu_tdr, bytes: a remap buffer per round, the
 * values rounds 2 (13 int64 a lane) and 3 (7) carry. Remaps: DGI
 * P * (wg / nf) + wg + P ints, dgi_scan P * (wg / warp) + wg + P, HoT and
 * hot_warp wg + 2. */
static uint64_t tdr_local_bytes(int alg, int rounds, int wg, int nf, int warp)
{
    uint64_t w = (uint64_t)wg, per = alg == 1 || alg == 2 ? w / (uint64_t)nf : w / (uint64_t)warp;
#define MULTI(P) ((uint64_t)(P) * per + w + (P))
    uint64_t two = alg == 1 || alg == 4 ? w + 2 : MULTI(2);
    uint64_t bytes = 4 * two;
    if (rounds >= 2)
        bytes += 4 * two + 8 * 13 * w;
    if (rounds >= 3)
        bytes += 4 * MULTI(PL_CREDIT_PATHS) + 8 * 7 * w;
#undef MULTI
    return bytes;
}

static int pl_check(const struct dh_case *c, const struct dh_device_info *dev, char *why,
                    size_t len)
{
    long n = size_n(c->size);
    int wg = (int)dh_pset_num(&c->params, "wg", 256);
    if (wg <= 0 || n % wg) {
        snprintf(why, len, "wg=%d does not divide the %ld households of size %s: use a power of two",
                 wg, n, c->size);
        return -DH_E_CONSTRAINT;
    }
    int rg = dh_regroup_check(c, dev, why, len);
    if (rg)
        return rg;
    if (!strcmp(c->variant, "gpu_tdr")) {
        const char *alg = dh_pset_text(&c->params, "alg", "hot_dgi");
        int code = alg_code(alg);
        int nf = (int)dh_pset_num(&c->params, "nf", 16);
        int vr = code >= 3 ? dh_warp_votes_check(c, dev, alg, "hot_dgi and dgi", why, len)
                           : 0;
        if (vr)
            return vr;
        int warp = dev && dev->warp_width ? dev->warp_width : 32;
        uint64_t need = tdr_local_bytes(code, (int)dh_pset_num(&c->params, "rounds", 3), wg,
                                        nf > 0 ? nf : 1, warp);
        if (dev && dev->local_mem_bytes && need > dev->local_mem_bytes) {
            snprintf(why, len, "the remaps and the carried values need %llu bytes of local "
                     "memory at wg=%d, the device has %llu: use a smaller wg",
                     (unsigned long long)need, wg, (unsigned long long)dev->local_mem_bytes);
            return -DH_E_CONSTRAINT;
        }
    }
    return 0;
}

static uint64_t pl_bytes(const struct dh_case *c, int rotate)
{
    uint64_t n = (uint64_t)size_n(c->size);
    return n * (4u * PL_NCOLS * (uint64_t)rotate + 3u * 8u) + 2u * PL_WORDS * 4u;
}

static int pl_defines(const struct dh_case *c, const struct dh_device_info *dev, char *buf,
                      size_t len)
{
    (void)dev;
    int o = snprintf(buf, len, "-D PL_WORDS_HOST=%d", PL_WORDS);
    if (o >= 0 && (size_t)o < len && !strcmp(c->variant, "gpu_tdr"))
        o += snprintf(buf + o, len - (size_t)o, " -D TDR_ALG=%d -D TDR_NF=%d -D PL_ROUNDS=%d",
                      alg_code(dh_pset_text(&c->params, "alg", "hot_dgi")),
                      (int)dh_pset_num(&c->params, "nf", 16),
                      (int)dh_pset_num(&c->params, "rounds", 3));
    return o >= 0 && (size_t)o < len ? 0 : -DH_E_INTERNAL;
}

/* ---- aggregation: per filing status and income decile ---- */
static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Deciles of gross income from an evenly spaced sample of the units. */
static int assign_deciles(struct pl_state *s)
{
    long m = s->n < 65536 ? s->n : 65536;
    int64_t *g = malloc((size_t)m * sizeof *g), cut[PL_DECILES - 1];
    if (!g)
        return -1;
    for (long k = 0; k < m; k++)
        g[k] = pl_gross_income(&s->in, k * (s->n / m));
    qsort(g, (size_t)m, sizeof *g, cmp_i64);
    for (int j = 1; j < PL_DECILES; j++)
        cut[j - 1] = g[m * j / PL_DECILES];
    free(g);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < s->n; i++) {
        int64_t v = pl_gross_income(&s->in, i);
        int d = 0;
        while (d < PL_DECILES - 1 && v >= cut[d])
            d++;
        s->decile[i] = (uint8_t)d;
    }
    return 0;
}

static void aggregate(const struct pl_state *s, const int64_t *tb, const int64_t *tr,
                      const int64_t *td, struct pl_agg *agg)
{
    memset(agg, 0, PL_CELLS * sizeof *agg);
    for (long i = 0; i < s->n; i++) {
        struct pl_agg *a = &agg[(s->in.col[PL_DEMO * s->n + i] & 3) * PL_DECILES + s->decile[i]];
        a->units++;
        a->base += tb[i];
        a->reform += tr[i];
        a->change += td[i];
        a->winners += td[i] < 0;
        a->losers += td[i] > 0;
    }
}

/* ---- setup / release ---- */
static void pl_release(void *st)
{
    struct pl_state *s = st;
    if (!s)
        return;
    free(s->in.col);
    free(s->ref_b);
    free(s->ref_r);
    free(s->info.keys);
    free(s->decile);
    for (int k = 0; k < 3; k++)
        free(s->got[k]);
    free(s->tmp);
    free(s->staged);
    free(s->key);
    free(s->perm);
    free(s);
}

static int pl_setup(const struct dh_case *c, void **out, struct dh_err *err)
{
    struct pl_state *s = calloc(1, sizeof *s);
    if (!s)
        return dh_err_set(err, DH_E_RESOURCES, "frontier/pol: out of host memory");
    s->n = size_n(c->size);
    size_t n = (size_t)s->n;
    int fail = pl_generate(&s->in, s->n, (unsigned)dh_pset_num(&c->params, "seed", 1));
    s->ref_b = malloc(n * sizeof *s->ref_b);
    s->ref_r = malloc(n * sizeof *s->ref_r);
    s->info.keys = malloc(n * PL_NLAYERS);
    s->decile = malloc(n);
    for (int k = 0; k < 3; k++)
        s->got[k] = malloc(n * sizeof *s->got[k]);
    s->tmp = malloc(n * sizeof *s->tmp);
    s->staged = malloc(n * PL_NCOLS * sizeof *s->staged);
    s->key = malloc(n * sizeof *s->key);
    s->perm = malloc(n * sizeof *s->perm);
    if (fail || !s->ref_b || !s->ref_r || !s->info.keys || !s->decile || !s->got[0] || !s->got[1]
        || !s->got[2] || !s->tmp || !s->staged || !s->key || !s->perm || assign_deciles(s)) {
        pl_release(s);
        return dh_err_set(err, DH_E_RESOURCES, "frontier/pol: out of host memory for %zu "
                          "households", n);
    }
    pl_policies(s->pol);
    pl_reference(&s->in, s->pol, s->ref_b, s->ref_r, &s->info);
    for (size_t i = 0; i < n; i++)
        s->tmp[i] = s->ref_r[i] - s->ref_b[i];
    aggregate(s, s->ref_b, s->ref_r, s->tmp, s->agg_ref);
    if (getenv("DH_POL_MODEL"))
        fprintf(stderr, "frontier/pol: %zu households, baseline CFE (BBV model, warp 32) %.3f\n",
                n, s->info.cfe_model);
    *out = s;
    return 0;
}

/* ---- device ---- */
static int pl_upload(void *st, struct dh_exec *x, struct dh_err *err)
{
    struct pl_state *s = st;
    size_t in_bytes = (size_t)s->n * PL_NCOLS * 4, out_bytes = (size_t)s->n * 8;
    int rc;
    s->rot = x->rotate > 0 ? x->rotate : 1;
    s->bin = calloc((size_t)s->rot, sizeof *s->bin);
    if (!s->bin)
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    for (int r = 0; r < s->rot; r++)
        if ((rc = x->be->alloc(x->dev, in_bytes, &s->bin[r], err))
            || (rc = x->be->copy(s->bin[r], s->in.col, in_bytes, DH_TO_DEVICE, err)))
            return rc;
    if ((rc = x->be->alloc(x->dev, sizeof s->pol, &s->bpol, err))
        || (rc = x->be->copy(s->bpol, s->pol, sizeof s->pol, DH_TO_DEVICE, err)))
        return rc;
    for (int k = 0; k < 3; k++)
        if ((rc = x->be->alloc(x->dev, out_bytes, &s->bout[k], err)))
            return rc;
    return 0;
}


/* cpu_tdr regroup=key: the natural key of every unit and a stable
 * counting sort by it (perm[j] = unit at slot j). */
static void regroup_by_key(struct pl_state *s)
{
    long n = s->n, start[PL_NSORTKEYS] = {0}, cnt[PL_NSORTKEYS] = {0};
    for (long i = 0; i < n; i++)
        cnt[s->key[i] = pl_sort_key(&s->in, i)]++;
    for (int k = 1; k < PL_NSORTKEYS; k++)
        start[k] = start[k - 1] + cnt[k - 1];
    for (long i = 0; i < n; i++)
        s->perm[start[s->key[i]]++] = (int)i;
}

static void by_key(void *s)
{
    regroup_by_key(s);
}

/* cpu_tdr, any regrouping: the input columns moved into the order of
 * s->perm. */
static void stage(struct pl_state *s)
{
    long n = s->n;
    for (int f = 0; f < PL_NCOLS; f++) {
        const int32_t *src = s->in.col + (size_t)f * (size_t)n;
        int32_t *dst = s->staged + (size_t)f * (size_t)n;
        for (long j = 0; j < n; j++)
            dst[j] = src[s->perm[j]];
    }
}

/* cpu_tdr: put results of the regrouped order back in place */
static void put_back(const struct pl_state *s, const int64_t *in, int64_t *out)
{
    for (long j = 0; j < s->n; j++)
        out[s->perm[j]] = in[j];
}

static int pl_run(void *st, struct dh_exec *x, int rep, struct dh_sample *smp, struct dh_err *err)
{
    struct pl_state *s = st;
    const char *v = x->c->variant;
    int r = (rep < 0 ? -rep : rep) % s->rot, rc;
    size_t out_bytes = (size_t)s->n * 8;
    struct dh_arg args[6] = {
        {.kind = DH_ARG_BUFFER, .v.buf = s->bin[r]},
        {.kind = DH_ARG_I32, .v.i32 = (int32_t)s->n},
        {.kind = DH_ARG_BUFFER, .v.buf = s->bpol},
        {.kind = DH_ARG_BUFFER, .v.buf = s->bout[0]},
        {.kind = DH_ARG_BUFFER, .v.buf = s->bout[1]},
        {.kind = DH_ARG_BUFFER, .v.buf = s->bout[2]},
    };
    struct dh_launch l = {.kernel = "pl_baseline", .global = (size_t)s->n,
                          .local = (size_t)dh_pset_num(&x->c->params, "wg", 256), .n_args = 6, .args = args};
    int dlt = !strcmp(v, "cpu_tdr");
    memset(smp, 0, sizeof *smp);
    if (dlt) {
        if ((rc = dh_regroup_run(x, s->perm, by_key, s, &smp->host_ms, err)))
            return rc;
        double t0 = dh_now_ms();
        stage(s);
        smp->host_ms += dh_now_ms() - t0;
        if ((rc = x->be->copy(s->bin[r], s->staged, (size_t)s->n * PL_NCOLS * 4, DH_TO_DEVICE, err)))
            return rc;                           /* same bytes as any upload */
    } else if (!strcmp(v, "gpu_tdr")) {
        l.kernel = "pl_gpu_tdr";
    } else if (!strcmp(v, "melded")) {
        l.kernel = "pl_melded";
    }
    if ((rc = dh_exec_launch(x, &l, &smp->kernel_ms, err)))
        return rc;
    if (dlt) {
        /* the results come back in the regrouped order; putting them back
         * is host work of this variant (the download every variant pays) */
        for (int k = 0; k < 3; k++) {
            if ((rc = x->be->copy(s->bout[k], s->tmp, out_bytes, DH_TO_HOST, err)))
                return rc;
            double t0 = dh_now_ms();
            put_back(s, s->tmp, s->got[k]);
            smp->host_ms += dh_now_ms() - t0;
        }
    }
    return 0;
}

static int pl_poison(void *st, struct dh_exec *x, struct dh_err *err)
{
    struct pl_state *s = st;
    for (long i = 0; i < s->n; i++)
        s->tmp[i] = INT64_MIN;
    for (int k = 0; k < 3; k++) {
        int rc = x->be->copy(s->bout[k], s->tmp, (size_t)s->n * 8, DH_TO_DEVICE, err);
        if (rc)
            return rc;
    }
    return 0;
}

static void mismatch(struct dh_verify *vf, long index, double got, double want)
{
    double e = got > want ? got - want : want - got;
    if (e > vf->max_abs_err)
        vf->max_abs_err = e;
    if (vf->n_first < DH_MAX_MISMATCH) {
        vf->first[vf->n_first].index = index;
        vf->first[vf->n_first].got = got;
        vf->first[vf->n_first].want = want;
        vf->n_first++;
    }
    vf->mismatches++;
}

static int pl_verify(void *st, struct dh_exec *x, struct dh_verify *vf, struct dh_err *err)
{
    struct pl_state *s = st;
    long n = s->n;
    int dlt = !strcmp(x->c->variant, "cpu_tdr");
    for (int k = 0; k < 3; k++) {
        int64_t *dst = dlt ? s->tmp : s->got[k];
        int rc = x->be->copy(s->bout[k], dst, (size_t)n * 8, DH_TO_HOST, err);
        if (rc)
            return rc;
        if (dlt)                        /* the device holds the last run's order */
            put_back(s, s->tmp, s->got[k]);
    }
    memset(vf, 0, sizeof *vf);
    /* every unit: exact (integer cents); index k * n + i for output k */
    for (long i = 0; i < n; i++) {
        int64_t want[3] = {s->ref_b[i], s->ref_r[i], s->ref_r[i] - s->ref_b[i]};
        for (int k = 0; k < 3; k++) {
            vf->checked++;
            if (s->got[k][i] != want[k])
                mismatch(vf, k * n + i, (double)s->got[k][i], (double)want[k]);
        }
    }
    /* the aggregation the study reports: index 3n + cell * 6 + field */
    struct pl_agg agg[PL_CELLS];
    aggregate(s, s->got[0], s->got[1], s->got[2], agg);
    for (int cell = 0; cell < PL_CELLS; cell++) {
        const int64_t *g = &agg[cell].units, *w = &s->agg_ref[cell].units;
        for (int f = 0; f < 6; f++) {
            vf->checked++;
            if (g[f] != w[f])
                mismatch(vf, 3 * n + cell * 6 + f, (double)g[f], (double)w[f]);
        }
    }
    return 0;
}

/* Remap ceiling of gpu_tdr: the divergent branches of the kernel (the
 * status switch; the special-case branch; the child credit, EITC and
 * elderly credit branches), each with its keys (path, or -1 for units
 * that skip it) and the mean cost of each path. The three credit branches
 * count as three layers (each sorted on its own), though gpu_tdr
 * regroups them by one key: the ceiling is an upper bound. */
static double pl_ceiling(void *st, const struct dh_case *c, int warp)
{
    struct pl_state *s = st;
    if (strcmp(c->variant, "gpu_tdr"))
        return 0;
    static const int credit_bit[PL_NBRANCH] = {0, 0, PL_C_CTC, PL_C_EITC, PL_C_ELD};
    int wg = (int)dh_pset_num(&c->params, "wg", 256);
    long n = s->n;
    const int8_t *ks = s->info.keys + (long)PL_L_STATUS * n;
    const int8_t *kx = s->info.keys + (long)PL_L_SPECIAL * n;
    const int8_t *kc = s->info.keys + (long)PL_L_CREDIT * n;
    double co = 0, cs = 0;
    for (int B = 0; B < PL_NBRANCH; B++) {
        for (long i = 0; i < n; i++)
            s->key[i] = B == PL_B_STATUS ? ks[i]
                        : B == PL_B_SPECIAL ? (kx[i] ? 0 : -1)
                        : (PL_CREDIT_SET(kc[i]) & credit_bit[B]) ? 0 : -1;
        dh_ceiling_layer_w(s->key, n, wg, warp, B == PL_B_STATUS ? PL_STATUS_PATHS : 1,
                           s->info.path_cost[B], &co, &cs);
    }
    return cs > 0 ? co / cs : 0;
}

static void pl_teardown(void *st, struct dh_exec *x)
{
    struct pl_state *s = st;
    if (x) {
        for (int r = 0; r < s->rot; r++)
            if (s->bin && s->bin[r])
                x->be->free_buffer(s->bin[r]);
        if (s->bpol)
            x->be->free_buffer(s->bpol);
        for (int k = 0; k < 3; k++)
            if (s->bout[k])
                x->be->free_buffer(s->bout[k]);
    }
    free(s->bin);
    s->bin = NULL;
    s->bpol = NULL;
    for (int k = 0; k < 3; k++)
        s->bout[k] = NULL;
    s->rot = 0;
}

/* Blocks marked in pol.k, in id order (PL_BB_*): the operations of one
 * execution, counted in the source by class. Both policies of a block
 * that runs once per unit are in its counts (the policy loops are
 * constant, unrolled); a block inside a policy loop counts one policy.
 * How: every int64 add, sub, compare, min, max, select, shift, and,
 * negation is one alu; a condition with && / || is one br for its branch
 * and one alu for each further compare and each logic operation; a loop
 * iteration is one br; an int64 multiply is 3 mul, an int64 division by
 * a constant (a multiply-high sequence) 3 mul + 3 alu, by a variable
 * 3 div; a halving (/ 2) is 2 alu; pl_rate is 6 alu + 6 mul (compare,
 * add, select; multiply, division by 10000). (First counted with every
 * int64 multiply or division as one div; converted with the rule above,
 * the constant divisions being half of those: 3 mul + 1.5 alu each.) A
 * policy word or input column is one ldg, counted
 * once per block where the source reads it again (and an index of a
 * status or child count, word + st, is one alu); int32 multiplies of
 * the input's column offsets (f * n) are mul. */
static const struct dh_bb_def blocks[] = {
    /* the global id (1 mul, 1 alu), load 14 columns (13 f * n, 13 + i),
     * decode 7, the status test and its branch */
    {"entry", {.alu = 22, .mul = 14, .ldg = 14, .br = 1}},
    /* one-filer path, both policies: SE tax up to its floor test, loss
     * limit, income, the social security test, deductions, the
     * limitation test, taxable income, the bracket loop's setup */
    {"one", {.alu = 99, .mul = 30, .ldg = 22, .br = 6}},
    {"one_se", {.alu = 16, .mul = 12, .ldg = 3}},
    {"one_ss", {.alu = 3, .br = 1}},
    {"one_ss50", {.alu = 14, .mul = 12, .br = 1}},
    {"one_ss85", {.alu = 29, .mul = 24, .br = 1}},
    {"one_pease", {.alu = 15, .mul = 12}},
    {"one_brk", {.alu = 22, .mul = 12, .ldg = 2, .br = 1}},
    /* joint path, both policies: two earners' SE tax tests, the rest as
     * "one" (the status a constant: no index arithmetic) */
    {"jnt", {.alu = 105, .mul = 42, .ldg = 22, .br = 8}},
    {"jnt_se1", {.alu = 16, .mul = 12, .ldg = 3}},
    {"jnt_se2", {.alu = 16, .mul = 12, .ldg = 3}},
    {"jnt_ss", {.alu = 3, .br = 1}},
    {"jnt_ss50", {.alu = 14, .mul = 12, .br = 1}},
    {"jnt_ss85", {.alu = 29, .mul = 24, .br = 1}},
    {"jnt_pease", {.alu = 15, .mul = 12}},
    {"jnt_brk", {.alu = 22, .mul = 12, .ldg = 2, .br = 1}},
    /* payroll of two earners under two policies (the donut a select) */
    {"payroll", {.alu = 76, .mul = 48, .ldg = 8}},
    {"special_key", {.alu = 28, .ldg = 4, .br = 1}},
    {"special", {.alu = 16, .ldg = 4, .br = 6}},
    {"sp_cg", {.alu = 25, .mul = 12, .ldg = 4}},
    {"sp_niit", {.alu = 12, .mul = 6, .ldg = 1}},
    {"sp_amed", {.alu = 8, .mul = 6, .ldg = 1}},
    {"amt", {.alu = 150, .mul = 84, .ldg = 20}},
    /* credit layer, both policies: the tests, EITC eligibility, the
     * persons 65+, the credits against the tax; the three stores */
    {"credits", {.alu = 83, .ldg = 14, .stg = 3, .br = 12}},
    {"ctc", {.alu = 4, .mul = 6, .ldg = 5, .br = 2}},
    {"ctc_dep", {.alu = 5, .br = 1}},
    {"ctc_po", {.alu = 4, .mul = 3, .div = 3, .ldg = 2}},
    {"ctc_partref", {.alu = 11, .mul = 9, .ldg = 3}},
    {"eitc_kids", {.alu = 5, .br = 1}},
    {"eitc", {.alu = 10, .ldg = 4, .br = 2}},
    {"eitc_in", {.alu = 8, .mul = 6, .ldg = 1}},
    {"eitc_po", {.alu = 10, .mul = 6, .ldg = 1}},
    {"eld", {.alu = 14, .ldg = 3, .br = 1}},
    {"eld_cr", {.alu = 6, .mul = 6, .ldg = 1}},
};

static long pl_items(void *st)
{
    return ((struct pl_state *)st)->n;
}

const struct dh_bench dh_bench_frontier_pol = {
    .suite = "frontier",
    .name = "pol",
    .summary = "tax-policy microsimulation: two policies per household, 3 divergent layers",
    .source = dh_src_frontier_pol,
    .params = params,
    .variants = "baseline,cpu_tdr,gpu_tdr,melded",
    .sweep = sweep,
    .check = pl_check,
    .device_bytes = pl_bytes,
    .defines = pl_defines,
    .setup = pl_setup,
    .upload = pl_upload,
    .run = pl_run,
    .poison = pl_poison,
    .verify = pl_verify,
    .ceiling = pl_ceiling,
    .teardown = pl_teardown,
    .release = pl_release,
    .blocks = blocks,
    .n_blocks = (int)(sizeof blocks / sizeof blocks[0]),
    .bound = "compute",
    .items = pl_items,
};
