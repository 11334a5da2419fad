/* compare_test.h — what test_compare.c and test_compare_host.c share:
 * synthetic runs (seeded jitter, a micro/branch case, a cpu_tdr case with
 * its host samples), results files written through the XML writer, a
 * command run with stdout silenced, and the scratch folder. */
#ifndef DH_COMPARE_TEST_H
#define DH_COMPARE_TEST_H

#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "../harness/stats/derive.h"
#include "../suites/suite.h"
#include "../harness/stats/compare.h"

/* ---- synthetic runs ---- */

static uint64_t lcg = 1;
static inline double jitter(void)     /* in [-1, 1] */
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return ((lcg >> 11) * (1.0 / 9007199254740992.0)) * 2 - 1;
}

static inline void make_run(struct dh_run *u, const char *variant, const char *alg, int paths,
                     double ms, double noise, int n)
{
    memset(u, 0, sizeof *u);
    struct dh_case *c = &u->c;
    c->bench = dh_bench_find("micro", "branch");
    snprintf(c->suite, sizeof c->suite, "micro");
    snprintf(c->bench_name, sizeof c->bench_name, "branch");
    snprintf(c->variant, sizeof c->variant, "%s", variant);
    snprintf(c->backend, sizeof c->backend, "opencl");
    snprintf(c->device_name, sizeof c->device_name, "Test Device");
    snprintf(c->size, sizeof c->size, "small");
    c->reps = n;
    c->warmup = 2;
    char p[8];
    snprintf(p, sizeof p, "%d", paths);
    dh_pset_put(&c->params, "paths", p, paths, DH_P_WORKLOAD);
    dh_pset_put(&c->params, "layers", "1", 1, DH_P_WORKLOAD);
    dh_pset_put(&c->params, "wg", "256", 256, DH_P_TUNABLE);
    if (alg)
        dh_pset_put(&c->params, "alg", alg, 0, DH_P_CHOICE);
    dh_case_identity(c);
    u->r.verified = 1;
    u->r.verify.checked = 1000;
    u->r.n = n;
    assert_int_equal(dh_result_samples(&u->r, n), 0);
    for (int i = 0; i < n; i++) {
        u->r.kernel_ms[i] = ms * (1 + noise * jitter());
        if (!strcmp(variant, "cpu_tdr"))
            u->r.host_ms[i] = 0.5 * ms * (1 + noise * jitter());
    }
}

static inline void scale(struct dh_run *u, double f, int host_only)
{
    for (int i = 0; i < u->r.n; i++) {
        if (!host_only)
            u->r.kernel_ms[i] *= f;
        u->r.host_ms[i] *= f;
    }
}

static inline void as_file(struct dh_resultfile *f, struct dh_run *runs, int n)
{
    memset(f, 0, sizeof *f);
    f->version = DH_RESULTS_VERSION;
    f->runs = runs;
    f->n_runs = n;
    dh_run_derive(runs, n);
}

static inline struct dh_cmp_opts opts(void)
{
    struct dh_cmp_opts o;
    dh_cmp_opts_default(&o);
    return o;
}

/* ---- files and the command ---- */

static char tmpdir[64];

static inline const char *tpath(const char *name)
{
    static char buf[8][256];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

/* the host's 1-minute load before the run, as a results file records it
 * (< 0: no conditions recorded, as files written before them) */
static double dh_test_load = -1;

static inline void write_results(const char *path, struct dh_run *runs, int n, const char *dev)
{
    struct dh_env env;
    char *argv[] = {"harness", "run", "--suite", "micro"};
    dh_env_fill(&env, 4, argv);
    if (dh_test_load >= 0) {
        env.cond = (struct dh_conditions){.valid = 1, .cpus = 2, .gpu = "not recorded"};
        for (int i = 0; i < 3; i++)
            env.cond.load_before[i] = env.cond.load_after[i] = dh_test_load;
    }
    static struct dh_devlist devs;
    memset(&devs, 0, sizeof devs);
    devs.n = 1;
    snprintf(devs.d[0].backend, sizeof devs.d[0].backend, "opencl");
    snprintf(devs.d[0].info.name, sizeof devs.d[0].info.name, "%s", dev);
    snprintf(devs.d[0].info.driver, sizeof devs.d[0].info.driver, "1.0");
    devs.d[0].info.warp_width = 32;
    for (int i = 0; i < n; i++) {
        snprintf(runs[i].c.device_name, sizeof runs[i].c.device_name, "%s", dev);
        dh_case_identity(&runs[i].c);
    }
    dh_run_derive(runs, n);
    struct dh_err e = {0};
    assert_int_equal(dh_xml_write(path, &env, &devs, runs, n, &e), 0);
}

/* Run a command with stdout silenced; returns its exit code. */
static inline int quiet(int (*cmd)(int, char **), int argc, char **argv)
{
    fflush(stdout);
    int saved = dup(1), null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    int rc = cmd(argc, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(null);
    return rc;
}
/* The same with stdout kept in out (at most len - 1 bytes). */
static inline int captured(int (*cmd)(int, char **), char *out, size_t len, int argc,
                           char **argv)
{
    fflush(stdout);
    char path[] = "/tmp/dh-capture-XXXXXX";
    int fd = mkstemp(path), saved = dup(1);
    dup2(fd, 1);
    int rc = cmd(argc, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    lseek(fd, 0, SEEK_SET);
    ssize_t k = read(fd, out, len - 1);
    out[k > 0 ? k : 0] = 0;
    close(fd);
    unlink(path);
    return rc;
}
#define capture(fn, out, len, ...)                                \
    ({                                                            \
        char *a_[] = {"cmd", __VA_ARGS__};                        \
        captured(fn, out, len, (int)(sizeof a_ / sizeof *a_), a_); \
    })
#define CMD(fn, ...)                                              \
    ({                                                            \
        char *a_[] = {"cmd", __VA_ARGS__};                        \
        quiet(fn, (int)(sizeof a_ / sizeof *a_), a_);             \
    })

static inline char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* cpu_tdr with host work timed on 5 of 20 repetitions: e2e is judged on
 * 5 real samples a side (dh_e2e_sample pairs repetition i with host sample
 * i mod 5, and the rank test took those 20 as independent), against the
 * host threshold and the host sample floor */
static inline void host_run(struct dh_run *u, const double *host, int nh, double kernel, int n)
{
    make_run(u, "cpu_tdr", NULL, 2, kernel, 0.01, n);
    for (int i = 0; i < n; i++)
        u->r.host_ms[i] = i < nh ? host[i] : 0;
    u->r.n_host = nh < n ? nh : 0;
}

static inline int setup(void **st)
{
    (void)st;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/dh-test-compare-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static inline int teardown(void **st)
{
    (void)st;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

#endif
