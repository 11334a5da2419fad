/* study_test.h — what test_study.c and test_study_cmd.c share: a
 * scratch folder (setup; remove_tmpdir keeps it where DH_TEST_KEEP is
 * set), the harness binary and ci/ beside the tests, and the hand-made
 * results of two targets that `harness study` is tested on. */
#ifndef DH_STUDY_TEST_H
#define DH_STUDY_TEST_H

#include <limits.h>
#include <math.h>

#include "testutil.h"
#include "../harness/stats/derive.h"
#include "../results/xml.h"
#include "../suites/suite.h"

static char tmpdir[64], harness[PATH_MAX], ci[PATH_MAX];

static inline const char *tpath(const char *name)
{
    static char buf[8][300];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static inline char *slurp(const char *path)
{
    static char buf[1 << 20];
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* A run of micro/branch paths=P on backend/device; ms < 0: status st with msg. */
static void make_run(struct dh_run *u, const char *backend, const char *device, int warp,
                     const char *variant, const char *alg, int paths, double ms, int st,
                     const char *msg)
{
    memset(u, 0, sizeof *u);
    struct dh_case *c = &u->c;
    c->bench = dh_bench_find("micro", "branch");
    snprintf(c->suite, sizeof c->suite, "micro");
    snprintf(c->bench_name, sizeof c->bench_name, "branch");
    snprintf(c->variant, sizeof c->variant, "%s", variant);
    snprintf(c->backend, sizeof c->backend, "%s", backend);
    snprintf(c->device_name, sizeof c->device_name, "%s", device);
    snprintf(c->size, sizeof c->size, "small");
    c->reps = 12;
    char p[16];
    snprintf(p, sizeof p, "%d", paths);
    dh_pset_put(&c->params, "paths", p, paths, DH_P_WORKLOAD);
    dh_pset_put(&c->params, "iters", "64", 64, DH_P_WORKLOAD);
    dh_pset_put(&c->params, "wg", "256", 256, DH_P_TUNABLE);
    if (alg)
        dh_pset_put(&c->params, "alg", alg, 0, DH_P_CHOICE);
    dh_case_identity(c);
    u->r.warp_width = warp;
    /* the ceiling depends on the warp width: 64-wide warps hold more mixed paths */
    u->r.ceiling = warp == 64 ? 1.45 + 0.1 * paths : 1.78 + 0.1 * paths;
    if (st) {
        u->r.status = st;
        snprintf(u->r.message, sizeof u->r.message, "%s", msg);
        return;
    }
    u->r.verified = 1;
    u->r.n = 12;
    assert_int_equal(dh_result_samples(&u->r, 12), 0);
    for (int i = 0; i < 12; i++)
        u->r.kernel_ms[i] = ms * (1 + 0.002 * (i % 5));
    if (!strcmp(variant, "cpu_tdr"))      /* host regrouping: end to end is slower */
        for (int i = 0; i < 12; i++)
            u->r.host_ms[i] = ms * 0.25;
    if (!strcmp(variant, "baseline")) {
        u->r.has_counters = 1;
        u->r.ctr.warp_inst_executed = 1000;
        u->r.ctr.warp_width = warp;
        u->r.ctr.cfe = warp == 64 ? 0.40 : 0.50;
        u->r.ctr.thread_inst_pred_on = u->r.ctr.cfe * warp * 1000;
    }
}

#define GA "GPU A (32)"
#define GB "GPU B (64)"

/* Two targets, two workloads (paths 2 and 4):
 *   cuda GPU A, warp 32: everything runs, but melded fails to build on paths=4
 *   opencl GPU B, warp 64: gpu_tdr's hot_warp is unsupported, dgi runs;
 *     melded is not in the results at all; cpu_tdr is wrong on paths=4
 * and a third workload (paths=8) on GPU A whose baseline timed out. */
static int sample_runs(struct dh_run *runs)
{
    int n = 0;
    for (int p = 2; p <= 4; p += 2) {
        double base = p;                          /* baseline ms */
        make_run(&runs[n++], "cuda", GA, 32, "baseline", NULL, p, base, 0, "");
        make_run(&runs[n++], "cuda", GA, 32, "cpu_tdr", NULL, p, base / 2.0, 0, "");
        make_run(&runs[n++], "cuda", GA, 32, "gpu_tdr", "dgi", p, base / 1.5, 0, "");
        make_run(&runs[n++], "cuda", GA, 32, "gpu_tdr", "hot", p, base / 1.2, 0, "");
        if (p == 2)
            make_run(&runs[n++], "cuda", GA, 32, "melded", NULL, p, base / 1.1, 0, "");
        else
            make_run(&runs[n++], "cuda", GA, 32, "melded", NULL, p, -1, DH_E_BUILD,
                     "NVRTC: melded.k(12): error: identifier undefined");
        make_run(&runs[n++], "opencl", GB, 64, "baseline", NULL, p, base * 2, 0, "");
        if (p == 2)
            make_run(&runs[n++], "opencl", GB, 64, "cpu_tdr", NULL, p, base * 2 / 1.25, 0, "");
        else
            make_run(&runs[n++], "opencl", GB, 64, "cpu_tdr", NULL, p, -1, DH_E_WRONG,
                     "out[17] = 3.5, reference 4.0");
        make_run(&runs[n++], "opencl", GB, 64, "gpu_tdr", "dgi", p, base * 2 / 0.8, 0, "");
        make_run(&runs[n++], "opencl", GB, 64, "gpu_tdr", "hot_warp", p, -1, DH_E_UNSUPPORTED,
                 "hot_warp needs warp votes (CUDA, HIP)");
    }
    make_run(&runs[n++], "cuda", GA, 32, "baseline", NULL, 8, -1, DH_E_TIMEOUT,
             "watchdog: 300 s");
    make_run(&runs[n++], "cuda", GA, 32, "gpu_tdr", "dgi", 8, 3.0, 0, "");
    dh_run_derive(runs, n);
    return n;
}

static void write_sample(const char *path)
{
    static struct dh_run runs[64];
    int n = sample_runs(runs);
    struct dh_env env;
    char *argv[] = {"harness", "run", "--suite", "micro"};
    dh_env_fill(&env, 4, argv);
    static struct dh_devlist devs;
    memset(&devs, 0, sizeof devs);
    devs.n = 2;
    for (int b = 0; b < 2; b++) {
        snprintf(devs.d[b].backend, sizeof devs.d[b].backend, "%s", b ? "opencl" : "cuda");
        snprintf(devs.d[b].info.name, sizeof devs.d[b].info.name, "%s", b ? GB : GA);
        snprintf(devs.d[b].info.driver, sizeof devs.d[b].info.driver, "1.0");
        devs.d[b].info.warp_width = b ? 64 : 32;
    }
    struct dh_err e = {0};
    assert_int_equal(dh_xml_write(path, &env, &devs, runs, n, &e), 0);
    for (int i = 0; i < n; i++)
        dh_run_release(&runs[i]);
}

static inline int setup(void **st)
{
    (void)st;
    return dh_test_paths(harness, sizeof harness, ci, sizeof ci, tmpdir, sizeof tmpdir,
                         "/tmp/dh-test-study-XXXXXX");
}

static inline int remove_tmpdir(void)
{
    char cmd[128];
    if (getenv("DH_TEST_KEEP")) {               /* to look at the reports */
        fprintf(stderr, "kept %s\n", tmpdir);
        return 0;
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

#endif
