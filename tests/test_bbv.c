/* test_bbv.c — basic-block vectors: the three regroupings' invariants,
 * overflow detection, the latency table file, and (needs an OpenCL
 * device, else SKIPPED) a profiling run of micro/branch whose every
 * counter is known in advance. The model's hand-worked cases are
 * test_bbv_model.c's. */
#include <math.h>
#include <omp.h>
#include <unistd.h>

#include "testutil.h"
#include "../harness/model/bbv.h"
#include "../harness/model/price.h"
#include "../harness/run/plan.h"
#include "../harness/run/worker.h"
#include "../suites/lib/regroup.h"
#include "../suites/suite.h"

/* n items of k classes (class = i * 7 % k), class j runs block j j+1 times */
static uint32_t *classes_input(long n, int k, int nb)
{
    uint32_t *c = calloc((size_t)n * nb, 4);
    for (long i = 0; i < n; i++) {
        int cl = (int)((i * 7) % k);
        c[i * nb + cl] = (uint32_t)cl + 1;
        c[i * nb + nb - 1] = 1;               /* a shared block */
    }
    return c;
}

static void check_perm(const int *perm, long n)
{
    char *seen = calloc((size_t)n, 1);
    for (long j = 0; j < n; j++) {
        assert_true(perm[j] >= 0 && perm[j] < n);
        assert_false(seen[perm[j]]);
        seen[perm[j]] = 1;
    }
    free(seen);
}

/* dh_regroup_deal: sorted warps dealt over the work-groups in turn */
static void deal_spreads_warps(void **st)
{
    (void)st;
    /* 16 items, warps of 2, work-groups of 4: 8 warps, 4 groups, 2 warps a
     * group; group g gets sorted warps g and 4 + g */
    int perm[16], want[16] = {0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15};
    for (int i = 0; i < 16; i++)
        perm[i] = i;
    assert_int_equal(dh_regroup_deal(perm, 16, 2, 4), 0);
    assert_memory_equal(perm, want, sizeof want);
    check_perm(perm, 16);
    /* nothing to deal: one group, a partial group, wg not of warps */
    int id[16];
    for (int i = 0; i < 16; i++)
        id[i] = perm[i] = i;
    assert_int_equal(dh_regroup_deal(perm, 16, 2, 16), 0);
    assert_memory_equal(perm, id, sizeof id);
    assert_int_equal(dh_regroup_deal(perm, 16, 2, 6), 0);
    assert_memory_equal(perm, id, sizeof id);
    assert_int_equal(dh_regroup_deal(perm, 16, 3, 4), 0);
    assert_memory_equal(perm, id, sizeof id);

    /* a one-wave launch sorted costliest first: 4 groups of 2 warps on 4
     * slots, warp costs 8 7 6 5 4 3 2 1 (warps of one item). Consecutive:
     * groups 15, 11, 7, 3 -> makespan 15; dealt: 8+4, 7+3, 6+2, 5+1 -> 12.
     * Each warp keeps its items: CFE does not move. */
    uint32_t c[8] = {8, 7, 6, 5, 4, 3, 2, 1};
    double cy[1] = {1}, in[1] = {1};
    struct dh_bbv b = {.n_items = 8, .n_blocks = 1, .counts = c, .block_cost = cy};
    struct dh_bbv_metrics m0, m1;
    int order[8];
    for (int i = 0; i < 8; i++)
        order[i] = i;
    dh_bbv_metrics(&b, cy, in, order, 1, 2, 4, 1, &m0);
    assert_true(fabs(m0.t_sched - 15) < 1e-9);
    assert_int_equal(dh_regroup_deal(order, 8, 1, 2), 0);
    check_perm(order, 8);
    dh_bbv_metrics(&b, cy, in, order, 1, 2, 4, 1, &m1);
    assert_true(fabs(m1.t_sched - 12) < 1e-9);
    assert_true(fabs(m1.cfe - m0.cfe) < 1e-12);
}

/* dh_regroup_heavy_first: an order's warps, costliest first (stable);
 * deal=2 deals that. Warps of 2 items in ascending cost (a lexicographic
 * sort of trip counts is shortest first) come out descending, each warp
 * keeping its items; equal costs keep their order. */
static void heavy_first_orders_warps(void **st)
{
    (void)st;
    /* 8 items, warps of 2: warp costs (max over lanes x 1 cycle) 1 3 3 5 */
    uint32_t c[8] = {1, 0, 3, 2, 3, 3, 4, 5};
    double cy[1] = {1};
    struct dh_bbv b = {.n_items = 8, .n_blocks = 1, .counts = c, .block_cost = cy};
    int perm[8], want[8] = {6, 7, 2, 3, 4, 5, 0, 1};
    for (int i = 0; i < 8; i++)
        perm[i] = i;
    assert_int_equal(dh_regroup_heavy_first(perm, 8, 2, &b), 0);
    assert_memory_equal(perm, want, sizeof want);
    check_perm(perm, 8);
    /* through a permutation: perm names the items, the costs are theirs */
    int p2[8] = {6, 7, 0, 1, 4, 5, 2, 3}, w2[8] = {6, 7, 4, 5, 2, 3, 0, 1};
    assert_int_equal(dh_regroup_heavy_first(p2, 8, 2, &b), 0);
    assert_memory_equal(p2, w2, sizeof w2);
    /* a partial last warp stays last, the whole warps before it ordered */
    int p3[7] = {0, 1, 2, 3, 4, 5, 6}, w3[7] = {2, 3, 4, 5, 0, 1, 6};
    uint32_t c3[7] = {1, 0, 3, 2, 3, 3, 9};
    struct dh_bbv b3 = {.n_items = 7, .n_blocks = 1, .counts = c3, .block_cost = cy};
    assert_int_equal(dh_regroup_heavy_first(p3, 7, 2, &b3), 0);
    assert_memory_equal(p3, w3, sizeof w3);
}

static void regroupings(void **st)
{
    (void)st;
    const long n = 1000;
    const int k = 5, nb = 6, group = 32;
    uint32_t *c = classes_input(n, k, nb);
    double cost[6] = {1, 2, 4, 8, 16, 1};
    struct dh_bbv b = {.n_items = n, .n_blocks = nb, .counts = c, .block_cost = cost};
    assert_int_equal(dh_regroup_classes(&b), k);
    int *perm = malloc(n * sizeof *perm);
    struct dh_err e = {0};
    for (int alg = DH_RG_SORT; alg <= DH_RG_GREEDYMAX; alg++) {
        assert_int_equal(dh_regroup_bbv(&b, alg, group, perm, &e), 0);
        check_perm(perm, n);
        /* each class is 200 items: 6 whole groups of its own and a rest of
         * 8, so at most k mixed groups of `group`; sorting makes runs */
        int mixed = 0;
        for (long g = 0; g < n; g += group) {
            long end = g + group < n ? g + group : n;
            int first = (int)((perm[g] * 7) % k), mix = 0;
            for (long j = g; j < end; j++)
                mix |= (int)((perm[j] * 7) % k) != first;
            mixed += mix;
        }
        assert_true(mixed <= k);
        if (alg == DH_RG_SORT)
            for (long j = 1; j < n; j++)      /* lexicographic: class 4 first */
                assert_true((perm[j - 1] * 7) % k >= (perm[j] * 7) % k);
        if (alg == DH_RG_GREEDYMAX) {
            /* groups come out costliest first: class 4 (cost 16 x 5) */
            for (long j = 0; j < group; j++)
                assert_int_equal((perm[j] * 7) % k, 4);
        }
    }
    /* the model prices every regrouping at least as well as launch order */
    double inst[6] = {1, 1, 1, 1, 1, 1};
    struct dh_bbv_metrics m0, m1;
    dh_bbv_metrics(&b, cost, inst, NULL, 32, 64, 1, 1, &m0);
    assert_int_equal(dh_regroup_bbv(&b, DH_RG_GREEDY, group, perm, &e), 0);
    dh_bbv_metrics(&b, cost, inst, perm, 32, 64, 1, 1, &m1);
    assert_true(m1.t_weighted < m0.t_weighted / 2);
    assert_true(m1.cfe > 0.85 && m0.cfe < 0.5);
    /* bad group */
    assert_int_equal(dh_regroup_bbv(&b, DH_RG_GREEDY, 0, perm, &e), -DH_E_USAGE);
    free(perm);
    free(c);
}

/* more classes than the exact searches take: the neighbourhood forms */
static void regroupings_many_classes(void **st)
{
    (void)st;
    const long n = 20000;
    const int nb = 4, group = 32;
    uint32_t *c = calloc((size_t)n * nb, 4);
    uint64_t r = 12345;
    for (long i = 0; i < n; i++) {           /* ~5000 classes of loop trips */
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        c[i * nb + 0] = 1;
        c[i * nb + 1 + (int)((r >> 33) % 3)] = (uint32_t)((r >> 40) % 1700) + 1;
    }
    double cost[4] = {1, 4, 4, 4}, inst[4] = {1, 1, 1, 1};
    struct dh_bbv b = {.n_items = n, .n_blocks = nb, .counts = c, .block_cost = cost};
    assert_true(dh_regroup_classes(&b) > 2048);
    int *perm = malloc(n * sizeof *perm);
    struct dh_err e = {0};
    struct dh_bbv_metrics m0, m1;
    dh_bbv_metrics(&b, cost, inst, NULL, 32, 64, 1, 1, &m0);
    for (int alg = DH_RG_SORT; alg <= DH_RG_GREEDYMAX; alg++) {
        assert_int_equal(dh_regroup_bbv(&b, alg, group, perm, &e), 0);
        check_perm(perm, n);
        dh_bbv_metrics(&b, cost, inst, perm, 32, 64, 1, 1, &m1);
        assert_true(m1.t_weighted < m0.t_weighted / 2);     /* far better */
        assert_true(m1.cfe > 0.9);
        if (alg == DH_RG_GREEDYMAX) {                       /* costliest first */
            double first = 0, max = 0;
            for (int k = 0; k < nb; k++)
                first += cost[k] * c[(long)perm[0] * nb + k];
            for (long i = 0; i < n; i++) {
                double l = 0;
                for (int k = 0; k < nb; k++)
                    l += cost[k] * c[i * nb + k];
                max = l > max ? l : max;
            }
            assert_true(first == max);
        }
    }
    free(perm);
    free(c);
}

/* an instrumented run is another case: never paired with a plain one */
static void instrumented_identity(void **st)
{
    (void)st;
    struct dh_case a, b;
    memset(&a, 0, sizeof a);
    snprintf(a.suite, sizeof a.suite, "micro");
    snprintf(a.bench_name, sizeof a.bench_name, "branch");
    snprintf(a.variant, sizeof a.variant, "baseline");
    snprintf(a.backend, sizeof a.backend, "cuda");
    snprintf(a.size, sizeof a.size, "small");
    b = a;
    b.instrumented = 1;
    dh_case_identity(&a);
    dh_case_identity(&b);
    assert_string_not_equal(a.key, b.key);
    assert_non_null(strstr(b.id, "/instrumented"));
    assert_null(strstr(a.id, "instrumented"));
}

/* the neighbourhood forms against the exact ones where both can run:
 * within 10% of the exact regrouping's modeled time */
static void window_vs_exact(void **st)
{
    (void)st;
    const long n = 12000;
    const int nb = 5, group = 32;
    uint32_t *c = calloc((size_t)n * nb, 4);
    uint64_t r = 99;
    for (long i = 0; i < n; i++) {           /* ~1500 classes, clustered */
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        int path = (int)((r >> 33) % 4);
        c[i * nb + 0] = 1;
        c[i * nb + 1 + path] = 20 * (1 + path) + (uint32_t)((r >> 40) % 375);
    }
    double cost[5] = {10, 4, 4, 4, 4}, inst[5] = {1, 1, 1, 1, 1};
    struct dh_bbv b = {.n_items = n, .n_blocks = nb, .counts = c, .block_cost = cost};
    long k = dh_regroup_classes(&b);
    assert_true(k > 64 && k < 2048);
    int *perm = malloc(n * sizeof *perm);
    struct dh_err e = {0};
    for (int alg = DH_RG_GREEDY; alg <= DH_RG_GREEDYMAX; alg++) {
        struct dh_bbv_metrics exact, win;
        long old = dh_regroup_exact_limit(-1);
        assert_int_equal(dh_regroup_bbv(&b, alg, group, perm, &e), 0);
        dh_bbv_metrics(&b, cost, inst, perm, 32, 64, 4, 2, &exact);
        dh_regroup_exact_limit(16);                  /* force the windows */
        assert_int_equal(dh_regroup_bbv(&b, alg, group, perm, &e), 0);
        dh_regroup_exact_limit(old);
        check_perm(perm, n);
        dh_bbv_metrics(&b, cost, inst, perm, 32, 64, 4, 2, &win);
        fprintf(stderr, "  alg %d: exact %.0f, windowed %.0f cycles (weighted)\n", alg,
                exact.t_weighted, win.t_weighted);
        assert_true(win.t_weighted < 1.10 * exact.t_weighted);
    }
    free(perm);
    free(c);
}

static void overflow_found(void **st)
{
    (void)st;
    uint32_t c[6] = {1, 2, 3, 4, 0xffffffffu, 6};
    struct dh_bbv b = {.n_items = 3, .n_blocks = 2, .counts = c};
    int blk = -1;
    assert_int_equal(dh_bbv_overflow(&b, &blk), 2);
    assert_int_equal(blk, 0);
    c[4] = 0xfffffffeu;
    assert_int_equal(dh_bbv_overflow(&b, &blk), -1);
}

static void latency_file(void **st)
{
    (void)st;
    char path[] = "/tmp/dh-lat-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# a device\nfp 5 1\nldg 400 2\nthreads_per_cu 1024\n");
    fclose(f);
    struct dh_latency_table t;
    struct dh_err e = {0};
    assert_int_equal(dh_latency_table_load(path, &t, &e), 0);
    assert_true(t.cycles[0] == 5 && t.cycles[4] == 400 && t.issue[4] == 2);
    assert_int_equal(t.max_threads_per_cu, 1024);
    assert_int_equal(dh_bbv_slots(&t, 256), 1);       /* generic: 1 group max */
    f = fopen(path, "w");
    fprintf(f, "fp 5 1\nflops 3 1\n");
    fclose(f);
    assert_int_equal(dh_latency_table_load(path, &t, &e), -DH_E_USAGE);
    assert_non_null(strstr(e.msg, "line 2"));
    /* the floor metric's schedulers: a file's own, else the generic 1 */
    f = fopen(path, "w");
    fprintf(f, "fp 5 1\nschedulers_per_cu 4\n");
    fclose(f);
    assert_int_equal(dh_latency_table_load(path, &t, &e), 0);
    assert_int_equal(t.schedulers_per_cu, 4);
    f = fopen(path, "w");
    fprintf(f, "fp 5 1\n");
    fclose(f);
    assert_int_equal(dh_latency_table_load(path, &t, &e), 0);
    assert_int_equal(t.schedulers_per_cu, 1);
    f = fopen(path, "w");
    fprintf(f, "schedulers_per_cu 0\n");
    fclose(f);
    assert_int_equal(dh_latency_table_load(path, &t, &e), -DH_E_USAGE);
    assert_non_null(strstr(e.msg, "schedulers_per_cu"));
    unlink(path);
}

/* micro/branch, paths=4 iters=24: every item's BBV is known from its key:
 * entry once, its path's loop 24 times, its epilogue once. */
static void profile_micro(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    struct dh_devlist devs;
    struct dh_err e = {0};
    assert_int_equal(dh_devices_gather(&devs, 0, &e), 0);
    struct dh_selection sel = {.suite = "micro", .size = "small", .reps = 2, .warmup = 1,
                               .timeout_s = 300, .device = -1, .backends = "opencl",
                               .variants = "cpu_tdr", .model = 1};
    const char *p[] = {"paths=4", "layers=1", "iters=24", "regroup=greedymax", "mech=rr"};
    for (int i = 0; i < 5; i++)
        sel.params[sel.n_params++] = p[i];
    struct dh_run *runs;
    int n;
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), 0);
    assert_int_equal(n, 1);
    struct dh_worker w;
    assert_int_equal(dh_worker_open(&w, dh_backend_find("opencl"), 0, &e), 0);
    dh_worker_run(&w, &runs[0].c, &runs[0].r);
    if (runs[0].r.status)
        fprintf(stderr, "%s\n", runs[0].r.message);
    assert_int_equal(runs[0].r.status, 0);
    const struct dh_bbv *b = &w.bbv;
    assert_int_equal(b->n_blocks, 49);
    assert_int_equal(b->n_items, 1 << 15);
    /* the host's keys: regenerate through the state is private, so read
     * them back from the counters' shape: exactly one path per item */
    long per_path[4] = {0};
    for (long i = 0; i < b->n_items; i++) {
        const uint32_t *v = b->counts + i * 49;
        assert_int_equal(v[0], 1);                     /* entry */
        int paths = 0, k = -1;
        for (int q = 0; q < 8; q++)
            if (v[1 + q]) {
                paths++;
                k = q;
                assert_int_equal(v[1 + q], 24);        /* the loop */
                assert_int_equal(v[9 + q], 1);         /* its epilogue */
            }
        assert_int_equal(paths, 1);
        assert_true(k < 4);
        per_path[k]++;
        for (int q = 17; q < 49; q++)
            assert_int_equal(v[q], 0);                 /* no layer 2 */
    }
    for (int q = 0; q < 4; q++)                        /* random keys: ~8192 each */
        assert_true(per_path[q] > 7000 && per_path[q] < 9400);
    /* the run was priced: launch order vs the regrouping */
    const struct dh_model_result *m = &runs[0].r.model;
    assert_true(m->valid);
    assert_int_equal(m->n_classes, 4);
    assert_true(m->own.cfe > 0.95 && m->base.cfe < 0.5);
    assert_true(m->base.t_weighted / m->own.t_weighted > 2.5);
    assert_true(runs[0].r.host_ms[0] >= m->acquire_ms);   /* profiling counted */
    dh_worker_close(&w);
    free(runs);
}


/* The host regroupings run on every core (dh_regroup_threads): the same
 * permutation at any width, and the sort is the stable lexicographic
 * order of the BBVs (ties in item order), checked slot by slot. */
static int lex_cmp(const uint32_t *c, int nb, int a, int b)
{
    for (int j = 0; j < nb; j++)
        if (c[(size_t)a * nb + j] != c[(size_t)b * nb + j])
            return c[(size_t)a * nb + j] < c[(size_t)b * nb + j] ? -1 : 1;
    return 0;
}

static void threads_identical(void **st)
{
    (void)st;
    const long n = 200003;
    const int nb = 7;
    uint32_t *c = calloc((size_t)n * nb, 4);
    for (long i = 0; i < n; i++) {
        uint64_t z = (uint64_t)i * 0x9e3779b97f4a7c15ull;
        z ^= z >> 29;
        int cl = (int)(z % 37);                        /* 37 classes, mixed order */
        for (int j = 0; j < nb; j++)
            c[(size_t)i * nb + j] = (uint32_t)((cl >> (j % 5)) & 1) * (uint32_t)(j + 1) + (j == 6);
    }
    double cost[7] = {1, 2, 3, 5, 8, 13, 1};
    struct dh_bbv b = {.n_items = n, .n_blocks = nb, .counts = c, .block_cost = cost};
    int *one = malloc(n * sizeof *one), *many = malloc(n * sizeof *many);
    struct dh_err e = {0};
    int width = omp_get_max_threads();
    for (int alg = DH_RG_SORT; alg <= DH_RG_GREEDYMAX; alg++) {
        omp_set_num_threads(1);
        assert_int_equal(dh_regroup_bbv(&b, alg, 64, one, &e), 0);
        check_perm(one, n);
        for (int t = 3; t <= 4; t++) {
            omp_set_num_threads(t);
            assert_true(dh_regroup_threads(n) == t);
            assert_int_equal(dh_regroup_bbv(&b, alg, 64, many, &e), 0);
            assert_memory_equal(one, many, (size_t)n * sizeof *one);
        }
        if (alg == DH_RG_SORT)
            for (long j = 1; j < n; j++) {
                int o = lex_cmp(c, nb, one[j - 1], one[j]);
                assert_true(o < 0 || (o == 0 && one[j - 1] < one[j]));
            }
    }
    /* the model's pass over the items: the same figures at any width,
     * and the figures of a plain sequential walk (sums to rounding) */
    double cyc[7] = {4, 6, 9, 2, 30, 1, 7}, inst[7] = {1, 2, 1, 3, 1, 2, 1};
    for (int ord = 0; ord < 2; ord++) {
        const int *order = ord ? one : NULL;
        struct dh_bbv_metrics m1, m4;
        omp_set_num_threads(1);
        dh_bbv_metrics(&b, cyc, inst, order, 32, 96, 3, 2, &m1);
        omp_set_num_threads(4);
        dh_bbv_metrics(&b, cyc, inst, order, 32, 96, 3, 2, &m4);
        assert_memory_equal(&m1, &m4, sizeof m1);
        double ti = 0, wi = 0, tot = 0;
        long div = 0, warps = 0;
        for (long s0 = 0; s0 < n; s0 += 32, warps++) {
            long s1 = s0 + 32 < n ? s0 + 32 : n;
            uint32_t mx[7] = {0};
            int d = 0;
            const uint32_t *f = c + (size_t)(order ? order[s0] : s0) * nb;
            for (long s = s0; s < s1; s++) {
                const uint32_t *v = c + (size_t)(order ? order[s] : s) * nb;
                for (int k = 0; k < nb; k++) {
                    ti += inst[k] * v[k];
                    d |= v[k] != f[k];
                    mx[k] = v[k] > mx[k] ? v[k] : mx[k];
                }
            }
            for (int k = 0; k < nb; k++) {
                wi += inst[k] * mx[k];
                tot += cyc[k] * mx[k];
            }
            div += d;
        }
        assert_int_equal(m1.warps, warps);
        assert_true(fabs(m1.cfe - ti / (wi * 32)) < 1e-12);
        assert_true(fabs(m1.dwr - (double)div / (double)warps) < 1e-15);
        assert_true(fabs(m1.t_weighted - tot / 3) < 1e-9 * tot);
        assert_true(m1.t_sched >= tot / 6 * (1 - 1e-12) && m1.t_sched <= tot); /* 6 slots */
    }
    omp_set_num_threads(width);
    free(one);
    free(many);
    free(c);
}

/* BBVs of 1, 2, 3 and 9 blocks (the hash pairs counters, an odd count's
 * last one with a key alone: ci/test.sh runs this under ASan), differing
 * in the last block only, 70001 items over several chunks: as many
 * classes as distinct vectors, and the sort is the stable lexicographic
 * order, at 1 and 3 threads */
static void sort_block_counts(void **st)
{
    (void)st;
    const long n = 70001;
    const int nbs[] = {1, 2, 3, 9};
    int width = omp_get_max_threads();
    for (size_t q = 0; q < sizeof nbs / sizeof *nbs; q++) {
        int nb = nbs[q];
        uint32_t *c = calloc((size_t)n * (size_t)nb, 4);
        double *cost = malloc((size_t)nb * sizeof *cost);
        int *perm = malloc((size_t)n * sizeof *perm);
        assert_non_null(c);
        assert_non_null(cost);
        assert_non_null(perm);
        for (int j = 0; j < nb; j++)
            cost[j] = 1 + j;
        long distinct = 0;
        for (long i = 0; i < n; i++) {
            uint64_t z = (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull;
            long cl = (long)((z >> 40) % 11);              /* 11 vectors at most */
            c[(size_t)i * nb + nb - 1] = (uint32_t)cl;     /* differ in the last block */
            c[(size_t)i * nb] += 5;
            distinct |= 1L << cl;
        }
        struct dh_bbv b = {.n_items = n, .n_blocks = nb, .counts = c, .block_cost = cost};
        for (int t = 1; t <= 3; t += 2) {
            omp_set_num_threads(t);
            assert_int_equal(dh_regroup_classes(&b), __builtin_popcountl(distinct));
            struct dh_err e = {0};
            assert_int_equal(dh_regroup_bbv(&b, DH_RG_SORT, 64, perm, &e), 0);
            check_perm(perm, n);
            for (long j = 1; j < n; j++) {
                int o = lex_cmp(c, nb, perm[j - 1], perm[j]);
                assert_true(o < 0 || (o == 0 && perm[j - 1] < perm[j]));
            }
        }
        free(c);
        free(cost);
        free(perm);
    }
    omp_set_num_threads(width);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(regroupings),       cmocka_unit_test(regroupings_many_classes),
        cmocka_unit_test(deal_spreads_warps),
        cmocka_unit_test(heavy_first_orders_warps),
        cmocka_unit_test(window_vs_exact),   cmocka_unit_test(threads_identical),
        cmocka_unit_test(sort_block_counts),
        cmocka_unit_test(overflow_found),    cmocka_unit_test(instrumented_identity),
        cmocka_unit_test(latency_file),      cmocka_unit_test(profile_micro),
    };
    return cmocka_run_group_tests_name("bbv", t, NULL, NULL);
}
