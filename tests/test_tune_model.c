/* test_tune_model.c — the model-guided strategy (tuning/model.c): the
 * ranking of a made-up space under a known model, its determinism, that
 * no configuration is evaluated twice, that it stops at the budget, the
 * remap's pricing, and the ceilings it reads from the host's input. */
#include <math.h>

#include "testutil.h"
#include "../harness/run/plan.h"
#include "../suites/suite.h"
#include "../tuning/tuning.h"
#include "../suites/lib/kit.h"

static int calls[512];

static double count_eval(void *ctx, int i)
{
    (void)ctx;
    calls[i]++;
    return 1.0 + i;
}

static void micro_case(struct dh_case *c, const char *alg)
{
    memset(c, 0, sizeof *c);
    c->bench = dh_bench_find("micro", "branch");
    assert_non_null(c->bench);
    snprintf(c->suite, sizeof c->suite, "micro");
    snprintf(c->bench_name, sizeof c->bench_name, "branch");
    snprintf(c->variant, sizeof c->variant, "gpu_tdr");
    snprintf(c->backend, sizeof c->backend, "opencl");
    snprintf(c->size, sizeof c->size, "small");
    dh_pset_put(&c->params, "paths", "2", 2, DH_P_WORKLOAD);
    dh_pset_put(&c->params, "layers", "1", 1, DH_P_WORKLOAD);
    dh_pset_put(&c->params, "iters", "16", 16, DH_P_WORKLOAD);
    dh_pset_put(&c->params, "wg", "256", 256, DH_P_TUNABLE);
    dh_pset_put(&c->params, "alg", alg, 0, DH_P_CHOICE);
    if (!strcmp(alg, "dgi"))
        dh_pset_put(&c->params, "nf", "16", 16, DH_P_TUNABLE);
    dh_pset_sort(&c->params);
    dh_case_identity(c);
}

/* A table whose only nonzero prices are local-memory accesses: the remap's
 * cost is then its local accesses and loop iterations, counted by hand. */
static void lds_only_table(struct dh_latency_table *t)
{
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "test");
    t->cycles[6] = 10;               /* lds (dh_opc_names order) */
    t->max_threads_per_cu = 2048;
    t->max_groups_per_cu = 32;
}

/* a model known by hand: warps of 32, 4 compute units, 2 paths, the
 * lds-only table, w0 cycles a warp, items unknown (no tail) */
static void known_model(struct dh_tune_model *m, double w0)
{
    memset(m, 0, sizeof *m);
    lds_only_table(&m->table);
    m->warp = 32;
    m->cus = 4;
    m->npaths = 2;
    m->warp_cycles = w0;
}

static void rank_sorts_and_breaks_ties(void **st)
{
    (void)st;
    double pred[6] = {5, 1, 3, NAN, 1, -1};
    double tie[6] = {0, 2, 0, 0, 1, 0};
    int rank[6];
    assert_int_equal(dh_tune_rank(6, pred, tie, rank), 0);
    /* 1 and 4 tie on pred: 4 is closer to the default; unknowns last, by index */
    int want[6] = {4, 1, 2, 0, 3, 5};
    for (int i = 0; i < 6; i++)
        assert_int_equal(rank[i], want[i]);
    /* no tie key: equal predictions keep enumeration order */
    double flat[4] = {2, 2, 2, 2};
    assert_int_equal(dh_tune_rank(4, flat, NULL, rank), 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(rank[i], i);
}

/* A made-up wg space of hot (a remap whose cost per warp does not depend
 * on wg) under a known model: W0 = 1000 cycles a warp, no tail (items
 * unknown), ceilings given. Predicted = 1000 / ceiling + the remap. */
static void ranking_follows_the_known_model(void **st)
{
    (void)st;
    struct dh_case c;
    micro_case(&c, "hot");
    struct dh_tune_model m;
    known_model(&m, 1000);
    int wgs[6] = {32, 64, 128, 256, 512, 1024};
    double ceil_[6] = {1.0, 1.4, 1.6, 1.8, 1.9, 1.9};
    struct dh_pset cfg[6];
    for (int i = 0; i < 6; i++) {
        cfg[i] = c.params;
        char t[16];
        snprintf(t, sizeof t, "%d", wgs[i]);
        dh_pset_put(&cfg[i], "wg", t, wgs[i], DH_P_TUNABLE);
    }
    double remap = dh_tune_remap_cycles(&m.table, "hot", 2, 256, 0, 32);
    assert_true(remap == 3 * 10);                /* hot: three local accesses a lane */
    int rank[6];
    double pred[6];
    assert_int_equal(dh_tune_model_order(&m, &c, cfg, ceil_, 6, 3, rank, pred), 0);
    for (int i = 0; i < 6; i++)
        assert_true(fabs(pred[i] - (1000 / ceil_[i] + remap)) < 1e-9);
    /* 512 and 1024 tie at 1.9: 512 is nearer the default 256 (one
     * doubling against two) */
    int want[6] = {4, 5, 3, 2, 1, 0};
    for (int i = 0; i < 6; i++)
        assert_int_equal(rank[i], want[i]);
    /* determinism: the same inputs give the same ranking, again and again */
    for (int rep = 0; rep < 3; rep++) {
        int again[6];
        assert_int_equal(dh_tune_model_order(&m, &c, cfg, ceil_, 6, 3, again, pred), 0);
        assert_memory_equal(again, rank, sizeof rank);
    }
    /* occupancy: 4 compute units of 2048 threads; 3 * 1024 items make one
     * wave either way: wg=512 6 groups in 16 slots, wg=1024 3 in 8 */
    m.items = 3 * 1024;
    double p512 = dh_tune_predict(&m, &c, &cfg[4], 1.9);
    double p1024 = dh_tune_predict(&m, &c, &cfg[5], 1.9);
    assert_true(fabs(p512 - (1000 / 1.9 + remap) * 16.0 / 6) < 1e-9);
    assert_true(fabs(p1024 - (1000 / 1.9 + remap) * 8.0 / 3) < 1e-9);
}

/* DGI's pricing counted by hand: with only local accesses priced (10),
 * wg=256 nf=16 (16 neighbourhoods, 8 warps, P=2): clearing 1, its path
 * and the pool 2, totals P=2, the group's sum 16/8, the neighbourhood
 * 16/2, the search 16 -> (1 + 2 + 2 + 2 + 8 + 16) * 10 = 310. */
static void dgi_pricing(void **st)
{
    (void)st;
    struct dh_latency_table t;
    lds_only_table(&t);
    assert_true(fabs(dh_tune_remap_cycles(&t, "dgi", 2, 256, 16, 32) - 310) < 1e-9);
    /* nf=1 searches nothing but walks 256 neighbourhoods: dearer than nf=16 */
    assert_true(dh_tune_remap_cycles(&t, "dgi", 2, 256, 1, 32)
                > dh_tune_remap_cycles(&t, "dgi", 2, 256, 16, 32));
    /* nf=256: one neighbourhood searched item by item: dearer too */
    assert_true(dh_tune_remap_cycles(&t, "dgi", 2, 256, 256, 32)
                > dh_tune_remap_cycles(&t, "dgi", 2, 256, 16, 32));
    assert_true(isnan(dh_tune_remap_cycles(&t, "refill", 2, 256, 0, 32)));
    /* hot_dgi: HoT on two paths, DGI on more */
    assert_true(dh_tune_remap_cycles(&t, "hot_dgi", 2, 256, 16, 32)
                == dh_tune_remap_cycles(&t, "hot", 2, 256, 16, 32));
    assert_true(dh_tune_remap_cycles(&t, "hot_dgi", 4, 256, 16, 32)
                == dh_tune_remap_cycles(&t, "dgi", 4, 256, 16, 32));
    assert_true(isnan(dh_tune_remap_cycles(&t, "dgi", 2, 256, 0, 32)));
}

/* The remap is priced once per round an item goes through, with the
 * keys of that round, as the kit's remap_plan says: gdt's per-layer forms
 * remap before each of 3 layers every day (2, 6 and 3 keys; 504 days at
 * medium), pol's `rounds` layers (2, 2, then 8 credit keys) and its
 * natkey forms once by 6, 12 or 24 keys; a kit without a plan: its
 * `remaps` rounds of its sort_keys paths (micro's layers). */
static void remap_rounds(void **st)
{
    (void)st;
    struct dh_case c;
    memset(&c, 0, sizeof c);
    c.bench = dh_bench_find("frontier", "gdt");
    assert_non_null(c.bench);
    snprintf(c.suite, sizeof c.suite, "frontier");
    snprintf(c.bench_name, sizeof c.bench_name, "gdt");
    snprintf(c.variant, sizeof c.variant, "gpu_tdr");
    snprintf(c.backend, sizeof c.backend, "opencl");
    snprintf(c.size, sizeof c.size, "medium");
    dh_pset_put(&c.params, "alg", "dgi", 0, DH_P_CHOICE);
    dh_pset_sort(&c.params);
    char why[256];
    struct dh_kremap_use u[16];
    assert_int_equal(dh_kit_remap_plan(&c, NULL, u, 16, why, sizeof why), 3);
    assert_string_equal(why, "");
    long keys[3] = {2, 6, 3};
    for (int k = 0; k < 3; k++) {
        assert_string_equal(u[k].form, "dgi");
        assert_int_equal(u[k].keys, keys[k]);
        assert_int_equal(u[k].times, 504);
    }
    dh_pset_put(&c.params, "days", "200", 200, DH_P_WORKLOAD);
    dh_pset_put(&c.params, "alg", "hot_warp_scan", 0, DH_P_CHOICE);
    assert_int_equal(dh_kit_remap_plan(&c, NULL, u, 16, why, sizeof why), 3);
    assert_string_equal(u[0].form, "hot_warp");
    assert_string_equal(u[1].form, "dgi_scan");
    assert_int_equal(u[2].times, 200);
    dh_pset_put(&c.params, "alg", "buy_pool", 0, DH_P_CHOICE);  /* remaps no layer */
    assert_int_equal(dh_kit_remap_plan(&c, NULL, u, 16, why, sizeof why), 0);
    /* the prediction: the path term plus each round's remap, 200 times */
    dh_pset_put(&c.params, "alg", "dgi", 0, DH_P_CHOICE);
    struct dh_tune_model m;
    known_model(&m, 1e6);
    struct dh_pset cfg = {0};
    dh_pset_put(&cfg, "wg", "128", 128, DH_P_TUNABLE);
    dh_pset_put(&cfg, "nf", "8", 8, DH_P_TUNABLE);
    double r2 = dh_tune_remap_cycles(&m.table, "dgi", 2, 128, 8, 32),
           r6 = dh_tune_remap_cycles(&m.table, "dgi", 6, 128, 8, 32),
           r3 = dh_tune_remap_cycles(&m.table, "dgi", 3, 128, 8, 32);
    assert_true(r2 > 0 && r6 > r2 && r3 > r2);
    assert_true(fabs(dh_tune_predict(&m, &c, &cfg, 2.0) - (1e6 / 2.0 + 200 * (r2 + r6 + r3)))
                < 1e-6);
    /* pol: the case's rounds, or the configuration's; natkey by its keys */
    struct dh_case p = c;
    p.bench = dh_bench_find("frontier", "pol");
    assert_non_null(p.bench);
    snprintf(p.bench_name, sizeof p.bench_name, "pol");
    memset(&p.params, 0, sizeof p.params);
    dh_pset_put(&p.params, "alg", "dgi", 0, DH_P_CHOICE);
    assert_int_equal(dh_kit_remap_plan(&p, NULL, u, 16, why, sizeof why), 2);  /* rounds 3 */
    assert_int_equal(u[0].keys, 2);
    assert_int_equal(u[0].times, 2);
    assert_int_equal(u[1].keys, 8);
    assert_int_equal(u[1].times, 1);
    struct dh_pset r1 = {0};
    dh_pset_put(&r1, "rounds", "1", 1, DH_P_TUNABLE);
    assert_int_equal(dh_kit_remap_plan(&p, &r1, u, 16, why, sizeof why), 1);
    assert_int_equal(u[0].times, 1);
    dh_pset_put(&p.params, "alg", "natkey_dgi", 0, DH_P_CHOICE);
    struct dh_pset ks = {0};
    dh_pset_put(&ks, "kstat", "2", 2, DH_P_TUNABLE);
    assert_int_equal(dh_kit_remap_plan(&p, &ks, u, 16, why, sizeof why), 1);
    assert_string_equal(u[0].form, "dgi");
    assert_int_equal(u[0].keys, 24);
    assert_int_equal(dh_kit_remap_plan(&p, NULL, u, 16, why, sizeof why), 1);
    assert_int_equal(u[0].keys, 6);                                 /* kstat's default, 0 */
    /* micro declares no plan: its layers of its paths */
    struct dh_case mc;
    micro_case(&mc, "dgi");
    assert_int_equal(dh_kit_remap_plan(&mc, NULL, u, 16, why, sizeof why), -1);
    assert_int_equal(dh_kit_remaps(&mc, NULL, why, sizeof why), 1);
    dh_pset_put(&mc.params, "layers", "2", 2, DH_P_WORKLOAD);
    assert_int_equal(dh_kit_remaps(&mc, NULL, why, sizeof why), 2);
    struct dh_case lb = c;
    lb.bench = dh_bench_find("parboil", "lbm");
    assert_non_null(lb.bench);
    memset(&lb.params, 0, sizeof lb.params);
    assert_int_equal(dh_kit_remaps(&lb, NULL, why, sizeof why), 1);
}

static void never_twice_and_budget(void **st)
{
    (void)st;
    /* rank holds n = 8 entries; this one repeats two and strays twice */
    int rank[8] = {7, 2, 7, -1, 2, 12, 0, 5}, order[8];
    memset(calls, 0, sizeof calls);
    int k = dh_strategy_ranked(8, rank, 0, 0, count_eval, NULL, order);
    /* every valid index once, in the rank's order; repeats and strays skipped */
    int want[4] = {7, 2, 0, 5};
    assert_int_equal(k, 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(order[i], want[i]);
    for (int i = 0; i < 8; i++)
        assert_int_equal(calls[i], i == 7 || i == 2 || i == 0 || i == 5 ? 1 : 0);
    /* a full permutation: each configuration exactly once */
    int perm[8] = {3, 1, 4, 0, 6, 2, 7, 5};
    memset(calls, 0, sizeof calls);
    assert_int_equal(dh_strategy_ranked(8, perm, 0, 0, count_eval, NULL, order), 8);
    for (int i = 0; i < 8; i++) {
        assert_int_equal(calls[i], 1);
        assert_int_equal(order[i], perm[i]);
    }
    /* the budget: the top three, no more */
    memset(calls, 0, sizeof calls);
    k = dh_strategy_ranked(8, rank, 3, 0, count_eval, NULL, order);
    assert_int_equal(k, 3);
    assert_int_equal(order[0], 7);
    assert_int_equal(order[1], 2);
    assert_int_equal(order[2], 0);
    int total = 0;
    for (int i = 0; i < 8; i++)
        total += calls[i];
    assert_int_equal(total, 3);
}

/* Without a session (no BBVs) the model still reads the ceilings from
 * the input made on the host: for a two-path input in random order the
 * ceiling rises with wg, and the ranking puts the large groups first. */
static void ceilings_from_the_host(void **st)
{
    (void)st;
    struct dh_case c;
    micro_case(&c, "dgi");
    struct dh_device_info dev = {.warp_width = 32, .max_wg = 1024, .local_mem_bytes = 49152,
                                 .compute_units = 4};
    snprintf(dev.name, sizeof dev.name, "test");
    static struct dh_pset cfg[DH_TUNE_MAX_CONFIGS];
    int n, total;
    dh_space_enumerate(&c, &dev, cfg, DH_TUNE_MAX_CONFIGS, &n, &total);
    assert_true(n > 20);
    static struct dh_tune_model m;
    double ceil_[DH_TUNE_MAX_CONFIGS], pred[DH_TUNE_MAX_CONFIGS];
    int rank[DH_TUNE_MAX_CONFIGS];
    struct dh_err e = {0};
    assert_int_equal(dh_tune_model_prepare(NULL, &c, &dev, "opencl", 0, "", cfg, n, &m, ceil_,
                                           &e), 0);
    assert_true(m.note[0] != 0);                 /* no BBVs: it says so */
    assert_int_equal(m.warp_cycles, 0);
    assert_true(m.items > 0);
    assert_int_equal(m.npaths, 2);
    double c64 = 0, c1024 = 0;
    for (int i = 0; i < n; i++) {
        assert_true(ceil_[i] >= 1);
        int wg = (int)dh_pset_num(&cfg[i], "wg", 0);
        if (wg == 64) c64 = ceil_[i];
        if (wg == 1024) c1024 = ceil_[i];
    }
    assert_true(c1024 > c64);
    assert_int_equal(dh_tune_model_order(&m, &c, cfg, ceil_, n, -1, rank, pred), 0);
    assert_true(dh_pset_num(&cfg[rank[0]], "wg", 0) >= 512);
    assert_true(dh_pset_num(&cfg[rank[n - 1]], "wg", 0) == 32);
}

/* Live, on this machine's OpenCL device: the profiling run gives the
 * model its BBVs, the search stops at the budget, evaluates nothing
 * twice, and the record names the strategy. */
static void live_search(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    struct dh_devlist devs;
    struct dh_err e = {0};
    assert_int_equal(dh_devices_gather(&devs, 0, &e), 0);
    /* in this process: the device check above loaded PoCL here, and its
     * threads would not survive the fork of a worker */
    struct dh_runner_opts ro = {.isolate = 0};
    struct dh_session *s = dh_session_open(&ro);
    struct dh_run *u = calloc(1, sizeof *u);
    assert_non_null(u);
    micro_case(&u->c, "dgi");
    snprintf(u->c.device_name, sizeof u->c.device_name, "%s", devs.d[0].info.name);
    u->c.timeout_s = 120;
    u->c.model = 1;
    dh_case_identity(&u->c);
    const struct dh_device_info *dev = dh_devlist_find(&devs, "opencl", 0);
    assert_non_null(dev);
    static struct dh_pset cfg[DH_TUNE_MAX_CONFIGS];
    int n, total;
    dh_space_enumerate(&u->c, dev, cfg, DH_TUNE_MAX_CONFIGS, &n, &total);
    static struct dh_tune_model m;
    double ceil_[DH_TUNE_MAX_CONFIGS];
    assert_int_equal(dh_tune_model_prepare(s, &u->c, dev, "opencl", 0, dev->name, cfg, n, &m,
                                           ceil_, &e), 0);
    if (m.note[0])
        fprintf(stderr, "  note: %s\n", m.note);
    assert_true(m.warp_cycles > 0);               /* the BBVs were priced */
    assert_true(m.items > 0);
    struct dh_tune_opts o = {.mode = DH_TUNE_MODEL, .reps = 1, .budget = 4, .devs = &devs};
    assert_int_equal(dh_tune_case(s, u, &o, &e), 0);
    assert_string_equal(u->tune.strategy, "model");
    assert_int_equal(u->tune.n_eval, 4);          /* the budget, no more */
    for (int a = 0; a < u->tune.n_eval; a++)
        for (int b = a + 1; b < u->tune.n_eval; b++)
            assert_string_not_equal(u->tune.eval[a].tunables, u->tune.eval[b].tunables);
    assert_true(u->tune.best >= 0);
    dh_session_close(s);
    dh_tuning_release(&u->tune);
    free(u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rank_sorts_and_breaks_ties),
        cmocka_unit_test(ranking_follows_the_known_model),
        cmocka_unit_test(dgi_pricing),
        cmocka_unit_test(remap_rounds),
        cmocka_unit_test(never_twice_and_budget),
        cmocka_unit_test(ceilings_from_the_host),
        cmocka_unit_test(live_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
