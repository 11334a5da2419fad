/* frontier/gdt — host side: parameters, constraints, buffers, the
 * variants' runs, verification, the remap ceiling and the table of the
 * basic blocks gdt.k marks (for the BBV model). The data, the tree
 * and the CPU reference are in gdt_model.c; the rules in gdt.h; the
 * kernels in gdt.k (read its header first). Variants:
 *   baseline            gdt_baseline on the data as generated
 *   cpu_tdr[mech=dlt,   the host orders the instruments, by gdt_sort_key
 *     regroup=key|sort| (key: stable counting sort, volatility regime on
 *     greedy|greedymax] the first trading day, then sector) or by their
 *                       basic-block vectors (suites/lib/regroup.h), moves
 *                       every day of every instrument into that order,
 *                       uploads, runs gdt_baseline and puts the results
 *                       back; ordering and moving are host time, the BBVs'
 *                       profiling run included
 *   gpu_tdr[alg=...]    gdt_gpu_tdr: a remap before each of the three
 *                       layers of every day
 *   melded              gdt_melded
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../lib/regroup.h"
#include "../../lib/warpvotes.h"
#include "../../suite.h"
#include "gdt_model.h"

extern const char dh_src_frontier_gdt[];   /* gdt.k, embedded by make */

static const struct dh_param_def params[] = {
    {"seed", DH_P_WORKLOAD, "int:0..2147483647", "1", NULL, "generator seed (market data and GP tree)"},
    {"days", DH_P_WORKLOAD, "int:128..2520", "504", NULL, "trading days of data per instrument (the first 64 fill the windows)"},
    {"sectors", DH_P_WORKLOAD, "int:1..256", "24", NULL, "sectors (each with its own index)"},
    {"alg", DH_P_CHOICE, "enum:hot_dgi,dgi,dgi_scan,hot_warp_scan", "dgi", "gpu_tdr",
     "remap: hot_dgi = HoT for the 2-path layer, DGI for the others; dgi; dgi_scan; "
     "hot_warp_scan = hot_warp for the 2-path layer, dgi_scan for the others (the last "
     "two need warp votes: CUDA, HIP)"},
    {"mech", DH_P_CHOICE, "enum:dlt", "dlt", "cpu_tdr", "apply the host regrouping by moving the data (dlt)"},
    {"regroup", DH_P_CHOICE, "enum:key,sort,greedy,greedymax", "key", "cpu_tdr",
     "host regrouping: by volatility regime on the first trading day, then sector (key), or "
     "by basic-block vectors (sort, greedy, greedymax)"},
    {"group", DH_P_TUNABLE, "int:1..65536", "64", "cpu_tdr",
     "items per group of the BBV regroupings (a multiple of the warp width)",
     "regroup=greedy,greedymax"},
    {"wg", DH_P_TUNABLE, "int:1..1024", "256", NULL, "work-group size"},
    {"nf", DH_P_TUNABLE, "int:1..1024", "16", "gpu_tdr", "DGI neighboring factor", "alg=hot_dgi,dgi"},
    {0},
};

static const char *const sweep[] = {"", NULL};

struct gdt_state {
    struct gdt_data g;
    /* per case (upload .. teardown) */
    int wg, rot, cpu_tdr;
    int *out;                           /* [3n] downloaded results */
    int *perm;                          /* cpu_tdr: slot j holds instrument perm[j] */
    int *key;                           /* cpu_tdr: sort key per instrument */
    int *back;                          /* cpu_tdr: [3n] results put back in order */
    int *mpx, *mrg, *mvl, *msec;        /* cpu_tdr: the moved data */
    struct dh_buffer **bpx, **brg, **bvl;
    struct dh_buffer *bsec, *bsix, *btree, *bres;
    /* the ceiling of the last (wg, warp) asked */
    int ceil_wg, ceil_warp;
    double ceil;
};

static long size_n(const char *size)
{
    if (!strcmp(size, "small")) return 1024;
    if (!strcmp(size, "medium")) return 131072;
    return 524288;
}

static int n_days(const struct dh_case *c)
{
    return (int)dh_pset_num(&c->params, "days", 504);
}

/* ints of local memory gdt_gpu_tdr declares, as gdt.k computes them */
static uint64_t tdr_local_ints(const char *alg, uint64_t wg, uint64_t nf, uint64_t warp)
{
    int scan = !strcmp(alg, "dgi_scan") || !strcmp(alg, "hot_warp_scan");
    int hot = !strcmp(alg, "hot_dgi") || !strcmp(alg, "hot_warp_scan");
    uint64_t per = scan ? wg / warp : wg / nf;      /* counters per path */
#define GDT_SHMN(P) ((uint64_t)(P) * per + wg + (uint64_t)(P))
    uint64_t shm1 = hot ? wg + 2 : GDT_SHMN(2);
    uint64_t total = shm1 + GDT_SHMN(GDT_NKIND) + GDT_SHMN(3) + 10 * wg;
#undef GDT_SHMN
    return total;
}

static int gdt_check(const struct dh_case *c, const struct dh_device_info *dev, char *why,
                     size_t len)
{
    long n = size_n(c->size);
    int wg = (int)dh_pset_num(&c->params, "wg", 256);
    int days = n_days(c);
    if (wg < 1 || n % wg) {
        snprintf(why, len, "wg=%d does not divide the %ld instruments of size %s: use a power "
                 "of two", wg, n, c->size);
        return -DH_E_CONSTRAINT;
    }
    uint64_t array = (uint64_t)days * (uint64_t)n * 4;
    if ((uint64_t)days * (uint64_t)n >= (1ull << 31)) {
        snprintf(why, len, "days=%d x %ld instruments exceed the kernel's 32-bit indexing", days, n);
        return -DH_E_CONSTRAINT;
    }
    if (dev && dev->max_alloc_bytes && array > dev->max_alloc_bytes) {
        snprintf(why, len, "one day-major array needs %llu bytes, the device allocates at most "
                 "%llu: use fewer days", (unsigned long long)array,
                 (unsigned long long)dev->max_alloc_bytes);
        return -DH_E_CONSTRAINT;
    }
    int rg = dh_regroup_check(c, dev, why, len);
    if (rg)
        return rg;
    if (!strcmp(c->variant, "gpu_tdr")) {
        const char *alg = dh_pset_text(&c->params, "alg", "dgi");
        int fast = !strcmp(alg, "dgi_scan") || !strcmp(alg, "hot_warp_scan");
        int vr = fast ? dh_warp_votes_check(c, dev, alg, "hot_dgi and dgi", why, len) : 0;
        if (vr)
            return vr;
        int nf = (int)dh_pset_num(&c->params, "nf", 16);
        int warp = dev && dev->warp_width ? dev->warp_width : 32;
        uint64_t bytes = 4 * tdr_local_ints(alg, (uint64_t)wg, (uint64_t)(nf > 0 ? nf : 1),
                                            (uint64_t)warp);
        if (dev && dev->local_mem_bytes && bytes > dev->local_mem_bytes) {
            snprintf(why, len, "the three remap rounds need %llu bytes of local memory, the "
                     "device has %llu: use a smaller wg%s", (unsigned long long)bytes,
                     (unsigned long long)dev->local_mem_bytes, fast ? "" : " or a larger nf");
            return -DH_E_CONSTRAINT;
        }
    }
    return 0;
}

static uint64_t gdt_bytes(const struct dh_case *c, int rotate)
{
    uint64_t n = (uint64_t)size_n(c->size), days = (uint64_t)n_days(c);
    uint64_t S = (uint64_t)dh_pset_num(&c->params, "sectors", 24);
    return (uint64_t)rotate * 3 * days * n * 4 + n * 4 + days * S * 4
           + GDT_NODES * GDT_NI * 4 + 3 * n * 4;
}

static int gdt_defines(const struct dh_case *c, const struct dh_device_info *dev, char *buf,
                       size_t len)
{
    (void)dev;
    size_t o = (size_t)snprintf(buf, len,
        "-D GDT_N=%ld -D GDT_DAYS=%d -D GDT_S=%d -D GDT_WARM=%d -D GDT_W1=%d -D GDT_W2=%d "
        "-D GDT_W3=%d -D GDT_NFEAT=%d -D GDT_NKIND=%d -D GDT_LEVELS=%d -D GDT_SUBN=%d "
        "-D GDT_NI=%d -D GDT_CAP0=%d -D GDT_BUY=%d -D GDT_SELL=%d -D GDT_HOLD=%d "
        "-D GDT_K_VOLA=%d -D GDT_K_RSI=%d -D GDT_K_BRK=%d -D GDT_K_OBV=%d -D GDT_K_BETA=%d "
        "-D GDT_K_DD=%d",
        size_n(c->size), n_days(c), (int)dh_pset_num(&c->params, "sectors", 24), GDT_WARM,
        GDT_W1, GDT_W2, GDT_W3, GDT_NFEAT, GDT_NKIND, GDT_LEVELS, GDT_SUBN, GDT_NI, GDT_CAP0,
        GDT_BUY, GDT_SELL, GDT_HOLD, GDT_K_VOLA, GDT_K_RSI, GDT_K_BRK, GDT_K_OBV, GDT_K_BETA,
        GDT_K_DD);
    if (o >= len)
        return -DH_E_INTERNAL;
    if (!strcmp(c->variant, "melded"))
        o += (size_t)snprintf(buf + o, len - o, " -D GDT_MELDED=1");
    if (!strcmp(c->variant, "gpu_tdr")) {
        const char *alg = dh_pset_text(&c->params, "alg", "dgi");
        int code = !strcmp(alg, "hot_dgi") ? 1 : !strcmp(alg, "dgi") ? 2
                   : !strcmp(alg, "dgi_scan") ? 3 : 4;
        o += (size_t)snprintf(buf + o, len - o, " -D GDT_ALG=%d -D GDT_NF=%d", code,
                              (int)dh_pset_num(&c->params, "nf", 16));
    }
    return o < len ? 0 : -DH_E_INTERNAL;
}

static int gdt_setup(const struct dh_case *c, void **out, struct dh_err *err)
{
    struct gdt_state *s = calloc(1, sizeof *s);
    if (!s)
        return dh_err_set(err, DH_E_RESOURCES, "frontier/gdt: out of host memory");
    long n = size_n(c->size);
    int days = n_days(c), sectors = (int)dh_pset_num(&c->params, "sectors", 24);
    unsigned seed = (unsigned)dh_pset_num(&c->params, "seed", 1);
    if (gdt_generate(&s->g, n, days, sectors, seed)) {
        free(s);
        return dh_err_set(err, DH_E_RESOURCES, "frontier/gdt: out of host memory for %ld "
                          "instruments x %d days", n, days);
    }
    *out = s;
    return 0;
}

static int gdt_upload(void *st, struct dh_exec *x, struct dh_err *err)
{
    struct gdt_state *s = st;
    const struct gdt_data *g = &s->g;
    size_t cells = (size_t)g->days * (size_t)g->n;
    int rc;
    /* the host data are shared by every variant of the workload: what
     * belongs to this case is read here */
    s->wg = (int)dh_pset_num(&x->c->params, "wg", 256);
    s->cpu_tdr = !strcmp(x->c->variant, "cpu_tdr");
    s->rot = x->rotate > 0 ? x->rotate : 1;
    s->out = malloc(3 * (size_t)g->n * sizeof *s->out);
    s->bpx = calloc((size_t)s->rot, sizeof *s->bpx);
    s->brg = calloc((size_t)s->rot, sizeof *s->brg);
    s->bvl = calloc((size_t)s->rot, sizeof *s->bvl);
    if (!s->out || !s->bpx || !s->brg || !s->bvl)
        return dh_err_set(err, DH_E_RESOURCES, "frontier/gdt: out of host memory");
    if (s->cpu_tdr) {
        s->perm = malloc((size_t)g->n * sizeof *s->perm);
        s->key = malloc((size_t)g->n * sizeof *s->key);
        s->msec = malloc((size_t)g->n * sizeof *s->msec);
        s->back = malloc(3 * (size_t)g->n * sizeof *s->back);
        s->mpx = malloc(cells * sizeof *s->mpx);
        s->mrg = malloc(cells * sizeof *s->mrg);
        s->mvl = malloc(cells * sizeof *s->mvl);
        if (!s->perm || !s->key || !s->msec || !s->back || !s->mpx || !s->mrg || !s->mvl)
            return dh_err_set(err, DH_E_RESOURCES, "frontier/gdt: out of host memory for "
                              "cpu_tdr's moved copy (%zu bytes)", 3 * cells * 4);
    }
    const struct dh_backend_ops *be = x->be;
    for (int r = 0; r < s->rot; r++) {
        if ((rc = be->alloc(x->dev, cells * 4, &s->bpx[r], err))
            || (rc = be->alloc(x->dev, cells * 4, &s->brg[r], err))
            || (rc = be->alloc(x->dev, cells * 4, &s->bvl[r], err))
            || (rc = be->copy(s->bpx[r], g->px, cells * 4, DH_TO_DEVICE, err))
            || (rc = be->copy(s->brg[r], g->rg, cells * 4, DH_TO_DEVICE, err))
            || (rc = be->copy(s->bvl[r], g->vl, cells * 4, DH_TO_DEVICE, err)))
            return rc;
    }
    size_t nsix = (size_t)g->days * (size_t)g->sectors * 4;
    if ((rc = be->alloc(x->dev, (size_t)g->n * 4, &s->bsec, err))
        || (rc = be->alloc(x->dev, nsix, &s->bsix, err))
        || (rc = be->alloc(x->dev, sizeof g->tree, &s->btree, err))
        || (rc = be->alloc(x->dev, 3 * (size_t)g->n * 4, &s->bres, err))
        || (rc = be->copy(s->bsec, g->sec, (size_t)g->n * 4, DH_TO_DEVICE, err))
        || (rc = be->copy(s->bsix, g->six, nsix, DH_TO_DEVICE, err))
        || (rc = be->copy(s->btree, (void *)g->tree, sizeof g->tree, DH_TO_DEVICE, err)))
        return rc;
    return 0;
}


/* cpu_tdr's regroup=key: the key of every instrument, a stable counting
 * sort into s->perm */
static void regroup_by_key(struct gdt_state *s)
{
    const struct gdt_data *g = &s->g;
    long n = g->n, start[2 * 256 + 1];
    int nk = 2 * g->sectors;
    memset(start, 0, sizeof start);
    for (long i = 0; i < n; i++) {
        s->key[i] = gdt_sort_key(g, i);
        start[s->key[i] + 1]++;
    }
    for (int k = 1; k <= nk; k++)
        start[k] += start[k - 1];
    for (long i = 0; i < n; i++)
        s->perm[start[s->key[i]]++] = (int)i;
}

static void by_key(void *s)
{
    regroup_by_key(s);
}

/* cpu_tdr's host work after any regrouping: every day of every
 * instrument, and its sector, moved into the order of s->perm */
static void move_data(struct gdt_state *s)
{
    const struct gdt_data *g = &s->g;
    long n = g->n;
    for (long j = 0; j < n; j++)
        s->msec[j] = g->sec[s->perm[j]];
    for (int d = 0; d < g->days; d++) {
        const int *px = g->px + (size_t)d * n, *rg = g->rg + (size_t)d * n,
                  *vl = g->vl + (size_t)d * n;
        int *mpx = s->mpx + (size_t)d * n, *mrg = s->mrg + (size_t)d * n,
            *mvl = s->mvl + (size_t)d * n;
        for (long j = 0; j < n; j++) {
            int p = s->perm[j];
            mpx[j] = px[p];
            mrg[j] = rg[p];
            mvl[j] = vl[p];
        }
    }
}

/* results of slot j belong to instrument perm[j] */
static void put_back(const struct gdt_state *s, const int *dev, int *out)
{
    long n = s->g.n;
    for (int f = 0; f < 3; f++)
        for (long j = 0; j < n; j++)
            out[f * n + s->perm[j]] = dev[f * n + j];
}

static int gdt_run(void *st, struct dh_exec *x, int rep, struct dh_sample *smp,
                   struct dh_err *err)
{
    struct gdt_state *s = st;
    const struct gdt_data *g = &s->g;
    size_t cells = (size_t)g->days * (size_t)g->n;
    int r = (rep < 0 ? -rep : rep) % s->rot, rc;
    struct dh_arg args[7] = {
        {.kind = DH_ARG_BUFFER, .v.buf = s->bpx[r]},
        {.kind = DH_ARG_BUFFER, .v.buf = s->brg[r]},
        {.kind = DH_ARG_BUFFER, .v.buf = s->bvl[r]},
        {.kind = DH_ARG_BUFFER, .v.buf = s->bsix},
        {.kind = DH_ARG_BUFFER, .v.buf = s->bsec},
        {.kind = DH_ARG_BUFFER, .v.buf = s->btree},
        {.kind = DH_ARG_BUFFER, .v.buf = s->bres},
    };
    struct dh_launch l = {.kernel = "gdt_baseline", .global = (size_t)g->n,
                          .local = (size_t)s->wg, .n_args = 7, .args = args};
    memset(smp, 0, sizeof *smp);
    const char *v = x->c->variant;
    if (s->cpu_tdr) {
        if ((rc = dh_regroup_run(x, s->perm, by_key, s, &smp->host_ms, err)))
            return rc;
        double t0 = dh_now_ms();
        move_data(s);
        smp->host_ms += dh_now_ms() - t0;
        /* the same bytes as any upload of the input */
        if ((rc = x->be->copy(s->bpx[r], s->mpx, cells * 4, DH_TO_DEVICE, err))
            || (rc = x->be->copy(s->brg[r], s->mrg, cells * 4, DH_TO_DEVICE, err))
            || (rc = x->be->copy(s->bvl[r], s->mvl, cells * 4, DH_TO_DEVICE, err))
            || (rc = x->be->copy(s->bsec, s->msec, (size_t)g->n * 4, DH_TO_DEVICE, err)))
            return rc;
    } else if (!strcmp(v, "gpu_tdr")) {
        l.kernel = "gdt_gpu_tdr";
    } else if (!strcmp(v, "melded")) {
        l.kernel = "gdt_melded";
    }
    if ((rc = dh_exec_launch(x, &l, &smp->kernel_ms, err)))
        return rc;
    if (s->cpu_tdr) {
        /* results come back in the sorted order: putting them back is this
         * variant's host work (the download itself every variant pays) */
        if ((rc = x->be->copy(s->bres, s->out, 3 * (size_t)g->n * 4, DH_TO_HOST, err)))
            return rc;
        double t0 = dh_now_ms();
        put_back(s, s->out, s->back);
        smp->host_ms += dh_now_ms() - t0;
    }
    return 0;
}

static int gdt_poison(void *st, struct dh_exec *x, struct dh_err *err)
{
    struct gdt_state *s = st;
    size_t m = 3 * (size_t)s->g.n;
    for (size_t k = 0; k < m; k++)
        s->out[k] = (int)0x80000001u;       /* trades < 0: no correct run */
    return x->be->copy(s->bres, s->out, m * 4, DH_TO_DEVICE, err);
}

static int gdt_verify(void *st, struct dh_exec *x, struct dh_verify *vf, struct dh_err *err)
{
    struct gdt_state *s = st;
    long n = s->g.n;
    int rc = x->be->copy(s->bres, s->out, 3 * (size_t)n * 4, DH_TO_HOST, err);
    if (rc)
        return rc;
    const int *got = s->out;
    if (s->cpu_tdr) {
        /* the device holds the sorted order of the last run */
        put_back(s, s->out, s->back);
        got = s->back;
    }
    memset(vf, 0, sizeof *vf);
    for (long k = 0; k < 3 * n; k++) {
        /* integers: exact */
        dh_verify_add(vf, k, (double)got[k], (double)s->g.ref[k], got[k] != s->g.ref[k]);
    }
    return 0;
}

/* Per day, each layer with its paths' costs (gdt_cost_*): layer 1 by
 * regime, layer 2 by kind, layer 3 buy and sell (hold skips). */
static double gdt_ceiling(void *st, const struct dh_case *c, int warp)
{
    struct gdt_state *s = st;
    const struct gdt_data *g = &s->g;
    if (strcmp(c->variant, "gpu_tdr"))
        return 0;
    int wg = (int)dh_pset_num(&c->params, "wg", 256);
    if (s->ceil_wg == wg && s->ceil_warp == warp)
        return s->ceil;
    int *k1 = malloc((size_t)g->n * sizeof *k1), *k2 = malloc((size_t)g->n * sizeof *k2),
        *k3 = malloc((size_t)g->n * sizeof *k3);
    double co = 0, cs = 0;
    if (k1 && k2 && k3) {
        for (int d = GDT_WARM; d < g->days; d++) {
            const unsigned char *kd = g->keys + (size_t)d * g->n;
            for (long i = 0; i < g->n; i++) {
                int a = GDT_KEY_A(kd[i]);
                k1[i] = GDT_KEY_R(kd[i]);
                k2[i] = GDT_KEY_K(kd[i]);
                k3[i] = a == GDT_HOLD ? -1 : a;
            }
            dh_ceiling_layer_w(k1, g->n, wg, warp, 2, gdt_cost_l1, &co, &cs);
            dh_ceiling_layer_w(k2, g->n, wg, warp, GDT_NKIND, gdt_cost_l2, &co, &cs);
            dh_ceiling_layer_w(k3, g->n, wg, warp, 2, gdt_cost_l3, &co, &cs);
        }
    }
    free(k1); free(k2); free(k3);
    s->ceil_wg = wg;
    s->ceil_warp = warp;
    s->ceil = cs > 0 ? co / cs : 0;
    return s->ceil;
}

static void gdt_teardown(void *st, struct dh_exec *x)
{
    struct gdt_state *s = st;
    if (x) {
        for (int r = 0; r < s->rot; r++) {
            if (s->bpx && s->bpx[r]) x->be->free_buffer(s->bpx[r]);
            if (s->brg && s->brg[r]) x->be->free_buffer(s->brg[r]);
            if (s->bvl && s->bvl[r]) x->be->free_buffer(s->bvl[r]);
        }
        if (s->bsec) x->be->free_buffer(s->bsec);
        if (s->bsix) x->be->free_buffer(s->bsix);
        if (s->btree) x->be->free_buffer(s->btree);
        if (s->bres) x->be->free_buffer(s->bres);
    }
    free(s->bpx); free(s->brg); free(s->bvl);
    free(s->out); free(s->perm); free(s->key); free(s->back);
    free(s->mpx); free(s->mrg); free(s->mvl); free(s->msec);
    s->bpx = s->brg = s->bvl = NULL;
    s->bsec = s->bsix = s->btree = s->bres = NULL;
    s->out = s->perm = s->key = s->back = s->mpx = s->mrg = s->mvl = s->msec = NULL;
    s->rot = 0;
}

/* Blocks marked in gdt.k, in id order (GDT_BB_*): operations of one
 * execution, counted in the source as follows.
 *   ldg/stg  each global load and store; within a block each address
 *            once, and a value that roll, the drops or day loaded earlier
 *            the same day (closes 0/5/10/20/50, sector index 0/10/20/50,
 *            ranges 0/50, volumes 0/20) is kept in a register and not
 *            counted again. num/den are indexed by the tree's feature: a
 *            private array in (off-chip) local memory, its stores and
 *            loads count as stg/ldg. Address arithmetic is in the access.
 *   alu      32-bit add, sub, logic, shift, compare, select, min, max,
 *            abs: 1 each; on 64-bit values 2 each; a clamp is a min and a
 *            max; casts are free; short ifs that only set values (action,
 *            settle) are selects
 *   mul      32-bit multiply or multiply-add, also by a constant (by a
 *            power of two it is a shift: alu); a 32-bit division by a
 *            constant (its multiply-high)
 *   div      a 32-bit division by a variable 1; a 64-bit one 3 (suite.h's
 *            class). A 64-bit multiply (32x32->64 products included) or a
 *            64-bit division by a constant is 3 mul (by a power of two: a
 *            shift, alu). (First counted with every 64-bit multiply or
 *            division as one div, then converted by this rule: buy 180
 *            products + 6 divisions, beta 43 + 1, vola 21 products and
 *            constant divisions + 20 32-bit divisions, a ratio x * 1000 / y
 *            one product + one division, fee/impact 16 + 3.)
 *   br       a branch condition tested, a switch, one day-loop iteration
 *            (in roll: the warm-up and the trading-day loops call it once
 *            per iteration)
 * Constant-trip loops (21 and 20 closes, 60 days, 5 levels, isqrt's 16
 * steps, fee's 6 tiers) are unrolled: all their iterations are counted in
 * the enclosing block, without br. isqrt = 16 x 7 alu (b is a constant
 * per step); fee = 44 alu + 12 div; impact = 116 alu (isqrt included) +
 * 1 mul + 6 div. Hold is the empty path: no block. */
static const struct dh_bb_def blocks[] = {
    /* gid, sector, the three result stores */
    {"entry", {.alu = 2, .mul = 1, .ldg = 1, .stg = 3}},
    /* 4 loads, 7 sums; the loop iteration and the 3 drop tests */
    {"roll", {.alu = 7, .ldg = 4, .br = 4}},
    {"drop5", {.alu = 1, .ldg = 1}},
    {"drop20", {.alu = 3, .ldg = 3}},
    {"drop50", {.alu = 3, .ldg = 3}},
    /* features (alu 13, mul 3, div 3, ldg 2, stg 16), root test (ldg 1,
     * div 2, alu 2), layer 1's test, R0/R1 stores (stg 4), walk (5 levels:
     * ldg 20, div 10, alu 32, mul 1), kind and switch (ldg 1, br 1), leaf
     * (ldg 1, mul 2, alu 8), the leaf's 3 ints, action (alu 14, div 2),
     * trade's 2 tests, settle (alu 19, div 1) */
    {"day", {.alu = 88, .mul = 60, .ldg = 28, .stg = 20, .br = 4}},
    /* 17 new closes, 20 adds, 20 mads; 8 64-bit mul/div */
    {"l1_calm", {.alu = 24, .mul = 38, .div = 6, .ldg = 17}},
    /* 17 new closes, 20 x 6 alu; two ratios */
    {"l1_vol", {.alu = 128, .mul = 6, .div = 6, .ldg = 17}},
    /* 17 new closes; 20 x (sub, mul, div, clamp, square, 64-bit add); / 20 */
    {"l2_vola", {.alu = 103, .mul = 83, .div = 20, .ldg = 17}},
    /* 17 new closes; 20 x 6 alu; a ratio */
    {"l2_rsi", {.alu = 124, .mul = 3, .div = 3, .ldg = 17}},
    /* 17 new closes and 20 ranges; 20 x 5 alu; a ratio */
    {"l2_brk", {.alu = 105, .mul = 3, .div = 3, .ldg = 37}},
    /* 17 new closes, 19 new volumes; 20 x 10 alu; a ratio */
    {"l2_obv", {.alu = 202, .mul = 3, .div = 3, .ldg = 36}},
    /* 17 new closes, 18 new index levels; 20 x (6 alu, 2 products);
     * ratio, rescale, 2 clamps */
    {"l2_beta", {.alu = 130, .mul = 129, .div = 3, .ldg = 35}},
    /* 17 new closes; 21 x 3 alu; a ratio */
    {"l2_dd", {.alu = 63, .mul = 3, .div = 3, .ldg = 17}},
    /* risk model: 2 + 55 closes, 56 index levels, 58 ranges; 60 x (12 alu,
     * 3 products), two isqrt, q and qmax; the cov > 0 and q > 0 tests */
    {"l3_buy", {.alu = 961, .mul = 542, .div = 18, .ldg = 171, .br = 2}},
    {"l3_buy_cov", {.alu = 7, .div = 3}},
    /* notional, fee, impact, cash */
    {"l3_fill", {.alu = 166, .mul = 49, .div = 9}},
    {"l3_sell", {.alu = 166, .mul = 49, .div = 9}},
};

/* work-items of one gdt_baseline launch: the instruments */
static long gdt_items(void *st)
{
    return ((struct gdt_state *)st)->g.n;
}

static void gdt_release(void *st)
{
    struct gdt_state *s = st;
    if (!s)
        return;
    gdt_free(&s->g);
    free(s);
}

const struct dh_bench dh_bench_frontier_gdt = {
    .suite = "frontier",
    .name = "gdt",
    .summary = "GP decision tree trading one instrument per item over ~2 years of daily data, 3 layers",
    .source = dh_src_frontier_gdt,
    .params = params,
    .variants = "baseline,cpu_tdr,gpu_tdr,melded",
    .sweep = sweep,
    .check = gdt_check,
    .device_bytes = gdt_bytes,
    .defines = gdt_defines,
    .setup = gdt_setup,
    .upload = gdt_upload,
    .run = gdt_run,
    .poison = gdt_poison,
    .verify = gdt_verify,
    .ceiling = gdt_ceiling,
    .teardown = gdt_teardown,
    .release = gdt_release,
    .blocks = blocks,
    .n_blocks = (int)(sizeof blocks / sizeof blocks[0]),
    .bound = "memory",
    .items = gdt_items,
};
