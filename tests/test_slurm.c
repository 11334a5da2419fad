/* test_slurm.c — `harness slurm` on a real one-node Slurm: ci/slurm-up.sh
 * starts it (SKIPPED with its reason where it cannot: not root, packages
 * missing), the micro suite at size small runs on PoCL as a 4-task array
 * and a merge job; the merged file must hold exactly the cases of one
 * unsharded plan, each verified. Then a shard that cannot write its results
 * must be named as missing and make the verdict 3. Slurm is stopped
 * afterwards when this test started it. */
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "../harness/run/plan.h"
#include "../harness/run/shard.h"
#include "../harness/stats/load.h"
#include "../results/xml.h"

static char harness[PATH_MAX], ci[PATH_MAX], tmpdir[64], out[1 << 16];
static int started;         /* 1: this test started Slurm, so it stops it */

/* prog with args (NULL-terminated, args[0] the program); stdout+stderr in out */
static int run_prog(const char *const *args)
{
    char log[128];
    snprintf(log, sizeof log, "%s/.log", tmpdir);
    return dh_test_exec(NULL, args, log, out, sizeof out);
}

static int slurm_running(void)
{
    const char *d = getenv("DH_SLURM_DIR") ? getenv("DH_SLURM_DIR") : "/tmp/divharness-slurm";
    char p[512], buf[32] = "";
    snprintf(p, sizeof p, "%s/slurmctld.pid", d);
    FILE *f = fopen(p, "r");
    if (!f)
        return 0;
    if (!fgets(buf, sizeof buf, f))
        buf[0] = 0;
    fclose(f);
    snprintf(p, sizeof p, "/proc/%d", atoi(buf));
    struct stat sb;
    return atoi(buf) > 0 && !stat(p, &sb);
}

/* the planned case of id, or -1 */
static int find(const struct dh_run *runs, int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(runs[i].c.id, id))
            return i;
    return -1;
}

static void micro_on_slurm(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    char up[PATH_MAX + 16];
    snprintf(up, sizeof up, "%s/slurm-up.sh", ci);
    int was_up = slurm_running();
    const char *a_up[] = {"bash", up, NULL};
    int rc = run_prog(a_up);
    if (rc == 77) {
        fprintf(stderr, "  (%s)\n", strtok(out, "\n"));
        skip();
        return;
    }
    if (rc)
        fprintf(stderr, "slurm-up.sh: exit %d\n%s\n", rc, out);
    assert_int_equal(rc, 0);
    started = !was_up;
    char *conf = strstr(out, "export SLURM_CONF=");
    assert_non_null(conf);
    conf += strlen("export SLURM_CONF=");
    conf[strcspn(conf, "\n")] = 0;
    setenv("SLURM_CONF", conf, 1);

    /* four shards and the merge, followed to the end */
    char results[128], merged[160];
    snprintf(results, sizeof results, "%s/r", tmpdir);
    snprintf(merged, sizeof merged, "%s/merged.xml", results);
    const char *a_run[] = {harness, "slurm", "--shards", "4", "--results", results, "--wait",
                           "--poll", "1", "--", "--suite", "micro", "--size", "small",
                           "--reps", "3", "--warmup", "1", NULL};
    rc = run_prog(a_run);
    fprintf(stderr, "%s", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "job array"));
    assert_non_null(strstr(out, "merge verdict 0"));

    /* the unsharded plan, made here */
    static struct dh_devlist devs;
    struct dh_err e = {0};
    assert_int_equal(dh_devices_gather(&devs, 0, &e), 0);
    struct dh_selection sel = {.suite = "micro", .size = "small", .reps = 3, .warmup = 1,
                               .timeout_s = 300, .device = -1, .profile = -1, .model = 1};
    struct dh_run *plan;
    int n;
    assert_int_equal(dh_plan(&sel, &devs, &plan, &n, &e), 0);
    struct dh_plan_rec *want = dh_shard_plan(plan, n, 1, 4, NULL);
    assert_non_null(want);

    static struct dh_resultfile f;
    assert_int_equal(dh_results_load(merged, &f, &e), 0);
    assert_int_equal(f.n_runs, n);                       /* exactly the plan's cases */
    int *seen = calloc((size_t)n, sizeof *seen);
    for (int k = 0; k < f.n_runs; k++) {
        int at = find(plan, n, f.runs[k].c.id);
        if (at < 0)
            fprintf(stderr, "not in the plan: %s\n", f.runs[k].c.id);
        assert_true(at >= 0);
        seen[at]++;
        if (f.runs[k].r.status)
            fprintf(stderr, "%s: %s\n", f.runs[k].c.id, f.runs[k].r.message);
        assert_int_equal(f.runs[k].r.status, 0);
        assert_true(f.runs[k].r.verified);
        assert_int_equal(f.runs[k].r.verify.mismatches, 0);
    }
    for (int i = 0; i < n; i++)
        assert_int_equal(seen[i], 1);
    assert_non_null(f.plan);
    assert_string_equal(f.plan->hash, want->hash);
    assert_int_equal(f.plan->shards, 4);
    assert_int_equal(f.plan->n_notes, 4);
    for (int k = 0; k < 4; k++)
        assert_int_equal(f.plan->notes[k].state, DH_SHARD_OK);
    dh_resultfile_free(&f);
    free(seen);

    /* shard 2 cannot write its results (its folder is a file): named as
     * missing in the merge, the verdict 3 */
    char results2[128], blocker[160];
    snprintf(results2, sizeof results2, "%s/r2", tmpdir);
    mkdir(results2, 0755);
    snprintf(blocker, sizeof blocker, "%s/shard-2", results2);
    FILE *b = fopen(blocker, "w");
    assert_non_null(b);
    fclose(b);
    /* (the baselines alone: what is asserted is the merge's account of
     * the missing shard, whatever the cases) */
    const char *a_bad[] = {harness, "slurm", "--shards", "4", "--results", results2, "--wait",
                           "--poll", "1", "--", "--suite", "micro", "--size", "small",
                           "--variant", "baseline", "--reps", "3", "--warmup", "1", NULL};
    rc = run_prog(a_bad);
    fprintf(stderr, "%s", out);
    assert_int_equal(rc, 3);
    assert_non_null(strstr(out, "shard 2/4 (array task 1) ended FAILED"));
    snprintf(merged, sizeof merged, "%s/merged.xml", results2);
    assert_int_equal(dh_results_load(merged, &f, &e), 0);
    assert_non_null(f.plan);
    assert_int_equal(f.plan->notes[1].state, DH_SHARD_MISSING);
    sel.variants = "baseline";
    struct dh_run *plan2;
    int n2;
    assert_int_equal(dh_plan(&sel, &devs, &plan2, &n2, &e), 0);
    free(plan2);
    assert_true(n2 >= 4);                     /* every shard has a case */
    assert_int_equal(f.plan->notes[1].planned, n2 - f.n_runs);
    for (int k = 0; k < 4; k++)
        if (k != 1)
            assert_int_equal(f.plan->notes[k].state, DH_SHARD_OK);
    dh_resultfile_free(&f);
    dh_plan_rec_free(want);
    free(plan);
}

static int setup(void **st)
{
    (void)st;
    if (dh_test_paths(harness, sizeof harness, ci, sizeof ci, tmpdir, sizeof tmpdir,
                      "/tmp/dh-test-slurm-XXXXXX"))
        return -1;
    return access(harness, X_OK);
}

static int teardown(void **st)
{
    (void)st;
    if (started) {
        char down[PATH_MAX + 16];
        snprintf(down, sizeof down, "%s/slurm-down.sh", ci);
        const char *a[] = {"bash", down, NULL};
        if (run_prog(a))
            fprintf(stderr, "slurm-down.sh: %s\n", out);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    setenv("DH_CACHE_DIR", "/tmp/dh-test-cache", 0);
    const struct CMUnitTest t[] = {
        cmocka_unit_test(micro_on_slurm),
    };
    return cmocka_run_group_tests_name("slurm", t, setup, teardown);
}
