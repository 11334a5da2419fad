/* faultwrap.h — shared by the run tests: plan_run() plans and runs a
 * micro selection; wrap() puts a fault-injecting wrapper around the real
 * OpenCL backend (SQLite's test_syscall idea): fail the Nth build, alloc or
 * launch, corrupt a download, hang or crash in a kernel's launch, and note
 * which kernels were launched. Include once per test program. */
#ifndef DH_FAULTWRAP_H
#define DH_FAULTWRAP_H

#include <signal.h>
#include <unistd.h>

#include "testutil.h"
#include "../harness/run/plan.h"

static struct dh_devlist devs;
/* 1: plan with the BBV model (profiling runs add builds and launches, so
 * the fault tests, which count them, plan without it) */
static int plan_model;
/* 1: gpu_tdr cases also time the remap overhead (`run`'s default) */
static int plan_remap;

static int plan_run(const char *backends, const char *variants, int n_params,
                    const char **params, int isolate, double timeout, struct dh_run **runs,
                    int *n)
{
    struct dh_selection sel = {.suite = "micro", .size = "small", .reps = 3, .warmup = 1,
                               .timeout_s = timeout, .device = -1, .profile = 0,
                               .backends = backends, .variants = variants,
                               .model = plan_model, .remap_overhead = plan_remap};
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

#endif
