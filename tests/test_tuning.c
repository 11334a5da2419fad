/* test_tuning.c — search space, strategies, journal, resume. */
#include <unistd.h>

#include <fcntl.h>

#include "testutil.h"
#include "../harness/run/plan.h"
#include "../tuning/tuning.h"
#include "../suites/lib/descriptor.h"
#include "testcase.h"

static void micro_case(struct dh_case *c, const char *variant, const char *alg)
{
    memset(c, 0, sizeof *c);
    c->bench = dh_bench_find("micro", "branch");
    snprintf(c->suite, sizeof c->suite, "micro");
    snprintf(c->bench_name, sizeof c->bench_name, "branch");
    snprintf(c->variant, sizeof c->variant, "%s", variant);
    snprintf(c->backend, sizeof c->backend, "opencl");
    snprintf(c->size, sizeof c->size, "small");
    dh_pset_put(&c->params, "paths", "2", 2, DH_P_WORKLOAD);
    dh_pset_put(&c->params, "layers", "1", 1, DH_P_WORKLOAD);
    dh_pset_put(&c->params, "wg", "256", 256, DH_P_TUNABLE);
    if (alg) {
        dh_pset_put(&c->params, "alg", alg, 0, DH_P_CHOICE);
        if (!strcmp(alg, "dgi"))
            dh_pset_put(&c->params, "nf", "16", 16, DH_P_TUNABLE);
    }
    dh_case_identity(c);
}

static void space(void **st)
{
    (void)st;
    struct dh_device_info dev = {.warp_width = 32, .max_wg = 1024, .local_mem_bytes = 49152};
    static struct dh_pset cfg[DH_TUNE_MAX_CONFIGS];
    struct dh_case c;
    int n, total;
    micro_case(&c, "gpu_tdr", "dgi");
    dh_space_enumerate(&c, &dev, cfg, DH_TUNE_MAX_CONFIGS, &n, &total);
    /* wg in 32..1024 (6 powers of two), nf a power of two dividing wg */
    assert_int_equal(total, 11 * 11);
    assert_int_equal(n, 6 + 7 + 8 + 9 + 10 + 11);
    for (int i = 0; i < n; i++) {
        int wg = (int)dh_pset_num(&cfg[i], "wg", 0), nf = (int)dh_pset_num(&cfg[i], "nf", 0);
        assert_true(wg % 32 == 0 && wg % nf == 0);
        /* identity untouched */
        assert_string_equal(dh_pset_text(&cfg[i], "alg", ""), "dgi");
    }
    micro_case(&c, "gpu_tdr", "hot");
    dh_space_enumerate(&c, &dev, cfg, DH_TUNE_MAX_CONFIGS, &n, &total);
    assert_int_equal(n, 6);                        /* no nf for hot */
    dev.max_wg = 128;                              /* device limit prunes */
    dh_space_enumerate(&c, &dev, cfg, DH_TUNE_MAX_CONFIGS, &n, &total);
    assert_int_equal(n, 3);
    dev.warp_width = 256;                          /* nothing fits: empty */
    dh_space_enumerate(&c, &dev, cfg, DH_TUNE_MAX_CONFIGS, &n, &total);
    assert_int_equal(n, 0);
}

/* a range domain's candidates are its powers of two and the declared
 * default: minb (int:0..8, default 0 = the compiler's choice) is
 * tuned over 0, 1, 2, 4, 8, so the default configuration is in the space
 * (it was not: the powers of two alone left minb=0 out) */
static void space_default(void **st)
{
    (void)st;
    struct dh_device_info dev = {.warp_width = 32, .max_wg = 1024, .local_mem_bytes = 49152};
    static struct dh_pset cfg[DH_TUNE_MAX_CONFIGS];
    struct dh_case c;
    int n, total;
    dh_test_case(&c, "frontier", "gdt", "gpu_tdr");
    dh_pset_put(&c.params, "alg", "meld_buy_pool", 0, DH_P_CHOICE);
    dh_pset_put(&c.params, "wg", "256", 256, DH_P_TUNABLE);
    dh_pset_put(&c.params, "minb", "0", 0, DH_P_TUNABLE);
    snprintf(c.backend, sizeof c.backend, "cuda");     /* launch bounds are CUDA's */
    dh_case_identity(&c);
    dh_space_enumerate(&c, &dev, cfg, DH_TUNE_MAX_CONFIGS, &n, &total);
    assert_int_equal(total, 11 * 5);               /* wg 1..1024, minb 0, 1, 2, 4, 8 */
    int seen = 0;
    for (int i = 0; i < n; i++) {
        int wg = (int)dh_pset_num(&cfg[i], "wg", 0), minb = (int)dh_pset_num(&cfg[i], "minb", -1);
        assert_true(minb * wg <= 2048);            /* the knob's rule (constraints.c) */
        seen += wg == 256 && minb == 0;
    }
    assert_int_equal(seen, 1);
    assert_int_equal(n, 5 + 5 + 5 + 5 + 4 + 3);    /* wg 32..1024, minb * wg <= 2048 */
}

/* No silent cut: pol's hot_dgi space on CUDA (wg, nf, rounds, minb: 1,815
 * before pruning) passes more than 512 configurations, and the search saw
 * only the first 512 of them without a word; a range of 17 powers of two
 * (group, 1..65536) lost its last value the same way. */
static void space_whole(void **st)
{
    (void)st;
    struct dh_device_info dev = {.warp_width = 32, .max_wg = 1024, .local_mem_bytes = 232448};
    struct dh_case c;
    dh_test_case(&c, "frontier", "pol", "gpu_tdr");
    snprintf(c.backend, sizeof c.backend, "cuda");
    dh_pset_put(&c.params, "alg", "hot_dgi", 0, DH_P_CHOICE);
    dh_pset_put(&c.params, "wg", "256", 256, DH_P_TUNABLE);
    dh_pset_put(&c.params, "nf", "16", 16, DH_P_TUNABLE);
    dh_pset_put(&c.params, "rounds", "3", 3, DH_P_TUNABLE);
    dh_pset_put(&c.params, "minb", "0", 0, DH_P_TUNABLE);
    dh_case_identity(&c);
    struct dh_pset *cfg = NULL;
    int n = 0, total = 0;
    struct dh_err e = {0};
    assert_int_equal(dh_space_alloc(&c, &dev, &cfg, &n, &total, &e), 0);
    fprintf(stderr, "  pol hot_dgi: %d of %d configurations\n", n, total);
    assert_true(n > DH_TUNE_MAX_CONFIGS);
    static struct dh_pset few[DH_TUNE_MAX_CONFIGS];
    int m = 0, t2 = 0;
    assert_int_equal(dh_space_enumerate(&c, &dev, few, DH_TUNE_MAX_CONFIGS, &m, &t2),
                     -DH_E_RESOURCES);                 /* a cut is an error, never silent */
    assert_int_equal(m, DH_TUNE_MAX_CONFIGS);
    free(cfg);
    /* every power of two of group's 1..65536 is a candidate */
    dh_test_case(&c, "micro", "branch", "cpu_tdr");
    dh_pset_put(&c.params, "regroup", "greedy", 2, DH_P_CHOICE);
    dh_pset_put(&c.params, "group", "64", 64, DH_P_TUNABLE);
    dh_pset_put(&c.params, "wg", "256", 256, DH_P_TUNABLE);
    dh_case_identity(&c);
    assert_int_equal(dh_space_alloc(&c, &dev, &cfg, &n, &total, &e), 0);
    int big = 0;
    for (int i = 0; i < n; i++)
        big |= dh_pset_num(&cfg[i], "group", 0) == 65536;
    assert_true(big);
    free(cfg);
}

/* a landscape over a 2-D grid of configurations, minimum at (5, 3) */
#define GX 8
#define GY 6
static int evals;
static double grid(void *ctx, int i)
{
    (void)ctx;
    evals++;
    int x = i % GX, y = i / GX;
    return 1.0 + 0.1 * ((x - 5) * (x - 5) + (y - 3) * (y - 3));
}

static void strategies(void **st)
{
    (void)st;
    int n = GX * GY, order[GX * GY], nb[GX * GY * 4];
    for (int i = 0; i < n; i++) {
        int x = i % GX, y = i / GX, k = 0;
        for (int q = 0; q < 4; q++)
            nb[i * 4 + q] = -1;
        if (x > 0) nb[i * 4 + k++] = i - 1;
        if (x < GX - 1) nb[i * 4 + k++] = i + 1;
        if (y > 0) nb[i * 4 + k++] = i - GX;
        if (y < GY - 1) nb[i * 4 + k++] = i + GX;
    }
    evals = 0;
    assert_int_equal(dh_strategy_run(DH_TUNE_EXHAUSTIVE, n, NULL, 0, 0, 0, 0, 1, grid, NULL, order), n);
    assert_int_equal(evals, n);
    for (int i = 0; i < n; i++)
        assert_int_equal(order[i], i);
    evals = 0;
    int k = dh_strategy_run(DH_TUNE_RANDOM, n, NULL, 0, 0, 10, 0, 7, grid, NULL, order);
    assert_int_equal(k, 10);
    assert_int_equal(evals, 10);                   /* each evaluated once */
    for (int a = 0; a < k; a++)
        for (int b = a + 1; b < k; b++)
            assert_int_not_equal(order[a], order[b]);
    /* annealing from a corner finds the bottom of a bowl within half the space */
    int found = 0;
    for (unsigned seed = 1; seed <= 9; seed++) {
        evals = 0;
        k = dh_strategy_run(DH_TUNE_ANNEAL, n, nb, 4, 0, n / 2, 0, seed, grid, NULL, order);
        assert_true(k <= n / 2);
        for (int a = 0; a < k; a++)
            found += order[a] == 3 * GX + 5;
    }
    assert_true(found >= 7);                        /* in most seeds */
}

static void journal(void **st)
{
    (void)st;
    char path[] = "/tmp/dh-journal-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *torn = "dh1\tabc\n" "garbage line\n";
    assert_true(write(fd, torn, strlen(torn)) > 0);
    close(fd);
    struct dh_journal j;
    struct dh_err e = {0};
    assert_int_equal(dh_journal_load(&j, path, &e), 0);
    assert_int_equal(j.n, 0);
    assert_int_equal(j.skipped, 2);                 /* skipped, not fatal */
    struct dh_journal_entry a = {.status = 0, .ms = 1.25};
    snprintf(a.eval_key, sizeof a.eval_key, "0123456789abcdef");
    snprintf(a.case_key, sizeof a.case_key, "fedcba9876543210");
    snprintf(a.tunables, sizeof a.tunables, "nf=4,wg=64");
    assert_int_equal(dh_journal_append(&j, &a, &e), 0);
    a.status = DH_E_TIMEOUT;
    snprintf(a.eval_key, sizeof a.eval_key, "1111111111111111");
    assert_int_equal(dh_journal_append(&j, &a, &e), 0);
    dh_journal_free(&j);
    assert_int_equal(dh_journal_load(&j, path, &e), 0);
    assert_int_equal(j.n, 2);
    const struct dh_journal_entry *f = dh_journal_find(&j, "0123456789abcdef");
    assert_non_null(f);
    assert_true(f->ms == 1.25 && f->status == 0);
    assert_string_equal(f->tunables, "nf=4,wg=64");
    assert_int_equal(dh_journal_find(&j, "1111111111111111")->status, DH_E_TIMEOUT);
    assert_null(dh_journal_find(&j, "2222222222222222"));
    dh_journal_free(&j);
    /* a writer killed mid-line: the next line still stands on its own */
    /* cut inside the number (found by fuzz_journal: once the append ended
     * the torn line, it read as 1.2 ms) */
    fd = open(path, O_WRONLY | O_APPEND);
    const char *cut = "dh1\t2222222222222222\tfedcba9876543210\twg=64\tok\t1.2";
    assert_true(write(fd, cut, strlen(cut)) == (ssize_t)strlen(cut));
    close(fd);
    assert_int_equal(dh_journal_load(&j, path, &e), 0);
    snprintf(a.eval_key, sizeof a.eval_key, "3333333333333333");
    assert_int_equal(dh_journal_append(&j, &a, &e), 0);
    dh_journal_free(&j);
    assert_int_equal(dh_journal_load(&j, path, &e), 0);
    assert_int_equal(j.skipped, 3);           /* the two above and the torn one */
    assert_non_null(dh_journal_find(&j, "3333333333333333"));
    assert_null(dh_journal_find(&j, "2222222222222222"));
    dh_journal_free(&j);
    unlink(path);
    /* not a regular file (DH_JOURNAL=/dev/zero spun forever): refused */
    assert_int_equal(dh_journal_load(&j, "/dev/zero", &e), -DH_E_IO);
    assert_non_null(strstr(e.msg, "not a regular file"));
}

/* A search, then the same search again: the second measures nothing new
 * (resume), and the journal mode picks the same best. */
static void resume(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    struct dh_devlist devs;
    struct dh_err e = {0};
    assert_int_equal(dh_devices_gather(&devs, 0, &e), 0);
    char path[] = "/tmp/dh-journal-XXXXXX";
    close(mkstemp(path));
    struct dh_journal j;
    assert_int_equal(dh_journal_load(&j, path, &e), 0);
    struct dh_runner_opts ro = {.isolate = 0};
    struct dh_session *s = dh_session_open(&ro);
    struct dh_run *u = calloc(1, sizeof *u);
    micro_case(&u->c, "gpu_tdr", "hot");
    snprintf(u->c.device_name, sizeof u->c.device_name, "%s", devs.d[0].info.name);
    u->c.timeout_s = 60;
    dh_pset_put(&u->c.params, "iters", "16", 16, DH_P_WORKLOAD);
    dh_case_identity(&u->c);
    struct dh_tune_opts o = {.mode = DH_TUNE_EXHAUSTIVE, .reps = 2, .journal = &j, .devs = &devs};
    assert_int_equal(dh_tune_case(s, u, &o, &e), 0);
    int n1 = u->tune.n_eval;
    assert_true(n1 >= 5);
    assert_true(u->tune.best >= 0);
    for (int i = 0; i < n1; i++)
        assert_int_equal(u->tune.eval[i].from_journal, 0);
    char best[96];
    snprintf(best, sizeof best, "%s", u->tune.eval[u->tune.best].tunables);
    /* again, from a reloaded journal: everything comes from it */
    dh_journal_free(&j);
    assert_int_equal(dh_journal_load(&j, path, &e), 0);
    assert_int_equal(j.n, n1);
    micro_case(&u->c, "gpu_tdr", "hot");
    snprintf(u->c.device_name, sizeof u->c.device_name, "%s", devs.d[0].info.name);
    u->c.timeout_s = 60;
    dh_pset_put(&u->c.params, "iters", "16", 16, DH_P_WORKLOAD);
    dh_case_identity(&u->c);
    assert_int_equal(dh_tune_case(s, u, &o, &e), 0);
    for (int i = 0; i < u->tune.n_eval; i++)
        assert_int_equal(u->tune.eval[i].from_journal, 1);
    assert_int_equal(j.n, n1);                       /* nothing new appended */
    /* journal mode: the same best, without running anything */
    o.mode = DH_TUNE_JOURNAL;
    dh_pset_put(&u->c.params, "wg", "256", 256, DH_P_TUNABLE);
    assert_int_equal(dh_tune_case(s, u, &o, &e), 0);
    char now[96];
    dh_pset_format(&u->c.params, DH_P_TUNABLE, now, sizeof now);
    assert_string_equal(now, best);
    assert_string_equal(u->tune.strategy, "journal");
    dh_session_close(s);
    dh_journal_free(&j);
    free(u);
    unlink(path);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void expressions(void **st)
{
    (void)st;
    struct dh_pset p = {0};
    dh_pset_put(&p, "wg", "256", 256, DH_P_TUNABLE);
    dh_pset_put(&p, "NF", "16", 16, DH_P_TUNABLE);
    long v;
    char why[256];
    assert_int_equal(dh_expr_eval("wg % NF == 0 && wg <= max_wg", &p, 32, 1024, 4096, &v, why,
                                  sizeof why), 0);
    assert_int_equal(v, 1);
    assert_int_equal(dh_expr_eval("(wg + 2 * NF) / warp", &p, 32, 1024, 0, &v, why, sizeof why), 0);
    assert_int_equal(v, 9);
    assert_int_equal(dh_expr_eval("wg * UNROLL <= 64", &p, 32, 1024, 0, &v, why, sizeof why),
                     -DH_E_DATA);
    assert_non_null(strstr(why, "unknown name"));
    assert_int_equal(dh_expr_eval("wg % 0", &p, 32, 1024, 0, &v, why, sizeof why), -DH_E_DATA);
    assert_int_equal(dh_expr_eval("wg <=", &p, 32, 1024, 0, &v, why, sizeof why), -DH_E_DATA);
    /* ?:, !, min, max; the branch not taken raises nothing */
    assert_int_equal(dh_expr_eval("NF > 8 ? wg / NF : 0 / 0", &p, 32, 1024, 0, &v, why, sizeof why), 0);
    assert_int_equal(v, 16);
    assert_int_equal(dh_expr_eval("NF > 99 ? 1 / 0 : NF < 4 ? 2 : 3", &p, 32, 1024, 0, &v, why,
                                  sizeof why), 0);
    assert_int_equal(v, 3);
    assert_int_equal(dh_expr_eval("1 ? 1 / 0 : 2", &p, 32, 1024, 0, &v, why, sizeof why),
                     -DH_E_DATA);
    assert_non_null(strstr(why, "division by zero"));
    assert_int_equal(dh_expr_eval("1 ? 2", &p, 32, 1024, 0, &v, why, sizeof why), -DH_E_DATA);
    assert_non_null(strstr(why, "expected ':'"));
    assert_int_equal(dh_expr_eval("!(wg == 256) + max(NF, 3 * warp) - min (2, -5)", &p, 32, 1024,
                                  0, &v, why, sizeof why), 0);
    assert_int_equal(v, 101);
    assert_int_equal(dh_expr_eval("max(1 2)", &p, 32, 1024, 0, &v, why, sizeof why), -DH_E_DATA);
    /* a name whose value no 64-bit integer holds (found by fuzz_expr: a
     * float-to-integer overflow) */
    dh_pset_put(&p, "huge", "1e30", 1e30, DH_P_WORKLOAD);
    assert_int_equal(dh_expr_eval("huge % 3", &p, 32, 1024, 0, &v, why, sizeof why), -DH_E_DATA);
    assert_non_null(strstr(why, "beyond 64-bit"));
    assert_int_equal(dh_expr_eval("0 ? huge : 5", &p, 32, 1024, 0, &v, why, sizeof why), 0);
    assert_int_equal(v, 5);
}

static void user_kernel(void **st)
{
    (void)st;
    const struct dh_bench *b;
    struct dh_err e = {0};
    /* malformed descriptors: named line and field */
    write_text("/tmp/dh-bad1.xml", "<divharness-kernel version=\"1\"><kernel name=\"k\"/></divharness-kernel>");
    assert_int_equal(dh_ukernel_load("/tmp/dh-bad1.xml", NULL, &b, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "line 1"));
    write_text("/tmp/dh-bad2.xml",
               "<divharness-kernel version=\"1\">\n"
               "<kernel name=\"k\" file=\"k.k\" entry=\"k\" items=\"64\"/>\n"
               "<buffer name=\"y\" type=\"float\" count=\"64\" role=\"out\"/>\n"
               "<args><arg buffer=\"nosuch\"/></args>\n"
               "<tunable name=\"wg\" values=\"32,64\" default=\"32\"/>\n"
               "</divharness-kernel>\n");
    assert_int_equal(dh_ukernel_load("/tmp/dh-bad2.xml", NULL, &b, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "line 4"));
    assert_non_null(strstr(e.msg, "nosuch"));
    /* the worked example: tuned on the CPU device against its reference */
    assert_int_equal(dh_ukernel_load("tuning/examples/branch_sum.xml", NULL, &b, &e), 0);
    dh_test_need_device("opencl");
    struct dh_devlist devs;
    assert_int_equal(dh_devices_gather(&devs, 0, &e), 0);
    struct dh_run *u = calloc(1, sizeof *u);
    u->c.bench = b;
    snprintf(u->c.suite, sizeof u->c.suite, "user");
    snprintf(u->c.bench_name, sizeof u->c.bench_name, "%s", b->name);
    snprintf(u->c.variant, sizeof u->c.variant, "baseline");
    snprintf(u->c.backend, sizeof u->c.backend, "opencl");
    snprintf(u->c.device_name, sizeof u->c.device_name, "%s", devs.d[0].info.name);
    snprintf(u->c.size, sizeof u->c.size, "small");
    u->c.timeout_s = 120;
    for (const struct dh_param_def *d = b->params; d->name; d++)
        dh_pset_put(&u->c.params, d->name, d->def, atof(d->def), DH_P_TUNABLE);
    dh_case_identity(&u->c);
    struct dh_runner_opts ro = {.isolate = 0};
    struct dh_session *s = dh_session_open(&ro);
    struct dh_tune_opts o = {.mode = DH_TUNE_RANDOM, .budget = 4, .reps = 1, .devs = &devs, .seed = 3};
    assert_int_equal(dh_tune_case(s, u, &o, &e), 0);
    assert_true(u->tune.space > 4);                  /* the constraint pruned some */
    assert_true(u->tune.space < u->tune.space_total);
    assert_true(u->tune.best >= 0);
    for (int i = 0; i < u->tune.n_eval; i++)
        assert_int_equal(u->tune.eval[i].status, 0); /* verified against the reference */
    /* a wrong kernel is caught: swap the entry for one that differs */
    assert_int_equal(dh_ukernel_load("tuning/examples/branch_sum.xml", NULL, &b, &e), 0);
    write_text("/tmp/dh-wrong.k",
               "DH_KERNEL void branch_sum(DH_CONST float *x, DH_CONST int *m, DH_GLOBAL float *y, int n)\n"
               "{ int i = dh_gid(); y[i] = x[i] + (float)(m[i] % 3) + (float)n * 0.0f; }\n"
               "DH_KERNEL void branch_sum_ref(DH_CONST float *x, DH_CONST int *m, DH_GLOBAL float *y, int n)\n"
               "{ int i = dh_gid(); y[i] = x[i] + (float)(m[i] % 2) + (float)n * 0.0f; }\n");
    assert_int_equal(dh_ukernel_load("tuning/examples/branch_sum.xml", "/tmp/dh-wrong.k", &b, &e), 0);
    static struct dh_result r;
    u->c.bench = b;
    u->c.reps = 2;
    u->c.warmup = 1;
    dh_case_identity(&u->c);
    assert_int_equal(dh_session_run(s, &u->c, &r), 0);
    assert_int_equal(r.status, DH_E_WRONG);
    dh_session_close(s);
    free(u);
}

int main(void)
{
    setenv("DH_CACHE_DIR", "/tmp/dh-test-cache", 0);
    const struct CMUnitTest t[] = {
        cmocka_unit_test(space), cmocka_unit_test(space_default), cmocka_unit_test(space_whole), cmocka_unit_test(strategies), cmocka_unit_test(journal),
        cmocka_unit_test(resume), cmocka_unit_test(expressions), cmocka_unit_test(user_kernel),
    };
    return cmocka_run_group_tests_name("tuning", t, NULL, NULL);
}
