/* test_isolation.c — hang and crash isolation of worker processes (a
 * separate program: the parent must not have touched a runtime before it
 * forks, as in `harness run`). Also included from test_run.c's wrapper:
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

static int f_launch(struct dh_program *p, const struct dh_launch *l, double *ms, struct dh_err *e)
{
    ++n_launch;
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
}

static void hang_and_crash(void **st)
{
    (void)st;
    struct dh_err e = {0};
    assert_int_equal(dh_devices_gather(&devs, 1, &e), 0);   /* in a child */
    if (!dh_devlist_find(&devs, "opencl", 0)) {
        skip();
        return;
    }
    const char *p[] = {"paths=2", "layers=1"};
    struct dh_run *runs;
    int n;
    wrap();
    hang_launch = 1;                 /* the baseline's kernel hangs */
    assert_int_equal(plan_run("opencl", "baseline,melded", 2, p, 1, 3, &runs, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(runs[0].r.status, DH_E_TIMEOUT);
    assert_non_null(strstr(runs[0].r.message, "--timeout"));
    assert_int_equal(runs[1].r.status, 0);   /* a fresh worker runs the next case */
    free(runs);
    wrap();
    crash_launch = 1;
    assert_int_equal(plan_run("opencl", "baseline,melded", 2, p, 1, 60, &runs, &n), 0);
    assert_int_equal(runs[0].r.status, DH_E_CRASH);
    assert_int_equal(runs[1].r.status, 0);
    free(runs);
}

int main(void)
{
    setenv("DH_CACHE_DIR", "/tmp/dh-test-cache", 0);
    const struct CMUnitTest t[] = {cmocka_unit_test(hang_and_crash)};
    return cmocka_run_group_tests_name("isolation", t, NULL, NULL);
}
