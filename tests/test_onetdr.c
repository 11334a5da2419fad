/* test_onetdr.c — the frontier's one-remap gpu_tdr forms end to end on
 * the OpenCL device (PoCL here): pol natkey_dgi (meld, kstat, group
 * sizes), cvp model_dgi and lean_dgi (group sizes that take the tile's
 * both layouts), each case verified against the CPU reference; their
 * warp-vote twins (natkey_scan, model_scan, lean_scan) refused there.
 * SKIPPED where there is no OpenCL device. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "../harness/run/plan.h"
#include "../harness/run/steps.h"
#include "../suites/suite.h"

static struct dh_devlist devs;

/* The frontier's one-remap gpu_tdr forms (pol natkey_*, cvp model_* and
 * lean_*) at size small on the OpenCL device, each verified against the
 * reference, over work-group sizes that take the kernels' other tile and
 * neighbourhood paths; their warp-vote twins are refused there, naming
 * the portable forms. */
static void frontier_forms(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    struct dh_err e = {0};
    assert_int_equal(dh_devices_gather(&devs, 0, &e), 0);
    static const struct {
        const char *bench, *p[4];
    } want[] = {
        {"pol", {"alg=natkey_dgi", "meld=1", "kstat=2", NULL}},
        {"pol", {"alg=natkey_dgi", "meld=0", "wg=512", "nf=32"}},
        {"pol", {"alg=natkey_dgi", "kstat=1", "wg=128", "nf=8"}},
        {"cvp", {"alg=model_dgi,lean_dgi", NULL}},
        {"cvp", {"alg=model_dgi,lean_dgi", "wg=512", "nf=32"}},
        {"cvp", {"alg=lean_dgi", "wg=64", "nf=8"}},
    };
    for (unsigned w = 0; w < sizeof want / sizeof want[0]; w++) {
        struct dh_selection sel = {.suite = "frontier", .benches = want[w].bench,
                                   .size = "small", .reps = 2, .warmup = 1, .timeout_s = 300,
                                   .device = -1, .backends = "opencl", .variants = "gpu_tdr"};
        for (int k = 0; k < 4 && want[w].p[k]; k++)
            sel.params[sel.n_params++] = want[w].p[k];
        struct dh_run *runs;
        int n;
        if (dh_plan(&sel, &devs, &runs, &n, &e))
            fail_msg("plan %s %s: %s", want[w].bench, want[w].p[0], e.msg);
        assert_true(n >= 1);
        struct dh_runner_opts o = {.isolate = 0};
        assert_int_equal(dh_runner_execute(runs, n, &o), 0);
        for (int r = 0; r < n; r++)
            if (runs[r].r.status || !runs[r].r.verified || runs[r].r.verify.mismatches
                || runs[r].r.verify.checked <= 0)
                fail_msg("%s: status %d: %s", runs[r].c.id, runs[r].r.status,
                         runs[r].r.message);
        free(runs);
    }
    static const char *const votes[][2] = {{"pol", "alg=natkey_scan"},
                                           {"cvp", "alg=model_scan"}, {"cvp", "alg=lean_scan"}};
    for (unsigned v = 0; v < sizeof votes / sizeof votes[0]; v++) {
        struct dh_selection sel = {.suite = "frontier", .benches = votes[v][0], .size = "small",
                                   .reps = 2, .timeout_s = 300, .device = -1,
                                   .backends = "opencl", .variants = "gpu_tdr", .n_params = 1,
                                   .params = {votes[v][1]}};
        struct dh_run *runs = NULL;
        int n = 0;
        memset(&e, 0, sizeof e);
        int rc = dh_plan(&sel, &devs, &runs, &n, &e);
        if (!rc) {
            /* planned: each case must then be refused at its check */
            assert_int_equal(dh_runner_execute(runs, n, &(struct dh_runner_opts){.isolate = 0}), 0);
            for (int r = 0; r < n; r++)
                assert_int_equal(runs[r].r.status, DH_E_UNSUPPORTED);
            free(runs);
        } else {
            assert_non_null(strstr(e.msg, "warp votes"));
            assert_non_null(strstr(e.msg, votes[v][0][0] == 'p' ? "natkey_dgi" : "model_dgi"));
        }
    }
}

int main(void)
{
    setenv("DH_CACHE_DIR", "/tmp/dh-test-cache", 0);
    const struct CMUnitTest t[] = {cmocka_unit_test(frontier_forms)};
    return cmocka_run_group_tests_name("onetdr", t, NULL, NULL);
}
