/* test_exports.c — `harness export` read by its consumers: a tuned user
 * kernel and a micro run on PoCL exported as JSON, CSV, samples and T4,
 * then tools/check-exports.py validates the JSON against our schema and
 * the T4 files against Kernel Tuner's own T4 schema, and loads the CSVs
 * with pandas (one column per parameter, numbers as numbers, the samples'
 * medians equal to the JSON's). Needs an OpenCL device, Debian's python3
 * with jsonschema and pandas, and kernel_tuner's schema (ci/deps.sh test):
 * SKIPPED, saying which, where one is missing. */
#include "testutil.h"

static char harness[PATH_MAX], ci[PATH_MAX], tmpdir[64], out[1 << 16];

static int run_h(const char *const *args)
{
    return dh_test_harness(harness, tmpdir, args, out, sizeof out);
}

/* export FILE into DIR (json, csv, samples, t4), then the checker: its
 * exit code (77: a tool missing) */
static int export_and_check(const char *file, const char *dir)
{
    char j[256], c[256], s[256], t[256];
    snprintf(j, sizeof j, "%s/results.json", dir);
    snprintf(c, sizeof c, "%s/runs.csv", dir);
    snprintf(s, sizeof s, "%s/samples.csv", dir);
    snprintf(t, sizeof t, "%s/t4", dir);
    assert_int_equal(mkdir(dir, 0755), 0);
    const char *a[] = {"export", file, "--json", j, "--csv", c, "--samples", s, "--t4", t, NULL};
    if (run_h(a))
        fprintf(stderr, "%s\n", out);
    assert_int_equal(run_h(a), 0);
    const char *py = access("/usr/bin/python3", X_OK) ? "python3" : "/usr/bin/python3";
    const char *p[] = {py, "tools/check-exports.py", dir, NULL};
    char log[PATH_MAX];
    snprintf(log, sizeof log, "%s/.check", tmpdir);
    int rc = dh_test_exec(NULL, p, log, out, sizeof out);
    fprintf(stderr, "%s", out);
    return rc;
}

static void tuned_and_run(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    char j[256], d1[256], d2[256], r1[256], r2[256];
    snprintf(j, sizeof j, "%s/journal.tsv", tmpdir);
    setenv("DH_JOURNAL", j, 1);
    snprintf(d1, sizeof d1, "%s/tuned", tmpdir);
    snprintf(r1, sizeof r1, "%s/results.xml", d1);
    const char *t[] = {"tune", "--descriptor", "tuning/examples/branch_sum.xml", "--tune-budget",
                       "3", "--tune-reps", "3", "--reps", "5", "--out", d1, NULL};
    assert_int_equal(run_h(t), 0);
    snprintf(d2, sizeof d2, "%s/run", tmpdir);
    snprintf(r2, sizeof r2, "%s/results.xml", d2);
    const char *r[] = {"run", "--suite", "micro", "--variant", "baseline,gpu_tdr,cpu_tdr",
                       "--param", "paths=2", "--param", "regroup=key", "--reps", "3",
                       "--out", d2, NULL};
    assert_int_equal(run_h(r), 0);
    unsetenv("DH_JOURNAL");
    char x1[256], x2[256];
    snprintf(x1, sizeof x1, "%s/x-tuned", tmpdir);
    snprintf(x2, sizeof x2, "%s/x-run", tmpdir);
    int rc1 = export_and_check(r1, x1);
    int rc2 = export_and_check(r2, x2);
    if (rc1 == 77 || rc2 == 77) {
        fprintf(stderr, "  (a checker's tool is missing: ci/deps.sh test installs them)\n");
        skip();
    }
    assert_int_equal(rc1, 0);
    assert_int_equal(rc2, 0);
}

/* - is stdout: the data alone there, the summary on stderr; two - refused */
static void stdout_dash(void **st)
{
    (void)st;
    dh_test_need_full_tier("harness export");
    const char *a[] = {"export", "results/reference/h100/tuned-frontier/pol-tuned-file.xml",
                       "--csv", "-", NULL};
    char log[PATH_MAX], err[PATH_MAX];
    snprintf(log, sizeof log, "%s/dash.out", tmpdir);
    snprintf(err, sizeof err, "%s/dash.err", tmpdir);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(log, "w", stdout) || !freopen(err, "w", stderr))
            _exit(120);
        execv(harness, (char *const[]){harness, (char *)a[0], (char *)a[1], (char *)a[2],
                                       (char *)a[3], NULL});
        _exit(121);
    }
    int stt = 0;
    waitpid(pid, &stt, 0);
    assert_true(WIFEXITED(stt) && WEXITSTATUS(stt) == 0);
    char *o = dh_test_slurp(log, NULL), *e = dh_test_slurp(err, NULL);
    assert_true(!strncmp(o, "key,id,suite,", 13));          /* the CSV, from its first byte */
    assert_null(strstr(o, "runs\n"));                         /* no summary among the data */
    assert_non_null(strstr(e, "stdout: 8 runs"));
    free(o);
    free(e);
    const char *b[] = {"export", "results/reference/h100/tuned-frontier/pol-tuned-file.xml",
                       "--csv", "-", "--json", "-", NULL};
    assert_int_equal(run_h(b), 64);
    assert_non_null(strstr(out, "only one output may be -"));
    const char *c[] = {"export", "results/reference/h100/tuned-frontier/pol-tuned-file.xml", NULL};
    assert_int_equal(run_h(c), 64);
    assert_non_null(strstr(out, "nothing to write"));
}

static int setup(void **st)
{
    (void)st;
    return dh_test_paths(harness, sizeof harness, ci, sizeof ci, tmpdir, sizeof tmpdir,
                         "/tmp/dh-test-exports-XXXXXX");
}

static int teardown(void **st)
{
    (void)st;
    if (!getenv("DH_TEST_KEEP")) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
        if (system(cmd)) {
        }
    }
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tuned_and_run),
        cmocka_unit_test(stdout_dash),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
