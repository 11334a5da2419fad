/* test_run.c — end-to-end through plan + runner on real devices:
 *   conformance: every benchmark x variant on every available backend
 *                matches the CPU reference;
 *   planted wrong result: verification catches a corrupted download;
 *   faults: a wrapper backend fails the Nth build / alloc / launch
 *           (SQLite's test_syscall idea); hang and crash isolation.
 * Needs a device (PoCL here): SKIPPED where there is none. */
#include <signal.h>
#include <unistd.h>

#include "testutil.h"
#include "../harness/plan.h"

static struct dh_devlist devs;

int plan_run(const char *backends, const char *variants, int n_params,
             const char **params, int isolate, double timeout, struct dh_run **runs, int *n);
int plan_run(const char *backends, const char *variants, int n_params,
             const char **params, int isolate, double timeout, struct dh_run **runs, int *n)
{
    struct dh_selection sel = {.suite = "micro", .size = "small", .reps = 3, .warmup = 1,
                               .timeout_s = timeout, .device = -1, .profile = 0,
                               .backends = backends, .variants = variants};
    for (int i = 0; i < n_params; i++)
        sel.params[sel.n_params++] = params[i];
    struct dh_err e = {0};
    int rc = dh_devices_gather(&devs, isolate, &e);
    assert_int_equal(rc, 0);
    rc = dh_plan(&sel, &devs, runs, n, &e);
    if (rc) {
        fprintf(stderr, "plan: %s\n", e.msg);
        return rc;
    }
    struct dh_runner_opts o = {.isolate = isolate};
    return dh_runner_execute(*runs, *n, &o);
}

static void conformance(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    struct dh_run *runs;
    int n;
    assert_int_equal(plan_run("all", "all", 0, NULL, 0, 300, &runs, &n), 0);
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

/* ---- a wrapper around the real OpenCL backend ---- */
static struct dh_backend_ops real, fake;
static int fail_build_at, fail_alloc_at, fail_launch_at, corrupt_download, hang_launch,
    crash_launch;
static int n_build, n_alloc, n_launch;

static int f_build(struct dh_device *d, const char *s, const char *o, struct dh_program **p,
                   char **log, int *cached, struct dh_err *e)
{
    if (++n_build == fail_build_at) {
        if (log)
            *log = strdup("planted: error: no such thing");
        return dh_err_set(e, DH_E_BUILD, "planted build failure");
    }
    return real.build(d, s, o, p, log, cached, e);
}

static int f_alloc(struct dh_device *d, size_t b, struct dh_buffer **out, struct dh_err *e)
{
    if (++n_alloc == fail_alloc_at)
        return dh_err_set(e, DH_E_RESOURCES, "planted allocation failure");
    return real.alloc(d, b, out, e);
}

static char kernels_seen[1024];

static int f_launch(struct dh_program *p, const struct dh_launch *l, double *ms, struct dh_err *e)
{
    ++n_launch;
    if (strlen(kernels_seen) + strlen(l->kernel) + 2 < sizeof kernels_seen
        && !strstr(kernels_seen, l->kernel)) {
        strcat(kernels_seen, l->kernel);
        strcat(kernels_seen, " ");
    }
    /* by kernel: a fresh worker process starts its counters again */
    if (hang_launch && !strcmp(l->kernel, "mb_baseline"))
        sleep(60);
    if (crash_launch && !strcmp(l->kernel, "mb_baseline"))
        raise(SIGSEGV);
    if (n_launch == fail_launch_at)
        return dh_err_set(e, DH_E_LAUNCH, "planted launch failure");
    return real.launch(p, l, ms, e);
}

static int f_copy(struct dh_buffer *b, void *host, size_t bytes, enum dh_copy_dir dir,
                  struct dh_err *e)
{
    int rc = real.copy(b, host, bytes, dir, e);
    if (!rc && dir == DH_TO_HOST && corrupt_download && bytes >= 4 * 100)
        ((float *)host)[77] += 1.0f;           /* one element, slightly off */
    return rc;
}

static void wrap(void)
{
    if (!real.name) {
        real = *dh_backend_find("opencl");
        fake = real;
        fake.build = f_build;
        fake.alloc = f_alloc;
        fake.launch = f_launch;
        fake.copy = f_copy;
        assert_int_equal(dh_backend_register(&fake), 0);   /* replaces "opencl" */
    }
    fail_build_at = fail_alloc_at = fail_launch_at = corrupt_download = 0;
    hang_launch = crash_launch = 0;
    n_build = n_alloc = n_launch = 0;
    kernels_seen[0] = 0;
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
    const char *p[] = {"paths=2", "layers=1"};
    assert_int_equal(plan_run("opencl", "baseline,cpu_tdr", 2, p, 0, 300, &runs, &n), 0);
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
    sel.backends = "opencl";
    sel.size = "huge";
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), -DH_E_USAGE);
    sel.size = "small";
    sel.variants = "fancy";
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), -DH_E_USAGE);
    assert_non_null(strstr(e.msg, "baseline"));
}

int main(void)
{
    setenv("DH_CACHE_DIR", "/tmp/dh-test-cache", 0);
    const struct CMUnitTest t[] = {
        cmocka_unit_test(conformance), cmocka_unit_test(usage_errors),
        cmocka_unit_test(planted_wrong), cmocka_unit_test(shared_state),
        cmocka_unit_test(faults),
    };
    return cmocka_run_group_tests_name("run", t, NULL, NULL);
}
