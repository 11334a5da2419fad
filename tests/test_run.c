/* test_run.c — end-to-end through plan + runner on real devices:
 *   conformance: every benchmark x variant on every available backend
 *                matches the CPU reference;
 *   planted wrong result: verification catches a corrupted download;
 *   faults: a wrapper backend fails the Nth build / alloc / launch
 *           (SQLite's test_syscall idea); hang and crash isolation.
 * Needs a device (PoCL here): SKIPPED where there is none. */
#include <signal.h>
#include <unistd.h>

#include <math.h>

#include "faultwrap.h"
#include "../harness/run/steps.h"
#include "../harness/stats/derive.h"
#include "../harness/stats/load.h"
#include "../results/xml.h"
#include "../suites/suite.h"

static void conformance(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    struct dh_run *runs;
    int n;
    plan_model = 1;                 /* the BBV regroupings need it */
    int rc = plan_run("all", "all", 0, NULL, 0, 300, &runs, &n);
    plan_model = 0;
    assert_int_equal(rc, 0);
    assert_true(n >= 4 * 5);                   /* 4 workloads x >= 5 variant forms */
    int by_variant[4] = {0};
    for (int i = 0; i < n; i++) {
        if (runs[i].r.status)
            fprintf(stderr, "%s: %s\n", runs[i].c.id, runs[i].r.message);
        assert_int_equal(runs[i].r.status, 0);
        assert_true(runs[i].r.verified && runs[i].r.verify.mismatches == 0);
        assert_true(runs[i].r.verify.checked > 0);
        const char *v = runs[i].c.variant;
        by_variant[!strcmp(v, "baseline") ? 0 : !strcmp(v, "cpu_tdr") ? 1
                   : !strcmp(v, "gpu_tdr") ? 2 : 3]++;
    }
    for (int k = 0; k < 4; k++)
        assert_true(by_variant[k] > 0);
    free(runs);
}

/* Every registered suite at size small, every variant with its default
 * choices, on the OpenCL device: each case verified (a refusal only
 * where a constraint or the backend says so), every benchmark run, and
 * every family a benchmark declares run at least once; every gpu_tdr case
 * with its remap overhead measured and verified, or n/a with the reason. */
static void suites(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    struct dh_err e = {0};
    assert_int_equal(dh_devices_gather(&devs, 0, &e), 0);
    for (int i = 0; i < dh_bench_count(); i++) {
        const char *suite = dh_bench_at(i)->suite;
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= !strcmp(dh_bench_at(j)->suite, suite);
        if (seen)
            continue;
        struct dh_selection sel = {.suite = suite, .size = "small", .reps = 1, .warmup = 1,
                                   .timeout_s = 300, .device = -1, .backends = "opencl",
                                   .variants = "all", .model = 1, .remap_overhead = 1};
        struct dh_run *runs;
        int n;
        if (dh_plan(&sel, &devs, &runs, &n, &e))
            fail_msg("plan %s: %s", suite, e.msg);
        struct dh_runner_opts o = {.isolate = 0};
        assert_int_equal(dh_runner_execute(runs, n, &o), 0);
        for (int k = 0; k < dh_bench_count(); k++) {
            const struct dh_bench *b = dh_bench_at(k);
            if (strcmp(b->suite, suite))
                continue;
            static const char *const fam[] = {"baseline", "cpu_tdr", "gpu_tdr", "melded"};
            for (int f = 0; f < 4; f++) {
                if (!dh_bench_has_variant(b, fam[f]))
                    continue;
                int ok = 0;
                for (int r = 0; r < n; r++)
                    ok += !strcmp(runs[r].c.bench_name, b->name) && !strcmp(runs[r].c.variant, fam[f]) &&
                          runs[r].r.status == 0;
                if (!ok)
                    fail_msg("%s/%s: no %s case ran", suite, b->name, fam[f]);
            }
        }
        for (int r = 0; r < n; r++) {
            int st = runs[r].r.status;
            if (st == DH_E_CONSTRAINT || st == DH_E_UNSUPPORTED)
                continue;
            if (st || !runs[r].r.verified || runs[r].r.verify.mismatches ||
                runs[r].r.verify.checked <= 0)
                fail_msg("%s: status %d: %s", runs[r].c.id, st, runs[r].r.message);
            /* every gpu_tdr case has its remap overhead (both runs on the
             * sorted input verified) or says why it cannot */
            int rs = runs[r].r.remap.state;
            if (!strcmp(runs[r].c.variant, "gpu_tdr")
                && !(rs == DH_REMAP_MEASURED && runs[r].r.remap.ratio > 0)
                && !(rs == DH_REMAP_NA && runs[r].r.remap.reason[0]))
                fail_msg("%s: remap overhead state %d: %s", runs[r].c.id, rs,
                         runs[r].r.remap.reason);
        }
        fprintf(stderr, "suite %s: %d cases verified\n", suite, n);
        free(runs);
    }
}


/* the host-reuse rule on made-up samples */
static void host_rule(void **st)
{
    (void)st;
    double same[8] = {2, 2, 2, 2, 2, 2, 2, 2}, none[5] = {0};
    double noisy[8] = {1, 9, 2, 8, 1, 9, 3, 7};
    assert_false(dh_host_settled(same, 4));       /* fewer than 5 */
    assert_true(dh_host_settled(same, 5));
    assert_true(dh_host_settled(none, 5));        /* no host work */
    assert_false(dh_host_settled(noisy, 8));
}

/* Host work is timed only as long as its spread needs, later repetitions
 * reuse it (still verified); --reps auto stops between its floor and cap. */
static void schedule(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    struct dh_err e = {0};
    assert_int_equal(dh_devices_gather(&devs, 0, &e), 0);
    struct dh_selection sel = {.suite = "micro", .size = "small", .reps = 60, .warmup = 1,
                               .timeout_s = 300, .device = -1, .backends = "opencl",
                               .variants = "cpu_tdr", .model = 1};
    sel.params[sel.n_params++] = "paths=2";
    sel.params[sel.n_params++] = "layers=1";
    sel.params[sel.n_params++] = "regroup=sort";
    sel.params[sel.n_params++] = "mech=dlt,rr";
    struct dh_run *runs;
    int n;
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), 0);
    struct dh_runner_opts o = {.isolate = 0};
    assert_int_equal(dh_runner_execute(runs, n, &o), 0);
    assert_int_equal(n, 2);
    for (int i = 0; i < n; i++) {
        struct dh_result *r = &runs[i].r;
        assert_int_equal(r->status, 0);
        assert_int_equal(r->verify.mismatches, 0);
        assert_int_equal(r->n, 60);
        /* how many repetitions timed the host work follows from the
         * samples themselves (no assumption on this machine's noise): the
         * first count at which the rule says settled, or all of them */
        int nh = dh_host_count(r);
        fprintf(stderr, "%s: host timed on %d of %d\n", runs[i].c.id, nh, r->n);
        assert_true(nh >= 5 && nh <= 60);
        for (int k = 0; k < nh; k++)
            assert_true(r->host_ms[k] > 0);
        for (int k = 5; k < nh; k++)
            assert_false(dh_host_settled(r->host_ms, k));
        if (nh < 60)
            assert_true(dh_host_settled(r->host_ms, nh));
    }
    free(runs);
    sel.reps = DH_REPS_AUTO;
    sel.reps_max = 12;
    sel.reps_target = 0.0001;                   /* never reached: the cap stops it */
    sel.variants = "baseline";
    sel.n_params = 2;
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), 0);
    assert_int_equal(dh_runner_execute(runs, n, &o), 0);
    assert_int_equal(runs[0].r.status, 0);
    assert_int_equal(runs[0].r.n, 12);
    free(runs);
    /* met at once, however noisy this machine is (0.5 was missed when
     * other test programs shared the cores): the floor stops it */
    sel.reps_target = 1e6;
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), 0);
    assert_int_equal(dh_runner_execute(runs, n, &o), 0);
    assert_int_equal(runs[0].r.n, DH_REPS_AUTO_MIN);
    free(runs);
}

static void planted_wrong(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    wrap();
    corrupt_download = 1;
    struct dh_run *runs;
    int n;
    const char *p[] = {"paths=2", "layers=1"};
    assert_int_equal(plan_run("opencl", "baseline", 2, p, 0, 300, &runs, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(runs[0].r.status, DH_E_WRONG);
    assert_int_equal(runs[0].r.n, 0);                  /* never a timing */
    assert_int_equal(runs[0].r.verify.mismatches, 1);
    assert_int_equal(runs[0].r.verify.first[0].index, 77);
    free(runs);
}

/* gpu_tdr's remap overhead end to end on PoCL: micro paths=2 at size
 * small, the gpu_tdr kernel and the baseline kernel on the input already in
 * path order (cpu_tdr's key regrouping, by dlt: micro moves data), both
 * verified; a positive figure, recorded in the XML and read back (the
 * worker processes of `harness run`: test_cli's remap_overhead_cli). Other variants and --remap-overhead no get none. */
static void remap_overhead(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    wrap();
    struct dh_run *runs;
    int n;
    const char *p[] = {"paths=2", "layers=1", "alg=hot"};
    plan_remap = 1;
    int rc = plan_run("opencl", "baseline,gpu_tdr", 3, p, 0, 300, &runs, &n);
    plan_remap = 0;
    assert_int_equal(rc, 0);
    assert_int_equal(n, 2);
    const struct dh_run *g = !strcmp(runs[0].c.variant, "gpu_tdr") ? &runs[0] : &runs[1];
    const struct dh_run *b = g == &runs[0] ? &runs[1] : &runs[0];
    if (g->r.status)
        fprintf(stderr, "%s: %s\n", g->c.id, g->r.message);
    assert_int_equal(g->r.status, 0);
    const struct dh_remap_overhead *o = &g->r.remap;
    assert_int_equal(o->state, DH_REMAP_MEASURED);
    assert_string_equal(o->mech, "dlt");
    assert_int_equal(o->n_tdr, 3);                  /* the case's repetitions */
    assert_int_equal(o->n_base, 3);
    assert_true(o->ratio > 0 && isfinite(o->ratio));
    assert_true(fabs(o->ratio - o->tdr_ms / o->base_ms) <= 1e-9 * o->ratio);
    assert_true(g->r.remap_ms > 0);
    /* the gpu_tdr kernel and cpu_tdr's (the baseline's on moved data) ran */
    assert_non_null(strstr(kernels_seen, "mb_gpu_tdr"));
    assert_non_null(strstr(kernels_seen, "mb_baseline"));
    assert_int_equal(b->r.remap.state, DH_REMAP_NONE);
    assert_true(b->r.remap_ms == 0);                /* no step, no time */
    /* in the results file and back */
    char path[] = "/tmp/dh-test-remap-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    struct dh_env env;
    dh_env_fill(&env, 0, NULL);
    struct dh_err e = {0};
    dh_run_derive(runs, n);
    assert_int_equal(dh_xml_write(path, &env, &devs, runs, n, &e), 0);
    assert_int_equal(dh_xml_validate(path, &e), 0);
    struct dh_resultfile f;
    assert_int_equal(dh_results_load(path, &f, &e), 0);
    int seen = 0;
    for (int i = 0; i < f.n_runs; i++)
        if (!strcmp(f.runs[i].c.variant, "gpu_tdr")) {
            seen = 1;
            assert_int_equal(f.runs[i].r.remap.state, DH_REMAP_MEASURED);
            assert_true(f.runs[i].r.remap.ratio > 0);
        }
    assert_true(seen);
    dh_resultfile_free(&f);
    unlink(path);
    for (int i = 0; i < n; i++)
        dh_run_release(&runs[i]);
    free(runs);
    /* two forms of one workload at the same tunables share one "baseline
     * on sorted" measurement (cpu_tdr's kernel does not depend on the
     * form): the same samples, so the same median */
    wrap();
    const char *p2[] = {"paths=2", "layers=1", "alg=hot,dgi"};
    plan_remap = 1;
    rc = plan_run("opencl", "gpu_tdr", 3, p2, 0, 300, &runs, &n);
    plan_remap = 0;
    assert_int_equal(rc, 0);
    assert_int_equal(n, 2);
    assert_int_equal(runs[0].r.remap.state, DH_REMAP_MEASURED);
    assert_int_equal(runs[1].r.remap.state, DH_REMAP_MEASURED);
    assert_true(runs[0].r.remap.base_ms == runs[1].r.remap.base_ms);
    assert_true(runs[0].r.remap.base_lo == runs[1].r.remap.base_lo);
    for (int i = 0; i < n; i++)
        dh_run_release(&runs[i]);
    free(runs);
    /* not asked */
    wrap();
    assert_int_equal(plan_run("opencl", "gpu_tdr", 3, p, 0, 300, &runs, &n), 0);
    assert_int_equal(runs[0].r.status, 0);
    assert_int_equal(runs[0].r.remap.state, DH_REMAP_NONE);
    assert_null(strstr(kernels_seen, "mb_baseline"));
    dh_run_release(&runs[0]);
    free(runs);
}

/* Variants of one workload share its host data in the worker: each must
 * still run as itself (mech=rr through the index array after a baseline
 * and a dlt run of the same input; wg as tuned, not as the first case). */
static void shared_state(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    wrap();
    struct dh_run *runs;
    int n;
    const char *p[] = {"paths=2", "layers=1", "regroup=key"};
    assert_int_equal(plan_run("opencl", "baseline,cpu_tdr", 3, p, 0, 300, &runs, &n), 0);
    assert_int_equal(n, 3);
    for (int i = 0; i < n; i++)
        assert_int_equal(runs[i].r.status, 0);
    assert_non_null(strstr(kernels_seen, "mb_rr"));
    assert_true(runs[2].r.xfer_ms[0] > 0);      /* rr uploads its index array */
    free(runs);
    wrap();
    const char *q[] = {"paths=2", "layers=1", "wg=64"};
    assert_int_equal(plan_run("opencl", "baseline", 3, q, 0, 300, &runs, &n), 0);
    assert_int_equal(runs[0].r.status, 0);
    free(runs);
}

static void faults(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    const char *p[] = {"paths=2", "layers=1"};
    struct { int *knob; int at; int status; } cases[] = {
        {&fail_build_at, 1, DH_E_BUILD},
        {&fail_alloc_at, 2, DH_E_RESOURCES},
        {&fail_launch_at, 3, DH_E_LAUNCH},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        wrap();
        *cases[k].knob = cases[k].at;
        struct dh_run *runs;
        int n;
        assert_int_equal(plan_run("opencl", "baseline,melded", 2, p, 0, 300, &runs, &n), 0);
        assert_int_equal(n, 2);
        assert_int_equal(runs[0].r.status, cases[k].status);   /* recorded ... */
        assert_true(strstr(runs[0].r.message, "planted") != NULL);
        assert_int_equal(runs[1].r.status, 0);                 /* ... and the run goes on */
        if (cases[k].status == DH_E_BUILD)
            assert_non_null(strstr(runs[0].r.build_log, "planted"));
        free(runs);
    }
}

static void usage_errors(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    struct dh_run *runs;
    int n;
    struct dh_err e = {0};
    struct dh_selection sel = {.suite = "micro", .size = "small", .reps = 3, .warmup = 1,
                               .timeout_s = 10, .device = -1, .backends = "opencl"};
    assert_int_equal(dh_devices_gather(&devs, 0, &e), 0);
    sel.params[sel.n_params++] = "paths=4";
    sel.params[sel.n_params++] = "alg=hot";
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), -DH_E_USAGE);
    assert_non_null(strstr(e.msg, "alg=hot"));
    sel.n_params = 0;
    sel.params[sel.n_params++] = "nf=24";
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), -DH_E_USAGE);
    assert_non_null(strstr(e.msg, "nf=24"));
    sel.n_params = 0;
    sel.params[sel.n_params++] = "bogus=1";
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), -DH_E_USAGE);
    assert_non_null(strstr(e.msg, "valid are"));
    sel.n_params = 0;
    sel.backends = "nosuch";
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), -DH_E_USAGE);
    assert_non_null(strstr(e.msg, "opencl"));
    /* a backend named twice, or over and over (was a stack overflow) */
    sel.backends = "opencl,opencl";
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), -DH_E_USAGE);
    assert_non_null(strstr(e.msg, "twice"));
    static char many[64 * 8];
    many[0] = 0;
    for (int k = 0; k < 60; k++)
        strcat(many, k ? ",opencl" : "opencl");
    sel.backends = many;
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), -DH_E_USAGE);
    sel.backends = "opencl";
    sel.size = "huge";
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), -DH_E_USAGE);
    sel.size = "small";
    sel.variants = "fancy";
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), -DH_E_USAGE);
    assert_non_null(strstr(e.msg, "baseline"));
    /* a BBV regrouping without the profiling run: refused before anything
     * runs (it was a per-case failure, exit 3, after the folder was made) */
    sel.variants = "cpu_tdr";
    sel.model = 0;
    sel.params[sel.n_params++] = "regroup=key,sort";
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), -DH_E_USAGE);
    assert_non_null(strstr(e.msg, "--no-model"));
    sel.n_params = 0;
    /* a value no selected variant reads (was dropped silently) */
    sel.variants = "baseline";
    sel.params[sel.n_params++] = "alg=hot";
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), -DH_E_USAGE);
    assert_non_null(strstr(e.msg, "no selected variant uses alg"));
    sel.n_params = 0;
    /* a value one benchmark of the suite takes and another does not: the
     * error names both and the fix (was: the first one's domain alone,
     * "64 is not one of: 16,32", for lud's bs=64 beside srad's bs) */
    sel.suite = "rodinia";
    sel.variants = "baseline";
    sel.params[sel.n_params++] = "bs=64";
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), -DH_E_USAGE);
    assert_non_null(strstr(e.msg, "rodinia/srad: 64 is not one of: 16,32; lud takes it: "
                                  "choose with --bench lud"));
    sel.params[0] = "bs=128";
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), -DH_E_USAGE);
    assert_non_null(strstr(e.msg, "outside bs's domain in every selected benchmark (srad "
                                  "16,32; lud 16,32,64)"));
    sel.params[0] = "bs=64";
    sel.benches = "lud";
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), 0);
    free(runs);
    runs = NULL;
    sel.benches = NULL;
    sel.n_params = 0;
    sel.suite = "micro";
    /* a family a benchmark leaves out: the error says why */
    sel.suite = "parboil";
    sel.benches = "lbm";
    sel.variants = "melded";
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), -DH_E_USAGE);
    assert_non_null(strstr(e.msg, "lbm: melded: "));
}

int main(void)
{
    setenv("DH_CACHE_DIR", "/tmp/dh-test-cache", 0);
    const struct CMUnitTest t[] = {
        cmocka_unit_test(remap_overhead), cmocka_unit_test(conformance), cmocka_unit_test(suites), cmocka_unit_test(host_rule), cmocka_unit_test(schedule),
        cmocka_unit_test(usage_errors),
        cmocka_unit_test(planted_wrong), cmocka_unit_test(shared_state),
        cmocka_unit_test(faults),
    };
    return cmocka_run_group_tests_name("run", t, NULL, NULL);
}
