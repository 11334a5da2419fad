/* test_study_cmd.c — `harness study` as a command: the command line
 * (bad options name the fix), the Slurm submissions through a fake
 * sbatch, and an end-to-end study on PoCL (SKIPPED where there is no
 * OpenCL device), resumed, then joined with the hand-made file by --from.
 * The matrix and its outputs are test_study.c's. */
#include <limits.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "study_test.h"
#include "../harness/cli/cli.h"
#include "../harness/report/report.h"
#include "../harness/stats/derive.h"
#include "../harness/stats/load.h"
#include "../harness/stats/study.h"
#include "../results/xml.h"
#include "../suites/suite.h"

static char out[1 << 16];

/* the tests of the command need the binary beside the tests (a
 * sanitizer build of the unit tests alone has none: SKIPPED there) */
#define need_binary()                                                         \
    do {                                                                      \
        if (access(harness, X_OK)) {                                          \
            fprintf(stderr, "  (no %s: build it with make)\n", harness);      \
            skip();                                                           \
            return;                                                           \
        }                                                                     \
    } while (0)

static int run_prog(const char *const *args)
{
    return dh_test_harness(harness, tmpdir, args, out, sizeof out);
}

static void cli(void **st)
{
    (void)st;
    need_binary();
    const char *none[] = {"study", NULL};
    assert_int_equal(run_prog(none), DH_EXIT_USAGE);
    assert_non_null(strstr(out, "--suite is required"));
    assert_non_null(strstr(out, "--from RESULTS.xml"));
    const char *bad_suite[] = {"study", "--suite", "micro,nosuch", NULL};
    assert_int_equal(run_prog(bad_suite), DH_EXIT_USAGE);
    assert_non_null(strstr(out, "unknown suite 'nosuch'"));
    assert_non_null(strstr(out, "micro"));
    const char *from_empty[] = {"study", "--from", NULL};
    assert_int_equal(run_prog(from_empty), DH_EXIT_USAGE);
    assert_non_null(strstr(out, "--from needs results files"));
    const char *from_mixed[] = {"study", "--from", "x.xml", "--suite", "micro", NULL};
    assert_int_equal(run_prog(from_mixed), DH_EXIT_USAGE);
    assert_non_null(strstr(out, "leave out the run options (--suite)"));
    const char *from_missing[] = {"study", "--from", "/nonexistent/r.xml", NULL};
    assert_int_equal(run_prog(from_missing), DH_EXIT_INFRA);
    assert_non_null(strstr(out, "/nonexistent/r.xml"));
    const char *no_slurm[] = {"study", "--suite", "micro", "--partition", "gpu", NULL};
    assert_int_equal(run_prog(no_slurm), DH_EXIT_USAGE);
    assert_non_null(strstr(out, "add --slurm"));
    const char *shard[] = {"study", "--suite", "micro", "--shard", "1/2", NULL};
    assert_int_equal(run_prog(shard), DH_EXIT_USAGE);
    assert_non_null(strstr(out, "the study decides the shards"));
    const char *bad_dev[] = {"study", "--suite", "micro", "--slurm", "--backend", "hip",
                             "--device", "x", NULL};
    assert_int_equal(run_prog(bad_dev), DH_EXIT_USAGE);
    assert_non_null(strstr(out, "--device"));
    const char *bad_be[] = {"study", "--suite", "micro", "--backend", "vulkan", NULL};
    assert_int_equal(run_prog(bad_be), DH_EXIT_USAGE);
    assert_non_null(strstr(out, "unknown backend 'vulkan'"));
    const char *twice[] = {"study", "--suite", "micro", "--slurm", "--backend", "hip,hip", NULL};
    assert_int_equal(run_prog(twice), DH_EXIT_USAGE);
    assert_non_null(strstr(out, "--backend names hip twice"));
    const char *slurm_all[] = {"study", "--suite", "micro", "--slurm", "--backend", "all", NULL};
    assert_int_equal(run_prog(slurm_all), DH_EXIT_USAGE);
    assert_non_null(strstr(out, "name the backends"));
    const char *no_base[] = {"study", "--suite", "micro", "--variant", "gpu_tdr,melded", NULL};
    assert_int_equal(run_prog(no_base), DH_EXIT_USAGE);
    assert_non_null(strstr(out, "add it (--variant baseline,gpu_tdr,melded)"));
    const char *bad_run_opt[] = {"study", "--suite", "micro", "--reps", "0", "--out",
                                 tpath("badreps"), NULL};
    if (dh_test_has_device("opencl")) {                 /* run checks it, on a device */
        assert_int_equal(run_prog(bad_run_opt), DH_EXIT_USAGE);
        assert_non_null(strstr(out, "harness run: --reps 0"));
    }
    const char *help[] = {"study", "--help", NULL};
    assert_int_equal(run_prog(help), 0);
    assert_non_null(strstr(out, "usage: harness study"));
    const char *top[] = {"help", NULL};
    assert_int_equal(run_prog(top), 0);
    assert_non_null(strstr(out, "  study "));
}

/* --slurm: one `harness slurm` submission per suite, backend and device,
 * each with its partition; a fake sbatch records its arguments */
static void slurm_submissions(void **st)
{
    (void)st;
    need_binary();
    char bin[300], sb[400], log[400];
    snprintf(bin, sizeof bin, "%s", tpath("fakebin"));
    mkdir(bin, 0755);
    snprintf(sb, sizeof sb, "%s/sbatch", bin);
    snprintf(log, sizeof log, "%s", tpath("sbatch.log"));
    FILE *f = fopen(sb, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\necho \"$@\" >> '%s'\necho 4242\n", log);
    fclose(f);
    chmod(sb, 0755);
    char path[1200], old[1200];
    snprintf(old, sizeof old, "%s", getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    snprintf(path, sizeof path, "%s:%s", bin, old);
    setenv("PATH", path, 1);
    /* backends every build has (cuda is left out where its SDK is) */
    const char *args[] = {"study", "--suite", "micro", "--backend", "opencl,hip", "--device", "0",
                          "--slurm", "--partition", "opencl=cpu", "--partition", "hip=mi250",
                          "--time", "1:00:00", "--out", tpath("sl"), "--size", "small", NULL};
    int rc = run_prog(args);
    setenv("PATH", old, 1);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "2 submissions"));
    assert_non_null(strstr(out, "harness study --out"));
    assert_non_null(strstr(out, "slurm-micro-opencl-d0/merged.xml"));
    char *text = slurp(log);
    assert_non_null(text);
    assert_non_null(strstr(text, "--partition=cpu"));
    assert_non_null(strstr(text, "--partition=mi250"));
    assert_non_null(strstr(text, "--time=1:00:00"));
    /* the run's options, stored for the shard: the backend and device of the target */
    char *args_file = slurp(tpath("sl/slurm-micro-hip-d0/slurm/run.args"));
    assert_non_null(args_file);
    size_t len = 0;
    char joined[2048] = "";
    for (const char *p = args_file; *p && len < sizeof joined - 64; p += strlen(p) + 1)
        len += (size_t)snprintf(joined + len, sizeof joined - len, "%s ", p);
    assert_non_null(strstr(joined, "--suite micro --backend hip --device 0 --size small"));
}

/* On a real one-node Slurm (ci/slurm-up.sh; SKIPPED with its reason where
 * it cannot start): a study submitted, followed (--wait) and reported. */
static int slurm_started;

static void study_on_slurm(void **st)
{
    (void)st;
    need_binary();
    dh_test_need_device("opencl");
    char up[PATH_MAX + 16];
    snprintf(up, sizeof up, "%s/slurm-up.sh", ci);
    const char *a_up[] = {"bash", up, NULL};
    char log[128];
    snprintf(log, sizeof log, "%s/.log", tmpdir);
    char pid[300];
    snprintf(pid, sizeof pid, "%s/slurmctld.pid",
             getenv("DH_SLURM_DIR") ? getenv("DH_SLURM_DIR") : "/tmp/divharness-slurm");
    int was_up = !access(pid, R_OK);
    int rc = dh_test_exec(NULL, a_up, log, out, sizeof out);
    if (rc == 77) {
        fprintf(stderr, "  (%s)\n", strtok(out, "\n"));
        skip();
        return;
    }
    assert_int_equal(rc, 0);
    slurm_started = !was_up;
    char *conf = strstr(out, "export SLURM_CONF=");
    assert_non_null(conf);
    conf += strlen("export SLURM_CONF=");
    conf[strcspn(conf, "\n")] = 0;
    setenv("SLURM_CONF", conf, 1);
    const char *args[] = {"study", "--suite", "micro", "--bench", "branch", "--size", "small",
                          "--param", "paths=2", "--param", "layers=1", "--param", "iters=64",
                          "--tune", "none", "--slurm", "--wait", "--poll", "1", "--out",
                          tpath("slr"), NULL};
    rc = run_prog(args);
    if (rc)
        fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "merge verdict 0"));
    assert_non_null(strstr(out, "study: 1 workload on 1 target"));
    assert_int_equal(access(tpath("slr/slurm-micro-opencl-d0/merged.xml"), R_OK), 0);
    char *csv = slurp(tpath("slr/report/study.csv"));
    assert_non_null(csv);
    assert_non_null(strstr(csv, "\"melded\",\"ok\",\"melded\""));
}

/* End to end on PoCL: a cheap study, resumed, then joined with the
 * hand-made two-target file: three targets in one matrix. */
static void end_to_end(void **st)
{
    (void)st;
    need_binary();
    dh_test_need_device("opencl");
    const char *args[] = {"study", "--suite", "micro", "--bench", "branch", "--size", "small",
                          "--param", "paths=2", "--param", "layers=1", "--param", "iters=64",
                          "--tune", "none", "--out", tpath("e2e"), NULL};
    int rc = run_prog(args);
    if (rc)
        fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "study: 1 workload on 1 target"));
    assert_int_equal(access(tpath("e2e/runs/micro-d0/results.xml"), R_OK), 0);
    assert_int_equal(access(tpath("e2e/study.xml"), R_OK), 0);
    char *csv = slurp(tpath("e2e/report/study.csv"));
    assert_non_null(csv);
    assert_non_null(strstr(csv, "\"opencl\""));
    assert_non_null(strstr(csv, "\"gpu_tdr\",\"ok\",\"gpu_tdr[alg="));
    assert_non_null(strstr(csv, "\"melded\",\"ok\",\"melded\""));
    /* again: resumed, nothing measured twice */
    rc = run_prog(args);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "resuming"));
    /* joined with the hand-made targets */
    write_sample(tpath("hand.xml"));
    const char *join[] = {"study", "--from", tpath("e2e/study.xml"), tpath("hand.xml"), "--out",
                          tpath("joined"), NULL};
    rc = run_prog(join);
    assert_true(rc == 0 || rc == DH_EXIT_INFRA);
    assert_non_null(strstr(out, "on 3 targets"));
    char *md = slurp(tpath("joined/report/index.md"));
    assert_non_null(md);
    assert_non_null(strstr(md, GB));
    assert_non_null(strstr(md, "opencl: pthread") ? md : strstr(md, "opencl: "));
}

static int teardown(void **st)
{
    (void)st;
    if (slurm_started) {
        char down[PATH_MAX + 16], log[128];
        snprintf(down, sizeof down, "%s/slurm-down.sh", ci);
        snprintf(log, sizeof log, "%s/.log", tmpdir);
        const char *a[] = {"bash", down, NULL};
        if (dh_test_exec(NULL, a, log, out, sizeof out))
            fprintf(stderr, "slurm-down.sh: %s\n", out);
    }
    return remove_tmpdir();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cli),
        cmocka_unit_test(study_on_slurm),
        cmocka_unit_test(slurm_submissions),
        cmocka_unit_test(end_to_end),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
