/* test_sanitize.c — kernels under compute-sanitizer on a CUDA GPU: cases
 * that a sanitizer once found wrong, each run again under the tool that
 * found it. SKIPPED without compute-sanitizer in PATH or without a CUDA
 * device (the harness's `devices` lists none); ci/gpu-check.sh's
 * sanitize-SUITE steps cover every kernel of a suite.
 *
 * rodinia/lud at bs=64: lu_diag's row step read L's row with 16-byte
 * loads past the columns it needed, into the words other work-items were
 * writing (racecheck: 46 errors on an H200). */
#define _GNU_SOURCE
#include <limits.h>
#include <unistd.h>

#include "testutil.h"

static char harness[PATH_MAX], tmpdir[64];

static int has_tool(void)
{
    return system("command -v compute-sanitizer > /dev/null 2>&1") == 0;
}

static int has_cuda_device(void)
{
    char cmd[PATH_MAX + 64];
    snprintf(cmd, sizeof cmd, "%s devices 2>/dev/null | grep -q '^cuda *available: [1-9]'",
             harness);
    return system(cmd) == 0;
}

/* the tool's summary line and exit status of one run */
static int sanitize(const char *tool, const char *args, char *summary, size_t len)
{
    char cmd[4096], log[128];
    snprintf(log, sizeof log, "%s/%s.txt", tmpdir, tool);
    snprintf(cmd, sizeof cmd,
             "compute-sanitizer --tool %s --error-exitcode 9 --print-limit 20 %s run "
             "--backend cuda --size small --reps 1 --warmup 1 --isolate no --counters no "
             "--no-model --fresh --out %s/out-%s %s > %s 2>&1",
             tool, harness, tmpdir, tool, args, log);
    int rc = system(cmd);
    summary[0] = 0;
    FILE *f = fopen(log, "r");
    if (f) {
        char line[1024];
        while (fgets(line, sizeof line, f))
            if (strstr(line, "SUMMARY"))
                snprintf(summary, len, "%s", line);
        fclose(f);
    }
    if (rc != 0) {
        snprintf(cmd, sizeof cmd, "tail -n 40 %s >&2", log);
        if (system(cmd)) {
        }
    }
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void lud_bs64_racecheck(void **st)
{
    (void)st;
    if (!has_tool() || !has_cuda_device()) {
        fprintf(stderr, "  (needs compute-sanitizer and a CUDA GPU)\n");
        skip();
        return;
    }
    char summary[512];
    int rc = sanitize("racecheck", "--suite rodinia --bench lud --param bs=64 --variant all",
                      summary, sizeof summary);
    fprintf(stderr, "  %s", summary);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(summary, " 0 hazards"));
}

static int setup(void **st)
{
    (void)st;
    char ci[PATH_MAX];
    return dh_test_paths(harness, sizeof harness, ci, sizeof ci, tmpdir, sizeof tmpdir,
                         "/tmp/dh-test-sanitize-XXXXXX");
}

static int teardown(void **st)
{
    (void)st;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(lud_bs64_racecheck),
    };
    return cmocka_run_group_tests_name("sanitize", t, setup, teardown);
}
