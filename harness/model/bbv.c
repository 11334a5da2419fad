/* bbv.c — the BBV performance model (bbv.h). */
#include "bbv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

const char *const dh_opc_names[DH_OPC_N] = {
    "fp", "alu", "mul", "div", "ldg", "stg", "lds", "atom", "bar", "br", "fdivz",
};

/* The tables. Cycles: dependent-issue latencies. NVIDIA sm_90 from
 * published Hopper microbenchmarks (FFMA, IMAD, IADD3/LOP3 4 cycles;
 * shared memory 29; a global load hitting L1 33; a barrier ~20); integer
 * division by a variable is a ~20-instruction sequence, 64-bit multiplies
 * 3 IMADs. Issue counts (instructions per source operation) were fitted
 * on micro/branch against CUPTI's counts only: a global access carries
 * an address computation, a branch a compare, a loop iteration its
 * counter update and test. docs/model.md tells the story.
 * fdivz, an fp32 division with a zero operand (nvidia-sm90 only: the
 * division's slow path), from the H100 itself: issue 38 = the 34 warp
 * instructions of the slow-path subroutine per call in bbv/mc's sm_90
 * code (ncu's per-instruction counts, docs/model.md "MC's divisions")
 * and the 4 moves and call around it; cycles 210 = the latency it adds
 * to a division (tools/standalone/div_slowpath.cu: 241 cycles for 0 / 5
 * and 267 for 5 / 0 against 45 for 3 / 5). Elsewhere 0: AMD's and a
 * CPU's divisions have no such path. */
static const struct dh_latency_table builtin[] = {
    {
        .name = "nvidia-sm90",
        .origin = "Hopper microbenchmark latencies; issue counts fitted on micro/branch "
                  "(CUPTI)",
        /*           fp  alu mul div ldg stg lds atom bar br fdivz */
        .cycles = {  4,  4,  4, 60, 33,  4, 29, 40, 20,  6, 210 },
        .issue  = {  1,  1,  1, 20,  2,  2,  1,  1,  1,  2,  38 },
        .max_threads_per_cu = 2048,
        .max_groups_per_cu = 32,
        .schedulers_per_cu = 4,
    },
    {
        .name = "generic",
        .origin = "unit costs: one cycle and one instruction per operation, a "
                  "division 20; no device measurement behind it",
        .cycles = {  1,  1,  1, 20,  1,  1,  1,  1,  1,  1,  0 },
        .issue  = {  1,  1,  1, 20,  1,  1,  1,  1,  1,  1,  0 },
        .max_threads_per_cu = 0,
        .max_groups_per_cu = 1,
        .schedulers_per_cu = 1,
    },
};

int dh_latency_table_load(const char *path, struct dh_latency_table *t, struct dh_err *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return dh_err_set(err, DH_E_IO, "cannot read latency table %s: %s", path,
                          strerror(errno));
    *t = builtin[1];
    snprintf(t->name, sizeof t->name, "file");
    snprintf(t->origin, sizeof t->origin, "%s", path);
    char line[256];
    int ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        char *h = strchr(line, '#');
        if (h)
            *h = 0;
        char key[32];
        double a, b;
        int k = sscanf(line, "%31s %lf %lf", key, &a, &b);
        if (k <= 0)
            continue;
        if (k >= 2 && !strcmp(key, "name")) {
            continue;
        } else if (k == 2 && !strcmp(key, "threads_per_cu")) {
            t->max_threads_per_cu = (int)a;
            continue;
        } else if (k == 2 && !strcmp(key, "groups_per_cu")) {
            t->max_groups_per_cu = (int)a;
            continue;
        } else if (k == 2 && !strcmp(key, "schedulers_per_cu")) {
            if (!(a >= 1 && a <= 64)) {
                fclose(f);
                return dh_err_set(err, DH_E_USAGE,
                                  "%s line %d: schedulers_per_cu wants an integer in 1..64 "
                                  "(4 on NVIDIA since Maxwell)", path, ln);
            }
            t->schedulers_per_cu = (int)a;
            continue;
        }
        int c = -1;
        for (int i = 0; i < DH_OPC_N; i++)
            if (!strcmp(key, dh_opc_names[i]))
                c = i;
        if (c < 0 || k != 3 || !(a >= 0) || !(b >= 0)) {
            fclose(f);
            return dh_err_set(err, DH_E_USAGE,
                              "%s line %d: expected \"CLASS CYCLES ISSUE\" with CLASS one of "
                              "fp alu mul div ldg stg lds atom bar br fdivz (or threads_per_cu N, "
                              "groups_per_cu N, schedulers_per_cu N)", path, ln);
        }
        t->cycles[c] = a;
        t->issue[c] = b;
    }
    fclose(f);
    return 0;
}

int dh_latency_table_for(const struct dh_device_info *dev, struct dh_latency_table *t,
                         struct dh_err *err)
{
    const char *file = getenv("DH_LATENCY_TABLE");
    if (file && *file) {
        for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
            if (!strcmp(file, builtin[i].name)) {
                *t = builtin[i];
                return 0;
            }
        return dh_latency_table_load(file, t, err);
    }
    if (dev && (!strcmp(dev->arch, "sm_90") || strstr(dev->name, "H100"))) {
        *t = builtin[0];
        /* OpenCL's `/` need not be correctly rounded (2.5 ulp unless
         * -cl-fp32-correctly-rounded-divide-sqrt, which the harness does
         * not ask for): NVIDIA's OpenCL compiles it to div.full.f32, no
         * slow path (its PTX in the program cache, 2026-11-26). CUDA's and
         * HIP's `/` is div.rn.f32. */
        if (dev->platform[0] && strcmp(dev->platform, "CUDA") && strcmp(dev->platform, "HIP")) {
            t->cycles[DH_OPC_FDIVZ] = t->issue[DH_OPC_FDIVZ] = 0;
            snprintf(t->origin + strlen(t->origin), sizeof t->origin - strlen(t->origin),
                     "; OpenCL: fdivz 0");
        }
    } else {
        *t = builtin[1];
    }
    return 0;
}

void dh_bbv_block_costs(const struct dh_bb_def *blocks, int n, const struct dh_latency_table *t,
                        double *cycles, double *inst)
{
    for (int b = 0; b < n; b++) {
        const float *o = &blocks[b].ops.fp;   /* the classes, in dh_opc_names order */
        double cy = 0, in = 0;
        for (int c = 0; c < DH_OPC_N; c++) {
            cy += o[c] * t->cycles[c];
            in += o[c] * t->issue[c];
        }
        cycles[b] = cy;
        inst[b] = in;
    }
}

/* Each block's link by name to another block of the table (`link` reads
 * it: guarded_in, each) into to[] (-1 where none); how many blocks link,
 * or DH_E_DATA naming the first whose name is no other block: `says`
 * how its link reads, `fix` what to do. */
static int name_links(const struct dh_bb_def *blocks, int n,
                      const char *(*link)(const struct dh_bb_def *), int *to, const char *says,
                      const char *fix, struct dh_err *err)
{
    int linked = 0;
    for (int b = 0; b < n; b++) {
        to[b] = -1;
        const char *in = link(&blocks[b]);
        if (!in)
            continue;
        for (int p = 0; p < n && to[b] < 0; p++)
            if (blocks[p].name && !strcmp(blocks[p].name, in))
                to[b] = p;
        if (to[b] < 0 || to[b] == b)
            return dh_err_set(err, DH_E_DATA, "block %d (%s) %s \"%s\", %s: %s", b,
                              blocks[b].name ? blocks[b].name : "?", says, in,
                              to[b] == b ? "itself" : "no block of the table", fix);
        linked++;
    }
    return linked;
}

static const char *guard_of(const struct dh_bb_def *d) { return d->guarded_in; }
static const char *loop_of(const struct dh_bb_def *d) { return d->each; }

int dh_bbv_guard_parents(const struct dh_bb_def *blocks, int n, int *parent, struct dh_err *err)
{
    return name_links(blocks, n, guard_of, parent, "is guarded in",
                      "name another block of the table in its guarded_in", err);
}

int dh_bbv_each_loops(const struct dh_bb_def *blocks, int n, int *each, struct dh_err *err)
{
    return name_links(blocks, n, loop_of, each, "is decided each iteration of",
                      "name in its `each` the block of the table that counts the loop's "
                      "iterations", err);
}

static int runs_by_iters(const void *a, const void *b)
{
    uint32_t x = ((const struct dh_lane_runs *)a)->iters, y = ((const struct dh_lane_runs *)b)->iters;
    return (x > y) - (x < y);
}

double dh_bbv_each_runs(struct dh_lane_runs *l, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (l[i].takes > l[i].iters)          /* more takes than iterations: all of them */
            l[i].iters = l[i].takes;
        if (l[i].iters)
            l[m++] = l[i];
    }
    if (m == 0)
        return 0;
    qsort(l, (size_t)m, sizeof *l, runs_by_iters);
    /* lanes by iterations, ascending: in iterations [iters_{i-1},
     * iters_i) lanes i..m-1 run, none of them taking the side with the
     * product of their (1 - p) from i on (built from the last lane down) */
    double e = 0, none = 1;
    for (int i = m - 1; i >= 0; i--) {
        none *= 1.0 - (double)l[i].takes / (double)l[i].iters;
        double from = i > 0 ? (double)l[i - 1].iters : 0;
        e += ((double)l[i].iters - from) * (1.0 - none);
    }
    return e;
}

int dh_bbv_slots(const struct dh_latency_table *t, int wg)
{
    int s = t->max_groups_per_cu > 0 ? t->max_groups_per_cu : 1;
    if (t->max_threads_per_cu > 0 && wg > 0 && t->max_threads_per_cu / wg < s)
        s = t->max_threads_per_cu / wg;
    return s < 1 ? 1 : s;
}

/* a binary min-heap of slot finish times */
static void heap_down(double *h, int n, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && h[l] < h[m]) m = l;
        if (r < n && h[r] < h[m]) m = r;
        if (m == i)
            return;
        double t = h[i]; h[i] = h[m]; h[m] = t;
        i = m;
    }
}

/* threads for a pass over n items: the host's, at least 32K items each */
static int pass_threads(long n)
{
    int t = omp_get_max_threads();
    long most = n / 32768 + 1;
    return t < 1 ? 1 : t > most ? (int)most : t;
}

/* One warp's figures: slots s0..s1-1 of the order. */
struct warp_fig {
    double thread_inst, warp_inst, t;
    double issue, lat;      /* the floor metric's: issue cycles, latency chain */
    int div;
};

/* The floor metric's per-block figures (dh_bbv_shape issue, lat), or
 * NULL members when it is not asked. */
struct floor_costs {
    const double *issue, *lat;
};

/* What a warp issues for the per-block maxima mx over its lanes: adds
 * cycles to *tw and instructions to *wi (and with fc's arrays issue
 * cycles to *ti, latency to *tl). */
static void warp_cost(const struct dh_bbv *b, const double *cycles, const double *inst,
                      const struct floor_costs *fc, const double *mx, double *tw, double *wi,
                      double *ti, double *tl)
{
    int nb = b->n_blocks;
    for (int k = 0; k < nb; k++) {
        *tw += cycles[k] * mx[k];
        *wi += inst[k] * mx[k];
    }
    if (fc->issue && fc->lat)
        for (int k = 0; k < nb; k++) {
            *ti += fc->issue[k] * mx[k];
            *tl += fc->lat[k] * mx[k];
        }
    /* if-converted code (blocks.h pred_inst): issued as often as its
     * parent runs in the warp */
    for (int k = 0; b->pred_inst && b->parent && k < nb; k++) {
        int p = b->parent[k];
        if (p < 0 || p >= nb || mx[p] <= mx[k])
            continue;
        double extra = mx[p] - mx[k];
        *wi += b->pred_inst[k] * extra;
        *tw += (b->pred_cost ? b->pred_cost[k] : 0) * extra;
        /* the guarded part's issue cycles (block_cost's units, which
         * are the floor's issue figures under compiled costs); the
         * latency tables have no guarded part */
        if (fc->issue && fc->lat)
            *ti += (b->block_inst ? (b->pred_cost ? b->pred_cost[k] : 0) : b->pred_inst[k])
                   * extra;
    }
}

/* A pass's per-thread scratch: the lanes' maxima, the warp's runs of
 * each block (the maxima, or the expected runs of a block decided each
 * iteration), the lanes' (iterations, takes). */
struct scratch {
    uint32_t *mx;
    double *runs;
    struct dh_lane_runs *lr;
};

static int scratch_new(struct scratch *sc, int nb, int w)
{
    sc->mx = malloc((size_t)(nb > 0 ? nb : 1) * sizeof *sc->mx);
    sc->runs = malloc((size_t)(nb > 0 ? nb : 1) * sizeof *sc->runs);
    sc->lr = malloc((size_t)(w > 0 ? w : 1) * sizeof *sc->lr);
    return sc->mx && sc->runs && sc->lr ? 0 : -1;
}

static void scratch_free(struct scratch *sc)
{
    free(sc->mx);
    free(sc->runs);
    free(sc->lr);
}

/* item s's counts: window wn of the ordered BBVs, or (wn < 0) the totals */
static const uint32_t *row(const struct dh_bbv *b, const int *order, long s, long wn)
{
    size_t item = (size_t)(order ? order[s] : s);
    if (wn < 0)
        return b->counts + item * (size_t)b->n_blocks;
    return b->win_counts + (item * (size_t)b->n_windows + (size_t)wn) * (size_t)b->n_blocks;
}

/* sc->runs from sc->mx, the lanes s0..s1-1's maxima in window wn (< 0:
 * the totals): a block decided each iteration (b->each) its expected
 * runs (bbv.h), every other its maximum */
static void warp_runs(const struct dh_bbv *b, const int *order, long s0, long s1, long wn,
                      struct scratch *sc)
{
    int nb = b->n_blocks;
    for (int k = 0; k < nb; k++)
        sc->runs[k] = sc->mx[k];
    for (int k = 0; b->each && k < nb; k++) {
        int l = b->each[k];
        if (l < 0 || l >= nb || l == k || sc->mx[k] == 0)
            continue;
        int n = 0;
        for (long s = s0; s < s1; s++) {
            const uint32_t *v = row(b, order, s, wn);
            if (v[l] || v[k])
                sc->lr[n++] = (struct dh_lane_runs){v[l], v[k]};
        }
        sc->runs[k] = dh_bbv_each_runs(sc->lr, n);
    }
}

/* The lanes' useful instructions and the divergence flag come from the
 * totals; the warp's issue from the totals' maxima, or with ordered BBVs
 * from each window's maxima, summed over the windows. */
static void warp_figures(const struct dh_bbv *b, const double *cycles, const double *inst,
                         const struct floor_costs *fc, const int *order, long s0, long s1,
                         struct scratch *sc, struct warp_fig *f)
{
    uint32_t *mx = sc->mx;
    int nb = b->n_blocks;
    const uint32_t *first = b->counts + (size_t)(order ? order[s0] : s0) * nb;
    memcpy(mx, first, (size_t)nb * 4);
    double ti = 0;
    int div = 0;
    /* a lane's useful work: what it issues, or, with costs measured per
     * instruction, its predicated-on part */
    const double *use = b->useful_inst ? b->useful_inst : inst;
    for (long s = s0; s < s1; s++) {
        const uint32_t *v = b->counts + (size_t)(order ? order[s] : s) * nb;
        for (int k = 0; k < nb; k++) {
            ti += use[k] * v[k];
            if (v[k] != first[k])
                div = 1;
            if (v[k] > mx[k])
                mx[k] = v[k];
        }
    }
    double tw = 0, wi = 0, tiss = 0, tlat = 0;
    if (b->win_counts && b->n_windows > 1) {
        for (long wn = 0; wn < b->n_windows; wn++) {
            for (long s = s0; s < s1; s++) {
                const uint32_t *v = row(b, order, s, wn);
                for (int k = 0; k < nb; k++)
                    if (s == s0 || v[k] > mx[k])
                        mx[k] = v[k];
            }
            warp_runs(b, order, s0, s1, wn, sc);
            warp_cost(b, cycles, inst, fc, sc->runs, &tw, &wi, &tiss, &tlat);
        }
    } else {
        warp_runs(b, order, s0, s1, -1, sc);
        warp_cost(b, cycles, inst, fc, sc->runs, &tw, &wi, &tiss, &tlat);
    }
    *f = (struct warp_fig){ti, wi, tw, tiss, tlat, div};
}

/* The warps' figures are independent: they are found in parallel (the
 * host's cores; a pass over millions of items in a regrouped order is
 * memory-latency bound) into one record per warp, then summed and
 * scheduled in warp order, so the result does not depend on the number
 * of threads. */
void dh_bbv_metrics(const struct dh_bbv *b, const double *cycles, const double *inst,
                    const int *order, int w, int wg, int cus, int slots,
                    struct dh_bbv_metrics *m)
{
    struct dh_bbv_shape s = {.w = w, .wg = wg, .cus = cus, .slots = slots};
    dh_bbv_metrics_shape(b, cycles, inst, order, &s, m);
}

/* slot heap for the floor metric: ordered by finish time, then slot
 * index, so a launch's first wave deals its work-groups over the compute
 * units in turn (slot k is on unit k % cus) */
static int slot_before(const double *fin, int a, int b)
{
    return fin[a] < fin[b] || (fin[a] == fin[b] && a < b);
}

static void slot_down(int *h, const double *fin, int n, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && slot_before(fin, h[l], h[m])) m = l;
        if (r < n && slot_before(fin, h[r], h[m])) m = r;
        if (m == i)
            return;
        int t = h[i]; h[i] = h[m]; h[m] = t;
        i = m;
    }
}

/* The scheduled metric with each warp's latency floor (bbv.h). Work-groups
 * are placed as dh_bbv_metrics places them (a group holds its slot for the
 * sum of its warps' cycles); what a placed group costs is charged to the
 * schedulers of its compute unit: a scheduler's time is max(sum of its
 * warps' issue cycles, its longest warp's latency chain), a launch's the
 * busiest scheduler's, and launches run one after another. NAN when out
 * of memory. */
static double sched_floor(const struct warp_fig *fig, long nw, long n,
                          const struct dh_bbv_shape *s, int w, int wg, int cus, int slots)
{
    int q_n = s->schedulers > 0 ? s->schedulers : 1;
    long per = s->launch_items > 0 ? s->launch_items : n;
    int nslot = cus * slots;
    size_t nq = (size_t)cus * (size_t)q_n;
    double *fin = malloc((size_t)nslot * sizeof *fin);
    int *heap = malloc((size_t)nslot * sizeof *heap);
    double *iss = malloc(nq * sizeof *iss), *flo = malloc(nq * sizeof *flo);
    long *placed = malloc((size_t)cus * sizeof *placed);
    double total = NAN;
    if (!fin || !heap || !iss || !flo || !placed)
        goto out;
    total = 0;
    long g0 = 0;                   /* the current work-group's first warp */
    double group_t = 0;
    int fresh = 1;                 /* a launch begins */
    for (long i = 0; i < nw; i++) {
        if (fresh) {
            for (int k = 0; k < nslot; k++) {
                fin[k] = 0;
                heap[k] = k;       /* equal times in index order: a heap */
            }
            memset(iss, 0, nq * sizeof *iss);
            memset(flo, 0, nq * sizeof *flo);
            memset(placed, 0, (size_t)cus * sizeof *placed);
            fresh = 0;
        }
        long s1 = i * w + w < n ? i * w + w : n;
        group_t += fig[i].t;
        int launch_end = s1 % per == 0 || s1 == n;
        if (!(s1 % wg == 0 || launch_end))
            continue;
        /* a work-group ends: its slot, its compute unit, its warps'
         * schedulers */
        int k = heap[0];
        int cu = k % cus;
        for (long j = g0; j <= i; j++) {
            size_t q = (size_t)cu * (size_t)q_n + (size_t)(placed[cu]++ % q_n);
            iss[q] += fig[j].issue;
            if (fig[j].lat > flo[q])
                flo[q] = fig[j].lat;
        }
        fin[k] += group_t;
        slot_down(heap, fin, nslot, 0);
        group_t = 0;
        g0 = i + 1;
        if (launch_end) {
            double busiest = 0;
            for (size_t q = 0; q < nq; q++) {
                double tq = iss[q] > flo[q] ? iss[q] : flo[q];
                if (tq > busiest)
                    busiest = tq;
            }
            total += busiest;
            fresh = 1;
        }
    }
out:
    free(fin);
    free(heap);
    free(iss);
    free(flo);
    free(placed);
    return total;
}

void dh_bbv_metrics_shape(const struct dh_bbv *b, const double *cycles, const double *inst,
                          const int *order, const struct dh_bbv_shape *s,
                          struct dh_bbv_metrics *m)
{
    int nb = b->n_blocks;
    long n = b->n_items;
    int w = s->w, wg = s->wg, cus = s->cus, slots = s->slots;
    struct floor_costs fc = {s->issue, s->lat};
    memset(m, 0, sizeof *m);
    m->t_floor = NAN;
    if (w < 1) w = 1;
    if (wg < 1) wg = w;
    if (cus < 1) cus = 1;
    if (slots < 1) slots = 1;
    long nw = (n + w - 1) / w;
    int nslot = cus * slots;
    double *heap = calloc((size_t)nslot, sizeof *heap);
    struct warp_fig *fig = malloc((size_t)(nw > 0 ? nw : 1) * sizeof *fig);
    int failed = !heap || !fig;
    if (!failed) {
        int nt = pass_threads(n);
#pragma omp parallel num_threads(nt) reduction(| : failed)
        {
            struct scratch sc;
            int ok = scratch_new(&sc, nb, w) == 0;
            if (!ok)
                failed = 1;
#pragma omp for schedule(static)
            for (long i = 0; i < nw; i++) {
                if (!ok)
                    continue;
                long s0 = i * w, s1 = s0 + w < n ? s0 + w : n;
                warp_figures(b, cycles, inst, &fc, order, s0, s1, &sc, &fig[i]);
            }
            scratch_free(&sc);
        }
    }
    if (failed) {
        free(fig);
        free(heap);
        m->cfe = m->dwr = m->t_weighted = m->t_sched = m->t_floor = NAN;
        return;
    }
    double thread_inst = 0, warp_inst = 0, total = 0, group_t = 0, mk = 0;
    long divergent = 0;
    /* launches run one after another (the benchmark's launch_items; one
     * launch when it declares none): each launch's groups are placed on
     * the emptied slots, and its makespan adds to the run's */
    long per = s->launch_items > 0 ? s->launch_items : n;
    for (long i = 0; i < nw; i++) {
        long s1 = i * w + w < n ? i * w + w : n;
        thread_inst += fig[i].thread_inst;
        warp_inst += fig[i].warp_inst;
        divergent += fig[i].div;
        m->warps++;
        total += fig[i].t;
        group_t += fig[i].t;
        int launch_end = s1 % per == 0 || s1 == n;
        /* a work-group ends: it goes to the slot that frees first */
        if (s1 % wg == 0 || launch_end) {
            heap[0] += group_t;
            heap_down(heap, nslot, 0);
            group_t = 0;
        }
        if (launch_end) {
            double lmk = 0;
            for (int k = 0; k < nslot; k++) {
                if (heap[k] > lmk)
                    lmk = heap[k];
                heap[k] = 0;
            }
            mk += lmk;
        }
    }
    m->cfe = warp_inst > 0 ? thread_inst / (warp_inst * w) : NAN;
    m->dwr = m->warps ? (double)divergent / (double)m->warps : NAN;
    m->t_weighted = total / cus;
    m->t_sched = mk;
    if (fc.issue && fc.lat)
        m->t_floor = sched_floor(fig, nw, n, s, w, wg, cus, slots);
    free(fig);
    free(heap);
}

/* warps a chunk of dh_bbv_block_use's sums: the chunks' sums are added
 * in order, so the figures do not depend on the threads */
#define USE_CHUNK 1024

int dh_bbv_block_use(const struct dh_bbv *b, const int *order, int w,
                     struct dh_bbv_block_use *u)
{
    int nb = b->n_blocks, failed = 0;
    long n = b->n_items;
    if (w < 1)
        w = 1;
    memset(u, 0, (size_t)(nb > 0 ? nb : 0) * sizeof *u);
    long nw = (n + w - 1) / w;
    long nch = (nw + USE_CHUNK - 1) / USE_CHUNK;
    int windowed = b->win_counts && b->n_windows > 1;
    struct dh_bbv_block_use *part = calloc((size_t)(nch > 0 ? nch : 1) * (size_t)(nb > 0 ? nb : 1),
                                           sizeof *part);
    if (!part)
        return -1;
    int nt = pass_threads(n);
#pragma omp parallel num_threads(nt) reduction(| : failed)
    {
        struct scratch sc;
        int ok = scratch_new(&sc, nb, w) == 0;
        if (!ok)
            failed = 1;
#pragma omp for schedule(static)
        for (long c = 0; c < nch; c++) {
            struct dh_bbv_block_use *mine = part + (size_t)c * (size_t)nb;
            long i1 = (c + 1) * USE_CHUNK < nw ? (c + 1) * USE_CHUNK : nw;
            for (long i = c * USE_CHUNK; ok && i < i1; i++) {
                long s0 = i * w, s1 = s0 + w < n ? s0 + w : n;
                for (long s = s0; s < s1; s++) {
                    const uint32_t *v = row(b, order, s, -1);
                    for (int k = 0; k < nb; k++) {
                        mine[k].used += v[k];
                        if (s == s0 || v[k] > sc.mx[k])
                            sc.mx[k] = v[k];
                    }
                }
                long nwin = windowed ? b->n_windows : 1;
                for (long wn = 0; wn < nwin; wn++) {
                    if (windowed)
                        for (long s = s0; s < s1; s++) {
                            const uint32_t *v = row(b, order, s, wn);
                            for (int k = 0; k < nb; k++)
                                if (s == s0 || v[k] > sc.mx[k])
                                    sc.mx[k] = v[k];
                        }
                    warp_runs(b, order, s0, s1, windowed ? wn : -1, &sc);
                    for (int k = 0; k < nb; k++) {
                        mine[k].issued += (double)w * sc.runs[k];
                        int p = b->pred_inst && b->parent ? b->parent[k] : -1;
                        if (p >= 0 && p < nb && sc.runs[p] > sc.runs[k])
                            mine[k].pred_extra += sc.runs[p] - sc.runs[k];
                    }
                }
            }
        }
        scratch_free(&sc);
    }
    for (long c = 0; !failed && c < nch; c++)
        for (int k = 0; k < nb; k++) {
            const struct dh_bbv_block_use *x = part + (size_t)c * (size_t)nb + k;
            u[k].issued += x->issued;
            u[k].used += x->used;
            u[k].pred_extra += x->pred_extra;
        }
    free(part);
    return failed ? -1 : 0;
}

int dh_bbv_window_plan(long items, int n_blocks, long steps, long k, uint64_t limit,
                       int *windows, uint64_t *bytes, struct dh_err *err)
{
    *windows = 1;
    *bytes = (uint64_t)(items > 0 ? items : 0) * (uint64_t)(n_blocks > 0 ? n_blocks : 0) * 4;
    if (k <= 0 || steps <= 1)
        return 0;
    long nw = (steps + k - 1) / k;
    if (nw > INT32_MAX)
        nw = INT32_MAX;
    *windows = (int)nw;
    *bytes *= (uint64_t)nw;
    if (*bytes > limit) {
        *windows = 1;
        return dh_err_set(err, DH_E_RESOURCES,
                          "DH_BBV_WINDOW=%ld: %ld items x %ld windows (%ld iterations) x %d "
                          "blocks x 4 bytes = %.1f MiB of ordered BBVs, over the limit of "
                          "%.1f MiB (DH_BBV_LIMIT_MB, and the device's largest allocation): "
                          "choose a larger window or a smaller size, or raise "
                          "DH_BBV_LIMIT_MB", k, items, nw, steps, n_blocks,
                          (double)(*bytes) / 1048576.0, (double)limit / 1048576.0);
    }
    return 0;
}

void dh_bbv_window_sum(const uint32_t *win, long items, int windows, int n_blocks,
                       uint32_t *totals)
{
    for (long i = 0; i < items; i++) {
        uint32_t *t = totals + (size_t)i * n_blocks;
        const uint32_t *r = win + (size_t)i * windows * n_blocks;
        memcpy(t, r, (size_t)n_blocks * 4);
        for (int wn = 1; wn < windows; wn++) {
            r += n_blocks;
            for (int k = 0; k < n_blocks; k++) {
                uint32_t s = t[k] + r[k];
                t[k] = s < t[k] || r[k] == 0xffffffffu ? 0xffffffffu : s;
            }
        }
    }
}

long dh_bbv_overflow(const struct dh_bbv *b, int *block)
{
    size_t total = (size_t)b->n_items * (size_t)b->n_blocks;
    for (size_t i = 0; i < total; i++)
        if (b->counts[i] == 0xffffffffu) {
            *block = (int)(i % (size_t)b->n_blocks);
            return (long)(i / (size_t)b->n_blocks);
        }
    return -1;
}
